"""R-VM-10 `orbit` as a player sees it, through the shipped catalog and `World.step`: the
shop's orbit_path makes the spark bolts after it circle the player on its ring instead of
flying off, strike the enemies around the player, and follow the player as they walk.
A plain spark bolt under the same aim is the control."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from pydantic import ValidationError

from artificer import CoreArgumentError, _core
from artificer.content import ModifierBlock, load_content
from artificer.engine import EventKind, Simulation
from artificer.engine import events as ev
from artificer.engine.frame import PROJECTILE_FIELDS

CONTENT = load_content()
ORBIT = ["orbit_path", "spark_bolt"]
STILL = {"player_fixed": True, "player_invulnerable": True, "enemies_immortal": True}
WALKING = {"player_invulnerable": True, "enemies_immortal": True}
X, Y = PROJECTILE_FIELDS.index("x"), PROJECTILE_FIELDS.index("y")


def ring_radius() -> float:
    modifier = CONTENT.spell("orbit_path").modifier
    assert modifier is not None and modifier.orbit is not None
    return modifier.orbit.radius


def sim_with(cards: list[str], rules: dict[str, bool], dummies: Sequence[tuple[float, float]] = ()) -> Simulation:
    """A wand of `cards` on the starter core; still grunts (immortal) at `dummies`."""
    sim = Simulation(CONTENT, seed=3, rules={**rules, "enemies_still": True})
    sim.arm_wand("starter_wand", cards)
    sim.world.begin_wave()
    grunt = CONTENT.enemy_index("grunt")
    for x, y in dummies:
        sim.input.spawn(grunt, x, y)
    return sim


def player(sim: Simulation) -> np.ndarray:
    return np.array(sim.world.player_position())


def offsets(sim: Simulation) -> np.ndarray:
    """Each shot's offset from the player, this frame."""
    rows = sim.buffers.projectile_rows()
    shots: np.ndarray = rows[:, [X, Y]] - player(sim)
    return shots


def fly(sim: Simulation, frames: int, walk: tuple[float, float] = (0.0, 0.0)) -> list[np.ndarray]:
    """Steps `frames` frames aiming to the right of the player (mouse aim), walking by `walk`."""
    seen = []
    for _ in range(frames):
        x, y = player(sim)
        sim.input.aim_at(x + 300.0, y)
        sim.input.move(*walk)
        sim.step()
        seen.append(offsets(sim))
    return seen


def test_orbit_shots_stay_in_a_band_around_the_player_and_circle_it() -> None:
    ring = ring_radius()
    sim = sim_with(ORBIT, STILL)
    seen = fly(sim, 180)
    shots = np.concatenate(seen)
    assert len(shots) > 300, "the wand kept casting"
    distance = np.hypot(shots[:, 0], shots[:, 1])
    assert distance.max() <= ring + 0.5, f"no shot leaves the ring: {distance.max():.1f} px"
    on_ring = np.abs(distance - ring) < 0.5
    assert on_ring.mean() > 0.8, "after the short flight out, every shot is on the ring"
    # Round the player: the shots on the ring are seen on every side of it, not only the aim's.
    angles = np.degrees(np.arctan2(shots[on_ring, 1], shots[on_ring, 0])) % 360
    assert np.histogram(angles, bins=8, range=(0, 360))[0].min() > 0, "all the way round"
    straight = np.concatenate(fly(sim_with(["spark_bolt"], STILL), 60))
    assert np.hypot(straight[:, 0], straight[:, 1]).max() > 3 * ring, "the control flies off"


def test_orbit_shots_strike_enemies_beside_and_behind_the_player() -> None:
    ring = ring_radius()
    cx, cy = player(sim_with(ORBIT, STILL))
    # A quarter, a half and three quarters of a turn from the aim (to the right); a spark bolt kills a grunt.
    dummies = [(cx, cy + ring), (cx - ring, cy), (cx, cy - ring)]
    mortal = {"player_fixed": True, "player_invulnerable": True}
    for cards, killed in ((ORBIT, 3), (["spark_bolt"], 0)):
        sim = sim_with(cards, mortal, dummies)
        kills = 0
        for _ in range(240):
            fly(sim, 1)
            kills += ev.count(sim.buffers.event_rows(), EventKind.ENEMY_KILLED)
        assert kills == killed, f"{cards}: {kills} of the 3 enemies around the player killed"
        assert sim.buffers.counts.enemies == 3 - killed


def test_orbit_shots_follow_the_player_as_they_walk() -> None:
    ring = ring_radius()
    sim = sim_with(ORBIT, WALKING)
    start = player(sim)
    seen = fly(sim, 120, walk=(1.0, 0.0))
    assert player(sim)[0] - start[0] > 300, "the player walked right"
    late = np.concatenate(seen[60:])
    distance = np.hypot(late[:, 0], late[:, 1])
    assert len(late) > 0 and distance.max() <= ring + 0.5, "the ring went with the player"
    assert (np.abs(distance - ring) < 0.5).mean() > 0.8


def test_the_ring_is_the_orbit_cards_own_and_checked_on_both_sides() -> None:
    """The content refuses an orbit path without its ring and a ring without the path; the core
    refuses a spell list whose orbit path lacks it, naming where."""
    with pytest.raises(ValidationError, match="orbit"):
        ModifierBlock.model_validate({"path": "orbit"})
    with pytest.raises(ValidationError, match="orbit"):
        ModifierBlock.model_validate({"path": "sine", "orbit": {"radius": 80, "degrees_per_second": 270}})
    with pytest.raises(ValidationError, match="degrees_per_second"):
        ModifierBlock.model_validate({"path": "orbit", "orbit": {"radius": 80, "degrees_per_second": 0}})
    spells = [s.model_dump(mode="json", by_alias=True) for s in CONTENT.spells]
    orbit = next(s for s in spells if s["id"] == "orbit_path")
    orbit["modifier"]["orbit"] = None
    with pytest.raises(CoreArgumentError, match=r"modifier\.orbit"):
        _core.Catalog(spells, [], CONTENT.balance.vm.model_dump(mode="json", by_alias=True))
