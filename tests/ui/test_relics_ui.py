"""The relic row on screen (R-REL-4) under the dummy driver: the hover tooltip placed by its slot,
"+N" in the tenth slot beyond ten relics, the toast of a relic a wave awarded, a RELIC event's
flash, the shop's relic place (bought by a click, refused when gold is short, sold out after), and
a distinct glyph per relic, inside its slot."""

from __future__ import annotations

import math

import numpy as np
import pygame

from artificer.content import load_content
from artificer.engine import EventKind
from artificer.engine.events import relic_event
from artificer.game.report import FrameReport
from artificer.game.run import Run, WaveStats
from artificer.ui.i18n import tr
from artificer.ui.icon_pen import EXTENT
from artificer.ui.icons_relics import DRAWINGS, relic_image
from artificer.ui.relic_row import SLOT_FILL, SLOT_PITCH, SLOT_SIZE, SLOTS
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene
from artificer.ui.scenes.shop import ShopScene

CONTENT = load_content()
BOOK = CONTENT.relics


def frames(stack: SceneStack, surface: pygame.Surface, n: int) -> None:
    for _ in range(n):
        for event in pygame.event.get():
            stack.handle_event(event)
        stack.update(1 / 60)
        stack.draw(surface, 0.0)


def arena_with(display: pygame.Surface, count: int) -> tuple[SceneStack, ArenaScene]:
    """An arena whose run owns `count` relics (iron_heart first, then the pool in order)."""
    stack = SceneStack()
    arena = ArenaScene(CONTENT, seed=2)
    stack.push(arena)
    frames(stack, display, 30)
    for relic_id in BOOK.pool[: count - len(arena.run.relics.owned)]:
        arena.run.gain_relic(relic_id)
    frames(stack, display, 1)
    return stack, arena


def hover(at: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0)))


def test_r_rel_4_ten_slots_40_px_48_apart_clear_of_the_hp_box_and_the_potions(display: pygame.Surface) -> None:
    _, arena = arena_with(display, 1)
    view = arena.relic_view
    rects = [view.slot_rect(index) for index in range(SLOTS)]
    assert all(rect.size == (SLOT_SIZE, SLOT_SIZE) for rect in rects)
    assert all(b.x - a.x == SLOT_PITCH for a, b in zip(rects, rects[1:]))
    assert view.rect.top >= 12 + 74, "under the HP/mana box"
    belt = arena.potion_view.slot_rect(0).union(arena.potion_view.slot_rect(4))
    assert not view.rect.colliderect(belt)


def test_r_feel_1_the_arena_draws_only_the_slots_that_hold_relics(display: pygame.Surface) -> None:
    """R-FEEL-1: the HUD hides as little of the fight as it can: the arena's relic row draws
    the owned relics' slots (opaque) and leaves the empty ones to the floor (the shop shows all ten)."""
    _, arena = arena_with(display, 2)
    view = arena.relic_view
    pixels = pygame.surfarray.array3d(display)
    held, empty = view.slot_rect(1), view.slot_rect(5)
    held_fill = pixels[held.centerx - 12, held.top + 3]
    assert tuple(held_fill) == SLOT_FILL[:3], "a held slot is opaque"
    floor = pixels[empty.left + 2 : empty.right - 2, empty.top + 2 : empty.bottom - 2].reshape(-1, 3)
    assert not (floor == SLOT_FILL[:3]).all(axis=1).any(), "no slot is drawn where there is no relic"


def test_hovering_a_relic_slot_shows_its_name_and_description_under_it(display: pygame.Surface) -> None:
    stack, arena = arena_with(display, 3)
    slot = arena.relic_view.slot_rect(1)  # energy_core
    hover(slot.center)
    frames(stack, display, 1)
    assert arena.relic_view.tooltip is not None
    box, texts = arena.relic_view.tooltip
    assert texts == ["Energy Core", "+1 mana regenerated per second."]
    assert box.width == 260 and box.height >= 72
    assert box.top > slot.bottom and box.left <= slot.centerx <= box.right
    hover(arena.relic_view.slot_rect(5).center)  # an empty slot: no tooltip
    frames(stack, display, 1)
    assert arena.relic_view.tooltip is None


def test_eleven_relics_show_nine_icons_and_plus_two_in_the_tenth_slot(display: pygame.Surface) -> None:
    stack, arena = arena_with(display, 11)
    view = arena.relic_view
    owned = arena.run.relics.owned
    assert view.slot_relics(owned, 8) == [owned[8]]
    assert view.slot_relics(owned, 9) == owned[9:] and len(owned[9:]) == 2
    hover(view.slot_rect(9).center)
    frames(stack, display, 1)
    assert view.tooltip is not None
    box, texts = view.tooltip
    assert texts[0] == "2 more relics"
    assert texts[1].split(", ") == [_name(relic_id) for relic_id in owned[9:]]
    assert display.get_rect().contains(box)
    pygame.image.save(display, "/tmp/relics_hud.png")


def _name(relic_id: str) -> str:
    return tr(BOOK.relic(relic_id).name_key)


def test_a_relic_awarded_by_a_wave_is_toasted_and_all_owned_gold_too(display: pygame.Surface) -> None:
    _, arena = arena_with(display, 1)
    arena.relic_toasts(WaveStats(wave=3, relics=["vajra"]))
    assert any(text == "Relic found: Mithril Axe" for text, _ in arena.hud_state.toasts)
    assert arena.relic_view.flashes.get("vajra", 0) > 0
    arena.relic_toasts(WaveStats(wave=4, relic_currency=25))
    assert any(text == "+25 gold: every relic owned" for text, _ in arena.hud_state.toasts)


def test_a_relic_event_flashes_its_slot_without_a_toast(display: pygame.Surface) -> None:
    stack, arena = arena_with(display, 1)
    arena.run.gain_relic("the_boot")
    toasts = list(arena.hud_state.toasts)
    rows = np.zeros((3, 6))
    rows[:, 0] = EventKind.RELIC
    rows[:, 1] = relic_event("damage_floor")
    arena._react(FrameReport.of(rows))
    assert arena.relic_view.flashes.get("the_boot", 0) > 0 and "iron_heart" not in arena.relic_view.flashes
    assert arena.hud_state.toasts == toasts
    frames(stack, display, 60)
    assert "the_boot" not in arena.relic_view.flashes, "the flash is brief"


def shop_scene(display: pygame.Surface, gold: int) -> tuple[SceneStack, ShopScene]:
    run = Run(CONTENT, 4)
    run.currency = gold
    stack = SceneStack()
    shop = ShopScene(run, 2, None, None)
    stack.push(shop)
    frames(stack, display, 1)
    return stack, shop


def test_the_shop_sells_its_relic_by_a_click_then_shows_it_sold_out(display: pygame.Surface) -> None:
    stack, shop = shop_scene(display, 200)
    relic_id = shop.run.shop.relic
    assert relic_id is not None
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=shop.relic_offer_rect.center, button=1))
    frames(stack, display, 1)
    assert shop.run.relics.owned[-1] == relic_id and shop.run.shop.relic is None
    assert shop.run.currency == 200 - shop.run.shop.relic_price
    assert any(_name(relic_id) in text for text, _ in shop.toasts.items)
    hover(shop.relic_slot_rect(len(shop.run.relics.owned) - 1).center)
    frames(stack, display, 1)
    assert shop.relic_view.tooltip is not None and shop.relic_view.tooltip[1][0] == _name(relic_id)
    assert shop.relic_view.tooltip[0].bottom <= shop.relic_slot_rect(0).top, "above the low row"
    pygame.image.save(display, "/tmp/relics_shop.png")


def test_the_shop_refuses_its_relic_when_gold_is_short(display: pygame.Surface) -> None:
    stack, shop = shop_scene(display, 10)
    relic_id = shop.run.shop.relic
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=shop.relic_offer_rect.center, button=1))
    frames(stack, display, 1)
    assert shop.run.shop.relic == relic_id and relic_id not in shop.run.relics.owned
    assert any(text.startswith("Not enough") for text, _ in shop.toasts.items)


def test_the_shop_relic_row_does_not_overlap_the_shelves_or_buttons(display: pygame.Surface) -> None:
    _, shop = shop_scene(display, 0)
    row = shop.relic_slot_rect(0).union(shop.relic_slot_rect(SLOTS - 1))
    for rect in (shop.offer_rect("cores", 0), shop.offer_rect("cores", 1), shop.lab_rect, shop.next_wave_rect):
        assert not row.colliderect(rect)
    offer = shop.relic_offer_rect
    assert not offer.colliderect(shop.potion_slot_rect(4)) and offer.right < display.get_width() - 100


def test_every_relic_has_its_own_glyph_inside_its_slot(display: pygame.Surface) -> None:
    icons = [relic.icon for relic in BOOK.relics.values()]
    assert len(icons) == len(set(icons)) >= 19 and set(icons) <= set(DRAWINGS)
    r = 16
    images = {icon: pygame.surfarray.array_alpha(relic_image(icon, r)).astype(int) for icon in icons}
    colours = {icon: pygame.surfarray.array3d(relic_image(icon, r)).astype(int) for icon in icons}
    for icon, alpha in images.items():
        assert alpha.shape[0] == 2 * math.ceil(EXTENT * r) <= SLOT_SIZE, "fits the 40×40 slot"
        assert (alpha > 0).sum() > 0.15 * alpha.size, f"{icon} draws something"
        assert (
            alpha[0, :].max() < 40 and alpha[-1, :].max() < 40 and alpha[:, 0].max() < 40 and alpha[:, -1].max() < 40
        ), f"{icon} inside its box"
    for a in icons:
        for b in icons:
            if a < b:
                differ = (np.abs(colours[a] - colours[b]).sum(axis=2) > 60) | (np.abs(images[a] - images[b]) > 60)
                assert differ.mean() > 0.1, f"{a} and {b} look alike"
