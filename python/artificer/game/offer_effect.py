"""What a shop offer would do to the player's own wand (R-SHOP-1, R-FEEL-2): the sustained DPS of
the active core now → after, as the lab's cast timeline counts it (R-VM-3c: only what the pool can
pay), with what the player's stats and relics add (`WandBonus`, R-CURVE-1: the CPU and cast speed
bought, the pool's regen, the crit and attunement on each hit).

- A card goes into the first free slot of the active board; when the board is full, into the slot
  where it does the most good (the card it would replace is named).
- A core takes the active board's cards in their order (as many as it has slots).

No pygame: the shop scene shows the figures; `artificer.sim` could read them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from artificer.content import Content
from artificer.content.models import ATTUNEMENT_PREFIX, WandStat
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


@dataclass(frozen=True)
class WandBonus:
    """What the player's stats and relics add to the figures of a wand (R-CURVE-1, R-STAT-1,
    R-REL-1), as the world applies them: the CPU and cast speed bought, the pool's regen (bought
    and the relics') and max mana bought, the player's crit chance at its multiplier, and each attuned element's
    damage factor. `WandBonus()` adds nothing: a wand's own figures."""

    cpu: int = 0
    cast_speed: float = 0.0
    mana_regen: float = 0.0
    #: R-STAT-1 max mana bought: added to the core's pool (R-MANA-7).
    mana_max: float = 0.0
    crit_chance: float = 0.0
    crit_multiplier: float = 1.0
    #: (element, damage factor) for each attuned element.
    damage: tuple[tuple[str, float], ...] = ()

    @classmethod
    def of(cls, run: Run) -> WandBonus:
        """`run`'s: its stats bought (`WandStats`), its relics' regen, balance.json's base crit."""
        content, totals = run.content, run.wand_stats.totals
        player = content.balance.player
        per_point = content.balance.statuses.attunement.damage_per_point
        attuned = (
            (stat.value.removeprefix(ATTUNEMENT_PREFIX), 1.0 + per_point * total)
            for stat, total in totals.items()
            if stat.value.startswith(ATTUNEMENT_PREFIX) and total > 0
        )
        return cls(
            cpu=int(totals[WandStat.CPU]),
            cast_speed=totals[WandStat.CAST_SPEED],
            mana_regen=totals[WandStat.MANA_REGEN] + run.relics.player_bonus()["mana_regen_bonus"],
            mana_max=totals[WandStat.MAX_MANA],
            crit_chance=min(1.0, player.crit_chance + totals[WandStat.CRIT_CHANCE]),
            crit_multiplier=player.crit_multiplier,
            damage=tuple(attuned),
        )

    def timeline(self, content: Content, core_id: str, cards: Sequence[str | None]) -> dict[str, Any]:
        """The lab's cast timeline (R-VM-3c) of `cards` on `core_id` with this bonus."""
        core = content.core(core_id)
        placed = place(core, list(cards)[: core.capacity])
        return dict(
            spell_catalog(content).timeline(
                core_data(core),
                placed,
                cpu=self.cpu,
                cast_speed=self.cast_speed,
                mana_regen=self.mana_regen,
                mana_max=self.mana_max,
                damage=dict(self.damage),
                crit_chance=self.crit_chance,
                crit_multiplier=self.crit_multiplier,
            )
        )


def sustained_dps(content: Content, core_id: str, cards: Sequence[str | None], bonus: WandBonus = WandBonus()) -> float:
    """The lab's sustained DPS of `cards` on `core_id` (R-VM-3c), with the player's `bonus`."""
    return float(bonus.timeline(content, core_id, cards)["sustained_dps"])


def wand_dps(run: Run) -> float:
    """R-CURVE-1: the sustained DPS of `run`'s active wand, its stats and relics counted."""
    core_id, cards = run.loadout.wand()
    return sustained_dps(run.content, core_id, cards, WandBonus.of(run))


def card_effect(
    content: Content, core_id: str, cards: Sequence[str | None], spell_id: str, bonus: WandBonus = WandBonus()
) -> OfferEffect:
    """R-SHOP-1: the card in the first free slot of `cards` on `core_id`; a full board tries each slot
    and keeps the best, naming what it replaces."""
    capacity = content.core(core_id).capacity
    board = list(cards)[:capacity] + [None] * max(0, capacity - len(cards))
    now = sustained_dps(content, core_id, board, bonus)
    if None in board:
        after = list(board)
        after[after.index(None)] = spell_id
        return OfferEffect(now, sustained_dps(content, core_id, after, bonus))
    best: OfferEffect | None = None
    for slot, old in enumerate(board):
        after = list(board)
        after[slot] = spell_id
        effect = OfferEffect(now, sustained_dps(content, core_id, after, bonus), old)
        if best is None or effect.after > best.after:
            best = effect
    assert best is not None  # a core has at least one slot
    return best


def offer_effect(run: Run, shelf: str, item: str) -> OfferEffect:
    """`card_effect` or `core_effect` for `run`'s active wand, its stats and relics counted
    (`shelf`: "spells" or "cores")."""
    core_id, cards = run.loadout.wand()
    bonus = WandBonus.of(run)
    if shelf == "cores":
        return core_effect(run.content, core_id, cards, item, bonus)
    return card_effect(run.content, core_id, cards, item, bonus)


def core_effect(
    content: Content, core_id: str, cards: Sequence[str | None], offered: str, bonus: WandBonus = WandBonus()
) -> OfferEffect:
    """R-SHOP-1: the offered core with the active board's cards moved onto it, in order."""
    kept = [card for card in cards if card is not None][: content.core(offered).capacity]
    return OfferEffect(sustained_dps(content, core_id, cards, bonus), sustained_dps(content, offered, kept, bonus))
