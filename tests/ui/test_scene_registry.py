"""Declared scenes (`artificer.ui.scene_registry`): a module declares its scene's name, factory and title
line; a registry finds every module of its package in a fixed order; the title's menu is built from the
declared lines (placed, greyed without a save when they need one, opened through the router); and the
window's title opens Settings through the window's router."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pygame
import pytest

from artificer.content import load_content
from artificer.game.save import run_save_path
from artificer.ui.play import title_scene
from artificer.ui.router import SceneRouter
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.scene_registry import SceneKit, SceneRegistry, TitleEntry
from artificer.ui.scenes.settings import SettingsScene
from artificer.ui.scenes.title import TitleScene
from artificer.ui.session import Session
from artificer.ui.settings import Settings

CONTENT = load_content()


def key(code: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0)


class Shown(Scene):
    """A declared scene that remembers what built it; Esc pops it."""

    def __init__(self, kit: SceneKit, label: str) -> None:
        self.kit = kit
        self.label = label
        self.stack: SceneStack | None = None

    def on_enter(self, stack: SceneStack) -> None:
        self.stack = stack

    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self.stack is not None:
            self.stack.pop()
            return None
        return event


def with_lines() -> SceneRegistry:
    """A registry of three scenes: "credits" (place 400), "log" (250, needs a saved run) and "hidden" (not on
    the title). Their labels borrow keys en.json has (nothing here draws them)."""
    registry = SceneRegistry(None)

    @registry.declare("credits", title=TitleEntry("ui.title.settings", order=400))
    def credits(kit: SceneKit) -> Shown:
        return Shown(kit, "credits")

    @registry.declare("log", title=TitleEntry("ui.title.cancel", order=250, needs_run_save=True))
    def log(kit: SceneKit) -> Shown:
        return Shown(kit, "log")

    @registry.declare("hidden")
    def hidden(kit: SceneKit, label: str) -> Shown:
        return Shown(kit, label)

    return registry


def test_a_declared_scene_is_registered_under_its_name_with_the_kit_bound() -> None:
    registry = with_lines()
    router = SceneRouter()
    kit = SceneKit(Session.default(), CONTENT)
    registry.register_all(router, kit)
    assert router.names == ("credits", "log", "hidden")
    hidden = router.build("hidden", label="by name")
    assert isinstance(hidden, Shown) and hidden.kit is kit and hidden.label == "by name"
    assert router.name_of(hidden) == "hidden"
    assert [declared.name for declared in registry.title_entries()] == ["log", "credits"]  # By order.
    assert registry.declarations()[0].module == __name__


def test_a_name_is_declared_once() -> None:
    registry = with_lines()
    with pytest.raises(ValueError, match="already declared as 'credits'"):
        registry.declare("credits")(lambda kit: Scene())


def test_a_registry_imports_its_package_s_modules_once_in_name_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever order the files were written in, the modules are imported by name: a_first's scenes come first."""
    package = tmp_path / "declaring_scenes"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from artificer.ui.scene_registry import SceneRegistry\nREGISTRY = SceneRegistry(__name__)\n", encoding="utf-8"
    )
    body = "from artificer.ui.scene import Scene\nfrom declaring_scenes import REGISTRY\n"
    (package / "b_second.py").write_text(body + 'REGISTRY.declare("second")(lambda kit: Scene())\n', encoding="utf-8")
    (package / "a_first.py").write_text(
        body + 'REGISTRY.declare("first")(lambda kit: Scene())\nREGISTRY.declare("first_too")(lambda kit: Scene())\n',
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        registry = importlib.import_module("declaring_scenes").REGISTRY
        assert isinstance(registry, SceneRegistry)
        assert [declared.name for declared in registry.declarations()] == ["first", "first_too", "second"]
        assert [declared.name for declared in registry.declarations()] == ["first", "first_too", "second"]
        assert registry.declarations()[2].module == "declaring_scenes.b_second"
    finally:
        for name in [name for name in sys.modules if name.split(".")[0] == "declaring_scenes"]:
            del sys.modules[name]


def test_the_title_places_the_declared_lines_among_its_own_and_greys_those_needing_a_save(
    display: pygame.Surface,
) -> None:
    title = TitleScene(on_new_run=lambda stack: None, on_continue=lambda stack: None, scenes=with_lines())
    keys = [item.key for item in title.items]
    assert keys == ["ui.title.new_run", "ui.title.continue", "ui.title.cancel", "ui.title.settings", "ui.title.quit"]
    log = title.items[keys.index("ui.title.cancel")]
    assert not log.enabled and log.note == "ui.title.no_saved_run"
    run_save_path().parent.mkdir(parents=True, exist_ok=True)
    run_save_path().write_text("{}", encoding="utf-8")
    stack = SceneStack()
    stack.push(title)
    stack.push(Scene())
    stack.pop()  # Back on the title: it looks again.
    assert title.items[keys.index("ui.title.cancel")].enabled


def test_a_declared_line_opens_its_scene_through_the_router_and_esc_comes_back(display: pygame.Surface) -> None:
    """Without a router of its own making the title builds one over its settings; with one, it uses it."""
    settings = Settings()
    title = TitleScene(on_new_run=lambda stack: None, settings=settings, scenes=with_lines())
    stack = SceneStack()
    stack.push(title)
    for code in (pygame.K_DOWN, pygame.K_RETURN):  # Down skips the greyed Continue and log.
        stack.handle_event(key(code))
    shown = stack.top
    assert isinstance(shown, Shown) and shown.label == "credits"
    assert shown.kit.session.settings is settings and title._router is not None
    assert title._router.name_of(shown) == "credits"
    stack.handle_event(key(pygame.K_ESCAPE))
    assert stack.top is title

    router = SceneRouter()
    kit = SceneKit(Session.default(), CONTENT)
    registry = with_lines()
    registry.register_all(router, kit)
    routed = TitleScene(on_new_run=lambda stack: None, scenes=registry, router=router)
    other = SceneStack()
    other.push(routed)
    routed.activate([item.key for item in routed.items].index("ui.title.settings"))
    assert isinstance(other.top, Shown) and other.top.kit is kit and router.stack is other


def test_two_title_lines_sharing_a_place_are_refused() -> None:
    registry = SceneRegistry(None)
    registry.declare("clash", title=TitleEntry("ui.title.settings", order=900))(lambda kit: Scene())
    with pytest.raises(ValueError, match="share a place"):
        TitleScene(scenes=registry)


def test_the_window_s_title_opens_settings_through_the_window_s_router(display: pygame.Surface) -> None:
    """`play`'s title: Down from New run skips the greyed Continue, Enter opens the settings the router built
    over the session's settings; Esc comes back."""
    title = title_scene(CONTENT)
    stack = SceneStack()
    stack.push(title)
    for code in (pygame.K_DOWN, pygame.K_RETURN):
        stack.handle_event(key(code))
    settings = stack.top
    assert isinstance(settings, SettingsScene) and settings.settings is title.settings
    assert title._router is not None and title._router.name_of(settings) == "settings"
    stack.handle_event(key(pygame.K_ESCAPE))
    assert stack.top is title
