"""The shopping bot of the headless simulator (R-SIM-1): shops toward a build.

This module owns `ShoppingBot`: between waves it buys the build's core when
offered and switches to it, buys the cards the board still lacks (rerolling
a few times for them), lays the owned cards out in the build's order
(keeping the old layout if the new one could not fire, R-VM-2), and spends
what is left on the build's stats. Its tuning (how many rerolls, what to
keep in reserve) is a tool's, named below, not game data.
"""

from __future__ import annotations

from collections import Counter

from artificer.content.builds import Build
from artificer.game.loadout import LoadoutError
from artificer.game.run import Run
from artificer.game.shop import ShopError

#: Rerolls the bot makes per shop when the board still lacks cards, and the gold it keeps for buying after one.
MAX_REROLLS = 3
REROLL_RESERVE = 15


class ShoppingBot:
    """Shops toward one build between waves; records what it bought."""

    def __init__(self, build: Build) -> None:
        self.build = build

    def shop(self, run: Run, wave: int) -> list[str]:
        """One shop visit after wave `wave`; returns the purchases as `"shelf:item"`."""
        shop = run.shop
        shop.open(wave)
        bought: list[str] = []
        self._buy_core(run, bought)
        self._buy_cards(run, bought)
        rerolls = 0
        while self._missing(run) and rerolls < MAX_REROLLS and run.currency >= shop.reroll_cost + REROLL_RESERVE:
            shop.reroll()
            rerolls += 1
            self._buy_core(run, bought)
            self._buy_cards(run, bought)
        self.arrange(run)
        self._buy_stats(run, bought)
        return bought

    def _missing(self, run: Run) -> Counter[str]:
        """Cards the build's board wants that the player does not own yet."""
        loadout = run.loadout
        owned = Counter(card for carried in loadout.cores for card in carried.cards if card is not None)
        owned.update(loadout.backpack)
        owned.update(loadout.waiting)
        wanted = Counter(card for card in self.build.board if card is not None)
        return wanted - owned

    def _buy_core(self, run: Run, bought: list[str]) -> None:
        loadout, shop = run.loadout, run.shop
        if any(carried.core == self.build.core for carried in loadout.cores):
            if loadout.active != self.build.core:
                shop.switch_core(self.build.core)
            return
        for index, offer in enumerate(shop.shelves["cores"]):
            if offer is None or offer.item != self.build.core or offer.price > run.currency:
                continue
            spare = [c.core for c in loadout.cores if c.core != loadout.active]
            drop = spare[0] if len(loadout.cores) >= loadout.limits[0] and spare else None
            try:
                shop.buy_core(index, drop)
                self._take_back_waiting(run)
                shop.switch_core(self.build.core)
            except (ShopError, LoadoutError):
                return
            bought.append(f"cores:{offer.item}")
            return

    def _buy_cards(self, run: Run, bought: list[str]) -> None:
        for index, offer in enumerate(run.shop.shelves["spells"]):
            if offer is None or offer.price > run.currency or not self._missing(run)[offer.item]:
                continue
            try:
                run.shop.buy_spell(index)
            except (ShopError, LoadoutError):
                continue
            bought.append(f"spells:{offer.item}")

    def _buy_stats(self, run: Run, bought: list[str]) -> None:
        for stat in self.build.stats:
            for index, offer in enumerate(run.shop.shelves["stats"]):
                if offer is None or offer.item != stat or offer.price > run.currency:
                    continue
                try:
                    run.shop.buy_stat(index)
                except ShopError:
                    continue
                bought.append(f"stats:{offer.item}")

    def _take_back_waiting(self, run: Run) -> None:
        """Cards a sold core left in the waiting area go back to the backpack while there is room."""
        for card in list(run.loadout.waiting):
            try:
                run.shop.stash_waiting(card)
            except (ShopError, LoadoutError):
                return

    def arrange(self, run: Run) -> None:
        """Lay the owned cards out in the build's order on the active core; keep the old layout
        when the new one could not fire (R-VM-2) or would not fit the backpack."""
        loadout = run.loadout
        carried = loadout.carried(loadout.active)
        before_slots, before_backpack = list(carried.cards), list(loadout.backpack)
        others = [c for c in loadout.cores if c is not carried]
        before_others = [list(c.cards) for c in others]
        pool = Counter(card for card in carried.cards if card is not None)
        pool.update(loadout.backpack)
        for other in others:  # the bot plays one core: cards left on the others come along
            pool.update(card for card in other.cards if card is not None)
            other.cards[:] = [None] * len(other.cards)
        target = self.build.board[: len(carried.cards)]
        slots: list[str | None] = []
        for card in target:
            if card is not None and pool[card] > 0:
                pool[card] -= 1
                slots.append(card)
            else:
                slots.append(None)
        # Owned cards the build does not place keep their old slots if those are free (the starter's
        # bolts stay useful until the build's cards arrive); the rest go to the backpack.
        slots += [None] * (len(carried.cards) - len(slots))
        for index, card in enumerate(before_slots):
            if card is not None and pool[card] > 0 and slots[index] is None:
                pool[card] -= 1
                slots[index] = card
        rest = list(pool.elements())
        carried.cards[:] = slots
        loadout.backpack[:] = rest
        if len(rest) > loadout.limits_backpack or not run.rearm()["can_fire"]:
            carried.cards[:] = before_slots
            loadout.backpack[:] = before_backpack
            for other, cards in zip(others, before_others):
                other.cards[:] = cards
            run.rearm()
