"""The frame contract has one source, the core (rust/sim/contract.rs): the Python enums and column
indices of `artificer.engine` must be exactly the core's tables — no name missing, none extra,
no value different — in both directions."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum

import pytest

from artificer import _core
from artificer.engine import events, frame

#: Each Python enum and the core table it is built from.
ENUMS: list[tuple[type[Enum], Mapping[str, int]]] = [
    (frame.Op, _core.OPS),
    (frame.Status, _core.STATUSES),
    (frame.EnemyFlag, _core.ENEMY_FLAGS),
    (events.EventKind, _core.EVENT_KINDS),
    (events.Reaction, _core.REACTIONS),
    (events.BossPattern, _core.BOSS_PATTERNS),
]

#: Each Python column enum and the buffer whose layout it indexes.
COLUMNS: list[tuple[type[Enum], str]] = [
    (frame.ControlField, "controls"),
    (frame.CommandColumn, "commands"),
    (frame.EnemyColumn, "enemies"),
    (frame.ProjectileColumn, "projectiles"),
    (frame.PickupColumn, "pickups"),
    (frame.ZoneColumn, "zones"),
    (frame.SummonColumn, "summons"),
    (frame.PlayerField, "player"),
    (events.EventColumn, "events"),
]

#: The module-level field tuples and the width constants the buffers are allocated with.
FIELDS = [
    (frame.CONTROL_FIELDS, "controls", _core.CONTROLS_WIDTH),
    (frame.COMMAND_FIELDS, "commands", _core.COMMAND_WIDTH),
    (frame.ENEMY_FIELDS, "enemies", _core.ENEMY_COLUMNS),
    (frame.PROJECTILE_FIELDS, "projectiles", _core.PROJECTILE_COLUMNS),
    (frame.PICKUP_FIELDS, "pickups", _core.PICKUP_COLUMNS),
    (frame.ZONE_FIELDS, "zones", _core.ZONE_COLUMNS),
    (frame.SUMMON_FIELDS, "summons", _core.SUMMON_COLUMNS),
    (frame.PLAYER_FIELDS, "player", _core.PLAYER_WIDTH),
]


def members(enum: type[Enum]) -> dict[str, int]:
    return {member.name: int(member.value) for member in enum.__members__.values()}


@pytest.mark.parametrize(("enum", "table"), ENUMS, ids=lambda e: getattr(e, "__name__", ""))
def test_each_enum_is_the_core_table(enum: type[Enum], table: Mapping[str, int]) -> None:
    ours = members(enum)
    assert sorted(set(table) - set(ours)) == [], f"{enum.__name__} lacks the core's names"
    assert sorted(set(ours) - set(table)) == [], f"{enum.__name__} has names the core does not"
    assert {name: value for name, value in ours.items() if table[name] != value} == {}, "values differ"
    assert len(set(ours.values())) == len(ours), f"{enum.__name__}: an alias hides a member"


@pytest.mark.parametrize(("enum", "buffer"), COLUMNS, ids=lambda e: getattr(e, "__name__", str(e)))
def test_each_column_enum_is_the_core_layout(enum: type[Enum], buffer: str) -> None:
    layout = {name.upper(): index for index, name in enumerate(_core.LAYOUTS[buffer])}
    assert members(enum) == layout


def test_every_buffer_has_its_column_enum_and_width() -> None:
    assert sorted(_core.LAYOUTS) == sorted(buffer for _, buffer in COLUMNS)
    for fields, buffer, width in FIELDS:
        assert fields == _core.LAYOUTS[buffer] and len(fields) == width, buffer
    assert len(_core.LAYOUTS["events"]) == _core.EVENT_COLUMNS
    assert (events.KIND, events.A, events.B, events.X, events.Y, events.VALUE) == tuple(events.EventColumn)


@pytest.mark.parametrize("buffer", ["enemies", "projectiles", "pickups", "zones", "summons"])
def test_every_drawn_buffer_holds_its_position_where_the_renderer_reads_it(buffer: str) -> None:
    assert (frame.column(buffer, "x"), frame.column(buffer, "y")) == (frame.ROW_X, frame.ROW_Y)


def test_the_flag_constants_are_the_flag_table() -> None:
    for name, bit in _core.ENEMY_FLAGS.items():
        assert getattr(_core, f"ENEMY_FLAG_{name}") == bit == frame.EnemyFlag[name]
    assert {name for name in dir(_core) if name.startswith("ENEMY_FLAG_")} == {
        f"ENEMY_FLAG_{name}" for name in _core.ENEMY_FLAGS
    }


def test_a_column_the_core_lacks_is_named() -> None:
    with pytest.raises(KeyError, match="enemies.*'shield'"):
        frame.column("enemies", "shield")


def test_a_command_row_lands_in_the_layout_s_columns() -> None:
    """FrameInput writes each operand in its named column (the core reads them by the same names)."""
    frame_input = frame.FrameInput(1)
    frame_input.command(frame.Op.DAMAGE_NEAREST, 1.0, 2.0, 3.0, 4.0, 5.0)
    row = dict(zip(_core.LAYOUTS["commands"], frame_input.commands[0], strict=True))
    assert row == {"op": frame.Op.DAMAGE_NEAREST, "a": 1.0, "b": 2.0, "x": 3.0, "y": 4.0, "value": 5.0}
    frame_input.move(0.5, -0.25)
    frame_input.aim_at(7.0, 8.0)
    frame_input.dash()
    controls = dict(zip(_core.LAYOUTS["controls"], frame_input.controls, strict=True))
    assert controls == {"move_x": 0.5, "move_y": -0.25, "aim_x": 7.0, "aim_y": 8.0, "dash": 1.0, "aim_at_point": 1.0}


def test_each_relic_rule_reports_the_event_named_after_it() -> None:
    """The core's relic rules (`RELIC_RULE_SPECS`) and their events (`RELIC_RULES`) are one list:
    each rule's event is named as the rule, and `RELIC_RULE_BY_EVENT` finds each rule by its event."""
    assert {name.upper(): spec["event"] for name, spec in _core.RELIC_RULE_SPECS.items()} == dict(_core.RELIC_RULES)
    assert {events.RELIC_RULE_BY_EVENT[spec["event"]] for spec in _core.RELIC_RULE_SPECS.values()} == set(
        _core.RELIC_RULE_SPECS
    )
