"""The one place that pushes a run into the core's world — `WorldBinding`, no pygame.

`RunState` (`artificer.game.state`) changes without a world and marks what changed; the
binding takes the marks (`sync`, called after each change) and makes the world agree: the
wand compiled again (`Simulation.arm_wand`), the stats bought with the relics' passive bonuses
(`World.set_wand_stats`, `set_player_stats`, `set_attunement`, through `WandStats.apply`) and
the core's relic rules (`World.set_relic_rules`), Last Will armed (`World.set_last_will`). A
wave's start (`begin_wave`) and a save's restore (`restore`) go through it too. Nothing else in
`game/` calls a `World.set_*`: the order of what reaches the core is decided here.

The stats go to the world before the wand compiles and again after (R-STAT-1: the CPU stat
raises the compile-time CPU limit, so the wand compiles with it; the program's stats then
apply to the wand just built).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from artificer.engine import Simulation
from artificer.game.state import Change, RunState
from artificer.game.stats import LuckHolder


@dataclass(frozen=True)
class WandMemory:
    """The program wand's memory (`World.wand_memory`): what a persistent_memory core keeps
    between waves (R-VM-12, R-REG-1) — the deck's cursor, the two registers, the counters, kills."""

    cursor: int
    registers: list[int]
    counters: list[int]
    kills: int


@dataclass(frozen=True)
class CarriedWorld:
    """What of the world a run carries from one wave to the next (R-SAVE-1): the player's HP,
    max HP and position, whether Last Will is still armed, the core's random streams'
    positions and the wand's memory. Mana is not carried (R-MANA-1: every wave starts full)."""

    hp: float
    hp_max: float
    x: float
    y: float
    last_will: bool
    rng_state: list[int]
    wand_memory: WandMemory | None

    def to_save(self) -> dict[str, Any]:
        """The world's part of run.json (R-SAVE-1): `player`, `rng_state`, `wand_memory`."""
        return {
            "player": {"hp": self.hp, "hp_max": self.hp_max, "x": self.x, "y": self.y, "last_will": self.last_will},
            "rng_state": list(self.rng_state),
            "wand_memory": None if self.wand_memory is None else asdict(self.wand_memory),
        }

    @classmethod
    def from_save(cls, data: Mapping[str, Any]) -> CarriedWorld:
        """What `to_save` wrote (checked by the schema first)."""
        player, memory = data["player"], data["wand_memory"]
        return cls(
            player["hp"],
            player["hp_max"],
            player["x"],
            player["y"],
            player["last_will"],
            list(data["rng_state"]),
            None
            if memory is None
            else WandMemory(memory["cursor"], list(memory["registers"]), list(memory["counters"]), memory["kills"]),
        )


class WorldBinding:
    """Pushes `state` into `sim`'s world. `luck` takes the luck bought (the shop, R-STAT-1)."""

    def __init__(self, state: RunState, sim: Simulation, luck: LuckHolder) -> None:
        self.state = state
        self.sim = sim
        self.luck = luck
        #: The armed wand's diagnostics (`Simulation.arm_wand`).
        self.diagnostics: dict[str, Any] = {}

    def sync(self) -> None:
        """Tells the world what changed since the last sync (`RunState.changes`): a changed wand
        is compiled again (the stats with it), changed stats or relics are handed over again,
        Last Will just bought is armed."""
        changes = self.state.take_changes()
        if Change.WAND in changes:
            self.rearm()
        elif changes & {Change.STATS, Change.RELICS}:
            self.apply_stats()
        if Change.LAST_WILL in changes:
            self.sim.world.set_last_will(True)

    def apply_stats(self) -> None:
        """Hands the core the stats bought with the relics' passive bonuses on top (R-STAT-1,
        R-REL-1), and the relics' rules of the core."""
        state = self.state
        state.wand_stats.apply(self.sim.world, self.luck, state.relics.player_bonus())
        state.relics.apply_rules(self.sim.world)

    def rearm(self) -> dict[str, Any]:
        """Arms the loadout's active core with its cards; returns the diagnostics."""
        core, cards = self.state.loadout.wand()
        return self.arm(core, cards)

    def arm(self, core_id: str, cards: Sequence[str | None]) -> dict[str, Any]:
        """Arms the wand `core_id` with `cards` (the lab's or a test's; the loadout is not changed),
        the stats before it compiles and after; returns its diagnostics."""
        self.apply_stats()
        self.diagnostics = self.sim.arm_wand(core_id, list(cards))
        self.apply_stats()
        return self.diagnostics

    def begin_wave(self) -> None:
        """A wave begins: R-LOOP-1's heal (balance.json `wave.heal_between`, a share of max HP: at
        1, every wave starts at full HP), the world's wave start (R-MANA-1: a full pool; R-REG-1:
        registers reset; strength back to 0), then the relics' wave_start hook (R-REL-1: vajra's
        permanent strength set, the core's relic rules — burning_blood, blood_vial and meat_on_bone
        heal inside the wave, in the core —, anchor's ward queued for the first step)."""
        world, relics = self.sim.world, self.state.relics
        hp, hp_max = world.player_hp()
        if hp > 0:
            world.set_player_hp(self.next_wave_hp(hp, hp_max), hp_max)
        world.begin_wave()
        relics.wave_start(self.sim.input)
        world.set_strength(relics.strength)
        relics.apply_rules(world)

    def next_wave_hp(self, hp: float, hp_max: float) -> float:
        """R-LOOP-1: the HP a wave starts with after the last left `hp` of `hp_max` (balance.json
        `wave.heal_between`, a share of max HP, healed at `begin_wave`; the dead stay at 0)."""
        if hp <= 0:
            return hp
        return min(hp_max, hp + self.state.content.balance.wave.heal_between * hp_max)

    def carried(self) -> CarriedWorld:
        """What of the world the run carries into the next wave (a save's part)."""
        world = self.sim.world
        hp, hp_max = world.player_hp()
        x, y = world.player_position()
        memory = world.wand_memory()
        return CarriedWorld(
            hp,
            hp_max,
            x,
            y,
            world.last_will,
            world.rng_state(),
            None if memory is None else WandMemory(memory[0], memory[1], memory[2], memory[3]),
        )

    def restore(self, carried: CarriedWorld) -> None:
        """A rebuilt world takes what the run carried (a save's restore, after `rearm`): the
        streams, HP, position, Last Will (owned is not armed: a spent one comes back disarmed)
        and the wand's memory."""
        world = self.sim.world
        world.set_rng_state(carried.rng_state)
        world.set_player_hp(carried.hp, carried.hp_max)
        world.set_player_position(carried.x, carried.y)
        world.set_last_will(carried.last_will)
        memory = carried.wand_memory
        if memory is not None:
            world.set_wand_memory(memory.cursor, memory.registers, memory.counters, memory.kills)
