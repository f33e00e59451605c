"""The frame contract (DESIGN §3): buffers in, buffers out, one step per
tick — and every bad argument is a `CoreArgumentError` (an `ArtificerError`
and a `ValueError`) with a message, never a crash, and never a half-applied
frame."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from artificer import ArtificerError, CoreArgumentError, _core
from artificer.content import load_content
from artificer.content.roster import roster
from artificer.engine import EventKind, Simulation, world_config
from artificer.engine import events as ev
from bolt_wand import arm_bolt


@pytest.fixture(scope="module")
def content() -> Any:
    return load_content()


@pytest.fixture
def sim(content: Any) -> Simulation:
    return Simulation(content, seed=7)


def step_args(sim: Simulation, **override: Any) -> list[Any]:
    b, i = sim.buffers, sim.input
    args = {
        "controls": i.controls, "commands": i.commands, "n_commands": i.n_commands,
        "enemies": b.enemies, "projectiles": b.projectiles, "pickups": b.pickups,
        "player": b.player, "events": b.events, "zones": b.zones, "summons": b.summons,
    }  # fmt: skip
    args.update(override)
    return list(args.values())


def refused(sim: Simulation, match: str, **override: Any) -> None:
    before = sim.world.state_hash()
    with pytest.raises(CoreArgumentError, match=match) as info:
        sim.world.step(*step_args(sim, **override))
    assert isinstance(info.value, ArtificerError) and isinstance(info.value, ValueError)
    assert sim.world.state_hash() == before, "a refused step must not change the world"
    assert sim.world.frame == 0


def test_exceptions_share_one_base() -> None:
    assert issubclass(CoreArgumentError, ArtificerError)
    assert issubclass(CoreArgumentError, ValueError)


def test_wrong_dtype_names_the_buffer(sim: Simulation) -> None:
    refused(sim, r"enemies: expected a C-contiguous float32 array.*float64|enemies: .*<f8",
            enemies=np.zeros((8, _core.ENEMY_COLUMNS), dtype=np.float64))  # fmt: skip


def test_wrong_shape(sim: Simulation) -> None:
    refused(sim, r"projectiles: .*shape", projectiles=np.zeros((8, 3), dtype=np.float32))
    refused(sim, r"player: .*shape", player=np.zeros(3, dtype=np.float64))


def test_non_contiguous_view(sim: Simulation) -> None:
    strided = np.zeros((16, _core.ENEMY_COLUMNS), dtype=np.float32)[::2]
    refused(sim, r"enemies: .*non-contiguous", enemies=strided)


def test_not_an_array(sim: Simulation) -> None:
    refused(sim, r"pickups: expected .* got list", pickups=[[0.0] * 4])


def test_nan_and_inf_in_inputs(sim: Simulation) -> None:
    controls = np.zeros(_core.CONTROLS_WIDTH, dtype=np.float32)
    controls[1] = np.nan
    refused(sim, r"controls\[1\] is not a finite number", controls=controls)
    sim.input.spawn(0, 100.0, 100.0)
    sim.input.commands[0, 3] = np.inf
    refused(sim, r"commands\[0\]: column 3 is not a finite number")


def test_unknown_enemy_kind(sim: Simulation) -> None:
    sim.input.spawn(0, 100.0, 100.0)
    kinds = len(roster(sim.content))  # enemies, bosses, clones (artificer.content.roster)
    sim.input.spawn(kinds, 100.0, 100.0)
    refused(sim, rf"commands\[1\]: unknown enemy kind {kinds} ")
    with pytest.raises(CoreArgumentError, match="unknown enemy kind"):
        sim.world.spawn_enemies(-1, np.zeros(1, np.float32), np.zeros(1, np.float32))


def test_negative_and_too_large_counts(sim: Simulation) -> None:
    refused(sim, r"n_commands must be in 0\.\.=", n_commands=-1)
    refused(sim, r"n_commands must be in 0\.\.=", n_commands=len(sim.input.commands) + 1)
    with pytest.raises(CoreArgumentError, match="threads must be"):
        sim.world.set_threads(0)
    with pytest.raises(CoreArgumentError, match="pierce must be"):
        z = np.zeros(1, np.float32)
        sim.world.spawn_projectiles(z, z, z, z, 4.0, 1.0, -3)


def test_a_buffer_passed_twice(sim: Simulation) -> None:
    shared = np.zeros((64, 6), dtype=np.float64)
    refused(sim, r"passed twice", commands=shared, events=shared)
    refused(sim, r"passed twice", commands=shared[:8], events=shared)  # overlapping views


def test_read_only_output(sim: Simulation) -> None:
    frozen = np.zeros((8, _core.ENEMY_COLUMNS), dtype=np.float32)
    frozen.flags.writeable = False
    refused(sim, r"enemies: the buffer is read-only", enemies=frozen)


def test_bad_config_names_the_key(content: Any) -> None:
    config = world_config(content)
    del config["player"]["max_hp"]
    with pytest.raises(CoreArgumentError, match=r"config\.player\.max_hp: missing"):
        _core.World(config, 1)
    config = world_config(content)
    config["rules"] = {"enemies_immortel": True}
    with pytest.raises(CoreArgumentError, match=r"rules\.enemies_immortel: unknown rule"):
        _core.World(config, 1)


def test_step_writes_render_rows_player_and_events(sim: Simulation) -> None:
    """A spawn shows up in the enemy rows with its kind, and as an event."""
    sim.input.spawn(2, 300.0, 400.0, elite=True)
    counts = sim.step()
    assert counts.enemies == 1
    row = sim.buffers.enemy_rows()[0]
    assert row[2] == 2 and row[3] == sim.content.enemies[2].radius
    assert int(row[5]) & _core.ENEMY_FLAG_ELITE
    assert ev.count(sim.buffers.event_rows(), EventKind.ENEMY_SPAWNED) == 1
    assert sim.buffers.player_value("hp") == sim.content.balance.player.max_hp


def test_commands_heal_ward_mana_strength(sim: Simulation) -> None:
    """Game flow's effects arrive as commands and show in the player state."""
    p = sim.content.balance.player
    sim.input.ward(12.0)
    sim.input.strength(2.0)
    sim.step()
    assert sim.buffers.player_value("ward") == 12.0
    assert sim.buffers.player_value("strength") == 2.0
    sim.input.grant_mana(1000.0)
    sim.step()
    assert sim.buffers.player_value("mana") == p.mana_max  # capped (R-MANA-1)


def test_buffers_grow_and_no_event_is_lost(content: Any) -> None:
    """More enemies than rows: the next frame has room; more events than
    rows: all are fetched the same frame."""
    sim = Simulation(content, seed=3)
    sim.buffers.enemies = np.zeros((4, _core.ENEMY_COLUMNS), dtype=np.float32)
    sim.buffers.events = np.zeros((4, _core.EVENT_COLUMNS), dtype=np.float64)
    for i in range(50):
        sim.input.spawn(0, 50.0 + 10 * i, 50.0)
    counts = sim.step()
    assert counts.enemies == 50 and counts.events == 50
    assert len(sim.buffers.event_rows()) == 50
    assert ev.count(sim.buffers.event_rows(), EventKind.ENEMY_SPAWNED) == 50
    assert len(sim.buffers.enemies) >= 50
    sim.step()
    assert len(sim.buffers.enemy_rows()) == 50


def test_threads_do_not_change_the_outcome(content: Any) -> None:
    """R-DET-1: the state hash is the same on 1 and 2 threads."""
    hashes = []
    for threads in (1, 2):
        sim = Simulation(content, seed=5)
        arm_bolt(sim)
        sim.world.set_threads(threads)
        for f in range(600):
            if f % 20 == 0:
                for k in range(40):
                    sim.input.spawn(k % 3, 100.0 + 50 * k, 100.0 + (f % 7) * 30)
            sim.input.move(1.0, 0.3)
            sim.step()
        hashes.append(sim.state_hash())
    assert hashes[0] == hashes[1]
