"""The title screen: the game's name over drifting sigils, and the main menu.

This module owns `TitleScene`: the menu (New run, Settings — greyed until the
settings issue —, Quit), its keyboard (Up/Down or W/S, Enter/Space, Esc quits)
and mouse (hover selects, left click activates) handling, and the animated
background. "New run" calls the `on_new_run(stack)` callback the scene was
built with (the caller pushes the next scene); Quit and Esc clear the stack,
which ends the app. Every string is an i18n key (`ui.title.*`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import pygame

from artificer.ui.i18n import tr
from artificer.ui.scene import Scene, SceneStack

NewRunCallback = Callable[[SceneStack], None]

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
SIGIL_COLOURS = ((150, 110, 255), (90, 200, 230), (240, 190, 110), (200, 120, 220))

SIGIL_COUNT = 16
SIGIL_SEED = 7  # Fixed so the screen looks the same every launch (and in screenshots).


@dataclass(frozen=True)
class MenuItem:
    """One menu line: its i18n key, and what it does (`None`: shown greyed, not selectable)."""

    key: str
    action: Callable[[], None] | None

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


def _font_path(bold: bool) -> Path | None:
    # pygame-gui ships Noto Sans; the later per-language font choice (DESIGN §7) will replace this.
    name = "NotoSans-Bold.ttf" if bold else "NotoSans-Regular.ttf"
    try:
        path = Path(str(resources.files("pygame_gui.data").joinpath(name)))
    except (ModuleNotFoundError, TypeError):
        return None
    return path if path.is_file() else None


def _load_font(size: int, bold: bool) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(_font_path(bold), size)


def _sigil_image(rng: random.Random, radius: int, colour: tuple[int, int, int]) -> pygame.Surface:
    """A circle with an inscribed star polygon and a few marks: a made-up arcane glyph."""
    size = radius * 2 + 4
    image = pygame.Surface((size, size), pygame.SRCALPHA)
    centre = pygame.Vector2(size / 2, size / 2)
    pygame.draw.circle(image, colour, centre, radius, 2)
    pygame.draw.circle(image, colour, centre, radius * 0.78, 1)
    sides = rng.choice((3, 5, 6, 7))
    turn = rng.uniform(0, math.tau)
    points = [
        centre + pygame.Vector2(radius * 0.78, 0).rotate_rad(turn + math.tau * i / sides) for i in range(sides)
    ]
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


def _vertical_gradient(size: tuple[int, int], top: tuple[int, int, int], bottom: tuple[int, int, int]) -> pygame.Surface:
    # A 1×2 surface smoothscaled to the screen gives a smooth gradient with no per-row Python loop.
    seed = pygame.Surface((1, 2))
    seed.set_at((0, 0), top)
    seed.set_at((0, 1), bottom)
    return pygame.transform.smoothscale(seed, size)


class TitleScene(Scene):
    """The first screen: title, tagline and the main menu over a slow animated background."""

    def __init__(self, on_new_run: NewRunCallback | None = None) -> None:
        """`on_new_run(stack)` is called when the player picks New run (None: the item is greyed)."""
        self._on_new_run = on_new_run
        self._stack: SceneStack | None = None
        self.items: tuple[MenuItem, ...] = (
            MenuItem("ui.title.new_run", self._new_run if on_new_run is not None else None),
            MenuItem("ui.title.settings", None),
            MenuItem("ui.title.quit", self._quit),
        )
        self.selected = self._first_enabled()
        self._time = 0.0
        self._last_dt = 0.0
        self._item_rects: list[pygame.Rect] = []
        self._sigils: list[_Sigil] | None = None
        self._background: pygame.Surface | None = None
        self._title_cache: tuple[int, pygame.Surface] | None = None
        # Per scene, not per module: a Font dies with pygame.quit(), and tests init and quit pygame often.
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}

    # --- lifecycle ---------------------------------------------------------------

    def on_enter(self, stack: SceneStack) -> None:
        self._stack = stack

    # --- input -------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_UP, pygame.K_w):
                self._move_selection(-1)
            elif event.key in (pygame.K_DOWN, pygame.K_s):
                self._move_selection(+1)
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.activate(self.selected)
            elif event.key == pygame.K_ESCAPE:
                self._quit()
            else:
                return event
            return None
        if event.type == pygame.MOUSEMOTION:
            index = self._item_at(event.pos)
            if index is not None and self.items[index].enabled:
                self.selected = index
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            index = self._item_at(event.pos)
            if index is not None and self.items[index].enabled:
                self.selected = index
                self.activate(index)
            return None
        return event

    def activate(self, index: int) -> None:
        """Run menu item `index`'s action (nothing for a greyed item)."""
        action = self.items[index].action
        if action is not None:
            action()

    def _first_enabled(self) -> int:
        return next((i for i, item in enumerate(self.items) if item.enabled), 0)

    def _move_selection(self, direction: int) -> None:
        count = len(self.items)
        index = self.selected
        for _ in range(count):
            index = (index + direction) % count
            if self.items[index].enabled:
                self.selected = index
                return

    def _item_at(self, position: tuple[int, int]) -> int | None:
        for index, rect in enumerate(self._item_rects):
            if rect.collidepoint(position):
                return index
        return None

    def _new_run(self) -> None:
        if self._on_new_run is not None and self._stack is not None:
            self._on_new_run(self._stack)

    def _quit(self) -> None:
        if self._stack is not None:
            self._stack.clear()

    # --- simulation -----------------------------------------------------------------

    def update(self, dt: float) -> None:
        self._time += dt
        self._last_dt = dt

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

        tagline = self._font(unit, False).render(tr("ui.title.tagline"), True, TAGLINE)
        surface.blit(tagline, tagline.get_rect(midtop=(width // 2, title_rect.bottom - unit // 2)))

        self._draw_menu(surface, unit, int(height * 0.54), now)

        hint = self._font(max(10, unit * 3 // 4), False).render(tr("ui.title.controls_hint"), True, HINT)
        surface.blit(hint, hint.get_rect(midbottom=(width // 2, height - unit)))

    def _font(self, size: int, bold: bool = False) -> pygame.font.Font:
        font = self._fonts.get((size, bold))
        if font is None:
            font = self._fonts[(size, bold)] = _load_font(size, bold)
        return font

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
        if self._title_cache is not None and self._title_cache[0] == size:
            return self._title_cache[1]
        font = self._font(size, True)
        text = tr("ui.title.game_name")
        letters = font.render(text, True, TITLE_GOLD)
        pad = size // 2
        image = pygame.Surface((letters.get_width() + 2 * pad, letters.get_height() + 2 * pad), pygame.SRCALPHA)
        glow = font.render(text, True, TITLE_GLOW)
        image.blit(glow, (pad, pad))
        image = pygame.transform.gaussian_blur(image, max(2, size // 6))
        image.blit(glow, (pad, pad), special_flags=pygame.BLEND_RGBA_MAX)
        image.blit(letters, (pad, pad - max(1, size // 40)))
        self._title_cache = (size, image)
        return image

    def _draw_menu(self, surface: pygame.Surface, unit: int, top: int, now: float) -> None:
        width = surface.get_width()
        font = self._font(int(unit * 1.5), False)
        small = self._font(max(10, unit * 3 // 4), False)
        line_height = int(unit * 2.6)
        bar_width = unit * 16
        self._item_rects = []
        for index, item in enumerate(self.items):
            centre_y = top + index * line_height
            bar = pygame.Rect(0, 0, bar_width, int(line_height * 0.8))
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
                    cx = width // 2 + side * (bar_width // 2 - unit)
                    r = unit // 3
                    diamond = [(cx, centre_y - r), (cx + r, centre_y), (cx, centre_y + r), (cx - r, centre_y)]
                    pygame.draw.polygon(surface, TITLE_GOLD, diamond)
            colour = ITEM_SELECTED if selected else ITEM_TEXT if item.enabled else ITEM_DISABLED
            label = font.render(tr(item.key), True, colour)
            if item.enabled:
                surface.blit(label, label.get_rect(center=bar.center))
            else:
                note = small.render(tr("ui.title.coming_later"), True, ITEM_DISABLED)
                gap = unit // 2
                total = label.get_width() + gap + note.get_width()
                left = width // 2 - total // 2
                surface.blit(label, label.get_rect(midleft=(left, centre_y)))
                surface.blit(note, note.get_rect(midleft=(left + label.get_width() + gap, centre_y + unit // 6)))
