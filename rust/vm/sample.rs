//! A small hand-made spell catalog (the shipped one lives in
//! `data/spells.json`): the VM's tests and benches build wands from it
//! without Python or JSON.

use super::spell::*;
use crate::sim::config::Element;

pub fn bolt(damage: f32) -> ActionDef {
    ActionDef {
        kind: ActionKind::Projectile,
        damage,
        speed: 480.0,
        radius: 4.0,
        lifetime: 1.5,
        spread: 0.0,
        pierce: 0,
        bounces: 0,
        explode_radius: 0.0,
        chain: 0,
        chain_range: 0.0,
        homing: 0.0,
        path: Path::Straight,
        zone_pull: 0.0,
        zone_heal: 0.0,
        zone_dps: 0.0,
        summon_period: 0.0,
        summon_cost_share: 0.5,
        moving_multiplier: 1.0,
        charge: None,
    }
}

pub fn spell(id: &str, family: Family, cost: f32, cpu: u32, delay: f32, effect: Effect) -> SpellDef {
    SpellDef {
        id: id.into(),
        family,
        mana_cost: cost,
        cpu,
        cast_delay: delay,
        recharge: 0.0,
        resets_delay: false,
        element: None,
        effect,
    }
}

pub fn modifier(f: impl FnOnce(&mut ShotMod)) -> Effect {
    let mut m = ShotMod::identity();
    f(&mut m);
    Effect::Modifier(m)
}

/// The sample catalog; look spells up by id with `index`.
pub fn catalog() -> Vec<SpellDef> {
    use Family::*;
    vec![
        spell("spark_bolt", Action, 5.0, 1, 0.0, Effect::Action(bolt(3.0))),
        spell("double_cast", Multicast, 2.0, 1, 0.0, Effect::Multicast { count: 2, spread: 10.0 }),
        spell("triple_cast", Multicast, 4.0, 1, 0.0, Effect::Multicast { count: 3, spread: 20.0 }),
        spell("spread_mod", Modifier, 0.0, 1, 0.0, modifier(|m| m.spread_add = 30.0)),
        spell("damage_plus", Modifier, 15.0, 1, 0.1, modifier(|m| m.damage_flat = 5.0)),
        spell(
            "trigger_on_hit",
            Trigger,
            10.0,
            2,
            0.0,
            Effect::Trigger(TriggerDef { kind: TriggerKind::OnHit, delay: 0.0, carrier: bolt(2.0) }),
        ),
        spell(
            "trigger_timer_long",
            Trigger,
            10.0,
            2,
            0.0,
            Effect::Trigger(TriggerDef { kind: TriggerKind::Timer, delay: 1.0, carrier: bolt(2.0) }),
        ),
        spell("speed_zero", Modifier, 8.0, 1, 0.0, modifier(|m| m.speed_mult = 0.0)),
        spell(
            "nuke",
            Action,
            200.0,
            3,
            1.0,
            Effect::Action(ActionDef { kind: ActionKind::Blast, explode_radius: 160.0, ..bolt(200.0) }),
        ),
        spell(
            "summon_turret",
            Action,
            30.0,
            2,
            0.0,
            Effect::Action(ActionDef { kind: ActionKind::Summon, summon_period: 0.5, lifetime: 8.0, ..bolt(0.0) }),
        ),
        spell(
            "chain_bolt",
            Action,
            60.0,
            2,
            0.0,
            Effect::Action(ActionDef { chain: 3, chain_range: 120.0, ..bolt(6.0) }),
        ),
        spell("vampiric", Modifier, 8.0, 1, 0.0, modifier(|m| m.lifesteal_add = 0.2)),
        spell("loop", Logic, 0.0, 1, 0.0, Effect::Logic(LogicDef::Loop { span: 1, count: 5, grants_budget: false })),
        spell(
            "gatling_loop",
            Logic,
            0.0,
            2,
            0.0,
            Effect::Logic(LogicDef::Loop { span: 1, count: 5, grants_budget: true }),
        ),
        spell("if_moving", Logic, 0.0, 1, 0.0, Effect::Logic(LogicDef::Gate { cond: Cond::Moving, span: 1 })),
        spell("halt", Logic, 0.0, 1, 0.0, Effect::Logic(LogicDef::Halt)),
        spell(
            "charge_counter",
            Logic,
            0.0,
            1,
            0.0,
            Effect::Logic(LogicDef::ChargeCounter { n: 3, counter: 0, span: 1 }),
        ),
        spell("kill_combo", Logic, 0.0, 1, 0.0, Effect::Logic(LogicDef::KillCombo { n: 2, counter: 0, span: 1 })),
        spell("splitter", Modifier, 0.0, 1, 0.0, modifier(|m| m.splitter = true)),
        spell("water_wave", Action, 20.0, 2, 0.0, Effect::Action(bolt(4.0))),
        spell("plasma_storm", Action, 40.0, 3, 0.0, Effect::Action(bolt(30.0))),
        spell("fire_infusion", Modifier, 8.0, 1, 0.0, modifier(|m| m.element = Some(Element::Fire))),
        spell("ice_infusion", Modifier, 8.0, 1, 0.0, modifier(|m| m.element = Some(Element::Ice))),
        spell("if_hp_low", Logic, 0.0, 1, 0.0, Effect::Logic(LogicDef::Gate { cond: Cond::HpLow(0.3), span: 1 })),
        spell("reg_add_a", Logic, 0.0, 1, 0.0, Effect::Logic(LogicDef::RegAdd { reg: 0, value: 1 })),
        spell("halt_if_a_lt", Logic, 0.0, 1, 0.0, Effect::Logic(LogicDef::HaltIf(Cond::RegLt(0, 3)))),
        spell("reg_set_a", Logic, 0.0, 1, 0.0, Effect::Logic(LogicDef::RegSet { reg: 0, value: 0 })),
        spell("pierce_plus", Modifier, 8.0, 1, 0.0, modifier(|m| m.pierce_add = 2)),
        spell(
            "big_loop",
            Logic,
            0.0,
            1,
            0.0,
            Effect::Logic(LogicDef::Loop { span: 2, count: 1000, grants_budget: false }),
        ),
        // R-VM-14: cards that change the wand.
        spell("add_mana", Modifier, 0.0, 1, 0.1, modifier(|m| m.mana_gain = 30.0)),
        spell(
            "add_trigger_hit",
            Modifier,
            10.0,
            1,
            0.0,
            modifier(|m| m.adds_trigger = Some((TriggerKind::OnHit, 0.0))),
        ),
        spell(
            "add_trigger_timer",
            Modifier,
            10.0,
            1,
            0.0,
            modifier(|m| m.adds_trigger = Some((TriggerKind::Timer, 0.5))),
        ),
        spell(
            "divide_2",
            Modifier,
            10.0,
            1,
            0.2,
            modifier(|m| m.divide = Some(Divide { copies: 2, damage_mult: 0.6, spread: 8.0 })),
        ),
        spell(
            "divide_3",
            Modifier,
            20.0,
            1,
            0.3,
            modifier(|m| m.divide = Some(Divide { copies: 3, damage_mult: 0.45, spread: 12.0 })),
        ),
    ]
}

/// The index of `name` in `catalog()`.
pub fn index(name: &str) -> u16 {
    catalog().iter().position(|s| s.id == name).unwrap_or_else(|| panic!("no sample spell {name}")) as u16
}
