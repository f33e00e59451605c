"""R-STAT-2 the stats sheet (Brotato's panel), one scene the shop, the lab and the pause menu push.

This module owns `StatSheetScene`: a transparent scene over the one that opened it, a panel with
one row per stat — its glyph, its name, its value and what it does now — from
`artificer.game.stat_sheet.sheet_lines` (the figures come from the code the game runs; this
module only translates and lays them out). Bought stats are drawn bright, the others dim. The
stats-sheet key (`Action.STATS_SHEET`, C by default), Esc / Back, a click or the gamepad's B
close it; it takes every other input while it is open, so nothing below acts behind it.
`open_stat_sheet(stack, run, controls)` is the one call the three scenes make.
"""

from __future__ import annotations

from typing import Any

import pygame

from artificer.game.run import Run
from artificer.game.stat_sheet import SheetLine, sheet_lines
from artificer.ui.controls import Controls
from artificer.ui.fonts import font
from artificer.ui.i18n import tr
from artificer.ui.icons import stat_icon
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.settings import Action, Context, key_hint
from artificer.ui.widgets import BUTTON_EDGE, DIM, HINT, PANEL_EDGE, TEXT, blit_lines, fit_lines

#: The panel: widest (px), margin kept to the window's edges, the dim over the scene below.
SHEET_MAX_WIDTH = 1120
SHEET_MARGIN = 24
SHEET_DIM = 150
SHEET_FILL = (16, 14, 30)
#: A bought stat's name and value (the rest: `DIM`); its glyph's colour.
BOUGHT = (150, 230, 170)
GLYPH = (196, 180, 250)
#: Rows never shorter nor taller than these (px), and their text sizes at the tallest.
ROW_MIN, ROW_MAX = 22, 34
NAME_SIZE, EFFECT_SIZE = 16, 15
#: Columns as shares of the panel's inner width: glyph, name, value; the effect takes the rest.
GLYPH_SHARE, NAME_SHARE, VALUE_SHARE = 0.035, 0.2, 0.11


def _params(params: dict[str, Any]) -> dict[str, Any]:
    """A line's parameters with every `*_key` one translated (an enemy's name) under its name without `_key`."""
    out = dict(params)
    for name, value in params.items():
        if name.endswith("_key"):
            out[name.removesuffix("_key")] = tr(value)
    return out


def line_texts(line: SheetLine) -> tuple[str, str, str]:
    """The line's name, value and effect in the player's language."""
    value_key, value = line.value
    effect_key, effect = line.effect
    return tr(line.name_key), tr(value_key, **_params(dict(value))), tr(effect_key, **_params(dict(effect)))


class StatSheetScene(Scene):
    """The stats sheet over the scene that opened it (R-STAT-2)."""

    transparent = True

    def __init__(self, run: Run, controls: Controls) -> None:
        self.run = run
        self.controls = controls
        self.stack: SceneStack | None = None
        #: The sheet's lines, taken as it opens (nothing below changes while it is open).
        self.lines: list[SheetLine] = sheet_lines(run)
        #: Where the last draw put the panel, and each row's texts as drawn (tests read them).
        self.panel_rect = pygame.Rect(0, 0, 0, 0)
        self.drawn: list[tuple[str, str, str]] = []
        #: Texts that had to be cut to fit (a layout test wants none).
        self.cut: list[str] = []

    def on_enter(self, stack: SceneStack) -> None:
        self.stack = stack

    def close(self) -> None:
        if self.stack is not None and self.stack.top is self:
            self.stack.pop()

    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if event.type == pygame.KEYDOWN:
            action = self.controls.pressed(event, Context.MENU)
            if action in (Action.STATS_SHEET, Action.BACK):
                self.close()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            self.close()
        elif event.type == pygame.CONTROLLERBUTTONDOWN:
            if self.controls.handle(event, Context.MENU) in (Action.BACK, Action.PAUSE):
                self.close()
        return None  # the sheet is modal: nothing below acts while it is open

    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        w, h = surface.get_size()
        shade = pygame.Surface((w, h), pygame.SRCALPHA)
        shade.fill((0, 0, 0, SHEET_DIM))
        surface.blit(shade, (0, 0))
        width = min(SHEET_MAX_WIDTH, w - 2 * SHEET_MARGIN)
        header, footer = 52, 34
        row = max(ROW_MIN, min(ROW_MAX, (h - 2 * SHEET_MARGIN - header - footer - 16) // max(1, len(self.lines))))
        height = header + footer + 16 + row * len(self.lines)
        panel = pygame.Rect(0, 0, width, min(height, h - 2 * SHEET_MARGIN))
        panel.center = (w // 2, h // 2)
        self.panel_rect = panel
        pygame.draw.rect(surface, SHEET_FILL, panel, border_radius=10)
        pygame.draw.rect(surface, PANEL_EDGE, panel, 2, border_radius=10)
        inner = panel.inflate(-36, 0)
        title = fit_lines(tr("ui.stats.title"), 26, True, inner.width // 2)
        blit_lines(surface, title, TEXT, topleft=(inner.x, panel.y + 12))
        key = key_hint(self.controls.settings.key_for(Action.STATS_SHEET))
        close = fit_lines(tr("ui.stats.close", close=key), 15, False, inner.width // 2)
        blit_lines(surface, close, HINT, topright=(inner.right, panel.y + 20))
        scale = row / ROW_MAX
        name_size, effect_size = max(12, round(NAME_SIZE * scale)), max(11, round(EFFECT_SIZE * scale))
        glyph_w = int(inner.width * GLYPH_SHARE)
        name_x = inner.x + glyph_w + 8
        name_w = int(inner.width * NAME_SHARE)
        value_right = name_x + name_w + int(inner.width * VALUE_SHARE)
        effect_x = value_right + 16
        effect_w = inner.right - effect_x
        self.drawn, self.cut = [], []
        top = panel.y + header
        for index, line in enumerate(self.lines):
            rect = pygame.Rect(inner.x, top + index * row, inner.width, row)
            if index % 2 == 0:
                pygame.draw.rect(surface, (24, 21, 42), rect.inflate(12, 0), border_radius=4)
            name, value, effect = line_texts(line)
            self.drawn.append((name, value, effect))
            bright = line.bought > 0
            stat_icon(surface, line.stat, (inner.x + glyph_w // 2, rect.centery), max(6, row * 3 // 8), GLYPH)
            for text, size, bold, colour, box, where in (
                (name, name_size, True, BOUGHT if bright else TEXT, name_w, {"midleft": (name_x, rect.centery)}),
                (value, name_size, True, BOUGHT if bright else DIM, value_right - name_x - name_w - 6,
                 {"midright": (value_right, rect.centery)}),
                (effect, effect_size, False, TEXT if bright else DIM, effect_w, {"midleft": (effect_x, rect.centery)}),
            ):  # fmt: skip
                fitted = fit_lines(text, size, bold, box, 1 if row < 2 * font(size).get_linesize() else 2)
                if fitted.cut:
                    self.cut.append(text)
                blit_lines(surface, fitted, colour, **where)
        pygame.draw.line(surface, BUTTON_EDGE, (inner.x, panel.bottom - footer), (inner.right, panel.bottom - footer))
        note = fit_lines(tr("ui.stats.note"), 13, False, inner.width)
        blit_lines(surface, note, DIM, midleft=(inner.x, panel.bottom - footer // 2))


def open_stat_sheet(stack: SceneStack | None, run: Run, controls: Controls) -> None:
    """R-STAT-2: the stats sheet over the top scene (the shop's, the lab's or the pause menu's call)."""
    if stack is not None:
        stack.push(StatSheetScene(run, controls))
