"""The run's loop (R-LOOP-1, R-SAVE-1): lab → wave → settle and save → shop → wave → … → its
ending — `RunFlow`, the one loop the window and the headless runner both drive; no pygame.

The flow is in one `Phase` at a time and moves only through its methods; a method called in
another phase raises `FlowError` and changes nothing:

    LAB ──begin_wave()──▶ WAVE ──step()… end_wave()──▶ CLEARED ──open_shop()──▶ SHOP
                           ▲                   │                                  │
                           └───────────────────┼────────── leave_shop() ◀────────┘
                                               └──▶ OVER (died, or the last wave won)
    any phase but OVER ──abandon()──▶ OVER (abandoned)

- `LAB`: before a wave with no shop in between — a new run's lab before wave 1 (or the wave a
  developers' start hands over). `begin_wave()` starts wave `number` (R-VM-2: `WandCannotFire`
  refuses a wand without an action, the phase stays).
- `WAVE`: the caller sets the frame's controls in `run.sim.input` and calls `step()` once per
  tick; `wave.over` says when the timer ran out or the player fell, then `end_wave()`.
- `end_wave()`: `WaveInProgress.finish` (crystals collected, the relic and potion drops); the
  player fell: `OVER` with `Ending.DIED`; the last wave of the content won: `OVER` with
  `Ending.CLEARED`; else `CLEARED`, `number` the next wave.
- `CLEARED`: a won wave, the shop not open yet (the window's breather: the world still shows
  the wave's end). `open_shop()` settles the run (`artificer.game.save.settle`: the world rebuilt
  from what a save holds), opens the shop after the wave won and calls the save hook.
- `SHOP`: between waves; the shop and the lab change the run; `save()` calls the save hook
  after each change (R-SAVE-1: quitting loses nothing). `leave_shop()` settles again (going on
  plays as Continue from the file would) and begins the next wave (`WandCannotFire` refuses a
  wand without an action: the flow stays in the shop).
- `OVER`: `ending` says why; `wave` is the last wave played (the summary reads it).

R-END-2's `game_cleared` event: when the content's last wave is won (its boss felled), `end_wave()`
calls each of `on_game_cleared` once with the run, before it returns (the window's arena counts the
clear in meta.json and unlocks the next NG+ level; a headless run has no listener).

Replays (issue 19): when the run has a tape (`Run.tape`, `artificer.game.replay`), the flow feeds
it — the run's digest as each wave begins, each step's controls, each wave's end and the run's.

Saving is a hook: `save(run, next_wave)`, a callable the window passes (it writes run.json,
`artificer.game.save.write_run`, and raises `OSError` for the window to report); the headless
runner passes none. The flow does no other I/O: the window deletes the save when a new run's
first wave begins and when the summary shows.

Porting the window (ui/play.py's intermission, ui/scenes/arena.py's wave loop) to it:

- New run: `RunFlow(Run(content, seed), save=hook)`; the lab's Start wave → `begin_wave()`.
- Continue, or `play --start-wave N` (N > 1): `RunFlow.continued(run, next_wave, save=hook)`
  stands in `CLEARED` before `next_wave`: call `open_shop()` and show the shop.
- The arena each tick: controls into `run.sim.input`, `step()`; when `wave.over`: the death
  moment if `wave.died`, then `end_wave()`; on `CLEARED` the breather, then `open_shop()` and
  the shop scene; on `OVER` the summary (`ending`).
- The shop and its lab: after every change, `save()`; Next wave → `leave_shop()`, the arena
  plays the wave it returns (on `WandCannotFire` stay in the shop and say so).
- Pause → Abandon: `abandon()`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

from artificer.errors import ArtificerError
from artificer.game.endless import arena_scale, difficulty, mutator
from artificer.game.run import Run, WaveInProgress
from artificer.game.save import settle
from artificer.game.stats import WaveStats

#: The save hook: called with the run and the wave it goes on with (the shop before it comes first).
SaveHook = Callable[[Run, int], object]
#: A `game_cleared` listener (R-END-2): called with the run whose last wave was just won.
ClearedListener = Callable[[Run], object]


class Phase(enum.Enum):
    """Where a run stands (see the module's diagram)."""

    LAB = "lab"
    WAVE = "wave"
    CLEARED = "cleared"
    SHOP = "shop"
    OVER = "over"


class Ending(enum.Enum):
    """How a run ended (R-END-2: the summary)."""

    DIED = "died"
    #: The content's last wave was won.
    CLEARED = "cleared"
    ABANDONED = "abandoned"
    #: A boss fight outlasted `wave.boss.stall_after` (headless; the boss enrages long before).
    STALLED = "stalled"


class FlowError(ArtificerError):
    """A step of the run's loop asked for in a phase that does not allow it; nothing changed."""


class RunFlow:
    """Drives `run` from wave `first_wave` to its ending (see the module's docstring)."""

    def __init__(self, run: Run, *, first_wave: int = 1, save: SaveHook | None = None) -> None:
        self.run = run
        self.phase = Phase.LAB
        #: The wave being played (WAVE), or the one played next (LAB, CLEARED, SHOP); in OVER the
        #: last wave played.
        self.number = first_wave
        #: The wave in progress (WAVE), else the last one played (None before the first).
        self.wave: WaveInProgress | None = None
        #: Why the run ended (OVER), else None.
        self.ending: Ending | None = None
        #: R-END-2 `game_cleared`: called once each, with the run, when its last wave is won.
        self.on_game_cleared: list[ClearedListener] = []
        self._save = save

    @classmethod
    def continued(cls, run: Run, next_wave: int, *, save: SaveHook | None = None) -> RunFlow:
        """A run that stands between waves before `next_wave` (a save continued, or a run the bot
        played up to there): `CLEARED`, so `open_shop()` comes first."""
        flow = cls(run, first_wave=next_wave, save=save)
        flow.phase = Phase.CLEARED
        return flow

    @property
    def last_wave(self) -> int:
        """The last wave: winning it ends the run — the content's, or an endless run's deepest (R-END-3)."""
        content = self.run.content
        return content.balance.endless.max_wave if self.run.state.endless else len(content.waves)

    # --- the wave ------------------------------------------------------------------------------

    def begin_wave(self) -> WaveInProgress:
        """LAB → WAVE: wave `number` begins (`Run.start_wave`; `WandCannotFire` refuses it)."""
        self._require(Phase.LAB)
        return self._begin()

    def step(self) -> None:
        """One tick of the wave (the caller set the controls in `run.sim.input`)."""
        self._require(Phase.WAVE)
        assert self.wave is not None
        if self.wave.over:
            raise FlowError("the wave is over: end_wave() comes next")
        tape = self.run.tape
        if tape is not None:  # the replay: this step's controls (potions drunk are in its journal)
            tape.frame(self.run.sim.input.controls)
        self.wave.step()

    def step_bot(self, tuning: tuple[float, float, float, float, float, float], drink_below: float | None) -> None:
        """`step`, and on in the core with the headless kiting bot up to the next frame the game
        must see (`WaveInProgress.step_bot`, issue 44); not while a replay records (it keeps each
        frame's controls)."""
        self._require(Phase.WAVE)
        assert self.wave is not None
        if self.wave.over:
            raise FlowError("the wave is over: end_wave() comes next")
        if self.run.tape is not None:
            raise FlowError("a replay records every frame's controls: step() frame by frame")
        self.wave.step_bot(tuning, drink_below)

    def end_wave(self) -> WaveStats:
        """WAVE → CLEARED, or OVER (died, or the last wave won): the wave, over, is finished
        (R-LOOP-1: survivors vanish, crystals are collected; the wave's relics and potion).
        Returns its numbers."""
        self._require(Phase.WAVE)
        wave = self.wave
        assert wave is not None
        if not wave.over:
            raise FlowError(f"wave {self.number} is still being played")
        with self._unrecorded():
            stats = wave.finish()
        tape = self.run.tape
        if tape is not None:
            outcome = "died" if wave.died else "won" if wave.won else "stalled"
            tape.wave_ends(self.run, outcome, stats.frames / self.run.sim.tick_hz)
        if wave.died:
            self._end(Ending.DIED)
        elif not wave.won:
            self._end(Ending.STALLED)
        elif self.number >= self.last_wave:
            self._end(Ending.CLEARED)
            for listener in self.on_game_cleared:
                listener(self.run)
        else:
            if self.number == len(self.run.content.waves):  # R-END-3: an endless run cleared the game, goes on
                for listener in self.on_game_cleared:
                    listener(self.run)
            self.number += 1
            self.phase = Phase.CLEARED
        return stats

    # --- between waves ---------------------------------------------------------------------------

    def open_shop(self, *, settled: bool = True) -> None:
        """CLEARED → SHOP: the run settles (its world rebuilt from what a save holds, R-SAVE-1),
        the shop opens after the wave won (R-SHOP-1) and the save hook is called.

        `settled=False` (the headless bot's, issue 44): the world is not rebuilt on the way in,
        only on the way out (`leave_shop`). The next wave plays the same either way — the shop
        reads the world only for its previews, which a rebuild keeps, and leaving rebuilds it
        from the same save (tests/sim/test_headless_frames.py plays whole runs both ways) — and
        the settle was a sixth of a short run's Python."""
        self._require(Phase.CLEARED)
        # R-END-3: the next wave's world — its difficulty, its global mutator, its arena.
        state, content = self.run.state, self.run.content
        active = mutator(content, self.number)
        state.difficulty, state.arena_scale = difficulty(content, self.number), arena_scale(content, self.number)
        state.mutator = active.id if active is not None else None
        with self._unrecorded():
            if settled:
                settle(self.run, self.number)
            self.run.shop.open(max(1, self.number - 1))
        self.phase = Phase.SHOP
        self.save()

    def save(self) -> None:
        """The save hook, now (the window calls it after each change in the shop or its lab)."""
        self._require(Phase.SHOP)
        if self._save is not None:
            self._save(self.run, self.number)

    def leave_shop(self) -> WaveInProgress:
        """SHOP → WAVE: the next wave begins, the run settled first (going on plays as Continue
        from the save would). `WandCannotFire` refuses a wand without an action (R-VM-2) before
        anything changes: the flow stays in the shop."""
        self._require(Phase.SHOP)
        self.run.require_can_fire()
        settle(self.run, self.number)
        return self._begin()

    def abandon(self) -> None:
        """Any phase but OVER → OVER (`Ending.ABANDONED`): the pause menu's Abandon, the shop's quit."""
        if self.phase is Phase.OVER:
            raise FlowError("the run is over already")
        self._end(Ending.ABANDONED)

    # --- internals -------------------------------------------------------------------------------

    def _begin(self) -> WaveInProgress:
        if self.run.tape is not None:  # the replay: the run as the wave begins, and the moves before it
            self.run.tape.wave_begins(self.number, self.run)
        with self._unrecorded():
            state = self.run.state
            if state.next_wave == self.number and self.run.sim.mode != state.world_mode():
                # A fresh run begun past wave 1 (practice, `--start-wave`): its world made for that
                # wave's enemies (R-WAVE-1's HP and damage), as a shop's settle would have.
                settle(self.run, self.number)
            self.wave = self.run.start_wave(self.number)
        self.phase = Phase.WAVE
        return self.wave

    def _unrecorded(self) -> AbstractContextManager[None]:
        """The flow's own calls into the run (a wave's start closes the shop): not the player's moves,
        so not on the replay (a replay's flow makes them itself)."""
        tape = self.run.tape
        return tape.journal.paused() if tape is not None else nullcontext()

    def _end(self, ending: Ending) -> None:
        self.ending = ending
        # The replay's ending; an abandon is the window's to say (quitting from the shop keeps the run).
        if self.run.tape is not None and ending is not Ending.ABANDONED:
            self.run.tape.end(ending.value)
        self.phase = Phase.OVER

    def _require(self, phase: Phase) -> None:
        if self.phase is not phase:
            raise FlowError(f"the run is in {self.phase.value}, not {phase.value}")
