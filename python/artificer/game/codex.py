"""The codex (R-META-2, R-RES-2): what the player has met, kept for good in meta.json.

This module owns:
- `Discoveries`: watches a run as it is played and gathers what the player
  meets for the first time — a spell on its first pickup or purchase (the
  cards the run owns), an enemy or a boss on first meeting (ENEMY_SPAWNED, a
  boss wave's fight), an element reaction the first time it happens
  (ELEMENT_REACTION: the alchemy journal), a resonance recipe the first time it
  fuses in a fight (RESONANCE_FUSED), a relic or a potion once held — and
  writes what is new into meta.json (`flush`, at each wave's end and the run's);
- `Codex`: the pages as the codex screen shows them, section by section, for
  every entry of the content, found or not: a recipe not yet fused shows only
  the hint naming its elements ("Water and lightning seem to react…"), then
  its full entry, for good;
- achievements (`ACHIEVEMENTS` rules over meta.json's progress and a run's
  kills, `earned`), paid into meta.json with the rest.

A practice run (R-END-5) records nothing. No pygame.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from artificer.content import Content
from artificer.content.bosses import Boss
from artificer.content.models import Achievement
from artificer.content.roster import roster
from artificer.engine import EventKind
from artificer.engine.events import KIND, A, Reaction
from artificer.game.meta import Meta, Section, unlock_tree, update_meta
from artificer.game.state import RunState

#: Keys built from an id at run time (the i18n coverage test reads this): the journal's entries, the
#: achievements', the enemies' codex lines.
I18N_DYNAMIC_PREFIXES = ("journal.", "achievement.", "enemy.")


def reaction_id(reaction: Reaction) -> str:
    """The journal's id of an element reaction (its name, lower case: "electrified")."""
    return reaction.name.lower()


def _codex_kind(kind_id: str, boss: Boss | None, clone_of: Boss | None) -> tuple[Section, str]:
    """Where a kind of the roster is met: an enemy's page, or its boss's (a clone is its boss)."""
    if boss is not None:
        return Section.BOSSES, boss.boss_id
    if clone_of is not None:
        return Section.BOSSES, clone_of.boss_id
    return Section.ENEMIES, kind_id


@dataclass
class Discoveries:
    """What one run shows the player for the first time (beyond `known`, meta.json's codex when it began)."""

    content: Content
    known: Meta = field(default_factory=Meta)
    #: Section → the ids met in this run that `known` did not hold.
    new: dict[Section, set[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        kinds = roster(self.content)
        #: The core's kind index → (section, id): enemies and bosses (a boss's clone is its boss).
        self._kinds: list[tuple[Section, str]] = [_codex_kind(kind.id, kind.boss, kind.clone_of) for kind in kinds]

    def _add(self, section: Section, ids: Iterable[str]) -> list[str]:
        fresh = [i for i in dict.fromkeys(ids) if i and i not in self.known.seen(section)]
        fresh = [i for i in fresh if i not in self.new.get(section, set())]
        if fresh:
            self.new.setdefault(section, set()).update(fresh)
        return fresh

    def observe_events(self, events: npt.NDArray[np.float64]) -> list[tuple[Section, str]]:
        """Learns from a frame's events; returns what was met for the first time in it."""
        found: list[tuple[Section, str]] = []
        kinds = events[:, KIND]
        for index in np.unique(events[kinds == EventKind.ENEMY_SPAWNED, A]).astype(int):
            if 0 <= index < len(self._kinds):
                section, kind_id = self._kinds[index]
                found += [(section, i) for i in self._add(section, [kind_id])]
        codes = np.unique(events[kinds == EventKind.ELEMENT_REACTION, A]).astype(int)
        found += [
            (Section.REACTIONS, i) for i in self._add(Section.REACTIONS, (reaction_id(Reaction(c)) for c in codes))
        ]
        fused = np.unique(events[kinds == EventKind.RESONANCE_FUSED, A]).astype(int)
        recipes = [self.content.recipes[i].id for i in fused if 0 <= i < len(self.content.recipes)]
        found += [(Section.RECIPES, i) for i in self._add(Section.RECIPES, recipes)]
        return found

    def observe_state(self, state: RunState) -> None:
        """The run's possessions: every card owned (first pickup or purchase), relics, potions."""
        loadout = state.loadout
        cards = [c for carried in loadout.cores for c in carried.cards if c is not None]
        self._add(Section.SPELLS, [*cards, *loadout.waiting, *loadout.backpack])
        self._add(Section.RELICS, state.relics.owned)
        self._add(Section.POTIONS, [p for p in state.potions.held if p is not None])

    def record(self, meta: Meta) -> Meta:
        """`meta` with this run's discoveries."""
        for section, ids in self.new.items():
            meta = meta.discover(section, ids)
        return meta

    def flush(self, path: Path | None = None) -> Meta:
        """Writes what is new into meta.json (nothing to write: nothing written), read and written under
        its lock, rid of ids the content no longer has (R-SAVE-2); the progress after."""
        if not any(self.new.values()):
            return self.known
        self.known = update_meta(self.record, path, self.content)
        self.new = {}
        return self.known


# --- achievements ---------------------------------------------------------------------------------


def progress_value(rule: Achievement, content: Content, meta: Meta, kills_in_run: int) -> int:
    """How far `meta` (and a run of `kills_in_run`) has come on `rule`'s measure."""
    measure = rule.measure
    if measure == "best_wave":
        return meta.best_wave
    if measure == "clears":
        return meta.clears
    if measure == "ng_plus_clears":
        return meta.ng_plus_clears
    if measure == "unlocks":  # the tree's nodes only: an id of content since removed counts for nothing
        return len(meta.unlocked & {node.id for node in unlock_tree(content)})
    if measure == "kills_in_run":
        return kills_in_run
    return Codex(content, meta).found(Section(measure))[0]


def goal(rule: Achievement, content: Content) -> int:
    """The achievement's goal (0 in the data: every entry of its section the content has)."""
    if rule.value:
        return rule.value
    if rule.measure == "unlocks":
        return len(unlock_tree(content))
    return len(Codex(content, Meta()).entries(Section(rule.measure)))


def earned(content: Content, meta: Meta, kills_in_run: int = 0) -> list[str]:
    """The achievements `meta` (and a run's kills) earn that it does not hold yet, in the data's order
    (one whose goal is nothing — "all of" an empty section — is never earned)."""
    return [
        rule.id
        for rule in content.balance.meta.achievements
        if rule.id not in meta.achievements
        and 0 < goal(rule, content) <= progress_value(rule, content, meta, kills_in_run)
    ]


# --- the pages ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One codex entry: its id, whether it was found, its name key and its text's (a recipe's: its hint)."""

    id: str
    found: bool
    name_key: str
    description_key: str


@dataclass(frozen=True)
class RecipePage:
    """A recipe's page: hidden (its title "???", its text the hint) or found (its name, "inputs → product",
    and the two halves for a screen that draws its own arrow)."""

    recipe: str
    discovered: bool
    title: str
    text: str
    inputs: str = ""
    product: str = ""


@dataclass
class Codex:
    """The codex's pages over the content and what `meta` has met."""

    content: Content
    meta: Meta = field(default_factory=Meta)

    def entries(self, section: Section) -> list[Entry]:
        """Every entry of `section` in the content's order, found or not."""
        seen = self.meta.seen(section)
        c = self.content
        items: list[tuple[str, str, str]]
        if section is Section.SPELLS:
            items = [(s.id, s.name_key, s.description_key) for s in c.spells if s.shop]
        elif section is Section.ENEMIES:
            items = [(e.id, f"enemy.{e.id}.name", f"enemy.{e.id}.description") for e in c.enemies]
        elif section is Section.BOSSES:
            items = [
                (b.boss_id, b.name_key, b.description_key) for b in sorted(c.bosses.values(), key=lambda b: b.wave)
            ]
        elif section is Section.RECIPES:
            items = [(r.id, r.name_key, r.hint_key) for r in c.recipes]
        elif section is Section.REACTIONS:
            items = [
                (reaction_id(r), f"journal.{reaction_id(r)}.name", f"journal.{reaction_id(r)}.text") for r in Reaction
            ]
        elif section is Section.RELICS:
            items = [(i, r.name_key, r.description_key) for i, r in c.relics.relics.items()]
        else:
            items = [(i, p.name, p.desc) for i, p in c.potions.potions.items()]
        return [Entry(i, i in seen, name, text) for i, name, text in items]

    def name_key(self, section: Section, entry_id: str) -> str:
        """The i18n key of the name of entry `entry_id` of `section`."""
        return next(entry.name_key for entry in self.entries(section) if entry.id == entry_id)

    def found(self, section: Section) -> tuple[int, int]:
        """(entries found, entries) of `section`."""
        entries = self.entries(section)
        return sum(entry.found for entry in entries), len(entries)

    def page(self, recipe_id: str, text: Callable[[str], str] | None = None) -> RecipePage:
        """R-RES-2: a recipe's page: its hint until it fused, then its inputs and product; `text` looks
        its keys up (None: the content's English, `Content.text`; a screen passes its language's)."""
        text = text if text is not None else self.content.text
        recipe = self.content.recipe(recipe_id)
        if recipe_id not in self.meta.seen(Section.RECIPES):
            return RecipePage(recipe_id, False, "???", text(recipe.hint_key))
        inputs = " + ".join(text(self.content.spell(s).name_key) for s in recipe.inputs)
        product = text(self.content.spell(recipe.product).name_key)
        title = text(recipe.name_key)
        return RecipePage(recipe_id, True, title, f"{inputs} → {product}", inputs, product)
