"""A boss wave's fight (R-WAVE-1, R-BOSS-2), no pygame.

This module owns which boss ends a wave (`pick_boss`: the one boss file for
the wave, or — W10's two — one drawn from the run seed, so a seed replays),
where it comes (`boss_point`: `wave.boss.distance` px from the player, toward
the arena's centre, inside the arena) and what the wave records of the fight
(`BossFight`: the boss, its time to kill, the phases it reached, a stall).
The fight itself is the core's (its boss component); the wave
(`artificer.game.run.WaveInProgress`) brings the boss on its first step and
ends when it dies instead of on its timer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from artificer.content import Content, Wave
from artificer.content.bosses import Boss
from artificer.game import draws


@dataclass
class BossFight:
    """What a boss wave records of its fight (R-BOSS-3's numbers; the headless report's keys)."""

    boss_id: str
    #: Seconds from the boss's coming to its death (None while it lives).
    ttk_s: float | None = None
    #: The phases it reached, by their numbers, in order (1 first).
    phases: list[int] = field(default_factory=lambda: [1])
    #: It hyper-enraged (its enrage_after passed).
    enraged: bool = False
    #: The fight outlasted `wave.boss.stall_after` and was called off.
    stalled: bool = False

    def as_json(self) -> dict[str, Any]:
        """The headless wave entry's keys: boss_id, boss_ttk_s, boss_phases, boss_enraged, boss_stalled."""
        ttk = None if self.ttk_s is None else round(self.ttk_s, 3)
        return {
            "boss_id": self.boss_id,
            "boss_ttk_s": ttk,
            "boss_phases": list(self.phases),
            "boss_enraged": self.enraged,
            "boss_stalled": self.stalled,
        }


def pick_boss(content: Content, wave: Wave, seed: int) -> Boss | None:
    """R-BOSS-2: the boss ending `wave` (None for a wave without one): its boss file's, or one of
    several (W10: Mirror Mage or Armor Lord) drawn from the run seed."""
    if not wave.boss:
        return None
    bosses = content.bosses_for_wave(wave.wave)
    if not bosses:
        return None
    return draws.pick(draws.rng(seed, draws.BOSS, wave.wave), bosses)


def boss_point(
    content: Content, player: tuple[float, float], arena: tuple[float, float] | None = None
) -> tuple[float, float]:
    """Where the boss comes: `wave.boss.distance` px from the player toward the arena's centre
    (to the right of a player at the centre), kept inside the arena by its spawn margin (`arena`:
    the world's (width, height) when it is not the content's, R-END-3 shrinking map)."""
    balance = content.balance
    width, height = arena if arena is not None else (balance.arena.width, balance.arena.height)
    margin, distance = balance.wave.spawn_margin, balance.wave.boss.distance
    dx, dy = width / 2 - player[0], height / 2 - player[1]
    length = math.hypot(dx, dy)
    ux, uy = (dx / length, dy / length) if length > 1e-6 else (1.0, 0.0)
    x = min(max(player[0] + ux * distance, margin), width - margin)
    y = min(max(player[1] + uy * distance, margin), height - margin)
    return x, y
