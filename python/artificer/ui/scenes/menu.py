"""A menu over another scene: the input every small menu of the game shares.

This module owns `MenuScene`, the base of the arena's pause menu and the
shop's Esc menu: a column of buttons (i18n keys in `items`) drawn by the
subclass, which records their rects in `rects` as it draws them.

- The mouse: hovering a button chooses it, a left click activates it.
- The session's controls in the menu context: Up / Down (arrows, d-pad,
  stick) move the choice and stop at the first and the last button — the
  choice never wraps, so an Up from the first button cannot land on the
  last one (Abandon, Save and quit); Enter / Space / A activate it;
  Back / Pause (Esc, B) close the menu; the stats-sheet key calls `open_stats`
  (the pause menu opens the sheet, R-STAT-2; other menus ignore it).
- `open_settings()`: the settings scene on the session's settings, which
  both menus offer.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

import pygame

from artificer.ui.scene import Scene, SceneStack
from artificer.ui.session import Session
from artificer.ui.settings import Action, Context


class MenuScene(Scene, ABC):
    """Buttons over the scene below; subclasses draw them into `rects` and say what `activate` does."""

    transparent = True

    def __init__(self, session: Session, items: Sequence[str]) -> None:
        self.session = session
        self.items = tuple(items)
        self.choice = 0
        #: Each button's rect as the last draw placed it (for the mouse).
        self.rects: list[pygame.Rect] = []
        self.mouse = (-1, -1)
        self.stack: SceneStack | None = None

    def on_enter(self, stack: SceneStack) -> None:
        self.stack = stack

    @abstractmethod
    def activate(self, index: int) -> None:
        """Does what button `index` says (each menu says what its buttons do)."""

    def close(self) -> None:
        """Back, Pause or Resume: the menu goes, the scene below comes back."""
        assert self.stack is not None
        self.stack.pop()

    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if self.stack is None:
            return event
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN):
            self.mouse = event.pos
            hit = next((i for i, rect in enumerate(self.rects) if rect.collidepoint(event.pos)), None)
            if hit is not None:
                self.choice = hit
                if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                    self.activate(hit)
            return None
        action = self.session.controls.handle(event, Context.MENU)
        if action in (Action.BACK, Action.PAUSE):
            self.close()
        elif action == Action.MOVE_UP:
            self.choice = max(0, self.choice - 1)
        elif action == Action.MOVE_DOWN:
            self.choice = min(len(self.items) - 1, self.choice + 1)
        elif action == Action.CONFIRM:  # Enter and Space confirm in every menu (Controls' fixed keys)
            self.activate(self.choice)
        elif action == Action.STATS_SHEET:
            self.open_stats()
        return None

    def open_stats(self) -> None:
        """The stats-sheet key (R-STAT-2): nothing, unless the menu offers the sheet (the pause menu)."""

    def open_settings(self) -> None:
        """The settings scene, over this menu (it pops back here)."""
        from artificer.ui.scenes.settings import SettingsScene

        assert self.stack is not None
        session = self.session
        self.stack.push(SettingsScene(session.settings, sound_bank=session.sound, controls=session.controls))
