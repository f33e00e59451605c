//! The grid against brute force: copies, runs, half shells, queries, the rebuild in halves.

use super::window::MAX_SIDE;
use super::*;
use crate::sim::rng::{Rng, Stream};
use crate::sim::tasks::{in_order, Tasks};

/// The tests' sizing: a reach of 16, two cells a point, points above
/// `wide_above` kept out of the cells.
fn sizing(wide_above: f32) -> GridSizing {
    GridSizing { reach: 16.0, cells_per_entity: 2.0, wide_above }
}

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
        one.rebuild_in(xs, ys, rs, sizing(wide_above), false, in_order);
        let mut two = Grid::default();
        let last_first = |tasks: &mut Tasks| tasks.iter_mut().rev().for_each(|task| task());
        two.rebuild_in(xs, ys, rs, sizing(wide_above), true, last_first);
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
        g.rebuild_in(lx, ly, &rs[..lx.len()], sizing(f32::INFINITY), halves, in_order);
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
        assert_eq!(copies_in(&g.runs_around(qx, qy, reach).collect::<Vec<_>>()), want, "ring {reach} at ({qx}, {qy})");
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
