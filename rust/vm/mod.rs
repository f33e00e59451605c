//! The wand: what the player fires, and when. Unarmed, or a compiled
//! program (`board`, `compile`, `program`, `exec`, `mana`) that the world
//! casts each tick (`sim/world/spells.rs`).

pub mod board;
pub mod compile;
pub mod exec;
pub mod mana;
pub mod program;
pub mod reach;
pub mod sample;
pub mod spell;
pub mod timeline;

#[derive(Clone, Debug, Default)]
pub enum Wand {
    /// Fires nothing (the stress workload, or before a wand is set).
    #[default]
    Unarmed,
    /// A compiled program with its mana pool (the spell VM); the world
    /// casts it (`sim/world/spells.rs`).
    Program(Box<exec::Caster>),
}

impl Wand {
    /// Seconds until the next cast (0 when unarmed).
    pub fn timer(&self) -> f32 {
        match self {
            Wand::Unarmed => 0.0,
            Wand::Program(c) => c.timer,
        }
    }
}
