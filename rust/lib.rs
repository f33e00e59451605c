//! Arcane Artificer's core: everything that runs per entity per frame.
//!
//! `sim` is the frame pipeline (pools, spatial grid, movement, combat),
//! `vm` is the wand that decides what the player fires, `render` draws
//! the frame buffers' sprites into a window's pixels, and `py` is the
//! thin PyO3 face, compiled only with the `python` feature so that
//! `cargo test` and `cargo bench` build the pure core without Python.

pub mod render;
pub mod sim;
pub mod vm;

#[cfg(feature = "python")]
mod py;
