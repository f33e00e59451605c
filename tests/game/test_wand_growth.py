"""Building pays (R-CURVE-1, R-CORE-5): modifiers that multiply (amplify, empower, cataclysm: every
action after them in the cast deals that much more) and core tiers whose mana economy and
always-cast cards make the next tier a visible jump, as the lab's figures show them."""

from __future__ import annotations

import pytest

from artificer.game.offer_effect import WandBonus, sustained_dps
from relic_runs import CONTENT

MULTIPLIERS = {"amplify": 1.4, "empower": 1.8, "cataclysm": 2.6}


def cast_damage(core: str, cards: list[str | None]) -> float:
    return float(WandBonus().timeline(CONTENT, core, cards)["casts"][0]["damage"])


@pytest.mark.parametrize("card", sorted(MULTIPLIERS))
def test_r_curve_1_a_multiplying_card_multiplies_every_action_after_it_in_the_cast(card: str) -> None:
    # storm_engine fires three spells a cast: the multiplier and both bolts come in one cast.
    plain = cast_damage("siege_core", ["double_cast", "spark_bolt", "heavy_shot"])
    multiplied = cast_damage("siege_core", [card, "double_cast", "spark_bolt", "heavy_shot"])
    assert multiplied == pytest.approx(plain * MULTIPLIERS[card], rel=1e-4)
    assert CONTENT.spell(card).modifier is not None


def test_r_core_5_a_higher_tier_core_is_a_visible_jump() -> None:
    starter = CONTENT.core("starter_wand")
    board: list[str | None] = ["heavy_shot", "spark_bolt", "heavy_shot"]
    base = sustained_dps(CONTENT, starter.id, board)
    by_tier: dict[int, list[float]] = {}
    for core in CONTENT.cores:
        if core.tier >= 4:
            assert core.mana_regen >= 3 * starter.mana_regen, core.id
            assert core.always_cast, f"{core.id}: a tier-4+ core casts a card of its own every cast"
        if core.tier == 5:
            assert core.mana_regen >= 6 * starter.mana_regen and core.mana_max >= 4 * starter.mana_max, core.id
        if core.tier >= 4 and not core.flags:
            by_tier.setdefault(core.tier, []).append(sustained_dps(CONTENT, core.id, board))
    # The same three cards fire several times harder on a tier-4 core, more again on a tier 5.
    assert min(by_tier[4]) >= 2.5 * base
    assert min(by_tier[5]) >= 4 * base
    assert min(by_tier[5]) > max(by_tier[4])
