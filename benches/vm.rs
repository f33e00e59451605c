//! Criterion benches of the spell VM: cast throughput of a 20-node wand
//! with a loop, a trigger and a splitter; 200 summons casting their
//! programs; and the 10k/20k stress step with 5,000 projectiles carrying
//! payloads (against the same step without them).

#[path = "../rust/tests/common/mod.rs"]
mod common;

use std::hint::black_box;

use artificer_core::sim::player::Controls;
use artificer_core::sim::pools::{Behaviour, Payload};
use artificer_core::sim::stress::{stress_world, warm_up, Layout};
use artificer_core::vm::board::{CoreDef, Slot};
use artificer_core::vm::compile::Compiler;
use artificer_core::vm::exec::{CastOutput, Caster, Senses};
use artificer_core::vm::mana::Mana;
use artificer_core::vm::program::Span;
use artificer_core::vm::sample::{catalog, index};
use artificer_core::vm::spell::TriggerKind;
use criterion::{criterion_group, criterion_main, Criterion};

/// Ten slots in a row, the last a fork into two routes of five.
fn forked_core() -> CoreDef {
    let mut core = CoreDef::row("bench", 20, 1.0e9, 0.0, 0.25, 64);
    for (i, slot) in core.slots.iter_mut().enumerate() {
        *slot = Slot { x: (i % 10) as i32, y: (i / 10) as i32 * 2, bonus: None, next: vec![] };
    }
    for i in 0..9 {
        core.slots[i].next = vec![i + 1];
    }
    core.slots[9].next = vec![10, 15];
    for i in (10..14).chain(15..19) {
        core.slots[i].next = vec![i + 1];
    }
    core
}

fn twenty_node_caster() -> Caster {
    let cards = [
        "if_moving",
        "damage_plus",
        "gatling_loop",
        "spark_bolt",
        "double_cast",
        "fire_infusion",
        "spark_bolt",
        "pierce_plus",
        "reg_add_a",
        "splitter",
        "damage_plus",
        "trigger_on_hit",
        "ice_infusion",
        "spark_bolt",
        "vampiric",
        "double_cast",
        "spark_bolt",
        "damage_plus",
        "spark_bolt",
        "speed_zero",
    ];
    let placed: Vec<Option<u16>> = cards.iter().map(|c| Some(index(c))).collect();
    let core = forked_core();
    let program = Compiler::new(&catalog(), &[]).compile(&core, &placed).expect("compiles");
    assert_eq!(program.diagnostics.dropped_slots.len(), 0);
    let mana = Mana::new(core.mana_max, 0.0, common::mana_rules());
    Caster::new(program, mana, common::cast_rules(), core.cast_delay, 0.0, core.cpu_limit, false, false, 1)
}

fn cast_throughput(c: &mut Criterion) {
    let mut caster = twenty_node_caster();
    let mut out = CastOutput::default();
    let mut senses = Senses { hp: 100.0, hp_max: 100.0, moving: true, nearest_enemy: 50.0 };
    c.bench_function("vm/cast_20_nodes", |b| {
        b.iter(|| {
            out.clear();
            caster.mana.current = 1.0e9;
            black_box(caster.cast(&mut senses, &mut out));
        })
    });
}

/// A stress world whose player wields `[summon_turret][spark_bolt]`, with
/// `summons` turrets planted around it, each firing every 0.5 s.
fn summons_world(summons: usize) -> artificer_core::sim::World {
    let mut world = stress_world(1_000, 0, Layout::Crowd, 3, &common::tuning());
    let core = CoreDef::row("turrets", 2, 1.0e9, 0.0, 1.0e6, 16);
    let placed = [Some(index("summon_turret")), Some(index("spark_bolt"))];
    let program = Compiler::new(&catalog(), &[]).compile(&core, &placed).expect("compiles");
    let span = Span { start: 1, end: 2 };
    let mana = Mana::new(core.mana_max, 0.0, common::mana_rules());
    let caster =
        Caster::new(program, mana, common::cast_rules(), core.cast_delay, 0.0, core.cpu_limit, false, false, 1);
    world.set_caster(caster, catalog().iter().map(|s| s.element).collect());
    for i in 0..summons {
        let a = i as f32 * 0.031_415;
        world.pools.summons.push(2000.0 + 300.0 * a.cos(), 2000.0 + 300.0 * a.sin(), 1.0e9, 0.5, span, 1.0, 0);
        world.pools.summons.timer[i] = (i % 30) as f32 / 60.0; // staggered
    }
    world
}

fn summons(c: &mut Criterion) {
    let mut world = summons_world(200);
    warm_up(&mut world);
    c.bench_function("vm/step_200_summons_1k_enemies", |b| b.iter(|| world.step(black_box(&Controls::default()), &[])));
}

fn payload_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("vm/step_10k_20k_crowd");
    group.sample_size(30);
    let mut plain = stress_world(10_000, 20_000, Layout::Crowd, 1, &common::tuning());
    warm_up(&mut plain);
    let mut carrying = stress_world(10_000, 20_000, Layout::Crowd, 1, &common::tuning());
    let core = CoreDef::row("payload", 2, 1.0e9, 0.0, 1.0e6, 16);
    let placed = [Some(index("trigger_on_hit")), Some(index("spark_bolt"))];
    let program = Compiler::new(&catalog(), &[]).compile(&core, &placed).expect("compiles");
    let mana = Mana::new(core.mana_max, 0.0, common::mana_rules());
    let caster =
        Caster::new(program, mana, common::cast_rules(), core.cast_delay, 0.0, core.cpu_limit, false, false, 1);
    carrying.set_caster(caster, catalog().iter().map(|s| s.element).collect());
    // Expiry payloads on immortal projectiles: carried every frame, never spent.
    let payload = Payload { kind: TriggerKind::OnExpire, timer: 0.0, span: Span { start: 1, end: 2 }.into() };
    for i in 0..5_000 {
        carrying.pools.projectiles.behaviour[i * 4] = Behaviour { payload: Some(payload), ..Behaviour::default() };
        carrying.pools.projectiles.special[i * 4] = true;
    }
    warm_up(&mut carrying);
    group.bench_function("plain", |b| b.iter(|| plain.step(black_box(&Controls::default()), &[])));
    group.bench_function("5000_carrying_payloads", |b| b.iter(|| carrying.step(black_box(&Controls::default()), &[])));
    group.finish();
}

criterion_group!(benches, cast_throughput, summons, payload_step);
criterion_main!(benches);
