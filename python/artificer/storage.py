"""Where the game keeps its files, and how it writes them (R-SAVE-1).

This module owns the user directories (platformdirs; `ARTIFICER_HOME`
overrides both, for tests and portable installs) and the two ways a file is
written: `write_atomic` (a temporary file in the same directory, flushed and
fsync'd, then `os.replace`d over the target, so a crash leaves the old file
or the new one, never half of either) and `read_json_or_quarantine` (a file
that does not parse is renamed to `<name>.corrupt` and the caller starts from
defaults, with a message to show the player).
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

APP_NAME = "arcane-artificer"
HOME_ENV = "ARTIFICER_HOME"


def data_dir() -> Path:
    """The user data dir (saves, run summaries): `$ARTIFICER_HOME/data` when set."""
    home = os.environ.get(HOME_ENV)
    return Path(home) / "data" if home else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def config_dir() -> Path:
    """The user config dir (settings): `$ARTIFICER_HOME/config` when set."""
    home = os.environ.get(HOME_ENV)
    return Path(home) / "config" if home else Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


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


def write_json_atomic(path: Path, value: Any) -> None:
    """`value` as indented UTF-8 JSON, written atomically."""
    write_atomic(path, (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))


@dataclass(frozen=True)
class Loaded:
    """What `read_json_or_quarantine` found: the value (None: start from defaults) and a message for the player."""

    value: Any
    problem: str | None = None


def read_json_or_quarantine(path: Path) -> Loaded:
    """The JSON in `path`; a missing file is `Loaded(None)`; an unreadable one is moved to `<name>.corrupt`."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Loaded(None)
    try:
        return Loaded(json.loads(raw.decode("utf-8")))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        return Loaded(None, quarantine(path, str(error)))


def quarantine(path: Path, reason: str) -> str:
    """Move a bad file aside as `<name>.corrupt` (replacing an older one); return the message to show."""
    aside = path.with_name(path.name + ".corrupt")
    os.replace(path, aside)
    return f"{path.name} could not be read ({reason}); it was kept as {aside.name} and defaults are used"
