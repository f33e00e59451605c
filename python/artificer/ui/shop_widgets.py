"""The shop's drawn pieces (R-SHOP-1): a canvas laid out in 1280×720 design units, its
buttons and price tags in mana crystals, and the little icons the shop draws itself.

This module owns `Canvas` — one frame of a screen drawn at any window size from
design coordinates (`r`, `px`, `font`), which records every clickable place it
draws (`Hot`: where, what it does, its tooltip, its focus key) so the scene can
route clicks, the keyboard focus and tooltips to what is on screen — and the
icons: the crystal (the currency), a padlock, a core's board in small, a dashed
outline. The stat and talent glyphs are `artificer.ui.icons`' (re-exported here).
Texts come in already translated; fonts follow the language (`artificer.ui.fonts`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from artificer.content import Core
from artificer.content.models import WandStat
from artificer.ui.fonts import font
from artificer.ui.icons import stat_icon as stat_icon
from artificer.ui.icons import talent_icon as talent_icon
from artificer.ui.widgets import (
    BAD,
    BUTTON_EDGE,
    BUTTON_FILL,
    BUTTON_HOVER,
    DIM,
    MIN_TEXT_PX,
    PANEL_EDGE,
    TEXT,
    blit_lines,
    draw_fitted,
    draw_fitted_in,
    fit_lines,
    tooltip,
)  # fmt: skip

Colour = tuple[int, int, int]
Tip = list[tuple[str, Colour]]

DESIGN = (1280, 720)
BACKGROUND = (12, 10, 22)
TITLE = (242, 214, 140)
FAINT = (86, 80, 116)
CRYSTAL = (120, 220, 255)  # the currency is mana crystals: the HUD draws it cyan
TOO_DEAR = BAD  # a price the gold can't pay
FOCUS = (255, 240, 200)
DISABLED_FILL = (36, 34, 46)
DISABLED_TEXT = (110, 106, 128)
PRIMARY_FILL = (150, 112, 40)
PRIMARY_HOVER = (190, 146, 60)
#: A tooltip's width at its 16 px text: a spell's line of numbers fits on one line.
TOOLTIP_WIDTH = 340
#: Stats shown as a share (cast speed 0.05 → "5%"); the others as whole points.
PERCENT_STATS = frozenset(
    {WandStat.CAST_SPEED, WandStat.ACCURACY, WandStat.MOVE_SPEED, WandStat.CRIT_CHANCE, WandStat.LUCK}
)
#: Stats whose value (`Shop.stat_preview`) is a share; move speed's value is px/s, its upgrade a share.
PERCENT_VALUES = PERCENT_STATS - {WandStat.MOVE_SPEED}


@dataclass
class Hot:
    """A clickable place drawn this frame: where, what it does, its focus key, its tooltip."""

    rect: pygame.Rect
    action: Callable[[], None]
    key: str
    tip: Tip | None = None


@dataclass
class Canvas:
    """One frame of a screen: `surface`, the design-space mapping, and the places drawn on it."""

    surface: pygame.Surface
    mouse: tuple[int, int] = (-1, -1)
    time: float = 0.0
    hots: list[Hot] = field(default_factory=list)
    #: A tooltip for something hovered that does not act (a slotted card).
    hover_tip: Tip | None = None

    # ---- design space → screen ----------------------------------------------------
    @property
    def scale(self) -> float:
        width, height = self.surface.get_size()
        return min(width / DESIGN[0], height / DESIGN[1])

    def r(self, x: float, y: float, w: float = 0, h: float = 0) -> pygame.Rect:
        """A design-space rectangle on screen (centred when the window's shape is not 16:9)."""
        s = self.scale
        width, height = self.surface.get_size()
        ox = (width - DESIGN[0] * s) / 2
        oy = (height - DESIGN[1] * s) / 2
        return pygame.Rect(round(ox + x * s), round(oy + y * s), round(w * s), round(h * s))

    def px(self, length: float) -> int:
        """A design-space length on screen (at least 1 px)."""
        return max(1, round(length * self.scale))

    def font(self, size: float, bold: bool = False) -> pygame.font.Font:
        return font(max(8, self.px(size)), bold)

    def hovered(self, rect: pygame.Rect) -> bool:
        return rect.collidepoint(self.mouse)

    # ---- text --------------------------------------------------------------------------
    def text(self, text: str, size: float, colour: Colour, bold: bool = False, **where: tuple[int, int]) -> pygame.Rect:
        """Blits one line placed by a `get_rect` keyword (`midtop=…`, `topleft=…`); returns its rect."""
        image = self.font(size, bold).render(text, True, colour)
        rect = image.get_rect(**where)
        self.surface.blit(image, rect)
        return rect

    def fitted(
        self,
        text: str,
        size: float,
        bold: bool,
        colour: Colour,
        midtop: tuple[int, int],
        width: int,
        max_lines: int = 1,
    ) -> pygame.Rect:
        """`text` centred at `midtop` in a box `width` px wide: shrunk to fit (down to
        `widgets.FIT_FLOOR` of `size`), then wrapped onto up to `max_lines` lines (`widgets.fit_lines`)."""
        return draw_fitted(
            self.surface, text, max(MIN_TEXT_PX, self.px(size)), bold, colour, width, max_lines, midtop=midtop
        )

    def fitted_in(
        self,
        text: str,
        size: float,
        bold: bool,
        colour: Colour,
        box: pygame.Rect,
        max_lines: int = 2,
        align: str = "center",
    ) -> pygame.Rect:
        """`text` inside `box` (its width and height), centred in it vertically: shrunk to fit,
        then wrapped onto up to `max_lines` lines (`widgets.draw_fitted_in`)."""
        return draw_fitted_in(self.surface, text, max(MIN_TEXT_PX, self.px(size)), bold, colour, box, max_lines, align)

    def now_after(
        self, now: str, after: str, size: float, colours: tuple[Colour, Colour], midtop: tuple[int, int], width: int
    ) -> pygame.Rect:
        """R-FEEL-2: "110 → 120" centred at `midtop`, shrunk to fit `width`. The arrow is drawn,
        not typed: the Latin Noto Sans the game ships has no "→" glyph."""
        pixels = max(8, self.px(size))
        while True:
            face = font(pixels, True)
            left, right = face.render(now, True, colours[0]), face.render(after, True, colours[1])
            arrow, gap = max(6, pixels * 3 // 4), max(3, pixels // 3)
            total = left.get_width() + arrow + 2 * gap + right.get_width()
            if total <= width or pixels <= 8:
                break
            pixels -= 1
        x, y = midtop[0] - total // 2, midtop[1]
        self.surface.blit(left, (x, y))
        mid_y = y + left.get_height() // 2
        start, end = x + left.get_width() + gap, x + left.get_width() + gap + arrow
        head = max(3, arrow // 3)
        pygame.draw.line(self.surface, colours[0], (start, mid_y), (end - 1, mid_y), max(2, pixels // 7))
        pygame.draw.polygon(
            self.surface, colours[0], [(end, mid_y), (end - head, mid_y - head), (end - head, mid_y + head)]
        )
        self.surface.blit(right, (end + gap, y))
        return pygame.Rect(x, y, total, left.get_height())

    # ---- controls -------------------------------------------------------------------------
    def button(
        self, rect: pygame.Rect, label: str, hint: str, action: Callable[[], None], key: str,
        primary: bool = False, enabled: bool = True, tip: Tip | None = None,
    ) -> None:  # fmt: skip
        """A labelled button with an optional key hint ("[Enter]"); the primary one is gold."""
        hot = enabled and self.hovered(rect)
        if primary:
            fill, edge = (PRIMARY_HOVER if hot else PRIMARY_FILL), TITLE
        else:
            fill = BUTTON_HOVER if hot else BUTTON_FILL if enabled else DISABLED_FILL
            edge = BUTTON_EDGE if enabled else PANEL_EDGE
        radius = self.px(8)
        pygame.draw.rect(self.surface, fill, rect, border_radius=radius)
        pygame.draw.rect(self.surface, edge, rect, 2, border_radius=radius)
        size = max(10, min(rect.height // 2, self.px(19)))
        hint_image = None
        if hint:
            hint_image = font(max(9, size * 3 // 4)).render(f"[{hint}]", True, (255, 236, 190) if primary else DIM)
        lines = 2 if rect.height >= 2 * font(size, True).get_linesize() + self.px(4) else 1
        pad = self.px(16)
        label_fit = fit_lines(
            label, size, True, rect.width - pad - (hint_image.get_width() + self.px(8) if hint_image else 0), lines
        )
        if label_fit.cut and hint_image is not None:
            # A label that cannot fit beside its key hint keeps the button and drops the hint.
            hint_image, label_fit = None, fit_lines(label, size, True, rect.width - pad, lines)
        colour = TEXT if enabled else DISABLED_TEXT
        if hint_image is not None:
            total = label_fit.width + self.px(8) + hint_image.get_width()
            left = rect.centerx - total // 2
            blit_lines(self.surface, label_fit, colour, midleft=(left, rect.centery))
            self.surface.blit(
                hint_image, hint_image.get_rect(midleft=(left + label_fit.width + self.px(8), rect.centery + 1))
            )
        else:
            blit_lines(self.surface, label_fit, colour, center=rect.center)
        if enabled:
            self.hots.append(Hot(rect, action, key, tip))

    def price_button(
        self, rect: pygame.Rect, label: str, price: int, action: Callable[[], None], key: str,
        hint: str = "", enabled: bool = True, affordable: bool = True, refund: bool = False,
    ) -> None:  # fmt: skip
        """A button whose label is followed by an amount in crystals (`refund`: "+N", paid to the player)."""
        hot = enabled and self.hovered(rect)
        radius = self.px(8)
        pygame.draw.rect(
            self.surface, BUTTON_HOVER if hot else BUTTON_FILL if enabled else DISABLED_FILL, rect, border_radius=radius
        )
        edge = BUTTON_EDGE if enabled else PANEL_EDGE
        pygame.draw.rect(self.surface, edge, rect, 2 if rect.height > self.px(28) else 1, border_radius=radius)
        size = max(9, round(rect.height * 0.45))
        face = font(size, bold=True)
        amount_colour = (CRYSTAL if affordable else TOO_DEAR) if enabled else DISABLED_TEXT
        amount = face.render(f"+{price}" if refund else str(price), True, amount_colour)
        gem = max(3, round(size * 0.36))
        hint_image = font(max(9, rect.height // 3)).render(f"[{hint}]", True, DIM) if hint else None
        gap = self.px(7)
        fixed = gap + gem * 2 + self.px(5) + amount.get_width()
        room = rect.width - self.px(12) - fixed
        label_fit = fit_lines(label, size, True, room - (gap + hint_image.get_width() if hint_image else 0))
        if label_fit.cut and hint_image is not None:
            # A label that cannot fit beside its key hint keeps the price and drops the hint.
            hint_image, label_fit = None, fit_lines(label, size, True, room)
        text = label_fit.face.render(label_fit.lines[0], True, TEXT if enabled else DISABLED_TEXT)
        total = text.get_width() + fixed
        total += gap + hint_image.get_width() if hint_image else 0
        x = rect.centerx - total // 2
        self.surface.blit(text, text.get_rect(midleft=(x, rect.centery)))
        x += text.get_width() + gap
        crystal(self.surface, (x + gem, rect.centery), gem, dim=not enabled)
        x += gem * 2 + self.px(5)
        self.surface.blit(amount, amount.get_rect(midleft=(x, rect.centery)))
        if hint_image is not None:
            self.surface.blit(hint_image, hint_image.get_rect(midleft=(x + amount.get_width() + gap, rect.centery + 1)))
        if enabled:
            self.hots.append(Hot(rect, action, key))

    def price_tag(self, centre: tuple[int, int], amount: int, size: float, colour: Colour) -> None:
        """A crystal and an amount, centred."""
        text = self.font(size, True).render(str(amount), True, colour)
        gem, gap = self.px(size * 0.36), self.px(8)
        left = centre[0] - (text.get_width() + gem * 2 + gap) // 2
        crystal(self.surface, (left + gem, centre[1]), gem)
        self.surface.blit(text, text.get_rect(midleft=(left + gem * 2 + gap, centre[1])))

    def panel_title(self, area: pygame.Rect, letter: str | None, text: str) -> None:
        """A panel's title, with its shelf letter (A, B, C) on a gold tab."""
        x = area.x + self.px(12)
        if letter is not None:
            tab = pygame.Rect(x, area.y + self.px(9), self.px(22), self.px(22))
            pygame.draw.rect(self.surface, TITLE, tab, border_radius=self.px(5))
            self.text(letter, 13, BACKGROUND, True, center=tab.center)
            x = tab.right + self.px(8)
        self.text(text, 17, DIM, True, topleft=(x, area.y + self.px(8)))

    # ---- focus and tooltips --------------------------------------------------------------
    def focus_ring(self, key: str | None) -> None:
        hot = next((h for h in self.hots if h.key == key), None)
        if hot is not None:
            pulse = 0.6 + 0.4 * math.sin(self.time * 5.0)
            colour = tuple(int(c * pulse + 40 * (1 - pulse)) for c in FOCUS)
            pygame.draw.rect(
                self.surface, colour, hot.rect.inflate(self.px(6), self.px(6)), 2, border_radius=self.px(10)
            )

    def tooltip(self, focus: str | None) -> None:
        """The tooltip of what the mouse is over, else of the focused place (`focus`, keyboard use)."""
        tip, at = self.hover_tip, self.mouse
        if tip is None:
            hot = next((h for h in reversed(self.hots) if h.rect.collidepoint(self.mouse)), None)
            if hot is None and focus is not None:
                hot = next((h for h in self.hots if h.key == focus), None)
                at = hot.rect.bottomleft if hot is not None else at
            tip = hot.tip if hot is not None else None
        if tip:
            # The text scales with the window (never below 14 px), and the box with the text, so a
            # line wraps the same at every size.
            size = max(14, self.px(16))
            tooltip(self.surface, tip, at, width=TOOLTIP_WIDTH * size // 16, size=size)


# --- icons --------------------------------------------------------------------------------


def crystal(surface: pygame.Surface, centre: tuple[int, int], r: int, dim: bool = False) -> None:
    """A mana crystal, the currency's mark."""
    cx, cy = centre
    points = [(cx, cy - r * 1.25), (cx + r, cy), (cx, cy + r * 1.25), (cx - r, cy)]
    pygame.draw.polygon(surface, (70, 100, 120) if dim else CRYSTAL, points)
    shine = (120, 140, 150) if dim else (230, 250, 255)
    pygame.draw.polygon(surface, shine, [(cx, cy - r * 1.25), (cx + r * 0.45, cy), (cx, cy)])
    pygame.draw.aalines(surface, (20, 60, 90), True, points)


def padlock(surface: pygame.Surface, rect: pygame.Rect, colour: Colour, locked: bool) -> None:
    """A padlock, shut when `locked`, its shackle lifted aside when open."""
    w = rect.width
    body = pygame.Rect(0, 0, int(w * 0.56), int(w * 0.42))
    body.midbottom = (rect.centerx, rect.bottom - int(w * 0.14))
    shackle = pygame.Rect(0, 0, int(w * 0.38), int(w * 0.5))
    lift = 0 if locked else int(w * 0.1)
    shackle.midbottom = (body.centerx + (0 if locked else int(w * 0.14)), body.top + int(w * 0.2) - lift)
    pygame.draw.rect(surface, colour, shackle, max(2, w // 10), border_top_left_radius=w, border_top_right_radius=w)
    pygame.draw.rect(surface, colour, body, 0 if locked else max(1, w // 12), border_radius=max(2, w // 10))


def mini_board(surface: pygame.Surface, core: Core, area: pygame.Rect, colour: Colour, max_cell: float) -> None:
    """The core's board in small: its slots on their grid joined by their routes, the main entry marked,
    slots with an adjacency bonus edged yellow."""
    layout = core.layout()
    cols = max(s.x for s in layout.slots) + 1
    rows = max(s.y for s in layout.slots) + 1
    cell = min(area.width / cols, area.height / rows, max_cell)
    left = area.centerx - cols * cell / 2
    top = area.centery - rows * cell / 2
    centres = {s.id: (left + (s.x + 0.5) * cell, top + (s.y + 0.5) * cell) for s in layout.slots}
    for a, b in layout.edges:
        pygame.draw.line(surface, (110, 100, 160), centres[a], centres[b], 2)
    side = max(4, int(cell * 0.62))
    for slot in layout.slots:
        rect = pygame.Rect(0, 0, side, side)
        rect.center = (round(centres[slot.id][0]), round(centres[slot.id][1]))
        pygame.draw.rect(surface, (26, 22, 44), rect, border_radius=max(2, side // 5))
        pygame.draw.rect(
            surface, (240, 228, 66) if slot.bonus is not None else colour, rect, 1, border_radius=max(2, side // 5)
        )
    main = centres[layout.entries.main]
    pygame.draw.circle(surface, TITLE, (round(main[0]), round(main[1])), max(2, side // 5))


def dashed_rect(surface: pygame.Surface, rect: pygame.Rect, colour: Colour, dash: int, corner: int) -> None:
    """An empty place: a dashed outline with open corners."""
    inner = rect.inflate(-corner, -corner)
    sides = (
        ((inner.left, rect.top), (inner.right, rect.top)), ((inner.left, rect.bottom - 1), (inner.right, rect.bottom - 1)),
        ((rect.left, inner.top), (rect.left, inner.bottom)), ((rect.right - 1, inner.top), (rect.right - 1, inner.bottom)),
    )  # fmt: skip
    for (x0, y0), (x1, y1) in sides:
        length = max(abs(x1 - x0), abs(y1 - y0))
        for start in range(0, length, max(2, dash * 2)):
            end = min(length, start + dash)
            if x0 == x1:
                pygame.draw.line(surface, colour, (x0, y0 + start), (x0, y0 + end))
            else:
                pygame.draw.line(surface, colour, (x0 + start, y0), (x0 + end, y0))


def stat_text(stat: WandStat, value: float) -> str:
    """A stat amount as the player reads it: "5%" for a share, "2" for points."""
    return f"{value * 100:g}%" if stat in PERCENT_STATS else f"{value:g}"


def stat_value_text(stat: WandStat, value: float) -> str:
    """A stat's value as it stands (R-FEEL-2 now → after): "8%" for a share, "252" for px/s or points."""
    return f"{round(value * 100, 2):g}%" if stat in PERCENT_VALUES else f"{round(value, 2):g}"


def ellipsize(text: str, face: pygame.font.Font, width: int) -> str:
    """`text`, cut with '…' to fit `width` in `face`. A label a player must read whole is laid out
    with `widgets.fit_lines` / `widgets.draw_fitted` instead (shrunk, then wrapped, before any cut)."""
    if face.size(text)[0] <= width:
        return text
    while text and face.size(text + "…")[0] > width:
        text = text[:-1]
    return text + "…"
