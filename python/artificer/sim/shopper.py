"""The shopping bot of the headless simulator (R-SIM-1, R-CURVE): shops as a player who builds.

This module owns `ShoppingBot`: between waves it looks over the shelves and buys, in this order,
the build's core (and switches to it), the cards the build's board still lacks, then any card or
core that makes its wand stronger by the lab's own figure (the sustained DPS with its stats and
relics, `offer_effect.WandBonus`: a card worth `CARD_GAIN` more per purchase, a core `CORE_GAIN`
more, the best gain per gold first), the build's stats in its order of priority, and any talent on
the shelf (R-END-1 Last Will) it can pay for beyond its reserve; then rerolls while the gold lasts
and looks again. Until it carries the build's core (or one of its tier or better) it keeps a share
of that core's price. Last it lays the owned cards out (`layout`): the build's cards in the
build's places, the others by tier in the free slots, so every card it bought to make the wand
stronger is on the board and fires (keeping the old layout if the new one could not fire, R-VM-2).
Its tuning (how many rerolls, what to keep in reserve, what gain is worth gold) is a tool's, named
below, not game data.
"""

from __future__ import annotations

from collections import Counter

from artificer.content.builds import Build
from artificer.content.cores import CoreFlag
from artificer.game.loadout import LoadoutError
from artificer.game.offer_effect import WandBonus, sustained_dps
from artificer.game.run import Run
from artificer.game.shop import Offer, ShopError, wave_price

#: Rerolls the bot makes per shop at most, and the gold it must have beyond a reroll's price to make one.
MAX_REROLLS = 10
REROLL_RESERVE = 20
#: The share of its build's core's price the bot keeps while it does not carry that core.
CORE_SAVINGS = 1.0
#: What a card or a core off the build's plan must add to the wand's sustained DPS to be bought.
CARD_GAIN = 0.05
CORE_GAIN = 0.15
#: Stats bought in each look at the shelves before the upgrades (the rest after them).
FIRST_STATS = 2
#: A better core the gold does not pay yet is saved for (locked, so the next shop keeps it, and
#: nothing more bought) when its price is at most this many times the gold held: a player saves
#: for the core that makes the wand (R-CORE-5), not for one out of reach.
SAVE_FOR_CORE = 3.0


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
            # A player keeps alive too: the build's first stats before the upgrades, the rest after.
            for _ in range(FIRST_STATS):
                self._buy_one_stat(run, self._reserve(run) + self._card_budget(run), bought)
            if not self.build.control:  # a control (the hold bot) keeps its wand
                self._buy_upgrades(run, bought)
                if self._save_for_core(run, wave):
                    break
            while self._buy_one_stat(run, self._reserve(run) + self._card_budget(run), bought):
                pass
            if wave >= len(run.content.waves) - 1:  # the last shop: a player spends it all before the last wave
                while self._buy_any_stat(run, bought):
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
        if not self.build.control:
            total += sum(offer.price for offer, _ in self._upgrades(run, affordable=False))
        return total

    def _reserve(self, run: Run) -> int:
        """Gold kept back: a share of the build's core's price until it, or a core of its tier or
        better, is carried."""
        content = run.content
        planned = content.core(self.build.core)
        if any(content.core(carried.core).tier >= planned.tier for carried in run.loadout.cores):
            return 0
        return round(planned.price * CORE_SAVINGS)

    def _card_budget(self, run: Run) -> int:
        """Gold kept for the board's next missing card: the price of the cheapest one's tier now
        (0 when the board is complete). Only the build's first stat is bought out of it."""
        tiers = [run.content.spell(card).tier for card in self._missing(run)]
        if not tiers:
            return 0
        settings = run.shop.settings
        return wave_price(settings, settings.spell_price(min(tiers)), run.shop.wave)

    def _missing(self, run: Run) -> Counter[str]:
        """Cards the build's board wants that the player does not own yet (the waiting area's too)."""
        owned = self._owned(run)
        owned.update(run.loadout.waiting)
        wanted = Counter(card for card in self.build.board if card is not None)
        return wanted - owned

    def _buy_core(self, run: Run, bought: list[str]) -> None:
        loadout, shop = run.loadout, run.shop
        if any(carried.core == self.build.core for carried in loadout.cores):
            self._play_strongest(run)
            return
        for index, offer in enumerate(shop.shelves["cores"]):
            if offer is None or offer.item != self.build.core or offer.price > run.currency:
                continue
            drop = self._spare(run) if len(loadout.cores) >= loadout.limits[0] else None
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

    def _buy_any_stat(self, run: Run, bought: list[str]) -> bool:
        """Buys the cheapest stat on shelf C (the build's or not) the gold pays for; False if none."""
        shelf = run.shop.shelves["stats"]
        priced = [
            (offer.price, index)
            for index, offer in enumerate(shelf)
            if offer is not None and offer.talent is None and offer.price <= run.currency
        ]
        return bool(priced) and self._take_from_shelf_c(run, min(priced)[1], bought)

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

    def _buy_upgrades(self, run: Run, bought: list[str]) -> None:
        """Buys the cards and cores off the build's plan that make the wand stronger (R-CURVE-1),
        the best gain per gold first, while the gold beyond the reserve pays; lays each out."""
        while True:
            upgrades = self._upgrades(run, affordable=True)
            if not upgrades:
                return
            offer, _ = upgrades[0]
            shelf = run.shop.shelves[offer.kind]
            index = shelf.index(offer)
            try:
                if offer.kind == "cores":
                    loadout = run.loadout
                    drop = self._spare(run) if len(loadout.cores) >= loadout.limits[0] else None
                    run.shop.buy_core(index, drop)
                    self._take_back_waiting(run)
                    run.shop.switch_core(offer.item)
                else:
                    self._make_room(run)
                    run.shop.buy_spell(index)
            except (ShopError, LoadoutError):
                return
            bought.append(f"{offer.kind}:{offer.item}")
            self.arrange(run)

    def _save_for_core(self, run: Run, wave: int) -> bool:
        """Locks the best core upgrade on the shelf that the gold does not pay yet, when one is worth
        saving for (`SAVE_FOR_CORE`) and a shop after this one can still sell it (not the last
        shop of the run); True if the bot saves (it buys nothing more in this shop)."""
        if wave >= len(run.content.waves) - 1:
            return False
        budget = run.currency - self._reserve(run)
        for offer, _ in self._upgrades(run, affordable=False):
            if offer.kind == "cores" and budget < offer.price <= SAVE_FOR_CORE * max(1, run.currency):
                if not offer.locked:
                    run.shop.toggle_lock("cores", run.shop.shelves["cores"].index(offer))
                return True
        return False

    def _upgrades(self, run: Run, affordable: bool) -> list[tuple[Offer, float]]:
        """The offers off the plan worth buying, as (offer, DPS gained per gold), best first: a card
        whose place in the layout adds `CARD_GAIN` or more, a core that adds `CORE_GAIN` with the
        owned cards laid out on it. `affordable`: only what the gold beyond the reserve pays."""
        content, loadout, shop = run.content, run.loadout, run.shop
        bonus = WandBonus.of(run)
        owned = self._owned(run)
        active = loadout.active
        now = sustained_dps(content, active, self.layout(run, active, owned)[0], bonus)
        budget = run.currency - self._reserve(run)
        carried = {c.core for c in loadout.cores}
        missing = self._missing(run)
        found: list[tuple[Offer, float]] = []
        for offer in shop.shelves["spells"]:
            if offer is None or missing[offer.item] > 0 or (affordable and offer.price > budget):
                continue
            after = sustained_dps(content, active, self.layout(run, active, owned + Counter([offer.item]))[0], bonus)
            if after >= now * (1 + CARD_GAIN):
                found.append((offer, (after - now) / max(1, offer.price)))
        for offer in shop.shelves["cores"]:
            if offer is None or offer.item in carried or offer.item == self.build.core:
                continue
            if content.core(offer.item).has_flag(CoreFlag.INFINITE_SPELLS):
                continue  # it pays with HP: the lab's figure (mana without end) does not say what it costs
            if affordable and offer.price > budget:
                continue
            after = sustained_dps(content, offer.item, self.layout(run, offer.item, owned)[0], bonus)
            if after >= now * (1 + CORE_GAIN):
                found.append((offer, (after - now) / max(1, offer.price)))
        return sorted(found, key=lambda pair: -pair[1])

    def _strength(self, run: Run, core_id: str) -> float:
        """The sustained DPS of the owned cards laid out on `core_id` (the lab's figure)."""
        slots = self.layout(run, core_id, self._owned(run))[0]
        return sustained_dps(run.content, core_id, slots, WandBonus.of(run))

    def _play_strongest(self, run: Run) -> None:
        """Makes the strongest carried core the active one (the build's own when none is stronger)."""
        loadout = run.loadout
        cores = sorted((c.core for c in loadout.cores), key=lambda core: core != self.build.core)
        best = max(cores, key=lambda core: self._strength(run, core))
        if best != loadout.active:
            try:
                run.shop.switch_core(best)
            except (ShopError, LoadoutError):
                return
            self.arrange(run)

    def _spare(self, run: Run) -> str | None:
        """The carried core to sell for a new one: the weakest not active (the build's own last)."""
        loadout = run.loadout
        spare = [c.core for c in loadout.cores if c.core != loadout.active]
        if not spare:
            return None
        return min(spare, key=lambda core: (core == self.build.core, self._strength(run, core)))

    def _make_room(self, run: Run) -> None:
        """A full backpack sells its least card the layout leaves off the board, so a new one fits."""
        loadout = run.loadout
        if len(loadout.backpack) < loadout.limits_backpack:
            return
        content = run.content
        index = min(range(len(loadout.backpack)), key=lambda i: (content.spell(loadout.backpack[i]).tier, i))
        try:
            run.shop.sell_card(index)
        except ShopError:
            pass

    @staticmethod
    def _owned(run: Run) -> Counter[str]:
        """Every card the player owns: on the carried cores and in the backpack."""
        loadout = run.loadout
        owned = Counter(card for carried in loadout.cores for card in carried.cards if card is not None)
        owned.update(loadout.backpack)
        return owned

    def layout(self, run: Run, core_id: str, owned: Counter[str]) -> tuple[list[str | None], list[str]]:
        """The board the bot lays `owned` out as on `core_id`, and the cards left over: the build's
        cards in the build's places, then the other cards by tier (the highest first; of a tier,
        as the active board and then the backpack hold them) in the free slots, in slot order."""
        content = run.content
        size = content.core(core_id).capacity
        pool = Counter(owned)
        slots: list[str | None] = [None] * size
        for index, card in enumerate(self.build.board[:size]):
            if card is not None and pool[card] > 0:
                pool[card] -= 1
                slots[index] = card
        loadout = run.loadout
        seen = [c for c in loadout.carried(loadout.active).cards if c is not None] + list(loadout.backpack)
        order = {card: seen.index(card) if card in seen else len(seen) for card in pool}
        rest = sorted(pool.elements(), key=lambda card: (-content.spell(card).tier, order[card]))
        for index in range(size):
            if slots[index] is None and rest:
                slots[index] = rest.pop(0)
        return slots, rest

    def arrange(self, run: Run) -> None:
        """Lay the owned cards out on the active core (`layout`); keep the old layout when the new
        one could not fire (R-VM-2) or would not fit the backpack."""
        loadout = run.loadout
        carried = loadout.carried(loadout.active)
        before_backpack = list(loadout.backpack)
        others = [c for c in loadout.cores if c is not carried]
        before = [(c.core, list(c.cards)) for c in [carried, *others]]
        # the bot plays one core: cards left on the others come along
        slots, rest = self.layout(run, carried.core, self._owned(run))
        free: list[str | None] = [None]
        boards = [(carried.core, slots), *((c.core, free * len(c.cards)) for c in others)]
        if len(rest) > loadout.limits_backpack or (boards == before and rest == before_backpack):
            return  # nothing moves: the wand stays armed as it is
        # The lab's moves, made through the loadout (a replay makes them again).
        loadout.arrange(boards, rest)
        if not run.rearm()["can_fire"]:
            loadout.arrange(before, before_backpack)
            run.rearm()
