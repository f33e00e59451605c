"""R-I18N-1: four languages, every player-facing string a key, and a missing key a test failure.

The text files in data/i18n/ are English (`en.json`, the reference), Simplified
Chinese (`zh_CN.json`), Korean (`ko.json`) and Japanese (`ja.json`). These
tests hold them to each other and to the code, without pygame:

* every language has exactly English's keys (each missing or extra key is
  listed), no text is empty, every text has the `{field}`s of its English text
  and formats with the values the English one takes, and each translation
  keeps English's key order and the file format (`json.dumps(table, indent=2,
  ensure_ascii=False)` and a newline) so diffs line up;
* every English key is used, counted from three sources:
  1. the content: any `*_key` field of a spell, core, recipe, enemy… as
     `load_content()` returns them (the loader itself checks, in
     `artificer.content.references.check_texts`, that en.json has each);
  2. the code: a string literal in a .py file under python/artificer that
     looks like a key — a dotted lowercase identifier (the content models'
     `I18N_KEY_PATTERN`) whose first word is a first word of en.json's keys
     (`spell`, `core`, `recipe`, `ui`, …). The constant parts of an f-string
     are not literals;
  3. a dynamic prefix (below);
* every key-like literal in the code names a key of en.json.

Dynamic keys. A module that builds keys at run time, e.g.
`tr(f"ui.lab.warning.{code}")`, declares their prefixes at module level:

    I18N_DYNAMIC_PREFIXES: tuple[str, ...] = ("ui.lab.warning.",)

The tests read the declarations with `ast` (no module is imported) and count
every key that starts with a declared prefix as used. The value must be a
literal tuple of strings, each made of dotted lowercase words ending in "."
("enemy.", "ui.lab.warning.") whose first word is a known one, and each must
match at least one English key (a stale declaration fails). Declare the
narrowest prefix: a broad one such as "ui." would hide keys nobody uses any
more. `artificer.ui.i18n`'s module docstring says the same.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import re
import string
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest
from pydantic import BaseModel

import artificer
from artificer.content import Content, load_content
from artificer.content.recipes import I18N_KEY_PATTERN
from artificer.ui.i18n import DEFAULT_DATA_DIR, DEFAULT_LANGUAGE

# R-I18N-1: the four languages, by text-file name.
LANGUAGES = ("en", "zh_CN", "ko", "ja")
TRANSLATIONS = tuple(language for language in LANGUAGES if language != DEFAULT_LANGUAGE)
TEXTS_DIR = DEFAULT_DATA_DIR / "i18n"
CODE_DIR = Path(artificer.__file__).resolve().parent
DYNAMIC_PREFIXES_NAME = "I18N_DYNAMIC_PREFIXES"
KEY = re.compile(I18N_KEY_PATTERN)
# A dynamic prefix: one or more dotted lowercase words, ending with the dot ("enemy.", "ui.lab.warning.").
PREFIX = re.compile(r"^[a-z][a-z0-9_]*\.([a-z0-9_]+\.)*$")
# Content fields that hold no content models.
NOT_CONTENT = frozenset({"texts", "data_dir"})
# Values that make a format field of each conversion type work; others get an int.
FLOAT_TYPES = frozenset("eEfFgGn%")


# --- the text files -------------------------------------------------------------------


def _no_duplicate_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    counts = Counter(key for key, _ in pairs)
    duplicates = sorted(key for key, count in counts.items() if count > 1)
    if duplicates:
        raise ValueError(f"duplicate keys: {duplicates}")
    return dict(pairs)


@cache
def texts(language: str) -> dict[str, str]:
    """The key → text table of `data/i18n/<language>.json`, in file order; duplicate keys raise."""
    path = TEXTS_DIR / f"{language}.json"
    table = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_no_duplicate_keys)
    assert isinstance(table, dict), f"{path}: expected a JSON object of key -> text"
    for key, text in table.items():
        assert isinstance(text, str), f"{path}: the text of {key!r} is not a string"
    return table


def english() -> dict[str, str]:
    return texts(DEFAULT_LANGUAGE)


def first_words() -> frozenset[str]:
    """The first words of English's keys ("spell", "core", "recipe", "ui", …): what a key starts with."""
    return frozenset(key.split(".", 1)[0] for key in english())


def format_fields(text: str) -> list[str]:
    """The `{field}` names of `text`, sorted, repeats kept (`"{a} {b:.0f} {a}"` → `["a", "a", "b"]`)."""
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


def sample_values(text: str) -> dict[str, object]:
    """A value for each field of `text` that its format spec accepts: a float for `f`/`g`/…, else an int."""
    values: dict[str, object] = {}
    for _, name, spec, _ in string.Formatter().parse(text):
        if name is not None:
            root = re.split(r"[.\[]", name, maxsplit=1)[0]
            values[root] = 2.5 if spec and spec[-1] in FLOAT_TYPES else 3
    return values


# --- what uses a key --------------------------------------------------------------------


def content_keys() -> dict[str, str]:
    """Every i18n key the content names (any `*_key` field, at any depth) → where it is named."""
    content = load_content()
    found: dict[str, str] = {}
    for group in dataclasses.fields(Content):
        if group.init and group.name not in NOT_CONTENT:
            for key, where in _model_keys(getattr(content, group.name), group.name):
                found.setdefault(key, where)
    return found


def _model_keys(value: object, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, BaseModel):
        model_id = getattr(value, "id", None)
        here = f"{where}[{model_id}]" if isinstance(model_id, str) else where
        for name in type(value).model_fields:
            item = getattr(value, name)
            if name.endswith("_key") and isinstance(item, str):
                yield item, f"{here}.{name}"
            else:
                yield from _model_keys(item, f"{here}.{name}")
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _model_keys(item, where)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _model_keys(item, where)


@dataclass
class CodeScan:
    """What the .py files under one directory say about i18n keys."""

    literals: dict[str, list[str]] = field(default_factory=dict)  # key-like literal → ["path:line", …]
    dynamic_prefixes: dict[str, str] = field(default_factory=dict)  # declared prefix → "path:line"
    bad_declarations: list[str] = field(default_factory=list)  # "path:line: why"


def scan_code(root: Path, words: frozenset[str]) -> CodeScan:
    """Collect the key-like string literals and the `I18N_DYNAMIC_PREFIXES` declarations under `root`.

    A literal is key-like when it matches `I18N_KEY_PATTERN` and its first word is in `words`.
    """
    scan = CodeScan()
    for path in sorted(root.rglob("*.py")):
        place = path.relative_to(root.parent).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        fstring_parts = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in fstring_parts
                and KEY.match(node.value)
                and node.value.split(".", 1)[0] in words
            ):
                scan.literals.setdefault(node.value, []).append(f"{place}:{node.lineno}")
        for statement in tree.body:
            _read_declaration(statement, f"{place}:{statement.lineno}", scan)
    return scan


def _read_declaration(statement: ast.stmt, place: str, scan: CodeScan) -> None:
    if isinstance(statement, ast.Assign):
        targets, value = statement.targets, statement.value
    elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
        targets, value = [statement.target], statement.value
    else:
        return
    if not any(isinstance(target, ast.Name) and target.id == DYNAMIC_PREFIXES_NAME for target in targets):
        return
    items = value.elts if isinstance(value, ast.Tuple) else None
    if items is None or not all(isinstance(item, ast.Constant) and isinstance(item.value, str) for item in items):
        scan.bad_declarations.append(f"{place}: {DYNAMIC_PREFIXES_NAME} must be a literal tuple of strings")
        return
    for item in items:
        assert isinstance(item, ast.Constant)
        scan.dynamic_prefixes.setdefault(str(item.value), place)


@cache
def shipped_code() -> CodeScan:
    return scan_code(CODE_DIR, first_words())


def _listing(keys: list[str], where: dict[str, str] | None = None) -> str:
    return "\n".join(f"  {key}" + (f"   ({where[key]})" if where and key in where else "") for key in keys)


# --- the languages hold the same keys ---------------------------------------------------------


def test_the_text_files_are_the_four_languages() -> None:
    """R-I18N-1: Simplified Chinese, English, Korean, Japanese — no language missing, no stray file."""
    assert sorted(path.stem for path in TEXTS_DIR.glob("*.json")) == sorted(LANGUAGES)


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_each_language_has_every_english_key_and_no_other(language: str) -> None:
    """R-I18N-1: a key missing from a language fails, listing the missing keys; an extra key fails too."""
    keys, reference = set(texts(language)), set(english())
    missing = [key for key in english() if key not in keys]
    extra = [key for key in texts(language) if key not in reference]
    assert not missing, f"{language}.json lacks {len(missing)} English key(s):\n{_listing(missing)}"
    assert not extra, f"{language}.json has {len(extra)} key(s) English does not:\n{_listing(extra)}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_text_is_empty(language: str) -> None:
    """R-I18N-1: a missing text is a failure, not a blank."""
    empty = [key for key, text in texts(language).items() if not text.strip()]
    assert not empty, f"empty texts in {language}.json:\n{_listing(empty)}"


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_each_text_has_the_format_fields_of_its_english_text(language: str) -> None:
    """R-I18N-1: `tr(key, wave=3)` fills the same `{field}`s, the same number of times, in every language."""
    table = texts(language)
    wrong = {
        key: f"{format_fields(table[key])} instead of {format_fields(text)}"
        for key, text in english().items()
        if key in table and format_fields(table[key]) != format_fields(text)
    }
    assert not wrong, f"format fields differ from English in {language}.json:\n{_listing(sorted(wrong), wrong)}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_text_formats_with_the_values_its_english_text_takes(language: str) -> None:
    """R-I18N-1: no stray brace or format spec makes `tr` raise in one language only."""
    table = texts(language)
    broken: dict[str, str] = {}
    for key, text in english().items():
        if key in table:
            try:
                table[key].format(**sample_values(text))
            except (ValueError, KeyError, IndexError, TypeError) as error:
                broken[key] = f"{type(error).__name__}: {error}"
    assert not broken, f"texts that do not format in {language}.json:\n{_listing(sorted(broken), broken)}"


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_each_translation_keeps_english_key_order_and_file_format(language: str) -> None:
    """R-I18N-1: a translation lists its keys in en.json's order, as `json.dumps(indent=2, ensure_ascii=False)`."""
    table = texts(language)
    shared = [key for key in english() if key in table]
    assert [key for key in table if key in english()] == shared, f"{language}.json's keys are not in en.json's order"
    expected = json.dumps(table, indent=2, ensure_ascii=False) + "\n"
    assert (TEXTS_DIR / f"{language}.json").read_text(encoding="utf-8") == expected


# --- every key is used, every used key exists --------------------------------------------------


def test_every_english_key_is_used_by_the_content_or_the_code() -> None:
    """R-I18N-1: a key nobody names is dead text; named by the content, a literal in the code, or a
    declared `I18N_DYNAMIC_PREFIXES` prefix (see the module docstring)."""
    scan = shipped_code()
    used = set(content_keys()) | set(scan.literals)
    prefixes = tuple(scan.dynamic_prefixes)
    unused = [key for key in english() if key not in used and not key.startswith(prefixes)]
    assert not unused, (
        f"{len(unused)} key(s) of en.json are used by neither the content nor python/artificer "
        f"(a key built at run time needs an {DYNAMIC_PREFIXES_NAME} declaration):\n{_listing(unused)}"
    )


def test_every_key_literal_in_the_code_names_an_english_key() -> None:
    """R-I18N-1: `tr("ui.x.y")` with no "ui.x.y" in en.json fails here, not as a key on screen."""
    literals = shipped_code().literals
    unknown = sorted(key for key in literals if key not in english())
    where = {key: ", ".join(literals[key]) for key in unknown}
    assert not unknown, f"key literals in python/artificer with no text in en.json:\n{_listing(unknown, where)}"


def test_every_key_the_content_names_has_a_text_in_every_language() -> None:
    """R-I18N-1: each spell, core and recipe shows its name in every language, not only in English."""
    named = content_keys()
    missing = {
        f"{language}: {key}": where
        for language in LANGUAGES
        for key, where in named.items()
        if key not in texts(language)
    }
    assert not missing, f"content keys without a text:\n{_listing(sorted(missing), missing)}"


def test_dynamic_prefix_declarations_are_literal_and_each_matches_a_key() -> None:
    """R-I18N-1: every `I18N_DYNAMIC_PREFIXES` entry is a literal "word.…." prefix of some English key."""
    scan = shipped_code()
    assert not scan.bad_declarations, "\n".join(scan.bad_declarations)
    words = first_words()
    malformed = {
        prefix: place
        for prefix, place in scan.dynamic_prefixes.items()
        if not PREFIX.match(prefix) or prefix.split(".", 1)[0] not in words
    }
    shape = 'prefixes must be dotted words ending in ".", like "enemy." or "ui.lab.warning."'
    assert not malformed, f"{shape}:\n{_listing(sorted(malformed), malformed)}"
    stale = {
        prefix: place
        for prefix, place in scan.dynamic_prefixes.items()
        if not any(key.startswith(prefix) for key in english())
    }
    assert not stale, f"declared prefixes that match no key of en.json:\n{_listing(sorted(stale), stale)}"


# --- the scanners themselves ------------------------------------------------------------------


def test_the_code_scan_finds_literals_and_declarations_and_skips_fstring_parts(tmp_path: Path) -> None:
    """The usage check can fail: it sees `tr("ui.a.b")`, not f-string pieces or other dotted strings."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "scene.py").write_text(
        'I18N_DYNAMIC_PREFIXES: tuple[str, ...] = ("ui.card.family.",)\n'
        'TITLE = "ui.a.b"\n'
        'LOGGER = "artificer.ui.scene"\n'
        "def label(kind: str) -> str:\n"
        '    return f"ui.card.family{kind}" + f"ui.x.y{kind}"\n',
        encoding="utf-8",
    )
    (package / "broken.py").write_text('I18N_DYNAMIC_PREFIXES = ["ui.a."]\n', encoding="utf-8")
    scan = scan_code(package, frozenset({"ui", "spell"}))
    assert scan.literals == {"ui.a.b": ["pkg/scene.py:2"]}
    assert scan.dynamic_prefixes == {"ui.card.family.": "pkg/scene.py:1"}
    assert scan.bad_declarations == [f"pkg/broken.py:1: {DYNAMIC_PREFIXES_NAME} must be a literal tuple of strings"]


def test_the_content_scan_finds_the_name_and_description_keys() -> None:
    """The content's `*_key` fields are found at any depth (a spell's name and description, a recipe's hint)."""
    named = content_keys()
    assert named["spell.spark_bolt.name"] == "spells[spark_bolt].name_key"
    assert "spell.spark_bolt.description" in named
    assert "recipe.plasma_storm.hint" in named
    assert "core.starter_wand.name" in named
