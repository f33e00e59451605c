"""A simple bot player for headless runs (R-SIM-1): it kites away from the
nearest enemies, keeps off the walls, dashes out of contact, and walks to
currency when nothing is close. Its steering is the core's (`_core.kite`, one pass a frame).
During a wave it drinks a healing potion when its HP falls below
`DRINK_BELOW` of the maximum (R-POT-1, `drink_when_hurt`).

Its tuning is the bot's own (a test harness, not game balance), named here.
"""

from __future__ import annotations

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
#: `_core.kite` reads x and y as a row's first two columns (checked at import).
assert (int(EnemyColumn.X), int(EnemyColumn.Y), int(PickupColumn.X), int(PickupColumn.Y)) == (0, 1, 0, 1)


#: The tuning as the core's steering takes it (`_core.kite`, `World.play_bot`).
TUNING = (DANGER_RADIUS, PANIC_RADIUS, SAFE_RADIUS, WALL_MARGIN, WALL_WEIGHT, PICKUP_WEIGHT)


class KitingBot:
    """Keeps away from the enemies, off the walls of the world's arena (`Simulation.arena`: an
    endless wave's may be shrunk, R-END-3), and picks up crystals while it is safe. The steering is
    the core's (`sim::kite`), one pass over the frame's rows; `World.play_bot` runs the same
    steering on the world's own pools between the frames the game needs to see (issue 44)."""

    tuning = TUNING

    def control(self, sim: Simulation) -> None:
        buffers = sim.buffers
        move, dash = _core.kite(
            buffers.enemy_rows(),
            buffers.pickup_rows(),
            buffers.player_value("x"),
            buffers.player_value("y"),
            buffers.player_value("dash_cooldown"),
            sim.arena,
            TUNING,
        )
        if move is not None:
            sim.input.move(*move)
        if dash:
            sim.input.dash()


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


def drink_share(run: Run) -> float | None:
    """`DRINK_BELOW` while the belt holds a healing potion (the core's headless frames stop
    before the frame the bot would drink one, `WaveInProgress.step_bot`), else None."""
    belt = run.potions
    for index in range(belt.slots):
        potion = belt.potion_at(index)
        if potion is not None and belt.book.potion(potion).effect == PotionEffect.HEAL:
            return DRINK_BELOW
    return None
