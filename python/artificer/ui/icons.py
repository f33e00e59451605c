"""The stat and talent glyphs (R-STAT-1): one vector icon per `WandStat` and the Last Will
talent's mark, drawn by the game itself at any size from ~10 to ~40 px of radius.

This module owns `stat_icon` and `talent_icon`. Each glyph is a small drawing over
icon units (`_Pen`: x right, y down, the icon's radius `r` = 1), so one drawing
serves every size, and every glyph stays within `EXTENT`·r of its centre. Strokes
and fills take the caller's colour (the shop's stat colour); an attunement's element
glyph takes its element's colour (`atlas.ELEMENT_COLOURS`, as the spell cards do,
Okabe–Ito) inside a ring in the caller's colour, so shape and colour both say the
element. Holes are drawn transparent: the card's face shows through, whatever its colour.

    cpu             a chip                 cast_speed     two chevrons
    accuracy        a crosshair            max_hp         a heart
    armor           a half-filled shield   move_speed     a winged boot
    mana_leech      fangs over a drop      crit_chance    a star burst
    pickup_radius   a magnet and a crystal mana_regen     a crystal and a plus
    max_mana        a crystal and an arrow up
    luck            a four-leaf clover     attunement_*   in a ring: a sword (physical),
                                           a flame, a snowflake, a bolt, a skull (poison), waves
    Last Will       a candle flame over a small heart

pygame.draw does not anti-alias thick shapes, so a glyph is drawn `SUPERSAMPLE`× larger,
premultiplied and smooth-scaled down, and kept per (glyph, r, colour): drawing one costs
~0.7 ms at r=20 (~4 ms at r=40), blitting the kept one ~6 µs (~10 µs), and the shop
draws up to four a frame, so only a new window size pays the drawing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

import pygame

from artificer.content.models import ATTUNEMENT_PREFIX, WandStat
from artificer.ui.atlas import ELEMENT_COLOURS

Colour = tuple[int, int, int]
Ink = tuple[int, int, int, int]
Point = tuple[float, float]

#: Every glyph stays within this many radii of its centre (the crystal's tips reach 1.25 too).
EXTENT = 1.25
SUPERSAMPLE = 4
#: Stroke widths in icon units; no stroke gets thinner than `MIN_WIDTH` final pixels at small r.
THIN, STROKE, BOLD = 0.11, 0.16, 0.24
MIN_WIDTH = 1.5
HOLE: Ink = (0, 0, 0, 0)
LAST_WILL = "talent:last_will"


class _Pen:
    """Draws in icon units onto a transparent square `SUPERSAMPLE`× the final size."""

    def __init__(self, r: int, colour: Colour) -> None:
        self.half = math.ceil(EXTENT * r) * SUPERSAMPLE
        self.unit = r * SUPERSAMPLE
        self.ink: Ink = (*colour, 255)
        self.surface = pygame.Surface((2 * self.half, 2 * self.half), pygame.SRCALPHA)

    def at(self, point: Point) -> Point:
        return (self.half + point[0] * self.unit, self.half + point[1] * self.unit)

    def width(self, width: float) -> float:
        return max(MIN_WIDTH * SUPERSAMPLE, width * self.unit)

    def fill(self, points: Sequence[Point], ink: Ink | None = None) -> None:
        pygame.draw.polygon(self.surface, ink or self.ink, [self.at(p) for p in points])

    def disc(self, centre: Point, radius: float, ink: Ink | None = None) -> None:
        pygame.draw.circle(self.surface, ink or self.ink, self.at(centre), radius * self.unit)

    def ring(self, centre: Point, radius: float, width: float, ink: Ink | None = None) -> None:
        """A circle stroked `width` wide, centred on `radius`."""
        w = self.width(width)
        pygame.draw.circle(self.surface, ink or self.ink, self.at(centre), radius * self.unit + w / 2, max(1, round(w)))

    def stroke(self, points: Sequence[Point], width: float, ink: Ink | None = None, closed: bool = False) -> None:
        """A polyline with round joins and caps (pygame's thick lines have neither)."""
        ink, w = ink or self.ink, self.width(width)
        ends = [self.at(p) for p in points]
        if closed:
            ends.append(ends[0])
        for (x0, y0), (x1, y1) in zip(ends, ends[1:]):
            length = math.hypot(x1 - x0, y1 - y0) or 1.0
            nx, ny = -(y1 - y0) / length * w / 2, (x1 - x0) / length * w / 2
            pygame.draw.polygon(
                self.surface, ink, [(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)]
            )
        for end in ends:
            pygame.draw.circle(self.surface, ink, end, w / 2)

    def sprite(self) -> pygame.Surface:
        """The drawing at its final size, premultiplied (blit it with BLEND_PREMULTIPLIED)."""
        size = self.half * 2 // SUPERSAMPLE
        return pygame.transform.smoothscale(self.surface.premul_alpha(), (size, size))


# --- shapes in icon units -------------------------------------------------------------------


def _moved(
    points: Sequence[Point], dx: float = 0.0, dy: float = 0.0, scale: float = 1.0, turn: float = 0.0
) -> list[Point]:
    """`points` scaled, turned (radians, clockwise on screen) about the origin, then moved."""
    c, s = math.cos(turn), math.sin(turn)
    return [(dx + scale * (x * c - y * s), dy + scale * (x * s + y * c)) for x, y in points]


def _arc(centre: Point, radius: float, start: float, end: float, steps: int = 24) -> list[Point]:
    """Points on a circle from angle `start` to `end` (radians, clockwise on screen, 0 = right)."""
    cx, cy = centre
    angles = (start + (end - start) * i / steps for i in range(steps + 1))
    return [(cx + radius * math.cos(a), cy + radius * math.sin(a)) for a in angles]


def _spline(points: Sequence[Point], steps: int = 8) -> list[Point]:
    """A smooth curve through `points` (Catmull–Rom), from the first to the last."""
    padded = [points[0], *points, points[-1]]
    curve: list[Point] = []
    for i in range(1, len(padded) - 2):
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = padded[i - 1 : i + 3]
        for k in range(steps):
            t = k / steps
            a, b = -0.5 * t**3 + t**2 - 0.5 * t, 1.5 * t**3 - 2.5 * t**2 + 1
            c, d = -1.5 * t**3 + 2 * t**2 + 0.5 * t, 0.5 * t**3 - 0.5 * t**2
            curve.append((a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3))
    curve.append(points[-1])
    return curve


def _heart(steps: int = 64) -> list[Point]:
    """A heart 2 wide, its lobes' tops at y ≈ −0.72 and its tip at y = 1 (the classic parametric heart)."""
    return [
        (math.sin(t) ** 3, (-13 * math.cos(t) + 5 * math.cos(2 * t) + 2 * math.cos(3 * t) + math.cos(4 * t)) / 17)
        for t in (2 * math.pi * i / steps for i in range(steps))
    ]


def _drop(tip: Point, centre: Point, radius: float) -> list[Point]:
    """A drop: a pointed `tip` and a round end of `radius` about `centre`."""
    towards = math.atan2(tip[1] - centre[1], tip[0] - centre[0])
    bend = math.acos(min(1.0, radius / math.dist(tip, centre)))
    return [tip, *_arc(centre, radius, towards + bend, towards + 2 * math.pi - bend)]


def _flame(scale: float, dx: float = 0.0, dy: float = 0.0) -> list[Point]:
    """A flame about 1.6 tall: a sharp tip leaning right, a tongue on the left, a round base."""
    right = _spline([(0.08, -0.82), (0.3, -0.4), (0.46, 0.05), (0.4, 0.45), (0.0, 0.72)])
    left = _spline(
        [(0.0, 0.72), (-0.4, 0.45), (-0.44, 0.0), (-0.32, -0.42), (-0.12, -0.12), (-0.04, -0.5), (0.08, -0.82)]
    )
    return _moved(right + left, dx, dy, scale)


def _star(points: int, outer: Sequence[float], inner: float, turn: float = -math.pi / 2) -> list[Point]:
    """A star of `points` tips whose lengths cycle through `outer`."""
    star: list[Point] = []
    for i in range(points * 2):
        radius = outer[(i // 2) % len(outer)] if i % 2 == 0 else inner
        angle = turn + math.pi * i / points
        star.append((radius * math.cos(angle), radius * math.sin(angle)))
    return star


# --- the glyphs ---------------------------------------------------------------------------


def _cpu(pen: _Pen) -> None:
    pen.stroke([(-0.6, -0.6), (0.6, -0.6), (0.6, 0.6), (-0.6, 0.6)], STROKE, closed=True)
    pen.fill([(-0.28, -0.28), (0.28, -0.28), (0.28, 0.28), (-0.28, 0.28)])
    for offset in (-0.34, 0.0, 0.34):
        for side in (-1, 1):
            pen.stroke([(offset, side * 0.72), (offset, side * 0.98)], THIN)
            pen.stroke([(side * 0.72, offset), (side * 0.98, offset)], THIN)


def _cast_speed(pen: _Pen) -> None:
    for shift in (-0.62, 0.02):
        pen.stroke([(shift, -0.72), (shift + 0.55, 0.0), (shift, 0.72)], BOLD)


def _accuracy(pen: _Pen) -> None:
    pen.ring((0, 0), 0.68, STROKE)
    pen.disc((0, 0), 0.17)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        pen.stroke([(dx * 0.4, dy * 0.4), (dx * 1.02, dy * 1.02)], STROKE)


def _max_hp(pen: _Pen) -> None:
    pen.fill(_moved(_heart(), dy=-0.14))
    pen.stroke(_arc((-0.45, -0.49), 0.24, math.pi * 1.05, math.pi * 1.5, 8), THIN, HOLE)


def _shield(half_outline: Sequence[Point]) -> list[Point]:
    """The full outline from its right half (top middle … bottom tip)."""
    return [*half_outline, *[(-x, y) for x, y in reversed(half_outline[1:-1])]]


def _armor(pen: _Pen) -> None:
    right = [
        (0.0, -0.98),
        (0.45, -0.86),
        (0.82, -0.9),
        *_spline([(0.82, -0.9), (0.8, -0.1), (0.55, 0.55), (0.0, 1.02)]),
    ]
    pen.fill(_shield(right))
    inner = _moved(right, dy=-0.04, scale=0.72)
    pen.fill(_shield(inner), HOLE)
    pen.fill([(-x, y) for x, y in inner])  # the left half filled, the right one bare


def _move_speed(pen: _Pen) -> None:
    instep = _spline([(0.3, 0.1), (0.7, 0.3), (0.98, 0.48), (0.98, 0.76)])
    boot = [(-0.3, -0.92), (0.3, -0.92), *instep, (-0.36, 0.76), (-0.36, 0.38)]
    pen.fill(_moved(boot, dx=0.05))
    pen.stroke([(-0.45, -0.62), (0.45, -0.62)], THIN, HOLE)
    pen.stroke([(-0.5, 0.52), (1.2, 0.52)], THIN, HOLE)
    for i, (y, length) in enumerate(((-0.5, 0.78), (-0.22, 0.66), (0.06, 0.5))):
        root = -0.34 + 0.02 * i
        pen.fill([(root, y - 0.1), (root - length, y - 0.34), (root - length * 0.85, y - 0.1), (root, y + 0.14)])


def _mana_leech(pen: _Pen) -> None:
    lip = _arc((0.0, 0.35), 1.2, math.pi * 1.25, math.pi * 1.75, 16) + _arc(
        (0.0, 0.4), 1.0, math.pi * 1.75, math.pi * 1.25, 16
    )
    pen.fill(lip)
    for side in (-1, 1):
        pen.fill([(side * 0.26, -0.6), (side * 0.68, -0.43), (side * 0.52, 0.14)])
    pen.fill(_drop((0.0, -0.24), (0.0, 0.62), 0.38))
    pen.stroke(_arc((0.0, 0.62), 0.22, math.pi * 0.55, math.pi * 0.95, 6), THIN, HOLE)


def _crit_chance(pen: _Pen) -> None:
    pen.fill(_star(10, (1.1, 0.78, 1.0, 0.84, 0.92), 0.56, turn=-math.pi / 2))
    pen.stroke([(0.0, -0.36), (0.0, 0.06)], STROKE, HOLE)
    pen.disc((0.0, 0.3), 0.1, HOLE)


def _pickup_radius(pen: _Pen) -> None:
    top, bottom, outer, inner = -0.3, 0.36, 0.8, 0.36
    over = _arc((0, top), outer, math.pi, 2 * math.pi)
    under = _arc((0, top), inner, 2 * math.pi, math.pi)
    pen.fill([(-outer, bottom), *over, (outer, bottom), (inner, bottom), *under, (-inner, bottom)])
    for side in (-1, 1):
        pen.stroke([(side * (inner - 0.1), 0.14), (side * (outer + 0.1), 0.14)], THIN, HOLE)
    pen.fill([(0.0, 0.54), (0.24, 0.8), (0.0, 1.06), (-0.24, 0.8)])  # a crystal drawn in


def _mana_regen(pen: _Pen) -> None:
    gem = _moved([(0.0, -1.0), (0.58, -0.25), (0.0, 1.0), (-0.58, -0.25)], dx=-0.32, dy=0.08)
    pen.fill(gem)
    pen.stroke([gem[3], (gem[0][0], gem[3][1] + 0.18), gem[1]], THIN, HOLE)
    pen.stroke([(0.68, -0.9), (0.68, -0.18)], BOLD)
    pen.stroke([(0.32, -0.54), (1.04, -0.54)], BOLD)


def _max_mana(pen: _Pen) -> None:
    gem = _moved([(0.0, -1.0), (0.58, -0.25), (0.0, 1.0), (-0.58, -0.25)], dx=-0.32, dy=0.08)
    pen.fill(gem)
    pen.stroke([gem[3], (gem[0][0], gem[3][1] + 0.18), gem[1]], THIN, HOLE)
    pen.stroke([(0.7, 0.9), (0.7, -0.82)], BOLD)
    pen.stroke([(0.38, -0.5), (0.7, -0.86), (1.02, -0.5)], BOLD)


def _luck(pen: _Pen) -> None:
    pen.stroke(_spline([(0.0, 0.0), (0.45, 0.55), (0.6, 1.02)]), STROKE)
    leaf = _moved(_heart(), dy=-0.53, scale=0.47)  # its tip just off the middle, pointing in
    for quarter in range(4):
        pen.fill(_moved(leaf, turn=quarter * math.pi / 2))
    pen.disc((0.0, 0.0), 0.1)


# --- attunement: an element glyph in a ring --------------------------------------------------


def _physical(pen: _Pen, ink: Ink) -> None:
    blade = [(-0.1, 0.22), (-0.1, -0.52), (0.0, -0.74), (0.1, -0.52), (0.1, 0.22)]
    guard = [(-0.34, 0.2), (0.34, 0.2), (0.34, 0.32), (-0.34, 0.32)]
    grip = [(-0.06, 0.32), (0.06, 0.32), (0.06, 0.56), (-0.06, 0.56)]
    turn = math.pi / 4
    for part in (blade, guard, grip):
        pen.fill(_moved(part, dx=0.02, dy=0.02, turn=turn), ink)
    pen.disc(_moved([(0.0, 0.64)], dx=0.02, dy=0.02, turn=turn)[0], 0.1, ink)


def _fire(pen: _Pen, ink: Ink) -> None:
    pen.fill(_flame(0.92, dy=-0.04), ink)
    pen.fill(_flame(0.42, dx=0.0, dy=0.32), HOLE)


def _ice(pen: _Pen, ink: Ink) -> None:
    for k in range(6):
        turn = k * math.pi / 3
        pen.stroke(_moved([(0.0, 0.0), (0.0, -0.72)], turn=turn), THIN, ink)
        pen.stroke(_moved([(-0.2, -0.62), (0.0, -0.42), (0.2, -0.62)], turn=turn), THIN, ink)


def _lightning(pen: _Pen, ink: Ink) -> None:
    pen.fill([(0.12, -0.8), (-0.38, 0.1), (-0.02, 0.1), (-0.2, 0.8), (0.42, -0.14), (0.06, -0.14), (0.34, -0.8)], ink)


def _poison(pen: _Pen, ink: Ink) -> None:
    pen.disc((0.0, -0.14), 0.5, ink)
    pen.fill([(-0.3, 0.1), (0.3, 0.1), (0.26, 0.6), (-0.26, 0.6)], ink)
    for side in (-1, 1):
        pen.disc((side * 0.2, -0.1), 0.14, HOLE)
    pen.fill([(0.0, 0.1), (0.08, 0.24), (-0.08, 0.24)], HOLE)
    for x in (-0.1, 0.1):
        pen.stroke([(x, 0.44), (x, 0.7)], THIN * 0.6, HOLE)


def _water(pen: _Pen, ink: Ink) -> None:
    for y, half in ((-0.38, 0.6), (0.0, 0.7), (0.38, 0.6)):
        wave = [
            (x, y + 0.12 * math.sin((x + 0.1) * math.pi * 1.6)) for x in (-half + 2 * half * i / 16 for i in range(17))
        ]
        pen.stroke(wave, STROKE, ink)


_ELEMENT_GLYPHS: dict[str, Callable[[_Pen, Ink], None]] = {
    "physical": _physical,
    "fire": _fire,
    "ice": _ice,
    "lightning": _lightning,
    "poison": _poison,
    "water": _water,
}


def _attunement(element: str) -> Callable[[_Pen], None]:
    def draw(pen: _Pen) -> None:
        pen.ring((0, 0), 1.0, THIN)
        _ELEMENT_GLYPHS[element](pen, (*ELEMENT_COLOURS[element], 255))

    return draw


def _last_will(pen: _Pen) -> None:
    """A candle flame over a small heart: the last breath that keeps the wizard standing."""
    pen.fill(_moved(_heart(), dy=0.52, scale=0.48))
    pen.stroke([(0.0, 0.12), (0.0, -0.04)], THIN)
    pen.fill(_flame(0.66, dy=-0.48))
    pen.fill(_flame(0.3, dy=-0.28), HOLE)
    for x, y, radius in ((-0.62, -0.5, 0.07), (0.6, -0.78, 0.055), (0.52, -0.2, 0.045)):
        pen.disc((x, y), radius)


_GLYPHS: dict[str, Callable[[_Pen], None]] = {
    WandStat.CPU: _cpu,
    WandStat.CAST_SPEED: _cast_speed,
    WandStat.ACCURACY: _accuracy,
    WandStat.MAX_HP: _max_hp,
    WandStat.ARMOR: _armor,
    WandStat.MOVE_SPEED: _move_speed,
    WandStat.MANA_LEECH: _mana_leech,
    WandStat.CRIT_CHANCE: _crit_chance,
    WandStat.PICKUP_RADIUS: _pickup_radius,
    WandStat.MANA_REGEN: _mana_regen,
    WandStat.MAX_MANA: _max_mana,
    WandStat.LUCK: _luck,
    **{f"{ATTUNEMENT_PREFIX}{element}": _attunement(element) for element in _ELEMENT_GLYPHS},
    LAST_WILL: _last_will,
}


@lru_cache(maxsize=256)
def _glyph(name: str, r: int, colour: Colour) -> pygame.Surface:
    pen = _Pen(r, colour)
    # A stat added to the content before its glyph shows the crosshair rather than stopping the
    # shop; tests/ui/test_stat_icons.py fails on it (every glyph must differ).
    _GLYPHS.get(name, _accuracy)(pen)
    return pen.sprite()


def _blit(surface: pygame.Surface, name: str, centre: tuple[int, int], r: int, colour: Colour) -> None:
    sprite = _glyph(name, max(1, round(r)), (colour[0], colour[1], colour[2]))
    at = (round(centre[0]) - sprite.get_width() // 2, round(centre[1]) - sprite.get_height() // 2)
    surface.blit(sprite, at, special_flags=pygame.BLEND_PREMULTIPLIED)


def stat_icon(surface: pygame.Surface, stat: WandStat, centre: tuple[int, int], r: int, colour: Colour) -> None:
    """The stat's glyph (the table in the module's doc) in `colour`, within `EXTENT`·r of `centre`."""
    _blit(surface, str(stat), centre, r, colour)


def talent_icon(surface: pygame.Surface, centre: tuple[int, int], r: int, colour: Colour) -> None:
    """The Last Will talent's mark, a candle flame over a small heart, in `colour`, within `EXTENT`·r of `centre`."""
    _blit(surface, LAST_WILL, centre, r, colour)
