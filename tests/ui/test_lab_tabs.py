"""The lab edits every carried core (R-LAB-1, R-CORE-3, issue 12): one tab per core with its name,
CPU and the active mark; a tab shows its board with that board's diagnostics and cast timeline;
cards are dragged between boards, onto another core's tab, from the backpack and the waiting area;
"Make active" switches the core that fires; every edit calls `on_change` (the run is saved), and a
refused move says why in a toast and changes nothing."""

from __future__ import annotations

import itertools

import pygame
import pytest

from artificer.content import load_content
from artificer.engine.wand import core_data, place, spell_catalog
from artificer.game.loadout import Place
from artificer.game.run import Run
from artificer.ui import i18n
from artificer.ui.i18n import tr
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.lab import TOAST_FILL, LabScene

CONTENT = load_content()
SIEGE_DECK = ["heavy_shot", "ice_shard"]


def _two_cores(backpack: list[str] | None = None) -> Run:
    """The starter wand (active, three spark bolts) and a siege core carrying a heavy shot and an ice shard."""
    run = Run(CONTENT, 1)
    run.loadout.add_core("siege_core")
    run.loadout.carried("siege_core").cards[: len(SIEGE_DECK)] = list(SIEGE_DECK)
    for card in backpack or []:
        run.loadout.stash(card)
    return run


def _lab(run: Run) -> tuple[SceneStack, LabScene, list[int]]:
    changes: list[int] = []
    stack = SceneStack()
    lab = LabScene(run, 2, on_start_wave=lambda s: None, on_back=lambda s: s.pop(), on_change=lambda: changes.append(1))
    stack.push(lab)
    return stack, lab, changes


def _click(stack: SceneStack, position: tuple[int, int]) -> None:
    stack.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=position))
    stack.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=position))


def _drag(stack: SceneStack, start: tuple[int, int], end: tuple[int, int]) -> None:
    stack.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=start))
    stack.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=(0, 0), buttons=(1, 0, 0)))
    stack.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=end))


def test_r_lab_1_a_tab_per_carried_core_with_its_name_cpu_and_the_active_mark(display: pygame.Surface) -> None:
    stack, lab, _ = _lab(_two_cores())
    stack.draw(display, 0.0)
    assert [tab.core for tab in lab.tabs] == ["starter_wand", "siege_core"]
    starter, siege = lab.tab_of("starter_wand"), lab.tab_of("siege_core")
    assert starter.make_active is None, "the active core is marked, not offered"
    assert siege.make_active is not None and siege.rect.contains(siege.make_active)
    labels = [text for text, _ in lab.drawn_labels]
    assert tr(CONTENT.core("siege_core").name_key) in labels and tr(CONTENT.core("starter_wand").name_key) in labels
    assert tr("ui.lab.active") in labels and tr("ui.lab.make_active") in labels
    siege_cpu = lab.core_diagnostics["siege_core"]
    assert tr("ui.lab.cpu", used=int(siege_cpu["cpu_used"]), limit=int(siege_cpu["cpu_limit"])) in labels
    assert not starter.rect.colliderect(lab.board_rect) and not siege.rect.colliderect(starter.rect)


def test_r_lab_1_clicking_a_tab_shows_that_board_with_its_diagnostics_and_timeline(display: pygame.Surface) -> None:
    run = _two_cores()
    stack, lab, changes = _lab(run)
    stack.draw(display, 0.0)
    _click(stack, lab.tab_of("siege_core").rect.move(8, 0).midleft)
    stack.draw(display, 0.0)
    assert lab.shown == "siege_core"
    assert lab.geometry is not None and len(lab.geometry.slots) == CONTENT.core("siege_core").capacity
    core = CONTENT.core("siege_core")
    expected = spell_catalog(CONTENT).compile(core_data(core), place(core, run.loadout.carried("siege_core").cards))
    assert (
        lab.diagnostics["cpu_used"] == expected["cpu_used"]
        and lab.diagnostics["mana_per_cast"] == expected["mana_per_cast"]
    )
    drawn_cards = {card for row in lab.drawn_timeline.rows for card in row.cards}
    assert drawn_cards == set(SIEGE_DECK), "the timeline is the shown board's"
    notice = [rect for text, rect in lab.drawn_labels if text == tr("ui.lab.not_active")]
    assert len(notice) == 1 and lab.board_rect.contains(notice[0]), (
        "the board that does not fire says so on its title line"
    )
    assert run.loadout.active == "starter_wand" and run.diagnostics["cpu_used"] != expected["cpu_used"], (
        "looking changes nothing"
    )
    assert changes == []
    # Keys too: Q/E step through the tabs, 1..n pick one.
    stack.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q))
    assert lab.shown == "starter_wand"
    stack.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_2))
    assert lab.shown == "siege_core"


def test_r_lab_1_a_card_dragged_from_one_board_onto_another_cores_tab_lands_on_that_core(
    display: pygame.Surface,
) -> None:
    run = _two_cores()
    stack, lab, changes = _lab(run)
    stack.draw(display, 0.0)
    _drag(stack, lab.rect_of(Place("slot", 0)).center, lab.tab_of("siege_core").rect.move(8, 0).midleft)
    assert run.loadout.carried("siege_core").cards[: len(SIEGE_DECK) + 1] == [*SIEGE_DECK, "spark_bolt"], (
        "its first free slot"
    )
    assert run.loadout.carried("starter_wand").cards[:3] == [None, "spark_bolt", "spark_bolt"]
    assert changes == [1]
    assert lab.diagnostics["cpu_used"] == run.diagnostics["cpu_used"], "the active board was recompiled"


def test_r_lab_1_a_backpack_card_goes_onto_the_board_of_the_core_that_is_not_active(display: pygame.Surface) -> None:
    run = _two_cores(backpack=["fireball"])
    stack, lab, changes = _lab(run)
    stack.draw(display, 0.0)
    stack.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_e))
    stack.draw(display, 0.0)
    before = lab.diagnostics["cpu_used"]
    _drag(stack, lab.rect_of(Place("backpack", 0)).center, lab.rect_of(Place("slot", 4)).center)
    assert run.loadout.carried("siege_core").cards[4] == "fireball" and run.loadout.backpack == []
    assert run.loadout.carried("starter_wand").cards[:3] == ["spark_bolt"] * 3 and run.loadout.active == "starter_wand"
    assert lab.diagnostics["cpu_used"] > before, "the shown board's diagnostics update live"
    stack.draw(display, 0.0)
    assert "fireball" in {card for row in lab.drawn_timeline.rows for card in row.cards}
    assert changes == [1]


def test_r_core_3_a_waiting_card_goes_onto_a_board_and_the_waiting_area_empties(display: pygame.Surface) -> None:
    run = _two_cores()
    run.loadout.waiting = ["bounce"]
    stack, lab, changes = _lab(run)
    stack.draw(display, 0.0)
    assert lab.waiting_rect.contains(lab.rect_of(Place("waiting", 0)))
    _drag(stack, lab.rect_of(Place("waiting", 0)).center, lab.tab_of("siege_core").rect.move(8, 0).midleft)
    assert run.loadout.waiting == [] and run.loadout.carried("siege_core").cards[2] == "bounce"
    assert changes == [1]
    stack.draw(display, 0.0)
    assert lab.waiting_cells == [], "an empty waiting area gives its room back to the backpack"


def test_r_core_3_make_active_switches_the_core_that_fires(display: pygame.Surface) -> None:
    run = _two_cores()
    stack, lab, changes = _lab(run)
    stack.draw(display, 0.0)
    button = lab.tab_of("siege_core").make_active
    assert button is not None
    _click(stack, button.center)
    assert run.loadout.active == "siege_core"
    assert run.loadout.wand() == ("siege_core", run.loadout.carried("siege_core").cards)
    assert run.diagnostics == lab.active_diagnostics == lab.core_diagnostics["siege_core"], "the world is armed with it"
    assert changes == [1]
    assert tr("ui.lab.switched", core=tr(CONTENT.core("siege_core").name_key)) in [text for text, _ in lab.toasts.items]
    stack.draw(display, 0.0)
    assert lab.tab_of("siege_core").make_active is None and lab.tab_of("starter_wand").make_active is not None
    assert tr("ui.lab.not_active") not in [text for text, _ in lab.drawn_labels], "the board shown fires now"


def test_r_vm_2_start_wave_follows_the_active_core_not_the_tab_shown(display: pygame.Surface) -> None:
    run = _two_cores()
    run.loadout.carried("siege_core").cards[:] = [None] * CONTENT.core("siege_core").capacity
    started: list[int] = []
    stack = SceneStack()
    lab = LabScene(run, 2, on_start_wave=lambda s: started.append(1))
    stack.push(lab)
    stack.draw(display, 0.0)
    lab.show("siege_core")  # an empty board on screen: the starter wand still fires
    assert lab.can_start
    lab.make_active("siege_core")
    assert not lab.can_start
    stack.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN))
    assert started == [] and tr("ui.lab.cannot_fire") in [text for text, _ in lab.toasts.items]


def test_r_lab_1_a_refused_move_says_why_and_changes_nothing(display: pygame.Surface) -> None:
    run = _two_cores()
    siege = run.loadout.carried("siege_core")
    siege.cards[:] = ["spark_bolt"] * len(siege.cards)
    stack, lab, changes = _lab(run)
    stack.draw(display, 0.0)
    before = [list(c.cards) for c in run.loadout.cores]
    _drag(stack, lab.rect_of(Place("slot", 0)).center, lab.tab_of("siege_core").rect.move(8, 0).midleft)
    assert [list(c.cards) for c in run.loadout.cores] == before
    assert tr("ui.lab.core_full", core=tr(CONTENT.core("siege_core").name_key)) in [
        text for text, _ in lab.toasts.items
    ]
    assert changes == []
    # The toast sits on an opaque box (issue 12: toasts had no backing), clear of the buttons.
    stack.draw(display, 0.0)
    ((text, box),) = lab.drawn_toasts
    assert text == lab.toasts.items[-1][0] and display.get_rect().contains(box)
    assert not any(box.colliderect(b.rect) for b in (lab.back_button, lab.test_button, lab.start_button))
    fill = display.get_at((box.x + 6, box.centery))[:3]
    assert sum(abs(a - b) for a, b in zip(fill, TOAST_FILL[:3])) < 12, fill
    assert not lab.cut_labels


@pytest.mark.parametrize("size", [(1280, 720), (960, 600)])
@pytest.mark.parametrize("language", ["en", "ja", "ko", "zh_CN"])
def test_issue_12_every_core_name_and_tab_label_fits_uncut_in_every_language(
    size: tuple[int, int], language: str
) -> None:
    """Names are shrunk or wrapped to fit, never cut with '…' ("Summon T…"): every core's tab, in all four languages."""
    pygame.init()
    previous = i18n.catalog().language
    try:
        i18n.set_language(language)
        surface = pygame.display.set_mode(size)
        cores = [core.id for core in CONTENT.cores]
        for trio in (
            itertools.batched(cores, 3)
            if hasattr(itertools, "batched")
            else [cores[i : i + 3] for i in range(0, len(cores), 3)]
        ):
            run = Run(CONTENT, 1)
            for core_id in trio:
                if core_id != run.loadout.active:
                    run.loadout.add_core(
                        core_id, drop=None if len(run.loadout.cores) < 3 else run.loadout.cores[0].core
                    )
            stack, lab, _ = _lab(run)
            lab.toasts.show(tr("ui.lab.core_full", core=tr(CONTENT.core(trio[0]).name_key)))
            stack.draw(surface, 0.0)
            assert lab.cut_labels == [], (language, trio, lab.cut_labels)
            for tab in lab.tabs:
                assert surface.get_rect().contains(tab.rect)
    finally:
        i18n.set_language(previous)
        pygame.quit()


def test_r_lab_1_test_fires_the_board_shown_so_a_core_is_tried_before_it_is_made_active(
    display: pygame.Surface,
) -> None:
    from artificer.ui.scenes.training import TrainingScene

    run = _two_cores()
    stack, lab, changes = _lab(run)
    stack.draw(display, 0.0)
    lab.show("siege_core")
    stack.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_t))
    training = stack.top
    assert isinstance(training, TrainingScene)
    assert training.core_id == "siege_core" and training.cards[: len(SIEGE_DECK)] == SIEGE_DECK
    assert run.loadout.active == "starter_wand" and changes == []


def test_r_lab_1_a_card_held_over_another_tab_opens_that_board_to_drop_it_on_a_chosen_slot(
    display: pygame.Surface,
) -> None:
    run = _two_cores(backpack=["fireball"])
    stack, lab, changes = _lab(run)
    stack.draw(display, 0.0)
    tab = lab.tab_of("siege_core").rect.move(8, 0).midleft
    stack.handle_event(
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=lab.rect_of(Place("backpack", 0)).center)
    )
    stack.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=tab, rel=(0, 0), buttons=(1, 0, 0)))
    stack.update(0.2)
    assert lab.shown == "starter_wand", "a card dragged past a tab does not flip the board"
    for _ in range(30):
        stack.update(1 / 60)
    assert lab.shown == "siege_core" and lab.drag is not None, (
        "held there, the tab opens its board; the card stays in hand"
    )
    stack.draw(display, 0.0)
    slot = lab.rect_of(Place("slot", 5)).center
    stack.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=slot, rel=(0, 0), buttons=(1, 0, 0)))
    stack.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=slot))
    assert run.loadout.carried("siege_core").cards[5] == "fireball" and changes == [1]


def test_the_gamepad_shoulders_turn_the_tabs(display: pygame.Surface) -> None:
    from artificer.ui.session import Session

    stack = SceneStack()
    lab = LabScene(_two_cores(), 2, session=Session.default())
    stack.push(lab)
    stack.handle_event(
        pygame.event.Event(pygame.CONTROLLERBUTTONDOWN, instance_id=0, button=pygame.CONTROLLER_BUTTON_RIGHTSHOULDER)
    )
    assert lab.shown == "siege_core"
    stack.handle_event(
        pygame.event.Event(pygame.CONTROLLERBUTTONDOWN, instance_id=0, button=pygame.CONTROLLER_BUTTON_RIGHTSHOULDER)
    )
    assert lab.shown == "starter_wand", "past the last tab, the first"
