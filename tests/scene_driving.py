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


def press_continue(stack: SceneStack, surface: pygame.Surface) -> None:
    """On the title at the top of `stack`: Continue chosen and Enter pressed, three frames played."""
    from artificer.ui.scenes.title import TitleScene

    title = stack.top
    assert isinstance(title, TitleScene)
    title.selected = next(i for i, item in enumerate(title.items) if item.key == "ui.title.continue")
    assert title.items[title.selected].enabled, "anything at run.json's path enables Continue"
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="", scancode=0))
    frames(stack, surface, 3)
