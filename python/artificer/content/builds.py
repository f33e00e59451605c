"""Build archetypes for the headless simulator (R-SIM-1): `data/builds.json`.

This module owns the archetype file — each build names the core it wants,
the cards it wants on that core's board in slot order, the stats it
buys first, and the aether unlocks (R-META-1) it assumes, so that cards
with an unlock cost can be offered — and its validation: the schema through pydantic, then every
spell and core id checked against the content, one `Problem` per mistake.
The file is optional (a data directory without it has no builds);
`artificer check-content` reports its problems with the rest.
The bot that shops toward a build is `artificer.sim.shopper`.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, ValidationError

from artificer.content.loader import Content, parse_json, read_text
from artificer.content.models import ID_PATTERN, ContentError, ContentModel, Problem, WandStat, did_you_mean
from artificer.content.schema_errors import problems_from_validation
from artificer.content.wand_code import WandCodeError, decode

BUILDS_FILE = "builds.json"


class Build(ContentModel):
    """One archetype: the core it plays, the board it wants, the stats it buys."""

    id: str = Field(pattern=ID_PATTERN, description="Name given to `artificer run --build`.")
    core: str = Field(
        default="",
        pattern=r"^$|" + ID_PATTERN,
        description="The core the build wants (bought when offered, then active); or give `code`.",
    )
    board: tuple[str | None, ...] = Field(
        default=(), max_length=256, description="Cards in that core's slot order (null: leave empty); or give `code`."
    )
    code: str | None = Field(
        default=None,
        max_length=1024,
        description="The core and board as a wand code (the lab's Ctrl+C, e.g. AW1-CQIIDGQZ), instead of core and board.",
    )
    stats: tuple[WandStat, ...] = Field(default=(), description="Stat upgrades to buy with gold left over, in order.")
    unlocks: tuple[str, ...] = Field(
        default=(),
        description="Spells and cores with an unlock cost the build assumes unlocked with aether (R-META-1).",
    )
    control: bool = Field(
        default=False,
        description="A control, not an archetype (R-CURVE-1's `hold` bot): `--builds all` leaves it out; "
        "name it to sweep it.",
    )


class BuildBook(ContentModel):
    builds: tuple[Build, ...] = Field(min_length=1, max_length=1_000, description="The archetypes.")


def load_builds(content: Content, data_dir: Path | None = None) -> dict[str, Build]:
    """The builds of `data_dir/builds.json` (default: the content's data dir), checked against `content`;
    none when the file does not exist. Raises `ContentError` listing every problem."""
    path = Path(data_dir if data_dir is not None else content.data_dir) / BUILDS_FILE
    problems: list[Problem] = []
    if not path.exists() and not path.is_symlink():
        return {}
    # Read and parsed as every content file is: a directory, bytes that are not UTF-8, nesting
    # too deep or a number too long is one problem, never a traceback (DESIGN §6).
    text = read_text(path, BUILDS_FILE, problems)
    duplicates = None if text is None else parse_json(BUILDS_FILE, text, problems)
    if text is None or duplicates is None:
        raise ContentError(problems)
    try:
        book = BuildBook.model_validate_json(text, strict=True)
    except ValidationError as error:
        raise ContentError([*duplicates, *problems_from_validation(BUILDS_FILE, BuildBook, error)]) from None
    problems.extend(duplicates)
    spells = {spell.id for spell in content.spells}
    cores = {core.id: core for core in content.cores}
    seen: set[str] = set()
    builds = list(book.builds)
    for index, build in enumerate(builds):
        where = f"$.builds[{index}]"
        if build.code is not None:
            if build.core or build.board:
                problems.append(Problem(BUILDS_FILE, f"{where}.code", "give code, or core and board, not both"))
                continue
            try:
                wand = decode(content, build.code)
            except WandCodeError as err:
                problems.append(Problem(BUILDS_FILE, f"{where}.code", str(err)))
                continue
            build = builds[index] = build.model_copy(update={"core": wand.core, "board": wand.cards})
        elif not build.core or not build.board:
            problems.append(Problem(BUILDS_FILE, where, "a build needs a core and a board, or a code"))
            continue
        if build.id in seen:
            problems.append(Problem(BUILDS_FILE, f"{where}.id", f'duplicate build id "{build.id}"'))
        seen.add(build.id)
        core = cores.get(build.core)
        if core is None:
            problems.append(
                Problem(
                    BUILDS_FILE,
                    f"{where}.core",
                    f'unknown core "{build.core}"{did_you_mean(build.core, sorted(cores))}',
                )
            )
        elif len(build.board) > core.capacity:
            problems.append(
                Problem(
                    BUILDS_FILE,
                    f"{where}.board",
                    f"{len(build.board)} cards do not fit {build.core} ({core.capacity} slots)",
                )
            )
        for slot, card in enumerate(build.board):
            if card is not None and card not in spells:
                problems.append(
                    Problem(
                        BUILDS_FILE,
                        f"{where}.board[{slot}]",
                        f'unknown spell "{card}"{did_you_mean(card, sorted(spells))}',
                    )
                )
        costs = {spell.id: spell.unlock_cost for spell in content.spells} | {
            core.id: core.unlock_cost for core in content.cores
        }
        for slot, item in enumerate(build.unlocks):
            if item not in costs:
                problems.append(
                    Problem(
                        BUILDS_FILE,
                        f"{where}.unlocks[{slot}]",
                        f'unknown spell or core "{item}"{did_you_mean(item, sorted(costs))}',
                    )
                )
            elif costs[item] == 0:
                problems.append(
                    Problem(BUILDS_FILE, f"{where}.unlocks[{slot}]", f'"{item}" needs no unlock (its unlock cost is 0)')
                )
    if problems:
        raise ContentError(problems)
    return {build.id: build for build in builds}
