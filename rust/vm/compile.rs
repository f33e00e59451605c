//! Compile (R-VM-1): a core's board with cards in its slots → a `Program`
//! and the lab's diagnostics. Entry paths follow the board's edges
//! (R-BOARD-1); a splitter card on a slot with two outgoing edges makes two
//! routes (R-BOARD-3); adjacency bonuses are baked into node numbers
//! (R-BOARD-2); resonance recipes fuse cards (R-RES-1); cards past the
//! core's CPU limit (raised by the player's CPU stat, R-STAT-1) are
//! dropped (R-VM-9). After emitting, every span is settled (R-VM-4: a
//! trigger's payload is what a budget-1 sub-cast draws after it; gate and
//! loop spans cover whole units), triggers are priced up front (R-MANA-5)
//! and `vm::reach` marks the slots no cast can reach (R-VM-3c).

use super::board::{CoreDef, Entry};
use super::program::{Diagnostics, Node, Op, Program, Span, Warning};
use super::reach;
use super::spell::{ActionKind, Effect, Family, LogicDef, SpellDef};

/// The decks every program has a cursor for (R-VM-12): the entries.
/// Splitter routes are numbered after them, two per splitter.
pub const ENTRY_DECKS: u32 = 4;

/// R-RES-1: two cards fuse into `product`.
#[derive(Clone, Debug, PartialEq)]
pub struct Recipe {
    pub id: String,
    pub inputs: (u16, u16),
    pub product: u16,
    /// `anywhere_in_deck` (else `adjacent` in program order).
    pub anywhere: bool,
}

/// A card as compile sees it: which spell, from which slot, with which
/// adjacency multiplier.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Card {
    spell: u16,
    slot: u16,
    mult: f32,
}

/// A linear run of cards, optionally ending in a splitter card and its
/// two routes (upper, lower).
#[derive(Clone, Debug, Default)]
struct Route {
    cards: Vec<Card>,
    split: Option<Box<(Card, Route, Route)>>,
}

pub struct Compiler<'a> {
    spells: &'a [SpellDef],
    recipes: &'a [Recipe],
}

impl<'a> Compiler<'a> {
    pub fn new(spells: &'a [SpellDef], recipes: &'a [Recipe]) -> Self {
        Compiler { spells, recipes }
    }

    /// `cards[slot]` is the spell in that slot (`None`: empty). Unknown
    /// spell indices and a placement longer than the board are the caller's
    /// errors, reported as `Err`.
    pub fn compile(&self, core: &CoreDef, cards: &[Option<u16>]) -> Result<Program, String> {
        self.compile_with_cpu(core, cards, 0)
    }

    /// `compile` with the player's CPU stat added to the core's limit
    /// (R-STAT-1: it raises the compile-time limit too, so fewer cards drop).
    pub fn compile_with_cpu(&self, core: &CoreDef, cards: &[Option<u16>], cpu_stat: u32) -> Result<Program, String> {
        if cards.len() > core.capacity() {
            return Err(format!("{} cards for a core of {} slots", cards.len(), core.capacity()));
        }
        if let Some(bad) = cards.iter().flatten().find(|&&s| s as usize >= self.spells.len()) {
            return Err(format!("unknown spell index {bad}"));
        }
        core.validate()?;
        for &s in cards.iter().flatten() {
            let spell = &self.spells[s as usize];
            spell.validate().map_err(|e| format!("spell {:?}: {e}", spell.id))?;
        }
        let always = self.always_cast(core)?;
        let cpu_limit = core.cpu_limit.saturating_add(cpu_stat);
        let mut diagnostics = Diagnostics { cpu_limit, ..Default::default() };
        let mut cpu_left = cpu_limit as i64;
        let mut routes = Vec::new();
        // Slots some entry's path passes through: a card elsewhere (say on a
        // fork with no splitter card to take it) is never compiled (R-VM-3c).
        let mut on_path = vec![false; core.capacity()];
        for entry in [Entry::Main, Entry::OnKill, Entry::OnHit] {
            let route = core.entry(entry).map(|slot| {
                let mut route = self.walk(core, cards, slot, &mut cpu_left, &mut diagnostics, &mut on_path);
                self.fuse(&mut route, &mut diagnostics);
                self.hoist_trailing_modifiers(&mut route, core.flags.program);
                route
            });
            routes.push(route);
        }
        diagnostics.cpu_used = cards.iter().flatten().map(|&s| self.spells[s as usize].cpu).sum();
        if diagnostics.cpu_used as u64 * 5 > cpu_limit as u64 * 4 {
            diagnostics.warnings.push(Warning::CpuHigh);
        }
        if !diagnostics.dropped_slots.is_empty() {
            diagnostics.warnings.push(Warning::CpuExceeded);
        }

        let mut program = Program { decks: ENTRY_DECKS, ..Program::default() };
        let main_route = routes[0].take().unwrap_or_default();
        if !self.route_has_action(&main_route) {
            diagnostics.warnings.insert(0, Warning::NoAction);
        }
        program.main = self.emit(&main_route, &mut program);
        if core.flags.dual_stream {
            let mut reversed = Route { cards: flatten(&main_route), split: None };
            reversed.cards.reverse();
            program.main_reverse = Some(self.emit(&reversed, &mut program));
        }
        program.on_kill = routes[1].take().map(|r| self.emit(&r, &mut program));
        program.on_hit = routes[2].take().map(|r| self.emit(&r, &mut program));
        program.always = self.emit(&always, &mut program);
        for n in &mut program.nodes[program.always.start as usize..] {
            n.cost = 0.0; // R-VM-13: free whatever the pool
        }
        program.spells_per_cast = core.spells_per_cast;
        settle(&mut program);
        self.warn(&program, core, &mut diagnostics);
        program.diagnostics = diagnostics;
        let restart = core.flags.program;
        let mut unreachable = reach::unreachable_slots(&program, restart);
        let off_path = (0..cards.len()).filter(|&s| cards[s].is_some() && !on_path[s]).map(|s| s as u16);
        unreachable.extend(off_path);
        unreachable.sort_unstable();
        unreachable.dedup();
        if !unreachable.is_empty() {
            program.diagnostics.warnings.push(Warning::UnreachableSlot);
        }
        program.diagnostics.unreachable_slots = unreachable;
        Ok(program)
    }

    /// R-VM-13: the core's always-cast cards as a route of their own (no
    /// slot, no CPU); each must be a modifier or an action that is not a summon
    /// (a summon's program is the cards after it).
    fn always_cast(&self, core: &CoreDef) -> Result<Route, String> {
        let mut route = Route::default();
        for (i, &spell) in core.always_cast.iter().enumerate() {
            let def = self
                .spells
                .get(spell as usize)
                .ok_or_else(|| format!("always_cast[{i}]: unknown spell index {spell}"))?;
            let fits = match def.effect {
                // An add-trigger or a divide acts on the card after it: an always-cast card has none.
                Effect::Modifier(m) => !m.splitter && m.adds_trigger.is_none() && m.divide.is_none(),
                Effect::Action(a) => a.kind != ActionKind::Summon,
                _ => false,
            };
            if !fits {
                return Err(format!(
                    "core {:?}: always_cast[{i}] {:?} is not a modifier or a (non-summon) action that stands alone",
                    core.id, def.id
                ));
            }
            def.validate().map_err(|e| format!("spell {:?}: {e}", def.id))?;
            route.cards.push(Card { spell, slot: u16::MAX, mult: 1.0 });
        }
        Ok(route)
    }

    /// Follows the board from `slot`, taking cards until the CPU runs out.
    fn walk(
        &self,
        core: &CoreDef,
        cards: &[Option<u16>],
        start: usize,
        cpu_left: &mut i64,
        d: &mut Diagnostics,
        on_path: &mut [bool],
    ) -> Route {
        let mut route = Route::default();
        let mut slot = Some(start);
        // Boards are validated acyclic; the bound makes a bad board finite anyway.
        let mut guard = core.capacity() + 1;
        while let Some(s) = slot {
            guard -= 1;
            if guard == 0 {
                break;
            }
            on_path[s] = true;
            let next = &core.slots[s].next;
            if let Some(Some(spell)) = cards.get(s) {
                let def = &self.spells[*spell as usize];
                *cpu_left -= def.cpu as i64;
                if *cpu_left < 0 {
                    d.dropped_slots.push(s as u16);
                } else {
                    let is_splitter = matches!(def.effect, Effect::Modifier(m) if m.splitter);
                    if is_splitter && next.len() == 2 {
                        let card = Card { spell: *spell, slot: s as u16, mult: 1.0 };
                        let upper = self.walk(core, cards, next[0], cpu_left, d, on_path);
                        let lower = self.walk(core, cards, next[1], cpu_left, d, on_path);
                        route.split = Some(Box::new((card, upper, lower)));
                        return route;
                    }
                    if !is_splitter {
                        route.cards.push(Card { spell: *spell, slot: s as u16, mult: core.bonus_for(s) });
                    }
                }
            }
            slot = next.first().copied();
        }
        route
    }

    /// R-RES-1: adjacent pairs (in program order) fuse in place, the product
    /// taking the first card's slot; `anywhere_in_deck` recipes fuse the
    /// first occurrences anywhere in the route (O(N²) scan, few recipes).
    fn fuse(&self, route: &mut Route, d: &mut Diagnostics) {
        for (index, recipe) in self.recipes.iter().enumerate() {
            let (a, b) = recipe.inputs;
            let cards = &mut route.cards;
            if recipe.anywhere {
                let ia = cards.iter().position(|c| c.spell == a);
                let ib = cards.iter().enumerate().position(|(i, c)| c.spell == b && Some(i) != ia);
                if let (Some(ia), Some(ib)) = (ia, ib) {
                    let first = ia.min(ib);
                    cards[first].spell = recipe.product;
                    cards.remove(ia.max(ib));
                    d.fusions.push(recipe.id.clone());
                    d.fused.push(index as u16);
                }
            } else {
                let mut i = 0;
                while i + 1 < cards.len() {
                    let (x, y) = (cards[i].spell, cards[i + 1].spell);
                    if (x, y) == (a, b) || (x, y) == (b, a) {
                        cards[i].spell = recipe.product;
                        cards.remove(i + 1);
                        d.fusions.push(recipe.id.clone());
                        d.fused.push(index as u16);
                    }
                    i += 1;
                }
            }
        }
        if let Some(split) = route.split.as_mut() {
            self.fuse(&mut split.1, d);
            self.fuse(&mut split.2, d);
        }
    }

    /// Where no draw wraps — a program core (R-VM-3b) and a summon's program
    /// (R-VM-5) — modifiers placed after the last action of a route (with no
    /// split to carry them on) would modify nothing; they shape that last
    /// action instead, as if placed just before it. The design document's
    /// vampire turret, `[turret][…][chain_bolt][vampiric]`, is written that
    /// way (§3.8). On a deck core's main deck, entries and splitter routes
    /// they stay where they are: the wrap draws the action they modify (R-VM-3).
    fn hoist_trailing_modifiers(&self, route: &mut Route, program_core: bool) {
        if let Some(split) = route.split.as_mut() {
            self.hoist_trailing_modifiers(&mut split.1, program_core);
            self.hoist_trailing_modifiers(&mut split.2, program_core);
            return;
        }
        let def = |c: &Card| &self.spells[c.spell as usize];
        let Some(last) = route.cards.iter().rposition(|c| def(c).is_action()) else { return };
        let in_a_summon = route.cards[..last]
            .iter()
            .any(|c| matches!(def(c).effect, Effect::Action(a) if a.kind == ActionKind::Summon));
        let tail = &route.cards[last + 1..];
        if !(program_core || in_a_summon)
            || tail.is_empty()
            || !tail.iter().all(|c| matches!(def(c).effect, Effect::Modifier(_)))
        {
            return;
        }
        // Rotate the action to the end: modifiers keep their order, before it.
        route.cards[last..].rotate_left(1);
    }

    /// Appends a route's nodes (and after them its two routes') and returns
    /// its span. Spans are provisional (to the route's end, or as the data
    /// says) until `settle`.
    fn emit(&self, route: &Route, program: &mut Program) -> Span {
        let start = program.nodes.len();
        let end = start + route.cards.len() + route.split.is_some() as usize;
        // R-VM-14: an add-trigger modifier waiting for the next action.
        let mut adds_trigger = None;
        for (i, card) in route.cards.iter().enumerate() {
            let at = start + i;
            let def = &self.spells[card.spell as usize];
            let rest = Span::new(at + 1, end);
            let clamp = |span: u32| span.min((end - at - 1) as u32);
            if def.is_action() {
                // The next action takes the add-trigger, or lets it go if it is no projectile.
                let pending = adds_trigger.take();
                if let (Some((kind, delay)), Effect::Action(a)) = (pending, &def.effect) {
                    if a.kind == ActionKind::Projectile {
                        program.nodes.push(
                            self.node(Op::Trigger { kind, delay, carrier: a.scaled(card.mult), payload: rest }, card),
                        );
                        continue;
                    }
                }
            }
            let op = match def.effect {
                Effect::Action(a) if a.kind == ActionKind::Summon => {
                    Op::Summon { action: a.scaled(card.mult), program: rest }
                }
                Effect::Action(a) => Op::Fire(a.scaled(card.mult)),
                Effect::Modifier(m) => {
                    adds_trigger = m.adds_trigger.or(adds_trigger);
                    Op::Modify(m.scaled(card.mult))
                }
                Effect::Multicast { count, spread } => {
                    let n = ((count as f32) * card.mult).round().max(1.0) as u32;
                    Op::Multicast { extra: n - 1, spread }
                }
                Effect::Trigger(t) => {
                    Op::Trigger { kind: t.kind, delay: t.delay, carrier: t.carrier.scaled(card.mult), payload: rest }
                }
                Effect::Logic(l) => Op::Logic(match l {
                    LogicDef::Gate { cond, span } => LogicDef::Gate { cond, span: clamp(span) },
                    LogicDef::Loop { span, count, grants_budget } => {
                        let count = ((count as f32) * card.mult).round().max(1.0) as u32;
                        LogicDef::Loop { span: clamp(span), count, grants_budget }
                    }
                    LogicDef::ChargeCounter { n, span, .. } => {
                        program.counters += 1;
                        LogicDef::ChargeCounter { n, counter: program.counters - 1, span: clamp(span) }
                    }
                    LogicDef::KillCombo { n, span, .. } => {
                        program.counters += 1;
                        LogicDef::KillCombo { n, counter: program.counters - 1, span: clamp(span) }
                    }
                    other => other,
                }),
            };
            program.nodes.push(self.node(op, card));
        }
        if let Some(split) = &route.split {
            let at = program.nodes.len();
            let (card, up, down) = &**split;
            let deck = program.decks as u16;
            program.decks += 2;
            program.nodes.push(self.node(Op::Split { upper: Span::default(), lower: Span::default(), deck }, card));
            let upper = self.emit(up, program);
            let lower = self.emit(down, program);
            program.nodes[at].op = Op::Split { upper, lower, deck };
        }
        Span::new(start, end)
    }

    /// A card's node: its op, and the card's own price, delay and recharge.
    fn node(&self, op: Op, card: &Card) -> Node {
        let def = &self.spells[card.spell as usize];
        Node {
            op,
            spell: card.spell,
            slot: card.slot,
            cost: def.mana_cost,
            delay: def.cast_delay,
            recharge: def.recharge,
            resets_delay: def.resets_delay,
        }
    }

    fn route_has_action(&self, route: &Route) -> bool {
        route.cards.iter().any(|c| self.spells[c.spell as usize].is_action())
            || route.split.as_ref().is_some_and(|s| self.route_has_action(&s.1) || self.route_has_action(&s.2))
    }

    /// R-VM-1 warnings: a trigger with no action in its payload; a summon
    /// with none in its program (R-VM-5); a modifier with no action after
    /// it in its block; a card priced above the pool (R-MANA-3).
    fn warn(&self, program: &Program, core: &CoreDef, d: &mut Diagnostics) {
        let fires = |span: Span| -> bool {
            program.nodes[span.start as usize..span.end as usize]
                .iter()
                .any(|n| matches!(n.op, Op::Fire(_) | Op::Summon { .. } | Op::Trigger { .. } | Op::Split { .. }))
        };
        for (i, n) in program.nodes.iter().enumerate().take(program.always.start as usize) {
            match n.op {
                // On a deck core a payload that reaches the deck's end draws on
                // from the head (R-VM-4): an action before the trigger will do.
                Op::Trigger { payload, .. }
                    if !fires(payload)
                        && (core.flags.program
                            || payload.end as usize != block_end(program, i)
                            || !fires(Span::new(block_start(program, i), i))) =>
                {
                    push_once(&mut d.warnings, Warning::TriggerWithoutAction)
                }
                Op::Summon { program: own, .. } if !fires(own) => {
                    push_once(&mut d.warnings, Warning::SummonWithoutAction)
                }
                // R-VM-14: an added trigger needs the next action to be a projectile
                // (compile made it a trigger); past the deck's end it makes none.
                Op::Modify(m) if m.adds_trigger.is_some() => {
                    let next = program.nodes[i + 1..block_end(program, i)]
                        .iter()
                        .find(|n| matches!(n.op, Op::Fire(_) | Op::Summon { .. } | Op::Trigger { .. }));
                    let made = next.is_some_and(|n| {
                        matches!(n.op, Op::Trigger { .. }) && self.spells[n.spell as usize].family == Family::Action
                    });
                    if !made {
                        push_once(&mut d.warnings, Warning::AddedTriggerWithoutProjectile);
                    }
                }
                Op::Modify(_) => {
                    let end = block_end(program, i);
                    // On a deck core a modifier past the last action modifies
                    // what the wrap draws from the head (R-VM-3).
                    let wrap = !core.flags.program && fires(Span::new(block_start(program, i), i));
                    if !fires(Span::new(i + 1, end)) && !wrap {
                        push_once(&mut d.warnings, Warning::ModifierModifiesNothing);
                    }
                }
                _ => {}
            }
            if n.cost > core.mana_max && !core.flags.infinite_spells {
                push_once(&mut d.warnings, Warning::CostAboveMax);
            }
        }
    }
}

/// Where the unit starting at node `i` ends: a trigger with its payload, a
/// summon with its program, a gate, counter or loop with its span.
pub fn unit_end(program: &Program, i: usize) -> usize {
    match program.nodes[i].op {
        Op::Trigger { payload, .. } => payload.end as usize,
        Op::Summon { program: own, .. } => own.end as usize,
        Op::Logic(
            LogicDef::Gate { span, .. }
            | LogicDef::Loop { span, .. }
            | LogicDef::ChargeCounter { span, .. }
            | LogicDef::KillCombo { span, .. },
        ) => i + 1 + span as usize,
        _ => i + 1,
    }
}

/// Action budget a loop's body spends once drawn whole (R-VM-7), and whether it grants it.
fn loop_spend(program: &Program, i: usize) -> (u32, bool) {
    let Op::Logic(LogicDef::Loop { span, count, grants_budget }) = program.nodes[i].op else { return (0, false) };
    let body = &program.nodes[i + 1..i + 1 + span as usize];
    let actions =
        body.iter().filter(|n| matches!(n.op, Op::Fire(_) | Op::Summon { .. } | Op::Trigger { .. })).count() as u32;
    (actions.saturating_mul(count), grants_budget)
}

/// Settles the spans of every block, last node first, so each node sees
/// the settled units after it:
/// - a gate's, counter's or loop's span grows to cover whole units (a
///   skipped trigger takes its payload with it);
/// - a trigger's payload is what a sub-cast with a budget of 1 draws after
///   it (R-VM-4: multicasts raise it, nested triggers and summons take
///   their own, a loop is drawn whole, a splitter ends the draw);
/// - a trigger costs its own mana plus its payload's as drawn, gates
///   ignored (R-MANA-5: paid up front, the payload then runs free).
fn settle(program: &mut Program) {
    for i in (0..program.nodes.len()).rev() {
        let end = block_end(program, i);
        match program.nodes[i].op {
            Op::Trigger { kind, delay, carrier, .. } => {
                let payload = Span::new(i + 1, draw_extent(program, i + 1, end, 1).0);
                let cost = program.nodes[i].cost + drawn_cost(program, payload);
                // R-VM-11: the recharge is the wand's: a payload's cards add theirs with the trigger.
                let recharge = program.nodes[i].recharge + drawn_sum(program, payload, |n| n.recharge);
                program.nodes[i].op = Op::Trigger { kind, delay, carrier, payload };
                program.nodes[i].cost = cost;
                program.nodes[i].recharge = recharge;
            }
            Op::Logic(l) => {
                let grow = |span: u32, program: &Program| -> u32 {
                    let body_end = (i + 1 + span as usize).min(end);
                    let mut reach = body_end;
                    let mut j = i + 1;
                    while j < body_end {
                        reach = reach.max(unit_end(program, j));
                        j += 1;
                    }
                    (reach.min(end) - i - 1) as u32
                };
                let settled = match l {
                    LogicDef::Gate { cond, span } => LogicDef::Gate { cond, span: grow(span, program) },
                    LogicDef::Loop { span, count, grants_budget } => {
                        LogicDef::Loop { span: grow(span, program), count, grants_budget }
                    }
                    LogicDef::ChargeCounter { n, counter, span } => {
                        LogicDef::ChargeCounter { n, counter, span: grow(span, program) }
                    }
                    LogicDef::KillCombo { n, counter, span } => {
                        LogicDef::KillCombo { n, counter, span: grow(span, program) }
                    }
                    other => other,
                };
                program.nodes[i].op = Op::Logic(settled);
            }
            _ => {}
        }
    }
}

/// The end of what a draw of `budget` actions from `start` takes (R-VM-4),
/// within `end`, and the budget it has left there (0: the draw was done).
pub(crate) fn draw_extent(program: &Program, start: usize, end: usize, budget: u32) -> (usize, u32) {
    let (mut j, mut budget) = (start, budget);
    while j < end && budget > 0 {
        match program.nodes[j].op {
            Op::Multicast { extra, .. } => {
                budget = budget.saturating_add(extra);
                j += 1;
            }
            Op::Fire(_) => {
                budget -= 1;
                j += 1;
            }
            Op::Trigger { .. } | Op::Summon { .. } => {
                budget -= 1;
                j = unit_end(program, j);
            }
            Op::Logic(LogicDef::Loop { .. }) => {
                let (spend, grants) = loop_spend(program, j);
                if !grants {
                    budget = budget.saturating_sub(spend);
                }
                j = unit_end(program, j);
            }
            Op::Split { .. } => break,
            _ => j += 1,
        }
    }
    (j.min(end), budget)
}

/// Mana of `span` as a draw pays it (R-MANA-5): every node once, a loop's
/// body `count` times, a nested trigger with its own payload, a summon its
/// own cost only (its casts pay as they happen).
pub(crate) fn drawn_cost(program: &Program, span: Span) -> f32 {
    drawn_sum(program, span, |n| n.cost)
}

/// A node figure (`of`) summed over `span` as a draw takes it: every node once, a loop's body
/// `count` times, a nested trigger with its own payload (settled into it), a summon alone.
pub(crate) fn drawn_sum(program: &Program, span: Span, of: fn(&Node) -> f32) -> f32 {
    let mut total = 0.0;
    let mut j = span.start as usize;
    while j < span.end as usize {
        let n = &program.nodes[j];
        total += of(n);
        match n.op {
            Op::Trigger { .. } | Op::Summon { .. } => j = unit_end(program, j),
            Op::Logic(LogicDef::Loop { span: body, count, .. }) => {
                let body = Span::new(j + 1, j + 1 + body as usize);
                total += drawn_sum(program, body, of) * count as f32;
                j = body.end as usize;
            }
            _ => j += 1,
        }
    }
    total
}

fn push_once(warnings: &mut Vec<Warning>, w: Warning) {
    if !warnings.contains(&w) {
        warnings.push(w);
    }
}

/// The end of the emitted block containing node `i`: blocks are contiguous,
/// so it is the nearest block end after `i` among the entry spans and the
/// splitter routes.
fn block_end(program: &Program, i: usize) -> usize {
    let mut ends: Vec<usize> = vec![program.main.end as usize];
    ends.extend(program.main_reverse.map(|s| s.end as usize));
    ends.extend(program.on_kill.map(|s| s.end as usize));
    ends.extend(program.on_hit.map(|s| s.end as usize));
    for n in &program.nodes {
        if let Op::Split { upper, lower, .. } = n.op {
            ends.push(upper.end as usize);
            ends.push(lower.end as usize);
        }
    }
    ends.into_iter().filter(|&e| e > i).min().unwrap_or(program.nodes.len())
}

/// The start of the emitted block containing node `i` (see `block_end`).
fn block_start(program: &Program, i: usize) -> usize {
    let mut starts: Vec<usize> = vec![program.main.start as usize];
    starts.extend(program.main_reverse.map(|s| s.start as usize));
    starts.extend(program.on_kill.map(|s| s.start as usize));
    starts.extend(program.on_hit.map(|s| s.start as usize));
    starts.push(program.always.start as usize);
    for n in &program.nodes {
        if let Op::Split { upper, lower, .. } = n.op {
            starts.push(upper.start as usize);
            starts.push(lower.start as usize);
        }
    }
    starts.into_iter().filter(|&s| s <= i).max().unwrap_or(0)
}

fn flatten(route: &Route) -> Vec<Card> {
    let mut cards = route.cards.clone();
    if let Some(split) = &route.split {
        cards.extend(flatten(&split.1));
        cards.extend(flatten(&split.2));
    }
    cards
}
