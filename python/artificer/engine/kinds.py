"""The roster as the core reads it (`config["enemies"]`, R-WAVE-2, R-BOSS-1): one dict a kind.

An enemy is its enemies.json entry. A boss is its body with `behavior:
"boss"` and a `boss` block: its shot, its hyper-enrage and its phases, each
phase's tags turned into the core's pattern blocks (`spread`, `barrage`,
`burst`, `reflect`, `plates`, `adds`, `clones`, `last_will`) with the
parameters the tag needs; NG+ (`ng_plus` ≥ 1) appends its `ng_plus_phase`.
A clone is its boss's body at `clone_hp_ratio` of its HP, a boss of one chasing phase.
The order is `artificer.content.roster`'s.
"""

from __future__ import annotations

from typing import Any

from artificer.content import Content
from artificer.content.bosses import SPREAD_PATTERN, Boss, BossPhase, BossTag
from artificer.content.roster import clone_id, clone_phase, roster


def core_kinds(
    content: Content,
    ng_plus: int = 0,
    cursed: bool = False,
    difficulty: float = 1.0,
    wave_hp: float = 1.0,
    wave_damage: float = 1.0,
) -> list[dict[str, Any]]:
    """Every kind of the roster as the core's config dict, in the core's order; at NG+ level
    `ng_plus` its HP and damage × enemy_stat_multiplier**level and its shots' speed ×
    enemy_projectile_speed_multiplier**level (R-END-2, balance.json `ng_plus`); in cursed waves
    (R-META-1's challenge mode) its HP × balance.json `meta.cursed_waves.enemy_hp_multiplier`;
    in an endless wave its HP and damage × `difficulty` (R-END-3); in any wave its HP ×
    `wave_hp` and its damage × `wave_damage`, the wave's own (waves.json, R-WAVE-1)."""
    kinds = _kinds(content, ng_plus)
    if ng_plus > 0:
        settings = content.balance.ng_plus
        stat = settings.enemy_stat_multiplier**ng_plus
        speed = settings.enemy_projectile_speed_multiplier**ng_plus
        for kind in kinds:
            _harder(kind, stat, stat, speed)
    if cursed:
        for kind in kinds:
            kind["hp"] *= content.balance.meta.cursed_waves.enemy_hp_multiplier
    hp, damage = difficulty * wave_hp, difficulty * wave_damage
    if (hp, damage) != (1.0, 1.0):  # the wave's HP and damage; its shots' speed as they were
        for kind in kinds:
            _harder(kind, hp, damage, 1.0)
    return kinds


def _harder(kind: dict[str, Any], hp: float, damage: float, speed: float) -> None:
    """`kind`'s HP × `hp`, its damage × `damage`, its shots' speed × `speed` (in place)."""
    kind["hp"] *= hp
    kind["contact_damage"] *= damage
    for block in ("attack", "explode"):
        if kind.get(block):
            kind[block] = {**kind[block], "damage": kind[block]["damage"] * damage}
    if kind.get("attack"):
        kind["attack"]["speed"] *= speed
    if kind.get("boss"):
        shot = kind["boss"]["shot"]
        kind["boss"]["shot"] = {**shot, "damage": shot["damage"] * damage, "speed": shot["speed"] * speed}


def _kinds(content: Content, ng_plus: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for kind in roster(content):
        if kind.enemy is not None:
            out.append(kind.enemy.model_dump(mode="json"))
        elif kind.boss is not None:
            out.append(boss_kind(kind.boss, ng_plus))
        elif kind.clone_of is not None:
            out.append(clone_kind(kind.clone_of, kind.id, kind.hp))
    return out


def clone_kind(boss: Boss, kind_id: str, hp: float) -> dict[str, Any]:
    """A boss's clone: its body at the clone's HP and no reward, a boss of one chasing phase
    without patterns (a boss kind, so its size counts only while it lives)."""
    chase = {
        "number": 1,
        "enter": 1.0,
        "exit": 0.0,
        "regen_on_physical_hit": 0.0,
        "speed_multiplier": 1.0,
        "damage_multiplier": 1.0,
    }
    return {
        **_body(kind_id, hp, boss),
        "reward": 0,
        "boss": {**_fight(boss), "phases": [chase]},
    }


def _body(kind_id: str, hp: float, boss: Boss) -> dict[str, Any]:
    body = boss.body
    return {
        "id": kind_id,
        "hp": hp,
        "speed": body.speed,
        "radius": body.radius,
        "contact_damage": body.contact_damage,
        "armor": body.armor,
        "reward": body.reward,
        "behavior": "boss",
    }


def _fight(boss: Boss) -> dict[str, Any]:
    hyper = boss.hyper_enrage
    return {
        "shot": boss.shot.model_dump(mode="json"),
        "enrage_after": boss.enrage_after,
        "telegraph": boss.telegraph,
        "hyper": {
            "speed": hyper.speed_multiplier,
            "damage": hyper.damage_multiplier,
            "interval": hyper.interval_multiplier,
            "chase": hyper.chase_player,
        },
    }


def boss_kind(boss: Boss, ng_plus: int) -> dict[str, Any]:
    """A boss as the core's kind: its body, and its phases (NG+'s too at `ng_plus` ≥ 1)."""
    phases = [*boss.phases, *([boss.ng_plus_phase] if ng_plus >= 1 and boss.ng_plus_phase is not None else [])]
    fight = {**_fight(boss), "phases": [core_phase(boss, phase) for phase in phases]}
    return {**_body(boss.boss_id, boss.body.hp, boss), "boss": fight}


def core_phase(boss: Boss, phase: BossPhase) -> dict[str, Any]:
    """One phase as the core's: its thresholds, resistances and multipliers, and a block per tag."""
    tags = set(phase.behavior_tags)
    out: dict[str, Any] = {
        "number": phase.phase,
        "enter": phase.hp_threshold_enter,
        "exit": phase.hp_threshold_exit,
        "resistances": {str(element): value for element, value in phase.resistances.items()},
        "regen_on_physical_hit": phase.regen_on_physical_hit,
        "regen_hit_cap": phase.regen_hit_cap,
        "stationary": BossTag.STATIONARY in tags,
        "speed_multiplier": phase.speed_multiplier,
        "damage_multiplier": phase.damage_multiplier,
        "hyper": BossTag.HYPER_ENRAGE in tags,
    }
    if BossTag.SPREAD_PROJECTILES in tags and phase.projectile_pattern is not None:
        match = SPREAD_PATTERN.match(phase.projectile_pattern)
        if match is not None:
            out["spread"] = {"count": int(match.group(1)), "every": phase.spread_interval}
    if BossTag.BARRAGE_MODE in tags:
        out["barrage"] = {
            "every": phase.barrage_interval,
            "shots": phase.barrage_shots,
            "spread_degrees": phase.barrage_spread_degrees,
        }
    if BossTag.FULLSCREEN_BURST in tags:
        out["burst"] = {"count": phase.burst_count, "every": phase.burst_interval}
    if BossTag.FRONTAL_REFLECTION in tags:
        out["reflect"] = {"arc": phase.reflect_arc, "reflect_damage": phase.reflect_damage}
    if BossTag.ARMOR_PLATES in tags:
        out["plates"] = {"count": phase.plates, "armor": phase.plate_armor, "weak": str(phase.weak_element)}
    if BossTag.SUMMON_ADDS in tags:
        out["adds"] = {"into": phase.add_enemy, "count": phase.add_count, "every": phase.add_interval}
    if BossTag.CLONE_SUMMON in tags and clone_phase(boss) is not None:
        out["clones"] = {"into": clone_id(boss), "count": phase.clone_count}
    if BossTag.LAST_WILL in tags:
        out["last_will"] = {"invulnerable": phase.invincible_duration, "restore": phase.hp_restore_ratio}
    return out
