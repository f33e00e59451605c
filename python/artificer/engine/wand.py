"""The spell VM's content handed to the core: the catalog (spells and
resonance recipes, once per content) and cores with their boards in the
one explicit shape the compiler reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from artificer import _core
from artificer.content import Content
from artificer.content.cores import Core


def spell_catalog(content: Content) -> _core.Catalog:
    """The core's catalog: spells in file order (their index is the VM's
    spell number), the recipes, and balance.json's `vm` rules (so the lab's
    timeline is cast under the same mana rules as the world's wand). Made once
    per `Content` (it never changes, and the catalog is only read): a run's world
    is rebuilt at every settle and arms its wand again (issue 44's profile)."""
    return content.made("catalog", lambda: _catalog(content))


def _catalog(content: Content) -> _core.Catalog:
    spells = [s.model_dump(mode="json", by_alias=True) for s in content.spells]
    recipes = [r.model_dump(mode="json", by_alias=True) for r in content.recipes]
    vm = content.balance.vm.model_dump(mode="json", by_alias=True)
    return _core.Catalog(spells, recipes, vm)


def core_data(core: Core) -> dict[str, Any]:
    """A core as the compiler reads it: its numbers, flags and expanded board."""
    data = core.model_dump(mode="json", by_alias=True)
    data["board"] = core.layout().model_dump(mode="json", by_alias=True)
    return data


def place(core: Core, cards: Sequence[str | None] | dict[str, str]) -> list[str | None]:
    """Cards in the core's slot order. A sequence fills the slots in order
    (a row core's program order); a mapping places cards by slot id."""
    slots = [slot.id for slot in core.layout().slots]
    if isinstance(cards, dict):
        unknown = sorted(set(cards) - set(slots))
        if unknown:
            raise ValueError(
                f"core {core.id!r} has no slot {', '.join(map(repr, unknown))} (slots: {', '.join(slots)})"
            )
        return [cards.get(slot) for slot in slots]
    if len(cards) > len(slots):
        raise ValueError(f"{len(cards)} cards do not fit core {core.id!r} ({len(slots)} slots)")
    return list(cards) + [None] * (len(slots) - len(cards))
