//! The wand: what the player fires, and when.
//!
//! `Wand::cast` is the one interface the world calls each tick. Today the
//! only wand wired into the world is the fixed spark bolt of the foundation
//! (one bolt every `cast_delay` at the aim point); the spell VM — `board`,
//! `compile`, `program`, `exec`, `mana` — becomes another variant behind
//! the same call.

pub mod board;
pub mod compile;
pub mod exec;
pub mod mana;
pub mod program;
pub mod reach;
pub mod sample;
pub mod spell;
pub mod timeline;

use crate::sim::config::Element;
use crate::sim::events::{Event, EventKind};
use crate::sim::pools::{NewProjectile, Owner, Projectiles};

/// A fixed spell fired on a timer: the foundation's stand-in for the VM.
#[derive(Clone, Debug, PartialEq)]
pub struct FixedWand {
    /// Seconds between casts.
    pub cast_delay: f32,
    pub damage: f32,
    /// px/s
    pub speed: f32,
    pub radius: f32,
    /// seconds
    pub lifetime: f32,
    pub pierce: u32,
    pub bounces: u32,
    pub element: Element,
    /// Which spell to draw.
    pub look: u16,
}

#[derive(Clone, Debug)]
pub enum Wand {
    /// Fires nothing (the stress workload, or before a wand is set).
    Unarmed,
    Fixed {
        spell: FixedWand,
        timer: f32,
    },
    /// A compiled program with its mana pool (the spell VM); the world
    /// casts it (`sim/world/spells.rs`).
    Program(Box<exec::Caster>),
}

/// What a cast needs to know about the world around the player.
pub struct CastContext<'a> {
    pub dt: f32,
    pub origin: (f32, f32),
    /// Where to shoot, if there is anything to shoot at.
    pub aim: Option<(f32, f32)>,
    pub crit_chance: f32,
    pub projectiles: &'a mut Projectiles,
    pub events: &'a mut Vec<Event>,
}

impl Wand {
    pub fn fixed(spell: FixedWand) -> Wand {
        Wand::Fixed { spell, timer: 0.0 }
    }

    /// Advances the cast timer one tick and fires when it is due and there
    /// is something to aim at. Returns the number of projectiles fired.
    pub fn cast(&mut self, ctx: CastContext<'_>) -> u32 {
        match self {
            Wand::Unarmed | Wand::Program(_) => 0,
            Wand::Fixed { spell, timer } => {
                *timer -= ctx.dt;
                if *timer > 0.0 {
                    return 0;
                }
                let Some((ax, ay)) = ctx.aim else {
                    // Nothing to shoot: stay ready, fire the moment a target appears.
                    *timer = 0.0;
                    return 0;
                };
                *timer += spell.cast_delay;
                let (ox, oy) = ctx.origin;
                let (dx, dy) = (ax - ox, ay - oy);
                let d = (dx * dx + dy * dy).sqrt();
                let (ux, uy) = if d > 1e-6 { (dx / d, dy / d) } else { (1.0, 0.0) };
                let v = spell.speed * ctx.dt;
                ctx.projectiles.push(NewProjectile {
                    x: ox,
                    y: oy,
                    vx: ux * v,
                    vy: uy * v,
                    radius: spell.radius,
                    damage: spell.damage,
                    crit_chance: ctx.crit_chance,
                    element: spell.element,
                    pierce: spell.pierce,
                    bounces: spell.bounces,
                    life: spell.lifetime,
                    owner: Owner::Player,
                    look: spell.look,
                    behaviour: Default::default(),
                });
                ctx.events.push(Event::new(EventKind::ProjectileFired, spell.look as f32, 0.0, ox, oy, 1.0));
                1
            }
        }
    }

    pub fn timer(&self) -> f32 {
        match self {
            Wand::Unarmed => 0.0,
            Wand::Fixed { timer, .. } => *timer,
            Wand::Program(c) => c.timer,
        }
    }
}
