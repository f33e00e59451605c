"""R-VM-14 add_mana: drawn, it gives mana to the cards its cast draws after it and costs none — and
no board of 8 or fewer cards nets mana over its cycle: what the cards leave of the gift is lost when
the cast ends. A property test over boards from the base pool with add_mana in them, on every plain
core, cast with no regeneration between casts: no cast ever leaves the pool fuller than it found it."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from artificer.content import load_content
from artificer.engine.wand import core_data, place, spell_catalog

CONTENT = load_content()
CATALOG = spell_catalog(CONTENT)
BASE_POOL = sorted(spell.id for spell in CONTENT.spells if spell.unlock_cost == 0 and spell.shop)
GIVERS = sorted(spell.id for spell in CONTENT.spells if spell.modifier is not None and spell.modifier.mana_gain > 0)
PLAIN_CORES = [core for core in CONTENT.cores if not core.flags and core.board.is_row]
EXAMPLES = int(os.environ.get("ARTIFICER_FUZZ_EXAMPLES", "150"))
CASTS = 64


@st.composite
def boards(draw: st.DrawFn) -> tuple[str, list[str | None], float]:
    core = draw(st.sampled_from(PLAIN_CORES))
    size = min(8, core.capacity)
    cards: list[str | None] = draw(st.lists(st.sampled_from(BASE_POOL) | st.none(), min_size=0, max_size=size - 1))
    givers = draw(st.lists(st.sampled_from(GIVERS), min_size=1, max_size=size - len(cards)))
    for giver in givers:
        cards.insert(draw(st.integers(0, len(cards))), giver)
    share = draw(st.floats(0.0, 1.0))
    return core.id, cards, share


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_r_vm_14_no_small_board_nets_mana(board: tuple[str, list[str | None], float]) -> None:
    core_id, cards, share = board
    core = CONTENT.core(core_id)
    wand = CATALOG.sandbox(core_data(core), place(core, cards), mana=core.mana_max * share)
    for n in range(CASTS):
        cast = wand.cast(moving=n % 2 == 1)
        assert cast["mana_after"] <= cast["mana_before"] + 1e-3, f"{core_id} {cards}: cast {n + 1} gained mana {cast}"


def test_add_mana_pays_for_what_the_pool_could_not() -> None:
    """The gift is real: a nuke (200 mana) fires from a starter pool it could not pay alone when an
    add_mana goes before it, and the pool pays only the rest."""
    core = CONTENT.core("starter_wand")
    nuke = CONTENT.spell("nuke").mana_cost
    gift = CONTENT.spell("add_mana").modifier.mana_gain  # type: ignore[union-attr]
    pool = nuke - gift
    wand = CATALOG.sandbox(core_data(core), place(core, ["add_mana", "nuke"]), mana=pool)
    alone = CATALOG.sandbox(core_data(core), place(core, ["nuke"]), mana=pool)
    if pool > core.mana_max:  # the starter pool is too small even with the gift: a bigger core shows it
        core = max(PLAIN_CORES, key=lambda c: c.mana_max)
        assert core.mana_max >= pool, "some plain core holds a nuke less the gift"
        wand = CATALOG.sandbox(core_data(core), place(core, ["add_mana", "nuke"]), mana=pool)
        alone = CATALOG.sandbox(core_data(core), place(core, ["nuke"]), mana=pool)
    assert alone.cast()["abandoned"]
    cast = wand.cast()
    assert [shot["spell"] for shot in cast["fired"]] == ["nuke"]
    assert abs(cast["mana_after"]) < 1e-3, cast
    assert GIVERS == ["add_mana"]
