//! Bosses (R-BOSS-1/2): what a boss kind carries (`EnemyKind::boss`), as
//! game flow decodes it from its `data/bosses/<id>.json`. A boss is an enemy
//! of a kind with this block: it moves, is hit and dies as any enemy, and its
//! phases change how (world/bosses.rs keeps each live boss's state and runs
//! its patterns).
//!
//! A phase holds from `enter` down to `exit` (shares of max HP). Phases only
//! advance: one big hit may cross several (each is entered in order), and
//! healing back above a threshold (`regen_on_physical_hit`) never returns to
//! an earlier one. A phase with `last_will` (NG+'s phase 4) is never entered by
//! HP: the blow that would kill the boss enters it instead, once.
//!
//! Patterns are the fixed vocabulary the data's `behavior_tags` choose from:
//! `spread` (a ring of N shots every t, each volley turned half a gap),
//! `barrage` (a fan of shots aimed at the player every t), `burst` (a dense
//! ring every t: the full-screen burst), `reflect` (frontal physical shots
//! come back, the reflector's rule), `plates` (flat armor per plate; each hit
//! of the weak element strips one), `adds` (enemies of a kind every t),
//! `clones` (copies on entering the phase), `last_will`. Clones and adds die
//! with their boss.
//!
//! R-BOSS-3: every volley (spread, barrage, burst) is telegraphed. When its
//! timer runs out the boss winds up — a `BossTelegraph` event, the volley's
//! origin and direction locked — and the volley fires `telegraph` seconds
//! later, from the marked spot along the marked lines (a barrage keeps the aim
//! it took at the wind-up, so a player can step out of it). The wind-up is
//! never shortened by enrage: at least `MIN_TELEGRAPH` seconds, always.

use super::config::{Element, Shield, ELEMENTS};

/// Most shots one volley may fire, adds one interval may bring, clones a phase may make.
pub const MAX_VOLLEY: u32 = 256;
pub const MAX_ADDS: u32 = 64;
pub const MAX_CLONES: u32 = 16;
/// Most phases a boss may have.
pub const MAX_PHASES: usize = 16;
/// R-BOSS-3: a volley's wind-up, in seconds: at least half a second (a player can dodge it),
/// at most three (longer reads as no attack at all). The content models hold the same range.
pub const MIN_TELEGRAPH: f32 = 0.5;
pub const MAX_TELEGRAPH: f32 = 3.0;

/// A boss's projectiles: px/s, damage (through the player's armor), px, seconds.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct BossShot {
    pub speed: f32,
    pub damage: f32,
    pub radius: f32,
    pub lifetime: f32,
}

/// Multipliers of an enraged boss: its speed, its damage (touch and shots),
/// and its patterns' intervals (below 1: more often).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Enrage {
    pub speed: f32,
    pub damage: f32,
    pub interval: f32,
    /// It walks at the player even in a stationary phase (a fight always comes to the player).
    pub chase: bool,
}

/// `count` shots every `every` seconds (a ring: spread, burst).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Volley {
    pub count: u32,
    pub every: f32,
}

/// `shots` aimed at the player across `spread_degrees`, every `every` seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Barrage {
    pub every: f32,
    pub shots: u32,
    pub spread_degrees: f32,
}

/// Armor plates: `count` on entering the phase, `armor` flat armor each; a hit
/// of `weak` strips one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plates {
    pub count: u32,
    pub armor: f32,
    pub weak: Element,
}

/// `count` enemies of `kind` round the boss every `every` seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Adds {
    pub kind: u16,
    pub count: u32,
    pub every: f32,
}

/// `count` enemies of `kind` (the boss's clone kind) on entering the phase.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clones {
    pub kind: u16,
    pub count: u32,
}

/// NG+'s Last Will: the killing blow is refused; the boss is invulnerable for
/// `invulnerable` seconds and back to `restore` of its max HP.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LastWill {
    pub invulnerable: f32,
    pub restore: f32,
}

/// One phase of a boss (seed 001 §4.5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BossPhase {
    /// Its number in the data (1, 2, 3…; reported by `BossPhase` events).
    pub number: u32,
    /// It holds while `exit < hp / hp_max <= enter`.
    pub enter: f32,
    pub exit: f32,
    /// R-DMG-1 resistance per element in this phase.
    pub resist: [f32; ELEMENTS],
    /// Share of max HP healed by each physical hit.
    pub regen_on_physical_hit: f32,
    /// At most this × the hit's damage dealt is healed (None: the whole share,
    /// whatever the hit): physical builds grind slower, never backwards.
    pub regen_hit_cap: Option<f32>,
    /// Stands still (else it chases, as any enemy).
    pub stationary: bool,
    pub speed_multiplier: f32,
    pub damage_multiplier: f32,
    /// Entering it hyper-enrages the boss (`BossDef::hyper`).
    pub hyper: bool,
    pub spread: Option<Volley>,
    pub barrage: Option<Barrage>,
    pub burst: Option<Volley>,
    pub reflect: Option<Shield>,
    pub plates: Option<Plates>,
    pub adds: Option<Adds>,
    pub clones: Option<Clones>,
    pub last_will: Option<LastWill>,
}

impl BossPhase {
    /// A phase from `enter` down to `exit` that resists nothing, chases at its kind's speed and
    /// fires nothing: a base for literal phases in harnesses and tests.
    pub fn new(number: u32, enter: f32, exit: f32) -> BossPhase {
        BossPhase {
            number,
            enter,
            exit,
            resist: [0.0; ELEMENTS],
            regen_on_physical_hit: 0.0,
            regen_hit_cap: None,
            stationary: false,
            speed_multiplier: 1.0,
            damage_multiplier: 1.0,
            hyper: false,
            spread: None,
            barrage: None,
            burst: None,
            reflect: None,
            plates: None,
            adds: None,
            clones: None,
            last_will: None,
        }
    }
}

/// A boss kind's block: its phases in order (a `last_will` phase last), its
/// shots, and its hyper-enrage once the fight has lasted `enrage_after` seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct BossDef {
    pub phases: Vec<BossPhase>,
    pub shot: BossShot,
    pub enrage_after: f32,
    pub hyper: Enrage,
    /// R-BOSS-3: seconds from a volley's wind-up (`BossTelegraph`) to its shots, every pattern's.
    pub telegraph: f32,
}

impl BossDef {
    /// The phase a boss in phase `current` is in at `fraction` of its max HP:
    /// the last phase (not a last-will one) whose `enter` is at least
    /// `fraction`, never earlier than `current`.
    pub fn phase_for(&self, current: usize, fraction: f32) -> usize {
        let mut phase = current;
        for (i, p) in self.phases.iter().enumerate().skip(current + 1) {
            if p.last_will.is_none() && fraction <= p.enter {
                phase = i;
            }
        }
        phase
    }

    /// The phase the killing blow enters (NG+'s Last Will), if any.
    pub fn last_will_phase(&self) -> Option<usize> {
        self.phases.iter().position(|p| p.last_will.is_some())
    }

    /// Whether some phase reflects (hits then look for a shield at all).
    pub fn reflects(&self) -> bool {
        self.phases.iter().any(|p| p.reflect.is_some())
    }

    /// Every number in range and the phases in order, else what is wrong
    /// (`WorldConfig::validate` names the kind; content checks tighter ranges first).
    pub fn validate(&self, kinds: usize) -> Result<(), String> {
        let bad = |why: String| Err(why);
        let ok = |v: f32, lo: f32, hi: f32| v.is_finite() && v >= lo && v <= hi;
        let s = &self.shot;
        if !(ok(s.speed, 0.0, 1e5) && ok(s.damage, 0.0, 1e9) && ok(s.radius, 0.0, 1e4) && ok(s.lifetime, 0.0, 600.0)) {
            return bad("shot numbers out of range".into());
        }
        let (h, enrage) = (&self.hyper, ok(self.enrage_after, 0.0, 1e6));
        if !(enrage && ok(h.speed, 0.0, 100.0) && ok(h.damage, 0.0, 100.0) && ok(h.interval, 0.01, 100.0)) {
            return bad("enrage numbers out of range".into());
        }
        if !ok(self.telegraph, MIN_TELEGRAPH, MAX_TELEGRAPH) {
            let t = self.telegraph;
            return bad(format!("telegraph must be {MIN_TELEGRAPH} to {MAX_TELEGRAPH} s (R-BOSS-3), got {t}"));
        }
        if self.phases.is_empty() || self.phases.len() > MAX_PHASES {
            return bad(format!("1 to {MAX_PHASES} phases, got {}", self.phases.len()));
        }
        let last = self.phases.len() - 1;
        for (i, p) in self.phases.iter().enumerate() {
            let name = format!("phase {}", p.number);
            let numbers = ok(p.enter, -1.0, 1.0)
                && ok(p.exit, -1.0, 1.0)
                && p.exit < p.enter
                && p.resist.iter().all(|&r| ok(r, 0.0, 1.0))
                && ok(p.regen_on_physical_hit, 0.0, 1.0)
                && p.regen_hit_cap.is_none_or(|c| ok(c, 0.0, 100.0))
                && ok(p.speed_multiplier, 0.0, 100.0)
                && ok(p.damage_multiplier, 0.0, 100.0);
            if !numbers {
                return bad(format!("{name}: numbers out of range"));
            }
            let interval = |t: f32| ok(t, 0.01, 1e4);
            let volley = |v: Option<Volley>| v.is_none_or(|v| interval(v.every) && (1..=MAX_VOLLEY).contains(&v.count));
            let patterns = volley(p.spread)
                && volley(p.burst)
                && p.barrage.is_none_or(|b| {
                    interval(b.every) && (1..=MAX_VOLLEY).contains(&b.shots) && ok(b.spread_degrees, 0.0, 360.0)
                })
                && p.reflect.is_none_or(|r| ok(r.arc_degrees, 0.001, 360.0) && ok(r.reflect_damage, 0.0, 100.0))
                && p.plates.is_none_or(|pl| pl.count <= MAX_VOLLEY && ok(pl.armor, 0.0, 1e9))
                && p.adds.is_none_or(|a| (a.kind as usize) < kinds && interval(a.every) && a.count <= MAX_ADDS)
                && p.clones.is_none_or(|c| (c.kind as usize) < kinds && c.count <= MAX_CLONES)
                && p.last_will.is_none_or(|l| ok(l.invulnerable, 0.0, 600.0) && ok(l.restore, 0.001, 1.0));
            if !patterns {
                return bad(format!("{name}: a pattern's numbers out of range or an unknown kind"));
            }
            if p.last_will.is_some() && i != last {
                return bad(format!("{name}: a last_will phase comes last"));
            }
            if i == 0 && p.last_will.is_some() {
                return bad(format!("{name}: the first phase cannot be a last_will phase"));
            }
        }
        Ok(())
    }
}

/// The unit directions of a ring of `n` shots, the first at `offset` radians.
pub fn ring(n: u32, offset: f32) -> impl Iterator<Item = (f32, f32)> {
    let gap = std::f32::consts::TAU / n.max(1) as f32;
    (0..n).map(move |i| {
        let a = offset + gap * i as f32;
        (libm::cosf(a), libm::sinf(a))
    })
}

/// The unit directions of a fan of `shots` centred on `aim` (a unit vector),
/// `spread_degrees` wide from the first to the last.
pub fn fan(aim: (f32, f32), shots: u32, spread_degrees: f32) -> impl Iterator<Item = (f32, f32)> {
    fan_at(libm::atan2f(aim.1, aim.0), shots, spread_degrees)
}

/// `fan` centred on the angle `centre` (radians).
pub fn fan_at(centre: f32, shots: u32, spread_degrees: f32) -> impl Iterator<Item = (f32, f32)> {
    let spread = spread_degrees.to_radians();
    let step = if shots > 1 { spread / (shots - 1) as f32 } else { 0.0 };
    (0..shots).map(move |i| {
        let a = centre - spread * 0.5 * (shots > 1) as u8 as f32 + step * i as f32;
        (libm::cosf(a), libm::sinf(a))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phase(number: u32, enter: f32, exit: f32) -> BossPhase {
        BossPhase::new(number, enter, exit)
    }

    fn three_phases() -> BossDef {
        let mut will = phase(4, 0.0, -0.3);
        will.last_will = Some(LastWill { invulnerable: 5.0, restore: 0.3 });
        BossDef {
            phases: vec![phase(1, 1.0, 0.5), phase(2, 0.5, 0.1), phase(3, 0.1, 0.0), will],
            shot: BossShot { speed: 200.0, damage: 5.0, radius: 6.0, lifetime: 3.0 },
            enrage_after: 180.0,
            hyper: Enrage { speed: 1.5, damage: 2.0, interval: 0.5, chase: true },
            telegraph: 0.75,
        }
    }

    #[test]
    fn phases_enter_at_their_thresholds_and_only_advance() {
        let b = three_phases();
        assert_eq!(b.phase_for(0, 1.0), 0);
        assert_eq!(b.phase_for(0, 0.51), 0);
        assert_eq!(b.phase_for(0, 0.5), 1, "at the threshold: the next phase");
        assert_eq!(b.phase_for(0, 0.05), 2, "one big hit crosses two");
        assert_eq!(b.phase_for(2, 0.9), 2, "healing never goes back");
        assert_eq!(b.phase_for(2, 0.0), 2, "the last-will phase is never entered by HP");
        assert_eq!(b.last_will_phase(), Some(3));
        assert!(b.validate(1).is_ok());
    }

    #[test]
    fn bad_blocks_are_refused_with_the_phase_named() {
        let mut b = three_phases();
        b.phases[1].exit = 0.6;
        assert!(b.validate(1).unwrap_err().contains("phase 2"));
        let mut b = three_phases();
        b.phases.swap(2, 3);
        assert!(b.validate(1).unwrap_err().contains("comes last"));
        let mut b = three_phases();
        b.phases[0].adds = Some(Adds { kind: 5, count: 1, every: 1.0 });
        assert!(b.validate(2).is_err(), "an add of an unknown kind");
        let mut b = three_phases();
        b.phases[0].spread = Some(Volley { count: 0, every: 1.0 });
        assert!(b.validate(1).is_err());
    }

    /// R-BOSS-3: a wind-up under half a second (or NaN, or absurdly long) is refused, by name.
    #[test]
    fn r_boss_3_a_telegraph_out_of_range_is_refused() {
        for telegraph in [0.49, 0.0, -1.0, f32::NAN, 3.01] {
            let b = BossDef { telegraph, ..three_phases() };
            let why = b.validate(1).unwrap_err();
            assert!(why.contains("telegraph") && why.contains("R-BOSS-3"), "{why}");
        }
        for telegraph in [MIN_TELEGRAPH, MAX_TELEGRAPH] {
            assert!(BossDef { telegraph, ..three_phases() }.validate(1).is_ok());
        }
    }

    #[test]
    fn rings_and_fans_point_where_they_should() {
        let r: Vec<_> = ring(4, 0.0).collect();
        assert!((r[0].0 - 1.0).abs() < 1e-6 && (r[1].1 - 1.0).abs() < 1e-6 && (r[2].0 + 1.0).abs() < 1e-6);
        let f: Vec<_> = fan((1.0, 0.0), 3, 90.0).collect();
        assert!((f[1].0 - 1.0).abs() < 1e-6, "the middle shot is aimed");
        assert!((f[0].1 + f[2].1).abs() < 1e-6 && f[0].1 < 0.0, "the others either side");
        let one: Vec<_> = fan((0.0, 1.0), 1, 90.0).collect();
        assert!((one[0].1 - 1.0).abs() < 1e-6);
    }
}
