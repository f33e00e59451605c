"""The codex screen and the arena's first meetings (R-META-2, R-RES-2): the title opens the codex once
a first run has ended; tabs change by keys and clicks; a hidden recipe shows its hint, a found one its
inputs and product; an enemy met in a wave toasts once and is in meta.json when the wave ends; a
practice run records nothing."""

from __future__ import annotations

import pygame

from artificer.content import load_content
from artificer.game.meta import Meta, Section, load_meta, save_meta
from artificer.game.run import Run
from artificer.ui.i18n import tr
from artificer.ui.play import GameScenes
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene
from artificer.ui.scenes.codex import TABS, CodexScene
from artificer.ui.scenes.title import TitleScene
from artificer.ui.session import Session
from scene_driving import frames, key

CONTENT = load_content()


def test_r_meta_2_the_title_opens_the_codex_and_its_tabs_turn_by_keys_and_clicks(display: pygame.Surface) -> None:
    save_meta(Meta(runs=1, codex={Section.RECIPES: frozenset({"steam_blast"})}))
    scenes = GameScenes(CONTENT)
    stack = SceneStack()
    title = scenes.router.build("title")
    assert isinstance(title, TitleScene)
    stack.push(title)
    frames(stack, display, 1)
    title.activate([item.label for item in title.items].index(tr("ui.title.codex")))
    frames(stack, display, 1)
    codex = stack.top
    assert isinstance(codex, CodexScene) and TABS[codex.tab] == "spells"
    key(pygame.K_e)
    key(pygame.K_TAB)
    key(pygame.K_TAB)
    frames(stack, display, 1)
    assert TABS[codex.tab] == "recipes", "E, then Tab twice: spells → enemies → bosses → recipes"
    key(pygame.K_q)
    frames(stack, display, 1)
    assert TABS[codex.tab] == "bosses"
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=codex.tab_rects[TABS.index("recipes")].center)
    )
    frames(stack, display, 1)
    assert TABS[codex.tab] == "recipes"
    recipes = [entry.id for entry in codex.entries()]
    codex.choice = recipes.index("plasma_storm")
    title_text, _, text = codex._page_text(Section.RECIPES, codex.entries()[codex.choice])
    assert (title_text, text) == ("???", tr("recipe.plasma_storm.hint")), "R-RES-2: the hint, not the recipe"
    codex.choice = recipes.index("steam_blast")
    title_text, _, _ = codex._page_text(Section.RECIPES, codex.entries()[codex.choice])
    assert title_text == tr("recipe.steam_blast.name")
    frames(stack, display, 1)
    key(pygame.K_ESCAPE)
    frames(stack, display, 1)
    assert stack.top is title


def test_r_meta_2_a_first_meeting_in_the_arena_toasts_once_and_is_kept_when_the_wave_ends(
    display: pygame.Surface,
) -> None:
    scene = ArenaScene(CONTENT, seed=3, session=Session.default())
    stack = SceneStack()
    stack.push(scene)
    shown: list[str] = []
    scene.hud_state.toast = lambda text, seconds=2.5: shown.append(text)  # type: ignore[method-assign]
    frames(stack, display, 6 * 60)
    grunt = tr("ui.codex.new_enemy", name=tr("enemy.grunt.name"))
    assert shown.count(grunt) == 1, "the first grunt is news; the next ones are not"
    assert scene.wave is not None
    scene.wave.frames = scene.wave.stats.frames + 1  # the wave ends on the next step
    frames(stack, display, 3)
    assert "grunt" in load_meta().meta.seen(Section.ENEMIES)
    assert "spark_bolt" in load_meta().meta.seen(Section.SPELLS), "the starting wand's cards are owned"


def test_r_end_5_a_practice_run_records_nothing_in_the_codex(display: pygame.Surface) -> None:
    run = Run(CONTENT, 3)
    run.state.practice = True
    scene = ArenaScene(CONTENT, run=run, session=Session.default())
    stack = SceneStack()
    stack.push(scene)
    shown: list[str] = []
    scene.hud_state.toast = lambda text, seconds=2.5: shown.append(text)  # type: ignore[method-assign]
    frames(stack, display, 4 * 60)
    assert scene.discoveries is None and not shown
    assert load_meta().meta == Meta(onboarding_done=True), "nothing recorded"


def test_r_save_1_a_corrupt_meta_json_restored_from_its_backup_says_so_on_the_title(display: pygame.Surface) -> None:
    from artificer.game.meta import meta_path
    from artificer.ui.play import first_scene

    save_meta(Meta(aether=33, runs=2, onboarding_done=True))
    meta_path().write_text("{not json")
    title = first_scene(CONTENT)
    assert isinstance(title, TitleScene)
    assert any("meta.json" in notice and "restored" in notice for notice in title.notices)
    assert load_meta().meta.aether == 33, "the progress came back"


def test_r_meta_2_a_relics_and_a_potions_page_fill_their_numbers_from_their_data(display: pygame.Surface) -> None:
    """R-META-2: a found relic's or potion's page says its numbers (`{value:g}` and the rest filled
    from relics.json / potions.json, as the HUD's tooltips do), never a placeholder."""
    relics, potions = CONTENT.relics.relics, CONTENT.potions.potions
    save_meta(Meta(runs=1, codex={Section.RELICS: frozenset(relics), Section.POTIONS: frozenset(potions)}))
    codex = CodexScene(CONTENT, Session.default())
    for section in (Section.RELICS, Section.POTIONS):
        for entry in codex.codex.entries(section):
            _, _, text = codex._page_text(section, entry)
            assert "{" not in text and "}" not in text, f"{entry.id}: {text}"
    fang = next(e for e in codex.codex.entries(Section.RELICS) if e.id == "vampire_fang")
    relic = relics["vampire_fang"]
    assert codex._page_text(Section.RELICS, fang)[2] == tr(fang.description_key, value=relic.value, every=relic.every)
