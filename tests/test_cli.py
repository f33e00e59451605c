"""The `artificer` command's public contracts: the headless run and stress
JSON (keys only ever added), deterministic output (R-DET-1), and one-line
usage errors with exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ARTIFICER = [sys.executable, "-m", "artificer"]


def artificer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ARTIFICER, *args], capture_output=True, text=True, timeout=300)


def test_version() -> None:
    out = artificer("--version")
    assert out.returncode == 0 and out.stdout.startswith("artificer ")


def test_headless_run_completes_three_waves_identically_twice() -> None:
    """R-SIM-1 + R-DET-1: the bot fights waves 1-3; same seed, same bytes."""
    first = artificer("run", "--headless", "--seed", "42", "--waves", "3", "--json")
    second = artificer("run", "--headless", "--seed", "42", "--waves", "3", "--json")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    report = json.loads(first.stdout)
    assert report["seed"] == 42
    assert [w["wave"] for w in report["waves"]] == [1, 2, 3]
    for wave in report["waves"]:
        assert set(wave) >= {"wave", "kills", "damage_dealt", "damage_taken", "max_alive", "currency", "frames"}
        assert wave["kills"] > 0 and wave["damage_dealt"] > 0 and wave["max_alive"] > 0
        assert wave["currency"] >= wave["kills"]  # every kill drops at least 1 gold, all collected
    assert report["result"]["outcome"] in {"died", "survived"}
    assert report["result"]["wave_reached"] == 3 or report["result"]["outcome"] == "died"
    assert len(report["result"]["state_hash"]) == 16


def test_another_seed_plays_another_run() -> None:
    a = json.loads(artificer("run", "--headless", "--seed", "1", "--waves", "1", "--json").stdout)
    b = json.loads(artificer("run", "--headless", "--seed", "2", "--waves", "1", "--json").stdout)
    assert a["result"]["state_hash"] != b["result"]["state_hash"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "--headless", "--seed", "abc"], "--seed must be an integer"),
        (["run", "--headless", "--seed", "1.5"], "--seed must be an integer"),
        (["run", "--headless", "--waves", "-2"], "--waves must be in 1..1000"),
        (["run", "--headless", "--waves", "21"], "--waves must be in 1..20; past it: --endless"),
        (["run", "--headless", "--endless", "--waves", "1001"], "--waves must be in 1..1000"),
        (["stress", "--enemies", "-5", "--projectiles", "10"], "--enemies must be in 0.."),
        (["stress", "--enemies", "ten", "--projectiles", "10"], "--enemies must be an integer"),
        (["stress", "--enemies", "10", "--projectiles", "10", "--frames", "0"], "--frames must be in 1.."),
        (["stress", "--enemies", "10", "--projectiles", "10", "--layout", "spiral"], "invalid choice"),
        (["run", "--headless", "--start-wave", "0"], "--start-wave must be in 1..20"),
        (["run", "--headless", "--start-wave", "5", "--waves", "3"], "--waves 3 is before --start-wave 5"),
        (["play", "--start-wave", "0"], "--start-wave must be in 1..20"),
        (["play", "--start-wave", "21"], "--start-wave must be in 1..20"),
        (["play", "--start-wave", "five"], "--start-wave must be an integer"),
        (["play", "--build", "turret"], "--build needs --start-wave"),
        (["play", "--seed", "3"], "--seed needs --start-wave"),
        (["play", "--start-wave", "2", "--build", "turet"], "unknown build 'turet'"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(args: list[str], message: str) -> None:
    out = artificer(*args)
    assert out.returncode == 2
    assert message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_stress_json_contract() -> None:
    out = artificer("stress", "--enemies", "500", "--projectiles", "1000", "--frames", "20", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert set(report) >= {"enemies", "projectiles", "layout", "frames", "step_ms", "hits_per_frame"}
    assert set(report["step_ms"]) >= {"median", "p90", "p99"}
    assert (report["enemies"], report["projectiles"], report["layout"]) == (500, 1000, "crowd")
    assert report["hits_per_frame"] > 100  # a crowd: most projectiles are inside it


def test_play_opens_the_window_and_runs_frames() -> None:
    """`artificer play` opens the game (title screen) — here under the dummy video driver."""
    import os

    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    out = subprocess.run([*ARTIFICER, "play", "--frames", "30"], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr


def test_play_start_wave_parses_its_wave_build_and_seed() -> None:
    from artificer.__main__ import build_parser

    args = build_parser().parse_args(["play", "--start-wave", "5", "--build", "turret", "--seed", "7"])
    assert (args.command, args.start_wave, args.build, args.seed) == ("play", 5, "turret", 7)
    bare = build_parser().parse_args(["play"])
    assert (bare.start_wave, bare.build, bare.seed) == (None, None, None)


def test_play_start_wave_opens_the_shop_before_that_wave(tmp_path: Path) -> None:
    """`play --start-wave 3 --build turret`: the bot plays waves 1-2 headlessly, then the window
    opens at the shop before wave 3, which saves the run (under a private ARTIFICER_HOME here)."""
    import os

    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "ARTIFICER_HOME": str(tmp_path)}
    args = ["play", "--start-wave", "3", "--build", "turret", "--seed", "1", "--frames", "10"]
    out = subprocess.run([*ARTIFICER, *args], capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    assert "seed 1, build turret: the bot played waves 1..2" in out.stderr and "opening before wave 3" in out.stderr
    saved = json.loads(next(tmp_path.rglob("run.json")).read_text(encoding="utf-8"))
    assert saved["next_wave"] == 3 and [w["wave"] for w in saved["waves"]] == [1, 2]


def test_stress_render_adds_render_and_frame_times() -> None:
    """The stress JSON gains render_ms and frame_ms with --render (keys only added)."""
    env_args = ("stress", "--enemies", "200", "--projectiles", "400", "--frames", "5", "--render", "--json")
    out = subprocess.run(
        [sys.executable, "-m", "artificer", *env_args],
        capture_output=True, text=True, timeout=120, env={**__import__("os").environ, "SDL_VIDEODRIVER": "dummy"},
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)  # stdout is the one JSON object, nothing else
    for key in ("step_ms", "render_ms", "frame_ms"):
        assert set(report[key]) >= {"median", "p90", "p99"}
    assert report["frame_ms"]["median"] >= report["render_ms"]["median"]
    assert report["sprites_drawn_last_frame"] > 100
