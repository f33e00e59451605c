//! Game flow's requests for one frame, decoded from the rows of the
//! command array (`op, a, b, x, y, value`, all f64). Every row is checked
//! before any is applied, so a bad row leaves the world untouched.

use super::contract::{named_enum, COMMAND_FIELDS};
use super::error::{CoreError, CoreResult};
use super::limits::{show, MAX_AMOUNT, MAX_COORD, MAX_SECONDS};

/// Width of a command row (`contract::COMMAND_FIELDS`).
pub const COMMAND_WIDTH: usize = COMMAND_FIELDS.len();

named_enum! {
    /// A command row's `op` (exported as `_core.OPS`); what each does: `Command`.
    pub enum Op: u8 {
        Spawn = 1 => "SPAWN",
        Heal = 2 => "HEAL",
        Ward = 3 => "WARD",
        Mana = 4 => "MANA",
        ApplyStatus = 5 => "APPLY_STATUS",
        Strength = 6 => "STRENGTH",
        ClearEnemies = 7 => "CLEAR_ENEMIES",
        CollectPickups = 8 => "COLLECT_PICKUPS",
        DamageNearest = 9 => "DAMAGE_NEAREST",
        ApplyStatusTurns = 10 => "APPLY_STATUS_TURNS",
    }
}

named_enum! {
    /// Statuses game flow can apply to an enemy (a command's `a`; exported as `_core.STATUSES`).
    pub enum Status: u8 {
        /// Takes ×1.5 damage (R-DMG-1).
        Vulnerable = 1 => "VULNERABLE",
        /// Deals 25% less damage (§8).
        Weak = 2 => "WEAK",
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Command {
    /// op 1: a = enemy kind, b = elite (exactly 0 or 1; anything else is refused).
    Spawn { kind: u16, elite: bool, x: f32, y: f32 },
    /// op 2: heal the player by `value` HP (capped at max).
    Heal { amount: f32 },
    /// op 3: add `value` ward (absorbs damage, lasts the wave).
    Ward { amount: f32 },
    /// op 4: add `value` mana (capped at max).
    Mana { amount: f32 },
    /// op 5: a = status, value = seconds, on the enemy nearest (x, y).
    ApplyStatus { status: Status, x: f32, y: f32, seconds: f32 },
    /// op 6: add `value` strength (flat damage on every projectile).
    Strength { amount: f32 },
    /// op 7: every enemy vanishes with its shots in flight (wave end, R-LOOP-1), no rewards.
    ClearEnemies,
    /// op 8: every pickup is collected (wave end, R-LOOP-1).
    CollectPickups,
    /// op 9: `value` damage to the enemy nearest (x, y), no element.
    DamageNearest { x: f32, y: f32, amount: f32 },
    /// op 10: op 5 with `value` in turns (§8: the core's turn, `World::turn_seconds`).
    ApplyStatusTurns { status: Status, x: f32, y: f32, turns: f32 },
}

impl Command {
    /// Decodes row `row_index` (for messages) against `kinds` enemy kinds.
    pub fn decode(row: &[f64], row_index: usize, kinds: usize) -> CoreResult<Command> {
        let bad = |why: String| CoreError::arg(format!("commands[{row_index}]: {why}"));
        if row.len() != COMMAND_WIDTH {
            return Err(bad(format!("a command row has {COMMAND_WIDTH} columns, got {}", row.len())));
        }
        if let Some(col) = row.iter().position(|v| !v.is_finite()) {
            return Err(bad(format!("column {col} is not a finite number ({})", row[col])));
        }
        let [opv, a, b, x, y, value] = [row[0], row[1], row[2], row[3], row[4], row[5]];
        // Every number must survive the trip to f32 and the sums after it
        // (a ward of 1e300 would be inf): `sim::limits`.
        if let Some((col, v)) = [(3, x), (4, y)].into_iter().find(|(_, v)| v.abs() > MAX_COORD) {
            return Err(bad(format!("column {col} (a position) must be within ±{}, got {}", show(MAX_COORD), show(v))));
        }
        let (xf, yf, v) = (x as f32, y as f32, value as f32);
        let in_range = |what: &str, lo: f64, hi: f64| {
            if value < lo || value > hi {
                Err(bad(format!("{what} (column 5) must be in {}..={}, got {}", show(lo), show(hi), show(value))))
            } else {
                Ok(v)
            }
        };
        let amount = |what: &str| in_range(what, 0.0, MAX_AMOUNT);
        if opv.fract() != 0.0 || !(0.0..=255.0).contains(&opv) {
            return Err(bad(format!("unknown command op {opv}")));
        }
        let Some(op) = Op::from_value(opv as u8) else {
            return Err(bad(format!("unknown command op {}", opv as u8)));
        };
        Ok(match op {
            Op::Spawn => {
                if a.fract() != 0.0 || a < 0.0 || a >= kinds.min(u16::MAX as usize + 1) as f64 {
                    return Err(bad(format!("unknown enemy kind {a} (there are {kinds} kinds)")));
                }
                if b != 0.0 && b != 1.0 {
                    return Err(bad(format!("elite (column 2) must be 0 or 1, got {}", show(b))));
                }
                Command::Spawn { kind: a as u16, elite: b == 1.0, x: xf, y: yf }
            }
            Op::Heal => Command::Heal { amount: amount("heal")? },
            Op::Ward => Command::Ward { amount: amount("ward")? },
            Op::Mana => Command::Mana { amount: amount("mana")? },
            Op::ApplyStatus | Op::ApplyStatusTurns => {
                let whole = a.fract() == 0.0 && (0.0..=255.0).contains(&a);
                let Some(status) = Status::from_value(a as u8).filter(|_| whole) else {
                    return Err(bad(format!("unknown status {a}")));
                };
                if op == Op::ApplyStatus {
                    Command::ApplyStatus {
                        status,
                        x: xf,
                        y: yf,
                        seconds: in_range("status seconds", 0.0, MAX_SECONDS)?,
                    }
                } else {
                    Command::ApplyStatusTurns {
                        status,
                        x: xf,
                        y: yf,
                        turns: in_range("status turns", 0.0, MAX_SECONDS)?,
                    }
                }
            }
            Op::Strength => Command::Strength { amount: in_range("strength", -MAX_AMOUNT, MAX_AMOUNT)? },
            Op::ClearEnemies => Command::ClearEnemies,
            Op::CollectPickups => Command::CollectPickups,
            Op::DamageNearest => Command::DamageNearest { x: xf, y: yf, amount: amount("damage")? },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_a_spawn_and_refuses_bad_rows() {
        let ok = Command::decode(&[1.0, 2.0, 1.0, 10.0, 20.0, 0.0], 0, 3).unwrap();
        assert_eq!(ok, Command::Spawn { kind: 2, elite: true, x: 10.0, y: 20.0 });
        let plain = Command::decode(&[1.0, 2.0, 0.0, 10.0, 20.0, 0.0], 0, 3).unwrap();
        assert_eq!(plain, Command::Spawn { kind: 2, elite: false, x: 10.0, y: 20.0 });
        let err = Command::decode(&[1.0, 2.0, 7.0, 10.0, 20.0, 0.0], 4, 3).unwrap_err().to_string();
        assert_eq!(err, "commands[4]: elite (column 2) must be 0 or 1, got 7");
        for row in [
            [1.0, 3.0, 0.0, 0.0, 0.0, 0.0],      // unknown kind
            [1.0, -1.0, 0.0, 0.0, 0.0, 0.0],     // negative kind
            [1.0, 0.5, 0.0, 0.0, 0.0, 0.0],      // fractional kind
            [42.0, 0.0, 0.0, 0.0, 0.0, 0.0],     // unknown op
            [2.0, 0.0, 0.0, 0.0, 0.0, -5.0],     // negative heal
            [1.0, 0.0, 0.0, f64::NAN, 0.0, 0.0], // NaN
            [5.0, 9.0, 0.0, 0.0, 0.0, 1.0],      // unknown status
            [10.0, 2.0, 0.0, 0.0, 0.0, -1.0],    // negative turns
            [10.0, 3.0, 0.0, 0.0, 0.0, 1.0],     // unknown status, in turns
            [3.0, 0.0, 0.0, 0.0, 0.0, 1e300],    // a ward that would be inf in f32
            [6.0, 0.0, 0.0, 0.0, 0.0, 1e300],    // strength, the same
            [6.0, 0.0, 0.0, 0.0, 0.0, -1e300],   // strength, negative
            [2.0, 0.0, 0.0, 0.0, 0.0, 2e9],      // heal above the bound
            [5.0, 1.0, 0.0, 0.0, 0.0, 1e7],      // status seconds above the bound
            [9.0, 0.0, 0.0, 1e300, 0.0, 1.0],    // a position that would be inf in f32
            [1.0, 0.0, 7.0, 0.0, 0.0, 0.0],      // elite neither 0 nor 1
            [1.0, 0.0, 0.5, 0.0, 0.0, 0.0],      // elite, a fraction
            [1.0, 0.0, -1.0, 0.0, 0.0, 0.0],     // elite, negative
        ] {
            let err = Command::decode(&row, 4, 3).unwrap_err();
            assert!(err.to_string().starts_with("commands[4]: "), "{err}");
        }
    }

    /// The ops `Op` lists are the ops `decode` knows: every other byte is an unknown op.
    #[test]
    fn decode_knows_exactly_the_listed_ops() {
        for value in 0..=255u8 {
            let err = Command::decode(&[value as f64, 0.0, 0.0, 0.0, 0.0, 0.0], 0, 3).err();
            let unknown = err.is_some_and(|e| e.to_string().contains("unknown command op"));
            assert_eq!(unknown, Op::from_value(value).is_none(), "op {value}");
        }
    }
}
