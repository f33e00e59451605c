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
//! - step 8b (`bosses_step`, boss_fight.rs): the phase follows HP, the
//!   fight's clock hyper-enrages it, the patterns wind up and fire (R-BOSS-3:
//!   each volley `telegraph` seconds after its wind-up), adds and clones come.
//!
//! With no boss alive none of this runs, and the state hash has no bosses
//! section (worlds without bosses hash as they always did).

use super::World;
use crate::sim::boss::{BossDef, BossPhase};
use crate::sim::config::{Element, EnemyKind, Shield, ELEMENTS};
use crate::sim::events::{BossPattern, Event, EventKind};
use crate::sim::hash::StateHasher;
use crate::sim::ids::Id;

/// One live boss's state.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct BossState {
    /// Its enemy row's id, and its kind.
    pub id: Id,
    pub kind: u16,
    /// The index of its phase in `BossDef::phases`.
    pub phase: usize,
    /// Ticks since it came (whole ticks: timers are exact, R-DET-1).
    pub age: u64,
    /// Ticks to each pattern's next volley (spread, barrage, burst, adds).
    pub timers: [u64; 4],
    /// Spread volleys fired (each turns the ring half a gap).
    pub volleys: u32,
    pub plates: u32,
    /// Ticks of Last Will's invulnerability left.
    pub invulnerable: u64,
    pub last_will_spent: bool,
    pub hyper: bool,
    /// Clones to bring at the next step (entering a phase with them).
    pub clones_due: bool,
    /// Its clones and adds, which die with it.
    pub linked: Vec<Id>,
    /// R-BOSS-3: the volleys wound up and not yet fired, oldest first (they fire even if the
    /// phase changes meanwhile — they were announced; they die with the boss).
    pub wind_ups: Vec<WindUp>,
}

/// R-BOSS-3: a volley wound up (a `BossTelegraph` event) that fires when `left` reaches 0,
/// from (x, y), its shots along the lines locked at the wind-up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindUp {
    pub pattern: BossPattern,
    /// Where the shots come from: the boss where it stood at the wind-up.
    pub x: f32,
    pub y: f32,
    /// Radians: a barrage's aim (its fan's centre), a ring's first shot.
    pub angle: f32,
    /// Shots in the volley, and a barrage's fan width (0 for rings).
    pub count: u32,
    pub spread_degrees: f32,
    /// Ticks until it fires, of `ticks` in all (whole ticks: exact, R-DET-1).
    pub left: u64,
    pub ticks: u64,
}

impl WindUp {
    fn hash_into(&self, h: &mut StateHasher) {
        let head = [self.pattern as u8 as u32, self.count, self.left as u32, self.ticks as u32];
        h.u32s(head.into_iter());
        h.f32s(&[self.x, self.y, self.angle, self.spread_degrees]);
    }
}

/// What `World::boss_status` reports of a wind-up (the arena draws it, R-BOSS-3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Telegraph {
    pub pattern: BossPattern,
    pub x: f32,
    pub y: f32,
    pub angle: f32,
    pub count: u32,
    pub spread_degrees: f32,
    /// Seconds until the volley, of `seconds` in all.
    pub left: f32,
    pub seconds: f32,
}

/// The bosses in the world: every live boss's state, in the order they came.
#[derive(Clone, Debug)]
pub(super) struct Bosses {
    pub live: Vec<BossState>,
    /// `WorldConfig::max_enemy_radius`: the largest kind that fills waves,
    /// which sizes the enemy grid's cells (a bigger boss is a wide point).
    pub regular_radius: f32,
}

impl Bosses {
    /// The bosses' section of the state hash (none while no boss lives).
    pub fn hash_into(&self, h: &mut StateHasher) {
        if self.live.is_empty() {
            return;
        }
        h.section("bosses");
        for s in &self.live {
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
            h.u64(s.wind_ups.len() as u64);
            for w in &s.wind_ups {
                w.hash_into(h);
            }
        }
    }
}

/// What `World::boss_status` reports of a live boss (the HUD's boss bar, the arena's telegraphs).
#[derive(Clone, Debug, PartialEq)]
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
    /// R-BOSS-3: its volleys wound up, oldest first.
    pub telegraphs: Vec<Telegraph>,
}

/// A boss kind's `BossDef`.
pub(super) fn boss_def(kind: &EnemyKind) -> &BossDef {
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
            wind_ups: Vec::new(),
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
    pub(super) fn multipliers(&self, b: usize) -> (f32, f32, f32) {
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
                telegraphs: state.wind_ups.iter().map(|w| telegraph(w, self.cfg.tick_hz)).collect(),
            });
        }
        out
    }
}

fn telegraph(w: &WindUp, hz: u32) -> Telegraph {
    let seconds = |t: u64| t as f32 / hz as f32;
    Telegraph {
        pattern: w.pattern,
        x: w.x,
        y: w.y,
        angle: w.angle,
        count: w.count,
        spread_degrees: w.spread_degrees,
        left: seconds(w.left),
        seconds: seconds(w.ticks),
    }
}

/// `seconds` in whole ticks at `hz`, at least one.
pub(super) fn ticks(seconds: f32, hz: u32) -> u64 {
    ((seconds as f64 * hz as f64).round() as u64).max(1)
}

/// Entering `phase`: its plates, its timers from the
/// full interval, its clones due, hyper-enrage if it says so.
pub(super) fn enter(state: &mut BossState, phase: &BossPhase, hz: u32) {
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
