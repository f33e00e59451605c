"""The local endless leaderboard (R-END-4): `endless_records.json` and its signing key, no pygame.

This module owns:
- `Record`: one endless run — the wave reached, the simulated seconds it took, the build's snapshot
  (a checksum of its deck), when it ended (UTC, ISO 8601), its mode tags (NG+ level, cursed waves)
  — signed with HMAC-SHA256 under this install's key (`key_id`: the key's fingerprint, so a
  record signed by another key is told apart);
- `verify`: a record is verified (its signature holds under this key), tampered (this key signed
  it and a field or the signature changed since) or unverified (signed by a key this install no
  longer has: a lost key file). Only verified records are ranked;
- `Records`: the file — versioned, written atomically, the 20 most recent records kept, ranked by
  wave reached (highest first), then elapsed seconds (fewest first), then the earliest; a file
  that cannot be used is set aside (`.corrupt`) and the board starts empty, the key untouched;
- the key: 32 random bytes in `records.key` beside the file, created on first use with owner-only
  permissions (0600), never rewritten; read with a size bound (`KEY_MAX_BYTES`, `storage.read_bytes`:
  never a device's endless bytes nor a FIFO's wait); a key file that cannot be used is set aside and a
  new one made (the records it signed then show as unverified, never tampered). R-SAVE-2: a key path
  that is not a regular file (a directory, a FIFO, a device, a dangling link) is left as it is: the
  board still opens, its records shown but none ranked, and this session's records go unsigned
  (`Records.keyless`), with a notice;
- `Records.lost_key`: how many records a key this install no longer has signed (a deleted key file
  unranks them: the Records screen says so). Every text field of the file has a character class in
  its schema (no control characters; bounded), so no record can hold what a screen cannot draw.

The online score (for later): `wave × 100000 + (86400 − elapsed_sec)`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError

from artificer import storage
from artificer.game.stats import WaveStats

RECORDS_FILE = "endless_records.json"
KEY_FILE = "records.key"
RECORDS_VERSION = 1
#: The most recent records the file keeps (R-END-4).
KEEP = 20
KEY_BYTES = 32
#: The most bytes `records.key` may have (64 hex digits and a line end; a larger file is no key).
KEY_MAX_BYTES = 256
#: A record's timestamp: UTC, ISO 8601, to the second (fractions and an offset allowed).
#: What a notice says when there is no key this session.
UNSIGNED = "records are shown unranked and this session's go unsigned"
TIMESTAMP_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?(Z|[+-][0-9]{2}:[0-9]{2})$"
#: A day in seconds: the online score's time term (R-END-4).
DAY_SECONDS = 86_400
MAX_WAVE = 1_000_000
MAX_SECONDS = 1e9


class Status(StrEnum):
    VERIFIED = "verified"
    TAMPERED = "tampered"
    UNVERIFIED = "unverified"


@dataclass(frozen=True)
class Record:
    """One endless run's record (see the module's docstring)."""

    wave: int
    elapsed_sec: float
    build_snapshot: str
    timestamp: str
    ng_plus: int = 0
    cursed: bool = False
    key_id: str = ""
    signature: str = ""
    #: Issue 19: the run's replay in runs/ ("" none), and whether `artificer replay --check` played it
    #: again and confirmed this wave and time.
    replay: str = ""
    replay_checked: bool = False

    def payload(self) -> bytes:
        """What the signature covers: every field but the signature, as canonical JSON (the replay's
        two fields only when set, so a record signed before they existed still verifies)."""
        fields = {name: value for name, value in asdict(self).items() if name != "signature"}
        for name, unset in (("replay", ""), ("replay_checked", False)):
            if fields[name] == unset:
                del fields[name]
        return json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()

    @property
    def online_score(self) -> float:
        return self.wave * 100_000 + (DAY_SECONDS - self.elapsed_sec)

    def signed(self, key: bytes) -> Record:
        unsigned = Record(**{**asdict(self), "key_id": fingerprint(key), "signature": ""})
        return Record(**{**asdict(unsigned), "signature": _mac(key, unsigned.payload())})


def fingerprint(key: bytes) -> str:
    """A key's public name: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(key).hexdigest()[:16]


def _mac(key: bytes, payload: bytes) -> str:
    return hmac.new(key, payload, hashlib.sha256).hexdigest()


def verify(record: Record, key: bytes) -> Status:
    """Verified, tampered or unverified under `key` (see the module's docstring); every record is
    unverified without a key (b"": none could be read this session)."""
    if not key or record.key_id != fingerprint(key):
        return Status.UNVERIFIED
    good = hmac.compare_digest(record.signature, _mac(key, record.payload()))
    return Status.VERIFIED if good else Status.TAMPERED


def run_figures(waves: Sequence[WaveStats], tick_hz: int) -> tuple[int, float]:
    """A record's wave and time from the waves a run played: the highest wave (0: none) and the
    simulated seconds they took (the summary's, and `replay --check`'s confirmation)."""
    return max((stats.wave for stats in waves), default=0), sum(stats.frames for stats in waves) / tick_hz


def deck_checksum(core: str, cards: Sequence[str | None]) -> str:
    """The build snapshot of a record: a checksum of the active core and its cards in slot order."""
    text = json.dumps([core, list(cards)], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class RecordSave(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    wave: Annotated[int, Strict()] = Field(ge=1, le=MAX_WAVE)
    elapsed_sec: float = Field(ge=0, le=MAX_SECONDS)
    build_snapshot: str = Field(pattern=r"^[0-9a-f]{1,64}$")
    timestamp: str = Field(max_length=40, pattern=TIMESTAMP_PATTERN)
    ng_plus: Annotated[int, Strict()] = Field(default=0, ge=0, le=100)
    cursed: Annotated[bool, Strict()] = False
    key_id: str = Field(pattern=r"^[0-9a-f]{0,64}$")
    signature: str = Field(pattern=r"^[0-9a-f]{0,128}$")
    replay: str = Field(default="", max_length=80, pattern=r"^([0-9A-Za-z_\-]+\.replay)?$")
    replay_checked: Annotated[bool, Strict()] = False


class RecordsSave(BaseModel):
    """endless_records.json, version 1."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    version: Annotated[int, Strict()] = Field(ge=RECORDS_VERSION, le=RECORDS_VERSION)
    records: list[RecordSave] = Field(max_length=KEEP)


@dataclass
class Records:
    """The leaderboard's records, newest last, and the key that signs and verifies them."""

    records: list[Record] = field(default_factory=list)
    #: This install's key; b"": none this session (`keyless`).
    key: bytes = b""
    #: A notice for the player: the file (or the key) could not be used and was set aside, or left.
    notice: str | None = None

    @property
    def keyless(self) -> bool:
        """R-SAVE-2: no key could be read or made (its path is not a regular file, or cannot be
        written): nothing is ranked, and what is added goes unsigned."""
        return not self.key

    @property
    def lost_key(self) -> int:
        """How many records were signed by a key this install no longer has (a deleted or replaced
        key file): shown, never ranked."""
        if self.keyless:
            return sum(1 for record in self.records if record.key_id)
        return sum(1 for record in self.records if record.key_id and record.key_id != fingerprint(self.key))

    def status(self, record: Record) -> Status:
        return verify(record, self.key)

    def ranked(self) -> list[Record]:
        """The verified records, best first: highest wave, then fewest seconds, then the earliest."""
        verified = [record for record in self.records if self.status(record) is Status.VERIFIED]
        return sorted(verified, key=lambda r: (-r.wave, r.elapsed_sec, r.timestamp))

    def add(self, record: Record) -> Record:
        """`record` signed with this install's key and kept (the oldest dropped past `KEEP`); without a
        key, kept unsigned (never ranked)."""
        signed = record.signed(self.key) if self.key else dataclasses.replace(record, key_id="", signature="")
        self.records = [*self.records, signed][-KEEP:]
        return signed

    def confirm(self, replay: str, wave: int, seconds: float) -> tuple[Record | None, str]:
        """Issue 19: the replay `replay` was played again and reached `wave` in `seconds`: the verified
        record carrying it, if its wave and time are those, is marked replay-checked (signed again).
        Returns the record (None: none carries it) and what was found, in a few words."""
        for index, record in enumerate(self.records):
            if record.replay != replay:
                continue
            if self.status(record) is not Status.VERIFIED:
                return record, f"its record is {self.status(record).value}: not confirmed"
            if record.wave != wave or abs(record.elapsed_sec - round(seconds, 2)) > 0.005:
                claimed = f"wave {record.wave} in {record.elapsed_sec} s"
                return record, f"its record claims {claimed}, the replay reaches wave {wave} in {round(seconds, 2)} s"
            checked = dataclasses.replace(record, replay_checked=True).signed(self.key)
            self.records[index] = checked
            return checked, f"its record, wave {wave} in {record.elapsed_sec} s, is confirmed"
        return None, "no record carries it"

    def to_save(self) -> dict[str, Any]:
        return {"version": RECORDS_VERSION, "records": [asdict(record) for record in self.records]}


def records_path() -> Path:
    return storage.data_dir() / RECORDS_FILE


def key_path(records: Path) -> Path:
    return records.with_name(KEY_FILE)


def load_key(path: Path) -> tuple[bytes, str | None]:
    """This install's key, made on first use (owner-only), and a notice when the player should know.
    A regular key file that cannot be used (too large, not a key, unreadable) is set aside and a new
    key made. R-SAVE-2: a key path that is not a regular file (a FIFO, a device, a directory, a
    dangling link) is left as it is, never opened for long nor written: b"" (no key this session)."""
    kind = storage.not_a_file(path)
    if kind is not None:
        return b"", _left(path, kind)
    try:
        raw = storage.read_bytes(path, KEY_MAX_BYTES)
    except FileNotFoundError:
        return _new_key(path, None)
    except storage.NotAFileError:  # swapped in between the look and the read
        return b"", _left(path, storage.not_a_file(path) or "not a regular file")
    except ValueError as error:  # larger than a key may be
        notice = storage.quarantine(path, f"not a key ({str(error).replace('it may have', 'a key may have')})").message
    except OSError as error:
        notice = storage.quarantine(path, f"not a key (could not be read: {error.strerror or error})").message
    else:
        key = _parse_key(raw)
        if key is not None:
            return key, None
        notice = storage.quarantine(path, f"not a {KEY_BYTES}-byte key in hex").message
    if os.path.lexists(path):  # could not be set aside: never written over
        return b"", notice
    return _new_key(path, notice)


def _new_key(path: Path, notice: str | None) -> tuple[bytes, str | None]:
    """A new key written at `path` (absent), owner-only, created exclusively (never through a link)."""
    key = secrets.token_bytes(KEY_BYTES)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, flags, 0o600)
    except FileExistsError:  # made by another process in between (or something else put there)
        kind = storage.not_a_file(path)
        if kind is not None:
            return b"", _left(path, kind)
        for _ in range(5):  # the other process may not have written it yet
            try:
                again = _parse_key(storage.read_bytes(path, KEY_MAX_BYTES))
            except (OSError, ValueError):
                again = None
            if again is not None:
                return again, notice
            time.sleep(0.02)
        return b"", _notice(notice, f"{path.name} could not be read; {UNSIGNED}")
    except OSError as error:
        return b"", _notice(notice, f"{path.name} could not be made ({error.strerror or error}); {UNSIGNED}")
    try:
        with os.fdopen(fd, "w") as file:
            file.write(key.hex())
        os.chmod(path, 0o600)
    except OSError as error:
        path.unlink(missing_ok=True)
        return b"", _notice(notice, f"{path.name} could not be written ({error.strerror or error}); {UNSIGNED}")
    return key, notice


def _parse_key(raw: bytes) -> bytes | None:
    """The key `raw` holds (64 hex digits, blanks around allowed), or None."""
    try:
        key = bytes.fromhex(raw.decode("ascii").strip())
    except (UnicodeDecodeError, ValueError):
        return None
    return key if len(key) == KEY_BYTES else None


def _left(path: Path, kind: str) -> str:
    message = f"{path.name} is {kind}, not a file, and was left as it is; {UNSIGNED}"
    storage.log.warning("%s", message)
    return message


def load_records(path: Path | None = None) -> Records:
    """The leaderboard (empty when there is no file; a file that cannot be used is set aside with a
    notice, the key kept; one that is not a regular file is left as it is). Never raises for a bad
    file or a bad key."""
    path = path if path is not None else records_path()
    key, key_notice = load_key(key_path(path))
    loaded = storage.read_json_or_quarantine(path)
    if loaded.problem is not None:
        return Records([], key, _notice(loaded.problem, key_notice))
    if loaded.value is None:
        return Records([], key, _notice(key_notice))
    try:
        save = RecordsSave.model_validate(loaded.value)
    except ValidationError as error:
        return Records([], key, _notice(storage.quarantine(path, storage.describe(error)).message, key_notice))
    return Records([Record(**entry.model_dump()) for entry in save.records], key, _notice(key_notice))


def _notice(*parts: str | None) -> str | None:
    text = "; ".join(part for part in parts if part)
    if not text:
        return None
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)  # a file's text, quoted
    return shown if len(shown) <= 400 else shown[:399] + "…"


def save_records(records: Records, path: Path | None = None) -> None:
    """Writes the leaderboard atomically (an `OSError` for the caller to report; `NotAFileError`
    when its path is not a regular file, left as it is)."""
    storage.write_json_atomic(path if path is not None else records_path(), records.to_save())
