"""R-VM-14: cards that change the wand, as the shipped content has them — at least twelve new since
the rule (recharge adds, the chainsaw, add_mana, add-trigger modifiers, divide cards and the new
actions), and across the elements each has a cheap, a heavy and a utility action in the shop's pool,
the cheap one cheaper than the heavy one. Each new card has its name and description in every
language, and a look when it flies."""

from __future__ import annotations

import json

import pytest

from artificer.content import load_content
from artificer.content.loader import DEFAULT_DATA_DIR
from artificer.content.models import Element
from artificer.content.spells import ActionRole

CONTENT = load_content()
SHOP_ACTIONS = [s for s in CONTENT.spells if s.action is not None and s.shop and not s.debug_only]
#: The cards R-VM-14 brought (issue 43).
NEW_CARDS = (
    "reduce_recharge", "chainsaw", "add_mana", "add_trigger_on_hit", "add_trigger_timer", "divide_2", "divide_3",
    "ember_bolt", "fire_ring", "ice_comet", "plague_bomb", "static_bolt", "ball_lightning", "water_droplet",
    "tidal_surge",
)  # fmt: skip


def test_at_least_twelve_cards_change_the_wand_or_fill_an_element() -> None:
    ids = {spell.id for spell in CONTENT.spells}
    assert len(NEW_CARDS) >= 12 and set(NEW_CARDS) <= ids


@pytest.mark.parametrize("element", [e for e in Element])
def test_every_element_has_a_cheap_a_heavy_and_a_utility_action(element: Element) -> None:
    mine = [s for s in SHOP_ACTIONS if s.element == element]
    by_role = {role: [s for s in mine if s.role == role] for role in ActionRole}
    missing = [str(role) for role, cards in by_role.items() if not cards]
    assert not missing, f"{element}: no {', '.join(missing)} action in the shop's pool"
    cheapest_heavy = min(s.mana_cost for s in by_role[ActionRole.HEAVY])
    assert all(s.mana_cost < cheapest_heavy for s in by_role[ActionRole.CHEAP]), f"{element}: a cheap card costs more"


def test_each_kind_of_wand_change_has_a_card() -> None:
    spells = CONTENT.spells
    assert any(s.recharge < 0 for s in spells), "a card that lowers the recharge"
    assert any(s.recharge > 0 for s in spells), "a card that raises it (the nuke)"
    assert CONTENT.spell("nuke").recharge > 0
    assert any(s.resets_cast_delay for s in spells), "a chainsaw"
    mods = [s.modifier for s in spells if s.modifier is not None]
    assert any(m.mana_gain > 0 for m in mods)
    assert {m.adds_trigger.kind for m in mods if m.adds_trigger is not None} >= {"on_hit", "timer"}
    assert {m.divide.copies for m in mods if m.divide is not None} >= {2, 3}
    assert all(m.divide.damage_mult < 1 for m in mods if m.divide is not None), "copies at reduced damage"


@pytest.mark.parametrize("language", ["en", "zh_CN", "ko", "ja"])
def test_new_cards_speak_every_language(language: str) -> None:
    catalog = json.loads((DEFAULT_DATA_DIR / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    for card in NEW_CARDS:
        for part in ("name", "description"):
            assert catalog.get(f"spell.{card}.{part}"), f"{language}: spell.{card}.{part}"


def test_new_flying_cards_have_a_look() -> None:
    looks = json.loads((DEFAULT_DATA_DIR / "looks.json").read_text(encoding="utf-8"))
    for card in NEW_CARDS:
        action = CONTENT.spell(card).action
        if action is None or action.kind == "blast":
            continue
        table = "zones" if action.kind == "zone" else "summons" if action.kind == "summon" else "shots"
        assert card in looks[table], f"looks.json {table}: {card}"
