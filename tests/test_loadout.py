"""R-CORE-3: carried cores, the active core, the waiting area."""

from __future__ import annotations

import pytest

from artificer.content import load_content
from artificer.engine import Simulation
from artificer.game.loadout import Loadout, LoadoutError, LoadoutFull, WaitingAreaFull

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
