"""The playable game's user interface: window, scene stack, scenes, HUD (DESIGN §7).

This is the only package that imports pygame. Importing it (or any of its
modules) never opens a window and never calls `pygame.init()`: that happens
inside `App.run()` (`artificer.ui.app`), so tests and headless tools can import
the UI freely.
"""

import os as _os

# pygame prints a banner on first import; the game's output (and test logs) stay clean without it.
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
