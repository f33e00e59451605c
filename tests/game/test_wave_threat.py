"""Every wave presses (R-WAVE-1, R-CURVE-3): each wave of waves.json has its own enemy HP and
damage multipliers (`enemy_hp`, `enemy_damage`), so the threat grows with the wave as the wand
does. The world of each wave is built with its wave's: after a shop's settle, and for a run begun
past wave 1 (practice, `--start-wave`); an endless wave has its template's on top of its difficulty."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from artificer.content import ContentError, load_content
from artificer.content.loader import DEFAULT_DATA_DIR
from artificer.engine.kinds import core_kinds
from artificer.game.endless import wave_for
from artificer.game.flow import Phase, RunFlow
from artificer.game.run import Run
from artificer.game.stats import WaveStats
from relic_runs import CONTENT

pytestmark = pytest.mark.usefixtures("isolated_home")


def by_id(kinds: list[dict[str, object]]) -> dict[str, dict[str, object]]:
    return {str(kind["id"]): kind for kind in kinds}


def test_r_wave_1_a_wave_s_multipliers_raise_every_kind_s_hp_and_every_damage_it_deals() -> None:
    plain, harder = by_id(core_kinds(CONTENT)), by_id(core_kinds(CONTENT, wave_hp=2.5, wave_damage=1.5))
    assert harder["grunt"]["hp"] == pytest.approx(2.5 * plain["grunt"]["hp"])
    assert harder["grunt"]["contact_damage"] == pytest.approx(1.5 * plain["grunt"]["contact_damage"])
    assert harder["archer"]["attack"]["damage"] == pytest.approx(1.5 * plain["archer"]["attack"]["damage"])
    assert harder["exploder"]["explode"]["damage"] == pytest.approx(1.5 * plain["exploder"]["explode"]["damage"])
    boss = next(kind for kind in plain if plain[kind].get("boss"))
    assert harder[boss]["hp"] == pytest.approx(2.5 * plain[boss]["hp"])
    assert harder[boss]["boss"]["shot"]["damage"] == pytest.approx(1.5 * plain[boss]["boss"]["shot"]["damage"])
    # The shots fly as fast as before: only NG+ speeds them.
    assert harder["archer"]["attack"]["speed"] == plain["archer"]["attack"]["speed"]


def test_r_curve_3_the_shipped_threat_grows_from_wave_1_to_the_last_regular_wave() -> None:
    regular = [wave for wave in CONTENT.waves if not wave.boss]
    assert CONTENT.wave(1).enemy_hp == 1.0 and CONTENT.wave(1).enemy_damage == 1.0
    assert regular[-1].enemy_hp >= 5 * regular[0].enemy_hp
    assert all(a.enemy_hp <= b.enemy_hp for a, b in zip(regular, regular[1:], strict=False))
    assert all(a.enemy_damage <= b.enemy_damage for a, b in zip(regular, regular[1:], strict=False))


def test_r_wave_1_the_world_after_a_shop_is_built_for_the_next_wave_s_enemies() -> None:
    run = Run(CONTENT, 3)
    assert (run.sim.mode.wave_hp, run.sim.mode.wave_damage) == (1.0, 1.0)  # wave 1 as it ships
    run.waves = [WaveStats(wave=n) for n in range(1, 12)]
    flow = RunFlow.continued(run, 12)
    flow.open_shop()
    wave = CONTENT.wave(12)
    assert (run.sim.mode.wave_hp, run.sim.mode.wave_damage) == (wave.enemy_hp, wave.enemy_damage)
    flow.leave_shop()
    assert run.sim.mode.wave_hp == wave.enemy_hp


def test_r_wave_1_a_run_begun_past_wave_1_meets_that_wave_s_enemies() -> None:
    run = Run(CONTENT, 5)
    run.state.practice, run.state.first_wave = True, 9
    flow = RunFlow(run, first_wave=9)
    assert flow.phase is Phase.LAB
    flow.begin_wave()
    assert run.sim.mode.wave_hp == CONTENT.wave(9).enemy_hp > 1.0


def test_r_end_3_an_endless_wave_has_its_template_s_threat() -> None:
    run = Run(CONTENT, 3)
    run.state.endless = True
    last = len(CONTENT.waves)
    run.waves = [WaveStats(wave=n) for n in range(1, last + 1)]
    flow = RunFlow.continued(run, last + 1)
    flow.open_shop()
    assert (
        run.sim.mode.wave_hp
        == wave_for(CONTENT, last + 1).enemy_hp
        == CONTENT.wave(CONTENT.balance.endless.templates[0]).enemy_hp
    )


def test_a_wave_multiplier_out_of_range_is_one_clear_problem(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    waves = json.loads((data / "waves.json").read_text(encoding="utf-8"))
    waves["waves"][3]["enemy_hp"] = 0.0
    (data / "waves.json").write_text(json.dumps(waves), encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_content(data)
    problems = [p for p in caught.value.problems if "enemy_hp" in p.path]
    assert len(problems) == 1
    assert problems[0].file == "waves.json" and problems[0].path == "$.waves[3].enemy_hp"
