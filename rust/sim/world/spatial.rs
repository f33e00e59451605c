//! The spatial partitions and the scratch of the frame's searches and moves
//! (`Spatial`): step 3 rebuilds the enemy grid, which the hits (6), the touch
//! (8) and the separation (9) read; every `REORDER_EVERY` frames, the pools
//! reordered by its cells. (The worker threads it holds are workers.rs'.)

use std::sync::Arc;

use crate::sim::grid::{Grid, GridSizing};
use crate::sim::movement::{BandQueue, Separation, SeparationRule};
use crate::sim::pools::{Enemies, Pools, Projectiles};
use crate::sim::tasks::shorter;

use super::workers::Workers;

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
    /// Each projectile's target (`NO_TARGET`: none), in projectile order.
    pub targets: Vec<u32>,
    /// The projectiles that struck, with their targets, in projectile order
    /// (the first entries; hits.rs `struck_in_order`).
    pub struck: Vec<(u32, u32)>,
    /// Step 9's speeds while statuses are live (chill, freeze).
    pub speeds: Vec<f32>,
    /// The worker threads of the search, the separation and the chase.
    pub workers: Workers,
    /// `reorder`'s scratch: the cell counts, the new orders, and pools that
    /// lend their columns.
    counts: Vec<u32>,
    order: Vec<u32>,
    shot_order: Vec<u32>,
    spare_enemies: Enemies,
    spare_projectiles: Projectiles,
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
        // In halves on two threads, when there are enough enemies to share.
        let (workers, n) = (&self.workers, e.len());
        let sizing = GridSizing { reach, cells_per_entity, wide_above: r };
        let halves = workers.share_work(n);
        // The grid is shared only while a step runs: here it is this world's alone
        // (a clone's first rebuild copies it once).
        let grid = Arc::make_mut(&mut self.grid);
        grid.rebuild_in(&e.x, &e.y, &e.radius, sizing, halves, |tasks| workers.run(n, tasks));
    }
}

impl Spatial {
    /// The enemies into this frame's grid order (the wide points — bosses,
    /// a handful — first, then cell by cell, then the enemies born since
    /// the rebuild), and the projectiles by the same cells (the player's
    /// live shots within reach, cell by cell, then the others as they were:
    /// enemies' shots, the dead, which `compact` then swaps out from the end
    /// without disturbing the sorted ones, and those beyond reach;
    /// `Grid::order_by_cell`). Called before the dead are removed: the grid
    /// names enemies as they were at its rebuild, plus those pushed since.
    ///
    /// Why: the searches and the separation read the enemies through the
    /// grid's copies and the hits read them by index, shot after shot, so
    /// with both pools in nearly that order they read them nearly in
    /// sequence rather than at random (it matters most where the pools
    /// outgrow the caches: 200k enemies' columns are ~20 MB), and the shots
    /// need no sort of their own each frame (`hits::find_targets`).
    ///
    /// Behaviour changes only as far as order does: which of two shots
    /// strikes an enemy first, the order of events and of crit draws.
    ///
    /// Cost: out of line, one call in `REORDER_EVERY` frames, and profiles
    /// name it. At 10k/20k it cost ~0.8 ms on one thread, 52 µs a frame on
    /// average, before the columns of one value were left out
    /// (`pools::gather`: the projectiles' 68-byte `behaviour` is plain for
    /// most shots).
    #[inline(never)]
    pub fn reorder(&mut self, pools: &mut Pools) {
        let Spatial { grid, counts, order, shot_order, spare_enemies, spare_projectiles, workers, .. } = self;
        let n = pools.enemies.len();
        order.clear();
        order.extend(grid.wide.iter().map(|w| w.index));
        order.extend_from_slice(&grid.index[..grid.len()]);
        order.extend(grid.sources() as u32..n as u32);

        let p = &pools.projectiles;
        grid.order_by_cell(&p.x, &p.y, |i| p.searches(i), counts, shot_order);

        let (enemies, shots) = (&mut pools.enemies, &mut pools.projectiles);
        let work = n + shots.len();
        // Every column of both pools a task, so that every thread gathers.
        enemies.permute_with(order, spare_enemies, |columns| {
            shots.permute_with(shot_order, spare_projectiles, |more| {
                let tasks = columns.iter_mut().map(shorter).chain(more.iter_mut().map(shorter));
                workers.share(work, tasks, |gather| gather());
            })
        });
    }
}

/// Frames from one `Spatial::reorder` of the pools to the next. Shots fly
/// 6 px a frame and enemies chase at 1–3, so in 16 frames the order drifts
/// by a few cells, while the reorder's cost (every column of both pools
/// gathered once) is spread over 16 frames. Measured by the mean step at
/// 10k/20k, every 32 and 64 frames came to 0.979× and 0.991× of this, and
/// at 50k/100k every 32 to 0.998×: inside the noise.
pub(super) const REORDER_EVERY: u64 = 16;

/// Enemies and projectiles together from which `Spatial::reorder` runs at
/// all. Below, both pools fit in L2 and their order buys nothing to pay a
/// reorder for (the search in pool order, unsorted, measured no slower at
/// 1k/2k in pass 7), while the reorder frame, one in `REORDER_EVERY`, is what a step's
/// p99 sees: the game's W19 (about 2,000 enemies) measured +7% p99 with it.
pub(super) const REORDER_FROM: usize = 4096;

/// Step 9's separation push per enemy (R-WAVE-2), and the bands' scratch
/// that computes it: each overlapping pair computed once (half shell) over
/// row bands fixed by the grid, merged in a fixed order (identical for
/// every thread count, movement/separation.rs).
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
