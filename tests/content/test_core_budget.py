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
        ({"always_cast": ["divide_2"]}, "always_cast[0]", "acts on the card after it"),
        ({"always_cast": ["add_trigger_timer"]}, "always_cast[0]", "acts on the card after it"),
        ({"always_cast": ["no_such_card"]}, "always_cast[0]", "unknown spell"),
        ({"always_cast": ["spark_bolt", "spark_bolt", "spark_bolt"]}, "always_cast", "at most 2"),
    ],
    ids=["spc_0", "spc_9", "trigger", "multicast", "summon", "divide", "added_trigger", "unknown", "three"],
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


def test_r_vm_14_a_cards_recharge_add_moves_the_wands_reload(tmp_path: Path) -> None:
    """R-VM-14, R-VM-11: the nuke adds 1.5 s to the recharge (a siege core's one-nuke wand waits
    max(0.35 + 1.0, 0.4 + 1.5) = 1.9 s); Reduce Recharge takes 0.25 s off; the chainsaw wipes the
    cast delay drawn before it."""
    content = load_content()
    nuke = fire_wand(content, "siege_core", ["nuke"], casts=2)
    assert nuke["casts"][0]["reload"] and nuke["casts"][0]["delay"] == pytest.approx(1.9, abs=1e-4)
    quick = fire_wand(content, "starter_wand", ["heavy_shot", "reduce_recharge", "heavy_shot"], casts=2)
    plain = fire_wand(content, "starter_wand", ["heavy_shot", "heavy_shot"], casts=2)
    assert quick["casts"][1]["reload"] and plain["casts"][1]["reload"]
    assert quick["casts"][1]["delay"] <= plain["casts"][1]["delay"]
    saw = fire_wand(content, "starter_wand", ["damage_plus", "chainsaw"], casts=1)
    assert saw["casts"][0]["delay"] == pytest.approx(max(0.25, 0.3 - 0.17), abs=1e-4), "damage_plus's delay wiped"


@pytest.mark.parametrize(("value", "said"), [(-6, "greater than or equal to -5"), (11, "less than or equal to 10")])
def test_r_vm_14_a_recharge_add_out_of_range_is_one_problem(tmp_path: Path, value: float, said: str) -> None:
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    spells = json.loads((data / "spells.json").read_text(encoding="utf-8"))
    next(s for s in spells["spells"] if s["id"] == "nuke")["recharge"] = value
    (data / "spells.json").write_text(json.dumps(spells), encoding="utf-8")
    with pytest.raises(ContentError) as refused:
        load_content(data)
    lines = [str(problem) for problem in refused.value.problems]
    assert len(lines) == 1 and "recharge" in lines[0] and said in lines[0], lines
