"""Spell models: the schema of spells.json, the chips the wand VM runs (GAME_RULES §3).

This module owns what one well-formed spell looks like: the common fields,
and exactly one family block (`action`, `modifier`, `multicast`, `trigger`,
`logic`, defined in `artificer.content.spell_blocks`) matching its `family`.
Checks that span spells or files (unique ids, recipes, cores, i18n keys,
affordability) live in `artificer.content.references`.

The file order of spells.json is the spell index the Rust VM uses. Units:
px, seconds, px/s, degrees for spreads, mana for costs.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field, ValidationInfo, field_validator, model_validator

from artificer.content.models import ID_PATTERN, MAX_GOLD, MAX_MANA, ContentModel, Element, SpellFamily
from artificer.content.spell_blocks import (
    ActionBlock,
    LogicBlock,
    ModifierBlock,
    MulticastBlock,
    TriggerBlock,
)

# The cast delay a spell may take away: fast spells shave a little, never all of it (R-VM-11).
MIN_CAST_DELAY_ADD = -0.2
MAX_TIER = 4


class ActionRole(StrEnum):
    """An action's place among its element's cards (R-VM-14): each element has one of each."""

    CHEAP = "cheap"  # little mana, little delay: the card a wand fires all day
    HEAVY = "heavy"  # a big hit for much mana, delay or recharge
    UTILITY = "utility"  # shapes the fight more than it deals damage


# --- the spell ------------------------------------------------------------------


class Spell(ContentModel):
    """One spell chip: common fields, and the block of its family."""

    id: str = Field(pattern=ID_PATTERN, description="Unique id; file order is the VM's spell index.")
    family: SpellFamily = Field(description="Which of the five families the chip belongs to.")
    tier: int = Field(ge=1, le=MAX_TIER, description="Rarity tier, 1..4 (shop odds rise with the wave).")
    mana_cost: float = Field(ge=0, le=MAX_MANA, description="Mana paid when the node takes effect (R-MANA-2).")
    cpu: int = Field(ge=0, le=1_000, description="CPU the chip uses on a board (R-VM-9).")
    cast_delay: float = Field(ge=MIN_CAST_DELAY_ADD, le=60, description="Seconds added to the cast delay (R-VM-11).")
    recharge: float = Field(
        default=0.0,
        ge=-5,
        le=10,
        description="Seconds added to the wand's recharge when a cast draws it; negative shortens it, never below "
        "zero in all (R-VM-11, R-VM-14).",
    )
    resets_cast_delay: bool = Field(
        default=False,
        description="Drawn, it sets the cast delay accumulated so far in the cast to zero (R-VM-14, Noita's chainsaw).",
    )
    role: ActionRole | None = Field(
        default=None, description="An action's role among its element's cards: cheap, heavy or utility (R-VM-14)."
    )
    name_key: str = Field(description='i18n key of the name: "spell.<id>.name".')
    description_key: str = Field(description='i18n key of the description: "spell.<id>.description".')
    unlock_cost: int = Field(ge=0, le=MAX_GOLD, description="Aether to unlock it (0: in the base pool, R-META-1).")
    affinity: tuple[Element, ...] = Field(default=(), description="Element tags hinting at resonance (R-META-2).")
    shop: bool = Field(default=True, description="Shelf A may offer it (false: resonance products, register cards).")
    debug_only: bool = Field(default=False, description="Offered only while a debug_core is carried (R-REG-2).")
    action: ActionBlock | None = Field(default=None, validate_default=True, description="The ACTION block.")
    modifier: ModifierBlock | None = Field(default=None, validate_default=True, description="The MODIFIER block.")
    multicast: MulticastBlock | None = Field(default=None, validate_default=True, description="The MULTICAST block.")
    trigger: TriggerBlock | None = Field(default=None, validate_default=True, description="The TRIGGER block.")
    logic: LogicBlock | None = Field(default=None, validate_default=True, description="The LOGIC block.")
    # Declared after the blocks (JSON order is free) so its check can see them.
    element: Element | None = Field(description="Element of the damage it deals; null when it deals none.")

    @model_validator(mode="after")
    def _a_role_is_an_actions(self) -> Spell:
        if self.role is not None and self.action is None:
            raise ValueError("role: only an action has a role (cheap, heavy or utility)")
        return self

    @model_validator(mode="after")
    def _a_modifier_does_something(self) -> Spell:
        if self.modifier is not None and not self.modifier.has_an_effect() and not self.recharge:
            raise ValueError("modifier: must set at least one shot-state field (or the spell a recharge add, R-VM-14)")
        return self

    @field_validator("name_key", "description_key")
    @classmethod
    def _key_follows_id(cls, key: str, info: ValidationInfo) -> str:
        spell_id = info.data.get("id")
        suffix = "name" if info.field_name == "name_key" else "description"
        if spell_id is not None and key != f"spell.{spell_id}.{suffix}":
            raise ValueError(f'must be "spell.{spell_id}.{suffix}", got "{key}"')
        return key

    @field_validator("action", "modifier", "multicast", "trigger", "logic")
    @classmethod
    def _block_matches_family(cls, block: object, info: ValidationInfo) -> object:
        family = info.data.get("family")
        name = info.field_name
        if family is None or name is None:
            return block
        if family == name and block is None:
            raise ValueError(f'required for a spell of family "{family}"')
        if family != name and block is not None:
            article = "an" if name[0] in "aeiou" else "a"
            raise ValueError(f'{article} {name} block on a spell of family "{family}" (give only the "{family}" block)')
        return block

    @field_validator("element")
    @classmethod
    def _element_fits_damage(cls, element: Element | None, info: ValidationInfo) -> Element | None:
        family = info.data.get("family")
        if family is None or info.data.get(family.value) is None:
            return element  # the family or its block is broken, and already reported
        if family in (SpellFamily.MODIFIER, SpellFamily.MULTICAST, SpellFamily.LOGIC):
            if element is not None:
                hint = " (an infusion sets modifier.element)" if family == SpellFamily.MODIFIER else ""
                raise ValueError(f"must be null: a {family} deals no damage of its own{hint}")
            return element
        block = info.data.get("action") or info.data.get("trigger")
        damaging = isinstance(block, ActionBlock | TriggerBlock) and _block_deals_damage(block)
        if damaging and element is None:
            raise ValueError("required: this spell deals damage, so it needs an element (R-DMG-1)")
        return element

    @property
    def deals_damage(self) -> bool:
        """Whether the spell itself damages enemies (an action, or a trigger's carrier)."""
        block = self.action or self.trigger
        return block is not None and _block_deals_damage(block)

    @property
    def is_raw_register_card(self) -> bool:
        """A raw register card (R-REG-2), which only a debug_core brings into the pool."""
        return self.logic is not None and self.logic.uses_registers


def _block_deals_damage(block: ActionBlock | TriggerBlock) -> bool:
    action = block.carrier if isinstance(block, TriggerBlock) else block
    return action.deals_damage


class SpellCatalog(ContentModel):
    """spells.json: every spell chip, in the order the VM numbers them."""

    spells: tuple[Spell, ...] = Field(
        min_length=1, max_length=10_000, description="Every spell; file order is the spell index."
    )
