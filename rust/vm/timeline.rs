//! The cast timeline (R-VM-3c): what a wand does, cast by cast, before a
//! player starts a wave with it.
//!
//! From the head at full mana, under training-range conditions (the senses
//! given), the casts until the cursors and counters return to where they
//! began (at most `MAX_CASTS`): the cards each fires, the mana it spends
//! (sustained-fire growth included) and its delay (recharge included).
//! Each cast of the cycle is drawn from a full pool — the real pool, so a
//! card it can never pay (priced above the core's mana) is passed over and
//! named (`unpaid`), and adds nothing to burst or sustained DPS (R-VM-3c);
//! what the pool can afford cast after cast is the sustained figure:
//! - burst DPS: the cycle's nominal damage over its duration;
//! - demand: mana per second once the sustained-fire surcharge has settled;
//! - sustained DPS and "runs dry after": the wand fired for `RUN_SECONDS`
//!   from a full pool on the core's regen, the real `spend` refusing what
//!   the pool can't pay (R-MANA-3): the nominal damage per second over the
//!   last half of the run, and when the first cast was abandoned.
//!
//! Nominal damage is what the cast's emissions would deal to one target
//! each: a projectile's or blast's damage (once more if it explodes, once
//! per chain jump), a zone's damage per second over its duration, a
//! payload's emissions, and a summon's casts over its life (their mana,
//! at the summon's share, counts toward demand). No figure is a sum of
//! nodes that don't run.

use super::exec::{CastOutput, Caster, Emission, Senses, VmEvent};
use super::program::{Drawn, Op, Span};
use super::spell::ActionKind;
use super::spell::LogicDef;
use crate::sim::config::{Element, ELEMENTS};

/// R-VM-3c: the longest cycle the lab shows.
pub const MAX_CASTS: usize = 64;
/// Casts drawn before measuring the settled demand (the surcharge caps
/// after 20 consecutive casts at +5%).
const WARM_UP_CASTS: usize = 24;
/// Mana a timeline draws from on an `infinite_spells` core (it pays with HP,
/// R-CORE-4: no cast is refused for mana).
const PLENTY: f32 = 1.0e7;
/// How deep payloads and summons are followed.
const DEPTH: u32 = 4;
/// How long the sustained run fires; its second half is measured.
const RUN_SECONDS: f32 = 60.0;

/// What the player's stats and relics multiply a hit's damage by, per element (R-STAT-1 crit and
/// attunement, folded in by the caller). A hit's element is its shot's (an infusion), else its
/// spell's (`spell_elements`, by spell index), else physical, as the world resolves it.
/// A crit (R-STAT-1) is the player's `crit_chance` plus the shot's (a card's), at most certain,
/// times `crit_multiplier`: the figure counts its expected share (the default: no crits counted).
#[derive(Clone, Debug, PartialEq)]
pub struct Scale {
    pub by_element: [f32; ELEMENTS],
    pub spell_elements: Vec<Option<Element>>,
    pub crit_chance: f32,
    pub crit_multiplier: f32,
}

impl Default for Scale {
    fn default() -> Self {
        Scale { by_element: [1.0; ELEMENTS], spell_elements: Vec::new(), crit_chance: 0.0, crit_multiplier: 1.0 }
    }
}

impl Scale {
    pub fn of(&self, e: &Emission) -> f32 {
        let spell = self.spell_elements.get(e.spell as usize).copied().flatten();
        let element = self.by_element[e.shot.element.or(spell).unwrap_or(Element::Physical) as usize];
        let crit = (self.crit_chance + e.shot.crit).clamp(0.0, 1.0);
        element * (1.0 + crit * (self.crit_multiplier - 1.0))
    }
}

/// One cast of the cycle.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineCast {
    /// Board slots of the cards that took effect, in order (payload cards
    /// after their trigger), and the spell each slot ran (a fusion's product).
    pub slots: Vec<u16>,
    pub cards: Vec<u16>,
    /// Spell indices of what it put into the world (emissions).
    pub fired: Vec<u16>,
    pub mana: f32,
    pub delay: f32,
    /// The cast wrapped a deck (its delay includes the recharge).
    pub recharged: bool,
    pub damage: f32,
    /// Board slots of the cards a full pool could not pay (R-MANA-3: passed
    /// over): on a core whose pool is smaller than their price, never.
    pub unpaid: Vec<u16>,
    /// The spell each unpaid slot held.
    pub unpaid_cards: Vec<u16>,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Timeline {
    pub casts: Vec<TimelineCast>,
    /// The cursors and counters came back to where they began.
    pub cycle_complete: bool,
    pub cycle_seconds: f32,
    pub mana_per_cycle: f32,
    /// Mana per second the wand asks once sustained (summons included).
    pub demand: f32,
    pub regen: f32,
    pub burst_dps: f32,
    pub sustained_dps: f32,
    pub dry_after_s: Option<f32>,
}

impl Timeline {
    /// Mana a cast actually spends, on average over the cycle.
    pub fn mana_per_cast(&self) -> f32 {
        if self.casts.is_empty() {
            0.0
        } else {
            self.mana_per_cycle / self.casts.len() as f32
        }
    }
}

/// What a wand's memory looks like, to know when the cycle is back. A
/// counter's `open` flag only matters to a cast that starts inside its span
/// (R-VM-3: it is retested there), so it counts only while a cursor rests
/// there: a Charge Counter that fired and a cursor back home is the same
/// wand as before it fired.
fn memory(c: &Caster) -> (Vec<u32>, [i32; 2], Vec<u32>, Vec<bool>) {
    let mut open = c.open.clone();
    for (i, n) in c.program.nodes.iter().enumerate() {
        if let Op::Logic(LogicDef::ChargeCounter { counter, span, .. } | LogicDef::KillCombo { counter, span, .. }) =
            n.op
        {
            let inside = (i as u32 + 1)..(i as u32 + 1 + span);
            if !c.cursors.iter().any(|cursor| inside.contains(cursor)) {
                if let Some(flag) = open.get_mut(counter as usize) {
                    *flag = false;
                }
            }
        }
    }
    (c.cursors.clone(), c.registers, c.counters.clone(), open)
}

/// The timeline of `caster`'s program (its state is not touched).
pub fn timeline(caster: &Caster, senses: Senses) -> Timeline {
    timeline_scaled(caster, senses, &Scale::default())
}

/// R-VM-3c with the player's damage bonuses (`Scale`: what the stats and relics multiply each
/// element's damage by), as the lab and the shop show a wand to its player.
pub fn timeline_scaled(caster: &Caster, senses: Senses, scale: &Scale) -> Timeline {
    let mut c = caster.clone();
    c.reset_memory();
    c.trace = true;
    c.bonus_budget = 0;
    let regen = c.mana.regen;
    // The wand's memory before each cast: the cycle closes when it comes back to
    // one it had (usually the start; a counter counted on a wrap's draw from the
    // head can leave a few casts before the cycle, which are not part of it).
    let mut seen = vec![memory(&c)];
    let mut t = Timeline { regen, ..Timeline::default() };
    let mut out = CastOutput::default();
    let mut summons = Vec::new();
    for _ in 0..MAX_CASTS {
        let (cast, asked) = one_cast(&mut c, senses, scale, &mut out);
        summons.push(asked);
        t.casts.push(cast);
        let now = memory(&c);
        if let Some(first) = seen.iter().position(|m| *m == now) {
            t.casts.drain(..first);
            summons.drain(..first);
            t.cycle_complete = true;
            break;
        }
        seen.push(now);
    }
    let summon_mana: f32 = summons.iter().sum();
    t.cycle_seconds = t.casts.iter().map(|k| k.delay).sum();
    t.mana_per_cycle = t.casts.iter().map(|k| k.mana).sum();
    let damage: f32 = t.casts.iter().map(|k| k.damage).sum();
    if t.cycle_seconds > 0.0 {
        t.burst_dps = damage / t.cycle_seconds;
    }
    // Demand once the surcharge has settled: keep casting, then measure a
    // whole cycle again.
    let settled = settled_demand(&mut c, senses, scale, t.casts.len(), &mut out);
    t.demand =
        settled.unwrap_or(if t.cycle_seconds > 0.0 { (t.mana_per_cycle + summon_mana) / t.cycle_seconds } else { 0.0 });
    (t.dry_after_s, t.sustained_dps) = sustained(caster, senses, scale);
    t
}

/// The wand fired from a full pool on its regen for `RUN_SECONDS`: when the
/// first cast was abandoned, and the nominal damage per second of the
/// second half. A summon's casts draw their mana evenly over its life (a
/// payload's summon, when its carrier fires).
fn sustained(caster: &Caster, senses: Senses, scale: &Scale) -> (Option<f32>, f32) {
    let mut c = caster.clone();
    c.reset_memory();
    c.trace = false;
    c.mana.refill();
    let mut out = CastOutput::default();
    let (mut t, mut dry, mut late) = (0.0f32, None, 0.0f32);
    let half = RUN_SECONDS * 0.5;
    // Summons drawing the pool: (mana per second, seconds left).
    let mut drains: Vec<(f32, f32)> = Vec::new();
    while t < RUN_SECONDS {
        out.clear();
        let mut s = senses;
        let delay = c.cast(&mut s, &mut out);
        // Running dry is a pool emptied by casting: a card no full pool could pay does not say it.
        let emptied = |node: u32| c.program.nodes.get(node as usize).is_some_and(|n| n.cost <= c.mana.max);
        if dry.is_none() && out.events.iter().any(|e| matches!(*e, VmEvent::CastAbandoned { node } if emptied(node))) {
            dry = Some(t);
        }
        for e in &out.emissions {
            let (d, m) = nominal(&c, e, senses, scale, DEPTH);
            let life = if e.summon.is_some() { e.action.lifetime + e.shot.lifetime_add } else { 0.0 };
            if life > 0.0 {
                drains.push((m / life, life));
            } else {
                c.mana.current = (c.mana.current - m).max(0.0);
            }
            if t >= half {
                late += d;
            }
        }
        c.mana.tick(delay);
        for (rate, left) in &mut drains {
            let dt = delay.min(*left);
            c.mana.current = (c.mana.current - *rate * dt).max(0.0);
            *left -= dt;
        }
        drains.retain(|&(_, left)| left > 0.0);
        t += delay;
    }
    (dry, late / (t - half).max(1e-3))
}

fn settled_demand(c: &mut Caster, senses: Senses, scale: &Scale, cycle: usize, out: &mut CastOutput) -> Option<f32> {
    if cycle == 0 {
        return None;
    }
    let warm = WARM_UP_CASTS.div_ceil(cycle) * cycle;
    for _ in 0..warm {
        one_cast(c, senses, scale, out);
    }
    let (mut mana, mut seconds) = (0.0, 0.0);
    for _ in 0..cycle {
        let (cast, summons) = one_cast(c, senses, scale, out);
        mana += cast.mana + summons;
        seconds += cast.delay;
    }
    (seconds > 0.0).then(|| mana / seconds)
}

/// One cast from a full pool; returns it and the mana its summons' casts
/// will ask over their lives.
fn one_cast(c: &mut Caster, senses: Senses, scale: &Scale, out: &mut CastOutput) -> (TimelineCast, f32) {
    out.clear();
    c.mana.current = if c.infinite_spells { PLENTY } else { c.mana.max };
    let mut s = senses;
    let delay = c.cast(&mut s, out);
    // The cast's delay passes: the surcharge window is measured in time.
    c.mana.tick(delay);
    let (mut slots, mut cards) = (Vec::new(), Vec::new());
    let mut took = |n: &super::program::Node| {
        if n.slot != u16::MAX && !slots.contains(&n.slot) {
            slots.push(n.slot);
            cards.push(n.spell);
        }
    };
    for e in &out.events {
        if let VmEvent::Trace { node, .. } = *e {
            took(&c.program.nodes[node as usize]);
        }
    }
    let mut damage = 0.0;
    let mut summons = 0.0;
    for e in &out.emissions {
        if let Some((_, _, payload)) = e.trigger {
            for span in payload.spans() {
                for n in &c.program.nodes[span.start as usize..span.end as usize] {
                    took(n);
                }
            }
        }
        let (d, m) = nominal(c, e, senses, scale, DEPTH);
        damage += d;
        summons += m;
    }
    let recharged = c.last_recharged;
    let (unpaid, unpaid_cards) = out
        .events
        .iter()
        .filter_map(|e| match *e {
            VmEvent::CastAbandoned { node } => c.program.nodes.get(node as usize).map(|n| (n.slot, n.spell)),
            _ => None,
        })
        .filter(|&(slot, _)| slot != u16::MAX)
        .unzip();
    let cast = TimelineCast {
        slots,
        cards,
        fired: out.emissions.iter().map(|e| e.spell).collect(),
        mana: c.mana.last_paid,
        delay,
        recharged,
        damage,
        unpaid,
        unpaid_cards,
    };
    (cast, summons)
}

/// Nominal damage of one emission on one target each, and the mana its
/// summon's casts ask (module doc).
fn nominal(c: &Caster, e: &Emission, senses: Senses, scale: &Scale, depth: u32) -> (f32, f32) {
    let a = &e.action;
    let hit = ((a.damage + e.shot.damage_flat) * e.shot.damage_mult).max(0.0) * scale.of(e);
    let mut damage = match a.kind {
        ActionKind::Projectile => hit * (1.0 + (a.explode_radius > 0.0) as u32 as f32 + a.chain as f32),
        ActionKind::Blast => hit,
        ActionKind::Zone => a.zone_dps * scale.of(e) * (a.lifetime + e.shot.lifetime_add).max(0.0),
        ActionKind::Summon => 0.0,
    };
    let mut mana = 0.0;
    if depth == 0 {
        return (damage, mana);
    }
    if let Some((_, _, payload)) = e.trigger {
        let (d, m) = run_payload(c, payload, senses, scale, depth);
        damage += d;
        mana += m;
    }
    if let Some(program) = e.summon {
        let casts = if a.summon_period > 0.0 {
            ((a.lifetime + e.shot.lifetime_add) / a.summon_period).ceil().max(0.0) as u32
        } else {
            0
        };
        let (d, m) =
            summon_casts(c, program, a.summon_cost_share, casts.min(MAX_CASTS as u32 * 4), senses, scale, depth);
        damage += d;
        mana += m;
    }
    (damage, mana)
}

fn run_payload(c: &Caster, payload: Drawn, senses: Senses, scale: &Scale, depth: u32) -> (f32, f32) {
    let mut p = c.clone();
    let mut out = CastOutput::default();
    let mut s = senses;
    p.run_free(payload, &mut s, &mut out);
    out.emissions.iter().fold((0.0, 0.0), |(d, m), e| {
        let (ed, em) = nominal(c, e, senses, scale, depth - 1);
        (d + ed, m + em)
    })
}

#[allow(clippy::too_many_arguments)]
fn summon_casts(
    c: &Caster,
    program: Span,
    share: f32,
    casts: u32,
    senses: Senses,
    scale: &Scale,
    depth: u32,
) -> (f32, f32) {
    let mut p = c.clone();
    p.trace = false;
    let mut out = CastOutput::default();
    let mut cursor = program.start;
    let (mut damage, mut mana) = (0.0, 0.0);
    for _ in 0..casts {
        out.clear();
        p.mana.current = PLENTY;
        let mut s = senses;
        p.cast_summon(program, &mut cursor, share, &mut s, &mut out);
        mana += p.mana.last_paid;
        for e in &out.emissions {
            let (d, m) = nominal(c, e, senses, scale, depth - 1);
            damage += d;
            mana += m;
        }
    }
    (damage, mana)
}
