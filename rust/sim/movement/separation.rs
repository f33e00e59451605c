//! R-WAVE-2's separation: every pair of enemies closer than the sum of
//! their radii pushes both apart, visited once over the grid's half shell,
//! in bands of rows whose sums merge in a fixed order (the same pushes on
//! any thread count).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use wide::f32x4;

use super::lanes;
use crate::sim::grid::{Grid, LANES};

/// Grid points per band of rows in the separation (bands are the unit of
/// work for threads and of the fixed merge order, see `Separation`).
const BAND_POINTS: usize = 1024;
/// The most bands a frame's separation is cut into: past `BAND_POINTS` ×
/// this many points the bands grow instead of multiplying.
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
    /// Cuts the grid's rows into the frame's bands (about `BAND_POINTS`
    /// points each), each with its stretch of the reactions' scratch.
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

    /// How many bands the frame's separation has (tests: enough to share).
    #[cfg(test)]
    pub(super) fn band_count(&self) -> usize {
        self.bands.len()
    }

    /// Takes the next band and separates it; false when none is left.
    pub(super) fn run_one(&self) -> bool {
        let Some((band, mut own, mut recv)) = self.take() else { return false };
        separate_band(self.grid, self.rule, &band, &mut own, &mut recv);
        true
    }

    /// The next band and its own segments (its copies' own pushes, and the
    /// reactions on its rows), split off the rest.
    fn take(&self) -> Option<(Band, Segment<'a>, Segment<'a>)> {
        // A poisoned lock only means another band panicked; the rest is still whole.
        let mut rest = self.rest.lock().unwrap_or_else(|e| e.into_inner());
        let band = *self.bands.get(rest.next)?;
        rest.next += 1;
        let (own, recv) = (band.copies.1 - band.copies.0, band.recv_len());
        let (x, y) = (split_front(&mut rest.own.0, own), split_front(&mut rest.own.1, own));
        let own = Segment { x, y, from: band.copies.0 };
        let (x, y) = (split_front(&mut rest.recv.0, recv), split_front(&mut rest.recv.1, recv));
        let recv = Segment { x, y, from: band.recv_from };
        Some((band, own, recv))
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

/// One band's pairs: own pushes into `own` (from the band's first copy),
/// reactions into its segment `recv` (from `band.recv_from`).
fn separate_band(grid: &Grid, rule: SeparationRule, band: &Band, own: &mut Segment, recv: &mut Segment) {
    let (strength, cap) = (rule.strength, rule.candidates);
    for k in band.copies.0..band.copies.1 {
        let (right_end, below) = grid.half_shell_of_copy(k);
        // `rule.candidates`: the same cells first, then the row below (in a
        // crowd that fits, neither clamp takes anything off).
        let same = (k + 1, (right_end as usize).min(k + 1 + cap));
        let below = (below.0 as usize, (below.1 as usize).min(below.0 as usize + cap - (same.1 - same.0)));
        point_pushes(grid, strength, k, same, below, own, recv);
    }
}

/// Copy k's pairs with the runs `same` and `below` (all after it): its own
/// push into `own`, the reactions into `recv`.
#[inline(always)]
fn point_pushes(
    grid: &Grid,
    strength: f32,
    k: usize,
    same: (usize, usize),
    below: (usize, usize),
    own: &mut Segment,
    recv: &mut Segment,
) {
    let point = Disc::splat(grid.x[k], grid.y[k], grid.radius[k]);
    let mut acc = (f32x4::ZERO, f32x4::ZERO);
    let strength = f32x4::splat(strength);
    pair_pushes(grid, strength, point, same, &mut acc, recv);
    pair_pushes(grid, strength, point, below, &mut acc, recv);
    let (ax, ay) = (acc.0.to_array(), acc.1.to_array());
    own.x[k - own.from] = (ax[0] + ax[1]) + (ax[2] + ax[3]);
    own.y[k - own.from] = (ay[0] + ay[1]) + (ay[2] + ay[3]);
}

/// A band's stretch of the own pushes or of the reactions: copy m's is at
/// `x[m - from]`, `y[m - from]`.
struct Segment<'a> {
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
    recv: &mut Segment,
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
