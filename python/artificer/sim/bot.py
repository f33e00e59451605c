"""A simple bot player for headless runs (R-SIM-1): it kites away from the
nearest enemies, keeps off the walls, dashes out of contact, and walks to
currency when nothing is close. Vectorised over the frame's enemy rows.
During a wave it drinks a healing potion when its HP falls below
`DRINK_BELOW` of the maximum (R-POT-1, `drink_when_hurt`).

Its tuning is the bot's own (a test harness, not game balance), named here.
"""

from __future__ import annotations

import numpy as np

from artificer import _core
from artificer.content.potions import PotionEffect
from artificer.engine import Simulation
from artificer.engine.frame import EnemyColumn, PickupColumn
from artificer.game.potions import PotionError
from artificer.game.run import Run, WaveInProgress

DANGER_RADIUS = 220.0  # enemies closer than this push the bot away
PANIC_RADIUS = 44.0  # an enemy this close (centre to centre) triggers a dash
SAFE_RADIUS = 160.0  # with no enemy this close, the bot goes for currency
#: The core's reach beyond DANGER_RADIUS (px): rows it hands over that numpy then leaves out.
REACH_SLACK = 1.0
WALL_MARGIN = 160.0  # within this of a wall the bot steers back inward
WALL_WEIGHT = 2.5
PICKUP_WEIGHT = 1.0
DRINK_BELOW = 0.4  # a healing potion is drunk below this share of max HP
#: The x and y columns of an enemy or pickup row, adjacent in both layouts (checked at import).
XY = slice(EnemyColumn.X, EnemyColumn.Y + 1)
assert (int(EnemyColumn.Y), int(PickupColumn.X), int(PickupColumn.Y)) == (
    EnemyColumn.X + 1,
    EnemyColumn.X,
    EnemyColumn.Y,
)


class KitingBot:
    """Keeps away from the enemies, off the walls of the world's arena (`Simulation.arena`: an
    endless wave's may be shrunk, R-END-3), and picks up crystals while it is safe."""

    def control(self, sim: Simulation) -> None:
        buffers = sim.buffers
        px, py = buffers.player_value("x"), buffers.player_value("y")
        enemies = buffers.enemy_rows()
        move = np.zeros(2)
        nearest = np.inf
        if len(enemies):
            # Only enemies within DANGER_RADIUS count, and their rows keep their order: the core
            # hands over those rows (and a few beyond, the reach's slack), numpy decides as before
            # on them alone — the same sums as over the whole crowd, without a pass over it.
            rows = enemies[_core.rows_within(enemies, px, py, DANGER_RADIUS + REACH_SLACK)]
            offset = np.array([px, py]) - rows[:, XY].astype(np.float64)
            dist = np.hypot(offset[:, 0], offset[:, 1])
            # Beyond the reach every branch below sees "far": the nearest counts only inside it.
            nearest = float(dist.min()) if len(dist) else np.inf
            if nearest < DANGER_RADIUS:  # some enemy is close (the test once, not a mask first)
                close = dist < DANGER_RADIUS
                near = dist[close]
                # Each close enemy pushes with weight rising as it nears.
                weight = (DANGER_RADIUS - near) / DANGER_RADIUS / np.maximum(near, 1.0)
                move += (offset[close] * weight[:, None]).sum(axis=0)
        move += self._walls(px, py, sim.arena)
        pickups = buffers.pickup_rows()
        if nearest > SAFE_RADIUS and len(pickups):
            i = _core.nearest_row(pickups, px, py)  # the first of the nearest, as argmin over them all
            assert i is not None
            to_pick = pickups[i, XY].astype(np.float64) - np.array([px, py])
            move += PICKUP_WEIGHT * to_pick / max(float(np.hypot(to_pick[0], to_pick[1])), 1.0)
        norm = float(np.hypot(*move))
        if norm > 1e-6:
            sim.input.move(*(move / norm))
        if nearest < PANIC_RADIUS and buffers.player_value("dash_cooldown") <= 0.0:
            sim.input.dash()

    def _walls(self, px: float, py: float, arena: tuple[float, float]) -> np.ndarray:
        w, h = arena
        push = np.zeros(2)
        for axis, (pos, size) in enumerate(((px, w), (py, h))):
            if pos < WALL_MARGIN:
                push[axis] += WALL_WEIGHT * (WALL_MARGIN - pos) / WALL_MARGIN
            elif pos > size - WALL_MARGIN:
                push[axis] -= WALL_WEIGHT * (pos - (size - WALL_MARGIN)) / WALL_MARGIN
        return push


def drink_when_hurt(run: Run, wave: WaveInProgress) -> bool:
    """R-POT-1: below `DRINK_BELOW` of max HP, drinks the first healing potion of the belt; True if it did."""
    buffers = run.sim.buffers
    hp, hp_max = buffers.player_value("hp"), buffers.player_value("hp_max")
    if hp <= 0 or hp >= DRINK_BELOW * hp_max:
        return False
    belt = run.potions
    for index in range(belt.slots):
        potion = belt.potion_at(index)
        if potion is not None and belt.book.potion(potion).effect == PotionEffect.HEAL:
            try:
                belt.use(run, wave, index)
            except PotionError:
                return False
            return True
    return False
