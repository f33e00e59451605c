"""`artificer play`: the window, and how its scenes hand over during a run.

The flow: title → New run → the lab before wave 1 → the arena. After each
cleared wave the arena calls `intermission`, which pushes the shop (the lab
one click away from it); when the player goes on, the shop (and the lab, if
open) pop and the arena resumes with the next wave. Death, abandoning or
the last wave show the summary, which returns to the title.

Saves (R-SAVE-1): the run is saved (and settled, `artificer.game.save`) the
moment the shop opens between waves; the summary deletes the save, and so
does the first wave of a new run. Continue on the title loads the save and
resumes at the shop before the saved next wave, the arena underneath; a save
that cannot be used is set aside as `run.json.corrupt`, the title says so in
a toast and greys Continue.

`play()` loads the settings first (a corrupt file is set aside and the
title says so), sets the language, and builds the `Session` (settings,
controls, sound bank) once the window exists.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable

from artificer.content import Content, load_content
from artificer.game import save
from artificer.game.run import Run
from artificer.ui import i18n
from artificer.ui import settings as settings_file
from artificer.ui.app import App
from artificer.ui.controls import Controls
from artificer.ui.i18n import tr
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene, Intermission
from artificer.ui.scenes.lab import LabScene
from artificer.ui.scenes.shop import ShopScene
from artificer.ui.scenes.title import TitleScene
from artificer.ui.session import Session
from artificer.ui.sound import SoundBank


def _back_to_title(stack: SceneStack) -> None:
    """From the run summary: leave the arena (and the summary) for the title.
    (Stack changes are deferred until the current event is handled, so the
    number of pops is fixed up front.)"""
    for _ in range(len(stack) - 1):
        stack.pop()


def _pop(count: int) -> Callable[[SceneStack], None]:
    def pop(stack: SceneStack) -> None:
        for _ in range(count):
            stack.pop()

    return pop


def intermission(session: Session | None) -> Intermission:
    """Between waves: the shop, with the lab one click away (R-SHOP-1, R-LAB-1)."""

    def between_waves(stack: SceneStack, run: Run, next_wave: int) -> None:
        def open_lab(stack: SceneStack) -> None:
            # From the shop's lab, Start wave leaves the lab and the shop; Back returns to the shop.
            stack.push(LabScene(run, next_wave, on_start_wave=_pop(2), on_back=_pop(1), session=session))

        shop = ShopScene(run, next_wave, on_open_lab=open_lab, on_next_wave=_pop(1))
        try:
            # R-SAVE-1: the run is saved as the shop opens (a failed write leaves the old file whole).
            save.save_run(run, next_wave)
        except OSError as error:
            logging.getLogger(__name__).warning("the run could not be saved: %s", error)
            shop.toasts.show(tr("ui.shop.save_failed", error=str(error)))
        stack.push(shop)

    return between_waves


def new_run(content: Content, stack: SceneStack, seed: int | None = None, session: Session | None = None) -> Run:
    """A new run: the lab before wave 1; Start wave swaps the lab for the arena."""
    run = Run(content, secrets.randbits(32) if seed is None else seed)

    def start(stack: SceneStack) -> None:
        save.delete_run_save()  # the new run is the run in progress now
        stack.replace(ArenaScene(content, run=run, on_quit=_back_to_title, intermission=intermission(session), session=session))

    stack.push(LabScene(run, 1, on_start_wave=start, on_back=_pop(1), session=session))
    return run


def continue_run(content: Content, stack: SceneStack, loaded: save.LoadedRun, session: Session | None = None) -> None:
    """A saved run goes on: the arena, between waves, under the shop before the saved next wave."""
    stack.push(
        ArenaScene(
            content,
            run=loaded.run,
            on_quit=_back_to_title,
            intermission=intermission(session),
            first_wave=loaded.next_wave,
            session=session,
            resume_between_waves=True,
        )
    )


def title_scene(content: Content, session: Session | None = None, notices: tuple[str, ...] = ()) -> TitleScene:
    session = session if session is not None else Session.default()

    def on_new_run(stack: SceneStack) -> None:
        new_run(content, stack, session=session)

    def on_continue(stack: SceneStack) -> None:
        loaded = save.load_run(content)
        if isinstance(loaded, save.LoadedRun):
            continue_run(content, stack, loaded, session)
        elif loaded is not None:
            # R-SAVE-1: the file is set aside as run.json.corrupt; Continue greys out.
            title.toast(tr("ui.title.save_problem", file=loaded.kept_as))

    title = TitleScene(
        on_new_run=on_new_run,
        on_continue=on_continue,
        settings=session.settings,
        sound_bank=session.sound,
        controls=session.controls,
        notices=notices,
    )
    return title


def play(max_frames: int | None = None) -> int:
    """Opens the game's window; returns the frames rendered."""
    content = load_content()
    loaded = settings_file.load()  # a corrupt file → settings.json.corrupt and defaults
    settings = loaded.settings
    if loaded.problem:
        logging.getLogger(__name__).warning("%s", loaded.problem)
    i18n.set_language(settings.language.value)

    def first_scene() -> TitleScene:
        # After pygame.init() and the window: the mixer and the gamepads exist now.
        session = Session(settings, Controls(settings), SoundBank(settings))
        notice = loaded.notice()
        return title_scene(content, session, (notice,) if notice else ())

    return App(first_scene, settings=settings).run(max_frames)
