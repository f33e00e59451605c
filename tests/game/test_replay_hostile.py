"""R-SAVE-2 for replays (issue 42, "Replays are shared files: treat them as hostile"): a replay is a
file players hand each other, so every bad one — made here from a real recorded replay, then
damaged — is refused in one line naming its problem (the JSON path and the reason) before a frame
is played: by `read_tape`, and by `artificer replay FILE`, `replay FILE --check --json` and
`play --replay FILE`, each exiting 2 with one line on stderr and no traceback, the file (or FIFO,
directory, link, device) left exactly as it was. Memory is bounded: the frames in all by
balance.json `replay.max_frames`, a wave's controls inflated a chunk at a time to at most the bytes
its frames hold, the JSON values before the file is parsed. (The replay's own rules:
tests/game/test_replay.py.)"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import stat
import subprocess
import sys
import tracemalloc
import zlib
from base64 import b64decode, b64encode
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from artificer import _core, storage
from artificer.__main__ import main
from artificer.content import load_content
from artificer.content.builds import load_builds
from artificer.content.schema import content_schemas
from artificer.game import replay as rp
from artificer.game.journal import Entry
from artificer.game.save import MAX_WAVES
from artificer.sim.headless import play_waves

CONTENT = load_content()
BUILDS = load_builds(CONTENT)
MAX_FRAMES = CONTENT.balance.replay.max_frames
MAX_LEVEL = CONTENT.balance.ng_plus.max_level
#: Bytes of controls a frame holds (float32 each).
FRAME_BYTES = _core.CONTROLS_WIDTH * 4
#: The zlib bomb's inflated size: thousands of times what its wave's frames hold.
BOMB_BYTES = 256 << 20


@pytest.fixture(scope="module")
def recorded() -> bytes:
    """The shopping bot's spark run, waves 1..2, as its replay file holds it (it shops before wave 2)."""
    tape = play_waves(CONTENT, 3, 2, BUILDS["spark"], record=True).tape
    assert tape is not None and [w.wave for w in tape.waves] == [1, 2] and tape.waves[1].before
    return tape.to_bytes()


# --- how each case is made --------------------------------------------------------------------

Doc = dict[str, Any]
Make = Callable[[bytes, Path], None]


def signed(doc: Doc) -> bytes:
    """`doc` (without its checksum) as a replay file with a checksum that matches."""
    body = {key: value for key, value in doc.items() if key != "checksum"}
    body["checksum"] = hashlib.sha256(rp._canonical(body)).hexdigest()
    return json.dumps(body, separators=(",", ":")).encode() + b"\n"


def pack(raw: bytes) -> str:
    return b64encode(zlib.compress(raw, 9)).decode()


def edit(change: Callable[[Doc], object]) -> Make:
    """The recorded file, `change`d and signed again (a hand that knows the checksum)."""

    def make(good: bytes, path: Path) -> None:
        doc = json.loads(good)
        change(doc)
        path.write_bytes(signed(doc))

    return make


def setting(name: str, value: Any) -> Make:
    return edit(lambda doc: doc["start"]["settings"].__setitem__(name, value))


def first_wave(name: str, value: Any) -> Make:
    return edit(lambda doc: doc["waves"][0].__setitem__(name, value))


def text(pattern: bytes, replacement: bytes) -> Make:
    """The recorded file with the first match of `pattern` replaced, as text (its checksum left)."""

    def make(good: bytes, path: Path) -> None:
        damaged, count = re.subn(pattern, replacement, good, count=1)
        assert count == 1, pattern
        path.write_bytes(damaged)

    return make


def raw(change: Callable[[bytes], bytes]) -> Make:
    def make(good: bytes, path: Path) -> None:
        path.write_bytes(change(good))

    return make


def call(entry: Entry, where: str = "before") -> Make:
    """A journaled call added first to wave 2's `before` (or to `pending`)."""

    def change(doc: Doc) -> None:
        calls = doc["pending"] if where == "pending" else doc["waves"][1]["before"]
        calls.insert(0, entry.to_json())

    return edit(change)


def controls(packed: str, frames: int | None = None) -> Make:
    def change(doc: Doc) -> None:
        doc["waves"][0]["controls"] = packed
        if frames is not None:
            doc["waves"][0]["frames"] = frames

    return edit(change)


def wave_controls(change: Callable[[bytes], str]) -> Make:
    """Wave 1's controls, repacked by `change` from its real inflated bytes."""

    def make(good: bytes, path: Path) -> None:
        doc = json.loads(good)
        real = zlib.decompress(b64decode(doc["waves"][0]["controls"]))
        doc["waves"][0]["controls"] = change(real)
        path.write_bytes(signed(doc))

    return make


def nan_in_controls(real: bytes) -> str:
    values = np.frombuffer(real, dtype=np.float32).copy()
    values[len(values) // 2] = np.nan
    return pack(values.tobytes())


def zlib_bomb(good: bytes, path: Path) -> None:
    """Wave 1's controls: 256 MiB of zeros, packed into a few hundred KB (its frames hold 86 KB)."""
    squeezer, pieces = zlib.compressobj(9), []
    block = bytes(16 << 20)
    for _ in range(BOMB_BYTES // len(block)):
        pieces.append(squeezer.compress(block))
    pieces.append(squeezer.flush())
    edit(lambda doc: doc["waves"][0].__setitem__("controls", b64encode(b"".join(pieces)).decode()))(good, path)


def long_waves(count: int, frames: int) -> Make:
    """`count` waves of `frames` steps of zeros each (well formed, signed)."""
    packed = pack(bytes(frames * FRAME_BYTES))

    def change(doc: Doc) -> None:
        model = doc["waves"][0]
        doc["waves"] = [
            {**model, "wave": n + 1, "frames": frames, "controls": packed, "before": [], "during": []}
            for n in range(count)
        ]

    return edit(change)


def save_start(save: Doc) -> Make:
    def change(doc: Doc) -> None:
        doc["start"] = {**doc["start"], "kind": "save", "phase": "cleared", "save": save}
        doc["start"].pop("settings")

    return edit(change)


def practice_from(wave: int) -> Callable[[Doc], None]:
    """A practice run begun at `wave` (its waves renumbered from there)."""

    def change(doc: Doc) -> None:
        doc["start"].update(wave=wave, phase="cleared")
        doc["start"]["settings"].update(first_wave=wave, practice=True)
        for number, recorded in enumerate(doc["waves"]):
            recorded["wave"] = wave + number

    return change


def nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def make_fifo(good: bytes, path: Path) -> None:
    os.mkfifo(path)


def make_directory(good: bytes, path: Path) -> None:
    path.mkdir()
    (path / "inside.txt").write_text("kept")


def make_dangling_symlink(good: bytes, path: Path) -> None:
    path.symlink_to(path.with_name("gone.replay"))


def device_node(path: Path) -> None:
    """A character device made here (the numbers of a zero device), never a system path; root only."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 5))
    except PermissionError as error:
        pytest.skip(f"cannot make a device node here ({error.strerror})")


def make_device(good: bytes, path: Path) -> None:
    device_node(path)


def make_symlink_to_device(good: bytes, path: Path) -> None:
    device = path.with_name("zero_device")
    device_node(device)
    path.symlink_to(device)


def make_too_big(good: bytes, path: Path) -> None:
    """A sparse file one byte past `MAX_BYTES` (no disk used)."""
    with path.open("wb") as file:
        file.truncate(rp.MAX_BYTES + 1)


@dataclass(frozen=True)
class Case:
    name: str
    make: Make
    #: What the one line says (a regular expression searched in it).
    says: str
    #: Needs root (a device node).
    root: bool = False


NO_UNLOCK = Entry("shop", "unlock", (("no_such_card",),))
CASES = [
    # not strict JSON: the tracebacks the hostile tester found
    Case(
        "nan_currency", text(rb'"currency":\d+', b'"currency":NaN'), r"start\.settings\.currency: NaN is not a number"
    ),
    Case("infinity_seconds", text(rb'"seconds":[0-9.]+', b'"seconds":Infinity'), r"waves\[0\]\.seconds: Infinity"),
    Case("minus_infinity_seed", text(rb'"seed":\d+', b'"seed":-Infinity'), r"start\.settings\.seed: -Infinity"),
    Case("float_overflow", text(rb'"seconds":[0-9.]+', b'"seconds":1e999'), r"waves\[0\]\.seconds: a number too large"),
    Case("huge_int_seed", text(rb'"seed":\d+', b'"seed":' + b"7" * 5000), r"start\.settings\.seed: a 5000-digit"),
    Case("huge_int_frames", text(rb'"frames":\d+', b'"frames":' + b"9" * 4301), r"waves\[0\]\.frames: a 4301-digit"),
    # start settings: typed, now also ranged as a save's
    Case("seed_negative", setting("seed", -1), r"start\.settings\.seed: .*greater than or equal to 0"),
    Case("seed_2_64", setting("seed", 2**64), r"start\.settings\.seed: .*less than 18446744073709551616"),
    Case("ng_plus_99", setting("ng_plus", 99), r"start\.settings\.ng_plus: .*less than or equal to 10"),
    Case(
        "ng_plus_above_max", setting("ng_plus", MAX_LEVEL + 1), rf"ng_plus: {MAX_LEVEL + 1} is above .*\({MAX_LEVEL}\)"
    ),
    Case("ng_plus_negative", setting("ng_plus", -1), r"start\.settings\.ng_plus: .*greater than or equal to 0"),
    Case("currency_10_30", setting("currency", 10**30), r"start\.settings\.currency: .*less than or equal"),
    Case("currency_negative", setting("currency", -(10**6)), r"start\.settings\.currency: .*greater than or equal"),
    Case("first_wave_0", setting("first_wave", 0), r"start\.settings\.first_wave: .*greater than or equal to 1"),
    Case("first_wave_10_6", setting("first_wave", 10**6), r"start\.settings\.first_wave: .*less than or equal"),
    Case("onboarding_negative", setting("onboarding", -5), r"start\.settings\.onboarding: .*greater than or equal"),
    Case(
        "unlocked_unknown",
        setting("unlocked", ["nuke", "no_such_card"]),
        r"settings\.unlocked: unknown .*'no_such_card'",
    ),
    Case("unlocked_not_an_id", setting("unlocked", ["Not An Id"]), r"start\.settings\.unlocked\[0\]: String should"),
    Case("setting_missing", edit(lambda d: d["start"]["settings"].pop("currency")), r"settings\.currency: missing"),
    Case("seed_as_text", setting("seed", "3"), r"start\.settings\.seed: Input should be a valid integer"),
    Case("cursed_as_number", setting("cursed", 1), r"start\.settings\.cursed: Input should be a valid boolean"),
    Case("start_wave_0", edit(lambda d: d["start"].__setitem__("wave", 0)), r"start\.wave: 0 is not a wave"),
    Case("first_wave_not_practice", setting("first_wave", 5), r"first_wave: 5: only a practice run begins past wave 1"),
    Case(
        "start_wave_not_first",
        edit(lambda d: d["start"].__setitem__("wave", 2)),
        r"start\.wave: 2 is not the new run's",
    ),
    Case("start_wave_past_last", edit(practice_from(25)), r"start\.wave: 25 is past the last wave \(20\)"),
    Case("start_kind", edit(lambda d: d["start"].__setitem__("kind", "other")), r"start\.kind: 'other'"),
    Case("save_seed", save_start({"seed": -1}), r"start\.save\.seed: .*greater than or equal to 0"),
    Case("save_garbage", save_start({"seed": 3, "next_wave": 0}), r"start\.save\.\w+: "),
    # the journal
    Case("journal_unlock_unknown", call(NO_UNLOCK), r"waves\[1\]\.before\[0\]\.args\[0\]: unknown .*'no_such_card'"),
    Case("pending_unlock_unknown", call(NO_UNLOCK, "pending"), r"pending\[0\]\.args\[0\]: unknown spell or core"),
    Case("journal_unlock_not_ids", call(Entry("shop", "unlock", (3,))), r"args\[0\]: not a list of spell or core ids"),
    Case("journal_not_journaled", call(Entry("shop", "open", (1,))), r"before\[0\]: shop\.open is not a call a"),
    Case("journal_arguments", call(Entry("shop", "reroll", (1, 2))), r"before\[0\]: shop\.reroll does not take 2"),
    Case("journal_part", edit(lambda d: d["pending"].append({"part": "world", "call": "x"})), r"pending\[0\]: .*part"),
    Case(
        "during_step",
        edit(lambda d: d["waves"][0]["during"].append(Entry("belt", "use", (0,), 10**6).to_json())),
        r"during\[0\]: .*step",
    ),
    # controls and frames: memory
    Case("zlib_bomb", zlib_bomb, r"waves\[0\]\.controls: they inflate past the 86400 bytes 3600 frames hold"),
    Case(
        "frames_over_max",
        long_waves(1, MAX_FRAMES + 1),
        rf"waves: {MAX_FRAMES + 1} frames in all, more than the {MAX_FRAMES}",
    ),
    Case("frames_summed_over_max", long_waves(MAX_FRAMES // 36_000 + 1, 36_000), r"frames in all, more than the"),
    Case("frames_claimed_over_max", first_wave("frames", 10**9), r"waves: 1000003600 frames in all, more than"),
    Case("too_many_waves", long_waves(MAX_WAVES + 1, 0), rf"waves: {MAX_WAVES + 1} waves, more than a run plays"),
    Case("controls_short", controls(pack(bytes(100)), 3600), r"waves\[0\]: 100 bytes of controls for 3600 frames"),
    Case(
        "controls_nan", wave_controls(nan_in_controls), r"waves\[0\]\.controls: they hold a value that is not a number"
    ),
    Case("base64_truncated", wave_controls(lambda real: pack(real)[:-3]), r"waves\[0\]\.controls: not base64"),
    Case("base64_alphabet", wave_controls(lambda real: "!!" + pack(real)), r"waves\[0\]\.controls: not base64"),
    Case("not_zlib", controls(b64encode(b"not zlib at all!").decode()), r"waves\[0\]\.controls: damaged \(Error -3"),
    Case(
        "zlib_cut_short",
        wave_controls(lambda real: b64encode(zlib.compress(real)[:-8]).decode()),
        r"controls: cut short",
    ),
    Case("zlib_trailing", wave_controls(lambda real: b64encode(zlib.compress(real) + b"xx").decode()), r"bytes follow"),
    Case("frames_as_text", first_wave("frames", "3600"), r"waves\[0\]\.frames: '3600' is not a frame count"),
    Case("waves_an_object", edit(lambda d: d.__setitem__("waves", {})), r"^waves: missing \(not a list\)"),
    # the file as a whole
    Case("checksum_wrong", raw(lambda g: g.replace(b'"checksum":"', b'"checksum":"0', 1)), r"checksum does not match"),
    Case("checksum_missing", raw(lambda g: re.sub(rb',"checksum":"\w+"', b"", g)), r"checksum does not match"),
    Case("outcome_two_lines", first_wave("outcome", "won\nagain"), r"waves\[0\]\.outcome: 'won\\nagain' is not"),
    Case("ending_two_lines", edit(lambda d: d.__setitem__("ending", "died\nx")), r"^ending: 'died\\nx' is not"),
    Case("game_two_lines", edit(lambda d: d.__setitem__("game", "0.1\n2")), r"^game: '0\.1\\n2' is not a version"),
    Case("hash_not_hex", first_wave("hash", "zz"), r"waves\[0\]\.hash: 'zz' is not a state hash"),
    Case("nested_deep", edit(lambda d: d.__setitem__("pad", nested(40))), r"pad(\[0\])+: nested deeper than 32 levels"),
    Case("nested_very_deep", raw(lambda g: b"[" * 200_000 + b"]" * 200_000), r"not a replay file \(nested deeper"),
    Case("values_bomb", edit(lambda d: d.__setitem__("pad", [[]] * MAX_FRAMES)), r"JSON values, more than the"),
    Case("not_utf8", raw(lambda g: g.replace(b'"created":"', b'"created":"\xff', 1)), r"not UTF-8 text: byte 0xff"),
    Case("key_twice", text(rb'"seed":\d+', b'"seed":3,"seed":4'), r"the key 'seed' appears twice"),
    Case("truncated", raw(lambda g: g[: len(g) // 2]), r"not a replay file \(not JSON: .*: line 1 column \d+"),
    Case("empty", raw(lambda g: b""), r"not a replay file \(not JSON"),
    Case("not_a_replay", raw(lambda g: b'{"format": "a save"}'), r"^not a replay file$"),
    Case("format_version", edit(lambda d: d.__setitem__("version", 2)), r"replay format 2: this game reads format 1"),
    Case("too_big", make_too_big, r"too big for a replay: \d+ bytes, more than"),
    # R-SAVE-2: not a regular file, left as it is
    Case("fifo", make_fifo, r"^a FIFO, not a replay file \(left as it is\)$"),
    Case("directory", make_directory, r"^a directory, not a replay file"),
    Case("dangling_symlink", make_dangling_symlink, r"^a link to nothing, not a replay file"),
    Case("device", make_device, r"^a device, not a replay file", root=True),
    Case("symlink_to_device", make_symlink_to_device, r"^a device, not a replay file", root=True),
]
#: The cases also run as a separate process (`python -m artificer replay FILE --check`).
IN_A_PROCESS = {"nan_currency", "huge_int_seed", "zlib_bomb", "ng_plus_99", "fifo", "directory", "dangling_symlink"}


def looks(path: Path) -> tuple[Any, ...]:
    """What `path` is, to the byte: its kind, inode, size and time, and its bytes (a file), its
    target (a link) or its entries (a directory)."""
    info = os.lstat(path)
    inside: Any = None
    if stat.S_ISLNK(info.st_mode):
        inside = os.readlink(path)
    elif stat.S_ISREG(info.st_mode):
        with path.open("rb") as file:
            inside = hashlib.file_digest(file, "sha256").hexdigest()
    elif stat.S_ISDIR(info.st_mode):
        inside = sorted(os.listdir(path))
    return info.st_mode, info.st_ino, info.st_size, info.st_mtime_ns, inside


def said(stderr: str, path: Path) -> str:
    """The refusal in the command's one line `artificer replay: NAME: refusal`."""
    prefix, _, refusal = stderr.rstrip("\n").partition(f"{path.name}: ")
    assert prefix.startswith("artificer ") and refusal, stderr
    return refusal


def one_line(message: str) -> None:
    assert message and "\n" not in message and "Traceback" not in message, message


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_r_save_2_a_hostile_replay_is_refused_in_one_line_before_a_frame(
    case: Case, recorded: bytes, tmp_path: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if case.root and os.geteuid() != 0:
        pytest.skip("a device node can only be made as root")
    folder = tmp_path / "shared"
    folder.mkdir()
    path = folder / f"{case.name}.replay"
    case.make(recorded, path)
    before, listing = looks(path), sorted(os.listdir(folder))

    with pytest.raises(rp.ReplayError) as refused:
        rp.validate(CONTENT, rp.read_tape(path))  # read_tape refuses it: validate is never reached
    one_line(str(refused.value))
    assert re.search(case.says, str(refused.value)), str(refused.value)

    for argv in (["replay", str(path)], ["replay", str(path), "--check", "--json"], ["play", "--replay", str(path)]):
        assert main(argv) == 2, argv
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1, (argv, err)
        one_line(err.rstrip("\n"))
        assert re.search(case.says, said(err, path)), err
    if case.name in IN_A_PROCESS:
        ran = subprocess.run(
            [sys.executable, "-m", "artificer", "replay", str(path), "--check"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            env={**os.environ, storage.HOME_ENV: str(isolated_home)},
        )
        assert ran.returncode == 2 and ran.stdout == "" and ran.stderr.count("\n") == 1, ran.stderr
        assert "Traceback" not in ran.stderr and re.search(case.says, said(ran.stderr, path)), ran.stderr

    assert looks(path) == before, "the replay was touched"
    assert sorted(os.listdir(folder)) == listing, "something was written beside it"


def test_r_save_2_a_zlib_bomb_inflates_no_further_than_its_frames(recorded: bytes, tmp_path: Path) -> None:
    """256 MiB of zeros packed into a wave of 3,600 frames: inflating stops one byte past the
    86,400 bytes those frames hold; taking the file apart costs a few times its size, not 256 MiB."""
    path = tmp_path / "bomb.replay"
    zlib_bomb(recorded, path)
    data = path.read_bytes()
    rp.shipped_content()  # loaded before, not counted
    tracemalloc.start()
    try:
        with pytest.raises(rp.ReplayError, match="inflate past the 86400 bytes"):
            rp.Tape.from_bytes(data, path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * len(data) + (1 << 20), f"{peak / 2**20:.1f} MiB at the peak for a {len(data)}-byte file"


def test_r_save_2_a_valid_replay_is_described_without_unpacking_its_controls(recorded: bytes, tmp_path: Path) -> None:
    """Describing holds each wave's controls packed (checked once, a chunk at a time); they are
    unpacked only when played, and a tape read and written again is the same file."""
    from artificer.sim.replays import describe

    path = tmp_path / "good.replay"
    path.write_bytes(recorded)
    tape = rp.read_tape(path)
    report = describe(tape)
    assert report["wave_reached"] == 2 and [w["frames"] for w in report["waves"]] == [w.frames for w in tape.waves]
    assert all(wave._controls is None for wave in tape.waves), "describe unpacked a wave's controls"
    assert tape.to_bytes() == recorded
    assert tape.waves[0].controls.shape == (tape.waves[0].frames, _core.CONTROLS_WIDTH)
    assert tape.to_bytes() == recorded, "unpacked and packed again: the same file"
    assert rp.replay(CONTENT, rp.read_tape(path)).verified


def test_r_save_2_the_replay_writer_replaces_only_regular_files(
    recorded: bytes, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """`Tape.write` refuses a FIFO (NotAFileError, left as it is; `write_or_log` logs it); a new
    replay's name skips one taken by a dangling link; `prune` removes only regular files."""
    tape = rp.Tape.from_bytes(recorded)
    fifo = tmp_path / "fifo.replay"
    os.mkfifo(fifo)
    before = looks(fifo)
    tape.path = fifo
    with pytest.raises(storage.NotAFileError):
        tape.write()
    with caplog.at_level(logging.WARNING):
        tape.write_or_log()
    assert "could not be written" in caplog.text and looks(fifo) == before

    runs = tmp_path / "runs"
    runs.mkdir()
    first = rp.new_path(3, runs)
    first.symlink_to(runs / "nowhere")
    second = rp.new_path(3, runs)
    assert second != first and not os.path.lexists(second), "a dangling link's name is never taken"

    odd = {
        "2020-01-01_000000_seed1.replay": lambda p: os.mkfifo(p),
        "2020-01-01_000000_seed2.replay": lambda p: p.mkdir(),
        "2020-01-01_000000_seed3.replay": lambda p: p.symlink_to(runs / "gone"),
    }
    for name, make in odd.items():
        make(runs / name)
    for n in range(rp.KEEP + 2):
        (runs / f"2021-01-01_0000{n:02}_seed{n}.replay").write_bytes(b"x")
    removed = rp.prune(runs)
    assert sorted(p.name for p in removed) == [f"2021-01-01_0000{n:02}_seed{n}.replay" for n in range(3)]
    assert all(os.path.lexists(runs / name) for name in odd), "what is not a regular file is left"


def test_r_save_2_a_record_claim_the_replay_refuses_sets_claim_refused(recorded: bytes, tmp_path: Path) -> None:
    """`replay --check`: the replay verifies, but the record carrying it claims another wave:
    `claim_refused` is true (the command's exit 1); confirmed, or carried by no record, false."""
    from artificer.game.records import RECORDS_FILE, Record, load_records, save_records
    from artificer.sim.replays import check

    tape = rp.Tape.from_bytes(recorded)
    board_path = tmp_path / RECORDS_FILE
    board = load_records(board_path)
    board.add(Record(2, round(tape.seconds, 2), "ab", "2026-12-02T10:00:00Z", replay="2026-12-02_100000_seed3.replay"))
    board.add(Record(23, round(tape.seconds, 2), "ab", "2026-12-02T10:00:00Z", replay="2026-12-02_100000_seed4.replay"))
    save_records(board, board_path)

    tape.path = tmp_path / "2026-12-02_100000_seed4.replay"  # its record claims wave 23; it reaches wave 2
    report = check(CONTENT, tape, board_path)
    assert report["verified"] and report["claim_refused"] is True
    assert "claims wave 23" in report["record"]["detail"] and not report["record"]["confirmed"]
    tape.path = tmp_path / "2026-12-02_100000_seed3.replay"
    report = check(CONTENT, tape, board_path)
    assert report["record"]["confirmed"] and report["claim_refused"] is False
    tape.path = tmp_path / "2026-12-02_100000_seed5.replay"
    assert check(CONTENT, tape, board_path)["claim_refused"] is False
    assert check(CONTENT, tape, None)["claim_refused"] is False


def test_r_save_2_max_frames_is_data_with_a_range_in_the_schema() -> None:
    """`replay.max_frames` is balance.json's, ranged (at least one longest wave), in the exported schema."""
    schema = content_schemas()["balance.schema.json"]
    assert "replay" in schema["properties"] and "replay" in schema["required"]
    replay = schema["$defs"]["ReplaySettings"]
    frames = replay["properties"]["max_frames"]
    assert frames["minimum"] <= MAX_FRAMES <= frames["maximum"] and "max_frames" in replay["required"]
    assert json.loads((CONTENT.data_dir / "balance.json").read_text())["replay"]["max_frames"] == MAX_FRAMES


def test_r_save_2_a_watched_tape_stops_in_one_line_where_its_run_no_longer_fits_a_save(recorded: bytes) -> None:
    """Flown as the window flies it (no hash checked): a start with the most gold a save holds earns
    more in wave 1; settling before wave 2 refuses it in one line (`ReplayError`), not a traceback."""
    doc = json.loads(recorded)
    doc["start"]["settings"]["currency"] = 10**9
    tape = rp.Tape.from_bytes(signed(doc))
    rp.check_header(CONTENT, tape)
    pilot = rp.Pilot(CONTENT, tape)
    with pytest.raises(rp.ReplayError) as refused:
        while not pilot.done:
            wave = pilot.begin_wave()
            while not wave.over and pilot.steer(wave):
                pilot.flow.step()
            if wave.over:
                pilot.flow.end_wave()
            pilot.wave_ended()
    one_line(str(refused.value))
    assert re.search(r"^wave 2: the run no longer fits a save \(currency: ", str(refused.value)), str(refused.value)
