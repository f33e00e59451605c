"""The stat and talent glyphs (R-STAT-1): every `WandStat` and the Last Will talent draw
something inside their box at small and large sizes, grow with r, look different from
each other, and an attunement's glyph wears its element's colour."""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame
import pytest

from artificer.content.models import ATTUNEMENT_PREFIX, WandStat
from artificer.ui.atlas import ELEMENT_COLOURS
from artificer.ui.icons import EXTENT, stat_icon, talent_icon
from artificer.ui.shop_widgets import stat_icon as shop_stat_icon

COLOUR = (0, 158, 115)
Draw = Callable[[pygame.Surface, tuple[int, int], int], None]


def stat_drawer(stat: WandStat) -> Draw:
    return lambda surface, centre, r: stat_icon(surface, stat, centre, r, COLOUR)


def talent_drawer(surface: pygame.Surface, centre: tuple[int, int], r: int) -> None:
    talent_icon(surface, centre, r, COLOUR)


GLYPHS: dict[str, Draw] = {**{str(stat): stat_drawer(stat) for stat in WandStat}, "talent:last_will": talent_drawer}


def rendered(draw: Draw, r: int, margin: int = 8) -> tuple[pygame.Surface, pygame.Rect]:
    """The glyph drawn on a transparent surface with `margin` spare pixels around its box; and that box."""
    half = math.ceil(EXTENT * r)
    surface = pygame.Surface((2 * (half + margin), 2 * (half + margin)), pygame.SRCALPHA)
    centre = (half + margin, half + margin)
    draw(surface, centre, r)
    return surface, pygame.Rect(margin, margin, 2 * half, 2 * half)


@pytest.mark.parametrize("r", [12, 32])
@pytest.mark.parametrize("name", list(GLYPHS))
def test_every_glyph_draws_inside_its_box(display: pygame.Surface, name: str, r: int) -> None:
    surface, box = rendered(GLYPHS[name], r)
    inked = surface.get_bounding_rect()
    assert inked.width > r and inked.height > r, f"{name} at r={r} drew only {inked}"
    assert box.contains(inked), f"{name} at r={r} drew {inked}, outside its box {box}"


def test_every_glyph_grows_with_r(display: pygame.Surface) -> None:
    for name, draw in GLYPHS.items():
        small = rendered(draw, 10)[0].get_bounding_rect()
        large = rendered(draw, 40)[0].get_bounding_rect()
        assert large.width > 3 * small.width and large.height > 3 * small.height, name


def test_glyphs_are_pairwise_distinct(display: pygame.Surface) -> None:
    images: dict[bytes, str] = {}
    for name, draw in GLYPHS.items():
        pixels = pygame.image.tobytes(rendered(draw, 24)[0], "RGBA")
        assert pixels not in images, f"{name} looks like {images.get(pixels)}"
        images[pixels] = name
    assert len(images) == len(WandStat) + 1


def test_a_glyph_drawn_near_an_edge_is_clipped_not_an_error(display: pygame.Surface) -> None:
    surface = pygame.Surface((40, 40), pygame.SRCALPHA)
    for draw in GLYPHS.values():
        draw(surface, (0, 39), 24)
    assert surface.get_bounding_rect().width > 0


def test_an_attunement_glyph_wears_its_element_colour(display: pygame.Surface) -> None:
    for element, colour in ELEMENT_COLOURS.items():
        stat = WandStat(f"{ATTUNEMENT_PREFIX}{element}")
        surface = pygame.Surface((80, 80))
        surface.fill((0, 0, 0))
        stat_icon(surface, stat, (40, 40), 30, (255, 0, 255))
        colours = {tuple(surface.get_at((x, y)))[:3] for x in range(80) for y in range(80)}
        assert colour in colours, element
        assert (255, 0, 255) in colours, f"{element}'s ring is not in the caller's colour"


def test_the_shop_draws_the_same_glyphs(display: pygame.Surface) -> None:
    assert shop_stat_icon is stat_icon
