"""The shop between waves (R-SHOP-1, R-CORE-3, R-STAT-1) — its rules, no pygame.

This module owns what the shop offers and what buying, selling, rerolling
and locking do to the run's state
(`artificer.game.state.RunState`, with no world):

- Shelf A: `spell_offers` spells, shelf B: `core_offers.min..max` cores,
  shelf C: `stat_offers` stat upgrades. A spell or core offer's tier is
  drawn from `tier_odds(wave, luck)` (Brotato's shape: each better tier
  opens at a wave, rises per wave to a cap, all × (1 + luck)); when no item
  of the drawn tier is in the pool, the nearest lower tier that has one
  (then the nearest higher) is offered.
- Prices: a spell costs its tier's price, a core its `price`, both grown by
  `price_growth_per_wave` after wave 1; a stat costs its `price` plus
  `price_step` per earlier purchase of it in the run.
- Reroll: redraws every unlocked offer; costs `base + per_wave × (wave − 1)
  + growth × rerolls made in this shop`, so the next shop starts over.
- Lock: a locked offer stays through rerolls and into the next shop
  (re-priced for that wave, still locked until bought or unlocked).
- Sell: `max(sell_floor, ⌊sell_fraction × price paid⌋)`. The price paid is
  recorded per card id (a multiset: copies of a card may have cost
  different prices; a sale refunds the dearest copy bought) and per core.
  What was never paid for — the starter core and its cards, cards and cores
  that came any other way, the copies of a card beyond those bought — sells
  for nothing: it can only be discarded (`card_sale_value` is 0, `is_paid`
  False; the shop shows "Discard").
- Cores (R-CORE-3, through `Loadout`): buying a core while carrying
  `max_cores` raises `LoadoutFull` until the buyer names a core to `drop`,
  which is sold (its cards go to the waiting area, `WaitingAreaFull` when
  they would not fit — and then nothing changes); the active core is
  switched only while the shop is open; waiting cards go back into an empty
  slot of a carried core, into the backpack, or are sold.
- Stats (R-STAT-1): `WandStats` (`artificer.game.stats`) keeps the totals
  the run bought; a purchase marks the state (`Change.STATS`, or
  `Change.WAND` for CPU: the wand compiles again) and the run's binding
  hands them to the core (`World.set_wand_stats`), after each re-arm and at
  wave start too.
- Talents (R-END-1 Last Will): after the stat draws of a restock, each
  talent of `talents` the run does not own, from its `from_wave` on, is
  added to shelf C with its `chance` (one draw each, so the stat draws keep
  their sequence). Its offer's `item` is the talent id (`Offer.talent`);
  buying it (`buy_stat`, as for a stat) hands it to `RunState.gain_talent`. An
  owned talent is never offered again, even once spent.
- Relic (R-SHOP-1, R-REL-3): apart from the shelves, each visit offers one
  relic the run does not own (`relic`, drawn at opening by `relic_rng`, so the
  shelves' draws are unchanged; none when every relic is owned; not
  rerolled), for relics.json `shop_price`; `buy_relic` hands it to
  `RunState.gain_relic`.
- Potion (R-POT-2): apart from the shelves, each visit offers one random
  potion (`potion`, drawn at opening by `potions.potion_for_sale` from its
  own generator; not rerolled) for potions.json `shopPrice`; `buy_potion`
  puts it in the belt's first empty slot, refused (`PotionBeltFull`) when
  the belt is full.

Every refusal raises before anything changes (gold, loadout, shelves).
Draws come from the shop's own generator (`shop_rng`, `artificer.game.draws`),
seeded from the run seed, the wave number and the rerolls made in the visit:
each restock draws from its own key, so a run's shops replay and a save holds
the offers, never a generator's state.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from artificer.content import Content, CoreFlag
from artificer.content.models import (
    ATTUNEMENT_PREFIX,
    CORE_TIERS,
    SHOP_TIERS,
    ShopSettings,
    StatOffer,
    Talent,
    TalentOffer,
    WandStat,
)
from artificer.content.spells import Spell
from artificer.errors import ArtificerError
from artificer.game import draws
from artificer.game.journal import journaled
from artificer.game.loadout import BackpackFull, LoadoutError
from artificer.game.onboarding import Onboarding
from artificer.game.potions import potion_for_sale
from artificer.game.relics import relic_rng
from artificer.game.state import Change, RunState
from artificer.game.stats import WandStats as WandStats  # its old home's name, for game/save.py

if TYPE_CHECKING:
    from artificer._core import World

ShelfName = Literal["spells", "cores", "stats"]
SHELVES: tuple[ShelfName, ...] = ("spells", "cores", "stats")
#: The talent ids, which shelf C's offers may hold besides stat names (the two sets do not meet).
TALENT_IDS: frozenset[str] = frozenset(talent.value for talent in Talent)


class ShopError(ArtificerError):
    """A shop action the rules refuse; the message says why."""


class NotEnoughGold(ShopError):
    """The price is more than the gold the player has."""

    def __init__(self, price: int, gold: int) -> None:
        super().__init__(f"costs {price} gold, you have {gold}")
        self.price = price
        self.gold = gold


class PotionBeltFull(ShopError):
    """R-POT-2: the shop's potion is refused while every usable belt slot holds one."""


class ShopClosed(ShopError):
    """Buying, selling and rerolling happen only while the shop is open (between waves)."""


@dataclass
class Offer:
    """One item on a shelf: a spell, core, stat or talent id, its tier (1 for stats and talents), its price now."""

    kind: ShelfName
    item: str
    tier: int
    price: int
    locked: bool = False

    @property
    def talent(self) -> Talent | None:
        """The talent a shelf C offer sells (its `item` is the talent id); None for a stat or another shelf's item."""
        return Talent(self.item) if self.kind == "stats" and self.item in TALENT_IDS else None


# Draws one offer for a shelf, given the items already on it.
_Draw = Callable[[set[str]], "Offer | None"]


# --- the rules as functions of the data --------------------------------------------------


def tier_odds(settings: ShopSettings, wave: int, luck: float = 0.0, shelf: str = "spells") -> dict[int, float]:
    """R-SHOP-1: the probability of each tier for one offer after `wave`, summing to 1: a spell's
    tiers 1..4 (`tier_odds`), a core's 1..5 (`core_tier_odds`, R-CORE-5).

    Each entry gives the chance of that tier *or better*; a tier not listed (tier 1) is whatever
    the better tiers leave."""
    entries, top = (settings.core_tier_odds, CORE_TIERS) if shelf == "cores" else (settings.tier_odds, SHOP_TIERS)
    better: dict[int, float] = {}
    for entry in entries:
        if wave < entry.from_wave:
            better[entry.tier] = 0.0
            continue
        raw = entry.base + entry.per_wave * (wave - entry.from_wave)
        better[entry.tier] = min(entry.cap, max(0.0, raw * (1.0 + luck)))
    at_least = {top + 1: 0.0}
    for tier in range(top, 1, -1):
        at_least[tier] = max(better.get(tier, 0.0), at_least[tier + 1])
    at_least[1] = 1.0
    return {tier: at_least[tier] - at_least[tier + 1] for tier in range(1, top + 1)}


def draw_tier(odds: dict[int, float], rng: np.random.Generator) -> int:
    """One tier drawn from `tier_odds`."""
    roll = float(rng.random())
    top = max(odds)
    for tier in range(top, 1, -1):
        if roll < sum(odds[t] for t in range(tier, top + 1)):
            return tier
    return 1


def sale_value(settings: ShopSettings, paid: int) -> int:
    """R-SHOP-1: a sale refunds half the price paid (`sell_fraction`), at least `sell_floor`."""
    return max(settings.sell_floor, math.floor(paid * settings.sell_fraction))


def reroll_cost(settings: ShopSettings, wave: int, rerolls: int) -> int:
    """R-SHOP-1: the next reroll's cost after `rerolls` rerolls in the shop after `wave`."""
    reroll = settings.reroll
    return reroll.base + reroll.per_wave * max(0, wave - 1) + reroll.growth * rerolls


def wave_price(settings: ShopSettings, base: int, wave: int) -> int:
    """A spell or core's price in the shop after `wave` (prices grow per wave)."""
    return round(base * (1.0 + settings.price_growth_per_wave * max(0, wave - 1)))


def shop_rng(seed: int, wave: int, rerolls: int = 0) -> np.random.Generator:
    """The shop's generator for the shop after `wave` of the run seeded `seed`, as it restocks
    after `rerolls` rerolls (`artificer.game.draws`: rebuilt from its key, never saved)."""
    return draws.rng(seed, draws.SHOP, wave, rerolls)


# --- the shop --------------------------------------------------------------------------------


class Shop:
    """The run's shop: the shelves of the current visit, locks, rerolls, and the prices paid.

    One `Shop` lives beside the run's state for the whole run; `open(wave)` starts the
    visit after wave `wave` and `close()` ends it (locked offers wait for the
    next visit). It changes `state` and marks what the world must hear of
    (`RunState.mark`); `on_change` (the run's `WorldBinding.sync`) is called after
    every change, and `world` gives the world `stat_preview` reads (None: no previews)."""

    def __init__(
        self,
        state: RunState,
        unlocked: Iterable[str] = (),
        *,
        world: Callable[[], World] | None = None,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self.state = state
        self._world = world
        self._on_change = on_change
        #: Ids unlocked with aether (R-META-1): items with an unlock cost are offered only when listed here.
        self.unlocked: frozenset[str] = frozenset(unlocked)
        #: R-STAT-1 luck (shop rarity): scales the better tiers' odds; the luck stat bought (`WandStats.apply`).
        self.luck = 0.0
        self.wave = 0
        self.is_open = False
        self.rerolls = 0
        self.shelves: dict[ShelfName, list[Offer | None]] = {name: [] for name in SHELVES}
        # The generator: made when first drawn from (`rng`), as `shop_rng` has it for this key.
        self._rng: np.random.Generator | None = None
        self._rng_key = (0, 0)
        #: The price paid for each owned card, by card id (one entry per copy), and for each carried core.
        self.paid_cards: dict[str, list[int]] = {}
        self.paid_cores: dict[str, int] = {}
        #: R-REL-3: the relic for sale this visit (None: every relic owned, or bought).
        self.relic: str | None = None
        #: R-POT-2: the potion for sale this visit (None: bought).
        self.potion: str | None = None

    # --- the save ------------------------------------------------------------------------

    def to_save(self) -> dict[str, Any]:
        """run.json's `shop` (R-SAVE-1; its schema: `artificer.game.save.ShopSave`): the visit's
        wave, whether it is open, its rerolls, the shelves with their locks, the prices paid per
        bought card and core (R-SHOP-1: what is not listed sells for nothing), the unlocks, luck,
        the relic and potion for sale. No generator: a restock reseeds from its key (`shop_rng`)."""
        return {
            "wave": self.wave,
            "is_open": self.is_open,
            "rerolls": self.rerolls,
            **{
                shelf: [None if offer is None else dataclasses.asdict(offer) for offer in self.shelves[shelf]]
                for shelf in SHELVES
            },
            "paid_cards": {card: list(prices) for card, prices in self.paid_cards.items()},
            "paid_cores": dict(self.paid_cores),
            "unlocked": sorted(self.unlocked),
            "luck": self.luck,
            "relic": self.relic,
            "potion": self.potion,
        }

    def restore(self, data: Mapping[str, Any]) -> None:
        """Takes back the shop `to_save` wrote (checked by the schema first): a visit saved open
        shows its very offers (not drawn anew), and its next reroll draws what it would have."""
        self.wave = data["wave"]
        self.is_open = data["is_open"]
        self.rerolls = data["rerolls"]
        self.unlocked = frozenset(data["unlocked"])
        self.luck = data["luck"]
        self.relic = data["relic"]
        for shelf in SHELVES:
            self.shelves[shelf] = [None if offer is None else Offer(**offer) for offer in data[shelf]]
        self.paid_cards = {card: list(prices) for card, prices in data["paid_cards"].items()}
        self.paid_cores = dict(data["paid_cores"])
        self.potion = data["potion"]
        self._rng, self._rng_key = None, (self.wave, self.rerolls)

    @property
    def rng(self) -> np.random.Generator:
        """The shop's generator (`shop_rng`): made when first drawn from, since a run rebuilt
        between waves (`artificer.game.save.settle`) often draws nothing before it is reseeded."""
        if self._rng is None:
            self._rng = shop_rng(self.state.seed, *self._rng_key)
        return self._rng

    @rng.setter
    def rng(self, generator: np.random.Generator) -> None:
        self._rng = generator

    # --- the data --------------------------------------------------------------------

    @property
    def content(self) -> Content:
        return self.state.content

    @property
    def settings(self) -> ShopSettings:
        return self.state.content.balance.shop

    # --- a visit -----------------------------------------------------------------------

    def open(self, wave: int) -> None:
        """Opens the shop after wave `wave` (1-based): the rerolls start over, locked
        offers stay (re-priced), the rest is drawn anew. Opening the shop that is
        already open changes nothing."""
        if self.is_open and self.wave == wave:
            return
        self.wave = wave
        self.is_open = True
        self.rerolls = 0
        self.rng = shop_rng(self.state.seed, wave)
        # A locked talent the data no longer sells (a save from older content) leaves the shelf.
        self.shelves["stats"] = [
            o for o in self.shelves["stats"] if o is None or o.talent is None or self._talent_offer(o.talent)
        ]
        for shelf in SHELVES:
            for offer in self.shelves[shelf]:
                if offer is not None:
                    offer.price = self._price(offer.kind, offer.item, offer.tier)
        self._restock()
        self.relic = self.state.relics.draw(relic_rng(self.state.seed, "shop", wave))
        self.potion = potion_for_sale(self.content.potions, self.state.seed, wave)

    @journaled("shop")
    def unlock(self, ids: Iterable[str]) -> None:
        """R-META-1: what the player unlocked with aether since the run began is offered from now on
        (a continued run's shop)."""
        self.unlocked |= frozenset(ids)

    @journaled("shop")
    def close(self) -> None:
        """Leaves the shop (the next wave starts); locked offers wait for the next shop."""
        self.is_open = False

    @property
    def reroll_cost(self) -> int:
        """The next reroll's price in this shop."""
        return reroll_cost(self.settings, self.wave, self.rerolls)

    @journaled("shop")
    def reroll(self) -> None:
        """Redraws every unlocked offer, for `reroll_cost` gold (R-SHOP-1)."""
        self._require_open()
        cost = self.reroll_cost
        self._charge(cost)
        self.rerolls += 1
        self.rng = shop_rng(self.state.seed, self.wave, self.rerolls)
        self._restock()
        self._changed()

    @journaled("shop")
    def toggle_lock(self, shelf: ShelfName, index: int) -> bool:
        """Locks or unlocks an offer (it survives rerolls and the next shop); returns the new state."""
        self._require_open()
        offer = self.offer(shelf, index)
        offer.locked = not offer.locked
        self._changed()
        return offer.locked

    def offer(self, shelf: ShelfName, index: int) -> Offer:
        """The offer at `index` of `shelf` (a `ShopError` for an empty or missing place)."""
        places = self.shelves[shelf]
        offer = places[index] if 0 <= index < len(places) else None
        if offer is None:
            raise ShopError(f"nothing for sale at {shelf}[{index}]")
        return offer

    # --- buying --------------------------------------------------------------------------

    @journaled("shop")
    def buy(self, shelf: ShelfName, index: int, drop: str | None = None) -> Offer:
        """Buys the offer at `shelf[index]`; `drop` names the core to sell for a 4th core."""
        if shelf == "spells":
            return self.buy_spell(index)
        if shelf == "cores":
            return self.buy_core(index, drop)
        return self.buy_stat(index)

    @journaled("shop")
    def buy_spell(self, index: int) -> Offer:
        """A spell into the backpack (`NotEnoughGold`, `BackpackFull` refuse it)."""
        self._require_open()
        offer = self.offer("spells", index)
        self._check_gold(offer.price)
        self.state.loadout.stash(offer.item)
        self._charge(offer.price)
        self.paid_cards.setdefault(offer.item, []).append(offer.price)
        self.shelves["spells"][index] = None
        self._changed()
        return offer

    @journaled("shop")
    def buy_core(self, index: int, drop: str | None = None) -> Offer:
        """R-CORE-3: a core joins the loadout. Carrying the most cores already, it
        raises `LoadoutFull` until `drop` names a carried core, which is then sold
        (its sale counts toward the price; its cards go to the waiting area)."""
        self._require_open()
        offer = self.offer("cores", index)
        max_cores, _ = self.state.loadout.limits
        if len(self.state.loadout.cores) < max_cores:
            drop = None  # room for one more: nothing is sold
        refund = self.core_sale_value(drop) if drop is not None else 0
        self._check_gold(offer.price, refund)
        if drop is not None:
            self.state.loadout.carried(drop)  # not carried: a LoadoutError before anything changes
        self.state.loadout.add_core(offer.item, drop=drop)
        if drop is not None:
            self.paid_cores.pop(drop, None)
        self.state.currency += refund - offer.price
        self.paid_cores[offer.item] = offer.price
        self.shelves["cores"][index] = None
        self.state.mark(Change.WAND)
        self._changed()
        return offer

    @journaled("shop")
    def buy_stat(self, index: int) -> Offer:
        """R-STAT-1: a stat upgrade, applied to the wand at once; or a talent (R-END-1), the run's
        for good (`RunState.gain_talent`: Last Will is armed in the world)."""
        self._require_open()
        offer = self.offer("stats", index)
        self._check_gold(offer.price)
        talent = offer.talent
        if talent is not None:
            if talent in self.state.talents:
                raise ShopError(f"the run already has the talent {talent.value!r}")
            self._charge(offer.price)
            self.state.gain_talent(talent)
            self.shelves["stats"][index] = None
            self._changed()
            return offer
        self._charge(offer.price)
        stat = WandStat(offer.item)
        self.state.wand_stats.add(self._stat_offer(stat))
        # R-STAT-1: CPU raises the compile-time limit: the wand compiles again.
        self.state.mark(Change.WAND if stat == WandStat.CPU else Change.STATS)
        self.shelves["stats"][index] = None
        self._changed()
        return offer

    def stat_preview(self, stat: WandStat) -> tuple[float, float]:
        """R-FEEL-2: `stat` as the player has it now and after one more purchase (stopped at its
        `max`), in the units the player reads: max HP, armor, mana per kill, pickup radius (px),
        move speed (px/s), crit chance and attunement as the core reports them, relics and the
        starting stats included; CPU, mana regen and max mana as the active core's plus what was
        bought (and the relics' regen); cast speed, accuracy and luck as the shares bought."""
        entry = self._stat_offer(stat)
        bought = self.state.wand_stats.totals[stat]
        step = min(entry.max, bought + entry.amount) - bought
        if self._world is None:
            raise ShopError("the shop has no world to preview the stats in")
        world = self._world()
        core = self.content.core(self.state.loadout.active)
        player = world.player_stats()
        cap = math.inf
        if stat == WandStat.MAX_HP:
            now = world.player_hp()[1]
        elif stat == WandStat.CPU:
            now = core.cpu_limit + bought
        elif stat == WandStat.MANA_REGEN:
            now = core.mana_regen + bought + self.state.relics.player_bonus().get("mana_regen_bonus", 0.0)
        elif stat == WandStat.MAX_MANA:
            now = core.mana_max + bought
        elif stat == WandStat.MOVE_SPEED:
            # The bonus is a share of the starting speed (World.set_player_stats).
            now, step = player["move_speed"], step * self.content.balance.player.move_speed
        elif stat == WandStat.CRIT_CHANCE:
            now, cap = player["crit_chance"], 1.0
        elif stat in (WandStat.ARMOR, WandStat.MANA_LEECH, WandStat.PICKUP_RADIUS):
            now = player[stat.value]
        elif stat.value.startswith(ATTUNEMENT_PREFIX):
            now = world.attunement()[stat.value.removeprefix(ATTUNEMENT_PREFIX)]
        else:  # cast speed, accuracy, luck: the shares bought are the whole stat
            now = bought
        # The core keeps f32: 0.05 comes back as 0.0500000007; four decimals are all a player reads.
        return round(now, 4), round(min(cap, now + step), 4)

    @property
    def relic_price(self) -> int:
        """R-SHOP-1: the relic's price (relics.json `shop_price`), grown with the wave."""
        return wave_price(self.settings, self.content.relics.shop_price, self.wave)

    @journaled("shop")
    def buy_relic(self) -> str:
        """R-REL-3: the visit's relic becomes the run's (`RunState.gain_relic`); returns its id."""
        self._require_open()
        relic_id = self.relic
        if relic_id is None:
            raise ShopError("no relic for sale in this shop")
        self._charge(self.relic_price)
        self.state.gain_relic(relic_id)
        self.relic = None
        self._changed()
        return relic_id

    @property
    def potion_price(self) -> int:
        """R-POT-2: potions.json `shopPrice`, grown with the wave (R-SHOP-1)."""
        return wave_price(self.settings, self.content.potions.shop_price, self.wave)

    @journaled("shop")
    def buy_potion(self) -> str:
        """R-POT-2: the visit's potion into the belt's first empty slot; returns its id.
        `PotionBeltFull` refuses it when every usable slot holds a potion."""
        self._require_open()
        potion_id = self.potion
        if potion_id is None:
            raise ShopError("no potion for sale in this shop")
        if self.state.potions.full:
            raise PotionBeltFull(f"the potion belt's {self.state.potions.slots} slots are full")
        self._charge(self.potion_price)
        self.state.potions.add(potion_id)
        self.potion = None
        self._changed()
        return potion_id

    # --- selling ------------------------------------------------------------------------

    def card_is_paid(self, card: str) -> bool:
        """R-SHOP-1: a copy of `card` was bought and not sold yet (else selling it only discards it)."""
        return bool(self.paid_cards.get(card))

    def core_is_paid(self, core_id: str) -> bool:
        """R-SHOP-1: the carried core `core_id` was bought (the starter, say, was not)."""
        return core_id in self.paid_cores

    def card_sale_value(self, card: str) -> int:
        """What selling one `card` refunds: its dearest bought copy's price paid, halved, at least
        the floor; 0 when no copy was paid for (R-SHOP-1: discard only)."""
        paid = self.paid_cards.get(card)
        return sale_value(self.settings, max(paid)) if paid else 0

    def core_sale_value(self, core_id: str) -> int:
        """What selling a carried core refunds: 0 for a core never paid for (R-SHOP-1)."""
        paid = self.paid_cores.get(core_id)
        return 0 if paid is None else sale_value(self.settings, paid)

    @journaled("shop")
    def sell_card(self, backpack_index: int) -> int:
        """Sells the backpack card at `backpack_index`; returns the gold refunded."""
        self._require_open()
        backpack = self.state.loadout.backpack
        if not 0 <= backpack_index < len(backpack):
            raise ShopError(f"the backpack has no card at {backpack_index}")
        card = backpack.pop(backpack_index)
        refund = self._refund_card(card)
        self._changed()
        return refund

    @journaled("shop")
    def sell_waiting(self, card: str) -> int:
        """Sells a card from the waiting area (R-CORE-3: the way out of an overflow)."""
        self._require_open()
        self.state.loadout.discard_waiting(card)
        refund = self._refund_card(card)
        self._changed()
        return refund

    @journaled("shop")
    def sell_core(self, core_id: str) -> int:
        """Sells a carried core (not the last one); its cards move to the waiting area
        (`WaitingAreaFull` when they would not fit: nothing changes)."""
        self._require_open()
        refund = self.core_sale_value(core_id)
        self.state.loadout.remove_core(core_id)
        self.paid_cores.pop(core_id, None)
        self.state.currency += refund
        self.state.mark(Change.WAND)
        self._changed()
        return refund

    # --- the loadout, in the shop -------------------------------------------------------

    @journaled("shop")
    def switch_core(self, core_id: str, carry: bool = False) -> None:
        """R-CORE-3: makes a carried core the active one — refused once the shop is closed.
        `carry`: onto an empty board, the active board's cards move over (`Loadout.switch`)."""
        self.state.loadout.switch(core_id, in_shop=self.is_open, carry=carry)
        self.state.mark(Change.WAND)
        self._changed()

    @journaled("shop")
    def place_waiting(self, card: str, core_id: str, slot: int) -> None:
        """A waiting card into an empty slot of a carried core."""
        self._require_open()
        self.state.loadout.place(card, core_id, slot)
        if core_id == self.state.loadout.active:
            self.state.mark(Change.WAND)
        self._changed()

    @journaled("shop")
    def stash_waiting(self, card: str) -> None:
        """A waiting card into the backpack (`BackpackFull` refuses it)."""
        self._require_open()
        loadout = self.state.loadout
        if card not in loadout.waiting:
            raise LoadoutError(f"{card!r} is not in the waiting area")
        if len(loadout.backpack) >= loadout.limits_backpack:
            raise BackpackFull(f"the backpack holds {loadout.limits_backpack} cards: sell one first")
        loadout.waiting.remove(card)
        loadout.stash(card)
        self._changed()

    # --- internals ---------------------------------------------------------------------------

    def _changed(self) -> None:
        """A change was made: the run's world hears of what it marked (`on_change`)."""
        if self._on_change is not None:
            self._on_change()

    def _require_open(self) -> None:
        if not self.is_open:
            raise ShopClosed("the shop is closed: it opens between waves")

    def _check_gold(self, price: int, extra: int = 0) -> None:
        if self.state.currency + extra < price:
            raise NotEnoughGold(price, self.state.currency + extra)

    def _charge(self, price: int) -> None:
        self._check_gold(price)
        self.state.currency -= price

    def _refund_card(self, card: str) -> int:
        refund = self.card_sale_value(card)
        paid = self.paid_cards.get(card)
        if paid:
            paid.remove(max(paid))
            if not paid:
                del self.paid_cards[card]
        self.state.currency += refund
        return refund

    def _stat_offer(self, stat: WandStat) -> StatOffer:
        return next(entry for entry in self.settings.stats if entry.stat == stat)

    def _talent_offer(self, talent: Talent) -> TalentOffer | None:
        return next((entry for entry in self.settings.talents if entry.talent == talent), None)

    def _price(self, kind: ShelfName, item: str, tier: int) -> int:
        if kind == "spells":
            return wave_price(self.settings, self.settings.spell_price(tier), self.wave)
        if kind == "cores":
            return wave_price(self.settings, self.content.core(item).price, self.wave)
        # R-SHOP-1, R-CURVE-2: every price follows the wave, so gold stays short as income grows.
        if item in TALENT_IDS:
            talent = self._talent_offer(Talent(item))
            if talent is None:
                raise ShopError(f"the shop does not sell the talent {item!r}")
            return wave_price(self.settings, talent.price, self.wave)
        entry = self._stat_offer(WandStat(item))
        base = entry.price + entry.price_step * self.state.wand_stats.purchases[entry.stat]
        return wave_price(self.settings, base, self.wave)

    def _restock(self) -> None:
        """Keeps the locked offers in their places and draws the others (R-SHOP-1)."""
        settings = self.settings
        core_count = int(self.rng.integers(settings.core_offers.min, settings.core_offers.max + 1))
        self._restock_shelf("spells", settings.spell_offers, self._spell_draw())
        self._restock_shelf("cores", core_count, self._draw_core)
        # Talents sit after the stats: taken off for the stat draws, the locked ones put back after them.
        stats_shelf = self.shelves["stats"]
        owned = self.state.talents
        locked_talents = [
            o for o in stats_shelf if o is not None and o.talent is not None and o.locked and o.talent not in owned
        ]
        self.shelves["stats"] = [offer for offer in stats_shelf if offer is None or offer.talent is None]
        self._restock_shelf("stats", settings.stat_offers, self._draw_stat)
        self.shelves["stats"] += locked_talents + self._draw_talents({offer.talent for offer in locked_talents})

    def _restock_shelf(self, shelf: ShelfName, count: int, draw: _Draw) -> None:
        carried = {c.core for c in self.state.loadout.cores}
        locked = {
            index: offer
            for index, offer in enumerate(self.shelves[shelf])
            # A locked core the player has come to carry is no longer for sale.
            if offer is not None and offer.locked and not (shelf == "cores" and offer.item in carried)
        }
        size = max(count, max(locked, default=-1) + 1)
        places: list[Offer | None] = [locked.get(index) for index in range(size)]
        for index in range(size):
            if places[index] is None:
                taken = {offer.item for offer in places if offer is not None}
                places[index] = draw(taken)
        if shelf == "stats":  # an empty stat place (every stat maxed) is not shown
            places = [offer for offer in places if offer is not None]
        self.shelves[shelf] = places

    def spells_of_tier(self, tier: int) -> list[str]:
        """The spells of `tier` the shop may offer now, in content order (R-END-3: a boss rush's cards)."""
        return [spell.id for spell in self._offerable_spells() if spell.tier == tier]

    def _offerable_spells(self) -> list[Spell]:
        """The spells the shop's spell shelf draws from: unlocked, sold in shops (debug ones only
        with a debug core carried), allowed by the run's onboarding step (R-ONB-1)."""
        carrying_debug = any(self.content.core(c.core).has_flag(CoreFlag.DEBUG_CORE) for c in self.state.loadout.cores)
        onboarding = Onboarding.of(self.content, self.state.onboarding)  # R-ONB-1: a first run's pool
        return [
            spell
            for spell in self.content.spells
            if self._unlocked(spell.id, spell.unlock_cost)
            and ((spell.shop and not spell.debug_only) or (spell.debug_only and carrying_debug))
            and onboarding.allows_spell(spell)
        ]

    def _spell_draw(self) -> _Draw:
        """Draws a spell offer; the pool is worked out once for a whole shelf."""
        family_weights = self.settings.family_weights
        spells = self._offerable_spells()
        weights = {spell.id: family_weights.get(spell.family, 1.0) for spell in spells}
        pool = [(spell.id, spell.tier) for spell in spells if weights[spell.id] > 0]
        odds = tier_odds(self.settings, self.wave, self.luck, "spells")
        return lambda taken: self._draw_by_tier("spells", pool, taken, repeat=True, weights=weights, odds=odds)

    def _draw_core(self, taken: set[str]) -> Offer | None:
        carried = {c.core for c in self.state.loadout.cores}
        onboarding = Onboarding.of(self.content, self.state.onboarding)
        pool = [
            (core.id, core.tier)
            for core in self.content.cores
            # A price of 0 marks a core that is not sold (the starter).
            if core.price > 0
            and core.id not in carried
            and self._unlocked(core.id, core.unlock_cost)
            and onboarding.allows_core(core)
        ]
        return self._draw_by_tier("cores", pool, taken, repeat=False)

    def _draw_stat(self, taken: set[str]) -> Offer | None:
        totals = self.state.wand_stats.totals
        pool = [
            entry.stat.value
            for entry in self.settings.stats
            if totals[entry.stat] < entry.max and entry.stat.value not in taken
        ]
        if not pool:
            return None
        stat = draws.pick(self.rng, pool)
        return Offer("stats", stat, 1, self._price("stats", stat, 1))

    def _draw_talents(self, on_shelf: set[Talent | None]) -> list[Offer]:
        """R-END-1 / R-SHOP-1: each talent the run does not own and that is not on the shelf yet,
        from its `from_wave` on, is offered with its `chance` (one draw each, after the stats)."""
        offers: list[Offer] = []
        for entry in self.settings.talents:
            if entry.talent in self.state.talents or entry.talent in on_shelf or self.wave < entry.from_wave:
                continue
            if float(self.rng.random()) < entry.chance:
                offers.append(Offer("stats", entry.talent.value, 1, entry.price))
        return offers

    def _draw_by_tier(
        self,
        kind: ShelfName,
        pool: Sequence[tuple[str, int]],
        taken: set[str],
        repeat: bool,
        weights: dict[str, float] | None = None,
        odds: dict[int, float] | None = None,
    ) -> Offer | None:
        """An offer of a drawn tier; a tier with nothing left falls back to the nearest lower
        tier, then the nearest higher. A shelf shows an item twice only when nothing else is
        left and `repeat` allows it (spells; never cores: a core is carried once). Within the
        tier, items are equally likely, or as likely as their `weights` say. `odds`: `tier_odds`
        now, when the caller has them already."""
        if odds is None:
            odds = tier_odds(self.settings, self.wave, self.luck, kind)
        tier = draw_tier(odds, self.rng)
        fresh = [(item, t) for item, t in pool if item not in taken] or (list(pool) if repeat else [])
        if not fresh:
            return None
        order = [*range(tier, 0, -1), *range(tier + 1, max(odds) + 1)]
        for candidate_tier in order:
            items = [item for item, t in fresh if t == candidate_tier]
            if items:
                if weights is None:
                    item = draws.pick(self.rng, items)
                else:
                    item = draws.pick_weighted(self.rng, items, [weights[i] for i in items])
                return Offer(kind, item, candidate_tier, self._price(kind, item, candidate_tier))
        return None

    def _unlocked(self, item: str, unlock_cost: int) -> bool:
        return unlock_cost == 0 or item in self.unlocked
