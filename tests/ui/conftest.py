"""UI test setup: a headless SDL (dummy video and audio), a pygame display per test, and
`run_frames`, which plays a scene stack for a few frames after posting key presses.

The environment variables must be set before pygame is imported anywhere, so
they are set here, at conftest import, with `setdefault` (an Xvfb run can
still choose a real driver).
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from collections.abc import Callable, Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from artificer import storage  # noqa: E402
from artificer.ui import i18n  # noqa: E402
from artificer.ui.scene import SceneStack  # noqa: E402

SCREEN_SIZE = (1280, 720)


def _run_frames(stack: SceneStack, surface: pygame.Surface, n: int, keys: tuple[int, ...] = ()) -> None:
    """Post a key press per key in `keys`, then run `n` frames of 1/60 s: events, update, draw."""
    for key in keys:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
    for _ in range(n):
        for event in pygame.event.get():
            stack.handle_event(event)
        stack.update(1 / 60)
        stack.draw(surface, 0.0)


@pytest.fixture
def run_frames() -> Callable[..., None]:
    """The window's loop for a test that drives whole scenes with posted keys (the flow tests)."""
    return _run_frames


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every UI test saves under its own `ARTIFICER_HOME` (the run summary writes a PNG, R-SAVE-1),
    never into the user's real data dir."""
    home = tmp_path / "home"
    monkeypatch.setenv(storage.HOME_ENV, str(home))
    return home


@pytest.fixture(autouse=True)
def onboarding_done(isolated_home: Path) -> None:
    """Every UI test starts from a player who has done the first-run lessons (R-ONB-1; the onboarding
    tests start from a fresh player's meta.json), and no tip shown yet this session."""
    from artificer.game.meta import Meta, save_meta
    from artificer.ui import tips

    save_meta(Meta(onboarding_done=True))
    tips.forget_session()


@pytest.fixture(autouse=True)
def strict_texts() -> Iterator[None]:
    """Every UI test looks texts up strictly: a missing i18n key fails the test (R-I18N-1)."""
    i18n.set_language("en", strict=True)
    try:
        yield
    finally:
        i18n.set_language("en")
