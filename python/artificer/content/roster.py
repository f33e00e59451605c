"""The core's enemy roster (R-WAVE-2, R-BOSS-1): every kind the world knows, in the core's order.

A kind's index in this roster is its number in the core (an enemy row's
`kind`, an event's `a`): enemies.json's enemies first, in file order, then
the bosses of `data/bosses/` in boss_id order, then one clone kind for each
boss that summons clones (`clone_summon`, NG+'s Last Will), named
`<boss_id>_clone`. The engine builds the core's config from it, and the
renderer, the HUD and the wave statistics read names, looks and HP from it,
so the numbering is written once.
"""

from __future__ import annotations

from dataclasses import dataclass

from artificer.content.bosses import Boss, BossPhase, BossTag
from artificer.content.loader import Content
from artificer.content.models import Enemy


@dataclass(frozen=True)
class Kind:
    """One kind of the roster: an enemy, a boss, or a boss's clone."""

    #: Its id: the enemy's, the boss's, or "<boss_id>_clone".
    id: str
    #: Its entry in looks.json `enemies` (a clone looks like its boss).
    look: str
    #: The i18n key of its name.
    name_key: str
    #: Its maximum HP before elite or NG+ multipliers.
    hp: float
    enemy: Enemy | None = None
    boss: Boss | None = None
    #: The boss whose clone this is.
    clone_of: Boss | None = None


def clone_phase(boss: Boss) -> BossPhase | None:
    """The phase of `boss` that summons clones (the NG+ phase included), if any."""
    phases = [*boss.phases, *([boss.ng_plus_phase] if boss.ng_plus_phase is not None else [])]
    return next((phase for phase in phases if BossTag.CLONE_SUMMON in phase.behavior_tags), None)


def clone_id(boss: Boss) -> str:
    return f"{boss.boss_id}_clone"


def roster(content: Content) -> tuple[Kind, ...]:
    """Every kind of the core, in the core's order (enemies, bosses, clones)."""
    kinds = [Kind(enemy.id, enemy.id, f"enemy.{enemy.id}.name", enemy.hp, enemy=enemy) for enemy in content.enemies]
    bosses = [content.bosses[boss_id] for boss_id in sorted(content.bosses)]
    kinds += [Kind(boss.boss_id, boss.boss_id, boss.name_key, boss.body.hp, boss=boss) for boss in bosses]
    for boss in bosses:
        phase = clone_phase(boss)
        if phase is not None and phase.clone_hp_ratio is not None:
            hp = boss.body.hp * phase.clone_hp_ratio
            kinds.append(Kind(clone_id(boss), boss.boss_id, boss.name_key, hp, clone_of=boss))
    return tuple(kinds)


def kind_index(content: Content, kind_id: str) -> int:
    """The core's number of the kind `kind_id` (a KeyError naming it otherwise)."""
    for index, kind in enumerate(roster(content)):
        if kind.id == kind_id:
            return index
    raise KeyError(f"no enemy kind {kind_id!r} in the roster")
