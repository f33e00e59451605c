//! R-VM-10 `orbit` in the world: a shot with the orbit path flies out to
//! its ring, circles the player at the ring's turn rate and follows them as
//! they move; it keeps its lifetime, pierce and damage, strikes the enemies
//! it passes (one hit each), and walls do not stop it. Straight shots under
//! the same aim are the control.

mod common;

use artificer_core::sim::config::WorldConfig;
use artificer_core::sim::player::Controls;
use artificer_core::sim::stress::stress_config;
use artificer_core::sim::world::World;
use artificer_core::vm::board::CoreDef;
use artificer_core::vm::compile::Compiler;
use artificer_core::vm::exec::Caster;
use artificer_core::vm::mana::Mana;
use artificer_core::vm::sample::{self, catalog, modifier, spell};
use artificer_core::vm::spell::{Family, Orbit, Path, SpellDef};

const CENTRE: (f32, f32) = (1000.0, 1000.0);
const RING: Orbit = Orbit { radius: 80.0, degrees_per_second: 270.0 };
/// The sample spark bolt: 3 damage, 480 px/s, 1.5 s; the orbit card adds 1.5 s.
const BOLT_DAMAGE: f32 = 3.0;
const BOLT_SPEED: f32 = 480.0;
const LIFETIME: f32 = 1.5 + 1.5;
const DT: f32 = 1.0 / 60.0;

/// The sample catalog and an orbit card that adds `pierce` (its index is the last).
fn spells(pierce: u32) -> Vec<SpellDef> {
    let mut spells = catalog();
    let orbit = modifier(|m| {
        m.path = Some(Path::Orbit(RING));
        m.lifetime_add = 1.5;
        m.pierce_add = pierce;
    });
    spells.push(spell("orbit_path", Family::Modifier, 10.0, 1, 0.0, orbit));
    spells
}

fn config() -> WorldConfig {
    let mut cfg = stress_config(5, &common::tuning());
    cfg.rules = Default::default();
    cfg.rules.enemies_still = true;
    cfg.arena_w = 2000.0;
    cfg.arena_h = 2000.0;
    cfg.player.move_speed = 240.0;
    cfg.enemy_kinds[0].hp = 1000.0;
    cfg
}

/// A world whose wand casts `[orbit_path?, spark_bolt]` once (the core's
/// delay outlasts every test), with still enemies (hp 1000) at `enemies`.
fn world(orbit: bool, pierce: u32, player: (f32, f32), enemies: &[(f32, f32)]) -> World {
    let mut w = World::new(config()).unwrap();
    w.set_player_position(player.0, player.1).unwrap();
    for &(x, y) in enemies {
        w.spawn_enemy(0, false, x, y).unwrap();
    }
    let spells = spells(pierce);
    let bolt = sample::index("spark_bolt");
    let cards = if orbit { vec![Some(spells.len() as u16 - 1), Some(bolt)] } else { vec![Some(bolt)] };
    let core = CoreDef::row("orbit_test", cards.len(), 1000.0, 0.0, 100.0, 20);
    let program = Compiler::new(&spells, &[]).compile(&core, &cards).unwrap();
    let mana = Mana::new(core.mana_max, core.mana_regen, common::mana_rules());
    let caster =
        Caster::new(program, mana, common::cast_rules(), core.cast_delay, 0.0, core.cpu_limit, false, false, 1);
    w.set_caster(caster, vec![None; spells.len()]);
    w.begin_wave();
    w
}

/// Aims at `at` (the wand fires whatever the distance) and moves by `mv`.
fn controls(at: (f32, f32), mv: (f32, f32)) -> Controls {
    Controls { aim_at_point: true, aim_x: at.0, aim_y: at.1, move_x: mv.0, move_y: mv.1, ..Default::default() }
}

/// The one shot's offset from the player, if it is still flying.
fn offset(w: &World) -> Option<(f32, f32)> {
    let p = &w.pools.projectiles;
    (p.len() == 1).then(|| (p.x[0] - w.player.x, p.y[0] - w.player.y))
}

fn distance((x, y): (f32, f32)) -> f32 {
    (x * x + y * y).sqrt()
}

/// Steps `frames` frames, aiming right of the player; returns the shot's offsets.
fn fly(w: &mut World, frames: usize, mv: (f32, f32)) -> Vec<Option<(f32, f32)>> {
    (0..frames)
        .map(|_| {
            let aim = (w.player.x + 100.0, w.player.y);
            w.step(&controls(aim, mv), &[]);
            offset(w)
        })
        .collect()
}

/// Frames the shot takes to reach its ring at the bolt's speed, plus one.
fn out_frames() -> usize {
    (RING.radius / (BOLT_SPEED * DT)).ceil() as usize + 1
}

#[test]
fn an_orbiting_shot_flies_out_to_its_ring_and_circles_the_player() {
    let mut w = world(true, 0, CENTRE, &[]);
    let path = fly(&mut w, 200, (0.0, 0.0));
    let life = path.iter().take_while(|o| o.is_some()).count();
    assert_eq!(life, (LIFETIME / DT).round() as usize, "it lives its lifetime plus the orbit card's");
    let path: Vec<(f32, f32)> = path.into_iter().flatten().collect();
    // Out along the aim (to the right), at the bolt's speed.
    assert!((distance(path[0]) - BOLT_SPEED * DT).abs() < 1e-3, "{:?}", path[0]);
    assert!(path[0].0 > 0.0 && path[0].1.abs() < path[0].0, "it sets out toward the aim: {:?}", path[0]);
    let mut turned = 0.0f32;
    for pair in path[out_frames()..].windows(2) {
        let (a, b) = (pair[0], pair[1]);
        assert!((distance(b) - RING.radius).abs() < 0.01, "on the ring: {} px", distance(b));
        let step = (a.0 * b.1 - a.1 * b.0).atan2(a.0 * b.0 + a.1 * b.1).to_degrees();
        assert!((step - RING.degrees_per_second * DT).abs() < 0.01, "{step}° a tick, clockwise on screen");
        turned += step;
    }
    assert!(turned > 720.0, "more than two turns over its life: {turned}°");
}

#[test]
fn a_straight_shot_under_the_same_aim_flies_away() {
    let mut w = world(false, 0, CENTRE, &[]);
    let path: Vec<(f32, f32)> = fly(&mut w, 60, (0.0, 0.0)).into_iter().flatten().collect();
    assert!(distance(path[59]) > 400.0 && path[59].1.abs() < 1e-3, "{:?}", path[59]);
}

#[test]
fn the_ring_follows_the_player_as_they_move() {
    let mut w = world(true, 0, CENTRE, &[]);
    let start = w.player.x;
    let path = fly(&mut w, 120, (1.0, 0.0));
    assert!(w.player.x - start > 400.0, "the player walked {} px", w.player.x - start);
    for o in path[out_frames()..].iter() {
        let o = o.expect("still flying");
        assert!((distance(o) - RING.radius).abs() < 0.01, "around the player wherever they are: {} px", distance(o));
    }
}

#[test]
fn it_strikes_an_enemy_beside_the_player_that_a_straight_shot_misses() {
    // A quarter turn clockwise on screen from the aim: straight below the player.
    let beside = (CENTRE.0, CENTRE.1 + RING.radius);
    for orbit in [true, false] {
        let mut w = world(orbit, 0, CENTRE, &[beside]);
        let hp = w.pools.enemies.hp[0];
        let mut hit_at = None;
        for frame in 0..180 {
            w.step(&controls((CENTRE.0 + 100.0, CENTRE.1), (0.0, 0.0)), &[]);
            if hit_at.is_none() && w.pools.enemies.hp[0] < hp {
                hit_at = Some(frame);
            }
        }
        if orbit {
            let frame = hit_at.expect("the orbiting shot strikes it");
            assert!((15..=25).contains(&frame), "after about a quarter turn (20 frames), not {frame}");
            assert_eq!(hp - w.pools.enemies.hp[0], BOLT_DAMAGE, "its damage, once");
            assert!(w.pools.projectiles.is_empty(), "no pierce: the hit spends it");
        } else {
            assert_eq!(hit_at, None, "a straight shot never goes there");
        }
    }
}

#[test]
fn it_keeps_its_pierce_one_hit_per_enemy() {
    // Three enemies on the ring, a quarter, a half and three quarters round.
    let r = RING.radius;
    let ring = [(CENTRE.0, CENTRE.1 + r), (CENTRE.0 - r, CENTRE.1), (CENTRE.0, CENTRE.1 - r)];
    let mut w = world(true, 1, CENTRE, &ring);
    let hp = w.pools.enemies.hp[0];
    for _ in 0..200 {
        w.step(&controls((CENTRE.0 + 100.0, CENTRE.1), (0.0, 0.0)), &[]);
    }
    let struck: Vec<f32> = common::in_spawn_order(&w, &w.pools.enemies.hp).iter().map(|h| hp - h).collect();
    assert_eq!(struck, [BOLT_DAMAGE, BOLT_DAMAGE, 0.0], "pierce 1: two enemies, then it is spent");
    assert!(w.pools.projectiles.is_empty());
}

#[test]
fn walls_do_not_stop_an_orbiting_shot() {
    // The player against the left wall, aiming into it: most of the ring lies outside the arena.
    let at_wall = (10.0, CENTRE.1);
    let mut w = world(true, 0, at_wall, &[]);
    let mut outside = 0;
    let mut frames = 0;
    for _ in 0..200 {
        w.step(&controls((0.0, CENTRE.1), (0.0, 0.0)), &[]);
        let Some(o) = offset(&w) else { break };
        frames += 1;
        outside += (w.player.x + o.0 < 0.0) as u32;
        assert_eq!(w.pools.projectiles.bounces[0], 0, "no bounce spent, none needed");
    }
    assert_eq!(frames, (LIFETIME / DT).round() as usize, "it lives its whole life");
    assert!(outside > 60, "it passed over the wall ({outside} frames beyond it)");
    // The control: a straight shot into the wall vanishes there.
    let mut w = world(false, 0, at_wall, &[]);
    for _ in 0..2 {
        w.step(&controls((0.0, CENTRE.1), (0.0, 0.0)), &[]);
    }
    assert!(w.pools.projectiles.is_empty(), "a straight shot without bounces vanishes at the wall");
}

#[test]
fn an_orbit_ring_is_checked_like_every_number_of_a_spell() {
    let mut spells = spells(0);
    let last = spells.len() - 1;
    assert_eq!(spells[last].validate(), Ok(()));
    if let artificer_core::vm::spell::Effect::Modifier(m) = &mut spells[last].effect {
        m.path = Some(Path::Orbit(Orbit { radius: f32::NAN, ..RING }));
    }
    let err = spells[last].validate().unwrap_err();
    assert!(err.contains("modifier.orbit.radius"), "{err}");
}
