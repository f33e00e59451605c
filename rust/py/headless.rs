//! `HeadlessBooks`: the wave's numbers `World.play_bot` keeps between the frames Python sees
//! (`sim::headless::Books`), read and written by `artificer.game.run.WaveInProgress` around
//! each call.

use pyo3::prelude::*;

use crate::sim::headless::Books;

#[pyclass(module = "artificer._core")]
#[derive(Default)]
pub struct HeadlessBooks {
    pub books: Books,
}

impl HeadlessBooks {
    /// Damage-taken slots for `sources` (the enemy kinds, then the projectiles).
    pub fn fit(&mut self, sources: usize) {
        self.books.taken.resize(sources, 0.0);
    }
}

/// Each field as a Python attribute, read and written.
macro_rules! fields {
    ($($name:ident: $ty:ty => $get:ident, $set:ident;)*) => {
        #[pymethods]
        impl HeadlessBooks {
            #[new]
            fn new() -> Self {
                HeadlessBooks::default()
            }
            $(
                #[getter]
                fn $get(&self) -> $ty {
                    self.books.$name.clone()
                }
                #[setter]
                fn $set(&mut self, value: $ty) {
                    self.books.$name = value;
                }
            )*
        }
    };
}

fields! {
    frames: u64 => frames, set_frames;
    kills: u64 => kills, set_kills;
    spawned: u64 => spawned, set_spawned;
    damage_dealt: f64 => damage_dealt, set_damage_dealt;
    damage_taken: f64 => damage_taken, set_damage_taken;
    taken: Vec<f64> => taken, set_taken;
    seen: Vec<u32> => seen, set_seen;
    picked: f64 => picked, set_picked;
    max_alive: u64 => max_alive, set_max_alive;
    alive: u64 => alive, set_alive;
    biggest_hit: f64 => biggest_hit, set_biggest_hit;
    last_will: bool => last_will, set_last_will;
    died: bool => died, set_died;
    starved: bool => starved, set_starved;
    out_of_mana_frames: u64 => out_of_mana_frames, set_out_of_mana_frames;
    empty_stretch: u64 => empty_stretch, set_empty_stretch;
    empty_frames: u64 => empty_frames, set_empty_frames;
    fang_kills: u64 => fang_kills, set_fang_kills;
}
