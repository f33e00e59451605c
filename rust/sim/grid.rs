//! A uniform spatial grid, rebuilt every step by counting sort.
//!
//! Cells are at least as wide as the largest query radius, so every point
//! within reach of a query lies in the 3×3 block of cells around it. The
//! cells are numbered row-major and the points are copied in cell order
//! (`x`, `y`, `radius`, `index`), so the three cells of one block row are a
//! single contiguous run of the copies: a query scans three short runs of
//! packed floats instead of nine linked buckets.
//!
//! Performance notes (benches/README.md has the table):
//! - The grid spans the points' bounding box, not the arena, and its cell
//!   count is capped at `cells_per_entity × n` by widening the cells when
//!   points are sparse. A rebuild is therefore O(n) whatever the arena size:
//!   1k sparse enemies in a 4000² world pay for ~2k cells, not 62k.
//! - The counting sort counts the points by their cell's entry in `blocks`
//!   (the cells laid out with a border, see `Grid::blocks`), so that its
//!   cursors become the block lookup's table, and each copy keeps its entry
//!   (`copy_entry`) for the separation's half shell.
//! - Reverse-order scatter with decrementing cursors leaves each entry at
//!   the first point of its cell with no second pass, and keeps points of a
//!   cell in their original order (a stable sort: determinism).
//! - Cells are sized for the common points, not the biggest: a point whose
//!   radius is above `wide_above` (a boss among grunts) stays out of the
//!   cells, in `wide`, and every query checks the few wide points on their
//!   own. Sized for a 40 px boss, a W20 horde's cells held five times the
//!   grunts and the separation went quadratic (benches/README.md).
//! - With workers to share it (`rebuild_in`), each pass over the points is
//!   split in two tasks: the box and the cells by the points' halves, the
//!   counting sort by the cells' (each half of the cells is sorted on its
//!   own, into its own stretch of the copies). The copies are the one-part
//!   rebuild's.

use std::marker::PhantomData;

use crate::sim::scan::any_where;
use crate::sim::tasks::{in_order, Tasks};

/// The index runs `[lo, hi)` into the cell-ordered copies that cover the
/// 3×3 block around a point: one run per block row.
pub type Runs = [(u32, u32); 3];

/// Lanes of a padded scan: the copies carry this many entries past the last
/// point, so a scan may read a whole chunk `[lo, lo + LANES)` from any run
/// start and mask off the lanes at or past `hi` (see `movement.rs`).
pub const LANES: usize = 4;

#[derive(Clone, Debug)]
pub struct Grid {
    x0: f32,
    y0: f32,
    cell: f32,
    inv_cell: f32,
    cols: i32,
    rows: i32,
    /// Where the copies of each cell start, laid out for `runs` without a
    /// branch or a clamp: row `cy + BORDER`, column `cx + BORDER` holds where
    /// the copies of row `cy` from column `cx` start, for any cell a block can
    /// touch (left of a row: its first cell's; right of it: its end; rows
    /// above the grid: 0; below: the end of the copies). The cells' own
    /// entries are the counting sort's cursors (`count_and_scatter`) and the
    /// border's are cells that no point is in, so after the scatter the whole
    /// table is final. Each stride ends one past the right border.
    blocks: Vec<u32>,
    /// Each point's cell as its entry in `blocks` (`WIDE` for a wide point).
    entry_of: Vec<u32>,
    /// Each copy's cell as its entry in `blocks`.
    copy_entry: Vec<u32>,
    /// Cell-ordered copies of the points, then `LANES` padding entries.
    pub x: Vec<f32>,
    pub y: Vec<f32>,
    pub radius: Vec<f32>,
    /// The point's index in the caller's arrays (`NO_INDEX` in the padding).
    pub index: Vec<u32>,
    points: usize,
    /// The points too big for the cells, in index order (see the module doc).
    pub wide: Vec<WidePoint>,
    /// Every point given to the last rebuild: the copies and the wide.
    sources: usize,
    /// The radius above which a point is wide: no copy is bigger.
    wide_above: f32,
}

/// An empty grid, as a rebuild over no points leaves it: its padding and
/// `blocks` are in place, so `runs` and the scans need no "never built" case.
impl Default for Grid {
    fn default() -> Grid {
        let mut grid = Grid {
            x0: 0.0,
            y0: 0.0,
            cell: 1.0,
            inv_cell: 1.0,
            cols: 1,
            rows: 1,
            blocks: Vec::new(),
            entry_of: Vec::new(),
            copy_entry: Vec::new(),
            x: Vec::new(),
            y: Vec::new(),
            radius: Vec::new(),
            index: Vec::new(),
            points: 0,
            wide: Vec::new(),
            sources: 0,
            wide_above: f32::INFINITY,
        };
        grid.rebuild(&[], &[], &[], 1.0, 1.0);
        grid
    }
}

/// A point kept out of the cells because its radius is above the grid's
/// `wide_above`: every query checks it directly.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WidePoint {
    pub x: f32,
    pub y: f32,
    pub radius: f32,
    /// The point's index in the caller's arrays.
    pub index: u32,
}

/// Where a query point looks in the grid (`Grid::query_window`): its block
/// (`look`), and whether it can reach a copy at all: within the grid widened
/// by one cell on each side, or anywhere when the grid has wide points.
#[derive(Clone, Copy)]
pub struct QueryWindow<'g> {
    x0: f32,
    y0: f32,
    inv: f32,
    lo: f32,
    x_end: f32,
    y_end: f32,
    /// The largest column and row `cell_coords` gives (`cols + 1`, `rows + 1`).
    last_col: f32,
    last_row: f32,
    stride: u32,
    /// A window is the grid's as it is: its blocks are entries of this
    /// rebuild's `blocks` (`Grid::runs_at`).
    grid: PhantomData<&'g Grid>,
}

impl QueryWindow<'_> {
    /// Whether a query at `(x, y)` can reach a copy (NaN cannot).
    #[inline(always)]
    pub fn reaches(&self, x: f32, y: f32) -> bool {
        self.look(x, y).1
    }

    /// The block of a query at `(x, y)`, as `Grid::runs_at` takes it, and
    /// whether the query can reach a copy. Branch-free (`&`, not `&&`: at
    /// the crowd's edge each test goes either way, and short circuits compile
    /// to branches), so that a loop over many queries can compute them all
    /// before it searches (`hits::find_targets`).
    #[inline(always)]
    pub fn look(&self, x: f32, y: f32) -> (u32, bool) {
        let (fx, fy) = ((x - self.x0) * self.inv, (y - self.y0) * self.inv);
        let reaches = (fx >= self.lo) & (fx < self.x_end) & (fy >= self.lo) & (fy < self.y_end);
        let (cx, cy) = near_cell(fx, fy, (self.last_col, self.last_row));
        // From the block's top-left cell.
        (block_entry(self.stride, cx - 1, cy - 1), reaches)
    }
}

/// The column and row of the point `(fx, fy)` cells from the grid's corner,
/// clamped within two cells of the grid (−2 to `last` = `cols + 1`, `rows + 1`),
/// so that arithmetic cannot overflow. NaN clamps to −2 (`max` takes the
/// number): a block of empty runs above the grid.
#[inline(always)]
fn near_cell(fx: f32, fy: f32, (last_col, last_row): (f32, f32)) -> (i32, i32) {
    let cell = |f: f32, last: f32| floor_small(f.max(-2.0).min(last) + 2.0) as i32 - 2;
    (cell(fx, last_col), cell(fy, last_row))
}

/// Where cell `(cx, cy)`'s entry is in `blocks` (`stride`: `Grid::block_stride`;
/// any cell from −`BORDER` to `cols + BORDER − 1`, −`BORDER` to `rows + BORDER − 1`:
/// the grid's and its border's).
#[inline(always)]
fn block_entry(stride: u32, cx: i32, cy: i32) -> u32 {
    (cy + BORDER as i32) as u32 * stride + (cx + BORDER as i32) as u32
}

/// The most cells along either side of a grid, so that `floor_small` can
/// take any column or row `near_cell` finds (a grid this wide has a 117 MB
/// `blocks` table already). Grids wider than this had their cells widened:
/// a change of behaviour (and of state hashes) only for content whose grid
/// would have had more than 4 million cells along a side.
const MAX_SIDE: u32 = 1 << 22;

/// ⌊v⌋ of a non-negative `v` (+0.0 or −0.0 included) below 2²³, in float
/// arithmetic and bit operations only: `as i32` saturates (Rust's rule), and
/// LLVM would not vectorise the saturating conversion in `QueryWindow::look`
/// and the rebuild's `entries_of` (measured: the frame 3.5% slower with it in
/// the search's look pass).
#[inline(always)]
fn floor_small(v: f32) -> u32 {
    debug_assert!((0.0..8_388_608.0).contains(&v), "floor_small({v})");
    // 2²³: below it, v + 2²³ rounds v to the nearest integer, exactly.
    const MAGIC: f32 = 8_388_608.0;
    let nearest = (v + MAGIC) - MAGIC;
    let floor = nearest - if nearest > v { 1.0 } else { 0.0 };
    (floor + MAGIC).to_bits() - MAGIC.to_bits()
}

/// The copies' `index` in the padding past the last: "no point"
/// (`movement::NO_TARGET`), so a scan that found no copy reads it there.
pub const NO_INDEX: u32 = u32::MAX;

/// The rows and columns of `blocks` around the grid's: `cell_coords` goes
/// two past the edge, and a block one more.
const BORDER: usize = 3;

/// `entry_of` for a wide point.
const WIDE: u32 = u32::MAX;

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
    /// The points in the cells (the copies), wide points not counted.
    pub fn len(&self) -> usize {
        self.points
    }

    pub fn is_empty(&self) -> bool {
        self.points == 0
    }

    /// The largest radius a copy may have (`rebuild_with_wide`'s `wide_above`;
    /// infinite when nothing is wide by size).
    pub fn copy_radius_bound(&self) -> f32 {
        self.wide_above
    }

    /// Every point the grid was built over: the copies and the wide points
    /// (their indices are `0..sources()`).
    pub fn sources(&self) -> usize {
        self.sources
    }

    pub fn cell_size(&self) -> f32 {
        self.cell
    }

    pub fn cell_count(&self) -> usize {
        (self.cols * self.rows) as usize
    }

    /// Rebuilds over the points `(xs[i], ys[i])` with radii `rs[i]`.
    /// `reach` is the largest distance any query will look (e.g. the sum of
    /// the two largest radii); `cells_per_entity` caps the cell count.
    pub fn rebuild(&mut self, xs: &[f32], ys: &[f32], rs: &[f32], reach: f32, cells_per_entity: f32) {
        self.rebuild_in(xs, ys, rs, (reach, cells_per_entity, f32::INFINITY), false, in_order);
    }

    /// `rebuild` (`sizing`: its `reach` and `cells_per_entity`), keeping the
    /// points of radius above `wide_above` out of the cells (`wide`): `reach`
    /// then need only cover the others. In two halves when `halves`: each of its passes over
    /// the points hands `run` one task per half to run on any threads, in any
    /// order (`Workers::run`). The copies are the same either way: the second
    /// half's cells come after the first's, and within each half the
    /// counting sort is the one-thread one.
    pub fn rebuild_in(
        &mut self,
        xs: &[f32],
        ys: &[f32],
        rs: &[f32],
        (reach, cells_per_entity, wide_above): (f32, f32, f32),
        halves: bool,
        run: impl Fn(&mut Tasks),
    ) {
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

    /// The width of a `blocks` row: the columns `cell_coords` gives (−2 to
    /// `cols + 1`), a block's column on each side, and a run's end past it.
    fn block_stride(&self) -> usize {
        self.cols as usize + 2 * BORDER + 1
    }

    /// Where cell `(cx, cy)`'s entry is in `blocks` (`block_entry`).
    #[inline(always)]
    fn block_at(&self, cx: i32, cy: i32) -> usize {
        block_entry(self.block_stride() as u32, cx, cy) as usize
    }

    /// The entries of `blocks`: the grid's rows and `BORDER` rows above
    /// and below it, `block_stride` each.
    fn block_count(&self) -> usize {
        (self.rows as usize + 2 * BORDER) * self.block_stride()
    }

    /// The cell of a point inside the grid's box (clamped to the border),
    /// from plain values, for loops that hold `self` borrowed.
    #[inline]
    fn cell_in(x0: f32, y0: f32, inv_cell: f32, cols: i32, rows: i32, x: f32, y: f32) -> u32 {
        let (cx, cy) = Self::cell_xy_in(x0, y0, inv_cell, cols, rows, x, y);
        (cy * cols + cx) as u32
    }

    /// `cell_in`'s column and row.
    #[inline(always)]
    fn cell_xy_in(x0: f32, y0: f32, inv_cell: f32, cols: i32, rows: i32, x: f32, y: f32) -> (i32, i32) {
        // The float clamped to the grid, then floored: `(f as i32).clamp(0, cols − 1)`
        // to the bit (NaN to 0), in arithmetic that vectorises (`floor_small`).
        let cell = |f: f32, last: i32| floor_small(f.max(0.0).min(last as f32)) as i32;
        (cell((x - x0) * inv_cell, cols - 1), cell((y - y0) * inv_cell, rows - 1))
    }

    /// Column and row of any point, possibly outside the grid (`near_cell`).
    #[inline]
    fn cell_coords(&self, x: f32, y: f32) -> (i32, i32) {
        let (fx, fy) = ((x - self.x0) * self.inv_cell, (y - self.y0) * self.inv_cell);
        near_cell(fx, fy, (self.cols as f32 + 1.0, self.rows as f32 + 1.0))
    }

    /// The three runs of cell-ordered copies around `(x, y)`, one per
    /// block row: `runs_at` the point's block.
    #[inline]
    pub fn runs(&self, x: f32, y: f32) -> Runs {
        self.runs_at(self.query_window().look(x, y).0)
    }

    /// The three runs of the block this grid's `QueryWindow::look` gave (the
    /// window borrows the grid, so no rebuild comes between). An empty run
    /// (`lo == hi`) is a block row outside the grid or with no copy. Six
    /// reads of `blocks`, with no clamp and no row test: the search's shots
    /// are spread over the crowd's edge, where clamps and "is this row in the
    /// grid" tests cost as much as the scan.
    #[inline(always)]
    pub(crate) fn runs_at(&self, block: u32) -> Runs {
        let (first, stride) = (block as usize, self.block_stride());
        let b = &self.blocks[first..first + 2 * stride + 4];
        [(b[0], b[3]), (b[stride], b[stride + 3]), (b[2 * stride], b[2 * stride + 3])]
    }

    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// The index of the first copy in row `r` (`len()` for `r` ≥ rows).
    pub fn first_copy_of_row(&self, r: usize) -> usize {
        self.blocks[self.block_at(0, r.min(self.rows as usize) as i32)] as usize
    }

    /// The first row whose points start at or after copy index `k`: used
    /// to split the rows into bands of about equal point counts.
    pub fn row_at_copy(&self, k: usize) -> usize {
        let (mut lo, mut hi) = (0usize, self.rows as usize);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.first_copy_of_row(mid) < k {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The half shell of copy k, for a pair search in which each pair of
    /// points in adjacent-or-same cells comes up exactly once: k pairs with
    /// the copies `k + 1..right_end` (the rest of its cell, then the cell to
    /// its right: contiguous in the copies) and with the run `below` (the
    /// three cells of the next row; on the last row, an empty run at the end
    /// of the copies).
    ///
    /// Per copy, not per cell: the crowd fills about half the cells, and a
    /// walk over the cells mispredicted whether each was empty. The copy's
    /// cell is the rebuild's, kept (`copy_entry`): finding it again from the copy's
    /// coordinates was a tenth of the separation's instructions.
    #[inline(always)]
    pub fn half_shell_of_copy(&self, k: usize) -> (u32, (u32, u32)) {
        let stride = self.block_stride();
        // From the copy's cell, the run ends around it (the row below the
        // last is the end of the copies).
        let at = self.copy_entry[k] as usize;
        let b = &self.blocks[at..at + stride + 3];
        let right_end = b[2];
        let below = (b[stride - 1], b[stride + 2]);
        // The run after the copy ends past it.
        debug_assert!(right_end as usize > k, "copy {k} is not in the cell it was sorted into");
        (right_end, below)
    }

    /// The points `wanted(i)` that can reach a copy, cell by cell (row-major,
    /// in index order within a cell), then every other point in index
    /// order, into `order` (a permutation of `0..xs.len()`). A counting sort
    /// like `rebuild`'s, `counts` its scratch. A point in the border around
    /// the grid counts with the edge cell it is nearest.
    pub fn order_by_cell(
        &self,
        xs: &[f32],
        ys: &[f32],
        wanted: impl Fn(usize) -> bool,
        counts: &mut Vec<u32>,
        order: &mut Vec<u32>,
    ) {
        let n = xs.len();
        let cells = self.cell_count();
        counts.clear();
        counts.resize(cells + 1, 0); // the last: the points left out
        order.clear();
        order.resize(n, 0);
        let window = self.query_window();
        let (x0, y0, inv, cols, rows) = (self.x0, self.y0, self.inv_cell, self.cols, self.rows);
        let cell_of = |i: usize| {
            let kept = window.reaches(xs[i], ys[i]) & wanted(i);
            if kept {
                Self::cell_in(x0, y0, inv, cols, rows, xs[i], ys[i]) as usize
            } else {
                cells
            }
        };
        for i in 0..n {
            counts[cell_of(i)] += 1;
        }
        let mut sum = 0;
        for c in counts.iter_mut() {
            (*c, sum) = (sum, sum + *c);
        }
        for i in 0..n {
            let c = cell_of(i);
            order[counts[c] as usize] = i as u32;
            counts[c] += 1;
        }
    }

    /// What a query needs of the grid to tell whether it can reach a copy
    /// at all (`QueryWindow::reaches`).
    pub fn query_window(&self) -> QueryWindow<'_> {
        // The column/row of `cell_coords` within [-1, cols] × [-1, rows]; with
        // wide points every query counts (a boss may stand outside the
        // copies' box).
        let (lo, x_end, y_end) = if self.wide.is_empty() {
            (-1.0, self.cols as f32 + 1.0, self.rows as f32 + 1.0)
        } else {
            (f32::NEG_INFINITY, f32::INFINITY, f32::INFINITY)
        };
        QueryWindow {
            x0: self.x0,
            y0: self.y0,
            inv: self.inv_cell,
            lo,
            x_end,
            y_end,
            last_col: self.cols as f32 + 1.0,
            last_row: self.rows as f32 + 1.0,
            stride: self.block_stride() as u32,
            grid: PhantomData,
        }
    }

    /// Every point within `r` of `(x, y)` (strictly closer), by index: the
    /// copies in cell order, then the wide points. `r` must not exceed the
    /// `reach` the grid was built for.
    pub fn for_each_within(&self, x: f32, y: f32, r: f32, mut f: impl FnMut(u32)) {
        debug_assert!(r <= self.cell * 1.0001);
        let r2 = r * r;
        for (lo, hi) in self.runs(x, y) {
            for k in lo as usize..hi as usize {
                let dx = self.x[k] - x;
                let dy = self.y[k] - y;
                if dx * dx + dy * dy < r2 {
                    f(self.index[k]);
                }
            }
        }
        for w in &self.wide {
            let (dx, dy) = (w.x - x, w.y - y);
            if dx * dx + dy * dy < r2 {
                f(w.index);
            }
        }
    }

    /// Every point whose disc a disc of radius `r` at `(x, y)` overlaps
    /// (centres closer than `r` + the point's radius), by index: the copies
    /// in cell order, then the wide points. `r` plus the copies' radii must
    /// not exceed the `reach` the grid was built for.
    pub fn for_each_touching(&self, x: f32, y: f32, r: f32, mut f: impl FnMut(u32)) {
        for (lo, hi) in self.runs(x, y) {
            for k in lo as usize..hi as usize {
                let (dx, dy, rr) = (self.x[k] - x, self.y[k] - y, r + self.radius[k]);
                debug_assert!(rr <= self.cell * 1.0001);
                if dx * dx + dy * dy < rr * rr {
                    f(self.index[k]);
                }
            }
        }
        for w in &self.wide {
            let (dx, dy, rr) = (w.x - x, w.y - y, r + w.radius);
            if dx * dx + dy * dy < rr * rr {
                f(w.index);
            }
        }
    }

    /// The runs of copies, one per block row, of the square block of cells
    /// that holds every copy within `reach` of `(x, y)`, any reach (the
    /// 3×3 block of `runs` when `reach` ≤ the cell). For the wide points'
    /// own searches, which reach past one cell.
    pub fn runs_around(&self, x: f32, y: f32, reach: f32) -> impl Iterator<Item = (u32, u32)> + '_ {
        let (cx, cy) = self.cell_coords(x, y);
        // A wide point far outside the grid's box reaches none of it (and
        // `ring` stays small enough for i32 arithmetic).
        let ring = (reach * self.inv_cell).ceil().clamp(1.0, (self.cols + self.rows + 2) as f32) as i32;
        let (lo, hi) = ((cx - ring).max(0), (cx + ring).min(self.cols - 1));
        let rows = (cy - ring).max(0)..=(cy + ring).min(self.rows - 1);
        rows.filter(move |_| lo <= hi)
            .map(move |row| (self.blocks[self.block_at(lo, row)], self.blocks[self.block_at(hi + 1, row)]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::{Rng, Stream};

    fn scatter(n: usize, size: f32, seed: u64) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
        let mut rng = Rng::new(seed, Stream::Spawns);
        let xs = (0..n).map(|_| rng.range(0.0, size)).collect();
        let ys = (0..n).map(|_| rng.range(0.0, size)).collect();
        (xs, ys, vec![8.0; n])
    }

    /// The cell order: every point once; the wanted ones within reach cell
    /// by cell (in index order within a cell), then the rest in index order.
    #[test]
    fn order_by_cell_is_a_permutation_cell_by_cell_then_the_rest() {
        let (xs, ys, rs) = scatter(400, 600.0, 5);
        let mut g = Grid::default();
        g.rebuild(&xs[..200], &ys[..200], &rs[..200], 16.0, 2.0);
        let (qx, qy): (Vec<f32>, Vec<f32>) = (0..400).map(|i| (xs[i] * 2.0 - 300.0, ys[i])).unzip();
        let (mut counts, mut order) = (Vec::new(), Vec::new());
        g.order_by_cell(&qx, &qy, |i| i % 5 != 0, &mut counts, &mut order);
        let mut seen = order.clone();
        seen.sort_unstable();
        assert_eq!(seen, (0..400).collect::<Vec<u32>>(), "each point once");
        let window = g.query_window();
        let kept = |i: usize| window.reaches(qx[i], qy[i]) && !i.is_multiple_of(5);
        let sorted = order.iter().take_while(|&&i| kept(i as usize)).count();
        assert!(sorted > 100 && sorted < 320, "some points are beyond the grid or unwanted: {sorted}");
        let cell = |i: u32| Grid::cell_in(g.x0, g.y0, g.inv_cell, g.cols, g.rows, qx[i as usize], qy[i as usize]);
        let by_cell = order[..sorted].windows(2).all(|w| (cell(w[0]), w[0]) < (cell(w[1]), w[1]));
        assert!(by_cell, "cell by cell, in index order within a cell");
        let rest = &order[sorted..];
        assert!(rest.iter().all(|&i| !kept(i as usize)) && rest.windows(2).all(|w| w[0] < w[1]), "the rest as it was");
    }

    #[test]
    fn every_point_is_in_the_copies_once_and_cells_are_sorted() {
        let (xs, ys, rs) = scatter(500, 1000.0, 1);
        let mut g = Grid::default();
        g.rebuild(&xs, &ys, &rs, 16.0, 2.0);
        let mut seen = vec![false; xs.len()];
        for k in 0..g.len() {
            let i = g.index[k] as usize;
            assert!(!seen[i]);
            seen[i] = true;
            assert_eq!((g.x[k], g.y[k]), (xs[i], ys[i]));
        }
        assert!(seen.iter().all(|&s| s));
        assert!(g.cell_count() <= 2 * 500 * 2 + 4, "cells {}", g.cell_count());
        assert!(g.cell_size() >= 16.0);
    }

    /// R-DET-1: a rebuild in halves, its tasks run in any order, builds the
    /// grid of a rebuild in one part: the same box, cells, copies and wide
    /// points. A scattered crowd with some points wide and without; one row
    /// (the second half of the cells starts at cell 0); an odd count; one
    /// point; all in one cell; all wide; a corner at 0.0 and −0.0.
    #[test]
    fn a_rebuild_in_halves_is_the_rebuild_in_one_part() {
        let same = |xs: &[f32], ys: &[f32], rs: &[f32], wide_above: f32| {
            let mut one = Grid::default();
            one.rebuild_in(xs, ys, rs, (16.0, 2.0, wide_above), false, in_order);
            let mut two = Grid::default();
            let last_first = |tasks: &mut Tasks| tasks.iter_mut().rev().for_each(|task| task());
            two.rebuild_in(xs, ys, rs, (16.0, 2.0, wide_above), true, last_first);
            let corner = |g: &Grid| (g.x0.to_bits(), g.y0.to_bits(), g.cell, g.cols, g.rows);
            assert_eq!(corner(&one), corner(&two));
            assert_eq!((&one.blocks, &one.copy_entry, &one.wide), (&two.blocks, &two.copy_entry, &two.wide));
            assert_eq!((&one.x, &one.y, &one.radius, &one.index), (&two.x, &two.y, &two.radius, &two.index));
            (one.len(), one.wide.len())
        };
        let (xs, ys, mut rs) = scatter(3000, 600.0, 7);
        for r in rs.iter_mut().step_by(97) {
            *r = 30.0;
        }
        assert_eq!(same(&xs, &ys, &rs, f32::INFINITY), (3000, 0));
        assert_eq!(same(&xs, &ys, &rs, 12.0), (3000 - 31, 31));
        assert_eq!(same(&xs[..301], &[5.0; 301], &rs[..301], 12.0).0, 301 - 4);
        assert_eq!(same(&xs[..7], &ys[..7], &rs[..7], 12.0).0, 6);
        assert_eq!(same(&xs[..1], &ys[..1], &rs[1..2], 12.0), (1, 0));
        assert_eq!(same(&[3.0; 9], &[4.0; 9], &[8.0; 9], 12.0), (9, 0));
        assert_eq!(same(&xs[..50], &ys[..50], &[30.0; 50], 12.0), (0, 50));
        assert_eq!(same(&[0.0, -0.0, 40.0, -0.0], &[-0.0, 0.0, 40.0, 0.0], &[8.0; 4], 12.0), (4, 0));
    }

    /// `runs` (read from `blocks`) and `half_shell_of_copy` cover exactly the
    /// copies of the cells they stand for, at the grid's edges and beyond it:
    /// a square crowd, a single row, a single column, one point, none.
    #[test]
    fn runs_and_half_shells_cover_exactly_their_cells() {
        let (xs, ys, rs) = scatter(300, 400.0, 3);
        let row: Vec<f32> = xs.iter().map(|x| 200.0 + x / 100.0).collect();
        // xs, ys, and the grid's rows and columns where the layout fixes them (0: any).
        type Layout<'a> = (&'a [f32], &'a [f32], Option<(usize, usize)>);
        let layouts: [Layout; 5] = [
            (&xs, &ys, None),
            (&xs, &row, Some((1, 0))),
            (&row, &ys, Some((0, 1))),
            (&xs[..1], &ys[..1], Some((1, 1))),
            (&xs[..0], &ys[..0], Some((1, 1))),
        ];
        for ((lx, ly, shape), halves) in layouts.into_iter().flat_map(|l| [(l, false), (l, true)]) {
            let mut g = Grid::default();
            g.rebuild_in(lx, ly, &rs[..lx.len()], (16.0, 2.0, f32::INFINITY), halves, in_order);
            if let Some((rows, cols)) = shape {
                assert!(rows == 0 || g.rows() == rows, "rows {}", g.rows());
                assert!(cols == 0 || g.cols as usize == cols, "cols {}", g.cols);
            }
            check_runs_and_half_shells(&g);
        }
    }

    fn check_runs_and_half_shells(g: &Grid) {
        let cell_of_copy = |k: usize| Grid::cell_xy_in(g.x0, g.y0, g.inv_cell, g.cols, g.rows, g.x[k], g.y[k]);
        let copies_in = |runs: &[(u32, u32)]| {
            let mut got: Vec<usize> = runs.iter().flat_map(|&(lo, hi)| lo as usize..hi as usize).collect();
            got.sort();
            got
        };
        let mut rng = Rng::new(5, Stream::Spread);
        let queries = (0..600).map(|_| (rng.range(-80.0, 480.0), rng.range(-80.0, 480.0)));
        for (qx, qy) in queries.chain([(f32::NAN, f32::NAN), (f32::INFINITY, f32::NEG_INFINITY)]) {
            let (cx, cy) = g.cell_coords(qx, qy);
            let want: Vec<usize> = (0..g.len())
                .filter(|&k| {
                    let (kx, ky) = cell_of_copy(k);
                    (kx - cx).abs() <= 1 && (ky - cy).abs() <= 1
                })
                .collect();
            assert_eq!(copies_in(&g.runs(qx, qy)), want, "query ({qx}, {qy}) in cell ({cx}, {cy})");
        }
        for k in 0..g.len() {
            let (cx, cy) = cell_of_copy(k);
            let (right_end, below) = g.half_shell_of_copy(k);
            let want: Vec<usize> = (k + 1..g.len())
                .filter(|&m| {
                    let (mx, my) = cell_of_copy(m);
                    (my == cy && (mx == cx || mx == cx + 1)) || (my == cy + 1 && (mx - cx).abs() <= 1)
                })
                .collect();
            assert_eq!(copies_in(&[(k as u32 + 1, right_end), below]), want, "copy {k} in cell ({cx}, {cy})");
            assert!(below.0 <= below.1 && below.1 as usize <= g.len());
        }
        // Rows: where each starts in the copies, and which row a copy index falls in.
        for r in 0..=g.rows() + 2 {
            let first = (0..g.len()).find(|&k| cell_of_copy(k).1 as usize >= r).unwrap_or(g.len());
            assert_eq!(g.first_copy_of_row(r), first, "row {r}");
        }
        for k in 0..=g.len() {
            let row = (0..g.rows()).find(|&r| g.first_copy_of_row(r) >= k).unwrap_or(g.rows());
            assert_eq!(g.row_at_copy(k), row, "copy index {k}");
        }
        // The rings around a point, any reach.
        for (qx, qy, reach) in [(200.0, 200.0, 40.0), (-30.0, 100.0, 70.0), (390.0, 5.0, 300.0), (150.0, 150.0, 3.0)] {
            let (cx, cy) = g.cell_coords(qx, qy);
            let ring = (reach * g.inv_cell).ceil() as i32;
            let want: Vec<usize> = (0..g.len())
                .filter(|&k| {
                    let (kx, ky) = cell_of_copy(k);
                    (kx - cx).abs() <= ring && (ky - cy).abs() <= ring
                })
                .collect();
            assert_eq!(
                copies_in(&g.runs_around(qx, qy, reach).collect::<Vec<_>>()),
                want,
                "ring {reach} at ({qx}, {qy})"
            );
        }
    }

    #[test]
    fn within_query_matches_brute_force_inside_and_outside_the_box() {
        let (xs, ys, rs) = scatter(800, 600.0, 2);
        let mut g = Grid::default();
        g.rebuild(&xs, &ys, &rs, 24.0, 2.0);
        let mut rng = Rng::new(9, Stream::Spread);
        for _ in 0..300 {
            let (qx, qy) = (rng.range(-50.0, 650.0), rng.range(-50.0, 650.0));
            let mut got = Vec::new();
            g.for_each_within(qx, qy, 24.0, |i| got.push(i));
            got.sort();
            let want: Vec<u32> = (0..xs.len() as u32)
                .filter(|&i| {
                    let (dx, dy) = (xs[i as usize] - qx, ys[i as usize] - qy);
                    dx * dx + dy * dy < 24.0 * 24.0
                })
                .collect();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn degenerate_boxes_build_one_cell_or_a_thin_row() {
        let mut g = Grid::default();
        g.rebuild(&[5.0; 10], &[5.0; 10], &[1.0; 10], 4.0, 2.0);
        assert_eq!(g.cell_count(), 1);
        let xs: Vec<f32> = (0..100).map(|i| i as f32 * 1000.0).collect();
        g.rebuild(&xs, &vec![0.0; 100], &vec![1.0; 100], 4.0, 2.0);
        assert!(g.cell_count() <= 2 * 100 * 2 + 4);
        g.rebuild(&[], &[], &[], 4.0, 2.0);
        assert_eq!(g.len(), 0);
        let mut n = 0;
        g.for_each_within(0.0, 0.0, 4.0, |_| n += 1);
        assert_eq!(n, 0);
    }

    /// `floor_small` is ⌊v⌋ over its whole range: a sweep of every binade
    /// below 2²³, and each integer near the top with its neighbours.
    #[test]
    fn floor_small_is_floor_below_two_to_the_23() {
        let check = |v: f32| assert_eq!(floor_small(v), v.floor() as u32, "{v} ({:#x})", v.to_bits());
        for bits in (0..8_388_608.0f32.to_bits()).step_by(331) {
            check(f32::from_bits(bits));
        }
        check(-0.0);
        for n in (0..64).chain(MAX_SIDE - 64..MAX_SIDE + 64).chain((1 << 23) - 64..1 << 23) {
            let v = n as f32;
            for w in [v, f32::from_bits(v.to_bits().saturating_sub(1)), f32::from_bits(v.to_bits() + 1), v + 0.5] {
                if w < 8_388_608.0 {
                    check(w);
                }
            }
        }
    }

    /// A line of points longer than `MAX_SIDE` of its cells (uncapped, it
    /// would have more than 2²³ columns, past `floor_small`'s range): the
    /// cells widen until it fits, and a query at each point finds it, the
    /// far end included (where `QueryWindow::look` works with its largest
    /// columns). Its `blocks` table is 117 MB.
    #[test]
    fn a_line_longer_than_the_side_cap_widens_its_cells() {
        let n = 1000;
        let xs: Vec<f32> = (0..n).map(|i| i as f32 * 250_000.0).collect();
        let (ys, rs) = (vec![0.0; n], vec![0.5; n]);
        let mut g = Grid::default();
        g.rebuild(&xs, &ys, &rs, 1.0, 10_000.0);
        assert!(g.cols as u32 <= MAX_SIDE && g.cols as u32 > MAX_SIDE / 2, "cols {}", g.cols);
        for (i, &x) in xs.iter().enumerate() {
            let mut found = Vec::new();
            g.for_each_within(x, 0.0, 0.5, |k| found.push(k));
            assert_eq!(found, vec![i as u32], "the point at x = {x}");
        }
    }
}
