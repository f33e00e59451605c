"""The sprite atlas, drawn by the game itself at start-up from data/looks.json
(R-FEEL-1, DESIGN §7): one silhouette per enemy kind, its elite (bigger, a
gold ring and crown) and the hit-flash variant of both (a white-tinted
silhouette, drawn while the core marks the row `ENEMY_FLAG_HIT`); one shot per
spell, by its style and its element's colour, turned to 16 headings so bolts
and lances point where they fly; the enemies' shot (spiked, dark-cored:
hostile at a glance); the crystal, each summon, each zone's colours and the
player. With the colour-blind palette every look takes its `cb_colour`; the
shapes differ either way, so colour is never the only signal. No external art.

Shapes are drawn 4× larger on a transparent canvas and smooth-scaled down
(`_Pen`), so edges come out clean at 16–60 px. Built only after
`pygame.display.set_mode` (surfaces are converted to the display format).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pygame

from artificer.content import Content, Element
from artificer.content.looks import (
    DIRECTIONAL_STYLES,
    BodyLook,
    FloorLook,
    HitFlash,
    Looks,
    Shape,
    ShotLook,
    ShotStyle,
    ZoneLook,
    ZonePattern,
)
from artificer.content.roster import roster
from artificer.ui.palette import OKABE_ITO, Palette

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]
Point = tuple[float, float]

# The spell cards' element bands (cards, shop, icons); the arena's shots take looks.json's colours.
ELEMENT_COLOURS = {
    "physical": (230, 230, 230),
    "fire": OKABE_ITO["orange"],
    "ice": OKABE_ITO["sky_blue"],
    "lightning": OKABE_ITO["yellow"],
    "poison": OKABE_ITO["bluish_green"],
    "water": OKABE_ITO["blue"],
}
#: Headings a directional shot is drawn at (22.5° apart: a shot never looks more than 11° off its flight).
ROTATIONS = 16
#: Supersampling of every sprite (drawn this many times larger, then smooth-scaled down).
SUPERSAMPLE = 4
#: How far past its unit radius a sprite may reach (the elite's crown, shadows).
EXTENT = 1.12
#: Share of the body an elite's body takes inside its ring and crown.
ELITE_BODY = 0.8
#: Alpha from which a pixel counts as the body itself (shadows and glows are fainter).
BODY_ALPHA = 200.0
#: Statuses shown on an enemy, most telling first (one at a time: the first it has), each in its
#: element's colour; frozen tints hardest (it cannot move), the others lightly, plus a pip.
STATUSES: tuple[tuple[str, Element, float], ...] = (
    ("frozen", Element.ICE, 0.55),
    ("burning", Element.FIRE, 0.3),
    ("shocked", Element.LIGHTNING, 0.3),
    ("poisoned", Element.POISON, 0.3),
    ("chilled", Element.ICE, 0.25),
    ("wet", Element.WATER, 0.25),
)


class _Pen:
    """Draws one sprite in unit coordinates (x right, y down, radius 1 = `r` px)."""

    def __init__(self, r: float, extent: float = EXTENT) -> None:
        self.half = math.ceil(extent * r) * SUPERSAMPLE
        self.unit = r * SUPERSAMPLE
        self.surface = pygame.Surface((2 * self.half, 2 * self.half), pygame.SRCALPHA)
        #: A scale applied to every point and length (the elite's body sits inside its ring).
        self.k = 1.0
        self._layer: pygame.Surface | None = None

    def p(self, x: float, y: float) -> tuple[int, int]:
        return round(self.half + x * self.k * self.unit), round(self.half + y * self.k * self.unit)

    def _target(self, colour: RGB | RGBA) -> pygame.Surface:
        """Where to draw: the sprite, or for a translucent colour a clear layer that `_settle` blends
        on (pygame.draw writes alpha as is instead of blending)."""
        if len(colour) == 4 and colour[3] < 255:
            layer = pygame.Surface(self.surface.get_size(), pygame.SRCALPHA)
            self._layer = layer
            return layer
        self._layer = None
        return self.surface

    def _settle(self) -> None:
        if self._layer is not None:
            self.surface.blit(self._layer, (0, 0))
            self._layer = None

    def n(self, length: float) -> int:
        return max(1, round(length * self.k * self.unit))

    def circle(self, colour: RGB | RGBA, x: float, y: float, radius: float, width: float = 0) -> None:
        pygame.draw.circle(self._target(colour), colour, self.p(x, y), self.n(radius), self.n(width) if width else 0)
        self._settle()

    def ellipse(self, colour: RGB | RGBA, x: float, y: float, rx: float, ry: float) -> None:
        left, top = self.p(x - rx, y - ry)
        pygame.draw.ellipse(self._target(colour), colour, pygame.Rect(left, top, self.n(2 * rx), self.n(2 * ry)))
        self._settle()

    def poly(self, colour: RGB | RGBA, points: list[Point], width: float = 0) -> None:
        pygame.draw.polygon(
            self._target(colour), colour, [self.p(x, y) for x, y in points], self.n(width) if width else 0
        )
        self._settle()

    def lines(self, colour: RGB | RGBA, points: list[Point], width: float) -> None:
        target = self._target(colour)
        pygame.draw.lines(target, colour, False, [self.p(x, y) for x, y in points], self.n(width))
        for x, y in points:  # round joints
            pygame.draw.circle(target, colour, self.p(x, y), self.n(width) // 2)
        self._settle()

    def done(self, degrees: float = 0.0) -> pygame.Surface:
        """The sprite at its final size, turned `degrees` counter-clockwise on screen."""
        big = pygame.transform.rotate(self.surface, degrees) if degrees else self.surface
        size = (max(1, round(big.get_width() / SUPERSAMPLE)), max(1, round(big.get_height() / SUPERSAMPLE)))
        return trimmed(pygame.transform.smoothscale(big, size))


def trimmed(sprite: pygame.Surface) -> pygame.Surface:
    """The sprite cut to its visible pixels, by the same amount on opposite sides so its centre stays
    its centre: the rasterizer's cost grows with every sprite's area, transparent or not."""
    seen = sprite.get_bounding_rect(min_alpha=1)
    if seen.width == 0 or seen.height == 0:
        return sprite
    w, h = sprite.get_size()
    cut_x = min(seen.left, w - seen.right)
    cut_y = min(seen.top, h - seen.bottom)
    if cut_x == 0 and cut_y == 0:
        return sprite
    return sprite.subsurface((cut_x, cut_y, w - 2 * cut_x, h - 2 * cut_y)).copy()


def _shade(colour: RGB, factor: float) -> RGB:
    """Darker (factor < 1) or toward white (factor > 1)."""
    if factor <= 1:
        return (round(colour[0] * factor), round(colour[1] * factor), round(colour[2] * factor))
    t = min(1.0, factor - 1)
    return (
        round(colour[0] + (255 - colour[0]) * t),
        round(colour[1] + (255 - colour[1]) * t),
        round(colour[2] + (255 - colour[2]) * t),
    )


def _regular(sides: int, radius: float, phase: float = -math.pi / 2, cy: float = 0.0) -> list[Point]:
    return [
        (radius * math.cos(phase + 2 * math.pi * i / sides), cy + radius * math.sin(phase + 2 * math.pi * i / sides))
        for i in range(sides)
    ]


def _star(points: int, outer: float, inner: float, phase: float = -math.pi / 2) -> list[Point]:
    return [
        (
            (outer if i % 2 == 0 else inner) * math.cos(phase + math.pi * i / points),
            (outer if i % 2 == 0 else inner) * math.sin(phase + math.pi * i / points),
        )
        for i in range(2 * points)
    ]


def _scaled(points: list[Point], k: float, cy: float = 0.0) -> list[Point]:
    return [(x * k, cy + (y - cy) * k) for x, y in points]


# --- bodies: one function per Shape, each drawing fill + outline in unit coordinates -----------

OUTLINE = 0.16  # outline width, unit radii: dark and thick enough to part sprites in a crowd


def _outlined(pen: _Pen, points: list[Point], fill: RGB, edge: RGB, cy: float = 0.0) -> None:
    pen.poly(edge, points)
    pen.poly(fill, _scaled(points, 1 - OUTLINE, cy))


def _disc(pen: _Pen, x: float, y: float, r: float, fill: RGB, edge: RGB) -> None:
    pen.circle(edge, x, y, r)
    pen.circle(fill, x, y, r - OUTLINE)


def _circle(pen: _Pen, fill: RGB, edge: RGB) -> float:
    _disc(pen, 0, 0, 0.95, fill, edge)
    return -0.1


def _polygon(sides: int) -> Callable[[_Pen, RGB, RGB], float]:
    def draw(pen: _Pen, fill: RGB, edge: RGB) -> float:
        _outlined(pen, _regular(sides, 1.0), fill, edge)
        return -0.05

    return draw


def _triangle(pen: _Pen, fill: RGB, edge: RGB) -> float:
    _outlined(pen, [(0.0, -1.05), (0.98, 0.72), (-0.98, 0.72)], fill, edge, cy=0.13)
    return 0.22


def _square(pen: _Pen, fill: RGB, edge: RGB) -> float:
    _outlined(pen, [(-0.86, -0.86), (0.86, -0.86), (0.86, 0.86), (-0.86, 0.86)], fill, edge)
    pen.poly(edge, [(-0.6, -0.5), (-0.1, -0.32), (-0.6, -0.32)])  # a heavy brow over each eye
    pen.poly(edge, [(0.6, -0.5), (0.1, -0.32), (0.6, -0.32)])
    return -0.12


def _diamond(pen: _Pen, fill: RGB, edge: RGB) -> float:
    _outlined(pen, [(0.0, -1.08), (0.8, 0.0), (0.0, 1.08), (-0.8, 0.0)], fill, edge)
    pen.lines(_shade(fill, 1.45), [(-0.5, 0.55), (0.0, 0.3), (0.5, 0.55)], 0.1)  # a drawn bow
    return -0.1


def _star4(pen: _Pen, fill: RGB, edge: RGB) -> float:
    _outlined(pen, _star(4, 1.08, 0.45), fill, edge)
    return 0.0


def _spiky(pen: _Pen, fill: RGB, edge: RGB) -> float:
    _outlined(pen, _star(10, 1.08, 0.72), fill, edge)
    pen.circle(_shade(fill, 0.55), 0, 0, 0.5)
    pen.circle((255, 236, 120), 0, 0, 0.34)  # the fuse's glow
    pen.circle((255, 255, 230), 0, 0, 0.16)
    return 99.0  # no eyes: the glowing core is its face


def _shielded(pen: _Pen, fill: RGB, edge: RGB) -> float:
    _disc(pen, 0, 0.14, 0.72, fill, edge)
    mirror = _shade(fill, 1.6)
    outer = [(1.02 * math.cos(a), 1.02 * math.sin(a)) for a in np.linspace(math.pi * 1.05, math.pi * 1.95, 12)]
    inner = [(0.7 * math.cos(a), -0.12 + 0.6 * math.sin(a)) for a in np.linspace(math.pi * 1.95, math.pi * 1.05, 12)]
    pen.poly(edge, outer + inner)
    pen.poly(mirror, _scaled(outer + inner, 0.9, -0.4))
    pen.lines((255, 255, 255), [(-0.45, -0.7), (0.1, -0.84)], 0.09)  # a glint on the mirror
    return 0.2


def _horned(pen: _Pen, fill: RGB, edge: RGB) -> float:
    bone = (236, 226, 204)
    for side in (-1, 1):
        horn = [(side * 0.3, -0.5), (side * 0.72, -0.32), (side * 0.88, -1.08)]
        pen.poly(edge, _scaled(horn, 1.12, -0.6))
        pen.poly(bone, horn)
    _disc(pen, 0, 0.14, 0.84, fill, edge)
    return 0.05


def _armored(pen: _Pen, fill: RGB, edge: RGB) -> float:
    _outlined(pen, _regular(8, 1.04, phase=-math.pi / 8), fill, edge)
    plate = _shade(fill, 0.72)
    pen.poly(plate, [(-0.62, 0.22), (0.62, 0.22), (0.5, 0.7), (-0.5, 0.7)])
    for x, y in ((-0.62, -0.62), (0.62, -0.62), (-0.7, 0.36), (0.7, 0.36)):
        pen.circle(_shade(fill, 1.5), x, y, 0.1)
    pen.poly(edge, [(-0.7, -0.32), (0.7, -0.32), (0.7, 0.02), (-0.7, 0.02)])  # a visor
    return -0.15


def _cell(pen: _Pen, fill: RGB, edge: RGB) -> float:
    for x in (-0.36, 0.36):
        pen.circle(edge, x, 0.05, 0.68)
    for x in (-0.36, 0.36):
        pen.circle(fill, x, 0.05, 0.68 - OUTLINE)
    pen.lines(_shade(fill, 0.7), [(0.0, -0.45), (0.0, 0.55)], 0.08)  # where it will split
    return -0.05


def _droplet(pen: _Pen, fill: RGB, edge: RGB) -> float:
    pen.poly(edge, [(0.0, -1.1), (0.62, -0.05), (-0.62, -0.05)])
    pen.circle(edge, 0, 0.3, 0.74)
    pen.poly(fill, [(0.0, -0.86), (0.5, -0.05), (-0.5, -0.05)])
    pen.circle(fill, 0, 0.3, 0.74 - OUTLINE)
    return 0.3


def _bug(pen: _Pen, fill: RGB, edge: RGB) -> float:
    wing = (*_shade(fill, 1.7), 210)
    for side in (-1, 1):
        pen.ellipse(edge, side * 0.55, -0.25, 0.5, 0.36)
        pen.ellipse(wing, side * 0.55, -0.25, 0.4, 0.26)
    pen.ellipse(edge, 0, 0.12, 0.48, 0.9)
    pen.ellipse(fill, 0, 0.12, 0.34, 0.76)
    pen.lines(edge, [(-0.22, 0.25), (0.22, 0.25)], 0.09)  # stripes
    pen.lines(edge, [(-0.2, 0.55), (0.2, 0.55)], 0.09)
    return 99.0


def _gem(pen: _Pen, fill: RGB, edge: RGB) -> float:
    outline = [(0.0, -1.08), (0.66, -0.38), (0.66, 0.38), (0.0, 1.08), (-0.66, 0.38), (-0.66, -0.38)]
    _outlined(pen, outline, fill, edge)
    pen.poly(_shade(fill, 1.55), [(0.0, -0.86), (0.48, -0.3), (0.0, 0.0), (-0.48, -0.3)])
    pen.lines((255, 255, 255), [(-0.22, -0.5), (0.0, -0.72)], 0.1)
    return 99.0


def _turret(pen: _Pen, fill: RGB, edge: RGB) -> float:
    _outlined(
        pen,
        [
            (-0.86, -0.5),
            (-0.5, -0.86),
            (0.5, -0.86),
            (0.86, -0.5),
            (0.86, 0.5),
            (0.5, 0.86),
            (-0.5, 0.86),
            (-0.86, 0.5),
        ],
        _shade(fill, 0.6),
        edge,
    )
    pen.poly(edge, [(-0.2, -1.08), (0.2, -1.08), (0.2, 0.0), (-0.2, 0.0)])  # the barrel
    pen.poly(_shade(fill, 1.3), [(-0.11, -1.0), (0.11, -1.0), (0.11, -0.1), (-0.11, -0.1)])
    _disc(pen, 0, 0.05, 0.5, fill, edge)
    pen.circle((255, 255, 255), 0, 0.05, 0.14)
    return 99.0


def _coil(pen: _Pen, fill: RGB, edge: RGB) -> float:
    _outlined(pen, [(-0.4, -0.6), (0.4, -0.6), (0.62, 1.0), (-0.62, 1.0)], _shade(fill, 0.55), edge, cy=0.2)
    for y, w in ((-0.3, 0.62), (0.1, 0.72), (0.5, 0.82)):
        pen.ellipse(edge, 0, y, w, 0.16)
        pen.ellipse(fill, 0, y, w - 0.1, 0.09)
    pen.circle((*_shade(fill, 1.5), 120), 0, -0.72, 0.44)
    pen.circle((255, 255, 255), 0, -0.72, 0.22)
    return 99.0


def _wizard(pen: _Pen, fill: RGB, edge: RGB) -> float:
    pen.circle((*edge, 60), 0, 0, 1.1)  # an aura, so the player stands out of any crowd
    pen.circle((255, 255, 255, 230), 0, 0, 1.0, 0.08)
    _disc(pen, 0, 0, 0.8, fill, _shade(edge, 0.5))
    pen.poly(edge, _star(4, 0.62, 0.2))
    pen.circle((255, 255, 255), 0, 0, 0.14)
    return 99.0


BODIES: dict[Shape, Callable[[_Pen, RGB, RGB], float]] = {
    Shape.CIRCLE: _circle,
    Shape.TRIANGLE: _triangle,
    Shape.SQUARE: _square,
    Shape.DIAMOND: _diamond,
    Shape.PENTAGON: _polygon(5),
    Shape.HEXAGON: _polygon(6),
    Shape.OCTAGON: _polygon(8),
    Shape.STAR: _star4,
    Shape.SPIKY: _spiky,
    Shape.SHIELDED: _shielded,
    Shape.HORNED: _horned,
    Shape.ARMORED: _armored,
    Shape.CELL: _cell,
    Shape.DROPLET: _droplet,
    Shape.BUG: _bug,
    Shape.GEM: _gem,
    Shape.TURRET: _turret,
    Shape.COIL: _coil,
    Shape.WIZARD: _wizard,
}


def _eyes(pen: _Pen, count: int, y: float) -> None:
    """`count` eyes at height `y`: white, with a dark pupil looking slightly down."""
    if y > 10 or count == 0:
        return
    spread = {1: (0.0,), 2: (-0.3, 0.3), 3: (-0.4, 0.0, 0.4)}[count]
    size = 0.27 if count == 1 else 0.21
    for x in spread:
        pen.circle((20, 16, 24), x, y, size + 0.05)
        pen.circle((255, 255, 255), x, y, size)
        pen.circle((16, 12, 20), x, y + size * 0.3, size * 0.5)


def _body(pen: _Pen, look: BodyLook, colour: RGB) -> None:
    edge = look.outline if look.outline is not None else _shade(colour, 0.3)
    if look.shape != Shape.WIZARD:
        pen.ellipse((0, 0, 0, 70), 0.0, 0.2, 1.0, 0.86)  # a shadow, so a body sits on the floor
    eye_y = BODIES[look.shape](pen, colour, edge)
    pen.ellipse((255, 255, 255, 46), -0.3, -0.4, 0.3, 0.2)  # a highlight, for volume
    _eyes(pen, look.eyes, eye_y)


def body_sprite(look: BodyLook, colour: RGB) -> pygame.Surface:
    """A body at its drawn size."""
    pen = _Pen(look.size / 2)
    _body(pen, look, colour)
    return pen.done()


def elite_sprite(look: BodyLook, colour: RGB, ring: RGB, scale: float) -> pygame.Surface:
    """The elite of a kind: `scale` × its size, the body inside a ring with a crown."""
    pen = _Pen(look.size * scale / 2)
    pen.circle((*ring, 60), 0, 0.05, 1.05)
    pen.k = ELITE_BODY
    _body(pen, look, colour)
    pen.k = 1.0
    pen.circle(_shade(ring, 0.45), 0, 0.05, 0.98, 0.14)
    pen.circle(ring, 0, 0.05, 0.96, 0.09)
    crown = [(-0.42, -0.72), (-0.46, -1.08), (-0.22, -0.9), (0.0, -1.12), (0.22, -0.9), (0.46, -1.08), (0.42, -0.72)]
    pen.poly(_shade(ring, 0.45), _scaled(crown, 1.12, -0.9))
    pen.poly(ring, crown)
    return pen.done()


def flashed(sprite: pygame.Surface, flash: HitFlash) -> pygame.Surface:
    """The hit-flash variant: every pixel moved `flash.strength` toward the flash colour, alpha kept."""
    lit = sprite.copy()
    _tint(lit, flash.colour, flash.strength)
    return lit


def _tint(sprite: pygame.Surface, colour: RGB, strength: float) -> None:
    """Moves the body's pixels `strength` toward `colour` in place; the translucent shadow and glow
    (alpha under BODY_ALPHA) less the fainter they are, so they do not turn into a coloured halo."""
    rgb = pygame.surfarray.pixels3d(sprite)
    alpha = pygame.surfarray.array_alpha(sprite).astype(np.float32)
    weight = np.clip((alpha - 100.0) / (BODY_ALPHA - 100.0), 0.0, 1.0)[..., None] * np.float32(strength)
    rgb[...] = np.round(rgb + (np.array(colour, dtype=np.float32) - rgb) * weight).astype(np.uint8)
    del rgb


def with_status(sprite: pygame.Surface, colour: RGB, strength: float) -> pygame.Surface:
    """A status variant: the body tinted `strength` toward `colour`, and a pip of that colour at its shoulder."""
    tinted = sprite.copy()
    _tint(tinted, colour, strength)
    w, h = tinted.get_size()
    r = max(2.5, min(w, h) * 0.13)
    centre = (w - r - 1, r + 1)
    pygame.draw.circle(tinted, (16, 12, 20), centre, r + 1)
    pygame.draw.circle(tinted, colour, centre, r)
    pygame.draw.circle(tinted, (255, 255, 255), centre, max(1.0, r * 0.4))
    return tinted


# --- shots: drawn pointing right (+x), radius 1 = half the drawn length ---------------------


def _glow(pen: _Pen, colour: RGB, x: float, y: float, r: float) -> None:
    pen.circle((*colour, 40), x, y, r)
    pen.circle((*colour, 80), x, y, r * 0.72)


def _shot_bolt(pen: _Pen, colour: RGB) -> None:
    pen.poly((*colour, 70), [(-1.0, 0.0), (0.1, -0.42), (0.6, 0.0), (0.1, 0.42)])
    pen.poly((*colour, 170), [(-0.8, 0.0), (0.2, -0.26), (0.6, 0.0), (0.2, 0.26)])
    _glow(pen, colour, 0.45, 0, 0.55)
    pen.circle(colour, 0.45, 0, 0.36)
    pen.circle((255, 255, 255), 0.5, 0, 0.22)


def _shot_pellet(pen: _Pen, colour: RGB) -> None:
    _glow(pen, colour, 0, 0, 1.0)
    pen.circle(colour, 0, 0, 0.62)
    pen.circle((255, 255, 255), 0, 0, 0.3)


def _shot_orb(pen: _Pen, colour: RGB) -> None:
    _glow(pen, colour, 0, 0, 1.05)
    pen.circle(_shade(colour, 0.75), 0, 0, 0.7)
    pen.circle(colour, 0, 0, 0.6)
    pen.circle(_shade(colour, 1.5), -0.1, -0.1, 0.36)
    pen.circle((255, 255, 255), -0.2, -0.2, 0.16)


def _shot_lance(pen: _Pen, colour: RGB) -> None:
    pen.poly((*colour, 90), [(-1.0, 0.0), (-0.6, -0.22), (0.7, -0.22), (1.0, 0.0), (0.7, 0.22), (-0.6, 0.22)])
    pen.poly(colour, [(-0.95, 0.0), (-0.6, -0.12), (0.7, -0.12), (1.0, 0.0), (0.7, 0.12), (-0.6, 0.12)])
    pen.lines((255, 255, 255), [(-0.6, 0.0), (0.85, 0.0)], 0.07)


def _shot_shard(pen: _Pen, colour: RGB) -> None:
    pen.poly((*colour, 90), [(-1.0, 0.0), (0.0, -0.5), (1.0, 0.0), (0.0, 0.5)])
    pen.poly(colour, [(-0.85, 0.0), (0.0, -0.36), (0.95, 0.0), (0.0, 0.36)])
    pen.poly(_shade(colour, 1.6), [(-0.5, 0.0), (0.0, -0.2), (0.7, 0.0)])


def _shot_spark(pen: _Pen, colour: RGB) -> None:
    zigzag = [(-1.0, 0.05), (-0.55, -0.38), (-0.1, 0.32), (0.35, -0.32), (0.82, 0.1)]
    pen.lines((*colour, 90), zigzag, 0.38)
    pen.lines(colour, zigzag, 0.2)
    pen.lines((255, 255, 255), zigzag, 0.08)
    _glow(pen, colour, 0.82, 0.1, 0.4)
    pen.circle((255, 255, 255), 0.82, 0.1, 0.16)


def _shot_wave(pen: _Pen, colour: RGB) -> None:
    outer = [(-0.3 + 1.1 * math.cos(a), 1.1 * math.sin(a)) for a in np.linspace(-1.15, 1.15, 16)]
    inner = [(-0.55 + 0.95 * math.cos(a), 0.95 * math.sin(a)) for a in np.linspace(1.1, -1.1, 16)]
    pen.poly((*colour, 80), outer + inner)
    pen.poly(colour, _scaled(outer + inner, 0.86))
    pen.lines(
        (255, 255, 255, 200),
        [(-0.3 + 0.92 * math.cos(a), 0.92 * math.sin(a)) for a in np.linspace(-0.8, 0.8, 10)],
        0.07,
    )


def _shot_ring(pen: _Pen, colour: RGB) -> None:
    _glow(pen, colour, 0, 0, 1.0)
    pen.circle(colour, 0, 0, 0.78, 0.26)
    pen.circle((255, 255, 255), 0, 0, 0.22)


def _shot_hostile(pen: _Pen, colour: RGB, core: RGB) -> None:
    pen.circle((*colour, 70), 0, 0, 1.06)
    pen.poly(colour, _star(8, 1.0, 0.66, phase=0.0))
    pen.circle(_shade(colour, 1.4), 0, 0, 0.56)
    pen.circle(core, 0, 0, 0.44)


SHOTS: dict[ShotStyle, Callable[[_Pen, RGB], None]] = {
    ShotStyle.BOLT: _shot_bolt,
    ShotStyle.PELLET: _shot_pellet,
    ShotStyle.ORB: _shot_orb,
    ShotStyle.LANCE: _shot_lance,
    ShotStyle.SHARD: _shot_shard,
    ShotStyle.SPARK: _shot_spark,
    ShotStyle.WAVE: _shot_wave,
    ShotStyle.RING: _shot_ring,
    ShotStyle.HOSTILE: lambda pen, colour: _shot_hostile(pen, colour, (40, 0, 16)),
}


def shot_turns(look: ShotLook, colour: RGB) -> list[pygame.Surface]:
    """The shot at each of the `ROTATIONS` headings (turn i: i × 360°/ROTATIONS clockwise from +x on
    screen); one shared sprite for a style that has no heading."""
    pen = _Pen(look.size / 2, extent=1.02)
    SHOTS[look.style](pen, colour)
    if look.style not in DIRECTIONAL_STYLES:
        return [pen.done()] * ROTATIONS
    return [pen.done(-360.0 * turn / ROTATIONS) for turn in range(ROTATIONS)]


def zone_sprite(look: ZoneLook, colour: RGB, radius: float) -> pygame.Surface:
    """A zone's area at `radius` px, by its pattern."""
    pen = _Pen(max(2.0, radius), extent=1.02)
    rng = np.random.default_rng(int(radius) * 31 + len(look.pattern))
    if look.pattern == ZonePattern.PUDDLE:
        pen.circle((*colour, 70), 0, 0, 1.0)
        for _ in range(7):
            a, d = rng.uniform(0, 2 * math.pi), rng.uniform(0.2, 0.7)
            pen.circle((*_shade(colour, 1.3), 60), d * math.cos(a), d * math.sin(a), rng.uniform(0.08, 0.2), 0.04)
        pen.circle((*colour, 200), 0, 0, 1.0, 0.06)
    elif look.pattern == ZonePattern.CLOUD:
        pen.circle((*colour, 30), 0, 0, 0.98)
        for puff in range(8):
            a, d = puff * math.pi / 4 + rng.uniform(-0.3, 0.3), rng.uniform(0.45, 0.62)
            pen.circle((*colour, 34), d * math.cos(a), d * math.sin(a), rng.uniform(0.3, 0.38))
        pen.circle((*colour, 130), 0, 0, 1.0, 0.04)
    elif look.pattern == ZonePattern.VORTEX:
        pen.circle((*colour, 40), 0, 0, 1.0)
        for arm in range(4):
            spiral = [
                (t * math.cos(arm * math.pi / 2 + t * 4.0), t * math.sin(arm * math.pi / 2 + t * 4.0))
                for t in np.linspace(0.12, 0.98, 14)
            ]
            pen.lines((*colour, 150), spiral, 0.05)
        pen.circle((6, 4, 12, 230), 0, 0, 0.2)
        pen.circle((*colour, 220), 0, 0, 0.2, 0.05)
    else:  # mist
        pen.circle((*colour, 50), 0, 0, 1.0)
        for _ in range(10):
            a, d = rng.uniform(0, 2 * math.pi), rng.uniform(0.1, 0.85)
            pen.poly(
                (*colour, 200),
                [(d * math.cos(a) + x * 0.08, d * math.sin(a) + y * 0.08) for x, y in _star(4, 1.0, 0.3)],
            )
        pen.circle((*colour, 150), 0, 0, 1.0, 0.04)
    return pen.done()


@dataclass
class Atlas:
    """Sprites indexed the way the frame buffers index things: enemy kind (normal, elite and their
    hit flashes), spell index (a projectile's, summon's or zone's look), and fixed sprites."""

    enemies: list[pygame.Surface]
    elites: list[pygame.Surface]
    #: R-BOSS-2: kinds from this index on are bosses and their clones (`artificer.content.roster`),
    #: drawn over every other enemy so a boss is never lost in a crowd.
    bosses_from: int
    enemy_flashes: list[pygame.Surface]
    elite_flashes: list[pygame.Surface]
    #: Per status of STATUSES: every kind, then every kind's elite, tinted by it.
    enemy_statuses: list[list[pygame.Surface]]
    #: Per spell: its shot heading right (`spell_turns[i][0]`).
    spells: list[pygame.Surface]
    #: Per spell: its shot at each of the ROTATIONS headings.
    spell_turns: list[list[pygame.Surface]]
    enemy_shots: list[pygame.Surface]
    crystal: pygame.Surface
    #: The first summon spell's sprite (a row whose look is not a summon spell shows it).
    turret: pygame.Surface
    #: Per spell: the sprite of the summon it plants.
    summons: list[pygame.Surface]
    #: Per spell: the look and colour of the zone it opens.
    zones: list[tuple[ZoneLook, RGB]]
    player: pygame.Surface
    floor: FloorLook

    @classmethod
    def build(cls, content: Content, palette: Palette | None = None) -> Atlas:
        """The sprites from content.looks; with `palette` (the colour-blind setting) each look takes its cb colour."""
        looks = content.looks
        blind = palette is not None

        def colour_of(look: BodyLook | ZoneLook) -> RGB:
            return look.cb_colour if blind else look.colour

        enemies, elites = [], []
        ring = looks.elite.cb_ring if blind else looks.elite.ring
        for kind in roster(content):
            look = looks.enemies[kind.look]
            enemies.append(body_sprite(look, colour_of(look)).convert_alpha())
            elites.append(elite_sprite(look, colour_of(look), ring, looks.elite.scale).convert_alpha())
        spell_turns = [_spell_turns(looks, spell.id, _element_of(spell.element), blind) for spell in content.spells]
        hostile = looks.enemy_shot
        hostile_pen = _Pen(hostile.size / 2, extent=1.08)
        _shot_hostile(hostile_pen, hostile.cb_colour if blind else hostile.colour, hostile.core)
        enemy_shot = hostile_pen.done().convert_alpha()
        summon_looks = [looks.summons.get(spell.id) for spell in content.spells]
        default_summon = next(iter(looks.summons.values()), looks.crystal)
        summon_sprites = {
            spell_id: body_sprite(look, colour_of(look)).convert_alpha() for spell_id, look in looks.summons.items()
        }
        turret = summon_sprites.get(
            next(iter(looks.summons), ""), body_sprite(default_summon, colour_of(default_summon)).convert_alpha()
        )
        summons = [
            summon_sprites[spell.id] if look is not None else turret
            for spell, look in zip(content.spells, summon_looks)
        ]
        zones = [_zone_look(looks, spell.id, _element_of(spell.element), blind) for spell in content.spells]
        return cls(
            enemies=enemies,
            elites=elites,
            bosses_from=len(content.enemies),
            enemy_flashes=[flashed(s, looks.hit_flash) for s in enemies],
            elite_flashes=[flashed(s, looks.hit_flash) for s in elites],
            enemy_statuses=[
                [with_status(sprite, _element_colour(looks, element, blind), strength) for sprite in enemies + elites]
                for _, element, strength in STATUSES
            ],
            spells=[turns[0] for turns in spell_turns],
            spell_turns=spell_turns,
            enemy_shots=[enemy_shot for _ in enemies],
            crystal=body_sprite(looks.crystal, colour_of(looks.crystal)).convert_alpha(),
            turret=turret,
            summons=summons,
            zones=zones,
            player=body_sprite(looks.player, colour_of(looks.player)).convert_alpha(),
            floor=looks.floor,
        )


def _element_of(element: Element | None) -> Element:
    """A spell's element; one with none (zones, summons) shows as physical."""
    return element if element is not None else Element.PHYSICAL


def _element_colour(looks: Looks, element: Element, blind: bool) -> RGB:
    tint = looks.elements[element]
    return tint.cb_colour if blind else tint.colour


def _spell_turns(looks: Looks, spell_id: str, element: Element, blind: bool) -> list[pygame.Surface]:
    tint = looks.elements[element]
    look = looks.shots.get(spell_id, looks.default_shot)
    converted: dict[int, pygame.Surface] = {}  # a style without heading shares one sprite
    turns = shot_turns(look, tint.cb_colour if blind else tint.colour)
    return [converted.setdefault(id(sprite), sprite.convert_alpha()) for sprite in turns]


def _zone_look(looks: Looks, spell_id: str, element: Element, blind: bool) -> tuple[ZoneLook, RGB]:
    look = looks.zones.get(spell_id)
    if look is None:  # not a zone spell: a puddle of its element's colour
        tint = looks.elements[element]
        look = ZoneLook(pattern=ZonePattern.PUDDLE, colour=tint.colour, cb_colour=tint.cb_colour)
    return look, look.cb_colour if blind else look.colour
