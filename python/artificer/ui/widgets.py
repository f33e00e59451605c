"""Small drawn widgets the card screens share: buttons, panels, tooltips and toasts.

This module owns how a button looks in each state (normal, hovered,
disabled) with its key hint, the translucent panel under a group of
controls, a tooltip box that stays on screen (flipped to the cursor's other
side at an edge), and a short-lived message line. Texts come in already
translated; fonts follow the language. It also owns the text and status
colours the card screens share (the lab, its cast timeline, the shop):
`TEXT`, `LAB_TEXT`, `DIM`, `GOOD`, `BAD`. A button's label is fitted to it
(`artificer.ui.text_fit`, whose API is re-exported here: `fit_lines`,
`draw_fitted`, `draw_fitted_in`, `blit_lines`, `wrap`): shrunk, wrapped when
the button is tall enough, and its key hint dropped before it would be cut.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import pygame

from artificer.ui.fonts import font
from artificer.ui.text_fit import (  # the text fitting the widgets use, re-exported for the screens
    FIT_FLOOR as FIT_FLOOR,
)
from artificer.ui.text_fit import (
    MIN_TEXT_PX as MIN_TEXT_PX,
)
from artificer.ui.text_fit import (
    Fitted as Fitted,
)
from artificer.ui.text_fit import (
    blit_lines as blit_lines,
)
from artificer.ui.text_fit import (
    break_lines as break_lines,
)
from artificer.ui.text_fit import (
    draw_fitted as draw_fitted,
)
from artificer.ui.text_fit import (
    draw_fitted_in as draw_fitted_in,
)
from artificer.ui.text_fit import (
    fit_lines as fit_lines,
)
from artificer.ui.text_fit import (
    line_step as line_step,
)
from artificer.ui.text_fit import (
    wrap as wrap,
)

BUTTON_FILL = (48, 38, 86)
BUTTON_HOVER = (84, 62, 150)
BUTTON_EDGE = (150, 120, 240)
BUTTON_DISABLED = (36, 34, 46)
TEXT = (236, 232, 250)
#: The lab's text (its panels, the cast timeline): a shade softer than `TEXT`.
LAB_TEXT = (220, 216, 240)
DIM = (150, 144, 180)
GOOD = (120, 220, 140)
BAD = (255, 110, 90)
TEXT_DISABLED = (110, 106, 128)
HINT = (170, 160, 210)
PANEL_FILL = (14, 12, 26, 200)
PANEL_EDGE = (70, 62, 110)
#: Toasts: text size, the widest pill (px), padding inside it, the gap between pills, the opaque fill.
TOAST_SIZE = 18
TOAST_MAX_WIDTH = 360
TOAST_PAD = (12, 5)
TOAST_GAP = 4
TOAST_FILL = (16, 14, 30)
#: Seconds a withdrawn toast takes to fade out (`Toasts.withdraw`): a toast fades over its last
#: half second, so this starts that fade at once.
TOAST_WITHDRAW_SECONDS = 0.5
TOOLTIP_FILL = (10, 8, 20, 245)
#: A button's label keeps this many px clear of its edges in all (both sides together).
BUTTON_PAD = 16


@dataclass
class Button:
    """A clickable label; `hint` is the key shown in brackets (e.g. "Enter")."""

    rect: pygame.Rect
    label: str
    hint: str = ""
    enabled: bool = True

    def contains(self, position: tuple[int, int]) -> bool:
        return self.rect.collidepoint(position)

    def draw(self, surface: pygame.Surface, mouse: tuple[int, int]) -> None:
        hovered = self.enabled and self.contains(mouse)
        fill = BUTTON_HOVER if hovered else BUTTON_FILL if self.enabled else BUTTON_DISABLED
        pygame.draw.rect(surface, fill, self.rect, border_radius=8)
        pygame.draw.rect(surface, BUTTON_EDGE if self.enabled else PANEL_EDGE, self.rect, 2, border_radius=8)
        colour = TEXT if self.enabled else TEXT_DISABLED
        size = max(12, self.rect.height * 2 // 5)
        lines = 2 if self.rect.height >= 2 * font(size, True).get_linesize() + 6 else 1
        hint = (
            font(max(10, self.rect.height // 3)).render(f"[{self.hint}]", True, HINT if self.enabled else TEXT_DISABLED)
            if self.hint
            else None
        )
        label = fit_lines(
            self.label, size, True, self.rect.width - BUTTON_PAD - (hint.get_width() + 8 if hint else 0), lines
        )
        if label.cut and hint is not None:
            # A label that cannot fit beside its key hint keeps the button and drops the hint.
            hint, label = None, fit_lines(self.label, size, True, self.rect.width - BUTTON_PAD, lines)
        if hint is not None:
            total = label.width + 8 + hint.get_width()
            left = self.rect.centerx - total // 2
            blit_lines(surface, label, colour, midleft=(left, self.rect.centery))
            surface.blit(hint, hint.get_rect(midleft=(left + label.width + 8, self.rect.centery + 1)))
        else:
            blit_lines(surface, label, colour, center=self.rect.center)


@functools.lru_cache(maxsize=8)
def gradient(size: tuple[int, int], top: tuple[int, int, int], bottom: tuple[int, int, int]) -> pygame.Surface:
    """A vertical gradient from `top` to `bottom` filling `size`: a 1×2 surface smoothscaled (no per-row
    loop), made once per size and colours (screens redraw it every frame). Treat it as read-only."""
    seed = pygame.Surface((1, 2))
    seed.set_at((0, 0), top)
    seed.set_at((0, 1), bottom)
    return pygame.transform.smoothscale(seed, size)


#: The title's own screens (Unlocks, Codex, Leaderboard): their secondary and faint text, and their
#: design size (the 1280×720 their layouts are written for).
SCREEN_DIM = (160, 154, 196)
SCREEN_FAINT = (96, 90, 126)
SCREEN_DESIGN = (1280, 720)


def backdrop(surface: pygame.Surface, top: tuple[int, int, int], bottom: tuple[int, int, int]) -> float:
    """A title screen's sky (`gradient`) over all of `surface`; returns its scale against `SCREEN_DESIGN`."""
    width, height = surface.get_size()
    surface.blit(gradient((width, height), top, bottom), (0, 0))
    return min(width / SCREEN_DESIGN[0], height / SCREEN_DESIGN[1])


#: R-META-1: aether's colour, everywhere it shows (the summary, the Unlocks screen, the title).
AETHER = (196, 160, 255)


def aether_star(surface: pygame.Surface, centre: tuple[int, int], size: int) -> None:
    """Aether's mark: a four-pointed star `size` px tall, in aether's colour with a pale core."""
    cx, cy = centre
    outer, inner = size / 2, size / 7
    points = [
        (
            cx + math.cos(math.pi / 4 * i - math.pi / 2) * (outer if i % 2 == 0 else inner),
            cy + math.sin(math.pi / 4 * i - math.pi / 2) * (outer if i % 2 == 0 else inner),
        )
        for i in range(8)
    ]
    pygame.draw.polygon(surface, AETHER, points)
    pygame.draw.circle(surface, (246, 236, 255), (cx, cy), max(1, size // 8))


def panel(surface: pygame.Surface, rect: pygame.Rect, title: str | None = None) -> None:
    """A translucent rounded panel with an optional title in its top-left corner."""
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(layer, PANEL_FILL, layer.get_rect(), border_radius=10)
    pygame.draw.rect(layer, PANEL_EDGE, layer.get_rect(), 2, border_radius=10)
    surface.blit(layer, rect)
    if title:
        text = font(18, bold=True).render(title, True, HINT)
        surface.blit(text, (rect.x + 12, rect.y + 8))


def tooltip(
    surface: pygame.Surface,
    lines: list[tuple[str, tuple[int, int, int]]],
    at: tuple[int, int],
    width: int = 320,
    size: int = 16,
) -> None:
    """A box of coloured lines in a `size` px font near `at`, wrapped to `width` and kept inside the window."""
    face = font(size)
    wrapped: list[tuple[str, tuple[int, int, int]]] = []
    for text, colour in lines:
        wrapped.extend((part, colour) for part in wrap(text, face, width - 20, 8))
    height = 14 + face.get_linesize() * len(wrapped)
    box = pygame.Rect(at[0] + 18, at[1] + 18, width, height)
    screen = surface.get_rect()
    # Past an edge the box flips to the cursor's other side, so it never hides what is pointed at.
    if box.right > screen.right:
        box.right = at[0] - 12
    if box.bottom > screen.bottom:
        box.bottom = at[1] - 12
    box.clamp_ip(screen)
    layer = pygame.Surface(box.size, pygame.SRCALPHA)
    pygame.draw.rect(layer, TOOLTIP_FILL, layer.get_rect(), border_radius=8)
    pygame.draw.rect(layer, BUTTON_EDGE, layer.get_rect(), 1, border_radius=8)
    surface.blit(layer, box)
    y = box.y + 7
    for text, colour in wrapped:
        surface.blit(face.render(text, True, colour), (box.x + 10, y))
        y += face.get_linesize()


@dataclass
class Toasts:
    """Messages that fade after a few seconds, newest last."""

    items: list[tuple[str, float]] = field(default_factory=list)

    def show(self, text: str, seconds: float = 2.5) -> None:
        self.items = [(t, s) for t, s in self.items if t != text] + [(text, seconds)]

    def tick(self, dt: float) -> None:
        self.items = [(t, s - dt) for t, s in self.items if s - dt > 0]

    def withdraw(self, text: str) -> None:
        """Fades `text` out now, over `TOAST_WITHDRAW_SECONDS` (a tip whose cause is gone)."""
        self.items = [(t, min(s, TOAST_WITHDRAW_SECONDS) if t == text else s) for t, s in self.items]

    def draw(
        self,
        surface: pygame.Surface,
        centre_x: int,
        top: int,
        colour: tuple[int, int, int] = (255, 200, 120),
        max_width: int = TOAST_MAX_WIDTH,
    ) -> None:
        """The newest three, stacked down from `top` (the stack moves up if it would leave the
        surface), each on an opaque pill `max_width` px wide at most, fitted onto two lines: a
        toast over a panel stays readable and never runs into its neighbours."""
        laid = [fit_lines(text, TOAST_SIZE, True, max_width - 2 * TOAST_PAD[0], 2) for text, _ in self.items[-3:]]
        heights = [fitted.height + 2 * TOAST_PAD[1] for fitted in laid]
        y = min(top, surface.get_height() - sum(heights) - TOAST_GAP * len(heights))
        for fitted, height, (_, seconds) in zip(laid, heights, self.items[-3:]):
            pill = pygame.Rect(0, 0, fitted.width + 2 * TOAST_PAD[0], height)
            pill.midtop = (centre_x, y)
            layer = pygame.Surface(pill.size, pygame.SRCALPHA)
            pygame.draw.rect(layer, TOAST_FILL, layer.get_rect(), border_radius=6)
            pygame.draw.rect(layer, PANEL_EDGE, layer.get_rect(), 1, border_radius=6)
            blit_lines(layer, fitted, colour, center=layer.get_rect().center)
            layer.set_alpha(int(255 * min(1.0, seconds / 0.5)))  # fades out over its last half second
            surface.blit(layer, pill)
            y = pill.bottom + TOAST_GAP
