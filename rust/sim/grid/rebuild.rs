//! The rebuild: the points' box, the cells sized from it, each point's
//! entry, and the counting sort that copies the points in cell order (in one
//! part, or in two halves on the workers' threads, with the same copies).

use super::window::{block_entry, MAX_SIDE};
use super::{Grid, GridSizing, WidePoint, BORDER, LANES, NO_INDEX, WIDE};
use crate::sim::scan::any_where;
use crate::sim::tasks::{in_order, Tasks};

/// Points sampled for `Grid::median_row`.
const MEDIAN_SAMPLE: usize = 9;

/// The points' bounding box.
#[derive(Clone, Copy)]
struct Bounds {
    x0: f32,
    x1: f32,
    y0: f32,
    y1: f32,
}

impl Bounds {
    const EMPTY: Bounds = Bounds { x0: f32::MAX, x1: f32::MIN, y0: f32::MAX, y1: f32::MIN };

    /// The box of the points `range` whose radius is not above `wide_above`
    /// (`any_wide`: whether any is; else the loop need not read the radii).
    fn of(
        xs: &[f32],
        ys: &[f32],
        rs: &[f32],
        range: std::ops::Range<usize>,
        (any_wide, wide_above): (bool, f32),
    ) -> Bounds {
        let mut b = Bounds::EMPTY;
        for i in range {
            if !(any_wide && rs[i] > wide_above) {
                b.add(xs[i], ys[i]);
            }
        }
        b
    }

    fn add(&mut self, x: f32, y: f32) {
        self.x0 = self.x0.min(x);
        self.x1 = self.x1.max(x);
        self.y0 = self.y0.min(y);
        self.y1 = self.y1.max(y);
    }

    fn and(&self, o: &Bounds) -> Bounds {
        Bounds { x0: self.x0.min(o.x0), x1: self.x1.max(o.x1), y0: self.y0.min(o.y0), y1: self.y1.max(o.y1) }
    }
}

/// Each point's cell as its entry in `blocks` (`Grid::cell_xy_in`, from the
/// grid's `x0, y0, inv_cell, cols, rows`; `stride`: `Grid::block_stride`),
/// into `out`.
fn entries_of(
    out: &mut [u32],
    (xs, ys): (&[f32], &[f32]),
    (x0, y0, inv, cols, rows): (f32, f32, f32, i32, i32),
    stride: u32,
) {
    for (entry, (&x, &y)) in out.iter_mut().zip(xs.iter().zip(ys)) {
        let (cx, cy) = Grid::cell_xy_in(x0, y0, inv, cols, rows, x, y);
        *entry = block_entry(stride, cx, cy);
    }
}

/// A stretch of the copies' columns: x, y, radius, index, entry.
type Copies<'a> = (&'a mut [f32], &'a mut [f32], &'a mut [f32], &'a mut [u32], &'a mut [u32]);

/// The counting sort of the points whose cells' entries (`entry_of`: each
/// point's, `WIDE` for none) are in `span` into `out`, the copies from `base`
/// on: `cursors` (those entries of `blocks`) end at each cell's first copy.
/// Local slices, not a grid's vectors: writing through `self`'s vectors made
/// LLVM reload every vector's pointer after each store (they might alias), in
/// the loop that dominates a rebuild. Reverse-order scatter with decrementing
/// cursors leaves each entry at its cell's first point with no second pass,
/// and keeps the points of a cell in index order. `TEST`: whether some
/// points' entries are not in `span` (else a separate copy of the loops pays
/// nothing to ask).
fn count_and_scatter<const TEST: bool>(
    entry_of: &[u32],
    span: std::ops::Range<usize>,
    base: usize,
    cursors: &mut [u32],
    (xs, ys, rs): (&[f32], &[f32], &[f32]),
    (gx, gy, gr, gi, ge): Copies,
) {
    if span.is_empty() {
        return;
    }
    let first = span.start;
    let mine = |entry: u32| !TEST || (entry as usize).wrapping_sub(first) < span.len();
    for &entry in entry_of {
        if mine(entry) {
            cursors[entry as usize - first] += 1;
        }
    }
    // Inclusive prefix sums from `base`: one past each cell's last copy.
    let mut sum = base as u32;
    for s in cursors.iter_mut() {
        sum += *s;
        *s = sum;
    }
    for i in (0..entry_of.len()).rev() {
        let entry = entry_of[i];
        if !mine(entry) {
            continue;
        }
        let at = &mut cursors[entry as usize - first];
        *at -= 1;
        let k = *at as usize - base;
        gx[k] = xs[i];
        gy[k] = ys[i];
        gr[k] = rs[i];
        gi[k] = i as u32;
        ge[k] = entry;
    }
}

impl Grid {
    /// Rebuilds over the points `(xs[i], ys[i])` with radii `rs[i]`.
    /// `reach` is the largest distance any query will look (e.g. the sum of
    /// the two largest radii); `cells_per_entity` caps the cell count.
    pub fn rebuild(&mut self, xs: &[f32], ys: &[f32], rs: &[f32], reach: f32, cells_per_entity: f32) {
        let sizing = GridSizing { reach, cells_per_entity, wide_above: f32::INFINITY };
        self.rebuild_in(xs, ys, rs, sizing, false, in_order);
    }

    /// `rebuild`, keeping the points of radius above `sizing.wide_above` out
    /// of the cells (`wide`): `sizing.reach` then need only cover the others. In two halves when `halves`: each of its passes over
    /// the points hands `run` one task per half to run on any threads, in any
    /// order (`Workers::run`). The copies are the same either way: the second
    /// half's cells come after the first's, and within each half the
    /// counting sort is the one-thread one.
    pub fn rebuild_in(
        &mut self,
        xs: &[f32],
        ys: &[f32],
        rs: &[f32],
        sizing: GridSizing,
        halves: bool,
        run: impl Fn(&mut Tasks),
    ) {
        let GridSizing { reach, cells_per_entity, wide_above } = sizing;
        let n = xs.len();
        debug_assert!(ys.len() == n && rs.len() == n);
        self.sources = n;
        self.wide_above = wide_above;
        self.wide.clear();
        // Most frames have no wide point: one test of all (it vectorises)
        // before a walk that lists them.
        if any_where(rs, |&r| r > wide_above) {
            for (i, &r) in rs.iter().enumerate() {
                if r > wide_above {
                    self.wide.push(WidePoint { x: xs[i], y: ys[i], radius: r, index: i as u32 });
                }
            }
        }
        let any_wide = !self.wide.is_empty();
        let copies = n - self.wide.len();
        self.points = copies;
        self.x.resize(copies + LANES, 0.0);
        self.y.resize(copies + LANES, 0.0);
        self.radius.resize(copies + LANES, 0.0);
        self.index.resize(copies + LANES, NO_INDEX);
        self.index[copies..].fill(NO_INDEX);
        if copies == 0 {
            self.cols = 1;
            self.rows = 1;
            self.cell = reach.max(1.0);
            self.inv_cell = 1.0 / self.cell;
            self.blocks.clear();
            self.blocks.resize(self.block_count(), 0);
            return;
        }

        // The points' halves by index (the second empty on one part).
        let split = if halves { n / 2 } else { n };
        let parts = [0..split, split..n];
        let mut boxes = [Bounds::EMPTY; 2];
        {
            let [b0, b1] = &mut boxes;
            let bound =
                |part: usize, b: &mut Bounds| *b = Bounds::of(xs, ys, rs, parts[part].clone(), (any_wide, wide_above));
            run(&mut [&mut || bound(0, b0), &mut || bound(1, b1)]);
        }
        let Bounds { x0, x1, y0, y1 } = boxes[0].and(&boxes[1]);
        // +0.0 for a −0.0 corner, as one part or two may pick either of a
        // 0.0/−0.0 tie: the grid is then the same on any thread count, to the bit.
        let (x0, y0) = (x0 + 0.0, y0 + 0.0);
        let (w, h) = (x1 - x0, y1 - y0);
        let max_cells = (cells_per_entity * copies as f32).max(1.0);
        let sparse_cell = ((w * h) / max_cells).sqrt();
        let mut cell = reach.max(sparse_cell).max(1e-3);
        // Thin boxes: area-based sizing can still leave too many cells along
        // the long side; widen until the count fits, and neither side has
        // more than `MAX_SIDE` cells.
        let fits = |c: f32| {
            let (cols, rows) = ((w / c) as f64 + 1.0, (h / c) as f64 + 1.0);
            cols * rows <= max_cells as f64 * 2.0 + 4.0 && cols.max(rows) <= MAX_SIDE as f64
        };
        while !fits(cell) {
            cell *= 1.5;
        }
        self.x0 = x0;
        self.y0 = y0;
        self.cell = cell;
        self.inv_cell = 1.0 / cell;
        self.cols = (w * self.inv_cell) as i32 + 1;
        self.rows = (h * self.inv_cell) as i32 + 1;
        let entries = self.block_count();
        // `WIDE` and every entry fit in a u32.
        debug_assert!(entries < WIDE as usize, "{entries} entries");

        self.blocks.clear();
        self.blocks.resize(entries, 0);
        self.entry_of.resize(n, 0);
        self.copy_entry.resize(copies, 0);
        // The cells' halves: the second from the row of the points' median y
        // (sampled), so that each holds about half the copies.
        let mid = if halves { self.block_at(-(BORDER as i32), self.median_row(ys) as i32) } else { entries };
        let mut before = [0usize; 2];
        {
            let (x0, y0, inv, cols, rows) = (self.x0, self.y0, self.inv_cell, self.cols, self.rows);
            let stride = self.block_stride() as u32;
            let (e0, e1) = self.entry_of.split_at_mut(split);
            let [k0, k1] = &mut before;
            let fill = |part: usize, out: &mut [u32], before: &mut usize| {
                let range = parts[part].clone();
                entries_of(out, (&xs[range.clone()], &ys[range.clone()]), (x0, y0, inv, cols, rows), stride);
                if any_wide {
                    for (entry, &r) in out.iter_mut().zip(&rs[range]) {
                        if r > wide_above {
                            *entry = WIDE;
                        }
                    }
                }
                if halves {
                    *before = out.iter().filter(|&&entry| (entry as usize) < mid).count();
                }
            };
            run(&mut [&mut || fill(0, e0, k0), &mut || fill(1, e1, k1)]);
        }
        let before = if halves { before[0] + before[1] } else { copies };
        // Every point in the first half's cells (one part and no wide point): no entry test.
        let test = halves || any_wide;
        {
            let entry_of = &self.entry_of[..];
            let (s0, s1) = self.blocks.split_at_mut(mid);
            let (x0, x1) = self.x[..copies].split_at_mut(before);
            let (y0, y1) = self.y[..copies].split_at_mut(before);
            let (r0, r1) = self.radius[..copies].split_at_mut(before);
            let (i0, i1) = self.index[..copies].split_at_mut(before);
            let (g0, g1) = self.copy_entry.split_at_mut(before);
            let sort = |first: usize, base: usize, cursors: &mut [u32], out: Copies| {
                let span = first..first + cursors.len();
                if test {
                    count_and_scatter::<true>(entry_of, span, base, cursors, (xs, ys, rs), out)
                } else {
                    count_and_scatter::<false>(entry_of, span, base, cursors, (xs, ys, rs), out)
                }
            };
            run(&mut [&mut || sort(0, 0, s0, (x0, y0, r0, i0, g0)), &mut || {
                sort(mid, before, s1, (x1, y1, r1, i1, g1))
            }]);
        }
    }

    /// The row of the median of a sample of the points' y (wide points
    /// included: a sample only balances the halves).
    fn median_row(&self, ys: &[f32]) -> usize {
        let mut sample = [0usize; MEDIAN_SAMPLE];
        for (k, row) in sample.iter_mut().enumerate() {
            let y = ys[(2 * k + 1) * ys.len() / (2 * MEDIAN_SAMPLE)];
            *row = Self::cell_xy_in(self.x0, self.y0, self.inv_cell, self.cols, self.rows, self.x0, y).1 as usize;
        }
        sample.sort_unstable();
        sample[MEDIAN_SAMPLE / 2]
    }
}
