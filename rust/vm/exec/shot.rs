//! The shot state (R-VM-10) and how a draw puts it into the world: MODIFIER
//! nodes shape it, MULTICAST fans the next actions out, `emit` sends one
//! action with it as an `Emission`.

use super::draw::{Draw, Flow};
use super::{CastOutput, Caster};
use crate::sim::config::Element;
use crate::vm::program::{Drawn, Span};
use crate::vm::spell::{ActionDef, Path, ShotMod, TriggerKind, MAX_FAN};

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
    pub(super) fn apply(&mut self, m: &ShotMod) {
        self.damage_flat += m.damage_flat;
        self.damage_mult *= m.damage_mult;
        self.speed_mult *= m.speed_mult;
        self.lifetime_add += m.lifetime_add;
        self.spread += m.spread_add;
        self.bounce = self.bounce.saturating_add(m.bounce_add);
        self.pierce = self.pierce.saturating_add(m.pierce_add);
        self.homing += m.homing_add;
        self.path = m.path.or(self.path);
        self.element = m.element.or(self.element);
        self.status_chance += m.status_chance_add;
        self.crit += m.crit_add;
        self.knockback += m.knockback_add;
        self.size_mult *= m.size_mult;
        self.lifesteal += m.lifesteal_add;
        self.bound();
    }

    /// Keeps a shot finite however many modifiers a loop stacks (each is
    /// bounded, their product is not): far beyond any sane build, so
    /// nothing valid changes.
    fn bound(&mut self) {
        const MOST: f32 = 1e12;
        for v in [&mut self.damage_flat, &mut self.lifetime_add, &mut self.spread] {
            *v = v.clamp(-MOST, MOST);
        }
        for v in [
            &mut self.damage_mult,
            &mut self.speed_mult,
            &mut self.size_mult,
            &mut self.homing,
            &mut self.status_chance,
            &mut self.crit,
            &mut self.knockback,
            &mut self.lifesteal,
        ] {
            *v = v.min(MOST);
        }
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
    pub trigger: Option<(TriggerKind, f32, Drawn)>,
    /// A summon's program (R-VM-5).
    pub summon: Option<Span>,
}

impl Draw {
    /// MODIFIER: adds to the draw's shot state, and asks for the action it
    /// modifies (so a modifier at the deck's end draws on from the head, R-VM-3).
    pub(super) fn modify(&mut self, m: &ShotMod) -> Flow {
        self.shot.apply(m);
        if let Some(div) = m.divide {
            // R-VM-14: divides in a row multiply.
            let copies = self.divide.0.saturating_mul(div.copies.max(1)).min(MAX_FAN);
            self.divide = (copies, self.divide.1 * div.damage_mult, self.divide.2.max(div.spread));
        }
        self.ask(1);
        Flow::Next
    }

    /// MULTICAST(n): asks for n actions, raising the budget by `extra` =
    /// n − 1; the next `extra + 1` actions fan out over `spread` degrees.
    pub(super) fn multicast(&mut self, extra: u32, spread: f32) -> Flow {
        self.ask(extra + 1);
        self.fan = (extra + 1, spread, 0);
        Flow::Next
    }
}

impl Caster {
    /// One action leaves the draw: it spends a unit of budget and takes the
    /// shot state, its place in the multicast fan and its random spread.
    pub(super) fn emit(
        &mut self,
        spell: u16,
        action: ActionDef,
        d: &mut Draw,
        trigger: Option<(TriggerKind, f32, Drawn)>,
        summon: Option<Span>,
        out: &mut CastOutput,
    ) {
        d.spend();
        let (group, fan_spread, k) = d.fan;
        let fan = if group > 1 {
            d.fan.2 = k + 1;
            if d.fan.2 >= group {
                d.fan = (1, 0.0, 0);
            }
            (k as f32 - (group - 1) as f32 * 0.5) * (fan_spread + d.shot.spread) / group as f32
        } else {
            0.0
        };
        // R-VM-14 divide: the action fires `copies` times (the copies free), each weaker; a summon once.
        let (copies, factor, copy_fan) = std::mem::replace(&mut d.divide, (1, 1.0, 0.0));
        let (copies, factor) = if summon.is_some() { (1, 1.0) } else { (copies, factor) };
        let mut shot = d.shot;
        shot.damage_mult *= factor;
        for c in 0..copies {
            let spread = if copies > 1 { (c as f32 / (copies - 1) as f32 - 0.5) * copy_fan } else { 0.0 };
            let jitter = (action.spread + d.shot.spread) * self.rules.spread_factor() * (self.spread.unit() - 0.5);
            out.emissions.push(Emission {
                spell,
                action,
                shot,
                angle: (fan + spread + jitter).to_radians(),
                trigger,
                summon,
            });
        }
    }
}
