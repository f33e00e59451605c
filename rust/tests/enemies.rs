//! The enemy roster's behaviours (R-WAVE-1, R-WAVE-2, R-DMG-1) in the core:
//! the archer's band and shots, the reflector's shield, flat armor, the
//! exploder's death blast, the splitter's children — and determinism
//! (R-DET-1) with all of them on the field, on one thread and on two.

mod common;

use artificer_core::sim::commands::Command;
use artificer_core::sim::config::{Behavior, DeathBlast, Element, EnemyKind, RangedAttack, Shield, Split, WorldConfig};
use artificer_core::sim::events::EventKind;
use artificer_core::sim::player::Controls;
use artificer_core::sim::pools::{NewProjectile, Owner};
use artificer_core::sim::stress::stress_config;
use artificer_core::sim::world::World;
use artificer_core::vm::sample;
use artificer_core::vm::spell::ActionDef;

const CENTRE: (f32, f32) = (1000.0, 1000.0);

fn kind(name: &str, hp: f32, speed: f32, behavior: Behavior) -> EnemyKind {
    EnemyKind { name: name.into(), hp, speed, behavior, ..EnemyKind::default() }
}

/// The game's rules (enemies die, the player can be hurt), the player
/// standing still at the centre of a 2000 × 2000 arena, unarmed.
fn config(kinds: Vec<EnemyKind>) -> WorldConfig {
    let mut cfg = stress_config(7, &common::tuning());
    cfg.rules = Default::default();
    cfg.rules.player_fixed = true;
    cfg.arena_w = 2000.0;
    cfg.arena_h = 2000.0;
    cfg.player.max_hp = 100.0;
    cfg.player.radius = 12.0;
    cfg.player.invulnerability = 0.5;
    cfg.elite_hp_multiplier = 2.0;
    cfg.elite_reward_multiplier = 2.0;
    cfg.enemy_kinds = kinds;
    cfg
}

fn world(kinds: Vec<EnemyKind>) -> World {
    let mut w = World::new(config(kinds)).unwrap();
    w.set_player_position(CENTRE.0, CENTRE.1).unwrap();
    w
}

fn shot(x: f32, y: f32, vx: f32, vy: f32, damage: f32, element: Element, pierce: u32) -> NewProjectile {
    NewProjectile {
        x,
        y,
        vx,
        vy,
        radius: 4.0,
        damage,
        crit_chance: 0.0,
        element,
        pierce,
        bounces: 0,
        life: 5.0,
        owner: Owner::Player,
        look: 0,
        behaviour: Default::default(),
    }
}

fn step(w: &mut World, commands: &[Command]) -> Vec<(EventKind, f32, f32, f32)> {
    w.step(&Controls::default(), commands);
    w.events().iter().map(|e| (e.kind, e.a, e.b, e.value)).collect()
}

fn distance_to_player(w: &World, e: usize) -> f32 {
    ((w.pools.enemies.x[e] - w.player.x).powi(2) + (w.pools.enemies.y[e] - w.player.y).powi(2)).sqrt()
}

/// `EnemyKind::default()` is a valid kind as it is: a grunt that walks at the player and
/// touches it for nothing, dies and drops its 1.
#[test]
fn a_default_kind_is_a_harmless_chasing_grunt() {
    let mut w = world(vec![EnemyKind::default()]);
    w.spawn_enemy(0, false, CENTRE.0 + 300.0, CENTRE.1).unwrap();
    for _ in 0..600 {
        step(&mut w, &[]);
    }
    assert!(distance_to_player(&w, 0) < 30.0, "it came to the player");
    assert_eq!(w.player.hp, 100.0, "and hurt it not");
    let events = step(&mut w, &[Command::DamageNearest { x: CENTRE.0, y: CENTRE.1, amount: 10.0 }]);
    assert!(events.iter().any(|e| e.0 == EventKind::EnemyKilled && e.3 == 1.0), "10 HP, worth 1");
}

// --- archer ------------------------------------------------------------------

fn archer() -> EnemyKind {
    let attack = RangedAttack {
        every: 1.0,
        speed: 300.0,
        damage: 7.0,
        radius: 5.0,
        lifetime: 3.0,
        min_distance: 150.0,
        max_distance: 250.0,
        strafe: 0.3,
    };
    kind("archer", 50.0, 90.0, Behavior::KeepDistance(attack))
}

/// R-WAVE-2 archer: one spawned far away closes in, one spawned too close
/// backs off; from then on both stay inside their band over 10 s, and
/// their aimed shots reach the player and hurt it through its armor.
#[test]
fn r_wave_2_archer_keeps_its_band_and_its_shots_hurt_the_player() {
    let mut w = world(vec![archer()]);
    w.player.armor = 2.0;
    w.spawn_enemy(0, false, CENTRE.0 + 700.0, CENTRE.1).unwrap();
    w.spawn_enemy(0, false, CENTRE.0, CENTRE.1 - 40.0).unwrap();
    let (mut fired, mut hurt) = (0, Vec::new());
    for f in 0..900 {
        for (kind, a, b, value) in step(&mut w, &[]) {
            match kind {
                EventKind::ProjectileFired if b == 1.0 => fired += 1,
                EventKind::PlayerDamaged => hurt.push((a, value)),
                _ => {}
            }
        }
        if f >= 400 {
            for e in 0..w.pools.enemies.len() {
                let d = distance_to_player(&w, e);
                // A tick's step (1.5 px) and the separation push of slack.
                assert!((145.0..=255.0).contains(&d), "frame {f}: archer {e} at {d} px, band 150..250");
            }
        }
    }
    assert_eq!(w.pools.enemies.len(), 2);
    assert!(fired >= 10, "two archers over 15 s fire about one shot a second each, fired {fired}");
    assert!(!hurt.is_empty(), "the shots reach the player");
    // -1: a projectile; 7 damage − 2 armor.
    assert!(hurt.iter().all(|&(a, lost)| a == -1.0 && lost == 5.0), "{hurt:?}");
    assert_eq!(w.player.hp, 100.0 - 5.0 * hurt.len() as f32);
}

/// Enemy shots ignore enemies and the player's shots, and die at the arena
/// edge; an archer does not shoot while the player is out of its reach.
#[test]
fn enemy_shots_pass_enemies_and_die_at_the_edge_and_archers_wait_for_reach() {
    let mut w = world(vec![archer(), kind("wall", 1000.0, 0.0, Behavior::Chase)]);
    w.set_player_position(1800.0, 1000.0).unwrap();
    // Reach is 300 px/s × 3 s = 900 px: 950 px away, no shot.
    w.spawn_enemy(0, false, 850.0, 1000.0).unwrap();
    w.pools.enemies.speed[0] = 0.0;
    for _ in 0..120 {
        step(&mut w, &[]);
    }
    assert_eq!(w.pools.projectiles.len(), 0, "out of reach: no shot");
    w.pools.enemies.x[0] = 1400.0;
    step(&mut w, &[]);
    assert_eq!(w.pools.projectiles.len(), 1);
    assert_eq!(w.pools.projectiles.owner[0], Owner::Enemy);
    // A wall enemy and a player shot in its way; the player steps aside.
    w.spawn_enemy(1, false, 1600.0, 1000.0).unwrap();
    w.spawn_projectile(shot(1700.0, 1000.0, 0.0, 0.0, 1.0, Element::Fire, 0)).unwrap();
    w.set_player_position(1800.0, 1300.0).unwrap();
    w.pools.enemies.cooldown[0] = 100.0;
    let mut edge = None;
    for f in 0..150 {
        step(&mut w, &[]);
        if !w.pools.projectiles.owner.contains(&Owner::Enemy) {
            edge = Some(f);
            break;
        }
    }
    assert_eq!(w.pools.enemies.hp[1], 1000.0, "enemy shots do not hit enemies");
    assert_eq!(w.pools.projectiles.len(), 1, "nor the player's shots");
    assert_eq!(w.player.hp, 100.0);
    // It flies 5 px a tick from x = 1400 to the right edge at 2000: 120
    // ticks, well within its 180-tick life.
    let f = edge.expect("the shot dies");
    assert!((110..125).contains(&f), "the shot died at frame {f}, not at the edge");
}

/// R-LOOP-1: when a won wave ends its survivors vanish, and their shots in flight with
/// them: the wave's last step (the clear and the pickup sweep) cannot hurt the player, who
/// would otherwise walk into the shop at 0 HP. The player's own shots stay.
#[test]
fn r_loop_1_clearing_the_enemies_clears_their_shots_in_flight() {
    let mut w = world(vec![archer()]);
    w.spawn_enemy(0, false, CENTRE.0 + 200.0, CENTRE.1).unwrap();
    w.player.hp = 1.0;
    let mut fired = false;
    for _ in 0..120 {
        step(&mut w, &[]);
        if w.pools.projectiles.owner.contains(&Owner::Enemy) {
            fired = true;
            break;
        }
    }
    assert!(fired, "the archer shot at the player");
    // The shot a step away from the player: without the clear it lands next step.
    let s = w.pools.projectiles.owner.iter().position(|&o| o == Owner::Enemy).unwrap();
    w.pools.projectiles.x[s] = CENTRE.0 + 8.0;
    w.pools.projectiles.y[s] = CENTRE.1;
    w.spawn_projectile(shot(CENTRE.0 - 300.0, CENTRE.1, 0.0, 0.0, 1.0, Element::Fire, 0)).unwrap();
    let events = step(&mut w, &[Command::ClearEnemies, Command::CollectPickups]);
    assert!(!events.iter().any(|e| e.0 == EventKind::PlayerDamaged || e.0 == EventKind::PlayerDied));
    assert!(w.player.alive && w.player.hp == 1.0, "the player left the wave as it was");
    assert!(!w.pools.projectiles.owner.contains(&Owner::Enemy), "no enemy shot is left");
    assert_eq!(w.pools.projectiles.len(), 1, "the player's shot is still there");
}

// --- reflector ---------------------------------------------------------------

fn reflector() -> EnemyKind {
    kind("reflector", 100.0, 0.0, Behavior::Shield(Shield { arc_degrees: 120.0, reflect_damage: 0.5 }))
}

/// One shot at a reflector 200 px right of the player: (reflector HP lost,
/// player HP lost, whether the shot was ever an enemy's).
fn shot_at_reflector(p: NewProjectile) -> (f32, f32, bool) {
    let mut w = world(vec![reflector()]);
    w.spawn_enemy(0, false, CENTRE.0 + 200.0, CENTRE.1).unwrap();
    w.spawn_projectile(p).unwrap();
    let mut reflected = false;
    for _ in 0..120 {
        step(&mut w, &[]);
        reflected |= w.pools.projectiles.owner.contains(&Owner::Enemy);
    }
    (100.0 - w.pools.enemies.hp[0], 100.0 - w.player.hp, reflected)
}

/// R-WAVE-1 reflect-shield: a physical, non-piercing shot from the front
/// comes back as an enemy shot (half damage, into the player) and the
/// reflector takes nothing; a fire shot, a piercing shot and a shot from
/// behind are not reflected and deal their damage.
#[test]
fn r_wave_1_reflector_reflects_frontal_physical_shots_only() {
    let front = shot_at_reflector(shot(CENTRE.0 + 100.0, CENTRE.1, 300.0, 0.0, 10.0, Element::Physical, 0));
    assert_eq!(front, (0.0, 5.0, true), "reflected: reflector unhurt, the player takes 10 × 0.5");
    // 50° off the facing, inside the 120° arc: still reflected.
    let (dx, dy) = (libm::cosf(50f32.to_radians()), libm::sinf(50f32.to_radians()));
    let (sx, sy) = (CENTRE.0 + 200.0 - 60.0 * dx, CENTRE.1 - 60.0 * dy);
    let oblique = shot_at_reflector(shot(sx, sy, 300.0 * dx, 300.0 * dy, 10.0, Element::Physical, 0));
    assert_eq!((oblique.0, oblique.2), (0.0, true));

    let fire = shot_at_reflector(shot(CENTRE.0 + 100.0, CENTRE.1, 300.0, 0.0, 10.0, Element::Fire, 0));
    assert_eq!(fire, (10.0, 0.0, false), "elemental: hits");
    let piercing = shot_at_reflector(shot(CENTRE.0 + 100.0, CENTRE.1, 300.0, 0.0, 10.0, Element::Physical, 1));
    assert_eq!(piercing, (10.0, 0.0, false), "piercing: hits");
    let behind = shot_at_reflector(shot(CENTRE.0 + 300.0, CENTRE.1, -300.0, 0.0, 10.0, Element::Physical, 0));
    assert_eq!(behind, (10.0, 0.0, false), "from behind: hits");
    // 80° off the facing, outside the arc's 60° half-width: hits.
    let (dx, dy) = (libm::cosf(80f32.to_radians()), libm::sinf(80f32.to_radians()));
    let (sx, sy) = (CENTRE.0 + 200.0 - 60.0 * dx, CENTRE.1 - 60.0 * dy);
    let flank = shot_at_reflector(shot(sx, sy, 300.0 * dx, 300.0 * dy, 10.0, Element::Physical, 0));
    assert_eq!(flank, (10.0, 0.0, false), "from the flank: hits");
}

/// Blasts are never reflected: a death blast (or any blast) hurts a reflector.
#[test]
fn r_wave_1_blasts_are_not_reflected() {
    let boom = DeathBlast { radius: 100.0, damage: 10.0, element: Element::Physical };
    let boom = kind("exploder", 1.0, 0.0, Behavior::Explode(boom));
    let mut w = world(vec![reflector(), boom]);
    w.spawn_enemy(0, false, CENTRE.0 + 300.0, CENTRE.1).unwrap();
    w.spawn_enemy(1, false, CENTRE.0 + 250.0, CENTRE.1).unwrap();
    step(&mut w, &[Command::DamageNearest { x: CENTRE.0 + 250.0, y: CENTRE.1, amount: 5.0 }]);
    assert_eq!(w.pools.enemies.hp[0], 90.0);
}

// --- armored -----------------------------------------------------------------

/// R-DMG-1: flat armor comes off every hit, and a hit never does less than 1.
#[test]
fn r_dmg_1_armored_reduces_each_hit_by_its_armor_minimum_1() {
    let hp_lost = |armor: f32, damage: f32| {
        let mut armored = kind("armored", 100.0, 0.0, Behavior::Chase);
        armored.armor = armor;
        let mut w = world(vec![armored]);
        w.spawn_enemy(0, false, CENTRE.0 + 200.0, CENTRE.1).unwrap();
        for k in 0..3 {
            let y = CENTRE.1 + k as f32 - 1.0;
            w.spawn_projectile(shot(CENTRE.0 + 150.0, y, 300.0, 0.0, damage, Element::Physical, 0)).unwrap();
        }
        for _ in 0..60 {
            step(&mut w, &[]);
        }
        100.0 - w.pools.enemies.hp[0]
    };
    assert_eq!(hp_lost(0.0, 10.0), 30.0);
    assert_eq!(hp_lost(3.0, 10.0), 21.0, "three hits of 10 − 3");
    assert_eq!(hp_lost(3.0, 2.0), 3.0, "three hits of the minimum 1");
}

// --- exploder ----------------------------------------------------------------

fn exploder(radius: f32, damage: f32) -> EnemyKind {
    kind("exploder", 5.0, 0.0, Behavior::Explode(DeathBlast { radius, damage, element: Element::Fire }))
}

/// R-WAVE-2 exploder: its death blast hurts the player in range (once,
/// through armor) and kills a weak enemy nearby (which drops its reward),
/// not one out of range; out of range, the player is unhurt.
#[test]
fn r_wave_2_exploder_blast_hurts_the_player_and_kills_nearby_enemies() {
    let grunt = kind("grunt", 5.0, 0.0, Behavior::Chase);
    let mut w = world(vec![exploder(80.0, 12.0), grunt]);
    w.player.armor = 1.0;
    let at = (CENTRE.0 + 50.0, CENTRE.1);
    w.spawn_enemy(0, false, at.0, at.1).unwrap();
    w.spawn_enemy(1, false, at.0, at.1 + 60.0).unwrap(); // in range
    w.spawn_enemy(1, false, at.0, at.1 + 200.0).unwrap(); // out of range
    let events = step(&mut w, &[Command::DamageNearest { x: at.0, y: at.1, amount: 100.0 }]);
    let count = |k: EventKind| events.iter().filter(|e| e.0 == k).count();
    assert_eq!(count(EventKind::Exploded), 1);
    assert_eq!(count(EventKind::EnemyKilled), 2, "the exploder and the grunt in range");
    assert_eq!(count(EventKind::PlayerDamaged), 1);
    assert_eq!(w.player.hp, 100.0 - 11.0);
    assert_eq!(w.pools.pickups.len(), 2, "both kills drop their reward");
    assert_eq!(w.pools.enemies.len(), 1);
    assert_eq!((w.pools.enemies.kind[0], w.pools.enemies.hp[0]), (1, 5.0), "the far grunt is untouched");

    let mut w = world(vec![exploder(80.0, 12.0)]);
    w.spawn_enemy(0, false, CENTRE.0 + 300.0, CENTRE.1).unwrap();
    let events = step(&mut w, &[Command::DamageNearest { x: CENTRE.0 + 300.0, y: CENTRE.1, amount: 100.0 }]);
    assert!(events.iter().any(|e| e.0 == EventKind::Exploded));
    assert_eq!(w.player.hp, 100.0, "out of range");
}

/// A blast that kills another exploder sets it off in turn (a chain), in
/// the same frame; each blast reaches the player only through its
/// invulnerability (once).
#[test]
fn r_wave_2_exploders_chain() {
    let mut w = world(vec![exploder(80.0, 12.0), kind("grunt", 5.0, 0.0, Behavior::Chase)]);
    let x = CENTRE.0 + 60.0;
    for k in 0..3 {
        w.spawn_enemy(0, false, x + 70.0 * k as f32, CENTRE.1).unwrap();
    }
    w.spawn_enemy(1, false, x + 70.0 * 3.0, CENTRE.1).unwrap(); // only the last blast reaches it
    let events = step(&mut w, &[Command::DamageNearest { x, y: CENTRE.1, amount: 100.0 }]);
    assert_eq!(events.iter().filter(|e| e.0 == EventKind::Exploded).count(), 3);
    assert_eq!(w.pools.enemies.len(), 0);
    assert_eq!(w.player.hp, 88.0, "one blast reached the player");
}

// --- splitter ----------------------------------------------------------------

/// R-WAVE-2 splitter: its death leaves K children around it, once; the
/// children (here of the splitter's own kind) do not split again. An elite
/// splitter's children are elite.
#[test]
fn r_wave_2_splitter_yields_k_children_once() {
    let splitter = kind("splitter", 5.0, 0.0, Behavior::Split(Split { into: 0, count: 3, spread: 20.0 }));
    let mut w = world(vec![splitter]);
    let at = (CENTRE.0 + 300.0, CENTRE.1);
    w.spawn_enemy(0, true, at.0, at.1).unwrap();
    let events = step(&mut w, &[Command::DamageNearest { x: at.0, y: at.1, amount: 100.0 }]);
    assert_eq!(events.iter().filter(|e| e.0 == EventKind::EnemySpawned).count(), 3);
    assert_eq!(w.pools.enemies.len(), 3);
    for e in 0..3 {
        let d = ((w.pools.enemies.x[e] - at.0).powi(2) + (w.pools.enemies.y[e] - at.1).powi(2)).sqrt();
        assert!((d - 20.0).abs() < 1e-3, "child {e} is {d} px from the parent");
        assert!(w.pools.enemies.elite[e] && w.pools.enemies.hp[e] == 10.0, "elite children: HP × 2");
    }
    let kill_all: Vec<Command> = (0..3)
        .map(|e| Command::DamageNearest { x: w.pools.enemies.x[e], y: w.pools.enemies.y[e], amount: 100.0 })
        .collect();
    let events = step(&mut w, &kill_all);
    assert_eq!(events.iter().filter(|e| e.0 == EventKind::EnemyKilled).count(), 3);
    assert_eq!(events.iter().filter(|e| e.0 == EventKind::EnemySpawned).count(), 0, "children do not split");
    assert_eq!(w.pools.enemies.len(), 0);
}

// --- determinism -------------------------------------------------------------

/// R-DET-1 with every behaviour on the field: a few thousand enemies of
/// the whole roster (archers, reflectors, exploders, splitters, armored)
/// under fire from a wand and a spray of physical and fire shots; the same
/// seed gives the same state hash and events on one thread and on two.
#[test]
fn r_det_1_behaviours_are_deterministic_across_threads() {
    let splitter = kind("splitter", 6.0, 60.0, Behavior::Split(Split { into: 5, count: 3, spread: 14.0 }));
    let mut armored = kind("armored", 12.0, 50.0, Behavior::Chase);
    armored.armor = 2.0;
    let kinds = vec![
        EnemyKind { contact_damage: 4.0, ..archer() },
        EnemyKind { speed: 50.0, hp: 20.0, ..reflector() },
        EnemyKind { speed: 80.0, ..exploder(60.0, 8.0) },
        splitter,
        armored,
        kind("splitling", 3.0, 85.0, Behavior::Chase),
    ];
    let run = |threads: usize| {
        let mut cfg = config(kinds.clone());
        cfg.rules.player_fixed = false;
        cfg.arena_w = 3000.0;
        cfg.arena_h = 3000.0;
        let mut w = World::new(cfg).unwrap();
        w.set_threads(threads).unwrap();
        w.set_player_position(1500.0, 1500.0).unwrap();
        let bolt = ActionDef { speed: 500.0, ..sample::bolt(4.0) };
        common::arm_bolt(&mut w, bolt, None, 0.05);
        for i in 0..3000u32 {
            let a = i as f32 * 2.399;
            let r = 200.0 + (i % 97) as f32 * 12.0;
            w.spawn_enemy((i % 5) as u16, i % 17 == 0, 1500.0 + r * a.cos(), 1500.0 + r * a.sin()).unwrap();
        }
        for i in 0..6000u32 {
            let a = i as f32 * 0.7;
            let element = if i % 3 == 0 { Element::Fire } else { Element::Physical };
            let p = shot(
                1500.0 + (i % 50) as f32,
                1500.0 - (i % 37) as f32,
                350.0 * a.cos(),
                350.0 * a.sin(),
                3.0,
                element,
                i % 2,
            );
            w.spawn_projectile(p).unwrap();
        }
        let mut log = Vec::new();
        for f in 0..400 {
            let controls =
                Controls { move_x: (f as f32 * 0.02).cos(), move_y: (f as f32 * 0.02).sin(), ..Default::default() };
            w.step(&controls, &[]);
            log.extend(w.events().iter().map(|e| (e.kind as u8, e.a.to_bits(), e.x.to_bits(), e.value.to_bits())));
        }
        (w.state_hash(), log)
    };
    let (h1, log1) = run(1);
    let (h2, log2) = run(2);
    assert_eq!(h1, h2);
    assert!(log1 == log2, "event logs differ between 1 and 2 threads");
    let count = |k: EventKind| log1.iter().filter(|e| e.0 == k as u8).count();
    let enemy_shots =
        log1.iter().filter(|e| e.0 == EventKind::ProjectileFired as u8 && e.1 != 0.0f32.to_bits()).count();
    assert!(
        count(EventKind::Exploded) > 0 && count(EventKind::EnemyKilled) > 100 && enemy_shots > 0,
        "the scene exercises the behaviours"
    );
}
