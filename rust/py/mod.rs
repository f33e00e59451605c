//! The PyO3 face: `artificer._core`. Thin: converts Python data and numpy
//! buffers into the core's types, delegates, and maps errors once. No game
//! rules live here.

mod args;
mod arrays;
mod catalog;
mod config;
mod errors;
mod render;
mod world;

use pyo3::prelude::*;

#[pymodule]
mod _core {
    #[pymodule_export]
    use super::catalog::{Catalog, WandSandbox};
    #[pymodule_export]
    use super::render::SpriteRasterizer;
    #[pymodule_export]
    use super::world::World;

    use super::world::layout;
    use pyo3::prelude::*;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        for (name, value) in layout::CONSTANTS {
            m.add(*name, *value)?;
        }
        Ok(())
    }
}
