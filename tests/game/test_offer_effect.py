"""R-SHOP-1, R-FEEL-2: a shop offer says what it would do to the player's own wand — sustained DPS
now → after on the active core, as the lab counts it — with the card in the first free slot, the
best single replacement on a full board (named), and a core with the current cards moved onto it."""

from __future__ import annotations

import pytest

from artificer.content import load_content
from artificer.game.loadout import CarriedCore, Loadout
from artificer.game.offer_effect import card_effect, core_effect, offer_effect, sustained_dps
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


def test_the_run_s_active_wand_and_cpu_are_the_ones_used() -> None:
    run = Run(CONTENT, 1)
    run.loadout = Loadout(
        CONTENT, cores=[CarriedCore("starter_wand", ["spark_bolt", None, None, None, None])], active="starter_wand"
    )
    effect = offer_effect(run, "spells", "spark_bolt")
    assert effect == card_effect(CONTENT, "starter_wand", ["spark_bolt", None, None, None, None], "spark_bolt")
