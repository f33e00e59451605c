//! What the integration tests share: the shipped python/artificer/data/balance.json, read from
//! the file, so that a test plays with the numbers the game plays with and Rust holds no copy
//! of them (issue 14).

#![allow(dead_code)] // each test binary uses its own part

use std::sync::OnceLock;

use artificer_core::sim::config::{CombatParams, Element, StatusParams, VmParams, ELEMENTS};
use artificer_core::sim::stress::Tuning;
use artificer_core::sim::world::World;
use artificer_core::vm::board::CoreDef;
use artificer_core::vm::compile::Compiler;
use artificer_core::vm::exec::{CastRules, Caster};
use artificer_core::vm::mana::{Mana, ManaRules};
use artificer_core::vm::spell::{ActionDef, Effect, Family, SpellDef};
use serde_json::Value;

/// An enemy `column` in spawn order: by id slot, which is spawn order while
/// no enemy has died. From 4,096 entities the world reorders its pool by the
/// grid every 16 frames (`Spatial::reorder`), so a test names an enemy by when
/// it came, not by its row, and stays right at any size.
pub fn in_spawn_order<T: Copy>(w: &World, column: &[T]) -> Vec<T> {
    let ids = w.pools.enemies.ids.ids();
    let mut rows: Vec<usize> = (0..ids.len()).collect();
    rows.sort_by_key(|&r| ids[r].slot);
    rows.into_iter().map(|r| column[r]).collect()
}

/// balance.json, parsed once per test binary.
pub fn balance() -> &'static Value {
    static BALANCE: OnceLock<Value> = OnceLock::new();
    BALANCE.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/python/artificer/data/balance.json");
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
    })
}

/// The value at a dotted path of balance.json ("combat.weak_multiplier").
pub fn value(path: &str) -> &'static Value {
    let found = path.split('.').fold(balance(), |v, key| &v[key]);
    assert!(!found.is_null(), "balance.json has no {path}");
    found
}

/// The number at a dotted path of balance.json.
pub fn number(path: &str) -> f32 {
    value(path).as_f64().unwrap_or_else(|| panic!("balance.json {path}: not a number")) as f32
}

/// balance.json `combat`.
pub fn combat() -> CombatParams {
    CombatParams {
        vulnerable_multiplier: number("combat.vulnerable_multiplier"),
        weak_multiplier: number("combat.weak_multiplier"),
    }
}

/// A whole number at a dotted path of balance.json.
pub fn count(path: &str) -> u32 {
    let v = value(path).as_u64().unwrap_or_else(|| panic!("balance.json {path}: not a whole number"));
    u32::try_from(v).unwrap_or_else(|_| panic!("balance.json {path}: {v} is too big"))
}

/// balance.json `vm`, as `artificer.engine.spell_catalog` hands it to the core.
pub fn vm() -> VmParams {
    VmParams {
        step_multiplier: count("vm.step_multiplier"),
        cast_delay_floor: number("vm.cast_delay_floor"),
        mana: mana_rules(),
        sine_amplitude: number("vm.sine_amplitude"),
        sine_frequency: number("vm.sine_frequency"),
        homing_range: number("vm.homing_range"),
        on_kill_interval: number("vm.on_kill_interval"),
        charge_ring_delay: number("vm.charge_ring_delay"),
        knockback_seconds: number("vm.knockback_seconds"),
    }
}

/// balance.json's mana rules (`vm.sustained_fire`, `vm.infinite_spells_hp_per_mana`).
pub fn mana_rules() -> ManaRules {
    ManaRules {
        streak_window: number("vm.sustained_fire.window"),
        streak_step: number("vm.sustained_fire.step"),
        streak_cap: number("vm.sustained_fire.cap"),
        streak_reset: number("vm.sustained_fire.reset_after"),
        hp_per_mana: number("vm.infinite_spells_hp_per_mana"),
    }
}

/// A wand's cast rules under balance.json `vm`, no stats bought.
pub fn cast_rules() -> CastRules {
    vm().cast_rules()
}

/// balance.json `statuses`.
pub fn statuses() -> StatusParams {
    let mut chance = [0.0; ELEMENTS];
    for (name, v) in value("statuses.chance").as_object().expect("statuses.chance is an object") {
        chance[Element::from_name(name).expect("an element") as usize] = v.as_f64().expect("a number") as f32;
    }
    StatusParams {
        chance,
        burn_dps: number("statuses.burn.dps"),
        burn_seconds: number("statuses.burn.seconds"),
        chill_slow: number("statuses.chill.slow"),
        chill_seconds: number("statuses.chill.seconds"),
        chills_to_freeze: count("statuses.chill.to_freeze"),
        freeze_seconds: number("statuses.freeze.seconds"),
        shock_multiplier: number("statuses.shock.multiplier"),
        shock_seconds: number("statuses.shock.seconds"),
        poison_dps: number("statuses.poison.dps_per_stack"),
        poison_seconds: number("statuses.poison.seconds"),
        poison_max_stacks: count("statuses.poison.max_stacks"),
        wet_seconds: number("statuses.wet.seconds"),
        wet_lightning_multiplier: number("statuses.wet.lightning_multiplier"),
        attunement_damage: number("statuses.attunement.damage_per_point"),
        attunement_chance: number("statuses.attunement.chance_per_point"),
        zone_status_interval: number("statuses.zone.status_interval"),
    }
}

/// The game's tuning the stress workload runs with.
pub fn tuning() -> Tuning {
    Tuning { vm: vm(), statuses: statuses() }
}

/// Arms `world` with a compiled one-card wand: `action` (a bolt of `vm::sample`, say) of element
/// `element`, cast every `cast_delay` seconds, free (no mana cost), with no cast-delay floor so
/// that it can fire every tick. The tests' simplest wand, through the VM as every wand is.
pub fn arm_bolt(world: &mut World, action: ActionDef, element: Option<Element>, cast_delay: f32) {
    let spells = vec![SpellDef {
        id: "test_bolt".into(),
        family: Family::Action,
        mana_cost: 0.0,
        cpu: 1,
        cast_delay: 0.0,
        recharge: 0.0,
        resets_delay: false,
        element,
        effect: Effect::Action(action),
    }];
    let core = CoreDef::row("test_core", 1, 100.0, 0.0, cast_delay, 10);
    let program = Compiler::new(&spells, &[]).compile(&core, &[Some(0)]).expect("one bolt compiles");
    let mana = Mana::new(core.mana_max, core.mana_regen, mana_rules());
    let rules = CastRules { delay_floor: 0.0, ..cast_rules() };
    let caster = Caster::new(program, mana, rules, core.cast_delay, core.recharge, core.cpu_limit, false, false, 1);
    world.set_caster(caster, vec![element]);
}

/// R-BOARD-3's fork (vm.rs and every_op.rs cast it): `core` rewired as
/// (0,0) damage_plus → (1,0) splitter → upper (2,0) fire_infusion → (3,0) spark
///                                    → lower (2,1) ice_infusion → (3,1) spark,
/// with the cards for its slots in order.
pub fn splitter_fork(mut core: CoreDef) -> (CoreDef, [&'static str; 6]) {
    let slot = |x, y, next: Vec<usize>| artificer_core::vm::board::Slot { x, y, bonus: None, next };
    core.slots = vec![
        slot(0, 0, vec![1]),
        slot(1, 0, vec![2, 4]),
        slot(2, 0, vec![3]),
        slot(3, 0, vec![]),
        slot(2, 1, vec![5]),
        slot(3, 1, vec![]),
    ];
    (core, ["damage_plus", "splitter", "fire_infusion", "spark_bolt", "ice_infusion", "spark_bolt"])
}
