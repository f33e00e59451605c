"""The lab (R-LAB-1, R-VM-2, R-VM-9): the wand editor between waves.

This module owns `LabScene`: the backpack on the left and the active core's
board on the right (its 2D grid with entry tags, splitter routes and
adjacency bonuses), card drag-and-drop between them (onto an empty place a
card moves, onto a card the two swap; a right click sends a slotted card to
the backpack), the live compile diagnostics (the CPU bar,
red from 80% with its message; mana per cast — what a cast actually spends,
averaged over the cycle; fused recipes; warnings), the slots no cast can
reach greyed with a "never reached" mark (R-VM-3c), the cast timeline beside
the diagnostics (`artificer.ui.timeline`: one row per cast of the cycle with
the cards it fires, its mana and delay, then the cycle's mana and DPS
figures; hovering a row lights its cards on the board), a tooltip per card
with its numbers (`artificer.ui.spell_text`, R-FEEL-2), and three buttons:
**Test** (the training range, T), **Start wave** (Enter; blocked with the
R-VM-2 message while the main entry has no action) and **Back** (Esc, when
the lab was opened from the shop).

Every drop recompiles the wand through `Run.rearm()` and asks the core for
the timeline of the new board (`Catalog.timeline`, with the CPU the run
bought), so what the panels show is what the core will run. A row board
sits on top with the compiler and the timeline side by side under it; a
board of several rows (forked, reactive, matrix) keeps the height, the
compiler under it and the timeline the column's full height beside it.
Below 1100×680 the layout turns compact (a narrower backpack of taller
cards, smaller type) so that 960×600 reads with nothing clipped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from artificer.engine.wand import core_data, place, spell_catalog
from artificer.game.loadout import BackpackFull, LoadoutError, Place
from artificer.game.run import Run
from artificer.ui.cards import CardArt, BoardGeometry, MANA_TEXT
from artificer.ui.fonts import font
from artificer.ui.i18n import tr
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.session import Session
from artificer.ui.settings import Action, Context
from artificer.ui.spell_text import spell_tip
from artificer.ui.timeline import DrawnTimeline, draw_timeline
from artificer.ui.widgets import BAD, DIM, GOOD, LAB_TEXT, Button, Toasts, panel, tooltip, wrap

StackCallback = Callable[[SceneStack], None]

BACKGROUND = (12, 10, 22)
TITLE = (242, 214, 140)
WARN = (240, 200, 90)
CPU_BAR = (0, 158, 115)
CPU_RED = (213, 60, 40)
#: A hovered timeline row's cards, outlined on the board.
CAST_HIGHLIGHT = (255, 236, 120)
BACKPACK_COLUMNS = 4
#: The board's cards: at most this wide, this tall for their width; the panel's title, entry tags and bonuses take BOARD_CHROME px.
BOARD_MAX_CELL = 132
BOARD_CARD_RATIO = 1.15
BOARD_CHROME = 72
#: The cast timeline beside a board of several rows is at least this wide.
TIMELINE_MIN_WIDTH = 340
#: Below either of these the lab lays itself out compactly (960×600 must read, R-LAB-1).
COMPACT_BELOW = (1100, 680)
#: A card's tooltip: wide enough for a line of numbers ("Speed 480 px/s · lifetime 1.5 s · spread 2°").
TOOLTIP_WIDTH = 340
GAMEPAD_EVENTS = (pygame.CONTROLLERBUTTONDOWN, pygame.CONTROLLERBUTTONUP, pygame.CONTROLLERDEVICEADDED, pygame.CONTROLLERDEVICEREMOVED)
# R-VM-9 shows the CPU bar red from this share of the limit on.
CPU_WARNING_SHARE = 0.8
#: i18n keys built from data: one per compile warning code and per entry point.
I18N_DYNAMIC_PREFIXES = ("ui.lab.warning.", "ui.lab.entry.")


class LabScene(Scene):
    """Backpack and board with drag-and-drop, live diagnostics, Test and Start wave."""

    #: The scene stack plays the top scene's music: the lab shares the shop's.
    music = "shop"

    def __init__(
        self,
        run: Run,
        wave: int,
        on_start_wave: StackCallback | None = None,
        on_back: StackCallback | None = None,
        on_test: StackCallback | None = None,
        session: Session | None = None,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        """`on_start_wave(stack)` starts wave `wave`; `on_back(stack)` leaves (None: no Back);
        `on_test(stack)` opens the training range (None: the default `TrainingScene`);
        `on_change()` is called after every edit the lab made (a card moved, the active core
        switched), e.g. to save the run (R-SAVE-1)."""
        self.run = run
        self.wave = wave
        self.on_start_wave = on_start_wave
        self.on_back = on_back
        self.on_test = on_test
        self.session = session
        self.on_change = on_change
        self._catalog = spell_catalog(run.content)
        self.diagnostics: dict[str, Any] = {}
        #: R-VM-3c: the cast timeline of the active core's board (`Catalog.timeline`).
        self.timeline: dict[str, Any] = {}
        self.rearm()
        self.toasts = Toasts()
        self.stack: SceneStack | None = None
        self.art = CardArt(run.content)
        self.drag: tuple[Place, str] | None = None
        self.mouse = (0, 0)
        self._size = (0, 0)
        self.board_rect = pygame.Rect(0, 0, 0, 0)
        self.backpack_rect = pygame.Rect(0, 0, 0, 0)
        self.diag_rect = pygame.Rect(0, 0, 0, 0)
        self.timeline_rect = pygame.Rect(0, 0, 0, 0)
        self.compact = False
        #: What the last draw showed: the timeline's rows and texts, the diagnostics' lines.
        self.drawn_timeline = DrawnTimeline()
        self.drawn_diagnostics: list[tuple[str, pygame.Rect]] = []
        #: The findings the last draw had no room for.
        self.findings_left = 0
        self.backpack_cells: list[pygame.Rect] = []
        self.geometry: BoardGeometry | None = None
        self.test_button = Button(pygame.Rect(0, 0, 0, 0), tr("ui.lab.test"), "T")
        self.start_button = Button(pygame.Rect(0, 0, 0, 0), tr("ui.lab.start_wave"), "Enter")
        self.back_button = Button(pygame.Rect(0, 0, 0, 0), tr("ui.lab.back"), "Esc")
        self._layout((1280, 720))

    # ---- lifecycle ---------------------------------------------------------
    def on_enter(self, stack: SceneStack) -> None:
        self.stack = stack

    def on_resume(self) -> None:
        # The shop or the training range may have changed things meanwhile.
        self.rearm()

    def rearm(self) -> None:
        """Recompiles the wand (`Run.rearm`) and recomputes its cast timeline (R-VM-3c, R-LAB-1)."""
        self.diagnostics = self.run.rearm()
        core_id, cards = self.run.loadout.wand()
        core = self.run.content.core(core_id)
        # The CPU the run bought (R-STAT-1) is what the world compiled with beyond the core's own.
        bought = max(0, int(self.diagnostics["cpu_limit"]) - core.cpu_limit)
        self.timeline = dict(self._catalog.timeline(core_data(core), place(core, cards), cpu=bought))

    # ---- queries -------------------------------------------------------------
    @property
    def can_start(self) -> bool:
        """R-VM-2: only a wand with an action in its main entry enters combat."""
        return bool(self.diagnostics["can_fire"])

    def place_at(self, position: tuple[int, int]) -> Place | None:
        """The backpack cell or board slot under `position` (a free backpack cell past the cards counts)."""
        assert self.geometry is not None
        slot = self.geometry.slot_at(position)
        if slot is not None:
            return Place("slot", slot)
        for index, rect in enumerate(self.backpack_cells):
            if rect.collidepoint(position):
                return Place("backpack", index)
        if self.backpack_rect.collidepoint(position):
            return Place("backpack", len(self.run.loadout.backpack))
        return None

    def rect_of(self, place: Place) -> pygame.Rect:
        """Where `place` is drawn (for tests and the drag ghost)."""
        assert self.geometry is not None
        return self.geometry.slots[place.index] if place.area == "slot" else self.backpack_cells[place.index]

    # ---- input ---------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if self.session is not None and event.type in GAMEPAD_EVENTS:
            # A gamepad: A starts the wave, B goes back (cards are dragged with the mouse).
            action = self.session.controls.handle(event, Context.MENU)
            if action == Action.CONFIRM:
                self.start_wave()
            elif action == Action.BACK and self.on_back is not None and self.stack is not None:
                self.on_back(self.stack)
            return None
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.start_wave()
            elif event.key == pygame.K_t:
                self.open_test()
            elif event.key == pygame.K_ESCAPE and self.on_back is not None and self.stack is not None:
                self.on_back(self.stack)
            else:
                return event
            return None
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            return None
        if event.type == pygame.MOUSEBUTTONDOWN:
            self.mouse = event.pos
            if event.button == 1:
                self._press(event.pos)
            elif event.button == 3:
                self._to_backpack(event.pos)
            return None
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.mouse = event.pos
            self._drop(event.pos)
            return None
        return event

    def _press(self, position: tuple[int, int]) -> None:
        if self.start_button.contains(position):
            self.start_wave()
        elif self.test_button.contains(position):
            self.open_test()
        elif self.on_back is not None and self.back_button.contains(position) and self.stack is not None:
            self.on_back(self.stack)
        else:
            place = self.place_at(position)
            card = self.run.loadout.card_at(place) if place is not None else None
            if place is not None and card is not None:
                self.drag = (place, card)

    def _drop(self, position: tuple[int, int]) -> None:
        if self.drag is None:
            return
        source, _ = self.drag
        self.drag = None
        target = self.place_at(position)
        if target is None or target == source:
            return
        if target.area == "backpack" and source.area == "backpack":
            target = Place("backpack", min(target.index, len(self.run.loadout.backpack) - 1))
        self._move(source, target)

    def _to_backpack(self, position: tuple[int, int]) -> None:
        place = self.place_at(position)
        if place is not None and place.area == "slot" and self.run.loadout.card_at(place) is not None:
            self._move(place, Place("backpack", len(self.run.loadout.backpack)))

    def _move(self, source: Place, target: Place) -> None:
        try:
            self.run.loadout.move(source, target)
        except BackpackFull:
            self.toasts.show(tr("ui.lab.backpack_full"))
            return
        except LoadoutError as refusal:
            self.toasts.show(str(refusal))
            return
        self._changed()

    def _changed(self) -> None:
        """After an edit: recompile, then tell the owner (who saves the run)."""
        self.rearm()
        if self.on_change is not None:
            self.on_change()

    def start_wave(self) -> None:
        """Start the wave, or say why not (R-VM-2)."""
        if not self.can_start:
            self.toasts.show(tr("ui.lab.cannot_fire"))
            return
        if self.on_start_wave is not None and self.stack is not None:
            self.on_start_wave(self.stack)

    def open_test(self) -> None:
        """The training range with the wand as it is now (R-LAB-1)."""
        if self.stack is None:
            return
        if not self.can_start:
            self.toasts.show(tr("ui.lab.cannot_fire"))
            return
        if self.on_test is not None:
            self.on_test(self.stack)
            return
        from artificer.ui.scenes.training import TrainingScene

        core, cards = self.run.loadout.wand()
        self.stack.push(TrainingScene(self.run.content, core, cards, seed=self.run.seed))

    # ---- simulation ----------------------------------------------------------
    def update(self, dt: float) -> None:
        self.toasts.tick(dt)

    # ---- drawing ---------------------------------------------------------------
    def _layout(self, size: tuple[int, int]) -> None:
        if size == self._size:
            return
        self._size = size
        w, h = size
        self.compact = w < COMPACT_BELOW[0] or h < COMPACT_BELOW[1]
        margin = max(12, w // 64)
        top = 70 if self.compact else 78
        bw, bh = (180, 46) if self.compact else (220, 52)
        buttons_y = h - bh - (14 if self.compact else 22)
        bottom = buttons_y - 10
        left_w = int(w * (0.27 if self.compact else 0.29))
        self.backpack_rect = pygame.Rect(margin, top, left_w, bottom - top)
        right_x = self.backpack_rect.right + margin
        right_w = w - right_x - margin
        core = self.run.content.core(self.run.loadout.active)
        layout = core.layout()
        cols, board_rows = max(s.x for s in layout.slots) + 1, max(s.y for s in layout.slots) + 1
        column_h = bottom - top
        if board_rows == 1:
            # A row board: on top, as tall as its cards need (a third to a half of the column);
            # under it the compiler (left) and the cast timeline (right, R-VM-3c) get the rest.
            cell = min((right_w - 32) / cols, BOARD_MAX_CELL)
            wanted = int(cell * BOARD_CARD_RATIO) + BOARD_CHROME
            board_h = max(int(column_h * 0.34), min(wanted, int(column_h * 0.5)))
            self.board_rect = pygame.Rect(right_x, top, right_w, board_h)
            lower_y = self.board_rect.bottom + 10
            diag_w = int(right_w * 0.4)
            self.diag_rect = pygame.Rect(right_x, lower_y, diag_w, bottom - lower_y)
            self.timeline_rect = pygame.Rect(self.diag_rect.right + 10, lower_y, right_w - diag_w - 10, bottom - lower_y)
        else:
            # A board of several rows needs the height: the board over the compiler on the
            # left, the cast timeline the whole column's height on the right.
            timeline_w = max(TIMELINE_MIN_WIDTH, int(right_w * 0.44))
            left_part = right_w - timeline_w - 10
            diag_h = max(120, int(column_h * 0.28))
            self.board_rect = pygame.Rect(right_x, top, left_part, column_h - diag_h - 10)
            self.diag_rect = pygame.Rect(right_x, self.board_rect.bottom + 10, left_part, diag_h)
            self.timeline_rect = pygame.Rect(self.board_rect.right + 10, top, timeline_w, column_h)
        inner = self.backpack_rect.inflate(-24, -56)
        inner.y = self.backpack_rect.y + 40
        capacity = self.run.loadout.limits_backpack
        rows = -(-capacity // BACKPACK_COLUMNS)
        gap = 8
        cell_w = (inner.width - gap * (BACKPACK_COLUMNS - 1)) // BACKPACK_COLUMNS
        # Compact: narrow cards, so taller ones (the column has the height) keep their names clear.
        ratio = 1.4 if self.compact else 1.15
        cell_h = min(int(cell_w * ratio), (inner.height - gap * (rows - 1)) // rows)
        cell_w = min(cell_w, int(cell_h / ratio))
        self.backpack_cells = [
            pygame.Rect(inner.x + (i % BACKPACK_COLUMNS) * (cell_w + gap), inner.y + (i // BACKPACK_COLUMNS) * (cell_h + gap), cell_w, cell_h)
            for i in range(capacity)
        ]
        # Room above the cards for the panel's title and the entry tags, below for the bonuses.
        self.geometry = BoardGeometry.fit(layout, self.board_rect.inflate(-32, -BOARD_CHROME).move(0, 14), max_cell=BOARD_MAX_CELL)
        self.start_button.rect = pygame.Rect(w - margin - bw, buttons_y, bw, bh)
        self.test_button.rect = pygame.Rect(self.start_button.rect.x - bw - 16, buttons_y, bw, bh)
        self.back_button.rect = pygame.Rect(margin, buttons_y, 160 if self.compact else 180, bh)

    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        self._layout(surface.get_size())
        assert self.geometry is not None
        surface.fill(BACKGROUND)
        w, _ = surface.get_size()
        loadout = self.run.loadout
        core = self.run.content.core(loadout.active)
        heading = font(26 if self.compact else 30, bold=True).render(tr("ui.lab.title", wave=self.wave), True, TITLE)
        surface.blit(heading, (self.backpack_rect.x, 16 if self.compact else 20))
        core_name = font(20 if self.compact else 22).render(tr(core.name_key), True, LAB_TEXT)
        surface.blit(core_name, core_name.get_rect(topright=(w - self.backpack_rect.x, 12 if self.compact else 14)))
        stats = tr("ui.lab.core_stats", mana=core.mana_max, regen=core.mana_regen, delay=core.cast_delay, recharge=core.recharge)
        line = font(14 if self.compact else 16).render(stats, True, DIM)
        surface.blit(line, line.get_rect(topright=(w - self.backpack_rect.x, 38 if self.compact else 44)))

        panel(surface, self.backpack_rect, tr("ui.lab.backpack", count=len(loadout.backpack), capacity=loadout.limits_backpack))
        dragged = self.drag[0] if self.drag is not None else None
        for index, rect in enumerate(self.backpack_cells):
            pygame.draw.rect(surface, (24, 22, 38), rect, border_radius=8)
            if index < len(loadout.backpack) and dragged != Place("backpack", index):
                surface.blit(self.art.image(loadout.backpack[index], rect.size), rect)

        panel(surface, self.board_rect, tr("ui.lab.board"))
        self.geometry.draw_furniture(surface)
        cards = loadout.carried(loadout.active).cards
        hidden = dragged.index if dragged is not None and dragged.area == "slot" else None
        self.geometry.draw_slots(surface, cards, self.art, hidden=hidden, unreachable=self.unreachable_slots)
        for slot in self.diagnostics.get("dropped_slots", []):
            pygame.draw.rect(surface, CPU_RED, self.geometry.slots[slot], 3, border_radius=8)

        self._draw_diagnostics(surface)
        self.drawn_timeline = draw_timeline(
            surface, self.timeline_rect, self.timeline, self.run.content, compact=self.compact, hovered=self.mouse if self.drag is None else None
        )
        hovered_cast = self.drawn_timeline.row_at(self.mouse) if self.drag is None else None
        if hovered_cast is not None:
            for slot in hovered_cast.slots:
                if 0 <= slot < len(self.geometry.slots):
                    pygame.draw.rect(surface, CAST_HIGHLIGHT, self.geometry.slots[slot].inflate(6, 6), 3, border_radius=10)
        self.start_button.enabled = self.can_start
        self.back_button.label = tr("ui.lab.back")
        for button in (self.test_button, self.start_button):
            button.draw(surface, self.mouse)
        if self.on_back is not None:
            self.back_button.draw(surface, self.mouse)
        self.toasts.draw(surface, w // 2, 60)

        if self.drag is not None:
            _, card = self.drag
            size = self.backpack_cells[0].size
            ghost = self.art.image(card, size).copy()
            ghost.set_alpha(220)
            surface.blit(ghost, ghost.get_rect(center=self.mouse))
        else:
            self._draw_tooltip(surface)

    @property
    def unreachable_slots(self) -> frozenset[int]:
        """R-VM-3c: the board slots no cast can ever reach (greyed on the board)."""
        return frozenset(int(slot) for slot in self.diagnostics.get("unreachable_slots", []))

    def diagnostic_lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        """The compiler's findings under the CPU bar, in the order they are shown."""
        d = self.diagnostics
        red = int(d["cpu_used"]) / max(1, int(d["cpu_limit"])) >= CPU_WARNING_SHARE
        lines: list[tuple[str, tuple[int, int, int]]] = []
        if red:
            lines.append((tr("ui.lab.cpu_warning"), BAD))
        if not d["can_fire"]:
            lines.append((tr("ui.lab.cannot_fire"), BAD))
        # What a cast actually spends, averaged over the timeline's cycle (R-VM-3c).
        lines.append((tr("ui.lab.mana_per_cast", mana=float(d["mana_per_cast"])), MANA_TEXT))
        for recipe_id in d["fusions"]:
            lines.append((tr("ui.lab.fused", name=tr(self.run.content.recipe(recipe_id).name_key)), GOOD))
        for code in d["warnings"]:
            if code in ("no_action", "cpu_high", "cpu_exceeded") and (not d["can_fire"] or red):
                continue  # already said above, in the rule's own words
            lines.append((tr(f"ui.lab.warning.{code}"), WARN))
        return lines

    def _draw_diagnostics(self, surface: pygame.Surface) -> None:
        d = self.diagnostics
        rect = self.diag_rect
        panel(surface, rect, tr("ui.lab.diagnostics"))
        x, y = rect.x + 12, rect.y + 36
        face = font(15 if self.compact else 17)
        used, limit = int(d["cpu_used"]), max(1, int(d["cpu_limit"]))
        share = used / limit
        red = share >= CPU_WARNING_SHARE
        bar = pygame.Rect(x, y, rect.width - 24, 18)
        pygame.draw.rect(surface, (40, 38, 56), bar, border_radius=5)
        pygame.draw.rect(surface, CPU_RED if red else CPU_BAR, (bar.x, bar.y, int(bar.width * min(1.0, share)), bar.height), border_radius=5)
        cpu = face.render(tr("ui.lab.cpu", used=used, limit=limit), True, LAB_TEXT)
        surface.blit(cpu, cpu.get_rect(center=bar.center))
        y = bar.bottom + 8
        self.drawn_diagnostics = []
        step = face.get_linesize()
        findings = self.diagnostic_lines()
        self.findings_left = len(findings)
        for text, colour in findings:
            # A finding wraps inside the panel; one that no longer fits is left for a bigger window.
            parts = wrap(text, face, bar.width, 3)
            if y + step * len(parts) > rect.bottom - 6:
                break
            for part in parts:
                self.drawn_diagnostics.append((part, surface.blit(face.render(part, True, colour), (x, y))))
                y += step
            self.findings_left -= 1

    def _draw_tooltip(self, surface: pygame.Surface) -> None:
        place = self.place_at(self.mouse)
        if place is None:
            return
        card = self.run.loadout.card_at(place)
        if card is None:
            return
        # R-FEEL-2: what the card does, in numbers from its data.
        spell = self.run.content.spell(card)
        tooltip(surface, spell_tip(spell, self.run.content.balance.statuses), self.mouse, width=TOOLTIP_WIDTH)
