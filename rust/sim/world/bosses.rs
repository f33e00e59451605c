//! Bosses in the world (R-BOSS-1/2; what a boss kind carries: sim/boss.rs).
//!
//! Each live boss has a `BossState` beside its enemy row, found by the
//! enemy's id: its phase, its patterns' timers, its plates, its Last Will and
//! the ids of its clones and adds. The hooks, each behind "is this a boss":
//!
//! - a hit's defence is the phase's resistances and the boss's armor plus
//!   its plates (`boss_defence`); its shield is the phase's `reflect`;
//! - after a hit (`boss_hit`): a physical one heals `regen_on_physical_hit`
//!   of max HP, one of the weak element strips a plate (`BossPlate` event);
//! - damage (`boss_spares`, in `take_off_hp`): nothing while invulnerable;
//!   the killing blow enters the Last Will phase instead, once;
//! - step 8b (`bosses_step`, after the deaths, before the enemies move): the
//!   phase follows HP (`BossPhase` events, one per phase entered), the
//!   fight's clock hyper-enrages it after `enrage_after` (`BossEnraged`),
//!   speed follows the phase, the patterns fire, adds and clones come, and a
//!   dead boss takes its clones and adds with it.
//!
//! With no boss alive none of this runs, and the state hash has no bosses
//! section (worlds without bosses hash as they always did).

use super::World;
use crate::sim::boss::{fan, ring, BossDef, BossPhase};
use crate::sim::config::{Element, EnemyKind, Shield, ELEMENTS};
use crate::sim::events::{Event, EventKind};
use crate::sim::hash::StateHasher;
use crate::sim::ids::Id;
use crate::sim::pools::{Behaviour, NewProjectile, Owner};

/// One live boss's state.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct BossState {
    /// Its enemy row's id, and its kind.
    id: Id,
    kind: u16,
    /// The index of its phase in `BossDef::phases`.
    phase: usize,
    /// Ticks since it came (whole ticks: timers are exact, R-DET-1).
    age: u64,
    /// Ticks to each pattern's next volley (spread, barrage, burst, adds).
    timers: [u64; 4],
    /// Spread volleys fired (each turns the ring half a gap).
    volleys: u32,
    plates: u32,
    /// Ticks of Last Will's invulnerability left.
    invulnerable: u64,
    last_will_spent: bool,
    hyper: bool,
    /// Clones to bring at the next step (entering a phase with them).
    clones_due: bool,
    /// Its clones and adds, which die with it.
    linked: Vec<Id>,
}

/// The bosses in the world: every live boss's state, in the order they came.
#[derive(Clone, Debug)]
pub(super) struct Bosses {
    pub live: Vec<BossState>,
    /// `WorldConfig::max_enemy_radius`: the largest kind that fills waves
    /// (the enemies' reach while no bigger boss lives).
    pub regular_radius: f32,
}

/// What `World::boss_status` reports of a live boss (the HUD's boss bar).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BossStatus {
    pub kind: u16,
    pub x: f32,
    pub y: f32,
    pub hp: f32,
    pub hp_max: f32,
    /// The phase's number in the data.
    pub phase: u32,
    pub plates: u32,
    pub invulnerable: f32,
    pub enraged: bool,
    /// Its clones and adds alive.
    pub linked: u32,
}

const SPREAD: usize = 0;
const BARRAGE: usize = 1;
const BURST: usize = 2;
const ADDS: usize = 3;

fn boss_def(kind: &EnemyKind) -> &BossDef {
    kind.behavior.boss().expect("a boss state belongs to a boss kind")
}

impl World {
    /// A boss of `kind` came as enemy `id`: its state starts in phase 1.
    pub(super) fn register_boss(&mut self, id: Id, kind: u16) {
        let mut state = BossState {
            id,
            kind,
            phase: 0,
            age: 0,
            timers: [0; 4],
            volleys: 0,
            plates: 0,
            invulnerable: 0,
            last_will_spent: false,
            hyper: false,
            clones_due: false,
            linked: Vec::new(),
        };
        let phase = boss_def(&self.cfg.enemy_kinds[kind as usize]).phases[0];
        enter(&mut state, &phase, self.cfg.tick_hz);
        self.bosses.live.push(state);
    }

    fn boss_of(&self, e: usize) -> Option<usize> {
        let id = self.pools.enemies.ids.ids()[e];
        self.bosses.live.iter().position(|b| b.id == id)
    }

    /// A hit's resistances and armor on boss `e`: its phase's, plus its plates.
    pub(super) fn boss_defence(&self, e: usize, kind: &EnemyKind) -> ([f32; ELEMENTS], f32) {
        let Some(b) = self.boss_of(e) else { return (kind.resist, kind.armor) };
        let state = &self.bosses.live[b];
        let phase = &boss_def(kind).phases[state.phase];
        let plate = phase.plates.map_or(0.0, |p| p.armor);
        (phase.resist, kind.armor + plate * state.plates as f32)
    }

    /// Boss `e`'s shield in its phase (frontal reflection), if any.
    pub(super) fn boss_shield(&self, e: usize) -> Option<Shield> {
        let b = self.boss_of(e)?;
        let kind = &self.cfg.enemy_kinds[self.bosses.live[b].kind as usize];
        boss_def(kind).phases[self.bosses.live[b].phase].reflect
    }

    /// After a hit of `element` on boss `e` that dealt `dealt`: physical heals
    /// its phase's regen (at most `regen_hit_cap` × `dealt` when the phase caps
    /// it), the weak element strips a plate.
    pub(super) fn boss_hit(&mut self, e: usize, element: usize, dealt: f32) {
        let Some(b) = self.boss_of(e) else { return };
        if self.pools.enemies.dead[e] {
            return;
        }
        let kind = self.bosses.live[b].kind;
        let phase = boss_def(&self.cfg.enemy_kinds[kind as usize]).phases[self.bosses.live[b].phase];
        let en = &mut self.pools.enemies;
        if element == Element::Physical as usize && phase.regen_on_physical_hit > 0.0 {
            let regen = phase.regen_on_physical_hit * en.hp_max[e];
            let heal = phase.regen_hit_cap.map_or(regen, |cap| regen.min(cap * dealt));
            en.hp[e] = (en.hp[e] + heal).min(en.hp_max[e]);
        }
        let state = &mut self.bosses.live[b];
        if let Some(plates) = phase.plates {
            if element == plates.weak as usize && state.plates > 0 {
                state.plates -= 1;
                let (x, y) = (en.x[e], en.y[e]);
                self.log.events.push(Event::new(EventKind::BossPlate, state.plates as f32, kind as f32, x, y, 0.0));
            }
        }
    }

    /// Whether boss `e` is spared `amount`: Some(damage dealt) if so — none
    /// while invulnerable; the killing blow enters its Last Will phase (once).
    pub(super) fn boss_spares(&mut self, e: usize, amount: f32) -> Option<f32> {
        let b = self.boss_of(e)?;
        let state = &mut self.bosses.live[b];
        if state.invulnerable > 0 {
            return Some(0.0);
        }
        let en = &mut self.pools.enemies;
        if amount < en.hp[e] || state.last_will_spent {
            return None;
        }
        let def = boss_def(&self.cfg.enemy_kinds[state.kind as usize]);
        let i = def.last_will_phase()?;
        let (phase, will) = (def.phases[i], def.phases[i].last_will?);
        let dealt = en.hp[e];
        state.last_will_spent = true;
        state.invulnerable = ticks(will.invulnerable, self.cfg.tick_hz);
        state.phase = i;
        en.hp[e] = will.restore * en.hp_max[e];
        en.hit_frame[e] = self.clock.frame + 1;
        enter(state, &phase, self.cfg.tick_hz);
        let (kind, x, y) = (state.kind, en.x[e], en.y[e]);
        self.log.events.push(Event::new(EventKind::BossPhase, phase.number as f32, kind as f32, x, y, will.restore));
        self.log.damage += dealt;
        Some(dealt)
    }

    /// Boss `e`'s damage multiplier (its touch and its shots).
    pub(super) fn boss_damage(&self, e: usize) -> f32 {
        self.boss_of(e).map_or(1.0, |b| self.multipliers(b).1)
    }

    /// (speed, damage, interval) multipliers of boss state `b`: its phase's, then hyper-enrage's.
    fn multipliers(&self, b: usize) -> (f32, f32, f32) {
        let state = &self.bosses.live[b];
        let def = boss_def(&self.cfg.enemy_kinds[state.kind as usize]);
        let phase = &def.phases[state.phase];
        let (speed, damage) = (phase.speed_multiplier, phase.damage_multiplier);
        if state.hyper {
            (speed * def.hyper.speed, damage * def.hyper.damage, def.hyper.interval)
        } else {
            (speed, damage, 1.0)
        }
    }

    /// Step 8b: every live boss's phase, clock, speed and patterns; the dead
    /// ones' clones and adds die with them.
    pub(super) fn bosses_step(&mut self) {
        let mut b = 0;
        while b < self.bosses.live.len() {
            let Some(e) = self.pools.enemies.ids.dense(self.bosses.live[b].id).filter(|&e| !self.pools.enemies.dead[e])
            else {
                let state = self.bosses.live.swap_remove(b);
                self.fall_with_boss(&state.linked);
                continue;
            };
            self.boss_phase(b, e);
            self.boss_clock(b, e);
            self.boss_patterns(b, e);
            b += 1;
        }
    }

    /// The phase follows HP: each phase crossed is entered, in order.
    fn boss_phase(&mut self, b: usize, e: usize) {
        let kind = self.bosses.live[b].kind;
        let def = boss_def(&self.cfg.enemy_kinds[kind as usize]);
        let fraction = self.pools.enemies.hp[e] / self.pools.enemies.hp_max[e];
        let next = def.phase_for(self.bosses.live[b].phase, fraction);
        let (x, y) = (self.pools.enemies.x[e], self.pools.enemies.y[e]);
        for i in self.bosses.live[b].phase + 1..=next {
            let phase = def.phases[i];
            if phase.last_will.is_some() {
                continue;
            }
            enter(&mut self.bosses.live[b], &phase, self.cfg.tick_hz);
            self.bosses.live[b].phase = i;
            self.log.events.push(Event::new(EventKind::BossPhase, phase.number as f32, kind as f32, x, y, fraction));
        }
    }

    /// The fight's clock: invulnerability runs out; past `enrage_after` it
    /// hyper-enrages (a boss fight always ends); its speed follows.
    fn boss_clock(&mut self, b: usize, e: usize) {
        let (dt, hz) = (self.clock.dt, self.cfg.tick_hz);
        let k = &self.cfg.enemy_kinds[self.bosses.live[b].kind as usize];
        let (base_speed, enrage_after) = (k.speed, ticks(boss_def(k).enrage_after, hz));
        let (def, hyper) = (boss_def(k), self.bosses.live[b].hyper);
        let stationary = def.phases[self.bosses.live[b].phase].stationary && !(hyper && def.hyper.chase);
        let state = &mut self.bosses.live[b];
        state.age += 1;
        state.invulnerable = state.invulnerable.saturating_sub(1);
        if !state.hyper && state.age >= enrage_after {
            state.hyper = true;
            let (x, y, fought) = (self.pools.enemies.x[e], self.pools.enemies.y[e], state.age as f32 / hz as f32);
            self.log.events.push(Event::new(EventKind::BossEnraged, 0.0, state.kind as f32, x, y, fought));
        }
        let speed = if stationary { 0.0 } else { base_speed * self.multipliers(b).0 };
        self.pools.enemies.speed[e] = speed * dt;
    }

    /// The phase's patterns on their timers; adds and clones.
    fn boss_patterns(&mut self, b: usize, e: usize) {
        let (hz, kind) = (self.cfg.tick_hz, self.bosses.live[b].kind);
        let def = boss_def(&self.cfg.enemy_kinds[kind as usize]);
        let (phase, shot) = (def.phases[self.bosses.live[b].phase], def.shot);
        let (_, damage, interval) = self.multipliers(b);
        let (x, y) = (self.pools.enemies.x[e], self.pools.enemies.y[e]);
        let due = |state: &mut BossState, slot: usize, every: f32| {
            state.timers[slot] = state.timers[slot].saturating_sub(1);
            let fire = state.timers[slot] == 0;
            if fire {
                state.timers[slot] = ticks(every * interval, hz);
            }
            fire
        };
        let mut shots: Vec<(f32, f32)> = Vec::new();
        let state = &mut self.bosses.live[b];
        if let Some(s) = phase.spread {
            if due(state, SPREAD, s.every) {
                let half_gap = std::f32::consts::PI / s.count as f32;
                shots.extend(ring(s.count, half_gap * (state.volleys % 2) as f32));
                state.volleys += 1;
            }
        }
        if let Some(s) = phase.barrage {
            if self.player.alive && due(state, BARRAGE, s.every) {
                let (dx, dy) = (self.player.x - x, self.player.y - y);
                let d = (dx * dx + dy * dy).sqrt();
                let aim = if d > 1e-6 { (dx / d, dy / d) } else { (1.0, 0.0) };
                shots.extend(fan(aim, s.shots, s.spread_degrees));
            }
        }
        if let Some(s) = phase.burst {
            if due(state, BURST, s.every) {
                shots.extend(ring(s.count, 0.0));
            }
        }
        let adds = phase.adds.filter(|a| due(state, ADDS, a.every));
        let clones = phase.clones.filter(|_| std::mem::take(&mut state.clones_due));
        for (ux, uy) in shots {
            self.boss_shot(kind, (x, y), (ux, uy), shot.speed, shot.damage * damage, shot.radius, shot.lifetime);
        }
        let radius = self.pools.enemies.radius[e];
        if let Some(a) = adds {
            self.bring(b, a.kind, a.count, (x, y), radius);
        }
        if let Some(c) = clones {
            self.bring(b, c.kind, c.count, (x, y), radius);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn boss_shot(
        &mut self,
        kind: u16,
        (x, y): (f32, f32),
        (ux, uy): (f32, f32),
        speed: f32,
        damage: f32,
        radius: f32,
        life: f32,
    ) {
        let (vx, vy) = (ux * speed * self.clock.dt, uy * speed * self.clock.dt);
        self.pools.projectiles.push(NewProjectile {
            x,
            y,
            vx,
            vy,
            radius,
            damage,
            crit_chance: 0.0,
            element: Element::Physical,
            pierce: 0,
            bounces: 0,
            life,
            owner: Owner::Enemy,
            look: kind,
            behaviour: Behaviour::default(),
        });
        self.log.events.push(Event::new(EventKind::ProjectileFired, kind as f32, 1.0, x, y, 1.0));
    }

    /// `count` enemies of `kind` evenly round boss state `b` (at its edge), linked to it.
    fn bring(&mut self, b: usize, kind: u16, count: u32, (x, y): (f32, f32), radius: f32) {
        for (ux, uy) in ring(count, 0.0) {
            if let Ok(id) = self.spawn(kind, false, x + ux * radius * 1.5, y + uy * radius * 1.5, true) {
                self.bosses.live[b].linked.push(id);
            }
        }
    }

    /// A boss died: its clones and adds still alive die too (no reward: the boss paid).
    fn fall_with_boss(&mut self, linked: &[Id]) {
        for &id in linked {
            let Some(e) = self.pools.enemies.ids.dense(id) else { continue };
            let en = &mut self.pools.enemies;
            if en.dead[e] {
                continue;
            }
            en.dead[e] = true;
            let (kind, elite, x, y) = (en.kind[e], en.elite[e], en.x[e], en.y[e]);
            self.log.events.push(Event::new(EventKind::EnemyKilled, kind as f32, elite as u8 as f32, x, y, 0.0));
        }
    }

    /// The largest enemy radius the grid and the touch must reach: the
    /// regular kinds', or a live boss's or its clone's if bigger.
    pub(super) fn enemy_reach(&self) -> f32 {
        let mut reach = self.bosses.regular_radius;
        for state in &self.bosses.live {
            for id in std::iter::once(&state.id).chain(&state.linked) {
                if let Some(e) = self.pools.enemies.ids.dense(*id) {
                    reach = reach.max(self.pools.enemies.radius[e]);
                }
            }
        }
        reach
    }

    /// Every live boss, in the order they came (the HUD's boss bar).
    pub fn boss_status(&self) -> Vec<BossStatus> {
        let mut out = Vec::with_capacity(self.bosses.live.len());
        for state in &self.bosses.live {
            let Some(e) = self.pools.enemies.ids.dense(state.id) else { continue };
            let en = &self.pools.enemies;
            let def = boss_def(&self.cfg.enemy_kinds[state.kind as usize]);
            let alive = |id: &&Id| self.pools.enemies.ids.dense(**id).is_some_and(|i| !self.pools.enemies.dead[i]);
            out.push(BossStatus {
                kind: state.kind,
                x: en.x[e],
                y: en.y[e],
                hp: en.hp[e].max(0.0),
                hp_max: en.hp_max[e],
                phase: def.phases[state.phase].number,
                plates: state.plates,
                invulnerable: state.invulnerable as f32 / self.cfg.tick_hz as f32,
                enraged: state.hyper,
                linked: state.linked.iter().filter(alive).count() as u32,
            });
        }
        out
    }

    /// The bosses' section of the state hash (none while no boss lives).
    pub(super) fn hash_bosses(&self, h: &mut StateHasher) {
        if self.bosses.live.is_empty() {
            return;
        }
        h.section("bosses");
        for s in &self.bosses.live {
            h.u64(s.id.to_bits());
            h.u64(s.phase as u64 | (s.kind as u64) << 16 | (s.volleys as u64) << 32);
            h.u32s(
                [s.age, s.invulnerable, s.timers[0], s.timers[1], s.timers[2], s.timers[3]]
                    .map(|t| t as u32)
                    .into_iter(),
            );
            h.u64(
                s.plates as u64
                    | (s.last_will_spent as u64) << 32
                    | (s.hyper as u64) << 33
                    | (s.clones_due as u64) << 34,
            );
            h.u64(s.linked.len() as u64);
            for id in &s.linked {
                h.u64(id.to_bits());
            }
        }
    }
}

/// `seconds` in whole ticks at `hz`, at least one.
fn ticks(seconds: f32, hz: u32) -> u64 {
    ((seconds as f64 * hz as f64).round() as u64).max(1)
}

/// Entering `phase`: its plates, its timers from the
/// full interval, its clones due, hyper-enrage if it says so.
fn enter(state: &mut BossState, phase: &BossPhase, hz: u32) {
    if let Some(p) = phase.plates {
        state.plates = p.count;
    }
    state.timers = [
        phase.spread.map_or(0, |v| ticks(v.every, hz)),
        phase.barrage.map_or(0, |v| ticks(v.every, hz)),
        phase.burst.map_or(0, |v| ticks(v.every, hz)),
        phase.adds.map_or(0, |v| ticks(v.every, hz)),
    ];
    state.clones_due = phase.clones.is_some();
    state.hyper |= phase.hyper;
}
