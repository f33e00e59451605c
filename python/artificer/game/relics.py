"""The run's relics (R-REL-1..3) — what they do and when, no pygame.

This module owns the relics a run holds (`RunRelics`: owned ids in the order
gained, and the per-run state some keep: vajra's permanent strength,
vampire_fang's kills toward the next heal) and what each hook does:

- passive (on pickup, and whenever the world is rebuilt): max HP and mana
  regen are bonuses on top of the stats bought (`player_bonus`, handed to
  `World.set_player_stats` with them by `WorldBinding.apply_stats`: raising max HP
  heals the same amount, as on pickup); golden_idol multiplies the currency
  picked up (`currency_multiplier`); vampire_fang heals every `every` kills
  (`on_kills`); potion_belt sets the belt's slots (`potion_slots`, read by
  the potions rules);
- wave_start (`wave_start`, after `World.begin_wave`, which resets strength
  to 0): vajra adds its value to the run's permanent strength, which the
  run's binding then sets in the world (`World.set_strength`); anchor wards
  (a frame command, applied in the wave's first step);
- the relic rules of the core (`CORE_RULES`, declared once in
  rust/sim/relics.rs; `core_rules` combines the owned relics' values, and
  their parameters, and hands them to `World.set_relic_rules`): bronze_scales'
  thorns, centennial_puzzle's and bag_of_prep's action budget,
  self_forming_clay's ward, pen_nib, the_boot, akabeko, champion_belt, and
  the heals inside the wave (R-REL-1; every wave begins at full HP, R-LOOP-1):
  burning_blood as an elite dies, blood_vial `seconds` into the wave,
  meat_on_bone once a wave on falling to `threshold` of max HP. In the core,
  so the headless run's frames the core plays alone heal as each frame from
  Python would (`World.play_bot`). The run re-applies them whenever its
  relics change and at every wave start (the world is rebuilt between waves,
  `game.save`).

Acquisition (R-REL-3): `draw` picks an unowned relic of the pool with a
generator seeded from the run seed and what the draw is for (`relic_rng`,
`artificer.game.draws`),
so a run's rewards replay; with none left the caller gives
`all_owned_currency` instead. An elite wave (a spawn group with elites)
gives one relic, a boss wave `boss_bonus_relics` more (`wave_relic_count`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from artificer._core import RelicRules
from artificer.content import Wave
from artificer.content.relics import CORE_RULES, Combine, Relic, RelicBook, RelicEffect
from artificer.game import draws

if TYPE_CHECKING:
    from artificer._core import World
    from artificer.engine.frame import FrameInput


#: How several relics of one core rule combine into its value (`CoreRule.combine`).
COMBINE: Mapping[Combine, Callable[[list[float]], float]] = {Combine.SUM: sum, Combine.MIN: min, Combine.MAX: max}


def relic_rng(seed: int, *purpose: draws.Key) -> np.random.Generator:
    """The generator of one relic draw of the run seeded `seed` (`purpose` names the draw:
    ("wave", 10, 0), ("shop", 7)), so draws replay without a saved generator state."""
    return draws.rng(seed, draws.RELIC, *purpose)


def wave_relic_count(wave: Wave, book: RelicBook) -> int:
    """R-REL-3: relics a won wave gives: one for an elite wave (a spawn group of elites),
    `boss_bonus_relics` more for a boss wave (waves.json `boss`)."""
    elite = any(group.elite for group in wave.groups)
    return (1 if elite or wave.boss else 0) + (book.boss_bonus_relics if wave.boss else 0)


def relic_text_values(relic: Relic) -> dict[str, float]:
    """The values a relic's description formats with: `{value}`, `{every}`, `{seconds}`,
    `{percent}` (golden_idol's share or meat_on_bone's threshold, in percent)."""
    rule = CORE_RULES.get(relic.effect)
    by_threshold = rule is not None and rule.param is not None and rule.param.field == "threshold"
    share = relic.threshold if by_threshold else relic.value
    return {"value": relic.value, "every": relic.every, "seconds": relic.seconds, "percent": round(share * 100, 6)}


class RunRelics:
    """The relics a run owns, in the order gained, and their per-run state."""

    def __init__(self, book: RelicBook, owned: Iterable[str] = (), strength: float = 0.0, kills: int = 0) -> None:
        self.book = book
        self.owned: list[str] = []
        #: R-REL-1 vajra: the strength the run has gained so far, set in the world at each wave start.
        self.strength = strength
        #: R-REL-1 vampire_fang: kills since its last heal.
        self.kills = kills
        for relic_id in owned:
            self.add(relic_id)

    def to_save(self) -> dict[str, Any]:
        """run.json's `relics` (R-SAVE-1): the relics owned in the order gained, vajra's strength and
        vampire_fang's kills."""
        return {"owned": list(self.owned), "strength": self.strength, "kills": self.kills}

    @classmethod
    def from_save(cls, book: RelicBook, data: Mapping[str, Any]) -> RunRelics:
        """The relics `to_save` wrote (checked by the schema first)."""
        return cls(book, data["owned"], data["strength"], data["kills"])

    @classmethod
    def starting(cls, book: RelicBook) -> RunRelics:
        """A new run's relics: `start` of relics.json (R-REL-1: iron_heart)."""
        return cls(book, book.start)

    # --- owning ------------------------------------------------------------------------

    def add(self, relic_id: str) -> Relic:
        """The run owns `relic_id` from now on (a KeyError for an unknown id, a ValueError for one
        already owned). `RunState.gain_relic` marks the change for the world (stats and the core's rules)."""
        relic = self.book.relic(relic_id)
        if relic_id in self.owned:
            raise ValueError(f"the run already owns the relic {relic_id!r}")
        self.owned.append(relic_id)
        return relic

    def __contains__(self, relic_id: object) -> bool:
        return relic_id in self.owned

    def relics(self) -> list[Relic]:
        return [self.book.relic(relic_id) for relic_id in self.owned]

    def unowned(self) -> list[str]:
        """R-REL-3: the pool's relics the run does not own, in pool order."""
        return [relic_id for relic_id in self.book.pool if relic_id not in self.owned]

    def draw(self, rng: np.random.Generator, exclude: Sequence[str] = ()) -> str | None:
        """R-REL-3: an unowned relic of the pool (not in `exclude`), or None when none is left."""
        candidates = [relic_id for relic_id in self.unowned() if relic_id not in exclude]
        return draws.pick(rng, candidates) if candidates else None

    # --- effects as numbers ---------------------------------------------------------------

    def total(self, effect: RelicEffect) -> float:
        """The sum of the values of the owned relics with `effect` (0 when none)."""
        return sum(relic.value for relic in self.relics() if relic.effect == effect)

    def player_bonus(self) -> dict[str, float]:
        """Passive bonuses on top of the stats bought (`World.set_player_stats` keywords)."""
        return {"max_hp_bonus": self.total(RelicEffect.MAX_HP), "mana_regen_bonus": self.total(RelicEffect.MANA_REGEN)}

    def currency_multiplier(self) -> float:
        """R-REL-1 golden_idol: currency picked up × this."""
        return 1.0 + self.total(RelicEffect.CURRENCY_BONUS)

    def potion_slots(self, base: int) -> int:
        """R-POT-2: the potion belt's slots: `base`, or the most a potion_belt relic gives."""
        slots = [int(relic.value) for relic in self.relics() if relic.effect == RelicEffect.POTION_SLOTS]
        return max([base, *slots])

    def core_rules(self) -> RelicRules:
        """R-REL-1/2: the relics whose effect is a rule of the core, as its rule parameters
        (`World.set_relic_rules`; 0 = off). Several relics of one rule combine as the core
        declares (`CoreRule.combine`): summed, or the shortest period / highest floor; a rule's
        parameter comes from the relics' field of its name (`CoreParam`: blood_vial's `seconds`,
        meat_on_bone's `threshold`), combined likewise (the earliest moment, the highest threshold)."""
        values: dict[str, float] = {}
        for name, rule in CORE_RULES.items():
            owned = [relic for relic in self.relics() if relic.effect == name]
            if owned:
                value = COMBINE[rule.combine]([relic.value for relic in owned])
                values[name] = int(value) if rule.whole else value
                if rule.param is not None:
                    field = rule.param.field
                    values[rule.param.name] = COMBINE[rule.param.combine]([getattr(r, field) for r in owned])
        return RelicRules(**values)

    # --- hooks -----------------------------------------------------------------------------

    def apply_rules(self, world: World) -> None:
        """Hands the core its relic rules (whenever relics change, at every wave start)."""
        world.set_relic_rules(self.core_rules())

    def wave_start(self, frame: FrameInput) -> None:
        """R-REL-1 wave_start, after `World.begin_wave`: vajra's strength grows (the run's binding
        then sets it in the world with the core's relic rules, `WorldBinding.begin_wave`);
        anchor's ward is queued for the wave's first step."""
        self.strength += self.total(RelicEffect.STRENGTH)
        ward = self.total(RelicEffect.WARD)
        if ward > 0:
            frame.ward(ward)

    def fang(self) -> tuple[int, float]:
        """R-REL-1 vampire_fang as `on_kills` counts it: (kills per heal, the heal), (0, 0.0) for
        no fang (the core's books count it the same way, `World.play_bot`)."""
        fangs = [r for r in self.relics() if r.effect == RelicEffect.HEAL_PER_KILLS and r.every > 0]
        if not fangs:
            return (0, 0.0)
        return (min(relic.every for relic in fangs), sum(relic.value for relic in fangs))

    def on_kills(self, kills: int, frame: FrameInput) -> float:
        """R-REL-1 vampire_fang: counts `kills`; queues a heal of its value per `every` kills
        (for the next step). Returns the HP queued."""
        if kills <= 0:  # most frames: no relic to look up
            return 0.0
        fangs = [r for r in self.relics() if r.effect == RelicEffect.HEAL_PER_KILLS and r.every > 0]
        if not fangs:
            return 0.0
        # Two relics of this effect (not in the shipped data) share the shorter count.
        times, self.kills = divmod(self.kills + kills, min(relic.every for relic in fangs))
        heal = times * sum(relic.value for relic in fangs)
        if heal > 0:
            frame.heal(heal)
        return heal
