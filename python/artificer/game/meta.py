"""meta.json: what outlives a run (R-SAVE-1, R-LOOP-1, R-END-2), no pygame.

This module owns the player's progress across runs as far as the game has it
yet: how many times the game was cleared, and the New Game+ levels a new run
may choose (the first clear unlocks NG+ 1; clearing level N unlocks N + 1, up
to balance.json `ng_plus.max_level`). The meta-progression issue adds aether,
unlocks and the codex to the same file.

The file is in the user data dir, versioned by an integer (`META_VERSION`,
older versions migrated by `MIGRATIONS`), written atomically
(`storage.write_json_atomic`), and read by the one strict reader: a file that
cannot be used — unreadable, not JSON, of a version this game cannot read, out
of range — is set aside as `meta.json.corrupt` and the game starts from no
progress with a notice (`MetaLoad.notice`), never a crash.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError

from artificer import storage

META_FILE = "meta.json"
META_VERSION = 1
#: Version → the function that turns a file of that version into the next one.
MIGRATIONS: Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}
#: The most clears the file counts (a range, not a goal).
MAX_CLEARS = 1_000_000
#: The highest NG+ level any content may have (balance.json's max_level is at most this).
MAX_NG_PLUS = 10


def meta_path() -> Path:
    return storage.data_dir() / META_FILE


class MetaSave(BaseModel):
    """meta.json, version 1."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    version: Annotated[int, Strict()] = Field(default=META_VERSION, ge=META_VERSION, le=META_VERSION)
    clears: Annotated[int, Strict()] = Field(default=0, ge=0, le=MAX_CLEARS, description="R-END-2: W20 bosses felled.")
    ng_plus_unlocked: Annotated[int, Strict()] = Field(
        default=0, ge=0, le=MAX_NG_PLUS, description="R-END-2: the highest NG+ level a new run may choose (0: none)."
    )


@dataclass(frozen=True)
class Meta:
    """The progress across runs."""

    clears: int = 0
    ng_plus_unlocked: int = 0

    def cleared(self, ng_plus: int, max_level: int) -> Meta:
        """R-END-2: the progress after clearing the game at NG+ level `ng_plus`: one clear more, and
        the next level unlocked (up to `max_level`)."""
        unlocked = min(max_level, max(self.ng_plus_unlocked, ng_plus + 1))
        return Meta(min(MAX_CLEARS, self.clears + 1), unlocked)

    def to_save(self) -> dict[str, Any]:
        return {"version": META_VERSION, "clears": self.clears, "ng_plus_unlocked": self.ng_plus_unlocked}


@dataclass(frozen=True)
class MetaLoad:
    """What `load_meta` found: the progress, and a notice for the player when the file was set aside."""

    meta: Meta
    notice: str | None = None


def load_meta(path: Path | None = None) -> MetaLoad:
    """The progress in meta.json (none when there is no file). A file that cannot be used is set
    aside (`meta.json.corrupt`) and the progress starts over, with a notice. Never raises."""
    path = path if path is not None else meta_path()
    loaded = storage.read_json_or_quarantine(path)
    if loaded.problem is not None:
        return MetaLoad(Meta(), loaded.problem)
    value = loaded.value
    if value is None:
        return MetaLoad(Meta()) if not path.exists() else _aside(path, "(file): not progress")
    if not isinstance(value, dict):
        return _aside(path, f"(file): not progress (a JSON {type(value).__name__}, not an object)")
    version = value.get("version")
    if type(version) is not int or not (min([META_VERSION, *MIGRATIONS]) <= version <= META_VERSION):
        return _aside(path, f"version: unknown meta version {str(version)[:40]} (this game reads {META_VERSION})")
    while version in MIGRATIONS:
        value = MIGRATIONS[version](value)
        version = value["version"]
    try:
        save = MetaSave.model_validate(value)
    except ValidationError as error:
        return _aside(path, storage.describe(error))
    return MetaLoad(Meta(save.clears, save.ng_plus_unlocked))


def save_meta(meta: Meta, path: Path | None = None) -> None:
    """Writes `meta` to meta.json atomically (an `OSError` for the caller to report)."""
    storage.write_json_atomic(path if path is not None else meta_path(), meta.to_save())


def record_clear(ng_plus: int, max_level: int, path: Path | None = None) -> Meta:
    """R-END-2: the game was cleared at NG+ level `ng_plus`: meta.json counts it and unlocks the
    next level. Returns the new progress (written; a failed write is logged, the progress kept in
    memory for this session)."""
    meta = load_meta(path).meta.cleared(ng_plus, max_level)
    try:
        save_meta(meta, path)
    except OSError as error:
        storage.log.warning("meta.json could not be saved: %s", error)
    return meta


def _aside(path: Path, reason: str) -> MetaLoad:
    found = storage.quarantine(path, reason)
    return MetaLoad(Meta(), found.message)
