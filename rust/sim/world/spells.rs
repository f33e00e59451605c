//! The wand in the world (`Spellcasting`): step 4 casts the player's
//! program on its timer at the aim point or auto-aim's target; the dash
//! wave (R-MOVE-2) and the charge (R-MOVE-3); payloads, the `on_kill` and
//! `on_hit` entries; wand stats and persistent memories (R-CORE-4). What a
//! cast emits goes into the world in emit.rs; what spells make their shots
//! do, in shots.rs; zones and summons, in zones.rs.
//!
//! Payloads run through `Caster::run_free` (their trigger paid for them up
//! front, R-MANA-5); summons cast their own decks through
//! `Caster::cast_summon`, paying their share from the player's pool; the
//! main entry, `on_kill` and `on_hit` pay.

use super::emit::Aim;
use super::{unit, World};
use crate::sim::config::Element;
use crate::sim::events::{Event, EventKind};
use crate::sim::hash::StateHasher;
use crate::sim::player::Controls;
use crate::sim::pools::Enemies;
use crate::vm::exec::{CastOutput, Caster, Emission, Senses, VmEvent, ON_HIT, ON_KILL};
use crate::vm::program::Drawn;
use crate::vm::spell::{ActionDef, ActionKind, Path};
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
    /// R-MANA-1: the armed core's own `mana_max` (the pool's max is this plus the max mana bought).
    pub core_mana_max: f32,
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

/// R-MOVE-3: standing still charges the wand's charge spells; the first
/// cast after moving again releases the overload; moving before full resets.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Charge {
    /// Seconds a full charge takes (from the wand's charge spell; 0: none).
    pub needed: f32,
    pub multiplier: f32,
    pub still: f32,
    /// 0 gone, 1 charging, 2 full, 3 released (the `ChargeStateChanged` a).
    pub state: u8,
    /// Moving again with a full charge: the next cast releases it.
    pub armed: bool,
}

/// Cores a player can carry (R-CORE-3): how many persistent memories to keep.
const REMEMBERED_CORES: usize = 3;

impl World {
    /// Arms the player with a compiled program (R-VM-1). `elements[spell]`
    /// is each spell's own element (a shot without an infusion uses it).
    pub fn set_caster(&mut self, mut caster: Caster, elements: Vec<Option<Element>>) {
        // R-STAT-1 max mana: the core's pool plus the max mana bought (a new pool starts full).
        self.spells.core_mana_max = caster.mana.max;
        let full = caster.mana.current >= caster.mana.max;
        caster.mana.max += self.player.bought.mana_max_bonus;
        if full {
            caster.mana.current = caster.mana.max;
        }
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

    /// The armed wand (R-STAT-2: what the stats make of it is read from its caster).
    pub fn wand(&self) -> &Wand {
        &self.spells.wand
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

    /// Step 4: the wand casts at the aim point, or (auto-aim) at the nearest
    /// enemy in reach that no shot in flight will already kill, holding its
    /// fire and its mana otherwise.
    pub(super) fn cast(&mut self, controls: &Controls) {
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
            target = auto_aim_target(&self.pools.enemies, origin, self.cfg.player.auto_aim_range, self.clock.frame);
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

    /// After a cast aimed at enemy `e`: if the projectiles it fired carry
    /// enough damage to kill it, it is claimed for their flight time (plus
    /// a tick), and auto-aim picks another target meanwhile — shots are not
    /// wasted on an enemy already as good as dead. Orbiting shots do not
    /// fly at it, so they count for nothing here.
    fn claim(&mut self, e: usize) {
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
    fn cast_program(&mut self, aim_point: Option<(f32, f32)>) -> bool {
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
    fn hold_program(&mut self) {
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

    pub(super) fn senses(&self) -> Senses {
        let p = &self.player;
        let nearest = self.pools.enemies.nearest(p.x, p.y).map_or(f32::INFINITY, |e| {
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

    /// Runs a payload (free) at `at`, heading `dir` (R-VM-4, R-MANA-5).
    pub(super) fn fire_payload(&mut self, span: Drawn, at: (f32, f32), dir: (f32, f32), carrier: u32) {
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

    /// After the deaths act: this frame's kills feed Kill Combo (R-REG-2) and
    /// run the `on_kill` entry at the first kill, at most once per interval
    /// (R-CORE-2); the frame's list of kills is emptied (what the entry's own
    /// spells kill at once goes with it: Kill Combo does not count it).
    pub(super) fn program_kills(&mut self) {
        let kills = std::mem::take(&mut self.log.kills);
        self.feed_kills(&kills);
        self.log.kills = kills;
        self.log.kills.clear();
    }

    fn feed_kills(&mut self, kills: &[(f32, f32)]) {
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
        let target =
            self.pools.enemies.nearest(at.0, at.1).map_or(at, |e| (self.pools.enemies.x[e], self.pools.enemies.y[e]));
        let aim = Aim { origin: at, dir: unit(target.0 - at.0, target.1 - at.1), target };
        self.emit_all(&out, aim);
        self.report_vm_events(&out);
        self.spells.out_payload = out;
        self.spells.wand = Wand::Program(caster);
    }
}

impl Spellcasting {
    /// The wand's section of the state hash: its timer; a program's mana, kills and memory.
    pub fn hash_into(&self, h: &mut StateHasher) {
        h.section("wand");
        h.f32(self.wand.timer());
        if let Wand::Program(c) = &self.wand {
            h.f32(c.mana.current);
            h.u64(c.kills as u64);
            h.u32s(c.cursors.iter().copied());
            h.u32s(c.registers.iter().map(|&r| r as u32));
            h.u32s(c.counters.iter().copied());
            h.u32s(c.open.iter().map(|&o| o as u32));
        }
    }
}

/// Auto-aim (R-LOOP-2): the nearest enemy within `auto_aim_range` that
/// no shot in flight is expected to kill. None when there is none (the
/// wand holds its fire and its mana until a shot lands or misses).
fn auto_aim_target(e: &Enemies, (x, y): (f32, f32), reach: f32, frame: u64) -> Option<usize> {
    let mut best = (reach * reach, None);
    for i in 0..e.len() {
        if e.dead[i] || e.claimed_until[i] > frame {
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
