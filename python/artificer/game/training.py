"""The lab's training range (R-LAB-1): the wand fires at immortal dummies
that stand still, in the real `world.step`; reports the damage per second.

The lab's window draws it; `artificer wand --seconds` runs it headless.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from artificer.content import Content
from artificer.engine import EventKind, Simulation
from artificer.engine import events as ev

RANGE_RULES = {"player_fixed": True, "player_invulnerable": True, "enemies_immortal": True, "enemies_still": True}


@dataclass(frozen=True)
class RangeReport:
    seconds: float
    damage: float
    dps: float
    casts: int
    abandoned: int
    hits: int


class TrainingRange:
    def __init__(
        self,
        content: Content,
        core_id: str,
        cards: Sequence[str | None] | dict[str, str],
        seed: int = 0,
        trace: bool = False,
    ) -> None:
        """`trace`: the VM reports each node it runs (TRACE events), for the lab's slow-motion highlight."""
        self.sim = Simulation(content, seed, rules=RANGE_RULES)
        self.diagnostics = self.sim.arm_wand(core_id, cards, trace=trace)
        self.sim.world.begin_wave()
        setup = content.balance.training_range
        self.sim.step()  # the player buffer now holds where the player stands
        px, py = self.sim.buffers.player_value("x"), self.sim.buffers.player_value("y")
        kind = content.enemy_index(setup.dummy)
        first = -(setup.count - 1) / 2
        for i in range(setup.count):
            self.sim.input.spawn(kind, px + setup.distance, py + (first + i) * setup.spacing)

    def run(self, seconds: float) -> RangeReport:
        sim = self.sim
        frames = max(1, round(seconds * sim.tick_hz))
        damage, casts, abandoned, hits = 0.0, 0, 0, 0
        for _ in range(frames):
            counts = sim.step()
            rows = sim.buffers.event_rows()
            damage += counts.damage_dealt
            hits += counts.hits
            casts += ev.count(rows, EventKind.CAST_FIRED)
            abandoned += ev.count(rows, EventKind.CAST_ABANDONED)
        t = frames / sim.tick_hz
        return RangeReport(seconds=t, damage=damage, dps=damage / t, casts=casts, abandoned=abandoned, hits=hits)
