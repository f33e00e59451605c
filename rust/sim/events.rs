//! What a step tells game flow: a flat list of events, each carrying its
//! own data (Event Queue). Python decodes them by `kind`; the numbering is
//! part of the frame contract (mirrored in `artificer.engine.events`).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum EventKind {
    /// a = enemy kind, b = 1 if elite, value = reward; x, y = where.
    EnemyKilled = 1,
    /// a = attacker enemy kind (-1: a projectile), b = ward absorbed,
    /// value = HP lost; x, y = the player.
    PlayerDamaged = 2,
    /// value = currency; x, y = where it was picked.
    CurrencyPicked = 3,
    /// a = look (spell), b = owner (0 player, 1 enemy); x, y = muzzle.
    ProjectileFired = 4,
    /// The player's HP reached 0; x, y = where.
    PlayerDied = 5,
    /// x, y = dash start; a, b = direction.
    Dashed = 6,
    /// a = enemy kind, b = 1 if elite; x, y = where.
    EnemySpawned = 7,
    /// A cast of the player's program fired; value = things emitted.
    CastFired = 8,
    /// R-MANA-3/6: a payment failed; a = node index.
    CastAbandoned = 9,
    /// R-VM-8: a cast hit its step budget.
    CpuExhausted = 10,
    /// A trigger's payload ran; a = carrier look, b = things emitted; x, y = where.
    TriggerFired = 11,
    /// R-VM-5: a = look; x, y = where.
    SummonSpawned = 12,
    /// R-RES-1/2: a fused recipe went into a fight (once per fusion per
    /// wand, at its first cast); a = recipe index in resonance_recipes.json.
    ResonanceFused = 13,
    /// The lab's trace (off by default): a = node, b = mana before, value = mana after.
    Trace = 14,
    /// An explosion or blast: a = element, b = radius, value = damage; x, y = centre.
    Exploded = 15,
    /// R-MOVE-3 charge ring: a = 0 gone, 1 charging (ring shows), 2 full,
    /// 3 released; value = seconds still so far.
    ChargeStateChanged = 16,
    /// Damage numbers (only with the `hit_events` rule): the frame's biggest
    /// hits, at most `sim.hit_events_per_frame`, biggest first; a = enemy
    /// kind, b = 1 for a killing blow, value = damage dealt; x, y = the enemy.
    EnemyHit = 17,
    /// R-DMG-2 element reaction on an enemy: a = reaction (`Reaction`),
    /// b = enemy kind, value = damage of the hit (0 if none); x, y = the enemy.
    ElementReaction = 18,
    /// R-END-1 Last Will spared the player a lethal hit (and is spent):
    /// a = attacker enemy kind (-1: a projectile), value = HP left (1, or
    /// less if it was below 1); x, y = the player. Follows the hit's
    /// `PlayerDamaged`.
    LastWill = 19,
    /// R-REL-1 a relic rule acted (HUD flash): a = which (`relics::RelicRule`),
    /// b, x, y and value as the rule says there. At most one a frame for
    /// the_boot (value = hits lifted).
    Relic = 20,
}

/// What an `ElementReaction` event's `a` names (R-DMG-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Reaction {
    /// Lightning on a wet target: ×1.5 damage.
    Electrified = 1,
    /// Fire on a wet target: the wet is gone.
    Dried = 2,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Event {
    pub kind: EventKind,
    pub a: f32,
    pub b: f32,
    pub x: f32,
    pub y: f32,
    pub value: f32,
}

impl Event {
    pub fn new(kind: EventKind, a: f32, b: f32, x: f32, y: f32, value: f32) -> Self {
        Event { kind, a, b, x, y, value }
    }

    /// The row written into the events buffer: kind, a, b, x, y, value.
    pub fn row(&self) -> [f64; 6] {
        [self.kind as u8 as f64, self.a as f64, self.b as f64, self.x as f64, self.y as f64, self.value as f64]
    }
}
