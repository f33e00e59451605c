"""Tips shown once (R-ONB-1's lessons, R-ONB-2's contextual tips): each remembered in meta.json `tips`.

`show_once(tip, show, text)` calls `show(text)` (a scene's toast) the first time `tip` comes up, and
records it, so no tip repeats — across runs and sessions. A failed write is logged; the tip is then
remembered for this session only.
"""

from __future__ import annotations

from collections.abc import Callable

from artificer.game.meta import load_meta, update_meta

#: Seconds a lesson or a tip shows (R-ONB-1/2), in whichever scene it comes up.
TIP_SECONDS = 10.0

#: The tips shown, ever: meta.json's, read once a session, and those shown since (None: not read yet).
_known: set[str] | None = None


def seen(tip: str) -> bool:
    global _known
    if _known is None:
        _known = set(load_meta().meta.tips)
    return tip in _known


def show_once(tip: str, show: Callable[[str], None], text: str, remember: bool = True) -> bool:
    """Shows `text` through `show` unless `tip` was shown before; True when it showed. `remember`:
    written to meta.json (False: this session only — a practice run keeps no progress, R-END-5)."""
    if seen(tip):
        return False
    show(text)
    assert _known is not None  # seen() read it
    _known.add(tip)
    if remember:
        update_meta(lambda meta: meta.tip_shown(tip))
    return True


def forget_session() -> None:
    """Forgets this session's memory (tests start each from meta.json alone)."""
    global _known
    _known = None
