"""The Unlocks screen, cursed waves and practice from the title (R-META-1, R-END-5): the screen
buys with aether by keys and by clicks and writes meta.json at once, refuses what is not affordable
and says how much more is needed; what is bought reaches the real game's shop; cursed waves and
practice appear on the title once earned and start their runs; practice keeps no progress."""

from __future__ import annotations

import dataclasses

import pygame

from artificer.content import load_content
from artificer.game.meta import CURSED_WAVES, Meta, load_meta, save_meta, unlock_tree
from artificer.game.run import Run, WaveStats
from artificer.game.save import run_save_path, save_run
from artificer.ui.i18n import tr
from artificer.ui.play import GameScenes
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene
from artificer.ui.scenes.lab import LabScene
from artificer.ui.scenes.shop import ShopScene
from artificer.ui.scenes.summary import SummaryScene
from artificer.ui.scenes.title import TitleScene
from artificer.ui.scenes.unlocks import UnlocksScene
from scene_driving import frames, key

CONTENT = load_content()
TREE = unlock_tree(CONTENT)


def title_with(meta: Meta) -> tuple[GameScenes, SceneStack, TitleScene]:
    """The window's title over `meta` (a player past the first-run lessons, R-ONB-1)."""
    save_meta(dataclasses.replace(meta, onboarding_done=True))
    scenes = GameScenes(CONTENT)
    stack = SceneStack()
    title = scenes.router.build("title")
    assert isinstance(title, TitleScene)
    stack.push(title)
    return scenes, stack, title


def open_line(stack: SceneStack, title: TitleScene, surface: pygame.Surface, label: str) -> None:
    frames(stack, surface, 1)
    title.activate([item.label for item in title.items].index(label))
    frames(stack, surface, 1)


def test_r_meta_1_the_title_opens_unlocks_where_enter_buys_and_meta_json_keeps_it(display: pygame.Surface) -> None:
    _, _, title = title_with(Meta())
    assert tr("ui.title.unlocks") not in [item.label for item in title.items], "R-ONB-1: not before a first run"
    _, stack, title = title_with(Meta(aether=12, runs=1))
    open_line(stack, title, display, tr("ui.title.unlocks"))
    scene = stack.top
    assert isinstance(scene, UnlocksScene)
    assert scene.tree[scene.choice].id == "chain_bolt", "the first node not yet bought is chosen"
    key(pygame.K_RETURN)
    frames(stack, display, 2)
    assert load_meta().meta.unlocked == {"chain_bolt"} and load_meta().meta.aether == 7, "written at once"
    key(pygame.K_RIGHT)
    key(pygame.K_RETURN)
    frames(stack, display, 2)
    meta = load_meta().meta
    assert meta.unlocked == {"chain_bolt"} and meta.aether == 7, "10 is more than 7: refused"
    assert scene.note is not None and scene.note[0] == tr("ui.unlocks.need", more=3)
    key(pygame.K_ESCAPE)
    frames(stack, display, 1)
    assert stack.top is title


def test_r_meta_1_a_click_buys_the_node_under_the_mouse(display: pygame.Surface) -> None:
    _, stack, title = title_with(Meta(aether=100, runs=3))
    open_line(stack, title, display, tr("ui.title.unlocks"))
    scene = stack.top
    assert isinstance(scene, UnlocksScene)
    nuke = [node.id for node in TREE].index("nuke")
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=scene.rects[nuke].center))
    frames(stack, display, 2)
    assert load_meta().meta.unlocked == {"nuke"} and load_meta().meta.aether == 85
    assert scene.glow.get(nuke, 0) > 0, "the bought node lights up"


def test_r_meta_1_what_is_bought_reaches_the_real_shop_and_nothing_else(display: pygame.Surface) -> None:
    scenes, stack, title = title_with(Meta(unlocked=frozenset({"nuke"})))
    open_line(stack, title, display, tr("ui.title.new_run"))
    assert isinstance(stack.top, LabScene)
    assert stack.top.run.shop.unlocked == {"nuke"}, "the new run's shop: the base pool and nuke"


def test_r_meta_1_cursed_waves_appear_on_the_title_once_bought_and_start_a_cursed_run(display: pygame.Surface) -> None:
    _, _, title = title_with(Meta())
    assert tr("ui.title.new_run_cursed") not in [item.label for item in title.items]
    _, stack, title = title_with(Meta(unlocked=frozenset({CURSED_WAVES})))
    open_line(stack, title, display, tr("ui.title.new_run_cursed"))
    assert isinstance(stack.top, LabScene)
    assert stack.top.run.state.cursed and stack.top.run.sim.mode.cursed


def test_r_end_5_practice_starts_at_a_milestone_with_its_gold_and_the_shop_and_keeps_no_progress(
    display: pygame.Surface,
) -> None:
    _, _, title = title_with(Meta())
    assert not any(item.key == "ui.title.practice" for item in title.items), "no milestone: no practice"
    before = Meta(milestones=frozenset({5, 10}), aether=3, runs=4)
    real = Run(CONTENT, 77)  # a run in progress, saved: practice must leave it for Continue
    real.waves = [WaveStats(wave=1)]
    save_run(real, 2)
    saved = run_save_path().read_bytes()
    _, stack, title = title_with(before)
    line = tr("ui.title.practice", wave=10)
    assert line in [item.label for item in title.items], "the highest milestone reached first"
    index = [item.label for item in title.items].index(line)
    title.selected = index
    key(pygame.K_LEFT)
    frames(stack, display, 1)
    assert title.items[index].label == tr("ui.title.practice", wave=5), "left: the lower milestone"
    key(pygame.K_RIGHT)
    frames(stack, display, 1)
    title.activate(index)
    frames(stack, display, 2)
    assert isinstance(stack.top, ShopScene), "the shop before wave 10 first"
    run = stack.top.run
    gold = next(m.practice_gold for m in CONTENT.balance.meta.milestones if m.wave == 10)
    assert run.state.practice and run.currency == gold
    # Play into wave 10 and abandon it: the summary says practice, meta.json is untouched.
    arena = next(scene for scene in stack.scenes if isinstance(scene, ArenaScene))
    assert tr("ui.hud.mode.practice") in [tag for tag, _ in arena.hud_state.modes], "marked as practice"
    stack.top.next_wave()
    frames(stack, display, 2)
    assert arena.wave is not None and arena.wave.stats.wave == 10
    frames(stack, display, 30)
    key(pygame.K_ESCAPE)
    frames(stack, display, 2)
    for k in (pygame.K_DOWN, pygame.K_DOWN, pygame.K_DOWN, pygame.K_RETURN):  # the pause menu's last item: Abandon
        key(k)
    frames(stack, display, 2)
    assert isinstance(stack.top, SummaryScene)
    assert stack.top.snapshot is not None and stack.top.snapshot.practice
    assert stack.top.snapshot.aether is not None and stack.top.snapshot.aether.practice
    assert load_meta().meta == dataclasses.replace(before, onboarding_done=True), "practice keeps no progress"
    assert run_save_path().read_bytes() == saved, "the saved run is untouched: Continue still has it"
