"""The wave report's pacing numbers: `empty_s` (R-FEEL-1: the arena is never empty for more than
3 s once a wave is 2 s old) and `out_of_mana_s` (R-FEEL-2: the seconds in which casts were being
abandoned for mana), measured in the real wave flow (`game/run.py`) and reported by
`run --headless --json` (R-SIM-1)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from artificer.content import Content, load_content
from artificer.content.loader import DEFAULT_DATA_DIR
from artificer.engine import EventKind
from artificer.engine import events as ev
from artificer.game.run import EMPTY_FROM_S, EMPTY_GRACE_S, Run, WaveStats
from artificer.sim.bot import KitingBot
from artificer.sim.headless import run_headless

CONTENT = load_content()
TICK_HZ = CONTENT.balance.sim.tick_hz


def edited_content(tmp_path: Path, file: str, edit: Callable[[Any], None]) -> Content:
    """The shipped content with one file edited (a private copy of the data)."""
    shutil.copytree(DEFAULT_DATA_DIR, tmp_path, dirs_exist_ok=True)
    path = tmp_path / file
    document = json.loads(path.read_text(encoding="utf-8"))
    edit(document)
    path.write_text(json.dumps(document), encoding="utf-8")
    return load_content(tmp_path)


def starting_core(document: Any) -> dict[str, Any]:
    core_id = CONTENT.balance.starting_wand.core
    core: dict[str, Any] = next(core for core in document["cores"] if core["id"] == core_id)
    return core


def play_wave_one(content: Content, seed: int = 1) -> tuple[WaveStats, int, int]:
    """Wave 1 with the kiting bot; also returns, counted here from the events, the frames with a
    CAST_ABANDONED event and the frames from an abandoned cast until the next cast that fires."""
    run = Run(content, seed)
    bot = KitingBot()
    wave = run.start_wave(1)
    abandoned_frames, starved_frames, starved = 0, 0, False
    while not wave.over:
        bot.control(run.sim)
        wave.step()
        rows = run.sim.buffers.event_rows()
        abandoned = ev.count(rows, EventKind.CAST_ABANDONED) > 0
        abandoned_frames += abandoned
        starved = True if abandoned else (False if ev.count(rows, EventKind.CAST_FIRED) else starved)
        starved_frames += starved
    return wave.finish(), abandoned_frames, starved_frames


def test_every_wave_reports_empty_s_and_out_of_mana_s() -> None:
    report = run_headless(CONTENT, seed=1, waves=2)
    for wave in report["waves"]:
        assert {"empty_s", "out_of_mana_s"} <= set(wave)
        assert 0 <= wave["empty_s"] <= wave["frames"] / TICK_HZ
        assert 0 <= wave["out_of_mana_s"] <= wave["frames"] / TICK_HZ


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_r_feel_1_waves_1_to_5_never_leave_the_arena_empty(seed: int) -> None:
    """The default bot (the starting wand, no shopping) never finds the arena empty for more than
    3 s once a wave is 2 s old, in the waves of 1-5 it lives through."""
    report = run_headless(CONTENT, seed=seed, waves=5)
    played = [w["wave"] for w in report["waves"]]
    assert played[:2] == [1, 2], "the starter wand lives through the first waves (they press, R-CURVE-3)"
    assert [(w["wave"], w["empty_s"]) for w in report["waves"]] == [(n, 0.0) for n in played]


def test_empty_s_counts_each_stretch_beyond_its_grace_from_two_seconds(tmp_path: Path) -> None:
    """Wave 1 spawns nothing until t = 50 s (tanky brutes, one a second after that): the arena is
    empty from t = 2 s (the wave's first 2 s do not count) to t = 50 s, 48 s of which all but
    the first 3 s count. The frames after the wave's timer (finish's clear-up) are not counted."""
    first_spawn = 50.0

    def late_brutes(document: Any) -> None:
        document["waves"][0]["groups"] = [
            {
                "enemy": "brute",
                "count": 3,
                "start": first_spawn + CONTENT.balance.wave.spawn_telegraph,
                "every": 1.0,
                "until": 60.0,
                "elite": False,
            }
        ]

    content = edited_content(tmp_path, "waves.json", late_brutes)
    run = Run(content, 1)
    wave = run.start_wave(1)
    while not wave.over:
        wave.step()  # the player stands still
    before_finish = wave.stats.empty_s
    stats = wave.finish()
    expected = first_spawn + content.balance.wave.spawn_telegraph - EMPTY_FROM_S - EMPTY_GRACE_S
    assert stats.empty_s == pytest.approx(expected, abs=1.5 / TICK_HZ)
    assert stats.empty_s == before_finish


def test_out_of_mana_s_counts_the_time_casts_are_being_abandoned(tmp_path: Path) -> None:
    """R-FEEL-2: a starting core with no mana regeneration runs dry and abandons casts for the
    rest of the wave; `out_of_mana_s` is the time from an abandoned cast until the next cast that
    fires, so a wand dry for the rest of the wave reports most of the wave, not only the frames
    of its attempts (one per cast delay, R-VM-11)."""

    def no_regen(document: Any) -> None:
        starting_core(document)["mana_regen"] = 0

    stats, abandoned_frames, starved_frames = play_wave_one(edited_content(tmp_path, "cores.json", no_regen))
    assert abandoned_frames >= 20  # the pool empties early and the wave goes on dry
    assert starved_frames > 5 * abandoned_frames, "dry between attempts too"
    assert stats.out_of_mana_s == pytest.approx(starved_frames / TICK_HZ)
    assert stats.out_of_mana_s > 0.25 * stats.frames / TICK_HZ, "the pool lasts a while, then the wave goes on dry"
    assert stats.as_json()["out_of_mana_s"] == round(starved_frames / TICK_HZ, 3)


def test_out_of_mana_s_is_zero_when_regeneration_outpaces_every_cast(tmp_path: Path) -> None:
    def flush(document: Any) -> None:
        starting_core(document)["mana_regen"] = 100_000

    stats, abandoned_frames, _ = play_wave_one(edited_content(tmp_path, "cores.json", flush))
    assert stats.kills > 0  # the wand did fire
    assert abandoned_frames == 0 and stats.out_of_mana_s == 0.0
