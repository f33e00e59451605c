"""Shared test setup: make the `artificer` package importable from the source tree.

Without an installed wheel (`maturin develop`), tests import `python/artificer`
directly; pure-Python tests must not need the Rust extension.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

_PYTHON_SOURCE = Path(__file__).resolve().parent.parent / "python"
if str(_PYTHON_SOURCE) not in sys.path:
    sys.path.insert(0, str(_PYTHON_SOURCE))


@pytest.fixture
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Saves and settings go under a temporary `ARTIFICER_HOME`, never the user's data dir."""
    from artificer import storage

    home = tmp_path / "home"
    monkeypatch.setenv(storage.HOME_ENV, str(home))
    return home


@pytest.fixture
def display() -> Iterator[Any]:
    """pygame initialized with a 1280×720 display surface (the window's size); shut down after the
    test. Folders that draw set SDL's dummy drivers before pygame is imported (tests/ui/conftest.py)."""
    import pygame

    pygame.init()
    surface = pygame.display.set_mode((1280, 720))
    try:
        yield surface
    finally:
        pygame.quit()
