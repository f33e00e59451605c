"""The spell VM inside `world.step` (R-VM-3/4/5, R-MANA-*): the three build
examples of GAME_RULES §3.8 end to end — what spawns, where, when, and the
heal — plus the mana HUD value and the events the VM reports."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from artificer.content import load_content
from artificer.engine import EventKind, Simulation
from artificer.engine import events as ev

CONTENT = load_content()
RANGE = {"player_fixed": True, "player_invulnerable": True, "enemies_immortal": True}


def range_sim(core: str, cards: list[str], dummies: list[tuple[float, float]]) -> Simulation:
    """The training range: a still, untouchable player and immortal dummies."""
    sim = Simulation(CONTENT, seed=9, rules=RANGE)
    sim.arm_wand(core, cards)
    sim.world.begin_wave()
    grunt = CONTENT.enemy_index("grunt")
    for x, y in dummies:
        sim.input.spawn(grunt, x, y)
    return sim


def run(sim: Simulation, frames: int, aim: tuple[float, float] | None = None) -> list[np.ndarray]:
    """Steps `frames` frames; with `aim`, the player aims there (mouse aim: the wand fires
    whatever the distance) instead of auto-aiming within its reach."""
    log = []
    for _ in range(frames):
        if aim is not None:
            sim.input.aim_at(*aim)
        sim.step()
        log.append(sim.buffers.event_rows().copy())
    return log


def test_shotgun_puts_three_bolts_in_the_air_at_once() -> None:
    """§3.8 Shotgun through world.step: one cast, three projectiles."""
    sim = range_sim(
        "starter_wand", ["triple_cast", "spread_mod", "spark_bolt", "spark_bolt", "spark_bolt"], [(1600, 800)]
    )
    log = run(sim, 2)
    fired = sum(ev.count(rows, EventKind.PROJECTILE_FIRED) for rows in log)
    assert fired == 3
    assert sim.buffers.counts.projectiles == 3
    vel = sim.buffers.projectile_rows()[:, 4:6]
    angles = np.degrees(np.arctan2(vel[:, 1], vel[:, 0]))
    assert angles.max() - angles.min() > 10.0, angles


def test_nuke_delivery_stops_after_one_second_and_detonates_there() -> None:
    """§3.8 Nuke delivery: the carrier flies; after 1 s its timer runs out
    (R-VM-4) and the nuke appears where the carrier was, standing still
    (speed zero), and blasts there."""
    cards = ["trigger_timer_long", "speed_zero", "damage_plus", "damage_plus", "nuke"]
    sim = range_sim("siege_core", cards, [(2300, 800)])
    log = run(sim, 400, aim=(2300, 800))  # beyond auto-aim's reach
    fired_at = next(i for i, rows in enumerate(log) if ev.count(rows, EventKind.PROJECTILE_FIRED))
    trigger_at = next(i for i, rows in enumerate(log) if ev.count(rows, EventKind.TRIGGER_FIRED))
    assert trigger_at - fired_at == pytest.approx(60, abs=2), "the timer runs 1 s"
    trigger = log[trigger_at][log[trigger_at][:, 0] == EventKind.TRIGGER_FIRED][0]
    blast_at = next(i for i, rows in enumerate(log) if ev.count(rows, EventKind.EXPLODED))
    blast = log[blast_at][log[blast_at][:, 0] == EventKind.EXPLODED][0]
    assert blast_at > trigger_at
    assert np.hypot(blast[3] - trigger[3], blast[4] - trigger[4]) < 1.0, (
        "the nuke stood still where the carrier stopped"
    )
    start_x = sim.content.balance.arena.width / 2
    assert trigger[3] > start_x + 200, "the carrier flew toward the target first"


def test_vampire_turret_grows_a_turret_where_the_carrier_hits_and_heals() -> None:
    """§3.8 Vampire turret: a turret appears where the carrier strikes; its
    chain lightning strikes enemies and the damage heals the player. On
    siege_core, whose pool pays it (§3.8, R-MANA-5: the trigger pays for the
    turret up front, the turret's casts draw the pool at its share)."""
    cards = ["trigger_on_hit", "summon_turret", "trigger_on_hit", "chain_bolt", "vampiric"]
    sim = range_sim("siege_core", cards, [])
    # Get hurt first: one grunt on the player while it can be hit, then gone.
    sim.world.set_rules({"player_fixed": True, "enemies_immortal": True})
    sim.step()
    px, py = sim.buffers.player_value("x"), sim.buffers.player_value("y")
    sim.input.spawn(CONTENT.enemy_index("grunt"), px, py)
    sim.step()
    sim.input.clear_enemies()
    sim.step()
    sim.world.set_rules(RANGE)
    hurt = sim.buffers.player_value("hp")
    assert hurt < sim.buffers.player_value("hp_max")
    for x, y in [(1500, 800), (1540, 830), (1560, 770)]:
        sim.input.spawn(CONTENT.enemy_index("grunt"), x, y)
    log = run(sim, 300)
    planted = np.concatenate([rows[rows[:, 0] == EventKind.SUMMON_SPAWNED] for rows in log])
    assert len(planted) >= 1, "the carrier's hit plants a turret"
    frame = next(rows for rows in log if ev.count(rows, EventKind.SUMMON_SPAWNED))
    struck = frame[frame[:, 0] == EventKind.TRIGGER_FIRED]
    assert min(np.hypot(t[3] - planted[0][3], t[4] - planted[0][4]) for t in struck) < 1.0, (
        "the turret stands where the carrier struck"
    )
    assert planted[0][3] > px + 50, "out among the grunts, not at the player"
    assert sum(ev.count(rows, EventKind.TRIGGER_FIRED) for rows in log) >= 2
    assert sim.buffers.player_value("hp") > hurt, "the turret's chain lightning heals the player"


def test_mana_bar_follows_the_pool() -> None:
    """R-MANA-9 (5): the HUD's mana value (player buffer) follows the pool."""
    sim = range_sim("starter_wand", ["damage_plus", "spark_bolt"], [(1500, 800)])
    sim.step()
    assert sim.buffers.player_value("mana") == pytest.approx(80.0, abs=0.2)
    assert sim.buffers.player_value("mana_max") == 100.0
    values = []
    for _ in range(30):
        sim.step()
        values.append(sim.buffers.player_value("mana"))
    assert max(values) > min(values)


def test_an_unaffordable_cast_is_reported_and_fires_nothing() -> None:
    """R-MANA-7 + R-MANA-6: nuke on the starter pool is abandoned every cast."""
    sim = range_sim("starter_wand", ["nuke"], [(1500, 800)])
    log = run(sim, 30)
    assert sum(ev.count(rows, EventKind.CAST_ABANDONED) for rows in log) >= 1
    assert sum(ev.count(rows, EventKind.PROJECTILE_FIRED) for rows in log) == 0


def test_wand_runs_are_deterministic() -> None:
    """R-DET-1 with the VM: same seed and inputs, same state hash."""
    hashes = []
    for _ in range(2):
        sim = range_sim("forked_core", ["spark_bolt"], [(1500, 800), (1000, 500)])
        run(sim, 300)
        hashes.append(sim.state_hash())
    assert hashes[0] == hashes[1]


def test_training_range_measures_real_damage() -> None:
    """R-LAB-1: the range's dummies stand still and take every hit; a plain
    spark bolt at a defenceless dummy deals its damage per hit."""
    from artificer.game.training import TrainingRange

    report = TrainingRange(CONTENT, "starter_wand", ["spark_bolt"]).run(5.0)
    spark = CONTENT.spell("spark_bolt").action
    assert spark is not None
    assert report.hits > 0 and report.casts > 0
    crit = CONTENT.balance.player.crit_multiplier  # a few hits crit
    assert report.hits * spark.damage <= report.damage <= report.hits * spark.damage * crit
    assert report.dps == pytest.approx(report.damage / report.seconds)


def test_starting_wand_and_dummy_are_cross_checked(tmp_path: object) -> None:
    """Content names a core, spells and an enemy that exist (one problem each)."""
    import json
    import shutil
    from pathlib import Path

    from artificer.content import DEFAULT_DATA_DIR, ContentError

    data = Path(str(tmp_path)) / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    balance = json.loads((data / "balance.json").read_text())
    balance["starting_wand"]["cards"] = ["spark_bolt", "fizzle"]
    balance["training_range"]["dummy"] = "scarecrow"
    (data / "balance.json").write_text(json.dumps(balance))
    with pytest.raises(ContentError) as err:
        load_content(data)
    lines = [str(p) for p in err.value.problems]
    assert any("$.starting_wand.cards[1]" in line and "fizzle" in line for line in lines), lines
    assert any("$.training_range.dummy" in line and "scarecrow" in line for line in lines), lines


PLAYABLE = [s.id for s in CONTENT.spells if not s.debug_only]


@st.composite
def boards(draw: st.DrawFn) -> tuple[str, list[str | None]]:
    core = draw(st.sampled_from([c.id for c in CONTENT.cores]))
    slots = CONTENT.core(core).capacity
    return core, draw(st.lists(st.one_of(st.none(), st.sampled_from(PLAYABLE)), min_size=slots, max_size=slots))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=boards(), seed=st.integers(0, 2**32))
def test_any_wand_in_the_world_replays_and_keeps_mana_and_hp_in_bounds(
    board: tuple[str, list[str | None]], seed: int
) -> None:
    """R-DET-1, R-MANA-3, R-CORE-4 through world.step: a random wand fights a
    small pack for 2 s twice — same seed, same state hash; mana never
    below 0; the player never below 1 HP by paying for spells."""
    core, cards = board

    def fight() -> tuple[int, float, float]:
        sim = Simulation(CONTENT, seed, rules={"player_invulnerable": True})
        sim.arm_wand(core, cards)
        sim.world.begin_wave()
        for i in range(12):
            sim.input.spawn(i % 3, 900.0 + 40 * i, 500.0)
        low_mana, low_hp = float("inf"), float("inf")
        for _ in range(120):
            sim.input.move(0.3, -0.2)
            sim.step()
            low_mana = min(low_mana, sim.buffers.player_value("mana"))
            low_hp = min(low_hp, sim.buffers.player_value("hp"))
        return sim.state_hash(), low_mana, low_hp

    first, second = fight(), fight()
    assert first == second
    assert first[1] >= 0.0 and first[2] >= 1.0


def test_a_wand_without_an_action_cannot_start_a_wave() -> None:
    """R-VM-2: "The wand cannot fire! It needs at least one action spell."."""
    from artificer.game.run import Run, WandCannotFire
    from artificer.sim.bot import KitingBot

    run = Run(CONTENT, seed=1)
    assert not run.arm("starter_wand", ["damage_plus", "if_moving"])["can_fire"]
    with pytest.raises(WandCannotFire, match="needs at least one action"):
        run.play_wave(1, KitingBot())


def test_mana_leech_restores_mana_per_kill() -> None:
    """R-MANA-8: each kill restores `mana_leech` mana — in the same fight
    with and without leech, the frame of the kill ends with that much more."""
    from artificer import _core
    from artificer.engine import world_config

    def fight(leech: float) -> tuple[float, int]:
        sim = Simulation(CONTENT, seed=1)
        config = world_config(CONTENT)
        config["player"]["mana_leech"] = leech
        sim.world = _core.World(config, 1)
        sim.arm_wand("starter_wand", ["spark_bolt"])
        sim.world.begin_wave()
        sim.step()
        x, y = sim.buffers.player_value("x"), sim.buffers.player_value("y")
        sim.input.spawn(CONTENT.enemy_index("swarmer"), x + 60, y)
        for _ in range(90):
            sim.step()
            if ev.count(sim.buffers.event_rows(), EventKind.ENEMY_KILLED):
                return sim.buffers.player_value("mana"), sim.world.frame
        raise AssertionError("the swarmer was never killed")

    (plain, frame), (leeching, same_frame) = fight(0.0), fight(7.0)
    assert frame == same_frame
    mana_max = CONTENT.core("starter_wand").mana_max
    assert leeching == pytest.approx(min(plain + 7.0, mana_max), abs=1e-3)  # capped at max (R-MANA-1)


def test_on_kill_and_on_hit_entries_run_where_they_should() -> None:
    """R-CORE-2: `on_kill` runs at each kill (at most once per 0.1 s) and
    `on_hit` runs at the player when the player is hit; each pays."""
    cards = {"m0": "spark_bolt", "k0": "fireball", "h0": "spark_bolt"}
    sim = Simulation(CONTENT, seed=4, rules={"player_fixed": True})
    sim.arm_wand("reactive_core", cards)
    sim.world.begin_wave()
    sim.step()
    x, y = sim.buffers.player_value("x"), sim.buffers.player_value("y")
    swarmer = CONTENT.enemy_index("swarmer")
    sim.input.spawn(swarmer, x + 150, y)
    fireball = CONTENT.spell_index("fireball")
    spark = CONTENT.spell_index("spark_bolt")
    kill_at, fireball_at = None, None
    for _ in range(120):
        sim.step()
        rows = sim.buffers.event_rows()
        killed = rows[rows[:, 0] == EventKind.ENEMY_KILLED]
        if len(killed) and kill_at is None:
            kill_at = (killed[0][3], killed[0][4])
            fired = rows[(rows[:, 0] == EventKind.PROJECTILE_FIRED) & (rows[:, 1] == fireball)]
            if len(fired):
                fireball_at = (fired[0][3], fired[0][4])
    assert kill_at is not None and fireball_at is not None, "the on_kill entry fired a fireball"
    assert np.hypot(kill_at[0] - fireball_at[0], kill_at[1] - fireball_at[1]) < 1.0, "…at the kill"

    sim.input.spawn(CONTENT.enemy_index("brute"), x + 5, y)  # tough enough to outlive the main spark
    for _ in range(3):
        sim.step()
        rows = sim.buffers.event_rows()
        if ev.count(rows, EventKind.PLAYER_DAMAGED):
            fired = rows[(rows[:, 0] == EventKind.PROJECTILE_FIRED) & (rows[:, 1] == spark)]
            assert len(fired) >= 1, "the on_hit entry fired at the player's position"
            assert np.hypot(fired[-1][3] - x, fired[-1][4] - y) < 1.0
            break
    else:
        raise AssertionError("the brute never touched the player")


def test_switching_cores_clamps_mana_into_the_new_pool() -> None:
    """R-MANA-1: a new wave starts full; switching cores keeps the mana,
    clamped into the new core's [0, max]."""
    sim = Simulation(CONTENT, seed=2, rules=RANGE)
    sim.arm_wand("siege_core", ["spark_bolt"])
    sim.world.begin_wave()
    sim.input.aim_at(0.0, 0.0)
    sim.step()
    spark = CONTENT.spell("spark_bolt").mana_cost  # one cast fired this frame
    big = CONTENT.core("siege_core").mana_max
    assert sim.buffers.player_value("mana") == pytest.approx(big - spark, abs=0.5)
    sim.arm_wand("quickdraw_core", ["spark_bolt"])
    sim.step()
    small = CONTENT.core("quickdraw_core").mana_max
    assert sim.buffers.player_value("mana_max") == small
    assert sim.buffers.player_value("mana") <= small
    sim.world.begin_wave()
    sim.input.aim_at(0.0, 0.0)
    sim.step()
    assert sim.buffers.player_value("mana") == pytest.approx(small - spark, abs=0.5)


def test_resonance_is_hidden_until_it_fuses_in_a_fight() -> None:
    """R-RES-2: the codex shows only the hint until the recipe first fuses
    in a wave the player fights; then the full entry, for good."""
    from artificer.game.codex import Codex, Discoveries
    from artificer.game.meta import Section

    codex = Codex(CONTENT)
    hidden = codex.page("plasma_storm")
    assert not hidden.discovered and hidden.text == CONTENT.text("recipe.plasma_storm.hint")
    sim = range_sim("siege_core", ["water_wave", "chain_bolt"], [(1500, 800)])
    found = Discoveries(CONTENT)
    learned = []
    for _ in range(30):
        sim.step()
        learned += [
            entry for section, entry in found.observe_events(sim.buffers.event_rows()) if section is Section.RECIPES
        ]
    assert learned == ["plasma_storm"]
    page = Codex(CONTENT, found.record(codex.meta)).page("plasma_storm")
    assert page.discovered and "Plasma Storm" in page.title and "→" in page.text


def test_cast_speed_and_cpu_stats_reach_the_wand() -> None:
    """R-STAT-1 → R-VM-11: cast speed shortens the delay between casts;
    → R-VM-8: the CPU stat raises the step budget (a long loop that ran out
    of steps finishes); bad stats are refused."""
    from artificer import CoreArgumentError

    def casts_in(seconds: float, cast_speed: float) -> int:
        sim = range_sim("siege_core", ["spark_bolt"], [(1500, 800)])  # a big pool: delay-bound
        sim.world.set_wand_stats(0, cast_speed, 0.0)
        fired = 0
        for _ in range(round(seconds * 60)):
            sim.step()
            fired += ev.count(sim.buffers.event_rows(), EventKind.CAST_FIRED)
        return fired

    assert casts_in(2.0, 0.5) > casts_in(2.0, 0.0)
    sim = range_sim("starter_wand", ["spark_bolt"], [])
    with pytest.raises(CoreArgumentError):
        sim.world.set_wand_stats(-1, 0.0, 0.0)


def charge_states(moves: list[tuple[int, bool]]) -> list[int]:
    """Charge events over a script of (frames, moving) segments."""
    sim = Simulation(
        CONTENT, seed=6, rules={"player_invulnerable": True, "enemies_immortal": True, "enemies_still": True}
    )
    sim.arm_wand("siege_core", ["gravity_singularity"])
    sim.world.begin_wave()
    # A dummy within auto-aim's reach of the player (the arena's centre) and still within it
    # while the player moves down, so the wand keeps firing.
    reach = CONTENT.balance.player.auto_aim_range
    sim.input.spawn(CONTENT.enemy_index("grunt"), CONTENT.balance.arena.width / 2 + 0.5 * reach, 800 + 0.6 * reach)
    states = []
    for frames, moving in moves:
        for _ in range(frames):
            if moving:
                sim.input.move(0.0, 1.0)
            sim.step()
            rows = sim.buffers.event_rows()
            states += [int(r[1]) for r in rows[rows[:, 0] == EventKind.CHARGE_STATE_CHANGED]]
    return states


def test_charge_spell_charges_when_still_and_releases_on_moving() -> None:
    """R-MOVE-3: the ring shows 0.3 s after stopping, is full at 1.5 s; the
    first cast after moving again releases the overload. (A one-card deck wraps every cast, so
    its cycle is the core's delay, the card's and the recharge: 1.25 s on siege_core.)"""
    assert charge_states([(100, False), (90, True)]) == [1, 2, 3]


def test_moving_before_full_resets_the_charge() -> None:
    """R-MOVE-3: moving before the charge is full resets it (the ring vanishes)."""
    assert charge_states([(40, False), (10, True)]) == [1, 0]


def test_dash_wave_core_casts_its_spell_along_the_dash_on_a_cooldown() -> None:
    """R-MOVE-2: a dash on the dash-wave core casts its extra spell along
    the dash, outside the main program, at most once per its cooldown."""
    core = CONTENT.core("stormstep_core")
    assert core.dash_wave is not None
    wave_spell = CONTENT.spell_index(core.dash_wave.spell)
    sim = Simulation(CONTENT, seed=8, rules={"player_invulnerable": True})
    sim.arm_wand("stormstep_core", ["if_moving", "halt"])  # a main program that fires nothing
    sim.world.begin_wave()
    waves = []
    dash_cooldown = CONTENT.balance.player.dash_cooldown
    for frame in range(round(max(core.dash_wave.cooldown, dash_cooldown) * 60) * 2 + 30):
        sim.input.move(1.0, 0.0)
        sim.input.dash()
        sim.step()
        rows = sim.buffers.event_rows()
        fired = rows[(rows[:, 0] == EventKind.PROJECTILE_FIRED) & (rows[:, 1] == wave_spell)]
        waves += [frame] * len(fired)
    assert len(waves) >= 2, waves
    gaps = np.diff(waves) / 60.0
    assert (gaps >= core.dash_wave.cooldown - 1e-6).all(), gaps


def test_knockback_shoves_the_struck_enemy_along_the_shot() -> None:
    """R-VM-10 knockback: a hit pushes its dummy back along the shot."""

    def dummy_x(cards: list[str]) -> float:
        sim = range_sim("siege_core", cards, [])
        sim.world.set_rules({**RANGE, "enemies_still": True})
        x, y = CONTENT.balance.arena.width / 2, CONTENT.balance.arena.height / 2
        sim.input.spawn(CONTENT.enemy_index("brute"), x + 200, y)
        run(sim, 40)
        return float(sim.buffers.enemy_rows()[0][0])

    plain, shoved = dummy_x(["spark_bolt"]), dummy_x(["knockback_plus", "spark_bolt"])
    assert shoved - plain > 10.0


@pytest.mark.parametrize("moving", [False, True])
def test_moving_bonus_spells_hit_harder_while_the_player_moves(moving: bool) -> None:
    """R-MOVE-1: `electro_dash_bolt` deals ×1.5 while the player moves (hits read from ENEMY_HIT events)."""
    sim = Simulation(
        CONTENT,
        seed=9,
        rules={"player_invulnerable": True, "enemies_immortal": True, "enemies_still": True, "hit_events": True},
    )
    sim.arm_wand("starter_wand", ["electro_dash_bolt"])
    sim.world.begin_wave()
    if moving:
        sim.input.move(0.0, 0.2)  # the first cast goes off on this very step
    sim.step()
    px, py = sim.buffers.player_value("x"), sim.buffers.player_value("y")
    sim.input.spawn(CONTENT.enemy_index("grunt"), px + 160.0, py)
    hits: list[float] = []
    for _ in range(90):
        if moving:
            sim.input.move(0.0, 0.2 if len(hits) % 2 == 0 else -0.2)  # dither up and down: moving, staying in line
        sim.step()
        rows = sim.buffers.event_rows()
        hits += rows[rows[:, 0] == EventKind.ENEMY_HIT, 5].tolist()
    base = next(s for s in CONTENT.spells if s.id == "electro_dash_bolt").action
    assert base is not None and hits
    expected = base.damage * (1.5 if moving else 1.0)
    # Crits double some hits; every hit is the (multiplied) base or its crit.
    assert set(round(h, 3) for h in hits) <= {
        round(expected, 3),
        round(expected * CONTENT.balance.player.crit_multiplier, 3),
    }
    assert round(expected, 3) in {round(h, 3) for h in hits}


def test_r_core_4_persistent_memory_keeps_its_cursor_across_a_core_switch() -> None:
    """R-CORE-4: a persistent_memory core keeps its cursor across a switch to another core
    and back; the same core with a changed board starts over at the head (R-VM-3: recompile)."""
    deck = ["spark_bolt", "ice_shard", "acid_spray", "heavy_shot"]
    sim = range_sim("persistent_memory", deck, [(1500, 800)])
    casts = 0
    while casts < 2:
        sim.step()
        casts += ev.count(sim.buffers.event_rows(), EventKind.CAST_FIRED)
    memory = sim.world.wand_memory()
    assert memory is not None and memory[0] != 0, "the cursor moved on"
    sim.arm_wand("starter_wand", ["spark_bolt"])
    sim.arm_wand("persistent_memory", deck)
    assert sim.world.wand_memory() == memory, "back on the same board: where it was"
    sim.arm_wand("persistent_memory", list(reversed(deck)))
    changed = sim.world.wand_memory()
    assert changed is not None and changed[0] == 0, "a changed board starts at the head"
