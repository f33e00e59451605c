"""The whole loop under the dummy driver, driven by posted key events:
title → new run → the lab → Start wave (arena) → a few seconds of wave 1 → pause → abandon →
summary → back to the title; and the run's `RunFlow` through those scenes."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from artificer.content import load_content
from artificer.game.flow import Ending, Phase
from artificer.ui.play import title_scene
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene, PauseScene
from artificer.ui.scenes.lab import LabScene
from artificer.ui.scenes.shop import ShopScene
from artificer.ui.scenes.summary import INPUT_GRACE, SummaryScene
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
    run_frames(stack, display, 3, (pygame.K_DOWN,) * 3 + (pygame.K_RETURN,))  # down ×3: Abandon
    assert isinstance(stack.top, SummaryScene)
    pygame.image.save(display, f"{tmp_path}/summary.png")
    run_frames(stack, display, round(INPUT_GRACE * 60) + 1)  # the summary ignores keys at first
    run_frames(stack, display, 3, (pygame.K_RETURN,))
    assert isinstance(stack.top, TitleScene) and len(stack) == 1


def test_the_window_plays_its_run_through_one_run_flow(
    display: pygame.Surface, run_frames: Callable[..., None]
) -> None:
    """The arena, the shop and the pause menu drive one `RunFlow` (the loop the headless runner
    drives): lab → wave 1 → the shop (the flow open in SHOP before wave 2) → Next wave (WAVE 2) →
    Abandon (OVER, abandoned)."""
    stack = SceneStack()
    stack.push(title_scene(load_content()))
    run_frames(stack, display, 3, (pygame.K_RETURN,))
    run_frames(stack, display, 3, (pygame.K_RETURN,))
    arena = stack.top
    assert isinstance(arena, ArenaScene)
    flow = arena.flow
    assert flow.phase is Phase.WAVE and flow.number == 1 and flow.wave is arena.wave
    assert arena.wave is not None
    arena.wave.frames = arena.wave.stats.frames + 1  # the wave's time runs out now
    for _ in range(400):
        run_frames(stack, display, 1)
        if isinstance(stack.top, ShopScene):
            break
    assert isinstance(stack.top, ShopScene)
    assert flow.phase is Phase.SHOP and flow.number == 2 and arena.run.shop.is_open
    run_frames(stack, display, 3, (pygame.K_RETURN,))  # Next wave
    assert stack.top is arena and flow.phase is Phase.WAVE and flow.number == 2 and arena.wave is flow.wave
    run_frames(stack, display, 3, (pygame.K_ESCAPE,))
    run_frames(stack, display, 3, (pygame.K_DOWN,) * 3 + (pygame.K_RETURN,))  # down ×3: Abandon
    assert isinstance(stack.top, SummaryScene)
    assert flow.phase is Phase.OVER and flow.ending is Ending.ABANDONED
