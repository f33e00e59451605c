"""Wand codes in the lab (R-LAB-1, issue 19): Ctrl+C copies the shown board as a code, Ctrl+V lays a
code out with the cards at hand; what cannot be done is a toast and changes nothing."""

from __future__ import annotations

import pygame
import pytest

from artificer.content import load_content
from artificer.content.wand_code import decode, encode
from artificer.game.run import Run
from artificer.ui.i18n import tr
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.lab import LabScene

CONTENT = load_content()


def _lab(run: Run) -> tuple[SceneStack, LabScene]:
    stack = SceneStack()
    lab = LabScene(run, 2, on_start_wave=lambda s: None, on_back=lambda s: s.pop())
    stack.push(lab)
    return stack, lab


def _ctrl(stack: SceneStack, key: int) -> None:
    stack.handle_event(pygame.event.Event(pygame.KEYDOWN, key=key, mod=pygame.KMOD_LCTRL, unicode="", scancode=0))


def test_ctrl_c_copies_the_shown_board_as_a_code(display: pygame.Surface, monkeypatch: pytest.MonkeyPatch) -> None:
    clipboard: list[str] = []
    monkeypatch.setattr(pygame.scrap, "put_text", clipboard.append)
    run = Run(CONTENT, 1)
    stack, lab = _lab(run)
    stack.draw(display, 0.0)
    _ctrl(stack, pygame.K_c)
    core, cards = run.loadout.wand()
    assert clipboard == [encode(CONTENT, core, cards)]
    assert decode(CONTENT, clipboard[0]).cards == tuple(cards)
    assert tr("ui.lab.code_copied", code=clipboard[0]) in [text for text, _ in lab.toasts.items]


def test_without_a_clipboard_the_code_is_shown_to_copy_by_hand(
    display: pygame.Surface, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(_: str) -> None:
        raise pygame.error("no clipboard")

    monkeypatch.setattr(pygame.scrap, "put_text", refuse)
    run = Run(CONTENT, 1)
    _, lab = _lab(run)
    code = lab.copy_code()
    assert tr("ui.lab.code_no_clipboard", code=code) in [text for text, _ in lab.toasts.items]


def test_ctrl_v_lays_a_code_out_and_the_wand_recompiles(
    display: pygame.Surface, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = Run(CONTENT, 1)
    run.loadout.stash("fireball")
    run.loadout.stash("damage_plus")
    core = run.loadout.active
    code = encode(CONTENT, core, ["damage_plus", "fireball", "spark_bolt"])
    monkeypatch.setattr(pygame.scrap, "get_text", lambda: code)
    stack, lab = _lab(run)
    stack.draw(display, 0.0)
    before = dict(lab.diagnostics)
    _ctrl(stack, pygame.K_v)
    assert run.loadout.carried(core).cards[:3] == ["damage_plus", "fireball", "spark_bolt"]
    assert sorted(run.loadout.backpack) == ["spark_bolt", "spark_bolt"]
    assert lab.diagnostics != before, "the diagnostics follow the new board"
    stack.draw(display, 0.0)
    assert any(tr("ui.lab.code_pasted", core=tr(CONTENT.core(core).name_key)) in t for t, _ in lab.drawn_toasts)


def test_a_code_needing_cards_not_at_hand_names_them_and_changes_nothing(display: pygame.Surface) -> None:
    run = Run(CONTENT, 1)
    core = run.loadout.active
    before = list(run.loadout.carried(core).cards)
    _, lab = _lab(run)
    assert not lab.paste_code(encode(CONTENT, core, ["nuke", "spark_bolt"]))
    assert run.loadout.carried(core).cards == before
    assert tr("ui.lab.code_cards_missing", cards=tr(CONTENT.spell("nuke").name_key)) in [t for t, _ in lab.toasts.items]
    assert not lab.paste_code("AW1-garbage")
    assert tr("ui.lab.code_invalid") in [t for t, _ in lab.toasts.items]
    assert not lab.paste_code(encode(CONTENT, "siege_core", ["spark_bolt"]))
    assert tr("ui.lab.code_core_missing", core=tr(CONTENT.core("siege_core").name_key)) in [
        t for t, _ in lab.toasts.items
    ]


def test_the_lab_before_wave_3_tells_once_how_to_copy_and_paste(display: pygame.Surface) -> None:
    run = Run(CONTENT, 1)
    first = LabScene(run, 3)
    SceneStack().push(first)
    assert tr("ui.lab.code_hint") in [t for t, _ in first.toasts.items]
    again = LabScene(run, 4)
    SceneStack().push(again)
    assert tr("ui.lab.code_hint") not in [t for t, _ in again.toasts.items]
