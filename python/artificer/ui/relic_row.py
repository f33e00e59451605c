"""The relic row on screen (R-REL-4): ten slots of the relics owned, a hover tooltip, flashes.

This module owns `RelicRowView`, shared by the arena's HUD and the shop: where
the slots are (40×40, 48 px apart, from a `topleft` the caller sets), how
they look (the relic's glyph, `artificer.ui.icons_relics`, in the order the
relics were gained; beyond ten relics the tenth slot shows "+N", N the relics
it stands for), the tooltip of the hovered slot (seed 000's TooltipBox: 260
wide, at least 72 high, the name and the description, placed under its slot —
or above it when the slot sits low — and kept on screen; the "+N" slot lists
the relics it hides), and a brief flash of a slot when its relic acts: the
core's RELIC events (`flash_rule`: the rule that acted is the effect of the
relic that flashes) — a flash, never a toast,
so a relic acting every frame (the_boot) costs nothing on screen.
"""

from __future__ import annotations

import pygame

from artificer.content.relics import Relic
from artificer.engine.events import RELIC_RULE_BY_EVENT
from artificer.game.relics import RunRelics, relic_text_values
from artificer.ui.fonts import font
from artificer.ui.i18n import tr
from artificer.ui.icons_relics import relic_icon
from artificer.ui.widgets import BUTTON_EDGE, wrap

Colour = tuple[int, int, int]

SLOTS = 10
SLOT_SIZE = 40
SLOT_PITCH = 48
TOOLTIP_WIDTH = 260
TOOLTIP_MIN_HEIGHT = 72
#: How long a slot glows after its relic acted (seconds).
FLASH_SECONDS = 0.6
SLOT_FILL = (30, 26, 48, 255)  # opaque: nothing of the fight shows through a slot (R-FEEL-1)
SLOT_EDGE = (120, 108, 170)
EMPTY_EDGE = (62, 56, 88)
FLASH_COLOUR = (255, 214, 110)
TEXT = (236, 232, 250)
NAME_COLOUR = (255, 214, 110)
MORE_COLOUR = (240, 228, 66)
BOX_FILL = (10, 8, 20, 250)


def relic_lines(relic: Relic) -> list[tuple[str, Colour]]:
    """The tooltip's lines: the name, then the description with its values."""
    return [(tr(relic.name_key), NAME_COLOUR), (tr(relic.description_key, **relic_text_values(relic)), TEXT)]


class RelicRowView:
    """The ten slots at `topleft`, the hovered slot's tooltip and the slots' flashes."""

    def __init__(self, topleft: tuple[int, int] = (12, 94), scale: float = 1.0, show_empty: bool = True) -> None:
        """`show_empty=False` (the arena): only the slots that hold relics are drawn, so the
        row covers no more of the fight than it must (R-FEEL-1: the HUD never hides enemies)."""
        self.topleft = topleft
        self.scale = scale
        self.show_empty = show_empty
        #: Seconds of glow left, by relic id.
        self.flashes: dict[str, float] = {}
        #: The tooltip drawn by the last `draw`: its box and its lines' texts (None: no tooltip).
        self.tooltip: tuple[pygame.Rect, list[str]] | None = None

    # ---- geometry -----------------------------------------------------------------
    def px(self, length: float) -> int:
        return max(1, round(length * self.scale))

    def slot_rect(self, index: int) -> pygame.Rect:
        left, top = self.topleft
        return pygame.Rect(left + index * self.px(SLOT_PITCH), top, self.px(SLOT_SIZE), self.px(SLOT_SIZE))

    @property
    def rect(self) -> pygame.Rect:
        """The whole row."""
        return self.slot_rect(0).union(self.slot_rect(SLOTS - 1))

    def drawn_rect(self, owned: int) -> pygame.Rect | None:
        """What `draw` covers with `owned` relics: the whole row, or with `show_empty=False` only
        the slots that hold relics (None: nothing)."""
        shown = SLOTS if self.show_empty else min(owned, SLOTS)
        return self.slot_rect(0).union(self.slot_rect(shown - 1)) if shown else None

    def slot_at(self, position: tuple[int, int]) -> int | None:
        return next((index for index in range(SLOTS) if self.slot_rect(index).collidepoint(position)), None)

    @staticmethod
    def slot_relics(owned: list[str], index: int) -> list[str]:
        """The relics slot `index` stands for: one, none, or (the tenth, beyond ten relics) the rest."""
        if len(owned) > SLOTS and index == SLOTS - 1:
            return owned[index:]
        return owned[index : index + 1]

    # ---- flashes ------------------------------------------------------------------
    def flash(self, relic_id: str) -> None:
        self.flashes[relic_id] = FLASH_SECONDS

    def flash_rule(self, relics: RunRelics, rule: int) -> None:
        """A RELIC event (`a` = `rule`): flash the owned relic whose rule acted."""
        effect = RELIC_RULE_BY_EVENT.get(rule)
        if effect is None:
            return
        for relic_id in relics.owned:
            if relics.book.relic(relic_id).effect == effect:
                self.flash(relic_id)

    def tick(self, dt: float) -> None:
        self.flashes = {relic_id: left - dt for relic_id, left in self.flashes.items() if left - dt > 0}

    # ---- drawing ------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, relics: RunRelics, mouse: tuple[int, int] = (-1, -1)) -> None:
        """The ten slots, then the hovered slot's tooltip."""
        owned = relics.owned
        for index in range(SLOTS):
            shown = self.slot_relics(owned, index)
            if shown or self.show_empty:
                self._slot(surface, relics, shown, index, mouse)
        self.tooltip = None
        hovered = self.slot_at(mouse)
        if hovered is not None and self.slot_relics(owned, hovered):
            self._tooltip(surface, relics, hovered)

    def _slot(
        self, surface: pygame.Surface, relics: RunRelics, shown: list[str], index: int, mouse: tuple[int, int]
    ) -> None:
        rect = self.slot_rect(index)
        radius = self.px(6)
        layer = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(layer, SLOT_FILL, layer.get_rect(), border_radius=radius)
        glow = max((self.flashes.get(relic_id, 0.0) for relic_id in shown), default=0.0) / FLASH_SECONDS
        if glow > 0:
            shine = pygame.Surface(rect.size, pygame.SRCALPHA)
            pygame.draw.rect(shine, (*FLASH_COLOUR, round(150 * glow)), shine.get_rect(), border_radius=radius)
            layer.blit(shine, (0, 0))
        surface.blit(layer, rect)
        if not shown:
            pygame.draw.rect(surface, EMPTY_EDGE, rect, 1, border_radius=radius)
            return
        if glow > 0:
            edge, width = FLASH_COLOUR, 2
        else:
            edge, width = (TEXT if rect.collidepoint(mouse) else SLOT_EDGE), 1
        if len(shown) > 1:
            label = font(self.px(16), bold=True).render(f"+{len(shown)}", True, MORE_COLOUR)
            surface.blit(label, label.get_rect(center=rect.center))
        else:
            relic_icon(surface, relics.book.relic(shown[0]).icon, rect.center, self.px(16))
        pygame.draw.rect(surface, edge, rect, width, border_radius=radius)

    def _lines(self, relics: RunRelics, shown: list[str]) -> list[tuple[str, Colour]]:
        if len(shown) == 1:
            return relic_lines(relics.book.relic(shown[0]))
        names = ", ".join(tr(relics.book.relic(relic_id).name_key) for relic_id in shown)
        return [(tr("ui.relic.more", count=len(shown)), MORE_COLOUR), (names, TEXT)]

    def _tooltip(self, surface: pygame.Surface, relics: RunRelics, index: int) -> None:
        """Seed 000's TooltipBox: 260 wide, at least 72 high, under the slot (above it when low)."""
        lines = self._lines(relics, self.slot_relics(relics.owned, index))
        width = self.px(TOOLTIP_WIDTH - 20)
        images: list[tuple[pygame.Surface, int]] = []
        for number, (text, colour) in enumerate(lines):
            face = font(self.px(17), bold=True) if number == 0 else font(self.px(14))
            parts = wrap(text, face, width, 4)
            for part_number, part in enumerate(parts):
                images.append((face.render(part, True, colour), self.px(4) if part_number == len(parts) - 1 else 0))
        pad = self.px(10)
        height = max(self.px(TOOLTIP_MIN_HEIGHT), 2 * pad + sum(image.get_height() + gap for image, gap in images))
        slot = self.slot_rect(index)
        box = pygame.Rect(0, 0, self.px(TOOLTIP_WIDTH), height)
        box.midtop = (slot.centerx, slot.bottom + self.px(6))
        if box.bottom > surface.get_height():
            box.midbottom = (slot.centerx, slot.top - self.px(6))
        box = box.clamp(surface.get_rect())
        layer = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.rect(layer, BOX_FILL, layer.get_rect(), border_radius=self.px(8))
        pygame.draw.rect(layer, BUTTON_EDGE, layer.get_rect(), 1, border_radius=self.px(8))
        surface.blit(layer, box)
        y = box.y + pad
        for image, gap in images:
            surface.blit(image, (box.x + pad, y))
            y += image.get_height() + gap
        self.tooltip = (box, [text for text, _ in lines])
