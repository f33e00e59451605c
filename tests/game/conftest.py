"""Game-layer test setup: a headless SDL (dummy video and audio) for the tests here that open the
game's screens (Continue, the Records screen), set before pygame is imported anywhere (with
`setdefault`: an Xvfb run can still choose a real driver), as tests/ui/conftest.py does."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
