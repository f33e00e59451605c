//! LOGIC nodes (R-VM-6/7, R-REG-1/2): gates and their retest when a cast
//! starts inside one, halts, loops, registers, the packaged counters, and
//! the conditions they test against the player's `Senses`.

use super::draw::{Draw, Flow};
use super::{Caster, Senses};
use crate::vm::compile::unit_end;
use crate::vm::program::Op;
use crate::vm::spell::{Cond, LogicDef};

impl Caster {
    /// A LOGIC node taking effect (R-VM-6/7, R-REG-1/2).
    pub(super) fn logic(&mut self, logic: LogicDef, index: u32, d: &mut Draw, senses: &Senses) -> Flow {
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
                    d.grant(actions.saturating_mul(count));
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

    /// Whether a LOGIC card's condition holds (R-VM-6, R-REG-1).
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

    /// R-VM-3: a cast that starts inside a gate's (or counter's) span
    /// retests it, outermost first; a false one sends the draw past its span.
    pub(super) fn retest_gates(&mut self, draw: &mut Draw, senses: &Senses) {
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
}
