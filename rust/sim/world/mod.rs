//! The world: the simulation's state as plain parts (below) and `World::step`,
//! which runs the systems in the order documented at its top. A system is a
//! function over the parts it needs, or a `World` method where its hooks reach
//! across parts (a kill drops a reward and queues a death that acts, a hurt
//! runs the wand's `on_hit`). One file per system:
//!
//! - commands.rs — step 1, game flow's commands;
//! - spatial.rs — step 3, the grids and the searches' scratch (`Spatial`);
//! - spells.rs — step 4, the wand (`Spellcasting`): casts, entries, payloads;
//! - emit.rs — a cast's emissions into projectiles, blasts, zones, summons;
//! - shots.rs — step 5 and after the hits, what spells make their shots do;
//! - hits.rs — steps 6–7, targets, hits, damage, kills;
//! - contact.rs — step 8, touch and enemy shots against the player;
//! - zones.rs — zones and summons, each frame;
//! - statuses.rs — R-DMG-2 statuses, reactions, attunement (`Elements`);
//! - enemies.rs — step 9 and the deaths that act (`EnemyBehaviours`);
//! - bosses.rs, boss_fight.rs — R-BOSS-1 (`Bosses`): the hooks, and step 8b;
//! - relics.rs — R-REL-1/2 and the turn clock (`Relics`);
//! - pickups.rs — step 10, the magnet and collection;
//! - between_waves.rs — a wave's start, and what a run's save restores;
//! - workers.rs — the worker threads that share a step's searches and moves;
//! - hash.rs — R-DET-1, the state hash.

use std::sync::Arc;

use rayon::Scope;

use super::commands::Command;
use super::config::{EnemyKind, Rules, WorldConfig};
use super::error::{CoreError, CoreResult};
use super::events::{Event, EventKind};
use super::ids::Id;
use super::movement::BandQueue;
pub use super::player::PlayerStats;
use super::player::{Controls, Player};
use super::pools::{NewEnemy, NewProjectile, Pools};
use super::rng::Streams;
use crate::vm::Wand;

mod between_waves;
mod boss_fight;
mod bosses;
mod commands;
mod contact;
mod emit;
mod enemies;
mod hash;
mod hits;
mod pickups;
mod relics;
mod shots;
mod spatial;
mod spells;
mod statuses;
mod workers;
mod zones;

pub use between_waves::WandMemory;
use bosses::Bosses;
pub use bosses::{BossStatus, Telegraph};
use enemies::EnemyBehaviours;
use relics::Relics;
use shots::BehaviourHit;
use spatial::Spatial;
use spells::Spellcasting;
use statuses::Elements;
use workers::{Beside, Workers};

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
    /// The wand and what casting it keeps (spells.rs).
    spells: Spellcasting,
    /// The random streams (the world draws on crit alone).
    rng: Streams,
    /// The grids and the searches' and moves' scratch.
    spatial: Spatial,
    /// What this frame did and left to do: events, hits, kills, deaths that act.
    log: FrameLog,
    /// R-REL-1/2 relic rules and their per-wave state (relics.rs).
    relics: Relics,
    /// R-BOSS-1 every live boss's state (bosses.rs).
    bosses: Bosses,
    /// R-DMG-2 / R-STAT-1 attunement, and which element work runs (statuses.rs).
    elements: Elements,
    /// The enemy behaviours' own state (enemies.rs): which the roster has, the archers' steps.
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

/// What this frame did so far and what it left for later systems; each
/// system empties what it reads (the events, at the start of the next step).
#[derive(Clone, Default)]
struct FrameLog {
    /// What the step reports (sim/events.rs), in the order it happened.
    events: Vec<Event>,
    /// Hits of projectiles with spell behaviours, for `behaviour_hits`.
    behaviour_hits: Vec<BehaviourHit>,
    /// Where enemies died this frame (Kill Combo, `on_kill`).
    kills: Vec<(f32, f32)>,
    /// Damage dealt this frame, every source.
    damage: f32,
    /// With the `hit_events` rule: this frame's hits.
    hits: Vec<hits::HitRecord>,
    /// Enemies of kinds that act on death, killed this frame, in order.
    dying: Vec<u32>,
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
    /// has changed. The systems run in this order:
    ///
    ///  1. commands — game flow's spawns, heals, wards, mana grants, statuses
    ///     (every row checked before any is applied; commands.rs); then the wave
    ///     clock ticks (a new turn lands self_forming_clay's ward, blood_vial's moment
    ///     its heal; relics.rs);
    ///  2. player — movement and dash (R-LOOP-2), timers, mana regeneration;
    ///     a dash casts the dash-wave spell (spells.rs);
    ///  3. grid — rebuilt over the enemies' start-of-frame positions (spatial.rs);
    ///  4. wand — casts at the aim point, or (auto-aim) at the nearest enemy in
    ///     reach that no shot in flight will already kill, holding otherwise (spells.rs);
    ///  5. projectiles move — straight, unless homing, sine or orbit steered them; off a
    ///     wall they bounce if they have bounces left, else vanish (an orbiting shot passes
    ///     over); lifetimes run down (shots.rs);
    ///  6. hits — each player projectile strikes the nearest enemy in reach that
    ///     it has not struck before (one hit per projectile per enemy; pierce);
    ///     a reflector's shield turns frontal physical shots back instead;
    ///     R-END-3 mirror world: a shot's first hit turns it back toward the player
    ///     (no pierce spent; hits.rs);
    ///  7. damage — R-DMG-1 with armor, per-element resistance, crits and
    ///     strength, in R-REL-2's order with the relics (sim/relics.rs); R-DMG-2 element
    ///     work per hit (attunement, wet reactions, the status roll on the crit stream;
    ///     statuses.rs); deaths → `EnemyKilled` events and currency drops; spell
    ///     behaviours (blasts, chains, payloads — blasts do the same element work;
    ///     shots.rs), then contact (8), zones (a zone's status roll once per interval)
    ///     and summons (zones.rs), then burn and poison (the status tick: all status
    ///     timers run down), which may kill too;
    ///  8. contact — an enemy touching the player hurts it (ward first), then
    ///     brief invulnerability, and takes bronze_scales' thorns; enemy projectiles
    ///     likewise (a lethal hit with R-END-1 Last Will armed leaves 1 HP and spends it;
    ///     contact.rs); then the deaths that act — exploders burst, splitters split, in
    ///     the order they died (enemies.rs) — and once more after the `on_kill` entry;
    ///     8b. bosses — phases, enrage, speed, patterns (boss_fight.rs);
    ///     8c. the frame's HP, once every hurt, HP paid and heal is done: meat_on_bone
    ///     heals on the wave's first at or below its threshold (relics.rs; burning_blood
    ///     heals as an elite dies, in 7–8, and blood_vial on its tick of the wave clock, in 1);
    ///  9. enemies move — archers plan their band and shoot; chase +
    ///     separation, both from the start-of-frame snapshot (R-WAVE-2: they
    ///     never collapse to a point), chilled enemies slowed, frozen ones
    ///     still; archers take their planned step instead of the chase (slowed
    ///     and stopped alike; a frozen archer does not shoot); all kept in
    ///     bounds (enemies.rs);
    /// 10. pickups — pulled in within the pickup radius, collected on touch (pickups.rs);
    /// 11. cleanup — the frame's biggest hits and the_boot's event, vulnerable and
    ///     weak tick; every 16 frames, from 4,096 entities, the enemy and projectile
    ///     pools are put in the grid's order (spatial.rs `Spatial::reorder`); the dead
    ///     are swap-removed.
    ///
    /// Hits (6) and separation (9) read the same grid: enemies move only after
    /// the hits, so one rebuild per frame serves both exactly. Children of a
    /// split join after the rebuild: this frame they are not in the grid (no
    /// hits, no push), from the next one they are.
    pub fn step(&mut self, controls: &Controls, commands: &[Command]) -> StepCounts {
        self.log.events.clear();
        // With enough to share, the worker threads stay awake until the step ends.
        let (enemies, shots) = (self.pools.enemies.len(), self.pools.projectiles.len());
        let _shift = self.spatial.workers.shift(enemies.max(shots));
        // 1. commands, the wave clock
        for c in commands {
            self.apply(c);
        }
        self.advance_turn_clock();
        // 2. player
        self.move_player(controls);
        // 3. grid
        let regular = self.bosses.regular_radius;
        self.spatial.rebuild_grid(&self.pools, regular, self.player.radius, self.cfg.grid_cells_per_entity);
        // 4–8b; with threads, step 9's separation pushes beside them, as they
        // read nothing but the grid (spatial.rs `Pushes`).
        let ahead = self.separation_ahead();
        let beside = ahead.is_some();
        let hits = match ahead {
            Some(workers) => {
                let grid = Arc::clone(&self.spatial.grid);
                let mut pushes = std::mem::take(&mut self.spatial.pushes);
                let jobs = Beside::default();
                let hits = pushes.alongside(&grid, self.cfg.separation(), |bands| {
                    workers.scope(|s| self.fight(controls, s.map(|s| (s, bands, &jobs))))
                });
                self.spatial.pushes = pushes;
                hits
            }
            None => self.fight(controls, None),
        };
        // 8c. the frame's HP (meat_on_bone)
        self.relics_watch_hp();
        // 9. enemies move, pushed apart by separation (computed here unless it ran beside 4–8b)
        if !beside && !self.cfg.rules.enemies_still {
            self.spatial.pushes.compute(&self.spatial.grid, self.cfg.separation());
        }
        self.move_enemies();
        // 10. pickups
        let (pool, grid, events) = (&mut self.pools.pickups, &mut self.spatial.pickup_grid, &mut self.log.events);
        pickups::collect(pool, grid, &self.player, &self.cfg, self.clock.dt, events);
        // 11. cleanup; damage from every source: projectiles, blasts, chains, zones, commands
        let damage_dealt = std::mem::take(&mut self.log.damage);
        self.log.report_biggest_hits(self.cfg.hit_events_per_frame as usize);
        self.report_boot();
        self.cleanup();

        StepCounts {
            enemies: self.pools.enemies.len(),
            projectiles: self.pools.projectiles.len(),
            pickups: self.pools.pickups.len(),
            events: self.log.events.len(),
            hits,
            damage_dealt,
        }
    }

    /// Steps 4–8b (see `step`): the wand, the shots, the hits and everything
    /// they set off, up to the bosses; returns the frame's projectile hits.
    /// `alongside`: step 9's separation bands, for a pool thread to run
    /// while this one casts and moves the shots, and to leave while the
    /// workers share the search.
    fn fight<'s, 'q: 's>(
        &mut self,
        controls: &Controls,
        alongside: Option<(&Scope<'s>, &'s BandQueue<'q>, &'s Beside)>,
    ) -> u32 {
        if let Some((s, bands, jobs)) = alongside {
            jobs.spawn(s, || bands.run_until_paused());
        }
        // 4. wand
        self.cast(controls);
        // 5. projectiles move
        self.steer_projectiles();
        shots::move_shots(&mut self.pools.projectiles, self.clock.dt, (self.cfg.arena_w, self.cfg.arena_h));
        // 6–7. hits, damage, and what the spells' shots do with them
        if let Some((_, bands, _)) = alongside {
            bands.pause();
        }
        hits::find_targets(&mut self.spatial, &self.pools, !self.cfg.rules.no_hit_memory);
        if let Some((s, bands, jobs)) = alongside {
            jobs.spawn(s, || bands.run_all());
        }
        let (hits, dealt) = self.resolve_hits();
        debug_assert!(dealt <= self.log.damage + 1e-3);
        self.behaviour_hits();
        self.behaviour_deaths();
        // 8. contact; zones, summons and statuses; the deaths that act; the wand's kills
        self.contact();
        self.update_zones();
        self.update_summons();
        self.tick_statuses();
        self.enemy_deaths();
        self.program_kills();
        // Deaths by the `on_kill` entry's spells act now (before the dead are removed).
        self.enemy_deaths();
        // 8b. bosses
        self.bosses_step();
        if let Some((_, bands, jobs)) = alongside {
            bands.run_all();
            jobs.wait();
        }
        hits
    }

    /// The workers, when step 9's separation is worth computing beside
    /// steps 4–8b: threads, enough enemies to share, and enemies that move.
    fn separation_ahead(&self) -> Option<Workers> {
        let (workers, still) = (&self.spatial.workers, self.cfg.rules.enemies_still);
        (workers.share_work(self.spatial.grid.sources()) && !still).then(|| workers.handle())
    }

    /// Step 2: the player moves and dashes (R-LOOP-2), its timers run and its mana
    /// regenerates; a dash casts the dash-wave spell. A fixed player (the training
    /// range) only runs its timers.
    fn move_player(&mut self, controls: &Controls) {
        let (aw, ah) = (self.cfg.arena_w, self.cfg.arena_h);
        self.spells.dash_wave_timer = (self.spells.dash_wave_timer - self.clock.dt).max(0.0);
        if !self.cfg.rules.player_fixed && self.player.update(controls, self.clock.dt, aw, ah) {
            let p = &self.player;
            self.log.events.push(Event::new(EventKind::Dashed, p.dash_dx, p.dash_dy, p.x, p.y, 0.0));
            self.dash_wave();
        } else if self.cfg.rules.player_fixed {
            self.player.update(&Controls::default(), self.clock.dt, aw, ah);
        }
    }

    /// Step 11's end: vulnerable and weak run down, the dead leave their pools, the frame ends.
    fn cleanup(&mut self) {
        let (e, dt) = (&mut self.pools.enemies, self.clock.dt);
        // Column by column (a chained iterator kept the loop scalar).
        for column in [&mut e.vulnerable, &mut e.weak] {
            for s in column.iter_mut() {
                *s = (*s - dt).max(0.0);
            }
        }
        let entities = self.pools.enemies.len() + self.pools.projectiles.len();
        if self.clock.frame.is_multiple_of(spatial::REORDER_EVERY) && entities >= spatial::REORDER_FROM {
            self.spatial.reorder(&mut self.pools);
        }
        let e = &mut self.pools.enemies;
        e.compact();
        self.pools.projectiles.compact();
        self.pools.pickups.compact();
        self.clock.frame += 1;
    }
}

/// (x, y) as a unit vector; (1, 0) when it is too short to have a direction.
fn unit(x: f32, y: f32) -> (f32, f32) {
    let d = (x * x + y * y).sqrt();
    if d > 1e-6 {
        (x / d, y / d)
    } else {
        (1.0, 0.0)
    }
}
