"""The endless leaderboard screen (R-END-4), from the title.

This module owns `RecordsScene`: the ranked records of `endless_records.json` — rank, wave reached,
time, build (its deck checksum), date, the modes played (NG+, cursed waves) and the online score
(`wave × 100000 + (86400 − elapsed_sec)`) — then the records that are not ranked: tampered ones (a
field or the signature changed: marked in red) and unverified ones (signed by a key this install
no longer has). Esc (the back key) returns. It reads the file as it opens; it writes nothing.

It never fails on what the files hold: a file or key that cannot be used comes as the board's notice
(shown at the foot, with what it means: records signed by a key this install no longer has, or no
key this session — records shown, none ranked), and every text it draws is made printable first.

It declares the "records" scene (`artificer.ui.scene_registry`), the title's line under the codex
once a first run has ended.
"""

from __future__ import annotations

import math

import pygame

from artificer.game.records import Record, Records, Status, load_records
from artificer.ui.controls import Controls
from artificer.ui.fonts import font
from artificer.ui.i18n import tr
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.scene_registry import SceneKit, TitleEntry, declare
from artificer.ui.settings import Action, Context
from artificer.ui.text_fit import draw_fitted
from artificer.ui.widgets import SCREEN_DIM as DIM
from artificer.ui.widgets import SCREEN_FAINT as FAINT
from artificer.ui.widgets import TEXT, backdrop, panel

SKY_TOP = (14, 20, 40)
SKY_BOTTOM = (5, 6, 14)
GOLD = (242, 214, 140)
TAMPERED = (255, 96, 96)
#: The table's columns: their heading keys and their left edges (design px).
COLUMNS = (
    ("ui.records.rank", 70),
    ("ui.records.wave", 150),
    ("ui.records.time", 250),
    ("ui.records.build", 360),
    ("ui.records.date", 520),
    ("ui.records.modes", 680),
    ("ui.records.score", 880),
    ("ui.records.status", 1060),
)
STATUS_KEYS = {
    Status.VERIFIED: "ui.records.verified",
    Status.TAMPERED: "ui.records.tampered",
    Status.UNVERIFIED: "ui.records.unverified",
}


def clock(seconds: float) -> str:
    whole = int(seconds) if math.isfinite(seconds) else 0
    return f"{whole // 60}:{whole % 60:02d}"


def printable(text: str, limit: int = 300) -> str:
    """`text` as a font can draw it: control and other unprintable characters (a NUL) left out, at
    most `limit` characters (a record's text fields are checked by their schema; this is the floor)."""
    shown = "".join(c for c in text if c.isprintable())
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def notices(board: Records) -> list[str]:
    """What the foot of the screen says about `board` (R-END-4, R-SAVE-2): no key this session, or
    records signed by a key this install no longer has, then the file's own notice."""
    lines = [tr("ui.records.no_key")] if board.keyless else []
    if not board.keyless and board.lost_key:
        lines.append(tr("ui.records.lost_key", count=board.lost_key))
    if board.notice:
        lines.append(printable(board.notice))
    return lines


class RecordsScene(Scene):
    """The leaderboard: ranked records first, then those that are not ranked."""

    music = "title"

    def __init__(self, controls: Controls, records: Records | None = None, highlight: Record | None = None) -> None:
        """`records`: the board shown (None: endless_records.json's); `highlight`: the record just made
        (an endless run's end), its row marked."""
        self.controls = controls
        self.highlight = highlight
        self.board = records if records is not None else load_records()
        ranked = self.board.ranked()
        unranked = [record for record in reversed(self.board.records) if record not in ranked]
        #: The rows in order: (rank or None, record, status).
        self.rows: list[tuple[int | None, Record, Status]] = [
            *((index + 1, record, Status.VERIFIED) for index, record in enumerate(ranked)),
            *((None, record, self.board.status(record)) for record in unranked),
        ]
        #: The lines at the foot: what the player should know about the file and the key.
        self.notices = notices(self.board)
        self.stack: SceneStack | None = None

    def on_enter(self, stack: SceneStack) -> None:
        self.stack = stack

    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if self.controls.handle(event, Context.MENU) in (Action.BACK, Action.CONFIRM):
            if self.stack is not None and self.stack.top is self:
                self.stack.pop()
        return None

    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        width, height = surface.get_size()
        unit = backdrop(surface, SKY_TOP, SKY_BOTTOM)
        title = font(max(22, int(44 * unit)), bold=True).render(tr("ui.records.title"), True, TEXT)
        surface.blit(title, title.get_rect(midtop=(width // 2, int(22 * unit))))
        area = pygame.Rect(int(48 * unit), int(88 * unit), width - int(96 * unit), height - int(140 * unit))
        panel(surface, area)
        head = font(max(11, int(15 * unit)), bold=True)
        for key, x in COLUMNS:
            surface.blit(head.render(tr(key), True, DIM), (int(x * unit), area.y + int(14 * unit)))
        if not self.rows:
            empty = tr("ui.records.empty")
            draw_fitted(
                surface, empty, max(12, int(20 * unit)), False, DIM, area.width - int(80 * unit), center=area.center
            )
        face = font(max(11, int(17 * unit)))
        row_h = int(26 * unit)
        top = area.y + int(46 * unit)
        note_size = max(11, int(15 * unit))
        bottom = area.bottom - len(self.notices) * int(22 * unit) - (int(8 * unit) if self.notices else 0)
        for index, line in enumerate(self.notices):
            y = bottom + int(4 * unit) + index * int(22 * unit)
            colour = TAMPERED if index == 0 and (self.board.keyless or self.board.lost_key) else FAINT
            draw_fitted(surface, line, note_size, False, colour, area.width - int(48 * unit), midtop=(area.centerx, y))
        for index, (rank, record, status) in enumerate(self.rows):
            y = top + index * row_h
            if y + row_h > bottom:
                break
            colour = (
                GOLD
                if rank == 1
                else TEXT
                if status is Status.VERIFIED
                else TAMPERED
                if status is Status.TAMPERED
                else FAINT
            )
            if record == self.highlight:  # the record this run just made
                mark = pygame.Rect(area.x + int(8 * unit), y - int(3 * unit), area.width - int(16 * unit), row_h)
                pygame.draw.rect(surface, (44, 38, 76), mark, border_radius=int(6 * unit))
            modes = [tr("ui.hud.mode.ng_plus", level=record.ng_plus)] if record.ng_plus else []
            modes += [tr("ui.hud.mode.cursed")] if record.cursed else []
            cells = (
                f"#{rank}" if rank is not None else "—",
                str(record.wave),
                clock(record.elapsed_sec),
                record.build_snapshot[:8],
                record.timestamp[:10],
                " · ".join(modes) or "—",
                f"{record.online_score:,.0f}" if status is Status.VERIFIED else "—",
                tr(
                    "ui.records.replay_checked"
                    if record.replay_checked and status is Status.VERIFIED
                    else STATUS_KEYS[status]
                ),
            )
            for (_, x), text in zip(COLUMNS, cells, strict=True):
                surface.blit(face.render(printable(text, 60), True, colour), (int(x * unit), y))
        hint = font(max(11, int(15 * unit))).render(tr("ui.records.hint"), True, FAINT)
        surface.blit(hint, hint.get_rect(midbottom=(width // 2, height - int(16 * unit))))


@declare("records", title=TitleEntry("ui.title.records", order=270, needs_a_finished_run=True))
def records_scene(kit: SceneKit) -> RecordsScene:
    """The "records" scene over endless_records.json."""
    return RecordsScene(kit.session.controls)
