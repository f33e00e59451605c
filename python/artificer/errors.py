"""The exception family of Arcane Artificer: every error the game raises on purpose.

Callers catch `ArtificerError` to handle any of them; subclasses say what went
wrong (bad content lives in `artificer.content`, bad core arguments here).
"""

from __future__ import annotations


class ArtificerError(Exception):
    """Base of every error the game raises on purpose (DESIGN §6)."""


class CoreArgumentError(ArtificerError, ValueError):
    """A bad argument handed to the core: wrong dtype or shape, NaN, unknown id, overflow."""
