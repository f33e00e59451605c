//! The projectiles' pool, the player's and the enemies' alike, and what a
//! shot carries beyond flying and striking: its hit memory and its spell
//! behaviours (R-VM-4, R-VM-10).

use crate::sim::config::Element;
use crate::sim::hash::StateHasher;
use crate::sim::ids::{Id, IdMap};
use crate::vm::program::Drawn;
use crate::vm::spell::TriggerKind;

/// How many recently struck enemies a projectile remembers (one hit per
/// projectile per enemy). Pierce beyond this may re-hit an enemy struck
/// more than this many hits ago, which needs a projectile to double back.
pub const HIT_MEMORY: usize = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Owner {
    Player = 0,
    Enemy = 1,
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

pool! {
    /// Shots in flight, the player's and the enemies' (`owner`): one row each.
    pub struct Projectiles {
        hash section "projectiles";
        ids: IdMap, hash(slots);
        compact: dead;
        fn push(p: NewProjectile) -> Id;
        x: f32 = p.x, hash(f32s);
        y: f32 = p.y, hash(f32s);
        /// px per tick
        vx: f32 = p.vx, hash(f32s);
        vy: f32 = p.vy, hash(f32s);
        radius: f32 = p.radius, hash(f32s);
        damage: f32 = p.damage, hash(f32s);
        crit_chance: f32 = p.crit_chance, hash(f32s);
        /// Seconds left to live (infinity for the stress workload).
        life: f32 = p.life, hash(f32s);
        /// Enemies it may still strike (pierce + 1), and that number at spawn.
        hits_left: u32 = p.pierce.saturating_add(1), hash(u32s);
        hits_at_spawn: u32 = p.pierce.saturating_add(1), hash(u32s);
        /// Wall bounces left; at 0 a projectile that reaches a wall vanishes.
        bounces: u32 = p.bounces, hash(u32s);
        element: Element = p.element, hash(u32s);
        owner: Owner = p.owner, hash(packed(mirrored << 1));
        /// R-END-3 mirror world: its first enemy hit turned it back toward
        /// the player already. Hashed packed with `owner`.
        mirrored: bool = false, hash(no);
        /// What to draw (spell index for the player's, enemy kind for enemies').
        look: u16 = p.look, hash(u32s);
        memory: [Id; HIT_MEMORY] = [Id::NONE; HIT_MEMORY], hash(with(hash_memory));
        /// What spells add beyond flying and striking (rare: most are plain).
        /// Hashed apart, after the wand: `hash_behaviours_into`.
        behaviour: Behaviour = p.behaviour, hash(no);
        /// `!behaviour.is_plain()` at spawn: one byte the per-frame passes test
        /// instead of the 68-byte behaviour (20k projectiles: 20 KB, not 1.4 MB).
        special: bool = !p.behaviour.is_plain(), hash(no);
        dead: bool = false, hash(no);
    }
}

/// Every remembered id as its 64 bits, with no length (`memory`'s hash).
fn hash_memory(h: &mut StateHasher, memory: &[[Id; HIT_MEMORY]]) {
    for m in memory {
        for id in m {
            h.u64(id.to_bits());
        }
    }
}

impl Projectiles {
    /// Does projectile `i` look for a target this frame (the player's, alive)?
    /// The search (`hits::find_targets`) and the reorder that puts the shots
    /// that do not at the pool's end (`Spatial::reorder`) ask the same.
    #[inline(always)]
    pub fn searches(&self, i: usize) -> bool {
        Self::searching(self.owner[i], self.dead[i])
    }

    /// `searches` of a projectile's `owner` and `dead` (for loops over
    /// slices of the columns, which vectorise where indexing the pool does not).
    #[inline(always)]
    pub fn searching(owner: Owner, dead: bool) -> bool {
        (owner == Owner::Player) & !dead
    }

    /// Has this projectile already struck `enemy`?
    #[inline]
    pub fn remembers(&self, i: usize, enemy: Id) -> bool {
        self.memory[i].contains(&enemy)
    }

    /// Remembers `enemy` as struck, forgetting the oldest (through
    /// `Pools::remember`, which keeps `shots_remember`).
    #[inline]
    pub(super) fn remember(&mut self, i: usize, enemy: Id) {
        let m = &mut self.memory[i];
        m.rotate_right(1);
        m[0] = enemy;
    }

    /// The behaviours' part of the state hash, which `World::state_hash`
    /// takes after the wand's: what changes in flight (age, a payload's
    /// timer, chain jumps left) of the special shots only.
    pub fn hash_behaviours_into(&self, h: &mut StateHasher) {
        h.section("behaviours");
        for b in &self.behaviour {
            if !b.is_plain() {
                h.f32(b.age);
                h.f32(b.payload.map_or(-1.0, |p| p.timer));
                h.u64(b.chain as u64);
            }
        }
    }
}

/// A trigger's payload riding on its carrier (R-VM-4).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Payload {
    pub kind: TriggerKind,
    /// Seconds left for a timer trigger.
    pub timer: f32,
    /// The cards it draws (its span, and what it drew on from the head).
    pub span: Drawn,
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

    /// `is_plain`, and every float +0.0 as the default's (not −0.0). Every
    /// field named, so that a new one cannot be missed.
    pub fn plain_to_the_bit(&self) -> bool {
        let Behaviour { payload, explode_radius, chain, chain_range, lifesteal, homing, knockback, sine, orbit, age } =
            *self;
        let floats = [explode_radius, chain_range, lifesteal, homing, knockback, age];
        payload.is_none() && chain == 0 && !sine && orbit.is_none() && floats.iter().all(|f| f.to_bits() == 0)
    }
}
