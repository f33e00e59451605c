"""The core's Python face never panics and lets no absurd number in
(issue 13; DESIGN errors: one clear error per problem — the argument, the
value, the reason — and the core never panics across the boundary).

Each case issue 13 found has a test; then hypothesis calls every entry
point with hostile arguments (NaN, infinities, 1e300, negative and huge
ints, buffers of any shape and dtype): each call succeeds or raises
`CoreArgumentError` (a `ValueError`) with a message — never a
`PanicException` (a `BaseException`, which `except Exception` misses), an
`OverflowError` or a crash — and whatever was accepted leaves the world
finite. The core's own validators have proptests in rust/tests/boundary.rs.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from artificer import CoreArgumentError, _core
from artificer.content import load_content
from artificer.engine import Simulation, WorldMode, world_config
from artificer.engine.frame import EnemyColumn, Op
from artificer.engine.wand import core_data, place, spell_catalog
from artificer.sim.stress import stress_config

CONTENT = load_content()
CATALOG = spell_catalog(CONTENT)
#: balance.json's `vm`, as `spell_catalog` hands it to the core.
VM = CONTENT.balance.vm.model_dump(mode="json", by_alias=True)
STARTER = CONTENT.cores[0]
XRGB = (0xFF0000, 0xFF00, 0xFF, 0)
# Casting a huge float to float32 is exactly what these tests feed the core.
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)

WILD_FLOATS = st.one_of(
    st.floats(-1e3, 1e3),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, 1e300, -1e300, 1e37, 3.5e38, 1e9, 1e10, 0.0, -0.0]),
)
WILD_INTS = st.one_of(
    st.integers(-10, 300),
    st.integers(-(2**70), 2**70),
    st.sampled_from([2**32, 65_538, 2**62, 2**63, 2**64, -1, -(2**63) - 1, 10**30]),
)


def clean(call: Callable[[], Any]) -> Any:
    """Runs `call`: its result, or None when it raised `CoreArgumentError` with a message.
    Anything else (a panic, an OverflowError, a TypeError...) fails the test."""
    try:
        return call()
    except CoreArgumentError as e:
        assert isinstance(e, ValueError) and str(e), "a refusal says why"
        return None
    except BaseException as e:  # noqa: BLE001 - PanicException is a BaseException
        pytest.fail(f"{type(e).__name__} escaped the core: {e}")


def fresh() -> Simulation:
    return Simulation(CONTENT, seed=5)


def player_finite(sim: Simulation) -> None:
    sim.input.move(1.0, 0.6)
    sim.input.dash()
    for _ in range(6):
        sim.step()
        sim.input.clear()
    assert np.isfinite(sim.buffers.player).all(), sim.buffers.player
    assert all(math.isfinite(v) for v in sim.world.player_position())


# --- the cases issue 13 found -----------------------------------------------------------------


def refused(call: Callable[[], Any], *words: str) -> str:
    with pytest.raises(CoreArgumentError) as info:
        call()
    message = str(info.value)
    for word in words:
        assert word in message, message
    return message


def test_a_pitch_of_2_to_the_62_is_refused_not_a_panic() -> None:
    r = _core.SpriteRasterizer([np.full((2, 2, 4), 255, np.uint8)])
    pixels = np.zeros(64, np.uint8)
    refused(lambda: r.draw(pixels, (2, 5), 2**62, XRGB, (0.0, 0.0), []), "pitch 4611686018427387904", "overflows")
    refused(lambda: r.draw(pixels, (2, 5), 2**64, XRGB, (0.0, 0.0), []), "pitch", str(2**64))
    # A zero-width target of pitch 0 (chunks of 0 bytes panicked) draws nothing.
    assert r.draw(pixels, (0, 5), 0, XRGB, (0.0, 0.0), [(np.zeros((1, 2), np.float32), 0)]) == 0


def test_threads_are_capped_at_4_times_the_cores_and_refused_above_at_once() -> None:
    sim = fresh()
    start = time.perf_counter()
    refused(lambda: sim.world.set_threads(100_000), "threads must be a whole number in 1..=", "100000")
    refused(lambda: _core.SpriteRasterizer([], threads=100_000), "threads")
    assert time.perf_counter() - start < 1.0
    sim.world.set_threads(2)
    assert sim.world.threads == 2


def test_a_move_speed_bonus_of_1e37_is_refused_and_the_position_stays_finite() -> None:
    sim = fresh()
    refused(lambda: _core.PlayerStats(move_speed_bonus=1e37), "move_speed_bonus", "1e37")
    sim.world.set_player_stats(_core.PlayerStats(move_speed_bonus=10_000.0))  # the documented largest
    player_finite(sim)


@pytest.mark.parametrize("op", [Op.WARD, Op.STRENGTH])
def test_ward_and_strength_commands_of_1e300_are_refused_like_set_strength(op: Op) -> None:
    sim = fresh()
    before = sim.state_hash()
    sim.input.command(op, value=1e300)
    refused(sim.step, "commands[0]", "1e300")
    assert sim.state_hash() == before and sim.world.frame == 0
    refused(lambda: sim.world.set_strength(1e300), "strength", "1e300")


def test_the_sandbox_refuses_nan_hp_and_a_zero_hp_max() -> None:
    sandbox = CATALOG.sandbox(core_data(STARTER), place(STARTER, ["spark_bolt"]))
    refused(lambda: sandbox.cast(hp=math.nan), "hp", "NaN")
    refused(lambda: sandbox.cast(hp_max=0.0), "hp_max", "got 0")
    refused(lambda: CATALOG.timeline(core_data(STARTER), place(STARTER, ["spark_bolt"]), hp=math.inf), "hp")
    assert sandbox.cast()["mana_after"] < 100.0, "valid senses still cast"


def test_a_spawn_batch_with_a_nan_spawns_none() -> None:
    sim = fresh()
    x = np.array([10.0, 20.0, np.nan], np.float32)
    refused(lambda: sim.world.spawn_enemies(0, x, np.zeros(3, np.float32)), "x[2]", "NaN")
    assert sim.world.enemy_count == 0
    assert sim.world.spawn_enemies(0, np.array([10.0, 20.0], np.float32), np.zeros(2, np.float32)) == 2


def test_no_integer_is_truncated() -> None:
    sim = fresh()
    zeros = np.zeros(1, np.float32)
    refused(lambda: sim.world.spawn_enemies(65_538, zeros, zeros), "65538")
    refused(lambda: sim.world.spawn_projectiles(zeros, zeros, zeros, zeros, 4.0, 1.0, 2**32), "pierce", "4294967296")
    assert sim.world.enemy_count == 0 and sim.world.projectile_count == 0
    # Beyond 64 bits: a CoreArgumentError too, not an OverflowError.
    refused(lambda: _core.RelicRules(pen_nib_period=2**70), "pen_nib_period", str(2**70))
    refused(lambda: sim.world.set_wand_stats(-(2**70), 0.0, 0.0), "cpu")
    refused(lambda: _core.World(world_config(CONTENT), -1), "seed")
    refused(lambda: CATALOG.compile(core_data(STARTER), place(STARTER, []), cpu=2**40), "cpu")


def test_catalog_compile_refuses_a_cyclic_board_called_directly() -> None:
    data = core_data(STARTER)
    data["board"]["edges"].append(["s4", "s0"])
    refused(lambda: CATALOG.compile(data, place(STARTER, ["spark_bolt"])), "reached twice")
    merged = core_data(STARTER)
    merged["board"]["edges"].append(["s0", "s2"])
    refused(lambda: CATALOG.compile(merged, place(STARTER, ["spark_bolt"])), "reached twice")
    twice = core_data(STARTER)
    twice["board"]["slots"][1]["id"] = "s0"
    refused(lambda: CATALOG.compile(twice, place(STARTER, ["spark_bolt"])), "s0")


def test_content_numbers_beyond_the_core_bounds_are_refused_naming_the_field() -> None:
    spells = [s.model_dump(mode="json", by_alias=True) for s in CONTENT.spells]
    spells[0]["action"]["damage"] = 1e300
    refused(lambda: _core.Catalog(spells, [], VM), "spells[0]", "damage")
    spells[0]["action"]["damage"] = 4.0
    spells[0]["action"]["pierce"] = 2**32
    refused(lambda: _core.Catalog(spells, [], VM), "pierce", "4294967296")
    config = world_config(CONTENT)
    config["sim"]["tick_hz"] = 10**9
    refused(lambda: _core.World(config, 1), "sim.tick_hz")
    config = world_config(CONTENT)
    config["enemies"][0]["hp"] = 1e300
    refused(lambda: _core.World(config, 1), "hp")


def test_a_deep_wrong_config_field_is_named_by_its_full_path() -> None:
    """The config is decoded section by section (rust/py/decode.rs): a refusal
    names the whole path to the field, an enemy by its index, and keeps the
    boundary's wording; balance.json's numbers have no fallback in the core."""
    config = world_config(CONTENT)
    config["vm"]["sustained_fire"]["cap"] = "lots"
    refused(lambda: _core.World(config, 1), "config.vm.sustained_fire.cap: expected a number")
    config = world_config(CONTENT)
    archer = next(i for i, enemy in enumerate(config["enemies"]) if enemy.get("attack"))
    config["enemies"][archer]["attack"]["strafe"] = math.nan
    refused(lambda: _core.World(config, 1), f"config.enemies[{archer}].attack.strafe: expected a finite number")
    config = world_config(CONTENT)
    config["statuses"]["poison"]["max_stacks"] = 2**40
    refused(
        lambda: _core.World(config, 1),
        f"config.statuses.poison.max_stacks must be a whole number in 0..=4294967295, got {2**40}",
    )
    for section, key in [("turn", "seconds"), ("vm", "charge_ring_delay"), ("player", "auto_aim_range")]:
        partial = world_config(CONTENT)
        del partial[section][key]
        refused(lambda config=partial: _core.World(config, 1), f"config.{section}.{key}: missing")
    config = world_config(CONTENT)
    del config["statuses"]["zone"]
    refused(lambda: _core.World(config, 1), "config.statuses.zone: missing")


def test_a_behaviour_block_goes_with_and_only_with_its_behaviour_in_the_core_too() -> None:
    """The core builds each kind's behaviour with its block (rust/py/config.rs): a block missing
    or on another behaviour is refused there in content's words, naming the block."""
    config = world_config(CONTENT)
    archer = next(i for i, enemy in enumerate(config["enemies"]) if enemy.get("attack"))
    config["enemies"][archer]["attack"] = None
    refused(
        lambda: _core.World(config, 1),
        f'config.enemies[{archer}].attack: behavior "keep_distance" requires an attack block',
    )
    config = world_config(CONTENT)
    grunt = next(i for i, enemy in enumerate(config["enemies"]) if enemy["behavior"] == "chase")
    config["enemies"][grunt]["shield"] = {"arc": 90.0, "reflect_damage": 1.0}
    refused(
        lambda: _core.World(config, 1),
        f'config.enemies[{grunt}].shield: only behavior "shield" takes a shield block (this enemy is "chase")',
    )
    config = world_config(CONTENT)
    boss = next(enemy["boss"] for enemy in config["enemies"] if enemy.get("boss"))
    config["enemies"][grunt]["boss"] = boss
    refused(lambda: _core.World(config, 1), f'config.enemies[{grunt}].boss: only behavior "boss" takes a boss block')


def test_a_deep_wrong_catalog_field_is_named_by_its_full_path() -> None:
    """Spells, recipes and cores are decoded the same way: a trigger's carrier,
    a logic node's register and a board slot's bonus are named down to the key."""
    spells = [s.model_dump(mode="json", by_alias=True) for s in CONTENT.spells]
    trigger = next(i for i, s in enumerate(spells) if s["family"] == "trigger")
    spells[trigger]["trigger"]["carrier"]["speed"] = "fast"
    refused(lambda: _core.Catalog(spells, [], VM), f"spells[{trigger}].trigger.carrier.speed: expected a number")
    spells = [s.model_dump(mode="json", by_alias=True) for s in CONTENT.spells]
    reg = next(i for i, s in enumerate(spells) if s["family"] == "logic" and s["logic"]["register"])
    spells[reg]["logic"]["register"] = "C"
    refused(lambda: _core.Catalog(spells, [], VM), f'spells[{reg}].logic.register: unknown register "C"')
    data = core_data(STARTER)
    data["board"]["slots"][2]["bonus"] = {"dir": "sideways", "mult": 1.5}
    refused(lambda: CATALOG.compile(data, place(STARTER, [])), "core.board.slots[2].bonus.dir: unknown direction")


# --- issue 42: the core's face refuses what it took -------------------------------------------


@pytest.mark.parametrize("elite", [7.0, 0.5, -1.0, 2.0])
def test_issue_42_a_spawn_commands_elite_is_exactly_0_or_1(elite: float) -> None:
    """Op 1's `b` is elite: 0 or 1, as `FrameInput.spawn` writes it; anything else is refused, the
    row naming its column, and nothing of the frame is applied."""
    sim = fresh()
    before = sim.state_hash()
    sim.input.command(Op.SPAWN, 0, elite, 50.0, 50.0)
    refused(sim.step, "commands[0]: elite (column 2) must be 0 or 1, got")
    assert sim.state_hash() == before and sim.world.frame == 0 and sim.world.enemy_count == 0
    sim.input.clear()
    sim.input.spawn(0, 50.0, 50.0, elite=True)
    sim.input.spawn(0, 80.0, 50.0, elite=False)
    sim.step()
    flags = sim.buffers.enemies[: sim.world.enemy_count, EnemyColumn.FLAGS].astype(np.int64)
    assert sorted(bool(f & _core.ENEMY_FLAG_ELITE) for f in flags) == [False, True]


def _the_cases_issue_42_found_misspelt() -> list[tuple[Callable[[dict[str, Any]], Any], str]]:
    enemies = world_config(CONTENT)["enemies"]
    archer = next(i for i, enemy in enumerate(enemies) if enemy.get("attack"))
    boss = next(i for i, enemy in enumerate(enemies) if enemy.get("boss"))
    return [
        (lambda c: c["arena"].update(widht=1.0), "config.arena.widht: unknown key (known: width, height)"),
        (lambda c: c.update(colour="red"), "config.colour: unknown key"),
        (lambda c: c["vm"]["sustained_fire"].update(windw=1.0), "config.vm.sustained_fire.windw: unknown key"),
        (lambda c: c["statuses"]["burn"].update(dsp=1.0), "config.statuses.burn.dsp: unknown key"),
        (lambda c: c["enemies"][0].update(colour="red"), "config.enemies[0].colour: unknown key"),
        (lambda c: c["enemies"][archer]["attack"].update(strafe_speed=1.0),
         f"config.enemies[{archer}].attack.strafe_speed: unknown key"),
        (lambda c: c["enemies"][boss]["boss"].update(enrage=1.0), f"config.enemies[{boss}].boss.enrage: unknown key"),
        (lambda c: c["enemies"][boss]["boss"]["hyper"].update(chse=True),
         f"config.enemies[{boss}].boss.hyper.chse: unknown key"),
        (lambda c: c["enemies"][boss]["boss"]["phases"][0].update(spred={"count": 3, "every": 1.0}),
         f"config.enemies[{boss}].boss.phases[0].spred: unknown key"),
        (lambda c: c["mutators"].update(mirorr=True), "config.mutators.mirorr: unknown key"),
        (lambda c: c["mutators"].update(split={"count": 2, "hp": 0.5, "spread": 10.0, "hp_share": 0.5}),
         "config.mutators.split.hp_share: unknown key"),
        (lambda c: c["arena"].update({1: 2.0}), "config.arena.1: unknown key"),
    ]  # fmt: skip


@pytest.mark.parametrize(("misspell", "message"), _the_cases_issue_42_found_misspelt())
def test_issue_42_a_config_key_the_core_does_not_know_is_refused_at_every_level(
    misspell: Callable[[dict[str, Any]], Any], message: str
) -> None:
    """A key no section knows would be dropped unseen (a misspelt key leaves its field
    missing, or its block off): it is refused by its path, whatever its depth."""
    config = world_config(CONTENT)
    misspell(config)
    assert refused(lambda: _core.World(config, 1), message).count("\n") == 0


@pytest.mark.parametrize(
    "mode",
    [
        WorldMode(),
        WorldMode(ng_plus=1, cursed=True),
        WorldMode(ng_plus=3, difficulty=2.5, mutator="splitting", arena_scale=0.6),
        WorldMode(mutator="mana_inversion"),
        WorldMode(mutator="mirror_world"),
    ],
)
def test_issue_42_every_config_the_game_builds_has_only_keys_the_core_knows(mode: WorldMode) -> None:
    rules = {"player_fixed": True, "enemies_immortal": False}
    assert _core.World(world_config(CONTENT, rules, mode), 1).frame == 0
    assert _core.World(stress_config(), 1).frame == 0


def test_issue_42_a_bool_is_not_a_number() -> None:
    """Python's bool is an int: `PlayerStats(armor=True)` was armor 1.0. A bool is refused,
    by the argument's name, wherever a number is due: every player stat, relic rules
    (floats and counts), integer arguments, seeds, a config's numbers."""
    for name in ["max_hp_bonus", "armor", "move_speed_bonus", "crit_chance_bonus", "pickup_radius_bonus",
                 "mana_regen_bonus", "mana_leech"]:  # fmt: skip
        refused(partial(_core.PlayerStats, **{name: True}), f"player stat {name} must be a finite number", "(a bool)")
    refused(lambda: _core.PlayerStats(armor=False), "player stat armor", "got False (a bool)")
    assert _core.PlayerStats(armor=1).armor == 1.0, "an int is still a number"
    refused(lambda: _core.RelicRules(thorns=True), "relic rule thorns", "got True (a bool)")
    refused(lambda: _core.RelicRules(pen_nib_period=True), "relic rule pen_nib_period", "got True (a bool)")
    sim = fresh()
    refused(lambda: sim.world.set_threads(True), "threads must be a whole number in 1..=", "got True (a bool)")
    refused(lambda: sim.world.set_wand_stats(True, 0.0, 0.0), "cpu", "got True (a bool)")
    refused(lambda: CATALOG.compile(core_data(STARTER), place(STARTER, []), cpu=True), "cpu", "(a bool)")
    zeros = np.zeros(1, np.float32)
    refused(lambda: sim.world.spawn_enemies(True, zeros, zeros), "kind must be a whole number", "(a bool)")
    assert sim.world.enemy_count == 0
    refused(lambda: _core.World(world_config(CONTENT), True), "seed must be an integer", "got True (a bool)")
    refused(lambda: CATALOG.sandbox(core_data(STARTER), place(STARTER, ["spark_bolt"]), seed=False), "seed")
    config = world_config(CONTENT)
    config["player"]["armor"] = True
    refused(lambda: _core.World(config, 1), "config.player.armor: expected a number, got True (a bool)")
    config = world_config(CONTENT)
    config["sim"]["tick_hz"] = True
    refused(lambda: _core.World(config, 1), "config.sim.tick_hz must be a whole number", "got True (a bool)")
    r = _core.SpriteRasterizer([np.full((2, 2, 4), 255, np.uint8)] * 2)
    rows = np.zeros((1, 2), np.float32)
    refused(lambda: r.draw(np.zeros(64, np.uint8), (4, 4), 16, XRGB, (0.0, 0.0), [(rows, True)]), "layers[0] sprite")


def test_issue_42_the_sandbox_refuses_an_infinite_nearest_enemy() -> None:
    """NaN, -1 and 1e300 were refused, infinity taken: every sense is a finite number now."""
    sandbox = CATALOG.sandbox(core_data(STARTER), place(STARTER, ["spark_bolt"]))
    for far in [math.inf, -math.inf]:
        refused(partial(sandbox.cast, nearest_enemy=far), "nearest_enemy must be a finite number", "inf")
        refused(partial(CATALOG.timeline, core_data(STARTER), place(STARTER, []), nearest_enemy=far), "nearest_enemy")
    assert sandbox.cast(nearest_enemy=1e9)["mana_after"] < 100.0, "the farthest finite distance still casts"


def test_issue_42_the_seed_range_is_said_as_it_is() -> None:
    """2**64 is refused, so the range ends at 2**64-1 (taken), and the message says so."""
    config = world_config(CONTENT)
    refused(lambda: _core.World(config, 2**64), f"seed must be an integer in 0..=2**64-1, got {2**64}")
    refused(lambda: CATALOG.sandbox(core_data(STARTER), place(STARTER, []), seed=-1), "in 0..=2**64-1, got -1")
    world = _core.World(config, 2**64 - 1)
    refused(lambda: world.set_rng_state([2**64]), f"rng_state[0] must be an integer in 0..=2**64-1, got {2**64}")
    world.set_rng_state([2**64 - 1])
    assert world.rng_state() == [2**64 - 1]


def test_issue_42_max_threads_is_the_cores_own_bound() -> None:
    """`_core.MAX_THREADS` is the bound `set_threads` and the rasterizer refuse above
    (4 × the machine's cores, at least 8), for the CLI's `stress --threads`."""
    assert isinstance(_core.MAX_THREADS, int) and _core.MAX_THREADS >= 8
    sim = fresh()
    refused(lambda: sim.world.set_threads(_core.MAX_THREADS + 1), f"1..={_core.MAX_THREADS}", "got")
    refused(lambda: _core.SpriteRasterizer([], threads=_core.MAX_THREADS + 1), f"1..={_core.MAX_THREADS}")
    sim.world.set_threads(_core.MAX_THREADS)
    assert sim.world.threads == _core.MAX_THREADS


# --- hypothesis: every entry point, hostile arguments -------------------------------------------


@FAST
@given(
    stats=st.lists(WILD_FLOATS, min_size=7, max_size=7),
    strength=WILD_FLOATS,
    hp=st.tuples(WILD_FLOATS, WILD_FLOATS),
    position=st.tuples(WILD_FLOATS, WILD_FLOATS),
    wand=st.tuples(WILD_INTS, WILD_FLOATS, WILD_FLOATS),
    attunement=WILD_FLOATS,
    relic_ints=st.tuples(WILD_INTS, WILD_INTS, WILD_INTS),
    relic_floats=st.lists(WILD_FLOATS, min_size=5, max_size=5),
    threads=WILD_INTS,
)
def test_world_setters_refuse_or_keep_the_world_finite(
    stats: list[float], strength: float, hp: tuple[float, float], position: tuple[float, float],
    wand: tuple[int, float, float], attunement: float, relic_ints: tuple[int, int, int],
    relic_floats: list[float], threads: int,
) -> None:  # fmt: skip
    sim = fresh()
    w = sim.world
    names = [
        "max_hp_bonus",
        "armor",
        "move_speed_bonus",
        "crit_chance_bonus",
        "pickup_radius_bonus",
        "mana_regen_bonus",
        "mana_leech",
    ]
    clean(lambda: w.set_player_stats(_core.PlayerStats(**dict(zip(names, stats)))))
    assert all(math.isfinite(v) for v in w.player_stats().values())
    clean(lambda: w.set_strength(strength))
    clean(lambda: w.set_player_hp(*hp))
    clean(lambda: w.set_player_position(*position))
    clean(lambda: w.set_wand_stats(*wand))
    clean(lambda: w.set_attunement({"fire": attunement}))
    pen, first, hurt = relic_ints
    akabeko, boot, thorns, ward, turns = relic_floats
    clean(lambda: w.set_relic_rules(_core.RelicRules(pen_nib_period=pen, first_action_bonus=akabeko, damage_floor=boot,
        thorns=thorns, first_cast_budget=first, hurt_cast_budget=hurt, hurt_ward=ward, vulnerable_weak=turns)))  # fmt: skip
    clean(lambda: w.set_threads(threads))
    assert math.isfinite(w.strength) and all(math.isfinite(v) for v in w.player_hp())
    player_finite(sim)


@FAST
@given(rows=st.lists(st.tuples(st.integers(0, 12), WILD_FLOATS, WILD_FLOATS, WILD_FLOATS, WILD_FLOATS, WILD_FLOATS), min_size=1, max_size=8),
       n_commands=st.one_of(st.none(), WILD_INTS))  # fmt: skip
def test_commands_apply_all_or_nothing_and_keep_the_world_finite(
    rows: list[tuple[float, ...]], n_commands: int | None
) -> None:
    sim = fresh()
    for row in rows:
        sim.input.command(Op(1), 0, 0, 0, 0, 0)  # grow the buffer; overwritten next
        sim.input.commands[sim.input.n_commands - 1] = row
    if n_commands is not None:
        sim.input.n_commands = n_commands
    before = sim.state_hash()
    enemies = sim.world.enemy_count
    if clean(sim.step) is None:
        assert sim.state_hash() == before and sim.world.frame == 0 and sim.world.enemy_count == enemies, (
            "nothing applied"
        )
        sim.input.clear()
    player_finite(sim)


@FAST
@given(kind=WILD_INTS, xs=st.lists(WILD_FLOATS, max_size=6), elite=st.booleans())
def test_spawn_enemies_is_all_or_nothing(kind: int, xs: list[float], elite: bool) -> None:
    sim = fresh()
    x = np.array(xs, np.float32)
    y = np.full(len(xs), 50.0, np.float32)
    n = clean(lambda: sim.world.spawn_enemies(kind, x, y, elite))
    assert sim.world.enemy_count == (0 if n is None else len(xs))
    player_finite(sim)


@FAST
@given(values=st.lists(WILD_FLOATS, min_size=4, max_size=4), radius=WILD_FLOATS, damage=WILD_FLOATS, pierce=WILD_INTS)
def test_spawn_projectiles_is_all_or_nothing(values: list[float], radius: float, damage: float, pierce: int) -> None:
    sim = fresh()
    x, y, vx, vy = (np.array([v, 100.0], np.float32) for v in values)
    n = clean(lambda: sim.world.spawn_projectiles(x, y, vx, vy, radius, damage, pierce))
    assert sim.world.projectile_count == (0 if n is None else 2)
    player_finite(sim)


DTYPES = st.sampled_from([np.uint8, np.int32, np.float32, np.float64, np.int64, np.bool_])


@st.composite
def arrays(draw: st.DrawFn, max_dims: int = 3) -> Any:
    shape = tuple(draw(st.lists(st.integers(0, 6), min_size=0, max_size=max_dims)))
    array: Any = np.zeros(shape, draw(DTYPES))
    if draw(st.booleans()) and array.ndim >= 1 and array.shape[-1] > 1:
        array = array[..., ::2]  # a non-contiguous view
    return array


@FAST
@given(
    sprites=st.lists(arrays(), max_size=3),
    threads=WILD_INTS,
    pixels=st.one_of(arrays(max_dims=2), st.integers(0, 4096).map(lambda n: np.zeros(n, np.uint8))),
    size=st.tuples(WILD_INTS, WILD_INTS),
    pitch=WILD_INTS,
    masks=st.one_of(st.just(XRGB), st.tuples(WILD_INTS, WILD_INTS, WILD_INTS, WILD_INTS)),
    offset=st.tuples(WILD_FLOATS, WILD_FLOATS),
    rows=st.one_of(arrays(max_dims=2), st.lists(WILD_FLOATS, min_size=2, max_size=8).map(lambda v: np.array(v[: len(v) // 2 * 2], np.float32).reshape(-1, 2))),
    sprite=st.one_of(WILD_INTS, arrays(max_dims=1)),
)  # fmt: skip
def test_the_rasterizer_refuses_or_draws(sprites: list[Any], threads: int, pixels: Any, size: tuple[int, int], pitch: int,
                                         masks: tuple[int, int, int, int], offset: tuple[float, float], rows: Any, sprite: Any) -> None:  # fmt: skip
    made = clean(lambda: _core.SpriteRasterizer(sprites, threads=threads))
    r = made if made is not None else _core.SpriteRasterizer([np.full((3, 3, 4), 255, np.uint8)])
    clean(lambda: _core.SpriteRasterizer.supports(4, masks))
    clean(lambda: r.draw(pixels, size, pitch, masks, offset, [(rows, sprite)]))


SENSES = st.fixed_dictionaries(
    {}, optional={"moving": st.booleans(), "hp": WILD_FLOATS, "hp_max": WILD_FLOATS, "nearest_enemy": WILD_FLOATS}
)


@FAST
@given(cpu=WILD_INTS, senses=SENSES, mana=st.one_of(st.none(), WILD_FLOATS), seed=WILD_INTS, wait=WILD_FLOATS)
def test_the_catalog_and_the_sandbox_refuse_or_answer_finite(
    cpu: int, senses: dict[str, Any], mana: float | None, seed: int, wait: float
) -> None:
    core, cards = core_data(STARTER), place(STARTER, ["damage_plus", "spark_bolt"])
    clean(lambda: CATALOG.compile(core, cards, cpu=cpu))
    timeline = clean(lambda: CATALOG.timeline(core, cards, cpu=cpu, **senses))
    if timeline is not None:
        assert all(math.isfinite(c["mana"]) for c in timeline["casts"])
    sandbox = clean(lambda: CATALOG.sandbox(core, cards, mana, seed))
    if sandbox is not None:
        clean(lambda: sandbox.wait(wait))
        cast = clean(lambda: sandbox.cast(**senses))
        if cast is not None:
            assert math.isfinite(cast["hp_after"]) and math.isfinite(cast["mana_after"])
            assert all(math.isfinite(f["damage"]) for f in cast["fired"])


SPELL_FIELDS = [("action", "damage"), ("action", "speed"), ("action", "radius"), ("action", "lifetime"), ("action", "pierce"),
                (None, "mana_cost"), (None, "cast_delay"), (None, "cpu")]  # fmt: skip


@FAST
@given(
    which=st.integers(0, len(CONTENT.spells) - 1),
    field=st.sampled_from(SPELL_FIELDS),
    value=st.one_of(WILD_FLOATS, WILD_INTS),
)
def test_a_catalog_with_a_wild_number_is_refused_or_casts(
    which: int, field: tuple[str | None, str], value: float
) -> None:
    spells = [s.model_dump(mode="json", by_alias=True) for s in CONTENT.spells]
    block, key = field
    target = spells[which] if block is None else spells[which].get(block)
    if target is None:
        return
    target[key] = value
    catalog = clean(lambda: _core.Catalog(spells, [], VM))
    if catalog is not None:
        sandbox = clean(
            lambda: catalog.sandbox(core_data(STARTER), place(STARTER, [spells[which]["id"], "spark_bolt"]))
        )
        if sandbox is not None:
            clean(sandbox.cast)


CONFIG_FIELDS = [("arena", "width"), ("sim", "tick_hz"), ("player", "move_speed"), ("player", "max_hp"), ("player", "dash_speed"),
                 ("pickups", "magnet_speed"), ("elite", "hp_multiplier"), ("enemies", "hp"), ("enemies", "speed"), ("enemies", "reward")]  # fmt: skip
BASE_CONFIG = world_config(CONTENT)


@FAST
@given(field=st.sampled_from(CONFIG_FIELDS), value=st.one_of(WILD_FLOATS, WILD_INTS), seed=WILD_INTS)
def test_a_config_with_a_wild_number_is_refused_or_runs(field: tuple[str, str], value: float, seed: int) -> None:
    config = copy.deepcopy(BASE_CONFIG)
    section, key = field
    (config[section][0] if section == "enemies" else config[section])[key] = value
    world = clean(lambda: _core.World(config, seed))
    if world is not None:
        sim = fresh()
        sim.world = world
        sim.world.spawn_enemies(0, np.array([30.0], np.float32), np.array([30.0], np.float32))
        player_finite(sim)


@FAST
@given(
    extra_edges=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=4),
    main=st.integers(0, 6),
    cards=st.lists(st.sampled_from([None, "spark_bolt", "damage_plus", "double_cast"]), max_size=5),
)
def test_random_boards_are_refused_or_compile(
    extra_edges: list[tuple[int, int]], main: int, cards: list[str | None]
) -> None:
    data = core_data(STARTER)
    board = data["board"]
    board["edges"] += [[f"s{a}", f"s{b}"] for a, b in extra_edges]
    board["entries"]["main"] = f"s{main}"
    clean(lambda: CATALOG.compile(data, cards))


@pytest.mark.parametrize("telegraph", [0.3, 0.0, -1.0, float("nan"), 10.0])
def test_r_boss_3_the_core_refuses_a_wind_up_out_of_range_itself(telegraph: float) -> None:
    """R-BOSS-3: content refuses a telegraph under half a second first, but a config that skips content
    is refused by the core too — one line naming the kind and the rule, never a panic."""
    config = world_config(CONTENT)
    boss = next(i for i, enemy in enumerate(config["enemies"]) if enemy.get("boss"))
    config["enemies"][boss]["boss"]["telegraph"] = telegraph
    words = ("boss.telegraph", "finite") if math.isnan(telegraph) else ("telegraph must be 0.5 to 3 s (R-BOSS-3)",)
    message = refused(lambda: _core.World(config, 1), *words)
    assert message.count("\n") == 0
    del config["enemies"][boss]["boss"]["telegraph"]
    refused(lambda: _core.World(config, 1), f"config.enemies[{boss}].boss.telegraph: missing")
