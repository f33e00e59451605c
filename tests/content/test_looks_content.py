"""R-FEEL-1: every sprite's look lives in data/looks.json, and `check-content`
reports a broken look with its file, JSON path and reason, one line each."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from artificer.content import DEFAULT_DATA_DIR, ContentError, Problem, load_content
from artificer.content.check import EXIT_BAD_CONTENT, run
from artificer.content.looks import Looks, fires_projectile

CONTENT = load_content()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A private copy of the shipped data, free to break."""
    shutil.copytree(DEFAULT_DATA_DIR, tmp_path, dirs_exist_ok=True)
    return tmp_path


def broken(data_dir: Path, edit: Callable[[Any], None]) -> list[Problem]:
    path = data_dir / "looks.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    edit(document)
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_content(data_dir)
    return list(caught.value.problems)


def test_every_enemy_kind_and_every_firing_spell_has_a_look() -> None:
    """R-FEEL-1: the shipped looks cover the roster (then the bosses, R-BOSS-1) and every spell that puts a
    shot, zone or summon in the world."""
    looks = CONTENT.looks
    assert [*(enemy.id for enemy in CONTENT.enemies), *CONTENT.bosses] == list(looks.enemies)
    assert {s.id for s in CONTENT.spells if fires_projectile(s)} == set(looks.shots)
    assert set(looks.zones) and set(looks.summons)


def test_each_enemy_kind_has_its_own_silhouette() -> None:
    """R-FEEL-1: kinds differ by shape, not only colour (the colour-blind palette shares hues)."""
    shapes = [look.shape for look in CONTENT.looks.enemies.values()]
    assert len(set(shapes)) == len(shapes), shapes


def test_common_enemies_are_drawn_at_least_20_px() -> None:
    """R-FEEL-1: grunts, runners, swarmers and splitlings read at a glance (≥ 20 px on screen)."""
    for kind in ("grunt", "runner", "swarmer", "splitling"):
        assert CONTENT.looks.enemies[kind].size >= 20, kind


def test_a_missing_enemy_look_is_one_clear_problem(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problems = broken(data_dir, lambda doc: doc["enemies"].pop("runner"))
    assert [(p.file, p.path) for p in problems] == [("looks.json", "$.enemies")]
    assert 'no look for enemy "runner"' in problems[0].reason
    assert run(data_dir) == EXIT_BAD_CONTENT
    assert capsys.readouterr().out.splitlines() == [str(problems[0])]


def test_an_unknown_enemy_look_is_one_clear_problem(data_dir: Path) -> None:
    def rename(doc: Any) -> None:
        doc["enemies"]["gruntt"] = doc["enemies"]["grunt"]

    problems = broken(data_dir, rename)
    assert [(p.file, p.path) for p in problems] == [("looks.json", "$.enemies.gruntt")]
    assert 'unknown enemy "gruntt"' in problems[0].reason and 'did you mean "grunt"' in problems[0].reason


def test_an_unknown_shape_is_one_clear_problem(data_dir: Path) -> None:
    problems = broken(data_dir, lambda doc: doc["enemies"]["brute"].update(shape="blobby"))
    assert [(p.file, p.path) for p in problems] == [("looks.json", "$.enemies.brute.shape")]
    assert "circle" in problems[0].reason and "horned" in problems[0].reason, "the reason lists the vocabulary"


def test_a_size_out_of_range_is_one_clear_problem(data_dir: Path) -> None:
    problems = broken(data_dir, lambda doc: doc["enemies"]["grunt"].update(size=200))
    assert [(p.file, p.path) for p in problems] == [("looks.json", "$.enemies.grunt.size")]
    assert "96" in problems[0].reason


def test_a_shot_too_small_to_see_is_one_clear_problem(data_dir: Path) -> None:
    problems = broken(data_dir, lambda doc: doc["shots"].__setitem__("spark_bolt", {"style": "bolt", "size": 3}))
    assert [(p.file, p.path) for p in problems] == [("looks.json", "$.shots.spark_bolt.size")]


def test_a_colour_channel_out_of_range_is_one_clear_problem(data_dir: Path) -> None:
    problems = broken(data_dir, lambda doc: doc["crystal"].update(colour=[0, 300, 0]))
    assert [(p.file, p.path) for p in problems] == [("looks.json", "$.crystal.colour[1]")]


def test_a_spell_that_fires_without_a_shot_look_is_reported(data_dir: Path) -> None:
    problems = broken(data_dir, lambda doc: doc["shots"].pop("fireball"))
    assert [(p.file, p.path) for p in problems] == [("looks.json", "$.shots")]
    assert 'no look for spell "fireball"' in problems[0].reason


def test_a_look_for_a_spell_that_never_shows_it_is_reported(data_dir: Path) -> None:
    problems = broken(data_dir, lambda doc: doc["zones"].__setitem__("spark_bolt", doc["zones"]["poison_pool"]))
    assert [(p.file, p.path) for p in problems] == [("looks.json", "$.zones.spark_bolt")]


def test_the_looks_schema_exports_its_vocabulary() -> None:
    """The JSON Schema of looks.json names the shapes a designer may use."""
    schema = json.dumps(Looks.model_json_schema())
    assert '"horned"' in schema and '"maximum": 96' in schema
