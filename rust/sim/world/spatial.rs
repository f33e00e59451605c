//! The spatial partitions and the scratch of the frame's searches and moves
//! (`Spatial`): step 3 rebuilds the enemy grid, which the hits (6), the touch
//! (8) and the separation (9) read; the worker threads.

use std::sync::Arc;

use rayon::ThreadPool;

use crate::sim::error::{CoreError, CoreResult};
use crate::sim::grid::{Grid, QueryOrder};
use crate::sim::movement::{BandQueue, Separation, SeparationRule};
use crate::sim::pools::Pools;

/// The spatial partitions and the per-frame scratch of the searches and
/// moves, kept between frames so steady state allocates nothing.
#[derive(Clone, Default)]
pub(super) struct Spatial {
    /// The enemies by cell, over their start-of-frame positions (hits, touch,
    /// separation). Shared: step 9's separation may read it on another
    /// thread while steps 4–8b read it on this one (`World::step`).
    pub grid: Arc<Grid>,
    /// The pickups by cell, within the magnet's reach.
    pub pickup_grid: Grid,
    /// Step 9's separation push per enemy.
    pub pushes: Pushes,
    /// The projectiles that search, row by row.
    pub queries: QueryOrder,
    /// Each query's target (`NO_TARGET`: none), in query order, then a
    /// spare none: projectile i's is at `queries.place(i)`.
    pub targets: Vec<u32>,
    /// The projectiles that struck, with their targets, in projectile order
    /// (the first entries; hits.rs `struck_in_order`).
    pub struck: Vec<(u32, u32)>,
    /// Step 9's speeds while statuses are live (chill, freeze).
    pub speeds: Vec<f32>,
    /// The worker threads of the search, the separation and the chase.
    pub workers: Workers,
}

/// The worker threads for the searches and the separation (`None`: the
/// caller's thread). A clone starts its own pool of the same size: a world and its
/// clone (the benches restore warmed-up clones) never share threads.
#[derive(Default)]
pub(super) struct Workers(pub Option<Arc<ThreadPool>>);

impl Workers {
    pub fn new(threads: usize) -> CoreResult<Workers> {
        if threads == 1 {
            return Ok(Workers(None));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| CoreError::arg(format!("cannot start {threads} threads: {e}")))?;
        Ok(Workers(Some(Arc::new(pool))))
    }

    /// The pool, if there is one and `work` items are enough to share:
    /// below `THREADED_FROM`, a share is shorter than waking a thread.
    pub fn for_work(&self, work: usize) -> Option<&Arc<ThreadPool>> {
        self.0.as_ref().filter(|_| work >= THREADED_FROM)
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
        // The grid is shared only while a step runs: here it is this world's alone
        // (a clone's first rebuild copies it once).
        Arc::make_mut(&mut self.grid).rebuild_with_wide(&e.x, &e.y, &e.radius, reach, cells_per_entity, r);
    }
}

/// Threads share a search or the separation from this many items (enemies
/// or projectiles): below, a share is shorter than waking the pool. The
/// results are the same either way (movement.rs).
const THREADED_FROM: usize = 2048;

/// Step 9's separation push per enemy (R-WAVE-2), and the bands' scratch
/// that computes it: each overlapping pair computed once (half shell) over
/// row bands fixed by the grid, merged in a fixed order (identical for
/// every thread count, movement.rs).
///
/// The pushes read nothing but the grid of start-of-frame positions, so on
/// more than one thread they are computed as soon as the grid is, alongside
/// steps 4–8b; otherwise just before step 9 (`World::step` decides).
#[derive(Clone, Default)]
pub(super) struct Pushes {
    pub x: Vec<f32>,
    pub y: Vec<f32>,
    scratch: Separation,
}

impl Pushes {
    /// The push of every point of `grid`, on this thread.
    pub fn compute(&mut self, grid: &Grid, rule: SeparationRule) {
        self.alongside(grid, rule, |_| ());
    }

    /// Sized for `n` enemies: the children of this frame's splits joined
    /// after the grid was built, and get no push.
    pub fn fit(&mut self, n: usize) {
        self.x.resize(n, 0.0);
        self.y.resize(n, 0.0);
    }

    /// The push of every point of `grid` (enemy indices `0..grid.sources()`),
    /// its bands run by `work` on whatever threads it likes and the rest,
    /// if it left any, on this one; `work`'s result is returned.
    pub fn alongside<R>(&mut self, grid: &Grid, rule: SeparationRule, work: impl FnOnce(&BandQueue) -> R) -> R {
        self.fit(grid.sources());
        let bands = self.scratch.bands(grid, rule);
        let result = work(&bands);
        bands.run_all();
        self.scratch.merge(grid, rule, &mut self.x, &mut self.y);
        result
    }
}
