"""The lab (R-LAB-1, R-VM-2, R-VM-9, R-CORE-3): the wand editor between waves.

This module owns `LabScene`: the backpack on the left (with the waiting
area under it while it holds cards), and on the right one tab per carried
core (its name, CPU used/limit, the active core's dot and mark, "Make
active" on the others; a click, Q/E, 1..n or the gamepad's shoulders pick
one) over the shown core's board (its 2D grid with entry tags, splitter
routes and adjacency bonuses). Cards are dragged between the backpack, the
waiting area (it only empties) and the board (onto an empty place a card
moves, onto a card the two swap); a card dropped on another core's tab goes
to that core's first free slot, and one held over it opens that board; a right click sends a slotted card to the
backpack and a backpack or waiting card to the shown board. Beside the board:
the live compile diagnostics of the shown board (its CPU figure with the bar
beside it, red from 80% with its message; mana per cast — what a cast
actually spends, averaged over the cycle; fused recipes; warnings), "not
active" on the title of a board that does not fire, the slots no cast can reach greyed with a
"never reached" mark (R-VM-3c), the cast timeline (`artificer.ui.timeline`:
one row per cast of the cycle with the cards it fires, its mana and delay,
then the cycle's mana and DPS figures; hovering a row lights its cards on
the board), a tooltip per card with its numbers (`artificer.ui.spell_text`,
R-FEEL-2), toasts on opaque boxes, and three buttons: **Test** (the training
range with the board shown, T), **Start wave** (Enter; blocked with the
R-VM-2 message while the active core's main entry has no action) and
**Back** (Esc, when the lab was opened from the shop). The keys are the
lab context's bindings of the session's `Controls` (T, Enter, Esc, Q/E by
default; the buttons show the bound keys); 1..n are the tabs' numbers.

Every edit (a card moved, the active core switched) recompiles the wand
through `Run.rearm()` — the world fires the active core — compiles every
carried core for its tab (`Catalog.compile`) and asks the core for the
timeline of the shown board (`Catalog.timeline`), all with the CPU the run
bought, so what the panels show is what the core will run; then
`on_change()` is called (the run is saved). Looking at another tab changes
nothing. The rules live in `game.loadout`; this module only draws and
routes input. Labels (the heading, tab names, buttons, toasts) are fitted
to their boxes (`widgets.fit_lines`: shrunk, then wrapped) in every
language; one still cut is listed in `cut_labels` for the tests.

A row board sits on top with the compiler and the timeline side by side
under it; a board of several rows (forked, reactive, matrix) keeps the
height, the compiler under it and the timeline the column's full height
beside it. Below 1100×680 the layout turns compact (a narrower backpack of
taller cards, smaller type) so that 960×600 reads with nothing clipped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import pygame

from artificer.content.wand_code import WandCodeError, decode, encode
from artificer.engine.wand import core_data, place, spell_catalog
from artificer.game.loadout import BackpackFull, CoreFull, LoadoutError, Place
from artificer.game.offer_effect import WandBonus
from artificer.game.onboarding import (
    TIP_CPU_HIGH,
    TIP_TRIGGER_WITHOUT_ACTION,
    TIP_WAND_CODE,
    Onboarding,
    lesson_tip,
)
from artificer.game.run import Run
from artificer.ui.cards import MANA_TEXT, BoardGeometry, CardArt, draw_chip
from artificer.ui.controls import Controls
from artificer.ui.fonts import font
from artificer.ui.i18n import tr
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.session import Session
from artificer.ui.settings import Action, Context, Settings, key_hint
from artificer.ui.spell_text import spell_tip
from artificer.ui.stat_sheet import open_stat_sheet
from artificer.ui.timeline import DrawnTimeline, draw_timeline
from artificer.ui.tips import TIP_SECONDS, show_once
from artificer.ui.widgets import (
    BAD,
    BUTTON_EDGE,
    BUTTON_FILL,
    BUTTON_HOVER,
    DIM,
    GOOD,
    LAB_TEXT,
    PANEL_EDGE,
    TEXT,
    Button,
    Fitted,
    Toasts,
    blit_lines,
    break_lines,
    fit_lines,
    panel,
    tooltip,
)

StackCallback = Callable[[SceneStack], None]

BACKGROUND = (12, 10, 22)
TITLE = (242, 214, 140)
WARN = (240, 200, 90)
CPU_BAR = (0, 158, 115)
CPU_RED = (213, 60, 40)
#: R-VM-9: from 80% up to the limit the bar is amber (the wand still runs in full).
CPU_AMBER = (230, 170, 40)
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
GAMEPAD_EVENTS = (
    pygame.CONTROLLERBUTTONDOWN,
    pygame.CONTROLLERBUTTONUP,
    pygame.CONTROLLERDEVICEADDED,
    pygame.CONTROLLERDEVICEREMOVED,
)
# R-VM-9 shows the CPU bar red from this share of the limit on.
CPU_WARNING_SHARE = 0.8
#: The CPU bar beside its figure: this tall, so it reads as a gauge and leaves the figure the line.
CPU_BAR_HEIGHT = 12
#: The core tabs over the board: the selected one's fill, the others', the gap between two.
TAB_SHOWN = (44, 36, 78)
TAB_FILL = (22, 20, 36)
TAB_GAP = 8
#: Where a dragged card would land (a tab, a slot, a backpack cell), and a tab that just took one.
DROP_TARGET = (120, 230, 150)
#: A tab that just received a dropped card glows this long (seconds), so the card is seen to land.
TAB_FLASH_SECONDS = 0.6
#: A card held this long (seconds) over another core's tab opens its board: long enough not to fire on a card dragged past.
TAB_DWELL_SECONDS = 0.6
#: The gamepad's shoulder buttons turn the tabs.
SHOULDER_STEPS = {pygame.CONTROLLER_BUTTON_LEFTSHOULDER: -1, pygame.CONTROLLER_BUTTON_RIGHTSHOULDER: 1}
#: Toasts: an opaque box (they sit over the panels), at most this wide.
TOAST_FILL = (34, 26, 52, 250)
TOAST_EDGE = (240, 200, 90)
TOAST_TEXT = (255, 214, 140)
TOAST_MAX_WIDTH = 640
#: The wand codes' tip (Ctrl+C, Ctrl+V) waits for this wave's lab: by then the player has shopped twice.
CODE_TIP_WAVE = 3
#: The button row holds the newest toast when its free stretch is at least this wide.
TOAST_MIN_ROW = 240
#: A compiler finding wraps onto at most this many lines.
FINDING_LINES = 3
#: i18n keys built from data: one per compile warning code and per entry point.
I18N_DYNAMIC_PREFIXES = ("ui.lab.warning.", "ui.lab.entry.")


def wrapped(text: str, size: int, width: int, max_lines: int) -> Fitted:
    """`text` wrapped at `size` px onto at most `max_lines` lines of `width`; when it needs more, fitted
    by `fit_lines` (shrunk, then wrapped, cut only as a last resort). The findings keep one size that way."""
    face = font(size)
    lines = break_lines(text, face, width)
    if len(lines) <= max_lines and all(face.size(line)[0] <= width for line in lines):
        return Fitted(face, lines, False)
    return fit_lines(text, size, False, width, max_lines)


@dataclass
class CoreTab:
    """One carried core's tab over the board: where it is, and its "Make active" button (None on the active core)."""

    core: str
    rect: pygame.Rect
    make_active: pygame.Rect | None


#: R-ONB-1: the lessons the lab teaches (the step's `lesson` → its text).
LAB_LESSONS = {
    "lab": "ui.onboarding.lesson.lab",
    "damage_plus": "ui.onboarding.lesson.damage_plus",
    "trigger_on_hit": "ui.onboarding.lesson.trigger_on_hit",
}


class LabScene(Scene):
    """Backpack and the carried cores' boards (one tab each) with drag-and-drop, live diagnostics, Test and Start wave."""

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
        #: The keys (R-SET-1 bindings, the lab's context): the session's, or the default bindings without one.
        self.controls = session.controls if session is not None else Controls(Settings())
        self.on_change = on_change
        self._catalog = spell_catalog(run.content)
        #: The core whose board, diagnostics and timeline are shown (its tab is selected).
        self.shown = run.loadout.active
        #: The compile diagnostics of the shown core, of the active one (it fires), of every carried one (their tabs' CPU).
        self.diagnostics: dict[str, Any] = {}
        self.active_diagnostics: dict[str, Any] = {}
        self.core_diagnostics: dict[str, dict[str, Any]] = {}
        #: R-VM-3c: the cast timeline of the shown core's board (`Catalog.timeline`).
        self.timeline: dict[str, Any] = {}
        #: What the layout was computed for (the window's size, the board shown, the loadout's shape).
        self._layout_key: tuple[Any, ...] = ()
        self.rearm()
        self.toasts = Toasts()
        #: R-ONB-2's tips about a board shown here, by tip: the core they were about and their text.
        #: Each is withdrawn once that core's board no longer has what it warned of.
        self.board_tips: dict[str, tuple[str, str]] = {}
        self.stack: SceneStack | None = None
        #: R-ONB-1: a lesson's range demo waiting to play (its cards; empty: none).
        self.demo: tuple[str | None, ...] = ()
        self.art = CardArt(run.content)
        self.drag: tuple[Place, str] | None = None
        self.mouse = (0, 0)
        self.board_rect = pygame.Rect(0, 0, 0, 0)
        self.backpack_rect = pygame.Rect(0, 0, 0, 0)
        self.waiting_rect = pygame.Rect(0, 0, 0, 0)
        self.diag_rect = pygame.Rect(0, 0, 0, 0)
        self.timeline_rect = pygame.Rect(0, 0, 0, 0)
        self.cpu_bar = pygame.Rect(0, 0, 0, 0)
        self.stats_y = 0
        self.compact = False
        #: What the last draw showed: the timeline's rows and texts, the diagnostics' lines.
        self.drawn_timeline = DrawnTimeline()
        self.drawn_diagnostics: list[tuple[str, pygame.Rect]] = []
        #: The findings the last draw had no room for.
        self.findings_left = 0
        #: The fitted labels of the last draw (heading, tabs, stats line, toasts) and those cut with '…' even at their smallest.
        self.drawn_labels: list[tuple[str, pygame.Rect]] = []
        self.cut_labels: list[str] = []
        #: The toasts of the last draw, each with its box.
        self.drawn_toasts: list[tuple[str, pygame.Rect]] = []
        self.backpack_cells: list[pygame.Rect] = []
        self.waiting_cells: list[pygame.Rect] = []
        self.tabs: list[CoreTab] = []
        #: A tab that just received a card glows for a moment: (core, seconds left).
        self.tab_flash: tuple[str, float] | None = None
        #: How long a dragged card has been held over another core's tab.
        self.dwell = 0.0
        self.geometry: BoardGeometry | None = None
        self.test_button = Button(pygame.Rect(0, 0, 0, 0), tr("ui.lab.test"), "T")
        self.start_button = Button(pygame.Rect(0, 0, 0, 0), tr("ui.lab.start_wave"), "Enter")
        self.back_button = Button(pygame.Rect(0, 0, 0, 0), tr("ui.lab.back"), "Esc")
        #: R-STAT-2: the stats sheet, left of Test.
        self.stats_button = Button(pygame.Rect(0, 0, 0, 0), tr("ui.stats.button"), "C")
        self._layout((1280, 720))

    # ---- lifecycle ---------------------------------------------------------
    def on_enter(self, stack: SceneStack) -> None:
        self.stack = stack
        self._tips()

    def on_resume(self) -> None:
        # The shop or the training range may have changed things meanwhile.
        self.rearm()

    def _tips(self) -> None:
        """R-ONB-1's lesson of this run (the lab's first opening, the first modifier, the first trigger
        and its range demo), and R-ONB-2's tips for the board shown (a trigger with no action after it,
        CPU above 80%): each once, ever."""
        show = lambda text: self.toasts.show(text, TIP_SECONDS)  # noqa: E731
        keep = not self.run.state.practice  # R-END-5: a practice run remembers its tips for the session only
        onboarding = Onboarding.of(self.run.content, self.run.state.onboarding)
        lesson = onboarding.lesson
        if lesson in LAB_LESSONS:
            test = key_hint(self.controls.settings.key_for(Action.TEST_WAND))
            if show_once(lesson_tip(lesson), show, tr(LAB_LESSONS[lesson], test=test), keep) and onboarding.demo:
                self.demo = onboarding.demo  # R-ONB-1: the lesson's range demo, played once the lab is on top
        elif self.wave >= CODE_TIP_WAVE:
            show_once(TIP_WAND_CODE, show, tr("ui.lab.code_hint"), keep)
        warnings = set(self.diagnostics.get("warnings", ()))
        used, limit = int(self.diagnostics.get("cpu_used", 0)), max(1, int(self.diagnostics.get("cpu_limit", 1)))
        board_tips = (
            (TIP_TRIGGER_WITHOUT_ACTION, "trigger_without_action", tr("ui.tip.trigger_without_action")),
            # the compiler's own warning (R-VM-9: above 80% of the limit)
            (TIP_CPU_HIGH, "cpu_high", tr("ui.tip.cpu_high", used=used, limit=limit)),
        )
        for tip, warning, text in board_tips:
            if warning in warnings and show_once(tip, show, text, keep):
                self.board_tips[tip] = (self.shown, text)
            if tip in self.board_tips:
                # Fixed (or the core gone): a tip about what is no longer there only misleads. Another
                # core's tab shown meanwhile fixes nothing.
                core, shown_text = self.board_tips[tip]
                if warning not in self.core_diagnostics.get(core, {}).get("warnings", ()):
                    del self.board_tips[tip]
                    self.toasts.withdraw(shown_text)

    def rearm(self) -> None:
        """Recompiles the wand (`Run.rearm`: the active core, as the world will fire it), then every
        carried core's diagnostics and the shown one's cast timeline (R-VM-3c, R-LAB-1)."""
        self.active_diagnostics = self.run.rearm()
        self._diagnose()

    def _diagnose(self) -> None:
        loadout = self.run.loadout
        if self.shown not in [carried.core for carried in loadout.cores]:
            self.shown = loadout.active
        # The CPU the run bought (R-STAT-1) is what the world compiled with beyond the core's own;
        # every core compiles with it, as it would once active.
        bought = max(0, int(self.active_diagnostics["cpu_limit"]) - self.run.content.core(loadout.active).cpu_limit)
        self.core_diagnostics = {}
        for carried in loadout.cores:
            if carried.core == loadout.active:
                self.core_diagnostics[carried.core] = self.active_diagnostics
            else:
                core = self.run.content.core(carried.core)
                self.core_diagnostics[carried.core] = dict(
                    self._catalog.compile(core_data(core), place(core, carried.cards), cpu=bought)
                )
        self.diagnostics = self.core_diagnostics[self.shown]
        core = self.run.content.core(self.shown)
        cards = loadout.carried(self.shown).cards
        # R-CURVE-1: the figures are the player's, the stats and relics counted (the CPU as compiled).
        self.timeline = replace(WandBonus.of(self.run), cpu=bought).timeline(self.run.content, self.shown, cards)
        if self._layout_key:
            # The board shown or the waiting area may have changed: where things are follows at once.
            self._layout(self._layout_key[0])
        if getattr(self, "stack", None) is not None:  # entered: a board changed (the first rearm is __init__'s)
            self._tips()

    # ---- queries -------------------------------------------------------------
    @property
    def can_start(self) -> bool:
        """R-VM-2: only a wand with an action in its main entry enters combat (the active core's)."""
        return bool(self.active_diagnostics["can_fire"])

    def place_at(self, position: tuple[int, int]) -> Place | None:
        """The backpack cell, waiting card or slot of the shown board under `position` (a free
        backpack cell past the cards counts)."""
        assert self.geometry is not None
        slot = self.geometry.slot_at(position)
        if slot is not None:
            return Place("slot", slot, self.shown)
        for index, rect in enumerate(self.backpack_cells):
            if rect.collidepoint(position):
                return Place("backpack", index)
        for index, rect in enumerate(self.waiting_cells):
            if rect.collidepoint(position):
                return Place("waiting", index)
        if self.backpack_rect.collidepoint(position):
            return Place("backpack", len(self.run.loadout.backpack))
        return None

    def tab_at(self, position: tuple[int, int]) -> CoreTab | None:
        return next((tab for tab in self.tabs if tab.rect.collidepoint(position)), None)

    def tab_of(self, core_id: str) -> CoreTab:
        """The tab of a carried core (for tests and drops)."""
        return next(tab for tab in self.tabs if tab.core == core_id)

    def rect_of(self, place: Place) -> pygame.Rect:
        """Where `place` is drawn (for tests and the drag ghost); a slot is one of the shown board's."""
        assert self.geometry is not None
        if place.area == "slot":
            return self.geometry.slots[place.index]
        return (self.backpack_cells if place.area == "backpack" else self.waiting_cells)[place.index]

    # ---- input ---------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if self.session is not None and event.type in GAMEPAD_EVENTS:
            # A gamepad: A starts the wave, B goes back, the shoulders turn the tabs (cards are dragged with the mouse).
            if event.type == pygame.CONTROLLERBUTTONDOWN and event.button in SHOULDER_STEPS:
                self.step_tab(SHOULDER_STEPS[event.button])
                return None
            action = self.session.controls.handle(event, Context.MENU)
            if action == Action.CONFIRM:
                self.start_wave()
            elif action == Action.BACK and self.on_back is not None and self.stack is not None:
                self.on_back(self.stack)
            return None
        if event.type == pygame.KEYDOWN:
            return self._key(event)
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            return None
        if event.type == pygame.MOUSEBUTTONDOWN:
            self.mouse = event.pos
            if event.button == 1:
                self._press(event.pos)
            elif event.button == 3:
                self._send_away(event.pos)
            return None
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.mouse = event.pos
            self._drop(event.pos)
            return None
        return event

    def _key(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if getattr(event, "mod", 0) & pygame.KMOD_CTRL and event.key in (pygame.K_c, pygame.K_v):
            self.copy_code() if event.key == pygame.K_c else self.paste_code()
            return None
        action = self.controls.pressed(event, Context.LAB)
        number = self.controls.numbered_choice(event) if action is None else None
        if action is Action.START_WAVE:
            self.start_wave()
        elif action is Action.TEST_WAND:
            self.open_test()
        elif action is Action.STATS_SHEET:
            self.open_stats()
        elif action is Action.BACK and self.on_back is not None and self.stack is not None:
            self.on_back(self.stack)
        elif action in (Action.PREVIOUS_TAB, Action.NEXT_TAB):
            self.step_tab(-1 if action is Action.PREVIOUS_TAB else 1)
        elif number is not None and number < len(self.run.loadout.cores):
            self.show(self.run.loadout.cores[number].core)
        else:
            return event
        return None

    # ---- wand codes (Ctrl+C, Ctrl+V) ---------------------------------------------
    def copy_code(self) -> str:
        """The shown board as a wand code, onto the clipboard (and in a toast, to read off when
        the clipboard cannot be reached)."""
        code = encode(self.run.content, self.shown, self.run.loadout.carried(self.shown).cards)
        try:
            pygame.scrap.put_text(code)
        except pygame.error:
            self.toasts.show(tr("ui.lab.code_no_clipboard", code=code))
        else:
            self.toasts.show(tr("ui.lab.code_copied", code=code))
        return code

    def paste_code(self, text: str | None = None) -> bool:
        """A wand code from the clipboard (or `text`) laid out on its core's board with the cards
        at hand (that board's and the backpack's); a refusal is a toast. Returns whether it did."""
        content = self.run.content
        try:
            text = pygame.scrap.get_text() if text is None else text
        except pygame.error:
            self.toasts.show(tr("ui.lab.code_no_clipboard", code=""))
            return False
        try:
            board = decode(content, text)
        except WandCodeError:
            self.toasts.show(tr("ui.lab.code_invalid"))
            return False
        core_name = tr(content.core(board.core).name_key)
        if board.core not in [carried.core for carried in self.run.loadout.cores]:
            self.toasts.show(tr("ui.lab.code_core_missing", core=core_name))
            return False
        missing: list[str] = []

        def lay_out() -> bool:
            missing.extend(self.run.loadout.lay_out(board.core, board.cards))
            return not missing  # False: nothing changed

        if not self._edit(lay_out):
            if missing:
                names = ", ".join(tr(content.spell(card).name_key) for card in missing)
                self.toasts.show(tr("ui.lab.code_cards_missing", cards=names))
            return False
        self.show(board.core)
        self.toasts.show(tr("ui.lab.code_pasted", core=core_name))
        return True

    def _press(self, position: tuple[int, int]) -> None:
        tab = self.tab_at(position)
        if self.start_button.contains(position):
            self.start_wave()
        elif self.test_button.contains(position):
            self.open_test()
        elif self.stats_button.contains(position):
            self.open_stats()
        elif self.on_back is not None and self.back_button.contains(position) and self.stack is not None:
            self.on_back(self.stack)
        elif tab is not None:
            if tab.make_active is not None and tab.make_active.collidepoint(position):
                self.make_active(tab.core)
            else:
                self.show(tab.core)
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
        tab = self.tab_at(position)
        if tab is not None:
            self._send(source, tab.core)
            return
        target = self.place_at(position)
        if target is None or target == source or target.area == "waiting":
            return  # nowhere, back where it was, or the waiting area (it only empties)
        if target.area == "backpack" and source.area == "backpack":
            target = Place("backpack", min(target.index, len(self.run.loadout.backpack) - 1))
        self._edit(lambda: self.run.loadout.move(source, target))

    def _send_away(self, position: tuple[int, int]) -> None:
        """A right click: a slotted card goes to the backpack, a backpack or waiting card to the shown board's first free slot."""
        place = self.place_at(position)
        if place is None or self.run.loadout.card_at(place) is None:
            return
        if place.area == "slot":
            self._edit(lambda: self.run.loadout.move(place, Place("backpack", len(self.run.loadout.backpack))))
        else:
            self._send(place, self.shown)

    def _send(self, source: Place, core_id: str) -> None:
        """A card dropped on a core's tab: into that core's first free slot (R-LAB-1)."""
        if self._edit(lambda: self.run.loadout.send_to_core(source, core_id) is not None):
            self.tab_flash = (core_id, TAB_FLASH_SECONDS)

    def _edit(self, change: Callable[[], object]) -> bool:
        """Makes one loadout change; a refusal is a toast and changes nothing. Returns whether anything changed."""
        try:
            changed = change()
        except BackpackFull:
            self.toasts.show(tr("ui.lab.backpack_full"))
            return False
        except CoreFull as full:
            self.toasts.show(tr("ui.lab.core_full", core=tr(self.run.content.core(full.core).name_key)))
            return False
        except LoadoutError as refusal:
            self.toasts.show(str(refusal))
            return False
        if changed is False:
            return False
        self._changed()
        return True

    def _changed(self) -> None:
        """After an edit: recompile, then tell the owner (who saves the run)."""
        self.rearm()
        if self.on_change is not None:
            self.on_change()

    def show(self, core_id: str, keep_drag: bool = False) -> None:
        """Shows a carried core's board, diagnostics and timeline (its tab selected); the world is not touched.
        A card being dragged stays in hand when `keep_drag` (its tab was held under it)."""
        if core_id != self.shown:
            self.shown = core_id
            if not keep_drag:
                self.drag = None
            self._diagnose()

    def step_tab(self, step: int) -> None:
        cores = [carried.core for carried in self.run.loadout.cores]
        self.show(cores[(cores.index(self.shown) + step) % len(cores)])

    def make_active(self, core_id: str) -> None:
        """R-CORE-3: the core that fires in the wave. The lab is open only between waves (in the
        shop, or before wave 1), where switching is allowed; each core keeps its own cards. Its board is shown."""
        if core_id == self.run.loadout.active:
            return
        self.shown = core_id  # the core made active is the one looked at
        if self._edit(lambda: self.run.loadout.switch(core_id, in_shop=True)):
            self.toasts.show(tr("ui.lab.switched", core=tr(self.run.content.core(core_id).name_key)))

    def start_wave(self) -> None:
        """Start the wave, or say why not (R-VM-2)."""
        if not self.can_start:
            self.toasts.show(tr("ui.lab.cannot_fire"))
            return
        if self.on_start_wave is not None and self.stack is not None:
            self.on_start_wave(self.stack)

    def open_stats(self) -> None:
        """R-STAT-2: the stats sheet over the lab (its key or Esc closes it)."""
        open_stat_sheet(self.stack, self.run, self.controls)

    def open_test(self) -> None:
        """The training range with the board shown as it is now (R-LAB-1): a core can be tried before it is made active."""
        if self.stack is None:
            return
        if not self.diagnostics["can_fire"]:
            self.toasts.show(tr("ui.lab.cannot_fire"))
            return
        if self.on_test is not None:
            self.on_test(self.stack)
            return
        from artificer.ui.scenes.training import TrainingScene

        cards = self.run.loadout.carried(self.shown).cards
        self.stack.push(
            TrainingScene(self.run.content, self.shown, list(cards), seed=self.run.seed, controls=self.controls)
        )

    def _play_demo(self, cards: tuple[str | None, ...]) -> None:
        """R-ONB-1: the lesson's cards on the starting wand's core, on the range (Esc comes back)."""
        from artificer.ui.scenes.training import TrainingScene

        assert self.stack is not None
        core = self.run.content.balance.starting_wand.core
        self.stack.push(TrainingScene(self.run.content, core, list(cards), seed=self.run.seed, controls=self.controls))

    # ---- simulation ----------------------------------------------------------
    def update(self, dt: float) -> None:
        if self.demo and self.stack is not None and self.stack.top is self:
            self._play_demo(self.demo)
            self.demo = ()
        self.toasts.tick(dt)
        self._dwell(dt)
        if self.tab_flash is not None:
            core, left = self.tab_flash
            self.tab_flash = (core, left - dt) if left > dt else None

    def _dwell(self, dt: float) -> None:
        """A card held over another core's tab for `TAB_DWELL_SECONDS` opens that board, so it can be dropped on a chosen slot."""
        tab = self.tab_at(self.mouse) if self.drag is not None else None
        if tab is None or tab.core == self.shown:
            self.dwell = 0.0
            return
        self.dwell += dt
        if self.dwell >= TAB_DWELL_SECONDS:
            self.dwell = 0.0
            self.show(tab.core, keep_drag=True)

    # ---- layout ----------------------------------------------------------------
    def _layout(self, size: tuple[int, int]) -> None:
        loadout = self.run.loadout
        key = (size, self.shown, tuple(carried.core for carried in loadout.cores), loadout.active, len(loadout.waiting))
        if key == self._layout_key:
            return
        self._layout_key = key
        w, h = size
        self.compact = w < COMPACT_BELOW[0] or h < COMPACT_BELOW[1]
        margin = max(12, w // 64)
        tab_y, tab_h = (8, 42) if self.compact else (10, 48)
        # Under the tabs, one line of the shown core's numbers; then the panels.
        self.stats_y = tab_y + tab_h + 3
        top = self.stats_y + (20 if self.compact else 24)
        bw, bh = (180, 46) if self.compact else (220, 52)
        buttons_y = h - bh - (14 if self.compact else 22)
        bottom = buttons_y - 10
        left_w = int(w * (0.27 if self.compact else 0.29))
        right_x = margin + left_w + margin
        right_w = w - right_x - margin
        self._layout_tabs(right_x, tab_y, right_w, tab_h)
        self._layout_left(margin, top, left_w, bottom)
        self._layout_right(right_x, top, right_w, bottom)
        self.start_button.rect = pygame.Rect(w - margin - bw, buttons_y, bw, bh)
        self.test_button.rect = pygame.Rect(self.start_button.rect.x - bw - 16, buttons_y, bw, bh)
        # The sheet's button is narrower: the row's free stretch left of it is where toasts go.
        sw = 130 if self.compact else 150
        self.stats_button.rect = pygame.Rect(self.test_button.rect.x - sw - 16, buttons_y, sw, bh)
        self.back_button.rect = pygame.Rect(margin, buttons_y, 160 if self.compact else 180, bh)

    def _layout_tabs(self, x: int, y: int, width: int, height: int) -> None:
        """One tab per carried core, in loadout order, each a third of the column (at most `max_cores` of them)."""
        max_cores, _ = self.run.loadout.limits
        tab_w = (width - TAB_GAP * (max_cores - 1)) // max_cores
        self.tabs = []
        for index, carried in enumerate(self.run.loadout.cores):
            rect = pygame.Rect(x + index * (tab_w + TAB_GAP), y, tab_w, height)
            button = None
            if carried.core != self.run.loadout.active:
                button_h = height // 2 - 4
                button = pygame.Rect(0, 0, tab_w // 2, button_h)
                button.bottomright = (rect.right - 6, rect.bottom - 4)
            self.tabs.append(CoreTab(carried.core, rect, button))

    def _layout_left(self, x: int, top: int, width: int, bottom: int) -> None:
        """The backpack's grid of cards; under it, while it holds cards, the waiting area (two columns of chips)."""
        waiting = len(self.run.loadout.waiting)
        chip_h = 22 if self.compact else 26
        waiting_rows = -(-waiting // 2)
        waiting_h = 36 + waiting_rows * (chip_h + 6) + 4 if waiting else 0
        self.backpack_rect = pygame.Rect(x, top, width, bottom - top - (waiting_h + 10 if waiting else 0))
        self.waiting_rect = (
            pygame.Rect(x, self.backpack_rect.bottom + 10, width, waiting_h) if waiting else pygame.Rect(0, 0, 0, 0)
        )
        chip_w = (width - 24 - 8) // 2
        self.waiting_cells = [
            pygame.Rect(
                x + 12 + (i % 2) * (chip_w + 8), self.waiting_rect.y + 36 + (i // 2) * (chip_h + 6), chip_w, chip_h
            )
            for i in range(waiting)
        ]
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
            pygame.Rect(
                inner.x + (i % BACKPACK_COLUMNS) * (cell_w + gap),
                inner.y + (i // BACKPACK_COLUMNS) * (cell_h + gap),
                cell_w,
                cell_h,
            )
            for i in range(capacity)
        ]

    def _layout_right(self, right_x: int, top: int, right_w: int, bottom: int) -> None:
        """The shown core's board with the compiler and the cast timeline (R-VM-3c)."""
        layout = self.run.content.core(self.shown).layout()
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
            self.timeline_rect = pygame.Rect(
                self.diag_rect.right + 10, lower_y, right_w - diag_w - 10, bottom - lower_y
            )
        else:
            # A board of several rows needs the height: the board over the compiler on the
            # left, the cast timeline the whole column's height on the right.
            timeline_w = max(TIMELINE_MIN_WIDTH, int(right_w * 0.44))
            left_part = right_w - timeline_w - 10
            diag_h = max(120, int(column_h * 0.28))
            self.board_rect = pygame.Rect(right_x, top, left_part, column_h - diag_h - 10)
            self.diag_rect = pygame.Rect(right_x, self.board_rect.bottom + 10, left_part, diag_h)
            self.timeline_rect = pygame.Rect(self.board_rect.right + 10, top, timeline_w, column_h)
        # Room above the cards for the panel's title and the entry tags, below for the bonuses.
        self.geometry = BoardGeometry.fit(
            layout, self.board_rect.inflate(-32, -BOARD_CHROME).move(0, 14), max_cell=BOARD_MAX_CELL
        )

    # ---- drawing ---------------------------------------------------------------
    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        self._layout(surface.get_size())
        assert self.geometry is not None
        surface.fill(BACKGROUND)
        w, _ = surface.get_size()
        loadout = self.run.loadout
        self.cut_labels = []
        self.drawn_labels = []
        self.drawn_toasts = []
        self._draw_heading(surface)
        self._draw_tabs(surface)
        core = self.run.content.core(self.shown)
        # The pool the wand really gets (R-STAT-1): the core's with the max mana and regen bought and
        # the relics' regen — the timeline's own regen, as the core counts it.
        bonus = WandBonus.of(self.run)
        stats = tr(
            "ui.lab.core_stats",
            mana=core.mana_max + bonus.mana_max,
            regen=self.timeline.get("regen", core.mana_regen + bonus.mana_regen),
            delay=core.cast_delay,
            recharge=core.recharge,
        )
        if core.spells_per_cast > 1:  # R-CORE-1: a core that fires more than one card a cast says so
            stats += "  ·  " + tr("ui.lab.spells_per_cast", count=core.spells_per_cast)
        self._label(
            surface,
            stats,
            14 if self.compact else 16,
            False,
            DIM,
            w - self.backpack_rect.x - self.board_rect.x,
            topright=(w - self.backpack_rect.x, self.stats_y),
        )

        hovered = self.place_at(self.mouse) if self.drag is not None and self.tab_at(self.mouse) is None else None
        self._draw_left(surface, hovered)
        panel(surface, self.board_rect, tr("ui.lab.board"))
        if self.shown != loadout.active:
            # The board shown is not the one that fires: said on its title line, where the eye is.
            title_w = font(18, bold=True).size(tr("ui.lab.board"))[0]
            self._label(
                surface, tr("ui.lab.not_active"), 15 if self.compact else 16, True, WARN,
                self.board_rect.width - title_w - 40, topright=(self.board_rect.right - 12, self.board_rect.y + 9),
            )  # fmt: skip
        self._draw_always_cast(surface, core.always_cast)
        self.geometry.draw_furniture(surface)
        cards = loadout.carried(self.shown).cards
        dragged = self.drag[0] if self.drag is not None else None
        hidden = (
            dragged.index if dragged is not None and dragged.area == "slot" and dragged.core == self.shown else None
        )
        self.geometry.draw_slots(surface, cards, self.art, hidden=hidden, unreachable=self.unreachable_slots)
        for slot in self.diagnostics.get("dropped_slots", []):
            pygame.draw.rect(surface, CPU_RED, self.geometry.slots[slot], 3, border_radius=8)
        if hovered is not None and hovered.area == "slot":
            pygame.draw.rect(
                surface, DROP_TARGET, self.geometry.slots[hovered.index].inflate(6, 6), 2, border_radius=10
            )

        self._draw_diagnostics(surface)
        self.drawn_timeline = draw_timeline(
            surface,
            self.timeline_rect,
            self.timeline,
            self.run.content,
            compact=self.compact,
            hovered=self.mouse if self.drag is None else None,
        )
        hovered_cast = self.drawn_timeline.row_at(self.mouse) if self.drag is None else None
        if hovered_cast is not None:
            for slot in hovered_cast.slots:
                if 0 <= slot < len(self.geometry.slots):
                    pygame.draw.rect(
                        surface, CAST_HIGHLIGHT, self.geometry.slots[slot].inflate(6, 6), 3, border_radius=10
                    )
        self.start_button.enabled = self.can_start
        self.back_button.label = tr("ui.lab.back")
        bindings = self.controls.settings
        self.test_button.hint = key_hint(bindings.key_for(Action.TEST_WAND))
        self.start_button.hint = key_hint(bindings.key_for(Action.START_WAVE))
        self.back_button.hint = key_hint(bindings.key_for(Action.BACK))
        self.stats_button.label = tr("ui.stats.button")
        self.stats_button.hint = key_hint(bindings.key_for(Action.STATS_SHEET))
        for button in (self.stats_button, self.test_button, self.start_button):
            button.draw(surface, self.mouse)
        if self.on_back is not None:
            self.back_button.draw(surface, self.mouse)
        self._draw_toasts(surface)

        if self.drag is not None:
            _, card = self.drag
            size = self.backpack_cells[0].size
            ghost = self.art.image(card, size).copy()
            ghost.set_alpha(220)
            surface.blit(ghost, ghost.get_rect(center=self.mouse))
        else:
            self._draw_tooltip(surface)

    def _label(
        self, surface: pygame.Surface, text: str, size: int, bold: bool, colour: tuple[int, int, int], width: int,
        max_lines: int = 1, **where: tuple[int, int],
    ) -> pygame.Rect:  # fmt: skip
        """A label fitted to `width` (shrunk, then wrapped, `fit_lines`); one that still had to be cut is noted in `cut_labels`."""
        fitted = fit_lines(text, size, bold, width, max_lines)
        if fitted.cut:
            self.cut_labels.append(text)
        rect = blit_lines(surface, fitted, colour, **where)
        self.drawn_labels.append((text, rect))
        return rect

    def _draw_always_cast(self, surface: pygame.Surface, cards: tuple[str, ...]) -> None:
        """R-VM-13: the core's always-cast cards, fixed on the board's title line (they are part of the
        core, not of the board: they go with every cast, free, and cannot be moved)."""
        if not cards:
            return
        title_w = font(18, bold=True).size(tr("ui.lab.board"))[0]
        size = 22 if self.compact else 26
        x, y = self.board_rect.x + title_w + 40, self.board_rect.y + 6 + size // 2
        label = self._label(
            surface, tr("ui.lab.always_cast"), 13 if self.compact else 15, True, GOOD, self.board_rect.width // 4,
            midleft=(x, y),
        )  # fmt: skip
        x = label.right + 8
        for card in cards:
            chip = pygame.Rect(x, y - size // 2, size, size)
            surface.blit(self.art.image(card, chip.size), chip)
            pygame.draw.rect(surface, GOOD, chip.inflate(4, 4), 2, border_radius=6)
            x += size + 8

    def _draw_heading(self, surface: pygame.Surface) -> None:
        """The lab's title over the backpack: on the tabs' line, or on two lines centred in the band above the panels."""
        text = tr("ui.lab.title", wave=self.wave)
        fitted = fit_lines(
            text, 26 if self.compact else 30, True, self.board_rect.x - self.backpack_rect.x - 12, max_lines=2
        )
        if fitted.cut:
            self.cut_labels.append(text)
        one_line_y = self.tabs[0].rect.centery if self.tabs else 34
        centre_y = one_line_y if len(fitted.lines) == 1 else self.backpack_rect.y // 2
        self.drawn_labels.append((text, blit_lines(surface, fitted, TITLE, midleft=(self.backpack_rect.x, centre_y))))

    def _draw_tabs(self, surface: pygame.Surface) -> None:
        """Each carried core's tab; the one a dragged card is over is lit as its landing place."""
        drop = self.tab_at(self.mouse) if self.drag is not None else None
        for index, tab in enumerate(self.tabs):
            self._draw_tab(
                surface, index, tab, lit=drop is tab or (self.tab_flash is not None and self.tab_flash[0] == tab.core)
            )

    def _draw_tab(self, surface: pygame.Surface, index: int, tab: CoreTab, lit: bool) -> None:
        """One tab: the active core's dot, its name and key, its CPU, "Active" or a "Make active" button."""
        shown, active = tab.core == self.shown, tab.core == self.run.loadout.active
        name_size, small_size = (15, 13) if self.compact else (17, 14)
        rect = tab.rect
        pygame.draw.rect(surface, TAB_SHOWN if shown else TAB_FILL, rect, border_radius=8)
        edge, thickness = (DROP_TARGET, 3) if lit else (TITLE, 2) if shown else (PANEL_EDGE, 1)
        pygame.draw.rect(surface, edge, rect, thickness, border_radius=8)
        # Top line: the dot, the name, the key [n]; bottom line: the CPU, then "Active" or the button.
        line_1, line_2 = rect.y + rect.height // 4 + 1, rect.bottom - rect.height // 4 - 1
        x = rect.x + 10
        if active:
            pygame.draw.circle(surface, GOOD, (x + 5, line_1), 5)
            x += 16
        key = font(small_size).render(f"[{index + 1}]", True, DIM)
        surface.blit(key, key.get_rect(midright=(rect.right - 8, line_1)))
        name = tr(self.run.content.core(tab.core).name_key)
        self._label(
            surface,
            name,
            name_size,
            True,
            TEXT if shown else LAB_TEXT,
            rect.right - 14 - key.get_width() - x,
            midleft=(x, line_1),
        )
        d = self.core_diagnostics.get(tab.core, {})
        used, limit = int(d.get("cpu_used", 0)), max(1, int(d.get("cpu_limit", 1)))
        right_part = tab.make_active.width + 12 if tab.make_active is not None else rect.width // 3
        self._label(
            surface, tr("ui.lab.cpu", used=used, limit=limit), small_size, False,
            {"cut": BAD, "high": WARN}.get(self.cpu_state(d), DIM),
            rect.width - 20 - right_part, midleft=(rect.x + 10, line_2),
        )  # fmt: skip
        if tab.make_active is None:
            self._label(
                surface,
                tr("ui.lab.active"),
                small_size,
                True,
                GOOD,
                rect.width // 3 - 8,
                midright=(rect.right - 10, line_2),
            )
            return
        button = tab.make_active
        hover = button.collidepoint(self.mouse) and self.drag is None
        pygame.draw.rect(surface, BUTTON_HOVER if hover else BUTTON_FILL, button, border_radius=5)
        pygame.draw.rect(surface, BUTTON_EDGE, button, 1, border_radius=5)
        self._label(surface, tr("ui.lab.make_active"), small_size, True, TEXT, button.width - 8, center=button.center)

    def _draw_left(self, surface: pygame.Surface, hovered: Place | None) -> None:
        """The backpack's cards and, when it holds any, the waiting area's."""
        loadout = self.run.loadout
        dragged = self.drag[0] if self.drag is not None else None
        panel(
            surface,
            self.backpack_rect,
            tr("ui.lab.backpack", count=len(loadout.backpack), capacity=loadout.limits_backpack),
        )
        for index, rect in enumerate(self.backpack_cells):
            pygame.draw.rect(surface, (24, 22, 38), rect, border_radius=8)
            if index < len(loadout.backpack) and dragged != Place("backpack", index):
                surface.blit(self.art.image(loadout.backpack[index], rect.size), rect)
        if hovered is not None and hovered.area == "backpack":
            rect = self.backpack_cells[min(hovered.index, len(self.backpack_cells) - 1)]
            pygame.draw.rect(surface, DROP_TARGET, rect.inflate(4, 4), 2, border_radius=9)
        if not loadout.waiting:
            return
        _, limit = loadout.limits
        panel(surface, self.waiting_rect, tr("ui.shop.waiting", count=len(loadout.waiting), limit=limit))
        face = font(13 if self.compact else 15)
        for index, rect in enumerate(self.waiting_cells):
            if dragged != Place("waiting", index):
                draw_chip(surface, self.run.content, loadout.waiting[index], rect, face)

    @property
    def unreachable_slots(self) -> frozenset[int]:
        """R-VM-3c: the shown board's slots no cast can ever reach (greyed on the board)."""
        return frozenset(int(slot) for slot in self.diagnostics.get("unreachable_slots", []))

    def cpu_state(self, d: dict[str, Any] | None = None) -> str:
        """R-VM-9 for a board's diagnostics (the shown one's by default): "cut" when cards past the CPU
        limit are really dropped (red, "Not enough CPU"), "high" from 80% up to the limit (amber, "CPU
        nearly full": the wand still runs in full), else "ok"."""
        d = self.diagnostics if d is None else d
        if d.get("dropped_slots"):
            return "cut"
        used, limit = int(d.get("cpu_used", 0)), max(1, int(d.get("cpu_limit", 1)))
        return "high" if used / limit >= CPU_WARNING_SHARE else "ok"

    def diagnostic_lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        """The compiler's findings on the shown board under the CPU bar, in the order they are shown."""
        d = self.diagnostics
        cpu = self.cpu_state()
        red = cpu != "ok"
        lines: list[tuple[str, tuple[int, int, int]]] = []
        if cpu == "cut":
            lines.append((tr("ui.lab.cpu_warning"), BAD))
        elif cpu == "high":
            lines.append((tr("ui.lab.cpu_nearly_full"), WARN))
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
        state = self.cpu_state()
        # The figure beside its bar, never over the fill (R-VM-9).
        colour = {"cut": BAD, "high": WARN}.get(state, LAB_TEXT)
        cpu = face.render(tr("ui.lab.cpu", used=used, limit=limit), True, colour)
        row_h = face.get_linesize()
        surface.blit(cpu, cpu.get_rect(midleft=(x, y + row_h // 2)))
        bar_x = x + cpu.get_width() + 10
        self.cpu_bar = pygame.Rect(
            bar_x, y + (row_h - CPU_BAR_HEIGHT) // 2, max(20, rect.right - 12 - bar_x), CPU_BAR_HEIGHT
        )
        bar = self.cpu_bar
        pygame.draw.rect(surface, (40, 38, 56), bar, border_radius=5)
        pygame.draw.rect(
            surface,
            {"cut": CPU_RED, "high": CPU_AMBER}.get(state, CPU_BAR),
            (bar.x, bar.y, int(bar.width * min(1.0, share)), bar.height),
            border_radius=5,
        )
        y += row_h + 6
        width = rect.width - 24
        self.drawn_diagnostics = []
        findings = self.diagnostic_lines()
        self.findings_left = len(findings)
        for text, colour in findings:
            # A finding wraps inside the panel; one that no longer fits is left for a bigger window.
            fitted = wrapped(text, 15 if self.compact else 17, width, FINDING_LINES)
            line_step = fitted.face.get_linesize()
            if y + line_step * len(fitted.lines) > rect.bottom - 6:
                break
            if fitted.cut:
                self.cut_labels.append(text)
            for part in fitted.lines:
                self.drawn_diagnostics.append((part, surface.blit(fitted.face.render(part, True, colour), (x, y))))
                y += line_step
            self.findings_left -= 1

    def _draw_toasts(self, surface: pygame.Surface) -> None:
        """The latest messages, each on an opaque box so it reads over anything: the newest in the
        button row's free stretch, between Back and Stats (it hides nothing there), older ones stacked above it, kept left
        of the cast timeline (its mana and DPS figures are what the player decides with, R-LAB-1)."""
        w, _ = surface.get_size()
        left = self.back_button.rect.right + 12 if self.on_back is not None else self.backpack_rect.x
        right = self.stats_button.rect.x - 12
        if right - left >= TOAST_MIN_ROW:
            centre_x, width, bottom = (
                (left + right) // 2,
                min(TOAST_MAX_WIDTH, right - left),
                self.start_button.rect.bottom,
            )
        else:  # a window too narrow for the row: over the panels' bottom edge
            centre_x, width, bottom = (
                w // 2,
                min(TOAST_MAX_WIDTH, w - 2 * self.backpack_rect.x),
                self.start_button.rect.y - 8,
            )
        # Where the older ones may go: from the backpack's left edge to the timeline's.
        beside = (self.backpack_rect.x, self.timeline_rect.x - 8)
        for newest, (text, seconds) in zip((True, False, False), reversed(self.toasts.items[-3:])):
            keep_left = not newest and beside[1] - beside[0] >= TOAST_MIN_ROW
            room = min(width, beside[1] - beside[0]) if keep_left else width
            fitted = fit_lines(text, 18, True, room - 28, max_lines=2)
            if fitted.cut:
                self.cut_labels.append(text)
            box = pygame.Rect(0, 0, fitted.width + 28, fitted.height + 14)
            box.midbottom = (centre_x, bottom)
            if keep_left:  # as near its place as it can be, between the two edges (it fits: room)
                box.right = min(box.right, beside[1])
                box.x = max(box.x, beside[0])
            layer = pygame.Surface(box.size, pygame.SRCALPHA)
            pygame.draw.rect(layer, TOAST_FILL, layer.get_rect(), border_radius=8)
            pygame.draw.rect(layer, TOAST_EDGE, layer.get_rect(), 2, border_radius=8)
            blit_lines(layer, fitted, TOAST_TEXT, center=layer.get_rect().center)
            layer.set_alpha(int(255 * min(1.0, seconds / 0.5)))
            surface.blit(layer, box)
            self.drawn_toasts.append((text, box))
            bottom = box.y - 6

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
