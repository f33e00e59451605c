"""`Simulation`: one core `World` with its frame buffers, built from content.

The one place that turns validated content into the plain data the core
takes (`world_config`), and the one per-frame call into the core (`step`).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from artificer import _core
from artificer.content import Content
from artificer.engine.frame import Capacity, FrameBuffers, FrameInput, StepCounts
from artificer.engine.kinds import core_kinds


@dataclass(frozen=True)
class WorldMode:
    """How a run's world differs from the content as it ships (the default: not at all)."""

    #: R-END-2: the New Game+ level (the bosses gain their ng_plus_phase, every kind is harder).
    ng_plus: int = 0
    #: R-META-1: cursed waves (every kind's HP raised).
    cursed: bool = False
    #: R-END-3: an endless wave's enemy HP and damage multiplier, its global mutator (None: none)
    #: and its arena's share of the sides (shrinking map).
    difficulty: float = 1.0
    mutator: str | None = None
    arena_scale: float = 1.0
    #: R-WAVE-1, R-CURVE-3: the wave's own enemy HP and damage multipliers (waves.json `enemy_hp`,
    #: `enemy_damage`; an endless wave has its template's).
    wave_hp: float = 1.0
    wave_damage: float = 1.0


def core_mutators(content: Content, mutator: str | None) -> dict[str, Any]:
    """R-END-3: the core's rules for the global mutator `mutator` (None: none) — mirror world,
    splitting monsters and mana inversion are the core's; shrinking map is the arena
    (`world_config`'s `arena_scale`) and elite flood the spawns (`artificer.game.endless`)."""
    rules = content.balance.endless.mutators
    split = rules.splitting.model_dump() if mutator == "splitting" else None
    inversion = rules.mana_inversion.model_dump() if mutator == "mana_inversion" else None
    return {"mirror": mutator == "mirror_world", "split": split, "inversion": inversion}


def world_config(
    content: Content, rules: Mapping[str, bool] | None = None, mode: WorldMode = WorldMode()
) -> dict[str, Any]:
    """The core's config: balance.json's sections and the roster, in kind order
    (`artificer.content.roster`: enemies.json's, then the bosses, then their clones), as the
    run's `mode` has them (its NG+ level, cursed waves, an endless wave's difficulty, global
    mutator and arena). The caller's own copy, to change at will."""
    return copy.deepcopy(_config(content, rules, mode))


def _config(content: Content, rules: Mapping[str, bool] | None, mode: WorldMode) -> dict[str, Any]:
    """`world_config`, made once per content, rules and mode, and shared: the core only reads
    it, and a run's world is rebuilt at every settle (issue 44's profile: making it was 5% of a
    headless run). An endless wave's is made each time: each wave has its own difficulty (the
    main waves' own HP and damage are at most one a wave)."""
    if mode.difficulty != 1.0:
        return _make_config(content, rules, mode)
    key = ("world_config", tuple(sorted((rules or {}).items())), mode)
    return content.made(key, lambda: _make_config(content, rules, mode))


def _make_config(content: Content, rules: Mapping[str, bool] | None, mode: WorldMode) -> dict[str, Any]:
    balance = content.balance.model_dump(mode="json")
    scale = mode.arena_scale
    arena = {"width": balance["arena"]["width"] * scale, "height": balance["arena"]["height"] * scale}
    return {
        "arena": arena,
        "sim": balance["sim"],
        "player": balance["player"],
        "pickups": balance["pickups"],
        "elite": balance["elite"],
        "vm": balance["vm"],
        "statuses": balance["statuses"],
        "turn": balance["turn"],
        "combat": balance["combat"],
        "enemies": core_kinds(content, mode.ng_plus, mode.cursed, mode.difficulty, mode.wave_hp, mode.wave_damage),
        "rules": dict(rules or {}),
        "mutators": core_mutators(content, mode.mutator),
    }


class Simulation:
    """A world, its `FrameInput` and its `FrameBuffers`.

    Game flow fills `self.input` during a frame and calls `step()`; the
    input is cleared after each step."""

    def __init__(
        self, content: Content, seed: int, rules: Mapping[str, bool] | None = None, mode: WorldMode = WorldMode()
    ) -> None:
        """`mode`: how the run's world differs from the content as it ships (`WorldMode`)."""
        self.content = content
        self.seed = seed
        self.mode = mode
        config = _config(content, rules, mode)
        #: The arena's (width, height) in world px: the content's, or an endless wave's shrunk one.
        self.arena: tuple[float, float] = (config["arena"]["width"], config["arena"]["height"])
        self.world = _core.World(config, seed)
        caps = content.balance.capacities
        self.input = FrameInput(caps.commands)
        self.buffers = FrameBuffers(
            Capacity(caps.enemies, caps.projectiles, caps.pickups, caps.events, caps.zones, caps.summons)
        )
        self.tick_hz = content.balance.sim.tick_hz
        self._catalog: _core.Catalog | None = None

    def arm_wand(
        self, core_id: str, cards: Sequence[str | None] | dict[str, str], trace: bool = False
    ) -> dict[str, Any]:
        """Arms the player with a spell program (R-VM-1); returns the
        compile diagnostics (CPU, mana per cast, fusions, warnings)."""
        from artificer.engine.wand import core_data, place, spell_catalog

        core = self.content.core(core_id)
        if self._catalog is None:
            self._catalog = spell_catalog(self.content)
        data = self.content.made(("core_data", core_id), lambda: core_data(core))  # the core only reads it
        return dict(self.world.set_spell_wand(self._catalog, data, place(core, cards), trace))

    def arm_starting_wand(self) -> dict[str, Any]:
        """R-ONB-1: balance.json's `starting_wand`."""
        start = self.content.balance.starting_wand
        return self.arm_wand(start.core, list(start.cards))

    def step(self) -> StepCounts:
        counts = self.buffers.step(self.world, self.input)
        self.input.clear()
        return counts

    def play_bot(
        self,
        limit: int,
        tuning: tuple[float, float, float, float, float, float],
        books: _core.HeadlessBooks,
        *,
        pacing: tuple[int, int],
        fang: tuple[int, float],
        drink_below: float | None,
        boss_kind: int | None,
        landings: Sequence[tuple[float, int, int, bool, float, float]] = (),
        max_alive: int | None = None,
    ) -> tuple[int, str, StepCounts, float, int]:
        """`step` with the input as set, then on with the kiting bot in the core for up to `limit`
        frames in all (`World.play_bot`, issue 44), the director's announced packs (`landings`,
        under the field's cap `max_alive`) landing as they come due: the buffers and the input as
        stepping each frame would leave them. Returns (frames, why they stopped, the last frame's
        counts, a heal queued for the next frame, the pack members the cap kept away)."""
        frame = self.input
        frames, stop, counts, caps, heal, held_back = self.world.play_bot(
            frame.controls, frame.commands, frame.n_commands, limit, tuning, self.arena,
            self.buffers.caps(), pacing, fang, drink_below, boss_kind, books, list(landings), max_alive,
        )  # fmt: skip
        last = self.buffers.write_after(self.world, caps, StepCounts(*counts))
        self.input.clear()
        return frames, stop, last, heal, held_back

    def state_hash(self) -> int:
        return self.world.state_hash()
