"""Relics (R-REL-1..3) through the real run: the data, each relic's effect at its hook in the
wave flow (`Run.start_wave` / `WaveInProgress.step` / `finish`), the core's rule parameters
(`World.set_relic_rules`, read back with `World.relic_rules`), acquisition (elite waves, the
shop, all owned → currency), saves, and check-content on a broken relics.json. The core's side
of the attack_calc and player_damaged rules: tests/engine/test_relic_rules_core.py."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest
from tests.content_tweaks import with_balance

from artificer._core import RelicRules
from artificer.content.check import EXIT_BAD_CONTENT
from artificer.content.check import run as check_content
from artificer.content.loader import DEFAULT_DATA_DIR
from artificer.content.relics import EFFECT_HOOKS, RelicHook
from artificer.game.relics import RunRelics, wave_relic_count
from artificer.game.run import Run, WaveInProgress, WaveStats
from artificer.game.save import LoadedRun, load_run, run_save_path, save_run, settle
from artificer.game.shop import ShopError
from artificer.sim.bot import KitingBot
from relic_runs import BOOK, CONTENT, run_with, value

BASE_HP = CONTENT.balance.player.max_hp
SEED_000_KOREAN_NAMES = {
    "iron_heart": "강철 심장", "energy_core": "에너지 코어", "vampire_fang": "흡혈 송곳니", "golden_idol": "황금 우상",
    "potion_belt": "장인의 벨트", "burning_blood": "자쿰의 투구", "vajra": "미스릴 액스", "anchor": "메이플 실드",
    "bag_of_prep": "모험가의 배낭", "blood_vial": "피의 목걸이", "bronze_scales": "브론즈 체인메일",
    "strawberry": "건강의 반지", "pen_nib": "황금 깃펜", "the_boot": "브론즈 부츠", "akabeko": "황소 투구",
    "centennial_puzzle": "백년의 부적", "meat_on_bone": "고기 망치", "self_forming_clay": "점토 갑옷",
    "champion_belt": "챔피언 벨트",
}  # fmt: skip
ELITE_WAVE = next(wave for wave in CONTENT.waves if any(group.elite for group in wave.groups) and not wave.boss)
PLAIN_WAVE = CONTENT.wave(1)


pytestmark = pytest.mark.usefixtures("isolated_home")  # tests/conftest.py: saves go to a temporary home


def hp(run: Run) -> tuple[float, float]:
    return run.sim.world.player_hp()


def skip_to_end(wave: WaveInProgress) -> None:
    """The wave's timer runs out now (what `finish` does next is the real end of a wave)."""
    wave.stats.frames = wave.frames


# --- the data -------------------------------------------------------------------------------------


def test_r_rel_1_seed_000s_nineteen_relics_with_their_hooks_and_iron_heart_to_start() -> None:
    assert set(SEED_000_KOREAN_NAMES) <= set(BOOK.relics) and len(SEED_000_KOREAN_NAMES) == 19
    assert BOOK.start == ("iron_heart",)
    assert set(BOOK.pool) == set(BOOK.relics) - {"iron_heart"}
    for relic in BOOK.relics.values():
        assert relic.hook == EFFECT_HOOKS[relic.effect]
    assert {relic.hook for relic in BOOK.relics.values()} == set(RelicHook)
    assert value("iron_heart") == 10 and value("strawberry") == 7 and value("pen_nib") == 10
    assert BOOK.all_owned_currency == 25


def test_r_rel_1_korean_names_are_seed_000s() -> None:
    korean = json.loads((DEFAULT_DATA_DIR / "i18n" / "ko.json").read_text(encoding="utf-8"))
    names = {relic_id: korean[BOOK.relic(relic_id).name_key] for relic_id in SEED_000_KOREAN_NAMES}
    assert names == SEED_000_KOREAN_NAMES


# --- passive --------------------------------------------------------------------------------------


def test_r_rel_1_a_new_run_starts_with_iron_heart_and_its_max_hp() -> None:
    run = Run(CONTENT, 1)
    assert run.relics.owned == ["iron_heart"]
    assert hp(run) == (BASE_HP + 10, BASE_HP + 10)


def test_r_rel_1_strawberry_raises_max_hp_by_7_on_pickup_and_heals_as_much() -> None:
    run = Run(CONTENT, 1)
    run.sim.world.set_player_hp(50.0, BASE_HP + 10)
    run.gain_relic("strawberry")
    assert hp(run) == (57.0, BASE_HP + 17)
    run.rearm()  # re-applying the bonuses heals nothing more
    assert hp(run) == (57.0, BASE_HP + 17)


def test_r_rel_1_energy_core_adds_1_mana_regen_per_second() -> None:
    run = Run(CONTENT, 1)
    before = run.sim.world.player_stats()["mana_regen"]
    run.gain_relic("energy_core")
    assert run.sim.world.player_stats()["mana_regen"] == pytest.approx(before + value("energy_core"))


def test_r_rel_1_golden_idol_adds_25_percent_to_the_currency_picked_up() -> None:
    plain, idol = Run(CONTENT, 4), run_with("golden_idol", seed=4)
    got = [r.play_wave(1, _Still()).currency for r in (plain, idol)]
    assert got[0] > 0
    assert got[1] == math.floor(got[0] * 1.25)
    assert idol.currency == got[1]


def test_r_rel_1_vampire_fang_heals_1_for_every_10_kills() -> None:
    run = run_with("vampire_fang")
    run.sim.world.set_player_hp(50.0, BASE_HP + 10)
    assert run.relics.on_kills(25, run.sim.input) == 2 * value("vampire_fang")
    assert run.relics.kills == 5
    run.sim.step()
    assert hp(run)[0] == 52.0
    stats = run.play_wave(1, _Still())  # through a wave: the count carries over, kills mod 10
    assert run.relics.kills == (5 + stats.kills) % 10


def test_r_pot_2_potion_belt_raises_the_belt_to_5_slots() -> None:
    run = Run(CONTENT, 1)
    assert run.potions.slots == CONTENT.potions.base_slots
    run.gain_relic("potion_belt")
    assert run.potions.slots == int(value("potion_belt")) == 5


# --- wave start -----------------------------------------------------------------------------------


def test_r_rel_1_anchor_wards_10_at_wave_start() -> None:
    run = run_with("anchor")
    wave = run.start_wave(1)
    wave.step()
    assert run.sim.buffers.player_value("ward") == value("anchor")


def test_r_rel_1_blood_vial_heals_2_at_wave_start() -> None:
    # Without R-LOOP-1's heal between waves (which fills the HP first), the relic's own heal shows.
    run = run_with("blood_vial", content=with_balance(CONTENT, "wave", heal_between=0.0))
    run.sim.world.set_player_hp(50.0, BASE_HP + 10)
    wave = run.start_wave(1)
    wave.step()
    assert hp(run)[0] == 50.0 + value("blood_vial")


def test_r_rel_1_vajra_adds_1_permanent_strength_each_wave_and_a_save_keeps_it() -> None:
    run = run_with("vajra")
    run.play_wave(1, KitingBot())  # moves: since R-WAVE-1's dense wave 1, standing still dies
    assert run.sim.world.strength == 1.0 and run.relics.strength == 1.0
    settle(run, 2)  # the world is rebuilt between waves
    wave = run.start_wave(2)  # begin_wave resets strength; the run's permanent strength comes back, +1
    assert run.sim.world.strength == 2.0
    wave.step()
    assert run.sim.buffers.player_value("strength") == 2.0
    plain = Run(CONTENT, 7)
    plain.start_wave(1)
    assert plain.sim.world.strength == 0.0


# --- wave end ---------------------------------------------------------------------------------------


def test_r_rel_1_burning_blood_heals_6_when_the_wave_is_won() -> None:
    run = run_with("burning_blood")
    wave = run.start_wave(1)
    wave.step()
    skip_to_end(wave)
    run.sim.world.set_player_hp(50.0, BASE_HP + 10)
    wave.finish()
    assert hp(run)[0] == 50.0 + value("burning_blood")
    assert run.relics.wave_end(50.0, 100.0, won=False, frame=run.sim.input) == 0.0  # a lost wave heals nothing


@pytest.mark.parametrize(("start_hp", "healed"), [(55.0, 12.0), (60.0, 0.0)])
def test_r_rel_1_meat_on_bone_heals_12_at_wave_end_at_half_hp_or_less(start_hp: float, healed: float) -> None:
    run = run_with("meat_on_bone")  # max HP 110: half is 55
    wave = run.start_wave(1)
    wave.step()
    skip_to_end(wave)
    run.sim.world.set_player_hp(start_hp, BASE_HP + 10)
    wave.finish()
    assert hp(run)[0] == start_hp + healed


# --- player_damaged and attack_calc: the core's rules ---------------------------------------------


CORE_RULES = {
    "pen_nib": ("pen_nib_period", 10),
    "the_boot": ("damage_floor", 5),
    "akabeko": ("first_action_bonus", 8),
    "champion_belt": ("vulnerable_weak", 1),
    "bronze_scales": ("thorns", 3),
    "centennial_puzzle": ("hurt_cast_budget", 3),
    "self_forming_clay": ("hurt_ward", 3),
    "bag_of_prep": ("first_cast_budget", 2),
}


@pytest.mark.parametrize("relic_id", sorted(CORE_RULES))
def test_r_rel_1_2_combat_relics_reach_the_cores_relic_rules(relic_id: str) -> None:
    """R-REL-1/2: each attack_calc / player_damaged relic (and bag_of_prep) becomes its rule of the
    core, at once, after the world is rebuilt between waves, and at the next wave start."""
    name, expected = CORE_RULES[relic_id]
    run = Run(CONTENT, 3)
    assert run.sim.world.relic_rules() == RelicRules()
    run.gain_relic(relic_id)
    # That rule at its value, every other rule 0.
    assert run.sim.world.relic_rules() == RelicRules(**{name: expected})
    run.waves.append(WaveStats(wave=1))  # as if wave 1 was played
    settle(run, 2)
    assert getattr(run.sim.world.relic_rules(), name) == expected
    run.start_wave(2)
    assert getattr(run.sim.world.relic_rules(), name) == expected


# --- acquisition (R-REL-3) -------------------------------------------------------------------------


def test_r_rel_3_a_boss_wave_awards_the_boss_bonus_besides_the_elite_ones_relic() -> None:
    """waves.json `boss` (a typed field, false unless set; W8, W10 and W20, R-BOSS-2): a boss wave
    gives one relic plus relics.json boss_bonus_relics, with or without elites (won: tests/game/test_boss_waves.py)."""
    assert {wave.wave for wave in CONTENT.waves if wave.boss} == {8, 10, 20}
    for wave in (PLAIN_WAVE, ELITE_WAVE):
        assert wave_relic_count(wave.model_copy(update={"boss": True}), BOOK) == 1 + BOOK.boss_bonus_relics


def test_r_rel_3_elite_waves_award_one_relic_and_plain_waves_none() -> None:
    assert wave_relic_count(ELITE_WAVE, BOOK) == 1
    assert wave_relic_count(PLAIN_WAVE, BOOK) == 0
    run = Run(CONTENT, 5)
    wave = WaveInProgress(run, ELITE_WAVE.wave)
    skip_to_end(wave)
    stats = wave.finish()
    assert len(stats.relics) == 1 and stats.relics[0] in BOOK.pool
    assert run.relics.owned == ["iron_heart", stats.relics[0]]
    again = Run(CONTENT, 5)
    other = WaveInProgress(again, ELITE_WAVE.wave)
    skip_to_end(other)
    assert other.finish().relics == stats.relics  # the run's seed decides the draw


def test_r_rel_3_a_lost_elite_wave_awards_nothing() -> None:
    run = Run(CONTENT, 5)
    wave = WaveInProgress(run, ELITE_WAVE.wave)
    wave.died = True
    assert wave.finish().relics == [] and run.relics.owned == ["iron_heart"]


def test_r_rel_3_draws_only_unowned_relics_and_gives_25_when_all_are_owned() -> None:
    run = Run(CONTENT, 5)
    last = BOOK.pool[-1]
    for relic_id in BOOK.pool[:-1]:
        run.gain_relic(relic_id)
    assert run.award_relic("test/0") == last
    gold = run.currency
    wave = WaveInProgress(run, ELITE_WAVE.wave)
    skip_to_end(wave)
    stats = wave.finish()
    assert stats.relics == [] and stats.relic_currency == BOOK.all_owned_currency
    assert run.currency == gold + stats.currency + BOOK.all_owned_currency


def test_r_shop_1_the_shop_sells_one_unowned_relic_at_its_price() -> None:
    run = Run(CONTENT, 5)
    run.currency = 200
    run.shop.open(1)
    relic_id = run.shop.relic
    assert relic_id is not None and relic_id not in ["iron_heart"]
    assert run.shop.relic_price == BOOK.shop_price
    assert run.shop.buy_relic() == relic_id
    assert relic_id in run.relics and run.currency == 200 - BOOK.shop_price
    with pytest.raises(ShopError):
        run.shop.buy_relic()


def test_r_shop_1_no_relic_for_sale_when_every_relic_is_owned_nor_without_gold() -> None:
    run = Run(CONTENT, 5)
    run.shop.open(1)
    with pytest.raises(ShopError):  # not enough gold: nothing changes
        run.shop.buy_relic()
    assert run.shop.relic is not None and run.relics.owned == ["iron_heart"]
    run.shop.close()
    for relic_id in BOOK.pool:
        run.gain_relic(relic_id)
    run.shop.open(2)
    assert run.shop.relic is None


# --- saves ------------------------------------------------------------------------------------------


def test_r_save_1_relics_their_state_and_the_shops_relic_survive_a_save() -> None:
    run = run_with("vajra", "vampire_fang", "strawberry")
    run.play_wave(1, KitingBot())  # moves: since R-WAVE-1's dense wave 1, standing still dies
    run.shop.open(1)
    save_run(run, 2)
    loaded = load_run(CONTENT)
    assert isinstance(loaded, LoadedRun)
    back = loaded.run
    assert back.relics.owned == run.relics.owned == ["iron_heart", "vajra", "vampire_fang", "strawberry"]
    assert back.relics.strength == 1.0 and back.relics.kills == run.relics.kills
    assert back.shop.relic == run.shop.relic
    assert hp(back) == hp(run)


def test_r_save_1_a_save_from_before_relics_loads_with_none_and_its_max_hp_as_saved() -> None:
    run = Run(CONTENT, 2)
    run.play_wave(1, KitingBot())  # moves: since R-WAVE-1's dense wave 1, standing still dies
    save_run(run, 2)
    path = run_save_path()
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["relics"]
    del data["shop"]["relic"]
    data["player"]["hp_max"] = BASE_HP  # before relics, no iron_heart
    data["player"]["hp"] = min(data["player"]["hp"], BASE_HP)
    path.write_text(json.dumps(data), encoding="utf-8")
    loaded = load_run(CONTENT)
    assert isinstance(loaded, LoadedRun)
    assert loaded.run.relics.owned == []
    assert hp(loaded.run)[1] == BASE_HP  # no relic bonus applied on top of the saved max HP
    loaded.run.rearm()
    assert hp(loaded.run)[1] == BASE_HP


# --- check-content -----------------------------------------------------------------------------------


def test_check_content_reports_each_problem_of_a_broken_relics_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    text = (data / "relics.json").read_text(encoding="utf-8")
    book = json.loads(text)
    book["relics"]["anchor"]["hook"] = "on_turn"
    book["relics"]["vajra"]["effect"] = "fly"
    del book["relics"]["the_boot"]["icon"]
    book["relics"]["blood_vial"]["value"] = -2
    broken = json.dumps(book, indent=2)
    # A duplicate id: the same key twice in "relics".
    twin = json.dumps(book["relics"]["akabeko"])
    broken = broken.replace('"relics": {', '"relics": {\n    "akabeko": ' + twin + ",", 1)
    (data / "relics.json").write_text(broken, encoding="utf-8")
    assert check_content(data) == EXIT_BAD_CONTENT
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("relics.json")]
    joined = "\n".join(lines)
    assert "$.relics.anchor.hook" in joined
    assert "$.relics.vajra.effect" in joined
    assert "$.relics.the_boot.icon" in joined
    assert "$.relics.blood_vial.value" in joined
    assert "$.relics.akabeko" in joined and "more than once" in joined
    assert "Traceback" not in joined
    assert len(lines) == 5, joined


def test_check_content_reports_an_effect_on_the_wrong_hook_and_an_unknown_pool_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    book = json.loads((data / "relics.json").read_text(encoding="utf-8"))
    book["relics"]["anchor"]["hook"] = "wave_end"
    last = len(book["pool"])
    book["pool"].append("anchorr")
    (data / "relics.json").write_text(json.dumps(book), encoding="utf-8")
    assert check_content(data) == EXIT_BAD_CONTENT
    out = capsys.readouterr().out
    assert 'relics.json: $.relics.anchor.hook: effect "ward" acts on hook "wave_start", not "wave_end"' in out
    assert f'relics.json: $.pool[{last}]: unknown relic "anchorr"' in out


class _Still:
    """A controller that stands still (the wand fires by itself)."""

    def control(self, sim: object) -> None:
        return None


def test_run_relics_unowned_keeps_the_pool_order() -> None:
    relics = RunRelics(BOOK, ["iron_heart", "vajra"])
    assert relics.unowned() == [relic_id for relic_id in BOOK.pool if relic_id != "vajra"]
