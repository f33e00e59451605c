"""The content checker behind `artificer check-content`: load everything, list every problem.

This module owns the checker's output and exit code (DESIGN §6): one summary
line and exit 0 when the content is clean, otherwise one line per problem
(`file: $.json.path: reason`) and exit 2.
"""

from __future__ import annotations

from pathlib import Path

from artificer.content.builds import load_builds
from artificer.content.loader import DEFAULT_DATA_DIR, load_content
from artificer.content.models import ContentError

EXIT_OK = 0
EXIT_BAD_CONTENT = 2


def run(data_dir: Path | None = None) -> int:
    """Check the content in `data_dir` (default: the shipped data); print the result; return the exit code."""
    directory = Path(data_dir) if data_dir is not None else DEFAULT_DATA_DIR
    try:
        content = load_content(directory)
        load_builds(content, directory)
    except ContentError as error:
        for problem in error.problems:
            print(problem)
        return EXIT_BAD_CONTENT
    print(
        f"content OK: {len(content.enemies)} enemies, {len(content.waves)} waves, {len(content.spells)} spells, "
        f"{len(content.cores)} cores, {len(content.recipes)} recipes, {len(content.relics.relics)} relics, {len(content.potions.potions)} potions (data: {directory})"
    )
    return EXIT_OK
