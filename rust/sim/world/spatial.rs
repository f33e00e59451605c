//! The spatial partitions and the scratch of the frame's searches and moves
//! (`Spatial`): step 3 rebuilds the enemy grid, which the hits (6), the touch
//! (8) and the separation (9) read; the worker threads of the searches.

use crate::sim::error::{CoreError, CoreResult};
use crate::sim::grid::{Grid, QueryOrder};
use crate::sim::movement::{separation_pushes, Separation, SeparationRule};
use crate::sim::pools::Pools;

/// The spatial partitions and the per-frame scratch of the searches and
/// moves, kept between frames so steady state allocates nothing.
#[derive(Clone, Default)]
pub(super) struct Spatial {
    /// The enemies by cell, over their start-of-frame positions (hits, touch, separation).
    pub grid: Grid,
    /// The pickups by cell, within the magnet's reach.
    pub pickup_grid: Grid,
    /// Step 9's separation push per enemy, and the bands' scratch that computes it.
    pub push_x: Vec<f32>,
    pub push_y: Vec<f32>,
    pub separation: Separation,
    /// Each projectile's target (`NO_TARGET`: none), in projectile order.
    pub targets: Vec<u32>,
    /// The projectiles that search, row by row, and their targets.
    pub queries: QueryOrder,
    pub sorted_targets: Vec<u32>,
    /// Step 9's speeds while statuses are live (chill, freeze).
    pub speeds: Vec<f32>,
    /// The worker threads of the searches.
    pub workers: Workers,
}

/// The worker threads for the neighbour searches (`None`: the caller's
/// thread). A clone starts its own pool of the same size: a world and its
/// clone (the benches restore warmed-up clones) never share threads.
#[derive(Default)]
pub(super) struct Workers(pub Option<rayon::ThreadPool>);

impl Workers {
    pub fn new(threads: usize) -> CoreResult<Workers> {
        if threads == 1 {
            return Ok(Workers(None));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| CoreError::arg(format!("cannot start {threads} threads: {e}")))?;
        Ok(Workers(Some(pool)))
    }

    pub fn threads(&self) -> usize {
        self.0.as_ref().map_or(1, |p| p.current_num_threads())
    }
}

impl Clone for Workers {
    fn clone(&self) -> Workers {
        // Starting threads can only fail if the OS refuses them; the clone
        // then runs on the caller's thread (results are the same).
        Workers::new(self.threads()).unwrap_or(Workers(None))
    }
}

impl Spatial {
    /// Step 3: the enemy grid over their start-of-frame positions, its cells
    /// sized so one block query reaches every touch of the kinds that fill
    /// waves (`regular_radius`: the largest of them): enemy and enemy, enemy
    /// and shot, enemy and player. A bigger enemy (a boss) is one of the
    /// grid's wide points, which every query checks on its own.
    pub fn rebuild_grid(&mut self, pools: &Pools, regular_radius: f32, player_radius: f32, cells_per_entity: f32) {
        let max_proj = pools.projectiles.radius.iter().copied().fold(0.0, f32::max);
        let r = regular_radius;
        let reach = (2.0 * r).max(r + max_proj).max(r + player_radius);
        let e = &pools.enemies;
        self.grid.rebuild_with_wide(&e.x, &e.y, &e.radius, reach, cells_per_entity, r);
    }

    /// Step 9's separation pushes of `n` enemies: each overlapping pair
    /// computed once (half shell) over row bands fixed by the grid, merged in
    /// a fixed order (identical for every thread count). Children of this
    /// frame's splits are not in the grid: no push.
    pub fn separation_pushes(&mut self, n: usize, rule: SeparationRule) {
        self.push_x.resize(n, 0.0);
        self.push_y.resize(n, 0.0);
        self.push_x[self.grid.sources().min(n)..].fill(0.0);
        self.push_y[self.grid.sources().min(n)..].fill(0.0);
        // Threads only from 2048 enemies: below, a band's work is shorter
        // than waking the pool. Same result either way (movement.rs).
        let pool = self.workers.0.as_ref().filter(|_| n >= 2048);
        separation_pushes(&self.grid, rule, pool, &mut self.separation, &mut self.push_x, &mut self.push_y);
    }
}
