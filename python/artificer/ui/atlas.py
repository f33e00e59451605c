"""The sprite atlas, drawn by the game itself at start-up (DESIGN §7): a
distinct shape and colour per enemy kind, an element colour per spell's
projectile, crystals, turrets and the player. No external art.

Built only after `pygame.display.set_mode` (surfaces are converted to the
display format for fast blits).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from artificer.content import Content
from artificer.ui.palette import OKABE_ITO, Palette

# Okabe–Ito, colour-blind safe; shapes differ too, so colour is never the only signal.
ELEMENT_COLOURS = {
    "physical": (230, 230, 230),
    "fire": OKABE_ITO["orange"],
    "ice": OKABE_ITO["sky_blue"],
    "lightning": OKABE_ITO["yellow"],
    "poison": OKABE_ITO["bluish_green"],
    "water": OKABE_ITO["blue"],
}
ENEMY_STYLE = {  # kind id → (polygon sides, 0 = circle; colour)
    "grunt": (0, (213, 94, 0)),
    "runner": (3, (230, 159, 0)),
    "brute": (4, (160, 60, 40)),
    "archer": (5, (204, 121, 167)),
    "swarmer": (3, (240, 228, 66)),
    "reflector": (6, (86, 180, 233)),
    "armored": (4, (150, 150, 160)),
    "exploder": (8, (255, 90, 60)),
    "splitter": (5, (0, 158, 115)),
    "splitling": (4, (90, 200, 160)),
}
FALLBACK_STYLE = (7, (200, 200, 200))


def _polygon(radius: float, sides: int, phase: float = -math.pi / 2) -> list[tuple[float, float]]:
    return [
        (radius + radius * math.cos(phase + 2 * math.pi * i / sides), radius + radius * math.sin(phase + 2 * math.pi * i / sides))
        for i in range(sides)
    ]


def _enemy_sprite(radius: float, sides: int, colour: tuple[int, int, int]) -> pygame.Surface:
    size = max(2, math.ceil(radius * 2))
    surf = pygame.Surface((size + 2, size + 2), pygame.SRCALPHA)
    r = size / 2
    outline = tuple(max(0, c - 90) for c in colour)
    if sides == 0:
        pygame.draw.circle(surf, colour, (r + 1, r + 1), r)
        pygame.draw.circle(surf, outline, (r + 1, r + 1), r, 2)
    else:
        points = [(x + 1, y + 1) for x, y in _polygon(r, sides)]
        pygame.draw.polygon(surf, colour, points)
        pygame.draw.polygon(surf, outline, points, 2)
    # An eye, so every enemy reads as a creature, not a dot.
    pygame.draw.circle(surf, (20, 20, 20), (r + 1, r * 0.8 + 1), max(1.0, r * 0.22))
    return surf


def _glow(radius: float, colour: tuple[int, int, int]) -> pygame.Surface:
    size = max(4, math.ceil(radius * 3))
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    c = size / 2
    for i, alpha in ((1.5, 50), (1.0, 140), (0.55, 255)):
        pygame.draw.circle(surf, (*colour, alpha), (c, c), max(1.0, radius * i))
    pygame.draw.circle(surf, (255, 255, 255, 220), (c, c), max(1.0, radius * 0.3))
    return surf


@dataclass
class Atlas:
    """Sprites indexed the way the frame buffers index things: enemy kind,
    spell index (a projectile's look), and fixed sprites."""

    enemies: list[pygame.Surface]
    elites: list[pygame.Surface]
    spells: list[pygame.Surface]
    enemy_shots: list[pygame.Surface]
    crystal: pygame.Surface
    turret: pygame.Surface
    player: pygame.Surface

    @classmethod
    def build(cls, content: Content, palette: Palette | None = None) -> Atlas:
        """The sprites; with `palette` (the colour-blind setting) enemies and elements take its colours."""
        enemies, elites = [], []
        for enemy in content.enemies:
            sides, colour = ENEMY_STYLE.get(enemy.id, FALLBACK_STYLE)
            if palette is not None:
                colour = palette.enemy(enemy.id, colour)
            enemies.append(_enemy_sprite(enemy.radius, sides, colour).convert_alpha())
            elite = _enemy_sprite(enemy.radius * 1.15, sides, colour)
            pygame.draw.circle(elite, (255, 215, 0), (elite.get_width() / 2, elite.get_height() / 2), elite.get_width() / 2 - 1, 2)
            elites.append(elite.convert_alpha())
        spells = []
        for spell in content.spells:
            element = spell.element.value if spell.element is not None else "physical"
            radius = spell.action.radius if spell.action is not None else 4.0
            if spell.trigger is not None:
                radius = spell.trigger.carrier.radius
            tint = palette.element(element, ELEMENT_COLOURS[element]) if palette is not None else ELEMENT_COLOURS[element]
            spells.append(_glow(min(radius, 24.0), tint).convert_alpha())
        enemy_shots = [_glow(4.0, (255, 80, 120)).convert_alpha() for _ in content.enemies]
        crystal = pygame.Surface((12, 14), pygame.SRCALPHA)
        pygame.draw.polygon(crystal, (120, 220, 255), [(6, 0), (12, 7), (6, 14), (0, 7)])
        pygame.draw.polygon(crystal, (230, 250, 255), [(6, 0), (12, 7), (6, 14), (0, 7)], 1)
        turret = pygame.Surface((22, 22), pygame.SRCALPHA)
        pygame.draw.rect(turret, (90, 200, 160), (3, 3, 16, 16), border_radius=4)
        pygame.draw.circle(turret, (20, 40, 30), (11, 11), 4)
        radius = content.balance.player.radius
        player = pygame.Surface((radius * 2 + 4, radius * 2 + 4), pygame.SRCALPHA)
        c = radius + 2
        pygame.draw.circle(player, (250, 250, 255), (c, c), radius)
        pygame.draw.circle(player, (120, 90, 255), (c, c), radius, 3)
        pygame.draw.circle(player, (120, 90, 255), (c, c), radius * 0.35)
        return cls(enemies, elites, spells, enemy_shots, crystal.convert_alpha(), turret.convert_alpha(), player.convert_alpha())
