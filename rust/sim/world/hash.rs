//! R-DET-1, the state hash: a digest of everything that shapes the future
//! of the run, part by part, in a fixed order (every recorded hash depends
//! on it: the goldens catch a change).

use super::World;
use crate::sim::hash::StateHasher;
use crate::sim::player::Player;

impl World {
    /// R-DET-1: a digest of everything that shapes the future of the run.
    pub fn state_hash(&self) -> u64 {
        let mut h = StateHasher::new();
        h.section("frame");
        h.u64(self.clock.frame);
        hash_player(&self.player, &mut h);
        self.pools.enemies.hash_into(&mut h);
        h.f32s(&self.elements.attunement);
        self.pools.projectiles.hash_into(&mut h);
        self.pools.pickups.hash_into(&mut h);
        self.spells.hash_into(&mut h);
        self.pools.projectiles.hash_behaviours_into(&mut h);
        self.pools.zones.hash_into(&mut h);
        self.pools.summons.hash_into(&mut h);
        self.relics.hash_into(&mut h, self.clock.wave_ticks);
        self.bosses.hash_into(&mut h);
        h.section("rng");
        for f in self.rng.fingerprint() {
            h.u64(f);
        }
        h.finish()
    }
}

/// The player's section: where it is, its health, mana and timers (not the
/// stats bought: their effects are in these numbers).
fn hash_player(p: &Player, h: &mut StateHasher) {
    h.section("player");
    for v in [
        p.x,
        p.y,
        p.hp,
        p.hp_max,
        p.armor,
        p.ward,
        p.strength,
        p.mana,
        p.mana_max,
        p.mana_regen,
        p.crit_chance,
        p.dash_left,
        p.dash_cooldown,
        p.invulnerable,
        p.dash_dx,
        p.dash_dy,
        p.face_x,
        p.face_y,
    ] {
        h.f32(v);
    }
    h.u64(p.alive as u64 | (p.moving as u64) << 1 | (p.last_will as u64) << 2);
}
