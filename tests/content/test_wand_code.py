"""Wand codes (issue 19): a board as a short text that round-trips for every shipped build, that
`artificer wand --code` and builds.json accept, and whose corruptions are one clear line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from artificer.content import ContentError, load_content
from artificer.content.builds import load_builds
from artificer.content.wand_code import PREFIX, WandCodeError, decode, encode
from artificer.game.loadout import BackpackFull, Loadout

CONTENT = load_content()
BUILDS = load_builds(CONTENT)


@pytest.mark.parametrize("name", sorted(BUILDS))
def test_every_shipped_build_round_trips_through_a_short_code(name: str) -> None:
    build = BUILDS[name]
    code = encode(CONTENT, build.core, build.board)
    assert code.startswith(PREFIX) and len(code) <= 24, code
    board = decode(CONTENT, code)
    capacity = CONTENT.core(build.core).capacity
    assert board.core == build.core
    assert board.cards == tuple(build.board) + (None,) * (capacity - len(build.board))
    assert decode(CONTENT, f"  {code.lower()[:4]}{code[4:]}\n") == board, "pasted with spaces, the prefix in any case"


def test_empty_slots_in_the_middle_survive_and_trailing_ones_are_left_out() -> None:
    code = encode(CONTENT, "siege_core", [None, "fireball", None, None])
    assert decode(CONTENT, code).cards[:3] == (None, "fireball", None)
    assert code == encode(CONTENT, "siege_core", [None, "fireball"])


@pytest.mark.parametrize(
    ("mangle", "says"),
    [
        (lambda c: "hello", "begin with AW1-"),
        (lambda c: c[:-3], "cut short"),
        (lambda c: c + "AAAA", "runs on past its end"),
        (lambda c: c[:-2] + ("B" if c[-2] != "B" else "C") + c[-1], "does not check out"),
        (lambda c: c.replace("-", "-!", 1), "only letters, digits"),
    ],
)
def test_a_corrupted_code_is_one_clear_line(mangle: object, says: str) -> None:
    code = encode(CONTENT, "siege_core", ["double_cast", "fireball", "water_wave", "spark_bolt"])
    with pytest.raises(WandCodeError, match=says):
        decode(CONTENT, mangle(code))  # type: ignore[operator]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=!", max_size=40))
def test_any_text_decodes_or_is_refused_never_a_traceback(body: str) -> None:
    for text in (body, PREFIX + body):
        try:
            board = decode(CONTENT, text)
        except WandCodeError as err:
            assert "\n" not in str(err)
        else:
            assert len(board.cards) == CONTENT.core(board.core).capacity


def test_a_code_made_with_other_content_says_so(tmp_path: Path) -> None:
    """A spell gone shifts the indices: the code names other cards, and its check says so."""
    code = encode(CONTENT, "siege_core", ["double_cast", "fireball", "water_wave", "spark_bolt"])
    data = tmp_path / "data"
    shutil.copytree(CONTENT.data_dir, data)
    spells = json.loads((data / "spells.json").read_text(encoding="utf-8"))
    spells["spells"] = [spell for spell in spells["spells"] if spell["id"] != "bounce"]  # sorts before them all
    (data / "spells.json").write_text(json.dumps(spells), encoding="utf-8")
    other = load_content(data)
    with pytest.raises(WandCodeError, match="another version"):
        decode(other, code)


def test_builds_json_takes_a_code_instead_of_core_and_board(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(CONTENT.data_dir, data)
    book = json.loads((data / "builds.json").read_text(encoding="utf-8"))
    steam = BUILDS["steam"]
    entry = next(build for build in book["builds"] if build["id"] == "steam")
    coded = {k: v for k, v in entry.items() if k not in ("core", "board")}
    first = len(book["builds"])  # the index the first added build takes
    book["builds"].append({**coded, "id": "steam_coded", "code": encode(CONTENT, steam.core, steam.board)})
    book["builds"].append({**coded, "id": "bad_code", "code": "AW1-zz"})
    book["builds"].append({**coded, "id": "both", "code": "AW1-zz", "core": "siege_core"})
    (data / "builds.json").write_text(json.dumps(book), encoding="utf-8")
    with pytest.raises(ContentError) as refused:
        load_builds(CONTENT, data)
    lines = [str(p) for p in refused.value.problems]
    assert len(lines) == 2
    assert any(f"$.builds[{first + 1}].code" in line and "cut short" in line for line in lines), lines
    assert any(f"$.builds[{first + 2}].code" in line and "not both" in line for line in lines), lines
    del book["builds"][-2:]
    (data / "builds.json").write_text(json.dumps(book), encoding="utf-8")
    builds = load_builds(CONTENT, data)
    capacity = CONTENT.core(steam.core).capacity
    assert builds["steam_coded"].core == steam.core
    assert builds["steam_coded"].board == tuple(steam.board) + (None,) * (capacity - len(steam.board))


def _artificer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "artificer", *args], capture_output=True, text=True, timeout=120)


def test_the_wand_command_fires_a_code_as_the_board_it_names() -> None:
    by_cards = json.loads(
        _artificer("wand", "--core", "siege_core", "--cards", "double_cast,fireball", "--json").stdout
    )
    by_code = json.loads(_artificer("wand", "--code", by_cards["code"], "--json").stdout)
    assert by_code == by_cards
    bad = _artificer("wand", "--code", by_cards["code"][:-2])
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0 and "--code: the wand code" in bad.stderr


def test_laying_out_a_code_takes_the_cards_at_hand_and_shelves_the_rest() -> None:
    loadout = Loadout.starting(CONTENT)  # starter_wand: spark_bolt ×3
    loadout.backpack = ["fireball", "damage_plus"]
    core = loadout.active
    assert loadout.lay_out(core, ("nuke", "fireball")) == ["nuke"], "a missing card: nothing changes"
    assert loadout.backpack == ["fireball", "damage_plus"]
    assert loadout.lay_out(core, ("fireball", None, "spark_bolt")) == []
    assert loadout.carried(core).cards[:3] == ["fireball", None, "spark_bolt"]
    assert sorted(loadout.backpack) == ["damage_plus", "spark_bolt", "spark_bolt"], "no card is lost or made"
    loadout.backpack = loadout.backpack + ["spark_bolt"] * (loadout.limits_backpack - len(loadout.backpack))
    loadout.carried(core).cards[1:3] = ["fireball", "fireball"]
    with pytest.raises(BackpackFull):
        loadout.lay_out(core, ())
