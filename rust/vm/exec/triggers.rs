//! What runs later or on an event: a TRIGGER's carrier and its payload
//! (R-VM-4, paid up front, run free), and the core's `on_kill` / `on_hit`
//! entries (R-CORE-2, R-VM-12), each a deck with its own cursor.

use super::draw::{Cast, Draw, End, Flow, Walk};
use super::shot::Shot;
use super::{CastOutput, Caster, Senses, VmEvent, ON_HIT, ON_KILL};
use crate::vm::compile::{draw_extent, drawn_cost, drawn_sum};
use crate::vm::mana::Paid;
use crate::vm::program::{Drawn, Node, Op, Span};

/// Where a trigger's payload finds its cards (`Caster::payload_from_head`).
enum Head {
    Within,
    Drawn(Span),
    Unpaid,
}

impl Caster {
    /// TRIGGER (R-VM-4): the carrier leaves with its kind, delay and
    /// payload; the world runs the payload when the carrier hits, expires or
    /// its timer ends. The cursor passes the payload and the cast goes on.
    pub(super) fn trigger(
        &mut self,
        node: &Node,
        d: &mut Draw,
        cast: &mut Cast,
        senses: &mut Senses,
        out: &mut CastOutput,
    ) -> Flow {
        let Op::Trigger { kind, delay, carrier, payload } = node.op else { return Flow::Next };
        let from_head = match self.payload_from_head(payload, d, cast.pay, senses) {
            Head::Within => None,
            Head::Drawn(head) => Some(head),
            // R-MANA-5: a payload is paid whole when its carrier fires, or the cast is abandoned there.
            Head::Unpaid => return Flow::Abandon,
        };
        if let Some(head) = from_head {
            // R-VM-11: what the payload drew from the head adds its recharge too.
            cast.recharge += drawn_sum(&self.program, head, |n| n.recharge);
        }
        let drawn = Drawn { first: payload, from_head: from_head.unwrap_or_default() };
        self.emit(node.spell, carrier, d, Some((kind, delay, drawn)), None, out);
        match from_head {
            // The payload ran off the end: a wrapping cast, and what it took
            // from the head is drawn; the cast's own budget goes on after it.
            Some(head) => {
                d.wrapped = true;
                Flow::Jump(head.end.max(d.deck.start))
            }
            None => Flow::Jump(payload.end),
        }
    }

    /// R-VM-4: a payload that runs off the end of a deck with its draw
    /// unfinished draws on from the head like any draw — never reaching a card
    /// this cast already ran — and that makes the cast a wrapping cast.
    /// `Within`: the payload is drawn within its span (or cannot wrap: a program
    /// core, R-VM-3b; a payload inside a payload; a draw already past a wrap or
    /// inside a loop, drawn whole). `Drawn(head)`: the cards taken from the
    /// head, paid here as the rest of the payload was with its trigger
    /// (R-MANA-5). `Unpaid`: the pool could not pay them (nothing was taken).
    fn payload_from_head(&mut self, payload: Span, d: &Draw, pay: bool, senses: &mut Senses) -> Head {
        // Inside a loop (drawn whole) the head would run again on the loop's next round: no wrap there.
        if d.walk != Walk::Deck || d.wrapped || payload.end != d.deck.end || !d.loops.is_empty() {
            return Head::Within;
        }
        let (_, left) = draw_extent(&self.program, payload.start as usize, payload.end as usize, 1);
        if left == 0 {
            return Head::Within;
        }
        let (start, stop) = (d.deck.start as usize, d.began as usize);
        let head = Span::new(start, draw_extent(&self.program, start, stop, left).0.max(start));
        if pay && !head.is_empty() {
            let cost = drawn_cost(&self.program, head);
            if self.mana.spend(cost, self.infinite_spells, &mut senses.hp) == Paid::Refused {
                return Head::Unpaid;
            }
        }
        Head::Drawn(head)
    }

    /// A trigger's payload (R-VM-4): once through its cards with a budget of
    /// 1 — its span, then what it drew from the head —, free: its trigger
    /// paid for it when the carrier fired (R-MANA-5).
    pub fn run_free(&mut self, drawn: impl Into<Drawn>, senses: &mut Senses, out: &mut CastOutput) {
        let drawn = drawn.into();
        let mut cast = Cast::new(self.step_budget(), false);
        let mut draw = Draw::new(drawn.first, drawn.first.start, Walk::Once, Shot::default(), 1);
        let mut end = self.draw(&mut draw, &mut cast, senses, out);
        if end == End::Done && draw.budget > 0 && !drawn.from_head.is_empty() {
            // On from the head, with the shot state the span built.
            draw.deck = drawn.from_head;
            draw.pc = drawn.from_head.start;
            draw.began = drawn.from_head.start;
            end = self.draw(&mut draw, &mut cast, senses, out);
        }
        let end = self.draw_routes(end, &mut cast, senses, out);
        if end == End::Exhausted {
            out.events.push(VmEvent::CpuExhausted);
        }
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
}
