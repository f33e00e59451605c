//! The spell VM in the world: casting the player's program on its timer,
//! turning emissions into projectiles, zones, blasts and summons, and the
//! behaviours spells give projectiles — triggers with payloads (on hit,
//! timer, expire; R-VM-4), explosions, chains, lifesteal, homing, sine
//! and orbit paths — plus zones and summons each frame (R-VM-5, R-VM-10).
//!
//! Payloads run through `Caster::run_free` (their trigger paid for them up
//! front, R-MANA-5); summons cast their own decks through
//! `Caster::cast_summon`, paying their share from the player's pool; the
//! main entry, `on_kill` and `on_hit` pay.

use super::World;
use crate::sim::combat::{final_damage_booted, Attack, Defence};
use crate::sim::config::{Element, ELEMENTS};
use crate::sim::events::{Event, EventKind};
use crate::sim::pools::{Behaviour, NewProjectile, Orbiting, Owner, Payload};
use crate::vm::exec::{CastOutput, Caster, Emission, Senses, VmEvent, ON_HIT, ON_KILL};
use crate::vm::program::Span;
use crate::vm::spell::{ActionDef, ActionKind, Orbit, Path, TriggerKind};
use crate::vm::Wand;

/// The wand and what casting it keeps between frames.
#[derive(Clone, Debug, Default)]
pub(super) struct Spellcasting {
    pub wand: Wand,
    /// Each spell's own element (a shot without an infusion uses it).
    pub elements: Vec<Option<Element>>,
    /// Recipes fused into the wand, reported at its first cast (R-RES-2).
    pub fusions_to_report: Vec<u16>,
    /// R-STAT-1: (CPU, cast speed, accuracy) for whatever wand is armed.
    pub stats: (u32, f32, f32),
    /// R-MOVE-3: the charge of the wand's charge spells.
    pub charge: Charge,
    /// R-MOVE-2: the dash-wave spell (spell, action, cooldown) and its timer.
    pub dash_wave: Option<(u16, ActionDef, f32)>,
    pub dash_wave_timer: f32,
    /// What the main cast, and a payload's, summon's or entry's, emitted (reused).
    pub out: CastOutput,
    pub out_payload: CastOutput,
    /// R-CORE-4: the memories of persistent_memory cores switched away from.
    pub remembered: Vec<Caster>,
    /// R-CORE-2: seconds until the `on_kill` entry may run again.
    pub on_kill_cooldown: f32,
}

/// A projectile's hit that its behaviour reacts to.
#[derive(Clone, Copy, Debug)]
pub(super) struct BehaviourHit {
    pub projectile: u32,
    pub enemy: u32,
    pub dealt: f32,
}

/// R-MOVE-3: standing still charges the wand's charge spells; the first
/// cast after moving again releases the overload; moving before full resets.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Charge {
    /// Seconds a full charge takes (from the wand's charge spell; 0: none).
    needed: f32,
    multiplier: f32,
    still: f32,
    /// 0 gone, 1 charging, 2 full, 3 released (the `ChargeStateChanged` a).
    state: u8,
    /// Moving again with a full charge: the next cast releases it.
    armed: bool,
}

/// Where and which way an emission goes.
#[derive(Clone, Copy, Debug)]
struct Aim {
    origin: (f32, f32),
    dir: (f32, f32),
    /// Zones and blasts land here.
    target: (f32, f32),
}

/// Cores a player can carry (R-CORE-3): how many persistent memories to keep.
const REMEMBERED_CORES: usize = 3;

impl World {
    /// Arms the player with a compiled program (R-VM-1). `elements[spell]`
    /// is each spell's own element (a shot without an infusion uses it).
    pub fn set_caster(&mut self, mut caster: Caster, elements: Vec<Option<Element>>) {
        if let Wand::Program(previous) = &self.spells.wand {
            // R-MANA-1: switching cores clamps mana into the new pool.
            caster.mana.current = previous.mana.current.clamp(0.0, caster.mana.max);
            // R-CORE-4: a persistent_memory core keeps its cursors, registers
            // and counters across core switches (a changed board starts over).
            if previous.persistent_memory {
                self.spells.remembered.retain(|c| c.program != previous.program);
                self.spells.remembered.push((**previous).clone());
                let keep = self.spells.remembered.len().saturating_sub(REMEMBERED_CORES);
                self.spells.remembered.drain(..keep);
            }
        }
        if caster.persistent_memory {
            if let Some(old) = self.spells.remembered.iter().find(|c| c.program == caster.program) {
                caster.cursors = old.cursors.clone();
                caster.registers = old.registers;
                caster.counters = old.counters.clone();
                caster.open = old.open.clone();
                caster.kills = old.kills;
            }
        }
        (caster.rules.cpu_stat, caster.rules.cast_speed, caster.rules.accuracy) = self.spells.stats;
        caster.rules.inversion = self.cfg.mutators.inversion; // R-END-3 mana inversion
        self.player.mana = caster.mana.current;
        self.player.mana_max = caster.mana.max;
        // The caster's pool regenerates now (the core's mana_regen, R-MANA-1);
        // the player's regen is only the R-STAT-1 bonus bought.
        self.player.mana_regen = self.player.bought.mana_regen_bonus;
        self.spells.charge = Charge::default();
        if let Some((needed, multiplier)) = caster.program.nodes.iter().find_map(|n| match n.op {
            crate::vm::program::Op::Fire(a) => a.charge,
            _ => None,
        }) {
            self.spells.charge.needed = needed;
            self.spells.charge.multiplier = multiplier;
        }
        self.spells.elements = elements;
        self.spells.fusions_to_report = caster.program.diagnostics.fused.clone();
        self.spells.wand = Wand::Program(Box::new(caster));
    }

    /// R-MOVE-2: a dash-wave core's extra spell, `(spell, action, cooldown)`.
    pub fn set_dash_wave(&mut self, dash_wave: Option<(u16, ActionDef, f32)>) {
        self.spells.dash_wave = dash_wave;
        self.spells.dash_wave_timer = 0.0;
    }

    /// R-MOVE-2: a dash casts the dash-wave spell along the dash, outside
    /// the main program and without mana, on its own cooldown.
    pub(super) fn dash_wave(&mut self) {
        let Some((spell, action, cooldown)) = self.spells.dash_wave else { return };
        if self.spells.dash_wave_timer > 0.0 || !matches!(self.spells.wand, Wand::Program(_)) {
            return;
        }
        self.spells.dash_wave_timer = cooldown;
        let origin = (self.player.x, self.player.y);
        let dir = (self.player.dash_dx, self.player.dash_dy);
        let emission = Emission { spell, action, shot: Default::default(), angle: 0.0, trigger: None, summon: None };
        let aim = Aim { origin, dir, target: (origin.0 + dir.0 * 64.0, origin.1 + dir.1 * 64.0) };
        self.emit(&emission, aim);
    }

    /// The wand stats last set: (CPU, cast speed, accuracy).
    pub fn wand_stats(&self) -> (u32, f32, f32) {
        self.spells.stats
    }

    /// R-STAT-1 stats the wand reads: CPU (more steps per cast, R-VM-8),
    /// cast speed (shorter delays, R-VM-11), accuracy (less spread).
    pub fn set_wand_stats(&mut self, cpu: u32, cast_speed: f32, accuracy: f32) {
        self.spells.stats = (cpu, cast_speed.clamp(0.0, 0.95), accuracy.clamp(0.0, 1.0));
        if let Wand::Program(caster) = &mut self.spells.wand {
            (caster.rules.cpu_stat, caster.rules.cast_speed, caster.rules.accuracy) = self.spells.stats;
        }
    }

    /// A wave starts: the program's mana fills, registers reset unless the
    /// core has persistent memory; summons and zones of the last wave go,
    /// and so does the ward (GAME_RULES §8: block → ward, it lasts the
    /// wave); the turn clock, strength and the relics' counters restart.
    pub fn begin_wave(&mut self) {
        if let Wand::Program(caster) = &mut self.spells.wand {
            caster.begin_wave();
            self.player.mana = caster.mana.current;
        }
        self.player.ward = 0.0;
        self.pools.zones = Default::default();
        self.pools.summons = Default::default();
        self.begin_relic_wave();
    }

    /// After a cast aimed at enemy `e`: if the projectiles it fired carry
    /// enough damage to kill it, it is claimed for their flight time (plus
    /// a tick), and auto-aim picks another target meanwhile — shots are not
    /// wasted on an enemy already as good as dead. Orbiting shots do not
    /// fly at it, so they count for nothing here.
    pub(super) fn claim(&mut self, e: usize) {
        let (mut damage, mut speed) = (0.0f32, f32::INFINITY);
        for em in &self.spells.out.emissions {
            let orbits = matches!(em.shot.path.unwrap_or(em.action.path), Path::Orbit(_));
            if em.action.kind == ActionKind::Projectile && em.trigger.is_none() && !orbits {
                damage += (em.action.damage + em.shot.damage_flat) * em.shot.damage_mult;
                speed = speed.min(em.action.speed * em.shot.speed_mult);
            }
        }
        let en = &self.pools.enemies;
        let armor = self.cfg.enemy_kinds[en.kind[e] as usize].armor;
        if speed <= 0.0 || !speed.is_finite() || damage - armor < en.hp[e] {
            return;
        }
        let (dx, dy) = (en.x[e] - self.player.x, en.y[e] - self.player.y);
        let distance = (dx * dx + dy * dy).sqrt();
        let frames = (distance / speed * self.cfg.tick_hz as f32).ceil() as u64 + 1;
        self.pools.enemies.claimed_until[e] = self.clock.frame + frames;
    }

    /// Step 4 for a program wand: the timer, the cast, the emissions.
    /// Returns whether anything was cast.
    pub(super) fn cast_program(&mut self, aim_point: Option<(f32, f32)>) -> bool {
        let Wand::Program(mut caster) = std::mem::replace(&mut self.spells.wand, Wand::Unarmed) else { return false };
        let mut out = std::mem::take(&mut self.spells.out);
        out.clear();
        self.update_charge();
        let mut senses = self.senses();
        // Mana granted by commands this frame went to the player's pool.
        caster.mana.current = self.player.mana.min(caster.mana.max);
        // bag_of_prep / centennial_puzzle: offered to this tick's cast, spent only if it casts.
        caster.bonus_budget = self.main_cast_budget();
        let cast = caster.tick(self.clock.dt, &mut senses, &mut out);
        caster.bonus_budget = 0;
        if cast {
            self.main_cast_done();
        }
        self.player.hp = senses.hp;
        if cast {
            for recipe in std::mem::take(&mut self.spells.fusions_to_report) {
                let (x, y) = (self.player.x, self.player.y);
                self.log.events.push(Event::new(EventKind::ResonanceFused, recipe as f32, 0.0, x, y, 0.0));
            }
        }
        let origin = (self.player.x, self.player.y);
        let target = aim_point.unwrap_or((origin.0 + self.player.face_x * 64.0, origin.1 + self.player.face_y * 64.0));
        let aim = Aim { origin, dir: unit(target.0 - origin.0, target.1 - origin.1), target };
        self.emit_all(&out, aim);
        self.report_vm_events(&out);
        self.player.mana = caster.mana.current;
        self.player.mana_max = caster.mana.max;
        let fired = cast && !out.emissions.is_empty();
        self.spells.out = out;
        self.spells.wand = Wand::Program(caster);
        fired
    }

    /// Step 4 for a program wand with nothing in reach (auto-aim): mana
    /// regenerates and the timer runs down; nothing is cast.
    pub(super) fn hold_program(&mut self) {
        let Wand::Program(caster) = &mut self.spells.wand else { return };
        caster.mana.current = self.player.mana.min(caster.mana.max);
        caster.hold(self.clock.dt);
        self.player.mana = caster.mana.current;
        self.player.mana_max = caster.mana.max;
        self.update_charge();
    }

    /// Step 4a (R-MOVE-3): the charge ring follows the player's stillness.
    fn update_charge(&mut self) {
        let c = &mut self.spells.charge;
        if c.needed <= 0.0 {
            return;
        }
        let before = c.state;
        if self.player.moving {
            if c.state == 2 {
                c.armed = true;
            }
            c.still = 0.0;
            c.state = 0;
        } else {
            c.still += self.clock.dt;
            if c.still >= c.needed {
                c.state = 2;
            } else if c.still >= self.cfg.vm.charge_ring_delay {
                c.state = 1;
            }
        }
        if c.state != before && !(c.armed && c.state == 0) {
            let (x, y, s, still) = (self.player.x, self.player.y, c.state, c.still);
            self.log.events.push(Event::new(EventKind::ChargeStateChanged, s as f32, 0.0, x, y, still));
        }
    }

    fn senses(&self) -> Senses {
        let p = &self.player;
        let nearest = self.nearest_enemy(p.x, p.y).map_or(f32::INFINITY, |e| {
            ((self.pools.enemies.x[e] - p.x).powi(2) + (self.pools.enemies.y[e] - p.y).powi(2)).sqrt()
        });
        Senses { hp: p.hp, hp_max: p.hp_max, moving: p.moving, nearest_enemy: nearest }
    }

    fn report_vm_events(&mut self, out: &CastOutput) {
        let (x, y) = (self.player.x, self.player.y);
        for e in &out.events {
            let event = match *e {
                VmEvent::CastFired { emissions } => Event::new(EventKind::CastFired, 0.0, 0.0, x, y, emissions as f32),
                VmEvent::CastAbandoned { node } => Event::new(EventKind::CastAbandoned, node as f32, 0.0, x, y, 0.0),
                VmEvent::CpuExhausted => Event::new(EventKind::CpuExhausted, 0.0, 0.0, x, y, 0.0),
                VmEvent::Trace { node, mana_before, mana_after } => {
                    Event::new(EventKind::Trace, node as f32, mana_before, x, y, mana_after)
                }
            };
            self.log.events.push(event);
        }
    }

    fn emit_all(&mut self, out: &CastOutput, aim: Aim) {
        for e in &out.emissions {
            self.emit(e, aim);
        }
    }

    /// One emission into the world (R-VM-10: the shot state shapes it).
    fn emit(&mut self, e: &Emission, aim: Aim) {
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
    fn blast(&mut self, at: (f32, f32), reach: f32, damage: f32, element: Element, lifesteal: f32) {
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
        self.heal_player(healed);
        self.log.events.push(Event::new(EventKind::Exploded, element as u8 as f32, reach, at.0, at.1, damage));
    }

    /// R-DMG-1 (in R-REL-2's order: strength, the_boot) for spell damage
    /// without a projectile (blasts and explosions), with R-DMG-2's element work as a projectile hit has it
    /// (attunement, wet reactions, the status roll) behind the same
    /// `elements.act` flag. Chain bolts are projectiles: `resolve_hits`.
    fn hit_enemy(&mut self, e: usize, base: f32, element: Element) -> f32 {
        let element = element as usize;
        let mult = if self.elements.act { self.element_multiplier(e, element) } else { 1.0 };
        let kind = &self.cfg.enemy_kinds[self.pools.enemies.kind[e] as usize];
        let boot_floor = self.relics.rules.damage_floor;
        let attack = Attack { base, flat: self.player.strength, mult, element, boot_floor };
        let taken = self.cfg.combat.taken(self.pools.enemies.vulnerable[e] > 0.0);
        let boss = kind.behavior.is_boss();
        let (resist, armor) = if boss { self.boss_defence(e, kind) } else { (kind.resist, kind.armor) };
        let defence = Defence { resist, armor, taken };
        let (amount, lifted) = final_damage_booted(&attack, &defence);
        self.relics.state.boot_lifts += lifted as u32;
        let dealt = self.damage_enemy(e, amount);
        if self.elements.act {
            self.element_hit(e, element);
        }
        if boss {
            self.boss_hit(e, element, dealt);
        }
        dealt
    }

    fn heal_player(&mut self, amount: f32) {
        if amount > 0.0 && self.player.alive {
            self.player.hp = (self.player.hp + amount).min(self.player.hp_max);
        }
    }

    /// Before projectiles move: homing turns them, sine paths wobble, orbit
    /// paths aim for their place on the ring around where the player is now
    /// (homing does not turn them off it), timer payloads count down (and
    /// fire where the carrier is, R-VM-4).
    pub(super) fn steer_projectiles(&mut self) {
        let vm = self.cfg.vm;
        for i in 0..self.pools.projectiles.len() {
            if !self.pools.projectiles.special[i] || self.pools.projectiles.dead[i] {
                continue;
            }
            let b = self.pools.projectiles.behaviour[i];
            let (x, y) = (self.pools.projectiles.x[i], self.pools.projectiles.y[i]);
            let (vx, vy) = (self.pools.projectiles.vx[i], self.pools.projectiles.vy[i]);
            let speed = (vx * vx + vy * vy).sqrt();
            if let Some(o) = b.orbit {
                // Where the ring puts it at the end of this tick: the move takes it there.
                let (ox, oy) = o.offset(b.age + self.clock.dt);
                self.pools.projectiles.vx[i] = self.player.x + ox - x;
                self.pools.projectiles.vy[i] = self.player.y + oy - y;
            } else if b.homing > 0.0 && speed > 0.0 {
                if let Some(e) = self.nearest_enemy(x, y) {
                    let (tx, ty) = (self.pools.enemies.x[e] - x, self.pools.enemies.y[e] - y);
                    if tx * tx + ty * ty < vm.homing_range * vm.homing_range {
                        let want = unit(tx, ty);
                        let cur = (vx / speed, vy / speed);
                        let turned = unit(cur.0 + (want.0 - cur.0) * b.homing, cur.1 + (want.1 - cur.1) * b.homing);
                        self.pools.projectiles.vx[i] = turned.0 * speed;
                        self.pools.projectiles.vy[i] = turned.1 * speed;
                    }
                }
            }
            let behaviour = &mut self.pools.projectiles.behaviour[i];
            if b.sine && speed > 0.0 {
                // Sideways velocity of A·sin(2πft): its derivative, per tick.
                let w = std::f32::consts::TAU * vm.sine_frequency;
                let side = vm.sine_amplitude * w * libm::cosf(w * b.age) * self.clock.dt;
                self.pools.projectiles.x[i] += -vy / speed * side;
                self.pools.projectiles.y[i] += vx / speed * side;
            }
            behaviour.age += self.clock.dt;
            if let Some(mut p) = b.payload {
                if p.kind == TriggerKind::Timer {
                    p.timer -= self.clock.dt;
                    if p.timer <= 0.0 {
                        self.pools.projectiles.behaviour[i].payload = None;
                        self.pools.projectiles.dead[i] = true;
                        self.fire_payload(p.span, (x, y), unit(vx, vy), i as u32);
                    } else {
                        self.pools.projectiles.behaviour[i].payload = Some(p);
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
            self.heal_player(h.dealt * b.lifesteal);
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
        self.pools.projectiles.remember(last, struck_id);
    }

    /// Projectiles that died this frame: on-expire payloads and explosions
    /// where they died (R-VM-4 `on_expire`).
    pub(super) fn behaviour_deaths(&mut self) {
        for i in 0..self.pools.projectiles.len() {
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

    /// Runs a payload (free) at `at`, heading `dir` (R-VM-4, R-MANA-5).
    fn fire_payload(&mut self, span: Span, at: (f32, f32), dir: (f32, f32), carrier: u32) {
        let Wand::Program(mut caster) = std::mem::replace(&mut self.spells.wand, Wand::Unarmed) else { return };
        let mut out = std::mem::take(&mut self.spells.out_payload);
        out.clear();
        let mut senses = self.senses();
        caster.run_free(span, &mut senses, &mut out);
        let look = self.pools.projectiles.look.get(carrier as usize).copied().unwrap_or(0);
        self.log.events.push(Event::new(
            EventKind::TriggerFired,
            look as f32,
            out.emissions.len() as f32,
            at.0,
            at.1,
            0.0,
        ));
        let aim = Aim { origin: at, dir, target: at };
        self.emit_all(&out, aim);
        self.spells.out_payload = out;
        self.spells.wand = Wand::Program(caster);
    }

    /// Zones (R-VM-10): pull and hurt enemies inside, heal the player inside.
    ///
    /// R-DMG-2: a zone's damage is over time, so its per-tick share gets the
    /// element's damage multiplier (attunement, wet × lightning) but is not
    /// a hit. A zone that hurts (dps > 0) instead strikes everyone inside
    /// once every `statuses.zone_status_interval` seconds — on the frame it
    /// lands, then every interval, counted in whole ticks so the rate is
    /// exact: that strike reports the reactions (electrified, dried) and
    /// rolls the element's status, so a poison pool at chance 1 adds one
    /// stack per interval to each enemy inside, not sixty a second. Each
    /// zone keeps its own count: an enemy in two zones is struck by both.
    pub(super) fn update_zones(&mut self) {
        let interval = (self.cfg.statuses.zone_status_interval / self.clock.dt).round().max(1.0) as u32;
        for z in 0..self.pools.zones.len() {
            let (zx, zy, r) = (self.pools.zones.x[z], self.pools.zones.y[z], self.pools.zones.radius[z]);
            let (pull, dps, heal, element) = (
                self.pools.zones.pull[z],
                self.pools.zones.dps[z],
                self.pools.zones.heal[z],
                self.pools.zones.element[z],
            );
            let element = element as usize % ELEMENTS;
            self.pools.zones.life[z] -= self.clock.dt;
            let strikes = self.pools.zones.status_in[z] == 0;
            self.pools.zones.status_in[z] = if strikes { interval - 1 } else { self.pools.zones.status_in[z] - 1 };
            let element_work = self.elements.act && dps > 0.0;
            for e in 0..self.pools.enemies.len() {
                let (dx, dy) = (zx - self.pools.enemies.x[e], zy - self.pools.enemies.y[e]);
                let d2 = dx * dx + dy * dy;
                if self.pools.enemies.dead[e] || d2 >= r * r {
                    continue;
                }
                if pull > 0.0 {
                    let d = d2.sqrt().max(1e-3);
                    let step = pull.min(d) / d;
                    self.pools.enemies.x[e] += dx * step;
                    self.pools.enemies.y[e] += dy * step;
                }
                if dps > 0.0 {
                    // Damage over time: resistance applies per tick; armor
                    // and the minimum of 1 are per hit, so not here.
                    let kind = &self.cfg.enemy_kinds[self.pools.enemies.kind[e] as usize];
                    let res = kind.resist[element];
                    let mult = match (element_work, strikes) {
                        (false, _) => 1.0,
                        (true, true) => self.element_multiplier(e, element),
                        (true, false) => self.element_damage_multiplier(e, element),
                    };
                    self.damage_enemy(e, dps * self.clock.dt * (1.0 - res) * mult);
                }
                if element_work && strikes {
                    self.element_hit(e, element);
                }
            }
            let (px, py) = (self.player.x, self.player.y);
            if heal > 0.0 && (px - zx).powi(2) + (py - zy).powi(2) < r * r {
                self.heal_player(heal * self.clock.dt);
            }
        }
        self.pools.zones.compact();
    }

    /// Summons (R-VM-5, R-MANA-5): each casts its own deck on its timer at
    /// the nearest enemy, paying its share from the player's pool.
    pub(super) fn update_summons(&mut self) {
        for s in 0..self.pools.summons.len() {
            self.pools.summons.life[s] -= self.clock.dt;
            self.pools.summons.timer[s] -= self.clock.dt;
            if self.pools.summons.timer[s] > 0.0 || self.pools.summons.life[s] <= 0.0 {
                continue;
            }
            self.pools.summons.timer[s] += self.pools.summons.period[s];
            let at = (self.pools.summons.x[s], self.pools.summons.y[s]);
            let Some(e) = self.nearest_enemy(at.0, at.1) else { continue };
            let target = (self.pools.enemies.x[e], self.pools.enemies.y[e]);
            let span = self.pools.summons.program[s];
            let Wand::Program(mut caster) = std::mem::replace(&mut self.spells.wand, Wand::Unarmed) else { return };
            let mut out = std::mem::take(&mut self.spells.out_payload);
            out.clear();
            let mut senses = self.senses();
            caster.mana.current = self.player.mana.min(caster.mana.max);
            let mut cursor = self.pools.summons.cursor[s];
            caster.cast_summon(span, &mut cursor, self.pools.summons.share[s], &mut senses, &mut out);
            self.pools.summons.cursor[s] = cursor;
            self.player.mana = caster.mana.current;
            self.player.hp = senses.hp;
            let aim = Aim { origin: at, dir: unit(target.0 - at.0, target.1 - at.1), target };
            self.emit_all(&out, aim);
            self.spells.out_payload = out;
            self.spells.wand = Wand::Program(caster);
        }
        self.pools.summons.compact();
    }

    /// Kills this frame feed Kill Combo (R-REG-2) and run the `on_kill`
    /// entry at the kill, at most once per interval (R-CORE-2).
    pub(super) fn program_kills(&mut self, kills: &[(f32, f32)]) {
        let Wand::Program(caster) = &mut self.spells.wand else { return };
        caster.kills += kills.len() as u32;
        self.spells.on_kill_cooldown = (self.spells.on_kill_cooldown - self.clock.dt).max(0.0);
        if caster.program.on_kill.is_none() {
            return;
        }
        let Some(&at) = kills.first() else { return };
        if self.spells.on_kill_cooldown > 0.0 {
            return;
        }
        self.spells.on_kill_cooldown = self.cfg.vm.on_kill_interval;
        self.run_entry(ON_KILL, at);
    }

    /// The `on_hit` entry: runs at the player when the player is hit.
    pub(super) fn program_player_hit(&mut self) {
        let Wand::Program(caster) = &self.spells.wand else { return };
        if caster.program.on_hit.is_none() {
            return;
        }
        let at = (self.player.x, self.player.y);
        self.run_entry(ON_HIT, at);
    }

    fn run_entry(&mut self, deck: usize, at: (f32, f32)) {
        let Wand::Program(mut caster) = std::mem::replace(&mut self.spells.wand, Wand::Unarmed) else { return };
        let mut out = std::mem::take(&mut self.spells.out_payload);
        out.clear();
        let mut senses = self.senses();
        caster.mana.current = self.player.mana.min(caster.mana.max);
        caster.run_entry(deck, &mut senses, &mut out);
        self.player.hp = senses.hp;
        self.player.mana = caster.mana.current;
        let target = self.nearest_enemy(at.0, at.1).map_or(at, |e| (self.pools.enemies.x[e], self.pools.enemies.y[e]));
        let aim = Aim { origin: at, dir: unit(target.0 - at.0, target.1 - at.1), target };
        self.emit_all(&out, aim);
        self.report_vm_events(&out);
        self.spells.out_payload = out;
        self.spells.wand = Wand::Program(caster);
    }
}

fn unit(x: f32, y: f32) -> (f32, f32) {
    let d = (x * x + y * y).sqrt();
    if d > 1e-6 {
        (x / d, y / d)
    } else {
        (1.0, 0.0)
    }
}
