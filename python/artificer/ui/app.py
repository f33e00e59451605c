"""The application: the window, the fixed-step main loop, and the scene stack it drives.

This module owns `App` (STYLE 13, after Mekire's `Control.main`, but nothing
opens a window or calls `pygame.init()` before `App.run()`):

- The simulation steps at a fixed `step_seconds`, one over the content's
  tick rate (balance.json `sim.tick_hz`, handed in as `tick_hz`): each frame
  adds the real time elapsed to a lag accumulator and calls
  `SceneStack.update(step)` while the lag is at least one step. A frame's elapsed time is clamped to
  `MAX_FRAME_SECONDS`, so after a stall (a debugger, a dragged window) the
  sim drops time instead of spiralling into ever more catch-up steps.
- Rendering happens once per loop with `alpha = lag / step` (0 ≤ alpha < 1),
  so scenes can interpolate between the last two sim states.
- Elapsed time comes from `time.perf_counter`, not `Clock.tick`'s whole
  milliseconds: uncapped frames last well under 1 ms and rounding would lose
  most of the time. `Clock.tick(fps_cap)` only enforces the cap (0 = none).
- With `settings` (R-SET-1), the window opens at the settings' size, in
  fullscreen (at the desktop's resolution) or not, with vsync or not, and the
  FPS cap is read from them every frame, so the settings screen's changes
  apply at once. `open_window` is how the settings screen changes the mode.
- Music (R-FEEL-1): the app's `MusicPlayer` (given, or made from `settings`)
  watches the stack, so the top-most scene naming a track (`Scene.music`)
  decides what plays, and is updated every frame, so a volume slider applies
  at once; it stops when the loop ends.
- On window focus loss the top scene's `on_focus_lost()` hook is called (the
  arena pauses; the base `Scene`'s does nothing); the focus event itself is
  not forwarded. Closing the
  window clears the stack (every scene gets `on_exit()`) and ends the loop; so
  does an empty scene stack.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import pygame

from artificer.ui.music import MusicPlayer
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.settings import Settings

WINDOW_TITLE = "Arcane Artificer"
DEFAULT_WINDOW_SIZE = (1280, 720)
# At most this much real time is simulated per rendered frame (15 steps at 60 Hz).
MAX_FRAME_SECONDS = 0.25


#: SDL's video drivers that draw nowhere a player can see.
HEADLESS_DRIVERS = frozenset({"dummy", "offscreen"})


def _dummy_video() -> bool:
    return os.environ.get("SDL_VIDEODRIVER", "").lower() in HEADLESS_DRIVERS


class NoDisplay(pygame.error):
    """There is no screen to open the window on: SDL fell back to a driver that draws nowhere."""


def require_a_display() -> None:
    """Raises `NoDisplay` when pygame's video driver draws nowhere (no X, Wayland or other display:
    SDL falls back to its offscreen driver and the game would run invisibly forever) — unless such
    a driver was asked for by name (`SDL_VIDEODRIVER=dummy`, as the tests do)."""
    driver = pygame.display.get_driver().lower()
    if driver in HEADLESS_DRIVERS and not _dummy_video():
        raise NoDisplay(f"no display to open it on (SDL's video driver is {driver!r})")


def open_window(size: tuple[int, int], *, fullscreen: bool = False, vsync: bool = True) -> pygame.Surface:
    """Open (or re-open) the window: resizable at `size`, or fullscreen at the desktop's resolution.

    Vsync is asked for and dropped when no renderer here can do it; fullscreen
    falls back to a window when the display refuses it.
    """
    attempts: list[tuple[tuple[int, int], int, bool]] = []
    if fullscreen:
        attempts += [((0, 0), pygame.FULLSCREEN, True), ((0, 0), pygame.FULLSCREEN, False)]
    attempts += [(size, pygame.RESIZABLE, True), (size, pygame.RESIZABLE, False)]
    error: pygame.error | None = None
    for mode_size, flags, with_vsync in attempts:
        if with_vsync and not vsync:
            continue
        try:
            return pygame.display.set_mode(mode_size, flags, vsync=1 if with_vsync else 0)
        except pygame.error as refused:  # No vsync-capable renderer, or no fullscreen: try the next.
            error = refused
    assert error is not None
    raise error


def apply_display_settings(settings: Settings) -> pygame.Surface:
    """Re-open the window as `settings` say (size, fullscreen, vsync — never vsync under a dummy driver)."""
    return open_window(
        settings.window_size, fullscreen=settings.fullscreen, vsync=settings.vsync and not _dummy_video()
    )


class App:
    """Owns the window and the loop; `run()` opens the window, pushes the first scene and plays until done."""

    def __init__(
        self,
        first_scene_factory: Callable[[], Scene],
        *,
        tick_hz: int,
        window_size: tuple[int, int] = DEFAULT_WINDOW_SIZE,
        fps_cap: int = 0,
        vsync: bool | None = None,
        fullscreen: bool = False,
        settings: Settings | None = None,
        music: MusicPlayer | None = None,
    ) -> None:
        """`first_scene_factory` builds the bottom scene once pygame and the window exist; the
        scenes step `tick_hz` times a second of real time (the content's `sim.tick_hz`).

        `fps_cap` limits rendered frames per second (0 = uncapped). `vsync`
        None means on, except under a dummy/offscreen video driver. `settings`,
        when given, decide the window size, fullscreen, vsync (still off under
        a dummy driver) and the FPS cap instead of the other arguments.
        `music` plays the scenes' tracks; without it, an app with `settings`
        makes its own at `run()` (at their music volume), one without plays none.
        """
        self.first_scene_factory = first_scene_factory
        #: One fixed step of the simulation, in seconds.
        self.step_seconds = 1.0 / tick_hz
        self.settings = settings
        if settings is not None:
            window_size, fullscreen, fps_cap = settings.window_size, settings.fullscreen, settings.fps_cap
            vsync = settings.vsync and not _dummy_video()
        self.window_size = window_size
        self.fullscreen = fullscreen
        self._fps_cap = fps_cap
        self.vsync = (not _dummy_video()) if vsync is None else vsync
        self.stack = SceneStack()
        self.music = music
        self.frames_rendered = 0
        self.steps_simulated = 0
        self._running = False

    @property
    def fps_cap(self) -> int:
        """Rendered frames per second at most (0 = no cap); the settings' current value when the app has settings."""
        return self.settings.fps_cap if self.settings is not None else self._fps_cap

    @fps_cap.setter
    def fps_cap(self, cap: int) -> None:
        if self.settings is not None:
            self.settings.fps_cap = cap
        else:
            self._fps_cap = cap

    def quit(self) -> None:
        """End the loop after the current frame."""
        self._running = False

    def run(self, max_frames: int | None = None) -> int:
        """Open the window and play until the window closes, the stack empties or `max_frames` are rendered.

        Returns the number of frames rendered. Initializes pygame if nobody
        did and, in that case, shuts it down again on return.
        """
        owns_pygame = not pygame.get_init()
        try:
            if not pygame.display.get_init():
                pygame.display.init()
            require_a_display()  # before the mixer and the rest wake up, so a headless machine hears one line
            if owns_pygame:
                pygame.init()
            surface = self._open_window()
            scene = self.first_scene_factory()  # Builds the sound bank, which opens the mixer.
            self._start_music()
            self.stack.push(scene)
            self._loop(surface, max_frames)
        finally:
            if self.music is not None:
                self.music.stop()
            if owns_pygame:
                pygame.quit()
        return self.frames_rendered

    def _start_music(self) -> None:
        if self.music is None and self.settings is not None:
            self.music = MusicPlayer(self.settings)
        if self.music is not None:
            self.stack.watch(self.music.follow)

    def _open_window(self) -> pygame.Surface:
        pygame.display.set_caption(WINDOW_TITLE)
        return open_window(self.window_size, fullscreen=self.fullscreen, vsync=self.vsync)

    def _loop(self, surface: pygame.Surface, max_frames: int | None) -> None:
        clock = pygame.time.Clock()
        lag = 0.0
        previous = time.perf_counter()
        self._running = True
        while self._running and not self.stack.empty:
            clock.tick(self.fps_cap)
            now = time.perf_counter()
            lag += min(now - previous, MAX_FRAME_SECONDS)
            previous = now

            for event in pygame.event.get():
                self._handle_event(event)
            if not self._running or self.stack.empty:
                break

            step = self.step_seconds
            while lag >= step and not self.stack.empty:
                self.stack.update(step)
                self.steps_simulated += 1
                lag -= step
            if self.stack.empty:
                break

            # The window may have been resized: draw on whatever the display surface is now.
            surface = pygame.display.get_surface() or surface
            self.stack.draw(surface, lag / self.step_seconds)
            pygame.display.flip()
            if self.music is not None:
                self.music.update()
            self.frames_rendered += 1
            if max_frames is not None and self.frames_rendered >= max_frames:
                break
        self._running = False

    def _handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            # Every scene exits (top first) so it can save what it must before the window goes.
            self.stack.clear()
            self._running = False
        elif event.type == pygame.WINDOWFOCUSLOST:
            top = self.stack.top
            if top is not None:
                top.on_focus_lost()
        else:
            self.stack.handle_event(event)
