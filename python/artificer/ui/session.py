"""What every scene of one game session shares: the settings, the input
mapping and the sound bank.

This module owns `Session`, built once after the window opens and handed to
the scenes that need it (title, arena, pause, settings). `Session.default()`
gives a silent session with default settings for tests and tools that
build a scene on its own.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from artificer.ui.controls import Controls
from artificer.ui.settings import Settings
from artificer.ui.sound import SOUND_NAMES, SoundBank

_log = logging.getLogger(__name__)


@dataclass
class Session:
    settings: Settings
    controls: Controls
    sound: SoundBank | None = None
    _unknown_sounds: set[str] = field(default_factory=set, repr=False)

    @classmethod
    def default(cls) -> Session:
        """Default settings and controls, no sound."""
        settings = Settings()
        return cls(settings, Controls(settings), None)

    def play(self, name: str) -> None:
        """Play sound effect `name` if there is a sound bank (it rate-limits itself).

        A name the bank does not know is logged once and otherwise ignored: a
        missing sound never stops the game.
        """
        if name not in SOUND_NAMES:
            if name not in self._unknown_sounds:
                self._unknown_sounds.add(name)
                _log.warning("no sound effect named %r", name)
            return
        if self.sound is not None:
            self.sound.play(name)
