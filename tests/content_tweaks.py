"""Content with one balance.json section changed, for tests that try a designer's edit without
writing files (the models are frozen: a copy with the section's fields replaced)."""

from __future__ import annotations

import dataclasses
from typing import Any

from artificer.content import Content


def with_balance(content: Content, section: str, **changes: Any) -> Content:
    """`content` with balance.json's `section` (e.g. "wave", "shop") given `changes`."""
    part = getattr(content.balance, section).model_copy(update=changes)
    return dataclasses.replace(content, balance=content.balance.model_copy(update={section: part}))
