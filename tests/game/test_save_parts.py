"""R-SAVE-1, issue 14: each part of a run saves beside itself (`to_save` / `from_save`); what it
writes is what run.json's schema checks, and reading it back gives the same part."""

from __future__ import annotations

from artificer.content import load_content
from artificer.content.models import Talent, WandStat
from artificer.game.binding import CarriedWorld
from artificer.game.loadout import Loadout
from artificer.game.potions import PotionBelt
from artificer.game.relics import RunRelics
from artificer.game.run import Run
from artificer.game.save import (
    LoadoutSave,
    PotionsSave,
    RelicsSave,
    ShopSave,
    WandStatsSave,
    snapshot,
)
from artificer.game.state import RunState
from artificer.game.stats import WandStats, WaveStats

CONTENT = load_content()


def context() -> dict[str, object]:
    return {"content": CONTENT}


def a_run() -> Run:
    """A run with something in every part: cards bought, a second core, stats, a relic, a potion,
    a talent, a wave played, the shop open after a reroll with a lock."""
    run = Run(CONTENT, 77)
    run.currency = 900
    second = next(core.id for core in CONTENT.cores if core.price > 0 and not core.id.startswith("debug"))
    run.loadout.add_core(second)
    run.loadout.backpack.append("fireball")
    run.wand_stats.totals[WandStat.MAX_HP] = 10.0
    run.wand_stats.purchases[WandStat.MAX_HP] = 2
    run.gain_relic(run.relics.unowned()[0])
    run.gain_talent(Talent.LAST_WILL)
    run.potions.add(CONTENT.potions.ids[0])
    run.waves = [WaveStats(wave=1, kills=12, damage_dealt=50.5, relics=["x"], damage_taken_by_source={"grunt": 3.0})]
    run.shop.open(1)
    run.shop.reroll()
    run.shop.toggle_lock("spells", 0)
    return run


def test_each_part_writes_what_the_schema_reads_and_reads_back_the_same() -> None:
    run = a_run()
    loadout = run.loadout.to_save()
    LoadoutSave.model_validate(loadout, context=context())
    assert Loadout.from_save(CONTENT, loadout) == run.loadout
    stats = run.wand_stats.to_save()
    WandStatsSave.model_validate(stats, context=context())
    assert WandStats.from_save(stats) == run.wand_stats
    relics = run.relics.to_save()
    RelicsSave.model_validate(relics, context=context())
    back = RunRelics.from_save(CONTENT.relics, relics)
    assert (back.owned, back.strength, back.kills) == (run.relics.owned, run.relics.strength, run.relics.kills)
    belt = run.potions.to_save()
    PotionsSave.model_validate(belt, context=context())
    again = PotionBelt.from_save(CONTENT.potions, belt)
    assert (again.slots, again.held) == (run.potions.slots, run.potions.held)
    assert PotionBelt.from_save(CONTENT.potions, None).held == [None] * len(run.potions.held)
    wave = run.waves[0]
    assert WaveStats.from_save(wave.to_save()) == wave
    ShopSave.model_validate(run.shop.to_save(), context=context())


def test_the_state_and_the_shop_come_back_from_the_save_as_they_were() -> None:
    run = a_run()
    data = snapshot(run, 2).model_dump()
    state = RunState.from_save(CONTENT, data)
    assert state.to_save() == run.state.to_save()
    assert state.changes == set(), "a state read back marks nothing: its world is armed whole"
    other = Run(CONTENT, 77, state)
    other.shop.restore(data["shop"])
    assert other.shop.to_save() == run.shop.to_save()


def test_what_the_world_carries_reads_back_the_same() -> None:
    run = a_run()
    carried = run.binding.carried()
    assert CarriedWorld.from_save(carried.to_save()) == carried
    assert carried.last_will is True and carried.hp == run.sim.world.player_hp()[0]
