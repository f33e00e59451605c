//! The spell catalog, cores and recipes handed to the core (from
//! `data/spells.json`, `cores.json`, `resonance_recipes.json`, already
//! validated by pydantic), the compiler's face for the lab and the CLI, and
//! the wand sandbox (`artificer wand`).

use std::collections::HashMap;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::args::Int;
use super::config::{vm_params, Section};
use crate::sim::config::{Element, VmParams};
use crate::sim::limits::{self, MAX_AMOUNT, MAX_COORD, MAX_COUNT, MAX_SECONDS};
use crate::sim::CoreError;
use crate::vm::board::{CoreDef, Dir, Flags, Slot};
use crate::vm::compile::{Compiler, Recipe};
use crate::vm::exec::{CastOutput, Caster, Emission, Senses, VmEvent};
use crate::vm::mana::Mana;
use crate::vm::program::Program;
use crate::vm::spell::*;
use crate::vm::timeline::{timeline, Timeline};

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
            let def = spell_def(&Section::root(&s, &format!("spells[{i}]"))?)?;
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
            let r = Section::root(&r, &format!("recipes[{i}]"))?;
            let inputs: Vec<String> = r
                .item("inputs")?
                .extract()
                .map_err(|_| CoreError::arg(format!("{}.inputs: expected two spell ids", r.path)))?;
            if inputs.len() != 2 {
                return Err(CoreError::arg(format!("{}.inputs: expected two spell ids", r.path)).into());
            }
            rs.push(Recipe {
                id: r.string("id")?,
                inputs: (find(&r.path, &inputs[0])?, find(&r.path, &inputs[1])?),
                product: find(&r.path, &r.string("product")?)?,
                anywhere: r.string("match")? == "anywhere_in_deck",
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
    /// [{"slots", "cards", "fired", "mana", "delay", "recharge", "damage"}],
    /// "cycle_complete", "cycle_seconds", "mana_per_cycle", "mana_per_cast",
    /// "demand_per_s", "regen", "burst_dps", "sustained_dps", "dry_after_s"}`.
    #[pyo3(
        signature = (core, cards, cpu = Int::from(0), moving = false, hp = 100.0, hp_max = 100.0, nearest_enemy = 64.0),
        text_signature = "($self, core, cards, cpu=0, moving=False, hp=100.0, hp_max=100.0, nearest_enemy=64.0)"
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
    ) -> PyResult<Bound<'py, PyDict>> {
        let cpu = cpu.count("cpu", MAX_COUNT)?;
        let senses = senses(moving, hp, hp_max, nearest_enemy)?;
        let core = core_def(core, &self.index)?;
        let program = self.compile_cards(&core, cards, cpu, &self.vm)?;
        let caster = new_caster(program, &core, 0, &self.vm);
        let t = timeline(&caster, senses);
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
    /// "abandoned", "cpu_exhausted", "delay", "fired": [...]}`.
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
        let fired = PyList::empty(py);
        for e in &out.emissions {
            fired.append(self.describe(py, e, &senses, 0)?)?;
        }
        d.set_item("fired", fired)?;
        Ok(d)
    }
}

/// What a cast senses, checked: 10**-6 ≤ hp_max ≤ 10**9, 0 ≤ hp ≤ hp_max,
/// 0 ≤ nearest_enemy ≤ 10**9 px (or infinity: no enemy in sight).
fn senses(moving: bool, hp: f64, hp_max: f64, nearest_enemy: f64) -> Result<Senses, CoreError> {
    let hp_max = limits::float("hp_max", hp_max, 1e-6, MAX_AMOUNT)?;
    let hp = limits::float("hp", hp, 0.0, hp_max as f64)?;
    let nearest_enemy = match nearest_enemy {
        f64::INFINITY => f32::INFINITY,
        d => limits::float("nearest_enemy", d, 0.0, MAX_COORD)?,
    };
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
        let nested = e.trigger.map(|t| t.2).or(e.summon);
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

fn element(s: &Section<'_>, key: &str) -> Result<Option<Element>, CoreError> {
    if !s.has(key) {
        return Ok(None);
    }
    Element::from_name(&s.string(key)?).map(Some).map_err(|e| CoreError::arg(format!("{}.{key}: {e}", s.path)))
}

fn path(s: &Section<'_>, key: &str) -> Result<Option<Path>, CoreError> {
    if !s.has(key) {
        return Ok(None);
    }
    Ok(Some(match s.string(key)?.as_str() {
        "straight" => Path::Straight,
        "sine" => Path::Sine,
        "orbit" => {
            let o = s.sub("orbit")?;
            Path::Orbit(Orbit { radius: o.f32("radius")?, degrees_per_second: o.f32("degrees_per_second")? })
        }
        other => return Err(CoreError::arg(format!("{}.{key}: unknown path {other:?}", s.path))),
    }))
}

fn action_def(a: &Section<'_>) -> Result<ActionDef, CoreError> {
    let kind = match a.string("kind")?.as_str() {
        "projectile" => ActionKind::Projectile,
        "zone" => ActionKind::Zone,
        "summon" => ActionKind::Summon,
        "blast" => ActionKind::Blast,
        other => return Err(CoreError::arg(format!("{}.kind: unknown action kind {other:?}", a.path))),
    };
    let (mut zone_pull, mut zone_heal, mut zone_dps, mut lifetime) = (0.0, 0.0, 0.0, a.opt_f32("lifetime", 0.0)?);
    if a.has("zone") {
        let z = a.sub("zone")?;
        zone_pull = z.opt_f32("pull", 0.0)?;
        zone_heal = z.opt_f32("heal_per_second", 0.0)?;
        zone_dps = z.opt_f32("damage_per_second", 0.0)?;
        lifetime = z.f32("duration")?;
    }
    let (mut summon_period, mut summon_cost_share) = (0.0, 1.0);
    if a.has("summon") {
        let s = a.sub("summon")?;
        summon_period = s.f32("period")?;
        summon_cost_share = s.opt_f32("cost_share", 1.0)?;
        lifetime = s.f32("duration")?;
    }
    let charge = if a.has("charge") {
        let c = a.sub("charge")?;
        Some((c.f32("still_seconds")?, c.f32("multiplier")?))
    } else {
        None
    };
    Ok(ActionDef {
        kind,
        damage: a.f32("damage")?,
        speed: a.f32("speed")?,
        radius: a.f32("radius")?,
        lifetime,
        spread: a.opt_f32("spread", 0.0)?,
        pierce: a.opt_u32("pierce", 0)?,
        bounces: a.opt_u32("bounces", 0)?,
        explode_radius: a.opt_f32("explode_radius", 0.0)?,
        chain: a.opt_u32("chain", 0)?,
        chain_range: a.opt_f32("chain_range", 0.0)?,
        homing: a.opt_f32("homing", 0.0)?,
        path: path(a, "path")?.unwrap_or_default(),
        zone_pull,
        zone_heal,
        zone_dps,
        summon_period,
        summon_cost_share,
        moving_multiplier: a.opt_f32("moving_multiplier", 1.0)?,
        charge,
    })
}

fn shot_mod(m: &Section<'_>) -> Result<ShotMod, CoreError> {
    Ok(ShotMod {
        damage_flat: m.opt_f32("damage_flat", 0.0)?,
        damage_mult: m.opt_f32("damage_mult", 1.0)?,
        speed_mult: m.opt_f32("speed_mult", 1.0)?,
        lifetime_add: m.opt_f32("lifetime_add", 0.0)?,
        spread_add: m.opt_f32("spread_add", 0.0)?,
        bounce_add: m.opt_u32("bounce_add", 0)?,
        pierce_add: m.opt_u32("pierce_add", 0)?,
        homing_add: m.opt_f32("homing_add", 0.0)?,
        path: path(m, "path")?,
        element: element(m, "element")?,
        status_chance_add: m.opt_f32("status_chance_add", 0.0)?,
        crit_add: m.opt_f32("crit_add", 0.0)?,
        knockback_add: m.opt_f32("knockback_add", 0.0)?,
        size_mult: m.opt_f32("size_mult", 1.0)?,
        lifesteal_add: m.opt_f32("lifesteal_add", 0.0)?,
        splitter: m.flag("splitter")?,
    })
}

fn register(l: &Section<'_>) -> Result<u8, CoreError> {
    match l.string("register")?.as_str() {
        "A" => Ok(0),
        "B" => Ok(1),
        other => Err(CoreError::arg(format!("{}.register: unknown register {other:?}", l.path))),
    }
}

fn logic_def(l: &Section<'_>) -> Result<LogicDef, CoreError> {
    let span = l.opt_u32("span", 1)?;
    let gate = |cond| Ok(LogicDef::Gate { cond, span });
    match l.string("kind")?.as_str() {
        "if_hp_low" => gate(Cond::HpLow(l.opt_f32("threshold", 0.3)?)),
        "if_enemy_close" => gate(Cond::EnemyClose(l.opt_f32("threshold", 64.0)?)),
        "if_moving" => gate(Cond::Moving),
        "if_still" => gate(Cond::Still),
        "if_mana_above" => gate(Cond::ManaAbove(l.f32("threshold")?)),
        "if_reg_ge" => gate(Cond::RegGe(register(l)?, l.i32("value")?)),
        "halt_if_reg_lt" => Ok(LogicDef::HaltIf(Cond::RegLt(register(l)?, l.i32("value")?))),
        "halt" => Ok(LogicDef::Halt),
        "loop" => Ok(LogicDef::Loop {
            span: l.opt_u32("span", 3)?,
            count: l.opt_u32("count", 5)?,
            grants_budget: l.flag("grants_budget")?,
        }),
        "reg_set" => Ok(LogicDef::RegSet { reg: register(l)?, value: l.i32("value")? }),
        "reg_add" => Ok(LogicDef::RegAdd { reg: register(l)?, value: l.i32("value")? }),
        "charge_counter" => Ok(LogicDef::ChargeCounter { n: l.u32("n")?, counter: 0, span }),
        "kill_combo" => Ok(LogicDef::KillCombo { n: l.u32("n")?, counter: 0, span }),
        other => Err(CoreError::arg(format!("{}.kind: unknown logic kind {other:?}", l.path))),
    }
}

fn spell_def(s: &Section<'_>) -> Result<SpellDef, CoreError> {
    let family = s.string("family")?;
    let (family, effect) = match family.as_str() {
        "action" => (Family::Action, Effect::Action(action_def(&s.sub("action")?)?)),
        "modifier" => (Family::Modifier, Effect::Modifier(shot_mod(&s.sub("modifier")?)?)),
        "multicast" => {
            let m = s.sub("multicast")?;
            (Family::Multicast, Effect::Multicast { count: m.u32("count")?.max(1), spread: m.opt_f32("spread", 0.0)? })
        }
        "trigger" => {
            let t = s.sub("trigger")?;
            let kind = match t.string("kind")?.as_str() {
                "on_hit" => TriggerKind::OnHit,
                "timer" => TriggerKind::Timer,
                "on_expire" => TriggerKind::OnExpire,
                other => return Err(CoreError::arg(format!("{}.kind: unknown trigger kind {other:?}", t.path))),
            };
            let def = TriggerDef { kind, delay: t.opt_f32("delay", 0.0)?, carrier: action_def(&t.sub("carrier")?)? };
            (Family::Trigger, Effect::Trigger(def))
        }
        "logic" => (Family::Logic, Effect::Logic(logic_def(&s.sub("logic")?)?)),
        other => return Err(CoreError::arg(format!("{}.family: unknown family {other:?}", s.path))),
    };
    Ok(SpellDef {
        id: s.string("id")?,
        family,
        mana_cost: s.f32("mana_cost")?,
        cpu: s.u32("cpu")?,
        cast_delay: s.f32("cast_delay")?,
        element: element(s, "element")?,
        effect,
    })
}

/// A cores.json entry with its board expanded to explicit slots and edges.
pub fn core_def(obj: &Bound<'_, PyAny>, spells: &HashMap<String, u16>) -> Result<CoreDef, CoreError> {
    let c = Section::root(obj, "core")?;
    let board = c.sub("board")?;
    let slots_list = board.item("slots")?;
    let slots_list = slots_list
        .cast::<PyList>()
        .map_err(|_| CoreError::arg("core.board.slots: expected an expanded list of slots"))?;
    let mut ids: HashMap<String, usize> = HashMap::new();
    let mut slots = Vec::with_capacity(slots_list.len());
    for (i, s) in slots_list.iter().enumerate() {
        let s = Section::root(&s, &format!("core.board.slots[{i}]"))?;
        if ids.insert(s.string("id")?, i).is_some() {
            return Err(CoreError::arg(format!("{}.id: a second slot with the id {:?}", s.path, s.string("id")?)));
        }
        let bonus = if s.has("bonus") {
            let b = s.sub("bonus")?;
            let dir = Dir::from_name(&b.string("dir")?)
                .ok_or_else(|| CoreError::arg(format!("{}.dir: unknown direction", b.path)))?;
            Some((dir, b.f32("mult")?))
        } else {
            None
        };
        slots.push(Slot { x: s.i32("x")?, y: s.i32("y")?, bonus, next: Vec::new() });
    }
    let slot_of = |path: &str, id: &str| {
        ids.get(id).copied().ok_or_else(|| CoreError::arg(format!("{path}: unknown slot {id:?}")))
    };
    let edges: Vec<Vec<String>> =
        board.item("edges")?.extract().map_err(|_| CoreError::arg("core.board.edges: expected [from, to] pairs"))?;
    for edge in &edges {
        let [from, to] = edge.as_slice() else {
            return Err(CoreError::arg("core.board.edges: expected [from, to] pairs"));
        };
        let (a, b) = (slot_of("core.board.edges", from)?, slot_of("core.board.edges", to)?);
        slots[a].next.push(b);
    }
    let entries = board.sub("entries")?;
    let entry = |key: &str| -> Result<Option<usize>, CoreError> {
        if entries.has(key) {
            Ok(Some(slot_of(&entries.path, &entries.string(key)?)?))
        } else {
            Ok(None)
        }
    };
    let flags: Vec<String> = c
        .item("flags")
        .and_then(|f| f.extract().map_err(|_| CoreError::arg("core.flags: expected a list")))
        .unwrap_or_default();
    let has = |f: &str| flags.iter().any(|x| x == f);
    let core = CoreDef {
        id: c.string("id")?,
        mana_max: c.f32("mana_max")?,
        mana_regen: c.f32("mana_regen")?,
        cast_delay: c.f32("cast_delay")?,
        recharge: c.opt_f32("recharge", 0.0)?,
        cpu_limit: c.u32("cpu_limit")?,
        flags: Flags {
            dual_stream: has("dual_stream"),
            persistent_memory: has("persistent_memory"),
            matrix_board: has("matrix_board"),
            infinite_spells: has("infinite_spells"),
            debug_core: has("debug_core"),
            program: has("program"),
        },
        main: entry("main")?.ok_or_else(|| CoreError::arg("core.board.entries.main: missing"))?,
        on_kill: entry("on_kill")?,
        on_hit: entry("on_hit")?,
        dash_wave: match c.has("dash_wave") {
            true => {
                let d = c.sub("dash_wave")?;
                let id = d.string("spell")?;
                let spell = *spells
                    .get(&id)
                    .ok_or_else(|| CoreError::arg(format!("{}.spell: unknown spell {id:?}", d.path)))?;
                Some((spell, d.f32("cooldown")?))
            }
            false => None,
        },
        slots,
    };
    core.validate().map_err(CoreError::arg)?;
    Ok(core)
}
