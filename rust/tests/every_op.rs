//! A test for every opcode (STYLE 10, clox's habit; issue 18): each variant of `Op`, `LogicDef`
//! and `Cond`, listed by strum, has a behaviour case that compiles a small wand using it, casts
//! it and checks what the variant does. A variant added without a case fails here, by name; so
//! does a case whose wand does not hold its variant.

mod common;

use std::fmt::Debug;

use artificer_core::sim::config::Element;
use artificer_core::vm::board::CoreDef;
use artificer_core::vm::compile::Compiler;
use artificer_core::vm::exec::{CastOutput, Caster, Senses, VmEvent};
use artificer_core::vm::mana::Mana;
use artificer_core::vm::program::{Op, OpDiscriminants, Program};
use artificer_core::vm::sample::{self, catalog};
use artificer_core::vm::spell::*;
use strum::IntoEnumIterator;

// ---- the wands -------------------------------------------------------------

/// The sample catalog plus the conditions and register it has no card for.
fn spells() -> Vec<SpellDef> {
    let logic = |id: &str, l: LogicDef| sample::spell(id, Family::Logic, 0.0, 1, 0.0, Effect::Logic(l));
    let mut s = catalog();
    s.push(logic("if_enemy_close", LogicDef::Gate { cond: Cond::EnemyClose(100.0), span: 1 }));
    s.push(logic("if_still", LogicDef::Gate { cond: Cond::Still, span: 1 }));
    s.push(logic("if_mana_above", LogicDef::Gate { cond: Cond::ManaAbove(50.0), span: 1 }));
    s.push(logic("halt_if_a_ge", LogicDef::HaltIf(Cond::RegGe(0, 2))));
    s.push(logic("reg_set_b", LogicDef::RegSet { reg: 1, value: 7 }));
    let mut reduce = sample::spell("reduce_recharge", Family::Modifier, 0.0, 1, 0.0, sample::modifier(|_| {}));
    reduce.recharge = -0.4;
    let mut chainsaw = sample::spell("chainsaw", Family::Action, 0.0, 1, 0.0, Effect::Action(sample::bolt(1.0)));
    chainsaw.resets_delay = true;
    s.extend([reduce, chainsaw]);
    s
}

fn id(name: &str) -> u16 {
    spells().iter().position(|s| s.id == name).unwrap_or_else(|| panic!("no spell {name}")) as u16
}

fn name(spell: u16) -> String {
    spells()[spell as usize].id.clone()
}

fn core(slots: usize) -> CoreDef {
    CoreDef::row("every_op", slots, 100.0, 5.0, 0.25, 20)
}

fn caster_on(core: &CoreDef, names: &[&str], mana: f32) -> Caster {
    let cards: Vec<Option<u16>> = names.iter().map(|n| Some(id(n))).collect();
    let program = Compiler::new(&spells(), &[]).compile(core, &cards).unwrap();
    let mut m = Mana::new(core.mana_max, core.mana_regen, common::mana_rules());
    m.current = mana;
    Caster::new(program, m, common::cast_rules(), core.cast_delay, core.recharge, core.cpu_limit, false, false, 1)
}

/// A wand of `names` in a row, its pool at `mana`.
fn caster(names: &[&str], mana: f32) -> Caster {
    caster_on(&core(names.len()), names, mana)
}

fn still() -> Senses {
    Senses { hp: 100.0, hp_max: 100.0, moving: false, nearest_enemy: f32::INFINITY }
}

fn moving() -> Senses {
    Senses { moving: true, ..still() }
}

fn cast_with(c: &mut Caster, mut senses: Senses) -> CastOutput {
    let mut out = CastOutput::default();
    c.cast(&mut senses, &mut out);
    out
}

/// The cards one cast fired, by id.
fn fired(c: &mut Caster) -> Vec<String> {
    cast_with(c, still()).emissions.iter().map(|e| name(e.spell)).collect()
}

/// `[card][damage_plus][spark_bolt]` cast once under `senses`: the spark's flat damage (5 when
/// the gate held and let damage_plus through, 0 when it skipped it), and the program.
fn gated(card: &str, senses: Senses, mana: f32) -> (f32, Program) {
    let mut c = caster(&[card, "damage_plus", "spark_bolt"], mana);
    let out = cast_with(&mut c, senses);
    assert_eq!(out.emissions.len(), 1, "{card}: the spark after the gate fires either way");
    (out.emissions[0].shot.damage_flat, c.program)
}

/// `[card][spark_bolt]` cast once with register A at `a`: whether the card halted the cast.
fn halts(card: &str, a: i32) -> (bool, Program) {
    let mut c = caster(&[card, "spark_bolt"], 100.0);
    c.registers[0] = a;
    (fired(&mut c).is_empty(), c.program)
}

// ---- Op ----------------------------------------------------------------------

/// FIRE: one projectile of the card's action, with the plain shot state, paid at cost.
fn op_fire() -> Program {
    let mut c = caster(&["spark_bolt"], 100.0);
    let out = cast_with(&mut c, still());
    assert_eq!(out.emissions.len(), 1);
    let e = out.emissions[0];
    assert_eq!((name(e.spell), e.action.kind, e.action.damage), ("spark_bolt".into(), ActionKind::Projectile, 3.0));
    assert_eq!((e.shot.damage_flat, e.shot.damage_mult, e.trigger, e.summon), (0.0, 1.0, None, None));
    assert_eq!(c.mana.current, 95.0);
    assert_eq!(out.events, [VmEvent::CastFired { emissions: 1 }]);
    c.program
}

/// SUMMON (R-VM-5): the summon leaves with the rest of the block as its program, which the
/// main cast passes over and the summon's own casts fire at its share of the cost.
fn op_summon() -> Program {
    let mut c = caster(&["summon_turret", "spark_bolt"], 100.0);
    let out = cast_with(&mut c, still());
    assert_eq!(out.emissions.len(), 1, "the main cast does not fire the summon's spark");
    let e = out.emissions[0];
    assert_eq!((name(e.spell), e.action.kind), ("summon_turret".into(), ActionKind::Summon));
    let program = e.summon.expect("a summon carries its program");
    assert_eq!(program.len(), 1);
    assert_eq!(name(c.program.nodes[program.start as usize].spell), "spark_bolt");
    assert_eq!(c.mana.current, 70.0);
    let mut cursor = program.start;
    let mut shots = CastOutput::default();
    assert!(c.cast_summon(program, &mut cursor, 0.5, &mut still(), &mut shots));
    assert_eq!(shots.emissions.iter().map(|e| name(e.spell)).collect::<Vec<_>>(), ["spark_bolt"]);
    assert_eq!(c.mana.current, 67.5, "half of the spark's 5");
    c.program
}

/// MODIFY: the shot state of the actions after it (and the cast delay it adds).
fn op_modify() -> Program {
    let mut bare = caster(&["spark_bolt"], 100.0);
    assert_eq!(cast_with(&mut bare, still()).emissions[0].shot.damage_flat, 0.0);
    let mut c = caster(&["damage_plus", "spark_bolt"], 100.0);
    let mut out = CastOutput::default();
    let delay = c.cast(&mut still(), &mut out);
    assert_eq!(out.emissions[0].shot.damage_flat, 5.0);
    assert!((delay - (0.25 + 0.1)).abs() < 1e-6, "the core's 0.25 s and damage_plus's 0.1 s: {delay}");
    c.program
}

/// MULTICAST(2): two actions in one cast, fanned symmetrically over the card's 10°.
fn op_multicast() -> Program {
    let mut c = caster(&["double_cast", "spark_bolt", "spark_bolt"], 100.0);
    let out = cast_with(&mut c, still());
    let angles: Vec<f32> = out.emissions.iter().map(|e| e.angle).collect();
    assert_eq!(angles, [(-2.5f32).to_radians(), 2.5f32.to_radians()]);
    c.program
}

/// TRIGGER (R-VM-4, R-MANA-5): the carrier fires now with its payload, paid up front; the
/// payload fires later, free.
fn op_trigger() -> Program {
    let mut c = caster(&["trigger_on_hit", "spark_bolt"], 100.0);
    let out = cast_with(&mut c, still());
    assert_eq!(out.emissions.len(), 1, "the cast passes the payload");
    let carrier = out.emissions[0];
    assert_eq!((name(carrier.spell), carrier.action.damage), ("trigger_on_hit".into(), 2.0));
    let (kind, delay, payload) = carrier.trigger.expect("a carrier");
    assert_eq!((kind, delay, payload.first.len()), (TriggerKind::OnHit, 0.0, 1));
    assert_eq!(c.mana.current, 85.0, "the trigger's 10 and its payload's 5");
    let mut later = CastOutput::default();
    c.run_free(payload, &mut still(), &mut later);
    assert_eq!(later.emissions.iter().map(|e| name(e.spell)).collect::<Vec<_>>(), ["spark_bolt"]);
    assert_eq!(c.mana.current, 85.0, "the payload does not pay again");
    c.program
}

// ---- what a card changes in the wand (R-VM-14) ------------------------------

/// A row core with a recharge of 0.5 s.
fn recharging(slots: usize) -> CoreDef {
    let mut c = core(slots);
    c.recharge = 0.5;
    c
}

/// RECHARGE: a card's recharge add counts when a cast draws it (Noita's Reduce Recharge Time:
/// the wrapping cast waits max(0.25, 0.5 - 0.4), not the core's 0.5).
fn change_recharge() -> Program {
    let plain = caster_on(&recharging(1), &["spark_bolt"], 100.0).cast(&mut still(), &mut CastOutput::default());
    assert!((plain - 0.5).abs() < 1e-5, "{plain}");
    let mut c = caster_on(&recharging(2), &["reduce_recharge", "spark_bolt"], 100.0);
    let delay = c.cast(&mut still(), &mut CastOutput::default());
    assert!((delay - 0.25).abs() < 1e-5, "{delay}");
    c.program
}

/// RESETS DELAY: Noita's chainsaw sets the cast delay drawn so far to zero.
fn change_resets_delay() -> Program {
    let mut c = caster(&["damage_plus", "chainsaw"], 100.0);
    let delay = c.cast(&mut still(), &mut CastOutput::default());
    assert!((delay - 0.25).abs() < 1e-5, "damage_plus's 0.1 wiped, the core's 0.25 left: {delay}");
    c.program
}

/// MANA GAIN: add_mana pays 30 of the cards after it (a 60-mana chain bolt fires from a pool of
/// 40, leaving 10); what they leave is lost (a 5-mana spark leaves the pool where it was).
fn change_mana_gain() -> Program {
    let mut c = caster(&["add_mana", "chain_bolt"], 40.0);
    assert_eq!(fired(&mut c), ["chain_bolt"]);
    assert_eq!(c.mana.current, 10.0);
    let mut cheap = caster(&["add_mana", "spark_bolt"], 50.0);
    assert_eq!(fired(&mut cheap), ["spark_bolt"]);
    assert_eq!(cheap.mana.current, 50.0, "no cast nets mana");
    c.program
}

/// ADDS TRIGGER: the next projectile leaves as an on-hit trigger carrying the card after it
/// (Noita's Add Trigger), paid with it up front.
fn change_adds_trigger() -> Program {
    let mut c = caster(&["add_trigger_hit", "spark_bolt", "water_wave"], 100.0);
    let out = cast_with(&mut c, still());
    assert_eq!(out.emissions.len(), 1);
    let carrier = out.emissions[0];
    assert_eq!(name(carrier.spell), "spark_bolt");
    let (kind, _, payload) = carrier.trigger.expect("the spark carries a payload");
    assert_eq!(kind, TriggerKind::OnHit);
    assert_eq!(c.mana.current, 100.0 - 10.0 - 5.0 - 20.0, "the modifier, the spark and its payload");
    let mut later = CastOutput::default();
    c.run_free(payload, &mut still(), &mut later);
    assert_eq!(later.emissions.iter().map(|e| name(e.spell)).collect::<Vec<_>>(), ["water_wave"]);
    c.program
}

/// DIVIDE: the next action fires twice, the copy free, each at 0.6 of the damage (Noita's
/// Divide By 2); two divides in a row multiply (2 x 3 = 6 sparks at 0.6 x 0.45).
fn change_divide() -> Program {
    let mut c = caster(&["divide_2", "spark_bolt"], 100.0);
    let out = cast_with(&mut c, still());
    assert_eq!(out.emissions.len(), 2);
    assert!(out.emissions.iter().all(|e| (e.shot.damage_mult - 0.6).abs() < 1e-6));
    assert_eq!(c.mana.current, 85.0, "the divide's 10 and one spark's 5");
    let mut six = caster(&["divide_2", "divide_3", "spark_bolt"], 100.0);
    let out = cast_with(&mut six, still());
    assert_eq!(out.emissions.len(), 6);
    assert!(out.emissions.iter().all(|e| (e.shot.damage_mult - 0.27).abs() < 1e-6));
    c.program
}

/// LOGIC: the node changes the draw's flow (here a gate: what it guards runs only while moving).
fn op_logic() -> Program {
    assert_eq!(gated("if_moving", still(), 100.0).0, 0.0);
    let (damage, program) = gated("if_moving", moving(), 100.0);
    assert_eq!(damage, 5.0);
    program
}

/// SPLIT (R-BOARD-3): both routes fire in one cast, each with a copy of the shot state.
fn op_split() -> Program {
    let (fork, cards) = common::splitter_fork(core(1));
    let mut c = caster_on(&fork, &cards, 100.0);
    let out = cast_with(&mut c, still());
    let shots: Vec<(Option<Element>, f32)> =
        out.emissions.iter().map(|e| (e.shot.element, e.shot.damage_flat)).collect();
    assert_eq!(shots, [(Some(Element::Fire), 5.0), (Some(Element::Ice), 5.0)]);
    c.program
}

// ---- LogicDef ------------------------------------------------------------------

/// Gate: a false condition skips its span, and the skipped card costs nothing (R-MANA-4).
fn logic_gate() -> Program {
    let mut c = caster(&["if_moving", "damage_plus", "spark_bolt"], 100.0);
    assert_eq!(cast_with(&mut c, still()).emissions[0].shot.damage_flat, 0.0);
    assert_eq!(c.mana.current, 95.0, "damage_plus skipped, not paid");
    gated("if_moving", moving(), 100.0).1
}

/// HaltIf: the cast ends there while the condition holds.
fn logic_halt_if() -> Program {
    assert!(halts("halt_if_a_lt", 0).0, "A = 0 < 3: halted");
    let (halted, program) = halts("halt_if_a_lt", 3);
    assert!(!halted, "A = 3: the spark fires");
    program
}

/// Halt: the cast ends, its multicast unspent, and the cursor goes home.
fn logic_halt() -> Program {
    let mut c = caster(&["double_cast", "halt", "spark_bolt"], 100.0);
    assert!(fired(&mut c).is_empty());
    assert_eq!(c.cursor(), 0);
    c.program
}

/// Loop: its body runs `count` times; the gatling loop grants the budget for each action.
fn logic_loop() -> Program {
    let mut plain = caster(&["loop", "spark_bolt"], 100.0);
    assert_eq!(fired(&mut plain).len(), 1, "a plain loop spends the cast's budget of 1");
    let mut gatling = caster(&["gatling_loop", "spark_bolt"], 100.0);
    assert_eq!(fired(&mut gatling), ["spark_bolt"; 5]);
    assert_eq!(gatling.mana.current, 75.0, "each pass pays");
    gatling.program
}

/// RegSet: the register takes the value.
fn logic_reg_set() -> Program {
    let mut c = caster(&["reg_set_b", "spark_bolt"], 100.0);
    fired(&mut c);
    assert_eq!(c.registers, [0, 7]);
    c.program
}

/// RegAdd: the register grows by the value each pass.
fn logic_reg_add() -> Program {
    let mut c = caster(&["reg_add_a", "spark_bolt"], 100.0);
    for _ in 0..3 {
        fired(&mut c);
    }
    assert_eq!(c.registers, [3, 0]);
    c.program
}

/// ChargeCounter(3) (R-REG-2): its span runs on every third pass.
fn logic_charge_counter() -> Program {
    let mut c = caster(&["charge_counter", "spark_bolt"], 100.0);
    let shots: Vec<usize> = (0..6).map(|_| fired(&mut c).len()).collect();
    assert_eq!(shots, [0, 0, 1, 0, 0, 1]);
    c.program
}

/// KillCombo(2) (R-REG-2): its span runs once 2 kills have accumulated, which it spends.
fn logic_kill_combo() -> Program {
    let mut c = caster(&["kill_combo", "spark_bolt"], 100.0);
    assert!(fired(&mut c).is_empty());
    c.kills = 2;
    assert_eq!(fired(&mut c), ["spark_bolt"]);
    assert_eq!(c.kills, 0);
    assert!(fired(&mut c).is_empty());
    c.program
}

// ---- Cond ----------------------------------------------------------------------

/// HpLow(0.3): HP below 30% of max.
fn cond_hp_low() -> Program {
    let hp = |hp: f32| Senses { hp, ..still() };
    assert_eq!(gated("if_hp_low", hp(100.0), 100.0).0, 0.0);
    assert_eq!(gated("if_hp_low", hp(35.0), 100.0).0, 0.0);
    let (damage, program) = gated("if_hp_low", hp(20.0), 100.0);
    assert_eq!(damage, 5.0);
    program
}

/// EnemyClose(100): the nearest enemy strictly within 100 px.
fn cond_enemy_close() -> Program {
    let enemy = |nearest_enemy: f32| Senses { nearest_enemy, ..still() };
    assert_eq!(gated("if_enemy_close", still(), 100.0).0, 0.0, "no enemy at all");
    assert_eq!(gated("if_enemy_close", enemy(100.0), 100.0).0, 0.0);
    let (damage, program) = gated("if_enemy_close", enemy(50.0), 100.0);
    assert_eq!(damage, 5.0);
    program
}

/// Moving: the player moves.
fn cond_moving() -> Program {
    assert_eq!(gated("if_moving", still(), 100.0).0, 0.0);
    let (damage, program) = gated("if_moving", moving(), 100.0);
    assert_eq!(damage, 5.0);
    program
}

/// Still: the player stands still.
fn cond_still() -> Program {
    assert_eq!(gated("if_still", moving(), 100.0).0, 0.0);
    let (damage, program) = gated("if_still", still(), 100.0);
    assert_eq!(damage, 5.0);
    program
}

/// ManaAbove(50): the pool strictly above 50 when the gate is read.
fn cond_mana_above() -> Program {
    assert_eq!(gated("if_mana_above", still(), 40.0).0, 0.0);
    assert_eq!(gated("if_mana_above", still(), 50.0).0, 0.0);
    let (damage, program) = gated("if_mana_above", still(), 100.0);
    assert_eq!(damage, 5.0);
    program
}

/// RegLt(A, 3): register A below 3.
fn cond_reg_lt() -> Program {
    assert!(halts("halt_if_a_lt", 2).0);
    assert!(halts("halt_if_a_lt", -5).0);
    let (halted, program) = halts("halt_if_a_lt", 3);
    assert!(!halted);
    program
}

/// RegGe(A, 2): register A at least 2.
fn cond_reg_ge() -> Program {
    assert!(!halts("halt_if_a_ge", 1).0);
    assert!(halts("halt_if_a_ge", 3).0);
    let (halted, program) = halts("halt_if_a_ge", 2);
    assert!(halted);
    program
}

// ---- the cases, by variant -----------------------------------------------------

/// A behaviour case: builds and casts a wand using its variant, asserts what the variant does,
/// and hands back the wand's program (which must hold the variant).
type Case = fn() -> Program;

fn op_cases() -> Vec<(OpDiscriminants, Case)> {
    use OpDiscriminants as K;
    vec![
        (K::Fire, op_fire),
        (K::Summon, op_summon),
        (K::Modify, op_modify),
        (K::Multicast, op_multicast),
        (K::Trigger, op_trigger),
        (K::Logic, op_logic),
        (K::Split, op_split),
    ]
}

fn logic_cases() -> Vec<(LogicDefDiscriminants, Case)> {
    use LogicDefDiscriminants as K;
    vec![
        (K::Gate, logic_gate),
        (K::HaltIf, logic_halt_if),
        (K::Halt, logic_halt),
        (K::Loop, logic_loop),
        (K::RegSet, logic_reg_set),
        (K::RegAdd, logic_reg_add),
        (K::ChargeCounter, logic_charge_counter),
        (K::KillCombo, logic_kill_combo),
    ]
}

fn cond_cases() -> Vec<(CondDiscriminants, Case)> {
    use CondDiscriminants as K;
    vec![
        (K::HpLow, cond_hp_low),
        (K::EnemyClose, cond_enemy_close),
        (K::Moving, cond_moving),
        (K::Still, cond_still),
        (K::ManaAbove, cond_mana_above),
        (K::RegLt, cond_reg_lt),
        (K::RegGe, cond_reg_ge),
    ]
}

/// What a program holds, by variant.
fn change_cases() -> Vec<(WandChange, Case)> {
    use WandChange as K;
    vec![
        (K::Recharge, change_recharge),
        (K::ResetsDelay, change_resets_delay),
        (K::ManaGain, change_mana_gain),
        (K::AddsTrigger, change_adds_trigger),
        (K::Divide, change_divide),
    ]
}

fn changes_in(p: &Program) -> Vec<WandChange> {
    let spells = spells();
    p.nodes.iter().flat_map(|n| spells[n.spell as usize].wand_changes()).collect()
}

fn ops_in(p: &Program) -> Vec<OpDiscriminants> {
    p.nodes.iter().map(|n| OpDiscriminants::from(&n.op)).collect()
}

fn logic_in(p: &Program) -> Vec<LogicDefDiscriminants> {
    p.nodes.iter().filter_map(|n| if let Op::Logic(l) = &n.op { Some(l.into()) } else { None }).collect()
}

fn conds_in(p: &Program) -> Vec<CondDiscriminants> {
    let cond = |l: &LogicDef| -> Option<CondDiscriminants> {
        match l {
            LogicDef::Gate { cond, .. } | LogicDef::HaltIf(cond) => Some(cond.into()),
            _ => None,
        }
    };
    p.nodes.iter().filter_map(|n| if let Op::Logic(l) = &n.op { cond(l) } else { None }).collect()
}

/// Runs the case of every variant of `family`; fails naming each variant with no case, a
/// failing case, or a case whose wand does not hold it.
fn every_variant<K>(family: &str, cases: &[(K, Case)], held: fn(&Program) -> Vec<K>)
where
    K: IntoEnumIterator + Copy + PartialEq + Debug,
{
    let mut problems = Vec::new();
    for kind in K::iter() {
        let Some(&(_, case)) = cases.iter().find(|(k, _)| *k == kind) else {
            problems.push(format!("{family}::{kind:?} has no behaviour case"));
            continue;
        };
        match std::panic::catch_unwind(case) {
            Ok(program) if held(&program).contains(&kind) => {}
            Ok(_) => problems.push(format!("{family}::{kind:?}: its case's wand holds no {family}::{kind:?}")),
            Err(_) => problems.push(format!("{family}::{kind:?}: its behaviour case failed (its panic is above)")),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_op_variant_has_a_behaviour_case() {
    every_variant("Op", &op_cases(), ops_in);
}

#[test]
fn every_logic_def_variant_has_a_behaviour_case() {
    every_variant("LogicDef", &logic_cases(), logic_in);
}

#[test]
fn every_cond_variant_has_a_behaviour_case() {
    every_variant("Cond", &cond_cases(), conds_in);
}

#[test]
fn every_wand_change_has_a_behaviour_case() {
    every_variant("WandChange", &change_cases(), changes_in);
}

/// The check itself: a variant left out of the table fails, by name.
#[test]
#[should_panic(expected = "Op::Split has no behaviour case")]
fn a_variant_without_a_case_fails_by_name() {
    let mut cases = op_cases();
    cases.retain(|(k, _)| *k != OpDiscriminants::Split);
    every_variant("Op", &cases, ops_in);
}

/// The check itself: a case whose wand does not use its variant fails, by name.
#[test]
#[should_panic(expected = "Op::Split: its case's wand holds no Op::Split")]
fn a_case_that_does_not_use_its_variant_fails_by_name() {
    let mut cases = op_cases();
    for case in cases.iter_mut().filter(|(k, _)| *k == OpDiscriminants::Split) {
        case.1 = op_fire;
    }
    every_variant("Op", &cases, ops_in);
}
