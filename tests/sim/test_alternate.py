"""benches/alternate.py, the before/after timer the benches' README quotes (issue 18: "compare
interleaved in one run, medians of alternating repetitions"): it reads each command's median,
rotates the order within pairs, reports the pairs' own ratio, checks the state hashes agree, and
fails with one line, not a traceback, when a command does not give it a figure."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
import alternate  # noqa: E402


def fake(ms: float, state_hash: str | None = "9328ea1ef143a0f2", log: Path | None = None, label: str = "") -> str:
    """A command line that prints what examples/probe prints (and notes that it ran in `log`)."""
    line = f"10000/20000 Crowd 4000² 1t: median {ms} ms (37.9 ns/entity), hits/frame 7936"
    if state_hash is not None:
        line += f", state hash at frame 210 {state_hash}"
    code = f"print({line!r})"
    if log is not None:
        code = f"open({str(log)!r}, 'a').write({label!r}); " + code
    return f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}"


def test_the_ratio_is_the_median_of_the_pairs_and_the_hashes_are_compared() -> None:
    report = alternate.alternate(fake(2.0), fake(1.0), pairs=3)
    assert report["a_median_ms"] == 2.0
    assert report["b_median_ms"] == 1.0
    assert report["b_over_a"] == 0.5
    assert report["same_state_hash"] is True
    assert report["a_ms"] == [2.0, 2.0, 2.0]


def test_a_changed_hash_is_reported_and_a_missing_one_is_unknown() -> None:
    assert alternate.alternate(fake(1.0), fake(1.0, "4f603d1838f601df"), pairs=1)["same_state_hash"] is False
    assert alternate.alternate(fake(1.0), fake(1.0, None), pairs=1)["same_state_hash"] is None


def test_the_order_rotates_within_pairs(tmp_path: Path) -> None:
    log = tmp_path / "order"
    alternate.alternate(fake(1.0, log=log, label="A"), fake(1.0, log=log, label="B"), pairs=4)
    assert log.read_text() == "ABBAABBA"


@pytest.mark.parametrize(
    ("command", "says"),
    [
        (f"{shlex.quote(sys.executable)} -c 'print(1)'", "printed no 'median X ms'"),
        (f"{shlex.quote(sys.executable)} -c 'raise SystemExit(3)'", "exited with 3"),
        ("/nonexistent/probe 10000", "No such file"),
    ],
)
def test_a_command_without_a_figure_fails_in_one_line(
    command: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert alternate.main(["--pairs", "1", "--a", command, "--b", fake(1.0)]) == 1
    err = capsys.readouterr().err
    assert says in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_the_table_names_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert alternate.main(["--pairs", "2", "--a", fake(1.0), "--b", fake(0.8)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("pair 1: A 1.000 ms  B 0.800 ms")
    assert out[-1] == "median A 1.000 ms  B 0.800 ms  B/A (median of the pairs) 0.800  state hash: same in every run"
