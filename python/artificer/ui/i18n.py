"""The text catalog: every player-facing string by key, in the chosen language (R-I18N-1).

This module owns loading `data/i18n/<language>.json` and looking keys up:
`tr(key, **fmt)` returns the text with `str.format` fields filled in. A
language without a file falls back to English; a key missing from the chosen
language falls back to its English text. In lenient mode (the game) a key
missing everywhere shows as the key itself, so a gap is visible but never a
crash; in strict mode (tests) any missing key raises `KeyError`, including a
key present in English but missing from the chosen language's own file.
The content loader (`artificer check-content`) validates the key format and
that the English file has every key the content names.

The four languages (zh_CN, en, ko, ja) hold exactly the same keys, and every
key is used: named by the content, written as a string literal in the code,
or built at run time under a declared prefix (tests/test_i18n_coverage.py).
A module that builds keys, e.g. `tr(f"ui.lab.warning.{code}")`, declares
their prefixes at module level, as a literal tuple the test reads with `ast`:

    I18N_DYNAMIC_PREFIXES: tuple[str, ...] = ("ui.lab.warning.",)

Each prefix ends with "." and must match some key; declare the narrowest one,
since every key under it counts as used.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

DEFAULT_LANGUAGE = "en"
DEFAULT_DATA_DIR = Path(__file__).resolve().parent.parent / "data"

_log = logging.getLogger(__name__)


def _read_table(path: Path) -> dict[str, str]:
    with path.open(encoding="utf-8") as file:
        table = json.load(file)
    if not isinstance(table, dict):
        raise ValueError(f"{path}: expected a JSON object of key -> text")
    return {str(key): str(value) for key, value in table.items()}


class Catalog:
    """The texts of one language, with English behind it."""

    def __init__(self, language: str = DEFAULT_LANGUAGE, *, strict: bool = False, data_dir: Path | None = None) -> None:
        directory = (Path(data_dir) if data_dir is not None else DEFAULT_DATA_DIR) / "i18n"
        self.strict = strict
        self._fallback = _read_table(directory / f"{DEFAULT_LANGUAGE}.json")
        language_file = directory / f"{language}.json"
        if language != DEFAULT_LANGUAGE and language_file.is_file():
            self.language = language
            self._texts = _read_table(language_file)
        else:
            if language != DEFAULT_LANGUAGE:
                _log.warning("no text file for language %r; using %r", language, DEFAULT_LANGUAGE)
            self.language = DEFAULT_LANGUAGE
            self._texts = self._fallback

    def __contains__(self, key: str) -> bool:
        return key in self._texts

    def keys(self) -> frozenset[str]:
        """Every key of the chosen language's own file."""
        return frozenset(self._texts)

    def tr(self, key: str, **fmt: object) -> str:
        """The text of `key` in this language, with `fmt` filled in (`str.format` fields)."""
        text = self._texts.get(key)
        if text is None:
            if self.strict:
                raise KeyError(f"no text for {key!r} in language {self.language!r}")
            text = self._fallback.get(key)
            if text is None:
                _log.warning("no text for %r", key)
                return key
        return text.format(**fmt) if fmt else text


_catalog: Catalog | None = None


def set_language(language: str, *, strict: bool = False, data_dir: Path | None = None) -> Catalog:
    """Load `language` as the catalog `tr` uses; return it."""
    global _catalog
    _catalog = Catalog(language, strict=strict, data_dir=data_dir)
    return _catalog


def catalog() -> Catalog:
    """The active catalog (English, lenient, loaded on first use)."""
    global _catalog
    if _catalog is None:
        _catalog = Catalog()
    return _catalog


def tr(key: str, **fmt: object) -> str:
    """The text of `key` in the active language, with `fmt` filled in (see `Catalog.tr`)."""
    return catalog().tr(key, **fmt)
