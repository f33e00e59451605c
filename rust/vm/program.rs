//! The compiled wand (DESIGN §4, the Bytecode pattern): a flat array of
//! nodes; control flow and payloads are index ranges into it. Execution is
//! a loop over indices with a step budget — no recursion data can grow.

use std::fmt::Write as _;

use super::spell::{ActionDef, LogicDef, ShotMod, TriggerKind};

/// A half-open index range `[start, end)` into `Program::nodes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start: start as u32, end: end as u32 }
    }
    pub fn len(&self) -> usize {
        (self.end - self.start) as usize
    }
    pub fn is_empty(&self) -> bool {
        self.end <= self.start
    }
}

/// The cards a trigger's payload draws (R-VM-4): `first`, its span after the
/// trigger, and `from_head`, what it drew on from the deck's head when that
/// span ran off the end with its draw unfinished (never a card the cast had
/// already run; empty unless the payload wrapped).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Drawn {
    pub first: Span,
    pub from_head: Span,
}

impl From<Span> for Drawn {
    fn from(first: Span) -> Drawn {
        Drawn { first, from_head: Span::default() }
    }
}

impl Drawn {
    /// The spans in the order the payload draws them.
    pub fn spans(&self) -> [Span; 2] {
        [self.first, self.from_head]
    }
}

/// `OpDiscriminants` lists the variants without their operands (a test
/// gives each one a behaviour case).
#[derive(Clone, Copy, Debug, PartialEq, strum::EnumDiscriminants)]
#[strum_discriminants(derive(strum::EnumIter))]
pub enum Op {
    /// ACTION: fire a projectile, zone or blast with the shot state.
    Fire(ActionDef),
    /// ACTION (summon, R-VM-5): the rest of the block is its own program.
    Summon { action: ActionDef, program: Span },
    /// MODIFIER: adds to the shot state.
    Modify(ShotMod),
    /// MULTICAST(n): raises the action budget by `extra` = n − 1.
    Multicast { extra: u32, spread: f32 },
    /// TRIGGER (R-VM-4): the carrier is the action; `payload` runs later.
    Trigger { kind: TriggerKind, delay: f32, carrier: ActionDef, payload: Span },
    /// LOGIC (R-VM-6/7, R-REG-*): gates, halts, loops, registers and the
    /// packaged counters; spans clamped to the block, counters numbered.
    Logic(LogicDef),
    /// R-BOARD-3: both routes run as branches of the cast; each route is a
    /// deck with its own cursor, `deck` (upper) and `deck + 1` (lower).
    Split { upper: Span, lower: Span, deck: u16 },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node {
    pub op: Op,
    /// Index of the card in the spell catalog.
    pub spell: u16,
    /// Board slot the card sits in (for the lab's highlight).
    pub slot: u16,
    /// Mana paid when the node takes effect (R-MANA-2).
    pub cost: f32,
    /// Seconds this card adds to the cast delay (R-VM-11).
    pub delay: f32,
    /// Seconds it adds to the wand's recharge (R-VM-14; a trigger's include its payload's).
    pub recharge: f32,
    /// Drawn, it sets the cast delay so far to zero (R-VM-14, the chainsaw).
    pub resets_delay: bool,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Diagnostics {
    pub cpu_used: u32,
    pub cpu_limit: u32,
    /// Mana a cast of the main entry actually spends, averaged over the
    /// cast timeline's cycle (R-VM-3c; filled in by `vm::timeline`).
    pub mana_per_cast: f32,
    /// R-VM-3c: board slots with a card that no cast can ever reach.
    pub unreachable_slots: Vec<u16>,
    /// Recipe ids fused (R-RES-1), and their indices in the recipe list.
    pub fusions: Vec<String>,
    pub fused: Vec<u16>,
    /// Lab warnings (R-VM-1, R-VM-2, R-VM-9): stable codes.
    pub warnings: Vec<Warning>,
    /// Slots whose cards were dropped beyond `cpu_limit` (R-VM-9).
    pub dropped_slots: Vec<u16>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Warning {
    /// R-VM-2: the main entry has no ACTION: the wand cannot fire.
    NoAction,
    /// A TRIGGER with no ACTION after it (its payload does nothing).
    TriggerWithoutAction,
    /// A MODIFIER with no ACTION after it.
    ModifierModifiesNothing,
    /// R-VM-9: CPU use above 80% of the limit.
    CpuHigh,
    /// R-VM-9: nodes past the limit were dropped.
    CpuExceeded,
    /// R-VM-3c: a card no cast can reach (after a HALT, or on a program
    /// core behind an action that always fires).
    UnreachableSlot,
    /// R-VM-5: a summon with no ACTION in its program.
    SummonWithoutAction,
    /// R-MANA-3: a card costs more than the core's pool can ever hold.
    CostAboveMax,
    /// R-VM-14: an add-trigger modifier whose next action is no projectile
    /// (or lies past the deck's end): it makes no trigger.
    AddedTriggerWithoutProjectile,
}

impl Warning {
    pub fn code(self) -> &'static str {
        match self {
            Warning::NoAction => "no_action",
            Warning::TriggerWithoutAction => "trigger_without_action",
            Warning::ModifierModifiesNothing => "modifier_modifies_nothing",
            Warning::CpuHigh => "cpu_high",
            Warning::CpuExceeded => "cpu_exceeded",
            Warning::UnreachableSlot => "unreachable_slot",
            Warning::SummonWithoutAction => "summon_without_action",
            Warning::CostAboveMax => "cost_above_max",
            Warning::AddedTriggerWithoutProjectile => "added_trigger_without_projectile",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    pub nodes: Vec<Node>,
    pub main: Span,
    /// `dual_stream`: the main program in reverse order (R-CORE-4).
    pub main_reverse: Option<Span>,
    pub on_kill: Option<Span>,
    pub on_hit: Option<Span>,
    /// R-VM-13: the core's always-cast cards, drawn ahead of every main cast
    /// (no slot, free, no cursor); empty when it has none.
    pub always: Span,
    /// R-VM-3: the root action budget of a main cast (the core's `spells_per_cast`).
    pub spells_per_cast: u32,
    /// How many Charge Counter and Kill Combo nodes (each keeps its own count).
    pub counters: u32,
    /// How many decks have a cursor (R-VM-12): the four entries
    /// (`exec::MAIN`, `REVERSE`, `ON_KILL`, `ON_HIT`) and two per splitter.
    pub decks: u32,
    pub diagnostics: Diagnostics,
}

impl Program {
    /// R-VM-2: can this wand enter combat?
    pub fn can_fire(&self) -> bool {
        !self.diagnostics.warnings.contains(&Warning::NoAction)
    }

    /// A listing of the compiled wand, one node a line (clox's disassembler):
    /// index, slot, card, op and operands, cost.
    pub fn disassemble(&self, names: &[String]) -> String {
        let mut out = String::new();
        let mut block = |title: &str, span: Option<Span>| {
            if let Some(s) = span {
                let _ = writeln!(out, "== {title} [{}..{}) ==", s.start, s.end);
            }
        };
        block("main", Some(self.main));
        block("main (reverse)", self.main_reverse);
        block("on_kill", self.on_kill);
        block("on_hit", self.on_hit);
        block("always cast", Some(self.always).filter(|s| !s.is_empty()));
        for (i, n) in self.nodes.iter().enumerate() {
            let name = names.get(n.spell as usize).map_or("?", |s| s.as_str());
            let _ = writeln!(out, "{i:04} s{:<3} {name:<20} {:<44} mana {}", n.slot, describe(&n.op), n.cost);
        }
        out
    }
}

fn describe(op: &Op) -> String {
    let span = |s: &Span| format!("[{}..{})", s.start, s.end);
    match op {
        Op::Fire(a) => format!("FIRE {:?} dmg {} spd {}", a.kind, a.damage, a.speed),
        Op::Summon { program, .. } => format!("SUMMON program {}", span(program)),
        Op::Modify(m) => format!("MODIFY {}", modifier_summary(m)),
        Op::Multicast { extra, spread } => format!("MULTICAST +{extra} spread {spread}"),
        Op::Trigger { kind, delay, payload, .. } => format!("TRIGGER {kind:?} {delay}s payload {}", span(payload)),
        Op::Logic(l) => describe_logic(l),
        Op::Split { upper, lower, deck } => {
            format!("SPLIT upper {} lower {} decks {deck},{}", span(upper), span(lower), deck + 1)
        }
    }
}

fn describe_logic(l: &LogicDef) -> String {
    match *l {
        LogicDef::Gate { cond, span } => format!("GATE {cond:?} span {span}"),
        LogicDef::HaltIf(c) => format!("HALT_IF {c:?}"),
        LogicDef::Halt => "HALT".into(),
        LogicDef::Loop { span, count, grants_budget } => {
            format!("LOOP span {span} ×{count}{}", if grants_budget { " +budget" } else { "" })
        }
        LogicDef::RegSet { reg, value } => format!("REG_SET {} = {value}", reg_name(reg)),
        LogicDef::RegAdd { reg, value } => format!("REG_ADD {} += {value}", reg_name(reg)),
        LogicDef::ChargeCounter { n, counter, span } => format!("CHARGE_COUNTER every {n} (#{counter}) span {span}"),
        LogicDef::KillCombo { n, counter, span } => format!("KILL_COMBO {n} (#{counter}) span {span}"),
    }
}

fn modifier_summary(m: &ShotMod) -> String {
    let mut parts = Vec::new();
    if m.damage_flat != 0.0 {
        parts.push(format!("dmg+{}", m.damage_flat));
    }
    if m.damage_mult != 1.0 {
        parts.push(format!("dmg×{}", m.damage_mult));
    }
    if m.speed_mult != 1.0 {
        parts.push(format!("spd×{}", m.speed_mult));
    }
    if m.pierce_add > 0 {
        parts.push(format!("pierce+{}", m.pierce_add));
    }
    if m.bounce_add > 0 {
        parts.push(format!("bounce+{}", m.bounce_add));
    }
    if m.spread_add != 0.0 {
        parts.push(format!("spread+{}", m.spread_add));
    }
    if m.lifesteal_add != 0.0 {
        parts.push(format!("lifesteal+{}", m.lifesteal_add));
    }
    if m.splitter {
        parts.push("splitter".into());
    }
    if let Some(e) = m.element {
        parts.push(e.name().to_string());
    }
    if m.mana_gain > 0.0 {
        parts.push(format!("mana+{}", m.mana_gain));
    }
    if let Some((kind, delay)) = m.adds_trigger {
        parts.push(match kind {
            TriggerKind::Timer => format!("next→trigger {} {delay}s", kind.name()),
            _ => format!("next→trigger {}", kind.name()),
        });
    }
    if let Some(d) = m.divide {
        parts.push(format!("divide×{} dmg×{}", d.copies, d.damage_mult));
    }
    if parts.is_empty() {
        parts.push("…".into());
    }
    parts.join(" ")
}

pub fn reg_name(reg: u8) -> char {
    (b'A' + reg) as char
}
