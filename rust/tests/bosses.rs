//! Bosses in the core (R-BOSS-1/2): phases entered at their HP thresholds
//! (a big hit crossing two), per-phase resistances, regen on physical hits,
//! armor plates stripped by the weak element, frontal physical reflection,
//! stationary and chasing movement, the three shot patterns on their timers,
//! hyper-enrage after the cap, NG+'s Last Will, clones and adds that die with
//! their boss, every volley telegraphed (R-BOSS-3) — and determinism (R-DET-1)
//! with a boss on the field.

mod common;

use artificer_core::sim::boss::{
    Adds, Barrage, BossDef, BossPhase, BossShot, Clones, Enrage, LastWill, Plates, Volley,
};
use artificer_core::sim::config::{Behavior, Element, EnemyKind, Shield, WorldConfig};
use artificer_core::sim::events::{BossPattern, EventKind};
use artificer_core::sim::player::Controls;
use artificer_core::sim::pools::{NewProjectile, Owner};
use artificer_core::sim::stress::stress_config;
use artificer_core::sim::world::World;

const CENTRE: (f32, f32) = (1000.0, 1000.0);
const BOSS_AT: (f32, f32) = (1300.0, 1000.0);
const HP: f32 = 1000.0;
/// R-BOSS-3: the wind-up of every volley in these tests (30 ticks at 60 Hz).
const TELEGRAPH: f32 = 0.5;

/// A phase that stands still and does nothing else (each test adds what it looks at).
fn phase(number: u32, enter: f32, exit: f32) -> BossPhase {
    BossPhase { stationary: true, ..BossPhase::new(number, enter, exit) }
}

/// A boss's block of `phases`, its shots and its enrage (a test changes what it looks at).
fn boss_def(phases: Vec<BossPhase>) -> BossDef {
    BossDef {
        phases,
        shot: BossShot { speed: 200.0, damage: 6.0, radius: 6.0, lifetime: 10.0 },
        enrage_after: 1000.0,
        hyper: Enrage { speed: 2.0, damage: 3.0, interval: 0.5, chase: true },
        telegraph: TELEGRAPH,
    }
}

fn boss_kind(def: BossDef) -> EnemyKind {
    EnemyKind {
        name: "boss".into(),
        hp: HP,
        speed: 60.0,
        radius: 30.0,
        contact_damage: 10.0,
        reward: 50,
        behavior: Behavior::Boss(Box::new(def)),
        ..EnemyKind::default()
    }
}

fn boss(phases: Vec<BossPhase>) -> EnemyKind {
    boss_kind(boss_def(phases))
}

fn minion() -> EnemyKind {
    EnemyKind { name: "minion".into(), hp: 20.0, speed: 0.0, radius: 8.0, ..EnemyKind::default() }
}

/// The game's rules, the player still at the centre of a 2000² arena, unarmed and unhurt.
fn config(kinds: Vec<EnemyKind>) -> WorldConfig {
    let mut cfg = stress_config(7, &common::tuning());
    cfg.rules = Default::default();
    cfg.rules.player_fixed = true;
    cfg.rules.player_invulnerable = true;
    cfg.arena_w = 2000.0;
    cfg.arena_h = 2000.0;
    cfg.enemy_kinds = kinds;
    cfg
}

fn world(kinds: Vec<EnemyKind>) -> World {
    let mut w = World::new(config(kinds)).unwrap();
    w.set_player_position(CENTRE.0, CENTRE.1).unwrap();
    w.spawn_enemy(0, false, BOSS_AT.0, BOSS_AT.1).unwrap();
    w
}

/// A player shot of `damage` and `element` arriving at the boss from the player's side this step.
fn hit(w: &mut World, damage: f32, element: Element, pierce: u32) {
    hit_from(w, -1.0, damage, element, pierce);
}

/// `hit` from the player's side (`side` −1, the boss stands right of the player) or from behind (+1).
fn hit_from(w: &mut World, side: f32, damage: f32, element: Element, pierce: u32) {
    let (bx, by) = (w.pools.enemies.x[0], w.pools.enemies.y[0]);
    w.spawn_projectile(NewProjectile {
        x: bx + side * 40.0,
        y: by,
        vx: -side * 1200.0,
        vy: 0.0,
        radius: 6.0,
        damage,
        crit_chance: 0.0,
        element,
        pierce,
        bounces: 0,
        life: 5.0,
        owner: Owner::Player,
        look: 0,
        behaviour: Default::default(),
    })
    .unwrap();
}

fn step(w: &mut World) -> Vec<(EventKind, f32, f32, f32)> {
    w.step(&Controls::default(), &[]);
    w.events().iter().map(|e| (e.kind, e.a, e.b, e.value)).collect()
}

fn phases_entered(events: &[(EventKind, f32, f32, f32)]) -> Vec<u32> {
    events.iter().filter(|e| e.0 == EventKind::BossPhase).map(|e| e.1 as u32).collect()
}

fn three() -> Vec<BossPhase> {
    vec![phase(1, 1.0, 0.5), phase(2, 0.5, 0.1), phase(3, 0.1, 0.0)]
}

/// R-BOSS-1: a phase is entered when HP falls to its threshold, with one
/// BOSS_PHASE event each; a big hit crossing two enters both, in order;
/// healing never goes back.
#[test]
fn r_boss_1_phases_enter_at_their_thresholds_and_a_big_hit_crosses_two() {
    let mut w = world(vec![boss(three())]);
    step(&mut w);
    assert_eq!(w.boss_status()[0].phase, 1);
    hit(&mut w, 499.0, Element::Fire, 0);
    assert!(phases_entered(&step(&mut w)).is_empty(), "at 50.1% still phase 1");
    hit(&mut w, 1.0, Element::Fire, 0);
    assert_eq!(phases_entered(&step(&mut w)), [2], "at 50%: phase 2");
    let mut w = world(vec![boss(three())]);
    hit(&mut w, 950.0, Element::Fire, 0);
    assert_eq!(phases_entered(&step(&mut w)), [2, 3], "one hit from 100% to 5%");
    assert_eq!(w.boss_status()[0].phase, 3);
}

/// R-BOSS-2 (Void Lord's phase 1): the phase's resistances apply, and each
/// physical hit heals `regen_on_physical_hit` of max HP; other elements don't heal.
#[test]
fn r_boss_2_phase_resistances_and_regen_on_physical_hits_only() {
    let mut first = phase(1, 1.0, 0.5);
    first.resist[Element::Physical as usize] = 0.8;
    first.regen_on_physical_hit = 0.005;
    let mut w = world(vec![boss(vec![first, phase(2, 0.5, 0.0)])]);
    hit(&mut w, 100.0, Element::Fire, 0);
    step(&mut w);
    assert_eq!(w.pools.enemies.hp[0], 900.0, "fire: no resistance, no regen");
    hit(&mut w, 100.0, Element::Physical, 0);
    step(&mut w);
    // 100 × (1 − 0.8) = 20 off, then 0.5% of 1000 = 5 back.
    assert!((w.pools.enemies.hp[0] - 885.0).abs() < 1e-3, "{}", w.pools.enemies.hp[0]);
    hit(&mut w, 10.0, Element::Physical, 0);
    step(&mut w);
    assert!((w.pools.enemies.hp[0] - 888.0).abs() < 1e-3, "uncapped, a small hit heals more than it deals");

    // `regen_hit_cap` 0.5: a hit heals at most half what it dealt — slower, never backwards.
    let mut capped = first;
    capped.regen_hit_cap = Some(0.5);
    let mut w = world(vec![boss(vec![capped, phase(2, 0.5, 0.0)])]);
    hit(&mut w, 10.0, Element::Physical, 0);
    step(&mut w);
    assert!((w.pools.enemies.hp[0] - 999.0).abs() < 1e-3, "2 off, 1 back: {}", w.pools.enemies.hp[0]);
}

/// R-BOSS-2 Armor Lord: plates add flat armor; only a hit of the weak element
/// strips one (a BOSS_PLATE event with the plates left).
#[test]
fn r_boss_2_plates_are_stripped_only_by_the_weak_element() {
    let mut plated = phase(1, 1.0, 0.0);
    plated.plates = Some(Plates { count: 3, armor: 10.0, weak: Element::Fire });
    let mut w = world(vec![boss(vec![plated])]);
    step(&mut w);
    hit(&mut w, 50.0, Element::Physical, 0);
    let events = step(&mut w);
    assert_eq!(w.pools.enemies.hp[0], HP - 20.0, "50 − 3 plates × 10 armor");
    assert!(!events.iter().any(|e| e.0 == EventKind::BossPlate), "physical strips nothing");
    hit(&mut w, 50.0, Element::Fire, 0);
    let events = step(&mut w);
    let plate: Vec<_> = events.iter().filter(|e| e.0 == EventKind::BossPlate).map(|e| e.1).collect();
    assert_eq!(plate, [2.0]);
    assert_eq!(w.boss_status()[0].plates, 2);
    hit(&mut w, 50.0, Element::Physical, 0);
    step(&mut w);
    assert_eq!(w.pools.enemies.hp[0], HP - 20.0 - 20.0 - 30.0, "fire took 20 through 3 plates; now 2 plates");
}

/// R-BOSS-2 Mirror Mage: a frontal physical shot comes back as an enemy shot
/// and deals nothing; a piercing or an elemental one gets through.
#[test]
fn r_boss_2_reflection_is_frontal_and_physical_only() {
    let mut mirror = phase(1, 1.0, 0.0);
    mirror.reflect = Some(Shield { arc_degrees: 120.0, reflect_damage: 1.0 });
    let mut w = world(vec![boss(vec![mirror])]);
    hit(&mut w, 40.0, Element::Physical, 0);
    step(&mut w);
    assert_eq!(w.pools.enemies.hp[0], HP, "reflected");
    assert!(w.pools.projectiles.owner.contains(&Owner::Enemy), "it comes back");
    hit(&mut w, 40.0, Element::Physical, 1);
    step(&mut w);
    assert_eq!(w.pools.enemies.hp[0], HP - 40.0, "piercing gets through");
    hit(&mut w, 40.0, Element::Lightning, 0);
    step(&mut w);
    assert_eq!(w.pools.enemies.hp[0], HP - 80.0, "elemental gets through");
    // From behind (the far side from the player): not frontal.
    hit_from(&mut w, 1.0, 40.0, Element::Physical, 0);
    step(&mut w);
    assert_eq!(w.pools.enemies.hp[0], HP - 120.0, "a shot from behind is not reflected");
}

/// R-BOSS-1 movement tags: a stationary phase stands still; a chasing one
/// walks to the player at its speed × the phase's multiplier.
#[test]
fn r_boss_1_stationary_stands_and_chase_player_walks() {
    let mut w = world(vec![boss(vec![phase(1, 1.0, 0.0)])]);
    for _ in 0..60 {
        step(&mut w);
    }
    assert_eq!((w.pools.enemies.x[0], w.pools.enemies.y[0]), BOSS_AT);
    let mut chase = phase(1, 1.0, 0.0);
    chase.stationary = false;
    chase.speed_multiplier = 2.0;
    let mut w = world(vec![boss(vec![chase])]);
    for _ in 0..60 {
        step(&mut w);
    }
    let walked = BOSS_AT.0 - w.pools.enemies.x[0];
    assert!((walked - 120.0).abs() < 3.0, "60 px/s × 2 for 1 s, walked {walked}");
}

/// R-BOSS-1 patterns: spread 8 every 1 s, a barrage of 5 at the player every
/// 2 s, a burst of 24 every 3 s — each first wound up one interval after the
/// phase began (R-BOSS-3: a BOSS_TELEGRAPH), fired `telegraph` (0.5 s) later.
#[test]
fn r_boss_1_spread_barrage_and_burst_fire_on_their_timers() {
    let mut all = phase(1, 1.0, 0.0);
    all.spread = Some(Volley { count: 8, every: 1.0 });
    all.barrage = Some(Barrage { every: 2.0, shots: 5, spread_degrees: 40.0 });
    all.burst = Some(Volley { count: 24, every: 3.0 });
    let mut w = world(vec![boss(vec![all])]);
    let (mut fired, mut wound) = (Vec::new(), Vec::new());
    for f in 0..=210 {
        let events = step(&mut w);
        let shots = events.iter().filter(|e| e.0 == EventKind::ProjectileFired).count();
        if shots > 0 {
            fired.push((f, shots));
        }
        wound.extend(events.iter().filter(|e| e.0 == EventKind::BossTelegraph).map(|e| (f, e.1 as u8)));
    }
    // Wound up at frames 59, 119, 179 (1 s, 2 s, 3 s after the first step): spread; spread and
    // barrage; spread and burst. Each fires 30 frames later: 8; 8 + 5; 8 + 24.
    let (spread, barrage, burst) = (BossPattern::Spread as u8, BossPattern::Barrage as u8, BossPattern::Burst as u8);
    assert_eq!(wound, [(59, spread), (119, spread), (119, barrage), (179, spread), (179, burst)]);
    assert_eq!(fired, [(89, 8), (149, 13), (209, 32)]);
    let aimed: Vec<f32> = (0..w.pools.projectiles.len()).map(|i| w.pools.projectiles.vx[i]).collect();
    assert!(aimed.iter().filter(|&&vx| vx < 0.0).count() >= 5, "the barrage flies toward the player");
}

/// One boss shot fired at a step: where it came from and its direction (radians).
fn boss_shots_fired(w: &World) -> Vec<((f32, f32), f32)> {
    let p = &w.pools.projectiles;
    // Shots fired at step 8b have not moved yet: their life is still whole.
    (0..p.len())
        .filter(|&i| p.owner[i] == Owner::Enemy && p.life[i] == 10.0)
        .map(|i| ((p.x[i], p.y[i]), p.vy[i].atan2(p.vx[i])))
        .collect()
}

fn angle_gap(a: f32, b: f32) -> f32 {
    let d = (a - b).rem_euclid(std::f32::consts::TAU);
    d.min(std::f32::consts::TAU - d)
}

/// R-BOSS-3: every volley is telegraphed. A chasing boss with all three patterns, hyper-enraged
/// halfway (its patterns come twice as often), against a player who keeps moving: each volley
/// fires `telegraph` seconds (≥ 0.5 s) after its BOSS_TELEGRAPH, from the spot the event named,
/// with the shots the pattern says; a barrage flies along the aim locked at its wind-up (the
/// event's angle), not at where the player has since gone; a boss that dies mid-wind-up fires
/// nothing.
#[test]
fn r_boss_3_every_volley_comes_at_least_half_a_second_after_its_telegraph() {
    let telegraph = 0.75;
    let wind_up = (telegraph * 60.0_f32).round() as i32;
    let mut all = phase(1, 1.0, 0.0);
    all.stationary = false;
    all.spread = Some(Volley { count: 8, every: 1.0 });
    all.barrage = Some(Barrage { every: 1.5, shots: 5, spread_degrees: 40.0 });
    all.burst = Some(Volley { count: 24, every: 2.5 });
    let def = BossDef { enrage_after: 4.0, telegraph, ..boss_def(vec![all]) };
    let mut w = world(vec![boss_kind(def)]);
    // (frame, pattern, origin, angle) of each wind-up not yet matched by its volley.
    let mut pending: Vec<(i32, u8, (f32, f32), f32)> = Vec::new();
    let (mut volleys, mut barrages_off_the_player) = (0, 0);
    for f in 0..600 {
        // The player circles the centre: the aim a barrage locked is never where it is now.
        let t = f as f32 / 60.0;
        w.set_player_position(CENTRE.0 + 200.0 * (t * 2.0).cos(), CENTRE.1 + 200.0 * (t * 2.0).sin()).unwrap();
        w.step(&Controls::default(), &[]);
        let events: Vec<_> = w.events().to_vec();
        for e in events.iter().filter(|e| e.kind == EventKind::BossTelegraph) {
            let shown = w.boss_status()[0].telegraphs.iter().any(|t| (t.x, t.y, t.angle) == (e.x, e.y, e.value));
            assert!(shown, "the wind-up shows in the boss's status, at the spot the event names");
            pending.push((f, e.a as u8, (e.x, e.y), e.value));
        }
        let shots = boss_shots_fired(&w);
        assert_eq!(shots.len(), events.iter().filter(|e| e.kind == EventKind::ProjectileFired).count());
        let mut origins: Vec<(f32, f32)> = shots.iter().map(|s| s.0).collect();
        origins.dedup();
        for origin in origins {
            let volley: Vec<f32> = shots.iter().filter(|s| s.0 == origin).map(|s| s.1).collect();
            let Some(i) = pending.iter().position(|p| p.2 == origin && f - p.0 == wind_up) else {
                panic!("frame {f}: a volley from {origin:?} without a telegraph {wind_up} frames before: {pending:?}");
            };
            let (at, pattern, _, angle) = pending.remove(i);
            assert!((f - at) as f32 / 60.0 >= 0.5, "R-BOSS-3: at least half a second of warning");
            let expected = match BossPattern::from_value(pattern).unwrap() {
                BossPattern::Spread => 8,
                BossPattern::Barrage => 5,
                BossPattern::Burst => 24,
            };
            // Two wind-ups of one spot may fall due together (spread and burst): their shots add up.
            let together = pending.iter().filter(|p| p.2 == origin && f - p.0 == wind_up).count();
            if together == 0 {
                assert_eq!(volley.len(), expected, "frame {f}: pattern {pattern}");
            }
            if pattern == BossPattern::Barrage as u8 && together == 0 {
                let centre = volley[volley.len() / 2];
                assert!(angle_gap(centre, angle) < 1e-4, "the barrage flies along the aim locked at its wind-up");
                let (px, py) = (w.player.x, w.player.y);
                if angle_gap(centre, (py - origin.1).atan2(px - origin.0)) > 0.2 {
                    barrages_off_the_player += 1;
                }
            }
            pending.retain(|p| !(p.2 == origin && f - p.0 == wind_up));
            volleys += 1;
        }
        assert!(pending.iter().all(|p| f - p.0 < wind_up), "frame {f}: a wind-up never fired: {pending:?}");
    }
    assert!(w.boss_status()[0].enraged, "enraged halfway: its volleys came faster, their wind-ups did not");
    assert!(volleys >= 12, "{volleys} volleys");
    assert!(barrages_off_the_player >= 2, "the player had moved off the locked aim: {barrages_off_the_player}");

    // Struck down mid-wind-up: the volley dies with the boss.
    let mut spread = phase(1, 1.0, 0.0);
    spread.spread = Some(Volley { count: 8, every: 1.0 });
    let mut w = world(vec![boss(vec![spread])]);
    while !step(&mut w).iter().any(|e| e.0 == EventKind::BossTelegraph) {}
    assert_eq!(w.boss_status()[0].telegraphs.len(), 1, "its wind-up shows while it runs");
    hit(&mut w, 5000.0, Element::Fire, 0);
    for _ in 0..60 {
        assert!(!step(&mut w).iter().any(|e| e.0 == EventKind::ProjectileFired), "no volley from a dead boss");
    }
}

/// R-BOSS-3, R-DET-1: the state hash covers a volley being wound up (two worlds alike but for
/// where the player stood when the barrage locked its aim hash apart while it winds up).
#[test]
fn r_boss_3_the_state_hash_covers_the_wind_ups() {
    let mut barrage = phase(1, 1.0, 0.0);
    barrage.barrage = Some(Barrage { every: 1.0, shots: 3, spread_degrees: 20.0 });
    let wound_up = |player_y: f32| {
        let mut w = world(vec![boss(vec![barrage])]);
        for f in 0..60 {
            let y = if f == 59 { player_y } else { CENTRE.1 };
            w.set_player_position(CENTRE.0, y).unwrap();
            w.step(&Controls::default(), &[]);
        }
        w.set_player_position(CENTRE.0, CENTRE.1).unwrap();
        let status = &w.boss_status()[0];
        assert_eq!(status.telegraphs.len(), 1);
        assert_eq!((status.telegraphs[0].left, status.telegraphs[0].seconds), (TELEGRAPH, TELEGRAPH));
        w.state_hash()
    };
    assert_eq!(wound_up(CENTRE.1), wound_up(CENTRE.1));
    assert_ne!(wound_up(CENTRE.1), wound_up(CENTRE.1 + 50.0), "the locked aim is state");
}

/// R-BOSS-2: past `enrage_after` the boss hyper-enrages once (BOSS_ENRAGED):
/// its touch and shots hit harder, its patterns come faster.
#[test]
fn r_boss_2_hyper_enrage_after_the_cap_speeds_the_patterns() {
    let mut spread = phase(1, 1.0, 0.0);
    spread.spread = Some(Volley { count: 4, every: 1.0 });
    let kind = boss_kind(BossDef { enrage_after: 2.0, ..boss_def(vec![spread]) });
    let mut w = world(vec![kind]);
    let (mut enraged, mut volleys) = (Vec::new(), Vec::new());
    for f in 0..360 {
        let events = step(&mut w);
        if events.iter().any(|e| e.0 == EventKind::BossEnraged) {
            enraged.push(f);
        }
        if events.iter().any(|e| e.0 == EventKind::ProjectileFired) {
            volleys.push(f);
        }
    }
    assert_eq!(enraged, [119], "once, at 2 s");
    assert!(w.boss_status()[0].enraged);
    let gaps: Vec<i32> = volleys.windows(2).map(|p| p[1] - p[0]).collect();
    assert_eq!(gaps.first(), Some(&60));
    assert_eq!(gaps.last(), Some(&30), "interval × 0.5 once enraged: {gaps:?}");
    let damage: Vec<f32> = w.pools.projectiles.damage.clone();
    assert!(damage.contains(&18.0), "6 × 3 once enraged");
}

/// R-BOSS-2 NG+ Last Will: the killing blow is refused once — the boss is
/// invulnerable for its seconds, back to 30%, in phase 4, and brings its
/// clones; the next killing blow kills. Without the phase the blow kills.
#[test]
fn r_boss_2_last_will_refuses_the_killing_blow_once_and_brings_clones() {
    let mut will = phase(4, 0.0, -0.3);
    will.last_will = Some(LastWill { invulnerable: 1.0, restore: 0.3 });
    will.clones = Some(Clones { kind: 1, count: 2 });
    let mut phases = three();
    phases.push(will);
    let mut w = world(vec![boss(phases), minion()]);
    hit(&mut w, 5000.0, Element::Fire, 0);
    let events = step(&mut w);
    assert_eq!(phases_entered(&events), [4], "the blow enters Last Will, not phases 2 and 3 by HP");
    assert!(!events.iter().any(|e| e.0 == EventKind::EnemyKilled), "refused");
    assert!((w.pools.enemies.hp[0] - 300.0).abs() < 1e-3);
    let status = w.boss_status()[0].clone();
    assert_eq!((status.phase, status.linked), (4, 2), "phase 4, and its two clones came");
    hit(&mut w, 5000.0, Element::Fire, 0);
    step(&mut w);
    assert_eq!(w.pools.enemies.hp[0], 300.0, "invulnerable for 1 s");
    for _ in 0..60 {
        step(&mut w);
    }
    hit(&mut w, 5000.0, Element::Fire, 0);
    let events = step(&mut w);
    let killed: Vec<f32> = events.iter().filter(|e| e.0 == EventKind::EnemyKilled).map(|e| e.3).collect();
    assert_eq!(killed, [50.0, 0.0, 0.0], "the boss (its reward), then its clones with it (none)");
    assert!(w.boss_status().is_empty());
    assert_eq!(w.pools.enemies.len(), 0);

    let mut w = world(vec![boss(three()), minion()]);
    hit(&mut w, 5000.0, Element::Fire, 0);
    assert!(step(&mut w).iter().any(|e| e.0 == EventKind::EnemyKilled), "no Last Will phase: it dies");
}

/// R-BOSS-2 brood mother: adds every interval, linked to the boss; they die with it.
#[test]
fn r_boss_2_adds_come_on_their_timer_and_die_with_their_boss() {
    let mut brood = phase(1, 1.0, 0.0);
    brood.adds = Some(Adds { kind: 1, count: 3, every: 1.0 });
    let mut w = world(vec![boss(vec![brood]), minion()]);
    for _ in 0..121 {
        step(&mut w);
    }
    assert_eq!(w.pools.enemies.len(), 1 + 6, "two intervals, three each");
    assert_eq!(w.boss_status()[0].linked, 6);
    hit(&mut w, 5000.0, Element::Fire, 0);
    step(&mut w);
    assert_eq!(w.pools.enemies.len(), 0, "they fall with their mother");
}

/// R-DET-1: a boss fight is the same on one thread and two, and its state hash covers the boss.
#[test]
fn r_det_1_a_boss_fight_hashes_the_same_on_one_and_two_threads() {
    let mut all = phase(1, 1.0, 0.4);
    all.spread = Some(Volley { count: 8, every: 0.5 });
    all.adds = Some(Adds { kind: 1, count: 2, every: 1.0 });
    let mut chase = phase(2, 0.4, 0.0);
    chase.stationary = false;
    chase.barrage = Some(Barrage { every: 0.7, shots: 3, spread_degrees: 30.0 });
    let run = |threads: usize| {
        let mut w = World::new(config(vec![boss(vec![all, chase]), minion()])).unwrap();
        w.set_threads(threads).unwrap();
        w.set_player_position(CENTRE.0, CENTRE.1).unwrap();
        w.spawn_enemy(0, false, BOSS_AT.0, BOSS_AT.1).unwrap();
        for f in 0..300 {
            if f % 20 == 0 {
                hit(&mut w, 60.0, Element::Physical, 0);
            }
            w.step(&Controls::default(), &[]);
        }
        (w.state_hash(), w.boss_status()[0].phase)
    };
    let (one, phase_reached) = run(1);
    assert_eq!(phase_reached, 2);
    assert_eq!(one, run(2).0);
    let mut quiet = World::new(config(vec![boss(vec![phase(1, 1.0, 0.0)])])).unwrap();
    let before = quiet.state_hash();
    quiet.spawn_enemy(0, false, BOSS_AT.0, BOSS_AT.1).unwrap();
    assert_ne!(before, quiet.state_hash());
}

/// R-WAVE-1: a hyper-enraged boss comes to the player even from a stationary phase
/// (`Enrage::chase`), so a fight always ends; without `chase` it stays put.
#[test]
fn r_wave_1_hyper_enrage_makes_a_stationary_boss_chase() {
    for chase in [true, false] {
        let mut def = boss_def(vec![phase(1, 1.0, 0.0)]);
        def.enrage_after = 1.0;
        def.hyper.chase = chase;
        let mut w = world(vec![boss_kind(def)]);
        for _ in 0..60 {
            step(&mut w);
        }
        assert_eq!(w.pools.enemies.x[0], BOSS_AT.0, "stationary until it enrages");
        for _ in 0..60 {
            step(&mut w);
        }
        let walked = BOSS_AT.0 - w.pools.enemies.x[0];
        if chase {
            assert!(walked > 100.0, "60 px/s × 2 once enraged, walked {walked}");
        } else {
            assert_eq!(walked, 0.0);
        }
    }
}
