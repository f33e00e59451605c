//! Struct-of-arrays pools: one column per field, live entities packed in
//! `0..len`, removal by swap-remove (`compact`), ids from `IdMap`.
//! Columns keep their capacity, so a steady-state frame allocates nothing.

use super::config::Element;
use super::ids::{Id, IdMap};
use crate::vm::program::Span;
use crate::vm::spell::TriggerKind;

/// How many recently struck enemies a projectile remembers (one hit per
/// projectile per enemy). Pierce beyond this may re-hit an enemy struck
/// more than this many hits ago, which needs a projectile to double back.
pub const HIT_MEMORY: usize = 4;

/// Runs `$body` once per column name, for the pool's bulk operations.
macro_rules! each_column {
    ($self:ident, $col:ident => $body:expr; $($name:ident),*) => {
        $( { let $col = &mut $self.$name; $body; } )*
    };
}

/// Where `compact` has work to start, if anywhere. Most frames kill
/// nothing: one scan of the flags (which the compiler vectorises) instead
/// of the element-by-element swap-remove walk.
fn first_dead(dead: &[bool]) -> Option<usize> {
    dead.iter().position(|&d| d)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Owner {
    Player = 0,
    Enemy = 1,
}

#[derive(Clone, Debug, Default)]
pub struct Enemies {
    pub ids: IdMap,
    pub x: Vec<f32>,
    pub y: Vec<f32>,
    pub radius: Vec<f32>,
    /// px per tick
    pub speed: Vec<f32>,
    pub hp: Vec<f32>,
    pub hp_max: Vec<f32>,
    pub kind: Vec<u16>,
    pub elite: Vec<bool>,
    /// Seconds left of the vulnerable / weak statuses.
    pub vulnerable: Vec<f32>,
    pub weak: Vec<f32>,
    /// Seconds to the next shot (kinds with an `attack`; unused otherwise).
    pub cooldown: Vec<f32>,
    /// Born of a split: never splits again.
    pub offspring: Vec<bool>,
    /// R-DMG-2 statuses: seconds left of each (0 = none).
    pub burn: Vec<f32>,
    pub chill: Vec<f32>,
    pub frozen: Vec<f32>,
    pub shock: Vec<f32>,
    pub poison: Vec<f32>,
    pub wet: Vec<f32>,
    /// Chills gathered toward a freeze; poison stacks.
    pub chills: Vec<u8>,
    pub poison_stacks: Vec<u8>,
    /// Auto-aim: until this frame, shots in flight are expected to kill
    /// the enemy, so the wand aims at another (0 = never claimed).
    pub claimed_until: Vec<u64>,
    /// The frame after the last hit that dealt damage (0 = never): the
    /// renderer's hit flash (R-FEEL-1). Presentation only, not hashed.
    pub hit_frame: Vec<u64>,
    /// Killed this frame, removed by `compact` at the end of the step.
    pub dead: Vec<bool>,
}

pub struct NewEnemy {
    pub x: f32,
    pub y: f32,
    pub radius: f32,
    pub speed: f32,
    pub hp: f32,
    pub kind: u16,
    pub elite: bool,
    pub cooldown: f32,
    pub offspring: bool,
}

impl Enemies {
    pub fn len(&self) -> usize {
        self.x.len()
    }

    pub fn is_empty(&self) -> bool {
        self.x.is_empty()
    }

    pub fn push(&mut self, e: NewEnemy) -> Id {
        let id = self.ids.push();
        self.x.push(e.x);
        self.y.push(e.y);
        self.radius.push(e.radius);
        self.speed.push(e.speed);
        self.hp.push(e.hp);
        self.hp_max.push(e.hp);
        self.kind.push(e.kind);
        self.elite.push(e.elite);
        self.vulnerable.push(0.0);
        self.weak.push(0.0);
        self.cooldown.push(e.cooldown);
        self.offspring.push(e.offspring);
        each_column!(self, c => c.push(0.0); burn, chill, frozen, shock, poison, wet);
        self.chills.push(0);
        self.poison_stacks.push(0);
        self.claimed_until.push(0);
        self.hit_frame.push(0);
        self.dead.push(false);
        id
    }

    fn swap_remove(&mut self, i: usize) {
        self.ids.swap_remove(i);
        each_column!(self, c => { c.swap_remove(i); }; x, y, radius, speed, hp, hp_max);
        each_column!(self, c => { c.swap_remove(i); }; vulnerable, weak, cooldown);
        self.kind.swap_remove(i);
        self.elite.swap_remove(i);
        self.offspring.swap_remove(i);
        each_column!(self, c => { c.swap_remove(i); }; burn, chill, frozen, shock, poison, wet, chills, poison_stacks);
        self.claimed_until.swap_remove(i);
        self.hit_frame.swap_remove(i);
        self.dead.swap_remove(i);
    }

    /// Removes the dead, in a deterministic order.
    pub fn compact(&mut self) {
        let Some(mut i) = first_dead(&self.dead) else {
            return;
        };
        while i < self.len() {
            if self.dead[i] {
                self.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }

    pub fn clear(&mut self) {
        self.ids.clear();
        each_column!(self, c => c.clear(); x, y, radius, speed, hp, hp_max, vulnerable, weak, cooldown);
        each_column!(self, c => c.clear(); burn, chill, frozen, shock, poison, wet, chills, poison_stacks);
        self.kind.clear();
        self.elite.clear();
        self.offspring.clear();
        self.claimed_until.clear();
        self.hit_frame.clear();
        self.dead.clear();
    }
}

#[derive(Clone, Debug, Default)]
pub struct Projectiles {
    pub ids: IdMap,
    pub x: Vec<f32>,
    pub y: Vec<f32>,
    /// px per tick
    pub vx: Vec<f32>,
    pub vy: Vec<f32>,
    pub radius: Vec<f32>,
    pub damage: Vec<f32>,
    pub crit_chance: Vec<f32>,
    pub element: Vec<Element>,
    /// Enemies it may still strike (pierce + 1), and that number at spawn.
    pub hits_left: Vec<u32>,
    pub hits_at_spawn: Vec<u32>,
    /// Wall bounces left; at 0 a projectile that reaches a wall vanishes.
    pub bounces: Vec<u32>,
    /// Seconds left to live (infinity for the stress workload).
    pub life: Vec<f32>,
    pub owner: Vec<Owner>,
    /// What to draw (spell index for the player's, enemy kind for enemies').
    pub look: Vec<u16>,
    pub memory: Vec<[Id; HIT_MEMORY]>,
    /// What spells add beyond flying and striking (rare: most are plain).
    pub behaviour: Vec<Behaviour>,
    /// `!behaviour.is_plain()` at spawn: one byte the per-frame passes test
    /// instead of the 68-byte behaviour (20k projectiles: 20 KB, not 1.4 MB).
    pub special: Vec<bool>,
    /// R-END-3 mirror world: its first enemy hit turned it back toward the player already.
    pub mirrored: Vec<bool>,
    pub dead: Vec<bool>,
}

/// A trigger's payload riding on its carrier (R-VM-4).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Payload {
    pub kind: TriggerKind,
    /// Seconds left for a timer trigger.
    pub timer: f32,
    pub span: Span,
}

/// Spell behaviours of a projectile (R-VM-10): kept in one column so the
/// hot loops over plain projectiles never read them.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Behaviour {
    pub payload: Option<Payload>,
    /// Explodes for its damage within this radius on hit and on expiry.
    pub explode_radius: f32,
    /// Jumps on to this many more enemies within `chain_range` on hit.
    pub chain: u16,
    pub chain_range: f32,
    /// Fraction of damage dealt healed on the player.
    pub lifesteal: f32,
    /// Turn rate toward the nearest enemy, 0..1 of the way per tick.
    pub homing: f32,
    /// Shove (px) given to a struck enemy along the projectile's heading.
    pub knockback: f32,
    /// Sine path: sideways wobble (R-VM-10 `Sin(Time)`).
    pub sine: bool,
    /// Orbit path: circles the player (R-VM-10 `orbit`).
    pub orbit: Option<Orbiting>,
    pub age: f32,
}

/// An orbiting shot's course, fixed at spawn: where it is follows from its
/// age and where the player is, so it carries no state of its own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Orbiting {
    /// The ring's radius, px from the player's centre.
    pub radius: f32,
    /// rad/s around the player (positive: clockwise on screen).
    pub angular_speed: f32,
    /// px/s at which it closes on the ring (the shot's speed).
    pub speed: f32,
    /// Where it set out, around the player: angle (rad) and distance (px).
    pub start_angle: f32,
    pub start_distance: f32,
}

impl Orbiting {
    /// Its offset from the player `age` seconds after spawn: out (or in)
    /// to the ring at its speed, around at its angular speed meanwhile.
    pub fn offset(&self, age: f32) -> (f32, f32) {
        let travelled = self.speed * age;
        let d = if self.start_distance < self.radius {
            (self.start_distance + travelled).min(self.radius)
        } else {
            (self.start_distance - travelled).max(self.radius)
        };
        let a = self.start_angle + self.angular_speed * age;
        (d * libm::cosf(a), d * libm::sinf(a))
    }
}

impl Behaviour {
    pub fn is_plain(&self) -> bool {
        *self == Behaviour::default()
    }
}

pub struct NewProjectile {
    pub x: f32,
    pub y: f32,
    pub vx: f32,
    pub vy: f32,
    pub radius: f32,
    pub damage: f32,
    pub crit_chance: f32,
    pub element: Element,
    pub pierce: u32,
    pub bounces: u32,
    pub life: f32,
    pub owner: Owner,
    pub look: u16,
    pub behaviour: Behaviour,
}

impl Projectiles {
    pub fn len(&self) -> usize {
        self.x.len()
    }

    pub fn is_empty(&self) -> bool {
        self.x.is_empty()
    }

    pub fn push(&mut self, p: NewProjectile) -> Id {
        let id = self.ids.push();
        let hits = p.pierce.saturating_add(1);
        self.x.push(p.x);
        self.y.push(p.y);
        self.vx.push(p.vx);
        self.vy.push(p.vy);
        self.radius.push(p.radius);
        self.damage.push(p.damage);
        self.crit_chance.push(p.crit_chance);
        self.element.push(p.element);
        self.hits_left.push(hits);
        self.hits_at_spawn.push(hits);
        self.bounces.push(p.bounces);
        self.life.push(p.life);
        self.owner.push(p.owner);
        self.look.push(p.look);
        self.memory.push([Id::NONE; HIT_MEMORY]);
        self.special.push(!p.behaviour.is_plain());
        self.behaviour.push(p.behaviour);
        self.mirrored.push(false);
        self.dead.push(false);
        id
    }

    /// Has this projectile already struck `enemy`?
    #[inline]
    pub fn remembers(&self, i: usize, enemy: Id) -> bool {
        self.memory[i].contains(&enemy)
    }

    /// Remembers `enemy` as struck, forgetting the oldest.
    #[inline]
    pub fn remember(&mut self, i: usize, enemy: Id) {
        let m = &mut self.memory[i];
        m.rotate_right(1);
        m[0] = enemy;
    }

    fn swap_remove(&mut self, i: usize) {
        self.ids.swap_remove(i);
        each_column!(self, c => { c.swap_remove(i); }; x, y, vx, vy, radius, damage, crit_chance, life);
        each_column!(self, c => { c.swap_remove(i); }; hits_left, hits_at_spawn, bounces);
        self.element.swap_remove(i);
        self.owner.swap_remove(i);
        self.look.swap_remove(i);
        self.memory.swap_remove(i);
        self.behaviour.swap_remove(i);
        self.special.swap_remove(i);
        self.mirrored.swap_remove(i);
        self.dead.swap_remove(i);
    }

    pub fn compact(&mut self) {
        let Some(mut i) = first_dead(&self.dead) else {
            return;
        };
        while i < self.len() {
            if self.dead[i] {
                self.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }

    pub fn clear(&mut self) {
        self.ids.clear();
        each_column!(self, c => c.clear(); x, y, vx, vy, radius, damage, crit_chance, life);
        each_column!(self, c => c.clear(); hits_left, hits_at_spawn, bounces);
        self.element.clear();
        self.owner.clear();
        self.look.clear();
        self.memory.clear();
        self.behaviour.clear();
        self.special.clear();
        self.mirrored.clear();
        self.dead.clear();
    }
}

/// Mana crystals (the currency) dropped by dying enemies (R-LOOP-2).
#[derive(Clone, Debug, Default)]
pub struct Pickups {
    pub ids: IdMap,
    pub x: Vec<f32>,
    pub y: Vec<f32>,
    pub value: Vec<u32>,
    pub radius: Vec<f32>,
    pub dead: Vec<bool>,
}

impl Pickups {
    pub fn len(&self) -> usize {
        self.x.len()
    }

    pub fn is_empty(&self) -> bool {
        self.x.is_empty()
    }

    pub fn push(&mut self, x: f32, y: f32, value: u32, radius: f32) -> Id {
        let id = self.ids.push();
        self.x.push(x);
        self.y.push(y);
        self.value.push(value);
        self.radius.push(radius);
        self.dead.push(false);
        id
    }

    fn swap_remove(&mut self, i: usize) {
        self.ids.swap_remove(i);
        self.x.swap_remove(i);
        self.y.swap_remove(i);
        self.value.swap_remove(i);
        self.radius.swap_remove(i);
        self.dead.swap_remove(i);
    }

    pub fn compact(&mut self) {
        let Some(mut i) = first_dead(&self.dead) else {
            return;
        };
        while i < self.len() {
            if self.dead[i] {
                self.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }
}

/// Areas on the ground (R-VM-10 zones: black hole, healing mist, poison pool).
#[derive(Clone, Debug, Default)]
pub struct Zones {
    pub x: Vec<f32>,
    pub y: Vec<f32>,
    pub radius: Vec<f32>,
    /// Seconds left.
    pub life: Vec<f32>,
    /// px per tick toward the centre for enemies inside.
    pub pull: Vec<f32>,
    /// Player HP per second while inside.
    pub heal: Vec<f32>,
    /// Damage per second to enemies inside.
    pub dps: Vec<f32>,
    pub element: Vec<Element>,
    pub look: Vec<u16>,
    /// Ticks until the zone's next status roll (0: this frame; R-DMG-2,
    /// world/spells.rs `update_zones`).
    pub status_in: Vec<u32>,
}

impl Zones {
    pub fn len(&self) -> usize {
        self.x.len()
    }

    pub fn is_empty(&self) -> bool {
        self.x.is_empty()
    }

    #[allow(clippy::too_many_arguments)]
    pub fn push(
        &mut self,
        x: f32,
        y: f32,
        radius: f32,
        life: f32,
        pull: f32,
        heal: f32,
        dps: f32,
        element: Element,
        look: u16,
    ) {
        self.x.push(x);
        self.y.push(y);
        self.radius.push(radius);
        self.life.push(life);
        self.pull.push(pull);
        self.heal.push(heal);
        self.dps.push(dps);
        self.element.push(element);
        self.look.push(look);
        self.status_in.push(0);
    }

    /// Removes the expired, in a deterministic order.
    pub fn compact(&mut self) {
        let mut i = 0;
        while i < self.len() {
            if self.life[i] <= 0.0 {
                each_column!(self, c => { c.swap_remove(i); }; x, y, radius, life, pull, heal, dps);
                self.element.swap_remove(i);
                self.look.swap_remove(i);
                self.status_in.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }
}

/// The player's summons (R-VM-5): each casts its own program on a timer.
#[derive(Clone, Debug, Default)]
pub struct Summons {
    pub x: Vec<f32>,
    pub y: Vec<f32>,
    pub life: Vec<f32>,
    pub period: Vec<f32>,
    pub timer: Vec<f32>,
    pub program: Vec<Span>,
    /// R-VM-5: each summon walks its program as its own deck.
    pub cursor: Vec<u32>,
    /// R-MANA-5: the share of each card's cost its casts pay.
    pub share: Vec<f32>,
    pub look: Vec<u16>,
}

impl Summons {
    pub fn len(&self) -> usize {
        self.x.len()
    }

    pub fn is_empty(&self) -> bool {
        self.x.is_empty()
    }

    #[allow(clippy::too_many_arguments)]
    pub fn push(&mut self, x: f32, y: f32, life: f32, period: f32, program: Span, share: f32, look: u16) {
        self.x.push(x);
        self.y.push(y);
        self.life.push(life);
        self.period.push(period);
        self.timer.push(0.0);
        self.program.push(program);
        self.cursor.push(program.start);
        self.share.push(share);
        self.look.push(look);
    }

    pub fn compact(&mut self) {
        let mut i = 0;
        while i < self.len() {
            if self.life[i] <= 0.0 {
                each_column!(self, c => { c.swap_remove(i); }; x, y, life, period, timer, share);
                self.program.swap_remove(i);
                self.cursor.swap_remove(i);
                self.look.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }
}
