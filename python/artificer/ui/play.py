"""`artificer play`: the window, and how its scenes hand over during a run.

The flow: title → New run → the lab before wave 1 → the arena. After each
cleared wave the arena calls `intermission`, which pushes the shop (the lab
one click away from it); when the player goes on, the shop (and the lab, if
open) pop and the arena resumes with the next wave. Death, abandoning or
the last wave show the summary, which returns to the title.

Saves (R-SAVE-1): the run is settled (`artificer.game.save`) the moment the
shop opens between waves, and written to run.json as the shop opens and after
every change made in the shop or its lab (`ShopScene(on_change=…)`,
`LabScene(on_change=…)`: `save.write_run`), so quitting there — the window
closed, the process killed, or the shop menu's Save and quit — loses nothing.
Leaving the shop for the next wave settles the run again, so going on plays
exactly as Continue from that file would. The summary deletes the save, and
so does the first wave of a new run. Continue on the title loads the save and
resumes at the shop before the saved next wave, the arena underneath; a save
that cannot be used is set aside as `run.json.corrupt`, the title says so (and
why) in a toast and greys Continue; ids the content no longer has are dropped
from the continued run and its first shop says so (`save.drop_unknown_ids`).

`play()` first removes the temporary files a kill mid-write left
(`storage.remove_stale_temporaries`), loads the settings (a corrupt file is set aside and the
title says so), sets the language, and builds the `Session` (settings,
controls, sound bank) once the window exists.

Developers' start (`artificer play --start-wave N`): `play(start=StartAt(run,
N))` takes a run the headless bot has played through waves 1..N-1
(`artificer.sim.headless.run_until`) and hands it over with the title
underneath: the lab before wave 1 when N is 1, else the shop before wave N
(the lab one click away) over the arena, as a continued run would.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from artificer import storage
from artificer.content import Content, load_content
from artificer.game import save
from artificer.game.run import Run
from artificer.ui import i18n
from artificer.ui import settings as settings_file
from artificer.ui.app import App
from artificer.ui.controls import Controls
from artificer.ui.i18n import tr
from artificer.ui.scene import Scene, SceneStack
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


#: How long the first shop of a continued run shows what the save held that this version lacks.
DROPPED_NOTICE_SECONDS = 8.0


def intermission(session: Session | None, notices: tuple[str, ...] = ()) -> Intermission:
    """Between waves: the shop, with the lab one click away (R-SHOP-1, R-LAB-1), saving the run
    on every change (R-SAVE-1). `notices` are shown as toasts in the first shop (a continued
    run's: what the save held that this version no longer has)."""
    pending = list(notices)

    def between_waves(stack: SceneStack, run: Run, next_wave: int) -> None:
        def write() -> None:
            # R-SAVE-1: an atomic write (a failed one leaves the old file whole); the shop toasts an OSError.
            try:
                save.write_run(run, next_wave)
            except OSError as error:
                logging.getLogger(__name__).warning("the run could not be saved: %s", error)
                raise

        def leave(pops: int) -> Callable[[SceneStack], None]:
            def go_on(stack: SceneStack) -> None:
                save.settle(run, next_wave)  # going on plays as Continue from the file would
                _pop(pops)(stack)

            return go_on

        def open_lab(stack: SceneStack) -> None:
            # From the shop's lab, Start wave leaves the lab and the shop; Back returns to the shop.
            def edited() -> None:
                try:
                    write()
                except OSError as error:
                    lab.toasts.show(tr("ui.shop.save_failed", error=str(error)))

            lab = LabScene(run, next_wave, on_start_wave=leave(2), on_back=_pop(1), session=session, on_change=edited)
            stack.push(lab)

        def quit_to_title(stack: SceneStack) -> None:
            _leave_between_waves(stack, run)
            _back_to_title(stack)

        shop = ShopScene(
            run,
            next_wave,
            on_open_lab=open_lab,
            on_next_wave=leave(1),
            on_change=write,
            on_quit=quit_to_title,
            session=session,
        )
        save.settle(run, next_wave)  # the world rebuilt from what the shop's saves will hold
        stack.push(shop)
        while pending:
            shop.toasts.show(pending.pop(0), DROPPED_NOTICE_SECONDS)

    return between_waves


def _leave_between_waves(stack: SceneStack, run: Run) -> None:
    """Save and quit from the shop: the arena underneath must not begin its next wave as the
    shop pops on the way to the title (it would on resuming between waves)."""
    for scene in stack.scenes:
        if isinstance(scene, ArenaScene) and scene.run is run:
            scene.between_waves = False


def new_run(content: Content, stack: SceneStack, seed: int | None = None, session: Session | None = None) -> Run:
    """A new run: the lab before wave 1; Start wave swaps the lab for the arena."""
    run = Run(content, secrets.randbits(32) if seed is None else seed)
    _lab_before_wave_one(content, stack, run, session)
    return run


def _lab_before_wave_one(content: Content, stack: SceneStack, run: Run, session: Session | None) -> None:
    def start(stack: SceneStack) -> None:
        save.delete_run_save()  # the new run is the run in progress now
        stack.replace(
            ArenaScene(content, run=run, on_quit=_back_to_title, intermission=intermission(session), session=session)
        )

    stack.push(LabScene(run, 1, on_start_wave=start, on_back=_pop(1), session=session))


def continue_run(content: Content, stack: SceneStack, loaded: save.LoadedRun, session: Session | None = None) -> None:
    """A saved run goes on: the arena, between waves, under the shop before the saved next wave;
    the shop says what the save held that this version no longer has (R-SAVE-1)."""
    notices = (dropped_notice(loaded),) if loaded.dropped else ()
    _arena_between_waves(content, stack, loaded.run, loaded.next_wave, session, notices)


def dropped_notice(loaded: save.LoadedRun) -> str:
    """The player's message about the ids a continued save held that the content no longer has."""
    return tr("ui.title.save_dropped", file=save.RUN_FILE, items=loaded.dropped_items(), gold=loaded.refunded)


def problem_notice(problem: save.SaveProblem) -> str:
    """The player's message about a save that could not be used: the file kept aside, and why."""
    return tr("ui.title.save_problem", file=problem.kept_as or save.RUN_FILE, reason=problem.shown_reason)


def _arena_between_waves(
    content: Content,
    stack: SceneStack,
    run: Run,
    next_wave: int,
    session: Session | None,
    notices: tuple[str, ...] = (),
) -> None:
    stack.push(
        ArenaScene(
            content,
            run=run,
            on_quit=_back_to_title,
            intermission=intermission(session, notices),
            first_wave=next_wave,
            session=session,
            resume_between_waves=True,
        )
    )


@dataclass(frozen=True)
class StartAt:
    """`play --start-wave N`: `run` stands before wave `wave` (the bot played the waves before it)."""

    run: Run
    wave: int


def start_at_wave(stack: SceneStack, start: StartAt, session: Session | None = None) -> None:
    """Hands `start.run` to the window before wave `start.wave`: the lab before wave 1, or the
    shop before a later wave (the lab one click away) over the arena. Like a new run, its first
    wave (or the shop's save) replaces the run in progress on disk."""
    content = start.run.content
    if start.wave == 1:
        _lab_before_wave_one(content, stack, start.run, session)
    else:
        _arena_between_waves(content, stack, start.run, start.wave, session)


class _HandOver(Scene):
    """The first scene of a developers' start: at once the title, with the run handed over on
    top of it (so leaving the run returns to the title, as always)."""

    def __init__(self, title: TitleScene, start: StartAt, session: Session) -> None:
        self.title = title
        self.start = start
        self.session = session

    def on_enter(self, stack: SceneStack) -> None:
        stack.replace(self.title)
        start_at_wave(stack, self.start, self.session)


def first_scene(
    content: Content, session: Session | None = None, notices: tuple[str, ...] = (), start: StartAt | None = None
) -> Scene:
    """The window's first scene: the title, or (`start`) the title with a run handed over on top."""
    session = session if session is not None else Session.default()
    title = title_scene(content, session, notices)
    return title if start is None else _HandOver(title, start, session)


def title_scene(content: Content, session: Session | None = None, notices: tuple[str, ...] = ()) -> TitleScene:
    session = session if session is not None else Session.default()

    def on_new_run(stack: SceneStack) -> None:
        new_run(content, stack, session=session)

    def on_continue(stack: SceneStack) -> None:
        loaded = save.load_run(content)
        if isinstance(loaded, save.LoadedRun):
            continue_run(content, stack, loaded, session)
        elif loaded is not None:
            # R-SAVE-1: the file is set aside as run.json.corrupt (the toast says why); Continue greys out.
            title.toast(problem_notice(loaded))

    title = TitleScene(
        on_new_run=on_new_run,
        on_continue=on_continue,
        settings=session.settings,
        sound_bank=session.sound,
        controls=session.controls,
        notices=notices,
    )
    return title


def play(max_frames: int | None = None, start: StartAt | None = None) -> int:
    """Opens the game's window; returns the frames rendered. `start`: a run to hand over before
    one of its waves instead of beginning at the title (the title stays underneath)."""
    content = start.run.content if start is not None else load_content()
    storage.remove_stale_temporaries()  # R-SAVE-1: what a kill in the middle of a write left
    loaded = settings_file.load()  # a corrupt file → settings.json.corrupt and defaults
    settings = loaded.settings
    if loaded.problem:
        logging.getLogger(__name__).warning("%s", loaded.problem)
    i18n.set_language(settings.language.value)

    def make_first_scene() -> Scene:
        # After pygame.init() and the window: the mixer and the gamepads exist now.
        session = Session(settings, Controls(settings), SoundBank(settings))
        notice = loaded.notice()
        return first_scene(content, session, (notice,) if notice else (), start)

    return App(make_first_scene, tick_hz=content.balance.sim.tick_hz, settings=settings).run(max_frames)
