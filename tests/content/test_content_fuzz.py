"""§ DESIGN errors, issue 13: **whatever check-content accepts runs to its end within bounded
frames and memory** — a property test.

Each example takes the shipped data, changes one to three numbers of it (any numeric leaf of any
content file, found by walking the files) to a value drawn within its range (the JSON Schema's
minimum / maximum), at its edges, just across them, or far across (1e30, 2^63, -1…), writes the
data directory to a temporary folder and loads it:

- refused: every problem is clean — a content file, a JSON path, a reason (no traceback, no
  exception but `ContentError`);
- accepted: the bot plays one wave of it on a fresh run (`play_waves(start_wave=N)`, as
  `artificer run --headless --start-wave N`): the mutated wave when the mutation is in waves.json,
  else a short one. The wave must end within `duration × tick_hz` frames (at most
  MAX_WAVE_FRAMES), spawn at most its bound of enemies, and report finite numbers; then the
  starting wand fires in the sandbox (`artificer wand`) with finite numbers.

`make test` runs a fixed set of 40 examples (about 15 s); `make fuzz` runs many more, random
ones (`ARTIFICER_FUZZ_EXAMPLES`, default there 1000), and the edge sweep: every number of every
file but looks.json, alone at its minimum and at its maximum (about 15 minutes)."""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from artificer.content import CONTENT_FILES, ContentError, load_content
from artificer.content.cores import CoreCatalog
from artificer.content.loader import DEFAULT_DATA_DIR, wave_frames
from artificer.content.looks import Looks
from artificer.content.models import MAX_WAVE_FRAMES, MAX_WAVE_SPAWNS, Balance, EnemyRoster, WaveSchedule
from artificer.content.potions import PotionBook
from artificer.content.recipes import RecipeBook
from artificer.content.relics import RelicBook
from artificer.content.spells import SpellCatalog
from artificer.sim.headless import play_waves
from artificer.sim.wand import fire_wand

MODELS: dict[str, type[BaseModel]] = {
    "balance.json": Balance,
    "enemies.json": EnemyRoster,
    "waves.json": WaveSchedule,
    "spells.json": SpellCatalog,
    "cores.json": CoreCatalog,
    "resonance_recipes.json": RecipeBook,
    "relics.json": RelicBook,
    "potions.json": PotionBook,
    "looks.json": Looks,
}
SHIPPED = {name: json.loads((DEFAULT_DATA_DIR / name).read_text(encoding="utf-8")) for name in MODELS}
EXAMPLES = int(os.environ.get("ARTIFICER_FUZZ_EXAMPLES", "40"))
# `make test`: the same examples every run; `make fuzz`: new ones each time.
QUICK = "ARTIFICER_FUZZ_EXAMPLES" not in os.environ

Path_ = tuple[str | int, ...]


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """`node` with $refs followed and `X | None` read as X."""
    while True:
        if "$ref" in node:
            node = schema["$defs"][node["$ref"].rsplit("/", 1)[-1]]
        elif "anyOf" in node:
            options = [option for option in node["anyOf"] if option.get("type") != "null"]
            node = options[0]
        else:
            return node


def _schema_at(schema: dict[str, Any], path: Path_) -> dict[str, Any]:
    node = _resolve(schema, schema)
    for key in path:
        if isinstance(key, int):
            if "prefixItems" in node:
                node = node["prefixItems"][key]
            else:
                node = node["items"]
        elif key in node.get("properties", {}):
            node = node["properties"][key]
        elif "patternProperties" in node:
            node = next(iter(node["patternProperties"].values()))
        else:
            node = node["additionalProperties"]
        node = _resolve(schema, node)
    return node


def _numbers(document: Any, path: Path_ = ()) -> Iterator[Path_]:
    if isinstance(document, dict):
        for key, value in document.items():
            yield from _numbers(value, (*path, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            yield from _numbers(value, (*path, index))
    elif isinstance(document, (int, float)) and not isinstance(document, bool):
        yield path


# (file, JSON path, the leaf's schema) of every number in the shipped data.
LEAVES: list[tuple[str, Path_, dict[str, Any]]] = [
    (name, path, _schema_at(MODELS[name].model_json_schema(), path))
    for name, document in SHIPPED.items()
    for path in _numbers(document)
]
FAR = [-1, 0, 1e-30, 1e-9, 1e12, 1e30, 1e300, 2**31, 2**32, 2**62, 2**63, 10**12]


@st.composite
def _value(draw: st.DrawFn, leaf: dict[str, Any], shipped: float) -> float | int:
    """A value for `leaf`: in range, at or just across an edge, or far out of it."""
    integer = leaf.get("type") == "integer"
    low = leaf.get("minimum", leaf.get("exclusiveMinimum"))
    high = leaf.get("maximum", leaf.get("exclusiveMaximum"))
    across: list[st.SearchStrategy[Any]] = [st.sampled_from(FAR)]
    edges: list[float] = []
    if low is not None:
        edges += [low, low - 1 if integer else low - 1e-6, low + (1 if integer else 1e-6)]
    if high is not None:
        edges += [high, high + 1 if integer else high * 1.000001 + 1e-6, high - (1 if integer else 1e-6)]
    if edges:
        across.append(st.sampled_from(edges))
    inside: list[st.SearchStrategy[Any]] = []
    if low is not None and high is not None:
        if integer:
            inside.append(st.integers(int(low), int(high)))
            inside.append(st.integers(-2, 2).map(lambda step: min(max(int(shipped) + step, int(low)), int(high))))
        else:
            inside.append(st.floats(float(low), float(high), allow_nan=False))
            # Around the shipped value (×0.1..×10), kept in range: the values a designer tries.
            near = st.floats(-1, 1).map(lambda e: (shipped or 1.0) * 10**e)
            inside.append(near.map(lambda v: min(max(v, float(low)), float(high))))
    # Half the draws in range (so more examples are accepted and run), half at or across an edge.
    value: float | int
    in_range: bool = draw(st.booleans())
    if inside and in_range:
        value = draw(st.one_of(*inside))
    else:
        value = draw(st.one_of(*across))
    if integer and isinstance(value, float) and value.is_integer() and abs(value) < 2**64:
        value = int(value)
    return value


@st.composite
def mutations(draw: st.DrawFn) -> list[tuple[str, Path_, float | int]]:
    count = draw(st.integers(1, 3))
    picked = draw(
        st.lists(st.sampled_from(LEAVES), min_size=count, max_size=count, unique_by=lambda leaf: (leaf[0], leaf[1]))
    )
    out = []
    for name, path, leaf in picked:
        shipped = _get(SHIPPED[name], path)
        out.append((name, path, draw(_value(leaf, float(shipped)))))
    return out


def _get(document: Any, path: Path_) -> Any:
    for key in path:
        document = document[key]
    return document


def _set(document: Any, path: Path_, value: Any) -> None:
    for key in path[:-1]:
        document = document[key]
    document[path[-1]] = value


def _wave_to_play(changes: list[tuple[str, Path_, float | int]], short: int) -> int:
    for name, path, _ in changes:
        if name == "waves.json" and len(path) >= 2 and isinstance(path[1], int):
            return path[1] + 1
    return short


def _finite(report: Any) -> bool:
    if isinstance(report, float):
        return math.isfinite(report)
    if isinstance(report, dict):
        return all(_finite(value) for value in report.values())
    if isinstance(report, list):
        return all(_finite(value) for value in report)
    return True


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=QUICK,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(changes=mutations(), short=st.sampled_from([1, 2, 3]), seed=st.integers(0, 2**32 - 1))
def test_accepted_content_runs_its_wave_to_the_end_and_refused_content_says_why(
    changes: list[tuple[str, Path_, float | int]], short: int, seed: int
) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        data = Path(temporary) / "data"
        shutil.copytree(DEFAULT_DATA_DIR, data)
        documents: dict[str, Any] = {}
        for name, path, value in changes:
            document = documents.setdefault(name, json.loads(json.dumps(SHIPPED[name])))
            _set(document, path, value)
        for name, document in documents.items():
            (data / name).write_text(json.dumps(document), encoding="utf-8")
        note(f"changes: {changes}")
        _check(data, changes, short, seed)


def _check(
    data: Path, changes: list[tuple[str, Path_, float | int]], short: int, seed: int, *, sweep: bool = False
) -> None:
    """Refused: clean problems. Accepted: the wave and the wand run to their ends."""
    record = (lambda _: None) if sweep else event
    try:
        content = load_content(data)
    except ContentError as refused:
        record("refused")
        assert refused.problems
        for problem in refused.problems:
            assert problem.file in CONTENT_FILES and problem.path.startswith("$"), problem
            assert problem.reason and "Traceback" not in problem.reason, problem
        return
    record("accepted: the wave ran")
    number = _wave_to_play(changes, short)
    wave = content.wave(number)
    bound = wave_frames(wave.duration, content.balance.sim.tick_hz)
    if wave.boss:  # R-WAVE-1: a boss wave lasts until its boss falls, at most until the stall cap
        bound = max(bound, wave_frames(content.balance.wave.boss.stall_after, content.balance.sim.tick_hz))
    assert bound <= MAX_WAVE_FRAMES
    played = play_waves(content, seed, number, start_wave=number)
    (report,) = played.reports
    if not sweep:
        note(f"wave {number}: {report['frames']} frames of at most {bound}, {report['spawned']} spawned")
    assert report["frames"] <= bound
    children = max((enemy.split.count for enemy in content.enemies if enemy.split is not None), default=0)
    assert report["spawned"] <= wave.total_enemies() * (1 + children) + _boss_spawns(content, number, bound)
    assert wave.total_enemies() * (1 + children) <= MAX_WAVE_SPAWNS * (1 + children)
    assert _finite(report), report
    # `artificer wand` on the starting wand: a few casts and its training-range dps, finite.
    start = content.balance.starting_wand
    fired = fire_wand(content, start.core, list(start.cards), casts=2)
    assert _finite({key: value for key, value in fired.items() if key != "disassembly"}), fired


def _boss_spawns(content: Any, number: int, frames: int) -> int:
    """The most enemies a boss of wave `number` brings in `frames`: itself, its clones, its adds (R-BOSS-2)."""
    hz = content.balance.sim.tick_hz
    most = 0
    for boss in content.bosses_for_wave(number):
        phases = [*boss.phases, *([boss.ng_plus_phase] if boss.ng_plus_phase is not None else [])]
        brought = 1 + sum(phase.clone_count or 0 for phase in phases)
        for phase in phases:
            if phase.add_count and phase.add_interval:
                brought += phase.add_count * (frames // max(1, round(phase.add_interval * hz)) + 1)
        most = max(most, brought)
    return most * (1 + max((e.split.count for e in content.enemies if e.split is not None), default=0))


def _edges(leaf: dict[str, Any]) -> list[float | int]:
    integer = leaf.get("type") == "integer"
    values: list[float | int] = []
    if "minimum" in leaf:
        values.append(leaf["minimum"])
    if "exclusiveMinimum" in leaf:
        values.append(leaf["exclusiveMinimum"] + (1 if integer else 1e-6))
    if "maximum" in leaf:
        values.append(leaf["maximum"])
    if "exclusiveMaximum" in leaf:
        values.append(leaf["exclusiveMaximum"] - 1 if integer else leaf["exclusiveMaximum"] * (1 - 1e-9))
    return values


@pytest.mark.skipif(QUICK, reason="the edge sweep takes about 15 minutes: make fuzz runs it")
def test_every_number_alone_at_its_edges_is_refused_cleanly_or_runs() -> None:
    for name, path, leaf in LEAVES:
        if name == "looks.json":  # colours and sizes: drawn, never simulated
            continue
        for value in _edges(leaf):
            with tempfile.TemporaryDirectory() as temporary:
                data = Path(temporary) / "data"
                shutil.copytree(DEFAULT_DATA_DIR, data)
                document = json.loads(json.dumps(SHIPPED[name]))
                _set(document, path, value)
                (data / name).write_text(json.dumps(document), encoding="utf-8")
                try:
                    _check(data, [(name, path, value)], 1, 1, sweep=True)
                except Exception as error:
                    raise AssertionError(f"{name} {path} = {value}: {error!r}") from error
