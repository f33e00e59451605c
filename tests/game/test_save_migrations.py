"""R-SAVE-1: an older run.json is migrated, not set aside. `tests/data/run_v1.json` is a real
version 1 file, written by the game before the core dropped its three unused random streams
(issue 14): the bot's chain build on seed 8 after 6 waves, its shop open. It must load with
today's content into the run its player left, and go on."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from artificer import _core
from artificer.content import load_content
from artificer.game.run import Run, WaveStats
from artificer.game.save import (
    MIGRATIONS,
    SAVE_VERSION,
    LoadedRun,
    MigrationError,
    load_run,
    migrate,
    run_save_path,
    snapshot,
)
from artificer.sim.bot import KitingBot

CONTENT = load_content()
V1_FILE = Path(__file__).resolve().parent.parent / "data" / "run_v1.json"
V1: dict[str, Any] = json.loads(V1_FILE.read_text(encoding="utf-8"))

pytestmark = pytest.mark.usefixtures("isolated_home")  # tests/conftest.py: saves go to a temporary home


def load_v1() -> LoadedRun:
    run_save_path().parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(V1_FILE, run_save_path())
    loaded = load_run(CONTENT)
    assert isinstance(loaded, LoadedRun), loaded
    return loaded


def test_the_kept_file_is_version_1() -> None:
    assert V1["version"] == 1 and len(V1["rng_state"]) == 4


def test_every_older_version_has_a_step_up() -> None:
    assert sorted(MIGRATIONS) == list(range(1, SAVE_VERSION))


def test_a_v1_save_loads_into_the_run_its_player_left() -> None:
    loaded = load_v1()
    run = loaded.run
    assert loaded.dropped == ()
    assert loaded.next_wave == V1["next_wave"] == 7
    assert run.seed == V1["seed"]
    assert run.currency == V1["currency"]
    assert [(c.core, c.cards) for c in run.loadout.cores] == [(c["core"], c["cards"]) for c in V1["loadout"]["cores"]]
    assert run.loadout.active == V1["loadout"]["active"]
    assert run.loadout.backpack == V1["loadout"]["backpack"] and run.loadout.backpack
    assert run.relics.owned == V1["relics"]["owned"] and run.relics.owned
    assert run.potions.held == V1["potions"]["held"] and any(run.potions.held)
    assert sorted(t.value for t in run.talents) == V1["talents"]
    # R-STAT-1: a stat added since (max_mana) is in no v1 save: 0 bought.
    totals = {**V1["wand_stats"]["totals"], "max_mana": 0.0}
    assert {stat.value: total for stat, total in run.wand_stats.totals.items()} == totals
    world = run.sim.world
    assert (
        world.player_hp() == (V1["player"]["hp"], V1["player"]["hp_max"])
        and V1["player"]["hp"] < V1["player"]["hp_max"]
    )
    assert world.last_will == V1["player"]["last_will"]
    # v1 listed (crit, spread, drops, spawns); crit, the first, is the one the world draws from.
    assert world.rng_state() == V1["rng_state"][:1] and V1["rng_state"][0] > 0
    assert _core.RNG_STREAMS == 1
    # The open shop comes back as it was: the same offers, not drawn anew.
    shop = run.shop
    assert shop.is_open and shop.wave == V1["shop"]["wave"]
    for shelf in ("spells", "cores", "stats"):
        assert [None if o is None else o.item for o in shop.shelves[shelf]] == [
            None if o is None else o["item"] for o in V1["shop"][shelf]
        ]
    assert snapshot(run, loaded.next_wave).version == SAVE_VERSION


def test_the_next_wave_plays_from_a_v1_save() -> None:
    loaded = load_v1()
    run = loaded.run
    wave = run.start_wave(loaded.next_wave)
    bot = KitingBot()
    while not wave.over:
        bot.control(run.sim)
        wave.step()
    stats = wave.finish()
    assert stats.wave == loaded.next_wave
    assert stats.frames > 0 and stats.spawned > 0
    assert run.sim.world.rng_state()[0] > V1["rng_state"][0], "the wave drew from the restored crit stream"


def test_migrate_keeps_everything_but_the_unused_streams_and_the_shops_generator() -> None:
    original = copy.deepcopy(V1)
    migrated = migrate(V1)
    assert V1 == original, "the input is left as it was"
    assert migrated["version"] == SAVE_VERSION
    assert migrated["rng_state"] == V1["rng_state"][:1]
    # v2 -> v3: the open shop's Mersenne Twister state goes; the shop reseeds (game/draws.py).
    assert len(V1["shop"]["rng_state"]) == 625 and "rng_state" not in migrated["shop"]
    assert migrated["shop"] == {k: v for k, v in V1["shop"].items() if k != "rng_state"}
    assert {k: v for k, v in migrated.items() if k not in ("version", "rng_state", "shop")} == {
        k: v for k, v in V1.items() if k not in ("version", "rng_state", "shop")
    }
    assert migrate(migrated) == migrated, "a current save is already up to date"


def test_a_v2_save_with_the_shops_generator_loads_and_its_rerolls_play_on() -> None:
    """A version 2 file kept its open shop's Mersenne Twister state; loaded today the state goes,
    the shelves come back as saved and the next reroll draws what playing on draws."""
    playing_on = Run(CONTENT, 21)
    playing_on.currency = 300
    playing_on.shop.open(1)
    playing_on.shop.reroll()
    playing_on.waves = [WaveStats(wave=1)]
    data = snapshot(playing_on, 2).model_dump(mode="json")
    data["version"] = 2
    data["shop"]["rng_state"] = [7] * 624 + [624]  # whatever v2 held, it is not read
    run_save_path().parent.mkdir(parents=True, exist_ok=True)
    run_save_path().write_text(json.dumps(data), encoding="utf-8")
    loaded = load_run(CONTENT)
    assert isinstance(loaded, LoadedRun), loaded
    continued = loaded.run
    shelves = ("spells", "cores", "stats")
    assert all(continued.shop.shelves[shelf] == playing_on.shop.shelves[shelf] for shelf in shelves)
    for each in (playing_on, continued):
        each.shop.reroll()
    assert all(continued.shop.shelves[shelf] == playing_on.shop.shelves[shelf] for shelf in shelves)
    assert continued.shop.rerolls == 2 and continued.currency == playing_on.currency


@pytest.mark.parametrize("state", [[1, 2, 3], [5], None, "abcd"])
def test_a_v1_save_whose_streams_do_not_fit_version_1_is_set_aside(state: Any) -> None:
    with pytest.raises(MigrationError, match="rng_state"):
        migrate(V1 | {"rng_state": state})
    run_save_path().parent.mkdir(parents=True, exist_ok=True)
    run_save_path().write_text(json.dumps(V1 | {"rng_state": state}), encoding="utf-8")
    found = load_run(CONTENT)
    assert not isinstance(found, LoadedRun) and found is not None
    assert "rng_state" in found.detail and "version 1" in found.detail
    assert (run_save_path().parent / "run.json.corrupt").exists()
