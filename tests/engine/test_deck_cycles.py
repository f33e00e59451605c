"""R-VM-3c: every board of up to 8 cards from the base pool, on every plain core, closes its cast
cycle within the timeline's 64 casts — now that a wrapping cast sends the cursor home (R-VM-3), the
lab's mana per cycle and burst figures are taken over a true cycle. Kill Combo counts no kills in the
lab. Special cores (program, persistent memory, dual stream, …) may legitimately not close: the lab
says so plainly (`cycle_complete` false)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from artificer.content import load_content
from artificer.engine.wand import core_data, place, spell_catalog

CONTENT = load_content()
CATALOG = spell_catalog(CONTENT)
BASE_POOL = sorted(spell.id for spell in CONTENT.spells if spell.unlock_cost == 0 and spell.shop)
PLAIN_CORES = [core for core in CONTENT.cores if not core.flags and core.board.is_row]
EXAMPLES = int(os.environ.get("ARTIFICER_FUZZ_EXAMPLES", "150"))


#: Charge Counters multiply a cycle: each lets its span through once in N passes, so k of them
#: nested make N**k passes (three of N=4: 64 passes, more casts than the timeline's 64). A board
#: with more than one may run past 64 casts, and the lab says so ("cycle_open").
COUNTERS = frozenset(
    spell.id for spell in CONTENT.spells if spell.logic is not None and spell.logic.kind == "charge_counter"
)


@st.composite
def boards(draw: st.DrawFn) -> tuple[str, list[str | None]]:
    core = draw(st.sampled_from(PLAIN_CORES))
    size = min(8, core.capacity)
    cards = draw(st.lists(st.sampled_from(BASE_POOL) | st.none(), min_size=1, max_size=size))
    if sum(card in COUNTERS for card in cards) > 1:
        cards = [card for card in cards if card not in COUNTERS] + [next(iter(COUNTERS))]
    return core.id, cards


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_r_vm_3c_every_small_board_on_a_plain_core_closes_its_cycle(board: tuple[str, list[str | None]]) -> None:
    core_id, cards = board
    core = CONTENT.core(core_id)
    timeline = CATALOG.timeline(core_data(core), place(core, cards))
    assert timeline["cycle_complete"], f"{core_id} {cards}: {len(timeline['casts'])} casts without closing"
    assert len(timeline["casts"]) <= 64


def test_the_pool_and_the_cores_are_the_ones_meant() -> None:
    assert len(BASE_POOL) >= 20 and len(PLAIN_CORES) >= 2
    assert "starter_wand" in {core.id for core in PLAIN_CORES}


def test_r_vm_3c_every_shipped_builds_wand_closes_its_cycle() -> None:
    """The archetypes of builds.json, on the core each plays (special cores included): the lab shows
    each one's true cycle within 64 casts."""
    from artificer.content.builds import load_builds

    for build in load_builds(CONTENT).values():
        core = CONTENT.core(build.core)
        cards = list(build.board) if build.code is None else None
        if cards is None:
            from artificer.content.wand_code import decode

            cards = list(decode(CONTENT, build.code).cards)
        timeline = CATALOG.timeline(core_data(core), place(core, cards))
        assert timeline["cycle_complete"], f"{build.id} on {core.id}: {len(timeline['casts'])} casts without closing"
