//! The enemies' pool: where each monster is, its health and its statuses.

use crate::sim::ids::{Id, IdMap};

pub struct NewEnemy {
    pub x: f32,
    pub y: f32,
    pub radius: f32,
    pub speed: f32,
    pub hp: f32,
    pub kind: u16,
    pub elite: bool,
    pub cooldown: f32,
    pub offspring: bool,
}

pool! {
    /// The enemies on the field, bosses included: one row each.
    pub struct Enemies {
        hash section "enemies";
        ids: IdMap, hash(slots, generations);
        compact: dead;
        fn push(e: NewEnemy) -> Id;
        x: f32 = e.x, hash(f32s);
        y: f32 = e.y, hash(f32s);
        radius: f32 = e.radius, hash(f32s);
        /// px per tick
        speed: f32 = e.speed, hash(f32s);
        hp: f32 = e.hp, hash(f32s);
        hp_max: f32 = e.hp, hash(f32s);
        /// Seconds left of the vulnerable / weak statuses.
        vulnerable: f32 = 0.0, hash(f32s);
        weak: f32 = 0.0, hash(f32s);
        /// Seconds to the next shot (kinds with an `attack`; unused otherwise).
        cooldown: f32 = e.cooldown, hash(f32s);
        kind: u16 = e.kind, hash(u32s);
        elite: bool = e.elite, hash(packed(offspring << 1));
        /// Born of a split: never splits again. Hashed packed with `elite`.
        offspring: bool = e.offspring, hash(no);
        /// R-DMG-2 statuses: seconds left of each (0 = none).
        burn: f32 = 0.0, hash(section "statuses", f32s);
        chill: f32 = 0.0, hash(f32s);
        frozen: f32 = 0.0, hash(f32s);
        shock: f32 = 0.0, hash(f32s);
        poison: f32 = 0.0, hash(f32s);
        wet: f32 = 0.0, hash(f32s);
        /// Chills gathered toward a freeze; poison stacks (hashed packed with `chills`).
        chills: u8 = 0, hash(packed(poison_stacks << 8));
        poison_stacks: u8 = 0, hash(no);
        /// Auto-aim: until this frame, shots in flight are expected to kill
        /// the enemy, so the wand aims at another (0 = never claimed).
        claimed_until: u64 = 0, hash(low_u32s);
        /// The frame after the last hit that dealt damage (0 = never): the
        /// renderer's hit flash (R-FEEL-1). Presentation only, not hashed.
        hit_frame: u64 = 0, hash(no);
        /// Killed this frame, removed by `compact` at the end of the step
        /// (so never set when the state is hashed).
        dead: bool = false, hash(no);
    }
}

impl Enemies {
    /// The live enemy nearest a point. A linear scan: called a few times a
    /// frame at most, where a ring search of the grid would not pay off.
    pub fn nearest(&self, x: f32, y: f32) -> Option<usize> {
        let mut best = (f32::INFINITY, None);
        for i in 0..self.len() {
            if self.dead[i] {
                continue;
            }
            let (dx, dy) = (self.x[i] - x, self.y[i] - y);
            let d2 = dx * dx + dy * dy;
            if d2 < best.0 {
                best = (d2, Some(i));
            }
        }
        best.1
    }
}
