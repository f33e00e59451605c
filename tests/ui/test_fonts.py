"""Fonts that follow the language draw real glyphs, never missing-glyph boxes (R-I18N-1, DESIGN §7).

Two checks. A direct one: pygame-ce's `pygame.font.Font.metrics` reports the
`.notdef` box's metrics for a character the font lacks, so it cannot tell;
`pygame.freetype.Font.get_metrics` returns `None` for such a character, so
each language's font files (`artificer.ui.fonts.font_path`) are asked for
every character drawn in that language's font: its own texts, except that a
language's name in the settings (`ui.settings.language_name.<code>`, written
in that language in every file) is drawn in the font of the language it names
— the settings screen must draw it so. And a rendered one: the
`artificer.ui.fonts.font` the game draws with renders a real string of each
language differently from the same count of U+FFFF (a noncharacter no font
has, so it draws the box) — and the Latin font draws CJK text exactly as
those boxes, which proves the comparison can fail.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pygame
import pygame.freetype
import pytest

from artificer.ui import fonts
from artificer.ui.i18n import DEFAULT_DATA_DIR

LANGUAGES = ("en", "zh_CN", "ko", "ja")
NOT_A_GLYPH = "\uffff"
SIZE = 24
WHITE = (255, 255, 255)
# Sample keys: a title, a spell name and a HUD line, so each script's letters and punctuation show.
SAMPLE_KEYS = ("ui.title.game_name", "spell.fireball.name", "ui.arena.out_of_mana")

# A language's name, the same in every file, drawn in its own language's font.
LANGUAGE_NAME_PREFIX = "ui.settings.language_name."

# Characters a language's texts use that its font file lacks, known and reported: Noto Sans (Latin)
# has no "→" (ui.lab.warning.trigger_without_action, ui.training.node_mana) nor "≥" (spell.if_a_ge.name).
# The test fails when a new gap appears, and also when one closes, so this list is kept honest.
KNOWN_GAPS: dict[str, frozenset[str]] = {}


def texts(language: str) -> dict[str, str]:
    table = json.loads((DEFAULT_DATA_DIR / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    assert isinstance(table, dict)
    return {str(key): str(text) for key, text in table.items()}


def named_language(key: str) -> str | None:
    """The language a `ui.settings.language_name.<code>` key names (codes are lowercase in keys)."""
    if not key.startswith(LANGUAGE_NAME_PREFIX):
        return None
    code = key.removeprefix(LANGUAGE_NAME_PREFIX)
    return next(language for language in LANGUAGES if language.lower() == code)


def drawn_in(font_language: str) -> str:
    """Every text drawn in `font_language`'s font: its own texts, and every file's name for it."""
    return "".join(
        text
        for language in LANGUAGES
        for key, text in texts(language).items()
        if (named_language(key) or language) == font_language
    )


def sample(language: str) -> str:
    return " ".join(texts(language)[key] for key in SAMPLE_KEYS)


def as_boxes(text: str) -> str:
    """`text` with every visible character replaced by one the font surely lacks (spaces kept)."""
    return "".join(char if char.isspace() else NOT_A_GLYPH for char in text)


def pixels(surface: pygame.Surface) -> tuple[tuple[int, int], bytes]:
    return surface.get_size(), pygame.image.tobytes(surface, "RGBA")


@pytest.fixture
def freetype() -> Iterator[None]:
    pygame.freetype.init()
    try:
        yield
    finally:
        pygame.freetype.quit()


@pytest.mark.parametrize("bold", [False, True], ids=["regular", "bold"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_languages_font_has_a_glyph_for_every_character_drawn_in_it(
    language: str, bold: bool, freetype: None
) -> None:
    """R-I18N-1: every character of a language's texts (and of its name) is in that language's font file."""
    path = fonts.font_path(language, bold)
    assert path is not None, f"no font file for {language!r} (is pygame-gui installed?)"
    face = pygame.freetype.Font(str(path), SIZE)
    characters = sorted(set(drawn_in(language)))
    missing = {char for char, metrics in zip(characters, face.get_metrics("".join(characters))) if metrics is None}
    known = KNOWN_GAPS.get(language, frozenset())
    assert missing - known == set(), f"{path.name} lacks {sorted(missing - known)} drawn in it"
    assert known - missing == set(), f"{path.name} now has {sorted(known - missing)}: drop them from KNOWN_GAPS"


@pytest.mark.parametrize("bold", [False, True], ids=["regular", "bold"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_game_font_renders_each_language_as_real_glyphs(language: str, bold: bool, display: pygame.Surface) -> None:
    """R-I18N-1: `font(size, language=…)` draws a real string of the language, not a row of boxes."""
    face = fonts.font(SIZE, bold, language=language)
    text = sample(language)
    assert pixels(face.render(text, True, WHITE)) != pixels(face.render(as_boxes(text), True, WHITE))


@pytest.mark.parametrize(
    ("font_language", "text_language"), [("en", "zh_CN"), ("en", "ko"), ("en", "ja"), ("zh_CN", "ko")]
)
def test_a_font_without_a_script_draws_it_as_boxes_so_the_render_check_can_fail(
    font_language: str, text_language: str, display: pygame.Surface
) -> None:
    """The Latin font draws CJK text exactly as missing-glyph boxes (and the Chinese font draws Hangul
    so): the comparison above would catch a language shown in the wrong font."""
    face = fonts.font(SIZE, language=font_language)
    text = sample(text_language)
    assert pixels(face.render(text, True, WHITE)) == pixels(face.render(as_boxes(text), True, WHITE))
