"""Scenes by name: the router over the scene stack (after Tuxemon's `StateManager.push_state`).

This module owns `SceneRouter`. A scene is registered once under a name with
the factory that builds it (`register("shop", factory)`); the flow then asks
for scenes by name and arguments — `push(name, **args)`, `replace(name,
**args)`, `pop(count)`, `pop_to(name)` (leave every scene above the topmost
one of that name: back to the title) — instead of each hand-over building the
next scene in a closure of its own. `build(name, **args)` makes a scene
without putting it on a stack (the window's first scene, made before the stack
exists).

The router drives one `SceneStack`, attached by `attach(stack)` the first time
a routed hand-over runs (every scene callback receives the stack it runs on;
`routed(go)` wraps a hand-over so it attaches first). Stack changes keep the
stack's rules: requested while the stack dispatches, they apply in order once
it returns. The router remembers which name built each scene it made (weakly),
which is what `pop_to` and `name_of` read.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from artificer.ui.scene import Scene, SceneStack

SceneFactory = Callable[..., Scene]


class SceneRouter:
    """Named scene factories and the stack they are pushed on."""

    def __init__(self) -> None:
        self._factories: dict[str, SceneFactory] = {}
        self._names: weakref.WeakKeyDictionary[Scene, str] = weakref.WeakKeyDictionary()
        self._stack: SceneStack | None = None

    # --- registry -----------------------------------------------------------------

    def register(self, name: str, factory: SceneFactory) -> None:
        """Make `name` build its scene with `factory(**args)`; a name is registered once."""
        if name in self._factories:
            raise ValueError(f"a scene is already registered as {name!r}")
        self._factories[name] = factory

    @property
    def names(self) -> tuple[str, ...]:
        """The registered scene names, in registration order."""
        return tuple(self._factories)

    def build(self, name: str, **args: Any) -> Scene:
        """The scene `name` makes from `args`, not yet on any stack."""
        try:
            factory = self._factories[name]
        except KeyError:
            raise LookupError(f"no scene is registered as {name!r} (known: {', '.join(self._factories)})") from None
        scene = factory(**args)
        self._names[scene] = name
        return scene

    def name_of(self, scene: Scene) -> str | None:
        """The name `scene` was built under by this router, or None."""
        return self._names.get(scene)

    # --- the stack --------------------------------------------------------------------

    def attach(self, stack: SceneStack) -> None:
        """Drive `stack` (the one the window's scenes run on); attaching another one is an error."""
        if self._stack is not None and self._stack is not stack:
            raise RuntimeError("the router already drives another scene stack")
        self._stack = stack

    def routed(self, go: Callable[[], object]) -> Callable[[SceneStack], None]:
        """A scene callback (`callback(stack)`) that attaches the stack, then runs the hand-over `go()`."""

        def hand_over(stack: SceneStack) -> None:
            self.attach(stack)
            go()

        return hand_over

    @property
    def stack(self) -> SceneStack:
        """The stack the router drives (attached by the first routed hand-over)."""
        if self._stack is None:
            raise RuntimeError("the router has no scene stack yet (no routed hand-over has run)")
        return self._stack

    def push(self, name: str, **args: Any) -> Scene:
        """Build scene `name` from `args` and put it on top (the old top pauses); returns it."""
        scene = self.build(name, **args)
        self.stack.push(scene)
        return scene

    def replace(self, name: str, **args: Any) -> Scene:
        """Build scene `name` from `args` and swap it for the top scene (which exits); returns it."""
        scene = self.build(name, **args)
        self.stack.replace(scene)
        return scene

    def pop(self, count: int = 1) -> None:
        """Remove the `count` top scenes, top first (each exits; the one left on top resumes)."""
        for _ in range(count):
            self.stack.pop()

    def pop_to(self, name: str) -> None:
        """Remove every scene above the topmost scene built as `name` (counted now: stack changes are
        deferred while the stack dispatches, so the number of pops is fixed up front)."""
        scenes = self.stack.scenes
        index = next((i for i in range(len(scenes) - 1, -1, -1) if self._names.get(scenes[i]) == name), None)
        if index is None:
            raise LookupError(f"no {name!r} scene on the stack")
        self.pop(len(scenes) - 1 - index)
