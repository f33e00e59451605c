"""The colour-blind palette (R-SET-1): Okabe–Ito colours, as data for the renderer and the HUD.

This module owns `OKABE_ITO` (the eight colours of Okabe & Ito, "Color
Universal Design", distinguishable under the common colour-vision
deficiencies) and `COLOUR_BLIND`, which assigns them to what the game colours:
elements, enemy kinds and HUD roles. When `Settings.colour_blind` is on, the
atlas draws every sprite in its look's `cb_colour` (data/looks.json, R-FEEL-1)
and the HUD takes its role colours from here; shapes still differ, so colour
is never the only signal. The enemy and element colours here are the shipped
looks' cb colours (for code without a `Content` at hand); the atlas reads the
loaded content's own. Nothing here draws.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from artificer.content.loader import DEFAULT_DATA_DIR
from artificer.content.looks import LOOKS_FILE, Looks

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


def _shipped_looks() -> Looks:
    """data/looks.json as shipped (validated; the loader checks it against the other files)."""
    return Looks.model_validate_json((DEFAULT_DATA_DIR / LOOKS_FILE).read_text(encoding="utf-8"), strict=True)


_SHIPPED_LOOKS = _shipped_looks()


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
    elements=MappingProxyType({str(element): look.cb_colour for element, look in _SHIPPED_LOOKS.elements.items()}),
    enemies=MappingProxyType({kind: look.cb_colour for kind, look in _SHIPPED_LOOKS.enemies.items()}),
    roles=MappingProxyType(
        {
            "player": NEUTRAL,
            "ally_shot": _colour("sky_blue"),
            "enemy_shot": _SHIPPED_LOOKS.enemy_shot.cb_colour,
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
