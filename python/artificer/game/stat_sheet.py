"""R-STAT-2 the stats sheet's lines, with no pygame: every stat of `WandStat` (the one list of the
stats, R-STAT-1) with its value and what it does now, each figure read from the code that applies
it — the core's armed wand (`World.wand_figures`: the pool, the cast-speed and accuracy factors,
the CPU limit and step budget), its contact formula with the player's armor (`World.hit_taken`),
the player's stats after the bonuses (`World.player_stats`), balance.json's attunement per point
and crit multiplier, the shop's tier odds with the luck bought (`tier_odds`) and the compile's
CPU use — never a number typed again here.

A line is i18n keys and their parameters (`ui.stats.<stat>.value` / `.effect`); the window
translates them (`artificer.ui.stat_sheet`). `LINES` has one describer per stat, and a stat
without one fails loudly, so a new stat reaches the sheet with its data and i18n.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from artificer.content.models import ATTUNEMENT_PREFIX, WandStat
from artificer.game.run import Run
from artificer.game.shop import tier_odds

#: R-I18N-1: the sheet's keys are built per stat (`ui.stats.<stat>.value`, `.effect`).
I18N_DYNAMIC_PREFIXES: tuple[str, ...] = ("ui.stats.",)

#: The enemy whose touch the armor line weighs (R-DMG-1): the first wave's chaser.
ARMOR_REFERENCE_ENEMY = "grunt"


@dataclass(frozen=True)
class SheetLine:
    """One stat on the sheet: its name key, the value and effect texts as keys with parameters,
    and how much of it was bought (0: the line shows the starting figure)."""

    stat: WandStat
    value: tuple[str, Mapping[str, Any]]
    effect: tuple[str, Mapping[str, Any]]
    bought: float

    @property
    def name_key(self) -> str:
        return f"ui.shop.stat.{self.stat.value}.name"


@dataclass(frozen=True)
class _Now:
    """What every describer reads, taken once per sheet."""

    run: Run
    player: Mapping[str, float]
    wand: Mapping[str, float]
    bought: Mapping[WandStat, float]

    @classmethod
    def of(cls, run: Run) -> _Now:
        world = run.sim.world
        figures = world.wand_figures()
        if figures is None:  # no wand armed (never in a run's shop, lab or pause): arm the loadout's
            run.rearm()
            figures = world.wand_figures() or {}
        return cls(run, world.player_stats(), figures, dict(run.wand_stats.totals))


def _key(stat: WandStat, part: str) -> str:
    return f"ui.stats.{stat.value}.{part}"


def _cpu(now: _Now, stat: WandStat) -> SheetLine:
    used = int(now.run.binding.diagnostics.get("cpu_used", 0))
    limit, steps = int(now.wand["cpu_limit"]), int(now.wand["step_budget"])
    return SheetLine(
        stat, (_key(stat, "value"), {"limit": limit}), (_key(stat, "effect"), {"used": used, "limit": limit, "steps": steps}),
        now.bought[stat],
    )  # fmt: skip


def _cast_speed(now: _Now, stat: WandStat) -> SheetLine:
    factor = now.wand["wait_factor"]  # what the core multiplies every wait by (R-VM-11)
    shorter = 100.0 * (1.0 - factor)
    more = 100.0 * (1.0 / max(factor, 1e-6) - 1.0)
    share = 100.0 * now.wand["cast_speed"]
    return SheetLine(
        stat, (_key(stat, "value"), {"share": share}), (_key(stat, "effect"), {"shorter": shorter, "more": more}),
        now.bought[stat],
    )  # fmt: skip


def _accuracy(now: _Now, stat: WandStat) -> SheetLine:
    spread = 100.0 * now.wand["spread_factor"]
    share = 100.0 * now.wand["accuracy"]
    return SheetLine(
        stat, (_key(stat, "value"), {"share": share}), (_key(stat, "effect"), {"spread": spread, "narrower": 100.0 - spread}),
        now.bought[stat],
    )  # fmt: skip


def _max_hp(now: _Now, stat: WandStat) -> SheetLine:
    hp_max = now.run.sim.world.player_hp()[1]
    start = next_wave_hp(now.run)
    return SheetLine(
        stat, (_key(stat, "value"), {"hp_max": hp_max}), (_key(stat, "effect"), {"start": start, "hp_max": hp_max}),
        now.bought[stat],
    )  # fmt: skip


def _armor(now: _Now, stat: WandStat) -> SheetLine:
    world = now.run.sim.world
    hit = now.run.content.enemy(ARMOR_REFERENCE_ENEMY).contact_damage
    taken = world.hit_taken(hit)
    armor = now.player["armor"]
    effect = {"enemy_key": f"enemy.{ARMOR_REFERENCE_ENEMY}.name", "hit": hit, "taken": taken, "armor": armor}
    return SheetLine(stat, (_key(stat, "value"), {"armor": armor}), (_key(stat, "effect"), effect), now.bought[stat])


def _move_speed(now: _Now, stat: WandStat) -> SheetLine:
    speed = now.player["move_speed"]
    base = now.run.content.balance.player.move_speed
    # The core keeps f32 (240 comes back as 239.99998): four decimals, and never a "-0%".
    faster = round(100.0 * (speed / base - 1.0), 4) + 0.0 if base > 0 else 0.0
    return SheetLine(
        stat, (_key(stat, "value"), {"speed": speed}), (_key(stat, "effect"), {"faster": faster, "base": base}),
        now.bought[stat],
    )  # fmt: skip


def _mana_leech(now: _Now, stat: WandStat) -> SheetLine:
    leech = now.player["mana_leech"]
    return SheetLine(
        stat, (_key(stat, "value"), {"leech": leech}), (_key(stat, "effect"), {"leech": leech}), now.bought[stat]
    )


def _crit_chance(now: _Now, stat: WandStat) -> SheetLine:
    chance = now.player["crit_chance"]
    multiplier = now.run.content.balance.player.crit_multiplier
    average = 100.0 * chance * (multiplier - 1.0)  # the expected share a hit gains, as the lab counts crits
    effect = {"chance": 100.0 * chance, "multiplier": multiplier, "average": average}
    return SheetLine(
        stat, (_key(stat, "value"), {"chance": 100.0 * chance}), (_key(stat, "effect"), effect), now.bought[stat]
    )


def _pickup_radius(now: _Now, stat: WandStat) -> SheetLine:
    reach = now.player["pickup_radius"]
    base = now.run.content.balance.pickups.pickup_radius
    return SheetLine(
        stat, (_key(stat, "value"), {"reach": reach}), (_key(stat, "effect"), {"reach": reach, "base": base}),
        now.bought[stat],
    )  # fmt: skip


def _mana_regen(now: _Now, stat: WandStat) -> SheetLine:
    total, pool = now.wand["mana_regen"], now.wand["mana_max"]
    core = now.run.content.core(now.run.loadout.active).mana_regen
    refill = pool / total if total > 0 else 0.0
    effect = {"core": core, "added": max(0.0, total - core), "refill": refill}
    return SheetLine(stat, (_key(stat, "value"), {"total": total}), (_key(stat, "effect"), effect), now.bought[stat])


def _max_mana(now: _Now, stat: WandStat) -> SheetLine:
    pool = now.wand["mana_max"]
    core = now.run.content.core(now.run.loadout.active).mana_max
    per_cast = float(now.run.binding.diagnostics.get("mana_per_cast", 0.0))
    casts = pool / per_cast if per_cast > 0 else 0.0
    effect = {"core": core, "added": max(0.0, pool - core), "casts": casts, "per_cast": per_cast}
    return SheetLine(stat, (_key(stat, "value"), {"pool": pool}), (_key(stat, "effect"), effect), now.bought[stat])


def _luck(now: _Now, stat: WandStat) -> SheetLine:
    run = now.run
    luck = run.shop.luck
    wave = max(1, run.shop.wave)
    better = min((entry.tier for entry in run.content.balance.shop.tier_odds), default=2)
    chance = tier_odds(run.content.balance.shop, wave, luck).get(better, 0.0)
    without = tier_odds(run.content.balance.shop, wave, 0.0).get(better, 0.0)
    effect = {"tier": better, "chance": 100.0 * chance, "without": 100.0 * without}
    return SheetLine(
        stat, (_key(stat, "value"), {"share": 100.0 * luck}), (_key(stat, "effect"), effect), now.bought[stat]
    )


def _attunement(now: _Now, stat: WandStat) -> SheetLine:
    element = stat.value.removeprefix(ATTUNEMENT_PREFIX)
    points = now.run.sim.world.attunement()[element]
    per_point = now.run.content.balance.statuses.attunement
    effect = {
        "damage": 100.0 * per_point.damage_per_point * points,
        "status": 100.0 * per_point.chance_per_point * points,
    }
    return SheetLine(
        stat, ("ui.stats.attunement.value", {"points": points}), (_key(stat, "effect"), effect), now.bought[stat]
    )


Describer = Callable[[_Now, WandStat], SheetLine]

#: One describer per stat (attunements share theirs).
LINES: Mapping[WandStat, Describer] = {
    WandStat.CPU: _cpu,
    WandStat.CAST_SPEED: _cast_speed,
    WandStat.ACCURACY: _accuracy,
    WandStat.MAX_HP: _max_hp,
    WandStat.ARMOR: _armor,
    WandStat.MOVE_SPEED: _move_speed,
    WandStat.MANA_LEECH: _mana_leech,
    WandStat.CRIT_CHANCE: _crit_chance,
    WandStat.PICKUP_RADIUS: _pickup_radius,
    WandStat.MANA_REGEN: _mana_regen,
    WandStat.MAX_MANA: _max_mana,
    WandStat.LUCK: _luck,
    **{stat: _attunement for stat in WandStat if stat.value.startswith(ATTUNEMENT_PREFIX)},
}


def sheet_lines(run: Run) -> list[SheetLine]:
    """R-STAT-2: a line for every stat, in `WandStat`'s order, as the run has them now."""
    now = _Now.of(run)
    return [LINES[stat](now, stat) for stat in WandStat]


def next_wave_hp(run: Run) -> float:
    """R-LOOP-1: the HP the next wave starts with — `WorldBinding.begin_wave`'s heal (balance.json
    `wave.heal_between`, a share of max HP) on the HP the last wave left."""
    hp, hp_max = run.sim.world.player_hp()
    return run.binding.next_wave_hp(hp, hp_max)
