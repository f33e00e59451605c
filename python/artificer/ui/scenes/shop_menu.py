"""The shop's Esc menu (issue 12): Resume, Settings, Save and quit to title.

This module owns `ShopMenuScene`, pushed over the shop when Esc (or a
controller's B or Back) finds nothing left to let go of. It draws over the
shop, which stays visible under a light shade: an opaque, compact box in
the middle holds the title and the three buttons, so the gold, the offers
and the loadout can still be read around it.

- Resume (Esc, B, Back again) pops the menu.
- Settings pushes the `SettingsScene` on the session's settings, as the
  arena's pause menu does.
- Save and quit hands over to `ShopScene.save_and_quit`: the run is written
  to run.json (R-SAVE-1) and the game returns to the title; a failed write
  stays in the shop and says why in a toast.

Keyboard, gamepad and mouse as every `MenuScene` (the choice stops at the
first and the last button, so Up from Resume never lands on Save and quit);
a controller's Back closes it too.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from artificer.ui.i18n import tr
from artificer.ui.scenes.menu import MenuScene
from artificer.ui.session import Session
from artificer.ui.shop_widgets import BACKGROUND, TITLE, Canvas
from artificer.ui.widgets import panel

#: The shade over the shop: light, so what is on sale and the gold still read behind the box.
SHADE_ALPHA = 120
#: The box and its buttons, in the shop's 1280×720 design units (centred).
BOX = (470, 226, 340, 268)
BUTTON_WIDTH = 284
BUTTON_HEIGHT = 44
BUTTON_TOP = 296
BUTTON_STEP = 58

RESUME = "ui.pause.resume"
SETTINGS = "ui.pause.settings"
SAVE_AND_QUIT = "ui.shop.menu.save_quit"
ITEMS = (RESUME, SETTINGS, SAVE_AND_QUIT)


class ShopMenuScene(MenuScene):
    """Over the shop: Resume, Settings, Save and quit to title."""

    music = "shop"

    def __init__(self, session: Session, save_and_quit: Callable[[], bool]) -> None:
        """`save_and_quit`: the shop's (`ShopScene.save_and_quit`): writes the run and leaves for
        the title; False when the write failed (the shop then says why)."""
        super().__init__(session, ITEMS)
        self.save_and_quit = save_and_quit

    # ---- input -------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if (
            self.stack is not None
            and event.type == pygame.CONTROLLERBUTTONDOWN
            and event.button == pygame.CONTROLLER_BUTTON_BACK
        ):
            self.close()
            return None
        return super().handle_event(event)

    def activate(self, index: int) -> None:
        """Does what button `index` says."""
        assert self.stack is not None
        item = self.items[index]
        if item == RESUME:
            self.close()
        elif item == SETTINGS:
            self.open_settings()
        elif not self.save_and_quit():
            self.stack.pop()  # the write failed: back in the shop, whose toast says why

    # ---- drawing -----------------------------------------------------------
    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, SHADE_ALPHA))
        surface.blit(shade, (0, 0))
        canvas = Canvas(surface, self.mouse)
        box = canvas.r(*BOX)
        pygame.draw.rect(surface, BACKGROUND, box, border_radius=canvas.px(12))
        panel(surface, box)
        canvas.text(tr("ui.shop.menu.title"), 26, TITLE, True, midtop=(box.centerx, box.y + canvas.px(18)))
        self.rects = []
        left = BOX[0] + (BOX[2] - BUTTON_WIDTH) / 2
        for index, key in enumerate(self.items):
            rect = canvas.r(left, BUTTON_TOP + BUTTON_STEP * index, BUTTON_WIDTH, BUTTON_HEIGHT)
            canvas.button(
                rect, tr(key), "Esc" if key == RESUME else "", lambda: None, key, primary=index == self.choice
            )
            self.rects.append(rect)
