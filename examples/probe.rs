//! A timing probe of the stress workload, outside criterion:
//! `cargo run --release --example probe -- ENEMIES PROJECTILES ROUNDS [THREADS] [uniform] [scaled]`
//! (`scaled`: the world grows with the count so the crowd keeps its density, `density_side`).
//! Each round restores the warmed-up world (frame 10) and times frames
//! 10..210, as the criterion bench does; prints the median step, the
//! per-entity cost, the mean step (the median hides a cost paid one frame in
//! many, such as the pools' reorder every 16 frames; the mean is the
//! throughput), the hits per frame and the state hash at frame 210 (equal
//! for every thread count: R-DET-1).

use std::time::Instant;

#[path = "../rust/tests/common/mod.rs"]
mod common;

use artificer_core::sim::player::Controls;
use artificer_core::sim::stress::{density_side, stress_world_in, warm_up, Layout, WORLD};

const FRAMES: usize = 200;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, default: usize| args.get(i).map_or(default, |a| a.parse().expect("a number"));
    let (enemies, projectiles, rounds, threads) = (num(0, 10_000), num(1, 20_000), num(2, 5), num(3, 1));
    let flag = |name: &str| args.iter().skip(3).any(|a| a == name);
    let layout = if flag("uniform") { Layout::Uniform } else { Layout::Crowd };
    let side = if flag("scaled") { density_side(enemies) } else { WORLD };
    let mut warm = stress_world_in(side, enemies, projectiles, layout, 1, &common::tuning());
    warm.set_threads(threads).unwrap();
    warm_up(&mut warm);

    let mut times = Vec::with_capacity(rounds * FRAMES);
    let mut hits = 0u64;
    let mut hash = 0u64;
    for _ in 0..rounds {
        let mut world = warm.clone();
        for _ in 0..FRAMES {
            let t = Instant::now();
            let c = world.step(&Controls::default(), &[]);
            times.push(t.elapsed().as_secs_f64() * 1e3);
            hits += c.hits as u64;
        }
        hash = world.state_hash();
    }
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let per_entity_ns = median * 1e6 / (enemies + projectiles) as f64;
    println!(
        "{enemies}/{projectiles} {layout:?} {side}² {threads}t: median {median:.3} ms ({per_entity_ns:.1} ns/entity), \
         mean {mean:.3} ms, p10 {:.3}, p90 {:.3}, hits/frame {:.0}, state hash at frame 210 {hash:016x}",
        times[times.len() / 10],
        times[times.len() * 9 / 10],
        hits as f64 / (rounds * FRAMES) as f64
    );
}
