"""The endless leaderboard (R-END-4): ranking by wave then seconds, ties, the 20 most recent kept,
HMAC signatures (any changed field or signature ⇒ tampered, never ranked), a lost key (unverified,
not tampered), a corrupt file set aside without losing the key, the key owner-only."""

from __future__ import annotations

import dataclasses
import json
import stat
from pathlib import Path

import pytest

from artificer.game.records import (
    KEEP,
    KEY_FILE,
    RECORDS_FILE,
    Record,
    Status,
    deck_checksum,
    load_records,
    save_records,
)

SNAPSHOT = deck_checksum("starter_wand", ["spark_bolt", None])


def record(wave: int, seconds: float, when: str = "2026-12-02T10:00:00Z", **modes: object) -> Record:
    return Record(wave=wave, elapsed_sec=seconds, build_snapshot=SNAPSHOT, timestamp=when, **modes)  # type: ignore[arg-type]


def test_r_end_4_records_rank_by_wave_then_fewer_seconds_then_the_earliest(tmp_path: Path) -> None:
    board = load_records(tmp_path / RECORDS_FILE)
    board.add(record(25, 900.0, "2026-12-02T10:00:00Z"))
    board.add(record(31, 1500.0, "2026-12-02T11:00:00Z"))
    board.add(record(31, 1400.0, "2026-12-02T12:00:00Z"))
    board.add(record(31, 1400.0, "2026-12-02T09:00:00Z"))
    ranked = [(r.wave, r.elapsed_sec, r.timestamp[11:13]) for r in board.ranked()]
    assert ranked == [(31, 1400.0, "09"), (31, 1400.0, "12"), (31, 1500.0, "11"), (25, 900.0, "10")]
    assert board.ranked()[0].online_score == 31 * 100_000 + (86_400 - 1400.0)


def test_r_end_4_the_20_most_recent_are_kept_and_the_file_round_trips(tmp_path: Path) -> None:
    path = tmp_path / RECORDS_FILE
    board = load_records(path)
    for n in range(KEEP + 5):
        board.add(record(21 + n, 100.0 * n, f"2026-12-02T10:{n:02d}:00Z", ng_plus=n % 3, cursed=n % 2 == 0))
    assert len(board.records) == KEEP and board.records[0].wave == 21 + 5, "the oldest five dropped"
    save_records(board, path)
    again = load_records(path)
    assert again.records == board.records and again.notice is None
    assert all(again.status(r) is Status.VERIFIED for r in again.records)


@pytest.mark.parametrize(
    "change",
    [
        {"wave": 99},
        {"elapsed_sec": 1.0},
        {"build_snapshot": "0" * 16},
        {"timestamp": "2020-01-01T00:00:00Z"},
        {"ng_plus": 2},
        {"cursed": True},
        {"signature": "0" * 64},
        {"replay": "2026-12-02_100000_seed1.replay"},
        {"replay_checked": True},
    ],
)
def test_r_end_4_changing_any_field_or_the_signature_marks_the_record_tampered(
    tmp_path: Path, change: dict[str, object]
) -> None:
    path = tmp_path / RECORDS_FILE
    board = load_records(path)
    board.add(record(30, 1200.0))
    board.add(record(22, 800.0))
    save_records(board, path)
    data = json.loads(path.read_text())
    data["records"][0].update(change)
    path.write_text(json.dumps(data))
    edited = load_records(path)
    assert edited.status(edited.records[0]) is Status.TAMPERED
    assert [r.wave for r in edited.ranked()] == [22], "a tampered record is never ranked"


def test_r_end_4_a_lost_key_leaves_its_records_unverified_not_tampered(tmp_path: Path) -> None:
    path = tmp_path / RECORDS_FILE
    board = load_records(path)
    board.add(record(30, 1200.0))
    save_records(board, path)
    (tmp_path / KEY_FILE).unlink()  # the key is lost: a new one is made
    after = load_records(path)
    assert after.key != board.key
    assert after.status(after.records[0]) is Status.UNVERIFIED and after.ranked() == []
    after.add(record(21, 500.0))
    assert [r.wave for r in after.ranked()] == [21], "the new key signs what comes next"


def test_r_end_4_a_corrupt_file_is_set_aside_and_the_key_kept(tmp_path: Path) -> None:
    path = tmp_path / RECORDS_FILE
    board = load_records(path)
    board.add(record(30, 1200.0))
    save_records(board, path)
    key = board.key
    path.write_text('{"version": 1, "records": [{"wave": "lots"}]}')
    after = load_records(path)
    assert after.records == [] and after.notice is not None and RECORDS_FILE in after.notice
    assert (tmp_path / f"{RECORDS_FILE}.corrupt").exists() and after.key == key, "the key is not lost with it"


def test_r_end_4_the_key_is_created_once_owner_only(tmp_path: Path) -> None:
    board = load_records(tmp_path / RECORDS_FILE)
    key_file = tmp_path / KEY_FILE
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert load_records(tmp_path / RECORDS_FILE).key == board.key, "made once, then read"
    key_file.write_text("not hex")
    fresh = load_records(tmp_path / RECORDS_FILE)
    assert fresh.key != board.key and fresh.notice is not None and (tmp_path / f"{KEY_FILE}.corrupt").exists()


def test_r_end_4_a_record_is_signed_under_this_installs_key() -> None:
    signed = record(21, 10.0).signed(b"k" * 32)
    assert signed.key_id and len(signed.signature) == 64
    assert dataclasses.replace(signed, wave=22).payload() != signed.payload()


def test_a_record_signed_before_replays_existed_still_verifies(tmp_path: Path) -> None:
    """Issue 19 added `replay` and `replay_checked`: a record without them keeps the payload it was
    signed over (its signature still holds); with them set they are signed too."""
    path = tmp_path / RECORDS_FILE
    board = load_records(path)
    signed = board.add(record(25, 900.0))
    old_payload = {
        k: v for k, v in dataclasses.asdict(signed).items() if k not in ("signature", "replay", "replay_checked")
    }
    assert signed.payload() == json.dumps(old_payload, sort_keys=True, separators=(",", ":")).encode()
    save_records(board, path)
    data = json.loads(path.read_text())
    for entry in data["records"]:
        del entry["replay"], entry["replay_checked"]  # the file as an older version wrote it
    path.write_text(json.dumps(data))
    assert [load_records(path).status(r) for r in load_records(path).records] == [Status.VERIFIED]
    with_replay = board.add(record(26, 950.0, replay="2026-12-02_100000_seed1.replay"))
    assert b"replay" in with_replay.payload() and board.status(with_replay) is Status.VERIFIED


def test_confirm_marks_only_the_verified_record_whose_wave_and_time_the_replay_reaches(tmp_path: Path) -> None:
    board = load_records(tmp_path / RECORDS_FILE)
    name = "2026-12-02_100000_seed1.replay"
    board.add(record(24, 812.5, replay=name))
    found, detail = board.confirm(name, 24, 812.0)
    assert found is not None and not found.replay_checked and "claims wave 24 in 812.5 s" in detail
    found, detail = board.confirm(name, 24, 812.5)
    assert found is not None and found.replay_checked and board.status(found) is Status.VERIFIED
    assert board.records[0].replay_checked and detail.endswith("confirmed")
    assert board.confirm("2026-12-02_100001_seed2.replay", 24, 812.5) == (None, "no record carries it")
