"""Decoding the core's events (DESIGN §3): what game flow reacts to.

The numbering is the core's (`_core.EVENT_KINDS`, `REACTIONS`, `BOSS_PATTERNS`, from
rust/sim/events.rs, and the relic rules' events, `RELIC_RULE_SPECS`, from
relics.rs); each member takes its value from those
tables by name, and each event row's columns are `_core.LAYOUTS["events"]`
(`kind, a, b, x, y, value`). tests/engine/test_contract.py checks both sides agree.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from enum import IntEnum
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from artificer import _core
from artificer.engine.frame import column


class EventKind(IntEnum):
    """What happened; the meaning of `a`, `b` and `value` per kind."""

    #: a = enemy kind, b = elite, value = reward
    ENEMY_KILLED = _core.EVENT_KINDS["ENEMY_KILLED"]
    #: a = attacker kind (-1: projectile), b = ward absorbed, value = HP lost
    PLAYER_DAMAGED = _core.EVENT_KINDS["PLAYER_DAMAGED"]
    #: value = currency
    CURRENCY_PICKED = _core.EVENT_KINDS["CURRENCY_PICKED"]
    #: a = look (spell), b = owner (0 player, 1 enemy)
    PROJECTILE_FIRED = _core.EVENT_KINDS["PROJECTILE_FIRED"]
    PLAYER_DIED = _core.EVENT_KINDS["PLAYER_DIED"]
    #: a, b = direction
    DASHED = _core.EVENT_KINDS["DASHED"]
    #: a = enemy kind, b = elite
    ENEMY_SPAWNED = _core.EVENT_KINDS["ENEMY_SPAWNED"]
    #: value = things emitted
    CAST_FIRED = _core.EVENT_KINDS["CAST_FIRED"]
    #: a = node index (R-MANA-3/6)
    CAST_ABANDONED = _core.EVENT_KINDS["CAST_ABANDONED"]
    #: R-VM-8
    CPU_EXHAUSTED = _core.EVENT_KINDS["CPU_EXHAUSTED"]
    #: a = carrier look, b = things emitted
    TRIGGER_FIRED = _core.EVENT_KINDS["TRIGGER_FIRED"]
    #: a = look
    SUMMON_SPAWNED = _core.EVENT_KINDS["SUMMON_SPAWNED"]
    #: a = recipe index (R-RES-1/2)
    RESONANCE_FUSED = _core.EVENT_KINDS["RESONANCE_FUSED"]
    #: a = node, b = mana before, value = mana after
    TRACE = _core.EVENT_KINDS["TRACE"]
    #: a = element, b = radius, value = damage
    EXPLODED = _core.EVENT_KINDS["EXPLODED"]
    #: a = 0 gone, 1 charging, 2 full, 3 released (R-MOVE-3)
    CHARGE_STATE_CHANGED = _core.EVENT_KINDS["CHARGE_STATE_CHANGED"]
    #: hit_events rule: the frame's biggest hits; a = kind, b = killing blow, value = damage
    ENEMY_HIT = _core.EVENT_KINDS["ENEMY_HIT"]
    #: R-DMG-2: a = Reaction, b = enemy kind
    ELEMENT_REACTION = _core.EVENT_KINDS["ELEMENT_REACTION"]
    #: R-END-1: a lethal hit spared (Last Will spent); a = attacker kind (-1: projectile), value = HP left
    LAST_WILL = _core.EVENT_KINDS["LAST_WILL"]
    #: R-REL-1: a relic rule acted (HUD flash); a = the rule's event (RELIC_RULE_BY_EVENT), b/value per rule; the_boot at most once a frame
    RELIC = _core.EVENT_KINDS["RELIC"]
    #: R-BOSS-1: a boss entered a phase (one per phase crossed; its Last Will too); a = the phase's number,
    #: b = its kind, value = its HP share
    BOSS_PHASE = _core.EVENT_KINDS["BOSS_PHASE"]
    #: R-BOSS-2: the weak element stripped an armor plate; a = plates left, b = the boss's kind
    BOSS_PLATE = _core.EVENT_KINDS["BOSS_PLATE"]
    #: R-BOSS-2: the fight lasted its enrage_after: hyper-enrage; b = the boss's kind, value = seconds fought
    BOSS_ENRAGED = _core.EVENT_KINDS["BOSS_ENRAGED"]
    #: R-BOSS-3: a boss winds up a volley, fired its `telegraph` seconds later from x, y; a = BossPattern,
    #: b = the boss's kind, value = the volley's angle in radians (a barrage's locked aim, a ring's first shot)
    BOSS_TELEGRAPH = _core.EVENT_KINDS["BOSS_TELEGRAPH"]


class Reaction(IntEnum):
    """An ELEMENT_REACTION's `a` (R-DMG-2; the alchemy journal's entries)."""

    #: lightning on a wet target: x1.5
    ELECTRIFIED = _core.REACTIONS["ELECTRIFIED"]
    #: fire on a wet target: the wet is gone
    DRIED = _core.REACTIONS["DRIED"]


class BossPattern(IntEnum):
    """A BOSS_TELEGRAPH's `a` (R-BOSS-1/3), and a boss status telegraph's `pattern`: the volley wound up."""

    #: a ring of shots, each volley turned half a gap
    SPREAD = _core.BOSS_PATTERNS["SPREAD"]
    #: a fan aimed at the player, its aim locked at the wind-up
    BARRAGE = _core.BOSS_PATTERNS["BARRAGE"]
    #: the full-screen burst, a dense ring
    BURST = _core.BOSS_PATTERNS["BURST"]


#: A RELIC event's `a` → the core's relic rule that acted, by its name (= the relics.json effect
#: that sets it): the core declares its rules once (rust/sim/relics.rs, `_core.RELIC_RULE_SPECS`).
RELIC_RULE_BY_EVENT: Mapping[int, str] = {spec["event"]: name for name, spec in _core.RELIC_RULE_SPECS.items()}


def relic_event(rule: str) -> int:
    """The RELIC event's `a` of the core's relic rule `rule` (a KeyError for no such rule)."""
    return _core.RELIC_RULE_SPECS[rule]["event"]


class Event(NamedTuple):
    kind: EventKind
    a: float
    b: float
    x: float
    y: float
    value: float


class EventColumn(IntEnum):
    """An event row (`_core.LAYOUTS["events"]`)."""

    KIND = column("events", "kind")
    A = column("events", "a")
    B = column("events", "b")
    X = column("events", "x")
    Y = column("events", "y")
    VALUE = column("events", "value")


KIND, A, B, X, Y, VALUE = (
    EventColumn.KIND,
    EventColumn.A,
    EventColumn.B,
    EventColumn.X,
    EventColumn.Y,
    EventColumn.VALUE,
)


def decode(rows: npt.NDArray[np.float64]) -> Iterator[Event]:
    """Events as named tuples, for code that handles them one by one."""
    for row in rows:
        yield Event(
            EventKind(int(row[KIND])), float(row[A]), float(row[B]), float(row[X]), float(row[Y]), float(row[VALUE])
        )


class Tally:
    """A step's events counted, their values summed and their largest value, by kind, for code
    that asks about many kinds (ten `count`/`total` calls would cost ten masks over the rows): the
    core's one pass in event order (`World.tally_events`)."""

    __slots__ = ("_counts", "_sums", "_most")

    def __init__(self, counts: list[int], sums: list[float], most: list[float]) -> None:
        self._counts, self._sums, self._most = counts, sums, most

    @classmethod
    def of_step(cls, world: _core.World) -> Tally:
        """The tally of the events of `world`'s last step."""
        return cls(*world.tally_events())

    def count(self, kind: EventKind) -> int:
        return int(self._counts[kind])

    def total(self, kind: EventKind) -> float:
        return float(self._sums[kind])

    def most(self, kind: EventKind) -> float:
        """The largest value of the events of `kind` (0.0 when there was none)."""
        return float(self._most[kind])


def total(rows: npt.NDArray[np.float64], kind: EventKind) -> float:
    """Sum of `value` over the events of `kind` (vectorised)."""
    return float(rows[rows[:, KIND] == kind, VALUE].sum())


def count(rows: npt.NDArray[np.float64], kind: EventKind) -> int:
    return int(np.count_nonzero(rows[:, KIND] == kind))
