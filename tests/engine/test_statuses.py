"""R-DMG-2 statuses and reactions, R-STAT-1 attunement through the data
path: balance.json's `statuses` section, validated by the content models,
handed to the core by `Simulation`, shown in the enemy `flags` column and
as ELEMENT_REACTION events. The core's own tests (rust/tests/statuses.rs)
pin the numbers down; these check that the shipped data reaches it."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from artificer import _core
from artificer.content import DEFAULT_DATA_DIR, ContentError, load_content
from artificer.engine import EventKind, Simulation
from artificer.engine.events import Reaction
from artificer.engine.frame import EnemyColumn
from bolt_wand import arm_bolt

FLAGS = EnemyColumn.FLAGS


def edited_content(tmp_path: Path, edit: Callable[[dict[str, Any]], None]) -> Any:
    shutil.copytree(DEFAULT_DATA_DIR, tmp_path, dirs_exist_ok=True)
    path = tmp_path / "balance.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    edit(document["statuses"])
    path.write_text(json.dumps(document), encoding="utf-8")
    return load_content(tmp_path)


def every_chance(value: float) -> Callable[[dict[str, Any]], None]:
    def edit(statuses: dict[str, Any]) -> None:
        statuses["chance"] = {e: value for e in ("fire", "ice", "lightning", "poison", "water")}

    return edit


def arm(sim: Simulation, element: str, damage: float = 1.0) -> None:
    """A bolt of `element` every 0.1 s."""
    arm_bolt(sim, element=element, damage=damage, cast_delay=0.1)


def dummy_in_front(content: Any) -> Simulation:
    """An immortal brute standing still 150 px right of a player who stands still."""
    rules = {"player_fixed": True, "player_invulnerable": True, "enemies_still": True, "enemies_immortal": True}
    sim = Simulation(content, seed=5, rules=rules)
    sim.step()
    px, py = sim.buffers.player_value("x"), sim.buffers.player_value("y")
    sim.input.spawn(content.enemy_index("brute"), px + 150.0, py)
    sim.step()
    return sim


def flags_after(sim: Simulation, frames: int) -> int:
    """The status flags any step showed over `frames` steps (the hit flash, R-FEEL-1, is not a status)."""
    seen = 0
    for _ in range(frames):
        sim.step()
        rows = sim.buffers.enemy_rows()
        if len(rows):
            seen |= int(rows[0, FLAGS])
    return seen & ~_core.ENEMY_FLAG_HIT


def reactions(sim: Simulation, frames: int) -> list[float]:
    out: list[float] = []
    for _ in range(frames):
        sim.step()
        rows = sim.buffers.event_rows()
        out.extend(float(a) for a in rows[rows[:, 0] == EventKind.ELEMENT_REACTION, 1])
    return out


@pytest.mark.parametrize(
    ("element", "flag"),
    [
        ("fire", _core.ENEMY_FLAG_BURNING),
        ("ice", _core.ENEMY_FLAG_CHILLED),
        ("lightning", _core.ENEMY_FLAG_SHOCKED),
        ("poison", _core.ENEMY_FLAG_POISONED),
        ("water", _core.ENEMY_FLAG_WET),
    ],
)
def test_r_dmg_2_each_element_shows_its_status_flag(tmp_path: Path, element: str, flag: int) -> None:
    content = edited_content(tmp_path, every_chance(1.0))
    sim = dummy_in_front(content)
    arm(sim, element)
    assert flags_after(sim, 60) & flag


def test_r_dmg_2_ice_freezes_after_three_chills(tmp_path: Path) -> None:
    content = edited_content(tmp_path, every_chance(1.0))
    sim = dummy_in_front(content)
    arm(sim, "ice")
    assert flags_after(sim, 90) & _core.ENEMY_FLAG_FROZEN


def test_r_dmg_2_chance_zero_shows_no_status(tmp_path: Path) -> None:
    content = edited_content(tmp_path, every_chance(0.0))
    sim = dummy_in_front(content)
    for element in ("fire", "ice", "lightning", "poison", "water"):
        arm(sim, element)
        assert flags_after(sim, 30) == 0, element


def test_r_dmg_2_reactions_electrified_and_dried(tmp_path: Path) -> None:
    content = edited_content(tmp_path, every_chance(1.0))
    sim = dummy_in_front(content)
    arm(sim, "water")
    assert reactions(sim, 30) == []
    arm(sim, "lightning")
    assert Reaction.ELECTRIFIED in reactions(sim, 30)
    arm(sim, "water")
    reactions(sim, 30)
    arm(sim, "fire")
    seen = reactions(sim, 30)
    assert seen[0] == Reaction.DRIED
    rows = sim.buffers.enemy_rows()
    assert not int(rows[0, FLAGS]) & _core.ENEMY_FLAG_WET


def test_r_stat_1_attunement_setter_per_element() -> None:
    content = load_content()
    sim = Simulation(content, seed=1)
    assert sim.world.attunement() == {e: 0.0 for e in ("physical", "fire", "ice", "lightning", "poison", "water")}
    sim.world.set_attunement({"fire": 3})
    assert sim.world.attunement()["fire"] == 3.0 and sim.world.attunement()["ice"] == 0.0
    with pytest.raises(ValueError):
        sim.world.set_attunement({"plasma": 1})
    with pytest.raises(ValueError):
        sim.world.set_attunement({"fire": -1})


def test_r_stat_1_attunement_raises_damage_through_simulation(tmp_path: Path) -> None:
    content = edited_content(tmp_path, every_chance(0.0))

    def dealt(points: float) -> float:
        sim = dummy_in_front(content)
        sim.world.set_attunement({"fire": points})
        arm(sim, "fire", damage=10.0)
        return sum(sim.step().damage_dealt for _ in range(30))

    base, attuned = dealt(0.0), dealt(10.0)
    assert base > 0 and attuned == pytest.approx(base * 1.3, rel=1e-4)


def test_r_det_1_shipped_statuses_same_hash_on_one_and_two_threads() -> None:
    content = load_content()

    def run(threads: int) -> int:
        sim = Simulation(content, seed=9, rules={"player_fixed": True, "player_invulnerable": True})
        sim.world.set_threads(threads)
        sim.step()
        px, py = sim.buffers.player_value("x"), sim.buffers.player_value("y")
        rng = np.random.default_rng(4)
        for x, y in rng.uniform(-300, 300, size=(60, 2)).tolist():
            sim.input.spawn(0, px + x, py + y)
        for element in ("fire", "ice", "lightning", "poison", "water") * 24:
            arm(sim, element, damage=2.0)
            sim.step()
        return sim.state_hash()

    assert run(1) == run(2)


def test_a_status_chance_above_one_is_one_problem(tmp_path: Path) -> None:
    with pytest.raises(ContentError) as caught:
        edited_content(tmp_path, lambda s: s["chance"].update(fire=1.5))
    problems = [(p.file, p.path) for p in caught.value.problems]
    assert problems == [("balance.json", "$.statuses.chance.fire")]


def test_a_missing_status_block_is_one_problem(tmp_path: Path) -> None:
    with pytest.raises(ContentError) as caught:
        edited_content(tmp_path, lambda s: s.pop("burn"))
    problems = [(p.file, p.path) for p in caught.value.problems]
    assert problems == [("balance.json", "$.statuses.burn")]


def test_physical_status_chance_is_one_problem(tmp_path: Path) -> None:
    with pytest.raises(ContentError) as caught:
        edited_content(tmp_path, lambda s: s["chance"].update(physical=0.5))
    assert [(p.file, p.path) for p in caught.value.problems] == [("balance.json", "$.statuses.chance")]


def archer_shots(content: Any, element: str, seconds: int) -> int:
    """Enemy shots of an immortal archer 200 px away while the player's ice
    (or other) wand keeps hitting it."""
    rules = {"player_fixed": True, "player_invulnerable": True, "enemies_immortal": True}
    sim = Simulation(content, seed=5, rules=rules)
    sim.step()
    px, py = sim.buffers.player_value("x"), sim.buffers.player_value("y")
    sim.input.spawn(content.enemy_index("archer"), px + 200.0, py)
    arm(sim, element)
    shots = 0
    for _ in range(seconds * content.balance.sim.tick_hz):
        sim.step()
        rows = sim.buffers.event_rows()
        shots += int(np.count_nonzero((rows[:, 0] == EventKind.PROJECTILE_FIRED) & (rows[:, 2] == 1.0)))
    return shots


def test_r_dmg_2_a_frozen_archer_does_not_fire(tmp_path: Path) -> None:
    """R-DMG-2: an archer kept frozen by ice hits never shoots; hit by
    physical shots it shoots on its cooldown."""
    content = edited_content(tmp_path, every_chance(1.0))
    assert archer_shots(content, "physical", 4) >= 1
    assert archer_shots(content, "ice", 4) == 0
