"""The run summary (R-END-1): what the run reached and fought.

This module owns `SummaryScene`, shown when the player dies, abandons or
clears the last wave. Enter, Space or Esc leaves through `on_quit(stack)`.
"""

from __future__ import annotations

from typing import Callable

import pygame

from artificer.game.run import Run
from artificer.ui.i18n import tr
from artificer.ui.scene import Scene, SceneStack


class SummaryScene(Scene):
    """The run's end (R-END-1): what was reached and fought. Enter leaves."""

    def __init__(self, run: Run, died: bool, on_quit: Callable[[SceneStack], None] | None, abandoned: bool = False) -> None:
        self.run = run
        self.died = died
        self.abandoned = abandoned
        self.on_quit = on_quit
        self.stack: SceneStack | None = None

    def on_enter(self, stack: SceneStack) -> None:
        self.stack = stack
        self.big = pygame.font.Font(None, 64)
        self.font = pygame.font.Font(None, 32)

    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE, pygame.K_SPACE):
            if self.stack is not None:
                if self.on_quit is not None:
                    self.on_quit(self.stack)
                else:
                    self.stack.clear()
            return None
        return event

    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        surface.fill((10, 8, 18))
        w, h = surface.get_size()
        title = tr("ui.summary.abandoned" if self.abandoned else ("ui.summary.fell" if self.died else "ui.summary.victory"))
        img = self.big.render(title, True, (240, 230, 250))
        surface.blit(img, (w / 2 - img.get_width() / 2, h * 0.2))
        waves = self.run.waves
        lines = [
            tr("ui.summary.highest_wave", wave=len(waves)),
            tr("ui.summary.kills", kills=sum(s.kills for s in waves)),
            tr("ui.summary.damage", damage=sum(s.damage_dealt for s in waves)),
            tr("ui.summary.gold", gold=self.run.currency),
            "",
            tr("ui.summary.continue"),
        ]
        for i, line in enumerate(lines):
            text = self.font.render(line, True, (210, 210, 225))
            surface.blit(text, (w / 2 - text.get_width() / 2, h * 0.38 + 40 * i))
