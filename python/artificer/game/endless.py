"""Endless mode's waves (R-END-3), no pygame: the waves after the content's last, made from its own.

An endless run goes on after the last wave's clear. Wave N past the last (balance.json `endless`):
- is a copy of one of the template waves, cycled (`templates`: waves without a boss);
- sends each group's count × the wave's difficulty, clamped to `max_group_count`;
- gains the `additions` whose `from_wave` it has reached (the enemy mix widening);
- is `difficulty(N)` harder: enemy HP and damage × 1 + `difficulty_step` for every `step_every`
  waves past the last — no cap but the core's ranges (the world of each wave is built with it).
`wave_for(content, n)` is the content's wave n, or the endless wave n past the last.

Every `mutators.every` waves past the last (W30, W40…) the next global mutator of the cycle is
active, replacing the last (`mutator`): elite flood here (every group elite), shrinking map in the
arena (`arena_scale`), the others as rules of the core (`engine.simulation.core_mutators`). Every
`boss_rush.every` waves (W40, W60…) is a boss rush (`boss_rush`, `rush_bosses`): bosses in a row
from those the run met, the wave's own groups still coming.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from artificer.content import Content
from artificer.content.bosses import Boss
from artificer.content.models import MAX_MULTIPLIER, Mutator, Wave
from artificer.game import draws

__all__ = ["arena_scale", "boss_rush", "difficulty", "endless_wave", "mutator", "rush_bosses", "wave_for"]


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


def arena_scale(content: Content, number: int) -> float:
    """R-END-3 shrinking map: the share of the arena's sides wave `number` has — 1 unless shrinking
    map is active; then each side `step` shorter for each time it has become active (this one
    included), never below `floor`."""
    rules = content.balance.endless.mutators
    active = mutator(content, number)
    if active is None or active.id != "shrinking_map":
        return 1.0
    turns = max(0, number - len(content.waves)) // rules.every
    times = sum(1 for turn in range(1, turns + 1) if rules.cycle[(turn - 1) % len(rules.cycle)].id == "shrinking_map")
    return max(rules.shrinking_map.floor, (1.0 - rules.shrinking_map.step) ** times)


def boss_rush(content: Content, number: int) -> bool:
    """R-END-3: wave `number` is a boss rush (every `boss_rush.every` waves past the last)."""
    past = number - len(content.waves)
    return past > 0 and past % content.balance.endless.boss_rush.every == 0


def rush_bosses(content: Content, met: Iterable[str], seed: int, number: int) -> list[Boss]:
    """R-END-3: the bosses of boss rush `number`, in the order they come: `boss_rush.bosses` drawn
    from the run seed among those the run `met` (each once while there are enough, then again;
    none met: every boss). Empty for a wave that is no boss rush."""
    if not boss_rush(content, number):
        return []
    known = content.bosses
    pool = [known[b] for b in sorted(set(met)) if b in known] or [known[b] for b in sorted(known)]
    rng = draws.rng(seed, draws.BOSS, number)
    chosen: list[Boss] = []
    while len(chosen) < content.balance.endless.boss_rush.bosses:
        left = [b for b in pool if b not in chosen] or pool
        chosen.append(left[int(rng.integers(len(left)))])
    return chosen


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
