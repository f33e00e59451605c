//! Criterion benches of the core: grid rebuild, and one `step` of the
//! standard stress workload (benches/README.md) at three sizes and both
//! layouts, single-threaded and on 2 threads.

use std::hint::black_box;

use artificer_core::sim::grid::Grid;
use artificer_core::sim::player::Controls;
use artificer_core::sim::stress::{stress_world, warm_up, Layout};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

const SIZES: [(usize, usize); 3] = [(1_000, 2_000), (10_000, 20_000), (50_000, 100_000)];

fn layouts() -> [(Layout, &'static str); 2] {
    [(Layout::Crowd, "crowd"), (Layout::Uniform, "uniform")]
}

fn grid_rebuild(c: &mut Criterion) {
    let mut group = c.benchmark_group("grid_rebuild");
    for (enemies, projectiles) in SIZES {
        for (layout, name) in layouts() {
            let world = stress_world(enemies, projectiles, layout, 1);
            let e = &world.enemies;
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
                let mut world = stress_world(enemies, projectiles, layout, 1);
                world.set_threads(threads).unwrap();
                warm_up(&mut world);
                let id = BenchmarkId::new(name, format!("{enemies}/{projectiles}"));
                group.bench_function(id, |b| b.iter(|| world.step(black_box(&Controls::default()), &[])));
            }
        }
        group.finish();
    }
}

criterion_group!(benches, grid_rebuild, step);
criterion_main!(benches);
