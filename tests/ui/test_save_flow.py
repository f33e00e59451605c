"""R-SAVE-1 in the window, under the dummy driver with posted key events: the run is saved as
the shop opens between waves; the summary deletes it; Continue on the title resumes at the shop
before the saved wave with the arena underneath; a corrupt save is set aside with a toast and
Continue greys out. (The save's own rules: tests/game/test_save.py.)"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pygame

from artificer.content import load_content
from artificer.game.run import Run, WaveStats
from artificer.game.save import LoadedRun, load_run, run_save_path, save_run
from artificer.game.shop import SHELVES
from artificer.ui.i18n import tr
from artificer.ui.play import title_scene
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene, PauseScene
from artificer.ui.scenes.lab import LabScene
from artificer.ui.scenes.shop import ShopScene
from artificer.ui.scenes.summary import INPUT_GRACE, SummaryScene
from artificer.ui.scenes.title import TitleScene

CONTENT = load_content()


def run_frames(stack: SceneStack, surface: pygame.Surface, n: int, keys: tuple[int, ...] = ()) -> None:
    for key in keys:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    for _ in range(n):
        for event in pygame.event.get():
            stack.handle_event(event)
        stack.update(1 / 60)
        stack.draw(surface, 0.0)


def shelves(run: Run) -> dict[str, list[Any]]:
    return {shelf: [None if o is None else dataclasses.asdict(o) for o in run.shop.shelves[shelf]] for shelf in SHELVES}


def continue_item(title: TitleScene) -> int:
    return next(i for i, item in enumerate(title.items) if item.key == "ui.title.continue")


def choose(stack: SceneStack, key: str) -> None:
    """Puts the title's cursor on the item `key` (where the cursor starts is the title's own test)."""
    title = stack.top
    assert isinstance(title, TitleScene)
    title.selected = next(i for i, item in enumerate(title.items) if item.key == key)


def test_the_shop_saves_the_run_and_the_summary_deletes_it(display: pygame.Surface) -> None:
    """New run → wave 1 ends → the shop opens and run.json holds the run before wave 2 →
    wave 2 → abandon → the summary deletes run.json. A new run's first wave replaces an old save."""
    run_save_path().parent.mkdir(parents=True, exist_ok=True)
    run_save_path().write_text("{}", encoding="utf-8")  # an older run's save
    stack = SceneStack()
    stack.push(title_scene(CONTENT))
    choose(stack, "ui.title.new_run")
    run_frames(stack, display, 3, (pygame.K_RETURN,))
    assert isinstance(stack.top, LabScene)
    assert run_save_path().exists(), "peeking at the lab keeps the old save"
    run_frames(stack, display, 3, (pygame.K_RETURN,))
    arena = stack.top
    assert isinstance(arena, ArenaScene) and arena.wave is not None
    assert not run_save_path().exists(), "wave 1 of a new run replaces the old save"

    run_frames(stack, display, 30)
    arena.wave.frames = arena.wave.stats.frames + 1  # the wave's time runs out now
    for _ in range(400):
        run_frames(stack, display, 1)
        if isinstance(stack.top, ShopScene):
            break
    shop = stack.top
    assert isinstance(shop, ShopScene) and shop.wave == 2
    saved = json.loads(run_save_path().read_text(encoding="utf-8"))
    assert saved["next_wave"] == 2 and [w["wave"] for w in saved["waves"]] == [1]
    assert saved["currency"] == arena.run.currency
    assert saved["seed"] == arena.run.seed

    run_frames(stack, display, 3, (pygame.K_RETURN,))  # Next wave
    assert stack.top is arena and arena.wave is not None and arena.wave.stats.wave == 2
    run_frames(stack, display, 3, (pygame.K_ESCAPE,))
    assert isinstance(stack.top, PauseScene)
    run_frames(stack, display, 3, (pygame.K_DOWN,) * 3 + (pygame.K_RETURN,))  # down ×3: Abandon
    assert isinstance(stack.top, SummaryScene)
    assert not run_save_path().exists()
    run_frames(stack, display, round(INPUT_GRACE * 60) + 1)  # the summary ignores keys at first
    run_frames(stack, display, 3, (pygame.K_RETURN,))
    title = stack.top
    assert isinstance(title, TitleScene) and not title.items[continue_item(title)].enabled


def test_continue_resumes_at_the_shop_before_the_saved_wave(display: pygame.Surface) -> None:
    """Continue: the shop before wave 3 (the same offers as the saved run's next shop), the arena
    underneath; Next wave starts wave 3 with the saved gold."""
    run = Run(CONTENT, 4242)
    run.currency = 77
    run.waves = [WaveStats(wave=1, kills=5), WaveStats(wave=2, kills=8)]
    save_run(run, 3)
    expected = load_run(CONTENT)
    assert isinstance(expected, LoadedRun)
    expected.run.shop.open(2)

    stack = SceneStack()
    stack.push(title_scene(CONTENT))
    title = stack.top
    assert isinstance(title, TitleScene) and title.items[continue_item(title)].enabled
    choose(stack, "ui.title.continue")
    run_frames(stack, display, 3, (pygame.K_RETURN,))
    shop = stack.top
    assert isinstance(shop, ShopScene) and shop.wave == 3
    arena = stack.scenes[-2]
    assert isinstance(arena, ArenaScene) and arena.number == 3 and arena.wave is None
    assert shop.run is arena.run
    assert shelves(shop.run) == shelves(expected.run)
    assert shop.run.currency == 77 and [w.kills for w in shop.run.waves] == [5, 8]
    assert run_save_path().exists()

    run_frames(stack, display, 3, (pygame.K_RETURN,))  # Next wave
    assert stack.top is arena and arena.wave is not None and arena.wave.stats.wave == 3
    run_frames(stack, display, 30)
    assert arena.wave.stats.frames > 0


def test_a_corrupt_save_is_set_aside_with_a_toast_and_continue_greys_out(display: pygame.Surface) -> None:
    run_save_path().parent.mkdir(parents=True, exist_ok=True)
    run_save_path().write_text('{"version": 1, "currency": ', encoding="utf-8")
    stack = SceneStack()
    stack.push(title_scene(CONTENT))
    title = stack.top
    assert isinstance(title, TitleScene) and title.items[continue_item(title)].enabled
    choose(stack, "ui.title.continue")
    run_frames(stack, display, 3, (pygame.K_RETURN,))
    assert stack.top is title and len(stack) == 1
    notice = next(text for text in title.notices if "run.json.corrupt" in text)
    assert notice.startswith(tr("ui.title.save_problem", file="run.json.corrupt", reason="¤").split("¤")[0])
    assert "not JSON" in notice, "the toast says why (R-SAVE-1, issue 13)"
    assert not title.items[continue_item(title)].enabled
    assert not run_save_path().exists()
    assert (run_save_path().parent / "run.json.corrupt").exists()
    title.selected = 0
    run_frames(stack, display, 1, (pygame.K_DOWN,))
    assert title.items[title.selected].key == "ui.title.settings", "the greyed Continue is skipped"


# --- every change in the shop is in run.json (R-SAVE-1, issue 12) ----------------------------


def click(stack: SceneStack, surface: pygame.Surface, position: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=position))
    run_frames(stack, surface, 2)


def continue_to_the_shop(surface: pygame.Surface) -> tuple[SceneStack, ShopScene]:
    """A fresh window (the last one was closed without warning): the title, then Continue."""
    stack = SceneStack()
    stack.push(title_scene(CONTENT))
    title = stack.top
    assert isinstance(title, TitleScene) and title.items[continue_item(title)].enabled
    title.selected = continue_item(title)
    run_frames(stack, surface, 3, (pygame.K_RETURN,))
    shop = stack.top
    assert isinstance(shop, ShopScene)
    return stack, shop


def shop_state(run: Run) -> dict[str, Any]:
    """What a player sees in the shop and owns: the offers and their locks, gold, loadout, stats."""
    shop = run.shop
    return {
        "shelves": shelves(run),
        "rerolls": shop.rerolls,
        "reroll_cost": shop.reroll_cost,
        "currency": run.currency,
        "loadout": (
            [(c.core, list(c.cards)) for c in run.loadout.cores],
            run.loadout.active,
            list(run.loadout.waiting),
            list(run.loadout.backpack),
        ),
        "paid_cards": shop.paid_cards,
        "stats": dict(run.wand_stats.totals),
        "relic": shop.relic,
        "potion": shop.potion,
        "potions": list(run.potions.held),
    }


def first_stat(run: Run) -> int:
    return next(i for i, offer in enumerate(run.shop.shelves["stats"]) if offer is not None and offer.talent is None)


def test_every_shop_change_is_in_run_json_quit_and_continue_after_each(display: pygame.Surface) -> None:
    """R-SAVE-1: each kind of change in the shop — buy, lock, reroll, stat upgrade, sell, a lab
    edit, a core switch — is written at once: the window is dropped without a word after each
    (a kill, Alt-F4), and Continue shows exactly that shop (the same offers, locks, rerolls,
    gold, loadout and stats), from which the next change is made."""
    run = Run(CONTENT, 5150)
    run.currency = 600
    run.waves = [WaveStats(wave=1)]
    save_run(run, 2)
    stack, shop = continue_to_the_shop(display)

    def buy(shop: ShopScene, stack: SceneStack) -> None:
        click(stack, display, shop.offer_rect("spells", 0).center)

    def lock(shop: ShopScene, stack: SceneStack) -> None:
        click(stack, display, shop.lock_rect("spells", 1).center)

    def reroll(shop: ShopScene, stack: SceneStack) -> None:
        run_frames(stack, display, 2, (pygame.K_r,))

    def upgrade(shop: ShopScene, stack: SceneStack) -> None:
        click(stack, display, shop.offer_rect("stats", first_stat(shop.run)).center)

    def buy_core(shop: ShopScene, stack: SceneStack) -> None:
        click(stack, display, shop.offer_rect("cores", 0).center)

    def switch(shop: ShopScene, stack: SceneStack) -> None:
        other = shop.run.loadout.cores[1].core
        click(stack, display, next(h for h in shop.hots if h.key == f"switch:{other}").rect.center)

    def sell(shop: ShopScene, stack: SceneStack) -> None:
        click(stack, display, shop.chip_rect("backpack", 0).center)
        click(stack, display, next(h for h in shop.hots if h.key == "sell_card").rect.center)

    def lab_edit(shop: ShopScene, stack: SceneStack) -> None:
        run_frames(stack, display, 2, (pygame.K_l,))
        lab = stack.top
        assert isinstance(lab, LabScene) and lab.on_change is not None
        # An edit as the lab makes it: a slotted card back to the backpack; the lab then calls on_change.
        carried = shop.run.loadout.carried(shop.run.loadout.active)  # the switch carried the spark bolts onto it
        slot = next(i for i, card in enumerate(carried.cards) if card is not None)
        shop.run.loadout.backpack.append(carried.cards[slot] or "")
        carried.cards[slot] = None
        lab.on_change()

    changes = [("buy", buy), ("lock", lock), ("reroll", reroll), ("upgrade", upgrade), ("sell", sell),
               ("buy a core", buy_core), ("switch", switch), ("lab edit", lab_edit)]  # fmt: skip
    for name, change in changes:
        before = json.loads(run_save_path().read_text(encoding="utf-8"))
        change(shop, stack)
        after = shop_state(shop.run)
        assert json.loads(run_save_path().read_text(encoding="utf-8")) != before, f"{name}: run.json was not written"
        pygame.event.clear()
        stack, shop = continue_to_the_shop(display)  # the old window is gone without a save of its own
        assert shop_state(shop.run) == after, f"{name}: Continue does not show the shop as it was left"
    assert shop.run.shop.offer("spells", 1).locked
    assert shop.run.shop.rerolls == 1 and shop.run.wand_stats.purchases != dict.fromkeys(
        shop.run.wand_stats.purchases, 0
    )
    assert len(shop.run.loadout.cores) == 2 and shop.run.loadout.active == shop.run.loadout.cores[1].core
