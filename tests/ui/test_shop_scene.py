"""ShopScene (R-SHOP-1, R-CORE-3, R-STAT-1): renders headless with every text a key, posted
clicks buy, reroll, lock, sell and place, refusals become toasts, Enter / L / Start go on."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from artificer.content import load_content
from artificer.game.run import Run
from artificer.game.shop import Offer
from artificer.ui.i18n import tr
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.shop import ShopScene
from artificer.ui.settings import Action
from artificer.ui.shop_widgets import Canvas

CONTENT = load_content()
SCREENSHOT = "/tmp/shop.png"


class Calls:
    def __init__(self) -> None:
        self.lab: list[SceneStack] = []
        self.next_wave: list[SceneStack] = []


def shop_on_stack(gold: int = 500, wave: int = 4, seed: int = 21) -> tuple[ShopScene, SceneStack, Run, Calls]:
    run = Run(CONTENT, seed)
    run.currency = gold
    calls = Calls()
    scene = ShopScene(run, wave, on_open_lab=calls.lab.append, on_next_wave=calls.next_wave.append)
    stack = SceneStack()
    stack.push(scene)
    return scene, stack, run, calls


def post(stack: SceneStack, *events: pygame.event.Event) -> None:
    """Posts `events` to pygame's queue and hands what comes out to the stack, as the app does."""
    pygame.event.clear()
    for event in events:
        pygame.event.post(event)
    for event in pygame.event.get():
        stack.handle_event(event)


def click(position: tuple[int, int]) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=position)


def key(code: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0)


def distinct_colours(surface: pygame.Surface) -> int:
    return len(
        {
            surface.get_at((x, y))[:3]
            for y in range(0, surface.get_height(), 4)
            for x in range(0, surface.get_width(), 4)
        }
    )


def test_the_shop_renders_every_shelf_and_panel(display: pygame.Surface) -> None:
    """Shelves A (4 spells), B (1–2 cores), C (stats), the carried cores, waiting area and backpack
    draw at 1280×720 with every text through the strict catalog; the screenshot is kept."""
    scene, stack, run, _ = shop_on_stack(gold=87, wave=6)
    run.loadout.backpack = ["fireball", "homing", "double_cast", "trigger_on_hit", "ice_shard"]
    run.loadout.waiting = ["chain_bolt", "bounce"]
    run.loadout.add_core("forked_core")
    run.shop.toggle_lock("spells", 2)
    stack.update(1 / 60)
    stack.draw(display, 0.0)
    pygame.image.save(display, SCREENSHOT)
    assert distinct_colours(display) > 80
    assert len(run.shop.shelves["spells"]) == 4
    assert {h.key for h in scene.hots} >= {"reroll", "lab", "next_wave", "spell:0", "lock:spells:3", "core:0", "stat:0"}


def test_the_shop_renders_at_other_window_sizes(display: pygame.Surface) -> None:
    scene, stack, run, _ = shop_on_stack()
    for size in ((960, 540), (1920, 1080), (1024, 768)):
        surface = pygame.Surface(size)
        stack.draw(surface, 0.0)
        assert distinct_colours(surface) > 40
        assert surface.get_rect().contains(scene.next_wave_rect)


def test_a_left_click_on_a_spell_offer_buys_it(display: pygame.Surface) -> None:
    """R-SHOP-1: the currency drops by the price and the card goes to the backpack."""
    scene, stack, run, _ = shop_on_stack(gold=500)
    stack.draw(display, 0.0)
    offer = run.shop.offer("spells", 1)
    post(stack, click(scene.offer_rect("spells", 1).center))
    assert run.currency == 500 - offer.price
    assert run.loadout.backpack == [offer.item]
    assert run.shop.shelves["spells"][1] is None
    stack.draw(display, 0.0)  # the emptied place draws as sold


def test_clicking_reroll_changes_the_offers_and_raises_its_price(display: pygame.Surface) -> None:
    scene, stack, run, _ = shop_on_stack(gold=500)
    stack.draw(display, 0.0)
    before = [(o.item, o.tier) for o in run.shop.shelves["spells"] if o is not None]
    price = run.shop.reroll_cost
    post(stack, click(scene.reroll_rect.center))
    assert run.currency == 500 - price
    assert [(o.item, o.tier) for o in run.shop.shelves["spells"] if o is not None] != before
    assert run.shop.reroll_cost > price
    post(stack, key(pygame.K_r))
    assert run.shop.rerolls == 2


def test_clicking_a_lock_keeps_the_offer_through_a_reroll(display: pygame.Surface) -> None:
    scene, stack, run, _ = shop_on_stack(gold=500)
    stack.draw(display, 0.0)
    offer = run.shop.offer("spells", 0)
    post(stack, click(scene.lock_rect("spells", 0).center))
    assert offer.locked and run.currency == 500, "the lock is not a purchase"
    post(stack, click(scene.reroll_rect.center))
    assert run.shop.offer("spells", 0) is offer


def test_too_little_gold_is_refused_with_a_toast(display: pygame.Surface) -> None:
    scene, stack, run, _ = shop_on_stack(gold=0)
    stack.draw(display, 0.0)
    post(stack, click(scene.offer_rect("spells", 0).center))
    assert run.currency == 0 and run.loadout.backpack == []
    price = run.shop.offer("spells", 0).price
    assert any(str(price) in text for text, _ in scene.toasts.items)


def test_a_fourth_core_opens_the_choice_of_a_core_to_sell(display: pygame.Surface) -> None:
    """R-CORE-3: with three cores carried, buying asks which to sell; choosing one buys."""
    scene, stack, run, _ = shop_on_stack(gold=500)
    run.loadout.add_core("siege_core")
    run.loadout.add_core("forked_core")
    run.shop.shelves["cores"] = [Offer("cores", "quickdraw_core", 1, 45)]
    stack.draw(display, 0.0)
    post(stack, click(scene.offer_rect("cores", 0).center))
    assert scene.drop_for == 0 and len(run.loadout.cores) == 3
    stack.draw(display, 0.0)
    choice = next(h for h in scene.hots if h.key == "drop:siege_core")
    post(stack, click(choice.rect.center))
    assert [c.core for c in run.loadout.cores] == ["starter_wand", "forked_core", "quickdraw_core"]
    assert run.currency == 500 - 45, "R-SHOP-1: the siege core was never paid for: it goes for nothing"
    assert scene.drop_for is None


def test_escape_closes_the_choice_without_buying(display: pygame.Surface) -> None:
    scene, stack, run, _ = shop_on_stack(gold=500)
    run.loadout.add_core("siege_core")
    run.loadout.add_core("forked_core")
    run.shop.shelves["cores"] = [Offer("cores", "quickdraw_core", 1, 45)]
    stack.draw(display, 0.0)
    post(stack, click(scene.offer_rect("cores", 0).center))
    post(stack, key(pygame.K_ESCAPE))
    assert scene.drop_for is None and run.currency == 500 and len(run.loadout.cores) == 3


def test_switching_the_active_core_and_selling_one(display: pygame.Surface) -> None:
    scene, stack, run, _ = shop_on_stack(gold=500)
    run.loadout.add_core("siege_core")
    stack.draw(display, 0.0)
    switch = next(h for h in scene.hots if h.key == "switch:siege_core")
    post(stack, click(switch.rect.center))
    assert run.loadout.active == "siege_core"
    # R-SHOP-1: the wand the core offer's preview showed — the cards moved onto the new, empty core.
    assert run.loadout.carried("siege_core").cards[:3] == ["spark_bolt"] * 3
    assert run.loadout.carried("starter_wand").cards == [None] * 5
    assert run.diagnostics["can_fire"]
    stack.draw(display, 0.0)
    sell = next(h for h in scene.hots if h.key == "sell_core:starter_wand")
    post(stack, click(sell.rect.center))
    assert [c.core for c in run.loadout.cores] == ["siege_core"]
    assert run.loadout.waiting == [] and run.currency == 500, "R-SHOP-1: the starter is discarded"
    # Switching back onto the (now carried again) empty core carries nothing from a board that
    # stays: a core with cards of its own keeps them.
    run.loadout.add_core("forked_core")
    run.loadout.carried("forked_core").cards[0] = "fireball"
    run.shop.switch_core("forked_core", carry=True)
    assert run.loadout.carried("forked_core").cards[0] == "fireball"
    assert run.loadout.carried("siege_core").cards[:3] == ["spark_bolt"] * 3


def test_a_waiting_card_goes_into_an_empty_slot(display: pygame.Surface) -> None:
    """R-CORE-3: waiting cards go back into a carried core's empty slots in the shop."""
    scene, stack, run, _ = shop_on_stack()
    run.loadout.waiting = ["fireball"]
    stack.draw(display, 0.0)
    post(stack, click(scene.chip_rect("waiting", 0).center))
    assert scene.selected_card() == "fireball"
    stack.draw(display, 0.0)
    post(stack, click(scene.slot_rect(0, 4).center))
    assert run.loadout.carried("starter_wand").cards[4] == "fireball" and run.loadout.waiting == []


def test_a_picked_backpack_card_sells(display: pygame.Surface, monkeypatch: pytest.MonkeyPatch) -> None:
    """R-SHOP-1: a bought card sells for half its price (at least the floor)."""
    scene, stack, run, _ = shop_on_stack(gold=0)
    run.loadout.backpack = ["homing"]
    run.shop.paid_cards["homing"] = [50]
    stack.draw(display, 0.0)
    post(stack, click(scene.chip_rect("backpack", 0).center))
    assert sell_buttons(scene, display, monkeypatch)["sell_card"] == f"{tr('ui.shop.sell')} +25"
    sell = next(h for h in scene.hots if h.key == "sell_card")
    post(stack, click(sell.rect.center))
    assert run.loadout.backpack == [] and run.currency == 25
    assert tr("ui.shop.sold", name=tr(CONTENT.spell("homing").name_key), gold=25) in [
        text for text, *_ in scene.toasts.items
    ]


def sell_buttons(scene: ShopScene, display: pygame.Surface, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The label of every button drawn, by its key, with " +N" after a refund's label."""
    drawn: dict[str, str] = {}
    plain, priced = Canvas.button, Canvas.price_button

    def button(
        canvas: Canvas, rect: pygame.Rect, label: str, hint: str, action: Any, key: str, *args: Any, **kw: Any
    ) -> None:
        drawn[key] = label
        plain(canvas, rect, label, hint, action, key, *args, **kw)

    def price_button(
        canvas: Canvas, rect: pygame.Rect, label: str, price: int, action: Any, key: str, *args: Any, **kw: Any
    ) -> None:
        drawn[key] = f"{label} +{price}"
        priced(canvas, rect, label, price, action, key, *args, **kw)

    with monkeypatch.context() as patch:
        patch.setattr(Canvas, "button", button)
        patch.setattr(Canvas, "price_button", price_button)
        scene.draw(display, 0.0)
    return drawn


def test_r_shop_1_a_starter_card_is_discarded_for_nothing(
    display: pygame.Surface, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-SHOP-1: a card never paid for (the starter's spark bolt, moved to the backpack) shows
    Discard instead of a price, its tooltip says so, and discarding it pays nothing."""
    scene, stack, run, _ = shop_on_stack(gold=7)
    run.loadout.backpack = ["spark_bolt"]
    stack.draw(display, 0.0)
    tip = next(h for h in scene.hots if h.key == "backpack:0").tip
    assert tip is not None and tip[-1][0] == tr("ui.shop.discard_value")
    post(stack, click(scene.chip_rect("backpack", 0).center))
    buttons = sell_buttons(scene, display, monkeypatch)
    assert buttons["sell_card"] == tr("ui.shop.discard")
    assert buttons["sell_core:starter_wand"] == tr("ui.shop.discard"), "the starter core was never paid for either"
    sell = next(h for h in scene.hots if h.key == "sell_card")
    post(stack, click(sell.rect.center))
    assert run.loadout.backpack == [] and run.currency == 7
    assert tr("ui.shop.discarded", name=tr(CONTENT.spell("spark_bolt").name_key)) in [
        text for text, *_ in scene.toasts.items
    ]


def test_enter_calls_next_wave_and_l_opens_the_lab(display: pygame.Surface) -> None:
    scene, stack, run, calls = shop_on_stack()
    post(stack, key(pygame.K_l))
    assert calls.lab == [stack]
    post(stack, key(pygame.K_RETURN))
    assert calls.next_wave == [stack]
    assert not run.shop.is_open, "going on closes the shop"


def test_the_shops_keys_are_the_players_bindings_and_its_buttons_show_them(display: pygame.Surface) -> None:
    """R-SET-1: reroll and lab rebound (to F and K) act on their new keys, the old R and L do nothing,
    and the buttons and the keys line name the new keys."""
    scene, stack, run, calls = shop_on_stack()
    scene.session.settings.bind(Action.REROLL, "f")
    scene.session.settings.bind(Action.OPEN_LAB, "k")
    post(stack, key(pygame.K_r), key(pygame.K_l))
    assert run.shop.rerolls == 0 and calls.lab == []
    post(stack, key(pygame.K_f))
    assert run.shop.rerolls == 1
    post(stack, key(pygame.K_k))
    assert calls.lab == [stack]
    drawn: list[str] = []
    original_button, original_text = Canvas.button, Canvas.text

    def button(canvas: Canvas, rect: pygame.Rect, label: str, hint: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(f"{label}:{hint}")
        return original_button(canvas, rect, label, hint, *args, **kwargs)

    def text(canvas: Canvas, line: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(line)
        return original_text(canvas, line, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Canvas, "button", button)
        patch.setattr(Canvas, "text", text)
        scene.draw(display, 0.0)
    assert f"{tr('ui.shop.lab')}:K" in drawn and f"{tr('ui.shop.next_wave')}:Enter" in drawn
    assert tr("ui.shop.keys_hint", select="Space", reroll="F", lab="K", next_wave="Enter", menu="Esc") in drawn


def test_next_wave_is_refused_while_the_wand_cannot_fire(display: pygame.Surface) -> None:
    """R-VM-2: an empty active core cannot go into a wave."""
    scene, stack, run, calls = shop_on_stack()
    run.loadout.add_core("siege_core")
    run.shop.switch_core("siege_core")
    post(stack, key(pygame.K_RETURN))
    assert calls.next_wave == []
    assert scene.toasts.items


def test_the_keyboard_focus_reaches_a_purchase(display: pygame.Surface) -> None:
    scene, stack, run, _ = shop_on_stack(gold=500)
    stack.draw(display, 0.0)
    post(stack, key(pygame.K_TAB), key(pygame.K_TAB))
    assert scene.focus == "spell:0"
    offer = run.shop.offer("spells", 0)
    post(stack, key(pygame.K_SPACE))
    assert run.loadout.backpack == [offer.item]


@pytest.mark.parametrize(
    ("button", "expected"), [(pygame.CONTROLLER_BUTTON_START, "next_wave"), (pygame.CONTROLLER_BUTTON_Y, "lab")]
)
def test_a_controller_reaches_next_wave_and_the_lab(display: pygame.Surface, button: int, expected: str) -> None:
    scene, stack, run, calls = shop_on_stack()
    post(stack, pygame.event.Event(pygame.CONTROLLERBUTTONDOWN, button=button, instance_id=0))
    assert (calls.next_wave if expected == "next_wave" else calls.lab) == [stack]


# --- R-END-1: the Last Will talent on shelf C --------------------------------------------------------


def talent_shop(gold: int = 500) -> tuple[ShopScene, SceneStack, Run, int]:
    """A shop (after wave 3, ShopScene before wave 4) whose shelf C offers Last Will, and its place."""
    for seed in range(200):
        scene, stack, run, _ = shop_on_stack(gold=gold, wave=4, seed=seed)
        index = next(
            (i for i, o in enumerate(run.shop.shelves["stats"]) if o is not None and o.talent is not None), None
        )
        if index is not None:
            return scene, stack, run, index
    raise AssertionError("no seed in 200 offers Last Will")


def test_r_end_1_shelf_c_draws_a_talent_offer_beside_the_stats(display: pygame.Surface) -> None:
    """Four places fit the panel; the talent's card is drawn in its own colour; its tooltip names it."""
    from artificer.ui.i18n import tr
    from artificer.ui.scenes.shop import TALENT_COLOUR

    scene, stack, run, index = talent_shop(gold=120)
    assert index == len(run.shop.shelves["stats"]) - 1 == 3
    rects = [scene.offer_rect("stats", i) for i in range(len(run.shop.shelves["stats"]))]
    panel = scene.view.r(510, 372, 352, 250)
    assert all(panel.contains(rect) for rect in rects)
    assert all(a.right < b.left for a, b in zip(rects, rects[1:])), "the places do not overlap"
    scene.mouse = rects[index].center
    stack.draw(display, 0.0)
    pygame.image.save(display, "/tmp/shop_talent.png")
    edge = display.get_at((rects[index].centerx, rects[index].bottom - 1))[:3]
    assert edge == TALENT_COLOUR
    hot = next(h for h in scene.hots if h.key == f"stat:{index}")
    assert hot.tip is not None and hot.tip[0][0] == tr("ui.shop.talent.last_will.name")


def test_r_end_1_a_posted_click_on_the_talent_buys_it_and_arms_last_will(display: pygame.Surface) -> None:
    from artificer.content.models import Talent

    scene, stack, run, index = talent_shop(gold=500)
    stack.draw(display, 0.0)
    price = run.shop.offer("stats", index).price
    post(stack, click(scene.offer_rect("stats", index).center))
    assert run.currency == 500 - price
    assert run.talents == {Talent.LAST_WILL} and run.sim.world.last_will is True
    assert run.shop.shelves["stats"][index] is None
    assert scene.toasts.items
    stack.draw(display, 0.0)  # the emptied place draws as sold


def test_r_feel_2_a_card_and_a_core_offer_show_what_they_do_to_the_players_wand(display: pygame.Surface) -> None:
    """R-SHOP-1, R-FEEL-2: hovering an offer of shelf A or B shows the active wand's sustained DPS
    now → after (green when it rises, red when it falls), the figures `game.offer_effect` gives."""
    scene, stack, run, _ = shop_on_stack(gold=500, wave=6, seed=3)
    stack.draw(display, 0.0)
    for shelf, key in (("spells", "spell"), ("cores", "core")):
        offer = next((o for o in run.shop.shelves[shelf] if o is not None), None)
        if offer is None:
            continue
        index = run.shop.shelves[shelf].index(offer)
        effect = scene.offer_effect(shelf, offer.item)
        hot = next(h for h in scene.hots if h.key == f"{key}:{index}")
        said = tr("ui.shop.wand_effect", now=effect.now, after=effect.after)
        assert hot.tip is not None and said in [text for text, _ in hot.tip], hot.tip
    scene.mouse = scene.offer_rect("spells", 0).center
    stack.draw(display, 0.0)
    pygame.image.save(display, "/tmp/shop_wand_effect.png")
