"""Potions (R-POT-1, R-POT-2): the schema of `data/potions.json`, seed 000's own.

This module owns what one well-formed potion looks like and the file's few
numbers: `{"potions": {id: {"name", "desc", "effect", "value", "icon"}},
"dropChance", "baseSlots", "beltSlots", "shopPrice"}`. `name` and `desc` are
i18n keys (checked against en.json by `check_potion_texts`); `effect` is one
of `PotionEffect`; `value` is its amount (HP, damage, strength, ward, mana —
or turns of weak, R-POT-1's "turn" being a fixed beat of wave time); `icon`
names one of the glyphs the game draws itself (`PotionIcon`,
`artificer.ui.icons_potions`). A duplicate id is a key written twice, which
the loader reports like any other duplicate key.

Adding a potion is data only: an entry here and its two texts in every
language. What a potion does in a wave is `artificer.game.potions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Annotated

from pydantic import Field, ValidationInfo, field_validator

from artificer.content.models import ID_PATTERN, ContentModel, Problem
from artificer.content.recipes import I18N_KEY_PATTERN
from artificer.content.references import TEXTS_FILE, location_path

POTIONS_FILE = "potions.json"
#: R-POT-2: the HUD always shows this many potion slots, so a belt holds at most this many.
HUD_SLOTS = 5


class PotionEffect(StrEnum):
    """What drinking a potion does (R-POT-1); StS terms mapped to real time (GAME_RULES §8)."""

    HEAL = "heal"  # +value HP, up to the maximum
    DAMAGE = "damage"  # value damage to the target enemy
    STRENGTH = "strength"  # +value flat damage on every projectile, for the rest of the wave
    WARD = "ward"  # +value ward (absorbs damage, lasts the wave)
    MANA = "mana"  # +value mana, up to the pool's maximum
    WEAK = "weak"  # the target enemy is weak (deals 25% less) for value turns

    @property
    def targeted(self) -> bool:
        """Aimed at an enemy: the one nearest the cursor (nearest the player with a gamepad)."""
        return self in (PotionEffect.DAMAGE, PotionEffect.WEAK)


class PotionIcon(StrEnum):
    """The potion glyphs the game draws (`artificer.ui.icons_potions`); a new potion may reuse one."""

    ROUND_FLASK = "round_flask"  # a round-bottomed flask (red_potion)
    BOMB = "bomb"  # a round bomb with a lit fuse (firebomb)
    TALL_BOTTLE = "tall_bottle"  # a tall bottle with a sword mark (warrior_elixir)
    SHIELD_FLASK = "shield_flask"  # a shield-shaped flask (guard_potion)
    CRYSTAL_VIAL = "crystal_vial"  # a faceted vial with a star (mana_elixir)
    SKULL_VIAL = "skull_vial"  # a thin vial with a skull (cursed_vial)


I18nKey = Annotated[str, Field(pattern=I18N_KEY_PATTERN)]
PotionId = Annotated[str, Field(pattern=ID_PATTERN)]


class Potion(ContentModel):
    """One potion (R-POT-1). `id` is its key in `potions`."""

    name: I18nKey = Field(description='i18n key of its name, e.g. "potion.red_potion.name".')
    desc: I18nKey = Field(description='i18n key of its description, e.g. "potion.red_potion.desc".')
    effect: PotionEffect = Field(description="What it does.")
    value: float = Field(gt=0, le=100_000, description="How much: HP, damage, strength, ward, mana, or turns of weak.")
    icon: PotionIcon = Field(description="The glyph the belt and the shop draw.")


class PotionBook(ContentModel):
    """potions.json: every potion, the drop chance, the belt's slots, the shop's price (R-POT-2)."""

    potions: dict[PotionId, Potion] = Field(
        min_length=1, max_length=1_000, description="Every potion, by id (file order is the draw order)."
    )
    drop_chance: float = Field(alias="dropChance", ge=0, le=1, description="Chance of one potion on winning a wave.")
    base_slots: int = Field(alias="baseSlots", ge=1, le=HUD_SLOTS, description="Belt slots without the Artisan's Belt.")
    belt_slots: int = Field(alias="beltSlots", ge=1, le=HUD_SLOTS, description="Belt slots with the Artisan's Belt.")
    shop_price: int = Field(alias="shopPrice", ge=0, le=100_000, description="The shop's potion price in gold.")

    @field_validator("belt_slots")
    @classmethod
    def _belt_adds_slots(cls, belt_slots: int, info: ValidationInfo) -> int:
        base = info.data.get("base_slots")
        if isinstance(base, int) and belt_slots < base:
            raise ValueError(f"must be at least baseSlots ({base}), got {belt_slots}")
        return belt_slots

    @property
    def ids(self) -> tuple[str, ...]:
        """Potion ids in file order."""
        return tuple(self.potions)

    def potion(self, potion_id: str) -> Potion:
        """The potion with this id."""
        try:
            return self.potions[potion_id]
        except KeyError:
            raise KeyError(f"no potion {potion_id!r} in {POTIONS_FILE}") from None


def check_potion_texts(book: PotionBook, texts: Mapping[str, str]) -> list[Problem]:
    """Every potion's name and description key has an English text (R-I18N-1)."""
    return [
        Problem(
            POTIONS_FILE, location_path("potions", potion_id, field), f'no text for "{key}" in {TEXTS_FILE} (R-I18N-1)'
        )
        for potion_id, potion in book.potions.items()
        for field, key in (("name", potion.name), ("desc", potion.desc))
        if key not in texts
    ]
