//! Step 8b, the boss fight (R-BOSS-1/2), after the deaths act and before the
//! enemies move: each live boss's phase follows its HP (`BossPhase` events,
//! one per phase entered), the fight's clock hyper-enrages it after
//! `enrage_after` (`BossEnraged`), its speed follows the phase, its patterns
//! wind up and fire, adds and clones come; a dead boss takes its clones and
//! adds with it.
//!
//! R-BOSS-3, the wind-up: a pattern whose timer runs out does not fire; it
//! locks where the boss stands and the volley's lines (a barrage's aim at the
//! player, a spread ring's turn), says so (`BossTelegraph`) and fires
//! `BossDef::telegraph` seconds later — from that spot, along those lines,
//! wherever the boss and the player have gone. A telegraph is a promise the
//! player can read and dodge: the marker drawn is exactly where the shots go.
//! The pattern's timer restarts at the wind-up, so volleys keep their cadence;
//! enrage shortens the cadence, never the wind-up.

use super::bosses::{boss_def, enter, ticks, BossState, WindUp};
use super::World;
use crate::sim::boss::{fan_at, ring};
use crate::sim::config::Element;
use crate::sim::events::{BossPattern, Event, EventKind};
use crate::sim::ids::Id;
use crate::sim::pools::{Behaviour, NewProjectile, Owner};

/// A pattern's timer in `BossState::timers`.
const SPREAD: usize = 0;
const BARRAGE: usize = 1;
const BURST: usize = 2;
const ADDS: usize = 3;

impl World {
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

    /// The phase's patterns on their timers (each wound up, R-BOSS-3), the wind-ups that
    /// have run their course fired; adds and clones.
    fn boss_patterns(&mut self, b: usize, e: usize) {
        let (hz, kind) = (self.cfg.tick_hz, self.bosses.live[b].kind);
        let def = boss_def(&self.cfg.enemy_kinds[kind as usize]);
        let (phase, shot, wind_up) = (def.phases[self.bosses.live[b].phase], def.shot, ticks(def.telegraph, hz));
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
        // The wind-ups begun at earlier steps run down; those at 0 fire now, oldest first.
        let state = &mut self.bosses.live[b];
        let mut volleys: Vec<WindUp> = Vec::new();
        state.wind_ups.retain_mut(|w| {
            w.left -= 1;
            if w.left == 0 {
                volleys.push(*w);
            }
            w.left > 0
        });
        let winding = |pattern, angle, count, spread_degrees| WindUp {
            pattern,
            x,
            y,
            angle,
            count,
            spread_degrees,
            left: wind_up,
            ticks: wind_up,
        };
        let mut begun: Vec<WindUp> = Vec::new();
        if let Some(s) = phase.spread {
            if due(state, SPREAD, s.every) {
                let half_gap = std::f32::consts::PI / s.count as f32;
                begun.push(winding(BossPattern::Spread, half_gap * (state.volleys % 2) as f32, s.count, 0.0));
                state.volleys += 1;
            }
        }
        if let Some(s) = phase.barrage {
            if self.player.alive && due(state, BARRAGE, s.every) {
                let (dx, dy) = (self.player.x - x, self.player.y - y);
                let aim = if (dx * dx + dy * dy).sqrt() > 1e-6 { libm::atan2f(dy, dx) } else { 0.0 };
                begun.push(winding(BossPattern::Barrage, aim, s.shots, s.spread_degrees));
            }
        }
        if let Some(s) = phase.burst {
            if due(state, BURST, s.every) {
                begun.push(winding(BossPattern::Burst, 0.0, s.count, 0.0));
            }
        }
        let adds = phase.adds.filter(|a| due(state, ADDS, a.every));
        let clones = phase.clones.filter(|_| std::mem::take(&mut state.clones_due));
        state.wind_ups.extend_from_slice(&begun);
        for w in &begun {
            self.log.events.push(Event::new(
                EventKind::BossTelegraph,
                w.pattern as u8 as f32,
                kind as f32,
                x,
                y,
                w.angle,
            ));
        }
        for w in volleys {
            let directions: Vec<(f32, f32)> = match w.pattern {
                BossPattern::Barrage => fan_at(w.angle, w.count, w.spread_degrees).collect(),
                BossPattern::Spread | BossPattern::Burst => ring(w.count, w.angle).collect(),
            };
            for (ux, uy) in directions {
                self.boss_shot(
                    kind,
                    (w.x, w.y),
                    (ux, uy),
                    shot.speed,
                    shot.damage * damage,
                    shot.radius,
                    shot.lifetime,
                );
            }
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
            if elite {
                self.relics_on_elite_death(kind, (x, y));
            }
        }
    }
}
