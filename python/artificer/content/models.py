"""Content models: the schema of balance.json, enemies.json and waves.json.

This module owns what a well-formed content file looks like (types, ranges,
unknown keys) and the `Problem` / `ContentError` pair that reports bad
content. Checks that span several entries or files (unique ids, wave
numbering, enemy references) live in `artificer.content.loader`.

Units everywhere: px, seconds, px/s. Every model is frozen and forbids
unknown keys, so a typo in a data file is a reported problem, not a silently
ignored key.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from artificer.errors import ArtificerError

# Ids are lowercase snake case so they read the same in JSON, Python and Rust.
ID_PATTERN = r"^[a-z][a-z0-9_]*$"

# R-WAVE-1: the run has exactly 20 waves.
WAVE_COUNT = 20

# Largest enemy radius the core's spatial grid is sized for.
MAX_ENEMY_RADIUS = 64

# --- ranges (§ DESIGN errors: whatever check-content accepts runs to its end) ---------------
#
# Every number of every content file has a range a designer could want and the engine runs:
# the core keeps floats as f32 (about 7 digits, at most 3.4e38) and narrows integers to u16,
# u32 or i32 (rust/py/config.rs, rust/py/catalog.rs), so every range sits far inside those
# types, products included (an elite's HP is hp × hp_multiplier; a cast's step budget is
# cpu_limit × step_multiplier). The ranges show in the JSON Schema (minimum / maximum).
# What several fields make together (a wave's spawns, its frames, the buffers' memory) is
# checked by the loader against the caps below.

#: Longest time anything lasts, in s: a wave, a lifetime, a zone, a cooldown (10 minutes).
MAX_SECONDS = 600.0
#: Longest distance in px: an arena side, a range, a spawn reach.
MAX_DISTANCE = 100_000.0
#: Shortest arena side in px: room for the player, a spawn margin and a few enemies.
MIN_ARENA_SIDE = 256.0
#: Fastest anything moves, in px/s (333 px a tick at 60 Hz; faster only tunnels through walls).
MAX_SPEED = 20_000.0
#: Largest radius of an area (a blast, a zone, an explosion, a pickup's magnet), in px.
MAX_AREA_RADIUS = 4_000.0
#: Most HP anything has (a boss); times the elite multiplier it stays exact in f32.
MAX_HP = 10_000_000.0
#: Most damage one hit, tick or effect deals before multipliers (and most armor).
MAX_DAMAGE = 1_000_000.0
#: Largest damage, speed or reward multiplier.
MAX_MULTIPLIER = 100.0
#: Most gold one thing gives or costs (× the elite multiplier, still exact in f32: < 2^24).
MAX_GOLD = 100_000
#: Most of any mana amount (a pool, a cost, a regen per s).
MAX_MANA = 1_000_000.0
#: The fixed step's range: 30..240 ticks per second.
MIN_TICK_HZ = 30
MAX_TICK_HZ = 240
#: Most frames one wave may run (10 minutes at 60 Hz): `duration × tick_hz`.
MAX_WAVE_FRAMES = 36_000
#: Most enemies one wave may spawn, splits' children included (the shipped wave 20: about 11,000).
#: Measured at the cap: 49,000 grunts alive through a 60 s wave step in about 10 ms a frame
#: (36 s of CPU headless), so even a wave at the cap plays in real time.
MAX_WAVE_SPAWNS = 50_000
#: Most frames `replay.max_frames` may allow a replay (24 hours at 60 Hz: 124 MiB of controls at
#: the core's 6 float32 controls, 24 bytes, a frame).
MAX_REPLAY_FRAMES = 5_184_000
#: Most bytes the frame buffers preallocated at `capacities` may take (32 MiB).
MAX_BUFFER_BYTES = 32 * 1024 * 1024
#: Bytes one row of each buffer takes (the core's column counts × 4 for f32 rows, × 8 for f64
#: rows: ENEMY_COLUMNS 6, PROJECTILE_COLUMNS 7, PICKUP_COLUMNS 4, EVENT_COLUMNS 6 (f64),
#: ZONE_COLUMNS 5, SUMMON_COLUMNS 4, COMMAND_WIDTH 6 (f64)); tests/content/test_content_bounds.py checks
#: them against the core's.
BUFFER_ROW_BYTES = {
    "enemies": 24,
    "projectiles": 28,
    "pickups": 16,
    "events": 48,
    "zones": 20,
    "summons": 16,
    "commands": 48,
}
#: Most of an integer count a card or rule stacks (pierce, bounces, loop counts...): far inside u32.
MAX_COUNT = 1_000


class ContentModel(BaseModel):
    """Base of every content model: frozen, no unknown keys, no NaN or infinity."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class Element(StrEnum):
    """Damage elements of R-DMG-2; the order is the core's element index."""

    PHYSICAL = "physical"
    FIRE = "fire"
    ICE = "ice"
    LIGHTNING = "lightning"
    POISON = "poison"
    WATER = "water"


class Behavior(StrEnum):
    """How an enemy moves and fights (R-WAVE-2); the order is the core's behaviour index."""

    CHASE = "chase"
    KEEP_DISTANCE = "keep_distance"
    SWARM = "swarm"
    SHIELD = "shield"
    EXPLODE = "explode"
    SPLIT = "split"


Chance = Annotated[float, Field(ge=0, le=1)]
Resistance = Annotated[float, Field(ge=0, le=1)]
Seconds = Annotated[float, Field(ge=0, le=MAX_SECONDS)]
Gold = Annotated[int, Field(ge=0, le=MAX_GOLD)]


# --- balance.json -----------------------------------------------------------


class Arena(ContentModel):
    """The playfield rectangle."""

    width: float = Field(ge=MIN_ARENA_SIDE, le=MAX_DISTANCE, description="Arena width in px.")
    height: float = Field(ge=MIN_ARENA_SIDE, le=MAX_DISTANCE, description="Arena height in px.")


class Sim(ContentModel):
    """Fixed-step simulation settings."""

    tick_hz: int = Field(
        ge=MIN_TICK_HZ, le=MAX_TICK_HZ, description="Simulation ticks per second (fixed step = 1 / tick_hz)."
    )
    separation_strength: float = Field(
        ge=0, le=1, description="How hard overlapping enemies push apart, per tick (0 = no separation)."
    )
    separation_candidates: int = Field(
        default=64,
        ge=4,
        le=4096,
        description="The most neighbours an enemy tests for separation in a frame (each pair once, nearest cells "
        "first): a horde crushed against a wall pushes on fewer pairs instead of slowing the game to a crawl.",
    )
    grid_cells_per_entity: float = Field(
        ge=0.125, le=16, description="Spatial-grid cell size as a multiple of the largest entity diameter."
    )
    hit_events_per_frame: int = Field(
        ge=0, le=1024, description="With the hit_events rule: the frame's biggest hits reported (damage numbers)."
    )
    hit_flash_frames: int = Field(
        default=6, ge=0, le=60, description="R-FEEL-1: frames an enemy flashes white after a hit (0 = no flash)."
    )


class Capacities(ContentModel):
    """Fixed pool sizes the core preallocates; spawns past a capacity are dropped."""

    enemies: int = Field(
        ge=1, le=100_000, description="Rows of the enemy buffer at start (it grows when a frame needs more)."
    )
    projectiles: int = Field(ge=1, le=200_000, description="Rows of the projectile buffer at start (it grows).")
    pickups: int = Field(ge=1, le=100_000, description="Rows of the pickup buffer at start (it grows).")
    summons: int = Field(ge=1, le=10_000, description="Rows of the summon buffer at start (it grows).")
    zones: int = Field(
        ge=1, le=10_000, description="Rows of the zone buffer (clouds, puddles, blasts) at start (it grows)."
    )
    events: int = Field(ge=1, le=1_000_000, description="Rows of the event buffer at start (it grows).")
    commands: int = Field(ge=1, le=100_000, description="Rows of the command buffer at start (it grows).")


class PlayerStats(ContentModel):
    """The player's starting stats, before shop upgrades (R-STAT-1)."""

    max_hp: float = Field(gt=0, le=MAX_HP, description="Starting maximum HP.")
    radius: float = Field(gt=0, le=MAX_ENEMY_RADIUS, description="Collision radius in px.")
    move_speed: float = Field(gt=0, le=MAX_SPEED, description="Walking speed in px/s.")
    armor: float = Field(ge=0, le=MAX_DAMAGE, description="Flat damage subtracted from every hit taken (R-DMG-1).")
    dash_speed: float = Field(gt=0, le=MAX_SPEED, description="Dash speed in px/s.")
    dash_duration: float = Field(gt=0, le=MAX_SECONDS, description="How long a dash lasts, in s.")
    dash_cooldown: float = Field(ge=0, le=MAX_SECONDS, description="Time between dashes, in s.")
    invulnerability: float = Field(ge=0, le=MAX_SECONDS, description="Invulnerable time after taking a hit, in s.")
    crit_chance: Chance = Field(description="Chance for a hit to be critical, 0..1.")
    crit_multiplier: float = Field(ge=1, le=MAX_MULTIPLIER, description="Damage multiplier of a critical hit.")
    mana_max: float = Field(gt=0, le=MAX_MANA, description="Maximum mana.")
    mana_regen: float = Field(ge=0, le=MAX_MANA, description="Mana regained per second.")
    mana_leech: float = Field(default=0, ge=0, le=MAX_MANA, description="Mana restored per kill (R-STAT-1, R-MANA-8).")
    auto_aim_range: float = Field(
        gt=0,
        le=MAX_DISTANCE,
        description="Auto-aim fires at the nearest enemy within this many px; with none that close the wand holds fire.",
    )


class PickupSettings(ContentModel):
    """How dropped pickups (gold, mana) fly to and are collected by the player."""

    pickup_radius: float = Field(
        gt=0, le=MAX_AREA_RADIUS, description="Distance in px at which pickups start flying to the player."
    )
    magnet_speed: float = Field(gt=0, le=MAX_SPEED, description="Speed in px/s of a pickup flying to the player.")
    collect_radius: float = Field(
        gt=0, le=MAX_AREA_RADIUS, description="Distance in px at which a pickup is collected."
    )
    radius: float = Field(gt=0, le=MAX_ENEMY_RADIUS, description="A pickup's own radius in px.")


class SpawnReach(ContentModel):
    """Half the width and height of the box around the player whose edge spawns land on."""

    half_width: float = Field(gt=0, le=MAX_DISTANCE, description="px left and right of the player.")
    half_height: float = Field(gt=0, le=MAX_DISTANCE, description="px above and below the player.")


class TtkBand(ContentModel):
    """R-BOSS-3: the median time to kill the bosses of one wave, fought at full HP by the archetype
    bots, lies within `min_s`..`max_s`."""

    wave: int = Field(ge=1, le=WAVE_COUNT, description="The boss wave this band judges (its bosses' `wave`).")
    min_s: float = Field(
        gt=0, le=MAX_SECONDS, description="The shortest median time to kill, s (a fight, not a formality)."
    )
    max_s: float = Field(gt=0, le=MAX_SECONDS, description="The longest median time to kill, s (above min_s).")

    @field_validator("max_s")
    @classmethod
    def _above_min(cls, max_s: float, info: ValidationInfo) -> float:
        min_s = info.data.get("min_s")
        if min_s is not None and max_s <= min_s:
            raise ValueError(f"must be above min_s ({min_s:g}), got {max_s:g}")
        return max_s


class BossFightTargets(ContentModel):
    """R-BOSS-3's targets for the balance simulator (the boss arena `--full-hp`, and `artificer sim`'s
    report): each boss wave's time-to-kill band and the least share of max HP a boss takes."""

    ttk_bands: tuple[TtkBand, ...] = Field(
        min_length=1,
        max_length=WAVE_COUNT,
        description="A band per boss wave (R-BOSS-3: W8 30-90 s, W10 45-150 s, W20 90-240 s).",
    )
    min_hp_taken: float = Field(
        gt=0,
        le=1,
        description="Each boss takes at least this share of the player's max HP at the median (R-BOSS-3: 0.25).",
    )

    @field_validator("ttk_bands")
    @classmethod
    def _one_band_a_wave(cls, bands: tuple[TtkBand, ...]) -> tuple[TtkBand, ...]:
        waves = [band.wave for band in bands]
        repeated = sorted({wave for wave in waves if waves.count(wave) > 1})
        if repeated:
            raise ValueError(f"one band a wave: wave {', '.join(map(str, repeated))} has more than one")
        return bands

    def band(self, wave: int) -> TtkBand | None:
        """The band of boss wave `wave` (None: no band for it)."""
        return next((band for band in self.ttk_bands if band.wave == wave), None)


class BossWaveSettings(ContentModel):
    """A boss wave's own numbers (R-WAVE-1, R-BOSS-2): where its boss comes, and when a fight
    that will not end is called stalled."""

    distance: float = Field(
        ge=0, le=MAX_DISTANCE, description="The boss comes this many px from the player (toward the arena's centre)."
    )
    stall_after: float = Field(
        gt=0,
        le=MAX_SECONDS,
        description="Seconds after which a boss wave still going ends as stalled (headless; the boss "
        "hyper-enrages long before, at its enrage_after).",
    )
    banner_seconds: float = Field(ge=0, le=30, description="Seconds the boss's warning banner shows as it comes.")
    phase_banner_seconds: float = Field(
        ge=0, le=30, description="Seconds the banner shows when the boss enters a phase or hyper-enrages."
    )
    targets: BossFightTargets = Field(description="R-BOSS-3: what the balance simulator holds a boss fight to.")


class NgPlusSettings(ContentModel):
    """R-END-2 New Game+: what each level multiplies (compounded per level: level 2 is ×1.5²), and the
    highest level there is. Level 0 is the game as it ships."""

    enemy_stat_multiplier: float = Field(
        ge=1, le=10, description="Every enemy's and boss's HP and damage × this per level (R-END-2: 1.5)."
    )
    enemy_projectile_speed_multiplier: float = Field(
        ge=1, le=5, description="Enemy and boss shots' speed × this per level (R-END-2: +30%, 1.3)."
    )
    max_level: int = Field(ge=1, le=10, description="The highest NG+ level a clear can unlock.")


class FirstWavePress(ContentModel):
    """R-WAVE-1, R-CURVE-3: how wave 1 presses a player who stands still with the starter wand,
    as the balance simulator measures it (`sim.headless.wave_one_still`)."""

    alive_at_s: float = Field(gt=0, le=MAX_SECONDS, description="The second the crowd is counted (10).")
    alive: int = Field(ge=1, le=MAX_WAVE_SPAWNS, description="Enemies spawned and alive by then (12).")
    hit_within_s: float = Field(gt=0, le=MAX_SECONDS, description="The first hit comes within this many s (15).")


class WaveTiming(ContentModel):
    """Timing shared by all waves (R-WAVE-1)."""

    duration: float = Field(gt=0, le=MAX_SECONDS, description="Default wave length in s.")
    spawn_telegraph: float = Field(ge=0, le=60, description="Seconds a spawn marker shows before the enemies appear.")
    spawn_safe_radius: float = Field(
        ge=0, le=MAX_DISTANCE, description="No enemy spawns within this many px of the player."
    )
    spawn_margin: float = Field(
        ge=0, le=MAX_DISTANCE, description="Spawn points lie this many px inside the arena's edge."
    )
    spawn_reach: SpawnReach | None = Field(
        default=None,
        description="Spawns land on the edge of this box around the player, clamped into the arena "
        "(just beyond the view, so a wave is on screen at once, R-FEEL-1); without it, on the arena's edge.",
    )
    breather: float = Field(ge=0, le=60, description="Seconds the cleared wave's result shows before the shop opens.")
    heal_between: float = Field(
        default=1.0,
        ge=0,
        le=1,
        description="R-LOOP-1: the share of max HP restored as each wave begins (1: every wave starts at "
        "full HP, Brotato's rule; an endless boss rush is one wave).",
    )
    max_alive: int | None = Field(
        default=None,
        ge=1,
        le=MAX_WAVE_SPAWNS,
        description="R-WAVE-1's enemy cap: a spawn that would take the field past this many enemies alive "
        "brings only those that fit, the rest never come (elites and bosses always come); without it, no cap.",
    )
    boss: BossWaveSettings = Field(description="Boss waves: where the boss comes, the stall cap, the banner.")
    first_wave_press: FirstWavePress = Field(
        description="R-WAVE-1: wave 1 against the starter wand standing still, as the balance simulator checks it."
    )


class Elite(ContentModel):
    """What makes an elite enemy (spawn groups with `elite: true`)."""

    hp_multiplier: float = Field(ge=1, le=MAX_MULTIPLIER, description="An elite's HP is its kind's HP times this.")
    reward_multiplier: float = Field(
        ge=1, le=MAX_MULTIPLIER, description="An elite drops its kind's reward times this (rounded)."
    )


class SustainedFire(ContentModel):
    """R-MANA-8: consecutive casts cost more, up to a cap; the growth decays."""

    window: float = Field(
        gt=0, le=MAX_SECONDS, description="A cast within this many seconds of the last is consecutive."
    )
    step: float = Field(ge=0, le=10, description="Cost added per consecutive cast (0.05 = +5%).")
    cap: float = Field(ge=0, le=MAX_MULTIPLIER, description="Largest total surcharge (1.0 = +100%).")
    reset_after: float = Field(
        gt=0, le=MAX_SECONDS, description="Seconds without casting after which the surcharge is gone."
    )


class VmSettings(ContentModel):
    """The spell VM's numbers (GAME_RULES §3-4)."""

    step_multiplier: int = Field(ge=1, le=64, description="R-VM-8: node-steps per CPU point in one cast.")
    cast_delay_floor: float = Field(ge=0.01, le=10, description="R-VM-11: shortest cast delay in s.")
    sustained_fire: SustainedFire = Field(description="R-MANA-8 cost growth.")
    infinite_spells_hp_per_mana: float = Field(
        gt=0, le=MAX_MULTIPLIER, description="R-CORE-4: HP paid per mana (0.2 = 1 HP per 5)."
    )
    sine_amplitude: float = Field(ge=0, le=MAX_AREA_RADIUS, description="Sine path: sideways amplitude in px.")
    sine_frequency: float = Field(ge=0, le=MAX_TICK_HZ, description="Sine path: wobbles per second.")
    homing_range: float = Field(
        ge=0, le=MAX_DISTANCE, description="Homing projectiles steer toward enemies this close, px."
    )
    on_kill_interval: float = Field(
        ge=0, le=MAX_SECONDS, description="R-CORE-2: an on_kill entry runs at most once per this many s."
    )
    charge_ring_delay: float = Field(
        ge=0, le=MAX_SECONDS, description="R-MOVE-3: the charge ring shows this long after stopping, s."
    )
    knockback_seconds: float = Field(
        ge=0, le=10, description="A hit shoves its enemy by knockback (px/s) times this, px."
    )


class StartingWand(ContentModel):
    """R-ONB-1: the wand a run starts with."""

    core: str = Field(pattern=ID_PATTERN, description="Id of a core in cores.json.")
    cards: tuple[str | None, ...] = Field(description="Spell ids in the core's slot order (null: empty slot).")


class TrainingRange(ContentModel):
    """R-LAB-1: the lab's training range: a still player and immortal dummies."""

    dummy: str = Field(pattern=ID_PATTERN, description="Enemy id the dummies are made of (their defences apply).")
    count: int = Field(ge=1, le=64, description="Dummies in the range.")
    distance: float = Field(gt=0, le=MAX_DISTANCE, description="Distance in px from the player to the dummy line.")
    spacing: float = Field(gt=0, le=MAX_DISTANCE, description="Gap in px between dummies.")


class LoadoutLimits(ContentModel):
    """R-CORE-3: how many cores a player carries and how many loose cards wait."""

    max_cores: int = Field(ge=1, le=32, description="Cores carried at most, the active one included.")
    waiting_area: int = Field(ge=0, le=256, description="Cards the waiting area holds at most.")
    backpack: int = Field(ge=1, le=256, description="Cards the lab's backpack holds at most (R-LAB-1).")


# --- the shop (R-SHOP-1, R-CORE-3, R-STAT-1) ------------------------------------------


# Rarity tiers 1..4, as spells.json and cores.json number them (`spell_prices` has one price a tier).
SHOP_TIERS = 4
#: R-CORE-5: cores come in tiers 1..5 (cards stay 1..4); each has its own odds table.
CORE_TIERS = 5


class SpellFamily(StrEnum):
    """The five chip families of §3; the order is the VM's family index."""

    ACTION = "action"
    MODIFIER = "modifier"
    MULTICAST = "multicast"
    TRIGGER = "trigger"
    LOGIC = "logic"


class WandStat(StrEnum):
    """R-STAT-1 stats shelf C may sell, each applied by `artificer.game.shop.WandStats.apply`:
    the wand's through `World.set_wand_stats(cpu, cast_speed, accuracy)`, the player's through
    `World.set_player_stats`, attunement (one stat per element) through `World.set_attunement`,
    luck through the shop's tier odds. Which of them the shop offers, and at what price, is data."""

    CPU = "cpu"
    CAST_SPEED = "cast_speed"
    ACCURACY = "accuracy"
    MAX_HP = "max_hp"
    ARMOR = "armor"
    MOVE_SPEED = "move_speed"
    MANA_LEECH = "mana_leech"
    CRIT_CHANCE = "crit_chance"
    PICKUP_RADIUS = "pickup_radius"
    MANA_REGEN = "mana_regen"
    MAX_MANA = "max_mana"
    LUCK = "luck"
    ATTUNEMENT_PHYSICAL = "attunement_physical"
    ATTUNEMENT_FIRE = "attunement_fire"
    ATTUNEMENT_ICE = "attunement_ice"
    ATTUNEMENT_LIGHTNING = "attunement_lightning"
    ATTUNEMENT_POISON = "attunement_poison"
    ATTUNEMENT_WATER = "attunement_water"


#: The prefix of the per-element attunement stats (`attunement_fire` → element `fire`).
ATTUNEMENT_PREFIX = "attunement_"


class Talent(StrEnum):
    """Talents shelf C may offer, each bought at most once per run. What a talent does is code
    (`artificer.game.shop.Shop.buy_stat`), so the ids are a closed set; when and for how much
    the shop offers one is data (`TalentOffer`).

    LAST_WILL (R-END-1): survives one lethal hit at 1 HP (`World.set_last_will`)."""

    LAST_WILL = "last_will"


class TierOdds(ContentModel):
    """The chance that one offer is of this tier *or better*, by the wave just cleared (R-SHOP-1).

    `chance = min(cap, (base + per_wave × (wave − from_wave)) × (1 + luck))` from
    `from_wave` on, 0 before it (Brotato's shape)."""

    tier: int = Field(ge=2, le=SHOP_TIERS, description="The tier (tier 1 is whatever the better tiers leave).")
    from_wave: int = Field(
        ge=1, le=WAVE_COUNT, description="The first shop (numbered by the wave just cleared) that can offer it."
    )
    base: Chance = Field(description="The chance at from_wave, 0..1.")
    per_wave: float = Field(ge=0, le=1, description="Chance added for each wave after from_wave.")
    cap: Chance = Field(description="The largest chance, luck included, 0..1.")


class CoreTierOdds(TierOdds):
    """As `TierOdds`, for the core shelf's tiers 2..5 (R-CORE-5)."""

    tier: int = Field(ge=2, le=CORE_TIERS, description="The core tier (tier 1 is whatever the better tiers leave).")


class ShopReroll(ContentModel):
    """R-SHOP-1: a reroll costs more each time within a shop; the next shop starts over."""

    base: Gold = Field(description="Gold for the first reroll in the shop after wave 1.")
    per_wave: Gold = Field(description="Gold added to the first reroll's cost per wave after wave 1.")
    growth: Gold = Field(description="Gold added by each reroll already made in the same shop.")


class CoreOfferCount(ContentModel):
    """R-SHOP-1: shelf B shows between `min` and `max` cores."""

    min: int = Field(ge=0, le=16, description="Fewest cores on shelf B.")
    max: int = Field(ge=0, le=16, description="Most cores on shelf B.")

    @field_validator("max")
    @classmethod
    def _max_not_below_min(cls, most: int, info: ValidationInfo) -> int:
        fewest = info.data.get("min")
        if fewest is not None and most < fewest:
            raise ValueError(f"must be at least min ({fewest})")
        return most


#: Stats bought as a share of a base (0.05 = +5%): their totals stay at most MAX_STAT_SHARE (+1000%),
#: so a bought move speed never reaches the px/s of a bullet.
SHARE_STATS = frozenset(
    {WandStat.CAST_SPEED, WandStat.ACCURACY, WandStat.MOVE_SPEED, WandStat.CRIT_CHANCE, WandStat.LUCK}
)
MAX_STAT_SHARE = 10.0


class StatOffer(ContentModel):
    """One stat shelf C can sell (R-STAT-1): what a purchase adds and what it costs."""

    stat: WandStat = Field(description="Which stat (R-STAT-1; see WandStat).")
    amount: float = Field(gt=0, le=MAX_DAMAGE, description="Added to the stat by one purchase (cpu: whole points).")
    max: float = Field(gt=0, le=MAX_DAMAGE, description="The stat is no longer offered once its total reaches this.")
    price: Gold = Field(description="Gold for the first purchase.")
    price_step: Gold = Field(description="Gold added to the price by each purchase of this stat in the run.")

    @field_validator("amount", "max")
    @classmethod
    def _share_in_range(cls, value: float, info: ValidationInfo) -> float:
        stat = info.data.get("stat")
        if stat in SHARE_STATS and value > MAX_STAT_SHARE:
            raise ValueError(f"{stat} is a share (0.1 = +10%): at most {MAX_STAT_SHARE:g}, got {value:g}")
        return value


class TalentOffer(ContentModel):
    """A talent shelf C may add as an extra place (R-SHOP-1, R-END-1): never once the run owns it."""

    talent: Talent = Field(description="Which talent (see Talent).")
    price: Gold = Field(description="Gold for it (it is bought once, so the price does not step).")
    from_wave: int = Field(
        ge=1, le=WAVE_COUNT, description="The first shop (numbered by the wave just cleared) that can offer it."
    )
    chance: Chance = Field(description="The chance, 0..1, that a restock (opening or a reroll) offers it.")


class ShopSettings(ContentModel):
    """R-SHOP-1 / R-CORE-3 / R-STAT-1: the shop's numbers (the rules live in `artificer.game.shop`)."""

    spell_offers: int = Field(ge=1, le=16, description="Spells on shelf A.")
    spell_prices: tuple[Gold, ...] = Field(
        min_length=SHOP_TIERS, max_length=SHOP_TIERS, description="Gold for a spell of tier 1, 2, 3, 4 after wave 1."
    )
    family_weights: dict[SpellFamily, Annotated[float, Field(ge=0, le=1_000)]] = Field(
        default_factory=dict,
        description="Within a drawn tier, how likely a spell of each family is next to the others (a family not named: 1).",
    )
    core_offers: CoreOfferCount = Field(description="Cores on shelf B.")
    tier_odds: tuple[TierOdds, ...] = Field(description="Chance of each better tier by wave (tiers 2..4).")
    core_tier_odds: tuple[CoreTierOdds, ...] = Field(
        description="Chance of each better core tier by wave and luck (tiers 2..5, R-CORE-5)."
    )
    price_growth_per_wave: float = Field(
        ge=0,
        le=10,
        description="Every price (spells, cores, stats, talents, the relic, the potion) is this fraction more per "
        "wave after wave 1 (0.05 = +5%), R-SHOP-1.",
    )
    stat_offers: int = Field(ge=0, le=16, description="Stat upgrades on shelf C.")
    stats: tuple[StatOffer, ...] = Field(description="The stats shelf C draws from.")
    talents: tuple[TalentOffer, ...] = Field(
        default=(), description="Talents shelf C may add after its stats, each once per run (R-END-1 Last Will)."
    )
    reroll: ShopReroll = Field(description="Reroll cost.")
    sell_fraction: float = Field(gt=0, le=1, description="A sale refunds this fraction of the price paid.")
    sell_floor: Gold = Field(description="A sale refunds at least this much gold.")

    @field_validator("tier_odds")
    @classmethod
    def _each_tier_once(cls, odds: tuple[TierOdds, ...]) -> tuple[TierOdds, ...]:
        tiers = [entry.tier for entry in odds]
        repeated = sorted({tier for tier in tiers if tiers.count(tier) > 1})
        if repeated:
            raise ValueError(f"lists tier {', '.join(map(str, repeated))} more than once")
        return odds

    @field_validator("stats")
    @classmethod
    def _each_stat_once(cls, stats: tuple[StatOffer, ...]) -> tuple[StatOffer, ...]:
        names = [entry.stat.value for entry in stats]
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise ValueError(f"lists {', '.join(repeated)} more than once")
        return stats

    @field_validator("talents")
    @classmethod
    def _each_talent_once(cls, talents: tuple[TalentOffer, ...]) -> tuple[TalentOffer, ...]:
        names = [entry.talent.value for entry in talents]
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise ValueError(f"lists talent {', '.join(repeated)} more than once")
        return talents

    def spell_price(self, tier: int) -> int:
        """Gold for a spell of `tier` after wave 1."""
        return self.spell_prices[tier - 1]


class BurnSettings(ContentModel):
    """Fire's status: damage over time."""

    dps: float = Field(ge=0, le=MAX_DAMAGE, description="Damage per second while burning (no armor, no resistance).")
    seconds: float = Field(gt=0, le=MAX_SECONDS, description="How long a burn lasts; a new one refreshes it.")


class ChillSettings(ContentModel):
    """Ice's status: a slow; enough chills freeze."""

    slow: Chance = Field(description="Speed multiplier while chilled (0.6 = 60% of its speed).")
    seconds: float = Field(
        gt=0, le=MAX_SECONDS, description="How long a chill lasts; the chill count resets when it runs out."
    )
    to_freeze: int = Field(ge=1, le=255, description="This many chills (each within the last one's duration) freeze.")


class FreezeSettings(ContentModel):
    """A frozen enemy does not move."""

    seconds: float = Field(gt=0, le=MAX_SECONDS, description="How long a freeze lasts.")


class ShockSettings(ContentModel):
    """Lightning's status: takes more damage."""

    multiplier: float = Field(
        ge=1, le=MAX_MULTIPLIER, description="Damage taken while shocked is multiplied by this (1.2 = +20%)."
    )
    seconds: float = Field(gt=0, le=MAX_SECONDS, description="How long a shock lasts.")


class PoisonSettings(ContentModel):
    """Poison's status: stacking damage over time."""

    dps_per_stack: float = Field(ge=0, le=MAX_DAMAGE, description="Damage per second per stack.")
    seconds: float = Field(
        gt=0, le=MAX_SECONDS, description="How long poison lasts; each application adds a stack and refreshes it."
    )
    max_stacks: int = Field(ge=1, le=255, description="Most stacks at once.")


class WetSettings(ContentModel):
    """Water's status: lightning hits harder; fire dries it."""

    seconds: float = Field(gt=0, le=MAX_SECONDS, description="How long wet lasts.")
    lightning_multiplier: float = Field(
        ge=1, le=MAX_MULTIPLIER, description="Lightning on a wet target: damage x this (electrified)."
    )


class AttunementSettings(ContentModel):
    """R-STAT-1: what one attunement point in an element gives."""

    damage_per_point: float = Field(ge=0, le=10, description="Damage bonus per point (0.03 = +3%).")
    chance_per_point: float = Field(
        ge=0, le=1, description="Status chance added per point (0.02 = +2 points of percent)."
    )


class ZoneStatusSettings(ContentModel):
    """How often a damaging zone's element strikes the enemies inside it."""

    status_interval: float = Field(
        gt=0,
        le=MAX_SECONDS,
        description="Seconds between a zone's status rolls (and reactions) on each enemy inside it; its damage ticks every frame.",
    )


class StatusSettings(ContentModel):
    """R-DMG-2 statuses. A hit of an element applies its status (fire burn,
    ice chill, lightning shock, poison poison, water wet) with probability
    `chance[element]` + attunement points x `attunement.chance_per_point`;
    physical has none. The chance is per element, not per spell: a spell's
    element (infusions included) decides its status."""

    chance: dict[Element, Chance] = Field(description="Base status chance per element (elements not named: 0).")
    burn: BurnSettings
    chill: ChillSettings
    freeze: FreezeSettings
    shock: ShockSettings
    poison: PoisonSettings
    wet: WetSettings
    zone: ZoneStatusSettings
    attunement: AttunementSettings

    @field_validator("chance")
    @classmethod
    def _physical_has_no_status(cls, chance: dict[Element, float]) -> dict[Element, float]:
        if chance.get(Element.PHYSICAL, 0.0) != 0.0:
            raise ValueError("physical has no status: leave it out of statuses.chance")
        return chance


class TurnSettings(ContentModel):
    """GAME_RULES §8: a "turn" is a fixed beat of wave time, the same for every core, counted
    from the wave's start (weak durations, self_forming_clay's ward). The core owns the clock."""

    seconds: float = Field(ge=0.05, le=MAX_SECONDS, description="Length of one turn in seconds.")


class CombatSettings(ContentModel):
    """§8's statuses in R-DMG-1's formula: a vulnerable target takes ×`vulnerable_multiplier`
    (applied last, after armor); a weak attacker deals ×`weak_multiplier`."""

    vulnerable_multiplier: float = Field(
        ge=1.0, le=MAX_MULTIPLIER, description="Damage a vulnerable target takes, × (1.5: 50% more)."
    )
    weak_multiplier: float = Field(ge=0.0, le=1.0, description="Damage a weak attacker deals, × (0.75: 25% less).")


#: Most aether one reward pays, and most the file holds (a range, not a goal).
MAX_AETHER = 100_000


class WaveAether(ContentModel):
    """One wave and the aether it pays: a threshold (the highest reached pays, R-META-1) or a milestone
    (paid once, the first time it is reached, R-END-5)."""

    wave: int = Field(ge=1, le=WAVE_COUNT, description="The wave (reached: begun).")
    aether: int = Field(ge=0, le=MAX_AETHER, description="Aether paid (whole fragments).")


class Milestone(WaveAether):
    """R-END-5: a milestone wave: the aether it pays once, and the gold a practice run from it starts with
    (about what the waves before it pay, so the shop before it can make a build that fits the wave)."""

    practice_gold: int = Field(ge=0, le=1_000_000, description="Gold a practice run from this wave starts with.")


class CursedWaves(ContentModel):
    """R-META-1's challenge mode bought with aether: every wave harder, the same waves."""

    unlock_cost: int = Field(ge=1, le=MAX_AETHER, description="Aether it costs on the Unlocks screen (50).")
    enemy_hp_multiplier: float = Field(ge=1, le=MAX_MULTIPLIER, description="Every enemy's and boss's HP × this.")
    elite_every: int = Field(
        ge=1, le=100, description="Every this-many-th spawn group of a wave comes elite (1: all of them)."
    )


class NgPlusClearAether(ContentModel):
    """R-END-2: what a New Game+ clear pays: `aether` the first, `decay` less each time after, never under `minimum`."""

    aether: int = Field(ge=0, le=MAX_AETHER, description="The first NG+ clear's aether (20).")
    decay: float = Field(ge=0, lt=1, description="Fraction less each later NG+ clear pays (0.2: 20%).")
    minimum: int = Field(ge=0, le=MAX_AETHER, description="The least an NG+ clear pays (5).")


#: What an achievement measures: meta.json's progress, a run's kills, or a codex section's entries found.
AchievementMeasure = Literal[
    "best_wave",
    "clears",
    "ng_plus_clears",
    "unlocks",
    "kills_in_run",
    "spells",
    "enemies",
    "bosses",
    "recipes",
    "reactions",
    "relics",
    "potions",
]


class Achievement(ContentModel):
    """R-META-2: an achievement, earned once its measure reaches `value` (its texts: achievement.<id>.name
    and .description)."""

    id: str = Field(pattern=ID_PATTERN, description="Unique id.")
    measure: AchievementMeasure = Field(description="What it counts.")
    value: int = Field(
        ge=0, le=1_000_000, description="The goal (0: all of them — every entry of the section, every unlock)."
    )


class MetaSettings(ContentModel):
    """R-META-1, R-END-2, R-END-5: aether, the rewards at a run's end, and the challenge mode."""

    aether_by_wave: tuple[WaveAether, ...] = Field(
        min_length=1, max_length=WAVE_COUNT, description="Thresholds: a run pays the highest one it reached."
    )
    milestones: tuple[Milestone, ...] = Field(
        max_length=WAVE_COUNT,
        description="Paid once each, the first run that reaches the wave; they unlock practice there.",
    )
    first_clear_aether: int = Field(ge=0, le=MAX_AETHER, description="The first clear of the game pays this (30).")
    ng_plus_clear: NgPlusClearAether = Field(description="What a New Game+ clear pays.")
    cursed_waves: CursedWaves = Field(description="The cursed-waves challenge mode.")
    achievements: tuple[Achievement, ...] = Field(max_length=1_000, description="R-META-2: the achievements list.")

    @field_validator("achievements")
    @classmethod
    def _unique_achievements(cls, value: tuple[Achievement, ...]) -> tuple[Achievement, ...]:
        ids = [a.id for a in value]
        if len(set(ids)) != len(ids):
            raise ValueError(f"achievement ids must be unique (found {sorted(i for i in ids if ids.count(i) > 1)})")
        return value

    @field_validator("aether_by_wave", "milestones")
    @classmethod
    def _waves_ascend(cls, value: tuple[WaveAether, ...]) -> tuple[WaveAether, ...]:  # milestones too
        waves = [entry.wave for entry in value]
        if waves != sorted(set(waves)):
            raise ValueError(f"waves must rise, each once (found {waves})")
        return value


#: The deepest endless wave a run may reach (R-END-3: "no cap" in difficulty, a bound for memory).
MAX_ENDLESS_WAVE = 1_000


class EndlessAddition(ContentModel):
    """R-END-3's widening mix: from `from_wave` on, every endless wave also sends `group`."""

    from_wave: int = Field(ge=WAVE_COUNT + 1, le=MAX_ENDLESS_WAVE, description="The first endless wave it joins.")
    group: SpawnGroup = Field(description="The spawn group it adds (its count scales like the others).")


#: R-END-3: the global mutators the game has (texts mutator.<id>.name and .description).
MutatorId = Literal["elite_flood", "mirror_world", "splitting", "shrinking_map", "mana_inversion"]


class Mutator(ContentModel):
    """R-END-3: one global mutator of the cycle."""

    id: MutatorId = Field(
        description=(
            "elite_flood: every enemy comes elite; mirror_world: a shot's first hit turns it back toward the "
            "player; splitting: enemies split once on death; shrinking_map: the arena's sides shrink; "
            "mana_inversion: a cast's delay becomes a bonus."
        )
    )


class Splitting(ContentModel):
    """Splitting monsters: a dying enemy (not a boss) leaves `count` of its kind at `hp` of its max HP."""

    count: int = Field(ge=1, le=16, description="Copies each death leaves.")
    hp: float = Field(gt=0, le=1, description="A copy's HP as a share of the dying enemy's max HP (0.5: half).")
    spread: float = Field(ge=0, le=200, description="px from where it died.")


class Shrinking(ContentModel):
    """Shrinking map: each time it becomes active each side is `step` shorter than the last time, at least `floor`."""

    step: float = Field(gt=0, lt=1, description="The share each side loses each time (0.2: −20%).")
    floor: float = Field(ge=0.25, le=1, description="The smallest side, as a share of the arena's (0.5: half).")


class Inversion(ContentModel):
    """Mana inversion: a cast delay d becomes pivot² / d (the longer, the faster), at most `ceiling` seconds."""

    pivot: float = Field(gt=0, le=5, description="Seconds of delay that stay as they are.")
    ceiling: float = Field(gt=0, le=10, description="The longest inverted delay, seconds.")


class Mutators(ContentModel):
    """R-END-3: every `every` waves past the last, the next mutator of `cycle` is active (replacing the last)."""

    every: int = Field(ge=1, le=100, description="Waves between mutators (10: W30, W40…).")
    cycle: tuple[Mutator, ...] = Field(max_length=16, description="The mutators in the order they come, cycled.")
    splitting: Splitting = Field(description="Splitting monsters' numbers.")
    shrinking_map: Shrinking = Field(description="Shrinking map's numbers.")
    mana_inversion: Inversion = Field(description="Mana inversion's numbers.")


class BossRush(ContentModel):
    """R-END-3: every `every` waves past the last, a boss rush — `bosses` bosses in a row from those the run met."""

    every: int = Field(ge=1, le=100, description="Waves between boss rushes (20: W40, W60…).")
    bosses: int = Field(ge=1, le=10, description="Bosses in a row (each comes when the last falls).")
    gap: float = Field(ge=0, le=30, description="Seconds between one boss's fall and the next one's coming.")
    aether: int = Field(ge=0, le=1000, description="Aether a rush cleared pays (at the run's end).")
    cards: int = Field(ge=1, le=5, description="Cards of `card_tier` a rush cleared gives (R-END-3: at least 1).")
    card_tier: int = Field(ge=1, le=5, description="Their tier (3).")


class Endless(ContentModel):
    """R-END-3: the waves after the last, generated from the content's own waves."""

    templates: tuple[Annotated[int, Field(ge=1, le=WAVE_COUNT)], ...] = Field(
        min_length=1, max_length=WAVE_COUNT, description="Waves of waves.json (no boss waves) the endless waves cycle."
    )
    difficulty_step: float = Field(
        gt=0,
        le=10,
        description="Every `step_every` waves past the last, enemy HP and damage gain this share (0.1: +10%).",
    )
    step_every: int = Field(ge=1, le=100, description="Waves per difficulty step.")
    max_group_count: int = Field(ge=1, le=10_000, description="The most enemies one spawn of a group may send.")
    additions: tuple[EndlessAddition, ...] = Field(
        max_length=64, description="Groups the endless waves gain, wave by wave."
    )
    max_wave: int = Field(ge=WAVE_COUNT + 1, le=MAX_ENDLESS_WAVE, description="The deepest endless wave.")
    mutators: Mutators = Field(description="The global mutators of the deep waves.")
    boss_rush: BossRush = Field(description="The boss rushes of the deep waves.")


class OnboardingStep(ContentModel):
    """R-ONB-1: what one of a player's first runs opens (the run after the last step opens everything)."""

    run: int = Field(ge=1, le=100, description="The player's run number this step is (1: the first run).")
    lab: bool = Field(description="The lab opens (false: the shop sells no cards and no cores, and has no Lab).")
    dash: bool = Field(description="The dash answers (false: movement only).")
    potions: bool = Field(description="Potions can be drunk (false: movement only).")
    spell_tiers: tuple[Annotated[int, Field(ge=1, le=5)], ...] = Field(
        max_length=5, description="The tiers of the actions the shop may offer."
    )
    core_tiers: tuple[Annotated[int, Field(ge=1, le=5)], ...] = Field(
        max_length=5, description="The tiers of the cores the shop may offer."
    )
    spells: tuple[str, ...] = Field(
        max_length=100, description="Spell ids offered besides those actions (the first modifier, the first trigger)."
    )
    lesson: str | None = Field(
        default=None, pattern=ID_PATTERN, description="The lesson this run teaches (ui.onboarding.lesson.<id>.*)."
    )
    demo: tuple[str | None, ...] = Field(
        default=(),
        max_length=64,
        description="Cards on the starting wand's core that the lab plays on the range once, as the lesson shows.",
    )


class Onboarding(ContentModel):
    """R-ONB-1: the first runs, step by step."""

    steps: tuple[OnboardingStep, ...] = Field(max_length=20, description="One per run, from run 1, in order.")

    @field_validator("steps")
    @classmethod
    def _runs_in_order(cls, value: tuple[OnboardingStep, ...]) -> tuple[OnboardingStep, ...]:
        runs = [step.run for step in value]
        if runs != list(range(1, len(runs) + 1)):
            raise ValueError(f"the steps' runs must be 1, 2, 3… in order (found {runs})")
        return value


class ReplaySettings(ContentModel):
    """Replays (issue 19, R-SAVE-2): a replay file is a shared file, so what reading one may cost is
    bounded before it is parsed."""

    max_frames: int = Field(
        ge=MAX_WAVE_FRAMES,
        le=MAX_REPLAY_FRAMES,
        description=(
            "The most steps a replay's waves may hold, all waves together; a file with more is refused "
            "in one line before any of it is decompressed (its controls may decompress to at most this "
            "many frames: 24 bytes a frame). At least one longest wave (MAX_WAVE_FRAMES)."
        ),
    )


class Balance(ContentModel):
    """balance.json: the global tuning numbers."""

    arena: Arena = Field(description="The playfield.")
    sim: Sim = Field(description="Simulation settings.")
    capacities: Capacities = Field(description="Core pool sizes.")
    player: PlayerStats = Field(description="Starting player stats.")
    pickups: PickupSettings = Field(description="Pickup magnet and collection.")
    wave: WaveTiming = Field(description="Timing shared by all waves.")
    elite: Elite = Field(description="Elite enemy multipliers.")
    vm: VmSettings = Field(description="Spell VM settings.")
    starting_wand: StartingWand = Field(description="The wand a run starts with (R-ONB-1).")
    training_range: TrainingRange = Field(description="The lab's training range (R-LAB-1).")
    loadout: LoadoutLimits = Field(description="Carried cores and the waiting area (R-CORE-3).")
    shop: ShopSettings = Field(description="The shop between waves (R-SHOP-1, R-CORE-3, R-STAT-1).")
    statuses: StatusSettings = Field(description="R-DMG-2 statuses and reactions, R-STAT-1 attunement.")
    turn: TurnSettings = Field(description="The turn beat of relics and potions (§8).")
    combat: CombatSettings = Field(description="Vulnerable and weak in the damage formula (R-DMG-1, §8).")
    ng_plus: NgPlusSettings = Field(description="New Game+ levels: their multipliers and the highest (R-END-2).")
    meta: MetaSettings = Field(description="Aether, run-end rewards and the challenge mode (R-META-1, R-END-5).")
    onboarding: Onboarding = Field(description="The first runs, step by step (R-ONB-1).")
    endless: Endless = Field(description="The waves after the last (R-END-3).")
    replay: ReplaySettings = Field(description="What a replay file read may hold (issue 19, R-SAVE-2).")


# --- enemies.json -----------------------------------------------------------


# Most children one split may make (the core's `MAX_SPLIT`).
MAX_SPLIT = 16


class EnemyAttack(ContentModel):
    """An archer's shots and the distance band it keeps (behavior keep_distance)."""

    every: float = Field(
        ge=0.01, le=MAX_SECONDS, description="Seconds between shots; the first comes this long after spawning."
    )
    speed: float = Field(gt=0, le=MAX_SPEED, description="Shot speed in px/s.")
    damage: float = Field(ge=0, le=MAX_DAMAGE, description="Shot damage to the player (before the player's armor).")
    radius: float = Field(gt=0, le=MAX_ENEMY_RADIUS, description="Shot radius in px.")
    lifetime: float = Field(
        gt=0,
        le=MAX_SECONDS,
        description="Seconds a shot flies; it shoots only when the player is within speed x lifetime.",
    )
    min_distance: float = Field(ge=0, le=MAX_DISTANCE, description="Closer to the player than this (px), it backs off.")
    max_distance: float = Field(
        gt=0, le=MAX_DISTANCE, description="Farther from the player than this (px), it approaches."
    )
    strafe: Chance = Field(description="Sideways share of its speed, 0 (none) to 1 (full speed sideways).")

    @field_validator("max_distance")
    @classmethod
    def _band_is_ordered(cls, max_distance: float, info: ValidationInfo) -> float:
        min_distance = info.data.get("min_distance")
        if min_distance is not None and max_distance <= min_distance:
            raise ValueError(f"must be greater than min_distance ({min_distance:g})")
        return max_distance


class EnemyShield(ContentModel):
    """A reflector's frontal shield (behavior shield, R-WAVE-1)."""

    arc: float = Field(
        gt=0, le=360, description="Width of the frontal arc in degrees, centred on the direction to the player."
    )
    reflect_damage: float = Field(
        ge=0, le=MAX_MULTIPLIER, description="A reflected shot's damage as a share of the original's."
    )


class EnemyBlast(ContentModel):
    """An exploder's death blast (behavior explode): hurts the player and other enemies."""

    radius: float = Field(
        gt=0, le=MAX_AREA_RADIUS, description="Reach in px from where it died (to the centres of what it hits)."
    )
    damage: float = Field(
        ge=0, le=MAX_DAMAGE, description="Damage, through each target's armor and resistances (R-DMG-1)."
    )
    element: Element = Field(description="Element of the damage.")


class EnemySplit(ContentModel):
    """A splitter's death (behavior split): children that never split again."""

    into: str = Field(pattern=ID_PATTERN, description="Id of the children's enemy kind in enemies.json.")
    count: int = Field(ge=1, le=MAX_SPLIT, description="Children per split.")
    spread: float = Field(ge=0, le=MAX_AREA_RADIUS, description="Distance in px from where it died to each child.")


# Each behaviour with a block of numbers, and the block's field name.
BEHAVIOR_BLOCKS = {
    Behavior.KEEP_DISTANCE: "attack",
    Behavior.SHIELD: "shield",
    Behavior.EXPLODE: "explode",
    Behavior.SPLIT: "split",
}


class Enemy(ContentModel):
    """One enemy kind of the R-WAVE-2 roster."""

    id: str = Field(pattern=ID_PATTERN, description="Unique id, named by wave groups.")
    hp: float = Field(gt=0, le=MAX_HP, description="Hit points.")
    speed: float = Field(ge=0, le=MAX_SPEED, description="Movement speed in px/s.")
    radius: float = Field(gt=0, le=MAX_ENEMY_RADIUS, description="Collision radius in px.")
    contact_damage: float = Field(ge=0, le=MAX_DAMAGE, description="Damage dealt to the player on touch.")
    armor: float = Field(ge=0, le=MAX_DAMAGE, description="Flat damage subtracted from every hit (R-DMG-1).")
    resistances: dict[Element, Resistance] = Field(
        default_factory=dict,
        description="Resistance per element, 0 (none) to 1 (immune); a missing element means 0.",
    )
    reward: Gold = Field(description="Gold dropped on death.")
    behavior: Behavior = Field(description="How the enemy moves and fights.")
    # Declared after `behavior` so that their check can see it.
    attack: EnemyAttack | None = Field(
        default=None, validate_default=True, description="Shots and distance band; required for keep_distance."
    )
    shield: EnemyShield | None = Field(
        default=None, validate_default=True, description="Frontal reflecting shield; required for shield."
    )
    explode: EnemyBlast | None = Field(
        default=None, validate_default=True, description="Death blast; required for explode."
    )
    split: EnemySplit | None = Field(
        default=None, validate_default=True, description="Children on death; required for split."
    )

    @field_validator("attack", "shield", "explode", "split")
    @classmethod
    def _block_matches_behavior(cls, block: object, info: ValidationInfo) -> object:
        behavior = info.data.get("behavior")
        name = info.field_name
        if behavior is None or name is None:
            return block  # the behaviour is broken, and already reported
        wanted = BEHAVIOR_BLOCKS.get(behavior)
        if wanted == name and block is None:
            raise ValueError(f'behavior "{behavior}" requires {_a(name)} {name} block')
        if wanted != name and block is not None:
            owner = next(b for b, field in BEHAVIOR_BLOCKS.items() if field == name)
            raise ValueError(f'only behavior "{owner}" takes {_a(name)} {name} block (this enemy is "{behavior}")')
        return block

    def resistance(self, element: Element) -> float:
        """This enemy's resistance to `element` (0 when the file does not name it)."""
        return self.resistances.get(element, 0.0)

    @property
    def is_resistant(self) -> bool:
        """Whether any element is resisted at all."""
        return any(value > 0 for value in self.resistances.values())


def _a(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


class EnemyRoster(ContentModel):
    """enemies.json: the enemy kinds, in the order the core numbers them."""

    enemies: tuple[Enemy, ...] = Field(
        min_length=1, max_length=1_000, description="Every enemy kind; file order is the kind index."
    )


# --- waves.json -------------------------------------------------------------


class SpawnGroup(ContentModel):
    """A repeating spawn: `count` enemies at once at t = start, start + every, ... while t < until."""

    enemy: str = Field(pattern=ID_PATTERN, description="Id of an enemy in enemies.json.")
    count: int = Field(ge=1, le=10_000, description="Enemies spawned together each time (at most capacities.enemies).")
    start: float = Field(ge=0, le=MAX_SECONDS, description="Time of the first spawn, in s from the wave's start.")
    every: float = Field(ge=0.01, le=MAX_SECONDS, description="Seconds between spawns (at least 0.01).")
    until: float = Field(
        gt=0, le=MAX_SECONDS, description="No spawn at or after this time, in s; at most the wave's duration."
    )
    elite: bool = Field(default=False, description="Spawn elite versions (tougher, richer).")

    @field_validator("until")
    @classmethod
    def _until_after_start(cls, until: float, info: ValidationInfo) -> float:
        start = info.data.get("start")
        if start is not None and until <= start:
            raise ValueError(f"must be later than start ({start:g})")
        return until

    def bursts(self) -> int:
        """How many times this group spawns: the n with start + k × every < until for k < n,
        counted without listing them (so a tiny `every` cannot run out of memory here)."""
        if self.until <= self.start:
            return 0
        n = max(0, math.ceil((self.until - self.start) / self.every))
        while n > 0 and self.start + (n - 1) * self.every >= self.until:
            n -= 1
        while self.start + n * self.every < self.until:
            n += 1
        return n

    def spawn_times(self) -> tuple[float, ...]:
        """The times (s from the wave's start) at which this group spawns."""
        return tuple(self.start + step * self.every for step in range(self.bursts()))

    def total_enemies(self) -> int:
        """How many enemies this group spawns over the wave."""
        return self.count * self.bursts()


class Wave(ContentModel):
    """One wave of R-WAVE-1: its number, length and spawn groups."""

    wave: int = Field(ge=1, le=WAVE_COUNT, description="Wave number, 1-based; waves are listed in order.")
    duration: float = Field(
        gt=0,
        le=MAX_SECONDS,
        description="Wave length in s; duration × balance.json sim.tick_hz is at most MAX_WAVE_FRAMES (36,000) frames (boss waves last until the boss dies).",
    )
    groups: tuple[SpawnGroup, ...] = Field(min_length=1, max_length=256, description="The spawn groups of this wave.")
    boss: bool = Field(
        default=False,
        description="R-REL-3: a boss wave; winning it gives relics.json boss_bonus_relics relics besides an elite wave's one.",
    )
    enemy_hp: float = Field(
        default=1.0,
        ge=0.1,
        le=MAX_MULTIPLIER,
        description="R-WAVE-1, R-CURVE-3: every enemy's and boss's HP in this wave × this (the threat grows with the wave).",
    )
    enemy_damage: float = Field(
        default=1.0,
        ge=0.1,
        le=MAX_MULTIPLIER,
        description="R-WAVE-1, R-CURVE-3: every enemy's and boss's damage in this wave (contact, shots, blasts) × this.",
    )

    def total_enemies(self) -> int:
        """How many enemies the wave spawns in total."""
        return sum(group.total_enemies() for group in self.groups)

    def enemy_ids(self) -> frozenset[str]:
        """The ids of every enemy kind this wave spawns."""
        return frozenset(group.enemy for group in self.groups)


class WaveSchedule(ContentModel):
    """waves.json: the 20 waves of a run, in order."""

    waves: tuple[Wave, ...] = Field(description=f"Exactly {WAVE_COUNT} waves numbered 1..{WAVE_COUNT}.")


# --- problems ---------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the content: which file, where in it (JSON path), and why."""

    file: str
    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.file}: {self.path}: {self.reason}"


def closest_name(name: str, known: Sequence[str]) -> str | None:
    """The known name a typo most likely meant: a near spelling, else one that starts the same way."""
    if not name:
        return None
    close = difflib.get_close_matches(name, known, n=1)
    if close:
        return close[0]
    sharing_start = [candidate for candidate in known if name.startswith(candidate) or candidate.startswith(name)]
    return max(sharing_start, key=len) if sharing_start else None


def did_you_mean(name: str, known: Sequence[str]) -> str:
    """'; did you mean "x"?' for a likely typo of a known name, else ''."""
    suggestion = closest_name(name, known)
    return f'; did you mean "{suggestion}"?' if suggestion is not None else ""


class ContentError(ArtificerError):
    """The content is bad; `problems` lists every problem found, in file order."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        count = len(self.problems)
        header = f"{count} content problem{'s' if count != 1 else ''}"
        super().__init__("\n".join([header, *(str(problem) for problem in self.problems)]))
