"""Content loading: read the data files, validate them, and cross-check them.

This module owns turning a data directory into a `Content` or a `ContentError`
listing every problem (DESIGN §6): unreadable or missing files, JSON syntax
errors with line and column, schema errors from the models (converted to JSON
paths such as `$.enemies[3].hp`, see `schema_errors`), and checks that span
entries or files: unique enemy ids, wave numbering (R-WAVE-1), wave timing,
that every wave group names an enemy that exists, the VM content's
references (`references`: spells, cores and boards, recipes, i18n keys), and
the boss files of `bosses/` (`bosses.check_bosses`: phases, tags, adds, texts,
looks, boss waves).
A broken file is still reported alongside the others; only the cross-checks
that need it are skipped.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar, cast

from pydantic import BaseModel, ValidationError

from artificer import storage
from artificer.content import references
from artificer.content.bosses import BOSSES_DIR, Boss, BossBook, check_bosses
from artificer.content.cores import Core, CoreCatalog
from artificer.content.looks import LOOKS_FILE, Looks, check_looks
from artificer.content.models import (
    BUFFER_ROW_BYTES,
    MAX_BUFFER_BYTES,
    MAX_WAVE_FRAMES,
    MAX_WAVE_SPAWNS,
    WAVE_COUNT,
    Balance,
    ContentError,
    Enemy,
    EnemyRoster,
    Problem,
    Wave,
    WaveSchedule,
    did_you_mean,
)
from artificer.content.potions import POTIONS_FILE, PotionBook, check_potion_texts
from artificer.content.recipes import Recipe, RecipeBook, TextTable
from artificer.content.references import CORES_FILE, RECIPES_FILE, SPELLS_FILE, TEXTS_FILE
from artificer.content.relics import RELICS_FILE, RelicBook, check_relics
from artificer.content.schema_errors import ROOT_PATH, json_path, problems_from_validation
from artificer.content.spells import Spell, SpellCatalog

DEFAULT_DATA_DIR = Path(__file__).resolve().parent.parent / "data"

BALANCE_FILE = "balance.json"
ENEMIES_FILE = "enemies.json"
WAVES_FILE = "waves.json"

# Every single file load_content reads, in the order problems are reported; the boss files
# (`bosses/<boss_id>.json`, BOSSES_DIR) are reported after waves.json, by name.
CONTENT_FILES = (
    BALANCE_FILE,
    ENEMIES_FILE,
    WAVES_FILE,
    SPELLS_FILE,
    CORES_FILE,
    RECIPES_FILE,
    RELICS_FILE,
    POTIONS_FILE,
    LOOKS_FILE,
    TEXTS_FILE,
)

ModelT = TypeVar("ModelT", bound=BaseModel)
MadeT = TypeVar("MadeT")


@dataclass(frozen=True)
class Content:
    """Validated, cross-checked game content: balance, enemies, waves, and the VM's spells, cores,
    resonance recipes and English texts."""

    balance: Balance
    enemies: tuple[Enemy, ...]
    waves: tuple[Wave, ...]
    spells: tuple[Spell, ...]
    cores: tuple[Core, ...]
    recipes: tuple[Recipe, ...]
    texts: Mapping[str, str]
    data_dir: Path
    #: R-REL-1: relics.json (the relics by id, the start relics, the pool, the prices).
    relics: RelicBook
    #: R-POT-1/2: potions.json (the potions by id, the drop chance, the belt's slots, the shop's price).
    potions: PotionBook
    #: R-FEEL-1: looks.json (every sprite's shape, colours and size; drawn by artificer.ui.atlas).
    looks: Looks
    #: R-BOSS-1: bosses/<boss_id>.json, by boss id in id order.
    bosses: Mapping[str, Boss]
    _enemy_indices: dict[str, int] = field(init=False, repr=False, compare=False)
    _spell_indices: dict[str, int] = field(init=False, repr=False, compare=False)
    _core_by_id: dict[str, Core] = field(init=False, repr=False, compare=False)
    _recipe_by_id: dict[str, Recipe] = field(init=False, repr=False, compare=False)
    _made: dict[Hashable, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_enemy_indices", {enemy.id: index for index, enemy in enumerate(self.enemies)})
        object.__setattr__(self, "_spell_indices", {spell.id: index for index, spell in enumerate(self.spells)})
        object.__setattr__(self, "_core_by_id", {core.id: core for core in self.cores})
        object.__setattr__(self, "_recipe_by_id", {recipe.id: recipe for recipe in self.recipes})
        object.__setattr__(self, "_made", {})

    def made(self, key: Hashable, make: Callable[[], MadeT]) -> MadeT:
        """What `make` makes of this content, made once per `key` and kept: the content never
        changes, so what is made only of it never does either (the core's spell catalog, the
        world's config). What is kept is shared: its users only read it."""
        try:
            return cast("MadeT", self._made[key])
        except KeyError:
            made = self._made[key] = make()
            return made

    def enemy_index(self, enemy_id: str) -> int:
        """The enemy's position in enemies.json: the kind number the core uses."""
        try:
            return self._enemy_indices[enemy_id]
        except KeyError:
            raise KeyError(f"no enemy {enemy_id!r} in {ENEMIES_FILE}") from None

    def enemy(self, enemy_id: str) -> Enemy:
        """The enemy with this id."""
        return self.enemies[self.enemy_index(enemy_id)]

    def wave(self, number: int) -> Wave:
        """Wave `number` (1-based)."""
        if not 1 <= number <= len(self.waves):
            raise KeyError(f"no wave {number} (waves are 1..{len(self.waves)})")
        return self.waves[number - 1]

    def spell_index(self, spell_id: str) -> int:
        """The spell's position in spells.json: the spell number the VM uses."""
        try:
            return self._spell_indices[spell_id]
        except KeyError:
            raise KeyError(f"no spell {spell_id!r} in {SPELLS_FILE}") from None

    def spell(self, spell_id: str) -> Spell:
        """The spell with this id."""
        return self.spells[self.spell_index(spell_id)]

    def core(self, core_id: str) -> Core:
        """The core with this id."""
        try:
            return self._core_by_id[core_id]
        except KeyError:
            raise KeyError(f"no core {core_id!r} in {CORES_FILE}") from None

    def recipe(self, recipe_id: str) -> Recipe:
        """The resonance recipe with this id."""
        try:
            return self._recipe_by_id[recipe_id]
        except KeyError:
            raise KeyError(f"no recipe {recipe_id!r} in {RECIPES_FILE}") from None

    def boss(self, boss_id: str) -> Boss:
        """The boss with this id."""
        return BossBook(self.bosses).boss(boss_id)

    def bosses_for_wave(self, number: int) -> tuple[Boss, ...]:
        """R-BOSS-2: the bosses that may end wave `number`, in boss_id order (W10: two, the seed
        picks one; an ordinary wave: none)."""
        return BossBook(self.bosses).for_wave(number)

    def text(self, key: str) -> str:
        """The English text of an i18n key."""
        try:
            return self.texts[key]
        except KeyError:
            raise KeyError(f"no text {key!r} in {TEXTS_FILE}") from None


def load_content(data_dir: Path | None = None) -> Content:
    """Load and check every content file in `data_dir` (default: the shipped data).

    Raises `ContentError` listing every problem found in one pass.
    """
    directory = Path(data_dir) if data_dir is not None else DEFAULT_DATA_DIR
    problems: list[Problem] = []
    balance = _load_file(directory, BALANCE_FILE, Balance, problems)
    roster = _load_file(directory, ENEMIES_FILE, EnemyRoster, problems)
    schedule = _load_file(directory, WAVES_FILE, WaveSchedule, problems)
    spells = _load_file(directory, SPELLS_FILE, SpellCatalog, problems)
    cores = _load_file(directory, CORES_FILE, CoreCatalog, problems)
    recipes = _load_file(directory, RECIPES_FILE, RecipeBook, problems)
    texts = _load_file(directory, TEXTS_FILE, TextTable, problems)
    relics = _load_file(directory, RELICS_FILE, RelicBook, problems)
    if relics is not None:
        problems.extend(check_relics(relics, None if texts is None else texts.root))
    potions = _load_file(directory, POTIONS_FILE, PotionBook, problems)
    if potions is not None and texts is not None:
        problems.extend(check_potion_texts(potions, texts.root))
    looks = _load_file(directory, LOOKS_FILE, Looks, problems)
    if looks is not None:
        enemy_ids = None if roster is None else [enemy.id for enemy in roster.enemies]
        if enemy_ids is not None:
            # A boss's look sits among the enemies' (the core draws it as an enemy kind); a boss
            # without one is its file's problem (check_bosses), so only the looks present count here.
            enemy_ids += [stem for stem in _boss_stems(directory) if stem in looks.enemies and stem not in enemy_ids]
        problems.extend(check_looks(looks, enemy_ids, None if spells is None else spells.spells))
    if roster is not None:
        problems.extend(check_roster(roster))
    if schedule is not None:
        problems.extend(check_schedule(schedule))
    if roster is not None and schedule is not None:
        problems.extend(check_wave_enemies(schedule, roster))
    if roster is not None and balance is not None:
        problems.extend(check_training_dummy(balance, roster))
    if roster is not None and balance is not None and schedule is not None:
        problems.extend(check_endless(balance, schedule, roster))
    if balance is not None:
        problems.extend(check_balance_bounds(balance))
    if schedule is not None and balance is not None:
        problems.extend(check_wave_bounds(schedule, balance, roster))
    problems.extend(_check_vm_content(balance, spells, cores, recipes, texts))
    bosses = _load_bosses(directory, problems, roster, schedule, texts, looks)
    if bosses is not None and balance is not None:
        problems.extend(check_boss_bands(balance, bosses))
    if (
        problems
        or balance is None
        or roster is None
        or schedule is None
        or spells is None
        or cores is None
        or recipes is None
        or texts is None
        or relics is None
        or potions is None
        or looks is None
        or bosses is None
    ):
        raise ContentError(_in_file_order(problems))
    return Content(
        balance=balance,
        enemies=roster.enemies,
        waves=schedule.waves,
        spells=spells.spells,
        cores=cores.cores,
        recipes=recipes.recipes,
        texts=MappingProxyType(dict(texts.root)),
        data_dir=directory,
        relics=relics,
        potions=potions,
        looks=looks,
        bosses=bosses.bosses,
    )


def check_training_dummy(balance: Balance, roster: EnemyRoster) -> list[Problem]:
    """R-LAB-1: the training range's dummies are an enemy of the roster."""
    ids = [enemy.id for enemy in roster.enemies]
    dummy = balance.training_range.dummy
    if dummy in ids:
        return []
    return [Problem(BALANCE_FILE, "$.training_range.dummy", f'unknown enemy "{dummy}" (enemies: {", ".join(ids)})')]


def _check_vm_content(
    balance: Balance | None,
    spells: SpellCatalog | None,
    cores: CoreCatalog | None,
    recipes: RecipeBook | None,
    texts: TextTable | None,
) -> list[Problem]:
    """The references of the VM's content, each run when the files it needs loaded."""
    problems: list[Problem] = []
    if spells is not None:
        problems.extend(references.check_spells(spells))
    if cores is not None:
        problems.extend(references.check_cores(cores, spells))
        if balance is not None and spells is not None:
            problems.extend(references.check_starting_wand(balance, spells, cores))
            problems.extend(references.check_onboarding(balance, spells))
        if spells is not None:
            problems.extend(references.check_affordable(spells, cores))
    if recipes is not None:
        problems.extend(references.check_recipes(recipes, spells))
    if texts is not None:
        problems.extend(references.check_texts(texts.root, spells, cores, recipes))
    return problems


def _in_file_order(problems: list[Problem]) -> list[Problem]:
    """Problems grouped by file in CONTENT_FILES order, the boss files (by name) right after
    waves.json, each file's in the order found (stable)."""
    rank = {name: (index, "") for index, name in enumerate(CONTENT_FILES)}
    bosses = rank[WAVES_FILE][0]

    def file_rank(problem: Problem) -> tuple[float, str]:
        if problem.file.startswith(f"{BOSSES_DIR}/"):
            return (bosses + 0.5, problem.file)
        return rank.get(problem.file, (len(rank), ""))

    return sorted(problems, key=file_rank)


# --- the boss files -----------------------------------------------------------


def check_boss_bands(balance: Balance, bosses: BossBook) -> list[Problem]:
    """R-BOSS-3: every boss's wave has its time-to-kill band in balance.json (the simulator judges
    every boss against one), one problem a wave without."""
    problems: list[Problem] = []
    targets = balance.wave.boss.targets
    for wave in sorted({boss.wave for boss in bosses.bosses.values()}):
        if targets.band(wave) is None:
            named = ", ".join(boss_id for boss_id, boss in bosses.bosses.items() if boss.wave == wave)
            reason = f"no band for wave {wave} ({named}): R-BOSS-3 judges every boss's time to kill against its wave's"
            problems.append(Problem(BALANCE_FILE, "$.wave.boss.targets.ttk_bands", reason))
    return problems


def _boss_stems(directory: Path) -> list[str]:
    """The names (without .json) of the boss files in `directory`/bosses, sorted."""
    folder = directory / BOSSES_DIR
    if not folder.is_dir():
        return []
    return sorted(path.stem for path in folder.iterdir() if path.suffix == ".json" and path.is_file())


def _load_bosses(
    directory: Path,
    problems: list[Problem],
    roster: EnemyRoster | None,
    schedule: WaveSchedule | None,
    texts: TextTable | None,
    looks: Looks | None,
) -> BossBook | None:
    """R-BOSS-1: read every `bosses/<boss_id>.json`, validate each and check them across files;
    on any problem add it and return None (every file is still read and reported). No folder
    is no boss: what needs one is a boss wave, and a boss wave without its boss is reported."""
    folder = directory / BOSSES_DIR
    found = len(problems)
    for path in sorted(folder.iterdir()) if folder.is_dir() else ():
        if path.suffix != ".json" or not path.is_file():
            reason = f"is not a boss file ({BOSSES_DIR}/ holds one <boss_id>.json file a boss)"
            problems.append(Problem(f"{BOSSES_DIR}/{path.name}", ROOT_PATH, reason))
    bosses: dict[str, Boss] = {}
    every_file_loaded = True
    for stem in _boss_stems(directory):
        boss = _load_file(directory, f"{BOSSES_DIR}/{stem}.json", Boss, problems)
        if boss is None:
            every_file_loaded = False
        else:
            bosses[stem] = boss
    whole = schedule is not None and not check_schedule(schedule)
    problems.extend(
        check_bosses(
            bosses,
            schedule=schedule if whole else None,
            enemy_ids=None if roster is None else [enemy.id for enemy in roster.enemies],
            texts=None if texts is None else texts.root,
            look_ids=None if looks is None else looks.enemies.keys(),
            every_file_loaded=every_file_loaded,
        )
    )
    if len(problems) > found:
        return None
    return BossBook({boss.boss_id: boss for boss in sorted(bosses.values(), key=lambda boss: boss.boss_id)})


# --- one file ---------------------------------------------------------------


def _load_file(directory: Path, name: str, model: type[ModelT], problems: list[Problem]) -> ModelT | None:
    """Read, parse and validate one file; on failure add its problems and return None."""
    text = read_text(directory / name, name, problems)
    if text is None:
        return None
    duplicates = parse_json(name, text, problems)
    if duplicates is None:
        return None
    problems.extend(duplicates)
    try:
        # Strict JSON-mode validation: "12" is not a number and 4.0 is not a count,
        # while enum values may still be written as their strings.
        return model.model_validate_json(text, strict=True)
    except ValidationError as error:
        problems.extend(problems_from_validation(name, model, error))
        return None


#: Largest content file read, in bytes (the shipped ones are under 200 KB).
MAX_FILE_BYTES = 16 * 1024 * 1024
#: Deepest nesting of objects and arrays in a content file (the shipped files nest 6 deep).
MAX_JSON_DEPTH = 64


def read_text(path: Path, name: str, problems: list[Problem]) -> str | None:
    """The UTF-8 text of `path` (a leading byte-order mark dropped), or None with one problem
    added: missing, not a regular file (a directory, a FIFO, a device: never opened for long, so a
    FIFO does not hang, R-SAVE-2), too big, not UTF-8, unreadable."""
    try:
        kind = storage.not_a_file(path)
        if kind is not None:
            problems.append(Problem(name, ROOT_PATH, f"is {kind}, not a file ({path})"))
            return None
        try:
            raw = storage.read_bytes(path, MAX_FILE_BYTES)
        except ValueError:
            problems.append(Problem(name, ROOT_PATH, f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB"))
            return None
        return raw.decode("utf-8-sig")
    except FileNotFoundError:
        problems.append(Problem(name, ROOT_PATH, f"file is missing (expected at {path})"))
    except UnicodeDecodeError as error:
        problems.append(Problem(name, ROOT_PATH, f"file is not UTF-8 text ({error.reason} at byte {error.start})"))
    except OSError as error:
        problems.append(Problem(name, ROOT_PATH, f"cannot read file ({error.strerror or error})"))
    return None


class _JsonObject(dict[str, Any]):
    """A parsed JSON object that remembers keys written more than once."""

    duplicate_keys: tuple[str, ...] = ()


def _object_from_pairs(pairs: list[tuple[str, Any]]) -> _JsonObject:
    parsed = _JsonObject()
    seen: list[str] = []
    for key, value in pairs:
        if key in parsed and key not in seen:
            seen.append(key)
        parsed[key] = value
    parsed.duplicate_keys = tuple(seen)
    return parsed


def parse_json(name: str, text: str, problems: list[Problem]) -> list[Problem] | None:
    """Check the JSON syntax, nesting and numbers; return the duplicate-key problems, or None
    (with one problem added) when the file cannot be read as content at all: a syntax error,
    nesting deeper than MAX_JSON_DEPTH, or an integer of more digits than Python converts.
    (NaN, Infinity and 1e400 parse here; the models refuse them at their JSON path.)"""
    try:
        document = json.loads(text, object_pairs_hook=_object_from_pairs)
    except json.JSONDecodeError as error:
        problems.append(
            Problem(name, ROOT_PATH, f"invalid JSON at line {error.lineno}, column {error.colno}: {error.msg}")
        )
        return None
    except RecursionError:
        problems.append(Problem(name, ROOT_PATH, f"nested too deeply (content nests at most {MAX_JSON_DEPTH} levels)"))
        return None
    except ValueError as error:  # an integer of more digits than sys.get_int_max_str_digits()
        problems.append(Problem(name, ROOT_PATH, f"invalid number: {_number_reason(error)}"))
        return None
    found: list[Problem] = []
    for location, key in _duplicate_keys(document):
        if key is None:
            problems.append(
                Problem(name, ROOT_PATH, f"nested too deeply (content nests at most {MAX_JSON_DEPTH} levels)")
            )
            return None
        found.append(
            Problem(name, json_path((*location, key)), "key is written more than once (the last one would win)")
        )
    return found


def _number_reason(error: ValueError) -> str:
    if "integer string conversion" in str(error):
        return f"an integer of more than {sys.get_int_max_str_digits()} digits"
    return str(error).split(";")[0]


def _duplicate_keys(document: Any) -> Iterator[tuple[tuple[str | int, ...], str | None]]:
    """(location, key) of each key written twice; (location, None) for the first node nested
    deeper than MAX_JSON_DEPTH, and then no more. Iterative: no recursion a file can grow."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(document, ())]
    while stack:
        node, location = stack.pop()
        if len(location) > MAX_JSON_DEPTH:
            yield location, None
            return
        if isinstance(node, _JsonObject):
            for key in node.duplicate_keys:
                yield location, key
        if isinstance(node, dict):
            stack.extend(((value, (*location, key)) for key, value in reversed(list(node.items()))))
        elif isinstance(node, list):
            stack.extend(((value, (*location, index)) for index, value in reversed(list(enumerate(node)))))


# --- checks across entries and files ----------------------------------------


def check_roster(roster: EnemyRoster) -> list[Problem]:
    """Enemy ids are unique (the core numbers kinds by file order); a split names an enemy that exists."""
    problems: list[Problem] = []
    first_index: dict[str, int] = {}
    for index, enemy in enumerate(roster.enemies):
        if enemy.id in first_index:
            reason = f'duplicate enemy id "{enemy.id}" (first used at $.enemies[{first_index[enemy.id]}])'
            problems.append(Problem(ENEMIES_FILE, f"$.enemies[{index}].id", reason))
        else:
            first_index[enemy.id] = index
    known = [enemy.id for enemy in roster.enemies]
    for index, enemy in enumerate(roster.enemies):
        if enemy.split is not None and enemy.split.into not in known:
            reason = _unknown_enemy_reason(enemy.split.into, known)
            problems.append(Problem(ENEMIES_FILE, f"$.enemies[{index}].split.into", reason))
    return problems


def check_schedule(schedule: WaveSchedule) -> list[Problem]:
    """R-WAVE-1: exactly 20 waves numbered 1..20 in order; groups end within their wave."""
    problems: list[Problem] = []
    if len(schedule.waves) != WAVE_COUNT:
        problems.append(
            Problem(WAVES_FILE, "$.waves", f"must list exactly {WAVE_COUNT} waves, found {len(schedule.waves)}")
        )
    for index, wave in enumerate(schedule.waves):
        if wave.wave != index + 1:
            reason = f"must be {index + 1} (waves are numbered 1..{WAVE_COUNT} in order), got {wave.wave}"
            problems.append(Problem(WAVES_FILE, f"$.waves[{index}].wave", reason))
        problems.extend(_check_group_timing(index, wave))
    return problems


def _check_group_timing(wave_index: int, wave: Wave) -> list[Problem]:
    return [
        Problem(
            WAVES_FILE,
            f"$.waves[{wave_index}].groups[{group_index}].until",
            f"must be at most the wave's duration ({wave.duration:g}), got {group.until:g}",
        )
        for group_index, group in enumerate(wave.groups)
        if group.until > wave.duration
    ]


def check_wave_enemies(schedule: WaveSchedule, roster: EnemyRoster) -> list[Problem]:
    """Every wave group names an enemy that exists in enemies.json."""
    known = [enemy.id for enemy in roster.enemies]
    problems: list[Problem] = []
    for wave_index, wave in enumerate(schedule.waves):
        for group_index, group in enumerate(wave.groups):
            if group.enemy not in known:
                problems.append(
                    Problem(
                        WAVES_FILE,
                        f"$.waves[{wave_index}].groups[{group_index}].enemy",
                        _unknown_enemy_reason(group.enemy, known),
                    )
                )
    return problems


def check_endless(balance: Balance, schedule: WaveSchedule, roster: EnemyRoster) -> list[Problem]:
    """R-END-3: the endless waves' templates are waves of waves.json without a boss, and the groups
    they gain name enemies that exist."""
    problems: list[Problem] = []
    endless = balance.endless
    waves = {wave.wave: wave for wave in schedule.waves}
    for index, number in enumerate(endless.templates):
        wave = waves.get(number)
        if wave is None or wave.boss:
            reason = f"wave {number} is not in {WAVES_FILE}" if wave is None else f"wave {number} is a boss wave"
            problems.append(Problem(BALANCE_FILE, f"$.endless.templates[{index}]", reason))
    known = [enemy.id for enemy in roster.enemies]
    for index, addition in enumerate(endless.additions):
        if addition.group.enemy not in known:
            where = f"$.endless.additions[{index}].group.enemy"
            problems.append(Problem(BALANCE_FILE, where, _unknown_enemy_reason(addition.group.enemy, known)))
    return problems


def _unknown_enemy_reason(enemy_id: str, known: list[str]) -> str:
    return f'unknown enemy "{enemy_id}" (not in {ENEMIES_FILE}){did_you_mean(enemy_id, known)}'


# --- bounds across fields (§ DESIGN errors: what check-content accepts runs to its end) -------


def check_balance_bounds(balance: Balance) -> list[Problem]:
    """The frame buffers preallocated at `capacities` fit MAX_BUFFER_BYTES, and the default wave
    length runs at most MAX_WAVE_FRAMES frames."""
    problems: list[Problem] = []
    capacities = balance.capacities.model_dump()
    total = sum(rows * BUFFER_ROW_BYTES[name] for name, rows in capacities.items())
    if total > MAX_BUFFER_BYTES:
        biggest = max(capacities, key=lambda name: capacities[name] * BUFFER_ROW_BYTES[name])
        problems.append(
            Problem(
                BALANCE_FILE,
                "$.capacities",
                f"the buffers take {total / 2**20:.1f} MiB, more than {MAX_BUFFER_BYTES // 2**20} MiB "
                f"(rows × bytes per row; the most: {biggest}, {BUFFER_ROW_BYTES[biggest]} bytes a row)",
            )
        )
    frames = wave_frames(balance.wave.duration, balance.sim.tick_hz)
    if frames > MAX_WAVE_FRAMES:
        problems.append(
            Problem(BALANCE_FILE, "$.wave.duration", _frames_reason(balance.wave.duration, balance.sim.tick_hz, frames))
        )
    # R-WAVE-1: a boss wave lasts until its boss falls, at most until the stall cap.
    stall = balance.wave.boss.stall_after
    frames = wave_frames(stall, balance.sim.tick_hz)
    if frames > MAX_WAVE_FRAMES:
        reason = _frames_reason(stall, balance.sim.tick_hz, frames)
        problems.append(Problem(BALANCE_FILE, "$.wave.boss.stall_after", reason))
    return problems


def wave_frames(duration: float, tick_hz: int) -> int:
    """The frames a wave of `duration` seconds runs (as `artificer.game.run.WaveInProgress`)."""
    return round(duration * tick_hz)


def _frames_reason(duration: float, tick_hz: int, frames: int) -> str:
    return (
        f"{duration:g} s at {BALANCE_FILE} sim.tick_hz {tick_hz} is {frames} frames, "
        f"more than {MAX_WAVE_FRAMES} (duration × tick_hz)"
    )


def check_wave_bounds(schedule: WaveSchedule, balance: Balance, roster: EnemyRoster | None) -> list[Problem]:
    """Each wave runs at most MAX_WAVE_FRAMES frames; a group's spawn at once fits the enemy pool
    (`capacities.enemies`); a wave spawns at most MAX_WAVE_SPAWNS enemies (count × spawns summed
    over its groups, a splitter's children counted when enemies.json loaded)."""
    problems: list[Problem] = []
    tick_hz = balance.sim.tick_hz
    pool = balance.capacities.enemies
    children = (
        {} if roster is None else {enemy.id: enemy.split.count for enemy in roster.enemies if enemy.split is not None}
    )
    for wave_index, wave in enumerate(schedule.waves):
        where = f"$.waves[{wave_index}]"
        frames = wave_frames(wave.duration, tick_hz)
        if frames > MAX_WAVE_FRAMES:
            problems.append(Problem(WAVES_FILE, f"{where}.duration", _frames_reason(wave.duration, tick_hz, frames)))
        spawned = 0
        for group_index, group in enumerate(wave.groups):
            if group.count > pool:
                reason = f"spawns {group.count} enemies at once, more than {BALANCE_FILE} capacities.enemies ({pool})"
                problems.append(Problem(WAVES_FILE, f"{where}.groups[{group_index}].count", reason))
            spawned += group.total_enemies() * (1 + children.get(group.enemy, 0))
        if spawned > MAX_WAVE_SPAWNS:
            reason = (
                f"spawns {spawned} enemies, more than {MAX_WAVE_SPAWNS} a wave "
                "(count × (until − start) / every, summed over the groups, splits' children included)"
            )
            problems.append(Problem(WAVES_FILE, f"{where}.groups", reason))
    return problems
