"""Where the game keeps its files, and how it writes and reads them (R-SAVE-1).

This module owns the user directories (platformdirs; `ARTIFICER_HOME`
overrides both, for tests and portable installs) and the ways a user file is
written and read:

- `write_atomic`: a temporary file `.<name>.<random>.tmp` in the same
  directory, flushed and fsync'd, then `os.replace`d over the target and the
  directory fsync'd, so a crash leaves the old file or the new one, never
  half of either, and the rename itself survives a power cut.
- `remove_stale_temporaries`: at start, the temporary files a kill mid-write
  left behind (that pattern only) are removed.
- `read_json_or_quarantine`: the one reader of every user file. It survives
  any bytes: a file larger than `MAX_FILE_BYTES`, something other than a
  regular file (a directory, a FIFO, a device), text that is not UTF-8 (a
  UTF-8 byte-order mark is allowed and skipped), JSON that does not parse,
  nests deeper than `MAX_DEPTH`, holds NaN or Infinity (not JSON) or a key
  twice. Such a file is moved aside (`quarantine`: `<name>.corrupt`) with a
  message naming the file and the reason, and the caller starts from
  defaults. An integer of more than `MAX_INT_DIGITS` digits (Python refuses
  to convert one of over 4,300) reads as a `HugeInt` — an infinite float
  that remembers its digit count — so the caller's schema refuses it at its
  JSON path, like any other out-of-range number (`describe` says "a 5001-digit
  number").
"""

from __future__ import annotations

import json
import logging
import os
import re
import stat
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import platformdirs
from pydantic import ValidationError

APP_NAME = "arcane-artificer"
HOME_ENV = "ARTIFICER_HOME"

#: The largest user file read (settings and saves are a few KB); a larger one is set aside.
MAX_FILE_BYTES: Final = 1 << 20
#: How deep arrays and objects may nest in a user file (a save nests 5 levels).
MAX_DEPTH: Final = 32
#: Integers with more digits than this read as `HugeInt` (every range in a user file is far below).
MAX_INT_DIGITS: Final = 100
#: What a temporary file of `write_atomic` is called: `.<target>.<mkstemp's 8 characters>.tmp`.
TEMPORARY_PATTERN: Final = re.compile(r"^\.(?P<target>.+)\.[A-Za-z0-9_]{8}\.tmp$")
#: `quarantine` tries `<name>.corrupt`, then `<name>.corrupt.1` … up to this many.
ASIDE_ATTEMPTS: Final = 10

log = logging.getLogger(__name__)


def data_dir() -> Path:
    """The user data dir (saves, run summaries): `$ARTIFICER_HOME/data` when set."""
    home = os.environ.get(HOME_ENV)
    return Path(home) / "data" if home else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def config_dir() -> Path:
    """The user config dir (settings): `$ARTIFICER_HOME/config` when set."""
    home = os.environ.get(HOME_ENV)
    return Path(home) / "config" if home else Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


# --- writing -----------------------------------------------------------------------------------


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that a reader sees the old file or the whole new one, never a torn write."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        # mkstemp makes the file private (0600); a save is an ordinary user file.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    fsync_directory(path.parent)


def fsync_directory(directory: Path) -> None:
    """Make a rename in `directory` durable (POSIX); where directories cannot be opened or
    synced (Windows, some file systems) there is nothing more to do."""
    flags = getattr(os, "O_DIRECTORY", None)
    if flags is None:
        return
    try:
        fd = os.open(directory, os.O_RDONLY | flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_json_atomic(path: Path, value: Any) -> None:
    """`value` as indented UTF-8 JSON (strict: no NaN or Infinity), written atomically."""
    write_atomic(path, (json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8"))


def remove_stale_temporaries(directories: Iterable[Path] | None = None) -> list[Path]:
    """At start: removes what a kill in the middle of `write_atomic` left — regular files named
    `.<name>.<8 characters>.tmp` — from `directories` (default: the data dir, its `runs/`, and
    the config dir). Nothing else is touched. Returns the files removed."""
    if directories is None:
        directories = (data_dir(), data_dir() / "runs", config_dir())
    removed: list[Path] = []
    for directory in directories:
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue  # missing, or not a directory: nothing was left there
        for entry in entries:
            try:
                if TEMPORARY_PATTERN.match(entry.name) and entry.is_file(follow_symlinks=False):
                    os.unlink(entry.path)
                    removed.append(Path(entry.path))
            except OSError as error:
                log.warning("could not remove the stale temporary file %s: %s", entry.path, error)
    return removed


# --- reading -----------------------------------------------------------------------------------


class HugeInt(float):
    """An integer of more than `MAX_INT_DIGITS` digits, read as ±infinity so that every range
    refuses it at its JSON path; `digits` is for the message."""

    digits: int

    def __new__(cls, text: str) -> HugeInt:
        value = super().__new__(cls, "-inf" if text.startswith("-") else "inf")
        value.digits = len(text.lstrip("-"))
        return value

    def __repr__(self) -> str:
        return f"a {self.digits}-digit number"

    def __copy__(self) -> HugeInt:
        return self  # immutable, as a float is

    def __deepcopy__(self, memo: dict[int, Any]) -> HugeInt:
        return self


class _Unreadable(Exception):
    """Why a file's bytes are not usable JSON (the message names the reason, not the file)."""


def _parse_int(text: str) -> int | float:
    return HugeInt(text) if len(text) > MAX_INT_DIGITS else int(text)


def _refuse_constant(name: str) -> Any:
    raise _Unreadable(f"{name} is not a JSON number (strict JSON has no NaN or Infinity)")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            shown = key if len(key) <= 40 else key[:40] + "…"
            raise _Unreadable(f"the key {shown!r} appears twice in one object")
        found[key] = value
    return found


def _too_deep(value: Any) -> bool:
    level: list[tuple[Any, int]] = [(value, 1)]
    while level:
        item, depth = level.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, (dict, list)):
                if depth + 1 > MAX_DEPTH:
                    return True
                level.append((child, depth + 1))
    return False


def parse_json_bytes(raw: bytes) -> Any:
    """`raw` as strict JSON (see the module's docstring); raises `ValueError` saying why not."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]  # a UTF-8 byte-order mark (some editors write one)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"not UTF-8 text (byte 0x{raw[error.start]:02x} at offset {error.start})") from None
    try:
        value = json.loads(text, parse_int=_parse_int, parse_constant=_refuse_constant, object_pairs_hook=_object)
    except RecursionError:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON: {error}") from None
    except _Unreadable as error:
        raise ValueError(str(error)) from None
    if _too_deep(value):
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
    return value


@dataclass(frozen=True)
class Loaded:
    """What `read_json_or_quarantine` found: the value (None: start from defaults), and when the
    file could not be used, the message naming it and the reason (`problem`), the reason alone
    and where the file went (`kept_as`; None: it stayed where it was)."""

    value: Any
    problem: str | None = None
    kept_as: str | None = None
    reason: str = ""


def read_json_or_quarantine(path: Path, max_bytes: int = MAX_FILE_BYTES, set_aside: bool = True) -> Loaded:
    """The JSON in `path`; a missing file is `Loaded(None)`; a file that cannot be used (see
    the module's docstring) is moved aside as `<name>.corrupt` (left where it is when not
    `set_aside`: a backup, read only). Never raises."""
    aside = _aside if set_aside else _left
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return Loaded(None)
    except OSError as error:
        reason = f"could not be read: {error.strerror or error}"
        return Loaded(None, f"{path.name} could not be used ({reason}); defaults are used", None, reason)
    if not stat.S_ISREG(info.st_mode):
        kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        return aside(path, f"{kind}, not a file")
    if info.st_size > max_bytes:
        return aside(path, f"{info.st_size} bytes, more than the {max_bytes} a file may have")
    try:
        with open(path, "rb") as file:
            raw = file.read(max_bytes + 1)
    except FileNotFoundError:
        return Loaded(None)
    except OSError as error:
        return aside(path, f"could not be read: {error.strerror or error}")
    if len(raw) > max_bytes:
        return aside(path, f"more than the {max_bytes} bytes a file may have")
    try:
        return Loaded(parse_json_bytes(raw))
    except ValueError as error:
        return aside(path, str(error))


def _aside(path: Path, reason: str) -> Loaded:
    found = quarantine(path, reason)
    return Loaded(None, found.message, found.kept_as, reason)


def _left(path: Path, reason: str) -> Loaded:
    return Loaded(None, f"{path.name} could not be used ({reason})", None, reason)


@dataclass(frozen=True)
class SetAside:
    """What `quarantine` did: the message to show, the reason alone, and the bad file's new
    name (None: it could not be moved)."""

    message: str
    reason: str
    kept_as: str | None


def quarantine(path: Path, reason: str) -> SetAside:
    """Moves a bad file (or directory) aside as `<name>.corrupt` (replacing an older file of that
    name; `<name>.corrupt.1` … when that name is taken by a directory). Never raises."""
    names = [f"{path.name}.corrupt"] + [f"{path.name}.corrupt.{n}" for n in range(1, ASIDE_ATTEMPTS)]
    failure: OSError | None = None
    for name in names:
        aside = path.with_name(name)
        try:
            if aside.is_dir() and not aside.is_symlink():
                continue
            os.replace(path, aside)
        except OSError as error:
            failure = error
            continue
        message = f"{path.name} could not be used ({reason}); it was kept as {aside.name} and defaults are used"
        log.warning("%s", message)
        return SetAside(message, reason, aside.name)
    why = failure.strerror if failure is not None and failure.strerror else failure
    message = f"{path.name} could not be used ({reason}) nor moved aside ({why}); defaults are used"
    log.warning("%s", message)
    return SetAside(message, reason, None)


def describe(error: ValidationError, limit: int = 3) -> str:
    """A schema's errors as `path: reason` (JSON paths joined with '.'), the first `limit` of them."""
    items = error.errors()
    parts = []
    for item in items[:limit]:
        where = ".".join(str(part) for part in item["loc"]) or "(file)"
        value = item.get("input")
        message = f"{value!r} is out of range" if isinstance(value, HugeInt) else item["msg"]
        parts.append(f"{where}: {message}")
    if len(items) > limit:
        parts.append(f"and {len(items) - limit} more")
    return "; ".join(parts)
