//! Struct-of-arrays pools: one column per field, live entities packed in
//! `0..len`, removal by swap-remove (`compact`), ids from `IdMap`.
//! Columns keep their capacity, so a steady-state frame allocates nothing.
//! Each pool is one `pool!` declaration in its own file; what a pool has
//! beyond its columns (a projectile's hit memory) sits beside it.

use crate::sim::config::Element;
use crate::sim::ids::Id;
use crate::sim::scan::{any_where, runs, FLAG_RUN};
use crate::vm::program::Span;

/// Declares a pool from one list of its columns (issue 18; STYLE.md item 7,
/// hecs-style struct-of-arrays).
///
/// Why: each column used to be written out five times — the struct, `push`,
/// `swap_remove`, `clear` and `World::state_hash` — and a column missed in
/// one of them (say, a `swap_remove` that forgets it) silently misaligns
/// every row after the first removal. Here a column is one entry, so adding
/// one is one line: its doc, name and type, what a new row holds (`= expr`,
/// over `push`'s arguments) and how the state hash takes it (`hash(…)`).
///
/// From the list come the struct (a plain `pub Vec` per column, in the
/// order declared) and `len`, `is_empty`, `push`, `swap_remove`, `compact`,
/// `permute`, `permute_with`, `clear` and `hash_into`: one `Vec` call per column, what was written by hand
/// before — no per-row indirection, nothing dynamic. Measured when it came
/// in (`step_1t/crowd/10000/20000`, medians over runs on a noisy 2-core box):
/// 4.70 and 5.19 ms hand-written, 4.71, 5.18 and 4.69 ms generated; `compact`'s
/// assembly the same length, `push`'s within a few instructions.
///
/// A declaration, in this order:
/// - `hash section "name";`: the label the pool's part of the state hash starts with.
/// - `ids: IdMap, hash(slots[, generations] | no);` (optional): the pool hands
///   out generational ids, `push` returns the new row's `Id`.
/// - `compact: dead;` (rows flagged in the `dead: bool` column leave) or
///   `compact: expired(life);` (rows whose `life` ran out, ≤ 0, leave).
/// - `fn push(arg: Type, …) [-> Id];`: `push`'s arguments, read by the columns' `= expr`.
/// - the columns, `name: Type = expr, hash(encoding);`, in the state hash's
///   order. An encoding (`pool_part!`) is `f32s`, `u32s` (each `as u32`),
///   `low_u32s` (a u64's low half), `packed(other << n)` (this column and
///   `other` as one u32 list, `this | other << n`) or `with(f)` (`f(h, &column)`),
///   each maybe after `section "name",`; or `no`: not hashed, and the column's
///   doc says why (presentation only, fixed at spawn, hashed packed or elsewhere).
///
/// A hashed column's place and encoding are part of every recorded state
/// hash (R-DET-1): moving one changes them all, which the goldens catch.
macro_rules! pool {
    (
        $(#[$attr:meta])*
        pub struct $pool:ident {
            hash section $section:literal;
            $(ids: $ids:ty, hash($($ids_hash:tt)*);)?
            compact: $removed:ident $(($removed_col:ident))?;
            $(#[$push_attr:meta])*
            fn push($($arg:ident: $arg_ty:ty),* $(,)?) $(-> $ret:ty)?;
            $(
                $(#[$col_attr:meta])*
                $col:ident: $ty:ty = $fill:expr, hash($($hash:tt)*);
            )+
        }
    ) => {
        $(#[$attr])*
        #[derive(Clone, Debug, Default)]
        pub struct $pool {
            $(pub ids: $ids,)?
            $($(#[$col_attr])* pub $col: Vec<$ty>,)+
        }

        impl $pool {
            /// Rows alive (every column has this length).
            pub fn len(&self) -> usize {
                pool_part!(len self; $($col),+)
            }

            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }

            /// Adds a row, each column filled as declared; a pool with ids hands
            /// out the row's id last (`IdMap::push` reads only its own length).
            $(#[$push_attr])*
            pub fn push(&mut self, $($arg: $arg_ty),*) $(-> $ret)? {
                $(self.$col.push($fill);)+
                $(<$ids>::push(&mut self.ids))?
            }

            /// Moves the last row into row `i`, every column and the ids alike.
            fn swap_remove(&mut self, i: usize) {
                $(<$ids>::swap_remove(&mut self.ids, i);)?
                $(self.$col.swap_remove(i);)+
            }

            /// Removes the dead (or expired), in a deterministic order, starting
            /// at the first (one scan, `first_dead` or the expired column's
            /// `position`: most frames remove nothing).
            pub fn compact(&mut self) {
                let Some(mut i) = pool_part!(first_removed self, $removed $(($removed_col))?) else {
                    return;
                };
                while i < self.len() {
                    if pool_part!(removed self, i, $removed $(($removed_col))?) {
                        self.swap_remove(i);
                    } else {
                        i += 1;
                    }
                }
            }

            /// Reorders the rows: row `k` becomes the row that was at `order[k]`
            /// (`order` a permutation of `0..len()`), every column and the ids
            /// alike. `spare` (a pool of the same kind, scratch: its contents
            /// mean nothing before or after) lends its columns' capacity: each
            /// column is gathered into the spare's and the two swap, so a
            /// steady state allocates nothing.
            pub fn permute(&mut self, order: &[u32], spare: &mut Self) {
                self.permute_with(order, spare, $crate::sim::tasks::in_order)
            }

            /// `permute`, each column's gather handed to `run` as a task, for
            /// threads to share (with other pools' columns: `Workers::share`);
            /// the ids on this thread. The same rows whatever thread gathers
            /// what, and in whatever order.
            pub fn permute_with<R>(
                &mut self,
                order: &[u32],
                spare: &mut Self,
                run: impl FnOnce(&mut $crate::sim::tasks::Tasks) -> R,
            ) -> R {
                debug_assert!($crate::sim::pools::is_permutation(order, self.len()));
                $(<$ids>::permute(&mut self.ids, order, &mut spare.ids);)?
                let mut columns = [$(
                    &mut (|| $crate::sim::pools::gather(&mut self.$col, &mut spare.$col, order))
                        as &mut (dyn FnMut() + Send)
                ),+];
                run(&mut columns)
            }

            /// Empties the pool, keeping every column's capacity.
            pub fn clear(&mut self) {
                $(<$ids>::clear(&mut self.ids);)?
                $(self.$col.clear();)+
            }

            /// This pool's part of the state hash (R-DET-1, `World::state_hash`):
            /// its section, then its ids and columns as declared.
            pub fn hash_into(&self, h: &mut $crate::sim::hash::StateHasher) {
                h.section($section);
                $(pool_part!(hash_ids h, self, $($ids_hash)*);)?
                $(pool_part!(hash h, self, $col, $($hash)*);)+
            }
        }
    };
}

/// The pieces of `pool!` that depend on a declaration's choices: how
/// `compact` finds the rows to remove, and each hash encoding.
macro_rules! pool_part {
    (len $pool:ident; $first:ident $(, $rest:ident)*) => {
        $pool.$first.len()
    };
    (first_removed $pool:ident, dead) => {
        $crate::sim::pools::first_dead(&$pool.dead)
    };
    (first_removed $pool:ident, expired($col:ident)) => {
        $pool.$col.iter().position(|&left| left <= 0.0)
    };
    (removed $pool:ident, $i:ident, dead) => {
        $pool.dead[$i]
    };
    (removed $pool:ident, $i:ident, expired($col:ident)) => {
        $pool.$col[$i] <= 0.0
    };
    (hash_ids $h:ident, $pool:ident, slots) => {
        $h.u32s($pool.ids.ids().iter().map(|id| id.slot))
    };
    (hash_ids $h:ident, $pool:ident, slots, generations) => {{
        $h.u32s($pool.ids.ids().iter().map(|id| id.slot));
        $h.u32s($pool.ids.ids().iter().map(|id| id.generation));
    }};
    (hash_ids $h:ident, $pool:ident, no) => {};
    (hash $h:ident, $pool:ident, $col:ident, section $name:literal, $($encoding:tt)+) => {{
        $h.section($name);
        pool_part!(hash $h, $pool, $col, $($encoding)+);
    }};
    (hash $h:ident, $pool:ident, $col:ident, f32s) => {
        $h.f32s(&$pool.$col)
    };
    (hash $h:ident, $pool:ident, $col:ident, u32s) => {
        $h.u32s($pool.$col.iter().map(|&v| v as u32))
    };
    (hash $h:ident, $pool:ident, $col:ident, low_u32s) => {
        pool_part!(hash $h, $pool, $col, u32s)
    };
    (hash $h:ident, $pool:ident, $col:ident, packed($other:ident << $shift:literal)) => {
        $h.u32s($pool.$col.iter().zip(&$pool.$other).map(|(&this, &other)| this as u32 | (other as u32) << $shift))
    };
    (hash $h:ident, $pool:ident, $col:ident, with($f:path)) => {
        $f($h, &$pool.$col)
    };
    (hash $h:ident, $pool:ident, $col:ident, no) => {};
}

/// One column of `permute`: `column[k]` becomes what was at `order[k]`,
/// gathered into `spare`'s capacity, and the two swap. A column that holds
/// one value in every row, to the bit, is left as it is (the permutation
/// changes nothing): most shots' behaviours are plain, and their hit
/// memories empty where there is none; the projectiles' `behaviour` is 68
/// bytes a row. One read of such a column costs a third of its gather
/// (random reads and a write); any other stops at the first row that differs.
pub(crate) fn gather<T: Clone + SameBits>(column: &mut Vec<T>, spare: &mut Vec<T>, order: &[u32]) {
    if column.iter().all(|v| v.same_bits(&column[0])) {
        return;
    }
    spare.clear();
    spare.extend(order.iter().map(|&i| column[i as usize].clone()));
    std::mem::swap(column, spare);
    spare.clear(); // the old column: its capacity kept, its rows not (a world's clone copies no stale rows)
}

/// Whether two values are the same to the bit, which `gather`'s test of a
/// uniform column must ask: a float's `==` is not (`0.0 == -0.0`, and
/// leaving a −0.0 where the order puts a 0.0 would change the state hash).
pub(crate) trait SameBits {
    fn same_bits(&self, other: &Self) -> bool;
}

/// `SameBits` as `==`, for types whose `==` compares every bit.
macro_rules! same_bits_by_eq {
    ($($t:ty),+) => {
        $(impl SameBits for $t {
            #[inline(always)]
            fn same_bits(&self, other: &Self) -> bool {
                self == other
            }
        })+
    };
}

same_bits_by_eq!(bool, u8, u16, u32, u64, Element, Owner, Span, Id, [Id; HIT_MEMORY]);

impl SameBits for f32 {
    #[inline(always)]
    fn same_bits(&self, other: &Self) -> bool {
        self.to_bits() == other.to_bits()
    }
}

/// Behaviours count as the same only when both are plain to the bit (the
/// case that matters: a pool of plain shots); any others are gathered.
impl SameBits for Behaviour {
    fn same_bits(&self, other: &Self) -> bool {
        self.plain_to_the_bit() && other.plain_to_the_bit()
    }
}

/// Whether `order` holds each of `0..n` once (`permute`'s precondition,
/// checked in debug builds).
pub(crate) fn is_permutation(order: &[u32], n: usize) -> bool {
    let mut seen = vec![false; n];
    order.len() == n && order.iter().all(|&i| (i as usize) < n && !std::mem::replace(&mut seen[i as usize], true))
}

/// Where `compact` has work to start, if anywhere. Most frames kill
/// nothing: one scan of the flags instead of the element-by-element
/// swap-remove walk, `FLAG_RUN` at a time; only a run with one is walked.
fn first_dead(dead: &[bool]) -> Option<usize> {
    let run = runs(dead.len(), FLAG_RUN).find(|run| any_where(&dead[run.clone()], |&d| d))?;
    dead[run.clone()].iter().position(|&d| d).map(|k| run.start + k)
}

mod enemies;
mod pickups;
mod projectiles;
mod summons;
mod zones;

pub use enemies::{Enemies, NewEnemy};
pub use pickups::Pickups;
pub use projectiles::{Behaviour, NewProjectile, Orbiting, Owner, Payload, Projectiles, HIT_MEMORY};
pub use summons::Summons;
pub use zones::Zones;

/// Every entity of the world, one pool per kind (the world's `pools` part).
#[derive(Clone, Debug, Default)]
pub struct Pools {
    pub enemies: Enemies,
    /// The player's shots and the enemies' alike (`Owner`).
    pub projectiles: Projectiles,
    /// Currency on the ground.
    pub pickups: Pickups,
    /// R-VM-10 zones: pull, damage over time, healing.
    pub zones: Zones,
    /// R-VM-5 summons, each casting its own deck.
    pub summons: Summons,
    /// Whether any shot may remember an enemy: set by the first `remember`.
    /// Until then every shot's `memory` is empty, and a pass that would
    /// empty it can skip it (the stress workload's, which keeps no hit
    /// memory: at 2M shots the column is 64 MB).
    shots_remember: bool,
}

impl Pools {
    /// Projectile `shot` remembers `enemy` as struck, forgetting the oldest.
    #[inline]
    pub fn remember(&mut self, shot: usize, enemy: Id) {
        self.shots_remember = true;
        self.projectiles.remember(shot, enemy);
    }

    /// Whether any shot's `memory` may hold an enemy (false: every one is empty).
    pub fn shots_remember(&self) -> bool {
        self.shots_remember
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::config::Element;
    use crate::sim::hash::StateHasher;
    use crate::sim::ids::Id;

    fn enemy(hp: f32) -> NewEnemy {
        NewEnemy { x: hp, y: 0.0, radius: 8.0, speed: 1.0, hp, kind: 0, elite: false, cooldown: 0.0, offspring: false }
    }

    fn digest(e: &Enemies) -> u64 {
        let mut h = StateHasher::new();
        e.hash_into(&mut h);
        h.finish()
    }

    /// `first_dead` finds the first flag set, on either side of its chunks'
    /// edges, in a last short chunk, or none.
    #[test]
    fn first_dead_is_the_first_flag_set() {
        for len in [0, 1, 63, 64, 65, 200] {
            assert_eq!(first_dead(&vec![false; len]), None, "none of {len}");
            for first in [0, 1, 62, 63, 64, 65, 127, 128, 199] {
                if first < len {
                    let mut dead = vec![false; len];
                    dead[first] = true;
                    dead[len - 1] = true;
                    assert_eq!(first_dead(&dead), Some(first), "{first} of {len}");
                }
            }
        }
    }

    #[test]
    fn compact_moves_every_column_and_the_ids_alike() {
        let mut e = Enemies::default();
        let ids: Vec<Id> = (0..4).map(|i| e.push(enemy(i as f32))).collect();
        e.dead[1] = true;
        e.compact();
        assert_eq!(e.len(), 3);
        assert_eq!(e.x, [0.0, 3.0, 2.0]);
        assert_eq!(e.hp_max, [0.0, 3.0, 2.0]);
        assert_eq!(e.hit_frame.len(), 3);
        assert_eq!(e.ids.dense(ids[1]), None);
        assert_eq!(e.ids.dense(ids[3]), Some(1));
        assert!(!e.dead.contains(&true));
        e.clear();
        assert!(e.is_empty() && e.burn.is_empty() && e.ids.is_empty());
    }

    #[test]
    fn permute_moves_every_column_and_the_ids_alike() {
        let mut e = Enemies::default();
        let ids: Vec<Id> = (0..4).map(|i| e.push(enemy(i as f32))).collect();
        e.burn[2] = 7.0;
        e.dead[3] = true;
        let mut spare = Enemies::default();
        e.permute(&[2, 0, 3, 1], &mut spare);
        assert_eq!(e.x, [2.0, 0.0, 3.0, 1.0]);
        assert_eq!(e.hp_max, [2.0, 0.0, 3.0, 1.0]);
        assert_eq!(e.burn, [7.0, 0.0, 0.0, 0.0]);
        assert_eq!(e.dead, [false, false, true, false]);
        for (row, from) in [2, 0, 3, 1].into_iter().enumerate() {
            assert_eq!(e.ids.dense(ids[from]), Some(row));
        }
        e.permute(&[1, 3, 0, 2], &mut spare); // the spare's scratch from the first does not leak in
        assert!(
            !is_permutation(&[0, 0, 1, 2], 4) && !is_permutation(&[0, 1, 2], 4) && !is_permutation(&[0, 1, 2, 4], 4)
        );
        assert_eq!(e.x, [0.0, 1.0, 2.0, 3.0]);
        e.compact();
        assert_eq!(e.x, [0.0, 1.0, 2.0], "the dead row (3) left");
    }

    /// R-DET-1: the reorder gives the same rows on any thread count.
    #[test]
    fn permute_with_tasks_in_any_order_is_permute() {
        let mut serial = Enemies::default();
        for i in 0..300 {
            serial.push(enemy(i as f32));
            serial.burn[i] = (i % 7) as f32;
        }
        let mut shared = serial.clone();
        let order: Vec<u32> = (0..300u32).map(|k| (k * 7 + 3) % 300).collect();
        serial.permute(&order, &mut Enemies::default());
        // The columns' tasks run last to first, as no thread would.
        shared.permute_with(&order, &mut Enemies::default(), |columns| columns.iter_mut().rev().for_each(|c| c()));
        assert_eq!((&shared.x, &shared.burn, shared.ids.ids()), (&serial.x, &serial.burn, serial.ids.ids()));
        assert_eq!(digest(&shared), digest(&serial));
    }

    /// R-DET-1: a column is reordered to the bit. One of 0.0 and −0.0 (equal
    /// by `==`, not by their bits) is not taken for a column of one value,
    /// which the reorder leaves as it is.
    #[test]
    fn permute_moves_a_zero_and_a_negative_zero_to_their_rows() {
        let mut e = Enemies::default();
        for i in 0..4 {
            e.push(enemy(i as f32));
            e.burn[i] = if i % 2 == 0 { 0.0 } else { -0.0 };
        }
        let before: Vec<u32> = e.burn.iter().map(|b| b.to_bits()).collect();
        let order = [1u32, 0, 3, 2];
        e.permute(&order, &mut Enemies::default());
        let after: Vec<u32> = e.burn.iter().map(|b| b.to_bits()).collect();
        assert_eq!(after, order.iter().map(|&i| before[i as usize]).collect::<Vec<_>>());
        assert_eq!(e.y, [0.0; 4], "a column of one value stays as it was");
    }

    #[test]
    fn zones_and_summons_leave_when_their_life_runs_out() {
        let mut z = Zones::default();
        for life in [1.0, 0.0, 2.0] {
            z.push(0.0, 0.0, 10.0, life, 0.0, 0.0, 1.0, Element::Fire, 0);
        }
        z.compact();
        assert_eq!(z.life, [1.0, 2.0]);
        assert_eq!(z.status_in.len(), 2);
        let mut s = Summons::default();
        let program = crate::vm::program::Span { start: 3, end: 5 };
        s.push(0.0, 0.0, 0.0, 1.0, program, 0.5, 0);
        assert_eq!(s.cursor, [3]);
        s.compact();
        assert!(s.is_empty() && s.program.is_empty());
    }

    #[test]
    fn the_hash_reads_the_hashed_columns_only() {
        let mut e = Enemies::default();
        e.push(enemy(5.0));
        let before = digest(&e);
        e.hit_frame[0] = 9;
        assert_eq!(digest(&e), before, "hit_frame is presentation only");
        e.offspring[0] = true;
        assert_ne!(digest(&e), before, "offspring is hashed packed with elite");
    }
}
