"""R-SAVE-1: a wave's saved numbers are `dataclasses.asdict`'s, key for key and in order, and read
back to the same numbers — `WaveStats.to_save` builds them without asdict's deep copies (issue 44:
the run settles twice a wave and saves every wave so far each time). Checked on the waves of real
runs, a boss wave's fight among them, and on a boss rush's fights."""

from __future__ import annotations

from dataclasses import asdict

from artificer.content import load_content
from artificer.content.builds import load_builds
from artificer.game.bosses import BossFight
from artificer.game.stats import WaveStats
from artificer.sim.headless import play_waves

CONTENT = load_content()


def test_saved_waves_are_asdicts_and_read_back_the_same() -> None:
    run = play_waves(CONTENT, 2, 8, load_builds(CONTENT)["turret"]).run
    assert any(stats.boss is not None for stats in run.waves), "a boss wave among them"
    for stats in run.waves:
        saved = stats.to_save()
        assert saved == asdict(stats) and list(saved) == list(asdict(stats))
        back = WaveStats.from_save(saved)
        assert back == stats and back is not stats
        saved["relics"].append("x")  # the save's lists are its own
        assert "x" not in stats.relics


def test_a_rush_of_fights_saves_and_reads_back() -> None:
    stats = WaveStats(wave=25, damage_taken_by_source={"grunt": 3.5, "projectile": 1.0}, relics=["anchor"])
    stats.boss = BossFight("armor_lord", 41.5, [1, 2], enraged=True)
    stats.rush = [BossFight("brood_mother", 30.0, [1]), stats.boss]
    saved = stats.to_save()
    assert saved == asdict(stats) and list(saved["boss"]) == list(asdict(stats)["boss"])
    back = WaveStats.from_save(saved)
    assert back == stats
    back.boss.phases.append(3)  # type: ignore[union-attr]
    assert stats.boss.phases == [1, 2]
