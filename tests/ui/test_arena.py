"""The arena scene under the dummy video driver: it plays frames of a wave
from keyboard input, draws the world and the HUD, pauses on Esc, and
creates no Python object per entity while it runs."""

from __future__ import annotations

import gc
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import numpy as np
import pygame
import pytest

from artificer.content import load_content
from artificer.game.flow import RunFlow
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene, PauseScene
from artificer.ui.scenes.summary import SummaryScene
from artificer.ui.session import Session
from content_tweaks import with_balance

CONTENT = load_content()


@pytest.fixture
def screen() -> pygame.Surface:
    pygame.init()
    surface = pygame.display.set_mode((960, 600))
    yield surface
    pygame.quit()


def frames(stack: SceneStack, surface: pygame.Surface, n: int, keys: list[int] | None = None) -> None:
    for i in range(n):
        if i == 0:
            for key in keys or []:
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))
        for event in pygame.event.get():
            stack.handle_event(event)
        stack.update(1 / 60)
        stack.draw(surface, 0.0)


def test_arena_plays_and_draws_enemies_and_the_hud(screen: pygame.Surface, tmp_path: object) -> None:
    stack = SceneStack()
    arena = ArenaScene(CONTENT, seed=2)
    stack.push(arena)
    frames(stack, screen, 360, keys=[pygame.K_d])
    assert arena.run.sim.buffers.counts.enemies > 0
    assert arena.wave is not None and arena.wave.stats.frames == 360
    colours = {tuple(c) for c in pygame.surfarray.array3d(screen).reshape(-1, 3)[::97]}
    assert len(colours) > 8, "the screen shows the world, not a blank fill"
    hp_bar = pygame.surfarray.array3d(screen)[30:280, 22:36]
    assert (np.abs(hp_bar.astype(int) - (213, 94, 0)).sum(axis=2) < 40).mean() > 0.5, "the HP bar is drawn"
    pygame.image.save(screen, os.path.join(str(tmp_path), "arena.png"))


def test_escape_pauses_and_abandon_shows_the_summary(screen: pygame.Surface) -> None:
    stack = SceneStack()
    arena = ArenaScene(CONTENT, seed=2)
    stack.push(arena)
    frames(stack, screen, 30)
    frames(stack, screen, 2, keys=[pygame.K_ESCAPE])
    assert isinstance(stack.top, PauseScene)
    played = arena.wave.stats.frames if arena.wave else 0
    frames(stack, screen, 30)
    assert arena.wave is not None and arena.wave.stats.frames == played, "paused: the wave does not advance"
    pause = stack.top
    assert isinstance(pause, PauseScene)
    # Down to Abandon, the last item (Resume, Settings, Stats, Abandon).
    frames(stack, screen, 2, keys=[pygame.K_DOWN] * (len(pause.items) - 1) + [pygame.K_RETURN])
    assert isinstance(stack.top, SummaryScene)


def test_the_pause_menu_does_not_wrap_onto_abandon(screen: pygame.Surface) -> None:
    """Up on Resume stays on Resume (an accidental Up + Enter resumes, never abandons the run);
    Down past the last item stays on it."""
    stack = SceneStack()
    arena = ArenaScene(CONTENT, seed=2)
    stack.push(arena)
    frames(stack, screen, 2, keys=[pygame.K_ESCAPE])
    pause = stack.top
    assert isinstance(pause, PauseScene)
    frames(stack, screen, 2, keys=[pygame.K_DOWN] * 5)
    assert pause.choice == len(pause.items) - 1
    frames(stack, screen, 2, keys=[pygame.K_UP] * 5 + [pygame.K_RETURN])
    assert stack.top is arena, "Up, Up, ... then Enter resumes"


def test_no_python_object_per_entity_while_playing(screen: pygame.Surface) -> None:
    """DESIGN §1/§7: thousands of entities, and the Python heap does not grow with them."""
    stack = SceneStack()
    arena = ArenaScene(CONTENT, seed=2)
    stack.push(arena)
    frames(stack, screen, 2)
    for i in range(2000):
        arena.run.sim.input.spawn(i % 3, 100.0 + (i % 50) * 40, 100.0 + (i // 50) * 30)
    frames(stack, screen, 10)
    gc.collect()
    before = len(gc.get_objects())
    frames(stack, screen, 600)
    gc.collect()
    after = len(gc.get_objects())
    assert arena.run.sim.buffers.counts.enemies > 500
    assert after - before < 500, f"{after - before} objects appeared over 600 frames"


def test_a_cleared_wave_opens_the_intermission_and_the_next_wave_starts_when_it_closes(screen: pygame.Surface) -> None:
    """R-LOOP-1: wave → (shop/lab) → next wave; the arena waits while the between-waves scenes are up."""
    from artificer.ui.scene import Scene

    calls: list[int] = []

    def intermission(stack: SceneStack, flow: RunFlow) -> None:
        calls.append(flow.number)
        stack.push(Scene())

    stack = SceneStack()
    arena = ArenaScene(CONTENT, seed=5, intermission=intermission)
    stack.push(arena)
    assert arena.wave is not None
    arena.wave.frames = arena.wave.stats.frames + 2  # end wave 1 early
    frames(stack, screen, 3)
    assert arena.wave is None and calls == []  # the breather shows the result first
    frames(stack, screen, 200)
    assert calls == [2] and stack.top is not arena
    frames(stack, screen, 30)
    assert arena.wave is None  # nothing moves while the shop is open
    stack.pop()
    assert arena.wave is not None and arena.number == 2


def test_the_pause_menu_opens_the_settings_and_esc_resumes(screen: pygame.Surface) -> None:
    """DESIGN §7 / R-SET-1: pause offers resume, settings and abandon; Esc on the pause resumes."""
    from artificer.ui.scenes.settings import SettingsScene

    stack = SceneStack()
    arena = ArenaScene(CONTENT, seed=2)
    stack.push(arena)
    frames(stack, screen, 2, keys=[pygame.K_ESCAPE])
    assert isinstance(stack.top, PauseScene)
    frames(stack, screen, 2, keys=[pygame.K_DOWN, pygame.K_RETURN])
    assert isinstance(stack.top, SettingsScene)
    frames(stack, screen, 2, keys=[pygame.K_ESCAPE])
    assert isinstance(stack.top, PauseScene)
    frames(stack, screen, 2, keys=[pygame.K_ESCAPE])
    assert stack.top is arena


def _session(**changes: object) -> Session:
    session = Session.default()
    for name, value in changes.items():
        setattr(session.settings, name, value)
    return session


@pytest.mark.parametrize("side", [-1, 1])
def test_mouse_aim_fires_toward_the_cursor(screen: pygame.Surface, monkeypatch: pytest.MonkeyPatch, side: int) -> None:
    """R-SET-1 aim mode "mouse": the wand's shots leave toward the cursor, not the nearest enemy."""
    from artificer.ui.settings import AimMode

    stack = SceneStack()
    arena = ArenaScene(CONTENT, seed=2, session=_session(aim_mode=AimMode.MOUSE))
    centre = (screen.get_width() // 2, screen.get_height() // 2)
    monkeypatch.setattr(pygame.mouse, "get_focused", lambda: True)
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: (centre[0] + side * 300, centre[1]))
    stack.push(arena)
    frames(stack, screen, 40)
    shots = arena.run.sim.buffers.projectile_rows()
    mine = shots[shots[:, 6] == 0]
    assert len(mine) > 0
    assert np.all(np.sign(mine[:, 4]) == side), "every shot flies toward the cursor's side"


def test_the_colour_blind_setting_redraws_enemies_in_the_okabe_ito_palette(screen: pygame.Surface) -> None:
    """R-SET-1: with the colour-blind palette on, enemy sprites take its colours (shapes stay distinct)."""
    from artificer.ui.palette import COLOUR_BLIND

    plain = ArenaScene(CONTENT, seed=2)
    safe = ArenaScene(CONTENT, seed=2, session=_session(colour_blind=True))
    for arena in (plain, safe):
        SceneStack().push(arena)
    brute = CONTENT.enemy_index("brute")

    def centre_colour(arena: ArenaScene) -> tuple[int, int, int]:
        assert arena.renderer is not None
        sprite = arena.renderer.atlas.enemies[brute]
        return tuple(sprite.get_at((sprite.get_width() // 2, sprite.get_height() // 4))[:3])  # type: ignore[return-value]

    assert centre_colour(safe) == COLOUR_BLIND.enemy("brute")
    assert centre_colour(plain) != centre_colour(safe)


def test_getting_hurt_shakes_the_screen_only_when_the_setting_allows(screen: pygame.Surface) -> None:
    """R-SET-1 screen shake: a hit on the player jolts the view; at 0 it stays still."""
    for strength, moves in ((1.0, True), (0.0, False)):
        arena = ArenaScene(CONTENT, seed=2, session=_session(screen_shake=strength))
        stack = SceneStack()
        stack.push(arena)
        frames(stack, screen, 1)
        arena.shake = 1.0
        arena.draw(screen, 0.0)
        first = pygame.surfarray.array3d(screen).copy()
        arena.draw(screen, 0.0)
        second = pygame.surfarray.array3d(screen)
        assert bool(np.any(first != second)) is moves


def test_drawing_interpolates_between_the_last_two_steps(screen: pygame.Surface) -> None:
    """DESIGN §7: the sim steps at 60 Hz and frames are drawn in between: the player and the camera are drawn
    `alpha` of the way from where the step before left them to where the last step put them."""
    stack = SceneStack()
    arena = ArenaScene(CONTENT, seed=2, session=_session(screen_shake=0.0))
    stack.push(arena)
    frames(stack, screen, 40, keys=[pygame.K_RIGHT])  # walking right at full speed
    assert arena._previous is not None and arena.camera is not None
    _, _, player_before, player_before_y = arena._previous
    # Hold the camera still across the step, so the player's own interpolation shows on screen
    # (a following camera keeps a walking player at the same screen spot).
    arena._previous = (arena.camera.x, arena.camera.y, player_before, player_before_y)
    camera_before = camera_now = arena.camera.x
    player_now = arena.run.sim.buffers.player_value("x")
    assert player_now - player_before > 2.0, "the player moved during the last step"
    # The player sprite's brightest opaque colour marks where it is drawn (opaque pixels land exactly).
    assert arena.renderer is not None
    sprite = pygame.surfarray.pixels3d(arena.renderer.atlas.player).reshape(-1, 3)
    opaque = pygame.surfarray.pixels_alpha(arena.renderer.atlas.player).reshape(-1) == 255
    mark = sprite[opaque][np.argmax(sprite[opaque].astype(int).sum(axis=1))].astype(int)
    drawn, expected = [], []
    for alpha in (0.0, 0.999):
        arena.draw(screen, alpha)
        pixels = pygame.surfarray.array3d(screen).astype(int)
        white = np.argwhere(np.all(pixels == mark, axis=2))
        assert len(white) > 0
        player = player_before + (player_now - player_before) * alpha
        camera = camera_before + (camera_now - camera_before) * alpha
        drawn.append(float(white[:, 0].mean()))
        expected.append(player + screen.get_width() / 2 - camera)
        assert drawn[-1] == pytest.approx(expected[-1], abs=2.0)  # the sprite lands on whole pixels
    assert drawn[1] - drawn[0] == pytest.approx(expected[1] - expected[0], abs=1.0)
    assert abs(expected[1] - expected[0]) > 1.0, "the two alphas are told apart"


def test_spawn_markers_show_where_a_group_will_land_before_it_lands(screen: pygame.Surface) -> None:
    """R-WAVE-1: a group is announced by a marker on the HUD before its enemies appear there."""
    from artificer.ui.hud import MARKER_COLOUR

    stack = SceneStack()
    arena = ArenaScene(CONTENT, seed=2, session=_session(screen_shake=0.0))
    stack.push(arena)
    for _ in range(180):
        frames(stack, screen, 1)
        if arena.hud_state.markers:
            break
    assert arena.hud_state.markers, "wave 1 announces a group within 3 s"
    marker = arena.hud_state.markers[0]
    assert marker.lands_at > arena.hud_state.wave_time  # not landed yet
    assert arena.camera is not None
    arena.camera.x, arena.camera.y = marker.x, marker.y  # look at the marker
    arena._previous = None
    arena.draw(screen, 0.0)
    ox, oy = arena.camera.offset  # the view stays inside the arena, so the marker may sit off centre
    centre = (round(marker.x + ox), round(marker.y + oy))
    assert tuple(screen.get_at(centre))[:3] == MARKER_COLOUR  # the marker's cross


def test_r_wave_1_with_the_field_full_no_marker_promises_a_pack(screen: pygame.Surface) -> None:
    """R-WAVE-1's cap (balance.json `wave.max_alive`), here 1: once an enemy stands on the field, the
    next group's marker is not drawn, for none of its pack would land."""
    content = with_balance(CONTENT, "wave", max_alive=1)
    stack = SceneStack()
    arena = ArenaScene(content, seed=2, session=_session(screen_shake=0.0))
    stack.push(arena)
    checked = False
    for _ in range(900):
        frames(stack, screen, 1)
        assert arena.wave is not None
        if arena.wave.alive >= 1 and arena.wave.director.pending:
            assert arena.hud_state.markers == [], "the full field keeps the pack away: no marker"
            checked = True
            break
    assert checked, "within 15 s an enemy stood on the field while a group was announced"


def test_r_end_1_last_will_spent_shows_a_toast_plays_its_sound_and_flashes(screen: pygame.Surface) -> None:
    """A lethal hit in the arena with Last Will armed: 1 HP left, the toast and the sound, a brief flash;
    the HUD's Last Will mark shows while armed and goes once spent."""
    from artificer.content.models import Talent
    from artificer.ui.i18n import tr

    played: list[str] = []
    session = _session(screen_shake=0.0)
    session.play = played.append  # type: ignore[method-assign]
    arena = ArenaScene(CONTENT, seed=2, session=session)
    arena.run.gain_talent(Talent.LAST_WILL)
    stack = SceneStack()
    stack.push(arena)
    frames(stack, screen, 1)
    assert arena.hud_state.last_will is True
    world = arena.run.sim.world
    world.set_player_hp(5.0, world.player_hp()[1])
    x, y = world.player_position()
    arena.run.sim.input.spawn(CONTENT.enemy_index("brute"), x + 5.0, y)
    for _ in range(10):
        frames(stack, screen, 1)
        if "last_will" in played:
            break
    assert "last_will" in played
    assert any(text == tr("ui.arena.last_will") for text, _ in arena.hud_state.toasts)
    assert world.player_hp()[0] == 1.0 and arena.wave is not None and not arena.wave.died
    assert arena.wave.stats.last_will_spent
    assert arena.hud_state.last_will is False
    assert arena.flash > 0.0
    arena.draw(screen, 0.0)
    flashed = pygame.surfarray.array3d(screen).astype(int).mean()
    arena.flash = 0.0
    arena.draw(screen, 0.0)
    assert flashed > pygame.surfarray.array3d(screen).astype(int).mean() + 10, "the flash brightens the arena"


def test_r_end_1_the_hud_marks_an_armed_last_will_beside_the_hp_bar(screen: pygame.Surface) -> None:
    from artificer.content.models import Talent
    from artificer.ui.hud import LAST_WILL_COLOUR, LAST_WILL_MARK

    def mark_pixels(arena: ArenaScene) -> int:
        arena.draw(screen, 0.0)
        x, y = LAST_WILL_MARK
        patch = pygame.surfarray.array3d(screen)[x - 12 : x + 12, y - 12 : y + 12].astype(int)
        return int((np.abs(patch - LAST_WILL_COLOUR).sum(axis=2) < 60).sum())

    plain = ArenaScene(CONTENT, seed=2, session=_session(screen_shake=0.0))
    armed = ArenaScene(CONTENT, seed=2, session=_session(screen_shake=0.0))
    armed.run.gain_talent(Talent.LAST_WILL)
    for arena in (plain, armed):
        stack = SceneStack()
        stack.push(arena)
        frames(stack, screen, 1)
    assert mark_pixels(armed) > 20
    assert mark_pixels(plain) == 0
