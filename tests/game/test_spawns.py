"""Where spawns land (R-WAVE-1, R-FEEL-1): on the edge of the `spawn_reach` box
around the player (just beyond the 1280x720 view, so a wave walks on screen at
once), clamped into the arena, never within `spawn_safe_radius` of the player;
without `spawn_reach`, on the arena's edge."""

from __future__ import annotations

import math

import pytest

from artificer.content import Content, load_content
from artificer.engine.frame import FrameInput
from artificer.game.waves import SpawnMarker, WaveDirector
from content_tweaks import with_balance

CONTENT = load_content()


def markers(content: Content, player: tuple[float, float], seconds: float = 30.0) -> list[SpawnMarker]:
    """Every spawn wave 1 announces in its first `seconds` with the player standing at `player`."""
    director = WaveDirector(content, content.waves[0], seed=3)
    frame = FrameInput(content.balance.capacities.commands)
    seen: list[SpawnMarker] = []
    t = 0.0
    while t < seconds:
        director.update(t, player, frame)
        seen.extend(m for m in director.pending if m not in seen)
        frame.clear()
        t += 1 / 60
    return seen


@pytest.mark.parametrize("player", [(1280.0, 800.0), (300.0, 200.0)])
def test_r_wave_1_spawns_land_on_the_reach_box_edge_inside_the_arena(player: tuple[float, float]) -> None:
    timing, arena = CONTENT.balance.wave, CONTENT.balance.arena
    reach = timing.spawn_reach
    assert reach is not None
    found = markers(CONTENT, player)
    assert len(found) >= 10
    margin = timing.spawn_margin
    for m in found:
        assert (
            margin - 1e-3 <= m.x <= arena.width - margin + 1e-3 and margin - 1e-3 <= m.y <= arena.height - margin + 1e-3
        )
        assert math.dist((m.x, m.y), player) >= timing.spawn_safe_radius
        on_box = (
            abs(abs(m.x - player[0]) - (reach.half_width - margin)) < 1e-3
            or abs(abs(m.y - player[1]) - (reach.half_height - margin)) < 1e-3
        )
        on_arena_edge = min(m.x - margin, m.y - margin, arena.width - margin - m.x, arena.height - margin - m.y) < 1e-3
        assert on_box or on_arena_edge, (m.x, m.y)
        # Never farther than the box: a wave is on screen within a few seconds (R-FEEL-1).
        assert abs(m.x - player[0]) <= reach.half_width and abs(m.y - player[1]) <= reach.half_height


def test_r_wave_1_without_a_reach_box_spawns_land_on_the_arena_edge() -> None:
    content = with_balance(CONTENT, "wave", spawn_reach=None)
    arena, margin = content.balance.arena, content.balance.wave.spawn_margin
    for m in markers(content, (1280.0, 800.0)):
        assert min(m.x - margin, m.y - margin, arena.width - margin - m.x, arena.height - margin - m.y) < 1e-3
