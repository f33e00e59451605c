//! Executing a compiled wand (R-VM-3 … R-VM-12, R-REG-*, R-MANA-*).
//!
//! A cast is a loop over node indices with an explicit step budget
//! (R-VM-8). Branches (splitter routes) sit on an explicit stack, loops on
//! a per-branch stack; nothing recurses. Every payment goes through
//! `Mana::spend`; payloads and summon programs run with payment off.

use super::mana::{Mana, Paid};
use super::program::{Node, Op, Program, Span};
use super::spell::{ActionDef, Cond, LogicDef, Path, ShotMod, TriggerKind};
use crate::sim::config::Element;
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
        self.bounce += m.bounce_add;
        self.pierce += m.pierce_add;
        self.homing += m.homing_add;
        self.path = m.path.or(self.path);
        self.element = m.element.or(self.element);
        self.status_chance += m.status_chance_add;
        self.crit += m.crit_add;
        self.knockback += m.knockback_add;
        self.size_mult *= m.size_mult;
        self.lifesteal += m.lifesteal_add;
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
}

impl Default for CastRules {
    fn default() -> Self {
        CastRules { step_multiplier: 8, cpu_stat: 0, cast_speed: 0.0, delay_floor: 0.02, accuracy: 0.0 }
    }
}

/// One run of a branch: its own shot state and action budget.
#[derive(Clone, Debug)]
struct Branch {
    pc: u32,
    end: u32,
    shot: Shot,
    budget: u32,
    /// Multicast fan: (size of the group, spread in degrees, index next).
    fan: (u32, f32, u32),
    /// Active loops: (body start, body end, iterations left).
    loops: Vec<(u32, u32, u32)>,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Done,
    Halted,
    Abandoned,
    Exhausted,
}

/// The wand's running state: mana, cast timer, registers, cursor, counters.
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
    pub timer: f32,
    pub registers: [i32; 2],
    /// R-VM-12 cursor into the main block (persistent_memory).
    pub cursor: u32,
    pub counters: Vec<u32>,
    /// Kills since the last Kill Combo fired.
    pub kills: u32,
    pub trace: bool,
    /// Extra action budget for the next main cast (§8 "draw": bag_of_prep,
    /// centennial_puzzle), on top of its 1; the cast spends it. The world
    /// offers it before each tick and takes it back after.
    pub bonus_budget: u32,
    /// Scratch, kept between casts.
    branches: Vec<Branch>,
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

/// Which run: the paid main cast, or a free payload / summon program.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Payment {
    Paid,
    Free,
}

impl Caster {
    #[allow(clippy::too_many_arguments)]
    pub fn new(program: Program, mana: Mana, rules: CastRules, cast_delay: f32, recharge: f32, cpu_limit: u32, persistent_memory: bool, infinite_spells: bool, seed: u64) -> Caster {
        let counters = vec![0; program.counters as usize];
        Caster {
            cursor: program.main.start,
            program,
            mana,
            rules,
            cast_delay,
            recharge,
            cpu_limit,
            persistent_memory,
            infinite_spells,
            timer: 0.0,
            registers: [0; 2],
            counters,
            kills: 0,
            trace: false,
            bonus_budget: 0,
            branches: Vec::new(),
            spread: Rng::new(seed, Stream::Spread),
        }
    }

    /// R-REG-1: registers and counters reset at the start of each wave,
    /// unless the core has persistent memory.
    pub fn begin_wave(&mut self) {
        self.mana.refill();
        self.timer = 0.0;
        if !self.persistent_memory {
            self.registers = [0; 2];
            self.counters.iter_mut().for_each(|c| *c = 0);
            self.kills = 0;
            self.cursor = self.program.main.start;
        }
    }

    fn step_budget(&self) -> u32 {
        (self.cpu_limit + self.rules.cpu_stat).max(1) * self.rules.step_multiplier
    }

    /// One tick of the cast timer: regenerates mana and, when the timer is
    /// due, casts the main entry. Returns true if a cast happened.
    pub fn tick(&mut self, dt: f32, senses: &mut Senses, out: &mut CastOutput) -> bool {
        self.mana.tick(dt);
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
        self.timer = (self.timer - dt).max(0.0);
    }

    /// One cast of the main entry (both streams on `dual_stream`). Returns
    /// its delay (R-VM-11).
    pub fn cast(&mut self, senses: &mut Senses, out: &mut CastOutput) -> f32 {
        self.mana.begin_cast();
        let before = out.emissions.len();
        let mut delay_add = 0.0;
        let mut steps = self.step_budget();
        let main = self.program.main;
        // The main stream's budget: 1 and any bonus (the reverse stream of a
        // dual_stream core keeps its own 1).
        let budget = 1u32.saturating_add(std::mem::take(&mut self.bonus_budget));
        let mut end;
        if self.persistent_memory {
            let (e, wrapped) = self.cast_from_cursor(budget, senses, out, &mut delay_add, &mut steps);
            end = e;
            if wrapped {
                delay_add += self.recharge;
            }
        } else {
            end = self.run(main, main.start, Shot::default(), budget, Payment::Paid, senses, out, &mut delay_add, &mut steps).0;
        }
        if let (Some(reverse), End::Done | End::Halted) = (self.program.main_reverse, end) {
            end = self.run(reverse, reverse.start, Shot::default(), 1, Payment::Paid, senses, out, &mut delay_add, &mut steps).0;
        }
        if end == End::Exhausted {
            out.events.push(VmEvent::CpuExhausted);
        }
        let fired = (out.emissions.len() - before) as u32;
        senses.hp += self.mana.end_cast(fired > 0);
        if fired > 0 {
            out.events.push(VmEvent::CastFired { emissions: fired });
        }
        ((self.cast_delay + delay_add) * (1.0 - self.rules.cast_speed)).max(self.rules.delay_floor)
    }

    /// R-VM-12: resume after the last action of the previous cast; running
    /// off the end wraps to the head (the caller adds `recharge`).
    fn cast_from_cursor(&mut self, budget: u32, senses: &mut Senses, out: &mut CastOutput, delay_add: &mut f32, steps: &mut u32) -> (End, bool) {
        let main = self.program.main;
        let mut wrapped = false;
        if self.cursor >= main.end {
            self.cursor = main.start;
        }
        let start = self.cursor;
        let mut shot = Shot::default();
        let mut budget = budget;
        loop {
            let (end, last_action, left_shot, left_budget) =
                self.run(main, self.cursor, shot, budget, Payment::Paid, senses, out, delay_add, steps);
            if let Some(i) = last_action {
                self.cursor = i + 1;
            }
            if end != End::Done || left_budget == 0 {
                if self.cursor >= main.end {
                    self.cursor = main.start;
                    wrapped = true;
                }
                return (end, wrapped);
            }
            // Ran off the end with budget left: wrap and keep going, but
            // never past where this cast began.
            wrapped = true;
            if start == main.start || main.is_empty() {
                self.cursor = main.start;
                return (End::Done, wrapped);
            }
            shot = left_shot;
            budget = left_budget;
            let head = Span { start: main.start, end: start };
            let (end2, last2, _, _) = self.run(head, main.start, shot, budget, Payment::Paid, senses, out, delay_add, steps);
            self.cursor = last2.map_or(main.start, |i| i + 1);
            if self.cursor >= main.end {
                self.cursor = main.start;
            }
            return (end2, wrapped);
        }
    }

    /// A trigger's payload or a summon's program (R-VM-4/5, R-MANA-5: free).
    pub fn run_free(&mut self, span: Span, senses: &mut Senses, out: &mut CastOutput) {
        let mut delay = 0.0;
        let mut steps = self.step_budget();
        let (end, ..) = self.run(span, span.start, Shot::default(), 1, Payment::Free, senses, out, &mut delay, &mut steps);
        if end == End::Exhausted {
            out.events.push(VmEvent::CpuExhausted);
        }
    }

    /// An `on_kill` / `on_hit` entry (R-CORE-2): a paid cast of that block.
    pub fn run_entry(&mut self, span: Span, senses: &mut Senses, out: &mut CastOutput) {
        self.mana.begin_cast();
        let before = out.emissions.len();
        let mut delay = 0.0;
        let mut steps = self.step_budget();
        let (end, ..) = self.run(span, span.start, Shot::default(), 1, Payment::Paid, senses, out, &mut delay, &mut steps);
        senses.hp += self.mana.end_cast(out.emissions.len() > before);
        if end == End::Exhausted {
            out.events.push(VmEvent::CpuExhausted);
        }
    }

    /// Runs `span` from `pc` (plus any splitter routes it reaches). Returns
    /// how it ended, the index of the last action fired in `span`, and the
    /// first branch's leftover shot and budget (for the cursor's wrap).
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        span: Span,
        pc: u32,
        shot: Shot,
        budget: u32,
        pay: Payment,
        senses: &mut Senses,
        out: &mut CastOutput,
        delay: &mut f32,
        steps: &mut u32,
    ) -> (End, Option<u32>, Shot, u32) {
        let mut branches = std::mem::take(&mut self.branches);
        branches.clear();
        branches.push(Branch { pc, end: span.end, shot, budget, fan: (1, 0.0, 0), loops: Vec::new() });
        let mut last_action = None;
        let mut leftover = (shot, budget);
        let mut first = true;
        let mut result = End::Done;
        'branches: while let Some(mut b) = branches.pop() {
            loop {
                // Loop bodies: at a body's end, go round again or leave.
                if let Some(&(start, body_end, left)) = b.loops.last() {
                    if b.pc >= body_end {
                        b.loops.pop();
                        if left > 1 {
                            b.loops.push((start, body_end, left - 1));
                            b.pc = start;
                        }
                        continue;
                    }
                }
                if b.pc >= b.end || (b.budget == 0 && b.loops.is_empty()) {
                    break;
                }
                if *steps == 0 {
                    result = End::Exhausted;
                    break 'branches;
                }
                *steps -= 1;
                let i = b.pc;
                let node = self.program.nodes[i as usize];
                match self.exec(&node, i, &mut b, pay, senses, out, delay, &mut branches) {
                    Flow::Next => b.pc += 1,
                    Flow::Skip(n) => b.pc += 1 + n,
                    Flow::Fired => {
                        if span.start <= i && i < span.end {
                            last_action = Some(i);
                        }
                        b.pc += 1;
                    }
                    Flow::EndBranch => break,
                    Flow::Halt => {
                        result = End::Halted;
                        break 'branches;
                    }
                    Flow::Abandon => {
                        out.events.push(VmEvent::CastAbandoned { node: i });
                        result = End::Abandoned;
                        break 'branches;
                    }
                }
            }
            if first {
                leftover = (b.shot, b.budget);
                first = false;
            }
        }
        branches.clear();
        self.branches = branches;
        (result, last_action, leftover.0, leftover.1)
    }

    /// One node taking effect.
    #[allow(clippy::too_many_arguments)]
    fn exec(
        &mut self,
        node: &Node,
        index: u32,
        b: &mut Branch,
        pay: Payment,
        senses: &mut Senses,
        out: &mut CastOutput,
        delay: &mut f32,
        branches: &mut Vec<Branch>,
    ) -> Flow {
        let is_action = matches!(node.op, Op::Fire(_) | Op::Summon { .. } | Op::Trigger { .. });
        if is_action && b.budget == 0 {
            return Flow::Next; // R-MANA-4: beyond the budget, skipped and free
        }
        // R-MANA-2: paid where the node takes effect. Gates pay their own
        // cost before testing; the nodes they skip cost nothing (R-MANA-4).
        if pay == Payment::Paid {
            let before = self.mana.current;
            if self.mana.spend(node.cost, self.infinite_spells, &mut senses.hp) == Paid::Refused {
                return Flow::Abandon;
            }
            if self.trace {
                out.events.push(VmEvent::Trace { node: index, mana_before: before, mana_after: self.mana.current });
            }
        }
        *delay += node.delay;
        match node.op {
            Op::Modify(m) => {
                b.shot.apply(&m);
                Flow::Next
            }
            Op::Multicast { extra, spread } => {
                b.budget += extra;
                b.fan = (extra + 1, spread, 0);
                Flow::Next
            }
            Op::Fire(action) => {
                self.emit(node.spell, action, b, None, None, out);
                Flow::Fired
            }
            Op::Summon { action, program } => {
                self.emit(node.spell, action, b, None, Some(program), out);
                b.pc = program.end.saturating_sub(1);
                Flow::Fired
            }
            Op::Trigger { kind, delay: t, carrier, payload } => {
                self.emit(node.spell, carrier, b, Some((kind, t, payload)), None, out);
                // R-VM-4: the main cast ends after the trigger's payload nodes.
                b.pc = payload.end.saturating_sub(1);
                Flow::Fired
            }
            Op::Logic(logic) => self.logic(logic, index, b, senses),
            Op::Split { upper, lower } => {
                // R-BOARD-3: each route gets a copy of the shot state and a
                // budget of 1; the upper route runs first.
                for route in [lower, upper] {
                    branches.push(Branch { pc: route.start, end: route.end, shot: b.shot, budget: 1, fan: (1, 0.0, 0), loops: Vec::new() });
                }
                Flow::EndBranch
            }
        }
    }

    /// A LOGIC node taking effect (R-VM-6/7, R-REG-1/2).
    fn logic(&mut self, logic: LogicDef, index: u32, b: &mut Branch, senses: &Senses) -> Flow {
        match logic {
            LogicDef::Gate { cond, span } => {
                if self.test(cond, senses) { Flow::Next } else { Flow::Skip(span) }
            }
            LogicDef::HaltIf(cond) => {
                if self.test(cond, senses) { Flow::Halt } else { Flow::Next }
            }
            LogicDef::Halt => Flow::Halt,
            LogicDef::Loop { span, count, grants_budget } => {
                if span == 0 || count == 0 {
                    return Flow::Skip(span);
                }
                let body = (index + 1, index + 1 + span);
                if grants_budget {
                    let actions = self.program.nodes[body.0 as usize..body.1 as usize]
                        .iter()
                        .filter(|n| matches!(n.op, Op::Fire(_) | Op::Summon { .. } | Op::Trigger { .. }))
                        .count() as u32;
                    b.budget += actions * count;
                }
                b.loops.push((body.0, body.1, count));
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
            LogicDef::ChargeCounter { n, counter } => {
                let c = &mut self.counters[counter as usize];
                *c += 1;
                if *c < n {
                    Flow::Halt
                } else {
                    *c = 0;
                    Flow::Next
                }
            }
            LogicDef::KillCombo { n } => {
                if self.kills < n {
                    Flow::Halt
                } else {
                    self.kills = 0;
                    Flow::Next
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

    fn emit(&mut self, spell: u16, action: ActionDef, b: &mut Branch, trigger: Option<(TriggerKind, f32, Span)>, summon: Option<Span>, out: &mut CastOutput) {
        b.budget -= 1;
        let (group, fan_spread, k) = b.fan;
        let fan = if group > 1 {
            b.fan.2 = k + 1;
            if b.fan.2 >= group {
                b.fan = (1, 0.0, 0);
            }
            (k as f32 - (group - 1) as f32 * 0.5) * (fan_spread + b.shot.spread) / group as f32
        } else {
            0.0
        };
        let jitter = (action.spread + b.shot.spread) * (1.0 - self.rules.accuracy) * (self.spread.unit() - 0.5);
        out.emissions.push(Emission {
            spell,
            action,
            shot: b.shot,
            angle: (fan + jitter).to_radians(),
            trigger,
            summon,
        });
    }
}

enum Flow {
    Next,
    Skip(u32),
    Fired,
    EndBranch,
    Halt,
    Abandon,
}
