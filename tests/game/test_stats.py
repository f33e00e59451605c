"""R-STAT-1: every player stat bought in the shop takes effect — max HP, armor,
move speed, cast speed, mana leech (R-MANA-8), accuracy, CPU, attunement per
element, crit chance, pickup radius, mana regen and luck (shop rarity). Each
test shows the player-visible effect through the real `world.step` or shop."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from artificer._core import PlayerStats
from artificer.content import DEFAULT_DATA_DIR, load_content
from artificer.content.models import WandStat
from artificer.engine import Simulation
from artificer.game.run import Run
from artificer.game.save import WandStatsSave
from artificer.game.shop import Offer, tier_odds
from artificer.game.stats import WandStats
from bolt_wand import arm_bolt

CONTENT = load_content()
SETTINGS = CONTENT.balance.shop
FPS = CONTENT.balance.sim.tick_hz


def still_sim(rules: dict[str, bool] | None = None, content: Any = CONTENT) -> Simulation:
    """A world with a player who stands still, unarmed, and enemies that stand still."""
    sim = Simulation(content, seed=7, rules={"player_fixed": True, "enemies_still": True, **(rules or {})})
    sim.world.clear_wand()
    sim.step()
    return sim


def player(sim: Simulation, field: str) -> float:
    return sim.buffers.player_value(field)


def bought_run(stat: WandStat, times: int = 1) -> Run:
    """A run that bought `stat` `times` times through the real shop."""
    run = Run(CONTENT, 3)
    run.currency = 10_000
    run.shop.open(1)
    for _ in range(times):
        entry = next(e for e in SETTINGS.stats if e.stat == stat)
        run.shop.shelves["stats"] = [Offer("stats", stat.value, 1, entry.price)]
        run.shop.buy_stat(0)
    return run


# --- data -------------------------------------------------------------------------------------


def test_every_stat_has_an_offer_with_a_positive_amount_cap_and_price() -> None:
    """R-STAT-1 / R-SHOP-1: shelf C can sell every stat; the numbers are data."""
    offers = {entry.stat: entry for entry in SETTINGS.stats}
    assert set(offers) == set(WandStat)
    for entry in offers.values():
        assert 0 < entry.amount <= entry.max and entry.price > 0


# --- max HP -----------------------------------------------------------------------------------


def test_max_hp_raises_hp_max_and_heals_as_much_lowering_never_kills() -> None:
    """R-STAT-1 max HP: +20 raises hp_max and hp by 20; taking it back caps HP, never kills."""
    sim = still_sim()
    sim.world.set_player_hp(50.0, 100.0)
    sim.world.set_player_stats(PlayerStats(max_hp_bonus=20.0))
    sim.step()
    assert (player(sim, "hp"), player(sim, "hp_max")) == (70.0, 120.0)
    sim.world.set_player_stats(PlayerStats(max_hp_bonus=20.0))  # re-applying the same totals heals nothing
    assert sim.world.player_hp() == (70.0, 120.0)
    sim.world.set_player_hp(115.0, 120.0)
    sim.world.set_player_stats(PlayerStats(max_hp_bonus=0.0))
    assert sim.world.player_hp() == (100.0, 100.0)
    sim.world.set_player_hp(1.0, 100.0)
    sim.world.set_player_stats(PlayerStats(max_hp_bonus=0.0))
    sim.step()
    assert player(sim, "alive") == 1.0 and player(sim, "hp") == 1.0


@pytest.mark.parametrize(
    "field",
    [
        "max_hp_bonus",
        "armor",
        "move_speed_bonus",
        "crit_chance_bonus",
        "pickup_radius_bonus",
        "mana_regen_bonus",
        "mana_leech",
    ],
)
@pytest.mark.parametrize("value", [-1.0, float("nan"), float("inf")])
def test_player_stats_out_of_range_are_argument_errors_and_change_nothing(field: str, value: float) -> None:
    sim = still_sim()
    before = sim.world.player_stats()
    with pytest.raises(ValueError):
        sim.world.set_player_stats(PlayerStats(**{field: value}))
    assert sim.world.player_stats() == before and sim.world.player_hp() == (100.0, 100.0)


# --- armor ------------------------------------------------------------------------------------


def contact_hp_lost(armor: float) -> float:
    sim = still_sim()
    sim.world.set_player_stats(PlayerStats(armor=armor))
    x, y = player(sim, "x"), player(sim, "y")
    sim.input.spawn(CONTENT.enemy_index("grunt"), x + 4.0, y)
    for _ in range(2 * FPS):
        sim.step()
    return 100.0 - player(sim, "hp")


def test_armor_reduces_contact_damage() -> None:
    """R-STAT-1 armor (R-DMG-1): a grunt's touches take 2 less HP each with 2 armor."""
    base, armored = contact_hp_lost(0.0), contact_hp_lost(2.0)
    assert base > 0 and armored > 0
    touch = CONTENT.enemy("grunt").contact_damage  # the data's, not a copy of it
    assert touch > 2
    hits = base / touch
    assert armored == pytest.approx(hits * (touch - 2.0))


# --- move speed -------------------------------------------------------------------------------


def distance_in_one_second(bonus: float) -> float:
    sim = Simulation(CONTENT, seed=7)
    sim.world.clear_wand()
    sim.step()
    sim.world.set_player_stats(PlayerStats(move_speed_bonus=bonus))
    start = player(sim, "x")
    for _ in range(FPS):
        sim.input.move(1.0, 0.0)
        sim.step()
    return player(sim, "x") - start


def test_move_speed_moves_farther_per_second() -> None:
    """R-STAT-1 move speed: +25% covers 25% more ground in a second."""
    base, fast = distance_in_one_second(0.0), distance_in_one_second(0.25)
    assert base == pytest.approx(CONTENT.balance.player.move_speed, rel=0.02)
    assert fast == pytest.approx(base * 1.25, rel=1e-3)


# --- mana leech and mana regen ----------------------------------------------------------------


#: A deck that spends faster than the starter core regenerates (the starting wand keeps up).
DRAINING_DECK = ["fireball"] * 5


def drained_sim(seconds: int = 3, unarm: bool = True) -> Simulation:
    """A run's world whose wand, a draining deck on the starter core, cast for
    `seconds` (mana spent), then put away."""
    sim = Run(CONTENT, 5).sim
    sim.arm_wand(CONTENT.balance.starting_wand.core, DRAINING_DECK)
    sim.world.set_rules({"player_fixed": True, "enemies_still": True})
    for _ in range(seconds * FPS):
        sim.input.aim_at(0.0, 0.0)
        sim.step()
    assert player(sim, "mana") < player(sim, "mana_max") - 30.0
    if unarm:
        sim.world.clear_wand()
    return sim


def mana_after_a_kill(leech: float) -> float:
    sim = drained_sim()
    sim.world.set_player_stats(PlayerStats(mana_leech=leech))
    x, y = player(sim, "x"), player(sim, "y")
    sim.input.spawn(CONTENT.enemy_index("grunt"), x + 200.0, y)
    sim.step()
    before = player(sim, "mana")
    sim.input.damage_nearest(x + 200.0, y, 1000.0)
    assert sim.step().enemies == 0  # the kill
    return player(sim, "mana") - before


def test_mana_leech_restores_mana_on_a_kill() -> None:
    """R-STAT-1 / R-MANA-8: each kill restores the leech's mana."""
    assert mana_after_a_kill(7.0) == pytest.approx(mana_after_a_kill(0.0) + 7.0, abs=1e-3)


def mana_gained_in_one_second(bonus: float) -> float:
    sim = drained_sim()
    sim.world.set_player_stats(PlayerStats(mana_regen_bonus=bonus))
    before = player(sim, "mana")
    for _ in range(FPS):
        sim.step()
    return player(sim, "mana") - before


def test_mana_regen_refills_faster() -> None:
    """R-STAT-1 mana regen: +5 per second refills 5 more mana a second."""
    base, fast = mana_gained_in_one_second(0.0), mana_gained_in_one_second(5.0)
    assert base == pytest.approx(CONTENT.balance.player.mana_regen, rel=0.02)
    assert fast == pytest.approx(base + 5.0, rel=0.02)


def test_mana_regen_bonus_adds_to_a_program_wands_pool() -> None:
    """R-STAT-1 mana regen with a core armed: the core's regen plus the bonus."""

    def gained(bonus: float) -> float:
        sim = drained_sim(seconds=2, unarm=False)
        stats = WandStats()
        stats.totals[WandStat.MANA_REGEN] = bonus
        stats.apply(sim.world)
        before = player(sim, "mana")
        for _ in range(FPS // 2):
            sim.input.aim_at(0.0, 0.0)
            sim.step()
        return player(sim, "mana") - before

    assert gained(4.0) == pytest.approx(gained(0.0) + 2.0, abs=0.05)


# --- crit chance ------------------------------------------------------------------------------


def damage_on_a_dummy(content: Any, element: str, crit: float = 0.0, attunement: float = 0.0) -> float:
    rules = {"player_fixed": True, "player_invulnerable": True, "enemies_still": True, "enemies_immortal": True}
    sim = Simulation(content, seed=5, rules=rules)
    sim.step()
    px, py = player(sim, "x"), player(sim, "y")
    sim.input.spawn(content.enemy_index("brute"), px + 150.0, py)
    sim.step()
    stats = WandStats()
    stats.totals[WandStat.CRIT_CHANCE] = crit
    stats.totals[WandStat(f"attunement_{element}")] = attunement
    stats.apply(sim.world)
    arm_bolt(sim, element=element, damage=10.0, cast_delay=0.1)
    return sum(sim.step().damage_dealt for _ in range(20 * FPS))


def test_crit_chance_raises_crits() -> None:
    """R-STAT-1 crit chance: +30% crit chance (×2 damage) deals about 30% more, seeded."""
    base = damage_on_a_dummy(CONTENT, "physical")
    crits = damage_on_a_dummy(CONTENT, "physical", crit=0.3)
    start = CONTENT.balance.player.crit_chance
    # Expected ratio (1 + c1) / (1 + c0) for ×2 crits: about 1.29; seeded streams, loose bounds.
    assert base > 0
    assert 1.15 < crits / base < 1.45
    assert crits / base > (1 + start + 0.15) / (1 + start)


# --- pickup radius ----------------------------------------------------------------------------


def crystals_left(bonus: float) -> int:
    sim = still_sim()
    sim.world.set_player_stats(PlayerStats(pickup_radius_bonus=bonus))
    x, y = player(sim, "x"), player(sim, "y")
    sim.input.spawn(CONTENT.enemy_index("grunt"), x + 150.0, y)
    sim.step()
    sim.input.damage_nearest(x + 150.0, y, 1000.0)
    counts = sim.step()
    assert counts.pickups == 1 and counts.enemies == 0
    for _ in range(FPS):
        counts = sim.step()
    return counts.pickups


def test_pickup_radius_collects_a_crystal_from_farther() -> None:
    """R-STAT-1 pickup radius: a crystal 150 px away stays (reach 96) until +72 px reach pulls it in."""
    assert CONTENT.balance.pickups.pickup_radius < 150.0 < CONTENT.balance.pickups.pickup_radius + 72.0
    assert crystals_left(0.0) == 1
    assert crystals_left(72.0) == 0


# --- attunement -------------------------------------------------------------------------------


def test_attunement_raises_its_elements_damage(tmp_path: Path) -> None:
    """R-STAT-1 attunement: 10 points deal +30% damage of their element."""
    shutil.copytree(DEFAULT_DATA_DIR, tmp_path, dirs_exist_ok=True)
    path = tmp_path / "balance.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["statuses"]["chance"] = {e: 0.0 for e in document["statuses"]["chance"]}
    path.write_text(json.dumps(document), encoding="utf-8")
    content = load_content(tmp_path)
    physical = damage_on_a_dummy(content, "physical")
    assert physical > 0
    assert damage_on_a_dummy(content, "physical", attunement=10.0) == pytest.approx(physical * 1.3, rel=1e-3)
    # Fire points also add +2% burn chance each: at least +30%.
    fire = damage_on_a_dummy(content, "fire")
    assert damage_on_a_dummy(content, "fire", attunement=10.0) >= fire * 1.3 * 0.999


# --- luck -------------------------------------------------------------------------------------


def test_luck_raises_higher_tier_odds() -> None:
    """R-STAT-1 luck / R-SHOP-1: luck bought in the shop raises the better tiers' odds."""
    run = bought_run(WandStat.LUCK, times=3)
    entry = next(e for e in SETTINGS.stats if e.stat == WandStat.LUCK)
    assert run.shop.luck == pytest.approx(3 * entry.amount)
    lucky, plain = tier_odds(SETTINGS, 8, run.shop.luck), tier_odds(SETTINGS, 8, 0.0)
    assert lucky[2] > plain[2] and lucky[3] > plain[3]
    run.rearm()  # the run re-applies its totals: luck stays
    assert run.shop.luck == pytest.approx(3 * entry.amount)


# --- the shop changes the world ---------------------------------------------------------------


def test_buying_player_stats_in_the_shop_changes_the_world() -> None:
    """R-STAT-1: a purchase reaches the core at once and survives re-arming and a wave start."""
    expect = {e.stat: e.amount for e in SETTINGS.stats}
    run = bought_run(WandStat.MAX_HP)
    world = run.sim.world
    # A run starts with iron_heart's max HP (R-REL-1) on top of balance.json's.
    start = CONTENT.balance.player.max_hp + CONTENT.relics.relic("iron_heart").value
    assert world.player_hp() == (start + expect[WandStat.MAX_HP], start + expect[WandStat.MAX_HP])
    for stat in (
        WandStat.ARMOR,
        WandStat.MOVE_SPEED,
        WandStat.CRIT_CHANCE,
        WandStat.PICKUP_RADIUS,
        WandStat.MANA_LEECH,
        WandStat.ATTUNEMENT_FIRE,
    ):
        entry = next(e for e in SETTINGS.stats if e.stat == stat)
        run.shop.shelves["stats"] = [Offer("stats", stat.value, 1, entry.price)]
        run.shop.buy_stat(0)
    run.rearm()
    stats = world.player_stats()
    player_cfg = CONTENT.balance.player
    assert stats["armor"] == pytest.approx(player_cfg.armor + expect[WandStat.ARMOR])
    assert stats["move_speed"] == pytest.approx(player_cfg.move_speed * (1 + expect[WandStat.MOVE_SPEED]), rel=1e-4)
    assert stats["crit_chance"] == pytest.approx(player_cfg.crit_chance + expect[WandStat.CRIT_CHANCE])
    assert stats["pickup_radius"] == pytest.approx(
        CONTENT.balance.pickups.pickup_radius + expect[WandStat.PICKUP_RADIUS]
    )
    assert stats["mana_leech"] == pytest.approx(expect[WandStat.MANA_LEECH])
    assert world.attunement()["fire"] == expect[WandStat.ATTUNEMENT_FIRE]
    # Re-arming re-applies the same totals: no second heal.
    assert world.player_hp() == (start + expect[WandStat.MAX_HP], start + expect[WandStat.MAX_HP])


# --- saves ------------------------------------------------------------------------------------


def test_a_save_from_before_the_new_stats_loads_with_them_at_zero() -> None:
    """R-SAVE-1: saves that list only cpu, cast speed and accuracy still load."""
    old = {
        "totals": {"cpu": 2.0, "cast_speed": 0.1, "accuracy": 0.0},
        "purchases": {"cpu": 2, "cast_speed": 2, "accuracy": 0},
    }
    loaded = WandStatsSave.model_validate(old)
    assert set(loaded.totals) == set(WandStat) and loaded.totals[WandStat.CPU] == 2.0
    assert loaded.totals[WandStat.LUCK] == 0.0 and loaded.purchases[WandStat.MAX_HP] == 0
    with pytest.raises(ValueError):
        WandStatsSave.model_validate({"totals": {"plasma": 1.0}, "purchases": {}})


def test_r_stat_1_cpu_raises_the_compile_time_cpu_limit() -> None:
    """R-STAT-1: bought CPU raises the wand's compile-time CPU limit, so cards
    that were dropped past the limit come back (R-VM-9)."""
    run = Run(CONTENT, 5)
    core = CONTENT.core("quickdraw_core")
    heavy = ["chain_bolt", "chain_bolt", "chain_bolt", "chain_bolt"][: len(core.layout().slots)]
    before = run.arm(core.id, list(heavy))
    assert before["dropped_slots"], "the deck is over the core's CPU limit"
    run.wand_stats.totals[WandStat.CPU] = 4.0
    after = run.arm(core.id, list(heavy))
    assert after["cpu_limit"] == before["cpu_limit"] + 4
    assert len(after["dropped_slots"]) < len(before["dropped_slots"])


# --- max mana ------------------------------------------------------------------------------------


def test_r_stat_1_max_mana_raises_the_armed_cores_pool() -> None:
    """R-STAT-1 max mana: the armed core's mana_max plus the max mana bought, in the world's pool
    (the HUD's bar reads it); a wave starts with the bigger pool full (R-MANA-1); lowering it caps
    what is in the pool."""
    sim = drained_sim(unarm=False)
    core_max = CONTENT.core(CONTENT.balance.starting_wand.core).mana_max
    stats = WandStats()
    stats.totals[WandStat.MAX_MANA] = 40.0
    stats.apply(sim.world)
    sim.step()
    assert player(sim, "mana_max") == pytest.approx(core_max + 40.0)
    assert sim.world.player_stats()["mana_max"] == pytest.approx(core_max + 40.0)
    figures = sim.world.wand_figures()
    assert figures is not None and figures["mana_max"] == pytest.approx(core_max + 40.0)
    sim.world.begin_wave()
    sim.step()
    assert player(sim, "mana") == pytest.approx(core_max + 40.0, abs=1.0)
    stats.totals[WandStat.MAX_MANA] = 0.0
    stats.apply(sim.world)
    sim.step()
    assert player(sim, "mana") <= core_max and player(sim, "mana_max") == pytest.approx(core_max)


def test_r_stat_1_max_mana_survives_a_new_wand_and_stays_without_one() -> None:
    """R-STAT-1 max mana: a wand armed after the purchase (the lab, a new core) gets the bonus too;
    with no wand the pool is balance.json's plus the bonus."""
    run = Run(CONTENT, 5)
    core_max = CONTENT.core(run.loadout.active).mana_max
    run.wand_stats.totals[WandStat.MAX_MANA] = 60.0
    run.rearm()
    assert run.sim.world.wand_figures()["mana_max"] == pytest.approx(core_max + 60.0)  # type: ignore[index]
    sim = still_sim()
    sim.world.set_player_stats(PlayerStats(mana_max_bonus=60.0))
    sim.step()
    assert player(sim, "mana_max") == pytest.approx(CONTENT.balance.player.mana_max + 60.0)


def test_r_mana_7_max_mana_bought_brings_a_card_above_the_cores_pool_within_reach() -> None:
    """R-MANA-7 / R-STAT-1: nuke costs more than the starter's pool holds, so the lab's timeline
    never pays it; enough max mana bought pays it (the lab figure counts the bonus, `WandBonus`)."""
    from artificer.game.offer_effect import WandBonus

    core = CONTENT.core("starter_wand")
    nuke = CONTENT.spell("nuke").mana_cost
    assert nuke > core.mana_max
    plain = WandBonus().timeline(CONTENT, "starter_wand", ["nuke"])
    bigger = WandBonus(mana_max=nuke - core.mana_max).timeline(CONTENT, "starter_wand", ["nuke"])
    assert plain["sustained_dps"] == 0.0 and bigger["sustained_dps"] > 0.0
