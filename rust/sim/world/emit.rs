//! A cast's emissions into the world (R-VM-10: the shot state shapes each):
//! projectiles (with the behaviours their spells give them, shots.rs),
//! blasts, zones and summons; the blasts' and explosions' damage.

use super::World;
use crate::sim::config::Element;
use crate::sim::events::{Event, EventKind};
use crate::sim::pools::{Behaviour, NewProjectile, Orbiting, Owner, Payload};
use crate::vm::exec::{CastOutput, Emission};
use crate::vm::spell::{ActionKind, Orbit, Path};

/// Where and which way an emission goes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Aim {
    pub origin: (f32, f32),
    pub dir: (f32, f32),
    /// Zones and blasts land here.
    pub target: (f32, f32),
}

impl World {
    pub(super) fn emit_all(&mut self, out: &CastOutput, aim: Aim) {
        for e in &out.emissions {
            self.emit(e, aim);
        }
    }

    /// One emission into the world (R-VM-10: the shot state shapes it).
    pub(super) fn emit(&mut self, e: &Emission, aim: Aim) {
        let a = &e.action;
        let s = &e.shot;
        let (c, sn) = (e.angle.cos(), e.angle.sin());
        let dir = (aim.dir.0 * c - aim.dir.1 * sn, aim.dir.0 * sn + aim.dir.1 * c);
        let element =
            s.element.or(self.spells.elements.get(e.spell as usize).copied().flatten()).unwrap_or(Element::Physical);
        let mut damage = (a.damage + s.damage_flat) * s.damage_mult;
        if self.player.moving {
            damage *= a.moving_multiplier; // R-MOVE-1
        }
        if a.charge.is_some() && self.spells.charge.armed {
            // R-MOVE-3: the overload version of a charge spell.
            damage *= self.spells.charge.multiplier;
            self.spells.charge.armed = false;
            let (x, y) = aim.origin;
            self.log.events.push(Event::new(EventKind::ChargeStateChanged, 3.0, 0.0, x, y, 0.0));
        }
        if matches!(a.kind, ActionKind::Projectile | ActionKind::Blast) {
            // R-REL-2: akabeko and pen_nib on the fired ACTION (sim/relics.rs).
            damage = self.fired_action(damage, aim.origin);
        }
        let radius = a.radius * s.size_mult;
        let look = e.spell;
        match a.kind {
            ActionKind::Projectile => {
                let speed = a.speed * s.speed_mult;
                let path = s.path.unwrap_or(a.path);
                let behaviour = Behaviour {
                    payload: e.trigger.map(|(kind, delay, span)| Payload { kind, timer: delay, span }),
                    explode_radius: a.explode_radius * s.size_mult,
                    chain: a.chain as u16,
                    chain_range: a.chain_range,
                    lifesteal: s.lifesteal,
                    knockback: s.knockback * self.cfg.vm.knockback_seconds,
                    homing: (a.homing + s.homing).min(1.0),
                    sine: path == Path::Sine,
                    orbit: match path {
                        Path::Orbit(ring) => Some(self.orbiting(ring, aim.origin, dir, speed)),
                        _ => None,
                    },
                    age: 0.0,
                };
                self.pools.projectiles.push(NewProjectile {
                    x: aim.origin.0,
                    y: aim.origin.1,
                    vx: dir.0 * speed * self.clock.dt,
                    vy: dir.1 * speed * self.clock.dt,
                    radius,
                    damage,
                    crit_chance: self.player.crit_chance + s.crit,
                    element,
                    pierce: a.pierce.saturating_add(s.pierce),
                    bounces: a.bounces.saturating_add(s.bounce),
                    life: (a.lifetime + s.lifetime_add).max(self.clock.dt),
                    owner: Owner::Player,
                    look,
                    behaviour,
                });
                let (x, y) = aim.origin;
                self.log.events.push(Event::new(EventKind::ProjectileFired, look as f32, 0.0, x, y, 1.0));
            }
            ActionKind::Blast => {
                let reach = radius.max(a.explode_radius * s.size_mult);
                self.blast(aim.target, reach, damage, element, s.lifesteal);
            }
            ActionKind::Zone => {
                let (x, y) = aim.target;
                let z = &mut self.pools.zones;
                z.push(
                    x,
                    y,
                    radius,
                    a.lifetime + s.lifetime_add,
                    a.zone_pull * self.clock.dt,
                    a.zone_heal,
                    a.zone_dps,
                    element,
                    look,
                );
            }
            ActionKind::Summon => {
                let program = e.summon.unwrap_or_default();
                let (x, y) = aim.origin;
                let period = a.summon_period.max(self.cfg.vm.cast_delay_floor);
                self.pools.summons.push(x, y, a.lifetime + s.lifetime_add, period, program, a.summon_cost_share, look);
                self.log.events.push(Event::new(EventKind::SummonSpawned, look as f32, 0.0, x, y, 0.0));
            }
        }
    }

    /// R-VM-10 orbit: a shot fired from `origin` heading `dir` at `speed`
    /// px/s sets out around the player from where it is — a shot fired at
    /// the player from its heading — and closes on the ring at its speed.
    fn orbiting(&self, ring: Orbit, origin: (f32, f32), dir: (f32, f32), speed: f32) -> Orbiting {
        let (dx, dy) = (origin.0 - self.player.x, origin.1 - self.player.y);
        let distance = (dx * dx + dy * dy).sqrt();
        let start_angle = if distance > 1e-3 { libm::atan2f(dy, dx) } else { libm::atan2f(dir.1, dir.0) };
        Orbiting {
            radius: ring.radius,
            angular_speed: ring.degrees_per_second.to_radians(),
            speed,
            start_angle,
            start_distance: distance,
        }
    }

    /// Damage to every enemy within `reach` of `at` (explosions, blasts).
    pub(super) fn blast(&mut self, at: (f32, f32), reach: f32, damage: f32, element: Element, lifesteal: f32) {
        let r2 = reach * reach;
        let mut healed = 0.0;
        for e in 0..self.pools.enemies.len() {
            let (dx, dy) = (self.pools.enemies.x[e] - at.0, self.pools.enemies.y[e] - at.1);
            if self.pools.enemies.dead[e] || dx * dx + dy * dy >= r2 {
                continue;
            }
            let dealt = self.hit_enemy(e, damage, element);
            healed += dealt * lifesteal;
        }
        self.player.heal(healed);
        self.log.events.push(Event::new(EventKind::Exploded, element as u8 as f32, reach, at.0, at.1, damage));
    }

    /// R-DMG-1 (in R-REL-2's order: strength, the_boot) for spell damage
    /// without a projectile (blasts and explosions), with R-DMG-2's element work as a projectile hit has it
    /// (attunement, wet reactions, the status roll) behind the same
    /// `elements.act` flag. Chain bolts are projectiles: `resolve_hits`.
    fn hit_enemy(&mut self, e: usize, base: f32, element: Element) -> f32 {
        let element = element as usize;
        let mult = if self.elements.act { self.element_multiplier(e, element) } else { 1.0 };
        let (amount, boss) = self.hit_damage(e, base, mult, element);
        self.land_hit(e, amount, element, boss)
    }
}
