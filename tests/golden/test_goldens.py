"""R-DET-1 across processes: fresh processes reproduce the stored goldens byte for byte.

The state hashes after fixed frames (a run's wave 1, the stress workload on 1 and 2 threads),
`run --headless --json` of every builds.json archetype on three seeds over five waves (and
the starter wand), and one full 20-wave run. A refactor keeps them; a change of behaviour
updates them on purpose (`python tests/golden/goldens.py --write`, the reason in the commit).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import goldens  # noqa: E402

pytest.importorskip("artificer._core")


def test_the_goldens_cover_every_archetype_of_builds_json() -> None:
    data = json.loads((Path(goldens.__file__).parents[2] / "data" / "builds.json").read_text(encoding="utf-8"))
    assert sorted(build["id"] for build in data["builds"]) == sorted(goldens.BUILDS)


def test_fresh_processes_reproduce_every_golden_byte_for_byte() -> None:
    problems = [p for case, out in goldens.produce_all(goldens.cases()) if (p := goldens.compare(case, out))]
    assert not problems, "\n".join(problems)
