"""`artificer run --headless`: a seeded run of waves 1..K played by the
kiting bot, reported as one JSON-ready dict (a public contract: keys are
only ever added). Same seed ⇒ the same report, byte for byte (R-DET-1).
"""

from __future__ import annotations

from typing import Any

from artificer.content import Content
from artificer.game.run import Run
from artificer.sim.bot import KitingBot


def run_headless(content: Content, seed: int, waves: int) -> dict[str, Any]:
    run = Run(content, seed)
    arena = (content.balance.arena.width, content.balance.arena.height)
    bot = KitingBot(arena)
    outcome = "survived"
    for number in range(1, waves + 1):
        stats = run.play_wave(number, bot)
        if stats.frames < round(content.wave(number).duration * content.balance.sim.tick_hz):
            outcome = "died"
            break
    return {
        "seed": seed,
        "waves": [w.as_json() for w in run.waves],
        "result": {
            "wave_reached": len(run.waves),
            "outcome": outcome,
            "state_hash": f"{run.sim.state_hash():016x}",
            "currency": run.currency,
            "frames": run.sim.world.frame,
        },
    }
