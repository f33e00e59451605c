//! The sprite rasterizer: draws the arena's entities (rows of the frame
//! buffers) from the sprite atlas straight into a window surface's pixels.
//! Pure Rust, no PyO3 here; `py/render.rs` is its face.
//!
//! `sheet` holds the sprites converted for the target's `format`, `blend`
//! is the one premultiplied source-over, `raster` culls, clips and draws
//! layers in order (on horizontal bands across threads if asked).
//! Rendering only reads the frame buffers; the simulation never sees it.

pub mod blend;
pub mod format;
pub mod raster;
pub mod sheet;

pub use format::PixelFormat;
pub use raster::{Layer, Rasterizer, Sprites, Target};
pub use sheet::SpriteImage;
