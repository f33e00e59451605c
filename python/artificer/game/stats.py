"""The run's numbers, with no simulation: what a wave reports (`WaveStats`, R-SIM-1) and the
stats the run bought (`WandStats`, R-STAT-1).

`WandStats.apply` hands the totals to a world; the run calls it from one place only
(`artificer.game.binding.WorldBinding`), whenever the stats, the relics or the wand changed
and at every wave start.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any, Protocol

from artificer._core import PlayerStats
from artificer.content.models import ATTUNEMENT_PREFIX, StatOffer, WandStat
from artificer.game.bosses import BossFight

if TYPE_CHECKING:
    from artificer._core import World


class LuckHolder(Protocol):
    """What takes the luck bought (R-STAT-1: the shop's tier odds, `artificer.game.shop.Shop`)."""

    luck: float


@dataclass
class WaveStats:
    """One wave's numbers, as the simulator reports them (R-SIM-1)."""

    wave: int
    kills: int = 0
    damage_dealt: float = 0.0
    damage_taken: float = 0.0
    max_alive: int = 0
    currency: int = 0
    frames: int = 0
    spawned: int = 0
    #: R-WAVE-1: enemies the wave's spawns would have brought past the cap (`max_alive`).
    held_back: int = 0
    #: R-END-1: the most damage one hit dealt (from the `hit_events` rule's
    #: ENEMY_HIT events; 0 when a simulation runs without that rule).
    biggest_hit: float = 0.0
    #: Damage taken per attacker: an enemy id, or "projectile" for enemy shots and blasts.
    damage_taken_by_source: dict[str, float] = field(default_factory=dict)
    #: Damage dealt per second of the wave (set when the wave ends).
    dps: float = 0.0
    #: R-END-1: Last Will spared the player from a lethal hit in this wave (a LAST_WILL event).
    last_will_spent: bool = False
    #: R-REL-3: relics the won wave awarded (an elite wave gives one).
    relics: list[str] = field(default_factory=list)
    #: R-REL-3: currency given instead of relics when every relic was owned.
    relic_currency: int = 0
    #: R-POT-2: potions the won wave dropped into the belt, and potions drunk during the wave.
    potions_found: int = 0
    potions_used: int = 0
    #: R-FEEL-2: seconds of the wave in which casts were being abandoned for mana: from a cast
    #: abandoned (CAST_ABANDONED) until the next cast that fires (CAST_FIRED), the frame of the
    #: abandoned cast included. (The core tries once per cast delay, R-VM-11, so counting only
    #: the frames of abandoned casts would report a wand dry for 13 s as under 1 s.)
    out_of_mana_s: float = 0.0
    #: R-FEEL-1: seconds the arena stood empty beyond the first `EMPTY_GRACE_S` of each stretch
    #: with no enemy alive, counted once the wave is `EMPTY_FROM_S` old (0 is the rule kept).
    empty_s: float = 0.0
    #: R-BOSS-2: a boss wave's fight (None for other waves).
    boss: BossFight | None = None
    #: R-END-3: a boss rush's fights in the order they came (`boss` is the latest; empty: no rush),
    #: the cards its clear gave and the gold given for those with no room.
    rush: list[BossFight] = field(default_factory=list)
    rush_cards: list[str] = field(default_factory=list)
    rush_currency: int = 0

    def to_save(self) -> dict[str, Any]:
        """run.json's entry for this wave (R-SAVE-1: the summary's numbers), every field as it is:
        `dataclasses.asdict`'s dict, made without its deep copies (every value here is a number, a
        string, a list or dict of them, or a boss fight): the run settles twice a wave and saves
        every wave so far each time (issue 44's profile)."""
        out: dict[str, Any] = {}
        for name in _WAVE_FIELDS:
            value = getattr(self, name)
            if isinstance(value, BossFight):
                value = _fight(value)
            elif isinstance(value, list):
                value = [_fight(v) if isinstance(v, BossFight) else v for v in value]
            elif isinstance(value, dict):
                value = dict(value)
            out[name] = value
        return out

    @classmethod
    def from_save(cls, data: Mapping[str, Any]) -> WaveStats:
        """The wave `to_save` wrote (checked by the schema first); its lists and dicts copied."""
        values: dict[str, Any] = {
            k: list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v for k, v in data.items()
        }
        if isinstance(values.get("boss"), Mapping):
            values["boss"] = BossFight(**_copied(values["boss"]))
        values["rush"] = [
            BossFight(**_copied(fight)) if isinstance(fight, Mapping) else fight for fight in values.get("rush", [])
        ]
        return cls(**values)

    def as_json(self) -> dict[str, Any]:
        """The headless report's entry (R-SIM-1): the float numbers rounded to 3 decimals."""
        out = asdict(self)
        out["damage_dealt"] = round(self.damage_dealt, 3)
        out["damage_taken"] = round(self.damage_taken, 3)
        out["biggest_hit"] = round(self.biggest_hit, 3)
        # R-BOSS-3: a boss wave's entry gains its fight's keys; other waves' are as they were.
        out.pop("boss")
        if self.boss is not None:
            out.update(self.boss.as_json())
        # R-END-3: a boss rush's entry gains each fight and the cards its clear gave; others' are as they were.
        for key in ("rush", "rush_cards", "rush_currency"):
            out.pop(key)
        if self.rush:
            out["boss_rush"] = [fight.as_json() for fight in self.rush]
            out["boss_rush_cards"] = list(self.rush_cards)
            out["boss_rush_currency"] = self.rush_currency
        out["damage_taken_by_source"] = {k: round(v, 3) for k, v in sorted(self.damage_taken_by_source.items())}
        out["dps"] = round(self.dps, 3)
        out["out_of_mana_s"] = round(self.out_of_mana_s, 3)
        out["empty_s"] = round(self.empty_s, 3)
        return out


@dataclass
class WandStats:
    """R-STAT-1: the stats the run bought: the wand's (`World.set_wand_stats`: CPU in whole
    points, cast speed 0..0.95, accuracy 0..1), the player's (`World.set_player_stats`),
    attunement per element (`World.set_attunement`) and luck (the shop's tier odds)."""

    totals: dict[WandStat, float] = field(default_factory=lambda: {stat: 0.0 for stat in WandStat})
    purchases: dict[WandStat, int] = field(default_factory=lambda: {stat: 0 for stat in WandStat})

    def to_save(self) -> dict[str, Any]:
        """run.json's `wand_stats` (R-SAVE-1: prices step with the purchases)."""
        return {"totals": dict(self.totals), "purchases": dict(self.purchases)}

    @classmethod
    def from_save(cls, data: Mapping[str, Any]) -> WandStats:
        """The stats `to_save` wrote (checked by the schema first: one entry per stat)."""
        return cls(totals=dict(data["totals"]), purchases=dict(data["purchases"]))

    def add(self, offer: StatOffer) -> None:
        """One purchase of `offer`'s stat (the total stops at its `max`)."""
        total = min(offer.max, self.totals[offer.stat] + offer.amount)
        self.totals[offer.stat] = round(total, 6)  # 0.05 × 3 stays 0.15, not 0.15000000000000002
        self.purchases[offer.stat] += 1

    def apply(self, world: World, shop: LuckHolder | None = None, bonus: Mapping[str, float] | None = None) -> None:
        """Hands the totals to the core (it clamps cast speed and accuracy to their ranges):
        the wand's stats, the player's, attunement per element; and luck to `shop`. `bonus`
        (R-REL-1: the relics' `max_hp_bonus`, `mana_regen_bonus`) adds to the player's."""
        totals = self.totals
        extra = bonus or {}
        world.set_wand_stats(int(totals[WandStat.CPU]), totals[WandStat.CAST_SPEED], totals[WandStat.ACCURACY])
        world.set_player_stats(
            PlayerStats(
                max_hp_bonus=totals[WandStat.MAX_HP] + extra.get("max_hp_bonus", 0.0),
                armor=totals[WandStat.ARMOR],
                move_speed_bonus=totals[WandStat.MOVE_SPEED],
                crit_chance_bonus=totals[WandStat.CRIT_CHANCE],
                pickup_radius_bonus=totals[WandStat.PICKUP_RADIUS],
                mana_regen_bonus=totals[WandStat.MANA_REGEN] + extra.get("mana_regen_bonus", 0.0),
                mana_leech=totals[WandStat.MANA_LEECH],
                mana_max_bonus=totals[WandStat.MAX_MANA],
            )
        )
        world.set_attunement(
            {
                stat.value.removeprefix(ATTUNEMENT_PREFIX): total
                for stat, total in totals.items()
                if stat.value.startswith(ATTUNEMENT_PREFIX)
            }
        )
        if shop is not None:
            shop.luck = totals[WandStat.LUCK]


#: `WaveStats`'s fields in their order (`to_save` writes them so, as `asdict` does).
_WAVE_FIELDS = tuple(f.name for f in fields(WaveStats))


def _fight(fight: BossFight) -> dict[str, Any]:
    """`asdict(fight)`: its fields in order, its phases a new list."""
    return {name: list(v) if isinstance(v, list) else v for name, v in ((n, getattr(fight, n)) for n in _FIGHT_FIELDS)}


_FIGHT_FIELDS = tuple(f.name for f in fields(BossFight))


def _copied(data: Mapping[str, Any]) -> dict[str, Any]:
    """A saved fight's fields, its lists copied."""
    return {k: list(v) if isinstance(v, list) else v for k, v in data.items()}
