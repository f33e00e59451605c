"""What a shop offer would do to the player's own wand (R-SHOP-1, R-FEEL-2): the sustained DPS of
the active core now → after, as the lab's cast timeline counts it (R-VM-3c: only what the pool can
pay), with the CPU the player bought.

- A card goes into the first free slot of the active board; when the board is full, into the slot
  where it does the most good (the card it would replace is named).
- A core takes the active board's cards in their order (as many as it has slots).

No pygame: the shop scene shows the figures; `artificer.sim` could read them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from artificer import _core
from artificer.content import Content
from artificer.content.models import WandStat
from artificer.engine.wand import core_data, place, spell_catalog
from artificer.game.run import Run


@dataclass(frozen=True)
class OfferEffect:
    """Sustained DPS of the active wand now and with the offer; `replaces`: the card a full board
    would give up for it (None: it went into a free slot, or it is a core)."""

    now: float
    after: float
    replaces: str | None = None

    @property
    def gain(self) -> float:
        return self.after - self.now


#: One catalog per content (the content kept beside it: an id is only reused once it is gone).
_CATALOGS: dict[int, tuple[Content, _core.Catalog]] = {}


def _catalog(content: Content) -> _core.Catalog:
    known = _CATALOGS.get(id(content))
    if known is None or known[0] is not content:
        known = _CATALOGS[id(content)] = (content, spell_catalog(content))
    return known[1]


def sustained_dps(content: Content, core_id: str, cards: Sequence[str | None], cpu: int = 0) -> float:
    """The lab's sustained DPS of `cards` on `core_id` (R-VM-3c), the player's CPU stat `cpu` added."""
    core = content.core(core_id)
    placed = place(core, list(cards)[: core.capacity])
    timeline = _catalog(content).timeline(core_data(core), placed, cpu=cpu)
    return float(timeline["sustained_dps"])


def card_effect(
    content: Content, core_id: str, cards: Sequence[str | None], spell_id: str, cpu: int = 0
) -> OfferEffect:
    """R-SHOP-1: the card in the first free slot of `cards` on `core_id`; a full board tries each slot
    and keeps the best, naming what it replaces."""
    capacity = content.core(core_id).capacity
    board = list(cards)[:capacity] + [None] * max(0, capacity - len(cards))
    now = sustained_dps(content, core_id, board, cpu)
    if None in board:
        after = list(board)
        after[after.index(None)] = spell_id
        return OfferEffect(now, sustained_dps(content, core_id, after, cpu))
    best: OfferEffect | None = None
    for slot, old in enumerate(board):
        after = list(board)
        after[slot] = spell_id
        effect = OfferEffect(now, sustained_dps(content, core_id, after, cpu), old)
        if best is None or effect.after > best.after:
            best = effect
    assert best is not None  # a core has at least one slot
    return best


def offer_effect(run: Run, shelf: str, item: str) -> OfferEffect:
    """`card_effect` or `core_effect` for `run`'s active wand and the CPU it bought (`shelf`:
    "spells" or "cores")."""
    core_id, cards = run.loadout.wand()
    cpu = int(run.wand_stats.totals.get(WandStat.CPU, 0.0))
    if shelf == "cores":
        return core_effect(run.content, core_id, cards, item, cpu)
    return card_effect(run.content, core_id, cards, item, cpu)


def core_effect(content: Content, core_id: str, cards: Sequence[str | None], offered: str, cpu: int = 0) -> OfferEffect:
    """R-SHOP-1: the offered core with the active board's cards moved onto it, in order."""
    kept = [card for card in cards if card is not None][: content.core(offered).capacity]
    return OfferEffect(sustained_dps(content, core_id, cards, cpu), sustained_dps(content, offered, kept, cpu))
