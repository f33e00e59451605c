//! Movement systems: enemies (chase + separation, R-WAVE-2), projectiles
//! (straight, bouncing off the arena walls), and the hit search that pairs
//! each projectile with the enemy it strikes.
//!
//! Everything that reads neighbours reads the grid's snapshot of the
//! start-of-frame positions and writes into per-entity outputs (Jacobi
//! style), so the result does not depend on iteration order — nor on how
//! the work is split between threads.

use super::grid::{Grid, Runs};

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
    let (gx, gy, gr) = (&grid.x[..], &grid.y[..], &grid.radius[..]);
    grid.for_cells_in(cells.0, cells.1, &mut |a: u32, b: u32, runs: &Runs| {
        for k in a as usize..b as usize {
            let (xi, yi, ri) = (gx[k], gy[k], gr[k]);
            let (mut ax, mut ay) = (0.0f32, 0.0f32);
            for &(lo, hi) in runs {
                for m in lo as usize..hi as usize {
                    let dx = xi - gx[m];
                    let dy = yi - gy[m];
                    let d2 = dx * dx + dy * dy;
                    let rr = ri + gr[m];
                    // Branch-free: about a third of candidates overlap, at
                    // random, so a branch here mispredicts constantly.
                    let d = d2.sqrt();
                    let f = strength * (rr - d) / d.max(f32::MIN_POSITIVE);
                    let overlap = d2 < rr * rr && d2 > 0.0;
                    ax += if overlap { dx * f } else { 0.0 };
                    ay += if overlap { dy * f } else { 0.0 };
                    if d2 == 0.0 && m != k {
                        // Exactly on top of each other: no direction to push
                        // along, so split them along x by order.
                        ax += if k < m { -strength * rr } else { strength * rr };
                    }
                }
            }
            out_x[k - copies_from] = ax;
            out_y[k - copies_from] = ay;
        }
    });
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
#[inline]
pub fn nearest_in_reach(grid: &Grid, x: f32, y: f32, r: f32) -> u32 {
    let (gx, gy, gr) = (&grid.x[..], &grid.y[..], &grid.radius[..]);
    let mut best = f32::INFINITY;
    let mut best_m = u32::MAX;
    for (lo, hi) in grid.runs(x, y) {
        for m in lo..hi {
            let mu = m as usize;
            let dx = x - gx[mu];
            let dy = y - gy[mu];
            let d2 = dx * dx + dy * dy;
            let rr = r + gr[mu];
            // Branch-free selects (cmov): the test is a coin flip per candidate.
            let closer = d2 < rr * rr && d2 < best;
            best = if closer { d2 } else { best };
            best_m = if closer { m } else { best_m };
        }
    }
    if best_m == u32::MAX { NO_TARGET } else { grid.index[best_m as usize] }
}

/// `nearest_in_reach`, skipping the points `rejected` refuses (enemies a
/// projectile has already struck).
#[inline]
pub fn nearest_in_reach_except(grid: &Grid, x: f32, y: f32, r: f32, rejected: impl Fn(u32) -> bool) -> u32 {
    let (gx, gy, gr, gi) = (&grid.x[..], &grid.y[..], &grid.radius[..], &grid.index[..]);
    let mut best = f32::INFINITY;
    let mut best_i = NO_TARGET;
    for (lo, hi) in grid.runs(x, y) {
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
