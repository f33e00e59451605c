"""Core models: the schema of cores.json, the wand bodies and their boards (GAME_RULES §2).

This module owns what one well-formed core looks like: its numbers, flags,
optional dash wave, and its board, written either as the `{"row": N}`
shorthand of a plain core or as explicit slots, edges and entries.
`Board.layout()` expands both into one `BoardLayout`, the only shape
consumers see. The graph rules of a board (reachability, cycles, neighbours)
live in `artificer.content.board_rules`; references to spells in
`artificer.content.references`.

Grid convention: x grows to the right, y grows downward (screen order), so
"up" is y - 1.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import Field, ValidationInfo, field_validator

from artificer.content.models import CORE_TIERS, ID_PATTERN, MAX_GOLD, MAX_MANA, MAX_SECONDS, ContentModel

MAX_ROW_SLOTS = 32
#: Largest grid coordinate of an explicit board's slot (the core keeps an i32).
MAX_GRID = 64
#: Largest CPU budget of a core (× balance.json vm.step_multiplier, the step budget stays in u32).
MAX_CPU_LIMIT = 10_000
#: Most slots of an explicit board.
MAX_BOARD_SLOTS = 256
MAX_TIER = 4
#: R-CORE-1: the most spells per cast a core may give (the core allows up to 16).
MAX_SPELLS_PER_CAST = 8
#: R-VM-13: the most always-cast cards a core may carry (the core's own bound).
MAX_ALWAYS_CAST = 2


class CoreFlag(StrEnum):
    """Special cores (R-CORE-4)."""

    DUAL_STREAM = "dual_stream"
    PERSISTENT_MEMORY = "persistent_memory"
    MATRIX_BOARD = "matrix_board"
    INFINITE_SPELLS = "infinite_spells"
    DEBUG_CORE = "debug_core"
    #: R-VM-3b: every cast restarts at the head (the logic core).
    PROGRAM = "program"


class Direction(StrEnum):
    """A grid direction of an adjacency bonus (R-BOARD-2)."""

    RIGHT = "right"
    LEFT = "left"
    UP = "up"
    DOWN = "down"

    @property
    def step(self) -> tuple[int, int]:
        """The (dx, dy) of one step this way (y grows downward)."""
        return _STEPS[self]


_STEPS = {Direction.RIGHT: (1, 0), Direction.LEFT: (-1, 0), Direction.UP: (0, -1), Direction.DOWN: (0, 1)}


class EntryPoint(StrEnum):
    """The programs a core runs (R-CORE-2); the order is the VM's entry index."""

    MAIN = "main"
    ON_KILL = "on_kill"
    ON_HIT = "on_hit"


class SlotBonus(ContentModel):
    """An adjacency bonus (R-BOARD-2): the card in the neighbouring slot `dir` gets ×`mult`."""

    dir: Direction = Field(description="Which neighbour the bonus applies to.")
    mult: float = Field(gt=0, le=10, description="Multiplier of the neighbour card's numeric effect.")


class Slot(ContentModel):
    """One slot on a board's grid."""

    id: str = Field(pattern=ID_PATTERN, description="Unique id within the board, named by edges and entries.")
    x: int = Field(ge=0, le=MAX_GRID, description="Grid column.")
    y: int = Field(ge=0, le=MAX_GRID, description="Grid row (grows downward).")
    bonus: SlotBonus | None = Field(default=None, description="Adjacency bonus toward one neighbour.")

    @property
    def position(self) -> tuple[int, int]:
        return (self.x, self.y)


class Entries(ContentModel):
    """The entry slot of each program of the core (R-CORE-2)."""

    main: str = Field(pattern=ID_PATTERN, description="Slot the main program starts at (run every cast).")
    on_kill: str | None = Field(default=None, pattern=ID_PATTERN, description="Slot of the on-kill program.")
    on_hit: str | None = Field(default=None, pattern=ID_PATTERN, description="Slot of the on-hit program.")

    def items(self) -> tuple[tuple[EntryPoint, str], ...]:
        """(entry, slot id) of each entry the core has, main first."""
        named = ((EntryPoint.MAIN, self.main), (EntryPoint.ON_KILL, self.on_kill), (EntryPoint.ON_HIT, self.on_hit))
        return tuple((entry, slot) for entry, slot in named if slot is not None)


Edge = tuple[str, str]


class BoardLayout(ContentModel):
    """A board in its one explicit shape: slots on a grid, directed edges, entries (R-BOARD-1).

    A slot with two outgoing edges is a splitter point: the first edge listed
    is the upper route, the second the lower (R-BOARD-3).
    """

    slots: tuple[Slot, ...] = Field(min_length=1, max_length=MAX_BOARD_SLOTS, description="Every slot of the board.")
    edges: tuple[Edge, ...] = Field(default=(), description="Directed edges [from, to] in program order.")
    entries: Entries = Field(description="Entry slot of each program.")

    @property
    def capacity(self) -> int:
        """Number of slots (R-CORE-1 `capacity`)."""
        return len(self.slots)

    def slot(self, slot_id: str) -> Slot:
        """The slot with this id."""
        for slot in self.slots:
            if slot.id == slot_id:
                return slot
        raise KeyError(f"no slot {slot_id!r} on this board")

    def slot_at(self, x: int, y: int) -> Slot | None:
        """The slot at grid position (x, y), if any."""
        return next((slot for slot in self.slots if slot.position == (x, y)), None)

    def successors(self, slot_id: str) -> tuple[str, ...]:
        """The slots this slot's edges lead to, in listed order (upper route first)."""
        return tuple(target for source, target in self.edges if source == slot_id)

    def bonus_target(self, slot: Slot) -> Slot | None:
        """The neighbouring slot this slot's bonus applies to, if it has a bonus and the neighbour exists."""
        if slot.bonus is None:
            return None
        dx, dy = slot.bonus.dir.step
        return self.slot_at(slot.x + dx, slot.y + dy)

    def entry_slots(self, entry: EntryPoint = EntryPoint.MAIN) -> tuple[str, ...]:
        """The slots of one entry's program, depth first (an upper route before its lower route).

        On a board without splitter points this is the program order; with them,
        walk `successors()` to see the branches.
        """
        start = getattr(self.entries, entry.value)
        if start is None:
            return ()
        order: list[str] = []
        stack = [start]
        while stack and len(order) <= len(self.slots):
            current = stack.pop()
            order.append(current)
            stack.extend(reversed(self.successors(current)))
        return tuple(order)


class Board(ContentModel):
    """A core's board as written: `{"row": N}`, or explicit `slots`, `edges` and `entries`."""

    row: int | None = Field(
        default=None, ge=1, le=MAX_ROW_SLOTS, description="Shorthand: N slots in a row, joined left to right."
    )
    slots: tuple[Slot, ...] | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_BOARD_SLOTS,
        validate_default=True,
        description="Every slot (explicit boards).",
    )
    edges: tuple[Edge, ...] | None = Field(
        default=None, validate_default=True, description="Directed edges [from, to] (explicit boards; default none)."
    )
    entries: Entries | None = Field(
        default=None, validate_default=True, description="Entry slot of each program (explicit boards)."
    )

    @field_validator("slots", "edges", "entries")
    @classmethod
    def _one_shape(cls, value: object, info: ValidationInfo) -> object:
        if "row" not in info.data:  # the row itself is invalid and already reported
            return value
        is_row = info.data["row"] is not None
        if is_row and value is not None:
            raise ValueError(f'a "row" board takes no {info.field_name}: give either row, or slots and entries')
        if not is_row and value is None and info.field_name != "edges":
            raise ValueError('required (or give "row" for a plain row board)')
        return value

    @property
    def is_row(self) -> bool:
        """Whether the board is written as the `{"row": N}` shorthand."""
        return self.row is not None

    def layout(self) -> BoardLayout:
        """The board in its one explicit shape; a row of N expands to slots s0..s{N-1} at (i, 0), main at s0."""
        if self.row is not None:
            slots = tuple(Slot(id=f"s{index}", x=index, y=0) for index in range(self.row))
            edges = tuple((f"s{index}", f"s{index + 1}") for index in range(self.row - 1))
            return BoardLayout(slots=slots, edges=edges, entries=Entries(main="s0"))
        assert self.slots is not None and self.entries is not None  # guaranteed by _one_shape
        return BoardLayout(slots=self.slots, edges=self.edges or (), entries=self.entries)


class DashWave(ContentModel):
    """A dash-wave core's extra spell, cast along the dash trail on its own cooldown (R-MOVE-2)."""

    spell: str = Field(pattern=ID_PATTERN, description="Id of the action spell cast along the trail.")
    cooldown: float = Field(ge=0.01, le=MAX_SECONDS, description="Seconds between dash waves.")


class Core(ContentModel):
    """One core (wand body, R-CORE-1)."""

    id: str = Field(pattern=ID_PATTERN, description="Unique id.")
    name_key: str = Field(description='i18n key of the name: "core.<id>.name".')
    description_key: str = Field(description='i18n key of the description: "core.<id>.description".')
    tier: int = Field(ge=1, le=CORE_TIERS, description="Core tier, 1..5: a deeper core is a better wand (R-CORE-5).")
    price: int = Field(ge=0, le=MAX_GOLD, description="Shop price in gold.")
    unlock_cost: int = Field(ge=0, le=MAX_GOLD, description="Aether to unlock it (0: in the base pool, R-META-1).")
    mana_max: float = Field(gt=0, le=MAX_MANA, description="Mana pool size (R-MANA-1).")
    mana_regen: float = Field(ge=0, le=MAX_MANA, description="Mana regained per second.")
    cast_delay: float = Field(gt=0, le=60, description="Seconds between casts.")
    recharge: float = Field(ge=0, le=60, description="Seconds added when a cursor wand wraps (R-VM-12).")
    cpu_limit: int = Field(ge=1, le=MAX_CPU_LIMIT, description="CPU budget of the board (R-VM-8, R-VM-9).")
    spells_per_cast: int = Field(
        default=1,
        ge=1,
        le=MAX_SPELLS_PER_CAST,
        description="The root action budget of every main cast; the root draw does not wrap (R-CORE-1, R-VM-3).",
    )
    always_cast: tuple[Annotated[str, Field(pattern=ID_PATTERN)], ...] = Field(
        default=(),
        max_length=MAX_ALWAYS_CAST,
        description="Spell ids (modifiers or non-summon actions) cast with every main cast ahead of the deck: "
        "free, no CPU, the cursor unmoved (R-VM-13).",
    )
    flags: tuple[CoreFlag, ...] = Field(default=(), description="Special-core flags (R-CORE-4).")
    dash_wave: DashWave | None = Field(default=None, description="Extra spell cast along the dash trail (R-MOVE-2).")
    board: Board = Field(description="The slots and their wiring.")

    @field_validator("name_key", "description_key")
    @classmethod
    def _key_follows_id(cls, key: str, info: ValidationInfo) -> str:
        core_id = info.data.get("id")
        suffix = "name" if info.field_name == "name_key" else "description"
        if core_id is not None and key != f"core.{core_id}.{suffix}":
            raise ValueError(f'must be "core.{core_id}.{suffix}", got "{key}"')
        return key

    @field_validator("flags")
    @classmethod
    def _flags_once(cls, flags: tuple[CoreFlag, ...]) -> tuple[CoreFlag, ...]:
        repeated = sorted({flag.value for flag in flags if flags.count(flag) > 1})
        if repeated:
            raise ValueError(f"lists {', '.join(repeated)} more than once")
        return flags

    def layout(self) -> BoardLayout:
        """The core's board in its one explicit shape."""
        return self.board.layout()

    @property
    def capacity(self) -> int:
        """Number of slots on the board (R-CORE-1)."""
        return self.board.row if self.board.row is not None else len(self.board.slots or ())

    def has_flag(self, flag: CoreFlag | str) -> bool:
        return CoreFlag(flag) in self.flags


class CoreCatalog(ContentModel):
    """cores.json: every core."""

    cores: tuple[Core, ...] = Field(min_length=1, max_length=1_000, description="Every core.")
