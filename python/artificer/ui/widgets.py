"""Small drawn widgets the card screens share: buttons, panels, tooltips and toasts.

This module owns how a button looks in each state (normal, hovered,
disabled) with its key hint, the translucent panel under a group of
controls, a tooltip box that stays on screen (flipped to the cursor's other
side at an edge), and a short-lived message line. Texts come in already
translated; fonts follow the language. It also owns the text and status
colours the card screens share (the lab, its cast timeline, the shop):
`TEXT`, `LAB_TEXT`, `DIM`, `GOOD`, `BAD`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from artificer.ui.fonts import font

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
TOOLTIP_FILL = (10, 8, 20, 245)


def wrap(text: str, face: pygame.font.Font, width: int, lines: int) -> list[str]:
    """Greedy wrap by words (by characters for scripts without spaces); the last line is cut with '…'."""
    words = text.split(" ") if " " in text else list(text)
    joiner = " " if " " in text else ""
    out: list[str] = []
    line = ""
    for word in words:
        trial = f"{line}{joiner}{word}" if line else word
        if face.size(trial)[0] <= width or not line:
            line = trial
        else:
            out.append(line)
            line = word
    out.append(line)
    if len(out) > lines:
        out = out[:lines]
        last = out[-1]
        while last and face.size(last + "…")[0] > width:
            last = last[:-1]
        out[-1] = last + "…"
    return out


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
        face = font(max(12, self.rect.height * 2 // 5), bold=True)
        label = face.render(self.label, True, TEXT if self.enabled else TEXT_DISABLED)
        if self.hint:
            hint = font(max(10, self.rect.height // 3)).render(f"[{self.hint}]", True, HINT if self.enabled else TEXT_DISABLED)
            total = label.get_width() + 8 + hint.get_width()
            left = self.rect.centerx - total // 2
            surface.blit(label, label.get_rect(midleft=(left, self.rect.centery)))
            surface.blit(hint, hint.get_rect(midleft=(left + label.get_width() + 8, self.rect.centery + 1)))
        else:
            surface.blit(label, label.get_rect(center=self.rect.center))


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
    surface: pygame.Surface, lines: list[tuple[str, tuple[int, int, int]]], at: tuple[int, int], width: int = 320, size: int = 16
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

    def draw(self, surface: pygame.Surface, centre_x: int, top: int, colour: tuple[int, int, int] = (255, 200, 120)) -> None:
        face = font(18, bold=True)
        for i, (text, seconds) in enumerate(self.items[-3:]):
            image = face.render(text, True, colour)
            image.set_alpha(int(255 * min(1.0, seconds / 0.5)))
            surface.blit(image, image.get_rect(midtop=(centre_x, top + i * (face.get_linesize() + 2))))
