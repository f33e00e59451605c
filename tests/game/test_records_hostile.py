"""The endless leaderboard against hostile files (issue 42; R-END-4, R-SAVE-2).

A table of records.key and endless_records.json cases, each put beside a board of signed records and
read the ways the game reads it (`load_records`: the Records screen, an endless run's end, `replay
--check`), then a record added and saved: a key path that is not a regular file (a FIFO, a directory,
a dangling link, a socket, device nodes made here as root) is left exactly as it was — the board
still opens, its records shown unranked, this session's unsigned, with a notice —; a bad regular key
(too large, not hex, the wrong length) is set aside and a new one made, the records kept; a record
whose text holds a control character is refused by the schema and the file set aside; the Records
screen opens and draws every case without an exception. Nothing that is not one of the game's own
regular files changes (mode, inode and device compared before and after). Never a real system path."""

from __future__ import annotations

import json
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pygame
import pytest

from artificer import storage
from artificer.game.records import (
    KEY_FILE,
    RECORDS_FILE,
    Record,
    Records,
    Status,
    deck_checksum,
    load_records,
    save_records,
)
from artificer.ui.i18n import tr
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.records import RecordsScene
from artificer.ui.session import Session
from game.test_meta_hostile import (
    BLOCK,
    URANDOM_LIKE,
    ZERO_LIKE,
    dangling,
    directory,
    fifo,
    link_to_fifo,
    not_regular,
    tree,
    unix_socket,
)

pytestmark = pytest.mark.usefixtures("isolated_home")

SNAPSHOT = deck_checksum("starter_wand", ["spark_bolt", None])


def record(wave: int, seconds: float, when: str = "2026-12-02T10:00:00Z") -> Record:
    return Record(wave, seconds, SNAPSHOT, when)


def signed_board(place: Path) -> Path:
    """Two records signed under a fresh key, saved in `place`; the records file's path."""
    path = place / RECORDS_FILE
    board = load_records(path)
    board.add(record(30, 1200.0))
    board.add(record(24, 900.0, "2026-12-02T11:00:00Z"))
    save_records(board, path)
    return path


# --- the table ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One case: how the files are put (given the directory, after a board of two signed records was
    saved with its key), and what must come: "keyless" (the key path left, records shown unranked,
    this session's unsigned), "new_key" (the bad key set aside, a new one, the records kept and shown
    as another key's), "aside" (the records file set aside), "left" (the records file is not a regular
    file: left, the board empty). `named`: words the notice must hold."""

    name: str
    make: Callable[[Path], None]
    outcome: str
    named: tuple[str, ...] = ()


def key_is(make: Callable[[Path], None]) -> Callable[[Path], None]:
    def put(place: Path) -> None:
        (place / KEY_FILE).unlink()
        make(place / KEY_FILE)

    return put


def key_bytes(data: bytes) -> Callable[[Path], None]:
    def put(place: Path) -> None:
        (place / KEY_FILE).write_bytes(data)

    return put


def huge_key(place: Path) -> None:
    with open(place / KEY_FILE, "wb") as file:  # a sparse 4 GiB file: never read whole
        file.truncate(4 << 30)


def records_is(make: Callable[[Path], None]) -> Callable[[Path], None]:
    def put(place: Path) -> None:
        (place / RECORDS_FILE).unlink()
        make(place / RECORDS_FILE)

    return put


def timestamp(value: str) -> Callable[[Path], None]:
    def put(place: Path) -> None:
        data = json.loads((place / RECORDS_FILE).read_text())
        data["records"][0]["timestamp"] = value
        (place / RECORDS_FILE).write_text(json.dumps(data))

    return put


def lost_key(place: Path) -> None:
    (place / KEY_FILE).unlink()


CASES = [
    Case("key_fifo", key_is(fifo), "keyless", ("records.key", "a FIFO", "left as it is")),
    Case("key_directory", key_is(directory), "keyless", ("a directory",)),
    Case("key_dangling_link", key_is(dangling), "keyless", ("a link to nothing",)),
    Case("key_socket", key_is(unix_socket), "keyless", ("a socket",)),
    Case("key_char_device_zero_like", key_is(ZERO_LIKE), "keyless", ("a device",)),
    Case("key_char_device_urandom_like", key_is(URANDOM_LIKE), "keyless", ("a device",)),
    Case("key_block_device", key_is(BLOCK), "keyless", ("a device",)),
    Case("key_link_to_fifo", key_is(link_to_fifo), "keyless", ("a FIFO",)),
    Case("key_4_gib", huge_key, "new_key", ("records.key.corrupt", "bytes")),
    Case("key_not_hex", key_bytes(b"not a key at all"), "new_key", ("records.key.corrupt",)),
    Case("key_short", key_bytes(b"ab" * 16), "new_key", ("32-byte",)),
    Case("key_empty", key_bytes(b""), "new_key", ("records.key.corrupt",)),
    Case("key_nul_bytes", key_bytes(b"\x00" * 64), "new_key", ("records.key.corrupt",)),
    Case("key_not_utf8", key_bytes(b"\xff\xfe" * 32), "new_key", ("records.key.corrupt",)),
    Case("key_deleted", lost_key, "new_key"),
    Case("timestamp_nul", timestamp("2026-12-02T10:00:00Z\u0000"), "aside", ("timestamp",)),
    Case("timestamp_escape", timestamp("\u001b[31m2026-12-02"), "aside", ("timestamp",)),
    Case("timestamp_newline", timestamp("2026-12-02T10:00:00Z\n"), "aside", ("timestamp",)),
    Case("timestamp_long", timestamp("2026-12-02T10:00:00Z" + "9" * 30), "aside", ("timestamp",)),
    Case("timestamp_words", timestamp("yesterday"), "aside", ("timestamp",)),
    Case("records_fifo", records_is(fifo), "left", ("endless_records.json", "a FIFO")),
    Case("records_directory", records_is(directory), "left", ("a directory",)),
    Case("records_dangling_link", records_is(dangling), "left", ("a link to nothing",)),
    Case("records_char_device_zero_like", records_is(ZERO_LIKE), "left", ("a device",)),
    Case("records_huge", records_is(lambda p: p.write_bytes(b" " * (2 << 20))), "aside", ("bytes",)),
]


def test_the_table_is_as_large_as_the_issue_asks() -> None:
    assert len(CASES) >= 20 and len({case.name for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_r_save_2_the_leaderboard_opens_whatever_its_key_and_file_and_nothing_else_changes(
    tmp_path: Path, display: pygame.Surface, case: Case
) -> None:
    place = tmp_path / "place"
    place.mkdir()
    path = signed_board(place)
    old_key = (place / KEY_FILE).read_bytes()
    case.make(place)
    before = tree(place)
    board = load_records(path)  # the Records screen, an endless end and `replay --check` read it so
    notice = board.notice or ""
    assert "\n" not in notice and notice.isprintable(), f"one printable line: {notice!r}"
    for word in case.named:
        assert word in notice, f"the notice does not name {word!r}: {notice!r}"
    scene = RecordsScene(Session.default().controls, board)
    stack = SceneStack()
    stack.push(scene)
    stack.update(1 / 60)
    stack.draw(display, 0.0)  # never an exception, whatever the files hold
    added = board.add(record(40, 2000.0, "2026-12-03T10:00:00Z"))
    try:
        save_records(board, path)
    except storage.NotAFileError:
        assert case.outcome == "left", "only a records path that is not a file refuses the save"
    after = tree(place)
    assert not_regular(after) == not_regular(before), "a thing that is not a regular file was touched"
    if case.outcome == "keyless":
        assert board.keyless and board.ranked() == [] and [r.wave for r in board.records] == [30, 24, 40]
        assert not added.signature and board.status(added) is Status.UNVERIFIED, "unsigned this session"
        assert tr("ui.records.no_key") in scene.notices
        assert not (place / f"{KEY_FILE}.corrupt").exists() and not (place / f"{KEY_FILE}.corrupt").is_symlink()
    elif case.outcome == "new_key":
        assert not board.keyless and (place / KEY_FILE).read_bytes() != old_key
        assert stat.S_IMODE((place / KEY_FILE).stat().st_mode) == 0o600
        assert [r.wave for r in board.records] == [30, 24, 40], "the records are kept"
        assert [r.wave for r in board.ranked()] == [40], "the old key's records are shown, not ranked"
        assert board.lost_key == 2 and tr("ui.records.lost_key", count=2) in scene.notices
        assert load_records(path).notice is None, "the new key is read back"
    elif case.outcome == "aside":
        assert board.records[:-1] == [] and (place / f"{RECORDS_FILE}.corrupt").exists()
        assert (place / KEY_FILE).read_bytes() == old_key, "the key is not lost with the file"
    else:
        assert board.records[:-1] == [] and not (place / f"{RECORDS_FILE}.corrupt").exists()
        assert (place / KEY_FILE).read_bytes() == old_key


# --- item 3: what the screen draws ----------------------------------------------------------------


def test_r_end_4_the_records_screen_draws_a_board_holding_control_characters(display: pygame.Surface) -> None:
    """The schema refuses such text in the file; a board made in memory holding it still draws."""
    board = Records([Record(30, 1200.0, "ab" * 8, "2026\u0000-12-02T\u001b10", key_id="\u0000")], b"k" * 32, "a\u0000b")
    scene = RecordsScene(Session.default().controls, board)
    stack = SceneStack()
    stack.push(scene)
    stack.draw(display, 0.0)
    assert all(line.isprintable() for line in scene.notices)


def test_r_end_4_a_timestamp_the_game_writes_is_accepted_and_others_refused(tmp_path: Path) -> None:
    from artificer.game.records import RecordSave

    good = {"wave": 21, "elapsed_sec": 1.0, "build_snapshot": "ab", "key_id": "", "signature": ""}
    for stamp in ("2026-12-02T10:00:00Z", "2026-12-02T10:00:00.123+02:00"):
        RecordSave.model_validate({**good, "timestamp": stamp})
    for stamp in ("", "2026-12-02", "2026-12-02T10:00:00Z\n", "2026-12-02 10:00:00Z", "２０２６-12-02T10:00:00Z"):
        with pytest.raises(ValueError):
            RecordSave.model_validate({**good, "timestamp": stamp})


# --- item 4: a deleted key says so -------------------------------------------------------------------


def test_r_end_4_deleting_the_key_says_the_records_were_signed_by_a_key_no_longer_here(
    tmp_path: Path, display: pygame.Surface
) -> None:
    path = signed_board(tmp_path)
    (tmp_path / KEY_FILE).unlink()
    scene = RecordsScene(Session.default().controls, load_records(path))
    assert scene.board.lost_key == 2 and scene.notices == [tr("ui.records.lost_key", count=2)]
    assert [rank for rank, _, _ in scene.rows] == [None, None], "shown, not ranked"
    for language in ("en", "zh_CN", "ko", "ja"):
        from artificer.ui import i18n

        i18n.set_language(language)
        try:
            assert "2" in tr("ui.records.lost_key", count=2) and tr("ui.records.no_key")
        finally:
            i18n.set_language("en")
    stack = SceneStack()
    stack.push(scene)
    stack.draw(display, 0.0)


def test_r_end_4_a_fresh_install_says_nothing() -> None:
    board = load_records()
    assert board.notice is None and not board.keyless and board.lost_key == 0
    assert RecordsScene(Session.default().controls, board).notices == []


# --- the readers of the leaderboard ------------------------------------------------------------------


def test_r_save_2_an_endless_end_and_replay_check_read_a_board_whose_key_is_a_dangling_link(tmp_path: Path) -> None:
    """Every reader of the board: it used to raise FileExistsError in each."""
    from artificer.game.records import records_path

    records_path().parent.mkdir(parents=True, exist_ok=True)
    path = signed_board(records_path().parent)
    key = path.with_name(KEY_FILE)
    key.unlink()
    key.symlink_to(tmp_path / "gone" / "key")
    board = load_records()
    assert board.keyless and len(board.records) == 2
    assert board.confirm("none.replay", 1, 1.0) == (None, "no record carries it")
    assert key.is_symlink() and not (tmp_path / "gone").exists(), "nothing made where the link points"
