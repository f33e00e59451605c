"""Relics (R-REL-1, R-REL-3): the schema of `data/relics.json` and its checks.

This module owns what a well-formed relics file looks like — the seed 000
schema (`{relics: {id: {name, desc, hook, effect, value, icon}}, relicPool,
startRelic}`) in this game's words: every relic's i18n name and description
keys, its hook (when it acts), its effect (what it does, a closed set: the
game's effects, whose code lives in `artificer.game.relics`, and the relic
rules the core declares, `CORE_RULES`), its value, the field a core rule's
parameter comes from (`seconds`, `threshold`), and the name
of its procedurally drawn icon; the run's start relics, the pool the
acquisition draws from, the shop's price and the currency given instead when
every relic is owned. The checks across entries (an effect on the wrong hook,
an unknown id in `start` or `pool`, a missing icon or text, an icon drawn
for two relics) report one `Problem` each; the loader adds them to the rest.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated

from pydantic import AfterValidator, Field

from artificer import _core
from artificer.content.models import ID_PATTERN, MAX_GOLD, ContentModel, Problem, did_you_mean
from artificer.content.recipes import I18nKey

RELICS_FILE = "relics.json"


class RelicHook(StrEnum):
    """When a relic acts (R-REL-1; seed 000's combatStart / onPlayerDamaged / CalcPlayerAttack /
    AddRelic, with combat read as wave). Seed 000's combatEnd is gone: every wave begins at full HP
    (R-LOOP-1), so the relics that healed at a wave's end heal inside it (enemy_killed, hp_low)."""

    WAVE_START = "wave_start"
    PLAYER_DAMAGED = "player_damaged"
    ATTACK_CALC = "attack_calc"
    PASSIVE = "passive"
    #: An enemy dies (burning_blood: an elite).
    ENEMY_KILLED = "enemy_killed"
    #: The wave clock reaches a moment (blood_vial: `seconds` into the wave).
    WAVE_TIME = "wave_time"
    #: The player's HP falls to a share of max HP (meat_on_bone: `threshold`, once a wave).
    HP_LOW = "hp_low"


class RelicEffect(StrEnum):
    """What a relic does, for the effects the game runs (`artificer.game.relics`); each belongs to
    one hook (`EFFECT_HOOKS`). The effects the core runs are its relic rules (`CORE_RULES`)."""

    #: passive: max HP + value (iron_heart, strawberry).
    MAX_HP = "max_hp"
    #: passive: mana regen + value per second (energy_core).
    MANA_REGEN = "mana_regen"
    #: passive: heal value for every `every` kills (vampire_fang).
    HEAL_PER_KILLS = "heal_per_kills"
    #: passive: currency picked up × (1 + value) (golden_idol).
    CURRENCY_BONUS = "currency_bonus"
    #: passive: the potion belt holds value slots (potion_belt).
    POTION_SLOTS = "potion_slots"
    #: wave_start: + value permanent strength, each wave (vajra).
    STRENGTH = "strength"
    #: wave_start: value ward (anchor).
    WARD = "ward"


class Combine(StrEnum):
    """How the values of several owned relics of one core rule make the one the core runs."""

    SUM = "sum"
    #: the smallest (pen_nib: the shortest period wins)
    MIN = "min"
    #: the largest (the_boot: the highest floor wins)
    MAX = "max"


@dataclass(frozen=True)
class CoreParam:
    """A core rule's parameter: a second number it acts with (blood_vial's moment, meat_on_bone's
    threshold), set from the relic's own field of that name."""

    #: The `RelicRules` keyword (the rule's name and the field's).
    name: str
    #: The relics.json field of the relic that sets it ("seconds", "threshold").
    field: str
    most: float
    #: How the parameters of several relics of the rule combine (their values combine as the rule says).
    combine: Combine


@dataclass(frozen=True)
class CoreRule:
    """A relic rule the core runs (rust/sim/relics.rs `relic_rules!`, `_core.RELIC_RULE_SPECS`): a
    relic whose `effect` is the rule's name sets it. The core declares each rule once — its hook,
    whether its value is a whole number, the most it takes, how relics of it combine, its parameter
    and the RELIC event it reports —, so a new rule needs no line here."""

    name: str
    hook: RelicHook
    whole: bool
    most: float
    combine: Combine
    #: The RELIC event's `a` when the rule acts (`_core.RELIC_RULES`).
    event: int
    #: Its parameter, if it has one.
    param: CoreParam | None = None


def _core_rule(name: str, spec: _core._RelicRuleSpec) -> CoreRule:
    param = spec["param"]
    return CoreRule(
        name,
        RelicHook(spec["hook"]),
        spec["whole"],
        spec["most"],
        Combine(spec["combine"]),
        spec["event"],
        None if param is None else CoreParam(param["name"], param["field"], param["most"], Combine(param["combine"])),
    )


#: The core's relic rules by name (= the relics.json effect that sets each), in the core's order.
CORE_RULES: Mapping[str, CoreRule] = {name: _core_rule(name, spec) for name, spec in _core.RELIC_RULE_SPECS.items()}

#: Every effect relics.json may name: the game's, then the core's rules.
EFFECTS: tuple[str, ...] = (*RelicEffect, *CORE_RULES)

EFFECT_HOOKS: Mapping[str, RelicHook] = {
    RelicEffect.MAX_HP: RelicHook.PASSIVE,
    RelicEffect.MANA_REGEN: RelicHook.PASSIVE,
    RelicEffect.HEAL_PER_KILLS: RelicHook.PASSIVE,
    RelicEffect.CURRENCY_BONUS: RelicHook.PASSIVE,
    RelicEffect.POTION_SLOTS: RelicHook.PASSIVE,
    RelicEffect.STRENGTH: RelicHook.WAVE_START,
    RelicEffect.WARD: RelicHook.WAVE_START,
    **{name: rule.hook for name, rule in CORE_RULES.items()},
}

#: The largest value of any relic (HP, ward, strength, a period...): far inside the core's f32.
MAX_RELIC_VALUE = 100_000.0
#: R-POT-2: the most belt slots potion_slots may give (the HUD shows this many; potions.json's HUD_SLOTS).
MAX_POTION_SLOTS = 5
#: currency_bonus: the most extra share of the currency picked up (+1000%).
MAX_CURRENCY_BONUS = 10.0
#: The latest moment of a wave a relic may name (an hour of wave time; the core takes more).
MAX_RELIC_SECONDS = 3_600.0

#: Effects whose value counts something, so it must be a whole number ≥ 1.
WHOLE_EFFECTS = frozenset({RelicEffect.POTION_SLOTS, *(name for name, rule in CORE_RULES.items() if rule.whole)})


def _known_effect(effect: str) -> str:
    if effect not in EFFECT_HOOKS:
        raise ValueError(f'unknown effect "{effect}"{did_you_mean(effect, EFFECTS)} (one of: {", ".join(EFFECTS)})')
    return effect


class Relic(ContentModel):
    """One relic of relics.json (R-REL-1)."""

    name_key: I18nKey = Field(description="i18n key of the relic's name.")
    description_key: I18nKey = Field(description="i18n key of what the relic does, shown in its tooltip (R-REL-4).")
    hook: RelicHook = Field(
        description="When it acts: wave_start, player_damaged, attack_calc, passive, enemy_killed, wave_time or hp_low."
    )
    effect: Annotated[str, AfterValidator(_known_effect)] = Field(
        json_schema_extra={"enum": list(EFFECTS)},
        description="What it does: a RelicEffect the game runs, or a relic rule of the core (CORE_RULES); "
        "must belong to `hook`.",
    )
    value: float = Field(
        ge=0, le=MAX_RELIC_VALUE, description="The effect's number (HP, ward, strength, a share, a period…)."
    )
    every: int = Field(
        default=0, ge=0, le=100_000, description="heal_per_kills: heal `value` for every this many kills."
    )
    threshold: float = Field(
        default=0.0,
        ge=0,
        le=1,
        description="heal_when_low: heal when HP falls to ≤ this share of max HP (once a wave).",
    )
    seconds: float = Field(
        default=0.0,
        ge=0,
        le=MAX_RELIC_SECONDS,
        description="heal_at_wave_time: heal this many seconds into each wave (the wave clock).",
    )
    icon: str = Field(
        pattern=ID_PATTERN, description="The name of its icon, drawn by the game (artificer.ui.icons_relics)."
    )


class RelicBook(ContentModel):
    """relics.json: the relics by id, the run's start relics, the acquisition pool and prices (R-REL-3)."""

    start: tuple[str, ...] = Field(description="Relics every run starts with (R-REL-1: iron_heart).")
    pool: tuple[str, ...] = Field(
        min_length=1, description="Relics that waves and the shop draw from (only unowned ones)."
    )
    shop_price: int = Field(ge=0, le=MAX_GOLD, description="R-SHOP-1: the gold price of the shop's relic.")
    all_owned_currency: int = Field(
        ge=0, le=MAX_GOLD, description="R-REL-3: gold given instead of a relic when the pool holds none unowned."
    )
    boss_bonus_relics: int = Field(
        ge=0, le=16, description="R-REL-3: relics a boss wave gives besides an elite wave's one."
    )
    relics: dict[str, Relic] = Field(min_length=1, max_length=1_000, description="Every relic, by id.")

    def relic(self, relic_id: str) -> Relic:
        """The relic with this id (a KeyError naming the file otherwise)."""
        try:
            return self.relics[relic_id]
        except KeyError:
            raise KeyError(f"no relic {relic_id!r} in {RELICS_FILE}") from None


def check_relics(book: RelicBook, texts: Mapping[str, str] | None) -> list[Problem]:
    """Cross-entry checks of relics.json: ids, hooks, icons and texts (one `Problem` each).
    Duplicate ids are duplicate JSON keys, which the loader reports."""
    problems: list[Problem] = []
    ids = sorted(book.relics)
    icons: dict[str, str] = {}
    for relic_id, relic in book.relics.items():
        where = f"$.relics.{relic_id}"
        if not _is_id(relic_id):
            problems.append(Problem(RELICS_FILE, where, f'relic id "{relic_id}" must be lowercase snake case'))
        expected = EFFECT_HOOKS[relic.effect]
        if relic.hook != expected:
            reason = f'effect "{relic.effect}" acts on hook "{expected}", not "{relic.hook}"'
            problems.append(Problem(RELICS_FILE, f"{where}.hook", reason))
        if relic.effect in WHOLE_EFFECTS and (relic.value < 1 or relic.value != int(relic.value)):
            problems.append(
                Problem(
                    RELICS_FILE,
                    f"{where}.value",
                    f'effect "{relic.effect}" needs a whole number ≥ 1, got {relic.value:g}',
                )
            )
        rule = CORE_RULES.get(relic.effect)
        if rule is not None and relic.value > rule.most:
            reason = f"the core's rule {rule.name} takes at most {rule.most:g}, got {relic.value:g}"
            problems.append(Problem(RELICS_FILE, f"{where}.value", reason))
        if relic.effect == RelicEffect.POTION_SLOTS and relic.value > MAX_POTION_SLOTS:
            problems.append(
                Problem(
                    RELICS_FILE,
                    f"{where}.value",
                    f"potion_slots gives at most {MAX_POTION_SLOTS} belt slots (the HUD shows {MAX_POTION_SLOTS}), got {relic.value:g}",
                )
            )
        if relic.effect == RelicEffect.CURRENCY_BONUS and relic.value > MAX_CURRENCY_BONUS:
            problems.append(
                Problem(
                    RELICS_FILE,
                    f"{where}.value",
                    f"currency_bonus adds at most {MAX_CURRENCY_BONUS:g} (+{MAX_CURRENCY_BONUS * 100:g}%), got {relic.value:g}",
                )
            )
        if relic.effect == RelicEffect.HEAL_PER_KILLS and relic.every < 1:
            problems.append(Problem(RELICS_FILE, f"{where}.every", "heal_per_kills needs every ≥ 1 (kills per heal)"))
        if rule is not None and rule.param is not None:
            field = rule.param.field
            number = getattr(relic, field)
            if number <= 0:
                problems.append(Problem(RELICS_FILE, f"{where}.{field}", f"{relic.effect} needs {field} above 0"))
            elif number > rule.param.most:
                reason = f"the core's rule {rule.name} takes {field} of at most {rule.param.most:g}, got {number:g}"
                problems.append(Problem(RELICS_FILE, f"{where}.{field}", reason))
        if relic.icon in icons:
            problems.append(
                Problem(
                    RELICS_FILE, f"{where}.icon", f'icon "{relic.icon}" is already the icon of "{icons[relic.icon]}"'
                )
            )
        else:
            icons[relic.icon] = relic_id
        if texts is not None:
            for field in ("name_key", "description_key"):
                key = getattr(relic, field)
                if key not in texts:
                    problems.append(
                        Problem(RELICS_FILE, f"{where}.{field}", f'no text for "{key}" in i18n/en.json (R-I18N-1)')
                    )
    for list_name in ("start", "pool"):
        seen: set[str] = set()
        for index, relic_id in enumerate(getattr(book, list_name)):
            path = f"$.{list_name}[{index}]"
            if relic_id not in book.relics:
                problems.append(Problem(RELICS_FILE, path, f'unknown relic "{relic_id}"{did_you_mean(relic_id, ids)}'))
            elif relic_id in seen:
                problems.append(Problem(RELICS_FILE, path, f'relic "{relic_id}" is listed twice'))
            seen.add(relic_id)
    for index, relic_id in enumerate(book.pool):
        if relic_id in book.start:
            problems.append(Problem(RELICS_FILE, f"$.pool[{index}]", f'start relic "{relic_id}" cannot be drawn again'))
    return problems


def _is_id(text: str) -> bool:
    return re.fullmatch(ID_PATTERN, text) is not None
