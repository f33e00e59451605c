//! Criterion benches of the core: grid rebuild, and one `step` of the
//! standard stress workload (benches/README.md) at three sizes and both
//! layouts, single-threaded and on 2 threads.
//!
//! A step is timed over frames 10..210 of the workload only: the crowd
//! drifts toward the player and compresses over hundreds of frames (at
//! 1k/2k it collapses into a blob within ~250 frames, and the projectiles
//! leave it), so every 200 timed frames the bench restores a clone of the
//! world warmed up to frame 10, untimed.

#[path = "../rust/tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use artificer_core::sim::grid::Grid;
use artificer_core::sim::player::Controls;
use artificer_core::sim::stress::{stress_world, warm_up, Layout};
use artificer_core::sim::world::World;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

const SIZES: [(usize, usize); 3] = [(1_000, 2_000), (10_000, 20_000), (50_000, 100_000)];

fn layouts() -> [(Layout, &'static str); 2] {
    [(Layout::Crowd, "crowd"), (Layout::Uniform, "uniform")]
}

fn grid_rebuild(c: &mut Criterion) {
    let mut group = c.benchmark_group("grid_rebuild");
    for (enemies, projectiles) in SIZES {
        for (layout, name) in layouts() {
            let world = stress_world(enemies, projectiles, layout, 1, &common::tuning());
            let e = &world.pools.enemies;
            let mut grid = Grid::default();
            group.bench_function(BenchmarkId::new(name, enemies), |b| {
                b.iter(|| grid.rebuild(black_box(&e.x), &e.y, &e.radius, 16.0, 2.0))
            });
        }
    }
    group.finish();
}

fn step(c: &mut Criterion) {
    for threads in [1usize, 2] {
        let mut group = c.benchmark_group(format!("step_{threads}t"));
        for (enemies, projectiles) in SIZES {
            if enemies >= 50_000 {
                group.sample_size(20);
            }
            for (layout, name) in layouts() {
                let mut warm = stress_world(enemies, projectiles, layout, 1, &common::tuning());
                warm.set_threads(threads).unwrap();
                warm_up(&mut warm);
                let id = BenchmarkId::new(name, format!("{enemies}/{projectiles}"));
                group.bench_function(id, |b| b.iter_custom(|iters| timed_window_steps(&warm, iters)));
            }
        }
        group.finish();
    }
}

/// Frames timed before the world is restored to its warmed-up clone.
const WINDOW: u64 = 200;

/// Times `iters` steps, restoring `warm` (frame 10) every `WINDOW` steps.
fn timed_window_steps(warm: &World, iters: u64) -> Duration {
    let mut total = Duration::ZERO;
    let mut world = warm.clone();
    for i in 0..iters {
        if i > 0 && i % WINDOW == 0 {
            world = warm.clone();
        }
        let t = Instant::now();
        black_box(world.step(black_box(&Controls::default()), &[]));
        total += t.elapsed();
    }
    total
}

criterion_group!(benches, grid_rebuild, step);
criterion_main!(benches);
