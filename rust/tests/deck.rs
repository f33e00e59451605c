//! The deck (GAME_RULES R-VM-3, 3b, 3c, 4, 5, 12, R-BOARD-3, R-REG-2,
//! R-CORE-4, R-MANA-3/5, R-STAT-1): one test per rule of the cursor, on the
//! small hand-made catalog of `vm::sample`.

mod common;

use artificer_core::vm::board::{CoreDef, Slot};
use artificer_core::vm::compile::Compiler;
use artificer_core::vm::exec::{CastOutput, Caster, Senses, VmEvent, MAIN, REVERSE};
use artificer_core::vm::mana::Mana;
use artificer_core::vm::program::{Program, Span, Warning};
use artificer_core::vm::sample::{self, catalog};
use artificer_core::vm::spell::*;
use artificer_core::vm::timeline::timeline;

/// The sample catalog plus a gate guarding two cards.
fn spells() -> Vec<SpellDef> {
    let mut s = catalog();
    s.push(sample::spell(
        "if_moving_2",
        Family::Logic,
        0.0,
        1,
        0.0,
        Effect::Logic(LogicDef::Gate { cond: Cond::Moving, span: 2 }),
    ));
    s
}

fn id(name: &str) -> u16 {
    spells().iter().position(|s| s.id == name).unwrap_or_else(|| panic!("no spell {name}")) as u16
}

fn core(slots: usize) -> CoreDef {
    let mut c = CoreDef::row("deck", slots, 100.0, 5.0, 0.25, 40);
    c.recharge = 0.5;
    c
}

fn compile(core: &CoreDef, names: &[&str], cpu: u32) -> Program {
    let cards: Vec<Option<u16>> = names.iter().map(|n| if n.is_empty() { None } else { Some(id(n)) }).collect();
    Compiler::new(&spells(), &[]).compile_with_cpu(core, &cards, cpu).unwrap()
}

fn caster(core: &CoreDef, names: &[&str], mana: f32) -> Caster {
    let mut m = Mana::new(core.mana_max, core.mana_regen, common::mana_rules());
    m.current = mana;
    let mut c = Caster::new(
        compile(core, names, 0),
        m,
        common::cast_rules(),
        core.cast_delay,
        core.recharge,
        core.cpu_limit,
        core.flags.persistent_memory,
        core.flags.infinite_spells,
        1,
    );
    c.restart = core.flags.program;
    c
}

fn still() -> Senses {
    Senses { hp: 100.0, hp_max: 100.0, moving: false, nearest_enemy: f32::INFINITY }
}

fn moving() -> Senses {
    Senses { moving: true, ..still() }
}

/// One cast: (spell ids fired, its delay, the events).
fn cast_with(c: &mut Caster, senses: Senses) -> (Vec<String>, f32, Vec<VmEvent>) {
    let mut out = CastOutput::default();
    let mut s = senses;
    let delay = c.cast(&mut s, &mut out);
    let names = spells();
    (out.emissions.iter().map(|e| names[e.spell as usize].id.clone()).collect(), delay, out.events)
}

fn cast(c: &mut Caster) -> (Vec<String>, f32) {
    let (fired, delay, _) = cast_with(c, still());
    (fired, delay)
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 1e-5
}

/// R-VM-3: each cast fires the next card; every card on the board fires.
#[test]
fn r_vm_3_casts_walk_the_deck() {
    let mut c = caster(&core(3), &["spark_bolt", "water_wave", "chain_bolt"], 100.0);
    let fired: Vec<Vec<String>> = (0..4).map(|_| cast(&mut c).0).collect();
    assert_eq!(fired, [vec!["spark_bolt"], vec!["water_wave"], vec!["chain_bolt"], vec!["spark_bolt"]]);
}

/// R-VM-3, R-VM-11: the cast that reaches the end is a wrapping cast: the
/// cursor goes home and the wand waits the longer of its cast delay and its
/// recharge (Noita: the reload runs alongside the cast delay).
#[test]
fn r_vm_3_wrap_waits_the_longer_of_delay_and_recharge() {
    let mut c = caster(&core(3), &["spark_bolt", "damage_plus", "spark_bolt"], 100.0);
    let (_, d1) = cast(&mut c);
    assert_eq!(c.cursor(), 1);
    let (fired, d2) = cast(&mut c);
    assert_eq!(fired, ["spark_bolt"]);
    assert!(close(d1, 0.25), "{d1}");
    assert!(close(d2, 0.5), "max(0.25 + damage_plus's 0.1, the recharge 0.5), not their sum: {d2}");
    assert_eq!(c.cursor(), 0);
    assert!(close(cast(&mut c).1, 0.25), "back at the head, no recharge");
    // A slow last card hides the reload: a cast delay above the recharge is the wait.
    let mut slow = core(1);
    slow.cast_delay = 0.75;
    let (_, d) = cast(&mut caster(&slow, &["spark_bolt"], 100.0));
    assert!(close(d, 0.75), "max(0.75, 0.5): {d}");
}

/// R-VM-3: a multicast's extra draws draw on from the head at the end, never
/// reaching a card this cast already ran; the wrapping cast sends the cursor
/// home. Noita: `[spark, double, spark]` fires S | D S S + reload | S | …
#[test]
fn r_vm_3_multicast_across_the_wrap_then_home() {
    let mut c = caster(&core(3), &["spark_bolt", "double_cast", "water_wave"], 100.0);
    assert_eq!(cast(&mut c).0, ["spark_bolt"]);
    let (fired, delay) = cast(&mut c);
    assert_eq!(fired, ["water_wave", "spark_bolt"], "double cast: water, wrap, spark");
    assert!(close(delay, 0.5), "the wrap's wait: max(0.25, 0.5): {delay}");
    assert_eq!(c.cursor(), 0, "a wrapping cast sends the cursor home (Noita's reload)");
    assert_eq!(cast(&mut c).0, ["spark_bolt"], "the head's spark fires alone again");
    assert_eq!(cast(&mut c).0, ["water_wave", "spark_bolt"], "and the cycle repeats");
    // A triple cast with two cards left can't reach itself again.
    let mut c = caster(&core(2), &["triple_cast", "spark_bolt"], 100.0);
    assert_eq!(cast(&mut c).0, ["spark_bolt"], "from the head, the wrap draws nothing more");
}

/// R-VM-3: Noita's `[spark, spark, double]`: S | S | D + S S from the head
/// (reload) | S | S | D S S … — the cursor home after every wrap.
#[test]
fn r_vm_3_a_trailing_multicast_wraps_and_the_deck_starts_over() {
    let mut c = caster(&core(3), &["spark_bolt", "water_wave", "double_cast"], 1000.0);
    let fired: Vec<Vec<String>> = (0..6).map(|_| cast(&mut c).0).collect();
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let cycle = [s(&["spark_bolt"]), s(&["water_wave"]), s(&["spark_bolt", "water_wave"])];
    assert_eq!(fired[..3], cycle);
    assert_eq!(fired[3..], cycle, "the cycle closes after the wrap");
}

/// R-VM-3: a modifier that is the last card is not moved before the last
/// action: it modifies what the wrap draws. Noita's `[spark, damage_plus]`:
/// spark | damage_plus + spark (wrapped, reload) | spark …
#[test]
fn r_vm_3_a_trailing_modifier_modifies_what_the_wrap_draws() {
    let mut c = caster(&core(2), &["spark_bolt", "damage_plus"], 100.0);
    let mut out = CastOutput::default();
    let first = c.cast(&mut still(), &mut out);
    assert_eq!(out.emissions.len(), 1);
    assert!(close(out.emissions[0].shot.damage_flat, 0.0), "the first spark is plain");
    assert!(close(first, 0.25));
    out.clear();
    let second = c.cast(&mut still(), &mut out);
    assert_eq!(out.emissions.len(), 1);
    assert!(out.emissions[0].shot.damage_flat > 0.0, "damage_plus shapes the spark the wrap drew");
    assert!(close(second, 0.5), "a wrapping cast: {second}");
    assert_eq!(c.cursor(), 0);
}

/// R-VM-3: the root draw's budget does not wrap: a cast with root budget
/// left at the end ends there (the wand reloads). With two root draws
/// (bag_of_prep's bonus, or `spells_per_cast` 2), `[spark, water, chain]`
/// fires spark + water, then chain alone + reload.
#[test]
fn r_vm_3_the_root_draw_does_not_wrap() {
    let mut c = caster(&core(3), &["spark_bolt", "water_wave", "chain_bolt"], 1000.0);
    c.bonus_budget = 1;
    assert_eq!(cast(&mut c).0, ["spark_bolt", "water_wave"]);
    c.bonus_budget = 1;
    let (fired, delay) = cast(&mut c);
    assert_eq!(fired, ["chain_bolt"], "root budget left at the end draws nothing from the head");
    assert!(close(delay, 0.5), "reached the end: a wrapping cast");
    assert_eq!(c.cursor(), 0);
}

/// R-MANA-3: an unpaid card is passed over for this trip; the deck goes on,
/// and the card fires on a later trip when the pool allows.
#[test]
fn r_mana_3_an_unpaid_card_is_passed_over() {
    let mut c = caster(&core(3), &["spark_bolt", "chain_bolt", "water_wave"], 30.0);
    assert_eq!(cast(&mut c).0, ["spark_bolt"]);
    let (fired, _, events) = cast_with(&mut c, still());
    assert!(fired.is_empty() && events.iter().any(|e| matches!(e, VmEvent::CastAbandoned { .. })));
    assert_eq!(c.cursor(), 2, "chain_bolt passed over");
    assert_eq!(cast(&mut c).0, ["water_wave"]);
    c.mana.current = 100.0;
    assert_eq!(cast(&mut c).0, ["spark_bolt"]);
    assert_eq!(cast(&mut c).0, ["chain_bolt"], "fires on the next trip, paid");
}

/// R-VM-3: a HALT ends the cast and sends the cursor home; what lies behind
/// an unconditional HALT is unreachable (R-VM-3c).
#[test]
fn r_vm_3_halt_sends_the_cursor_home() {
    let mut c = caster(&core(3), &["spark_bolt", "halt", "water_wave"], 100.0);
    let fired: Vec<usize> = (0..4).map(|_| cast(&mut c).0.len()).collect();
    assert_eq!(fired, [1, 0, 1, 0]);
    assert_eq!(c.cursor(), 0);
    assert_eq!(c.program.diagnostics.unreachable_slots, [2]);
    assert!(c.program.diagnostics.warnings.contains(&Warning::UnreachableSlot));
}

/// R-VM-3: a cast that starts inside a gate's span retests the gate.
#[test]
fn r_vm_3_a_cast_inside_a_gates_span_retests_it() {
    let mut c = caster(&core(3), &["if_moving_2", "spark_bolt", "water_wave"], 100.0);
    assert_eq!(cast_with(&mut c, moving()).0, ["spark_bolt"]);
    assert_eq!(c.cursor(), 2, "rests inside the gate's span");
    let (fired, ..) = cast_with(&mut c, still());
    assert!(fired.is_empty(), "the gate is false now: the rest of its span is skipped: {fired:?}");
    let mut c = caster(&core(3), &["if_moving_2", "spark_bolt", "water_wave"], 100.0);
    cast_with(&mut c, moving());
    assert_eq!(cast_with(&mut c, moving()).0, ["water_wave"], "still true: the span goes on");
}

/// R-VM-3, R-VM-7: a loop is drawn whole within one cast, its actions past
/// the budget skipped and free; the cursor rests after it.
#[test]
fn r_vm_3_a_loop_is_drawn_whole() {
    let mut c = caster(&core(3), &["loop", "spark_bolt", "water_wave"], 100.0);
    let (fired, _) = cast(&mut c);
    assert_eq!(fired, ["spark_bolt"]);
    assert_eq!(c.mana.current, 95.0, "one spark paid, four skipped for free");
    assert_eq!(c.cursor(), 2);
    assert_eq!(cast(&mut c).0, ["water_wave"]);
}

/// R-VM-3, R-REG-1: cursors, registers and counters reset at a wave start;
/// a recompiled wand starts at the head.
#[test]
fn r_vm_3_wave_start_and_recompile_reset_the_deck() {
    let deck = ["reg_add_a", "spark_bolt", "water_wave", "chain_bolt"];
    let mut c = caster(&core(4), &deck, 100.0);
    cast(&mut c);
    cast(&mut c);
    assert_eq!((c.cursor(), c.registers[0]), (3, 1));
    c.begin_wave();
    assert_eq!((c.cursor(), c.registers[0]), (0, 0));
    assert_eq!(cast(&mut c).0, ["spark_bolt"]);
    let recompiled = caster(&core(4), &deck, 100.0);
    assert_eq!(recompiled.cursor(), 0);
}

/// R-CORE-4: persistent_memory keeps the cursor, registers and counters
/// across waves, and wraps without recharge.
#[test]
fn r_core_4_persistent_memory_keeps_the_deck_across_waves() {
    let mut pm = core(3);
    pm.flags.persistent_memory = true;
    let mut c = caster(&pm, &["reg_add_a", "spark_bolt", "water_wave"], 100.0);
    cast(&mut c);
    c.begin_wave();
    assert_eq!((c.cursor(), c.registers[0]), (2, 1));
    let (fired, delay) = cast(&mut c);
    assert_eq!(fired, ["water_wave"]);
    assert!(close(delay, 0.25), "wraps without recharge: {delay}");
}

/// R-VM-3b: a program core restarts at the head every cast; a card behind an
/// action that always fires is unreachable, behind a gate it is not.
#[test]
fn r_vm_3b_program_cores_restart_every_cast() {
    let mut logic = core(3);
    logic.flags.program = true;
    let mut c = caster(&logic, &["spark_bolt", "water_wave", "chain_bolt"], 100.0);
    let fired: Vec<Vec<String>> = (0..3).map(|_| cast(&mut c).0).collect();
    assert_eq!(fired, vec![vec!["spark_bolt".to_string()]; 3]);
    assert_eq!(c.program.diagnostics.unreachable_slots, [1, 2]);
    let mut c = caster(&logic, &["if_moving", "spark_bolt", "water_wave"], 100.0);
    assert!(c.program.diagnostics.unreachable_slots.is_empty());
    assert_eq!(cast_with(&mut c, moving()).0, ["spark_bolt"]);
    let (fired, delay, _) = cast_with(&mut c, still());
    assert_eq!(fired, ["water_wave"], "the gate chose the other card");
    assert!(close(delay, 0.5), "reached the end: the recharge's wait, and no further draw");
    // On a deck core the same cards are all reachable.
    assert!(compile(&core(3), &["spark_bolt", "water_wave", "chain_bolt"], 0).diagnostics.unreachable_slots.is_empty());
}

/// R-VM-12: dual_stream walks two cursors, forward from the head and back
/// from the tail, each with a budget of 1; the wand reloads once if either
/// wrapped, and a reload sends both cursors home.
#[test]
fn r_vm_12_dual_stream_walks_two_cursors() {
    let mut dual = core(3);
    dual.flags.dual_stream = true;
    let mut c = caster(&dual, &["spark_bolt", "water_wave", "damage_plus"], 1000.0);
    let mut c_delays = Vec::new();
    let mut fired = Vec::new();
    for _ in 0..4 {
        let (f, d) = cast(&mut c);
        fired.push(f);
        c_delays.push(d);
    }
    // The forward stream walks [spark, water, damage_plus], the reverse
    // [damage_plus, water, spark]: nothing is moved on a deck core.
    assert_eq!(fired[0], ["spark_bolt", "water_wave"], "forward spark; backward damage_plus + water");
    assert!(close(c_delays[0], 0.25 + 0.1), "damage_plus's delay: {c_delays:?}");
    assert_eq!(fired[1], ["water_wave", "spark_bolt"], "forward water; backward spark at its end");
    assert!(close(c_delays[1], 0.5), "the reverse stream wrapped: one reload: {c_delays:?}");
    assert_eq!((c.cursors[MAIN], c.cursors[REVERSE]), (0, 3), "a reload sends both cursors home");
    assert_eq!(fired[2], fired[0], "a new cycle");
    assert_eq!(fired[3], fired[1]);
}

/// R-REG-2: Charge Counter counts each pass of the cursor and skips its span
/// short of N, like a false gate; the deck goes on past it.
#[test]
fn r_reg_2_charge_counter_counts_passes() {
    let mut c = caster(&core(3), &["charge_counter", "chain_bolt", "spark_bolt"], 1000.0);
    let fired: Vec<Vec<String>> = (0..5).map(|_| cast(&mut c).0).collect();
    assert_eq!(fired[0], ["spark_bolt"], "pass 1: chain skipped, the spark fires");
    assert_eq!(fired[1], ["spark_bolt"]);
    assert_eq!(fired[2], ["chain_bolt"], "pass 3 opens the span");
    assert_eq!(fired[3], ["spark_bolt"], "the span stays open for the rest of the pass");
    assert_eq!(fired[4], ["spark_bolt"], "pass 4: closed again");
}

/// R-REG-2: Kill Combo counts kills; short of N it skips its span.
#[test]
fn r_reg_2_kill_combo_counts_kills() {
    let mut c = caster(&core(3), &["kill_combo", "chain_bolt", "spark_bolt"], 1000.0);
    assert_eq!(cast(&mut c).0, ["spark_bolt"]);
    c.kills = 2;
    assert_eq!(cast(&mut c).0, ["chain_bolt"]);
    assert_eq!(c.kills, 0);
}

/// R-VM-4, R-MANA-5: a trigger's payload is what a budget-1 draw takes
/// after it; the cursor passes it, and the next cast fires the next card.
#[test]
fn r_vm_4_the_payload_is_one_draw_and_the_cursor_passes_it() {
    let mut c = caster(&core(3), &["trigger_on_hit", "spark_bolt", "water_wave"], 100.0);
    let mut out = CastOutput::default();
    c.cast(&mut still(), &mut out);
    let (_, _, payload) = out.emissions[0].trigger.unwrap();
    assert_eq!((payload.first.len(), payload.from_head.len()), (1, 0), "the payload is the spark only");
    assert_eq!(c.mana.current, 100.0 - 10.0 - 5.0, "paid up front");
    assert_eq!(cast(&mut c).0, ["water_wave"]);
}

/// R-VM-4: a payload that runs off the end draws on from the head, and the
/// cast is a wrapping cast. Noita's `[spark, trigger_on_hit]`: spark, then
/// the trigger carrying a spark drawn from the head (reload), then spark…
#[test]
fn r_vm_4_a_payload_draws_on_from_the_head() {
    let mut c = caster(&core(2), &["spark_bolt", "trigger_on_hit"], 100.0);
    assert!(
        !c.program.diagnostics.warnings.contains(&Warning::TriggerWithoutAction),
        "the wrap gives it an action: {:?}",
        c.program.diagnostics.warnings
    );
    assert_eq!(cast(&mut c).0, ["spark_bolt"]);
    let before = c.mana.current;
    let mut out = CastOutput::default();
    let delay = c.cast(&mut still(), &mut out);
    assert_eq!(out.emissions.len(), 1, "the carrier alone leaves now");
    let (_, _, payload) = out.emissions[0].trigger.unwrap();
    assert_eq!((payload.first.len(), payload.from_head), (0, Span::new(0, 1)), "the spark from the head");
    assert!(before - c.mana.current > 10.0, "the head's spark is paid with the trigger: {}", before - c.mana.current);
    assert!(close(delay, 0.5), "a wrapping cast: {delay}");
    assert_eq!(c.cursor(), 0);
    let names = spells();
    let mut later = CastOutput::default();
    c.run_free(payload, &mut still(), &mut later);
    let fired: Vec<&str> = later.emissions.iter().map(|e| names[e.spell as usize].id.as_str()).collect();
    assert_eq!(fired, ["spark_bolt"], "on hit, the payload fires the spark");
    assert_eq!(cast(&mut c).0, ["spark_bolt"], "the deck starts over");
    // A cast that began at the head has nothing left to draw there: the carrier flies empty.
    let mut c = caster(&core(1), &["trigger_on_hit"], 100.0);
    let mut out = CastOutput::default();
    c.cast(&mut still(), &mut out);
    let (_, _, payload) = out.emissions[0].trigger.unwrap();
    assert!(payload.first.is_empty() && payload.from_head.is_empty());
}

/// R-VM-3b: on a program core a payload stops at the end: it never wraps.
#[test]
fn r_vm_3b_a_payload_on_a_program_core_never_wraps() {
    let mut logic = core(3);
    logic.flags.program = true;
    let mut c = caster(&logic, &["if_moving", "spark_bolt", "trigger_on_hit"], 100.0);
    let mut out = CastOutput::default();
    c.cast(&mut still(), &mut out);
    let (_, _, payload) = out.emissions[0].trigger.unwrap();
    assert!(payload.from_head.is_empty(), "still: the gate skipped the spark; the trigger's payload stops at the end");
    assert!(c.program.diagnostics.warnings.contains(&Warning::TriggerWithoutAction));
}

/// R-MANA-5, R-MANA-7: the nuke gate holds through a trigger's payload: a
/// 100-mana core can't fire the nuke delivery, a bigger pool can.
#[test]
fn r_mana_7_the_nuke_gate_holds_through_a_payload() {
    let deck = ["trigger_timer_long", "speed_zero", "damage_plus", "damage_plus", "nuke"];
    let mut small = caster(&core(5), &deck, 100.0);
    assert!(small.program.diagnostics.warnings.contains(&Warning::CostAboveMax));
    for _ in 0..5 {
        assert!(cast(&mut small).0.is_empty(), "never fires on a 100-mana core");
    }
    let mut siege = core(5);
    siege.mana_max = 300.0;
    let mut big = caster(&siege, &deck, 300.0);
    assert_eq!(cast(&mut big).0, ["trigger_timer_long"]);
    assert_eq!(big.mana.current, 300.0 - (10.0 + 8.0 + 15.0 + 15.0 + 200.0));
}

/// R-MANA-5: a summon's casts walk its program as a deck and draw the
/// player's pool at the summon's share; with the pool empty it holds its fire.
#[test]
fn r_mana_5_summon_casts_draw_the_pool() {
    let mut c = caster(&core(3), &["summon_turret", "spark_bolt", "water_wave"], 40.0);
    let mut out = CastOutput::default();
    c.cast(&mut still(), &mut out);
    let program = out.emissions[0].summon.unwrap();
    assert_eq!(c.mana.current, 10.0, "the summon paid its own 30");
    let mut cursor = program.start;
    let names = spells();
    let mut shots = Vec::new();
    for _ in 0..3 {
        let mut o = CastOutput::default();
        let fired = c.cast_summon(program, &mut cursor, 0.5, &mut still(), &mut o);
        shots.push((
            fired,
            o.emissions.iter().map(|e| names[e.spell as usize].id.clone()).collect::<Vec<_>>(),
            c.mana.current,
        ));
    }
    assert_eq!(shots[0], (true, vec!["spark_bolt".to_string()], 7.5), "half of 5");
    assert_eq!(shots[1], (false, vec![], 7.5), "water costs 10 at half price: it holds");
    assert_eq!(cursor, program.start + 1, "and waits on the unpaid card");
    c.mana.current = 20.0;
    let mut o = CastOutput::default();
    assert!(c.cast_summon(program, &mut cursor, 0.5, &mut still(), &mut o));
    assert_eq!(c.mana.current, 10.0);
}

/// R-BOARD-3: a splitter is paid, each route is a deck with its own cursor,
/// and the main cursor wraps to the head after it.
#[test]
fn r_board_3_splitter_routes_are_decks() {
    let mut fork = core(6);
    fork.slots = vec![
        Slot { x: 0, y: 1, bonus: None, next: vec![1] },
        Slot { x: 1, y: 1, bonus: None, next: vec![2, 4] },
        Slot { x: 2, y: 0, bonus: None, next: vec![3] },
        Slot { x: 3, y: 0, bonus: None, next: vec![] },
        Slot { x: 2, y: 2, bonus: None, next: vec![5] },
        Slot { x: 3, y: 2, bonus: None, next: vec![] },
    ];
    let mut c =
        caster(&fork, &["spark_bolt", "splitter", "water_wave", "chain_bolt", "damage_plus", "spark_bolt"], 1000.0);
    assert_eq!(cast(&mut c).0, ["spark_bolt"]);
    let before = c.mana.current;
    let (fired, delay) = cast(&mut c);
    assert_eq!(fired, ["water_wave", "spark_bolt"], "upper route's first card, lower route's");
    // Water, damage_plus and the lower spark (the splitter costs 0), at R-MANA-8's surcharge of a
    // consecutive cast.
    let paid = (20.0 + 15.0 + 5.0) * (1.0 + common::mana_rules().streak_step);
    assert!((before - c.mana.current - paid).abs() < 1e-4, "splitter paid: {}", before - c.mana.current);
    assert!(close(delay, 0.5), "the main draw ended at the splitter: a wrapping cast, max(0.35, 0.5)");
    assert_eq!(c.cursor(), 0);
    assert_eq!(cast(&mut c).0, ["spark_bolt"]);
    assert_eq!(cast(&mut c).0, ["chain_bolt", "spark_bolt"], "the upper route's cursor moved on");
    assert_eq!(cast(&mut c).0, ["spark_bolt"]);
    let (fired, _) = cast(&mut c);
    assert_eq!(fired, ["water_wave", "spark_bolt"], "the upper route wrapped: home within that cast's reload");
}

/// R-VM-12: every entry has its own cursor; an on_kill entry that wraps is
/// locked for the recharge.
#[test]
fn r_vm_12_entries_have_their_own_cursors() {
    let mut reactive = core(4);
    reactive.slots = vec![
        Slot { x: 0, y: 0, bonus: None, next: vec![1] },
        Slot { x: 1, y: 0, bonus: None, next: vec![] },
        Slot { x: 0, y: 1, bonus: None, next: vec![3] },
        Slot { x: 1, y: 1, bonus: None, next: vec![] },
    ];
    reactive.on_kill = Some(2);
    let mut c = caster(&reactive, &["spark_bolt", "water_wave", "chain_bolt", "spark_bolt"], 1000.0);
    let names = spells();
    let entry = |c: &mut Caster| {
        let mut o = CastOutput::default();
        let ran = c.run_entry(artificer_core::vm::exec::ON_KILL, &mut still(), &mut o);
        (ran, o.emissions.iter().map(|e| names[e.spell as usize].id.clone()).collect::<Vec<_>>())
    };
    assert_eq!(entry(&mut c), (true, vec!["chain_bolt".to_string()]));
    assert_eq!(cast(&mut c).0, ["spark_bolt"], "the main cursor is its own");
    assert_eq!(entry(&mut c), (true, vec!["spark_bolt".to_string()]), "wrapped: now locked");
    assert!(!entry(&mut c).0, "locked for the recharge");
    c.hold(0.6);
    assert_eq!(entry(&mut c), (true, vec!["chain_bolt".to_string()]));
    assert_eq!(c.cursors[MAIN], 1);
}

/// R-STAT-1: the CPU stat raises the compile-time CPU limit, so fewer cards drop.
#[test]
fn r_stat_1_cpu_raises_the_compile_limit() {
    let tight = CoreDef::row("tight", 4, 100.0, 5.0, 0.25, 3);
    let deck = ["damage_plus", "spark_bolt", "chain_bolt", "spark_bolt"];
    assert_eq!(compile(&tight, &deck, 0).diagnostics.dropped_slots, [2, 3]);
    let p = compile(&tight, &deck, 2);
    assert_eq!((p.diagnostics.cpu_limit, p.diagnostics.dropped_slots.len()), (5, 0));
}

/// R-VM-3c: the timeline runs the casts until the deck repeats, with what
/// each spends and its delay; burst, sustained and "runs dry".
#[test]
fn r_vm_3c_the_timeline_shows_the_cycle() {
    let c = caster(&core(3), &["spark_bolt", "damage_plus", "water_wave"], 100.0);
    let t = timeline(&c, still());
    assert!(t.cycle_complete);
    let slots: Vec<Vec<u16>> = t.casts.iter().map(|k| k.slots.clone()).collect();
    assert_eq!(slots, [vec![0], vec![1, 2]]);
    assert!(close(t.casts[0].mana, 5.0));
    assert!(t.casts[1].mana > 35.0 - 1e-3, "sustained growth included: {}", t.casts[1].mana);
    assert!(t.casts[1].recharged && !t.casts[0].recharged);
    assert!(close(t.cycle_seconds, 0.25 + 0.5), "the wrapping cast waits max(0.35, 0.5)");
    assert!(close(t.burst_dps, (3.0 + (4.0 + 5.0)) / t.cycle_seconds), "{}", t.burst_dps);
    assert!(t.demand > t.regen && t.sustained_dps < t.burst_dps);
    let dry = t.dry_after_s.expect("demand beyond regen runs dry");
    let lower = 100.0 / t.demand;
    assert!(dry >= lower && dry < 60.0, "a full pool lasts between {lower} s and the run: {dry}");
    // A wand that regen keeps up with never runs dry.
    let mut slow = core(1);
    slow.mana_regen = 100.0;
    let t = timeline(&caster(&slow, &["spark_bolt"], 100.0), still());
    assert_eq!((t.casts.len(), t.dry_after_s), (1, None));
    assert!(close(t.sustained_dps, t.burst_dps));
}

/// R-VM-3c: a card off every entry's path (on a fork's lower branch with no
/// splitter card to take it) is never compiled, and is reported unreachable.
#[test]
fn r_vm_3c_a_card_off_every_path_is_unreachable() {
    let mut fork = core(4);
    fork.slots = vec![
        Slot { x: 0, y: 1, bonus: None, next: vec![1, 3] },
        Slot { x: 1, y: 0, bonus: None, next: vec![2] },
        Slot { x: 2, y: 0, bonus: None, next: vec![] },
        Slot { x: 1, y: 2, bonus: None, next: vec![] },
    ];
    let p = compile(&fork, &["spark_bolt", "water_wave", "", "chain_bolt"], 0);
    assert_eq!(p.diagnostics.unreachable_slots, [3]);
    assert!(p.diagnostics.warnings.contains(&Warning::UnreachableSlot));
    let with_splitter = compile(&fork, &["splitter", "water_wave", "", "chain_bolt"], 0);
    assert!(with_splitter.diagnostics.unreachable_slots.is_empty());
}

/// R-CORE-1, R-VM-3: `spells_per_cast` is the root budget of a main cast, and
/// the root draw does not wrap. Noita, spells per cast 2, `[S S S]`: S S | S +
/// reload | S S …
#[test]
fn r_core_1_spells_per_cast_is_the_root_budget() {
    let mut two = core(3);
    two.spells_per_cast = 2;
    let mut c = caster(&two, &["spark_bolt", "water_wave", "chain_bolt"], 1000.0);
    let (first, d1) = cast(&mut c);
    assert_eq!(first, ["spark_bolt", "water_wave"]);
    assert!(close(d1, 0.25));
    let (second, d2) = cast(&mut c);
    assert_eq!(second, ["chain_bolt"], "root budget left at the end does not draw from the head");
    assert!(close(d2, 0.5), "a wrapping cast: {d2}");
    assert_eq!(cast(&mut c).0, first, "the cycle closes");
    // A core that gives 0 or too many is refused by the core itself.
    two.spells_per_cast = 0;
    assert!(two.validate().unwrap_err().contains("spells_per_cast"));
}

/// R-VM-12: each dual_stream cursor gets the core's spells per cast.
#[test]
fn r_vm_12_each_dual_stream_cursor_gets_spells_per_cast() {
    let mut dual = core(4);
    dual.flags.dual_stream = true;
    dual.spells_per_cast = 2;
    let mut c = caster(&dual, &["spark_bolt", "water_wave", "chain_bolt", "spark_bolt"], 1000.0);
    assert_eq!(cast(&mut c).0, ["spark_bolt", "water_wave", "spark_bolt", "chain_bolt"]);
}

fn always(c: &mut CoreDef, names: &[&str]) {
    c.always_cast = names.iter().map(|n| id(n)).collect();
}

/// R-VM-13: an always-cast modifier shapes every action of every main cast,
/// free, without moving the cursor or using CPU.
#[test]
fn r_vm_13_an_always_cast_modifier_shapes_every_cast() {
    let mut plus = core(2);
    always(&mut plus, &["damage_plus"]);
    let mut c = caster(&plus, &["spark_bolt", "water_wave"], 100.0);
    assert_eq!(
        c.program.diagnostics.cpu_used,
        compile(&core(2), &["spark_bolt", "water_wave"], 0).diagnostics.cpu_used
    );
    for (k, expected) in ["spark_bolt", "water_wave", "spark_bolt"].iter().enumerate() {
        let before = c.mana.current;
        let mut out = CastOutput::default();
        let delay = c.cast(&mut still(), &mut out);
        assert_eq!(out.emissions.len(), 1, "cast {k}");
        assert_eq!(spells()[out.emissions[0].spell as usize].id, *expected, "the deck walks as without it");
        assert!(out.emissions[0].shot.damage_flat > 0.0, "cast {k}: damage_plus shapes the action");
        let plain = if *expected == "spark_bolt" { 5.0 } else { 20.0 };
        assert!(before - c.mana.current <= plain * 1.5 + 1e-3, "the always-cast card costs nothing");
        assert!(delay >= 0.25 + 0.1 - 1e-5, "its delay counts: {delay}");
    }
    assert!(c.program.diagnostics.warnings.is_empty(), "{:?}", c.program.diagnostics.warnings);
}

/// R-VM-13: an always-cast action fires beside the deck's on its own
/// budget, free whatever the pool — even when the deck's card can't be paid.
#[test]
fn r_vm_13_an_always_cast_action_fires_beside_the_deck() {
    let mut spark = core(2);
    always(&mut spark, &["spark_bolt"]);
    let mut c = caster(&spark, &["water_wave", "chain_bolt"], 1000.0);
    assert_eq!(cast(&mut c).0, ["spark_bolt", "water_wave"]);
    assert_eq!(cast(&mut c).0, ["spark_bolt", "chain_bolt"]);
    c.mana.current = 0.0;
    let (fired, _, events) = cast_with(&mut c, still());
    assert_eq!(fired, ["spark_bolt"], "the deck's water is unpaid; the always-cast spark still fires");
    assert!(events.iter().any(|e| matches!(e, VmEvent::CastAbandoned { .. })));
    // Triggers, multicasts and summons are refused.
    for bad in ["trigger_on_hit", "double_cast", "summon_turret"] {
        let mut core = core(2);
        always(&mut core, &[bad]);
        let cards = [Some(id("spark_bolt")), None];
        let refused = Compiler::new(&spells(), &[]).compile(&core, &cards).unwrap_err();
        assert!(refused.contains("always_cast[0]"), "{bad}: {refused}");
    }
}

/// R-VM-3c: the timeline is drawn with the real pool: a card priced above the
/// core's mana is passed over every time, named as unpaid, and adds nothing
/// to burst or sustained DPS (a nuke on a 100-mana core used to show firing).
#[test]
fn r_vm_3c_a_card_the_pool_can_never_pay_adds_nothing() {
    let small = core(2);
    let c = caster(&small, &["spark_bolt", "nuke"], 100.0);
    let t = timeline(&c, still());
    let nuke_slot = 1u16;
    assert!(t.casts.iter().all(|k| !k.slots.contains(&nuke_slot)), "the nuke never takes effect");
    assert!(t.casts.iter().any(|k| k.unpaid.contains(&nuke_slot)), "and is named unpaid");
    let spark_only = timeline(&caster(&core(1), &["spark_bolt"], 100.0), still());
    assert!(t.burst_dps <= spark_only.burst_dps + 1e-3, "burst {} counts the spark alone", t.burst_dps);
    assert!(t.sustained_dps <= t.burst_dps + 1e-3, "the nuke's 200 never reach the sustained figure either");
    // A pool that can pay it: the nuke counts.
    let mut big = core(2);
    big.mana_max = 1000.0;
    let t = timeline(&caster(&big, &["spark_bolt", "nuke"], 1000.0), still());
    assert!(t.casts.iter().any(|k| k.slots.contains(&nuke_slot)) && t.burst_dps > spark_only.burst_dps * 2.0);
}

/// R-VM-3c: a card no full pool could pay does not make the wand "run dry":
/// the spark beside it never does on a pool that regenerates faster.
#[test]
fn r_vm_3c_an_unpayable_card_is_not_running_dry() {
    let mut rich = core(2);
    rich.mana_regen = 1000.0;
    let t = timeline(&caster(&rich, &["spark_bolt", "nuke"], 100.0), still());
    assert_eq!(t.dry_after_s, None);
}

/// R-VM-3c: a Charge Counter counted on a wrap's draw from the head leaves a
/// few casts before the wand settles into its cycle; the timeline finds the
/// cycle (the memory comes back to one it had) and shows that, instead of
/// running 64 casts that never close.
#[test]
fn r_vm_3c_the_timeline_finds_a_cycle_that_does_not_start_at_the_head() {
    let c = caster(&core(3), &["charge_counter", "spark_bolt", "damage_plus"], 1000.0);
    let t = timeline(&c, still());
    assert!(t.cycle_complete, "{} casts", t.casts.len());
    let sparks: usize = t.casts.iter().map(|k| k.fired.len()).sum();
    assert_eq!(sparks, 1, "the counter lets the spark through once a cycle");
    assert!(t.casts.len() <= 8);
}

/// R-VM-14, R-VM-11: a card's recharge add counts when a cast draws it (a
/// negative one shortens the reload, never below zero), a payload's with its
/// trigger; the chainsaw sets the cast delay drawn so far to zero.
#[test]
fn r_vm_14_cards_change_the_recharge_and_the_delay() {
    let mut spells = spells();
    let mut reduce = sample::spell("reduce_recharge", Family::Modifier, 0.0, 1, 0.0, sample::modifier(|_| {}));
    reduce.recharge = -0.4;
    let mut heavy =
        sample::spell("heavy_recharge", Family::Action, 0.0, 1, 0.0, spells[id("spark_bolt") as usize].effect.clone());
    heavy.recharge = 1.5;
    let mut chainsaw =
        sample::spell("chainsaw", Family::Action, 0.0, 1, 0.0, spells[id("spark_bolt") as usize].effect.clone());
    chainsaw.resets_delay = true;
    spells.extend([reduce, heavy, chainsaw]);
    let n = spells.len();
    let (reduce, heavy, chainsaw) = (n as u16 - 3, n as u16 - 2, n as u16 - 1);
    let at = |name: &str| spells.iter().position(|s| s.id == name).unwrap() as u16;
    let cast_all = |cards: &[u16]| -> Vec<f32> {
        let core = core(cards.len());
        let placed: Vec<Option<u16>> = cards.iter().map(|&c| Some(c)).collect();
        let program = Compiler::new(&spells, &[]).compile(&core, &placed).unwrap();
        let mana = Mana::new(1000.0, 0.0, common::mana_rules());
        let mut c = Caster::new(program, mana, common::cast_rules(), 0.25, 0.5, 40, false, false, 1);
        (0..cards.len()).map(|_| c.cast(&mut still(), &mut CastOutput::default())).collect()
    };
    // One card, wrapping every cast: the recharge 0.5 - 0.4 = 0.1 hides under the delay 0.25.
    assert!(close(cast_all(&[reduce, at("spark_bolt")])[1], 0.25));
    // A heavy recharge add: 0.5 + 1.5 = 2.0 s after the wrapping cast.
    assert!(close(cast_all(&[heavy])[0], 2.0));
    // A trigger carries its payload's recharge add.
    assert!(close(cast_all(&[at("trigger_on_hit"), heavy])[0], 2.0));
    // The chainsaw: damage_plus's 0.1 is wiped; the core's 0.25 remains (it is not a card's).
    let d = cast_all(&[at("damage_plus"), chainsaw, at("spark_bolt")])[0];
    assert!(close(d, 0.25), "damage_plus's delay reset by the chainsaw: {d}");
}

/// Review mends (issue 43), each a rule the first cut missed.
#[test]
fn r_vm_4_a_payload_inside_a_loop_does_not_draw_from_the_head() {
    let mut c = caster(&core(4), &["double_cast", "spark_bolt", "loop", "trigger_on_hit"], 1000.0);
    let mut out = CastOutput::default();
    c.cast(&mut still(), &mut out);
    for e in &out.emissions {
        if let Some((_, _, payload)) = e.trigger {
            assert!(payload.from_head.is_empty(), "inside a loop drawn whole, the head is not drawn again");
        }
    }
}

#[test]
fn r_vm_13_an_always_cast_modifier_after_an_always_cast_action_still_counts() {
    let mut both = core(1);
    always(&mut both, &["spark_bolt", "damage_plus"]);
    let mut c = caster(&both, &["water_wave"], 1000.0);
    let mut out = CastOutput::default();
    let delay = c.cast(&mut still(), &mut out);
    let water = out.emissions.iter().find(|e| spells()[e.spell as usize].id == "water_wave").unwrap();
    assert!(water.shot.damage_flat > 0.0, "damage_plus shapes the deck's action");
    assert!(delay >= 0.5 - 1e-5, "a wrapping cast: max(0.25 + 0.1, 0.5)");
}

#[test]
fn r_vm_5_a_summons_deck_goes_home_after_a_wrap() {
    let c0 = caster(&core(4), &["summon_turret", "spark_bolt", "water_wave", "double_cast"], 1000.0);
    let program = match c0.program.nodes[0].op {
        artificer_core::vm::program::Op::Summon { program, .. } => program,
        _ => panic!("a summon"),
    };
    let mut c = c0.clone();
    let mut cursor = program.start;
    let names = spells();
    let mut casts = Vec::new();
    for _ in 0..4 {
        let mut out = CastOutput::default();
        c.cast_summon(program, &mut cursor, 1.0, &mut still(), &mut out);
        casts.push(out.emissions.iter().map(|e| names[e.spell as usize].id.clone()).collect::<Vec<_>>().join(" "));
    }
    assert_eq!(casts, ["spark_bolt", "water_wave", "spark_bolt water_wave", "spark_bolt"], "S | W | D S W | S");
}

#[test]
fn r_mana_5_a_payload_head_the_pool_cannot_pay_abandons_the_cast() {
    let mut c = caster(&core(2), &["chain_bolt", "trigger_on_hit"], 1000.0);
    cast(&mut c);
    c.mana.current = 12.0; // the trigger, not the chain bolt it would carry from the head
    let (fired, _, events) = cast_with(&mut c, still());
    assert!(fired.is_empty(), "the carrier does not fly with half its payload: {fired:?}");
    assert!(events.iter().any(|e| matches!(e, VmEvent::CastAbandoned { .. })));
}

#[test]
fn r_vm_3c_reach_counts_spells_per_cast_on_a_program_core() {
    let mut logic = core(2);
    logic.flags.program = true;
    logic.spells_per_cast = 2;
    assert!(compile(&logic, &["spark_bolt", "water_wave"], 0).diagnostics.unreachable_slots.is_empty());
}

#[test]
fn r_vm_3_a_halt_after_a_wrap_still_reloads() {
    let mut c = caster(&core(3), &["halt", "spark_bolt", "double_cast"], 1000.0);
    c.cursors[MAIN] = 2; // on the double cast: its extra draws wrap to the head, where HALT waits
    let (_, delay) = cast(&mut c);
    assert!(delay >= 0.5 - 1e-5, "the reload had begun: {delay}");
}

/// R-VM-14, R-VM-4 (Noita's Add Trigger at the deck's end): the modifier's
/// projectile takes the card after it as its payload; past the end that is
/// the head's card, drawn on from the head, and the cast reloads.
#[test]
fn r_vm_14_an_added_trigger_at_the_end_carries_the_heads_card() {
    let mut c = caster(&core(3), &["spark_bolt", "add_trigger_hit", "water_wave"], 1000.0);
    assert_eq!(cast(&mut c).0, ["spark_bolt"]);
    let mut out = CastOutput::default();
    let delay = c.cast(&mut still(), &mut out);
    assert_eq!(out.emissions.len(), 1);
    let (kind, _, payload) = out.emissions[0].trigger.expect("water_wave carries a payload");
    assert_eq!(kind, TriggerKind::OnHit);
    assert!(payload.first.is_empty() && payload.from_head.len() == 1, "{payload:?}");
    assert!(close(delay, 0.5), "a wrapping cast: {delay}");
    assert_eq!(c.cursor(), 0);
    let mut later = CastOutput::default();
    c.run_free(payload, &mut still(), &mut later);
    assert_eq!(later.emissions.len(), 1);
    assert_eq!(spells()[later.emissions[0].spell as usize].id, "spark_bolt");
}

/// R-VM-14: an added trigger passes over an action that is not a projectile
/// (a summon keeps its program); the timer kind carries its delay.
#[test]
fn r_vm_14_an_added_trigger_takes_only_a_projectile() {
    let c = caster(&core(3), &["add_trigger_timer", "spark_bolt", "water_wave"], 1000.0);
    let kinds: Vec<_> = c
        .program
        .nodes
        .iter()
        .filter_map(|n| match n.op {
            artificer_core::vm::program::Op::Trigger { kind, delay, .. } => Some((kind, delay)),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, [(TriggerKind::Timer, 0.5)]);
    let summon = caster(&core(3), &["add_trigger_hit", "summon_turret", "spark_bolt"], 1000.0);
    assert!(matches!(summon.program.nodes[1].op, artificer_core::vm::program::Op::Summon { .. }));
}

/// R-VM-14, R-MANA-5: a divided trigger fires its carrier twice; its payload
/// is paid once, with the first.
#[test]
fn r_vm_14_a_divided_trigger_pays_its_payload_once() {
    let mut c = caster(&core(3), &["divide_2", "trigger_on_hit", "spark_bolt"], 100.0);
    let mut out = CastOutput::default();
    c.cast(&mut still(), &mut out);
    assert_eq!(out.emissions.len(), 2);
    assert!(out.emissions.iter().all(|e| e.trigger.is_some()));
    assert!(close(c.mana.current, 100.0 - 10.0 - 10.0 - 5.0), "{}", c.mana.current);
}

/// R-VM-14: add_mana's gift lasts its cast: what the cards after it leave is
/// gone, and a refused payment takes none of it.
#[test]
fn r_vm_14_add_manas_gift_lasts_one_cast() {
    let mut c = caster(&core(3), &["add_mana", "spark_bolt", "spark_bolt"], 50.0);
    cast(&mut c);
    assert!(close(c.mana.current, 50.0), "the spark paid from the gift: {}", c.mana.current);
    cast(&mut c);
    let full = 50.0 - 5.0 * c.mana.surcharge(); // R-MANA-8: the second cast in a row costs a step more
    assert!(close(c.mana.current, full), "the next cast pays in full: {}", c.mana.current);
    // A 200-mana nuke on 100 mana: 30 from the gift is not enough, and nothing is taken.
    let mut poor = caster(&core(2), &["add_mana", "nuke"], 100.0);
    let (fired, _, events) = cast_with(&mut poor, still());
    assert!(fired.is_empty());
    assert!(events.iter().any(|e| matches!(e, VmEvent::CastAbandoned { .. })));
    assert!(close(poor.mana.current, 100.0), "{}", poor.mana.current);
}

/// R-VM-14, R-VM-1: an added trigger whose next action is no projectile (a
/// summon), or that has none before the deck's end, makes no trigger — the
/// lab says so; one before a projectile is fine.
#[test]
fn r_vm_14_an_added_trigger_without_a_projectile_is_warned() {
    let warned = |names: &[&str]| {
        caster(&core(names.len()), names, 1000.0)
            .program
            .diagnostics
            .warnings
            .contains(&Warning::AddedTriggerWithoutProjectile)
    };
    assert!(!warned(&["add_trigger_hit", "spark_bolt", "water_wave"]));
    assert!(warned(&["add_trigger_hit", "summon_turret", "spark_bolt"]));
    assert!(warned(&["spark_bolt", "add_trigger_hit"]));
}

/// R-VM-13, R-VM-14: an add-trigger or a divide acts on the card after it; as
/// an always-cast card it has none, so the core is refused, with its place.
#[test]
fn r_vm_13_an_always_cast_divide_or_added_trigger_is_refused() {
    for card in ["divide_2", "add_trigger_hit"] {
        let mut c = core(1);
        always(&mut c, &[card]);
        let err = Compiler::new(&spells(), &[]).compile(&c, &[Some(id("spark_bolt"))]).unwrap_err();
        assert!(err.contains("always_cast[0]") && err.contains(card), "{err}");
    }
}
