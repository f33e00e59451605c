"""New Game+ and meta.json (R-END-2, R-LOOP-1, R-SAVE-1): what a clear unlocks, what each level makes
harder, that the bosses' ng_plus_phase plays only in NG+, that a run keeps its level across the rebuild
between waves and a save, and that meta.json never stops the game (corrupt ⇒ set aside, no progress)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from artificer.content.roster import kind_index
from artificer.engine import Simulation, WorldMode
from artificer.engine.kinds import core_kinds
from artificer.game.meta import META_FILE, META_VERSION, Meta, load_meta, record_clear, save_meta
from artificer.game.run import Run
from artificer.game.save import load_run, save_run
from artificer.sim.headless import run_headless
from relic_runs import CONTENT

pytestmark = pytest.mark.usefixtures("isolated_home")  # tests/conftest.py: saves go to a temporary home

NG = CONTENT.balance.ng_plus


def test_r_end_2_the_first_clear_unlocks_ng_plus_1_and_each_level_the_next_up_to_the_highest() -> None:
    meta = Meta()
    assert meta.cleared(0, NG.max_level) == Meta(clears=1, ng_plus_unlocked=1)
    assert Meta(1, 1).cleared(1, NG.max_level) == Meta(2, 2)
    assert Meta(3, 3).cleared(0, NG.max_level) == Meta(4, 3), "an easier clear unlocks nothing new"
    assert Meta(9, NG.max_level).cleared(NG.max_level, NG.max_level).ng_plus_unlocked == NG.max_level


def test_r_save_1_meta_json_is_written_atomically_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / META_FILE
    assert load_meta(path).meta == Meta() and load_meta(path).notice is None, "no file: no progress"
    assert record_clear(0, NG.max_level, path) == Meta(1, 1)
    written = json.loads(path.read_text())
    assert (written["version"], written["clears"], written["ng_plus_unlocked"]) == (META_VERSION, 1, 1)
    assert record_clear(1, NG.max_level, path) == Meta(2, 2)
    assert load_meta(path).meta == Meta(2, 2)
    assert not list(tmp_path.glob("*.tmp*")), "no temporary file left behind"


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        '{"version": 1, "clears": -1, "ng_plus_unlocked": 0}',
        '{"version": 1, "clears": 1, "ng_plus_unlocked": 99}',
        '{"version": 7, "clears": 1, "ng_plus_unlocked": 1}',
        '{"version": 1.0, "clears": 1, "ng_plus_unlocked": 1}',
        '{"version": 1, "clears": 1, "ng_plus_unlocked": 1, "cheat": true}',
        "[1, 2]",
    ],
)
def test_r_save_1_a_meta_json_that_cannot_be_used_is_set_aside_with_a_notice(tmp_path: Path, text: str) -> None:
    path = tmp_path / META_FILE
    path.write_text(text)
    found = load_meta(path)
    assert found.meta == Meta() and found.notice is not None and "meta.json" in found.notice
    assert not path.exists() and (tmp_path / f"{META_FILE}.corrupt").read_text() == text
    save_meta(Meta(1, 1), path)
    assert load_meta(path).meta == Meta(1, 1), "and the game goes on saving"


def test_r_end_2_each_level_compounds_enemy_hp_damage_and_shot_speed() -> None:
    plain, level_2 = core_kinds(CONTENT, 0), core_kinds(CONTENT, 2)
    stat, speed = NG.enemy_stat_multiplier**2, NG.enemy_projectile_speed_multiplier**2
    for before, after in zip(plain, level_2, strict=True):
        assert after["hp"] == pytest.approx(before["hp"] * stat), before["id"]
        assert after["contact_damage"] == pytest.approx(before["contact_damage"] * stat)
        if before.get("attack"):
            assert after["attack"]["speed"] == pytest.approx(before["attack"]["speed"] * speed)
            assert after["attack"]["damage"] == pytest.approx(before["attack"]["damage"] * stat)
        if before.get("boss"):
            assert after["boss"]["shot"]["speed"] == pytest.approx(before["boss"]["shot"]["speed"] * speed)
    Simulation(CONTENT, 1, mode=WorldMode(ng_plus=2))  # the core takes them


def test_r_boss_2_the_void_lords_last_will_plays_only_in_ng_plus() -> None:
    """At 0 HP in NG+ it refuses the blow: invulnerable, back to 30%, phase 4, two clones; in the
    game as it ships the blow kills it."""
    kind = kind_index(CONTENT, "void_lord")
    outcomes = {}
    for level in (0, 1):
        sim = Simulation(CONTENT, 1, mode=WorldMode(ng_plus=level))
        sim.world.set_player_position(200.0, 200.0)
        sim.world.spawn_enemies(kind, np.array([1200.0], np.float32), np.array([800.0], np.float32))
        sim.step()
        boss = sim.world.boss_status()[0]
        at = np.array([boss["x"]], np.float32), np.array([boss["y"]], np.float32)
        still = np.zeros(1, np.float32)
        sim.world.spawn_projectiles(*at, still, still, 8.0, 1e9, 1)
        sim.step()
        outcomes[level] = sim.world.boss_status()
    assert outcomes[0] == [], "no Last Will: it fell"
    standing = next(b for b in outcomes[1] if b["kind"] == kind)
    assert standing["phase"] == 4 and standing["invulnerable"] > 0 and standing["linked"] == 2
    clones = [b for b in outcomes[1] if b["kind"] == kind_index(CONTENT, "void_lord_clone")]
    assert len(clones) == 2, "its clones are bosses of their own kind (the HUD shows the Void Lord's bar)"
    assert standing["hp"] == pytest.approx(0.3 * standing["hp_max"])


def test_r_save_1_a_run_keeps_its_ng_plus_level_between_waves_and_in_its_save() -> None:
    run = Run(CONTENT, 9, ng_plus=2)
    assert run.sim.mode.ng_plus == 2
    wave = run.start_wave(1)
    wave.stats.frames = wave.frames
    wave.finish()
    save_run(run, 2)
    assert run.sim.mode.ng_plus == 2, "the world rebuilt between waves is still NG+ 2"
    loaded = load_run(CONTENT)
    assert loaded is not None and not hasattr(loaded, "reason")
    assert loaded.run.state.ng_plus == 2 and loaded.run.sim.mode.ng_plus == 2  # type: ignore[union-attr]


def test_r_end_2_headless_runs_take_a_level_and_report_it() -> None:
    report = run_headless(CONTENT, 1, 1, ng_plus=1)
    assert report["result"]["ng_plus"] == 1
    assert "ng_plus" not in run_headless(CONTENT, 1, 1)["result"], "absent at 0: the golden keys stay"
