"""UI test setup: a headless SDL (dummy video and audio) and a pygame display per test.

The environment variables must be set before pygame is imported anywhere, so
they are set here, at conftest import, with `setdefault` (an Xvfb run can
still choose a real driver).
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from artificer import storage  # noqa: E402
from artificer.ui import i18n  # noqa: E402

SCREEN_SIZE = (1280, 720)


@pytest.fixture
def display() -> Iterator[pygame.Surface]:
    """pygame initialized with a 1280×720 display surface; shut down after the test."""
    pygame.init()
    surface = pygame.display.set_mode(SCREEN_SIZE)
    try:
        yield surface
    finally:
        pygame.quit()


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every UI test saves under its own `ARTIFICER_HOME` (the run summary writes a PNG, R-SAVE-1),
    never into the user's real data dir."""
    home = tmp_path / "home"
    monkeypatch.setenv(storage.HOME_ENV, str(home))
    return home


@pytest.fixture(autouse=True)
def strict_texts() -> Iterator[None]:
    """Every UI test looks texts up strictly: a missing i18n key fails the test (R-I18N-1)."""
    i18n.set_language("en", strict=True)
    try:
        yield
    finally:
        i18n.set_language("en")
