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
use super::limits::{show, MAX_AMOUNT, MAX_COUNT, MAX_SECONDS};

/// A rule's kind, `float` (f32) or `count` (a whole number, u32): its Rust
/// type, whether it is whole, and which of `RelicRules::by_kind`'s lists it joins.
macro_rules! rule_kind {
    (type float) => {
        f32
    };
    (type count) => {
        u32
    };
    (whole float) => {
        false
    };
    (whole count) => {
        true
    };
    (push float, $v:expr, $floats:ident, $counts:ident) => {
        $floats.push($v)
    };
    (push count, $v:expr, $floats:ident, $counts:ident) => {
        $counts.push($v)
    };
}

/// Declares the core's relic rules from one list (issue 14: a new rule is one
/// entry here and its behaviour where it acts). Each entry is the rule's
/// field of `RelicRules` — named as relics.json's `effect` spells it —, its
/// kind and largest value, the hook it acts on and how several relics of it
/// combine (`RuleSpec`, exported as `_core.RELIC_RULE_SPECS`), and the
/// `RelicRule` event it reports when it acts. From the list come the struct,
/// `RelicRule` (`named_enum!`), `SPECS`, `get`/`set` by name, the range
/// check and the state hash's order.
macro_rules! relic_rules {
    ($(
        $(#[$doc:meta])*
        $field:ident: $kind:ident in $most:expr, hook $hook:literal, combine $combine:literal,
            event $(#[$edoc:meta])* $variant:ident = $value:literal => $name:literal;
    )+) => {
        /// R-REL-1 relics whose rules run in the core; all 0 = off.
        #[derive(Clone, Copy, Debug, Default, PartialEq)]
        pub struct RelicRules {
            $($(#[$doc])* pub $field: rule_kind!(type $kind),)+
        }

        named_enum! {
            /// Which rule a `Relic` event reports (its `a`), so the HUD can flash the
            /// relic. Exported as `_core.RELIC_RULES`; `RuleSpec::event` pairs each with its rule.
            pub enum RelicRule: u8 {
                $($(#[$edoc])* $variant = $value => $name,)+
            }
        }

        impl RelicRules {
            /// Every rule, in declaration order.
            pub const SPECS: &'static [RuleSpec] = &[$(RuleSpec {
                name: stringify!($field),
                whole: rule_kind!(whole $kind),
                most: $most as f64,
                hook: $hook,
                combine: $combine,
                event: RelicRule::$variant,
            },)+];

            /// The rule named `name`'s value, widened to f64 (None: no such rule).
            pub fn get(&self, name: &str) -> Option<f64> {
                $(if name == stringify!($field) {
                    return Some(self.$field as f64);
                })+
                None
            }

            /// Sets the rule named `name` (false: no such rule). The value is taken as
            /// the field's type (`as`); callers check it first (`validate`, the PyO3 face).
            pub fn set(&mut self, name: &str, value: f64) -> bool {
                $(if name == stringify!($field) {
                    self.$field = value as rule_kind!(type $kind);
                    return true;
                })+
                false
            }

            /// The float rules' values, then the counts', each in declaration order
            /// (the state hash's order).
            pub fn by_kind(&self) -> (Vec<f32>, Vec<u32>) {
                let (mut floats, mut counts) = (Vec::new(), Vec::new());
                $(rule_kind!(push $kind, self.$field, floats, counts);)+
                (floats, counts)
            }
        }
    };
}

/// What a relic rule is, for game flow and content (`_core.RELIC_RULE_SPECS`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RuleSpec {
    /// The rule's field, and the relics.json `effect` that sets it.
    pub name: &'static str,
    /// A count (a whole number) rather than a float.
    pub whole: bool,
    /// The largest value the core takes.
    pub most: f64,
    /// The relics.json hook its relics act on (R-REL-1).
    pub hook: &'static str,
    /// How the values of several owned relics of the rule make the one the core runs:
    /// "sum", "min" (the smallest above 0: pen_nib's shortest period) or "max".
    pub combine: &'static str,
    /// The event it reports when it acts.
    pub event: RelicRule,
}

relic_rules! {
    /// pen_nib: every Nth fired ACTION in a wave deals ×2 (0 = off).
    pen_nib_period: count in MAX_COUNT, hook "attack_calc", combine "min",
        event /// A fired ACTION was doubled; value = its number in the wave.
        PenNibPeriod = 1 => "PEN_NIB_PERIOD";
    /// akabeko: the wave's first fired ACTION gets this much base damage.
    first_action_bonus: float in MAX_AMOUNT, hook "attack_calc", combine "sum",
        event /// The wave's first fired ACTION got the bonus; value = the bonus.
        FirstActionBonus = 2 => "FIRST_ACTION_BONUS";
    /// the_boot: a hit that would deal more than 0 but less than this deals this.
    damage_floor: float in MAX_AMOUNT, hook "attack_calc", combine "max",
        event /// Hits were lifted to the floor: once per frame, value = how many.
        DamageFloor = 3 => "DAMAGE_FLOOR";
    /// bronze_scales: an enemy whose touch hurts the player takes this
    /// much straight off its HP.
    thorns: float in MAX_AMOUNT, hook "player_damaged", combine "sum",
        event /// An attacker took thorns; b = its kind, value = damage dealt; x, y = the enemy.
        Thorns = 4 => "THORNS";
    /// bag_of_prep: the wave's first cast gets this much extra action budget.
    first_cast_budget: count in MAX_COUNT, hook "wave_start", combine "sum",
        event /// The wave's first cast got extra budget; value = the extra.
        FirstCastBudget = 5 => "FIRST_CAST_BUDGET";
    /// centennial_puzzle: after the wave's first HP loss, the next cast gets
    /// this much extra action budget (once a wave).
    hurt_cast_budget: count in MAX_COUNT, hook "player_damaged", combine "sum",
        event /// The wave's first HP loss: the next cast gets extra budget; value = the extra.
        HurtCastBudget = 6 => "HURT_CAST_BUDGET";
    /// self_forming_clay: each HP loss adds this much ward at the next turn.
    hurt_ward: float in MAX_AMOUNT, hook "player_damaged", combine "sum",
        event /// A turn began with ward from HP lost in the last; value = the ward.
        HurtWard = 7 => "HURT_WARD";
    /// champion_belt: applying vulnerable also applies weak for this many turns.
    vulnerable_weak: float in MAX_SECONDS, hook "attack_calc", combine "sum",
        event /// Vulnerable brought weak along; b = enemy kind, value = weak seconds; x, y = the enemy.
        VulnerableWeak = 8 => "VULNERABLE_WEAK";
}

impl RelicRules {
    /// The rule named `name`, if the core has it.
    pub fn spec(name: &str) -> Option<&'static RuleSpec> {
        Self::SPECS.iter().find(|spec| spec.name == name)
    }

    /// Every rule within its range (floats finite), else a `CoreError::Argument` naming it.
    pub fn validate(&self) -> CoreResult<()> {
        for spec in Self::SPECS {
            let v = self.get(spec.name).unwrap_or_default();
            if !(v.is_finite() && v >= 0.0 && v <= spec.most) {
                return Err(CoreError::arg(format!(
                    "relic rule {} must be a finite number in 0..={}, got {}",
                    spec.name,
                    show(spec.most),
                    show(v)
                )));
            }
        }
        Ok(())
    }

    /// Whether fired ACTIONs need looking at (pen_nib or akabeko is on).
    pub fn boosts_actions(&self) -> bool {
        self.pen_nib_period > 0 || self.first_action_bonus > 0.0
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
    period > 0 && n.is_multiple_of(period)
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
    fn every_rule_is_named_settable_and_reports_its_own_event() {
        let mut events: Vec<RelicRule> = RelicRules::SPECS.iter().map(|spec| spec.event).collect();
        events.dedup();
        assert_eq!(events, RelicRule::ALL, "one event per rule, in the same order");
        for (i, spec) in RelicRules::SPECS.iter().enumerate() {
            assert!(["attack_calc", "player_damaged", "wave_start"].contains(&spec.hook), "{}", spec.name);
            assert!(["sum", "min", "max"].contains(&spec.combine), "{}", spec.name);
            assert_eq!(spec.event.name(), spec.name.to_uppercase(), "an event is named as its rule");
            let mut rules = RelicRules::default();
            assert!(rules.set(spec.name, 3.0));
            assert_eq!(rules.get(spec.name), Some(3.0));
            let (floats, counts) = rules.by_kind();
            let (in_counts, in_floats) = (counts.contains(&3), floats.contains(&3.0));
            assert_eq!((in_counts, in_floats), (spec.whole, !spec.whole), "{} lands in its kind's list", spec.name);
            assert_eq!(floats.len() + counts.len(), RelicRules::SPECS.len(), "rule {i}");
        }
        assert!(!RelicRules::default().set("fly", 1.0));
        assert_eq!(RelicRules::default().get("fly"), None);
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
