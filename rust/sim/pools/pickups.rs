//! The pickups' pool: mana crystals on the ground.

use crate::sim::ids::{Id, IdMap};

pool! {
    /// Mana crystals (the currency) dropped by dying enemies (R-LOOP-2).
    pub struct Pickups {
        hash section "pickups";
        ids: IdMap, hash(no);
        compact: dead;
        fn push(x: f32, y: f32, value: u32, radius: f32) -> Id;
        x: f32 = x, hash(f32s);
        y: f32 = y, hash(f32s);
        value: u32 = value, hash(u32s);
        /// Fixed at spawn (balance.json `pickups.radius`): not hashed.
        radius: f32 = radius, hash(no);
        /// Collected this frame, removed by `compact` at the end of the step.
        dead: bool = false, hash(no);
    }
}
