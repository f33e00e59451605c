"""Spell family blocks: the parameters of each of the five chip families (GAME_RULES §3).

This module owns what the `action`, `modifier`, `multicast`, `trigger` and
`logic` blocks of a spell look like, and the rules inside one block (a zone
action has a zone, a timer trigger has a delay, a loop has a count …).
`artificer.content.spells` puts one of them on each spell.

Units: px, seconds, px/s, degrees for spreads. Optional numbers default to
their no-effect value (0, or 1 for multipliers) so the VM never has to tell
"absent" from "zero".
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import ConfigDict, Field, ValidationInfo, field_validator

from artificer.content.models import (
    MAX_AREA_RADIUS,
    MAX_COUNT,
    MAX_DAMAGE,
    MAX_DISTANCE,
    MAX_MULTIPLIER,
    MAX_SECONDS,
    MAX_SPEED,
    Chance,
    ContentModel,
    Element,
)


class ActionKind(StrEnum):
    """What an ACTION puts into the world."""

    PROJECTILE = "projectile"  # a moving shot that hits what it touches
    ZONE = "zone"  # a body that flies, then opens a lingering area where it stops
    SUMMON = "summon"  # a body that flies, then plants a summon that casts its own program (R-VM-5)
    BLAST = "blast"  # an instant area hit of `radius` around the cast point


class ProjectilePath(StrEnum):
    """How a projectile moves (R-VM-10 `path`)."""

    STRAIGHT = "straight"
    SINE = "sine"
    ORBIT = "orbit"


class TriggerKind(StrEnum):
    """When a TRIGGER's payload runs (R-VM-4)."""

    ON_HIT = "on_hit"  # at the struck enemy
    TIMER = "timer"  # at the carrier's position `delay` seconds after the cast
    ON_EXPIRE = "on_expire"  # where the carrier dies


class LogicKind(StrEnum):
    """LOGIC nodes: gates (R-VM-6), loops (R-VM-7), halts, registers (R-REG-1) and counters (R-REG-2)."""

    IF_HP_LOW = "if_hp_low"
    IF_ENEMY_CLOSE = "if_enemy_close"
    IF_MOVING = "if_moving"
    IF_STILL = "if_still"
    IF_MANA_ABOVE = "if_mana_above"
    LOOP = "loop"
    HALT = "halt"
    HALT_IF_REG_LT = "halt_if_reg_lt"
    IF_REG_GE = "if_reg_ge"
    REG_SET = "reg_set"
    REG_ADD = "reg_add"
    CHARGE_COUNTER = "charge_counter"
    KILL_COMBO = "kill_combo"


class Register(StrEnum):
    """The two integer registers of a core (R-REG-1)."""

    A = "A"
    B = "B"


Degrees = Annotated[float, Field(ge=0, le=360)]

#: Largest radius of a spell's body (a blast's is its hit area), in px: the core's grid reach grows
#: with the largest projectile, so a larger one makes every query scan most enemies.
MAX_BODY_RADIUS = 512.0
#: Most multicast actions, chain jumps and guarded nodes of one card.
MAX_FAN = 64
#: Fastest an orbit path turns, in degrees per second (ten turns a second).
MAX_ORBIT_TURN = 3600.0


# --- ACTION -------------------------------------------------------------------


class ZoneEffect(ContentModel):
    """The lingering area a `zone` action opens where its body stops."""

    duration: float = Field(gt=0, le=MAX_SECONDS, description="Seconds the zone lasts.")
    radius: float = Field(gt=0, le=MAX_AREA_RADIUS, description="Radius of the area in px.")
    pull: float = Field(
        default=0, ge=0, le=MAX_SPEED, description="Speed in px/s at which enemies inside drift to the centre."
    )
    heal_per_second: float = Field(
        default=0, ge=0, le=MAX_DAMAGE, description="HP per second healed on the player while inside."
    )
    damage_per_second: float = Field(
        default=0, ge=0, le=MAX_DAMAGE, description="Damage per second to enemies inside, of the spell's element."
    )


class SummonProgram(ContentModel):
    """A summon that casts on its own timer (R-VM-5)."""

    period: float = Field(ge=0.01, le=MAX_SECONDS, description="Seconds between the summon's casts of its program.")
    duration: float = Field(gt=0, le=MAX_SECONDS, description="Seconds the summon lives.")
    takes_following: bool = Field(
        default=True, description="The nodes after the summon on its path are its program (R-VM-5)."
    )
    cost_share: float = Field(
        ge=0,
        le=1,
        description="Share of each card's mana the summon's casts pay from the player's pool (R-MANA-5).",
    )


class OrbitRing(ContentModel):
    """The ring of an `orbit` path (R-VM-10): the shot flies out to it at its own speed, then
    circles the player on it, following them as they move; walls do not stop it."""

    radius: float = Field(gt=0, le=MAX_AREA_RADIUS, description="Radius of the ring in px, from the player's centre.")
    degrees_per_second: float = Field(
        gt=0, le=MAX_ORBIT_TURN, description="How fast the shot goes round, clockwise on screen."
    )


def _ring_matches_path(ring: OrbitRing | None, info: ValidationInfo) -> OrbitRing | None:
    """An `orbit` path needs its ring; any other path has none (a block without `path` keeps the shot's)."""
    if "path" not in info.data:  # the path itself failed: that problem is reported
        return ring
    orbit = info.data["path"] == ProjectilePath.ORBIT
    if orbit and ring is None:
        raise ValueError('required with the "orbit" path (its radius and degrees_per_second)')
    if not orbit and ring is not None:
        raise ValueError('only the "orbit" path has a ring')
    return ring


class Charge(ContentModel):
    """A charge spell (R-MOVE-3): standing still charges an overload version."""

    still_seconds: float = Field(gt=0, le=MAX_SECONDS, description="Seconds standing still to charge fully.")
    multiplier: float = Field(ge=1, le=MAX_MULTIPLIER, description="Damage multiplier of the overload cast.")


class ActionBlock(ContentModel):
    """The numbers of an ACTION: the body it fires, and what that body does.

    Every action fires a body with `speed`, `radius` and `lifetime`, shaped by
    the shot state. A projectile hits what it touches; a zone or summon body
    flies for `lifetime` seconds (0: not at all) or until it hits an enemy,
    then opens its zone or plants its summon there; a blast hits everything
    within `radius` of the cast point once.
    """

    kind: ActionKind = Field(description="What the action puts into the world.")
    damage: float = Field(ge=0, le=MAX_DAMAGE, description="Damage per hit, of the spell's element (R-DMG-1 `base`).")
    speed: float = Field(ge=0, le=MAX_SPEED, description="Speed of the body in px/s (a blast's must be 0).")
    radius: float = Field(
        gt=0, le=MAX_BODY_RADIUS, description="Radius of the body in px; of the hit area for a blast."
    )
    lifetime: float = Field(
        ge=0,
        le=MAX_SECONDS,
        description="Seconds the body flies (> 0 for a projectile); a blast's hit area shows this long.",
    )
    spread: Degrees = Field(description="Random aim spread in degrees, added to the shot state's.")
    pierce: int = Field(ge=0, le=MAX_COUNT, description="Enemies the body passes through before it stops.")
    bounces: int = Field(ge=0, le=MAX_COUNT, description="Times the body bounces off the arena edge.")
    explode_radius: float = Field(
        default=0,
        ge=0,
        le=MAX_AREA_RADIUS,
        description="On hit or death, `damage` to every enemy within this many px (0: no explosion).",
    )
    chain: int = Field(default=0, ge=0, le=MAX_FAN, description="On hit, the shot jumps on to this many more enemies.")
    chain_range: float = Field(
        default=0, ge=0, le=MAX_DISTANCE, description="Longest jump of a chain in px (> 0 when chain > 0)."
    )
    homing: Chance = Field(default=0, description="Homing strength, 0 (none) to 1 (turns at once).")
    path: ProjectilePath = Field(default=ProjectilePath.STRAIGHT, description="How the body moves.")
    orbit: OrbitRing | None = Field(
        default=None, validate_default=True, description="The ring an orbit path circles (orbit only)."
    )
    zone: ZoneEffect | None = Field(default=None, validate_default=True, description="The area (zone actions only).")
    summon: SummonProgram | None = Field(
        default=None, validate_default=True, description="The summon (summon actions only)."
    )
    moving_multiplier: float = Field(
        default=1,
        gt=0,
        le=MAX_MULTIPLIER,
        description="Damage multiplier while the player moves (electro_dash_bolt 1.5, R-MOVE-1).",
    )
    charge: Charge | None = Field(default=None, description="Charge-spell settings (R-MOVE-3).")

    @field_validator("speed")
    @classmethod
    def _blast_does_not_move(cls, speed: float, info: ValidationInfo) -> float:
        if info.data.get("kind") == ActionKind.BLAST and speed != 0:
            raise ValueError(f"must be 0 for a blast (it hits around the cast point), got {speed:g}")
        return speed

    @field_validator("lifetime")
    @classmethod
    def _projectile_lives(cls, lifetime: float, info: ValidationInfo) -> float:
        if info.data.get("kind") == ActionKind.PROJECTILE and lifetime <= 0:
            raise ValueError("must be greater than 0 for a projectile")
        return lifetime

    @field_validator("chain_range")
    @classmethod
    def _chain_needs_range(cls, chain_range: float, info: ValidationInfo) -> float:
        if info.data.get("chain", 0) > 0 and chain_range <= 0:
            raise ValueError("must be greater than 0 when chain is set")
        return chain_range

    @field_validator("orbit")
    @classmethod
    def _orbit_needs_its_ring(cls, ring: OrbitRing | None, info: ValidationInfo) -> OrbitRing | None:
        return _ring_matches_path(ring, info)

    @field_validator("zone", "summon")
    @classmethod
    def _block_matches_kind(cls, block: object, info: ValidationInfo) -> object:
        kind = info.data.get("kind")
        name = info.field_name
        if kind is None or name is None:
            return block
        if kind == name and block is None:
            raise ValueError(f'required for a "{kind}" action')
        if kind != name and block is not None:
            raise ValueError(f'only a "{name}" action has a {name} block (this one is "{kind}")')
        return block

    @property
    def deals_damage(self) -> bool:
        """Whether the action damages enemies (by hit, explosion or zone)."""
        return self.damage > 0 or (self.zone is not None and self.zone.damage_per_second > 0)


class CarrierBlock(ActionBlock):
    """A TRIGGER's own projectile: an action block whose kind is `projectile`."""

    @field_validator("kind")
    @classmethod
    def _carrier_is_a_projectile(cls, kind: ActionKind) -> ActionKind:
        if kind != ActionKind.PROJECTILE:
            raise ValueError(f'must be "projectile" (a trigger carries its payload on a projectile), got "{kind}"')
        return kind


# --- MODIFIER, MULTICAST, TRIGGER -------------------------------------------------


class TriggerTiming(ContentModel):
    """When a trigger's payload runs: a TRIGGER card's (R-VM-4), or the trigger an add-trigger
    modifier makes of the next projectile (R-VM-14)."""

    kind: TriggerKind = Field(description="When the payload runs.")
    delay: float | None = Field(
        default=None,
        gt=0,
        le=MAX_SECONDS,
        validate_default=True,
        description="Seconds before a timer payload runs (timer only).",
    )

    @field_validator("delay")
    @classmethod
    def _delay_only_on_timers(cls, delay: float | None, info: ValidationInfo) -> float | None:
        kind = info.data.get("kind")
        if kind == TriggerKind.TIMER and delay is None:
            raise ValueError("required for a timer trigger")
        if kind is not None and kind != TriggerKind.TIMER and delay is not None:
            raise ValueError(f'only a timer trigger has a delay (this one is "{kind}")')
        return delay


#: Most copies one divide card makes.
MAX_DIVIDE = 10


class Divide(ContentModel):
    """A divide card (R-VM-14): the next action fires `copies` times, the copies free of mana and CPU."""

    copies: int = Field(ge=2, le=MAX_DIVIDE, description="How many times the next action fires.")
    damage_mult: float = Field(gt=0, le=1, description="Each copy's damage, as a share of the action's.")
    spread: Degrees = Field(default=0, description="Degrees the copies fan out over.")


class ModifierBlock(ContentModel):
    """A MODIFIER's effect on the shot state (R-VM-10); every field defaults to no effect."""

    damage_flat: float = Field(
        default=0, ge=-MAX_DAMAGE, le=MAX_DAMAGE, description="Added to base damage (R-DMG-1 Σflat)."
    )
    damage_mult: float = Field(default=1, ge=0, le=MAX_MULTIPLIER, description="Multiplies damage (R-DMG-1 Πmult).")
    speed_mult: float = Field(
        default=1, ge=0, le=MAX_MULTIPLIER, description="Multiplies body speed (0: the shot stands still)."
    )
    lifetime_add: float = Field(
        default=0, ge=-MAX_SECONDS, le=MAX_SECONDS, description="Seconds added to the body's lifetime."
    )
    spread_add: float = Field(default=0, ge=-360, le=360, description="Degrees added to the spread.")
    bounce_add: int = Field(default=0, ge=0, le=MAX_COUNT, description="Bounces added.")
    pierce_add: int = Field(default=0, ge=0, le=MAX_COUNT, description="Pierce added.")
    homing_add: Chance = Field(default=0, description="Homing strength added (the sum is capped at 1).")
    path: ProjectilePath | None = Field(default=None, description="Replaces the body's path (sine_path: sine).")
    orbit: OrbitRing | None = Field(
        default=None, validate_default=True, description="The ring an orbit path circles (orbit only)."
    )
    element: Element | None = Field(default=None, description="Replaces the shot's element (the infusions).")
    status_chance_add: Chance = Field(default=0, description="Chance to apply the element's status, added.")
    crit_add: Chance = Field(default=0, description="Critical-hit chance added.")
    knockback_add: float = Field(default=0, ge=0, le=MAX_SPEED, description="Knockback impulse in px/s added.")
    size_mult: float = Field(default=1, gt=0, le=10, description="Multiplies body, explosion and zone radii.")
    lifesteal_add: Chance = Field(default=0, description="Fraction of damage dealt healed on the player.")
    splitter: bool = Field(
        default=False, description="Splits the cast on a slot with two outgoing edges (R-BOARD-3; board only)."
    )
    mana_gain: float = Field(
        default=0,
        ge=0,
        le=MAX_DAMAGE,
        description="Mana given to the cards the cast draws after it; what they leave is lost when the cast ends, "
        "so no cast nets mana (R-VM-14 add_mana).",
    )
    adds_trigger: TriggerTiming | None = Field(
        default=None,
        description="The next projectile action becomes a trigger of this kind carrying the card after it (R-VM-14).",
    )
    divide: Divide | None = Field(
        default=None, description="The next action fires several times, the copies free (R-VM-14 divide)."
    )

    @field_validator("orbit")
    @classmethod
    def _orbit_needs_its_ring(cls, ring: OrbitRing | None, info: ValidationInfo) -> OrbitRing | None:
        return _ring_matches_path(ring, info)

    def has_an_effect(self) -> bool:
        """It sets at least one shot-state field (a modifier that sets none must change the wand
        instead: a recharge add, R-VM-14; the spell checks that)."""
        return bool(self.model_fields_set)


class MulticastBlock(ContentModel):
    """MULTICAST(n): the next n actions fire together (R-VM-3)."""

    count: int = Field(ge=2, le=MAX_FAN, description="Actions fired together; raises the action budget by count - 1.")
    spread: Degrees = Field(description="Fan-out of the actions in degrees.")


class TriggerBlock(TriggerTiming):
    """A TRIGGER: its carrier projectile, and when the payload after it runs (R-VM-4)."""

    carrier: CarrierBlock = Field(description="The trigger's own projectile.")


# --- LOGIC ----------------------------------------------------------------------

_GATES = frozenset(
    {LogicKind.IF_HP_LOW, LogicKind.IF_ENEMY_CLOSE, LogicKind.IF_MOVING, LogicKind.IF_STILL, LogicKind.IF_MANA_ABOVE}
)
_REGISTER_KINDS = frozenset({LogicKind.HALT_IF_REG_LT, LogicKind.IF_REG_GE, LogicKind.REG_SET, LogicKind.REG_ADD})
_COUNTERS = frozenset({LogicKind.CHARGE_COUNTER, LogicKind.KILL_COMBO})

# Which logic kinds take which parameter: guarded span, threshold, register/value, n, loop count.
_TAKES: dict[str, frozenset[LogicKind]] = {
    "span": _GATES | _COUNTERS | {LogicKind.LOOP, LogicKind.IF_REG_GE},
    "threshold": frozenset({LogicKind.IF_HP_LOW, LogicKind.IF_ENEMY_CLOSE, LogicKind.IF_MANA_ABOVE}),
    "register": _REGISTER_KINDS,
    "value": _REGISTER_KINDS,
    "n": _COUNTERS,
    "count": frozenset({LogicKind.LOOP}),
}
# The parameters a kind must state; `span` is optional (default 1) wherever it is taken.
_REQUIRED = ("threshold", "register", "value", "n", "count")


class LogicBlock(ContentModel):
    """A LOGIC node: a gate, loop, halt, register operation or packaged counter.

    Gates and `if_reg_ge` guard the next `span` nodes (R-VM-6); `loop` runs the
    next `span` nodes `count` times (R-VM-7); `charge_counter` and `kill_combo`
    run their `span` on the Nth pass of the cursor or once N kills have
    accumulated, and skip it otherwise like a false gate (R-REG-2).
    `halt_if_reg_lt` ends the cast when it holds (the R-REG-2 "A+1, if A<N
    end, A=0" program).
    """

    # Dumps write "register", as the file does (pydantic >= 2.11).
    model_config = ConfigDict(serialize_by_alias=True)

    kind: LogicKind = Field(description="What the node does.")
    span: int | None = Field(
        default=None, ge=1, le=MAX_FAN, validate_default=True, description="Nodes guarded or looped (default 1)."
    )
    threshold: float | None = Field(
        default=None,
        ge=0,
        le=1_000_000,
        validate_default=True,
        description="if_hp_low: fraction of max HP (0..1); if_enemy_close: px; if_mana_above: mana.",
    )
    # Named `register_` in Python: `register` is a class method of every pydantic model (ABCMeta).
    register_: Register | None = Field(
        default=None, alias="register", validate_default=True, description="Register read or written."
    )
    value: int | None = Field(
        default=None,
        ge=-1_000_000,
        le=1_000_000,
        validate_default=True,
        description="Register operand (the core keeps an i32).",
    )
    n: int | None = Field(
        default=None, ge=1, le=1_000_000, validate_default=True, description="Casts or kills counted (R-REG-2)."
    )
    count: int | None = Field(
        default=None, ge=1, le=MAX_COUNT, validate_default=True, description="Loop iterations (R-VM-7)."
    )
    grants_budget: bool = Field(
        default=False, description="The loop grants the action budget its body needs (the gatling loop, R-VM-7)."
    )

    @field_validator("span", "threshold", "register_", "value", "n", "count")
    @classmethod
    def _parameter_fits_kind(cls, value: object, info: ValidationInfo) -> object:
        kind = info.data.get("kind")
        name = (info.field_name or "").rstrip("_")
        if kind is None or not name:
            return value
        takes = kind in _TAKES[name]
        if value is None and takes and name in _REQUIRED:
            raise ValueError(f'required for "{kind}"')
        if value is not None and not takes:
            raise ValueError(f'"{kind}" takes no {name}')
        if name == "threshold" and kind == LogicKind.IF_HP_LOW and isinstance(value, float) and value >= 1:
            raise ValueError(f"must be a fraction of max HP below 1, got {value:g}")
        return value

    @field_validator("grants_budget")
    @classmethod
    def _only_loops_grant_budget(cls, grants: bool, info: ValidationInfo) -> bool:
        kind = info.data.get("kind")
        if grants and kind is not None and kind != LogicKind.LOOP:
            raise ValueError(f'only a loop grants budget (this one is "{kind}")')
        return grants

    @property
    def guarded_span(self) -> int:
        """Nodes this gate guards or this loop repeats (1 unless stated); 0 for kinds without a span."""
        if self.kind not in _TAKES["span"]:
            return 0
        return self.span if self.span is not None else 1

    @property
    def uses_registers(self) -> bool:
        """Whether this is a raw register card (R-REG-2: debug pool only)."""
        return self.kind in _REGISTER_KINDS
