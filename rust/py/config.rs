//! Plain Python data (the dicts `artificer.engine` builds from validated
//! content) into the core's config types, naming the key on any problem:
//! each section is a struct decoded by `#[derive(FromPyObject)]`
//! (`py/decode.rs`), then moved into the core's own type. A section knows
//! its keys (`section!`): a key it does not know is refused, at every level.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::decode::{at, decode, ElementName, Flag, Keys, PerElement, Section, Str, F32, U32};
use crate::sim::boss::{Adds, Barrage, BossDef, BossPhase, BossShot, Clones, Enrage, LastWill, Plates, Volley};
use crate::sim::config::{
    Behavior, CombatParams, DeathBlast, EnemyKind, Inversion, MutatorSplit, Mutators, PickupParams, PlayerParams,
    RangedAttack, Rules, Shield, Split, StatusParams, VmParams, WorldConfig, ELEMENTS,
};
use crate::sim::CoreError;
use crate::vm::mana::ManaRules;

/// A section's decoding struct (`#[derive(FromPyObject)]`, its fields named as
/// the dict's keys) and its `Keys`: its fields, and the keys its dict holds
/// that are read `apart` from the derive. A `Section` of it refuses any other
/// key, so a misspelt key is never dropped unseen.
macro_rules! section {
    (
        $(#[$meta:meta])*
        struct $name:ident $(apart [$($apart:literal),+])? {
            $($(#[$fmeta:meta])* $field:ident: $ty:ty),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(FromPyObject)]
        #[pyo3(from_item_all)]
        struct $name {
            $($(#[$fmeta])* $field: $ty),+
        }

        impl Keys for $name {
            const KEYS: &'static [&'static str] = &[$(stringify!($field),)+ $($($apart),+)?];
        }
    };
}

/// A section whose fields are all newtypes named as the core type's own
/// fields (and the dict's keys), and its move into that type.
macro_rules! decoded {
    ($(#[$meta:meta])* $name:ident => $core:ident { $($field:ident: $ty:ty),+ $(,)? }) => {
        section! {
            $(#[$meta])*
            struct $name {
                $($field: $ty),+
            }
        }

        impl From<$name> for $core {
            fn from(v: $name) -> $core {
                $core { $($field: v.$field.0),+ }
            }
        }
    };
}

decoded! {
    /// balance.json `player`.
    PlayerIn => PlayerParams {
        max_hp: F32, radius: F32, move_speed: F32, armor: F32, dash_speed: F32, dash_duration: F32,
        dash_cooldown: F32, invulnerability: F32, crit_chance: F32, crit_multiplier: F32, mana_max: F32,
        mana_regen: F32, mana_leech: F32, auto_aim_range: F32,
    }
}

decoded! {
    /// balance.json `pickups`.
    PickupsIn => PickupParams { pickup_radius: F32, magnet_speed: F32, collect_radius: F32, radius: F32 }
}

decoded! {
    /// enemies.json `attack` (an archer's shots and band).
    AttackIn => RangedAttack {
        every: F32, speed: F32, damage: F32, radius: F32, lifetime: F32, min_distance: F32,
        max_distance: F32, strafe: F32,
    }
}

decoded! {
    /// balance.json `combat`.
    CombatIn => CombatParams { vulnerable_multiplier: F32, weak_multiplier: F32 }
}

section! {
    /// `config` as `artificer.engine.world_config` builds it; `enemies` (a
    /// list, its items named by index), the optional `rules` and `mutators`
    /// are read apart.
    struct ConfigIn apart ["enemies", "rules", "mutators"] {
        arena: Section<ArenaIn>,
        sim: Section<SimIn>,
        player: Section<PlayerIn>,
        pickups: Section<PickupsIn>,
        elite: Section<EliteIn>,
        vm: Section<VmIn>,
        statuses: Section<StatusesIn>,
        turn: Section<SecondsIn>,
        combat: Section<CombatIn>,
    }
}

section! {
    /// R-END-3: `config["mutators"]` (optional; absent or None: all off), the wave's global mutator:
    /// `mirror` a bool, `split` and `inversion` their blocks or None.
    struct MutatorsIn {
        mirror: Flag,
        split: Option<Section<MutatorSplitIn>>,
        inversion: Option<Section<InversionIn>>,
    }
}

decoded! {
    /// `mutators.split`: splitting monsters.
    MutatorSplitIn => MutatorSplit { count: U32, hp: F32, spread: F32 }
}

decoded! {
    /// `mutators.inversion`: mana inversion.
    InversionIn => Inversion { pivot: F32, ceiling: F32 }
}

impl From<MutatorsIn> for Mutators {
    fn from(m: MutatorsIn) -> Mutators {
        Mutators {
            mirror: m.mirror.0,
            split: m.split.map(|Section(s)| s.into()),
            inversion: m.inversion.map(|Section(i)| i.into()),
        }
    }
}

section! {
    struct ArenaIn {
        width: F32,
        height: F32,
    }
}

section! {
    struct SimIn {
        tick_hz: U32,
        separation_strength: F32,
        separation_candidates: U32,
        grid_cells_per_entity: F32,
        hit_events_per_frame: U32,
        hit_flash_frames: U32,
    }
}

section! {
    struct EliteIn {
        hp_multiplier: F32,
        reward_multiplier: F32,
    }
}

section! {
    /// A section of one duration: balance.json `turn` (§8), `statuses.freeze`.
    struct SecondsIn {
        seconds: F32,
    }
}

section! {
    /// balance.json `vm`.
    struct VmIn {
        step_multiplier: U32,
        cast_delay_floor: F32,
        sustained_fire: Section<SustainedFireIn>,
        infinite_spells_hp_per_mana: F32,
        sine_amplitude: F32,
        sine_frequency: F32,
        homing_range: F32,
        on_kill_interval: F32,
        charge_ring_delay: F32,
        knockback_seconds: F32,
    }
}

section! {
    /// balance.json `vm.sustained_fire` (R-MANA-8).
    struct SustainedFireIn {
        window: F32,
        step: F32,
        cap: F32,
        reset_after: F32,
    }
}

impl From<VmIn> for VmParams {
    fn from(v: VmIn) -> VmParams {
        let fire = v.sustained_fire.0;
        VmParams {
            step_multiplier: v.step_multiplier.0,
            cast_delay_floor: v.cast_delay_floor.0,
            mana: ManaRules {
                streak_window: fire.window.0,
                streak_step: fire.step.0,
                streak_cap: fire.cap.0,
                streak_reset: fire.reset_after.0,
                hp_per_mana: v.infinite_spells_hp_per_mana.0,
            },
            sine_amplitude: v.sine_amplitude.0,
            sine_frequency: v.sine_frequency.0,
            homing_range: v.homing_range.0,
            on_kill_interval: v.on_kill_interval.0,
            charge_ring_delay: v.charge_ring_delay.0,
            knockback_seconds: v.knockback_seconds.0,
        }
    }
}

section! {
    /// balance.json `statuses` (R-DMG-2, R-STAT-1 attunement); Python's
    /// `StatusesBalance` documents the schema.
    struct StatusesIn {
        chance: PerElement,
        burn: Section<BurnIn>,
        chill: Section<ChillIn>,
        freeze: Section<SecondsIn>,
        shock: Section<ShockIn>,
        poison: Section<PoisonIn>,
        wet: Section<WetIn>,
        zone: Section<ZoneIn>,
        attunement: Section<AttunementIn>,
    }
}

section! {
    struct BurnIn {
        dps: F32,
        seconds: F32,
    }
}

section! {
    struct ChillIn {
        slow: F32,
        seconds: F32,
        to_freeze: U32,
    }
}

section! {
    struct ShockIn {
        multiplier: F32,
        seconds: F32,
    }
}

section! {
    struct PoisonIn {
        dps_per_stack: F32,
        seconds: F32,
        max_stacks: U32,
    }
}

section! {
    struct WetIn {
        seconds: F32,
        lightning_multiplier: F32,
    }
}

section! {
    struct ZoneIn {
        status_interval: F32,
    }
}

section! {
    struct AttunementIn {
        damage_per_point: F32,
        chance_per_point: F32,
    }
}

impl From<StatusesIn> for StatusParams {
    fn from(v: StatusesIn) -> StatusParams {
        let (burn, chill, shock, poison, wet, att) =
            (v.burn.0, v.chill.0, v.shock.0, v.poison.0, v.wet.0, v.attunement.0);
        StatusParams {
            chance: v.chance.0,
            burn_dps: burn.dps.0,
            burn_seconds: burn.seconds.0,
            chill_slow: chill.slow.0,
            chill_seconds: chill.seconds.0,
            chills_to_freeze: chill.to_freeze.0,
            freeze_seconds: v.freeze.0.seconds.0,
            shock_multiplier: shock.multiplier.0,
            shock_seconds: shock.seconds.0,
            poison_dps: poison.dps_per_stack.0,
            poison_seconds: poison.seconds.0,
            poison_max_stacks: poison.max_stacks.0,
            wet_seconds: wet.seconds.0,
            wet_lightning_multiplier: wet.lightning_multiplier.0,
            attunement_damage: att.damage_per_point.0,
            attunement_chance: att.chance_per_point.0,
            zone_status_interval: v.zone.0.status_interval.0,
        }
    }
}

section! {
    /// An enemies.json entry; `split.into` names a kind, resolved once every
    /// kind is known.
    struct EnemyIn apart ["boss"] {
        id: Str,
        hp: F32,
        speed: F32,
        radius: F32,
        contact_damage: F32,
        armor: F32,
        #[pyo3(default)]
        resistances: Option<PerElement>,
        reward: U32,
        behavior: Str,
        #[pyo3(default)]
        attack: Option<Section<AttackIn>>,
        #[pyo3(default)]
        shield: Option<Section<ShieldIn>>,
        #[pyo3(default)]
        explode: Option<Section<ExplodeIn>>,
        #[pyo3(default)]
        split: Option<Section<SplitIn>>,
    }
}

section! {
    struct ShieldIn {
        arc: F32,
        reflect_damage: F32,
    }
}

section! {
    struct ExplodeIn {
        radius: F32,
        damage: F32,
        element: ElementName,
    }
}

section! {
    struct SplitIn {
        into: Str,
        count: U32,
        spread: F32,
    }
}

decoded! {
    /// A boss's `shot`.
    BossShotIn => BossShot { speed: F32, damage: F32, radius: F32, lifetime: F32 }
}

section! {
    /// A boss's `hyper` (hyper-enrage multipliers, and whether it then chases).
    struct EnrageIn {
        speed: F32,
        damage: F32,
        interval: F32,
        chase: Flag,
    }
}

impl From<EnrageIn> for Enrage {
    fn from(v: EnrageIn) -> Enrage {
        Enrage { speed: v.speed.0, damage: v.damage.0, interval: v.interval.0, chase: v.chase.0 }
    }
}

decoded! {
    /// A phase's `spread` or `burst`.
    VolleyIn => Volley { count: U32, every: F32 }
}

decoded! {
    /// A phase's `barrage`.
    BarrageIn => Barrage { every: F32, shots: U32, spread_degrees: F32 }
}

decoded! {
    /// A phase's `last_will` (NG+).
    LastWillIn => LastWill { invulnerable: F32, restore: F32 }
}

section! {
    struct PlatesIn {
        count: U32,
        armor: F32,
        weak: ElementName,
    }
}

section! {
    /// A phase's `adds` or `clones`: enemies of the kind `into` names.
    struct BringIn {
        into: Str,
        count: U32,
        #[pyo3(default)]
        every: Option<F32>,
    }
}

section! {
    /// An enemy kind's `boss` block (R-BOSS-1), as `artificer.engine` builds it
    /// from data/bosses/<id>.json; its `phases` are read one by one.
    struct BossIn apart ["phases"] {
        shot: Section<BossShotIn>,
        enrage_after: F32,
        hyper: Section<EnrageIn>,
        /// R-BOSS-3: seconds from a volley's wind-up to its shots.
        telegraph: F32,
    }
}

section! {
    struct PhaseIn {
        number: U32,
        enter: F32,
        exit: F32,
        #[pyo3(default)]
        resistances: Option<PerElement>,
        regen_on_physical_hit: F32,
        #[pyo3(default)]
        regen_hit_cap: Option<F32>,
        #[pyo3(default)]
        stationary: Flag,
        speed_multiplier: F32,
        damage_multiplier: F32,
        #[pyo3(default)]
        hyper: Flag,
        #[pyo3(default)]
        spread: Option<Section<VolleyIn>>,
        #[pyo3(default)]
        barrage: Option<Section<BarrageIn>>,
        #[pyo3(default)]
        burst: Option<Section<VolleyIn>>,
        #[pyo3(default)]
        reflect: Option<Section<ShieldIn>>,
        #[pyo3(default)]
        plates: Option<Section<PlatesIn>>,
        #[pyo3(default)]
        adds: Option<Section<BringIn>>,
        #[pyo3(default)]
        clones: Option<Section<BringIn>>,
        #[pyo3(default)]
        last_will: Option<Section<LastWillIn>>,
    }
}

/// The boss block of the kind at `path` (`item` its dict), its adds' and
/// clones' kinds named by id among `names`.
fn boss_def(item: &Bound<'_, PyAny>, path: &str, names: &[String]) -> PyResult<BossDef> {
    let Section(b) = decode::<Section<BossIn>>(item, path)?;
    let dict = item.cast::<PyDict>()?;
    let phases = dict.get_item("phases")?.ok_or_else(|| CoreError::arg(format!("{path}.phases: missing")))?;
    let phases = phases.cast::<PyList>().map_err(|_| CoreError::arg(format!("{path}.phases: expected a list")))?;
    let kind_of = |bring: &BringIn, at: &str| -> PyResult<u16> {
        names
            .iter()
            .position(|n| *n == bring.into.0)
            .map(|i| i as u16)
            .ok_or_else(|| CoreError::arg(format!("{at}.into: unknown enemy {:?}", bring.into.0)).into())
    };
    let mut out = Vec::with_capacity(phases.len());
    for (i, phase) in phases.iter().enumerate() {
        let at = format!("{path}.phases[{i}]");
        let Section(p) = decode::<Section<PhaseIn>>(&phase, &at)?;
        let adds = match p.adds {
            Some(Section(a)) => {
                let every =
                    a.every.as_ref().map(|e| e.0).ok_or_else(|| CoreError::arg(format!("{at}.adds.every: missing")))?;
                Some(Adds { kind: kind_of(&a, &format!("{at}.adds"))?, count: a.count.0, every })
            }
            None => None,
        };
        let clones = match p.clones {
            Some(Section(c)) => Some(Clones { kind: kind_of(&c, &format!("{at}.clones"))?, count: c.count.0 }),
            None => None,
        };
        out.push(BossPhase {
            number: p.number.0,
            enter: p.enter.0,
            exit: p.exit.0,
            resist: p.resistances.map_or([0.0; ELEMENTS], |r| r.0),
            regen_on_physical_hit: p.regen_on_physical_hit.0,
            regen_hit_cap: p.regen_hit_cap.map(|c| c.0),
            stationary: p.stationary.0,
            speed_multiplier: p.speed_multiplier.0,
            damage_multiplier: p.damage_multiplier.0,
            hyper: p.hyper.0,
            spread: p.spread.map(|Section(v)| v.into()),
            barrage: p.barrage.map(|Section(v)| v.into()),
            burst: p.burst.map(|Section(v)| v.into()),
            reflect: p.reflect.map(|Section(s)| Shield { arc_degrees: s.arc.0, reflect_damage: s.reflect_damage.0 }),
            plates: p.plates.map(|Section(pl)| Plates { count: pl.count.0, armor: pl.armor.0, weak: pl.weak.0 }),
            adds,
            clones,
            last_will: p.last_will.map(|Section(l)| l.into()),
        });
    }
    let (shot, hyper) = (b.shot.0.into(), b.hyper.0.into());
    Ok(BossDef { phases: out, shot, enrage_after: b.enrage_after.0, hyper, telegraph: b.telegraph.0 })
}

/// `config`: `{"arena", "sim", "player", "pickups", "elite", "vm",
/// "statuses", "turn", "combat", "enemies", optional "rules"}` as built by
/// `artificer.engine.world_config`.
pub fn world_config(obj: &Bound<'_, PyAny>, seed: u64) -> PyResult<WorldConfig> {
    let Section(c) = decode::<Section<ConfigIn>>(obj, "config")?;
    let root = obj.cast::<PyDict>()?;
    let rules = match root.get_item("rules")? {
        Some(r) => rules(&r)?,
        None => Rules::default(),
    };
    let mutators = match root.get_item("mutators")?.filter(|m| !m.is_none()) {
        Some(m) => decode::<Section<MutatorsIn>>(&m, "config.mutators")?.0.into(),
        None => Mutators::default(),
    };
    let enemies = root.get_item("enemies")?.filter(|e| !e.is_none());
    let enemies = enemies.ok_or_else(|| CoreError::arg("config.enemies: missing"))?;
    let enemies = enemies.cast::<PyList>().map_err(|_| CoreError::arg("config.enemies: expected a list"))?;
    let mut kinds = Vec::with_capacity(enemies.len());
    let mut splits = Vec::new();
    let mut bosses = Vec::new();
    for (i, item) in enemies.iter().enumerate() {
        let path = format!("config.enemies[{i}]");
        let Section(e) = decode::<Section<EnemyIn>>(&item, &path)?;
        let boss = item.cast::<PyDict>()?.get_item("boss")?.filter(|b| !b.is_none());
        let tag = e.behavior.0.as_str();
        let wanted = Behavior::block_of(tag).map_err(|err| CoreError::arg(format!("{path}: {err}")))?;
        let blocks = [
            ("attack", e.attack.is_some()),
            ("shield", e.shield.is_some()),
            ("explode", e.explode.is_some()),
            ("split", e.split.is_some()),
            ("boss", boss.is_some()),
        ];
        for (block, present) in blocks {
            if present != (wanted == Some(block)) {
                return Err(CoreError::arg(block_refused(&path, tag, block, present)).into());
            }
        }
        let behavior = match (tag, e.attack, e.shield, e.explode) {
            (_, Some(Section(a)), _, _) => Behavior::KeepDistance(a.into()),
            (_, _, Some(Section(s)), _) => {
                Behavior::Shield(Shield { arc_degrees: s.arc.0, reflect_damage: s.reflect_damage.0 })
            }
            (_, _, _, Some(Section(b))) => {
                Behavior::Explode(DeathBlast { radius: b.radius.0, damage: b.damage.0, element: b.element.0 })
            }
            ("swarm", ..) => Behavior::Swarm,
            // Chase; a split's and a boss's blocks name kinds: they are filled in below once
            // every kind's id is known.
            _ => Behavior::Chase,
        };
        if let Some(boss) = boss {
            bosses.push((i, format!("{path}.boss"), boss));
        }
        if let Some(Section(split)) = e.split {
            splits.push((i, path.clone(), split));
        }
        kinds.push(EnemyKind {
            name: e.id.0,
            hp: e.hp.0,
            speed: e.speed.0,
            radius: e.radius.0,
            contact_damage: e.contact_damage.0,
            armor: e.armor.0,
            resist: e.resistances.map_or([0.0; ELEMENTS], |r| r.0),
            reward: e.reward.0,
            behavior,
        });
    }
    // A boss's adds and clones name kinds too.
    let names: Vec<String> = kinds.iter().map(|k| k.name.clone()).collect();
    for (i, path, boss) in bosses {
        kinds[i].behavior = Behavior::Boss(Box::new(boss_def(&boss, &path, &names)?));
    }
    // `split.into` names a kind; the core numbers kinds by position.
    for (i, path, split) in splits {
        let into = split.into.0;
        let Some(child) = kinds.iter().position(|k| k.name == into) else {
            return Err(CoreError::arg(format!("{path}.split.into: unknown enemy {into:?}")).into());
        };
        kinds[i].behavior = Behavior::Split(Split { into: child as u16, count: split.count.0, spread: split.spread.0 });
    }
    let (arena, sim, elite) = (c.arena.0, c.sim.0, c.elite.0);
    Ok(WorldConfig {
        arena_w: arena.width.0,
        arena_h: arena.height.0,
        tick_hz: sim.tick_hz.0,
        separation_strength: sim.separation_strength.0,
        separation_candidates: sim.separation_candidates.0,
        grid_cells_per_entity: sim.grid_cells_per_entity.0,
        hit_events_per_frame: sim.hit_events_per_frame.0,
        hit_flash_frames: sim.hit_flash_frames.0,
        elite_hp_multiplier: elite.hp_multiplier.0,
        elite_reward_multiplier: elite.reward_multiplier.0,
        player: c.player.0.into(),
        pickups: c.pickups.0.into(),
        enemy_kinds: kinds,
        rules,
        vm: c.vm.0.into(),
        statuses: c.statuses.0.into(),
        turn_seconds: c.turn.0.seconds.0,
        combat: c.combat.0.into(),
        mutators,
        seed,
    })
}

/// Why the kind at `path` may not have (`present`) or lack its `block` under behaviour `tag`:
/// each block goes with, and only with, its behaviour (content.models says the same; the core
/// checks again rather than trust its caller).
fn block_refused(path: &str, tag: &str, block: &str, present: bool) -> String {
    let a = if block.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    if present {
        let owner = Behavior::BLOCKS.iter().find(|(_, b)| *b == block).map_or("?", |(behavior, _)| *behavior);
        format!("{path}.{block}: only behavior {owner:?} takes {a} {block} block (this enemy is {tag:?})")
    } else {
        format!("{path}.{block}: behavior {tag:?} requires {a} {block} block")
    }
}

/// balance.json `vm`, reached by `path` (the catalog's own copy).
pub fn vm_params(obj: &Bound<'_, PyAny>, path: &str) -> PyResult<VmParams> {
    decode::<Section<VmIn>>(obj, path).map(|Section(v)| v.into())
}

/// `{"player_fixed": bool, ...}`; missing keys are false.
pub fn rules(obj: &Bound<'_, PyAny>) -> PyResult<Rules> {
    let dict = obj.cast::<PyDict>().map_err(|_| CoreError::arg("rules: expected a dict"))?;
    for (k, _) in dict.iter() {
        let key: String = k.extract().unwrap_or_default();
        if !RULE_NAMES.contains(&key.as_str()) {
            return Err(CoreError::arg(format!("rules.{key}: unknown rule (known: {})", RULE_NAMES.join(", "))).into());
        }
    }
    let flag = |key: &str| -> PyResult<bool> {
        match dict.get_item(key)? {
            None => Ok(false),
            Some(v) => v.extract::<Flag>().map(|f| f.0).map_err(|e| at(obj.py(), &format!("rules.{key}"), e)),
        }
    };
    Ok(Rules {
        player_fixed: flag("player_fixed")?,
        player_invulnerable: flag("player_invulnerable")?,
        enemies_immortal: flag("enemies_immortal")?,
        respawn_spent_projectiles: flag("respawn_spent_projectiles")?,
        no_hit_memory: flag("no_hit_memory")?,
        enemies_still: flag("enemies_still")?,
        hit_events: flag("hit_events")?,
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
