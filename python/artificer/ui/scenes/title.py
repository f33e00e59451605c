"""The title screen: the game's name over drifting sigils, the main menu, and notices.

This module owns `TitleScene`: the menu — New run, Continue, the declared
scenes' lines (Settings), Quit —, its input and the animated background, and
`QuitConfirm`, the small dialog Quit opens while a run is saved. Keyboard:
Up/Down (or the bound movement keys) choose, Enter/Space confirm, Esc quits;
with `Controls`, a gamepad's stick/d-pad and A work too. The menu does not
wrap: Up on the first item and Down on the last stay put, so a held key never
lands on Quit. Mouse: hover selects, left click activates. "New run" calls
`on_new_run(stack)` (the caller pushes the next scene); "Continue" calls
`on_continue(stack)` and is greyed unless both that callback exists and a run
is saved (`storage.data_dir()/run.json`, R-SAVE-1) — when it is enabled the
cursor starts on it (also when a run was just saved and the player is back on
the title). The lines between are built from the scenes that declare a
`TitleEntry` (`artificer.ui.scene_registry`: Settings today), placed by their
`order` among the title's own (`NEW_RUN`, `CONTINUE`, `QUIT`); choosing one
pushes that scene through the router by name — the window's router, or
without one (a title built on its own) a router of the declared scenes over
the given settings, sound bank and controls (the settings loaded from disk on
first use when none were given). Quit and Esc clear the stack, which ends the
app — while a run is saved they first ask (`QuitConfirm`, Cancel first),
although quitting loses nothing: the shop writes run.json after every change
and the run is settled between waves, so Continue picks it up. Text is drawn
with `artificer.ui.fonts.font`, so CJK titles render; every string is an i18n
key (`ui.title.*`). Notices (a settings file or a save that could not be
used: the file kept aside and why) show as toasts at the top, one after
another, wrapped onto up to three lines.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import pygame

from artificer.content import load_content
from artificer.game.meta import CURSED_WAVES, load_meta
from artificer.game.save import run_save_path
from artificer.ui import settings as settings_file
from artificer.ui.controls import Controls
from artificer.ui.fonts import font
from artificer.ui.i18n import catalog, tr
from artificer.ui.router import SceneRouter
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.scene_registry import SCENES, SceneKit, SceneRegistry, TitleEntry
from artificer.ui.session import Session
from artificer.ui.settings import Action, Context, Settings
from artificer.ui.sound import SoundBank
from artificer.ui.widgets import blit_lines, draw_fitted, fit_lines

NewRunCallback = Callable[[SceneStack], None]
#: R-END-2: `on_new_run_ng_plus(stack, level)` starts a run at New Game+ `level`.
NgPlusCallback = Callable[[SceneStack, int], None]
#: R-END-5: practice from a milestone wave (the wave).
PracticeCallback = Callable[[SceneStack, int], None]
ContinueCallback = Callable[[SceneStack], None]

NOTICE_SECONDS = 7.0
NOTICE_FADE = 0.6

# Palette: night-indigo background, candle-gold title, arcane violet/cyan accents.
SKY_TOP = (24, 16, 46)
SKY_BOTTOM = (6, 5, 14)
TITLE_GOLD = (242, 214, 140)
TITLE_GLOW = (150, 90, 255)
TAGLINE = (170, 160, 210)
ITEM_TEXT = (214, 210, 236)
ITEM_SELECTED = (255, 240, 200)
ITEM_DISABLED = (92, 88, 112)
HIGHLIGHT = (120, 80, 220)
HINT = (120, 114, 150)
NOTICE_BG = (60, 24, 16)
NOTICE_EDGE = (255, 138, 61)
NOTICE_TEXT = (255, 224, 200)
SIGIL_COLOURS = ((150, 110, 255), (90, 200, 230), (240, 190, 110), (200, 120, 220))

SIGIL_COUNT = 16
SIGIL_SEED = 7  # Fixed so the screen looks the same every launch (and in screenshots).

#: The title's own lines and their places; a declared scene's `TitleEntry.order` puts its line among
#: them (Settings: 300). Hundreds apart, so a new line slots in without renumbering.
NEW_RUN = TitleEntry("ui.title.new_run", order=100)
CONTINUE = TitleEntry("ui.title.continue", order=200, needs_run_save=True)
QUIT = TitleEntry("ui.title.quit", order=900)
#: R-END-2: once a clear unlocked it, a new run at the highest New Game+ level unlocked (meta.json).
NG_PLUS = TitleEntry("ui.title.new_run_ng_plus", order=150)
#: R-META-1: once bought with aether, a new run in the cursed-waves challenge mode.
CURSED = TitleEntry("ui.title.new_run_cursed", order=160)
#: R-END-5: once a milestone is reached, practice from that wave (left / right choose which).
PRACTICE = TitleEntry("ui.title.practice", order=170)


@dataclass(frozen=True)
class MenuItem:
    """One menu line: its i18n key, and what it does (`None`: shown greyed, not selectable)."""

    key: str
    action: Callable[[], None] | None
    note: str = "ui.title.coming_later"  # Shown beside the item while it is greyed.
    #: The values its label formats with (NG+'s level).
    values: tuple[tuple[str, int], ...] = ()
    #: Left / right on the line change its value (NG+'s level): called with -1 or +1 (None: fixed).
    adjust: Callable[[int], None] | None = None

    @property
    def label(self) -> str:
        return tr(self.key, **dict(self.values))

    @property
    def enabled(self) -> bool:
        return self.action is not None


@dataclass(frozen=True)
class _Sigil:
    image: pygame.Surface
    x: float  # Start position, as a fraction of the screen.
    y: float
    drift_x: float  # Fractions of the screen per second.
    drift_y: float
    sway: float  # Horizontal sway amplitude (fraction of the screen) and phase.
    phase: float
    base_alpha: int


def _sigil_image(rng: random.Random, radius: int, colour: tuple[int, int, int]) -> pygame.Surface:
    """A circle with an inscribed star polygon and a few marks: a made-up arcane glyph."""
    size = radius * 2 + 4
    image = pygame.Surface((size, size), pygame.SRCALPHA)
    centre = pygame.Vector2(size / 2, size / 2)
    pygame.draw.circle(image, colour, centre, radius, 2)
    pygame.draw.circle(image, colour, centre, radius * 0.78, 1)
    sides = rng.choice((3, 5, 6, 7))
    turn = rng.uniform(0, math.tau)
    points = [centre + pygame.Vector2(radius * 0.78, 0).rotate_rad(turn + math.tau * i / sides) for i in range(sides)]
    step = 2 if sides in (5, 7) else 1  # Odd counts make a star, the others a polygon.
    for i in range(sides):
        pygame.draw.aaline(image, colour, points[i], points[(i + step) % sides])
    for point in points:
        pygame.draw.circle(image, colour, point, max(2, radius // 12))
    for _ in range(rng.randint(2, 4)):
        angle = rng.uniform(0, math.tau)
        inner = centre + pygame.Vector2(radius * 0.2, 0).rotate_rad(angle)
        outer = centre + pygame.Vector2(radius * 0.6, 0).rotate_rad(angle)
        pygame.draw.aaline(image, colour, inner, outer)
    return image


def _make_sigils() -> list[_Sigil]:
    rng = random.Random(SIGIL_SEED)
    sigils = []
    for index in range(SIGIL_COUNT):
        radius = rng.randint(18, 46)
        sigils.append(
            _Sigil(
                image=_sigil_image(rng, radius, SIGIL_COLOURS[index % len(SIGIL_COLOURS)]),
                x=rng.random(),
                y=rng.random(),
                drift_x=rng.uniform(-0.004, 0.004),
                drift_y=-rng.uniform(0.008, 0.02),
                sway=rng.uniform(0.005, 0.02),
                phase=rng.uniform(0, math.tau),
                base_alpha=rng.randint(28, 70),
            )
        )
    return sigils


def _vertical_gradient(
    size: tuple[int, int], top: tuple[int, int, int], bottom: tuple[int, int, int]
) -> pygame.Surface:
    # A 1×2 surface smoothscaled to the screen gives a smooth gradient with no per-row Python loop.
    seed = pygame.Surface((1, 2))
    seed.set_at((0, 0), top)
    seed.set_at((0, 1), bottom)
    return pygame.transform.smoothscale(seed, size)


class TitleScene(Scene):
    """The first screen: title, tagline and the main menu over a slow animated background."""

    music = "title"  # R-FEEL-1; the settings screen over it keeps it playing.

    def __init__(
        self,
        on_new_run: NewRunCallback | None = None,
        *,
        on_continue: ContinueCallback | None = None,
        on_new_run_ng_plus: NgPlusCallback | None = None,
        on_new_run_cursed: NewRunCallback | None = None,
        on_practice: PracticeCallback | None = None,
        milestones: Sequence[int] = (),
        settings: Settings | None = None,
        sound_bank: SoundBank | None = None,
        controls: Controls | None = None,
        notices: Sequence[str] = (),
        router: SceneRouter | None = None,
        scenes: SceneRegistry = SCENES,
    ) -> None:
        """`on_new_run(stack)` / `on_continue(stack)` start or resume a run (None: the item is greyed).

        `settings` are the shared settings the Settings item edits (None: loaded
        from disk when first needed); `sound_bank` and `controls` are handed to
        the settings screen (volumes and gamepads apply at once); `notices` are
        messages for the player, shown as toasts (e.g. `SettingsLoad.notice()`).
        `scenes` declare the menu's other lines; `router` builds them by name
        (None: a router of `scenes` over these settings, sound bank and
        controls, made when a line is first chosen).
        """
        self._on_new_run = on_new_run
        self._on_continue = on_continue
        self._on_new_run_ng_plus = on_new_run_ng_plus
        self._on_new_run_cursed = on_new_run_cursed
        self._on_practice = on_practice
        #: R-END-5: the content's milestone waves (practice starts only at one of them, once reached).
        self._milestones = frozenset(milestones)
        #: R-END-2: the NG+ level the line offers (None: the highest unlocked); left / right choose a lower one.
        self._ng_plus_level: int | None = None
        #: R-END-5: the milestone wave the practice line offers (None: the highest reached).
        self._practice_wave: int | None = None
        self._router = router
        self._scenes = scenes
        self.settings = settings
        self.sound_bank = sound_bank
        self.controls = controls
        #: What reads the keys: `controls`, or without them the default bindings.
        self._keys = controls if controls is not None else Controls(settings if settings is not None else Settings())
        self.notices: list[str] = [notice for notice in notices if notice]
        self._notice_time = 0.0
        self._stack: SceneStack | None = None
        self.items: tuple[MenuItem, ...] = ()
        self._refresh_items()
        self.selected = self._continue_index() if self._can_continue() else self._first_enabled()
        self._time = 0.0
        self._last_dt = 0.0
        self._item_rects: list[pygame.Rect] = []
        self._sigils: list[_Sigil] | None = None
        self._background: pygame.Surface | None = None
        self._title_cache: tuple[int, str, pygame.Surface] | None = None

    # --- lifecycle ---------------------------------------------------------------

    def on_enter(self, stack: SceneStack) -> None:
        self._stack = stack

    def on_resume(self) -> None:
        # Back from a run (a save may now exist) or from the settings (the language may have changed).
        could_continue = self._can_continue()
        self._refresh_items()
        if self._can_continue() and not could_continue:
            self.selected = self._continue_index()  # A run was just saved: offer to go on with it.
        elif not self.items[self.selected].enabled:
            self.selected = self._first_enabled()

    def _can_continue(self) -> bool:
        return any(item.key == "ui.title.continue" and item.enabled for item in self.items)

    def _continue_index(self) -> int:
        return next(i for i, item in enumerate(self.items) if item.key == "ui.title.continue")

    def _refresh_items(self) -> None:
        # Anything at run.json's path (a directory, a link to nothing too): Continue sets a bad file
        # aside, or leaves what is not a file as it is (R-SAVE-2), and says why.
        saved = run_save_path().exists() or run_save_path().is_symlink()
        lines = [
            (NEW_RUN, MenuItem(NEW_RUN.key, self._new_run if self._on_new_run is not None else None)),
            (
                CONTINUE,
                MenuItem(
                    CONTINUE.key,
                    self._continue if saved and self._on_continue is not None else None,
                    "ui.title.coming_later" if self._on_continue is None else "ui.title.no_saved_run",
                ),
            ),
            (QUIT, MenuItem(QUIT.key, self._quit)),
        ]
        meta = load_meta().meta
        unlocked = meta.ng_plus_unlocked if self._on_new_run_ng_plus is not None else 0
        if CURSED_WAVES in meta.unlocked and self._on_new_run_cursed is not None:
            lines.append((CURSED, MenuItem(CURSED.key, self._new_run_cursed)))
        waves = meta.practice_waves(self._milestones) if self._on_practice is not None else []
        if waves:
            wave = self._practice_wave if self._practice_wave in waves else waves[-1]
            start_practice = partial(self._practice, wave)
            choose = partial(self._choose_practice, waves, wave) if len(waves) > 1 else None
            lines.append((PRACTICE, MenuItem(PRACTICE.key, start_practice, values=(("wave", wave),), adjust=choose)))
        if unlocked > 0:
            level = min(max(1, self._ng_plus_level or unlocked), unlocked)
            start = partial(self._new_run_ng_plus, level)
            adjust = partial(self._choose_ng_plus, level, unlocked) if unlocked > 1 else None
            lines.append((NG_PLUS, MenuItem(NG_PLUS.key, start, values=(("level", level),), adjust=adjust)))
        for declared in self._scenes.title_entries():
            entry = declared.title
            assert entry is not None  # title_entries() holds the declarations with one
            if entry.needs_a_finished_run and meta.runs == 0:
                continue
            opens = partial(self._open, declared.name) if saved or not entry.needs_run_save else None
            lines.append((entry, MenuItem(entry.key, opens, "ui.title.no_saved_run")))
        places = [entry.order for entry, _ in lines]
        if len(set(places)) != len(places):
            raise ValueError(f"two title lines share a place: {sorted((e.order, e.key) for e, _ in lines)}")
        self.items = tuple(item for _, item in sorted(lines, key=lambda line: line[0].order))

    def toast(self, text: str) -> None:
        """Show `text` at the top of the screen for a few seconds (after any notice already showing)."""
        self.notices.append(text)

    # --- input -------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if event.type == pygame.MOUSEMOTION:
            index = self._item_at(event.pos)
            if index is not None and self.items[index].enabled:
                self.selected = index
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            index = self._item_at(event.pos)
            if index is not None and self.items[index].enabled:
                self.selected = index
                step = self._arrow_at(index, event.pos)
                if step:
                    self.adjust(index, step)
                else:
                    self.activate(index)
            return None
        action = self._keys.handle(event, Context.MENU)
        if action is Action.MOVE_UP:
            self._move_selection(-1)
        elif action is Action.MOVE_DOWN:
            self._move_selection(+1)
        elif action is Action.CONFIRM:
            self.activate(self.selected)
        elif action in (Action.MOVE_LEFT, Action.MOVE_RIGHT):
            self.adjust(self.selected, -1 if action is Action.MOVE_LEFT else +1)
        elif event.type == pygame.KEYDOWN and action is Action.BACK:
            self._quit()  # Esc (or the back key) quits; a gamepad's B does not (too easy to press by accident).
        elif event.type == pygame.KEYDOWN and action is None:
            return event
        return None

    def activate(self, index: int) -> None:
        """Run menu item `index`'s action (nothing for a greyed item)."""
        action = self.items[index].action
        if action is not None:
            action()

    def adjust(self, index: int, step: int) -> None:
        """Change menu item `index`'s value by `step` (nothing for a fixed item)."""
        adjust = self.items[index].adjust
        if adjust is not None:
            adjust(step)

    def _choose_ng_plus(self, level: int, unlocked: int, step: int) -> None:
        self._ng_plus_level = min(max(1, level + step), unlocked)
        self._refresh_items()

    def _choose_practice(self, waves: list[int], wave: int, step: int) -> None:
        self._practice_wave = waves[min(max(0, waves.index(wave) + step), len(waves) - 1)]
        self._refresh_items()

    def _first_enabled(self) -> int:
        return next((i for i, item in enumerate(self.items) if item.enabled), 0)

    def _move_selection(self, direction: int) -> None:
        """The next enabled item in `direction`; none past the ends (the menu does not wrap onto Quit)."""
        index = self.selected + direction
        while 0 <= index < len(self.items):
            if self.items[index].enabled:
                self.selected = index
                return
            index += direction

    def _arrow_at(self, index: int, position: tuple[int, int]) -> int:
        """-1 or +1 when `position` is on an adjustable line's left or right arrow (its outer sixths), else 0."""
        rect = self._item_rects[index]
        if self.items[index].adjust is None:
            return 0
        if position[0] < rect.x + rect.width // 6:
            return -1
        if position[0] >= rect.right - rect.width // 6:
            return +1
        return 0

    def _item_at(self, position: tuple[int, int]) -> int | None:
        for index, rect in enumerate(self._item_rects):
            if rect.collidepoint(position):
                return index
        return None

    def _new_run(self) -> None:
        if self._on_new_run is not None and self._stack is not None:
            self._on_new_run(self._stack)

    def _new_run_ng_plus(self, level: int) -> None:
        if self._on_new_run_ng_plus is not None and self._stack is not None:
            self._on_new_run_ng_plus(self._stack, level)

    def _new_run_cursed(self) -> None:
        if self._on_new_run_cursed is not None and self._stack is not None:
            self._on_new_run_cursed(self._stack)

    def _practice(self, wave: int) -> None:
        if self._on_practice is not None and self._stack is not None:
            self._on_practice(self._stack, wave)

    def _continue(self) -> None:
        if self._on_continue is not None and self._stack is not None:
            self._on_continue(self._stack)
            # A save that could not be used was set aside (R-SAVE-1): Continue greys out.
            self.on_resume()

    def _open(self, name: str) -> None:
        """A declared scene over the title, built by the router from its name."""
        if self._stack is None:
            return
        router = self._router if self._router is not None else self._own_router()
        router.attach(self._stack)
        router.push(name)

    def _own_router(self) -> SceneRouter:
        """A title built on its own: a router of the declared scenes over the title's settings (loaded
        from disk now when none were given; a corrupt file is toasted), sound bank and controls."""
        if self.settings is None:
            loaded = settings_file.load()
            self.settings = loaded.settings
            notice = loaded.notice()
            if notice:
                self.toast(notice)
        controls = self.controls if self.controls is not None else Controls(self.settings)
        router = SceneRouter()
        self._scenes.register_all(router, SceneKit(Session(self.settings, controls, self.sound_bank), load_content()))
        self._router = router
        return router

    def _quit(self) -> None:
        if self._stack is None:
            return
        if run_save_path().is_file():
            self._stack.push(QuitConfirm(self._stack.clear, controls=self.controls))
        else:
            self._stack.clear()

    # --- simulation -----------------------------------------------------------------

    def update(self, dt: float) -> None:
        self._time += dt
        self._last_dt = dt
        if self.notices:
            self._notice_time += dt
            if self._notice_time >= NOTICE_SECONDS:
                self.notices.pop(0)
                self._notice_time = 0.0

    # --- drawing --------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        width, height = surface.get_size()
        now = self._time + alpha * self._last_dt
        if self._background is None or self._background.get_size() != (width, height):
            self._background = _vertical_gradient((width, height), SKY_TOP, SKY_BOTTOM)
        surface.blit(self._background, (0, 0))
        self._draw_sigils(surface, now)

        unit = max(8, min(width, height * 16 // 9) // 64)  # ~20 px at 1280×720; scales with the window.
        title = self._title_image(unit * 4)
        title_rect = title.get_rect(center=(width // 2, int(height * 0.27)))
        surface.blit(title, title_rect)

        tagline = font(unit).render(tr("ui.title.tagline"), True, TAGLINE)
        tagline_rect = tagline.get_rect(midtop=(width // 2, title_rect.bottom - unit // 2))
        surface.blit(tagline, tagline_rect)

        # A long menu (modes and screens earned) starts higher, up to just under the tagline.
        needed = len(self.items) * int(unit * 1.6) + int(unit * 2.8)
        top = max(tagline_rect.bottom + int(unit * 1.6), min(int(height * 0.54), height - needed + unit))
        self._draw_menu(surface, unit, top, now)

        hint = font(max(10, unit * 3 // 4)).render(tr("ui.title.controls_hint"), True, HINT)
        surface.blit(hint, hint.get_rect(midbottom=(width // 2, height - unit)))
        self._draw_notice(surface, unit)

    def _draw_notice(self, surface: pygame.Surface, unit: int) -> None:
        if not self.notices:
            return
        left = NOTICE_SECONDS - self._notice_time
        fade = min(1.0, self._notice_time / NOTICE_FADE, left / NOTICE_FADE)
        pad = unit // 2
        # A set-aside file's notice names the file and the reason (R-SAVE-1): wrapped, up to 3 lines.
        fitted = fit_lines(self.notices[0], max(10, unit * 4 // 5), False, surface.get_width() - 2 * unit - 2 * pad, 3)
        box = pygame.Rect(0, 0, fitted.width + 2 * pad, fitted.height + pad)
        box.midtop = (surface.get_width() // 2, unit)
        toast = pygame.Surface(box.size, pygame.SRCALPHA)
        toast.fill((*NOTICE_BG, 230))
        pygame.draw.rect(toast, NOTICE_EDGE, toast.get_rect(), 1, unit // 3)
        blit_lines(toast, fitted, NOTICE_TEXT, center=toast.get_rect().center)
        toast.set_alpha(int(255 * max(0.0, fade)))
        surface.blit(toast, box)

    def _draw_sigils(self, surface: pygame.Surface, now: float) -> None:
        if self._sigils is None:
            self._sigils = _make_sigils()
        width, height = surface.get_size()
        for sigil in self._sigils:
            margin_x = sigil.image.get_width() / width
            margin_y = sigil.image.get_height() / height
            # Wrap over a slightly larger field so sigils leave and enter fully off screen.
            x = (sigil.x + sigil.drift_x * now + sigil.sway * math.sin(now * 0.3 + sigil.phase)) % (1 + 2 * margin_x)
            y = (sigil.y + sigil.drift_y * now) % (1 + 2 * margin_y)
            pulse = 0.75 + 0.25 * math.sin(now * 0.8 + sigil.phase)
            sigil.image.set_alpha(int(sigil.base_alpha * pulse))
            surface.blit(sigil.image, ((x - margin_x) * width, (y - margin_y) * height))

    def _title_image(self, size: int) -> pygame.Surface:
        language = catalog().language
        if self._title_cache is not None and self._title_cache[:2] == (size, language):
            return self._title_cache[2]
        title_font = font(size, bold=True)
        text = tr("ui.title.game_name")
        letters = title_font.render(text, True, TITLE_GOLD)
        pad = size // 2
        image = pygame.Surface((letters.get_width() + 2 * pad, letters.get_height() + 2 * pad), pygame.SRCALPHA)
        glow = title_font.render(text, True, TITLE_GLOW)
        image.blit(glow, (pad, pad))
        image = pygame.transform.gaussian_blur(image, max(2, size // 6))
        image.blit(glow, (pad, pad), special_flags=pygame.BLEND_RGBA_MAX)
        image.blit(letters, (pad, pad - max(1, size // 40)))
        self._title_cache = (size, language, image)
        return image

    def _draw_menu(self, surface: pygame.Surface, unit: int, top: int, now: float) -> None:
        width = surface.get_width()
        item_font = font(int(unit * 1.5))
        small = font(max(10, unit * 3 // 4))
        # The lines close up as the menu grows (modes and screens earned), to stay above the footer hint.
        room = surface.get_height() - int(unit * 2.8) - top
        line_height = max(int(unit * 1.6), min(int(unit * 2.6), room // max(1, len(self.items))))
        bar_width = unit * 16
        self._item_rects = []
        for index, item in enumerate(self.items):
            centre_y = top + index * line_height
            # A label longer than the bar (a mode's line) widens its bar, so the marks stay clear of it.
            bar = pygame.Rect(0, 0, max(bar_width, item_font.size(item.label)[0] + unit * 4), int(line_height * 0.8))
            bar.center = (width // 2, centre_y)
            self._item_rects.append(bar)
            selected = index == self.selected and item.enabled
            if selected:
                glow = 0.6 + 0.4 * math.sin(now * 3.0)
                highlight = pygame.Surface(bar.size, pygame.SRCALPHA)
                highlight.fill((*HIGHLIGHT, int(40 + 30 * glow)))
                pygame.draw.rect(highlight, (*HIGHLIGHT, int(120 + 80 * glow)), highlight.get_rect(), 1, unit // 3)
                surface.blit(highlight, bar)
                for side in (-1, 1):
                    cx = width // 2 + side * (bar.width // 2 - unit)
                    r = unit // 3
                    if item.adjust is not None:
                        # A value to choose (NG+'s level): arrows out to either side, as left / right change it.
                        r = unit // 2
                        arrow = [
                            (cx + side * r, centre_y),
                            (cx - side * r // 2, centre_y - r),
                            (cx - side * r // 2, centre_y + r),
                        ]
                        pygame.draw.polygon(surface, TITLE_GOLD, arrow)
                        continue
                    diamond = [(cx, centre_y - r), (cx + r, centre_y), (cx, centre_y + r), (cx - r, centre_y)]
                    pygame.draw.polygon(surface, TITLE_GOLD, diamond)
            colour = ITEM_SELECTED if selected else ITEM_TEXT if item.enabled else ITEM_DISABLED
            label = item_font.render(item.label, True, colour)
            if item.enabled:
                surface.blit(label, label.get_rect(center=bar.center))
            else:
                note = small.render(tr(item.note), True, ITEM_DISABLED)
                gap = unit // 2
                total = label.get_width() + gap + note.get_width()
                left = width // 2 - total // 2
                surface.blit(label, label.get_rect(midleft=(left, centre_y)))
                surface.blit(note, note.get_rect(midleft=(left + label.get_width() + gap, centre_y + unit // 6)))


# --- the quit dialog --------------------------------------------------------------------------

DIALOG_DIM = (4, 3, 10, 205)  # The title behind the dialog, darkened so the question stands out.
DIALOG_FILL = (30, 22, 56)
DIALOG_EDGE = (150, 110, 255)
BUTTON_IDLE = (48, 38, 84)


class QuitConfirm(Scene):
    """ "Quit? Your run is saved…" with Quit and Cancel, over the title; Cancel (and Esc) is the default."""

    transparent = True
    CHOICES = ("ui.title.quit", "ui.title.cancel")

    def __init__(self, on_quit: Callable[[], None], *, controls: Controls | None = None) -> None:
        self._on_quit = on_quit
        self.controls = controls if controls is not None else Controls(Settings())
        self.selected = 1  # Cancel: a stray Enter keeps the player in the game.
        self._stack: SceneStack | None = None
        self._button_rects: list[pygame.Rect] = []

    def on_enter(self, stack: SceneStack) -> None:
        self._stack = stack

    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN):
            index = next((i for i, rect in enumerate(self._button_rects) if rect.collidepoint(event.pos)), None)
            if index is not None:
                self.selected = index
                if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                    self.choose(index)
            return None
        action = self.controls.handle(event, Context.MENU)
        if action in (Action.MOVE_LEFT, Action.MOVE_UP):
            self.selected = 0
        elif action in (Action.MOVE_RIGHT, Action.MOVE_DOWN):
            self.selected = 1
        elif action is Action.CONFIRM:
            self.choose(self.selected)
        elif action is Action.BACK:  # Esc always (Controls' fixed key in menus), or the back key
            self.choose(1)
        elif event.type == pygame.CONTROLLERBUTTONDOWN and event.button == pygame.CONTROLLER_BUTTON_B:
            self.choose(1)
        return None if event.type in (pygame.KEYDOWN, pygame.CONTROLLERBUTTONDOWN) else event

    def choose(self, index: int) -> None:
        """0: quit the game; 1: back to the title."""
        if self._stack is None:
            return
        if index == 0:
            self._on_quit()
        else:
            self._stack.pop()

    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        width, height = surface.get_size()
        unit = max(8, min(width, height * 16 // 9) // 64)
        shade = pygame.Surface((width, height), pygame.SRCALPHA)
        shade.fill(DIALOG_DIM)
        surface.blit(shade, (0, 0))
        box = pygame.Rect(0, 0, unit * 30, unit * 12)
        box.center = (width // 2, height // 2)
        pygame.draw.rect(surface, DIALOG_FILL, box, border_radius=unit // 2)
        pygame.draw.rect(surface, DIALOG_EDGE, box, 2, border_radius=unit // 2)
        inner = box.width - unit * 4
        question = draw_fitted(surface, tr("ui.title.quit_confirm"), int(unit * 1.5), True, TITLE_GOLD, inner,
                               midtop=(box.centerx, box.y + unit))  # fmt: skip
        draw_fitted(surface, tr("ui.title.quit_confirm_detail"), unit, False, ITEM_TEXT, inner, max_lines=2,
                    height=unit * 3, midtop=(box.centerx, question.bottom + unit // 2))  # fmt: skip
        self._button_rects = []
        button_width, gap = unit * 10, unit * 2
        left = box.centerx - button_width - gap // 2
        for index, key in enumerate(self.CHOICES):
            rect = pygame.Rect(left + index * (button_width + gap), box.bottom - unit * 5, button_width, unit * 3)
            self._button_rects.append(rect)
            selected = index == self.selected
            pygame.draw.rect(surface, HIGHLIGHT if selected else BUTTON_IDLE, rect, border_radius=unit // 3)
            pygame.draw.rect(surface, TITLE_GOLD if selected else DIALOG_EDGE, rect, 2, border_radius=unit // 3)
            draw_fitted(surface, tr(key), int(unit * 1.2), True, ITEM_SELECTED if selected else ITEM_TEXT,
                        rect.width - unit, center=rect.center)  # fmt: skip
        draw_fitted(surface, tr("ui.title.confirm_hint"), max(10, unit * 3 // 4), False, HINT, box.width - unit * 2,
                    midbottom=(box.centerx, box.bottom - unit * 2 // 3))  # fmt: skip
