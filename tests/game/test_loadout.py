"""R-CORE-3: carried cores, the active core, the waiting area."""

from __future__ import annotations

import pytest

from artificer.content import load_content
from artificer.engine import Simulation
from artificer.game.loadout import CoreFull, Loadout, LoadoutError, LoadoutFull, Place, WaitingAreaFull

CONTENT = load_content()


def test_a_run_starts_with_the_starting_wand_active() -> None:
    loadout = Loadout.starting(CONTENT)
    core, cards = loadout.wand()
    assert core == CONTENT.balance.starting_wand.core
    assert cards[:3] == ["spark_bolt"] * 3
    assert Simulation(CONTENT, 1).arm_wand(core, cards)["can_fire"]


def test_at_most_three_cores_and_a_fourth_asks_which_to_drop() -> None:
    """R-CORE-3: buying a 4th asks which to sell or discard; the dropped
    core's cards go to the waiting area."""
    loadout = Loadout.starting(CONTENT)
    loadout.add_core("siege_core")
    loadout.add_core("quickdraw_core")
    with pytest.raises(LoadoutFull, match="choose one to sell or discard"):
        loadout.add_core("forked_core")
    moved = loadout.add_core("forked_core", drop="starter_wand")
    assert moved == ["spark_bolt"] * 3
    assert loadout.waiting == ["spark_bolt"] * 3
    assert [c.core for c in loadout.cores] == ["siege_core", "quickdraw_core", "forked_core"]
    assert loadout.active == "siege_core", "the active core was dropped: another takes its place"


def test_switching_only_in_the_shop_and_each_core_keeps_its_cards() -> None:
    loadout = Loadout.starting(CONTENT)
    loadout.add_core("siege_core")
    with pytest.raises(LoadoutError, match="only in the shop"):
        loadout.switch("siege_core", in_shop=False)
    loadout.switch("siege_core", in_shop=True)
    assert loadout.wand() == ("siege_core", [None] * CONTENT.core("siege_core").capacity)
    loadout.switch("starter_wand", in_shop=True)
    assert loadout.wand()[1][:3] == ["spark_bolt"] * 3


def test_waiting_area_holds_five_and_refuses_more_without_changing_anything() -> None:
    loadout = Loadout.starting(CONTENT)
    loadout.waiting = ["damage_plus", "bounce", "homing"]
    loadout.add_core("siege_core")
    with pytest.raises(WaitingAreaFull) as err:
        loadout.remove_core("starter_wand")
    assert err.value.overflow == ["spark_bolt"]
    assert [c.core for c in loadout.cores] == ["starter_wand", "siege_core"], "nothing changed"
    loadout.discard_waiting("homing")
    loadout.remove_core("starter_wand")
    assert len(loadout.waiting) == 5


def test_waiting_cards_go_back_into_empty_slots() -> None:
    loadout = Loadout.starting(CONTENT)
    loadout.waiting = ["damage_plus"]
    loadout.place("damage_plus", "starter_wand", 3)
    assert loadout.wand()[1][3] == "damage_plus" and loadout.waiting == []
    with pytest.raises(LoadoutError, match="not an empty slot"):
        loadout.waiting = ["bounce"]
        loadout.place("bounce", "starter_wand", 0)


def _two_cores() -> Loadout:
    loadout = Loadout.starting(CONTENT)
    loadout.add_core("siege_core")
    return loadout


def test_r_lab_1_a_card_moves_between_the_boards_of_two_carried_cores() -> None:
    """R-LAB-1, R-CORE-3: the lab edits every carried core, not only the active one; each keeps its cards."""
    loadout = _two_cores()
    loadout.move(Place("slot", 0, "starter_wand"), Place("slot", 2, "siege_core"))
    assert loadout.carried("siege_core").cards[2] == "spark_bolt"
    assert loadout.carried("starter_wand").cards[:3] == [None, "spark_bolt", "spark_bolt"]
    # Onto a taken slot of the other core the two cards swap.
    loadout.stash("heavy_shot")
    loadout.move(Place("backpack", 0), Place("slot", 2, "siege_core"))
    assert loadout.carried("siege_core").cards[2] == "heavy_shot" and loadout.backpack == ["spark_bolt"]
    assert loadout.active == "starter_wand", "editing another core does not make it active"


def test_a_slot_of_the_active_core_is_the_same_place_named_or_not() -> None:
    loadout = _two_cores()
    loadout.move(Place("slot", 0), Place("slot", 0, "starter_wand"))
    assert loadout.carried("starter_wand").cards[0] == "spark_bolt"


def test_r_lab_1_a_card_sent_to_a_core_lands_in_its_first_free_slot_and_a_full_core_refuses() -> None:
    loadout = _two_cores()
    loadout.stash("heavy_shot")
    assert loadout.send_to_core(Place("backpack", 0), "siege_core") == 0
    assert loadout.carried("siege_core").cards[0] == "heavy_shot" and loadout.backpack == []
    assert loadout.send_to_core(Place("slot", 0, "siege_core"), "siege_core") is None, "already on that core"
    starter = loadout.carried("starter_wand")
    starter.cards[:] = ["spark_bolt"] * len(starter.cards)
    before = list(starter.cards)
    with pytest.raises(CoreFull):
        loadout.send_to_core(Place("slot", 0, "siege_core"), "starter_wand")
    assert starter.cards == before and loadout.carried("siege_core").cards[0] == "heavy_shot", "nothing moved"


def test_r_core_3_waiting_cards_go_to_any_board_or_the_backpack_and_nothing_goes_back() -> None:
    loadout = _two_cores()
    loadout.waiting = ["bounce", "homing"]
    loadout.move(Place("waiting", 0), Place("slot", 1, "siege_core"))
    assert loadout.carried("siege_core").cards[1] == "bounce" and loadout.waiting == ["homing"]
    loadout.move(Place("waiting", 0), Place("backpack", 0))
    assert loadout.backpack == ["homing"] and loadout.waiting == []
    with pytest.raises(LoadoutError, match="only empties"):
        loadout.move(Place("slot", 1, "siege_core"), Place("waiting", 0))
    assert loadout.carried("siege_core").cards[1] == "bounce"
