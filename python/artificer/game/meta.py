"""meta.json: what outlives a run (R-SAVE-1, R-META-1/2, R-END-2, R-END-5, R-ONB-1/2), no pygame.

This module owns the player's progress across runs:
- aether, earned when a run ends (`Meta.after_run`: the highest wave threshold
  reached, each milestone the first time, the first clear, New Game+ clears
  decaying) and spent on the unlock tree (`unlock_tree`, `Meta.buy`); unlocks
  only widen the shop's pool (`Meta.shop_unlocks`), never a starting stat;
- the clears and the New Game+ levels a new run may choose (the first clear
  unlocks NG+ 1; clearing level N unlocks N + 1, up to balance.json
  `ng_plus.max_level`);
- the runs finished (onboarding's step, R-ONB-1), the milestones reached
  (practice mode starts there, R-END-5), the codex's discoveries and the
  achievements (R-META-2, `artificer.game.codex`), the tips already shown.

The file is in the user data dir, versioned by an integer (`META_VERSION`,
older versions migrated by `MIGRATIONS`), written atomically
(`storage.write_json_atomic`) together with a copy of the last good file
(`meta.json.bak`), and read by the one strict reader: a file that cannot be
used — unreadable, not JSON, of a version this game cannot read, out of range —
is set aside as `meta.json.corrupt`, and the progress comes back from the
backup (or, with no good backup, starts over), with a notice
(`MetaLoad.notice`), never a crash.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError

from artificer import storage
from artificer.content import Content
from artificer.content.models import ID_PATTERN, MAX_AETHER, MetaSettings

META_FILE = "meta.json"
#: The last good meta.json, written beside it after it (R-SAVE-1: one bad write never loses progress).
BACKUP_SUFFIX = ".bak"
META_VERSION = 2
#: The most clears, runs or NG+ clears the file counts (a range, not a goal).
MAX_COUNT = 1_000_000
#: The most aether the file holds.
MAX_HELD_AETHER = 100 * MAX_AETHER
#: The highest NG+ level any content may have (balance.json's max_level is at most this).
MAX_NG_PLUS = 10
#: The most ids one list of the file may hold (codex pages, unlocks, achievements, tips).
MAX_IDS = 2_000
#: The unlock tree's node for the cursed-waves challenge mode (balance.json `meta.cursed_waves`).
CURSED_WAVES = "cursed_waves"


def _v1_to_v2(value: dict[str, Any]) -> dict[str, Any]:
    """Version 1 held the clears and NG+ levels only (the boss issue). A file with a clear was made by
    a player who reached W20: their milestones are counted as paid and their onboarding as done (they
    know the game); aether starts at 0 (version 1 had none to carry)."""
    clears = value.get("clears", 0)
    played = type(clears) is int and clears > 0
    return {
        **value,
        "version": 2,
        "runs": clears if type(clears) is int else 0,
        "first_clear_paid": played,
        "milestones": [5, 10, 15] if played else [],
        "onboarding_done": played,
    }


#: Version → the function that turns a file of that version into the next one.
MIGRATIONS: Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}

Count = Annotated[int, Strict(), Field(ge=0, le=MAX_COUNT)]
Ids = Annotated[list[Annotated[str, Field(pattern=ID_PATTERN, max_length=64)]], Field(max_length=MAX_IDS)]


class Section(StrEnum):
    """The codex's sections (R-META-2): each a set of ids the player has met."""

    SPELLS = "spells"
    ENEMIES = "enemies"
    BOSSES = "bosses"
    RECIPES = "recipes"
    REACTIONS = "reactions"
    RELICS = "relics"
    POTIONS = "potions"


class CodexSave(BaseModel):
    """meta.json's `codex`: the ids met, per section."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    spells: Ids = []
    enemies: Ids = []
    bosses: Ids = []
    recipes: Ids = []
    reactions: Ids = []
    relics: Ids = []
    potions: Ids = []


class MetaSave(BaseModel):
    """meta.json, version 2."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    version: Annotated[int, Strict()] = Field(default=META_VERSION, ge=META_VERSION, le=META_VERSION)
    clears: Count = Field(default=0, description="R-END-2: W20 bosses felled.")
    ng_plus_unlocked: Annotated[int, Strict()] = Field(
        default=0, ge=0, le=MAX_NG_PLUS, description="R-END-2: the highest NG+ level a new run may choose (0: none)."
    )
    ng_plus_clears: Count = Field(default=0, description="R-END-2: NG+ clears paid (each pays less).")
    first_clear_paid: Annotated[bool, Strict()] = Field(default=False, description="R-END-2: the +30 was paid.")
    runs: Count = Field(default=0, description="R-ONB-1: runs finished (fallen or cleared).")
    onboarding_done: Annotated[bool, Strict()] = Field(
        default=False, description="R-ONB-1: onboarding skipped for good (a veteran's migrated file)."
    )
    aether: Annotated[int, Strict()] = Field(default=0, ge=0, le=MAX_HELD_AETHER, description="R-META-1: held.")
    aether_earned: Annotated[int, Strict()] = Field(default=0, ge=0, le=MAX_HELD_AETHER, description="Ever earned.")
    best_wave: Annotated[int, Strict()] = Field(default=0, ge=0, le=10_000, description="The highest wave reached.")
    milestones: list[Annotated[int, Strict(), Field(ge=1, le=10_000)]] = Field(
        default=[], max_length=100, description="R-END-5: the milestone waves paid (and practice unlocked)."
    )
    unlocked: Ids = Field(default=[], description="R-META-1: the unlock tree's nodes bought.")
    codex: CodexSave = Field(default=CodexSave(), description="R-META-2: what the player has met.")
    achievements: Ids = Field(default=[], description="R-META-2: achievements earned.")
    tips: Ids = Field(default=[], description="R-ONB-2: contextual tips already shown.")


@dataclass(frozen=True)
class Meta:
    """The progress across runs (immutable: every change makes a new one, saved whole)."""

    clears: int = 0
    ng_plus_unlocked: int = 0
    ng_plus_clears: int = 0
    first_clear_paid: bool = False
    runs: int = 0
    onboarding_done: bool = False
    aether: int = 0
    aether_earned: int = 0
    best_wave: int = 0
    milestones: frozenset[int] = frozenset()
    unlocked: frozenset[str] = frozenset()
    codex: Mapping[Section, frozenset[str]] = field(default_factory=dict)
    achievements: frozenset[str] = frozenset()
    tips: frozenset[str] = frozenset()

    # --- R-END-2 ----------------------------------------------------------------------------
    def cleared(self, ng_plus: int, max_level: int) -> Meta:
        """R-END-2: the progress after clearing the game at NG+ level `ng_plus`: one clear more, and
        the next level unlocked (up to `max_level`)."""
        unlocked = min(max_level, max(self.ng_plus_unlocked, ng_plus + 1))
        return dataclasses.replace(self, clears=min(MAX_COUNT, self.clears + 1), ng_plus_unlocked=unlocked)

    # --- R-META-1: aether and the unlock tree ------------------------------------------------
    def after_run(self, settings: MetaSettings, wave_reached: int, cleared: bool, ng_plus: int) -> tuple[Meta, Reward]:
        """The progress after a run that reached (began) `wave_reached` and, when `cleared`, won the
        last wave at NG+ level `ng_plus` (its clear is already counted by `cleared()`), and the aether
        it paid, line by line. One run more (R-ONB-1)."""
        reward = run_reward(settings, self, wave_reached, cleared, ng_plus)
        aether = min(MAX_HELD_AETHER, self.aether + reward.total)
        return (
            dataclasses.replace(
                self,
                runs=min(MAX_COUNT, self.runs + 1),
                aether=aether,
                aether_earned=min(MAX_HELD_AETHER, self.aether_earned + reward.total),
                best_wave=max(self.best_wave, min(wave_reached, 10_000)),
                milestones=self.milestones | frozenset(reward.milestones),
                first_clear_paid=self.first_clear_paid or (cleared and ng_plus == 0),
                ng_plus_clears=min(MAX_COUNT, self.ng_plus_clears + (1 if cleared and ng_plus > 0 else 0)),
            ),
            reward,
        )

    def can_buy(self, node: UnlockNode) -> bool:
        return node.id not in self.unlocked and self.aether >= node.cost

    def buy(self, node: UnlockNode) -> Meta:
        """R-META-1: `node` bought with aether. Raises `ValueError` when it is owned or unaffordable."""
        if node.id in self.unlocked:
            raise ValueError(f"{node.id} is already unlocked")
        if self.aether < node.cost:
            raise ValueError(f"{node.id} costs {node.cost} aether; {self.aether} held")
        return dataclasses.replace(self, aether=self.aether - node.cost, unlocked=self.unlocked | {node.id})

    def shop_unlocks(self) -> frozenset[str]:
        """The spell and core ids the shop may offer beyond the base pool (R-META-1)."""
        return self.unlocked - {CURSED_WAVES}

    # --- R-META-2, R-ONB-2 -------------------------------------------------------------------
    def seen(self, section: Section) -> frozenset[str]:
        return self.codex.get(section, frozenset())

    def discover(self, section: Section, ids: Iterable[str]) -> Meta:
        """The codex with `ids` met in `section` (the same Meta when nothing is new)."""
        new = frozenset(ids) - self.seen(section)
        if not new:
            return self
        return dataclasses.replace(self, codex={**self.codex, section: self.seen(section) | new})

    def with_achievements(self, ids: Iterable[str]) -> Meta:
        new = frozenset(ids) - self.achievements
        return dataclasses.replace(self, achievements=self.achievements | new) if new else self

    def tip_shown(self, tip: str) -> Meta:
        return self if tip in self.tips else dataclasses.replace(self, tips=self.tips | {tip})

    def practice_waves(self, milestone_waves: Iterable[int]) -> list[int]:
        """R-END-5: the waves practice mode may start at: the content's milestones (`milestone_waves`)
        reached (a wave the file names that is no milestone now is not offered)."""
        return sorted(self.milestones & frozenset(milestone_waves))

    # --- the file ----------------------------------------------------------------------------
    def to_save(self) -> dict[str, Any]:
        return {
            "version": META_VERSION,
            "clears": self.clears,
            "ng_plus_unlocked": self.ng_plus_unlocked,
            "ng_plus_clears": self.ng_plus_clears,
            "first_clear_paid": self.first_clear_paid,
            "runs": self.runs,
            "onboarding_done": self.onboarding_done,
            "aether": self.aether,
            "aether_earned": self.aether_earned,
            "best_wave": self.best_wave,
            "milestones": sorted(self.milestones),
            "unlocked": sorted(self.unlocked),
            "codex": {section.value: sorted(self.seen(section)) for section in Section},
            "achievements": sorted(self.achievements),
            "tips": sorted(self.tips),
        }

    @classmethod
    def from_save(cls, save: MetaSave) -> Meta:
        codex = save.codex.model_dump()
        return cls(
            clears=save.clears,
            ng_plus_unlocked=save.ng_plus_unlocked,
            ng_plus_clears=save.ng_plus_clears,
            first_clear_paid=save.first_clear_paid,
            runs=save.runs,
            onboarding_done=save.onboarding_done,
            aether=save.aether,
            aether_earned=save.aether_earned,
            best_wave=save.best_wave,
            milestones=frozenset(save.milestones),
            unlocked=frozenset(save.unlocked),
            codex={section: frozenset(codex[section.value]) for section in Section if codex[section.value]},
            achievements=frozenset(save.achievements),
            tips=frozenset(save.tips),
        )


# --- aether (R-META-1, R-END-2, R-END-5) ----------------------------------------------------


@dataclass(frozen=True)
class AetherLine:
    """One line of a run's aether: what paid it (`kind`: wave, milestone, first_clear, ng_plus_clear),
    its wave (0: none) and the amount."""

    kind: str
    wave: int
    amount: int


@dataclass(frozen=True)
class Reward:
    """The aether a run paid, line by line, and the milestones it reached for the first time."""

    lines: tuple[AetherLine, ...] = ()
    milestones: tuple[int, ...] = ()

    @property
    def total(self) -> int:
        return sum(line.amount for line in self.lines)


def threshold_aether(settings: MetaSettings, wave_reached: int) -> tuple[int, int]:
    """R-META-1: (the highest threshold wave reached, its aether); (0, 0) below the first."""
    reached = [entry for entry in settings.aether_by_wave if entry.wave <= wave_reached]
    return (reached[-1].wave, reached[-1].aether) if reached else (0, 0)


def ng_plus_clear_aether(settings: MetaSettings, paid_before: int) -> int:
    """R-END-2: the aether of an NG+ clear after `paid_before` others: 20, 20% less each time, at least
    5 (whole fragments, rounded half up)."""
    rule = settings.ng_plus_clear
    decayed = math.floor(rule.aether * (1 - rule.decay) ** min(paid_before, 10_000) + 0.5)
    return max(rule.minimum, decayed)


def run_reward(settings: MetaSettings, meta: Meta, wave_reached: int, cleared: bool, ng_plus: int) -> Reward:
    """What a run that reached `wave_reached` (and `cleared` the game, at NG+ `ng_plus`) pays to `meta`."""
    lines: list[AetherLine] = []
    wave, amount = threshold_aether(settings, wave_reached)
    if wave:
        lines.append(AetherLine("wave", wave, amount))
    milestones = tuple(m.wave for m in settings.milestones if m.wave <= wave_reached and m.wave not in meta.milestones)
    lines += [AetherLine("milestone", m.wave, m.aether) for m in settings.milestones if m.wave in milestones]
    if cleared and ng_plus == 0 and not meta.first_clear_paid:
        lines.append(AetherLine("first_clear", 0, settings.first_clear_aether))
    if cleared and ng_plus > 0:
        lines.append(AetherLine("ng_plus_clear", 0, ng_plus_clear_aether(settings, meta.ng_plus_clears)))
    return Reward(tuple(line for line in lines if line.amount > 0 or line.kind == "wave"), milestones)


@dataclass(frozen=True)
class UnlockNode:
    """One node of the unlock tree: a spell or a core the shop may then offer, or a mode."""

    id: str
    kind: str  # "spell", "core" or "mode"
    cost: int
    name_key: str


def unlock_tree(content: Content) -> list[UnlockNode]:
    """R-META-1: every spell and core with an unlock cost, and the cursed-waves mode, cheapest first."""
    nodes = [UnlockNode(s.id, "spell", s.unlock_cost, s.name_key) for s in content.spells if s.unlock_cost > 0]
    nodes += [UnlockNode(c.id, "core", c.unlock_cost, c.name_key) for c in content.cores if c.unlock_cost > 0]
    cursed = content.balance.meta.cursed_waves
    nodes.append(UnlockNode(CURSED_WAVES, "mode", cursed.unlock_cost, "ui.unlocks.cursed_waves"))
    return sorted(nodes, key=lambda node: (node.cost, node.id))


def everything_unlocked(content: Content) -> frozenset[str]:
    """Every spell and core of the unlock tree: the whole pool (a headless run without a meta file)."""
    return frozenset(node.id for node in unlock_tree(content) if node.kind != "mode")


# --- the file -------------------------------------------------------------------------------


@dataclass(frozen=True)
class MetaLoad:
    """What `load_meta` found: the progress, a notice for the player when the file was set aside (or
    restored from its backup), and `stuck`: the file could not be read nor moved aside — writing over
    it could lose the progress it may still hold, so `write_meta` leaves it alone."""

    meta: Meta
    notice: str | None = None
    stuck: bool = False


def meta_path() -> Path:
    return storage.data_dir() / META_FILE


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def load_meta(path: Path | None = None) -> MetaLoad:
    """The progress in meta.json (none when there is no file). A file that cannot be used is set
    aside (`meta.json.corrupt`); the progress comes back from the last good copy when there is one
    (and is written back), else starts over; either way with a notice. Never raises."""
    path = path if path is not None else meta_path()
    meta, problem = _read(path, quarantine=True)
    if problem is None:
        return MetaLoad(meta if meta is not None else Meta())
    if path.exists():  # unreadable and still in place (a permission, a lock): never written over
        return MetaLoad(Meta(), problem, stuck=True)
    backup, backup_problem = _read(backup_path(path), quarantine=False)
    if backup is None or backup_problem is not None:
        return MetaLoad(Meta(), problem)
    try:
        storage.write_json_atomic(path, backup.to_save())
    except OSError as error:
        storage.log.warning("meta.json could not be restored from its backup: %s", error)
    return MetaLoad(backup, f"{problem}; progress was restored from {backup_path(path).name}")


def _read(path: Path, quarantine: bool) -> tuple[Meta | None, str | None]:
    """(the progress in `path` or None when there is no file, the problem when it cannot be used)."""
    loaded = storage.read_json_or_quarantine(path, set_aside=quarantine)
    if loaded.problem is not None:
        return None, loaded.problem
    value = loaded.value
    if value is None:
        return (None, None) if not path.exists() else (None, _aside(path, "(file): not progress", quarantine))
    if not isinstance(value, dict):
        return None, _aside(path, f"(file): not progress (a JSON {type(value).__name__}, not an object)", quarantine)
    version = value.get("version")
    if type(version) is not int or not (min([META_VERSION, *MIGRATIONS]) <= version <= META_VERSION):
        reason = f"version: unknown meta version {str(version)[:40]} (this game reads {META_VERSION})"
        return None, _aside(path, reason, quarantine)
    while version in MIGRATIONS:
        value = MIGRATIONS[version](value)
        version = value["version"]
    try:
        save = MetaSave.model_validate(value)
    except ValidationError as error:
        return None, _aside(path, storage.describe(error), quarantine)
    return Meta.from_save(save), None


def save_meta(meta: Meta, path: Path | None = None) -> None:
    """Writes `meta` to meta.json atomically, then the same to its backup (an `OSError` for the
    caller to report)."""
    path = path if path is not None else meta_path()
    storage.write_json_atomic(path, meta.to_save())
    storage.write_json_atomic(backup_path(path), meta.to_save())


def write_meta(meta: Meta, found: MetaLoad, path: Path | None = None) -> bool:
    """Writes `meta`, read as `found`, unless that file is stuck (see `MetaLoad`); True when written. A
    failed write is logged (the progress is kept for this session)."""
    if found.stuck:
        storage.log.warning("meta.json is left as it is (%s): progress is kept for this session only", found.notice)
        return False
    try:
        save_meta(meta, path)
    except OSError as error:
        storage.log.warning("meta.json could not be saved: %s", error)
        return False
    return True


def update_meta(change: Callable[[Meta], Meta], path: Path | None = None) -> Meta:
    """Reads meta.json, applies `change`, writes the result (`write_meta`); returns it."""
    found = load_meta(path)
    meta = change(found.meta)
    write_meta(meta, found, path)
    return meta


def record_clear(ng_plus: int, max_level: int, path: Path | None = None) -> Meta:
    """R-END-2: the game was cleared at NG+ level `ng_plus`: meta.json counts it and unlocks the
    next level. Returns the new progress."""
    return update_meta(lambda meta: meta.cleared(ng_plus, max_level), path)


def _aside(path: Path, reason: str, quarantine: bool) -> str:
    if not quarantine:
        return f"{path.name} could not be used ({reason})"
    return storage.quarantine(path, reason).message
