"""Toasts (issue 12: "toasts without a backing over panels"): the shop's messages sit on
opaque pills no wider than their limit, fitted onto two lines, and stay on the surface."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

from artificer.ui.widgets import TOAST_FILL, TOAST_MAX_WIDTH, Toasts  # noqa: E402

LONG = "A message far too long to sit on one line of a toast in the shop, about a relic and a potion"


def _drawn(toasts: Toasts, top: int) -> np.ndarray:
    surface = pygame.Surface((1280, 720))
    surface.fill((255, 255, 255))  # a bright panel under the toasts
    toasts.draw(surface, 640, top)
    return pygame.surfarray.array3d(surface)


def test_a_toast_sits_on_an_opaque_pill_within_its_width() -> None:
    pygame.init()
    toasts = Toasts()
    toasts.show(LONG)
    pixels = _drawn(toasts, 300)
    covered = np.nonzero((pixels != 255).any(axis=2))
    left, right = covered[0].min(), covered[0].max()
    assert right - left + 1 <= TOAST_MAX_WIDTH, "no wider than its limit"
    top, bottom = covered[1].min(), covered[1].max()
    row = pixels[left + 8 : right - 8, (top + bottom) // 2]
    assert (row == TOAST_FILL).all(axis=1).sum() > 0.3 * len(row), "the text sits on the opaque fill, not on the panel"
    assert not (pixels[left + 8 : right - 8, top + 3] == 255).all(axis=1).any(), (
        "nothing of the panel shows through the pill"
    )


def test_toasts_near_the_bottom_move_up_to_stay_on_screen() -> None:
    pygame.init()
    toasts = Toasts()
    for i in range(3):
        toasts.show(f"{LONG} {i}")
    pixels = _drawn(toasts, 700)
    covered = np.nonzero((pixels != 255).any(axis=2))
    assert covered[1].max() < 719, "the last pill ends above the surface's bottom"
    assert covered[1].min() < 700 - 80, "the stack moved up"
