"""A simple bot player for headless runs (R-SIM-1): it kites away from the
nearest enemies, keeps off the walls, dashes out of contact, and walks to
currency when nothing is close. The crowd is read in one core pass a frame (`_core.repel`).
During a wave it drinks a healing potion when its HP falls below
`DRINK_BELOW` of the maximum (R-POT-1, `drink_when_hurt`).

Its tuning is the bot's own (a test harness, not game balance), named here.
"""

from __future__ import annotations

import math

from artificer import _core
from artificer.content.potions import PotionEffect
from artificer.engine import Simulation
from artificer.engine.frame import EnemyColumn, PickupColumn
from artificer.game.potions import PotionError
from artificer.game.run import Run, WaveInProgress

DANGER_RADIUS = 220.0  # enemies closer than this push the bot away
PANIC_RADIUS = 44.0  # an enemy this close (centre to centre) triggers a dash
SAFE_RADIUS = 160.0  # with no enemy this close, the bot goes for currency
WALL_MARGIN = 160.0  # within this of a wall the bot steers back inward
WALL_WEIGHT = 2.5
PICKUP_WEIGHT = 1.0
DRINK_BELOW = 0.4  # a healing potion is drunk below this share of max HP
#: `_core.repel` and `_core.nearest_row` read x and y as a row's first two columns (checked at import).
assert (int(EnemyColumn.X), int(EnemyColumn.Y), int(PickupColumn.X), int(PickupColumn.Y)) == (0, 1, 0, 1)


class KitingBot:
    """Keeps away from the enemies, off the walls of the world's arena (`Simulation.arena`: an
    endless wave's may be shrunk, R-END-3), and picks up crystals while it is safe."""

    def control(self, sim: Simulation) -> None:
        buffers = sim.buffers
        px, py = buffers.player_value("x"), buffers.player_value("y")
        # Each enemy within DANGER_RADIUS pushes, with weight rising as it nears (one pass in the core).
        move_x, move_y, nearest = _core.repel(buffers.enemy_rows(), px, py, DANGER_RADIUS)
        wall_x, wall_y = self._walls(px, py, sim.arena)
        move_x, move_y = move_x + wall_x, move_y + wall_y
        pickups = buffers.pickup_rows()
        if nearest > SAFE_RADIUS and len(pickups):
            i = _core.nearest_row(pickups, px, py)  # the first of the nearest, as argmin over them all
            assert i is not None
            to_x, to_y = float(pickups[i, PickupColumn.X]) - px, float(pickups[i, PickupColumn.Y]) - py
            reach = max(math.hypot(to_x, to_y), 1.0)
            move_x, move_y = move_x + PICKUP_WEIGHT * to_x / reach, move_y + PICKUP_WEIGHT * to_y / reach
        # math.hypot, not numpy's on scalars (a µs each): it may differ in the last bit of an f64,
        # which the f32 controls round away (every golden and sweep row kept its bytes).
        norm = math.hypot(move_x, move_y)
        if norm > 1e-6:
            sim.input.move(move_x / norm, move_y / norm)
        if nearest < PANIC_RADIUS and buffers.player_value("dash_cooldown") <= 0.0:
            sim.input.dash()

    @staticmethod
    def _walls(px: float, py: float, arena: tuple[float, float]) -> tuple[float, float]:
        """The push back inward within WALL_MARGIN of a wall, per axis."""
        w, h = arena

        def inward(pos: float, size: float) -> float:
            if pos < WALL_MARGIN:
                return WALL_WEIGHT * (WALL_MARGIN - pos) / WALL_MARGIN
            if pos > size - WALL_MARGIN:
                return -(WALL_WEIGHT * (pos - (size - WALL_MARGIN)) / WALL_MARGIN)
            return 0.0

        return inward(px, w), inward(py, h)


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
