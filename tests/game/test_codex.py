"""The codex and the achievements (R-META-2, R-RES-2): each trigger of a codex entry — a spell owned
(first pickup or purchase), an enemy met, a boss met, an element reaction (the alchemy journal), a
recipe fused in a fight, a relic, a potion — through the core's real events and the run's state;
recipes hidden behind their hint until they fuse; what is found written to meta.json once; the
achievements earned from the progress."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from artificer.content.roster import kind_index
from artificer.engine import EventKind, Simulation
from artificer.game.codex import Codex, Discoveries, earned
from artificer.game.meta import Meta, Section, load_meta, unlock_tree
from artificer.game.run import Run
from relic_runs import CONTENT

pytestmark = pytest.mark.usefixtures("isolated_home")

RANGE = {"player_fixed": True, "player_invulnerable": True, "enemies_immortal": True}


def range_discoveries(cards: list[str], frames: int = 240) -> Discoveries:
    """A wand fired at two dummies in the lab's range, its events watched."""
    sim = Simulation(CONTENT, seed=9, rules=RANGE)
    sim.arm_wand("siege_core", cards)
    sim.world.begin_wave()
    for x, y in [(1500, 800), (1520, 820)]:
        sim.input.spawn(CONTENT.enemy_index("grunt"), x, y)
    found = Discoveries(CONTENT)
    for _ in range(frames):
        sim.step()
        found.observe_events(sim.buffers.event_rows())
    return found


def test_r_res_2_a_recipe_enters_the_codex_when_it_first_fuses_in_a_fight() -> None:
    found = range_discoveries(["water_wave", "chain_bolt"])
    assert found.new[Section.RECIPES] == {"plasma_storm"}
    assert found.new[Section.ENEMIES] == {"grunt"}, "the dummies were met too"


def test_r_meta_2_the_first_element_reaction_opens_its_journal_entry() -> None:
    assert range_discoveries(["water_wave", "spark_bolt", "electro_dash_bolt"]).new[Section.REACTIONS] == {
        "electrified"
    }
    assert Section.REACTIONS not in range_discoveries(["spark_bolt"]).new, "no water, no reaction"


def test_r_meta_2_a_boss_is_met_when_it_spawns_and_its_clones_count_as_it() -> None:
    found = Discoveries(CONTENT)
    rows = np.zeros((2, 6))
    rows[:, 0] = EventKind.ENEMY_SPAWNED
    rows[0, 1] = kind_index(CONTENT, "brood_mother")
    rows[1, 1] = kind_index(CONTENT, "void_lord_clone")
    assert found.observe_events(rows) == [(Section.BOSSES, "brood_mother"), (Section.BOSSES, "void_lord")]
    assert found.observe_events(rows) == [], "met once"


def test_r_meta_2_enemies_are_met_in_a_real_wave_and_only_those_it_sends() -> None:
    run = Run(CONTENT, 4)
    found = Discoveries(CONTENT)
    wave = run.start_wave(1)
    while not wave.over:
        wave.step()
        found.observe_events(run.sim.buffers.event_rows())
    sent = {group.enemy for group in CONTENT.wave(1).groups}
    assert found.new[Section.ENEMIES] == sent


def test_r_meta_2_spells_relics_and_potions_enter_once_owned() -> None:
    run = Run(CONTENT, 4)
    potion = next(iter(CONTENT.potions.potions))
    run.potions.held[0] = potion
    found = Discoveries(CONTENT)
    found.observe_state(run.state)
    assert found.new[Section.SPELLS] == set(c for c in CONTENT.balance.starting_wand.cards if c)
    assert found.new[Section.RELICS] == set(CONTENT.relics.start)
    assert found.new[Section.POTIONS] == {potion}


def test_r_meta_2_discoveries_are_written_once_and_not_met_again_in_the_next_run(tmp_path: Path) -> None:
    path = tmp_path / "meta.json"
    found = range_discoveries(["water_wave", "chain_bolt"])
    meta = found.flush(path)
    assert meta.seen(Section.RECIPES) == {"plasma_storm"} and load_meta(path).meta == meta
    assert found.flush(path) == meta, "nothing new: nothing written"
    again = Discoveries(CONTENT, load_meta(path).meta)
    sim = Simulation(CONTENT, seed=9, rules=RANGE)
    sim.arm_wand("siege_core", ["water_wave", "chain_bolt"])
    sim.world.begin_wave()
    sim.input.spawn(CONTENT.enemy_index("grunt"), 1500, 800)
    for _ in range(240):
        sim.step()
        assert not again.observe_events(sim.buffers.event_rows()), "known from the last run"


def test_r_res_2_a_recipe_shows_its_hint_until_found_then_its_full_entry() -> None:
    hidden = Codex(CONTENT).page("steam_blast")
    assert not hidden.discovered and hidden.title == "???" and hidden.text == CONTENT.text("recipe.steam_blast.hint")
    found = Codex(CONTENT, Meta().discover(Section.RECIPES, ["steam_blast"])).page("steam_blast")
    assert found.discovered and found.title == CONTENT.text("recipe.steam_blast.name")
    assert found.inputs == "Fireball + Water Wave" and found.product == CONTENT.text("spell.steam_blast.name")
    entries = Codex(CONTENT).entries(Section.RECIPES)
    assert [entry.id for entry in entries] == [recipe.id for recipe in CONTENT.recipes] and not any(
        e.found for e in entries
    )


def test_r_meta_2_achievements_are_earned_from_the_progress_once() -> None:
    assert earned(CONTENT, Meta()) == []
    assert earned(CONTENT, Meta(best_wave=12)) == ["wave_5", "wave_10"]
    assert "slayer" in earned(CONTENT, Meta(), kills_in_run=1500) and "slayer" not in earned(CONTENT, Meta(), 1499)
    every_recipe = Meta().discover(Section.RECIPES, [r.id for r in CONTENT.recipes])
    assert {"first_resonance", "resonance_master"} <= set(earned(CONTENT, every_recipe))
    everything = Meta(unlocked=frozenset(node.id for node in unlock_tree(CONTENT)))
    assert "collector" in earned(CONTENT, everything)
    assert earned(CONTENT, Meta(best_wave=12, achievements=frozenset({"wave_5"}))) == ["wave_10"], "held: not again"
