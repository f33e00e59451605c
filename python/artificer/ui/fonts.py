"""Fonts that follow the language (R-I18N-1, DESIGN §7).

This module owns the choice of typeface: the Noto Sans family pygame-gui
ships, one file per script — Latin for English, Noto Sans SC / JP / KR for
Simplified Chinese, Japanese and Korean — so CJK text renders instead of
boxes. `font(size, bold)` returns a cached `pygame.font.Font` for the active
language; the cache is keyed by language too, and is dropped when pygame
quits (a Font dies with `pygame.quit()`, and tests init and quit often).
`FONT_FILES` is also what a pygame-gui theme points its `font` blocks at.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pygame

from artificer.ui.i18n import catalog

#: language → (regular, bold) file names inside `pygame_gui.data`.
FONT_FILES: dict[str, tuple[str, str]] = {
    "en": ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf"),
    "zh_CN": ("NotoSansSC-Regular.otf", "NotoSansSC-Bold.otf"),
    "ja": ("NotoSansJP-Regular.otf", "NotoSansJP-Bold.otf"),
    "ko": ("NotoSansKR-Regular.ttf", "NotoSansKR-Bold.ttf"),
}

_cache: dict[tuple[str, int, bool], pygame.font.Font] = {}


def font_path(language: str, bold: bool = False) -> Path | None:
    """The font file for `language` (English's for an unknown one); `None` if pygame-gui's data is missing."""
    regular, heavy = FONT_FILES.get(language, FONT_FILES["en"])
    try:
        path = Path(str(resources.files("pygame_gui.data").joinpath(heavy if bold else regular)))
    except (ModuleNotFoundError, TypeError):
        return None
    return path if path.is_file() else None


def font(size: int, bold: bool = False, language: str | None = None) -> pygame.font.Font:
    """A font of `size` px for the active language (or `language`), cached until pygame quits."""
    if not pygame.font.get_init():
        pygame.font.init()
    if not _cache:
        # Fonts die with pygame.quit(); forget them then (pygame drops its quit list after calling it).
        pygame.register_quit(forget)
    lang = language or catalog().language
    key = (lang, size, bold)
    cached = _cache.get(key)
    if cached is None:
        cached = _cache[key] = pygame.font.Font(font_path(lang, bold), size)
    return cached


def forget() -> None:
    """Drop every cached font (call after `pygame.quit()` or a language change)."""
    _cache.clear()
