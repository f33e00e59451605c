"""Issue 13, "strict JSON out": every JSON the CLI prints (`run --json`, `stress --json`,
`wand --json`) parses with a strict parser — no NaN, no Infinity (RFC 8259). A number that is not
finite (the core keeps f32: a wand's damage past 3.4e38 is infinity) prints as null under its
usual key; the keys never change (the outputs are public contracts)."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest

from artificer import __main__ as cli
from artificer.content.loader import DEFAULT_DATA_DIR


def strict_loads(text: str) -> Any:
    def refuse(constant: str) -> Any:
        raise ValueError(f"not strict JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def _printed_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    return strict_loads(out)


def test_dumps_json_maps_non_finite_numbers_to_null_and_keeps_keys() -> None:
    report = {"damage": math.inf, "low": -math.inf, "nested": [{"x": math.nan, "y": 1.5}], "n": 3, "s": "inf"}
    assert strict_loads(cli.dumps_json(report)) == {
        "damage": None,
        "low": None,
        "nested": [{"x": None, "y": 1.5}],
        "n": 3,
        "s": "inf",
    }
    assert cli.dumps_json({"a": 1.0}, compact=True) == '{"a":1.0}'


def test_run_json_is_strict(capsys: pytest.CaptureFixture[str]) -> None:
    report = _printed_json(["run", "--headless", "--seed", "2", "--waves", "1", "--json"], capsys)
    assert {"seed", "waves", "result"} <= set(report)


def test_run_json_from_a_start_wave_is_strict_and_plays_that_wave(capsys: pytest.CaptureFixture[str]) -> None:
    report = _printed_json(["run", "--headless", "--seed", "2", "--start-wave", "4", "--json"], capsys)
    assert [wave["wave"] for wave in report["waves"]] == [4]
    assert report["result"]["wave_reached"] == 4


def test_stress_json_is_strict(capsys: pytest.CaptureFixture[str]) -> None:
    report = _printed_json(["stress", "--enemies", "200", "--projectiles", "200", "--frames", "5", "--json"], capsys)
    assert "step_ms" in report


def test_wand_json_is_strict(capsys: pytest.CaptureFixture[str]) -> None:
    report = _printed_json(
        ["wand", "--core", "starter_wand", "--cards", "spark_bolt,spark_bolt", "--casts", "3", "--json"], capsys
    )
    assert report["core"] == "starter_wand" and len(report["casts"]) == 3


def test_wand_json_of_an_overflowing_wand_prints_null_not_infinity(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """What the sandbox reports for a damage past f32 (infinity before issue 13) comes out null."""
    from artificer.sim import wand

    real = wand.fire_wand

    def overflowing(*args: Any, **kwargs: Any) -> dict[str, Any]:
        report = real(*args, **kwargs)
        report["casts"][0]["fired"][0]["damage"] = math.inf
        report["dps"] = math.nan
        return report

    monkeypatch.setattr(wand, "fire_wand", overflowing)
    report = _printed_json(
        ["wand", "--core", "starter_wand", "--cards", "spark_bolt", "--casts", "1", "--json"], capsys
    )
    assert report["casts"][0]["fired"][0]["damage"] is None and report["dps"] is None
    assert "damage" in report["casts"][0]["fired"][0]  # the key stays


def test_wand_json_at_the_edges_of_the_content_ranges_is_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The biggest damage content may give (1e6 base, 31 modifiers of ×100 on a 32-slot board)."""
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    spells = json.loads((data / "spells.json").read_text(encoding="utf-8"))
    for spell in spells["spells"]:
        if spell["id"] == "damage_plus":
            spell.update(modifier={"damage_mult": 100}, cpu=0, mana_cost=0)
        if spell["id"] == "spark_bolt":
            spell["action"]["damage"] = 1e6
    (data / "spells.json").write_text(json.dumps(spells), encoding="utf-8")
    cores = json.loads((data / "cores.json").read_text(encoding="utf-8"))
    starter = next(core for core in cores["cores"] if core["id"] == "starter_wand")
    starter.update(board={"row": 32}, cpu_limit=10_000)
    (data / "cores.json").write_text(json.dumps(cores), encoding="utf-8")
    cards = ",".join(["damage_plus"] * 31 + ["spark_bolt"])
    report = _printed_json(
        ["wand", "--data", str(data), "--core", "starter_wand", "--cards", cards, "--casts", "2", "--json"], capsys
    )
    damage = report["casts"][0]["fired"][0]["damage"]
    assert damage is None or damage > 1e6
