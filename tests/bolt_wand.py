"""The tests' simplest wand (issue 14: the foundation's fixed wand is gone): one card, a bolt with
the numbers a test picks, compiled and cast by the core like every wand. Its defaults are the
old fixed wand's (3 damage every 0.25 s at 480 px/s, physical), so a test reads as before.
Tests import it as `from bolt_wand import arm_bolt` (tests/ is on the path: its folders are
packages)."""

from __future__ import annotations

import copy
from typing import Any

#: The bolt's spell id in the catalog the wand is compiled from (the shipped spells + this one).
BOLT_ID = "test_bolt"


def arm_bolt(
    sim: Any,
    *,
    element: str = "physical",
    damage: float = 3.0,
    cast_delay: float = 0.25,
    speed: float = 480.0,
    radius: float = 4.0,
    lifetime: float = 1.5,
) -> dict[str, Any]:
    """Arms `sim` (an `artificer.engine.Simulation`) with a one-card wand on the starting core:
    a free bolt (no mana cost, no spread, no recharge) cast every `cast_delay` seconds (at least
    balance.json's `vm.cast_delay_floor`). Returns the compile diagnostics."""
    from artificer import _core
    from artificer.engine.wand import core_data

    content = sim.content
    spells = [s.model_dump(mode="json", by_alias=True) for s in content.spells]
    recipes = [r.model_dump(mode="json", by_alias=True) for r in content.recipes]
    bolt = copy.deepcopy(next(s for s in spells if s["id"] == "spark_bolt"))
    bolt.update(id=BOLT_ID, mana_cost=0.0, cast_delay=0.0, element=element, affinity=[element])
    bolt["action"].update(damage=damage, speed=speed, radius=radius, lifetime=lifetime, spread=0.0)
    catalog = _core.Catalog([*spells, bolt], recipes, content.balance.vm.model_dump(mode="json", by_alias=True))
    core = content.core(content.balance.starting_wand.core)
    data = core_data(core) | {"cast_delay": cast_delay, "recharge": 0.0}
    cards = [BOLT_ID] + [None] * (core.capacity - 1)
    return dict(sim.world.set_spell_wand(catalog, data, cards))
