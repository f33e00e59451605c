"""The arena's HUD (DESIGN §7): HP and ward, the mana bar (R-MANA-9), wave
and timer, currency, the charge ring (R-MOVE-3, driven by its event), toasts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame

from artificer.engine.frame import FrameBuffers
from artificer.ui.i18n import tr

HP_COLOUR = (213, 94, 0)
WARD_COLOUR = (200, 200, 230)
MANA_COLOUR = (86, 140, 233)
TEXT = (235, 235, 245)
PANEL = (0, 0, 0, 150)


@dataclass
class HudState:
    wave: int = 1
    seconds_left: float = 60.0
    currency: int = 0
    #: R-MOVE-3 ring: 0 gone, 1 charging, 2 full (flashing), 3 released.
    charge: int = 0
    charge_since: float = 0.0
    #: Seconds from the ring showing to full (R-MOVE-3; set from the data).
    charge_span: float = 1.0
    toasts: list[tuple[str, float]] = field(default_factory=list)

    def toast(self, text: str, seconds: float = 2.5) -> None:
        self.toasts.append((text, seconds))

    def tick(self, dt: float) -> None:
        self.toasts = [(t, s - dt) for t, s in self.toasts if s - dt > 0]
        self.charge_since += dt


class Hud:
    def __init__(self, font: pygame.font.Font, small: pygame.font.Font, crystal: pygame.Surface) -> None:
        self.font = font
        self.small = small
        self.crystal = crystal

    def draw(self, surface: pygame.Surface, buffers: FrameBuffers, state: HudState, player_screen: tuple[float, float]) -> None:
        w, _ = surface.get_size()
        hp, hp_max = buffers.player_value("hp"), max(1.0, buffers.player_value("hp_max"))
        mana, mana_max = buffers.player_value("mana"), max(1.0, buffers.player_value("mana_max"))
        ward = buffers.player_value("ward")
        panel = pygame.Surface((300, 74), pygame.SRCALPHA)
        panel.fill(PANEL)
        surface.blit(panel, (12, 12))
        self._bar(surface, (22, 20, 280, 18), hp / hp_max, HP_COLOUR, f"{hp:.0f} / {hp_max:.0f}")
        if ward > 0:
            self._bar(surface, (22, 20, 280, 4), min(1.0, ward / hp_max), WARD_COLOUR, None)
        self._bar(surface, (22, 46, 280, 14), mana / mana_max, MANA_COLOUR, f"{mana:.0f} / {mana_max:.0f}")
        wave = self.font.render(tr("ui.hud.wave_timer", wave=state.wave, seconds=max(0.0, state.seconds_left)), True, TEXT)
        surface.blit(wave, (w / 2 - wave.get_width() / 2, 14))
        gold = self.font.render(str(state.currency), True, (120, 220, 255))
        surface.blit(gold, (w - gold.get_width() - 18, 14))
        surface.blit(self.crystal, (w - gold.get_width() - 24 - self.crystal.get_width(), 16))
        self._charge_ring(surface, state, player_screen)
        for i, (text, _) in enumerate(state.toasts[-3:]):
            img = self.small.render(text, True, TEXT)
            surface.blit(img, (w / 2 - img.get_width() / 2, 48 + 22 * i))

    def _bar(self, surface: pygame.Surface, rect: tuple[int, int, int, int], fraction: float, colour: tuple[int, int, int], label: str | None) -> None:
        x, y, w, h = rect
        pygame.draw.rect(surface, (40, 40, 50), rect, border_radius=3)
        pygame.draw.rect(surface, colour, (x, y, int(w * max(0.0, min(1.0, fraction))), h), border_radius=3)
        if label:
            img = self.small.render(label, True, TEXT)
            surface.blit(img, (x + w / 2 - img.get_width() / 2, y + h / 2 - img.get_height() / 2))

    def _charge_ring(self, surface: pygame.Surface, state: HudState, at: tuple[float, float]) -> None:
        if state.charge not in (1, 2):
            return
        full = state.charge == 2
        if full and int(state.charge_since * 8) % 2:
            return  # flashing when full
        colour = (240, 228, 66) if full else (180, 180, 220)
        sweep = 2 * math.pi if full else min(2 * math.pi, 2 * math.pi * state.charge_since / max(state.charge_span, 1e-3))
        rect = pygame.Rect(0, 0, 44, 44)
        rect.center = (int(at[0]), int(at[1]))
        pygame.draw.arc(surface, colour, rect, -math.pi / 2, -math.pi / 2 + sweep, 3)
