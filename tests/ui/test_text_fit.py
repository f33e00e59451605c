"""Text fits its box in all four languages: nothing a player must read is cut with '…' (R-I18N-1, R-FEEL-1).

The boxes are the UI's own: each language draws the real scenes at every
window size the settings offer (the shop in several states, its tooltips and
Esc menu, the lab and the training range, the title's quit dialog, every
relic's and potion's tooltip, the HUD and the pause menu) while every layout call of
`artificer.ui.text_fit` — `fit_lines` (through `draw_fitted`, `Canvas.fitted`,
the buttons, the cards and chips), `wrap` and the shop's `ellipsize` — is
recorded with the box it was given: the width, the font size, the lines
allowed. A recorded box is then filled, with the same function, by every
label that can land in it: a box that drew a spell name takes every spell
name, a box that drew a stat name every stat name, and so on, the families
read from en.json by key pattern (`spell.*.name`, `ui.shop.stat.*.name`, …)
so new content is covered without editing this test. Every other recorded
label (buttons, titles, hints, descriptions) must fit its own box.

A label fits when its laid-out lines are all within the box's width (and
height, when the box has one), no more lines than the box allows, and their
text is the whole label (no '…' added, nothing dropped). Changing a box in a
scene without fitting its labels, or a translation growing too long, fails here.

The settings screen's pygame-gui widgets are measured in the rects the scene
gives them (labels, buttons, every drop-down option), with the widget's own font.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal

import pygame
import pytest
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel

from artificer.content import load_content
from artificer.game.loadout import CarriedCore, Loadout
from artificer.game.relics import RunRelics
from artificer.game.run import Run
from artificer.ui import i18n, shop_widgets, text_fit
from artificer.ui.fonts import font
from artificer.ui.i18n import DEFAULT_DATA_DIR, tr
from artificer.ui.potion_belt import PotionBeltView
from artificer.ui.relic_row import RelicRowView
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene, PauseScene
from artificer.ui.scenes.lab import LabScene
from artificer.ui.scenes.settings import TEXT_SIZE as SETTINGS_TEXT_SIZE
from artificer.ui.scenes.settings import SettingsScene
from artificer.ui.scenes.shop import ShopScene
from artificer.ui.scenes.title import QuitConfirm, TitleScene
from artificer.ui.scenes.training import TrainingScene
from artificer.ui.settings import RESOLUTIONS, Language, Settings
from artificer.ui.text_fit import Fitted

CONTENT = load_content()
LANGUAGES = ("en", "ja", "ko", "zh_CN")
EN_KEYS: list[str] = list(json.loads((DEFAULT_DATA_DIR / "i18n" / "en.json").read_text(encoding="utf-8")))
#: Names and descriptions that share their boxes: a box that drew one of a family takes them all.
FAMILIES = (
    r"spell\.[^.]+\.name", r"core\.[^.]+\.name", r"relic\.[^.]+\.name", r"potion\.[^.]+\.name", r"enemy\.[^.]+\.name",
    r"ui\.shop\.stat\.[^.]+\.name", r"ui\.shop\.talent\.[^.]+\.name", r"ui\.shop\.element\.[^.]+",
    r"spell\.[^.]+\.description", r"core\.[^.]+\.description", r"relic\.[^.]+\.description",
    r"potion\.[^.]+\.description", r"ui\.shop\.stat\.[^.]+\.description", r"ui\.shop\.talent\.[^.]+\.description",
    r"ui\.lab\.warning\.[^.]+",
)  # fmt: skip
#: Screens whose labels (buttons, titles, hints) are checked in the boxes they are drawn in.
SCREEN_PREFIXES = (
    "ui.shop.",
    "ui.lab.",
    "ui.training.",
    "ui.card.",
    "ui.potion.",
    "ui.relic.",
    "ui.title.",
    "ui.pause.",
    "ui.settings.",
)


def family_of(key: str) -> str | None:
    return next((pattern for pattern in FAMILIES if re.fullmatch(pattern, key)), None)


@dataclass
class Box:
    """One layout call as the UI made it: the label it drew, and how to lay out another label the same way."""

    text: str
    width: int
    max_lines: int
    lay: Callable[[str], Fitted]
    how: str
    #: A box sized to the label it was drawn with (the lab timeline's chips are as wide as their
    #: names): only that label is checked in it.
    per_label: bool = False
    #: The box's height, when the layout call was given one.
    height: int | None = None

    def problem(self, label: str) -> str | None:
        """Why `label` does not fit this box, or None."""
        fitted = self.lay(label)
        widths = [fitted.face.size(line)[0] for line in fitted.lines]
        whole = "".join(fitted.lines).replace(" ", "") == label.replace(" ", "")
        too_tall = self.height is not None and fitted.height > self.height
        if (
            fitted.cut
            or not whole
            or too_tall
            or len(fitted.lines) > self.max_lines
            or max(widths, default=0) > self.width
        ):
            return f"{label!r} in {self.how}: drawn as {fitted.lines} ({max(widths, default=0)} px wide, {self.width} px box)"
        return None


#: Modules whose boxes are sized to the label they draw (see `Box.per_label`).
PER_LABEL_CALLERS = frozenset({"artificer.ui.timeline"})
#: The layout modules themselves: the caller of a layout call is the first frame outside them.
LAYOUT_MODULES = frozenset(
    {"artificer.ui.text_fit", "artificer.ui.widgets", "artificer.ui.shop_widgets", "artificer.ui.cards", __name__}
)


def caller_module() -> str:
    """The module that asked for a layout: the first caller outside `LAYOUT_MODULES`."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__") in LAYOUT_MODULES:
        frame = frame.f_back  # type: ignore[assignment]
    return str(frame.f_globals.get("__name__")) if frame is not None else ""


@dataclass
class Recorder:
    """Wraps the layout functions in every loaded artificer.ui module and keeps the boxes they are called with."""

    boxes: list[Box] = field(default_factory=list)

    def fit_lines(
        self,
        text: str,
        size: int,
        bold: bool,
        width: int,
        max_lines: int = 1,
        floor: float = text_fit.FIT_FLOOR,
        height: int | None = None,
    ) -> Fitted:
        def lay(label: str) -> Fitted:
            return ORIGINAL_FIT(label, size, bold, width, max_lines, floor, height)

        tall = f" × {height}" if height is not None else ""
        how = f"fit_lines({size} px{' bold' if bold else ''}, {width}{tall} px, {max_lines} line(s)) from {caller_module()}"
        self.boxes.append(Box(text, width, max_lines, lay, how, caller_module() in PER_LABEL_CALLERS, height))
        return lay(text)

    def wrap(self, text: str, face: pygame.font.Font, width: int, lines: int) -> list[str]:
        def lay(label: str) -> Fitted:
            return Fitted(face, ORIGINAL_WRAP(label, face, width, lines), False)

        how = f"wrap({face.point_size} px, {width} px, {lines} line(s)) from {caller_module()}"
        self.boxes.append(Box(text, width, lines, lay, how, caller_module() in PER_LABEL_CALLERS))
        return lay(text).lines

    def ellipsize(self, text: str, face: pygame.font.Font, width: int) -> str:
        def lay(label: str) -> Fitted:
            return Fitted(face, [ORIGINAL_ELLIPSIZE(label, face, width)], False)

        how = f"ellipsize({face.point_size} px, {width} px) from {caller_module()}"
        self.boxes.append(Box(text, width, 1, lay, how, caller_module() in PER_LABEL_CALLERS))
        return lay(text).lines[0]


ORIGINAL_FIT = text_fit.fit_lines
ORIGINAL_WRAP = text_fit.wrap
ORIGINAL_ELLIPSIZE = shop_widgets.ellipsize


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    """Every artificer.ui module's `fit_lines`, `wrap` and `ellipsize` (however it imported them) records its boxes."""
    rec = Recorder()
    originals = {"fit_lines": ORIGINAL_FIT, "wrap": ORIGINAL_WRAP, "ellipsize": ORIGINAL_ELLIPSIZE}
    for name, module in list(sys.modules.items()):
        if not name.startswith("artificer.ui"):
            continue
        for attribute, original in originals.items():
            if getattr(module, attribute, None) is original:
                monkeypatch.setattr(module, attribute, getattr(rec, attribute))
    return rec


# --- the scenes, drawn in the states that show every kind of box -----------------------------


def talent_run() -> Run:
    """A run whose shop (before wave 4) offers the talent on shelf C, with two cores carried, cards waiting and packed."""
    for seed in range(200):
        run = Run(CONTENT, seed)
        run.currency = 500
        run.shop.open(3)
        if (
            any(o is not None and o.talent is not None for o in run.shop.shelves["stats"])
            and run.shop.potion
            and run.shop.relic
        ):
            return run
    raise AssertionError("no seed in 200 offers a talent, a potion and a relic")


def draw_shop_states(display: pygame.Surface) -> Iterator[ShopScene]:
    """The shop with every place filled, then hovering each kind of place (its tooltip), a waiting and a
    backpack card picked (their buttons), and the choice of a core to sell (its buttons)."""
    run = talent_run()
    second = next(
        core.id for core in CONTENT.cores if core.id != run.loadout.active and not core.id.startswith("debug")
    )
    run.loadout.add_core(second)
    run.loadout.backpack = [spell.id for spell in CONTENT.spells[: run.loadout.limits_backpack]]
    run.loadout.waiting = [spell.id for spell in CONTENT.spells[-run.loadout.limits[1] :]]
    for relic_id in [relic for relic in run.relics.unowned() if relic != run.shop.relic][:3]:
        run.relics.add(relic_id)
    for potion_id in list(CONTENT.potions.potions)[:2]:
        run.potions.add(potion_id)
    # Paid for, so their sale buttons say Sell (R-SHOP-1); the rest say Discard.
    run.shop.paid_cards[run.loadout.backpack[0]] = [45]
    run.shop.paid_cards[run.loadout.waiting[0]] = [45]
    run.shop.paid_cores[second] = 90
    scene = ShopScene(run, 4, on_open_lab=None, on_next_wave=None)
    stack = SceneStack()
    stack.push(scene)
    scene.draw(display, 0.0)
    yield scene
    # The Esc menu over the shop (its title and three buttons).
    scene.open_menu()
    stack.draw(display, 0.0)
    stack.pop()
    yield scene
    hover = [
        scene.offer_rect("spells", 0),
        scene.offer_rect("cores", 0),
        scene.potion_offer_rect,
        scene.relic_offer_rect,
    ]
    hover += [scene.offer_rect("stats", i) for i in range(len(run.shop.shelves["stats"]))]
    hover += [
        scene.chip_rect("backpack", 0),
        scene.chip_rect("waiting", 0),
        scene.relic_slot_rect(0),
        scene.potion_slot_rect(0),
    ]
    for rect in hover:
        scene.mouse = rect.center
        scene.draw(display, 0.0)
        yield scene
    scene.mouse = (-1, -1)
    areas: tuple[Literal["waiting"], Literal["backpack"]] = ("waiting", "backpack")
    for area in areas:
        for index in (0, 1):  # a paid-for card (Sell) and one never paid for (Discard)
            scene.select(area, index)
            scene.draw(display, 0.0)
            yield scene
            scene.selected = None
    scene.drop_for = 0 if run.shop.shelves["cores"] and run.shop.shelves["cores"][0] is not None else None
    scene.draw(display, 0.0)
    yield scene


def lab_run(core: str, cards: list[str], backpack: list[str]) -> Run:
    run = Run(CONTENT, 1)
    slots = len(CONTENT.core(core).layout().slots)
    run.loadout = Loadout(
        CONTENT, cores=[CarriedCore(core, list(cards) + [None] * (slots - len(cards)))], active=core, backpack=backpack
    )
    return run


def draw_lab(display: pygame.Surface) -> None:
    """The lab at each window size (the starter wand, a packed backpack), on a program core with
    slots no cast reaches (their "never reached" mark), and on the largest board, also compact at 960×600."""
    backpack = [spell.id for spell in CONTENT.spells[:6]]
    largest = max(
        (core for core in CONTENT.cores if not core.id.startswith("debug")), key=lambda core: len(core.layout().slots)
    )
    program = ["spark_bolt", "heavy_shot", "spark_bolt", "acid_spray", "pierce_plus"]
    cases = [(display, lab_run("logic_core", program, backpack))]
    for size in ((960, 600), *RESOLUTIONS):
        surface = pygame.Surface(size)
        cases.append((surface, lab_run(CONTENT.cores[0].id, ["spark_bolt", "spark_bolt", "spark_bolt"], backpack)))
        cases.append((surface, lab_run(largest.id, [spell.id for spell in CONTENT.spells[-8:]], backpack)))
    for surface, run in cases:
        lab = LabScene(run, 1, on_start_wave=lambda s: None, on_back=lambda s: s.pop())
        stack = SceneStack()
        stack.push(lab)
        stack.draw(surface, 0.0)
    # The training range the lab's Test opens: its buttons and the board's cards.
    training = TrainingScene(CONTENT, "starter_wand", ["spark_bolt", "damage_plus", None, None, None])
    stack = SceneStack()
    stack.push(training)
    stack.update(1 / 60)
    stack.draw(display, 0.0)


def draw_title(size: tuple[int, int]) -> None:
    """The title and, over it, the quit dialog (its question and buttons)."""
    surface = pygame.Surface(size)
    stack = SceneStack()
    stack.push(TitleScene(on_new_run=lambda s: None))
    stack.push(QuitConfirm(lambda: None))
    stack.update(1 / 60)
    stack.draw(surface, 0.0)


def draw_arena_and_pause(display: pygame.Surface) -> None:
    """A wave a few frames in (the HUD), then the pause menu over it."""
    stack = SceneStack()
    stack.push(ArenaScene(CONTENT, seed=2))
    for _ in range(5):
        stack.update(1 / 60)
        stack.draw(display, 0.0)
    stack.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
    stack.update(1 / 60)
    stack.draw(display, 0.0)
    assert isinstance(stack.top, PauseScene), "the pause menu opened"


def draw_every_relic_and_potion_tooltip(display: pygame.Surface) -> None:
    """Each relic's tooltip in the relic row (the shop's and the HUD's) and each potion's in the belt, hovered."""
    for relic_id in CONTENT.relics.relics:
        row = RelicRowView(topleft=(24, 626))
        row.draw(display, RunRelics(CONTENT.relics, owned=[relic_id]), row.slot_rect(0).center)
    run = Run(CONTENT, 1)
    belt = PotionBeltView()
    belt.topleft = (670, 21)
    for potion_id in CONTENT.potions.potions:
        run.potions.held[0] = potion_id
        belt.draw(display, run, belt.slot_rect(0).center, keys=(), in_wave=False)


# --- the labels ---------------------------------------------------------------------------------


def labels_by_text() -> dict[str, list[str]]:
    """The active language's text of every key → the keys with that text."""
    found: dict[str, list[str]] = {}
    for key in EN_KEYS:
        found.setdefault(tr(key), []).append(key)
    return found


def family_labels(pattern: str) -> dict[str, str]:
    """key → text, for every key of a family in the active language."""
    return {key: tr(key) for key in EN_KEYS if re.fullmatch(pattern, key)}


def check_boxes(boxes: list[Box]) -> tuple[list[str], dict[str, int]]:
    """Every recorded box filled with its own label and, for a family's box, every label of the family."""
    by_text = labels_by_text()
    problems: list[str] = []
    counted: dict[str, set[str]] = {}
    seen: set[tuple[str, str]] = set()

    def check(box: Box, label: str) -> None:
        if (box.how, label) not in seen:  # boxes repeat (one per card, per frame): each shape once
            seen.add((box.how, label))
            problem = box.problem(label)
            if problem is not None:
                problems.append(problem)

    for box in boxes:
        keys = by_text.get(box.text, [])
        families = {family for key in keys if (family := family_of(key)) is not None and not box.per_label}
        screen = [key for key in keys if key.startswith(SCREEN_PREFIXES) and family_of(key) is None]
        for family in families:
            for key, label in family_labels(family).items():
                counted.setdefault(family, set()).add(key)
                check(box, label)
        for key in screen:
            counted.setdefault("screen labels", set()).add(key)
        check(box, box.text)
    return problems, {family: len(keys) for family, keys in counted.items()}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_label_fits_its_box_uncut(display: pygame.Surface, recorder: Recorder, language: str) -> None:
    """R-I18N-1 / R-FEEL-1: in `language` and at every window size, every spell, core, relic, potion,
    stat, talent and element name fits every box that shows one (the shop's offers, cards and chips, the lab's cards and
    timeline chips), every description fits its tooltip, and every button and heading of the
    shop, its Esc menu, the lab, the training range, the title's quit dialog, the HUD and the
    pause menu fits its own box — shrunk or wrapped, never cut with '…'."""
    i18n.set_language(language, strict=True)
    for size in RESOLUTIONS:  # every window size the settings offer: fonts round, boxes scale
        for _ in draw_shop_states(pygame.Surface(size)):
            pass
        draw_title(size)
    draw_lab(display)
    draw_every_relic_and_potion_tooltip(display)
    draw_arena_and_pause(display)
    problems, counts = check_boxes(recorder.boxes)
    # The recording is not vacuous: each family was drawn in some box and checked whole.
    for pattern in (r"spell\.[^.]+\.name", r"core\.[^.]+\.name", r"relic\.[^.]+\.name", r"potion\.[^.]+\.name",
                    r"ui\.shop\.stat\.[^.]+\.name", r"ui\.shop\.talent\.[^.]+\.name"):  # fmt: skip
        assert counts.get(pattern) == len(family_labels(pattern)), f"no box drew a {pattern} label ({counts})"
    assert counts.get("screen labels", 0) >= 10, counts
    print(language, counts, len(recorder.boxes), "boxes")
    assert not problems, f"{len(problems)} label(s) cut in {language}:\n" + "\n".join(problems)


# --- the settings screen: pygame-gui widgets in the rects the scene gives them ---------------------

#: Room a pygame-gui button keeps around its text (its border and the theme's padding), and room a
#: drop-down keeps for its open arrow.
BUTTON_MARGIN = 8
DROP_DOWN_ARROW = 36


def settings_labels(display: pygame.Surface, language: Language) -> list[tuple[str, int, int]]:
    """(text, text width, room) for every label, button and drop-down option the settings screen lays out."""
    scene = SettingsScene(Settings(language=language))
    stack = SceneStack()
    stack.push(scene)
    stack.draw(display, 0.0)
    assert scene.manager is not None
    found: list[tuple[str, int, int]] = []
    for element in scene.manager.get_sprite_group().sprites():
        if isinstance(element, (UILabel, UIButton)) and element.text:
            room = element.rect.width - (BUTTON_MARGIN if isinstance(element, UIButton) else 0)
            assert element.font is not None
            found.append((element.text, element.font.size(element.text)[0], room))
        elif isinstance(element, UIDropDownMenu):
            for option in element.options_list:
                text, option_id = option if isinstance(option, tuple) else (option, "")
                # A language's name is drawn in its own face (`settings.theme`'s "#lang_…" blocks).
                face_language = next(
                    (lang.value for lang in Language if option_id == f"#lang_{lang.value.lower()}"), language.value
                )
                width = font(SETTINGS_TEXT_SIZE, language=face_language).size(text)[0]
                found.append((text, width, element.rect.width - DROP_DOWN_ARROW))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_settings_label_and_option_fits_its_widget(display: pygame.Surface, language: str) -> None:
    """R-I18N-1 / R-SET-1: in `language`, every label, button and drop-down option of the settings
    screen fits the rect the scene gives its widget (pygame-gui would cut it with '...')."""
    i18n.set_language(language, strict=True)
    found = settings_labels(display, Language(language))
    assert len(found) >= 30, found
    cut = [f"{text!r}: {width} px in {room} px" for text, width, room in found if width > room]
    assert not cut, f"settings labels too wide in {language}:\n" + "\n".join(cut)


# --- the layout rules themselves ------------------------------------------------------------------


def test_a_label_shrinks_then_wraps_and_is_cut_only_when_nothing_else_fits(display: pygame.Surface) -> None:
    """R-I18N-1: `fit_lines` keeps a label whole: its own size when it fits, then a smaller font,
    then two lines, and only past the floor size a cut that it reports (`Fitted.cut`)."""
    whole = text_fit.fit_lines("Summon Turret", 16, True, 400, 2)
    assert whole.lines == ["Summon Turret"] and whole.face.point_size == 16 and not whole.cut
    width = font(16, True).size("Summon Turret")[0]
    shrunk = text_fit.fit_lines("Summon Turret", 16, True, width - 4)
    assert shrunk.lines == ["Summon Turret"] and 12 <= shrunk.face.point_size < 16
    wrapped = text_fit.fit_lines("Summon Turret", 16, True, width // 2 + 12, 2)
    assert wrapped.lines == ["Summon", "Turret"] and not wrapped.cut
    cut = text_fit.fit_lines("Summon Turret", 16, True, 40)
    assert cut.cut and cut.lines[0].endswith("…") and cut.face.point_size == 12


def test_japanese_breaks_between_characters_at_the_cleanest_place(display: pygame.Surface) -> None:
    """R-I18N-1: a Japanese name breaks where its script changes (after the particle の, after a
    full-width colon), not inside a katakana word, and no line starts with closing punctuation."""
    i18n.set_language("ja", strict=True)
    potion = text_fit.fit_lines("守護のポーション", 15, True, 70, 2)
    assert potion.lines == ["守護の", "ポーション"] and not potion.cut
    trigger = text_fit.fit_lines("トリガー：ロングタイマー", 15, False, 120, 2)
    assert trigger.lines == ["トリガー：", "ロングタイマー"] and not trigger.cut
    for label in family_labels(r"spell\.[^.]+\.name").values():
        for line in text_fit.fit_lines(label, 12, False, 60, 2).lines[1:]:
            assert line[0] not in text_fit.NO_LINE_START - text_fit.LOOSE_LINE_START, (label, line)
