//! Rule parameters as typed Python objects (issue 14): `PlayerStats`
//! (R-STAT-1, `World.set_player_stats`) and `RelicRules` (R-REL-1/2,
//! `World.set_relic_rules`, read back by `World.relic_rules`). `PlayerStats`
//! is declared once by `rule_class!` from its list of fields: the keyword
//! constructor, the range check of every field when the object is built
//! (`sim::limits`: a bad value is a `CoreArgumentError` naming it), the
//! getters, `__repr__` and `==`. `RelicRules` takes its rules from the core's
//! own list (`sim::relics`), so a new rule needs nothing here. Each object
//! holds the core's own struct, so what a getter shows is what the core uses.

use pyo3::prelude::*;

use pyo3::exceptions::PyAttributeError;
use pyo3::types::PyDict;

use super::args::{Float, Int};
use crate::sim::limits::{MAX_AMOUNT, MAX_FACTOR, MAX_RADIUS};
use crate::sim::relics::RelicRules as CoreRules;
use crate::sim::CoreError;

/// One field's Python type and check, by kind: `float` (a number but a bool, finite, in
/// 0..=hi, kept as f32), the one kind player stats have so far.
macro_rules! rule_field {
    (arg float) => {
        Float
    };
    (default float, $default:expr) => {
        Float::from($default)
    };
    (out float) => {
        f32
    };
    (check float, $name:expr, $v:expr, $hi:expr) => {
        $v.within($name, 0.0, $hi)
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
            #[pyo3(signature = (*, $($field = rule_field!(default $kind, $default)),+), text_signature = $sig)]
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
    /// kill, max mana added to the pool. Each finite and ≥ 0, at most 10**4 for the move speed share,
    /// 10**6 px for the pickup radius and 10**9 for the rest.
    PlayerStats(crate::sim::PlayerStats) as "PlayerStats", named "player stat",
    text_signature "(*, max_hp_bonus=0.0, armor=0.0, move_speed_bonus=0.0, crit_chance_bonus=0.0, pickup_radius_bonus=0.0, mana_regen_bonus=0.0, mana_leech=0.0, mana_max_bonus=0.0)" {
        max_hp_bonus: float in MAX_AMOUNT, default 0.0;
        armor: float in MAX_AMOUNT, default 0.0;
        move_speed_bonus: float in MAX_FACTOR, default 0.0;
        crit_chance_bonus: float in MAX_AMOUNT, default 0.0;
        pickup_radius_bonus: float in MAX_RADIUS, default 0.0;
        mana_regen_bonus: float in MAX_AMOUNT, default 0.0;
        mana_leech: float in MAX_AMOUNT, default 0.0;
        mana_max_bonus: float in MAX_AMOUNT, default 0.0;
    }
}

/// R-REL-1/2 relic rules in the core; all 0 = off. The rules are the core's
/// list (`sim::relics`, `relic_rules!`): built by keyword, one per rule and
/// one per rule's parameter (`heal_when_low_threshold`), each checked against
/// its kind and range (`RuleSpec`, `ParamSpec`); read back as attributes.
/// `_core.RELIC_RULE_SPECS` describes each.
#[pyclass(module = "artificer._core", name = "RelicRules", frozen, eq, from_py_object)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RelicRules(pub crate::sim::relics::RelicRules);

/// Every keyword `RelicRules` takes: each rule, then its parameter if it has one.
fn names() -> impl Iterator<Item = (&'static str, bool)> {
    CoreRules::SPECS
        .iter()
        .flat_map(|spec| std::iter::once((spec.name, spec.whole)).chain(spec.param.map(|p| (p.name, false))))
}

#[pymethods]
impl RelicRules {
    #[new]
    #[pyo3(signature = (**rules), text_signature = "(**rules)")]
    fn new(rules: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let mut core = CoreRules::default();
        for (key, value) in rules.into_iter().flat_map(|rules| rules.iter()) {
            let name: String = key.extract()?;
            let (whole, most) = match (CoreRules::spec(&name), CoreRules::param_spec(&name)) {
                (Some(spec), _) => (spec.whole, spec.most),
                (None, Some((_, param))) => (false, param.most),
                (None, None) => {
                    let known: Vec<&str> = names().map(|(name, _)| name).collect();
                    let known = known.join(", ");
                    return Err(
                        CoreError::arg(format!("unknown relic rule {name:?} (the core's rules: {known})")).into()
                    );
                }
            };
            let label = format!("relic rule {name}");
            let v = if whole {
                value.extract::<Int>()?.count(&label, most as u64)? as f64
            } else {
                value.extract::<Float>()?.within(&label, 0.0, most)? as f64
            };
            core.set(&name, v);
        }
        Ok(RelicRules(core))
    }

    /// A rule's or a rule parameter's value by its name (an int for a count, a float otherwise).
    fn __getattr__(&self, py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
        match (names().find(|(known, _)| *known == name), self.0.get(name)) {
            (Some((_, true)), Some(v)) => Ok((v as u32).into_pyobject(py)?.into_any().unbind()),
            (Some(_), Some(v)) => Ok(v.into_pyobject(py)?.into_any().unbind()),
            _ => Err(PyAttributeError::new_err(format!("RelicRules has no rule {name:?}"))),
        }
    }

    fn __repr__(&self) -> String {
        let fields: Vec<String> = names()
            .map(|(name, whole)| match self.0.get(name).unwrap_or_default() {
                v if whole => format!("{name}={}", v as u32),
                v => format!("{name}={:?}", v as f32),
            })
            .collect();
        format!("RelicRules({})", fields.join(", "))
    }
}
