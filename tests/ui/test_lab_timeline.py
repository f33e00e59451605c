"""The lab shows what fires (R-VM-3c, R-LAB-1): greyed unreachable slots with their warning, the
cast timeline panel updated live, a layout that fits 1280×720 and 960×600, and the range's slow
motion walking the whole deck (R-VM-3)."""

from __future__ import annotations

import pygame
import pytest

from artificer.content import load_content
from artificer.game.loadout import CarriedCore, Loadout, Place
from artificer.game.run import Run
from artificer.ui.cards import FAMILY_COLOURS, UNREACHED_MARK
from artificer.ui.i18n import tr
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.lab import LabScene
from artificer.ui.scenes.training import TrainingScene

CONTENT = load_content()
#: On a program core (R-VM-3b) every cast restarts at the head and the first action always
#: fires: the four cards after it are never reached.
PROGRAM_DECK = ["spark_bolt", "heavy_shot", "spark_bolt", "acid_spray", "pierce_plus"]
FIVE_ACTIONS = ["spark_bolt", "heavy_shot", "ice_shard", "acid_spray", "fireball"]
SIZES = [(1280, 720), (960, 600)]


def _lab_on(core: str, cards: list[str | None], backpack: list[str] | None = None) -> tuple[SceneStack, LabScene]:
    run = Run(CONTENT, 1)
    slots = len(CONTENT.core(core).layout().slots)
    run.loadout = Loadout(
        CONTENT,
        cores=[CarriedCore(core, list(cards) + [None] * (slots - len(cards)))],
        active=core,
        backpack=list(backpack or []),
    )
    stack = SceneStack()
    lab = LabScene(run, 1, on_start_wave=lambda s: None, on_back=lambda s: s.pop())
    stack.push(lab)
    return stack, lab


def _mean_brightness(surface: pygame.Surface, rect: pygame.Rect) -> float:
    values = [
        sum(surface.get_at((x, y))[:3])
        for x in range(rect.left, rect.right, 2)
        for y in range(rect.top, rect.bottom, 2)
    ]
    return sum(values) / len(values)


def _colour_in(surface: pygame.Surface, rect: pygame.Rect, colour: tuple[int, int, int], tolerance: int = 30) -> bool:
    for x in range(rect.left, rect.right):
        for y in range(rect.top, rect.bottom):
            if sum(abs(a - b) for a, b in zip(surface.get_at((x, y))[:3], colour)) < tolerance:
                return True
    return False


def test_r_vm_3c_the_lab_greys_the_slots_no_cast_reaches_on_a_program_core_and_warns(display: pygame.Surface) -> None:
    stack, lab = _lab_on("logic_core", PROGRAM_DECK)
    assert lab.unreachable_slots == {1, 2, 3, 4}
    stack.draw(display, 0.0)
    reached, unreached = lab.rect_of(Place("slot", 0)), lab.rect_of(Place("slot", 2))
    # The same card (spark bolt) in both: the unreachable one is dimmed, and carries the mark.
    assert _mean_brightness(display, unreached) < 0.75 * _mean_brightness(display, reached)
    assert _colour_in(display, unreached, UNREACHED_MARK)
    assert not _colour_in(display, reached, UNREACHED_MARK)
    warning = tr("ui.lab.warning.unreachable_slot")
    assert warning in [text for text, _ in lab.diagnostic_lines()]
    shown = " ".join(text for text, _ in lab.drawn_diagnostics)
    assert lab.findings_left == 0 and warning.split()[0] in shown, f"the warning is drawn (shown: {shown!r})"


def test_r_vm_3c_a_deck_core_greys_nothing(display: pygame.Surface) -> None:
    """On a deck core (R-VM-3) the same board fires every card: nothing greyed, no warning."""
    stack, lab = _lab_on("starter_wand", PROGRAM_DECK)
    stack.draw(display, 0.0)
    assert lab.unreachable_slots == frozenset()
    assert "unreachable_slot" not in lab.diagnostics["warnings"]
    assert not any(_colour_in(display, lab.rect_of(Place("slot", i)), UNREACHED_MARK) for i in range(5))


def test_r_vm_3c_the_timeline_panel_lists_one_row_per_cast_with_its_card(display: pygame.Surface) -> None:
    """A 3-card deck on the starter wand: three casts, each firing the next card."""
    stack, lab = _lab_on("starter_wand", ["spark_bolt", "heavy_shot", "acid_spray"])
    stack.draw(display, 0.0)
    rows = lab.drawn_timeline.rows
    assert [row.cards for row in rows] == [("spark_bolt",), ("heavy_shot",), ("acid_spray",)]
    assert [row.slots for row in rows] == [(0,), (1,), (2,)]
    assert lab.drawn_timeline.more == 0
    for row in rows:
        assert lab.timeline_rect.contains(row.rect)
        assert _colour_in(display, row.rect, FAMILY_COLOURS["action"]), "the card is drawn as a chip in its colour"
    # The third cast wraps to the head: its delay carries the recharge.
    assert [bool(cast["recharge"]) for cast in lab.timeline["casts"]] == [False, False, True]
    texts = [text for text, _ in lab.drawn_timeline.texts]
    assert tr("ui.lab.timeline.burst", dps=float(lab.timeline["burst_dps"])) in texts
    assert tr("ui.lab.timeline.sustained", dps=float(lab.timeline["sustained_dps"])) in texts
    dry = lab.timeline["dry_after_s"]
    assert (
        tr("ui.lab.timeline.never_dry") if dry is None else tr("ui.lab.timeline.dry_after", seconds=float(dry))
    ) in texts
    assert tr("ui.lab.timeline.mana_per_cycle", mana=float(lab.timeline["mana_per_cycle"])) in texts


def test_r_lab_1_the_timeline_updates_live_when_a_card_is_dropped(display: pygame.Surface) -> None:
    stack, lab = _lab_on("starter_wand", ["spark_bolt", "heavy_shot", "acid_spray"], backpack=["ice_shard"])
    stack.draw(display, 0.0)
    start, end = lab.rect_of(Place("backpack", 0)).center, lab.rect_of(Place("slot", 3)).center
    stack.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=start))
    stack.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=end))
    stack.draw(display, 0.0)
    assert [row.cards for row in lab.drawn_timeline.rows] == [
        ("spark_bolt",),
        ("heavy_shot",),
        ("acid_spray",),
        ("ice_shard",),
    ]


def test_r_vm_3c_r_stat_1_the_timeline_compiles_with_the_cpu_the_run_bought(display: pygame.Surface) -> None:
    """Three chain bolts overrun the starter wand's CPU: its last card is dropped and never
    fires; with 3 CPU bought it is back on the timeline, as in the world."""
    from artificer.content.models import WandStat

    stack, lab = _lab_on("starter_wand", ["spark_bolt", "chain_bolt", "chain_bolt", "chain_bolt", "ice_shard"])
    assert lab.diagnostics["dropped_slots"] == [4]
    assert ["ice_shard"] not in [cast["cards"] for cast in lab.timeline["casts"]]
    lab.run.wand_stats.totals[WandStat.CPU] = 3
    lab.on_resume()  # back from the shop, where the CPU was bought
    assert lab.diagnostics["dropped_slots"] == []
    assert [cast["cards"] for cast in lab.timeline["casts"]][-1] == ["ice_shard"]


def test_r_vm_3c_the_mana_per_cast_shown_is_the_compilers_figure(display: pygame.Surface) -> None:
    """ "Mana per cast" is what a cast actually spends (the diagnostics' figure), not a sum of nodes."""
    stack, lab = _lab_on("logic_core", PROGRAM_DECK)
    stack.draw(display, 0.0)
    expected = tr("ui.lab.mana_per_cast", mana=float(lab.diagnostics["mana_per_cast"]))
    assert expected in [text for text, _ in lab.drawn_diagnostics]


#: Two Charge Counters nested: the spark passes once in 4 passes, the rest in 16 — a cycle of 33 casts.
LONG_CYCLE = ["charge_counter", "charge_counter", "spark_bolt", "heavy_shot", "ice_shard"]


def test_r_vm_3c_a_long_timeline_shows_what_fits_and_counts_the_rest(display: pygame.Surface) -> None:
    stack, lab = _lab_on("starter_wand", LONG_CYCLE)
    stack.draw(display, 0.0)
    casts = len(lab.timeline["casts"])
    drawn = lab.drawn_timeline
    assert 3 <= len(drawn.rows) < casts
    assert drawn.more == casts - len(drawn.rows)
    assert tr("ui.lab.timeline.more", count=drawn.more) in [text for text, _ in drawn.texts]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    ("core", "cards"),
    [
        ("logic_core", PROGRAM_DECK),
        ("starter_wand", ["double_cast", "pierce_plus", "spark_bolt", "electro_dash_bolt", "ice_shard"]),
        (
            "forked_core",
            ["double_cast", "spark_bolt", "spark_bolt", "ice_shard", "acid_spray", "fireball", "heavy_shot"],
        ),
    ],
)
def test_r_lab_1_the_lab_fits_the_window_nothing_clipped(
    size: tuple[int, int], core: str, cards: list[str | None]
) -> None:
    """At 1280×720 and at 960×600 the panels sit inside the window without overlapping each
    other or the buttons, and everything drawn in a panel stays inside it."""
    pygame.init()
    try:
        surface = pygame.display.set_mode(size)
        stack, lab = _lab_on(core, cards, backpack=["ice_shard", "fireball", "double_cast", "damage_plus"])
        stack.draw(surface, 0.0)
        screen = surface.get_rect()
        panels = [lab.backpack_rect, lab.board_rect, lab.diag_rect, lab.timeline_rect]
        buttons = [lab.back_button.rect, lab.test_button.rect, lab.start_button.rect]
        for i, rect in enumerate(panels + buttons):
            assert screen.contains(rect), rect
            for other in (panels + buttons)[i + 1 :]:
                assert not rect.colliderect(other), (rect, other)
        assert lab.geometry is not None
        for slot in lab.geometry.slots:
            assert lab.board_rect.contains(slot), slot
        for cell in lab.backpack_cells:
            assert lab.backpack_rect.contains(cell), cell
        drawn = lab.drawn_timeline
        assert drawn.rows, "at least one cast is listed"
        for row in drawn.rows:
            assert lab.timeline_rect.contains(row.rect), row
            assert row.chips_shown == len(row.cards), f"cast {row.number}: every card is shown"
        for text, rect in drawn.texts:
            assert lab.timeline_rect.contains(rect), (text, rect)
        for text, rect in lab.drawn_diagnostics:
            assert lab.diag_rect.contains(rect), (text, rect)
        assert lab.findings_left == 0, "every finding of the compiler is drawn"
    finally:
        pygame.quit()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["en", "ja", "ko", "zh_CN"])
def test_issue_12_the_timeline_chips_keep_whole_names_in_every_language(size: tuple[int, int], language: str) -> None:
    """Long names in a narrow panel ("エレクトロダッシュボルト" at 960×600 was cut): the chips are
    shrunk or "+recharge" moves under the delay, but no card's name is cut with '…', and every card
    of the cast shows (R-VM-3c)."""
    from artificer.ui import i18n

    deck = [
        "triple_cast",
        "electro_dash_bolt",
        "lightning_infusion",
        "summon_turret",
        "knockback_plus",
        "gravity_singularity",
        "chain_bolt",
    ]
    pygame.init()
    previous = i18n.catalog().language
    try:
        i18n.set_language(language)
        surface = pygame.display.set_mode(size)
        for core in ("starter_wand", "forked_core", "logic_core"):
            stack, lab = _lab_on(core, deck[: len(CONTENT.core(core).layout().slots)])
            stack.draw(surface, 0.0)
            assert lab.drawn_timeline.rows, core
            assert lab.drawn_timeline.cut == [], (core, lab.drawn_timeline.cut)
            # A short cycle's rows take the height they need: a triple cast's five cards all show, no "+N".
            assert all(row.chips_shown == len(row.cards) for row in lab.drawn_timeline.rows), core
    finally:
        i18n.set_language(previous)
        pygame.quit()


def test_r_lab_1_r_vm_3_slow_motion_lights_each_of_five_cards_cast_after_cast(display: pygame.Surface) -> None:
    """The range's 0.1× slow motion plays every cast's trace back: with a five-action deck the light
    walks slot 0, 1, 2, 3, 4 over successive casts (not only card 1), none dropped."""
    training = TrainingScene(CONTENT, "starter_wand", FIVE_ACTIONS)
    stack = SceneStack()
    stack.push(training)
    stack.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s))
    assert training.slow
    walk: list[int] = []
    for _ in range(2400):
        stack.update(1 / 60)
        for slot in sorted(training.lit):
            if not walk or walk[-1] != slot:
                walk.append(slot)
    assert set(walk) == set(range(5))
    assert walk[:5] == [0, 1, 2, 3, 4], walk
    assert walk[5:10] == [0, 1, 2, 3, 4], "the second cycle walks the deck again"
    stack.draw(display, 0.0)


def test_r_vm_3c_the_timeline_is_drawn_with_the_real_pool(display: pygame.Surface) -> None:
    """A nuke (200 mana) on the starter's 100-mana pool never fires: the timeline says so on its row,
    and its 200 damage is in neither burst nor sustained DPS (it once showed "Burst 483 DPS" while the
    range dealt nothing with 10 casts abandoned)."""
    stack, lab = _lab_on("starter_wand", ["spark_bolt", "nuke"])
    lab.draw(display, 0.0)
    said = tr("ui.lab.timeline.unpaid", card=tr(CONTENT.spell("nuke").name_key))
    assert said in [text for text, _ in lab.drawn_timeline.texts]
    assert [list(cast["unpaid_cards"]) for cast in lab.timeline["casts"]] == [[], ["nuke"]]
    spark = CONTENT.spell("spark_bolt").action
    assert spark is not None
    assert float(lab.timeline["burst_dps"]) < spark.damage * 4, "the spark's alone"
    assert lab.timeline["dry_after_s"] is None or float(lab.timeline["dry_after_s"]) > 1.0


def test_r_vm_3c_an_empty_wand_does_not_boast_that_it_never_runs_dry() -> None:
    """A board that fires nothing never runs dry, but that is no good news: grey, not green."""
    from artificer.ui.timeline import summary_segments
    from artificer.ui.widgets import DIM, GOOD

    stack, lab = _lab_on("starter_wand", [])
    last = summary_segments(lab.timeline)[1][-1]
    assert last == (tr("ui.lab.timeline.never_dry"), DIM)
    stack, lab = _lab_on("starter_wand", ["spark_bolt"])
    lab.timeline = {**lab.timeline, "dry_after_s": None}
    assert summary_segments(lab.timeline)[1][-1] == (tr("ui.lab.timeline.never_dry"), GOOD)
