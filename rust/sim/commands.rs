//! Game flow's requests for one frame, decoded from the rows of the
//! command array (`op, a, b, x, y, value`, all f64). Every row is checked
//! before any is applied, so a bad row leaves the world untouched.

use super::error::{CoreError, CoreResult};
use super::limits::{show, MAX_AMOUNT, MAX_COORD, MAX_SECONDS};

/// Width of a command row.
pub const COMMAND_WIDTH: usize = 6;

/// Statuses game flow can apply to an enemy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Takes ×1.5 damage (R-DMG-1).
    Vulnerable = 1,
    /// Deals 25% less damage (§8).
    Weak = 2,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Command {
    /// op 1: a = enemy kind, b = elite (0/1).
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
    /// op 7: every enemy vanishes (wave end, R-LOOP-1), no rewards.
    ClearEnemies,
    /// op 8: every pickup is collected (wave end, R-LOOP-1).
    CollectPickups,
    /// op 9: `value` damage to the enemy nearest (x, y), no element.
    DamageNearest { x: f32, y: f32, amount: f32 },
    /// op 10: op 5 with `value` in turns (§8: the core's turn, `World::turn_seconds`).
    ApplyStatusTurns { status: Status, x: f32, y: f32, turns: f32 },
}

pub mod op {
    pub const SPAWN: u8 = 1;
    pub const HEAL: u8 = 2;
    pub const WARD: u8 = 3;
    pub const MANA: u8 = 4;
    pub const APPLY_STATUS: u8 = 5;
    pub const STRENGTH: u8 = 6;
    pub const CLEAR_ENEMIES: u8 = 7;
    pub const COLLECT_PICKUPS: u8 = 8;
    pub const DAMAGE_NEAREST: u8 = 9;
    pub const APPLY_STATUS_TURNS: u8 = 10;
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
        Ok(match opv as u8 {
            op::SPAWN => {
                if a.fract() != 0.0 || a < 0.0 || a >= kinds.min(u16::MAX as usize + 1) as f64 {
                    return Err(bad(format!("unknown enemy kind {a} (there are {kinds} kinds)")));
                }
                Command::Spawn { kind: a as u16, elite: b != 0.0, x: xf, y: yf }
            }
            op::HEAL => Command::Heal { amount: amount("heal")? },
            op::WARD => Command::Ward { amount: amount("ward")? },
            op::MANA => Command::Mana { amount: amount("mana")? },
            op::APPLY_STATUS | op::APPLY_STATUS_TURNS => {
                let status = match a as i64 {
                    1 if a == 1.0 => Status::Vulnerable,
                    2 if a == 2.0 => Status::Weak,
                    _ => return Err(bad(format!("unknown status {a}"))),
                };
                if opv as u8 == op::APPLY_STATUS {
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
            op::STRENGTH => Command::Strength { amount: in_range("strength", -MAX_AMOUNT, MAX_AMOUNT)? },
            op::CLEAR_ENEMIES => Command::ClearEnemies,
            op::COLLECT_PICKUPS => Command::CollectPickups,
            op::DAMAGE_NEAREST => Command::DamageNearest { x: xf, y: yf, amount: amount("damage")? },
            other => return Err(bad(format!("unknown command op {other}"))),
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
        ] {
            let err = Command::decode(&row, 4, 3).unwrap_err();
            assert!(err.to_string().starts_with("commands[4]: "), "{err}");
        }
    }
}
