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
  permissions (0600), never rewritten; a key file that cannot be used is set aside and a new one
  made (the records it signed then show as unverified, never tampered).

The online score (for later): `wave × 100000 + (86400 − elapsed_sec)`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import os
import secrets
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
    """Verified, tampered or unverified under `key` (see the module's docstring)."""
    if record.key_id != fingerprint(key):
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
    timestamp: str = Field(max_length=40)
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
    key: bytes = b""
    #: A notice for the player: the file (or the key) could not be used and was set aside.
    notice: str | None = None

    def status(self, record: Record) -> Status:
        return verify(record, self.key)

    def ranked(self) -> list[Record]:
        """The verified records, best first: highest wave, then fewest seconds, then the earliest."""
        verified = [record for record in self.records if self.status(record) is Status.VERIFIED]
        return sorted(verified, key=lambda r: (-r.wave, r.elapsed_sec, r.timestamp))

    def add(self, record: Record) -> Record:
        """`record` signed with this install's key and kept (the oldest dropped past `KEEP`)."""
        signed = record.signed(self.key)
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
    """This install's key, made on first use (owner-only); a key file that cannot be used is set
    aside and a new key made. Returns the key and a notice when the old one was set aside."""
    notice = None
    try:
        raw = path.read_bytes()
        key = bytes.fromhex(raw.decode("ascii").strip())
        if len(key) == KEY_BYTES:
            return key, None
        notice = storage.quarantine(path, f"not a {KEY_BYTES}-byte key").message
    except FileNotFoundError:
        pass
    except (OSError, ValueError, UnicodeDecodeError) as error:
        notice = storage.quarantine(path, f"not a key ({error})").message
    key = secrets.token_bytes(KEY_BYTES)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as file:
        file.write(key.hex())
    os.chmod(path, 0o600)
    return key, notice


def load_records(path: Path | None = None) -> Records:
    """The leaderboard (empty when there is no file; a file that cannot be used is set aside with a
    notice, the key kept). Never raises for a bad file."""
    path = path if path is not None else records_path()
    key, key_notice = load_key(key_path(path))
    loaded = storage.read_json_or_quarantine(path)
    if loaded.problem is not None:
        return Records([], key, loaded.problem)
    if loaded.value is None:
        return Records([], key, key_notice)
    try:
        save = RecordsSave.model_validate(loaded.value)
    except ValidationError as error:
        return Records([], key, storage.quarantine(path, storage.describe(error)).message)
    return Records([Record(**entry.model_dump()) for entry in save.records], key, key_notice)


def save_records(records: Records, path: Path | None = None) -> None:
    """Writes the leaderboard atomically (an `OSError` for the caller to report)."""
    storage.write_json_atomic(path if path is not None else records_path(), records.to_save())
