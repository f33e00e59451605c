"""What a player does between the frames (issue 19's replays): the lab's and the shop's moves, a
potion drunk — each a call of a run part's method, recorded as data so a replay can make it again.

A method marked `@journaled("shop")` (the part's name) appends an `Entry` (the part, the method,
its arguments) to the `Journal` attached to its object, after it returned: a refused call raises
and changes nothing (the parts' rule), so it is not recorded. A call made from inside another
journaled call (the shop's `buy_spell` stashing the card in the loadout) is part of the outer one
and is not recorded again. No journal attached (the default): the call runs as before, for the
cost of one attribute lookup.

Arguments are JSON's own values, lists, tuples (they come back as tuples) and the frozen
dataclasses registered with `argument_type` (the lab's `Place`); anything else is a bug in the
caller, logged and not recorded (tests/game/test_replay.py checks every journaled call's types). No pygame, no run: the parts import this module.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from artificer.errors import ArtificerError

__all__ = [
    "Entry",
    "Journal",
    "JournalError",
    "Recorder",
    "argument_type",
    "decode_argument",
    "encode_argument",
    "journaled",
]

#: The run's parts a journal follows, by the name an entry gives them.
PARTS: Final = ("run", "shop", "loadout", "belt", "state")

Method = TypeVar("Method", bound=Callable[..., Any])
Kind = TypeVar("Kind", bound=type)

_ARGUMENT_TYPES: dict[str, type] = {}


class JournalError(ArtificerError):
    """An entry that cannot be written or read back (a replay file's, or a caller's bug)."""


def argument_type(cls: Kind) -> Kind:
    """Registers a frozen dataclass as an argument a journaled method may take."""
    _ARGUMENT_TYPES[cls.__name__] = cls
    return cls


def encode_argument(value: Any) -> Any:
    """`value` as JSON: its own value, a list for a tuple or list, `{"Place": {...}}` for a
    registered dataclass."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, (list, tuple)):
        return [encode_argument(item) for item in value]
    name = type(value).__name__
    if _ARGUMENT_TYPES.get(name) is type(value) and dataclasses.is_dataclass(value):
        return {name: {f.name: encode_argument(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    raise JournalError(f"a journaled call's argument of type {name} cannot be recorded")


def decode_argument(value: Any) -> Any:
    """The inverse of `encode_argument` (lists come back as tuples)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return tuple(decode_argument(item) for item in value)
    if isinstance(value, dict) and len(value) == 1:
        ((name, fields),) = value.items()
        cls = _ARGUMENT_TYPES.get(name)
        if cls is not None and isinstance(fields, dict):
            try:
                return cls(**{key: decode_argument(item) for key, item in fields.items()})
            except TypeError as error:
                raise JournalError(f"a {name} argument does not fit: {error}") from None
    raise JournalError(f"an argument that no journaled call takes: {str(value)[:80]}")


@dataclass(frozen=True)
class Entry:
    """One recorded call: `part.call(*args)`; `frame` is the wave's step it came before (None:
    between waves)."""

    part: str
    call: str
    args: tuple[Any, ...] = ()
    frame: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"part": self.part, "call": self.call, "args": encode_argument(list(self.args))}
        if self.frame is not None:
            data["frame"] = self.frame
        return data

    @classmethod
    def from_json(cls, data: Any) -> Entry:
        if not isinstance(data, dict):
            raise JournalError("an entry is not an object")
        part, call, args, frame = data.get("part"), data.get("call"), data.get("args", []), data.get("frame")
        if part not in PARTS:
            raise JournalError(f"an entry's part {str(part)[:40]!r} is not one of {', '.join(PARTS)}")
        if not isinstance(call, str) or not call.isidentifier() or call.startswith("_"):
            raise JournalError(f"an entry's call {str(call)[:40]!r} is not a method's name")
        if not isinstance(args, list):
            raise JournalError(f"{part}.{call}: its args are not a list")
        if frame is not None and (type(frame) is not int or frame < 0):
            raise JournalError(f"{part}.{call}: its frame {str(frame)[:20]!r} is not a step number")
        return cls(part, call, tuple(decode_argument(a) for a in args), frame)


@dataclass
class Journal:
    """The entries recorded so far; `frame`: the wave's next step while one is played, else None
    (the entries' stamp)."""

    entries: list[Entry] = field(default_factory=list)
    frame: int | None = None
    #: Journaled calls in progress (an inner one is part of the outer and not recorded).
    depth: int = 0

    def record(self, part: str, call: str, args: tuple[Any, ...]) -> None:
        """Appends the call; one whose arguments cannot be written is a bug, logged, never the
        player's crash (the replay then diverges there, and says where)."""
        try:
            encode_argument(list(args))
        except JournalError as error:
            logging.getLogger(__name__).error("%s.%s not recorded: %s", part, call, error)
            return
        self.entries.append(Entry(part, call, args, self.frame))

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """Calls made inside are not the player's (the flow's own: a wave's start closes the shop)."""
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1

    def take(self) -> list[Entry]:
        """The entries so far, handed over; the journal starts empty."""
        taken, self.entries = self.entries, []
        return taken


class Recorder(Protocol):
    """What records a run's replay (`artificer.game.replay.Tape`), as the run and its flow see it."""

    journal: Journal
    #: The file it is written to (None: kept in memory).
    path: Path | None

    def attach(self, run: Any) -> None: ...
    def wave_begins(self, wave: int, run: Any) -> None: ...
    def frame(self, controls: npt.NDArray[np.float32]) -> None: ...
    def wave_ends(self, run: Any, outcome: str, seconds: float) -> None: ...
    def end(self, ending: str) -> None: ...
    def write_or_log(self) -> None: ...


def journaled(part: str) -> Callable[[Method], Method]:
    """Marks a run part's method whose calls a replay makes again (see the module's docstring)."""
    if part not in PARTS:
        raise ValueError(f"unknown part {part!r}")

    def mark(method: Method) -> Method:
        signature = inspect.signature(method)

        @functools.wraps(method)
        def recorded(self: Any, *args: Any, **kwargs: Any) -> Any:
            journal: Journal | None = getattr(self, "journal", None)
            if journal is None or journal.depth:
                return method(self, *args, **kwargs)
            journal.depth += 1
            try:
                result = method(self, *args, **kwargs)
            finally:
                journal.depth -= 1
            # Positional, in the method's order, keywords and defaults filled in (a replay calls it so).
            bound = signature.bind(self, *args, **kwargs)
            bound.apply_defaults()
            journal.record(part, method.__name__, bound.args[1:])
            return result

        return recorded  # type: ignore[return-value]

    return mark
