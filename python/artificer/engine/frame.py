"""The frame contract's Python side (DESIGN §3): `FrameInput` and
`FrameBuffers`, numpy arrays owned by Python, allocated once and reused
every frame; the core reads the one and writes the other in `World.step`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, IntFlag
from typing import NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from artificer import _core

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]

# The frame contract comes from the core (rust/sim/contract.rs): each buffer's ordered column
# names (`_core.LAYOUTS`) and the name → value tables of its enums. The classes below take their
# values from those tables by name, so a column, op or status the core renames fails at import,
# and tests/engine/test_contract.py fails when either side has one the other lacks.
CONTROL_FIELDS = _core.LAYOUTS["controls"]
COMMAND_FIELDS = _core.LAYOUTS["commands"]
ENEMY_FIELDS = _core.LAYOUTS["enemies"]
PROJECTILE_FIELDS = _core.LAYOUTS["projectiles"]
PICKUP_FIELDS = _core.LAYOUTS["pickups"]
ZONE_FIELDS = _core.LAYOUTS["zones"]
SUMMON_FIELDS = _core.LAYOUTS["summons"]
PLAYER_FIELDS = _core.LAYOUTS["player"]
#: Each player field's place in the player buffer (`player_value` runs several times a frame).
PLAYER_INDEX = {name: index for index, name in enumerate(PLAYER_FIELDS)}


def column(buffer: str, name: str) -> int:
    """The index of column `name` in `buffer`'s layout (`_core.LAYOUTS`); a KeyError names both."""
    try:
        return _core.LAYOUTS[buffer].index(name)
    except ValueError:
        raise KeyError(f"the core's {buffer} buffer has no column {name!r}") from None


#: Every drawn buffer (enemies, projectiles, pickups, zones, summons) holds a row's position in the
#: same two columns, which the core's rasterizer reads from any of them (`SpriteRasterizer.draw`).
ROW_X = column("enemies", "x")
ROW_Y = column("enemies", "y")


class ControlField(IntEnum):
    """The controls vector (`_core.LAYOUTS["controls"]`)."""

    MOVE_X = column("controls", "move_x")
    MOVE_Y = column("controls", "move_y")
    AIM_X = column("controls", "aim_x")
    AIM_Y = column("controls", "aim_y")
    DASH = column("controls", "dash")
    AIM_AT_POINT = column("controls", "aim_at_point")


_MOVE_X, _MOVE_Y, _DASH = int(ControlField.MOVE_X), int(ControlField.MOVE_Y), int(ControlField.DASH)


class CommandColumn(IntEnum):
    """A command row (`_core.LAYOUTS["commands"]`): the op, then its operands."""

    OP = column("commands", "op")
    A = column("commands", "a")
    B = column("commands", "b")
    X = column("commands", "x")
    Y = column("commands", "y")
    VALUE = column("commands", "value")


#: `FrameInput.command` writes a row as one tuple in this order.
assert [int(c) for c in CommandColumn] == list(range(len(CommandColumn))) == list(range(_core.COMMAND_WIDTH))


class EnemyColumn(IntEnum):
    """An enemy row (`_core.LAYOUTS["enemies"]`); FLAGS holds `EnemyFlag` bits."""

    X = column("enemies", "x")
    Y = column("enemies", "y")
    KIND = column("enemies", "kind")
    RADIUS = column("enemies", "radius")
    HP_FRACTION = column("enemies", "hp_fraction")
    FLAGS = column("enemies", "flags")


class ProjectileColumn(IntEnum):
    """A projectile row (`_core.LAYOUTS["projectiles"]`): VX, VY in px/s; OWNER 0 the player, 1 an enemy."""

    X = column("projectiles", "x")
    Y = column("projectiles", "y")
    LOOK = column("projectiles", "look")
    RADIUS = column("projectiles", "radius")
    VX = column("projectiles", "vx")
    VY = column("projectiles", "vy")
    OWNER = column("projectiles", "owner")


class PickupColumn(IntEnum):
    """A pickup row (`_core.LAYOUTS["pickups"]`)."""

    X = column("pickups", "x")
    Y = column("pickups", "y")
    VALUE = column("pickups", "value")
    RADIUS = column("pickups", "radius")


class ZoneColumn(IntEnum):
    """A zone row (`_core.LAYOUTS["zones"]`): LIFE in seconds left."""

    X = column("zones", "x")
    Y = column("zones", "y")
    RADIUS = column("zones", "radius")
    LOOK = column("zones", "look")
    LIFE = column("zones", "life")


class SummonColumn(IntEnum):
    """A summon row (`_core.LAYOUTS["summons"]`): LIFE in seconds left."""

    X = column("summons", "x")
    Y = column("summons", "y")
    LOOK = column("summons", "look")
    LIFE = column("summons", "life")


class PlayerField(IntEnum):
    """The player vector (`_core.LAYOUTS["player"]`)."""

    X = column("player", "x")
    Y = column("player", "y")
    HP = column("player", "hp")
    HP_MAX = column("player", "hp_max")
    MANA = column("player", "mana")
    MANA_MAX = column("player", "mana_max")
    WARD = column("player", "ward")
    STRENGTH = column("player", "strength")
    INVULNERABLE = column("player", "invulnerable")
    DASH_COOLDOWN = column("player", "dash_cooldown")
    DASH_LEFT = column("player", "dash_left")
    ALIVE = column("player", "alive")
    MOVING = column("player", "moving")
    RADIUS = column("player", "radius")


class Op(IntEnum):
    """Command ops (`_core.OPS`; what each does: rust/sim/commands.rs `Command`)."""

    SPAWN = _core.OPS["SPAWN"]
    HEAL = _core.OPS["HEAL"]
    WARD = _core.OPS["WARD"]
    MANA = _core.OPS["MANA"]
    APPLY_STATUS = _core.OPS["APPLY_STATUS"]
    STRENGTH = _core.OPS["STRENGTH"]
    CLEAR_ENEMIES = _core.OPS["CLEAR_ENEMIES"]
    COLLECT_PICKUPS = _core.OPS["COLLECT_PICKUPS"]
    DAMAGE_NEAREST = _core.OPS["DAMAGE_NEAREST"]
    APPLY_STATUS_TURNS = _core.OPS["APPLY_STATUS_TURNS"]


class Status(IntEnum):
    """What game flow can apply to an enemy (`_core.STATUSES`): vulnerable takes ×1.5, weak deals less."""

    VULNERABLE = _core.STATUSES["VULNERABLE"]
    WEAK = _core.STATUSES["WEAK"]


class EnemyFlag(IntFlag):
    """The bits of an enemy row's FLAGS column (`_core.ENEMY_FLAGS`)."""

    ELITE = _core.ENEMY_FLAGS["ELITE"]
    VULNERABLE = _core.ENEMY_FLAGS["VULNERABLE"]
    WEAK = _core.ENEMY_FLAGS["WEAK"]
    BURNING = _core.ENEMY_FLAGS["BURNING"]
    CHILLED = _core.ENEMY_FLAGS["CHILLED"]
    FROZEN = _core.ENEMY_FLAGS["FROZEN"]
    SHOCKED = _core.ENEMY_FLAGS["SHOCKED"]
    POISONED = _core.ENEMY_FLAGS["POISONED"]
    WET = _core.ENEMY_FLAGS["WET"]
    HIT = _core.ENEMY_FLAGS["HIT"]


class FrameInput:
    """This frame's controls and commands. Game flow fills it, `step`
    consumes it, `clear` readies it for the next frame."""

    def __init__(self, command_capacity: int) -> None:
        self.controls: F32 = np.zeros(_core.CONTROLS_WIDTH, dtype=np.float32)
        self.commands: F64 = np.zeros((max(1, command_capacity), _core.COMMAND_WIDTH), dtype=np.float64)
        self.n_commands = 0

    def clear(self) -> None:
        self.controls.fill(0.0)
        self.n_commands = 0

    def move(self, x: float, y: float) -> None:
        # Plain ints: numpy indexes with an IntEnum member through `__index__`, several times slower.
        self.controls[_MOVE_X] = x
        self.controls[_MOVE_Y] = y

    def aim_at(self, x: float, y: float) -> None:
        """Aim at a point (aim mode 'mouse'); otherwise the wand aims at the nearest enemy."""
        self.controls[ControlField.AIM_X] = x
        self.controls[ControlField.AIM_Y] = y
        self.controls[ControlField.AIM_AT_POINT] = 1.0

    def dash(self) -> None:
        self.controls[_DASH] = 1.0

    def command(
        self, op: Op, a: float = 0.0, b: float = 0.0, x: float = 0.0, y: float = 0.0, value: float = 0.0
    ) -> None:
        self._room(1)
        self.commands[self.n_commands] = (op, a, b, x, y, value)  # CommandColumn's order
        self.n_commands += 1

    def _room(self, rows: int) -> None:
        """Grows the command rows (doubling) until `rows` more fit."""
        size = len(self.commands)
        while self.n_commands + rows > size:
            size *= 2
        if size > len(self.commands):
            grown = np.zeros((size, _core.COMMAND_WIDTH), dtype=np.float64)
            grown[: self.n_commands] = self.commands[: self.n_commands]
            self.commands = grown

    def spawn(self, kind: int, x: float, y: float, elite: bool = False) -> None:
        self.command(Op.SPAWN, kind, float(elite), x, y)

    def spawn_pack(self, kind: int, xs: F64, ys: F64, elite: bool = False) -> None:
        """`spawn` at each (xs[i], ys[i]), in order, as one block of rows (a landing pack)."""
        count = len(xs)
        self._room(count)
        rows = self.commands[self.n_commands : self.n_commands + count]
        rows[:] = (Op.SPAWN, kind, float(elite), 0.0, 0.0, 0.0)  # CommandColumn's order
        rows[:, 3] = xs
        rows[:, 4] = ys
        self.n_commands += count

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
        """R-LOOP-1: every enemy vanishes with its shots in flight, no rewards (a won wave's end)."""
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
        return self._settle(world, counts)

    def caps(self) -> tuple[int, int, int, int, int, int]:
        """Each buffer's rows, in `World.play_bot`'s order (enemies, projectiles, pickups, events,
        zones, summons)."""
        return (
            len(self.enemies), len(self.projectiles), len(self.pickups),
            len(self.events), len(self.zones), len(self.summons),
        )  # fmt: skip

    def write_after(self, world: _core.World, caps: tuple[int, ...], counts: StepCounts) -> StepCounts:
        """The buffers after `World.play_bot`'s last frame, as stepping every frame leaves them:
        each at least as large as it had grown before that frame (grown buffers are zeros), the
        frame written, then grown for its counts."""
        for name, rows in zip(("enemies", "projectiles", "pickups", "events", "zones", "summons"), caps):
            buf = getattr(self, name)
            if len(buf) < rows:
                setattr(self, name, np.zeros((rows, buf.shape[1]), dtype=buf.dtype))
        world.write_frame(
            self.enemies, self.projectiles, self.pickups, self.player, self.events, self.zones, self.summons
        )
        return self._settle(world, counts)

    def _settle(self, world: _core.World, counts: StepCounts) -> StepCounts:
        """After a frame's write: the buffers it outgrew grown, its events read whole."""
        if counts.events > len(self.events):
            self.events = _grown(self.events, counts.events)
            world.read_events(self.events, 0)
        # Most frames nothing outgrows its buffer: a comparison each, no call.
        if counts.enemies > len(self.enemies):
            self.enemies = _grown(self.enemies, counts.enemies)
        if counts.projectiles > len(self.projectiles):
            self.projectiles = _grown(self.projectiles, counts.projectiles)
        if counts.pickups > len(self.pickups):
            self.pickups = _grown(self.pickups, counts.pickups)
        if counts.zones > len(self.zones):
            self.zones = _grown(self.zones, counts.zones)
        if counts.summons > len(self.summons):
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
        return self.player.item(PLAYER_INDEX[field])


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
