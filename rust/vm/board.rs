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
    /// R-CORE-1, R-VM-3: the root action budget of a main cast (each
    /// `dual_stream` cursor gets it; entries, routes and payloads start at 1).
    pub spells_per_cast: u32,
    /// R-VM-13: spell indices cast with every main cast ahead of the deck
    /// (modifiers and non-summon actions, at most `MAX_ALWAYS_CAST`): free,
    /// no CPU, the cursor unmoved.
    pub always_cast: Vec<u16>,
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
            spells_per_cast: 1,
            always_cast: Vec::new(),
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

/// Most always-cast cards a core may carry (R-VM-13).
pub const MAX_ALWAYS_CAST: usize = 2;

/// Most spells per cast a core may give (content allows fewer).
pub const MAX_SPELLS_PER_CAST: u32 = 16;

/// Most slots a board may have (content allows 256).
pub const MAX_SLOTS: usize = 1024;

/// Slot coordinates stay within ± this (content allows 0..64).
pub const MAX_GRID: u32 = 1 << 20;

impl CoreDef {
    /// What the compiler relies on, checked by the core itself (DESIGN
    /// errors; `artificer.content.board_rules` checks the same first): the
    /// numbers finite and in range, every edge and entry naming a slot, at
    /// most two edges out of a slot, and the board a forest — from each
    /// entry a tree, no slot reached twice (no cycle, no merging routes, no
    /// slot shared by two entries). Slots no entry reaches are allowed (the
    /// compiler reports their cards as unreachable).
    pub fn validate(&self) -> Result<(), String> {
        use crate::sim::limits::{float32, MAX_AMOUNT, MAX_COUNT, MAX_FACTOR, MAX_SECONDS};
        let at = |field: &str| format!("core {:?}: {field}", self.id);
        let number =
            |field: &str, v: f32, hi: f64| float32(&at(field), v, 0.0, hi).map(|_| ()).map_err(|e| e.to_string());
        number("mana_max", self.mana_max, MAX_AMOUNT)?;
        number("mana_regen", self.mana_regen, MAX_AMOUNT)?;
        number("cast_delay", self.cast_delay, MAX_SECONDS)?;
        number("recharge", self.recharge, MAX_SECONDS)?;
        if self.cpu_limit as u64 > MAX_COUNT {
            return Err(format!(
                "{} must be a whole number in 0..={MAX_COUNT}, got {}",
                at("cpu_limit"),
                self.cpu_limit
            ));
        }
        if !(1..=MAX_SPELLS_PER_CAST).contains(&self.spells_per_cast) {
            return Err(format!(
                "{} must be a whole number in 1..={MAX_SPELLS_PER_CAST}, got {}",
                at("spells_per_cast"),
                self.spells_per_cast
            ));
        }
        if self.always_cast.len() > MAX_ALWAYS_CAST {
            return Err(format!(
                "{} holds {} cards, at most {MAX_ALWAYS_CAST}",
                at("always_cast"),
                self.always_cast.len()
            ));
        }
        if let Some((_, cooldown)) = self.dash_wave {
            number("dash_wave.cooldown", cooldown, MAX_SECONDS)?;
        }
        let n = self.slots.len();
        if n == 0 || n > MAX_SLOTS {
            return Err(format!("{} must hold 1..={MAX_SLOTS} slots, got {n}", at("board.slots")));
        }
        for (i, s) in self.slots.iter().enumerate() {
            // Neighbours are found by x ± 1: far from i32's ends.
            if s.x.unsigned_abs() > MAX_GRID || s.y.unsigned_abs() > MAX_GRID {
                return Err(format!(
                    "{}: position ({}, {}) is outside ±{MAX_GRID}",
                    at(&format!("board.slots[{i}]")),
                    s.x,
                    s.y
                ));
            }
            if let Some((_, mult)) = s.bonus {
                number(&format!("board.slots[{i}].bonus.mult"), mult, MAX_FACTOR)?;
            }
            if s.next.len() > 2 {
                return Err(format!(
                    "{}: {} outgoing edges, at most 2 (a splitter point)",
                    at(&format!("board.slots[{i}]")),
                    s.next.len()
                ));
            }
            for &t in &s.next {
                if t >= n {
                    return Err(format!(
                        "{}: an edge to slot {t}, but the board has {n} slots",
                        at(&format!("board.slots[{i}]"))
                    ));
                }
            }
        }
        let entries = [("main", Some(self.main)), ("on_kill", self.on_kill), ("on_hit", self.on_hit)];
        let mut seen = vec![false; n];
        for (name, entry) in entries {
            let Some(start) = entry else { continue };
            if start >= n {
                return Err(format!(
                    "{}: slot {start}, but the board has {n} slots",
                    at(&format!("board.entries.{name}"))
                ));
            }
            // Depth-first from the entry: a slot seen twice closes a cycle or
            // merges two routes (or two entries).
            let mut stack = vec![start];
            while let Some(s) = stack.pop() {
                if seen[s] {
                    return Err(format!(
                        "{}: slot {s} is reached twice from the entries (a cycle or merging routes); a board is a tree per entry",
                        at("board.edges")
                    ));
                }
                seen[s] = true;
                stack.extend(self.slots[s].next.iter().rev());
            }
        }
        Ok(())
    }
}
