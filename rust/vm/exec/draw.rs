//! A draw through a deck (R-VM-3, R-VM-8): the node loop with its step and
//! action budgets, loops and wrap, where the cursor rests after it, the
//! splitter routes a cast waits on, and the dispatch of each node to its
//! family (`shot`, `actions`, `triggers`, `logic`).

use super::shot::Shot;
use super::{CastOutput, Caster, Senses, VmEvent};
use crate::vm::compile::unit_end;
use crate::vm::mana::Paid;
use crate::vm::program::{Node, Op, Span};

/// How a draw walks its deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Walk {
    /// R-VM-3: from the cursor; off the end, the draws a card asked for wrap
    /// once and draw on up to where it began (the root budget's do not).
    Deck,
    /// R-VM-3b: from the head; off the end it stops (and recharges).
    Program,
    /// A payload: once through its span, no cursor.
    Once,
}

/// One draw through a deck: its own shot state and action budget.
#[derive(Clone, Debug)]
pub(super) struct Draw {
    pub(super) deck: Span,
    pub(super) pc: u32,
    /// Where the draw began: after a wrap it stops here (R-VM-3).
    pub(super) began: u32,
    /// The draw reached the deck's end (a wrapping cast: the cursor goes home, R-VM-3).
    pub(super) wrapped: bool,
    pub(super) walk: Walk,
    pub(super) shot: Shot,
    /// Actions still to fire: the root draw's (`spells_per_cast`, bonus) and
    /// the cards' (`asked`).
    pub(super) budget: u32,
    /// Of `budget`, the draws a card asked for — a multicast's extra actions,
    /// a modifier's action, a budget-granting loop's — which draw on from the
    /// head at the deck's end; the root draw's own never do (R-VM-3, Noita).
    pub(super) asked: u32,
    /// Multicast fan: (size of the group, spread in degrees, index next).
    pub(super) fan: (u32, f32, u32),
    /// R-VM-14 divide: how many times the next action fires, each one's
    /// damage factor and the fan of the copies (degrees).
    pub(super) divide: (u32, f32, f32),
    /// Active loops: (body start, body end, iterations left).
    pub(super) loops: Vec<(u32, u32, u32)>,
}

impl Draw {
    pub(super) fn new(deck: Span, from: u32, walk: Walk, shot: Shot, budget: u32) -> Draw {
        Draw {
            deck,
            pc: from,
            began: from,
            wrapped: false,
            walk,
            shot,
            budget,
            asked: 0,
            fan: (1, 0.0, 0),
            divide: (1, 1.0, 0.0),
            loops: Vec::new(),
        }
    }

    /// A card drawn that asks for `n` more draws (a modifier 1, a multicast
    /// its count): it takes one draw of the budget — the innermost asked-for
    /// one first, as Noita serves its draws — and what it asks for is asked.
    pub(super) fn ask(&mut self, n: u32) {
        if self.budget == 0 {
            // Inside a loop drawn whole, past the budget: no draw to take, and a
            // multicast's extra actions still fire (as before the deck asked).
            self.grant(n.saturating_sub(1));
            return;
        }
        self.asked = self.asked.saturating_sub(1).saturating_add(n);
        self.budget = self.budget.saturating_add(n) - 1;
    }

    /// An action leaves the draw: one draw of the budget spent.
    pub(super) fn spend(&mut self) {
        self.budget -= 1;
        self.asked = self.asked.saturating_sub(1).min(self.budget);
    }

    /// A budget-granting loop's actions (R-VM-7): draws asked for, like a multicast's.
    pub(super) fn grant(&mut self, n: u32) {
        self.budget = self.budget.saturating_add(n);
        self.asked = self.asked.saturating_add(n);
    }
}

/// How a draw ended, and where its cursor rests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum End {
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
pub(super) struct Route {
    pub(super) deck: usize,
    pub(super) span: Span,
    pub(super) shot: Shot,
}

/// The running totals of one cast across its draws.
pub(super) struct Cast {
    pub(super) delay: f32,
    /// R-VM-11, R-VM-14: the recharge adds of every card the cast drew.
    pub(super) recharge: f32,
    pub(super) steps: u32,
    pub(super) wrapped: bool,
    pub(super) routes: Vec<Route>,
    /// The paying draws run at the tab's scale; payloads are free.
    pub(super) pay: bool,
}

impl Cast {
    pub(super) fn new(steps: u32, pay: bool) -> Cast {
        Cast { delay: 0.0, recharge: 0.0, steps, wrapped: false, routes: Vec::new(), pay }
    }

    /// R-BOARD-3 SPLIT: both routes wait to be drawn as branches of this
    /// cast, each a deck with a copy of the shot state; the draw that met
    /// the splitter ends.
    fn split(&mut self, upper: Span, lower: Span, deck: u16, d: &Draw) -> Flow {
        // R-BOARD-3: the upper route is drawn first.
        for (k, route) in [(1, lower), (0, upper)] {
            self.routes.push(Route { deck: deck as usize + k, span: route, shot: d.shot });
        }
        Flow::EndDraw
    }
}

impl Caster {
    /// One draw of deck `deck` (its cursor, or the head on a program core),
    /// leaving its cursor where the draw stopped (R-VM-3, R-MANA-3: past an
    /// unpaid card; HALT: home).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn draw_deck(
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
            draw.wrapped = true;
        }
        if draw.wrapped {
            // R-VM-3: a wrapping cast sends the cursor home (Noita's reload
            // returns every card to the deck).
            cursor = span.start;
        }
        // A HALT goes home without a reload — unless the draw had already wrapped (the reload began).
        cast.wrapped |= draw.wrapped;
        self.cursors[deck] = cursor;
        end
    }

    /// The splitter routes a cast reached, each a deck of its own with a
    /// copy of the shot state and a budget of 1 (R-BOARD-3).
    pub(super) fn draw_routes(
        &mut self,
        mut end: End,
        cast: &mut Cast,
        senses: &mut Senses,
        out: &mut CastOutput,
    ) -> End {
        while end == End::Done {
            let Some(route) = cast.routes.pop() else { break };
            end = self.draw_deck(route.deck, route.span, 1, route.shot, cast, senses, out);
        }
        cast.routes.clear();
        end
    }

    pub(super) fn finish(&self, end: End, out: &mut CastOutput) {
        match end {
            End::Exhausted => out.events.push(VmEvent::CpuExhausted),
            End::Abandoned { node } => out.events.push(VmEvent::CastAbandoned { node }),
            End::Done | End::Halted => {}
        }
    }

    /// Runs one draw until its budget is spent (outside loops), it runs out
    /// of deck, or a node ends it.
    pub(super) fn draw(&mut self, d: &mut Draw, cast: &mut Cast, senses: &mut Senses, out: &mut CastOutput) -> End {
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
                        Walk::Deck if !d.wrapped && !from_head && d.asked > 0 => {
                            // Draws a card asked for draw on from the head;
                            // the root draw's budget left does not (R-VM-3).
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

    /// One node taking effect: the budget and payment every node shares, then
    /// its family's handler.
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
        if node.resets_delay {
            cast.delay = 0.0; // R-VM-14: the chainsaw sets the delay so far to zero
        }
        cast.delay += node.delay;
        cast.recharge += node.recharge;
        match node.op {
            Op::Modify(m) => {
                if m.mana_gain > 0.0 {
                    // R-VM-14 add_mana: for the cards after it in this cast
                    // (an always-cast one too; a payload's draws pay nothing).
                    self.mana.grant(m.mana_gain);
                }
                d.modify(&m)
            }
            Op::Multicast { extra, spread } => d.multicast(extra, spread),
            Op::Fire(action) => self.fire(node.spell, action, d, out),
            Op::Summon { action, program } => self.summon(node.spell, action, program, d, out),
            Op::Trigger { .. } => self.trigger(node, d, cast, senses, out),
            Op::Logic(logic) => self.logic(logic, index, d, senses),
            Op::Split { upper, lower, deck } => cast.split(upper, lower, deck, d),
        }
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
}

/// A cursor at or past its deck's end rests at the head.
pub(super) fn wrap(cursor: u32, deck: Span) -> u32 {
    if cursor < deck.start || cursor >= deck.end {
        deck.start
    } else {
        cursor
    }
}

/// What a node tells the draw loop to do next.
pub(super) enum Flow {
    Next,
    Jump(u32),
    EndDraw,
    Halt,
    Abandon,
}
