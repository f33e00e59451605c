"""The shopping bot of the headless simulator (R-SIM-1): shops toward a build.

This module owns `ShoppingBot`: between waves it looks over the shelves and
buys, in this order, the build's core (and switches to it), the cards the
board still lacks, the build's stats in the build's order of priority, and
any talent on the shelf (R-END-1 Last Will) it can pay for beyond its reserve;
then rerolls while the gold lasts and looks again. Until it carries the
build's core it keeps a share of that core's price. Last it lays the owned
cards out in the build's order (keeping the old layout if the new one could
not fire, R-VM-2). Its tuning (how many rerolls, what to keep in reserve) is
a tool's, named below, not game data.
"""

from __future__ import annotations

from collections import Counter

from artificer.content.builds import Build
from artificer.game.loadout import LoadoutError
from artificer.game.run import Run
from artificer.game.shop import ShopError, wave_price

#: Rerolls the bot makes per shop at most, and the gold it must have beyond a reroll's price to make one.
MAX_REROLLS = 5
REROLL_RESERVE = 20
#: The share of its build's core's price the bot keeps while it does not carry that core.
CORE_SAVINGS = 1.0


class ShoppingBot:
    """Shops toward one build between waves; records what it bought."""

    def __init__(self, build: Build) -> None:
        self.build = build

    def shop(self, run: Run, wave: int) -> list[str]:
        """One shop visit after wave `wave`; returns the purchases as `"shelf:item"`."""
        shop = run.shop
        shop.open(wave)
        bought: list[str] = []
        for rerolls in range(MAX_REROLLS + 1):
            if rerolls:
                shop.reroll()
            self._buy_core(run, bought)
            self._buy_cards(run, bought)
            while self._buy_one_stat(run, self._reserve(run) + self._card_budget(run), bought):
                pass
            self._buy_talents(run, self._reserve(run) + self._card_budget(run), bought)
            # Reroll while the gold lasts: for the cards still missing, or to spend on stats.
            if run.currency - self._reserve(run) < shop.reroll_cost + REROLL_RESERVE:
                break
        self.arrange(run)
        return bought

    def wanted(self, run: Run) -> int:
        """R-CURVE-2: the price of everything on the shelves now that the bot would buy with gold
        enough: its build's core while it does not carry it, the cards its board still misses,
        its build's stats and the talents."""
        shop, missing = run.shop, self._missing(run)
        carried = {c.core for c in run.loadout.cores}
        total = 0
        for offer in shop.shelves["cores"]:
            if offer is not None and offer.item == self.build.core and offer.item not in carried:
                total += offer.price
        for offer in shop.shelves["spells"]:
            if offer is not None and missing[offer.item] > 0:
                missing[offer.item] -= 1
                total += offer.price
        for offer in shop.shelves["stats"]:
            if offer is not None and (offer.talent is not None or offer.item in self.build.stats):
                total += offer.price
        return total

    def _reserve(self, run: Run) -> int:
        """Gold kept back: a share of the build's core's price until it is carried."""
        if any(carried.core == self.build.core for carried in run.loadout.cores):
            return 0
        return round(run.content.core(self.build.core).price * CORE_SAVINGS)

    def _card_budget(self, run: Run) -> int:
        """Gold kept for the board's next missing card: the price of the cheapest one's tier now
        (0 when the board is complete). Only the build's first stat is bought out of it."""
        tiers = [run.content.spell(card).tier for card in self._missing(run)]
        if not tiers:
            return 0
        settings = run.shop.settings
        return wave_price(settings, settings.spell_price(min(tiers)), run.shop.wave)

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

    def _buy_one_stat(self, run: Run, reserve: int, bought: list[str]) -> bool:
        """Buys the first of the build's stats on the shelf it can pay for; the build's first
        stat (its engine) is bought even out of the savings."""
        shelf = run.shop.shelves["stats"]
        for rank, stat in enumerate(self.build.stats):
            for index, offer in enumerate(shelf):
                if offer is None or offer.item != stat or offer.price > run.currency - (reserve if rank else 0):
                    continue
                if self._take_from_shelf_c(run, index, bought):
                    return True
        return False

    def _buy_talents(self, run: Run, reserve: int, bought: list[str]) -> None:
        """Buys each talent on shelf C it can pay for beyond `reserve` (recorded as `"stats:<talent>"`)."""
        for index, offer in enumerate(run.shop.shelves["stats"]):
            if offer is None or offer.talent is None or offer.price > run.currency - reserve:
                continue
            self._take_from_shelf_c(run, index, bought)

    @staticmethod
    def _take_from_shelf_c(run: Run, index: int, bought: list[str]) -> bool:
        """Buys place `index` of shelf C (a stat or a talent); False if the shop refuses."""
        try:
            offer = run.shop.buy_stat(index)
        except ShopError:
            return False
        bought.append(f"stats:{offer.item}")
        return True

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
        before = [(c.core, list(c.cards)) for c in [carried, *others]]
        pool = Counter(card for card in carried.cards if card is not None)
        pool.update(loadout.backpack)
        for other in others:  # the bot plays one core: cards left on the others come along
            pool.update(card for card in other.cards if card is not None)
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
        # A core just bought starts empty: the other owned cards fill its free slots, in order,
        # so that it fires until the build's own cards arrive.
        rest = list(pool.elements())
        for index, slot in enumerate(slots):
            if slot is None and rest:
                slots[index] = rest.pop(0)
        free: list[str | None] = [None]
        boards = [(carried.core, slots), *((c.core, free * len(c.cards)) for c in others)]
        if len(rest) > loadout.limits_backpack or (boards == before and rest == before_backpack):
            return  # nothing moves: the wand stays armed as it is
        # The lab's moves, made through the loadout (a replay makes them again).
        loadout.arrange(boards, rest)
        if not run.rearm()["can_fire"]:
            loadout.arrange(before, before_backpack)
            run.rearm()
