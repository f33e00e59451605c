"""Where the game keeps its files, and how it writes and reads them (R-SAVE-1, R-SAVE-2).

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

R-SAVE-2: a path the game is given or keeps is only read, replaced or set aside when it is a
regular file (through a symbolic link, the file it names), or absent to be created. `not_a_file`
says what else it is (a directory, a FIFO, a device, a socket, a link to nothing); every reader
and writer here refuses such a path with `NotAFileError` or a `Loaded` whose `left` is set, and
leaves it exactly as it was: nothing is moved, opened for writing or written over. Reads open
with `O_NONBLOCK` and check the opened file again (`fstat`), so a FIFO swapped in never hangs.
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


class NotAFileError(OSError):
    """R-SAVE-2: a path the game would read, replace or set aside is not a regular file (nor
    absent); it was left exactly as it was. The message is one line: the path and what it is."""


def not_a_file(path: Path) -> str | None:
    """What `path` is when the game must not touch it (R-SAVE-2): "a directory", "a FIFO", "a
    device", "a socket", "a link to nothing" (a dangling symbolic link), "under a file" (a parent
    is a file), "not reachable (…)"; None when it is a regular file (a link to one counts as it)
    or absent."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return "under a file"
    except OSError as error:
        return f"not reachable ({error.strerror or error})"
    if stat.S_ISLNK(info.st_mode):
        try:
            info = os.stat(path)
        except FileNotFoundError:
            return "a link to nothing"
        except OSError as error:
            return f"a link that cannot be followed ({error.strerror or error})"
    return _kind(info.st_mode)


def _kind(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _refusal(path: Path, kind: str, wanted: str) -> NotAFileError:
    return NotAFileError(f"{path} is {kind}, not {wanted}" if kind.startswith("a ") else f"{path} is {kind}")


def refuse_unless_file(path: Path) -> None:
    """Raises `NotAFileError` ("PATH is a FIFO, not a file") unless `path` is a regular file or absent."""
    kind = not_a_file(path)
    if kind is not None:
        raise _refusal(path, kind, "a file")


def check_writable(path: Path) -> None:
    """Up front, before any long work (a run, a sweep): raises `NotAFileError` or `OSError` with a
    one-line message unless `write_atomic(path, …)` will be able to write there — `path` a regular
    file or absent, in a directory (or below one, the rest made when written) where a file can be
    created. Makes nothing, leaves nothing behind."""
    refuse_unless_file(path)
    _check_directory(path.parent)


def check_writable_directory(directory: Path) -> None:
    """As `check_writable`, for a directory that files will be written into (`sim --out`)."""
    _check_directory(directory)


def _check_directory(directory: Path) -> None:
    """`directory` is one, or absent below one, and a file can be created in the nearest that is."""
    for existing in (directory, *directory.parents):
        kind = not_a_file(existing)
        if kind == "a directory":
            break
        if kind is not None:
            raise _refusal(existing, kind, "a directory")
        if os.path.lexists(existing):
            raise NotAFileError(f"{existing} is a file, not a directory")
    try:
        fd, probe = tempfile.mkstemp(prefix=".artificer-probe.", suffix=".tmp", dir=existing)
    except OSError as error:
        raise OSError(f"{existing} cannot be written to ({error.strerror or error})") from None
    os.close(fd)
    os.unlink(probe)


def read_bytes(path: Path, max_bytes: int) -> bytes:
    """The bytes of the regular file `path`, at most `max_bytes` of them. Raises `FileNotFoundError`
    when it is absent, `NotAFileError` when it is something else (left as it was, never opened
    for long: a FIFO does not hang), `ValueError` when it is larger, `OSError` when unreadable."""
    refuse_unless_file(path)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        info = os.fstat(fd)
        kind = _kind(info.st_mode)
        if kind is not None:  # swapped in between the look and the open
            raise _refusal(path, kind, "a file")
        if info.st_size > max_bytes:
            raise ValueError(f"{info.st_size} bytes, more than the {max_bytes} it may have")
        with os.fdopen(fd, "rb", closefd=False) as file:
            # What the file says it holds, and one byte more to catch one that grew.
            raw = file.read(min(info.st_size, max_bytes) + 1)
    finally:
        os.close(fd)
    if len(raw) > max_bytes:
        raise ValueError(f"more than the {max_bytes} bytes it may have")
    return raw


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
    """Write `data` to `path` so that a reader sees the old file or the whole new one, never a torn
    write. R-SAVE-2: `NotAFileError` when `path` is neither a regular file nor absent (it is left as
    it was); a symbolic link to a file keeps pointing at it: the file it names is the one replaced."""
    refuse_unless_file(path)
    if path.is_symlink():
        path = Path(os.path.realpath(path))
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
    #: R-SAVE-2: the path holds something that is not a regular file (a directory, a FIFO, a device,
    #: a link to nothing); it was left as it was, and must not be written over either.
    left: bool = False


def read_json_or_quarantine(path: Path, max_bytes: int = MAX_FILE_BYTES, set_aside: bool = True) -> Loaded:
    """The JSON in `path`; a missing file is `Loaded(None)`; a file that cannot be used (see
    the module's docstring) is moved aside as `<name>.corrupt` (left where it is when not
    `set_aside`: a backup, read only). Never raises."""
    aside = _aside if set_aside else _left
    try:
        raw = read_bytes(path, max_bytes)
    except FileNotFoundError:
        return Loaded(None)
    except NotAFileError:
        kind = not_a_file(path) or "not a regular file"
        reason = f"{kind}, not a file"
        message = f"{path.name} could not be used ({reason}); it was left as it is and defaults are used"
        log.warning("%s", message)
        return Loaded(None, message, None, reason, left=True)
    except ValueError as error:
        return aside(path, str(error).replace("it may have", "a file may have"))
    except OSError as error:
        return aside(path, f"could not be read: {error.strerror or error}")
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
    """Moves a bad regular file aside as `<name>.corrupt` (replacing an older file of that name;
    `<name>.corrupt.1` … when that name is taken by something else). R-SAVE-2: anything that is not
    a regular file is left where it is (`kept_as` None). Never raises."""
    kind = not_a_file(path)
    if kind is not None:
        message = f"{path.name} could not be used ({reason}); it is {kind}, left as it is, and defaults are used"
        log.warning("%s", message)
        return SetAside(message, reason, None)
    names = [f"{path.name}.corrupt"] + [f"{path.name}.corrupt.{n}" for n in range(1, ASIDE_ATTEMPTS)]
    failure: OSError | None = None
    for name in names:
        aside = path.with_name(name)
        try:
            if aside.is_symlink() or not_a_file(aside) is not None:
                continue  # never replace what is not a regular file (R-SAVE-2)
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
