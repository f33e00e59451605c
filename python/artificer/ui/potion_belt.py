"""The potion belt on screen (R-POT-2): five slots, a hover tooltip and the Use / Discard / Close menu.

This module owns `PotionBeltView`, shared by the arena's HUD and the shop: where
the slots are (40×40, 44 px apart, anchored by the caller), how they look
(a potion's glyph, `artificer.ui.icons_potions`; an empty slot dark; slots 4–5
darker with a padlock while the Artisan's Belt is missing; the slot's key in
its corner), the tooltip of the hovered slot (seed 000's box: 260 wide, the
name and the description, here with the effect and its value, placed under
its slot and kept on screen), the menu a click (or a potion key, or the
gamepad) opens on a slot, and what a click hits. In the arena an open menu
closes by itself after `MENU_TIMEOUT` seconds untouched (`tick`; the
cursor resting on the menu or its slot holds it), so it is never left open
for the rest of a wave; the arena also closes it when a wave ends. It also turns the game's
answers into toasts (`drink`, `throw_away`): the rules are
`artificer.game.potions`'.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import pygame

from artificer.content.potions import HUD_SLOTS, Potion
from artificer.game.potions import EmptySlot, NoTarget, NotInWave, PotionBelt, turn_seconds
from artificer.game.run import Run, WaveInProgress
from artificer.ui.fonts import font
from artificer.ui.i18n import tr
from artificer.ui.icons_potions import LIQUID, potion_icon
from artificer.ui.shop_widgets import padlock
from artificer.ui.widgets import BUTTON_EDGE, BUTTON_FILL, BUTTON_HOVER, wrap

#: i18n keys built from data: potion names and descriptions (potions.json), effect lines by effect.
I18N_DYNAMIC_PREFIXES = ("potion.", "ui.potion.effect.")

Colour = tuple[int, int, int]
MenuButton = Literal["use", "discard", "close"]
MENU_BUTTONS: tuple[MenuButton, ...] = ("use", "discard", "close")
BUTTON_KEYS: dict[MenuButton, str] = {
    "use": "ui.potion.use",
    "discard": "ui.potion.discard",
    "close": "ui.potion.close",
}

SLOT_SIZE = 40
SLOT_PITCH = 44
TOOLTIP_WIDTH = 260
TOOLTIP_MIN_HEIGHT = 72
SLOT_FILL = (30, 26, 48, 255)
SLOT_EDGE = (120, 108, 170)
LOCKED_FILL = (12, 10, 18, 230)
LOCKED_EDGE = (58, 52, 78)
KEY_COLOUR = (200, 194, 225)
TEXT = (236, 232, 250)
DIM = (160, 154, 190)
VALUE_COLOUR = (240, 228, 66)
OPEN_EDGE = (242, 214, 140)
#: The tooltip's and menu's box: nearly opaque, so the shop's shelves do not show through.
BOX_FILL = (10, 8, 20, 250)
#: An open menu left untouched this long closes (long enough to read it and reach for the key again).
MENU_TIMEOUT = 4.0


@dataclass(frozen=True)
class Hit:
    """What a click landed on: a slot, or a button of the open menu."""

    slot: int
    button: MenuButton | None = None


def potion_lines(run: Run, potion: Potion) -> list[tuple[str, Colour]]:
    """The tooltip's lines: name (in the potion's colour), description, effect and value."""
    seconds = potion.value * turn_seconds(run)
    colour = LIQUID.get(potion.icon, TEXT)
    name_colour = colour if sum(colour) > 300 else TEXT
    return [
        (tr(potion.name), name_colour),
        (tr(potion.desc, value=potion.value), TEXT),
        (tr(f"ui.potion.effect.{potion.effect}", value=potion.value, seconds=seconds), VALUE_COLOUR),
    ]


def drink(run: Run, wave: WaveInProgress | None, index: int, target: tuple[float, float] | None) -> tuple[bool, str]:
    """Drinks slot `index` (R-POT-1/2); returns whether it was drunk and the toast to show."""
    belt = run.potions
    potion_id = belt.potion_at(index)
    try:
        belt.use(run, wave, index, target)
    except NotInWave:
        return False, tr("ui.potion.not_in_wave")
    except NoTarget:
        return False, tr("ui.potion.no_target")
    except EmptySlot:
        return False, tr("ui.potion.empty")
    assert potion_id is not None
    return True, tr("ui.potion.used", name=tr(belt.book.potion(potion_id).name))


def throw_away(run: Run, index: int) -> tuple[bool, str]:
    """Discards slot `index` (R-POT-2: any time); returns whether it did and the toast to show."""
    try:
        potion_id = run.potions.discard(index)
    except EmptySlot:
        return False, tr("ui.potion.empty")
    return True, tr("ui.potion.discarded", name=tr(run.potions.book.potion(potion_id).name))


class PotionBeltView:
    """The five slots at `topright` (or `topleft`), the hovered slot's tooltip, the open menu."""

    def __init__(self, scale: float = 1.0) -> None:
        self.scale = scale
        self.topright: tuple[int, int] | None = (1280 - 18, 50)
        self.topleft: tuple[int, int] | None = None
        #: The slot whose menu is open, and the menu's selected button (keyboard / gamepad).
        self.menu: int | None = None
        self.choice = 0
        self.buttons: list[pygame.Rect] = []
        #: Seconds the open menu has gone untouched, and where it was last drawn.
        self.idle = 0.0
        self.menu_rect: pygame.Rect | None = None

    # ---- geometry -----------------------------------------------------------------
    def px(self, length: float) -> int:
        return max(1, round(length * self.scale))

    def slot_rect(self, index: int) -> pygame.Rect:
        size, pitch = self.px(SLOT_SIZE), self.px(SLOT_PITCH)
        if self.topleft is not None:
            left, top = self.topleft
        else:
            right, top = self.topright or (0, 0)
            left = right - (HUD_SLOTS - 1) * pitch - size
        return pygame.Rect(left + index * pitch, top, size, size)

    @property
    def rect(self) -> pygame.Rect:
        """The belt's slots as one box."""
        return self.slot_rect(0).union(self.slot_rect(HUD_SLOTS - 1))

    def slot_at(self, position: tuple[int, int]) -> int | None:
        return next((index for index in range(HUD_SLOTS) if self.slot_rect(index).collidepoint(position)), None)

    def menu_box(self, surface_rect: pygame.Rect, height: int) -> pygame.Rect:
        """A box under the open (or hovered) slot, `TOOLTIP_WIDTH` wide, kept inside the window."""
        slot = self.slot_rect(self.menu if self.menu is not None else 0)
        box = pygame.Rect(0, 0, self.px(TOOLTIP_WIDTH), height)
        box.midtop = (slot.centerx, slot.bottom + self.px(6))
        return box.clamp(surface_rect)

    def hit(self, position: tuple[int, int]) -> Hit | None:
        """What a click at `position` lands on (the open menu's buttons first)."""
        if self.menu is not None:
            for name, rect in zip(MENU_BUTTONS, self.buttons):
                if rect.collidepoint(position):
                    return Hit(self.menu, name)
        slot = self.slot_at(position)
        return None if slot is None else Hit(slot)

    # ---- the menu -----------------------------------------------------------------------
    def open(self, index: int) -> None:
        self.menu = index
        self.choice = 0
        self.idle = 0.0

    def close(self) -> None:
        self.menu = None
        self.buttons = []
        self.menu_rect = None

    def step_choice(self, step: int) -> None:
        self.choice = (self.choice + step) % len(MENU_BUTTONS)
        self.idle = 0.0

    def tick(self, dt: float, mouse: tuple[int, int]) -> None:
        """Time passes: the open menu closes after `MENU_TIMEOUT` s untouched (the cursor on it holds it)."""
        if self.menu is None:
            return
        held = self.slot_rect(self.menu).collidepoint(mouse) or (
            self.menu_rect is not None and self.menu_rect.collidepoint(mouse)
        )
        self.idle = 0.0 if held else self.idle + dt
        if self.idle >= MENU_TIMEOUT:
            self.close()

    # ---- drawing ---------------------------------------------------------------------------
    def draw(
        self,
        surface: pygame.Surface,
        run: Run,
        mouse: tuple[int, int] = (-1, -1),
        keys: tuple[str, ...] = ("1", "2", "3", "4", "5"),
        in_wave: bool = True,
    ) -> None:
        """The slots; then the open menu, or else the hovered slot's tooltip."""
        belt = run.potions
        for index in range(HUD_SLOTS):
            self._slot(surface, belt, index, keys[index] if index < len(keys) else "", mouse)
        if self.menu is not None:
            potion_id = belt.potion_at(self.menu)
            if potion_id is None:
                self.close()
            else:
                self._menu(surface, run, belt.book.potion(potion_id), mouse, in_wave)
                return
        hovered = self.slot_at(mouse)
        if hovered is not None:
            self._tooltip(surface, run, belt, hovered)

    def _slot(self, surface: pygame.Surface, belt: PotionBelt, index: int, key: str, mouse: tuple[int, int]) -> None:
        rect = self.slot_rect(index)
        radius = self.px(6)
        layer = pygame.Surface(rect.size, pygame.SRCALPHA)
        locked = not belt.unlocked(index)
        pygame.draw.rect(layer, LOCKED_FILL if locked else SLOT_FILL, layer.get_rect(), border_radius=radius)
        surface.blit(layer, rect)
        if locked:
            pygame.draw.rect(surface, LOCKED_EDGE, rect, 1, border_radius=radius)
            padlock(surface, rect.inflate(-self.px(14), -self.px(14)), LOCKED_EDGE, True)
            return
        edge = OPEN_EDGE if self.menu == index else (TEXT if rect.collidepoint(mouse) else SLOT_EDGE)
        pygame.draw.rect(surface, edge, rect, 2 if self.menu == index else 1, border_radius=radius)
        potion_id = belt.held[index]
        if potion_id is not None:
            potion_icon(
                surface,
                belt.book.potion(potion_id).icon,
                (rect.centerx + self.px(2), rect.centery + self.px(2)),
                self.px(16),
            )
        if key:
            label = font(max(9, self.px(11)), bold=True).render(key.upper(), True, KEY_COLOUR)
            surface.blit(label, label.get_rect(topleft=(rect.x + self.px(3), rect.y + self.px(1))))

    def _box(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        layer = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.rect(layer, BOX_FILL, layer.get_rect(), border_radius=self.px(8))
        pygame.draw.rect(layer, BUTTON_EDGE, layer.get_rect(), 1, border_radius=self.px(8))
        surface.blit(layer, box)

    def _text_lines(self, lines: list[tuple[str, Colour]]) -> list[tuple[pygame.Surface, int]]:
        """Each line wrapped to the box; the first (the name) bold and larger. Returns (image, gap after)."""
        images: list[tuple[pygame.Surface, int]] = []
        width = self.px(TOOLTIP_WIDTH - 20)
        for number, (text, colour) in enumerate(lines):
            face = font(self.px(17), bold=True) if number == 0 else font(self.px(14))
            parts = wrap(text, face, width, 3)
            for part_number, part in enumerate(parts):
                gap = self.px(4) if part_number == len(parts) - 1 else 0
                images.append((face.render(part, True, colour), gap))
        return images

    def _tooltip(self, surface: pygame.Surface, run: Run, belt: PotionBelt, index: int) -> None:
        """Seed 000's TooltipBox: 260 wide (at least 72 high) under the slot: name, description, value."""
        potion_id = belt.held[index]
        if not belt.unlocked(index):
            lines: list[tuple[str, Colour]] = [(tr("ui.potion.locked"), DIM)]
        elif potion_id is None:
            lines = [(tr("ui.potion.empty"), DIM)]
        else:
            lines = potion_lines(run, belt.book.potion(potion_id))
        images = self._text_lines(lines)
        pad = self.px(10)
        height = max(
            self.px(TOOLTIP_MIN_HEIGHT) if potion_id is not None else 0,
            2 * pad + sum(i.get_height() + g for i, g in images),
        )
        slot = self.slot_rect(index)
        box = pygame.Rect(0, 0, self.px(TOOLTIP_WIDTH), height)
        box.midtop = (slot.centerx, slot.bottom + self.px(6))
        box = box.clamp(surface.get_rect())
        self._box(surface, box)
        y = box.y + pad
        for image, gap in images:
            surface.blit(image, (box.x + pad, y))
            y += image.get_height() + gap

    def _menu(self, surface: pygame.Surface, run: Run, potion: Potion, mouse: tuple[int, int], in_wave: bool) -> None:
        """Seed 000's PotionMenu: the potion's name and description, then Use / Discard / Close."""
        images = self._text_lines(potion_lines(run, potion))
        pad, button_height = self.px(10), self.px(30)
        height = 2 * pad + sum(i.get_height() + g for i, g in images) + self.px(6) + button_height
        box = self.menu_box(surface.get_rect(), height)
        self.menu_rect = box
        self._box(surface, box)
        y = box.y + pad
        for image, gap in images:
            surface.blit(image, (box.x + pad, y))
            y += image.get_height() + gap
        y += self.px(6)
        gap = self.px(6)
        width = (box.width - 2 * pad - 2 * gap) // 3
        self.buttons = []
        for number, name in enumerate(MENU_BUTTONS):
            rect = pygame.Rect(box.x + pad + number * (width + gap), y, width, button_height)
            self.buttons.append(rect)
            lit = rect.collidepoint(mouse) or number == self.choice
            usable = in_wave or name != "use"
            fill = BUTTON_HOVER if lit and usable else BUTTON_FILL
            pygame.draw.rect(surface, fill, rect, border_radius=self.px(6))
            pygame.draw.rect(
                surface, OPEN_EDGE if number == self.choice else BUTTON_EDGE, rect, 1, border_radius=self.px(6)
            )
            label = _fit(tr(BUTTON_KEYS[name]), self.px(15), rect.width - self.px(8), TEXT if usable else DIM)
            surface.blit(label, label.get_rect(center=rect.center))


def _fit(text: str, size: int, width: int, colour: Colour) -> pygame.Surface:
    """A button's label in bold at `size`, or smaller until it fits `width` px (never below 9)."""
    image = font(size, bold=True).render(text, True, colour)
    while image.get_width() > width and size > 9:
        size -= 1
        image = font(size, bold=True).render(text, True, colour)
    return image
