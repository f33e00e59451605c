"""R-LOOP-2 auto-aim through `world.step`: the wand fires at the nearest enemy within
`player.auto_aim_range`, holds its fire (and its mana) with nothing in reach, and does not
spend shots on an enemy its shots in flight will already kill."""

from __future__ import annotations

import numpy as np

from artificer.content import load_content
from artificer.engine import EventKind, Simulation
from artificer.engine import events as ev

CONTENT = load_content()
REACH = CONTENT.balance.player.auto_aim_range
STILL = {"player_fixed": True, "player_invulnerable": True, "enemies_still": True}


def armed(rules: dict[str, bool], cards: list[str | None] | None = None) -> tuple[Simulation, float, float]:
    sim = Simulation(CONTENT, seed=3, rules=rules)
    sim.arm_wand("starter_wand", cards or ["spark_bolt", "spark_bolt", "spark_bolt"])
    sim.world.begin_wave()
    sim.step()
    return sim, sim.buffers.player_value("x"), sim.buffers.player_value("y")


def shots(sim: Simulation, frames: int) -> tuple[int, int]:
    """(player shots fired, hits) over `frames` frames."""
    fired = hits = 0
    for _ in range(frames):
        sim.step()
        rows = sim.buffers.event_rows()
        mine = rows[(rows[:, ev.KIND] == EventKind.PROJECTILE_FIRED) & (rows[:, ev.B] == 0)]
        fired += len(mine)
        hits += sim.buffers.counts.hits
    return fired, hits


def test_the_wand_holds_its_fire_and_its_mana_while_nothing_is_in_reach() -> None:
    """R-LOOP-2: an enemy beyond the reach is not shot at; mana stays full. Once one
    walks into reach, the wand fires."""
    sim, x, y = armed(STILL)
    sim.input.spawn(CONTENT.enemy_index("brute"), x + REACH + 100, y)
    fired, _ = shots(sim, 120)
    assert fired == 0
    assert sim.buffers.player_value("mana") == sim.buffers.player_value("mana_max")
    sim.input.spawn(CONTENT.enemy_index("brute"), x + REACH / 2, y)
    fired, hits = shots(sim, 60)
    assert fired > 0 and hits > 0


def test_no_shot_is_spent_on_an_enemy_already_as_good_as_dead() -> None:
    """Two swarmers a spark each kills: the wand fires one spark at each and holds while
    they fly — not a third spark at a swarmer a spark in flight will kill."""
    spark = CONTENT.spell("spark_bolt").action
    swarmer = CONTENT.enemy("swarmer")
    assert spark is not None and spark.damage >= swarmer.hp, "the test needs a spark to kill a swarmer"
    sim, x, y = armed(STILL)
    for dy in (-60, 60):
        sim.input.spawn(CONTENT.enemy_index("swarmer"), x + REACH * 0.8, y + dy)
    fired, hits = shots(sim, 150)
    assert (fired, hits) == (2, 2)
    assert sim.buffers.counts.enemies == 0


def test_auto_aim_keeps_the_same_seed_same_hash() -> None:
    """R-DET-1: claims and leads are part of the state; the same inputs give the same hash."""

    def hashed() -> int:
        sim, x, y = armed({"player_invulnerable": True})
        rng = np.random.default_rng(5)
        for _ in range(20):
            sim.input.spawn(
                CONTENT.enemy_index("swarmer"), x + float(rng.uniform(-500, 500)), y + float(rng.uniform(-400, 400))
            )
        for frame in range(300):
            sim.input.move(1.0 if frame % 100 < 50 else -1.0, 0.3)
            sim.step()
        return sim.state_hash()

    assert hashed() == hashed()
