"""R-SHOP-1, R-FEEL-2: a shop offer says what it would do to the player's own wand — sustained DPS
now → after on the active core, as the lab counts it — with the card in the first free slot, the
best single replacement on a full board (named), and a core with the current cards moved onto it."""

from __future__ import annotations

import pytest

from artificer.content import load_content
from artificer.content.models import WandStat
from artificer.game.loadout import CarriedCore, Loadout
from artificer.game.offer_effect import WandBonus, card_effect, core_effect, offer_effect, sustained_dps
from artificer.game.run import Run

CONTENT = load_content()


def test_r_shop_1_a_card_goes_into_the_first_free_slot() -> None:
    cards = ["spark_bolt", None, "spark_bolt", None, None]
    effect = card_effect(CONTENT, "starter_wand", cards, "heavy_shot")
    assert effect.now == pytest.approx(sustained_dps(CONTENT, "starter_wand", cards))
    after = sustained_dps(CONTENT, "starter_wand", ["spark_bolt", "heavy_shot", "spark_bolt", None, None])
    assert effect.after == pytest.approx(after) and effect.replaces is None


def test_r_shop_1_a_full_board_gives_up_the_card_whose_place_does_the_most_good() -> None:
    cards = ["spark_bolt", "spark_bolt", "spark_bolt", "spark_bolt", "pierce_plus"]
    effect = card_effect(CONTENT, "starter_wand", cards, "heavy_shot")
    assert effect.replaces in set(cards)
    options = []
    for slot in range(len(cards)):
        board = list(cards)
        board[slot] = "heavy_shot"
        options.append(sustained_dps(CONTENT, "starter_wand", board))
    assert effect.after == pytest.approx(max(options))


def test_r_shop_1_a_core_takes_the_current_cards() -> None:
    cards = ["spark_bolt", "spark_bolt", "spark_bolt", None, None]
    effect = core_effect(CONTENT, "starter_wand", cards, "quickdraw_core")
    assert effect.after == pytest.approx(sustained_dps(CONTENT, "quickdraw_core", ["spark_bolt"] * 3))
    assert effect.after > effect.now, "the quickdraw core's regen pays for more sparks"


def test_r_feel_2_a_card_the_pool_can_never_pay_adds_nothing() -> None:
    effect = card_effect(CONTENT, "starter_wand", ["spark_bolt", None, None, None, None], "nuke")
    assert effect.after <= effect.now * 1.1, "the 200-mana nuke on a 100-mana pool never fires"


def test_the_run_s_active_wand_and_stats_are_the_ones_used() -> None:
    run = Run(CONTENT, 1)
    run.loadout = Loadout(
        CONTENT, cores=[CarriedCore("starter_wand", ["spark_bolt", None, None, None, None])], active="starter_wand"
    )
    effect = offer_effect(run, "spells", "spark_bolt")
    bonus = WandBonus.of(run)
    assert effect == card_effect(CONTENT, "starter_wand", ["spark_bolt", None, None, None, None], "spark_bolt", bonus)
    # R-STAT-1: the base crit (5% at x2) is counted at its expected share.
    assert effect.now == pytest.approx(1.05 * sustained_dps(CONTENT, "starter_wand", ["spark_bolt"]), rel=1e-4)


def bought(run: Run, stat: WandStat, amount: float) -> WandBonus:
    run.wand_stats.totals[stat] += amount
    return WandBonus.of(run)


def test_the_lab_figure_counts_the_stats_bought_and_the_relics() -> None:
    """R-CURVE-1: the wand's sustained DPS is the lab's figure with the player's stats and relics:
    more regen on a wand the pool starves, cast speed, attunement for its element, crit."""
    run = Run(CONTENT, 1)
    starved = ["spark_bolt", "heavy_shot", "heavy_shot", "fireball", "heavy_shot"]
    base = sustained_dps(CONTENT, "starter_wand", starved, WandBonus.of(run))
    regen = sustained_dps(CONTENT, "starter_wand", starved, bought(run, WandStat.MANA_REGEN, 30))
    assert regen > base * 1.3, "the pool, not the program, was the ceiling"
    run = Run(CONTENT, 1)
    relic_id, relic = next((i, r) for i, r in CONTENT.relics.relics.items() if r.effect == "mana_regen")
    run.gain_relic(relic_id)
    timeline = WandBonus.of(run).timeline(CONTENT, "starter_wand", starved)
    assert timeline["regen"] == pytest.approx(CONTENT.core("starter_wand").mana_regen + relic.value)
    sparks = ["spark_bolt"] * 3
    run = Run(CONTENT, 1)
    plain = sustained_dps(CONTENT, "starter_wand", sparks, bought(run, WandStat.MANA_REGEN, 90))  # not starved
    fast = sustained_dps(CONTENT, "starter_wand", sparks, bought(run, WandStat.CAST_SPEED, 0.3))
    assert fast > plain * 1.2
    run = Run(CONTENT, 1)
    plain = sustained_dps(CONTENT, "starter_wand", sparks, WandBonus.of(run))
    run = Run(CONTENT, 1)
    attuned = bought(run, WandStat("attunement_physical"), 10)
    assert sustained_dps(CONTENT, "starter_wand", sparks, attuned) == pytest.approx(plain * 1.3, rel=1e-3)
    run = Run(CONTENT, 1)
    crit = bought(run, WandStat.CRIT_CHANCE, 0.15)
    assert sustained_dps(CONTENT, "starter_wand", sparks, crit) == pytest.approx(plain * 1.2 / 1.05, rel=1e-3)
