//! Rule parameters as typed Python objects (issue 14): `PlayerStats`
//! (R-STAT-1, `World.set_player_stats`) and `RelicRules` (R-REL-1/2,
//! `World.set_relic_rules`, read back by `World.relic_rules`). Each class is
//! declared once by `rule_class!` from its list of fields: the keyword
//! constructor, the range check of every field when the object is built
//! (`sim::limits`: a bad value is a `CoreArgumentError` naming it, as the
//! keyword setters' were), the getters, `__repr__` and `==`. The object holds
//! the core's own struct, so what a getter shows is what the core uses.

use pyo3::prelude::*;

use super::args::Int;
use crate::sim::limits::{self, MAX_AMOUNT, MAX_COUNT, MAX_FACTOR, MAX_RADIUS, MAX_SECONDS};

/// One field's Python type and check, by kind: `float` (finite, in 0..=hi, kept as f32)
/// or `count` (any Python int, a whole number in 0..=hi, kept as u32).
macro_rules! rule_field {
    (arg float) => {
        f64
    };
    (arg count) => {
        Int
    };
    (out float) => {
        f32
    };
    (out count) => {
        u32
    };
    (check float, $name:expr, $v:expr, $hi:expr) => {
        limits::float($name, $v, 0.0, $hi)
    };
    (check count, $name:expr, $v:expr, $hi:expr) => {
        $v.count($name, $hi as u64)
    };
}

macro_rules! rule_class {
    (
        $(#[$meta:meta])*
        $class:ident($core:path) as $pyname:literal, named $prefix:literal, text_signature $sig:literal {
            $($(#[$fmeta:meta])* $field:ident: $kind:ident in $hi:expr, default $default:expr;)+
        }
    ) => {
        $(#[$meta])*
        #[pyclass(module = "artificer._core", name = $pyname, frozen, eq, from_py_object)]
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct $class(pub $core);

        #[pymethods]
        impl $class {
            #[new]
            #[allow(clippy::too_many_arguments)]
            #[pyo3(signature = (*, $($field = $default),+), text_signature = $sig)]
            fn new($($field: rule_field!(arg $kind)),+) -> PyResult<Self> {
                let mut core = <$core>::default();
                $(core.$field = rule_field!(check $kind, &format!("{} {}", $prefix, stringify!($field)), $field, $hi)?;)+
                Ok($class(core))
            }

            $(
                $(#[$fmeta])*
                #[getter]
                fn $field(&self) -> rule_field!(out $kind) {
                    self.0.$field
                }
            )+

            fn __repr__(&self) -> String {
                let fields: Vec<String> = vec![$(format!("{}={:?}", stringify!($field), self.0.$field)),+];
                format!("{}({})", $pyname, fields.join(", "))
            }
        }
    };
}

rule_class! {
    /// R-STAT-1 player stats bought in the shop, each a bonus on top of
    /// balance.json `player`: max HP points (raising it heals as much;
    /// lowering never kills), armor points, move speed share (0.1 = +10%),
    /// crit chance (0..1), pickup radius px, mana regen per second, mana per
    /// kill. Each finite and ≥ 0, at most 10**4 for the move speed share,
    /// 10**6 px for the pickup radius and 10**9 for the rest.
    PlayerStats(crate::sim::PlayerStats) as "PlayerStats", named "player stat",
    text_signature "(*, max_hp_bonus=0.0, armor=0.0, move_speed_bonus=0.0, crit_chance_bonus=0.0, pickup_radius_bonus=0.0, mana_regen_bonus=0.0, mana_leech=0.0)" {
        max_hp_bonus: float in MAX_AMOUNT, default 0.0;
        armor: float in MAX_AMOUNT, default 0.0;
        move_speed_bonus: float in MAX_FACTOR, default 0.0;
        crit_chance_bonus: float in MAX_AMOUNT, default 0.0;
        pickup_radius_bonus: float in MAX_RADIUS, default 0.0;
        mana_regen_bonus: float in MAX_AMOUNT, default 0.0;
        mana_leech: float in MAX_AMOUNT, default 0.0;
    }
}

rule_class! {
    /// R-REL-1/2 relic rules in the core; all 0 = off, every number ≥ 0.
    /// pen_nib_period: every Nth fired ACTION of a wave deals ×2;
    /// akabeko_bonus: the wave's first fired ACTION +bonus base damage;
    /// the_boot_floor: a hit of more than 0 but less than the floor deals the
    /// floor; thorns (bronze_scales): an enemy whose touch hurts the player
    /// takes this straight off its HP; first_cast_budget (bag_of_prep): the
    /// wave's first cast +N action budget; hurt_cast_budget
    /// (centennial_puzzle): after the wave's first HP loss, the next cast +N;
    /// hurt_ward (self_forming_clay): each HP loss, +N ward at the next turn;
    /// vulnerable_weak_turns (champion_belt): applying vulnerable also applies
    /// weak for N turns.
    RelicRules(crate::sim::relics::RelicRules) as "RelicRules", named "relic rule",
    text_signature "(*, pen_nib_period=0, akabeko_bonus=0.0, the_boot_floor=0.0, thorns=0.0, first_cast_budget=0, hurt_cast_budget=0, hurt_ward=0.0, vulnerable_weak_turns=0.0)" {
        pen_nib_period: count in MAX_COUNT, default Int::from(0);
        akabeko_bonus: float in MAX_AMOUNT, default 0.0;
        the_boot_floor: float in MAX_AMOUNT, default 0.0;
        thorns: float in MAX_AMOUNT, default 0.0;
        first_cast_budget: count in MAX_COUNT, default Int::from(0);
        hurt_cast_budget: count in MAX_COUNT, default Int::from(0);
        hurt_ward: float in MAX_AMOUNT, default 0.0;
        vulnerable_weak_turns: float in MAX_SECONDS, default 0.0;
    }
}
