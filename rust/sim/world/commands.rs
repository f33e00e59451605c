//! Step 1: game flow's commands on the world (decoded and checked in
//! sim/commands.rs, every row before any is applied).

use super::{pickups, World};
use crate::sim::commands::{Command, Status};
use crate::sim::limits::MAX_AMOUNT;
use crate::sim::pools::Owner;

impl World {
    /// One command, at the start of the step.
    pub(super) fn apply(&mut self, c: &Command) {
        let p = &mut self.player;
        match *c {
            Command::Spawn { kind, elite, x, y } => {
                // Kinds were checked when the command was decoded.
                let _ = self.spawn_enemy(kind, elite, x, y);
            }
            Command::Heal { amount } => {
                if p.alive {
                    p.hp = (p.hp + amount).min(p.hp_max);
                }
            }
            // Bounded sums: commands are at most MAX_AMOUNT each, the totals too.
            Command::Ward { amount } => p.ward = (p.ward + amount).min(MAX_AMOUNT as f32),
            Command::Mana { amount } => p.mana = (p.mana + amount).min(p.mana_max),
            Command::Strength { amount } => {
                let max = MAX_AMOUNT as f32;
                p.strength = (p.strength + amount).clamp(-max, max);
            }
            Command::ApplyStatus { status, x, y, seconds } => self.apply_status(status, x, y, seconds),
            Command::ApplyStatusTurns { status, x, y, turns } => {
                self.apply_status(status, x, y, self.turns_to_seconds(turns))
            }
            Command::ClearEnemies => {
                // R-LOOP-1: the survivors vanish, and their shots in flight with them.
                self.pools.enemies.clear();
                self.log.dying.clear();
                self.bosses.live.clear();
                let shots = &mut self.pools.projectiles;
                for (dead, owner) in shots.dead.iter_mut().zip(&shots.owner) {
                    *dead |= *owner == Owner::Enemy;
                }
                shots.compact();
            }
            Command::CollectPickups => pickups::collect_all(&mut self.pools.pickups, &mut self.log.events),
            Command::DamageNearest { x, y, amount } => {
                if let Some(e) = self.pools.enemies.nearest(x, y) {
                    self.damage_enemy(e, amount);
                }
            }
        }
    }

    /// A status for `seconds` on the live enemy nearest (x, y); the longer
    /// timer wins. Vulnerable brings champion_belt's weak.
    fn apply_status(&mut self, status: Status, x: f32, y: f32, seconds: f32) {
        let Some(e) = self.pools.enemies.nearest(x, y) else { return };
        let timer = match status {
            Status::Vulnerable => &mut self.pools.enemies.vulnerable[e],
            Status::Weak => &mut self.pools.enemies.weak[e],
        };
        *timer = timer.max(seconds);
        if status == Status::Vulnerable {
            self.champion_weak(e);
        }
    }
}
