//! Arcane Artificer's core: everything that runs per entity per frame.
//!
//! `sim` is the frame pipeline (pools, spatial grid, movement, combat),
//! `vm` is the wand that decides what the player fires, and `py` is the
//! thin PyO3 face, compiled only with the `python` feature so that
//! `cargo test` and `cargo bench` build the pure core without Python.

pub mod sim;
pub mod vm;

#[cfg(feature = "python")]
mod py;
