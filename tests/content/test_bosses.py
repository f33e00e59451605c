"""Bosses as data (R-BOSS-1, R-BOSS-2): the four shipped boss files load with their numbers, and
`check-content` reports each broken case as one clear line (file, JSON path, reason), never a
traceback; the JSON Schema export covers the boss file."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from artificer.content import DEFAULT_DATA_DIR, BossTag, ContentError, Element, Problem, load_content
from artificer.content.bosses import TAG_PARAMETERS, boss_file
from artificer.content.check import EXIT_BAD_CONTENT
from artificer.content.check import run as check_content
from artificer.content.schema import content_schemas, main, write_schemas

CONTENT = load_content()
LANGUAGES = ("en", "ja", "ko", "zh_CN")
#: R-BOSS-2's boss waves (waves.json marks none yet: see test_boss_waves_are_checked_once_waves_json_marks_them).
BOSS_WAVES = (8, 10, 20)

Edit = Callable[[Any], None]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A private copy of the shipped data, free to break."""
    shutil.copytree(DEFAULT_DATA_DIR, tmp_path, dirs_exist_ok=True)
    return tmp_path


def edit(data_dir: Path, name: str, change: Edit) -> None:
    path = data_dir / name
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False), encoding="utf-8")


def edit_boss(data_dir: Path, boss_id: str, change: Edit) -> None:
    edit(data_dir, boss_file(boss_id), change)


def mark_boss_waves(*numbers: int) -> Edit:
    def change(document: Any) -> None:
        for number in numbers:
            document["waves"][number - 1]["boss"] = True

    return change


def problems_of(data_dir: Path) -> list[Problem]:
    with pytest.raises(ContentError) as caught:
        load_content(data_dir)
    return list(caught.value.problems)


def one_problem(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> Problem:
    """The one problem of `data_dir`, also the one line `check-content --data DIR` prints (exit 2)."""
    problems = problems_of(data_dir)
    assert len(problems) == 1, problems
    capsys.readouterr()
    assert check_content(data_dir) == EXIT_BAD_CONTENT
    assert capsys.readouterr().out.splitlines() == [str(problems[0])]
    return problems[0]


# --- the shipped bosses ---------------------------------------------------------------------


def test_r_boss_1_the_four_shipped_bosses_load_one_file_each_by_id() -> None:
    assert list(CONTENT.bosses) == ["armor_lord", "brood_mother", "mirror_mage", "void_lord"]
    for boss_id, boss in CONTENT.bosses.items():
        assert boss.boss_id == boss_id
        assert (DEFAULT_DATA_DIR / boss_file(boss_id)).is_file()
        assert boss.name_key == f"boss.{boss_id}.name" and boss.description_key == f"boss.{boss_id}.description"
        assert 0 < boss.enrage_after <= 180, "R-WAVE-1: a boss fight hyper-enrages within 3 minutes"
        assert boss.hyper_enrage.speed_multiplier > 1 and boss.hyper_enrage.interval_multiplier < 1


def test_r_boss_3_every_shipped_boss_winds_up_its_volleys_for_at_least_half_a_second() -> None:
    for boss in CONTENT.bosses.values():
        assert 0.5 <= boss.telegraph <= 3.0, boss.boss_id


def test_r_boss_2_bosses_by_wave_w8_one_w10_two_for_the_seed_to_choose_w20_one() -> None:
    assert [boss.boss_id for boss in CONTENT.bosses_for_wave(8)] == ["brood_mother"]
    assert [boss.boss_id for boss in CONTENT.bosses_for_wave(10)] == ["armor_lord", "mirror_mage"]
    assert [boss.boss_id for boss in CONTENT.bosses_for_wave(20)] == ["void_lord"]
    assert [wave.wave for wave in CONTENT.waves if CONTENT.bosses_for_wave(wave.wave)] == list(BOSS_WAVES)
    assert CONTENT.boss("void_lord") is CONTENT.bosses["void_lord"]
    with pytest.raises(KeyError, match="bosses/ghost.json"):
        CONTENT.boss("ghost")


def test_r_boss_2_void_lords_three_phases_and_its_ng_plus_last_will() -> None:
    boss = CONTENT.boss("void_lord")
    one, two, three = boss.phases
    assert [(p.phase, p.hp_threshold_enter, p.hp_threshold_exit) for p in boss.phases] == [
        (1, 1.0, 0.5),
        (2, 0.5, 0.1),
        (3, 0.1, 0.0),
    ]
    assert one.resistances[Element.PHYSICAL] == 0.8 and one.regen_on_physical_hit == 0.005
    assert set(one.behavior_tags) == {BossTag.STATIONARY, BossTag.SPREAD_PROJECTILES} and one.spread_shots == 8
    assert BossTag.CHASE_PLAYER in two.behavior_tags and BossTag.BARRAGE_MODE in two.behavior_tags
    assert two.barrage_interval == 3.0 and two.regen_on_physical_hit == 0.0
    assert {BossTag.ENRAGE, BossTag.FULLSCREEN_BURST} <= set(three.behavior_tags) and three.burst_interval == 5.0
    assert three.speed_multiplier > 1 and three.damage_multiplier > 1
    last = boss.ng_plus_phase
    assert last is not None and last.unlock_condition == "ng_plus"
    assert (last.phase, last.hp_threshold_enter, last.hp_threshold_exit) == (4, 0.0, -0.3)
    assert {BossTag.LAST_WILL, BossTag.HYPER_ENRAGE, BossTag.CLONE_SUMMON} <= set(last.behavior_tags)
    assert (last.invincible_duration, last.hp_restore_ratio, last.clone_count) == (5.0, 0.3, 2)
    assert boss.all_phases(ng_plus=False) == boss.phases
    assert boss.all_phases(ng_plus=True) == (*boss.phases, last)


def test_r_boss_2_the_brood_mother_summons_splitlings_and_enrages_from_30_percent() -> None:
    boss = CONTENT.boss("brood_mother")
    assert boss.wave == 8 and boss.ng_plus_phase is None
    calm, enraged = boss.phases
    for phase in boss.phases:
        assert BossTag.SUMMON_ADDS in phase.behavior_tags and phase.add_enemy == "splitling"
        assert BossTag.CHASE_PLAYER in phase.behavior_tags
    assert enraged.hp_threshold_enter == 0.3 and BossTag.ENRAGE in enraged.behavior_tags
    assert enraged.speed_multiplier > 1 and enraged.add_interval is not None and calm.add_interval is not None
    assert enraged.add_interval < calm.add_interval


def test_r_boss_2_mirror_mage_reflects_frontally_and_armor_lord_wears_plates_weak_to_fire() -> None:
    mage, lord = CONTENT.boss("mirror_mage"), CONTENT.boss("armor_lord")
    for phase in mage.phases:
        assert {BossTag.FRONTAL_REFLECTION, BossTag.SPREAD_PROJECTILES} <= set(phase.behavior_tags)
        assert phase.reflect_arc is not None and phase.reflect_arc < 360, "only the front reflects"
        assert phase.resistances.get(Element.PHYSICAL, 0) > max(
            phase.resistances.get(element, 0) for element in Element if element != Element.PHYSICAL
        ), "weak-ish to elements"
    for phase in lord.phases:
        assert BossTag.ARMOR_PLATES in phase.behavior_tags and phase.weak_element == Element.FIRE
        assert phase.plates is not None and phase.plates >= 1 and phase.plate_armor is not None
        assert BossTag.CHASE_PLAYER in phase.behavior_tags
    assert lord.body.speed < mage.body.speed, "the Armor Lord chases slowly"


def test_r_boss_2_bosses_are_far_tougher_than_the_roster_and_grow_by_wave() -> None:
    toughest = max(enemy.hp for enemy in CONTENT.enemies) * CONTENT.balance.elite.hp_multiplier
    hp = {boss_id: boss.body.hp for boss_id, boss in CONTENT.bosses.items()}
    assert min(hp.values()) > 5 * toughest
    # As fought: the body's HP × its wave's own enemy HP multiplier (R-WAVE-1).
    fought = {boss_id: boss.body.hp * CONTENT.wave(boss.wave).enemy_hp for boss_id, boss in CONTENT.bosses.items()}
    assert fought["brood_mother"] < min(fought["mirror_mage"], fought["armor_lord"]) < fought["void_lord"]


def test_every_boss_has_a_bigger_look_than_the_roster_and_a_name_in_four_languages() -> None:
    biggest_enemy = max(CONTENT.looks.enemies[enemy.id].size for enemy in CONTENT.enemies)
    tables = {
        language: json.loads((DEFAULT_DATA_DIR / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
        for language in LANGUAGES
    }
    for boss in CONTENT.bosses.values():
        assert CONTENT.looks.enemies[boss.boss_id].size > biggest_enemy, boss.boss_id
        for language, table in tables.items():
            assert table[boss.name_key] and table[boss.description_key], (language, boss.boss_id)


def test_every_shipped_phase_has_each_of_its_tags_parameters() -> None:
    for boss in CONTENT.bosses.values():
        for phase in boss.all_phases(ng_plus=True):
            for tag in phase.behavior_tags:
                assert all(getattr(phase, name) is not None for name in TAG_PARAMETERS[tag]), (boss.boss_id, tag)


# --- boss waves ---------------------------------------------------------------------------


def test_boss_waves_are_checked_once_waves_json_marks_them(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R-BOSS-2: with waves 8, 10 and 20 marked (what the runtime's boss waves will do), the shipped
    bosses fit; a boss on an unmarked wave is one problem."""
    edit(data_dir, "waves.json", mark_boss_waves(*BOSS_WAVES))
    assert [wave.wave for wave in load_content(data_dir).waves if wave.boss] == list(BOSS_WAVES)
    edit_boss(data_dir, "mirror_mage", lambda doc: doc.update(wave=9))
    problem = one_problem(data_dir, capsys)
    assert (problem.file, problem.path) == ("bosses/mirror_mage.json", "$.wave")
    assert problem.reason == "wave 9 is not a boss wave in waves.json (boss waves: 8, 10, 20)"


def test_a_boss_wave_without_a_boss_is_one_problem(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(data_dir, "waves.json", mark_boss_waves(*BOSS_WAVES, 15))
    problem = one_problem(data_dir, capsys)
    assert (problem.file, problem.path) == ("waves.json", "$.waves[14].boss")
    assert "no file in bosses/ names it" in problem.reason


def test_a_missing_boss_file_leaves_its_boss_wave_without_a_boss(data_dir: Path) -> None:
    edit(data_dir, "waves.json", mark_boss_waves(*BOSS_WAVES))
    (data_dir / boss_file("void_lord")).unlink()
    edit(data_dir, "looks.json", lambda doc: doc["enemies"].pop("void_lord"))
    assert [(p.file, p.path) for p in problems_of(data_dir)] == [("waves.json", "$.waves[19].boss")]


def test_an_unknown_wave_is_one_problem(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit_boss(data_dir, "void_lord", lambda doc: doc.update(wave=21))
    problem = one_problem(data_dir, capsys)
    assert (problem.file, problem.path) == ("bosses/void_lord.json", "$.wave")
    assert "less than or equal to 20" in problem.reason


# --- one broken value, one line -------------------------------------------------------------


def _set(path: tuple[str | int, ...], value: Any) -> Edit:
    def change(document: Any) -> None:
        *parents, last = path
        for step in parents:
            document = document[step]
        document[last] = value

    return change


def _pop(*path: str | int) -> Edit:
    def change(document: Any) -> None:
        *parents, last = path
        for step in parents:
            document = document[step]
        document.pop(last)

    return change


def _empty_phase_2(document: Any) -> None:
    """Phase 2 exits where it enters (0.5), and phase 3 enters there: the chain holds."""
    document["phases"][1]["hp_threshold_exit"] = 0.5
    document["phases"][2]["hp_threshold_enter"] = 0.5


def _phase(index: int, **values: Any) -> Edit:
    return lambda document: document["phases"][index].update(values)


BROKEN: list[tuple[str, str, Edit, str, str]] = [
    # (case, boss, edit, JSON path, words of the reason)
    ("id is not the file's name", "void_lord", _set(("boss_id",), "void_king"), "$.boss_id", "file's name"),
    ("phase numbered out of order", "void_lord", _phase(1, phase=3), "$.phases[1].phase", "must be 2"),
    ("phase 1 below full HP", "void_lord", _phase(0, hp_threshold_enter=0.9), "$.phases[0].hp_threshold_enter", "1.0"),
    (
        "exit is not the next enter",
        "void_lord",
        _phase(0, hp_threshold_exit=0.6),
        "$.phases[0].hp_threshold_exit",
        "where phase 2 enters (0.5)",
    ),
    ("last exit above 0", "void_lord", _phase(2, hp_threshold_exit=0.05), "$.phases[2].hp_threshold_exit", "0 HP"),
    (
        "exit not below enter",
        "void_lord",
        _empty_phase_2,
        "$.phases[1].hp_threshold_exit",
        "below hp_threshold_enter",
    ),
    ("ng_plus numbered wrong", "void_lord", _set(("ng_plus_phase", "phase"), 5), "$.ng_plus_phase.phase", "must be 4"),
    (
        "ng_plus not entered at 0",
        "void_lord",
        _set(("ng_plus_phase", "hp_threshold_enter"), 0.1),
        "$.ng_plus_phase.hp_threshold_enter",
        "0 HP",
    ),
    (
        "ng_plus not past death",
        "void_lord",
        _set(("ng_plus_phase", "hp_threshold_exit"), 0.0),
        "$.ng_plus_phase.hp_threshold_exit",
        "below 0",
    ),
    (
        "ng_plus without its condition",
        "void_lord",
        _set(("ng_plus_phase", "unlock_condition"), "always"),
        "$.ng_plus_phase.unlock_condition",
        "ng_plus",
    ),
    (
        "a tag without its parameter",
        "void_lord",
        _pop("phases", 0, "spread_interval"),
        "$.phases[0].behavior_tags",
        'tag "spread_projectiles" needs projectile_pattern, spread_interval (missing: spread_interval)',
    ),
    (
        "a parameter without its tag",
        "void_lord",
        _phase(1, burst_interval=4.0),
        "$.phases[1].burst_interval",
        'parameter of the tag "fullscreen_burst"',
    ),
    (
        "both ways to move",
        "void_lord",
        _phase(0, behavior_tags=["stationary", "chase_player", "spread_projectiles"]),
        "$.phases[0].behavior_tags",
        "exactly one of stationary and chase_player (it has stationary and chase_player)",
    ),
    (
        "no way to move",
        "void_lord",
        _phase(0, behavior_tags=["spread_projectiles"]),
        "$.phases[0].behavior_tags",
        "(it has neither)",
    ),
    (
        "enrage without a multiplier above 1",
        "void_lord",
        _phase(2, speed_multiplier=1.0, damage_multiplier=0.9),
        "$.phases[2].behavior_tags",
        "speed_multiplier or damage_multiplier above 1",
    ),
    (
        "last_will outside ng_plus_phase",
        "void_lord",
        _phase(
            2,
            behavior_tags=["chase_player", "enrage", "fullscreen_burst", "last_will"],
            invincible_duration=5.0,
            hp_restore_ratio=0.3,
        ),
        "$.phases[2].behavior_tags",
        "ng_plus_phase only",
    ),
    (
        "a tag twice",
        "void_lord",
        _phase(1, behavior_tags=["chase_player", "barrage_mode", "barrage_mode"]),
        "$.phases[1].behavior_tags",
        "lists barrage_mode more than once",
    ),
    ("an unknown tag", "void_lord", _phase(1, behavior_tags=["chase_player", "laser"]), "$.phases[1].behavior_tags[1]", "laser"),
    ("a spread of 2", "void_lord", _phase(0, projectile_pattern="spread_2"), "$.phases[0].projectile_pattern", "3 to 64"),
    ("not a spread", "void_lord", _phase(0, projectile_pattern="ring_8"), "$.phases[0].projectile_pattern", "spread_"),
    ("barrage of 0 shots", "void_lord", _phase(1, barrage_shots=0), "$.phases[1].barrage_shots", "greater than or equal to 1"),
    ("interval too short", "void_lord", _phase(2, burst_interval=0.01), "$.phases[2].burst_interval", "0.1"),
    ("regen above 10%", "void_lord", _phase(0, regen_on_physical_hit=0.2), "$.phases[0].regen_on_physical_hit", "0.1"),
    ("resistance above 1", "void_lord", _phase(0, resistances={"physical": 1.5}), "$.phases[0].resistances.physical", "1"),
    (
        "an unknown add",
        "brood_mother",
        _phase(0, add_enemy="splitlin"),
        "$.phases[0].add_enemy",
        'unknown enemy "splitlin" (not in enemies.json); did you mean "splitling"?',
    ),
    (
        "an unknown weak element",
        "armor_lord",
        _phase(0, weak_element="fir"),
        "$.phases[0].weak_element",
        'unknown element "fir"; did you mean "fire"?',
    ),
    ("a misspelt key", "void_lord", _phase(1, regen_on_physicl_hit=0.0), "$.phases[1].regen_on_physicl_hit", "did you mean"),
    ("a missing block", "void_lord", _pop("shot"), "$.shot", "required key is missing"),
    (
        "R-BOSS-3: a wind-up under half a second",
        "brood_mother",
        _set(("telegraph",), 0.3),
        "$.telegraph",
        "at least 0.5 s so a player can read and dodge it (R-BOSS-3), got 0.3",
    ),
    ("R-BOSS-3: a wind-up too long", "void_lord", _set(("telegraph",), 5), "$.telegraph", "0.5 to 3 s"),
    ("R-BOSS-3: no wind-up", "mirror_mage", _pop("telegraph"), "$.telegraph", "required key is missing"),
    ("a boss too big for the grid", "void_lord", _set(("body", "radius"), 65), "$.body.radius", "64"),
    ("a name without a text", "void_lord", _set(("name_key",), "boss.void_lord.title"), "$.name_key", "no text"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("boss_id", "change", "path", "words"), [case[1:] for case in BROKEN], ids=[c[0] for c in BROKEN]
)
def test_r_boss_1_a_broken_boss_file_is_one_clear_problem(
    data_dir: Path, capsys: pytest.CaptureFixture[str], boss_id: str, change: Edit, path: str, words: str
) -> None:
    edit_boss(data_dir, boss_id, change)
    problem = one_problem(data_dir, capsys)
    assert (problem.file, problem.path) == (boss_file(boss_id), path), problem
    assert words in problem.reason, problem
    assert "Traceback" not in problem.reason


def test_a_boss_named_like_an_enemy_is_one_problem(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bosses and enemies share ids (the core draws a boss by its look among the enemies')."""
    (data_dir / boss_file("brood_mother")).rename(data_dir / boss_file("brute"))
    edit_boss(data_dir, "brute", lambda doc: doc.update(boss_id="brute"))
    edit(data_dir, "looks.json", _pop("enemies", "brood_mother"))
    problem = one_problem(data_dir, capsys)
    assert (problem.file, problem.path) == ("bosses/brute.json", "$.boss_id")
    assert "already an enemy of enemies.json" in problem.reason


def test_a_boss_without_a_look_is_one_problem_in_its_file(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(data_dir, "looks.json", _pop("enemies", "void_lord"))
    problem = one_problem(data_dir, capsys)
    assert (problem.file, problem.path) == ("bosses/void_lord.json", "$.boss_id")
    assert 'no look for boss "void_lord"' in problem.reason


def test_a_look_for_no_boss_or_enemy_is_one_problem(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(data_dir, "looks.json", lambda doc: doc["enemies"].update(void_lorde=doc["enemies"]["void_lord"]))
    problem = one_problem(data_dir, capsys)
    assert (problem.file, problem.path) == ("looks.json", "$.enemies.void_lorde")
    assert 'did you mean "void_lord"?' in problem.reason


def test_a_missing_english_text_is_one_problem(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(data_dir, "i18n/en.json", _pop("boss.armor_lord.description"))
    problem = one_problem(data_dir, capsys)
    assert (problem.file, problem.path) == ("bosses/armor_lord.json", "$.description_key")
    assert 'no text for "boss.armor_lord.description"' in problem.reason


def test_a_stray_file_and_a_broken_file_in_bosses_are_reported(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (data_dir / "bosses" / "notes.txt").write_text("ideas", encoding="utf-8")
    problem = one_problem(data_dir, capsys)
    assert (problem.file, problem.path) == ("bosses/notes.txt", "$")
    assert "is not a boss file" in problem.reason
    (data_dir / "bosses" / "notes.txt").unlink()
    (data_dir / boss_file("mirror_mage")).write_text('{"boss_id": "mirror_mage",', encoding="utf-8")
    problem = one_problem(data_dir, capsys)
    assert (problem.file, problem.path) == ("bosses/mirror_mage.json", "$")
    assert problem.reason.startswith("invalid JSON at line 1")


def test_boss_problems_come_after_waves_json_and_before_spells_json(data_dir: Path) -> None:
    edit(data_dir, "spells.json", lambda doc: doc["spells"][0].update(mana_cost=-1))
    edit_boss(data_dir, "void_lord", _set(("wave",), 0))
    edit_boss(data_dir, "armor_lord", _set(("wave",), 0))
    edit(data_dir, "enemies.json", lambda doc: doc["enemies"][0].update(hp=-1))
    assert [p.file for p in problems_of(data_dir)] == [
        "enemies.json",
        "bosses/armor_lord.json",
        "bosses/void_lord.json",
        "spells.json",
    ]


def test_no_boss_folder_is_no_boss(data_dir: Path) -> None:
    """No folder, no boss: fine while no wave is a boss wave (a boss wave without a boss is reported)."""
    shutil.rmtree(data_dir / "bosses")
    edit(data_dir, "looks.json", lambda doc: [doc["enemies"].pop(boss_id) for boss_id in CONTENT.bosses])
    edit(data_dir, "waves.json", lambda doc: [wave.update(boss=False) for wave in doc["waves"]])
    assert load_content(data_dir).bosses == {}


# --- the JSON Schema ------------------------------------------------------------------------


def _numbers(node: Any, path: str = "$") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        if node.get("type") in ("integer", "number"):
            yield path, node
        for key, value in node.items():
            yield from _numbers(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _numbers(value, f"{path}[{index}]")


def test_r_boss_1_the_schema_export_covers_the_boss_file_with_every_range(tmp_path: Path) -> None:
    written = write_schemas(tmp_path / "schemas")
    assert tmp_path / "schemas" / "bosses.schema.json" in written
    assert len(written) == len(content_schemas())
    schema = json.loads((tmp_path / "schemas" / "bosses.schema.json").read_text(encoding="utf-8"))
    assert schema["title"].startswith("bosses/<boss_id>.json")
    assert {"boss_id", "wave", "phases", "ng_plus_phase", "enrage_after", "telegraph"} <= set(schema["properties"])
    assert (schema["properties"]["telegraph"]["minimum"], schema["properties"]["telegraph"]["maximum"]) == (0.5, 3.0)
    phase = schema["$defs"]["BossPhase"]["properties"]
    assert set(TAG_PARAMETERS[BossTag.BARRAGE_MODE]) <= set(phase)
    assert set(phase["behavior_tags"]["items"]["$ref"].split("/")[-1:]) == {"BossTag"}
    assert set(schema["$defs"]["BossTag"]["enum"]) == {tag.value for tag in BossTag}
    numbers = list(_numbers(schema))
    assert numbers
    for path, leaf in numbers:
        assert ("minimum" in leaf or "exclusiveMinimum" in leaf) and (
            "maximum" in leaf or "exclusiveMaximum" in leaf
        ), path
        if path.split(".")[-2] == "properties":
            assert leaf.get("description"), path


def test_the_schema_command_writes_into_its_folder_and_refuses_other_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path)]) == 0
    assert str(tmp_path / "bosses.schema.json") in capsys.readouterr().out.splitlines()
    assert main([]) == 2
    assert "usage" in capsys.readouterr().err


# --- R-BOSS-3's bands (balance.json wave.boss.targets) -------------------------------------------


def _targets(change: Callable[[Any], None]) -> Edit:
    return lambda document: change(document["wave"]["boss"]["targets"])


BAD_TARGETS: list[tuple[str, Edit, str, str]] = [
    ("a band upside down", _targets(lambda t: t["ttk_bands"][1].update(max_s=40)), "$.wave.boss.targets.ttk_bands[1].max_s",
     "must be above min_s (45), got 40"),
    ("two bands for one wave", _targets(lambda t: t["ttk_bands"].append({"wave": 8, "min_s": 1, "max_s": 2})),
     "$.wave.boss.targets.ttk_bands", "wave 8 has more than one"),
    ("a boss wave without a band", _targets(lambda t: t["ttk_bands"].pop(0)), "$.wave.boss.targets.ttk_bands",
     "no band for wave 8 (brood_mother): R-BOSS-3"),
    ("a share of more than the whole", _targets(lambda t: t.update(min_hp_taken=1.5)),
     "$.wave.boss.targets.min_hp_taken", "less than or equal to 1"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "path", "words"), [c[1:] for c in BAD_TARGETS], ids=[c[0] for c in BAD_TARGETS])
def test_r_boss_3_a_broken_band_is_one_clear_problem_in_balance_json(
    data_dir: Path, capsys: pytest.CaptureFixture[str], change: Edit, path: str, words: str
) -> None:
    edit(data_dir, "balance.json", change)
    problem = one_problem(data_dir, capsys)
    assert (problem.file, problem.path) == ("balance.json", path), problem
    assert words in problem.reason, problem
