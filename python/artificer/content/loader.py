"""Content loading: read the data files, validate them, and cross-check them.

This module owns turning a data directory into a `Content` or a `ContentError`
listing every problem (DESIGN §6): unreadable or missing files, JSON syntax
errors with line and column, schema errors from the models (converted to JSON
paths such as `$.enemies[3].hp`), and checks that span entries or files:
unique enemy ids, wave numbering (R-WAVE-1), wave timing, and that every wave
group names an enemy that exists. A broken file is still reported alongside
the others; only the cross-checks that need it are skipped.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from artificer.content.models import (
    WAVE_COUNT,
    Balance,
    ContentError,
    Enemy,
    EnemyRoster,
    Problem,
    Wave,
    WaveSchedule,
)

DEFAULT_DATA_DIR = Path(__file__).resolve().parent.parent / "data"

BALANCE_FILE = "balance.json"
ENEMIES_FILE = "enemies.json"
WAVES_FILE = "waves.json"

ROOT_PATH = "$"

ModelT = TypeVar("ModelT", bound=BaseModel)


@dataclass(frozen=True)
class Content:
    """Validated, cross-checked game content: balance, the enemy roster and the waves."""

    balance: Balance
    enemies: tuple[Enemy, ...]
    waves: tuple[Wave, ...]
    data_dir: Path
    _enemy_indices: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        indices = {enemy.id: index for index, enemy in enumerate(self.enemies)}
        object.__setattr__(self, "_enemy_indices", indices)

    def enemy_index(self, enemy_id: str) -> int:
        """The enemy's position in enemies.json: the kind number the core uses."""
        try:
            return self._enemy_indices[enemy_id]
        except KeyError:
            raise KeyError(f"no enemy {enemy_id!r} in {ENEMIES_FILE}") from None

    def enemy(self, enemy_id: str) -> Enemy:
        """The enemy with this id."""
        return self.enemies[self.enemy_index(enemy_id)]

    def wave(self, number: int) -> Wave:
        """Wave `number` (1-based)."""
        if not 1 <= number <= len(self.waves):
            raise KeyError(f"no wave {number} (waves are 1..{len(self.waves)})")
        return self.waves[number - 1]


def load_content(data_dir: Path | None = None) -> Content:
    """Load and check every content file in `data_dir` (default: the shipped data).

    Raises `ContentError` listing every problem found in one pass.
    """
    directory = Path(data_dir) if data_dir is not None else DEFAULT_DATA_DIR
    problems: list[Problem] = []
    balance = _load_file(directory, BALANCE_FILE, Balance, problems)
    roster = _load_file(directory, ENEMIES_FILE, EnemyRoster, problems)
    schedule = _load_file(directory, WAVES_FILE, WaveSchedule, problems)
    if roster is not None:
        problems.extend(check_roster(roster))
    if schedule is not None:
        problems.extend(check_schedule(schedule))
    if roster is not None and schedule is not None:
        problems.extend(check_wave_enemies(schedule, roster))
    if problems or balance is None or roster is None or schedule is None:
        raise ContentError(problems)
    return Content(balance=balance, enemies=roster.enemies, waves=schedule.waves, data_dir=directory)


# --- one file ---------------------------------------------------------------


def _load_file(directory: Path, name: str, model: type[ModelT], problems: list[Problem]) -> ModelT | None:
    """Read, parse and validate one file; on failure add its problems and return None."""
    text = _read_text(directory / name, problems)
    if text is None:
        return None
    duplicates = _parse_json(name, text, problems)
    if duplicates is None:
        return None
    problems.extend(duplicates)
    try:
        # Strict JSON-mode validation: "12" is not a number and 4.0 is not a count,
        # while enum values may still be written as their strings.
        return model.model_validate_json(text, strict=True)
    except ValidationError as error:
        problems.extend(problems_from_validation(name, model, error))
        return None


def _read_text(path: Path, problems: list[Problem]) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        problems.append(Problem(path.name, ROOT_PATH, f"file is missing (expected at {path})"))
    except UnicodeDecodeError as error:
        problems.append(Problem(path.name, ROOT_PATH, f"file is not UTF-8 text ({error.reason} at byte {error.start})"))
    except OSError as error:
        problems.append(Problem(path.name, ROOT_PATH, f"cannot read file ({error.strerror or error})"))
    return None


class _JsonObject(dict[str, Any]):
    """A parsed JSON object that remembers keys written more than once."""

    duplicate_keys: tuple[str, ...] = ()


def _object_from_pairs(pairs: list[tuple[str, Any]]) -> _JsonObject:
    parsed = _JsonObject()
    seen: list[str] = []
    for key, value in pairs:
        if key in parsed and key not in seen:
            seen.append(key)
        parsed[key] = value
    parsed.duplicate_keys = tuple(seen)
    return parsed


def _parse_json(name: str, text: str, problems: list[Problem]) -> list[Problem] | None:
    """Check the JSON syntax; return the duplicate-key problems, or None on a syntax error."""
    try:
        document = json.loads(text, object_pairs_hook=_object_from_pairs)
    except json.JSONDecodeError as error:
        problems.append(
            Problem(name, ROOT_PATH, f"invalid JSON at line {error.lineno}, column {error.colno}: {error.msg}")
        )
        return None
    return [
        Problem(name, json_path((*location, key)), "key is written more than once (the last one would win)")
        for location, key in _duplicate_keys(document, ())
    ]


def _duplicate_keys(node: Any, location: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...], str]]:
    if isinstance(node, _JsonObject):
        for key in node.duplicate_keys:
            yield location, key
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _duplicate_keys(value, (*location, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _duplicate_keys(value, (*location, index))


# --- pydantic errors to problems --------------------------------------------

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_DICT_KEY_MARKER = "[key]"
_TYPE_REASONS = {
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
    "dict_type": "must be an object",
    "tuple_type": "must be an array",
    "list_type": "must be an array",
    "float_type": "must be a number",
    "int_type": "must be an integer",
    "int_from_float": "must be an integer",
    "string_type": "must be a string",
    "bool_type": "must be true or false",
    "finite_number": "must be a finite number",
    "string_pattern_mismatch": "must be a lowercase id (a-z, 0-9 and _, starting with a letter)",
}


def json_path(location: Sequence[str | int]) -> str:
    """A pydantic error location as a JSON path: ('enemies', 3, 'hp') -> '$.enemies[3].hp'."""
    parts = [ROOT_PATH]
    for segment in location:
        if isinstance(segment, int):
            parts.append(f"[{segment}]")
        elif segment == _DICT_KEY_MARKER:
            continue
        elif _IDENTIFIER.match(segment):
            parts.append(f".{segment}")
        else:
            parts.append(f"[{json.dumps(segment)}]")
    return "".join(parts)


def problems_from_validation(name: str, model: type[BaseModel], error: ValidationError) -> list[Problem]:
    """One `Problem` per pydantic error, with a JSON path and a designer-readable reason."""
    details = error.errors()
    return [
        Problem(name, json_path(detail["loc"]), _reason(model, detail))
        for detail in details
        if not _is_echo_of_item_errors(detail, details)
    ]


def _is_echo_of_item_errors(detail: ErrorDetails, details: Sequence[ErrorDetails]) -> bool:
    """Pydantic drops invalid items before checking a length, so "too short" may just echo them."""
    if detail["type"] != "too_short":
        return False
    location = tuple(detail["loc"])
    return any(
        len(other["loc"]) > len(location) and tuple(other["loc"])[: len(location)] == location for other in details
    )


def _reason(model: type[BaseModel], detail: ErrorDetails) -> str:
    kind = detail["type"]
    location = detail["loc"]
    if kind == "missing":
        return "required key is missing"
    if kind == "extra_forbidden":
        return _unknown_key_reason(model, location)
    if location and location[-1] == _DICT_KEY_MARKER:
        return f"unknown key: {_plain_message(detail)}"
    if kind in _TYPE_REASONS:
        return f"{_TYPE_REASONS[kind]}, got {_show(detail['input'])}"
    if kind == "enum":
        return f"{_plain_message(detail)}, got {_show(detail['input'])}"
    return _plain_message(detail)


def _plain_message(detail: ErrorDetails) -> str:
    message = detail["msg"]
    for prefix, replacement in (("Value error, ", ""), ("Input should be ", "must be ")):
        if message.startswith(prefix):
            message = replacement + message[len(prefix) :]
    if detail["type"] == "too_short":
        minimum = (detail.get("ctx") or {}).get("min_length", 1)
        message = f"must have at least {minimum} item{'s' if minimum != 1 else ''}"
    return message


def _show(value: Any) -> str:
    shown = json.dumps(value) if _is_json(value) else repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _is_json(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _unknown_key_reason(model: type[BaseModel], location: Sequence[str | int]) -> str:
    owner = _model_at(model, location[:-1])
    key = str(location[-1])
    if owner is None:
        return "unknown key"
    allowed = list(owner.model_fields)
    suggestion = _closest_name(key, allowed)
    if suggestion is not None:
        return f'unknown key; did you mean "{suggestion}"?'
    return f"unknown key (allowed: {', '.join(allowed)})"


def _closest_name(name: str, known: Sequence[str]) -> str | None:
    """The known name a typo most likely meant: a near spelling, else one that starts the same way."""
    if not name:
        return None
    close = difflib.get_close_matches(name, known, n=1)
    if close:
        return close[0]
    sharing_start = [candidate for candidate in known if name.startswith(candidate) or candidate.startswith(name)]
    return max(sharing_start, key=len) if sharing_start else None


def _model_at(model: type[BaseModel], location: Sequence[str | int]) -> type[BaseModel] | None:
    """The model class found by following `location` down from `model`, if any."""
    current: Any = model
    for segment in location:
        if isinstance(current, type) and issubclass(current, BaseModel):
            field_info = current.model_fields.get(segment) if isinstance(segment, str) else None
            if field_info is None:
                return None
            current = field_info.annotation
        else:
            current = _item_type(current)
            if current is None:
                return None
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def _item_type(annotation: Any) -> Any:
    """The element type of a tuple, list or dict annotation (the value type for a dict)."""
    origin = get_origin(annotation)
    arguments = get_args(annotation)
    if origin in (tuple, list) and arguments:
        return arguments[0]
    if origin is dict and len(arguments) == 2:
        return arguments[1]
    if origin is Union:
        candidates = [argument for argument in arguments if argument is not type(None)]
        return candidates[0] if len(candidates) == 1 else None
    return None


# --- checks across entries and files ----------------------------------------


def check_roster(roster: EnemyRoster) -> list[Problem]:
    """Enemy ids are unique (the core numbers kinds by file order)."""
    problems: list[Problem] = []
    first_index: dict[str, int] = {}
    for index, enemy in enumerate(roster.enemies):
        if enemy.id in first_index:
            reason = f'duplicate enemy id "{enemy.id}" (first used at $.enemies[{first_index[enemy.id]}])'
            problems.append(Problem(ENEMIES_FILE, f"$.enemies[{index}].id", reason))
        else:
            first_index[enemy.id] = index
    return problems


def check_schedule(schedule: WaveSchedule) -> list[Problem]:
    """R-WAVE-1: exactly 20 waves numbered 1..20 in order; groups end within their wave."""
    problems: list[Problem] = []
    if len(schedule.waves) != WAVE_COUNT:
        problems.append(
            Problem(WAVES_FILE, "$.waves", f"must list exactly {WAVE_COUNT} waves, found {len(schedule.waves)}")
        )
    for index, wave in enumerate(schedule.waves):
        if wave.wave != index + 1:
            reason = f"must be {index + 1} (waves are numbered 1..{WAVE_COUNT} in order), got {wave.wave}"
            problems.append(Problem(WAVES_FILE, f"$.waves[{index}].wave", reason))
        problems.extend(_check_group_timing(index, wave))
    return problems


def _check_group_timing(wave_index: int, wave: Wave) -> list[Problem]:
    return [
        Problem(
            WAVES_FILE,
            f"$.waves[{wave_index}].groups[{group_index}].until",
            f"must be at most the wave's duration ({wave.duration:g}), got {group.until:g}",
        )
        for group_index, group in enumerate(wave.groups)
        if group.until > wave.duration
    ]


def check_wave_enemies(schedule: WaveSchedule, roster: EnemyRoster) -> list[Problem]:
    """Every wave group names an enemy that exists in enemies.json."""
    known = [enemy.id for enemy in roster.enemies]
    problems: list[Problem] = []
    for wave_index, wave in enumerate(schedule.waves):
        for group_index, group in enumerate(wave.groups):
            if group.enemy not in known:
                problems.append(
                    Problem(
                        WAVES_FILE,
                        f"$.waves[{wave_index}].groups[{group_index}].enemy",
                        _unknown_enemy_reason(group.enemy, known),
                    )
                )
    return problems


def _unknown_enemy_reason(enemy_id: str, known: list[str]) -> str:
    reason = f'unknown enemy "{enemy_id}" (not in {ENEMIES_FILE})'
    suggestion = _closest_name(enemy_id, known)
    return f'{reason}; did you mean "{suggestion}"?' if suggestion is not None else reason
