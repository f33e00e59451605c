//! The world against references: hits and separation against a brute-force
//! O(N²) frame on random scenes (R-WAVE-2), determinism (R-DET-1), and the
//! game pipeline end to end (kills, drops, pickups, contact).

// The shared helpers come with the statuses module below (one copy of the module per binary).
use statuses::common;

use artificer_core::sim::commands::Command;
use artificer_core::sim::config::WorldConfig;
use artificer_core::sim::events::EventKind;
use artificer_core::sim::ids::Id;
use artificer_core::sim::player::Controls;
use artificer_core::sim::pools::{NewProjectile, HIT_MEMORY};
use artificer_core::sim::stress::{stress_config, stress_projectile, stress_world, Layout};
use artificer_core::sim::world::World;
use artificer_core::vm::sample;
use proptest::prelude::*;

#[derive(Debug, Clone)]
struct Scene {
    ex: Vec<f32>,
    ey: Vec<f32>,
    px: Vec<f32>,
    py: Vec<f32>,
    pvx: Vec<f32>,
    pvy: Vec<f32>,
}

fn scene_strategy() -> impl Strategy<Value = Scene> {
    // A small box so that most entities interact; some at the walls.
    (1usize..120, 1usize..200).prop_flat_map(|(n, m)| {
        (
            proptest::collection::vec((0.0f32..300.0, 0.0f32..300.0), n),
            proptest::collection::vec((0.0f32..300.0, 0.0f32..300.0, -400.0f32..400.0, -400.0f32..400.0), m),
        )
            .prop_map(|(es, ps)| Scene {
                ex: es.iter().map(|e| e.0).collect(),
                ey: es.iter().map(|e| e.1).collect(),
                px: ps.iter().map(|p| p.0).collect(),
                py: ps.iter().map(|p| p.1).collect(),
                pvx: ps.iter().map(|p| p.2).collect(),
                pvy: ps.iter().map(|p| p.3).collect(),
            })
    })
}

const HP: f32 = 1.0e6;

fn world_of(scene: &Scene, threads: usize) -> World {
    let mut cfg = stress_config(3, &common::tuning());
    cfg.enemy_kinds[0].hp = HP;
    let mut w = World::new(cfg).unwrap();
    w.set_threads(threads).unwrap();
    w.set_player_position(150.0, 150.0).unwrap();
    for i in 0..scene.ex.len() {
        w.spawn_enemy(0, false, scene.ex[i], scene.ey[i]).unwrap();
    }
    for i in 0..scene.px.len() {
        w.spawn_projectile(stress_projectile(scene.px[i], scene.py[i], scene.pvx[i], scene.pvy[i])).unwrap();
    }
    w
}

/// The reference frame, written the slow and obvious way.
fn brute_force_frame(w: &World) -> (Vec<u32>, Vec<f32>, Vec<f32>) {
    let cfg: &WorldConfig = w.config();
    let e = &w.pools.enemies;
    let p = &w.pools.projectiles;
    let (aw, ah) = (cfg.arena_w, cfg.arena_h);
    let mut hits_on = vec![0u32; e.len()];
    for i in 0..p.len() {
        let (mut x, mut y) = (p.x[i] + p.vx[i], p.y[i] + p.vy[i]);
        if x < 0.0 {
            x = -x
        } else if x > aw {
            x = 2.0 * aw - x
        }
        if y < 0.0 {
            y = -y
        } else if y > ah {
            y = 2.0 * ah - y
        }
        let mut best: Option<(f32, usize)> = None;
        for j in 0..e.len() {
            let (dx, dy) = (x - e.x[j], y - e.y[j]);
            let d2 = dx * dx + dy * dy;
            let rr = p.radius[i] + e.radius[j];
            if d2 < rr * rr && best.is_none_or(|(b, _)| d2 < b) {
                best = Some((d2, j));
            }
        }
        if let Some((_, j)) = best {
            hits_on[j] += 1;
        }
    }
    let (tx, ty) = (w.player.x, w.player.y);
    let k = cfg.separation_strength;
    let mut nx = vec![0.0; e.len()];
    let mut ny = vec![0.0; e.len()];
    for i in 0..e.len() {
        let (mut ax, mut ay) = (0.0f32, 0.0f32);
        for j in 0..e.len() {
            if i == j {
                continue;
            }
            let (dx, dy) = (e.x[i] - e.x[j], e.y[i] - e.y[j]);
            let d = (dx * dx + dy * dy).sqrt();
            let rr = e.radius[i] + e.radius[j];
            if d < rr && d > 0.0 {
                ax += dx / d * k * (rr - d);
                ay += dy / d * k * (rr - d);
            }
        }
        let (dx, dy) = (tx - e.x[i], ty - e.y[i]);
        let d = (dx * dx + dy * dy).sqrt();
        let (mut x, mut y) = (e.x[i], e.y[i]);
        if d > 1e-6 {
            let s = e.speed[i].min(d);
            x += dx / d * s;
            y += dy / d * s;
        }
        nx[i] = (x + ax).clamp(0.0, aw);
        ny[i] = (y + ay).clamp(0.0, ah);
    }
    (hits_on, nx, ny)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// R-WAVE-2 + hits: one grid-driven step equals the O(N²) reference.
    #[test]
    fn step_matches_brute_force(scene in scene_strategy(), threads in 1usize..3) {
        let mut w = world_of(&scene, threads);
        let (hits_on, nx, ny) = brute_force_frame(&w);
        let counts = w.step(&Controls::default(), &[]);
        prop_assert_eq!(counts.hits, hits_on.iter().sum::<u32>());
        // Enemy i of the reference is the i-th spawned (none dies here), wherever the pool keeps it.
        let e = &w.pools.enemies;
        let (hp, x, y) = (common::in_spawn_order(&w, &e.hp), common::in_spawn_order(&w, &e.x), common::in_spawn_order(&w, &e.y));
        for i in 0..e.len() {
            prop_assert_eq!(HP - hp[i], hits_on[i] as f32, "hits on enemy {}", i);
            prop_assert!((x[i] - nx[i]).abs() < 1e-3 && (y[i] - ny[i]).abs() < 1e-3,
                "enemy {} at ({}, {}), reference ({}, {})", i, x[i], y[i], nx[i], ny[i]);
        }
    }
}

/// R-WAVE-2: a pile of enemies spawned on one point spreads out instead of
/// staying stacked.
#[test]
fn enemies_spawned_on_one_point_spread_out() {
    let mut w = World::new(stress_config(1, &common::tuning())).unwrap();
    w.set_player_position(3000.0, 3000.0).unwrap();
    for _ in 0..50 {
        w.spawn_enemy(0, false, 1000.0, 1000.0).unwrap();
    }
    for _ in 0..120 {
        w.step(&Controls::default(), &[]);
    }
    let e = &w.pools.enemies;
    let mut closest = f32::INFINITY;
    for i in 0..e.len() {
        for j in i + 1..e.len() {
            closest = closest.min(((e.x[i] - e.x[j]).powi(2) + (e.y[i] - e.y[j]).powi(2)).sqrt());
        }
    }
    assert!(closest > 4.0, "enemies still stacked: closest pair {closest} px apart");
}

fn game_world(seed: u64) -> World {
    let mut cfg = stress_config(seed, &common::tuning());
    cfg.rules = Default::default();
    cfg.arena_w = 1600.0;
    cfg.arena_h = 1000.0;
    cfg.player.max_hp = 100.0;
    cfg.player.radius = 12.0;
    cfg.player.move_speed = 200.0;
    cfg.player.crit_chance = 0.3;
    cfg.player.crit_multiplier = 2.0;
    cfg.player.invulnerability = 0.5;
    cfg.pickups.pickup_radius = 80.0;
    cfg.pickups.magnet_speed = 400.0;
    cfg.pickups.collect_radius = 10.0;
    let k = &mut cfg.enemy_kinds[0];
    k.hp = 6.0;
    k.speed = 50.0;
    k.contact_damage = 5.0;
    k.reward = 1;
    let mut w = World::new(cfg).unwrap();
    common::arm_bolt(&mut w, sample::bolt(3.0), None, 0.25);
    w
}

/// Scripted inputs: circle-strafe, dash now and then, spawn in rings.
fn play(w: &mut World, frames: u32) -> Vec<(EventKind, u32)> {
    let mut log = Vec::new();
    for f in 0..frames {
        let a = f as f32 * 0.01;
        let controls = Controls { move_x: a.cos(), move_y: a.sin(), dash: f % 97 == 0, ..Default::default() };
        let mut cmds = Vec::new();
        if f % 30 == 0 {
            for k in 0..4 {
                let ang = k as f32 * 1.7 + f as f32;
                cmds.push(Command::Spawn {
                    kind: 0,
                    elite: k == 0,
                    x: 800.0 + 600.0 * ang.cos(),
                    y: 500.0 + 400.0 * ang.sin(),
                });
            }
        }
        if f == 1000 {
            cmds.push(Command::Heal { amount: 50.0 });
        }
        w.step(&controls, &cmds);
        log.extend(w.events().iter().map(|e| (e.kind, f)));
    }
    log
}

/// R-DET-1: same seed and inputs ⇒ the same state hash after 5,000 steps;
/// another seed (crit rolls differ) ⇒ a different one.
#[test]
fn r_det_1_same_seed_same_hash_after_5000_steps() {
    let (mut a, mut b, mut c) = (game_world(11), game_world(11), game_world(12));
    b.set_threads(2).unwrap();
    let la = play(&mut a, 5000);
    let lb = play(&mut b, 5000);
    play(&mut c, 5000);
    assert_eq!(a.state_hash(), b.state_hash());
    assert_eq!(la, lb);
    assert_ne!(a.state_hash(), c.state_hash());
    let kills = la.iter().filter(|(k, _)| *k == EventKind::EnemyKilled).count();
    let picked = la.iter().filter(|(k, _)| *k == EventKind::CurrencyPicked).count();
    let hurt = la.iter().filter(|(k, _)| *k == EventKind::PlayerDamaged).count();
    assert!(kills > 50 && picked > 10 && hurt > 0, "kills {kills}, picked {picked}, hurt {hurt}");
}

/// Kills drop currency that the player picks up within the pickup radius
/// (R-LOOP-2); contact hurts once, then invulnerability holds.
#[test]
fn kills_drop_currency_that_is_pulled_in_and_contact_respects_invulnerability() {
    let mut w = game_world(5);
    w.set_player_position(500.0, 500.0).unwrap();
    w.step(&Controls::default(), &[Command::Spawn { kind: 0, elite: false, x: 560.0, y: 500.0 }]);
    let mut killed = None;
    let mut picked = None;
    for f in 0..120 {
        w.step(&Controls::default(), &[]);
        for e in w.events() {
            match e.kind {
                EventKind::EnemyKilled => killed = Some(f),
                EventKind::CurrencyPicked => picked = Some((f, e.value)),
                _ => {}
            }
        }
    }
    assert!(killed.is_some(), "the spark bolts kill a 6 HP enemy");
    let (pf, value) = picked.expect("the crystal 60 px away is pulled in");
    assert!(pf >= killed.unwrap() && value == 1.0);
    assert_eq!(w.pools.pickups.len(), 0);

    let mut w = game_world(5);
    w.disarm();
    w.set_player_position(500.0, 500.0).unwrap();
    w.spawn_enemy(0, false, 505.0, 500.0).unwrap();
    let mut damage_frames = Vec::new();
    for f in 0..60 {
        w.step(&Controls::default(), &[]);
        if w.events().iter().any(|e| e.kind == EventKind::PlayerDamaged) {
            damage_frames.push(f);
        }
    }
    // 0.5 s invulnerability at 60 Hz: hits 30 frames apart.
    assert_eq!(damage_frames, vec![0, 30]);
    assert_eq!(w.player.hp, 90.0);
}

/// The stress workload keeps its counts constant and finds the expected
/// order of hits (benches/README.md: about 10,750 at 10k/20k crowd).
#[test]
fn stress_workload_counts_stay_constant() {
    let mut w = stress_world(2000, 4000, Layout::Crowd, 1, &common::tuning());
    let mut hits = 0;
    for _ in 0..20 {
        let c = w.step(&Controls::default(), &[]);
        assert_eq!((c.enemies, c.projectiles), (2000, 4000));
        hits += c.hits;
    }
    let per_frame = hits as f32 / 20.0;
    assert!((1800.0..2400.0).contains(&per_frame), "{per_frame} hits per frame");
}

/// The stress rules' respawn: a spent shot gets its hits back and forgets
/// whom it struck, so on the next frame it strikes the same enemy again
/// (with hit memory on, a shot that remembered it would skip it). Without hit
/// memory the shots remember no one, until a chain's bolt does
/// (`Pools::remember`): then a spent shot's memory is emptied too.
#[test]
fn a_respawned_shot_forgets_whom_it_struck() {
    let one_shot_on_one_enemy = |hit_memory: bool| {
        let mut cfg = stress_config(3, &common::tuning());
        cfg.rules.no_hit_memory = !hit_memory;
        let mut w = World::new(cfg).unwrap();
        w.set_player_position(10.0, 10.0).unwrap();
        w.spawn_enemy(0, false, 200.0, 200.0).unwrap();
        // Pierce 0: one hit spends it; at rest on the enemy.
        w.spawn_projectile(NewProjectile { pierce: 0, ..stress_projectile(200.0, 200.0, 0.0, 0.0) }).unwrap();
        w
    };
    for hit_memory in [true, false] {
        let mut w = one_shot_on_one_enemy(hit_memory);
        assert!(!w.pools.shots_remember());
        let hits: Vec<u32> = (0..4).map(|_| w.step(&Controls::default(), &[]).hits).collect();
        assert_eq!(hits, [1, 1, 1, 1], "hit memory {hit_memory}: the respawned shot strikes again");
        assert_eq!(w.pools.projectiles.hits_left[0], 1);
        assert_eq!(w.pools.projectiles.memory[0], [Id::NONE; HIT_MEMORY], "hit memory {hit_memory}");
        assert_eq!(w.pools.shots_remember(), hit_memory, "only a hit that remembers sets the flag");
    }
    // No hit memory, and a shot that remembers an enemy (as a chain's bolt does).
    let mut w = one_shot_on_one_enemy(false);
    let enemy = w.pools.enemies.ids.ids()[0];
    w.pools.remember(0, enemy);
    assert!(w.pools.shots_remember());
    assert_eq!(w.step(&Controls::default(), &[]).hits, 1);
    assert_eq!(w.pools.projectiles.memory[0], [Id::NONE; HIT_MEMORY], "spent, it forgot the enemy");
}

/// Damage numbers: with the `hit_events` rule the frame's biggest hits come
/// out as `EnemyHit` events, biggest first, at most `hit_events_per_frame`,
/// the killing blow marked; without the rule there are none.
#[test]
fn hit_events_report_the_biggest_hits_of_the_frame_only_when_asked() {
    let hits_in = |rule: bool, cap: u32| {
        let mut cfg = game_world(3).config().clone();
        cfg.rules.hit_events = rule;
        cfg.hit_events_per_frame = cap;
        let mut w = World::new(cfg).unwrap();
        w.disarm();
        w.set_player_position(500.0, 500.0).unwrap();
        let mut cmds = Vec::new();
        for (i, amount) in [2.0f32, 5.0, 1.0, 4.0].iter().enumerate() {
            let x = 700.0 + 40.0 * i as f32;
            w.spawn_enemy(0, false, x, 500.0).unwrap();
            cmds.push(Command::DamageNearest { x, y: 500.0, amount: *amount });
        }
        w.step(&Controls::default(), &cmds);
        w.events().iter().filter(|e| e.kind == EventKind::EnemyHit).map(|e| (e.value, e.b)).collect::<Vec<_>>()
    };
    assert_eq!(hits_in(false, 8), vec![]);
    assert_eq!(hits_in(true, 3), vec![(5.0, 0.0), (4.0, 0.0), (2.0, 0.0)]);
    // 6 HP enemies: a 7-point blow kills and is marked.
    let mut cfg = game_world(3).config().clone();
    cfg.rules.hit_events = true;
    cfg.hit_events_per_frame = 8;
    let mut w = World::new(cfg).unwrap();
    w.disarm();
    w.spawn_enemy(0, false, 700.0, 500.0).unwrap();
    w.step(&Controls::default(), &[Command::DamageNearest { x: 700.0, y: 500.0, amount: 7.0 }]);
    let lethal: Vec<_> = w.events().iter().filter(|e| e.kind == EventKind::EnemyHit).map(|e| (e.value, e.b)).collect();
    assert_eq!(lethal, vec![(6.0, 1.0)]);
}

// R-DMG-2 statuses and reactions, R-STAT-1 attunement (their own file, run with these).
#[path = "statuses.rs"]
mod statuses;

/// R-STAT-1: `set_player_stats` rejects bad numbers without changing anything;
/// raising max HP heals as much, lowering it caps HP and never kills.
#[test]
fn player_stats_validate_and_max_hp_heals_and_never_kills() {
    use artificer_core::sim::world::PlayerStats;
    let mut w = World::new(stress_config(1, &common::tuning())).unwrap();
    let base = w.player.clone();
    for bad in [-1.0, f32::NAN, f32::INFINITY] {
        assert!(w.set_player_stats(PlayerStats { armor: bad, ..PlayerStats::default() }).is_err());
        assert!(w.set_player_stats(PlayerStats { max_hp_bonus: bad, ..PlayerStats::default() }).is_err());
    }
    assert_eq!(w.player, base);
    w.set_player_hp(10.0, 100.0).unwrap();
    w.set_player_stats(PlayerStats { max_hp_bonus: 25.0, armor: 2.0, ..PlayerStats::default() }).unwrap();
    assert_eq!((w.player.hp, w.player.hp_max, w.player.armor), (35.0, 125.0, base.armor + 2.0));
    w.set_player_hp(120.0, 125.0).unwrap();
    w.set_player_stats(PlayerStats::default()).unwrap();
    assert_eq!((w.player.hp, w.player.hp_max), (100.0, 100.0));
    assert!(w.player.alive && w.player.hp > 0.0);
}

/// R-END-1 Last Will: armed, a lethal contact hit leaves the player at 1 HP,
/// reports `LastWill` (after the hit's `PlayerDamaged`) and disarms; the
/// next lethal hit kills. Unarmed, the first one kills. The flag is state.
#[test]
fn r_end_1_last_will_survives_one_lethal_hit_at_one_hp() {
    let touching = |armed: bool| {
        let mut w = game_world(5);
        w.disarm();
        w.set_player_position(500.0, 500.0).unwrap();
        w.set_player_hp(5.0, 100.0).unwrap();
        w.set_last_will(armed);
        w.spawn_enemy(0, false, 505.0, 500.0).unwrap();
        w
    };
    let unarmed = touching(false);
    let mut w = touching(true);
    assert!(w.last_will());
    assert_ne!(w.state_hash(), unarmed.state_hash(), "Last Will is part of the state hash");

    w.step(&Controls::default(), &[]);
    let kinds: Vec<EventKind> = w.events().iter().map(|e| e.kind).collect();
    let at = kinds.iter().position(|&k| k == EventKind::LastWill).expect("a LastWill event");
    assert_eq!(kinds[at - 1], EventKind::PlayerDamaged, "the hit is reported first");
    let spared = w.events()[at];
    assert_eq!((spared.a, spared.value), (0.0, 1.0), "attacker kind 0, 1 HP left");
    assert!(!kinds.contains(&EventKind::PlayerDied));
    assert_eq!((w.player.hp, w.player.alive, w.last_will()), (1.0, true, false));

    // Invulnerability (0.5 s) runs out; the second lethal hit kills.
    let mut died = None;
    for f in 1..40 {
        w.step(&Controls::default(), &[]);
        if w.events().iter().any(|e| e.kind == EventKind::PlayerDied) {
            died = Some(f);
        }
        assert!(w.events().iter().all(|e| e.kind != EventKind::LastWill), "Last Will spares once");
    }
    assert_eq!(died, Some(30));
    assert!(!w.player.alive && w.player.hp == 0.0);

    let mut w = unarmed;
    w.step(&Controls::default(), &[]);
    assert!(w.events().iter().any(|e| e.kind == EventKind::PlayerDied), "unarmed: the first lethal hit kills");
    assert!(w.events().iter().all(|e| e.kind != EventKind::LastWill));
    assert!(!w.player.alive);
}

/// R-END-1: a hit that is not lethal leaves Last Will armed.
#[test]
fn r_end_1_last_will_stays_armed_through_non_lethal_hits() {
    let mut w = game_world(5);
    w.disarm();
    w.set_player_position(500.0, 500.0).unwrap();
    w.set_last_will(true);
    w.spawn_enemy(0, false, 505.0, 500.0).unwrap();
    w.step(&Controls::default(), &[]);
    assert_eq!(w.player.hp, 95.0);
    assert!(w.last_will());
    w.set_last_will(false);
    assert!(!w.last_will());
}

/// A crowd big enough for the world to reorder its pools (spatial.rs `REORDER_FROM`): 2,600
/// enemies and 2,000 shots in a 1,200 px box, from a fixed LCG.
fn reordered_scene() -> Scene {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |span: f32| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 40) as f32 / (1u64 << 24) as f32 * span
    };
    let (ex, ey) = (0..2600).map(|_| (next(1200.0), next(1200.0))).unzip();
    let (px, py) = (0..2000).map(|_| (next(1200.0), next(1200.0))).unzip();
    let (pvx, pvy) = (0..2000).map(|_| (next(800.0) - 400.0, next(800.0) - 400.0)).unzip();
    Scene { ex, ey, px, py, pvx, pvy }
}

/// R-DET-1 through the pools' reorder (spatial.rs `reorder`, every 16 frames from 4,096
/// entities): the frames that reorder (0 and 16) still match the brute force, enemy by enemy
/// (each found by its id, wherever the pool moved it), on one thread, two, and three (more
/// workers than spin: on two cores one pool thread spins beside the caller and the other
/// sleeps, workers.rs). R-WAVE-2: each enemy's move, separation push included, is the reference's.
#[test]
fn a_crowd_whose_pools_are_reordered_matches_brute_force() {
    for threads in [1, 2, 3] {
        let mut w = world_of(&reordered_scene(), threads);
        w.set_player_position(600.0, 600.0).unwrap();
        for frame in 0..=16 {
            if frame % 16 != 0 {
                w.step(&Controls::default(), &[]);
                continue;
            }
            let ids = w.pools.enemies.ids.ids().to_vec();
            let hp_before = w.pools.enemies.hp.clone();
            let (hits_on, nx, ny) = brute_force_frame(&w);
            let counts = w.step(&Controls::default(), &[]);
            assert_eq!(counts.hits, hits_on.iter().sum::<u32>(), "frame {frame}, {threads} thread(s)");
            let e = &w.pools.enemies;
            assert_eq!(e.len(), ids.len());
            for (i, &id) in ids.iter().enumerate() {
                let r = e.ids.dense(id).expect("no enemy dies here");
                assert_eq!(hp_before[i] - e.hp[r], hits_on[i] as f32, "hits on enemy {id:?}, frame {frame}");
                let moved = (e.x[r] - nx[i]).abs() < 1e-3 && (e.y[r] - ny[i]).abs() < 1e-3;
                assert!(moved, "enemy {id:?} at ({}, {}), reference ({}, {})", e.x[r], e.y[r], nx[i], ny[i]);
            }
        }
    }
}

/// R-VM-10 (sine paths, homing, orbits) and R-VM-4 (timers) steer shot by shot, and steering
/// passes a run of plain shots on one test (`scan::any_where`): every live special shot ages one
/// tick wherever it stands in the pool — first and last of a run, after a run of plain shots, in
/// a last short run — and no plain shot does.
#[test]
fn r_vm_10_every_special_shot_is_steered_wherever_it_stands_in_the_pool() {
    let mut w = stress_world(1, 0, Layout::Crowd, 1, &common::tuning());
    let special = [0, 63, 130, 149];
    for i in 0..150 {
        let mut shot = stress_projectile(100.0 + i as f32, 100.0, 60.0, 0.0);
        shot.behaviour.sine = special.contains(&i);
        w.spawn_projectile(shot).unwrap();
    }
    w.step(&Controls::default(), &[]);
    let p = &w.pools.projectiles;
    assert_eq!(p.len(), 150);
    let aged: Vec<usize> = (0..p.len()).filter(|&i| p.behaviour[i].age > 0.0).collect();
    assert_eq!(aged, special, "the shots steered this frame");
}

/// R-VM-4: every special shot that dies acts where it died (here, an explosion), wherever it
/// stands in the pool: the first and last of a run of plain shots, after such a run, in the
/// last short run. It fails if a run is judged by its first shot, or skipped.
#[test]
fn r_vm_4_every_special_shot_that_dies_acts_wherever_it_stands_in_the_pool() {
    let mut w = stress_world(0, 0, Layout::Crowd, 1, &common::tuning());
    let special = [0, 63, 130, 149];
    let at = |i: usize| (100.0 + (i % 30) as f32 * 120.0, 100.0 + (i / 30) as f32 * 120.0);
    // An enemy beside each special shot and beside a plain one (64), out of the shot's reach
    // (12 px) but inside its blast (40 px).
    let beside: Vec<usize> = special.iter().copied().chain([64]).collect();
    for &i in &beside {
        w.spawn_enemy(0, false, at(i).0 + 25.0, at(i).1).unwrap();
    }
    for i in 0..150 {
        // At rest, and out of life this frame.
        let mut shot = NewProjectile { life: 1e-4, ..stress_projectile(at(i).0, at(i).1, 0.0, 0.0) };
        if special.contains(&i) {
            shot.behaviour.explode_radius = 40.0;
        }
        w.spawn_projectile(shot).unwrap();
    }
    w.step(&Controls::default(), &[]);
    assert_eq!(w.pools.projectiles.len(), 0, "every shot expired");
    let e = &w.pools.enemies;
    // (1 damage off 1e9 HP is lost to rounding: the hit flash's frame tells who was struck.)
    let blasted: Vec<bool> = (0..e.len()).map(|k| e.hit_frame[k] > 0).collect();
    assert_eq!(blasted, [true, true, true, true, false], "the enemies beside shots {beside:?}");
}
