//! Steps 6–7, hits and damage: every player shot's target from the grid
//! (the frame's hot loop, across threads), then in projectile order each
//! hit — a shield's reflection, R-DMG-1 damage with the relics and the
//! element work, pierce, hit memory, R-END-3 mirror world — and every
//! source's damage into HP: kills, rewards, deaths that act, boss hooks.

use super::shots::BehaviourHit;
use super::spatial::Spatial;
use super::{FrameLog, World};
use crate::sim::combat::{final_damage, final_damage_booted, Attack, Defence};
use crate::sim::events::{Event, EventKind};
use crate::sim::ids::Id;
use crate::sim::movement::{nearest_in_runs, nearest_in_runs_except, NO_TARGET};
use crate::sim::pools::{Pools, Projectiles, HIT_MEMORY};
use std::hint::select_unpredictable;

/// Step 6: every projectile's target from the grid (`NO_TARGET`: none), in
/// projectile order. The search is the hot loop of the frame; it only reads,
/// so it splits across threads, in short shares of the shots that each thread
/// takes as it comes free (`Workers::share`): each writes its own stretch of
/// `targets`. The pool is kept nearly in the grid's cell order
/// (`Spatial::reorder`), so consecutive shots read the same few blocks of
/// the grid without a sort of their own. A shot searches if `Projectiles::searches` and it can reach
/// the grid: each stretch of shots finds which do, and their blocks, in a pass
/// without a branch, then searches those. With hit memory (`memory`), a shot
/// skips the enemies it struck before.
pub(super) fn find_targets(spatial: &mut Spatial, pools: &Pools, memory: bool) {
    let Spatial { grid, targets, workers, .. } = spatial;
    let p = &pools.projectiles;
    let grid = &**grid;
    let window = grid.query_window();
    // Every entry is written below (the look pass writes "none" first), so
    // only a change of length fills.
    targets.resize(p.len(), NO_TARGET);
    let enemy_ids = pools.enemies.ids.ids();
    let search = |first: usize, out: &mut [u32]| {
        // In stretches: each shot's block and whether it searches, in a loop
        // with no branch that vectorises (whether a shot at the crowd's edge
        // reaches it is a coin toss), then the list of those that do, then
        // their searches.
        let (mut blocks, mut keep) = ([0u32; SEARCH_STRETCH], [false; SEARCH_STRETCH]);
        let mut to_search = [(0u32, 0u32); SEARCH_STRETCH];
        for (stretch, out) in (first..).step_by(SEARCH_STRETCH).zip(out.chunks_mut(SEARCH_STRETCH)) {
            let shots = stretch..stretch + out.len();
            let (xs, ys) = (&p.x[shots.clone()], &p.y[shots.clone()]);
            let (owner, dead) = (&p.owner[shots.clone()], &p.dead[shots]);
            let len = out.len();
            for j in 0..len {
                let (block, reaches) = window.look(xs[j], ys[j]);
                blocks[j] = block;
                keep[j] = reaches & Projectiles::searching(owner[j], dead[j]);
                out[j] = NO_TARGET;
            }
            let mut n = 0;
            for j in 0..len {
                to_search[n] = (j as u32, blocks[j]);
                n += keep[j] as usize;
            }
            for &(j, block) in &to_search[..n] {
                let i = stretch + j as usize;
                let (x, y, r, block_rows) = (p.x[i], p.y[i], p.radius[i], grid.runs_at(block));
                out[j as usize] = if memory {
                    nearest_in_runs_except(grid, &block_rows, x, y, r, |e| p.remembers(i, enemy_ids[e as usize]))
                } else {
                    nearest_in_runs(grid, &block_rows, x, y, r)
                };
            }
        }
    };
    // Short shares, so that neither thread waits long on the other's last one.
    let share_len = p.len().div_ceil(workers.threads() * SEARCH_SHARES_PER_THREAD).max(1);
    workers.share(p.len(), targets.chunks_mut(share_len).enumerate(), |(k, out)| search(k * share_len, out));
}

/// Shots a search looks over before it searches (`find_targets`).
const SEARCH_STRETCH: usize = 64;

/// Shares of the shots per thread in a shared search (see `find_targets`).
const SEARCH_SHARES_PER_THREAD: usize = 16;

/// Of the first `n` projectiles, those that found a target, with it, in
/// projectile order, into `spatial.struck`; returns how many. Branch-free: whether a
/// shot hit is a coin toss that a branch predictor loses (it was a fifth
/// of `resolve_hits`).
fn struck_in_order(spatial: &mut Spatial, n: usize) -> usize {
    let Spatial { targets, struck, .. } = spatial;
    if struck.len() < n {
        struck.resize(n, (0, NO_TARGET));
    }
    let mut count = 0;
    for (pi, &e) in targets[..n].iter().enumerate() {
        struck[count] = (pi as u32, e);
        count += (e != NO_TARGET) as usize;
    }
    count
}

impl World {
    /// R-DMG-1's two sides of a hit of `base` × `mult` and `element` on enemy `e` — the player's
    /// strength and the_boot's floor, the enemy's resistances, armor and vulnerability (a
    /// boss's by its phase) — and whether `e` is a boss. Shots and blasts alike.
    #[inline(always)]
    fn strike(&self, e: usize, base: f32, mult: f32, element: usize) -> (Attack, Defence, bool) {
        let kind = &self.cfg.enemy_kinds[self.pools.enemies.kind[e] as usize];
        let boot_floor = self.relics.rules.damage_floor;
        let attack = Attack { base, flat: self.player.strength, mult, element, boot_floor };
        let taken = self.cfg.combat.taken(self.pools.enemies.vulnerable[e] > 0.0);
        let boss = kind.behavior.is_boss();
        let (resist, armor) = if boss { self.boss_defence(e, kind) } else { (kind.resist, kind.armor) };
        (attack, Defence { resist, armor, taken }, boss)
    }

    /// Step 6–7, in projectile order (deterministic): damage, kills, pierce.
    /// (Out of line: one call a frame, and profiles name it.)
    #[inline(never)]
    pub(super) fn resolve_hits(&mut self) -> (u32, f32) {
        let mut hits = 0u32;
        let mut dealt = 0.0f32;
        let struck = struck_in_order(&mut self.spatial, self.pools.projectiles.len());
        for s in 0..struck {
            let (pi, e) = self.spatial.struck[s];
            let (pi, e) = (pi as usize, e as usize);
            if self.pools.enemies.dead[e] {
                continue;
            }
            // Behind a roster-wide flag: where no kind has a shield (the
            // stress workload), hits never look for one.
            if self.behaviours.any_shields && self.shield_reflects(pi, e) {
                continue;
            }
            hits += 1;
            let (amount, element, boss) = self.hit_amount(pi, e);
            let done = self.land_hit(e, amount, element, boss);
            dealt += done;
            if self.pools.projectiles.special[pi] {
                self.log.behaviour_hits.push(BehaviourHit { projectile: pi as u32, enemy: e as u32, dealt: done });
            }
            self.spend_shot(pi, e);
        }
        (hits, dealt)
    }

    /// Whether enemy `e`'s shield (its kind's, or a boss's in its phase)
    /// reflects projectile `pi` instead of taking the hit.
    #[inline(always)]
    fn shield_reflects(&mut self, pi: usize, e: usize) -> bool {
        let kind = &self.cfg.enemy_kinds[self.pools.enemies.kind[e] as usize];
        let shield = if kind.behavior.is_boss() { self.boss_shield(e) } else { kind.behavior.shield() };
        shield.is_some_and(|shield| self.reflect(pi, e, shield))
    }

    /// Projectile `pi`'s hit on enemy `e` as R-DMG-1 has it (the crit roll,
    /// the element's bonus, the_boot): the damage, the element, and whether
    /// `e` is a boss.
    #[inline(always)]
    fn hit_amount(&mut self, pi: usize, e: usize) -> (f32, usize, bool) {
        let p = &self.pools.projectiles;
        let crit = self.rng.crit.chance(p.crit_chance[pi]);
        let element = p.element[pi] as usize;
        let base = p.damage[pi];
        let crit_mult = if crit { self.player.crit_multiplier } else { 1.0 };
        // Behind a flag: where no element can apply a status and nothing
        // is attuned (the stress workload), hits skip the element work.
        // Measured at 10k/20k crowd (valgrind): +0.57% instructions over
        // 210 frames with the flag (statuses' columns, the shock check),
        // +0.93% without it.
        let mult = if self.elements.act { crit_mult * self.element_multiplier(e, element) } else { crit_mult };
        let (amount, boss) = self.hit_damage(e, base, mult, element);
        (amount, element, boss)
    }

    /// R-DMG-1's damage of a hit of `base` × `mult` and `element` on enemy
    /// `e` (the_boot's lifts counted), and whether `e` is a boss. Shots and
    /// blasts alike.
    #[inline(always)]
    pub(super) fn hit_damage(&mut self, e: usize, base: f32, mult: f32, element: usize) -> (f32, bool) {
        let (attack, defence, boss) = self.strike(e, base, mult, element);
        // the_boot behind its flag: off (the stress workload), a hit is
        // R-DMG-1 alone, with no count to keep.
        let amount = if attack.boot_floor > 0.0 {
            let (amount, lifted) = final_damage_booted(&attack, &defence);
            self.relics.state.boot_lifts += lifted as u32;
            amount
        } else {
            final_damage(&attack, &defence)
        };
        (amount, boss)
    }

    /// A hit of `amount` and `element` on enemy `e` lands: its HP, then
    /// R-DMG-2's status roll and a boss's hooks. Returns the damage dealt.
    /// Shots and blasts alike.
    #[inline(always)]
    pub(super) fn land_hit(&mut self, e: usize, amount: f32, element: usize, boss: bool) -> f32 {
        let done = self.damage_enemy(e, amount);
        if self.elements.act {
            self.element_hit(e, element);
        }
        if boss {
            self.boss_hit(e, element, done);
        }
        done
    }

    /// After projectile `pi` struck enemy `e`: it remembers `e` (hit
    /// memory), turns back (R-END-3 mirror world: its first hit spends no
    /// pierce) or spends one pierce, and when none is left dies (or, under
    /// the stress rules, respawns with its pierce whole).
    #[inline(always)]
    fn spend_shot(&mut self, pi: usize, e: usize) {
        if !self.cfg.rules.no_hit_memory {
            let id = self.pools.enemies.ids.ids()[e];
            self.pools.remember(pi, id);
        }
        let shots_remember = self.pools.shots_remember();
        let player = (self.player.x, self.player.y);
        let p = &mut self.pools.projectiles;
        if self.cfg.mutators.mirror && !p.mirrored[pi] {
            mirror(p, pi, player);
            return;
        }
        // Whether this hit spends the shot is a coin toss (every third hit
        // at pierce 3: a branch on it was most of `resolve_hits`'
        // mispredicts), so selects. (Written as bit masks they gained
        // nothing; `select_unpredictable` tells LLVM not to make a branch.)
        let left = p.hits_left[pi] - 1;
        let spent = left == 0;
        if self.cfg.rules.respawn_spent_projectiles {
            p.hits_left[pi] = select_unpredictable(spent, p.hits_at_spawn[pi], left);
            // Even without hit memory (the stress rules) a chain's bolt
            // remembers the enemy it jumped from: forget it. Where no shot
            // ever remembered one (the stress workload), every memory is
            // empty already, and the 32 bytes a hit would read are the
            // one read of the hit that misses the cache at 2M shots.
            if shots_remember {
                p.memory[pi] = select_unpredictable(spent, [Id::NONE; HIT_MEMORY], p.memory[pi]);
            }
            debug_assert!(
                shots_remember || p.memory[pi] == [Id::NONE; HIT_MEMORY],
                "memory written past Pools::remember"
            );
        } else {
            p.hits_left[pi] = left;
            p.dead[pi] |= spent;
        }
    }

    /// Takes `amount` off enemy `e`; on death emits the kill and drops its
    /// reward as a mana crystal. Returns the damage actually dealt.
    #[inline(never)]
    pub(super) fn damage_enemy(&mut self, e: usize, amount: f32) -> f32 {
        let en = &mut self.pools.enemies;
        if en.dead[e] || amount <= 0.0 {
            return 0.0;
        }
        // R-DMG-2: a shocked enemy takes more from every source.
        let amount = if self.elements.statuses_live && en.shock[e] > 0.0 {
            amount * self.cfg.statuses.shock_multiplier
        } else {
            amount
        };
        self.take_off_hp(e, amount)
    }

    /// `amount` straight off enemy `e`'s HP (no multiplier of any kind);
    /// on death emits the kill and drops its reward. Returns the damage dealt.
    #[inline(always)]
    pub(super) fn take_off_hp(&mut self, e: usize, amount: f32) -> f32 {
        let en = &mut self.pools.enemies;
        if en.dead[e] || amount <= 0.0 {
            return 0.0;
        }
        if !self.bosses.live.is_empty() {
            if let Some(dealt) = self.boss_spares(e, amount) {
                return dealt;
            }
        }
        let en = &mut self.pools.enemies;
        if self.cfg.rules.enemies_immortal {
            // Dummies take every hit in full and never fall.
            en.hp[e] = (en.hp[e] - amount).max(f32::MIN_POSITIVE);
            en.hit_frame[e] = self.clock.frame + 1;
            self.log.damage += amount;
            if self.cfg.rules.hit_events {
                self.log.hits.push(HitRecord {
                    damage: amount,
                    kind: en.kind[e],
                    lethal: false,
                    x: en.x[e],
                    y: en.y[e],
                });
            }
            return amount;
        }
        let dealt = amount.min(en.hp[e]);
        en.hp[e] -= amount;
        en.hit_frame[e] = self.clock.frame + 1;
        self.log.damage += dealt;
        if self.cfg.rules.hit_events {
            self.log.hits.push(HitRecord {
                damage: dealt,
                kind: en.kind[e],
                lethal: en.hp[e] <= 0.0,
                x: en.x[e],
                y: en.y[e],
            });
        }
        if en.hp[e] > 0.0 {
            return dealt;
        }
        en.dead[e] = true;
        let kind = en.kind[e] as usize;
        let k = &self.cfg.enemy_kinds[kind];
        // R-END-3 splitting monsters: every first-generation enemy but a boss acts on death.
        let splits = self.cfg.mutators.split.is_some() && !en.offspring[e] && !k.behavior.is_boss();
        if k.acts_on_death() || splits {
            self.log.dying.push(e as u32);
        }
        let base_reward = self.cfg.enemy_kinds[kind].reward as f32;
        let reward = if en.elite[e] { (base_reward * self.cfg.elite_reward_multiplier).round() } else { base_reward };
        let (x, y) = (en.x[e], en.y[e]);
        self.log.kills.push((x, y));
        // R-MANA-8: mana leech restores mana on every kill.
        self.player.mana = (self.player.mana + self.player.mana_leech).min(self.player.mana_max);
        let elite = en.elite[e];
        self.log.events.push(Event::new(EventKind::EnemyKilled, kind as f32, elite as u8 as f32, x, y, reward));
        if reward > 0.0 {
            self.pools.pickups.push(x, y, reward as u32, self.cfg.pickups.radius);
        }
        if elite {
            self.relics_on_elite_death(kind as u16, (x, y));
        }
        dealt
    }
}

/// A hit as the `hit_events` rule reports it (`FrameLog::hits`): the damage
/// dealt, the enemy's kind, whether it was the killing blow, and where.
#[derive(Clone, Copy, Debug)]
pub(super) struct HitRecord {
    damage: f32,
    kind: u16,
    lethal: bool,
    x: f32,
    y: f32,
}

impl FrameLog {
    /// The `hit_events` rule: the frame's biggest hits as `EnemyHit` events,
    /// biggest first, at most `most`.
    pub(super) fn report_biggest_hits(&mut self, most: usize) {
        if self.hits.is_empty() {
            return;
        }
        let keep = most.min(self.hits.len());
        let hits = &mut self.hits;
        let biggest_first = |a: &HitRecord, b: &HitRecord| b.damage.total_cmp(&a.damage);
        if keep > 0 && keep < hits.len() {
            // Thousands of hits a frame late in a run: partition, then order only the kept few
            // (std's selection is deterministic, so equal inputs give equal events).
            hits.select_nth_unstable_by(keep - 1, biggest_first);
            hits[..keep].sort_by(biggest_first);
        } else {
            hits.sort_by(biggest_first);
        }
        for &HitRecord { damage, kind, lethal, x, y } in &hits[..keep] {
            self.events.push(Event::new(EventKind::EnemyHit, kind as f32, lethal as u8 as f32, x, y, damage));
        }
        hits.clear();
    }
}

/// R-END-3 mirror world: projectile `pi`'s first enemy hit sends it back toward the player at
/// its speed (straight back if it is on the player), spending none of its pierce.
fn mirror(p: &mut Projectiles, pi: usize, player: (f32, f32)) {
    p.mirrored[pi] = true;
    let (dx, dy) = (player.0 - p.x[pi], player.1 - p.y[pi]);
    let (d, speed) = ((dx * dx + dy * dy).sqrt(), (p.vx[pi] * p.vx[pi] + p.vy[pi] * p.vy[pi]).sqrt());
    if d > 1e-6 {
        (p.vx[pi], p.vy[pi]) = (dx / d * speed, dy / d * speed);
    } else {
        (p.vx[pi], p.vy[pi]) = (-p.vx[pi], -p.vy[pi]);
    }
}
