//! Enemy behaviours beyond the chase (R-WAVE-2), each driven by its kind's
//! block of `enemies.json`, which its `Behavior` carries (sim/config.rs):
//!
//! - archer (`attack`): holds a distance band from the player, strafing a
//!   little, and shoots an aimed enemy projectile every `every` seconds
//!   (chilled: slower steps; frozen: no step, no shot — R-DMG-2);
//! - reflector (`shield`): a physical, non-piercing projectile striking it
//!   from inside its frontal arc comes back as an enemy projectile, and the
//!   reflector takes nothing (R-WAVE-1);
//! - exploder (`explode`): dying, it bursts — the player once, through the
//!   player's damage path, and other enemies through theirs (kills reward
//!   and can set off other exploders);
//! - splitter (`split`): dying, it leaves `count` children that never split;
//! - R-END-3 splitting monsters (`Mutators::split`): any other enemy but a boss, dying, leaves
//!   copies of itself at a share of its max HP, which never split.
//!
//! Hot loops stay lean: the shield is one tag test per hit in
//! `resolve_hits` (`Behavior::shield`; each accessor is one test, as the
//! `Option` it replaced was); the archer pass runs only if some kind shoots
//! and skips every other enemy on a byte; deaths queue only for kinds that
//! act on death and are handled here, in queue order (deterministic, R-DET-1).

use super::{unit, World};
use crate::sim::combat::{contact_damage, final_damage, Attack, Defence};
use crate::sim::config::{DeathBlast, Element, EnemyKind, MutatorSplit, Shield, Split};
use crate::sim::events::{Event, EventKind};
use crate::sim::ids::Id;
use crate::sim::movement::move_enemies;
use crate::sim::pools::{Behaviour, NewProjectile, Owner, HIT_MEMORY};

/// An archer's planned position this frame (before the separation push).
#[derive(Clone, Copy, Debug)]
pub(super) struct ArcherStep {
    pub enemy: u32,
    pub x: f32,
    pub y: f32,
}

/// The behaviours' part of the world: which behaviours the roster has at all (a pass or a
/// test runs only then: the stress workload has none), and the state a pass keeps between
/// its halves. A new behaviour adds its flag and state here and its pass to
/// `behaviours_before_move` / `behaviours_after_move`; mod.rs does not change.
#[derive(Clone, Debug, Default)]
pub(super) struct EnemyBehaviours {
    /// Some kind shoots (an `attack`): the archer pass runs at all.
    any_archers: bool,
    /// Some kind has a `shield`: hits look for one at all.
    pub any_shields: bool,
    archer_steps: Vec<ArcherStep>,
}

impl EnemyBehaviours {
    pub fn of(kinds: &[EnemyKind]) -> Self {
        EnemyBehaviours {
            any_archers: kinds.iter().any(|k| k.behavior.attack().is_some()),
            any_shields: kinds
                .iter()
                .any(|k| k.behavior.shield().is_some() || k.behavior.boss().is_some_and(|b| b.reflects())),
            archer_steps: Vec::new(),
        }
    }
}

impl World {
    /// Step 9: each behaviour's plan (archers shoot even where nothing walks,
    /// the training range), then chase + separation push, both from the
    /// start-of-frame snapshot, chilled enemies slowed and frozen ones still;
    /// then each behaviour's own step.
    pub(super) fn move_enemies(&mut self) {
        self.behaviours_before_move();
        if self.cfg.rules.enemies_still {
            return; // the training range's dummies
        }
        let s = &mut self.spatial;
        s.pushes.fit(self.pools.enemies.len());
        let slowed = self.elements.speeds(&self.pools.enemies, self.cfg.statuses.chill_slow, &mut s.speeds);
        let e = &mut self.pools.enemies;
        let speed = if slowed { &s.speeds[..] } else { &e.speed[..] };
        let (target, arena) = ((self.player.x, self.player.y), (self.cfg.arena_w, self.cfg.arena_h));
        let (x, y, push) = (&mut e.x[..], &mut e.y[..], (&s.pushes.x[..], &s.pushes.y[..]));
        let chase = |x: &mut [f32], y: &mut [f32], from: usize| {
            let to = from + x.len();
            move_enemies(x, y, &speed[from..to], &push.0[from..to], &push.1[from..to], target, arena);
        };
        // Each enemy's move is its own: the halves may run on two threads.
        let (n, half) = (x.len(), x.len() / 2);
        let ((x0, x1), (y0, y1)) = (x.split_at_mut(half), y.split_at_mut(half));
        let halves = [(x0, y0, 0), (x1, y1, half)];
        s.workers.share(n, halves.into_iter(), |(x, y, from)| chase(x, y, from));
        self.behaviours_after_move();
    }

    /// Step 9a, before the chase: each behaviour's plan from the start-of-frame positions
    /// (archers choose their step and shoot; they do even where nothing walks, the range).
    fn behaviours_before_move(&mut self) {
        self.archers();
    }

    /// Step 9c, after the chase moved everyone: each behaviour's own step (archers go
    /// where they planned).
    fn behaviours_after_move(&mut self) {
        self.place_archers();
    }

    /// Step 9a, before the chase: each archer plans its step within its
    /// band from the start-of-frame positions, and shoots when its cooldown
    /// is over and the player is within the shot's reach. R-DMG-2: chill
    /// shortens the step, freeze stops it and the shooting (the cooldown
    /// waits until the archer thaws).
    fn archers(&mut self) {
        self.behaviours.archer_steps.clear();
        if !self.behaviours.any_archers {
            return;
        }
        let (px, py) = (self.player.x, self.player.y);
        let target_alive = self.player.alive;
        for i in 0..self.pools.enemies.len() {
            let kind = self.pools.enemies.kind[i];
            let Some(a) = self.cfg.enemy_kinds[kind as usize].behavior.attack() else { continue };
            if self.pools.enemies.dead[i] {
                continue;
            }
            let (speed, frozen) = (
                self.elements.speed(&self.pools.enemies, i, self.cfg.statuses.chill_slow),
                self.elements.is_frozen(&self.pools.enemies, i),
            );
            let e = &mut self.pools.enemies;
            let (x, y) = (e.x[i], e.y[i]);
            let (dx, dy) = (px - x, py - y);
            let d = (dx * dx + dy * dy).sqrt();
            let to_player = if d > 1e-6 { (dx / d, dy / d) } else { (1.0, 0.0) };
            // Approach beyond the band, back off inside it, drift sideways
            // always (each archer its own way round, by its id).
            let radial = if d > a.max_distance {
                1.0
            } else if d < a.min_distance {
                -1.0
            } else {
                0.0
            };
            let side = if e.ids.ids()[i].slot.is_multiple_of(2) { 1.0 } else { -1.0 };
            let (mut mx, mut my) = (
                to_player.0 * radial - to_player.1 * side * a.strafe,
                to_player.1 * radial + to_player.0 * side * a.strafe,
            );
            let m = (mx * mx + my * my).sqrt();
            if m > 1.0 {
                (mx, my) = (mx / m, my / m);
            }
            // Never step past the player when closing in.
            let step = if radial > 0.0 { speed.min(d - a.max_distance) } else { speed };
            self.behaviours.archer_steps.push(ArcherStep { enemy: i as u32, x: x + mx * step, y: y + my * step });
            if frozen {
                continue;
            }

            e.cooldown[i] = (e.cooldown[i] - self.clock.dt).max(0.0);
            if e.cooldown[i] > 0.0 || !target_alive || d > a.speed * a.lifetime {
                continue;
            }
            e.cooldown[i] = a.every;
            let (vx, vy) = (to_player.0 * a.speed * self.clock.dt, to_player.1 * a.speed * self.clock.dt);
            self.pools.projectiles.push(NewProjectile {
                x,
                y,
                vx,
                vy,
                radius: a.radius,
                damage: a.damage,
                crit_chance: 0.0,
                element: Element::Physical,
                pierce: 0,
                bounces: 0,
                life: a.lifetime,
                owner: Owner::Enemy,
                look: kind,
                behaviour: Behaviour::default(),
            });
            self.log.events.push(Event::new(EventKind::ProjectileFired, kind as f32, 1.0, x, y, 1.0));
        }
    }

    /// Step 9c, after the chase moved everyone: archers go where they
    /// planned, plus their separation push, inside the arena.
    fn place_archers(&mut self) {
        let (aw, ah) = (self.cfg.arena_w, self.cfg.arena_h);
        for s in &self.behaviours.archer_steps {
            let i = s.enemy as usize;
            self.pools.enemies.x[i] = (s.x + self.spatial.pushes.x[i]).clamp(0.0, aw);
            self.pools.enemies.y[i] = (s.y + self.spatial.pushes.y[i]).clamp(0.0, ah);
        }
    }

    /// Step 6 (`resolve_hits`), a player projectile striking a shielded
    /// enemy: if the shot is physical, does not pierce, is not a chain and
    /// comes from inside the frontal arc (from where it was at the start of
    /// the frame), it is reflected and becomes an enemy projectile. Returns
    /// whether it was. Kept out of line: the hit loop stays small.
    #[cold]
    #[inline(never)]
    pub(super) fn reflect(&mut self, pi: usize, e: usize, shield: Shield) -> bool {
        let p = &self.pools.projectiles;
        let chain = p.special[pi] && p.behaviour[pi].chain_range > 0.0;
        if p.element[pi] != Element::Physical || p.hits_at_spawn[pi] > 1 || chain {
            return false;
        }
        let (ex, ey) = (self.pools.enemies.x[e], self.pools.enemies.y[e]);
        let facing = unit(self.player.x - ex, self.player.y - ey);
        let (vx, vy) = (p.vx[pi], p.vy[pi]);
        let from = (p.x[pi] - vx - ex, p.y[pi] - vy - ey);
        let from = if from.0 * from.0 + from.1 * from.1 > 1e-6 { unit(from.0, from.1) } else { unit(-vx, -vy) };
        if facing.0 * from.0 + facing.1 * from.1 < shield.min_cos() {
            return false;
        }
        // Mirrored off the shield's face (head-on: straight back).
        let vn = vx * facing.0 + vy * facing.1;
        let (rx, ry) = if vn < 0.0 { (vx - 2.0 * vn * facing.0, vy - 2.0 * vn * facing.1) } else { (vx, vy) };
        let kind = self.pools.enemies.kind[e];
        let p = &mut self.pools.projectiles;
        p.vx[pi] = rx;
        p.vy[pi] = ry;
        p.owner[pi] = Owner::Enemy;
        p.damage[pi] *= shield.reflect_damage;
        p.crit_chance[pi] = 0.0;
        p.look[pi] = kind;
        p.bounces[pi] = 0;
        p.hits_left[pi] = 1;
        p.hits_at_spawn[pi] = 1;
        p.memory[pi] = [Id::NONE; HIT_MEMORY];
        // The shield swallows what the spell carried (payloads, blasts…).
        p.behaviour[pi] = Behaviour::default();
        p.special[pi] = false;
        let (x, y) = (p.x[pi], p.y[pi]);
        self.log.events.push(Event::new(EventKind::ProjectileFired, kind as f32, 1.0, x, y, 1.0));
        true
    }

    /// Deaths of kinds that act on death, in the order they died; blasts
    /// may kill more, which join the queue and go off in turn.
    pub(super) fn enemy_deaths(&mut self) {
        let mut next = 0;
        while next < self.log.dying.len() {
            let e = self.log.dying[next] as usize;
            next += 1;
            let k = &self.cfg.enemy_kinds[self.pools.enemies.kind[e] as usize];
            let (explode, split, boss) = (k.behavior.explode(), k.behavior.split(), k.behavior.is_boss());
            if let Some(b) = explode {
                self.death_blast(e, b);
            }
            let offspring = self.pools.enemies.offspring[e];
            if let Some(s) = split {
                if !offspring {
                    self.split(e, s);
                }
            } else if let Some(m) = self.cfg.mutators.split {
                if !offspring && !boss {
                    self.mutator_split(e, m);
                }
            }
        }
        self.log.dying.clear();
    }

    /// An exploder's burst where it died: the player once (ward, armor and
    /// invulnerability as any hit), then every other live enemy whose
    /// centre is within the radius (R-DMG-1 with its defences).
    fn death_blast(&mut self, e: usize, b: DeathBlast) {
        let (x, y) = (self.pools.enemies.x[e], self.pools.enemies.y[e]);
        let kind = self.pools.enemies.kind[e];
        let weak = self.cfg.combat.dealt(self.pools.enemies.weak[e] > 0.0);
        let r2 = b.radius * b.radius;
        self.log.events.push(Event::new(EventKind::Exploded, b.element as u8 as f32, b.radius, x, y, b.damage));
        let p = &self.player;
        let in_reach = (p.x - x).powi(2) + (p.y - y).powi(2) < r2;
        if in_reach && p.alive && p.invulnerable <= 0.0 && !self.cfg.rules.player_invulnerable {
            self.hurt_player(contact_damage(b.damage, weak, self.player.armor), kind as f32);
        }
        let attack = Attack { base: b.damage, flat: 0.0, mult: weak, element: b.element as usize, boot_floor: 0.0 };
        for o in 0..self.pools.enemies.len() {
            let en = &self.pools.enemies;
            if o == e || en.dead[o] || (en.x[o] - x).powi(2) + (en.y[o] - y).powi(2) >= r2 {
                continue;
            }
            let k = &self.cfg.enemy_kinds[en.kind[o] as usize];
            let (resist, armor) = if k.behavior.is_boss() { self.boss_defence(o, k) } else { (k.resist, k.armor) };
            let defence = Defence { resist, armor, taken: self.cfg.combat.taken(en.vulnerable[o] > 0.0) };
            self.damage_enemy(o, final_damage(&attack, &defence));
        }
    }

    /// A splitter's children, evenly round where it died.
    fn split(&mut self, e: usize, s: Split) {
        let (x, y, elite) = (self.pools.enemies.x[e], self.pools.enemies.y[e], self.pools.enemies.elite[e]);
        for c in 0..s.count {
            let angle = std::f32::consts::TAU * c as f32 / s.count as f32;
            let (cx, cy) = (x + s.spread * libm::cosf(angle), y + s.spread * libm::sinf(angle));
            // Kinds were checked with the config.
            let _ = self.spawn(s.into, elite, cx, cy, true);
        }
    }

    /// R-END-3 splitting monsters: copies of the dying enemy, evenly round where it died, each at
    /// the mutator's share of its max HP; born of a split, they never split again.
    fn mutator_split(&mut self, e: usize, m: MutatorSplit) {
        let en = &self.pools.enemies;
        let (x, y, elite, kind, hp) = (en.x[e], en.y[e], en.elite[e], en.kind[e], en.hp_max[e] * m.hp);
        for c in 0..m.count {
            let angle = std::f32::consts::TAU * c as f32 / m.count as f32;
            let (cx, cy) = (x + m.spread * libm::cosf(angle), y + m.spread * libm::sinf(angle));
            // Its kind spawned it once: it spawns again.
            if self.spawn(kind, elite, cx, cy, true).is_ok() {
                let child = self.pools.enemies.len() - 1;
                (self.pools.enemies.hp[child], self.pools.enemies.hp_max[child]) = (hp, hp);
            }
        }
    }
}
