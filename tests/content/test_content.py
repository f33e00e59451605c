"""Tests of artificer.content: the shipped data loads clean, and bad content is reported, not crashed on.

Each bad-content test copies the shipped data into a temporary directory, breaks
one thing, and checks both the checker's output (`check-content`, exit 2) and
the `ContentError` raised by `load_content` (file and JSON path of each problem).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from artificer.content import CONTENT_FILES, DEFAULT_DATA_DIR, WAVE_COUNT, ContentError, Problem, load_content
from artificer.content.check import EXIT_BAD_CONTENT, EXIT_OK, run
from artificer.errors import ArtificerError

# R-WAVE-2: the enemy roster.
ROSTER = ("grunt", "runner", "brute", "archer", "swarmer", "reflector", "armored", "exploder", "splitter")

JsonEdit = Callable[[Any], None]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A private copy of the shipped data, free to break."""
    shutil.copytree(DEFAULT_DATA_DIR, tmp_path, dirs_exist_ok=True)
    return tmp_path


def edit_json(path: Path, edit: JsonEdit) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    edit(document)
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")


def problems_of(directory: Path) -> tuple[Problem, ...]:
    with pytest.raises(ContentError) as caught:
        load_content(directory)
    return caught.value.problems


def checker_lines(directory: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    exit_code = run(directory)
    return exit_code, capsys.readouterr().out.splitlines()


def locations(problems: tuple[Problem, ...]) -> list[tuple[str, str]]:
    return [(problem.file, problem.path) for problem in problems]


# --- the shipped data -------------------------------------------------------


def test_shipped_content_loads_clean_and_checker_prints_one_summary_line(capsys: pytest.CaptureFixture[str]) -> None:
    exit_code, lines = checker_lines(DEFAULT_DATA_DIR, capsys)
    assert exit_code == EXIT_OK
    content = load_content()
    assert lines == [
        f"content OK: {len(content.enemies)} enemies, {WAVE_COUNT} waves, {len(content.spells)} spells, "
        f"{len(content.cores)} cores, {len(content.recipes)} recipes, {len(content.relics.relics)} relics, "
        f"{len(content.potions.potions)} potions (data: {DEFAULT_DATA_DIR})"
    ]


def test_checker_defaults_to_the_shipped_data(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(None) == EXIT_OK
    assert str(DEFAULT_DATA_DIR) in capsys.readouterr().out


def test_r_wave_2_every_roster_enemy_is_present_and_kind_numbers_follow_file_order() -> None:
    content = load_content()
    ids = [enemy.id for enemy in content.enemies]
    assert set(ROSTER) <= set(ids)
    assert [content.enemy_index(enemy_id) for enemy_id in ids] == list(range(len(ids)))


def test_r_wave_1_waves_1_to_5_spawn_no_resistant_or_armored_enemies() -> None:
    """R-WAVE-1: waves 1-5 check numbers only (low HP, no resistances)."""
    content = load_content()
    for wave in content.waves[:5]:
        for enemy_id in wave.enemy_ids():
            enemy = content.enemy(enemy_id)
            assert not enemy.is_resistant, f"wave {wave.wave} spawns resistant {enemy_id}"
            assert enemy.armor == 0, f"wave {wave.wave} spawns armored {enemy_id}"


def test_r_wave_1_waves_6_to_10_bring_reflectors_and_armored_enemies() -> None:
    content = load_content()
    later_ids = set().union(*(wave.enemy_ids() for wave in content.waves[5:10]))
    assert {"reflector", "armored"} <= later_ids
    assert content.enemy("armored").armor > 0


def test_r_wave_1_late_waves_grow_to_a_bullet_hell() -> None:
    content = load_content()
    totals = [wave.total_enemies() for wave in content.waves]
    # R-WAVE-1, R-CURVE-3: wave 1 already presses (the starter wand standing still is checked in
    # tests/sim/test_wave_one.py) without burying a new player, and the waves only grow from it.
    assert 100 <= totals[0] <= 250
    assert totals == sorted(totals)
    assert totals[-1] >= 1000


def test_spawn_group_spawns_count_enemies_every_interval_before_until() -> None:
    group = load_content().waves[0].groups[0]
    times = group.spawn_times()
    assert times[0] == group.start
    assert all(time < group.until for time in times)
    assert group.total_enemies() == group.count * len(times)


# --- bad content: one problem each ------------------------------------------


def test_truncated_json_is_reported_with_line_and_column(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = data_dir / "enemies.json"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) // 2], encoding="utf-8")

    exit_code, lines = checker_lines(data_dir, capsys)
    assert exit_code == EXIT_BAD_CONTENT
    assert len(lines) == 1
    assert lines[0].startswith("enemies.json: $: invalid JSON at line ")
    assert ", column " in lines[0]
    # waves.json's enemy references are not checked against a broken roster.
    assert locations(problems_of(data_dir)) == [("enemies.json", "$")]


def test_wrong_type_is_reported_at_its_json_path(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit_json(data_dir / "enemies.json", lambda doc: doc["enemies"][0].update(hp="lots"))

    exit_code, lines = checker_lines(data_dir, capsys)
    assert exit_code == EXIT_BAD_CONTENT
    assert lines == ['enemies.json: $.enemies[0].hp: must be a number, got "lots"']
    assert locations(problems_of(data_dir)) == [("enemies.json", "$.enemies[0].hp")]


def test_wave_group_naming_a_missing_enemy_is_reported(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit_json(data_dir / "waves.json", lambda doc: doc["waves"][2]["groups"][1].update(enemy="ghost"))

    exit_code, lines = checker_lines(data_dir, capsys)
    assert exit_code == EXIT_BAD_CONTENT
    assert len(lines) == 1
    assert lines[0].startswith('waves.json: $.waves[2].groups[1].enemy: unknown enemy "ghost"')
    assert locations(problems_of(data_dir)) == [("waves.json", "$.waves[2].groups[1].enemy")]


def test_negative_hp_is_reported_as_out_of_range(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit_json(data_dir / "enemies.json", lambda doc: doc["enemies"][3].update(hp=-5))

    exit_code, lines = checker_lines(data_dir, capsys)
    assert exit_code == EXIT_BAD_CONTENT
    assert lines == ["enemies.json: $.enemies[3].hp: must be greater than 0"]
    assert locations(problems_of(data_dir)) == [("enemies.json", "$.enemies[3].hp")]


def test_unknown_key_typo_is_reported_with_a_suggestion(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def rename_hp(doc: Any) -> None:
        doc["enemies"][0]["hp_max"] = doc["enemies"][0].pop("hp")

    edit_json(data_dir / "enemies.json", rename_hp)

    exit_code, lines = checker_lines(data_dir, capsys)
    assert exit_code == EXIT_BAD_CONTENT
    assert sorted(lines) == [
        "enemies.json: $.enemies[0].hp: required key is missing",
        'enemies.json: $.enemies[0].hp_max: unknown key; did you mean "hp"?',
    ]
    assert ("enemies.json", "$.enemies[0].hp_max") in locations(problems_of(data_dir))


def test_wrong_wave_count_is_reported(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit_json(data_dir / "waves.json", lambda doc: doc["waves"].pop())

    exit_code, lines = checker_lines(data_dir, capsys)
    assert exit_code == EXIT_BAD_CONTENT
    assert lines == [f"waves.json: $.waves: must list exactly {WAVE_COUNT} waves, found {WAVE_COUNT - 1}"]


def test_waves_out_of_order_are_reported_at_their_number(data_dir: Path) -> None:
    def swap_first_two(doc: Any) -> None:
        doc["waves"][0], doc["waves"][1] = doc["waves"][1], doc["waves"][0]

    edit_json(data_dir / "waves.json", swap_first_two)
    assert locations(problems_of(data_dir)) == [("waves.json", "$.waves[0].wave"), ("waves.json", "$.waves[1].wave")]


def test_group_ending_after_its_wave_is_reported(data_dir: Path) -> None:
    edit_json(data_dir / "waves.json", lambda doc: doc["waves"][0]["groups"][0].update(until=90))
    (problem,) = problems_of(data_dir)
    assert (problem.file, problem.path) == ("waves.json", "$.waves[0].groups[0].until")
    assert "duration" in problem.reason


def test_group_ending_before_it_starts_is_reported(data_dir: Path) -> None:
    edit_json(data_dir / "waves.json", lambda doc: doc["waves"][0]["groups"][0].update(start=30.0, until=10.0))
    (problem,) = problems_of(data_dir)
    assert (problem.file, problem.path) == ("waves.json", "$.waves[0].groups[0].until")
    assert problem.reason.startswith("must be later than start")


def test_duplicate_enemy_id_is_reported_at_the_second_use(data_dir: Path) -> None:
    edit_json(data_dir / "enemies.json", lambda doc: doc["enemies"][4].update(id="grunt"))
    problems = problems_of(data_dir)
    assert ("enemies.json", "$.enemies[4].id") in locations(problems)
    assert any("duplicate enemy id" in problem.reason for problem in problems)


def test_unknown_element_in_resistances_is_reported(data_dir: Path) -> None:
    edit_json(data_dir / "enemies.json", lambda doc: doc["enemies"][0].update(resistances={"fyre": 0.5}))
    assert locations(problems_of(data_dir)) == [("enemies.json", "$.enemies[0].resistances.fyre")]


def test_balance_chance_above_one_is_reported(data_dir: Path) -> None:
    edit_json(data_dir / "balance.json", lambda doc: doc["player"].update(crit_chance=1.5))
    assert [str(problem) for problem in problems_of(data_dir)] == [
        "balance.json: $.player.crit_chance: must be less than or equal to 1"
    ]


def test_duplicate_json_key_is_reported(data_dir: Path) -> None:
    path = data_dir / "balance.json"
    path.write_text(path.read_text(encoding="utf-8").replace('"width": 2560', '"width": 2560, "width": 1000'))
    assert locations(problems_of(data_dir)) == [("balance.json", "$.arena.width")]


def test_missing_file_is_reported(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (data_dir / "waves.json").unlink()

    exit_code, lines = checker_lines(data_dir, capsys)
    assert exit_code == EXIT_BAD_CONTENT
    assert len(lines) == 1
    assert lines[0].startswith("waves.json: $: file is missing")
    assert locations(problems_of(data_dir)) == [("waves.json", "$")]


# --- bad content: several problems at once ----------------------------------


def test_problems_in_two_files_are_all_reported(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit_json(data_dir / "enemies.json", lambda doc: doc["enemies"][1].update(speed=-1))
    edit_json(data_dir / "waves.json", lambda doc: doc["waves"][4]["groups"][0].update(count=0))

    exit_code, lines = checker_lines(data_dir, capsys)
    assert exit_code == EXIT_BAD_CONTENT
    assert lines == [
        "enemies.json: $.enemies[1].speed: must be greater than or equal to 0",
        "waves.json: $.waves[4].groups[0].count: must be greater than or equal to 1",
    ]


def test_broken_file_does_not_hide_problems_in_the_others(data_dir: Path) -> None:
    (data_dir / "balance.json").write_text("{", encoding="utf-8")
    edit_json(data_dir / "waves.json", lambda doc: doc["waves"][0]["groups"][0].update(enemy="ghost"))
    assert locations(problems_of(data_dir)) == [
        ("balance.json", "$"),
        ("waves.json", "$.waves[0].groups[0].enemy"),
    ]


def test_empty_data_dir_reports_every_file_missing(tmp_path: Path) -> None:
    assert locations(problems_of(tmp_path)) == [
        ("balance.json", "$"),
        ("enemies.json", "$"),
        ("waves.json", "$"),
        ("spells.json", "$"),
        ("cores.json", "$"),
        ("resonance_recipes.json", "$"),
        ("relics.json", "$"),
        ("potions.json", "$"),
        ("looks.json", "$"),
        ("i18n/en.json", "$"),
    ]


def test_content_error_is_an_artificer_error_listing_each_problem(data_dir: Path) -> None:
    (data_dir / "waves.json").unlink()
    with pytest.raises(ArtificerError) as caught:
        load_content(data_dir)
    assert "waves.json: $: file is missing" in str(caught.value)


# --- bad content never crashes (every data file) --------------------------

_JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    # Values that are valid somewhere, so cross-references get exercised too.
    st.sampled_from(["", "A", "m0", "s9", "grunt", "spark_bolt", "zone", "timer", "loop", "adjacent", "up"]),
    st.just([]),
    st.just({}),
)


def _leaf_paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(node, dict):
        return [leaf for key, value in node.items() for leaf in _leaf_paths(value, (*path, key))]
    if isinstance(node, list) and node:
        return [leaf for index, value in enumerate(node) for leaf in _leaf_paths(value, (*path, index))]
    return [path]


@settings(max_examples=140, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(file_name=st.sampled_from(CONTENT_FILES), data=st.data())
def test_any_single_value_change_loads_or_raises_content_error(file_name: str, data: st.DataObject) -> None:
    """Any one value of any data file changed to anything: the content loads
    or is refused with problems (file + JSON path), never a traceback."""
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        shutil.copytree(DEFAULT_DATA_DIR, directory, dirs_exist_ok=True)
        document = json.loads((directory / file_name).read_text(encoding="utf-8"))
        *parents, last = data.draw(st.sampled_from(_leaf_paths(document)))
        target = document
        for step in parents:
            target = target[step]
        target[last] = data.draw(_JSON_LEAVES)
        (directory / file_name).write_text(json.dumps(document), encoding="utf-8")
        try:
            load_content(directory)
        except ContentError as error:
            assert error.problems
            assert all(problem.path.startswith("$") for problem in error.problems)
