"""R-CORE-1 `spells_per_cast` and R-VM-13 `always_cast` in cores.json: validated with file, JSON path
and reason; what check-content accepts fires in the wand simulator as the rules say."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from artificer.content import DEFAULT_DATA_DIR, ContentError, load_content
from artificer.sim.wand import fire_wand


def content_with(tmp_path: Path, **starter: Any) -> Path:
    """The shipped data with the starter wand's core given `starter`'s fields."""
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    cores = json.loads((data / "cores.json").read_text(encoding="utf-8"))
    core = next(c for c in cores["cores"] if c["id"] == "starter_wand")
    core.update(starter)
    (data / "cores.json").write_text(json.dumps(cores), encoding="utf-8")
    return data


@pytest.mark.parametrize(
    ("fields", "where", "said"),
    [
        ({"spells_per_cast": 0}, "spells_per_cast", "greater than or equal to 1"),
        ({"spells_per_cast": 9}, "spells_per_cast", "less than or equal to 8"),
        ({"always_cast": ["trigger_on_hit"]}, "always_cast[0]", "is a trigger"),
        ({"always_cast": ["double_cast"]}, "always_cast[0]", "is a multicast"),
        ({"always_cast": ["summon_turret"]}, "always_cast[0]", "is a summon"),
        ({"always_cast": ["no_such_card"]}, "always_cast[0]", "unknown spell"),
        ({"always_cast": ["spark_bolt", "spark_bolt", "spark_bolt"]}, "always_cast", "at most 2"),
    ],
    ids=["spc_0", "spc_9", "trigger", "multicast", "summon", "unknown", "three"],
)
def test_r_vm_13_a_bad_budget_or_always_cast_is_one_problem_with_its_path(
    tmp_path: Path, fields: dict[str, Any], where: str, said: str
) -> None:
    with pytest.raises(ContentError) as refused:
        load_content(content_with(tmp_path, **fields))
    lines = [str(problem) for problem in refused.value.problems]
    assert len(lines) == 1, lines
    assert lines[0].startswith("cores.json") and where in lines[0] and said in lines[0], lines[0]


def test_r_core_1_spells_per_cast_fires_that_many_and_the_root_draw_does_not_wrap(tmp_path: Path) -> None:
    content = load_content(content_with(tmp_path, spells_per_cast=2))
    report = fire_wand(content, "starter_wand", ["spark_bolt", "spark_bolt", "spark_bolt"], casts=3)
    fired = [len(cast["fired"]) for cast in report["casts"]]
    assert fired == [2, 1, 2], "S S | S + reload | S S"
    assert [cast["reload"] for cast in report["casts"]] == [False, True, False]
    assert report["spells_per_cast"] == 2


def test_r_vm_13_an_always_cast_card_goes_with_every_cast_free(tmp_path: Path) -> None:
    content = load_content(content_with(tmp_path, always_cast=["damage_plus"]))
    plain = fire_wand(load_content(), "starter_wand", ["spark_bolt", None, None], casts=3)
    plus = fire_wand(content, "starter_wand", ["spark_bolt", None, None], casts=3)
    assert plus["always_cast"] == ["damage_plus"]
    for before, after in zip(plain["casts"], plus["casts"], strict=True):
        assert after["fired"][0]["damage"] > before["fired"][0]["damage"], "damage_plus shapes every cast"
        spent = (before["mana_before"] - before["mana_after"], after["mana_before"] - after["mana_after"])
        assert spent[1] == pytest.approx(spent[0]), "and costs nothing"
    assert plus["diagnostics"]["cpu_used"] == plain["diagnostics"]["cpu_used"], "nor any CPU"
