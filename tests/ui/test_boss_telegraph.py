"""A boss's volleys are telegraphed in the window (R-BOSS-3): each wind-up is drawn where its shots
will go — a barrage's lines toward the aim it locked, a ring's circle and spokes — dim at once and
filling bright as the wind-up runs, so a player can read it and step out of it."""

from __future__ import annotations

import math

import pygame

from artificer.content import load_content
from artificer.engine.events import BossPattern
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene
from artificer.ui.session import Session
from artificer.ui.telegraphs import TELEGRAPH_COLOUR, WindUp, draw_wind_ups, guide_colour

CONTENT = load_content()
FLOOR = (10, 10, 20)


def blank() -> pygame.Surface:
    surface = pygame.Surface((800, 600))
    surface.fill(FLOOR)
    return surface


def near(surface: pygame.Surface, at: tuple[int, int], colour: tuple[int, int, int]) -> bool:
    """`colour` within a pixel of `at` (a thin slanted line passes between rounded points)."""
    x, y = at
    return any(surface.get_at((x + dx, y + dy))[:3] == colour for dx in (-1, 0, 1) for dy in (-1, 0, 1))


def along(wind_up: WindUp, direction: tuple[float, float], distance: float) -> tuple[int, int]:
    return round(wind_up.x + direction[0] * distance), round(wind_up.y + direction[1] * distance)


def test_r_boss_3_a_barrage_shows_its_lines_toward_the_locked_aim_filling_as_it_winds_up() -> None:
    half_way = WindUp(BossPattern.BARRAGE, 400.0, 300.0, 0.0, 5, 40.0, left=0.4, seconds=0.8, radius=30.0, reach=330.0)
    surface = blank()
    assert draw_wind_ups(surface, [half_way], (0.0, 0.0)) == 5, "a line a shot"
    for direction in half_way.directions():
        assert near(surface, along(half_way, direction, 100.0), TELEGRAPH_COLOUR), "filled this far"
        assert near(surface, along(half_way, direction, 300.0), guide_colour(TELEGRAPH_COLOUR)), "not yet"
        assert not near(surface, along(half_way, direction, 300.0), TELEGRAPH_COLOUR), "not filled yet"
    centre = half_way.directions()[2]
    assert math.isclose(centre[0], 1.0) and abs(centre[1]) < 1e-9, "the middle line is the locked aim"
    assert surface.get_at((400, 100))[:3] == FLOOR, "nothing off the fan"
    assert surface.get_at((200, 300))[:3] == FLOOR, "nothing behind the boss"


def test_r_boss_3_a_ring_grows_from_the_boss_with_a_spoke_a_shot() -> None:
    ring = WindUp(BossPattern.SPREAD, 400.0, 300.0, 0.0, 8, 0.0, left=0.1, seconds=0.8, radius=30.0)
    surface = blank()
    assert draw_wind_ups(surface, [ring], (0.0, 0.0)) == 8
    for direction in ring.directions():
        assert near(surface, along(ring, direction, 60.0), TELEGRAPH_COLOUR)
    between = (math.cos(math.pi / 8), math.sin(math.pi / 8))
    assert surface.get_at(along(ring, between, 60.0))[:3] == FLOOR, "the gap between two shots stays clear"
    assert surface.get_at((400, 300))[:3] == FLOOR, "the boss itself is not covered"


def test_r_boss_3_the_arena_draws_a_bosss_wind_up_until_its_volley_comes(display: pygame.Surface) -> None:
    """Armor Lord (W10, seed 2) barrages every 5 s: the arena picks its wind-up up from the boss
    status and draws its lines from the boss; once the volley is fired, the telegraph is gone."""
    session = Session.default()
    session.play = lambda _sound: None  # type: ignore[method-assign]
    scene = ArenaScene(CONTENT, seed=2, session=session, first_wave=10)
    stack = SceneStack()
    stack.push(scene)
    stack.update(1 / 60)
    assert scene.wave is not None and scene.wave.boss is not None and scene.wave.boss.boss_id == "armor_lord"
    for _ in range(60 * 6):
        scene.run.sim.input.heal(10_000.0)
        stack.update(1 / 60)
        if scene.telegraphs:
            break
    assert scene.telegraphs, "the boss wound up a volley within its interval"
    (barrage,) = scene.telegraphs
    assert barrage.pattern is BossPattern.BARRAGE and barrage.count == 3
    assert (
        math.isclose(barrage.seconds, CONTENT.bosses["armor_lord"].telegraph, rel_tol=1e-6) and barrage.seconds >= 0.5
    )
    for _ in range(round(barrage.seconds * 60 * 0.6)):
        stack.update(1 / 60)
    (barrage,) = scene.telegraphs
    assert 0.5 < barrage.progress < 1.0
    display.fill(FLOOR)
    stack.draw(display, 0.0)
    assert scene.camera is not None
    ox, oy = scene.camera.offset
    shifted = WindUp(**{**barrage.__dict__, "x": barrage.x + ox, "y": barrage.y + oy})
    reach = barrage.radius + (barrage.reach - barrage.radius) * barrage.progress
    middle = along(shifted, shifted.directions()[1], (barrage.radius + reach) / 2)
    assert display.get_rect().collidepoint(middle)
    assert near(display, middle, TELEGRAPH_COLOUR), "its middle line, filled this far, on screen"
    for _ in range(round(barrage.seconds * 60)):
        stack.update(1 / 60)
    assert not scene.telegraphs, "fired: the telegraph is gone"
