"""The lab's cast timeline (R-VM-3c, R-LAB-1): what each cast of the deck fires.

This module owns `draw_timeline`: a panel listing the casts of one cycle of
the wand, as the core's `Catalog.timeline` reports them from the head at full
mana under training-range conditions — one row per cast with its number, the
cards that took effect as chips in their card colours (wrapping onto more
lines when a multicast fires many), its mana and its delay (marked
"+recharge" when the cast wrapped to the head, beside the delay or, in a
narrow panel, under it), under column heads on the
title line — as many rows as fit and "+N more casts" for the rest, then the
cycle's figures: mana per cycle, the cycle's length, burst and sustained
DPS, and how long a full pool lasts ("never runs dry" when the regen keeps
up). It returns what it drew, so the lab can light a hovered cast's slots
on the board and tests can read the rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pygame

from artificer.content import Content
from artificer.ui.cards import MANA_TEXT, chip_name_width, chip_width, draw_chip
from artificer.ui.fonts import font
from artificer.ui.i18n import tr
from artificer.ui.widgets import BAD, DIM, GOOD, LAB_TEXT, blit_lines, fit_lines, panel, wrap

RECHARGE = (240, 200, 90)
#: A card the pool can't pay, passed over (R-VM-3c).
UNPAID = BAD
DPS = (255, 200, 120)
ROW_HOVER = (40, 36, 64)
DIVIDER = (70, 62, 110)
#: A cast's chips wrap onto at most this many lines; the rest are counted as "+N". A cycle of
#: few casts lets its rows take up to `ROOMY_CHIP_LINES` when the panel has the height.
MAX_CHIP_LINES = 3
ROOMY_CHIP_LINES = 6
CHIP_GAP = 4
#: Below this many px for the chips, "+recharge" leaves its column for a line under the delay.
MIN_CHIP_AREA = 200
COLUMN_GAP = 10


@dataclass(frozen=True)
class TimelineRow:
    """One drawn cast: its number (from 1), the slots and cards that took effect, where it is on screen."""

    number: int
    slots: tuple[int, ...]
    cards: tuple[str, ...]
    rect: pygame.Rect
    chips_shown: int


@dataclass
class DrawnTimeline:
    """What `draw_timeline` put on screen: the rows, the "+N more" count, every text line's rectangle."""

    rows: list[TimelineRow] = field(default_factory=list)
    #: The cards whose chip was too narrow for its name even shrunk, and texts, drawn cut with '…'.
    cut: list[str] = field(default_factory=list)
    more: int = 0
    texts: list[tuple[str, pygame.Rect]] = field(default_factory=list)

    def row_at(self, position: tuple[int, int]) -> TimelineRow | None:
        for row in self.rows:
            if row.rect.collidepoint(position):
                return row
        return None


def summary_segments(timeline: Mapping[str, Any]) -> list[list[tuple[str, tuple[int, int, int]]]]:
    """The cycle's figures as (text, colour), in reading order, in two groups that each start a
    line: the mana and the cycle's length, then the damage and how long the pool lasts (R-VM-3c)."""
    casts = len(timeline["casts"])
    seconds = float(timeline["cycle_seconds"])
    dry = timeline["dry_after_s"]
    cycle_key = "ui.lab.timeline.cycle" if timeline["cycle_complete"] else "ui.lab.timeline.cycle_open"
    return [
        [
            (tr("ui.lab.timeline.mana_per_cycle", mana=float(timeline["mana_per_cycle"])), MANA_TEXT),
            (tr(cycle_key, casts=casts, seconds=seconds), LAB_TEXT),
        ],
        [
            (tr("ui.lab.timeline.burst", dps=float(timeline["burst_dps"])), DPS),
            (tr("ui.lab.timeline.sustained", dps=float(timeline["sustained_dps"])), DPS),
            # A pool that never runs dry is only news when the wand fires at all.
            (tr("ui.lab.timeline.never_dry"), GOOD if float(timeline["burst_dps"]) > 0 else DIM)
            if dry is None
            else (tr("ui.lab.timeline.dry_after", seconds=float(dry)), BAD),
        ],
    ]


def _flow(
    groups: list[list[tuple[str, tuple[int, int, int]]]], face: pygame.font.Font, width: int
) -> list[list[tuple[str, tuple[int, int, int]]]]:
    """Each group's segments left to right from a new line, another line when the next one does
    not fit (a segment wider than a line is wrapped)."""
    separator = face.size("  ·  ")[0]
    lines: list[list[tuple[str, tuple[int, int, int]]]] = []
    for segments in groups:
        lines.append([])
        used = 0
        for text, colour in segments:
            for part in wrap(text, face, width, 3):
                size = face.size(part)[0]
                if lines[-1] and used + separator + size > width:
                    lines.append([])
                    used = 0
                used += (separator if lines[-1] else 0) + size
                lines[-1].append((part, colour))
    return lines


def _chip_lines(naturals: list[int], area: int, max_lines: int) -> list[list[int]]:
    """Chip widths laid out in lines of `area` px: whole names, a new line when the next chip
    does not fit, a chip wider than a line cut to it; at most `max_lines` lines (the rest are
    left for a "+N")."""
    area = max(area, 40)  # a window too narrow for the columns still shows a sliver of each chip
    lines: list[list[int]] = [[]]
    used = 0
    for natural in naturals:
        width = min(natural, area)
        if lines[-1] and used + CHIP_GAP + width > area:
            if len(lines) == max_lines:
                break
            lines.append([])
            used = 0
        used += (CHIP_GAP if lines[-1] else 0) + width
        lines[-1].append(width)
    return lines


def draw_timeline(
    surface: pygame.Surface,
    rect: pygame.Rect,
    timeline: Mapping[str, Any],
    content: Content,
    compact: bool = False,
    hovered: tuple[int, int] | None = None,
) -> DrawnTimeline:
    """The timeline panel in `rect`: the casts that fit, "+N more", the cycle's figures at the bottom."""
    drawn = DrawnTimeline()
    panel(surface, rect, tr("ui.lab.timeline.title"))
    face = font(15 if compact else 17)
    chip_face = font(13 if compact else 15)
    summary_face = font(14 if compact else 16)
    left, right = rect.x + 12, rect.right - 12
    width = right - left

    # The figures, from the bottom up, so the rows get whatever is left above them.
    lines = _flow(summary_segments(timeline), summary_face, width)
    step = summary_face.get_linesize()
    y = rect.bottom - 8 - step * len(lines)
    pygame.draw.line(surface, DIVIDER, (left, y - 5), (right, y - 5), 1)
    separator = summary_face.render("  ·  ", True, DIM)
    for line in lines:
        x = left
        for i, (text, colour) in enumerate(line):
            if i:
                surface.blit(separator, (x, y))
                x += separator.get_width()
            image = summary_face.render(text, True, colour)
            drawn.texts.append((text, surface.blit(image, (x, y))))
            x += image.get_width()
        y += step
    rows_bottom = rect.bottom - 8 - step * len(lines) - 8

    casts: list[Mapping[str, Any]] = list(timeline["casts"])
    if not casts:
        return drawn
    chip_h = chip_face.get_linesize() + 2
    line_h = chip_h + 3
    top = rect.y + 36
    mana_texts = [f"{float(c['mana']):.1f}" for c in casts]
    delay_texts = [tr("ui.lab.timeline.delay", delay=float(c["delay"])) for c in casts]
    recharge_text = tr("ui.lab.timeline.recharge")
    number_w = face.size(str(len(casts)))[0] + COLUMN_GAP
    mana_head, delay_head = tr("ui.lab.timeline.mana_head"), tr("ui.lab.timeline.delay_head")
    mana_w = max([face.size(t)[0] for t in mana_texts] + [chip_face.size(mana_head)[0]])
    delay_w = max([face.size(t)[0] for t in delay_texts] + [chip_face.size(delay_head)[0]])
    recharge_w = chip_face.size(recharge_text)[0] if any(c["recharge"] for c in casts) else 0
    right_w = mana_w + COLUMN_GAP + delay_w + (COLUMN_GAP + recharge_w if recharge_w else 0)
    # A narrow panel (or a long word for "+recharge") would squeeze the chips: the mark goes under the delay instead.
    stacked = bool(recharge_w) and width - number_w - COLUMN_GAP - right_w < MIN_CHIP_AREA
    if stacked:
        right_w = max(mana_w + COLUMN_GAP + delay_w, recharge_w)
    chip_area = width - number_w - COLUMN_GAP - right_w
    mana_x = right - right_w
    delay_x = mana_x + mana_w + COLUMN_GAP
    # The columns' heads, on the panel's title line: the rows carry bare numbers.
    for head, column_right in ((mana_head, mana_x + mana_w), (delay_head, delay_x + delay_w)):
        image = chip_face.render(head, True, DIM)
        drawn.texts.append((head, surface.blit(image, image.get_rect(topright=(column_right, rect.y + 12)))))

    more_h = face.get_linesize() + 2
    # Each cast's share of the height, in chip lines: a short cycle's multicasts show every card.
    chip_lines = min(ROOMY_CHIP_LINES, max(MAX_CHIP_LINES, (rows_bottom - top) // (line_h * len(casts))))
    y = top
    for index, cast in enumerate(casts):
        cards = [str(card) for card in cast["cards"]]
        chip_rows = (
            _chip_lines([chip_width(content, card, chip_face) for card in cards], chip_area, chip_lines)
            if cards
            else [[]]
        )
        text_lines = 2 if stacked and cast["recharge"] else 1
        row_h = max(face.get_linesize() * text_lines, line_h * len(chip_rows)) + 2
        last = index == len(casts) - 1
        if y + row_h + (0 if last else more_h) > rows_bottom:
            break
        row = pygame.Rect(rect.x + 4, y, rect.width - 8, row_h)
        if hovered is not None and row.collidepoint(hovered):
            pygame.draw.rect(surface, ROW_HOVER, row, border_radius=5)
        first_mid = y + 2 + line_h // 2
        number = face.render(str(index + 1), True, DIM)
        surface.blit(number, number.get_rect(midright=(left + number_w - COLUMN_GAP, first_mid)))
        chips = 0
        for line_index, widths in enumerate(chip_rows):
            x = left + number_w
            mid = first_mid + line_index * line_h
            for chip_w in widths:
                if fit_lines(
                    tr(content.spell(cards[chips]).name_key), chip_face.point_size, False, chip_name_width(chip_w)
                ).cut:
                    drawn.cut.append(cards[chips])
                draw_chip(surface, content, cards[chips], pygame.Rect(x, mid - chip_h // 2, chip_w, chip_h), chip_face)
                x += chip_w + CHIP_GAP
                chips += 1
            if line_index == len(chip_rows) - 1 and chips < len(cards):
                extra = chip_face.render(f"+{len(cards) - chips}", True, DIM)
                surface.blit(extra, extra.get_rect(midleft=(x, mid)))
        unpaid = [str(card) for card in cast.get("unpaid_cards", ())]
        if unpaid:  # R-VM-3c: a card the full pool can't pay is passed over, and said so
            said = tr("ui.lab.timeline.unpaid", card=tr(content.spell(unpaid[0]).name_key))
            fitted = fit_lines(said, chip_face.point_size, False, chip_area - (x - left - number_w if cards else 0))
            if fitted.cut:
                drawn.cut.append(said)
            at = (x + CHIP_GAP, first_mid) if cards else (left + number_w, first_mid)
            drawn.texts.append((said, blit_lines(surface, fitted, UNPAID, midleft=at)))
        elif not cards:
            nothing = fit_lines(tr("ui.lab.timeline.nothing"), chip_face.point_size, False, chip_area)
            if nothing.cut:
                drawn.cut.append(tr("ui.lab.timeline.nothing"))
            drawn.texts.append(
                (tr("ui.lab.timeline.nothing"), blit_lines(surface, nothing, DIM, midleft=(left + number_w, first_mid)))
            )
        mana = face.render(mana_texts[index], True, MANA_TEXT)
        surface.blit(mana, mana.get_rect(midright=(mana_x + mana_w, first_mid)))
        delay = face.render(delay_texts[index], True, LAB_TEXT)
        surface.blit(delay, delay.get_rect(midright=(delay_x + delay_w, first_mid)))
        if cast["recharge"]:
            mark = chip_face.render(recharge_text, True, RECHARGE)
            if stacked:
                drawn.texts.append(
                    (
                        recharge_text,
                        surface.blit(mark, mark.get_rect(topright=(right, first_mid + face.get_linesize() // 2))),
                    )
                )
            else:
                drawn.texts.append(
                    (
                        recharge_text,
                        surface.blit(mark, mark.get_rect(midleft=(delay_x + delay_w + COLUMN_GAP, first_mid))),
                    )
                )
        slots = tuple(int(slot) for slot in cast["slots"])
        drawn.rows.append(TimelineRow(index + 1, slots, tuple(cards), row, chips))
        y += row_h
    drawn.more = len(casts) - len(drawn.rows)
    if drawn.more:
        text = tr("ui.lab.timeline.more", count=drawn.more)
        image = face.render(text, True, DIM)
        drawn.texts.append((text, surface.blit(image, (left + number_w, y + 2))))
    return drawn
