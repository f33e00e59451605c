//! Relic rules in the core (R-REL-1/2, seed 000's edge cases): R-REL-2's
//! attack order as a table of combined cases, then each rule in a world —
//! pen_nib on the 10th/20th/30th action of a wave, akabeko once a wave, the
//! hits the_boot lifts and leaves, bronze_scales against a living attacker
//! without vulnerable, the turn clock and self_forming_clay's ward at the
//! next turn, bag_of_prep's and centennial_puzzle's budgets, champion_belt's
//! weak, the heals inside the wave (burning_blood on an elite's death,
//! blood_vial at its moment of the wave clock, meat_on_bone once a wave on
//! falling low) — and determinism (R-DET-1) on one thread and two with all of
//! them on.

mod common;

use artificer_core::sim::combat::{final_damage, Attack, Defence};
use artificer_core::sim::commands::{Command, Status};
use artificer_core::sim::config::{EnemyKind, WorldConfig, ELEMENTS};
use artificer_core::sim::events::{Event, EventKind};
use artificer_core::sim::player::Controls;
use artificer_core::sim::pools::NewProjectile;
use artificer_core::sim::relics::{fired_damage, RelicRule, RelicRules};
use artificer_core::sim::stress::{stress_config, stress_projectile, stress_world, Layout};
use artificer_core::sim::world::World;
use artificer_core::vm::board::CoreDef;
use artificer_core::vm::compile::Compiler;
use artificer_core::vm::exec::Caster;
use artificer_core::vm::mana::Mana;
use artificer_core::vm::sample::{self, catalog};
use artificer_core::vm::spell::ActionDef;

const CENTRE: (f32, f32) = (1000.0, 1000.0);

// ---- R-REL-2: the order, as a table ---------------------------------------

/// R-REL-2 end to end with the core's own pieces: the fired ACTION's terms
/// (`fired_damage`), then the hit's (`final_damage`: strength, weak, the_boot,
/// vulnerable).
#[allow(clippy::too_many_arguments)]
fn attack(
    base: f32,
    akabeko: f32,
    pen_nib: bool,
    strength: f32,
    weak: bool,
    boot: f32,
    armor: f32,
    vulnerable: bool,
) -> f32 {
    let combat = common::combat();
    let mult = combat.dealt(weak);
    let a = Attack { base: fired_damage(base, akabeko, pen_nib), flat: strength, mult, element: 0, boot_floor: boot };
    final_damage(&a, &Defence { resist: [0.0; ELEMENTS], armor, taken: combat.taken(vulnerable) })
}

/// One row of the R-REL-2 table: base, akabeko, pen_nib, strength, weak, boot, armor, vulnerable,
/// the expected damage, and what the row shows.
type AttackCase = (f32, f32, bool, f32, bool, f32, f32, bool, f32, &'static str);

#[test]
fn r_rel_2_attack_order_table() {
    #[rustfmt::skip]
    let cases: &[AttackCase] = &[
        // base, akabeko, pen_nib, strength, weak, boot, armor, vulnerable => expected
        (5.0, 0.0, false, 0.0, false, 0.0, 0.0, false, 5.0, "nothing on"),
        (5.0, 8.0, false, 0.0, false, 0.0, 0.0, false, 13.0, "akabeko adds to base"),
        (5.0, 8.0, true, 0.0, false, 0.0, 0.0, false, 26.0, "pen_nib doubles base + akabeko"),
        (5.0, 0.0, true, 3.0, false, 0.0, 0.0, false, 13.0, "strength after pen_nib: not doubled"),
        (5.0, 8.0, true, 2.0, false, 0.0, 0.0, false, 28.0, "akabeko, pen_nib, strength"),
        (5.0, 8.0, true, 2.0, true, 0.0, 0.0, false, 21.0, "weak takes 25% of all of it"),
        (5.0, 8.0, true, 2.0, true, 0.0, 0.0, true, 31.5, "vulnerable on hit, last"),
        (6.0, 0.0, false, 0.0, true, 5.0, 0.0, false, 5.0, "weak before the_boot: 4.5 lifted to 5"),
        (1.0, 0.0, false, 0.0, false, 5.0, 0.0, false, 5.0, "the_boot lifts 1"),
        (4.0, 0.0, false, 0.0, false, 5.0, 0.0, false, 5.0, "the_boot lifts 4"),
        (4.99, 0.0, false, 0.0, false, 5.0, 0.0, false, 5.0, "and anything below 5"),
        (5.0, 0.0, false, 0.0, false, 5.0, 0.0, false, 5.0, "5 stays 5"),
        (6.0, 0.0, false, 0.0, false, 5.0, 0.0, false, 6.0, "above the floor: untouched"),
        (0.0, 0.0, false, 0.0, false, 5.0, 0.0, false, 0.0, "0 stays 0"),
        (1.0, 0.0, false, 0.0, false, 5.0, 0.0, true, 7.5, "vulnerable after the_boot"),
        (3.0, 0.0, false, 0.0, false, 5.0, 10.0, false, 5.0, "armor's minimum 1 is a hit of 1: lifted"),
        (1.0, 0.0, false, 2.0, false, 5.0, 0.0, false, 5.0, "strength then the_boot: 3 lifted"),
        (1.0, 8.0, true, 2.0, true, 5.0, 0.0, true, 22.5, "all of it: ((1+8)x2+2)x0.75 = 15, x1.5"),
    ];
    for &(base, akabeko, pen, strength, weak, boot, armor, vuln, want, why) in cases {
        let got = attack(base, akabeko, pen, strength, weak, boot, armor, vuln);
        assert!((got - want).abs() < 1e-4, "{why}: got {got}, want {want}");
    }
}

#[test]
fn the_boot_leaves_an_immune_target_at_0() {
    let mut resist = [0.0; ELEMENTS];
    resist[0] = 1.0;
    let a = Attack { base: 3.0, flat: 0.0, mult: 1.0, element: 0, boot_floor: 5.0 };
    let taken = common::combat().taken(true);
    assert_eq!(final_damage(&a, &Defence { resist, armor: 0.0, taken }), 0.0);
}

// ---- a world with one target ----------------------------------------------

fn kind(hp: f32, contact: f32) -> EnemyKind {
    EnemyKind { name: "target".into(), hp, speed: 0.0, contact_damage: contact, reward: 3, ..EnemyKind::default() }
}

fn config(hp: f32, contact: f32) -> WorldConfig {
    let mut cfg = stress_config(11, &common::tuning());
    cfg.rules = Default::default();
    cfg.rules.player_fixed = true;
    cfg.rules.enemies_still = true;
    cfg.arena_w = 2000.0;
    cfg.arena_h = 2000.0;
    cfg.player.max_hp = 100.0;
    cfg.enemy_kinds = vec![kind(hp, contact)];
    cfg.combat = common::combat();
    cfg
}

/// A world with an enemy `away` px right of the player, out of touch unless close.
fn world(hp: f32, contact: f32, away: f32) -> World {
    let mut w = World::new(config(hp, contact)).unwrap();
    w.set_player_position(CENTRE.0, CENTRE.1).unwrap();
    w.spawn_enemy(0, false, CENTRE.0 + away, CENTRE.1).unwrap();
    w.begin_wave();
    w
}

/// Arms a bolt of `damage` every tick that strikes the enemy 20 px away on the tick it is fired.
fn bolt_every_tick(w: &mut World, damage: f32) {
    common::arm_bolt(w, ActionDef { speed: 600.0, lifetime: 1.0, ..sample::bolt(damage) }, None, 1.0 / 60.0);
}

fn relic_events(events: &[Event], rule: RelicRule) -> Vec<Event> {
    events.iter().filter(|e| e.kind == EventKind::Relic && e.a == rule as u8 as f32).copied().collect()
}

/// The damage dealt on each of `frames` steps.
fn damage_per_frame(w: &mut World, frames: usize) -> Vec<f32> {
    (0..frames)
        .map(|_| {
            let c = w.step(&Controls::default(), &[]);
            assert_eq!(w.events().iter().filter(|e| e.kind == EventKind::ProjectileFired).count(), 1);
            c.damage_dealt
        })
        .collect()
}

/// Seed 000: pen_nib doubles the 10th, 20th, 30th fired ACTION of a wave;
/// akabeko adds 8 to the wave's first, before pen_nib; both start over
/// with the next wave.
#[test]
fn pen_nib_doubles_every_10th_action_and_akabeko_the_first_of_each_wave() {
    let mut w = world(1e9, 0.0, 20.0);
    bolt_every_tick(&mut w, 5.0);
    w.set_relic_rules(RelicRules { pen_nib_period: 10, first_action_bonus: 8.0, ..Default::default() }).unwrap();
    for wave in 0..2 {
        let dealt = damage_per_frame(&mut w, 35);
        for (i, d) in dealt.iter().enumerate() {
            let n = i + 1;
            let want = match n {
                1 => 13.0,
                10 | 20 | 30 => 10.0,
                _ => 5.0,
            };
            assert_eq!(*d, want, "wave {wave}, action {n}");
        }
        assert_eq!(w.relic_state().actions_fired, 35);
        w.begin_wave();
        assert_eq!(w.relic_state().actions_fired, 0);
    }
}

#[test]
fn pen_nib_and_akabeko_report_a_relic_event() {
    let mut w = world(1e9, 0.0, 20.0);
    bolt_every_tick(&mut w, 5.0);
    w.set_relic_rules(RelicRules { pen_nib_period: 2, first_action_bonus: 8.0, ..Default::default() }).unwrap();
    w.step(&Controls::default(), &[]);
    let a = relic_events(w.events(), RelicRule::FirstActionBonus);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].value, 8.0);
    w.step(&Controls::default(), &[]);
    assert!(relic_events(w.events(), RelicRule::FirstActionBonus).is_empty(), "akabeko once a wave");
    assert_eq!(relic_events(w.events(), RelicRule::PenNibPeriod)[0].value, 2.0);
}

#[test]
fn rules_off_change_nothing() {
    let mut w = world(1e9, 0.0, 20.0);
    bolt_every_tick(&mut w, 5.0);
    assert!(damage_per_frame(&mut w, 12).iter().all(|&d| d == 5.0));
    assert_eq!(w.relic_state().actions_fired, 0, "nothing is counted with pen_nib and akabeko off");
}

/// Seed 000: the_boot lifts hits of 1–4 to 5, leaves 0; strength comes before it.
#[test]
fn the_boot_lifts_small_hits_once_reported_per_frame() {
    let mut w = world(1e9, 0.0, 20.0);
    bolt_every_tick(&mut w, 1.0);
    w.set_relic_rules(RelicRules { damage_floor: 5.0, ..Default::default() }).unwrap();
    assert_eq!(damage_per_frame(&mut w, 1), [5.0]);
    let boot = relic_events(w.events(), RelicRule::DamageFloor);
    assert_eq!((boot.len(), boot[0].value), (1, 1.0));
    w.set_strength(2.0).unwrap();
    assert_eq!(damage_per_frame(&mut w, 1), [5.0], "1 + 2 strength = 3, lifted");
    w.set_strength(5.0).unwrap();
    assert_eq!(damage_per_frame(&mut w, 1), [6.0], "above the floor: untouched, no event");
    assert!(relic_events(w.events(), RelicRule::DamageFloor).is_empty());
}

#[test]
fn strength_is_set_added_to_by_the_command_and_reset_by_begin_wave() {
    let mut w = world(1e9, 0.0, 20.0);
    bolt_every_tick(&mut w, 5.0);
    w.set_strength(1.0).unwrap();
    w.step(&Controls::default(), &[Command::Strength { amount: 2.0 }]);
    assert_eq!(w.strength(), 3.0);
    assert_eq!(damage_per_frame(&mut w, 1), [8.0]);
    w.begin_wave();
    assert_eq!(w.strength(), 0.0);
    assert!(w.set_strength(f32::NAN).is_err());
}

/// Seed 000: bronze_scales takes 3 straight off the attacker's HP, with no
/// vulnerable multiplier; a kill by it rewards.
#[test]
fn thorns_hit_the_toucher_without_vulnerable_and_can_kill() {
    let mut w = world(10.0, 4.0, 5.0);
    w.set_relic_rules(RelicRules { thorns: 3.0, ..Default::default() }).unwrap();
    let vulnerable = Command::ApplyStatus { status: Status::Vulnerable, x: CENTRE.0, y: CENTRE.1, seconds: 10.0 };
    w.step(&Controls::default(), &[vulnerable]);
    assert_eq!(w.pools.enemies.hp[0], 7.0, "3 off, not 4.5");
    let t = relic_events(w.events(), RelicRule::Thorns);
    assert_eq!((t.len(), t[0].b, t[0].value), (1, 0.0, 3.0));
    w.step(&Controls::default(), &[]);
    w.step(&Controls::default(), &[]);
    w.step(&Controls::default(), &[]);
    assert!(w.events().iter().any(|e| e.kind == EventKind::EnemyKilled), "the fourth touch's thorns kill");
    assert_eq!(w.pools.enemies.len(), 0);
}

#[test]
fn thorns_need_a_touch_that_hurts() {
    let mut w = world(10.0, 0.0, 5.0);
    w.set_relic_rules(RelicRules { thorns: 3.0, ..Default::default() }).unwrap();
    w.step(&Controls::default(), &[]);
    assert_eq!(w.pools.enemies.hp[0], 10.0);
}

/// §8: a turn is 3 s of wave time from `begin_wave`; self_forming_clay's
/// ward lands on the first tick of the turn after the HP loss.
#[test]
fn turns_count_from_the_wave_start_and_hurt_ward_lands_at_the_next_turn() {
    let mut w = world(1e9, 4.0, 5.0);
    assert_eq!(w.turn_seconds(), 3.0);
    w.set_relic_rules(RelicRules { hurt_ward: 3.0, ..Default::default() }).unwrap();
    w.player.invulnerability = 100.0; // one hurt only
    w.step(&Controls::default(), &[]);
    assert!(w.player.hp < 100.0);
    assert_eq!(w.relic_state().pending_ward, 3.0);
    for tick in 2..180 {
        w.step(&Controls::default(), &[]);
        assert_eq!((w.turn(), w.player.ward), (0, 0.0), "tick {tick}");
    }
    w.step(&Controls::default(), &[]);
    assert_eq!((w.turn(), w.player.ward), (1, 3.0));
    assert_eq!(relic_events(w.events(), RelicRule::HurtWard)[0].value, 3.0);
    for _ in 0..180 {
        w.step(&Controls::default(), &[]);
    }
    assert_eq!((w.turn(), w.player.ward), (2, 3.0), "one loss, one ward");
    w.begin_wave();
    assert_eq!(w.turn(), 0);
}

#[test]
fn turn_seconds_come_from_the_config_in_whole_ticks() {
    let mut cfg = config(1.0, 0.0);
    cfg.turn_seconds = 0.5;
    let w = World::new(cfg.clone()).unwrap();
    assert_eq!(w.turn_seconds(), 0.5);
    cfg.turn_seconds = 0.0;
    assert!(World::new(cfg).is_err());
}

/// champion_belt: vulnerable brings weak for N turns; statuses in turns.
#[test]
fn vulnerable_brings_weak_for_turns_and_statuses_take_turns() {
    let mut w = world(1e9, 0.0, 300.0);
    w.set_relic_rules(RelicRules { vulnerable_weak: 1.0, ..Default::default() }).unwrap();
    let at = (CENTRE.0 + 300.0, CENTRE.1);
    w.step(
        &Controls::default(),
        &[Command::ApplyStatus { status: Status::Vulnerable, x: at.0, y: at.1, seconds: 2.0 }],
    );
    // Applied in step 1, ticked once at step 11.
    assert!((w.pools.enemies.weak[0] - (3.0 - 1.0 / 60.0)).abs() < 1e-4, "{}", w.pools.enemies.weak[0]);
    let c = relic_events(w.events(), RelicRule::VulnerableWeak);
    assert_eq!((c.len(), c[0].value), (1, 3.0));
    w.step(&Controls::default(), &[Command::ApplyStatusTurns { status: Status::Weak, x: at.0, y: at.1, turns: 3.0 }]);
    assert!((w.pools.enemies.weak[0] - (9.0 - 1.0 / 60.0)).abs() < 1e-4, "{}", w.pools.enemies.weak[0]);
    assert!(relic_events(w.events(), RelicRule::VulnerableWeak).is_empty(), "weak alone brings nothing");
}

/// A weak enemy touches for 25% less (§8).
#[test]
fn a_weak_enemy_touches_for_less() {
    let mut w = world(1e9, 8.0, 5.0);
    w.step(
        &Controls::default(),
        &[Command::ApplyStatus { status: Status::Weak, x: CENTRE.0, y: CENTRE.1, seconds: 5.0 }],
    );
    assert_eq!(w.player.hp, 94.0);
}

/// Vulnerable and weak are the config's numbers (balance.json `combat`), not the core's.
#[test]
fn vulnerable_and_weak_come_from_the_config() {
    let mut cfg = config(1000.0, 8.0);
    cfg.combat.weak_multiplier = 0.5;
    cfg.combat.vulnerable_multiplier = 3.0;
    let mut w = World::new(cfg).unwrap();
    w.set_player_position(CENTRE.0, CENTRE.1).unwrap();
    w.spawn_enemy(0, false, CENTRE.0 + 5.0, CENTRE.1).unwrap();
    w.begin_wave();
    let weak = Command::ApplyStatus { status: Status::Weak, x: CENTRE.0, y: CENTRE.1, seconds: 5.0 };
    let vulnerable = Command::ApplyStatus { status: Status::Vulnerable, x: CENTRE.0, y: CENTRE.1, seconds: 5.0 };
    w.step(&Controls::default(), &[weak, vulnerable]);
    assert_eq!(w.player.hp, 96.0, "a weak touch of 8 at ×0.5");
    let hp = w.pools.enemies.hp[0];
    let shot = NewProjectile { damage: 10.0, pierce: 0, ..stress_projectile(CENTRE.0 + 5.0, CENTRE.1, 0.0, 0.0) };
    w.spawn_projectile(shot).unwrap();
    w.step(&Controls::default(), &[]);
    assert_eq!(hp - w.pools.enemies.hp[0], 30.0, "a shot of 10 on a vulnerable target at ×3");
}

// ---- budgets, with a program wand -----------------------------------------

/// Three spark bolts in a row: a cast with budget 1 fires one.
fn three_bolts(w: &mut World) {
    let core = CoreDef::row("starter", 3, 1000.0, 100.0, 0.25, 20);
    let spells = catalog();
    let id = sample::index("spark_bolt");
    let program = Compiler::new(&spells, &[]).compile(&core, &[Some(id); 3]).unwrap();
    let mana = Mana::new(core.mana_max, core.mana_regen, common::mana_rules());
    let caster = Caster::new(
        program,
        mana,
        common::cast_rules(),
        core.cast_delay,
        core.recharge,
        core.cpu_limit,
        false,
        false,
        1,
    );
    w.set_caster(caster, vec![None; spells.len()]);
    w.begin_wave();
}

/// The emission counts of the casts over `frames` steps.
fn casts(w: &mut World, frames: usize) -> Vec<f32> {
    let mut out = Vec::new();
    for _ in 0..frames {
        w.step(&Controls::default(), &[]);
        out.extend(w.events().iter().filter(|e| e.kind == EventKind::CastFired).map(|e| e.value));
    }
    out
}

#[test]
fn bag_of_prep_gives_the_waves_first_cast_more_budget() {
    let mut w = world(1e9, 0.0, 300.0);
    w.set_relic_rules(RelicRules { first_cast_budget: 2, ..Default::default() }).unwrap();
    three_bolts(&mut w);
    w.step(&Controls::default(), &[]);
    assert_eq!(relic_events(w.events(), RelicRule::FirstCastBudget)[0].value, 2.0);
    let rest = casts(&mut w, 60);
    assert_eq!(rest, [1.0; 4]);
    w.begin_wave();
    assert_eq!(casts(&mut w, 1), [3.0], "again next wave");
}

#[test]
fn centennial_puzzle_gives_the_cast_after_the_first_hp_loss_more_budget_once_a_wave() {
    let mut cfg = config(1e9, 1.0);
    cfg.player.invulnerability = 100.0; // one touch until told otherwise
    let mut w = World::new(cfg).unwrap();
    w.set_player_position(CENTRE.0, CENTRE.1).unwrap();
    w.spawn_enemy(0, false, CENTRE.0 + 5.0, CENTRE.1).unwrap();
    w.set_relic_rules(RelicRules { hurt_cast_budget: 2, ..Default::default() }).unwrap();
    three_bolts(&mut w);
    // Tick 1: the cast (step 4) comes before the touch (step 8).
    assert_eq!(casts(&mut w, 1), [1.0]);
    assert_eq!(relic_events(w.events(), RelicRule::HurtCastBudget)[0].value, 2.0);
    assert_eq!(w.relic_state().pending_budget, 2);
    // The bonus is root budget (R-VM-12): from the second bolt it fires the
    // two left and ends at the deck's end, as the root draw never wraps (R-VM-3).
    assert_eq!(casts(&mut w, 60), [2.0, 1.0, 1.0, 1.0], "the next cast only");
    w.player.invulnerable = 0.0;
    w.step(&Controls::default(), &[]);
    assert!(w.events().iter().any(|e| e.kind == EventKind::PlayerDamaged));
    assert!(relic_events(w.events(), RelicRule::HurtCastBudget).is_empty(), "once a wave");
}

// ---- R-REL-1: the heals inside the wave (R-LOOP-1 fills HP between waves) ----

fn heal_events(w: &World, rule: RelicRule) -> Vec<(f32, f32)> {
    relic_events(w.events(), rule).iter().map(|e| (e.b, e.value)).collect()
}

/// burning_blood: an elite's death heals at once, whatever killed it; a
/// plain enemy's heals nothing; never above max HP, never the dead.
#[test]
fn an_elites_death_heals_and_a_plain_enemys_does_not() {
    let mut w = world(10.0, 0.0, 300.0);
    w.set_relic_rules(RelicRules { heal_on_elite_kill: 6.0, ..Default::default() }).unwrap();
    let kill = |w: &mut World, x: f32| {
        w.step(&Controls::default(), &[Command::DamageNearest { x, y: CENTRE.1, amount: 1e6 }]);
        let killed = w.events().iter().filter(|e| e.kind == EventKind::EnemyKilled).count();
        assert_eq!(killed, 1);
    };
    w.player.hp = 50.0;
    kill(&mut w, CENTRE.0 + 300.0);
    assert_eq!(w.player.hp, 50.0, "a plain enemy's death");
    assert!(heal_events(&w, RelicRule::HealOnEliteKill).is_empty());
    w.spawn_enemy(0, true, CENTRE.0 + 600.0, CENTRE.1).unwrap();
    kill(&mut w, CENTRE.0 + 600.0);
    assert_eq!(w.player.hp, 56.0, "an elite's death heals 6");
    let event = relic_events(w.events(), RelicRule::HealOnEliteKill)[0];
    assert_eq!((event.b, event.x, event.y, event.value), (0.0, CENTRE.0 + 600.0, CENTRE.1, 6.0));
    w.player.hp = 97.0;
    w.spawn_enemy(0, true, CENTRE.0 + 600.0, CENTRE.1).unwrap();
    kill(&mut w, CENTRE.0 + 600.0);
    assert_eq!(w.player.hp, 100.0, "never above max HP");
    assert_eq!(heal_events(&w, RelicRule::HealOnEliteKill), [(0.0, 3.0)], "the HP restored");
    w.player.hp = 0.0;
    w.player.alive = false;
    w.spawn_enemy(0, true, CENTRE.0 + 600.0, CENTRE.1).unwrap();
    kill(&mut w, CENTRE.0 + 600.0);
    assert_eq!(w.player.hp, 0.0, "the dead heal nothing");
    assert!(heal_events(&w, RelicRule::HealOnEliteKill).is_empty());
}

/// blood_vial: on the wave clock's tick that reaches its moment (30 s: the
/// 1800th tick from `begin_wave`), once; again the next wave.
#[test]
fn the_wave_clock_heals_once_at_its_moment_each_wave() {
    let mut w = world(1e9, 0.0, 300.0);
    let rules = RelicRules { heal_at_wave_time: 2.0, heal_at_wave_time_seconds: 30.0, ..Default::default() };
    w.set_relic_rules(rules).unwrap();
    for wave in 0..2 {
        w.player.hp = 50.0;
        for tick in 1..1800 {
            w.step(&Controls::default(), &[]);
            assert!(heal_events(&w, RelicRule::HealAtWaveTime).is_empty(), "wave {wave}, tick {tick}");
        }
        assert_eq!(w.player.hp, 50.0, "wave {wave}: nothing before 30 s");
        w.step(&Controls::default(), &[]);
        assert_eq!(w.player.hp, 52.0, "wave {wave}: 2 at 30 s");
        assert_eq!(heal_events(&w, RelicRule::HealAtWaveTime), [(0.0, 2.0)]);
        for _ in 0..2000 {
            w.step(&Controls::default(), &[]);
            assert!(heal_events(&w, RelicRule::HealAtWaveTime).is_empty(), "wave {wave}: once");
        }
        assert_eq!(w.player.hp, 52.0);
        w.begin_wave();
    }
    // A moment of 0 s is the wave's first tick; at full HP it restores nothing (but acts).
    w.set_relic_rules(RelicRules { heal_at_wave_time: 2.0, ..Default::default() }).unwrap();
    w.player.hp = w.player.hp_max;
    w.step(&Controls::default(), &[]);
    assert_eq!(heal_events(&w, RelicRule::HealAtWaveTime), [(0.0, 0.0)]);
}

/// meat_on_bone: the first frame of a wave that ends with HP at or below
/// half heals 12 — a touch that takes HP there heals in its own frame —
/// once a wave, again the next; never the dead; a threshold of 0 never acts.
#[test]
fn falling_to_half_hp_heals_once_a_wave() {
    let mut w = world(1e9, 6.0, 300.0);
    let rules = RelicRules { heal_when_low: 12.0, heal_when_low_threshold: 0.5, ..Default::default() };
    w.set_relic_rules(rules).unwrap();
    w.player.hp = 51.0;
    w.step(&Controls::default(), &[]);
    assert_eq!(w.player.hp, 51.0, "above half: nothing");
    w.player.hp = 50.0;
    w.step(&Controls::default(), &[]);
    assert_eq!(w.player.hp, 62.0, "at half: 12");
    assert_eq!(heal_events(&w, RelicRule::HealWhenLow), [(0.0, 12.0)]);
    w.player.hp = 20.0;
    for _ in 0..600 {
        w.step(&Controls::default(), &[]);
        assert!(heal_events(&w, RelicRule::HealWhenLow).is_empty(), "once a wave");
    }
    assert_eq!(w.player.hp, 20.0);
    w.begin_wave();
    // Next wave, a touch for 6 from 55 takes HP to 49: healed in the same frame.
    w.player.hp = 55.0;
    w.set_player_position(CENTRE.0 + 295.0, CENTRE.1).unwrap();
    w.step(&Controls::default(), &[]);
    let hurt: Vec<f32> = w.events().iter().filter(|e| e.kind == EventKind::PlayerDamaged).map(|e| e.value).collect();
    assert_eq!(hurt, [6.0]);
    assert_eq!(w.player.hp, 61.0);
    assert_eq!(heal_events(&w, RelicRule::HealWhenLow), [(0.0, 12.0)]);
    // The dead heal nothing (and do not spend it).
    w.begin_wave();
    w.set_player_position(CENTRE.0, CENTRE.1).unwrap();
    (w.player.hp, w.player.alive) = (0.0, false);
    w.step(&Controls::default(), &[]);
    assert!(heal_events(&w, RelicRule::HealWhenLow).is_empty());
    assert!(!w.relic_state().low_heal_done);
    // A threshold of 0 never acts.
    let mut w = world(1e9, 0.0, 300.0);
    w.set_relic_rules(RelicRules { heal_when_low: 12.0, ..Default::default() }).unwrap();
    w.player.hp = 1.0;
    w.step(&Controls::default(), &[]);
    assert_eq!(w.player.hp, 1.0);
}

// ---- arguments, hash, determinism -----------------------------------------

#[test]
fn bad_rules_are_refused_and_change_nothing() {
    let mut w = world(1.0, 0.0, 300.0);
    w.set_relic_rules(RelicRules { thorns: 3.0, ..Default::default() }).unwrap();
    assert!(w.set_relic_rules(RelicRules { first_action_bonus: -1.0, ..Default::default() }).is_err());
    assert_eq!(w.relic_rules().thorns, 3.0);
}

/// Every rule the relics of seed 000 set, by name, with the parameters (a rule added later stays 0 here).
fn all_rules() -> RelicRules {
    let mut rules = RelicRules::default();
    for (name, value) in [
        ("pen_nib_period", 10.0),
        ("first_action_bonus", 8.0),
        ("damage_floor", 5.0),
        ("thorns", 3.0),
        ("first_cast_budget", 2.0),
        ("hurt_cast_budget", 3.0),
        ("hurt_ward", 3.0),
        ("vulnerable_weak", 1.0),
        ("heal_on_elite_kill", 6.0),
        ("heal_at_wave_time", 2.0),
        ("heal_at_wave_time_seconds", 30.0),
        ("heal_when_low", 12.0),
        ("heal_when_low_threshold", 0.5),
    ] {
        assert!(rules.set(name, value), "{name}");
    }
    rules
}

#[test]
fn relic_rules_and_counters_are_in_the_state_hash() {
    let a = world(1e9, 0.0, 300.0);
    let mut b = a.clone();
    b.set_relic_rules(all_rules()).unwrap();
    assert_ne!(a.state_hash(), b.state_hash());
    let mut c = world(1e9, 0.0, 20.0);
    bolt_every_tick(&mut c, 5.0);
    c.set_relic_rules(all_rules()).unwrap();
    let d = c.clone();
    c.step(&Controls::default(), &[]);
    let mut e = d.clone();
    e.step(&Controls::default(), &[]);
    assert_eq!(c.state_hash(), e.state_hash());
    let mut f = d;
    f.begin_wave();
    assert_ne!(f.state_hash(), c.state_hash());
}

/// R-DET-1: the rules added after hashes were recorded (the heals inside the
/// wave) are in the hash while on — each rule and each parameter alone —, and
/// a world with them off hashes as it did before they existed (the goldens).
#[test]
fn rules_hashed_while_on_change_the_hash_only_when_on() {
    use artificer_core::sim::relics::Hashed;
    let a = world(1e9, 0.0, 300.0);
    let mut seen = vec![a.state_hash()];
    for spec in RelicRules::SPECS.iter().filter(|spec| spec.hashed == Hashed::WhileOn) {
        for name in std::iter::once(spec.name).chain(spec.param.map(|p| p.name)) {
            let mut b = a.clone();
            let mut rules = RelicRules::default();
            assert!(rules.set(name, 0.5));
            b.set_relic_rules(rules).unwrap();
            assert!(!seen.contains(&b.state_hash()), "{name} on changes the hash");
            seen.push(b.state_hash());
            b.set_relic_rules(RelicRules::default()).unwrap();
            assert_eq!(b.state_hash(), a.state_hash(), "{name} off: as before");
        }
    }
    let mut low = world(1e9, 0.0, 300.0);
    low.set_relic_rules(RelicRules { heal_when_low: 12.0, heal_when_low_threshold: 0.5, ..Default::default() })
        .unwrap();
    let mut healed = low.clone();
    healed.player.hp = 10.0;
    healed.step(&Controls::default(), &[]);
    assert!(healed.relic_state().low_heal_done);
    let mut spent = healed.clone();
    spent.player.hp = low.player.hp;
    let mut fresh = low.clone();
    fresh.step(&Controls::default(), &[]);
    assert_ne!(spent.state_hash(), fresh.state_hash(), "the wave's heal spent is state");
}

/// R-DET-1: a busy world with every rule on gives the same hash on one
/// thread and two.
#[test]
fn deterministic_on_one_and_two_threads_with_every_rule_on() {
    let run = |threads: usize| {
        let mut w = stress_world(3000, 5000, Layout::Crowd, 5, &common::tuning());
        w.set_threads(threads).unwrap();
        w.set_relic_rules(all_rules()).unwrap();
        bolt_every_tick(&mut w, 2.0);
        let mut relic_events = 0;
        for f in 0..120 {
            let status = Command::ApplyStatus { status: Status::Vulnerable, x: 2000.0, y: 2000.0, seconds: 1.0 };
            let commands = if f % 30 == 0 { vec![status] } else { vec![] };
            w.step(&Controls::default(), &commands);
            relic_events += w.events().iter().filter(|e| e.kind == EventKind::Relic).count();
        }
        (w.state_hash(), relic_events)
    };
    let one = run(1);
    assert!(one.1 > 0);
    assert_eq!(one, run(2));
}
