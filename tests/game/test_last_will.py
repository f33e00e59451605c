"""R-END-1 Last Will as a talent of the run (R-SHOP-1 shelf C, R-SAVE-1): offered from its
wave with its odds and never once owned, bought once through the shop's own path, armed in
the core's world, spent by a real wave's lethal hit (the wave report says so), kept by
settling and saves. The core's primitive: tests/engine/test_last_will_core.py. The shop scene and
the arena's side: tests/ui/test_shop_scene.py, tests/ui/test_arena.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from artificer.content import Content, load_content
from artificer.content.builds import load_builds
from artificer.content.check import run as check_content
from artificer.content.loader import DEFAULT_DATA_DIR
from artificer.content.models import Talent, WandStat
from artificer.engine import EventKind
from artificer.engine import events as ev
from artificer.game.run import Run, WaveStats
from artificer.game.save import LoadedRun, SaveProblem, load_run, run_save_path, save_run, settle
from artificer.game.shop import Offer, ShopError, wave_price
from artificer.sim.headless import run_headless
from artificer.sim.shopper import ShoppingBot
from content_tweaks import with_balance

CONTENT = load_content()
SETTINGS = CONTENT.balance.shop
LAST_WILL = next(entry for entry in SETTINGS.talents if entry.talent == Talent.LAST_WILL)
TICK_HZ = CONTENT.balance.sim.tick_hz


pytestmark = pytest.mark.usefixtures("isolated_home")  # tests/conftest.py: saves go to a temporary home


def shop_run(seed: int = 11, wave: int = LAST_WILL.from_wave, gold: int = 1000, content: Content = CONTENT) -> Run:
    run = Run(content, seed)
    run.currency = gold
    run.shop.open(wave)
    return run


def talent_index(run: Run) -> int | None:
    """The place of the Last Will offer on shelf C, if it is there."""
    return next(
        (i for i, o in enumerate(run.shop.shelves["stats"]) if o is not None and o.talent == Talent.LAST_WILL), None
    )


def offered_run(wave: int = LAST_WILL.from_wave, gold: int = 1000) -> tuple[Run, int]:
    """A run whose shop after `wave` offers Last Will (the first seed that does), and its place."""
    for seed in range(200):
        run = shop_run(seed, wave, gold)
        index = talent_index(run)
        if index is not None:
            return run, index
    raise AssertionError("no seed in 200 offers Last Will")


def without_talents(content: Content) -> Content:
    return with_balance(content, "shop", talents=())


# --- the data -------------------------------------------------------------------------------------


def test_r_end_1_last_will_is_a_talent_of_the_shop_data() -> None:
    assert LAST_WILL.price >= 0 and LAST_WILL.from_wave >= 1 and 0 < LAST_WILL.chance < 1
    assert {entry.talent for entry in SETTINGS.talents} <= set(Talent)
    assert not {talent.value for talent in Talent} & {stat.value for stat in WandStat}, (
        "a talent id is never a stat name"
    )


def test_r_end_1_a_talent_listed_twice_is_one_clear_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    path = data / "balance.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["shop"]["talents"] = [
        dict(LAST_WILL.model_dump(mode="json")),
        dict(LAST_WILL.model_dump(mode="json"), price=1),
    ]
    path.write_text(json.dumps(document), encoding="utf-8")
    assert check_content(data) == 2  # the exit code of bad content
    assert capsys.readouterr().out.splitlines() == [
        "balance.json: $.shop.talents: lists talent last_will more than once"
    ]
    document["shop"]["talents"] = [{"talent": "last_wil", "price": 40, "from_wave": 0, "chance": 0.5}]
    path.write_text(json.dumps(document), encoding="utf-8")
    assert check_content(data) == 2
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and "$.shop.talents[0].talent" in out[0] and "$.shop.talents[0].from_wave" in out[1]


# --- offers (R-SHOP-1 shelf C) -------------------------------------------------------------------------


def test_r_end_1_last_will_is_never_offered_before_its_wave() -> None:
    for seed in range(150):
        for wave in range(1, LAST_WILL.from_wave):
            run = shop_run(seed, wave)
            for _ in range(3):
                assert talent_index(run) is None
                run.shop.reroll()


def test_r_end_1_last_will_is_offered_with_its_chance_from_its_wave() -> None:
    """Each restock (opening or reroll) from `from_wave` on offers it with `chance`: over 2,000
    restocks the share is within 0.05 of it (4.7 standard deviations at 0.35)."""
    restocks = offered = 0
    for seed in range(500):
        run = shop_run(seed, LAST_WILL.from_wave + seed % 4)
        for reroll in range(4):
            if reroll:
                run.shop.reroll()
            restocks += 1
            offered += talent_index(run) is not None
    assert restocks == 2000
    assert abs(offered / restocks - LAST_WILL.chance) < 0.05


def test_r_end_1_the_talent_draw_comes_after_the_stats_so_their_draws_keep_their_sequence() -> None:
    """Shelf C's stats (and shelves A and B) are what they were before talents existed; the talent is the last place."""
    plain = without_talents(CONTENT)
    seen = 0
    for seed in range(60):
        with_talent, before = shop_run(seed, 6), shop_run(seed, 6, content=plain)
        for shelf in ("spells", "cores"):
            assert with_talent.shop.shelves[shelf] == before.shop.shelves[shelf]
        stats = with_talent.shop.shelves["stats"]
        assert [o for o in stats if o is not None and o.talent is None] == before.shop.shelves["stats"]
        index = talent_index(with_talent)
        if index is not None:
            seen += 1
            assert index == len(stats) - 1 == SETTINGS.stat_offers
            assert stats[index] == Offer("stats", "last_will", 1, LAST_WILL.price)
    assert seen > 0


def test_r_end_1_an_owned_last_will_is_never_offered_again_even_once_spent() -> None:
    run, index = offered_run()
    run.shop.buy_stat(index)
    run.sim.world.set_last_will(False)  # spent, as a lethal hit would
    for wave in range(LAST_WILL.from_wave, LAST_WILL.from_wave + 6):
        run.shop.close()
        run.currency = 1000
        run.shop.open(wave)
        for _ in range(10):
            assert talent_index(run) is None
            run.shop.reroll()


def test_r_end_1_a_locked_talent_offer_stays_through_rerolls_and_into_the_next_shop() -> None:
    run, index = offered_run()
    assert run.shop.toggle_lock("stats", index) is True
    for _ in range(5):
        run.shop.reroll()
        assert talent_index(run) is not None
        assert sum(o is not None and o.talent is not None for o in run.shop.shelves["stats"]) == 1
    run.shop.close()
    run.shop.open(LAST_WILL.from_wave + 1)
    kept = run.shop.offer("stats", talent_index(run) or 0)
    # Its price follows the wave, as every price does (R-SHOP-1).
    price = wave_price(CONTENT.balance.shop, LAST_WILL.price, LAST_WILL.from_wave + 1)
    assert kept.talent == Talent.LAST_WILL and kept.locked and kept.price == price > LAST_WILL.price
    run.shop.toggle_lock("stats", talent_index(run) or 0)
    assert not kept.locked


def test_r_end_1_a_locked_talent_the_data_no_longer_sells_leaves_the_shelf() -> None:
    """A save from older content may hold a locked talent offer that balance.json dropped: the next shop opens without it."""
    run = shop_run(content=without_talents(CONTENT))
    run.shop.shelves["stats"].append(Offer("stats", "last_will", 1, LAST_WILL.price, locked=True))
    run.shop.close()
    run.shop.open(LAST_WILL.from_wave + 1)
    assert talent_index(run) is None and len(run.shop.shelves["stats"]) == SETTINGS.stat_offers


# --- buying ------------------------------------------------------------------------------------------


def test_r_end_1_buying_last_will_charges_its_price_owns_it_and_arms_the_world() -> None:
    """Through `Shop.buy("stats", i)`, the path of the UI and the bots."""
    run, index = offered_run(gold=100)
    assert run.sim.world.last_will is False
    bought = run.shop.buy("stats", index)
    assert bought.talent == Talent.LAST_WILL
    assert run.currency == 100 - LAST_WILL.price
    assert run.talents == {Talent.LAST_WILL}
    assert run.sim.world.last_will is True
    assert run.shop.shelves["stats"][index] is None
    assert run.wand_stats.purchases == {stat: 0 for stat in WandStat}, "a talent is no stat purchase"


def test_r_end_1_too_little_gold_refuses_last_will_and_nothing_changes() -> None:
    run, index = offered_run(gold=LAST_WILL.price - 1)
    with pytest.raises(ShopError):
        run.shop.buy_stat(index)
    assert run.currency == LAST_WILL.price - 1 and not run.talents and run.sim.world.last_will is False
    assert talent_index(run) == index


def test_r_end_1_rearming_and_reapplying_stats_neither_disarm_nor_rearm_it() -> None:
    run, index = offered_run()
    run.shop.buy_stat(index)
    stat = next(i for i, o in enumerate(run.shop.shelves["stats"]) if o is not None and o.talent is None)
    run.shop.buy_stat(stat)  # WandStats.apply
    run.rearm()
    run.arm("starter_wand", ["spark_bolt", None, None])
    run.start_wave(LAST_WILL.from_wave + 1)
    assert run.sim.world.last_will is True
    run.sim.world.set_last_will(False)  # spent
    run.wand_stats.apply(run.sim.world, run.shop)
    run.rearm()
    run.start_wave(LAST_WILL.from_wave + 1)
    assert run.sim.world.last_will is False


# --- a real wave --------------------------------------------------------------------------------------


def lethal_brute(run: Run) -> None:
    """A brute spawned on the standing player (the wave's own spawns come later)."""
    x, y = run.sim.world.player_position()
    run.sim.input.spawn(CONTENT.enemy_index("brute"), x + 5.0, y)


def test_r_end_1_bought_last_will_survives_a_lethal_hit_in_a_wave_once_and_the_report_says_so() -> None:
    run, index = offered_run()
    run.shop.buy_stat(index)
    wave = run.start_wave(1)
    run.sim.world.set_player_hp(5.0, run.sim.world.player_hp()[1])
    lethal_brute(run)
    spared = False
    for _ in range(10):
        wave.step()
        rows = run.sim.buffers.event_rows()
        if ev.count(rows, EventKind.LAST_WILL):
            spared = True
            break
    assert spared and not wave.died
    assert run.sim.world.player_hp()[0] == 1.0 and run.sim.world.last_will is False
    assert wave.stats.last_will_spent is True
    for _ in range(2 * TICK_HZ):  # the brute keeps hitting: the second lethal hit kills
        wave.step()
        if wave.over:
            break
    assert wave.died
    report = wave.finish().as_json()
    assert report["last_will_spent"] is True


def test_r_end_1_without_last_will_the_lethal_hit_kills_and_the_report_says_not_spent() -> None:
    run = Run(CONTENT, 3)
    wave = run.start_wave(1)
    run.sim.world.set_player_hp(5.0, run.sim.world.player_hp()[1])
    lethal_brute(run)
    for _ in range(10):
        wave.step()
    assert wave.died and wave.stats.last_will_spent is False


def test_r_end_1_the_headless_report_has_last_will_spent_per_wave() -> None:
    report = run_headless(CONTENT, 5, 1)
    assert report["waves"][0]["last_will_spent"] is False
    assert WaveStats(wave=1).as_json()["last_will_spent"] is False


# --- saves (R-SAVE-1) ----------------------------------------------------------------------------------


def loaded(result: LoadedRun | SaveProblem | None) -> LoadedRun:
    assert isinstance(result, LoadedRun), result
    return result


def bought_run() -> Run:
    run, index = offered_run()
    run.shop.buy_stat(index)
    run.shop.close()
    run.waves = [WaveStats(wave=n) for n in range(1, LAST_WILL.from_wave + 1)]
    return run


def test_r_save_1_settling_between_waves_keeps_last_will_armed() -> None:
    run = bought_run()
    world = run.sim.world
    settle(run, LAST_WILL.from_wave + 1)
    assert run.sim.world is not world
    assert run.sim.world.last_will is True and run.talents == {Talent.LAST_WILL}


def test_r_save_1_round_trip_with_last_will_armed() -> None:
    run = bought_run()
    written = save_run(run, LAST_WILL.from_wave + 1)
    data = json.loads(run_save_path().read_text(encoding="utf-8"))
    assert data["talents"] == ["last_will"] and data["player"]["last_will"] is True
    back = loaded(load_run(CONTENT))
    assert back.save == written
    assert back.run.talents == {Talent.LAST_WILL}
    assert back.run.sim.world.last_will is True
    assert back.run.sim.state_hash() == run.sim.state_hash()


def test_r_save_1_round_trip_with_last_will_spent_is_owned_not_armed_and_never_offered_after_continue() -> None:
    run = bought_run()
    run.sim.world.set_last_will(False)  # spent in a wave
    save_run(run, LAST_WILL.from_wave + 1)
    assert json.loads(run_save_path().read_text(encoding="utf-8"))["player"]["last_will"] is False
    continued = loaded(load_run(CONTENT)).run
    assert continued.talents == {Talent.LAST_WILL}
    assert continued.sim.world.last_will is False
    continued.currency = 1000
    continued.shop.open(LAST_WILL.from_wave + 1)
    for _ in range(10):
        assert talent_index(continued) is None
        continued.shop.reroll()
    continued.rearm()
    assert continued.sim.world.last_will is False


def test_r_save_1_a_save_from_before_talents_loads_with_none_owned_and_not_armed() -> None:
    save_run(bought_run(), LAST_WILL.from_wave + 1)
    data = json.loads(run_save_path().read_text(encoding="utf-8"))
    del data["talents"]
    del data["player"]["last_will"]
    for stats in data["waves"]:
        del stats["last_will_spent"]
    run_save_path().write_text(json.dumps(data), encoding="utf-8")
    back = loaded(load_run(CONTENT))
    assert back.run.talents == set()
    assert back.run.sim.world.last_will is False
    assert all(stats.last_will_spent is False for stats in back.run.waves)


def test_r_save_1_a_repeated_talent_is_a_corrupt_save() -> None:
    save_run(bought_run(), LAST_WILL.from_wave + 1)
    data = json.loads(run_save_path().read_text(encoding="utf-8"))
    data.update(talents=["last_will", "last_will"])
    run_save_path().write_text(json.dumps(data), encoding="utf-8")
    found = load_run(CONTENT)
    assert isinstance(found, SaveProblem), found
    assert "talents" in found.detail, found.detail
    assert (run_save_path().parent / "run.json.corrupt").exists()


def test_r_save_1_a_talent_the_content_no_longer_has_is_dropped_and_the_run_goes_on() -> None:
    """R-SAVE-1 (issue 13): an id an update removed is dropped with a message, not a lost run;
    an unknown talent on offer in the shop is dropped without a word (it was never the player's)."""
    save_run(bought_run(), LAST_WILL.from_wave + 1)
    data = json.loads(run_save_path().read_text(encoding="utf-8"))
    data.update(talents=["last_wil"])
    data["shop"]["stats"].append({"kind": "stats", "item": "lats_will", "tier": 1, "price": 40, "locked": True})
    run_save_path().write_text(json.dumps(data), encoding="utf-8")
    found = loaded(load_run(CONTENT))
    assert [(d.kind, d.item, d.where) for d in found.dropped] == [("talent", "last_wil", "talents.0")]
    assert found.run.talents == set()


def test_r_save_1_a_locked_talent_offer_survives_a_save() -> None:
    run, index = offered_run()
    run.shop.toggle_lock("stats", index)
    run.shop.close()
    run.waves = [WaveStats(wave=n) for n in range(1, LAST_WILL.from_wave + 1)]
    save_run(run, LAST_WILL.from_wave + 1)
    continued = loaded(load_run(CONTENT)).run
    continued.shop.open(LAST_WILL.from_wave + 1)
    index = talent_index(continued)
    assert index is not None and continued.shop.offer("stats", index).locked


# --- the shopping bot (R-SIM-1) ---------------------------------------------------------------------------


def test_r_end_1_the_shopping_bot_buys_an_offered_talent_it_can_pay_for_beyond_its_reserve() -> None:
    build = load_builds(CONTENT)["spark"]
    run, _ = offered_run(gold=0)
    run.shop.close()
    run.currency = 2000
    bot = ShoppingBot(build)
    bought = bot.shop(run, LAST_WILL.from_wave)
    assert bought.count("stats:last_will") == 1
    assert run.talents == {Talent.LAST_WILL} and run.sim.world.last_will is True
    poor, _ = offered_run(gold=0)
    poor.shop.close()
    poor.currency = LAST_WILL.price - 1
    assert "stats:last_will" not in ShoppingBot(build).shop(poor, LAST_WILL.from_wave)
    assert poor.sim.world.last_will is False
