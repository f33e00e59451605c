"""The goldens: outputs of fresh processes, stored byte for byte under tests/golden/ (README.md).

    python tests/golden/goldens.py            # compare; exit 1 and name what differs
    python tests/golden/goldens.py --write    # regenerate (only on purpose: say why in the commit)

`test_goldens.py` runs the same comparison under pytest.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: The builds of data/builds.json, the hold control too (a test checks this list is all of them) and the runs.
BUILDS = ("spark", "shotgun", "nuke", "turret", "elemental", "chain", "steam", "hold")
SEEDS = (1, 2, 3)
WAVES = 5


@dataclass(frozen=True)
class Case:
    """One golden file and the command whose stdout it holds."""

    file: str
    argv: tuple[str, ...]


def _artificer(*args: str) -> tuple[str, ...]:
    return (sys.executable, "-m", "artificer", *args)


def cases() -> list[Case]:
    out = [Case("hashes.json", (sys.executable, str(HERE / "hashes.py")))]
    for seed in SEEDS:
        out.append(
            Case(
                f"headless/starter_s{seed}.json",
                _artificer("run", "--headless", "--json", "--seed", str(seed), "--waves", str(WAVES)),
            )
        )
        for build in BUILDS:
            argv = _artificer(
                "run", "--headless", "--json", "--seed", str(seed), "--waves", str(WAVES), "--build", build
            )
            out.append(Case(f"headless/{build}_s{seed}.json", argv))
    out.append(
        Case(
            "headless/turret_s1_w20.json",
            _artificer("run", "--headless", "--json", "--seed", "1", "--waves", "20", "--build", "turret"),
        )
    )
    # The run whose W19–20 is the game's heaviest step (issue 18): its crowds overlap enough that a
    # change in the separation's last bits shows in its late waves, where the others do not.
    out.append(
        Case(
            "headless/spark_s2_w20.json",
            _artificer("run", "--headless", "--json", "--seed", "2", "--waves", "20", "--build", "spark"),
        )
    )
    return out


def produce(case: Case) -> bytes:
    """The case's stdout from a fresh process (the dummy video driver; no user files touched)."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run(case.argv, capture_output=True, env=env, timeout=600, check=False)
    if done.returncode != 0:
        raise RuntimeError(
            f"{' '.join(case.argv)} exited {done.returncode}: {done.stderr.decode(errors='replace')[-2000:]}"
        )
    return done.stdout


def produce_all(selected: list[Case], workers: int = 2) -> Iterator[tuple[Case, bytes]]:
    with ThreadPoolExecutor(max_workers=workers) as pool:
        yield from zip(selected, pool.map(produce, selected))


def first_difference(expected: Any, actual: Any, path: str = "$") -> str | None:
    """The JSON path of the first value that differs, with both values; None when equal."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            if key not in actual or key not in expected:
                return f"{path}.{key}: {'missing' if key not in actual else 'new'}"
            found = first_difference(expected[key], actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        for i, (a, b) in enumerate(zip(expected, actual)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None if len(expected) == len(actual) else f"{path}: {len(expected)} items, now {len(actual)}"
    return None if expected == actual else f"{path}: {expected!r}, now {actual!r}"


def compare(case: Case, actual: bytes) -> str | None:
    """None when `actual` is the stored golden byte for byte, else what differs."""
    path = HERE / case.file
    if not path.exists():
        return f"{case.file}: no golden (run tests/golden/goldens.py --write)"
    expected = path.read_bytes()
    if expected == actual:
        return None
    try:
        where = first_difference(json.loads(expected), json.loads(actual))
    except ValueError:
        where = None
    return f"{case.file}: differs at {where or 'the bytes (same JSON values)'}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="regenerate every golden file")
    args = parser.parse_args()
    problems = []
    for case, actual in produce_all(cases()):
        if args.write:
            path = HERE / case.file
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(actual)
        elif (problem := compare(case, actual)) is not None:
            problems.append(problem)
    print("\n".join(problems) or ("written" if args.write else "all goldens match"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
