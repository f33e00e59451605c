//! Movement systems: enemies (chase + separation, R-WAVE-2), projectiles
//! (along their velocity, bouncing off the arena walls; world/shots.rs
//! steers the special ones first), and the hit search that pairs
//! each projectile with the enemy it strikes.
//!
//! Everything that reads neighbours reads the grid's snapshot of the
//! start-of-frame positions and writes into per-entity outputs (Jacobi
//! style). The search's results do not depend on iteration order; the
//! separation's sums follow a fixed order of bands taken from the grid
//! (`Separation`), so neither depends on how the work is split between
//! threads.
//!
//! - `separation`: the half-shell pushes, in bands merged in a fixed order.
//! - `search`: the nearest enemy in reach of a shot.
//! - here: the chase and the shots' moves, and the padded chunks both scans read.

use wide::f32x4;

use super::grid::{LANES, NO_INDEX};
use super::scan::{any_where, runs};

mod search;
mod separation;
#[cfg(test)]
mod tests;

pub use search::{nearest_in_reach, nearest_in_runs, nearest_in_runs_except};
pub use separation::{separation_pushes, BandQueue, Separation, SeparationRule};

/// No target in reach.
pub const NO_TARGET: u32 = NO_INDEX;

/// A chunk of a padded copy column, as lanes.
#[inline(always)]
fn lanes(column: &[f32], m: usize) -> f32x4 {
    f32x4::new(chunk(column, m))
}

/// The lanes `m..m + LANES` of a padded copy column.
#[inline(always)]
fn chunk(column: &[f32], m: usize) -> [f32; LANES] {
    column[m..m + LANES].try_into().expect("the copies are padded by LANES")
}

/// Moves each enemy toward the player by its speed (never past the player),
/// then by its separation push, and keeps it in the arena.
///
/// Four enemies at a time in `f32x4` lanes (LLVM kept the scalar loop
/// scalar: a square root and a division each); the last few go through the
/// same lanes padded, so every enemy moves by the same arithmetic.
pub fn move_enemies(
    x: &mut [f32],
    y: &mut [f32],
    speed: &[f32],
    push_x: &[f32],
    push_y: &[f32],
    target: (f32, f32),
    arena: (f32, f32),
) {
    let n = x.len();
    let (x, y, speed, push_x, push_y) = (&mut x[..n], &mut y[..n], &speed[..n], &push_x[..n], &push_y[..n]);
    let (tx, ty, near) = (f32x4::splat(target.0), f32x4::splat(target.1), f32x4::splat(CHASE_NEAR));
    let (zero, ax, ay) = (f32x4::ZERO, f32x4::splat(arena.0), f32x4::splat(arena.1));
    // `clamp(0.0, hi)`'s two tests, as selects (−0.0 and NaN pass, as there).
    let within = |v: f32x4, hi: f32x4| {
        let v = v.simd_lt(zero).bitselect(zero, v);
        v.simd_gt(hi).bitselect(hi, v)
    };
    let chase = |[ex, ey, s, px, py]: [f32x4; 5]| {
        let (dx, dy) = (tx - ex, ty - ey);
        let d = (dx * dx + dy * dy).sqrt();
        // `speed.min(d) / d`; on the player (d ≈ 0) it is NaN, and dropped.
        let step = s.simd_lt(d).bitselect(s, d) / d;
        let moves = d.simd_gt(near);
        let (nx, ny) = (moves.bitselect(ex + dx * step, ex), moves.bitselect(ey + dy * step, ey));
        (within(nx + px, ax).to_array(), within(ny + py, ay).to_array())
    };
    let whole = n - n % LANES;
    for k in (0..whole).step_by(LANES) {
        let (nx, ny) = chase([x, y, speed, push_x, push_y].map(|c| lanes(c, k)));
        x[k..k + LANES].copy_from_slice(&nx);
        y[k..k + LANES].copy_from_slice(&ny);
    }
    let rest = n - whole;
    if rest > 0 {
        let padded = |c: &[f32]| {
            let mut lanes = [0.0; LANES];
            lanes[..rest].copy_from_slice(&c[whole..]);
            f32x4::new(lanes)
        };
        let (nx, ny) = chase([&*x, &*y, speed, push_x, push_y].map(padded));
        x[whole..].copy_from_slice(&nx[..rest]);
        y[whole..].copy_from_slice(&ny[..rest]);
    }
}

/// Closer to the player than this, an enemy does not chase (no direction).
const CHASE_NEAR: f32 = 1e-6;

/// Moves projectiles one tick. A projectile past a wall is reflected back
/// in if it has bounces left (spending one), else marked dead — unless
/// `walled(i)` says walls do not stop it (an orbiting shot is bound to the
/// player, not to the arena: it passes over the walls untouched).
///
/// Two passes: every shot moves and ages with no branch (the loop
/// vectorises), then the few past a wall bounce. One branchy pass spent most
/// of its time on the four wall tests (4% of a 10k/20k frame).
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
    walled: impl Fn(usize) -> bool,
) {
    let n = x.len();
    let (x, y, vx, vy, bounces, life, dead) =
        (&mut x[..n], &mut y[..n], &mut vx[..n], &mut vy[..n], &mut bounces[..n], &mut life[..n], &mut dead[..n]);
    for i in 0..n {
        x[i] += vx[i];
        y[i] += vy[i];
        life[i] -= dt;
        dead[i] |= life[i] <= 0.0;
    }
    let outside = |x: f32, y: f32| (x < 0.0) | (x > arena.0) | (y < 0.0) | (y > arena.1);
    for run in runs(n, WALL_RUN) {
        // A run of shots all inside the walls is passed on one test.
        if !any_where(x[run.clone()].iter().zip(&y[run.clone()]), |(&x, &y)| outside(x, y)) {
            continue;
        }
        for i in run {
            let (nx, ny) = (x[i], y[i]);
            if !(outside(nx, ny) && walled(i)) {
                continue;
            }
            if nx < 0.0 {
                x[i] = -nx;
                vx[i] = -vx[i];
            } else if nx > arena.0 {
                x[i] = 2.0 * arena.0 - nx;
                vx[i] = -vx[i];
            }
            if ny < 0.0 {
                y[i] = -ny;
                vy[i] = -vy[i];
            } else if ny > arena.1 {
                y[i] = 2.0 * arena.1 - ny;
                vy[i] = -vy[i];
            }
            if bounces[i] == 0 {
                dead[i] = true;
            } else {
                bounces[i] -= 1;
            }
        }
    }
}

/// Shots tested at once for a wall in `move_projectiles` (most runs have
/// none: a shot reaches a wall once in hundreds of frames).
const WALL_RUN: usize = 32;
