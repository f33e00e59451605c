//! What spells make their shots do (R-VM-4, R-VM-10): step 5 steers them
//! (homing, sine, orbit; timer payloads count down) and moves every shot;
//! after the hits, each struck enemy gets the shot's lifesteal, knockback,
//! explosion, chain and on-hit payload; shots that died go off (on-expire
//! payloads, explosions at the end of their life).

use super::{unit, World};
use crate::sim::config::VmParams;
use crate::sim::movement::move_projectiles;
use crate::sim::pools::{Behaviour, NewProjectile, Owner, Projectiles};
use crate::sim::scan::{any_where, runs, FLAG_RUN};
use crate::vm::spell::TriggerKind;

/// A projectile's hit that its behaviour reacts to.
#[derive(Clone, Copy, Debug)]
pub(super) struct BehaviourHit {
    pub projectile: u32,
    pub enemy: u32,
    pub dealt: f32,
}

/// Step 5: every shot moves — straight, as steered; off a wall it bounces
/// if it has bounces left, else vanishes (an orbiting shot passes over);
/// lifetimes run down.
pub(super) fn move_shots(p: &mut Projectiles, dt: f32, arena: (f32, f32)) {
    let (special, behaviour) = (&p.special, &p.behaviour);
    move_projectiles(
        &mut p.x,
        &mut p.y,
        &mut p.vx,
        &mut p.vy,
        &mut p.bounces,
        &mut p.life,
        &mut p.dead,
        dt,
        arena,
        |i| !special[i] || behaviour[i].orbit.is_none(),
    );
}

impl World {
    /// Before projectiles move: homing turns them, sine paths wobble, orbit
    /// paths aim for their place on the ring around where the player is now
    /// (homing does not turn them off it), timer payloads count down (and
    /// fire where the carrier is, R-VM-4).
    pub(super) fn steer_projectiles(&mut self) {
        let vm = self.cfg.vm;
        let n = self.pools.projectiles.len();
        // Most shots are plain (every one of the stress workload's): a run of
        // them is passed on one test. (Shots fired here join past `n`.)
        for run in runs(n, FLAG_RUN) {
            if !any_where(&self.pools.projectiles.special[run.clone()], |&s| s) {
                continue;
            }
            self.steer_run(vm, run);
        }
    }

    /// `steer_projectiles` over the shots `run`.
    fn steer_run(&mut self, vm: VmParams, run: std::ops::Range<usize>) {
        let dt = self.clock.dt;
        for i in run {
            let p = &mut self.pools.projectiles;
            if !p.special[i] || p.dead[i] {
                continue;
            }
            // The behaviour as the tick begins: the ring, the sine and the timer all read its
            // age before this tick adds to it.
            let before = p.behaviour[i];
            let (x, y, vx, vy) = (p.x[i], p.y[i], p.vx[i], p.vy[i]);
            let speed = (vx * vx + vy * vy).sqrt();
            if let Some(o) = before.orbit {
                // Where the ring puts it at the end of this tick: the move takes it there.
                let (ox, oy) = o.offset(before.age + dt);
                p.vx[i] = self.player.x + ox - x;
                p.vy[i] = self.player.y + oy - y;
            } else if before.homing > 0.0 && speed > 0.0 {
                if let Some(e) = self.pools.enemies.nearest(x, y) {
                    let (tx, ty) = (self.pools.enemies.x[e] - x, self.pools.enemies.y[e] - y);
                    if tx * tx + ty * ty < vm.homing_range * vm.homing_range {
                        let want = unit(tx, ty);
                        let cur = (vx / speed, vy / speed);
                        let (h, p) = (before.homing, &mut self.pools.projectiles);
                        let turned = unit(cur.0 + (want.0 - cur.0) * h, cur.1 + (want.1 - cur.1) * h);
                        p.vx[i] = turned.0 * speed;
                        p.vy[i] = turned.1 * speed;
                    }
                }
            }
            let p = &mut self.pools.projectiles;
            if before.sine && speed > 0.0 {
                // Sideways velocity of A·sin(2πft): its derivative, per tick.
                let w = std::f32::consts::TAU * vm.sine_frequency;
                let side = vm.sine_amplitude * w * libm::cosf(w * before.age) * dt;
                p.x[i] += -vy / speed * side;
                p.y[i] += vx / speed * side;
            }
            p.behaviour[i].age += dt;
            if let Some(mut payload) = before.payload {
                if payload.kind == TriggerKind::Timer {
                    payload.timer -= dt;
                    if payload.timer <= 0.0 {
                        p.behaviour[i].payload = None;
                        p.dead[i] = true;
                        self.fire_payload(payload.span, (x, y), unit(vx, vy), i as u32);
                    } else {
                        p.behaviour[i].payload = Some(payload);
                    }
                }
            }
        }
    }

    /// After hits: lifesteal, explosions, chains and on-hit payloads.
    pub(super) fn behaviour_hits(&mut self) {
        let hits = std::mem::take(&mut self.log.behaviour_hits);
        for h in &hits {
            let (i, e) = (h.projectile as usize, h.enemy as usize);
            let b = self.pools.projectiles.behaviour[i];
            let at = (self.pools.enemies.x[e], self.pools.enemies.y[e]);
            let element = self.pools.projectiles.element[i];
            self.player.heal(h.dealt * b.lifesteal);
            if b.knockback > 0.0 {
                let (dx, dy) = unit(self.pools.projectiles.vx[i], self.pools.projectiles.vy[i]);
                let (aw, ah) = (self.cfg.arena_w, self.cfg.arena_h);
                self.pools.enemies.x[e] = (self.pools.enemies.x[e] + dx * b.knockback).clamp(0.0, aw);
                self.pools.enemies.y[e] = (self.pools.enemies.y[e] + dy * b.knockback).clamp(0.0, ah);
            }
            if b.explode_radius > 0.0 {
                self.blast(at, b.explode_radius, self.pools.projectiles.damage[i], element, b.lifesteal);
            }
            if b.chain > 0 {
                self.chain_from(i, e);
            }
            if let Some(p) = b.payload {
                if p.kind == TriggerKind::OnHit {
                    self.pools.projectiles.behaviour[i].payload = None;
                    let dir = unit(self.pools.projectiles.vx[i], self.pools.projectiles.vy[i]);
                    self.fire_payload(p.span, at, dir, i as u32);
                }
            }
        }
        self.log.behaviour_hits = hits;
        self.log.behaviour_hits.clear();
    }

    /// Chain lightning: a new bolt from the struck enemy to the nearest
    /// other enemy within range, one jump fewer, remembering the struck.
    fn chain_from(&mut self, i: usize, struck: usize) {
        let b = self.pools.projectiles.behaviour[i];
        let (x, y) = (self.pools.enemies.x[struck], self.pools.enemies.y[struck]);
        let mut best = (b.chain_range * b.chain_range, None);
        for e in 0..self.pools.enemies.len() {
            if e == struck || self.pools.enemies.dead[e] {
                continue;
            }
            let d2 = (self.pools.enemies.x[e] - x).powi(2) + (self.pools.enemies.y[e] - y).powi(2);
            if d2 < best.0 {
                best = (d2, Some(e));
            }
        }
        let Some(next) = best.1 else { return };
        let p = &self.pools.projectiles;
        let speed = (p.vx[i] * p.vx[i] + p.vy[i] * p.vy[i]).sqrt().max(1.0);
        let dir = unit(self.pools.enemies.x[next] - x, self.pools.enemies.y[next] - y);
        let reach_ticks = (best.0.sqrt() / speed).ceil() + 2.0;
        // A chain bolt flies straight at its next enemy, whatever path the first shot took.
        let behaviour = Behaviour { chain: b.chain - 1, payload: None, orbit: None, age: 0.0, ..b };
        let struck_id = self.pools.enemies.ids.ids()[struck];
        let (radius, damage, crit, element, look) =
            (p.radius[i], p.damage[i], p.crit_chance[i], p.element[i], p.look[i]);
        self.pools.projectiles.push(NewProjectile {
            x,
            y,
            vx: dir.0 * speed,
            vy: dir.1 * speed,
            radius,
            damage,
            crit_chance: crit,
            element,
            pierce: 0,
            bounces: 0,
            life: reach_ticks * self.clock.dt,
            owner: Owner::Player,
            look,
            behaviour,
        });
        let last = self.pools.projectiles.len() - 1;
        self.pools.remember(last, struck_id);
    }

    /// Projectiles that died this frame: on-expire payloads and explosions
    /// where they died (R-VM-4 `on_expire`).
    pub(super) fn behaviour_deaths(&mut self) {
        // Most runs of shots hold no special shot that died (the stress workload's none): a run is
        // passed on one test, not walked (at 2M shots the walk was half of `fight`'s own time).
        // (Shots a payload fires here join past `n`.)
        let n = self.pools.projectiles.len();
        for run in runs(n, FLAG_RUN) {
            let p = &self.pools.projectiles;
            if any_where(p.dead[run.clone()].iter().zip(&p.special[run.clone()]), |(&d, &s)| d & s) {
                self.deaths_in_run(run);
            }
        }
    }

    /// `behaviour_deaths` over the shots `run`.
    fn deaths_in_run(&mut self, run: std::ops::Range<usize>) {
        for i in run {
            if !self.pools.projectiles.dead[i] || !self.pools.projectiles.special[i] {
                continue;
            }
            let b = self.pools.projectiles.behaviour[i];
            let at = (self.pools.projectiles.x[i], self.pools.projectiles.y[i]);
            if let Some(p) = b.payload {
                // A timer whose carrier dies first goes off where it died.
                if matches!(p.kind, TriggerKind::OnExpire | TriggerKind::Timer) {
                    self.pools.projectiles.behaviour[i].payload = None;
                    let dir = unit(self.pools.projectiles.vx[i], self.pools.projectiles.vy[i]);
                    self.fire_payload(p.span, at, dir, i as u32);
                }
            }
            if b.explode_radius > 0.0 && self.pools.projectiles.life[i] <= 0.0 {
                self.pools.projectiles.behaviour[i].explode_radius = 0.0;
                let element = self.pools.projectiles.element[i];
                self.blast(at, b.explode_radius, self.pools.projectiles.damage[i], element, b.lifesteal);
            }
        }
    }
}
