//! Relic rules the core applies (R-REL-1/2): the attack-calculation relics,
//! the combat hooks and the healing relics that act inside the wave (every
//! wave begins at full HP, R-LOOP-1: burning_blood on an elite's death,
//! blood_vial at a moment of the wave clock, meat_on_bone on falling low), as
//! numbers game flow sets per run (`World::set_relic_rules`), plus their
//! per-wave state. All 0 = off.
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

/// A rule's parameter (`param`), none or one: its `ParamSpec`.
macro_rules! rule_param {
    () => {
        None
    };
    ($param:ident, $field:literal, $most:expr, $combine:literal) => {
        Some(ParamSpec { name: stringify!($param), field: $field, most: $most as f64, combine: $combine })
    };
}

/// Declares the core's relic rules from one list (issue 14: a new rule is one
/// entry here and its behaviour where it acts). Each entry is the rule's
/// field of `RelicRules` — named as relics.json's `effect` spells it —, its
/// kind and largest value, the hook it acts on, how several relics of it
/// combine, how the state hash takes it (`Hashed`), its parameter if it has
/// one (a float of its own field, set from another field of the relic:
/// blood_vial's `seconds`, meat_on_bone's `threshold`) (`RuleSpec`, exported
/// as `_core.RELIC_RULE_SPECS`), and the `RelicRule` event it reports when it
/// acts. From the list come the struct, `RelicRule` (`named_enum!`), `SPECS`,
/// `get`/`set` by name (rules and parameters), the range check and the state
/// hash's order.
macro_rules! relic_rules {
    ($(
        $(#[$doc:meta])*
        $field:ident: $kind:ident in $most:expr, hook $hook:literal, combine $combine:literal, hashed $hashed:ident,
            $(param $(#[$pdoc:meta])* $param:ident = $pfield:literal in $pmost:expr, combine $pcombine:literal,)?
            event $(#[$edoc:meta])* $variant:ident = $value:literal => $name:literal;
    )+) => {
        /// R-REL-1 relics whose rules run in the core; all 0 = off.
        #[derive(Clone, Copy, Debug, Default, PartialEq)]
        pub struct RelicRules {
            $(
                $(#[$doc])* pub $field: rule_kind!(type $kind),
                $($(#[$pdoc])* pub $param: f32,)?
            )+
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
                hashed: Hashed::$hashed,
                param: rule_param!($($param, $pfield, $pmost, $pcombine)?),
                event: RelicRule::$variant,
            },)+];

            /// The value of the rule or rule parameter named `name`, widened to f64
            /// (None: no such rule or parameter).
            pub fn get(&self, name: &str) -> Option<f64> {
                $(
                    if name == stringify!($field) {
                        return Some(self.$field as f64);
                    }
                    $(if name == stringify!($param) {
                        return Some(self.$param as f64);
                    })?
                )+
                None
            }

            /// Sets the rule or rule parameter named `name` (false: no such name). The
            /// value is taken as the field's type (`as`); callers check it first
            /// (`validate`, the PyO3 face).
            pub fn set(&mut self, name: &str, value: f64) -> bool {
                $(
                    if name == stringify!($field) {
                        self.$field = value as rule_kind!(type $kind);
                        return true;
                    }
                    $(if name == stringify!($param) {
                        self.$param = value as f32;
                        return true;
                    })?
                )+
                false
            }
        }
    };
}

/// How the state hash takes a rule (`Relics::hash_into`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hashed {
    /// Its value always, in declaration order (the rules of issue 6, whose hashes the goldens hold).
    Always,
    /// Only while it is on (its value or parameter not 0), in a section of its own: a rule added
    /// later leaves the hash of every world without it as it was (R-DET-1's recorded hashes).
    WhileOn,
}

/// A rule's parameter: a second number the rule acts with, set from its own relics.json field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    /// The `RelicRules` field holding it (the rule's name and the relics.json field's).
    pub name: &'static str,
    /// The relics.json field of the relic that sets it.
    pub field: &'static str,
    /// The largest value the core takes (from 0).
    pub most: f64,
    /// How the parameters of several owned relics of the rule make the one the core runs
    /// ("min" or "max"; their values combine as the rule says).
    pub combine: &'static str,
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
    /// How the state hash takes it.
    pub hashed: Hashed,
    /// Its parameter, if it has one.
    pub param: Option<ParamSpec>,
    /// The event it reports when it acts.
    pub event: RelicRule,
}

relic_rules! {
    /// pen_nib: every Nth fired ACTION in a wave deals ×2 (0 = off).
    pen_nib_period: count in MAX_COUNT, hook "attack_calc", combine "min", hashed Always,
        event /// A fired ACTION was doubled; value = its number in the wave.
        PenNibPeriod = 1 => "PEN_NIB_PERIOD";
    /// akabeko: the wave's first fired ACTION gets this much base damage.
    first_action_bonus: float in MAX_AMOUNT, hook "attack_calc", combine "sum", hashed Always,
        event /// The wave's first fired ACTION got the bonus; value = the bonus.
        FirstActionBonus = 2 => "FIRST_ACTION_BONUS";
    /// the_boot: a hit that would deal more than 0 but less than this deals this.
    damage_floor: float in MAX_AMOUNT, hook "attack_calc", combine "max", hashed Always,
        event /// Hits were lifted to the floor: once per frame, value = how many.
        DamageFloor = 3 => "DAMAGE_FLOOR";
    /// bronze_scales: an enemy whose touch hurts the player takes this
    /// much straight off its HP.
    thorns: float in MAX_AMOUNT, hook "player_damaged", combine "sum", hashed Always,
        event /// An attacker took thorns; b = its kind, value = damage dealt; x, y = the enemy.
        Thorns = 4 => "THORNS";
    /// bag_of_prep: the wave's first cast gets this much extra action budget.
    first_cast_budget: count in MAX_COUNT, hook "wave_start", combine "sum", hashed Always,
        event /// The wave's first cast got extra budget; value = the extra.
        FirstCastBudget = 5 => "FIRST_CAST_BUDGET";
    /// centennial_puzzle: after the wave's first HP loss, the next cast gets
    /// this much extra action budget (once a wave).
    hurt_cast_budget: count in MAX_COUNT, hook "player_damaged", combine "sum", hashed Always,
        event /// The wave's first HP loss: the next cast gets extra budget; value = the extra.
        HurtCastBudget = 6 => "HURT_CAST_BUDGET";
    /// self_forming_clay: each HP loss adds this much ward at the next turn.
    hurt_ward: float in MAX_AMOUNT, hook "player_damaged", combine "sum", hashed Always,
        event /// A turn began with ward from HP lost in the last; value = the ward.
        HurtWard = 7 => "HURT_WARD";
    /// champion_belt: applying vulnerable also applies weak for this many turns.
    vulnerable_weak: float in MAX_SECONDS, hook "attack_calc", combine "sum", hashed Always,
        event /// Vulnerable brought weak along; b = enemy kind, value = weak seconds; x, y = the enemy.
        VulnerableWeak = 8 => "VULNERABLE_WEAK";
    /// burning_blood: each elite enemy's death heals the player this much (R-REL-1; in the
    /// wave, since every wave begins at full HP, R-LOOP-1).
    heal_on_elite_kill: float in MAX_AMOUNT, hook "enemy_killed", combine "sum", hashed WhileOn,
        event /// An elite died and the player healed; b = its kind, value = HP restored; x, y = the elite.
        HealOnEliteKill = 9 => "HEAL_ON_ELITE_KILL";
    /// blood_vial: `heal_at_wave_time_seconds` into a wave (the wave clock, from
    /// `begin_wave`), the player heals this much, once.
    heal_at_wave_time: float in MAX_AMOUNT, hook "wave_time", combine "sum", hashed WhileOn,
        param /// blood_vial's moment: seconds of wave time, rounded to whole ticks (at least the first).
        heal_at_wave_time_seconds = "seconds" in MAX_SECONDS, combine "min",
        event /// The wave clock reached the moment and the player healed; value = HP restored.
        HealAtWaveTime = 10 => "HEAL_AT_WAVE_TIME";
    /// meat_on_bone: once a wave, when the player's HP is first at or below
    /// `heal_when_low_threshold` of max HP, the player heals this much.
    heal_when_low: float in MAX_AMOUNT, hook "hp_low", combine "sum", hashed WhileOn,
        param /// meat_on_bone's threshold: a share of max HP (0..=1; 0 never acts).
        heal_when_low_threshold = "threshold" in 1.0, combine "max",
        event /// The player's HP fell to the threshold and the player healed; value = HP restored.
        HealWhenLow = 11 => "HEAL_WHEN_LOW";
}

impl RelicRules {
    /// The rule named `name`, if the core has it.
    pub fn spec(name: &str) -> Option<&'static RuleSpec> {
        Self::SPECS.iter().find(|spec| spec.name == name)
    }

    /// The rule whose parameter is named `name`, and the parameter.
    pub fn param_spec(name: &str) -> Option<(&'static RuleSpec, &'static ParamSpec)> {
        Self::SPECS.iter().find_map(|spec| spec.param.as_ref().filter(|p| p.name == name).map(|p| (spec, p)))
    }

    /// Every rule and parameter within its range (floats finite), else a
    /// `CoreError::Argument` naming it.
    pub fn validate(&self) -> CoreResult<()> {
        let named = Self::SPECS
            .iter()
            .flat_map(|spec| std::iter::once((spec.name, spec.most)).chain(spec.param.map(|p| (p.name, p.most))));
        for (name, most) in named {
            let v = self.get(name).unwrap_or_default();
            if !(v.is_finite() && v >= 0.0 && v <= most) {
                return Err(CoreError::arg(format!(
                    "relic rule {name} must be a finite number in 0..={}, got {}",
                    show(most),
                    show(v)
                )));
            }
        }
        Ok(())
    }

    /// The rules hashed always (`Hashed::Always`): the floats' values, then the
    /// counts', each in declaration order (the state hash's order).
    pub fn by_kind(&self) -> (Vec<f32>, Vec<u32>) {
        let (mut floats, mut counts) = (Vec::new(), Vec::new());
        for spec in Self::SPECS.iter().filter(|spec| spec.hashed == Hashed::Always) {
            let v = self.get(spec.name).unwrap_or_default();
            if spec.whole {
                counts.push(v as u32);
            } else {
                floats.push(v as f32);
            }
        }
        (floats, counts)
    }

    /// The rules hashed while on (`Hashed::WhileOn`) that are on: each one's
    /// place in `SPECS`, its value and its parameter's (0 without one), in
    /// declaration order. Empty with them all off.
    pub fn while_on(&self) -> Vec<(u32, f32, f32)> {
        let on = Self::SPECS.iter().enumerate().filter(|(_, spec)| spec.hashed == Hashed::WhileOn);
        on.filter_map(|(i, spec)| {
            let v = self.get(spec.name).unwrap_or_default() as f32;
            let p = spec.param.and_then(|p| self.get(p.name)).unwrap_or_default() as f32;
            (v != 0.0 || p != 0.0).then_some((i as u32, v, p))
        })
        .collect()
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
    /// The wave's heal on falling low has happened (meat_on_bone).
    pub low_heal_done: bool,
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
        let hooks = ["attack_calc", "player_damaged", "wave_start", "enemy_killed", "wave_time", "hp_low"];
        let always = RelicRules::SPECS.iter().filter(|spec| spec.hashed == Hashed::Always).count();
        for (i, spec) in RelicRules::SPECS.iter().enumerate() {
            assert!(hooks.contains(&spec.hook), "{}", spec.name);
            assert!(["sum", "min", "max"].contains(&spec.combine), "{}", spec.name);
            assert_eq!(spec.event.name(), spec.name.to_uppercase(), "an event is named as its rule");
            let mut rules = RelicRules::default();
            assert!(rules.set(spec.name, 3.0));
            assert_eq!(rules.get(spec.name), Some(3.0));
            let (floats, counts) = rules.by_kind();
            assert_eq!(floats.len() + counts.len(), always, "rule {i}");
            match spec.hashed {
                Hashed::Always => {
                    let (in_counts, in_floats) = (counts.contains(&3), floats.contains(&3.0));
                    let kinds = (spec.whole, !spec.whole);
                    assert_eq!((in_counts, in_floats), kinds, "{} lands in its kind's list", spec.name);
                    assert!(rules.while_on().is_empty());
                }
                Hashed::WhileOn => {
                    assert!(!floats.contains(&3.0) && !counts.contains(&3), "{}", spec.name);
                    assert_eq!(rules.while_on(), [(i as u32, 3.0, 0.0)], "{} is hashed while on", spec.name);
                }
            }
        }
        assert!(!RelicRules::default().set("fly", 1.0));
        assert_eq!(RelicRules::default().get("fly"), None);
    }

    #[test]
    fn a_rules_parameter_is_named_settable_and_hashed_with_it() {
        let params: Vec<(&str, &str)> =
            RelicRules::SPECS.iter().filter_map(|spec| spec.param.map(|p| (spec.name, p.name))).collect();
        assert_eq!(
            params,
            [("heal_at_wave_time", "heal_at_wave_time_seconds"), ("heal_when_low", "heal_when_low_threshold")]
        );
        for (rule, param) in params {
            let (spec, p) = RelicRules::param_spec(param).unwrap();
            assert_eq!(spec.name, rule);
            assert_eq!(p.name, format!("{rule}_{}", p.field), "a parameter is named as its rule and field");
            assert!(["min", "max"].contains(&p.combine));
            assert!(RelicRules::spec(param).is_none(), "a parameter is not a rule");
            let mut rules = RelicRules::default();
            assert!(rules.set(param, 0.25));
            assert_eq!(rules.get(param), Some(0.25));
            let i = RelicRules::SPECS.iter().position(|s| s.name == rule).unwrap() as u32;
            assert_eq!(rules.while_on(), [(i, 0.0, 0.25)]);
        }
        assert!(RelicRules::param_spec("thorns").is_none());
    }

    #[test]
    fn rules_refuse_negative_and_non_finite_numbers() {
        assert!(RelicRules::default().validate().is_ok());
        for bad in [-1.0, f32::NAN, f32::INFINITY] {
            let r = RelicRules { thorns: bad, ..Default::default() };
            assert!(r.validate().unwrap_err().to_string().contains("thorns"));
            let r = RelicRules { heal_at_wave_time_seconds: bad, ..Default::default() };
            assert!(r.validate().unwrap_err().to_string().contains("relic rule heal_at_wave_time_seconds"));
        }
        let r = RelicRules { heal_when_low_threshold: 1.5, ..Default::default() };
        let refused = r.validate().unwrap_err().to_string();
        assert!(refused.contains("heal_when_low_threshold must be a finite number in 0..=1, got 1.5"), "{refused}");
    }
}
