//! Criterion bench of the sprite rasterizer (`render::Rasterizer`): one
//! frame of the standard stress workload (benches/README.md, crowd layout)
//! drawn into a 1280×720 XRGB8888 buffer, camera on the player, at 1k/2k,
//! 3k/6k and 10k/20k enemies/projectiles, on 1 and 2 threads, after the
//! buffer is cleared (as the arena clears the window every frame).
//!
//! Two frames: frame 10 (the end of the warm-up: projectiles still spread
//! over the crowd, many translucent glows) and frame 310 (the middle of
//! what `artificer stress --render` times: the crowd packed around the
//! player, most of the screen opaque enemies, the projectiles gone). The
//! sprites imitate the atlas the stress run draws: a 22×22 opaque disk with
//! an outline and an eye (the grunt, radius 10) and a 12×12 translucent glow
//! (spark bolt, radius 4).

#[path = "../rust/tests/common/mod.rs"]
mod common;

use std::hint::black_box;

use artificer_core::render::{Layer, PixelFormat, Rasterizer, SpriteImage, Sprites, Target};
use artificer_core::sim::player::Controls;
use artificer_core::sim::stress::{stress_world, warm_up, Layout};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

const SIZES: [(usize, usize); 3] = [(1_000, 2_000), (3_000, 6_000), (10_000, 20_000)];
const SCREEN: (usize, usize) = (1280, 720);

/// A premultiplied image from concentric disks, outermost first:
/// (radius, [r, g, b], alpha); later disks paint over earlier ones.
fn disks(side: usize, rings: &[(f32, [u8; 3], u8)]) -> SpriteImage {
    let mut rgba = vec![0u8; side * side * 4];
    let c = side as f32 / 2.0;
    for (i, px) in rgba.chunks_exact_mut(4).enumerate() {
        let (x, y) = ((i % side) as f32 + 0.5 - c, (i / side) as f32 + 0.5 - c);
        for &(r, rgb, a) in rings {
            if x * x + y * y <= r * r {
                let pm = |v: u8| ((v as u32 * a as u32 + 127) / 255) as u8;
                px.copy_from_slice(&[pm(rgb[0]), pm(rgb[1]), pm(rgb[2]), a]);
            }
        }
    }
    SpriteImage::new("bench", side, side, rgba).expect("premultiplied")
}

fn atlas() -> Vec<SpriteImage> {
    vec![
        disks(22, &[(10.0, [123, 4, 0], 255), (8.0, [213, 94, 0], 255), (2.2, [20, 20, 20], 255)]),
        disks(
            12,
            &[
                (6.0, [230, 230, 230], 50),
                (4.0, [230, 230, 230], 140),
                (2.2, [230, 230, 230], 255),
                (1.2, [255, 255, 255], 220),
            ],
        ),
    ]
}

/// The enemies' and projectiles' (x, y) rows after the warm-up and
/// `more` frames.
fn frame_rows(enemies: usize, projectiles: usize, more: usize) -> (Vec<f32>, Vec<f32>) {
    let mut world = stress_world(enemies, projectiles, Layout::Crowd, 0, &common::tuning());
    warm_up(&mut world);
    for _ in 0..more {
        world.step(&Controls::default(), &[]);
    }
    let e = &world.pools.enemies;
    let p = &world.pools.projectiles;
    let rows = |x: &[f32], y: &[f32]| x.iter().zip(y).flat_map(|(&x, &y)| [x, y]).collect::<Vec<f32>>();
    (rows(&e.x, &e.y), rows(&p.x, &p.y))
}

fn rasterize(c: &mut Criterion) {
    let format = PixelFormat::from_masks(4, [0xff0000, 0xff00, 0xff, 0]).expect("XRGB8888");
    let (w, h) = SCREEN;
    // The camera centres the player (the middle of the 4000×4000 world).
    let offset = (w as f32 / 2.0 - 2000.0, h as f32 / 2.0 - 2000.0);
    for (frame, more) in [(10, 0), (310, 300)] {
        let frames: Vec<_> = SIZES.iter().map(|&(e, p)| (e, p, frame_rows(e, p, more))).collect();
        for threads in [1usize, 2] {
            let mut group = c.benchmark_group(format!("raster_frame{frame}_{threads}t"));
            for (enemies, projectiles, (enemy_rows, shot_rows)) in &frames {
                let mut rasterizer = Rasterizer::new(atlas());
                rasterizer.set_threads(threads).expect("threads start");
                let mut pixels = vec![0u8; w * h * 4];
                let layers = [
                    Layer { rows: enemy_rows, columns: 2, sprites: Sprites::All(0) },
                    Layer { rows: shot_rows, columns: 2, sprites: Sprites::All(1) },
                ];
                let id = BenchmarkId::from_parameter(format!("{enemies}/{projectiles}"));
                group.bench_function(id, |b| {
                    b.iter(|| {
                        pixels.fill(14);
                        let mut target = Target::new(&mut pixels, w, h, w * 4, format).expect("the buffer fits");
                        black_box(rasterizer.draw(&mut target, offset, black_box(&layers)).expect("valid layers"))
                    })
                });
            }
            group.finish();
        }
    }
}

criterion_group!(benches, rasterize);
criterion_main!(benches);
