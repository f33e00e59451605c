"""A boss's wind-ups in the arena (R-BOSS-3): each volley is seen before it comes, so a player can
dodge it.

This module owns `WindUp` (one volley wound up, as the core's `World.boss_status()` reports it
under `telegraphs`) and `draw_wind_ups`, which draws them over the world and under the player.
The core fires a volley exactly from the spot it wound up at, along the lines it locked then
(rust/sim/world/boss_fight.rs), so what is drawn here is where the shots will go:

- a barrage: its fan's lines from the boss toward the aim it locked, as far as its shots fly,
  drawn dim at once and filling bright from the boss outward as the wind-up runs; the player
  steps out of the lines;
- a ring (spread, burst): a ring growing from the boss's edge, with a spoke along each shot's
  line filling the same way, so the gaps between the shots read as the way through.

The colours are the boss warning's red (the colour-blind palette's "warning" when it is on); the
fill is the same idiom as the spawn markers' closing ring (R-WAVE-1): the marker is complete when
the volley comes. No state here: the arena decodes the boss status each step and draws it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from artificer.engine.events import BossPattern

Colour = tuple[int, int, int]

#: The fill (bright) and the guide (dim: the whole line from the first frame) of a telegraph.
TELEGRAPH_COLOUR: Colour = (255, 110, 90)
#: The guide is the fill this much toward the dark floor (no alpha blending: lines are cheap).
GUIDE_SHADE = 0.55
#: Line widths in px: the guide, the fill.
GUIDE_WIDTH = 2
FILL_WIDTH = 3
#: A barrage's lines reach as far as its shots fly, at most this far (px; about a screen's width).
MAX_REACH = 900.0
#: A ring's spokes start this far outside the boss's edge and are this long (px).
RING_GAP = 6.0
SPOKE_LENGTH = 70.0
#: The last share of a wind-up flashes: the fill's width doubles (the volley is about to come).
FLASH_SHARE = 0.15


@dataclass(frozen=True)
class WindUp:
    """One volley wound up: where its shots come from, their lines, and how far the wind-up has run."""

    pattern: BossPattern
    x: float
    y: float
    #: Radians: a barrage's locked aim (its fan's centre), a ring's first shot.
    angle: float
    count: int
    spread_degrees: float
    #: Seconds until the volley, of `seconds` in all.
    left: float
    seconds: float
    #: The boss's radius (px) and how far its shots fly (px): where a ring and a line begin and end.
    radius: float = 0.0
    reach: float = MAX_REACH

    @property
    def progress(self) -> float:
        """0 as it winds up, 1 as the volley comes."""
        return 1.0 if self.seconds <= 0 else min(1.0, max(0.0, 1.0 - self.left / self.seconds))

    def directions(self) -> list[tuple[float, float]]:
        """The unit direction of each shot, as the core fires them (`boss::fan_at`, `boss::ring`)."""
        if self.pattern is BossPattern.BARRAGE:
            spread = math.radians(self.spread_degrees)
            step = spread / (self.count - 1) if self.count > 1 else 0.0
            first = self.angle - (spread / 2 if self.count > 1 else 0.0)
            angles = [first + step * i for i in range(self.count)]
        else:
            gap = math.tau / max(1, self.count)
            angles = [self.angle + gap * i for i in range(self.count)]
        return [(math.cos(a), math.sin(a)) for a in angles]


def wind_ups(statuses: Iterable[Mapping[str, Any]], bodies: Mapping[int, tuple[float, float]]) -> tuple[WindUp, ...]:
    """Every live boss's wind-ups from `World.boss_status()`; `bodies` maps a boss kind to its
    (radius, shot reach) in px (a kind missing: no radius, the longest reach)."""
    out: list[WindUp] = []
    for status in statuses:
        radius, reach = bodies.get(int(status["kind"]), (0.0, MAX_REACH))
        for t in status.get("telegraphs", ()):
            out.append(
                WindUp(
                    pattern=BossPattern(int(t["pattern"])),
                    x=float(t["x"]),
                    y=float(t["y"]),
                    angle=float(t["angle"]),
                    count=int(t["count"]),
                    spread_degrees=float(t["spread_degrees"]),
                    left=float(t["left"]),
                    seconds=float(t["seconds"]),
                    radius=radius,
                    reach=min(MAX_REACH, reach),
                )
            )
    return tuple(out)


def guide_colour(colour: Colour) -> Colour:
    r, g, b = colour
    return (round(r * GUIDE_SHADE), round(g * GUIDE_SHADE), round(b * GUIDE_SHADE))


def draw_wind_ups(
    surface: pygame.Surface,
    telegraphs: Sequence[WindUp],
    offset: tuple[float, float],
    colour: Colour = TELEGRAPH_COLOUR,
) -> int:
    """Draws each wind-up at its place in the world (`offset`: the camera's, world → screen);
    returns how many lines it drew (0: nothing wound up)."""
    ox, oy = offset
    guide = guide_colour(colour)
    drawn = 0
    for wind_up in telegraphs:
        x, y, progress = wind_up.x + ox, wind_up.y + oy, wind_up.progress
        width = FILL_WIDTH * (2 if progress >= 1.0 - FLASH_SHARE else 1)
        if wind_up.pattern is BossPattern.BARRAGE:
            start, length = wind_up.radius, max(0.0, wind_up.reach - wind_up.radius)
        else:
            start, length = wind_up.radius + RING_GAP, SPOKE_LENGTH
            pygame.draw.circle(surface, guide, (x, y), start + length, GUIDE_WIDTH)
            pygame.draw.circle(surface, colour, (x, y), start + length * progress, width)
        for ux, uy in wind_up.directions():
            near = (x + ux * start, y + uy * start)
            pygame.draw.line(surface, guide, near, (x + ux * (start + length), y + uy * (start + length)), GUIDE_WIDTH)
            fill = start + length * progress
            pygame.draw.line(surface, colour, near, (x + ux * fill, y + uy * fill), width)
            drawn += 1
    return drawn
