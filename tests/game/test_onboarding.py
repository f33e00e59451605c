"""Onboarding by run count (R-ONB-1): each of the first runs' step, what its shop may offer, and the
skip; the step is the run's and is saved with it."""

from __future__ import annotations

import pytest

from artificer.content.models import SpellFamily
from artificer.game.meta import Meta
from artificer.game.onboarding import Onboarding, new_run_step
from artificer.game.run import Run
from artificer.game.save import LoadedRun, load_run, save_run
from artificer.sim.bot import KitingBot
from relic_runs import CONTENT

pytestmark = pytest.mark.usefixtures("isolated_home")


def offered(step: int, seeds: range = range(1, 9)) -> tuple[set[str], set[str]]:
    """(spells, cores) the shops of runs at onboarding `step` offered, waves 2-15, with rerolls."""
    spells: set[str] = set()
    cores: set[str] = set()
    for seed in seeds:
        run = Run(CONTENT, seed, onboarding=step)
        run.currency = 1_000_000
        for wave in (2, 6, 10, 15):
            run.shop.open(wave)
            for _ in range(3):
                spells |= {o.item for o in run.shop.shelves["spells"] if o is not None}
                cores |= {o.item for o in run.shop.shelves["cores"] if o is not None}
                run.shop.reroll()
            run.shop.close()
    return spells, cores


def test_r_onb_1_each_new_run_takes_the_step_of_its_run_number_until_the_last() -> None:
    steps = len(CONTENT.balance.onboarding.steps)
    assert [new_run_step(CONTENT, Meta(runs=n), skip=False) for n in range(steps + 2)] == [*range(1, steps + 1), 0, 0]
    assert new_run_step(CONTENT, Meta(), skip=True) == 0, "the setting skips it"
    assert new_run_step(CONTENT, Meta(onboarding_done=True), skip=False) == 0, "a veteran's file skips it"


def test_r_onb_1_run_1_closes_the_lab_offers_no_cards_or_cores_and_is_movement_only() -> None:
    first = Onboarding.of(CONTENT, 1)
    assert (first.lab, first.dash, first.potions, first.lesson) == (False, False, False, "move")
    assert offered(1) == (set(), set())
    wand = Run(CONTENT, 1, onboarding=1).loadout.wand()
    assert wand[0] == CONTENT.balance.starting_wand.core
    assert [card for card in wand[1] if card] == ["spark_bolt"] * 3, "the preset wand: three spark bolts"


def test_r_onb_1_run_2_offers_tier_1_actions_and_tier_1_cores_only() -> None:
    spells, cores = offered(2)
    assert spells and all(CONTENT.spell(s).family is SpellFamily.ACTION and CONTENT.spell(s).tier == 1 for s in spells)
    assert cores and all(CONTENT.core(c).tier == 1 for c in cores)
    assert Onboarding.of(CONTENT, 2).lab and Onboarding.of(CONTENT, 2).dash


def test_r_onb_1_run_3_adds_the_first_modifier_and_run_4_the_first_trigger() -> None:
    third, _ = offered(3)
    assert "damage_plus" in third and all(
        s == "damage_plus" or CONTENT.spell(s).family is SpellFamily.ACTION for s in third
    )
    fourth, _ = offered(4)
    assert {"damage_plus", "trigger_on_hit"} <= fourth
    assert not {s for s in fourth if CONTENT.spell(s).tier >= 2}, "Tier 2 waits for run 5"
    assert Onboarding.of(CONTENT, 3).lesson == "damage_plus" and Onboarding.of(CONTENT, 4).lesson == "trigger_on_hit"


def test_r_onb_1_run_5_opens_tier_2_and_logic() -> None:
    spells, _ = offered(0)
    families = {CONTENT.spell(s).family for s in spells}
    assert SpellFamily.LOGIC in families and any(CONTENT.spell(s).tier >= 2 for s in spells)


def test_r_onb_1_a_run_keeps_its_step_in_its_save() -> None:
    run = Run(CONTENT, 2, onboarding=2)
    run.play_wave(1, KitingBot())  # it moves (a dense wave 1 kills a player who stands, R-WAVE-1)
    save_run(run, 2)
    loaded = load_run(CONTENT)
    assert isinstance(loaded, LoadedRun) and loaded.run.state.onboarding == 2
