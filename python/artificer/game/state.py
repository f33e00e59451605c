"""What a run owns, with no simulation (R-LOOP-1): `RunState` — no pygame, no world.

The run's seed, its gold, the loadout (cores, slots, backpack, waiting area), the stats and
talents bought, the relics, the potion belt and the waves played. The shop, the lab and the
waves change it; none of them touches the core's world. Each change that the world must hear
of is marked (`changes`, a set of `Change`), and the one place that pushes the run into the
world (`artificer.game.binding.WorldBinding.sync`) takes the marks and acts on them after
each change. So the state can be built, changed, saved and tested without a simulation, and
what reaches the core is decided in one function.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from artificer.content import Content
from artificer.content.models import Talent
from artificer.engine import WorldMode
from artificer.game.draws import Key
from artificer.game.endless import wave_for
from artificer.game.journal import journaled
from artificer.game.loadout import Loadout
from artificer.game.potions import PotionBelt
from artificer.game.relics import RunRelics, relic_rng
from artificer.game.stats import WandStats, WaveStats


class Change(enum.Enum):
    """What changed in the state that the world must be told (`WorldBinding.sync`)."""

    #: The active core or its cards (the shop's core trades and switches, the lab), or the CPU
    #: stat (R-STAT-1: it raises the compile-time limit): the wand is compiled again.
    WAND = "wand"
    #: Stats bought: the wand's, the player's and attunement are handed over again.
    STATS = "stats"
    #: Relics gained: their passive bonuses (with the stats) and the core's relic rules.
    RELICS = "relics"
    #: R-END-1 Last Will bought: armed in the world until a lethal hit spends it (owned but
    #: spent stays spent: nothing else re-arms it).
    LAST_WILL = "last_will"


@dataclass
class RunState:
    """The run between (and during) waves, without its world."""

    content: Content
    seed: int
    loadout: Loadout
    currency: int = 0
    #: R-STAT-1: the stats bought in the shop, applied to whichever wand is armed.
    wand_stats: WandStats = field(default_factory=WandStats)
    #: R-END-1: the talents the run bought (each once per run; a spent one stays owned).
    talents: set[Talent] = field(default_factory=set)
    #: R-REL-1: the relics owned (a new run starts with relics.json `start`: iron_heart).
    relics: RunRelics = field(init=False)
    #: R-POT-2: the potion belt (3 slots; the Artisan's Belt relic sets `potions.slots` to 5).
    potions: PotionBelt = field(init=False)
    #: The waves played, in order (the summary's and the save's).
    waves: list[WaveStats] = field(default_factory=list)
    #: What changed since the world was last told (`WorldBinding.sync` takes them).
    changes: set[Change] = field(default_factory=set)
    #: R-END-2: the run's New Game+ level (0: the game as it ships), chosen when it began.
    ng_plus: int = 0
    #: R-END-5: a practice run (begun at a milestone wave): it pays no aether and records nothing.
    practice: bool = False
    #: R-META-1: a run of the cursed-waves challenge mode (harder enemies, more elites).
    cursed: bool = False
    #: R-END-5: the wave the run began at (1; a practice run's milestone wave).
    first_wave: int = 1
    #: R-ONB-1: the onboarding step the run began with (0: none, the whole game).
    onboarding: int = 0
    #: R-END-3: an endless run (it goes on past the last wave), and its next wave's difficulty.
    endless: bool = False
    difficulty: float = 1.0
    #: R-END-3: the next wave's global mutator (None: none) and its arena's share of the sides.
    mutator: str | None = None
    arena_scale: float = 1.0
    #: R-END-3: the run's end was settled into meta.json already (its victory), and it went on into endless.
    settled: bool = False

    def __post_init__(self) -> None:
        self.relics = RunRelics.starting(self.content.relics)
        self.potions = PotionBelt(self.content.potions)
        self.fit_belt()

    @classmethod
    def new(cls, content: Content, seed: int, ng_plus: int = 0, *, cursed: bool = False) -> RunState:
        """A new run (at NG+ level `ng_plus`, in cursed waves when `cursed`): the starting wand, no
        gold, nothing bought, relics.json's `start` relics."""
        return cls(content, seed, Loadout.starting(content), ng_plus=ng_plus, cursed=cursed)

    def to_save(self) -> dict[str, Any]:
        """The state's part of run.json (R-SAVE-1): the seed, the gold, each part's own `to_save`,
        the talents by id."""
        return {
            "seed": self.seed,
            "currency": self.currency,
            "loadout": self.loadout.to_save(),
            "wand_stats": self.wand_stats.to_save(),
            "talents": sorted(talent.value for talent in self.talents),
            "relics": self.relics.to_save(),
            "waves": [stats.to_save() for stats in self.waves],
            "potions": self.potions.to_save(),
            "ng_plus": self.ng_plus,
            "practice": self.practice,
            "cursed": self.cursed,
            "first_wave": self.first_wave,
            "onboarding": self.onboarding,
            "endless": self.endless,
            "difficulty": self.difficulty,
            "mutator": self.mutator,
            "arena_scale": self.arena_scale,
            "settled": self.settled,
        }

    @classmethod
    def from_save(cls, content: Content, data: Mapping[str, Any]) -> RunState:
        """The state `to_save` wrote (checked by the schema first). Nothing is marked: the world
        it goes into is armed whole (`Run`)."""
        state = cls(
            content,
            data["seed"],
            Loadout.from_save(content, data["loadout"]),
            currency=data["currency"],
            wand_stats=WandStats.from_save(data["wand_stats"]),
            talents={Talent(talent) for talent in data["talents"]},
            waves=[WaveStats.from_save(stats) for stats in data["waves"]],
            ng_plus=data.get("ng_plus", 0),
            practice=data.get("practice", False),
            cursed=data.get("cursed", False),
            first_wave=data.get("first_wave", 1),
            onboarding=data.get("onboarding", 0),
            endless=data.get("endless", False),
            difficulty=data.get("difficulty", 1.0),
            mutator=data.get("mutator"),
            arena_scale=data.get("arena_scale", 1.0),
            settled=data.get("settled", False),
        )
        state.relics = RunRelics.from_save(content.relics, data["relics"])
        state.potions = PotionBelt.from_save(content.potions, data["potions"])
        state.fit_belt()
        return state

    @property
    def next_wave(self) -> int:
        """The wave the run plays next (or plays now): the first, then one a wave played."""
        return self.first_wave + len(self.waves)

    def world_mode(self) -> WorldMode:
        """How the run's world differs from the content as it ships: its NG+ level, cursed waves,
        the next wave's endless difficulty, mutator and arena, and its own enemy HP and damage
        (waves.json `enemy_hp`, `enemy_damage`, R-WAVE-1; past the last wave, its template's)."""
        wave = wave_for(self.content, min(self.next_wave, self.content.balance.endless.max_wave))
        return WorldMode(
            self.ng_plus,
            self.cursed,
            self.difficulty,
            self.mutator,
            self.arena_scale,
            wave_hp=wave.enemy_hp,
            wave_damage=wave.enemy_damage,
        )

    def bosses_met(self) -> set[str]:
        """R-END-3: the bosses the run's waves have fought (a boss rush draws from them)."""
        return {fight.boss_id for stats in self.waves for fight in [stats.boss, *stats.rush] if fight is not None}

    def boss_rushes_cleared(self) -> tuple[int, ...]:
        """R-END-3: the waves whose boss rush the run cleared (each pays aether at the run's end)."""
        return tuple(s.wave for s in self.waves if s.rush and all(f.ttk_s is not None for f in s.rush))

    @journaled("state")
    def go_endless(self, settled: bool) -> None:
        """R-END-3: the run goes on past the content's last wave; `settled`: its victory was
        settled into meta.json first."""
        self.endless = True
        self.settled = self.settled or settled

    # --- marks -----------------------------------------------------------------------------

    def mark(self, *changes: Change) -> None:
        """Notes what the world must be told at the next `WorldBinding.sync`."""
        self.changes.update(changes)

    def take_changes(self) -> set[Change]:
        """The marks since the last call, cleared."""
        taken, self.changes = self.changes, set()
        return taken

    # --- gains -----------------------------------------------------------------------------

    def gain_talent(self, talent: Talent) -> None:
        """The run owns `talent` from now on; Last Will (R-END-1) is to be armed in the world."""
        self.talents.add(talent)
        if talent == Talent.LAST_WILL:
            self.mark(Change.LAST_WILL)

    def gain_relic(self, relic_id: str) -> None:
        """R-REL-1: the run owns `relic_id` from now on; its passive effect is to apply at once
        (more max HP heals as much; the core's rules change; the Artisan's Belt opens its slots)."""
        self.relics.add(relic_id)
        self.fit_belt()
        self.mark(Change.RELICS)

    def award_relic(self, *purpose: Key) -> str | None:
        """R-REL-3: an unowned relic of the pool, drawn by the run's seed and `purpose` (("wave",
        10, 0): wave 10's first), is the run's; when every relic is owned, relics.json
        `all_owned_currency` is given instead. Returns the relic's id, or None when currency was
        given."""
        relic_id = self.relics.draw(relic_rng(self.seed, *purpose))
        if relic_id is None:
            self.currency += self.content.relics.all_owned_currency
            return None
        self.gain_relic(relic_id)
        return relic_id

    def fit_belt(self) -> None:
        """R-POT-2: the belt's usable slots follow the relics (the Artisan's Belt sets them)."""
        self.potions.slots = self.relics.potion_slots(self.content.potions.base_slots)
