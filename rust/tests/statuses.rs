//! R-DMG-2 statuses and reactions, R-STAT-1 attunement, in the core: each
//! status and reaction on a lone enemy hit by hand-placed shots, the
//! chance extremes, attunement per element, and determinism (R-DET-1) on
//! one thread and two with statuses everywhere.

// `pub(crate)`: tests/world.rs runs this file as its module and uses this `common` too.
pub(crate) mod common;

use artificer_core::sim::config::{Behavior, Element, EnemyKind, RangedAttack, StatusParams, WorldConfig, ELEMENTS};
use artificer_core::sim::events::EventKind;
use artificer_core::sim::player::Controls;
use artificer_core::sim::pools::{Behaviour, NewProjectile, Owner};
use artificer_core::sim::stress::stress_config;
use artificer_core::sim::world::World;

const CENTRE: (f32, f32) = (1000.0, 1000.0);
/// The enemy stands this far right of the player.
const AWAY: f32 = 300.0;

fn kind(hp: f32, speed: f32) -> EnemyKind {
    EnemyKind { name: "dummy".into(), hp, speed, reward: 3, ..EnemyKind::default() }
}

/// Statuses with round numbers; every chance 0 unless a test sets it.
fn params() -> StatusParams {
    StatusParams {
        chance: [0.0; ELEMENTS],
        burn_dps: 10.0,
        burn_seconds: 2.0,
        chill_slow: 0.5,
        chill_seconds: 2.0,
        chills_to_freeze: 3,
        freeze_seconds: 1.0,
        shock_multiplier: 1.2,
        shock_seconds: 2.0,
        poison_dps: 2.0,
        poison_seconds: 3.0,
        poison_max_stacks: 3,
        wet_seconds: 3.0,
        wet_lightning_multiplier: 1.5,
        attunement_damage: 0.03,
        attunement_chance: 0.02,
        zone_status_interval: 1.0,
    }
}

fn config(statuses: StatusParams, hp: f32, speed: f32) -> WorldConfig {
    let mut cfg = stress_config(7, &common::tuning());
    cfg.rules = Default::default();
    cfg.rules.player_fixed = true;
    cfg.rules.player_invulnerable = true;
    cfg.arena_w = 2000.0;
    cfg.arena_h = 2000.0;
    cfg.enemy_kinds = vec![kind(hp, speed)];
    cfg.statuses = statuses;
    cfg
}

/// One enemy of `hp` (moving `speed` px/s toward the player) at `AWAY` px.
fn world(statuses: StatusParams, hp: f32, speed: f32) -> World {
    let mut w = World::new(config(statuses, hp, speed)).unwrap();
    w.set_player_position(CENTRE.0, CENTRE.1).unwrap();
    w.spawn_enemy(0, false, CENTRE.0 + AWAY, CENTRE.1).unwrap();
    w
}

fn shot_at(x: f32, y: f32, damage: f32, element: Element) -> NewProjectile {
    NewProjectile {
        x,
        y,
        vx: 0.0,
        vy: 0.0,
        radius: 4.0,
        damage,
        crit_chance: 0.0,
        element,
        pierce: 0,
        bounces: 0,
        life: 0.1,
        owner: Owner::Player,
        look: 0,
        behaviour: Default::default(),
    }
}

/// Steps once with a shot on enemy 0; returns the damage dealt and the
/// reactions (event `a`) of the frame.
fn hit(w: &mut World, damage: f32, element: Element) -> (f32, Vec<f32>) {
    let (x, y) = (w.pools.enemies.x[0], w.pools.enemies.y[0]);
    w.spawn_projectile(shot_at(x, y, damage, element)).unwrap();
    let counts = w.step(&Controls::default(), &[]);
    assert_eq!(counts.hits, 1, "the shot hits");
    let reactions = w.events().iter().filter(|e| e.kind == EventKind::ElementReaction).map(|e| e.a).collect();
    (counts.damage_dealt, reactions)
}

fn idle(w: &mut World, frames: usize) -> f32 {
    (0..frames).map(|_| w.step(&Controls::default(), &[]).damage_dealt).sum()
}

fn with_chance(element: Element, chance: f32) -> StatusParams {
    let mut s = params();
    s.chance[element as usize] = chance;
    s
}

/// R-DMG-2 burn: 10/s for 2 s after a fire hit, then nothing.
#[test]
fn r_dmg_2_burn_deals_its_damage_over_its_duration() {
    let mut w = world(with_chance(Element::Fire, 1.0), 1000.0, 0.0);
    let (dealt, _) = hit(&mut w, 1.0, Element::Fire);
    assert!(w.pools.enemies.burn[0] > 0.0);
    let burned = dealt - 1.0 + idle(&mut w, 180);
    assert!((burned - 20.0).abs() < 0.5, "burn dealt {burned}, want 10/s × 2 s");
    assert_eq!(w.pools.enemies.burn[0], 0.0);
    assert!((w.pools.enemies.hp[0] - (1000.0 - 21.0)).abs() < 0.5);
}

/// R-DMG-2 burn kills through the normal damage path: the kill event and
/// the reward drop.
#[test]
fn r_dmg_2_burn_can_kill_and_the_reward_drops() {
    let mut w = world(with_chance(Element::Fire, 1.0), 5.0, 0.0);
    hit(&mut w, 1.0, Element::Fire);
    assert_eq!(w.pools.enemies.len(), 1, "the hit alone does not kill");
    let mut killed = None;
    for _ in 0..60 {
        w.step(&Controls::default(), &[]);
        if let Some(e) = w.events().iter().find(|e| e.kind == EventKind::EnemyKilled) {
            killed = Some(e.value);
        }
    }
    assert_eq!(killed, Some(3.0), "burned to death, reward 3");
    assert_eq!(w.pools.enemies.len(), 0);
    assert_eq!(w.pools.pickups.len(), 1, "the reward dropped");
}

/// R-DMG-2 chill: a chilled enemy moves at `chill_slow` of its speed.
#[test]
fn r_dmg_2_chill_slows_by_the_data_factor() {
    let mut w = world(with_chance(Element::Ice, 1.0), 1000.0, 60.0);
    idle(&mut w, 1);
    let x0 = w.pools.enemies.x[0];
    idle(&mut w, 1);
    let free = x0 - w.pools.enemies.x[0];
    assert!((free - 1.0).abs() < 1e-3, "60 px/s = 1 px a frame, got {free}");
    hit(&mut w, 1.0, Element::Ice);
    assert!(w.pools.enemies.chill[0] > 0.0 && w.pools.enemies.frozen[0] == 0.0);
    let x1 = w.pools.enemies.x[0];
    idle(&mut w, 10);
    let slowed = (x1 - w.pools.enemies.x[0]) / 10.0;
    assert!((slowed - 0.5).abs() < 1e-3, "chilled: 0.5 px a frame, got {slowed}");
}

/// R-DMG-2: three chills freeze; a frozen enemy stands still for the
/// freeze time, then walks again.
#[test]
fn r_dmg_2_three_chills_freeze_then_movement_resumes() {
    let mut w = world(with_chance(Element::Ice, 1.0), 1000.0, 60.0);
    hit(&mut w, 1.0, Element::Ice);
    hit(&mut w, 1.0, Element::Ice);
    assert_eq!(w.pools.enemies.frozen[0], 0.0, "two chills do not freeze");
    hit(&mut w, 1.0, Element::Ice);
    assert!(w.pools.enemies.frozen[0] > 0.0, "the third chill freezes");
    let x = w.pools.enemies.x[0];
    idle(&mut w, 58);
    assert_eq!(w.pools.enemies.x[0], x, "frozen: no movement for 1 s");
    idle(&mut w, 5);
    assert_eq!(w.pools.enemies.frozen[0], 0.0);
    let x = w.pools.enemies.x[0];
    idle(&mut w, 1);
    assert!((x - w.pools.enemies.x[0] - 1.0).abs() < 1e-3, "thawed: full speed again");
}

/// R-DMG-2 shock: a shocked enemy takes +20% (data) from the next hit.
#[test]
fn r_dmg_2_shock_raises_damage_taken_by_the_data_factor() {
    let mut w = world(with_chance(Element::Lightning, 1.0), 1000.0, 0.0);
    let (first, _) = hit(&mut w, 10.0, Element::Lightning);
    assert!((first - 10.0).abs() < 1e-4, "not yet shocked: {first}");
    assert!(w.pools.enemies.shock[0] > 0.0);
    let (second, _) = hit(&mut w, 10.0, Element::Physical);
    assert!((second - 12.0).abs() < 1e-4, "shocked: 10 × 1.2, got {second}");
    idle(&mut w, 130);
    let (after, _) = hit(&mut w, 10.0, Element::Physical);
    assert!((after - 10.0).abs() < 1e-4, "the shock wore off: {after}");
}

/// R-DMG-2 poison stacks: two applications hurt more per second than
/// one, up to the cap (3 stacks here).
#[test]
fn r_dmg_2_poison_stacks_up_to_the_cap() {
    let per_second = |applications: usize| {
        let mut w = world(with_chance(Element::Poison, 1.0), 1000.0, 0.0);
        for _ in 0..applications {
            hit(&mut w, 1.0, Element::Poison);
        }
        idle(&mut w, 60)
    };
    let (one, two, three, five) = (per_second(1), per_second(2), per_second(3), per_second(5));
    assert!((one - 2.0).abs() < 0.05, "one stack: 2/s, got {one}");
    assert!((two - 4.0).abs() < 0.05, "two stacks: 4/s, got {two}");
    assert!((three - 6.0).abs() < 0.05, "three stacks: 6/s, got {three}");
    assert!((five - three).abs() < 1e-3, "capped at 3 stacks: {five} vs {three}");
}

/// R-DMG-2: lightning on a wet target deals ×1.5 and reports the
/// electrified reaction (a = 1); on a dry one neither.
#[test]
fn r_dmg_2_lightning_on_wet_deals_one_and_a_half_and_reacts() {
    let mut w = world(with_chance(Element::Water, 1.0), 1000.0, 0.0);
    let (dry, reactions) = hit(&mut w, 10.0, Element::Lightning);
    assert!((dry - 10.0).abs() < 1e-4 && reactions.is_empty(), "dry: {dry} {reactions:?}");
    hit(&mut w, 1.0, Element::Water);
    assert!(w.pools.enemies.wet[0] > 0.0);
    let (wet, reactions) = hit(&mut w, 10.0, Element::Lightning);
    assert!((wet - 15.0).abs() < 1e-4, "wet: 10 × 1.5, got {wet}");
    assert_eq!(reactions, vec![1.0], "electrified");
}

/// R-DMG-2: fire on a wet target dries it (wet gone, reaction a = 2).
#[test]
fn r_dmg_2_fire_dries_a_wet_target() {
    let mut w = world(with_chance(Element::Water, 1.0), 1000.0, 0.0);
    hit(&mut w, 1.0, Element::Water);
    assert!(w.pools.enemies.wet[0] > 0.0);
    let (_, reactions) = hit(&mut w, 1.0, Element::Fire);
    assert_eq!(w.pools.enemies.wet[0], 0.0, "dried");
    assert_eq!(reactions, vec![2.0]);
    let (_, reactions) = hit(&mut w, 1.0, Element::Fire);
    assert!(reactions.is_empty(), "nothing left to dry");
}

/// R-DMG-2: chance 0 never applies, chance 1 always does (and 0.5 lands
/// in between).
#[test]
fn r_dmg_2_status_chance_zero_never_one_always() {
    let applied = |chance: f32| {
        let mut w = world(with_chance(Element::Lightning, chance), 1.0e6, 0.0);
        let mut n = 0;
        for _ in 0..200 {
            w.pools.enemies.shock[0] = 0.0;
            hit(&mut w, 1.0, Element::Lightning);
            n += (w.pools.enemies.shock[0] > 0.0) as u32;
        }
        n
    };
    assert_eq!(applied(0.0), 0);
    assert_eq!(applied(1.0), 200);
    let half = applied(0.5);
    assert!((60..=140).contains(&half), "chance 0.5: {half} of 200");
}

/// R-STAT-1: attunement adds 3% damage and 2% status chance per point,
/// for its own element only.
#[test]
fn r_stat_1_attunement_raises_damage_and_chance_for_its_element_only() {
    let mut w = world(params(), 1.0e6, 0.0);
    let mut points = [0.0; ELEMENTS];
    points[Element::Fire as usize] = 10.0;
    w.set_attunement(points).unwrap();
    let (fire, _) = hit(&mut w, 10.0, Element::Fire);
    assert!((fire - 13.0).abs() < 1e-4, "10 points: ×1.3, got {fire}");
    let (ice, _) = hit(&mut w, 10.0, Element::Ice);
    assert!((ice - 10.0).abs() < 1e-4, "ice unattuned: {ice}");
    assert!(w.pools.enemies.chill[0] == 0.0, "no chance for ice");

    // 50 points: +100% chance, so fire (base 0) always burns; ice never chills.
    points[Element::Fire as usize] = 50.0;
    w.set_attunement(points).unwrap();
    for _ in 0..20 {
        w.pools.enemies.burn[0] = 0.0;
        hit(&mut w, 1.0, Element::Fire);
        assert!(w.pools.enemies.burn[0] > 0.0);
        hit(&mut w, 1.0, Element::Ice);
        assert_eq!(w.pools.enemies.chill[0], 0.0);
    }
    // 10 points: 20% of 500 hits, give or take.
    points[Element::Fire as usize] = 10.0;
    w.set_attunement(points).unwrap();
    let mut n = 0;
    for _ in 0..500 {
        w.pools.enemies.burn[0] = 0.0;
        hit(&mut w, 1.0, Element::Fire);
        n += (w.pools.enemies.burn[0] > 0.0) as u32;
    }
    assert!((60..=140).contains(&n), "20% of 500: {n}");
    assert!(w.set_attunement([-1.0; ELEMENTS]).is_err());
}

/// R-DET-1: with statuses rolling everywhere (shots, explosions, chains,
/// zones), the same seed gives the same state hash on one thread and on two.
#[test]
fn r_det_1_statuses_hash_the_same_on_one_and_two_threads() {
    let run = |threads: usize| {
        let mut s = params();
        s.chance = [0.0, 0.5, 0.5, 0.5, 0.5, 0.5];
        let mut w = World::new(config(s, 50.0, 60.0)).unwrap();
        w.set_threads(threads).unwrap();
        w.set_player_position(CENTRE.0, CENTRE.1).unwrap();
        let mut seed = 12345u32;
        let mut next = || {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        for _ in 0..2500 {
            w.spawn_enemy(0, false, 200.0 + 1600.0 * next(), 200.0 + 1600.0 * next()).unwrap();
        }
        for _ in 0..5000 {
            let (x, y, a) = (200.0 + 1600.0 * next(), 200.0 + 1600.0 * next(), next() * std::f32::consts::TAU);
            let element = Element::ALL[(next() * ELEMENTS as f32) as usize % ELEMENTS];
            let p = NewProjectile {
                vx: a.cos() * 300.0,
                vy: a.sin() * 300.0,
                life: 3.0,
                bounces: 2,
                pierce: 2,
                ..shot_at(x, y, 5.0, element)
            };
            // Some explode and some chain: area hits roll statuses too.
            let behaviour = match w.pools.projectiles.len() % 10 {
                0 => Behaviour { explode_radius: 40.0, ..Default::default() },
                1 => Behaviour { chain: 2, chain_range: 120.0, ..Default::default() },
                _ => Behaviour::default(),
            };
            w.spawn_projectile(NewProjectile { behaviour, ..p }).unwrap();
        }
        for (i, element) in Element::ALL.iter().enumerate() {
            let (x, y) = (300.0 + 250.0 * i as f32, 1000.0);
            w.pools.zones.push(x, y, 120.0, 3.0, 0.0, 0.0, 4.0, *element, 0);
        }
        let mut hashes = Vec::new();
        for f in 0..240 {
            w.step(&Controls::default(), &[]);
            if f % 40 == 0 {
                hashes.push(w.state_hash());
            }
        }
        let statused = (0..w.pools.enemies.len())
            .filter(|&e| w.pools.enemies.burn[e] > 0.0 || w.pools.enemies.poison[e] > 0.0)
            .count();
        (hashes, w.pools.enemies.len(), statused)
    };
    let (one, two) = (run(1), run(2));
    assert!(one.1 < 2500, "some died");
    assert_eq!(one, two);
}

// --- R-DMG-2 from area hits: blasts, chains, zones ---------------------------

/// Enemy 1 stands this far right of enemy 0 (both still).
const NEIGHBOUR: f32 = 30.0;

fn pair(statuses: StatusParams) -> World {
    let mut w = world(statuses, 1000.0, 0.0);
    w.spawn_enemy(0, false, CENTRE.0 + AWAY + NEIGHBOUR, CENTRE.1).unwrap();
    w
}

/// R-DMG-2: an explosion is a hit of its element on every enemy it
/// reaches: a fire blast burns the neighbour the shot never touched, and
/// attunement raises its damage (10 points: ×1.3). With no chance and no
/// attunement (the stress workload's case) it is a plain hit: 10, no burn.
#[test]
fn r_dmg_2_a_fire_blast_can_set_burn_and_gets_attunement() {
    let blast = |chance: f32, points: f32| {
        let mut w = pair(with_chance(Element::Fire, chance));
        let mut attunement = [0.0; ELEMENTS];
        attunement[Element::Fire as usize] = points;
        w.set_attunement(attunement).unwrap();
        let behaviour = Behaviour { explode_radius: 2.0 * NEIGHBOUR, ..Default::default() };
        let (x, y) = (w.pools.enemies.x[0], w.pools.enemies.y[0]);
        w.spawn_projectile(NewProjectile { behaviour, ..shot_at(x, y, 10.0, Element::Fire) }).unwrap();
        let counts = w.step(&Controls::default(), &[]);
        assert_eq!(counts.hits, 1, "the shot strikes enemy 0 only");
        assert!(w.events().iter().any(|e| e.kind == EventKind::Exploded));
        (w.pools.enemies.burn[1], 1000.0 - w.pools.enemies.hp[1])
    };
    let (burn, lost) = blast(1.0, 10.0);
    assert!(burn > 0.0, "the blast set burn on the neighbour");
    // The blast's 10 × 1.3, and the frame's first burn tick (10/s).
    assert!((lost - 13.0 - 10.0 / 60.0).abs() < 1e-3, "blast 10 × 1.3 attunement, got {lost}");
    assert_eq!(blast(0.0, 0.0), (0.0, 10.0), "no element work: 10, no burn");
}

/// R-DMG-2: a lightning chain's bolt is a lightning hit: on a wet enemy it
/// deals ×1.5 and reports the electrified reaction.
#[test]
fn r_dmg_2_a_lightning_chain_on_a_wet_enemy_deals_one_and_a_half_and_reacts() {
    let mut w = pair(with_chance(Element::Water, 1.0));
    let (x1, y1) = (w.pools.enemies.x[1], w.pools.enemies.y[1]);
    w.spawn_projectile(shot_at(x1, y1, 1.0, Element::Water)).unwrap();
    w.step(&Controls::default(), &[]);
    assert!(w.pools.enemies.wet[1] > 0.0 && w.pools.enemies.wet[0] == 0.0, "only the neighbour is wet");
    let before = w.pools.enemies.hp[1];

    let behaviour = Behaviour { chain: 1, chain_range: 200.0, ..Default::default() };
    let (x0, y0) = (w.pools.enemies.x[0], w.pools.enemies.y[0]);
    let bolt = NewProjectile { vx: 600.0, behaviour, ..shot_at(x0, y0, 10.0, Element::Lightning) };
    w.spawn_projectile(bolt).unwrap();
    let mut reactions = Vec::new();
    for _ in 0..30 {
        w.step(&Controls::default(), &[]);
        reactions.extend(w.events().iter().filter(|e| e.kind == EventKind::ElementReaction).map(|e| e.a));
    }
    assert!((1000.0 - w.pools.enemies.hp[0] - 10.0).abs() < 1e-3, "the dry first target: 10");
    let lost = before - w.pools.enemies.hp[1];
    assert!((lost - 15.0).abs() < 1e-3, "the chained bolt on the wet neighbour: 10 × 1.5, got {lost}");
    assert_eq!(reactions, vec![1.0], "electrified, once");
}

/// A damaging poison zone of `life` seconds on enemy 0; returns its poison
/// stacks after each frame.
fn poison_zone_stacks(interval: f32, life: f32, frames: usize) -> Vec<u8> {
    let mut s = with_chance(Element::Poison, 1.0);
    s.poison_max_stacks = 50;
    s.zone_status_interval = interval;
    let mut w = world(s, 1.0e6, 0.0);
    let (x, y) = (w.pools.enemies.x[0], w.pools.enemies.y[0]);
    w.pools.zones.push(x, y, 50.0, life, 0.0, 0.0, 0.5, Element::Poison, 0);
    (0..frames)
        .map(|_| {
            w.step(&Controls::default(), &[]);
            w.pools.enemies.poison_stacks[0]
        })
        .collect()
}

/// R-DMG-2 zones: a poison pool hurts every tick but strikes (rolls its
/// status) once per `statuses.zone.status_interval` — on the frame it
/// lands, then every interval in whole ticks: at chance 1, one stack a
/// second, not sixty; at 0.5 s, two a second.
#[test]
fn r_dmg_2_a_poison_zone_stacks_poison_once_per_interval() {
    let stacks = poison_zone_stacks(1.0, 3.5, 240);
    assert_eq!(stacks[0], 1, "the first roll on the frame the zone lands");
    assert_eq!(stacks[59], 1);
    assert_eq!(stacks[60], 2);
    assert_eq!(stacks[119], 2);
    assert_eq!(stacks[120], 3);
    assert_eq!(stacks[180], 4);
    assert_eq!(stacks[239], 4, "3.5 s of zone: rolls at 0, 1, 2, 3 s");
    let fast = poison_zone_stacks(0.5, 10.0, 60);
    assert_eq!(fast[59], 2, "every 0.5 s: two rolls in the first second");
}

/// R-DMG-2: a zone's ticks are damage over time (its dps, no armor, no
/// minimum of 1) with the element's damage multiplier; a wet target in a
/// lightning zone reports electrified once per strike, not every tick.
#[test]
fn r_dmg_2_a_lightning_zone_on_wet_reacts_once_per_interval() {
    let mut w = world(with_chance(Element::Water, 1.0), 1000.0, 0.0);
    hit(&mut w, 1.0, Element::Water);
    w.pools.enemies.wet[0] = 100.0; // stays wet for the whole test
    let before = w.pools.enemies.hp[0];
    let (x, y) = (w.pools.enemies.x[0], w.pools.enemies.y[0]);
    w.pools.zones.push(x, y, 50.0, 2.0, 0.0, 0.0, 6.0, Element::Lightning, 0);
    let mut reactions = 0;
    for _ in 0..90 {
        w.step(&Controls::default(), &[]);
        reactions += w.events().iter().filter(|e| e.kind == EventKind::ElementReaction).count();
    }
    assert_eq!(reactions, 2, "strikes at 0 s and 1 s");
    let lost = before - w.pools.enemies.hp[0];
    assert!((lost - 6.0 * 1.5 * 1.5).abs() < 0.01, "6/s × 1.5 wet for 1.5 s, got {lost}");
}

// --- R-DMG-2 on archers ------------------------------------------------------

fn archer_world() -> World {
    let mut cfg = config(with_chance(Element::Ice, 1.0), 1000.0, 90.0);
    cfg.statuses.freeze_seconds = 3.0;
    cfg.enemy_kinds[0].behavior = Behavior::KeepDistance(RangedAttack {
        every: 1.0,
        speed: 300.0,
        damage: 7.0,
        radius: 5.0,
        lifetime: 3.0,
        min_distance: 150.0,
        max_distance: 250.0,
        strafe: 0.0,
    });
    let mut w = World::new(cfg).unwrap();
    w.set_player_position(CENTRE.0, CENTRE.1).unwrap();
    w
}

/// R-DMG-2: a chilled archer closes in at `chill_slow` of an unchilled
/// one's pace (90 px/s: 1.5 px a frame, chilled 0.75).
#[test]
fn r_dmg_2_a_chilled_archer_moves_slower_than_an_unchilled_one() {
    let pace = |chilled: bool| {
        let mut w = archer_world();
        w.spawn_enemy(0, false, CENTRE.0 + 700.0, CENTRE.1).unwrap();
        if chilled {
            hit(&mut w, 1.0, Element::Ice);
            assert!(w.pools.enemies.chill[0] > 0.0 && w.pools.enemies.frozen[0] == 0.0);
        } else {
            idle(&mut w, 1);
        }
        let x = w.pools.enemies.x[0];
        idle(&mut w, 10);
        (x - w.pools.enemies.x[0]) / 10.0
    };
    let (free, chilled) = (pace(false), pace(true));
    assert!((free - 1.5).abs() < 1e-3, "unchilled: 1.5 px a frame, got {free}");
    assert!((chilled - 0.75).abs() < 1e-3, "chilled: 0.75 px a frame, got {chilled}");
}

/// R-DMG-2: a frozen archer neither moves nor shoots for the freeze; once
/// thawed it shoots again within its cooldown.
#[test]
fn r_dmg_2_a_frozen_archer_does_not_fire() {
    let mut w = archer_world();
    w.spawn_enemy(0, false, CENTRE.0 + 200.0, CENTRE.1).unwrap();
    let shots = |w: &World| w.events().iter().filter(|e| e.kind == EventKind::ProjectileFired && e.b == 1.0).count();
    for _ in 0..3 {
        hit(&mut w, 1.0, Element::Ice);
    }
    assert!(w.pools.enemies.frozen[0] > 0.0, "three chills freeze");
    let at = (w.pools.enemies.x[0], w.pools.enemies.y[0]);
    let mut fired = 0;
    for _ in 0..170 {
        w.step(&Controls::default(), &[]);
        fired += shots(&w);
    }
    assert!(w.pools.enemies.frozen[0] > 0.0, "still frozen");
    assert_eq!(fired, 0, "frozen for ~3 s: no shot (unfrozen: one a second)");
    assert_eq!((w.pools.enemies.x[0], w.pools.enemies.y[0]), at, "frozen: no step");
    for _ in 0..70 {
        w.step(&Controls::default(), &[]);
        fired += shots(&w);
    }
    assert_eq!(w.pools.enemies.frozen[0], 0.0);
    assert!(fired >= 1, "thawed: it shoots again");
}

// --- R-DMG-2: status ticks are not hits ---------------------------------------

/// R-DMG-2 / R-DMG-1: armor is taken off each hit, not off burn and
/// poison ticks: an enemy with armor 100 (every hit down to the minimum of
/// 1) still loses the full 10/s of burn and 2/s per poison stack.
#[test]
fn r_dmg_2_burn_and_poison_hurt_an_armored_enemy_in_full() {
    let mut s = params();
    s.chance[Element::Fire as usize] = 1.0;
    s.chance[Element::Poison as usize] = 1.0;
    let mut cfg = config(s, 1000.0, 0.0);
    cfg.enemy_kinds[0].armor = 100.0;
    let mut w = World::new(cfg).unwrap();
    w.set_player_position(CENTRE.0, CENTRE.1).unwrap();
    w.spawn_enemy(0, false, CENTRE.0 + AWAY, CENTRE.1).unwrap();
    let (fire_hit, _) = hit(&mut w, 5.0, Element::Fire);
    let (poison_hit, _) = hit(&mut w, 5.0, Element::Poison);
    assert!(w.pools.enemies.burn[0] > 0.0 && w.pools.enemies.poison_stacks[0] == 1);
    // Each hit: 5 − 100 armor → the minimum of 1, plus the ticks of its frame.
    assert!(fire_hit < 1.5 && poison_hit < 1.5, "armor cut the hits: {fire_hit}, {poison_hit}");
    let hp = w.pools.enemies.hp[0];
    let ticked = idle(&mut w, 60);
    // A second of both (burn has 2 − 2/60 s left): 10/s of burn, 2/s of one poison stack.
    let want = 10.0 + 2.0;
    assert!((ticked - want).abs() < 0.1, "ticks ignore armor: {ticked}, want {want}");
    assert!((hp - w.pools.enemies.hp[0] - ticked).abs() < 1e-3);
}
