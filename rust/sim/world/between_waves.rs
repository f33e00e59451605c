//! Between waves: a wave's start, and what a run's save restores into a
//! fresh world (R-SAVE-1: random streams, bought stats, Last Will, HP, a
//! wand's memory; the rest of the between-waves state lives in Python; mana
//! is not saved, R-MANA-1).

use super::World;
use crate::sim::error::{CoreError, CoreResult};
use crate::sim::limits::MAX_AMOUNT;
use crate::sim::player::PlayerStats;
use crate::sim::rng::{Streams, STREAM_COUNT};
use crate::vm::exec::MAIN;
use crate::vm::Wand;

impl World {
    /// A wave starts: the program's mana fills, registers reset unless the
    /// core has persistent memory; summons and zones of the last wave go,
    /// and so does the ward (GAME_RULES §8: block → ward, it lasts the
    /// wave); the turn clock, strength and the relics' counters restart.
    pub fn begin_wave(&mut self) {
        if let Wand::Program(caster) = &mut self.spells.wand {
            caster.begin_wave();
            self.player.mana = caster.mana.current;
        }
        self.player.ward = 0.0;
        self.pools.zones = Default::default();
        self.pools.summons = Default::default();
        self.begin_relic_wave();
    }

    /// Each random stream's position (crit, spread, drops, spawns).
    pub fn rng_positions(&self) -> [u64; STREAM_COUNT] {
        self.rng.positions()
    }

    /// Puts every random stream of this world's seed at `positions` (from `rng_positions`).
    pub fn set_rng_positions(&mut self, positions: [u64; STREAM_COUNT]) {
        self.rng = Streams::at(self.cfg.seed, positions);
    }

    /// R-STAT-1: the player stats bought in the shop, each a bonus on top of
    /// balance.json `player` (and `pickups.pickup_radius`); every field finite
    /// and ≥ 0 (a `CoreError::Argument` otherwise, nothing changed). Raising
    /// the max HP bonus heals by the same amount; lowering it caps HP at the
    /// new max and never kills. Crit chance stops at 1.
    pub fn set_player_stats(&mut self, stats: PlayerStats) -> CoreResult<()> {
        stats.validate()?;
        // A program wand's pool regenerates by its core's mana_regen (set_caster):
        // the player's own regen is then the bonus alone.
        let program = matches!(self.spells.wand, Wand::Program(_));
        self.player.buy(stats, &self.cfg.player, self.clock.dt, program);
        if let Wand::Program(caster) = &mut self.spells.wand {
            // R-STAT-1 max mana: the armed core's pool plus the bonus; what is in it stays, capped.
            caster.mana.max = self.spells.core_mana_max + stats.mana_max_bonus;
            caster.mana.current = caster.mana.current.min(caster.mana.max);
            self.player.mana_max = caster.mana.max;
            self.player.mana = caster.mana.current;
        }
        Ok(())
    }

    /// The player stats last set by `set_player_stats`.
    pub fn player_stats(&self) -> PlayerStats {
        self.player.bought
    }

    /// R-END-1: arms (or disarms) Last Will — the next lethal hit on the
    /// player (contact, enemy shot, exploder blast) leaves 1 HP and disarms
    /// it, with a `LastWill` event. A run save keeps `last_will()` and sets
    /// it back on the restored world.
    pub fn set_last_will(&mut self, armed: bool) {
        self.player.last_will = armed;
    }

    /// Whether Last Will is armed (not yet spent).
    pub fn last_will(&self) -> bool {
        self.player.last_will
    }

    /// Sets the player's HP and max HP (0 < hp ≤ hp_max, both finite); the player is alive.
    pub fn set_player_hp(&mut self, hp: f32, hp_max: f32) -> CoreResult<()> {
        if !(hp.is_finite() && hp_max.is_finite() && hp > 0.0 && hp <= hp_max && hp_max as f64 <= MAX_AMOUNT) {
            return Err(CoreError::arg(format!(
                "player HP must satisfy 0 < hp ≤ hp_max (finite), got {hp} / {hp_max}"
            )));
        }
        self.player.hp = hp;
        self.player.hp_max = hp_max;
        self.player.alive = true;
        Ok(())
    }

    /// A program wand's memory (R-VM-12 cursor, R-REG-1 registers, Charge
    /// Counter counts, Kill Combo kills), which a persistent_memory core keeps
    /// between waves; `None` for any other wand.
    pub fn wand_memory(&self) -> Option<WandMemory> {
        match &self.spells.wand {
            Wand::Program(c) => Some(WandMemory {
                cursor: c.cursor(),
                registers: c.registers,
                counters: c.counters.clone(),
                kills: c.kills,
            }),
            _ => None,
        }
    }

    /// Puts `memory` (from `wand_memory` of the same wand) into the armed program wand;
    /// refused when no program is armed, the cursor is outside its main block or the
    /// counters are not the program's.
    pub fn set_wand_memory(&mut self, memory: WandMemory) -> CoreResult<()> {
        let Wand::Program(c) = &mut self.spells.wand else {
            return Err(CoreError::arg("wand memory needs a program wand armed"));
        };
        let main = c.program.main;
        if memory.cursor < main.start || memory.cursor > main.end {
            return Err(CoreError::arg(format!(
                "wand cursor {} is outside the main block {}..={}",
                memory.cursor, main.start, main.end
            )));
        }
        if memory.counters.len() != c.counters.len() {
            return Err(CoreError::arg(format!(
                "the wand has {} counters, got {}",
                c.counters.len(),
                memory.counters.len()
            )));
        }
        c.cursors[MAIN] = memory.cursor;
        c.registers = memory.registers;
        c.counters = memory.counters;
        c.kills = memory.kills;
        Ok(())
    }
}

/// A program wand's memory between waves (`World::wand_memory`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WandMemory {
    pub cursor: u32,
    pub registers: [i32; 2],
    pub counters: Vec<u32>,
    pub kills: u32,
}
