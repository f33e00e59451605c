"""`sim.headless.run_until` (for `artificer play --start-wave N`): the run the bot leaves before
wave N is the run `run --headless --waves N` starts wave N with (the same code path: waves
played, settled and shopped after each), and a bot that dies on the way says so."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from artificer.content import load_content
from artificer.content.builds import load_builds
from artificer.content.loader import DEFAULT_DATA_DIR
from artificer.sim.bot import KitingBot, drink_when_hurt
from artificer.sim.headless import BotFell, run_headless, run_until

CONTENT = load_content()


@pytest.mark.parametrize("build_id", [None, "turret"])
def test_the_run_before_wave_n_plays_wave_n_as_the_headless_run_does(build_id: str | None) -> None:
    build = load_builds(CONTENT)[build_id] if build_id is not None else None
    played = run_until(CONTENT, 3, 4, build)
    run = played.run
    assert [stats.wave for stats in run.waves] == [1, 2, 3]
    whole = run_headless(CONTENT, 3, 4, build)
    assert played.reports == whole["waves"][:3]  # the shop after wave 3 included

    bot = KitingBot()
    wave = run.start_wave(4)
    while not wave.over:
        bot.control(run.sim)
        drink_when_hurt(run, wave)
        wave.step()
    finished = wave.finish().as_json()
    # The headless report adds the wand, HP and gold it began with and ended with (R-CURVE-1/2/3).
    assert finished == {key: value for key, value in whole["waves"][3].items() if key in finished}
    assert f"{run.sim.state_hash():016x}" == whole["result"]["state_hash"]


def test_wave_1_needs_no_play() -> None:
    played = run_until(CONTENT, 5, 1, load_builds(CONTENT)["nuke"])
    assert played.reports == [] and played.run.waves == [] and played.run.currency == 0
    assert "nuke" in played.run.shop.unlocked  # the build's unlocks are open, as in run --build


def test_a_bot_that_dies_before_the_wave_says_where(tmp_path: Path) -> None:
    """Grunts faster than the player, too tough to kill, that kill at a touch: the bot falls in
    wave 1 or 2."""
    shutil.copytree(DEFAULT_DATA_DIR, tmp_path, dirs_exist_ok=True)
    path = tmp_path / "enemies.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    grunt = next(enemy for enemy in document["enemies"] if enemy["id"] == "grunt")
    grunt.update(speed=3 * CONTENT.balance.player.move_speed, contact_damage=10_000, hp=100_000)
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(BotFell, match=r"the bot fell in wave [12] on seed 1 \(no build\) before reaching wave 3"):
        run_until(load_content(tmp_path), 1, 3)


def test_a_fresh_run_begun_later_plays_several_waves_and_settles_between_them() -> None:
    """A run begun at wave 3 (a practice run, R-END-5) settles between its waves as any run does:
    until 2026-12-02 its save's wave numbering refused it and `run --start-wave 3 --waves 5` crashed."""
    from artificer.content import load_content
    from artificer.sim.headless import run_headless

    report = run_headless(load_content(), 1, 5, start_wave=3)
    assert [wave["wave"] for wave in report["waves"]] == [3, 4, 5]
