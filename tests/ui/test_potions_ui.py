"""The potion belt on screen (R-POT-2) under the dummy driver: slots drawn (4–5 locked without the
Artisan's Belt), a click opens Use / Discard / Close, Use in a wave drinks, keys 1–5, the hover
tooltip, the shop's potion place, and a distinct glyph per potion."""

from __future__ import annotations

import numpy as np
import pygame

from artificer.content import load_content
from artificer.content.potions import PotionIcon
from artificer.game.run import Run
from artificer.ui.icons_potions import potion_image
from artificer.ui.potion_belt import LOCKED_EDGE
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene
from artificer.ui.scenes.shop import ShopScene

CONTENT = load_content()


def frames(stack: SceneStack, surface: pygame.Surface, n: int) -> None:
    for _ in range(n):
        for event in pygame.event.get():
            stack.handle_event(event)
        stack.update(1 / 60)
        stack.draw(surface, 0.0)


def arena_with(display: pygame.Surface, *potions: str) -> tuple[SceneStack, ArenaScene]:
    stack = SceneStack()
    arena = ArenaScene(CONTENT, seed=2)
    stack.push(arena)
    frames(stack, display, 60)
    for potion in potions:
        arena.run.potions.add(potion)
    frames(stack, display, 1)
    return stack, arena


def click(at: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=at, button=1))


def test_r_pot_2_five_slots_are_drawn_and_4_and_5_locked_without_the_belt(display: pygame.Surface) -> None:
    _, arena = arena_with(display)
    pixels = pygame.surfarray.array3d(display)
    for index in (3, 4):
        rect = arena.potion_view.slot_rect(index)
        area = pixels[rect.left : rect.right, rect.top : rect.bottom].reshape(-1, 3).astype(int)
        assert (np.abs(area - LOCKED_EDGE).sum(axis=1) < 12).sum() > 20, f"slot {index + 1} shows its padlock"
    rect = arena.potion_view.slot_rect(0)
    area = pixels[rect.left : rect.right, rect.top : rect.bottom].reshape(-1, 3).astype(int)
    assert (np.abs(area - LOCKED_EDGE).sum(axis=1) < 12).sum() < 20, "slot 1 is open"


def test_clicking_a_slot_opens_the_menu_and_use_in_a_wave_drinks_it(display: pygame.Surface) -> None:
    stack, arena = arena_with(display, "guard_potion")
    click(arena.potion_view.slot_rect(0).center)
    frames(stack, display, 1)
    assert arena.potion_view.menu == 0 and len(arena.potion_view.buttons) == 3
    ward = arena.run.sim.buffers.player_value("ward")
    click(arena.potion_view.buttons[0].center)  # Use
    frames(stack, display, 2)
    assert arena.run.potions.held[0] is None and arena.potion_view.menu is None
    assert arena.run.sim.buffers.player_value("ward") >= ward + 12 - 1e-6
    assert any("Guard Potion" in text for text, _ in arena.hud_state.toasts)


def test_the_potion_key_opens_the_menu_and_again_drinks(display: pygame.Surface) -> None:
    stack, arena = arena_with(display, "red_potion", "mana_elixir")
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_2, mod=0))
    frames(stack, display, 1)
    assert arena.potion_view.menu == 1
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_2, mod=0))
    frames(stack, display, 1)
    assert arena.run.potions.held[:2] == ["red_potion", None]


def test_discard_empties_the_slot_and_esc_closes_the_menu_without_pausing(display: pygame.Surface) -> None:
    stack, arena = arena_with(display, "red_potion", "firebomb")
    click(arena.potion_view.slot_rect(1).center)
    frames(stack, display, 1)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0))
    frames(stack, display, 1)
    assert arena.potion_view.menu is None and stack.top is arena
    click(arena.potion_view.slot_rect(1).center)
    frames(stack, display, 1)
    click(arena.potion_view.buttons[1].center)  # Discard
    frames(stack, display, 1)
    assert arena.run.potions.held[:2] == ["red_potion", None]


def test_use_between_waves_is_refused_with_a_toast(display: pygame.Surface) -> None:
    stack, arena = arena_with(display, "red_potion")
    arena.wave = None  # between waves (the breather)
    arena.breather = 10.0
    arena.potion_button(0, "use")
    assert arena.run.potions.held[0] == "red_potion"
    assert any(text == "Potions can only be drunk during a wave" for text, _ in arena.hud_state.toasts)


def test_hovering_a_slot_shows_its_tooltip(display: pygame.Surface) -> None:
    stack, arena = arena_with(display, "cursed_vial")
    slot = arena.potion_view.slot_rect(0)
    below = pygame.Rect(slot.left - 100, slot.bottom + 10, 200, 60).clip(display.get_rect())
    before = pygame.surfarray.array3d(display)[below.left : below.right, below.top : below.bottom].copy()
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=slot.center, rel=(0, 0), buttons=(0, 0, 0)))
    frames(stack, display, 1)
    after = pygame.surfarray.array3d(display)[below.left : below.right, below.top : below.bottom]
    assert (np.abs(after.astype(int) - before.astype(int)).sum(axis=2) > 6).mean() > 0.5, "a box under the slot"
    pygame.image.save(display, "/tmp/potions_tooltip_test.png")


def test_the_shop_sells_its_potion_and_refuses_it_when_the_belt_is_full(display: pygame.Surface) -> None:
    run = Run(CONTENT, 4)
    run.currency = 100
    stack = SceneStack()
    shop = ShopScene(run, 2, None, None)
    stack.push(shop)
    frames(stack, display, 1)
    for filler in ("red_potion", "red_potion", "red_potion"):
        run.potions.add(filler)
    shop.click(shop.potion_offer_rect.center)
    assert run.currency == 100 and shop.run.shop.potion is not None
    assert any("belt is full" in text for text, _ in shop.toasts.items)
    shop.click(shop.potion_slot_rect(0).center)  # the menu on slot 1
    frames(stack, display, 1)
    shop.click(shop.potion_view.buttons[1].center)  # Discard
    assert run.potions.held[0] is None
    frames(stack, display, 1)
    shop.click(shop.potion_offer_rect.center)
    assert run.currency == 80 and run.potions.held[0] is not None and run.shop.potion is None


def test_each_potion_glyph_draws_inside_its_box_and_all_differ() -> None:
    pygame.init()
    try:
        images = {icon: pygame.image.tobytes(potion_image(icon, 20), "RGBA") for icon in PotionIcon}
        assert len(set(images.values())) == len(PotionIcon)
        for icon in PotionIcon:
            image = potion_image(icon, 20)
            alpha = pygame.surfarray.pixels_alpha(image)
            assert alpha.any() and not alpha[0, :].any() and not alpha[:, 0].any(), icon
    finally:
        pygame.quit()
