//! The numbers the core runs on, handed over once from Python's validated
//! content (`balance.json`, `enemies.json`). Speeds arrive in px/s and
//! durations in seconds; the core converts to per-tick values itself.

use super::error::{CoreError, CoreResult};

/// R-DMG-2: the six elements, in the order used by resistance arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Element {
    Physical = 0,
    Fire = 1,
    Ice = 2,
    Lightning = 3,
    Poison = 4,
    Water = 5,
}

pub const ELEMENTS: usize = 6;

impl Element {
    pub const ALL: [Element; ELEMENTS] = [
        Element::Physical,
        Element::Fire,
        Element::Ice,
        Element::Lightning,
        Element::Poison,
        Element::Water,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Element::Physical => "physical",
            Element::Fire => "fire",
            Element::Ice => "ice",
            Element::Lightning => "lightning",
            Element::Poison => "poison",
            Element::Water => "water",
        }
    }

    pub fn from_name(name: &str) -> CoreResult<Element> {
        Element::ALL
            .into_iter()
            .find(|e| e.name() == name)
            .ok_or_else(|| CoreError::content(format!("unknown element {name:?}")))
    }
}

/// Movement behaviour tags of the enemy roster (R-WAVE-2). Only the
/// movement differs here; ranged attacks, shields, blasts and splits are
/// game rules that build on these tags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behavior {
    Chase,
    KeepDistance,
    Swarm,
    Shield,
    Explode,
    Split,
}

impl Behavior {
    pub fn from_name(name: &str) -> CoreResult<Behavior> {
        Ok(match name {
            "chase" => Behavior::Chase,
            "keep_distance" => Behavior::KeepDistance,
            "swarm" => Behavior::Swarm,
            "shield" => Behavior::Shield,
            "explode" => Behavior::Explode,
            "split" => Behavior::Split,
            other => return Err(CoreError::content(format!("unknown behavior {other:?}"))),
        })
    }
}

/// A "breed" (Type Object): the numbers shared by every enemy of a kind.
#[derive(Clone, Debug, PartialEq)]
pub struct EnemyKind {
    pub name: String,
    pub hp: f32,
    /// px/s
    pub speed: f32,
    pub radius: f32,
    pub contact_damage: f32,
    pub armor: f32,
    /// R-DMG-1 `res` per element: 0 = none, 1 = immune.
    pub resist: [f32; ELEMENTS],
    pub reward: u32,
    pub behavior: Behavior,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PlayerParams {
    pub max_hp: f32,
    pub radius: f32,
    /// px/s
    pub move_speed: f32,
    pub armor: f32,
    pub dash_speed: f32,
    pub dash_duration: f32,
    pub dash_cooldown: f32,
    /// Seconds of invulnerability after a hit.
    pub invulnerability: f32,
    pub crit_chance: f32,
    pub crit_multiplier: f32,
    pub mana_max: f32,
    pub mana_regen: f32,
    /// R-MANA-8 / R-STAT-1: mana restored per kill.
    pub mana_leech: f32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PickupParams {
    /// Pickups within this distance of the player are pulled in (R-LOOP-2).
    pub pickup_radius: f32,
    pub magnet_speed: f32,
    pub collect_radius: f32,
    pub radius: f32,
}

/// Switches for the standard stress workload and other harnesses. The game
/// runs with `Rules::default()`; the stress tool flips these so that it
/// measures the very same `step` with constant entity counts.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Rules {
    /// Player neither moves nor dashes.
    pub player_fixed: bool,
    /// Contact and projectile damage to the player is ignored.
    pub player_invulnerable: bool,
    /// Enemies take damage but never die.
    pub enemies_immortal: bool,
    /// A projectile that spends its last pierce is reset to its starting
    /// pierce in place instead of vanishing.
    pub respawn_spent_projectiles: bool,
    /// A projectile ignores enemies it has already hit (the game's rule:
    /// one hit per projectile per enemy). Off in the stress workload,
    /// where every frame's nearest enemy in reach is a hit.
    pub no_hit_memory: bool,
    /// Enemies neither chase nor separate (the lab's training dummies).
    pub enemies_still: bool,
    /// The frame's biggest hits become `EnemyHit` events (damage numbers,
    /// the run's biggest hit). Off: no cost.
    pub hit_events: bool,
}

/// The spell VM's numbers in the world (balance.json `vm`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VmParams {
    /// R-VM-8: node-steps per CPU point.
    pub step_multiplier: u32,
    /// R-VM-11: shortest cast delay, seconds.
    pub cast_delay_floor: f32,
    /// R-MANA-8 sustained fire and R-CORE-4 infinite spells.
    pub mana: crate::vm::mana::ManaRules,
    /// `Sin(Time)` path: sideways amplitude (px) and frequency (Hz).
    pub sine_amplitude: f32,
    pub sine_frequency: f32,
    /// Homing projectiles look for targets this far away (px).
    pub homing_range: f32,
    /// R-CORE-2: an `on_kill` entry runs at most once per this many seconds.
    pub on_kill_interval: f32,
    /// R-MOVE-3: the charge ring shows this long after the player stops.
    pub charge_ring_delay: f32,
    /// R-VM-10 knockback: a hit shoves the enemy `knockback × this` px.
    pub knockback_seconds: f32,
}

impl Default for VmParams {
    fn default() -> Self {
        VmParams {
            step_multiplier: 8,
            cast_delay_floor: 0.02,
            mana: Default::default(),
            sine_amplitude: 24.0,
            sine_frequency: 2.0,
            homing_range: 320.0,
            on_kill_interval: 0.1,
            charge_ring_delay: 0.3,
            knockback_seconds: 0.15,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct WorldConfig {
    pub arena_w: f32,
    pub arena_h: f32,
    pub tick_hz: u32,
    /// Each overlapping pair is pushed apart by `strength × overlap`, each.
    pub separation_strength: f32,
    /// Grid cells per entity: bounds grid memory and rebuild cost by the
    /// entity count, not the arena area.
    pub grid_cells_per_entity: f32,
    /// With the `hit_events` rule: how many of a frame's hits are reported.
    pub hit_events_per_frame: u32,
    /// Elite enemies: HP and reward multipliers.
    pub elite_hp_multiplier: f32,
    pub elite_reward_multiplier: f32,
    pub player: PlayerParams,
    pub pickups: PickupParams,
    pub enemy_kinds: Vec<EnemyKind>,
    pub rules: Rules,
    pub vm: VmParams,
    pub seed: u64,
}

impl WorldConfig {
    pub fn dt(&self) -> f32 {
        1.0 / self.tick_hz as f32
    }

    /// Checks what the core relies on; content validation in Python should
    /// have caught all of this, but the core never trusts its caller.
    pub fn validate(&self) -> CoreResult<()> {
        let positive = [
            ("arena.width", self.arena_w),
            ("arena.height", self.arena_h),
            ("sim.grid_cells_per_entity", self.grid_cells_per_entity),
            ("player.max_hp", self.player.max_hp),
            ("player.radius", self.player.radius),
            ("pickups.radius", self.pickups.radius),
        ];
        for (name, v) in positive {
            if !(v.is_finite() && v > 0.0) {
                return Err(CoreError::content(format!("{name} must be a positive number, got {v}")));
            }
        }
        let non_negative = [
            ("sim.separation_strength", self.separation_strength),
            ("elite.hp_multiplier", self.elite_hp_multiplier),
            ("elite.reward_multiplier", self.elite_reward_multiplier),
            ("player.move_speed", self.player.move_speed),
            ("player.armor", self.player.armor),
            ("player.dash_speed", self.player.dash_speed),
            ("player.dash_duration", self.player.dash_duration),
            ("player.dash_cooldown", self.player.dash_cooldown),
            ("player.invulnerability", self.player.invulnerability),
            ("player.crit_chance", self.player.crit_chance),
            ("player.crit_multiplier", self.player.crit_multiplier),
            ("player.mana_max", self.player.mana_max),
            ("player.mana_regen", self.player.mana_regen),
            ("pickups.pickup_radius", self.pickups.pickup_radius),
            ("pickups.magnet_speed", self.pickups.magnet_speed),
            ("pickups.collect_radius", self.pickups.collect_radius),
        ];
        for (name, v) in non_negative {
            if !(v.is_finite() && v >= 0.0) {
                return Err(CoreError::content(format!("{name} must be a number ≥ 0, got {v}")));
            }
        }
        if self.tick_hz == 0 {
            return Err(CoreError::content("sim.tick_hz must be > 0"));
        }
        if self.enemy_kinds.is_empty() {
            return Err(CoreError::content("at least one enemy kind is needed"));
        }
        for (i, k) in self.enemy_kinds.iter().enumerate() {
            let ok = k.hp.is_finite() && k.hp > 0.0
                && k.speed.is_finite() && k.speed >= 0.0
                && k.radius.is_finite() && k.radius > 0.0
                && k.contact_damage.is_finite() && k.contact_damage >= 0.0
                && k.armor.is_finite() && k.armor >= 0.0
                && k.resist.iter().all(|r| (0.0..=1.0).contains(r));
            if !ok {
                return Err(CoreError::content(format!("enemy kind {i} ({}) has out-of-range numbers", k.name)));
            }
        }
        Ok(())
    }

    pub fn max_enemy_radius(&self) -> f32 {
        self.enemy_kinds.iter().map(|k| k.radius).fold(0.0, f32::max)
    }
}
