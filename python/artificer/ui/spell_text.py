"""A spell's tooltip in numbers (R-FEEL-2): what the chip does, read from its data.

This module owns `spell_lines`, the one place that turns a `Spell` (spells.json,
`artificer.content.spells`) into the lines a tooltip shows, each with its tone:
the name, element and family, the description, then the numbers of its family
— an action's damage, flight, pierce, bounces, chain jumps, explosion, blast,
zone (damage per second, duration, radius, heal, pull) or summon (period,
duration, the share of each card's mana its casts pay); a modifier's changes
("+3 damage", "×1.6 speed", "+1 pierce"); a multicast's count and fan; a
trigger's kind and delay and its carrier bolt's numbers; a logic node's
condition, span and count — the status chance of its element (balance.json
`statuses.chance`), and its mana, CPU and cast delay.
`spell_tip` colours those lines for `artificer.ui.widgets.tooltip`; the lab and
the shop (offers, backpack, waiting area, a core's slots) both show it.

Every number comes from the content models and every string from the i18n
catalog; nothing here draws.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any

from artificer.content.models import Element, StatusSettings
from artificer.content.spell_blocks import (
    ActionBlock,
    ActionKind,
    LogicBlock,
    LogicKind,
    ModifierBlock,
    MulticastBlock,
    OrbitRing,
    ProjectilePath,
    TriggerBlock,
    TriggerKind,
)
from artificer.content.spells import Spell
from artificer.ui.atlas import ELEMENT_COLOURS
from artificer.ui.i18n import tr

Colour = tuple[int, int, int]

#: i18n keys built from data: element and family names (the shop's and the cards' own).
I18N_DYNAMIC_PREFIXES = ("ui.shop.element.", "ui.card.family.", "ui.spell.role.")

NAME = (255, 240, 200)
TEXT = (236, 232, 250)
NUMBER = (240, 228, 66)
COST = (150, 190, 255)
NO_ELEMENT = (170, 160, 210)


class Tone(StrEnum):
    """What a tooltip line is, so each screen can colour it."""

    NAME = "name"
    KIND = "kind"  # element · family, in the element's colour
    TEXT = "text"  # the description
    NUMBER = "number"  # what it does, in numbers
    STATUS = "status"  # the element's status chance, in the element's colour
    COST = "cost"  # mana, CPU, cast delay


Line = tuple[str, Tone]

STATUS_KEYS: dict[Element, str] = {
    Element.FIRE: "ui.spell.status.fire",
    Element.ICE: "ui.spell.status.ice",
    Element.LIGHTNING: "ui.spell.status.lightning",
    Element.POISON: "ui.spell.status.poison",
    Element.WATER: "ui.spell.status.water",
}
PATH_KEYS: dict[ProjectilePath, str] = {
    ProjectilePath.STRAIGHT: "ui.spell.path.straight",
    ProjectilePath.SINE: "ui.spell.path.sine",
    ProjectilePath.ORBIT: "ui.spell.path.orbit",
}
TRIGGER_KEYS: dict[TriggerKind, str] = {
    TriggerKind.ON_HIT: "ui.spell.trigger.on_hit",
    TriggerKind.TIMER: "ui.spell.trigger.timer",
    TriggerKind.ON_EXPIRE: "ui.spell.trigger.on_expire",
}
ADDS_TRIGGER_KEYS: dict[TriggerKind, str] = {
    TriggerKind.ON_HIT: "ui.spell.mod.adds_trigger.on_hit",
    TriggerKind.TIMER: "ui.spell.mod.adds_trigger.timer",
    TriggerKind.ON_EXPIRE: "ui.spell.mod.adds_trigger.on_expire",
}
LOGIC_KEYS: dict[LogicKind, str] = {
    LogicKind.IF_HP_LOW: "ui.spell.logic.if_hp_low",
    LogicKind.IF_ENEMY_CLOSE: "ui.spell.logic.if_enemy_close",
    LogicKind.IF_MOVING: "ui.spell.logic.if_moving",
    LogicKind.IF_STILL: "ui.spell.logic.if_still",
    LogicKind.IF_MANA_ABOVE: "ui.spell.logic.if_mana_above",
    LogicKind.LOOP: "ui.spell.logic.loop",
    LogicKind.HALT: "ui.spell.logic.halt",
    LogicKind.HALT_IF_REG_LT: "ui.spell.logic.halt_if_reg_lt",
    LogicKind.IF_REG_GE: "ui.spell.logic.if_reg_ge",
    LogicKind.REG_SET: "ui.spell.logic.reg_set",
    LogicKind.REG_ADD: "ui.spell.logic.reg_add",
    LogicKind.CHARGE_COUNTER: "ui.spell.logic.charge_counter",
    LogicKind.KILL_COMBO: "ui.spell.logic.kill_combo",
}


def spell_lines(spell: Spell, statuses: StatusSettings) -> list[Line]:
    """R-FEEL-2: the tooltip of `spell` — name, element · family, description, its numbers,
    its element's status chance, and its mana, CPU and cast delay."""
    element = str(spell.element) if spell.element is not None else "none"
    kind = tr(
        "ui.shop.spell_line", element=tr(f"ui.shop.element.{element}"), family=tr(f"ui.card.family.{spell.family}")
    )
    if spell.role is not None:  # R-VM-14: cheap, heavy or utility among its element's cards
        kind = f"{kind} · {tr(f'ui.spell.role.{spell.role}')}"
    lines: list[Line] = [(tr(spell.name_key), Tone.NAME), (kind, Tone.KIND), (tr(spell.description_key), Tone.TEXT)]
    if spell.action is not None:
        lines += _numbers(_action(spell.action))
    elif spell.modifier is not None:
        lines += _numbers(_modifier(spell.modifier))
    elif spell.multicast is not None:
        lines += _numbers(_multicast(spell.multicast))
    elif spell.trigger is not None:
        lines += _numbers(_trigger(spell.trigger))
    elif spell.logic is not None:
        lines += _numbers(_logic(spell.logic))
    status = _status(spell, statuses)
    if status is not None:
        lines.append((status, Tone.STATUS))
    lines.append((tr("ui.spell.cost", mana=spell.mana_cost, cpu=spell.cpu, delay=spell.cast_delay), Tone.COST))
    if spell.resets_cast_delay:  # R-VM-14: what it does to the wand, in its own words
        lines.append((tr("ui.spell.resets_delay"), Tone.NUMBER))
    if spell.recharge:
        lines.append((tr("ui.spell.recharge", seconds=spell.recharge), Tone.COST))
    return lines


def spell_tip(spell: Spell, statuses: StatusSettings, name_colour: Colour = NAME) -> list[tuple[str, Colour]]:
    """`spell_lines` coloured for the tooltip widget; the name in `name_colour` (a shop offer's tier)."""
    own = ELEMENT_COLOURS.get(str(spell.element), NO_ELEMENT) if spell.element is not None else NO_ELEMENT
    given = spell.modifier.element if spell.modifier is not None else None  # an infusion's element
    status = ELEMENT_COLOURS.get(str(given), NO_ELEMENT) if given is not None else own
    colours = {
        Tone.NAME: name_colour,
        Tone.KIND: own,
        Tone.TEXT: TEXT,
        Tone.NUMBER: NUMBER,
        Tone.STATUS: status,
        Tone.COST: COST,
    }
    return [(text, colours[tone]) for text, tone in spell_lines(spell, statuses)]


# --- the families ----------------------------------------------------------------------


def _numbers(texts: list[str]) -> list[Line]:
    return [(text, Tone.NUMBER) for text in texts]


def _percent(share: float) -> float:
    """A 0..1 share as percent points, without float dust (0.15 → 15, not 15.000000000000002)."""
    return round(share * 100, 4)


def _action(action: ActionBlock) -> list[str]:
    """An action's (or a trigger's carrier's) damage, body, flight and what it leaves behind."""
    out: list[str] = []
    if action.kind == ActionKind.BLAST:
        out.append(tr("ui.spell.blast", damage=action.damage, radius=action.radius))
    elif action.damage > 0:
        out.append(tr("ui.spell.damage", damage=action.damage))
    if action.moving_multiplier != 1:
        out.append(tr("ui.spell.moving", mult=action.moving_multiplier))
    if action.charge is not None:
        out.append(tr("ui.spell.charge", seconds=action.charge.still_seconds, mult=action.charge.multiplier))
    if action.explode_radius > 0:
        out.append(tr("ui.spell.explosion", damage=action.damage, radius=action.explode_radius))
    if action.chain > 0:
        out.append(tr("ui.spell.chain", jumps=action.chain, range=action.chain_range))
    if action.pierce > 0:
        out.append(tr("ui.spell.pierce", pierce=action.pierce))
    if action.bounces > 0:
        out.append(tr("ui.spell.bounces", bounces=action.bounces))
    if action.speed > 0 and action.lifetime > 0:
        out.append(tr("ui.spell.flight", speed=action.speed, lifetime=action.lifetime, spread=action.spread))
    if action.homing > 0:
        out.append(tr("ui.spell.homing", homing=_percent(action.homing)))
    if action.path != ProjectilePath.STRAIGHT:
        out.append(tr(PATH_KEYS[action.path]))
    if action.orbit is not None:
        out.append(_orbit_line(action.orbit))
    if action.zone is not None:
        zone = action.zone
        if zone.damage_per_second > 0:
            out.append(
                tr("ui.spell.zone_damage", dps=zone.damage_per_second, seconds=zone.duration, radius=zone.radius)
            )
        else:
            out.append(tr("ui.spell.zone", seconds=zone.duration, radius=zone.radius))
        if zone.heal_per_second > 0:
            out.append(tr("ui.spell.zone_heal", heal=zone.heal_per_second))
        if zone.pull > 0:
            out.append(tr("ui.spell.zone_pull", pull=zone.pull))
    if action.summon is not None:
        summon = action.summon
        out.append(tr("ui.spell.summon", period=summon.period, seconds=summon.duration))
        out.append(tr("ui.spell.summon_cost_share", share=_percent(summon.cost_share)))  # R-MANA-5
    return out


def _orbit_line(ring: OrbitRing) -> str:
    """An orbit path's ring in numbers (R-VM-10)."""
    return tr("ui.spell.orbit", radius=ring.radius, speed=ring.degrees_per_second)


#: How a modifier's change reads: a function of the field's value, called only when it is not neutral.
ChangeLine = Callable[[Any], str]


def _value_line(key: str, shown: Callable[[float], float] | None = None) -> ChangeLine:
    """The change as `key`'s text with its value, passed through `shown` first (`_percent` for a share)."""
    return lambda value: tr(key, value=shown(value) if shown is not None else value)


#: A modifier's changes in tooltip order: (field, its neutral value, how its change reads).
#: A field at its neutral value says nothing.
MODIFIER_CHANGES: tuple[tuple[str, object, ChangeLine], ...] = (
    ("damage_flat", 0, _value_line("ui.spell.mod.damage_flat")),
    ("damage_mult", 1, _value_line("ui.spell.mod.damage_mult")),
    ("speed_mult", 1, _value_line("ui.spell.mod.speed_mult")),
    ("lifetime_add", 0, _value_line("ui.spell.mod.lifetime_add")),
    ("spread_add", 0, _value_line("ui.spell.mod.spread_add")),
    ("bounce_add", 0, _value_line("ui.spell.mod.bounce_add")),
    ("pierce_add", 0, _value_line("ui.spell.mod.pierce_add")),
    ("homing_add", 0, _value_line("ui.spell.mod.homing_add", _percent)),
    ("path", None, lambda path: tr(PATH_KEYS[path])),
    ("orbit", None, _orbit_line),
    ("element", None, lambda element: tr("ui.spell.mod.element", element=tr(f"ui.shop.element.{element}"))),
    ("status_chance_add", 0, _value_line("ui.spell.mod.status_chance_add", _percent)),
    ("crit_add", 0, _value_line("ui.spell.mod.crit_add", _percent)),
    ("knockback_add", 0, _value_line("ui.spell.mod.knockback_add")),
    ("size_mult", 1, _value_line("ui.spell.mod.size_mult")),
    ("lifesteal_add", 0, _value_line("ui.spell.mod.lifesteal_add", _percent)),
    ("splitter", False, lambda _: tr("ui.spell.mod.splitter")),
    # R-VM-14: what it changes in the draw.
    ("mana_gain", 0, _value_line("ui.spell.mod.mana_gain")),
    ("adds_trigger", None, lambda t: tr(ADDS_TRIGGER_KEYS[t.kind], delay=t.delay or 0.0)),
    (
        "divide",
        None,
        lambda d: tr("ui.spell.mod.divide", copies=d.copies, percent=_percent(d.damage_mult)),
    ),
)


def _modifier(modifier: ModifierBlock) -> list[str]:
    """Each change the modifier makes to the shot, in its own words ("+1 pierce", "×1.6 speed")."""
    values = ((getattr(modifier, field), neutral, line) for field, neutral, line in MODIFIER_CHANGES)
    return [line(value) for value, neutral, line in values if value != neutral]


def _multicast(multicast: MulticastBlock) -> list[str]:
    return [tr("ui.spell.multicast", count=multicast.count, spread=multicast.spread)]


def _trigger(trigger: TriggerBlock) -> list[str]:
    """When the payload runs, then the carrier bolt's own numbers."""
    return [tr(TRIGGER_KEYS[trigger.kind], delay=trigger.delay or 0.0), *_action(trigger.carrier)]


def _logic(logic: LogicBlock) -> list[str]:
    """The node's condition or count, with what it guards."""
    span = logic.guarded_span
    if span == 0:  # a kind without a span (a counter that guards the rest of the cast)
        following = tr("ui.spell.next_all")
    else:
        following = tr("ui.spell.next_one") if span == 1 else tr("ui.spell.next_many", span=span)
    threshold = logic.threshold or 0.0
    if logic.kind == LogicKind.IF_HP_LOW:
        threshold = _percent(threshold)  # a fraction of max HP
    register = str(logic.register_) if logic.register_ is not None else ""
    out = [
        tr(
            LOGIC_KEYS[logic.kind], next=following, threshold=threshold, count=logic.count or 0,
            register=register, value=logic.value or 0, n=logic.n or 0,
        )
    ]  # fmt: skip
    if logic.grants_budget:
        out.append(tr("ui.spell.logic.grants_budget"))
    return out


def _status(spell: Spell, statuses: StatusSettings) -> str | None:
    """The status the spell's element applies and its chance per hit (R-DMG-2); an infusion's is
    the element it gives the shot. None for a spell without a status-bearing element."""
    element = spell.element
    if spell.modifier is not None and spell.modifier.element is not None:
        element = spell.modifier.element
    elif not spell.deals_damage:
        return None
    if element is None or element not in STATUS_KEYS:
        return None
    chance = statuses.chance.get(element, 0.0)
    return tr(STATUS_KEYS[element], chance=_percent(chance)) if chance > 0 else None
