//! The headless run's frames that Python need not see (issue 44): the kiting bot steers
//! (`sim::kite`) on the world's own pools, the world steps, and the wave's books are kept here —
//! frame by frame, in the order and the arithmetic of `artificer.game.run.WaveInProgress.step`
//! and `RelicBook.on_kills` — and the packs the director announced land (`sim::packs`), until a
//! frame Python must handle comes: the frame limit it gave (the director's next announcement, the
//! wave's end, a boss's stall), a frame the bot would drink a potion before, the player's death,
//! or a boss event. The same run, byte for byte, as stepping every
//! frame from Python (the goldens and the sweep's rows check it), at a fraction of the calls.
//!
//! What the bot reads is what the per-frame bot would read from the frame buffers: the buffers'
//! rows as Python holds them, including the frame right after one overflowed (its rows past the
//! old capacity are zeros until the next write), so `Caps` keeps their sizes.

use super::commands::Command;
use super::events::{Event, EventKind};
use super::kite::{self, Bot, KiteParams};
use super::packs::Landings;
use super::player::Controls;
use super::world::{StepCounts, World};

/// The wave's numbers as `WaveInProgress` keeps them, carried in and out of each call.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Books {
    pub frames: u64,
    pub kills: u64,
    pub spawned: u64,
    pub damage_dealt: f64,
    pub damage_taken: f64,
    /// Damage taken by source: one slot per enemy kind, then the projectiles'; `seen` in the order
    /// each source first hurt (a dict's insertion order on the Python side).
    pub taken: Vec<f64>,
    pub seen: Vec<u32>,
    pub picked: f64,
    pub max_alive: u64,
    pub alive: u64,
    pub biggest_hit: f64,
    pub last_will: bool,
    pub died: bool,
    /// R-FEEL-1/2 pacing: the latest cast attempt was abandoned for mana; frames so; the current
    /// stretch with no enemy alive, and the frames beyond each stretch's grace.
    pub starved: bool,
    pub out_of_mana_frames: u64,
    pub empty_stretch: u64,
    pub empty_frames: u64,
    /// R-REL-1 vampire_fang: kills counted toward the next heal.
    pub fang_kills: u64,
}

/// What the books need to know of the wave and the run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rules {
    /// Frames into the wave from which an empty arena counts, and the grace of each stretch.
    pub empty_from: u64,
    pub empty_grace: u64,
    /// R-REL-1 vampire_fang: kills per heal (0: no fang) and the heal.
    pub fang_every: u64,
    pub fang_heal: f64,
    /// R-POT-1: the bot drinks below this share of max HP (None: no healing potion to drink).
    pub drink_below: Option<f64>,
    /// The wave's boss's kind (None: no boss fight to follow).
    pub boss_kind: Option<u16>,
    /// The sim's ticks per second (a frame's time into the wave, for the packs' landings).
    pub hz: u32,
}

/// The rows each frame buffer holds (Python's arrays), grown as `FrameBuffers.step` grows them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Caps {
    pub enemies: usize,
    pub projectiles: usize,
    pub pickups: usize,
    pub events: usize,
    pub zones: usize,
    pub summons: usize,
}

/// Why the frames stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The frame limit.
    Limit,
    /// Before a frame: the bot would drink (not run).
    Drink,
    Died,
    /// A boss entered a phase or enraged, or the boss fell.
    Boss,
}

impl Stop {
    pub fn name(self) -> &'static str {
        match self {
            Stop::Limit => "limit",
            Stop::Drink => "drink",
            Stop::Died => "died",
            Stop::Boss => "boss",
        }
    }
}

/// What a call did.
pub struct Played {
    pub frames: u64,
    pub stop: Stop,
    /// The last frame's counts (as `World::step` returns them).
    pub counts: StepCounts,
    /// The buffers' sizes before the last frame's growth (the last frame's rows are written into
    /// buffers of these sizes, then grown as the counts ask).
    pub caps: Caps,
    /// A heal the fang queued for the next frame (0: none).
    pub heal: f64,
}

/// Runs `limit` frames at most (at least one): the first with `controls` and `commands` as given,
/// the next ones with the bot's steering, the fang's heal and the `landings` due (the director's
/// order: the heal queued by the frame before, then the packs); `caps` are the frame buffers' sizes.
#[allow(clippy::too_many_arguments)]
pub fn play(
    world: &mut World,
    controls: Controls,
    commands: &[Command],
    limit: u64,
    bot: &KiteParams,
    arena: (f64, f64),
    mut caps: Caps,
    rules: &Rules,
    books: &mut Books,
    landings: &mut Landings,
) -> Played {
    let mut last = world.step(&controls, commands);
    let mut frames = 1;
    let mut input = Vec::new();
    let mut stop = None;
    let (mut before, mut heal);
    loop {
        let written;
        (before, written) = grow(&mut caps, &last, world);
        heal = books.count(world.events(), &last, rules);
        if let Some(s) = books.stop(world.events(), rules) {
            stop = Some(s);
        }
        if stop.is_some() || frames >= limit {
            break;
        }
        let p = &world.player;
        let (hp, hp_max) = (f64::from(p.hp), f64::from(p.hp_max));
        if rules.drink_below.is_some_and(|share| hp > 0.0 && hp < share * hp_max) {
            stop = Some(Stop::Drink);
            break;
        }
        let at = Bot { x: f64::from(p.x), y: f64::from(p.y), dash_cooldown: f64::from(p.dash_cooldown), arena };
        let steer = {
            let (e, k) = (&world.pools.enemies, &world.pools.pickups);
            let enemies = seen(&e.x, &e.y, last.enemies.min(caps.enemies), written.0);
            let pickups = seen(&k.x, &k.y, last.pickups.min(caps.pickups), written.1);
            kite::steer(at, enemies, pickups, bot)
        };
        let (move_x, move_y) = steer.move_xy.unwrap_or((0.0, 0.0));
        let controls = Controls { move_x, move_y, aim_x: 0.0, aim_y: 0.0, dash: steer.dash, aim_at_point: false };
        input.clear();
        if heal > 0.0 {
            input.push(Command::Heal { amount: heal as f32 });
        }
        // `WaveInProgress._before_step`'s time: the frames done so far, in seconds.
        landings.land(books.frames as f64 / f64::from(rules.hz), books.alive, &mut input);
        last = world.step(&controls, &input);
        frames += 1;
    }
    Played { frames, stop: stop.unwrap_or(Stop::Limit), counts: last, caps: before, heal }
}

/// The points a buffer's first `shown` rows hold when the last write filled `written` of them (the
/// rest zeros, as a buffer grown after an overflow holds them until the next write).
fn seen<'a>(
    xs: &'a [f32],
    ys: &'a [f32],
    shown: usize,
    written: usize,
) -> impl Iterator<Item = (f32, f32)> + Clone + 'a {
    (0..shown).map(move |i| if i < written { (xs[i], ys[i]) } else { (0.0, 0.0) })
}

/// After a frame: each buffer grown as `FrameBuffers.step` grows it (doubling until the count
/// fits). Returns the sizes before, and the enemy and pickup rows the frame's write filled.
fn grow(caps: &mut Caps, counts: &StepCounts, world: &World) -> (Caps, (usize, usize)) {
    let before = *caps;
    let written = (counts.enemies.min(caps.enemies), counts.pickups.min(caps.pickups));
    let grown = |cap: &mut usize, needed: usize| {
        if needed > *cap {
            let mut rows = (*cap).max(1);
            while rows < needed {
                rows *= 2;
            }
            *cap = rows;
        }
    };
    grown(&mut caps.events, counts.events);
    grown(&mut caps.enemies, counts.enemies);
    grown(&mut caps.projectiles, counts.projectiles);
    grown(&mut caps.pickups, counts.pickups);
    grown(&mut caps.zones, world.pools.zones.len());
    grown(&mut caps.summons, world.pools.summons.len());
    (before, written)
}

impl Books {
    /// One frame's events into the books, as `WaveInProgress.step` counts them; returns the heal
    /// the fang queues for the next frame (0: none).
    pub fn count(&mut self, events: &[Event], counts: &StepCounts, rules: &Rules) -> f64 {
        self.frames += 1;
        let (mut kills, mut spawned, mut taken, mut picked) = (0u64, 0u64, 0.0f64, 0.0f64);
        let (mut abandoned, mut fired, mut hit) = (false, false, None::<f64>);
        let projectile = self.taken.len().saturating_sub(1);
        for e in events {
            let value = f64::from(e.value);
            match e.kind {
                EventKind::EnemyKilled => kills += 1,
                EventKind::EnemySpawned => spawned += 1,
                EventKind::PlayerDamaged => {
                    taken += value;
                    let a = f64::from(e.a);
                    let source = if (0.0..projectile as f64).contains(&a) { a as usize } else { projectile };
                    if let Some(slot) = self.taken.get_mut(source) {
                        if !self.seen.contains(&(source as u32)) {
                            self.seen.push(source as u32);
                        }
                        *slot += value;
                    }
                }
                EventKind::CurrencyPicked => picked += value,
                EventKind::CastAbandoned => abandoned = true,
                EventKind::CastFired => fired = true,
                EventKind::EnemyHit => hit = Some(hit.map_or(value, |m: f64| m.max(value))),
                EventKind::LastWill => self.last_will = true,
                EventKind::PlayerDied => self.died = true,
                _ => {}
            }
        }
        self.kills += kills;
        let heal = self.fang(kills, rules);
        self.spawned += spawned;
        self.damage_dealt += f64::from(counts.damage_dealt);
        self.damage_taken += taken;
        if picked != 0.0 {
            self.picked += picked;
        }
        self.max_alive = self.max_alive.max(counts.enemies as u64);
        self.alive = counts.enemies as u64;
        self.pace(abandoned, fired, rules);
        if let Some(most) = hit {
            self.biggest_hit = self.biggest_hit.max(most);
        }
        heal
    }

    /// R-REL-1 vampire_fang (`RelicBook.on_kills`): a heal per `every` kills, for the next frame.
    fn fang(&mut self, kills: u64, rules: &Rules) -> f64 {
        if kills == 0 || rules.fang_every == 0 {
            return 0.0;
        }
        let total = self.fang_kills + kills;
        let times = total / rules.fang_every;
        self.fang_kills = total % rules.fang_every;
        let heal = times as f64 * rules.fang_heal;
        if heal > 0.0 {
            heal
        } else {
            0.0
        }
    }

    /// The pacing numbers (`WaveInProgress._pace`), on the frame just counted.
    fn pace(&mut self, abandoned: bool, fired: bool, rules: &Rules) {
        if abandoned {
            self.starved = true;
        } else if fired {
            self.starved = false;
        }
        self.out_of_mana_frames += self.starved as u64;
        // The frame that just ran began at (frames - 1) frames into the wave.
        if self.alive == 0 && self.frames > rules.empty_from {
            self.empty_stretch += 1;
            self.empty_frames += (self.empty_stretch > rules.empty_grace) as u64;
        } else {
            self.empty_stretch = 0;
        }
    }

    /// Whether the frame just counted is one Python must see: the player died, or the boss
    /// entered a phase, enraged or fell.
    fn stop(&self, events: &[Event], rules: &Rules) -> Option<Stop> {
        if self.died {
            return Some(Stop::Died);
        }
        let boss = rules.boss_kind?;
        events
            .iter()
            .any(|e| match e.kind {
                EventKind::BossPhase | EventKind::BossEnraged => true,
                EventKind::EnemyKilled => f64::from(e.a) == f64::from(boss),
                _ => false,
            })
            .then_some(Stop::Boss)
    }
}
