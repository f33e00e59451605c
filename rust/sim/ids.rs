//! Generational ids over dense, swap-removed pools.
//!
//! A pool keeps its live entities packed in `0..len` (the dense index, what
//! the systems iterate); an `Id` names one entity for as long as it lives,
//! however often swap-removal moves it. A slot reused by a new entity gets a
//! new generation, so a stale id (say, in a projectile's memory of whom it
//! already hit) never matches the newcomer.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Id {
    pub slot: u32,
    pub generation: u32,
}

impl Id {
    /// Never handed out: marks an empty entry in id arrays.
    pub const NONE: Id = Id { slot: u32::MAX, generation: 0 };

    pub fn to_bits(self) -> u64 {
        ((self.generation as u64) << 32) | self.slot as u64
    }
}

#[derive(Clone, Debug, Default)]
pub struct IdMap {
    /// Per slot: its current generation, and where its entity sits (dense).
    generation: Vec<u32>,
    dense_of: Vec<u32>,
    free: Vec<u32>,
    /// Per dense index: the entity's id.
    ids: Vec<Id>,
}

impl IdMap {
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    pub fn ids(&self) -> &[Id] {
        &self.ids
    }

    /// A fresh id for an entity about to be pushed at dense index `len()`.
    pub fn push(&mut self) -> Id {
        let dense = self.ids.len() as u32;
        let id = match self.free.pop() {
            Some(slot) => {
                let s = slot as usize;
                self.generation[s] = self.generation[s].wrapping_add(1);
                self.dense_of[s] = dense;
                Id { slot, generation: self.generation[s] }
            }
            None => {
                let slot = self.generation.len() as u32;
                self.generation.push(0);
                self.dense_of.push(dense);
                Id { slot, generation: 0 }
            }
        };
        self.ids.push(id);
        id
    }

    /// Mirrors `Vec::swap_remove(dense)` on the pool's columns.
    pub fn swap_remove(&mut self, dense: usize) {
        let gone = self.ids.swap_remove(dense);
        self.free.push(gone.slot);
        if dense < self.ids.len() {
            let moved = self.ids[dense];
            self.dense_of[moved.slot as usize] = dense as u32;
        }
    }

    /// Where the entity `id` sits now, if it is still alive.
    pub fn dense(&self, id: Id) -> Option<usize> {
        let s = id.slot as usize;
        if s < self.generation.len() && self.generation[s] == id.generation {
            let d = self.dense_of[s] as usize;
            (d < self.ids.len() && self.ids[d] == id).then_some(d)
        } else {
            None
        }
    }

    /// Mirrors a pool's `permute`: dense row `k` takes the entity that was
    /// at `order[k]` (`order` a permutation of `0..len()`); every id stays
    /// valid and now finds its entity's new row. `spare`'s id list lends its
    /// capacity for the gather (scratch, its contents meaningless after).
    pub fn permute(&mut self, order: &[u32], spare: &mut IdMap) {
        debug_assert_eq!(order.len(), self.ids.len());
        crate::sim::pools::gather(&mut self.ids, &mut spare.ids, order);
        for (dense, id) in self.ids.iter().enumerate() {
            self.dense_of[id.slot as usize] = dense as u32;
        }
    }

    pub fn clear(&mut self) {
        while !self.ids.is_empty() {
            self.swap_remove(self.ids.len() - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swap_remove_keeps_ids_valid_and_stale_ids_dead() {
        let mut m = IdMap::default();
        let a = m.push();
        let b = m.push();
        let c = m.push();
        m.swap_remove(0); // c moves to 0
        assert_eq!(m.dense(a), None);
        assert_eq!(m.dense(c), Some(0));
        assert_eq!(m.dense(b), Some(1));
        let d = m.push(); // reuses a's slot with a new generation
        assert_eq!(d.slot, a.slot);
        assert_ne!(d, a);
        assert_eq!(m.dense(a), None);
        assert_eq!(m.dense(d), Some(2));
    }

    #[test]
    fn permute_moves_every_id_with_its_row() {
        let mut m = IdMap::default();
        let ids: Vec<Id> = (0..5).map(|_| m.push()).collect();
        m.swap_remove(1); // 4 moves to 1: rows a e c d
        let before: Vec<Id> = m.ids().to_vec();
        let order = [3, 0, 2, 1];
        m.permute(&order, &mut IdMap::default());
        for (k, &from) in order.iter().enumerate() {
            assert_eq!(m.ids()[k], before[from as usize]);
            assert_eq!(m.dense(before[from as usize]), Some(k));
        }
        assert_eq!(m.dense(ids[1]), None, "a removed id stays dead");
        let e = m.push(); // reuses the freed slot, after every permuted row
        assert_eq!(e.slot, ids[1].slot);
        assert_eq!(m.dense(e), Some(4));
    }
}
