//! Movement systems: enemies (chase + separation, R-WAVE-2), projectiles
//! (straight, bouncing off the arena walls), and the hit search that pairs
//! each projectile with the enemy it strikes.
//!
//! Everything that reads neighbours reads the grid's snapshot of the
//! start-of-frame positions and writes into per-entity outputs (Jacobi
//! style), so the result does not depend on iteration order — nor on how
//! the work is split between threads.

use super::grid::{Grid, Runs, LANES};

/// No target in reach.
pub const NO_TARGET: u32 = u32::MAX;

/// Separation pushes for the grid's points in cell order: `out_x[k]` is the
/// push on copy k (the enemy `grid.index[k]`). Each pair closer than the
/// sum of their radii pushes each of the two by `strength × overlap`, away
/// from the other. Covers the cells `first..last`, whose points are the
/// copies `grid_start..`: `out_*` are that chunk's slices.
pub fn separation_pushes(
    grid: &Grid,
    strength: f32,
    cells: (usize, usize),
    out_x: &mut [f32],
    out_y: &mut [f32],
    copies_from: usize,
) {
    grid.for_cells_in(cells.0, cells.1, &mut |a: u32, b: u32, runs: &Runs| {
        for k in a as usize..b as usize {
            let (ax, ay) = push_on(grid, strength, k, runs);
            out_x[k - copies_from] = ax;
            out_y[k - copies_from] = ay;
        }
    });
}

/// The lanes `m..m + LANES` of a padded copy column.
#[inline(always)]
fn chunk(column: &[f32], m: usize) -> [f32; LANES] {
    column[m..m + LANES].try_into().expect("the copies are padded by LANES")
}

// Lane masks and selects as bit operations. Written with `if`, LLVM turned
// some selects back into branches and left the lane loops scalar; as bit
// operations every lane loop below compiles to SSE2 (checked in the asm).

/// All ones if `b`, else zero.
#[inline(always)]
fn mask(b: bool) -> u32 {
    (b as u32).wrapping_neg()
}

/// `a` where `m` is all ones, else `b`.
#[inline(always)]
fn select(m: u32, a: f32, b: f32) -> f32 {
    f32::from_bits((a.to_bits() & m) | (b.to_bits() & !m))
}

/// Which lanes of the chunk at `m` lie before `hi`.
#[inline(always)]
fn live_lanes(m: usize, hi: u32) -> [u32; LANES] {
    let mut live = [0u32; LANES];
    for (j, l) in live.iter_mut().enumerate() {
        *l = mask(((m + j) as i32) < hi as i32);
    }
    live
}

/// The separation push on copy k from the points of its block.
///
/// A padded scan: each run is read in whole chunks of `LANES` from `lo`,
/// lanes at or past `hi` masked off, so a run of up to 4 points (the crowd
/// averages 2.2 at the start of the window, 5.8 at its end) costs one chunk
/// and a well-predicted loop exit; the exact-trip scalar loop mispredicted
/// its exit on nearly every run. The lane loop is branch-free, SSE2.
#[inline]
fn push_on(grid: &Grid, strength: f32, k: usize, runs: &Runs) -> (f32, f32) {
    let (xi, yi, ri) = (grid.x[k], grid.y[k], grid.radius[k]);
    let (mut ax, mut ay) = ([0.0f32; LANES], [0.0f32; LANES]);
    for &(lo, hi) in runs {
        let mut m = lo as usize;
        loop {
            let (cx, cy, cr) = (chunk(&grid.x, m), chunk(&grid.y, m), chunk(&grid.radius, m));
            let live = live_lanes(m, hi);
            for j in 0..LANES {
                let dx = xi - cx[j];
                let dy = yi - cy[j];
                let d2 = dx * dx + dy * dy;
                let rr = ri + cr[j];
                let d = d2.sqrt();
                let apart = mask(d2 > 0.0);
                let f = strength * (rr - d) / select(apart, d, 1.0);
                let overlap = live[j] & apart & mask(d2 < rr * rr);
                // Exactly on top of each other: no direction to push along,
                // so split them along x by order.
                let mj = (m + j) as i32;
                let coincident = live[j] & !apart & mask(mj != k as i32);
                let split = select(mask((k as i32) < mj), -strength * rr, strength * rr);
                ax[j] += select(overlap, dx * f, 0.0) + select(coincident, split, 0.0);
                ay[j] += select(overlap, dy * f, 0.0);
            }
            m += LANES;
            if m >= hi as usize {
                break;
            }
        }
    }
    ((ax[0] + ax[1]) + (ax[2] + ax[3]), (ay[0] + ay[1]) + (ay[2] + ay[3]))
}

/// Moves each enemy toward the player by its speed (never past the player),
/// then by its separation push, and keeps it in the arena.
#[allow(clippy::too_many_arguments)]
pub fn move_enemies(
    x: &mut [f32],
    y: &mut [f32],
    speed: &[f32],
    push_x: &[f32],
    push_y: &[f32],
    target: (f32, f32),
    arena: (f32, f32),
) {
    for i in 0..x.len() {
        let dx = target.0 - x[i];
        let dy = target.1 - y[i];
        let d = (dx * dx + dy * dy).sqrt();
        let (mut nx, mut ny) = (x[i], y[i]);
        if d > 1e-6 {
            let step = speed[i].min(d) / d;
            nx += dx * step;
            ny += dy * step;
        }
        x[i] = (nx + push_x[i]).clamp(0.0, arena.0);
        y[i] = (ny + push_y[i]).clamp(0.0, arena.1);
    }
}

/// Moves projectiles one tick. A projectile past a wall is reflected back
/// in if it has bounces left (spending one), else marked dead.
#[allow(clippy::too_many_arguments)]
pub fn move_projectiles(
    x: &mut [f32],
    y: &mut [f32],
    vx: &mut [f32],
    vy: &mut [f32],
    bounces: &mut [u32],
    life: &mut [f32],
    dead: &mut [bool],
    dt: f32,
    arena: (f32, f32),
) {
    for i in 0..x.len() {
        let mut nx = x[i] + vx[i];
        let mut ny = y[i] + vy[i];
        let mut hit_wall = false;
        if nx < 0.0 {
            nx = -nx;
            vx[i] = -vx[i];
            hit_wall = true;
        } else if nx > arena.0 {
            nx = 2.0 * arena.0 - nx;
            vx[i] = -vx[i];
            hit_wall = true;
        }
        if ny < 0.0 {
            ny = -ny;
            vy[i] = -vy[i];
            hit_wall = true;
        } else if ny > arena.1 {
            ny = 2.0 * arena.1 - ny;
            vy[i] = -vy[i];
            hit_wall = true;
        }
        if hit_wall {
            if bounces[i] == 0 {
                dead[i] = true;
            } else {
                bounces[i] -= 1;
            }
        }
        x[i] = nx;
        y[i] = ny;
        life[i] -= dt;
        if life[i] <= 0.0 {
            dead[i] = true;
        }
    }
}

/// The nearest point of the grid whose centre is closer to `(x, y)` than
/// the sum of the radii (`r` + its own), as an index into the grid's source
/// arrays; `NO_TARGET` if none. Ties go to the first in cell order.
///
/// A padded scan like `push_on`'s: each lane keeps its own best (distance,
/// copy), merged at the end; the lanes of one chunk hold increasing copies,
/// so "smallest copy among the nearest" is the first in cell order.
#[inline]
pub fn nearest_in_reach(grid: &Grid, x: f32, y: f32, r: f32) -> u32 {
    nearest_in_runs(grid, &grid.runs(x, y), x, y, r)
}

/// `nearest_in_reach` over the given runs (those of `(x, y)`'s block).
#[inline]
pub fn nearest_in_runs(grid: &Grid, runs: &Runs, x: f32, y: f32, r: f32) -> u32 {
    let mut best = [f32::INFINITY; LANES];
    let mut best_m = [u32::MAX; LANES];
    for &(lo, hi) in runs {
        let mut m = lo as usize;
        loop {
            let (cx, cy, cr) = (chunk(&grid.x, m), chunk(&grid.y, m), chunk(&grid.radius, m));
            let live = live_lanes(m, hi);
            for j in 0..LANES {
                let dx = x - cx[j];
                let dy = y - cy[j];
                let d2 = dx * dx + dy * dy;
                let rr = r + cr[j];
                let closer = live[j] & mask(d2 < rr * rr) & mask(d2 < best[j]);
                best[j] = select(closer, d2, best[j]);
                best_m[j] = ((m + j) as u32 & closer) | (best_m[j] & !closer);
            }
            m += LANES;
            if m >= hi as usize {
                break;
            }
        }
    }
    // Merge the lanes without branches (a branchy merge mispredicted on
    // ~8% of the search's samples): nearest, ties to the first copy.
    let (d01, m01) = nearer((best[0], best_m[0]), (best[1], best_m[1]));
    let (d23, m23) = nearer((best[2], best_m[2]), (best[3], best_m[3]));
    let (_, m) = nearer((d01, m01), (d23, m23));
    if m == u32::MAX { NO_TARGET } else { grid.index[m as usize] }
}

/// The nearer of two (distance², copy) candidates; ties to the lower copy.
#[inline(always)]
fn nearer(a: (f32, u32), b: (f32, u32)) -> (f32, u32) {
    let take_b = mask(b.0 < a.0) | (mask(b.0 == a.0) & mask(b.1 < a.1));
    (select(take_b, b.0, a.0), (b.1 & take_b) | (a.1 & !take_b))
}

/// `nearest_in_reach`, skipping the points `rejected` refuses (enemies a
/// projectile has already struck).
#[inline]
pub fn nearest_in_reach_except(grid: &Grid, runs: &Runs, x: f32, y: f32, r: f32, rejected: impl Fn(u32) -> bool) -> u32 {
    let (gx, gy, gr, gi) = (&grid.x[..], &grid.y[..], &grid.radius[..], &grid.index[..]);
    let mut best = f32::INFINITY;
    let mut best_i = NO_TARGET;
    for &(lo, hi) in runs {
        for m in lo as usize..hi as usize {
            let dx = x - gx[m];
            let dy = y - gy[m];
            let d2 = dx * dx + dy * dy;
            let rr = r + gr[m];
            if d2 < rr * rr && d2 < best && !rejected(gi[m]) {
                best = d2;
                best_i = gi[m];
            }
        }
    }
    best_i
}
