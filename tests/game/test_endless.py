"""Endless waves (R-END-3): past the last wave the run goes on — each wave the data's template, its
counts × the wave's difficulty (+10% every 5 waves, no cap but the core's ranges) clamped to the data's
ceiling, the mix widening from the data's waves on; the world of each wave is built that much harder;
an endless run's save goes past the last wave; check-content checks the templates and additions."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from artificer.content import ContentError, load_content
from artificer.engine.kinds import core_kinds
from artificer.game.endless import difficulty, endless_wave, wave_for
from artificer.game.flow import Ending, Phase, RunFlow
from artificer.game.run import Run
from artificer.game.save import LoadedRun, load_run, save_run
from artificer.game.stats import WaveStats
from relic_runs import CONTENT

pytestmark = pytest.mark.usefixtures("isolated_home")

ENDLESS = CONTENT.balance.endless
LAST = len(CONTENT.waves)


def test_r_end_3_difficulty_rises_10_percent_every_5_waves_without_a_cap() -> None:
    assert [difficulty(CONTENT, n) for n in (1, 20, 21, 24)] == [1.0, 1.0, 1.0, 1.0]
    assert difficulty(CONTENT, 25) == pytest.approx(1.1) and difficulty(CONTENT, 30) == pytest.approx(1.2)
    assert difficulty(CONTENT, ENDLESS.max_wave) == pytest.approx(1 + 0.1 * ((ENDLESS.max_wave - LAST) // 5))
    assert difficulty(CONTENT, 40) > difficulty(CONTENT, 35) > difficulty(CONTENT, 30), "no plateau"


def test_r_end_3_an_endless_wave_scales_its_template_clamps_counts_and_widens_its_mix() -> None:
    template = CONTENT.wave(ENDLESS.templates[0])
    first = endless_wave(CONTENT, LAST + 1)
    assert first.wave == LAST + 1 and not first.boss and first.duration == template.duration
    assert [g.count for g in first.groups] == [g.count for g in template.groups], "the first steps are the template's"
    deep = endless_wave(CONTENT, 300)
    factor = difficulty(CONTENT, 300)
    assert all(g.count <= ENDLESS.max_group_count for g in deep.groups)
    assert any(g.count == ENDLESS.max_group_count for g in deep.groups), "the ceiling holds"
    assert deep.groups[3].count == min(ENDLESS.max_group_count, -(-template.groups[3].count * factor // 1))
    joined = {a.group.enemy for a in ENDLESS.additions if a.from_wave <= 30}
    extra = [g.enemy for g in endless_wave(CONTENT, 30).groups[len(template.groups) :]]
    assert set(extra) == joined and len(extra) < len(ENDLESS.additions), "the mix widens wave by wave"
    assert wave_for(CONTENT, 7) == CONTENT.wave(7)
    with pytest.raises(KeyError):
        endless_wave(CONTENT, ENDLESS.max_wave + 1)


def test_r_end_3_each_endless_wave_s_world_is_that_much_harder() -> None:
    plain, harder = core_kinds(CONTENT), core_kinds(CONTENT, difficulty=1.5)
    assert [k["hp"] * 1.5 for k in plain] == pytest.approx([k["hp"] for k in harder])
    assert [k["contact_damage"] * 1.5 for k in plain] == pytest.approx([k["contact_damage"] for k in harder])
    run = Run(CONTENT, 3)
    run.state.endless = True
    run.waves = [WaveStats(wave=n) for n in range(1, 30)]
    flow = RunFlow.continued(run, 30)
    flow.open_shop()  # the settle before wave 30 builds its world
    assert run.sim.mode.difficulty == pytest.approx(difficulty(CONTENT, 30)) == run.state.difficulty


def test_r_end_3_an_endless_run_goes_on_past_the_last_wave() -> None:
    run = Run(CONTENT, 3)
    run.state.endless = True
    run.waves = [WaveStats(wave=n) for n in range(1, 25)]
    flow = RunFlow.continued(run, 25)
    flow.open_shop()
    wave = flow.leave_shop()
    assert wave.wave.wave == 25 and {g.enemy for g in wave.wave.groups} >= {"exploder"}
    wave.frames = 1
    flow.step()
    flow.end_wave()
    assert flow.ending is not Ending.CLEARED and flow.phase is Phase.CLEARED and flow.number == 26


def test_r_save_1_an_endless_run_saves_past_the_last_wave_and_a_plain_one_does_not() -> None:
    run = Run(CONTENT, 3)
    run.state.endless = True
    run.waves = [WaveStats(wave=n) for n in range(1, 33)]
    run.state.difficulty = difficulty(CONTENT, 33)
    save_run(run, 33)
    loaded = load_run(CONTENT)
    assert isinstance(loaded, LoadedRun) and loaded.next_wave == 33 and loaded.run.state.endless
    assert loaded.run.sim.mode.difficulty == pytest.approx(difficulty(CONTENT, 33))
    run.state.endless = False
    with pytest.raises(ValueError, match="past the last wave"):
        save_run(run, 33)


def test_r_end_3_check_content_checks_the_templates_and_the_additions(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(CONTENT.data_dir, data)
    balance = json.loads((data / "balance.json").read_text())
    balance["endless"]["templates"] = [20]
    balance["endless"]["additions"][0]["group"]["enemy"] = "gobbo"
    (data / "balance.json").write_text(json.dumps(balance))
    with pytest.raises(ContentError) as raised:
        load_content(data)
    text = str(raised.value)
    assert "$.endless.templates[0]" in text and "boss wave" in text
    assert "$.endless.additions[0].group.enemy" in text and "gobbo" in text
    balance["endless"]["templates"] = [99]
    (data / "balance.json").write_text(json.dumps(balance))
    with pytest.raises(ContentError, match=r"\$\.endless\.templates\[0\]: must be less than or equal to 20"):
        load_content(data)


def test_r_end_3_every_10_waves_a_mutator_holds_and_elite_flood_makes_every_enemy_elite() -> None:
    from artificer.game.endless import mutator

    every = ENDLESS.mutators.every
    assert [mutator(CONTENT, n) for n in (LAST, LAST + 1, LAST + every - 1)] == [None, None, None]
    cycle = ENDLESS.mutators.cycle
    assert [mutator(CONTENT, LAST + every * k) for k in range(1, 2 * len(cycle) + 1)] == [*cycle, *cycle]
    assert mutator(CONTENT, LAST + every + 5) == cycle[0], "it holds until the next one replaces it"
    flooded = endless_wave(CONTENT, LAST + every)
    assert mutator(CONTENT, LAST + every) is not None and mutator(CONTENT, LAST + every).id == "elite_flood"  # type: ignore[union-attr]
    assert all(group.elite for group in flooded.groups)
    before = endless_wave(CONTENT, LAST + every - 1)
    assert not all(group.elite for group in before.groups), "not before its wave"
