//! Queries over a frame's rows for the game's tools (the headless bot), not used by the step:
//! Python hands a buffer's rows back and gets row numbers, so a tool that looks at the crowd
//! near one point does not pay numpy passes over every enemy.

use numpy::PyArray1;
use pyo3::prelude::*;

use super::arrays::{readonly2, Spec};
use crate::sim::limits;

const ROWS: Spec = Spec { name: "rows", dtype: "float32", shape: &[None, None] };

/// The numbers, ascending, of the rows of `rows` (a frame buffer's rows: float32, C-contiguous,
/// `x` and `y` their first two columns, as the enemy and pickup rows have them) whose point lies
/// within `radius` of `(x, y)` — `dx² + dy² ≤ radius²` in f64.
#[pyfunction]
#[pyo3(signature = (rows, x, y, radius))]
pub fn rows_within<'py>(
    py: Python<'py>,
    rows: &Bound<'py, PyAny>,
    x: f64,
    y: f64,
    radius: f64,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    // The boundary's ranges (a CoreArgumentError outside them); the values stay f64.
    let within = |name: &str, v: f64, lo: f64| limits::float(name, v, lo, limits::MAX_COORD).map(|_| v);
    let (x, y, radius) =
        (within("x", x, -limits::MAX_COORD)?, within("y", y, -limits::MAX_COORD)?, within("radius", radius, 0.0)?);
    let rows = readonly2::<f32>(rows, &ROWS)?;
    let view = rows.as_array();
    if view.ncols() < 2 {
        return Err(crate::sim::CoreError::arg(format!("rows: x and y need 2 columns, got {}", view.ncols())).into());
    }
    let reach = radius * radius;
    let near: Vec<u32> = view
        .rows()
        .into_iter()
        .enumerate()
        .filter(|(_, row)| {
            let (dx, dy) = (f64::from(row[0]) - x, f64::from(row[1]) - y);
            dx * dx + dy * dy <= reach
        })
        .map(|(i, _)| i as u32)
        .collect();
    Ok(PyArray1::from_vec(py, near))
}

/// The number of the row of `rows` (as for `rows_within`) whose point is nearest `(x, y)` — by
/// `hypot` in f64, the first of equals — or `None` for no rows.
#[pyfunction]
#[pyo3(signature = (rows, x, y))]
pub fn nearest_row(rows: &Bound<'_, PyAny>, x: f64, y: f64) -> PyResult<Option<u32>> {
    let within = |name: &str, v: f64| limits::float(name, v, -limits::MAX_COORD, limits::MAX_COORD).map(|_| v);
    let (x, y) = (within("x", x)?, within("y", y)?);
    let rows = readonly2::<f32>(rows, &ROWS)?;
    let view = rows.as_array();
    if view.ncols() < 2 {
        return Err(crate::sim::CoreError::arg(format!("rows: x and y need 2 columns, got {}", view.ncols())).into());
    }
    let mut best: Option<(u32, f64)> = None;
    for (i, row) in view.rows().into_iter().enumerate() {
        let d = (f64::from(row[0]) - x).hypot(f64::from(row[1]) - y);
        if best.is_none_or(|(_, b)| d < b) {
            best = Some((i as u32, d));
        }
    }
    Ok(best.map(|(i, _)| i))
}
