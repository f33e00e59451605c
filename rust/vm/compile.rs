//! Compile (R-VM-1): a core's board with cards in its slots → a `Program`
//! and the lab's diagnostics. Entry paths follow the board's edges
//! (R-BOARD-1); a splitter card on a slot with two outgoing edges makes two
//! routes (R-BOARD-3); adjacency bonuses are baked into node numbers
//! (R-BOARD-2); resonance recipes fuse cards (R-RES-1); cards past the
//! core's CPU limit are dropped (R-VM-9).

use super::board::{CoreDef, Entry};
use super::program::{Diagnostics, Node, Op, Program, Span, Warning};
use super::spell::{Effect, LogicDef, SpellDef};

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

/// A linear run of cards, optionally ending in a split into two routes.
#[derive(Clone, Debug, Default)]
struct Route {
    cards: Vec<Card>,
    split: Option<Box<(Route, Route)>>,
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
        if cards.len() > core.capacity() {
            return Err(format!("{} cards for a core of {} slots", cards.len(), core.capacity()));
        }
        if let Some(bad) = cards.iter().flatten().find(|&&s| s as usize >= self.spells.len()) {
            return Err(format!("unknown spell index {bad}"));
        }
        let mut diagnostics = Diagnostics { cpu_limit: core.cpu_limit, ..Default::default() };
        let mut cpu_left = core.cpu_limit as i64;
        let mut routes = Vec::new();
        for entry in [Entry::Main, Entry::OnKill, Entry::OnHit] {
            let route = core.entry(entry).map(|slot| {
                let mut route = self.walk(core, cards, slot, &mut cpu_left, &mut diagnostics);
                self.fuse(&mut route, &mut diagnostics);
                self.hoist_trailing_modifiers(&mut route);
                route
            });
            routes.push(route);
        }
        diagnostics.cpu_used = cards.iter().flatten().map(|&s| self.spells[s as usize].cpu).sum();
        if diagnostics.cpu_used * 5 > core.cpu_limit * 4 {
            diagnostics.warnings.push(Warning::CpuHigh);
        }
        if !diagnostics.dropped_slots.is_empty() {
            diagnostics.warnings.push(Warning::CpuExceeded);
        }

        let mut program = Program::default();
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
        self.warn(&program, &mut diagnostics);
        diagnostics.mana_per_cast = self.cast_cost(&program, program.main);
        program.diagnostics = diagnostics;
        Ok(program)
    }

    /// Follows the board from `slot`, taking cards until the CPU runs out.
    fn walk(&self, core: &CoreDef, cards: &[Option<u16>], start: usize, cpu_left: &mut i64, d: &mut Diagnostics) -> Route {
        let mut route = Route::default();
        let mut slot = Some(start);
        // Boards are validated acyclic; the bound makes a bad board finite anyway.
        let mut guard = core.capacity() + 1;
        while let Some(s) = slot {
            guard -= 1;
            if guard == 0 {
                break;
            }
            let next = &core.slots[s].next;
            if let Some(Some(spell)) = cards.get(s) {
                let def = &self.spells[*spell as usize];
                *cpu_left -= def.cpu as i64;
                if *cpu_left < 0 {
                    d.dropped_slots.push(s as u16);
                } else {
                    let is_splitter = matches!(def.effect, Effect::Modifier(m) if m.splitter);
                    if is_splitter && next.len() == 2 {
                        let upper = self.walk(core, cards, next[0], cpu_left, d);
                        let lower = self.walk(core, cards, next[1], cpu_left, d);
                        route.split = Some(Box::new((upper, lower)));
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
            self.fuse(&mut split.0, d);
            self.fuse(&mut split.1, d);
        }
    }

    /// Modifiers placed after the last action of a route (with no split to
    /// carry them on) would modify nothing; they shape that last action
    /// instead, as if placed just before it. The design document's vampire
    /// turret, `[…][chain_bolt][vampiric]`, is written that way (§3.8).
    fn hoist_trailing_modifiers(&self, route: &mut Route) {
        if let Some(split) = route.split.as_mut() {
            self.hoist_trailing_modifiers(&mut split.0);
            self.hoist_trailing_modifiers(&mut split.1);
            return;
        }
        let is_action = |c: &Card| self.spells[c.spell as usize].is_action();
        let Some(last) = route.cards.iter().rposition(is_action) else { return };
        let tail = &route.cards[last + 1..];
        if tail.is_empty() || !tail.iter().all(|c| matches!(self.spells[c.spell as usize].effect, Effect::Modifier(_))) {
            return;
        }
        // Rotate the action to the end: modifiers keep their order, before it.
        route.cards[last..].rotate_left(1);
    }

    /// Appends a route's nodes (and after them its two routes') and returns
    /// its span. Payload, summon, loop and gate spans end at the route's end.
    fn emit(&self, route: &Route, program: &mut Program) -> Span {
        let start = program.nodes.len();
        let end = start + route.cards.len() + route.split.is_some() as usize;
        for (i, card) in route.cards.iter().enumerate() {
            let at = start + i;
            let def = &self.spells[card.spell as usize];
            let rest = Span::new(at + 1, end);
            let clamp = |span: u32| span.min((end - at - 1) as u32);
            let op = match def.effect {
                Effect::Action(a) if a.kind == super::spell::ActionKind::Summon => {
                    Op::Summon { action: a.scaled(card.mult), program: rest }
                }
                Effect::Action(a) => Op::Fire(a.scaled(card.mult)),
                Effect::Modifier(m) => Op::Modify(m.scaled(card.mult)),
                Effect::Multicast { count, spread } => {
                    let n = ((count as f32) * card.mult).round().max(1.0) as u32;
                    Op::Multicast { extra: n - 1, spread }
                }
                Effect::Trigger(t) => Op::Trigger { kind: t.kind, delay: t.delay, carrier: t.carrier.scaled(card.mult), payload: rest },
                Effect::Logic(l) => Op::Logic(match l {
                    LogicDef::Gate { cond, span } => LogicDef::Gate { cond, span: clamp(span) },
                    LogicDef::Loop { span, count, grants_budget } => {
                        let count = ((count as f32) * card.mult).round().max(1.0) as u32;
                        LogicDef::Loop { span: clamp(span), count, grants_budget }
                    }
                    LogicDef::ChargeCounter { n, .. } => {
                        program.counters += 1;
                        LogicDef::ChargeCounter { n, counter: program.counters - 1 }
                    }
                    other => other,
                }),
            };
            program.nodes.push(Node { op, spell: card.spell, slot: card.slot, cost: def.mana_cost, delay: def.cast_delay });
        }
        if let Some(split) = &route.split {
            let at = program.nodes.len();
            program.nodes.push(Node {
                op: Op::Split { upper: Span::default(), lower: Span::default() },
                spell: u16::MAX,
                slot: u16::MAX,
                cost: 0.0,
                delay: 0.0,
            });
            let upper = self.emit(&split.0, program);
            let lower = self.emit(&split.1, program);
            program.nodes[at].op = Op::Split { upper, lower };
        }
        Span::new(start, end)
    }

    fn route_has_action(&self, route: &Route) -> bool {
        route.cards.iter().any(|c| self.spells[c.spell as usize].is_action())
            || route.split.as_ref().is_some_and(|s| self.route_has_action(&s.0) || self.route_has_action(&s.1))
    }

    /// R-VM-1 warnings: a trigger with no action in its payload; a modifier
    /// with no action after it in its block.
    fn warn(&self, program: &Program, d: &mut Diagnostics) {
        let fires = |span: Span| -> bool {
            program.nodes[span.start as usize..span.end as usize].iter().any(|n| {
                matches!(n.op, Op::Fire(_) | Op::Summon { .. } | Op::Trigger { .. } | Op::Split { .. })
            })
        };
        for (i, n) in program.nodes.iter().enumerate() {
            match n.op {
                Op::Trigger { payload, .. } if !fires(payload) => push_once(&mut d.warnings, Warning::TriggerWithoutAction),
                Op::Modify(_) => {
                    let end = block_end(program, i);
                    if !fires(Span::new(i + 1, end)) {
                        push_once(&mut d.warnings, Warning::ModifierModifiesNothing);
                    }
                }
                _ => {}
            }
        }
    }

    /// Mana of one pass over the nodes that run at cast time (R-MANA-5):
    /// payloads and summon programs excluded, both splitter routes included.
    fn cast_cost(&self, program: &Program, span: Span) -> f32 {
        let mut total = 0.0;
        let mut i = span.start as usize;
        while i < span.end as usize {
            let n = &program.nodes[i];
            total += n.cost;
            match n.op {
                Op::Trigger { .. } | Op::Summon { .. } => break,
                Op::Split { upper, lower } => {
                    total += self.cast_cost(program, upper) + self.cast_cost(program, lower);
                }
                _ => {}
            }
            i += 1;
        }
        total
    }
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
        if let Op::Split { upper, lower } = n.op {
            ends.push(upper.end as usize);
            ends.push(lower.end as usize);
        }
    }
    ends.into_iter().filter(|&e| e > i).min().unwrap_or(program.nodes.len())
}

fn flatten(route: &Route) -> Vec<Card> {
    let mut cards = route.cards.clone();
    if let Some(split) = &route.split {
        cards.extend(flatten(&split.0));
        cards.extend(flatten(&split.1));
    }
    cards
}
