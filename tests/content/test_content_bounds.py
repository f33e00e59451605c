"""§ DESIGN errors, issue 13: whatever check-content accepts runs to its end within bounded frames
and memory. Each case of the issue's table is content that was accepted and then crashed, hung or
ate memory (or made check-content itself print a traceback); each is now one clear problem — the
file, the JSON path and why — from `load_content` and from `artificer check-content` (exit 2).

Also: every numeric field of every content model has a range in its JSON Schema, and the ranges
fit the types the Rust core narrows them to (u16, u32, i32, f32)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from artificer.content import ContentError, Problem, load_content
from artificer.content.builds import BUILDS_FILE, load_builds
from artificer.content.check import EXIT_BAD_CONTENT, run
from artificer.content.cores import CoreCatalog
from artificer.content.loader import DEFAULT_DATA_DIR
from artificer.content.looks import Looks
from artificer.content.models import (
    BUFFER_ROW_BYTES,
    MAX_WAVE_SPAWNS,
    Balance,
    EnemyRoster,
    WaveSchedule,
)
from artificer.content.potions import PotionBook
from artificer.content.recipes import RecipeBook
from artificer.content.relics import RelicBook
from artificer.content.spells import SpellCatalog

Edit = Callable[[Any], None]
ROOT = Path(__file__).resolve().parents[2]

U32 = 2**32 - 1
I32 = 2**31 - 1
F32_MAX = 3.4028234663852886e38


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    shutil.copytree(DEFAULT_DATA_DIR, tmp_path / "data")
    return tmp_path / "data"


def _set(*path: str | int, value: Any) -> Edit:
    def edit(document: Any) -> None:
        node = document
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return edit


def _enemy(enemy_id: str, key: str, value: Any) -> Edit:
    def edit(document: Any) -> None:
        enemy = next(e for e in document["enemies"] if e["id"] == enemy_id)
        *parents, last = key.split(".")
        for parent in parents:
            enemy = enemy[parent]
        enemy[last] = value

    return edit


def _spell(spell_id: str, key: str, value: Any) -> Edit:
    def edit(document: Any) -> None:
        spell = next(s for s in document["spells"] if s["id"] == spell_id)
        *parents, last = key.split(".")
        for parent in parents:
            spell = spell[parent]
        spell[last] = value

    return edit


def _core(core_id: str, key: str, value: Any) -> Edit:
    def edit(document: Any) -> None:
        next(c for c in document["cores"] if c["id"] == core_id)[key] = value

    return edit


def _index(document: Any, list_key: str, item_id: str) -> int:
    return next(i for i, item in enumerate(document[list_key]) if item["id"] == item_id)


SHIPPED = {
    name: json.loads((DEFAULT_DATA_DIR / name).read_text(encoding="utf-8"))
    for name in ("enemies.json", "spells.json", "cores.json", "balance.json")
}
MOVE_SPEED = next(
    i for i, offer in enumerate(SHIPPED["balance.json"]["shop"]["stats"]) if offer["stat"] == "move_speed"
)
ARCHER = _index(SHIPPED["enemies.json"], "enemies", "archer")
GRUNT = _index(SHIPPED["enemies.json"], "enemies", "grunt")
SPARK = _index(SHIPPED["spells.json"], "spells", "spark_bolt")
ACID = next(s["id"] for s in SHIPPED["spells.json"]["spells"] if (s.get("action") or {}).get("kind") == "zone")
ACID_AT = _index(SHIPPED["spells.json"], "spells", ACID)
STARTER = _index(SHIPPED["cores.json"], "cores", "starter_wand")


# (case, file edited, edit, the one problem expected: its file and JSON path)
CASES: list[tuple[str, str, Edit, tuple[str, str]]] = [
    (
        "wave group every 1e-9 (5.8 GB, then MemoryError)",
        "waves.json",
        _set("waves", 0, "groups", 0, "every", value=1e-9),
        ("waves.json", "$.waves[0].groups[0].every"),
    ),
    (
        "wave group count 10^7 (2.3 GB, stuck)",
        "waves.json",
        _set("waves", 0, "groups", 0, "count", value=10**7),
        ("waves.json", "$.waves[0].groups[0].count"),
    ),
    (
        "wave duration 1e12 (never ends)",
        "waves.json",
        _set("waves", 0, "duration", value=1e12),
        ("waves.json", "$.waves[0].duration"),
    ),
    (
        "balance.sim.tick_hz 1e9 (run and wand hang)",
        "balance.json",
        _set("sim", "tick_hz", value=10**9),
        ("balance.json", "$.sim.tick_hz"),
    ),
    (
        "enemy hp 1e300 (inf in the core's f32)",
        "enemies.json",
        _set("enemies", GRUNT, "hp", value=1e300),
        ("enemies.json", f"$.enemies[{GRUNT}].hp"),
    ),
    (
        "enemy reward 2^62 (overflows the core's u32)",
        "enemies.json",
        _set("enemies", GRUNT, "reward", value=2**62),
        ("enemies.json", f"$.enemies[{GRUNT}].reward"),
    ),
    (
        "spell pierce 2^63 (overflows u32)",
        "spells.json",
        _set("spells", SPARK, "action", "pierce", value=2**63),
        ("spells.json", f"$.spells[{SPARK}].action.pierce"),
    ),
    (
        "core cpu_limit 2^40 (overflows u32)",
        "cores.json",
        _set("cores", STARTER, "cpu_limit", value=2**40),
        ("cores.json", f"$.cores[{STARTER}].cpu_limit"),
    ),
    (
        "relic value 1e308",
        "relics.json",
        _set("relics", "iron_heart", "value", value=1e308),
        ("relics.json", "$.relics.iron_heart.value"),
    ),
    (
        "capacities.events 10^12",
        "balance.json",
        _set("capacities", "events", value=10**12),
        ("balance.json", "$.capacities.events"),
    ),
    ("arena width 1e30", "balance.json", _set("arena", "width", value=1e30), ("balance.json", "$.arena.width")),
    ("arena height 1e-30", "balance.json", _set("arena", "height", value=1e-30), ("balance.json", "$.arena.height")),
    (
        "player move_speed 1e30",
        "balance.json",
        _set("player", "move_speed", value=1e30),
        ("balance.json", "$.player.move_speed"),
    ),
    ("player radius 1e30", "balance.json", _set("player", "radius", value=1e30), ("balance.json", "$.player.radius")),
    (
        "pickup magnet_speed 1e30",
        "balance.json",
        _set("pickups", "magnet_speed", value=1e30),
        ("balance.json", "$.pickups.magnet_speed"),
    ),
    (
        "vm knockback_seconds 1e30",
        "balance.json",
        _set("vm", "knockback_seconds", value=1e30),
        ("balance.json", "$.vm.knockback_seconds"),
    ),
    (
        "loadout backpack 2^63",
        "balance.json",
        _set("loadout", "backpack", value=2**63),
        ("balance.json", "$.loadout.backpack"),
    ),
    (
        "vm step_multiplier 2^40 (× cpu_limit past u32)",
        "balance.json",
        _set("vm", "step_multiplier", value=2**40),
        ("balance.json", "$.vm.step_multiplier"),
    ),
    (
        "default wave duration 1e12",
        "balance.json",
        _set("wave", "duration", value=1e12),
        ("balance.json", "$.wave.duration"),
    ),
    (
        "enemy speed 1e30",
        "enemies.json",
        _set("enemies", GRUNT, "speed", value=1e30),
        ("enemies.json", f"$.enemies[{GRUNT}].speed"),
    ),
    (
        "archer shot lifetime 1e30",
        "enemies.json",
        _set("enemies", ARCHER, "attack", "lifetime", value=1e30),
        ("enemies.json", f"$.enemies[{ARCHER}].attack.lifetime"),
    ),
    (
        "archer shot speed 1e30",
        "enemies.json",
        _set("enemies", ARCHER, "attack", "speed", value=1e30),
        ("enemies.json", f"$.enemies[{ARCHER}].attack.speed"),
    ),
    (
        "spell speed 1e30",
        "spells.json",
        _set("spells", SPARK, "action", "speed", value=1e30),
        ("spells.json", f"$.spells[{SPARK}].action.speed"),
    ),
    (
        "spell radius 1e30",
        "spells.json",
        _set("spells", SPARK, "action", "radius", value=1e30),
        ("spells.json", f"$.spells[{SPARK}].action.radius"),
    ),
    (
        "spell lifetime 1e30",
        "spells.json",
        _set("spells", SPARK, "action", "lifetime", value=1e30),
        ("spells.json", f"$.spells[{SPARK}].action.lifetime"),
    ),
    (
        "spell damage 1e300",
        "spells.json",
        _set("spells", SPARK, "action", "damage", value=1e300),
        ("spells.json", f"$.spells[{SPARK}].action.damage"),
    ),
    (
        "zone duration 1e30",
        "spells.json",
        _set("spells", ACID_AT, "action", "zone", "duration", value=1e30),
        ("spells.json", f"$.spells[{ACID_AT}].action.zone.duration"),
    ),
    (
        "zone radius 1e30",
        "spells.json",
        _set("spells", ACID_AT, "action", "zone", "radius", value=1e30),
        ("spells.json", f"$.spells[{ACID_AT}].action.zone.radius"),
    ),
    (
        "core mana_max 1e30",
        "cores.json",
        _set("cores", STARTER, "mana_max", value=1e30),
        ("cores.json", f"$.cores[{STARTER}].mana_max"),
    ),
    (
        "the shop sells move speed up to +1e6 (px/s of a bullet)",
        "balance.json",
        _set("shop", "stats", MOVE_SPEED, "max", value=1e6),
        ("balance.json", f"$.shop.stats[{MOVE_SPEED}].max"),
    ),
    (
        "potion_belt relic gives 100 slots (the HUD shows 5)",
        "relics.json",
        _set("relics", "potion_belt", "value", value=100),
        ("relics.json", "$.relics.potion_belt.value"),
    ),
    # Across fields: each value in range, together too much.
    (
        "a group spawns more at once than capacities.enemies",
        "waves.json",
        _set("waves", 0, "groups", 0, value={"enemy": "grunt", "count": 3000, "start": 0, "every": 60, "until": 1}),
        ("waves.json", "$.waves[0].groups[0].count"),
    ),
    (
        f"a wave spawns more than {MAX_WAVE_SPAWNS} enemies",
        "waves.json",
        _set("waves", 0, "groups", 0, value={"enemy": "grunt", "count": 1000, "start": 0, "every": 0.5, "until": 60}),
        ("waves.json", "$.waves[0].groups"),
    ),
    (
        "a wave longer than the frame cap (600 s at 240 Hz)",
        "balance.json",
        lambda doc: [_set("sim", "tick_hz", value=240)(doc), _set("wave", "boss", "stall_after", value=100)(doc)],
        ("waves.json", "$.waves[0].duration"),
    ),
    (
        "a boss fight's stall cap longer than the frame cap (600 s at 120 Hz, R-WAVE-1)",
        "balance.json",
        _set("sim", "tick_hz", value=120),
        ("balance.json", "$.wave.boss.stall_after"),
    ),
    (
        "the starting wand's cards need more CPU than its core (the run cannot start)",
        "spells.json",
        _set("spells", SPARK, "cpu", value=1000),
        ("balance.json", "$.starting_wand.cards"),
    ),
    (
        "the buffers preallocate more than 32 MiB",
        "balance.json",
        _set("capacities", "events", value=1_000_000),
        ("balance.json", "$.capacities"),
    ),
]


def _write(data_dir: Path, name: str, edit: Edit) -> None:
    path = data_dir / name
    document = json.loads(path.read_text(encoding="utf-8"))
    edit(document)
    path.write_text(json.dumps(document), encoding="utf-8")


@pytest.mark.parametrize(("case", "name", "edit", "where"), CASES, ids=[case for case, *_ in CASES])
def test_each_case_is_one_clear_problem(
    case: str, name: str, edit: Edit, where: tuple[str, str], data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DESIGN errors: the file, the JSON path, the reason — from the loader and the checker."""
    _write(data_dir, name, edit)
    if case.startswith("a wave longer"):  # 600 s is in range alone; at 240 Hz it is 144,000 frames
        _write(data_dir, "waves.json", _set("waves", 0, "duration", value=600))
        _write(data_dir, "waves.json", _set("waves", 0, "groups", 0, "until", value=58))
    with pytest.raises(ContentError) as caught:
        load_content(data_dir)
    problems = caught.value.problems
    assert [(p.file, p.path) for p in problems] == [where], problems
    assert problems[0].reason and "Traceback" not in problems[0].reason
    assert run(data_dir) == EXIT_BAD_CONTENT
    assert capsys.readouterr().out.splitlines() == [str(problems[0])]


# --- files check-content could not read without a traceback -----------------------------------


def _bad_builds_not_utf8(data_dir: Path) -> None:
    (data_dir / BUILDS_FILE).write_bytes(b'{"builds": [{"id": "\xff\xfe"}]}')


def _bad_builds_directory(data_dir: Path) -> None:
    (data_dir / BUILDS_FILE).unlink()
    (data_dir / BUILDS_FILE).mkdir()


def _deep_relics(data_dir: Path) -> None:
    (data_dir / "relics.json").write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")


def _deep_builds(data_dir: Path) -> None:
    (data_dir / BUILDS_FILE).write_text('{"builds": ' + "[" * 200_000 + "]" * 200_000 + "}", encoding="utf-8")


def _moderately_deep_relics(data_dir: Path) -> None:
    """Deeper than any content, shallow enough for json.loads: refused before anything walks it."""
    (data_dir / "relics.json").write_text('{"relics": ' + '{"a": ' * 500 + "1" + "}" * 500 + "}", encoding="utf-8")


def _huge_int_balance(data_dir: Path) -> None:
    text = (data_dir / "balance.json").read_text(encoding="utf-8").replace('"tick_hz": 60', '"tick_hz": ' + "9" * 5001)
    (data_dir / "balance.json").write_text(text, encoding="utf-8")


def _long_int_enemies(data_dir: Path) -> None:
    """401 digits: json parses it; the model refuses it by its range."""
    _write(data_dir, "enemies.json", _set("enemies", GRUNT, "reward", value=int("9" * 401)))


def _float_too_big_enemies(data_dir: Path) -> None:
    text = (data_dir / "enemies.json").read_text(encoding="utf-8")
    document = json.loads(text)
    document["enemies"][GRUNT]["hp"] = "HUGE"
    (data_dir / "enemies.json").write_text(json.dumps(document).replace('"HUGE"', "1e400"), encoding="utf-8")


def _relics_is_a_directory(data_dir: Path) -> None:
    (data_dir / "relics.json").unlink()
    (data_dir / "relics.json").mkdir()


def _balance_not_utf8(data_dir: Path) -> None:
    (data_dir / "balance.json").write_bytes(b"\x80\x81" + (data_dir / "balance.json").read_bytes())


FILE_CASES: list[tuple[str, Callable[[Path], None], str, str, str]] = [
    ("non-UTF-8 builds.json", _bad_builds_not_utf8, BUILDS_FILE, "$", "not UTF-8"),
    ("builds.json is a directory", _bad_builds_directory, BUILDS_FILE, "$", "directory"),
    ("builds.json 200,000 deep", _deep_builds, BUILDS_FILE, "$", "nested too deeply"),
    ("relics.json 200,000 deep (RecursionError)", _deep_relics, "relics.json", "$", "nested too deeply"),
    ("relics.json 500 deep", _moderately_deep_relics, "relics.json", "$", "nested too deeply"),
    ("relics.json is a directory", _relics_is_a_directory, "relics.json", "$", "directory"),
    ("non-UTF-8 balance.json", _balance_not_utf8, "balance.json", "$", "not UTF-8"),
    ("a 5,001-digit integer in balance.json", _huge_int_balance, "balance.json", "$", "invalid number"),
    ("a 401-digit reward", _long_int_enemies, "enemies.json", f"$.enemies[{GRUNT}].reward", "less than or equal"),
    ("hp 1e400 (infinity)", _float_too_big_enemies, "enemies.json", f"$.enemies[{GRUNT}].hp", "finite"),
]


@pytest.mark.parametrize(("case", "breaks", "name", "where", "says"), FILE_CASES, ids=[case for case, *_ in FILE_CASES])
def test_unreadable_files_are_one_clear_problem(
    case: str,
    breaks: Callable[[Path], None],
    name: str,
    where: str,
    says: str,
    data_dir: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """DESIGN errors: check-content never shows a traceback; the loader names the file and why."""
    breaks(data_dir)
    assert run(data_dir) == EXIT_BAD_CONTENT
    lines = capsys.readouterr().out.splitlines()
    mine = [line for line in lines if line.startswith(f"{name}: {where}: ")]
    assert len(mine) == 1 and says in mine[0], lines
    if name != BUILDS_FILE:
        assert len(lines) == 1, lines


@pytest.mark.parametrize(
    "breaks", [_deep_relics, _bad_builds_directory], ids=["deep relics.json", "builds.json directory"]
)
def test_the_cli_prints_no_traceback(breaks: Callable[[Path], None], data_dir: Path) -> None:
    breaks(data_dir)
    done = subprocess.run(
        [sys.executable, "-m", "artificer", "check-content", "--data", str(data_dir)],
        capture_output=True, text=True, cwd=ROOT, env=_env(), timeout=120,
    )  # fmt: skip
    assert done.returncode == EXIT_BAD_CONTENT
    assert "Traceback" not in done.stdout + done.stderr
    assert len(done.stdout.splitlines()) == 1


def _env() -> dict[str, str]:
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "python") + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_a_missing_builds_file_is_no_builds(data_dir: Path) -> None:
    (data_dir / BUILDS_FILE).unlink()
    assert load_builds(load_content(data_dir), data_dir) == {}


# --- the ranges themselves ----------------------------------------------------------------------

MODELS: list[type[BaseModel]] = [
    Balance,
    EnemyRoster,
    WaveSchedule,
    SpellCatalog,
    CoreCatalog,
    RecipeBook,
    RelicBook,
    PotionBook,
    Looks,
]


def _numeric_leaves(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(path, schema) of every number or integer in a model's JSON Schema, $refs followed."""
    defs = schema.get("$defs", {})

    def walk(node: Any, path: str, seen: frozenset[str]) -> Iterator[tuple[str, dict[str, Any]]]:
        if not isinstance(node, dict):
            return
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            if name not in seen:
                yield from walk(defs[name], path, seen | {name})
            return
        if node.get("type") in ("number", "integer"):
            yield path, node
        for key in ("anyOf", "allOf", "oneOf", "prefixItems"):
            for index, option in enumerate(node.get(key, [])):
                yield from walk(option, f"{path}<{index}>" if key == "prefixItems" else path, seen)
        if "items" in node:
            yield from walk(node["items"], f"{path}[]", seen)
        if isinstance(node.get("additionalProperties"), dict):
            yield from walk(node["additionalProperties"], f"{path}.*", seen)
        for key, value in node.get("properties", {}).items():
            yield from walk(value, f"{path}.{key}", seen)

    yield from walk(schema, "$", frozenset())


@pytest.mark.parametrize("model", MODELS, ids=[model.__name__ for model in MODELS])
def test_every_number_has_a_range_in_the_schema(model: type[BaseModel]) -> None:
    """Every numeric field shows a lower and an upper bound, within the core's f32 (floats) and
    u32 / i32 (integers), so nothing the checker accepts overflows on the way into the core."""
    leaves = list(_numeric_leaves(model.model_json_schema()))
    assert leaves
    unbounded = []
    for path, node in leaves:
        low = node.get("minimum", node.get("exclusiveMinimum"))
        high = node.get("maximum", node.get("exclusiveMaximum"))
        if low is None or high is None:
            unbounded.append(path)
            continue
        if node["type"] == "integer":
            assert -I32 <= low and high <= U32, path
        else:
            assert -F32_MAX / 1e20 < low and high < F32_MAX / 1e20, path  # room for products in f32
    assert unbounded == []


def test_buffer_row_bytes_match_the_core() -> None:
    """The memory bound of `capacities` counts the core's real row widths."""
    from artificer import _core

    assert BUFFER_ROW_BYTES == {
        "enemies": _core.ENEMY_COLUMNS * 4,
        "projectiles": _core.PROJECTILE_COLUMNS * 4,
        "pickups": _core.PICKUP_COLUMNS * 4,
        "events": _core.EVENT_COLUMNS * 8,
        "zones": _core.ZONE_COLUMNS * 4,
        "summons": _core.SUMMON_COLUMNS * 4,
        "commands": _core.COMMAND_WIDTH * 8,
    }


def test_a_group_counts_its_spawns_without_listing_them() -> None:
    """`bursts()` agrees with the spawn times the wave director lists, edges included."""
    from artificer.content.models import SpawnGroup

    for start, every, until in [(0, 1, 10), (0, 0.1, 1), (1, 1.25, 58), (0.3, 0.7, 0.31), (0, 0.01, 600), (2, 3, 5)]:
        group = SpawnGroup(enemy="grunt", count=2, start=start, every=every, until=until)
        times = [start + k * every for k in range(100_000) if start + k * every < until]
        assert group.bursts() == len(times) == len(group.spawn_times())
        assert group.total_enemies() == 2 * len(times)


def test_problem_reasons_name_the_bound(data_dir: Path) -> None:
    _write(data_dir, "waves.json", _set("waves", 0, "groups", 0, "every", value=1e-9))
    (problem,) = _problems(data_dir)
    assert problem == Problem("waves.json", "$.waves[0].groups[0].every", "must be greater than or equal to 0.01")


def _problems(data_dir: Path) -> tuple[Problem, ...]:
    with pytest.raises(ContentError) as caught:
        load_content(data_dir)
    return caught.value.problems
