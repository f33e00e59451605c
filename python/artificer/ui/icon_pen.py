"""The pen the potion and relic icons are drawn with: shapes in icon units (x right,
y down, the icon's radius = 1, everything within `EXTENT`) on a transparent square
`SUPERSAMPLE`× the final size, smooth-scaled down by `done` so edges come out clean
at any size."""

from __future__ import annotations

import math

import pygame

Colour = tuple[int, int, int] | tuple[int, int, int, int]
Point = tuple[float, float]

#: How far outside the unit radius a glyph may reach, and the supersampling factor.
EXTENT = 1.1
SUPERSAMPLE = 4


class Pen:
    """Draws one icon of radius `r` px; `done()` returns it as a 2·⌈EXTENT·r⌉ square."""

    def __init__(self, r: int) -> None:
        self.r = r
        self.half = math.ceil(EXTENT * r) * SUPERSAMPLE
        self.unit = r * SUPERSAMPLE
        self.surface = pygame.Surface((2 * self.half, 2 * self.half), pygame.SRCALPHA)

    def p(self, x: float, y: float) -> tuple[int, int]:
        """A point in icon units, in the supersampled surface's pixels."""
        return round(self.half + x * self.unit), round(self.half + y * self.unit)

    def n(self, length: float) -> int:
        """A length in icon units, in pixels (at least 1)."""
        return max(1, round(length * self.unit))

    def circle(self, colour: Colour, x: float, y: float, radius: float, width: float = 0) -> None:
        pygame.draw.circle(self.surface, colour, self.p(x, y), self.n(radius), self.n(width) if width else 0)

    def ellipse(self, colour: Colour, x: float, y: float, w: float, h: float, width: float = 0) -> None:
        left, top = self.p(x, y)
        pygame.draw.ellipse(
            self.surface, colour, pygame.Rect(left, top, self.n(w), self.n(h)), self.n(width) if width else 0
        )

    def poly(self, colour: Colour, points: list[Point], width: float = 0) -> None:
        pygame.draw.polygon(self.surface, colour, [self.p(x, y) for x, y in points], self.n(width) if width else 0)

    def rect(self, colour: Colour, x: float, y: float, w: float, h: float, radius: float = 0, width: float = 0) -> None:
        left, top = self.p(x, y)
        shape = pygame.Rect(left, top, self.n(w), self.n(h))
        pygame.draw.rect(
            self.surface, colour, shape, self.n(width) if width else 0, border_radius=self.n(radius) if radius else -1
        )

    def line(self, colour: Colour, a: Point, b: Point, width: float) -> None:
        pygame.draw.line(self.surface, colour, self.p(*a), self.p(*b), self.n(width))

    def arc(
        self, colour: Colour, x: float, y: float, w: float, h: float, start: float, stop: float, width: float
    ) -> None:
        left, top = self.p(x, y)
        pygame.draw.arc(self.surface, colour, pygame.Rect(left, top, self.n(w), self.n(h)), start, stop, self.n(width))

    def done(self) -> pygame.Surface:
        """The icon at its final size."""
        size = 2 * math.ceil(EXTENT * self.r)
        return pygame.transform.smoothscale(self.surface, (size, size))
