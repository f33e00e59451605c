//! The numbers the core runs on, handed over once from Python's validated
//! content (`balance.json`, `enemies.json`). Speeds arrive in px/s and
//! durations in seconds; the core converts to per-tick values itself.

use super::error::{CoreError, CoreResult};
use super::movement::SeparationRule;

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

/// Most children one split may make (content checks the same bound).
pub const MAX_SPLIT: u32 = 16;

impl Element {
    pub const ALL: [Element; ELEMENTS] =
        [Element::Physical, Element::Fire, Element::Ice, Element::Lightning, Element::Poison, Element::Water];

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

/// An enemy kind's behaviour (R-WAVE-2) with the numbers it acts on, so a kind cannot carry
/// a block its behaviour does not use. `Chase` and `Swarm` walk straight at the player; the
/// others carry their block of enemies.json (`attack`, `shield`, `explode`, `split`, `boss`),
/// which the core acts on (sim/world/enemies.rs, sim/world/bosses.rs). The accessors below
/// are one tag test each, as the `Option` fields they replace were.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Behavior {
    #[default]
    Chase,
    Swarm,
    /// An archer: holds a distance band and shoots (`attack`).
    KeepDistance(RangedAttack),
    /// A reflector's frontal shield (`shield`).
    Shield(Shield),
    /// An exploder's death blast (`explode`).
    Explode(DeathBlast),
    /// A splitter's children (`split`).
    Split(Split),
    /// R-BOSS-1: moves and attacks by its phases (sim/boss.rs).
    Boss(Box<crate::sim::boss::BossDef>),
}

impl Behavior {
    /// The behaviours that carry a block, by enemies.json name, and the block's key (`chase`
    /// and `swarm` carry none).
    pub const BLOCKS: [(&'static str, &'static str); 5] = [
        ("keep_distance", "attack"),
        ("shield", "shield"),
        ("explode", "explode"),
        ("split", "split"),
        ("boss", "boss"),
    ];

    /// The key of the block enemies.json's behaviour `name` carries (`None`: chase, swarm), or
    /// why the name is unknown.
    pub fn block_of(name: &str) -> CoreResult<Option<&'static str>> {
        match name {
            "chase" | "swarm" => Ok(None),
            _ => Self::BLOCKS
                .iter()
                .find(|(behavior, _)| *behavior == name)
                .map(|(_, block)| Some(*block))
                .ok_or_else(|| CoreError::content(format!("unknown behavior {name:?}"))),
        }
    }

    /// Its enemies.json name.
    pub fn name(&self) -> &'static str {
        match self {
            Behavior::Chase => "chase",
            Behavior::Swarm => "swarm",
            Behavior::KeepDistance(_) => "keep_distance",
            Behavior::Shield(_) => "shield",
            Behavior::Explode(_) => "explode",
            Behavior::Split(_) => "split",
            Behavior::Boss(_) => "boss",
        }
    }

    /// An archer's shots and band.
    #[inline]
    pub fn attack(&self) -> Option<RangedAttack> {
        match *self {
            Behavior::KeepDistance(a) => Some(a),
            _ => None,
        }
    }

    /// A reflector's shield (a boss's reflection is its phase's: `BossPhase::reflect`).
    #[inline]
    pub fn shield(&self) -> Option<Shield> {
        match *self {
            Behavior::Shield(s) => Some(s),
            _ => None,
        }
    }

    /// An exploder's death blast.
    #[inline]
    pub fn explode(&self) -> Option<DeathBlast> {
        match *self {
            Behavior::Explode(b) => Some(b),
            _ => None,
        }
    }

    /// A splitter's children.
    #[inline]
    pub fn split(&self) -> Option<Split> {
        match *self {
            Behavior::Split(s) => Some(s),
            _ => None,
        }
    }

    /// A boss's phases, shots and enrage.
    #[inline]
    pub fn boss(&self) -> Option<&crate::sim::boss::BossDef> {
        match self {
            Behavior::Boss(b) => Some(b),
            _ => None,
        }
    }

    /// A boss kind (its clones too): hits, touch and defence go through its phase.
    #[inline]
    pub fn is_boss(&self) -> bool {
        matches!(self, Behavior::Boss(_))
    }
}

/// An archer's shots and the distance band it keeps (`keep_distance`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RangedAttack {
    /// Seconds between shots (the first one this long after spawning).
    pub every: f32,
    /// The shot: px/s, damage (through the player's armor), px, seconds.
    pub speed: f32,
    pub damage: f32,
    pub radius: f32,
    pub lifetime: f32,
    /// The band it holds: it approaches beyond `max_distance`, backs off
    /// inside `min_distance` (px from the player).
    pub min_distance: f32,
    pub max_distance: f32,
    /// Sideways share of its speed while inside the band (0..1).
    pub strafe: f32,
}

/// A reflector's frontal shield (`shield`, R-WAVE-1): physical,
/// non-piercing projectiles striking it from inside the arc come back as
/// enemy projectiles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shield {
    /// Width of the arc in degrees, centred on the direction to the player.
    pub arc_degrees: f32,
    /// A reflected shot's damage as a share of the original's.
    pub reflect_damage: f32,
}

impl Shield {
    /// cos of half the arc: a hit is frontal when the cosine of its angle
    /// off the facing is at least this.
    pub fn min_cos(&self) -> f32 {
        libm::cosf((self.arc_degrees * 0.5).to_radians())
    }
}

/// An exploder's death blast (`explode`): hurts the player and other
/// enemies within `radius`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeathBlast {
    pub radius: f32,
    pub damage: f32,
    pub element: Element,
}

/// A splitter's death (`split`): `count` enemies of kind `into` around
/// where it died, `spread` px away; they never split again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Split {
    pub into: u16,
    pub count: u32,
    pub spread: f32,
}

/// A "breed" (Type Object): the numbers shared by every enemy of a kind.
///
/// `Default` is a plain, harmless grunt (below): a base for literal kinds in harnesses and
/// tests (`EnemyKind { hp: 50.0, ..Default::default() }`), so that a kind spells out only what
/// it means and a new behaviour touches none of them. The game's kinds come from enemies.json
/// (py/config.rs fills every field) and `validate` checks them.
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
    /// What it does beyond its numbers, with its block (`Behavior::attack()`…).
    pub behavior: Behavior,
}

impl Default for EnemyKind {
    /// A chasing grunt of 10 HP at 60 px/s, 10 px across, worth 1, that hurts no one on touch
    /// (a test's player is hurt only by what the test sets), with no armor or resistance: a
    /// valid kind as it is.
    fn default() -> Self {
        EnemyKind {
            name: "grunt".into(),
            hp: 10.0,
            speed: 60.0,
            radius: 10.0,
            contact_damage: 0.0,
            armor: 0.0,
            resist: [0.0; ELEMENTS],
            reward: 1,
            behavior: Behavior::Chase,
        }
    }
}

impl EnemyKind {
    /// The cooldown a new enemy of this kind starts with (an archer waits `every` before its
    /// first shot; a behaviour on a timer adds its own here).
    #[inline]
    pub fn first_cooldown(&self) -> f32 {
        self.behavior.attack().map_or(0.0, |a| a.every)
    }

    /// Whether dying does more than drop a reward (a blast, a split).
    #[inline]
    pub fn acts_on_death(&self) -> bool {
        matches!(self.behavior, Behavior::Explode(_) | Behavior::Split(_))
    }
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
    /// Auto-aim (no aim point): the wand fires at the nearest enemy within
    /// this many px and holds fire, mana regenerating, while none is.
    pub auto_aim_range: f32,
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

/// R-END-3: an endless wave's global mutator as rules of the core (balance.json
/// `endless.mutators`, chosen by game flow for the wave). `Default`: all off, the game as it
/// ships. Shrinking map and elite flood need nothing here: they are the arena and the spawns.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Mutators {
    /// Mirror world: a player shot's first enemy hit turns it back toward the player, the hit
    /// spending nothing of its pierce; it flies on (it never hurts the player) and may strike
    /// other enemies on its way.
    pub mirror: bool,
    /// Splitting monsters: a dying enemy leaves copies of itself (none for bosses, their clones
    /// and adds, or enemies born of a split). None: off.
    pub split: Option<MutatorSplit>,
    /// Mana inversion: a cast's delay becomes a bonus (`Inversion::delay`). None: off.
    pub inversion: Option<Inversion>,
}

/// Splitting monsters: `count` enemies of the dying one's kind (elite if it was), `spread` px
/// around where it died, each at `hp` of the dying one's max HP; they never split again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MutatorSplit {
    pub count: u32,
    pub hp: f32,
    pub spread: f32,
}

/// Mana inversion: a cast delay `d` (the core's and the cards', before cast speed and the
/// recharge) becomes `pivot² / d` — the longer it was, the faster the wand fires — within
/// [the delay floor, `ceiling`]. A delay of `pivot` seconds stays as it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inversion {
    pub pivot: f32,
    pub ceiling: f32,
}

impl Inversion {
    /// The inverted delay of a cast whose delay was `delay` (seconds; 0 or less: the ceiling).
    #[inline]
    pub fn delay(&self, delay: f32) -> f32 {
        if delay <= 0.0 {
            self.ceiling
        } else {
            (self.pivot * self.pivot / delay).min(self.ceiling)
        }
    }
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

impl VmParams {
    /// Every number finite, ≥ 0 and within `sim::limits` (balance.json `vm`).
    pub fn validate(&self) -> CoreResult<()> {
        use super::limits::{content32, MAX_AMOUNT, MAX_COUNT, MAX_FACTOR, MAX_RADIUS, MAX_SECONDS};
        if self.step_multiplier as u64 > MAX_COUNT {
            return Err(CoreError::content(format!(
                "vm.step_multiplier must be in 0..={MAX_COUNT}, got {}",
                self.step_multiplier
            )));
        }
        let m = &self.mana;
        for (name, v, hi) in [
            ("vm.cast_delay_floor", self.cast_delay_floor, MAX_SECONDS),
            ("vm.sustained_fire.window", m.streak_window, MAX_SECONDS),
            ("vm.sustained_fire.step", m.streak_step, MAX_FACTOR),
            ("vm.sustained_fire.cap", m.streak_cap, MAX_FACTOR),
            ("vm.sustained_fire.reset_after", m.streak_reset, MAX_SECONDS),
            ("vm.infinite_spells_hp_per_mana", m.hp_per_mana, MAX_AMOUNT),
            ("vm.sine_amplitude", self.sine_amplitude, MAX_RADIUS),
            ("vm.sine_frequency", self.sine_frequency, MAX_FACTOR),
            ("vm.homing_range", self.homing_range, MAX_RADIUS),
            ("vm.on_kill_interval", self.on_kill_interval, MAX_SECONDS),
            ("vm.charge_ring_delay", self.charge_ring_delay, MAX_SECONDS),
            ("vm.knockback_seconds", self.knockback_seconds, MAX_SECONDS),
        ] {
            content32(name, v, 0.0, hi)?;
        }
        Ok(())
    }
}

impl VmParams {
    /// The cast rules of a wand under these VM rules, before the run's stats (R-STAT-1: no CPU,
    /// cast speed or accuracy bought; `World::set_wand_stats` sets them).
    pub fn cast_rules(&self) -> crate::vm::exec::CastRules {
        crate::vm::exec::CastRules {
            step_multiplier: self.step_multiplier,
            cpu_stat: 0,
            cast_speed: 0.0,
            delay_floor: self.cast_delay_floor,
            accuracy: 0.0,
            inversion: None,
        }
    }
}

/// R-DMG-2 statuses and R-STAT-1 attunement (balance.json `statuses`).
///
/// An element hit rolls its element's status with probability
/// `chance[element] + attunement_chance × points[element]` (physical has no
/// status). Durations in seconds, damage per second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StatusParams {
    /// Base chance per element, in `Element` order (physical ignored).
    pub chance: [f32; ELEMENTS],
    pub burn_dps: f32,
    pub burn_seconds: f32,
    /// Speed multiplier while chilled (0..=1).
    pub chill_slow: f32,
    pub chill_seconds: f32,
    /// This many chills (within one chill's duration of each other) freeze.
    pub chills_to_freeze: u32,
    pub freeze_seconds: f32,
    /// Damage taken while shocked is multiplied by this.
    pub shock_multiplier: f32,
    pub shock_seconds: f32,
    /// Damage per second per poison stack.
    pub poison_dps: f32,
    pub poison_seconds: f32,
    pub poison_max_stacks: u32,
    pub wet_seconds: f32,
    /// Lightning on a wet target: damage × this (reaction "electrified").
    pub wet_lightning_multiplier: f32,
    /// R-STAT-1: per attunement point, + this fraction of damage / of status chance.
    pub attunement_damage: f32,
    pub attunement_chance: f32,
    /// Seconds between a damaging zone's status rolls on the enemies inside
    /// (balance.json `statuses.zone.status_interval`, required): a zone
    /// hurts every tick, but its status is rolled as one hit per interval,
    /// not 60 times a second (world/zones.rs `update_zones`).
    pub zone_status_interval: f32,
}

impl StatusParams {
    fn validate(&self) -> CoreResult<()> {
        for (i, c) in self.chance.iter().enumerate() {
            if !(0.0..=1.0).contains(c) {
                return Err(CoreError::content(format!(
                    "statuses.chance.{} must be in 0..1, got {c}",
                    Element::ALL[i].name()
                )));
            }
        }
        let non_negative = [
            ("burn_dps", self.burn_dps),
            ("burn_seconds", self.burn_seconds),
            ("chill_seconds", self.chill_seconds),
            ("freeze_seconds", self.freeze_seconds),
            ("shock_multiplier", self.shock_multiplier),
            ("shock_seconds", self.shock_seconds),
            ("poison_dps", self.poison_dps),
            ("poison_seconds", self.poison_seconds),
            ("wet_seconds", self.wet_seconds),
            ("wet_lightning_multiplier", self.wet_lightning_multiplier),
            ("attunement_damage", self.attunement_damage),
            ("attunement_chance", self.attunement_chance),
        ];
        for (name, v) in non_negative {
            if !(v.is_finite() && v >= 0.0) {
                return Err(CoreError::content(format!("statuses.{name} must be a number ≥ 0, got {v}")));
            }
        }
        if !(self.zone_status_interval.is_finite() && self.zone_status_interval > 0.0) {
            return Err(CoreError::content(format!(
                "statuses.zone.status_interval must be a number > 0, got {}",
                self.zone_status_interval
            )));
        }
        if !(0.0..=1.0).contains(&self.chill_slow) {
            return Err(CoreError::content(format!("statuses.chill_slow must be in 0..1, got {}", self.chill_slow)));
        }
        if self.chills_to_freeze == 0
            || self.poison_max_stacks == 0
            || self.poison_max_stacks > 255
            || self.chills_to_freeze > 255
        {
            return Err(CoreError::content("statuses.chills_to_freeze and poison_max_stacks must be in 1..=255"));
        }
        Ok(())
    }
}

/// §8's statuses in R-DMG-1's formula (balance.json `combat`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CombatParams {
    /// Damage a vulnerable target takes, × (applied last, after armor).
    pub vulnerable_multiplier: f32,
    /// Damage a weak attacker deals, ×.
    pub weak_multiplier: f32,
}

impl CombatParams {
    /// What a target's damage is multiplied by: `vulnerable_multiplier` while vulnerable, else 1.
    #[inline]
    pub fn taken(&self, vulnerable: bool) -> f32 {
        if vulnerable {
            self.vulnerable_multiplier
        } else {
            1.0
        }
    }

    /// What an attacker's damage is multiplied by: `weak_multiplier` while weak, else 1.
    #[inline]
    pub fn dealt(&self, weak: bool) -> f32 {
        if weak {
            self.weak_multiplier
        } else {
            1.0
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
    /// The most neighbours an enemy tests for separation in a frame
    /// (`SeparationRule::candidates`: what a crushed horde skips).
    pub separation_candidates: u32,
    /// Grid cells per entity: bounds grid memory and rebuild cost by the
    /// entity count, not the arena area.
    pub grid_cells_per_entity: f32,
    /// With the `hit_events` rule: how many of a frame's hits are reported.
    pub hit_events_per_frame: u32,
    /// R-FEEL-1: an enemy shows its hit flash (ENEMY_FLAG_HIT) for this many
    /// frames after a hit (0 = never). Presentation only.
    pub hit_flash_frames: u32,
    /// Elite enemies: HP and reward multipliers.
    pub elite_hp_multiplier: f32,
    pub elite_reward_multiplier: f32,
    pub player: PlayerParams,
    pub pickups: PickupParams,
    pub enemy_kinds: Vec<EnemyKind>,
    pub rules: Rules,
    pub vm: VmParams,
    pub statuses: StatusParams,
    /// §8: a turn — one wand cycle — is this many seconds of wave time
    /// (balance.json `turn.seconds`, required), counted in whole ticks.
    pub turn_seconds: f32,
    /// Vulnerable and weak (balance.json `combat`).
    pub combat: CombatParams,
    /// R-END-3: the wave's global mutator, as the core's rules (all off outside endless).
    pub mutators: Mutators,
    pub seed: u64,
}

/// §8's turn in the standard stress workload (rust/sim/stress.rs), which has no balance.json;
/// the game's comes from balance.json `turn.seconds`.
pub const DEFAULT_TURN_SECONDS: f32 = 3.0;

impl WorldConfig {
    pub fn dt(&self) -> f32 {
        1.0 / self.tick_hz as f32
    }

    /// R-WAVE-2's separation, as the movement system takes it.
    pub fn separation(&self) -> SeparationRule {
        SeparationRule { strength: self.separation_strength, candidates: self.separation_candidates as usize }
    }

    /// Ticks in a turn: `turn_seconds` at `tick_hz`, rounded, at least 1.
    pub fn turn_ticks(&self) -> u64 {
        ((self.turn_seconds as f64 * self.tick_hz as f64).round() as u64).max(1)
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
        // Unlimited (infinity) is allowed: the harnesses aim at any distance.
        // NaN fails this test as well as 0 and negatives.
        if self.player.auto_aim_range.is_nan() || self.player.auto_aim_range <= 0.0 {
            return Err(CoreError::content(format!(
                "player.auto_aim_range must be > 0, got {}",
                self.player.auto_aim_range
            )));
        }
        self.statuses.validate()?;
        self.validate_bounds()?;
        if !(self.turn_seconds.is_finite() && self.turn_seconds > 0.0) {
            return Err(CoreError::content(format!("turn.seconds must be a number > 0, got {}", self.turn_seconds)));
        }
        if self.tick_hz == 0 {
            return Err(CoreError::content("sim.tick_hz must be > 0"));
        }
        if self.enemy_kinds.is_empty() {
            return Err(CoreError::content("at least one enemy kind is needed"));
        }
        for (i, k) in self.enemy_kinds.iter().enumerate() {
            let ok = k.hp.is_finite()
                && k.hp > 0.0
                && k.speed.is_finite()
                && k.speed >= 0.0
                && k.radius.is_finite()
                && k.radius > 0.0
                && k.contact_damage.is_finite()
                && k.contact_damage >= 0.0
                && k.armor.is_finite()
                && k.armor >= 0.0
                && k.resist.iter().all(|r| (0.0..=1.0).contains(r));
            if !ok {
                return Err(CoreError::content(format!("enemy kind {i} ({}) has out-of-range numbers", k.name)));
            }
            self.validate_behaviour(i, k)?;
        }
        Ok(())
    }

    /// A kind's behaviour block: its numbers in range (the block goes with its behaviour by
    /// construction: `Behavior` carries it).
    fn validate_behaviour(&self, i: usize, k: &EnemyKind) -> CoreResult<()> {
        let bad = |why: &str| Err(CoreError::content(format!("enemy kind {i} ({}): {why}", k.name)));
        let finite_non_negative = |v: &[f32]| v.iter().all(|x| x.is_finite() && *x >= 0.0);
        match &k.behavior {
            Behavior::Chase | Behavior::Swarm => {}
            Behavior::KeepDistance(a) => {
                let ok = finite_non_negative(&[
                    a.every,
                    a.speed,
                    a.damage,
                    a.radius,
                    a.lifetime,
                    a.min_distance,
                    a.max_distance,
                ]) && a.every > 0.0
                    && a.lifetime > 0.0
                    && a.min_distance < a.max_distance
                    && (0.0..=1.0).contains(&a.strafe);
                if !ok {
                    return bad("attack numbers out of range");
                }
            }
            Behavior::Shield(s) => {
                if !(s.arc_degrees > 0.0 && s.arc_degrees <= 360.0 && finite_non_negative(&[s.reflect_damage])) {
                    return bad("shield numbers out of range");
                }
            }
            Behavior::Explode(b) => {
                if !finite_non_negative(&[b.radius, b.damage]) {
                    return bad("explode numbers out of range");
                }
            }
            Behavior::Split(s) => {
                if s.into as usize >= self.enemy_kinds.len() || !finite_non_negative(&[s.spread]) || s.count > MAX_SPLIT
                {
                    return bad("split names an unknown kind or has numbers out of range");
                }
            }
            Behavior::Boss(b) => {
                if let Err(why) = b.validate(self.enemy_kinds.len()) {
                    return bad(&format!("boss {why}"));
                }
            }
        }
        Ok(())
    }

    /// The upper bounds (`sim::limits`) of every number, so that nothing the
    /// world derives from them (a speed per tick, a sum of hits, a spawn's
    /// HP) is non-finite or wraps. Content checks tighter ranges first.
    fn validate_bounds(&self) -> CoreResult<()> {
        use super::limits::{
            content32, ARENA_SIDE, MAX_AMOUNT, MAX_COUNT, MAX_FACTOR, MAX_RADIUS, MAX_SECONDS, MAX_SPEED, TICK_HZ,
        };
        let p = &self.player;
        let k = &self.pickups;
        let (lo, hi) = ARENA_SIDE;
        content32("arena.width", self.arena_w, lo, hi)?;
        content32("arena.height", self.arena_h, lo, hi)?;
        if !(TICK_HZ.0..=TICK_HZ.1).contains(&(self.tick_hz as u64)) {
            return Err(CoreError::content(format!(
                "sim.tick_hz must be a whole number in {}..={}, got {}",
                TICK_HZ.0, TICK_HZ.1, self.tick_hz
            )));
        }
        let bounded = [
            ("sim.separation_strength", self.separation_strength, MAX_FACTOR),
            ("sim.grid_cells_per_entity", self.grid_cells_per_entity, MAX_FACTOR),
            ("elite.hp_multiplier", self.elite_hp_multiplier, MAX_FACTOR),
            ("elite.reward_multiplier", self.elite_reward_multiplier, MAX_FACTOR),
            ("player.max_hp", p.max_hp, MAX_AMOUNT),
            ("player.radius", p.radius, MAX_RADIUS),
            ("player.move_speed", p.move_speed, MAX_SPEED),
            ("player.armor", p.armor, MAX_AMOUNT),
            ("player.dash_speed", p.dash_speed, MAX_SPEED),
            ("player.dash_duration", p.dash_duration, MAX_SECONDS),
            ("player.dash_cooldown", p.dash_cooldown, MAX_SECONDS),
            ("player.invulnerability", p.invulnerability, MAX_SECONDS),
            ("player.crit_chance", p.crit_chance, MAX_FACTOR),
            ("player.crit_multiplier", p.crit_multiplier, MAX_FACTOR),
            ("player.mana_max", p.mana_max, MAX_AMOUNT),
            ("player.mana_regen", p.mana_regen, MAX_AMOUNT),
            ("player.mana_leech", p.mana_leech, MAX_AMOUNT),
            ("pickups.pickup_radius", k.pickup_radius, MAX_RADIUS),
            ("pickups.magnet_speed", k.magnet_speed, MAX_SPEED),
            ("pickups.collect_radius", k.collect_radius, MAX_RADIUS),
            ("pickups.radius", k.radius, MAX_RADIUS),
            ("turn.seconds", self.turn_seconds, MAX_SECONDS),
            ("statuses.burn_dps", self.statuses.burn_dps, MAX_AMOUNT),
            ("statuses.burn_seconds", self.statuses.burn_seconds, MAX_SECONDS),
            ("statuses.chill_seconds", self.statuses.chill_seconds, MAX_SECONDS),
            ("statuses.freeze_seconds", self.statuses.freeze_seconds, MAX_SECONDS),
            ("statuses.shock_multiplier", self.statuses.shock_multiplier, MAX_FACTOR),
            ("statuses.shock_seconds", self.statuses.shock_seconds, MAX_SECONDS),
            ("statuses.poison_dps", self.statuses.poison_dps, MAX_AMOUNT),
            ("statuses.poison_seconds", self.statuses.poison_seconds, MAX_SECONDS),
            ("statuses.wet_seconds", self.statuses.wet_seconds, MAX_SECONDS),
            ("statuses.wet_lightning_multiplier", self.statuses.wet_lightning_multiplier, MAX_FACTOR),
            ("statuses.attunement_damage", self.statuses.attunement_damage, MAX_FACTOR),
            ("statuses.attunement_chance", self.statuses.attunement_chance, MAX_FACTOR),
            ("statuses.zone.status_interval", self.statuses.zone_status_interval, MAX_SECONDS),
            ("combat.vulnerable_multiplier", self.combat.vulnerable_multiplier, MAX_FACTOR),
            ("combat.weak_multiplier", self.combat.weak_multiplier, MAX_FACTOR),
        ];
        for (name, v, hi) in bounded {
            content32(name, v, 0.0, hi)?;
        }
        if self.player.mana_leech < 0.0 || self.player.auto_aim_range.is_nan() {
            return Err(CoreError::content("player.mana_leech must be ≥ 0 and player.auto_aim_range a number"));
        }
        if !(1..=MAX_COUNT).contains(&(self.separation_candidates as u64)) {
            return Err(CoreError::content(format!(
                "sim.separation_candidates must be a whole number in 1..={MAX_COUNT}, got {}",
                self.separation_candidates
            )));
        }
        if self.hit_events_per_frame as u64 > MAX_COUNT || self.hit_flash_frames as u64 > MAX_COUNT {
            return Err(CoreError::content(format!(
                "sim.hit_events_per_frame and sim.hit_flash_frames must be in 0..={MAX_COUNT}, got {} and {}",
                self.hit_events_per_frame, self.hit_flash_frames
            )));
        }
        self.vm.validate()?;
        // Kinds are numbered in 16 bits (commands, events, the render rows).
        if self.enemy_kinds.len() > u16::MAX as usize {
            return Err(CoreError::content(format!(
                "at most {} enemy kinds, got {}",
                u16::MAX,
                self.enemy_kinds.len()
            )));
        }
        for (i, e) in self.enemy_kinds.iter().enumerate() {
            let at = |field: &str| format!("enemies[{i}] ({}).{field}", e.name);
            content32(&at("hp"), e.hp, 0.0, MAX_AMOUNT)?;
            content32(&at("speed"), e.speed, 0.0, MAX_SPEED)?;
            content32(&at("radius"), e.radius, 0.0, MAX_RADIUS)?;
            content32(&at("contact_damage"), e.contact_damage, 0.0, MAX_AMOUNT)?;
            content32(&at("armor"), e.armor, 0.0, MAX_AMOUNT)?;
            if e.reward as f64 > MAX_AMOUNT {
                return Err(CoreError::content(format!("{} must be in 0..=1e9, got {}", at("reward"), e.reward)));
            }
            match e.behavior {
                Behavior::KeepDistance(a) => {
                    for (name, v, hi) in [
                        ("attack.every", a.every, MAX_SECONDS),
                        ("attack.speed", a.speed, MAX_SPEED),
                        ("attack.damage", a.damage, MAX_AMOUNT),
                        ("attack.radius", a.radius, MAX_RADIUS),
                        ("attack.lifetime", a.lifetime, MAX_SECONDS),
                        ("attack.min_distance", a.min_distance, MAX_RADIUS),
                        ("attack.max_distance", a.max_distance, MAX_RADIUS),
                    ] {
                        content32(&at(name), v, 0.0, hi)?;
                    }
                }
                Behavior::Shield(s) => {
                    content32(&at("shield.reflect_damage"), s.reflect_damage, 0.0, MAX_FACTOR)?;
                }
                Behavior::Explode(b) => {
                    content32(&at("explode.radius"), b.radius, 0.0, MAX_RADIUS)?;
                    content32(&at("explode.damage"), b.damage, 0.0, MAX_AMOUNT)?;
                }
                Behavior::Split(s) => {
                    content32(&at("split.spread"), s.spread, 0.0, MAX_RADIUS)?;
                }
                Behavior::Chase | Behavior::Swarm | Behavior::Boss(_) => {}
            }
        }
        self.validate_mutators()
    }

    /// R-END-3: the mutators' numbers (balance.json `endless.mutators` checks tighter ranges).
    fn validate_mutators(&self) -> CoreResult<()> {
        use super::limits::{content32, MAX_FACTOR, MAX_RADIUS, MAX_SECONDS};
        if let Some(s) = self.mutators.split {
            if s.count > MAX_SPLIT {
                return Err(CoreError::content(format!(
                    "mutators.split.count must be in 0..={MAX_SPLIT}, got {}",
                    s.count
                )));
            }
            content32("mutators.split.hp", s.hp, 0.0, MAX_FACTOR)?;
            content32("mutators.split.spread", s.spread, 0.0, MAX_RADIUS)?;
        }
        if let Some(i) = self.mutators.inversion {
            content32("mutators.inversion.pivot", i.pivot, 0.0, MAX_SECONDS)?;
            content32("mutators.inversion.ceiling", i.ceiling, 0.0, MAX_SECONDS)?;
        }
        Ok(())
    }

    /// The largest radius of the kinds that fill waves: every kind but the
    /// bosses (their clones are bosses too). It sizes the enemy grid's cells;
    /// a boss is one of the grid's few wide points (`Grid::wide`), so a
    /// 40 px boss does not make the horde's cells five times fuller.
    pub fn max_enemy_radius(&self) -> f32 {
        self.enemy_kinds.iter().filter(|k| !k.behavior.is_boss()).map(|k| k.radius).fold(0.0, f32::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::boss::{BossDef, BossPhase, BossShot, Enrage};

    fn every_behavior() -> Vec<Behavior> {
        let attack = RangedAttack {
            every: 1.0,
            speed: 1.0,
            damage: 1.0,
            radius: 1.0,
            lifetime: 1.0,
            min_distance: 1.0,
            max_distance: 2.0,
            strafe: 0.0,
        };
        let boss = BossDef {
            phases: vec![BossPhase::new(1, 1.0, 0.0)],
            shot: BossShot { speed: 1.0, damage: 1.0, radius: 1.0, lifetime: 1.0 },
            enrage_after: 1.0,
            hyper: Enrage { speed: 1.0, damage: 1.0, interval: 1.0, chase: false },
            telegraph: 0.5,
        };
        vec![
            Behavior::Chase,
            Behavior::Swarm,
            Behavior::KeepDistance(attack),
            Behavior::Shield(Shield { arc_degrees: 90.0, reflect_damage: 1.0 }),
            Behavior::Explode(DeathBlast { radius: 1.0, damage: 1.0, element: Element::Fire }),
            Behavior::Split(Split { into: 0, count: 1, spread: 1.0 }),
            Behavior::Boss(Box::new(boss)),
        ]
    }

    /// Each behaviour's name is enemies.json's, names the block it carries, and its accessors
    /// answer for that block alone.
    #[test]
    fn a_behaviour_carries_the_block_its_name_says_and_no_other() {
        for b in every_behavior() {
            let block = Behavior::block_of(b.name()).unwrap();
            let present = [
                ("attack", b.attack().is_some()),
                ("shield", b.shield().is_some()),
                ("explode", b.explode().is_some()),
                ("split", b.split().is_some()),
                ("boss", b.boss().is_some() && b.is_boss()),
            ];
            for (key, here) in present {
                assert_eq!(here, block == Some(key), "{} and {key}", b.name());
            }
            let kind = EnemyKind { behavior: b.clone(), ..EnemyKind::default() };
            assert_eq!(kind.acts_on_death(), block == Some("explode") || block == Some("split"), "{}", b.name());
        }
        assert_eq!(Behavior::block_of("wander"), Err(CoreError::content("unknown behavior \"wander\"")));
        assert_eq!(Behavior::default(), Behavior::Chase);
    }
}
