//! Zones and summons each frame (R-VM-5, R-VM-10): a zone pulls and hurts
//! the enemies inside and heals the player inside; a summon casts its own
//! deck on its timer at the nearest enemy.

use super::emit::Aim;
use super::{unit, World};
use crate::sim::config::ELEMENTS;
use crate::vm::Wand;

impl World {
    /// Zones (R-VM-10): pull and hurt enemies inside, heal the player inside.
    ///
    /// R-DMG-2: a zone's damage is over time, so its per-tick share gets the
    /// element's damage multiplier (attunement, wet × lightning) but is not
    /// a hit. A zone that hurts (dps > 0) instead strikes everyone inside
    /// once every `statuses.zone_status_interval` seconds — on the frame it
    /// lands, then every interval, counted in whole ticks so the rate is
    /// exact: that strike reports the reactions (electrified, dried) and
    /// rolls the element's status, so a poison pool at chance 1 adds one
    /// stack per interval to each enemy inside, not sixty a second. Each
    /// zone keeps its own count: an enemy in two zones is struck by both.
    pub(super) fn update_zones(&mut self) {
        let interval = (self.cfg.statuses.zone_status_interval / self.clock.dt).round().max(1.0) as u32;
        for z in 0..self.pools.zones.len() {
            let (zx, zy, r) = (self.pools.zones.x[z], self.pools.zones.y[z], self.pools.zones.radius[z]);
            let (pull, dps, heal, element) = (
                self.pools.zones.pull[z],
                self.pools.zones.dps[z],
                self.pools.zones.heal[z],
                self.pools.zones.element[z],
            );
            let element = element as usize % ELEMENTS;
            self.pools.zones.life[z] -= self.clock.dt;
            let strikes = self.pools.zones.status_in[z] == 0;
            self.pools.zones.status_in[z] = if strikes { interval - 1 } else { self.pools.zones.status_in[z] - 1 };
            let element_work = self.elements.act && dps > 0.0;
            for e in 0..self.pools.enemies.len() {
                let (dx, dy) = (zx - self.pools.enemies.x[e], zy - self.pools.enemies.y[e]);
                let d2 = dx * dx + dy * dy;
                if self.pools.enemies.dead[e] || d2 >= r * r {
                    continue;
                }
                if pull > 0.0 {
                    let d = d2.sqrt().max(1e-3);
                    let step = pull.min(d) / d;
                    self.pools.enemies.x[e] += dx * step;
                    self.pools.enemies.y[e] += dy * step;
                }
                if dps > 0.0 {
                    // Damage over time: resistance applies per tick; armor
                    // and the minimum of 1 are per hit, so not here.
                    let kind = &self.cfg.enemy_kinds[self.pools.enemies.kind[e] as usize];
                    let res = kind.resist[element];
                    let mult = match (element_work, strikes) {
                        (false, _) => 1.0,
                        (true, true) => self.element_multiplier(e, element),
                        (true, false) => self.element_damage_multiplier(e, element),
                    };
                    self.damage_enemy(e, dps * self.clock.dt * (1.0 - res) * mult);
                }
                if element_work && strikes {
                    self.element_hit(e, element);
                }
            }
            let (px, py) = (self.player.x, self.player.y);
            if heal > 0.0 && (px - zx).powi(2) + (py - zy).powi(2) < r * r {
                self.player.heal(heal * self.clock.dt);
            }
        }
        self.pools.zones.compact();
    }

    /// Summons (R-VM-5, R-MANA-5): each casts its own deck on its timer at
    /// the nearest enemy, paying its share from the player's pool.
    pub(super) fn update_summons(&mut self) {
        for s in 0..self.pools.summons.len() {
            self.pools.summons.life[s] -= self.clock.dt;
            self.pools.summons.timer[s] -= self.clock.dt;
            if self.pools.summons.timer[s] > 0.0 || self.pools.summons.life[s] <= 0.0 {
                continue;
            }
            self.pools.summons.timer[s] += self.pools.summons.period[s];
            let at = (self.pools.summons.x[s], self.pools.summons.y[s]);
            let Some(e) = self.pools.enemies.nearest(at.0, at.1) else { continue };
            let target = (self.pools.enemies.x[e], self.pools.enemies.y[e]);
            let span = self.pools.summons.program[s];
            let Wand::Program(mut caster) = std::mem::replace(&mut self.spells.wand, Wand::Unarmed) else { return };
            let mut out = std::mem::take(&mut self.spells.out_payload);
            out.clear();
            let mut senses = self.senses();
            caster.mana.current = self.player.mana.min(caster.mana.max);
            let mut cursor = self.pools.summons.cursor[s];
            caster.cast_summon(span, &mut cursor, self.pools.summons.share[s], &mut senses, &mut out);
            self.pools.summons.cursor[s] = cursor;
            self.player.mana = caster.mana.current;
            self.player.hp = senses.hp;
            let aim = Aim { origin: at, dir: unit(target.0 - at.0, target.1 - at.1), target };
            self.emit_all(&out, aim);
            self.spells.out_payload = out;
            self.spells.wand = Wand::Program(caster);
        }
        self.pools.summons.compact();
    }
}
