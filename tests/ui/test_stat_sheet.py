"""R-STAT-2 the stats sheet under the dummy video driver: it opens from the shop, the lab and the
pause menu (by its key and by its button), closes on the same key or Esc, lists every stat, and a
line's figure follows a stat bought — in all four languages without a text cut."""

from __future__ import annotations

import os

import pygame
import pytest

from artificer.content import load_content
from artificer.content.models import WandStat
from artificer.game.run import Run
from artificer.game.state import Change
from artificer.ui import i18n
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene, PauseScene
from artificer.ui.scenes.lab import LabScene
from artificer.ui.scenes.shop import ShopScene
from artificer.ui.stat_sheet import StatSheetScene, line_texts

CONTENT = load_content()
#: Where the layout test leaves its pictures (one per language), to look at by eye.
SHOTS = os.environ.get("ARTIFICER_SHEET_SHOTS", "")


def press(stack: SceneStack, surface: pygame.Surface, *keys: int) -> None:
    """Each key pressed, then a frame drawn (as the window does)."""
    for code in keys:
        stack.handle_event(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0))
        stack.update(1 / 60)
        stack.draw(surface, 0.0)


def click(stack: SceneStack, surface: pygame.Surface, position: tuple[int, int]) -> None:
    stack.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=position))
    stack.update(1 / 60)
    stack.draw(surface, 0.0)


def shop(run: Run) -> tuple[ShopScene, SceneStack]:
    scene = ShopScene(run, 4, on_open_lab=None, on_next_wave=None, save_on_enter=False)
    stack = SceneStack()
    stack.push(scene)
    return scene, stack


def test_r_stat_2_the_sheet_opens_from_the_shop_by_key_and_button_and_closes_on_the_key_or_esc(
    display: pygame.Surface,
) -> None:
    scene, stack = shop(Run(CONTENT, 21))
    stack.draw(display, 0.0)
    press(stack, display, pygame.K_c)
    assert isinstance(stack.top, StatSheetScene)
    assert len(stack.top.drawn) == len(WandStat), "every stat has its line"
    press(stack, display, pygame.K_c)
    assert stack.top is scene
    click(stack, display, scene.stats_rect.center)
    assert isinstance(stack.top, StatSheetScene)
    press(stack, display, pygame.K_ESCAPE)
    assert stack.top is scene, "Esc closes the sheet, not the shop's menu behind it"


def test_r_stat_2_the_sheet_opens_from_the_lab_by_key_and_button(display: pygame.Surface) -> None:
    run = Run(CONTENT, 3)
    stack = SceneStack()
    lab = LabScene(run, 1, on_back=lambda s: s.pop())
    stack.push(lab)
    stack.draw(display, 0.0)
    press(stack, display, pygame.K_c)
    assert isinstance(stack.top, StatSheetScene)
    press(stack, display, pygame.K_ESCAPE)
    assert stack.top is lab, "Esc closes the sheet and leaves the lab open"
    click(stack, display, lab.stats_button.rect.center)
    assert isinstance(stack.top, StatSheetScene)
    press(stack, display, pygame.K_c)
    assert stack.top is lab


def test_r_stat_2_the_sheet_opens_from_the_pause_menu_by_key_and_item(display: pygame.Surface) -> None:
    stack = SceneStack()
    arena = ArenaScene(CONTENT, seed=2)
    stack.push(arena)
    stack.update(1 / 60)
    stack.draw(display, 0.0)
    press(stack, display, pygame.K_ESCAPE)
    pause = stack.top
    assert isinstance(pause, PauseScene) and "ui.pause.stats" in pause.items
    press(stack, display, pygame.K_c)
    assert isinstance(stack.top, StatSheetScene)
    press(stack, display, pygame.K_c)
    assert stack.top is pause, "the sheet closes back to the pause menu"
    press(stack, display, *([pygame.K_DOWN] * pause.items.index("ui.pause.stats")), pygame.K_RETURN)
    assert isinstance(stack.top, StatSheetScene)
    press(stack, display, pygame.K_ESCAPE)
    assert stack.top is pause


def sheet_line(run: Run, stat: WandStat, display: pygame.Surface) -> tuple[str, str, str]:
    _, stack = shop(run)
    stack.draw(display, 0.0)
    press(stack, display, pygame.K_c)
    sheet = stack.top
    assert isinstance(sheet, StatSheetScene)
    return sheet.drawn[list(WandStat).index(stat)]


def buy(run: Run, stat: WandStat, times: int) -> None:
    entry = next(e for e in CONTENT.balance.shop.stats if e.stat == stat)
    for _ in range(times):
        run.wand_stats.add(entry)
    run.state.mark(Change.WAND if stat == WandStat.CPU else Change.STATS)
    run.sync()


def test_r_stat_2_the_cast_speed_line_follows_the_cast_speed_bought(display: pygame.Surface) -> None:
    """R-STAT-2's example: cast speed 25% → delays 25% shorter, 33% more casts (the core's factor)."""
    run = Run(CONTENT, 21)
    assert sheet_line(run, WandStat.CAST_SPEED, display)[1:] == ("0%", "Delays 0% shorter, 0% more casts")
    buy(run, WandStat.CAST_SPEED, 5)  # 5 × 0.05 = 25%
    assert sheet_line(run, WandStat.CAST_SPEED, display)[1:] == ("25%", "Delays 25% shorter, 33% more casts")


def test_r_stat_2_the_max_mana_and_regen_lines_follow_the_stats_bought(display: pygame.Surface) -> None:
    run = Run(CONTENT, 21)
    core = CONTENT.core(run.loadout.active)
    name, value, _ = sheet_line(run, WandStat.MAX_MANA, display)
    assert (name, value) == ("Max mana", f"{core.mana_max:g}")
    buy(run, WandStat.MAX_MANA, 2)
    value, effect = sheet_line(run, WandStat.MAX_MANA, display)[1:]
    assert value == f"{core.mana_max + 40:g}" and effect.startswith(f"Core {core.mana_max:g} + 40 bought")
    buy(run, WandStat.MANA_REGEN, 1)
    value = sheet_line(run, WandStat.MANA_REGEN, display)[1]
    assert value == f"{core.mana_regen + 3:g}/s", "the regen the wand gets: the core's and the bought"


def test_r_stat_2_the_armor_line_is_the_cores_contact_formula(display: pygame.Surface) -> None:
    run = Run(CONTENT, 21)
    hit = CONTENT.enemy("grunt").contact_damage
    buy(run, WandStat.ARMOR, 2)
    effect = sheet_line(run, WandStat.ARMOR, display)[2]
    assert effect == f"2 off every hit: a Grunt's touch of {hit:g} hurts {max(1.0, hit - 2):g}"


@pytest.mark.parametrize("language", ["en", "zh_CN", "ko", "ja"])
def test_r_stat_2_every_line_fits_in_every_language(display: pygame.Surface, language: str) -> None:
    """R-I18N-1: every stat's line is translated and nothing is cut, at the smallest window."""
    i18n.set_language(language, strict=True)
    run = Run(CONTENT, 21)
    for stat in (WandStat.CAST_SPEED, WandStat.MAX_MANA, WandStat.ARMOR, WandStat("attunement_fire")):
        buy(run, stat, 2)
    _, stack = shop(run)
    stack.draw(display, 0.0)
    press(stack, display, pygame.K_c)
    sheet = stack.top
    assert isinstance(sheet, StatSheetScene)
    assert all(all(text for text in texts) for texts in map(line_texts, sheet.lines))
    assert sheet.cut == [], f"cut in {language}: {sheet.cut}"
    assert display.get_rect().contains(sheet.panel_rect)
    if SHOTS:
        pygame.image.save(display, os.path.join(SHOTS, f"sheet_{language}.png"))
