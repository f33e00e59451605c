//! The mana pool (GAME_RULES §4, seed 002). Every mana decision goes
//! through `Mana::spend`, so R-MANA-2…8 are enforced in one place.

/// Numbers of the mana rules (balance.json `vm`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ManaRules {
    /// R-MANA-8: a cast within this many seconds of the last one is "consecutive".
    pub streak_window: f32,
    /// +cost per consecutive cast (0.05 = +5%).
    pub streak_step: f32,
    /// Largest total surcharge (1.0 = +100%).
    pub streak_cap: f32,
    /// Seconds without casting after which the surcharge is gone.
    pub streak_reset: f32,
    /// R-CORE-4 `infinite_spells`: HP paid per mana (0.2 = 1 HP per 5 mana).
    pub hp_per_mana: f32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Mana {
    pub current: f32,
    pub max: f32,
    /// per second (R-MANA-1)
    pub regen: f32,
    pub rules: ManaRules,
    /// R-MANA-8: consecutive casts so far, and seconds since the last cast
    /// that did anything (an abandoned cast that paid nothing isn't one).
    streak: u32,
    since_cast: f32,
    /// The streak if the cast in progress goes through.
    pending_streak: u32,
    /// The surcharge of the main cast in progress (1.0 = none).
    surcharge: f32,
    /// What the open tab's costs are multiplied by: the surcharge for a
    /// main cast, a summon's share for its casts, 1 for entries.
    scale: f32,
    /// What the open tab has paid so far, in mana and in HP
    /// (`infinite_spells`): refunded if its cast fires nothing.
    cast_mana: f32,
    cast_hp: f32,
    /// R-VM-14 add_mana: mana given to the open tab's later payments; lost
    /// when the tab closes, so no cast ever nets mana.
    credit: f32,
    /// What the last closed tab kept (the lab's cast timeline).
    pub last_paid: f32,
}

/// What a payment did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Paid {
    Mana(f32),
    /// `infinite_spells`: paid this much HP instead.
    Hp(f32),
    Refused,
}

impl Mana {
    pub fn new(max: f32, regen: f32, rules: ManaRules) -> Mana {
        Mana {
            current: max,
            max,
            regen,
            rules,
            streak: 0,
            since_cast: f32::INFINITY,
            pending_streak: 0,
            surcharge: 1.0,
            scale: 1.0,
            cast_mana: 0.0,
            cast_hp: 0.0,
            credit: 0.0,
            last_paid: 0.0,
        }
    }

    /// R-MANA-1: regeneration runs every frame and caps at max.
    pub fn tick(&mut self, dt: f32) {
        self.current = (self.current + self.regen * dt).min(self.max);
        self.since_cast += dt;
    }

    /// R-MANA-1: switching cores clamps mana into the new pool.
    pub fn set_pool(&mut self, max: f32, regen: f32) {
        self.max = max;
        self.regen = regen;
        self.current = self.current.clamp(0.0, max);
    }

    pub fn refill(&mut self) {
        self.current = self.max;
    }

    /// A cast starts: fixes its sustained-fire surcharge (R-MANA-8). A cast
    /// within the window of the last is consecutive and costs one step
    /// more; after `streak_reset` without casting the growth is gone.
    pub fn begin_cast(&mut self) {
        if self.since_cast >= self.rules.streak_reset {
            self.streak = 0;
        }
        self.pending_streak = if self.since_cast <= self.rules.streak_window { self.streak + 1 } else { self.streak };
        self.surcharge = 1.0 + (self.pending_streak as f32 * self.rules.streak_step).min(self.rules.streak_cap);
        self.open_tab(self.surcharge);
    }

    /// A cast outside the main stream starts (an entry, a summon's cast):
    /// its costs are multiplied by `scale` and neither grow nor read the
    /// sustained-fire streak (R-MANA-8).
    pub fn open_tab(&mut self, scale: f32) {
        self.scale = scale;
        self.cast_mana = 0.0;
        self.cast_hp = 0.0;
        self.credit = 0.0;
    }

    /// R-VM-14 add_mana: `amount` the open tab's later payments draw on
    /// before the pool; what they leave is gone when the tab closes.
    pub fn grant(&mut self, amount: f32) {
        self.credit = (self.credit + amount.max(0.0)).min(f32::MAX);
    }

    /// The open tab ends: kept if its cast `fired`, else refunded (R-MANA-6).
    /// Returns the HP to give back (`infinite_spells`).
    pub fn close_tab(&mut self, fired: bool) -> f32 {
        self.credit = 0.0;
        if fired {
            self.last_paid = self.cast_mana;
            return 0.0;
        }
        self.last_paid = 0.0;
        self.current = (self.current + self.cast_mana).min(self.max);
        let hp = self.cast_hp;
        self.cast_mana = 0.0;
        self.cast_hp = 0.0;
        hp
    }

    /// A cast ends; `fired` if it emitted anything. R-MANA-6 generalised:
    /// a cast that fires nothing costs nothing — the modifiers and
    /// multicasts it paid for before being abandoned (R-MANA-3) are
    /// refunded, and it neither grows nor refreshes the streak. Without
    /// this, a wand that opens with a multicast pays that node on every
    /// attempt once its pool runs low and never fires again. Returns the
    /// HP to give back (`infinite_spells`).
    pub fn end_cast(&mut self, fired: bool) -> f32 {
        if fired {
            self.streak = self.pending_streak;
            self.since_cast = 0.0;
        }
        self.close_tab(fired)
    }

    /// The cost multiplier of the cast in progress.
    pub fn surcharge(&self) -> f32 {
        self.surcharge
    }

    /// The one place mana is spent (R-MANA-2/3): `cost × scale` (the
    /// surcharge, or the tab's share) from the pool; if it can't pay and `infinite` (R-CORE-4), from `hp` at
    /// `hp_per_mana`, never leaving less than 1 HP; else refused and
    /// nothing is taken.
    pub fn spend(&mut self, cost: f32, infinite: bool, hp: &mut f32) -> Paid {
        let cost = cost * self.scale;
        if cost <= 0.0 {
            return Paid::Mana(0.0);
        }
        // R-VM-14: what an add_mana gave this cast pays first; taken only
        // when the payment goes through.
        let covered = cost.min(self.credit);
        let cost = cost - covered;
        if cost <= 0.0 {
            self.credit -= covered;
            return Paid::Mana(0.0);
        }
        if self.current >= cost {
            self.credit -= covered;
            self.current -= cost;
            self.cast_mana += cost;
            return Paid::Mana(cost);
        }
        if infinite {
            let price = cost * self.rules.hp_per_mana;
            if *hp - price >= 1.0 {
                self.credit -= covered;
                *hp -= price;
                self.cast_hp += price;
                return Paid::Hp(price);
            }
        }
        Paid::Refused
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// balance.json's mana rules: the rules the game plays with (the core keeps no copy).
    fn shipped() -> ManaRules {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/python/artificer/data/balance.json");
        let text = std::fs::read_to_string(path).expect("balance.json");
        let balance: serde_json::Value = serde_json::from_str(&text).expect("balance.json is JSON");
        let (vm, fire) = (&balance["vm"], &balance["vm"]["sustained_fire"]);
        let n = |v: &serde_json::Value| v.as_f64().expect("a number") as f32;
        ManaRules {
            streak_window: n(&fire["window"]),
            streak_step: n(&fire["step"]),
            streak_cap: n(&fire["cap"]),
            streak_reset: n(&fire["reset_after"]),
            hp_per_mana: n(&vm["infinite_spells_hp_per_mana"]),
        }
    }

    /// R-MANA-9 (1): regeneration rises and caps at max.
    #[test]
    fn r_mana_9_regen_rises_and_caps() {
        let mut m = Mana::new(100.0, 5.0, shipped());
        m.current = 90.0;
        m.tick(1.0);
        assert_eq!(m.current, 95.0);
        m.tick(10.0);
        assert_eq!(m.current, 100.0);
    }

    /// R-MANA-8: consecutive casts (within `streak_window`) cost `streak_step` more each,
    /// capped at `streak_cap`, and the growth is gone after `streak_reset` without casting.
    #[test]
    fn r_mana_8_sustained_fire_growth_and_decay() {
        let r = shipped();
        assert!(r.streak_window < r.streak_reset, "the test steps between the two");
        let mut m = Mana::new(1000.0, 0.0, r);
        let mut hp = 10.0;
        m.begin_cast();
        assert_eq!(m.spend(10.0, false, &mut hp), Paid::Mana(10.0));
        m.end_cast(true);
        m.tick(r.streak_window / 2.0);
        m.begin_cast();
        assert_eq!(m.surcharge(), 1.0 + r.streak_step);
        m.end_cast(true);
        let casts = (r.streak_cap / r.streak_step).ceil() as usize + 2;
        for _ in 0..casts {
            m.tick(r.streak_window / 2.0);
            m.begin_cast();
            m.end_cast(true);
        }
        assert_eq!(m.surcharge(), 1.0 + r.streak_cap, "capped");
        let between = (r.streak_window + r.streak_reset) / 2.0;
        m.tick(between);
        m.begin_cast();
        assert_eq!(m.surcharge(), 1.0 + r.streak_cap, "not consecutive, but the growth stays until the reset");
        m.end_cast(false);
        m.tick(r.streak_reset - between + 0.01);
        m.begin_cast();
        assert_eq!(m.surcharge(), 1.0, "the reset's time without casting: gone");
    }

    /// R-MANA-6/8: casts abandoned before anything took effect don't grow
    /// the surcharge (holding your breath is not sustained fire).
    #[test]
    fn abandoned_casts_do_not_grow_the_surcharge() {
        let r = shipped();
        let mut m = Mana::new(100.0, 0.0, r);
        for _ in 0..10 {
            m.tick(r.streak_window / 2.0);
            m.begin_cast();
            m.end_cast(false);
        }
        m.tick(r.streak_window / 2.0);
        m.begin_cast();
        assert_eq!(m.surcharge(), 1.0);
    }

    /// R-MANA-3 and R-CORE-4: refused payments take nothing; infinite
    /// spells pay `hp_per_mana` HP per mana but never below 1 HP.
    #[test]
    fn refusal_and_infinite_spells() {
        let r = shipped();
        let mut m = Mana::new(100.0, 0.0, r);
        m.current = 3.0;
        let mut hp = 10.0;
        assert_eq!(m.spend(5.0, false, &mut hp), Paid::Refused);
        assert_eq!((m.current, hp), (3.0, 10.0));
        // A cost whose HP price leaves 1 HP is paid; one more HP than that is refused.
        let cost = (hp - 1.0) / r.hp_per_mana;
        assert_eq!(m.spend(cost + 1.0 / r.hp_per_mana, true, &mut hp), Paid::Refused, "would leave 0 HP");
        assert_eq!(m.spend(cost, true, &mut hp), Paid::Hp(cost * r.hp_per_mana));
        assert_eq!(hp, 1.0);
    }
}
