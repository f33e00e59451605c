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

Replays are shared between players, so a file is hostile until read (R-SAVE-2): `read_tape` reads
only a regular file (a FIFO, device, directory or dangling link is refused and left as it was), at
most `MAX_BYTES`, and `Tape.from_bytes` refuses, in one line naming the JSON path and the reason,
before a frame is played: text that is not strict JSON (NaN, Infinity, an integer of more than
`storage.MAX_INT_DIGITS` digits, a key twice, nesting deeper than `storage.MAX_DEPTH`, more JSON
values than `balance.json` `replay.max_frames`), a damaged checksum, a field of the wrong type or
out of the range a save gives it (`RunSave`'s), more frames in all than `replay.max_frames`,
controls that inflate past the bytes their frames hold (inflated a chunk at a time, never whole: a
zlib bomb stops at the bound) or hold a value that is not a number, a call no journaled method
takes; and, with the content the replay was made with (`validate`, also run by `check_header`), an
NG+ level above `ng_plus.max_level` and a spell or core id the content does not have. A wave's
controls are held packed until they are played (`WaveTape.controls`): describing a replay never
unpacks them.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import inspect
import json
import logging
import math
import os
import re
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from pydantic import ValidationError, create_model

from artificer import _core, storage
from artificer.content import Content
from artificer.errors import ArtificerError
from artificer.game.flow import Ending, Phase, RunFlow
from artificer.game.journal import Entry, Journal, JournalError
from artificer.game.loadout import Loadout, Place
from artificer.game.potions import PotionBelt
from artificer.game.run import Run, WaveInProgress
from artificer.game.save import MAX_WAVES, LoadedRun, RunSave, SaveModel, ShopSave, restore, snapshot
from artificer.game.shop import Shop
from artificer.game.state import RunState

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
    "validate",
]

FORMAT: Final = "arcane-artificer replay"
VERSION: Final = 1
SUFFIX: Final = ".replay"
RUNS_DIR: Final = "runs"
#: The replays `runs/` keeps, the most recent (issue 19).
KEEP: Final = 50
#: The biggest replay file read (a 100-wave endless run is a few MB).
MAX_BYTES: Final = 64 * 1024 * 1024
#: Bytes of a wave's controls inflated at a time (checked, then dropped or copied into place).
INFLATE_CHUNK: Final = 1 << 20
#: The content files that make the game's rules (looks, texts and the bots' builds do not).
RULE_FILES: Final = ("balance", "cores", "enemies", "potions", "relics", "resonance_recipes", "spells", "waves")
NAME = re.compile(r"^\d{4}-\d{2}-\d{2}_\d{6}_seed\d+(?:_\d+)?\.replay$")
#: A digest, a state hash, a content hash: 16 hex digits.
HEX16 = re.compile(r"^[0-9a-f]{16}$")
#: The game's version, the date made, a wave's outcome and a run's ending, as the game writes them.
GAME_VERSION = re.compile(r"^[0-9A-Za-z.+_-]{1,64}$")
CREATED = re.compile(r"^[0-9A-Za-z:+.-]{1,40}$")
WORD = re.compile(r"^[a-z][a-z_]{0,31}$")
#: A new run's settings on the tape (`Start.of`): each field's type and range as `RunSave` and
#: `ShopSave` give it (R-SAVE-1), the NG+ level and unlock ids checked against the content after.
SETTINGS_FIELDS: Final = ("seed", "ng_plus", "cursed", "onboarding", "endless", "practice", "first_wave", "currency")


def _field(model: type[SaveModel], name: str) -> tuple[Any, Any]:
    """`model`'s field `name` (its type and its `Field`: range, strictness), for another model."""
    info = model.model_fields[name]
    return info.annotation, info


_SETTINGS: dict[str, Any] = {"unlocked": _field(ShopSave, "unlocked")}
_SETTINGS |= {name: _field(RunSave, name) for name in SETTINGS_FIELDS}
NewRunSettings = create_model("NewRunSettings", __base__=SaveModel, **_SETTINGS)
#: A saved run's seed, read before the content can check the rest (what `describe` shows).
SavedSeed = create_model("SavedSeed", seed=_field(RunSave, "seed"))
#: The run's parts by the name a journal entry gives them (`parts` gives a run's objects).
PART_TYPES: Final[dict[str, type]] = {
    "run": Run,
    "shop": Shop,
    "loadout": Loadout,
    "belt": PotionBelt,
    "state": RunState,
}


class ReplayError(ArtificerError):
    """A replay that cannot be read or played: the message is one line, for the player."""


class ReplayMismatch(ReplayError):
    """A replay made with other content or another version of the game."""


class Diverged(ReplayError):
    """The replay played again did not give what was recorded."""


# --- reading a shared file -------------------------------------------------------------------


@cache
def shipped_content() -> Content:
    """The game's own content: what a replay read without other content is held to."""
    from artificer.content import load_content

    return load_content()


class _NotNumber(float):
    """NaN, Infinity or -Infinity in a replay's text (not JSON): read as NaN, then refused at its
    JSON path (`_check_values`)."""

    token: str

    def __new__(cls, token: str) -> _NotNumber:
        value = super().__new__(cls, "nan")
        value.token = token
        return value


def _parse_int(text: str) -> int | float:
    return storage.HugeInt(text) if len(text) > storage.MAX_INT_DIGITS else int(text)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise ReplayError(f"not a replay file (the key {_shown(key)} appears twice in one object)")
        found[key] = value
    return found


def _parse(data: bytes, max_values: int) -> Any:
    """`data` as strict JSON; `ReplayError` (one line) saying why not. Before parsing, the values it
    can hold are counted (each but the first follows a comma, a colon or a bracket), at most
    `max_values`: JSON's own objects cost a hundred times their bytes, so a file of `[],[],…` is
    refused before it is built."""
    marks = data.count(b",") + data.count(b":") + data.count(b"[") + 1
    if marks > max_values:
        raise ReplayError(
            f"not a replay file (up to {marks} JSON values, more than the {max_values} a replay may hold: "
            "balance.json replay.max_frames)"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ReplayError(
            f"not a replay file (not UTF-8 text: byte 0x{data[error.start]:02x} at offset {error.start})"
        ) from None
    try:
        return json.loads(text, parse_int=_parse_int, parse_constant=_NotNumber, object_pairs_hook=_object)
    except RecursionError:
        raise ReplayError(f"not a replay file (nested deeper than {storage.MAX_DEPTH} levels)") from None
    except json.JSONDecodeError as error:  # "Expecting value: line 1 column 9 (char 8)"
        raise ReplayError(f"not a replay file (not JSON: {error}; truncated or damaged?)") from None


def _check_values(doc: Any) -> None:
    """Every number finite (not NaN, an infinity, or a `HugeInt`) and nothing nested deeper than
    `storage.MAX_DEPTH`; else `ReplayError` at the first such value's JSON path."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(doc, ())]
    while stack:
        value, where = stack.pop()
        children: list[tuple[str | int, Any]]
        if isinstance(value, dict):
            children = list(value.items())
        elif isinstance(value, list):
            children = list(enumerate(value))
        else:
            if isinstance(value, float) and not math.isfinite(value):
                raise ReplayError(f"{_path(where)}: {_not_finite(value)}")
            continue
        if children and len(where) >= storage.MAX_DEPTH:
            raise ReplayError(f"{_path(where)}: nested deeper than {storage.MAX_DEPTH} levels")
        stack.extend((child, (*where, key)) for key, child in reversed(children))


def _not_finite(value: float) -> str:
    if isinstance(value, storage.HugeInt):
        return f"a {value.digits}-digit number is out of range"
    if isinstance(value, _NotNumber):
        return f"{value.token} is not a number (strict JSON has no NaN or Infinity)"
    return "a number too large to read (it reads as infinity)"


_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")


def _path(parts: tuple[str | int, ...]) -> str:
    """A JSON path as the messages write it: `waves[3].before[0].args`."""
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _KEY.match(part):
            text += f".{part}" if text else part
        else:
            text += f"[{_shown(part)}]"
    return text or "(the file)"


def _shown(value: Any, limit: int = 40) -> str:
    """A value from the file as a message shows it: its repr, on one line, at most `limit` characters."""
    text = repr(value) if not isinstance(value, (dict, list)) else type(value).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _refusal(prefix: str, error: ValidationError) -> ReplayError:
    """A schema's first error as `path: reason (found value)`, the path below `prefix`."""
    items = error.errors()
    item = items[0]
    where = prefix + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in item["loc"])
    found = item.get("input")
    shown = f" (found {_shown(found)})" if not isinstance(found, (dict, list, tuple)) else ""
    more = f" (and {len(items) - 1} more)" if len(items) > 1 else ""
    return ReplayError(f"{where}: {' '.join(str(item['msg']).split())}{shown}{more}")


def _inflate(packed: str, frames: int, where: str, into: npt.NDArray[np.float32] | None = None) -> None:
    """Checks a wave's packed controls as they inflate, a chunk at a time (and with `into`, a flat
    float32 array of `frames` × `CONTROLS_WIDTH`, copies them into it): base64 and zlib whole,
    exactly the bytes `frames` steps hold, every one a number. Never inflates more than one byte
    past those, so a zlib bomb stops at the bound; `ReplayError` (one line) otherwise."""
    expected = frames * _core.CONTROLS_WIDTH * 4
    try:
        compressed = base64.b64decode(packed, validate=True)
    except (binascii.Error, ValueError):
        raise ReplayError(f"{where}.controls: not base64 (damaged)") from None
    target = into.view(np.uint8) if into is not None else None
    inflater = zlib.decompressobj()
    got, carry, pending = 0, b"", compressed
    try:
        while not inflater.eof:
            chunk = inflater.decompress(pending, min(INFLATE_CHUNK, expected - got + 1))
            pending = inflater.unconsumed_tail
            if not chunk:
                break  # the input is spent and the stream has not ended
            if got + len(chunk) > expected:
                raise ReplayError(f"{where}.controls: they inflate past the {expected} bytes {frames} frames hold")
            if target is not None:
                target[got : got + len(chunk)] = np.frombuffer(chunk, dtype=np.uint8)
            got += len(chunk)
            block = carry + chunk
            whole = len(block) - len(block) % 4
            if not np.isfinite(np.frombuffer(block, dtype=np.float32, count=whole // 4)).all():
                raise ReplayError(f"{where}.controls: they hold a value that is not a number")
            carry = block[whole:]
    except zlib.error as error:
        raise ReplayError(f"{where}.controls: damaged ({' '.join(str(error).split())})") from None
    if not inflater.eof:
        raise ReplayError(f"{where}.controls: cut short (the packed stream does not end)")
    if inflater.unused_data:
        raise ReplayError(f"{where}.controls: bytes follow the packed stream")
    if got != expected:
        raise ReplayError(f"{where}: {got} bytes of controls for {frames} frames")


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


def _canonical_sha256(value: Any) -> str:
    """`sha256(_canonical(value))`, hashed as it is written out, piece by piece (a wave's packed
    controls at most at once), not as one copy of the whole file."""
    sha = hashlib.sha256()
    encoder = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    for piece in encoder.iterencode(value):
        sha.update(piece.encode())
    return sha.hexdigest()


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
            return restore(content, self.saved(content))
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

    def saved(self, content: Content) -> RunSave:
        """A `save` start's run as `content` checks a save (every range, every id); `ReplayError`."""
        try:
            return RunSave.model_validate(self.save, context={"content": content})
        except ValidationError as error:
            raise _refusal("start.save", error) from None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "wave": self.wave, "phase": self.phase, "digest": self.digest}
        data.update({"settings": self.settings} if self.kind == "new" else {"save": self.save})
        return data

    @classmethod
    def from_json(cls, data: Any) -> Start:
        """The start as the file holds it, every field's type and range checked (a new run's
        settings as a save's: `NewRunSettings`); what needs the content is `validate`'s."""
        if not isinstance(data, dict):
            raise ReplayError("start: not an object")
        kind, wave, phase, dig = data.get("kind"), data.get("wave"), data.get("phase"), data.get("digest")
        if kind not in ("new", "save"):
            raise ReplayError(f"start.kind: {_shown(kind)} is not new or save")
        if phase not in ("lab", "cleared"):
            raise ReplayError(f"start.phase: {_shown(phase)} is not lab or cleared")
        if type(wave) is not int or not 1 <= wave <= MAX_WAVES + 1:
            raise ReplayError(f"start.wave: {_shown(wave)} is not a wave number (1 to {MAX_WAVES + 1})")
        if not isinstance(dig, str) or not HEX16.match(dig):
            raise ReplayError(f"start.digest: {_shown(dig)} is not a digest (16 hex digits)")
        if kind == "save":
            save = data.get("save")
            if not isinstance(save, dict):
                raise ReplayError("start.save: the saved run is missing")
            try:
                SavedSeed.model_validate(save)
            except ValidationError as error:
                raise _refusal("start.save", error) from None
            return cls(kind, wave, phase, dig, save=save)
        settings = data.get("settings")
        if not isinstance(settings, dict):
            raise ReplayError("start.settings: the new run's settings are missing")
        missing = [name for name in ("unlocked", *SETTINGS_FIELDS) if name not in settings]
        if missing:
            raise ReplayError(f"start.settings.{missing[0]}: missing")
        try:
            NewRunSettings.model_validate(settings)
        except ValidationError as error:
            raise _refusal("start.settings", error) from None
        first = settings["first_wave"]
        if first > 1 and not settings["practice"]:  # as a save (RunSave)
            raise ReplayError(f"start.settings.first_wave: {first}: only a practice run begins past wave 1")
        if wave != first:
            raise ReplayError(f"start.wave: {wave} is not the new run's first wave ({first})")
        return cls(kind, wave, phase, dig, settings=settings)


class WaveTape:
    """One wave: what came before it, the run's digest as it began, its steps' controls and the
    calls made during it (each stamped with the step it came before), and how it ended.

    A wave read from a file holds its controls packed (checked, not unpacked: `_inflate`) until
    `controls` is first asked for; describing a replay never unpacks them."""

    def __init__(
        self,
        wave: int,
        before: list[Entry],
        digest: str,
        controls: npt.NDArray[np.float32] | None,
        during: list[Entry] | None = None,
        hash: str | None = None,
        outcome: str | None = None,
        seconds: float = 0.0,
        *,
        packed: tuple[str, int] | None = None,
    ) -> None:
        if controls is None and packed is None:
            raise ValueError("a wave's controls, or their packed text and frame count, are needed")
        self.wave = wave
        self.before = before
        self.digest = digest
        self.during: list[Entry] = during if during is not None else []
        #: The world's state hash after the wave ended (None: it did not end on the tape).
        self.hash = hash
        self.outcome = outcome
        #: The wave's simulated seconds.
        self.seconds = seconds
        self._controls = controls
        #: The file's packed controls (base64 text) and their frame count, until unpacked.
        self._packed = packed if controls is None else None

    def __repr__(self) -> str:
        return f"WaveTape(wave={self.wave}, frames={self.frames}, hash={self.hash!r}, outcome={self.outcome!r})"

    @property
    def controls(self) -> npt.NDArray[np.float32]:
        """The steps' controls, one row a step (unpacked on first use, then held: a caller may
        change them in place, and `to_json` packs what they are then)."""
        if self._controls is None:
            assert self._packed is not None
            packed, frames = self._packed
            width = _core.CONTROLS_WIDTH
            columns = np.empty(frames * width, dtype=np.float32)
            _inflate(packed, frames, f"wave {self.wave}", columns)
            self._controls = np.ascontiguousarray(columns.reshape(width, frames).T)
            self._packed = None
        return self._controls

    @controls.setter
    def controls(self, value: npt.NDArray[np.float32]) -> None:
        self._controls, self._packed = value, None

    @property
    def frames(self) -> int:
        if self._controls is not None:
            return len(self._controls)
        assert self._packed is not None
        return self._packed[1]

    def to_json(self) -> dict[str, Any]:
        if self._packed is not None:  # as read: the same packed text
            packed = self._packed[0]
        else:
            raw = np.ascontiguousarray(self.controls.T).tobytes()
            packed = base64.b64encode(zlib.compress(raw, 9)).decode()
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
        """The wave as the file holds it (`waves[index]`), every field checked and its packed
        controls inflated once to check them, a chunk at a time (`_inflate`), and left packed.
        The frames of all waves together were bounded before (`Tape.from_bytes`)."""
        where = f"waves[{index}]"
        if not isinstance(data, dict):
            raise ReplayError(f"{where}: not an object")
        wave, frames, packed, dig = data.get("wave"), data.get("frames"), data.get("controls"), data.get("digest")
        if type(wave) is not int or not 1 <= wave <= MAX_WAVES:
            raise ReplayError(f"{where}.wave: {_shown(wave)} is not a wave number (1 to {MAX_WAVES})")
        if type(frames) is not int or frames < 0:
            raise ReplayError(f"{where}.frames: {_shown(frames)} is not a frame count")
        if not isinstance(dig, str) or not HEX16.match(dig):
            raise ReplayError(f"{where}.digest: {_shown(dig)} is not a digest (16 hex digits)")
        if not isinstance(packed, str):
            raise ReplayError(f"{where}.controls: missing (not text)")
        _inflate(packed, frames, where)
        before = _entries(data.get("before"), f"{where}.before")
        during = _entries(data.get("during"), f"{where}.during")
        for number, entry in enumerate(during):
            if entry.frame is None or entry.frame >= max(frames, 1):
                raise ReplayError(f"{where}.during[{number}]: a call during the wave names a step it does not have")
        hashed, outcome, seconds = data.get("hash"), data.get("outcome"), data.get("seconds", 0.0)
        if not isinstance(hashed, str) or not HEX16.match(hashed):
            raise ReplayError(f"{where}.hash: {_shown(hashed)} is not a state hash (16 hex digits)")
        if outcome is not None and (not isinstance(outcome, str) or not WORD.match(outcome)):
            raise ReplayError(f"{where}.outcome: {_shown(outcome)} is not an outcome")
        if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or seconds < 0:
            raise ReplayError(f"{where}.seconds: {_shown(seconds)} is not a number of seconds")
        return cls(wave, before, dig, None, during, hashed, outcome, float(seconds), packed=(packed, frames))


def _entries(value: Any, where: str) -> list[Entry]:
    """A list of calls as the file holds it (`where`: its JSON path); each one a call a replay
    makes — a journaled method of its part (or a potion drunk) taking those arguments."""
    items = _list(value, where)
    entries = []
    for number, item in enumerate(items):
        try:
            entry = Entry.from_json(item)
        except JournalError as error:
            raise ReplayError(f"{where}[{number}]: {' '.join(str(error).split())}") from None
        _check_call(entry, f"{where}[{number}]")
        entries.append(entry)
    return entries


def _check_call(entry: Entry, where: str) -> None:
    if entry.part == "belt" and entry.call == "use":  # a potion drunk: (slot, aim), `_calls`' own
        if len(entry.args) > 2:
            raise ReplayError(f"{where}: belt.use takes a slot and an aim point, not {len(entry.args)} arguments")
        return
    method = getattr(PART_TYPES[entry.part], entry.call, None)
    if not callable(method) or getattr(method, "__wrapped__", None) is None:
        raise ReplayError(f"{where}: {entry.part}.{entry.call} is not a call a replay makes")
    try:
        bound = inspect.signature(method).bind(None, *entry.args)
    except TypeError:
        raise ReplayError(f"{where}: {entry.part}.{entry.call} does not take {len(entry.args)} arguments") from None
    for number, (name, value) in enumerate(list(bound.arguments.items())[1:]):
        annotation = bound.signature.parameters[name].annotation
        if annotation in ("Place", Place) and not _is_place(value):
            raise ReplayError(f"{where}.args[{number}]: {entry.part}.{entry.call}'s {name} is not a place in the lab")


def _is_place(value: Any) -> bool:
    """A lab's `Place` as the game makes one: its area, an index, a core id or None."""
    return (
        isinstance(value, Place)
        and value.area in ("backpack", "slot", "waiting")
        and type(value.index) is int
        and (value.core is None or isinstance(value.core, str))
    )


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ReplayError(f"{where}: missing (not a list)")
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
    def from_bytes(cls, data: bytes, path: Path | None = None, *, content: Content | None = None) -> Tape:
        """A tape read back; `ReplayError` (one line: the JSON path and the reason) for a file that
        is not one, is damaged, or holds what the game would not write (see the module's
        docstring). Bounded by `content`'s `replay.max_frames` (default: the game's own content),
        and, when it was made with that content and this game, checked against it (`validate`)."""
        content = content if content is not None else shipped_content()
        max_frames = content.balance.replay.max_frames
        doc = _parse(data, max_frames)
        _check_values(doc)
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise ReplayError("not a replay file")
        version = doc.get("version")
        if version != VERSION or type(version) is not int:
            raise ReplayError(f"replay format {_shown(version, 12)}: this game reads format {VERSION}")
        checksum = doc.pop("checksum", None)
        if checksum != _canonical_sha256(doc):
            raise ReplayError("the replay file is damaged (its checksum does not match)")
        game, made_with, created = doc.get("game"), doc.get("content"), doc.get("created")
        if not isinstance(game, str) or not GAME_VERSION.match(game):
            raise ReplayError(f"game: {_shown(game)} is not a version of the game")
        if not isinstance(made_with, str) or not HEX16.match(made_with):
            raise ReplayError(f"content: {_shown(made_with)} is not a content hash (16 hex digits)")
        if not isinstance(created, str) or not CREATED.match(created):
            raise ReplayError(f"created: {_shown(created)} is not a date")
        waves = _list(doc.get("waves"), "waves")
        _count_frames(waves, max_frames)
        tape = cls(Start.from_json(doc.get("start")), game=game, content=made_with, path=path)
        tape.created = created
        tape.waves = [WaveTape.from_json(w, i) for i, w in enumerate(waves)]
        tape.journal.entries = _entries(doc.get("pending"), "pending")
        ending = doc.get("ending")
        if ending is not None and (not isinstance(ending, str) or not WORD.match(ending)):
            raise ReplayError(f"ending: {_shown(ending)} is not how a run ends")
        tape.ending = ending
        if made_with == content_hash(content.data_dir) and game == _game_version():
            validate(content, tape)
        return tape


def _count_frames(waves: list[Any], max_frames: int) -> None:
    """The frames the waves say they hold, all together, at most `max_frames` — counted before any
    wave's controls are inflated (each inflates to its own frames' bytes at most)."""
    if len(waves) > MAX_WAVES:
        raise ReplayError(f"waves: {len(waves)} waves, more than a run plays ({MAX_WAVES})")
    total = sum(w["frames"] for w in waves if isinstance(w, dict) and type(w.get("frames")) is int and w["frames"] > 0)
    if total > max_frames:
        raise ReplayError(
            f"waves: {total} frames in all, more than the {max_frames} a replay may hold (balance.json replay.max_frames)"
        )


def _game_version() -> str:
    from artificer import __version__

    return __version__


def read_tape(path: Path, content: Content | None = None) -> Tape:
    """The replay at `path`; `ReplayError` for a file that cannot be used (one line). R-SAVE-2:
    only a regular file is read (a FIFO, device, directory or dangling link is refused and left
    exactly as it was: never opened for long, never waited on), at most `MAX_BYTES` of it.
    `content`: the content it is held to (`Tape.from_bytes`; default the game's own)."""
    try:
        data = storage.read_bytes(path, MAX_BYTES)
    except storage.NotAFileError:
        kind = storage.not_a_file(path) or "not a regular file"
        raise ReplayError(f"{kind}, not a replay file (left as it is)") from None
    except ValueError as error:
        raise ReplayError(f"too big for a replay: {str(error).replace('it may have', 'a replay may have')}") from None
    except OSError as error:
        raise ReplayError(f"{path}: {error.strerror or error}") from None
    return Tape.from_bytes(data, path, content=content)


# --- the runs/ folder --------------------------------------------------------------------------


def runs_dir() -> Path:
    return storage.data_dir() / RUNS_DIR


def new_path(seed: int, directory: Path | None = None) -> Path:
    """A fresh replay file's path in `runs/`: the time it began (UTC) and the seed."""
    directory = directory if directory is not None else runs_dir()
    stem = f"{datetime.now(UTC).strftime('%Y-%m-%d_%H%M%S')}_seed{seed}"
    path, n = directory / f"{stem}{SUFFIX}", 1
    while os.path.lexists(path):  # taken by anything, a dangling link too: never written over (R-SAVE-2)
        path, n = directory / f"{stem}_{n}{SUFFIX}", n + 1
    return path


def prune(directory: Path | None = None, keep: int = KEEP, spare: Path | None = None) -> list[Path]:
    """Removes all but the `keep` most recent replays of `directory` (never `spare`, the one being
    recorded); returns the removed. A file that cannot be removed is left, and so is anything named
    like a replay that is not a regular file (R-SAVE-2: a FIFO, device, directory, dangling link)."""
    directory = directory if directory is not None else runs_dir()
    try:
        names = sorted(entry.name for entry in directory.iterdir() if NAME.match(entry.name))
    except OSError:
        return []
    removed = []
    for name in names[: max(0, len(names) - keep)]:
        path = directory / name
        if (spare is not None and path == spare) or storage.not_a_file(path) is not None:
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
            tape = read_tape((directory if directory is not None else runs_dir()) / name, run.content)
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
    """`ReplayMismatch` (one line) when the tape was made with other content or another version;
    then `validate`: every check before a frame is played."""
    from artificer import __version__

    if tape.content != content_hash(content.data_dir):
        raise ReplayMismatch(
            f"this replay was made with other content (rules {tape.content}, this game's {content_hash(content.data_dir)})"
        )
    if tape.game != __version__:
        raise ReplayMismatch(f"this replay was made by version {tape.game[:40]} of the game, this is {__version__}")
    validate(content, tape)


def validate(content: Content, tape: Tape) -> None:
    """What only the content can judge on a tape, before a frame of it is played (`ReplayError`,
    one line: the JSON path and the reason): its frames in all at most `replay.max_frames`; its
    start's NG+ level at most `ng_plus.max_level`; a new run's unlocks, and every journaled
    `shop.unlock`'s, ids the content has; a saved run's start a save the content takes (`RunSave`)."""
    max_frames = content.balance.replay.max_frames
    total = sum(wave.frames for wave in tape.waves)
    if total > max_frames:
        raise ReplayError(
            f"waves: {total} frames in all, more than the {max_frames} a replay may hold (balance.json replay.max_frames)"
        )
    start, level = tape.start, content.balance.ng_plus.max_level
    known = {spell.id for spell in content.spells} | {core.id for core in content.cores}
    if start.kind == "new":
        where, ng_plus, endless = "start.settings", start.settings["ng_plus"], start.settings["endless"]
        _known_ids(start.settings["unlocked"], known, f"{where}.unlocked")
    else:
        saved = start.saved(content)
        where, ng_plus, endless = "start.save", saved.ng_plus, saved.endless
        if start.wave != saved.next_wave:
            raise ReplayError(f"start.wave: {start.wave} is not the saved run's next wave ({saved.next_wave})")
    last = content.balance.endless.max_wave if endless else len(content.waves)
    if start.wave > last:
        raise ReplayError(f"start.wave: {start.wave} is past the last wave ({last})")
    if ng_plus > level:
        raise ReplayError(f"{where}.ng_plus: {ng_plus} is above the highest New Game+ level ({level})")
    calls = [
        (f"waves[{i}].{part}", wave_calls)
        for i, w in enumerate(tape.waves)
        for part, wave_calls in (("before", w.before), ("during", w.during))
    ]
    for list_where, entries in [*calls, ("pending", tape.journal.entries)]:
        for number, entry in enumerate(entries):
            if entry.part == "shop" and entry.call == "unlock":
                _known_ids(entry.args[0] if entry.args else None, known, f"{list_where}[{number}].args[0]")


def _known_ids(ids: Any, known: set[str], where: str) -> None:
    if not isinstance(ids, (list, tuple)) or not all(isinstance(item, str) for item in ids):
        raise ReplayError(f"{where}: not a list of spell or core ids")
    unknown = sorted(set(ids) - known)
    if unknown:
        shown = ", ".join(_shown(item) for item in unknown[:3]) + (
            f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
        )
        raise ReplayError(f"{where}: unknown spell or core ids: {shown}")


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
            if flow.ending is not Ending.CLEARED:  # a run that died or stalled goes on with nothing
                ending = flow.ending.value if flow.ending is not None else "over"
                raise Diverged(f"wave {recorded.wave}: the run was over ({ending}) before it")
            self.flow = flow = RunFlow.continued(self.run, recorded.wave)
        if flow.phase is Phase.CLEARED:
            with _settling(recorded.wave):
                flow.open_shop()
        _calls(self.run, None, recorded.before, f"before wave {recorded.wave}")
        if flow.number != recorded.wave:
            raise Diverged(f"wave {recorded.wave}: the run went on with wave {flow.number}")
        self._step, self._during = 0, list(reversed(recorded.during))

    def begin_wave(self) -> WaveInProgress:
        """`before_wave`, then the wave begins (the flow's way: from the lab or leaving the shop)."""
        self.before_wave()
        flow = self.flow
        with _settling(flow.number):
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


@contextlib.contextmanager
def _settling(wave: int) -> Iterator[None]:
    """The run settles between waves (its world rebuilt from what a save holds): a run a hostile
    tape drove past what a save holds (gold beyond its cap) is refused there in one line."""
    try:
        yield
    except ValidationError as error:
        raise Diverged(f"wave {wave}: the run no longer fits a save ({storage.describe(error, 1)})") from None


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
    is a divergence. The file is the player's, not the game's: whatever a call's arguments make
    it raise, it is refused in one line (never a traceback)."""
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
        except Exception as error:  # a hostile file's arguments: any refusal is the replay's end
            reason = " ".join(str(error).split())[:120] or type(error).__name__
            raise Diverged(f"{where}: {entry.part}.{entry.call} was refused ({reason})") from None
