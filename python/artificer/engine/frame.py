"""The frame contract's Python side (DESIGN §3): `FrameInput` and
`FrameBuffers`, numpy arrays owned by Python, allocated once and reused
every frame; the core reads the one and writes the other in `World.step`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from artificer import _core

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]

# Column meanings (widths come from the core, `_core.*_COLUMNS`).
CONTROL_FIELDS = ("move_x", "move_y", "aim_x", "aim_y", "dash", "aim_at_point")
ENEMY_FIELDS = ("x", "y", "kind", "radius", "hp_fraction", "flags")
PROJECTILE_FIELDS = ("x", "y", "look", "radius", "vx", "vy", "owner")
PICKUP_FIELDS = ("x", "y", "value", "radius")
ZONE_FIELDS = ("x", "y", "radius", "look", "life")
SUMMON_FIELDS = ("x", "y", "look", "life")
PLAYER_FIELDS = (
    "x", "y", "hp", "hp_max", "mana", "mana_max", "ward", "strength", "invulnerable",
    "dash_cooldown", "dash_left", "alive", "moving", "radius",
)  # fmt: skip


class Op(IntEnum):
    """Command ops (rust/sim/commands.rs)."""

    SPAWN = 1
    HEAL = 2
    WARD = 3
    MANA = 4
    APPLY_STATUS = 5
    STRENGTH = 6
    CLEAR_ENEMIES = 7
    COLLECT_PICKUPS = 8
    DAMAGE_NEAREST = 9
    APPLY_STATUS_TURNS = 10


class Status(IntEnum):
    VULNERABLE = 1
    WEAK = 2


class FrameInput:
    """This frame's controls and commands. Game flow fills it, `step`
    consumes it, `clear` readies it for the next frame."""

    def __init__(self, command_capacity: int) -> None:
        self.controls: F32 = np.zeros(_core.CONTROLS_WIDTH, dtype=np.float32)
        self.commands: F64 = np.zeros((max(1, command_capacity), _core.COMMAND_WIDTH), dtype=np.float64)
        self.n_commands = 0

    def clear(self) -> None:
        self.controls[:] = 0.0
        self.n_commands = 0

    def move(self, x: float, y: float) -> None:
        self.controls[0:2] = (x, y)

    def aim_at(self, x: float, y: float) -> None:
        """Aim at a point (aim mode 'mouse'); otherwise the wand aims at the nearest enemy."""
        self.controls[2:4] = (x, y)
        self.controls[5] = 1.0

    def dash(self) -> None:
        self.controls[4] = 1.0

    def command(
        self, op: Op, a: float = 0.0, b: float = 0.0, x: float = 0.0, y: float = 0.0, value: float = 0.0
    ) -> None:
        if self.n_commands == len(self.commands):
            grown = np.zeros((2 * len(self.commands), _core.COMMAND_WIDTH), dtype=np.float64)
            grown[: self.n_commands] = self.commands
            self.commands = grown
        self.commands[self.n_commands] = (op, a, b, x, y, value)
        self.n_commands += 1

    def spawn(self, kind: int, x: float, y: float, elite: bool = False) -> None:
        self.command(Op.SPAWN, kind, float(elite), x, y)

    def heal(self, amount: float) -> None:
        self.command(Op.HEAL, value=amount)

    def ward(self, amount: float) -> None:
        self.command(Op.WARD, value=amount)

    def grant_mana(self, amount: float) -> None:
        self.command(Op.MANA, value=amount)

    def apply_status(self, status: Status, x: float, y: float, seconds: float) -> None:
        """On the enemy nearest (x, y)."""
        self.command(Op.APPLY_STATUS, status, 0.0, x, y, seconds)

    def apply_status_turns(self, status: Status, x: float, y: float, turns: float) -> None:
        """On the enemy nearest (x, y), for `turns` of the core's turn (§8,
        `World.turn_seconds`): e.g. cursed_vial's weak 3."""
        self.command(Op.APPLY_STATUS_TURNS, status, 0.0, x, y, turns)

    def strength(self, amount: float) -> None:
        """Adds strength for the rest of the wave (warrior_elixir); `begin_wave` resets it."""
        self.command(Op.STRENGTH, value=amount)

    def clear_enemies(self) -> None:
        self.command(Op.CLEAR_ENEMIES)

    def collect_pickups(self) -> None:
        self.command(Op.COLLECT_PICKUPS)

    def damage_nearest(self, x: float, y: float, amount: float) -> None:
        self.command(Op.DAMAGE_NEAREST, 0.0, 0.0, x, y, amount)


class StepCounts(NamedTuple):
    enemies: int
    projectiles: int
    pickups: int
    events: int
    hits: int
    damage_dealt: float
    zones: int = 0
    summons: int = 0


@dataclass
class Capacity:
    enemies: int
    projectiles: int
    pickups: int
    events: int
    zones: int = 64
    summons: int = 64


class FrameBuffers:
    """What the core writes each frame: render arrays, the player, events.

    Allocated at the capacities of balance.json; when a frame reports more
    live entities than rows, the buffer grows (doubling) before the next
    frame, and extra events are fetched at once with `World.read_events`,
    so nothing is lost."""

    def __init__(self, capacity: Capacity) -> None:
        self.enemies: F32 = _rows(capacity.enemies, _core.ENEMY_COLUMNS, np.float32)
        self.projectiles: F32 = _rows(capacity.projectiles, _core.PROJECTILE_COLUMNS, np.float32)
        self.pickups: F32 = _rows(capacity.pickups, _core.PICKUP_COLUMNS, np.float32)
        self.player: F64 = np.zeros(_core.PLAYER_WIDTH, dtype=np.float64)
        self.events: F64 = _rows(capacity.events, _core.EVENT_COLUMNS, np.float64)
        self.zones: F32 = _rows(capacity.zones, _core.ZONE_COLUMNS, np.float32)
        self.summons: F32 = _rows(capacity.summons, _core.SUMMON_COLUMNS, np.float32)
        self.counts = StepCounts(0, 0, 0, 0, 0, 0.0)

    def step(self, world: _core.World, frame: FrameInput) -> StepCounts:
        counts = StepCounts(
            *world.step(
                frame.controls, frame.commands, frame.n_commands,
                self.enemies, self.projectiles, self.pickups, self.player, self.events,
                self.zones, self.summons,
            )
        )  # fmt: skip
        if counts.events > len(self.events):
            self.events = _grown(self.events, counts.events)
            world.read_events(self.events, 0)
        self.enemies = _grown(self.enemies, counts.enemies)
        self.projectiles = _grown(self.projectiles, counts.projectiles)
        self.pickups = _grown(self.pickups, counts.pickups)
        self.zones = _grown(self.zones, counts.zones)
        self.summons = _grown(self.summons, counts.summons)
        self.counts = counts
        return counts

    # Views of this frame's live rows (no copies).
    def enemy_rows(self) -> F32:
        return self.enemies[: min(self.counts.enemies, len(self.enemies))]

    def projectile_rows(self) -> F32:
        return self.projectiles[: min(self.counts.projectiles, len(self.projectiles))]

    def pickup_rows(self) -> F32:
        return self.pickups[: min(self.counts.pickups, len(self.pickups))]

    def zone_rows(self) -> F32:
        return self.zones[: min(self.counts.zones, len(self.zones))]

    def summon_rows(self) -> F32:
        return self.summons[: min(self.counts.summons, len(self.summons))]

    def event_rows(self) -> F64:
        return self.events[: self.counts.events]

    def player_value(self, field: str) -> float:
        return float(self.player[PLAYER_FIELDS.index(field)])


Float = TypeVar("Float", np.float32, np.float64)


def _rows(n: int, columns: int, dtype: type[Float]) -> npt.NDArray[Float]:
    return np.zeros((max(1, n), columns), dtype=dtype)


def _grown(buf: npt.NDArray[Float], needed: int) -> npt.NDArray[Float]:
    """`buf`, or a copy with at least `needed` rows (doubling) if it is too small.
    The first frame that overflows draws only the rows that fit; the next
    one has room for all."""
    if needed <= len(buf):
        return buf
    rows = len(buf)
    while rows < needed:
        rows *= 2
    grown = np.zeros((rows, buf.shape[1]), dtype=buf.dtype)
    grown[: len(buf)] = buf
    return grown
