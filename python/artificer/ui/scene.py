"""Scenes and the scene stack: which screen is active, and how screens hand over.

This module owns the `Scene` base class (lifecycle hooks, event/update/draw)
and `SceneStack` (STYLE 12, after Tuxemon's state manager):

- `push(scene)`: the old top gets `on_pause()`, the new one `on_enter(stack)`.
- `pop()`: the top gets `on_exit()`, the one below (if any) `on_resume()`.
- `replace(scene)`: the top gets `on_exit()`, the new one `on_enter(stack)`;
  the scene below is neither paused nor resumed.
- `clear()`: every scene gets `on_exit()`, top first; an empty stack ends the app.

Events go to the top scene only; a scene consumes one by returning `None`.
Only the top scene updates. Drawing starts at the lowest scene not covered by
an opaque one, so a `transparent` scene (a pause menu) draws over the scene
below it. Stack changes requested while the stack is dispatching (inside
`handle_event`, `update`, `draw` or a lifecycle hook) are deferred until the
dispatch returns, so a scene may pop itself safely; they apply in request order.

`watch(callback)`: `callback(scenes)` runs after every batch of changes, with
the scenes bottom to top — how the music player hears that the stack changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pygame

    from artificer.game.run import WaveInProgress


class Scene:
    """One screen of the game. Subclasses override the hooks they need; all default to no-ops."""

    # A transparent scene lets the scene below it show through (it is drawn first).
    transparent: bool = False
    # The music track this scene asks for (artificer.ui.music.TRACK_NAMES, or "silence"); None leaves the
    # choice to the scenes below, so a pause menu over the arena keeps the wave music (R-FEEL-1).
    music: str | None = None

    def on_enter(self, stack: SceneStack) -> None:
        """Called once when the scene is pushed (or replaces another); keep `stack` to change scenes."""

    def on_exit(self) -> None:
        """Called once when the scene leaves the stack (pop, replace or clear)."""

    def on_pause(self) -> None:
        """Called when another scene is pushed on top of this one."""

    def on_resume(self) -> None:
        """Called when the scene on top of this one was popped and this one is the top again."""

    def on_focus_lost(self) -> None:
        """Called on the top scene when the window loses focus (the arena pauses; held keys are forgotten)."""

    def wave_in_progress(self) -> WaveInProgress | None:
        """The unfinished wave this scene plays, if any: what an abandoned run's summary reads from below it."""
        return None

    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        """React to an input event; return `None` to consume it, or the event to leave it unhandled."""
        return event

    def update(self, dt: float) -> None:
        """Advance the scene by one fixed step of `dt` seconds (only the top scene updates)."""

    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        """Draw the scene; `alpha` in [0, 1) is how far the clock is between the last step and the next."""


class SceneStack:
    """The stack of active scenes; the last pushed is the top, the only one that gets input and updates."""

    def __init__(self) -> None:
        self._scenes: list[Scene] = []
        self._pending: list[Callable[[], None]] = []
        self._dispatch_depth = 0
        self._watchers: list[Callable[[tuple[Scene, ...]], None]] = []

    def watch(self, callback: Callable[[tuple[Scene, ...]], None]) -> None:
        """Call `callback(scenes)` now and after every change of the stack (the scenes bottom to top)."""
        self._watchers.append(callback)
        callback(self.scenes)

    # --- queries ------------------------------------------------------------------

    @property
    def empty(self) -> bool:
        """True when no scene is left (the app then ends)."""
        return not self._scenes

    @property
    def top(self) -> Scene | None:
        """The active scene, or `None` when the stack is empty."""
        return self._scenes[-1] if self._scenes else None

    @property
    def scenes(self) -> tuple[Scene, ...]:
        """The scenes from bottom to top."""
        return tuple(self._scenes)

    def __len__(self) -> int:
        return len(self._scenes)

    # --- changes (deferred while dispatching) ------------------------------------------

    def push(self, scene: Scene) -> None:
        """Put `scene` on top: the old top is paused, then `scene` enters."""
        self._request(lambda: self._apply_push(scene))

    def pop(self) -> None:
        """Remove the top scene: it exits, then the one below resumes. Popping an empty stack is an error."""
        self._request(self._apply_pop)

    def replace(self, scene: Scene) -> None:
        """Swap the top scene for `scene` (the top exits, `scene` enters); on an empty stack, a push."""
        self._request(lambda: self._apply_replace(scene))

    def clear(self) -> None:
        """Remove every scene, top first (each exits); the app ends when the stack is empty."""
        self._request(self._apply_clear)

    # --- dispatch ------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        """Give `event` to the top scene; return what it returned (`None` = consumed)."""
        top = self.top
        if top is None:
            return event
        result: pygame.event.Event | None = self._dispatch(top.handle_event, event)
        return result

    def update(self, dt: float) -> None:
        """Advance the top scene by one fixed step."""
        top = self.top
        if top is not None:
            self._dispatch(top.update, dt)

    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        """Draw the visible scenes bottom-up: the top, and below it while the scene above is transparent."""
        if not self._scenes:
            return
        lowest = len(self._scenes) - 1
        while lowest > 0 and self._scenes[lowest].transparent:
            lowest -= 1
        for scene in self._scenes[lowest:]:
            self._dispatch(scene.draw, surface, alpha)

    # --- internals -----------------------------------------------------------------

    def _request(self, change: Callable[[], None]) -> None:
        self._pending.append(change)
        if self._dispatch_depth == 0:
            self._flush()

    def _dispatch(self, call: Callable[..., Any], *args: Any) -> Any:
        self._dispatch_depth += 1
        try:
            return call(*args)
        finally:
            self._dispatch_depth -= 1
            if self._dispatch_depth == 0:
                self._flush()

    def _flush(self) -> None:
        # Hooks run as a dispatch too, so a change requested from on_enter/on_exit
        # queues behind the current one instead of re-entering it.
        self._dispatch_depth += 1
        changed = bool(self._pending)
        try:
            while self._pending:
                self._pending.pop(0)()
        finally:
            self._dispatch_depth -= 1
        if changed:
            for watcher in self._watchers:
                watcher(self.scenes)

    def _apply_push(self, scene: Scene) -> None:
        if self._scenes:
            self._scenes[-1].on_pause()
        self._scenes.append(scene)
        scene.on_enter(self)

    def _apply_pop(self) -> None:
        if not self._scenes:
            raise IndexError("pop from an empty scene stack")
        self._scenes.pop().on_exit()
        if self._scenes:
            self._scenes[-1].on_resume()

    def _apply_replace(self, scene: Scene) -> None:
        if self._scenes:
            self._scenes.pop().on_exit()
        self._scenes.append(scene)
        scene.on_enter(self)

    def _apply_clear(self) -> None:
        while self._scenes:
            self._scenes.pop().on_exit()
