//! What runs later or on an event: a TRIGGER's carrier and its payload
//! (R-VM-4, paid up front, run free), and the core's `on_kill` / `on_hit`
//! entries (R-CORE-2, R-VM-12), each a deck with its own cursor.

use super::draw::{Cast, Draw, End, Flow, Walk};
use super::shot::Shot;
use super::{CastOutput, Caster, Senses, VmEvent, ON_HIT, ON_KILL};
use crate::vm::program::Span;
use crate::vm::spell::{ActionDef, TriggerKind};

impl Caster {
    /// TRIGGER (R-VM-4): the carrier leaves with its kind, delay and
    /// payload; the world runs the payload when the carrier hits, expires or
    /// its timer ends.
    pub(super) fn trigger(
        &mut self,
        spell: u16,
        carrier: ActionDef,
        trigger: (TriggerKind, f32, Span),
        d: &mut Draw,
        out: &mut CastOutput,
    ) -> Flow {
        self.emit(spell, carrier, d, Some(trigger), None, out);
        let (_, _, payload) = trigger;
        // R-VM-4: the cursor passes the payload; the cast goes on.
        Flow::Jump(payload.end)
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
