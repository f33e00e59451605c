"""SceneStack: lifecycle order, event consumption, deferred changes, transparent drawing (STYLE 12)."""

from __future__ import annotations

from unittest import mock

import pytest

from artificer.ui.scene import Scene, SceneStack


class RecordingScene(Scene):
    """A scene that writes every hook call to a shared log as (name, hook)."""

    def __init__(self, name: str, log: list[tuple[str, str]], *, transparent: bool = False) -> None:
        self.name = name
        self.log = log
        self.transparent = transparent
        self.stack: SceneStack | None = None

    def on_enter(self, stack: SceneStack) -> None:
        self.stack = stack
        self.log.append((self.name, "enter"))

    def on_exit(self) -> None:
        self.log.append((self.name, "exit"))

    def on_pause(self) -> None:
        self.log.append((self.name, "pause"))

    def on_resume(self) -> None:
        self.log.append((self.name, "resume"))

    def update(self, dt: float) -> None:
        self.log.append((self.name, "update"))

    def draw(self, surface: object, alpha: float) -> None:
        self.log.append((self.name, "draw"))


@pytest.fixture
def log() -> list[tuple[str, str]]:
    return []


def test_a_new_stack_is_empty_and_has_no_top() -> None:
    stack = SceneStack()
    assert stack.empty
    assert stack.top is None
    assert len(stack) == 0


def test_push_pauses_the_old_top_then_enters_the_new_one(log: list[tuple[str, str]]) -> None:
    stack = SceneStack()
    title, arena = RecordingScene("title", log), RecordingScene("arena", log)
    stack.push(title)
    stack.push(arena)
    assert log == [("title", "enter"), ("title", "pause"), ("arena", "enter")]
    assert stack.top is arena
    assert arena.stack is stack
    assert stack.scenes == (title, arena)


def test_pop_exits_the_top_then_resumes_the_one_below(log: list[tuple[str, str]]) -> None:
    stack = SceneStack()
    title, arena = RecordingScene("title", log), RecordingScene("arena", log)
    stack.push(title)
    stack.push(arena)
    log.clear()
    stack.pop()
    assert log == [("arena", "exit"), ("title", "resume")]
    assert stack.top is title


def test_replace_exits_the_top_and_enters_the_new_one_without_touching_the_scene_below(
    log: list[tuple[str, str]],
) -> None:
    stack = SceneStack()
    title, lab, arena = RecordingScene("title", log), RecordingScene("lab", log), RecordingScene("arena", log)
    stack.push(title)
    stack.push(lab)
    log.clear()
    stack.replace(arena)
    assert log == [("lab", "exit"), ("arena", "enter")]
    assert stack.scenes == (title, arena)


def test_replace_on_an_empty_stack_is_a_push(log: list[tuple[str, str]]) -> None:
    stack = SceneStack()
    stack.replace(RecordingScene("title", log))
    assert log == [("title", "enter")]
    assert len(stack) == 1


def test_popping_the_last_scene_leaves_the_stack_empty(log: list[tuple[str, str]]) -> None:
    stack = SceneStack()
    stack.push(RecordingScene("title", log))
    stack.pop()
    assert stack.empty
    assert stack.top is None
    assert log[-1] == ("title", "exit")


def test_popping_an_empty_stack_is_an_error() -> None:
    with pytest.raises(IndexError):
        SceneStack().pop()


def test_clear_exits_every_scene_top_first(log: list[tuple[str, str]]) -> None:
    stack = SceneStack()
    stack.push(RecordingScene("title", log))
    stack.push(RecordingScene("arena", log))
    log.clear()
    stack.clear()
    assert log == [("arena", "exit"), ("title", "exit")]
    assert stack.empty


def test_events_go_to_the_top_scene_only_and_returning_none_consumes_them() -> None:
    stack = SceneStack()
    below, top = mock.Mock(spec=Scene, transparent=False), mock.Mock(spec=Scene, transparent=False)
    top.handle_event.return_value = None
    stack.push(below)
    stack.push(top)
    event = object()
    assert stack.handle_event(event) is None
    top.handle_event.assert_called_once_with(event)
    below.handle_event.assert_not_called()


def test_an_unconsumed_event_is_returned_to_the_caller() -> None:
    stack = SceneStack()
    scene = mock.Mock(spec=Scene, transparent=False)
    scene.handle_event.side_effect = lambda event: event
    stack.push(scene)
    event = object()
    assert stack.handle_event(event) is event


def test_an_empty_stack_returns_every_event_unhandled() -> None:
    event = object()
    assert SceneStack().handle_event(event) is event


def test_only_the_top_scene_updates(log: list[tuple[str, str]]) -> None:
    stack = SceneStack()
    stack.push(RecordingScene("title", log))
    stack.push(RecordingScene("arena", log))
    log.clear()
    stack.update(1 / 60)
    assert log == [("arena", "update")]


def test_a_scene_can_pop_itself_during_update_and_the_pop_waits_for_update_to_return(
    log: list[tuple[str, str]],
) -> None:
    class SelfPopping(RecordingScene):
        def update(self, dt: float) -> None:
            assert self.stack is not None
            self.stack.pop()
            # The pop is deferred: this scene is still on top while its update runs.
            self.log.append((self.name, "still top" if self.stack.top is self else "popped early"))

    stack = SceneStack()
    stack.push(RecordingScene("title", log))
    stack.push(SelfPopping("pause", log))
    log.clear()
    stack.update(1 / 60)
    assert log == [("pause", "still top"), ("pause", "exit"), ("title", "resume")]
    assert stack.top.name == "title"  # type: ignore[union-attr]


def test_changes_requested_while_handling_an_event_apply_in_order_after_it(log: list[tuple[str, str]]) -> None:
    lab, arena = RecordingScene("lab", log), RecordingScene("arena", log)

    class Title(RecordingScene):
        def handle_event(self, event: object) -> None:
            assert self.stack is not None
            self.stack.push(lab)
            self.stack.replace(arena)
            self.log.append((self.name, "handled"))
            return None

    stack = SceneStack()
    title = Title("title", log)
    stack.push(title)
    log.clear()
    stack.handle_event(object())
    assert log == [
        ("title", "handled"),
        ("title", "pause"),
        ("lab", "enter"),
        ("lab", "exit"),
        ("arena", "enter"),
    ]
    assert stack.scenes == (title, arena)


def test_a_push_requested_from_on_enter_applies_after_the_first_push_completes(log: list[tuple[str, str]]) -> None:
    intro = RecordingScene("intro", log)

    class Title(RecordingScene):
        def on_enter(self, stack: SceneStack) -> None:
            super().on_enter(stack)
            stack.push(intro)
            self.log.append((self.name, "entered"))

    stack = SceneStack()
    stack.push(Title("title", log))
    assert log == [("title", "enter"), ("title", "entered"), ("title", "pause"), ("intro", "enter")]
    assert stack.top is intro


def test_an_opaque_top_scene_is_drawn_alone(log: list[tuple[str, str]]) -> None:
    stack = SceneStack()
    stack.push(RecordingScene("title", log))
    stack.push(RecordingScene("arena", log))
    log.clear()
    stack.draw(mock.Mock(), 0.5)
    assert log == [("arena", "draw")]


def test_transparent_scenes_draw_over_the_scenes_below_them_down_to_the_first_opaque_one(
    log: list[tuple[str, str]],
) -> None:
    stack = SceneStack()
    stack.push(RecordingScene("title", log))
    stack.push(RecordingScene("arena", log))
    stack.push(RecordingScene("pause", log, transparent=True))
    stack.push(RecordingScene("confirm", log, transparent=True))
    log.clear()
    stack.draw(mock.Mock(), 0.5)
    assert log == [("arena", "draw"), ("pause", "draw"), ("confirm", "draw")]


def test_draw_passes_the_surface_and_interpolation_alpha() -> None:
    stack = SceneStack()
    scene = mock.Mock(spec=Scene, transparent=False)
    stack.push(scene)
    surface = object()
    stack.draw(surface, 0.25)  # type: ignore[arg-type]
    scene.draw.assert_called_once_with(surface, 0.25)


def test_drawing_an_empty_stack_does_nothing() -> None:
    SceneStack().draw(mock.Mock(), 0.0)


def test_a_watcher_hears_every_change_of_the_stack(log: list[tuple[str, str]]) -> None:
    """The music player learns of each push, pop and replace (R-FEEL-1: the scenes choose the music)."""
    stack = SceneStack()
    seen: list[tuple[str, ...]] = []
    stack.watch(lambda scenes: seen.append(tuple(s.name for s in scenes if isinstance(s, RecordingScene))))
    assert seen == [()]  # Told the state at once.
    title, arena = RecordingScene("title", log), RecordingScene("arena", log)
    stack.push(title)
    stack.push(arena)
    stack.replace(RecordingScene("shop", log))
    stack.pop()
    assert seen == [(), ("title",), ("title", "arena"), ("title", "shop"), ("title",)]


def test_changes_deferred_in_a_dispatch_reach_the_watcher_once_applied(log: list[tuple[str, str]]) -> None:
    stack = SceneStack()
    seen: list[int] = []
    stack.watch(lambda scenes: seen.append(len(scenes)))

    class PushesTwo(RecordingScene):
        def update(self, dt: float) -> None:
            assert self.stack is not None
            self.stack.push(RecordingScene("a", self.log))
            self.stack.push(RecordingScene("b", self.log))
            assert seen == [0, 1]  # Nothing applied yet while the scene is dispatching.

    stack.push(PushesTwo("first", log))
    stack.update(1 / 60)
    assert seen[-1] == 3


def test_a_scene_names_no_music_unless_it_says_so() -> None:
    assert Scene.music is None
