"""The shop's Esc menu (issue 12): Esc opens it over the shop, Resume closes it, Settings opens
the settings, Save and quit returns to the title with run.json holding the shop as it was left;
keyboard, gamepad and mouse. The screenshot is kept as /tmp/shots/d_shop_menu.png."""

from __future__ import annotations

import json
import os

import pygame
import pytest

from artificer import storage
from artificer.content import load_content
from artificer.game.run import Run, WaveStats
from artificer.game.save import LoadedRun, load_run, run_save_path, save_run
from artificer.ui.i18n import tr
from artificer.ui.play import title_scene
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene
from artificer.ui.scenes.settings import SettingsScene
from artificer.ui.scenes.shop import ShopScene
from artificer.ui.scenes.shop_menu import RESUME, SAVE_AND_QUIT, SETTINGS, ShopMenuScene
from artificer.ui.scenes.title import TitleScene

CONTENT = load_content()
SHOTS = "/tmp/shots"


def frames(stack: SceneStack, surface: pygame.Surface, n: int, *events: pygame.event.Event) -> None:
    for event in events:
        pygame.event.post(event)
    for _ in range(n):
        for event in pygame.event.get():
            stack.handle_event(event)
        stack.update(1 / 60)
        stack.draw(surface, 0.0)


def key(code: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0)


def pad(button: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.CONTROLLERBUTTONDOWN, button=button, instance_id=0)


def shop_from_title(surface: pygame.Surface) -> tuple[SceneStack, ShopScene]:
    """A saved run before wave 2, continued from the title: title, arena, shop."""
    run = Run(CONTENT, 808)
    run.currency = 300
    run.waves = [WaveStats(wave=1)]
    save_run(run, 2)
    stack = SceneStack()
    stack.push(title_scene(CONTENT))
    title = stack.top
    assert isinstance(title, TitleScene)
    title.selected = next(i for i, item in enumerate(title.items) if item.key == "ui.title.continue")
    frames(stack, surface, 3, key(pygame.K_RETURN))
    shop = stack.top
    assert isinstance(shop, ShopScene)
    return stack, shop


def test_esc_opens_the_menu_over_the_shop_and_resume_closes_it(display: pygame.Surface) -> None:
    """Esc with nothing picked opens the menu (the shop drawn under it); Enter on Resume, or Esc
    again, closes it and the shop is as it was."""
    stack, shop = shop_from_title(display)
    frames(stack, display, 2, key(pygame.K_ESCAPE))
    menu = stack.top
    assert isinstance(menu, ShopMenuScene) and menu.transparent and menu.items == (RESUME, SETTINGS, SAVE_AND_QUIT)
    os.makedirs(SHOTS, exist_ok=True)
    pygame.image.save(display, f"{SHOTS}/d_shop_menu.png")
    frames(stack, display, 2, key(pygame.K_RETURN))
    assert stack.top is shop
    frames(stack, display, 2, key(pygame.K_ESCAPE))
    assert isinstance(stack.top, ShopMenuScene)
    frames(stack, display, 2, key(pygame.K_ESCAPE))
    assert stack.top is shop


def test_esc_lets_go_of_a_picked_card_before_it_opens_the_menu(display: pygame.Surface) -> None:
    stack, shop = shop_from_title(display)
    shop.run.loadout.backpack = ["fireball"]
    shop.select("backpack", 0)
    frames(stack, display, 2, key(pygame.K_ESCAPE))
    assert stack.top is shop and shop.selected is None
    frames(stack, display, 2, key(pygame.K_ESCAPE))
    assert isinstance(stack.top, ShopMenuScene)


def test_the_menu_does_not_wrap_and_settings_opens_the_settings(display: pygame.Surface) -> None:
    """Up from Resume stays on Resume (Save and quit is never one key away); Down, Enter opens Settings."""
    stack, _ = shop_from_title(display)
    frames(stack, display, 2, key(pygame.K_ESCAPE), key(pygame.K_UP))
    menu = stack.top
    assert isinstance(menu, ShopMenuScene) and menu.items[menu.choice] == RESUME
    frames(stack, display, 2, key(pygame.K_DOWN), key(pygame.K_RETURN))
    assert isinstance(stack.top, SettingsScene)


def test_save_and_quit_returns_to_the_title_with_the_shop_in_run_json(display: pygame.Surface) -> None:
    """R-SAVE-1: a lock made in the shop, then Esc, Save and quit: the title (Continue offered), and
    run.json holds the open shop with that lock; the arena below did not begin its wave."""
    stack, shop = shop_from_title(display)
    shop.toggle_lock("spells", 2)
    arena = stack.scenes[1]
    assert isinstance(arena, ArenaScene)
    frames(stack, display, 2, key(pygame.K_ESCAPE), key(pygame.K_DOWN), key(pygame.K_DOWN), key(pygame.K_RETURN))
    title = stack.top
    assert isinstance(title, TitleScene) and len(stack) == 1
    assert next(item for item in title.items if item.key == "ui.title.continue").enabled
    assert arena.wave is None, "the arena left without starting wave 2"
    saved = json.loads(run_save_path().read_text(encoding="utf-8"))
    assert saved["shop"]["is_open"] and saved["shop"]["spells"][2]["locked"]
    loaded = load_run(CONTENT)
    assert isinstance(loaded, LoadedRun) and loaded.next_wave == 2 and loaded.run.shop.offer("spells", 2).locked


def test_the_menu_by_mouse_and_by_gamepad(display: pygame.Surface) -> None:
    """A click on Save and quit leaves for the title; a controller's Back opens the menu and B closes it."""
    stack, shop = shop_from_title(display)
    frames(stack, display, 2, pad(pygame.CONTROLLER_BUTTON_BACK))
    menu = stack.top
    assert isinstance(menu, ShopMenuScene)
    frames(stack, display, 2, pad(pygame.CONTROLLER_BUTTON_B))
    assert stack.top is shop
    frames(stack, display, 2, pad(pygame.CONTROLLER_BUTTON_B))  # nothing to let go of: B opens it too
    menu = stack.top
    assert isinstance(menu, ShopMenuScene)
    target = menu.rects[menu.items.index(SAVE_AND_QUIT)].center
    frames(stack, display, 2, pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=target))
    assert isinstance(stack.top, TitleScene) and run_save_path().exists()


def test_a_failed_write_keeps_the_player_in_the_shop_and_says_why(
    display: pygame.Surface, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-SAVE-1: when run.json cannot be written (a full disk), Save and quit does not leave: the
    shop stays, its toast names the error, and the file on disk is the last good one."""
    stack, shop = shop_from_title(display)
    before = run_save_path().read_bytes()

    def disk_full(path: object, value: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(storage, "write_json_atomic", disk_full)
    shop.toggle_lock("spells", 0)
    frames(stack, display, 2, key(pygame.K_ESCAPE), key(pygame.K_DOWN), key(pygame.K_DOWN), key(pygame.K_RETURN))
    assert stack.top is shop
    assert tr("ui.shop.save_failed", error="disk full") in [text for text, _ in shop.toasts.items]
    assert run_save_path().read_bytes() == before
