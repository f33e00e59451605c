//! The spell catalog as the VM sees it (Type Object): one `SpellDef` per
//! card of `data/spells.json`, indexed by its place in the file.

use crate::sim::config::Element;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Action,
    Modifier,
    Multicast,
    Trigger,
    Logic,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionKind {
    Projectile,
    Zone,
    Summon,
    Blast,
}

/// How a shot moves (R-VM-10 `path`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum Path {
    #[default]
    Straight,
    /// `Sin(Time)`: a sideways wobble (balance.json `vm.sine_*`).
    Sine,
    /// Circles the player on the card's ring.
    Orbit(Orbit),
}

/// An orbit path's ring (a card's `orbit` block): the shot flies out to it
/// at its own speed, then circles the player, following them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Orbit {
    /// px from the player's centre.
    pub radius: f32,
    /// Turn rate around the player; positive is clockwise on screen (y down).
    pub degrees_per_second: f32,
}

/// What an ACTION puts into the world, before the shot state shapes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionDef {
    pub kind: ActionKind,
    pub damage: f32,
    /// px/s
    pub speed: f32,
    pub radius: f32,
    /// seconds
    pub lifetime: f32,
    /// degrees
    pub spread: f32,
    pub pierce: u32,
    pub bounces: u32,
    pub explode_radius: f32,
    pub chain: u32,
    pub chain_range: f32,
    pub homing: f32,
    pub path: Path,
    pub zone_pull: f32,
    pub zone_heal: f32,
    pub zone_dps: f32,
    pub summon_period: f32,
    /// R-MANA-5: the share of each card's mana a summon's casts pay from
    /// the player's pool (0.5 = half price).
    pub summon_cost_share: f32,
    /// R-MOVE-1: damage multiplier while the player moves (1 = none).
    pub moving_multiplier: f32,
    /// R-MOVE-3: (seconds still to charge, damage multiplier on release).
    pub charge: Option<(f32, f32)>,
}

impl ActionDef {
    /// R-BOARD-2: an adjacency bonus multiplies the numeric effect.
    pub fn scaled(mut self, mult: f32) -> Self {
        self.damage *= mult;
        self.speed *= mult;
        self.zone_heal *= mult;
        self.zone_dps *= mult;
        self.zone_pull *= mult;
        self.explode_radius *= mult;
        self
    }
}

/// R-VM-14 divide: the next action fires `copies` times, the copies free of
/// mana and CPU, each at damage × `damage_mult`, fanned over `spread` degrees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Divide {
    pub copies: u32,
    pub damage_mult: f32,
    pub spread: f32,
}

/// A MODIFIER's contribution to the shot state (R-VM-10).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct ShotMod {
    pub damage_flat: f32,
    /// Multiplies (1 = none).
    pub damage_mult: f32,
    pub speed_mult: f32,
    pub lifetime_add: f32,
    pub spread_add: f32,
    pub bounce_add: u32,
    pub pierce_add: u32,
    pub homing_add: f32,
    pub path: Option<Path>,
    pub element: Option<Element>,
    pub status_chance_add: f32,
    pub crit_add: f32,
    pub knockback_add: f32,
    pub size_mult: f32,
    pub lifesteal_add: f32,
    /// The splitter card (R-BOARD-3).
    pub splitter: bool,
    /// R-VM-14 add_mana: mana given to the cards this cast draws after it;
    /// what they leave unspent is lost when the cast ends, so no cast nets mana.
    pub mana_gain: f32,
    /// R-VM-14: the next projectile action becomes a trigger of this kind
    /// (and timer delay), carrying the card after it (settled by compile).
    pub adds_trigger: Option<(TriggerKind, f32)>,
    /// R-VM-14 divide: the next action fires several times (the copies free).
    pub divide: Option<Divide>,
}

impl ShotMod {
    pub fn identity() -> Self {
        ShotMod { damage_mult: 1.0, speed_mult: 1.0, size_mult: 1.0, ..Default::default() }
    }

    pub fn scaled(mut self, mult: f32) -> Self {
        self.damage_flat *= mult;
        self.damage_mult = 1.0 + (self.damage_mult - 1.0) * mult;
        self.speed_mult = 1.0 + (self.speed_mult - 1.0) * mult;
        self.lifetime_add *= mult;
        self.bounce_add = (self.bounce_add as f32 * mult).round() as u32;
        self.pierce_add = (self.pierce_add as f32 * mult).round() as u32;
        self.homing_add *= mult;
        self.crit_add *= mult;
        self.lifesteal_add *= mult;
        self.mana_gain *= mult;
        self
    }

    /// It changes the draw rather than the shot state (R-VM-14).
    pub fn changes_the_draw(&self) -> bool {
        self.mana_gain > 0.0 || self.adds_trigger.is_some() || self.divide.is_some()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriggerKind {
    OnHit,
    Timer,
    OnExpire,
}

impl TriggerKind {
    pub fn name(self) -> &'static str {
        match self {
            TriggerKind::OnHit => "on_hit",
            TriggerKind::Timer => "timer",
            TriggerKind::OnExpire => "on_expire",
        }
    }
}

impl ActionKind {
    pub fn name(self) -> &'static str {
        match self {
            ActionKind::Projectile => "projectile",
            ActionKind::Zone => "zone",
            ActionKind::Summon => "summon",
            ActionKind::Blast => "blast",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TriggerDef {
    pub kind: TriggerKind,
    /// seconds (timer triggers)
    pub delay: f32,
    pub carrier: ActionDef,
}

/// What a LOGIC card tests. `CondDiscriminants` lists the variants (a test
/// gives each one a behaviour case).
#[derive(Clone, Copy, Debug, PartialEq, strum::EnumDiscriminants)]
#[strum_discriminants(derive(strum::EnumIter))]
pub enum Cond {
    /// Player HP below this fraction of max.
    HpLow(f32),
    /// An enemy within this many px of the player.
    EnemyClose(f32),
    Moving,
    Still,
    ManaAbove(f32),
    /// Register below / at least a value.
    RegLt(u8, i32),
    RegGe(u8, i32),
}

/// A LOGIC card's effect. `LogicDefDiscriminants` lists the variants (a
/// test gives each one a behaviour case).
#[derive(Clone, Copy, Debug, PartialEq, strum::EnumDiscriminants)]
#[strum_discriminants(derive(strum::EnumIter))]
pub enum LogicDef {
    Gate {
        cond: Cond,
        span: u32,
    },
    HaltIf(Cond),
    Halt,
    Loop {
        span: u32,
        count: u32,
        grants_budget: bool,
    },
    RegSet {
        reg: u8,
        value: i32,
    },
    RegAdd {
        reg: u8,
        value: i32,
    },
    /// R-REG-2: runs its `span` on every `n`th pass of the cursor (each
    /// cast on a program core) and skips it otherwise, like a false gate;
    /// `counter` is this card's own count in the wand (assigned by compile).
    ChargeCounter {
        n: u32,
        counter: u32,
        span: u32,
    },
    /// R-REG-2: runs its `span` once `n` kills have accumulated (then
    /// resets), else skips it like a false gate.
    KillCombo {
        n: u32,
        counter: u32,
        span: u32,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    Action(ActionDef),
    Modifier(ShotMod),
    Multicast { count: u32, spread: f32 },
    Trigger(TriggerDef),
    Logic(LogicDef),
}

#[derive(Clone, Debug, PartialEq)]
pub struct SpellDef {
    pub id: String,
    pub family: Family,
    pub mana_cost: f32,
    pub cpu: u32,
    /// seconds added to the cast delay (R-VM-11)
    pub cast_delay: f32,
    /// R-VM-14: seconds added to the wand's recharge when a cast draws it (negative lowers it).
    pub recharge: f32,
    /// R-VM-14 (Noita's chainsaw): drawn, it sets the cast delay accumulated so far to zero.
    pub resets_delay: bool,
    pub element: Option<Element>,
    pub effect: Effect,
}

/// What a card changes in the wand itself rather than in its shot (R-VM-14).
/// `WandChange::iter()` lists them (a test gives each one a behaviour case).
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::EnumIter)]
pub enum WandChange {
    /// Adds to (or takes from) the recharge of the cast that draws it.
    Recharge,
    /// Sets the cast delay drawn so far to zero (the chainsaw).
    ResetsDelay,
    /// Gives mana to the cards after it in the cast (add_mana).
    ManaGain,
    /// Makes the next projectile a trigger carrying the card after it.
    AddsTrigger,
    /// Fires the next action several times.
    Divide,
}

impl SpellDef {
    pub fn is_action(&self) -> bool {
        matches!(self.effect, Effect::Action(_) | Effect::Trigger(_))
    }

    /// The ways this card changes the wand (R-VM-14).
    pub fn wand_changes(&self) -> Vec<WandChange> {
        let m = match self.effect {
            Effect::Modifier(m) => m,
            _ => ShotMod::identity(),
        };
        [
            (self.recharge != 0.0, WandChange::Recharge),
            (self.resets_delay, WandChange::ResetsDelay),
            (m.mana_gain > 0.0, WandChange::ManaGain),
            (m.adds_trigger.is_some(), WandChange::AddsTrigger),
            (m.divide.is_some(), WandChange::Divide),
        ]
        .into_iter()
        .filter_map(|(has, change)| has.then_some(change))
        .collect()
    }
}

/// The core's own check of a spell (DESIGN errors: it never trusts its
/// caller; `artificer.content` checks tighter ranges first). Every number
/// finite and within the generous bounds of `sim::limits`, so nothing a
/// cast derives from it overflows. The message names the field.
impl SpellDef {
    pub fn validate(&self) -> Result<(), String> {
        use crate::sim::limits::{MAX_AMOUNT, MAX_COUNT, MAX_FACTOR, MAX_SECONDS, MAX_SPEED};
        let mut c = Checks::default();
        c.float("mana_cost", self.mana_cost, 0.0, MAX_AMOUNT);
        c.count("cpu", self.cpu, MAX_COUNT);
        c.float("cast_delay", self.cast_delay, -MAX_SECONDS, MAX_SECONDS);
        c.float("recharge", self.recharge, -MAX_SECONDS, MAX_SECONDS);
        match &self.effect {
            Effect::Action(a) => a.check("action", &mut c),
            Effect::Modifier(m) => {
                c.float("modifier.damage_flat", m.damage_flat, -MAX_AMOUNT, MAX_AMOUNT);
                c.float("modifier.damage_mult", m.damage_mult, 0.0, MAX_FACTOR);
                c.float("modifier.speed_mult", m.speed_mult, 0.0, MAX_FACTOR);
                c.float("modifier.lifetime_add", m.lifetime_add, -MAX_SECONDS, MAX_SECONDS);
                c.float("modifier.spread_add", m.spread_add, -MAX_FACTOR, MAX_FACTOR);
                c.count("modifier.bounce_add", m.bounce_add, MAX_COUNT);
                c.count("modifier.pierce_add", m.pierce_add, MAX_COUNT);
                c.float("modifier.homing_add", m.homing_add, 0.0, MAX_FACTOR);
                c.float("modifier.status_chance_add", m.status_chance_add, 0.0, MAX_FACTOR);
                c.float("modifier.crit_add", m.crit_add, 0.0, MAX_FACTOR);
                c.float("modifier.knockback_add", m.knockback_add, 0.0, MAX_SPEED);
                c.float("modifier.size_mult", m.size_mult, 0.0, MAX_FACTOR);
                c.float("modifier.lifesteal_add", m.lifesteal_add, 0.0, MAX_FACTOR);
                if let Some(p) = m.path {
                    p.check("modifier", &mut c);
                }
                c.float("modifier.mana_gain", m.mana_gain, 0.0, MAX_AMOUNT);
                if let Some((_, delay)) = m.adds_trigger {
                    c.float("modifier.adds_trigger.delay", delay, 0.0, MAX_SECONDS);
                }
                if let Some(d) = m.divide {
                    c.count("modifier.divide.copies", d.copies, MAX_DIVIDE as u64);
                    c.float("modifier.divide.damage_mult", d.damage_mult, 0.0, 1.0);
                    c.float("modifier.divide.spread", d.spread, 0.0, 360.0);
                }
            }
            Effect::Multicast { count, spread } => {
                c.count("multicast.count", *count, MAX_FAN as u64);
                c.float("multicast.spread", *spread, -MAX_FACTOR, MAX_FACTOR);
            }
            Effect::Trigger(t) => {
                c.float("trigger.delay", t.delay, 0.0, MAX_SECONDS);
                t.carrier.check("trigger.carrier", &mut c);
            }
            Effect::Logic(l) => {
                let cond = |c: &mut Checks, cond: &Cond| match *cond {
                    Cond::HpLow(t) | Cond::EnemyClose(t) | Cond::ManaAbove(t) => {
                        c.float("logic.threshold", t, 0.0, MAX_AMOUNT)
                    }
                    Cond::RegLt(r, _) | Cond::RegGe(r, _) => c.count("logic.register", r as u32, 1),
                    Cond::Moving | Cond::Still => {}
                };
                match l {
                    LogicDef::Gate { cond: k, span } => {
                        cond(&mut c, k);
                        c.count("logic.span", *span, MAX_FAN as u64);
                    }
                    LogicDef::HaltIf(k) => cond(&mut c, k),
                    LogicDef::Halt => {}
                    LogicDef::Loop { span, count, .. } => {
                        c.count("logic.span", *span, MAX_FAN as u64);
                        c.count("logic.count", *count, MAX_COUNT);
                    }
                    LogicDef::RegSet { reg, .. } | LogicDef::RegAdd { reg, .. } => {
                        c.count("logic.register", *reg as u32, 1)
                    }
                    LogicDef::ChargeCounter { n, span, .. } | LogicDef::KillCombo { n, span, .. } => {
                        c.count("logic.n", *n, MAX_COUNT);
                        c.count("logic.span", *span, MAX_FAN as u64);
                    }
                }
            }
        }
        c.done()
    }
}

/// Most nodes a multicast fans into or a LOGIC card guards (content allows 64).
pub const MAX_FAN: u32 = 4096;

/// Most copies one divide card makes (content allows 10); divides drawn in a
/// row multiply, up to `MAX_FAN` copies of one action.
pub const MAX_DIVIDE: u32 = 64;

impl ActionDef {
    fn check(&self, at: &str, c: &mut Checks) {
        use crate::sim::limits::{MAX_AMOUNT, MAX_COUNT, MAX_FACTOR, MAX_RADIUS, MAX_SECONDS, MAX_SPEED};
        let f = |name: &str| format!("{at}.{name}");
        c.float(&f("damage"), self.damage, 0.0, MAX_AMOUNT);
        c.float(&f("speed"), self.speed, 0.0, MAX_SPEED);
        c.float(&f("radius"), self.radius, 0.0, MAX_RADIUS);
        c.float(&f("lifetime"), self.lifetime, 0.0, MAX_SECONDS);
        c.float(&f("spread"), self.spread, -MAX_FACTOR, MAX_FACTOR);
        c.count(&f("pierce"), self.pierce, MAX_COUNT);
        c.count(&f("bounces"), self.bounces, MAX_COUNT);
        c.float(&f("explode_radius"), self.explode_radius, 0.0, MAX_RADIUS);
        c.count(&f("chain"), self.chain, MAX_FAN as u64);
        c.float(&f("chain_range"), self.chain_range, 0.0, MAX_RADIUS);
        c.float(&f("homing"), self.homing, 0.0, MAX_FACTOR);
        c.float(&f("zone.pull"), self.zone_pull, 0.0, MAX_SPEED);
        c.float(&f("zone.heal_per_second"), self.zone_heal, 0.0, MAX_AMOUNT);
        c.float(&f("zone.damage_per_second"), self.zone_dps, 0.0, MAX_AMOUNT);
        c.float(&f("summon.period"), self.summon_period, 0.0, MAX_SECONDS);
        c.float(&f("summon.cost_share"), self.summon_cost_share, 0.0, MAX_FACTOR);
        c.float(&f("moving_multiplier"), self.moving_multiplier, 0.0, MAX_FACTOR);
        self.path.check(at, c);
        if let Some((still, mult)) = self.charge {
            c.float(&f("charge.still_seconds"), still, 0.0, MAX_SECONDS);
            c.float(&f("charge.multiplier"), mult, 0.0, MAX_FACTOR);
        }
    }
}

impl Path {
    fn check(&self, at: &str, c: &mut Checks) {
        use crate::sim::limits::{MAX_RADIUS, MAX_SPEED};
        if let Path::Orbit(o) = self {
            c.float(&format!("{at}.orbit.radius"), o.radius, 0.0, MAX_RADIUS);
            c.float(&format!("{at}.orbit.degrees_per_second"), o.degrees_per_second, -MAX_SPEED, MAX_SPEED);
        }
    }
}

/// The first failed check of a spell, by field.
#[derive(Default)]
struct Checks {
    first: Option<String>,
}

impl Checks {
    fn fail(&mut self, why: String) {
        self.first.get_or_insert(why);
    }

    fn float(&mut self, name: &str, v: f32, lo: f64, hi: f64) {
        if let Err(e) = crate::sim::limits::float32(name, v, lo, hi) {
            self.fail(e.to_string());
        }
    }

    fn count(&mut self, name: &str, v: u32, hi: u64) {
        if v as u64 > hi {
            self.fail(format!("{name} must be a whole number in 0..={hi}, got {v}"));
        }
    }

    fn done(self) -> Result<(), String> {
        self.first.map_or(Ok(()), Err)
    }
}
