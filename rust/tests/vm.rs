//! The spell VM against GAME_RULES §2–§4: one test per opcode and rule id,
//! on a small hand-made catalog (the shipped catalog is tested from Python).

mod common;

use artificer_core::sim::config::Element;
use artificer_core::vm::board::{CoreDef, Dir};
use artificer_core::vm::compile::{Compiler, Recipe};
use artificer_core::vm::exec::{CastOutput, Caster, Senses, VmEvent};
use artificer_core::vm::mana::Mana;
use artificer_core::vm::program::{Program, Warning};
use artificer_core::vm::sample::{self, catalog};
use artificer_core::vm::spell::*;

fn id(name: &str) -> u16 {
    sample::index(name)
}

fn recipes() -> Vec<Recipe> {
    vec![Recipe {
        id: "plasma".into(),
        inputs: (id("water_wave"), id("chain_bolt")),
        product: id("plasma_storm"),
        anywhere: false,
    }]
}

fn compile(core: &CoreDef, names: &[&str]) -> Program {
    let cards: Vec<Option<u16>> = names.iter().map(|n| if n.is_empty() { None } else { Some(id(n)) }).collect();
    let spells = catalog();
    let recipes = recipes();
    Compiler::new(&spells, &recipes).compile(core, &cards).unwrap()
}

fn starter(slots: usize) -> CoreDef {
    CoreDef::row("starter", slots, 100.0, 5.0, 0.25, 20)
}

fn caster(core: &CoreDef, names: &[&str], mana: f32) -> Caster {
    let program = compile(core, names);
    let mut m = Mana::new(core.mana_max, core.mana_regen, common::mana_rules());
    m.current = mana;
    Caster::new(
        program,
        m,
        common::cast_rules(),
        core.cast_delay,
        core.recharge,
        core.cpu_limit,
        core.flags.persistent_memory,
        core.flags.infinite_spells,
        1,
    )
}

fn senses() -> Senses {
    Senses { hp: 100.0, hp_max: 100.0, moving: false, nearest_enemy: f32::INFINITY }
}

/// One cast: (spell ids fired, mana after, events).
fn cast(c: &mut Caster) -> (Vec<String>, f32, Vec<VmEvent>) {
    let mut out = CastOutput::default();
    c.cast(&mut senses(), &mut out);
    let names = catalog();
    (out.emissions.iter().map(|e| names[e.spell as usize].id.clone()).collect(), c.mana.current, out.events)
}

// ---- R-MANA-9: the seed's six runtime tests -------------------------------

/// R-MANA-9 (2): `[damage_plus, spark_bolt]` at full mana spends 20.
#[test]
fn r_mana_9_damage_plus_spark_spends_20() {
    let mut c = caster(&starter(2), &["damage_plus", "spark_bolt"], 100.0);
    let (fired, mana, _) = cast(&mut c);
    assert_eq!(fired, ["spark_bolt"]);
    assert_eq!(mana, 80.0);
}

/// R-MANA-9 (3), R-MANA-6: mana 3 fires nothing, and the timer still resets.
#[test]
fn r_mana_9_three_mana_fires_nothing_and_the_timer_resets() {
    let mut c = caster(&starter(3), &["spark_bolt", "spark_bolt", "spark_bolt"], 3.0);
    c.mana.regen = 0.0;
    let mut out = CastOutput::default();
    assert!(c.tick(1.0 / 60.0, &mut senses(), &mut out));
    assert!(out.emissions.is_empty());
    assert!(matches!(out.events[0], VmEvent::CastAbandoned { node: 0 }));
    assert!(c.timer > 0.2, "holding your breath: the cast delay still runs ({})", c.timer);
}

/// R-MANA-9 (4), R-MANA-3: mana 8, double cast, [spark, spark]: the first
/// fires, the second can't be paid and the rest is abandoned.
#[test]
fn r_mana_9_double_cast_with_8_mana_fires_the_first_only() {
    let mut c = caster(&starter(3), &["double_cast", "spark_bolt", "spark_bolt"], 8.0);
    let (fired, mana, events) = cast(&mut c);
    assert_eq!(fired, ["spark_bolt"]);
    assert_eq!(mana, 1.0);
    assert!(events.iter().any(|e| matches!(e, VmEvent::CastAbandoned { node: 2 })));
}

/// R-MANA-6 generalised: a cast abandoned before anything fired costs
/// nothing — the multicast and modifier it paid for come back.
#[test]
fn r_mana_6_a_cast_that_fires_nothing_costs_nothing() {
    let mut c = caster(&starter(3), &["double_cast", "damage_plus", "spark_bolt"], 18.0);
    let (fired, mana, events) = cast(&mut c);
    assert!(fired.is_empty());
    assert!(events.iter().any(|e| matches!(e, VmEvent::CastAbandoned { node: 2 })));
    assert_eq!(mana, 18.0, "double cast (2) and damage plus (15) are not spent on nothing");
}

/// R-MANA-3 with the refund: a wand that opens with a multicast fires
/// again once its pool refills — it does not pay the multicast on every
/// attempt and starve (the "death spiral").
#[test]
fn r_mana_3_a_multicast_first_wand_recovers_from_an_empty_pool() {
    let mut c = caster(&starter(4), &["double_cast", "spark_bolt", "spark_bolt", "spark_bolt"], 0.0);
    let mut fired = 0;
    for _ in 0..600 {
        let mut out = CastOutput::default();
        c.tick(1.0 / 60.0, &mut senses(), &mut out);
        fired += out.emissions.len();
    }
    // 10 s at 5 mana/s: 50 mana, 5 per spark and 2 per double cast. Without
    // the refund the pool never climbs past the double cast (2 mana an
    // attempt, 1.25 regained between attempts) and nothing ever fires.
    assert!(fired >= 5, "the wand kept firing as its mana came back ({fired} shots)");
}

/// R-MANA-9 (6): damage and pierce modifiers still apply when affordable.
#[test]
fn r_mana_9_modifiers_behave_when_affordable() {
    let mut c = caster(&starter(3), &["damage_plus", "pierce_plus", "spark_bolt"], 100.0);
    let mut out = CastOutput::default();
    c.cast(&mut senses(), &mut out);
    let e = out.emissions[0];
    assert_eq!((e.shot.damage_flat, e.shot.pierce), (5.0, 2));
    assert_eq!(c.mana.current, 100.0 - 15.0 - 8.0 - 5.0);
}

// ---- R-VM-3: one cast ------------------------------------------------------

/// R-VM-3: the budget is 1; the second action waits for the next cast, and
/// nodes after the cast's end cost nothing (R-MANA-4).
#[test]
fn r_vm_3_budget_of_one_and_unexecuted_nodes_are_free() {
    let mut c = caster(&starter(2), &["spark_bolt", "spark_bolt"], 100.0);
    let (fired, mana, _) = cast(&mut c);
    assert_eq!((fired.len(), mana), (1, 95.0));
}

/// R-VM-3 + §3.8 Shotgun: triple cast fires three spread bolts at once.
#[test]
fn r_vm_3_shotgun_fires_three_spread_bolts() {
    let mut c = caster(&starter(5), &["triple_cast", "spread_mod", "spark_bolt", "spark_bolt", "spark_bolt"], 100.0);
    let mut out = CastOutput::default();
    c.cast(&mut senses(), &mut out);
    assert_eq!(out.emissions.len(), 3);
    let mut angles: Vec<f32> = out.emissions.iter().map(|e| e.angle).collect();
    angles.sort_by(|a, b| a.partial_cmp(b).unwrap());
    assert!(angles[0] < -0.05 && angles[2] > 0.05, "fanned out: {angles:?}");
    assert_eq!(c.mana.current, 100.0 - 4.0 - 0.0 - 15.0);
}

// ---- R-VM-4/5: triggers and summons ----------------------------------------

/// R-VM-4, R-MANA-5: a trigger's carrier fires now and pays for its
/// payload up front; the payload runs later, free; modifiers before it
/// shape the carrier, after it the payload.
#[test]
fn r_vm_4_trigger_payload_runs_later_and_free() {
    let mut c = caster(&starter(4), &["fire_infusion", "trigger_on_hit", "ice_infusion", "spark_bolt"], 100.0);
    let mut out = CastOutput::default();
    c.cast(&mut senses(), &mut out);
    assert_eq!(out.emissions.len(), 1);
    let carrier = out.emissions[0];
    assert_eq!(carrier.shot.element, Some(Element::Fire));
    let (kind, _, payload) = carrier.trigger.expect("a carrier");
    assert_eq!(kind, TriggerKind::OnHit);
    assert_eq!(c.mana.current, 100.0 - 8.0 - (10.0 + 8.0 + 5.0), "the payload is paid with its trigger");
    let mut later = CastOutput::default();
    c.run_free(payload, &mut senses(), &mut later);
    assert_eq!(later.emissions.len(), 1);
    assert_eq!(later.emissions[0].shot.element, Some(Element::Ice));
    assert_eq!(c.mana.current, 69.0, "payloads don't pay again");
}

/// R-VM-4: payloads nest — a trigger inside a payload is a carrier too.
#[test]
fn r_vm_4_payloads_nest() {
    let mut c = caster(&starter(3), &["trigger_on_hit", "trigger_timer_long", "spark_bolt"], 100.0);
    let mut out = CastOutput::default();
    c.cast(&mut senses(), &mut out);
    let (_, _, outer) = out.emissions[0].trigger.unwrap();
    let mut inner = CastOutput::default();
    c.run_free(outer, &mut senses(), &mut inner);
    let (kind, delay, payload) = inner.emissions[0].trigger.unwrap();
    assert_eq!((kind, delay), (TriggerKind::Timer, 1.0));
    let mut last = CastOutput::default();
    c.run_free(payload, &mut senses(), &mut last);
    assert_eq!(last.emissions.len(), 1);
}

/// §3.8 Nuke delivery: `[trigger_timer 1s][speed_zero][damage_plus][damage_plus][nuke]`
/// on a core whose pool affords it (R-MANA-7).
#[test]
fn nuke_delivery_compiles_to_a_timed_carrier_with_a_boosted_nuke() {
    let heavy = CoreDef::row("heavy", 5, 260.0, 10.0, 0.5, 20);
    let mut c = caster(&heavy, &["trigger_timer_long", "speed_zero", "damage_plus", "damage_plus", "nuke"], 260.0);
    let mut out = CastOutput::default();
    c.cast(&mut senses(), &mut out);
    let (kind, delay, payload) = out.emissions[0].trigger.unwrap();
    assert_eq!((kind, delay), (TriggerKind::Timer, 1.0));
    let mut boom = CastOutput::default();
    c.run_free(payload, &mut senses(), &mut boom);
    let nuke = boom.emissions[0];
    assert_eq!(nuke.action.kind, ActionKind::Blast);
    assert_eq!(nuke.shot.speed_mult, 0.0);
    assert_eq!(nuke.shot.damage_flat, 10.0);
}

/// R-MANA-7: nuke costs more than the base pool holds.
#[test]
fn r_mana_7_nuke_needs_a_bigger_pool() {
    let mut c = caster(&starter(1), &["nuke"], 100.0);
    let (fired, _, events) = cast(&mut c);
    assert!(fired.is_empty() && matches!(events[0], VmEvent::CastAbandoned { .. }));
}

/// R-VM-5: a summon takes the following nodes as its own program.
#[test]
fn r_vm_5_summon_takes_the_following_nodes() {
    let mut c = caster(&starter(3), &["summon_turret", "chain_bolt", "vampiric"], 100.0);
    let mut out = CastOutput::default();
    c.cast(&mut senses(), &mut out);
    assert_eq!(out.emissions.len(), 1);
    let program = out.emissions[0].summon.expect("a summon");
    assert_eq!(program.len(), 2);
    assert_eq!(c.mana.current, 70.0);
    let mut shots = CastOutput::default();
    c.run_free(program, &mut senses(), &mut shots);
    assert_eq!(shots.emissions.len(), 1);
}

// ---- R-VM-6/7/8: logic ----------------------------------------------------

/// R-VM-6, R-MANA-4: a false gate skips its span, and the skipped node is free.
#[test]
fn r_vm_6_gate_skips_its_span_for_free() {
    let mut c = caster(&starter(3), &["if_moving", "damage_plus", "spark_bolt"], 100.0);
    let mut out = CastOutput::default();
    c.cast(&mut senses(), &mut out);
    assert_eq!(out.emissions[0].shot.damage_flat, 0.0);
    assert_eq!(c.mana.current, 95.0);
    let mut moving = Senses { moving: true, ..senses() };
    let mut out = CastOutput::default();
    c.cast(&mut moving, &mut out);
    assert_eq!(out.emissions[0].shot.damage_flat, 5.0);
}

/// R-VM-6: if_hp_low reads the player's HP.
#[test]
fn r_vm_6_if_hp_low() {
    let mut c = caster(&starter(3), &["if_hp_low", "damage_plus", "spark_bolt"], 100.0);
    let mut hurt = Senses { hp: 20.0, ..senses() };
    let mut out = CastOutput::default();
    c.cast(&mut hurt, &mut out);
    assert_eq!(out.emissions[0].shot.damage_flat, 5.0);
}

/// R-VM-7: a loop's nodes spend the budget; the gatling loop grants its own.
#[test]
fn r_vm_7_loop_spends_budget_gatling_grants_it() {
    let mut plain = caster(&starter(2), &["loop", "spark_bolt"], 100.0);
    assert_eq!(cast(&mut plain).0.len(), 1);
    let mut gatling = caster(&starter(2), &["gatling_loop", "spark_bolt"], 100.0);
    let (fired, mana, _) = cast(&mut gatling);
    assert_eq!(fired.len(), 5);
    assert_eq!(mana, 75.0, "loop bodies pay (R-MANA-5)");
}

/// R-VM-8: a cast stops after cpu_limit × 8 node-steps.
#[test]
fn r_vm_8_step_budget_bounds_a_cast() {
    let mut c = caster(&starter(3), &["big_loop", "reg_add_a", "if_moving"], 100.0);
    let (_, _, events) = cast(&mut c);
    assert!(events.contains(&VmEvent::CpuExhausted));
    assert!(c.registers[0] <= 20 * 8);
}

/// R-VM-6: halt ends the cast.
#[test]
fn halt_ends_the_cast() {
    let mut c = caster(&starter(3), &["double_cast", "halt", "spark_bolt"], 100.0);
    assert!(cast(&mut c).0.is_empty());
}

/// R-REG-1/2: the raw register program "A+1 → if A<3 end → A=0 → spark"
/// and the packaged Charge Counter both fire once every 3 casts.
#[test]
fn r_reg_2_charge_counter_fires_every_n_casts() {
    let mut raw = caster(&starter(4), &["reg_add_a", "halt_if_a_lt", "reg_set_a", "spark_bolt"], 100.0);
    let mut packaged = caster(&starter(2), &["charge_counter", "spark_bolt"], 100.0);
    let raw_fired: Vec<usize> = (0..6).map(|_| cast(&mut raw).0.len()).collect();
    let packaged_fired: Vec<usize> = (0..6).map(|_| cast(&mut packaged).0.len()).collect();
    assert_eq!(raw_fired, [0, 0, 1, 0, 0, 1]);
    assert_eq!(packaged_fired, [0, 0, 1, 0, 0, 1]);
}

/// R-REG-2: Kill Combo(2) fires once 2 kills have accumulated, then resets.
#[test]
fn r_reg_2_kill_combo() {
    let mut c = caster(&starter(2), &["kill_combo", "spark_bolt"], 100.0);
    assert!(cast(&mut c).0.is_empty());
    c.kills = 2;
    assert_eq!(cast(&mut c).0.len(), 1);
    assert_eq!(c.kills, 0);
    assert!(cast(&mut c).0.is_empty());
}

/// R-REG-1: registers reset at a wave start unless the memory persists.
#[test]
fn r_reg_1_registers_reset_each_wave() {
    let mut c = caster(&starter(2), &["reg_add_a", "spark_bolt"], 100.0);
    cast(&mut c);
    assert_eq!(c.registers[0], 1);
    c.begin_wave();
    assert_eq!(c.registers[0], 0);
}

// ---- R-VM-9, R-VM-1/2: compile diagnostics ------------------------------

/// R-VM-9: cards past the CPU limit are dropped, with the warning.
#[test]
fn r_vm_9_cpu_limit_drops_nodes() {
    let tight = CoreDef::row("tight", 4, 100.0, 5.0, 0.25, 3);
    let p = compile(&tight, &["damage_plus", "spark_bolt", "chain_bolt", "spark_bolt"]);
    assert_eq!(p.diagnostics.cpu_used, 5);
    assert_eq!(p.main.len(), 2);
    assert_eq!(p.diagnostics.dropped_slots, [2, 3]);
    assert!(p.diagnostics.warnings.contains(&Warning::CpuExceeded));
    assert!(p.diagnostics.warnings.contains(&Warning::CpuHigh));
}

/// R-VM-1/2: no action, a trigger with nothing after it, a modifier that
/// modifies nothing.
#[test]
fn r_vm_1_2_warnings() {
    let p = compile(&starter(2), &["damage_plus", "halt"]);
    assert!(!p.can_fire());
    assert!(p.diagnostics.warnings.contains(&Warning::ModifierModifiesNothing));
    let p = compile(&starter(2), &["trigger_on_hit", "halt"]);
    assert!(p.can_fire());
    assert!(p.diagnostics.warnings.contains(&Warning::TriggerWithoutAction));
    // R-VM-4: at the deck's end a payload draws on from the head: an action before it will do.
    let p = compile(&starter(2), &["spark_bolt", "trigger_on_hit"]);
    assert!(!p.diagnostics.warnings.contains(&Warning::TriggerWithoutAction));
    let p = compile(&starter(3), &["damage_plus", "halt", "halt"]);
    assert!(p.diagnostics.warnings.contains(&Warning::ModifierModifiesNothing));
    let p = compile(&starter(2), &["damage_plus", "spark_bolt"]);
    assert!(p.diagnostics.warnings.is_empty(), "{:?}", p.diagnostics.warnings);
}

/// R-RES-1: water wave + chain bolt side by side fuse into plasma storm.
#[test]
fn r_res_1_adjacent_fusion() {
    let p = compile(&starter(3), &["chain_bolt", "water_wave", "spark_bolt"]);
    assert_eq!(p.diagnostics.fusions, ["plasma"]);
    assert_eq!(p.main.len(), 2);
    assert_eq!(p.nodes[0].spell, id("plasma_storm"));
    let apart = compile(&starter(3), &["chain_bolt", "spark_bolt", "water_wave"]);
    assert!(apart.diagnostics.fusions.is_empty());
}

// ---- R-BOARD-*: boards ----------------------------------------------------

/// R-BOARD-2: a slot's bonus multiplies the neighbour's numbers.
#[test]
fn r_board_2_adjacency_bonus() {
    let mut core = starter(2);
    core.slots[0].bonus = Some((Dir::Right, 2.0));
    let mut c = caster(&core, &["", "spark_bolt"], 100.0);
    let mut out = CastOutput::default();
    c.cast(&mut senses(), &mut out);
    assert_eq!(out.emissions[0].action.damage, 6.0);
}

/// R-BOARD-1/3: a splitter on a fork runs both routes, each with a copy of
/// the shot state and a budget of 1; a route's cards affect only it.
#[test]
fn r_board_3_splitter_routes() {
    let (core, cards) = common::splitter_fork(starter(1));
    let mut c = caster(&core, &cards, 100.0);
    let mut out = CastOutput::default();
    c.cast(&mut senses(), &mut out);
    let shots: Vec<(Option<Element>, f32)> =
        out.emissions.iter().map(|e| (e.shot.element, e.shot.damage_flat)).collect();
    assert_eq!(shots, [(Some(Element::Fire), 5.0), (Some(Element::Ice), 5.0)]);
    assert_eq!(c.mana.current, 100.0 - 15.0 - 8.0 - 5.0 - 8.0 - 5.0, "both routes pay (R-MANA-5)");
}

// ---- R-CORE-4 and R-VM-12 --------------------------------------------------

/// R-VM-12, R-CORE-4: on a persistent-memory core the deck walks one card
/// per cast and wraps without recharge.
#[test]
fn r_vm_12_cursor_three_sparks() {
    let mut core = starter(3);
    core.flags.persistent_memory = true;
    core.recharge = 0.5;
    let mut c = caster(&core, &["spark_bolt", "damage_plus", "spark_bolt"], 100.0);
    let mut fired = Vec::new();
    for _ in 0..4 {
        let mut out = CastOutput::default();
        let delay = c.cast(&mut senses(), &mut out);
        fired.push((out.emissions.iter().map(|e| e.shot.damage_flat).collect::<Vec<_>>(), delay, c.cursor()));
    }
    assert_eq!(fired[0], (vec![0.0], 0.25, 1));
    assert_eq!(fired[1], (vec![5.0], 0.25 + 0.1, 0), "deck exhausted: wraps, no recharge");
    assert_eq!(fired[2], (vec![0.0], 0.25, 1));
}

/// R-VM-12: a double cast that runs off the end wraps to the head.
#[test]
fn r_vm_12_cursor_double_cast_wraps() {
    let mut core = starter(3);
    core.flags.persistent_memory = true;
    core.recharge = 0.5;
    let mut c = caster(&core, &["spark_bolt", "double_cast", "spark_bolt"], 100.0);
    assert_eq!(cast(&mut c).0.len(), 1); // spark 0, cursor 1
    let mut out = CastOutput::default();
    let delay = c.cast(&mut senses(), &mut out);
    assert_eq!(out.emissions.len(), 2, "double cast: spark 2, wrap, spark 0");
    assert!((delay - 0.25).abs() < 1e-6, "persistent memory wraps without recharge");
    assert_eq!(c.cursor(), 0, "and goes home, as every wrap does (R-VM-3)");
}

/// R-CORE-4 dual_stream: each cast runs the program forward from its head
/// and again from its tail.
#[test]
fn r_core_4_dual_stream() {
    let mut core = starter(2);
    core.flags.dual_stream = true;
    let mut c = caster(&core, &["spark_bolt", "chain_bolt"], 100.0);
    let (fired, ..) = cast(&mut c);
    assert_eq!(fired, ["spark_bolt", "chain_bolt"]);
}

/// R-CORE-4 infinite_spells: pays HP at 1 per 5 mana, never below 1.
#[test]
fn r_core_4_infinite_spells_pays_hp() {
    let mut core = starter(1);
    core.flags.infinite_spells = true;
    let mut c = caster(&core, &["chain_bolt"], 0.0);
    let mut s = Senses { hp: 20.0, ..senses() };
    let mut out = CastOutput::default();
    c.cast(&mut s, &mut out);
    assert_eq!(out.emissions.len(), 1);
    assert_eq!(s.hp, 8.0);
    let mut out = CastOutput::default();
    c.cast(&mut s, &mut out);
    assert!(out.emissions.is_empty(), "would drop below 1 HP");
    assert_eq!(s.hp, 8.0);
}

/// R-VM-11: cast delay = core delay + modifier adds, × (1 − cast speed), floor.
#[test]
fn r_vm_11_cast_delay() {
    let mut c = caster(&starter(2), &["damage_plus", "spark_bolt"], 100.0);
    let mut out = CastOutput::default();
    assert!((c.cast(&mut senses(), &mut out) - 0.35).abs() < 1e-6);
    c.rules.cast_speed = 0.99;
    assert_eq!(c.cast(&mut senses(), &mut out), 0.02);
}

/// The lab's trace: one entry per node that took effect, with mana; off by default.
#[test]
fn trace_reports_each_node_with_mana() {
    let mut c = caster(&starter(2), &["damage_plus", "spark_bolt"], 100.0);
    let (_, _, events) = cast(&mut c);
    assert!(!events.iter().any(|e| matches!(e, VmEvent::Trace { .. })));
    c.trace = true;
    let (_, _, events) = cast(&mut c);
    let trace: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            VmEvent::Trace { node, mana_before, mana_after } => Some((*node, *mana_before, *mana_after)),
            _ => None,
        })
        .collect();
    // The second cast follows at once: the sustained-fire surcharge (R-MANA-8) on damage_plus
    // (15) and spark_bolt (5).
    let surcharge = 1.0 + common::mana_rules().streak_step;
    let after_plus = 80.0 - 15.0 * surcharge;
    assert_eq!(trace, [(0, 80.0, after_plus), (1, after_plus, after_plus - 5.0 * surcharge)]);
}

/// R-VM-3b, R-VM-5: where no draw wraps — a program core, a summon's program —
/// a modifier after the last action shapes that action (the vampire turret
/// of §3.8 is written `[…][chain_bolt][vampiric]`).
#[test]
fn trailing_modifiers_shape_the_last_action_where_nothing_wraps() {
    let mut logic = starter(3);
    logic.flags.program = true;
    let mut c = caster(&logic, &["spark_bolt", "damage_plus", "vampiric"], 100.0);
    c.restart = true;
    let mut out = CastOutput::default();
    c.cast(&mut senses(), &mut out);
    assert_eq!((out.emissions[0].shot.damage_flat, out.emissions[0].shot.lifesteal), (5.0, 0.2));
    assert!(c.program.diagnostics.warnings.is_empty());
}

/// R-VM-3: on a deck core the trailing modifiers stay last and shape what the
/// wrap draws: spark, then damage_plus + vampiric + spark (wrapped). Noita's
/// `[spark, damage_plus]`. No "modifies nothing" warning: they do.
#[test]
fn trailing_modifiers_on_a_deck_core_shape_the_wrap() {
    let mut c = caster(&starter(3), &["spark_bolt", "damage_plus", "vampiric"], 100.0);
    let mut out = CastOutput::default();
    c.cast(&mut senses(), &mut out);
    assert_eq!((out.emissions[0].shot.damage_flat, out.emissions[0].shot.lifesteal), (0.0, 0.0));
    out.clear();
    c.cast(&mut senses(), &mut out);
    assert_eq!((out.emissions[0].shot.damage_flat, out.emissions[0].shot.lifesteal), (5.0, 0.2));
    assert_eq!(c.cursor(), 0);
    assert!(c.program.diagnostics.warnings.is_empty(), "{:?}", c.program.diagnostics.warnings);
}

/// The disassembler prints one line per node with its card and op.
#[test]
fn disassembler_lists_nodes() {
    let p = compile(&starter(3), &["trigger_on_hit", "damage_plus", "spark_bolt"]);
    let names: Vec<String> = catalog().into_iter().map(|s| s.id).collect();
    let text = p.disassemble(&names);
    assert!(text.contains("TRIGGER OnHit"), "{text}");
    assert!(text.contains("payload [1..3)"), "{text}");
    assert!(text.contains("spark_bolt"), "{text}");
}
