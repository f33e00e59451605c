"""New Game+ on the title and the victory summary (R-END-2, R-LOOP-1): the line appears once a clear
unlocked it (meta.json), names its level, and starts a run at that level; a victory counts the clear
and says what it unlocked."""

from __future__ import annotations

import numpy as np
import pygame

from artificer.content import load_content
from artificer.game.meta import Meta, load_meta, save_meta
from artificer.ui.i18n import tr
from artificer.ui.play import GameScenes
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene
from artificer.ui.scenes.lab import LabScene
from artificer.ui.scenes.summary import SummaryScene
from artificer.ui.scenes.title import TitleScene
from artificer.ui.session import Session
from scene_driving import frames

CONTENT = load_content()


def labels(title: TitleScene) -> list[str]:
    return [item.label for item in title.items]


def test_r_end_2_no_ng_plus_line_before_a_clear(display: pygame.Surface) -> None:
    scenes = GameScenes(CONTENT)
    title = scenes.router.build("title")
    assert isinstance(title, TitleScene)
    assert tr("ui.title.new_run_ng_plus", level=1) not in labels(title)


def test_r_end_2_the_ng_plus_line_starts_a_run_at_the_unlocked_level(display: pygame.Surface) -> None:
    save_meta(Meta(clears=2, ng_plus_unlocked=2))
    scenes = GameScenes(CONTENT)
    stack = SceneStack()
    title = scenes.router.build("title")
    stack.push(title)
    assert isinstance(title, TitleScene)
    line = tr("ui.title.new_run_ng_plus", level=2)
    assert labels(title)[:2] == [tr("ui.title.new_run"), line], "just under New run"
    frames(stack, display, 1)
    title.activate(labels(title).index(line))
    frames(stack, display, 1)
    assert isinstance(stack.top, LabScene) and stack.top.run.state.ng_plus == 2
    assert stack.top.run.sim.mode.ng_plus == 2


def test_r_end_2_a_victory_counts_the_clear_and_the_summary_says_what_it_unlocked(display: pygame.Surface) -> None:
    scene = ArenaScene(CONTENT, seed=3, session=Session.default(), first_wave=len(CONTENT.waves))
    stack = SceneStack()
    stack.push(scene)
    frames(stack, display, 2)
    boss = scene.run.sim.world.boss_status()[0]
    at = np.array([boss["x"]], np.float32), np.array([boss["y"]], np.float32)
    still = np.zeros(1, np.float32)
    scene.run.sim.world.spawn_projectiles(*at, still, still, 8.0, 1e9, 1)
    frames(stack, display, 2)
    assert load_meta().meta.clears == 0, "the clear is counted with its reward, as the summary opens"
    frames(stack, display, round(CONTENT.balance.wave.breather * 60))
    assert isinstance(stack.top, SummaryScene) and not stack.top.died
    meta = load_meta().meta
    assert (meta.clears, meta.ng_plus_unlocked, meta.first_clear_paid) == (1, 1, True)
    assert stack.top.snapshot is not None and stack.top.snapshot.unlocked == 1
    # R-META-1: the victory screen shows the aether paid: W20, the three milestones, the first clear.
    shown = stack.top.snapshot.aether
    assert shown is not None and shown.total == 20 + 2 + 3 + 4 + 30 == meta.aether == shown.held
    assert {"wave_20", "first_clear"} <= meta.achievements, "R-META-2: the clear's achievements are earned"


def test_r_end_2_left_and_right_choose_a_lower_ng_plus_level_down_to_one(display: pygame.Surface) -> None:
    """Three levels unlocked: the line offers the highest; Left steps down to 1 (no lower), Right back
    up (no higher than unlocked), by keys and by clicking the line's arrows; the run starts at the level shown."""
    save_meta(Meta(clears=3, ng_plus_unlocked=3))
    scenes = GameScenes(CONTENT)
    stack = SceneStack()
    title = scenes.router.build("title")
    assert isinstance(title, TitleScene)
    stack.push(title)
    frames(stack, display, 1)
    index = labels(title).index(tr("ui.title.new_run_ng_plus", level=3))
    title.selected = index

    def press(key: int) -> str:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
        frames(stack, display, 1)
        return labels(title)[index]

    assert [press(pygame.K_LEFT) for _ in range(3)] == [tr("ui.title.new_run_ng_plus", level=n) for n in (2, 1, 1)]
    assert [press(pygame.K_RIGHT) for _ in range(3)] == [tr("ui.title.new_run_ng_plus", level=n) for n in (2, 3, 3)]
    bar = title._item_rects[index]
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(bar.x + 4, bar.centery)))
    frames(stack, display, 1)
    assert labels(title)[index] == tr("ui.title.new_run_ng_plus", level=2), "the left arrow steps down"
    assert title.selected == index
    title.activate(index)
    frames(stack, display, 1)
    assert isinstance(stack.top, LabScene) and stack.top.run.state.ng_plus == 2


def test_r_end_2_one_level_unlocked_is_a_fixed_line(display: pygame.Surface) -> None:
    save_meta(Meta(clears=1, ng_plus_unlocked=1))
    title = GameScenes(CONTENT).router.build("title")
    assert isinstance(title, TitleScene)
    item = next(item for item in title.items if item.key == "ui.title.new_run_ng_plus")
    assert item.adjust is None and item.label == tr("ui.title.new_run_ng_plus", level=1)
