//! ACTION nodes: FIRE puts a projectile, zone or blast into the world;
//! SUMMON (R-VM-5) puts a summon there with the rest of its block as its
//! program, whose casts `cast_summon` runs at the summon's share of the cost.

use super::draw::{wrap, Cast, Draw, End, Flow, Walk};
use super::shot::Shot;
use super::{CastOutput, Caster, Senses, VmEvent};
use crate::vm::program::Span;
use crate::vm::spell::ActionDef;

impl Caster {
    /// FIRE: the action leaves with the draw's shot state.
    pub(super) fn fire(&mut self, spell: u16, action: ActionDef, d: &mut Draw, out: &mut CastOutput) -> Flow {
        self.emit(spell, action, d, None, None, out);
        Flow::Next
    }

    /// SUMMON (R-VM-5): the summon leaves with its program.
    pub(super) fn summon(
        &mut self,
        spell: u16,
        action: ActionDef,
        program: Span,
        d: &mut Draw,
        out: &mut CastOutput,
    ) -> Flow {
        self.emit(spell, action, d, None, Some(program), out);
        // R-VM-5: the main cursor passes the summon's program.
        Flow::Jump(program.end)
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
            // R-VM-3, R-VM-5: a summon's deck reloads as every deck does: a wrap sends it home.
            _ if draw.wrapped => program.start,
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
}
