"""Two commands timed alternately: before/after figures on a noisy machine.

This VM drifts ±15–20% over minutes, so two builds timed one after the other
are timed on two different machines. This runs them in pairs instead, and
reports each pair's ratio:

    .venv/bin/python benches/alternate.py --pairs 5 \\
        --a "/tmp/base/probe 10000 20000 5 1" \\
        --b "target/release/examples/probe 10000 20000 5 1"

    # one build, one thread against two
    .venv/bin/python benches/alternate.py --pairs 7 \\
        --a "target/release/examples/probe 10000 20000 5 1" \\
        --b "target/release/examples/probe 10000 20000 5 2"

Each command must print ``median X ms`` (``examples/probe`` does), above
zero; with ``--stat mean``, ``mean X ms`` instead (the probe prints both: its
median is the typical frame, its mean the throughput, which counts a cost paid
one frame in many, such as the pools' reorder every 16 frames). The order rotates from pair to pair (A B, B A, A B, ...), so neither
side is always the one that runs on a machine the other has just warmed. The figures are
the medians of A's and of B's runs, and the median of the pairs' own ratios
B/A (below 1: B is faster). When both commands print a ``state hash`` (the
probe does, at frame 210), the report says whether every run printed the
same one: a speed change that is meant to be bit-identical is checked in the
same runs that time it. ``--json`` prints one object instead of the table.
Exit status 1, with one line on stderr, when a command fails, runs past
``--timeout`` or prints no median.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import statistics
import subprocess
import sys
from dataclasses import dataclass

#: The per-run figure each `--stat` reads from a command's output.
FIGURES = {stat: re.compile(rf"\b{stat} ([0-9]+(?:\.[0-9]+)?) ms") for stat in ("median", "mean")}
HASH = re.compile(r"state hash(?: at frame [0-9]+)?:? ([0-9a-f]{8,})")


DESCRIPTION = "Two commands timed alternately: before/after figures on a noisy machine."


class CommandFailed(Exception):
    """A command could not run, exited non-zero, ran too long or printed no usable median."""


@dataclass(frozen=True)
class Run:
    ms: float
    state_hash: str | None


def run_once(command: str, timeout: float | None = None, stat: str = "median") -> Run:
    """Runs `command` (split like a shell line, not through a shell) and reads its `stat` figure."""
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise CommandFailed(f"{command!r}: {e}") from None
    if not argv:
        raise CommandFailed("an empty command")
    try:
        done = subprocess.run(argv, capture_output=True, text=True, check=False, timeout=timeout)
    except OSError as e:
        raise CommandFailed(f"{command!r}: {e.strerror or e}") from None
    except subprocess.TimeoutExpired:
        raise CommandFailed(f"{command!r} ran past the {timeout:g} s timeout") from None
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-1:] or ["(no output on stderr)"]
        raise CommandFailed(f"{command!r} exited with {done.returncode}: {tail[0]}")
    found = FIGURES[stat].search(done.stdout)
    if found is None:
        raise CommandFailed(f"{command!r} printed no '{stat} X ms'")
    ms = float(found.group(1))
    if ms <= 0.0:
        raise CommandFailed(f"{command!r} printed a {stat} of {found.group(1)} ms: too short to compare")
    hashed = HASH.search(done.stdout)
    return Run(ms, hashed.group(1) if hashed else None)


def alternate(
    a: str, b: str, pairs: int, echo: bool = False, timeout: float | None = None, stat: str = "median"
) -> dict[str, object]:
    """`pairs` pairs of runs of `a` and `b`, the order rotating, each run's `stat` figure read;
    the report as a dict (`a_median_ms`, `b_median_ms`: the median over the runs of that figure)."""
    runs_a: list[Run] = []
    runs_b: list[Run] = []
    for i in range(pairs):
        if i % 2 == 0:
            ra, rb = run_once(a, timeout, stat), run_once(b, timeout, stat)
        else:
            rb, ra = run_once(b, timeout, stat), run_once(a, timeout, stat)
        runs_a.append(ra)
        runs_b.append(rb)
        if echo:
            print(f"pair {i + 1}: A {ra.ms:.3f} ms  B {rb.ms:.3f} ms  B/A {rb.ms / ra.ms:.3f}", flush=True)
    hashes = {r.state_hash for r in runs_a + runs_b}
    return {
        "a": a,
        "b": b,
        "pairs": pairs,
        "stat": stat,
        "a_ms": [r.ms for r in runs_a],
        "b_ms": [r.ms for r in runs_b],
        "a_median_ms": round(statistics.median(r.ms for r in runs_a), 4),
        "b_median_ms": round(statistics.median(r.ms for r in runs_b), 4),
        "b_over_a": round(statistics.median(rb.ms / ra.ms for ra, rb in zip(runs_a, runs_b, strict=True)), 4),
        # None when a command printed no hash; otherwise whether all runs agree.
        "same_state_hash": None if None in hashes else len(hashes) == 1,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=DESCRIPTION)
    parser.add_argument("--a", required=True, help="the first command (e.g. the build before)")
    parser.add_argument("--b", required=True, help="the second command (e.g. the build after)")
    parser.add_argument("--pairs", type=int, default=5, help="pairs of runs (default 5)")
    parser.add_argument("--timeout", type=float, default=None, help="seconds a run may take (default: no limit)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument(
        "--stat",
        choices=sorted(FIGURES),
        default="median",
        help="which figure of each run to compare: 'median X ms' (default) or 'mean X ms'",
    )
    args = parser.parse_args(argv)
    if args.pairs < 1:
        parser.error("--pairs must be at least 1")
    if args.timeout is not None and args.timeout <= 0:
        parser.error("--timeout must be above 0")
    try:
        report = alternate(args.a, args.b, args.pairs, echo=not args.json, timeout=args.timeout, stat=args.stat)
    except CommandFailed as e:
        print(f"alternate.py: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report))
    else:
        agree = report["same_state_hash"]
        same = "no hash printed" if agree is None else "same in every run" if agree else "DIFFERS"
        print(
            f"{'' if args.stat == 'median' else 'of the means: '}"
            f"median A {report['a_median_ms']:.3f} ms  B {report['b_median_ms']:.3f} ms  "
            f"B/A (median of the pairs) {report['b_over_a']:.3f}  state hash: {same}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
