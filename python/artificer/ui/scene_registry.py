"""Scenes that declare themselves: what a scene is, said once in its own module.

A scene module puts `declare(name, title=…)` on the factory that builds its
scene, `factory(kit, **args) -> Scene`: `name` is its router name, and a
`TitleEntry` (an i18n key, a place among the title's lines, whether it needs a
saved run) makes the title's menu open it. The window learns every declared
scene without a hand-kept list: `declarations()` imports each module of the
registry's package (`artificer.ui.scenes`, sorted by module name, once) and
returns what they declared, in that order; `register_all(router, kit)`
registers each under its name with `kit` bound. So adding a scene reachable
from the title touches its module (and its test and strings), not
`artificer.ui.play` nor the title (issue 14).

This module owns `SceneKit` (what a declared factory builds from: the session
and the content), `TitleEntry`, `SceneDeclaration` and `SceneRegistry`;
`SCENES` is the game's registry and `declare` its decorator. The scenes a run
hands over (lab, arena, shop, and the title that starts runs) stay wired in
`artificer.ui.play`, where the run's flow is.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from artificer.ui.router import SceneRouter
from artificer.ui.scene import Scene
from artificer.ui.session import Session

if TYPE_CHECKING:
    from artificer.content import Content

#: A declared scene's factory: `factory(kit, **args)`.
DeclaredFactory = Callable[..., Scene]
F = TypeVar("F", bound=DeclaredFactory)


@dataclass(frozen=True)
class SceneKit:
    """What every declared scene may be built from: the session (settings, controls, sound) and the content."""

    session: Session
    content: Content


@dataclass(frozen=True)
class TitleEntry:
    """A line of the title's menu that opens a declared scene.

    `key` is its label's i18n key; lines stand by `order`, lowest first (the
    title's own places are `artificer.ui.scenes.title.NEW_RUN`, `CONTINUE` and
    `QUIT`; no two lines share one); `needs_run_save`: greyed ("no saved run")
    while no run is saved; `needs_a_finished_run`: not shown until a first run has
    ended (meta.json's runs; R-ONB-1: a first run's title stays simple).
    """

    key: str
    order: int
    needs_run_save: bool = False
    needs_a_finished_run: bool = False


@dataclass(frozen=True)
class SceneDeclaration:
    """One declared scene: its router name, its factory, its title entry (None: not on the title) and module."""

    name: str
    factory: DeclaredFactory
    title: TitleEntry | None
    module: str


class SceneRegistry:
    """The scenes the modules of one package declare (`package` None: only those declared directly)."""

    def __init__(self, package: str | None) -> None:
        self.package = package
        self._declared: dict[str, SceneDeclaration] = {}
        self._discovered = package is None

    def declare(self, name: str, *, title: TitleEntry | None = None) -> Callable[[F], F]:
        """The decorator a scene module puts on its factory: `name` builds the scene with
        `factory(kit, **args)`; a name is declared once."""

        def record(factory: F) -> F:
            if name in self._declared:
                raise ValueError(f"a scene is already declared as {name!r} (in {self._declared[name].module})")
            self._declared[name] = SceneDeclaration(name, factory, title, factory.__module__)
            return factory

        return record

    def declarations(self) -> tuple[SceneDeclaration, ...]:
        """Every declared scene, the package's modules imported first (once, sorted by name)."""
        if not self._discovered and self.package is not None:
            package = importlib.import_module(self.package)
            for module in sorted(info.name for info in pkgutil.iter_modules(package.__path__)):
                importlib.import_module(f"{self.package}.{module}")
            self._discovered = True
        return tuple(self._declared.values())

    def title_entries(self) -> tuple[SceneDeclaration, ...]:
        """The declared scenes the title's menu opens, by their entries' order."""
        entries = [declared for declared in self.declarations() if declared.title is not None]
        return tuple(sorted(entries, key=lambda declared: declared.title.order if declared.title else 0))

    def register_all(self, router: SceneRouter, kit: SceneKit) -> None:
        """Register every declared scene with `router` under its name, built from `kit`."""
        for declared in self.declarations():
            router.register(declared.name, partial(declared.factory, kit))


#: The game's scenes: what the modules of `artificer.ui.scenes` declare.
SCENES = SceneRegistry("artificer.ui.scenes")
#: `@declare("credits", title=TitleEntry("ui.title.credits", order=400))` over a scene module's factory.
declare = SCENES.declare
