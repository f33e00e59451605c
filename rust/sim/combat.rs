//! Damage (R-DMG-1) and what a hit does to its target.

use super::config::ELEMENTS;

/// What an attack brings to the target, before the target's defences.
///
/// R-REL-2 for the player's hits: `base` is the fired ACTION's damage with
/// akabeko and pen_nib already in it (`relics::fired_damage`), `flat` is
/// strength, `mult` carries weak (balance.json `combat.weak_multiplier` for a
/// weak attacker, `CombatParams::dealt` — only enemies are ever weak today)
/// with crits and the element's bonuses, and
/// `boot_floor` is the_boot (0 = off; enemies' attacks never have it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attack {
    pub base: f32,
    /// Σ flat bonuses (strength, +damage modifiers).
    pub flat: f32,
    /// Π multipliers (crit and weak included).
    pub mult: f32,
    pub element: usize,
    /// the_boot: a hit that would deal more than 0 but less than this
    /// deals this, before vulnerable (0 = off).
    pub boot_floor: f32,
}

/// What the target brings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Defence {
    pub resist: [f32; ELEMENTS],
    pub armor: f32,
    /// × the damage taken, last: balance.json `combat.vulnerable_multiplier`
    /// while vulnerable, else 1 (`CombatParams::taken`).
    pub taken: f32,
}

/// R-DMG-1: `((base + Σflat) × Πmult) × (1 − res) − armor`, then × `taken`
/// (vulnerable: ×1.5 as balance.json ships it), minimum 1.
///
/// Two cases take no damage at all, and the minimum of 1 does not lift
/// them: an attack with nothing behind it (base + flat ≤ 0, e.g. a black
/// hole's pull), and a target immune to the element (res = 1, "1.0 =
/// complete immunity" in seed 001 §4.5).
pub fn final_damage(attack: &Attack, defence: &Defence) -> f32 {
    final_damage_booted(attack, defence).0
}

/// `final_damage`, and whether the_boot lifted the hit. R-REL-2 puts the_boot
/// after weak and before vulnerable: the hit as R-DMG-1 has it before
/// vulnerable — at least 1, by its minimum — is lifted to `boot_floor` when
/// below it ("hits of 1–4 become 5"), then vulnerable multiplies. The hits
/// of no damage above stay 0 ("0 stays 0"). With `boot_floor` 0 this is
/// R-DMG-1 exactly.
#[inline]
pub fn final_damage_booted(attack: &Attack, defence: &Defence) -> (f32, bool) {
    let raw = (attack.base + attack.flat) * attack.mult;
    let res = defence.resist[attack.element];
    if raw <= 0.0 || res >= 1.0 {
        return (0.0, false);
    }
    let mut dmg = raw * (1.0 - res) - defence.armor;
    let lifted = dmg.max(1.0) < attack.boot_floor;
    if lifted {
        dmg = attack.boot_floor;
    }
    dmg *= defence.taken;
    (dmg.max(1.0), lifted)
}

/// Damage an enemy's touch does to the player: the same formula with the
/// player's armor, and no element; `attacker_mult` is weak's (`CombatParams::dealt`).
pub fn contact_damage(contact: f32, attacker_mult: f32, player_armor: f32) -> f32 {
    if contact <= 0.0 {
        return 0.0;
    }
    let attack = Attack { base: contact, flat: 0.0, mult: attacker_mult, element: 0, boot_floor: 0.0 };
    let defence = Defence { resist: [0.0; ELEMENTS], armor: player_armor, taken: 1.0 };
    final_damage(&attack, &defence)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The formula's inputs: vulnerable and weak as balance.json ships them (the shipped values
    /// reach the world through its config, tests/statuses.rs and tests/relics.rs check that).
    const VULNERABLE: f32 = 1.5;
    const WEAK: f32 = 0.75;

    fn hit(base: f32, flat: f32, mult: f32, element: usize, res: f32, armor: f32, vulnerable: bool) -> f32 {
        let mut resist = [0.0; ELEMENTS];
        resist[element] = res;
        let taken = if vulnerable { VULNERABLE } else { 1.0 };
        final_damage(&Attack { base, flat, mult, element, boot_floor: 0.0 }, &Defence { resist, armor, taken })
    }

    /// R-DMG-1 over a table of cases.
    #[test]
    fn r_dmg_1_formula_table() {
        let cases: &[(f32, f32, f32, f32, f32, bool, f32)] = &[
            // base, flat, mult, res, armor, vulnerable => expected
            (10.0, 0.0, 1.0, 0.0, 0.0, false, 10.0),
            (10.0, 5.0, 2.0, 0.0, 0.0, false, 30.0),
            (10.0, 5.0, 2.0, 0.5, 0.0, false, 15.0),
            (10.0, 5.0, 2.0, 0.5, 5.0, false, 10.0),
            (10.0, 5.0, 2.0, 0.5, 5.0, true, 15.0),
            (10.0, 0.0, 1.0, 0.0, 10.0, false, 1.0), // armor = damage: minimum 1
            (10.0, 0.0, 1.0, 0.0, 50.0, false, 1.0), // armor > damage: minimum 1
            (10.0, 0.0, 1.0, 0.0, 50.0, true, 1.0),  // vulnerable never lifts a negative
            (3.0, 0.0, 1.0, 0.9, 0.0, false, 1.0),   // 0.3 rounds up to the minimum
            (100.0, 0.0, 1.0, 1.0, 0.0, false, 0.0), // resistance 1.0: immune
            (100.0, 0.0, 1.0, 1.0, 0.0, true, 0.0),  // immune even when vulnerable
            (0.0, 0.0, 1.0, 0.0, 0.0, false, 0.0),   // nothing behind it: no damage
            (4.0, 0.0, 2.0, 0.25, 1.0, true, 7.5),   // crit ×2, res, armor, vulnerable
        ];
        for &(base, flat, mult, res, armor, vuln, want) in cases {
            let got = hit(base, flat, mult, 3, res, armor, vuln);
            assert!((got - want).abs() < 1e-5, "{base} {flat} {mult} {res} {armor} {vuln}: {got} != {want}");
        }
    }

    #[test]
    fn resistance_is_per_element() {
        let mut resist = [0.0; ELEMENTS];
        resist[1] = 1.0; // immune to fire only
        let d = Defence { resist, armor: 0.0, taken: 1.0 };
        assert_eq!(final_damage(&Attack { base: 10.0, flat: 0.0, mult: 1.0, element: 1, boot_floor: 0.0 }, &d), 0.0);
        assert_eq!(final_damage(&Attack { base: 10.0, flat: 0.0, mult: 1.0, element: 2, boot_floor: 0.0 }, &d), 10.0);
    }

    #[test]
    fn weak_attackers_touch_for_less_and_armor_applies() {
        assert_eq!(contact_damage(8.0, 1.0, 0.0), 8.0);
        assert_eq!(contact_damage(8.0, WEAK, 0.0), 6.0);
        assert_eq!(contact_damage(8.0, 1.0, 20.0), 1.0);
        assert_eq!(contact_damage(0.0, 1.0, 0.0), 0.0);
    }
}
