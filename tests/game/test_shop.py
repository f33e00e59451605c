"""The shop's rules (R-SHOP-1, R-CORE-3, R-STAT-1): offers and their odds, rerolls,
locks, buying and selling, cores and the waiting area, stats, seeding."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from artificer._core import PlayerStats
from artificer.content import Content, load_content
from artificer.content.models import SpellFamily, WandStat
from artificer.game.loadout import BackpackFull, LoadoutError, LoadoutFull, WaitingAreaFull
from artificer.game.run import Run
from artificer.game.shop import (
    SHELVES,
    NotEnoughGold,
    Offer,
    ShopClosed,
    draw_tier,
    reroll_cost,
    sale_value,
    tier_odds,
)
from content_tweaks import with_balance

CONTENT = load_content()
SETTINGS = CONTENT.balance.shop


def shop_run(seed: int = 11, wave: int = 1, gold: int = 1000) -> Run:
    run = Run(CONTENT, seed)
    run.currency = gold
    run.shop.open(wave)
    return run


# --- offers and odds ------------------------------------------------------------------------


def test_shelves_show_four_spells_one_or_two_cores_and_the_stat_upgrades() -> None:
    """R-SHOP-1: shelf A 4 spells, shelf B 1–2 cores, shelf C stat upgrades."""
    for wave in range(1, 11):
        run = shop_run(seed=wave, wave=wave)
        shelves = run.shop.shelves
        assert len(shelves["spells"]) == SETTINGS.spell_offers == 4
        assert SETTINGS.core_offers.min <= len(shelves["cores"]) <= SETTINGS.core_offers.max
        assert 1 <= len(shelves["cores"]) <= 2
        # Shelf C: the stat upgrades, then at most one place per talent (R-END-1 Last Will).
        assert len([o for o in shelves["stats"] if o is not None and o.talent is None]) == SETTINGS.stat_offers
        assert len(shelves["stats"]) <= SETTINGS.stat_offers + len(SETTINGS.talents)
        assert all(o is not None and CONTENT.spell(o.item).shop for o in shelves["spells"])
        carried = {c.core for c in run.loadout.cores}
        assert all(o is not None and o.item not in carried and CONTENT.core(o.item).price > 0 for o in shelves["cores"])


def test_stat_offers_are_the_r_stat_1_stats() -> None:
    """R-STAT-1: shelf C sells every stat `WandStats.apply` hands to the core or the shop."""
    assert {entry.stat for entry in SETTINGS.stats} == set(WandStat)
    run = shop_run()
    assert {o.item for o in run.shop.shelves["stats"] if o is not None} <= {stat.value for stat in WandStat}


def test_tier_odds_no_tier_3_before_wave_3_and_no_tier_4_before_wave_7() -> None:
    """R-SHOP-1: tier 2 from wave 1, tier 3 from wave 3, tier 4 from wave 7; the odds sum to 1."""
    for wave in range(1, 21):
        odds = tier_odds(SETTINGS, wave)
        assert sum(odds.values()) == pytest.approx(1.0)
        assert odds[2] > 0
        assert (odds[3] > 0) == (wave >= 3), wave
        assert (odds[4] > 0) == (wave >= 7), wave


def test_better_tiers_grow_with_the_wave_up_to_their_cap() -> None:
    """R-SHOP-1: the odds of tier 2 or better rise per wave and stop at the cap."""
    better = [1.0 - tier_odds(SETTINGS, wave)[1] for wave in range(1, 21)]
    assert better == sorted(better)
    assert better[-1] > better[0]
    caps = {entry.tier: entry.cap for entry in SETTINGS.tier_odds}
    assert tier_odds(SETTINGS, 200)[4] == pytest.approx(caps[4])


def test_luck_scales_the_better_tiers() -> None:
    """R-SHOP-1: every better tier's chance × (1 + luck), still capped; no luck at wave 1 makes tier 3."""
    plain, lucky = tier_odds(SETTINGS, 5), tier_odds(SETTINGS, 5, luck=0.5)
    t2 = next(e for e in SETTINGS.tier_odds if e.tier == 2)
    assert 1 - lucky[1] == pytest.approx(min(t2.cap, (1 - plain[1]) * 1.5))
    assert lucky[3] > plain[3]
    assert tier_odds(SETTINGS, 1, luck=10.0)[3] == 0.0
    assert tier_odds(SETTINGS, 20, luck=100.0)[4] == pytest.approx(
        next(e.cap for e in SETTINGS.tier_odds if e.tier == 4)
    )


def test_drawn_tiers_follow_the_odds() -> None:
    """R-SHOP-1: before wave 3 no tier 3 is ever drawn; later, tiers come at about their odds."""
    rng = np.random.default_rng(5)
    early = {draw_tier(tier_odds(SETTINGS, 2), rng) for _ in range(5000)}
    assert early == {1, 2}
    odds = tier_odds(SETTINGS, 12)
    draws = [draw_tier(odds, rng) for _ in range(20000)]
    for tier in (1, 2, 3, 4):
        assert draws.count(tier) / len(draws) == pytest.approx(odds[tier], abs=0.015)


def test_no_tier_3_spell_offered_before_wave_3() -> None:
    """R-SHOP-1 through the shelves: many shops and rerolls at waves 1–2 show no tier 3+ spell."""
    for seed in range(40):
        run = shop_run(seed=seed, wave=2)
        for _ in range(5):
            assert all(o is not None and o.tier <= 2 for o in run.shop.shelves["spells"])
            run.shop.reroll()


def test_same_seed_same_offers_and_rerolls() -> None:
    """R-DET-1 for the shop: its draws come from the run seed and the wave, so a run replays."""
    first, second, other = shop_run(seed=42, wave=4), shop_run(seed=42, wave=4), shop_run(seed=43, wave=4)
    assert run_offers(first) == run_offers(second)
    first.shop.reroll()
    second.shop.reroll()
    assert run_offers(first) == run_offers(second)
    assert run_offers(shop_run(seed=42, wave=4)) != run_offers(other)
    assert run_offers(shop_run(seed=42, wave=4)) != run_offers(shop_run(seed=42, wave=5))


def run_offers(run: Run) -> list[list[tuple[str, int, int] | None]]:
    return [
        [(o.item, o.tier, o.price) if o is not None else None for o in run.shop.shelves[shelf]] for shelf in SHELVES
    ]


def test_a_spell_costs_its_tier_price_grown_by_the_wave() -> None:
    """R-SHOP-1 prices: the tier's price after wave 1, growing per wave."""
    run = shop_run(wave=1)
    assert all(o is not None and o.price == SETTINGS.spell_price(o.tier) for o in run.shop.shelves["spells"])
    late = shop_run(wave=11)
    growth = 1 + SETTINGS.price_growth_per_wave * 10
    assert all(
        o is not None and o.price == round(SETTINGS.spell_price(o.tier) * growth) for o in late.shop.shelves["spells"]
    )


def test_r_shop_1_every_price_follows_the_wave_stats_relic_and_potion_too() -> None:
    """R-SHOP-1, R-CURVE-2: not only spells and cores: a stat (its base and steps), the relic and the
    potion cost `price_growth_per_wave` more each wave, so gold stays short as income grows."""
    growth = 1 + SETTINGS.price_growth_per_wave * 10
    early, late = shop_run(wave=1), shop_run(wave=11)
    for offer in late.shop.shelves["stats"]:
        assert offer is not None
        if offer.talent is None:
            entry = next(e for e in SETTINGS.stats if e.stat.value == offer.item)
            assert offer.price == round(entry.price * growth)
    assert early.shop.relic_price == CONTENT.relics.shop_price
    assert late.shop.relic_price == round(CONTENT.relics.shop_price * growth)
    assert late.shop.potion_price == round(CONTENT.potions.shop_price * growth) > early.shop.potion_price


# --- reroll and lock -----------------------------------------------------------------------------


def test_reroll_costs_more_each_time_and_the_next_shop_starts_over() -> None:
    """R-SHOP-1: reroll cost rises with each use within a shop and resets in the next."""
    run = shop_run(wave=3, gold=1000)
    costs = []
    for _ in range(4):
        costs.append(run.shop.reroll_cost)
        gold = run.currency
        run.shop.reroll()
        assert run.currency == gold - costs[-1]
    assert costs == sorted(set(costs)), "strictly rising"
    assert costs[1] - costs[0] == SETTINGS.reroll.growth
    run.shop.close()
    run.shop.open(4)
    assert run.shop.reroll_cost == reroll_cost(SETTINGS, 4, 0) < costs[-1]


def test_reroll_changes_the_unlocked_offers() -> None:
    run = shop_run(seed=3, wave=5)
    before = run_offers(run)
    run.shop.reroll()
    assert run_offers(run) != before


def test_reroll_refused_without_the_gold() -> None:
    run = shop_run(gold=0)
    before = run_offers(run)
    with pytest.raises(NotEnoughGold):
        run.shop.reroll()
    assert run_offers(run) == before and run.currency == 0 and run.shop.rerolls == 0


def test_a_locked_offer_survives_rerolls_and_the_next_shop() -> None:
    """R-SHOP-1: locked items survive a reroll and the next shop (re-priced for its wave)."""
    run = shop_run(seed=8, wave=2)
    locked = run.shop.offer("spells", 1)
    assert run.shop.toggle_lock("spells", 1)
    core = run.shop.offer("cores", 0)
    run.shop.toggle_lock("cores", 0)
    for _ in range(6):
        run.shop.reroll()
        assert run.shop.offer("spells", 1) is locked
        assert run.shop.offer("cores", 0) is core
    run.shop.close()
    run.shop.open(3)
    kept = run.shop.offer("spells", 1)
    assert kept.item == locked.item and kept.locked
    assert kept.price == round(SETTINGS.spell_price(kept.tier) * (1 + SETTINGS.price_growth_per_wave * 2))
    assert run.shop.offer("cores", 0).item == core.item
    assert not run.shop.toggle_lock("spells", 1)
    seen = set()
    for _ in range(8):
        run.shop.reroll()
        seen.add(run.shop.offer("spells", 1).item)
    assert seen != {locked.item}, "unlocked, it rerolls again"


# --- buying --------------------------------------------------------------------------------------


def test_buying_a_spell_puts_it_in_the_backpack_for_its_price() -> None:
    run = shop_run(gold=100)
    offer = run.shop.offer("spells", 0)
    run.shop.buy("spells", 0)
    assert run.currency == 100 - offer.price
    assert run.loadout.backpack == [offer.item]
    assert run.shop.shelves["spells"][0] is None, "a bought offer leaves its place empty"


def test_buying_with_too_little_gold_is_refused_and_nothing_changes() -> None:
    """R-SHOP-1: not enough gold ⇒ refused."""
    run = shop_run(gold=0)
    for shelf in SHELVES:
        with pytest.raises(NotEnoughGold):
            run.shop.buy(shelf, 0)
    assert run.currency == 0 and run.loadout.backpack == [] and len(run.loadout.cores) == 1
    assert all(o is not None for o in run.shop.shelves["spells"])


def test_a_full_backpack_refuses_a_spell_and_keeps_the_gold() -> None:
    run = shop_run(gold=500)
    run.loadout.backpack = ["spark_bolt"] * CONTENT.balance.loadout.backpack
    with pytest.raises(BackpackFull):
        run.shop.buy_spell(0)
    assert run.currency == 500


def test_a_fourth_core_asks_which_to_drop_then_sells_it() -> None:
    """R-CORE-3: at most 3 cores; buying a 4th asks which to sell (LoadoutFull); the
    dropped core is sold and its cards go to the waiting area."""
    run = shop_run(gold=2000)
    run.loadout.add_core("siege_core")
    run.loadout.add_core("quickdraw_core")
    run.shop.shelves["cores"] = [Offer("cores", "forked_core", 2, 80)]
    with pytest.raises(LoadoutFull):
        run.shop.buy_core(0)
    assert run.currency == 2000 and len(run.loadout.cores) == 3
    refund = run.shop.core_sale_value("starter_wand")
    run.shop.buy_core(0, drop="starter_wand")
    assert [c.core for c in run.loadout.cores] == ["siege_core", "quickdraw_core", "forked_core"]
    assert run.loadout.waiting == ["spark_bolt"] * 3
    assert run.currency == 2000 - 80 + refund
    assert refund == 0, "R-SHOP-1: the starter was never bought: it is discarded for nothing"


def test_a_dropped_core_whose_cards_overflow_the_waiting_area_blocks_the_purchase() -> None:
    """R-CORE-3: the waiting area holds 5; beyond that the player must sell or discard first."""
    run = shop_run(gold=2000)
    run.loadout.add_core("siege_core")
    run.loadout.add_core("quickdraw_core")
    run.loadout.waiting = ["bounce", "homing", "pierce_plus"]
    run.shop.shelves["cores"] = [Offer("cores", "forked_core", 2, 80)]
    with pytest.raises(WaitingAreaFull) as refused:
        run.shop.buy_core(0, drop="starter_wand")
    assert refused.value.overflow == ["spark_bolt"]
    assert run.currency == 2000 and len(run.loadout.cores) == 3 and run.shop.shelves["cores"][0] is not None
    run.shop.sell_waiting("homing")
    run.shop.buy_core(0, drop="starter_wand")
    assert len(run.loadout.waiting) == 5


def test_selling_a_core_moves_its_cards_to_the_waiting_area_and_refunds_half() -> None:
    run = shop_run(gold=1000, wave=1)
    run.shop.shelves["cores"] = [Offer("cores", "siege_core", 2, 90)]
    run.shop.buy_core(0)
    run.loadout.carried("siege_core").cards[0] = "fireball"
    gold = run.currency
    assert run.shop.sell_core("siege_core") == 45
    assert run.currency == gold + 45 and run.loadout.waiting == ["fireball"]
    with pytest.raises(LoadoutError, match="last core"):
        run.shop.sell_core("starter_wand")


def test_the_active_core_is_switched_only_in_the_shop() -> None:
    """R-CORE-3: the active core is switched only in the shop; every core keeps its cards."""
    run = shop_run(gold=1000)
    run.shop.shelves["cores"] = [Offer("cores", "siege_core", 2, 90)]
    run.shop.buy_core(0)
    run.shop.switch_core("siege_core")
    assert run.loadout.active == "siege_core"
    assert not run.diagnostics["can_fire"], "the wand was re-armed with the empty siege core"
    run.shop.switch_core("starter_wand")
    assert run.diagnostics["can_fire"]
    run.start_wave(1)  # the wave starts: the shop closes
    with pytest.raises(LoadoutError, match="only in the shop"):
        run.shop.switch_core("siege_core")
    assert run.loadout.active == "starter_wand"
    with pytest.raises(ShopClosed):
        run.shop.buy_spell(0)


def test_waiting_cards_go_into_an_empty_slot_or_the_backpack() -> None:
    run = shop_run()
    run.loadout.waiting = ["fireball", "homing"]
    run.shop.place_waiting("fireball", "starter_wand", 3)
    assert run.loadout.carried("starter_wand").cards[3] == "fireball"
    run.shop.stash_waiting("homing")
    assert run.loadout.backpack == ["homing"] and run.loadout.waiting == []


# --- selling ----------------------------------------------------------------------------------


def test_sale_value_is_half_the_price_paid_with_a_floor_of_10() -> None:
    """R-SHOP-1: sell at 50% of the price paid, minimum 10 gold."""
    assert SETTINGS.sell_fraction == 0.5 and SETTINGS.sell_floor == 10
    assert sale_value(SETTINGS, 80) == 40
    assert sale_value(SETTINGS, 45) == 22
    assert sale_value(SETTINGS, 19) == 10
    assert sale_value(SETTINGS, 0) == 10


def test_selling_a_bought_card_refunds_half_its_price_and_an_unbought_one_nothing() -> None:
    """R-SHOP-1: a sale refunds 50% of the price paid, at least 10; what was never paid for
    (a found card) is only discarded, for 0."""
    run = shop_run(gold=1000, wave=11)
    run.shop.shelves["spells"][0] = Offer("spells", "nuke", 4, 120)
    run.shop.shelves["spells"][1] = Offer("spells", "homing", 1, 15)
    run.shop.buy_spell(0)
    run.shop.buy_spell(1)
    run.loadout.backpack.append("spark_bolt")  # found, never paid for
    assert run.shop.card_is_paid("nuke") and not run.shop.card_is_paid("spark_bolt")
    gold = run.currency
    assert run.shop.sell_card(0) == 60
    assert run.shop.sell_card(0) == 10, "a card bought for 15 refunds the floor"
    assert run.shop.card_sale_value("spark_bolt") == 0
    assert run.shop.sell_card(0) == 0
    assert run.currency == gold + 70 and run.loadout.backpack == []
    assert run.shop.paid_cards == {}


def test_the_starter_cards_discard_for_nothing_and_only_bought_copies_refund() -> None:
    """R-SHOP-1: the starter's three spark bolts were never paid for; one spark bolt bought makes
    exactly one sale refund, whichever copy is sold, and the rest discard for 0."""
    run = shop_run(gold=100, wave=1)
    starter = run.loadout.carried("starter_wand")
    assert starter.cards.count("spark_bolt") == 3
    assert run.shop.core_sale_value("starter_wand") == 0 and not run.shop.core_is_paid("starter_wand")
    run.loadout.add_core("siege_core")
    run.shop.sell_core("starter_wand")  # its cards go to the waiting area
    assert run.currency == 100
    for _ in range(3):
        assert run.shop.sell_waiting("spark_bolt") == 0
    assert run.currency == 100 and run.loadout.waiting == []
    run.shop.shelves["spells"][0] = Offer("spells", "spark_bolt", 1, 40)
    run.shop.buy_spell(0)
    run.loadout.backpack.append("spark_bolt")  # and one found
    assert run.shop.sell_card(1) == 20, "the sale refunds the copy bought"
    assert run.shop.sell_card(0) == 0, "the other copy was never paid for"
    assert run.currency == 100 - 40 + 20


# --- stats ---------------------------------------------------------------------------------------


def test_a_bought_stat_adds_its_step_costs_more_next_time_and_reaches_the_wand() -> None:
    """R-STAT-1: stats bought in the shop; the run keeps the totals and re-arms with them."""
    run = shop_run(gold=1000)
    entry = next(e for e in SETTINGS.stats if e.stat == WandStat.CAST_SPEED)
    run.shop.shelves["stats"] = [Offer("stats", "cast_speed", 1, entry.price)]
    run.shop.buy_stat(0)
    assert run.wand_stats.totals[WandStat.CAST_SPEED] == pytest.approx(entry.amount)
    again = None
    for _ in range(50):  # shelf C draws 3 of many stats: reroll until cast speed shows again
        run.currency = 1000
        run.shop.reroll()
        again = next((o for o in run.shop.shelves["stats"] if o is not None and o.item == "cast_speed"), None)
        if again is not None:
            break
    assert again is not None
    assert again.price == entry.price + entry.price_step
    applied: list[tuple[int, float, float]] = []

    class Recorder:
        def set_wand_stats(self, cpu: int, cast_speed: float, accuracy: float) -> None:
            applied.append((cpu, cast_speed, accuracy))

        def set_player_stats(self, stats: PlayerStats) -> None:
            assert stats == PlayerStats()

        def set_attunement(self, points: dict[str, float]) -> None:
            assert all(value == 0.0 for value in points.values())

    run.wand_stats.apply(Recorder())  # type: ignore[arg-type]
    assert len(applied) == 1
    cpu, cast_speed, accuracy = applied[0]
    assert (cpu, accuracy) == (0, 0.0) and cast_speed == pytest.approx(entry.amount)


def test_stats_are_reapplied_after_rearm_and_at_wave_start() -> None:
    """R-STAT-1 → R-VM-11: a bought cast speed survives re-arming: more casts per second."""
    from artificer.engine import EventKind
    from artificer.engine import events as ev

    def casts(run: Run) -> int:
        run.sim.world.set_wand_stats(0, 0.0, 0.0)  # forget, as a fresh world would
        run.rearm()
        wave = run.start_wave(1)
        fired = 0
        for _ in range(120):
            run.sim.input.aim_at(0.0, 0.0)  # fire at will: no enemy is in reach this early
            wave.step()
            fired += ev.count(run.sim.buffers.event_rows(), EventKind.CAST_FIRED)
        return fired

    plain, quick = Run(CONTENT, 5), Run(CONTENT, 5)
    quick.wand_stats.totals[WandStat.CAST_SPEED] = 0.5
    assert casts(quick) > casts(plain)


def test_a_maxed_stat_is_no_longer_offered() -> None:
    run = shop_run()
    for entry in SETTINGS.stats:
        run.wand_stats.totals[entry.stat] = entry.max
    run.shop.reroll()
    assert run.shop.shelves["stats"] == []


def _spell_offers(content: Content, draws: int) -> Counter[str]:
    run = Run(content, 3)
    run.currency = 10**9
    seen: Counter[str] = Counter()
    run.shop.open(5)
    for _ in range(draws):
        seen.update(offer.item for offer in run.shop.shelves["spells"] if offer is not None)
        run.shop.reroll()
    return seen


def test_family_weights_make_actions_commoner_than_logic_within_a_tier() -> None:
    """R-SHOP-1 (data: shop.family_weights): within a drawn tier, a spell's chance follows its
    family's weight — the actions a board needs come up more often than niche logic chips;
    a weight of 0 keeps a family off the shelf."""
    weights = CONTENT.balance.shop.family_weights
    assert weights[SpellFamily.ACTION] > weights[SpellFamily.LOGIC]
    seen = _spell_offers(CONTENT, 1500)
    tier2 = [s for s in CONTENT.spells if s.tier == 2 and s.shop and not s.debug_only and s.unlock_cost == 0]
    per_card = {
        family: [seen[s.id] for s in tier2 if s.family == family] for family in (SpellFamily.ACTION, SpellFamily.LOGIC)
    }
    action = sum(per_card[SpellFamily.ACTION]) / len(per_card[SpellFamily.ACTION])
    logic = sum(per_card[SpellFamily.LOGIC]) / len(per_card[SpellFamily.LOGIC])
    expected = weights[SpellFamily.ACTION] / weights[SpellFamily.LOGIC]
    assert action / logic == pytest.approx(expected, rel=0.25)

    no_logic = with_balance(CONTENT, "shop", family_weights={SpellFamily.LOGIC: 0.0})
    seen = _spell_offers(no_logic, 300)
    assert not any(seen[s.id] for s in CONTENT.spells if s.family == SpellFamily.LOGIC)
    assert sum(seen.values()) > 0


def test_r_core_5_core_tiers_have_their_own_odds_rising_with_the_wave_and_luck() -> None:
    """R-CORE-5: the core shelf draws tiers 1..5 from `core_tier_odds` (cards keep 1..4): no tier 4-5
    core in the first shops, a real chance of one late, more with luck; every tier has at least two
    cores, and a higher tier is a visible jump (more mana and regen, spells per cast or an always-cast)."""
    from artificer.content.models import CORE_TIERS
    from artificer.game.shop import tier_odds

    settings = CONTENT.balance.shop
    early, late = tier_odds(settings, 1, 0.0, "cores"), tier_odds(settings, 19, 0.0, "cores")
    assert sorted(early) == list(range(1, CORE_TIERS + 1)) and sum(early.values()) == pytest.approx(1.0)
    assert early[4] == early[5] == 0.0 and late[5] > 0.1
    lucky = tier_odds(settings, 12, 1.0, "cores")
    assert lucky[5] > tier_odds(settings, 12, 0.0, "cores")[5]
    assert max(tier_odds(settings, 19, 0.0)) == 4, "cards stay 1..4"
    by_tier = {tier: [c for c in CONTENT.cores if c.tier == tier] for tier in range(1, CORE_TIERS + 1)}
    assert all(len(cores) >= 2 for cores in by_tier.values()), {t: [c.id for c in cs] for t, cs in by_tier.items()}
    starter = CONTENT.core("starter_wand")
    for core in by_tier[5]:
        assert core.mana_regen >= 3 * starter.mana_regen and core.mana_max >= 3 * starter.mana_max
        assert core.spells_per_cast > 1 or core.always_cast
