"""The whole loop under the dummy driver, driven by posted key events:
title → new run → the lab → Start wave (arena) → a few seconds of wave 1 → pause → abandon →
summary → back to the title."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from artificer.content import load_content
from artificer.ui.play import title_scene
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene, PauseScene
from artificer.ui.scenes.lab import LabScene
from artificer.ui.scenes.summary import SummaryScene
from artificer.ui.scenes.title import TitleScene


def test_title_to_arena_to_summary_and_back(
    display: pygame.Surface, run_frames: Callable[..., None], tmp_path: object
) -> None:
    stack = SceneStack()
    stack.push(title_scene(load_content()))
    run_frames(stack, display, 5)
    assert isinstance(stack.top, TitleScene)
    run_frames(stack, display, 5, (pygame.K_RETURN,))
    assert isinstance(stack.top, LabScene)
    run_frames(stack, display, 5, (pygame.K_RETURN,))
    assert isinstance(stack.top, ArenaScene)
    run_frames(stack, display, 180, (pygame.K_d,))
    pygame.image.save(display, f"{tmp_path}/arena.png")
    run_frames(stack, display, 3, (pygame.K_ESCAPE,))
    assert isinstance(stack.top, PauseScene)
    run_frames(stack, display, 3, (pygame.K_DOWN, pygame.K_DOWN, pygame.K_RETURN))  # down, down: Abandon
    assert isinstance(stack.top, SummaryScene)
    pygame.image.save(display, f"{tmp_path}/summary.png")
    run_frames(stack, display, 3, (pygame.K_RETURN,))
    assert isinstance(stack.top, TitleScene) and len(stack) == 1
