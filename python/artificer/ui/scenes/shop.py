"""The shop between waves (R-SHOP-1, R-CORE-3, R-STAT-1), with the lab one click away (R-LAB-1).

This module owns `ShopScene`: what the shop shows and how the player works it.
The rules themselves (offers, prices, odds, locks, rerolls, sales, the core
limit) live in `artificer.game.shop`; the scene calls them and turns each
refusal into a toast. Its drawn pieces (buttons, price tags, icons, the
design-space canvas) are `artificer.ui.shop_widgets`.

Layout (1280×720 design units, scaled with the window): shelf A, four spell
offers (the card, its tier, element and family, mana and CPU, the price and a
lock; the description and the spell's numbers in a tooltip, R-FEEL-2) with the
reroll button and its price; shelf B, the cores on sale (their board, mana,
regen, cast delay, CPU and slots); shelf C, the stat upgrades (each as now →
after, `Shop.stat_preview`) and, when one is offered, a talent (R-END-1
Last Will: its own colour, "once per run"; the places narrow to make room). On the right: the carried cores (the
active one marked; Switch and Sell), the waiting area (pick a card, then an
empty slot of a core — or send it to the backpack, or sell it), the backpack
(pick a card to sell it), and the Lab and Next wave buttons. Buying a core
while carrying the most asks which carried core to sell (R-CORE-3).

The header: the title with the player's HP under it (R-FEEL-2), the gold on
the right. Every card listed (offers, the waiting area, the backpack, a core's
slots) shows `artificer.ui.spell_text`'s tooltip.

Potions (R-POT-2): in the header, the visit's potion (its glyph, name and
price; a click buys it, refused with a toast when the belt is full) and the
belt's five slots (`artificer.ui.potion_belt`: hover for the tooltip, click
for Use / Discard / Close — Use is refused here, outside a wave; Discard works).

Relics (R-REL-3/4): in the header, right of the belt, the visit's relic (its
glyph, name and price; hover for its description; a click buys it, refused
with a toast when the gold is short; sold out once bought or when every relic
is owned); at the foot, left, the row of relics owned
(`artificer.ui.relic_row`, hover for the tooltip); the toasts sit right of it.

Selling (R-SHOP-1): what was never paid for (the starter core and its
cards, found cards) sells for nothing, so its button says Discard instead of
a refund, and its tooltip says why.

Saves (R-SAVE-1): every change the player makes here (a buy, sale, discard,
lock, reroll, stat or talent, potion or relic, a card placed or stashed, a
core switched) and the shop's opening call `on_change()` — the window writes
run.json there — so quitting at any moment loses nothing; a failed write
becomes a toast. Esc with nothing to let go of opens the menu
(`artificer.ui.scenes.shop_menu`: Resume, Settings, Save and quit to title; it is handed
the shop's `save_and_quit`, so it imports nothing of the shop).

Input: the mouse (left click acts, right click lets go); the keys through
the session's `Controls` in the shop's context, rebindable (by default Enter
next wave, L lab, R reroll, Space chooses, Esc lets go or opens the menu;
Tab / arrows always move the focus), their hints showing the bound keys; a controller's d-pad moves the focus, A chooses, B lets go
(or opens the menu), Back opens the menu, X rerolls, Y opens the lab, Start
goes on. Every string is an i18n key (`ui.shop.*`; spell and
core names through their `name_key`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Literal

import pygame

from artificer.content import Core, Spell
from artificer.content.models import Talent, WandStat
from artificer.game.endless import arena_scale, boss_rush, mutator
from artificer.game.loadout import BackpackFull, LoadoutError, LoadoutFull, WaitingAreaFull
from artificer.game.offer_effect import OfferEffect, offer_effect
from artificer.game.onboarding import TIP_SPECIAL_CORE, Onboarding, lesson_tip
from artificer.game.run import Run
from artificer.game.shop import NotEnoughGold, Offer, PotionBeltFull, ShelfName, ShopError
from artificer.game.stat_sheet import next_wave_hp
from artificer.ui.atlas import ELEMENT_COLOURS
from artificer.ui.cards import FAMILY_COLOURS, CardArt
from artificer.ui.hud import HP_COLOUR, shown_hp
from artificer.ui.i18n import tr
from artificer.ui.icons_potions import potion_icon
from artificer.ui.icons_relics import relic_icon
from artificer.ui.potion_belt import MENU_BUTTONS, PotionBeltView, drink, potion_lines, throw_away
from artificer.ui.relic_row import RelicRowView, relic_lines
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.scenes.arena import MUTATOR_KEYS, mutator_line
from artificer.ui.scenes.shop_menu import ShopMenuScene
from artificer.ui.session import Session
from artificer.ui.settings import Action, Context, key_hint
from artificer.ui.shop_widgets import (
    BACKGROUND,
    CRYSTAL,
    DESIGN,
    FAINT,
    TITLE,
    TOO_DEAR,
    Canvas,
    Colour,
    Hot,
    Tip,
    crystal,
    dashed_rect,
    mini_board,
    padlock,
    stat_icon,
    stat_text,
    stat_value_text,
    talent_icon,
)
from artificer.ui.spell_text import spell_tip
from artificer.ui.stat_sheet import open_stat_sheet
from artificer.ui.tips import TIP_SECONDS, show_once
from artificer.ui.widgets import (
    BAD,
    BUTTON_EDGE,
    BUTTON_FILL,
    BUTTON_HOVER,
    DIM,
    GOOD,
    PANEL_EDGE,
    TEXT,
    Toasts,
    draw_fitted,
    panel,
    wrap,
)

StackCallback = Callable[[SceneStack], None]
Area = Literal["backpack", "waiting"]

#: i18n keys built from data: element names, stat and talent names and descriptions, card families.
I18N_DYNAMIC_PREFIXES = ("ui.shop.element.", "ui.shop.stat.", "ui.shop.talent.", "ui.card.family.")

OFFER_FACE = (22, 19, 38)
CHIP_FACE = (30, 26, 48)
NO_ELEMENT = (170, 160, 210)
STAT_COLOUR = (0, 158, 115)
#: A talent's frame and glyph (R-END-1): Okabe–Ito orange, apart from the stats' green.
TALENT_COLOUR = (230, 159, 0)
#: Shelf C's places: they share this width (design units) from x = 528, `STAT_GAP` apart.
STAT_SHELF_WIDTH = 328
STAT_GAP = 8
#: A shelf C name's largest size (design px): "Lightning attunement" shrinks and wraps from it into a narrow place.
STAT_NAME_SIZE = 14
#: The header's room for the title (design units, from x = 24 to the potion offer at 452).
HEADER_WIDTH = 410
#: R-FEEL-2: the player's HP bar under the title (x, y, width, height in design units).
HP_BAR = (24, 46, 280, 20)
#: The price strip's top above an offer card's foot (design units).
BUY_STRIP_RISE = 38
#: A spell offer's card art at its largest (design units; it shrinks, keeping its shape, to leave room for the text).
SPELL_ART = (78, 92)
#: Rarity colours by tier: silver, blue, violet, gold.
TIER_COLOURS: dict[int, Colour] = {
    1: (190, 190, 205),
    2: (86, 160, 233),
    3: (190, 120, 255),
    4: (255, 196, 80),
    5: (255, 110, 90),  # R-CORE-5: only cores reach tier 5
}


#: R-ONB-2: the special core demo's colour.
BONUS_DEMO = (240, 228, 66)
#: R-FEEL-2: a change of sustained DPS smaller than this reads as none (grey, not green or red).
EFFECT_NOISE = 0.05
#: Offer effects kept at once (each shop's offers on a few boards); past it the cache starts over.
EFFECTS_KEPT = 256


def has_bonus(core: Core) -> bool:
    """R-ONB-2: a special core, one with an adjacency bonus on its board (R-BOARD-2)."""
    return any(slot.bonus is not None for slot in core.layout().slots)


class ShopScene(Scene):
    """Shelves A, B and C, the carried cores, the waiting area and the backpack; Lab and Next wave."""

    #: The loop the scene stack plays while the shop is on top.
    music = "shop"

    def __init__(
        self,
        run: Run,
        wave_number: int,
        on_open_lab: StackCallback | None,
        on_next_wave: StackCallback | None,
        on_change: Callable[[], None] | None = None,
        on_quit: StackCallback | None = None,
        session: Session | None = None,
        save_on_enter: bool = True,
    ) -> None:
        """The shop before wave `wave_number`, i.e. the shop after wave `wave_number − 1` (its
        odds and prices follow that wave). `on_open_lab(stack)` pushes the lab;
        `on_next_wave(stack)` goes on to the wave (the shop closes first); `on_change()` saves
        the run (R-SAVE-1; an `OSError` becomes a toast); `on_quit(stack)` leaves for the title
        (the menu's Save and quit). `session`: the settings the menu's Settings opens.
        `save_on_enter`: the shop opens and saves as it enters (False: the caller's run flow
        opened and saved it already)."""
        self.run = run
        self.wave = wave_number
        #: R-ONB-1: the run's onboarding (a first run's shop has no Lab, and no cards nor cores).
        self.onboarding = Onboarding.of(run.content, run.state.onboarding)
        #: R-ONB-2: the special core whose adjacency bonus the shop demonstrates, until `demo_until`.
        self.demo_core: str | None = None
        self._effects: dict[tuple[object, ...], OfferEffect] = {}
        self.demo_until = 0.0
        self.on_open_lab = on_open_lab
        self.on_next_wave = on_next_wave
        self.on_change = on_change
        self.on_quit = on_quit
        self.session = session if session is not None else Session.default()
        self.save_on_enter = save_on_enter
        self.stack: SceneStack | None = None
        self.toasts = Toasts()
        self.art = CardArt(run.content)
        self.mouse = (-1, -1)
        self.time = 0.0
        #: The focused place's key (keyboard and controller); shown while `keyboard` leads.
        self.focus: str | None = None
        self.keyboard = False
        #: The picked backpack or waiting card: (area, index), or None.
        self.selected: tuple[Area, int] | None = None
        #: The core offer waiting for the player to name a core to sell (R-CORE-3), or None.
        self.drop_for: int | None = None
        self.hots: list[Hot] = []
        self._size = DESIGN
        self._view: Canvas | None = None
        self._stale = True
        #: R-POT-2: the belt's slots, tooltip and menu, in the header.
        self.potion_view = PotionBeltView()
        #: R-REL-4: the relics owned, at the foot of the shop.
        self.relic_view = RelicRowView()

    # ---- lifecycle ---------------------------------------------------------
    def on_enter(self, stack: SceneStack) -> None:
        self.stack = stack
        screen = pygame.display.get_surface()
        if screen is not None:
            self._size = screen.get_size()
        self.run.shop.open(max(1, self.wave - 1))  # opening the open shop changes nothing
        if self.save_on_enter:
            self.save()  # the open shop, its offers drawn: Continue shows these very offers
        self._tips()
        self._heads_up()

    def on_resume(self) -> None:
        # The lab may have moved cards meanwhile (it saved each edit through its own callback).
        self.selected = None
        self._stale = True

    # ---- saving (R-SAVE-1) ------------------------------------------------------
    def save(self) -> bool:
        """Writes the run as it is now (`on_change`); False, with a toast, when the write failed."""
        if self.on_change is None:
            return True
        try:
            self.on_change()
        except OSError as error:
            self.toasts.show(tr("ui.shop.save_failed", error=str(error)))
            return False
        return True

    def open_menu(self) -> None:
        """The Esc menu: Resume, Settings, Save and quit to title."""
        if self.stack is not None:
            self.stack.push(ShopMenuScene(self.session, self.save_and_quit))

    def save_and_quit(self) -> bool:
        """The menu's Save and quit: writes the run, then leaves for the title. False (and the
        shop stays, a toast saying why) when the write failed."""
        if not self.save():
            return False
        if self.on_quit is not None and self.stack is not None:
            self.on_quit(self.stack)
        return True

    def update(self, dt: float) -> None:
        self.time += dt
        self.toasts.tick(dt)
        self.relic_view.tick(dt)

    # ---- geometry: where things are on screen (tests click these) -----------------
    @property
    def view(self) -> Canvas:
        """The design-space mapping at the current window size."""
        if self._view is None or self._view.surface.get_size() != self._size:
            self._view = Canvas(pygame.Surface(self._size))
        return self._view

    def offer_rect(self, shelf: ShelfName, index: int) -> pygame.Rect:
        """The offer card at `shelf[index]`."""
        if shelf == "spells":
            return self.view.r(36 + index * 208, 124, 196, 226)
        if shelf == "cores":
            return self.view.r(36 + index * 228, 414, 216, 196)
        # Three places are 104 wide; a fourth (a talent after the stats) narrows them all to fit the panel.
        places = max(3, len(self.run.shop.shelves["stats"]))
        width = (STAT_SHELF_WIDTH - STAT_GAP * (places - 1)) / places
        return self.view.r(528 + index * (width + STAT_GAP), 414, width, 196)

    def lock_rect(self, shelf: ShelfName, index: int) -> pygame.Rect:
        card, px = self.offer_rect(shelf, index), self.view.px
        return pygame.Rect(card.right - px(28), card.top + px(2), px(24), px(24))

    @property
    def potion_offer_rect(self) -> pygame.Rect:
        """R-POT-2: the visit's potion, in the header."""
        return self.view.r(452, 14, 204, 54)

    def potion_slot_rect(self, index: int) -> pygame.Rect:
        """Slot `index` of the potion belt, in the header right of the potion for sale."""
        self.potion_view.scale = self.view.scale
        self.potion_view.topleft = self.view.r(670, 21).topleft
        return self.potion_view.slot_rect(index)

    @property
    def relic_offer_rect(self) -> pygame.Rect:
        """R-REL-3: the visit's relic, in the header right of the potion belt."""
        return self.view.r(898, 14, 232, 54)

    def relic_slot_rect(self, index: int) -> pygame.Rect:
        """Slot `index` of the relic row, at the foot of the shop (left of the toasts)."""
        self.relic_view.scale = self.view.scale
        self.relic_view.topleft = self.view.r(24, 626).topleft
        return self.relic_view.slot_rect(index)

    @property
    def reroll_rect(self) -> pygame.Rect:
        return self.view.r(664, 86, 186, 32)

    @property
    def stats_rect(self) -> pygame.Rect:
        """R-STAT-2: the stats sheet's button, in shelf C's title row."""
        return self.view.r(716, 378, 138, 30)

    @property
    def lab_rect(self) -> pygame.Rect:
        return self.view.r(874, 640, 180, 56)

    @property
    def next_wave_rect(self) -> pygame.Rect:
        return self.view.r(1066, 640, 192, 56)

    def chip_rect(self, area: Area, index: int) -> pygame.Rect:
        """A backpack or waiting-area place."""
        if area == "waiting":
            return self.view.r(886 + index * 74, 372, 68, 36)
        rows = max(1, math.ceil(self.run.loadout.limits_backpack / 4))
        height = min(30.0, (140 - 5 * (rows - 1)) / rows)
        return self.view.r(886 + (index % 4) * 91, 466 + (index // 4) * (height + 5), 85, height)

    def core_row_rect(self, index: int) -> pygame.Rect:
        """The row of the `index`th carried core."""
        return self.view.r(886, 114 + index * 68, 360, 62)

    def slot_rect(self, core_index: int, slot: int) -> pygame.Rect:
        """Slot `slot` of the `core_index`th carried core, in its row's strip."""
        row, px = self.core_row_rect(core_index), self.view.px
        return pygame.Rect(row.x + px(12) + slot * (px(17) + px(4)), row.y + px(34), px(17), px(17))

    # ---- actions (each turns a refusal into a toast) -----------------------------
    def buy(self, shelf: ShelfName, index: int) -> None:
        """Buys `shelf[index]`; a core beyond the limit opens the choice of a core to sell (R-CORE-3)."""
        try:
            offer = self.run.shop.offer(shelf, index)
        except ShopError:
            return
        self._stale = True
        try:
            self.run.shop.buy(shelf, index)
        except LoadoutFull:
            self.drop_for = index
            self.focus = None
            self.toasts.show(tr("ui.shop.choose_core", limit=self.run.loadout.limits[0]))
            return
        except (ShopError, LoadoutError) as refusal:
            self._refused(refusal)
            return
        self.save()
        self.toasts.show(tr("ui.shop.bought", name=self._offer_name(offer)))

    def choose_drop(self, core_id: str) -> None:
        """Sells `core_id` to make room for the core offer waiting in `drop_for`."""
        index, self.drop_for = self.drop_for, None
        if index is None:
            return
        offer = self.run.shop.offer("cores", index)
        if self._attempt(lambda: self.run.shop.buy_core(index, drop=core_id)):
            self.toasts.show(tr("ui.shop.bought", name=self._offer_name(offer)))

    def cancel(self) -> bool:
        """Closes the choice of a core to sell, or lets go of the picked card; False if neither was open."""
        if self.drop_for is not None:
            self.drop_for = None
        elif self.selected is not None:
            self.selected = None
        else:
            return False
        self._stale = True
        return True

    def reroll(self) -> None:
        self._attempt(self.run.shop.reroll)

    def toggle_lock(self, shelf: ShelfName, index: int) -> None:
        self._attempt(lambda: self.run.shop.toggle_lock(shelf, index))

    def switch(self, core_id: str) -> None:
        # R-SHOP-1: the player gets the wand the offer's preview showed — the cards move onto a new, empty core.
        if self._attempt(lambda: self.run.shop.switch_core(core_id, carry=True)):
            self.toasts.show(tr("ui.shop.switched", name=tr(self.run.content.core(core_id).name_key)))

    def sell_core(self, core_id: str) -> None:
        if len(self.run.loadout.cores) == 1:
            self.toasts.show(tr("ui.shop.last_core"))
            return
        name = tr(self.run.content.core(core_id).name_key)
        gold = self.run.shop.core_sale_value(core_id)
        if self._attempt(lambda: self.run.shop.sell_core(core_id)):
            self.toasts.show(self._sold_text(name, gold))

    def select(self, area: Area, index: int) -> None:
        """Picks a backpack or waiting card (picking it again lets go)."""
        self.selected = None if self.selected == (area, index) else (area, index)
        if self.selected is not None and area == "waiting":
            self.toasts.show(tr("ui.shop.waiting_hint"))
        self._stale = True

    def selected_card(self) -> str | None:
        """The picked card's id, if a card is picked."""
        if self.selected is None:
            return None
        area, index = self.selected
        cards = self.run.loadout.backpack if area == "backpack" else self.run.loadout.waiting
        return cards[index] if 0 <= index < len(cards) else None

    def sell_selected(self) -> None:
        card = self.selected_card()
        if card is None or self.selected is None:
            return
        area, index = self.selected
        name = tr(self.run.content.spell(card).name_key)
        gold = self.run.shop.card_sale_value(card)
        shop = self.run.shop
        sell = partial(shop.sell_card, index) if area == "backpack" else partial(shop.sell_waiting, card)
        if self._attempt(sell):
            self.selected = None
            self.toasts.show(self._sold_text(name, gold))

    def stash_selected(self) -> None:
        card = self.selected_card()
        if card is not None and self._attempt(lambda: self.run.shop.stash_waiting(card)):
            self.selected = None

    def place_selected(self, core_id: str, slot: int) -> None:
        card = self.selected_card()
        if card is None or self.selected is None or self.selected[0] != "waiting":
            return
        if self._attempt(lambda: self.run.shop.place_waiting(card, core_id, slot)):
            self.selected = None
            content = self.run.content
            self.toasts.show(
                tr("ui.shop.placed", name=tr(content.spell(card).name_key), core=tr(content.core(core_id).name_key))
            )

    def buy_potion(self) -> None:
        """R-POT-2: the visit's potion into the belt; a full belt is refused with a toast."""
        potion_id = self.run.shop.potion
        self._stale = True
        try:
            self.run.shop.buy_potion()
        except PotionBeltFull:
            self.toasts.show(tr("ui.shop.belt_full"))
            return
        except ShopError as refusal:
            self._refused(refusal)
            return
        self.save()
        if potion_id is not None:
            self.toasts.show(tr("ui.shop.bought", name=tr(self.run.content.potions.potion(potion_id).name)))

    def buy_relic(self) -> None:
        """R-REL-3: the visit's relic becomes the run's; short of gold, a toast says so."""
        relic_id = self.run.shop.relic
        if relic_id is None:
            return
        if self._attempt(self.run.shop.buy_relic):
            self.relic_view.flash(relic_id)
            self.toasts.show(tr("ui.shop.bought", name=tr(self.run.content.relics.relic(relic_id).name_key)))

    def potion_slot(self, index: int) -> None:
        """A click on a belt slot: opens (or closes) its menu when it holds a potion."""
        view = self.potion_view
        self._stale = True
        if view.menu == index or self.run.potions.potion_at(index) is None:
            view.close()
        else:
            view.open(index)

    def potion_button(self, index: int, button: str) -> None:
        """The potion menu's buttons in the shop: Use is refused (not in a wave), Discard works (R-POT-2)."""
        self._stale = True
        if button == "close":
            self.potion_view.close()
            return
        done, message = throw_away(self.run, index) if button == "discard" else drink(self.run, None, index, None)
        self.toasts.show(message)
        if done:
            self.save()
            self.potion_view.close()

    def open_lab(self) -> None:
        if not self.onboarding.lab:
            self.toasts.show(tr("ui.onboarding.lab_closed"), 3.0)
            return
        if self.on_open_lab is not None and self.stack is not None:
            self.on_open_lab(self.stack)

    def open_stats(self) -> None:
        """R-STAT-2: the stats sheet over the shop (its key or Esc closes it)."""
        open_stat_sheet(self.stack, self.run, self.session.controls)

    def _closed_shelf(self, canvas: Canvas, area: pygame.Rect, text: str) -> None:
        """R-ONB-1: a shelf a first run does not stock — a padlock and when it opens, dimmed."""
        lock = pygame.Rect(0, 0, canvas.px(40), canvas.px(40))
        lock.center = (area.centerx, area.centery - canvas.px(20))
        padlock(canvas.surface, lock, FAINT, locked=True)
        inner = pygame.Rect(
            area.x + canvas.px(30), lock.bottom + canvas.px(12), area.width - canvas.px(60), canvas.px(50)
        )
        canvas.fitted_in(text, 17, False, FAINT, inner, 2)

    def _bonus_demo(self, canvas: Canvas, core: Core, board: pygame.Rect, max_cell: int) -> None:
        """R-ONB-2's demo of a special core's adjacency bonus: each bonus slot's ring pulses and a spark
        runs from it to the neighbour it strengthens, over and over while the tip shows."""
        layout = core.layout()
        cols = max(s.x for s in layout.slots) + 1
        rows = max(s.y for s in layout.slots) + 1
        cell = min(board.width / cols, board.height / rows, max_cell)
        left, top = board.centerx - cols * cell / 2, board.centery - rows * cell / 2
        phase = (self.time * 1.5) % 1.0
        ring = BONUS_DEMO
        for slot in layout.slots:
            target = layout.bonus_target(slot)
            if slot.bonus is None or target is None:
                continue
            a = (left + (slot.x + 0.5) * cell, top + (slot.y + 0.5) * cell)
            b = (left + (target.x + 0.5) * cell, top + (target.y + 0.5) * cell)
            radius = max(3, int(cell * (0.4 + 0.25 * phase)))
            pygame.draw.circle(canvas.surface, ring, (round(a[0]), round(a[1])), radius, 2)
            spark = (round(a[0] + (b[0] - a[0]) * phase), round(a[1] + (b[1] - a[1]) * phase))
            pygame.draw.circle(canvas.surface, ring, spark, max(2, int(cell * 0.18)))

    def _tips(self) -> None:
        """R-ONB-1/2, once each: the first shop's lesson (a closed lab's, the first modifier's when it is
        offered), and the first special core offered, its adjacency bonus shown (the offer's board pulses)."""
        show = lambda text: self.toasts.show(text, TIP_SECONDS)  # noqa: E731
        keep = not self.run.state.practice  # R-END-5: a practice run remembers its tips for the session only
        if not self.onboarding.lab:
            show_once(lesson_tip("shop"), show, tr("ui.onboarding.lesson.shop"), keep)
        offered = {offer.item for shelf in self.run.shop.shelves.values() for offer in shelf if offer is not None}
        if self.onboarding.lesson == "damage_plus" and "damage_plus" in offered:
            show_once(lesson_tip("damage_plus"), show, tr("ui.onboarding.lesson.damage_plus"), keep)
        cores = [offer.item for offer in self.run.shop.shelves["cores"] if offer is not None]
        special = [item for item in cores if has_bonus(self.run.content.core(item))]
        if special:
            name = tr(self.run.content.core(special[0]).name_key)
            if show_once(TIP_SPECIAL_CORE, show, tr("ui.tip.special_core", name=name), keep):
                self.demo_core = special[0]
                self.demo_until = self.time + TIP_SECONDS

    def _heads_up(self) -> None:
        """R-END-3: what the coming endless wave holds — a boss rush, its global mutator with its
        one-line explanation — said as the shop opens, while there is still gold to answer it with."""
        if not self.run.state.endless:
            return
        content = self.run.content
        if boss_rush(content, self.wave):
            count = content.balance.endless.boss_rush.bosses
            self.toasts.show(tr("ui.shop.next_rush", wave=self.wave, count=count), TIP_SECONDS)
        coming = mutator(content, self.wave)
        if coming is not None:
            line = mutator_line(content, coming.id, arena_scale(content, self.wave))
            name = tr(MUTATOR_KEYS[coming.id][0])
            self.toasts.show(tr("ui.shop.next_mutator", wave=self.wave, name=name), TIP_SECONDS)
            self.toasts.show(line, TIP_SECONDS)  # its own toast: with the name it did not fit two lines

    def next_wave(self) -> None:
        """Goes on — unless the wand cannot fire (R-VM-2)."""
        if not self.run.diagnostics["can_fire"]:
            self.toasts.show(tr("ui.lab.cannot_fire"))
            return
        if self.on_next_wave is not None and self.stack is not None:
            self.run.shop.close()
            self.on_next_wave(self.stack)

    def _let_go(self) -> None:
        self.cancel()

    def _attempt(self, action: Callable[[], object]) -> bool:
        """Does a shop action; a refusal becomes a toast (False), a change is saved (True)."""
        self._stale = True
        try:
            action()
        except (ShopError, LoadoutError) as refusal:
            self._refused(refusal)
            return False
        self.save()
        return True

    @staticmethod
    def _sold_text(name: str, gold: int) -> str:
        """The toast after a sale; R-SHOP-1: a card or core never paid for was discarded."""
        return tr("ui.shop.sold", name=name, gold=gold) if gold > 0 else tr("ui.shop.discarded", name=name)

    def _refused(self, refusal: Exception) -> None:
        if isinstance(refusal, NotEnoughGold):
            self.toasts.show(tr("ui.shop.not_enough_gold", price=refusal.price))
        elif isinstance(refusal, BackpackFull):
            self.toasts.show(tr("ui.shop.backpack_full"))
        elif isinstance(refusal, WaitingAreaFull):
            self.toasts.show(tr("ui.shop.waiting_full"))
        else:
            self.toasts.show(tr("ui.shop.refused"))

    def _offer_name(self, offer: Offer) -> str:
        if offer.kind == "spells":
            return tr(self.run.content.spell(offer.item).name_key)
        if offer.kind == "cores":
            return tr(self.run.content.core(offer.item).name_key)
        if offer.talent is not None:
            return tr(f"ui.shop.talent.{offer.talent}.name")
        return tr(f"ui.shop.stat.{offer.item}.name")

    # ---- input ---------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if event.type == pygame.KEYDOWN:
            return self._key(event)
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self.keyboard = False
            return None
        if event.type == pygame.MOUSEBUTTONDOWN:
            self.mouse = event.pos
            if event.button == 1:
                self.click(event.pos)
            elif event.button == 3:
                self.cancel()
            return None
        if event.type == pygame.CONTROLLERBUTTONDOWN:
            return self._controller(event)
        return event

    def click(self, position: tuple[int, int]) -> None:
        """A left click at `position` (screen): the topmost place under it acts."""
        for hot in reversed(self._current_hots()):
            if hot.rect.collidepoint(position):
                hot.action()
                return
        if self.drop_for is None:
            self.cancel()

    def _key(self, event: pygame.event.Event) -> pygame.event.Event | None:
        action, modal = self.session.controls.pressed(event, Context.SHOP), self.drop_for is not None
        if action is Action.START_WAVE:
            self._choose() if modal else self.next_wave()
        elif action is Action.BACK:
            if not self.cancel():
                self.open_menu()
        elif action is Action.OPEN_LAB and not modal:
            self.open_lab()
        elif action is Action.REROLL and not modal:
            self.reroll()
        elif action is Action.STATS_SHEET and not modal:
            self.open_stats()
        elif action is Action.SELECT:
            self._choose()
        elif action in (Action.MOVE_RIGHT, Action.MOVE_DOWN):  # Tab too; Shift+Tab is a step left
            self._move_focus(1)
        elif action in (Action.MOVE_LEFT, Action.MOVE_UP):
            self._move_focus(-1)
        else:
            return event
        return None

    def _controller(self, event: pygame.event.Event) -> pygame.event.Event | None:
        button, modal = event.button, self.drop_for is not None
        if button == pygame.CONTROLLER_BUTTON_A:
            self._choose()
        elif button == pygame.CONTROLLER_BUTTON_B:
            if not self.cancel():
                self.open_menu()
        elif button == pygame.CONTROLLER_BUTTON_BACK:
            self.open_menu()
        elif button == pygame.CONTROLLER_BUTTON_X and not modal:
            self.reroll()
        elif button == pygame.CONTROLLER_BUTTON_Y and not modal:
            self.open_lab()
        elif button == pygame.CONTROLLER_BUTTON_START and not modal:
            self.next_wave()
        elif button in (pygame.CONTROLLER_BUTTON_DPAD_RIGHT, pygame.CONTROLLER_BUTTON_DPAD_DOWN):
            self._move_focus(1)
        elif button in (pygame.CONTROLLER_BUTTON_DPAD_LEFT, pygame.CONTROLLER_BUTTON_DPAD_UP):
            self._move_focus(-1)
        else:
            return event
        return None

    def _move_focus(self, step: int) -> None:
        self.keyboard = True
        keys = [hot.key for hot in self._current_hots()]
        if keys:
            index = keys.index(self.focus) if self.focus in keys else (-1 if step > 0 else 0)
            self.focus = keys[(index + step) % len(keys)]

    def _choose(self) -> None:
        hot = next((h for h in self._current_hots() if h.key == self.focus), None)
        if hot is not None:
            self.keyboard = True
            hot.action()

    def _current_hots(self) -> list[Hot]:
        """The places as they are now: redrawn off screen when something changed since the last frame."""
        if self._stale or not self.hots:
            self._compose(Canvas(pygame.Surface(self._size), self.mouse, self.time))
        return self.hots

    # ---- drawing -----------------------------------------------------------
    def _key_hint(self, action: Action) -> str:
        """The key bound to `action`, as a button's hint shows it ("Enter", "R")."""
        return key_hint(self.session.settings.key_for(action))

    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        self._size = surface.get_size()
        self._compose(Canvas(surface, self.mouse, self.time))

    def _compose(self, canvas: Canvas) -> None:
        """Draws the whole shop and records what can be clicked, in focus order."""
        canvas.surface.fill(BACKGROUND)
        self._header(canvas)
        self._shelf_spells(canvas)
        self._shelf_cores(canvas)
        self._shelf_stats(canvas)
        self._carried_cores(canvas)
        self._waiting_area(canvas)
        self._backpack(canvas)
        hint = self._key_hint
        lab = self.onboarding.lab  # R-ONB-1: a first run's lab is closed
        label = tr("ui.shop.lab") if lab else tr("ui.onboarding.lab_next_run")
        canvas.button(self.lab_rect, label, hint(Action.OPEN_LAB) if lab else "", self.open_lab, "lab", enabled=lab)
        canvas.button(
            self.next_wave_rect, tr("ui.shop.next_wave"), hint(Action.START_WAVE), self.next_wave, "next_wave",
            primary=True,
        )  # fmt: skip
        keys = tr(
            "ui.shop.keys_hint", select=hint(Action.SELECT), reroll=hint(Action.REROLL), lab=hint(Action.OPEN_LAB),
            next_wave=hint(Action.START_WAVE), menu=hint(Action.BACK),
        )  # fmt: skip
        canvas.text(keys, 13, FAINT, midleft=canvas.r(24, 684).topleft)
        self._potions(canvas)
        self._relics(canvas)
        if self.drop_for is not None:
            canvas.hots.clear()  # the choice is modal: only its buttons act
            self._drop_dialog(canvas)
        self.hots = canvas.hots
        if self.focus not in {hot.key for hot in self.hots}:
            self.focus = None
        if self.keyboard:
            canvas.focus_ring(self.focus)
        toasts_at = canvas.r(686, 628)
        self.toasts.draw(canvas.surface, toasts_at.x, toasts_at.y)
        canvas.tooltip(self.focus if self.keyboard else None)
        self._stale = False

    def _header(self, canvas: Canvas) -> None:
        """The title, the player's HP under it (R-FEEL-2) and the gold on the right."""
        px = canvas.px
        title, size = tr("ui.shop.title", wave=self.wave), 26
        while size > 16 and canvas.font(size, True).size(title)[0] > px(HEADER_WIDTH):
            size -= 1
        canvas.text(title, size, TITLE, True, topleft=canvas.r(24, 8).topleft)
        self._hp_bar(canvas, canvas.r(*HP_BAR))
        gold = canvas.text(str(self.run.currency), 30, CRYSTAL, True, midright=canvas.r(1256, 40).topleft)
        crystal(canvas.surface, (gold.left - px(18), gold.centery), px(11))

    @property
    def hp_rect(self) -> pygame.Rect:
        """R-FEEL-2: the player's HP bar, under the title."""
        return self.view.r(*HP_BAR)

    def _hp_bar(self, canvas: Canvas, rect: pygame.Rect) -> None:
        """R-LOOP-1: the HP the next wave starts with (the wave's heal on what the last one left), over
        max HP (relics and upgrades included) — not the wound the heal will close."""
        hp_max = self.run.sim.world.player_hp()[1]
        hp = next_wave_hp(self.run)
        radius = canvas.px(5)
        pygame.draw.rect(canvas.surface, (40, 38, 56), rect, border_radius=radius)
        fill = rect.copy()
        fill.width = round(rect.width * max(0.0, min(1.0, hp / max(1.0, hp_max))))
        if fill.width > 0:
            pygame.draw.rect(canvas.surface, HP_COLOUR, fill, border_radius=radius)
        pygame.draw.rect(canvas.surface, PANEL_EDGE, rect, 1, border_radius=radius)
        canvas.fitted(
            tr("ui.shop.hp", hp=shown_hp(hp), hp_max=hp_max),
            14,
            True,
            TEXT,
            (rect.centerx, rect.y + canvas.px(1)),
            rect.width - canvas.px(8),
        )

    # potions (R-POT-2) -------------------------------------------------------------
    def _potions(self, canvas: Canvas) -> None:
        """The potion for sale and the belt; the belt's menu or tooltip on top of the shelves."""
        px, rect = canvas.px, self.potion_offer_rect
        potion_id = self.run.shop.potion
        if potion_id is None:
            dashed_rect(canvas.surface, rect, FAINT, px(6), px(8))
            canvas.text(tr("ui.shop.sold_out"), 14, FAINT, True, center=rect.center)
        else:
            potion = self.run.content.potions.potion(potion_id)
            price = self.run.shop.potion_price
            affordable = self.run.currency >= price and not self.run.potions.full
            lit = canvas.hovered(rect) and self.drop_for is None
            pygame.draw.rect(canvas.surface, (44, 38, 72) if lit else CHIP_FACE, rect, border_radius=px(8))
            pygame.draw.rect(canvas.surface, TITLE if lit else PANEL_EDGE, rect, 1, border_radius=px(8))
            potion_icon(canvas.surface, potion.icon, (rect.x + px(28), rect.centery), px(20))
            canvas.text(tr("ui.shop.potion"), 11, DIM, topleft=(rect.x + px(54), rect.y + px(6)))
            canvas.fitted_in(tr(potion.name), 15, True, TEXT, self._header_name_box(canvas, rect))
            canvas.price_tag((rect.right - px(32), rect.centery), price, 17, CRYSTAL if affordable else TOO_DEAR)
            canvas.hots.append(
                Hot(
                    rect,
                    self.buy_potion,
                    "potion_offer",
                    [(text, colour) for text, colour in potion_lines(self.run, potion)],
                )
            )
        self.potion_slot_rect(0)  # places the view at this window size
        view = self.potion_view
        for index in range(len(self.run.potions.held)):
            slot = self.potion_slot_rect(index)
            canvas.hots.append(Hot(slot, partial(self.potion_slot, index), f"potion_slot:{index}"))
        view.draw(canvas.surface, self.run, canvas.mouse, keys=(), in_wave=False)
        if view.menu is not None:
            for name, button in zip(MENU_BUTTONS, view.buttons):
                canvas.hots.append(Hot(button, partial(self.potion_button, view.menu, name), f"potion_menu:{name}"))

    @staticmethod
    def _header_name_box(canvas: Canvas, rect: pygame.Rect) -> pygame.Rect:
        """Where the potion's or relic's name goes in its header offer: under the "Potion" /
        "Relic" label, between the glyph and the price; a long name takes two lines."""
        px = canvas.px
        return pygame.Rect(rect.x + px(54), rect.y + px(20), rect.width - px(118), rect.height - px(22))

    # relics (R-REL-3/4) ----------------------------------------------------------------
    def _relics(self, canvas: Canvas) -> None:
        """The relic for sale, and the row of relics owned with its tooltip."""
        px, rect = canvas.px, self.relic_offer_rect
        relic_id = self.run.shop.relic
        if relic_id is None:
            dashed_rect(canvas.surface, rect, FAINT, px(6), px(8))
            canvas.text(tr("ui.shop.sold_out"), 14, FAINT, True, center=rect.center)
        else:
            relic = self.run.content.relics.relic(relic_id)
            price = self.run.shop.relic_price
            affordable = self.run.currency >= price
            lit = canvas.hovered(rect) and self.drop_for is None
            pygame.draw.rect(canvas.surface, (44, 38, 72) if lit else CHIP_FACE, rect, border_radius=px(8))
            pygame.draw.rect(canvas.surface, TITLE if lit else PANEL_EDGE, rect, 1, border_radius=px(8))
            relic_icon(canvas.surface, relic.icon, (rect.x + px(28), rect.centery), px(19))
            canvas.text(tr("ui.shop.relic"), 11, DIM, topleft=(rect.x + px(54), rect.y + px(6)))
            canvas.fitted_in(tr(relic.name_key), 15, True, TEXT, self._header_name_box(canvas, rect))
            canvas.price_tag((rect.right - px(32), rect.centery), price, 17, CRYSTAL if affordable else TOO_DEAR)
            canvas.hots.append(Hot(rect, self.buy_relic, "relic_offer", relic_lines(relic)))
        self.relic_slot_rect(0)  # places the row at this window size
        self.relic_view.draw(canvas.surface, self.run.relics, canvas.mouse)

    # shelf A -------------------------------------------------------------------
    def _shelf_spells(self, canvas: Canvas) -> None:
        area = canvas.r(22, 78, 840, 284)
        panel(canvas.surface, area)
        canvas.panel_title(area, "A", tr("ui.shop.shelf_spells"))
        shop = self.run.shop
        if not self.onboarding.lab:  # R-ONB-1: a first run's shelf says when cards come, not "Sold"
            self._closed_shelf(canvas, area, tr("ui.onboarding.no_cards"))
            return
        canvas.price_button(
            self.reroll_rect, tr("ui.shop.reroll"), shop.reroll_cost, self.reroll, "reroll", hint=self._key_hint(Action.REROLL),
            affordable=self.run.currency >= shop.reroll_cost,
        )  # fmt: skip
        for index, offer in enumerate(shop.shelves["spells"]):
            rect = self.offer_rect("spells", index)
            if offer is None:
                self._sold_place(canvas, rect)
            else:
                self._spell_offer(canvas, rect, self.run.content.spell(offer.item), offer, index)

    def _spell_offer(self, canvas: Canvas, rect: pygame.Rect, spell: Spell, offer: Offer, index: int) -> None:
        px = canvas.px
        tier_colour = self._offer_frame(canvas, rect, offer)
        # The three lines stack up from the price strip by their font's own height (the Korean,
        # Japanese and Chinese faces are taller than the Latin one), and the art takes what is left.
        name_h, line_h = canvas.font(16, True).get_height(), canvas.font(13).get_height()
        cost_top = rect.bottom - px(BUY_STRIP_RISE) - px(1) - line_h
        line_top = cost_top - line_h + px(2)
        name_top = line_top - name_h + px(2)
        art_top, art_bottom = rect.y + px(30), name_top - px(2)
        art_h = max(px(40), min(px(SPELL_ART[1]), art_bottom - art_top))
        art_size = (art_h * SPELL_ART[0] // SPELL_ART[1], art_h)
        canvas.surface.blit(self.art.image(spell.id, art_size), (rect.centerx - art_size[0] // 2, art_top))
        width = rect.width - px(12)
        canvas.fitted(tr(spell.name_key), 16, True, TEXT, (rect.centerx, name_top), width)
        line, colour = self._element_line(spell)
        canvas.fitted(line, 13, False, colour, (rect.centerx, line_top), width)
        cost = tr("ui.card.cost", mana=spell.mana_cost, cpu=spell.cpu)
        canvas.fitted(cost, 13, False, DIM, (rect.centerx, cost_top), width)
        tip = spell_tip(spell, self.run.content.balance.statuses, tier_colour) + self._wand_effect("spells", spell.id)
        self._buy_strip(canvas, rect, offer, partial(self.buy, "spells", index), f"spell:{index}", tip)
        self._lock(canvas, "spells", index, offer)

    def offer_effect(self, shelf: str, item: str) -> OfferEffect:
        """R-SHOP-1, R-FEEL-2: the offer's effect on the active wand (`game.offer_effect`), kept until
        the wand or the CPU bought changes (the tooltip asks every frame)."""
        core_id, cards = self.run.loadout.wand()
        key = (shelf, item, core_id, tuple(cards), self.run.wand_stats.totals.get(WandStat.CPU, 0.0))
        if key not in self._effects:
            if len(self._effects) > EFFECTS_KEPT:
                self._effects.clear()
            self._effects[key] = offer_effect(self.run, shelf, item)
        return self._effects[key]

    def _wand_effect(self, shelf: str, item: str) -> list[tuple[str, tuple[int, int, int]]]:
        """The tooltip's lines: sustained DPS now → after (and the card a full board would give up)."""
        effect = self.offer_effect(shelf, item)
        colour = GOOD if effect.gain > EFFECT_NOISE else BAD if effect.gain < -EFFECT_NOISE else DIM
        lines = [(tr("ui.shop.wand_effect", now=effect.now, after=effect.after), colour)]
        if effect.replaces is not None:
            lines.append(
                (tr("ui.shop.wand_effect_replaces", card=tr(self.run.content.spell(effect.replaces).name_key)), DIM)
            )
        return lines

    # shelf B -------------------------------------------------------------------
    def _shelf_cores(self, canvas: Canvas) -> None:
        area = canvas.r(22, 372, 476, 250)
        panel(canvas.surface, area)
        canvas.panel_title(area, "B", tr("ui.shop.shelf_cores"))
        if not self.onboarding.lab:
            self._closed_shelf(canvas, area, tr("ui.onboarding.no_cores"))
            return
        for index, offer in enumerate(self.run.shop.shelves["cores"]):
            rect = self.offer_rect("cores", index)
            if offer is None:
                self._sold_place(canvas, rect)
            else:
                self._core_offer(canvas, rect, self.run.content.core(offer.item), offer, index)

    def _core_offer(self, canvas: Canvas, rect: pygame.Rect, core: Core, offer: Offer, index: int) -> None:
        px = canvas.px
        tier_colour = self._offer_frame(canvas, rect, offer)
        canvas.fitted(tr(core.name_key), 16, True, TEXT, (rect.centerx, rect.y + px(30)), rect.width - px(40))
        demo = self.demo_core == core.id and self.time < self.demo_until
        # R-ONB-2: while its demo plays, the special core's board fills the card (its numbers wait).
        board = pygame.Rect(rect.x + px(14), rect.y + px(54), rect.width - px(28), px(96 if demo else 38))
        mini_board(canvas.surface, core, board, tier_colour, px(36 if demo else 30))
        if demo:
            self._bonus_demo(canvas, core, board, px(36))
        stats = [
            tr("ui.shop.core_mana", value=core.mana_max),
            tr("ui.shop.core_regen", value=core.mana_regen),
            tr("ui.shop.core_delay", value=core.cast_delay),
            tr("ui.shop.core_cpu", value=core.cpu_limit),
            tr("ui.shop.core_slots", value=core.capacity),
        ]
        # Mana | regen, the cast delay on a row of its own (its label is the longest in every
        # language), CPU | slots; each fitted to its cell.
        inner = rect.width - px(24)
        for row, cells in enumerate(() if demo else (stats[0:2], stats[2:3], stats[3:5])):
            cell = inner // len(cells)
            for column, text in enumerate(cells):
                at = (rect.x + px(12) + column * cell, rect.y + px(100) + row * px(17))
                draw_fitted(canvas.surface, text, canvas.px(13), False, DIM, cell - px(6), topleft=at)
        tip = [(tr(core.name_key), tier_colour), (tr(core.description_key), TEXT), ("  ·  ".join(stats), DIM)]
        tip += self._wand_effect("cores", core.id)
        self._buy_strip(canvas, rect, offer, partial(self.buy, "cores", index), f"core:{index}", tip)
        self._lock(canvas, "cores", index, offer)

    # shelf C -------------------------------------------------------------------
    def _shelf_stats(self, canvas: Canvas) -> None:
        area = canvas.r(510, 372, 352, 250)
        panel(canvas.surface, area)
        canvas.panel_title(area, "C", tr("ui.shop.shelf_stats"))
        canvas.button(
            self.stats_rect, tr("ui.stats.button"), self._key_hint(Action.STATS_SHEET), self.open_stats, "stats"
        )
        for index, offer in enumerate(self.run.shop.shelves["stats"]):
            rect = self.offer_rect("stats", index)
            if offer is None:
                self._sold_place(canvas, rect)
            elif offer.talent is not None:
                self._talent_offer(canvas, rect, offer, offer.talent, index)
            else:
                self._stat_offer(canvas, rect, offer, index)

    def _stat_offer(self, canvas: Canvas, rect: pygame.Rect, offer: Offer, index: int) -> None:
        px = canvas.px
        stat = WandStat(offer.item)
        entry = next(e for e in self.run.content.balance.shop.stats if e.stat == stat)
        colour = self._offer_frame(canvas, rect, offer, ribbon=False)
        stat_icon(canvas.surface, stat, (rect.centerx, rect.y + px(46)), px(18), colour)
        name = tr(f"ui.shop.stat.{stat}.name")
        canvas.fitted_in(name, STAT_NAME_SIZE, True, TEXT, self._stat_name_box(canvas, rect))
        canvas.text(f"+{stat_text(stat, entry.amount)}", 22, GOOD, True, midtop=(rect.centerx, rect.y + px(106)))
        # R-FEEL-2: the stat as the player has it now → after buying (relics and starting stats included).
        now, after = (stat_value_text(stat, value) for value in self.run.shop.stat_preview(stat))
        canvas.now_after(now, after, 15, (DIM, TEXT), (rect.centerx, rect.y + px(134)), rect.width - px(8))
        tip = [
            (name, colour),
            (tr(f"ui.shop.stat.{stat}.description"), TEXT),
            (tr("ui.shop.stat_preview", now=now, after=after), GOOD),
        ]
        self._buy_strip(canvas, rect, offer, partial(self.buy, "stats", index), f"stat:{index}", tip)
        self._lock(canvas, "stats", index, offer)

    @staticmethod
    def _stat_name_box(canvas: Canvas, rect: pygame.Rect) -> pygame.Rect:
        """A shelf C place's name, under its glyph: one line, or two when the place is narrow
        (four places share the shelf while a talent is offered)."""
        px = canvas.px
        return pygame.Rect(rect.x + px(3), rect.y + px(68), rect.width - px(6), px(38))

    def _talent_offer(self, canvas: Canvas, rect: pygame.Rect, offer: Offer, talent: Talent, index: int) -> None:
        """R-END-1: a talent on shelf C — its glyph, name and "once per run"; the description in the tooltip."""
        px = canvas.px
        colour = self._offer_frame(canvas, rect, offer, ribbon=False)
        talent_icon(canvas.surface, (rect.centerx, rect.y + px(46)), px(18), colour)
        name = tr(f"ui.shop.talent.{talent}.name")
        canvas.fitted_in(name, STAT_NAME_SIZE, True, TEXT, self._stat_name_box(canvas, rect))
        canvas.fitted(
            tr("ui.shop.once_per_run"), 12, False, colour, (rect.centerx, rect.y + px(112)), rect.width - px(8)
        )
        tip = [(name, colour), (tr(f"ui.shop.talent.{talent}.description"), TEXT)]
        self._buy_strip(canvas, rect, offer, partial(self.buy, "stats", index), f"stat:{index}", tip)
        self._lock(canvas, "stats", index, offer)

    # the carried cores, the waiting area, the backpack -----------------------------
    def _carried_cores(self, canvas: Canvas) -> None:
        loadout, px = self.run.loadout, canvas.px
        area = canvas.r(874, 78, 384, 244)
        panel(canvas.surface, area)
        canvas.panel_title(area, None, tr("ui.shop.your_cores", count=len(loadout.cores), limit=loadout.limits[0]))
        for row_index, carried in enumerate(loadout.cores):
            core = self.run.content.core(carried.core)
            row = self.core_row_rect(row_index)
            active = carried.core == loadout.active
            pygame.draw.rect(canvas.surface, CHIP_FACE, row, border_radius=px(8))
            pygame.draw.rect(
                canvas.surface, TITLE if active else PANEL_EDGE, row, 2 if active else 1, border_radius=px(8)
            )
            name = canvas.text(tr(core.name_key), 15, TEXT, True, topleft=(row.x + px(12), row.y + px(7)))
            if active:
                badge = canvas.font(11, True).render(tr("ui.shop.active"), True, BACKGROUND)
                pill = badge.get_rect(midleft=(name.right + px(10), name.centery)).inflate(px(10), px(4))
                pygame.draw.rect(canvas.surface, TITLE, pill, border_radius=pill.height // 2)
                canvas.surface.blit(badge, badge.get_rect(center=pill.center))
            self._slot_strip(canvas, row_index, carried.core, carried.cards)
            buttons_x = row.right - px(92)
            if not active:
                switch = pygame.Rect(buttons_x, row.y + px(6), px(84), px(24))
                canvas.button(
                    switch, tr("ui.shop.switch"), "", partial(self.switch, carried.core), f"switch:{carried.core}"
                )
            sell = pygame.Rect(buttons_x, row.y + px(33), px(84), px(24))
            self._sell_button(
                canvas, sell, self.run.shop.core_sale_value(carried.core), partial(self.sell_core, carried.core),
                f"sell_core:{carried.core}", enabled=len(loadout.cores) > 1,
            )  # fmt: skip
        for free in range(len(loadout.cores), loadout.limits[0]):
            row = self.core_row_rect(free)
            dashed_rect(canvas.surface, row, FAINT, px(6), px(8))
            canvas.text(tr("ui.shop.free_core_place"), 13, FAINT, center=row.center)

    def _slot_strip(self, canvas: Canvas, row_index: int, core_id: str, cards: list[str | None]) -> None:
        """The core's slots in a row: filled ones in their card's colours; while a waiting card
        is picked, the empty ones glow and take it."""
        waiting = self.selected_card() if self.selected is not None and self.selected[0] == "waiting" else None
        glow = 0.5 + 0.5 * math.sin(self.time * 6.0)
        radius = canvas.px(3)
        for slot, card in enumerate(cards):
            rect = self.slot_rect(row_index, slot)
            if card is None:
                pygame.draw.rect(canvas.surface, (22, 20, 36), rect, border_radius=radius)
                if waiting is None:
                    pygame.draw.rect(canvas.surface, PANEL_EDGE, rect, 1, border_radius=radius)
                    if canvas.hovered(rect):
                        canvas.hover_tip = [(tr("ui.shop.slot_empty"), DIM)]
                    continue
                edge = tuple(int(a + (b - a) * glow) for a, b in zip(PANEL_EDGE, TITLE))
                pygame.draw.rect(canvas.surface, edge, rect, 2, border_radius=radius)
                tip = [(tr("ui.shop.place_here", name=tr(self.run.content.spell(waiting).name_key)), TEXT)]
                canvas.hots.append(
                    Hot(rect, partial(self.place_selected, core_id, slot), f"slot:{core_id}:{slot}", tip)
                )
                continue
            spell = self.run.content.spell(card)
            pygame.draw.rect(canvas.surface, FAMILY_COLOURS.get(str(spell.family), DIM), rect, border_radius=radius)
            if spell.element is not None:
                band = (rect.x, rect.y, rect.width, max(2, rect.height // 4))
                pygame.draw.rect(
                    canvas.surface, ELEMENT_COLOURS.get(str(spell.element), NO_ELEMENT), band, border_radius=radius
                )
            if canvas.hovered(rect):
                canvas.hover_tip = spell_tip(spell, self.run.content.balance.statuses)

    def _waiting_area(self, canvas: Canvas) -> None:
        loadout = self.run.loadout
        _, limit = loadout.limits
        area = canvas.r(874, 330, 384, 88)
        panel(canvas.surface, area)
        canvas.panel_title(area, None, tr("ui.shop.waiting", count=len(loadout.waiting), limit=limit))
        card = self.selected_card() if self.selected is not None and self.selected[0] == "waiting" else None
        if card is not None:
            canvas.button(
                canvas.r(1064, 336, 112, 24), tr("ui.shop.to_backpack"), "", self.stash_selected, "to_backpack"
            )
            value = self.run.shop.card_sale_value(card)
            self._sell_button(canvas, canvas.r(1182, 336, 70, 24), value, self.sell_selected, "sell_waiting")
        elif loadout.waiting:
            canvas.text(tr("ui.shop.waiting_pick"), 12, FAINT, topright=canvas.r(1250, 342).topleft)
        for index in range(limit):
            self._chip(canvas, "waiting", index, loadout.waiting[index] if index < len(loadout.waiting) else None)

    def _backpack(self, canvas: Canvas) -> None:
        loadout = self.run.loadout
        area = canvas.r(874, 428, 384, 196)
        panel(canvas.surface, area)
        canvas.panel_title(
            area, None, tr("ui.shop.backpack", count=len(loadout.backpack), limit=loadout.limits_backpack)
        )
        card = self.selected_card() if self.selected is not None and self.selected[0] == "backpack" else None
        if card is not None:
            value = self.run.shop.card_sale_value(card)
            self._sell_button(canvas, canvas.r(1152, 434, 100, 24), value, self.sell_selected, "sell_card")
        elif loadout.backpack:
            canvas.text(tr("ui.shop.backpack_hint"), 12, FAINT, topright=canvas.r(1250, 440).topleft)
        for index in range(loadout.limits_backpack):
            self._chip(canvas, "backpack", index, loadout.backpack[index] if index < len(loadout.backpack) else None)

    def _chip(self, canvas: Canvas, area: Area, index: int, card: str | None) -> None:
        """A card in the backpack or the waiting area: a family-coloured tab and its name."""
        rect, px = self.chip_rect(area, index), canvas.px
        radius = px(5)
        if card is None:
            pygame.draw.rect(canvas.surface, (18, 16, 30), rect, border_radius=radius)
            pygame.draw.rect(canvas.surface, (40, 36, 60), rect, 1, border_radius=radius)
            return
        spell = self.run.content.spell(card)
        family = FAMILY_COLOURS.get(str(spell.family), DIM)
        picked = self.selected == (area, index)
        pygame.draw.rect(
            canvas.surface, (44, 38, 72) if picked or canvas.hovered(rect) else CHIP_FACE, rect, border_radius=radius
        )
        tab = (rect.x, rect.y, px(5), rect.height)
        pygame.draw.rect(canvas.surface, family, tab, border_top_left_radius=radius, border_bottom_left_radius=radius)
        pygame.draw.rect(canvas.surface, TITLE if picked else family, rect, 2 if picked else 1, border_radius=radius)
        # The name shrinks, then takes a second line, to fit the chip (it is cut only past that).
        label_box = pygame.Rect(rect.x + px(9), rect.y + px(1), rect.width - px(12), rect.height - px(2))
        canvas.fitted_in(tr(spell.name_key), 12 if area == "backpack" else 11, False, TEXT, label_box, align="left")
        tip = spell_tip(spell, self.run.content.balance.statuses, family)
        value = self.run.shop.card_sale_value(card)
        tip.append((tr("ui.shop.sell_value", gold=value), CRYSTAL) if value > 0 else (tr("ui.shop.discard_value"), DIM))
        canvas.hots.append(Hot(rect, partial(self.select, area, index), f"{area}:{index}", tip))

    # the choice of a core to sell ------------------------------------------------------
    def _drop_dialog(self, canvas: Canvas) -> None:
        assert self.drop_for is not None
        shade = pygame.Surface(canvas.surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 170))
        canvas.surface.blit(shade, (0, 0))
        offer = (
            self.run.shop.shelves["cores"][self.drop_for]
            if self.drop_for < len(self.run.shop.shelves["cores"])
            else None
        )
        if offer is None:
            self.drop_for = None
            return
        cores = self.run.loadout.cores
        box = canvas.r(380, 200, 520, 150 + 52 * len(cores))
        pygame.draw.rect(canvas.surface, BACKGROUND, box, border_radius=canvas.px(10))
        panel(canvas.surface, box)
        canvas.text(
            tr("ui.shop.drop_title", name=self._offer_name(offer)),
            22,
            TITLE,
            True,
            midtop=(box.centerx, box.y + canvas.px(16)),
        )
        body = canvas.font(14)
        top = box.y + canvas.px(56)
        for line in wrap(tr("ui.shop.drop_body", limit=self.run.loadout.limits[0]), body, box.width - canvas.px(40), 4):
            image = body.render(line, True, DIM)
            canvas.surface.blit(image, image.get_rect(midtop=(box.centerx, top)))
            top += body.get_linesize()
        for i, carried in enumerate(cores):
            name = tr(self.run.content.core(carried.core).name_key)
            rect, value = canvas.r(420, 300 + 52 * i, 440, 42), self.run.shop.core_sale_value(carried.core)
            action, key = partial(self.choose_drop, carried.core), f"drop:{carried.core}"
            if value > 0:
                canvas.price_button(rect, tr("ui.shop.drop_choice", name=name), value, action, key, refund=True)
            else:  # R-SHOP-1: never paid for, it goes for nothing
                canvas.button(rect, tr("ui.shop.drop_discard", name=name), "", action, key)
        canvas.button(
            canvas.r(560, 306 + 52 * len(cores), 160, 36),
            tr("ui.shop.cancel"),
            self._key_hint(Action.BACK),
            self._let_go,
            "cancel",
        )
        if self.focus is None and canvas.hots:
            self.focus = canvas.hots[0].key

    def _sell_button(
        self, canvas: Canvas, rect: pygame.Rect, value: int, action: Callable[[], None], key: str, enabled: bool = True
    ) -> None:
        """Sell with its refund ("+N"); R-SHOP-1: Discard, with no amount, for what was never paid for."""
        if value > 0:
            canvas.price_button(rect, tr("ui.shop.sell"), value, action, key, enabled=enabled, refund=True)
        else:
            canvas.button(rect, tr("ui.shop.discard"), "", action, key, enabled=enabled)

    # pieces of an offer ---------------------------------------------------------------
    def _element_line(self, spell: Spell) -> tuple[str, Colour]:
        """ "Fire · Action" in the element's colour."""
        element = str(spell.element) if spell.element is not None else "none"
        family = tr(f"ui.card.family.{spell.family}")
        line = tr("ui.shop.spell_line", element=tr(f"ui.shop.element.{element}"), family=family)
        return line, ELEMENT_COLOURS.get(element, NO_ELEMENT)

    def _offer_frame(self, canvas: Canvas, rect: pygame.Rect, offer: Offer, ribbon: bool = True) -> Colour:
        """The offer's card: face, a frame and band in its tier's colour (thicker when locked),
        a glow under the mouse; returns that colour."""
        if offer.talent is not None:
            colour = TALENT_COLOUR
        elif offer.kind == "stats":
            colour = STAT_COLOUR
        else:
            colour = TIER_COLOURS.get(offer.tier, TIER_COLOURS[1])
        px, radius = canvas.px, canvas.px(10)
        if canvas.hovered(rect) and self.drop_for is None:
            halo = rect.inflate(px(12), px(12))
            glow = pygame.Surface(halo.size, pygame.SRCALPHA)
            pygame.draw.rect(glow, (*colour, 60), glow.get_rect(), border_radius=radius + px(4))
            canvas.surface.blit(glow, halo)
        pygame.draw.rect(canvas.surface, OFFER_FACE, rect, border_radius=radius)
        band = pygame.Rect(rect.x, rect.y, rect.width, px(26))
        shade = pygame.Surface(band.size, pygame.SRCALPHA)
        pygame.draw.rect(
            shade, (*colour, 70), shade.get_rect(), border_top_left_radius=radius, border_top_right_radius=radius
        )
        canvas.surface.blit(shade, band)
        pygame.draw.rect(canvas.surface, colour, rect, 3 if offer.locked else 2, border_radius=radius)
        if ribbon:
            canvas.text(tr("ui.shop.tier", tier=offer.tier), 12, colour, True, midleft=(rect.x + px(10), band.centery))
        return colour

    def _buy_strip(
        self, canvas: Canvas, rect: pygame.Rect, offer: Offer, action: Callable[[], None], key: str, tip: Tip
    ) -> None:
        """The price at the card's foot. The whole card buys (the lock, drawn after, sits on top)."""
        px = canvas.px
        strip = pygame.Rect(rect.x + px(10), rect.bottom - px(BUY_STRIP_RISE), rect.width - px(20), px(30))
        affordable = self.run.currency >= offer.price
        lit = canvas.hovered(rect) and self.drop_for is None and affordable
        pygame.draw.rect(canvas.surface, BUTTON_HOVER if lit else BUTTON_FILL, strip, border_radius=px(7))
        pygame.draw.rect(canvas.surface, BUTTON_EDGE if affordable else (120, 60, 60), strip, 1, border_radius=px(7))
        canvas.price_tag(strip.center, offer.price, 17, CRYSTAL if affordable else TOO_DEAR)
        canvas.hots.append(Hot(rect, action, key, tip))

    def _lock(self, canvas: Canvas, shelf: ShelfName, index: int, offer: Offer) -> None:
        rect = self.lock_rect(shelf, index)
        hovered = canvas.hovered(rect)
        if offer.locked or hovered:
            pygame.draw.rect(
                canvas.surface, (50, 42, 20) if offer.locked else (40, 36, 60), rect, border_radius=canvas.px(6)
            )
        padlock(canvas.surface, rect, TITLE if offer.locked else (TEXT if hovered else DIM), offer.locked)
        tip = [(tr("ui.shop.unlock" if offer.locked else "ui.shop.lock"), TEXT)]
        canvas.hots.append(Hot(rect, partial(self.toggle_lock, shelf, index), f"lock:{shelf}:{index}", tip))

    def _sold_place(self, canvas: Canvas, rect: pygame.Rect) -> None:
        dashed_rect(canvas.surface, rect, FAINT, canvas.px(8), canvas.px(10))
        canvas.text(tr("ui.shop.sold_out"), 15, FAINT, True, center=rect.center)
