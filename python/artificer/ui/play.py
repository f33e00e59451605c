"""`artificer play`: the window — title, then runs in the arena."""

from __future__ import annotations

import secrets

from artificer.content import Content, load_content
from artificer.ui.app import App
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene
from artificer.ui.scenes.title import TitleScene


def _back_to_title(stack: SceneStack) -> None:
    """From the run summary: leave the arena (and the summary) for the title.
    (Stack changes are deferred until the current event is handled, so the
    number of pops is fixed up front.)"""
    for _ in range(len(stack) - 1):
        stack.pop()


def title_scene(content: Content) -> TitleScene:
    def new_run(stack: SceneStack) -> None:
        stack.push(ArenaScene(content, seed=secrets.randbits(32), on_quit=_back_to_title))

    return TitleScene(on_new_run=new_run)


def play(max_frames: int | None = None) -> int:
    """Opens the game's window; returns the frames rendered."""
    content = load_content()
    return App(lambda: title_scene(content)).run(max_frames)
