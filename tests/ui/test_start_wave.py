"""Developers' start (`artificer play --start-wave N`): a run the bot played through waves
1..N-1 (the headless code path, `sim.headless.run_until`) is handed to the window at the shop
before wave N, over the arena, with the title underneath — or at the lab before wave 1."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pygame

from artificer.content import load_content
from artificer.content.builds import load_builds
from artificer.content.models import WandStat
from artificer.sim.headless import run_until
from artificer.ui.play import StartAt, first_scene
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene
from artificer.ui.scenes.lab import LabScene
from artificer.ui.scenes.shop import ShopScene
from artificer.ui.scenes.title import TitleScene

CONTENT = load_content()


def test_a_run_started_at_wave_5_opens_at_the_shop_before_wave_5_with_the_bots_purchases(
    display: pygame.Surface, run_frames: Callable[..., None]
) -> None:
    played = run_until(CONTENT, 2, 5, load_builds(CONTENT)["turret"])  # a seed on which the bot buys a spell
    run = played.run
    stack = SceneStack()
    stack.push(first_scene(CONTENT, start=StartAt(run, 5)))
    run_frames(stack, display, 3)

    title, arena, shop = stack.scenes
    assert isinstance(title, TitleScene) and isinstance(shop, ShopScene)
    assert isinstance(arena, ArenaScene) and arena.run is run and arena.number == 5 and arena.wave is None
    assert [stats.wave for stats in run.waves] == [1, 2, 3, 4]

    purchases = [item for report in played.reports for item in report.get("purchases", [])]
    assert any(item.startswith("spells:") for item in purchases), purchases
    loadout = run.loadout
    STATS = {stat.value for stat in WandStat}  # the upgrades shelf also sells talents (Last Will)
    owned = Counter(card for carried in loadout.cores for card in carried.cards if card is not None)
    owned.update(loadout.backpack)
    owned.update(loadout.waiting)
    shelves = Counter(item.split(":", 1)[0] for item in purchases)
    bought = Counter(item.split(":", 1)[1] for item in purchases)
    for item, times in bought.items():
        if f"spells:{item}" in purchases:
            assert owned[item] >= times, item
        if f"cores:{item}" in purchases:
            assert item in {carried.core for carried in loadout.cores}
        if f"stats:{item}" in purchases and item in STATS:
            assert run.wand_stats.purchases[WandStat(item)] == times, item
    talents = sum(1 for item in purchases if item.startswith("stats:") and item.split(":", 1)[1] not in STATS)
    assert shelves["stats"] == sum(run.wand_stats.purchases.values()) + talents
    assert "summon_turret" in loadout.wand()[1]  # the build's board, laid out by the bot

    run_frames(stack, display, 3, (pygame.K_RETURN,))  # the shop's "next wave"
    assert stack.top is arena and arena.wave is not None and arena.wave.stats.wave == 5


def test_a_run_started_at_wave_1_opens_at_the_lab_over_the_title(
    display: pygame.Surface, run_frames: Callable[..., None]
) -> None:
    played = run_until(CONTENT, 2, 1)
    stack = SceneStack()
    stack.push(first_scene(CONTENT, start=StartAt(played.run, 1)))
    run_frames(stack, display, 3)
    title, lab = stack.scenes
    assert isinstance(title, TitleScene) and isinstance(lab, LabScene) and lab.run is played.run
    assert played.reports == [] and played.run.waves == []
