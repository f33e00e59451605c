"""`artificer play`: the window, and how its scenes hand over during a run.

The flow: title → New run → the lab before wave 1 → the arena. After each
cleared wave the arena calls its intermission, which pushes the shop (the lab
one click away from it); when the player goes on, the shop (and the lab, if
open) pop and the arena resumes with the next wave. Death, abandoning or
the last wave show the summary, which returns to the title.

The run's loop itself is `artificer.game.flow.RunFlow` (the one the headless
runner drives): each arena plays one flow, made with `_write` as its save hook;
the shop opens it (`open_shop`: settled, the shop open, saved), every change in
the shop or its lab saves through it (`save`), and leaving begins the next wave
(`leave_shop`); Abandon and Save and quit end it (`abandon`).

The scenes are wired by name (`artificer.ui.router.SceneRouter`, as Tuxemon
does): `GameScenes` registers the scenes a run hands over — "title", "lab",
"arena" and "shop" — with the factories that build them, and each hand-over is
one of its methods — `new_run`, `first_wave`, `continue_saved`, `open_lab`,
`leave_shop`, `quit_from_shop`, `back_to_title`, `start_at` — that pushes,
replaces or pops scenes by name. Every other scene declares itself in its own
module (`artificer.ui.scene_registry`: "settings", and whatever the title's
menu opens next): the router learns them all from `SCENES`, built from the
session and the content, so adding one does not change this module.

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
from dataclasses import dataclass

from artificer import storage
from artificer.content import Content, load_content
from artificer.game import save
from artificer.game.flow import RunFlow
from artificer.game.meta import load_meta
from artificer.game.onboarding import Onboarding, new_run_step
from artificer.game.replay import Pilot, Tape, go_on_recording, record
from artificer.game.run import Run, WandCannotFire
from artificer.ui import i18n
from artificer.ui import settings as settings_file
from artificer.ui.app import App
from artificer.ui.controls import Controls
from artificer.ui.i18n import tr
from artificer.ui.router import SceneRouter
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.scene_registry import SCENES, SceneKit
from artificer.ui.scenes.arena import ArenaScene, Intermission
from artificer.ui.scenes.lab import LabScene
from artificer.ui.scenes.shop import ShopScene
from artificer.ui.scenes.title import TitleScene
from artificer.ui.session import Session
from artificer.ui.sound import SoundBank

#: How long the first shop of a continued run shows what the save held that this version lacks.
DROPPED_NOTICE_SECONDS = 8.0

#: The scenes a run hands over, wired here (the declared ones register themselves: `SCENES`).
TITLE, LAB, ARENA, SHOP = "title", "lab", "arena", "shop"


@dataclass(frozen=True)
class Watch:
    """`play --replay FILE`: the window opens watching `tape` (the title underneath)."""

    tape: Tape


@dataclass(frozen=True)
class StartAt:
    """`play --start-wave N`: `run` stands before wave `wave` (the bot played the waves before it)."""

    run: Run
    wave: int


def dropped_notice(loaded: save.LoadedRun) -> str:
    """The player's message about the ids a continued save held that the content no longer has."""
    return tr("ui.title.save_dropped", file=save.RUN_FILE, items=loaded.dropped_items(), gold=loaded.refunded)


def problem_notice(problem: save.SaveProblem) -> str:
    """The player's message about a save that could not be used: the file kept aside, and why."""
    return tr("ui.title.save_problem", file=problem.kept_as or save.RUN_FILE, reason=problem.shown_reason)


def _write(run: Run, next_wave: int) -> object:
    """R-SAVE-1: the run written as it stands in the shop (an atomic write: a failed one leaves the old
    file whole); the shop toasts an OSError, the log keeps it. Its replay goes with it (the shop's
    moves so far: Continue goes on recording from there)."""
    try:
        save.write_run(run, next_wave)
    except OSError as error:
        logging.getLogger(__name__).warning("the run could not be saved: %s", error)
        raise
    if run.tape is not None:
        run.tape.write_or_log()
    return None


class GameScenes:
    """The window's scenes by name over one router, and the run's hand-overs between them."""

    def __init__(self, content: Content, session: Session | None = None) -> None:
        self.content = content
        self.session = session if session is not None else Session.default()
        self.router = SceneRouter()
        self.router.register(TITLE, self._title)
        self.router.register(LAB, self._lab)
        self.router.register(ARENA, self._arena)
        self.router.register(SHOP, self._shop)
        SCENES.register_all(self.router, SceneKit(self.session, content))
        self._title_scene: TitleScene | None = None

    # --- the scenes, by name ---------------------------------------------------------------

    def _title(self, notices: tuple[str, ...] = ()) -> TitleScene:
        """The "title" scene: New run, Continue (greyed without a save), the declared scenes' lines
        (Settings), Quit; those lines open their scenes through this router."""
        go = self.router.routed
        self._title_scene = TitleScene(
            on_new_run=go(self.new_run),
            on_continue=go(self.continue_saved),
            on_new_run_ng_plus=self._new_run_ng_plus,
            on_new_run_cursed=go(lambda: self.new_run(cursed=True)),
            on_practice=self._practice,
            milestones=[milestone.wave for milestone in self.content.balance.meta.milestones],
            settings=self.session.settings,
            sound_bank=self.session.sound,
            controls=self.session.controls,
            notices=notices,
            router=self.router,
        )
        return self._title_scene

    def _lab(self, run: Run, wave: int = 1, flow: RunFlow | None = None) -> LabScene:
        """The "lab" scene: before wave 1 (Start wave swaps it for the arena) or, with the shop's `flow`, from
        the shop (Start wave leaves the lab and the shop; every edit saves the run, R-SAVE-1); Back
        pops it."""
        go = self.router.routed
        if flow is None:
            return LabScene(run, 1, on_start_wave=go(lambda: self.first_wave(run)), on_back=go(self.router.pop),
                            session=self.session)  # fmt: skip
        shop_flow = flow
        lab = LabScene(run, shop_flow.number, on_start_wave=go(lambda: self.leave_shop(shop_flow, scenes=2)),
                       on_back=go(self.router.pop), session=self.session)  # fmt: skip

        def edited() -> None:
            try:
                shop_flow.save()
            except OSError as error:
                lab.toasts.show(tr("ui.shop.save_failed", error=str(error)))

        lab.on_change = edited
        return lab

    def _arena(
        self,
        run: Run | None = None,
        first_wave: int = 1,
        between_waves: bool = False,
        notices: tuple[str, ...] = (),
        pilot: Pilot | None = None,
    ) -> ArenaScene:
        """The "arena" scene: plays `run` from `first_wave` (`between_waves`: a continued run, the shop first);
        after each cleared wave, the shop; the summary leaves for the title. The arena plays a
        `RunFlow` saving through `_write` — a practice run (R-END-5) saves nothing, so the run in
        progress the player may have (run.json) stays for Continue. `pilot`: a replay watched (no
        shop, no save; the title when it ends)."""
        if pilot is not None:
            return ArenaScene(
                self.content, pilot=pilot, on_quit=self.router.routed(self.back_to_title), session=self.session
            )
        assert run is not None
        hook = None if run.state.practice else _write
        flow = (
            RunFlow.continued(run, first_wave, save=hook)
            if between_waves
            else RunFlow(run, first_wave=first_wave, save=hook)
        )
        return ArenaScene(
            self.content,
            flow=flow,
            on_quit=self.router.routed(self.back_to_title),
            intermission=self._intermission(notices),
            session=self.session,
            resume_between_waves=between_waves,
            on_endless=None if run.state.practice else self._endless,
        )

    def _intermission(self, notices: tuple[str, ...]) -> Intermission:
        """Between waves: the shop; `notices` go to the first one only (a continued run's)."""
        pending = list(notices)

        def between_waves(stack: SceneStack, flow: RunFlow) -> None:
            self.router.attach(stack)
            self.router.push(SHOP, flow=flow, notices=tuple(pending))
            pending.clear()

        return between_waves

    def _shop(self, flow: RunFlow, notices: tuple[str, ...] = ()) -> ShopScene:
        """The "shop" scene: the shop before `flow`'s next wave (R-SHOP-1), the lab one click away (R-LAB-1),
        saving the run on every change (R-SAVE-1); `notices` are toasted for `DROPPED_NOTICE_SECONDS`.
        The flow opens it: the run settled (its world rebuilt from what the shop's saves will hold),
        the shop open, the run saved (a failed write is toasted)."""
        go = self.router.routed
        shop = ShopScene(
            flow.run,
            flow.number,
            on_open_lab=go(lambda: self.open_lab(flow)),
            on_next_wave=go(lambda: self.leave_shop(flow, scenes=1)),
            on_change=flow.save,
            on_quit=go(lambda: self.quit_from_shop(flow)),
            session=self.session,
            save_on_enter=False,
        )
        try:
            flow.open_shop()
        except OSError as error:  # the shop is open and stays: the player is told, as after any change
            shop.toasts.show(tr("ui.shop.save_failed", error=str(error)))
        for notice in notices:
            shop.toasts.show(notice, DROPPED_NOTICE_SECONDS)
        return shop

    # --- the hand-overs ----------------------------------------------------------------------

    def _new_run_ng_plus(self, stack: SceneStack, level: int) -> None:
        """The title's New Game+ line (R-END-2): a new run at `level`."""
        self.router.attach(stack)
        self.new_run(ng_plus=level)

    def new_run(self, seed: int | None = None, ng_plus: int = 0, cursed: bool = False) -> Run:
        """A new run (at New Game+ `ng_plus`; in cursed waves when `cursed`): the lab before wave 1."""
        # R-META-1: the shop offers what the player unlocked with aether, beyond the base pool.
        meta = load_meta(content=self.content).meta
        seed = secrets.randbits(32) if seed is None else seed
        # R-ONB-1: a plain new run is one of the player's first runs until onboarding is done.
        plain = ng_plus == 0 and not cursed
        step = new_run_step(self.content, meta, self.session.settings.skip_onboarding) if plain else 0
        run = Run(self.content, seed, ng_plus=ng_plus, unlocked=meta.shop_unlocks(), cursed=cursed, onboarding=step)
        record(run, 1, "lab")
        if Onboarding.of(self.content, step).lab:
            self.router.push(LAB, run=run, wave=1)
        else:  # the lab is closed: the preset wand goes straight into wave 1
            save.delete_run_save()
            self.router.push(ARENA, run=run)
        return run

    def _practice(self, stack: SceneStack, wave: int) -> None:
        """The title's Practice line (R-END-5)."""
        self.router.attach(stack)
        self.practice(wave)

    def practice(self, wave: int, seed: int | None = None) -> Run:
        """R-END-5: a practice run from milestone `wave`: the starting wand, the milestone's gold and
        the shop before that wave first (its lab a click away); it keeps no progress and saves nothing
        (a saved run stays for Continue)."""
        milestone = next((m for m in self.content.balance.meta.milestones if m.wave == wave), None)
        if milestone is None:
            raise ValueError(f"no milestone at wave {wave}: practice starts at one")
        unlocked = load_meta(content=self.content).meta.shop_unlocks()
        run = Run(self.content, secrets.randbits(32) if seed is None else seed, unlocked=unlocked)
        run.state.practice = True
        run.state.first_wave = wave
        run.currency = milestone.practice_gold
        record(run, wave, "cleared")
        self.router.push(ARENA, run=run, first_wave=wave, between_waves=True)
        return run

    def first_wave(self, run: Run) -> None:
        """The lab's Start wave before wave 1: the arena takes its place; the new run is the run in
        progress now, so the old save goes."""
        save.delete_run_save()
        self.router.replace(ARENA, run=run)

    def continue_saved(self) -> None:
        """Continue: the saved run goes on at the shop before its next wave, the arena underneath; a
        save that cannot be used is set aside and the title says why (R-SAVE-1)."""
        loaded = save.load_run(self.content)
        if isinstance(loaded, save.LoadedRun):
            go_on_recording(loaded)
            # R-META-1: what was unlocked since the run was saved is offered too.
            loaded.run.shop.unlock(sorted(load_meta(content=self.content).meta.shop_unlocks()))
            notices = (dropped_notice(loaded),) if loaded.dropped else ()
            self.router.push(ARENA, run=loaded.run, first_wave=loaded.next_wave, between_waves=True, notices=notices)
        elif loaded is not None and self._title_scene is not None:
            # R-SAVE-1: the file is set aside as run.json.corrupt (the toast says why); Continue greys out.
            self._title_scene.toast(problem_notice(loaded))

    def open_lab(self, flow: RunFlow) -> None:
        """The shop's Lab: the lab over the shop."""
        self.router.push(LAB, run=flow.run, flow=flow)

    def leave_shop(self, flow: RunFlow, scenes: int) -> None:
        """Next wave from the shop (`scenes` 1) or its lab (2): the flow settles the run (as Continue
        from the file would play it) and begins the next wave, which the arena underneath plays as
        it resumes. A wand that cannot fire (R-VM-2; the shop and the lab refuse it first) stays."""
        try:
            flow.leave_shop()
        except WandCannotFire:
            return
        self.router.pop(scenes)

    def quit_from_shop(self, flow: RunFlow) -> None:
        """Save and quit from the shop: the run's flow ends (its save stays for Continue), and the
        arena underneath must not begin a wave as the shop pops on the way to the title."""
        flow.abandon()
        for scene in self.router.stack.scenes:
            if isinstance(scene, ArenaScene) and scene.flow is flow:
                scene.between_waves = False
        self.back_to_title()

    def _endless(self, stack: SceneStack, run: Run) -> None:
        """R-END-3: the victory summary's "go on": the run, its victory settled, goes on past the last
        wave — the shop before it first, as a continued run's."""
        self.router.attach(stack)
        run.state.go_endless(settled=run.state.settled)
        self.router.pop_to(TITLE)
        self.router.push(ARENA, run=run, first_wave=len(self.content.waves) + 1, between_waves=True)

    def back_to_title(self) -> None:
        """Leave everything above the title (the summary, the arena, the shop…)."""
        self.router.pop_to(TITLE)

    def watch(self, tape: Tape) -> None:
        """`play --replay`: the arena flies the run on `tape` (`Pilot`), wave after wave; leaving it, or
        its end, returns to the title."""
        self.router.push(ARENA, pilot=Pilot(self.content, tape))

    def start_at(self, start: StartAt) -> None:
        """Hands `start.run` over before wave `start.wave`: the lab before wave 1, or the shop before a
        later wave (the lab one click away) over the arena, as a continued run would. Like a new run,
        its first wave (or the shop's save) replaces the run in progress on disk."""
        record(start.run, start.wave, "lab" if start.wave == 1 else "cleared")
        if start.wave == 1:
            self.router.push(LAB, run=start.run, wave=1)
        else:
            self.router.push(ARENA, run=start.run, first_wave=start.wave, between_waves=True)


class _HandOver(Scene):
    """The first scene of a developers' start: at once the title, with the run handed over on
    top of it (so leaving the run returns to the title, as always)."""

    def __init__(self, scenes: GameScenes, notices: tuple[str, ...], start: StartAt | Watch) -> None:
        self.scenes = scenes
        self.notices = notices
        self.start = start

    def on_enter(self, stack: SceneStack) -> None:
        self.scenes.router.attach(stack)
        self.scenes.router.replace(TITLE, notices=self.notices)
        if isinstance(self.start, Watch):
            self.scenes.watch(self.start.tape)
        else:
            self.scenes.start_at(self.start)


def first_scene(
    content: Content,
    session: Session | None = None,
    notices: tuple[str, ...] = (),
    start: StartAt | Watch | None = None,
) -> Scene:
    """The window's first scene: the title, or (`start`) the title with a run handed over on top.
    meta.json is read here first (R-SAVE-1): a file set aside, or restored from its backup, says so
    on the title."""
    scenes = GameScenes(content, session)
    meta_notice = load_meta(content=content).notice  # R-SAVE-2: ids the content lost, dropped and said
    notices = (*notices, meta_notice) if meta_notice else notices
    return scenes.router.build(TITLE, notices=notices) if start is None else _HandOver(scenes, notices, start)


def title_scene(content: Content, session: Session | None = None, notices: tuple[str, ...] = ()) -> TitleScene:
    """The title of a new set of routed scenes (what `play` opens on)."""
    title = GameScenes(content, session).router.build(TITLE, notices=notices)
    assert isinstance(title, TitleScene)
    return title


def play(max_frames: int | None = None, start: StartAt | Watch | None = None) -> int:
    """Opens the game's window; returns the frames rendered. `start`: a run to hand over before
    one of its waves, or a replay to watch, instead of beginning at the title (the title stays
    underneath)."""
    content = start.run.content if isinstance(start, StartAt) else load_content()
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
