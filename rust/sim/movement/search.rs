//! The hit search: the nearest enemy in reach of a shot, over the three
//! runs of its block in the grid's cell-ordered copies (and the wide
//! points), ties to the first in cell order.

use super::{chunk, NO_TARGET};
use crate::sim::grid::{Grid, Runs, LANES};

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

/// The nearest point of the grid whose centre is closer to `(x, y)` than
/// the sum of the radii (`r` + its own), as an index into the grid's source
/// arrays; `NO_TARGET` if none. Ties go to the first in cell order. (The
/// game searches with the runs it has already found: `nearest_in_runs`.)
#[inline]
pub fn nearest_in_reach(grid: &Grid, x: f32, y: f32, r: f32) -> u32 {
    nearest_in_runs(grid, &grid.runs(x, y), x, y, r)
}

/// `nearest_in_reach` over the given runs (those of `(x, y)`'s block).
///
/// A padded scan like the separation's `pair_pushes`: each lane keeps its own
/// best (distance, copy), merged at the end; the lanes of one chunk hold
/// increasing copies, so "smallest copy among the nearest" is the first in
/// cell order. The same tie rule is kept by `nearest_in_runs_except` and by
/// `nearest_wide` (the wide points after the cells'): a change to one is a
/// change to the three.
#[inline]
pub fn nearest_in_runs(grid: &Grid, runs: &Runs, x: f32, y: f32, r: f32) -> u32 {
    let mut best = [f32::INFINITY; LANES];
    let mut best_m = [u32::MAX; LANES];
    for &(lo, hi) in runs {
        // An empty block row (outside the grid, or cells with no enemy: the crowd's edge, where
        // most shots fly) costs nothing instead of one fully masked chunk.
        if lo >= hi {
            continue;
        }
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
    let d = best.iter().fold(f32::INFINITY, |d, &b| if b < d { b } else { d });
    let m = (0..LANES).fold(u32::MAX, |m, j| m.min(best_m[j] | !mask(best[j] == d)));
    // No copy found (u32::MAX) reads the padding's NO_INDEX, which is NO_TARGET: whether a shot
    // found one is a coin toss, and a branch on it mispredicted. (`Grid::default()` has the
    // padding too.)
    let found = grid.index[(m as usize).min(grid.len())];
    nearest_wide(grid, x, y, r, (d, found), |_| false)
}

/// The nearer of `best` (distance², index) and the wide points in reach
/// that `rejected` does not refuse; ties keep `best`, then the first wide.
#[inline(always)]
fn nearest_wide(grid: &Grid, x: f32, y: f32, r: f32, best: (f32, u32), rejected: impl Fn(u32) -> bool) -> u32 {
    let (mut best, mut found) = best;
    for w in &grid.wide {
        let (dx, dy, rr) = (x - w.x, y - w.y, r + w.radius);
        let d2 = dx * dx + dy * dy;
        if d2 < rr * rr && d2 < best && !rejected(w.index) {
            (best, found) = (d2, w.index);
        }
    }
    found
}

/// `nearest_in_runs`, skipping the points `rejected` refuses (enemies a
/// projectile has already struck): a plain loop over the copies, for the
/// shots with hit memory.
#[inline]
pub fn nearest_in_runs_except(grid: &Grid, runs: &Runs, x: f32, y: f32, r: f32, rejected: impl Fn(u32) -> bool) -> u32 {
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
    nearest_wide(grid, x, y, r, (best, best_i), rejected)
}
