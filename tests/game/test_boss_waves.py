"""Boss waves through the real wave flow (R-WAVE-1, R-BOSS-2, R-REL-3): which boss ends each boss
wave, that the wave outlasts its timer until its boss falls, what the wave records of the fight (the
headless report's boss keys), and that a fight past the stall cap ends the run as stalled. The boss's
own behaviours in the core: rust/tests/bosses.rs."""

from __future__ import annotations

import numpy as np
import pytest

from artificer.content.roster import kind_index, roster
from artificer.engine.events import KIND, EventKind
from artificer.game.bosses import pick_boss
from artificer.game.flow import Ending, Phase, RunFlow
from artificer.game.relics import wave_relic_count
from artificer.game.run import Run, WaveInProgress
from relic_runs import CONTENT

pytestmark = pytest.mark.usefixtures("isolated_home")  # tests/conftest.py: saves go to a temporary home

BOSS_WAVES = {8: {"brood_mother"}, 10: {"mirror_mage", "armor_lord"}, 20: {"void_lord"}}


def test_r_boss_2_each_boss_wave_has_its_boss_and_w10s_is_drawn_from_the_seed() -> None:
    assert {wave.wave for wave in CONTENT.waves if wave.boss} == set(BOSS_WAVES)
    for number, bosses in BOSS_WAVES.items():
        drawn = {pick_boss(CONTENT, CONTENT.wave(number), seed).boss_id for seed in range(1, 41)}  # type: ignore[union-attr]
        assert drawn == bosses, number
    w10 = CONTENT.wave(10)
    assert [pick_boss(CONTENT, w10, seed) for seed in (3, 3)][0] == pick_boss(CONTENT, w10, 3), "a seed replays"
    assert pick_boss(CONTENT, CONTENT.wave(7), 1) is None


def test_the_roster_puts_bosses_and_their_clones_after_the_enemies() -> None:
    kinds = [kind.id for kind in roster(CONTENT)]
    assert kinds[: len(CONTENT.enemies)] == [enemy.id for enemy in CONTENT.enemies]
    assert kinds[len(CONTENT.enemies) :] == [
        "armor_lord",
        "brood_mother",
        "mirror_mage",
        "void_lord",
        "void_lord_clone",
    ]


def standing(run: Run, wave: WaveInProgress, frames: int) -> list[np.ndarray]:
    """Steps `wave` `frames` times with the player kept alive (healed every step); the event rows."""
    out = []
    for _ in range(frames):
        run.sim.input.heal(10_000.0)
        wave.step()
        out.append(np.array(run.sim.buffers.event_rows(), copy=True))
    return out


def fell_boss(run: Run) -> None:
    """A shot of a million on the boss (what a build's wand does in time)."""
    boss = run.sim.world.boss_status()[0]
    xy = np.array([boss["x"]], dtype=np.float32)
    still = np.zeros(1, dtype=np.float32)
    run.sim.world.spawn_projectiles(xy, xy * 0 + np.float32(boss["y"]), still, still, 8.0, 1e6, 0)


def test_r_wave_1_a_boss_wave_outlasts_its_timer_and_ends_when_its_boss_falls() -> None:
    """W8: the brood mother comes on the wave's first step; at its 60 s the wave goes on; a boss down
    ends it, won, with its time to kill and the phases it reached; R-REL-3: a boss wave gives one
    relic more than an elite wave."""
    run = Run(CONTENT, 5)
    wave = run.start_wave(8)
    assert wave.boss is not None and wave.boss.boss_id == "brood_mother"
    rows = standing(run, wave, 1)
    spawned = rows[0][rows[0][:, KIND] == EventKind.ENEMY_SPAWNED]
    assert kind_index(CONTENT, "brood_mother") in spawned[:, 1], "the boss comes at once"
    standing(run, wave, wave.frames + 30)
    assert not wave.over and run.sim.world.boss_status(), "past its timer, the boss still stands"
    fell_boss(run)
    for _ in range(5):
        standing(run, wave, 1)
        if wave.over:
            break
    assert wave.over and wave.won and wave.boss_fallen
    fight = wave.stats.boss
    assert fight is not None and fight.ttk_s == pytest.approx(wave.stats.frames / run.sim.tick_hz - 1 / 60, abs=0.05)
    assert fight.phases[0] == 1 and not fight.stalled
    stats = wave.finish()
    assert len(stats.relics) + (stats.relic_currency > 0) == wave_relic_count(wave.wave, CONTENT.relics) == 2
    entry = stats.as_json()
    assert entry["boss_id"] == "brood_mother" and entry["boss_ttk_s"] == round(fight.ttk_s, 3)
    assert entry["boss_phases"] == fight.phases and entry["boss_stalled"] is False
    assert "boss" not in entry


def test_other_waves_end_on_their_timer_and_report_no_boss_keys() -> None:
    run = Run(CONTENT, 5)
    wave = run.start_wave(7)
    assert wave.boss is None
    standing(run, wave, wave.frames)
    assert wave.over and wave.won
    assert not any(key.startswith("boss") for key in wave.finish().as_json())


def test_r_wave_1_a_fight_past_the_stall_cap_ends_the_run_as_stalled() -> None:
    """The hard cap (balance.json wave.boss.stall_after, shortened here): the wave is over, not won,
    and the run ends STALLED — no relics, no shop."""
    run = Run(CONTENT, 5)
    flow = RunFlow(run, first_wave=20)
    wave = flow.begin_wave()
    wave._stall_frames = 90  # the shipped 600 s would make this test slow
    while not wave.over:
        run.sim.input.heal(10_000.0)
        flow.step()
    assert wave.stats.boss is not None and wave.stats.boss.stalled and not wave.won
    heard: list[Run] = []
    flow.on_game_cleared.append(heard.append)
    stats = flow.end_wave()
    assert flow.phase is Phase.OVER and flow.ending is Ending.STALLED
    assert heard == [], "a stalled W20 is no clear (R-END-2 game_cleared)"
    assert stats.relics == [] and stats.as_json()["boss_ttk_s"] is None
