//! Queries over a frame's rows for the game's tools (the headless bot), not used by the step:
//! Python hands a buffer's rows back and gets row numbers, so a tool that looks at the crowd
//! near one point does not pay numpy passes over every enemy.

use numpy::PyReadonlyArray2;
use pyo3::prelude::*;

use super::args::Int;
use super::arrays::{readonly2, Spec};
use crate::sim::kite as steering;
use crate::sim::{limits, packs};

const ROWS: Spec = Spec { name: "rows", dtype: "float32", shape: &[None, None] };

/// The number of the row of `rows` (a frame buffer's rows: float32, C-contiguous, `x` and `y` their
/// first two columns, as the enemy and pickup rows have them) whose point is nearest `(x, y)` — by
/// `hypot` in f64, the first of equals — or `None` for no rows.
#[pyfunction]
#[pyo3(signature = (rows, x, y))]
pub fn nearest_row(rows: &Bound<'_, PyAny>, x: f64, y: f64) -> PyResult<Option<u32>> {
    let (x, y) = (checked("x", x, -limits::MAX_COORD)?, checked("y", y, -limits::MAX_COORD)?);
    let rows = point_rows(rows)?;
    Ok(steering::nearest_index(points(&rows), x, y).map(|i| i as u32))
}

/// The push away from the crowd near `(x, y)`, and how near its nearest row is: `(push_x, push_y,
/// nearest)`. Each row (as for `nearest_row`) closer than `radius` pushes along `(x, y) − its
/// point`, weighted `(radius − d) / radius / max(d, 1)` for its distance `d` (hypot, f64), summed
/// in row order; `nearest` is the smallest `d` of all rows (infinity for none): `sim::kite::repel`.
#[pyfunction]
#[pyo3(signature = (rows, x, y, radius))]
pub fn repel(rows: &Bound<'_, PyAny>, x: f64, y: f64, radius: f64) -> PyResult<(f64, f64, f64)> {
    let (x, y, radius) =
        (checked("x", x, -limits::MAX_COORD)?, checked("y", y, -limits::MAX_COORD)?, checked("radius", radius, 0.0)?);
    let rows = point_rows(rows)?;
    Ok(steering::repel(points(&rows), x, y, radius))
}

/// The kiting bot's move and dash this frame (`sim::kite::steer`) from a frame's enemy and pickup
/// rows, the player's point and dash cooldown, the arena and the bot's tuning `(danger, panic,
/// safe, wall_margin, wall_weight, pickup_weight)`: `((move_x, move_y) or None, dash)`.
#[pyfunction]
#[pyo3(signature = (enemies, pickups, x, y, dash_cooldown, arena, tuning))]
#[allow(clippy::type_complexity)]
pub fn kite(
    enemies: &Bound<'_, PyAny>,
    pickups: &Bound<'_, PyAny>,
    x: f64,
    y: f64,
    dash_cooldown: f64,
    arena: (f64, f64),
    tuning: (f64, f64, f64, f64, f64, f64),
) -> PyResult<(Option<(f32, f32)>, bool)> {
    let (x, y) = (checked("x", x, -limits::MAX_COORD)?, checked("y", y, -limits::MAX_COORD)?);
    let (enemies, pickups) = (point_rows(enemies)?, point_rows(pickups)?);
    let bot = steering::Bot { x, y, dash_cooldown, arena: arena_of(arena)? };
    let steer = steering::steer(bot, points(&enemies), points(&pickups), &kite_params(tuning)?);
    Ok((steer.move_xy, steer.dash))
}

/// The offsets of a landing pack of `count` members from its marker, `(dxs, dys)` in member order
/// (`sim::packs::pack_offset`, the one the core's headless landings use).
#[pyfunction]
#[pyo3(signature = (count))]
pub fn pack_offsets(count: Int) -> PyResult<(Vec<f64>, Vec<f64>)> {
    let count = count.count("count", limits::MAX_COUNT)?;
    Ok((0..count).map(|i| packs::pack_offset(count, i)).unzip())
}

/// The bot's tuning, each a finite number in `0..=MAX_COORD`.
pub fn kite_params(t: (f64, f64, f64, f64, f64, f64)) -> PyResult<steering::KiteParams> {
    let (danger, panic, safe, wall_margin, wall_weight, pickup_weight) = t;
    let v = |name: &str, v: f64| checked(name, v, 0.0);
    Ok(steering::KiteParams {
        danger: v("danger", danger)?,
        panic: v("panic", panic)?,
        safe: v("safe", safe)?,
        wall_margin: v("wall_margin", wall_margin)?,
        wall_weight: v("wall_weight", wall_weight)?,
        pickup_weight: v("pickup_weight", pickup_weight)?,
    })
}

/// An arena's `(width, height)`, each in `0..=MAX_COORD`.
pub fn arena_of((w, h): (f64, f64)) -> PyResult<(f64, f64)> {
    Ok((checked("arena width", w, 0.0)?, checked("arena height", h, 0.0)?))
}

/// The rows' points, `(x, y)` from their first two columns.
fn points<'a>(rows: &'a PyReadonlyArray2<'_, f32>) -> impl Iterator<Item = (f32, f32)> + Clone + 'a {
    let view = rows.as_array();
    (0..view.nrows()).map(move |i| (view[[i, 0]], view[[i, 1]]))
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
