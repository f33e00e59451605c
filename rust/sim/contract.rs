//! The frame contract's names, written once (issue 14): every buffer's
//! ordered column names, and `named_enum!`, which declares a contract enum
//! (command ops, event kinds, relic rules, reactions, statuses, enemy flags)
//! together with the table of its names. The PyO3 face exports these tables
//! (`_core.LAYOUTS`, `_core.OPS`, `_core.EVENT_KINDS`…) and `artificer.engine`
//! builds its enums and column indices from them, so Python copies nothing
//! by hand; tests/engine/test_contract.py checks the two sides agree.

/// Declares a fieldless enum with explicit discriminants and, from the same
/// list, `ALL` (every variant, in order), `NAMES` (each variant's contract
/// name and value, what Python sees), `name()` and `from_value()`. A variant
/// cannot be added without its name: the list is the enum.
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $enum:ident: $repr:ident {
            $($(#[$vmeta:meta])* $variant:ident = $value:literal => $name:literal,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr($repr)]
        $vis enum $enum {
            $($(#[$vmeta])* $variant = $value,)+
        }

        impl $enum {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$enum] = &[$($enum::$variant,)+];
            /// Each variant's contract name and value (exported to Python).
            pub const NAMES: &'static [(&'static str, $repr)] = &[$(($name, $value),)+];

            /// The contract name (as Python spells the member).
            pub fn name(self) -> &'static str {
                match self {
                    $($enum::$variant => $name,)+
                }
            }

            /// The variant whose value is `value`, if any.
            pub fn from_value(value: $repr) -> Option<$enum> {
                match value {
                    $($value => Some($enum::$variant),)+
                    _ => None,
                }
            }
        }
    };
}
pub(crate) use named_enum;

/// The controls vector: the player's intent this frame (`player::Controls`).
pub const CONTROL_FIELDS: [&str; 6] = ["move_x", "move_y", "aim_x", "aim_y", "dash", "aim_at_point"];
/// A command row (`commands::Command::decode`): the op, then its operands.
pub const COMMAND_FIELDS: [&str; 6] = ["op", "a", "b", "x", "y", "value"];
/// An enemy row: `kind` its index in the roster, `flags` `EnemyFlag` bits.
pub const ENEMY_FIELDS: [&str; 6] = ["x", "y", "kind", "radius", "hp_fraction", "flags"];
/// A projectile row: `look` its spell (or enemy kind for an enemy's shot),
/// `vx`, `vy` in px/s, `owner` 0 the player, 1 an enemy.
pub const PROJECTILE_FIELDS: [&str; 7] = ["x", "y", "look", "radius", "vx", "vy", "owner"];
/// A pickup row: `value` the currency it gives.
pub const PICKUP_FIELDS: [&str; 4] = ["x", "y", "value", "radius"];
/// A zone row: `life` seconds left.
pub const ZONE_FIELDS: [&str; 5] = ["x", "y", "radius", "look", "life"];
/// A summon row: `life` seconds left.
pub const SUMMON_FIELDS: [&str; 4] = ["x", "y", "look", "life"];
/// The player vector (seconds for the timers; `alive`, `moving` 0/1).
pub const PLAYER_FIELDS: [&str; 14] = [
    "x",
    "y",
    "hp",
    "hp_max",
    "mana",
    "mana_max",
    "ward",
    "strength",
    "invulnerable",
    "dash_cooldown",
    "dash_left",
    "alive",
    "moving",
    "radius",
];
/// An event row (`events::Event::row`): `kind` an `EventKind`, the rest as the kind says.
pub const EVENT_FIELDS: [&str; 6] = ["kind", "a", "b", "x", "y", "value"];

/// Every buffer of `World.step` and its columns, by the name Python uses.
pub const LAYOUTS: [(&str, &[&str]); 9] = [
    ("controls", &CONTROL_FIELDS),
    ("commands", &COMMAND_FIELDS),
    ("enemies", &ENEMY_FIELDS),
    ("projectiles", &PROJECTILE_FIELDS),
    ("pickups", &PICKUP_FIELDS),
    ("zones", &ZONE_FIELDS),
    ("summons", &SUMMON_FIELDS),
    ("player", &PLAYER_FIELDS),
    ("events", &EVENT_FIELDS),
];

named_enum! {
    /// The bits of an enemy row's `flags` column.
    pub enum EnemyFlag: u16 {
        Elite = 1 => "ELITE",
        Vulnerable = 2 => "VULNERABLE",
        Weak = 4 => "WEAK",
        /// R-DMG-2 statuses.
        Burning = 8 => "BURNING",
        Chilled = 16 => "CHILLED",
        Frozen = 32 => "FROZEN",
        Shocked = 64 => "SHOCKED",
        Poisoned = 128 => "POISONED",
        Wet = 256 => "WET",
        /// R-FEEL-1: hit within the last `sim.hit_flash_frames` frames (the renderer's hit flash).
        Hit = 512 => "HIT",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::commands::{Op, Status};
    use crate::sim::events::{BossPattern, EventKind, Reaction};
    use crate::sim::relics::RelicRule;
    use std::collections::HashSet;

    /// Each table lists every variant once, by a distinct name and value,
    /// in the order of `ALL`, and `from_value` finds each (and nothing else).
    fn check<E: Copy + PartialEq + std::fmt::Debug, R: Copy + Eq + std::hash::Hash + std::fmt::Debug>(
        all: &[E],
        names: &[(&str, R)],
        name: impl Fn(E) -> &'static str,
        value: impl Fn(E) -> R,
        from_value: impl Fn(R) -> Option<E>,
    ) {
        assert_eq!(all.len(), names.len());
        for (&e, &(n, v)) in all.iter().zip(names) {
            assert_eq!((name(e), value(e)), (n, v));
            assert_eq!(from_value(v), Some(e));
            assert!(n.chars().all(|c| c.is_ascii_uppercase() || c == '_'), "{n}");
        }
        assert_eq!(names.iter().map(|(n, _)| n).collect::<HashSet<_>>().len(), names.len());
        assert_eq!(names.iter().map(|(_, v)| v).collect::<HashSet<_>>().len(), names.len());
    }

    #[test]
    fn every_contract_enum_names_each_variant_once() {
        check(Op::ALL, Op::NAMES, Op::name, |e| e as u8, Op::from_value);
        check(Status::ALL, Status::NAMES, Status::name, |e| e as u8, Status::from_value);
        check(EventKind::ALL, EventKind::NAMES, EventKind::name, |e| e as u8, EventKind::from_value);
        check(Reaction::ALL, Reaction::NAMES, Reaction::name, |e| e as u8, Reaction::from_value);
        check(BossPattern::ALL, BossPattern::NAMES, BossPattern::name, |e| e as u8, BossPattern::from_value);
        check(RelicRule::ALL, RelicRule::NAMES, RelicRule::name, |e| e as u8, RelicRule::from_value);
        check(EnemyFlag::ALL, EnemyFlag::NAMES, EnemyFlag::name, |e| e as u16, EnemyFlag::from_value);
        assert!(EnemyFlag::ALL.iter().all(|f| (*f as u16).is_power_of_two()), "flags are single bits");
        assert_eq!(Op::from_value(0), None);
        assert_eq!(EventKind::from_value(0), None);
    }

    /// The sprite rasterizer reads a row's position from its first two columns, whichever buffer it draws.
    #[test]
    fn every_drawn_buffer_starts_with_its_position() {
        for columns in [&ENEMY_FIELDS[..], &PROJECTILE_FIELDS, &PICKUP_FIELDS, &ZONE_FIELDS, &SUMMON_FIELDS] {
            assert_eq!(columns[..2], ["x", "y"]);
        }
    }

    #[test]
    fn every_layout_has_distinct_snake_case_columns() {
        assert_eq!(LAYOUTS.iter().map(|(b, _)| b).collect::<HashSet<_>>().len(), LAYOUTS.len());
        for (buffer, columns) in LAYOUTS {
            assert_eq!(columns.iter().collect::<HashSet<_>>().len(), columns.len(), "{buffer}");
            assert!(columns.iter().all(|c| c.chars().all(|c| c.is_ascii_lowercase() || c == '_')), "{buffer}");
        }
    }
}
