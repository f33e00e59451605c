"""The potion glyphs (R-POT-1): one drawing per `PotionIcon`, made by the game itself, any size.

This module owns `potion_icon(surface, icon, centre, r)`. Each glyph is drawn in
icon units (x right, y down, the radius `r` = 1; everything within `EXTENT`·r)
on a transparent square `SUPERSAMPLE`× larger, then smooth-scaled down, so the
thick outlines stay smooth; the result is kept per (glyph, r, greyed). Shape and
colour both tell the potions apart:

    round_flask   a round-bottomed flask of red liquid with a cork
    bomb          a black iron bomb, a fuse and an orange spark
    tall_bottle   a tall amber bottle with a sword on its label
    shield_flask  a shield-shaped flask of pale-blue liquid
    crystal_vial  a faceted blue vial with a star
    skull_vial    a thin violet vial with a skull

`greyed=True` draws it dimmed (a potion that cannot be drunk now, e.g. in a locked slot).
"""

from __future__ import annotations

import math
from functools import lru_cache

import pygame

from artificer.content.potions import PotionIcon
from artificer.ui.icon_pen import Pen

Colour = tuple[int, int, int]


GLASS = (225, 235, 245)
GLASS_SHADE = (150, 165, 185)
CORK = (168, 120, 72)
SHINE = (255, 255, 255, 150)
OUTLINE = (20, 18, 30)

#: The liquid (or body) colour of each glyph (Okabe–Ito where it can be: red, orange, blue, purple).
LIQUID: dict[PotionIcon, Colour] = {
    PotionIcon.ROUND_FLASK: (213, 64, 52),
    PotionIcon.BOMB: (58, 58, 70),
    PotionIcon.TALL_BOTTLE: (230, 159, 0),
    PotionIcon.SHIELD_FLASK: (150, 200, 240),
    PotionIcon.CRYSTAL_VIAL: (60, 120, 235),
    PotionIcon.SKULL_VIAL: (150, 84, 200),
}


def _cork(pen: Pen, x: float, top: float, w: float) -> None:
    pen.rect(OUTLINE, x - w / 2 - 0.05, top - 0.05, w + 0.1, 0.3, 0.06)
    pen.rect(CORK, x - w / 2, top, w, 0.2, 0.04)


def _round_flask(pen: Pen, liquid: Colour) -> None:
    pen.rect(OUTLINE, -0.24, -0.72, 0.48, 0.6)
    pen.rect(GLASS, -0.18, -0.7, 0.36, 0.6)
    pen.circle(OUTLINE, 0, 0.3, 0.68)
    pen.circle(GLASS, 0, 0.3, 0.6)
    pen.circle(liquid, 0, 0.34, 0.54)
    pen.rect(GLASS, -0.56, -0.14, 1.12, 0.26)  # the air above the liquid
    pen.circle(SHINE, -0.24, 0.18, 0.1)
    _cork(pen, 0, -0.92, 0.36)


def _bomb(pen: Pen, body: Colour) -> None:
    pen.circle(OUTLINE, -0.06, 0.2, 0.74)
    pen.circle(body, -0.06, 0.2, 0.66)
    pen.rect(OUTLINE, 0.08, -0.56, 0.36, 0.3, 0.05)
    pen.rect((110, 110, 124), 0.12, -0.52, 0.28, 0.22, 0.04)
    pen.line((190, 160, 110), (0.3, -0.52), (0.54, -0.76), 0.09)
    pen.circle((240, 228, 66), 0.6, -0.8, 0.18)
    pen.circle((230, 120, 0), 0.6, -0.8, 0.1)
    pen.circle((255, 255, 255, 120), -0.32, -0.02, 0.14)


def _tall_bottle(pen: Pen, liquid: Colour) -> None:
    pen.rect(OUTLINE, -0.46, -0.46, 0.92, 1.46, 0.22)
    pen.rect(GLASS, -0.38, -0.38, 0.76, 1.3, 0.18)
    pen.rect(liquid, -0.38, -0.1, 0.76, 1.02, 0.16)
    pen.rect(OUTLINE, -0.18, -0.8, 0.36, 0.42)
    pen.rect(GLASS, -0.12, -0.78, 0.24, 0.42)
    # The label: a crossed sword (strength).
    pen.rect((245, 235, 210), -0.28, 0.12, 0.56, 0.58, 0.06)
    pen.line(OUTLINE, (0, 0.18), (0, 0.62), 0.07)
    pen.line(OUTLINE, (-0.14, 0.5), (0.14, 0.5), 0.07)
    pen.poly(OUTLINE, [(-0.05, 0.2), (0.05, 0.2), (0, 0.12)])
    _cork(pen, 0, -1.0, 0.3)


def _shield_flask(pen: Pen, liquid: Colour) -> None:
    outline = [(-0.72, -0.42), (0.72, -0.42), (0.66, 0.3), (0, 0.98), (-0.66, 0.3)]
    inner = [(-0.6, -0.32), (0.6, -0.32), (0.55, 0.26), (0, 0.84), (-0.55, 0.26)]
    fill = [(-0.58, -0.08), (0.58, -0.08), (0.55, 0.26), (0, 0.84), (-0.55, 0.26)]
    pen.poly(OUTLINE, outline)
    pen.poly(GLASS, inner)
    pen.poly(liquid, fill)
    pen.line((255, 255, 255), (0, 0.02), (0, 0.66), 0.08)  # the shield's boss line
    pen.line((255, 255, 255), (-0.3, 0.24), (0.3, 0.24), 0.08)
    pen.rect(OUTLINE, -0.18, -0.74, 0.36, 0.36)
    pen.rect(GLASS, -0.12, -0.72, 0.24, 0.36)
    _cork(pen, 0, -0.94, 0.32)


def _crystal_vial(pen: Pen, liquid: Colour) -> None:
    outline = [(0, -0.62), (0.56, -0.2), (0.56, 0.5), (0, 0.98), (-0.56, 0.5), (-0.56, -0.2)]
    inner = [(0, -0.52), (0.46, -0.15), (0.46, 0.45), (0, 0.86), (-0.46, 0.45), (-0.46, -0.15)]
    pen.poly(OUTLINE, outline)
    pen.poly(liquid, inner)
    pen.poly((140, 185, 255), [(0, -0.52), (0.46, -0.15), (0, 0.1), (-0.46, -0.15)])  # the lit top facet
    star = [
        (
            0.22 * math.cos(math.pi / 2 + k * math.pi / 5) * (1 if k % 2 == 0 else 0.45),
            0.36 - 0.22 * math.sin(math.pi / 2 + k * math.pi / 5) * (1 if k % 2 == 0 else 0.45),
        )
        for k in range(10)
    ]
    pen.poly((250, 250, 255), star)
    pen.rect(OUTLINE, -0.16, -0.86, 0.32, 0.3)
    _cork(pen, 0, -1.0, 0.3)


def _skull_vial(pen: Pen, liquid: Colour) -> None:
    pen.rect(OUTLINE, -0.36, -0.62, 0.72, 1.62, 0.3)
    pen.rect(GLASS_SHADE, -0.28, -0.54, 0.56, 1.46, 0.24)
    pen.rect(liquid, -0.28, -0.22, 0.56, 1.14, 0.22)
    # The skull: a round head, two eyes, teeth.
    pen.circle((240, 236, 246), 0, 0.22, 0.2)
    pen.rect((240, 236, 246), -0.11, 0.3, 0.22, 0.18, 0.03)
    pen.circle(OUTLINE, -0.08, 0.2, 0.055)
    pen.circle(OUTLINE, 0.08, 0.2, 0.055)
    pen.line(OUTLINE, (0, 0.36), (0, 0.46), 0.03)
    _cork(pen, 0, -0.86, 0.34)


_DRAWINGS = {
    PotionIcon.ROUND_FLASK: _round_flask,
    PotionIcon.BOMB: _bomb,
    PotionIcon.TALL_BOTTLE: _tall_bottle,
    PotionIcon.SHIELD_FLASK: _shield_flask,
    PotionIcon.CRYSTAL_VIAL: _crystal_vial,
    PotionIcon.SKULL_VIAL: _skull_vial,
}


@lru_cache(maxsize=128)
def potion_image(icon: PotionIcon, r: int, greyed: bool = False) -> pygame.Surface:
    """The glyph `icon` at radius `r` (pixels), a transparent square 2·⌈EXTENT·r⌉ wide."""
    pen = Pen(max(4, r))
    _DRAWINGS[icon](pen, LIQUID[icon])
    image = pen.done()
    if greyed:
        image = pygame.transform.grayscale(image)
        image.set_alpha(120)
    return image


def potion_icon(
    surface: pygame.Surface, icon: PotionIcon, centre: tuple[float, float], r: int, greyed: bool = False
) -> pygame.Rect:
    """Draws the glyph `icon` centred at `centre`, radius `r`; returns where it went."""
    image = potion_image(icon, r, greyed)
    return surface.blit(image, image.get_rect(center=(round(centre[0]), round(centre[1]))))
