"""SceneRouter: scenes registered by name and pushed, replaced and popped by name with arguments
(Tuxemon's push_state), over a real SceneStack with recording scenes; and the window's scenes of
`artificer.ui.play` registered under their names, the declared ones (`artificer.ui.scene_registry`) with them."""

from __future__ import annotations

import pytest

from artificer.content import load_content
from artificer.ui.play import ARENA, LAB, SHOP, TITLE, GameScenes
from artificer.ui.router import SceneRouter
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.scene_registry import SCENES


class Named(Scene):
    def __init__(self, log: list[str], label: str) -> None:
        self.log = log
        self.label = label

    def on_enter(self, stack: SceneStack) -> None:
        self.log.append(f"enter {self.label}")

    def on_exit(self) -> None:
        self.log.append(f"exit {self.label}")

    def on_pause(self) -> None:
        self.log.append(f"pause {self.label}")

    def on_resume(self) -> None:
        self.log.append(f"resume {self.label}")


def router_on(stack: SceneStack, log: list[str]) -> SceneRouter:
    router = SceneRouter()
    router.register("menu", lambda: Named(log, "menu"))
    router.register("level", lambda number: Named(log, f"level {number}"))
    router.attach(stack)
    return router


def labels(stack: SceneStack) -> list[str]:
    return [scene.label for scene in stack.scenes if isinstance(scene, Named)]


def test_push_replace_and_pop_by_name_with_arguments() -> None:
    log: list[str] = []
    stack = SceneStack()
    router = router_on(stack, log)
    menu = router.push("menu")
    level = router.push("level", number=1)
    assert labels(stack) == ["menu", "level 1"] and stack.top is level
    router.replace("level", number=2)
    assert labels(stack) == ["menu", "level 2"]
    router.pop()
    assert stack.top is menu
    assert log == ["enter menu", "pause menu", "enter level 1", "exit level 1", "enter level 2", "exit level 2",
                   "resume menu"]  # fmt: skip


def test_pop_to_leaves_every_scene_above_the_topmost_of_that_name() -> None:
    log: list[str] = []
    stack = SceneStack()
    router = router_on(stack, log)
    router.push("menu")
    for number in (1, 2, 3):
        router.push("level", number=number)
    router.pop_to("menu")
    assert labels(stack) == ["menu"]
    assert [line for line in log if line.startswith("exit")] == ["exit level 3", "exit level 2", "exit level 1"]
    assert log[-1] == "resume menu"
    with pytest.raises(LookupError, match="'level'"):
        router.pop_to("level")


def test_changes_asked_for_while_the_stack_dispatches_apply_after_it_in_order() -> None:
    """A scene's own hand-over (inside its update) pops two and pushes one once the update returns."""
    log: list[str] = []
    stack = SceneStack()
    router = router_on(stack, log)

    class Leaving(Named):
        def update(self, dt: float) -> None:
            router.pop_to("menu")
            router.push("level", number=9)
            assert labels(stack)[-1] == "leaving", "nothing changes mid-dispatch"

    router.push("menu")
    router.push("level", number=1)
    stack.push(Leaving(log, "leaving"))
    stack.update(1 / 60)
    assert labels(stack) == ["menu", "level 9"]


def test_names_are_registered_once_and_unknown_names_refused() -> None:
    router = SceneRouter()
    router.register("menu", Scene)
    with pytest.raises(ValueError, match="already registered"):
        router.register("menu", Scene)
    with pytest.raises(LookupError, match="no scene is registered as 'shop'"):
        router.build("shop")
    scene = router.build("menu")
    assert router.name_of(scene) == "menu" and router.name_of(Scene()) is None


def test_a_router_drives_one_stack_and_attaches_on_its_first_routed_hand_over() -> None:
    router = SceneRouter()
    router.register("menu", Scene)
    with pytest.raises(RuntimeError, match="no scene stack"):
        router.push("menu")
    stack = SceneStack()
    router.routed(lambda: router.push("menu"))(stack)
    assert router.stack is stack and len(stack) == 1
    with pytest.raises(RuntimeError, match="another scene stack"):
        router.attach(SceneStack())


def test_the_window_registers_its_scenes_by_name() -> None:
    """The scenes a run hands over are wired by `play`; every declared scene (settings) joins them by itself."""
    scenes = GameScenes(load_content())
    declared = tuple(declaration.name for declaration in SCENES.declarations())
    assert "settings" in declared
    assert scenes.router.names == (TITLE, LAB, ARENA, SHOP, *declared)
