//! Which cards a cast can ever reach (R-VM-3c): the lab greys the rest.
//!
//! On a deck core the cursor walks every node in turn, so only a node
//! behind an unconditional HALT (the cursor goes home first) is never
//! reached. On a program core (R-VM-3b) every cast restarts at the head
//! with a budget of 1, so a node is reached only if some cast still has
//! budget when it gets there: the walk below follows every way a gate,
//! counter or `halt_if` can go, with the budget each way leaves.
//! Payloads, summon programs and loop bodies are reached with their node.

use super::compile::unit_end;
use super::program::{Op, Program, Span};
use super::spell::LogicDef;

/// A budget above this is as good as unbounded for reaching nodes.
const BUDGET_CAP: u32 = 16;

/// Board slots holding a card that no cast can reach, ascending.
pub fn unreachable_slots(program: &Program, restart: bool) -> Vec<u16> {
    let mut reached = vec![false; program.nodes.len()];
    // The main streams start with the core's spells per cast (R-CORE-1); entries and routes with 1.
    let per_cast = program.spells_per_cast.max(1);
    let entries =
        [(Some(program.main), per_cast), (program.main_reverse, per_cast), (program.on_kill, 1), (program.on_hit, 1)];
    for (deck, budget) in entries {
        if let Some(deck) = deck {
            walk(program, deck, restart, budget, &mut reached);
        }
    }
    let mut slots: Vec<u16> = Vec::new();
    let mut reached_slots: Vec<u16> = Vec::new();
    for (n, &r) in program.nodes.iter().zip(&reached) {
        if r {
            reached_slots.push(n.slot)
        } else {
            slots.push(n.slot)
        }
    }
    // A slot is reached when any of its nodes is (dual_stream copies the deck).
    slots.retain(|s| *s != u16::MAX && !reached_slots.contains(s));
    slots.sort_unstable();
    slots.dedup();
    slots
}

fn mark(reached: &mut [bool], from: usize, to: usize) {
    for r in &mut reached[from..to] {
        *r = true;
    }
}

/// Every (node, budget left) a cast of `deck` can be at; the budget is
/// ignored on a deck core (the next cast goes on from the cursor).
fn walk(program: &Program, deck: Span, restart: bool, budget: u32, reached: &mut [bool]) {
    let end = deck.end as usize;
    let mut seen = vec![[false; BUDGET_CAP as usize + 1]; end.saturating_sub(deck.start as usize) + 1];
    let mut todo = vec![(deck.start as usize, budget)];
    while let Some((pc, budget)) = todo.pop() {
        if pc >= end || (restart && budget == 0) {
            continue;
        }
        let b = if restart { budget.min(BUDGET_CAP) } else { 1 };
        let cell = &mut seen[pc - deck.start as usize][b as usize];
        if *cell {
            continue;
        }
        *cell = true;
        reached[pc] = true;
        let spend = |b: u32| if restart { b - 1 } else { b };
        match program.nodes[pc].op {
            Op::Fire(_) => todo.push((pc + 1, spend(b))),
            Op::Trigger { .. } | Op::Summon { .. } => {
                let unit = unit_end(program, pc);
                mark(reached, pc, unit);
                todo.push((unit, spend(b)));
            }
            Op::Multicast { extra, .. } => todo.push((pc + 1, b.saturating_add(extra))),
            Op::Modify(_) => todo.push((pc + 1, b)),
            Op::Split { upper, lower, .. } => {
                // Each route is a deck of its own with a budget of 1.
                walk(program, upper, restart, 1, reached);
                walk(program, lower, restart, 1, reached);
            }
            Op::Logic(l) => match l {
                LogicDef::Halt => {}
                LogicDef::HaltIf(_) => todo.push((pc + 1, b)),
                LogicDef::Gate { .. } | LogicDef::ChargeCounter { .. } | LogicDef::KillCombo { .. } => {
                    todo.push((pc + 1, b));
                    todo.push((unit_end(program, pc), b));
                }
                LogicDef::Loop { span, count, grants_budget } => {
                    let body_end = pc + 1 + span as usize;
                    mark(reached, pc, body_end);
                    let actions = program.nodes[pc + 1..body_end]
                        .iter()
                        .filter(|n| matches!(n.op, Op::Fire(_) | Op::Summon { .. } | Op::Trigger { .. }))
                        .count() as u32;
                    let left =
                        if grants_budget || !restart { b } else { b.saturating_sub(actions.saturating_mul(count)) };
                    todo.push((body_end, left));
                }
                LogicDef::RegSet { .. } | LogicDef::RegAdd { .. } => todo.push((pc + 1, b)),
            },
        }
    }
}
