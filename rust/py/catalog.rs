//! The spell catalog, cores and recipes handed to the core (from
//! `data/spells.json`, `cores.json`, `resonance_recipes.json`, already
//! validated by pydantic), the compiler's face for the lab and the CLI, and
//! the wand sandbox (`artificer wand`).

use std::collections::HashMap;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::args::Int;
use super::config::vm_params;
use super::decode::{decode, reason, Dict, ElementName, Flag, Str, ValueOr, F32, I32, U32};
use crate::sim::config::{Element, VmParams};
use crate::sim::limits::{self, MAX_AMOUNT, MAX_COORD, MAX_COUNT, MAX_FACTOR, MAX_SECONDS};
use crate::sim::CoreError;
use crate::vm::board::{CoreDef, Dir, Flags, Slot};
use crate::vm::compile::{Compiler, Recipe};
use crate::vm::exec::{CastOutput, Caster, Emission, Senses, VmEvent};
use crate::vm::mana::Mana;
use crate::vm::program::{Drawn, Program};
use crate::vm::spell::*;
use crate::vm::timeline::{timeline, timeline_scaled, Scale, Timeline};

#[pyclass(module = "artificer._core", frozen)]
pub struct Catalog {
    pub spells: Vec<SpellDef>,
    pub recipes: Vec<Recipe>,
    pub index: HashMap<String, u16>,
    /// balance.json `vm`: the mana rules the lab's figures are cast under,
    /// the same the world's wand uses.
    pub vm: VmParams,
}

#[pymethods]
impl Catalog {
    /// `spells`: spells.json entries in file order (`model_dump(by_alias=True)`);
    /// `recipes`: resonance_recipes.json entries; `vm`: balance.json's `vm`
    /// (the sustained-fire and step rules; the core has no copy of them).
    #[new]
    fn new(spells: &Bound<'_, PyList>, recipes: &Bound<'_, PyList>, vm: &Bound<'_, PyAny>) -> PyResult<Self> {
        let vm = vm_params(vm, "vm")?;
        vm.validate()?;
        // Spells are numbered in 16 bits (the VM's cards, the projectiles' looks).
        if spells.len() > u16::MAX as usize {
            return Err(CoreError::arg(format!("spells: at most {} spells, got {}", u16::MAX, spells.len())).into());
        }
        let mut defs = Vec::with_capacity(spells.len());
        let mut index = HashMap::new();
        for (i, s) in spells.iter().enumerate() {
            let Dict(SpellIn(def)) = decode(&s, &format!("spells[{i}]"))?;
            def.validate().map_err(|e| CoreError::arg(format!("spells[{i}] ({:?}): {e}", def.id)))?;
            if index.insert(def.id.clone(), i as u16).is_some() {
                return Err(CoreError::arg(format!("spells[{i}]: duplicate id {:?}", def.id)).into());
            }
            defs.push(def);
        }
        let find = |path: &str, id: &str| {
            index.get(id).copied().ok_or_else(|| CoreError::arg(format!("{path}: unknown spell {id:?}")))
        };
        let mut rs = Vec::with_capacity(recipes.len());
        for (i, r) in recipes.iter().enumerate() {
            let path = format!("recipes[{i}]");
            let Dict(r) = decode::<Dict<RecipeIn>>(&r, &path)?;
            let SpellPair([first, second]) = r.inputs;
            rs.push(Recipe {
                id: r.id.0,
                inputs: (find(&path, &first)?, find(&path, &second)?),
                product: find(&path, &r.product.0)?,
                anywhere: r.r#match.0 == "anywhere_in_deck",
            });
        }
        Ok(Catalog { spells: defs, recipes: rs, index, vm })
    }

    #[getter]
    fn spell_ids(&self) -> Vec<String> {
        self.spells.iter().map(|s| s.id.clone()).collect()
    }

    /// Compiles `cards` (one spell id or None per board slot, in the
    /// core's slot order) on `core` (a cores.json entry with its board
    /// expanded); `cpu` is the player's CPU stat (R-STAT-1: it raises the
    /// limit). Returns the diagnostics and the disassembly.
    #[pyo3(signature = (core, cards, cpu = Int::from(0)), text_signature = "($self, core, cards, cpu=0)")]
    fn compile<'py>(
        &self,
        py: Python<'py>,
        core: &Bound<'py, PyAny>,
        cards: &Bound<'py, PyAny>,
        cpu: Int,
    ) -> PyResult<Bound<'py, PyDict>> {
        let cpu = cpu.count("cpu", MAX_COUNT)?;
        let core = core_def(core, &self.index)?;
        let program = self.compile_cards(&core, cards, cpu, &self.vm)?;
        diagnostics_dict(py, &program, &self.names())
    }

    /// R-VM-3c: the cast timeline of `cards` on `core` from the head at full
    /// mana, under training-range conditions (the senses given): `{"casts":
    /// [{"slots", "cards", "fired", "mana", "delay", "recharge", "damage", "unpaid", "unpaid_cards"}],
    /// "cycle_complete", "cycle_seconds", "mana_per_cycle", "mana_per_cast",
    /// "demand_per_s", "regen", "burst_dps", "sustained_dps", "dry_after_s"}`.
    /// The player's own wand (R-CURVE-1, R-SHOP-1: the lab's figure with the stats and relics):
    /// `cast_speed` as `World.set_wand_stats` takes it (clamped to 0..=0.95 as there), the pool's
    /// `mana_regen` and `mana_max` bonuses, and `damage`: what each element's hits are multiplied
    /// by (`{element name: factor}`, 1 for one not named: attunement), and the player's
    /// `crit_chance` (a card's added) at `crit_multiplier`, counted at their expected share.
    #[pyo3(
        signature = (
            core, cards, cpu = Int::from(0), moving = false, hp = 100.0, hp_max = 100.0, nearest_enemy = 64.0,
            cast_speed = 0.0, mana_regen = 0.0, mana_max = 0.0, damage = None, crit_chance = 0.0, crit_multiplier = 1.0
        ),
        text_signature = "($self, core, cards, cpu=0, moving=False, hp=100.0, hp_max=100.0, nearest_enemy=64.0, cast_speed=0.0, mana_regen=0.0, mana_max=0.0, damage=None, crit_chance=0.0, crit_multiplier=1.0)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn timeline<'py>(
        &self,
        py: Python<'py>,
        core: &Bound<'py, PyAny>,
        cards: &Bound<'py, PyAny>,
        cpu: Int,
        moving: bool,
        hp: f64,
        hp_max: f64,
        nearest_enemy: f64,
        cast_speed: f64,
        mana_regen: f64,
        mana_max: f64,
        damage: Option<&Bound<'py, PyDict>>,
        crit_chance: f64,
        crit_multiplier: f64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let cpu = cpu.count("cpu", MAX_COUNT)?;
        let senses = senses(moving, hp, hp_max, nearest_enemy)?;
        let cast_speed = limits::float("cast_speed", cast_speed, -MAX_FACTOR, MAX_FACTOR)?;
        let mana_regen = limits::float("mana_regen", mana_regen, 0.0, MAX_AMOUNT)?;
        let mana_max = limits::float("mana_max", mana_max, 0.0, MAX_AMOUNT)?;
        let mut scale = Scale {
            spell_elements: self.spells.iter().map(|s| s.element).collect(),
            crit_chance: limits::float("crit_chance", crit_chance, 0.0, 1.0)?,
            crit_multiplier: limits::float("crit_multiplier", crit_multiplier, 1.0, MAX_FACTOR)?,
            ..Scale::default()
        };
        for (k, v) in damage.into_iter().flat_map(|d| d.iter()) {
            let name: String = k.extract().map_err(|_| CoreError::arg("damage: keys are element names"))?;
            let element =
                Element::from_name(&name).map_err(|_| CoreError::arg(format!("damage: unknown element {name:?}")))?;
            let factor: f64 = v.extract().map_err(|_| CoreError::arg(format!("damage.{name}: expected a number")))?;
            scale.by_element[element as usize] = limits::float(&format!("damage.{name}"), factor, 0.0, MAX_FACTOR)?;
        }
        let core = core_def(core, &self.index)?;
        let program = self.compile_cards(&core, cards, cpu, &self.vm)?;
        let mut caster = new_caster(program, &core, 0, &self.vm);
        caster.rules.cast_speed = cast_speed.clamp(0.0, 0.95);
        caster.mana.regen += mana_regen;
        caster.mana.max += mana_max;
        let t = timeline_scaled(&caster, senses, &scale);
        timeline_dict(py, &t, &self.names())
    }

    /// A sandboxed wand for the simulator CLI and the lab's range.
    #[pyo3(signature = (core, cards, mana = None, seed = super::args::Seed(0)), text_signature = "($self, core, cards, mana=None, seed=0)")]
    fn sandbox(
        &self,
        core: &Bound<'_, PyAny>,
        cards: &Bound<'_, PyAny>,
        mana: Option<f64>,
        seed: super::args::Seed,
    ) -> PyResult<WandSandbox> {
        let seed = seed.0;
        let mana = mana.map(|m| limits::float("mana", m, 0.0, MAX_AMOUNT)).transpose()?;
        let core_def = core_def(core, &self.index)?;
        let program = self.compile_cards(&core_def, cards, 0, &self.vm)?;
        let mut caster = new_caster(program, &core_def, seed, &self.vm);
        if let Some(m) = mana {
            caster.mana.current = m.min(caster.mana.max);
        }
        Ok(WandSandbox { caster, names: self.names(), elements: self.spells.iter().map(|s| s.element).collect() })
    }
}

impl Catalog {
    pub fn spell_ids_vec(&self) -> Vec<String> {
        self.names()
    }

    fn names(&self) -> Vec<String> {
        self.spells.iter().map(|s| s.id.clone()).collect()
    }

    /// Compiles, then fills in what a cast actually spends (R-VM-3c) from
    /// the cast timeline under `vm`'s mana rules.
    pub fn compile_cards(
        &self,
        core: &CoreDef,
        cards: &Bound<'_, PyAny>,
        cpu: u32,
        vm: &VmParams,
    ) -> Result<Program, CoreError> {
        let mut program = self.compile_placed(core, cards, cpu)?;
        let caster = new_caster(program.clone(), core, 0, vm);
        let t = timeline(&caster, Senses { hp: 100.0, hp_max: 100.0, moving: false, nearest_enemy: 64.0 });
        program.diagnostics.mana_per_cast = t.mana_per_cast();
        Ok(program)
    }

    fn compile_placed(&self, core: &CoreDef, cards: &Bound<'_, PyAny>, cpu: u32) -> Result<Program, CoreError> {
        let ids: Vec<Option<String>> =
            cards.extract().map_err(|_| CoreError::arg("cards: expected a list of spell ids or None"))?;
        if ids.len() > core.capacity() {
            return Err(CoreError::arg(format!(
                "{} cards for core {:?} with {} slots",
                ids.len(),
                core.id,
                core.capacity()
            )));
        }
        let mut placed = Vec::with_capacity(ids.len());
        for (i, id) in ids.iter().enumerate() {
            placed.push(match id {
                None => None,
                Some(id) => Some(
                    *self.index.get(id).ok_or_else(|| CoreError::arg(format!("cards[{i}]: unknown spell {id:?}")))?,
                ),
            });
        }
        Compiler::new(&self.spells, &self.recipes).compile_with_cpu(core, &placed, cpu).map_err(CoreError::arg)
    }
}

pub fn new_caster(program: Program, core: &CoreDef, seed: u64, vm: &VmParams) -> Caster {
    let mana = Mana::new(core.mana_max, core.mana_regen, vm.mana);
    let mut caster = Caster::new(
        program,
        mana,
        vm.cast_rules(),
        core.cast_delay,
        core.recharge,
        core.cpu_limit,
        core.flags.persistent_memory,
        core.flags.infinite_spells,
        seed,
    );
    caster.restart = core.flags.program;
    caster
}

/// A wand firing into nothing: cast by cast, what fires and what it costs.
#[pyclass(module = "artificer._core")]
pub struct WandSandbox {
    caster: Caster,
    names: Vec<String>,
    elements: Vec<Option<Element>>,
}

#[pymethods]
impl WandSandbox {
    #[getter]
    fn mana(&self) -> f32 {
        self.caster.mana.current
    }

    /// Regenerates mana for `seconds` (R-MANA-1).
    fn wait(&mut self, seconds: f64) -> PyResult<()> {
        let seconds = limits::float("seconds", seconds, 0.0, MAX_SECONDS)?;
        self.caster.mana.tick(seconds);
        Ok(())
    }

    /// One cast of the main entry. Returns `{"mana_before", "mana_after",
    /// "abandoned", "cpu_exhausted", "delay", "reload", "fired": [...]}`.
    #[pyo3(signature = (moving = false, hp = 100.0, hp_max = 100.0, nearest_enemy = 64.0))]
    fn cast<'py>(
        &mut self,
        py: Python<'py>,
        moving: bool,
        hp: f64,
        hp_max: f64,
        nearest_enemy: f64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let mut senses = senses(moving, hp, hp_max, nearest_enemy)?;
        let mut out = CastOutput::default();
        let before = self.caster.mana.current;
        let delay = self.caster.cast(&mut senses, &mut out);
        let d = PyDict::new(py);
        d.set_item("mana_before", before)?;
        d.set_item("mana_after", self.caster.mana.current)?;
        d.set_item("hp_after", senses.hp)?;
        d.set_item("abandoned", out.events.iter().any(|e| matches!(e, VmEvent::CastAbandoned { .. })))?;
        d.set_item("cpu_exhausted", out.events.contains(&VmEvent::CpuExhausted))?;
        d.set_item("delay", delay)?;
        // R-VM-3, R-VM-11: the cast wrapped its deck and the wand reloads (Noita's reload).
        d.set_item("reload", self.caster.last_recharged)?;
        let fired = PyList::empty(py);
        for e in &out.emissions {
            fired.append(self.describe(py, e, &senses, 0)?)?;
        }
        d.set_item("fired", fired)?;
        Ok(d)
    }
}

/// What a cast senses, checked: 10**-6 ≤ hp_max ≤ 10**9, 0 ≤ hp ≤ hp_max,
/// 0 ≤ nearest_enemy ≤ 10**9 px (finite: infinity, like NaN, is refused).
fn senses(moving: bool, hp: f64, hp_max: f64, nearest_enemy: f64) -> Result<Senses, CoreError> {
    let hp_max = limits::float("hp_max", hp_max, 1e-6, MAX_AMOUNT)?;
    let hp = limits::float("hp", hp, 0.0, hp_max as f64)?;
    let nearest_enemy = limits::float("nearest_enemy", nearest_enemy, 0.0, MAX_COORD)?;
    Ok(Senses { hp, hp_max, moving, nearest_enemy })
}

/// How deep the sandbox expands nested payloads in its report.
const PAYLOAD_DEPTH: u32 = 4;

impl WandSandbox {
    fn describe<'py>(
        &self,
        py: Python<'py>,
        e: &Emission,
        senses: &Senses,
        depth: u32,
    ) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("spell", &self.names[e.spell as usize])?;
        d.set_item("damage", (e.action.damage + e.shot.damage_flat) * e.shot.damage_mult)?;
        let element = e.shot.element.or(self.elements[e.spell as usize]).unwrap_or(Element::Physical);
        d.set_item("element", element.name())?;
        d.set_item("angle_deg", e.angle.to_degrees())?;
        d.set_item("speed", e.action.speed * e.shot.speed_mult)?;
        d.set_item("pierce", e.action.pierce.saturating_add(e.shot.pierce))?;
        d.set_item("kind", e.action.kind.name())?;
        d.set_item("lifesteal", e.shot.lifesteal)?;
        let payload = PyList::empty(py);
        let nested = e.trigger.map(|t| t.2).or(e.summon.map(Drawn::from));
        if let Some(span) = nested {
            if let Some((kind, delay, _)) = e.trigger {
                d.set_item("trigger", kind.name())?;
                d.set_item("trigger_delay", delay)?;
            }
            if depth < PAYLOAD_DEPTH {
                // Expand on a copy: a preview must not change the wand's state.
                let mut preview = self.caster.clone();
                let mut out = CastOutput::default();
                let mut s = *senses;
                preview.run_free(span, &mut s, &mut out);
                for inner in &out.emissions {
                    payload.append(self.describe(py, inner, senses, depth + 1)?)?;
                }
            }
        }
        d.set_item("payload", payload)?;
        Ok(d)
    }
}

pub fn diagnostics_dict<'py>(py: Python<'py>, p: &Program, names: &[String]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let g = &p.diagnostics;
    d.set_item("cpu_used", g.cpu_used)?;
    d.set_item("cpu_limit", g.cpu_limit)?;
    d.set_item("mana_per_cast", g.mana_per_cast)?;
    d.set_item("fusions", g.fusions.clone())?;
    d.set_item("warnings", g.warnings.iter().map(|w| w.code()).collect::<Vec<_>>())?;
    d.set_item("dropped_slots", g.dropped_slots.clone())?;
    d.set_item("unreachable_slots", g.unreachable_slots.clone())?;
    d.set_item("can_fire", p.can_fire())?;
    d.set_item("nodes", p.nodes.len())?;
    // The board slot of each node, so the lab can light up the card a TRACE event names.
    d.set_item("node_slots", p.nodes.iter().map(|n| n.slot).collect::<Vec<_>>())?;
    d.set_item("disassembly", p.disassemble(names))?;
    Ok(d)
}

fn timeline_dict<'py>(py: Python<'py>, t: &Timeline, names: &[String]) -> PyResult<Bound<'py, PyDict>> {
    let name = |i: &u16| names.get(*i as usize).cloned().unwrap_or_default();
    let casts = PyList::empty(py);
    for c in &t.casts {
        let d = PyDict::new(py);
        d.set_item("slots", c.slots.clone())?;
        d.set_item("cards", c.cards.iter().map(name).collect::<Vec<_>>())?;
        d.set_item("fired", c.fired.iter().map(name).collect::<Vec<_>>())?;
        d.set_item("mana", c.mana)?;
        d.set_item("delay", c.delay)?;
        d.set_item("recharge", c.recharged)?;
        // R-VM-3c: the slots of cards a full pool could not pay (passed over; added key).
        d.set_item("unpaid", c.unpaid.clone())?;
        d.set_item("unpaid_cards", c.unpaid_cards.iter().map(name).collect::<Vec<_>>())?;
        d.set_item("damage", c.damage)?;
        casts.append(d)?;
    }
    let d = PyDict::new(py);
    d.set_item("casts", casts)?;
    d.set_item("cycle_complete", t.cycle_complete)?;
    d.set_item("cycle_seconds", t.cycle_seconds)?;
    d.set_item("mana_per_cycle", t.mana_per_cycle)?;
    d.set_item("mana_per_cast", t.mana_per_cast())?;
    d.set_item("demand_per_s", t.demand)?;
    d.set_item("regen", t.regen)?;
    d.set_item("burst_dps", t.burst_dps)?;
    d.set_item("sustained_dps", t.sustained_dps)?;
    d.set_item("dry_after_s", t.dry_after_s)?;
    Ok(d)
}

// ---- content → core types ------------------------------------------------
//
// Each block is a struct decoded by `#[derive(FromPyObject)]`, its fields
// named as the dict's keys (`py/decode.rs`); the `…In` newtypes resolve it
// into the VM's type, refusing with the block's path.

/// A ring (`orbit`), the path `orbit` needs.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct OrbitIn {
    radius: F32,
    degrees_per_second: F32,
}

/// `path` and its `orbit` ring: `None` when the block names no path.
fn path(path: Option<Str>, orbit: Option<Dict<OrbitIn>>) -> PyResult<Option<Path>> {
    let Some(Str(name)) = path else {
        return Ok(None);
    };
    Ok(Some(match name.as_str() {
        "straight" => Path::Straight,
        "sine" => Path::Sine,
        "orbit" => {
            let Dict(o) = orbit.ok_or_else(|| reason(".orbit: missing"))?;
            Path::Orbit(Orbit { radius: o.radius.0, degrees_per_second: o.degrees_per_second.0 })
        }
        other => return Err(reason(format!(".path: unknown path {other:?}"))),
    }))
}

#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct ZoneIn {
    #[pyo3(default)]
    pull: Option<F32>,
    #[pyo3(default)]
    heal_per_second: Option<F32>,
    #[pyo3(default)]
    damage_per_second: Option<F32>,
    duration: F32,
}

#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct SummonIn {
    period: F32,
    #[pyo3(default)]
    cost_share: Option<F32>,
    duration: F32,
}

#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct ChargeIn {
    still_seconds: F32,
    multiplier: F32,
}

/// spells.json `action` (and a trigger's `carrier`).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct ActionRaw {
    kind: Str,
    damage: F32,
    speed: F32,
    radius: F32,
    #[pyo3(default)]
    lifetime: Option<F32>,
    #[pyo3(default)]
    spread: Option<F32>,
    #[pyo3(default)]
    pierce: Option<U32>,
    #[pyo3(default)]
    bounces: Option<U32>,
    #[pyo3(default)]
    explode_radius: Option<F32>,
    #[pyo3(default)]
    chain: Option<U32>,
    #[pyo3(default)]
    chain_range: Option<F32>,
    #[pyo3(default)]
    homing: Option<F32>,
    #[pyo3(default)]
    path: Option<Str>,
    #[pyo3(default)]
    orbit: Option<Dict<OrbitIn>>,
    #[pyo3(default)]
    zone: Option<Dict<ZoneIn>>,
    #[pyo3(default)]
    summon: Option<Dict<SummonIn>>,
    #[pyo3(default)]
    moving_multiplier: Option<F32>,
    #[pyo3(default)]
    charge: Option<Dict<ChargeIn>>,
}

struct ActionIn(ActionDef);

impl<'a, 'py> FromPyObject<'a, 'py> for ActionIn {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let a = ActionRaw::extract(obj)?;
        let kind = match a.kind.0.as_str() {
            "projectile" => ActionKind::Projectile,
            "zone" => ActionKind::Zone,
            "summon" => ActionKind::Summon,
            "blast" => ActionKind::Blast,
            other => return Err(reason(format!(".kind: unknown action kind {other:?}"))),
        };
        let (mut zone_pull, mut zone_heal, mut zone_dps, mut lifetime) = (0.0, 0.0, 0.0, a.lifetime.value_or(0.0));
        if let Some(Dict(z)) = a.zone {
            zone_pull = z.pull.value_or(0.0);
            zone_heal = z.heal_per_second.value_or(0.0);
            zone_dps = z.damage_per_second.value_or(0.0);
            lifetime = z.duration.0;
        }
        let (mut summon_period, mut summon_cost_share) = (0.0, 1.0);
        if let Some(Dict(s)) = a.summon {
            summon_period = s.period.0;
            summon_cost_share = s.cost_share.value_or(1.0);
            lifetime = s.duration.0;
        }
        Ok(ActionIn(ActionDef {
            kind,
            damage: a.damage.0,
            speed: a.speed.0,
            radius: a.radius.0,
            lifetime,
            spread: a.spread.value_or(0.0),
            pierce: a.pierce.value_or(0),
            bounces: a.bounces.value_or(0),
            explode_radius: a.explode_radius.value_or(0.0),
            chain: a.chain.value_or(0),
            chain_range: a.chain_range.value_or(0.0),
            homing: a.homing.value_or(0.0),
            path: path(a.path, a.orbit)?.unwrap_or_default(),
            zone_pull,
            zone_heal,
            zone_dps,
            summon_period,
            summon_cost_share,
            moving_multiplier: a.moving_multiplier.value_or(1.0),
            charge: a.charge.map(|Dict(c)| (c.still_seconds.0, c.multiplier.0)),
        }))
    }
}

/// spells.json `modifier`. Every key of the block has a default; the derive
/// needs one it must find, so `damage_flat`, which every dump carries, is
/// required.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct ModifierIn {
    damage_flat: Option<F32>,
    #[pyo3(default)]
    damage_mult: Option<F32>,
    #[pyo3(default)]
    speed_mult: Option<F32>,
    #[pyo3(default)]
    lifetime_add: Option<F32>,
    #[pyo3(default)]
    spread_add: Option<F32>,
    #[pyo3(default)]
    bounce_add: Option<U32>,
    #[pyo3(default)]
    pierce_add: Option<U32>,
    #[pyo3(default)]
    homing_add: Option<F32>,
    #[pyo3(default)]
    path: Option<Str>,
    #[pyo3(default)]
    orbit: Option<Dict<OrbitIn>>,
    #[pyo3(default)]
    element: Option<ElementName>,
    #[pyo3(default)]
    status_chance_add: Option<F32>,
    #[pyo3(default)]
    crit_add: Option<F32>,
    #[pyo3(default)]
    knockback_add: Option<F32>,
    #[pyo3(default)]
    size_mult: Option<F32>,
    #[pyo3(default)]
    lifesteal_add: Option<F32>,
    #[pyo3(default)]
    splitter: Flag,
    #[pyo3(default)]
    mana_gain: Option<F32>,
    #[pyo3(default)]
    adds_trigger: Option<Dict<AddsTriggerIn>>,
    #[pyo3(default)]
    divide: Option<Dict<DivideIn>>,
}

/// A modifier's `adds_trigger` (R-VM-14): when the next projectile's payload runs.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct AddsTriggerIn {
    kind: Str,
    #[pyo3(default)]
    delay: Option<F32>,
}

/// A modifier's `divide` (R-VM-14).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct DivideIn {
    copies: U32,
    damage_mult: F32,
    #[pyo3(default)]
    spread: Option<F32>,
}

fn trigger_kind(name: &str) -> PyResult<TriggerKind> {
    match name {
        "on_hit" => Ok(TriggerKind::OnHit),
        "timer" => Ok(TriggerKind::Timer),
        "on_expire" => Ok(TriggerKind::OnExpire),
        other => Err(reason(format!(".kind: unknown trigger kind {other:?}"))),
    }
}

struct ShotModIn(ShotMod);

impl<'a, 'py> FromPyObject<'a, 'py> for ShotModIn {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let m = ModifierIn::extract(obj)?;
        Ok(ShotModIn(ShotMod {
            damage_flat: m.damage_flat.value_or(0.0),
            damage_mult: m.damage_mult.value_or(1.0),
            speed_mult: m.speed_mult.value_or(1.0),
            lifetime_add: m.lifetime_add.value_or(0.0),
            spread_add: m.spread_add.value_or(0.0),
            bounce_add: m.bounce_add.value_or(0),
            pierce_add: m.pierce_add.value_or(0),
            homing_add: m.homing_add.value_or(0.0),
            path: path(m.path, m.orbit)?,
            element: m.element.map(|e| e.0),
            status_chance_add: m.status_chance_add.value_or(0.0),
            crit_add: m.crit_add.value_or(0.0),
            knockback_add: m.knockback_add.value_or(0.0),
            size_mult: m.size_mult.value_or(1.0),
            lifesteal_add: m.lifesteal_add.value_or(0.0),
            splitter: m.splitter.0,
            mana_gain: m.mana_gain.value_or(0.0),
            adds_trigger: match m.adds_trigger {
                Some(Dict(t)) => Some((trigger_kind(&t.kind.0)?, t.delay.value_or(0.0))),
                None => None,
            },
            divide: m.divide.map(|Dict(d)| Divide {
                copies: d.copies.0,
                damage_mult: d.damage_mult.0,
                spread: d.spread.value_or(0.0),
            }),
        }))
    }
}

#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct MulticastIn {
    count: U32,
    #[pyo3(default)]
    spread: Option<F32>,
}

#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct TriggerRaw {
    kind: Str,
    #[pyo3(default)]
    delay: Option<F32>,
    carrier: Dict<ActionIn>,
}

struct TriggerIn(TriggerDef);

impl<'a, 'py> FromPyObject<'a, 'py> for TriggerIn {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let t = TriggerRaw::extract(obj)?;
        let kind = trigger_kind(&t.kind.0)?;
        Ok(TriggerIn(TriggerDef { kind, delay: t.delay.value_or(0.0), carrier: t.carrier.0 .0 }))
    }
}

/// spells.json `logic`: each kind reads the keys it takes.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct LogicRaw {
    kind: Str,
    #[pyo3(default)]
    span: Option<U32>,
    #[pyo3(default)]
    threshold: Option<F32>,
    #[pyo3(default)]
    register: Option<Str>,
    #[pyo3(default)]
    value: Option<I32>,
    #[pyo3(default)]
    n: Option<U32>,
    #[pyo3(default)]
    count: Option<U32>,
    #[pyo3(default)]
    grants_budget: Flag,
}

struct LogicIn(LogicDef);

impl<'a, 'py> FromPyObject<'a, 'py> for LogicIn {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let l = LogicRaw::extract(obj)?;
        let missing = |key: &str| reason(format!(".{key}: missing"));
        let register = || match l.register.as_ref().map(|r| r.0.as_str()) {
            None => Err(missing("register")),
            Some("A") => Ok(0u8),
            Some("B") => Ok(1u8),
            Some(other) => Err(reason(format!(".register: unknown register {other:?}"))),
        };
        let value = || l.value.as_ref().map(|v| v.0).ok_or_else(|| missing("value"));
        let n = || l.n.as_ref().map(|n| n.0).ok_or_else(|| missing("n"));
        let span = l.span.as_ref().map_or(1, |s| s.0);
        let gate = |cond| Ok(LogicDef::Gate { cond, span });
        let threshold = |default| l.threshold.as_ref().map_or(default, |t| t.0);
        let def = match l.kind.0.as_str() {
            "if_hp_low" => gate(Cond::HpLow(threshold(0.3))),
            "if_enemy_close" => gate(Cond::EnemyClose(threshold(64.0))),
            "if_moving" => gate(Cond::Moving),
            "if_still" => gate(Cond::Still),
            "if_mana_above" => gate(Cond::ManaAbove(l.threshold.as_ref().ok_or_else(|| missing("threshold"))?.0)),
            "if_reg_ge" => gate(Cond::RegGe(register()?, value()?)),
            "halt_if_reg_lt" => Ok(LogicDef::HaltIf(Cond::RegLt(register()?, value()?))),
            "halt" => Ok(LogicDef::Halt),
            "loop" => Ok(LogicDef::Loop {
                span: l.span.as_ref().map_or(3, |s| s.0),
                count: l.count.as_ref().map_or(5, |c| c.0),
                grants_budget: l.grants_budget.0,
            }),
            "reg_set" => Ok(LogicDef::RegSet { reg: register()?, value: value()? }),
            "reg_add" => Ok(LogicDef::RegAdd { reg: register()?, value: value()? }),
            "charge_counter" => Ok(LogicDef::ChargeCounter { n: n()?, counter: 0, span }),
            "kill_combo" => Ok(LogicDef::KillCombo { n: n()?, counter: 0, span }),
            other => Err(reason(format!(".kind: unknown logic kind {other:?}"))),
        };
        def.map(LogicIn)
    }
}

/// A spells.json entry: its numbers and the block of its family.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct SpellRaw {
    id: Str,
    family: Str,
    mana_cost: F32,
    cpu: U32,
    cast_delay: F32,
    #[pyo3(default)]
    recharge: Option<F32>,
    #[pyo3(default)]
    resets_cast_delay: Option<bool>,
    #[pyo3(default)]
    element: Option<ElementName>,
    #[pyo3(default)]
    action: Option<Dict<ActionIn>>,
    #[pyo3(default)]
    modifier: Option<Dict<ShotModIn>>,
    #[pyo3(default)]
    multicast: Option<Dict<MulticastIn>>,
    #[pyo3(default)]
    trigger: Option<Dict<TriggerIn>>,
    #[pyo3(default)]
    logic: Option<Dict<LogicIn>>,
}

struct SpellIn(SpellDef);

impl<'a, 'py> FromPyObject<'a, 'py> for SpellIn {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let s = SpellRaw::extract(obj)?;
        fn block<T>(b: Option<Dict<T>>, key: &str) -> PyResult<T> {
            b.map(|Dict(b)| b).ok_or_else(|| reason(format!(".{key}: missing")))
        }
        let (family, effect) = match s.family.0.as_str() {
            "action" => (Family::Action, Effect::Action(block(s.action, "action")?.0)),
            "modifier" => (Family::Modifier, Effect::Modifier(block(s.modifier, "modifier")?.0)),
            "multicast" => {
                let m = block(s.multicast, "multicast")?;
                (Family::Multicast, Effect::Multicast { count: m.count.0.max(1), spread: m.spread.value_or(0.0) })
            }
            "trigger" => (Family::Trigger, Effect::Trigger(block(s.trigger, "trigger")?.0)),
            "logic" => (Family::Logic, Effect::Logic(block(s.logic, "logic")?.0)),
            other => return Err(reason(format!(".family: unknown family {other:?}"))),
        };
        Ok(SpellIn(SpellDef {
            id: s.id.0,
            family,
            mana_cost: s.mana_cost.0,
            cpu: s.cpu.0,
            cast_delay: s.cast_delay.0,
            recharge: s.recharge.value_or(0.0),
            resets_delay: s.resets_cast_delay.unwrap_or(false),
            element: s.element.map(|e| e.0),
            effect,
        }))
    }
}

/// A resonance_recipes.json entry; its spells are resolved by the catalog.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct RecipeIn {
    id: Str,
    inputs: SpellPair,
    product: Str,
    r#match: Str,
}

/// A recipe's two input spell ids.
struct SpellPair([String; 2]);

impl<'a, 'py> FromPyObject<'a, 'py> for SpellPair {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_none() {
            return Err(reason(": missing"));
        }
        let ids: Vec<String> = obj.extract().map_err(|_| reason(": expected two spell ids"))?;
        <[String; 2]>::try_from(ids).map(SpellPair).map_err(|_| reason(": expected two spell ids"))
    }
}

#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct SlotIn {
    id: Str,
    x: I32,
    y: I32,
    #[pyo3(default)]
    bonus: Option<Dict<BonusIn>>,
}

#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct BonusIn {
    dir: Str,
    mult: F32,
}

#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct EntriesIn {
    main: Str,
    #[pyo3(default)]
    on_kill: Option<Str>,
    #[pyo3(default)]
    on_hit: Option<Str>,
}

#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct DashWaveIn {
    spell: Str,
    cooldown: F32,
}

/// A cores.json entry; its `board` (a list of slots, each named by index)
/// is read apart.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct CoreIn {
    id: Str,
    mana_max: F32,
    mana_regen: F32,
    cast_delay: F32,
    #[pyo3(default)]
    recharge: Option<F32>,
    cpu_limit: U32,
    #[pyo3(default)]
    spells_per_cast: Option<U32>,
    #[pyo3(default)]
    always_cast: Option<Vec<Str>>,
    #[pyo3(default)]
    flags: FlagNames,
    #[pyo3(default)]
    dash_wave: Option<Dict<DashWaveIn>>,
}

/// A core's `flags`; anything but a list of strings reads as none.
#[derive(Default)]
struct FlagNames(Vec<String>);

impl<'a, 'py> FromPyObject<'a, 'py> for FlagNames {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(FlagNames(obj.extract().unwrap_or_default()))
    }
}

/// A cores.json entry with its board expanded to explicit slots and edges.
pub fn core_def(obj: &Bound<'_, PyAny>, spells: &HashMap<String, u16>) -> PyResult<CoreDef> {
    let Dict(c) = decode::<Dict<CoreIn>>(obj, "core")?;
    let board = obj.cast::<PyDict>()?.get_item("board")?.filter(|b| !b.is_none());
    let board = board.ok_or_else(|| CoreError::arg("core.board: missing"))?;
    let board = board.cast::<PyDict>().map_err(|_| CoreError::arg("core.board: expected a dict"))?;
    let slots_list = board.get_item("slots")?.filter(|s| !s.is_none());
    let slots_list = slots_list.ok_or_else(|| CoreError::arg("core.board.slots: missing"))?;
    let slots_list = slots_list
        .cast::<PyList>()
        .map_err(|_| CoreError::arg("core.board.slots: expected an expanded list of slots"))?;
    let mut ids: HashMap<String, usize> = HashMap::new();
    let mut slots = Vec::with_capacity(slots_list.len());
    for (i, s) in slots_list.iter().enumerate() {
        let path = format!("core.board.slots[{i}]");
        let Dict(s) = decode::<Dict<SlotIn>>(&s, &path)?;
        if ids.insert(s.id.0.clone(), i).is_some() {
            return Err(CoreError::arg(format!("{path}.id: a second slot with the id {:?}", s.id.0)).into());
        }
        let bonus = match s.bonus {
            Some(Dict(b)) => Some((
                Dir::from_name(&b.dir.0)
                    .ok_or_else(|| CoreError::arg(format!("{path}.bonus.dir: unknown direction")))?,
                b.mult.0,
            )),
            None => None,
        };
        slots.push(Slot { x: s.x.0, y: s.y.0, bonus, next: Vec::new() });
    }
    let slot_of = |path: &str, id: &str| {
        ids.get(id).copied().ok_or_else(|| CoreError::arg(format!("{path}: unknown slot {id:?}")))
    };
    let edges = board.get_item("edges")?.filter(|e| !e.is_none());
    let edges = edges.ok_or_else(|| CoreError::arg("core.board.edges: missing"))?;
    let edges: Vec<Vec<String>> =
        edges.extract().map_err(|_| CoreError::arg("core.board.edges: expected [from, to] pairs"))?;
    for edge in &edges {
        let [from, to] = edge.as_slice() else {
            return Err(CoreError::arg("core.board.edges: expected [from, to] pairs").into());
        };
        let (a, b) = (slot_of("core.board.edges", from)?, slot_of("core.board.edges", to)?);
        slots[a].next.push(b);
    }
    let entries = board.get_item("entries")?.unwrap_or_else(|| obj.py().None().into_bound(obj.py()));
    let Dict(entries) = decode::<Dict<EntriesIn>>(&entries, "core.board.entries")?;
    let entry = |id: Option<Str>| id.map(|Str(id)| slot_of("core.board.entries", &id)).transpose();
    let has = |f: &str| c.flags.0.iter().any(|x| x == f);
    let core = CoreDef {
        id: c.id.0.clone(),
        mana_max: c.mana_max.0,
        mana_regen: c.mana_regen.0,
        cast_delay: c.cast_delay.0,
        recharge: c.recharge.value_or(0.0),
        cpu_limit: c.cpu_limit.0,
        spells_per_cast: c.spells_per_cast.map_or(1, |n| n.0),
        always_cast: c
            .always_cast
            .unwrap_or_default()
            .into_iter()
            .enumerate()
            .map(|(i, Str(id))| {
                spells
                    .get(&id)
                    .copied()
                    .ok_or_else(|| CoreError::arg(format!("core.always_cast[{i}]: unknown spell {id:?}")))
            })
            .collect::<Result<_, _>>()?,
        flags: Flags {
            dual_stream: has("dual_stream"),
            persistent_memory: has("persistent_memory"),
            matrix_board: has("matrix_board"),
            infinite_spells: has("infinite_spells"),
            debug_core: has("debug_core"),
            program: has("program"),
        },
        main: slot_of("core.board.entries", &entries.main.0)?,
        on_kill: entry(entries.on_kill)?,
        on_hit: entry(entries.on_hit)?,
        dash_wave: match c.dash_wave {
            Some(Dict(d)) => {
                let id = d.spell.0;
                let spell = *spells
                    .get(&id)
                    .ok_or_else(|| CoreError::arg(format!("core.dash_wave.spell: unknown spell {id:?}")))?;
                Some((spell, d.cooldown.0))
            }
            None => None,
        },
        slots,
    };
    core.validate().map_err(CoreError::arg)?;
    Ok(core)
}
