"""The application: the window, the fixed-step main loop, and the scene stack it drives.

This module owns `App` (STYLE 13, after Mekire's `Control.main`, but nothing
opens a window or calls `pygame.init()` before `App.run()`):

- The simulation steps at a fixed `STEP_SECONDS` (60 Hz): each frame adds the
  real time elapsed to a lag accumulator and calls `SceneStack.update(STEP)`
  while the lag is at least one step. A frame's elapsed time is clamped to
  `MAX_FRAME_SECONDS`, so after a stall (a debugger, a dragged window) the
  sim drops time instead of spiralling into ever more catch-up steps.
- Rendering happens once per loop with `alpha = lag / STEP` (0 ≤ alpha < 1),
  so scenes can interpolate between the last two sim states.
- Elapsed time comes from `time.perf_counter`, not `Clock.tick`'s whole
  milliseconds: uncapped frames last well under 1 ms and rounding would lose
  most of the time. `Clock.tick(fps_cap)` only enforces the cap (0 = none).
- On window focus loss the top scene's `on_focus_lost()` is called if it has
  one (the arena pauses); the focus event itself is not forwarded. Closing the
  window clears the stack (every scene gets `on_exit()`) and ends the loop; so
  does an empty scene stack.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import pygame

from artificer.ui.scene import Scene, SceneStack

WINDOW_TITLE = "Arcane Artificer"
DEFAULT_WINDOW_SIZE = (1280, 720)
SIM_HZ = 60
STEP_SECONDS = 1.0 / SIM_HZ
# At most this much real time is simulated per rendered frame (15 steps).
MAX_FRAME_SECONDS = 0.25


def _dummy_video() -> bool:
    return os.environ.get("SDL_VIDEODRIVER", "").lower() in {"dummy", "offscreen"}


class App:
    """Owns the window and the loop; `run()` opens the window, pushes the first scene and plays until done."""

    def __init__(
        self,
        first_scene_factory: Callable[[], Scene],
        *,
        window_size: tuple[int, int] = DEFAULT_WINDOW_SIZE,
        fps_cap: int = 0,
        vsync: bool | None = None,
    ) -> None:
        """`first_scene_factory` builds the bottom scene once pygame and the window exist.

        `fps_cap` limits rendered frames per second (0 = uncapped). `vsync`
        None means on, except under a dummy/offscreen video driver.
        """
        self.first_scene_factory = first_scene_factory
        self.window_size = window_size
        self.fps_cap = fps_cap
        self.vsync = (not _dummy_video()) if vsync is None else vsync
        self.stack = SceneStack()
        self.frames_rendered = 0
        self.steps_simulated = 0
        self._running = False

    def quit(self) -> None:
        """End the loop after the current frame."""
        self._running = False

    def run(self, max_frames: int | None = None) -> int:
        """Open the window and play until the window closes, the stack empties or `max_frames` are rendered.

        Returns the number of frames rendered. Initializes pygame if nobody
        did and, in that case, shuts it down again on return.
        """
        owns_pygame = not pygame.get_init()
        if owns_pygame:
            pygame.init()
        try:
            surface = self._open_window()
            self.stack.push(self.first_scene_factory())
            self._loop(surface, max_frames)
        finally:
            if owns_pygame:
                pygame.quit()
        return self.frames_rendered

    def _open_window(self) -> pygame.Surface:
        pygame.display.set_caption(WINDOW_TITLE)
        if self.vsync:
            try:
                return pygame.display.set_mode(self.window_size, pygame.RESIZABLE, vsync=1)
            except pygame.error:
                pass  # No vsync-capable renderer here: fall back to an uncapped software window.
        return pygame.display.set_mode(self.window_size, pygame.RESIZABLE)

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

            while lag >= STEP_SECONDS and not self.stack.empty:
                self.stack.update(STEP_SECONDS)
                self.steps_simulated += 1
                lag -= STEP_SECONDS
            if self.stack.empty:
                break

            # The window may have been resized: draw on whatever the display surface is now.
            surface = pygame.display.get_surface() or surface
            self.stack.draw(surface, lag / STEP_SECONDS)
            pygame.display.flip()
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
            on_focus_lost = getattr(self.stack.top, "on_focus_lost", None)
            if callable(on_focus_lost):
                on_focus_lost()
        else:
            self.stack.handle_event(event)
