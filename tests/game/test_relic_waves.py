"""R-REL-1/R-REL-2 combat relics through the REAL wave flow, headless (issue 6): `Run.start_wave`,
`WaveInProgress.step`, `finish`, and `game.save.settle` between waves, as `run_headless` plays them.

Each test names the relic rule (`relic_event(name)`, the RELIC event's `a`) and asserts what changes, when,
and by how much. Effects on damage are measured against a twin: a run of the same seed without the
relic, with the same spawns, stepped alike. The core is deterministic (R-DET-1), so any difference
is the relic's. The rules' numbers reaching `World.set_relic_rules`: tests/game/test_relics.py; the rules
in the core alone: tests/engine/test_relic_rules_core.py and rust/tests/relics.rs.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from artificer import _core
from artificer.engine import Status
from artificer.engine.events import KIND, VALUE, A, B, EventKind, relic_event
from artificer.engine.frame import EnemyColumn
from artificer.game.run import Run, WaveInProgress
from artificer.game.save import settle
from relic_runs import CONTENT, run_with, value

#: The spark bolt's damage: every twin run here fires the starting wand's bolts.
SPARK = float(CONTENT.spell("spark_bolt").action.damage)  # type: ignore[union-attr]

ENEMY_ROW_HP, ENEMY_ROW_FLAGS = EnemyColumn.HP_FRACTION, EnemyColumn.FLAGS
Rows = npt.NDArray[np.float64]


pytestmark = pytest.mark.usefixtures("isolated_home")  # tests/conftest.py: saves go to a temporary home


def spawn_near_player(run: Run, enemy: str, dx: float, count: int = 1, elite: bool = False) -> None:
    """`count` enemies `dx` to the right of the player (well inside auto_aim_range: the wand fires)."""
    assert dx < CONTENT.balance.player.auto_aim_range
    px, py = run.sim.world.player_position()
    for i in range(count):
        run.sim.input.spawn(CONTENT.enemy_index(enemy), px + dx, py + 3.0 * i, elite)


def play(run: Run, wave: WaveInProgress, frames: int) -> list[Rows]:
    """Steps `wave` `frames` times; each frame's event rows (copied)."""
    out: list[Rows] = []
    for _ in range(frames):
        wave.step()
        out.append(np.array(run.sim.buffers.event_rows(), dtype=np.float64, copy=True))
    return out


def relic_events(frames: list[Rows], rule: int) -> list[tuple[int, Rows]]:
    """(frame, row) of each RELIC event of `rule`."""
    return [
        (f, row) for f, rows in enumerate(frames) for row in rows if row[KIND] == EventKind.RELIC and row[A] == rule
    ]


def hits(frames: list[Rows]) -> list[float]:
    """ENEMY_HIT damages in order (hit_events is on in a Run)."""
    return [float(row[VALUE]) for rows in frames for row in rows if row[KIND] == EventKind.ENEMY_HIT]


def player_fired(frames: list[Rows]) -> list[int]:
    """The frame of each of the player's PROJECTILE_FIRED (b = owner 0), in order."""
    return [
        f for f, rows in enumerate(frames) for row in rows if row[KIND] == EventKind.PROJECTILE_FIRED and row[B] == 0
    ]


def end_wave_and_settle(run: Run, wave: WaveInProgress, next_wave: int) -> None:
    """The wave's timer runs out now; it ends and the world is rebuilt between waves (as run_headless)."""
    wave.stats.frames = wave.frames
    wave.finish()
    settle(run, next_wave)


def twin_waves(
    relic: str, enemy: str, dx: float, count: int, frames: int, elite: bool = False
) -> tuple[list[Rows], list[Rows]]:
    """(plain, with relic): wave 1 of seed 7, the same spawns, `frames` steps each."""
    got = []
    for relics in ((), (relic,)):
        run = run_with(*relics)
        wave = run.start_wave(1)
        spawn_near_player(run, enemy, dx, count, elite)
        got.append(play(run, wave, frames))
    return got[0], got[1]


# --- attack_calc ---------------------------------------------------------------------------------


def test_r_rel_1_2_pen_nib_doubles_the_10th_fired_action_of_the_wave() -> None:
    """R-REL-1/R-REL-2 pen_nib (relic_event("pen_nib_period")): the wave's 10th fired ACTION deals double —
    R-DMG-1, the multiplier before resistance and armor: 2 × 6 × (1 − res) − armor instead of the twin's
    6 × (1 − res) − armor on an elite armored enemy (60 HP: none of the first ten hits kills it); the 9
    before it are unchanged."""
    period = int(value("pen_nib"))
    armored = CONTENT.enemy("armored")
    res, armor = armored.resistances.get("physical", 0.0), float(armored.armor)
    plain, nib = twin_waves("pen_nib", "armored", 120.0, count=3, frames=300, elite=True)
    fired = player_fired(nib)
    assert len(fired) >= period
    events = relic_events(nib, relic_event("pen_nib_period"))
    assert [(f, float(row[VALUE])) for f, row in events] == [(fired[period - 1], float(period))], (
        "one PEN_NIB event, in the frame of the 10th fired action, naming it as the 10th"
    )
    assert relic_events(plain, relic_event("pen_nib_period")) == []
    base = hits(plain)[:period]
    assert len(base) == period and base[-1] == pytest.approx(SPARK * (1 - res) - armor)
    doubled = hits(nib)[:period]
    assert doubled[:-1] == base[:-1], "the 9 before as the twin's"
    assert doubled[-1] == pytest.approx(2 * SPARK * (1 - res) - armor), "the 10th hit doubled"


def test_r_rel_1_2_akabeko_adds_8_to_the_waves_first_action_once_per_wave() -> None:
    """R-REL-1/R-REL-2 akabeko (relic_event("first_action_bonus")): the wave's first fired ACTION deals +8
    (12 instead of 4 on a brute), the next ones don't; again in wave 2 (once per wave)."""
    bonus = value("akabeko")
    runs = [run_with(), run_with("akabeko")]
    for number in (1, 2):
        got = []
        for run in runs:
            wave = run.start_wave(number)
            run.sim.input.clear_enemies()
            spawn_near_player(run, "brute", 120.0)
            frames = play(run, wave, 60)
            got.append(frames)
            if number == 1:
                end_wave_and_settle(run, wave, 2)
        plain, akabeko = got
        events = relic_events(akabeko, relic_event("first_action_bonus"))
        assert len(events) == 1, f"wave {number}: one AKABEKO event"
        frame, row = events[0]
        assert frame == player_fired(akabeko)[0] and float(row[VALUE]) == bonus
        assert relic_events(plain, relic_event("first_action_bonus")) == []
        h_plain, h_aka = hits(plain), hits(akabeko)
        assert len(h_plain) >= 3 and len(h_aka) >= 3
        assert h_aka[0] == pytest.approx(h_plain[0] + bonus), f"wave {number}: the first hit +8"
        assert h_aka[1:3] == h_plain[1:3], f"wave {number}: later hits unchanged"


def test_r_rel_1_2_the_boot_lifts_small_hits_to_5() -> None:
    """R-REL-1/R-REL-2 the_boot (relic_event("damage_floor")): a hit of 1.2 on an armored enemy (4 - armor)
    becomes 5, from the first hit on, with one THE_BOOT event (value = hits lifted) that frame."""
    floor = value("the_boot")
    plain, boot = twin_waves("the_boot", "armored", 120.0, count=1, frames=100)
    small = hits(plain)
    assert small and all(0 < h < floor for h in small), "without the relic, each hit is below the floor"
    lifted = hits(boot)
    kills_at = int(np.ceil(CONTENT.enemy("armored").hp / floor))  # 30 HP: the 6th lifted hit kills it
    assert len(lifted) == min(len(small), kills_at) and lifted == [floor] * len(lifted)
    hit_frames = [f for f, rows in enumerate(boot) if np.any(rows[:, KIND] == EventKind.ENEMY_HIT)]
    events = relic_events(boot, relic_event("damage_floor"))
    assert [f for f, _ in events] == hit_frames, "the event comes in each frame a hit is lifted"
    assert all(float(row[VALUE]) == 1.0 for _, row in events)
    assert relic_events(plain, relic_event("damage_floor")) == []


def test_r_rel_1_2_the_boot_leaves_hits_at_or_above_the_floor_alone() -> None:
    """R-REL-1/R-REL-2 the_boot: with akabeko, the first hit on a brute is the bolt's damage + 8 (over the
    floor of 5) and stays so; the bolt's plain hits after it (6, over the floor too) stay as they are."""
    runs = []
    for relics in (("akabeko",), ("akabeko", "the_boot")):
        run = run_with(*relics)
        wave = run.start_wave(1)
        spawn_near_player(run, "brute", 120.0)
        runs.append(hits(play(run, wave, 60)))
    aka, both = runs
    assert SPARK >= value("the_boot"), "the bolt's hits are at or over the floor"
    assert aka[0] == SPARK + value("akabeko") and both[0] == aka[0]
    assert aka[1:3] == [SPARK, SPARK] and both[1:3] == aka[1:3]


def test_r_rel_1_vajra_adds_1_strength_at_each_wave_start_cumulatively() -> None:
    """R-REL-1 vajra (wave_start): World.strength is 1 after wave 1 starts, 2 after wave 2 starts
    (the world rebuilt between waves; begin_wave resets strength, the run's permanent strength comes
    back +1); the twin has 0. Strength adds to each hit: 5 then 6 instead of 4 on a brute."""
    runs = [run_with(), run_with("vajra")]
    for number, expected in ((1, 1.0), (2, 2.0)):
        got = []
        for run in runs:
            wave = run.start_wave(number)
            run.sim.input.clear_enemies()
            spawn_near_player(run, "brute", 120.0)
            got.append((run.sim.world.strength, hits(play(run, wave, 40))))
            if number == 1:
                end_wave_and_settle(run, wave, 2)
        (s_plain, h_plain), (s_vajra, h_vajra) = got
        assert s_plain == 0.0 and s_vajra == expected * value("vajra")
        assert h_plain and h_vajra
        assert h_vajra[0] == pytest.approx(h_plain[0] + expected), f"wave {number}: +{expected} on a hit"


# --- player_damaged ------------------------------------------------------------------------------


def test_r_rel_1_2_bronze_scales_deal_3_to_the_enemy_touching_the_player() -> None:
    """R-REL-1/R-REL-2 bronze_scales (relic_event("thorns")): a brute on the player hurts it and loses
    3 HP more than the twin's brute, in that same frame; b = the attacker's kind."""
    thorns = value("bronze_scales")
    brute = CONTENT.enemy_index("brute")
    got = []
    for relics in ((), ("bronze_scales",)):
        run = run_with(*relics)
        wave = run.start_wave(1)
        spawn_near_player(run, "brute", 0.0)
        frames = play(run, wave, 1)
        hp = float(run.sim.buffers.enemy_rows()[0, ENEMY_ROW_HP]) * CONTENT.enemy("brute").hp
        got.append((frames, hp))
    (plain, hp_plain), (scales, hp_scales) = got
    assert np.any(plain[0][:, KIND] == EventKind.PLAYER_DAMAGED), "the brute's touch hurts the player"
    events = relic_events(scales, relic_event("thorns"))
    assert len(events) == 1 and events[0][0] == 0
    assert float(events[0][1][B]) == brute and float(events[0][1][VALUE]) == thorns
    assert relic_events(plain, relic_event("thorns")) == []
    assert hp_plain - hp_scales == pytest.approx(thorns, abs=1e-3)


def test_r_rel_1_2_self_forming_clay_wards_3_at_the_next_turn_after_a_hurt() -> None:
    """R-REL-1/R-REL-2 self_forming_clay (relic_event("hurt_ward")): hurt in turn 0, the player gets 3
    ward when turn 1 begins (3 s of wave time), not before; the twin gets none."""
    ward = value("self_forming_clay")
    got = []
    for relics in ((), ("self_forming_clay",)):
        run = run_with(*relics)
        wave = run.start_wave(1)
        run.sim.world.clear_wand()  # the grunt must not die before it touches the player
        spawn_near_player(run, "grunt", 0.0)
        first = play(run, wave, 1)
        assert np.any(first[0][:, KIND] == EventKind.PLAYER_DAMAGED)
        run.sim.input.clear_enemies()
        turn_frames = round(run.sim.world.turn_seconds * run.sim.tick_hz)
        frames = first + play(run, wave, turn_frames + 1)
        got.append((frames, run.sim.buffers.player_value("ward"), turn_frames))
    (plain, ward_plain, _), (clay, ward_clay, turn_frames) = got
    events = relic_events(clay, relic_event("hurt_ward"))
    assert len(events) == 1 and float(events[0][1][VALUE]) == ward
    assert events[0][0] == turn_frames - 1, "in the step where turn 1 begins"
    assert relic_events(plain, relic_event("hurt_ward")) == []
    assert ward_clay == pytest.approx(ward_plain + ward)


def test_r_rel_1_2_centennial_puzzle_gives_3_budget_at_the_waves_first_hp_loss_only() -> None:
    """R-REL-1/R-REL-2 centennial_puzzle (relic_event("hurt_cast_budget")): the wave's first HP loss
    gives +3 budget for the next cast — one event, value 3, in the frame of that loss; later losses
    in the wave give none."""
    run = run_with("centennial_puzzle")
    wave = run.start_wave(1)
    spawn_near_player(run, "brute", 0.0)
    frames = play(run, wave, 120)
    hurt = [
        f for f, rows in enumerate(frames) if np.any((rows[:, KIND] == EventKind.PLAYER_DAMAGED) & (rows[:, VALUE] > 0))
    ]
    assert len(hurt) >= 2, "hurt more than once"
    events = relic_events(frames, relic_event("hurt_cast_budget"))
    assert [(f, float(row[VALUE])) for f, row in events] == [(hurt[0], value("centennial_puzzle"))]


def test_r_rel_1_2_bag_of_prep_gives_2_budget_to_the_waves_first_cast_each_wave() -> None:
    """R-REL-1/R-REL-2 bag_of_prep (relic_event("first_cast_budget")): the wave's first cast gets +2
    budget — one event, value 2, in the frame of the first fired action; again in wave 2."""
    run = run_with("bag_of_prep")
    for number in (1, 2):
        wave = run.start_wave(number)
        run.sim.input.clear_enemies()
        spawn_near_player(run, "brute", 120.0)
        frames = play(run, wave, 60)
        events = relic_events(frames, relic_event("first_cast_budget"))
        assert [(f, float(row[VALUE])) for f, row in events] == [(player_fired(frames)[0], value("bag_of_prep"))]
        if number == 1:
            end_wave_and_settle(run, wave, 2)


def test_r_rel_1_2_champion_belt_makes_vulnerable_bring_1_turn_of_weak() -> None:
    """R-REL-1/R-REL-2 champion_belt (relic_event("vulnerable_weak")): an enemy made vulnerable in a wave
    is also weak for 1 turn (3 s); the twin's enemy is vulnerable only."""
    turns = value("champion_belt")
    grunt = CONTENT.enemy_index("grunt")
    got = []
    for relics in ((), ("champion_belt",)):
        run = run_with(*relics)
        wave = run.start_wave(1)
        run.sim.world.clear_wand()  # nothing dies by chance
        px, py = run.sim.world.player_position()
        run.sim.input.spawn(grunt, px + 300.0, py)
        play(run, wave, 1)
        row = run.sim.buffers.enemy_rows()[0]
        run.sim.input.apply_status(Status.VULNERABLE, float(row[0]), float(row[1]), 1.0)
        frames = play(run, wave, 1)
        got.append((frames, int(run.sim.buffers.enemy_rows()[0, ENEMY_ROW_FLAGS]), run.sim.world.turn_seconds))
    (plain, flags_plain, _), (belt, flags_belt, turn_seconds) = got
    events = relic_events(belt, relic_event("vulnerable_weak"))
    assert len(events) == 1
    assert float(events[0][1][B]) == grunt and float(events[0][1][VALUE]) == turns * turn_seconds
    assert flags_belt & _core.ENEMY_FLAG_WEAK and flags_belt & _core.ENEMY_FLAG_VULNERABLE
    assert flags_plain & _core.ENEMY_FLAG_VULNERABLE and not flags_plain & _core.ENEMY_FLAG_WEAK
    assert relic_events(plain, relic_event("vulnerable_weak")) == []
