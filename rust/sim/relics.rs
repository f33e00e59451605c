//! Relic rules the core applies (R-REL-1/2): the attack-calculation relics
//! and the combat hooks, as numbers game flow sets per run
//! (`World::set_relic_rules`), plus their per-wave state. All 0 = off.
//!
//! R-REL-2's attack calculation — base + akabeko → pen_nib ×2 → strength
//! (flat) → weak → the_boot; vulnerable on hit (R-DMG-1) — is split where
//! each term is known: akabeko and pen_nib belong to the fired ACTION and
//! go into its damage when it is fired (`fired_damage`, counted in
//! `World::fired_action`); strength, weak and the_boot belong to the hit
//! and are `Attack::flat`, a factor of `Attack::mult` and
//! `Attack::boot_floor` in `combat::final_damage`, which applies
//! vulnerable last. `tests/relics.rs` checks the whole order as a table.
//!
//! What counts as a fired ACTION (pen_nib's and akabeko's "attack card"):
//! every damaging (damage > 0) Projectile or Blast emission of the wand,
//! whatever runs it — the main cast (a multicast of 3 is 3 actions), the
//! `on_kill`/`on_hit` entries, trigger payloads, summons' programs, the
//! dash wave. Not counted: zones (damage
//! over time, not a hit), the summon itself (its shots count), a chain's
//! jumps and a carrier's explosion (both the same action, they carry its
//! damage, doubled or not), and projectiles placed by a harness
//! (`spawn_projectile`). The count is per wave (`begin_wave` resets it).

use super::contract::named_enum;
use super::error::{CoreError, CoreResult};

/// R-REL-1 relics whose rules run in the core; all 0 = off.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RelicRules {
    /// pen_nib: every Nth fired ACTION in a wave deals ×2 (0 = off).
    pub pen_nib_period: u32,
    /// akabeko: the wave's first fired ACTION gets this much base damage.
    pub akabeko_bonus: f32,
    /// the_boot: a hit that would deal more than 0 but less than this deals this.
    pub the_boot_floor: f32,
    /// bronze_scales: an enemy whose touch hurts the player takes this
    /// much straight off its HP.
    pub thorns: f32,
    /// bag_of_prep: the wave's first cast gets this much extra action budget.
    pub first_cast_budget: u32,
    /// centennial_puzzle: after the wave's first HP loss, the next cast gets
    /// this much extra action budget (once a wave).
    pub hurt_cast_budget: u32,
    /// self_forming_clay: each HP loss adds this much ward at the next turn.
    pub hurt_ward: f32,
    /// champion_belt: applying vulnerable also applies weak for this many turns.
    pub vulnerable_weak_turns: f32,
}

impl RelicRules {
    /// Every number finite and ≥ 0, else a `CoreError::Argument` naming it.
    pub fn validate(&self) -> CoreResult<()> {
        let numbers = [
            ("akabeko_bonus", self.akabeko_bonus),
            ("the_boot_floor", self.the_boot_floor),
            ("thorns", self.thorns),
            ("hurt_ward", self.hurt_ward),
            ("vulnerable_weak_turns", self.vulnerable_weak_turns),
        ];
        let max = crate::sim::limits::MAX_AMOUNT;
        if let Some((name, v)) = numbers.iter().find(|(_, v)| !(v.is_finite() && *v >= 0.0 && (*v as f64) <= max)) {
            return Err(CoreError::arg(format!(
                "relic rule {name} must be a finite number in 0..=1e9, got {}",
                crate::sim::limits::show32(*v)
            )));
        }
        Ok(())
    }

    /// Whether fired ACTIONs need looking at (pen_nib or akabeko is on).
    pub fn boosts_actions(&self) -> bool {
        self.pen_nib_period > 0 || self.akabeko_bonus > 0.0
    }
}

named_enum! {
    /// Which rule a `Relic` event reports (its `a`), so the HUD can flash the
    /// relic. Exported as `_core.RELIC_RULES` (`artificer.engine.events.RelicRule`).
    pub enum RelicRule: u8 {
        /// A fired ACTION was doubled; value = its number in the wave.
        PenNib = 1 => "PEN_NIB",
        /// The wave's first fired ACTION got the bonus; value = the bonus.
        Akabeko = 2 => "AKABEKO",
        /// Hits were lifted to the floor: once per frame, value = how many.
        TheBoot = 3 => "THE_BOOT",
        /// An attacker took thorns; b = its kind, value = damage dealt; x, y = the enemy.
        Thorns = 4 => "THORNS",
        /// The wave's first cast got extra budget; value = the extra.
        FirstCastBudget = 5 => "FIRST_CAST_BUDGET",
        /// The wave's first HP loss: the next cast gets extra budget; value = the extra.
        HurtCastBudget = 6 => "HURT_CAST_BUDGET",
        /// A turn began with ward from HP lost in the last; value = the ward.
        HurtWard = 7 => "HURT_WARD",
        /// Vulnerable brought weak along; b = enemy kind, value = weak seconds; x, y = the enemy.
        ChampionWeak = 8 => "CHAMPION_WEAK",
    }
}

/// The relics' state within a wave; `begin_wave` resets it. All of it is
/// in the state hash.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RelicState {
    /// Fired ACTIONs this wave (pen_nib, akabeko).
    pub actions_fired: u32,
    /// The wave's first main cast has happened (bag_of_prep).
    pub first_cast_done: bool,
    /// The wave's first HP loss has happened (centennial_puzzle).
    pub hurt_budget_done: bool,
    /// Extra budget waiting for the next main cast (centennial_puzzle).
    pub pending_budget: u32,
    /// Ward waiting for the next turn (self_forming_clay).
    pub pending_ward: f32,
    /// Hits the_boot lifted this frame (reported once at the frame's end; 0 between frames).
    pub boot_lifts: u32,
}

/// R-REL-2's first two terms, on a fired ACTION's damage: `(base + akabeko)
/// × 2 if pen_nib`. `akabeko` is 0 unless this is the wave's first action.
pub fn fired_damage(base: f32, akabeko: f32, pen_nib: bool) -> f32 {
    let with_bonus = base + akabeko;
    if pen_nib {
        with_bonus * 2.0
    } else {
        with_bonus
    }
}

/// Whether the `n`th fired ACTION of a wave (from 1) is pen_nib's.
pub fn pen_nib_fires(period: u32, n: u32) -> bool {
    period > 0 && n % period == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pen_nib_is_every_period_th_action() {
        let doubled: Vec<u32> = (1..=35).filter(|&n| pen_nib_fires(10, n)).collect();
        assert_eq!(doubled, [10, 20, 30]);
        assert!(!(1..100).any(|n| pen_nib_fires(0, n)), "period 0 is off");
    }

    #[test]
    fn akabeko_is_added_before_pen_nib_doubles() {
        assert_eq!(fired_damage(5.0, 8.0, false), 13.0);
        assert_eq!(fired_damage(5.0, 8.0, true), 26.0);
        assert_eq!(fired_damage(5.0, 0.0, true), 10.0);
    }

    #[test]
    fn rules_refuse_negative_and_non_finite_numbers() {
        assert!(RelicRules::default().validate().is_ok());
        for bad in [-1.0, f32::NAN, f32::INFINITY] {
            let r = RelicRules { thorns: bad, ..Default::default() };
            assert!(r.validate().unwrap_err().to_string().contains("thorns"));
        }
    }
}
