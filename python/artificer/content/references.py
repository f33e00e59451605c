"""Checks across the VM's content: spells, cores, recipes, i18n texts and the default wand.

This module owns every rule that needs more than one entry or file: unique
ids, the raw register cards' debug-only status (R-REG-2), core boards
(via `board_rules`), dash-wave spells (R-MOVE-2), recipes naming real spells
whose products are never sold (R-RES-1), every spell affordable by some
core (R-MANA-7), and every i18n key present (R-I18N-1). Each check returns
`Problem`s located in the file a designer must edit to fix them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from artificer.content.board_rules import board_issues
from artificer.content.cores import Core, CoreCatalog, CoreFlag
from artificer.content.models import Balance, Problem, SpellFamily, did_you_mean
from artificer.content.recipes import Recipe, RecipeBook
from artificer.content.spells import Spell, SpellCatalog

BALANCE_FILE = "balance.json"
SPELLS_FILE = "spells.json"
CORES_FILE = "cores.json"
RECIPES_FILE = "resonance_recipes.json"
TEXTS_FILE = "i18n/en.json"

# R-CORE-4: the debug core is a Tier 3+ core.
DEBUG_CORE_MIN_TIER = 3


def location_path(*segments: str | int) -> str:
    """('cores', 3, 'board', 'edges', 1, 0) -> '$.cores[3].board.edges[1][0]'."""
    return "$" + "".join(f"[{segment}]" if isinstance(segment, int) else f".{segment}" for segment in segments)


def _duplicate_ids(file: str, array: str, ids: Sequence[str], what: str) -> list[Problem]:
    problems: list[Problem] = []
    first_index: dict[str, int] = {}
    for index, item_id in enumerate(ids):
        if item_id in first_index:
            reason = f'duplicate {what} id "{item_id}" (first used at $.{array}[{first_index[item_id]}])'
            problems.append(Problem(file, location_path(array, index, "id"), reason))
        else:
            first_index[item_id] = index
    return problems


# --- spells.json ------------------------------------------------------------------


def check_spells(catalog: SpellCatalog) -> list[Problem]:
    """Unique ids (file order is the spell index); raw register cards are debug-only and never sold."""
    problems = _duplicate_ids(SPELLS_FILE, "spells", [spell.id for spell in catalog.spells], "spell")
    for index, spell in enumerate(catalog.spells):
        if spell.is_raw_register_card and not spell.debug_only:
            reason = "must be true: raw register cards are only in the pool while a debug_core is carried (R-REG-2)"
            problems.append(Problem(SPELLS_FILE, location_path("spells", index, "debug_only"), reason))
        if spell.debug_only and spell.shop:
            reason = "must be false for a debug_only spell (the debug_core brings it into the pool, R-REG-2)"
            problems.append(Problem(SPELLS_FILE, location_path("spells", index, "shop"), reason))
    return problems


# --- cores.json -------------------------------------------------------------------


def check_cores(catalog: CoreCatalog, spells: SpellCatalog | None) -> list[Problem]:
    """Unique ids, board rules, special-core requirements, and dash-wave spells (when spells loaded)."""
    problems = _duplicate_ids(CORES_FILE, "cores", [core.id for core in catalog.cores], "core")
    spell_by_id = {spell.id: spell for spell in spells.spells} if spells is not None else None
    for index, core in enumerate(catalog.cores):
        problems.extend(_core_problems(index, core, spell_by_id))
    return problems


def _core_problems(index: int, core: Core, spell_by_id: Mapping[str, Spell] | None) -> Iterable[Problem]:
    # A row board is valid by construction; only explicit boards can break the rules.
    if not core.board.is_row:
        for where, reason in board_issues(core.layout()):
            yield Problem(CORES_FILE, location_path("cores", index, "board", *where), reason)
    if core.has_flag(CoreFlag.DEBUG_CORE) and core.tier < DEBUG_CORE_MIN_TIER:
        reason = f"must be at least {DEBUG_CORE_MIN_TIER} for a debug_core (R-CORE-4), got {core.tier}"
        yield Problem(CORES_FILE, location_path("cores", index, "tier"), reason)
    if core.has_flag(CoreFlag.MATRIX_BOARD) and not any(slot.bonus for slot in core.layout().slots):
        reason = "a matrix_board core needs at least one slot with an adjacency bonus (R-BOARD-2)"
        yield Problem(CORES_FILE, location_path("cores", index, "board"), reason)
    if core.dash_wave is not None and spell_by_id is not None:
        spell_id = core.dash_wave.spell
        location = location_path("cores", index, "dash_wave", "spell")
        if spell_id not in spell_by_id:
            yield Problem(CORES_FILE, location, _unknown_spell(spell_id, spell_by_id))
        elif spell_by_id[spell_id].family != SpellFamily.ACTION:
            reason = f'"{spell_id}" is a {spell_by_id[spell_id].family}; a dash wave casts an action (R-MOVE-2)'
            yield Problem(CORES_FILE, location, reason)
    if spell_by_id is not None:
        yield from _always_cast_problems(index, core, spell_by_id)


def _always_cast_problems(index: int, core: Core, spell_by_id: Mapping[str, Spell]) -> Iterable[Problem]:
    """R-VM-13: always-cast cards exist and are modifiers or actions, never a summon (its program is
    the cards after it), a splitter (it needs a board point), nor an add-trigger or a divide (each acts
    on the card after it, R-VM-14)."""
    for position, spell_id in enumerate(core.always_cast):
        location = location_path("cores", index, "always_cast", position)
        spell = spell_by_id.get(spell_id)
        if spell is None:
            yield Problem(CORES_FILE, location, _unknown_spell(spell_id, spell_by_id))
        elif spell.family not in (SpellFamily.ACTION, SpellFamily.MODIFIER):
            reason = f'"{spell_id}" is a {spell.family}; an always-cast card is a modifier or an action (R-VM-13)'
            yield Problem(CORES_FILE, location, reason)
        elif spell.action is not None and spell.action.kind == "summon":
            yield Problem(CORES_FILE, location, f'"{spell_id}" is a summon; it cannot be always cast (R-VM-13)')
        elif spell.modifier is not None and spell.modifier.splitter:
            yield Problem(CORES_FILE, location, f'"{spell_id}" is a splitter; it cannot be always cast (R-VM-13)')
        elif spell.modifier is not None and (spell.modifier.adds_trigger or spell.modifier.divide):
            reason = f'"{spell_id}" acts on the card after it, and an always-cast card has none (R-VM-13, R-VM-14)'
            yield Problem(CORES_FILE, location, reason)


def _unknown_spell(spell_id: str, known: Mapping[str, Spell]) -> str:
    return f'unknown spell "{spell_id}" (not in {SPELLS_FILE}){did_you_mean(spell_id, list(known))}'


# --- resonance_recipes.json ---------------------------------------------------------


def check_recipes(book: RecipeBook, spells: SpellCatalog | None) -> list[Problem]:
    """Unique ids and input pairs; with spells: inputs and products exist, inputs are no products,
    products are never sold (R-RES-1)."""
    problems = _duplicate_ids(RECIPES_FILE, "recipes", [recipe.id for recipe in book.recipes], "recipe")
    first_pair: dict[tuple[str, ...], int] = {}
    for index, recipe in enumerate(book.recipes):
        pair = tuple(sorted(recipe.inputs))
        if pair in first_pair:
            reason = f"the same two inputs as $.recipes[{first_pair[pair]}] (a pair fuses into one product)"
            problems.append(Problem(RECIPES_FILE, location_path("recipes", index, "inputs"), reason))
        else:
            first_pair[pair] = index
    if spells is not None:
        problems.extend(_recipe_spell_problems(book.recipes, spells))
    return problems


def _recipe_spell_problems(recipes: Sequence[Recipe], spells: SpellCatalog) -> list[Problem]:
    spell_by_id = {spell.id: spell for spell in spells.spells}
    product_of = {recipe.product: recipe.id for recipe in recipes}
    problems: list[Problem] = []
    for index, recipe in enumerate(recipes):
        for slot, spell_id in enumerate(recipe.inputs):
            location = location_path("recipes", index, "inputs", slot)
            if spell_id not in spell_by_id:
                problems.append(Problem(RECIPES_FILE, location, _unknown_spell(spell_id, spell_by_id)))
            elif spell_id in product_of:
                reason = f'"{spell_id}" is the product of recipe "{product_of[spell_id]}"; products never fuse again'
                problems.append(Problem(RECIPES_FILE, location, reason))
        if recipe.product not in spell_by_id:
            location = location_path("recipes", index, "product")
            problems.append(Problem(RECIPES_FILE, location, _unknown_spell(recipe.product, spell_by_id)))
    for at, spell in enumerate(spells.spells):
        if spell.id in product_of and spell.shop:
            reason = f'must be false: "{spell.id}" is the product of recipe "{product_of[spell.id]}" (R-RES-1)'
            problems.append(Problem(SPELLS_FILE, location_path("spells", at, "shop"), reason))
    return problems


# --- across spells and cores ----------------------------------------------------------


def check_affordable(spells: SpellCatalog, cores: CoreCatalog) -> list[Problem]:
    """Every spell fits in some core's mana pool (nuke needs a big core, R-MANA-7)."""
    largest = max(core.mana_max for core in cores.cores)
    return [
        Problem(
            SPELLS_FILE,
            location_path("spells", index, "mana_cost"),
            f"{spell.mana_cost:g} is more than any core's mana_max (the largest is {largest:g})",
        )
        for index, spell in enumerate(spells.spells)
        if spell.mana_cost > largest
    ]


def check_starting_wand(balance: Balance, spells: SpellCatalog, cores: CoreCatalog) -> list[Problem]:
    """R-ONB-1: the starting wand names a core and spells that exist, and fits the core."""
    start = balance.starting_wand
    core_by_id = {core.id: core for core in cores.cores}
    spell_by_id = {spell.id: spell for spell in spells.spells}
    if start.core not in core_by_id:
        known = ", ".join(core_by_id)
        return [
            Problem(
                BALANCE_FILE, location_path("starting_wand", "core"), f'unknown core "{start.core}" (cores: {known})'
            )
        ]
    problems = [
        Problem(BALANCE_FILE, location_path("starting_wand", "cards", index), _unknown_spell(card, spell_by_id))
        for index, card in enumerate(start.cards)
        if card is not None and card not in spell_by_id
    ]
    core = core_by_id[start.core]
    capacity = core.capacity
    if len(start.cards) > capacity:
        problems.append(
            Problem(
                BALANCE_FILE,
                location_path("starting_wand", "cards"),
                f"{len(start.cards)} cards do not fit {capacity} slots",
            )
        )
    placed = [spell_by_id[card] for card in start.cards if card is not None and card in spell_by_id]
    cpu = sum(spell.cpu for spell in placed)
    if cpu > core.cpu_limit:
        # R-VM-9 drops the cards past the CPU limit; a first wave then cannot start (R-VM-2).
        reason = f"the cards use {cpu} CPU, more than {core.id}'s cpu_limit ({core.cpu_limit}): the run could not start (R-VM-9, R-VM-2)"
        problems.append(Problem(BALANCE_FILE, location_path("starting_wand", "cards"), reason))
    if placed and not any(spell.family in (SpellFamily.ACTION, SpellFamily.TRIGGER) for spell in placed):
        reason = "needs an action (or a trigger) card: a wand without one cannot fire (R-VM-2)"
        problems.append(Problem(BALANCE_FILE, location_path("starting_wand", "cards"), reason))
    return problems


def check_onboarding(balance: Balance, spells: SpellCatalog) -> list[Problem]:
    """R-ONB-1: each onboarding step names spells that exist (those it adds and its demo's)."""
    spell_by_id = {spell.id: spell for spell in spells.spells}
    return [
        Problem(
            BALANCE_FILE, location_path("onboarding", "steps", index, field, slot), _unknown_spell(card, spell_by_id)
        )
        for index, step in enumerate(balance.onboarding.steps)
        for field, cards in (("spells", step.spells), ("demo", step.demo))
        for slot, card in enumerate(cards)
        if card is not None and card not in spell_by_id
    ]


# --- i18n ---------------------------------------------------------------------------


def check_texts(
    texts: Mapping[str, str],
    spells: SpellCatalog | None,
    cores: CoreCatalog | None,
    recipes: RecipeBook | None,
) -> list[Problem]:
    """Every name, description and hint key used by the content has an English text (R-I18N-1)."""
    used: list[tuple[str, str, str]] = []  # (file, JSON path of the key field, key)
    if spells is not None:
        for index, spell in enumerate(spells.spells):
            used.append((SPELLS_FILE, location_path("spells", index, "name_key"), spell.name_key))
            used.append((SPELLS_FILE, location_path("spells", index, "description_key"), spell.description_key))
    if cores is not None:
        for index, core in enumerate(cores.cores):
            used.append((CORES_FILE, location_path("cores", index, "name_key"), core.name_key))
            used.append((CORES_FILE, location_path("cores", index, "description_key"), core.description_key))
    if recipes is not None:
        for index, recipe in enumerate(recipes.recipes):
            used.append((RECIPES_FILE, location_path("recipes", index, "name_key"), recipe.name_key))
            used.append((RECIPES_FILE, location_path("recipes", index, "hint_key"), recipe.hint_key))
    return [
        Problem(file, path, f'no text for "{key}" in {TEXTS_FILE} (R-I18N-1)')
        for file, path, key in used
        if key not in texts
    ]
