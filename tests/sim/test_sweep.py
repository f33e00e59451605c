"""`artificer sim` (R-SIM-1, R-BOSS-3): sweeps of bot runs over builds and seeds on two backends that
agree byte for byte, the report's balance verdicts, and one-line refusals of bad arguments."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from artificer.sim.sweep import (
    FINAL_WAVE,
    RayBackend,
    SweepError,
    SweepResult,
    Task,
    parse_builds,
    parse_seeds,
)
from artificer.sim.sweep_report import report_markdown, summarize, verdicts

SWEEP = ("--builds", "turret,spark", "--seeds", "1-2", "--waves", "2", "--no-plots", "--quiet")
COMPARED = ("runs.parquet", "waves.parquet", "summary.json", "report.md")


def artificer(*args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "artificer", *args], capture_output=True, text=True, timeout=timeout)


def sweep(out: Path, *args: str) -> dict[str, bytes]:
    done = artificer("sim", *SWEEP, "--out", str(out), *args)
    assert done.returncode == 0, done.stderr
    return {name: (out / name).read_bytes() for name in COMPARED}


@pytest.fixture(scope="module")
def local_two(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes]]:
    out = tmp_path_factory.mktemp("local2")
    return out, sweep(out, "--workers", "2")


def test_r_sim_1_a_sweep_writes_one_row_per_run_and_per_wave(local_two: tuple[Path, dict[str, bytes]]) -> None:
    pyarrow = pytest.importorskip("pyarrow.parquet")
    out, _ = local_two
    runs = pyarrow.read_table(out / "runs.parquet").to_pylist()
    waves = pyarrow.read_table(out / "waves.parquet").to_pylist()
    assert [(r["build"], r["seed"]) for r in runs] == [("spark", 1), ("spark", 2), ("turret", 1), ("turret", 2)]
    assert all(r["wave_reached"] == 2 and r["outcome"] == "survived" for r in runs)
    assert [(w["build"], w["seed"], w["wave"]) for w in waves][:2] == [("spark", 1, 1), ("spark", 1, 2)]
    assert len(waves) == 8 and all(w["kills"] > 0 and w["dps"] > 0 for w in waves)
    # The same rows the `run` command reports for that run.
    single = json.loads(
        artificer("run", "--headless", "--build", "turret", "--seed", "2", "--waves", "2", "--json").stdout
    )
    assert runs[3]["state_hash"] == single["result"]["state_hash"]
    assert [w["kills"] for w in waves[6:]] == [w["kills"] for w in single["waves"]]
    summary = json.loads((out / "summary.json").read_text())
    assert [s["build"] for s in summary["archetypes"]] == ["turret", "spark"], "the order the builds were asked in"
    assert (out / "timing.json").exists() and "| turret | 2 |" in (out / "report.md").read_text()


def test_r_sim_1_timing_says_where_the_sweeps_time_went(local_two: tuple[Path, dict[str, bytes]]) -> None:
    """`timing.json` (the one output that varies) splits the wall time by build, for a designer
    asking which archetype's runs make a sweep long: each build's runs, total, median and longest."""
    out, _ = local_two
    timing = json.loads((out / "timing.json").read_text())
    assert {"backend", "workers", "tasks", "wall_s"} <= timing.keys(), "the keys scripts read stay"
    by_build = timing["by_build"]
    assert list(by_build) == ["turret", "spark"], "the order the builds were asked in"
    for spent in by_build.values():
        assert spent["runs"] == 2
        assert 0 < spent["median_s"] <= spent["max_s"] <= spent["total_s"]
    # Two workers run at most two runs at a time: the runs' seconds fit in twice the wall time.
    assert sum(s["total_s"] for s in by_build.values()) <= 2 * timing["wall_s"]


def test_r_sim_1_the_same_sweep_on_one_worker_writes_the_same_bytes(
    local_two: tuple[Path, dict[str, bytes]], tmp_path: Path
) -> None:
    _, two = local_two
    assert sweep(tmp_path, "--workers", "1") == two


def test_r_sim_1_ray_and_local_agree_byte_for_byte(local_two: tuple[Path, dict[str, bytes]], tmp_path: Path) -> None:
    pytest.importorskip("ray")
    _, local = local_two
    assert sweep(tmp_path, "--backend", "ray", "--workers", "2") == local


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--seeds", "5-1"), "runs backwards"),
        (("--seeds", "x"), "is not a seed"),
        (("--builds", "turet"), "unknown build 'turet'"),
        (("--backend", "dask"), "--backend must be one of local, ray"),
        (("--address", "1.2.3.4:6379"), "--address is for --backend ray"),
        (("--waves", "21"), "--waves must be in 1..20"),
        (("--workers", "0"), "--workers must be in 1..4096"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(args: tuple[str, ...], says: str, tmp_path: Path) -> None:
    done = artificer("sim", "--builds", "turret", "--seeds", "1", "--out", str(tmp_path / "o"), *args)
    assert done.returncode == 2
    assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (tmp_path / "o").exists()


def test_a_missing_ray_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(SweepError, match=r"Ray is not installed; pip install 'arcane-artificer\[cluster\]'"):
        RayBackend(2)


def test_seed_and_build_lists() -> None:
    assert parse_seeds("1-3,10, 2") == [1, 2, 3, 10]
    with pytest.raises(SweepError, match="more than 5 seeds"):
        parse_seeds("1-6", most=5)
    assert parse_builds("all", ["a", "b"]) == ["a", "b"]
    assert parse_builds("b, a,b", ["a", "b"]) == ["b", "a"]
    # R-CURVE-1: a control (the hold bot) is swept only when named, after the archetypes of `all`.
    assert parse_builds("all", ["a", "hold", "b"], controls=["hold"]) == ["a", "b"]
    assert parse_builds("all,hold", ["a", "hold", "b"], controls=["hold"]) == ["a", "b", "hold"]


def _result(rows: list[tuple[str, int, bool, float | None]]) -> SweepResult:
    """A sweep's rows made up: (build, wave reached, W20 cleared, W20 boss TTK)."""
    runs, waves, tasks = [], [], []
    for seed, (build, reached, cleared, ttk) in enumerate(rows):
        tasks.append(Task(build, seed))
        runs.append(
            {
                "build": build,
                "seed": seed,
                "waves_asked": FINAL_WAVE,
                "wave_reached": reached,
                "cleared_w20": cleared,
                "w20_boss_ttk_s": ttk,
                "out_of_mana_share": 0.1,
            }
        )
        for w in range(1, reached + 1):
            waves.append(
                {
                    "build": build,
                    "seed": seed,
                    "wave": w,
                    "dps": 10.0 * w,
                    "max_alive": 100 * w,
                    "taken_by_source": {"grunt": 1.0, "projectile": 3.0},
                }
            )
    return SweepResult(tasks, runs, waves, list(dict.fromkeys(r[0] for r in rows)))


def test_r_boss_3_and_the_balance_bounds_are_flagged() -> None:
    result = _result(
        [("fast", 20, True, 10.0)] * 10  # clears every seed, and kills the boss far under the median
        + [("mid", 20, True, 60.0)] * 5
        + [("mid", 12, False, None)] * 5
        + [("slow", 20, True, 90.0)] * 3
        + [("slow", 8, False, None)] * 7
        + [("weak", 9, False, None)] * 10
    )
    summary = {s["build"]: s for s in summarize(result)}
    assert summary["mid"]["w20_clear_rate"] == 0.5 and summary["mid"]["w20_boss_ttk_p50_s"] == 60.0
    assert summary["weak"]["median_wave_reached"] == 9 and summary["weak"]["w20_boss_ttk_p50_s"] is None
    assert summary["fast"]["damage_taken_by_source"] == {"projectile": 0.75, "grunt": 0.25}
    flags = verdicts(list(summary.values()))
    assert any("dominant" in f for f in flags["fast"])
    assert any("R-BOSS-3" in f and "under 1/3" in f for f in flags["fast"])  # 10 s against a median of 60 s
    assert flags["mid"] == [] and flags["slow"] == []
    assert any("hopeless" in f for f in flags["weak"])
    report = report_markdown(result, list(summary.values()), flags, [])
    assert "| fast | 50.0 | 100.0 | 150.0 | 200.0 | projectile 75%, grunt 25% |" in report, report
    assert "| weak | 50.0 | — | — | — | projectile 75%, grunt 25% |" in report
    assert "R-BOSS-3" in report and "dominant" in report and "hopeless" in report
