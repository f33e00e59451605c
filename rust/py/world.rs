//! `World`: the simulation as Python sees it. One `step` per 60 Hz tick
//! reads the caller's input arrays and writes its output arrays (DESIGN §3),
//! with the GIL released while the core runs.

use numpy::PyReadonlyArray1;
use pyo3::prelude::*;

use super::args::{Int, SEED_RANGE};
use super::arrays::{readonly1, readonly2, readwrite1, readwrite2, Spec};
use super::catalog::{core_def, diagnostics_dict, new_caster, Catalog};
use super::config::{rules, world_config};
use super::rules::{PlayerStats, RelicRules};
use crate::sim::commands::{Command, COMMAND_WIDTH};
use crate::sim::config::Element;
use crate::sim::contract::EnemyFlag;
use crate::sim::events::{Event, EventKind};
use crate::sim::limits::{self, MAX_AMOUNT, MAX_COORD, MAX_COUNT, MAX_FACTOR, MAX_RADIUS, MAX_SPEED};
use crate::sim::player::{Controls, CONTROLS_WIDTH};
use crate::sim::pools::{NewProjectile, Owner};
use crate::sim::rng::STREAM_COUNT;
use crate::sim::world::WandMemory;
use crate::sim::{headless, packs, CoreError, World as CoreWorld};

/// The frame contract as module constants, all from `sim::contract` and the
/// contract enums, so that Python never hard-codes a column number, op or kind:
/// each buffer's width, `LAYOUTS` (each buffer's ordered column names) and the
/// name → value tables `OPS`, `STATUSES`, `EVENT_KINDS`, `REACTIONS`,
/// `BOSS_PATTERNS`, `RELIC_RULES`, `ENEMY_FLAGS` (and each flag as `ENEMY_FLAG_<NAME>`).
pub mod layout {
    use crate::sim::commands::{Op, Status};
    use crate::sim::contract::{self, EnemyFlag};
    use crate::sim::events::{BossPattern, EventKind, Reaction};
    use crate::sim::relics::RelicRule;

    pub const ENEMY_COLUMNS: usize = contract::ENEMY_FIELDS.len();
    pub const PROJECTILE_COLUMNS: usize = contract::PROJECTILE_FIELDS.len();
    pub const PICKUP_COLUMNS: usize = contract::PICKUP_FIELDS.len();
    pub const EVENT_COLUMNS: usize = contract::EVENT_FIELDS.len();
    pub const ZONE_COLUMNS: usize = contract::ZONE_FIELDS.len();
    pub const SUMMON_COLUMNS: usize = contract::SUMMON_FIELDS.len();
    pub const PLAYER_WIDTH: usize = contract::PLAYER_FIELDS.len();

    pub const CONSTANTS: &[(&str, usize)] = &[
        ("CONTROLS_WIDTH", super::CONTROLS_WIDTH),
        ("COMMAND_WIDTH", super::COMMAND_WIDTH),
        ("ENEMY_COLUMNS", ENEMY_COLUMNS),
        ("PROJECTILE_COLUMNS", PROJECTILE_COLUMNS),
        ("PICKUP_COLUMNS", PICKUP_COLUMNS),
        ("EVENT_COLUMNS", EVENT_COLUMNS),
        ("ZONE_COLUMNS", ZONE_COLUMNS),
        ("SUMMON_COLUMNS", SUMMON_COLUMNS),
        ("PLAYER_WIDTH", PLAYER_WIDTH),
        // R-SAVE-1: the length of `World.rng_state()`.
        ("RNG_STREAMS", crate::sim::rng::STREAM_COUNT),
    ];

    /// The name → value tables, by their module constant's name.
    pub fn tables() -> [(&'static str, Vec<(&'static str, u16)>); 7] {
        fn widen<R: Into<u16> + Copy>(names: &[(&'static str, R)]) -> Vec<(&'static str, u16)> {
            names.iter().map(|&(n, v)| (n, v.into())).collect()
        }
        [
            ("OPS", widen(Op::NAMES)),
            ("STATUSES", widen(Status::NAMES)),
            ("EVENT_KINDS", widen(EventKind::NAMES)),
            ("REACTIONS", widen(Reaction::NAMES)),
            ("BOSS_PATTERNS", widen(BossPattern::NAMES)),
            ("RELIC_RULES", widen(RelicRule::NAMES)),
            ("ENEMY_FLAGS", widen(EnemyFlag::NAMES)),
        ]
    }
}
use layout::*;

const CONTROLS: Spec = Spec { name: "controls", dtype: "float32", shape: &[Some(CONTROLS_WIDTH)] };
const COMMANDS: Spec = Spec { name: "commands", dtype: "float64", shape: &[None, Some(COMMAND_WIDTH)] };
const ENEMIES: Spec = Spec { name: "enemies", dtype: "float32", shape: &[None, Some(ENEMY_COLUMNS)] };
const PROJECTILES: Spec = Spec { name: "projectiles", dtype: "float32", shape: &[None, Some(PROJECTILE_COLUMNS)] };
const PICKUPS: Spec = Spec { name: "pickups", dtype: "float32", shape: &[None, Some(PICKUP_COLUMNS)] };
const PLAYER: Spec = Spec { name: "player", dtype: "float64", shape: &[Some(PLAYER_WIDTH)] };
const EVENTS: Spec = Spec { name: "events", dtype: "float64", shape: &[None, Some(EVENT_COLUMNS)] };
const ZONES: Spec = Spec { name: "zones", dtype: "float32", shape: &[None, Some(ZONE_COLUMNS)] };
const SUMMONS: Spec = Spec { name: "summons", dtype: "float32", shape: &[None, Some(SUMMON_COLUMNS)] };

#[pyclass(module = "artificer._core")]
pub struct World {
    inner: CoreWorld,
    /// Commands decoded this frame (kept to reuse its capacity).
    commands: Vec<Command>,
}

/// What `World.step` returns: (enemies, projectiles, pickups, events, hits, damage_dealt, zones,
/// summons), mirrored by `engine.frame.StepCounts`.
type StepCounts = (usize, usize, usize, usize, u32, f64, usize, usize);

/// The frame buffers' rows: (enemies, projectiles, pickups, events, zones, summons).
type BufferRows = (usize, usize, usize, usize, usize, usize);

/// What `World.play_bot` returns: (frames, stop, counts, buffer rows, heal).
type Played = (u64, &'static str, StepCounts, BufferRows, f64, u64);

/// An announced pack as Python hands it over: `(lands_at, kind, count, elite, x, y)`.
type PackRow = (f64, Int, Int, bool, f64, f64);

#[pymethods]
impl World {
    /// A world from plain config data (see `artificer.engine.world_config`).
    #[new]
    fn new(config: &Bound<'_, PyAny>, seed: super::args::Seed) -> PyResult<Self> {
        let cfg = world_config(config, seed.0)?;
        Ok(World { inner: CoreWorld::new(cfg)?, commands: Vec::new() })
    }

    /// One tick. Returns `(enemies, projectiles, pickups, events, hits,
    /// damage_dealt, zones, summons)`: live counts (a render buffer holds
    /// the first rows that fit), events this frame (the rest are read with
    /// `read_events`), projectile hits and damage dealt this frame.
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        py: Python<'_>,
        controls: &Bound<'_, PyAny>,
        commands: &Bound<'_, PyAny>,
        n_commands: Int,
        enemies: &Bound<'_, PyAny>,
        projectiles: &Bound<'_, PyAny>,
        pickups: &Bound<'_, PyAny>,
        player: &Bound<'_, PyAny>,
        events: &Bound<'_, PyAny>,
        zones: &Bound<'_, PyAny>,
        summons: &Bound<'_, PyAny>,
    ) -> PyResult<StepCounts> {
        let (controls, commands) = (readonly1::<f32>(controls, &CONTROLS)?, readonly2::<f64>(commands, &COMMANDS)?);
        // Borrowed while the inputs are: a buffer passed twice is refused.
        let mut out = Outputs::of(enemies, projectiles, pickups, player, events, zones, summons)?;
        let controls = self.decode_input(&controls, &commands, n_commands)?;
        let mut slices = out.slices()?;
        let (world, cmds) = (&mut self.inner, &self.commands);
        let counts = py.detach(move || {
            let counts = world.step(&controls, cmds);
            slices.write(world);
            counts
        });
        Ok(self.counts(&counts))
    }

    /// Writes the world as it stands into the frame buffers, as `step` does after its tick (for
    /// `play_bot`'s last frame: its buffers may have to be grown first).
    #[allow(clippy::too_many_arguments)]
    fn write_frame(
        &self,
        enemies: &Bound<'_, PyAny>,
        projectiles: &Bound<'_, PyAny>,
        pickups: &Bound<'_, PyAny>,
        player: &Bound<'_, PyAny>,
        events: &Bound<'_, PyAny>,
        zones: &Bound<'_, PyAny>,
        summons: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let mut out = Outputs::of(enemies, projectiles, pickups, player, events, zones, summons)?;
        out.slices()?.write(&self.inner);
        Ok(())
    }

    /// The headless run's frames Python need not see (issue 44, `sim::headless`): a first tick
    /// with `controls` and `commands` as `step` takes them, then up to `limit` − 1 more with the
    /// kiting bot's steering (`tuning`, `arena`: as `kite` takes them), the wave's numbers kept in
    /// `books` (`HeadlessBooks`) frame by frame as `WaveInProgress.step` keeps them. It stops at
    /// `limit`, after the player's death or a boss event (`boss_kind`: the wave's boss, None for
    /// none), or before a frame the bot would drink (`drink_below`: None with no healing potion).
    /// `caps`: the frame buffers' rows (enemies, projectiles, pickups, events, zones, summons).
    /// `pacing`: (frames into the wave an empty arena counts from, each stretch's grace);
    /// `fang`: (kills per heal, the heal), (0, 0) for none. Nothing is written to the buffers:
    /// `write_frame` writes the last frame's. `landings`: the packs the director announced and
    /// not landed yet, in its order, as `(lands_at, kind, count, elite, x, y)`, and `max_alive`
    /// the field's cap (None: none): each lands on the first frame after the first whose time is
    /// `lands_at` or later (`sim::packs`). Returns `(frames, stop, counts, caps, heal, held_back)`:
    /// the ticks run, why they stopped ("limit", "drink", "died", "boss"), the last tick's counts
    /// (as `step`'s), the buffers' rows before its growth, a heal queued for the next frame, and
    /// the members the cap kept from the packs that landed.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (controls, commands, n_commands, limit, tuning, arena, caps, pacing, fang, drink_below, boss_kind, books, landings, max_alive))]
    fn play_bot(
        &mut self,
        py: Python<'_>,
        controls: &Bound<'_, PyAny>,
        commands: &Bound<'_, PyAny>,
        n_commands: Int,
        limit: Int,
        tuning: (f64, f64, f64, f64, f64, f64),
        arena: (f64, f64),
        caps: BufferRows,
        pacing: (u64, u64),
        fang: (u64, f64),
        drink_below: Option<f64>,
        boss_kind: Option<Int>,
        books: &mut super::headless::HeadlessBooks,
        landings: Vec<PackRow>,
        max_alive: Option<Int>,
    ) -> PyResult<Played> {
        let (controls, commands) = (readonly1::<f32>(controls, &CONTROLS)?, readonly2::<f64>(commands, &COMMANDS)?);
        let controls = self.decode_input(&controls, &commands, n_commands)?;
        let limit = limit.whole("limit", 1, i64::MAX)? as u64;
        let bot = super::queries::kite_params(tuning)?;
        let arena = super::queries::arena_of(arena)?;
        // Checked in range, kept in f64: the books compare and add as Python does.
        let drink_below = drink_below.map(|d| limits::float("drink_below", d, 0.0, 1.0).map(|_| d)).transpose()?;
        let kinds = self.inner.kinds().len() as i64;
        let boss_kind = boss_kind.map(|k| k.whole("boss_kind", 0, kinds - 1).map(|k| k as u16)).transpose()?;
        let mut landings = packs::Landings {
            pending: landings.iter().map(|row| landing(row, kinds)).collect::<PyResult<_>>()?,
            cap: max_alive.map(|m| m.whole("max_alive", 0, limits::MAX_COUNT as i64).map(|m| m as u64)).transpose()?,
            held_back: 0,
        };
        let fang_heal = limits::float("fang heal", fang.1, 0.0, MAX_AMOUNT).map(|_| fang.1)?;
        let rules = headless::Rules {
            empty_from: pacing.0,
            empty_grace: pacing.1,
            fang_every: fang.0,
            fang_heal,
            drink_below,
            boss_kind,
            hz: self.inner.config().tick_hz,
        };
        let (e, p, k, ev, z, su) = caps;
        let caps = headless::Caps { enemies: e, projectiles: p, pickups: k, events: ev, zones: z, summons: su };
        books.fit(self.inner.kinds().len() + 1);
        let (world, cmds, books) = (&mut self.inner, &self.commands, &mut books.books);
        let lands = &mut landings;
        let played =
            py.detach(move || headless::play(world, controls, cmds, limit, &bot, arena, caps, &rules, books, lands));
        let c = played.caps;
        Ok((
            played.frames,
            played.stop.name(),
            self.counts(&played.counts),
            (c.enemies, c.projectiles, c.pickups, c.events, c.zones, c.summons),
            played.heal,
            landings.held_back,
        ))
    }

    /// This frame's events counted, their `value`s summed and their largest `value`, by kind:
    /// `(counts, sums, most)`, each indexed by an `EVENT_KINDS` value (as long as the largest one
    /// + 1; `most` is 0 for a kind with no event). One pass in event order over the values as the
    /// event rows hold them (f64): `np.bincount` over the rows' kinds (with the values as weights)
    /// and numpy's `max` give the same figures, to the bit. For the game's per-frame books, which
    /// ask about many kinds (`engine.events.Tally`).
    fn tally_events(&self) -> (Vec<u64>, Vec<f64>, Vec<f64>) {
        let slots = EventKind::NAMES.iter().map(|&(_, v)| v as usize + 1).max().unwrap_or(0);
        let (mut counts, mut sums, mut most) = (vec![0u64; slots], vec![0.0f64; slots], vec![0.0f64; slots]);
        for e in self.inner.events() {
            let (k, value) = (e.kind as usize, f64::from(e.value)); // the value as the row holds it
            most[k] = if counts[k] == 0 { value } else { most[k].max(value) };
            counts[k] += 1;
            sums[k] += value;
        }
        (counts, sums, most)
    }

    /// Copies this frame's events from index `start` on into `events`
    /// (for a frame with more events than the buffer has rows); returns how
    /// many rows were written.
    fn read_events(&self, events: &Bound<'_, PyAny>, start: Int) -> PyResult<usize> {
        let start = start.whole("start", 0, i64::MAX)?;
        let mut events = readwrite2::<f64>(events, &EVENTS)?;
        Ok(write_events(self.inner.events(), start as usize, slice_mut(&mut events)?))
    }

    /// Arms the player with a compiled program (the spell VM): `core` a
    /// cores.json entry with its board expanded, `cards` one spell id or
    /// None per slot. Returns the compile diagnostics. Mana starts full.
    #[pyo3(signature = (catalog, core, cards, trace = false))]
    fn set_spell_wand<'py>(
        &mut self,
        py: Python<'py>,
        catalog: &Bound<'py, Catalog>,
        core: &Bound<'py, PyAny>,
        cards: &Bound<'py, PyAny>,
        trace: bool,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let catalog = catalog.get();
        let core_def = core_def(core, &catalog.index)?;
        let cpu = self.inner.wand_stats().0;
        let program = catalog.compile_cards(&core_def, cards, cpu, &self.inner.config().vm)?;
        let diagnostics = diagnostics_dict(py, &program, &catalog.spell_ids_vec())?;
        let mut caster = new_caster(program, &core_def, self.inner.config().seed, &self.inner.config().vm);
        caster.trace = trace;
        self.inner.set_caster(caster, catalog.spells.iter().map(|s| s.element).collect());
        let dash_wave = core_def.dash_wave.and_then(|(spell, cooldown)| match catalog.spells[spell as usize].effect {
            crate::vm::spell::Effect::Action(action) => Some((spell, action, cooldown)),
            _ => None,
        });
        self.inner.set_dash_wave(dash_wave);
        Ok(diagnostics)
    }

    /// R-STAT-1 stats the wand reads: `cpu` (whole points: more node-steps
    /// per cast, R-VM-8), `cast_speed` (0..0.95: shorter cast delays,
    /// R-VM-11), `accuracy` (0..1: less random spread). CPU in 0..=10**6;
    /// cast speed and accuracy finite within ±10**4, clamped to their ranges.
    fn set_wand_stats(&mut self, cpu: Int, cast_speed: f64, accuracy: f64) -> PyResult<()> {
        let cpu = cpu.count("wand stat cpu", MAX_COUNT)?;
        let cast_speed = limits::float("wand stat cast_speed", cast_speed, -MAX_FACTOR, MAX_FACTOR)?;
        let accuracy = limits::float("wand stat accuracy", accuracy, -MAX_FACTOR, MAX_FACTOR)?;
        self.inner.set_wand_stats(cpu, cast_speed, accuracy);
        Ok(())
    }

    /// R-STAT-1 attunement: `{element name: points}` (each ≥ 0; +3% damage
    /// and +2% status chance per point for that element, numbers from
    /// balance.json `statuses.attunement`). Elements not named get 0.
    fn set_attunement(&mut self, points: &Bound<'_, pyo3::types::PyDict>) -> PyResult<()> {
        let mut out = [0.0f32; crate::sim::config::ELEMENTS];
        for (k, v) in points.iter() {
            let name: String = k.extract().map_err(|_| CoreError::arg("attunement keys are element names"))?;
            let element = crate::sim::config::Element::from_name(&name)
                .map_err(|_| CoreError::arg(format!("attunement: unknown element {name:?}")))?;
            let points: f64 =
                v.extract().map_err(|_| CoreError::arg(format!("attunement.{name}: expected a number")))?;
            out[element as usize] = limits::float(&format!("attunement.{name}"), points, 0.0, MAX_AMOUNT)?;
        }
        Ok(self.inner.set_attunement(out)?)
    }

    /// R-STAT-1 player stats bought in the shop (a `PlayerStats`, checked when
    /// it was built): bonuses on top of balance.json `player`; raising max HP
    /// heals as much, lowering it never kills.
    fn set_player_stats(&mut self, stats: PlayerStats) -> PyResult<()> {
        Ok(self.inner.set_player_stats(stats.0)?)
    }

    /// The player's current stats: `{armor, move_speed (px/s), crit_chance,
    /// pickup_radius (px), mana_regen, mana_leech, mana_max}` after the bonuses.
    fn player_stats(&self) -> std::collections::BTreeMap<&'static str, f32> {
        let p = &self.inner.player;
        let cfg = self.inner.config();
        let reach = cfg.pickups.pickup_radius + self.inner.player_stats().pickup_radius_bonus;
        [
            ("armor", p.armor),
            ("move_speed", p.speed / cfg.dt()),
            ("crit_chance", p.crit_chance),
            ("pickup_radius", reach),
            ("mana_regen", p.mana_regen),
            ("mana_leech", p.mana_leech),
            ("mana_max", p.mana_max),
        ]
        .into_iter()
        .collect()
    }

    /// R-STAT-2: what the armed wand makes of the stats now, from the numbers the core casts with:
    /// `{mana_max, mana_regen (the pool's: the core's and the bonus), cast_speed, wait_factor (what
    /// a cast delay or recharge is multiplied by), accuracy, spread_factor (what random spread is
    /// multiplied by), cpu_limit (the core's and the CPU stat), step_budget (node-steps per cast,
    /// R-VM-8)}`; None with no wand armed.
    fn wand_figures(&self) -> Option<std::collections::BTreeMap<&'static str, f64>> {
        let crate::vm::Wand::Program(caster) = self.inner.wand() else { return None };
        let rules = &caster.rules;
        Some(
            [
                ("mana_max", caster.mana.max as f64),
                ("mana_regen", (caster.mana.regen + self.inner.player.mana_regen) as f64),
                ("cast_speed", rules.cast_speed as f64),
                ("wait_factor", rules.wait_factor() as f64),
                ("accuracy", rules.accuracy as f64),
                ("spread_factor", rules.spread_factor() as f64),
                ("cpu_limit", (caster.cpu_limit + rules.cpu_stat) as f64),
                ("step_budget", caster.step_budget() as f64),
            ]
            .into_iter()
            .collect(),
        )
    }

    /// R-DMG-1, R-STAT-2: what a touch of `damage` (an enemy's contact damage, before armor)
    /// takes off the player now: the core's own contact formula with the player's armor.
    fn hit_taken(&self, damage: f64) -> PyResult<f64> {
        let damage = limits::float("damage", damage, 0.0, MAX_AMOUNT)?;
        Ok(crate::sim::combat::contact_damage(damage, 1.0, self.inner.player.armor) as f64)
    }

    /// Attunement points per element name.
    fn attunement(&self) -> std::collections::BTreeMap<&'static str, f32> {
        let a = self.inner.attunement();
        crate::sim::config::Element::ALL.iter().map(|e| (e.name(), a[*e as usize])).collect()
    }

    /// Starts a wave for the wand: full mana, registers reset unless the
    /// core has persistent memory (R-MANA-1, R-REG-1); the turn clock,
    /// strength (0) and the relics' per-wave counters restart.
    fn begin_wave(&mut self) {
        self.inner.begin_wave();
    }

    /// R-REL-1/2 relic rules in the core (a `RelicRules`, checked when it was
    /// built); all 0 = off.
    fn set_relic_rules(&mut self, rules: RelicRules) -> PyResult<()> {
        Ok(self.inner.set_relic_rules(rules.0)?)
    }

    /// The relic rules last set (all 0 in a new world).
    fn relic_rules(&self) -> RelicRules {
        RelicRules(self.inner.relic_rules())
    }

    /// R-BOSS-1 every live boss, in the order they came (the HUD's boss bar):
    /// dicts of `kind`, `x`, `y`, `hp`, `hp_max`, `phase` (its number in the
    /// data), `plates`, `invulnerable` (seconds left), `enraged`, `linked`
    /// (its clones and adds alive), and R-BOSS-3's `telegraphs`: its volleys
    /// wound up, oldest first, each a dict of `pattern` (a `BOSS_PATTERNS`
    /// value), `x`, `y` (where the shots will come from), `angle` (radians: a
    /// barrage's locked aim, a ring's first shot), `count`, `spread_degrees`,
    /// `left` and `seconds` (the wind-up's time left, of its whole).
    fn boss_status<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, pyo3::types::PyDict>>> {
        self.inner
            .boss_status()
            .into_iter()
            .map(|b| {
                let telegraphs = b
                    .telegraphs
                    .iter()
                    .map(|t| {
                        let d = pyo3::types::PyDict::new(py);
                        d.set_item("pattern", t.pattern as u8)?;
                        d.set_item("x", t.x)?;
                        d.set_item("y", t.y)?;
                        d.set_item("angle", t.angle)?;
                        d.set_item("count", t.count)?;
                        d.set_item("spread_degrees", t.spread_degrees)?;
                        d.set_item("left", t.left)?;
                        d.set_item("seconds", t.seconds)?;
                        Ok(d)
                    })
                    .collect::<PyResult<Vec<_>>>()?;
                let d = pyo3::types::PyDict::new(py);
                d.set_item("kind", b.kind)?;
                d.set_item("x", b.x)?;
                d.set_item("y", b.y)?;
                d.set_item("hp", b.hp)?;
                d.set_item("hp_max", b.hp_max)?;
                d.set_item("phase", b.phase)?;
                d.set_item("plates", b.plates)?;
                d.set_item("invulnerable", b.invulnerable)?;
                d.set_item("enraged", b.enraged)?;
                d.set_item("linked", b.linked)?;
                d.set_item("telegraphs", telegraphs)?;
                Ok(d)
            })
            .collect()
    }

    /// §8: the turn's length in seconds of wave time (balance.json
    /// `turn.seconds`, in whole ticks), the same for every core.
    #[getter]
    fn turn_seconds(&self) -> f64 {
        self.inner.turn_seconds() as f64
    }

    /// Whole turns since the wave began (`begin_wave`).
    #[getter]
    fn turn(&self) -> u64 {
        self.inner.turn()
    }

    /// R-REL-2 strength: flat damage on every projectile and blast hit.
    /// `begin_wave` resets it to 0 — set the run's permanent strength
    /// (vajra) after it; the `strength` command adds to it for the wave
    /// (warrior_elixir). Finite within ±10**9, else `CoreArgumentError`.
    fn set_strength(&mut self, value: f64) -> PyResult<()> {
        Ok(self.inner.set_strength(limits::float("strength", value, -MAX_AMOUNT, MAX_AMOUNT)?)?)
    }

    /// The strength now.
    #[getter]
    fn strength(&self) -> f64 {
        self.inner.strength() as f64
    }

    /// Disarms the player (the stress workload, or between waves).
    fn clear_wand(&mut self) {
        self.inner.disarm();
    }

    /// Switches harness rules (`player_fixed`, `player_invulnerable`,
    /// `enemies_immortal`, `respawn_spent_projectiles`, `no_hit_memory`).
    fn set_rules(&mut self, rules_dict: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.set_rules(rules(rules_dict)?);
        Ok(())
    }

    /// Worker threads for the neighbour searches; the state hash is the same
    /// for every count. 1..=4 × the machine's cores (at least 8), else
    /// `CoreArgumentError`.
    fn set_threads(&mut self, threads: Int) -> PyResult<()> {
        Ok(self.inner.set_threads(threads.threads("threads")?)?)
    }

    #[getter]
    fn threads(&self) -> usize {
        self.inner.threads()
    }

    /// Moves the player to (x, y), clamped to the arena (each finite, within ±10**9).
    fn set_player_position(&mut self, x: f64, y: f64) -> PyResult<()> {
        let (x, y) = (limits::float("x", x, -MAX_COORD, MAX_COORD)?, limits::float("y", y, -MAX_COORD, MAX_COORD)?);
        Ok(self.inner.set_player_position(x, y)?)
    }

    /// Places enemies of `kind` directly (harnesses, the stress workload),
    /// without stepping: float32 arrays of equal length, every position
    /// finite. All or nothing: a bad argument spawns none.
    #[pyo3(signature = (kind, x, y, elite = false))]
    fn spawn_enemies(
        &mut self,
        kind: Int,
        x: PyReadonlyArray1<'_, f32>,
        y: PyReadonlyArray1<'_, f32>,
        elite: bool,
    ) -> PyResult<usize> {
        let (x, y) = (x.as_array(), y.as_array());
        if x.len() != y.len() {
            return Err(CoreError::arg("spawn_enemies: x and y must have the same length").into());
        }
        let kinds = self.inner.kinds().len();
        let kind = kind
            .whole("kind", 0, kinds as i64 - 1)
            .map_err(|e| CoreError::arg(format!("unknown enemy kind: {e} (there are {kinds} kinds)")))?;
        let kind =
            u16::try_from(kind).map_err(|_| CoreError::arg(format!("enemy kind {kind} does not fit 16 bits")))?;
        for (name, a) in [("x", &x), ("y", &y)] {
            if let Some(i) = a.iter().position(|v| !(v.is_finite() && (v.abs() as f64) <= MAX_COORD)) {
                return Err(CoreError::arg(format!(
                    "spawn_enemies: {name}[{i}] must be a finite number within ±{}, got {}",
                    limits::show(MAX_COORD),
                    a[i]
                ))
                .into());
            }
        }
        for (&px, &py) in x.iter().zip(y.iter()) {
            self.inner.spawn_enemy(kind, elite, px, py)?;
        }
        Ok(x.len())
    }

    /// Places projectiles directly (harnesses, the stress workload): float32
    /// arrays of equal length; velocities in px/s. Bounce off every wall
    /// and never expire. Positions within ±10**9 px, velocities within
    /// ±10**6 px/s, radius 0..=10**6, damage 0..=10**9, pierce 0..=10**6;
    /// all or nothing.
    #[pyo3(signature = (x, y, vx, vy, radius, damage, pierce))]
    #[allow(clippy::too_many_arguments)]
    fn spawn_projectiles(
        &mut self,
        x: PyReadonlyArray1<'_, f32>,
        y: PyReadonlyArray1<'_, f32>,
        vx: PyReadonlyArray1<'_, f32>,
        vy: PyReadonlyArray1<'_, f32>,
        radius: f64,
        damage: f64,
        pierce: Int,
    ) -> PyResult<usize> {
        let (x, y, vx, vy) = (x.as_array(), y.as_array(), vx.as_array(), vy.as_array());
        let n = x.len();
        if y.len() != n || vx.len() != n || vy.len() != n {
            return Err(CoreError::arg("spawn_projectiles: x, y, vx, vy must have the same length").into());
        }
        let pierce = pierce.count("pierce", MAX_COUNT)?;
        let radius = limits::float("radius", radius, 0.0, MAX_RADIUS)?;
        let damage = limits::float("damage", damage, 0.0, MAX_AMOUNT)?;
        for (name, a, bound) in
            [("x", &x, MAX_COORD), ("y", &y, MAX_COORD), ("vx", &vx, MAX_SPEED), ("vy", &vy, MAX_SPEED)]
        {
            if let Some(i) = a.iter().position(|v| !(v.is_finite() && (v.abs() as f64) <= bound)) {
                return Err(CoreError::arg(format!(
                    "spawn_projectiles: {name}[{i}] must be a finite number within ±{}, got {}",
                    limits::show(bound),
                    a[i]
                ))
                .into());
            }
        }
        for i in 0..n {
            self.inner.spawn_projectile(NewProjectile {
                x: x[i],
                y: y[i],
                vx: vx[i],
                vy: vy[i],
                radius,
                damage,
                crit_chance: 0.0,
                element: Element::Physical,
                pierce,
                bounces: u32::MAX,
                life: f32::INFINITY,
                owner: Owner::Player,
                look: 0,
                behaviour: Default::default(),
            })?;
        }
        Ok(n)
    }

    // --- R-SAVE-1: what a run's save carries into a fresh world between waves ---------------

    /// Each random stream's position, as a list of `RNG_STREAMS` counts (crit):
    /// with the seed, the streams' whole state.
    fn rng_state(&self) -> Vec<u64> {
        self.inner.rng_positions().to_vec()
    }

    /// Puts the random streams where `rng_state()` reported them: exactly
    /// `RNG_STREAMS` integers in 0..=2**64-1, else a `CoreArgumentError`.
    fn set_rng_state(&mut self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let items: Vec<Bound<'_, PyAny>> = state
            .extract()
            .map_err(|_| CoreError::arg(format!("rng_state must be a list of {STREAM_COUNT} integers")))?;
        if items.len() != STREAM_COUNT {
            return Err(
                CoreError::arg(format!("rng_state must hold {STREAM_COUNT} integers, got {}", items.len())).into()
            );
        }
        let mut positions = [0u64; STREAM_COUNT];
        for (i, (item, position)) in items.iter().zip(positions.iter_mut()).enumerate() {
            let is_int = item.is_instance_of::<pyo3::types::PyInt>() && !item.is_instance_of::<pyo3::types::PyBool>();
            *position = item.extract::<u64>().ok().filter(|_| is_int).ok_or_else(|| {
                CoreError::arg(format!("rng_state[{i}] must be an integer in {SEED_RANGE}, got {item}"))
            })?;
        }
        self.inner.set_rng_positions(positions);
        Ok(())
    }

    /// R-END-1 Last Will: arms (True) or disarms (False) the player's one
    /// survival of a lethal hit at 1 HP; a run save stores `last_will` and
    /// calls this on the restored world.
    fn set_last_will(&mut self, armed: bool) {
        self.inner.set_last_will(armed);
    }

    /// Whether Last Will is armed (False once it has spared the player).
    #[getter]
    fn last_will(&self) -> bool {
        self.inner.last_will()
    }

    /// The player's `(hp, hp_max)`.
    fn player_hp(&self) -> (f32, f32) {
        (self.inner.player.hp, self.inner.player.hp_max)
    }

    /// Sets the player's HP and max HP between waves (0 < hp ≤ hp_max ≤ 10**9, finite).
    fn set_player_hp(&mut self, hp: f64, hp_max: f64) -> PyResult<()> {
        let hp_max = limits::float("hp_max", hp_max, 0.0, MAX_AMOUNT)?;
        let hp = limits::float("hp", hp, 0.0, MAX_AMOUNT)?;
        Ok(self.inner.set_player_hp(hp, hp_max)?)
    }

    /// The player's `(x, y)` now (the frame buffers show it only after a step).
    fn player_position(&self) -> (f32, f32) {
        (self.inner.player.x, self.inner.player.y)
    }

    /// The armed program wand's memory `(cursor, [register A, B], counters, kills)`,
    /// which a persistent_memory core keeps between waves (R-VM-12, R-REG-1);
    /// `None` when no program wand is armed.
    fn wand_memory(&self) -> Option<(u32, [i32; 2], Vec<u32>, u32)> {
        self.inner.wand_memory().map(|m| (m.cursor, m.registers, m.counters, m.kills))
    }

    /// Restores `wand_memory()` into the armed program wand (the same program):
    /// a `CoreArgumentError` for no program, a cursor outside its main block,
    /// counters that are not the program's, or numbers out of range.
    fn set_wand_memory(&mut self, cursor: Int, registers: Vec<Int>, counters: Vec<Int>, kills: Int) -> PyResult<()> {
        let unsigned = |name: &str, v: &Int| v.count(&format!("wand memory: {name}"), u32::MAX as u64);
        let [a, b] = &registers[..] else {
            return Err(CoreError::arg(format!("wand memory: 2 registers expected, got {}", registers.len())).into());
        };
        let register = |v: &Int| v.whole("wand memory: a register", i32::MIN as i64, i32::MAX as i64).map(|v| v as i32);
        let counters = counters.iter().map(|c| unsigned("a counter", c)).collect::<Result<Vec<u32>, CoreError>>()?;
        let memory = WandMemory {
            cursor: unsigned("cursor", &cursor)?,
            registers: [register(a)?, register(b)?],
            counters,
            kills: unsigned("kills", &kills)?,
        };
        Ok(self.inner.set_wand_memory(memory)?)
    }

    /// R-DET-1: a digest of the whole simulation state.
    fn state_hash(&self) -> u64 {
        self.inner.state_hash()
    }

    /// Ticks stepped so far.
    #[getter]
    fn frame(&self) -> u64 {
        self.inner.frame()
    }

    #[getter]
    fn enemy_count(&self) -> usize {
        self.inner.pools.enemies.len()
    }

    #[getter]
    fn projectile_count(&self) -> usize {
        self.inner.pools.projectiles.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<World frame={} enemies={} projectiles={} pickups={}>",
            self.inner.frame(),
            self.inner.pools.enemies.len(),
            self.inner.pools.projectiles.len(),
            self.inner.pools.pickups.len()
        )
    }
}

fn slice_mut<'a, T: numpy::Element>(a: &'a mut numpy::PyReadwriteArray2<'_, T>) -> Result<&'a mut [T], CoreError> {
    a.as_slice_mut().map_err(|_| CoreError::arg("buffer is not contiguous"))
}

impl World {
    /// A tick's input: the controls, and the first `n_commands` command rows decoded into
    /// `self.commands`.
    fn decode_input(
        &mut self,
        controls: &PyReadonlyArray1<'_, f32>,
        commands: &numpy::PyReadonlyArray2<'_, f64>,
        n_commands: Int,
    ) -> PyResult<Controls> {
        let controls = decode_controls(controls)?;
        let rows = commands.as_array();
        let n_commands = n_commands.whole("n_commands", 0, rows.nrows() as i64).map_err(|_| {
            CoreError::arg(format!(
                "n_commands must be in 0..={} (the command array's rows), got {}",
                rows.nrows(),
                n_commands.shown()
            ))
        })?;
        self.commands.clear();
        let kinds = self.inner.kinds().len();
        for (i, row) in rows.outer_iter().take(n_commands as usize).enumerate() {
            let row = row.as_slice().ok_or_else(|| CoreError::arg("commands: rows must be contiguous"))?;
            self.commands.push(Command::decode(row, i, kinds)?);
        }
        Ok(controls)
    }

    /// A tick's counts as Python takes them.
    fn counts(&self, counts: &crate::sim::StepCounts) -> StepCounts {
        let (zones, summons) = (self.inner.pools.zones.len(), self.inner.pools.summons.len());
        (
            counts.enemies,
            counts.projectiles,
            counts.pickups,
            counts.events,
            counts.hits,
            counts.damage_dealt as f64,
            zones,
            summons,
        )
    }
}

/// The frame buffers a tick writes, checked against the contract.
struct Outputs<'py> {
    enemies: numpy::PyReadwriteArray2<'py, f32>,
    projectiles: numpy::PyReadwriteArray2<'py, f32>,
    pickups: numpy::PyReadwriteArray2<'py, f32>,
    player: numpy::PyReadwriteArray1<'py, f64>,
    events: numpy::PyReadwriteArray2<'py, f64>,
    zones: numpy::PyReadwriteArray2<'py, f32>,
    summons: numpy::PyReadwriteArray2<'py, f32>,
}

/// The buffers as slices, to write from the core without the GIL.
struct Slices<'a> {
    enemies: &'a mut [f32],
    projectiles: &'a mut [f32],
    pickups: &'a mut [f32],
    player: &'a mut [f64],
    events: &'a mut [f64],
    zones: &'a mut [f32],
    summons: &'a mut [f32],
}

impl<'py> Outputs<'py> {
    #[allow(clippy::too_many_arguments)]
    fn of(
        enemies: &Bound<'py, PyAny>,
        projectiles: &Bound<'py, PyAny>,
        pickups: &Bound<'py, PyAny>,
        player: &Bound<'py, PyAny>,
        events: &Bound<'py, PyAny>,
        zones: &Bound<'py, PyAny>,
        summons: &Bound<'py, PyAny>,
    ) -> PyResult<Self> {
        Ok(Outputs {
            enemies: readwrite2::<f32>(enemies, &ENEMIES)?,
            projectiles: readwrite2::<f32>(projectiles, &PROJECTILES)?,
            pickups: readwrite2::<f32>(pickups, &PICKUPS)?,
            player: readwrite1::<f64>(player, &PLAYER)?,
            events: readwrite2::<f64>(events, &EVENTS)?,
            zones: readwrite2::<f32>(zones, &ZONES)?,
            summons: readwrite2::<f32>(summons, &SUMMONS)?,
        })
    }

    fn slices(&mut self) -> PyResult<Slices<'_>> {
        Ok(Slices {
            enemies: slice_mut(&mut self.enemies)?,
            projectiles: slice_mut(&mut self.projectiles)?,
            pickups: slice_mut(&mut self.pickups)?,
            player: self.player.as_slice_mut().map_err(|_| CoreError::arg("player: not contiguous"))?,
            events: slice_mut(&mut self.events)?,
            zones: slice_mut(&mut self.zones)?,
            summons: slice_mut(&mut self.summons)?,
        })
    }
}

impl Slices<'_> {
    fn write(&mut self, world: &CoreWorld) {
        write_enemies(world, self.enemies);
        write_projectiles(world, self.projectiles);
        write_pickups(world, self.pickups);
        write_player(world, self.player);
        write_events(world.events(), 0, self.events);
        write_zones(world, self.zones);
        write_summons(world, self.summons);
    }
}

fn decode_controls(c: &PyReadonlyArray1<'_, f32>) -> Result<Controls, CoreError> {
    let v = c.as_slice().map_err(|_| CoreError::arg("controls: not contiguous"))?;
    if let Some(i) = v.iter().position(|x| !x.is_finite()) {
        return Err(CoreError::arg(format!("controls[{i}] is not a finite number ({})", v[i])));
    }
    // In `contract::CONTROL_FIELDS` order (the spec checked the width).
    let &[move_x, move_y, aim_x, aim_y, dash, aim_at_point] = v else {
        return Err(CoreError::arg(format!("controls must hold {CONTROLS_WIDTH} numbers, got {}", v.len())));
    };
    Ok(Controls { move_x, move_y, aim_x, aim_y, dash: dash != 0.0, aim_at_point: aim_at_point != 0.0 })
}

fn write_enemies(w: &CoreWorld, out: &mut [f32]) {
    let e = &w.pools.enemies;
    // hit_frame is the frame after the hit's step, which is `frame` once that step is over:
    // a hit in the last N steps has hit_frame > frame - N.
    let flash_from = w.frame().saturating_sub(w.config().hit_flash_frames as u64);
    let bit = |on: bool, flag: EnemyFlag| on as u16 * flag as u16;
    for (i, row) in out.chunks_exact_mut(ENEMY_COLUMNS).take(e.len()).enumerate() {
        let flags = bit(e.elite[i], EnemyFlag::Elite)
            | bit(e.vulnerable[i] > 0.0, EnemyFlag::Vulnerable)
            | bit(e.weak[i] > 0.0, EnemyFlag::Weak)
            | bit(e.burn[i] > 0.0, EnemyFlag::Burning)
            | bit(e.chill[i] > 0.0, EnemyFlag::Chilled)
            | bit(e.frozen[i] > 0.0, EnemyFlag::Frozen)
            | bit(e.shock[i] > 0.0, EnemyFlag::Shocked)
            | bit(e.poison[i] > 0.0, EnemyFlag::Poisoned)
            | bit(e.wet[i] > 0.0, EnemyFlag::Wet)
            | bit(e.hit_frame[i] > flash_from, EnemyFlag::Hit);
        // In `contract::ENEMY_FIELDS` order.
        let columns: [f32; ENEMY_COLUMNS] =
            [e.x[i], e.y[i], e.kind[i] as f32, e.radius[i], e.hp[i] / e.hp_max[i], flags as f32];
        row.copy_from_slice(&columns);
    }
}

fn write_projectiles(w: &CoreWorld, out: &mut [f32]) {
    let p = &w.pools.projectiles;
    for (i, row) in out.chunks_exact_mut(PROJECTILE_COLUMNS).take(p.len()).enumerate() {
        let (vx, vy) = (p.vx[i] * w.config().tick_hz as f32, p.vy[i] * w.config().tick_hz as f32);
        // In `contract::PROJECTILE_FIELDS` order.
        let columns: [f32; PROJECTILE_COLUMNS] =
            [p.x[i], p.y[i], p.look[i] as f32, p.radius[i], vx, vy, p.owner[i] as u8 as f32];
        row.copy_from_slice(&columns);
    }
}

fn write_zones(w: &CoreWorld, out: &mut [f32]) {
    let z = &w.pools.zones;
    for (i, row) in out.chunks_exact_mut(ZONE_COLUMNS).take(z.len()).enumerate() {
        // In `contract::ZONE_FIELDS` order.
        let columns: [f32; ZONE_COLUMNS] = [z.x[i], z.y[i], z.radius[i], z.look[i] as f32, z.life[i]];
        row.copy_from_slice(&columns);
    }
}

fn write_summons(w: &CoreWorld, out: &mut [f32]) {
    let s = &w.pools.summons;
    for (i, row) in out.chunks_exact_mut(SUMMON_COLUMNS).take(s.len()).enumerate() {
        // In `contract::SUMMON_FIELDS` order.
        let columns: [f32; SUMMON_COLUMNS] = [s.x[i], s.y[i], s.look[i] as f32, s.life[i]];
        row.copy_from_slice(&columns);
    }
}

fn write_pickups(w: &CoreWorld, out: &mut [f32]) {
    let k = &w.pools.pickups;
    for (i, row) in out.chunks_exact_mut(PICKUP_COLUMNS).take(k.len()).enumerate() {
        // In `contract::PICKUP_FIELDS` order.
        let columns: [f32; PICKUP_COLUMNS] = [k.x[i], k.y[i], k.value[i] as f32, k.radius[i]];
        row.copy_from_slice(&columns);
    }
}

/// The player vector, in `contract::PLAYER_FIELDS` order.
fn write_player(w: &CoreWorld, out: &mut [f64]) {
    let p = &w.player;
    let row: [f32; PLAYER_WIDTH] = [
        p.x,
        p.y,
        p.hp,
        p.hp_max,
        p.mana,
        p.mana_max,
        p.ward,
        p.strength,
        p.invulnerable,
        p.dash_cooldown,
        p.dash_left,
        p.alive as u8 as f32,
        p.moving as u8 as f32,
        p.radius,
    ];
    for (o, v) in out.iter_mut().zip(row) {
        *o = v as f64;
    }
}

fn write_events(events: &[Event], start: usize, out: &mut [f64]) -> usize {
    let mut n = 0;
    for (row, e) in out.chunks_exact_mut(EVENT_COLUMNS).zip(events.iter().skip(start)) {
        row.copy_from_slice(&e.row());
        n += 1;
    }
    n
}

/// An announced pack from Python (`World.play_bot`'s `landings`), checked.
fn landing(row: &PackRow, kinds: i64) -> PyResult<packs::Landing> {
    let (at, kind, count, elite, x, y) = row;
    let coord = |name: &str, v: f64| limits::float(name, v, -limits::MAX_COORD, limits::MAX_COORD).map(|_| v);
    Ok(packs::Landing {
        at: limits::float("lands_at", *at, 0.0, limits::MAX_SECONDS).map(|_| *at)?,
        kind: kind.whole("a pack's kind", 0, kinds - 1)? as u16,
        count: count.count("a pack's count", limits::MAX_COUNT)?,
        elite: *elite,
        x: coord("a pack's x", *x)?,
        y: coord("a pack's y", *y)?,
    })
}
