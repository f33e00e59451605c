"""App: window opened only in run() (as the settings say), fixed 60 Hz steps with a frame clamp, interpolation
alpha, quit paths, the FPS cap."""

from __future__ import annotations

import dataclasses
from unittest import mock

import pygame
import pytest

import artificer.ui.app as app_module
from artificer.content import load_content
from artificer.ui.app import MAX_FRAME_SECONDS, WINDOW_TITLE, App
from artificer.ui.scene import Scene
from artificer.ui.settings import Settings

#: The content's tick rate (balance.json sim.tick_hz), what `artificer play` hands the app.
TICK_HZ = load_content().balance.sim.tick_hz
STEP_SECONDS = 1.0 / TICK_HZ


class CountingScene(Scene):
    def __init__(self) -> None:
        self.steps: list[float] = []
        self.alphas: list[float] = []
        self.focus_lost = 0

    def update(self, dt: float) -> None:
        self.steps.append(dt)

    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        self.alphas.append(alpha)
        surface.fill((10, 20, 30))

    def on_focus_lost(self) -> None:
        self.focus_lost += 1


def fake_clock(monkeypatch: pytest.MonkeyPatch, seconds_per_call: float) -> None:
    now = [0.0]

    def perf_counter() -> float:
        now[0] += seconds_per_call
        return now[0]

    monkeypatch.setattr(app_module.time, "perf_counter", perf_counter)


def test_constructing_an_app_opens_no_window() -> None:
    with mock.patch.object(pygame.display, "set_mode") as set_mode:
        App(CountingScene, tick_hz=TICK_HZ)
    set_mode.assert_not_called()


def test_run_opens_a_titled_window_and_stops_after_max_frames(display: pygame.Surface) -> None:
    app = App(CountingScene, tick_hz=TICK_HZ)
    assert app.run(max_frames=3) == 3
    assert pygame.display.get_caption()[0] == WINDOW_TITLE
    assert isinstance(app.stack.top, CountingScene)


def test_run_initializes_and_shuts_down_pygame_when_nobody_else_did() -> None:
    pygame.quit()
    App(CountingScene, tick_hz=TICK_HZ).run(max_frames=2)
    assert not pygame.get_init()


def test_the_sim_steps_at_the_contents_tick_rate_whatever_the_frame_rate(
    display: pygame.Surface, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert TICK_HZ == 60, "the frame counts below assume balance.json's 60 Hz"
    fake_clock(monkeypatch, 1 / 30)  # A 30 FPS render: two sim steps per frame.
    scene = CountingScene()
    app = App(lambda: scene, tick_hz=TICK_HZ)
    app.run(max_frames=10)
    assert set(scene.steps) == {STEP_SECONDS}
    assert len(scene.steps) in (19, 20)  # Float remainders may leave the last step for the next frame.
    assert all(0.0 <= alpha < 1.0 for alpha in scene.alphas)


def test_the_step_is_one_over_the_tick_rate_it_is_handed(
    display: pygame.Surface, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_clock(monkeypatch, 1 / 30)  # A 30 FPS render at a 120 Hz sim: four steps per frame.
    scene = CountingScene()
    app = App(lambda: scene, tick_hz=120)
    app.run(max_frames=10)
    assert app.step_seconds == 1 / 120 and set(scene.steps) == {1 / 120}
    assert len(scene.steps) in (39, 40)


def test_slow_frames_leave_a_fraction_of_a_step_as_the_interpolation_alpha(
    display: pygame.Surface, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_clock(monkeypatch, STEP_SECONDS * 0.25)  # Four rendered frames per sim step.
    scene = CountingScene()
    App(lambda: scene, tick_hz=TICK_HZ).run(max_frames=8)
    assert len(scene.steps) == 2
    assert scene.alphas[0] == pytest.approx(0.25)
    assert scene.alphas[2] == pytest.approx(0.75)


def test_a_stall_is_clamped_so_the_sim_does_not_spiral(
    display: pygame.Surface, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_clock(monkeypatch, 5.0)  # Every frame takes five seconds.
    scene = CountingScene()
    App(lambda: scene, tick_hz=TICK_HZ).run(max_frames=3)
    per_frame = round(MAX_FRAME_SECONDS / STEP_SECONDS)
    assert len(scene.steps) <= 3 * per_frame + 1


def test_focus_loss_calls_the_top_scenes_on_focus_lost(display: pygame.Surface) -> None:
    scene = CountingScene()
    app = App(lambda: scene, tick_hz=TICK_HZ)
    pygame.event.post(pygame.event.Event(pygame.WINDOWFOCUSLOST))
    app.run(max_frames=3)
    assert scene.focus_lost == 1


def test_focus_loss_is_harmless_for_a_scene_keeping_the_default_hook(display: pygame.Surface) -> None:
    app = App(Scene, tick_hz=TICK_HZ)
    pygame.event.post(pygame.event.Event(pygame.WINDOWFOCUSLOST))
    assert app.run(max_frames=2) == 2


def test_closing_the_window_exits_every_scene_and_ends_the_loop(display: pygame.Surface) -> None:
    scene = CountingScene()
    scene.on_exit = mock.Mock()  # type: ignore[method-assign]
    app = App(lambda: scene, tick_hz=TICK_HZ)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert app.run(max_frames=100) == 0
    scene.on_exit.assert_called_once_with()
    assert app.stack.empty


def test_an_fps_cap_is_passed_to_the_clock(display: pygame.Surface, monkeypatch: pytest.MonkeyPatch) -> None:
    ticks: list[int] = []

    class Clock:
        def tick(self, framerate: int = 0) -> int:
            ticks.append(framerate)
            return 0

    monkeypatch.setattr(app_module.pygame.time, "Clock", Clock)
    App(CountingScene, fps_cap=144, tick_hz=TICK_HZ).run(max_frames=2)
    assert ticks == [144, 144]


def test_the_window_opens_as_the_settings_say(display: pygame.Surface) -> None:
    """R-SET-1: the window size and the FPS cap come from the player's settings."""
    settings = Settings(window_size=(1600, 900), fps_cap=120)
    app = App(CountingScene, settings=settings, tick_hz=TICK_HZ)
    app.run(max_frames=1)
    window = pygame.display.get_surface()
    assert window is not None and window.get_size() == (1600, 900)
    assert app.fps_cap == 120
    settings.fps_cap = 30  # The settings screen changes the shared object: the loop follows.
    assert app.fps_cap == 30


def test_fullscreen_from_the_settings(display: pygame.Surface) -> None:
    App(CountingScene, settings=Settings(fullscreen=True), tick_hz=TICK_HZ).run(max_frames=1)
    assert pygame.display.is_fullscreen()


def test_the_settings_fps_cap_is_passed_to_the_clock_every_frame(
    display: pygame.Surface, monkeypatch: pytest.MonkeyPatch
) -> None:
    ticks: list[int] = []

    class Clock:
        def tick(self, framerate: int = 0) -> int:
            ticks.append(framerate)
            return 0

    settings = Settings(fps_cap=60)

    class Changer(CountingScene):
        def draw(self, surface: pygame.Surface, alpha: float) -> None:
            settings.fps_cap = 144  # As if the player picked 144 on the settings screen during frame 1.

    monkeypatch.setattr(app_module.pygame.time, "Clock", Clock)
    App(Changer, settings=settings, tick_hz=TICK_HZ).run(max_frames=3)
    assert ticks[0] == 60 and ticks[-1] == 144


class TitleLike(CountingScene):
    music = "title"


def test_the_app_plays_the_music_its_scenes_ask_for_and_stops_it_at_the_end(display: pygame.Surface) -> None:
    """R-FEEL-1: the stack tells the music player what to play; the volume is master × music (R-SET-1)."""
    from artificer.ui.music import MusicPlayer

    settings = Settings(master_volume=0.5, music_volume=0.5)
    music = MusicPlayer(settings, background=False)
    heard: list[tuple[str | None, float]] = []

    class Listening(TitleLike):
        def draw(self, surface: pygame.Surface, alpha: float) -> None:
            sound = music.sound("title")
            heard.append((music.playing, sound.get_volume() if sound is not None else -1.0))

    app = App(Listening, settings=settings, music=music, tick_hz=TICK_HZ)
    app.run(max_frames=3)
    assert [track for track, _ in heard] == ["title"] * 3
    assert all(volume == pytest.approx(0.25, abs=0.01) for _, volume in heard)
    assert music.playing is None  # Stopped when the loop ended.


def test_an_app_with_settings_makes_its_own_music_player(display: pygame.Surface) -> None:
    app = App(CountingScene, settings=Settings(), tick_hz=TICK_HZ)
    app.run(max_frames=1)
    assert app.music is not None and app.music.wanted is None  # A scene naming no music: silence.


def test_play_steps_the_window_at_balance_jsons_tick_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    """The window's fixed step is the content's `sim.tick_hz`, not a number of the UI's own."""
    import artificer.ui.play as play_module

    shipped = load_content()
    balance = shipped.balance.model_copy(update={"sim": shipped.balance.sim.model_copy(update={"tick_hz": 50})})
    content = dataclasses.replace(shipped, balance=balance)
    handed: list[int] = []

    class Recorder:
        def __init__(self, first_scene_factory: object, *, tick_hz: int, **rest: object) -> None:
            handed.append(tick_hz)

        def run(self, max_frames: int | None = None) -> int:
            return 0

    monkeypatch.setattr(play_module, "load_content", lambda: content)
    monkeypatch.setattr(play_module, "App", Recorder)
    assert play_module.play(max_frames=1) == 0
    assert handed == [50]
