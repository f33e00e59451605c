"""The spell VM through the shipped catalog: the three build examples of
GAME_RULES §3.8, property tests over random boards (compile never fails,
casts are bounded, mana never below 0, infinite_spells never below 1 HP,
same seed ⇒ same casts), and the `artificer wand` CLI contract."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from artificer.content import load_content
from artificer.engine.wand import core_data, place, spell_catalog
from artificer.sim.wand import fire_wand

CONTENT = load_content()
CATALOG = spell_catalog(CONTENT)


def casts(core_id: str, cards: list[str], n: int = 2, **kw: Any) -> list[dict[str, Any]]:
    return list(fire_wand(CONTENT, core_id, cards, casts=n, **kw)["casts"])


def test_shotgun_fires_three_spread_bolts_at_once() -> None:
    """§3.8 Shotgun: [triple_cast][spread_mod][spark][spark][spark]."""
    first = casts("starter_wand", ["triple_cast", "spread_mod", "spark_bolt", "spark_bolt", "spark_bolt"])[0]
    fired = first["fired"]
    assert [f["spell"] for f in fired] == ["spark_bolt"] * 3
    angles = sorted(f["angle_deg"] for f in fired)
    assert angles[0] < -5 and angles[-1] > 5, angles


def test_nuke_delivery_is_a_timed_carrier_that_stops_and_detonates() -> None:
    """§3.8 Nuke delivery on the heavy core (R-MANA-7): a 1 s timer carrier,
    speed zero, two damage_plus, and the nuke as its payload."""
    cards = ["trigger_timer_long", "speed_zero", "damage_plus", "damage_plus", "nuke"]
    carrier = casts("siege_core", cards)[0]["fired"][0]
    assert carrier["trigger"] == "timer" and carrier["trigger_delay"] == 1.0
    (nuke,) = carrier["payload"]
    assert nuke["spell"] == "nuke" and nuke["speed"] == 0.0
    base = CONTENT.spell("nuke").action
    bonus = CONTENT.spell("damage_plus").modifier
    assert base is not None and bonus is not None
    assert nuke["damage"] == pytest.approx(base.damage + 2 * bonus.damage_flat)


def test_nuke_cannot_be_paid_from_the_starter_pool() -> None:
    """R-MANA-7: nuke costs more than the base pool holds."""
    first = casts("starter_wand", ["nuke"], 1)[0]
    assert first["abandoned"] and first["fired"] == []


def test_vampire_turret_grows_a_turret_whose_chain_lightning_heals() -> None:
    """§3.8 Vampire turret: [trigger_on_hit][summon_turret][trigger_on_hit][chain_bolt][vampiric]."""
    cards = ["trigger_on_hit", "summon_turret", "trigger_on_hit", "chain_bolt", "vampiric"]
    report = fire_wand(CONTENT, "debug_core", cards, casts=1)
    assert report["diagnostics"]["warnings"] == [] or "cpu_exceeded" not in report["diagnostics"]["warnings"]
    carrier = report["casts"][0]["fired"][0]
    assert carrier["trigger"] == "on_hit"
    (turret,) = carrier["payload"]
    assert turret["spell"] == "summon_turret"
    (inner,) = turret["payload"]
    assert inner["trigger"] == "on_hit"
    (chain,) = inner["payload"]
    assert chain["spell"] == "chain_bolt" and chain["element"] == "lightning"
    assert chain["lifesteal"] > 0


def test_a_wand_without_an_action_cannot_fire() -> None:
    """R-VM-2."""
    core = CONTENT.core("starter_wand")
    diagnostics = CATALOG.compile(core_data(core), place(core, ["damage_plus"]))
    assert not diagnostics["can_fire"]
    assert "no_action" in diagnostics["warnings"]


def test_plasma_storm_fuses_from_water_wave_and_chain_bolt() -> None:
    """R-RES-1 with the shipped recipe."""
    core = CONTENT.core("siege_core")
    diagnostics = CATALOG.compile(core_data(core), place(core, ["water_wave", "chain_bolt"]))
    assert diagnostics["fusions"], diagnostics
    assert "plasma_storm" in diagnostics["disassembly"]


# ---- properties ------------------------------------------------------------

PLAYABLE = [s.id for s in CONTENT.spells if not s.debug_only]


@st.composite
def wands(draw: st.DrawFn) -> tuple[str, list[str | None], float]:
    core = draw(st.sampled_from([c.id for c in CONTENT.cores]))
    slots = CONTENT.core(core).capacity
    cards = draw(st.lists(st.one_of(st.none(), st.sampled_from(PLAYABLE)), min_size=slots, max_size=slots))
    mana = draw(st.floats(min_value=0, max_value=300))
    return core, cards, mana


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wand=wands(), moving=st.booleans())
# A board whose casts land exactly on the floor (hypothesis found it).
@example(wand=("infinite_spells", [None, None, None, "loop", "gatling_loop", "light_shot"], 0.0), moving=False)
def test_any_board_compiles_and_casts_stay_bounded(wand: tuple[str, list[str | None], float], moving: bool) -> None:
    """Compile never fails on a well-formed board; a cast always returns
    (R-VM-8); mana never goes below 0; no cast is quicker than the floor
    (R-VM-11); infinite_spells never below 1 HP."""
    # The floor as the core holds it, an f32 (0.02 is 0.0199999995… there).
    floor = float(np.float32(CONTENT.balance.vm.cast_delay_floor))
    core_id, cards, mana = wand
    core = CONTENT.core(core_id)
    sandbox = CATALOG.sandbox(core_data(core), cards, mana, 3)
    hp = 40.0
    for _ in range(12):
        cast = sandbox.cast(moving=moving, hp=hp)
        assert cast["mana_after"] >= 0.0
        assert cast["delay"] >= floor
        hp = cast["hp_after"]
        assert hp >= 1.0
        sandbox.wait(cast["delay"])


def test_same_seed_same_casts() -> None:
    """R-DET-1 for the VM: spread and everything else replays."""
    cards = ["triple_cast", "spread_mod", "spark_bolt", "spark_bolt", "spark_bolt"]
    assert casts("starter_wand", cards, 5) == casts("starter_wand", cards, 5)


# ---- the CLI ---------------------------------------------------------------


def artificer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "artificer", *args], capture_output=True, text=True, timeout=120)


def test_wand_cli_json_contract() -> None:
    out = artificer("wand", "--core", "starter_wand", "--cards", "damage_plus,spark_bolt", "--casts", "3", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["core"] == "starter_wand"
    assert set(report["diagnostics"]) >= {"cpu_used", "cpu_limit", "mana_per_cast", "fusions", "warnings"}
    assert report["diagnostics"]["mana_per_cast"] == 20.0  # R-MANA-9 (2)
    first = report["casts"][0]
    assert set(first) >= {"t", "mana_before", "mana_after", "abandoned", "delay", "fired"}
    assert first["mana_before"] - first["mana_after"] == pytest.approx(20.0)
    assert set(first["fired"][0]) >= {"spell", "damage", "element", "payload"}
    assert "dps" in report


@pytest.mark.parametrize(
    "args, message",
    [
        (["--core", "nope", "--cards", "spark_bolt"], "unknown core 'nope'"),
        (["--core", "starter_wand", "--cards", "spark_bolt,fizzle"], "unknown spell 'fizzle'"),
        (
            ["--core", "starter_wand", "--cards", "spark_bolt,spark_bolt,spark_bolt,spark_bolt,spark_bolt,spark_bolt"],
            "do not fit",
        ),
        (["--core", "starter_wand", "--board", "/nonexistent.json"], "--board"),
    ],
)
def test_wand_cli_refuses_bad_input_with_exit_2(args: list[str], message: str) -> None:
    out = artificer("wand", *args)
    assert out.returncode == 2
    assert message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_wand_cli_reads_a_board_file(tmp_path: Any) -> None:
    board = tmp_path / "board.json"
    board.write_text(json.dumps({"s1": "spark_bolt", "s0": "damage_plus"}))
    out = artificer("wand", "--core", "starter_wand", "--board", str(board), "--casts", "1", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["cards"][:2] == ["damage_plus", "spark_bolt"]
    board.write_text("[1, 2]")
    bad = artificer("wand", "--core", "starter_wand", "--board", str(board))
    assert bad.returncode == 2 and "expected a JSON object" in bad.stderr
