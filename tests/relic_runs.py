"""What the relic tests share (tests/game/test_relics.py, test_relic_waves.py): the shipped
content, a relic's value, and a run that owns some relics (R-REL-1)."""

from __future__ import annotations

from artificer.content import Content, load_content
from artificer.game.run import Run

CONTENT = load_content()
BOOK = CONTENT.relics


def value(relic_id: str) -> float:
    """The relic's `value` in relics.json."""
    return BOOK.relic(relic_id).value


def run_with(*relics: str, seed: int = 7, content: Content = CONTENT) -> Run:
    """A new run (seed `seed`) that owns `relics` besides the starting ones."""
    run = Run(content, seed)
    for relic_id in relics:
        run.gain_relic(relic_id)
    return run
