"""benches/alternate.py, the before/after timer the benches' README quotes (issue 18: "compare
interleaved in one run, medians of alternating repetitions"): it reads each command's median,
rotates the order from pair to pair, reports the median of the pairs' own ratios, checks the state
hashes agree, and fails with one line, not a traceback, when a command gives it no usable figure."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
import alternate  # noqa: E402

PYTHON = shlex.quote(sys.executable)


def fake(
    tmp_path: Path, label: str, figures: list[float], state_hash: str | None = "9328ea1ef143a0f2", mean: float = 9.0
) -> str:
    """A command line that prints what examples/probe prints, with the next of `figures` as its
    median each time it runs (and `mean` as its mean), and notes `label` in `tmp_path / "order"`."""
    counter = tmp_path / f"runs_{label}"
    tail = f", state hash at frame 210 {state_hash}" if state_hash is not None else ""
    code = (
        f"import pathlib; c = pathlib.Path({str(counter)!r}); n = int(c.read_text()) if c.exists() else 0; "
        f"c.write_text(str(n + 1)); open({str(tmp_path / 'order')!r}, 'a').write({label!r}); "
        f"print('10000/20000 Crowd 4000² 1t: median %.3f ms (37.9 ns/entity), mean {mean:.3f} ms, "
        f"p10 0.5, p90 1.5, hits/frame 7936{tail}' "
        f"% {figures!r}[n % {len(figures)}])"
    )
    return f"{PYTHON} -c {shlex.quote(code)}"


def test_the_ratio_is_the_median_of_the_pairs_not_of_the_medians(tmp_path: Path) -> None:
    # A runs 1, 2, 4 and B 1, 1, 4: the pairs' ratios are 1, 0.5, 1 (median 1), while the
    # medians alone (2 and 1) would say 0.5.
    report = alternate.alternate(fake(tmp_path, "A", [1, 2, 4]), fake(tmp_path, "B", [1, 1, 4]), pairs=3)
    assert report["a_ms"] == [1.0, 2.0, 4.0]
    assert report["b_ms"] == [1.0, 1.0, 4.0]
    assert (report["a_median_ms"], report["b_median_ms"]) == (2.0, 1.0)
    assert report["b_over_a"] == 1.0
    assert report["same_state_hash"] is True


def test_with_stat_mean_it_compares_the_means_not_the_medians(tmp_path: Path) -> None:
    # The medians are equal; the means (a cost paid one frame in many) are not.
    report = alternate.alternate(
        fake(tmp_path, "A", [1.0], mean=2.0), fake(tmp_path, "B", [1.0], mean=3.0), pairs=2, stat="mean"
    )
    assert (report["a_ms"], report["b_ms"], report["b_over_a"], report["stat"]) == ([2.0, 2.0], [3.0, 3.0], 1.5, "mean")
    assert alternate.alternate(fake(tmp_path, "C", [1.0]), fake(tmp_path, "D", [1.0]), pairs=1)["b_over_a"] == 1.0


def test_a_changed_hash_is_reported_and_a_missing_one_is_unknown(tmp_path: Path) -> None:
    changed = fake(tmp_path, "B", [1], "4f603d1838f601df")
    assert alternate.alternate(fake(tmp_path, "A", [1]), changed, pairs=1)["same_state_hash"] is False
    missing = fake(tmp_path, "C", [1], None)
    assert alternate.alternate(fake(tmp_path, "A", [1]), missing, pairs=1)["same_state_hash"] is None


def test_the_order_rotates_from_pair_to_pair(tmp_path: Path) -> None:
    alternate.alternate(fake(tmp_path, "A", [1]), fake(tmp_path, "B", [1]), pairs=4)
    assert (tmp_path / "order").read_text() == "ABBAABBA"


@pytest.mark.parametrize(
    ("command", "says"),
    [
        (f"{PYTHON} -c 'print(1)'", "printed no 'median X ms'"),
        (f"{PYTHON} -c 'print(\"median 0.000 ms\")'", "too short to compare"),
        (f"{PYTHON} -c 'raise SystemExit(3)'", "exited with 3"),
        (f"{PYTHON} -c 'import time; time.sleep(30)'", "timeout"),
        ("/nonexistent/probe 10000", "No such file"),
        ("probe 'unbalanced", "No closing quotation"),
        ("   ", "an empty command"),
    ],
)
def test_a_command_without_a_usable_figure_fails_in_one_line(
    tmp_path: Path, command: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--pairs", "1", "--timeout", "2", "--a", command, "--b", fake(tmp_path, "B", [1])]
    assert alternate.main(argv) == 1
    err = capsys.readouterr().err
    assert says in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_the_table_and_the_json_name_the_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = fake(tmp_path, "A", [1.0]), fake(tmp_path, "B", [0.8])
    assert alternate.main(["--pairs", "2", "--a", a, "--b", b]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "pair 1: A 1.000 ms  B 0.800 ms  B/A 0.800"
    assert out[-1] == "median A 1.000 ms  B 0.800 ms  B/A (median of the pairs) 0.800  state hash: same in every run"
    assert alternate.main(["--pairs", "2", "--json", "--a", a, "--b", b]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["b_over_a"] == 0.8
    assert report["pairs"] == 2
    assert set(report) == {
        "a",
        "b",
        "pairs",
        "stat",
        "a_ms",
        "b_ms",
        "a_median_ms",
        "b_median_ms",
        "b_over_a",
        "same_state_hash",
    }
