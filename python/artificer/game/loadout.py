"""The cores a player carries (R-CORE-3, seed 001 §2 and §5.G5).

At most `max_cores` cores are carried, the active one included; exactly
one is active in combat, and it is switched only in the shop. Every core
keeps its own slot contents. A core that leaves the loadout (sold,
discarded, or swapped for a new one) moves its cards to the waiting area
(at most `waiting_area` cards); when they would not fit, nothing changes
and the player is asked to sell or discard cards first. Waiting cards go
back into any carried core's empty slots in the shop.

The backpack (R-LAB-1) holds the cards the player owns but has not slotted
(at most `backpack` of them). The lab edits every carried core: it moves
cards with `move(source, target)` between backpack places, the waiting
area and the slots of any carried core — onto an empty place the card
moves, onto a taken one the two cards swap — and `send_to_core` drops a
card into a core's first free slot (a card dropped on that core's tab).
The waiting area only empties: its cards go to a board or the backpack.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from artificer.content import Content
from artificer.errors import ArtificerError
from artificer.game.journal import argument_type, journaled


class LoadoutError(ArtificerError):
    """A loadout change the rules refuse; the message says what to do."""


class LoadoutFull(LoadoutError):
    """Buying one more core: choose a core to sell or discard (R-CORE-3)."""


class WaitingAreaFull(LoadoutError):
    """The cards would not fit the waiting area: sell or discard some first."""

    def __init__(self, message: str, overflow: list[str]) -> None:
        super().__init__(message)
        self.overflow = overflow


@argument_type
@dataclass(frozen=True)
class Place:
    """Where a card sits in the lab: `("backpack", index)`, `("waiting", index)`, or
    `("slot", index, core)`: slot `index` of carried core `core` (None: the active core)."""

    area: Literal["backpack", "slot", "waiting"]
    index: int
    core: str | None = None


class BackpackFull(LoadoutError):
    """The backpack has no room for one more card."""


class CoreFull(LoadoutError):
    """A card sent to a core with no empty slot."""

    def __init__(self, message: str, core: str) -> None:
        super().__init__(message)
        self.core = core


@dataclass
class CarriedCore:
    core: str
    cards: list[str | None]


@dataclass
class Loadout:
    content: Content
    cores: list[CarriedCore] = field(default_factory=list)
    active: str = ""
    waiting: list[str] = field(default_factory=list)
    backpack: list[str] = field(default_factory=list)

    def to_save(self) -> dict[str, Any]:
        """run.json's `loadout` (R-SAVE-1; its schema: `artificer.game.save.LoadoutSave`): every
        carried core with its slots, the active core, the waiting area, the backpack."""
        return {
            "cores": [{"core": carried.core, "cards": list(carried.cards)} for carried in self.cores],
            "active": self.active,
            "waiting": list(self.waiting),
            "backpack": list(self.backpack),
        }

    @classmethod
    def from_save(cls, content: Content, data: Mapping[str, Any]) -> Loadout:
        """The loadout `to_save` wrote (checked by the schema first)."""
        return cls(
            content,
            cores=[CarriedCore(carried["core"], list(carried["cards"])) for carried in data["cores"]],
            active=data["active"],
            waiting=list(data["waiting"]),
            backpack=list(data["backpack"]),
        )

    @classmethod
    def starting(cls, content: Content) -> Loadout:
        start = content.balance.starting_wand
        loadout = cls(content)
        loadout.cores.append(CarriedCore(start.core, loadout._slots(start.core, list(start.cards))))
        loadout.active = start.core
        return loadout

    @property
    def limits(self) -> tuple[int, int]:
        return self.content.balance.loadout.max_cores, self.content.balance.loadout.waiting_area

    def carried(self, core_id: str) -> CarriedCore:
        for carried in self.cores:
            if carried.core == core_id:
                return carried
        raise LoadoutError(f"not carrying core {core_id!r}")

    def wand(self) -> tuple[str, list[str | None]]:
        """The active core and its cards, for `Simulation.arm_wand`."""
        return self.active, list(self.carried(self.active).cards)

    def add_core(self, core_id: str, drop: str | None = None) -> list[str]:
        """A new core joins (bought, or found). With the loadout full, `drop`
        names the core to sell or discard; its cards go to the waiting area.
        Returns the cards moved there."""
        self.content.core(core_id)  # an unknown id is the caller's KeyError
        max_cores, _ = self.limits
        moved: list[str] = []
        if len(self.cores) >= max_cores:
            if drop is None:
                names = ", ".join(c.core for c in self.cores)
                raise LoadoutFull(f"already carrying {max_cores} cores ({names}): choose one to sell or discard")
            moved = self.remove_core(drop, replacing=True)
        self.cores.append(CarriedCore(core_id, self._slots(core_id, [])))
        if not self.active:
            self.active = core_id
        return moved

    def remove_core(self, core_id: str, replacing: bool = False) -> list[str]:
        """Sells or discards a carried core; its cards move to the waiting area."""
        gone = self.carried(core_id)
        if len(self.cores) == 1 and not replacing:
            raise LoadoutError("the last core cannot be sold: the wand needs a body")
        cards = [card for card in gone.cards if card is not None]
        self._check_room(cards)
        self.cores.remove(gone)
        self.waiting.extend(cards)
        if self.active == core_id:
            self.active = self.cores[0].core if self.cores else ""
        return cards

    @journaled("loadout")
    def switch(self, core_id: str, in_shop: bool, carry: bool = False) -> None:
        """Makes a carried core the active one — only in the shop. `carry` (the shop's Switch,
        R-SHOP-1: what the core offer's "now → after" showed): onto a core whose board is empty,
        the active board's cards move over in their order, as many as it has slots (the rest stay
        where they were)."""
        if not in_shop:
            raise LoadoutError("the active core is switched only in the shop")
        target = self.carried(core_id)
        if carry and target.core != self.active and all(card is None for card in target.cards):
            source = self.carried(self.active)
            moving = [slot for slot, card in enumerate(source.cards) if card is not None][: len(target.cards)]
            for to, slot in enumerate(moving):
                target.cards[to], source.cards[slot] = source.cards[slot], None
        self.active = target.core

    def place(self, card: str, core_id: str, slot: int) -> None:
        """A waiting card into an empty slot of a carried core (the shop)."""
        carried = self.carried(core_id)
        if card not in self.waiting:
            raise LoadoutError(f"{card!r} is not in the waiting area")
        if not 0 <= slot < len(carried.cards) or carried.cards[slot] is not None:
            raise LoadoutError(f"slot {slot} of {core_id!r} is not an empty slot")
        self.waiting.remove(card)
        carried.cards[slot] = card

    # --- the lab (R-LAB-1) -------------------------------------------------------------

    def card_at(self, place: Place) -> str | None:
        """The card at `place` (None: empty, or a backpack or waiting index past the last card)."""
        if place.area != "slot":
            cards = self._list(place.area)
            return cards[place.index] if 0 <= place.index < len(cards) else None
        board = self._board(place)
        if not 0 <= place.index < len(board):
            raise LoadoutError(f"core {self._core_of(place)!r} has no slot {place.index}")
        return board[place.index]

    def first_free(self, core_id: str) -> int | None:
        """The first empty slot of a carried core (None: every slot holds a card)."""
        cards = self.carried(core_id).cards
        return next((index for index, card in enumerate(cards) if card is None), None)

    @journaled("loadout")
    def move(self, source: Place, target: Place) -> None:
        """Drag a card from `source` to `target`: into an empty place it moves, onto a card they swap.
        Dropping into the backpack past its last card appends. Nothing goes into the waiting area."""
        card = self.card_at(source)
        if card is None:
            raise LoadoutError("there is no card to move there")
        source, target = self._resolved(source), self._resolved(target)
        if source == target:
            return
        if target.area == "waiting":
            raise LoadoutError("the waiting area only empties: put its cards on a board or in the backpack")
        other = self.card_at(target)
        if target.area == "slot":
            self._board(target)[target.index] = card
        elif target.index < len(self.backpack):
            self.backpack[target.index] = card
        else:
            if source.area != "backpack" and len(self.backpack) >= self.limits_backpack:
                raise BackpackFull(f"the backpack holds {self.limits_backpack} cards")
            self.backpack.append(card)
        if source.area == "slot":
            self._board(source)[source.index] = other
        elif other is not None:
            self._list(source.area)[source.index] = other
        else:
            del self._list(source.area)[source.index]

    @journaled("loadout")
    def send_to_core(self, source: Place, core_id: str) -> int | None:
        """A card dropped on a core's tab: into that core's first free slot. Returns the slot
        (None: the card already sits on that core, nothing moves); `CoreFull` when no slot is free."""
        source = self._resolved(source)
        if source.area == "slot" and source.core == core_id:
            return None
        free = self.first_free(core_id)
        if free is None:
            raise CoreFull(f"core {core_id!r} has no empty slot", core_id)
        self.move(source, Place("slot", free, core_id))
        return free

    def _core_of(self, place: Place) -> str:
        return place.core if place.core is not None else self.active

    def _board(self, place: Place) -> list[str | None]:
        return self.carried(self._core_of(place)).cards

    def _list(self, area: str) -> list[str]:
        return self.backpack if area == "backpack" else self.waiting

    def _resolved(self, place: Place) -> Place:
        """`place` with its core named (a slot of "the active core" compares equal to the same slot named)."""
        return Place(place.area, place.index, self._core_of(place)) if place.area == "slot" else place

    @journaled("loadout")
    def lay_out(self, core_id: str, cards: tuple[str | None, ...] | list[str | None]) -> list[str]:
        """A wand code pasted in the lab: `core_id`'s board becomes `cards`, slot for slot, made of
        the cards on that board and in the backpack; whatever they leave over goes to the
        backpack. Returns the cards missing (then nothing changes); `LoadoutError` when the core
        is not carried, `BackpackFull` when the leftovers do not fit."""
        carried = self.carried(core_id)
        wanted = self._slots(core_id, list(cards))
        pool = Counter(card for card in [*carried.cards, *self.backpack] if card is not None)
        needed = Counter(card for card in wanted if card is not None)
        missing = sorted((needed - pool).elements())
        if missing:
            return missing
        # The backpack keeps its order: each card the board takes leaves it from the end.
        left = Counter(card for card in carried.cards if card is not None)
        left.subtract(needed)
        backpack = list(self.backpack)
        for card, n in left.items():
            for _ in range(-n):  # taken from the backpack
                del backpack[len(backpack) - 1 - backpack[::-1].index(card)]
        for slotted in carried.cards:  # what the board had and keeps no more, in slot order
            if slotted is not None and left[slotted] > 0:
                backpack.append(slotted)
                left[slotted] -= 1
        if len(backpack) > self.limits_backpack:
            raise BackpackFull(f"the backpack holds {self.limits_backpack} cards")
        carried.cards[:] = wanted
        self.backpack[:] = backpack
        return []

    @journaled("loadout")
    def arrange(self, boards: Sequence[tuple[str, Sequence[str | None]]], backpack: Sequence[str]) -> None:
        """Many of the lab's moves at once (the shopping bot's hand): each named carried core's
        board becomes its cards, slot for slot, and the backpack `backpack` — the very cards the
        boards and the backpack hold now, rearranged. `LoadoutError` (nothing changes) for a core
        not carried, a board of the wrong size, a card the player does not own there, or a backpack
        over its limit."""
        named = [(self.carried(core_id), list(cards)) for core_id, cards in boards]
        for carried, cards in named:
            if len(cards) != len(carried.cards):
                raise LoadoutError(f"{carried.core}: {len(cards)} cards for {len(carried.cards)} slots")
        touched = {id(carried) for carried, _ in named}
        if len(touched) != len(named):
            raise LoadoutError("a core's board is given twice")
        had = Counter(c for carried, _ in named for c in carried.cards if c is not None) + Counter(self.backpack)
        has = Counter(c for _, cards in named for c in cards if c is not None) + Counter(backpack)
        if had != has:
            raise LoadoutError("a rearrangement must keep the same cards")
        if len(backpack) > self.limits_backpack:
            raise BackpackFull(f"the backpack holds {self.limits_backpack} cards")
        for carried, cards in named:
            carried.cards[:] = cards
        self.backpack[:] = list(backpack)

    def stash(self, card: str) -> None:
        """A new card (bought, found) goes into the backpack."""
        if len(self.backpack) >= self.limits_backpack:
            raise BackpackFull(f"the backpack holds {self.limits_backpack} cards: sell one first")
        self.content.spell(card)  # an unknown id is the caller's KeyError
        self.backpack.append(card)

    @property
    def limits_backpack(self) -> int:
        return self.content.balance.loadout.backpack

    def discard_waiting(self, card: str) -> None:
        if card not in self.waiting:
            raise LoadoutError(f"{card!r} is not in the waiting area")
        self.waiting.remove(card)

    def _check_room(self, cards: list[str]) -> None:
        _, room = self.limits
        free = room - len(self.waiting)
        if len(cards) > free:
            overflow = cards[free:] if free >= 0 else cards
            raise WaitingAreaFull(
                f"{len(cards)} cards would move to the waiting area, which has room for {max(free, 0)}: "
                f"sell or discard {len(overflow)} first",
                overflow,
            )

    def _slots(self, core_id: str, cards: list[str | None]) -> list[str | None]:
        capacity = self.content.core(core_id).capacity
        if len(cards) > capacity:
            raise LoadoutError(f"{len(cards)} cards do not fit core {core_id!r} ({capacity} slots)")
        return cards + [None] * (capacity - len(cards))
