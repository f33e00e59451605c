//! Cores and their boards (R-CORE-1, R-BOARD-1/2): slots on a 2D grid
//! joined by directed edges; each entry's program order is the path from
//! its entry slot.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    Right,
    Left,
    Up,
    Down,
}

impl Dir {
    pub fn from_name(name: &str) -> Option<Dir> {
        Some(match name {
            "right" => Dir::Right,
            "left" => Dir::Left,
            "up" => Dir::Up,
            "down" => Dir::Down,
            _ => return None,
        })
    }

    /// Grid step; y grows downward (screen convention).
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::Right => (1, 0),
            Dir::Left => (-1, 0),
            Dir::Up => (0, -1),
            Dir::Down => (0, 1),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Slot {
    pub x: i32,
    pub y: i32,
    /// R-BOARD-2: the card in the neighbouring slot toward `dir` gets ×mult.
    pub bonus: Option<(Dir, f32)>,
    /// Outgoing edges (slot indices): 0, 1, or 2 (a splitter point: upper
    /// route first, then lower).
    pub next: Vec<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    Main,
    OnKill,
    OnHit,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Flags {
    pub dual_stream: bool,
    pub persistent_memory: bool,
    pub matrix_board: bool,
    pub infinite_spells: bool,
    pub debug_core: bool,
    /// R-VM-3b: every cast restarts at the head (the logic core).
    pub program: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CoreDef {
    pub id: String,
    pub mana_max: f32,
    pub mana_regen: f32,
    pub cast_delay: f32,
    pub recharge: f32,
    pub cpu_limit: u32,
    pub flags: Flags,
    pub slots: Vec<Slot>,
    pub main: usize,
    pub on_kill: Option<usize>,
    pub on_hit: Option<usize>,
    /// R-MOVE-2: (spell index, cooldown s) cast along the dash trail.
    pub dash_wave: Option<(u16, f32)>,
}

impl CoreDef {
    /// A plain core: `n` slots in a row, joined left to right.
    pub fn row(id: &str, n: usize, mana_max: f32, mana_regen: f32, cast_delay: f32, cpu_limit: u32) -> CoreDef {
        let slots = (0..n)
            .map(|i| Slot { x: i as i32, y: 0, bonus: None, next: if i + 1 < n { vec![i + 1] } else { vec![] } })
            .collect();
        CoreDef {
            id: id.into(),
            mana_max,
            mana_regen,
            cast_delay,
            recharge: 0.0,
            cpu_limit,
            flags: Flags::default(),
            slots,
            main: 0,
            on_kill: None,
            on_hit: None,
            dash_wave: None,
        }
    }

    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    pub fn entry(&self, entry: Entry) -> Option<usize> {
        match entry {
            Entry::Main => Some(self.main),
            Entry::OnKill => self.on_kill,
            Entry::OnHit => self.on_hit,
        }
    }

    /// The multiplier R-BOARD-2 gives the card in `slot`: the product of
    /// the bonuses of neighbours that point at it.
    pub fn bonus_for(&self, slot: usize) -> f32 {
        let (x, y) = (self.slots[slot].x, self.slots[slot].y);
        let mut mult = 1.0;
        for s in &self.slots {
            if let Some((dir, m)) = s.bonus {
                let (dx, dy) = dir.delta();
                if s.x + dx == x && s.y + dy == y {
                    mult *= m;
                }
            }
        }
        mult
    }
}
