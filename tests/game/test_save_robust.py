"""R-SAVE-1 / DESIGN errors (issue 13): no run.json, whatever its bytes, crashes the title or
loses a run it need not lose. Each broken save of the table is put in place and Continue is
pressed on the title (the window's own path, under SDL's dummy driver): it either loads — the
shop before the saved wave — or is set aside as run.json.corrupt with a toast that names the
file and the reason (the JSON path, for a value out of range), Continue greyed; never an
exception. Ids the content no longer has (an update removed them) are dropped, refunded when
the shop's books show they were paid for, and the shop says so. Also: the temporary files a
kill mid-write leaves are removed at start (only those), and the directory is fsync'd after
the rename."""

from __future__ import annotations

import copy
import json
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame
import pytest
from tests.scene_driving import press_continue

from artificer import storage
from artificer.content import load_content
from artificer.game.run import Run, WaveStats
from artificer.game.save import MAX_CURRENCY, LoadedRun, SaveProblem, load_run, run_save_path, save_run
from artificer.ui.i18n import tr
from artificer.ui.play import title_scene
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.shop import ShopScene

CONTENT = load_content()

pytestmark = pytest.mark.usefixtures("isolated_home")  # tests/conftest.py: saves go to a temporary home


def base_run() -> Run:
    """A run before wave 3 with an open shop (offers on every shelf), a card and a core bought."""
    run = Run(CONTENT, 4711)
    run.currency = 400
    run.shop.open(2)
    run.shop.buy_spell(0)
    run.shop.buy("cores", 0)
    run.waves = [WaveStats(wave=1, kills=3), WaveStats(wave=2, kills=5)]
    return run


_BASE: dict[str, Any] = {}


def base_save() -> dict[str, Any]:
    """The base run's run.json, as the game writes it (made once, copied per case)."""
    if not _BASE:
        save_run(base_run(), 3)
        _BASE.update(json.loads(run_save_path().read_text(encoding="utf-8")))
        run_save_path().unlink()
    return copy.deepcopy(_BASE)


def at(data: Any, path: str) -> Any:
    for part in path.split("."):
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


def setting(path: str, value: Any) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def change(data: dict[str, Any]) -> dict[str, Any]:
        *parents, last = path.split(".")
        holder = at(data, ".".join(parents)) if parents else data
        if isinstance(holder, list):
            holder[int(last)] = value
        else:
            holder[last] = value
        return data

    return change


def raw(path: str, text: str) -> Callable[[dict[str, Any]], bytes]:
    """The save with the value at `path` replaced by `text`, JSON that `json.dumps` would not write."""

    def change(data: dict[str, Any]) -> bytes:
        marker = "__MARKER__"
        setting(path, marker)(data)
        return json.dumps(data).replace(f'"{marker}"', text).encode("utf-8")

    return change


@dataclass(frozen=True)
class Case:
    """One broken run.json: how to make it, and what the player must see."""

    name: str
    #: bytes for the file; a dict (written as JSON); or a function of the base save giving either;
    #: or a function of the path that puts something there itself (returns None).
    make: Any
    #: "aside": set aside with a toast naming run.json and every string of `named`;
    #: "loads": the shop opens; `named` must appear in the shop's toast (ids dropped), if any.
    outcome: str
    named: tuple[str, ...] = ()


def make_directory(path: Path) -> None:
    (path / "inner").mkdir(parents=True)


def make_fifo(path: Path) -> None:
    os.mkfifo(path)


def make_symlink_to_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def make_dangling_symlink(path: Path) -> None:
    path.symlink_to(path.with_name("gone.json"))


#: What a "left" case put at run.json's path, to check it is exactly as it was (R-SAVE-2).
def what_is_at(path: Path) -> tuple[int, int, str]:
    info = os.lstat(path)
    return info.st_mode, info.st_ino, os.readlink(path) if os.path.islink(path) else ""


def bom(data: dict[str, Any]) -> bytes:
    return b"\xef\xbb\xbf" + json.dumps(data).encode("utf-8")


def too_big(data: dict[str, Any]) -> bytes:
    return json.dumps(data).encode("utf-8") + b" " * (storage.MAX_FILE_BYTES + 1)


def duplicate_currency(data: dict[str, Any]) -> bytes:
    return json.dumps(data).replace('"currency": ', '"currency": 1, "currency": ', 1).encode("utf-8")


def many_errors(data: dict[str, Any]) -> dict[str, Any]:
    for path in ("currency", "seed", "next_wave", "player.hp", "player.x", "shop.rerolls"):
        setting(path, -1)(data)
    return data


def removed_spell_paid(data: dict[str, Any]) -> dict[str, Any]:
    """An update removed "old_bolt": two copies (one in the backpack, one slotted), both paid for."""
    data["loadout"]["backpack"].append("old_bolt")
    data["loadout"]["cores"][0]["cards"][3] = "old_bolt"
    data["shop"]["paid_cards"]["old_bolt"] = [30, 45]
    return data


def removed_active_core(data: dict[str, Any]) -> dict[str, Any]:
    """An update removed the active core (bought for 120) holding two cards: the cards wait, the gold returns."""
    core = data["loadout"]["cores"][1]
    core["core"] = "old_core"
    data["loadout"]["active"] = "old_core"
    data["shop"]["paid_cores"] = {"old_core": 120}
    core["cards"][:2] = ["spark_bolt", "spark_bolt"]
    return data


def removed_relic_potion_talent_stat(data: dict[str, Any]) -> dict[str, Any]:
    data["relics"]["owned"].append("old_idol")
    data["potions"]["held"][0] = "old_tonic"
    data["talents"] = ["last_will", "old_talent"]
    data["wand_stats"]["totals"]["old_stat"] = 2.0
    data["wand_stats"]["purchases"]["old_stat"] = 1
    return data


def removed_offers_only(data: dict[str, Any]) -> dict[str, Any]:
    """Ids only on sale or unlocked (never owned): dropped without a word."""
    data["shop"]["spells"][1]["item"] = "old_bolt"
    data["shop"]["cores"][0] = {"kind": "cores", "item": "old_core", "tier": 1, "price": 1, "locked": False}
    data["shop"]["unlocked"] = ["old_bolt"]
    data["shop"]["relic"] = "old_idol"
    data["shop"]["potion"] = "old_tonic"
    return data


CASES = [
    # --- bytes that are not a usable JSON file --------------------------------------------------
    Case("100000_deep", b"[" * 100_000 + b"]" * 100_000, "aside", ("nested deeper",)),
    Case("4m_open_brackets", b"[" * storage.MAX_FILE_BYTES, "aside", ("nested deeper",)),
    Case("deep_in_a_field", raw("currency", "[" * 50 + "]" * 50), "aside", ("nested deeper",)),
    Case("too_big", too_big, "aside", ("bytes",)),
    Case("empty", b"", "aside", ("not JSON",)),
    Case("truncated", b'{"version": 1, "currency": ', "aside", ("not JSON",)),
    Case("invalid_utf8", b'{"version": 1, "seed": "\xff\xfe"}', "aside", ("UTF-8",)),
    Case("utf16", json.dumps({"version": 1}).encode("utf-16"), "aside", ("UTF-8",)),
    Case("nan_literal", raw("player.hp", "NaN"), "aside", ("NaN",)),
    Case("infinity_literal", raw("player.hp_max", "-Infinity"), "aside", ("Infinity",)),
    Case("duplicate_key", duplicate_currency, "aside", ("currency", "twice")),
    Case("directory", make_directory, "left", ("directory",)),
    Case("fifo", make_fifo, "left", ("FIFO",)),
    Case("symlink_to_dev_zero", make_symlink_to_zero, "left", ("device",)),
    Case("dangling_symlink", make_dangling_symlink, "left", ("link to nothing",)),
    Case("json_null", b"null", "aside", ("(file)",)),
    Case("json_array", b"[1, 2, 3]", "aside", ("(file)",)),
    Case("json_string", b'"run"', "aside", ("(file)",)),
    # --- the version ------------------------------------------------------------------------------
    Case("version_float", setting("version", 1.0), "aside", ("version", "1.0")),
    Case("version_true", setting("version", True), "aside", ("version",)),
    Case("version_string", setting("version", "1"), "aside", ("version",)),
    Case("version_5001_digits", raw("version", "1" * 5001), "aside", ("version",)),
    # --- numbers out of range: the JSON path is named ----------------------------------------------
    Case("int_5001_digits", raw("currency", "9" * 5001), "aside", ("currency", "5001-digit")),
    Case("currency_401_digits", raw("currency", "9" * 401), "aside", ("currency",)),
    Case("currency_over_max", setting("currency", MAX_CURRENCY + 1), "aside", ("currency",)),
    Case("currency_negative", setting("currency", -5), "aside", ("currency",)),
    Case("currency_float", setting("currency", 5.0), "aside", ("currency",)),
    Case("currency_string", setting("currency", "500"), "aside", ("currency",)),
    Case("currency_bool", setting("currency", True), "aside", ("currency",)),
    Case("hp_float_overflow", raw("player.hp", "1e400"), "aside", ("player.hp",)),
    Case("hp_above_hp_max", setting("player.hp", 1e5), "aside", ("player", "hp")),
    Case("hp_max_huge", setting("player.hp_max", 1e300), "aside", ("player.hp_max",)),
    Case("next_wave_huge", setting("next_wave", 2**70), "aside", ("next_wave",)),
    Case("shop_wave_huge", setting("shop.wave", 10**6), "aside", ("shop.wave",)),
    Case("seed_2_64", setting("seed", 2**64), "aside", ("seed",)),
    Case("rng_state_huge", raw("rng_state.0", "7" * 400), "aside", ("rng_state",)),
    Case("stat_total_1e300", setting("wand_stats.totals.cpu", 1e300), "aside", ("wand_stats.totals.cpu",)),
    Case("purchases_huge", setting("wand_stats.purchases.cpu", 10**7), "aside", ("wand_stats.purchases.cpu",)),
    Case(
        "price_paid_401_digits",
        raw("shop.paid_cores", '{"starter_wand": ' + "9" * 401 + "}"),
        "aside",
        ("shop.paid_cores",),
    ),
    Case("offer_price_huge", setting("shop.spells.1.price", 10**12), "aside", ("shop.spells.1.price",)),
    Case("wave_kills_huge", setting("waves.0.kills", 10**20), "aside", ("waves", "kills")),
    Case(
        "wave_damage_infinite",
        raw("waves.1.damage_taken_by_source", '{"slime": 1e999}'),
        "aside",
        ("waves", "damage_taken_by_source"),
    ),
    Case("relic_kills_2_40", setting("relics.kills", 2**40), "aside", ("relics.kills",)),
    Case("potion_slots_99", setting("potions.slots", 99), "aside", ("potions.slots",)),
    Case("wand_cursor_negative", setting("wand_memory.cursor", -1), "aside", ("wand_memory.cursor",)),
    Case("registers_overflow", setting("wand_memory.registers", [2**31, 0]), "aside", ("wand_memory.registers",)),
    # --- lists too long, ids malformed, wrong types --------------------------------------------------
    Case(
        "backpack_over_limit",
        setting("loadout.backpack", ["spark_bolt"] * (CONTENT.balance.loadout.backpack + 1)),
        "aside",
        ("backpack",),
    ),
    Case("backpack_5000", setting("loadout.backpack", ["spark_bolt"] * 5000), "aside", ("loadout.backpack",)),
    Case("waves_10000", setting("waves", [{"wave": 1}] * 10_000), "aside", ("waves",)),
    Case("id_1000_chars", setting("loadout.active", "a" * 1000), "aside", ("loadout.active",)),
    Case("id_not_an_id", setting("loadout.cores.0.core", "Robert'); DROP TABLE"), "aside", ("loadout.cores.0.core",)),
    Case("loadout_a_string", setting("loadout", "all of it"), "aside", ("loadout",)),
    Case("talent_twice", setting("talents", ["last_will", "last_will"]), "aside", ("talents",)),
    Case("many_errors", many_errors, "aside", ("seed", "next_wave", "currency")),
    # --- loads ------------------------------------------------------------------------------------
    Case("valid", lambda data: data, "loads"),
    Case("bom_valid", bom, "loads"),
    Case("removed_spell_paid", removed_spell_paid, "loads", ("run.json", "old_bolt ×2", "75")),
    Case("removed_active_core", removed_active_core, "loads", ("old_core", "120")),
    Case(
        "removed_relic_potion_talent_stat",
        removed_relic_potion_talent_stat,
        "loads",
        ("old_idol", "old_tonic", "old_talent", "old_stat"),
    ),
    Case("removed_offers_only", removed_offers_only, "loads"),
]


def put(case: Case) -> None:
    path = run_save_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    made = case.make
    if callable(made) and made in (make_directory, make_fifo, make_symlink_to_zero, make_dangling_symlink):
        made(path)
        return
    if callable(made):
        made = made(base_save())
    if isinstance(made, dict):
        made = json.dumps(made).encode("utf-8")
    path.write_bytes(made)


def test_the_table_is_as_large_as_the_issue_asks() -> None:
    """Issue 13: at least 30 broken saves, every case the issue names among them."""
    assert len(CASES) >= 30 and len({case.name for case in CASES}) == len(CASES)
    names = {case.name for case in CASES}
    assert {"100000_deep", "int_5001_digits", "currency_401_digits", "bom_valid", "version_float", "directory",
            "removed_spell_paid", "hp_above_hp_max", "next_wave_huge", "backpack_over_limit"} <= names  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_r_save_1_a_broken_save_loads_or_is_set_aside_with_a_message(display: pygame.Surface, case: Case) -> None:
    """Continue on the title with this run.json: the shop, or the title with a toast naming
    run.json and the reason (the field), the file kept as run.json.corrupt, Continue greyed."""
    put(case)
    stack = SceneStack()
    title = title_scene(CONTENT)
    stack.push(title)
    path = run_save_path()
    before = what_is_at(path)
    press_continue(stack, display)  # must not raise
    if case.outcome == "loads":
        shop = stack.top
        assert isinstance(shop, ShopScene) and shop.wave == 3, f"{case.name}: Continue did not reach the shop"
        assert path.is_file(), "a save that loads stays"
        shown = " ".join(text for text, _ in shop.toasts.items)
        for word in case.named:
            assert word in shown, f"{case.name}: the shop's toast does not name {word!r}: {shown!r}"
        if not case.named:
            assert not shop.toasts.items, f"{case.name}: nothing to tell, yet the shop says {shown!r}"
        return
    assert stack.top is title and len(stack) == 1, f"{case.name}: Continue left the title"
    notice = next((text for text in title.notices if "run.json" in text), None)
    assert notice is not None, f"{case.name}: no toast names run.json: {title.notices}"
    for word in case.named:
        assert word in notice, f"{case.name}: the toast does not name {word!r}: {notice!r}"
    if case.outcome == "left":
        assert what_is_at(path) == before, f"{case.name}: what is at run.json's path was touched"
        assert not (path.parent / "run.json.corrupt").exists() and not (path.parent / "run.json.corrupt").is_symlink()
        return
    assert "run.json.corrupt" in notice
    assert not path.exists() and not path.is_symlink(), f"{case.name}: the bad file is still in place"
    assert (path.parent / "run.json.corrupt").exists() or (path.parent / "run.json.corrupt").is_symlink()
    assert not title.items[next(i for i, item in enumerate(title.items) if item.key == "ui.title.continue")].enabled
    assert load_run(CONTENT) is None, "the next launch starts clean"


# --- what is dropped, and what it gives back ------------------------------------------------------


def loaded(case_make: Callable[[dict[str, Any]], dict[str, Any]]) -> LoadedRun:
    run_save_path().parent.mkdir(parents=True, exist_ok=True)
    run_save_path().write_text(json.dumps(case_make(base_save())), encoding="utf-8")
    found = load_run(CONTENT)
    assert isinstance(found, LoadedRun), found
    return found


def test_a_removed_paid_card_is_taken_out_and_refunded_in_full() -> None:
    """R-SAVE-1 / R-SHOP-1: both copies of a card an update removed go, the 30 + 45 paid come back."""
    before = base_save()
    found = loaded(removed_spell_paid)
    run = found.run
    assert run.currency == before["currency"] + 75 and found.refunded == 75
    assert "old_bolt" not in run.loadout.backpack and "old_bolt" not in run.loadout.cores[0].cards
    assert "old_bolt" not in run.shop.paid_cards
    backpack = len(before["loadout"]["backpack"])
    assert [(d.kind, d.where) for d in found.dropped] == [
        ("spell", "loadout.cores.0.cards.3"),
        ("spell", f"loadout.backpack.{backpack}"),
    ]


def test_a_removed_active_core_returns_its_cards_to_the_waiting_area_and_its_price() -> None:
    before = base_save()
    found = loaded(removed_active_core)
    run = found.run
    assert [carried.core for carried in run.loadout.cores] == [before["loadout"]["cores"][0]["core"]]
    assert run.loadout.active == run.loadout.cores[0].core
    assert run.loadout.waiting[-2:] == ["spark_bolt", "spark_bolt"]
    assert run.currency == before["currency"] + 120
    assert found.save.wand_memory is None, "the memory of a wand that is gone is not restored"


def test_removed_relics_potions_talents_and_stats_are_dropped_without_refund() -> None:
    before = base_save()
    found = loaded(removed_relic_potion_talent_stat)
    run = found.run
    assert run.relics.owned == before["relics"]["owned"]
    assert run.potions.held[0] is None
    assert [talent.value for talent in run.talents] == ["last_will"]
    assert run.currency == before["currency"] and found.refunded == 0
    assert {d.kind for d in found.dropped} == {"relic", "potion", "talent", "stat"}


def test_ids_only_on_sale_are_dropped_silently() -> None:
    found = loaded(removed_offers_only)
    shop = found.run.shop
    assert shop.shelves["spells"][1] is None and shop.shelves["cores"][0] is None
    assert shop.relic is None and shop.potion is None and shop.unlocked == frozenset()
    assert found.dropped == ()


def test_dropping_is_the_same_every_continue_until_the_shop_writes() -> None:
    """Quitting before the shop writes and continuing again refunds the same, not twice."""
    first = loaded(removed_spell_paid)
    again = load_run(CONTENT)
    assert isinstance(again, LoadedRun) and again.run.currency == first.run.currency


def test_the_message_names_what_went_and_the_gold() -> None:
    found = loaded(removed_spell_paid)
    from artificer.ui.play import dropped_notice

    notice = dropped_notice(found)
    assert notice == tr("ui.title.save_dropped", file="run.json", items="spell old_bolt ×2", gold=75)


def test_without_the_fix_a_bom_save_was_set_aside() -> None:
    """A valid run.json an editor saved with a byte-order mark loads as it is (it was set aside before)."""
    path = run_save_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bom(base_save()))
    found = load_run(CONTENT)
    assert isinstance(found, LoadedRun) and found.dropped == ()


def test_a_problem_says_why_even_when_the_corrupt_name_is_taken_by_a_directory() -> None:
    path = run_save_path()
    (path.parent / "run.json.corrupt" / "x").mkdir(parents=True)
    path.write_bytes(b"{")
    found = load_run(CONTENT)
    assert isinstance(found, SaveProblem) and found.kept_as == "run.json.corrupt.1"
    assert "not JSON" in found.detail and not path.exists()


def test_r_save_2_deleting_a_save_that_is_a_directory_leaves_it_and_does_not_raise() -> None:
    from artificer.game.save import delete_run_save

    (run_save_path() / "inner").mkdir(parents=True)
    delete_run_save()
    assert (run_save_path() / "inner").is_dir(), "a directory at run.json's path is not ours to move"


# --- writes: stale temporaries and the directory's fsync ------------------------------------------


def test_r_save_1_temporaries_a_kill_left_are_removed_at_start_and_nothing_else() -> None:
    data, config = storage.data_dir(), storage.config_dir()
    (data / "runs").mkdir(parents=True)
    config.mkdir(parents=True)
    stale = [data / ".run.json.k2j4_x9a.tmp", data / ".run.json.abcdefgh.tmp", config / ".settings.json.q1w2e3r4.tmp",
             data / "runs" / ".run-0001.png.zzzzzzzz.tmp"]  # fmt: skip
    kept = [data / "run.json", data / "run.json.corrupt", data / "notes.tmp", data / ".run.json.tmp",
            data / ".run.json.abc.tmp", config / "settings.json", data / "run.json.abcdefgh.tmp"]  # fmt: skip
    for path in stale + kept:
        path.write_bytes(b"{}")
    (data / ".dir.json.abcdefgh.tmp").mkdir()  # a directory of that name is not ours
    removed = storage.remove_stale_temporaries()
    assert sorted(removed) == sorted(stale)
    assert all(not path.exists() for path in stale)
    assert all(path.exists() for path in kept) and (data / ".dir.json.abcdefgh.tmp").is_dir()


def test_play_removes_stale_temporaries_before_anything_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """`artificer play` calls the clean-up first (a window-less check: the App is not opened)."""
    import artificer.ui.play as play

    order: list[str] = []
    monkeypatch.setattr(play.storage, "remove_stale_temporaries", lambda: order.append("clean") or [])
    real_load = play.settings_file.load

    def load() -> Any:
        order.append("settings")
        return real_load()

    monkeypatch.setattr(play.settings_file, "load", load)

    class NoWindow:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pass

        def run(self, max_frames: int | None) -> int:
            return 0

    monkeypatch.setattr(play, "App", NoWindow)
    play.play(max_frames=0)
    assert order == ["clean", "settings"]


def test_many_kills_mid_write_leave_temporaries_that_the_next_start_removes(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write killed after its temporary is written and before the rename (os.replace never runs) leaves
    `.run.json.*.tmp`; the next start removes every one and run.json is the last whole write."""
    assert str(run_save_path()).startswith(str(isolated_home))
    run = base_run()
    save_run(run, 3)
    whole = run_save_path().read_bytes()

    class Killed(BaseException):
        pass

    def killed(*args: Any) -> None:
        raise Killed

    for _ in range(20):
        with monkeypatch.context() as kill:
            kill.setattr(os, "replace", killed)
            kill.setattr(Path, "unlink", lambda self, missing_ok=False: None)  # a kill runs no clean-up
            with pytest.raises(Killed):
                storage.write_atomic(run_save_path(), b"new")
    temporaries = [p for p in run_save_path().parent.iterdir() if p.name.endswith(".tmp")]
    assert len(temporaries) == 20
    storage.remove_stale_temporaries()
    assert sorted(p.name for p in run_save_path().parent.iterdir()) == ["run.json"]
    assert run_save_path().read_bytes() == whole


def test_the_directory_is_fsynced_after_the_rename(monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        events.append("fsync dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "fsync file")
        real_fsync(fd)

    def replace(source: Any, target: Any) -> None:
        events.append("replace")
        real_replace(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    storage.write_atomic(run_save_path(), b"{}")
    assert events == ["fsync file", "replace", "fsync dir"]


def test_user_json_is_written_strict() -> None:
    with pytest.raises(ValueError):
        storage.write_json_atomic(run_save_path(), {"hp": float("nan")})
    assert not run_save_path().exists()


def test_the_cards_of_a_removed_core_that_fit_nowhere_are_refunded() -> None:
    """The waiting area and the backpack full: the removed core's two cards cannot wait; what was paid
    for them (the shop's books: one price per copy) comes back, and the message says so."""
    limits = CONTENT.balance.loadout

    def full(data: dict[str, Any]) -> dict[str, Any]:
        removed_active_core(data)
        data["loadout"]["waiting"] = ["spark_bolt"] * limits.waiting_area
        data["loadout"]["backpack"] = ["spark_bolt"] * limits.backpack
        data["shop"]["paid_cards"]["spark_bolt"] = [11, 12]
        return data

    before = base_save()
    found = loaded(full)
    assert [(d.kind, d.item, d.refund) for d in found.dropped] == [
        ("core", "old_core", 120), ("spell (no room)", "spark_bolt", 12), ("spell (no room)", "spark_bolt", 11)]  # fmt: skip
    assert found.run.currency == before["currency"] + 120 + 23
    assert len(found.run.loadout.waiting) == limits.waiting_area and len(found.run.loadout.backpack) == limits.backpack
    assert "spark_bolt" not in found.run.shop.paid_cards
