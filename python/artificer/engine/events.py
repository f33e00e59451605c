"""Decoding the core's events (DESIGN §3): what game flow reacts to.

The numbering mirrors `rust/sim/events.rs`; each event row is
`kind, a, b, x, y, value`.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import IntEnum
from typing import NamedTuple

import numpy as np
import numpy.typing as npt


class EventKind(IntEnum):
    """What happened; the meaning of `a`, `b` and `value` per kind."""

    ENEMY_KILLED = 1  # a = enemy kind, b = elite, value = reward
    PLAYER_DAMAGED = 2  # a = attacker kind (-1: projectile), b = ward absorbed, value = HP lost
    CURRENCY_PICKED = 3  # value = currency
    PROJECTILE_FIRED = 4  # a = look (spell), b = owner (0 player, 1 enemy)
    PLAYER_DIED = 5
    DASHED = 6  # a, b = direction
    ENEMY_SPAWNED = 7  # a = enemy kind, b = elite
    CAST_FIRED = 8  # value = things emitted
    CAST_ABANDONED = 9  # a = node index (R-MANA-3/6)
    CPU_EXHAUSTED = 10  # R-VM-8
    TRIGGER_FIRED = 11  # a = carrier look, b = things emitted
    SUMMON_SPAWNED = 12  # a = look
    RESONANCE_FUSED = 13  # a = recipe index (R-RES-1/2)
    TRACE = 14  # a = node, b = mana before, value = mana after
    EXPLODED = 15  # a = element, b = radius, value = damage
    CHARGE_STATE_CHANGED = 16  # a = 0 gone, 1 charging, 2 full, 3 released (R-MOVE-3)
    ENEMY_HIT = 17  # hit_events rule: the frame's biggest hits; a = kind, b = killing blow, value = damage
    ELEMENT_REACTION = 18  # R-DMG-2: a = Reaction, b = enemy kind
    LAST_WILL = (
        19  # R-END-1: a lethal hit spared (Last Will spent); a = attacker kind (-1: projectile), value = HP left
    )
    RELIC = (
        20  # R-REL-1: a relic rule acted (HUD flash); a = RelicRule, b/value per rule; the_boot at most once a frame
    )


class Reaction(IntEnum):
    """An ELEMENT_REACTION's `a` (R-DMG-2; the alchemy journal's entries)."""

    ELECTRIFIED = 1  # lightning on a wet target: x1.5
    DRIED = 2  # fire on a wet target: the wet is gone


class RelicRule(IntEnum):
    """A RELIC event's `a`: which relic rule of the core acted
    (rust/sim/relics.rs; `World.set_relic_rules`)."""

    PEN_NIB = 1  # a fired ACTION doubled; value = its number in the wave
    AKABEKO = 2  # the wave's first fired ACTION boosted; value = the bonus
    THE_BOOT = 3  # hits lifted to the floor this frame (one event a frame); value = how many
    THORNS = 4  # bronze_scales: b = attacker kind, value = damage dealt; x, y = the attacker
    FIRST_CAST_BUDGET = 5  # bag_of_prep: the wave's first cast; value = extra budget
    HURT_CAST_BUDGET = 6  # centennial_puzzle: the wave's first HP loss; value = extra budget for the next cast
    HURT_WARD = 7  # self_forming_clay: a turn began with ward; value = the ward
    CHAMPION_WEAK = 8  # champion_belt: weak came with vulnerable; b = enemy kind, value = weak seconds


class Event(NamedTuple):
    kind: EventKind
    a: float
    b: float
    x: float
    y: float
    value: float


KIND, A, B, X, Y, VALUE = range(6)


def decode(rows: npt.NDArray[np.float64]) -> Iterator[Event]:
    """Events as named tuples, for code that handles them one by one."""
    for row in rows:
        yield Event(EventKind(int(row[KIND])), *(float(v) for v in row[1:]))


def total(rows: npt.NDArray[np.float64], kind: EventKind) -> float:
    """Sum of `value` over the events of `kind` (vectorised)."""
    return float(rows[rows[:, KIND] == kind, VALUE].sum())


def count(rows: npt.NDArray[np.float64], kind: EventKind) -> int:
    return int(np.count_nonzero(rows[:, KIND] == kind))
