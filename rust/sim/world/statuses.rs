//! R-DMG-2 statuses and reactions, R-STAT-1 attunement.
//!
//! Statuses live in the enemy pool as timers (seconds left) and stacks.
//! Every hit of an element — a projectile's (chain bolts are projectiles),
//! a blast's or explosion's, a damaging zone's roll — first applies the
//! element's reactions (lightning on wet: electrified
//! ×`wet_lightning_multiplier`; fire on wet: dried, wet removed), then
//! rolls the element's status on the crit stream (one draw per hit, only
//! where the chance is above 0: hits of elements without a chance draw
//! nothing, so worlds without statuses keep their random sequence). A
//! zone hurts every tick but rolls once per `zone_status_interval` per
//! enemy inside (world/zones.rs `update_zones`). Exploders' death blasts
//! are physical and do no element work. All of it sits behind
//! `elements.act`: the stress workload pays nothing. The tick pass runs
//! only while some status is live.
//!
//! Armor applies per hit (R-DMG-1), never to status ticks: burn and poison
//! go straight through `damage_enemy`, so an armored enemy still loses
//! their full damage per second.
//!
//! Chill slows and freeze stops every mover, archers' planned steps
//! included (`Elements::speed`); a frozen archer does not shoot either, and
//! its shot cooldown waits while it is frozen.

use super::World;
use crate::sim::config::{Element, WorldConfig, ELEMENTS};
use crate::sim::events::{Event, EventKind, Reaction};
use crate::sim::pools::Enemies;

/// The world's element state: attunement, and which of the element work runs at all.
#[derive(Clone, Debug)]
pub(super) struct Elements {
    /// R-STAT-1 attunement points per element (0 by default).
    pub attunement: [f32; ELEMENTS],
    /// Some enemy may have a status: the tick pass runs.
    pub statuses_live: bool,
    /// Some status chance or attunement point is above 0: hits do the
    /// element work (without either, no status, reaction or bonus can happen).
    pub act: bool,
}

impl Elements {
    pub fn of(cfg: &WorldConfig) -> Elements {
        Elements {
            attunement: [0.0; ELEMENTS],
            statuses_live: false,
            act: cfg.statuses.chance.iter().any(|&c| c > 0.0),
        }
    }

    /// Step 9's speeds into `speeds`: chilled enemies slowed, frozen ones
    /// still. False while no status is live (the pool's speeds apply as they
    /// are). Archers' planned steps read `speed` alike.
    pub fn speeds(&self, en: &Enemies, chill_slow: f32, speeds: &mut Vec<f32>) -> bool {
        if !self.statuses_live {
            return false;
        }
        speeds.clear();
        speeds.extend((0..en.len()).map(|e| self.speed(en, e, chill_slow)));
        true
    }

    /// Enemy `e`'s speed this frame, px per tick: ×`chill_slow` while
    /// chilled, 0 while frozen (R-DMG-2).
    pub fn speed(&self, en: &Enemies, e: usize, chill_slow: f32) -> f32 {
        if !self.statuses_live {
            en.speed[e]
        } else if en.frozen[e] > 0.0 {
            0.0
        } else if en.chill[e] > 0.0 {
            en.speed[e] * chill_slow
        } else {
            en.speed[e]
        }
    }

    /// Enemy `e` is frozen (R-DMG-2): it neither moves nor shoots.
    pub fn is_frozen(&self, en: &Enemies, e: usize) -> bool {
        self.statuses_live && en.frozen[e] > 0.0
    }
}

impl World {
    /// R-STAT-1: attunement points per element (`Element` order), each ≥ 0.
    pub fn set_attunement(&mut self, points: [f32; ELEMENTS]) -> crate::sim::error::CoreResult<()> {
        let max = crate::sim::limits::MAX_AMOUNT;
        if let Some(p) = points.iter().find(|p| !(p.is_finite() && **p >= 0.0 && (**p as f64) <= max)) {
            return Err(crate::sim::error::CoreError::arg(format!(
                "attunement points must be finite numbers in 0..=1e9, got {}",
                crate::sim::limits::show32(*p)
            )));
        }
        self.elements.attunement = points;
        self.elements.act = self.cfg.statuses.chance.iter().chain(&points).any(|&c| c > 0.0);
        Ok(())
    }

    pub fn attunement(&self) -> [f32; ELEMENTS] {
        self.elements.attunement
    }

    /// The damage multiplier a hit of `element` on enemy `e` gets from
    /// attunement and wet (the electrified reaction's event goes out here).
    pub(super) fn element_multiplier(&mut self, e: usize, element: usize) -> f32 {
        if element == Element::Lightning as usize && self.pools.enemies.wet[e] > 0.0 {
            self.reaction(e, Reaction::Electrified);
        }
        self.element_damage_multiplier(e, element)
    }

    /// `element_multiplier` without the reaction's event: for a zone's
    /// per-tick damage, which reports its reactions once per status roll.
    pub(super) fn element_damage_multiplier(&self, e: usize, element: usize) -> f32 {
        let s = &self.cfg.statuses;
        let mult = 1.0 + s.attunement_damage * self.elements.attunement[element];
        if element == Element::Lightning as usize && self.pools.enemies.wet[e] > 0.0 {
            mult * s.wet_lightning_multiplier
        } else {
            mult
        }
    }

    /// After a hit of `element` on enemy `e` (alive or not): fire dries a
    /// wet target, then the element's status roll.
    pub(super) fn element_hit(&mut self, e: usize, element: usize) {
        if element == Element::Fire as usize && self.pools.enemies.wet[e] > 0.0 {
            self.pools.enemies.wet[e] = 0.0;
            self.reaction(e, Reaction::Dried);
        }
        if self.pools.enemies.dead[e] || element == Element::Physical as usize {
            return;
        }
        let s = self.cfg.statuses;
        let chance = s.chance[element] + s.attunement_chance * self.elements.attunement[element];
        if chance <= 0.0 || !self.rng.crit.chance(chance) {
            return;
        }
        self.elements.statuses_live = true;
        let en = &mut self.pools.enemies;
        match Element::ALL[element] {
            Element::Fire => en.burn[e] = en.burn[e].max(s.burn_seconds),
            Element::Ice => {
                en.chill[e] = en.chill[e].max(s.chill_seconds);
                en.chills[e] = en.chills[e].saturating_add(1);
                if en.chills[e] as u32 >= s.chills_to_freeze {
                    en.chills[e] = 0;
                    en.chill[e] = 0.0;
                    en.frozen[e] = en.frozen[e].max(s.freeze_seconds);
                }
            }
            Element::Lightning => en.shock[e] = en.shock[e].max(s.shock_seconds),
            Element::Poison => {
                en.poison[e] = s.poison_seconds;
                en.poison_stacks[e] = (en.poison_stacks[e] as u32 + 1).min(s.poison_max_stacks) as u8;
            }
            Element::Water => en.wet[e] = en.wet[e].max(s.wet_seconds),
            Element::Physical => {}
        }
    }

    fn reaction(&mut self, e: usize, r: Reaction) {
        let en = &self.pools.enemies;
        self.log.events.push(Event::new(
            EventKind::ElementReaction,
            r as u8 as f32,
            en.kind[e] as f32,
            en.x[e],
            en.y[e],
            0.0,
        ));
    }

    /// Once per frame, before the deaths act: burn and poison hurt through
    /// `damage_enemy` (kills drop rewards), every timer runs down. Skipped
    /// while no status is live (the stress workload never has one). These
    /// ticks are not hits: armor (per hit, R-DMG-1) and resistance do not
    /// apply to them; shock does, as to every source.
    pub(super) fn tick_statuses(&mut self) {
        if !self.elements.statuses_live {
            return;
        }
        let dt = self.clock.dt;
        let s = self.cfg.statuses;
        let mut live = false;
        for e in 0..self.pools.enemies.len() {
            if self.pools.enemies.dead[e] {
                continue;
            }
            let en = &self.pools.enemies;
            let dot = if en.burn[e] > 0.0 { s.burn_dps } else { 0.0 }
                + if en.poison[e] > 0.0 { s.poison_dps * en.poison_stacks[e] as f32 } else { 0.0 };
            if dot > 0.0 {
                self.damage_enemy(e, dot * dt);
            }
            let en = &mut self.pools.enemies;
            for t in [
                &mut en.burn[e],
                &mut en.chill[e],
                &mut en.frozen[e],
                &mut en.shock[e],
                &mut en.poison[e],
                &mut en.wet[e],
            ] {
                *t = (*t - dt).max(0.0);
                live |= *t > 0.0;
            }
            if en.chill[e] == 0.0 {
                en.chills[e] = 0;
            }
            if en.poison[e] == 0.0 {
                en.poison_stacks[e] = 0;
            }
        }
        self.elements.statuses_live = live;
    }
}
