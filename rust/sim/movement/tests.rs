//! The movement systems against their scalar and all-pairs references.

use super::*;
use crate::sim::grid::{Grid, GridSizing};
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
    let sizing = GridSizing { reach: 24.0, cells_per_entity: 2.0, wide_above: 10.0 };
    g.rebuild_in(xs, ys, rs, sizing, false, crate::sim::tasks::in_order);
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
        let got_except = nearest_in_runs_except(&g, &g.runs(qx, qy), qx, qy, 4.0, |_| false);
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
    assert!(bands.band_count() >= 4, "enough bands to share");
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
    move_projectiles(&mut x, &mut y, &mut vx, &mut vy, &mut bounces, &mut life, &mut dead, 0.5, (100.0, 100.0), walled);
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
