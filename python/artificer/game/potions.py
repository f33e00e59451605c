"""Potions in a run (R-POT-1, R-POT-2) — the belt, drops, drinking and discarding; no pygame.

This module owns:

- `PotionBelt`: the run's potion slots. It always has `HUD_SLOTS` (5) places;
  the first `slots` are usable (potions.json `baseSlots`, 3; the Artisan's
  Belt relic sets `slots` to `beltSlots`, 5). Potions keep their slot: a
  drop or a purchase fills the first empty usable slot; discarding leaves a gap.
- Drops (R-POT-2): on winning a wave, one roll against `dropChance` from a
  generator seeded by the run seed and the wave number (the same potion at the
  same wave of the same seed, whatever happened in it); the potion is drawn
  uniformly from potions.json. A full belt keeps nothing (`PotionDrop.lost`:
  the UI toasts it).
- Drinking (R-POT-1) only during a wave (`NotInWave` otherwise, with nothing
  changed); discarding any time. Each effect is one of the core's per-frame
  commands, applied by the wave's next step: heal, ward, mana, strength,
  damage to the enemy nearest the target point, weak on that enemy for
  `value` turns. The target point is the cursor (the arena) or the player
  (a gamepad, the headless bot); with no enemy alive a targeted potion is
  refused (`NoTarget`) and kept. A turn is GAME_RULES §8's fixed beat of wave
  time, owned by the core (`World.turn_seconds`; weak goes in as turns).
- Strength "for the wave": what potions added in a wave is taken back when the
  wave ends (`end_wave`), before the final step of `WaveInProgress.finish`.
  The core resets strength at each `begin_wave` too (relics then re-add
  vajra's); taking back only what potions gave keeps the shop's view right.

The shop's potion place (one random potion at `shopPrice`) is `Shop`'s
(`artificer.game.shop`), drawn with `potion_for_sale`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from artificer.content.potions import HUD_SLOTS, Potion, PotionBook, PotionEffect
from artificer.engine import Simulation
from artificer.engine.frame import FrameInput, Status
from artificer.errors import ArtificerError
from artificer.game import draws
from artificer.game.journal import Journal, journaled
from artificer.game.stats import WaveStats


class PotionError(ArtificerError):
    """A potion action the rules refuse; nothing changed."""


class NotInWave(PotionError):
    """R-POT-2: potions are drunk only during a wave."""


class NoTarget(PotionError):
    """R-POT-1: a targeted potion needs an enemy alive."""


class BeltFull(PotionError):
    """R-POT-2: every usable slot holds a potion."""


class EmptySlot(PotionError):
    """The slot holds no potion (or is locked)."""


class InWorld(Protocol):
    """What drinking reads: the run's simulation (`artificer.game.run.Run`)."""

    @property
    def sim(self) -> Simulation: ...


class InWave(Protocol):
    """The wave a potion is drunk in (`artificer.game.run.WaveInProgress`)."""

    @property
    def over(self) -> bool: ...

    @property
    def stats(self) -> WaveStats: ...


@dataclass(frozen=True)
class PotionDrop:
    """A won wave's potion roll: the potion drawn (None: no drop) and whether the belt kept it."""

    potion: str | None
    kept: bool

    @property
    def found(self) -> bool:
        return self.potion is not None and self.kept

    @property
    def lost(self) -> bool:
        """A potion dropped but the belt was full (R-POT-2: a toast, no potion)."""
        return self.potion is not None and not self.kept


@dataclass(frozen=True)
class PotionUse:
    """A potion drunk: which, from which slot, and where a targeted one was aimed."""

    potion: str
    slot: int
    effect: PotionEffect
    value: float
    target: tuple[float, float] | None


def turn_seconds(run: InWorld) -> float:
    """R-POT-1's turn in seconds of wave time (GAME_RULES §8): the core owns the beat."""
    return run.sim.world.turn_seconds


def drop_rng(seed: int, wave: int) -> np.random.Generator:
    """The potion drop's generator after wave `wave` of the run seeded `seed` (`artificer.game.draws`)."""
    return draws.rng(seed, draws.POTION_DROP, wave)


def roll_drop(book: PotionBook, seed: int, wave: int) -> str | None:
    """R-POT-2: the potion a won wave drops (`dropChance`), or None."""
    rng = drop_rng(seed, wave)
    if float(rng.random()) >= book.drop_chance:
        return None
    return draws.pick(rng, book.ids)


def potion_for_sale(book: PotionBook, seed: int, wave: int) -> str:
    """R-POT-2: the shop after wave `wave` sells this potion (its own generator: the shelves' draws are untouched)."""
    return draws.pick(draws.rng(seed, draws.SHOP_POTION, wave), book.ids)


class PotionBelt:
    """The run's potion slots (R-POT-2). `held[i]` is the potion in slot i (0-based) or None."""

    def __init__(self, book: PotionBook) -> None:
        self.book = book
        self.held: list[str | None] = [None] * HUD_SLOTS
        self._slots = book.base_slots
        #: Strength potions added during the current wave (taken back at its end).
        self.wave_strength = 0.0

    def to_save(self) -> dict[str, Any]:
        """run.json's `potions` (R-SAVE-1): the usable slots and the potion (or None) in each place."""
        return {"slots": self.slots, "held": list(self.held)}

    @classmethod
    def from_save(cls, book: PotionBook, data: Mapping[str, Any] | None) -> PotionBelt:
        """The belt `to_save` wrote (checked by the schema first); None (a save from before
        potions): an empty belt."""
        belt = cls(book)
        if data is not None:
            belt.slots = data["slots"]
            belt.held = list(data["held"]) + [None] * (HUD_SLOTS - len(data["held"]))
        return belt

    @property
    def slots(self) -> int:
        """How many slots are usable: `baseSlots`, or `beltSlots` with the Artisan's Belt (relics set it)."""
        return self._slots

    @slots.setter
    def slots(self, count: int) -> None:
        # A potion in a slot that gets locked stays there (shown, not usable) until the slot opens again.
        self._slots = max(0, min(HUD_SLOTS, int(count)))

    def unlocked(self, index: int) -> bool:
        return 0 <= index < self._slots

    def potion_at(self, index: int) -> str | None:
        """The potion in slot `index` if the slot is usable, else None."""
        return self.held[index] if self.unlocked(index) else None

    def potions(self) -> list[str]:
        """The potions in usable slots, in slot order."""
        return [potion for index, potion in enumerate(self.held) if potion is not None and self.unlocked(index)]

    @property
    def full(self) -> bool:
        return all(self.held[index] is not None for index in range(self._slots))

    def add(self, potion_id: str) -> int:
        """Puts `potion_id` in the first empty usable slot; returns it. `BeltFull` when there is none."""
        self.book.potion(potion_id)  # an unknown id is a KeyError, not a potion
        for index in range(self._slots):
            if self.held[index] is None:
                self.held[index] = potion_id
                return index
        raise BeltFull(f"the belt's {self._slots} potion slots are full")

    @journaled("belt")
    def discard(self, index: int) -> str:
        """R-POT-2: empties slot `index`, in a wave or not; returns the potion thrown away."""
        potion = self.potion_at(index)
        if potion is None:
            raise EmptySlot(f"potion slot {index + 1} is empty")
        self.held[index] = None
        return potion

    # --- in a wave -----------------------------------------------------------------------

    def use(
        self, run: InWorld, wave: InWave | None, index: int, target: tuple[float, float] | None = None
    ) -> PotionUse:
        """R-POT-1: drinks the potion in slot `index`; its effect reaches the core with the wave's
        next step. `target` is where the player points (None: at the player). Refused, with
        nothing changed, outside a wave (`NotInWave`), for an empty slot (`EmptySlot`) and for a
        targeted potion with no enemy alive (`NoTarget`)."""
        if wave is None or wave.over:
            raise NotInWave("potions can only be drunk during a wave")
        potion_id = self.potion_at(index)
        if potion_id is None:
            raise EmptySlot(f"potion slot {index + 1} is empty")
        potion = self.book.potion(potion_id)
        sim = run.sim
        aim: tuple[float, float] | None = None
        if potion.effect.targeted:
            if sim.buffers.counts.enemies <= 0:
                raise NoTarget("no enemy to target")
            aim = target if target is not None else (sim.buffers.player_value("x"), sim.buffers.player_value("y"))
        self.held[index] = None
        self._apply(sim.input, potion, aim)
        wave.stats.potions_used += 1
        journal: Journal | None = getattr(self, "journal", None)
        if journal is not None:  # a replay drinks it again before the same step (run and wave are its own)
            journal.record("belt", "use", (index, target))
        return PotionUse(potion_id, index, potion.effect, potion.value, aim)

    def _apply(self, frame: FrameInput, potion: Potion, aim: tuple[float, float] | None) -> None:
        effect, value = potion.effect, potion.value
        if effect == PotionEffect.HEAL:
            frame.heal(value)
        elif effect == PotionEffect.WARD:
            frame.ward(value)
        elif effect == PotionEffect.MANA:
            frame.grant_mana(value)
        elif effect == PotionEffect.STRENGTH:
            frame.strength(value)
            self.wave_strength += value
        elif effect == PotionEffect.DAMAGE:
            assert aim is not None
            frame.damage_nearest(aim[0], aim[1], value)
        elif effect == PotionEffect.WEAK:
            assert aim is not None
            frame.apply_status_turns(Status.WEAK, aim[0], aim[1], value)

    def end_wave(self, frame: FrameInput, seed: int, wave: int, won: bool) -> PotionDrop | None:
        """Wave `wave` of the run seeded `seed` is over (called first thing in
        `WaveInProgress.finish`): the strength potions gave is taken back through `frame`
        (R-POT-1: for the wave), and a won wave rolls its drop (R-POT-2). Returns the drop of a
        won wave (None when the player died); a kept one is in the belt."""
        if self.wave_strength:
            frame.strength(-self.wave_strength)
            self.wave_strength = 0.0
        if not won:
            return None
        potion = roll_drop(self.book, seed, wave)
        if potion is None:
            return PotionDrop(None, False)
        if self.full:
            return PotionDrop(potion, False)
        self.add(potion)
        return PotionDrop(potion, True)
