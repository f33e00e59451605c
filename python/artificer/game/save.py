"""The run in progress, saved between waves (R-SAVE-1) — `run.json`, no pygame.

This module owns the file's schema (`RunSave`, versioned with `MIGRATIONS`, a
range on every field, checked against the content on load) and the file:
writing it (`save_run` settles the run first, `write_run` writes it as it is;
both atomic through `storage`), reading it back into a fresh `Run`
(`load_run`: quarantine, migrations, dropped ids), and deleting it when the run
ends (`delete_run_save`). What each part saves sits beside it: `to_save()` /
`from_save()` on `RunState` (and its `Loadout`, `WandStats`, `RunRelics`,
`PotionBelt`, `WaveStats`), `Shop.to_save()` / `Shop.restore()` and the
binding's `CarriedWorld`; `snapshot` and `restore` put them together.

What a save holds: the seed and the next wave; the currency; the loadout
(every carried core with its slots, the active core, the waiting area, the
backpack); the stats and talents bought; the shop between visits (its shelves with their
locks, the prices paid per bought card and per bought core that sales refund
— R-SHOP-1: what is not listed was never paid for and sells for nothing,
which is also what a save without the lists means — the rerolls,
its wave — no generator's state: the shop's draws are rebuilt from the run's
seed, its wave and the rerolls, `artificer.game.draws`); the past waves' stats;
and from the core's world the player's HP, max HP and position, whether
Last Will is still armed (R-END-1: owned but spent stays spent), the random
streams' positions and the program wand's memory (the cursor, registers and
counters a persistent_memory core keeps, R-VM-12, R-REG-1); the potion belt
(R-POT-2: its usable slots and the potion in each; a save from before potions
has none) and the shop's potion for sale. Mana is not saved
(R-MANA-1: every wave starts full). A save from before talents existed has
none owned and Last Will not armed. The relics owned, in the order gained,
and their per-run state (R-REL-1: vajra's strength, vampire_fang's kills) and
the shop's relic for sale; a save from before relics has none — its max HP
was saved as it was, so no relic's bonus is applied twice.

When: the shop writes the run after every change made in it (`write_run`: a
buy, sale, lock, reroll, stat, potion or relic, a lab edit or core switch), so
quitting the shop at any moment loses nothing; the file then holds the open
shop, and Continue shows that very shop (its offers are restored, not drawn
anew; its next reroll draws what it would have drawn).

Continuing must be playing on: a saved run resumes with the same next shop
and the same next wave. A world mid-run holds more than that (shots still in
flight, dash and cast timers, the pools' id generations, the frame count),
none of which a save could carry without copying the whole simulation. So a
run *settles* between waves: `save_run` rebuilds the run's world from the
snapshot it writes, exactly as `load_run` does from the file, and the two
paths — go on now, or quit and Continue later — play the same game
(tests/game/test_save.py proves it with the state hash). Settling costs what a
save does not keep: shots in flight vanish and the dash, invulnerability and
cast timers restart, between waves.

Reading it survives any bytes (`storage.read_json_or_quarantine`: too big,
too deep, not UTF-8, NaN, a directory…). An older version (an integer below
`SAVE_VERSION`) is brought up to date by `MIGRATIONS`, one version at a time,
before anything else looks at it. A file that cannot be read, has a version
this game cannot read (newer, older than the oldest migration, or not an
integer: 1.0 is not version 1), or fails the schema —
every number has a range and every list a length, as content does, so a
401-digit `currency` is refused at `currency` before it reaches the core — is
moved aside as `run.json.corrupt` and `load_run` returns a `SaveProblem`
naming the file, the JSON path and the reason (the title says so, and offers
a new run). An id the content no longer has (an update removed a spell, core,
relic, potion, talent or stat) is not a reason to lose the run:
`drop_unknown_ids` takes it out, refunds what the shop's books (`paid_cards`,
`paid_cores`) show was paid for it, and `LoadedRun.dropped` lists it for the
player's message.
"""

from __future__ import annotations

import copy
import dataclasses
import logging
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Final, TypeGuard

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    StrictBool,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from artificer import _core, storage
from artificer.content import Content
from artificer.content.models import CORE_TIERS, ID_PATTERN, MutatorId, Talent, WandStat
from artificer.content.potions import HUD_SLOTS
from artificer.errors import ArtificerError
from artificer.game.binding import CarriedWorld
from artificer.game.run import Run
from artificer.game.shop import SHELVES, TALENT_IDS, ShelfName
from artificer.game.state import RunState
from artificer.game.stats import WaveStats

RUN_FILE = "run.json"
#: The schema's version. An older file is migrated (`MIGRATIONS`); a newer one is set aside.
SAVE_VERSION: Final = 3
_U64 = 2**64
_I32 = 2**31

log = logging.getLogger(__name__)


def run_save_path() -> Path:
    """Where the run in progress is saved: `run.json` in the user data dir."""
    return storage.data_dir() / RUN_FILE


# --- the schema ------------------------------------------------------------------------------
#
# Every number has a range and every list a length, as content does (R-SAVE-1, issue 13): a file
# edited by hand or damaged is refused at the JSON path of the bad value before any of it reaches
# the core. Numbers are strict: an int field refuses 1.0, "1" and true; a float field takes an int.

#: The most gold a run may hold (a run earns a few thousand).
MAX_CURRENCY: Final = 10**9
#: The most HP and max HP a save may hold.
MAX_HP: Final = 10**6
#: The most waves a save may have played (the content's wave count bounds it further).
MAX_WAVES: Final = 1_000
#: The longest list a save may hold where nothing tighter applies (cards owned, unlocks, prices).
MAX_LIST: Final = 1_000
#: The most cores carried, slots on a core, places on a shelf and relics owned, before the content's own limits.
MAX_CORES: Final = 64
MAX_SLOTS: Final = 256
MAX_SHELF: Final = 64
#: The largest total of a bought stat and the most purchases of one (the content's `max` bounds totals further).
MAX_STAT_TOTAL: Final = 10**6
MAX_PURCHASES: Final = 10**6
#: The largest tally a past wave may report (kills, frames, damage dealt).
MAX_TALLY: Final = 10**15
#: The most rerolls in one shop.
MAX_REROLLS: Final = 10**6
#: The longest id (a spell, core, relic, potion, talent or stat id).
MAX_ID_LENGTH: Final = 64
_ID = re.compile(ID_PATTERN)

Int = Annotated[int, Strict()]
Float = Annotated[float, Strict(), Field(allow_inf_nan=False)]
Gold = Annotated[int, Strict(), Field(ge=0, le=MAX_CURRENCY)]
Id = Annotated[str, Field(min_length=1, max_length=MAX_ID_LENGTH, pattern=ID_PATTERN)]
U32 = Annotated[int, Strict(), Field(ge=0, lt=2**32)]


def _content(info: ValidationInfo) -> Content | None:
    """The content the save is checked against (`model_validate(..., context={"content": ...})`)."""
    context = info.context
    found = context.get("content") if isinstance(context, dict) else None
    return found if isinstance(found, Content) else None


def _known(content: Content | None, what: str, item_id: str) -> str:
    """`item_id` if the content has that spell or core (`what`); a ValueError naming it otherwise."""
    if content is not None:
        try:
            content.spell(item_id) if what == "spell" else content.core(item_id)
        except KeyError:
            raise ValueError(f"unknown {what} {item_id!r}") from None
    return item_id


def _potion_known(content: Content | None, potion_id: str) -> str:
    if content is not None and potion_id not in content.potions.potions:
        raise ValueError(f"unknown potion {potion_id!r}")
    return potion_id


def _spell_known(content: Content | None, spell_id: str) -> str:
    return _known(content, "spell", spell_id)


def _core_known(content: Content | None, core_id: str) -> str:
    return _known(content, "core", core_id)


class SaveModel(BaseModel):
    """A part of run.json: unknown keys are an error (a typo is not silently dropped), no NaN or infinity."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class CarriedCoreSave(SaveModel):
    """A carried core and its slots (R-CORE-3: every core keeps its own cards)."""

    core: Id = Field(description="A core id of cores.json.")
    cards: list[Id | None] = Field(
        max_length=MAX_SLOTS, description="One spell id or null per slot, as many as the core has slots."
    )

    @field_validator("core")
    @classmethod
    def _known_core(cls, value: str, info: ValidationInfo) -> str:
        return _core_known(_content(info), value)

    @field_validator("cards")
    @classmethod
    def _known_cards(cls, value: list[str | None], info: ValidationInfo) -> list[str | None]:
        content = _content(info)
        for card in value:
            if card is not None:
                _spell_known(content, card)
        return value

    @model_validator(mode="after")
    def _slots_fit(self, info: ValidationInfo) -> CarriedCoreSave:
        content = _content(info)
        if content is not None and len(self.cards) != content.core(self.core).capacity:
            capacity = content.core(self.core).capacity
            raise ValueError(f"cards: core {self.core!r} has {capacity} slots, the save lists {len(self.cards)}")
        return self


class LoadoutSave(SaveModel):
    """The player's cores, waiting area and backpack (`artificer.game.loadout`)."""

    cores: list[CarriedCoreSave] = Field(min_length=1, max_length=MAX_CORES)
    active: Id = Field(description="The active core: one of `cores`.")
    waiting: list[Id] = Field(max_length=MAX_LIST, description="R-CORE-3: cards waiting for a slot.")
    backpack: list[Id] = Field(max_length=MAX_LIST, description="R-LAB-1: cards owned, not slotted.")

    @field_validator("waiting", "backpack")
    @classmethod
    def _known_cards(cls, value: list[str], info: ValidationInfo) -> list[str]:
        content = _content(info)
        for card in value:
            _spell_known(content, card)
        return value

    @model_validator(mode="after")
    def _within_limits(self, info: ValidationInfo) -> LoadoutSave:
        carried = [core.core for core in self.cores]
        if self.active not in carried:
            raise ValueError(f"active: {self.active!r} is not a carried core ({', '.join(carried)})")
        if len(set(carried)) != len(carried):
            raise ValueError(f"cores: a core is carried twice ({', '.join(carried)})")
        content = _content(info)
        if content is not None:
            limits = content.balance.loadout
            if len(self.cores) > limits.max_cores:
                raise ValueError(f"cores: {len(self.cores)} carried, at most {limits.max_cores}")
            if len(self.waiting) > limits.waiting_area:
                raise ValueError(f"waiting: {len(self.waiting)} cards, the waiting area holds {limits.waiting_area}")
            if len(self.backpack) > limits.backpack:
                raise ValueError(f"backpack: {len(self.backpack)} cards, the backpack holds {limits.backpack}")
        return self


class WandStatsSave(SaveModel):
    """R-STAT-1: the stats bought, their totals and how often each was bought (prices step with it)."""

    totals: dict[WandStat, Annotated[float, Strict(), Field(ge=0, le=MAX_STAT_TOTAL, allow_inf_nan=False)]]
    purchases: dict[WandStat, Annotated[int, Strict(), Field(ge=0, le=MAX_PURCHASES)]]

    @model_validator(mode="before")
    @classmethod
    def _stats_added_later(cls, data: Any) -> Any:
        """A save from before a stat existed holds no entry for it: 0 bought."""
        if isinstance(data, dict):
            data = dict(data)
            for name in ("totals", "purchases"):
                table = data.get(name)
                if isinstance(table, dict):
                    data[name] = {stat.value: 0 for stat in WandStat} | table
        return data

    @model_validator(mode="after")
    def _every_stat(self, info: ValidationInfo) -> WandStatsSave:
        for name, table in (("totals", self.totals), ("purchases", self.purchases)):
            if set(table) != set(WandStat):
                raise ValueError(f"{name}: expected one entry per stat ({', '.join(WandStat)})")
        content = _content(info)
        if content is not None:
            # R-STAT-1: a total stops at its offer's max (an update may have lowered it: the total follows).
            for offer in content.balance.shop.stats:
                if self.totals[offer.stat] > offer.max:
                    self.totals[offer.stat] = offer.max
        return self


class OfferSave(SaveModel):
    """One place on a shelf (`artificer.game.shop.Offer`)."""

    kind: ShelfName
    item: Id = Field(description="A spell id, core id, or stat name or talent id (stats), by `kind`.")
    tier: Annotated[int, Strict()] = Field(ge=1, le=CORE_TIERS)  # a spell's 1..4, a core's 1..5 (R-CORE-5)
    price: Gold
    locked: StrictBool

    @model_validator(mode="after")
    def _known_item(self, info: ValidationInfo) -> OfferSave:
        content = _content(info)
        try:
            if self.kind == "spells":
                _spell_known(content, self.item)
            elif self.kind == "cores":
                _core_known(content, self.item)
            elif self.item not in TALENT_IDS:
                WandStat(self.item)
        except ValueError as error:
            raise ValueError(f"item: {error}") from None
        return self


class ShopSave(SaveModel):
    """R-SHOP-1: the shop's state between visits — what carries into the next shop."""

    wave: Annotated[int, Strict()] = Field(
        ge=0, le=MAX_WAVES, description="The wave the shop was last opened after (0: never opened)."
    )
    is_open: StrictBool
    rerolls: Annotated[int, Strict()] = Field(
        ge=0, le=MAX_REROLLS, description="Rerolls made in the open shop (they start over at each visit)."
    )
    spells: list[OfferSave | None] = Field(max_length=MAX_SHELF)
    cores: list[OfferSave | None] = Field(max_length=MAX_SHELF)
    stats: list[OfferSave | None] = Field(max_length=MAX_SHELF)
    paid_cards: dict[Id, Annotated[list[Gold], Field(max_length=MAX_LIST)]] = Field(
        default_factory=dict,
        max_length=MAX_LIST,
        description="The price paid for each bought card, one entry per copy (sales refund half); absent: nothing was paid, every card discards.",
    )
    paid_cores: dict[Id, Gold] = Field(
        default_factory=dict,
        max_length=MAX_CORES,
        description="The price paid for each bought carried core; absent: nothing was paid, every core discards.",
    )
    unlocked: list[Id] = Field(
        max_length=MAX_LIST, description="R-META-1: ids unlocked with aether, offered in this run."
    )
    luck: Float = Field(ge=0, le=MAX_STAT_TOTAL)
    potion: Id | None = Field(
        default=None, description="R-POT-2: the potion for sale (None: bought; absent in older saves)."
    )

    @field_validator("potion")
    @classmethod
    def _known_potion(cls, value: str | None, info: ValidationInfo) -> str | None:
        return None if value is None else _potion_known(_content(info), value)

    @field_validator("paid_cards")
    @classmethod
    def _paid_cards(cls, value: dict[str, list[int]], info: ValidationInfo) -> dict[str, list[int]]:
        content = _content(info)
        for card, prices in value.items():
            _spell_known(content, card)
            if not prices:
                raise ValueError(f"{card}: prices paid must be a non-empty list of amounts ≥ 0")
        return value

    @field_validator("paid_cores")
    @classmethod
    def _paid_cores(cls, value: dict[str, int], info: ValidationInfo) -> dict[str, int]:
        content = _content(info)
        for core in value:
            _core_known(content, core)
        return value

    @field_validator("unlocked")
    @classmethod
    def _unlocked_ids(cls, value: list[str], info: ValidationInfo) -> list[str]:
        content = _content(info)
        if content is not None:
            known = {spell.id for spell in content.spells} | {core.id for core in content.cores}
            unknown = sorted(set(value) - known)
            if unknown:
                raise ValueError(f"unknown spell or core ids: {', '.join(unknown)}")
        return value

    relic: Id | None = Field(
        default=None, description="R-REL-3: the relic for sale (None: bought or none left; absent in older saves)."
    )

    @field_validator("relic")
    @classmethod
    def _known_relic(cls, value: str | None, info: ValidationInfo) -> str | None:
        content = _content(info)
        if value is not None and content is not None and value not in content.relics.relics:
            raise ValueError(f"unknown relic {value!r}")
        return value

    @model_validator(mode="after")
    def _shelves_hold_their_kind(self) -> ShopSave:
        for shelf in SHELVES:
            for offer in getattr(self, shelf):
                if offer is not None and offer.kind != shelf:
                    raise ValueError(f"{shelf}: holds an offer of kind {offer.kind!r}")
        return self


class PlayerSave(SaveModel):
    """The player in the core's world between waves (mana is not saved, R-MANA-1)."""

    hp: Float = Field(gt=0, le=MAX_HP)
    hp_max: Float = Field(gt=0, le=MAX_HP)
    x: Float = Field(ge=0, le=1e6)
    y: Float = Field(ge=0, le=1e6)
    last_will: StrictBool = Field(
        default=False, description="R-END-1: Last Will is armed (`World.last_will`); absent in older saves."
    )

    @model_validator(mode="after")
    def _hp_within_max(self, info: ValidationInfo) -> PlayerSave:
        if self.hp > self.hp_max:
            raise ValueError(f"hp: {self.hp} is more than hp_max {self.hp_max}")
        content = _content(info)
        if content is not None:
            arena = content.balance.arena
            if self.x > arena.width or self.y > arena.height:
                raise ValueError(f"x, y: ({self.x}, {self.y}) is outside the {arena.width} × {arena.height} arena")
        return self


class WandMemorySave(SaveModel):
    """The program wand's memory (`World.wand_memory`): what a persistent_memory core keeps between waves."""

    cursor: U32
    registers: tuple[Int, Int]
    counters: list[Int] = Field(max_length=MAX_LIST)
    kills: U32

    @field_validator("registers")
    @classmethod
    def _registers_fit(cls, value: tuple[int, int]) -> tuple[int, int]:
        if any(not -_I32 <= register < _I32 for register in value):
            raise ValueError("registers are 32-bit integers")
        return value

    @field_validator("counters")
    @classmethod
    def _counters_fit(cls, value: list[int]) -> list[int]:
        if any(not 0 <= count < 2**32 for count in value):
            raise ValueError("counters are in 0..2**32")
        return value


class PotionsSave(SaveModel):
    """R-POT-2: the potion belt — how many slots are usable, and the potion (or null) in each of the 5."""

    slots: Annotated[int, Strict()] = Field(ge=0, le=HUD_SLOTS)
    held: list[Id | None] = Field(max_length=HUD_SLOTS)

    @field_validator("held")
    @classmethod
    def _known_potions(cls, value: list[str | None], info: ValidationInfo) -> list[str | None]:
        content = _content(info)
        for potion in value:
            if potion is not None:
                _potion_known(content, potion)
        return value


class RelicsSave(SaveModel):
    """R-REL-1: the relics the run owns, in the order gained, and their per-run state."""

    owned: list[Id] = Field(
        default_factory=list, max_length=MAX_LIST, description="Relic ids of relics.json, each once."
    )
    strength: Float = Field(default=0.0, ge=0, le=MAX_STAT_TOTAL, description="vajra: the strength gained so far.")
    kills: U32 = Field(default=0, description="vampire_fang: kills since its last heal.")

    @field_validator("owned")
    @classmethod
    def _known_relics(cls, value: list[str], info: ValidationInfo) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("a relic is listed twice")
        content = _content(info)
        unknown = [relic for relic in value if content is not None and relic not in content.relics.relics]
        if unknown:
            raise ValueError(f"unknown relic ids: {', '.join(unknown)}")
        return value


#: R-END-3: the most fights one boss rush records (content allows 10 bosses a rush).
MAX_RUSH_FIGHTS = 10


def _tally_problem(value: Any) -> str | None:
    """Why a past wave's number (or its table or list) is out of range, or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return "must be a finite number"
        return None if 0 <= value <= MAX_TALLY else f"must be a number in 0..{MAX_TALLY}"
    if isinstance(value, dict):
        if len(value) > MAX_LIST:
            return f"at most {MAX_LIST} entries"
        for key, entry in value.items():
            if not isinstance(key, str) or len(key) > MAX_ID_LENGTH:
                return f"keys are ids of at most {MAX_ID_LENGTH} characters"
            problem = _tally_problem(entry)
            if problem:
                return f"{key}: {problem}"
        return None
    if isinstance(value, list):
        if len(value) > MAX_LIST:
            return f"at most {MAX_LIST} entries"
        if any(not isinstance(entry, str) or len(entry) > MAX_ID_LENGTH for entry in value):
            return f"entries are ids of at most {MAX_ID_LENGTH} characters"
    return None


class RunSave(SaveModel):
    """run.json (R-SAVE-1), version 3: a run between waves, before the shop after `next_wave − 1`."""

    version: Annotated[int, Strict()] = Field(default=SAVE_VERSION, ge=SAVE_VERSION, le=SAVE_VERSION)
    seed: Annotated[int, Strict()] = Field(ge=0, lt=_U64)
    next_wave: Annotated[int, Strict()] = Field(
        ge=2, le=MAX_WAVES + 1, description="The wave the run goes on with (the shop before it comes first)."
    )
    currency: Gold
    loadout: LoadoutSave
    wand_stats: WandStatsSave
    talents: list[Talent] = Field(
        default_factory=list,
        max_length=len(Talent),
        description="R-END-1: the talents the run owns (absent in older saves).",
    )
    relics: RelicsSave = Field(
        default_factory=RelicsSave, description="R-REL-1: relics owned (absent in older saves: none)."
    )
    shop: ShopSave
    #: The past waves, for the summary (one per wave played, in order).
    waves: list[WaveStats] = Field(max_length=MAX_WAVES)
    player: PlayerSave
    rng_state: list[Int] = Field(max_length=64, description="The core's random streams' positions (`World.rng_state`).")
    wand_memory: WandMemorySave | None = None
    ng_plus: Annotated[int, Strict()] = Field(
        default=0, ge=0, le=10, description="R-END-2: the run's New Game+ level (absent in older saves: 0)."
    )
    potions: PotionsSave | None = Field(
        default=None, description="R-POT-2: the potion belt (absent in older saves: no potions)."
    )
    practice: Annotated[bool, Strict()] = Field(
        default=False, description="R-END-5: a practice run, which keeps no progress (absent in older saves: no)."
    )
    cursed: Annotated[bool, Strict()] = Field(
        default=False, description="R-META-1: a run of the cursed-waves mode (absent in older saves: no)."
    )
    first_wave: Annotated[int, Strict()] = Field(
        default=1, ge=1, le=MAX_WAVES, description="R-END-5: the wave the run began at (practice; older saves: 1)."
    )
    onboarding: Annotated[int, Strict()] = Field(
        default=0, ge=0, le=100, description="R-ONB-1: the run's onboarding step (0: none; older saves: 0)."
    )
    endless: Annotated[bool, Strict()] = Field(default=False, description="R-END-3: an endless run (older: no).")
    difficulty: float = Field(
        default=1.0, ge=1.0, le=100.0, description="R-END-3: the next wave's enemy HP and damage multiplier."
    )
    mutator: MutatorId | None = Field(
        default=None, description="R-END-3: the next wave's global mutator (older: none)."
    )
    arena_scale: float = Field(
        default=1.0, ge=0.25, le=1.0, description="R-END-3 shrinking map: the next wave's share of the arena's sides."
    )
    settled: Annotated[bool, Strict()] = Field(
        default=False, description="R-END-3: its victory was settled into meta.json before it went on (older: no)."
    )
    replay: str | None = Field(
        default=None,
        max_length=80,
        pattern=r"^[0-9A-Za-z_\-]+\.replay$",
        description="The run's replay in runs/ (Continue goes on recording into it; older: none).",
    )

    @field_validator("waves")
    @classmethod
    def _waves_in_order(cls, value: list[WaveStats]) -> list[WaveStats]:
        for index, stats in enumerate(value):
            if index and stats.wave != value[index - 1].wave + 1:
                raise ValueError(f"{index}: wave {stats.wave} where wave {value[index - 1].wave + 1} was expected")
            if len(stats.rush) > MAX_RUSH_FIGHTS:
                raise ValueError(f"{index}.rush: at most {MAX_RUSH_FIGHTS} fights")
            for entry in dataclasses.fields(stats):
                if entry.name == "rush":
                    continue  # R-END-3: boss fights, each checked as `boss` is (its own fields)
                problem = _tally_problem(getattr(stats, entry.name))
                if problem:
                    raise ValueError(f"{index}.{entry.name}: {problem}")
        return value

    @field_validator("talents")
    @classmethod
    def _each_talent_once(cls, value: list[Talent]) -> list[Talent]:
        if len(set(value)) != len(value):
            raise ValueError("a talent is listed twice")
        return value

    @field_validator("rng_state")
    @classmethod
    def _streams(cls, value: list[int]) -> list[int]:
        if len(value) != _core.RNG_STREAMS or any(not 0 <= position < _U64 for position in value):
            raise ValueError(f"expected {_core.RNG_STREAMS} stream positions in 0..2**64-1")
        return value

    @model_validator(mode="after")
    def _between_waves(self, info: ValidationInfo) -> RunSave:
        content = _content(info)
        last = (content.balance.endless.max_wave if self.endless else len(content.waves)) if content else 0
        if content is not None and self.next_wave > last:
            raise ValueError(f"next_wave: {self.next_wave} is past the last wave ({last})")
        if self.first_wave > 1 and not self.practice:
            raise ValueError(f"first_wave: {self.first_wave}: only a practice run begins past wave 1")
        if self.waves and self.waves[0].wave != self.first_wave:
            raise ValueError(f"waves: the first is wave {self.waves[0].wave}, not the run's first ({self.first_wave})")
        if len(self.waves) != self.next_wave - self.first_wave:
            played = f"{len(self.waves)} waves played from wave {self.first_wave}"
            raise ValueError(f"next_wave: {self.next_wave} does not follow the {played}")
        if self.shop.wave > self.next_wave:
            raise ValueError(f"shop.wave: {self.shop.wave} is after the next wave ({self.next_wave})")
        return self


# --- older versions ----------------------------------------------------------------------------


class MigrationError(ValueError):
    """An older save that its migration cannot bring up to date: the message names the field."""


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v1 → v2 (issue 14): the core keeps one random stream. v1's `rng_state` held four positions
    (crit, spread, drops, spawns) of which the world only ever drew from crit, the first; its
    position stays, the three others (never drawn, so 0) go. Everything else is as in v1."""
    state = data.get("rng_state")
    if not isinstance(state, list) or len(state) != 4:
        raise MigrationError("rng_state: a version 1 save holds 4 stream positions (crit, spread, drops, spawns)")
    return data | {"version": 2, "rng_state": state[:1]}


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """v2 → v3 (issue 14): the shop's draws are reseeded from the run's seed, its wave and the
    rerolls made (`artificer.game.draws`) instead of a saved Mersenne Twister: an open shop's
    `shop.rng_state` (624 words and an index) goes, whatever it held; the shelves stay as saved
    and the next reroll draws from the reseeded generator. Everything else is as in v2."""
    shop = data.get("shop")
    if isinstance(shop, dict):
        data = data | {"shop": {key: value for key, value in shop.items() if key != "rng_state"}}
    return data | {"version": 3}


#: Each older version's step to the next, applied in order by `migrate` (a step sets the new version).
MIGRATIONS: Final[Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]]] = {1: _v1_to_v2, 2: _v2_to_v3}


def readable_version(version: Any) -> TypeGuard[int]:
    """`version` is one this game reads: an int (not a bool, not 1.0) from the oldest migration to `SAVE_VERSION`."""
    return type(version) is int and (version == SAVE_VERSION or version in MIGRATIONS)


def migrate(data: dict[str, Any]) -> dict[str, Any]:
    """`data` (of a `readable_version`) brought to `SAVE_VERSION` through `MIGRATIONS`, one
    version at a time; `data` itself is left as it was. Raises `MigrationError`."""
    migrated = copy.deepcopy(data)
    while migrated["version"] != SAVE_VERSION:
        migrated = MIGRATIONS[migrated["version"]](migrated)
    return migrated


# --- ids an update removed -------------------------------------------------------------------


@dataclass(frozen=True)
class Dropped:
    """An id of the player's that the content no longer has (an update removed it): dropped from
    the run at `where` (its JSON path), and `refund` gold given back when the shop's books show
    it was paid for (R-SHOP-1: `paid_cards`, `paid_cores`). `kind`: spell, core, relic, potion,
    talent, stat; "spell (no room)" for a known card of a removed core that fit nowhere."""

    kind: str
    item: str
    where: str
    refund: int = 0


def _is_id(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= MAX_ID_LENGTH and _ID.match(value) is not None


def _as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def drop_unknown_ids(data: Any, content: Content) -> tuple[Any, list[Dropped]]:
    """run.json's parsed value with every well-formed id the content no longer has taken out
    (a card from its slot, the waiting area or the backpack; a carried core — its cards go to the
    waiting area, then the backpack; a relic, potion, talent or stat), the gold paid for what
    went refunded. Offers, unlocks and the shop's relic and potion for sale go too, unreported:
    the player did not own them. What is malformed is left for the schema to refuse."""
    if not isinstance(data, dict):
        return data, []
    data = copy.deepcopy(data)
    spells = {spell.id for spell in content.spells}
    cores = {core.id for core in content.cores}
    relics = set(content.relics.relics)
    potions = set(content.potions.potions)
    dropped: list[Dropped] = []
    shop = _as_dict(data.get("shop"))
    paid_cards = _as_dict(shop.get("paid_cards"))
    paid_cores = _as_dict(shop.get("paid_cores"))

    def gone(item: Any, known: set[str]) -> TypeGuard[str]:
        return _is_id(item) and item not in known

    def card_refund(card: str) -> int:
        prices = paid_cards.get(card)
        if isinstance(prices, list) and prices and type(prices[-1]) is int and 0 <= prices[-1] <= MAX_CURRENCY:
            price: int = prices.pop()
            if not prices:
                del paid_cards[card]
            return price
        return 0

    def drop_card(kind: str, card: str, where: str) -> None:
        dropped.append(Dropped(kind, card, where, card_refund(card)))

    loadout = _as_dict(data.get("loadout"))
    carried = loadout.get("cores")
    freed: list[str] = []
    active_changed = False
    if isinstance(carried, list):
        kept: list[Any] = []
        for index, entry in enumerate(carried):
            core = _as_dict(entry).get("core")
            cards = _as_list(_as_dict(entry).get("cards"))
            if gone(core, cores):
                refund = paid_cores.pop(core, 0)
                refund = refund if type(refund) is int and 0 <= refund <= MAX_CURRENCY else 0
                dropped.append(Dropped("core", core, f"loadout.cores.{index}.core", refund))
                for slot, card in enumerate(cards):
                    if gone(card, spells):
                        drop_card("spell", card, f"loadout.cores.{index}.cards.{slot}")
                    elif isinstance(card, str):
                        freed.append(card)
                active_changed = active_changed or loadout.get("active") == core
                continue
            for slot, card in enumerate(cards):
                if gone(card, spells):
                    drop_card("spell", card, f"loadout.cores.{index}.cards.{slot}")
                    cards[slot] = None
                    active_changed = active_changed or loadout.get("active") == core
            kept.append(entry)
        if len(kept) != len(carried):
            if not kept:
                start = content.balance.starting_wand.core
                kept.append({"core": start, "cards": [None] * content.core(start).capacity})
            loadout["cores"] = kept
            names = [_as_dict(entry).get("core") for entry in kept]
            if loadout.get("active") not in names:
                loadout["active"] = names[0]
    for area in ("waiting", "backpack"):
        owned_cards = loadout.get(area)
        if isinstance(owned_cards, list):
            for slot, card in enumerate(owned_cards):
                if gone(card, spells):
                    drop_card("spell", card, f"loadout.{area}.{slot}")
            loadout[area] = [card for card in owned_cards if not gone(card, spells)]
    if freed:
        # Like selling a core (`Loadout.remove_core`): its cards wait for a slot; what fits nowhere is refunded.
        limits = content.balance.loadout
        for area, room in (("waiting", limits.waiting_area), ("backpack", limits.backpack)):
            room_in = loadout.get(area)
            if isinstance(room_in, list):
                while freed and len(room_in) < room:
                    room_in.append(freed.pop(0))
        for card in freed:
            drop_card("spell (no room)", card, "loadout.cores")
    if active_changed:
        data["wand_memory"] = None  # the memory belongs to a program that is no longer the wand

    for card in [card for card in paid_cards if gone(card, spells)]:
        del paid_cards[card]  # no copy left to refund
    for core in [core for core in paid_cores if gone(core, cores)]:
        del paid_cores[core]
    for shelf, known in (
        ("spells", spells),
        ("cores", cores),
        ("stats", {stat.value for stat in WandStat} | TALENT_IDS),
    ):
        offers = shop.get(shelf)
        if isinstance(offers, list):
            shop[shelf] = [None if gone(_as_dict(offer).get("item"), known) else offer for offer in offers]
    if isinstance(shop.get("unlocked"), list):
        shop["unlocked"] = [item for item in shop["unlocked"] if not gone(item, spells | cores)]
    if gone(shop.get("potion"), potions):
        shop["potion"] = None
    if gone(shop.get("relic"), relics):
        shop["relic"] = None

    owned = _as_dict(data.get("relics"))
    if isinstance(owned.get("owned"), list):
        for index, relic in enumerate(owned["owned"]):
            if gone(relic, relics):
                dropped.append(Dropped("relic", relic, f"relics.owned.{index}"))
        owned["owned"] = [relic for relic in owned["owned"] if not gone(relic, relics)]
    belt = _as_list(_as_dict(data.get("potions")).get("held"))
    for slot, potion in enumerate(belt):
        if gone(potion, potions):
            dropped.append(Dropped("potion", potion, f"potions.held.{slot}"))
            belt[slot] = None
    talents = data.get("talents")
    if isinstance(talents, list):
        known_talents = {talent.value for talent in Talent}
        for index, talent in enumerate(talents):
            if gone(talent, known_talents):
                dropped.append(Dropped("talent", talent, f"talents.{index}"))
        data["talents"] = [talent for talent in talents if not gone(talent, known_talents)]
    stats = _as_dict(data.get("wand_stats"))
    known_stats = {stat.value for stat in WandStat}
    for name in ("totals", "purchases"):
        table = _as_dict(stats.get(name))
        for stat in [stat for stat in table if gone(stat, known_stats)]:
            if name == "totals":
                dropped.append(Dropped("stat", stat, f"wand_stats.totals.{stat}"))
            del table[stat]
    for wave in _as_list(data.get("waves")):
        gained = _as_dict(wave).get("relics")
        if isinstance(gained, list):
            wave["relics"] = [relic for relic in gained if not gone(relic, relics)]

    refund = sum(item.refund for item in dropped)
    if refund and type(data.get("currency")) is int:
        data["currency"] += refund
    return data, dropped


# --- taking and restoring ---------------------------------------------------------------------


def snapshot(run: Run, next_wave: int) -> RunSave:
    """What `run` saves now, between waves, before the shop ahead of `next_wave`: each part's own
    `to_save` (the state's, the shop's, what the world carries), checked by the schema. The shop's
    unlocks are saved as far as the content has them: meta.json may name an unlock an update removed
    (R-SAVE-2: `load_meta` with the content drops it; a run begun from a meta read without it still
    plays — such an id offers nothing — and saves)."""
    shop = run.shop.to_save()
    known = {spell.id for spell in run.content.spells} | {core.id for core in run.content.cores}
    shop["unlocked"] = [item for item in shop["unlocked"] if item in known]
    data: dict[str, Any] = {
        "version": SAVE_VERSION,
        "next_wave": next_wave,
        **run.state.to_save(),
        "shop": shop,
        **run.binding.carried().to_save(),
        "replay": run.tape.path.name if run.tape is not None and run.tape.path is not None else None,
    }
    return RunSave.model_validate(data, context={"content": run.content})


def restore(content: Content, save: RunSave) -> Run:
    """A fresh `Run` in the state `save` describes, its world rebuilt: each part's own
    `from_save`, the loadout armed, then what the world carries (the core's streams, HP,
    position, Last Will, the wand's memory) through the run's binding. Raises
    `CoreArgumentError` / `LoadoutError` when the save does not fit the content."""
    data = save.model_dump()
    run = Run(content, save.seed, RunState.from_save(content, data), shop=data["shop"])
    # Owned is not armed: a spent Last Will comes back owned (never offered again) and disarmed.
    run.binding.restore(CarriedWorld.from_save(data))
    return run


def settle(run: Run, next_wave: int) -> RunSave:
    """Between waves: takes `run`'s snapshot and rebuilds its world from it, as
    `load_run` would from the file (see the module's docstring). Returns the snapshot."""
    save = snapshot(run, next_wave)
    rebuilt = restore(run.content, save)
    run.sim = rebuilt.sim
    run.diagnostics = rebuilt.diagnostics
    return save


# --- the file -----------------------------------------------------------------------------------


def save_run(run: Run, next_wave: int, path: Path | None = None) -> RunSave:
    """Settles `run` between waves and writes it to run.json atomically (R-SAVE-1).
    The run is settled even when the write fails (an `OSError` for the caller to report)."""
    save = settle(run, next_wave)
    _write(save, path)
    return save


def write_run(run: Run, next_wave: int, path: Path | None = None) -> RunSave:
    """Writes `run` as it is now to run.json atomically, without settling it: the shop's
    save after each change (R-SAVE-1), which leaves the world (and whatever a scene holds of
    it) alone. Leaving the shop settles the run (`settle`), so going on plays as Continue does."""
    save = snapshot(run, next_wave)
    _write(save, path)
    return save


def _write(save: RunSave, path: Path | None) -> None:
    storage.write_json_atomic(path if path is not None else run_save_path(), save.model_dump(mode="json"))


def delete_run_save(path: Path | None = None) -> None:
    """The run is over (death, abandon, victory) or a new one began: its save goes. Something
    other than a regular file at its path (a directory, a FIFO, a link to nothing) is left as it
    is (R-SAVE-2); a failure is logged, not raised (the next write replaces the file anyway)."""
    path = path if path is not None else run_save_path()
    try:
        kind = storage.not_a_file(path)
        if kind is not None:
            log.warning("%s is %s, not a file: left as it is", path, kind)
        else:
            path.unlink(missing_ok=True)
    except OSError as error:
        log.warning("%s could not be deleted: %s", path, error)


@dataclass(frozen=True)
class LoadedRun:
    """A saved run, restored: go on with the shop before `next_wave`. `dropped`: what the save
    held that the content no longer has (an update removed it), taken out of the run and
    refunded where it was paid for (the title and the shop tell the player)."""

    run: Run
    next_wave: int
    save: RunSave
    dropped: tuple[Dropped, ...] = ()

    @property
    def refunded(self) -> int:
        """The gold given back for what was dropped."""
        return sum(item.refund for item in self.dropped)

    def dropped_items(self) -> str:
        """What was dropped, for the player's message: "spell old_bolt ×2, relic old_idol"."""
        counts: dict[tuple[str, str], int] = {}
        for item in self.dropped:
            counts[(item.kind, item.item)] = counts.get((item.kind, item.item), 0) + 1
        named = [f"{kind} {item}" + (f" ×{count}" if count > 1 else "") for (kind, item), count in counts.items()]
        shown = named[:DROPPED_SHOWN] + ([f"+{len(named) - DROPPED_SHOWN}"] if len(named) > DROPPED_SHOWN else [])
        return ", ".join(shown)


#: How many of the dropped ids the player's message names (the log names all).
DROPPED_SHOWN: Final = 4


@dataclass(frozen=True)
class SaveProblem:
    """run.json could not be used: `detail` says why (it names the file and the field),
    `reason` the cause alone, `kept_as` where the file went ("" if it could not be moved)."""

    detail: str
    kept_as: str
    reason: str = ""

    @property
    def shown_reason(self) -> str:
        """The reason, cut to `REASON_SHOWN` characters for the player's message."""
        return short_reason(self.reason)


#: The longest reason a player's message quotes (the log has all of it).
REASON_SHOWN: Final = 160


def short_reason(reason: str) -> str:
    """`reason`, cut to `REASON_SHOWN` characters for a toast."""
    return reason if len(reason) <= REASON_SHOWN else reason[: REASON_SHOWN - 1] + "…"


def load_run(content: Content, path: Path | None = None) -> LoadedRun | SaveProblem | None:
    """The saved run, restored into a fresh `Run`; None when nothing is saved; a `SaveProblem`
    when the file cannot be used — unreadable (any bytes: `storage.read_json_or_quarantine`),
    of a version it cannot read (an int; 1.0 is not a version; an older one is migrated
    first, `migrate`), out of the schema's ranges, or not
    fitting the content — the file is then moved to `run.json.corrupt`. Ids the content no
    longer has are dropped (`drop_unknown_ids`), not a reason to lose the run. Never raises
    for what the file holds."""
    path = path if path is not None else run_save_path()
    loaded = storage.read_json_or_quarantine(path)
    if loaded.problem is not None:
        return SaveProblem(loaded.problem, loaded.kept_as or "", loaded.reason)
    if loaded.value is None:
        # No file; or a file holding JSON's null, which is no save either.
        return _set_aside(path, "(file): not a saved run") if path.exists() else None
    value = loaded.value
    if not isinstance(value, dict):
        return _set_aside(path, f"(file): not a saved run (a JSON {type(value).__name__}, not an object)")
    version = value.get("version")
    if not readable_version(version):
        shown = (
            repr(version) if isinstance(version, (int, float, str, bool)) or version is None else type(version).__name__
        )
        oldest = min([SAVE_VERSION, *MIGRATIONS])
        return _set_aside(
            path,
            f"version: unknown save version {shown[:40]} (this game reads versions {oldest} to {SAVE_VERSION}, an integer)",
        )
    try:
        value = migrate(value)
    except MigrationError as error:
        return _set_aside(path, f"{error} (migrating from version {version})")
    cleaned, dropped = drop_unknown_ids(value, content)
    try:
        save = RunSave.model_validate(cleaned, context={"content": content})
    except ValidationError as error:
        return _set_aside(path, storage.describe(error))
    try:
        run = restore(content, save)
    except (ArtificerError, KeyError, ValueError, OverflowError) as error:
        # CoreArgumentError (a wand memory that does not fit the program, say) and LoadoutError are ArtificerErrors.
        return _set_aside(path, f"the run could not be restored: {str(error)[:300]}")
    except Exception as error:  # a bug, not the file's fault: still, Continue must not crash again and again
        log.exception("restoring %s failed", path)
        return _set_aside(path, f"the run could not be restored ({type(error).__name__}: {str(error)[:200]})")
    if dropped:
        listed = "; ".join(f"{d.where}: {d.kind} {d.item!r} (refund {d.refund})" for d in dropped)
        log.warning("%s: dropped what the content no longer has: %s", path.name, listed)
    return LoadedRun(run, save.next_wave, save, tuple(dropped))


def _set_aside(path: Path, reason: str) -> SaveProblem:
    found = storage.quarantine(path, reason)
    return SaveProblem(found.message, found.kept_as or "", reason)
