//! What a step tells game flow: a flat list of events, each carrying its
//! own data (Event Queue). Python decodes them by `kind`; the numbering is
//! part of the frame contract (exported as `_core.EVENT_KINDS` and
//! `_core.REACTIONS` and `_core.BOSS_PATTERNS`, from which `artificer.engine.events` builds its enums).

use super::contract::{named_enum, EVENT_FIELDS};

named_enum! {
    /// What happened (an event row's `kind`); `a`, `b`, `x`, `y`, `value` per kind.
    pub enum EventKind: u8 {
        /// a = enemy kind, b = 1 if elite, value = reward; x, y = where.
        EnemyKilled = 1 => "ENEMY_KILLED",
        /// a = attacker enemy kind (-1: a projectile), b = ward absorbed,
        /// value = HP lost; x, y = the player.
        PlayerDamaged = 2 => "PLAYER_DAMAGED",
        /// value = currency; x, y = where it was picked.
        CurrencyPicked = 3 => "CURRENCY_PICKED",
        /// a = look (spell), b = owner (0 player, 1 enemy); x, y = muzzle.
        ProjectileFired = 4 => "PROJECTILE_FIRED",
        /// The player's HP reached 0; x, y = where.
        PlayerDied = 5 => "PLAYER_DIED",
        /// x, y = dash start; a, b = direction.
        Dashed = 6 => "DASHED",
        /// a = enemy kind, b = 1 if elite; x, y = where.
        EnemySpawned = 7 => "ENEMY_SPAWNED",
        /// A cast of the player's program fired; value = things emitted.
        CastFired = 8 => "CAST_FIRED",
        /// R-MANA-3/6: a payment failed; a = node index.
        CastAbandoned = 9 => "CAST_ABANDONED",
        /// R-VM-8: a cast hit its step budget.
        CpuExhausted = 10 => "CPU_EXHAUSTED",
        /// A trigger's payload ran; a = carrier look, b = things emitted; x, y = where.
        TriggerFired = 11 => "TRIGGER_FIRED",
        /// R-VM-5: a = look; x, y = where.
        SummonSpawned = 12 => "SUMMON_SPAWNED",
        /// R-RES-1/2: a fused recipe went into a fight (once per fusion per
        /// wand, at its first cast); a = recipe index in resonance_recipes.json.
        ResonanceFused = 13 => "RESONANCE_FUSED",
        /// The lab's trace (off by default): a = node, b = mana before, value = mana after.
        Trace = 14 => "TRACE",
        /// An explosion or blast: a = element, b = radius, value = damage; x, y = centre.
        Exploded = 15 => "EXPLODED",
        /// R-MOVE-3 charge ring: a = 0 gone, 1 charging (ring shows), 2 full,
        /// 3 released; value = seconds still so far.
        ChargeStateChanged = 16 => "CHARGE_STATE_CHANGED",
        /// Damage numbers (only with the `hit_events` rule): the frame's biggest
        /// hits, at most `sim.hit_events_per_frame`, biggest first; a = enemy
        /// kind, b = 1 for a killing blow, value = damage dealt; x, y = the enemy.
        EnemyHit = 17 => "ENEMY_HIT",
        /// R-DMG-2 element reaction on an enemy: a = reaction (`Reaction`),
        /// b = enemy kind, value = damage of the hit (0 if none); x, y = the enemy.
        ElementReaction = 18 => "ELEMENT_REACTION",
        /// R-END-1 Last Will spared the player a lethal hit (and is spent):
        /// a = attacker enemy kind (-1: a projectile), value = HP left (1, or
        /// less if it was below 1); x, y = the player. Follows the hit's
        /// `PlayerDamaged`.
        LastWill = 19 => "LAST_WILL",
        /// R-REL-1 a relic rule acted (HUD flash): a = which (`relics::RelicRule`),
        /// b, x, y and value as the rule says there. At most one a frame for
        /// the_boot (value = hits lifted).
        Relic = 20 => "RELIC",
        /// R-BOSS-1 a boss entered a phase: a = the phase's number, b = its kind,
        /// value = its HP share then; x, y = the boss. One per phase entered
        /// (a big hit crossing two gives two); its Last Will phase too.
        BossPhase = 21 => "BOSS_PHASE",
        /// R-BOSS-2 a hit of the weak element stripped an armor plate: a = plates
        /// left, b = the boss's kind; x, y = the boss.
        BossPlate = 22 => "BOSS_PLATE",
        /// R-BOSS-2 the fight lasted `enrage_after`: the boss hyper-enrages;
        /// b = its kind, value = seconds fought; x, y = the boss.
        BossEnraged = 23 => "BOSS_ENRAGED",
        /// R-BOSS-3 a boss winds up a volley, which fires its `telegraph` seconds later from
        /// x, y along the lines locked now: a = the pattern (`BossPattern`), b = its kind,
        /// value = the volley's angle in radians (a barrage's aim at the player, the centre of
        /// its fan; a ring's first shot); x, y = the boss, where the shots will come from.
        BossTelegraph = 24 => "BOSS_TELEGRAPH",
    }
}

named_enum! {
    /// What a `BossTelegraph` event's `a` names: the volley wound up (R-BOSS-1/3).
    pub enum BossPattern: u8 {
        /// A ring of shots, each volley turned half a gap.
        Spread = 1 => "SPREAD",
        /// A fan of shots aimed at the player (the aim locked at the wind-up).
        Barrage = 2 => "BARRAGE",
        /// The full-screen burst: a dense ring.
        Burst = 3 => "BURST",
    }
}

named_enum! {
    /// What an `ElementReaction` event's `a` names (R-DMG-2).
    pub enum Reaction: u8 {
        /// Lightning on a wet target: ×1.5 damage.
        Electrified = 1 => "ELECTRIFIED",
        /// Fire on a wet target: the wet is gone.
        Dried = 2 => "DRIED",
    }
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

    /// The row written into the events buffer (`contract::EVENT_FIELDS`): kind, a, b, x, y, value.
    pub fn row(&self) -> [f64; EVENT_FIELDS.len()] {
        [self.kind as u8 as f64, self.a as f64, self.b as f64, self.x as f64, self.y as f64, self.value as f64]
    }
}
