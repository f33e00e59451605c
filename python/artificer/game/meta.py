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
(`MetaLoad.notice`), never a crash; so does a meta.json that is missing beside a
good backup. A migration takes only the fields of the version it migrates (a file of an
older version carrying others is set aside).

R-SAVE-2: a meta.json (or its backup) that is not a regular file — a directory, a
FIFO, a device, a dangling link — is left exactly as it was: nothing is written
there, and the progress is kept for the session only. Given the content
(`load_meta(path, content)`), ids it no longer has — an unlock, a codex entry, an
achievement — are dropped with a notice, the aether an unlock cost given back
when the file's books (`paid`, written as each node is bought) say what it cost,
and the file written back once.

Every read-modify-write of the file holds `meta_lock` (an `fcntl.flock` on
`meta.json.lock` beside it, reentrant in the process; a killed process's lock dies
with it), so two runs ending at once on one file both count.
"""

from __future__ import annotations

import dataclasses
import math
import os
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Final

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
#: The lock file beside meta.json (`meta_lock`).
LOCK_SUFFIX = ".lock"
#: How long `meta_lock` waits for another process's read-modify-write (milliseconds each) before it
#: goes on without the lock (logged): a hung process never hangs the game.
LOCK_WAIT_SECONDS: Final = 10.0
#: How many dropped ids a notice names before "and N more".
NOTICE_IDS = 6

#: The fields each older version had: its migration takes those and no other (a version-1 file
#: carrying version 2's `aether` does not bring it along).
VERSION_FIELDS: Mapping[int, frozenset[str]] = {1: frozenset({"version", "clears", "ng_plus_unlocked"})}


def _v1_to_v2(value: dict[str, Any]) -> dict[str, Any]:
    """Version 1 held the clears and NG+ levels only (the boss issue). A file with a clear was made by
    a player who reached W20: their milestones are counted as paid and their onboarding as done (they
    know the game); aether starts at 0 (version 1 had none to carry)."""
    value = {name: item for name, item in value.items() if name in VERSION_FIELDS[1]}
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
Id = Annotated[str, Field(pattern=ID_PATTERN, max_length=64)]
Ids = Annotated[list[Id], Field(max_length=MAX_IDS)]


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
    paid: dict[Id, Annotated[int, Strict(), Field(ge=0, le=MAX_AETHER)]] = Field(
        default={},
        max_length=MAX_IDS,
        description="R-SAVE-2: the aether each unlock cost when bought (refunded if an update removes it); "
        "absent: not recorded (bought before it was kept).",
    )
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
    #: R-SAVE-2: the aether each unlock cost when it was bought (an unlock bought before this was kept
    #: has none): what is given back if an update removes it.
    paid: Mapping[str, int] = field(default_factory=dict)

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
        return dataclasses.replace(
            self,
            aether=self.aether - node.cost,
            unlocked=self.unlocked | {node.id},
            paid={**self.paid, node.id: node.cost},
        )

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
            "paid": {item: self.paid[item] for item in sorted(self.paid) if item in self.unlocked},
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
            paid={item: cost for item, cost in save.paid.items() if item in save.unlocked},
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


# --- ids the content no longer has (R-SAVE-2) ---------------------------------------------------


@dataclass(frozen=True)
class Forgotten:
    """An id of meta.json's that the content no longer has, dropped: what it named (`kind`: "unlock",
    "achievement", or "codex <section>") and the aether given back for it (an unlock whose price the
    file's books, `paid`, hold; 0 otherwise)."""

    kind: str
    item: str
    refund: int = 0


def known_ids(content: Content) -> dict[str, frozenset[str]]:
    """What each of meta.json's id lists may name in `content`: "unlocked" (a spell, a core or a mode of
    the unlock tree), "achievements", and each codex section by its value."""
    from artificer.engine.events import Reaction  # the alchemy journal's ids: the core's reactions

    spells = frozenset(spell.id for spell in content.spells)
    cores = frozenset(core.id for core in content.cores)
    modes = frozenset(node.id for node in unlock_tree(content) if node.kind == "mode")
    return {
        "unlocked": spells | cores | modes,
        "achievements": frozenset(rule.id for rule in content.balance.meta.achievements),
        Section.SPELLS.value: spells,
        Section.ENEMIES.value: frozenset(enemy.id for enemy in content.enemies),
        Section.BOSSES.value: frozenset(boss.boss_id for boss in content.bosses.values()),
        Section.RECIPES.value: frozenset(recipe.id for recipe in content.recipes),
        Section.REACTIONS.value: frozenset(reaction.name.lower() for reaction in Reaction),
        Section.RELICS.value: frozenset(content.relics.relics),
        Section.POTIONS.value: frozenset(content.potions.potions),
    }


def forget_unknown(meta: Meta, content: Content) -> tuple[Meta, tuple[Forgotten, ...]]:
    """R-SAVE-2: `meta` without the ids `content` no longer has (unlocks, codex entries, achievements;
    the rest kept), the aether each dropped unlock cost given back where `meta.paid` holds it; and
    what went, in the file's order of lists (none: the same `meta`). Tips and milestone waves name no
    content (`practice_waves` already offers only the content's milestones)."""
    known = known_ids(content)
    gone = [Forgotten("unlock", item, meta.paid.get(item, 0)) for item in sorted(meta.unlocked - known["unlocked"])]
    codex: dict[Section, frozenset[str]] = {}
    for section in Section:
        seen = meta.seen(section)
        gone += [Forgotten(f"codex {section.value}", item) for item in sorted(seen - known[section.value])]
        if seen & known[section.value]:
            codex[section] = seen & known[section.value]
    gone += [Forgotten("achievement", item) for item in sorted(meta.achievements - known["achievements"])]
    if not gone:
        return meta, ()
    unlocked = meta.unlocked & known["unlocked"]
    refund = sum(item.refund for item in gone)
    forgetting = dataclasses.replace(
        meta,
        unlocked=unlocked,
        paid={item: cost for item, cost in meta.paid.items() if item in unlocked},
        codex=codex,
        achievements=meta.achievements & known["achievements"],
        aether=min(MAX_HELD_AETHER, meta.aether + refund),
    )
    return forgetting, tuple(gone)


def forgotten_notice(name: str, gone: Iterable[Forgotten]) -> str:
    """One line naming what `forget_unknown` dropped from the file `name` and the aether it gave back."""
    gone = list(gone)
    parts = []
    for item in gone[:NOTICE_IDS]:
        if item.kind != "unlock":
            parts.append(f"{item.item} ({item.kind})")
        elif item.refund:
            parts.append(f"{item.item} (an unlock: its {item.refund} aether given back)")
        else:
            parts.append(f"{item.item} (an unlock; its price was not recorded, nothing given back)")
    more = f" and {len(gone) - NOTICE_IDS} more" if len(gone) > NOTICE_IDS else ""
    return f"{name} named what this game no longer has: {', '.join(parts)}{more}; dropped, the rest kept"


def printable(text: str, limit: int = 400) -> str:
    """`text` safe to show (a notice quotes what a file holds): control and other unprintable
    characters escaped (a NUL cannot reach a font), at most `limit` characters."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


# --- the lock (R-SAVE-1) -----------------------------------------------------------------------

#: The locks this process holds: lock file → [its descriptor (-1: going on without one), depth].
_held: dict[str, list[int]] = {}
#: One thread at a time in a read-modify-write (and what makes `meta_lock` reentrant).
_in_process = threading.RLock()


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + LOCK_SUFFIX)


@contextmanager
def meta_lock(path: Path | None = None) -> Iterator[bool]:
    """Holds meta.json's lock (`meta.json.lock` beside it, `fcntl.flock`: released when the holder
    closes it or dies) while the block reads, changes and writes the file, so a read-modify-write of
    another process waits for it and reads what it wrote. Reentrant within the process (a block
    inside another holds the same lock). Yields whether the lock is held: where it cannot be taken
    (no directory yet, no flock on this system, a lock path that is not a regular file — left as it
    is, R-SAVE-2 —, or another holder past `LOCK_WAIT_SECONDS`) the block runs without it (logged)."""
    path = path if path is not None else meta_path()
    key = os.path.abspath(lock_path(path))
    with _in_process:
        held = _held.get(key)
        if held is not None:
            held[1] += 1
            try:
                yield held[0] >= 0
            finally:
                held[1] -= 1
            return
        fd = _take_lock(Path(key))
        _held[key] = [fd, 1]
        try:
            yield fd >= 0
        finally:
            del _held[key]
            if fd >= 0:
                os.close(fd)  # releases the flock


def _take_lock(lock: Path) -> int:
    """The open, flock'ed lock file's descriptor; -1 when the block goes on without it."""
    if sys.platform == "win32":
        return -1  # no flock: one process at a time is the player's own doing there
    import fcntl

    kind = storage.not_a_file(lock)
    if kind is not None:
        _warn_once(lock, f"{lock.name} is {kind}, left as it is: meta.json is changed without its lock")
        return -1
    flags = os.O_RDWR | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        if lock.is_symlink():  # a link to a regular file (checked above): the file it names, never created
            fd = os.open(lock, flags)
        else:
            fd = os.open(lock, flags | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o666)
    except FileNotFoundError:
        return -1  # no directory yet: there is no file to share
    except OSError as error:
        _warn_once(
            lock, f"{lock.name} could not be opened ({error.strerror or error}): meta.json is changed without it"
        )
        return -1
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped in between the look and the open
        os.close(fd)
        return -1
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() > deadline:
                storage.log.warning("%s is held too long by another process: meta.json is changed anyway", lock)
                break
            time.sleep(0.002)
        except OSError as error:  # a file system without locks
            _warn_once(
                lock, f"{lock.name} could not be locked ({error.strerror or error}): meta.json is changed without it"
            )
            break
    os.close(fd)
    return -1


#: The lock files already warned about (a read-only data dir would say so at every read otherwise).
_warned: set[str] = set()


def _warn_once(lock: Path, message: str) -> None:
    if str(lock) not in _warned:
        _warned.add(str(lock))
        storage.log.warning("%s", message)


# --- the file -------------------------------------------------------------------------------


@dataclass(frozen=True)
class MetaLoad:
    """What `load_meta` found: the progress, a notice for the player when the file was set aside (or
    restored from its backup, or rid of ids the content no longer has),
    and `stuck`: the file could not be read nor moved aside, or is not a regular file (R-SAVE-2) —
    writing over it could lose the progress it may still hold, so `write_meta` leaves it alone (and
    its backup too); the progress is kept for this session only. `forgotten`: the ids dropped."""

    meta: Meta
    notice: str | None = None
    stuck: bool = False
    forgotten: tuple[Forgotten, ...] = ()


def meta_path() -> Path:
    return storage.data_dir() / META_FILE


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def load_meta(path: Path | None = None, content: Content | None = None) -> MetaLoad:
    """The progress in meta.json (none when there is no file), read under `meta_lock`. A file that
    cannot be used is set aside (`meta.json.corrupt`); the progress comes back from the last good copy
    when there is one — and when meta.json is missing beside it — (and is written back), else starts
    over; either way with a notice. With `content`, the ids it no longer has are dropped, the file
    written back once (`forget_unknown`). A path that is not a regular file is left as it is, its
    backup too (`MetaLoad.stuck`). Never raises."""
    path = path if path is not None else meta_path()
    with meta_lock(path):
        found, write = _load(path, content)
        if write and not found.stuck:
            try:
                save_meta(found.meta, path)
            except OSError as error:
                storage.log.warning("%s could not be written back: %s", path.name, error)
    return found


@dataclass(frozen=True)
class _Found:
    """What `_read` found in one file: its progress (None: absent or unusable), the problem (a notice)
    and `left` (not a regular file, left as it is)."""

    meta: Meta | None
    problem: str | None = None
    left: bool = False

    @property
    def good(self) -> bool:
        return self.meta is not None and self.problem is None


def _load(path: Path, content: Content | None) -> tuple[MetaLoad, bool]:
    """`load_meta`'s reading (under the lock); and whether the file is to be written back."""
    main = _read(path, quarantine=True)
    backup_file = backup_path(path)
    notes: list[str] = []
    write = False
    stuck = False
    if main.good:
        meta = main.meta if main.meta is not None else Meta()
    elif main.left:  # R-SAVE-2: not a regular file; nothing is written there nor to its backup
        backup = _read(backup_file, quarantine=False)
        stuck = True
        meta = backup.meta if backup.meta is not None and backup.good else Meta()
        kind = storage.not_a_file(path) or "not a regular file"
        where = f"the progress in {backup_file.name} is used" if backup.good else "progress starts from nothing"
        notes.insert(0, f"{path.name} is {kind}, not a file, and was left as it is; {where} and nothing is saved")
    elif main.problem is not None and os.path.lexists(path):
        # unreadable and still in place (a permission, a lock): never written over
        return MetaLoad(Meta(), printable(main.problem), stuck=True), False
    else:  # set aside, or missing: the last good copy, if there is one
        backup = _read(backup_file, quarantine=False)
        if backup.good and backup.meta is not None:
            meta, write = backup.meta, True
            why = main.problem if main.problem is not None else f"{path.name} was missing"
            notes = [f"{why}; progress was restored from {backup_file.name}"]
        else:
            meta = Meta()
            if main.problem is not None:
                notes.insert(0, main.problem)
            elif backup.problem is not None:
                notes.insert(0, f"{path.name} was missing and {backup.problem}; progress starts from nothing")
    forgotten: tuple[Forgotten, ...] = ()
    if content is not None:
        meta, forgotten = forget_unknown(meta, content)
        if forgotten:
            notes.append(forgotten_notice(path.name, forgotten))
            write = True
    notice = printable("; ".join(notes)) if notes else None
    return MetaLoad(meta, notice, stuck, forgotten), write


def _read(path: Path, quarantine: bool) -> _Found:
    """The progress in `path` (see `_Found`); a file that cannot be used is set aside when `quarantine`."""
    loaded = storage.read_json_or_quarantine(path, set_aside=quarantine)
    if loaded.problem is not None:
        return _Found(None, loaded.problem, loaded.left)
    value = loaded.value
    if value is None:
        return (
            _Found(None)
            if not os.path.lexists(path)
            else _Found(None, _aside(path, "(file): not progress", quarantine))
        )
    if not isinstance(value, dict):
        reason = f"(file): not progress (a JSON {type(value).__name__}, not an object)"
        return _Found(None, _aside(path, reason, quarantine))
    version = value.get("version")
    if type(version) is not int or not (min([META_VERSION, *MIGRATIONS]) <= version <= META_VERSION):
        reason = f"version: unknown meta version {printable(str(version), 40)} (this game reads {META_VERSION})"
        return _Found(None, _aside(path, reason, quarantine))
    while version in MIGRATIONS:
        # A file of an older version holds that version's fields only (each version's schema forbade
        # others): a version-1 file carrying version 2's aether was not written by the game.
        extra = sorted(set(value) - VERSION_FIELDS[version])
        if extra:
            shown = ", ".join(printable(name, 40) for name in extra[:NOTICE_IDS])
            more = f" and {len(extra) - NOTICE_IDS} more" if len(extra) > NOTICE_IDS else ""
            return _Found(None, _aside(path, f"{shown}{more}: not a field of version {version}", quarantine))
        value = MIGRATIONS[version](value)
        version = value["version"]
    try:
        save = MetaSave.model_validate(value)
    except ValidationError as error:
        return _Found(None, _aside(path, storage.describe(error), quarantine))
    return _Found(Meta.from_save(save))


def save_meta(meta: Meta, path: Path | None = None) -> None:
    """Writes `meta` to meta.json atomically, then the same to its backup (an `OSError` for the
    caller to report; `storage.NotAFileError` when meta.json is not a regular file). A backup path
    that is not a regular file is left as it is (R-SAVE-2): no backup is written then (logged)."""
    path = path if path is not None else meta_path()
    storage.write_json_atomic(path, meta.to_save())
    backup = backup_path(path)
    kind = storage.not_a_file(backup)
    if kind is not None:
        storage.log.warning("%s is %s, left as it is: no backup of %s is kept", backup.name, kind, path.name)
        return
    storage.write_json_atomic(backup, meta.to_save())


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


def update_meta(change: Callable[[Meta], Meta], path: Path | None = None, content: Content | None = None) -> Meta:
    """Reads meta.json (with `content`: rid of the ids it no longer has), applies `change`, writes the
    result (`write_meta`), all under `meta_lock`; returns it."""
    with meta_lock(path):
        found = load_meta(path, content)
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
