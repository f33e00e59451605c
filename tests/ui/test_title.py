"""TitleScene: renders headless, keyboard and mouse drive the menu, New run calls back, Quit/Esc end the app."""

from __future__ import annotations

from pathlib import Path

import pygame

from artificer.ui.app import App
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.scenes.title import TitleScene


def key(code: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0)


def distinct_colours(surface: pygame.Surface) -> int:
    # Sample every 4th pixel: enough to tell a drawn screen from a blank one, cheap at 1280×720.
    return len(
        {surface.get_at((x, y))[:3] for y in range(0, surface.get_height(), 4) for x in range(0, surface.get_width(), 4)}
    )


class Arena(Scene):
    """Stands in for the scene a new run opens."""


def title_on_stack(calls: list[SceneStack]) -> tuple[TitleScene, SceneStack]:
    stack = SceneStack()
    title = TitleScene(on_new_run=calls.append)
    stack.push(title)
    return title, stack


def test_the_title_renders_under_the_dummy_driver_and_is_not_blank(
    display: pygame.Surface, tmp_path: Path
) -> None:
    title, stack = title_on_stack([])
    for _ in range(120):
        stack.update(1 / 60)
    stack.draw(display, 0.5)
    screenshot = tmp_path / "title.png"
    pygame.image.save(display, str(screenshot))
    assert screenshot.stat().st_size > 0
    assert distinct_colours(pygame.image.load(str(screenshot))) > 50


def test_the_title_renders_at_a_small_window_size(display: pygame.Surface) -> None:
    small = pygame.Surface((640, 360))
    title, stack = title_on_stack([])
    stack.draw(small, 0.0)
    assert distinct_colours(small) > 20


def test_new_run_is_selected_first_and_enter_calls_the_callback_with_the_stack(display: pygame.Surface) -> None:
    calls: list[SceneStack] = []
    title, stack = title_on_stack(calls)
    stack.handle_event(key(pygame.K_RETURN))
    assert calls == [stack]


def test_down_skips_the_greyed_settings_and_up_comes_back_to_new_run(display: pygame.Surface) -> None:
    calls: list[SceneStack] = []
    title, stack = title_on_stack(calls)
    stack.handle_event(key(pygame.K_DOWN))
    assert title.items[title.selected].key == "ui.title.quit"
    stack.handle_event(key(pygame.K_UP))
    assert title.items[title.selected].key == "ui.title.new_run"
    stack.handle_event(key(pygame.K_RETURN))
    assert calls == [stack]


def test_down_then_down_wraps_to_new_run_and_enter_starts_a_run(display: pygame.Surface) -> None:
    calls: list[SceneStack] = []
    title, stack = title_on_stack(calls)
    for event in (key(pygame.K_DOWN), key(pygame.K_DOWN), key(pygame.K_RETURN)):
        assert stack.handle_event(event) is None  # The menu consumes its keys.
    assert calls == [stack]


def test_the_new_run_callback_can_push_the_next_scene(display: pygame.Surface) -> None:
    arena = Arena()
    stack = SceneStack()
    stack.push(TitleScene(on_new_run=lambda s: s.push(arena)))
    stack.handle_event(key(pygame.K_RETURN))
    assert stack.top is arena


def test_without_a_callback_new_run_is_greyed_and_quit_is_selected(display: pygame.Surface) -> None:
    title = TitleScene()
    assert not title.items[0].enabled
    assert title.items[title.selected].key == "ui.title.quit"


def test_clicking_new_run_calls_the_callback(display: pygame.Surface) -> None:
    calls: list[SceneStack] = []
    title, stack = title_on_stack(calls)
    stack.draw(display, 0.0)  # Lays the menu out.
    new_run = title.items.index(next(item for item in title.items if item.key == "ui.title.new_run"))
    centre = title._item_rects[new_run].center
    stack.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=centre))
    assert calls == [stack]


def test_hovering_selects_an_enabled_item_but_not_a_greyed_one(display: pygame.Surface) -> None:
    title, stack = title_on_stack([])
    stack.draw(display, 0.0)
    keys = [item.key for item in title.items]
    settings, quit_ = keys.index("ui.title.settings"), keys.index("ui.title.quit")
    stack.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=title._item_rects[quit_].center, rel=(0, 0), buttons=(0, 0, 0)))
    assert title.selected == quit_
    stack.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=title._item_rects[settings].center, rel=(0, 0), buttons=(0, 0, 0)))
    assert title.selected == quit_


def test_other_keys_are_left_unhandled(display: pygame.Surface) -> None:
    title, stack = title_on_stack([])
    event = key(pygame.K_F5)
    assert stack.handle_event(event) is event


def test_escape_ends_the_app(display: pygame.Surface) -> None:
    app = App(lambda: TitleScene(on_new_run=lambda stack: None))
    pygame.event.post(key(pygame.K_ESCAPE))
    frames = app.run(max_frames=1000)
    assert app.stack.empty
    assert frames < 1000


def test_choosing_quit_ends_the_app(display: pygame.Surface) -> None:
    app = App(lambda: TitleScene(on_new_run=lambda stack: None))
    for code in (pygame.K_DOWN, pygame.K_RETURN):
        pygame.event.post(key(code))
    frames = app.run(max_frames=1000)
    assert app.stack.empty
    assert frames < 1000


def test_new_run_through_the_app_pushes_the_next_scene(display: pygame.Surface) -> None:
    arena = Arena()
    app = App(lambda: TitleScene(on_new_run=lambda stack: stack.push(arena)))
    pygame.event.post(key(pygame.K_RETURN))
    app.run(max_frames=5)
    assert app.stack.top is arena
