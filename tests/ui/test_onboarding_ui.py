"""Onboarding in the window (R-ONB-1) and the contextual tips (R-ONB-2): run 1 goes from the title
straight into wave 1 with the preset wand, movement only (the dash and potions do not answer), its
shop sells no cards nor cores and its Lab is closed; run 2 opens the lab; runs 3 and 4 teach their
card in the lab; each tip shows once, ever."""

from __future__ import annotations

import pygame

from artificer.content import load_content
from artificer.game.loadout import Place
from artificer.game.meta import Meta, load_meta, save_meta
from artificer.game.onboarding import TIP_CPU_HIGH, TIP_SPECIAL_CORE, TIP_TRIGGER_WITHOUT_ACTION, lesson_tip
from artificer.game.run import Run
from artificer.game.shop import Offer
from artificer.ui import tips
from artificer.ui.i18n import tr
from artificer.ui.play import GameScenes
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene
from artificer.ui.scenes.lab import LabScene
from artificer.ui.scenes.shop import ShopScene
from artificer.ui.scenes.title import TitleScene
from artificer.ui.scenes.training import TrainingScene
from artificer.ui.session import Session
from scene_driving import frames, key

CONTENT = load_content()


def new_run_from_title(display: pygame.Surface, meta: Meta, skip: bool = False) -> SceneStack:
    save_meta(meta)
    scenes = GameScenes(CONTENT)
    scenes.session.settings.skip_onboarding = skip
    stack = SceneStack()
    title = scenes.router.build("title")
    assert isinstance(title, TitleScene)
    stack.push(title)
    frames(stack, display, 1)
    title.activate([item.key for item in title.items].index("ui.title.new_run"))
    frames(stack, display, 2)
    return stack


def test_r_onb_1_run_1_starts_in_the_arena_movement_only_and_its_shop_has_no_lab(display: pygame.Surface) -> None:
    stack = new_run_from_title(display, Meta())
    arena = stack.top
    assert isinstance(arena, ArenaScene), "no lab before the first wave: the preset wand goes straight in"
    assert arena.run.state.onboarding == 1
    assert lesson_tip("move") in load_meta().meta.tips, "the lesson showed as the wave began"
    key(pygame.K_SPACE)
    frames(stack, display, 1)
    assert not arena.dash_pressed, "movement only: no dash"
    arena.run.potions.held[0] = next(iter(CONTENT.potions.potions))
    key(pygame.K_1)
    frames(stack, display, 1)
    assert arena.run.potions.held[0] is not None, "movement only: no potion drunk"
    assert arena.wave is not None
    arena.wave.frames = arena.wave.stats.frames + 1
    frames(stack, display, 2 + round(CONTENT.balance.wave.breather * 60) + 2)
    shop = stack.top
    assert isinstance(shop, ShopScene)
    assert not any(shop.run.shop.shelves["spells"]) and not any(shop.run.shop.shelves["cores"]), "no cards, no cores"
    shop.open_lab()
    frames(stack, display, 1)
    assert stack.top is shop, "the lab is closed"
    assert tr("ui.onboarding.lab_closed") in [text for text, _ in shop.toasts.items]


def test_r_onb_1_run_2_opens_the_lab_before_wave_1_and_teaches_it(display: pygame.Surface) -> None:
    stack = new_run_from_title(display, Meta(runs=1))
    lab = stack.top
    assert isinstance(lab, LabScene) and lab.run.state.onboarding == 2
    assert tr("ui.onboarding.lesson.lab") in [text for text, _ in lab.toasts.items]


def test_r_onb_1_the_skip_setting_opens_everything_on_run_1(display: pygame.Surface) -> None:
    stack = new_run_from_title(display, Meta(), skip=True)
    assert isinstance(stack.top, LabScene) and stack.top.run.state.onboarding == 0


def test_r_onb_1_runs_3_and_4_teach_their_card_in_the_lab_and_4_demos_it_on_the_range(
    display: pygame.Surface,
) -> None:
    for step, lesson in ((3, "damage_plus"), (4, "trigger_on_hit")):
        stack = SceneStack()
        lab = LabScene(Run(CONTENT, 5, onboarding=step), 1, session=Session.default())
        stack.push(lab)
        frames(stack, display, 2)
        shown = [text for text, _ in lab.toasts.items]
        assert any(text.startswith(tr(f"ui.onboarding.lesson.{lesson}", test="¤").split("¤")[0]) for text in shown)
        if step == 4:  # the first trigger's range demo plays on its own, once
            demo = stack.top
            assert isinstance(demo, TrainingScene) and demo.cards == list(CONTENT.balance.onboarding.steps[3].demo)
            key(pygame.K_ESCAPE)
            frames(stack, display, 2)
            assert stack.top is lab, "Esc comes back to the lab"
        else:
            assert stack.top is lab


def test_r_onb_2_the_trigger_tip_shows_once_ever(display: pygame.Surface) -> None:
    tip = tr("ui.tip.trigger_without_action")
    for time in range(2):
        run = Run(CONTENT, 5)
        # R-VM-4: a trigger alone: its payload has nothing to draw, not even from the head
        run.loadout.cores[0].cards[:] = ["trigger_on_hit", None, None, None, None]
        stack = SceneStack()
        lab = LabScene(run, 1, session=Session.default())
        stack.push(lab)
        frames(stack, display, 1)
        shown = [text for text, _ in lab.toasts.items]
        assert (tip in shown) == (time == 0), "once, then never again"
        tips.forget_session()  # the next lab reads meta.json alone, as after a restart
    assert TIP_TRIGGER_WITHOUT_ACTION in load_meta().meta.tips


def test_r_onb_2_the_trigger_tip_goes_once_an_action_follows_the_trigger(display: pygame.Surface) -> None:
    """The tip is about the board: once the player puts an action after the trigger, it fades out
    at once instead of telling them for ten more seconds to fix what they fixed."""
    tip = tr("ui.tip.trigger_without_action")
    run = Run(CONTENT, 5)
    run.loadout.cores[0].cards[:] = ["trigger_on_hit", None, None, None, None]
    run.loadout.backpack.append("acid_spray")
    run.loadout.add_core("siege_core")
    stack = SceneStack()
    lab = LabScene(run, 1, session=Session.default())
    stack.push(lab)
    frames(stack, display, 1)
    assert tip in [text for text, _ in lab.toasts.items]
    # Looking at another core's board fixes nothing: the tip stays.
    lab.show("siege_core")
    frames(stack, display, 40)
    assert tip in [text for text, _ in lab.toasts.items], "another core's tab shown: the tip stays"
    lab.show(run.loadout.active)
    # The player drags the action from the backpack into the slot after the trigger.
    for kind, at in ((pygame.MOUSEBUTTONDOWN, Place("backpack", 0)), (pygame.MOUSEBUTTONUP, Place("slot", 1))):
        stack.handle_event(pygame.event.Event(kind, button=1, pos=lab.rect_of(at).center))
    assert run.loadout.cores[0].cards[1] == "acid_spray"
    frames(stack, display, 40)  # two thirds of a second: a withdrawn toast fades in half of one
    assert "trigger_without_action" not in lab.diagnostics["warnings"]
    assert tip not in [text for text, _ in lab.toasts.items], "the tip left with its cause"


def test_r_onb_2_the_cpu_tip_shows_above_80_percent(display: pygame.Surface) -> None:
    run = Run(CONTENT, 5)
    limit = CONTENT.core(run.loadout.active).cpu_limit
    run.loadout.cores[0].cards[:] = ["chain_bolt", "chain_bolt", "chain_bolt", None, None]
    stack = SceneStack()
    lab = LabScene(run, 1, session=Session.default())
    stack.push(lab)
    frames(stack, display, 1)
    used = int(lab.diagnostics["cpu_used"])
    assert used > 0.8 * limit
    assert TIP_CPU_HIGH in load_meta().meta.tips


def test_r_onb_2_the_first_special_core_in_the_shop_shows_its_bonus_once(display: pygame.Surface) -> None:
    for time in range(2):
        run = Run(CONTENT, 5)
        stack = SceneStack()
        run.shop.open(12)
        run.shop.shelves["cores"][0] = Offer("cores", "matrix_board", 3, 120)  # a special core on the shelf
        shop = ShopScene(run, 13, None, None, session=Session.default(), save_on_enter=False)
        stack.push(shop)
        frames(stack, display, 2)
        assert (shop.demo_core == "matrix_board") == (time == 0)
        tips.forget_session()
    assert TIP_SPECIAL_CORE in load_meta().meta.tips
