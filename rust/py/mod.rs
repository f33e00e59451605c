//! The PyO3 face: `artificer._core`. Thin: converts Python data and numpy
//! buffers into the core's types, delegates, and maps errors once. No game
//! rules live here.

mod args;
mod arrays;
mod catalog;
mod config;
mod decode;
mod errors;
mod headless;
mod queries;
mod render;
mod rules;
mod world;

use pyo3::prelude::*;

#[pymodule]
mod _core {
    #[pymodule_export]
    use super::catalog::{Catalog, WandSandbox};
    #[pymodule_export]
    use super::headless::HeadlessBooks;
    #[pymodule_export]
    use super::queries::{kite, nearest_row, pack_offsets, repel};
    #[pymodule_export]
    use super::render::SpriteRasterizer;
    #[pymodule_export]
    use super::rules::{PlayerStats, RelicRules};
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
        // The most worker threads `World.set_threads` and `SpriteRasterizer` take (this machine's).
        m.add("MAX_THREADS", crate::sim::limits::max_threads())?;
        let layouts = pyo3::types::PyDict::new(m.py());
        for (buffer, columns) in crate::sim::contract::LAYOUTS {
            layouts.set_item(buffer, pyo3::types::PyTuple::new(m.py(), columns)?)?;
        }
        m.add("LAYOUTS", layouts)?;
        for (table, names) in layout::tables() {
            let dict = pyo3::types::PyDict::new(m.py());
            for (name, value) in names {
                dict.set_item(name, value)?;
            }
            m.add(table, dict)?;
        }
        let specs = pyo3::types::PyDict::new(m.py());
        for spec in crate::sim::relics::RelicRules::SPECS {
            let entry = pyo3::types::PyDict::new(m.py());
            entry.set_item("event", spec.event as u8)?;
            entry.set_item("whole", spec.whole)?;
            entry.set_item("most", spec.most)?;
            entry.set_item("hook", spec.hook)?;
            entry.set_item("combine", spec.combine)?;
            let param = match spec.param {
                Some(p) => {
                    let param = pyo3::types::PyDict::new(m.py());
                    param.set_item("name", p.name)?;
                    param.set_item("field", p.field)?;
                    param.set_item("most", p.most)?;
                    param.set_item("combine", p.combine)?;
                    Some(param)
                }
                None => None,
            };
            entry.set_item("param", param)?;
            specs.set_item(spec.name, entry)?;
        }
        m.add("RELIC_RULE_SPECS", specs)?;
        for (name, value) in crate::sim::contract::EnemyFlag::NAMES {
            m.add(format!("ENEMY_FLAG_{name}"), *value)?;
        }
        Ok(())
    }
}
