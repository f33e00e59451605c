"""R-SAVE-1: the run in progress in run.json — saved between waves, continued exactly,
set aside when corrupt. (The UI's side: tests/ui/test_save_flow.py.)"""

from __future__ import annotations

import dataclasses
import json
import math
import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from artificer import _core
from artificer.content import load_content
from artificer.errors import CoreArgumentError
from artificer.game.run import Run, WaveStats
from artificer.game.save import (
    SAVE_VERSION,
    LoadedRun,
    RunSave,
    SaveProblem,
    delete_run_save,
    load_run,
    run_save_path,
    save_run,
    settle,
    snapshot,
    write_run,
)
from artificer.game.shop import SHELVES
from artificer.sim.bot import KitingBot

CONTENT = load_content()
ARENA = (CONTENT.balance.arena.width, CONTENT.balance.arena.height)


pytestmark = pytest.mark.usefixtures("isolated_home")  # tests/conftest.py: saves go to a temporary home


def loaded(result: LoadedRun | SaveProblem | None) -> LoadedRun:
    assert isinstance(result, LoadedRun), result
    return result


def problem(result: LoadedRun | SaveProblem | None) -> SaveProblem:
    assert isinstance(result, SaveProblem), result
    return result


def shelves(run: Run) -> dict[str, list[Any]]:
    return {shelf: [None if o is None else dataclasses.asdict(o) for o in run.shop.shelves[shelf]] for shelf in SHELVES}


# --- continuing is playing on (R-DET-1) ---------------------------------------------------------


def starter(run: Run) -> None:
    """The starting wand, as a new run has it."""


def persistent_memory(run: Run) -> None:
    """A persistent_memory core (R-VM-12 cursor, R-REG-1 registers kept between waves), bought and switched to."""
    run.loadout.add_core("persistent_memory")
    carried = run.loadout.carried("persistent_memory")
    carried.cards[:4] = ["spark_bolt", "spark_bolt", "spark_bolt", "spark_bolt"]
    run.loadout.switch("persistent_memory", in_shop=True)
    run.rearm()


@pytest.mark.parametrize("build", [starter, persistent_memory], ids=lambda build: build.__name__)
@pytest.mark.parametrize("seed", [7, 2024])
def test_r_save_1_continue_from_the_file_plays_exactly_as_playing_on(seed: int, build: Callable[[Run], None]) -> None:
    """Wave 1 of a seeded run played by the headless bot, saved between waves; then (a) the same
    `Run` goes on in-process and (b) the file is loaded into a fresh `Run` and goes on. Both show
    the same shop, and after wave 2 with the same bot the same wave stats and state hash."""
    playing_on = Run(CONTENT, seed)
    build(playing_on)
    first = playing_on.play_wave(1, KitingBot())
    assert playing_on.sim.world.rng_state() != [0] * _core.RNG_STREAMS, "the wave drew random numbers"
    save_run(playing_on, 2)
    continued = loaded(load_run(CONTENT)).run

    for run in (playing_on, continued):
        run.shop.open(1)
    assert shelves(continued) == shelves(playing_on)
    assert continued.shop.reroll_cost == playing_on.shop.reroll_cost
    for run in (playing_on, continued):
        if run.currency >= run.shop.offer("spells", 0).price:
            run.shop.buy_spell(0)
        run.shop.close()
    assert continued.currency == playing_on.currency
    assert continued.loadout == playing_on.loadout

    after_a = playing_on.play_wave(2, KitingBot())
    after_b = continued.play_wave(2, KitingBot())
    assert dataclasses.asdict(after_b) == dataclasses.asdict(after_a)
    assert after_a.frames > 0 and (after_a.kills > 0 or after_a.spawned > 0)
    assert continued.sim.state_hash() == playing_on.sim.state_hash()
    assert [dataclasses.asdict(w) for w in continued.waves] == [dataclasses.asdict(w) for w in playing_on.waves]
    assert dataclasses.asdict(continued.waves[0]) == dataclasses.asdict(first)


@pytest.mark.parametrize("seed", [7, 2024])
def test_r_save_1_an_open_shop_written_after_each_change_continues_as_playing_on(seed: int) -> None:
    """The shop writes run.json after every change (`write_run`, no settling) and settles as it
    is left. Quitting after the last change and continuing shows the very shop left (offers,
    locks, rerolls, gold, loadout, stats), and wave 2 then plays exactly as playing on."""
    playing_on = Run(CONTENT, seed)
    playing_on.play_wave(1, KitingBot())
    playing_on.currency += 400
    save_run(playing_on, 2)
    shop = playing_on.shop
    shop.open(1)
    changes: list[Callable[[], object]] = [
        lambda: shop.buy_spell(0),
        lambda: shop.toggle_lock("spells", 1),
        shop.reroll,
        lambda: shop.buy_stat(
            next(i for i, o in enumerate(shop.shelves["stats"]) if o is not None and o.talent is None)
        ),
        lambda: shop.sell_card(0),
    ]
    for change in changes:
        change()
        write_run(playing_on, 2)
        continued = loaded(load_run(CONTENT)).run
        continued.shop.open(1)  # as the shop scene does: an open shop is not drawn anew
        assert shelves(continued) == shelves(playing_on)
        assert continued.currency == playing_on.currency and continued.loadout == playing_on.loadout
        assert continued.shop.rerolls == shop.rerolls and continued.shop.paid_cards == shop.paid_cards
        assert continued.wand_stats == playing_on.wand_stats
    settle(playing_on, 2)  # the shop is left
    for run in (playing_on, continued):
        run.shop.close()
    after_a = playing_on.play_wave(2, KitingBot())
    after_b = continued.play_wave(2, KitingBot())
    assert dataclasses.asdict(after_b) == dataclasses.asdict(after_a)
    assert continued.sim.state_hash() == playing_on.sim.state_hash()


def test_r_shop_1_a_save_without_prices_paid_loads_and_its_cards_discard() -> None:
    """A run.json written before the prices paid were saved loads with nothing paid: every card
    and core it holds is discarded for nothing (R-SHOP-1's safe default)."""
    run = rich_run()
    save_run(run, 3)
    data = json.loads(run_save_path().read_text(encoding="utf-8"))
    del data["shop"]["paid_cards"], data["shop"]["paid_cores"]
    run_save_path().write_text(json.dumps(data), encoding="utf-8")
    continued = loaded(load_run(CONTENT)).run
    assert continued.shop.paid_cards == {} and continued.shop.paid_cores == {}
    assert all(continued.shop.card_sale_value(card) == 0 for card in continued.loadout.backpack + ["spark_bolt"])
    assert all(continued.shop.core_sale_value(carried.core) == 0 for carried in continued.loadout.cores)


def test_settling_keeps_what_the_world_carries_between_waves() -> None:
    """Saving rebuilds the run's world from the save: HP, max HP, position, the random
    streams and the wand's memory carry over; mana starts full (R-MANA-1)."""
    run = Run(CONTENT, 5)
    persistent_memory(run)
    run.play_wave(1, KitingBot())
    world = run.sim.world
    world.set_player_hp(41.5, 100.0)
    before = (world.player_hp(), world.player_position(), world.rng_state(), world.wand_memory())
    assert before[3] is not None and before[3][3] != 0, "the wand's memory changed during the wave (kills counted)"
    save_run(run, 2)
    assert run.sim.world is not world
    after = run.sim.world
    assert (after.player_hp(), after.player_position(), after.rng_state(), after.wand_memory()) == before
    assert after.frame == 0


# --- the round trip -------------------------------------------------------------------------------


def rich_run() -> Run:
    """A run whose every saved part differs from a new run's."""
    run = Run(CONTENT, 31337)
    run.currency = 500
    run.shop.open(1)
    run.shop.toggle_lock("spells", 1)
    run.shop.buy_spell(0)
    run.shop.buy_stat(0)
    run.shop.buy("cores", 0)
    run.shop.reroll()
    run.shop.close()
    loadout = run.loadout
    loadout.backpack.append("damage_plus")
    loadout.waiting.append("spark_bolt")
    second = loadout.cores[1]
    second.cards[0] = "spark_bolt"
    run.shop.paid_cards.setdefault("spark_bolt", []).append(13)
    run.waves = [
        WaveStats(
            wave=1,
            kills=12,
            damage_dealt=301.25,
            damage_taken=7.5,
            max_alive=9,
            currency=24,
            frames=3600,
            spawned=14,
            biggest_hit=31.0,
        ),
        WaveStats(
            wave=2,
            kills=20,
            damage_dealt=512.0,
            damage_taken=0.0,
            max_alive=15,
            currency=31,
            frames=3600,
            spawned=22,
            biggest_hit=12.5,
        ),
    ]
    world = run.sim.world
    world.set_rng_state([1_000_000_007])
    world.set_player_hp(63.25, 100.0)
    world.set_player_position(700.5, 321.25)
    return run


def test_the_round_trip_keeps_every_saved_field() -> None:
    """Everything `RunSave` holds comes back equal from the file, and the restored run holds it."""
    run = rich_run()
    written = save_run(run, 3)
    back = loaded(load_run(CONTENT))
    assert back.next_wave == 3
    assert back.save == written
    assert snapshot(back.run, 3) == written
    restored = back.run
    assert restored.seed == run.seed
    assert restored.currency == run.currency
    assert restored.loadout == run.loadout
    assert restored.wand_stats == run.wand_stats
    assert shelves(restored) == shelves(run)
    assert any(o is not None and o.locked for o in restored.shop.shelves["spells"])
    assert restored.shop.paid_cards == run.shop.paid_cards and restored.shop.paid_cores == run.shop.paid_cores
    assert (restored.shop.wave, restored.shop.is_open, restored.shop.rerolls) == (
        run.shop.wave,
        False,
        run.shop.rerolls,
    )
    assert [dataclasses.asdict(w) for w in restored.waves] == [dataclasses.asdict(w) for w in run.waves]
    world = restored.sim.world
    assert world.player_hp() == (63.25, 100.0)
    assert world.player_position() == (700.5, 321.25)
    assert world.rng_state() == [1_000_000_007]
    assert restored.diagnostics == run.diagnostics


def test_mana_is_not_saved() -> None:
    """R-MANA-1: continuing a run starts with full mana — the file has no mana in it."""
    save_run(rich_run(), 3)
    text = run_save_path().read_text(encoding="utf-8")
    # The stat names mana_leech, mana_regen and max_mana (R-STAT-1 purchases) and the past waves'
    # out_of_mana_s (R-FEEL-2) are not the mana level.
    names = ('"mana_leech"', '"mana_regen"', '"max_mana"', '"out_of_mana_s"')
    for name in names:
        text = text.replace(name, "")
    assert "mana" not in text


def test_a_locked_offer_survives_into_the_next_shop_after_continue() -> None:
    """R-SHOP-1: a lock carries into the next shop, across a save."""
    run = Run(CONTENT, 8)
    run.shop.open(1)
    run.shop.toggle_lock("spells", 2)
    locked = run.shop.offer("spells", 2).item
    run.shop.close()
    run.waves = [WaveStats(wave=1), WaveStats(wave=2)]
    save_run(run, 3)
    continued = loaded(load_run(CONTENT)).run
    continued.shop.open(2)
    run.shop.open(2)
    assert continued.shop.offer("spells", 2).item == locked
    assert shelves(continued) == shelves(run)


def test_an_open_shop_reseeds_so_rerolls_replay() -> None:
    """A save taken with the shop open (after a reroll) rerolls to the same offers: the shop's
    draws are rebuilt from the seed, the wave and the rerolls made (no generator is saved)."""
    run = Run(CONTENT, 12)
    run.currency = 200
    run.shop.open(1)
    run.shop.reroll()
    run.waves = [WaveStats(wave=1)]
    saved = save_run(run, 2)
    assert "rng_state" not in saved.model_dump()["shop"]
    continued = loaded(load_run(CONTENT)).run
    assert continued.shop.is_open and continued.shop.rerolls == 1
    for each in (run, continued):
        each.shop.reroll()
    assert shelves(continued) == shelves(run)
    assert continued.currency == run.currency


def test_writing_is_atomic_and_leaves_no_temporary_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-SAVE-1: the file is written whole or not at all; no temporary file stays behind."""
    run = rich_run()
    save_run(run, 3)
    directory = run_save_path().parent
    assert sorted(p.name for p in directory.iterdir()) == ["run.json"]
    before = run_save_path().read_bytes()

    def refuse(source: Any, target: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    run.currency += 1
    with pytest.raises(OSError, match="disk full"):
        save_run(run, 3)
    assert sorted(p.name for p in directory.iterdir()) == ["run.json"]
    assert run_save_path().read_bytes() == before


def test_the_save_is_deleted_when_the_run_ends() -> None:
    save_run(rich_run(), 3)
    delete_run_save()
    assert not run_save_path().exists()
    delete_run_save()  # nothing saved: nothing to do
    assert load_run(CONTENT) is None


# --- corrupt saves ----------------------------------------------------------------------------------


def test_a_file_that_does_not_parse_is_set_aside_with_a_message() -> None:
    run_save_path().parent.mkdir(parents=True)
    run_save_path().write_text('{"version": 1, "seed": ', encoding="utf-8")
    found = problem(load_run(CONTENT))
    assert found.kept_as == "run.json.corrupt"
    assert "run.json" in found.detail and "run.json.corrupt" in found.detail
    assert not run_save_path().exists()
    assert (run_save_path().parent / "run.json.corrupt").read_text(encoding="utf-8").startswith('{"version"')
    assert load_run(CONTENT) is None  # the title then offers a new run


def saved_data() -> dict[str, Any]:
    save_run(rich_run(), 3)
    data: dict[str, Any] = json.loads(run_save_path().read_text(encoding="utf-8"))
    return data


def set_path(data: Any, path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for part in parents:
        data = data[int(part)] if isinstance(data, list) else data[part]
    if isinstance(data, list):
        data[int(last)] = value
    else:
        data[last] = value


@pytest.mark.parametrize(
    ("path", "value", "named"),
    [
        ("currency", -5, "currency"),
        (
            "loadout.cores.0.core",
            "Not An Id!",
            "loadout.cores.0.core",
        ),  # an unknown but well-formed id is dropped (test_save_robust)
        ("loadout.backpack.0", "x" * 65, "loadout.backpack.0"),
        ("loadout.active", "siege_core_x", "active"),
        ("loadout.cores.0.cards", ["spark_bolt"], "cards"),
        ("shop.spells.0.price", -1, "shop.spells.0.price"),
        ("shop.paid_cores", {"starter_wand": -10}, "shop.paid_cores"),
        ("player.hp", 250.0, "hp"),
        ("player.hp", 0.0, "player.hp"),
        ("rng_state", [1, 2, 3], "rng_state"),
        ("rng_state", [-1], "rng_state"),
        ("next_wave", 999, "next_wave"),
        ("waves.0.kills", -3, "waves"),
        ("wand_stats.totals.cpu", "lots", "wand_stats.totals.cpu"),
        ("seed", "abc", "seed"),
        ("surprise", 1, "surprise"),
    ],
)
def test_a_bad_field_sets_the_file_aside_with_a_message_naming_it(path: str, value: Any, named: str) -> None:
    data = saved_data()
    set_path(data, path, value)
    run_save_path().write_text(json.dumps(data), encoding="utf-8")
    found = problem(load_run(CONTENT))
    assert named in found.detail, found.detail
    assert not run_save_path().exists() and (run_save_path().parent / "run.json.corrupt").exists()


@pytest.mark.parametrize("version", [0, SAVE_VERSION + 1, 99, "1", None])
def test_an_unknown_version_is_set_aside(version: Any) -> None:
    data = saved_data()
    data["version"] = version
    run_save_path().write_text(json.dumps(data), encoding="utf-8")
    found = problem(load_run(CONTENT))
    assert "version" in found.detail and str(SAVE_VERSION) in found.detail
    assert (run_save_path().parent / "run.json.corrupt").exists()


@pytest.mark.parametrize("content", ["[]", "null", '"run"', "{}"])
def test_json_that_is_not_a_save_is_set_aside(content: str) -> None:
    run_save_path().parent.mkdir(parents=True)
    run_save_path().write_text(content, encoding="utf-8")
    assert isinstance(load_run(CONTENT), SaveProblem)
    assert not run_save_path().exists()


def test_a_wand_memory_that_does_not_fit_the_wand_is_set_aside() -> None:
    """The core refuses memory that does not fit the armed program (a CoreArgumentError, no panic)."""
    data = saved_data()
    data["wand_memory"] = {"cursor": 4_000_000, "registers": [0, 0], "counters": [], "kills": 0}
    run_save_path().write_text(json.dumps(data), encoding="utf-8")
    found = problem(load_run(CONTENT))
    assert "cursor" in found.detail


def test_the_schema_checks_a_save_without_content_too() -> None:
    """The schema alone (no content in the context) still refuses numbers out of range."""
    data = saved_data()
    assert RunSave.model_validate(data).currency == data["currency"]
    data["currency"] = -1
    with pytest.raises(ValueError, match="currency"):
        RunSave.model_validate(data)


# --- the core's accessors -----------------------------------------------------------------------------


@pytest.fixture
def world() -> Iterator[_core.World]:
    run = Run(CONTENT, 3)
    yield run.sim.world


@pytest.mark.parametrize(
    "state",
    [
        [],
        [1, 2],
        [-1],
        [2**64],
        ["a"],
        [1.5],
        [True],
        "abcd",
        7,
    ],
)
def test_the_core_refuses_a_bad_rng_state(world: _core.World, state: Any) -> None:
    with pytest.raises(CoreArgumentError, match="rng_state"):
        world.set_rng_state(state)
    assert world.rng_state() == [0] * _core.RNG_STREAMS


def test_the_rng_state_restores_the_streams_exactly(world: _core.World) -> None:
    world.set_rng_state([2**64 - 1])
    assert world.rng_state() == [2**64 - 1]
    hashed = world.state_hash()
    world.set_rng_state([0])
    assert world.state_hash() != hashed
    world.set_rng_state([2**64 - 1])
    assert world.state_hash() == hashed


@pytest.mark.parametrize(
    ("hp", "hp_max"), [(0.0, 100.0), (-3.0, 100.0), (120.0, 100.0), (math.nan, 100.0), (50.0, math.inf)]
)
def test_the_core_refuses_bad_hp(world: _core.World, hp: float, hp_max: float) -> None:
    before = world.player_hp()  # a new run's: full, iron_heart's +10 included (R-REL-1)
    with pytest.raises(CoreArgumentError, match="(?i)hp"):
        world.set_player_hp(hp, hp_max)
    assert world.player_hp() == before


def test_the_core_refuses_wand_memory_that_does_not_fit(world: _core.World) -> None:
    memory = world.wand_memory()
    assert memory is not None
    cursor, registers, counters, kills = memory
    world.set_wand_memory(cursor, [5, -6], counters, 9)
    assert world.wand_memory() == (cursor, [5, -6], counters, 9)
    for bad in (
        lambda: world.set_wand_memory(10_000, registers, counters, kills),
        lambda: world.set_wand_memory(-1, registers, counters, kills),
        lambda: world.set_wand_memory(cursor, [1, 2, 3], counters, kills),
        lambda: world.set_wand_memory(cursor, [2**31, 0], counters, kills),
        lambda: world.set_wand_memory(cursor, registers, [*counters, 1], kills),
        lambda: world.set_wand_memory(cursor, registers, counters, -1),
    ):
        with pytest.raises(CoreArgumentError, match="wand"):
            bad()
    world.clear_wand()
    assert world.wand_memory() is None
    with pytest.raises(CoreArgumentError, match="program"):
        world.set_wand_memory(0, [0, 0], [], 0)
