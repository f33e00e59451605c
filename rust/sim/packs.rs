//! A spawn's pack as it lands (R-WAVE-1, R-WAVE-2): the wave director
//! (`artificer.game.waves.WaveDirector`) announces a pack at a point on the spawn edge and, when
//! the announcement runs out, its members land on a small sunflower spiral around that point, so
//! they do not start stacked (separation does the rest). Past the field's cap (`max_alive`) only
//! those that fit land; elites always do.
//!
//! One implementation for both paths: Python's director lands its packs with `pack_offsets`
//! (`_core.pack_offsets`), and the headless run's frames in the core (`sim::headless`) land the
//! packs announced before them with `Landing::land` — in the director's order and arithmetic, so
//! the spawns are the same to the bit.

use super::commands::Command;

/// The offset of member `i` of a pack of `count` from its marker: radius `6·√count` (none for one),
/// member `i` at `radius·√((i + ½)/count)` and angle `i·π(3 − √5)` (the golden angle).
pub fn pack_offset(count: u32, i: u32) -> (f64, f64) {
    let count_f = f64::from(count);
    let radius = if count <= 1 { 0.0 } else { 6.0 * count_f.sqrt() };
    let golden = std::f64::consts::PI * (3.0 - 5.0f64.sqrt());
    let r = radius * ((f64::from(i) + 0.5) / count_f).sqrt();
    let a = f64::from(i) * golden;
    (r * a.cos(), r * a.sin())
}

/// An announced pack waiting to land (`artificer.game.waves.SpawnMarker`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Landing {
    /// Seconds into the wave it lands at.
    pub at: f64,
    pub kind: u16,
    pub count: u32,
    pub elite: bool,
    pub x: f64,
    pub y: f64,
}

impl Landing {
    /// How many of the pack come with `alive` enemies on the field (`WaveDirector._fitting`).
    pub fn fitting(&self, alive: u64, cap: Option<u64>) -> u32 {
        match cap {
            Some(cap) if !self.elite => u64::from(self.count).min(cap.saturating_sub(alive)) as u32,
            _ => self.count,
        }
    }

    /// The pack's spawn commands, `fitting` members of it.
    pub fn spawns(&self, fitting: u32, out: &mut Vec<Command>) {
        out.extend((0..fitting).map(|i| {
            let (dx, dy) = pack_offset(fitting, i);
            Command::Spawn { kind: self.kind, elite: self.elite, x: (self.x + dx) as f32, y: (self.y + dy) as f32 }
        }));
    }
}

/// The packs announced and not landed yet, in the director's order, and the field's cap.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Landings {
    pub pending: Vec<Landing>,
    pub cap: Option<u64>,
    /// Members the cap kept from coming, over the calls so far.
    pub held_back: u64,
}

impl Landings {
    /// Lands every pack due by `t` seconds into the wave with `alive` enemies on the field
    /// (`WaveDirector.update`): their spawns appended to `out`, in order.
    pub fn land(&mut self, t: f64, mut alive: u64, out: &mut Vec<Command>) {
        let (cap, mut held_back) = (self.cap, 0);
        self.pending.retain(|m| {
            if m.at > t {
                return true;
            }
            let fitting = m.fitting(alive, cap);
            held_back += u64::from(m.count - fitting);
            alive += u64::from(fitting);
            m.spawns(fitting, out);
            false
        });
        self.held_back += held_back;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_member_lands_on_its_marker() {
        assert_eq!(pack_offset(1, 0), (0.0, 0.0));
    }

    #[test]
    fn a_pack_spreads_within_its_radius_and_no_two_members_share_a_point() {
        let points: Vec<_> = (0..12).map(|i| pack_offset(12, i)).collect();
        let radius = 6.0 * 12f64.sqrt();
        assert!(points.iter().all(|(x, y)| x.hypot(*y) <= radius));
        for (i, a) in points.iter().enumerate() {
            assert!(points[i + 1..].iter().all(|b| (a.0 - b.0).hypot(a.1 - b.1) > 1.0));
        }
    }

    fn pack(at: f64, count: u32, elite: bool) -> Landing {
        Landing { at, kind: 3, count, elite, x: 100.0, y: 200.0 }
    }

    #[test]
    fn packs_land_when_due_in_order_and_the_cap_holds_back_all_but_elites() {
        let mut landings = Landings {
            pending: vec![pack(1.0, 5, false), pack(2.0, 4, false), pack(1.5, 3, true)],
            cap: Some(8),
            held_back: 0,
        };
        let mut out = Vec::new();
        landings.land(0.5, 0, &mut out);
        assert!(out.is_empty());
        // 6 alive: the first pack brings 2 of 5; the elites all come, past the cap.
        landings.land(1.5, 6, &mut out);
        assert_eq!(out.len(), 2 + 3);
        assert_eq!(landings.held_back, 3);
        assert_eq!(landings.pending, vec![pack(2.0, 4, false)]);
        assert!(matches!(out[2], Command::Spawn { elite: true, .. }));
    }
}
