"""Schema errors to problems: pydantic's validation errors as designer-readable `Problem`s.

This module owns the translation of a pydantic `ValidationError` into one
`Problem` per error: the location as a JSON path (`$.spells[3].mana_cost`)
and a plain reason ("must be a number, got \"lots\"", "unknown key; did you
mean \"hp\"?"), with the echoes pydantic adds for dropped items removed.
"""

from __future__ import annotations

import json
import re
import types
from collections.abc import Sequence
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from artificer.content.models import ID_PATTERN, Problem, closest_name

ROOT_PATH = "$"

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
    if kind == "string_pattern_mismatch" and _context(detail).get("pattern") != ID_PATTERN:
        return f"{_plain_message(detail)}, got {_show(detail['input'])}"
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
    kind = detail["type"]
    context = _context(detail)
    if kind == "too_short":
        minimum = context.get("min_length", 1)
        message = f"must have at least {minimum} item{'s' if minimum != 1 else ''}"
    elif kind == "too_long":
        maximum = context.get("max_length", 0)
        message = f"must have at most {maximum} item{'s' if maximum != 1 else ''}"
    elif kind == "string_too_short":
        message = "must not be empty" if context.get("min_length", 1) == 1 else message
    elif kind == "string_pattern_mismatch":
        message = f"must match the pattern {context.get('pattern')}"
    return message


def _context(detail: ErrorDetails) -> dict[str, Any]:
    return dict(detail.get("ctx") or {})


def _show(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**40:
        # str() of a huge int is slow and refused past 4300 digits: say how long it is instead.
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        shown = json.dumps(value) if _is_json(value) else repr(value)
    except (ValueError, RecursionError):
        shown = f"a {type(value).__name__}"
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _is_json(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


def _unknown_key_reason(model: type[BaseModel], location: Sequence[str | int]) -> str:
    owner = _model_at(model, location[:-1])
    key = str(location[-1])
    if owner is None:
        return "unknown key"
    allowed = [info.alias or name for name, info in owner.model_fields.items()]
    suggestion = closest_name(key, allowed)
    if suggestion is not None:
        return f'unknown key; did you mean "{suggestion}"?'
    return f"unknown key (allowed: {', '.join(allowed)})"


def _model_at(model: type[BaseModel], location: Sequence[str | int]) -> type[BaseModel] | None:
    """The model class found by following `location` down from `model`, if any."""
    current: Any = model
    for segment in location:
        current = _without_none(current)
        if isinstance(current, type) and issubclass(current, BaseModel):
            field_info = current.model_fields.get(segment) if isinstance(segment, str) else None
            if field_info is None:
                return None
            current = field_info.annotation
        else:
            current = _item_type(current)
            if current is None:
                return None
    current = _without_none(current)
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def _without_none(annotation: Any) -> Any:
    """`X | None` (or `Optional[X]`) as `X`; any other annotation unchanged."""
    if get_origin(annotation) in (Union, types.UnionType):
        candidates = [argument for argument in get_args(annotation) if argument is not type(None)]
        if len(candidates) == 1:
            return candidates[0]
    return annotation


def _item_type(annotation: Any) -> Any:
    """The element type of a tuple, list or dict annotation (the value type for a dict)."""
    origin = get_origin(annotation)
    arguments = get_args(annotation)
    if origin in (tuple, list) and arguments:
        return arguments[0]
    if origin is dict and len(arguments) == 2:
        return arguments[1]
    return None
