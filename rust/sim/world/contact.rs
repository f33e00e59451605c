//! Step 8, contact: an enemy touching the player hurts it (ward first, then
//! brief invulnerability) and takes bronze_scales' thorns; enemy shots
//! likewise. A lethal hit with R-END-1 Last Will armed leaves 1 HP and
//! spends it. Every hurt runs the wand's `on_hit` entry.

use super::World;
use crate::sim::combat::contact_damage;
use crate::sim::events::{Event, EventKind};
use crate::sim::grid::Grid;
use crate::sim::pools::{Enemies, Owner};

impl World {
    /// Step 8: touch damage and enemy projectiles against the player.
    pub(super) fn contact(&mut self) {
        if self.cfg.rules.player_invulnerable || !self.player.alive {
            return;
        }
        let (px, py, pr) = (self.player.x, self.player.y, self.player.radius);
        if self.player.invulnerable <= 0.0 {
            if let Some(i) = toucher(&self.spatial.grid, &self.pools.enemies, (px, py, pr)) {
                let kind = self.pools.enemies.kind[i];
                let k = &self.cfg.enemy_kinds[kind as usize];
                let weak = self.cfg.combat.dealt(self.pools.enemies.weak[i] > 0.0);
                let base = if k.behavior.is_boss() { k.contact_damage * self.boss_damage(i) } else { k.contact_damage };
                let dmg = contact_damage(base, weak, self.player.armor);
                self.hurt_player(dmg, kind as f32);
                if dmg > 0.0 {
                    self.thorns(i);
                }
            }
        }
        for i in 0..self.pools.projectiles.len() {
            let p = &self.pools.projectiles;
            if p.owner[i] != Owner::Enemy || p.dead[i] || self.player.invulnerable > 0.0 || !self.player.alive {
                continue;
            }
            let (dx, dy) = (p.x[i] - px, p.y[i] - py);
            let rr = pr + p.radius[i];
            if dx * dx + dy * dy < rr * rr {
                let dmg = contact_damage(p.damage[i], 1.0, self.player.armor);
                self.pools.projectiles.dead[i] = true;
                self.hurt_player(dmg, -1.0);
            }
        }
    }

    pub(super) fn hurt_player(&mut self, amount: f32, attacker: f32) {
        if amount <= 0.0 {
            return;
        }
        let armed = self.player.last_will;
        let (lost, absorbed) = self.player.take_damage(amount);
        let (x, y) = (self.player.x, self.player.y);
        self.log.events.push(Event::new(EventKind::PlayerDamaged, attacker, absorbed, x, y, lost));
        self.relics_on_hp_loss(lost);
        if armed && !self.player.last_will {
            self.log.events.push(Event::new(EventKind::LastWill, attacker, 0.0, x, y, self.player.hp));
        }
        if !self.player.alive {
            self.log.events.push(Event::new(EventKind::PlayerDied, 0.0, 0.0, x, y, 0.0));
        } else {
            self.program_player_hit();
        }
    }
}

/// The live enemy touching the player (at `px, py`, radius `pr`) nearest its
/// centre, from the grid (cell order, then the wide bosses: a tie goes to
/// the first).
fn toucher(grid: &Grid, e: &Enemies, (px, py, pr): (f32, f32, f32)) -> Option<usize> {
    let mut attacker: Option<(f32, usize)> = None;
    grid.for_each_touching(px, py, pr, |i| {
        let i = i as usize;
        let (dx, dy) = (e.x[i] - px, e.y[i] - py);
        let d2 = dx * dx + dy * dy;
        if !e.dead[i] && attacker.is_none_or(|(best, _)| d2 < best) {
            attacker = Some((d2, i));
        }
    });
    attacker.map(|(_, i)| i)
}
