"""Spell cards and core boards as the player sees them (R-LAB-1, R-BOARD-*).

This module owns the look of a spell card (a frame coloured by family with
its glyph, an element band, the name, mana cost and CPU), the geometry of a
core's board fitted into a rectangle (slot rectangles from the layout's grid
coordinates), and drawing the board's furniture: splitter routes as arrows
between slots, entry tags (main / on kill / on hit) and adjacency bonuses.
A slot no cast can ever reach (R-VM-3c) is drawn greyed, its card dimmed
under a "never reached" mark; a card can also be drawn as a small chip (its
family's frame, its element's band, its name), as the lab's cast timeline
lists them. The lab, the training range, the shop and the run summary all
draw cards and boards through it, so a card looks the same everywhere.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass

import pygame

from artificer.content import Content
from artificer.content.cores import BoardLayout
from artificer.ui.atlas import ELEMENT_COLOURS
from artificer.ui.fonts import font
from artificer.ui.i18n import tr
from artificer.ui.widgets import blit_lines, fit_lines

FAMILY_COLOURS = {
    "action": (230, 159, 0),
    "modifier": (86, 180, 233),
    "multicast": (204, 121, 167),
    "trigger": (213, 94, 0),
    "logic": (0, 158, 115),
}
CARD_FACE = (30, 26, 48)
CARD_TEXT = (236, 232, 250)
MANA_TEXT = (130, 170, 255)
CPU_TEXT = (170, 230, 170)
SLOT_FILL = (22, 20, 36)
SLOT_EDGE = (90, 84, 130)
ROUTE = (150, 140, 210)
ENTRY_COLOURS = {"main": (242, 214, 140), "on_kill": (213, 94, 0), "on_hit": (86, 180, 233)}
BONUS_COLOUR = (240, 228, 66)
#: R-VM-3c: an unreachable card is dimmed under this veil, its mark drawn in UNREACHED_TEXT.
UNREACHED_VEIL = (8, 6, 16, 175)
UNREACHED_TEXT = (200, 196, 214)
UNREACHED_MARK = (255, 110, 90)
#: A card's name gets up to three lines under its glyph, never cut (`widgets.fit_lines`): two
#: at most on a card of normal size, a third on a small card (the glyph shrinks to make room).
CARD_NAME_LINES = 3
#: A chip's name starts this far right of its left edge (past the element band).
CHIP_TEXT_LEFT = 9
DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


def _glyph(
    surface: pygame.Surface, family: str, centre: tuple[float, float], r: float, colour: tuple[int, int, int]
) -> None:
    """A shape per family, so the family never rests on colour alone."""
    cx, cy = centre
    if family == "action":  # a bolt
        points = [
            (cx - r * 0.2, cy - r),
            (cx + r * 0.5, cy - r * 0.1),
            (cx + r * 0.05, cy),
            (cx + r * 0.3, cy + r),
            (cx - r * 0.5, cy + r * 0.05),
            (cx - r * 0.05, cy),
        ]
        pygame.draw.polygon(surface, colour, points)
    elif family == "modifier":  # a diamond
        pygame.draw.polygon(surface, colour, [(cx, cy - r), (cx + r * 0.7, cy), (cx, cy + r), (cx - r * 0.7, cy)], 2)
        pygame.draw.circle(surface, colour, (cx, cy), max(2, r * 0.22))
    elif family == "multicast":  # a fan of three
        for dx in (-0.6, 0.0, 0.6):
            pygame.draw.line(surface, colour, (cx, cy + r), (cx + r * dx, cy - r), 2)
    elif family == "trigger":  # a target ring
        pygame.draw.circle(surface, colour, (cx, cy), r, 2)
        pygame.draw.circle(surface, colour, (cx, cy), max(2, r * 0.35))
    else:  # logic: a branching node
        pygame.draw.line(surface, colour, (cx - r, cy), (cx, cy), 2)
        pygame.draw.line(surface, colour, (cx, cy), (cx + r, cy - r * 0.7), 2)
        pygame.draw.line(surface, colour, (cx, cy), (cx + r, cy + r * 0.7), 2)
        pygame.draw.circle(surface, colour, (cx, cy), max(2, r * 0.25))


def card_name_size(card_width: int) -> int:
    """The design size (px) of a card's name on a card `card_width` px wide."""
    return max(10, card_width // 8)


def card_name_width(card_width: int) -> int:
    """The room (px) for a card's name across a card `card_width` px wide: inside its 2 px frame,
    with a margin that grows with the card."""
    return card_width - max(4, card_width // 12)


def chip_name_width(chip_width: int) -> int:
    """The room (px) for a card's name on a chip `chip_width` px wide (its band and margins off)."""
    return chip_width - CHIP_TEXT_LEFT - 5


class CardArt:
    """Card images by (spell, size), cached; drop the cache when the language changes."""

    def __init__(self, content: Content) -> None:
        self.content = content
        self._cache: dict[tuple[str, int, int, str], pygame.Surface] = {}

    def image(self, spell_id: str, size: tuple[int, int]) -> pygame.Surface:
        from artificer.ui.i18n import catalog

        key = (spell_id, size[0], size[1], catalog().language)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._cache[key] = self._draw(spell_id, size)
        return cached

    def _draw(self, spell_id: str, size: tuple[int, int]) -> pygame.Surface:
        spell = self.content.spell(spell_id)
        w, h = size
        family = str(spell.family)
        element = str(spell.element) if spell.element is not None else None
        frame = FAMILY_COLOURS.get(family, (200, 200, 200))
        image = pygame.Surface(size, pygame.SRCALPHA)
        radius = max(4, w // 12)
        pygame.draw.rect(image, CARD_FACE, image.get_rect(), border_radius=radius)
        band = ELEMENT_COLOURS.get(element or "", (120, 116, 140))
        pygame.draw.rect(
            image, band, (0, 0, w, max(4, h // 14)), border_top_left_radius=radius, border_top_right_radius=radius
        )
        pygame.draw.rect(image, frame, image.get_rect(), 2, border_radius=radius)
        small = font(max(9, w // 9), bold=True)
        name = fit_lines(tr(spell.name_key), card_name_size(w), False, card_name_width(w), CARD_NAME_LINES)
        name_face, lines = name.face, name.lines
        step = name_face.get_linesize() - 2
        block = step * (len(lines) - 1) + name_face.get_height()
        figures_top = h - 3 - small.get_ascent()
        glyph_r, glyph_y = min(w, h) * 0.17, h * 0.34
        if glyph_y + glyph_r + block > figures_top:
            # A name that would run into the mana and CPU figures (long, on a small card) takes room from the glyph.
            glyph_r = min(w, h) * 0.11
            glyph_y = max(4, h // 14) + 3 + glyph_r
        _glyph(image, family, (w / 2, glyph_y), glyph_r, frame)
        # The name sits under the glyph, lifted (on a small card) to end above the figures.
        top = max(int(glyph_y + glyph_r), min(int(h * 0.56), figures_top - block))
        for line in lines:
            text = name_face.render(line, True, CARD_TEXT)
            image.blit(text, text.get_rect(midtop=(w // 2, top)))
            top += step
        mana = small.render(f"{spell.mana_cost:g}", True, MANA_TEXT)
        image.blit(mana, mana.get_rect(bottomleft=(6, h - 3)))
        cpu = small.render(f"{spell.cpu}", True, CPU_TEXT)
        image.blit(cpu, cpu.get_rect(bottomright=(w - 6, h - 3)))
        return image


@dataclass(frozen=True)
class BoardGeometry:
    """Where each slot of a board sits on screen: `slots[i]` is the rect of layout slot i."""

    layout: BoardLayout
    slots: tuple[pygame.Rect, ...]
    cell: int

    @classmethod
    def fit(
        cls, layout: BoardLayout, area: pygame.Rect, max_cell: int = 132, card_ratio: float = 1.15
    ) -> BoardGeometry:
        """Fit the board's grid into `area`, centred; cells are square-ish, at most `max_cell` wide."""
        cols = max(s.x for s in layout.slots) + 1
        rows = max(s.y for s in layout.slots) + 1
        cell = int(min(area.width / cols, area.height / (rows * card_ratio), max_cell))
        cell_h = int(cell * card_ratio)
        left = area.centerx - cols * cell // 2
        top = area.centery - rows * cell_h // 2
        pad = max(4, cell // 10)
        rects = tuple(
            pygame.Rect(left + s.x * cell + pad, top + s.y * cell_h + pad, cell - 2 * pad, cell_h - 2 * pad)
            for s in layout.slots
        )
        return cls(layout, rects, cell)

    def slot_at(self, position: tuple[int, int]) -> int | None:
        for index, rect in enumerate(self.slots):
            if rect.collidepoint(position):
                return index
        return None

    def draw_furniture(self, surface: pygame.Surface) -> None:
        """Routes (arrows from slot to slot) and entry tags — drawn under the cards."""
        index = {slot.id: i for i, slot in enumerate(self.layout.slots)}
        for a, b in self.layout.edges:
            _arrow(surface, self.slots[index[a]], self.slots[index[b]], ROUTE)
        tag_face = font(max(10, self.cell // 9), bold=True)
        for entry, slot_id in self.layout.entries.items():
            rect = self.slots[index[slot_id]]
            colour = ENTRY_COLOURS.get(str(entry), ENTRY_COLOURS["main"])
            label = tag_face.render(tr(f"ui.lab.entry.{entry}"), True, colour)
            surface.blit(label, label.get_rect(midbottom=(rect.centerx, rect.top - 2)))

    def draw_slots(
        self,
        surface: pygame.Surface,
        cards: list[str | None],
        art: CardArt,
        hidden: int | None = None,
        unreachable: Collection[int] = (),
    ) -> None:
        """Empty slots as sockets, filled ones with their card (`hidden`: the slot whose card is being
        dragged); the cards of `unreachable` slots (R-VM-3c) greyed with a "never reached" mark."""
        for i, rect in enumerate(self.slots):
            pygame.draw.rect(surface, SLOT_FILL, rect, border_radius=8)
            pygame.draw.rect(surface, SLOT_EDGE, rect, 2, border_radius=8)
            card = cards[i] if i < len(cards) else None
            if card is not None and i != hidden:
                surface.blit(art.image(card, rect.size), rect)
                if i in unreachable:
                    draw_unreached(surface, rect)
        self.draw_bonuses(surface)

    def draw_bonuses(self, surface: pygame.Surface) -> None:
        """Adjacency bonuses (R-BOARD-2): an arrow out of the slot toward its neighbour and the ×mult, over the cards."""
        bonus_face = font(max(10, self.cell // 9), bold=True)
        for i, slot in enumerate(self.layout.slots):
            if slot.bonus is None:
                continue
            dx, dy = DIRECTIONS[str(slot.bonus.dir)]
            rect = self.slots[i]
            start = (rect.centerx + dx * rect.width * 0.5, rect.centery + dy * rect.height * 0.5)
            end = (start[0] + dx * self.cell * 0.18, start[1] + dy * self.cell * 0.18)
            pygame.draw.line(surface, BONUS_COLOUR, start, end, 3)
            text = bonus_face.render(f"×{slot.bonus.mult:g}", True, BONUS_COLOUR)
            surface.blit(text, text.get_rect(center=(end[0] + dy * 16 + dx * 4, end[1] - dx * 10 + dy * 4)))


def draw_unreached(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """R-VM-3c: a card no cast reaches — dimmed, with a slashed circle and "never reached" over it."""
    veil = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(veil, UNREACHED_VEIL, veil.get_rect(), border_radius=max(4, rect.width // 12))
    surface.blit(veil, rect)
    r = max(5, rect.width // 10)
    centre = (rect.right - r - 5, rect.top + r + 7)
    pygame.draw.circle(surface, UNREACHED_MARK, centre, r, 2)
    offset = r * 0.7
    pygame.draw.line(
        surface, UNREACHED_MARK, (centre[0] - offset, centre[1] + offset), (centre[0] + offset, centre[1] - offset), 2
    )
    mark = fit_lines(tr("ui.lab.never_reached"), max(10, min(14, rect.width // 7)), True, rect.width - 8, 2)
    # Over the card's glyph, so its name stays readable under the veil.
    blit_lines(surface, mark, UNREACHED_TEXT, center=(rect.centerx, rect.top + int(rect.height * 0.34)))


def chip_width(content: Content, spell_id: str, face: pygame.font.Font) -> int:
    """The width a chip needs to show `spell_id`'s whole name in `face`."""
    return face.size(tr(content.spell(spell_id).name_key))[0] + 16


def draw_chip(
    surface: pygame.Surface, content: Content, spell_id: str, rect: pygame.Rect, face: pygame.font.Font
) -> None:
    """A card as a chip: its family's frame, its element's band on the left, its name (shrunk to fit, `widgets.fit_lines`)."""
    spell = content.spell(spell_id)
    frame = FAMILY_COLOURS.get(str(spell.family), (200, 200, 200))
    band = ELEMENT_COLOURS.get(str(spell.element) if spell.element is not None else "", (120, 116, 140))
    pygame.draw.rect(surface, CARD_FACE, rect, border_radius=5)
    pygame.draw.rect(
        surface, band, (rect.x, rect.y, 5, rect.height), border_top_left_radius=5, border_bottom_left_radius=5
    )
    pygame.draw.rect(surface, frame, rect, 1, border_radius=5)
    name = fit_lines(tr(spell.name_key), face.point_size, False, chip_name_width(rect.width))
    blit_lines(surface, name, CARD_TEXT, midleft=(rect.x + CHIP_TEXT_LEFT, rect.centery))


def _arrow(surface: pygame.Surface, a: pygame.Rect, b: pygame.Rect, colour: tuple[int, int, int]) -> None:
    ax, ay = a.center
    bx, by = b.center
    length = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / length, (by - ay) / length

    # Leave each card's edge: start and end on the rectangles' borders.
    def exit_distance(rect: pygame.Rect) -> float:
        tx = rect.width / 2 / abs(ux) if ux else math.inf
        ty = rect.height / 2 / abs(uy) if uy else math.inf
        return min(tx, ty)

    start = (ax + ux * exit_distance(a), ay + uy * exit_distance(a))
    end = (bx - ux * (exit_distance(b) + 2), by - uy * (exit_distance(b) + 2))
    pygame.draw.line(surface, colour, start, end, 3)
    head = 9
    left = (end[0] - ux * head - uy * head * 0.6, end[1] - uy * head + ux * head * 0.6)
    right = (end[0] - ux * head + uy * head * 0.6, end[1] - uy * head - ux * head * 0.6)
    pygame.draw.polygon(surface, colour, [end, left, right])
