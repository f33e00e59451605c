"""Replays (DESIGN §5, issue 19): a run's input stream, recorded as it is played, and played again
headlessly to check it wave by wave; no pygame.

A `Tape` holds where the run began (`Start`: a new run's settings, or a saved run's whole state),
then per wave what the player did before it (the lab's and shop's moves, `artificer.game.journal`),
a digest of the run as the wave began, every step's controls (move, aim point and aim mode, dash),
the potions drunk and at which step, and the world's state hash as the wave ended. `RunFlow` feeds
the tape of the run it drives (`Run.tape`): the window's runs and the headless bot's alike.

`replay(content, tape)` plays it again through the same `RunFlow`, recording a second tape as it
goes, and compares the two wave by wave: the digest as each wave begins (the shop's and lab's moves
made again gave the same run), the state hash as it ends. Same content, same game, same inputs:
same hashes (R-DET-1); the first wave that differs is named.

The file (`runs/<when>_seed<seed>.replay`, the last `KEEP` kept): JSON, its controls packed (one
column after the other, zlib, base64), with a SHA-256 of the rest, so damage reads as damage, not as
a divergence; the game's version and a hash of the content's rules beside it, so a replay made with
other content or another version says so in one line instead of diverging.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import logging
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from pydantic import ValidationError

from artificer import _core, storage
from artificer.content import Content
from artificer.errors import ArtificerError
from artificer.game.flow import Phase, RunFlow
from artificer.game.journal import Entry, Journal, JournalError
from artificer.game.run import Run, WaveInProgress
from artificer.game.save import LoadedRun, RunSave, restore, snapshot

__all__ = [
    "KEEP",
    "Pilot",
    "Replayed",
    "ReplayError",
    "ReplayMismatch",
    "Start",
    "Tape",
    "WaveTape",
    "content_hash",
    "digest",
    "go_on_recording",
    "read_tape",
    "record",
    "replay",
]

FORMAT: Final = "arcane-artificer replay"
VERSION: Final = 1
SUFFIX: Final = ".replay"
RUNS_DIR: Final = "runs"
#: The replays `runs/` keeps, the most recent (issue 19).
KEEP: Final = 50
#: The biggest replay file read (a 100-wave endless run is a few MB).
MAX_BYTES: Final = 64 * 1024 * 1024
#: Frames a wave may hold (an hour at 60 Hz).
MAX_FRAMES: Final = 216_000
#: The content files that make the game's rules (looks, texts and the bots' builds do not).
RULE_FILES: Final = ("balance", "cores", "enemies", "potions", "relics", "resonance_recipes", "spells", "waves")
NAME = re.compile(r"^\d{4}-\d{2}-\d{2}_\d{6}_seed\d+(?:_\d+)?\.replay$")


class ReplayError(ArtificerError):
    """A replay that cannot be read or played: the message is one line, for the player."""


class ReplayMismatch(ReplayError):
    """A replay made with other content or another version of the game."""


class Diverged(ReplayError):
    """The replay played again did not give what was recorded."""


# --- what the tape holds -------------------------------------------------------------------


@cache
def content_hash(data_dir: Path) -> str:
    """A SHA-256 over the content's rule files (`RULE_FILES` and bosses/), first 16 hex digits."""
    sha = hashlib.sha256()
    files = [data_dir / f"{name}.json" for name in RULE_FILES] + sorted((data_dir / "bosses").glob("*.json"))
    for path in files:
        sha.update(path.relative_to(data_dir).as_posix().encode() + b"\0")
        sha.update(path.read_bytes() if path.exists() else b"")
        sha.update(b"\0")
    return sha.hexdigest()[:16]


def digest(run: Run) -> str:
    """The run between waves, as a save holds it (its state, its shop, what its world carries),
    hashed: two runs with the same digest play the next wave alike."""
    data = {"state": run.state.to_save(), "shop": run.shop.to_save(), "world": run.binding.carried().to_save()}
    return hashlib.sha256(_canonical(data)).hexdigest()[:16]


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode()


@dataclass(frozen=True)
class Start:
    """Where a recorded run began: `new` (a new run's settings; `phase` "lab" before its first
    wave, or "cleared" for a practice run, the shop first) or `save` (a saved run's state, from
    `artificer.game.save.snapshot`: Continue, or a run the bot played up to `play --start-wave`)."""

    kind: str
    wave: int
    phase: str
    digest: str
    settings: dict[str, Any] = field(default_factory=dict)
    save: dict[str, Any] | None = None

    @classmethod
    def of(cls, run: Run, wave: int, phase: str) -> Start:
        """The run as it stands now, before wave `wave` (`phase`: "lab" or "cleared")."""
        state = run.state
        if not state.waves:  # nothing played yet: a new run, made again from its settings
            settings = {
                "seed": state.seed,
                "ng_plus": state.ng_plus,
                "cursed": state.cursed,
                "onboarding": state.onboarding,
                "unlocked": sorted(run.shop.unlocked),
                "endless": state.endless,
                "practice": state.practice,
                "first_wave": state.first_wave,
                "currency": state.currency,
            }
            return cls("new", wave, phase, digest(run), settings=settings)
        return cls("save", wave, phase, digest(run), save=snapshot(run, wave).model_dump(mode="json"))

    def make(self, content: Content) -> Run:
        """The run again, as it stood."""
        if self.kind == "save":
            try:
                save = RunSave.model_validate(self.save, context={"content": content})
            except ValidationError as error:
                raise ReplayError(f"start: the saved run does not fit: {storage.describe(error)[:200]}") from None
            return restore(content, save)
        s = self.settings
        run = Run(
            content,
            s["seed"],
            ng_plus=s["ng_plus"],
            unlocked=s["unlocked"],
            cursed=s["cursed"],
            onboarding=s["onboarding"],
        )
        run.state.endless, run.state.practice, run.state.first_wave = s["endless"], s["practice"], s["first_wave"]
        run.currency = s["currency"]
        return run

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "wave": self.wave, "phase": self.phase, "digest": self.digest}
        data.update({"settings": self.settings} if self.kind == "new" else {"save": self.save})
        return data

    @classmethod
    def from_json(cls, data: Any) -> Start:
        if not isinstance(data, dict):
            raise ReplayError("start: not an object")
        kind, wave, phase, dig = data.get("kind"), data.get("wave"), data.get("phase"), data.get("digest")
        if kind not in ("new", "save") or phase not in ("lab", "cleared"):
            raise ReplayError(f"start: kind {str(kind)[:20]!r} / phase {str(phase)[:20]!r} unknown")
        if type(wave) is not int or not 1 <= wave <= 100_000 or not isinstance(dig, str):
            raise ReplayError("start: its wave or digest is missing")
        if kind == "save":
            save = data.get("save")
            if not isinstance(save, dict):
                raise ReplayError("start: the saved run is missing")
            return cls(kind, wave, phase, dig, save=save)
        settings = data.get("settings")
        types = {"seed": int, "ng_plus": int, "cursed": bool, "onboarding": int, "unlocked": list}
        types |= {"endless": bool, "practice": bool, "first_wave": int, "currency": int}
        if not isinstance(settings, dict) or any(type(settings.get(k)) is not t for k, t in types.items()):
            raise ReplayError("start: the new run's settings are incomplete")
        if not all(isinstance(item, str) for item in settings["unlocked"]):
            raise ReplayError("start: unlocked: not a list of ids")
        return cls(kind, wave, phase, dig, settings=settings)


@dataclass
class WaveTape:
    """One wave: what came before it, the run's digest as it began, its steps' controls and the
    calls made during it (each stamped with the step it came before), and how it ended."""

    wave: int
    before: list[Entry]
    digest: str
    controls: npt.NDArray[np.float32]
    during: list[Entry] = field(default_factory=list)
    #: The world's state hash after the wave ended (None: it did not end on the tape).
    hash: str | None = None
    outcome: str | None = None
    #: The wave's simulated seconds.
    seconds: float = 0.0

    @property
    def frames(self) -> int:
        return len(self.controls)

    def to_json(self) -> dict[str, Any]:
        packed = base64.b64encode(zlib.compress(np.ascontiguousarray(self.controls.T).tobytes(), 9)).decode()
        return {
            "wave": self.wave,
            "before": [entry.to_json() for entry in self.before],
            "digest": self.digest,
            "frames": self.frames,
            "controls": packed,
            "during": [entry.to_json() for entry in self.during],
            "hash": self.hash,
            "outcome": self.outcome,
            "seconds": self.seconds,
        }

    @classmethod
    def from_json(cls, data: Any, index: int) -> WaveTape:
        where = f"waves[{index}]"
        if not isinstance(data, dict):
            raise ReplayError(f"{where}: not an object")
        wave, frames, packed = data.get("wave"), data.get("frames"), data.get("controls")
        if type(wave) is not int or type(frames) is not int or not 0 <= frames <= MAX_FRAMES:
            raise ReplayError(f"{where}: its wave or frame count is missing or out of range")
        if not isinstance(packed, str) or not isinstance(data.get("digest"), str):
            raise ReplayError(f"{where}: its controls or digest are missing")
        width = _core.CONTROLS_WIDTH
        try:
            raw = zlib.decompress(base64.b64decode(packed, validate=True))
        except (binascii.Error, zlib.error, ValueError):
            raise ReplayError(f"{where}: its controls are damaged") from None
        if len(raw) != frames * width * 4:
            raise ReplayError(f"{where}: {len(raw)} bytes of controls for {frames} frames")
        controls = np.frombuffer(raw, dtype=np.float32).reshape(width, frames).T.copy()
        if not np.isfinite(controls).all():
            raise ReplayError(f"{where}: its controls hold a value that is not a number")
        try:
            before = [Entry.from_json(e) for e in _list(data.get("before"), where)]
            during = [Entry.from_json(e) for e in _list(data.get("during"), where)]
        except JournalError as error:
            raise ReplayError(f"{where}: {error}") from None
        if any(e.frame is None or e.frame >= max(frames, 1) for e in during):
            raise ReplayError(f"{where}: a call during the wave names a step it does not have")
        hashed, outcome, seconds = data.get("hash"), data.get("outcome"), data.get("seconds", 0.0)
        if not isinstance(hashed, str):
            raise ReplayError(f"{where}: its end's state hash is missing")
        if not isinstance(seconds, (int, float)) or isinstance(seconds, bool):
            raise ReplayError(f"{where}: its seconds are not a number")
        return cls(wave, before, data["digest"], controls, during, hashed, outcome, float(seconds))


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ReplayError(f"{where}: a list of calls is missing")
    return value


# --- the tape, recording -------------------------------------------------------------------------


class Tape:
    """A run's replay, recorded as it is played (see the module's docstring). `path`: the file it
    is written to by `write` (None: kept in memory, a re-simulation's)."""

    def __init__(self, start: Start, *, game: str, content: str, path: Path | None = None) -> None:
        self.start = start
        self.game = game
        self.content = content
        self.path = path
        self.created = datetime.now(UTC).isoformat(timespec="seconds")
        self.waves: list[WaveTape] = []
        #: Calls made since the last wave began (the shop and lab in progress).
        self.journal = Journal()
        #: How the run ended (None: it goes on).
        self.ending: str | None = None
        #: The controls of the wave being played (its first `journal.frame` rows).
        self._frames = np.zeros((1024, _core.CONTROLS_WIDTH), dtype=np.float32)
        self._packed: dict[int, dict[str, Any]] = {}

    @classmethod
    def begin(cls, run: Run, wave: int, phase: str, *, path: Path | None = None) -> Tape:
        """Starts recording `run` as it stands before wave `wave` (`phase`: "lab" before a new run's
        first wave, "cleared" when the shop comes first) and attaches the tape to it."""
        from artificer import __version__

        tape = cls(Start.of(run, wave, phase), game=__version__, content=content_hash(run.content.data_dir), path=path)
        tape.attach(run)
        return tape

    def attach(self, run: Run) -> None:
        """The tape records `run`: its parts write their journaled calls into it."""
        run.tape = self
        for part in parts(run).values():
            part.journal = self.journal

    # the flow's hooks (artificer.game.flow.RunFlow calls them)

    def wave_begins(self, wave: int, run: Run) -> None:
        """Wave `wave` begins (the run settled, the world not yet started)."""
        self.attach(run)  # the loadout may have been replaced since
        self.waves.append(WaveTape(wave, self.journal.take(), digest(run), self._frames[:0].copy()))
        self.journal.frame = 0

    def frame(self, controls: npt.NDArray[np.float32]) -> None:
        """The controls of the step about to be taken (into a buffer that doubles when full: no
        allocation per step)."""
        step = self.journal.frame
        assert step is not None
        if step == len(self._frames):
            self._frames = np.concatenate([self._frames, np.empty_like(self._frames)])
        self._frames[step] = controls
        self.journal.frame = step + 1

    def wave_ends(self, run: Run, outcome: str, seconds: float) -> None:
        """The wave just ended (`outcome`: won, died, stalled); its world's hash now."""
        current = self.waves[-1]
        current.controls = self._frames[: self.journal.frame or 0].copy()
        current.during = self.journal.take()
        current.hash = f"{run.sim.state_hash():016x}"
        current.outcome, current.seconds = outcome, seconds
        self.journal.frame = None

    def end(self, ending: str) -> None:
        self.ending = ending

    # the file

    @property
    def last_wave(self) -> int | None:
        """The last wave recorded to its end (None: none yet)."""
        ended = [w.wave for w in self.waves if w.hash is not None]
        return ended[-1] if ended else None

    @property
    def seconds(self) -> float:
        """The simulated seconds of every wave recorded to its end."""
        return sum(w.seconds for w in self.waves if w.hash is not None)

    def to_json(self) -> dict[str, Any]:
        """The tape as the file holds it; a wave being played is left out (it has no end yet), the
        calls since the last wave ended are `pending`."""
        waves = []
        for wave in self.waves:
            if wave.hash is None:
                continue
            key = id(wave)
            if key not in self._packed:  # a wave is packed once
                self._packed[key] = wave.to_json()
            waves.append(dict(self._packed[key]))
        pending = [] if self.waves and self.waves[-1].hash is None else self.journal.entries
        body = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "content": self.content,
            "created": self.created,
            "start": self.start.to_json(),
            "waves": waves,
            "pending": [entry.to_json() for entry in pending],
            "ending": self.ending,
        }
        return {**body, "checksum": hashlib.sha256(_canonical(body)).hexdigest()}

    def to_bytes(self) -> bytes:
        return json.dumps(self.to_json(), separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode() + b"\n"

    def write(self) -> None:
        """Writes the tape to its file atomically (nothing when it has none). Raises OSError."""
        if self.path is not None:
            storage.write_atomic(self.path, self.to_bytes())

    def write_or_log(self) -> None:
        """`write`, a failure logged (the window's: the run goes on without its replay's latest)."""
        try:
            self.write()
        except OSError as error:
            logging.getLogger(__name__).warning("the replay %s could not be written: %s", self.path, error)

    @classmethod
    def from_bytes(cls, data: bytes, path: Path | None = None) -> Tape:
        """A tape read back; `ReplayError` (one line) for a file that is not one or is damaged."""
        try:
            doc = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            raise ReplayError("not a replay file (not JSON: truncated or damaged?)") from None
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise ReplayError("not a replay file")
        version = doc.get("version")
        if version != VERSION or type(version) is not int:
            raise ReplayError(f"replay format {str(version)[:12]}: this game reads format {VERSION}")
        checksum = doc.pop("checksum", None)
        if checksum != hashlib.sha256(_canonical(doc)).hexdigest():
            raise ReplayError("the replay file is damaged (its checksum does not match)")
        game, content, created = doc.get("game"), doc.get("content"), doc.get("created")
        if not (isinstance(game, str) and isinstance(content, str) and isinstance(created, str)):
            raise ReplayError("the replay's game version, content hash or date is missing")
        tape = cls(Start.from_json(doc.get("start")), game=game, content=content, path=path)
        tape.created = created
        tape.waves = [WaveTape.from_json(w, i) for i, w in enumerate(_list(doc.get("waves"), "waves"))]
        try:
            tape.journal.entries = [Entry.from_json(e) for e in _list(doc.get("pending"), "pending")]
        except JournalError as error:
            raise ReplayError(f"pending: {error}") from None
        ending = doc.get("ending")
        if ending is not None and not isinstance(ending, str):
            raise ReplayError("ending: not text")
        tape.ending = ending
        return tape


def read_tape(path: Path) -> Tape:
    """The replay at `path`; `ReplayError` for a file that cannot be used (one line)."""
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise ReplayError(f"{path.name}: {size} bytes, more than a replay can hold")
        data = path.read_bytes()
    except OSError as error:
        raise ReplayError(f"{path}: {error.strerror or error}") from None
    return Tape.from_bytes(data, path)


# --- the runs/ folder --------------------------------------------------------------------------


def runs_dir() -> Path:
    return storage.data_dir() / RUNS_DIR


def new_path(seed: int, directory: Path | None = None) -> Path:
    """A fresh replay file's path in `runs/`: the time it began (UTC) and the seed."""
    directory = directory if directory is not None else runs_dir()
    stem = f"{datetime.now(UTC).strftime('%Y-%m-%d_%H%M%S')}_seed{seed}"
    path, n = directory / f"{stem}{SUFFIX}", 1
    while path.exists():
        path, n = directory / f"{stem}_{n}{SUFFIX}", n + 1
    return path


def prune(directory: Path | None = None, keep: int = KEEP, spare: Path | None = None) -> list[Path]:
    """Removes all but the `keep` most recent replays of `directory` (never `spare`, the one being
    recorded); returns the removed. A file that cannot be removed is left."""
    directory = directory if directory is not None else runs_dir()
    try:
        names = sorted(entry.name for entry in directory.iterdir() if NAME.match(entry.name))
    except OSError:
        return []
    removed = []
    for name in names[: max(0, len(names) - keep)]:
        path = directory / name
        if spare is not None and path == spare:
            continue
        try:
            path.unlink()
            removed.append(path)
        except OSError:
            continue
    return removed


def record(run: Run, wave: int, phase: str, directory: Path | None = None) -> Tape:
    """Every played run records its replay: a new file in `directory` (default runs/) for `run` as
    it stands before wave `wave` (`phase` "lab" or "cleared"); the folder keeps the last `KEEP`."""
    path = new_path(run.seed, directory)
    tape = Tape.begin(run, wave, phase, path=path)
    prune(directory, keep=KEEP, spare=path)
    return tape


def go_on_recording(loaded: LoadedRun, directory: Path | None = None) -> Tape:
    """Continue: the run goes on in the replay its save names, when that replay stands where the save
    does (same content and game, not ended, its last wave the save's last); else a new replay
    begins from the saved run. The tape is attached to the run either way."""
    name, run = loaded.save.replay, loaded.run
    if name is not None:
        try:
            tape = read_tape((directory if directory is not None else runs_dir()) / name)
            check_header(run.content, tape)
        except ReplayError as error:
            logging.getLogger(__name__).info("the replay %s cannot go on (%s): a new one begins", name, error)
        else:
            if tape.ending is None and (tape.last_wave or tape.start.wave - 1) == loaded.next_wave - 1:
                tape.attach(run)
                return tape
    return record(run, loaded.next_wave, "cleared", directory)


# --- playing it again ----------------------------------------------------------------------------


@dataclass(frozen=True)
class WaveCheck:
    """One wave played again: its hash recorded and replayed, and whether the run matched as it began."""

    wave: int
    frames: int
    recorded: str | None
    replayed: str | None
    digest_ok: bool
    outcome: str | None
    #: The wave's simulated seconds, recorded and replayed (a record's time rests on them).
    seconds: tuple[float, float] = (0.0, 0.0)

    @property
    def ok(self) -> bool:
        return self.digest_ok and self.recorded == self.replayed and self.seconds[0] == self.seconds[1]

    def as_json(self) -> dict[str, Any]:
        return {
            "wave": self.wave,
            "frames": self.frames,
            "recorded_hash": self.recorded,
            "replayed_hash": self.replayed,
            "start_matches": self.digest_ok,
            "ok": self.ok,
            "outcome": self.outcome,
            "seconds": self.seconds[1],
        }


@dataclass
class Replayed:
    """What `replay` found: each wave checked, the first divergence (None: none), the run replayed."""

    waves: list[WaveCheck]
    diverged: str | None
    run: Run
    seconds: float

    @property
    def verified(self) -> bool:
        return self.diverged is None

    @property
    def wave_reached(self) -> int | None:
        return self.waves[-1].wave if self.waves else None


def check_header(content: Content, tape: Tape) -> None:
    """`ReplayMismatch` (one line) when the tape was made with other content or another version."""
    from artificer import __version__

    if tape.content != content_hash(content.data_dir):
        raise ReplayMismatch(
            f"this replay was made with other content (rules {tape.content}, this game's {content_hash(content.data_dir)})"
        )
    if tape.game != __version__:
        raise ReplayMismatch(f"this replay was made by version {tape.game[:40]} of the game, this is {__version__}")


class Pilot:
    """Flies a run from a tape: the run made again from the tape's start, its flow, and between
    waves and at each step what the tape says the player did. The headless `replay` and the window's
    `play --replay` both fly with it."""

    def __init__(self, content: Content, tape: Tape) -> None:
        self.tape = tape
        self.run = tape.start.make(content)
        self.flow = (
            RunFlow(self.run, first_wave=tape.start.wave)
            if tape.start.phase == "lab"
            else RunFlow.continued(self.run, tape.start.wave)
        )
        #: The tape's wave being flown (an index into `tape.waves`; past the end: done).
        self.index = 0
        self._step = 0
        self._during: list[Entry] = []

    @property
    def recorded(self) -> WaveTape | None:
        """The tape's wave to fly next or being flown (None: the tape is over)."""
        return self.tape.waves[self.index] if self.index < len(self.tape.waves) else None

    @property
    def done(self) -> bool:
        return self.recorded is None

    def before_wave(self) -> None:
        """Between waves (the shop opened, if there is one): the moves the player made before the
        tape's next wave. `ReplayError` when the run refuses one, or the flow is not at that wave."""
        recorded = self.recorded
        if recorded is None:
            raise ReplayError("the tape is over")
        flow = self.flow
        if flow.phase is Phase.OVER:  # R-END-3: a won run went on into endless
            self.flow = flow = RunFlow.continued(self.run, recorded.wave)
        if flow.phase is Phase.CLEARED:
            flow.open_shop()
        _calls(self.run, None, recorded.before, f"before wave {recorded.wave}")
        if flow.number != recorded.wave:
            raise Diverged(f"wave {recorded.wave}: the run went on with wave {flow.number}")
        self._step, self._during = 0, list(reversed(recorded.during))

    def begin_wave(self) -> WaveInProgress:
        """`before_wave`, then the wave begins (the flow's way: from the lab or leaving the shop)."""
        self.before_wave()
        flow = self.flow
        return flow.begin_wave() if flow.phase is Phase.LAB else flow.leave_shop()

    def steer(self, wave: WaveInProgress) -> bool:
        """This step's controls into the run's input, and the calls made before it (a potion);
        False when the tape holds no more steps of this wave (then nothing is set)."""
        recorded = self.recorded
        if recorded is None or self._step >= recorded.frames:
            return False
        while self._during and self._during[-1].frame == self._step:
            _calls(self.run, wave, [self._during.pop()], f"wave {recorded.wave}, step {self._step}")
        self.run.sim.input.controls[:] = recorded.controls[self._step]
        self._step += 1
        return True

    def wave_ended(self) -> None:
        """The flown wave is over: on to the tape's next."""
        self.index += 1


def replay(
    content: Content,
    tape: Tape,
    *,
    on_wave: Callable[[WaveCheck], object] | None = None,
) -> Replayed:
    """Plays `tape` again headlessly and checks it wave by wave (see the module's docstring); stops
    at the first wave that differs. `ReplayMismatch` first when it was made with other content or
    another version; `ReplayError` for a tape whose calls the run refuses."""
    check_header(content, tape)
    pilot = Pilot(content, tape)
    run = pilot.run
    again = Tape.begin(run, tape.start.wave, tape.start.phase)
    if again.start.digest != tape.start.digest:
        return Replayed([], "the run it starts from differs (start digest)", run, 0.0)
    checks: list[WaveCheck] = []
    while (recorded := pilot.recorded) is not None:
        try:
            wave = pilot.begin_wave()
        except Diverged as error:
            return Replayed(checks, str(error), run, again.seconds)
        while not wave.over and pilot.steer(wave):
            pilot.flow.step()
        if wave.over:
            pilot.flow.end_wave()
        pilot.wave_ended()
        played = again.waves[-1]
        check = WaveCheck(
            recorded.wave,
            recorded.frames,
            recorded.hash,
            played.hash,
            played.digest == recorded.digest,
            played.outcome,
            (recorded.seconds, played.seconds),
        )
        checks.append(check)
        if on_wave is not None:
            on_wave(check)
        if not check.digest_ok:
            return Replayed(
                checks, f"wave {recorded.wave}: the run as it began differs (the shop or lab)", run, again.seconds
            )
        if not check.ok:
            reason = "state hash differs"
            if played.hash is None:
                reason = "did not end where it did"
            elif played.frames < recorded.frames:
                reason = "ended early"
            elif check.seconds[0] != check.seconds[1]:
                reason = f"it lasted {check.seconds[1]:g} s, not the {check.seconds[0]:g} s recorded"
            return Replayed(checks, f"wave {recorded.wave}: {reason}", run, again.seconds)
    return Replayed(checks, None, run, again.seconds)


def parts(run: Run) -> dict[str, Any]:
    """The run's parts by the name a journal entry gives them."""
    return {"run": run, "shop": run.shop, "loadout": run.state.loadout, "belt": run.state.potions, "state": run.state}


def _calls(run: Run, wave: Any, entries: list[Entry], where: str) -> None:
    """Makes the recorded calls again; one the run refuses (or that no journaled method takes)
    is a divergence."""
    for entry in entries:
        target = parts(run)[entry.part]
        method = getattr(type(target), entry.call, None)
        is_use = entry.part == "belt" and entry.call == "use"
        if not is_use and getattr(method, "__wrapped__", None) is None:
            raise ReplayError(f"{where}: {entry.part}.{entry.call} is not a call a replay makes")
        try:
            if is_use:
                index, aim = (entry.args + (None, None))[:2]
                target.use(run, wave, index, None if aim is None else (float(aim[0]), float(aim[1])))
            else:
                getattr(target, entry.call)(*entry.args)
        except (ArtificerError, TypeError, ValueError, KeyError, IndexError) as error:
            raise Diverged(f"{where}: {entry.part}.{entry.call} was refused ({str(error)[:120]})") from None
