//! Where a query looks in the grid: its block's entry in `blocks`, found in
//! float arithmetic and bit operations that vectorise over a stretch of
//! queries (`QueryWindow::look`), and the cell arithmetic it shares with the
//! rebuild (`near_cell`, `block_entry`, `floor_small`).

use std::marker::PhantomData;

use super::{Grid, BORDER};

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
pub(super) fn near_cell(fx: f32, fy: f32, (last_col, last_row): (f32, f32)) -> (i32, i32) {
    let cell = |f: f32, last: f32| floor_small(f.max(-2.0).min(last) + 2.0) as i32 - 2;
    (cell(fx, last_col), cell(fy, last_row))
}

/// Where cell `(cx, cy)`'s entry is in `blocks` (`stride`: `Grid::block_stride`;
/// any cell from −`BORDER` to `cols + BORDER − 1`, −`BORDER` to `rows + BORDER − 1`:
/// the grid's and its border's).
#[inline(always)]
pub(super) fn block_entry(stride: u32, cx: i32, cy: i32) -> u32 {
    (cy + BORDER as i32) as u32 * stride + (cx + BORDER as i32) as u32
}

/// The most cells along either side of a grid, so that `floor_small` can
/// take any column or row `near_cell` finds (a grid this wide has a 117 MB
/// `blocks` table already). Grids wider than this had their cells widened:
/// a change of behaviour (and of state hashes) only for content whose grid
/// would have had more than 4 million cells along a side.
pub(super) const MAX_SIDE: u32 = 1 << 22;

/// ⌊v⌋ of a non-negative `v` (+0.0 or −0.0 included) below 2²³, in float
/// arithmetic and bit operations only: `as i32` saturates (Rust's rule), and
/// LLVM would not vectorise the saturating conversion in `QueryWindow::look`
/// and the rebuild's `entries_of` (measured: the frame 3.5% slower with it in
/// the search's look pass).
#[inline(always)]
pub(super) fn floor_small(v: f32) -> u32 {
    debug_assert!((0.0..8_388_608.0).contains(&v), "floor_small({v})");
    // 2²³: below it, v + 2²³ rounds v to the nearest integer, exactly.
    const MAGIC: f32 = 8_388_608.0;
    let nearest = (v + MAGIC) - MAGIC;
    let floor = nearest - if nearest > v { 1.0 } else { 0.0 };
    (floor + MAGIC).to_bits() - MAGIC.to_bits()
}

impl Grid {
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
}
