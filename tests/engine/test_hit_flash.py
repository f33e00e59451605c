"""R-FEEL-1: an enemy that takes a hit flashes. The core marks its row with
ENEMY_FLAG_HIT for `balance.json sim.hit_flash_frames` frames after the hit;
the renderer draws it with the flash sprite. Presentation only: the hit's frame
is not part of the state hash."""

from __future__ import annotations

from artificer import _core
from artificer.content import load_content
from artificer.engine.simulation import Simulation

CONTENT = load_content()
GRUNT = next(i for i, e in enumerate(CONTENT.enemies) if e.id == "grunt")


def _flashed(sim: Simulation) -> bool:
    rows = sim.buffers.enemy_rows()
    assert len(rows) == 1
    return bool(int(rows[0, 5]) & _core.ENEMY_FLAG_HIT)


def test_r_feel_1_a_hit_enemy_flashes_for_the_data_s_frames_then_stops() -> None:
    frames = CONTENT.balance.sim.hit_flash_frames
    assert frames > 0
    sim = Simulation(CONTENT, seed=1)
    x, y = sim.buffers.player_value("x"), sim.buffers.player_value("y")
    sim.input.spawn(GRUNT, x + 400, y)
    sim.step()
    assert not _flashed(sim), "a fresh enemy does not flash"
    sim.input.damage_nearest(x + 400, y, 1.0)
    sim.step()
    lit = [_flashed(sim)]
    for _ in range(frames + 2):
        sim.step()
        lit.append(_flashed(sim))
    assert lit == [True] * frames + [False] * 3, lit
