"""Bosses (R-BOSS-1, R-BOSS-2): the schema of `data/bosses/<boss_id>.json` and its checks.

This module owns what one well-formed boss file looks like — seed 001 §4.5's
schema in this game's words: the boss's id (the file's stem), its i18n name
and description keys, the wave it ends, its body and its shots, the seconds
after which it hyper-enrages (so a run always ends, R-WAVE-1) and that
block's multipliers, the wind-up of its volleys (`telegraph`, R-BOSS-3), its phases (switched by HP thresholds, phase 1 first)
and an optional `ng_plus_phase` (NG+ only, R-LOOP-1). A phase picks its
behaviours from a fixed vocabulary (`BossTag`); each tag needs its own
parameters (`TAG_PARAMETERS`), which the phase carries beside the tags, as
the seed writes them (`"projectile_pattern": "spread_8"`).

The models check each value's range; `check_bosses` checks what spans
fields and files (one `Problem` each): the id against the file's name, the
phase numbers and the threshold chain, tags against their parameters, the
adds' enemy, the texts, the look, and the bosses against waves.json's boss
waves. What the boss does in a wave is the core's (its boss component).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, field_validator

from artificer.content.models import (
    ID_PATTERN,
    MAX_DAMAGE,
    MAX_ENEMY_RADIUS,
    MAX_HP,
    MAX_SECONDS,
    MAX_SPEED,
    WAVE_COUNT,
    ContentModel,
    Element,
    Gold,
    Problem,
    Resistance,
    WaveSchedule,
    did_you_mean,
)
from artificer.content.recipes import I18nKey

#: The folder of the boss files, one `<boss_id>.json` a boss.
BOSSES_DIR = "bosses"
#: `ng_plus_phase.unlock_condition`: the one condition there is, a run in NG+ (R-LOOP-1).
NG_PLUS = "ng_plus"

#: Seconds between two of a pattern's volleys (spread, barrage, burst, adds): 0.1..60.
Interval = Annotated[float, Field(ge=0.1, le=60)]
#: A phase's speed or damage multiplier: 0.1..10 (1 = unchanged).
Multiplier = Annotated[float, Field(ge=0.1, le=10)]
#: A share of the boss's maximum HP, 0..1.
HpShare = Annotated[float, Field(ge=0, le=1)]
#: R-BOSS-3: seconds of a volley's wind-up, from half a second (a player can dodge it) to three
#: (longer reads as no attack at all); the core holds the same range (rust/sim/boss.rs).
MIN_TELEGRAPH = 0.5
MAX_TELEGRAPH = 3.0

#: `projectile_pattern`: "spread_N", N shots in an even ring, N 3..64.
SPREAD_PATTERN = re.compile(r"^spread_([0-9]+)$")
MIN_SPREAD = 3
MAX_SPREAD = 64


def boss_file(boss_id: str) -> str:
    """The file a boss is in, as problems name it: "bosses/void_lord.json"."""
    return f"{BOSSES_DIR}/{boss_id}.json"


class BossTag(StrEnum):
    """R-BOSS-1's fixed vocabulary of behaviours a phase picks (`behavior_tags`). A tag's
    parameters are in `TAG_PARAMETERS`."""

    #: It stays where it is (exactly one of stationary and chase_player per phase).
    STATIONARY = "stationary"
    #: It walks at the player.
    CHASE_PLAYER = "chase_player"
    #: A ring of `projectile_pattern` shots every `spread_interval` s.
    SPREAD_PROJECTILES = "spread_projectiles"
    #: `barrage_shots` aimed shots fanned over `barrage_spread_degrees` every `barrage_interval` s.
    BARRAGE_MODE = "barrage_mode"
    #: A ring of `burst_count` shots over the whole screen every `burst_interval` s.
    FULLSCREEN_BURST = "fullscreen_burst"
    #: Faster or harder hitting: the phase's speed_multiplier or damage_multiplier is above 1.
    ENRAGE = "enrage"
    #: Physical non-piercing shots hitting its front (`reflect_arc`) come back (R-BOSS-2 Mirror Mage).
    FRONTAL_REFLECTION = "frontal_reflection"
    #: `plates` plates of `plate_armor` armor each; a hit of `weak_element` strips one (Armor Lord).
    ARMOR_PLATES = "armor_plates"
    #: `add_count` enemies of `add_enemy` every `add_interval` s; they die with it.
    SUMMON_ADDS = "summon_adds"
    #: At 0 HP: `invincible_duration` s invulnerable, then back to `hp_restore_ratio` (ng_plus_phase only).
    LAST_WILL = "last_will"
    #: `clone_count` clones of `clone_hp_ratio` of its maximum HP; they die with it.
    CLONE_SUMMON = "clone_summon"
    #: The boss's `hyper_enrage` multipliers apply from the phase's start.
    HYPER_ENRAGE = "hyper_enrage"


#: The parameters each tag needs, all of them; a parameter set without its tag is a problem.
TAG_PARAMETERS: Mapping[BossTag, tuple[str, ...]] = {
    BossTag.STATIONARY: (),
    BossTag.CHASE_PLAYER: (),
    BossTag.SPREAD_PROJECTILES: ("projectile_pattern", "spread_interval"),
    BossTag.BARRAGE_MODE: ("barrage_interval", "barrage_shots", "barrage_spread_degrees"),
    BossTag.FULLSCREEN_BURST: ("burst_interval", "burst_count"),
    BossTag.ENRAGE: (),
    BossTag.FRONTAL_REFLECTION: ("reflect_arc", "reflect_damage"),
    BossTag.ARMOR_PLATES: ("plates", "plate_armor", "weak_element"),
    BossTag.SUMMON_ADDS: ("add_enemy", "add_count", "add_interval"),
    BossTag.LAST_WILL: ("invincible_duration", "hp_restore_ratio"),
    BossTag.CLONE_SUMMON: ("clone_count", "clone_hp_ratio"),
    BossTag.HYPER_ENRAGE: (),
}
#: The tag each parameter belongs to.
PARAMETER_TAGS: Mapping[str, BossTag] = {name: tag for tag, names in TAG_PARAMETERS.items() for name in names}
#: A phase moves in exactly one of these ways.
MOVEMENT_TAGS = (BossTag.STATIONARY, BossTag.CHASE_PLAYER)


class BossBody(ContentModel):
    """The boss as an enemy: what the core's enemy row holds."""

    hp: float = Field(gt=0, le=MAX_HP, description="Maximum hit points.")
    speed: float = Field(ge=0, le=MAX_SPEED, description="Walking speed in px/s (chase_player phases).")
    radius: float = Field(gt=0, le=MAX_ENEMY_RADIUS, description="Collision radius in px.")
    contact_damage: float = Field(ge=0, le=MAX_DAMAGE, description="Damage dealt to the player on touch.")
    armor: float = Field(ge=0, le=MAX_DAMAGE, description="Flat damage subtracted from every hit (R-DMG-1).")
    reward: Gold = Field(description="Gold dropped on death.")


class BossShot(ContentModel):
    """The boss's projectiles (every pattern's), fired through the enemies' shot path."""

    speed: float = Field(gt=0, le=MAX_SPEED, description="Shot speed in px/s.")
    damage: float = Field(ge=0, le=MAX_DAMAGE, description="Shot damage to the player (before the player's armor).")
    radius: float = Field(gt=0, le=MAX_ENEMY_RADIUS, description="Shot radius in px.")
    lifetime: float = Field(gt=0, le=MAX_SECONDS, description="Seconds a shot flies.")


class HyperEnrage(ContentModel):
    """R-WAVE-1: what `enrage_after` (and a hyper_enrage phase) does to the boss."""

    speed_multiplier: float = Field(ge=1, le=10, description="Its speed × this (1..10).")
    damage_multiplier: float = Field(ge=1, le=10, description="Its contact and shot damage × this (1..10).")
    interval_multiplier: float = Field(
        ge=0.1, le=1, description="Every pattern's interval × this (0.1..1: patterns come faster)."
    )
    chase_player: bool = Field(
        description="Hyper-enraged, it walks at the player even in a stationary phase (a fight always comes to you)."
    )


class BossPhase(ContentModel):
    """One phase (seed 001 §4.5): from `hp_threshold_enter` down to `hp_threshold_exit` of the
    boss's maximum HP, its resistances and behaviours. A parameter is set only with its tag."""

    phase: int = Field(ge=1, le=16, description="The phase's number: 1, 2, 3… in file order.")
    hp_threshold_enter: HpShare = Field(description="The phase begins at this share of maximum HP (0..1).")
    hp_threshold_exit: float = Field(
        ge=-1,
        le=1,
        description="The phase ends at this share of maximum HP, below enter; the next phase's enter, "
        "0 for the last phase, below 0 for ng_plus_phase (-1..1).",
    )
    resistances: dict[Element, Resistance] = Field(
        default_factory=dict, description="Resistance per element, 0 (none) to 1 (immune); a missing element: 0."
    )
    regen_on_physical_hit: float = Field(
        default=0.0, ge=0, le=0.1, description="Share of maximum HP healed by each physical hit (0..0.1)."
    )
    regen_hit_cap: float | None = Field(
        default=None,
        ge=0,
        le=10,
        description="A physical hit heals at most this × the damage it dealt (none: the whole share, whatever "
        "the hit). Below 1, physical builds grind slower but never backwards (seed 001 §4.5's intent).",
    )
    behavior_tags: tuple[BossTag, ...] = Field(
        min_length=1, max_length=len(BossTag), description="Its behaviours (BossTag), each at most once."
    )
    speed_multiplier: Multiplier = Field(default=1.0, description="Its speed × this in the phase (0.1..10).")
    damage_multiplier: Multiplier = Field(default=1.0, description="Its damage × this in the phase (0.1..10).")
    projectile_pattern: str | None = Field(
        default=None,
        pattern=r"^spread_[0-9]+$",
        description=f'spread_projectiles: "spread_N", N shots in a ring ({MIN_SPREAD}..{MAX_SPREAD}).',
    )
    spread_interval: Interval | None = Field(default=None, description="spread_projectiles: s between rings.")
    barrage_interval: Interval | None = Field(default=None, description="barrage_mode: s between barrages.")
    barrage_shots: int | None = Field(default=None, ge=1, le=32, description="barrage_mode: shots a barrage (1..32).")
    barrage_spread_degrees: float | None = Field(
        default=None,
        ge=0,
        le=180,
        description="barrage_mode: the fan's width in degrees, aimed at the player (0..180).",
    )
    burst_interval: Interval | None = Field(default=None, description="fullscreen_burst: s between bursts.")
    burst_count: int | None = Field(default=None, ge=8, le=128, description="fullscreen_burst: shots a burst (8..128).")
    reflect_arc: float | None = Field(
        default=None,
        ge=10,
        le=360,
        description="frontal_reflection: the front's width in degrees, centred on the player (10..360).",
    )
    reflect_damage: float | None = Field(
        default=None, ge=0, le=2, description="frontal_reflection: a reflected shot's damage, share of the original's."
    )
    plates: int | None = Field(default=None, ge=1, le=64, description="armor_plates: plates worn as the phase begins.")
    plate_armor: float | None = Field(
        default=None, gt=0, le=MAX_DAMAGE, description="armor_plates: flat armor each plate adds (R-DMG-1)."
    )
    weak_element: Element | None = Field(
        default=None, description="armor_plates: a hit of this element strips a plate."
    )
    add_enemy: str | None = Field(
        default=None, pattern=ID_PATTERN, description="summon_adds: the adds' enemy id in enemies.json."
    )
    add_count: int | None = Field(default=None, ge=1, le=32, description="summon_adds: adds a summon (1..32).")
    add_interval: Interval | None = Field(default=None, description="summon_adds: s between summons.")
    invincible_duration: Interval | None = Field(
        default=None, description="last_will: s it cannot be hurt after reaching 0 HP."
    )
    hp_restore_ratio: float | None = Field(
        default=None, gt=0, le=1, description="last_will: share of maximum HP it comes back with (0..1)."
    )
    clone_count: int | None = Field(default=None, ge=1, le=8, description="clone_summon: clones (1..8).")
    clone_hp_ratio: float | None = Field(
        default=None, gt=0, le=1, description="clone_summon: a clone's maximum HP, share of the boss's (0..1)."
    )
    note: str | None = Field(default=None, max_length=2_000, description="Free text for designers (ignored).")

    @field_validator("behavior_tags")
    @classmethod
    def _each_tag_once(cls, tags: tuple[BossTag, ...]) -> tuple[BossTag, ...]:
        repeated = sorted({tag.value for tag in tags if tags.count(tag) > 1})
        if repeated:
            raise ValueError(f"lists {', '.join(repeated)} more than once")
        return tags

    @field_validator("weak_element", mode="before")
    @classmethod
    def _known_element(cls, element: object) -> object:
        names = [known.value for known in Element]
        if isinstance(element, str) and element not in names:
            raise ValueError(f'unknown element "{element}"{did_you_mean(element, names)} (one of: {", ".join(names)})')
        return element

    @field_validator("projectile_pattern")
    @classmethod
    def _spread_in_range(cls, pattern: str | None) -> str | None:
        if pattern is not None:
            count = spread_count(pattern)
            if not MIN_SPREAD <= count <= MAX_SPREAD:
                raise ValueError(f"spread_N takes N from {MIN_SPREAD} to {MAX_SPREAD}, got {pattern}")
        return pattern

    @property
    def spread_shots(self) -> int | None:
        """The N of `projectile_pattern` "spread_N" (None without one)."""
        return None if self.projectile_pattern is None else spread_count(self.projectile_pattern)


def spread_count(pattern: str) -> int:
    """The N of "spread_N"."""
    match = SPREAD_PATTERN.fullmatch(pattern)
    if match is None:
        raise ValueError(f'a projectile pattern is "spread_N", got "{pattern}"')
    return int(match.group(1))


class NgPlusPhase(BossPhase):
    """The phase a boss gains in NG+ (R-BOSS-2 "Last Will"): entered at 0 HP, so its thresholds
    read past death (seed: enter 0, exit -0.3)."""

    unlock_condition: Literal["ng_plus"] = Field(description='When it is played: "ng_plus" (R-LOOP-1).')


class Boss(ContentModel):
    """One boss file (R-BOSS-1, seed 001 §4.5)."""

    boss_id: str = Field(pattern=ID_PATTERN, description="Its id: the file's name without .json.")
    name_key: I18nKey = Field(description='i18n key of its name, e.g. "boss.void_lord.name".')
    description_key: I18nKey = Field(description="i18n key of its one line for the codex and the banner.")
    wave: int = Field(ge=1, le=WAVE_COUNT, description="The wave it ends: a waves.json wave whose boss is true.")
    body: BossBody = Field(description="HP, speed, size, contact damage, armor, reward.")
    shot: BossShot = Field(description="Its projectiles.")
    enrage_after: float = Field(
        gt=0, le=MAX_SECONDS, description="Seconds of the boss fight after which it hyper-enrages (R-WAVE-1)."
    )
    hyper_enrage: HyperEnrage = Field(description="What hyper-enraging multiplies.")
    telegraph: float = Field(
        ge=MIN_TELEGRAPH,
        le=MAX_TELEGRAPH,
        description=f"R-BOSS-3: seconds every volley (spread, barrage, burst) is wound up before it fires — a "
        f"marker the player can read and dodge; a barrage's aim is locked as it winds up ({MIN_TELEGRAPH:g}.."
        f"{MAX_TELEGRAPH:g}; enrage never shortens it).",
    )
    phases: tuple[BossPhase, ...] = Field(
        min_length=1, max_length=16, description="Its phases, phase 1 (entered at full HP) first."
    )
    ng_plus_phase: NgPlusPhase | None = Field(default=None, description="The phase it gains in NG+ (optional).")

    @field_validator("telegraph", mode="before")
    @classmethod
    def _dodgeable(cls, seconds: object) -> object:
        # Said in the rule's words before pydantic's range check says "greater than or equal to".
        if isinstance(seconds, int | float) and not isinstance(seconds, bool):
            if not MIN_TELEGRAPH <= seconds <= MAX_TELEGRAPH:
                raise ValueError(
                    f"a volley's wind-up lasts {MIN_TELEGRAPH:g} to {MAX_TELEGRAPH:g} s — at least {MIN_TELEGRAPH:g} s "
                    f"so a player can read and dodge it (R-BOSS-3), got {seconds:g}"
                )
        return seconds

    def all_phases(self, ng_plus: bool) -> tuple[BossPhase, ...]:
        """The phases a fight plays: `phases`, and `ng_plus_phase` in NG+."""
        if ng_plus and self.ng_plus_phase is not None:
            return (*self.phases, self.ng_plus_phase)
        return self.phases


@dataclass(frozen=True)
class BossBook:
    """Every boss file of `bosses/`, by boss id in id order."""

    bosses: Mapping[str, Boss]

    def boss(self, boss_id: str) -> Boss:
        """The boss with this id (a KeyError naming its file otherwise)."""
        try:
            return self.bosses[boss_id]
        except KeyError:
            raise KeyError(f"no boss {boss_id!r} ({boss_file(boss_id)})") from None

    def for_wave(self, number: int) -> tuple[Boss, ...]:
        """The bosses that may end wave `number`, in boss_id order (W10 has two: the seed picks one)."""
        return tuple(boss for boss in self.bosses.values() if boss.wave == number)


# --- checks across fields and files ------------------------------------------------------


def check_bosses(
    bosses: Mapping[str, Boss],
    *,
    schedule: WaveSchedule | None,
    enemy_ids: Sequence[str] | None,
    texts: Mapping[str, str] | None,
    look_ids: Collection[str] | None,
    every_file_loaded: bool,
) -> list[Problem]:
    """One `Problem` per thing wrong across a boss's fields or with another file. `bosses` maps
    each loaded file's stem to its boss; `None` for a file that did not load skips its checks;
    `schedule` is given only when waves.json is whole (20 waves numbered in order), and
    `every_file_loaded` says whether a boss wave without a boss is really without one."""
    problems: list[Problem] = []
    for stem, boss in bosses.items():
        problems.extend(_check_boss(stem, boss, enemy_ids, texts, look_ids))
    if schedule is not None:
        problems.extend(_check_boss_waves(bosses, schedule, every_file_loaded))
    return problems


def _check_boss(
    stem: str,
    boss: Boss,
    enemy_ids: Sequence[str] | None,
    texts: Mapping[str, str] | None,
    look_ids: Collection[str] | None,
) -> list[Problem]:
    file = boss_file(stem)
    problems: list[Problem] = []
    if boss.boss_id != stem:
        reason = f'must be the file\'s name without .json ("{stem}"), got "{boss.boss_id}"'
        problems.append(Problem(file, "$.boss_id", reason))
    if enemy_ids is not None and boss.boss_id in enemy_ids:
        reason = f'"{boss.boss_id}" is already an enemy of enemies.json (bosses and enemies share their ids and looks)'
        problems.append(Problem(file, "$.boss_id", reason))
    problems.extend(_check_chain(file, boss))
    for index, phase in enumerate(boss.phases):
        problems.extend(_check_phase(file, f"$.phases[{index}]", phase, enemy_ids, ng_plus=False))
    if boss.ng_plus_phase is not None:
        problems.extend(_check_phase(file, "$.ng_plus_phase", boss.ng_plus_phase, enemy_ids, ng_plus=True))
    if texts is not None:
        for field in ("name_key", "description_key"):
            key = getattr(boss, field)
            if key not in texts:
                problems.append(Problem(file, f"$.{field}", f'no text for "{key}" in i18n/en.json (R-I18N-1)'))
    if look_ids is not None and stem not in look_ids:
        reason = f'no look for boss "{stem}" in looks.json $.enemies (every boss needs one)'
        problems.append(Problem(file, "$.boss_id", reason))
    return problems


def _check_chain(file: str, boss: Boss) -> list[Problem]:
    """Phases numbered 1, 2, 3… in order; phase 1 enters at 1.0, each exits below its enter and
    where the next enters, the last at 0.0; ng_plus_phase is the next number, enters at 0.0 and
    exits below 0."""
    problems: list[Problem] = []
    phases = boss.phases
    for index, phase in enumerate(phases):
        where = f"$.phases[{index}]"
        if phase.phase != index + 1:
            problems.append(Problem(file, f"{where}.phase", f"must be {index + 1} (phases are numbered in order)"))
        if phase.hp_threshold_exit >= phase.hp_threshold_enter:
            reason = f"must be below hp_threshold_enter ({phase.hp_threshold_enter:g}), got {phase.hp_threshold_exit:g}"
            problems.append(Problem(file, f"{where}.hp_threshold_exit", reason))
        if index + 1 < len(phases) and phase.hp_threshold_exit != phases[index + 1].hp_threshold_enter:
            following = phases[index + 1].hp_threshold_enter
            reason = f"must be where phase {index + 2} enters ({following:g}), got {phase.hp_threshold_exit:g}"
            problems.append(Problem(file, f"{where}.hp_threshold_exit", reason))
    if phases[0].hp_threshold_enter != 1.0:
        reason = f"phase 1 enters at full HP: must be 1.0, got {phases[0].hp_threshold_enter:g}"
        problems.append(Problem(file, "$.phases[0].hp_threshold_enter", reason))
    if phases[-1].hp_threshold_exit != 0.0:
        reason = f"the last phase ends at 0 HP: must be 0.0, got {phases[-1].hp_threshold_exit:g}"
        problems.append(Problem(file, f"$.phases[{len(phases) - 1}].hp_threshold_exit", reason))
    extra = boss.ng_plus_phase
    if extra is not None:
        if extra.phase != len(phases) + 1:
            reason = f"must be {len(phases) + 1} (the number after the last phase)"
            problems.append(Problem(file, "$.ng_plus_phase.phase", reason))
        if extra.hp_threshold_enter != 0.0:
            reason = f"ng_plus_phase begins at 0 HP: must be 0.0, got {extra.hp_threshold_enter:g}"
            problems.append(Problem(file, "$.ng_plus_phase.hp_threshold_enter", reason))
        if extra.hp_threshold_exit >= 0.0:
            reason = f"ng_plus_phase ends past death: must be below 0 (seed: -0.3), got {extra.hp_threshold_exit:g}"
            problems.append(Problem(file, "$.ng_plus_phase.hp_threshold_exit", reason))
    return problems


def _check_phase(
    file: str, where: str, phase: BossPhase, enemy_ids: Sequence[str] | None, *, ng_plus: bool
) -> list[Problem]:
    """A phase's tags against its parameters: one way to move, each tag's parameters present,
    no parameter without its tag, enrage above 1, last_will only in ng_plus_phase, a known add."""
    problems: list[Problem] = []
    tags = set(phase.behavior_tags)
    moves = [tag.value for tag in MOVEMENT_TAGS if tag in tags]
    if len(moves) != 1:
        found = f"it has {' and '.join(moves)}" if moves else "it has neither"
        reason = f"needs exactly one of stationary and chase_player ({found})"
        problems.append(Problem(file, f"{where}.behavior_tags", reason))
    for tag in phase.behavior_tags:
        missing = [name for name in TAG_PARAMETERS[tag] if getattr(phase, name) is None]
        if missing:
            reason = f'tag "{tag}" needs {", ".join(TAG_PARAMETERS[tag])} (missing: {", ".join(missing)})'
            problems.append(Problem(file, f"{where}.behavior_tags", reason))
    for name, tag in PARAMETER_TAGS.items():
        if getattr(phase, name) is not None and tag not in tags:
            reason = f'{name} is a parameter of the tag "{tag}", which this phase does not have'
            problems.append(Problem(file, f"{where}.{name}", reason))
    if BossTag.ENRAGE in tags and phase.speed_multiplier <= 1 and phase.damage_multiplier <= 1:
        reason = 'tag "enrage" needs speed_multiplier or damage_multiplier above 1'
        problems.append(Problem(file, f"{where}.behavior_tags", reason))
    if BossTag.LAST_WILL in tags and not ng_plus:
        reason = 'tag "last_will" belongs to ng_plus_phase only (R-BOSS-2: Last Will is NG+)'
        problems.append(Problem(file, f"{where}.behavior_tags", reason))
    if enemy_ids is not None and phase.add_enemy is not None and phase.add_enemy not in enemy_ids:
        reason = f'unknown enemy "{phase.add_enemy}" (not in enemies.json){did_you_mean(phase.add_enemy, enemy_ids)}'
        problems.append(Problem(file, f"{where}.add_enemy", reason))
    return problems


def _check_boss_waves(bosses: Mapping[str, Boss], schedule: WaveSchedule, every_file_loaded: bool) -> list[Problem]:
    """A boss ends a boss wave, and every boss wave has a boss (R-BOSS-2).

    The first holds once waves.json marks boss waves at all: today it marks none, because the
    runtime does not spawn bosses yet and a `boss: true` changes R-REL-3's rewards (the goldens);
    until the boss waves are marked, a boss may name any wave."""
    problems: list[Problem] = []
    boss_waves = [wave.wave for wave in schedule.waves if wave.boss]
    if boss_waves:
        for stem, boss in bosses.items():
            if boss.wave not in boss_waves:
                marked = ", ".join(map(str, boss_waves))
                reason = f"wave {boss.wave} is not a boss wave in waves.json (boss waves: {marked})"
                problems.append(Problem(boss_file(stem), "$.wave", reason))
    if every_file_loaded:
        named = {boss.wave for boss in bosses.values()}
        for index, wave in enumerate(schedule.waves):
            if wave.boss and wave.wave not in named:
                reason = f"wave {wave.wave} is a boss wave, but no file in {BOSSES_DIR}/ names it"
                problems.append(Problem("waves.json", f"$.waves[{index}].boss", reason))
    return problems
