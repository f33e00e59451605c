"""Endless mode's waves (R-END-3), no pygame: the waves after the content's last, made from its own.

An endless run goes on after the last wave's clear. Wave N past the last (balance.json `endless`):
- is a copy of one of the template waves, cycled (`templates`: waves without a boss);
- sends each group's count × the wave's difficulty, clamped to `max_group_count`;
- gains the `additions` whose `from_wave` it has reached (the enemy mix widening);
- is `difficulty(N)` harder: enemy HP and damage × 1 + `difficulty_step` for every `step_every`
  waves past the last — no cap but the core's ranges (the world of each wave is built with it).
`wave_for(content, n)` is the content's wave n, or the endless wave n past the last.
"""

from __future__ import annotations

import math

from artificer.content import Content
from artificer.content.models import MAX_MULTIPLIER, Mutator, Wave

__all__ = ["difficulty", "endless_wave", "mutator", "wave_for"]


def difficulty(content: Content, number: int) -> float:
    """The HP and damage multiplier of wave `number` (1 up to the last wave, then +step every few)."""
    endless = content.balance.endless
    past = max(0, number - len(content.waves))
    return min(MAX_MULTIPLIER, 1.0 + endless.difficulty_step * (past // endless.step_every))


def mutator(content: Content, number: int) -> Mutator | None:
    """R-END-3: the global mutator active in wave `number` — from the last wave + `every` on, the
    next of the cycle each `every` waves (the latest replacing the last); None before."""
    rules = content.balance.endless.mutators
    turns = max(0, number - len(content.waves)) // rules.every
    return rules.cycle[(turns - 1) % len(rules.cycle)] if turns and rules.cycle else None


def endless_wave(content: Content, number: int) -> Wave:
    """Endless wave `number` (past the content's last wave)."""
    endless = content.balance.endless
    last = len(content.waves)
    if not last < number <= endless.max_wave:
        raise KeyError(f"no endless wave {number} (endless waves are {last + 1}..{endless.max_wave})")
    template = content.wave(endless.templates[(number - last - 1) % len(endless.templates)])
    factor = difficulty(content, number)
    groups = [*template.groups, *(a.group for a in endless.additions if a.from_wave <= number)]
    flood = (active := mutator(content, number)) is not None and active.id == "elite_flood"
    scaled = tuple(
        group.model_copy(
            update={
                "count": min(endless.max_group_count, math.ceil(group.count * factor)),
                "elite": group.elite or flood,  # elite flood: every enemy elite (HP and rewards × balance.json elite)
            }
        )
        for group in groups
    )
    # A copy past validation: a wave's number is at most the content's wave count there.
    return template.model_copy(update={"wave": number, "groups": scaled, "boss": False})


def wave_for(content: Content, number: int) -> Wave:
    """The content's wave `number`, or the endless wave `number` past its last."""
    return content.wave(number) if number <= len(content.waves) else endless_wave(content, number)
