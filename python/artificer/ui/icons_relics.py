"""The relic glyphs (R-REL-4): one drawing per relics.json `icon` name, made by the game itself, any size.

This module owns `relic_icon(surface, icon, centre, r)`. Like the potion
glyphs (`artificer.ui.icons_potions`), each is drawn in icon units (x right,
y down, the radius `r` = 1; everything within `EXTENT`·r) on a transparent
square `SUPERSAMPLE`× larger, then smooth-scaled down; the result is kept per
(glyph, r). Shape and colour both tell the relics apart (seed 000's equipment
look and names):

    iron_heart         a riveted grey iron heart
    energy_core        a blue orb in a ring, a yellow bolt inside
    vampire_fang       two white fangs dripping a red drop
    golden_idol        a small gold idol with a round head
    potion_belt        a brown belt, a buckle and two vials
    burning_blood      Zakum's helmet: a dark red helm with a flame plume
    vajra              the Mithril Axe: a silver blade on a brown haft
    anchor             the Maple Shield: a blue shield with an orange maple leaf
    bag_of_prep        the Adventurer's Pack: a brown backpack with a flap
    blood_vial         the Blood Necklace: a chain and a red pendant
    bronze_scales      the Bronze Chainmail: a bronze tunic of scales
    strawberry         the Ring of Vigor: a gold ring with a green gem
    pen_nib            the Golden Quill: a gold feather with a nib
    the_boot           the Bronze Boots: one bronze boot
    akabeko            the Bull Helm: a red helm with two horns
    centennial_puzzle  the Centennial Charm: a jade puzzle piece
    meat_on_bone       the Meat Mallet: a ham on a bone
    self_forming_clay  the Clay Armor: a terracotta breastplate
    champion_belt      a red belt with a large gold plate and a star

An unknown name draws a grey disc with a question mark (relics.json's
checker already reports a relic without an icon of its own).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

import pygame

from artificer.ui.icon_pen import Colour, Pen, Point

OUTLINE = (20, 18, 30)
GOLD = (236, 190, 60)
GOLD_DARK = (170, 122, 30)
BRONZE = (196, 128, 62)
BRONZE_DARK = (128, 78, 36)
SILVER = (200, 208, 222)
LEATHER = (134, 86, 50)
LEATHER_DARK = (92, 56, 32)
RED = (213, 52, 52)
SHINE = (255, 255, 255, 150)


def _outlined(pen: Pen, colour: Colour, points: list[Point], edge: float = 0.07) -> None:
    """A filled polygon with a dark outline."""
    pen.poly(colour, points)
    pen.poly(OUTLINE, points, edge)


def _star(cx: float, cy: float, outer: float, inner: float, points: int = 5) -> list[Point]:
    return [
        (
            cx + (outer if k % 2 == 0 else inner) * math.sin(k * math.pi / points),
            cy - (outer if k % 2 == 0 else inner) * math.cos(k * math.pi / points),
        )
        for k in range(2 * points)
    ]


def _heart(cx: float, cy: float, size: float) -> list[Point]:
    """A heart outline from its parametric curve, `size` ≈ its half width."""
    points = []
    for step in range(40):
        t = 2 * math.pi * step / 40
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((cx + x * size / 16, cy - y * size / 16))
    return points


def _iron_heart(pen: Pen) -> None:
    _outlined(pen, (150, 156, 170), _heart(0, 0.05, 0.9), 0.1)
    pen.poly((190, 196, 210), _heart(-0.12, -0.08, 0.5))
    for x, y in ((-0.45, -0.25), (0.45, -0.25), (0, 0.45)):
        pen.circle((80, 84, 96), x, y, 0.08)
    pen.circle(SHINE, -0.35, -0.4, 0.1)


def _energy_core(pen: Pen) -> None:
    pen.circle(OUTLINE, 0, 0, 0.95)
    pen.circle((60, 110, 220), 0, 0, 0.86)
    pen.circle((120, 180, 255), 0, 0, 0.6)
    pen.circle((30, 60, 140), 0, 0, 0.86, 0.1)
    _outlined(
        pen, (250, 228, 70), [(0.12, -0.6), (-0.3, 0.08), (-0.02, 0.08), (-0.14, 0.6), (0.3, -0.1), (0.02, -0.1)], 0.05
    )


def _vampire_fang(pen: Pen) -> None:
    pen.rect((170, 40, 60), -0.85, -0.8, 1.7, 0.36, 0.16)  # the gum
    _outlined(pen, (245, 242, 235), [(-0.62, -0.5), (-0.12, -0.5), (-0.4, 0.55)])
    _outlined(pen, (245, 242, 235), [(0.12, -0.5), (0.62, -0.5), (0.4, 0.55)])
    pen.circle(RED, 0.4, 0.8, 0.16)
    pen.poly(RED, [(0.28, 0.74), (0.52, 0.74), (0.4, 0.52)])


def _golden_idol(pen: Pen) -> None:
    _outlined(pen, GOLD_DARK, [(-0.7, 0.95), (0.7, 0.95), (0.55, 0.75), (-0.55, 0.75)])  # the plinth
    _outlined(pen, GOLD, [(-0.45, 0.75), (0.45, 0.75), (0.32, -0.15), (-0.32, -0.15)])
    pen.circle(OUTLINE, 0, -0.5, 0.45)
    pen.circle(GOLD, 0, -0.5, 0.38)
    pen.circle(OUTLINE, -0.14, -0.55, 0.06)
    pen.circle(OUTLINE, 0.14, -0.55, 0.06)
    pen.line(GOLD_DARK, (-0.3, 0.2), (0.3, 0.2), 0.08)
    pen.circle(SHINE, -0.16, -0.72, 0.08)


def _potion_belt(pen: Pen) -> None:
    pen.rect(OUTLINE, -1.0, 0.05, 2.0, 0.5, 0.08)
    pen.rect(LEATHER, -0.96, 0.09, 1.92, 0.42, 0.06)
    for x, colour in ((-0.6, (213, 64, 52)), (0.6, (60, 120, 235))):
        pen.rect(OUTLINE, x - 0.2, -0.7, 0.4, 0.85, 0.12)
        pen.rect(colour, x - 0.14, -0.42, 0.28, 0.52, 0.08)
        pen.rect((225, 235, 245), x - 0.14, -0.64, 0.28, 0.22, 0.04)
        pen.rect((168, 120, 72), x - 0.1, -0.86, 0.2, 0.18, 0.03)
    pen.rect(OUTLINE, -0.26, -0.05, 0.52, 0.7, 0.06)
    pen.rect(SILVER, -0.2, 0.01, 0.4, 0.58, 0.05, 0.1)
    pen.line(SILVER, (0, 0.3), (0.2, 0.3), 0.08)


def _burning_blood(pen: Pen) -> None:
    pen.poly((255, 150, 30), [(-0.3, -0.4), (-0.1, -1.0), (0.0, -0.65), (0.18, -1.02), (0.32, -0.4)])  # the flame plume
    pen.poly((255, 230, 90), [(-0.12, -0.45), (0.0, -0.8), (0.14, -0.45)])
    _outlined(
        pen,
        (150, 30, 36),
        [
            (-0.8, 0.9),
            (-0.82, 0.0),
            (-0.5, -0.45),
            (0.5, -0.45),
            (0.82, 0.0),
            (0.8, 0.9),
            (0.3, 0.9),
            (0.3, 0.3),
            (-0.3, 0.3),
            (-0.3, 0.9),
        ],
        0.09,
    )
    pen.rect(OUTLINE, -0.55, -0.05, 1.1, 0.22)  # the visor slit
    pen.line(GOLD, (-0.78, -0.18), (0.78, -0.18), 0.08)
    pen.circle(SHINE, -0.5, -0.25, 0.07)


def _vajra(pen: Pen) -> None:
    pen.line(OUTLINE, (-0.6, 0.95), (0.35, -0.75), 0.24)
    pen.line(LEATHER, (-0.6, 0.95), (0.35, -0.75), 0.14)
    blade = [(0.0, -0.6), (0.55, -0.95), (0.98, -0.3), (0.7, 0.2), (0.25, -0.1)]
    _outlined(pen, SILVER, blade, 0.08)
    pen.poly((235, 242, 252), [(0.55, -0.85), (0.9, -0.3), (0.72, 0.08), (0.65, -0.35)])
    pen.circle(GOLD, 0.2, -0.38, 0.1)


def _anchor(pen: Pen) -> None:
    shield = [(-0.85, -0.85), (0.85, -0.85), (0.82, 0.1), (0, 1.0), (-0.82, 0.1)]
    _outlined(pen, (60, 100, 200), shield, 0.1)
    pen.poly((90, 140, 230), [(-0.7, -0.72), (0, -0.72), (0, 0.82), (-0.68, 0.06)])
    leaf = _star(0, -0.05, 0.55, 0.24, 5)
    _outlined(pen, (240, 130, 30), leaf, 0.05)
    pen.line((170, 80, 20), (0, 0.1), (0, 0.62), 0.08)


def _bag_of_prep(pen: Pen) -> None:
    pen.arc(OUTLINE, -0.4, -0.98, 0.8, 0.7, 0, math.pi, 0.14)  # the carrying loop
    pen.rect(OUTLINE, -0.78, -0.7, 1.56, 1.68, 0.3)
    pen.rect(LEATHER, -0.7, -0.62, 1.4, 1.52, 0.26)
    pen.rect(OUTLINE, -0.74, -0.66, 1.48, 0.72, 0.24)
    pen.rect((170, 112, 64), -0.68, -0.6, 1.36, 0.6, 0.2)  # the flap
    pen.rect(GOLD, -0.12, -0.14, 0.24, 0.26, 0.04)
    pen.rect(LEATHER_DARK, -0.5, 0.35, 1.0, 0.4, 0.08)  # the front pocket


def _blood_vial(pen: Pen) -> None:
    pen.arc(GOLD_DARK, -0.85, -1.0, 1.7, 1.5, math.pi, 2 * math.pi, 0.12)  # the chain, hanging from both sides
    for step in range(7):
        t = math.pi + math.pi * step / 6
        pen.circle(GOLD, 0.85 * math.cos(t), -0.25 - 0.75 * math.sin(t), 0.1)
    drop = [(0, -0.25), (0.42, 0.35), (0.52, 0.62), (0.36, 0.9), (0, 1.0), (-0.36, 0.9), (-0.52, 0.62), (-0.42, 0.35)]
    _outlined(pen, RED, drop, 0.08)
    pen.poly((150, 24, 30), [(0.1, 0.4), (0.42, 0.6), (0.3, 0.86), (0.0, 0.92)])
    pen.circle(GOLD, 0, -0.25, 0.12)
    pen.circle(SHINE, -0.18, 0.5, 0.1)


def _bronze_scales(pen: Pen) -> None:
    tunic = [
        (-0.5, -0.9),
        (-0.2, -0.75),
        (0.2, -0.75),
        (0.5, -0.9),
        (0.95, -0.5),
        (0.7, -0.2),
        (0.6, 0.95),
        (-0.6, 0.95),
        (-0.7, -0.2),
        (-0.95, -0.5),
    ]
    _outlined(pen, BRONZE, tunic, 0.09)
    for row, y in enumerate((-0.3, 0.05, 0.4, 0.75)):
        shift = 0.15 if row % 2 else 0.0
        for x in (-0.45, -0.15, 0.15, 0.45):
            if -0.6 < x + shift < 0.6:
                pen.arc(BRONZE_DARK, x + shift - 0.15, y - 0.15, 0.3, 0.3, math.pi, 2 * math.pi, 0.06)
    pen.arc(OUTLINE, -0.22, -0.95, 0.44, 0.4, math.pi, 2 * math.pi, 0.07)  # the neck


def _strawberry(pen: Pen) -> None:
    pen.circle(OUTLINE, 0, 0.25, 0.72, 0.26)
    pen.circle(GOLD, 0, 0.25, 0.66, 0.14)
    pen.arc(GOLD_DARK, -0.6, -0.35, 1.2, 1.2, math.pi * 1.1, math.pi * 1.9, 0.05)
    gem = [(0, -0.95), (0.34, -0.6), (0.2, -0.28), (-0.2, -0.28), (-0.34, -0.6)]
    _outlined(pen, (40, 190, 110), gem, 0.06)
    pen.poly((150, 240, 190), [(0, -0.88), (0.2, -0.62), (0, -0.5), (-0.2, -0.62)])


def _pen_nib(pen: Pen) -> None:
    feather = [(0.85, -0.95), (0.55, -0.2), (0.0, 0.45), (-0.25, 0.42), (-0.1, 0.1), (0.3, -0.5)]
    _outlined(pen, GOLD, feather, 0.07)
    pen.line(GOLD_DARK, (0.78, -0.85), (-0.2, 0.4), 0.06)
    for t in (0.25, 0.45, 0.65):
        x, y = 0.78 - 0.98 * t, -0.85 + 1.25 * t
        pen.line(GOLD_DARK, (x, y), (x + 0.2, y + 0.02), 0.04)
    nib = [(-0.3, 0.35), (-0.12, 0.5), (-0.7, 0.95), (-0.78, 0.88)]
    _outlined(pen, (60, 60, 72), nib, 0.05)


def _the_boot(pen: Pen) -> None:
    boot = [(-0.45, -0.95), (0.25, -0.95), (0.25, 0.25), (0.85, 0.45), (0.95, 0.85), (-0.45, 0.85)]
    _outlined(pen, BRONZE, boot, 0.09)
    pen.rect(BRONZE_DARK, -0.45, 0.68, 1.4, 0.17)  # the sole
    pen.rect(OUTLINE, -0.5, -0.98, 0.8, 0.22)
    pen.rect((230, 170, 100), -0.46, -0.94, 0.72, 0.14)  # the cuff
    pen.line(BRONZE_DARK, (-0.3, -0.4), (0.12, -0.4), 0.06)
    pen.line(BRONZE_DARK, (-0.3, -0.1), (0.12, -0.1), 0.06)
    pen.circle(SHINE, 0.55, 0.5, 0.07)


def _akabeko(pen: Pen) -> None:
    _outlined(pen, (235, 225, 200), [(-0.5, -0.3), (-1.0, -0.7), (-0.95, -1.0), (-0.35, -0.55)], 0.06)  # horns
    _outlined(pen, (235, 225, 200), [(0.5, -0.3), (1.0, -0.7), (0.95, -1.0), (0.35, -0.55)], 0.06)
    helm = [(-0.7, 0.85), (-0.75, -0.1), (-0.45, -0.6), (0.45, -0.6), (0.75, -0.1), (0.7, 0.85)]
    _outlined(pen, (200, 40, 40), helm, 0.09)
    pen.poly(OUTLINE, [(-0.5, 0.0), (0.5, 0.0), (0.12, 0.2), (0.12, 0.85), (-0.12, 0.85), (-0.12, 0.2)])  # the T visor
    pen.line(GOLD, (-0.7, -0.2), (0.7, -0.2), 0.07)


def _centennial_puzzle(pen: Pen) -> None:
    jade, dark = (70, 180, 130), (30, 110, 80)
    pen.rect(OUTLINE, -0.68, -0.6, 1.3, 1.3, 0.08)
    pen.circle(OUTLINE, -0.03, -0.62, 0.32)  # the top knob
    pen.circle(OUTLINE, 0.62, 0.05, 0.32)  # the right knob
    pen.rect(jade, -0.61, -0.53, 1.16, 1.16, 0.06)
    pen.circle(jade, -0.03, -0.62, 0.25)
    pen.circle(jade, 0.62, 0.05, 0.25)
    pen.circle(OUTLINE, -0.68, 0.05, 0.28)  # the left socket
    pen.circle(OUTLINE, -0.03, 0.7, 0.28)  # the bottom socket
    pen.circle((0, 0, 0, 0), -0.68, 0.05, 0.21)
    pen.circle((0, 0, 0, 0), -0.03, 0.7, 0.21)
    pen.line(dark, (-0.3, 0.05), (0.25, 0.05), 0.08)
    pen.circle(SHINE, -0.3, -0.3, 0.08)


def _meat_on_bone(pen: Pen) -> None:
    pen.line(OUTLINE, (-0.72, 0.72), (0.2, -0.2), 0.3)
    pen.line((245, 240, 225), (-0.72, 0.72), (0.2, -0.2), 0.2)
    pen.circle(OUTLINE, -0.8, 0.6, 0.19)
    pen.circle(OUTLINE, -0.6, 0.8, 0.19)
    pen.circle((245, 240, 225), -0.8, 0.6, 0.14)
    pen.circle((245, 240, 225), -0.6, 0.8, 0.14)
    pen.circle(OUTLINE, 0.25, -0.25, 0.72)
    pen.circle((176, 70, 50), 0.25, -0.25, 0.64)
    pen.circle((215, 110, 80), 0.32, -0.32, 0.42)
    pen.arc((240, 200, 170), 0.0, -0.58, 0.6, 0.6, 0.3, 1.6, 0.06)  # the fat


def _self_forming_clay(pen: Pen) -> None:
    clay, dark = (200, 110, 70), (140, 70, 44)
    plate = [
        (-0.85, -0.75),
        (-0.3, -0.6),
        (0.3, -0.6),
        (0.85, -0.75),
        (0.78, 0.3),
        (0.4, 0.9),
        (-0.4, 0.9),
        (-0.78, 0.3),
    ]
    _outlined(pen, clay, plate, 0.09)
    pen.arc(OUTLINE, -0.3, -0.85, 0.6, 0.5, math.pi, 2 * math.pi, 0.08)  # the neck
    pen.line(dark, (0, -0.45), (0, 0.8), 0.07)
    pen.arc(dark, -0.7, -0.35, 0.7, 0.55, math.pi * 1.05, math.pi * 1.95, 0.07)  # the chest's curves
    pen.arc(dark, 0.0, -0.35, 0.7, 0.55, math.pi * 1.05, math.pi * 1.95, 0.07)
    for x, y in ((-0.5, 0.45), (0.45, 0.2), (-0.2, 0.7)):
        pen.circle(dark, x, y, 0.06)  # thumb marks


def _champion_belt(pen: Pen) -> None:
    pen.rect(OUTLINE, -1.0, -0.3, 2.0, 0.6, 0.08)
    pen.rect((180, 30, 40), -0.96, -0.26, 1.92, 0.52, 0.06)
    pen.circle(OUTLINE, 0, 0, 0.72)
    pen.circle(GOLD, 0, 0, 0.65)
    pen.circle(GOLD_DARK, 0, 0, 0.5, 0.06)
    _outlined(pen, (255, 240, 150), _star(0, 0.02, 0.36, 0.15), 0.04)
    for x in (-0.82, 0.82):
        pen.circle(GOLD, x, 0, 0.08)


def _unknown(pen: Pen) -> None:
    pen.circle(OUTLINE, 0, 0, 0.9)
    pen.circle((120, 116, 140), 0, 0, 0.82)
    pen.arc(OUTLINE, -0.3, -0.6, 0.6, 0.6, -math.pi / 2, math.pi, 0.12)
    pen.line(OUTLINE, (0, 0.0), (0, 0.25), 0.12)
    pen.circle(OUTLINE, 0, 0.5, 0.08)


DRAWINGS: dict[str, Callable[[Pen], None]] = {
    "iron_heart": _iron_heart,
    "energy_core": _energy_core,
    "vampire_fang": _vampire_fang,
    "golden_idol": _golden_idol,
    "potion_belt": _potion_belt,
    "burning_blood": _burning_blood,
    "vajra": _vajra,
    "anchor": _anchor,
    "bag_of_prep": _bag_of_prep,
    "blood_vial": _blood_vial,
    "bronze_scales": _bronze_scales,
    "strawberry": _strawberry,
    "pen_nib": _pen_nib,
    "the_boot": _the_boot,
    "akabeko": _akabeko,
    "centennial_puzzle": _centennial_puzzle,
    "meat_on_bone": _meat_on_bone,
    "self_forming_clay": _self_forming_clay,
    "champion_belt": _champion_belt,
}


@lru_cache(maxsize=256)
def relic_image(icon: str, r: int) -> pygame.Surface:
    """The glyph `icon` at radius `r` (pixels), a transparent square 2·⌈EXTENT·r⌉ wide."""
    r = max(4, r)
    pen = Pen(r)
    DRAWINGS.get(icon, _unknown)(pen)
    return pen.done()


def relic_icon(surface: pygame.Surface, icon: str, centre: tuple[float, float], r: int) -> pygame.Rect:
    """Draws the glyph `icon` centred at `centre`, radius `r`; returns where it went."""
    image = relic_image(icon, r)
    return surface.blit(image, image.get_rect(center=(round(centre[0]), round(centre[1]))))
