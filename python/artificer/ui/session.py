"""What every scene of one game session shares: the settings, the input
mapping and the sound bank.

This module owns `Session`, built once after the window opens and handed to
the scenes that need it (title, arena, pause, settings). `Session.default()`
gives a silent session with default settings for tests and tools that
build a scene on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from artificer.ui.controls import Controls
from artificer.ui.settings import Settings
from artificer.ui.sound import SoundBank


@dataclass
class Session:
    settings: Settings
    controls: Controls
    sound: SoundBank | None = None

    @classmethod
    def default(cls) -> Session:
        """Default settings and controls, no sound."""
        settings = Settings()
        return cls(settings, Controls(settings), None)

    def play(self, name: str) -> None:
        """Play sound effect `name` if there is a sound bank (it rate-limits itself)."""
        if self.sound is not None:
            self.sound.play(name)
