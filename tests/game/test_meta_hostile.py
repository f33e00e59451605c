"""meta.json against hostile files and content updates (issue 42; R-SAVE-1, R-SAVE-2, R-META-1).

A table of meta.json cases, each put in a temporary data dir and read, changed and written the ways
the game does (`load_meta` with the content, `update_meta`, the headless run's `settle_meta`): each
is refused in one line and left, set aside, restored from its backup, or rid of what the content no
longer has, with a notice, and nothing that is not one of the game's own regular files changes (the
mode, inode and device of every other thing are compared before and after). Non-regular things are
made here: FIFOs, directories, dangling links, sockets, and, as root, device nodes made with
`os.mknod` (never a real system path). Also: ids an update removed no longer brick a run at its
first shop nor Continue; two runs ending at once on one meta file both count (`meta_lock`)."""

from __future__ import annotations

import json
import multiprocessing
import os
import socket
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from artificer.content import load_content
from artificer.game.meta import (
    META_FILE,
    Meta,
    Section,
    backup_path,
    load_meta,
    lock_path,
    meta_path,
    save_meta,
    unlock_tree,
    update_meta,
)
from artificer.sim.headless import settle_meta

CONTENT = load_content()

pytestmark = pytest.mark.usefixtures("isolated_home")  # tests/conftest.py: saves go to a temporary home

GHOST = {"version": 2, "runs": 1, "unlocked": ["ghost_spell"]}
#: A run that reached wave 5 and fell: 3 aether for the wave, 2 for the W5 milestone (the first time).
RESULT = {"wave_reached": 5, "outcome": "died"}


# --- non-regular things, made here ------------------------------------------------------------


def fifo(path: Path) -> None:
    os.mkfifo(path)


def directory(path: Path) -> None:
    path.mkdir()
    (path / "inside").write_text("kept")


def dangling(path: Path) -> None:
    path.symlink_to(path.parent / "nowhere" / "target.json")


def link_to_fifo(path: Path) -> None:
    os.mkfifo(path.with_name("a_fifo"))
    path.symlink_to(path.with_name("a_fifo"))


def link_to_directory(path: Path) -> None:
    path.with_name("a_dir").mkdir()
    path.symlink_to(path.with_name("a_dir"))


def unix_socket(path: Path) -> None:
    here = Path.cwd()
    os.chdir(path.parent)  # a socket's name is limited to ~100 bytes: bind it by its short name
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(path.name)
        sock.close()  # the name stays, a socket node
    finally:
        os.chdir(here)


def device(kind: int, major: int, minor: int) -> Callable[[Path], None]:
    """A device node made in the test's own directory (root only): never a system path."""

    def make(path: Path) -> None:
        if os.geteuid() != 0:
            pytest.skip("making a device node (os.mknod) needs root")
        try:
            os.mknod(path, kind | 0o600, os.makedev(major, minor))
        except PermissionError as error:
            pytest.skip(f"os.mknod is not permitted here: {error}")

    return make


ZERO_LIKE = device(stat.S_IFCHR, 1, 5)  # reads as endless zero bytes, were it ever opened
URANDOM_LIKE = device(stat.S_IFCHR, 1, 9)  # endless random bytes
BLOCK = device(stat.S_IFBLK, 7, 250)  # a loop device number no system here has

NON_REGULAR: dict[str, Callable[[Path], None]] = {
    "fifo": fifo,
    "directory": directory,
    "dangling_link": dangling,
    "socket": unix_socket,
    "char_device_zero_like": ZERO_LIKE,
    "char_device_urandom_like": URANDOM_LIKE,
    "block_device": BLOCK,
    "link_to_fifo": link_to_fifo,
    "link_to_directory": link_to_directory,
}


def tree(root: Path) -> dict[str, tuple[int, int, int] | bytes]:
    """Every entry under `root`, not following links: a regular file's bytes, anything else's (mode,
    inode, device number) — what "left exactly as it was" compares."""
    found: dict[str, tuple[int, int, int] | bytes] = {}
    for folder, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            path = Path(folder) / name
            info = os.lstat(path)
            if stat.S_ISREG(info.st_mode):
                found[str(path.relative_to(root))] = path.read_bytes()
            else:
                found[str(path.relative_to(root))] = (info.st_mode, info.st_ino, info.st_rdev)
    return found


def not_regular(snapshot: dict[str, tuple[int, int, int] | bytes]) -> dict[str, tuple[int, int, int]]:
    return {name: entry for name, entry in snapshot.items() if not isinstance(entry, bytes)}


# --- the table --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One meta.json case: what is put where (`at`: meta.json, its backup or its lock), and what the
    game must do: "left" (refused, nothing written there nor to its backup), "aside" (set aside as
    .corrupt), "restored" (from the backup), "dropped" (ids gone, with a notice), "saved" (works: an
    odd backup or lock path is left alone). `named`: words the notice must hold."""

    name: str
    make: Callable[[Path], None]
    outcome: str
    named: tuple[str, ...] = ()
    check: Callable[[Path, Meta], None] | None = None


def at_meta(make: Callable[[Path], None], backup: Meta | None = None) -> Callable[[Path], None]:
    def put(directory: Path) -> None:
        if backup is not None:
            save_meta(backup, directory / "other.json")
            (directory / "other.json.bak").rename(backup_path(directory / META_FILE))
            (directory / "other.json").unlink()
        make(directory / META_FILE)

    return put


def at_backup(make: Callable[[Path], None], main: Any = None) -> Callable[[Path], None]:
    def put(directory: Path) -> None:
        if main is not None:
            (directory / META_FILE).write_text(main if isinstance(main, str) else json.dumps(main))
        make(backup_path(directory / META_FILE))

    return put


def at_lock(make: Callable[[Path], None]) -> Callable[[Path], None]:
    def put(directory: Path) -> None:
        save_meta(Meta(runs=3, aether=7), directory / META_FILE)
        make(lock_path(directory / META_FILE))

    return put


def text(value: Any) -> Callable[[Path], None]:
    def put(directory: Path) -> None:
        (directory / META_FILE).write_bytes(value if isinstance(value, bytes) else json.dumps(value).encode())

    return put


def with_backup(value: Any, backup: Meta) -> Callable[[Path], None]:
    def put(directory: Path) -> None:
        save_meta(backup, directory / META_FILE)
        if value is None:
            (directory / META_FILE).unlink()
        else:
            text(value)(directory)

    return put


def holds(**fields: Any) -> Callable[[Path, Meta], None]:
    def check(directory: Path, meta: Meta) -> None:
        for name, value in fields.items():
            assert getattr(meta, name) == value, f"{name}: {getattr(meta, name)!r}, not {value!r}"

    return check


GOOD_BACKUP = Meta(runs=12, aether=40, unlocked=frozenset({"chain_bolt"}), paid={"chain_bolt": 5})
CODEX_GHOSTS = {
    "version": 2,
    "runs": 4,
    "codex": {
        "spells": ["spark_bolt", "old_spell"],
        "enemies": ["old_imp"],
        "bosses": ["old_boss"],
        "recipes": ["old_recipe"],
        "reactions": ["old_reaction"],
        "relics": ["old_relic"],
        "potions": ["old_tonic"],
    },
}

CASES = [
    *(Case(f"meta_{name}", at_meta(make), "left", ("meta.json",)) for name, make in NON_REGULAR.items()),
    Case(
        "meta_fifo_backup_used_for_the_session",
        at_meta(fifo, backup=GOOD_BACKUP),
        "left",
        ("a FIFO", "meta.json.bak", "nothing is saved"),
        holds(runs=12, aether=40),
    ),
    Case("meta_dangling_link_with_a_backup", at_meta(dangling, backup=GOOD_BACKUP), "left", ("a link to nothing",)),
    Case("backup_fifo_main_corrupt", at_backup(fifo, "{not json"), "aside", ("meta.json.corrupt",), holds(runs=0)),
    Case("backup_directory_main_missing", at_backup(directory), "saved", ("meta.json.bak", "a directory")),
    Case("backup_dangling_link_main_good", at_backup(dangling, {"version": 2, "runs": 2}), "saved", (), holds(runs=2)),
    Case("backup_socket_main_good", at_backup(unix_socket, {"version": 2, "runs": 2}), "saved", (), holds(runs=2)),
    Case("lock_fifo", at_lock(fifo), "saved", (), holds(runs=3)),
    Case("lock_directory", at_lock(directory), "saved", (), holds(runs=3)),
    Case("lock_dangling_link", at_lock(dangling), "saved", (), holds(runs=3)),
    Case(
        "ghost_unlock_no_price_recorded",
        text(GHOST),
        "dropped",
        ("ghost_spell", "not recorded"),
        holds(runs=1, aether=0, unlocked=frozenset()),
    ),
    Case(
        "ghost_unlock_refunded",
        text({"version": 2, "aether": 4, "unlocked": ["ghost_spell", "nuke"], "paid": {"ghost_spell": 15, "nuke": 15}}),
        "dropped",
        ("ghost_spell", "15 aether given back"),
        holds(aether=19, unlocked=frozenset({"nuke"}), paid={"nuke": 15}),
    ),
    Case(
        "ghost_core_and_mode_kept_apart",
        text({"version": 2, "unlocked": ["cursed_waves", "matrix_board", "old_board"]}),
        "dropped",
        ("old_board",),
        holds(unlocked=frozenset({"cursed_waves", "matrix_board"})),
    ),
    Case(
        "ghost_codex_entries",
        text(CODEX_GHOSTS),
        "dropped",
        ("old_spell", "old_imp", "old_boss", "codex"),
        holds(runs=4, codex={Section.SPELLS: frozenset({"spark_bolt"})}),
    ),
    Case(
        "ghost_achievement",
        text({"version": 2, "achievements": ["first_clear", "old_feat"]}),
        "dropped",
        ("old_feat", "achievement"),
        holds(achievements=frozenset({"first_clear"})),
    ),
    Case("missing_main_good_backup", with_backup(None, GOOD_BACKUP), "restored", ("was missing",), holds(runs=12)),
    Case(
        "v1_carrying_v2_aether",
        text({"version": 1, "clears": 1, "aether": 999999}),
        "aside",
        ("aether", "version 1"),
        holds(aether=0, clears=0),
    ),
    Case(
        "v1_carrying_v2_aether_with_a_backup",
        with_backup({"version": 1, "clears": 1, "aether": 999999}, GOOD_BACKUP),
        "restored",
        ("aether",),
        holds(aether=40, runs=12),
    ),
    Case("nul_in_a_key", text(b'{"version": 2, "\\u0000evil\\u001b": 1}'), "aside", ("meta.json.corrupt",)),
    Case("nul_in_an_id", text({"version": 2, "unlocked": ["nuke\u0000"]}), "aside", ("unlocked",)),
    Case("huge_file", text(b" " * (2 << 20)), "aside", ("bytes",)),
    Case("id_too_long", text({"version": 2, "tips": ["a" * 65]}), "aside", ("tips",)),
]


@pytest.fixture
def place(tmp_path: Path) -> Iterator[Path]:
    directory = tmp_path / "place"
    directory.mkdir()
    yield directory


def test_the_table_is_as_large_as_the_issue_asks() -> None:
    assert len(CASES) >= 20 and len({case.name for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_r_save_2_meta_json_is_refused_set_aside_or_rid_of_unknown_ids_and_nothing_else_changes(
    place: Path, case: Case
) -> None:
    case.make(place)
    path = place / META_FILE
    before = tree(place)
    found = load_meta(path, CONTENT)
    notice = found.notice or ""
    assert "\n" not in notice and notice.isprintable(), f"one printable line: {notice!r}"
    for word in case.named:
        assert word in notice, f"the notice does not name {word!r}: {notice!r}"
    # The game goes on changing and writing its progress, as a run's end and a tip do.
    update_meta(lambda meta: meta.tip_shown("cpu_high"), path, CONTENT)
    report = settle_meta(CONTENT, RESULT, 0, 3, path)
    after = tree(place)
    assert not_regular(after) == not_regular(before), "a thing that is not a regular file was touched"
    for name, entry in before.items():  # regular files that are not the game's own (inside a directory)
        if isinstance(entry, bytes) and not name.startswith(META_FILE + ".") and name != META_FILE:
            assert after.get(name) == entry, f"{name} changed"
    if case.outcome == "left":
        assert found.stuck and found.notice and "left as it is" in notice
        assert not report["written"], "nothing is written over it"
        backup = backup_path(path).name
        assert after.get(backup) == before.get(backup), "nor its backup"
        assert not any(name.startswith(f"{META_FILE}.corrupt") for name in after)
    else:
        assert report["written"] and not found.stuck
        again = load_meta(path, CONTENT)
        assert again.notice is None, f"once written, nothing more to say: {again.notice!r}"
        assert again.meta.runs == found.meta.runs + 1 and "cpu_high" in again.meta.tips
    if case.outcome == "aside":
        assert any(name.startswith(f"{META_FILE}.corrupt") for name in after), "the bad file is kept aside"
    if case.outcome == "restored":
        assert "restored" in notice
    if case.outcome == "dropped":
        assert found.forgotten, "what went is listed"
        for gone in found.forgotten:
            assert f'"{gone.item}"' not in path.read_text(), f"{gone.item} is still in the file"
    if case.check is not None:
        case.check(place, found.meta)


# --- item 1: a content update never bricks the player's progress ---------------------------------------


def test_r_save_2_a_ghost_unlock_plays_a_headless_run_through_its_first_shop(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from artificer.__main__ import main

    path = tmp_path / META_FILE
    path.write_text(json.dumps(GHOST))
    assert main(["run", "--headless", "--seed", "1", "--waves", "3", "--meta", str(path)]) == 0
    err = capsys.readouterr().err
    assert "ghost_spell" in err and "dropped" in err, err
    meta = load_meta(path, CONTENT)
    assert meta.notice is None and meta.meta.runs == 2 and "ghost_spell" not in path.read_text()


def test_r_save_2_a_run_begun_with_a_ghost_unlock_still_saves() -> None:
    """The window's new run reads meta.json without the content (ui/play.py): the run's save keeps
    the content's unlocks only, and the run goes on."""
    from artificer.game.run import Run
    from artificer.game.save import load_run, save_run
    from artificer.game.stats import WaveStats

    run = Run(CONTENT, 11, unlocked=Meta(unlocked=frozenset({"ghost_spell", "nuke"})).shop_unlocks())
    run.waves = [WaveStats(wave=1, kills=3)]
    save = save_run(run, 2)
    assert save.shop.unlocked == ["nuke"]
    assert load_run(CONTENT) is not None


def test_r_save_2_continue_with_a_ghost_unlock_reaches_the_shop_and_saves() -> None:
    import pygame
    from tests.scene_driving import press_continue

    from artificer.game.run import Run
    from artificer.game.save import run_save_path, save_run
    from artificer.game.stats import WaveStats
    from artificer.ui.play import title_scene
    from artificer.ui.scene import SceneStack
    from artificer.ui.scenes.shop import ShopScene

    run = Run(CONTENT, 4711)
    run.currency = 400
    run.waves = [WaveStats(wave=1, kills=3), WaveStats(wave=2, kills=5)]
    save_run(run, 3)
    meta_path().parent.mkdir(parents=True, exist_ok=True)
    meta_path().write_text(json.dumps(GHOST))
    pygame.init()
    try:
        surface = pygame.display.set_mode((1280, 720))
        stack = SceneStack()
        title = title_scene(CONTENT)
        stack.push(title)
        press_continue(stack, surface)
        shop = stack.top
        assert isinstance(shop, ShopScene), f"Continue did not reach the shop: {stack.top}"
        shop.save()  # the shop's save after a change: it crashed here
        shop.reroll()
        assert "ghost_spell" not in run_save_path().read_text()
    finally:
        pygame.quit()


# --- item 5: the backup and migrations -------------------------------------------------------------------


def test_r_save_1_a_missing_meta_json_comes_back_from_its_backup_which_is_never_lost(tmp_path: Path) -> None:
    path = tmp_path / META_FILE
    save_meta(GOOD_BACKUP, path)
    path.unlink()
    found = load_meta(path)
    assert found.meta == GOOD_BACKUP and found.notice is not None and "meta.json.bak" in found.notice
    assert load_meta(path).meta == GOOD_BACKUP and load_meta(path).notice is None, "written back"
    settle_meta(CONTENT, RESULT, 0, 0, path)
    assert load_meta(backup_path(path)).meta.runs == GOOD_BACKUP.runs + 1, "the backup holds the progress too"


def test_r_save_1_a_migration_takes_only_its_versions_fields(tmp_path: Path) -> None:
    path = tmp_path / META_FILE
    path.write_text(json.dumps({"version": 1, "clears": 1, "aether": 999999}))
    found = load_meta(path)
    assert found.meta.aether == 0 and found.notice is not None and "aether: not a field of version 1" in found.notice
    path.write_text((Path(__file__).parent.parent / "data" / "meta_v1.json").read_text())
    assert load_meta(path).notice is None and load_meta(path).meta.clears == 2, "a true version-1 file migrates"


def test_r_meta_1_an_unlock_bought_records_its_price_and_round_trips(tmp_path: Path) -> None:
    path = tmp_path / META_FILE
    node = next(node for node in unlock_tree(CONTENT) if node.id == "nuke")
    save_meta(Meta(aether=20).buy(node), path)
    assert json.loads(path.read_text())["paid"] == {"nuke": 15}
    assert load_meta(path).meta.paid == {"nuke": 15}


# --- item 6: two runs ending at once both count --------------------------------------------------------

#: Rounds the two worker processes race (each a fresh file, both settling into it at one barrier).
RACE_ROUNDS = 200


def _race(directory: str, rounds: int, barrier: Any, locked: bool) -> None:
    """One of the two racing processes: each round, at the barrier, a run's end settled into the round's
    file (`settle_meta`, as `run --meta` does); `locked` False: the same without `meta_lock` (a control)."""
    import contextlib

    import artificer.sim.headless as headless
    from artificer.content import load_content as load

    if not locked:
        headless.meta_lock = lambda path=None: contextlib.nullcontext(False)  # type: ignore[assignment]
    content = load()
    for n in range(rounds):
        barrier.wait()
        headless.settle_meta(content, RESULT, 0, 3, Path(directory) / f"meta_{n}.json")
    barrier.wait()


def race(directory: Path, rounds: int, locked: bool = True) -> int:
    """How many of `rounds` lost a run's progress with two processes settling at once."""
    spawn = multiprocessing.get_context("spawn")
    barrier = spawn.Barrier(2, timeout=120)
    workers = [spawn.Process(target=_race, args=(str(directory), rounds, barrier, locked)) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(300)
        assert worker.exitcode == 0, "a racing process failed"
    lost = 0
    for n in range(rounds):
        meta = load_meta(directory / f"meta_{n}.json").meta
        lost += meta.runs != 2 or meta.aether_earned != 3 + 2 + 3
    return lost


def test_r_save_1_two_runs_settling_into_one_meta_file_at_once_both_count(tmp_path: Path) -> None:
    assert race(tmp_path, RACE_ROUNDS) == 0, f"progress lost in some of {RACE_ROUNDS} rounds"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_r_save_1_two_run_meta_commands_at_once_both_count(tmp_path: Path) -> None:
    """The command itself, twice at once on one file, a few times (each try a fresh file)."""
    command = [sys.executable, "-m", "artificer", "run", "--headless", "--waves", "1", "--json", "--meta"]
    for attempt in range(10):
        path = tmp_path / f"meta_{attempt}.json"
        runs = [
            subprocess.Popen([*command, str(path), "--seed", str(seed)], stdout=subprocess.DEVNULL) for seed in (1, 2)
        ]
        assert [run.wait(120) for run in runs] == [0, 0]
        assert load_meta(path).meta.runs == 2, f"try {attempt}: a run's progress was lost"


def test_r_save_1_the_lock_is_reentrant_and_a_killed_holders_lock_dies_with_it(tmp_path: Path) -> None:
    from artificer.game.meta import meta_lock

    path = tmp_path / META_FILE
    with meta_lock(path) as held, meta_lock(path) as inner:
        assert held and inner
        update_meta(lambda meta: meta.tip_shown("cpu_high"), path)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from artificer.game.meta import meta_lock\n"
            "with meta_lock(Path(sys.argv[1])):\n    print('held', flush=True); time.sleep(60)",
            str(path),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "python")},
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    holder.kill()
    holder.wait()
    with meta_lock(path) as held:
        assert held, "the killed process's lock died with it"
