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

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use wide::f32x4;

use super::grid::{Grid, Runs, LANES};
use super::scan::{any_where, runs};

/// No target in reach.
pub const NO_TARGET: u32 = super::grid::NO_INDEX;

/// Grid points per band of rows in the separation (bands are the unit of
/// work for threads and of the fixed merge order, see `Separation`).
const BAND_POINTS: usize = 1024;
const MAX_BANDS: usize = 32;

/// Scratch of the half-shell separation, kept between frames.
///
/// Half shell: each pair of points in adjacent-or-same cells is visited
/// once (`Grid::half_shell_of_copy`) and pushes both points, equal and
/// opposite; the full shell computed every pair twice. A point's push is
/// the sum of what it collects as the first point of its pairs (`own_*`,
/// per copy) and the reactions later points' pairs push onto it (`recv_*`).
///
/// Determinism (R-DET-1): the rows are cut into bands from the grid alone
/// (about `BAND_POINTS` points each), never from the thread count. A band
/// writes its points' own pushes and the reactions on its rows and on the
/// first row of the next band into a private segment of `recv_*`; the
/// merge then adds own + this band's reactions + the previous band's, in
/// that fixed order. Every sum is therefore the same on any thread count.
#[derive(Clone, Debug, Default)]
pub struct Separation {
    own_x: Vec<f32>,
    own_y: Vec<f32>,
    recv_x: Vec<f32>,
    recv_y: Vec<f32>,
    bands: Vec<Band>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Band {
    /// The points of whole grid rows: the copies `copies.0..copies.1`.
    copies: (usize, usize),
    /// The band's reactions cover copies `recv_from..recv_to` (its own rows
    /// and the next band's first row), then `LANES` more for a chunk that
    /// starts at `recv_to` (an empty run's, at the segment's end).
    recv_from: usize,
    recv_to: usize,
    /// Where the band's segment starts in `recv_*`.
    recv_at: usize,
}

impl Band {
    fn recv_len(&self) -> usize {
        self.recv_to - self.recv_from + LANES
    }
}

impl Separation {
    fn plan(&mut self, grid: &Grid) {
        let n = grid.len();
        let parts = (n / BAND_POINTS).clamp(1, MAX_BANDS);
        let rows = grid.rows();
        self.bands.clear();
        let (mut r0, mut recv_at) = (0usize, 0usize);
        for part in 1..=parts {
            let r1 = if part == parts { rows } else { grid.row_at_copy(part * n / parts).min(rows) };
            if r1 <= r0 {
                continue;
            }
            let copies = (grid.first_copy_of_row(r0), grid.first_copy_of_row(r1));
            let band = Band { copies, recv_from: copies.0, recv_to: grid.first_copy_of_row(r1 + 1), recv_at };
            recv_at += band.recv_len();
            self.bands.push(band);
            r0 = r1;
        }
    }
}

/// R-WAVE-2's separation as content tunes it (balance.json `sim`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeparationRule {
    /// Each overlapping pair is pushed apart by `strength × overlap`, each.
    pub strength: f32,
    /// The most neighbours one copy tests in a frame. Each pair is tested
    /// once, by the first of the two in cell order, against the copies
    /// after it in its own cell and the cell to its right, then in the three
    /// cells below: past `candidates` the rest are skipped. A crowd spread
    /// as separation wants stays under it (balance.json's 64: a packed swarm
    /// of the smallest kind in the grid's cells tests ~50); a horde crushed
    /// against a wall (W20: up to 120 grunts in a 20 px cell) pushes on
    /// fewer pairs instead of costing the square of the crush.
    pub candidates: usize,
}

/// Separation pushes (R-WAVE-2) on every grid point, written to
/// `push_x[i]`, `push_y[i]` for the enemy i = `grid.index[k]`. Each pair
/// closer than the sum of their radii pushes each of the two by
/// `strength × overlap`, away from the other (within `rule.candidates`).
/// On this thread; `Separation::bands` shares the same work between threads,
/// with the same result.
pub fn separation_pushes(
    grid: &Grid,
    rule: SeparationRule,
    s: &mut Separation,
    push_x: &mut [f32],
    push_y: &mut [f32],
) {
    s.bands(grid, rule).run_all();
    s.merge(grid, rule, push_x, push_y);
}

impl Separation {
    /// The bands of `grid` as a queue of jobs, for any thread to take (then
    /// `merge`). Each job writes its own segments of the scratch alone.
    pub fn bands<'a>(&'a mut self, grid: &'a Grid, rule: SeparationRule) -> BandQueue<'a> {
        let n = grid.len();
        self.bands.clear();
        if n > 0 {
            self.plan(grid);
        }
        self.own_x.resize(n, 0.0);
        self.own_y.resize(n, 0.0);
        let total = self.bands.last().map_or(0, |b| b.recv_at + b.recv_len());
        self.recv_x.clear();
        self.recv_x.resize(total, 0.0);
        self.recv_y.clear();
        self.recv_y.resize(total, 0.0);
        let rest = Rest {
            next: 0,
            own: (&mut self.own_x[..], &mut self.own_y[..]),
            recv: (&mut self.recv_x[..], &mut self.recv_y[..]),
        };
        BandQueue { grid, rule, bands: &self.bands, rest: Mutex::new(rest), paused: AtomicBool::new(false) }
    }

    /// Once every band ran: the pushes of the copies, merged in a fixed
    /// order and scattered back to enemy order, then the wide points'.
    pub fn merge(&self, grid: &Grid, rule: SeparationRule, push_x: &mut [f32], push_y: &mut [f32]) {
        let (own_x, own_y, recv_x, recv_y) = (&self.own_x[..], &self.own_y[..], &self.recv_x[..], &self.recv_y[..]);
        for (b, band) in self.bands.iter().enumerate() {
            let prev = if b > 0 { Some(self.bands[b - 1]) } else { None };
            for k in band.copies.0..band.copies.1 {
                let r = band.recv_at + k - band.recv_from;
                let (mut px, mut py) = (own_x[k] + recv_x[r], own_y[k] + recv_y[r]);
                if let Some(p) = prev.filter(|p| k < p.recv_to) {
                    let q = p.recv_at + k - p.recv_from;
                    px += recv_x[q];
                    py += recv_y[q];
                }
                let i = grid.index[k] as usize;
                push_x[i] = px;
                push_y[i] = py;
            }
        }
        separate_wide(grid, rule.strength, push_x, push_y);
    }
}

/// The separation's bands (`Separation::bands`), taken one at a time by
/// whichever thread asks: a band's sums do not depend on who computes it
/// or when, so the pushes are the same on any thread count and schedule.
pub struct BandQueue<'a> {
    grid: &'a Grid,
    rule: SeparationRule,
    bands: &'a [Band],
    /// The bands not taken yet, from `next`, and the scratch segments they
    /// own: a band taken splits its own off the front (nothing allocated).
    rest: Mutex<Rest<'a>>,
    /// Set by `pause`: `run_until_paused` returns after the band it has.
    paused: AtomicBool,
}

/// What is left of the bands' scratch (`BandQueue::rest`).
struct Rest<'a> {
    next: usize,
    own: (&'a mut [f32], &'a mut [f32]),
    recv: (&'a mut [f32], &'a mut [f32]),
}

impl<'a> BandQueue<'a> {
    /// Runs bands until none is left.
    pub fn run_all(&self) {
        while self.run_one() {}
    }

    /// Runs bands until none is left or `pause` was called.
    pub fn run_until_paused(&self) {
        while !self.paused.load(Ordering::Acquire) {
            if !self.run_one() {
                break;
            }
        }
    }

    /// Asks `run_until_paused` to return after its current band.
    pub fn pause(&self) {
        self.paused.store(true, Ordering::Release);
    }

    fn run_one(&self) -> bool {
        let Some((band, (ox, oy), (rx, ry))) = self.take() else { return false };
        separate_band(self.grid, self.rule, &band, ox, oy, rx, ry);
        true
    }

    /// The next band and its own segments, split off the rest.
    #[allow(clippy::type_complexity)]
    fn take(&self) -> Option<(Band, (&'a mut [f32], &'a mut [f32]), (&'a mut [f32], &'a mut [f32]))> {
        // A poisoned lock only means another band panicked; the rest is still whole.
        let mut rest = self.rest.lock().unwrap_or_else(|e| e.into_inner());
        let band = *self.bands.get(rest.next)?;
        rest.next += 1;
        let (own, recv) = (band.copies.1 - band.copies.0, band.recv_len());
        let (ox, oy) = (split_front(&mut rest.own.0, own), split_front(&mut rest.own.1, own));
        let (rx, ry) = (split_front(&mut rest.recv.0, recv), split_front(&mut rest.recv.1, recv));
        Some((band, (ox, oy), (rx, ry)))
    }
}

/// The first `len` entries of `rest`, which keeps the others.
fn split_front<'a>(rest: &mut &'a mut [f32], len: usize) -> &'a mut [f32] {
    let (front, back) = std::mem::take(rest).split_at_mut(len);
    *rest = back;
    front
}

/// The pushes of the wide points (`Grid::wide`), written for each, and
/// their reactions added onto the copies' pushes (after those are merged, on one
/// thread, in index order). A wide point is the first of each of its pairs.
fn separate_wide(grid: &Grid, strength: f32, push_x: &mut [f32], push_y: &mut [f32]) {
    if grid.wide.is_empty() {
        return;
    }
    for w in &grid.wide {
        push_x[w.index as usize] = 0.0;
        push_y[w.index as usize] = 0.0;
    }
    // No copy is bigger than the grid's bound (there are wide points, so it is finite).
    let copy_radius = grid.copy_radius_bound();
    for (a, w) in grid.wide.iter().enumerate() {
        let (mut ax, mut ay) = (0.0f32, 0.0f32);
        let mut pair = |x: f32, y: f32, r: f32, other: usize| {
            let (px, py) = pair_push(strength, (w.x, w.y, w.radius), (x, y, r));
            ax += px;
            ay += py;
            push_x[other] -= px;
            push_y[other] -= py;
        };
        for (lo, hi) in grid.runs_around(w.x, w.y, w.radius + copy_radius) {
            for m in lo as usize..hi as usize {
                pair(grid.x[m], grid.y[m], grid.radius[m], grid.index[m] as usize);
            }
        }
        for v in &grid.wide[a + 1..] {
            pair(v.x, v.y, v.radius, v.index as usize);
        }
        push_x[w.index as usize] += ax;
        push_y[w.index as usize] += ay;
    }
}

/// The push on the first point `(xi, yi, ri)` of a pair from the second
/// (the second gets its opposite): `pair_pushes`' lane, on its own.
fn pair_push(strength: f32, (xi, yi, ri): (f32, f32, f32), (xj, yj, rj): (f32, f32, f32)) -> (f32, f32) {
    let (dx, dy) = (xi - xj, yi - yj);
    let d2 = dx * dx + dy * dy;
    let rr = ri + rj;
    if d2 >= rr * rr {
        (0.0, 0.0)
    } else if d2 > 0.0 {
        let d = d2.sqrt();
        let f = strength * (rr - d) / d;
        (dx * f, dy * f)
    } else {
        // Exactly on top of each other: the first one goes left.
        (-strength * rr, 0.0)
    }
}

/// One band's pairs: own pushes into `own_*` (from the band's first copy),
/// reactions into its segment `recv_*` (from `band.recv_from`).
fn separate_band(
    grid: &Grid,
    rule: SeparationRule,
    band: &Band,
    own_x: &mut [f32],
    own_y: &mut [f32],
    recv_x: &mut [f32],
    recv_y: &mut [f32],
) {
    let mut recv = Reactions { x: recv_x, y: recv_y, from: band.recv_from };
    let mut own = (own_x, own_y, band.copies.0);
    let (strength, cap) = (rule.strength, rule.candidates);
    for k in band.copies.0..band.copies.1 {
        let (right_end, below) = grid.half_shell_of_copy(k);
        // `rule.candidates`: the same cells first, then the row below (in a
        // crowd that fits, neither clamp takes anything off).
        let same = (k + 1, (right_end as usize).min(k + 1 + cap));
        let below = (below.0 as usize, (below.1 as usize).min(below.0 as usize + cap - (same.1 - same.0)));
        point_pushes(grid, strength, k, same, below, &mut own, &mut recv);
    }
}

/// Copy k's pairs with the runs `same` and `below` (all after it): its own
/// push into `own` (at `k - own.2`), the reactions into `recv`.
#[inline(always)]
fn point_pushes(
    grid: &Grid,
    strength: f32,
    k: usize,
    same: (usize, usize),
    below: (usize, usize),
    own: &mut (&mut [f32], &mut [f32], usize),
    recv: &mut Reactions,
) {
    let point = Disc::splat(grid.x[k], grid.y[k], grid.radius[k]);
    let mut acc = (f32x4::ZERO, f32x4::ZERO);
    let strength = f32x4::splat(strength);
    pair_pushes(grid, strength, point, same, &mut acc, recv);
    pair_pushes(grid, strength, point, below, &mut acc, recv);
    let (ax, ay) = (acc.0.to_array(), acc.1.to_array());
    own.0[k - own.2] = (ax[0] + ax[1]) + (ax[2] + ax[3]);
    own.1[k - own.2] = (ay[0] + ay[1]) + (ay[2] + ay[3]);
}

/// A band's reaction segment: copy m is at `x[m - from]`.
struct Reactions<'a> {
    x: &'a mut [f32],
    y: &'a mut [f32],
    from: usize,
}

/// One point's centre and radius in every lane.
#[derive(Clone, Copy)]
struct Disc {
    x: f32x4,
    y: f32x4,
    r: f32x4,
}

impl Disc {
    #[inline(always)]
    fn splat(x: f32, y: f32, r: f32) -> Disc {
        Disc { x: f32x4::splat(x), y: f32x4::splat(y), r: f32x4::splat(r) }
    }
}

/// The lane numbers, for masking a chunk to a run.
const LANE_NUMBERS: f32x4 = f32x4::new([0.0, 1.0, 2.0, 3.0]);

/// The lanes of the chunk at `m` before the run's end `hi`: lane j if
/// `m + j < hi` (compared as floats: the offsets that matter are 0..4). The
/// chunks start at the run's first copy, so no lane is before the run.
#[inline(always)]
fn lanes_before(m: usize, hi: usize) -> f32x4 {
    LANE_NUMBERS.simd_lt(f32x4::splat((hi as i64 - m as i64) as f32))
}

/// The pairs of a point with the copies `run.0..run.1` (all after it):
/// the pushes on the point summed per lane into `acc`, the opposite pushes
/// on the others subtracted from their reactions.
///
/// A padded scan like the search's: the run is read in whole chunks of
/// `LANES` from its first copy, the lanes past its end masked off; the lane
/// loop is `f32x4` (SSE2 on x86_64: compares give masks, selects are bit
/// operations, so the loop has no branch but its end). Each pair's push is
/// the full shell's: the pair (k, m) gives k `dx·f` and m `−dx·f` (m's own
/// dx is exactly −dx, f is symmetric); only the order of the sums differs.
///
/// From the first copy, not from the chunk boundary below it: a run of up
/// to four copies is one chunk wherever it starts (an enemy read 2.86
/// chunks at 10k/20k, 2.41 since; benches/README, pass 11). The chunks of
/// one band then partly overlap, so a reaction's reload is sometimes not
/// store-forwarded; that costs less than the extra chunks did. Where a
/// copy's pairs fall in its lanes decides the order of its sums, so
/// starting here changed the last bits of pushes with several pairs.
#[inline(always)]
fn pair_pushes(
    grid: &Grid,
    strength: f32x4,
    point: Disc,
    (lo, hi): (usize, usize),
    acc: &mut (f32x4, f32x4),
    recv: &mut Reactions,
) {
    // The first chunk even of an empty run: it pushes nothing (every lane is
    // masked off to +0.0; the sums start at +0.0, so adding it changes none,
    // and subtracting it from a reaction changes none), and in a crowd most runs
    // fit in one chunk, so the scan has no data-dependent branch to miss.
    let mut m = lo;
    loop {
        let (cx, cy, cr) = (lanes(&grid.x, m), lanes(&grid.y, m), lanes(&grid.radius, m));
        let at = m - recv.from;
        let rx: &mut [f32; LANES] = (&mut recv.x[at..at + LANES]).try_into().expect("segments are padded by LANES");
        let ry: &mut [f32; LANES] = (&mut recv.y[at..at + LANES]).try_into().expect("segments are padded by LANES");
        let live = lanes_before(m, hi);
        let dx = point.x - cx;
        let dy = point.y - cy;
        let d2 = dx * dx + dy * dy;
        let rr = point.r + cr;
        let d = d2.sqrt();
        let apart = d2.simd_gt(f32x4::ZERO);
        let f = strength * (rr - d) / apart.bitselect(d, f32x4::ONE);
        let overlap = live & apart & d2.simd_lt(rr * rr);
        // Exactly on top of each other: no direction to push along, so
        // split them along x by order (the first one goes left).
        let coincident = live & !apart;
        let px = (overlap & (dx * f)) + (coincident & (-strength * rr));
        let py = overlap & (dy * f);
        acc.0 += px;
        acc.1 += py;
        *rx = (f32x4::new(*rx) - px).to_array();
        *ry = (f32x4::new(*ry) - py).to_array();
        m += LANES;
        if m >= hi {
            break;
        }
    }
}

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

/// Moves each enemy toward the player by its speed (never past the player),
/// then by its separation push, and keeps it in the arena.
///
/// Four enemies at a time in `f32x4` lanes (LLVM kept the scalar loop
/// scalar: a square root and a division each); the last few go through the
/// same lanes padded, so every enemy moves by the same arithmetic.
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

/// The nearest point of the grid whose centre is closer to `(x, y)` than
/// the sum of the radii (`r` + its own), as an index into the grid's source
/// arrays; `NO_TARGET` if none. Ties go to the first in cell order.
///
/// A padded scan like `pair_pushes`': each lane keeps its own best (distance,
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

/// `nearest_in_reach`, skipping the points `rejected` refuses (enemies a
/// projectile has already struck).
#[inline]
pub fn nearest_in_reach_except(
    grid: &Grid,
    runs: &Runs,
    x: f32,
    y: f32,
    r: f32,
    rejected: impl Fn(u32) -> bool,
) -> u32 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::{Rng, Stream};

    /// A crowd of small points (radius 6–10) in a 300² box with `big` wide
    /// ones (radius 30–40) among and around them, some outside the box.
    fn crowd_with_giants(seed: u64, big: usize) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
        let mut rng = Rng::new(seed, Stream::Spawns);
        let (mut xs, mut ys, mut rs) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..300 {
            xs.push(rng.range(0.0, 300.0));
            ys.push(rng.range(0.0, 300.0));
            rs.push(rng.range(6.0, 10.0));
            if i % (300 / big.max(1)) == 0 && big > 0 {
                xs.push(rng.range(-60.0, 360.0));
                ys.push(rng.range(-60.0, 360.0));
                rs.push(rng.range(30.0, 40.0));
            }
        }
        // Two exactly on top of each other, one of them wide.
        xs.extend([150.0, 150.0]);
        ys.extend([150.0, 150.0]);
        rs.extend([8.0, 35.0]);
        (xs, ys, rs)
    }

    fn grid_of(xs: &[f32], ys: &[f32], rs: &[f32]) -> Grid {
        let mut g = Grid::default();
        // Cells for the small points only (20 + a shot's 4), as the world builds them.
        g.rebuild_in(xs, ys, rs, (24.0, 2.0, 10.0), false, crate::sim::tasks::in_order);
        g
    }

    #[test]
    fn wide_points_stay_out_of_the_cells_and_keep_them_small() {
        let (xs, ys, rs) = crowd_with_giants(1, 6);
        let g = grid_of(&xs, &ys, &rs);
        let big = rs.iter().filter(|&&r| r > 10.0).count();
        assert!(big >= 6);
        assert_eq!((g.len(), g.wide.len(), g.sources()), (xs.len() - big, big, xs.len()));
        assert!(g.cell_size() < 30.0, "cells sized for the small points, not the giants: {}", g.cell_size());
        assert!(g
            .wide
            .iter()
            .all(|w| rs[w.index as usize] > 10.0 && (w.x, w.y) == (xs[w.index as usize], ys[w.index as usize])));
    }

    /// R-WAVE-2 with bosses: the separation of a crowd with wide points is
    /// the all-pairs reference's, wide pairs included.
    #[test]
    fn separation_with_wide_points_matches_all_pairs() {
        for seed in 1..4 {
            let (xs, ys, rs) = crowd_with_giants(seed, 5);
            let g = grid_of(&xs, &ys, &rs);
            let n = xs.len();
            let (mut px, mut py) = (vec![f32::NAN; n], vec![f32::NAN; n]);
            let rule = SeparationRule { strength: 0.25, candidates: 1024 };
            separation_pushes(&g, rule, &mut Separation::default(), &mut px, &mut py);
            for i in 0..n {
                let (mut ax, mut ay) = (0.0f64, 0.0f64);
                for j in 0..n {
                    let (dx, dy) = ((xs[i] - xs[j]) as f64, (ys[i] - ys[j]) as f64);
                    let d = (dx * dx + dy * dy).sqrt();
                    let rr = (rs[i] + rs[j]) as f64;
                    if i != j && d < rr && d > 0.0 {
                        ax += dx / d * 0.25 * (rr - d);
                        ay += dy / d * 0.25 * (rr - d);
                    }
                }
                if (xs[i], ys[i]) != (150.0, 150.0) {
                    assert!(
                        (px[i] as f64 - ax).abs() < 1e-3 && (py[i] as f64 - ay).abs() < 1e-3,
                        "seed {seed} point {i} (r {}): push ({}, {}), reference ({ax}, {ay})",
                        rs[i],
                        px[i],
                        py[i]
                    );
                }
            }
            // The coincident pair is split along x, equal and opposite.
            let (a, b) = (n - 2, n - 1);
            assert!(px[a].is_finite() && px[b].is_finite() && px[a] != px[b]);
        }
    }

    /// A grid never rebuilt is an empty one: no runs, no target, no panic.
    #[test]
    fn a_grid_never_rebuilt_finds_nothing() {
        let g = Grid::default();
        for (x, y) in [(0.0, 0.0), (-50.0, 1e6), (f32::NAN, 3.0)] {
            assert_eq!(g.runs(x, y), [(0, 0); 3]);
            assert_eq!(nearest_in_reach(&g, x, y, 4.0), NO_TARGET);
        }
        assert_eq!(g.len(), 0);
    }

    /// Hits with bosses: the nearest point in reach (small or wide) is the
    /// brute-force nearest, from inside the box and from outside it.
    #[test]
    fn nearest_in_reach_finds_wide_points_beyond_the_cells_reach() {
        let (xs, ys, rs) = crowd_with_giants(7, 6);
        let g = grid_of(&xs, &ys, &rs);
        let mut rng = Rng::new(3, Stream::Spread);
        let mut wide_hits = 0;
        for _ in 0..2000 {
            let (qx, qy) = (rng.range(-120.0, 420.0), rng.range(-120.0, 420.0));
            let want = (0..xs.len())
                .filter(|&j| {
                    let (dx, dy, rr) = (qx - xs[j], qy - ys[j], 4.0 + rs[j]);
                    dx * dx + dy * dy < rr * rr
                })
                .min_by(|&a, &b| {
                    let d = |j: usize| (qx - xs[j]).powi(2) + (qy - ys[j]).powi(2);
                    d(a).total_cmp(&d(b))
                });
            let got = nearest_in_reach(&g, qx, qy, 4.0);
            let got_except = nearest_in_reach_except(&g, &g.runs(qx, qy), qx, qy, 4.0, |_| false);
            match want {
                None => assert_eq!((got, got_except), (NO_TARGET, NO_TARGET), "at ({qx}, {qy})"),
                Some(j) => {
                    let d = |i: u32| (qx - xs[i as usize]).powi(2) + (qy - ys[i as usize]).powi(2);
                    assert_eq!(d(got), d(j as u32), "at ({qx}, {qy}): got {got}, want {j}");
                    assert_eq!(d(got_except), d(j as u32));
                    wide_hits += (rs[j] > 10.0) as u32;
                }
            }
        }
        assert!(wide_hits > 50, "the queries reached the giants {wide_hits} times");
    }

    fn pushes(g: &Grid, candidates: usize) -> (Vec<f32>, Vec<f32>) {
        let n = g.sources();
        let (mut px, mut py) = (vec![f32::NAN; n], vec![f32::NAN; n]);
        let rule = SeparationRule { strength: 0.25, candidates };
        separation_pushes(g, rule, &mut Separation::default(), &mut px, &mut py);
        (px, py)
    }

    /// `n` points uniform over the square [lo, hi)², from `seed`.
    fn square_of_points(seed: u64, n: usize, lo: f32, hi: f32) -> (Vec<f32>, Vec<f32>) {
        let mut rng = Rng::new(seed, Stream::Spawns);
        let xs = (0..n).map(|_| rng.range(lo, hi)).collect();
        let ys = (0..n).map(|_| rng.range(lo, hi)).collect();
        (xs, ys)
    }

    /// R-DET-1: the bands may run on any thread, each taking the next as it
    /// comes free (two threads here, one pausing halfway): the pushes are the
    /// one-thread pushes, bit for bit.
    #[test]
    fn bands_taken_by_two_threads_push_as_one_thread_does() {
        let n = 6000;
        let (xs, ys) = square_of_points(8, n, 0.0, 900.0);
        let rs: Vec<f32> = (0..n).map(|i| 6.0 + (i % 3) as f32).collect();
        let g = grid_of(&xs, &ys, &rs);
        let rule = SeparationRule { strength: 0.25, candidates: 64 };
        let one = pushes(&g, 64);
        let mut s = Separation::default();
        let bands = s.bands(&g, rule);
        assert!(bands.bands.len() >= 4, "enough bands to share");
        std::thread::scope(|t| {
            t.spawn(|| bands.run_until_paused());
            bands.run_one();
            bands.pause();
            bands.run_all();
        });
        let (mut px, mut py) = (vec![f32::NAN; n], vec![f32::NAN; n]);
        s.merge(&g, rule, &mut px, &mut py);
        let bits = |v: &[f32]| v.iter().map(|p| p.to_bits()).collect::<Vec<_>>();
        assert_eq!((bits(&px), bits(&py)), (bits(&one.0), bits(&one.1)));
        assert!(px.iter().filter(|p| **p != 0.0).count() > n / 2, "most points are pushed");
    }

    /// R-WAVE-2 with `rule.candidates`: under the cap nothing changes (bit for bit); a
    /// crushed pile over it pushes on fewer pairs, each still equal and
    /// opposite (the pushes sum to nothing), and every point is still pushed.
    #[test]
    fn the_candidate_cap_only_thins_a_crushed_pile() {
        let n = 2000;
        let (xs, ys) = square_of_points(5, n, 100.0, 160.0);
        let rs = vec![8.0; n];
        let mut g = Grid::default();
        g.rebuild(&xs, &ys, &rs, 16.0, 2.0);
        let all = pushes(&g, n);
        assert_eq!(pushes(&g, n * 4), all, "a cap above every point's candidates changes nothing");
        let capped = pushes(&g, 16);
        assert_ne!(capped, all);
        let sum = |v: &[f32]| v.iter().map(|&p| p as f64).sum::<f64>();
        let scale = all.0.iter().map(|p| p.abs() as f64).sum::<f64>();
        for (x, y) in [(&capped.0, &capped.1), (&all.0, &all.1)] {
            assert!(sum(x).abs() < 1e-3 * scale && sum(y).abs() < 1e-3 * scale, "equal and opposite");
            assert!(x.iter().zip(y).all(|(a, b)| a.is_finite() && b.is_finite() && (*a, *b) != (0.0, 0.0)));
        }
    }

    #[test]
    fn touching_lists_every_overlapping_disc_wide_ones_too() {
        let (xs, ys, rs) = crowd_with_giants(9, 6);
        let g = grid_of(&xs, &ys, &rs);
        let mut rng = Rng::new(4, Stream::Spread);
        for _ in 0..500 {
            let (qx, qy) = (rng.range(-100.0, 400.0), rng.range(-100.0, 400.0));
            let mut got = Vec::new();
            g.for_each_touching(qx, qy, 12.0, |i| got.push(i));
            got.sort();
            let want: Vec<u32> = (0..xs.len() as u32)
                .filter(|&j| {
                    let j = j as usize;
                    let (dx, dy, rr) = (qx - xs[j], qy - ys[j], 12.0 + rs[j]);
                    dx * dx + dy * dy < rr * rr
                })
                .collect();
            assert_eq!(got, want, "at ({qx}, {qy})");
        }
    }

    /// R-VM-10's bounce count and lifetime: shots past a wall bounce back in,
    /// spending a bounce, or die with none left; an orbiting shot (the walls
    /// do not stop it) passes; a shot out of life dies.
    /// The wall shots sit among runs of shots inside (the runs a test skips).
    #[test]
    fn shots_past_a_wall_bounce_or_die_among_shots_inside() {
        let n = 70;
        let (mut x, mut y) = (vec![50.0f32; n], vec![50.0f32; n]);
        let (mut vx, mut vy) = (vec![1.0f32; n], vec![-1.0f32; n]);
        let (mut bounces, mut life, mut dead) = (vec![1u32; n], vec![1.0f32; n], vec![false; n]);
        (x[33], vx[33]) = (99.5, 2.0); // past the right wall: bounces
        (y[45], vy[45], bounces[45]) = (0.5, -2.0, 0); // past the top with no bounce left: dies
        (x[46], vx[46]) = (0.5, -2.0); // past the left, but walls do not stop it
        life[69] = 0.25; // runs out of life
        let walled = |i: usize| i != 46;
        move_projectiles(
            &mut x,
            &mut y,
            &mut vx,
            &mut vy,
            &mut bounces,
            &mut life,
            &mut dead,
            0.5,
            (100.0, 100.0),
            walled,
        );
        assert_eq!((x[33], vx[33], bounces[33], dead[33]), (98.5, -2.0, 0, false));
        assert_eq!((y[45], vy[45], dead[45]), (1.5, 2.0, true));
        assert_eq!((x[46], vx[46], dead[46]), (-1.5, -2.0, false));
        assert!(dead[69] && life[69] < 0.0);
        let untouched = (0..n).filter(|i| ![33, 45, 46, 69].contains(i));
        assert!(untouched.clone().all(|i| (x[i], y[i], bounces[i], dead[i]) == (51.0, 49.0, 1, false)));
    }

    /// R-DET-1: the chase in lanes moves each enemy to the bit as the scalar
    /// chase it replaced (`speed.min(d)`, `clamp`), whichever lane or padded
    /// tail it falls in: enemies rotated through the lanes, some nearer the
    /// player than their speed (they stop on it), one exactly its speed
    /// away, one within the no-direction distance, one on it, some pushed
    /// past a wall.
    #[test]
    fn the_chase_in_lanes_is_the_scalar_chase() {
        let (target, arena) = ((50.0f32, 60.0f32), (100.0f32, 100.0f32));
        let scalar = |x: f32, y: f32, speed: f32, px: f32, py: f32| {
            let (dx, dy) = (target.0 - x, target.1 - y);
            let d = (dx * dx + dy * dy).sqrt();
            let (mut nx, mut ny) = (x, y);
            if d > 1e-6 {
                let step = speed.min(d) / d;
                nx += dx * step;
                ny += dy * step;
            }
            ((nx + px).clamp(0.0, arena.0).to_bits(), (ny + py).clamp(0.0, arena.1).to_bits())
        };
        let mut rng = Rng::new(3, Stream::Spread);
        let mut xs: Vec<f32> = (0..13).map(|_| rng.range(-5.0, 105.0)).collect();
        let mut ys: Vec<f32> = (0..13).map(|_| rng.range(-5.0, 105.0)).collect();
        let mut speed: Vec<f32> = (0..13).map(|_| rng.range(0.5, 3.0)).collect();
        let push: Vec<f32> = (0..13).map(|_| rng.range(-8.0, 8.0)).collect();
        (xs[0], ys[0], speed[0]) = (51.0, 60.5, 3.0); // nearer than its speed
        (xs[1], ys[1], speed[1]) = (53.0, 64.0, 5.0); // exactly its speed away
        (xs[2], ys[2]) = (50.0 + 5e-7, 60.0); // within the no-direction distance
        (xs[3], ys[3]) = target; // on the player
        let n = xs.len();
        for shift in 0..n {
            let at = |v: &[f32]| -> Vec<f32> { (0..n).map(|k| v[(k + shift) % n]).collect() };
            let (mut x, mut y) = (at(&xs), at(&ys));
            move_enemies(&mut x, &mut y, &at(&speed), &at(&push), &at(&push), target, arena);
            for i in 0..n {
                let k = (i + n - shift) % n;
                let want = scalar(xs[i], ys[i], speed[i], push[i], push[i]);
                assert_eq!((x[k].to_bits(), y[k].to_bits()), want, "enemy {i} in lane {}", k % LANES);
            }
        }
    }
}
