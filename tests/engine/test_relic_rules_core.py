"""R-REL-1/2 relic rules in the core, through `World.step`: the agreed
`set_relic_rules` API (all 0 = off, bad numbers refused), the turn clock
(§8: 3 s of wave time from `begin_wave`), strength, pen_nib and akabeko on
fired ACTIONs, the_boot, bronze_scales' thorns, self_forming_clay's ward at
the next turn, champion_belt's weak and statuses given in turns, and the
RELIC event that names the rule; the rules of the heals inside the wave take a parameter each
(blood_vial's moment, meat_on_bone's threshold). The core's own tests: rust/tests/relics.rs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from artificer import _core
from artificer._core import RelicRules
from artificer.content import load_content
from artificer.engine import EventKind, Simulation, Status
from artificer.engine.events import relic_event
from artificer.errors import CoreArgumentError
from bolt_wand import arm_bolt


@pytest.fixture(scope="module")
def content() -> Any:
    return load_content()


def standing(content: Any) -> Simulation:
    """The shipped content, the player standing still, a wave begun."""
    sim = Simulation(content, seed=5, rules={"player_fixed": True, "enemies_still": True})
    sim.world.begin_wave()
    return sim


def relic_events(sim: Simulation, rule: int) -> Any:
    rows = sim.buffers.event_rows()
    return rows[(rows[:, 0] == EventKind.RELIC) & (rows[:, 1] == rule)]


def test_relic_rules_default_to_off_and_round_trip(content: Any) -> None:
    world = standing(content).world
    assert world.relic_rules() == RelicRules()
    given = {"pen_nib_period": 10, "first_action_bonus": 8, "damage_floor": 5, "thorns": 3, "first_cast_budget": 2,
             "hurt_cast_budget": 3, "hurt_ward": 3, "vulnerable_weak": 1, "heal_on_elite_kill": 6,
             "heal_at_wave_time": 2, "heal_at_wave_time_seconds": 30, "heal_when_low": 12,
             "heal_when_low_threshold": 0.5}  # fmt: skip
    rules = RelicRules(**given)
    world.set_relic_rules(rules)
    back = world.relic_rules()
    assert back == rules and back is not rules
    specs = _core.RELIC_RULE_SPECS
    whole = {name: spec["whole"] for name, spec in specs.items()}
    params = {spec["param"]["name"]: name for name, spec in specs.items() if spec["param"] is not None}
    assert params == {"heal_at_wave_time_seconds": "heal_at_wave_time", "heal_when_low_threshold": "heal_when_low"}
    for name, value in given.items():
        assert getattr(back, name) == value and type(getattr(back, name)) is (int if whole.get(name) else float)
    # Every rule in the core's order, each parameter after its rule, a count as an int, the rest as
    # floats (a rule added later shows its 0).
    names = [n for name, spec in specs.items() for n in (name, *([spec["param"]["name"]] if spec["param"] else []))]
    shown = [f"{n}={given.get(n, 0) if whole.get(n) else float(given.get(n, 0))}" for n in names]
    assert repr(back) == f"RelicRules({', '.join(shown)})"
    assert repr(back).startswith("RelicRules(pen_nib_period=10, first_action_bonus=8.0, damage_floor=5.0, thorns=3.0, ")
    world.set_relic_rules(RelicRules())
    assert world.relic_rules() == RelicRules()


@pytest.mark.parametrize(
    "bad",
    [
        {"pen_nib_period": -1},
        {"first_cast_budget": -2},
        {"thorns": -3.0},
        {"hurt_ward": float("nan")},
        {"damage_floor": float("inf")},
        {"heal_on_elite_kill": -6.0},
        {"heal_at_wave_time_seconds": -30.0},
        {"heal_when_low_threshold": 1.5},
        {"heal_when_low_threshold": True},
    ],  # fmt: skip
)
def test_bad_relic_rules_raise_and_change_nothing(content: Any, bad: dict[str, float]) -> None:
    world = standing(content).world
    world.set_relic_rules(RelicRules(thorns=3))
    name = next(iter(bad))
    with pytest.raises(CoreArgumentError, match=f"relic rule {name}"):
        world.set_relic_rules(RelicRules(**bad))  # type: ignore[arg-type]
    assert world.relic_rules() == RelicRules(thorns=3)


def test_an_unknown_relic_rule_is_refused_naming_the_rules_and_their_parameters() -> None:
    with pytest.raises(CoreArgumentError, match="unknown relic rule") as refused:
        RelicRules(heal_when_low_seconds=3.0)
    assert "heal_when_low, heal_when_low_threshold" in str(refused.value)
    assert "heal_at_wave_time, heal_at_wave_time_seconds" in str(refused.value)


def test_relic_rules_are_keyword_only_and_frozen(content: Any) -> None:
    world = standing(content).world
    with pytest.raises(TypeError):
        RelicRules(10)  # type: ignore[misc]
    with pytest.raises(TypeError):
        world.set_relic_rules(thorns=3)  # type: ignore[call-arg]
    with pytest.raises(AttributeError):
        RelicRules().thorns = 3.0  # type: ignore[misc]


def test_a_turn_is_three_seconds_of_wave_time_from_begin_wave(content: Any) -> None:
    sim = standing(content)
    assert sim.world.turn_seconds == 3.0
    ticks = round(sim.world.turn_seconds * sim.tick_hz)
    for _ in range(ticks - 1):
        sim.step()
    assert sim.world.turn == 0
    sim.step()
    assert sim.world.turn == 1
    sim.world.begin_wave()
    assert sim.world.turn == 0


def test_strength_is_set_added_by_the_command_and_reset_by_begin_wave(content: Any) -> None:
    sim = standing(content)
    sim.world.set_strength(1.0)
    sim.input.strength(2.0)
    sim.step()
    assert sim.world.strength == 3.0
    assert sim.buffers.player_value("strength") == 3.0
    sim.world.begin_wave()
    assert sim.world.strength == 0.0
    with pytest.raises(CoreArgumentError):
        sim.world.set_strength(float("nan"))


def test_pen_nib_doubles_the_10th_and_20th_fired_action_and_akabeko_the_first(content: Any) -> None:
    sim = Simulation(content, seed=5, rules={"player_fixed": True, "enemies_still": True, "enemies_immortal": True})
    sim.world.begin_wave()
    arm_bolt(sim)
    px, py = sim.world.player_position()
    sim.input.spawn(content.enemy_index("brute"), px + 200.0, py)
    sim.world.set_relic_rules(RelicRules(pen_nib_period=10, first_action_bonus=8.0))
    fired, pen, akabeko = 0, [], []
    while fired < 21:
        sim.step()
        rows = sim.buffers.event_rows()
        fired += int(np.count_nonzero((rows[:, 0] == EventKind.PROJECTILE_FIRED) & (rows[:, 2] == 0)))
        pen += list(relic_events(sim, relic_event("pen_nib_period"))[:, 5])
        akabeko += list(relic_events(sim, relic_event("first_action_bonus"))[:, 5])
    assert pen == [10.0, 20.0]
    assert akabeko == [8.0]


def test_thorns_hit_the_enemy_whose_touch_hurts(content: Any) -> None:
    sim = standing(content)
    sim.world.set_relic_rules(RelicRules(thorns=3.0))
    px, py = sim.world.player_position()
    brute = content.enemy_index("brute")
    sim.input.spawn(brute, px + 5.0, py)
    sim.step()
    thorns = relic_events(sim, relic_event("thorns"))
    assert len(thorns) == 1 and thorns[0, 2] == brute and thorns[0, 5] == 3.0
    hp_fraction = sim.buffers.enemy_rows()[0, 4]
    assert hp_fraction == pytest.approx(27.0 / 30.0)


def test_hurt_ward_lands_at_the_next_turn(content: Any) -> None:
    sim = standing(content)
    sim.world.set_relic_rules(RelicRules(hurt_ward=3.0))
    px, py = sim.world.player_position()
    sim.input.spawn(content.enemy_index("grunt"), px + 5.0, py)
    sim.step()
    sim.input.clear_enemies()
    sim.step()
    assert sim.world.player_hp()[0] < content.balance.player.max_hp
    ward_at = []
    for _ in range(round(sim.world.turn_seconds * sim.tick_hz)):
        sim.step()
        if len(relic_events(sim, relic_event("hurt_ward"))):
            ward_at.append(sim.world.turn)
    assert ward_at == [1]
    assert sim.buffers.player_value("ward") == 3.0


def test_vulnerable_brings_champion_weak_and_statuses_take_turns(content: Any) -> None:
    sim = standing(content)
    sim.world.set_relic_rules(RelicRules(vulnerable_weak=1.0))
    px, py = sim.world.player_position()
    sim.input.spawn(content.enemy_index("grunt"), px + 300.0, py)
    sim.step()
    sim.input.apply_status(Status.VULNERABLE, px + 300.0, py, 1.0)
    sim.step()
    weak = relic_events(sim, relic_event("vulnerable_weak"))
    assert len(weak) == 1 and weak[0, 5] == sim.world.turn_seconds
    flags = int(sim.buffers.enemy_rows()[0, 5])
    assert flags & _core.ENEMY_FLAG_WEAK and flags & _core.ENEMY_FLAG_VULNERABLE
    # Weak for 2 turns through the turn-based command: still weak after 1.5 turns, gone after 2.
    sim.world.set_relic_rules(RelicRules())
    sim.input.apply_status_turns(Status.WEAK, px + 300.0, py, 2.0)
    for _ in range(round(1.5 * sim.world.turn_seconds * sim.tick_hz)):
        sim.step()
    assert int(sim.buffers.enemy_rows()[0, 5]) & _core.ENEMY_FLAG_WEAK
    for _ in range(round(0.5 * sim.world.turn_seconds * sim.tick_hz) + 1):
        sim.step()
    assert not int(sim.buffers.enemy_rows()[0, 5]) & _core.ENEMY_FLAG_WEAK


def test_relic_rules_are_state_and_deterministic(content: Any) -> None:
    def run(rules: bool) -> int:
        sim = Simulation(content, seed=9, rules={"player_fixed": True})
        sim.world.begin_wave()
        arm_bolt(sim)
        if rules:
            sim.world.set_relic_rules(
                RelicRules(pen_nib_period=3, first_action_bonus=8, damage_floor=5, thorns=3, hurt_ward=3)
            )
        px, py = sim.world.player_position()
        for i in range(6):
            sim.input.spawn(content.enemy_index("grunt"), px + 60.0 + 20 * i, py + 10 * i)
        for _ in range(240):
            sim.step()
        return sim.state_hash()

    assert run(True) == run(True)
    assert run(True) != run(False)
