//! What the integration tests share: the shipped python/artificer/data/balance.json, read from
//! the file, so that a test plays with the numbers the game plays with and Rust holds no copy
//! of them (issue 14).

#![allow(dead_code)] // each test binary uses its own part

use std::sync::OnceLock;

use artificer_core::sim::config::CombatParams;
use serde_json::Value;

/// balance.json, parsed once per test binary.
pub fn balance() -> &'static Value {
    static BALANCE: OnceLock<Value> = OnceLock::new();
    BALANCE.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/python/artificer/data/balance.json");
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
    })
}

/// The value at a dotted path of balance.json ("combat.weak_multiplier").
pub fn value(path: &str) -> &'static Value {
    let found = path.split('.').fold(balance(), |v, key| &v[key]);
    assert!(!found.is_null(), "balance.json has no {path}");
    found
}

/// The number at a dotted path of balance.json.
pub fn number(path: &str) -> f32 {
    value(path).as_f64().unwrap_or_else(|| panic!("balance.json {path}: not a number")) as f32
}

/// balance.json `combat`.
pub fn combat() -> CombatParams {
    CombatParams {
        vulnerable_multiplier: number("combat.vulnerable_multiplier"),
        weak_multiplier: number("combat.weak_multiplier"),
    }
}
