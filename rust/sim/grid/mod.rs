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
//!
//! Here: the grid and its queries (runs, half shells, the pools' cell order);
//! `rebuild`: the box, the cells and the counting sort; `window`: where a
//! query looks, in arithmetic that vectorises.

mod rebuild;
#[cfg(test)]
mod tests;
mod window;

pub use window::QueryWindow;
use window::{block_entry, floor_small, near_cell};

/// The index runs `[lo, hi)` into the cell-ordered copies that cover the
/// 3×3 block around a point: one run per block row.
pub type Runs = [(u32, u32); 3];

/// Lanes of a padded scan: the copies carry this many entries past the last
/// point, so a scan may read a whole chunk `[lo, lo + LANES)` from any run
/// start and mask off the lanes at or past `hi` (see `movement/`).
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

/// How a rebuild sizes the grid's cells (`Grid::rebuild_in`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridSizing {
    /// The largest distance any query will look (e.g. the sum of the two
    /// largest radii of the points in the cells): the cells are at least this wide.
    pub reach: f32,
    /// The most cells a point: where points are sparse, the cells widen instead.
    pub cells_per_entity: f32,
    /// Points of a radius above this stay out of the cells, in `Grid::wide`
    /// (infinite: none does).
    pub wide_above: f32,
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
/// The copies' `index` in the padding past the last: "no point"
/// (`movement::NO_TARGET`), so a scan that found no copy reads it there.
pub const NO_INDEX: u32 = u32::MAX;

/// The rows and columns of `blocks` around the grid's: `cell_coords` goes
/// two past the edge, and a block one more.
const BORDER: usize = 3;

/// `entry_of` for a wide point.
const WIDE: u32 = u32::MAX;

impl Grid {
    /// The points in the cells (the copies), wide points not counted.
    pub fn len(&self) -> usize {
        self.points
    }

    pub fn is_empty(&self) -> bool {
        self.points == 0
    }

    /// The largest radius a copy may have (`rebuild_in`'s `wide_above`;
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
