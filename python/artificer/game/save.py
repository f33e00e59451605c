"""The run in progress, saved between waves (R-SAVE-1) — `run.json`, no pygame.

This module owns the file's schema (`RunSave`, versioned, checked against the
content on load), writing it (`save_run` settles the run first, `write_run`
writes it as it is; both atomic through `storage`), reading
it back into a fresh `Run` (`load_run`), and deleting it when the run ends
(`delete_run_save`).

What a save holds: the seed and the next wave; the currency; the loadout
(every carried core with its slots, the active core, the waiting area, the
backpack); the stats and talents bought; the shop between visits (its shelves with their
locks, the prices paid per bought card and per bought core that sales refund
— R-SHOP-1: what is not listed was never paid for and sells for nothing,
which is also what a save without the lists means — the rerolls,
its wave, its generator's state while it is open); the past waves' stats;
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
shop with its generator's state, and Continue shows that very shop (its
offers are restored, not drawn anew).

Continuing must be playing on: a saved run resumes with the same next shop
and the same next wave. A world mid-run holds more than that (shots still in
flight, dash and cast timers, the pools' id generations, the frame count),
none of which a save could carry without copying the whole simulation. So a
run *settles* between waves: `save_run` rebuilds the run's world from the
snapshot it writes, exactly as `load_run` does from the file, and the two
paths — go on now, or quit and Continue later — play the same game
(tests/test_save.py proves it with the state hash). Settling costs what a
save does not keep: shots in flight vanish and the dash, invulnerability and
cast timers restart, between waves.

A file that does not parse, fails the schema, names a core, spell or talent
the content (or the game) lacks, or has another version is moved aside as `run.json.corrupt`
and `load_run` returns a `SaveProblem` (the title says so, and offers a new
run).
"""

from __future__ import annotations

import copy
import dataclasses
import logging
import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from artificer import _core, storage
from artificer.content import Content
from artificer.content.models import SHOP_TIERS, Talent, WandStat
from artificer.errors import ArtificerError
from artificer.content.potions import HUD_SLOTS
from artificer.game.loadout import CarriedCore, Loadout
from artificer.game.relics import RunRelics
from artificer.game.run import Run, WaveStats
from artificer.game.shop import SHELVES, TALENT_IDS, Offer, ShelfName, WandStats, shop_rng

RUN_FILE = "run.json"
#: The schema's version; a file of another version is set aside (there is no older one to convert yet).
SAVE_VERSION: Final = 1
_U64 = 2**64
_I32 = 2**31
#: `random.Random.getstate()`: the Mersenne Twister's 624 words and its index.
_MT_WORDS = 624

log = logging.getLogger(__name__)


def run_save_path() -> Path:
    """Where the run in progress is saved: `run.json` in the user data dir."""
    return storage.data_dir() / RUN_FILE


# --- the schema ------------------------------------------------------------------------------


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
    """A part of run.json: unknown keys are an error (a typo is not silently dropped)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class CarriedCoreSave(SaveModel):
    """A carried core and its slots (R-CORE-3: every core keeps its own cards)."""

    core: str = Field(description="A core id of cores.json.")
    cards: list[str | None] = Field(description="One spell id or null per slot, as many as the core has slots.")

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

    cores: list[CarriedCoreSave] = Field(min_length=1)
    active: str = Field(description="The active core: one of `cores`.")
    waiting: list[str] = Field(description="R-CORE-3: cards waiting for a slot.")
    backpack: list[str] = Field(description="R-LAB-1: cards owned, not slotted.")

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

    totals: dict[WandStat, float]
    purchases: dict[WandStat, int]

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
    def _every_stat(self) -> WandStatsSave:
        for name, table in (("totals", self.totals), ("purchases", self.purchases)):
            if set(table) != set(WandStat):
                raise ValueError(f"{name}: expected one entry per stat ({', '.join(WandStat)})")
            if any(not math.isfinite(value) or value < 0 for value in table.values()):
                raise ValueError(f"{name}: every value must be a finite number ≥ 0")
        return self


class OfferSave(SaveModel):
    """One place on a shelf (`artificer.game.shop.Offer`)."""

    kind: ShelfName
    item: str = Field(description="A spell id, core id, or stat name or talent id (stats), by `kind`.")
    tier: int = Field(ge=1, le=SHOP_TIERS)
    price: int = Field(ge=0)
    locked: bool

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

    wave: int = Field(ge=0, description="The wave the shop was last opened after (0: never opened).")
    is_open: bool
    rerolls: int = Field(ge=0, description="Rerolls made in the open shop (they start over at each visit).")
    spells: list[OfferSave | None]
    cores: list[OfferSave | None]
    stats: list[OfferSave | None]
    paid_cards: dict[str, list[int]] = Field(
        default_factory=dict,
        description="The price paid for each bought card, one entry per copy (sales refund half); absent: nothing was paid, every card discards.",
    )
    paid_cores: dict[str, int] = Field(
        default_factory=dict, description="The price paid for each bought carried core; absent: nothing was paid, every core discards."
    )
    unlocked: list[str] = Field(description="R-META-1: ids unlocked with aether, offered in this run.")
    luck: float = Field(ge=0, allow_inf_nan=False)
    rng_state: list[int] | None = Field(
        default=None,
        description="While the shop is open: its generator's `getstate()` words and index (a closed shop reseeds on opening).",
    )
    potion: str | None = Field(default=None, description="R-POT-2: the potion for sale (None: bought; absent in older saves).")

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
            if not prices or any(price < 0 for price in prices):
                raise ValueError(f"{card}: prices paid must be a non-empty list of amounts ≥ 0")
        return value

    @field_validator("paid_cores")
    @classmethod
    def _paid_cores(cls, value: dict[str, int], info: ValidationInfo) -> dict[str, int]:
        content = _content(info)
        for core, price in value.items():
            _core_known(content, core)
            if price < 0:
                raise ValueError(f"{core}: the price paid must be ≥ 0")
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

    relic: str | None = Field(default=None, description="R-REL-3: the relic for sale (None: bought or none left; absent in older saves).")

    @field_validator("relic")
    @classmethod
    def _known_relic(cls, value: str | None, info: ValidationInfo) -> str | None:
        content = _content(info)
        if value is not None and content is not None and value not in content.relics.relics:
            raise ValueError(f"unknown relic {value!r}")
        return value

    @field_validator("rng_state")
    @classmethod
    def _mersenne_state(cls, value: list[int] | None) -> list[int] | None:
        if value is None:
            return None
        words, index = value[:-1], value[-1] if value else -1
        if len(words) != _MT_WORDS or any(not 0 <= word < 2**32 for word in words) or not 0 <= index <= _MT_WORDS:
            raise ValueError(f"expected {_MT_WORDS} words in 0..2**32 and an index in 0..{_MT_WORDS}")
        return value

    @model_validator(mode="after")
    def _shelves_hold_their_kind(self) -> ShopSave:
        for shelf in SHELVES:
            for offer in getattr(self, shelf):
                if offer is not None and offer.kind != shelf:
                    raise ValueError(f"{shelf}: holds an offer of kind {offer.kind!r}")
        if self.is_open and self.rng_state is None:
            raise ValueError("rng_state: an open shop needs its generator's state")
        return self


class PlayerSave(SaveModel):
    """The player in the core's world between waves (mana is not saved, R-MANA-1)."""

    hp: float = Field(gt=0, allow_inf_nan=False)
    hp_max: float = Field(gt=0, allow_inf_nan=False)
    x: float = Field(ge=0, allow_inf_nan=False)
    y: float = Field(ge=0, allow_inf_nan=False)
    last_will: bool = Field(default=False, description="R-END-1: Last Will is armed (`World.last_will`); absent in older saves.")

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

    cursor: int = Field(ge=0, lt=2**32)
    registers: tuple[int, int]
    counters: list[int]
    kills: int = Field(ge=0, lt=2**32)

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

    slots: int = Field(ge=0, le=HUD_SLOTS)
    held: list[str | None] = Field(max_length=HUD_SLOTS)

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

    owned: list[str] = Field(default_factory=list, description="Relic ids of relics.json, each once.")
    strength: float = Field(default=0.0, ge=0, allow_inf_nan=False, description="vajra: the strength gained so far.")
    kills: int = Field(default=0, ge=0, description="vampire_fang: kills since its last heal.")

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


class RunSave(SaveModel):
    """run.json (R-SAVE-1), version 1: a run between waves, before the shop after `next_wave − 1`."""

    version: Literal[1] = SAVE_VERSION
    seed: int = Field(ge=0, lt=_U64)
    next_wave: int = Field(ge=2, description="The wave the run goes on with (the shop before it comes first).")
    currency: int = Field(ge=0)
    loadout: LoadoutSave
    wand_stats: WandStatsSave
    talents: list[Talent] = Field(default_factory=list, description="R-END-1: the talents the run owns (absent in older saves).")
    relics: RelicsSave = Field(default_factory=RelicsSave, description="R-REL-1: relics owned (absent in older saves: none).")
    shop: ShopSave
    #: The past waves, for the summary (one per wave played, in order).
    waves: list[WaveStats]
    player: PlayerSave
    rng_state: list[int] = Field(description="The core's random streams' positions (`World.rng_state`).")
    wand_memory: WandMemorySave | None = None
    potions: PotionsSave | None = Field(default=None, description="R-POT-2: the potion belt (absent in older saves: no potions).")

    @field_validator("waves")
    @classmethod
    def _waves_in_order(cls, value: list[WaveStats]) -> list[WaveStats]:
        for index, stats in enumerate(value):
            if stats.wave != index + 1:
                raise ValueError(f"{index}: wave {stats.wave} where wave {index + 1} was expected")
            for entry in dataclasses.fields(stats):
                number = getattr(stats, entry.name)
                if isinstance(number, (int, float)) and (not math.isfinite(number) or number < 0):
                    raise ValueError(f"{index}.{entry.name}: must be a finite number ≥ 0")
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
            raise ValueError(f"expected {_core.RNG_STREAMS} stream positions in 0..2**64")
        return value

    @model_validator(mode="after")
    def _between_waves(self, info: ValidationInfo) -> RunSave:
        content = _content(info)
        if content is not None and self.next_wave > len(content.waves):
            raise ValueError(f"next_wave: {self.next_wave} is past the last wave ({len(content.waves)})")
        if len(self.waves) != self.next_wave - 1:
            raise ValueError(f"next_wave: {self.next_wave} does not follow the {len(self.waves)} waves played")
        return self


# --- taking and restoring ---------------------------------------------------------------------


def snapshot(run: Run, next_wave: int) -> RunSave:
    """What `run` saves now, between waves, before the shop ahead of `next_wave` (checked by the schema)."""
    shop = run.shop
    world = run.sim.world
    hp, hp_max = world.player_hp()
    x, y = world.player_position()
    memory = world.wand_memory()

    def offers(shelf: ShelfName) -> list[dict[str, Any] | None]:
        return [None if offer is None else dataclasses.asdict(offer) for offer in shop.shelves[shelf]]

    rng_state: list[int] | None = None
    if shop.is_open:
        _, words, _ = shop.rng.getstate()
        rng_state = list(words)
    data: dict[str, Any] = {
        "version": SAVE_VERSION,
        "seed": run.seed,
        "next_wave": next_wave,
        "currency": run.currency,
        "loadout": {
            "cores": [{"core": carried.core, "cards": list(carried.cards)} for carried in run.loadout.cores],
            "active": run.loadout.active,
            "waiting": list(run.loadout.waiting),
            "backpack": list(run.loadout.backpack),
        },
        "wand_stats": {"totals": dict(run.wand_stats.totals), "purchases": dict(run.wand_stats.purchases)},
        "talents": sorted(talent.value for talent in run.talents),
        "relics": {"owned": list(run.relics.owned), "strength": run.relics.strength, "kills": run.relics.kills},
        "shop": {
            "wave": shop.wave,
            "is_open": shop.is_open,
            "rerolls": shop.rerolls,
            "spells": offers("spells"),
            "cores": offers("cores"),
            "stats": offers("stats"),
            "paid_cards": {card: list(prices) for card, prices in shop.paid_cards.items()},
            "paid_cores": dict(shop.paid_cores),
            "unlocked": sorted(shop.unlocked),
            "luck": shop.luck,
            "relic": shop.relic,
            "rng_state": rng_state,
            "potion": shop.potion,
        },
        "waves": [dataclasses.asdict(stats) for stats in run.waves],
        "player": {"hp": hp, "hp_max": hp_max, "x": x, "y": y, "last_will": world.last_will},
        "rng_state": world.rng_state(),
        "potions": {"slots": run.potions.slots, "held": list(run.potions.held)},
        "wand_memory": None if memory is None else {"cursor": memory[0], "registers": memory[1], "counters": memory[2], "kills": memory[3]},
    }
    return RunSave.model_validate(data, context={"content": run.content})


def restore(content: Content, save: RunSave) -> Run:
    """A fresh `Run` in the state `save` describes, its world rebuilt: the core's
    streams, HP and wand memory restored, the loadout armed. Raises
    `CoreArgumentError` / `LoadoutError` when the save does not fit the content."""
    run = Run(content, save.seed)
    run.currency = save.currency
    loadout = save.loadout
    run.loadout = Loadout(
        content,
        cores=[CarriedCore(carried.core, list(carried.cards)) for carried in loadout.cores],
        active=loadout.active,
        waiting=list(loadout.waiting),
        backpack=list(loadout.backpack),
    )
    run.wand_stats = WandStats(totals=dict(save.wand_stats.totals), purchases=dict(save.wand_stats.purchases))
    run.talents = set(save.talents)
    run.relics = RunRelics(content.relics, save.relics.owned, save.relics.strength, save.relics.kills)
    _restore_shop(run, save.shop)
    run.waves = copy.deepcopy(save.waves)
    if save.potions is not None:
        run.potions.slots = save.potions.slots
        run.potions.held = list(save.potions.held) + [None] * (HUD_SLOTS - len(save.potions.held))
    run.rearm()
    world = run.sim.world
    world.set_rng_state(save.rng_state)
    world.set_player_hp(save.player.hp, save.player.hp_max)
    world.set_player_position(save.player.x, save.player.y)
    # Owned is not armed: a spent Last Will comes back owned (never offered again) and disarmed.
    world.set_last_will(save.player.last_will)
    if save.wand_memory is not None:
        memory = save.wand_memory
        world.set_wand_memory(memory.cursor, list(memory.registers), memory.counters, memory.kills)
    return run


def _restore_shop(run: Run, saved: ShopSave) -> None:
    shop = run.shop
    shop.wave = saved.wave
    shop.is_open = saved.is_open
    shop.rerolls = saved.rerolls
    shop.unlocked = frozenset(saved.unlocked)
    shop.luck = saved.luck
    shop.relic = saved.relic
    for shelf in SHELVES:
        shop.shelves[shelf] = [None if offer is None else Offer(**offer.model_dump()) for offer in getattr(saved, shelf)]
    shop.paid_cards = {card: list(prices) for card, prices in saved.paid_cards.items()}
    shop.paid_cores = dict(saved.paid_cores)
    shop.potion = saved.potion
    shop.rng = shop_rng(run.seed, saved.wave)
    if saved.rng_state is not None:
        shop.rng = random.Random()
        shop.rng.setstate((3, tuple(saved.rng_state), None))


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
    """The run is over (death, abandon, victory) or a new one began: its save goes."""
    (path if path is not None else run_save_path()).unlink(missing_ok=True)


@dataclass(frozen=True)
class LoadedRun:
    """A saved run, restored: go on with the shop before `next_wave`."""

    run: Run
    next_wave: int
    save: RunSave


@dataclass(frozen=True)
class SaveProblem:
    """run.json could not be used: `detail` says why (it names the field), `kept_as` where the file went."""

    detail: str
    kept_as: str


def load_run(content: Content, path: Path | None = None) -> LoadedRun | SaveProblem | None:
    """The saved run, restored into a fresh `Run`; None when nothing is saved; a
    `SaveProblem` when the file is unreadable, of another version, or does not
    fit the schema or the content — the file is then moved to `run.json.corrupt`."""
    path = path if path is not None else run_save_path()
    loaded = storage.read_json_or_quarantine(path)
    kept_as = path.name + ".corrupt"
    if loaded.problem is not None:
        return SaveProblem(loaded.problem, kept_as)
    if loaded.value is None:
        # No file; or a file holding JSON's null, which is no save either.
        return _set_aside(path, "(file): not a saved run") if path.exists() else None
    value = loaded.value
    version = value.get("version") if isinstance(value, dict) else None
    if version != SAVE_VERSION:
        return _set_aside(path, f"version: unknown save version {version!r} (this game reads version {SAVE_VERSION})")
    try:
        save = RunSave.model_validate(value, context={"content": content})
    except ValidationError as error:
        return _set_aside(path, _describe(error))
    try:
        run = restore(content, save)
    except (ArtificerError, KeyError) as error:
        # CoreArgumentError (a wand memory that does not fit the program, say) and LoadoutError are ArtificerErrors.
        return _set_aside(path, f"the run could not be restored: {error}")
    return LoadedRun(run, save.next_wave, save)


def _describe(error: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(part) for part in item['loc']) or '(file)'}: {item['msg']}" for item in error.errors())


def _set_aside(path: Path, reason: str) -> SaveProblem:
    detail = storage.quarantine(path, reason)
    log.warning("%s", detail)
    return SaveProblem(detail, path.name + ".corrupt")
