//! The worker threads (`Workers`): the caller's thread and a pool's, sharing
//! a step's searches, separation, chase and reorder.
//!
//! The caller's thread (Python's, which calls `step`) is one of the workers:
//! it is never parked while the pool works. Parking it cost a wake-up each
//! time, and on this VM a wake-up takes 30–40 µs: a step that handed its
//! searches to a pool with `ThreadPool::scope` or `join` and waited lost
//! 70–95 µs a frame to wake-ups (the median of a 160 µs split, measured
//! outside the core), a sixth of a 10k/20k frame on two threads. So:
//!
//! - for a step with enough work, the pool's threads are kept awake
//!   (`Workers::shift`): each spins, taking whatever the step hands out, until
//!   the step ends, and they sleep between steps;
//! - work is handed out as a queue that the caller's thread drains too
//!   (`Workers::share`), so nothing waits for a thread to wake: if the pool's
//!   thread is late, the caller does its share;
//! - the caller waits for a pool thread's last task by spinning (`Beside`),
//!   never on a lock.
//!
//! Which thread runs a task never changes what the task computes: results are
//! the same on any thread count (R-DET-1).

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
    /// Set while a step runs (`Workers::shift`): the pool's threads spin.
    awake: Arc<AtomicBool>,
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
        Ok(Workers(Some(Arc::new(Crew { pool, awake: Arc::default() }))))
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
    /// the grid), so they are up before the first share.
    pub fn shift(&self, work: usize) -> Shift {
        Shift(self.crew(work).map(|crew| {
            crew.awake.store(true, Ordering::Release);
            let awake = Arc::clone(&crew.awake);
            crew.pool.spawn_broadcast(move |_| stay_awake(&awake));
            Arc::clone(&crew.awake)
        }))
    }

    /// The same workers (not a new pool, as `clone` starts): for a step
    /// that lends its own parts to them.
    pub fn handle(&self) -> Workers {
        Workers(self.0.clone())
    }

    /// Runs `task` on every item, each once, the caller's thread and the
    /// pool's taking items as they come free; returns when all are done. With
    /// no pool, or too little `work`, all on the caller's thread, in order.
    pub fn share<T: Send>(&self, work: usize, items: impl Iterator<Item = T> + Send, task: impl Fn(T) + Sync) {
        match self.crew(work) {
            None => items.for_each(task),
            Some(crew) => {
                let queue = Mutex::new(items);
                let drain = || {
                    while let Some(item) = next(&queue) {
                        task(item);
                    }
                };
                let beside = Beside::default();
                crew.pool.in_place_scope(|s| {
                    for _ in 0..crew.pool.current_num_threads() {
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

    /// Runs `f` with a scope of the pool (`None` without one, or with too
    /// little `work`), in which to start jobs `Beside` the caller's thread.
    pub fn scope<'s, R>(&self, work: usize, f: impl FnOnce(Option<&Scope<'s>>) -> R) -> R {
        match self.crew(work) {
            None => f(None),
            Some(crew) => crew.pool.in_place_scope(|s| f(Some(s))),
        }
    }

    fn crew(&self, work: usize) -> Option<&Crew> {
        self.0.as_deref().filter(|_| work >= THREADED_FROM)
    }
}

impl Clone for Workers {
    fn clone(&self) -> Workers {
        // Starting threads can only fail if the OS refuses them; the clone
        // then runs on the caller's thread (results are the same).
        Workers::new(self.threads()).unwrap_or(Workers(None))
    }
}

/// The next item of a shared queue. A poisoned lock only means a task
/// panicked on another thread; the queue is still whole.
fn next<T>(queue: &Mutex<impl Iterator<Item = T>>) -> Option<T> {
    queue.lock().unwrap_or_else(|e| e.into_inner()).next()
}

/// A pool thread's loop while a step runs: whatever the step hands out,
/// else spin (a sleep would cost a wake-up on the next share).
fn stay_awake(awake: &AtomicBool) {
    let mut idle = Idle::default();
    while awake.load(Ordering::Acquire) {
        if rayon::yield_now() != Some(rayon::Yield::Executed) {
            idle.pause();
        }
    }
}

/// A spinning thread's pause. Every `SPINS_PER_YIELD` pauses it lets the OS
/// run another thread: with more workers than cores (up to 4×, `limits.rs`),
/// a spinner must not keep the thread it waits for off its core.
#[derive(Default)]
struct Idle(u32);

impl Idle {
    fn pause(&mut self) {
        self.0 = self.0.wrapping_add(1);
        if self.0 % SPINS_PER_YIELD == 0 {
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
}

/// `Idle::pause`'s spins per yield to the OS (≈ 2 µs of spinning).
const SPINS_PER_YIELD: u32 = 64;

/// Keeps the pool awake while it lives (`Workers::shift`).
pub(super) struct Shift(Option<Arc<AtomicBool>>);

impl Drop for Shift {
    fn drop(&mut self) {
        if let Some(awake) = &self.0 {
            awake.store(false, Ordering::Release);
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
            job();
            self.0.fetch_sub(1, Ordering::AcqRel);
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

/// `Beside::wait`'s spins after the last job ended (≈ 0.3 µs).
const AFTER_SPINS: usize = 16;

/// Items (enemies or projectiles) from which threads share work: below, a
/// share is shorter than handing it over. The results are the same either
/// way (movement.rs).
const THREADED_FROM: usize = 2048;
