"""The enemy roster's behaviours through the data path (R-WAVE-1, R-WAVE-2):
enemies.json's behaviour blocks, validated by the content models, handed to
the core by `Simulation`, and acted on there — the archer's band and shots,
the reflector's shield, the exploder's blast and the splitter's children.
The core's own tests (rust/tests/enemies.rs) pin the rules down; these
check that the shipped numbers reach it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from artificer.content import DEFAULT_DATA_DIR, ContentError, load_content
from artificer.content.models import BEHAVIOR_BLOCKS
from artificer.engine import EventKind, Simulation
from artificer.engine.frame import PROJECTILE_FIELDS
from bolt_wand import arm_bolt

OWNER = PROJECTILE_FIELDS.index("owner")
TICK_HZ = 60


@pytest.fixture(scope="module")
def content() -> Any:
    return load_content()


def still_player(content: Any) -> Simulation:
    """A world of the shipped content, the player standing still and unarmed."""
    return Simulation(content, seed=3, rules={"player_fixed": True})


def player_at(sim: Simulation) -> tuple[float, float]:
    return sim.buffers.player_value("x"), sim.buffers.player_value("y")


def events_of(sim: Simulation, kind: EventKind) -> Any:
    rows = sim.buffers.event_rows()
    return rows[rows[:, 0] == kind]


def test_r_wave_2_every_behaviour_in_the_roster_has_its_block(content: Any) -> None:
    for enemy in content.enemies:
        for behavior, block in BEHAVIOR_BLOCKS.items():
            assert (getattr(enemy, block) is not None) == (enemy.behavior == behavior), enemy.id


def test_r_wave_2_archer_keeps_its_band_and_its_shots_hurt_the_player(content: Any) -> None:
    sim = still_player(content)
    sim.step()
    px, py = player_at(sim)
    attack = content.enemy("archer").attack
    sim.input.spawn(content.enemy_index("archer"), px + 600.0, py)
    fired = enemy_shots_seen = 0
    hurt: list[float] = []
    for frame in range(12 * TICK_HZ):
        sim.step()
        fired += int(np.count_nonzero(events_of(sim, EventKind.PROJECTILE_FIRED)[:, 2] == 1.0))
        hits = events_of(sim, EventKind.PLAYER_DAMAGED)
        hurt.extend(float(v) for v in hits[hits[:, 1] == -1.0, 5])
        enemy_shots_seen += int(np.count_nonzero(sim.buffers.projectile_rows()[:, OWNER] == 1.0))
        if frame >= 8 * TICK_HZ:
            (x, y) = sim.buffers.enemy_rows()[0, :2]
            distance = float(np.hypot(x - px, y - py))
            assert attack.min_distance - 5 <= distance <= attack.max_distance + 5, f"frame {frame}: {distance:.0f} px"
    assert fired >= 3 and enemy_shots_seen > 0
    assert hurt and all(lost == attack.damage for lost in hurt)
    assert sim.buffers.player_value("hp") == content.balance.player.max_hp - attack.damage * len(hurt)


def test_r_wave_2_splitter_splits_once_into_its_children(content: Any) -> None:
    sim = still_player(content)
    sim.step()
    px, py = player_at(sim)
    split = content.enemy("splitter").split
    sim.input.spawn(content.enemy_index("splitter"), px + 400.0, py)
    sim.step()
    sim.input.damage_nearest(px + 400.0, py, 1000.0)
    sim.step()
    assert len(events_of(sim, EventKind.ENEMY_SPAWNED)) == split.count
    children = sim.buffers.enemy_rows()
    assert len(children) == split.count
    assert set(children[:, 2].astype(int)) == {content.enemy_index(split.into)}
    for x, y in children[:, :2].tolist():
        sim.input.damage_nearest(x, y, 1000.0)
    sim.step()
    assert len(events_of(sim, EventKind.ENEMY_KILLED)) == split.count
    assert len(events_of(sim, EventKind.ENEMY_SPAWNED)) == 0, "children do not split"
    assert len(sim.buffers.enemy_rows()) == 0


def test_r_wave_1_reflector_turns_the_starting_wand_back(content: Any) -> None:
    """The default wand's physical spark bolts, fired at a reflector in front
    of the player: they come back as enemy shots and the reflector keeps its
    HP; the player loses HP to its own reflected bolts."""
    sim = still_player(content)
    arm_bolt(sim)
    sim.step()
    px, py = player_at(sim)
    reflector = content.enemy("reflector")
    sim.input.spawn(content.enemy_index("reflector"), px + 200.0, py)
    sim.world.set_rules({"player_fixed": True, "enemies_still": True})
    reflected = 0
    for _ in range(2 * TICK_HZ):
        sim.step()
        reflected += int(np.count_nonzero(events_of(sim, EventKind.PROJECTILE_FIRED)[:, 2] == 1.0))
    assert reflected > 0
    assert sim.buffers.enemy_rows()[0, 4] == 1.0, "HP fraction: the reflector is unhurt"
    assert sim.buffers.player_value("hp") < content.balance.player.max_hp
    assert reflector.shield is not None


def test_r_wave_2_exploder_blast_hurts_the_player_and_neighbours(content: Any) -> None:
    sim = still_player(content)
    sim.step()
    px, py = player_at(sim)
    blast = content.enemy("exploder").explode
    sim.world.set_rules({"player_fixed": True, "enemies_still": True})
    sim.input.spawn(content.enemy_index("exploder"), px + blast.radius / 2, py)
    sim.input.spawn(content.enemy_index("swarmer"), px + blast.radius / 2, py + blast.radius / 2)
    sim.step()
    sim.input.damage_nearest(px + blast.radius / 2, py, 1000.0)
    sim.step()
    assert len(events_of(sim, EventKind.EXPLODED)) == 1
    assert len(events_of(sim, EventKind.ENEMY_KILLED)) == 2
    assert sim.buffers.player_value("hp") == content.balance.player.max_hp - blast.damage


# --- bad behaviour blocks are reported -----------------------------------------


def broken_roster(tmp_path: Path, edit: Any) -> list[tuple[str, str, str]]:
    shutil.copytree(DEFAULT_DATA_DIR, tmp_path, dirs_exist_ok=True)
    path = tmp_path / "enemies.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    edit({enemy["id"]: enemy for enemy in document["enemies"]})
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_content(tmp_path)
    return [(p.file, p.path, p.reason) for p in caught.value.problems]


def test_a_behaviour_without_its_block_is_one_problem(tmp_path: Path) -> None:
    problems = broken_roster(tmp_path, lambda e: e["archer"].pop("attack"))
    assert problems == [("enemies.json", "$.enemies[3].attack", 'behavior "keep_distance" requires an attack block')]


def test_a_block_on_another_behaviour_is_one_problem(tmp_path: Path) -> None:
    problems = broken_roster(tmp_path, lambda e: e["grunt"].update(shield={"arc": 90, "reflect_damage": 1}))
    assert problems == [
        ("enemies.json", "$.enemies[0].shield", 'only behavior "shield" takes a shield block (this enemy is "chase")')
    ]


def test_an_archer_band_out_of_order_is_reported(tmp_path: Path) -> None:
    problems = broken_roster(tmp_path, lambda e: e["archer"]["attack"].update(min_distance=400))
    assert [(path, reason.startswith("must be greater than min_distance")) for _, path, reason in problems] == [
        ("$.enemies[3].attack.max_distance", True)
    ]


def test_a_split_into_an_unknown_enemy_is_reported_with_a_suggestion(tmp_path: Path) -> None:
    problems = broken_roster(tmp_path, lambda e: e["splitter"]["split"].update(into="splitlin"))
    assert len(problems) == 1
    file, path, reason = problems[0]
    assert (file, path) == ("enemies.json", "$.enemies[8].split.into")
    assert 'unknown enemy "splitlin"' in reason and '"splitling"' in reason
