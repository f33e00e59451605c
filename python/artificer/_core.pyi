"""Type stubs of the Rust extension `artificer._core` (checked against the
built module by `mypy.stubtest` in `make test`).

Every argument is checked at the boundary (issue 13, DESIGN errors): a value
out of its range is a `CoreArgumentError` (a `ValueError`) naming the
argument, the value and the range, never a panic nor an `OverflowError`, and
nothing is changed. Floats must be finite and within the bounds of
rust/sim/limits.rs (amounts 1e9, coordinates 1e9 px, speeds 1e6 px/s, radii
1e6 px, seconds 1e6, factors 1e4); integers any Python int, refused outside
their range (counts 0..=10**6, kinds and looks 16 bits); a bool is refused
where an integer, a seed, a config's or a catalog's number or a
`PlayerStats` / `RelicRules` number is due; `threads` 1..=`MAX_THREADS`; a
config's unknown key is refused, at any depth; batches (`spawn_enemies`,
`spawn_projectiles`, a frame's commands) apply all or nothing."""

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "Catalog",
    "PlayerStats",
    "RelicRules",
    "SpriteRasterizer",
    "WandSandbox",
    "World",
    "HeadlessBooks",
    "kite",
    "pack_offsets",
    "nearest_row",
    "repel",
    "__version__",
    "CONTROLS_WIDTH",
    "COMMAND_WIDTH",
    "ENEMY_COLUMNS",
    "PROJECTILE_COLUMNS",
    "PICKUP_COLUMNS",
    "EVENT_COLUMNS",
    "ZONE_COLUMNS",
    "SUMMON_COLUMNS",
    "PLAYER_WIDTH",
    "ENEMY_FLAG_ELITE",
    "ENEMY_FLAG_VULNERABLE",
    "ENEMY_FLAG_WEAK",
    "ENEMY_FLAG_BURNING",
    "ENEMY_FLAG_CHILLED",
    "ENEMY_FLAG_FROZEN",
    "ENEMY_FLAG_SHOCKED",
    "ENEMY_FLAG_POISONED",
    "ENEMY_FLAG_WET",
    "ENEMY_FLAG_HIT",
    "RNG_STREAMS",
    "MAX_THREADS",
    "LAYOUTS",
    "OPS",
    "STATUSES",
    "EVENT_KINDS",
    "REACTIONS",
    "BOSS_PATTERNS",
    "RELIC_RULES",
    "RELIC_RULE_SPECS",
    "ENEMY_FLAGS",
]
__version__: str

def nearest_row(rows: npt.NDArray[np.float32], x: float, y: float) -> int | None:
    """The number of the row of `rows` (a frame buffer's rows: float32, C-contiguous, x and y their
    first two columns) nearest (x, y) — by hypot in f64, the first of equals —, or None for no rows;
    for tools such as the headless bot, not used by the step."""

def repel(rows: npt.NDArray[np.float32], x: float, y: float, radius: float) -> tuple[float, float, float]:
    """(push_x, push_y, nearest): the rows (as for `nearest_row`) closer than `radius` push away from
    their points, each along (x, y) minus its point weighted (radius - d) / radius / max(d, 1), summed
    in row order; nearest is the smallest distance of all rows (hypot in f64; inf for none)."""

def kite(
    enemies: npt.NDArray[np.float32],
    pickups: npt.NDArray[np.float32],
    x: float,
    y: float,
    dash_cooldown: float,
    arena: tuple[float, float],
    tuning: tuple[float, float, float, float, float, float],
) -> tuple[tuple[float, float] | None, bool]:
    """The headless kiting bot's move (None: stand) and dash this frame, from a frame's enemy and
    pickup rows (as for `nearest_row`), the player's point and dash cooldown, the arena and the bot's
    tuning (danger, panic, safe, wall_margin, wall_weight, pickup_weight)."""

def pack_offsets(count: int) -> tuple[list[float], list[float]]:
    """The offsets (dxs, dys) of a landing pack of `count` members from its marker, in member order:
    the sunflower spiral the wave director and the core's headless landings share."""

CONTROLS_WIDTH: int
COMMAND_WIDTH: int
ENEMY_COLUMNS: int
PROJECTILE_COLUMNS: int
PICKUP_COLUMNS: int
EVENT_COLUMNS: int
ZONE_COLUMNS: int
SUMMON_COLUMNS: int
PLAYER_WIDTH: int
ENEMY_FLAG_ELITE: int
ENEMY_FLAG_VULNERABLE: int
ENEMY_FLAG_WEAK: int
ENEMY_FLAG_BURNING: int
ENEMY_FLAG_CHILLED: int
ENEMY_FLAG_FROZEN: int
ENEMY_FLAG_SHOCKED: int
ENEMY_FLAG_POISONED: int
ENEMY_FLAG_WET: int
ENEMY_FLAG_HIT: int
#: R-SAVE-1: the length of `World.rng_state()`.
RNG_STREAMS: int
#: The most worker threads `World.set_threads` and `SpriteRasterizer` take: 4 × this
#: machine's cores, at least 8 (rust/sim/limits.rs `max_threads`).
MAX_THREADS: int
# The frame contract (rust/sim/contract.rs; `artificer.engine` builds its enums from these):
#: Each buffer of `World.step` and its ordered column names: controls, commands, enemies,
#: projectiles, pickups, zones, summons, player, events.
LAYOUTS: Mapping[str, tuple[str, ...]]
#: Name → value: command ops, statuses, event kinds, reactions (an ELEMENT_REACTION's `a`),
#: relic rules (a RELIC event's `a`), enemy flags (bits of an enemy row's `flags`).
OPS: Mapping[str, int]
STATUSES: Mapping[str, int]
EVENT_KINDS: Mapping[str, int]
REACTIONS: Mapping[str, int]
#: R-BOSS-3: a BOSS_TELEGRAPH's `a`, a boss status telegraph's `pattern`.
BOSS_PATTERNS: Mapping[str, int]
RELIC_RULES: Mapping[str, int]

class _RelicParamSpec(TypedDict):
    """A relic rule's parameter: a second number it acts with, a keyword of `RelicRules` of its own."""

    #: the `RelicRules` keyword (the rule's name and the field's: "heal_when_low_threshold")
    name: str
    #: the relics.json field of the relic that sets it ("seconds", "threshold")
    field: str
    #: the largest value the core takes (from 0)
    most: float
    #: how the parameters of several relics of the rule combine: "min" or "max"
    combine: str

class _RelicRuleSpec(TypedDict):
    """One relic rule of the core (rust/sim/relics.rs `relic_rules!`)."""

    #: the RELIC event's `a` when it acts (a value of RELIC_RULES)
    event: int
    #: a count (whole number) rather than a float
    whole: bool
    #: the largest value the core takes
    most: float
    #: the relics.json hook its relics act on
    hook: str
    #: how several relics of it combine: "sum", "min" or "max"
    combine: str
    #: its parameter (blood_vial's moment, meat_on_bone's threshold), or None
    param: _RelicParamSpec | None

#: The core's relic rules by name (= the relics.json effect that sets each), in its order.
RELIC_RULE_SPECS: Mapping[str, _RelicRuleSpec]
ENEMY_FLAGS: Mapping[str, int]

@final
class PlayerStats:
    """R-STAT-1: the player's bonuses on top of balance.json `player`, checked when built
    (each finite and >= 0; at most 1e4 for move_speed_bonus, 1e6 px for pickup_radius_bonus,
    1e9 for the rest), else `CoreArgumentError`. Frozen; equal when every field is."""

    def __new__(
        cls,
        *,
        max_hp_bonus: float = 0.0,
        armor: float = 0.0,
        move_speed_bonus: float = 0.0,
        crit_chance_bonus: float = 0.0,
        pickup_radius_bonus: float = 0.0,
        mana_regen_bonus: float = 0.0,
        mana_leech: float = 0.0,
        mana_max_bonus: float = 0.0,
    ) -> PlayerStats: ...
    @property
    def max_hp_bonus(self) -> float: ...
    @property
    def armor(self) -> float: ...
    @property
    def move_speed_bonus(self) -> float: ...
    @property
    def crit_chance_bonus(self) -> float: ...
    @property
    def pickup_radius_bonus(self) -> float: ...
    @property
    def mana_regen_bonus(self) -> float: ...
    @property
    def mana_leech(self) -> float: ...
    @property
    def mana_max_bonus(self) -> float: ...
    def __eq__(self, value: object, /) -> bool: ...

@final
class RelicRules:
    """R-REL-1/2: the relic rules the core runs, by keyword, one per rule of `RELIC_RULE_SPECS` and
    one per rule's parameter (its `param`'s `name`); all 0 = off. Checked when built (a count a
    whole number, a float finite, each in 0..=its `most`; an unknown rule refused), else
    `CoreArgumentError`. Read back as attributes (an int for a count). Frozen; equal when every
    rule is."""

    def __new__(cls, **rules: float) -> RelicRules: ...
    def __getattr__(self, name: str) -> float: ...
    def __eq__(self, value: object, /) -> bool: ...

@final
class HeadlessBooks:
    """A wave's numbers as `World.play_bot` keeps them between the frames Python sees."""

    frames: int
    kills: int
    spawned: int
    damage_dealt: float
    damage_taken: float
    taken: list[float]
    seen: list[int]
    picked: float
    max_alive: int
    alive: int
    biggest_hit: float
    last_will: bool
    died: bool
    starved: bool
    out_of_mana_frames: int
    empty_stretch: int
    empty_frames: int
    fang_kills: int
    def __init__(self) -> None: ...

@final
class World:
    """The simulation: pools, grid, combat, the wand. One `step` per tick."""

    def __new__(cls, config: Mapping[str, Any], seed: int) -> World: ...
    def step(
        self,
        controls: npt.NDArray[np.float32],
        commands: npt.NDArray[np.float64],
        n_commands: int,
        enemies: npt.NDArray[np.float32],
        projectiles: npt.NDArray[np.float32],
        pickups: npt.NDArray[np.float32],
        player: npt.NDArray[np.float64],
        events: npt.NDArray[np.float64],
        zones: npt.NDArray[np.float32],
        summons: npt.NDArray[np.float32],
    ) -> tuple[int, int, int, int, int, float, int, int]: ...
    def write_frame(
        self,
        enemies: npt.NDArray[np.float32],
        projectiles: npt.NDArray[np.float32],
        pickups: npt.NDArray[np.float32],
        player: npt.NDArray[np.float64],
        events: npt.NDArray[np.float64],
        zones: npt.NDArray[np.float32],
        summons: npt.NDArray[np.float32],
    ) -> None: ...
    # Issue 44: a tick as `step` takes it, then the headless kiting bot's ticks in the core, the
    # wave's books kept in `books`; (frames, stop, the last tick's counts, the buffers' rows before
    # its growth, a heal queued for the next frame, the pack members the cap kept from the
    # `landings` that landed). See `World.play_bot`'s docstring.
    def play_bot(
        self,
        controls: npt.NDArray[np.float32],
        commands: npt.NDArray[np.float64],
        n_commands: int,
        limit: int,
        tuning: tuple[float, float, float, float, float, float],
        arena: tuple[float, float],
        caps: tuple[int, int, int, int, int, int],
        pacing: tuple[int, int],
        fang: tuple[int, float],
        drink_below: float | None,
        boss_kind: int | None,
        books: HeadlessBooks,
        landings: list[tuple[float, int, int, bool, float, float]],
        max_alive: int | None,
    ) -> tuple[
        int, str, tuple[int, int, int, int, int, float, int, int], tuple[int, int, int, int, int, int], float, int
    ]: ...
    def read_events(self, events: npt.NDArray[np.float64], start: int) -> int: ...
    def tally_events(self) -> tuple[list[int], list[float], list[float]]: ...
    def clear_wand(self) -> None: ...
    def set_spell_wand(
        self, catalog: Catalog, core: Mapping[str, Any], cards: Sequence[str | None], trace: bool = False
    ) -> dict[str, Any]: ...
    def begin_wave(self) -> None: ...
    def set_wand_stats(self, cpu: int, cast_speed: float, accuracy: float) -> None: ...
    def set_rules(self, rules_dict: Mapping[str, bool]) -> None: ...
    def set_attunement(self, points: dict[str, float]) -> None: ...
    def attunement(self) -> dict[str, float]: ...
    def set_player_stats(self, stats: PlayerStats) -> None: ...
    # The player's current stats after the bonuses (armor, move_speed px/s, crit_chance,
    # pickup_radius px, mana_regen, mana_leech, mana_max): not the bonuses `set_player_stats` took.
    def player_stats(self) -> dict[str, float]: ...
    # R-STAT-2: what the armed wand makes of the stats (mana_max, mana_regen of the pool,
    # cast_speed, wait_factor, accuracy, spread_factor, cpu_limit, step_budget); None unarmed.
    def wand_figures(self) -> dict[str, float] | None: ...
    # R-DMG-1: what a touch of `damage` takes off the player now (its armor applied).
    def hit_taken(self, damage: float) -> float: ...
    def set_threads(self, threads: int) -> None: ...
    @property
    def threads(self) -> int: ...
    def set_player_position(self, x: float, y: float) -> None: ...
    def spawn_enemies(
        self, kind: int, x: npt.NDArray[np.float32], y: npt.NDArray[np.float32], elite: bool = False
    ) -> int: ...
    def spawn_projectiles(
        self,
        x: npt.NDArray[np.float32],
        y: npt.NDArray[np.float32],
        vx: npt.NDArray[np.float32],
        vy: npt.NDArray[np.float32],
        radius: float,
        damage: float,
        pierce: int,
    ) -> int: ...
    # R-SAVE-1: what a run's save carries into a fresh world between waves. The streams'
    # positions (`RNG_STREAMS` counts: crit); HP and max HP
    # (0 < hp <= hp_max); a program wand's (cursor, [A, B], counters, kills), R-VM-12,
    # R-REG-1. Bad values raise `CoreArgumentError`.
    def rng_state(self) -> list[int]: ...
    def set_rng_state(self, state: Sequence[int]) -> None: ...
    def set_last_will(self, armed: bool) -> None: ...
    def set_relic_rules(self, rules: RelicRules) -> None: ...
    def relic_rules(self) -> RelicRules: ...
    def boss_status(self) -> list[dict[str, Any]]: ...
    @property
    def turn_seconds(self) -> float: ...
    @property
    def turn(self) -> int: ...
    def set_strength(self, value: float) -> None: ...
    @property
    def strength(self) -> float: ...
    @property
    def last_will(self) -> bool: ...
    def player_hp(self) -> tuple[float, float]: ...
    def set_player_hp(self, hp: float, hp_max: float) -> None: ...
    def player_position(self) -> tuple[float, float]: ...
    def wand_memory(self) -> tuple[int, list[int], list[int], int] | None: ...
    def set_wand_memory(self, cursor: int, registers: Sequence[int], counters: Sequence[int], kills: int) -> None: ...
    def state_hash(self) -> int: ...
    @property
    def frame(self) -> int: ...
    @property
    def enemy_count(self) -> int: ...
    @property
    def projectile_count(self) -> int: ...

@final
class Catalog:
    """Spells (file order = spell index) and resonance recipes; compiles wands."""

    def __new__(
        cls,
        spells: Sequence[Mapping[str, Any]],
        recipes: Sequence[Mapping[str, Any]],
        vm: Mapping[str, Any],
    ) -> Catalog: ...
    @property
    def spell_ids(self) -> list[str]: ...
    def compile(self, core: Mapping[str, Any], cards: Sequence[str | None], cpu: int = 0) -> dict[str, Any]: ...
    def timeline(
        self,
        core: Mapping[str, Any],
        cards: Sequence[str | None],
        cpu: int = 0,
        moving: bool = False,
        hp: float = 100.0,
        hp_max: float = 100.0,
        nearest_enemy: float = 64.0,
        cast_speed: float = 0.0,
        mana_regen: float = 0.0,
        mana_max: float = 0.0,
        damage: Mapping[str, float] | None = None,
        crit_chance: float = 0.0,
        crit_multiplier: float = 1.0,
    ) -> dict[str, Any]: ...
    def sandbox(
        self, core: Mapping[str, Any], cards: Sequence[str | None], mana: float | None = None, seed: int = 0
    ) -> WandSandbox: ...

@final
class WandSandbox:
    """A compiled wand firing into nothing: what each cast fires and costs."""

    @property
    def mana(self) -> float: ...
    def wait(self, seconds: float) -> None: ...
    def cast(
        self, moving: bool = False, hp: float = 100.0, hp_max: float = 100.0, nearest_enemy: float = 64.0
    ) -> dict[str, Any]: ...

@final
class SpriteRasterizer:
    """Draws layers of sprites (frame-buffer rows) into a window surface's
    pixels: culled, clipped, premultiplied source-over, GIL released.
    Bad arguments raise `CoreArgumentError`."""

    def __new__(cls, sprites: Sequence[npt.NDArray[np.uint8]], threads: int = 1) -> SpriteRasterizer: ...
    @property
    def sprite_count(self) -> int: ...
    @property
    def threads(self) -> int: ...
    def set_threads(self, threads: int) -> None: ...
    @staticmethod
    def supports(bytes_per_pixel: int, masks: tuple[int, int, int, int]) -> bool: ...
    def draw(
        self,
        pixels: npt.NDArray[np.uint8],
        size: tuple[int, int],
        pitch: int,
        masks: tuple[int, int, int, int],
        offset: tuple[float, float],
        layers: Sequence[tuple[npt.NDArray[np.float32], int | npt.NDArray[np.int32]]],
    ) -> int: ...
