"""Driving scenes in tests: the window's loop for `n` frames, and a key posted as a player presses it."""

from __future__ import annotations

import pygame

from artificer.ui.scene import SceneStack


def frames(stack: SceneStack, surface: pygame.Surface, n: int) -> None:
    """`n` frames of the window's loop: the posted events handled, 1/60 s updated, drawn."""
    for _ in range(n):
        for event in pygame.event.get():
            stack.handle_event(event)
        stack.update(1 / 60)
        stack.draw(surface, 0.0)


def key(k: int, mod: int = 0) -> None:
    """Posts a press and a release of key `k` (with modifiers `mod`)."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))
