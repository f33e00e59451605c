"""R-SAVE-2 at the command line: a path the game is given (`run --meta`, `run --record`, `sim --out`,
`wand --board`, `check-content --data`'s files) is only read, replaced or set aside when it is a
regular file (or absent, to create). A directory, FIFO, socket, device node, dangling link or a
path under a file is refused in one line with exit 2, before any long work, and left exactly as it
was — and nothing else appears beside it.

Every node is made here, in the test's own temporary directory: FIFOs, sockets, directories and
links always; a private device node (`mknod`, the numbers of a zero device) only as root. Nothing
here ever names /dev or any path of the system.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from artificer import _core, storage
from artificer.__main__ import EXIT_USAGE, main
from artificer.content import DEFAULT_DATA_DIR

ARTIFICER = [sys.executable, "-m", "artificer"]
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def make_fifo(path: Path) -> None:
    os.mkfifo(path)


def make_directory(path: Path) -> None:
    (path / "inner").mkdir(parents=True)


def make_dangling_link(path: Path) -> None:
    path.symlink_to(path.with_name("nothing-here"))


def make_socket(path: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.close()  # the socket's node stays in the directory


def make_device(path: Path) -> None:
    os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 5))  # a private node with a zero device's numbers


def make_link_to_device(path: Path) -> None:
    make_device(path.with_name("private-device"))
    path.symlink_to(path.with_name("private-device"))


def make_under_a_file(path: Path) -> None:
    path.parent.write_bytes(b"a file where a directory should be\n")


@dataclass(frozen=True)
class Kind:
    name: str
    make: Callable[[Path], None]
    #: the words the refusal says of it
    said: str
    root_only: bool = False


KINDS = [
    Kind("fifo", make_fifo, "a FIFO"),
    Kind("directory", make_directory, "a directory"),
    Kind("dangling_link", make_dangling_link, "a link to nothing"),
    Kind("socket", make_socket, "a socket"),
    Kind("device", make_device, "a device", root_only=True),
    Kind("link_to_device", make_link_to_device, "a device", root_only=True),
    Kind("under_a_file", make_under_a_file, "under a file"),
]


@dataclass(frozen=True)
class Use:
    """A command given a path: its arguments with `{}` where the path goes."""

    name: str
    args: tuple[str, ...]
    #: where the hostile node goes, relative to the path given ("." = the path itself)
    node: str = "."
    #: the kinds this path may be (`sim --out` is a directory)
    fine: frozenset[str] = frozenset()


USES = [
    Use("run_meta", ("run", "--headless", "--seed", "1", "--waves", "1", "--meta", "{}")),
    Use("run_record", ("run", "--headless", "--seed", "1", "--waves", "1", "--record", "{}")),
    Use(
        "sim_out",
        ("sim", "--builds", "spark", "--seeds", "1", "--waves", "1", "--quiet", "--out", "{}"),
        fine=frozenset({"directory"}),
    ),
    Use("wand_board", ("wand", "--core", "starter_wand", "--board", "{}")),
    # check-content prints its problems on stdout, one line each (its contract)
    Use(
        "check_content_spells", ("check-content", "--data", "{}"), node="spells.json", fine=frozenset({"under_a_file"})
    ),
]


def snapshot(directory: Path) -> dict[str, tuple[int, int, int, str]]:
    """Every entry under `directory` as (mode, inode, device numbers, link target): what must not change."""
    found = {}
    for root, dirs, files in os.walk(directory, followlinks=False):
        for name in dirs + files:
            path = Path(root) / name
            info = os.lstat(path)
            target = os.readlink(path) if stat.S_ISLNK(info.st_mode) else ""
            found[str(path.relative_to(directory))] = (info.st_mode, info.st_ino, info.st_rdev, target)
    return found


def place(tmp_path: Path, use: Use, kind: Kind) -> tuple[Path, Path]:
    """(the path the command is given, where the hostile node is) under `tmp_path/work`."""
    work = tmp_path / "work"
    work.mkdir()
    if use.node == ".":
        given = work / ("parent" if kind.name == "under_a_file" else "") / "target.json"
        node = given
    else:  # a content directory, copied, with one file replaced by the node
        given = work / "data"
        shutil.copytree(DEFAULT_DATA_DIR, given, symlinks=False)
        node = given / use.node
        node.unlink()
    kind.make(node)
    return given, node


CASES = [(use, kind) for use in USES for kind in KINDS if kind.name not in use.fine]


def test_the_table_is_as_large_as_the_issue_asks() -> None:
    """Issue 42: at least 20 path cases: devices, FIFOs, directories, dangling links, unwritable."""
    assert len(CASES) >= 20
    assert {"fifo", "directory", "dangling_link", "device", "under_a_file"} <= {kind.name for kind in KINDS}


@pytest.mark.parametrize(("use", "kind"), CASES, ids=[f"{u.name}-{k.name}" for u, k in CASES])
def test_r_save_2_a_path_that_is_not_a_file_is_refused_in_one_line_and_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], use: Use, kind: Kind
) -> None:
    if kind.root_only and not ROOT:
        pytest.skip("device nodes can only be made as root (mknod)")
    given, node = place(tmp_path, use, kind)
    before = snapshot(tmp_path)
    code = main([part.replace("{}", str(given)) for part in use.args])
    printed = capsys.readouterr()
    err = printed.err + printed.out
    assert code == EXIT_USAGE, f"exit {code}; printed: {err!r}"
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert kind.said in lines[0], lines[0]
    assert snapshot(tmp_path) == before, "the node, or something beside it, was touched"


def test_r_save_2_sim_out_that_is_a_file_is_refused_before_the_sweep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sweep"
    out.write_text("mine\n")
    assert main(["sim", "--builds", "spark", "--seeds", "1", "--waves", "1", "--out", str(out)]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "is a file, not a directory" in err and err.count("\n") == 1
    assert out.read_text() == "mine\n"


def test_r_save_2_an_unwritable_place_is_refused_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A directory that refuses new files (read-only; as root, a refused probe stands in for one):
    `run --record` says so in one line before the run, instead of a traceback after it."""
    place_ = tmp_path / "read-only"
    place_.mkdir()

    def refused(*args: object, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(storage.tempfile, "mkstemp", refused)
    code = main(["run", "--headless", "--seed", "1", "--waves", "1", "--record", str(place_ / "run.replay")])
    err = capsys.readouterr().err
    assert code == EXIT_USAGE and err.count("\n") == 1, err
    assert "cannot be written to (Permission denied)" in err
    assert list(place_.iterdir()) == []


def test_r_save_2_a_link_to_a_file_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    target.write_text("{}\n")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    storage.write_json_atomic(link, {"a": 1})
    assert link.is_symlink() and target.read_text() == '{\n  "a": 1\n}\n'


def test_r_save_2_a_fifo_is_never_opened_for_long(tmp_path: Path) -> None:
    """Reading a FIFO that nobody writes to would block forever: it is refused instead."""
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    with pytest.raises(storage.NotAFileError, match="a FIFO, not a file"):
        storage.read_bytes(fifo, 100)
    loaded = storage.read_json_or_quarantine(fifo)
    assert loaded.left and loaded.value is None and loaded.problem is not None and "FIFO" in loaded.problem
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


# --- the command's other edges (issue 42, "Arguments") ---------------------------------------------


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("sim", "--seeds", "1-" + "9" * 5000), "5000-digit number is past the largest seed"),
        (("sim", "--seeds", "9" * 21), "past the largest seed"),
        (("sim", "--seeds", "18446744073709551616"), "past the largest seed, 18446744073709551615"),
        (("run", "--headless", "--seed", "9" * 5000), "--seed must be in 0..18446744073709551615"),
        (("run", "--headless", "--seed=-1"), "--seed must be in 0..18446744073709551615"),
        (("stress", "--enemies", "1", "--projectiles", "1", "--threads", str(_core.MAX_THREADS + 1)), "--threads"),
    ],
    ids=["seeds_5000_digits", "seeds_21_digits", "seeds_2_64", "run_seed_5000_digits", "run_seed_negative", "threads"],
)
def test_arguments_out_of_range_are_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], said: str
) -> None:
    try:
        code = main(list(args))
    except SystemExit as exited:  # argparse's own refusals
        code = exited.code
    err = capsys.readouterr().err
    assert code == EXIT_USAGE and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert said in err and len(err) < 300, err


def test_a_board_nested_100000_deep_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "board.json"
    board.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["wand", "--core", "starter_wand", "--board", str(board)]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "nested deeper than" in err and err.count("\n") == 1


def spawn(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([*ARTIFICER, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_a_reader_that_leaves_the_pipe_ends_the_command_quietly() -> None:
    """`artificer wand … --json | head`: exit 141 (a shell's code for SIGPIPE), no traceback."""
    process = spawn("wand", "--core", "starter_wand", "--cards", "spark_bolt,spark_bolt", "--casts", "10000", "--json")
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.read(10)
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 141, err
    assert "Traceback" not in err and "BrokenPipeError" not in err, err


def test_ctrl_c_ends_a_command_quietly_with_130() -> None:
    process = spawn("stress", "--enemies", "20000", "--projectiles", "20000", "--frames", "1000000")
    assert process.stderr is not None
    try:
        process.wait(timeout=3)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGINT)
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def test_without_a_display_the_game_says_so_and_exits_2(tmp_path: Path) -> None:
    """No X or Wayland display: SDL would fall back to its offscreen driver and the game would run
    unseen forever; it says "cannot open the game window" instead. (The dummy driver stays
    available to tests that ask for it by name.)"""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "XDG_RUNTIME_DIR"}
    }
    env["ARTIFICER_HOME"] = str(tmp_path / "home")
    done = subprocess.run([*ARTIFICER, "play", "--frames", "5"], capture_output=True, text=True, timeout=120, env=env)
    if done.returncode == 0:
        pytest.skip("this machine has a display SDL can reach without DISPLAY (a console driver)")
    assert done.returncode == EXIT_USAGE, done.stderr
    assert "cannot open the game window" in done.stderr and "Traceback" not in done.stderr


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("ARTIFICER_HOME", str(tmp_path / "home"))
    yield
