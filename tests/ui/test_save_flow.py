"""R-SAVE-1 in the window, under the dummy driver with posted key events: the run is saved as
the shop opens between waves; the summary deletes it; Continue on the title resumes at the shop
before the saved wave with the arena underneath; a corrupt save is set aside with a toast and
Continue greys out. (The save's own rules: tests/test_save.py.)"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pygame

from artificer.content import load_content
from artificer.game.run import Run, WaveStats
from artificer.game.save import LoadedRun, load_run, run_save_path, save_run
from artificer.game.shop import SHELVES
from artificer.ui.i18n import tr
from artificer.ui.play import title_scene
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene, PauseScene
from artificer.ui.scenes.lab import LabScene
from artificer.ui.scenes.shop import ShopScene
from artificer.ui.scenes.summary import SummaryScene
from artificer.ui.scenes.title import TitleScene

CONTENT = load_content()


def run_frames(stack: SceneStack, surface: pygame.Surface, n: int, keys: tuple[int, ...] = ()) -> None:
    for key in keys:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    for _ in range(n):
        for event in pygame.event.get():
            stack.handle_event(event)
        stack.update(1 / 60)
        stack.draw(surface, 0.0)


def shelves(run: Run) -> dict[str, list[Any]]:
    return {shelf: [None if o is None else dataclasses.asdict(o) for o in run.shop.shelves[shelf]] for shelf in SHELVES}


def continue_item(title: TitleScene) -> int:
    return next(i for i, item in enumerate(title.items) if item.key == "ui.title.continue")


def test_the_shop_saves_the_run_and_the_summary_deletes_it(display: pygame.Surface) -> None:
    """New run → wave 1 ends → the shop opens and run.json holds the run before wave 2 →
    wave 2 → abandon → the summary deletes run.json. A new run's first wave replaces an old save."""
    run_save_path().parent.mkdir(parents=True, exist_ok=True)
    run_save_path().write_text("{}", encoding="utf-8")  # an older run's save
    stack = SceneStack()
    stack.push(title_scene(CONTENT))
    run_frames(stack, display, 3, (pygame.K_RETURN,))
    assert isinstance(stack.top, LabScene)
    assert run_save_path().exists(), "peeking at the lab keeps the old save"
    run_frames(stack, display, 3, (pygame.K_RETURN,))
    arena = stack.top
    assert isinstance(arena, ArenaScene) and arena.wave is not None
    assert not run_save_path().exists(), "wave 1 of a new run replaces the old save"

    run_frames(stack, display, 30)
    arena.wave.frames = arena.wave.stats.frames + 1  # the wave's time runs out now
    for _ in range(400):
        run_frames(stack, display, 1)
        if isinstance(stack.top, ShopScene):
            break
    shop = stack.top
    assert isinstance(shop, ShopScene) and shop.wave == 2
    saved = json.loads(run_save_path().read_text(encoding="utf-8"))
    assert saved["next_wave"] == 2 and [w["wave"] for w in saved["waves"]] == [1]
    assert saved["currency"] == arena.run.currency
    assert saved["seed"] == arena.run.seed

    run_frames(stack, display, 3, (pygame.K_RETURN,))  # Next wave
    assert stack.top is arena and arena.wave is not None and arena.wave.stats.wave == 2
    run_frames(stack, display, 3, (pygame.K_ESCAPE,))
    assert isinstance(stack.top, PauseScene)
    run_frames(stack, display, 3, (pygame.K_UP, pygame.K_RETURN))  # up wraps to Abandon
    assert isinstance(stack.top, SummaryScene)
    assert not run_save_path().exists()
    run_frames(stack, display, 3, (pygame.K_RETURN,))
    title = stack.top
    assert isinstance(title, TitleScene) and not title.items[continue_item(title)].enabled


def test_continue_resumes_at_the_shop_before_the_saved_wave(display: pygame.Surface) -> None:
    """Continue: the shop before wave 3 (the same offers as the saved run's next shop), the arena
    underneath; Next wave starts wave 3 with the saved gold."""
    run = Run(CONTENT, 4242)
    run.currency = 77
    run.waves = [WaveStats(wave=1, kills=5), WaveStats(wave=2, kills=8)]
    save_run(run, 3)
    expected = load_run(CONTENT)
    assert isinstance(expected, LoadedRun)
    expected.run.shop.open(2)

    stack = SceneStack()
    stack.push(title_scene(CONTENT))
    title = stack.top
    assert isinstance(title, TitleScene) and title.items[continue_item(title)].enabled
    run_frames(stack, display, 3, (pygame.K_DOWN, pygame.K_RETURN))
    shop = stack.top
    assert isinstance(shop, ShopScene) and shop.wave == 3
    arena = stack.scenes[-2]
    assert isinstance(arena, ArenaScene) and arena.number == 3 and arena.wave is None
    assert shop.run is arena.run
    assert shelves(shop.run) == shelves(expected.run)
    assert shop.run.currency == 77 and [w.kills for w in shop.run.waves] == [5, 8]
    assert run_save_path().exists()

    run_frames(stack, display, 3, (pygame.K_RETURN,))  # Next wave
    assert stack.top is arena and arena.wave is not None and arena.wave.stats.wave == 3
    run_frames(stack, display, 30)
    assert arena.wave.stats.frames > 0


def test_a_corrupt_save_is_set_aside_with_a_toast_and_continue_greys_out(display: pygame.Surface) -> None:
    run_save_path().parent.mkdir(parents=True, exist_ok=True)
    run_save_path().write_text('{"version": 1, "currency": ', encoding="utf-8")
    stack = SceneStack()
    stack.push(title_scene(CONTENT))
    title = stack.top
    assert isinstance(title, TitleScene) and title.items[continue_item(title)].enabled
    run_frames(stack, display, 3, (pygame.K_DOWN, pygame.K_RETURN))
    assert stack.top is title and len(stack) == 1
    assert tr("ui.title.save_problem", file="run.json.corrupt") in title.notices
    assert not title.items[continue_item(title)].enabled
    assert not run_save_path().exists()
    assert (run_save_path().parent / "run.json.corrupt").exists()
    title.selected = 0
    run_frames(stack, display, 1, (pygame.K_DOWN,))
    assert title.items[title.selected].key == "ui.title.settings", "the greyed Continue is skipped"
