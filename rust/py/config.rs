//! Plain Python data (the dicts `artificer.engine` builds from validated
//! content) into the core's config types, naming the key on any problem.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::sim::config::{
    Behavior, CombatParams, DeathBlast, Element, EnemyKind, PickupParams, PlayerParams, RangedAttack, Rules, Shield,
    Split, StatusParams, VmParams, WorldConfig, DEFAULT_TURN_SECONDS, ELEMENTS,
};
use crate::sim::CoreError;
use crate::vm::mana::ManaRules;

/// A dict with the path it was reached by, for messages.
pub(crate) struct Section<'py> {
    pub path: String,
    pub dict: Bound<'py, PyDict>,
}

impl<'py> Section<'py> {
    pub fn root(obj: &Bound<'py, PyAny>, path: &str) -> Result<Self, CoreError> {
        let dict = obj.cast::<PyDict>().map_err(|_| CoreError::arg(format!("{path}: expected a dict")))?.clone();
        Ok(Section { path: path.into(), dict })
    }

    /// The value at `key`; a missing key or a `None` value is an error.
    pub fn item(&self, key: &str) -> Result<Bound<'py, PyAny>, CoreError> {
        self.dict
            .get_item(key)
            .ok()
            .flatten()
            .filter(|v| !v.is_none())
            .ok_or_else(|| CoreError::arg(format!("{}.{key}: missing", self.path)))
    }

    pub fn sub(&self, key: &str) -> Result<Section<'py>, CoreError> {
        Section::root(&self.item(key)?, &format!("{}.{key}", self.path))
    }

    pub fn f32(&self, key: &str) -> Result<f32, CoreError> {
        let v: f64 =
            self.item(key)?.extract().map_err(|_| CoreError::arg(format!("{}.{key}: expected a number", self.path)))?;
        // f32 holds at most ~3.4e38: 1e300 would become inf after the check.
        if !(v.is_finite() && v.abs() <= f32::MAX as f64) {
            return Err(CoreError::arg(format!(
                "{}.{key}: expected a finite number within ±3.4e38, got {v}",
                self.path
            )));
        }
        Ok(v as f32)
    }

    /// A whole number in 0..2**32; beyond it is refused, never truncated.
    pub fn u32(&self, key: &str) -> Result<u32, CoreError> {
        let item = self.item(key)?;
        let v: super::args::Int = item
            .extract()
            .map_err(|_| CoreError::arg(format!("{}.{key}: expected a whole number ≥ 0, got {item}", self.path)))?;
        v.count(&format!("{}.{key}", self.path), u32::MAX as u64)
    }

    pub fn string(&self, key: &str) -> Result<String, CoreError> {
        self.item(key)?.extract().map_err(|_| CoreError::arg(format!("{}.{key}: expected a string", self.path)))
    }

    /// Whether `key` holds a value (not missing, not `None`).
    pub fn has(&self, key: &str) -> bool {
        self.dict.get_item(key).ok().flatten().is_some_and(|v| !v.is_none())
    }

    pub fn opt_f32(&self, key: &str, default: f32) -> Result<f32, CoreError> {
        if self.has(key) {
            self.f32(key)
        } else {
            Ok(default)
        }
    }

    pub fn opt_u32(&self, key: &str, default: u32) -> Result<u32, CoreError> {
        if self.has(key) {
            self.u32(key)
        } else {
            Ok(default)
        }
    }

    pub fn i32(&self, key: &str) -> Result<i32, CoreError> {
        self.item(key)?.extract().map_err(|_| CoreError::arg(format!("{}.{key}: expected an integer", self.path)))
    }

    pub fn flag(&self, key: &str) -> Result<bool, CoreError> {
        match self.dict.get_item(key).ok().flatten().filter(|v| !v.is_none()) {
            None => Ok(false),
            Some(v) => v.extract().map_err(|_| CoreError::arg(format!("{}.{key}: expected a bool", self.path))),
        }
    }
}

/// `config`: `{"arena", "sim", "player", "pickups", "elite", "enemies",
/// optional "rules"}` as built by `artificer.engine.world_config`.
pub fn world_config(obj: &Bound<'_, PyAny>, seed: u64) -> Result<WorldConfig, CoreError> {
    let root = Section::root(obj, "config")?;
    let arena = root.sub("arena")?;
    let sim = root.sub("sim")?;
    let player = root.sub("player")?;
    let pickups = root.sub("pickups")?;
    let elite = root.sub("elite")?;
    let rules = match root.dict.get_item("rules").ok().flatten() {
        Some(r) => rules(&r)?,
        None => Rules::default(),
    };
    let enemies = root.item("enemies")?;
    let enemies = enemies.cast::<PyList>().map_err(|_| CoreError::arg("config.enemies: expected a list"))?;
    let mut kinds = Vec::with_capacity(enemies.len());
    let mut splits = Vec::new();
    for (i, e) in enemies.iter().enumerate() {
        let section = Section::root(&e, &format!("config.enemies[{i}]"))?;
        kinds.push(enemy_kind(&section)?);
        if section.has("split") {
            splits.push((i, section.sub("split")?));
        }
    }
    // `split.into` names a kind; the core numbers kinds by position.
    for (i, split) in splits {
        let into = split.string("into")?;
        let Some(child) = kinds.iter().position(|k| k.name == into) else {
            return Err(CoreError::arg(format!("{}.into: unknown enemy {into:?}", split.path)));
        };
        kinds[i].split = Some(Split { into: child as u16, count: split.u32("count")?, spread: split.f32("spread")? });
    }
    let tick_hz = sim.u32("tick_hz")?;
    Ok(WorldConfig {
        arena_w: arena.f32("width")?,
        arena_h: arena.f32("height")?,
        tick_hz,
        separation_strength: sim.f32("separation_strength")?,
        grid_cells_per_entity: sim.f32("grid_cells_per_entity")?,
        hit_events_per_frame: sim.u32("hit_events_per_frame")?,
        hit_flash_frames: if sim.has("hit_flash_frames") { sim.u32("hit_flash_frames")? } else { 0 },
        elite_hp_multiplier: elite.f32("hp_multiplier")?,
        elite_reward_multiplier: elite.f32("reward_multiplier")?,
        player: PlayerParams {
            max_hp: player.f32("max_hp")?,
            radius: player.f32("radius")?,
            move_speed: player.f32("move_speed")?,
            armor: player.f32("armor")?,
            dash_speed: player.f32("dash_speed")?,
            dash_duration: player.f32("dash_duration")?,
            dash_cooldown: player.f32("dash_cooldown")?,
            invulnerability: player.f32("invulnerability")?,
            crit_chance: player.f32("crit_chance")?,
            crit_multiplier: player.f32("crit_multiplier")?,
            mana_max: player.f32("mana_max")?,
            mana_regen: player.f32("mana_regen")?,
            mana_leech: player.opt_f32("mana_leech", 0.0)?,
            auto_aim_range: player.opt_f32("auto_aim_range", f32::INFINITY)?,
        },
        pickups: PickupParams {
            pickup_radius: pickups.f32("pickup_radius")?,
            magnet_speed: pickups.f32("magnet_speed")?,
            collect_radius: pickups.f32("collect_radius")?,
            radius: pickups.f32("radius")?,
        },
        enemy_kinds: kinds,
        rules,
        vm: vm_params(&root.sub("vm")?)?,
        statuses: status_params(&root.sub("statuses")?)?,
        // balance.json `turn` (§8); absent, the rules' 3 seconds.
        turn_seconds: match root.has("turn") {
            true => root.sub("turn")?.opt_f32("seconds", DEFAULT_TURN_SECONDS)?,
            false => DEFAULT_TURN_SECONDS,
        },
        combat: {
            let combat = root.sub("combat")?;
            CombatParams {
                vulnerable_multiplier: combat.f32("vulnerable_multiplier")?,
                weak_multiplier: combat.f32("weak_multiplier")?,
            }
        },
        seed,
    })
}

/// balance.json `vm`.
pub fn vm_params(v: &Section<'_>) -> Result<VmParams, CoreError> {
    let fire = v.sub("sustained_fire")?;
    Ok(VmParams {
        step_multiplier: v.u32("step_multiplier")?,
        cast_delay_floor: v.f32("cast_delay_floor")?,
        mana: ManaRules {
            streak_window: fire.f32("window")?,
            streak_step: fire.f32("step")?,
            streak_cap: fire.f32("cap")?,
            streak_reset: fire.f32("reset_after")?,
            hp_per_mana: v.f32("infinite_spells_hp_per_mana")?,
        },
        sine_amplitude: v.f32("sine_amplitude")?,
        sine_frequency: v.f32("sine_frequency")?,
        homing_range: v.f32("homing_range")?,
        on_kill_interval: v.f32("on_kill_interval")?,
        charge_ring_delay: v.opt_f32("charge_ring_delay", 0.3)?,
        knockback_seconds: v.opt_f32("knockback_seconds", 0.15)?,
    })
}

/// balance.json `statuses` (R-DMG-2, R-STAT-1 attunement); Python's
/// `StatusesBalance` documents the schema.
fn status_params(v: &Section<'_>) -> Result<StatusParams, CoreError> {
    let mut chance = [0.0f32; ELEMENTS];
    let c = v.sub("chance")?;
    for (k, _) in c.dict.iter() {
        let name: String = k.extract().map_err(|_| CoreError::arg(format!("{}: keys are element names", c.path)))?;
        let element =
            Element::from_name(&name).map_err(|_| CoreError::arg(format!("{}.{name}: unknown element", c.path)))?;
        chance[element as usize] = c.f32(&name)?;
    }
    let (burn, chill, freeze, shock) = (v.sub("burn")?, v.sub("chill")?, v.sub("freeze")?, v.sub("shock")?);
    let (poison, wet, att) = (v.sub("poison")?, v.sub("wet")?, v.sub("attunement")?);
    Ok(StatusParams {
        chance,
        burn_dps: burn.f32("dps")?,
        burn_seconds: burn.f32("seconds")?,
        chill_slow: chill.f32("slow")?,
        chill_seconds: chill.f32("seconds")?,
        chills_to_freeze: chill.u32("to_freeze")?,
        freeze_seconds: freeze.f32("seconds")?,
        shock_multiplier: shock.f32("multiplier")?,
        shock_seconds: shock.f32("seconds")?,
        poison_dps: poison.f32("dps_per_stack")?,
        poison_seconds: poison.f32("seconds")?,
        poison_max_stacks: poison.u32("max_stacks")?,
        wet_seconds: wet.f32("seconds")?,
        wet_lightning_multiplier: wet.f32("lightning_multiplier")?,
        attunement_damage: att.f32("damage_per_point")?,
        attunement_chance: att.f32("chance_per_point")?,
        zone_status_interval: match v.has("zone") {
            true => v.sub("zone")?.opt_f32("status_interval", 1.0)?,
            false => 1.0,
        },
    })
}

fn enemy_kind(e: &Section<'_>) -> Result<EnemyKind, CoreError> {
    let mut resist = [0.0f32; ELEMENTS];
    if let Some(r) = e.dict.get_item("resistances").ok().flatten() {
        let r = Section::root(&r, &format!("{}.resistances", e.path))?;
        for (k, _) in r.dict.iter() {
            let name: String =
                k.extract().map_err(|_| CoreError::arg(format!("{}: keys are element names", r.path)))?;
            let element =
                Element::from_name(&name).map_err(|_| CoreError::arg(format!("{}.{name}: unknown element", r.path)))?;
            resist[element as usize] = r.f32(&name)?;
        }
    }
    Ok(EnemyKind {
        name: e.string("id")?,
        hp: e.f32("hp")?,
        speed: e.f32("speed")?,
        radius: e.f32("radius")?,
        contact_damage: e.f32("contact_damage")?,
        armor: e.f32("armor")?,
        resist,
        reward: e.u32("reward")?,
        behavior: Behavior::from_name(&e.string("behavior")?)
            .map_err(|err| CoreError::arg(format!("{}: {err}", e.path)))?,
        attack: match e.has("attack") {
            true => Some(ranged_attack(&e.sub("attack")?)?),
            false => None,
        },
        shield: match e.has("shield") {
            true => {
                let s = e.sub("shield")?;
                Some(Shield { arc_degrees: s.f32("arc")?, reflect_damage: s.f32("reflect_damage")? })
            }
            false => None,
        },
        explode: match e.has("explode") {
            true => {
                let b = e.sub("explode")?;
                let element = Element::from_name(&b.string("element")?)
                    .map_err(|err| CoreError::arg(format!("{}.element: {err}", b.path)))?;
                Some(DeathBlast { radius: b.f32("radius")?, damage: b.f32("damage")?, element })
            }
            false => None,
        },
        // Filled in by `world_config` once every kind's id is known.
        split: None,
    })
}

/// enemies.json `attack` (an archer's shots and band).
fn ranged_attack(a: &Section<'_>) -> Result<RangedAttack, CoreError> {
    Ok(RangedAttack {
        every: a.f32("every")?,
        speed: a.f32("speed")?,
        damage: a.f32("damage")?,
        radius: a.f32("radius")?,
        lifetime: a.f32("lifetime")?,
        min_distance: a.f32("min_distance")?,
        max_distance: a.f32("max_distance")?,
        strafe: a.f32("strafe")?,
    })
}

/// `{"player_fixed": bool, ...}`; missing keys are false.
pub fn rules(obj: &Bound<'_, PyAny>) -> Result<Rules, CoreError> {
    let r = Section::root(obj, "rules")?;
    for (k, _) in r.dict.iter() {
        let key: String = k.extract().unwrap_or_default();
        if !RULE_NAMES.contains(&key.as_str()) {
            return Err(CoreError::arg(format!("rules.{key}: unknown rule (known: {})", RULE_NAMES.join(", "))));
        }
    }
    Ok(Rules {
        player_fixed: r.flag("player_fixed")?,
        player_invulnerable: r.flag("player_invulnerable")?,
        enemies_immortal: r.flag("enemies_immortal")?,
        respawn_spent_projectiles: r.flag("respawn_spent_projectiles")?,
        no_hit_memory: r.flag("no_hit_memory")?,
        enemies_still: r.flag("enemies_still")?,
        hit_events: r.flag("hit_events")?,
    })
}

const RULE_NAMES: [&str; 7] = [
    "player_fixed",
    "player_invulnerable",
    "enemies_immortal",
    "respawn_spent_projectiles",
    "no_hit_memory",
    "enemies_still",
    "hit_events",
];
