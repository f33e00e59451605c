//! The player: movement and dash (R-LOOP-2), HP, ward, mana pool, timers.

use super::config::PlayerParams;
use super::error::{CoreError, CoreResult};

/// One frame of the player's intent, decoded from the controls vector.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Controls {
    /// Movement in [-1, 1]², longer vectors are normalised.
    pub move_x: f32,
    pub move_y: f32,
    /// Aim point in world px (used when `aim_at_point`).
    pub aim_x: f32,
    pub aim_y: f32,
    /// Dash pressed this frame.
    pub dash: bool,
    /// Aim mode (setting): false = nearest enemy, true = the aim point.
    pub aim_at_point: bool,
}

/// Width of the controls vector in the frame contract (`contract::CONTROL_FIELDS`).
pub const CONTROLS_WIDTH: usize = super::contract::CONTROL_FIELDS.len();

#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    pub x: f32,
    pub y: f32,
    pub radius: f32,
    pub hp: f32,
    pub hp_max: f32,
    pub armor: f32,
    pub ward: f32,
    pub strength: f32,
    pub mana: f32,
    pub mana_max: f32,
    /// mana per second (R-MANA-1)
    pub mana_regen: f32,
    /// mana per kill (R-MANA-8)
    pub mana_leech: f32,
    pub crit_chance: f32,
    pub crit_multiplier: f32,
    /// px per tick
    pub speed: f32,
    pub dash_speed: f32,
    pub dash_duration: f32,
    pub dash_cooldown_max: f32,
    pub invulnerability: f32,
    /// Seconds left: dash in progress, dash cooldown, invulnerability.
    pub dash_left: f32,
    pub dash_cooldown: f32,
    pub invulnerable: f32,
    pub dash_dx: f32,
    pub dash_dy: f32,
    /// The last non-zero movement direction (dashing while still uses it).
    pub face_x: f32,
    pub face_y: f32,
    pub moving: bool,
    pub alive: bool,
    /// R-END-1 Last Will armed: the next lethal hit leaves 1 HP instead and
    /// disarms it (once per run; game flow arms it, run saves carry it).
    pub last_will: bool,
    /// R-STAT-1 the stats bought in the shop (`buy`), already in the numbers above.
    pub bought: PlayerStats,
}

impl Player {
    pub fn new(p: &PlayerParams, x: f32, y: f32, dt: f32) -> Self {
        Player {
            x,
            y,
            radius: p.radius,
            hp: p.max_hp,
            hp_max: p.max_hp,
            armor: p.armor,
            ward: 0.0,
            strength: 0.0,
            mana: p.mana_max,
            mana_max: p.mana_max,
            mana_regen: p.mana_regen,
            mana_leech: p.mana_leech,
            crit_chance: p.crit_chance,
            crit_multiplier: p.crit_multiplier,
            speed: p.move_speed * dt,
            dash_speed: p.dash_speed * dt,
            dash_duration: p.dash_duration,
            dash_cooldown_max: p.dash_cooldown,
            invulnerability: p.invulnerability,
            dash_left: 0.0,
            dash_cooldown: 0.0,
            invulnerable: 0.0,
            dash_dx: 0.0,
            dash_dy: 0.0,
            face_x: 1.0,
            face_y: 0.0,
            moving: false,
            alive: true,
            last_will: false,
            bought: PlayerStats::default(),
        }
    }

    /// Moves the player for one tick; returns true if a dash started.
    pub fn update(&mut self, c: &Controls, dt: f32, arena_w: f32, arena_h: f32) -> bool {
        self.dash_cooldown = (self.dash_cooldown - dt).max(0.0);
        self.invulnerable = (self.invulnerable - dt).max(0.0);
        self.mana = (self.mana + self.mana_regen * dt).min(self.mana_max);
        if !self.alive {
            self.moving = false;
            return false;
        }
        let (mut mx, mut my) = (c.move_x, c.move_y);
        let len = (mx * mx + my * my).sqrt();
        if len > 1.0 {
            mx /= len;
            my /= len;
        }
        self.moving = len > 1e-3;
        if self.moving {
            let l = len.max(1e-6);
            self.face_x = c.move_x / l;
            self.face_y = c.move_y / l;
        }
        let mut dashed = false;
        if c.dash && self.dash_cooldown <= 0.0 && self.dash_left <= 0.0 {
            self.dash_left = self.dash_duration;
            self.dash_cooldown = self.dash_cooldown_max;
            self.dash_dx = self.face_x;
            self.dash_dy = self.face_y;
            dashed = true;
        }
        if self.dash_left > 0.0 {
            self.dash_left = (self.dash_left - dt).max(0.0);
            self.x += self.dash_dx * self.dash_speed;
            self.y += self.dash_dy * self.dash_speed;
            self.moving = true;
        } else {
            self.x += mx * self.speed;
            self.y += my * self.speed;
        }
        self.x = self.x.clamp(self.radius, (arena_w - self.radius).max(self.radius));
        self.y = self.y.clamp(self.radius, (arena_h - self.radius).max(self.radius));
        dashed
    }

    /// Takes `amount` after ward; returns (HP lost, ward absorbed). R-END-1:
    /// with Last Will armed, a hit that would bring HP to 0 leaves it at 1
    /// (never raises it) and disarms Last Will.
    pub fn take_damage(&mut self, amount: f32) -> (f32, f32) {
        let absorbed = amount.min(self.ward);
        self.ward -= absorbed;
        let mut lost = (amount - absorbed).min(self.hp);
        if self.last_will && self.hp > 0.0 && lost >= self.hp {
            lost = (self.hp - 1.0).max(0.0);
            self.last_will = false;
        }
        self.hp -= lost;
        self.invulnerable = self.invulnerability;
        if self.hp <= 0.0 {
            self.alive = false;
        }
        (lost, absorbed)
    }

    /// Heals `amount` (if above 0) up to the max, unless dead (lifesteal, zones).
    pub fn heal(&mut self, amount: f32) {
        if amount > 0.0 && self.alive {
            self.hp = (self.hp + amount).min(self.hp_max);
        }
    }

    /// R-STAT-1: `stats` (valid) replace the stats bought before, each a bonus on
    /// top of `base` (balance.json `player`). Raising the max HP bonus heals by
    /// the same amount; lowering it caps HP at the new max and never kills.
    /// Crit chance stops at 1. With a program wand armed (`program`), its
    /// core's mana_regen regenerates the pool: the player's own regen is the bonus alone,
    /// and the pool's max is the world's to set (the core's `mana_max` plus the bonus).
    pub fn buy(&mut self, stats: PlayerStats, base: &PlayerParams, dt: f32, program: bool) {
        let grow = stats.max_hp_bonus - self.bought.max_hp_bonus;
        self.hp_max = (self.hp_max + grow).max(1.0);
        if self.alive {
            let healed = if grow > 0.0 { self.hp + grow } else { self.hp };
            self.hp = healed.min(self.hp_max);
        }
        self.armor = base.armor + stats.armor;
        self.speed = base.move_speed * (1.0 + stats.move_speed_bonus) * dt;
        self.crit_chance = (base.crit_chance + stats.crit_chance_bonus).min(1.0);
        let base_regen = if program { 0.0 } else { base.mana_regen };
        self.mana_regen = base_regen + stats.mana_regen_bonus;
        if !program {
            // Without a wand the pool is balance.json's; an armed wand's is its core's (`World::set_player_stats`).
            self.mana_max = base.mana_max + stats.mana_max_bonus;
            self.mana = self.mana.min(self.mana_max);
        }
        self.mana_leech = base.mana_leech + stats.mana_leech;
        self.bought = stats;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> PlayerParams {
        PlayerParams {
            max_hp: 100.0,
            radius: 10.0,
            move_speed: 240.0,
            armor: 0.0,
            dash_speed: 900.0,
            dash_duration: 0.15,
            dash_cooldown: 1.5,
            invulnerability: 0.5,
            crit_chance: 0.0,
            crit_multiplier: 2.0,
            mana_max: 100.0,
            mana_regen: 5.0,
            mana_leech: 0.0,
            auto_aim_range: f32::INFINITY,
        }
    }

    /// R-LOOP-2: the player moves at its speed, dashes, and the dash has a cooldown.
    #[test]
    fn r_loop_2_move_dash_and_cooldown() {
        let dt = 1.0 / 60.0;
        let mut p = Player::new(&params(), 500.0, 500.0, dt);
        let right = Controls { move_x: 1.0, ..Default::default() };
        p.update(&right, dt, 1000.0, 1000.0);
        assert!((p.x - 504.0).abs() < 1e-3);
        let dash = Controls { move_x: 1.0, dash: true, ..Default::default() };
        assert!(p.update(&dash, dt, 1000.0, 1000.0));
        assert!((p.x - 519.0).abs() < 1e-3, "{}", p.x);
        for _ in 0..20 {
            assert!(!p.update(&dash, dt, 1000.0, 1000.0), "cooldown must block a second dash");
        }
        for _ in 0..90 {
            p.update(&right, dt, 1000.0, 1000.0);
        }
        assert!(p.update(&dash, dt, 1000.0, 1000.0), "cooldown is over after 1.5 s");
        assert!(p.x <= 990.0, "stays in the arena");
    }

    #[test]
    fn ward_absorbs_first() {
        let mut p = Player::new(&params(), 0.0, 0.0, 1.0 / 60.0);
        p.ward = 5.0;
        assert_eq!(p.take_damage(8.0), (3.0, 5.0));
        assert_eq!(p.hp, 97.0);
        assert_eq!(p.take_damage(500.0), (97.0, 0.0));
        assert!(!p.alive);
    }

    /// R-END-1: armed Last Will turns one lethal hit into 1 HP left; a
    /// player below 1 HP keeps what it has (never healed).
    #[test]
    fn r_end_1_last_will_leaves_one_hp_once() {
        let mut p = Player::new(&params(), 0.0, 0.0, 1.0 / 60.0);
        p.last_will = true;
        assert_eq!(p.take_damage(30.0), (30.0, 0.0), "not lethal: Last Will stays armed");
        assert!(p.last_will);
        assert_eq!(p.take_damage(500.0), (69.0, 0.0));
        assert_eq!((p.hp, p.alive, p.last_will), (1.0, true, false));
        p.hp = 0.5;
        p.last_will = true;
        assert_eq!(p.take_damage(9.0), (0.0, 0.0));
        assert_eq!((p.hp, p.alive, p.last_will), (0.5, true, false));
    }
}

/// R-STAT-1 player stats bought in the shop (`World::set_player_stats`, `Player::buy`):
/// bonuses on top of balance.json `player`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayerStats {
    /// Max HP points added.
    pub max_hp_bonus: f32,
    /// Armor points added (taken off every hit on the player, R-DMG-1).
    pub armor: f32,
    /// Move speed share added (0.1 = +10%).
    pub move_speed_bonus: f32,
    /// Crit chance added (0..1).
    pub crit_chance_bonus: f32,
    /// Magnet reach added, px.
    pub pickup_radius_bonus: f32,
    /// Mana per second added.
    pub mana_regen_bonus: f32,
    /// Max mana added to the pool (R-MANA-7: the armed core's `mana_max` plus this).
    pub mana_max_bonus: f32,
    /// Mana restored per kill, added (R-MANA-8).
    pub mana_leech: f32,
}

impl PlayerStats {
    /// Every field finite, ≥ 0 and within its range (a `CoreError::Argument` naming it otherwise).
    pub fn validate(&self) -> CoreResult<()> {
        let fields = [
            ("max_hp_bonus", self.max_hp_bonus),
            ("armor", self.armor),
            ("move_speed_bonus", self.move_speed_bonus),
            ("crit_chance_bonus", self.crit_chance_bonus),
            ("pickup_radius_bonus", self.pickup_radius_bonus),
            ("mana_regen_bonus", self.mana_regen_bonus),
            ("mana_max_bonus", self.mana_max_bonus),
            ("mana_leech", self.mana_leech),
        ];
        use super::limits::{MAX_AMOUNT, MAX_FACTOR, MAX_RADIUS};
        let most = |name: &str| match name {
            "move_speed_bonus" => MAX_FACTOR,
            "pickup_radius_bonus" => MAX_RADIUS,
            _ => MAX_AMOUNT,
        };
        if let Some((name, v)) =
            fields.iter().find(|(name, v)| !(v.is_finite() && *v >= 0.0 && (*v as f64) <= most(name)))
        {
            let show = super::limits::show;
            return Err(CoreError::arg(format!(
                "player stat {name} must be a finite number in 0..={}, got {}",
                show(most(name)),
                super::limits::show32(*v)
            )));
        }
        Ok(())
    }
}
