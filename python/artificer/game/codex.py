"""The codex's resonance pages (R-RES-2): recipes are hidden behind a hint
naming the elements involved until the recipe first fuses in a wave the
player fights; then the full entry is unlocked for good.

Keeping `discovered` across runs is the meta save's job (R-SAVE-1); this
module decides what the player sees and learns from the frame's events.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from artificer.content import Content
from artificer.engine import EventKind
from artificer.engine.events import KIND, A


@dataclass(frozen=True)
class RecipePage:
    recipe: str
    discovered: bool
    title: str
    text: str


@dataclass
class Codex:
    content: Content
    discovered: set[str] = field(default_factory=set)

    def observe(self, events: npt.NDArray[np.float64]) -> list[str]:
        """Learns from a frame's events; returns the recipes discovered now."""
        fused = events[events[:, KIND] == EventKind.RESONANCE_FUSED, A]
        new = []
        for index in fused.astype(int):
            recipe = self.content.recipes[index].id
            if recipe not in self.discovered:
                self.discovered.add(recipe)
                new.append(recipe)
        return new

    def page(self, recipe_id: str) -> RecipePage:
        recipe = self.content.recipe(recipe_id)
        if recipe_id not in self.discovered:
            return RecipePage(recipe_id, False, "???", self.content.text(recipe.hint_key))
        inputs = " + ".join(self.content.text(self.content.spell(s).name_key) for s in recipe.inputs)
        product = self.content.text(self.content.spell(recipe.product).name_key)
        return RecipePage(recipe_id, True, self.content.text(recipe.name_key), f"{inputs} → {product}")
