//! Work handed out as tasks: a pass split into pieces that threads may run
//! in any order (`world::Workers::run`), each writing only its own part, so
//! the result is the same on any thread count (R-DET-1).

/// A pass's pieces, each to run once.
pub type Tasks<'a> = [&'a mut (dyn FnMut() + Send + 'a)];

/// Runs every task on this thread, in order.
pub fn in_order(tasks: &mut Tasks) {
    tasks.iter_mut().for_each(|task| task());
}

/// A task for as long as it is borrowed: tasks from two lists (say two
/// pools' columns) then make one queue.
pub fn shorter<'a>(task: &'a mut &mut (dyn FnMut() + Send)) -> &'a mut (dyn FnMut() + Send + 'a) {
    &mut **task
}
