//! Queries over a frame's rows for the game's tools (the headless bot), not used by the step:
//! Python hands a buffer's rows back and gets row numbers, so a tool that looks at the crowd
//! near one point does not pay numpy passes over every enemy.

use numpy::PyReadonlyArray2;
use pyo3::prelude::*;

use super::arrays::{readonly2, Spec};
use crate::sim::limits;

const ROWS: Spec = Spec { name: "rows", dtype: "float32", shape: &[None, None] };

/// The number of the row of `rows` (a frame buffer's rows: float32, C-contiguous, `x` and `y` their
/// first two columns, as the enemy and pickup rows have them) whose point is nearest `(x, y)` — by
/// `hypot` in f64, the first of equals — or `None` for no rows.
#[pyfunction]
#[pyo3(signature = (rows, x, y))]
pub fn nearest_row(rows: &Bound<'_, PyAny>, x: f64, y: f64) -> PyResult<Option<u32>> {
    let (x, y) = (checked("x", x, -limits::MAX_COORD)?, checked("y", y, -limits::MAX_COORD)?);
    let rows = point_rows(rows)?;
    let view = rows.as_array();
    let mut best: Option<(u32, f64)> = None;
    for (i, row) in view.rows().into_iter().enumerate() {
        let (ox, oy) = (f64::from(row[0]) - x, f64::from(row[1]) - y);
        if !may_be_within(ox, oy, best.map_or(f64::INFINITY, |(_, b)| b)) {
            continue;
        }
        let d = ox.hypot(oy);
        if best.is_none_or(|(_, b)| d < b) {
            best = Some((i as u32, d));
        }
    }
    Ok(best.map(|(i, _)| i))
}

/// The push away from the crowd near `(x, y)`, and how near its nearest row is: `(push_x, push_y,
/// nearest)`. Each row (as for `nearest_row`) closer than `radius` pushes along `(x, y) − its
/// point`, weighted `(radius − d) / radius / max(d, 1)` for its distance `d` (hypot, f64), summed
/// in row order; `nearest` is the smallest `d` of all rows (infinity for none). The kiting bot's
/// steering, with numpy's arithmetic operation for operation, in one pass over the rows.
#[pyfunction]
#[pyo3(signature = (rows, x, y, radius))]
pub fn repel(rows: &Bound<'_, PyAny>, x: f64, y: f64, radius: f64) -> PyResult<(f64, f64, f64)> {
    let (x, y, radius) =
        (checked("x", x, -limits::MAX_COORD)?, checked("y", y, -limits::MAX_COORD)?, checked("radius", radius, 0.0)?);
    let rows = point_rows(rows)?;
    let view = rows.as_array();
    let (mut push_x, mut push_y, mut nearest) = (0.0_f64, 0.0_f64, f64::INFINITY);
    for row in view.rows() {
        let (ox, oy) = (x - f64::from(row[0]), y - f64::from(row[1]));
        // A row farther than the radius and than the nearest so far changes nothing.
        if !may_be_within(ox, oy, nearest.max(radius)) {
            continue;
        }
        let d = ox.hypot(oy);
        nearest = nearest.min(d);
        if d < radius {
            let weight = (radius - d) / radius / d.max(1.0);
            push_x += ox * weight;
            push_y += oy * weight;
        }
    }
    Ok((push_x, push_y, nearest))
}

/// The relative margin `may_be_within` allows the squares: well over their rounding (a few parts
/// in 2^52), well under any distance that matters.
const SQUARES_MARGIN: f64 = 1e-12;

/// Whether `hypot(ox, oy)` may be at most `limit` (false: it is surely greater), judged on the
/// squares without the `hypot` call (libm's, the costly part of a pass over a crowd). The squares'
/// rounding is a few parts in 2^52; `SQUARES_MARGIN` covers it, so a row this rejects has a
/// hypot strictly over `limit` and the results stay `hypot`'s to the bit. An infinite limit, and
/// rows that are not numbers, always go on to `hypot` (rows are f32: no square overflows).
fn may_be_within(ox: f64, oy: f64, limit: f64) -> bool {
    let d2 = ox * ox + oy * oy;
    limit == f64::INFINITY || d2.is_nan() || d2 < limit * limit * (1.0 + SQUARES_MARGIN)
}

/// `v` within `lo..=MAX_COORD`, the boundary's range (a CoreArgumentError outside it); it stays f64.
fn checked(name: &str, v: f64, lo: f64) -> PyResult<f64> {
    Ok(limits::float(name, v, lo, limits::MAX_COORD).map(|_| v)?)
}

/// `rows` as a float32 C-contiguous 2-D buffer whose first two columns are x and y.
fn point_rows<'py>(rows: &Bound<'py, PyAny>) -> PyResult<PyReadonlyArray2<'py, f32>> {
    let rows = readonly2::<f32>(rows, &ROWS)?;
    let columns = rows.as_array().ncols();
    if columns < 2 {
        return Err(crate::sim::CoreError::arg(format!("rows: x and y need 2 columns, got {columns}")).into());
    }
    Ok(rows)
}
