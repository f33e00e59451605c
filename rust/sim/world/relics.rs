//! Relic rules in the world (R-REL-1/2; the rules and the attack order:
//! `sim/relics.rs`): the wave's turn clock, strength, fired ACTIONs
//! (pen_nib, akabeko), the hooks on the player's hurt (bronze_scales,
//! centennial_puzzle, self_forming_clay), the main cast's extra budget
//! (bag_of_prep, centennial_puzzle), champion_belt's weak, and the heals
//! inside the wave (R-REL-1, since R-LOOP-1 fills HP between waves):
//! burning_blood as an elite dies, blood_vial when the wave clock reaches its
//! moment, meat_on_bone when the frame ends with HP at or below its threshold
//! for the wave's first time. Their heals follow `Player::heal`: never above
//! max HP, never for the dead.
//!
//! "Turn" (§8 preamble) is one wand cycle: a fixed beat of
//! `WorldConfig::turn_seconds` of wave time, counted in whole ticks from
//! `begin_wave`; it is defined here once and used for self_forming_clay's
//! ward and for statuses given in turns (champion_belt, the
//! `ApplyStatusTurns` command).
//!
//! With every rule off the hot loops do no extra work: the per-hit cost is
//! the_boot's one compare in `final_damage_booted`; everything else runs
//! per emission, per cast or per hurt.

use super::World;
use crate::sim::error::{CoreError, CoreResult};
use crate::sim::events::{Event, EventKind};
use crate::sim::hash::StateHasher;
use crate::sim::relics::{fired_damage, pen_nib_fires, RelicRule, RelicRules, RelicState};

/// The relics in the world: their rules (`set_relic_rules`) and their state in this wave.
#[derive(Clone, Debug, Default)]
pub(super) struct Relics {
    pub rules: RelicRules,
    pub state: RelicState,
}

impl World {
    /// Sets the relic rules (all 0 = off); refused, nothing changed, if a
    /// number is negative or not finite. Takes effect at once; the wave's
    /// counters are not reset (that is `begin_wave`'s).
    pub fn set_relic_rules(&mut self, rules: RelicRules) -> CoreResult<()> {
        rules.validate()?;
        self.relics.rules = rules;
        Ok(())
    }

    pub fn relic_rules(&self) -> RelicRules {
        self.relics.rules
    }

    /// The relics' state in this wave.
    pub fn relic_state(&self) -> RelicState {
        self.relics.state
    }

    /// R-REL-2 strength: flat damage on every hit of the player's (projectiles,
    /// blasts). `begin_wave` resets it to 0; game flow adds the run's
    /// permanent strength (vajra) after it, and the `Strength` command adds
    /// more for the wave (warrior_elixir).
    pub fn set_strength(&mut self, value: f32) -> CoreResult<()> {
        let max = crate::sim::limits::MAX_AMOUNT;
        if !(value.is_finite() && (value.abs() as f64) <= max) {
            return Err(CoreError::arg(format!(
                "strength must be a finite number in -1e9..=1e9, got {}",
                crate::sim::limits::show32(value)
            )));
        }
        self.player.strength = value;
        Ok(())
    }

    pub fn strength(&self) -> f32 {
        self.player.strength
    }

    /// The turn's length in seconds: `turn_seconds` rounded to whole ticks.
    pub fn turn_seconds(&self) -> f32 {
        self.clock.turn_ticks as f32 / self.cfg.tick_hz as f32
    }

    /// Whole turns since the wave began.
    pub fn turn(&self) -> u64 {
        self.clock.wave_ticks / self.clock.turn_ticks
    }

    /// `turns` turns in seconds (statuses given in turns).
    pub fn turns_to_seconds(&self, turns: f32) -> f32 {
        turns * self.turn_seconds()
    }

    /// `begin_wave`'s part: the clock, strength and every per-wave counter restart.
    pub(super) fn begin_relic_wave(&mut self) {
        self.clock.wave_ticks = 0;
        self.relics.state = RelicState::default();
        self.player.strength = 0.0;
    }

    /// Step 1b: the wave clock ticks; on a turn's first tick, the ward
    /// waiting from the last turn's HP losses lands (self_forming_clay); on
    /// the tick that reaches blood_vial's moment, it heals.
    pub(super) fn advance_turn_clock(&mut self) {
        self.clock.wave_ticks += 1;
        if self.clock.wave_ticks.is_multiple_of(self.clock.turn_ticks) && self.relics.state.pending_ward > 0.0 {
            let ward = std::mem::take(&mut self.relics.state.pending_ward);
            if self.player.alive {
                self.player.ward += ward;
                self.relic_event(RelicRule::HurtWard, 0.0, (self.player.x, self.player.y), ward);
            }
        }
        let rules = self.relics.rules;
        if rules.heal_at_wave_time > 0.0 && self.clock.wave_ticks == self.wave_ticks_at(rules.heal_at_wave_time_seconds)
        {
            self.relic_heal(RelicRule::HealAtWaveTime, 0.0, (self.player.x, self.player.y), rules.heal_at_wave_time);
        }
    }

    /// The wave clock's tick at which `seconds` of wave time have passed:
    /// whole ticks, rounded, at least the wave's first (the turn's rounding).
    fn wave_ticks_at(&self, seconds: f32) -> u64 {
        ((f64::from(seconds) * f64::from(self.cfg.tick_hz)).round() as u64).max(1)
    }

    /// A fired ACTION (what counts: `sim/relics.rs`) of `damage`: counts it
    /// and returns its damage with akabeko and pen_nib (R-REL-2's first terms).
    pub(super) fn fired_action(&mut self, damage: f32, at: (f32, f32)) -> f32 {
        let rules = self.relics.rules;
        if damage <= 0.0 || !rules.boosts_actions() {
            return damage;
        }
        self.relics.state.actions_fired = self.relics.state.actions_fired.saturating_add(1);
        let n = self.relics.state.actions_fired;
        let akabeko = if n == 1 { rules.first_action_bonus } else { 0.0 };
        let pen_nib = pen_nib_fires(rules.pen_nib_period, n);
        if akabeko > 0.0 {
            self.relic_event(RelicRule::FirstActionBonus, 0.0, at, akabeko);
        }
        if pen_nib {
            self.relic_event(RelicRule::PenNibPeriod, 0.0, at, n as f32);
        }
        fired_damage(damage, akabeko, pen_nib)
    }

    /// Extra action budget for the main cast about to be tried: bag_of_prep's
    /// on the wave's first, centennial_puzzle's when waiting. Taken only if
    /// the cast happens (`main_cast_done`).
    pub(super) fn main_cast_budget(&self) -> u32 {
        let first = if self.relics.state.first_cast_done { 0 } else { self.relics.rules.first_cast_budget };
        first.saturating_add(self.relics.state.pending_budget)
    }

    /// A main cast happened: its extra budget is spent.
    pub(super) fn main_cast_done(&mut self) {
        if !self.relics.state.first_cast_done {
            self.relics.state.first_cast_done = true;
            let extra = self.relics.rules.first_cast_budget;
            if extra > 0 {
                self.relic_event(RelicRule::FirstCastBudget, 0.0, (self.player.x, self.player.y), extra as f32);
            }
        }
        self.relics.state.pending_budget = 0;
    }

    /// The player lost `lost` HP (> 0): centennial_puzzle (the wave's first
    /// loss) and self_forming_clay (each loss) take note.
    pub(super) fn relics_on_hp_loss(&mut self, lost: f32) {
        if lost <= 0.0 {
            return;
        }
        let rules = self.relics.rules;
        let at = (self.player.x, self.player.y);
        if !self.relics.state.hurt_budget_done {
            self.relics.state.hurt_budget_done = true;
            if rules.hurt_cast_budget > 0 {
                self.relics.state.pending_budget =
                    self.relics.state.pending_budget.saturating_add(rules.hurt_cast_budget);
                self.relic_event(RelicRule::HurtCastBudget, 0.0, at, rules.hurt_cast_budget as f32);
            }
        }
        self.relics.state.pending_ward += rules.hurt_ward;
    }

    /// burning_blood: an elite enemy of `kind` died at `at`, whatever killed it.
    pub(super) fn relics_on_elite_death(&mut self, kind: u16, at: (f32, f32)) {
        let heal = self.relics.rules.heal_on_elite_kill;
        if heal > 0.0 {
            self.relic_heal(RelicRule::HealOnEliteKill, kind as f32, at, heal);
        }
    }

    /// Step 8c, once the frame's hurts, HP paid for spells and heals are done:
    /// meat_on_bone heals the first time in the wave that the player, alive,
    /// has HP at or below its threshold of max HP (a wave that begins that
    /// low: on its first frame).
    pub(super) fn relics_watch_hp(&mut self) {
        let rules = self.relics.rules;
        if rules.heal_when_low <= 0.0 || self.relics.state.low_heal_done || !self.player.alive {
            return;
        }
        if self.player.hp <= rules.heal_when_low_threshold * self.player.hp_max {
            self.relics.state.low_heal_done = true;
            self.relic_heal(RelicRule::HealWhenLow, 0.0, (self.player.x, self.player.y), rules.heal_when_low);
        }
    }

    /// A relic's heal of `amount` (`Player::heal`: up to max HP, not when
    /// dead), reported with the HP it restored; nothing for the dead.
    fn relic_heal(&mut self, rule: RelicRule, b: f32, at: (f32, f32), amount: f32) {
        if !self.player.alive {
            return;
        }
        let before = self.player.hp;
        self.player.heal(amount);
        let restored = self.player.hp - before;
        self.relic_event(rule, b, at, restored);
    }

    /// bronze_scales: enemy `e` touched the player for damage; if it is
    /// alive it takes the thorns straight off its HP — no vulnerable, shock
    /// or armor — and a kill by them rewards as any kill.
    pub(super) fn thorns(&mut self, e: usize) {
        let thorns = self.relics.rules.thorns;
        if thorns <= 0.0 || self.pools.enemies.dead[e] {
            return;
        }
        let (kind, x, y) = (self.pools.enemies.kind[e], self.pools.enemies.x[e], self.pools.enemies.y[e]);
        let dealt = self.take_off_hp(e, thorns);
        self.relic_event(RelicRule::Thorns, kind as f32, (x, y), dealt);
    }

    /// champion_belt: vulnerable was applied to enemy `e`; weak comes along.
    pub(super) fn champion_weak(&mut self, e: usize) {
        let turns = self.relics.rules.vulnerable_weak;
        if turns <= 0.0 || self.pools.enemies.dead[e] {
            return;
        }
        let seconds = self.turns_to_seconds(turns);
        self.pools.enemies.weak[e] = self.pools.enemies.weak[e].max(seconds);
        let (kind, x, y) = (self.pools.enemies.kind[e], self.pools.enemies.x[e], self.pools.enemies.y[e]);
        self.relic_event(RelicRule::VulnerableWeak, kind as f32, (x, y), seconds);
    }

    /// the_boot's one event a frame (a flood otherwise: every small hit).
    pub(super) fn report_boot(&mut self) {
        let lifts = std::mem::take(&mut self.relics.state.boot_lifts);
        if lifts > 0 {
            self.relic_event(RelicRule::DamageFloor, 0.0, (self.player.x, self.player.y), lifts as f32);
        }
    }

    fn relic_event(&mut self, rule: RelicRule, b: f32, (x, y): (f32, f32), value: f32) {
        self.log.events.push(Event::new(EventKind::Relic, rule as u8 as f32, b, x, y, value));
    }
}

impl Relics {
    /// The relics' section of the state hash: the rules, the wave's counters
    /// and the turn clock (`wave_ticks`); the rules hashed while on, only
    /// while one is (`Hashed::WhileOn`: a world without them hashes as it did
    /// before they were added).
    pub fn hash_into(&self, h: &mut StateHasher, wave_ticks: u64) {
        h.section("relics");
        let (mut floats, mut counts) = self.rules.by_kind();
        floats.push(self.state.pending_ward);
        for v in floats {
            h.f32(v);
        }
        counts.extend([self.state.actions_fired, self.state.pending_budget]);
        h.u32s(counts.into_iter());
        h.u64(wave_ticks);
        let state = &self.state;
        h.u64(state.first_cast_done as u64 | (state.hurt_budget_done as u64) << 1 | (state.low_heal_done as u64) << 2);
        let on = self.rules.while_on();
        if !on.is_empty() {
            h.section("relics while on");
            for (rule, value, param) in on {
                h.u64(u64::from(rule));
                h.f32(value);
                h.f32(param);
            }
        }
    }
}
