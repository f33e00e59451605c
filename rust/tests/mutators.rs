//! R-END-3: the endless waves' global mutators that are rules of the core — mirror world,
//! splitting monsters, mana inversion — each off by default (the game as it ships).

mod common;

use artificer_core::sim::config::{Element, EnemyKind, Inversion, MutatorSplit, WorldConfig};
use artificer_core::sim::events::EventKind;
use artificer_core::sim::player::Controls;
use artificer_core::sim::pools::{NewProjectile, Owner};
use artificer_core::sim::stress::stress_config;
use artificer_core::sim::world::World;

const CENTRE: (f32, f32) = (1000.0, 1000.0);

fn kind(name: &str, hp: f32) -> EnemyKind {
    EnemyKind { name: name.into(), hp, speed: 0.0, ..EnemyKind::default() }
}

fn config(kinds: Vec<EnemyKind>) -> WorldConfig {
    let mut cfg = stress_config(7, &common::tuning());
    cfg.rules = Default::default();
    cfg.rules.player_fixed = true;
    cfg.rules.enemies_still = true;
    cfg.arena_w = 2000.0;
    cfg.arena_h = 2000.0;
    cfg.elite_hp_multiplier = 2.0;
    cfg.enemy_kinds = kinds;
    cfg
}

fn world(cfg: WorldConfig) -> World {
    let mut w = World::new(cfg).unwrap();
    w.set_player_position(CENTRE.0, CENTRE.1).unwrap();
    w
}

fn shot(x: f32, vx: f32, damage: f32) -> NewProjectile {
    NewProjectile {
        x,
        y: CENTRE.1,
        vx,
        vy: 0.0,
        radius: 4.0,
        damage,
        crit_chance: 0.0,
        element: Element::Physical,
        pierce: 0,
        bounces: 0,
        life: 5.0,
        owner: Owner::Player,
        look: 0,
        behaviour: Default::default(),
    }
}

fn kills(w: &mut World, frames: usize) -> usize {
    let mut n = 0;
    for _ in 0..frames {
        w.step(&Controls::default(), &[]);
        n += w.events().iter().filter(|e| e.kind == EventKind::EnemyKilled).count();
    }
    n
}

/// Mirror world: a shot without pierce that strikes an enemy east of the player comes back west
/// at its speed, flies over the player unharmed, and strikes a second enemy to the west; without
/// the mutator the same shot is spent on the first.
#[test]
fn r_end_3_mirror_world_turns_a_shot_back_after_its_first_hit() {
    for mirror in [false, true] {
        let mut cfg = config(vec![kind("dummy", 1000.0)]);
        cfg.mutators.mirror = mirror;
        let mut w = world(cfg);
        w.spawn_enemy(0, false, CENTRE.0 + 200.0, CENTRE.1).unwrap();
        w.spawn_enemy(0, false, CENTRE.0 - 200.0, CENTRE.1).unwrap();
        w.spawn_projectile(shot(CENTRE.0 + 150.0, 600.0, 10.0)).unwrap();
        let hp = w.player.hp;
        for _ in 0..120 {
            w.step(&Controls::default(), &[]);
        }
        let hurt: Vec<bool> = common::in_spawn_order(&w, &w.pools.enemies.hp).iter().map(|&hp| hp < 1000.0).collect();
        assert_eq!(hurt, vec![true, mirror], "mirror {mirror}: the east enemy hit, the west one only when mirrored");
        assert_eq!(w.player.hp, hp, "the player's own shot never hurts the player");
        if mirror {
            assert!(w.pools.projectiles.is_empty() || w.pools.projectiles.vx[0] < 0.0, "it flies on, westward");
        }
    }
}

/// Splitting monsters: a first-generation enemy killed leaves two of its kind at half its max
/// HP (elite stays elite); they, killed, leave nothing; a boss never splits.
#[test]
fn r_end_3_splitting_monsters_split_once_at_half_hp() {
    let mut cfg = config(vec![kind("grunt", 40.0)]);
    cfg.mutators.split = Some(MutatorSplit { count: 2, hp: 0.5, spread: 14.0 });
    let mut w = world(cfg);
    w.spawn_enemy(0, true, CENTRE.0 + 300.0, CENTRE.1).unwrap();
    w.spawn_projectile(shot(CENTRE.0 + 250.0, 600.0, 1000.0)).unwrap();
    assert_eq!(kills(&mut w, 30), 1);
    assert_eq!(w.pools.enemies.len(), 2, "two copies where it died");
    for e in 0..2 {
        assert_eq!((w.pools.enemies.hp[e], w.pools.enemies.hp_max[e]), (40.0, 40.0), "half of an elite's 80 HP");
        assert!(w.pools.enemies.elite[e] && w.pools.enemies.offspring[e]);
    }
    for e in 0..2 {
        let (x, y) = (w.pools.enemies.x[e], w.pools.enemies.y[e]);
        w.spawn_projectile(NewProjectile { y, ..shot(x - 30.0, 600.0, 1000.0) }).unwrap();
    }
    assert_eq!(kills(&mut w, 30), 2);
    assert_eq!(w.pools.enemies.len(), 0, "children never split");
}

/// Off by default: the same kill leaves nothing (the game as it ships).
#[test]
fn r_end_3_no_mutator_no_split() {
    let mut w = world(config(vec![kind("grunt", 40.0)]));
    w.spawn_enemy(0, false, CENTRE.0 + 300.0, CENTRE.1).unwrap();
    w.spawn_projectile(shot(CENTRE.0 + 250.0, 600.0, 1000.0)).unwrap();
    assert_eq!(kills(&mut w, 30), 1);
    assert_eq!(w.pools.enemies.len(), 0);
}

/// Mana inversion's delay: `pivot² / d` within [floor, ceiling] — a long delay becomes short,
/// a short one long, the pivot stays.
#[test]
fn r_end_3_mana_inversion_turns_delay_into_a_bonus() {
    let inv = Inversion { pivot: 0.25, ceiling: 1.0 };
    assert!((inv.delay(0.5) - 0.125).abs() < 1e-6);
    assert!((inv.delay(0.125) - 0.5).abs() < 1e-6);
    assert!((inv.delay(0.25) - 0.25).abs() < 1e-6);
    assert_eq!(inv.delay(0.01), 1.0);
    assert_eq!(inv.delay(0.0), 1.0);
    assert!(inv.delay(1.0) < inv.delay(0.3), "the longer it was, the faster the wand fires");
}

/// The mutators' numbers are checked like any config: out of range is a content error.
#[test]
fn r_end_3_mutator_numbers_are_checked() {
    let mut cfg = config(vec![kind("grunt", 40.0)]);
    cfg.mutators.split = Some(MutatorSplit { count: 99, hp: 0.5, spread: 14.0 });
    assert!(World::new(cfg).is_err());
    let mut cfg = config(vec![kind("grunt", 40.0)]);
    cfg.mutators.inversion = Some(Inversion { pivot: f32::NAN, ceiling: 1.0 });
    assert!(World::new(cfg).is_err());
}
