//! The worker threads (`Workers`): the caller's thread and a pool's, sharing
//! a step's searches, separation, chase, grid and reorder.
//!
//! The caller's thread (Python's, which calls `step`) is one of the workers,
//! and it does not wait on a lock for the pool. Handing work to a pool with
//! `ThreadPool::scope` or `join` parked the caller until the pool was done,
//! and a wake-up on this VM takes 30–40 µs: a 160 µs split lost 70–95 µs a
//! frame to wake-ups (the median, measured outside the core), a sixth of a
//! 10k/20k frame on two threads. So:
//!
//! - for a step with enough work, the pool's threads are kept awake
//!   (`Workers::shift`): each spins, taking whatever the step hands out, until
//!   the step ends, and they sleep between steps; no more spin than there are
//!   other cores;
//! - work is handed out as a queue that the caller's thread drains too
//!   (`Workers::share`), and only to the threads already spinning, so nothing
//!   waits for a thread to wake: a thread not up yet (the broadcast that wakes
//!   them takes a wake-up too) leaves its share to the caller;
//! - the caller waits for a pool thread's last task by spinning (`Beside`).
//!
//! Which thread runs a task never changes what the task computes: results are
//! the same on any thread count (R-DET-1). A shared step allocates a few small
//! boxes a frame (rayon's spawned jobs, one per pool thread a share, and the
//! broadcast); the one-thread step, the game's, allocates none.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rayon::{Scope, ThreadPool};

use crate::sim::error::{CoreError, CoreResult};
use crate::sim::tasks::Tasks;

/// The worker threads: the caller's, and a pool of the others (`None`: the
/// caller's alone). A clone starts its own pool of the same size: a world and
/// its clone (the benches restore warmed-up clones) never share threads.
#[derive(Default)]
pub(super) struct Workers(Option<Arc<Crew>>);

/// The pool's threads and whether a step keeps them awake.
struct Crew {
    pool: ThreadPool,
    /// While a step runs (`Workers::shift`): set, and how many of the pool's
    /// threads are spinning.
    awake: Arc<Awake>,
    /// The pool's threads that may spin: one fewer than the machine's cores.
    spinners: usize,
}

/// The flag that keeps a pool's threads spinning, and their count.
#[derive(Default)]
struct Awake {
    on: AtomicBool,
    spinning: AtomicUsize,
}

impl Workers {
    /// `threads` workers in all: the caller's and `threads − 1` in a pool.
    pub fn new(threads: usize) -> CoreResult<Workers> {
        if threads <= 1 {
            return Ok(Workers(None));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads - 1)
            .build()
            .map_err(|e| CoreError::arg(format!("cannot start {threads} threads: {e}")))?;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let spinners = (threads - 1).min(cores.saturating_sub(1));
        Ok(Workers(Some(Arc::new(Crew { pool, awake: Arc::default(), spinners }))))
    }

    pub fn threads(&self) -> usize {
        self.0.as_ref().map_or(1, |c| c.pool.current_num_threads() + 1)
    }

    /// Whether `work` items are enough to share: below `THREADED_FROM`, a
    /// share is shorter than handing it over.
    pub fn share_work(&self, work: usize) -> bool {
        self.crew(work).is_some()
    }

    /// Keeps the pool's threads awake until the returned guard drops (the
    /// step's end), when `work` items make sharing worth it; otherwise
    /// nothing. They wake while the caller starts the step (its commands and
    /// the grid); a share before one is up runs without it.
    pub fn shift(&self, work: usize) -> Shift {
        Shift(self.crew(work).map(|crew| {
            crew.awake.on.store(true, Ordering::Release);
            let (awake, spinners) = (Arc::clone(&crew.awake), crew.spinners);
            crew.pool.spawn_broadcast(move |ctx| {
                if ctx.index() < spinners {
                    stay_awake(&awake);
                }
            });
            Arc::clone(&crew.awake)
        }))
    }

    /// The same workers (not a new pool, as `clone` starts): for a step
    /// that lends its own parts to them.
    pub fn handle(&self) -> Workers {
        Workers(self.0.clone())
    }

    /// Runs `task` on every item, each once, the caller's thread and the
    /// pool's spinning threads taking items as they come free; returns when
    /// all are done. With no pool, too little `work` or no thread spinning,
    /// all on the caller's thread, in order.
    pub fn share<T: Send>(&self, work: usize, items: impl Iterator<Item = T> + Send, task: impl Fn(T) + Sync) {
        // Helpers beyond the items after the caller's first would find nothing.
        let helpers =
            |crew: &Crew| crew.awake.spinning.load(Ordering::Acquire).min(items.size_hint().0.saturating_sub(1));
        match self.crew(work).map(|crew| (crew, helpers(crew))).filter(|&(_, helpers)| helpers > 0) {
            None => items.for_each(task),
            Some((crew, helpers)) => {
                let queue = Mutex::new(items);
                let drain = || {
                    while let Some(item) = next(&queue) {
                        task(item);
                    }
                };
                let beside = Beside::default();
                crew.pool.in_place_scope(|s| {
                    for _ in 0..helpers {
                        beside.spawn(s, drain);
                    }
                    drain();
                    beside.wait();
                });
            }
        }
    }

    /// Runs every task once, as `share` does.
    pub fn run(&self, work: usize, tasks: &mut Tasks) {
        self.share(work, tasks.iter_mut(), |task| task());
    }

    /// Runs `f` with a scope of the pool (`None` without one), in which to
    /// start jobs `Beside` the caller's thread; the caller decides whether
    /// its work is worth sharing (`share_work`).
    pub fn scope<'s, R>(&self, f: impl FnOnce(Option<&Scope<'s>>) -> R) -> R {
        match self.0.as_deref() {
            None => f(None),
            Some(crew) => crew.pool.in_place_scope(|s| f(Some(s))),
        }
    }

    /// The pool, when `work` is worth sharing and one of its threads can
    /// spin (on one core none can: there, a step's work stays on the caller).
    fn crew(&self, work: usize) -> Option<&Crew> {
        self.0.as_deref().filter(|crew| work >= THREADED_FROM && crew.spinners > 0)
    }
}

impl Clone for Workers {
    fn clone(&self) -> Workers {
        // Starting threads can only fail if the OS refuses them; the clone
        // then runs on the caller's thread (results are the same).
        Workers::new(self.threads()).unwrap_or(Workers(None))
    }
}

/// The next item of a shared queue. The lock is held only to take an item,
/// so only the queue's own `next` could poison it; the queue is then still
/// whole.
fn next<T>(queue: &Mutex<impl Iterator<Item = T>>) -> Option<T> {
    queue.lock().unwrap_or_else(|e| e.into_inner()).next()
}

/// A pool thread's loop while a step runs: whatever the step hands out,
/// else spin (a sleep would cost a wake-up on the next share).
fn stay_awake(awake: &Awake) {
    awake.spinning.fetch_add(1, Ordering::AcqRel);
    let mut idle = Idle::default();
    while awake.on.load(Ordering::Acquire) {
        if rayon::yield_now() != Some(rayon::Yield::Executed) {
            idle.pause();
        }
    }
    awake.spinning.fetch_sub(1, Ordering::AcqRel);
}

/// A spinning thread's pause. Every `SPINS_PER_YIELD` pauses it lets the OS
/// run another thread: with other programs on the cores, a spinner must not
/// keep the thread it waits for off its core.
#[derive(Default)]
struct Idle(u32);

impl Idle {
    fn pause(&mut self) {
        self.0 = self.0.wrapping_add(1);
        if self.0.is_multiple_of(SPINS_PER_YIELD) {
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
}

/// `Idle::pause`'s pauses per yield to the OS (a few µs of spinning).
const SPINS_PER_YIELD: u32 = 64;

/// Keeps the pool awake while it lives (`Workers::shift`), and stops it
/// when dropped, a step that panics included.
pub(super) struct Shift(Option<Arc<Awake>>);

impl Drop for Shift {
    fn drop(&mut self) {
        if let Some(awake) = &self.0 {
            awake.on.store(false, Ordering::Release);
        }
    }
}

/// Jobs on pool threads beside the caller's, which the caller can wait for
/// by spinning: at a scope's end the scope itself would park the caller on a
/// lock if a job were still running. Counts the jobs running.
#[derive(Default)]
pub(super) struct Beside(AtomicUsize);

impl Beside {
    /// Starts `job` in `scope` (a pool thread takes it).
    pub fn spawn<'s>(&'s self, scope: &Scope<'s>, job: impl FnOnce() + Send + 's) {
        scope.spawn(move |_| {
            self.0.fetch_add(1, Ordering::AcqRel);
            // Counted out even if the job panics (the scope then passes the
            // panic on to the caller): a waiting caller must not spin forever.
            let _running = Running(&self.0);
            job();
        });
    }

    /// Spins until no job is running. A job no thread took yet is left to
    /// the scope's end: every job here only takes work from a queue the
    /// caller drains too, so one taken late finds nothing left and returns
    /// at once. The few spins after let the job's thread tell the scope it
    /// is done before the caller asks (else the caller may park for it).
    pub fn wait(&self) {
        let mut idle = Idle::default();
        while self.0.load(Ordering::Acquire) != 0 {
            idle.pause();
        }
        for _ in 0..AFTER_SPINS {
            std::hint::spin_loop();
        }
    }
}

/// A job counted as running until this drops (`Beside::spawn`).
struct Running<'a>(&'a AtomicUsize);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// `Beside::wait`'s spins after the last job ended (≈ 0.3 µs).
const AFTER_SPINS: usize = 16;

/// Items (enemies or projectiles) from which threads share work: below, a
/// share is shorter than handing it over. The results are the same either
/// way (movement/).
const THREADED_FROM: usize = 2048;

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    /// Shared work during a shift: every item runs once, on this thread
    /// and the pool's, and a task that panics on the pool's thread panics
    /// the share on the caller's (as one thread would) instead of leaving
    /// it spinning for a job that never ends.
    #[test]
    fn a_share_runs_every_item_once_and_passes_a_pool_threads_panic_on() {
        let (done, result) = mpsc::channel();
        std::thread::spawn(move || {
            let workers = Workers::new(2).unwrap();
            let _shift = workers.shift(THREADED_FROM);
            let crew = workers.0.as_deref().unwrap();
            while crew.spinners > 0 && crew.awake.spinning.load(Ordering::Acquire) == 0 {
                std::hint::spin_loop();
            }
            let runs: Vec<AtomicUsize> = (0..400).map(|_| AtomicUsize::new(0)).collect();
            let slow = |k: usize| {
                runs[k].fetch_add(1, Ordering::Relaxed);
                std::thread::sleep(Duration::from_micros(20));
            };
            workers.share(THREADED_FROM, 0..runs.len(), slow);
            let once = runs.iter().all(|r| r.load(Ordering::Relaxed) == 1);
            let caller = std::thread::current().id();
            let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                workers.share(THREADED_FROM, 0..400, |_| {
                    assert_eq!(std::thread::current().id(), caller, "a task on the pool's thread");
                    std::thread::sleep(Duration::from_micros(20));
                })
            }))
            .is_err();
            done.send((once, panicked, crew.spinners)).unwrap();
        });
        let (once, panicked, spinners) = result.recv_timeout(Duration::from_secs(20)).expect("the share hung");
        assert!(once, "every item ran exactly once");
        // With a core to spare the pool's thread takes items and its panic comes through.
        assert_eq!(panicked, spinners > 0);
    }
}
