//! Executing a compiled wand (R-VM-3 … R-VM-12, R-REG-*, R-MANA-*): the
//! `Caster` (a wand's running state), its public types, and the main cast.
//!
//! A core's program is a deck (R-VM-3, Noita's): each cast draws from the
//! deck's cursor with a root budget of the core's spells per cast and leaves
//! the cursor after the last node it ran, so the next cast fires the next
//! cards. The cast that reaches the end wraps: the cursor goes home and the
//! wand waits the longer of its delay and its recharge (R-VM-11); the draws
//! a card asked for (`Draw::asked`: a multicast's, a modifier's, a payload's)
//! draw on from the head up to where the cast began, the root budget does
//! not. Always-cast cards (R-VM-13) go ahead of every main cast, free. Every
//! deck has its own cursor: the main entry,
//! dual_stream's reverse stream, `on_kill`, `on_hit`, each splitter route;
//! a summon keeps its own (the world holds it). A program core (R-VM-3b)
//! restarts every cast at the head instead.
//!
//! A draw is a loop over node indices with an explicit step budget
//! (R-VM-8); splitter routes wait on an explicit list, loops on a
//! per-draw stack; nothing recurses. Every payment goes through
//! `Mana::spend`: the main cast at its sustained-fire surcharge, entries at
//! cost, a summon's casts at its share; a trigger pays for its payload up
//! front, so payloads run free (R-MANA-5).
//!
//! One file per instruction family (wasmi's executor): `draw` (the node loop,
//! cursors, splitter routes, dispatch), `shot` (MODIFIER, MULTICAST, emit),
//! `actions` (FIRE, SUMMON and a summon's casts), `triggers` (TRIGGER, its
//! payload, the `on_kill` / `on_hit` entries), `logic` (LOGIC and conditions).

mod actions;
mod draw;
mod logic;
mod shot;
mod triggers;

use self::draw::{Cast, Draw, End, Walk};
use super::mana::Mana;
use super::program::{Op, Program};
use crate::sim::config::Inversion;
use crate::sim::rng::{Rng, Stream};

pub use self::shot::{Emission, Shot};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum VmEvent {
    /// A cast put `emissions` things into the world.
    CastFired { emissions: u32 },
    /// R-MANA-3/6: a payment failed; the rest of the cast was abandoned.
    CastAbandoned { node: u32 },
    /// R-VM-8: the cast hit its step budget.
    CpuExhausted,
    /// The lab's slow motion: one node took effect (trace on only).
    Trace { node: u32, mana_before: f32, mana_after: f32 },
}

/// What the conditions of LOGIC nodes read (R-VM-6).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Senses {
    pub hp: f32,
    pub hp_max: f32,
    pub moving: bool,
    /// Distance to the nearest enemy (infinity if none).
    pub nearest_enemy: f32,
}

/// The entry decks' cursor numbers (`Caster::cursors`); splitter routes
/// come after them (`Op::Split::deck`).
pub const MAIN: usize = 0;
pub const REVERSE: usize = 1;
pub const ON_KILL: usize = 2;
pub const ON_HIT: usize = 3;

/// Per-cast knobs that come from the player (R-STAT-1) and balance.json.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastRules {
    /// R-VM-8: node-steps per CPU point.
    pub step_multiplier: u32,
    /// Player CPU stat: added to the core's limit for the step budget.
    pub cpu_stat: u32,
    /// R-VM-11: cast-speed stat (0..1) and the floor of the delay.
    pub cast_speed: f32,
    pub delay_floor: f32,
    /// R-STAT-1 accuracy (0..1): shrinks random spread.
    pub accuracy: f32,
    /// R-END-3 mana inversion: the cast delay turned into a bonus (None: as the cards say).
    pub inversion: Option<Inversion>,
}

impl CastRules {
    /// R-STAT-1 cast speed: what every wait (cast delay, recharge) is multiplied by (before the floor).
    pub fn wait_factor(&self) -> f32 {
        1.0 - self.cast_speed
    }

    /// R-STAT-1 accuracy: what random spread is multiplied by.
    pub fn spread_factor(&self) -> f32 {
        1.0 - self.accuracy
    }
}

/// The wand's running state: mana, cast timer, registers, cursors, counters.
#[derive(Clone, Debug)]
pub struct Caster {
    pub program: Program,
    pub mana: Mana,
    pub rules: CastRules,
    pub cast_delay: f32,
    pub recharge: f32,
    pub cpu_limit: u32,
    pub persistent_memory: bool,
    pub infinite_spells: bool,
    /// R-VM-3b: a program core restarts every cast at the head.
    pub restart: bool,
    pub timer: f32,
    pub registers: [i32; 2],
    /// R-VM-12: one cursor per deck (`MAIN`, `REVERSE`, `ON_KILL`,
    /// `ON_HIT`, then two per splitter), as node indices.
    pub cursors: Vec<u32>,
    /// Charge Counter and Kill Combo counts, and whether each one's span is
    /// open on the current pass (a cast starting inside it retests this).
    pub counters: Vec<u32>,
    pub open: Vec<bool>,
    /// Kills since the last Kill Combo fired.
    pub kills: u32,
    /// R-VM-12: seconds an `on_kill` / `on_hit` entry stays locked after wrapping.
    pub entry_lock: [f32; 2],
    pub trace: bool,
    /// Extra action budget for the next main cast (§8 "draw": bag_of_prep,
    /// centennial_puzzle), on top of its spells per cast; the cast spends it. The world
    /// offers it before each tick and takes it back after.
    pub bonus_budget: u32,
    /// The last main cast wrapped a deck and paid the recharge (the lab).
    pub last_recharged: bool,
    /// Random spread (R-VM-3 multicast fan-out, accuracy).
    spread: Rng,
}

/// What one call produced.
#[derive(Clone, Debug, Default)]
pub struct CastOutput {
    pub emissions: Vec<Emission>,
    pub events: Vec<VmEvent>,
}

impl CastOutput {
    pub fn clear(&mut self) {
        self.emissions.clear();
        self.events.clear();
    }
}

impl Caster {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        program: Program,
        mana: Mana,
        rules: CastRules,
        cast_delay: f32,
        recharge: f32,
        cpu_limit: u32,
        persistent_memory: bool,
        infinite_spells: bool,
        seed: u64,
    ) -> Caster {
        let counters = vec![0; program.counters as usize];
        let open = vec![false; program.counters as usize];
        let mut caster = Caster {
            program,
            mana,
            rules,
            cast_delay,
            recharge,
            cpu_limit,
            persistent_memory,
            infinite_spells,
            restart: false,
            timer: 0.0,
            registers: [0; 2],
            cursors: Vec::new(),
            counters,
            open,
            kills: 0,
            entry_lock: [0.0; 2],
            trace: false,
            bonus_budget: 0,
            last_recharged: false,
            spread: Rng::new(seed, Stream::Spread),
        };
        caster.reset_memory();
        caster
    }

    /// Every cursor home, registers and counters zero (R-VM-3: wave start
    /// and recompile).
    pub fn reset_memory(&mut self) {
        let p = &self.program;
        let mut cursors = vec![p.main.start; (p.decks as usize).max(4)];
        cursors[REVERSE] = p.main_reverse.map_or(0, |s| s.start);
        cursors[ON_KILL] = p.on_kill.map_or(0, |s| s.start);
        cursors[ON_HIT] = p.on_hit.map_or(0, |s| s.start);
        for n in &p.nodes {
            if let Op::Split { upper, lower, deck } = n.op {
                cursors[deck as usize] = upper.start;
                cursors[deck as usize + 1] = lower.start;
            }
        }
        self.cursors = cursors;
        self.registers = [0; 2];
        self.counters.iter_mut().for_each(|c| *c = 0);
        self.open.iter_mut().for_each(|o| *o = false);
        self.kills = 0;
        self.entry_lock = [0.0; 2];
    }

    /// The main forward cursor (R-VM-12).
    pub fn cursor(&self) -> u32 {
        self.cursors[MAIN]
    }

    /// R-VM-3, R-REG-1: cursors, registers and counters reset at the start
    /// of each wave, unless the core has persistent memory.
    pub fn begin_wave(&mut self) {
        self.mana.refill();
        self.timer = 0.0;
        if !self.persistent_memory {
            self.reset_memory();
        }
    }

    /// R-VM-8: node-steps one cast may run: the core's limit and the CPU stat, × the multiplier.
    pub fn step_budget(&self) -> u32 {
        (self.cpu_limit + self.rules.cpu_stat).max(1) * self.rules.step_multiplier
    }

    fn cool_entries(&mut self, dt: f32) {
        for lock in &mut self.entry_lock {
            *lock = (*lock - dt).max(0.0);
        }
    }

    /// One tick of the cast timer: regenerates mana and, when the timer is
    /// due, casts the main entry. Returns true if a cast happened.
    pub fn tick(&mut self, dt: f32, senses: &mut Senses, out: &mut CastOutput) -> bool {
        self.mana.tick(dt);
        self.cool_entries(dt);
        self.timer -= dt;
        if self.timer > 0.0 {
            return false;
        }
        let delay = self.cast(senses, out);
        // R-MANA-6: the timer resets whether or not anything fired.
        self.timer += delay;
        if self.timer <= 0.0 {
            self.timer = delay;
        }
        true
    }

    /// A frame with nothing in reach (auto-aim): mana regenerates and the
    /// timer runs down to ready, but nothing is cast — the wand fires the
    /// moment a target comes into reach.
    pub fn hold(&mut self, dt: f32) {
        self.mana.tick(dt);
        self.cool_entries(dt);
        self.timer = (self.timer - dt).max(0.0);
    }

    /// R-VM-13: the core's always-cast cards, drawn ahead of the main deck —
    /// free whatever the pool, the cursor unmoved, the actions on a budget of
    /// their own; their delay counts. Returns the shot state their modifiers
    /// built, which shapes every action the main cast fires.
    fn always_cast(&mut self, cast: &mut Cast, senses: &mut Senses, out: &mut CastOutput) -> Shot {
        let always = self.program.always;
        if always.is_empty() {
            return Shot::default();
        }
        // A budget above their count: every always-cast card is drawn, modifiers after actions too.
        let pay = std::mem::replace(&mut cast.pay, false);
        let mut draw = Draw::new(always, always.start, Walk::Once, Shot::default(), always.len() as u32 + 1);
        self.draw(&mut draw, cast, senses, out);
        cast.pay = pay;
        draw.shot
    }

    /// One cast of the main entry (both streams on `dual_stream`). Returns
    /// its delay (R-VM-11): the core's, the cards' it ran or paid for, and
    /// the recharge if any of its decks wrapped (never on persistent memory).
    pub fn cast(&mut self, senses: &mut Senses, out: &mut CastOutput) -> f32 {
        self.mana.begin_cast();
        let before = out.emissions.len();
        let mut cast = Cast::new(self.step_budget(), true);
        // The main stream's budget: spells per cast and any bonus (the
        // reverse stream of a dual_stream core gets spells per cast, R-VM-12).
        let per_cast = self.program.spells_per_cast.max(1);
        let budget = per_cast.saturating_add(std::mem::take(&mut self.bonus_budget));
        let shot = self.always_cast(&mut cast, senses, out);
        let mut end = self.draw_deck(MAIN, self.program.main, budget, shot, &mut cast, senses, out);
        if let (Some(reverse), End::Done | End::Halted) = (self.program.main_reverse, end) {
            end = self.draw_deck(REVERSE, reverse, per_cast, Shot::default(), &mut cast, senses, out);
        }
        end = self.draw_routes(end, &mut cast, senses, out);
        self.finish(end, out);
        let fired = (out.emissions.len() - before) as u32;
        senses.hp += self.mana.end_cast(fired > 0);
        if fired > 0 {
            out.events.push(VmEvent::CastFired { emissions: fired });
        }
        if cast.wrapped {
            // R-VM-12: a dual_stream reload sends both cursors home.
            if let Some(reverse) = self.program.main_reverse {
                self.cursors[MAIN] = self.program.main.start;
                self.cursors[REVERSE] = reverse.start;
            }
        }
        self.last_recharged = cast.wrapped && !self.persistent_memory;
        let delay = if let Some(inversion) = self.rules.inversion {
            // R-END-3: the core's and the cards' delay inverted; the recharge stays a cost.
            inversion.delay((self.cast_delay + cast.delay).max(self.rules.delay_floor))
        } else {
            self.cast_delay + cast.delay
        };
        // R-VM-11: after a wrapping cast the wand waits the longer of its cast
        // delay and its recharge (Noita: the reload runs alongside the delay).
        // The recharge: the core's and every drawn card's adds (R-VM-14), never below zero.
        let recharge = (self.recharge + cast.recharge).max(0.0);
        let wait = if self.last_recharged { delay.max(recharge) } else { delay };
        (wait * self.rules.wait_factor()).max(self.rules.delay_floor)
    }
}
