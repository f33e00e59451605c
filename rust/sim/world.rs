//! The world and its frame pipeline. One `step` runs, in this order:
//!
//!  1. commands — game flow's spawns, heals, wards, mana grants, statuses
//!     (every row checked before any is applied); then the wave clock
//!     ticks (a new turn lands self_forming_clay's ward; world/relics.rs);
//!  2. player — movement and dash (R-LOOP-2), timers, mana regeneration;
//!  3. grid — rebuilt over the enemies' start-of-frame positions;
//!  4. wand — casts at the aim point, or (auto-aim) at the nearest enemy in
//!     reach that no shot in flight will already kill, holding otherwise;
//!  5. projectiles move — straight, unless homing, sine or orbit steered them; off a
//!     wall they bounce if they have bounces left, else vanish (an orbiting shot passes
//!     over); lifetimes run down;
//!  6. hits — each player projectile strikes the nearest enemy in reach that
//!     it has not struck before (one hit per projectile per enemy; pierce);
//!     a reflector's shield turns frontal physical shots back instead;
//!     R-END-3 mirror world: a shot's first hit turns it back toward the player (no pierce spent);
//!  7. damage — R-DMG-1 with armor, per-element resistance, crits and
//!     strength, in R-REL-2's order with the relics (sim/relics.rs); R-DMG-2 element work per hit (attunement, wet reactions,
//!     the status roll on the crit stream; world/statuses.rs); deaths →
//!     `EnemyKilled` events and currency drops; spell behaviours (blasts,
//!     chains, payloads — blasts do the same element work), then contact
//!     (8), zones (a zone's status roll once per interval) and summons,
//!     then burn and poison (the status tick: all status timers run down),
//!     which may kill too;
//!  8. contact — an enemy touching the player hurts it (ward first), then
//!     brief invulnerability, and takes bronze_scales' thorns; enemy projectiles likewise (a lethal hit with
//!     R-END-1 Last Will armed leaves 1 HP and spends it); then the deaths
//!     that act — exploders burst, splitters split, in the order they died
//!     (world/enemies.rs) — and once more after the `on_kill` entry;
//!  9. enemies move — archers plan their band and shoot; chase +
//!     separation, both from the start-of-frame snapshot (R-WAVE-2: they
//!     never collapse to a point), chilled enemies slowed, frozen ones
//!     still; archers take their planned step instead of the chase (slowed
//!     and stopped alike; a frozen archer does not shoot); all kept in
//!     bounds;
//! 10. pickups — pulled in within the pickup radius, collected on touch;
//! 11. cleanup — the_boot's event, vulnerable and weak tick, the dead are
//!     swap-removed.
//!
//! Hits (6) and separation (9) read the same grid: enemies move only after
//! the hits, so one rebuild per frame serves both exactly. Children of a
//! split join after the rebuild: this frame they are not in the grid (no
//! hits, no push), from the next one they are.

use rayon::prelude::*;

use super::combat::{contact_damage, final_damage, final_damage_booted, Attack, Defence};
use super::commands::{Command, Status};
use super::config::{EnemyKind, Rules, WorldConfig};
use super::error::{CoreError, CoreResult};
use super::events::{Event, EventKind};
use super::grid::{Grid, QueryOrder};
use super::hash::StateHasher;
use super::ids::Id;
use super::movement::{
    move_enemies, move_projectiles, nearest_in_reach_except, nearest_in_runs, separation_pushes, Separation, NO_TARGET,
};
pub use super::player::PlayerStats;
use super::player::{Controls, Player};
use super::pools::{NewEnemy, NewProjectile, Owner, Pools, Projectiles, HIT_MEMORY};
use super::rng::Streams;
use crate::vm::Wand;

mod bosses;
mod enemies;
mod relics;
mod spells;
mod statuses;
pub use bosses::BossStatus;
use bosses::Bosses;
use enemies::EnemyBehaviours;
use relics::Relics;
use spells::{BehaviourHit, Spellcasting};
use statuses::Elements;

/// What one step did, for the caller (the entity counts are the sizes of
/// the render data, `events` the number of events this frame).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepCounts {
    pub enemies: usize,
    pub projectiles: usize,
    pub pickups: usize,
    pub events: usize,
    pub hits: u32,
    pub damage_dealt: f32,
}

/// The world, as its parts: each a plain struct of its own, so a system
/// borrows the parts it reads and writes and no more.
#[derive(Clone)]
pub struct World {
    /// The run's world: arena, roster, balance, statuses, mutators, harness rules.
    cfg: WorldConfig,
    /// The tick's length, the frame count and the wave's turn clock.
    clock: Clock,
    /// Every entity: enemies, projectiles, pickups, zones, summons.
    pub pools: Pools,
    /// The player, and the stats bought in the shop.
    pub player: Player,
    /// The wand and what casting it keeps (world/spells.rs).
    spells: Spellcasting,
    /// The random streams (the world draws on crit alone).
    rng: Streams,
    /// The grids and the searches' and moves' scratch.
    spatial: Spatial,
    /// What this frame did and left to do: events, hits, kills, deaths that act.
    log: FrameLog,
    /// R-REL-1/2 relic rules and their per-wave state (world/relics.rs).
    relics: Relics,
    /// R-BOSS-1 every live boss's state (world/bosses.rs).
    bosses: Bosses,
    /// R-DMG-2 / R-STAT-1 attunement, and which element work runs (world/statuses.rs).
    elements: Elements,
    /// The enemy behaviours' own state (world/enemies.rs): which the roster has, the archers' steps.
    behaviours: EnemyBehaviours,
}

/// Time in the world, in fixed ticks.
#[derive(Clone, Debug)]
struct Clock {
    /// Seconds per tick.
    dt: f32,
    /// Steps taken since the world began.
    frame: u64,
    /// Ticks since `begin_wave` (the turn clock) and ticks per turn (§8).
    wave_ticks: u64,
    turn_ticks: u64,
}

/// The spatial partitions and the per-frame scratch of the searches and
/// moves, kept between frames so steady state allocates nothing.
#[derive(Clone, Default)]
struct Spatial {
    /// The enemies by cell, over their start-of-frame positions (hits, touch, separation).
    grid: Grid,
    /// The pickups by cell, within the magnet's reach.
    pickup_grid: Grid,
    /// Step 9's separation push per enemy, and the bands' scratch that computes it.
    push_x: Vec<f32>,
    push_y: Vec<f32>,
    separation: Separation,
    /// Each projectile's target (`NO_TARGET`: none), in projectile order.
    targets: Vec<u32>,
    /// The projectiles that search, row by row, and their targets.
    queries: QueryOrder,
    sorted_targets: Vec<u32>,
    /// Step 9's speeds while statuses are live (chill, freeze).
    speeds: Vec<f32>,
    /// The worker threads of the searches.
    workers: Workers,
}

/// What this frame did so far and what it left for later systems; each
/// system empties what it reads (the events, at the start of the next step).
#[derive(Clone, Default)]
struct FrameLog {
    events: Vec<Event>,
    /// Hits of projectiles with spell behaviours, for `behaviour_hits`.
    behaviour_hits: Vec<BehaviourHit>,
    /// Where enemies died this frame (Kill Combo, `on_kill`).
    kills: Vec<(f32, f32)>,
    /// Damage dealt this frame, every source.
    damage: f32,
    /// With the `hit_events` rule: (damage, kind, killing blow, x, y) of this frame's hits.
    hits: Vec<(f32, u16, bool, f32, f32)>,
    /// Enemies of kinds that act on death, killed this frame, in order.
    dying: Vec<u32>,
}

/// The worker threads for the neighbour searches (`None`: the caller's
/// thread). A clone starts its own pool of the same size: a world and its
/// clone (the benches restore warmed-up clones) never share threads.
#[derive(Default)]
struct Workers(Option<rayon::ThreadPool>);

impl Workers {
    fn new(threads: usize) -> CoreResult<Workers> {
        if threads == 1 {
            return Ok(Workers(None));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| CoreError::arg(format!("cannot start {threads} threads: {e}")))?;
        Ok(Workers(Some(pool)))
    }

    fn threads(&self) -> usize {
        self.0.as_ref().map_or(1, |p| p.current_num_threads())
    }
}

impl Clone for Workers {
    fn clone(&self) -> Workers {
        // Starting threads can only fail if the OS refuses them; the clone
        // then runs on the caller's thread (results are the same).
        Workers::new(self.threads()).unwrap_or(Workers(None))
    }
}

impl World {
    pub fn new(cfg: WorldConfig) -> CoreResult<World> {
        cfg.validate()?;
        let dt = cfg.dt();
        let player = Player::new(&cfg.player, cfg.arena_w * 0.5, cfg.arena_h * 0.5, dt);
        let rng = Streams::new(cfg.seed);
        Ok(World {
            clock: Clock { dt, frame: 0, wave_ticks: 0, turn_ticks: cfg.turn_ticks() },
            pools: Pools::default(),
            player,
            spells: Spellcasting::default(),
            rng,
            spatial: Spatial::default(),
            log: FrameLog::default(),
            relics: Relics::default(),
            bosses: Bosses { live: Vec::new(), regular_radius: cfg.max_enemy_radius() },
            elements: Elements::of(&cfg),
            behaviours: EnemyBehaviours::of(&cfg.enemy_kinds),
            cfg,
        })
    }

    pub fn config(&self) -> &WorldConfig {
        &self.cfg
    }

    pub fn frame(&self) -> u64 {
        self.clock.frame
    }

    pub fn rules(&self) -> Rules {
        self.cfg.rules
    }

    pub fn set_rules(&mut self, rules: Rules) {
        self.cfg.rules = rules;
    }

    pub fn events(&self) -> &[Event] {
        &self.log.events
    }

    pub fn kinds(&self) -> &[EnemyKind] {
        &self.cfg.enemy_kinds
    }

    /// Disarms the player: the wand fires nothing (the stress workload, or between waves).
    pub fn disarm(&mut self) {
        self.spells.wand = Wand::Unarmed;
    }

    /// Worker threads for the neighbour searches (1 = on the caller's
    /// thread). Results are identical for every thread count.
    pub fn set_threads(&mut self, threads: usize) -> CoreResult<()> {
        let threads = super::limits::threads("threads", threads.min(i64::MAX as usize) as i64)?;
        self.spatial.workers = Workers::new(threads)?;
        Ok(())
    }

    pub fn threads(&self) -> usize {
        self.spatial.workers.threads()
    }

    pub fn set_player_position(&mut self, x: f32, y: f32) -> CoreResult<()> {
        if !(x.is_finite() && y.is_finite()) {
            return Err(CoreError::arg("player position must be finite"));
        }
        self.player.x = x.clamp(0.0, self.cfg.arena_w);
        self.player.y = y.clamp(0.0, self.cfg.arena_h);
        Ok(())
    }

    /// Places an enemy of `kind` directly (spawn commands go through here).
    pub fn spawn_enemy(&mut self, kind: u16, elite: bool, x: f32, y: f32) -> CoreResult<()> {
        self.spawn(kind, elite, x, y, false).map(|_| ())
    }

    /// `spawn_enemy`, returning the new enemy's id; `offspring`: born of a split or of a
    /// boss (never splits again). A boss kind's enemy starts its boss state.
    fn spawn(&mut self, kind: u16, elite: bool, x: f32, y: f32, offspring: bool) -> CoreResult<Id> {
        let k = self
            .cfg
            .enemy_kinds
            .get(kind as usize)
            .ok_or_else(|| CoreError::arg(format!("unknown enemy kind {kind}")))?;
        if !(x.is_finite() && y.is_finite()) {
            return Err(CoreError::arg("spawn position must be finite"));
        }
        let hp = if elite { k.hp * self.cfg.elite_hp_multiplier } else { k.hp };
        let (x, y) = (x.clamp(0.0, self.cfg.arena_w), y.clamp(0.0, self.cfg.arena_h));
        let cooldown = k.first_cooldown();
        let speed = k.speed * self.clock.dt;
        let boss = k.behavior.is_boss();
        let id =
            self.pools.enemies.push(NewEnemy { x, y, radius: k.radius, speed, hp, kind, elite, cooldown, offspring });
        self.log.events.push(Event::new(EventKind::EnemySpawned, kind as f32, elite as u8 as f32, x, y, 0.0));
        if boss {
            self.register_boss(id, kind);
        }
        Ok(id)
    }

    /// Places a projectile directly (harnesses and the stress workload);
    /// velocity in px/s.
    pub fn spawn_projectile(&mut self, p: NewProjectile) -> CoreResult<()> {
        let finite = [p.x, p.y, p.vx, p.vy, p.radius, p.damage].iter().all(|v| v.is_finite());
        if !finite || p.radius < 0.0 || p.life.is_nan() {
            return Err(CoreError::arg("projectile numbers must be finite (radius ≥ 0)"));
        }
        let (vx, vy) = (p.vx * self.clock.dt, p.vy * self.clock.dt);
        self.pools.projectiles.push(NewProjectile { vx, vy, ..p });
        Ok(())
    }

    /// One 60 Hz tick. `commands` are validated first: on error nothing
    /// has changed.
    pub fn step(&mut self, controls: &Controls, commands: &[Command]) -> StepCounts {
        self.log.events.clear();
        let mut counts = StepCounts::default();
        for c in commands {
            self.apply(c);
        }
        self.advance_turn_clock();

        let (aw, ah) = (self.cfg.arena_w, self.cfg.arena_h);
        self.spells.dash_wave_timer = (self.spells.dash_wave_timer - self.clock.dt).max(0.0);
        if !self.cfg.rules.player_fixed && self.player.update(controls, self.clock.dt, aw, ah) {
            let p = &self.player;
            self.log.events.push(Event::new(EventKind::Dashed, p.dash_dx, p.dash_dy, p.x, p.y, 0.0));
            self.dash_wave();
        } else if self.cfg.rules.player_fixed {
            self.player.update(&Controls::default(), self.clock.dt, aw, ah);
        }

        self.rebuild_grid();
        self.cast(controls);
        self.steer_projectiles();

        let p = &mut self.pools.projectiles;
        let (special, behaviour) = (&p.special, &p.behaviour);
        move_projectiles(
            &mut p.x,
            &mut p.y,
            &mut p.vx,
            &mut p.vy,
            &mut p.bounces,
            &mut p.life,
            &mut p.dead,
            self.clock.dt,
            (aw, ah),
            |i| !special[i] || behaviour[i].orbit.is_none(),
        );
        self.find_all_targets();
        let (hits, dealt) = self.resolve_hits();
        counts.hits = hits;
        debug_assert!(dealt <= self.log.damage + 1e-3);
        self.behaviour_hits();
        self.behaviour_deaths();
        self.contact();
        self.update_zones();
        self.update_summons();
        self.tick_statuses();
        self.enemy_deaths();
        let kills = std::mem::take(&mut self.log.kills);
        self.program_kills(&kills);
        self.log.kills = kills;
        self.log.kills.clear();
        // Deaths by the `on_kill` entry's spells act now (before the dead
        // are removed); Kill Combo counts them next frame.
        self.enemy_deaths();
        self.bosses_step();
        self.move_enemies();
        self.collect_pickups();
        // Every source: projectiles, blasts, chains, zones, commands.
        counts.damage_dealt = std::mem::take(&mut self.log.damage);
        self.report_biggest_hits();
        self.report_boot();

        for s in self.pools.enemies.vulnerable.iter_mut().chain(self.pools.enemies.weak.iter_mut()) {
            *s = (*s - self.clock.dt).max(0.0);
        }
        self.pools.enemies.compact();
        self.pools.projectiles.compact();
        self.pools.pickups.compact();
        self.clock.frame += 1;

        counts.enemies = self.pools.enemies.len();
        counts.projectiles = self.pools.projectiles.len();
        counts.pickups = self.pools.pickups.len();
        counts.events = self.log.events.len();
        counts
    }

    fn apply(&mut self, c: &Command) {
        let p = &mut self.player;
        match *c {
            Command::Spawn { kind, elite, x, y } => {
                // Kinds were checked when the command was decoded.
                let _ = self.spawn_enemy(kind, elite, x, y);
            }
            Command::Heal { amount } => {
                if p.alive {
                    p.hp = (p.hp + amount).min(p.hp_max);
                }
            }
            // Bounded sums: commands are at most MAX_AMOUNT each, the totals too.
            Command::Ward { amount } => p.ward = (p.ward + amount).min(super::limits::MAX_AMOUNT as f32),
            Command::Mana { amount } => p.mana = (p.mana + amount).min(p.mana_max),
            Command::Strength { amount } => {
                let max = super::limits::MAX_AMOUNT as f32;
                p.strength = (p.strength + amount).clamp(-max, max);
            }
            Command::ApplyStatus { status, x, y, seconds } => self.apply_status(status, x, y, seconds),
            Command::ApplyStatusTurns { status, x, y, turns } => {
                self.apply_status(status, x, y, self.turns_to_seconds(turns))
            }
            Command::ClearEnemies => {
                self.pools.enemies.clear();
                self.log.dying.clear();
                self.bosses.live.clear();
            }
            Command::CollectPickups => {
                for i in 0..self.pools.pickups.len() {
                    let pk = &self.pools.pickups;
                    self.log.events.push(Event::new(
                        EventKind::CurrencyPicked,
                        0.0,
                        0.0,
                        pk.x[i],
                        pk.y[i],
                        pk.value[i] as f32,
                    ));
                    self.pools.pickups.dead[i] = true;
                }
            }
            Command::DamageNearest { x, y, amount } => {
                if let Some(e) = self.nearest_enemy(x, y) {
                    self.damage_enemy(e, amount);
                }
            }
        }
    }

    /// A status for `seconds` on the live enemy nearest (x, y); the longer
    /// timer wins. Vulnerable brings champion_belt's weak.
    fn apply_status(&mut self, status: Status, x: f32, y: f32, seconds: f32) {
        let Some(e) = self.nearest_enemy(x, y) else { return };
        let timer = match status {
            Status::Vulnerable => &mut self.pools.enemies.vulnerable[e],
            Status::Weak => &mut self.pools.enemies.weak[e],
        };
        *timer = timer.max(seconds);
        if status == Status::Vulnerable {
            self.champion_weak(e);
        }
    }

    /// Auto-aim (R-LOOP-2): the nearest enemy within `auto_aim_range` that
    /// no shot in flight is expected to kill. None when there is none (the
    /// wand holds its fire and its mana until a shot lands or misses).
    fn auto_aim_target(&self, (x, y): (f32, f32)) -> Option<usize> {
        let e = &self.pools.enemies;
        let reach = self.cfg.player.auto_aim_range;
        let mut best = (reach * reach, None);
        for i in 0..e.len() {
            if e.dead[i] || e.claimed_until[i] > self.clock.frame {
                continue;
            }
            let (dx, dy) = (e.x[i] - x, e.y[i] - y);
            let d2 = dx * dx + dy * dy;
            if d2 <= best.0 {
                best = (d2, Some(i));
            }
        }
        best.1
    }

    /// The live enemy nearest a point. A linear scan: called a few times a
    /// frame at most, where a ring search of the grid would not pay off.
    pub fn nearest_enemy(&self, x: f32, y: f32) -> Option<usize> {
        let e = &self.pools.enemies;
        let mut best = (f32::INFINITY, None);
        for i in 0..e.len() {
            if e.dead[i] {
                continue;
            }
            let (dx, dy) = (e.x[i] - x, e.y[i] - y);
            let d2 = dx * dx + dy * dy;
            if d2 < best.0 {
                best = (d2, Some(i));
            }
        }
        best.1
    }

    fn rebuild_grid(&mut self) {
        let max_proj = self.pools.projectiles.radius.iter().copied().fold(0.0, f32::max);
        let max_enemy = self.enemy_reach();
        let reach = (2.0 * max_enemy).max(max_enemy + max_proj).max(max_enemy + self.player.radius);
        let e = &self.pools.enemies;
        self.spatial.grid.rebuild(&e.x, &e.y, &e.radius, reach, self.cfg.grid_cells_per_entity);
    }

    fn cast(&mut self, controls: &Controls) {
        if !self.player.alive {
            return;
        }
        let origin = (self.player.x, self.player.y);
        // An unarmed wand fires nothing whatever the aim: skip the linear
        // nearest-enemy scan (~10 µs at 10k enemies, every frame).
        let mut target = None;
        let aim = if matches!(self.spells.wand, Wand::Unarmed) {
            None
        } else if controls.aim_at_point {
            Some((controls.aim_x, controls.aim_y))
        } else {
            target = self.auto_aim_target(origin);
            target.map(|e| (self.pools.enemies.x[e], self.pools.enemies.y[e]))
        };
        if !matches!(self.spells.wand, Wand::Program(_)) {
            return;
        }
        if aim.is_none() && !controls.aim_at_point {
            self.hold_program();
        } else if self.cast_program(aim) {
            if let Some(e) = target {
                self.claim(e);
            }
        }
    }

    /// Step 6: every projectile's target, from the grid. The search is the
    /// hot loop of the frame; it only reads, so it splits across threads.
    /// It runs row by row (`Grid::sort_queries`) and the targets are
    /// scattered back to projectile order for `resolve_hits`.
    fn find_all_targets(&mut self) {
        let n = self.pools.projectiles.len();
        self.spatial.targets.clear();
        self.spatial.targets.resize(n, NO_TARGET);
        let p = &self.pools.projectiles;
        let grid = &self.spatial.grid;
        let wanted = |i: usize| p.owner[i] == Owner::Player && !p.dead[i];
        grid.sort_queries(&p.x, &p.y, &p.radius, wanted, &mut self.spatial.queries);
        let q = &self.spatial.queries;
        self.spatial.sorted_targets.clear();
        self.spatial.sorted_targets.resize(q.len(), NO_TARGET);
        let enemy_ids = self.pools.enemies.ids.ids();
        let memory = !self.cfg.rules.no_hit_memory;
        let search = |first: usize, out: &mut [u32]| {
            for (t, target) in out.iter_mut().enumerate() {
                let query = q.queries[first + t];
                let (x, y, r) = (query.x, query.y, query.radius);
                let runs = grid.runs(x, y);
                *target = if memory {
                    let i = query.index as usize;
                    nearest_in_reach_except(grid, &runs, x, y, r, |e| p.remembers(i, enemy_ids[e as usize]))
                } else {
                    nearest_in_runs(grid, &runs, x, y, r)
                };
            }
        };
        let m = q.len();
        match &self.spatial.workers.0 {
            Some(pool) if m >= 4096 => {
                let chunk = m.div_ceil(pool.current_num_threads() * 4);
                pool.install(|| {
                    self.spatial
                        .sorted_targets
                        .par_chunks_mut(chunk)
                        .enumerate()
                        .for_each(|(c, out)| search(c * chunk, out));
                });
            }
            _ => search(0, &mut self.spatial.sorted_targets),
        }
        for (query, &target) in q.queries.iter().zip(&self.spatial.sorted_targets) {
            self.spatial.targets[query.index as usize] = target;
        }
    }

    /// Step 6–7, in projectile order (deterministic): damage, kills, pierce.
    fn resolve_hits(&mut self) -> (u32, f32) {
        let mut hits = 0u32;
        let mut dealt = 0.0f32;
        for pi in 0..self.pools.projectiles.len() {
            let e = self.spatial.targets[pi];
            if e == NO_TARGET || self.pools.enemies.dead[e as usize] {
                continue;
            }
            let e = e as usize;
            // Behind a roster-wide flag: where no kind has a shield (the
            // stress workload), hits never look for one.
            if self.behaviours.any_shields {
                let kind = &self.cfg.enemy_kinds[self.pools.enemies.kind[e] as usize];
                let shield = if kind.behavior.is_boss() { self.boss_shield(e) } else { kind.behavior.shield() };
                if let Some(shield) = shield {
                    if self.reflect(pi, e, shield) {
                        continue;
                    }
                }
            }
            hits += 1;
            let p = &self.pools.projectiles;
            let crit = self.rng.crit.chance(p.crit_chance[pi]);
            let element = p.element[pi] as usize;
            let base = p.damage[pi];
            let crit_mult = if crit { self.player.crit_multiplier } else { 1.0 };
            // Behind a flag: where no element can apply a status and nothing
            // is attuned (the stress workload), hits skip the element work.
            // Measured at 10k/20k crowd (valgrind): +0.57% instructions over
            // 210 frames with the flag (statuses' columns, the shock check),
            // +0.93% without it.
            let mult = if self.elements.act { crit_mult * self.element_multiplier(e, element) } else { crit_mult };
            let kind = &self.cfg.enemy_kinds[self.pools.enemies.kind[e] as usize];
            let boot_floor = self.relics.rules.damage_floor;
            let attack = Attack { base, flat: self.player.strength, mult, element, boot_floor };
            let taken = self.cfg.combat.taken(self.pools.enemies.vulnerable[e] > 0.0);
            let boss = kind.behavior.is_boss();
            let (resist, armor) = if boss { self.boss_defence(e, kind) } else { (kind.resist, kind.armor) };
            let defence = Defence { resist, armor, taken };
            // the_boot behind its flag: off (the stress workload), a hit is
            // R-DMG-1 alone, with no count to keep.
            let amount = if boot_floor > 0.0 {
                let (amount, lifted) = final_damage_booted(&attack, &defence);
                self.relics.state.boot_lifts += lifted as u32;
                amount
            } else {
                final_damage(&attack, &defence)
            };
            let done = self.damage_enemy(e, amount);
            if self.elements.act {
                self.element_hit(e, element);
            }
            if boss {
                self.boss_hit(e, element, done);
            }
            dealt += done;
            if self.pools.projectiles.special[pi] {
                self.log.behaviour_hits.push(BehaviourHit { projectile: pi as u32, enemy: e as u32, dealt: done });
            }

            let enemy_id = self.pools.enemies.ids.ids()[e];
            let player = (self.player.x, self.player.y);
            let p = &mut self.pools.projectiles;
            if !self.cfg.rules.no_hit_memory {
                p.remember(pi, enemy_id);
            }
            if self.cfg.mutators.mirror && !p.mirrored[pi] {
                mirror(p, pi, player);
                continue;
            }
            p.hits_left[pi] -= 1;
            if p.hits_left[pi] == 0 {
                if self.cfg.rules.respawn_spent_projectiles {
                    p.hits_left[pi] = p.hits_at_spawn[pi];
                    p.memory[pi] = [Id::NONE; HIT_MEMORY];
                } else {
                    p.dead[pi] = true;
                }
            }
        }
        (hits, dealt)
    }

    /// Takes `amount` off enemy `e`; on death emits the kill and drops its
    /// reward as a mana crystal. Returns the damage actually dealt.
    #[inline(never)]
    fn damage_enemy(&mut self, e: usize, amount: f32) -> f32 {
        let en = &mut self.pools.enemies;
        if en.dead[e] || amount <= 0.0 {
            return 0.0;
        }
        // R-DMG-2: a shocked enemy takes more from every source.
        let amount = if self.elements.statuses_live && en.shock[e] > 0.0 {
            amount * self.cfg.statuses.shock_multiplier
        } else {
            amount
        };
        self.take_off_hp(e, amount)
    }

    /// `amount` straight off enemy `e`'s HP (no multiplier of any kind);
    /// on death emits the kill and drops its reward. Returns the damage dealt.
    #[inline(always)]
    fn take_off_hp(&mut self, e: usize, amount: f32) -> f32 {
        let en = &mut self.pools.enemies;
        if en.dead[e] || amount <= 0.0 {
            return 0.0;
        }
        if !self.bosses.live.is_empty() {
            if let Some(dealt) = self.boss_spares(e, amount) {
                return dealt;
            }
        }
        let en = &mut self.pools.enemies;
        if self.cfg.rules.enemies_immortal {
            // Dummies take every hit in full and never fall.
            en.hp[e] = (en.hp[e] - amount).max(f32::MIN_POSITIVE);
            en.hit_frame[e] = self.clock.frame + 1;
            self.log.damage += amount;
            if self.cfg.rules.hit_events {
                self.log.hits.push((amount, en.kind[e], false, en.x[e], en.y[e]));
            }
            return amount;
        }
        let dealt = amount.min(en.hp[e]);
        en.hp[e] -= amount;
        en.hit_frame[e] = self.clock.frame + 1;
        self.log.damage += dealt;
        if self.cfg.rules.hit_events {
            self.log.hits.push((dealt, en.kind[e], en.hp[e] <= 0.0, en.x[e], en.y[e]));
        }
        if en.hp[e] > 0.0 {
            return dealt;
        }
        en.dead[e] = true;
        let kind = en.kind[e] as usize;
        let k = &self.cfg.enemy_kinds[kind];
        // R-END-3 splitting monsters: every first-generation enemy but a boss acts on death.
        let splits = self.cfg.mutators.split.is_some() && !en.offspring[e] && !k.behavior.is_boss();
        if k.acts_on_death() || splits {
            self.log.dying.push(e as u32);
        }
        let base_reward = self.cfg.enemy_kinds[kind].reward as f32;
        let reward = if en.elite[e] { (base_reward * self.cfg.elite_reward_multiplier).round() } else { base_reward };
        let (x, y) = (en.x[e], en.y[e]);
        self.log.kills.push((x, y));
        // R-MANA-8: mana leech restores mana on every kill.
        self.player.mana = (self.player.mana + self.player.mana_leech).min(self.player.mana_max);
        self.log.events.push(Event::new(EventKind::EnemyKilled, kind as f32, en.elite[e] as u8 as f32, x, y, reward));
        if reward > 0.0 {
            self.pools.pickups.push(x, y, reward as u32, self.cfg.pickups.radius);
        }
        dealt
    }

    /// The `hit_events` rule: the frame's biggest hits as `EnemyHit` events,
    /// biggest first.
    fn report_biggest_hits(&mut self) {
        if self.log.hits.is_empty() {
            return;
        }
        let keep = (self.cfg.hit_events_per_frame as usize).min(self.log.hits.len());
        let hits = &mut self.log.hits;
        let biggest_first = |a: &(f32, u16, bool, f32, f32), b: &(f32, u16, bool, f32, f32)| b.0.total_cmp(&a.0);
        if keep > 0 && keep < hits.len() {
            // Thousands of hits a frame late in a run: partition, then order only the kept few
            // (std's selection is deterministic, so equal inputs give equal events).
            hits.select_nth_unstable_by(keep - 1, biggest_first);
            hits[..keep].sort_by(biggest_first);
        } else {
            hits.sort_by(biggest_first);
        }
        for &(damage, kind, lethal, x, y) in &hits[..keep] {
            self.log.events.push(Event::new(EventKind::EnemyHit, kind as f32, lethal as u8 as f32, x, y, damage));
        }
        hits.clear();
    }

    /// Step 8: touch damage and enemy projectiles against the player.
    fn contact(&mut self) {
        if self.cfg.rules.player_invulnerable || !self.player.alive {
            return;
        }
        let (px, py, pr) = (self.player.x, self.player.y, self.player.radius);
        if self.player.invulnerable <= 0.0 {
            let mut attacker: Option<(f32, usize)> = None;
            let e = &self.pools.enemies;
            self.spatial.grid.for_each_within(px, py, pr + self.enemy_reach(), |i| {
                let i = i as usize;
                let (dx, dy) = (e.x[i] - px, e.y[i] - py);
                let d2 = dx * dx + dy * dy;
                let rr = pr + e.radius[i];
                if !e.dead[i] && d2 < rr * rr && attacker.is_none_or(|(best, _)| d2 < best) {
                    attacker = Some((d2, i));
                }
            });
            if let Some((_, i)) = attacker {
                let kind = self.pools.enemies.kind[i];
                let k = &self.cfg.enemy_kinds[kind as usize];
                let weak = self.cfg.combat.dealt(self.pools.enemies.weak[i] > 0.0);
                let base = if k.behavior.is_boss() { k.contact_damage * self.boss_damage(i) } else { k.contact_damage };
                let dmg = contact_damage(base, weak, self.player.armor);
                self.hurt_player(dmg, kind as f32);
                if dmg > 0.0 {
                    self.thorns(i);
                }
            }
        }
        for i in 0..self.pools.projectiles.len() {
            let p = &self.pools.projectiles;
            if p.owner[i] != Owner::Enemy || p.dead[i] || self.player.invulnerable > 0.0 || !self.player.alive {
                continue;
            }
            let (dx, dy) = (p.x[i] - px, p.y[i] - py);
            let rr = pr + p.radius[i];
            if dx * dx + dy * dy < rr * rr {
                let dmg = contact_damage(p.damage[i], 1.0, self.player.armor);
                self.pools.projectiles.dead[i] = true;
                self.hurt_player(dmg, -1.0);
            }
        }
    }

    fn hurt_player(&mut self, amount: f32, attacker: f32) {
        if amount <= 0.0 {
            return;
        }
        let armed = self.player.last_will;
        let (lost, absorbed) = self.player.take_damage(amount);
        let (x, y) = (self.player.x, self.player.y);
        self.log.events.push(Event::new(EventKind::PlayerDamaged, attacker, absorbed, x, y, lost));
        self.relics_on_hp_loss(lost);
        if armed && !self.player.last_will {
            self.log.events.push(Event::new(EventKind::LastWill, attacker, 0.0, x, y, self.player.hp));
        }
        if !self.player.alive {
            self.log.events.push(Event::new(EventKind::PlayerDied, 0.0, 0.0, x, y, 0.0));
        } else {
            self.program_player_hit();
        }
    }

    /// Step 9: separation pushes, each overlapping pair computed once
    /// (half shell) over row bands fixed by the grid, merged in a fixed
    /// order (identical for every thread count), then chase + push.
    fn move_enemies(&mut self) {
        // Archers shoot even where nothing walks (the training range).
        self.behaviours_before_move();
        if self.cfg.rules.enemies_still {
            return; // the training range's dummies
        }
        let n = self.pools.enemies.len();
        let grid = &self.spatial.grid;
        let strength = self.cfg.separation_strength;
        self.spatial.push_x.resize(n, 0.0);
        self.spatial.push_y.resize(n, 0.0);
        // Children of this frame's splits are not in the grid: no push.
        self.spatial.push_x[grid.len().min(n)..].fill(0.0);
        self.spatial.push_y[grid.len().min(n)..].fill(0.0);
        // Threads only from 2048 enemies: below, a band's work is shorter
        // than waking the pool. Same result either way (movement.rs).
        let pool = self.spatial.workers.0.as_ref().filter(|_| n >= 2048);
        separation_pushes(
            grid,
            strength,
            pool,
            &mut self.spatial.separation,
            &mut self.spatial.push_x,
            &mut self.spatial.push_y,
        );
        let slowed = self.status_speeds();
        let e = &mut self.pools.enemies;
        move_enemies(
            &mut e.x,
            &mut e.y,
            if slowed { &self.spatial.speeds } else { &e.speed },
            &self.spatial.push_x,
            &self.spatial.push_y,
            (self.player.x, self.player.y),
            (self.cfg.arena_w, self.cfg.arena_h),
        );
        self.behaviours_after_move();
    }

    /// Step 10: the magnet (R-LOOP-2) and collection.
    fn collect_pickups(&mut self) {
        if self.pools.pickups.is_empty() || !self.player.alive {
            return;
        }
        let pp = &self.cfg.pickups;
        let (px, py) = (self.player.x, self.player.y);
        let reach =
            (pp.pickup_radius + self.player.bought.pickup_radius_bonus).max(pp.collect_radius + self.player.radius);
        let k = &mut self.pools.pickups;
        self.spatial.pickup_grid.rebuild(&k.x, &k.y, &k.radius, reach, self.cfg.grid_cells_per_entity);
        let pull = pp.magnet_speed * self.clock.dt;
        let collect = pp.collect_radius + self.player.radius;
        let events = &mut self.log.events;
        self.spatial.pickup_grid.for_each_within(px, py, reach, |i| {
            let i = i as usize;
            let (dx, dy) = (px - k.x[i], py - k.y[i]);
            let d = (dx * dx + dy * dy).sqrt();
            if d < collect {
                k.dead[i] = true;
                events.push(Event::new(EventKind::CurrencyPicked, 0.0, 0.0, k.x[i], k.y[i], k.value[i] as f32));
            } else {
                let s = pull.min(d) / d;
                k.x[i] += dx * s;
                k.y[i] += dy * s;
            }
        });
    }

    /// R-DET-1: a digest of everything that shapes the future of the run.
    pub fn state_hash(&self) -> u64 {
        let mut h = StateHasher::new();
        h.section("frame");
        h.u64(self.clock.frame);
        h.section("player");
        let p = &self.player;
        for v in [
            p.x,
            p.y,
            p.hp,
            p.hp_max,
            p.armor,
            p.ward,
            p.strength,
            p.mana,
            p.mana_max,
            p.mana_regen,
            p.crit_chance,
            p.dash_left,
            p.dash_cooldown,
            p.invulnerable,
            p.dash_dx,
            p.dash_dy,
            p.face_x,
            p.face_y,
        ] {
            h.f32(v);
        }
        h.u64(p.alive as u64 | (p.moving as u64) << 1 | (p.last_will as u64) << 2);
        self.pools.enemies.hash_into(&mut h);
        h.f32s(&self.elements.attunement);
        self.pools.projectiles.hash_into(&mut h);
        self.pools.pickups.hash_into(&mut h);
        h.section("wand");
        h.f32(self.spells.wand.timer());
        if let Wand::Program(c) = &self.spells.wand {
            h.f32(c.mana.current);
            h.u64(c.kills as u64);
            h.u32s(c.cursors.iter().copied());
            h.u32s(c.registers.iter().map(|&r| r as u32));
            h.u32s(c.counters.iter().copied());
            h.u32s(c.open.iter().map(|&o| o as u32));
        }
        self.pools.projectiles.hash_behaviours_into(&mut h);
        self.pools.zones.hash_into(&mut h);
        self.pools.summons.hash_into(&mut h);
        self.hash_relics(&mut h);
        self.hash_bosses(&mut h);
        h.section("rng");
        for f in self.rng.fingerprint() {
            h.u64(f);
        }
        h.finish()
    }
}

/// R-SAVE-1: what a run's save restores into a fresh world between waves
/// (the rest of the between-waves state lives in Python; mana is not saved,
/// R-MANA-1).
impl World {
    /// Each random stream's position (crit, spread, drops, spawns).
    pub fn rng_positions(&self) -> [u64; super::rng::STREAM_COUNT] {
        self.rng.positions()
    }

    /// Puts every random stream of this world's seed at `positions` (from `rng_positions`).
    pub fn set_rng_positions(&mut self, positions: [u64; super::rng::STREAM_COUNT]) {
        self.rng = Streams::at(self.cfg.seed, positions);
    }

    /// R-STAT-1: the player stats bought in the shop, each a bonus on top of
    /// balance.json `player` (and `pickups.pickup_radius`); every field finite
    /// and ≥ 0 (a `CoreError::Argument` otherwise, nothing changed). Raising
    /// the max HP bonus heals by the same amount; lowering it caps HP at the
    /// new max and never kills. Crit chance stops at 1.
    pub fn set_player_stats(&mut self, stats: PlayerStats) -> CoreResult<()> {
        stats.validate()?;
        // A program wand's pool regenerates by its core's mana_regen (set_caster):
        // the player's own regen is then the bonus alone.
        let program = matches!(self.spells.wand, Wand::Program(_));
        self.player.buy(stats, &self.cfg.player, self.clock.dt, program);
        Ok(())
    }

    /// The player stats last set by `set_player_stats`.
    pub fn player_stats(&self) -> PlayerStats {
        self.player.bought
    }

    /// R-END-1: arms (or disarms) Last Will — the next lethal hit on the
    /// player (contact, enemy shot, exploder blast) leaves 1 HP and disarms
    /// it, with a `LastWill` event. A run save keeps `last_will()` and sets
    /// it back on the restored world.
    pub fn set_last_will(&mut self, armed: bool) {
        self.player.last_will = armed;
    }

    /// Whether Last Will is armed (not yet spent).
    pub fn last_will(&self) -> bool {
        self.player.last_will
    }

    /// Sets the player's HP and max HP (0 < hp ≤ hp_max, both finite); the player is alive.
    pub fn set_player_hp(&mut self, hp: f32, hp_max: f32) -> CoreResult<()> {
        if !(hp.is_finite()
            && hp_max.is_finite()
            && hp > 0.0
            && hp <= hp_max
            && hp_max as f64 <= super::limits::MAX_AMOUNT)
        {
            return Err(CoreError::arg(format!(
                "player HP must satisfy 0 < hp ≤ hp_max (finite), got {hp} / {hp_max}"
            )));
        }
        self.player.hp = hp;
        self.player.hp_max = hp_max;
        self.player.alive = true;
        Ok(())
    }

    /// A program wand's memory (R-VM-12 cursor, R-REG-1 registers, Charge
    /// Counter counts, Kill Combo kills), which a persistent_memory core keeps
    /// between waves; `None` for any other wand.
    pub fn wand_memory(&self) -> Option<WandMemory> {
        match &self.spells.wand {
            Wand::Program(c) => Some(WandMemory {
                cursor: c.cursor(),
                registers: c.registers,
                counters: c.counters.clone(),
                kills: c.kills,
            }),
            _ => None,
        }
    }

    /// Puts `memory` (from `wand_memory` of the same wand) into the armed program wand;
    /// refused when no program is armed, the cursor is outside its main block or the
    /// counters are not the program's.
    pub fn set_wand_memory(&mut self, memory: WandMemory) -> CoreResult<()> {
        let Wand::Program(c) = &mut self.spells.wand else {
            return Err(CoreError::arg("wand memory needs a program wand armed"));
        };
        let main = c.program.main;
        if memory.cursor < main.start || memory.cursor > main.end {
            return Err(CoreError::arg(format!(
                "wand cursor {} is outside the main block {}..={}",
                memory.cursor, main.start, main.end
            )));
        }
        if memory.counters.len() != c.counters.len() {
            return Err(CoreError::arg(format!(
                "the wand has {} counters, got {}",
                c.counters.len(),
                memory.counters.len()
            )));
        }
        c.cursors[crate::vm::exec::MAIN] = memory.cursor;
        c.registers = memory.registers;
        c.counters = memory.counters;
        c.kills = memory.kills;
        Ok(())
    }
}

/// A program wand's memory between waves (`World::wand_memory`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WandMemory {
    pub cursor: u32,
    pub registers: [i32; 2],
    pub counters: Vec<u32>,
    pub kills: u32,
}

/// R-END-3 mirror world: projectile `pi`'s first enemy hit sends it back toward the player at
/// its speed (straight back if it is on the player), spending none of its pierce.
fn mirror(p: &mut Projectiles, pi: usize, player: (f32, f32)) {
    p.mirrored[pi] = true;
    let (dx, dy) = (player.0 - p.x[pi], player.1 - p.y[pi]);
    let (d, speed) = ((dx * dx + dy * dy).sqrt(), (p.vx[pi] * p.vx[pi] + p.vy[pi] * p.vy[pi]).sqrt());
    if d > 1e-6 {
        (p.vx[pi], p.vy[pi]) = (dx / d * speed, dy / d * speed);
    } else {
        (p.vx[pi], p.vy[pi]) = (-p.vx[pi], -p.vy[pi]);
    }
}
