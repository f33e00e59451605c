"""The colour-blind palette (R-SET-1): Okabe–Ito colours, as data for the renderer and the HUD.

This module owns `OKABE_ITO` (the eight colours of Okabe & Ito, "Color
Universal Design", distinguishable under the common colour-vision
deficiencies) and `COLOUR_BLIND`, which assigns them to what the game colours:
elements, enemy kinds and HUD roles. When `Settings.colour_blind` is on, the
atlas and the HUD take their colours from here instead of their own tables;
shapes still differ, so colour is never the only signal. Nothing here draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

RGB = tuple[int, int, int]

OKABE_ITO: Mapping[str, RGB] = MappingProxyType(
    {
        "black": (0, 0, 0),
        "orange": (230, 159, 0),
        "sky_blue": (86, 180, 233),
        "bluish_green": (0, 158, 115),
        "yellow": (240, 228, 66),
        "blue": (0, 114, 178),
        "vermillion": (213, 94, 0),
        "reddish_purple": (204, 121, 167),
    }
)
# Okabe–Ito has no light neutral; this white stands for "no hue" (physical damage, plain text).
NEUTRAL: RGB = (235, 235, 235)


def _colour(name: str) -> RGB:
    return OKABE_ITO[name]


@dataclass(frozen=True)
class Palette:
    """Colours by what they mean: `elements` (damage element id), `enemies` (enemy kind id), `roles` (HUD/effects)."""

    elements: Mapping[str, RGB] = field(default_factory=dict)
    enemies: Mapping[str, RGB] = field(default_factory=dict)
    roles: Mapping[str, RGB] = field(default_factory=dict)

    def element(self, element: str, fallback: RGB = NEUTRAL) -> RGB:
        """The colour of a damage element."""
        return self.elements.get(element, fallback)

    def enemy(self, kind: str, fallback: RGB = NEUTRAL) -> RGB:
        """The colour of an enemy kind."""
        return self.enemies.get(kind, fallback)

    def role(self, role: str, fallback: RGB = NEUTRAL) -> RGB:
        """The colour of a HUD role ("hp", "mana", "ward", "gold", "damage", "crit", "heal", "charge", ...)."""
        return self.roles.get(role, fallback)


COLOUR_BLIND = Palette(
    elements=MappingProxyType(
        {
            "physical": NEUTRAL,
            "fire": _colour("vermillion"),
            "ice": _colour("sky_blue"),
            "lightning": _colour("yellow"),
            "poison": _colour("bluish_green"),
            "water": _colour("blue"),
        }
    ),
    enemies=MappingProxyType(
        {
            "grunt": _colour("vermillion"),
            "runner": _colour("orange"),
            "brute": _colour("reddish_purple"),
            "archer": _colour("sky_blue"),
            "swarmer": _colour("yellow"),
            "reflector": _colour("blue"),
            "armored": NEUTRAL,
            "exploder": _colour("orange"),
            "splitter": _colour("bluish_green"),
        }
    ),
    roles=MappingProxyType(
        {
            "player": NEUTRAL,
            "ally_shot": _colour("sky_blue"),
            "enemy_shot": _colour("vermillion"),
            "hp": _colour("vermillion"),
            "mana": _colour("blue"),
            "ward": _colour("sky_blue"),
            "gold": _colour("yellow"),
            "heal": _colour("bluish_green"),
            "damage": NEUTRAL,
            "crit": _colour("orange"),
            "charge": _colour("reddish_purple"),
            "warning": _colour("orange"),
        }
    ),
)
