//! Executing a compiled wand (R-VM-3 … R-VM-12, R-REG-*, R-MANA-*).
//!
//! A core's program is a deck (R-VM-3): each cast draws from the deck's
//! cursor with an action budget of 1 and leaves the cursor after the last
//! node it ran, so the next cast fires the next cards; running off the end
//! wraps to the head (recharge) and budget left draws on from the head, up
//! to where the cast began. Every deck has its own cursor: the main entry,
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

use super::compile::unit_end;
use super::mana::{Mana, Paid};
use super::program::{Node, Op, Program, Span};
use super::spell::{ActionDef, Cond, LogicDef, Path, ShotMod, TriggerKind};
use crate::sim::config::{Element, Inversion};
use crate::sim::rng::{Rng, Stream};

/// The shot state of a cast or sub-cast (R-VM-10).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shot {
    pub damage_flat: f32,
    pub damage_mult: f32,
    pub speed_mult: f32,
    pub lifetime_add: f32,
    pub spread: f32,
    pub bounce: u32,
    pub pierce: u32,
    pub homing: f32,
    pub path: Option<Path>,
    pub element: Option<Element>,
    pub status_chance: f32,
    pub crit: f32,
    pub knockback: f32,
    pub size_mult: f32,
    pub lifesteal: f32,
}

impl Default for Shot {
    fn default() -> Self {
        Shot {
            damage_flat: 0.0,
            damage_mult: 1.0,
            speed_mult: 1.0,
            lifetime_add: 0.0,
            spread: 0.0,
            bounce: 0,
            pierce: 0,
            homing: 0.0,
            path: None,
            element: None,
            status_chance: 0.0,
            crit: 0.0,
            knockback: 0.0,
            size_mult: 1.0,
            lifesteal: 0.0,
        }
    }
}

impl Shot {
    fn apply(&mut self, m: &ShotMod) {
        self.damage_flat += m.damage_flat;
        self.damage_mult *= m.damage_mult;
        self.speed_mult *= m.speed_mult;
        self.lifetime_add += m.lifetime_add;
        self.spread += m.spread_add;
        self.bounce = self.bounce.saturating_add(m.bounce_add);
        self.pierce = self.pierce.saturating_add(m.pierce_add);
        self.homing += m.homing_add;
        self.path = m.path.or(self.path);
        self.element = m.element.or(self.element);
        self.status_chance += m.status_chance_add;
        self.crit += m.crit_add;
        self.knockback += m.knockback_add;
        self.size_mult *= m.size_mult;
        self.lifesteal += m.lifesteal_add;
        self.bound();
    }

    /// Keeps a shot finite however many modifiers a loop stacks (each is
    /// bounded, their product is not): far beyond any sane build, so
    /// nothing valid changes.
    fn bound(&mut self) {
        const MOST: f32 = 1e12;
        for v in [&mut self.damage_flat, &mut self.lifetime_add, &mut self.spread] {
            *v = v.clamp(-MOST, MOST);
        }
        for v in [
            &mut self.damage_mult,
            &mut self.speed_mult,
            &mut self.size_mult,
            &mut self.homing,
            &mut self.status_chance,
            &mut self.crit,
            &mut self.knockback,
            &mut self.lifesteal,
        ] {
            *v = v.min(MOST);
        }
    }
}

/// Something a cast puts into the world, relative to where the cast is
/// aimed: the world places it (player or trigger position) and turns it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Emission {
    pub spell: u16,
    pub action: ActionDef,
    pub shot: Shot,
    /// Radians off the aim direction (multicast fan + spread).
    pub angle: f32,
    /// A carrier's payload (R-VM-4).
    pub trigger: Option<(TriggerKind, f32, Span)>,
    /// A summon's program (R-VM-5).
    pub summon: Option<Span>,
}

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

/// How a draw walks its deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Walk {
    /// R-VM-3: from the cursor; off the end it wraps once and draws on
    /// up to where it began.
    Deck,
    /// R-VM-3b: from the head; off the end it stops (and recharges).
    Program,
    /// A payload: once through its span, no cursor.
    Once,
}

/// One draw through a deck: its own shot state and action budget.
#[derive(Clone, Debug)]
struct Draw {
    deck: Span,
    pc: u32,
    /// Where the draw began: after a wrap it stops here (R-VM-3).
    began: u32,
    wrapped: bool,
    walk: Walk,
    shot: Shot,
    budget: u32,
    /// Multicast fan: (size of the group, spread in degrees, index next).
    fan: (u32, f32, u32),
    /// Active loops: (body start, body end, iterations left).
    loops: Vec<(u32, u32, u32)>,
}

/// How a draw ended, and where its cursor rests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Done,
    Halted,
    /// R-MANA-3: node `node` could not be paid; the cursor rests past it.
    Abandoned {
        node: u32,
    },
    Exhausted,
}

/// A splitter route waiting to be drawn in this cast (R-BOARD-3).
#[derive(Clone, Copy, Debug)]
struct Route {
    deck: usize,
    span: Span,
    shot: Shot,
}

/// The running totals of one cast across its draws.
struct Cast {
    delay: f32,
    steps: u32,
    wrapped: bool,
    routes: Vec<Route>,
    /// The paying draws run at the tab's scale; payloads are free.
    pay: bool,
}

impl Cast {
    fn new(steps: u32, pay: bool) -> Cast {
        Cast { delay: 0.0, steps, wrapped: false, routes: Vec::new(), pay }
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
    /// centennial_puzzle), on top of its 1; the cast spends it. The world
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

    fn step_budget(&self) -> u32 {
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

    /// One cast of the main entry (both streams on `dual_stream`). Returns
    /// its delay (R-VM-11): the core's, the cards' it ran or paid for, and
    /// the recharge if any of its decks wrapped (never on persistent memory).
    pub fn cast(&mut self, senses: &mut Senses, out: &mut CastOutput) -> f32 {
        self.mana.begin_cast();
        let before = out.emissions.len();
        let mut cast = Cast::new(self.step_budget(), true);
        // The main stream's budget: 1 and any bonus (the reverse stream of a
        // dual_stream core keeps its own 1, R-VM-12).
        let budget = 1u32.saturating_add(std::mem::take(&mut self.bonus_budget));
        let mut end = self.draw_deck(MAIN, self.program.main, budget, Shot::default(), &mut cast, senses, out);
        if let (Some(reverse), End::Done | End::Halted) = (self.program.main_reverse, end) {
            end = self.draw_deck(REVERSE, reverse, 1, Shot::default(), &mut cast, senses, out);
        }
        end = self.draw_routes(end, &mut cast, senses, out);
        self.finish(end, out);
        let fired = (out.emissions.len() - before) as u32;
        senses.hp += self.mana.end_cast(fired > 0);
        if fired > 0 {
            out.events.push(VmEvent::CastFired { emissions: fired });
        }
        self.last_recharged = cast.wrapped && !self.persistent_memory;
        if let Some(inversion) = self.rules.inversion {
            // R-END-3: the core's and the cards' delay inverted; the recharge stays a cost.
            let delay = inversion.delay((self.cast_delay + cast.delay).max(self.rules.delay_floor));
            let recharge = if self.last_recharged { self.recharge } else { 0.0 };
            return ((delay + recharge) * (1.0 - self.rules.cast_speed)).max(self.rules.delay_floor);
        }
        if self.last_recharged {
            cast.delay += self.recharge;
        }
        ((self.cast_delay + cast.delay) * (1.0 - self.rules.cast_speed)).max(self.rules.delay_floor)
    }

    /// The splitter routes a cast reached, each a deck of its own with a
    /// copy of the shot state and a budget of 1 (R-BOARD-3).
    fn draw_routes(&mut self, mut end: End, cast: &mut Cast, senses: &mut Senses, out: &mut CastOutput) -> End {
        while end == End::Done {
            let Some(route) = cast.routes.pop() else { break };
            end = self.draw_deck(route.deck, route.span, 1, route.shot, cast, senses, out);
        }
        cast.routes.clear();
        end
    }

    fn finish(&self, end: End, out: &mut CastOutput) {
        match end {
            End::Exhausted => out.events.push(VmEvent::CpuExhausted),
            End::Abandoned { node } => out.events.push(VmEvent::CastAbandoned { node }),
            End::Done | End::Halted => {}
        }
    }

    /// A trigger's payload (R-VM-4): once through its span with a budget of
    /// 1, free — its trigger paid for it when the carrier fired (R-MANA-5).
    pub fn run_free(&mut self, span: Span, senses: &mut Senses, out: &mut CastOutput) {
        let mut cast = Cast::new(self.step_budget(), false);
        let mut draw = Draw::new(span, span.start, Walk::Once, Shot::default(), 1);
        let end = self.draw(&mut draw, &mut cast, senses, out);
        let end = self.draw_routes(end, &mut cast, senses, out);
        if end == End::Exhausted {
            out.events.push(VmEvent::CpuExhausted);
        }
    }

    /// One cast of a summon's program (R-VM-5, R-MANA-5): its own deck from
    /// `cursor` (which the summon keeps), no recharge, each card paid from
    /// the player's pool at `share` of its cost. A summon that can't pay
    /// holds its fire: what it fired stays, and the cursor waits on the
    /// unpaid card. Returns whether anything fired.
    pub fn cast_summon(
        &mut self,
        program: Span,
        cursor: &mut u32,
        share: f32,
        senses: &mut Senses,
        out: &mut CastOutput,
    ) -> bool {
        if program.is_empty() {
            return false;
        }
        self.mana.open_tab(share);
        let before = out.emissions.len();
        let mut cast = Cast::new(self.step_budget(), true);
        let from = if *cursor < program.start || *cursor >= program.end { program.start } else { *cursor };
        let mut draw = Draw::new(program, from, Walk::Deck, Shot::default(), 1);
        self.retest_gates(&mut draw, senses);
        let end = self.draw(&mut draw, &mut cast, senses, out);
        let end = self.draw_routes(end, &mut cast, senses, out);
        *cursor = match end {
            End::Abandoned { node } => node,
            End::Halted => program.start,
            _ => wrap(draw.pc, program),
        };
        if end == End::Exhausted {
            out.events.push(VmEvent::CpuExhausted);
        }
        let fired = out.emissions.len() > before;
        senses.hp += self.mana.close_tab(fired);
        fired
    }

    /// An `on_kill` / `on_hit` entry (R-CORE-2, R-VM-12): a paid draw of
    /// that deck from its own cursor, at cost (no surcharge); an entry that
    /// wraps is locked for the core's recharge. Returns false while locked.
    pub fn run_entry(&mut self, deck: usize, senses: &mut Senses, out: &mut CastOutput) -> bool {
        let span = match deck {
            ON_KILL => self.program.on_kill,
            ON_HIT => self.program.on_hit,
            _ => None,
        };
        let Some(span) = span else { return false };
        let lock = deck - ON_KILL;
        if self.entry_lock[lock] > 0.0 {
            return false;
        }
        self.mana.open_tab(1.0);
        let before = out.emissions.len();
        let mut cast = Cast::new(self.step_budget(), true);
        let end = self.draw_deck(deck, span, 1, Shot::default(), &mut cast, senses, out);
        let end = self.draw_routes(end, &mut cast, senses, out);
        self.finish(end, out);
        senses.hp += self.mana.close_tab(out.emissions.len() > before);
        if cast.wrapped && !self.persistent_memory {
            self.entry_lock[lock] = self.recharge;
        }
        true
    }

    /// One draw of deck `deck` (its cursor, or the head on a program core),
    /// leaving its cursor where the draw stopped (R-VM-3, R-MANA-3: past an
    /// unpaid card; HALT: home).
    #[allow(clippy::too_many_arguments)]
    fn draw_deck(
        &mut self,
        deck: usize,
        span: Span,
        budget: u32,
        shot: Shot,
        cast: &mut Cast,
        senses: &mut Senses,
        out: &mut CastOutput,
    ) -> End {
        if span.is_empty() {
            return End::Done;
        }
        let (from, walk) =
            if self.restart { (span.start, Walk::Program) } else { (wrap(self.cursors[deck], span), Walk::Deck) };
        let mut draw = Draw::new(span, from, walk, shot, budget);
        self.retest_gates(&mut draw, senses);
        let end = self.draw(&mut draw, cast, senses, out);
        let mut cursor = match end {
            End::Halted => span.start,
            End::Abandoned { node } => self.pass_over(&draw, node),
            End::Done | End::Exhausted => draw.pc,
        };
        if cursor >= span.end {
            cursor = span.start;
            draw.wrapped = true;
        }
        cast.wrapped |= draw.wrapped && end != End::Halted;
        self.cursors[deck] = cursor;
        end
    }

    /// R-MANA-3: the unpaid node is passed over for this trip — with its
    /// payload or program, and with the loop it sits in (drawn whole).
    fn pass_over(&self, draw: &Draw, node: u32) -> u32 {
        let mut past = unit_end(&self.program, node as usize) as u32;
        if let Some(&(_, body_end, _)) = draw.loops.first() {
            past = past.max(body_end);
        }
        past
    }

    /// R-VM-3: a cast that starts inside a gate's (or counter's) span
    /// retests it, outermost first; a false one sends the draw past its span.
    fn retest_gates(&mut self, draw: &mut Draw, senses: &Senses) {
        let (start, at) = (draw.deck.start as usize, draw.pc as usize);
        let mut g = start;
        while g < at {
            let end = unit_end(&self.program, g);
            let holds = match self.program.nodes[g].op {
                Op::Logic(LogicDef::Gate { cond, .. }) if end > at => Some(self.test(cond, senses)),
                Op::Logic(LogicDef::ChargeCounter { counter, .. } | LogicDef::KillCombo { counter, .. })
                    if end > at =>
                {
                    Some(self.open[counter as usize])
                }
                _ => None,
            };
            match holds {
                Some(false) => {
                    draw.pc = end as u32;
                    return;
                }
                Some(true) => g += 1,
                // Not enclosing: step over its unit (an enclosing gate can't start inside one).
                None => g = end.min(at).max(g + 1),
            }
        }
    }

    /// Runs one draw until its budget is spent (outside loops), it runs out
    /// of deck, or a node ends it.
    fn draw(&mut self, d: &mut Draw, cast: &mut Cast, senses: &mut Senses, out: &mut CastOutput) -> End {
        loop {
            // Loop bodies: at a body's end, go round again or leave.
            if let Some(&(start, body_end, left)) = d.loops.last() {
                if d.pc >= body_end {
                    d.loops.pop();
                    if left > 1 {
                        d.loops.push((start, body_end, left - 1));
                        d.pc = start;
                    }
                    continue;
                }
            } else {
                if d.budget == 0 || (d.wrapped && d.pc >= d.began) {
                    return End::Done;
                }
                if d.pc >= d.deck.end {
                    let from_head = d.began == d.deck.start;
                    match d.walk {
                        Walk::Deck if !d.wrapped && !from_head => {
                            // Budget left at the end draws on from the head.
                            d.wrapped = true;
                            d.pc = d.deck.start;
                            continue;
                        }
                        Walk::Deck | Walk::Program => {
                            d.wrapped = true;
                            return End::Done;
                        }
                        Walk::Once => return End::Done,
                    }
                }
            }
            if cast.steps == 0 {
                return End::Exhausted;
            }
            cast.steps -= 1;
            let i = d.pc;
            let node = self.program.nodes[i as usize];
            match self.exec(&node, i, d, cast, senses, out) {
                Flow::Next => d.pc += 1,
                Flow::Jump(to) => d.pc = to,
                Flow::Halt => return End::Halted,
                Flow::Abandon => return End::Abandoned { node: i },
                Flow::EndDraw => {
                    // A splitter ends the main draw; the cursor wraps (R-BOARD-3).
                    d.pc = d.deck.end;
                    return End::Done;
                }
            }
        }
    }

    /// One node taking effect.
    fn exec(
        &mut self,
        node: &Node,
        index: u32,
        d: &mut Draw,
        cast: &mut Cast,
        senses: &mut Senses,
        out: &mut CastOutput,
    ) -> Flow {
        let is_action = matches!(node.op, Op::Fire(_) | Op::Summon { .. } | Op::Trigger { .. });
        if is_action && d.budget == 0 {
            // R-MANA-4: beyond the budget (inside a loop drawn whole), skipped and free.
            return Flow::Jump(unit_end(&self.program, index as usize) as u32);
        }
        // R-MANA-2: paid where the node takes effect (a trigger with its
        // payload, R-MANA-5). Gates pay their own cost before testing; the
        // nodes they skip cost nothing (R-MANA-4).
        if cast.pay {
            let before = self.mana.current;
            if self.mana.spend(node.cost, self.infinite_spells, &mut senses.hp) == Paid::Refused {
                return Flow::Abandon;
            }
            if self.trace {
                out.events.push(VmEvent::Trace { node: index, mana_before: before, mana_after: self.mana.current });
            }
        }
        cast.delay += node.delay;
        match node.op {
            Op::Modify(m) => {
                d.shot.apply(&m);
                Flow::Next
            }
            Op::Multicast { extra, spread } => {
                d.budget = d.budget.saturating_add(extra);
                d.fan = (extra + 1, spread, 0);
                Flow::Next
            }
            Op::Fire(action) => {
                self.emit(node.spell, action, d, None, None, out);
                Flow::Next
            }
            Op::Summon { action, program } => {
                self.emit(node.spell, action, d, None, Some(program), out);
                // R-VM-5: the main cursor passes the summon's program.
                Flow::Jump(program.end)
            }
            Op::Trigger { kind, delay: t, carrier, payload } => {
                self.emit(node.spell, carrier, d, Some((kind, t, payload)), None, out);
                // R-VM-4: the cursor passes the payload; the cast goes on.
                Flow::Jump(payload.end)
            }
            Op::Logic(logic) => self.logic(logic, index, d, senses),
            Op::Split { upper, lower, deck } => {
                // R-BOARD-3: the upper route is drawn first.
                for (k, route) in [(1, lower), (0, upper)] {
                    cast.routes.push(Route { deck: deck as usize + k, span: route, shot: d.shot });
                }
                Flow::EndDraw
            }
        }
    }

    /// A LOGIC node taking effect (R-VM-6/7, R-REG-1/2).
    fn logic(&mut self, logic: LogicDef, index: u32, d: &mut Draw, senses: &Senses) -> Flow {
        let skip = |span: u32| Flow::Jump(index + 1 + span);
        match logic {
            LogicDef::Gate { cond, span } => {
                if self.test(cond, senses) {
                    Flow::Next
                } else {
                    skip(span)
                }
            }
            LogicDef::HaltIf(cond) => {
                if self.test(cond, senses) {
                    Flow::Halt
                } else {
                    Flow::Next
                }
            }
            LogicDef::Halt => Flow::Halt,
            LogicDef::Loop { span, count, grants_budget } => {
                if span == 0 || count == 0 {
                    return skip(span);
                }
                let body = (index + 1, index + 1 + span);
                if grants_budget {
                    let actions = self.program.nodes[body.0 as usize..body.1 as usize]
                        .iter()
                        .filter(|n| matches!(n.op, Op::Fire(_) | Op::Summon { .. } | Op::Trigger { .. }))
                        .count() as u32;
                    d.budget = d.budget.saturating_add(actions.saturating_mul(count));
                }
                d.loops.push((body.0, body.1, count));
                Flow::Next
            }
            LogicDef::RegSet { reg, value } => {
                self.registers[reg as usize & 1] = value;
                Flow::Next
            }
            LogicDef::RegAdd { reg, value } => {
                let r = &mut self.registers[reg as usize & 1];
                *r = r.saturating_add(value);
                Flow::Next
            }
            LogicDef::ChargeCounter { n, counter, span } => {
                // R-REG-2: each pass of the cursor counts; the Nth runs the span.
                let c = &mut self.counters[counter as usize];
                *c += 1;
                let fires = *c >= n;
                if fires {
                    *c = 0;
                }
                self.open[counter as usize] = fires;
                if fires {
                    Flow::Next
                } else {
                    skip(span)
                }
            }
            LogicDef::KillCombo { n, counter, span } => {
                let fires = self.kills >= n;
                if fires {
                    self.kills = 0;
                }
                self.open[counter as usize] = fires;
                if fires {
                    Flow::Next
                } else {
                    skip(span)
                }
            }
        }
    }

    fn test(&self, cond: Cond, s: &Senses) -> bool {
        match cond {
            Cond::HpLow(f) => s.hp < f * s.hp_max,
            Cond::EnemyClose(d) => s.nearest_enemy < d,
            Cond::Moving => s.moving,
            Cond::Still => !s.moving,
            Cond::ManaAbove(x) => self.mana.current > x,
            Cond::RegLt(r, v) => self.registers[r as usize & 1] < v,
            Cond::RegGe(r, v) => self.registers[r as usize & 1] >= v,
        }
    }

    fn emit(
        &mut self,
        spell: u16,
        action: ActionDef,
        d: &mut Draw,
        trigger: Option<(TriggerKind, f32, Span)>,
        summon: Option<Span>,
        out: &mut CastOutput,
    ) {
        d.budget -= 1;
        let (group, fan_spread, k) = d.fan;
        let fan = if group > 1 {
            d.fan.2 = k + 1;
            if d.fan.2 >= group {
                d.fan = (1, 0.0, 0);
            }
            (k as f32 - (group - 1) as f32 * 0.5) * (fan_spread + d.shot.spread) / group as f32
        } else {
            0.0
        };
        let jitter = (action.spread + d.shot.spread) * (1.0 - self.rules.accuracy) * (self.spread.unit() - 0.5);
        out.emissions.push(Emission {
            spell,
            action,
            shot: d.shot,
            angle: (fan + jitter).to_radians(),
            trigger,
            summon,
        });
    }
}

impl Draw {
    fn new(deck: Span, from: u32, walk: Walk, shot: Shot, budget: u32) -> Draw {
        Draw { deck, pc: from, began: from, wrapped: false, walk, shot, budget, fan: (1, 0.0, 0), loops: Vec::new() }
    }
}

/// A cursor at or past its deck's end rests at the head.
fn wrap(cursor: u32, deck: Span) -> u32 {
    if cursor < deck.start || cursor >= deck.end {
        deck.start
    } else {
        cursor
    }
}

enum Flow {
    Next,
    Jump(u32),
    EndDraw,
    Halt,
    Abandon,
}
