"""Resonance models: the schema of resonance_recipes.json (R-RES-1) and of the i18n text files.

This module owns what one well-formed recipe looks like (two input spells,
a product, how they must meet, rarity, codex keys) and the flat key → text
mapping of `i18n/<language>.json` (R-I18N-1). Whether the spells and keys
they name exist is checked in `artificer.content.references`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import ConfigDict, Field, RootModel, ValidationInfo, field_validator

from artificer.content.models import ID_PATTERN, ContentModel

# An i18n key: dotted lowercase words, e.g. "spell.spark_bolt.name".
I18N_KEY_PATTERN = r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$"

SpellId = Annotated[str, Field(pattern=ID_PATTERN)]


class RecipeMatch(StrEnum):
    """Where the two inputs must sit for the recipe to fuse (R-RES-1)."""

    ADJACENT = "adjacent"  # next to each other in program order, either order
    ANYWHERE_IN_DECK = "anywhere_in_deck"  # anywhere on the board; rarity 3 only


class Recipe(ContentModel):
    """One resonance recipe: two chips fuse into a product at compile time."""

    id: str = Field(pattern=ID_PATTERN, description="Unique id.")
    inputs: tuple[SpellId, SpellId] = Field(description="The two spells that fuse, in either order.")
    product: str = Field(pattern=ID_PATTERN, description="The spell they fuse into (never sold in the shop).")
    match: RecipeMatch = Field(description="Where the inputs must sit.")
    rarity: int = Field(ge=1, le=3, description="1..3; anywhere_in_deck recipes are rarity 3 (R-RES-1).")
    hint_key: str = Field(description='i18n key of the codex hint: "recipe.<id>.hint" (R-RES-2).')
    name_key: str = Field(description='i18n key of the codex name: "recipe.<id>.name".')

    @field_validator("rarity")
    @classmethod
    def _anywhere_is_rare(cls, rarity: int, info: ValidationInfo) -> int:
        if info.data.get("match") == RecipeMatch.ANYWHERE_IN_DECK and rarity != 3:
            raise ValueError(f"must be 3 for an anywhere_in_deck recipe (R-RES-1), got {rarity}")
        return rarity

    @field_validator("hint_key", "name_key")
    @classmethod
    def _key_follows_id(cls, key: str, info: ValidationInfo) -> str:
        recipe_id = info.data.get("id")
        suffix = "hint" if info.field_name == "hint_key" else "name"
        if recipe_id is not None and key != f"recipe.{recipe_id}.{suffix}":
            raise ValueError(f'must be "recipe.{recipe_id}.{suffix}", got "{key}"')
        return key

    def fuses(self, first: str, second: str) -> bool:
        """Whether these two spell ids (in either order) are this recipe's inputs."""
        return sorted((first, second)) == sorted(self.inputs)


class RecipeBook(ContentModel):
    """resonance_recipes.json: every recipe; the first listed wins when two could fuse."""

    recipes: tuple[Recipe, ...] = Field(min_length=1, description="Every resonance recipe.")


I18nKey = Annotated[str, Field(pattern=I18N_KEY_PATTERN)]
I18nText = Annotated[str, Field(min_length=1)]


class TextTable(RootModel[dict[I18nKey, I18nText]]):
    """i18n/<language>.json: a flat object of key → text (R-I18N-1)."""

    model_config = ConfigDict(frozen=True)

    def __getitem__(self, key: str) -> str:
        return self.root[key]

    def __contains__(self, key: object) -> bool:
        return key in self.root
