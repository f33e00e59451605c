"""R-END-1 Last Will, the core's primitive, through `World.step`: armed, a
lethal hit (contact, an enemy shot, an exploder's blast) leaves the player
at 1 HP, reports LAST_WILL and disarms; the next lethal hit kills. The flag
is state (hash) and a run save carries it with `last_will` /
`set_last_will`. The core's own test: rust/tests/world.rs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from artificer.content import load_content
from artificer.engine import EventKind, Simulation

TICK_HZ = 60


@pytest.fixture(scope="module")
def content() -> Any:
    return load_content()


def standing(content: Any, hp: float, armed: bool) -> Simulation:
    """The shipped content, the player standing still and unarmed at `hp`."""
    sim = Simulation(content, seed=3, rules={"player_fixed": True})
    sim.step()
    sim.world.set_player_hp(hp, content.balance.player.max_hp)
    sim.world.set_last_will(armed)
    return sim


def player_at(sim: Simulation) -> tuple[float, float]:
    return sim.world.player_position()


def events_of(sim: Simulation, kind: EventKind) -> Any:
    rows = sim.buffers.event_rows()
    return rows[rows[:, 0] == kind]


def step_until(sim: Simulation, kind: EventKind, frames: int) -> Any:
    for _ in range(frames):
        sim.step()
        found = events_of(sim, kind)
        if len(found):
            return found
    raise AssertionError(f"no {kind.name} in {frames} frames")


def test_r_end_1_armed_last_will_survives_a_lethal_contact_at_1_hp_once(content: Any) -> None:
    sim = standing(content, hp=5.0, armed=True)
    assert sim.world.last_will is True
    px, py = player_at(sim)
    brute = content.enemy_index("brute")
    sim.input.spawn(brute, px + 5.0, py)
    spared = step_until(sim, EventKind.LAST_WILL, 5)
    assert spared[0, 1] == brute and spared[0, 5] == 1.0
    assert len(events_of(sim, EventKind.PLAYER_DIED)) == 0
    kinds = sim.buffers.event_rows()[:, 0].tolist()
    assert kinds.index(EventKind.PLAYER_DAMAGED) < kinds.index(EventKind.LAST_WILL)
    assert sim.world.player_hp()[0] == 1.0
    assert sim.buffers.player_value("alive") == 1.0
    assert sim.world.last_will is False

    died = step_until(sim, EventKind.PLAYER_DIED, 2 * TICK_HZ)
    assert len(died) == 1
    assert sim.buffers.player_value("alive") == 0.0


def test_r_end_1_unarmed_the_lethal_hit_kills(content: Any) -> None:
    sim = standing(content, hp=5.0, armed=False)
    px, py = player_at(sim)
    sim.input.spawn(content.enemy_index("brute"), px + 5.0, py)
    step_until(sim, EventKind.PLAYER_DIED, 5)
    assert len(events_of(sim, EventKind.LAST_WILL)) == 0
    assert sim.buffers.player_value("alive") == 0.0


def test_r_end_1_last_will_spares_an_enemy_shot(content: Any) -> None:
    sim = standing(content, hp=2.0, armed=True)
    px, py = player_at(sim)
    sim.input.spawn(content.enemy_index("archer"), px + 200.0, py)
    spared = step_until(sim, EventKind.LAST_WILL, 6 * TICK_HZ)
    assert spared[0, 1] == -1.0, "a projectile"
    assert sim.world.player_hp()[0] == 1.0 and sim.world.last_will is False


def test_r_end_1_last_will_spares_an_exploder_blast(content: Any) -> None:
    sim = standing(content, hp=5.0, armed=True)
    px, py = player_at(sim)
    exploder = content.enemy_index("exploder")
    sim.input.spawn(exploder, px + 50.0, py)
    sim.step()
    sim.input.damage_nearest(px + 50.0, py, 1.0e6)
    sim.step()
    assert len(events_of(sim, EventKind.EXPLODED)) == 1
    spared = events_of(sim, EventKind.LAST_WILL)
    assert len(spared) == 1 and spared[0, 1] == exploder
    assert sim.world.player_hp()[0] == 1.0 and sim.world.last_will is False


def test_r_end_1_a_hit_that_is_not_lethal_keeps_it_armed(content: Any) -> None:
    sim = standing(content, hp=50.0, armed=True)
    px, py = player_at(sim)
    sim.input.spawn(content.enemy_index("brute"), px + 5.0, py)
    step_until(sim, EventKind.PLAYER_DAMAGED, 5)
    assert sim.world.last_will is True
    assert len(events_of(sim, EventKind.LAST_WILL)) == 0


def test_r_end_1_last_will_is_state_and_a_save_carries_it(content: Any) -> None:
    armed, unarmed = standing(content, 5.0, True), standing(content, 5.0, False)
    assert armed.state_hash() != unarmed.state_hash()
    # A run save: read the flag, set it on the restored world.
    unarmed.world.set_last_will(armed.world.last_will)
    assert unarmed.state_hash() == armed.state_hash()
    with pytest.raises(AttributeError):
        armed.world.last_will = False  # type: ignore[misc]


def test_r_end_1_same_hash_on_one_and_two_threads(content: Any) -> None:
    def run(threads: int) -> int:
        sim = standing(content, hp=20.0, armed=True)
        sim.world.set_threads(threads)
        px, py = player_at(sim)
        rng = np.random.default_rng(8)
        for x, y in rng.uniform(-200, 200, size=(40, 2)).tolist():
            sim.input.spawn(content.enemy_index("grunt"), px + x, py + y)
        for _ in range(3 * TICK_HZ):
            sim.step()
        return sim.state_hash()

    assert run(1) == run(2)
