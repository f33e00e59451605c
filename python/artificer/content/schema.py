"""JSON Schemas of the content files, for editors and designers (R-BOSS-1: "the JSON Schema is exported").

This module owns which model is the schema of which data file (`SCHEMA_MODELS`) and writing
them: `python -m artificer.content.schema DIR` writes one `<name>.schema.json` per file into
DIR — `balance.schema.json`, …, and `bosses.schema.json`, the schema every `bosses/<boss_id>.json`
follows. The schemas are pydantic's (`model_json_schema`), so each field's range and
description is the one check-content applies.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from artificer.content.bosses import BOSSES_DIR, Boss
from artificer.content.cores import CoreCatalog
from artificer.content.looks import LOOKS_FILE, Looks
from artificer.content.models import Balance, EnemyRoster, WaveSchedule
from artificer.content.potions import POTIONS_FILE, PotionBook
from artificer.content.recipes import RecipeBook, TextTable
from artificer.content.references import CORES_FILE, RECIPES_FILE, SPELLS_FILE, TEXTS_FILE
from artificer.content.relics import RELICS_FILE, RelicBook
from artificer.content.spells import SpellCatalog

#: Each data file (a boss file by its pattern) → (its schema's file name, its model).
SCHEMA_MODELS: Mapping[str, tuple[str, type[BaseModel]]] = {
    "balance.json": ("balance.schema.json", Balance),
    "enemies.json": ("enemies.schema.json", EnemyRoster),
    "waves.json": ("waves.schema.json", WaveSchedule),
    SPELLS_FILE: ("spells.schema.json", SpellCatalog),
    CORES_FILE: ("cores.schema.json", CoreCatalog),
    RECIPES_FILE: ("resonance_recipes.schema.json", RecipeBook),
    RELICS_FILE: ("relics.schema.json", RelicBook),
    POTIONS_FILE: ("potions.schema.json", PotionBook),
    LOOKS_FILE: ("looks.schema.json", Looks),
    TEXTS_FILE: ("i18n.schema.json", TextTable),
    f"{BOSSES_DIR}/<boss_id>.json": ("bosses.schema.json", Boss),
}


def content_schemas() -> dict[str, dict[str, Any]]:
    """Each schema file's name → its JSON Schema (with a title naming the data file it checks)."""
    schemas: dict[str, dict[str, Any]] = {}
    for data_file, (name, model) in SCHEMA_MODELS.items():
        schema = model.model_json_schema()
        schema["title"] = f"{data_file} ({schema.get('title', model.__name__)})"
        schemas[name] = schema
    return schemas


def write_schemas(directory: Path) -> list[Path]:
    """Write every schema into `directory` (made if missing); the paths written, in order."""
    directory.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name, schema in content_schemas().items():
        path = directory / name
        path.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written


def main(argv: Sequence[str]) -> int:
    """`python -m artificer.content.schema DIR`: write the schemas into DIR; 2 on a usage error."""
    if len(argv) != 1:
        print("usage: python -m artificer.content.schema DIR", file=sys.stderr)
        return 2
    for path in write_schemas(Path(argv[0])):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
