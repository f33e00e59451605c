"""Relics (R-REL-1..3) through the real run: the data and its texts, each relic's effect at its
hook in the wave flow (`Run.start_wave` / `WaveInProgress.step` / `finish`) — the healing relics
inside the wave, as every wave begins at full HP (R-LOOP-1) —, the core's rule parameters
(`World.set_relic_rules`, read back with `World.relic_rules`), acquisition (elite waves, the
shop, all owned → currency), saves, and check-content on a broken relics.json. The core's side
of the attack_calc and player_damaged rules: tests/engine/test_relic_rules_core.py."""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from artificer._core import RelicRules
from artificer.content.check import EXIT_BAD_CONTENT
from artificer.content.check import run as check_content
from artificer.content.loader import DEFAULT_DATA_DIR
from artificer.content.relics import CORE_RULES as CORE_RULE_SPECS
from artificer.content.relics import EFFECT_HOOKS, Relic, RelicHook
from artificer.engine import EventKind
from artificer.engine import events as ev
from artificer.engine.events import relic_event
from artificer.game.relics import RunRelics, relic_text_values, wave_relic_count
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


HEALING_TEXTS = {
    "burning_blood": "An elite enemy dies: heal 6 HP.",
    "blood_vial": "30 s into each wave: heal 2 HP.",
    "meat_on_bone": "Once a wave, on falling to 50% HP or less: heal 12 HP.",
}


@pytest.mark.parametrize("language", ["en", "ja", "ko", "zh_CN"])
def test_r_rel_1_the_healing_relics_say_they_heal_inside_the_wave_with_the_datas_numbers(language: str) -> None:
    """R-REL-1, R-I18N-1: the three healing relics' descriptions say what they do now (an elite's
    death, 30 s into the wave, once a wave at half HP), in each language, with the numbers of
    relics.json: changing the data changes the text."""
    table = json.loads((DEFAULT_DATA_DIR / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    for relic_id, english in HEALING_TEXTS.items():
        relic = BOOK.relic(relic_id)
        text = table[relic.description_key].format(**relic_text_values(relic))
        if language == "en":
            assert text == english
        numbers = {"6", "2", "30", "50", "12"} & set(english.replace("%", " ").split())
        assert all(number in text for number in numbers), (relic_id, text)
        other = relic.model_copy(update={"value": 7.5, "seconds": 45.0, "threshold": 0.4})
        changed = table[relic.description_key].format(**relic_text_values(other))
        assert "7.5" in changed, changed
        assert ("45" in changed) == (relic_id == "blood_vial") and ("40" in changed) == (relic_id == "meat_on_bone")


def test_r_rel_1_every_parameter_of_a_core_rule_is_a_relic_field() -> None:
    """A core rule's parameter is set from the relic's field of its name (`CoreParam.field`)."""
    params = {rule.name: rule.param.field for rule in CORE_RULE_SPECS.values() if rule.param is not None}
    assert params == {"heal_at_wave_time": "seconds", "heal_when_low": "threshold"}
    assert set(params.values()) <= set(Relic.model_fields)


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


# --- inside the wave: the healing relics (R-REL-1; every wave begins at full HP, R-LOOP-1) -----------


def heals(run: Run, rule: str) -> list[float]:
    """The HP restored by each RELIC event of the core's rule `rule` in the latest step."""
    rows = run.sim.buffers.event_rows()
    mine = rows[(rows[:, ev.KIND] == EventKind.RELIC) & (rows[:, ev.A] == relic_event(rule))]
    return [float(v) for v in mine[:, ev.VALUE]]


def quiet_wave(run: Run, number: int = 1) -> WaveInProgress:
    """Wave `number` begun, its first step taken with no enemy left and the wand unarmed (nothing
    hurts the player or kills by chance while a test does)."""
    wave = run.start_wave(number)
    run.sim.world.clear_wand()
    run.sim.input.clear_enemies()
    wave.step()
    return wave


def test_r_rel_1_burning_blood_heals_6_when_an_elite_dies_and_not_for_a_plain_enemy() -> None:
    """R-REL-1 burning_blood (enemy_killed): an elite's death heals 6 in the step it dies, a plain
    enemy's heals nothing; the heal never passes max HP."""
    run = run_with("burning_blood")
    wave = quiet_wave(run)
    grunt = CONTENT.enemy_index("grunt")
    px, py = run.sim.world.player_position()
    hp_max = hp(run)[1]

    def kill(elite: bool) -> None:
        run.sim.input.spawn(grunt, px + 400.0, py, elite)
        wave.step()
        run.sim.input.damage_nearest(px + 400.0, py, 1e6)
        wave.step()
        killed = run.sim.buffers.event_rows()[:, ev.KIND] == EventKind.ENEMY_KILLED
        assert killed.sum() == 1

    run.sim.world.set_player_hp(50.0, hp_max)
    kill(elite=False)
    assert hp(run)[0] == 50.0 and heals(run, "heal_on_elite_kill") == [], "a plain enemy's death heals nothing"
    kill(elite=True)
    assert hp(run)[0] == 50.0 + value("burning_blood")
    assert heals(run, "heal_on_elite_kill") == [value("burning_blood")]
    run.sim.world.set_player_hp(hp_max - 1.0, hp_max)
    kill(elite=True)
    assert hp(run)[0] == hp_max and heals(run, "heal_on_elite_kill") == [1.0], "never above max HP"


def test_r_rel_1_blood_vial_heals_2_thirty_seconds_into_the_wave_and_not_before() -> None:
    """R-REL-1 blood_vial (wave_time): relics.json `seconds` (30) into the wave — the step that
    brings the wave clock to 30 s — heals 2, once; nothing before it, nothing after; again next
    wave. (It replaces the wave-start heal, which R-LOOP-1's full HP made worthless.)"""
    relic = BOOK.relic("blood_vial")
    assert relic.hook == RelicHook.WAVE_TIME and relic.seconds == 30.0 and relic.value == 2.0
    run = run_with("blood_vial")
    moment = round(relic.seconds * run.sim.tick_hz)
    for number in (1, 2):
        wave = quiet_wave(run, number)
        run.sim.world.set_player_hp(50.0, hp(run)[1])
        for frame in range(2, moment):
            run.sim.input.clear_enemies()
            wave.step()
            assert heals(run, "heal_at_wave_time") == [], f"wave {number}, step {frame}"
        assert hp(run)[0] == 50.0, f"wave {number}: nothing before {relic.seconds:g} s"
        wave.step()
        assert heals(run, "heal_at_wave_time") == [value("blood_vial")]
        assert hp(run)[0] == 50.0 + value("blood_vial"), f"wave {number}: healed at {relic.seconds:g} s"
        for _ in range(120):
            run.sim.input.clear_enemies()
            wave.step()
            assert heals(run, "heal_at_wave_time") == [], "once a wave"
        end_wave(run, wave, number + 1)


@pytest.mark.parametrize(("low", "healed"), [(55.0, 12.0), (56.0, 0.0)])
def test_r_rel_1_meat_on_bone_heals_12_on_falling_to_half_hp_once_a_wave(low: float, healed: float) -> None:
    """R-REL-1 meat_on_bone (hp_low): in the wave, the first step that ends at 50% of max HP or less
    heals 12 (max HP 110: 55 is half, 56 is not); lower still later in the wave, nothing more;
    the next wave, once more."""
    run = run_with("meat_on_bone")
    wave = quiet_wave(run)
    hp_max = hp(run)[1]
    assert hp_max * BOOK.relic("meat_on_bone").threshold == 55.0
    run.sim.world.set_player_hp(low, hp_max)
    wave.step()
    assert hp(run)[0] == low + healed
    assert heals(run, "heal_when_low") == ([healed] if healed else [])
    if not healed:
        return
    run.sim.world.set_player_hp(20.0, hp_max)
    for _ in range(60):
        wave.step()
        assert heals(run, "heal_when_low") == [], "once a wave"
    assert hp(run)[0] == 20.0
    end_wave(run, wave, 2)
    again = quiet_wave(run, 2)
    assert hp(run)[0] == hp_max, "R-LOOP-1: the wave begins at full HP"
    run.sim.world.set_player_hp(30.0, hp_max)
    again.step()
    assert hp(run)[0] == 30.0 + value("meat_on_bone") and heals(run, "heal_when_low") == [value("meat_on_bone")]


def test_r_rel_1_no_healing_relic_heals_at_a_waves_end_any_more() -> None:
    """R-REL-1: burning_blood and meat_on_bone no longer heal when a wave is won (their old
    wave_end hook): the wave's last step leaves HP as it was, even at 50 of 110."""
    run = run_with("burning_blood", "meat_on_bone")
    wave = quiet_wave(run)
    skip_to_end(wave)
    run.sim.world.set_player_hp(60.0, hp(run)[1])
    run.sim.world.set_relic_rules(RelicRules())  # the core's rules off: only a wave-end hook could heal
    wave.finish()
    assert hp(run)[0] == 60.0


def end_wave(run: Run, wave: WaveInProgress, next_wave: int) -> None:
    """The wave's timer runs out now; it ends and the world is rebuilt between waves (as run_headless)."""
    skip_to_end(wave)
    wave.finish()
    settle(run, next_wave)


# --- player_damaged and attack_calc: the core's rules ---------------------------------------------


CORE_RULES: dict[str, dict[str, float]] = {
    "pen_nib": {"pen_nib_period": 10},
    "the_boot": {"damage_floor": 5},
    "akabeko": {"first_action_bonus": 8},
    "champion_belt": {"vulnerable_weak": 1},
    "bronze_scales": {"thorns": 3},
    "centennial_puzzle": {"hurt_cast_budget": 3},
    "self_forming_clay": {"hurt_ward": 3},
    "bag_of_prep": {"first_cast_budget": 2},
    "burning_blood": {"heal_on_elite_kill": 6},
    "blood_vial": {"heal_at_wave_time": 2, "heal_at_wave_time_seconds": 30},
    "meat_on_bone": {"heal_when_low": 12, "heal_when_low_threshold": 0.5},
}


@pytest.mark.parametrize("relic_id", sorted(CORE_RULES))
def test_r_rel_1_2_combat_relics_reach_the_cores_relic_rules(relic_id: str) -> None:
    """R-REL-1/2: each attack_calc / player_damaged relic (and bag_of_prep, and the heals inside the
    wave with their moment or threshold) becomes its rule of the core, at once, after the world is
    rebuilt between waves, and at the next wave start."""
    expected = CORE_RULES[relic_id]
    run = Run(CONTENT, 3)
    assert run.sim.world.relic_rules() == RelicRules()
    run.gain_relic(relic_id)
    # That rule (and its parameter) at its value, every other rule 0.
    assert run.sim.world.relic_rules() == RelicRules(**expected)
    run.waves.append(WaveStats(wave=1))  # as if wave 1 was played
    settle(run, 2)
    assert run.sim.world.relic_rules() == RelicRules(**expected)
    run.start_wave(2)
    assert run.sim.world.relic_rules() == RelicRules(**expected)


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
    book["relics"]["anchor"]["hook"] = "hp_low"
    last = len(book["pool"])
    book["pool"].append("anchorr")
    (data / "relics.json").write_text(json.dumps(book), encoding="utf-8")
    assert check_content(data) == EXIT_BAD_CONTENT
    out = capsys.readouterr().out
    assert 'relics.json: $.relics.anchor.hook: effect "ward" acts on hook "wave_start", not "hp_low"' in out
    assert f'relics.json: $.pool[{last}]: unknown relic "anchorr"' in out


def broken_relics(tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Callable[[Any], None]) -> list[str]:
    """check-content's relics.json lines for the shipped data with `change` made to relics.json."""
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    book = json.loads((data / "relics.json").read_text(encoding="utf-8"))
    change(book["relics"])
    (data / "relics.json").write_text(json.dumps(book), encoding="utf-8")
    assert check_content(data) == EXIT_BAD_CONTENT
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("relics.json")]
    assert "Traceback" not in "\n".join(lines)
    return lines


def test_check_content_refuses_the_old_wave_end_hook_and_a_negative_moment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-REL-1: wave_end is no hook any more (no relic acts at a wave's end since R-LOOP-1), and a
    moment is never negative: one line each, naming the hooks there are."""

    def change(relics: Any) -> None:
        relics["burning_blood"]["hook"] = "wave_end"
        relics["blood_vial"]["seconds"] = -1

    lines = broken_relics(tmp_path, capsys, change)
    assert len(lines) == 2, lines
    bad_hook = next(line for line in lines if line.startswith("relics.json: $.relics.burning_blood.hook: "))
    assert all(f"'{h}'" in bad_hook for h in RelicHook) and 'got "wave_end"' in bad_hook
    bad_seconds = next(line for line in lines if line.startswith("relics.json: $.relics.blood_vial.seconds: "))
    assert "greater than or equal to 0" in bad_seconds


def test_check_content_reports_each_bad_number_and_hook_of_the_in_wave_heals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-REL-1: a moment missing, a threshold of 0, an elite heal on another hook — one line each,
    with its JSON path and what the rule needs."""

    def change(relics: Any) -> None:
        del relics["blood_vial"]["seconds"]
        relics["meat_on_bone"]["threshold"] = 0
        relics["burning_blood"]["hook"] = "wave_time"

    lines = broken_relics(tmp_path, capsys, change)
    assert sorted(lines) == [
        "relics.json: $.relics.blood_vial.seconds: heal_at_wave_time needs seconds above 0",
        'relics.json: $.relics.burning_blood.hook: effect "heal_on_elite_kill" acts on hook "enemy_killed", '
        'not "wave_time"',
        "relics.json: $.relics.meat_on_bone.threshold: heal_when_low needs threshold above 0",
    ]


class _Still:
    """A controller that stands still (the wand fires by itself)."""

    def control(self, sim: object) -> None:
        return None


def test_run_relics_unowned_keeps_the_pool_order() -> None:
    relics = RunRelics(BOOK, ["iron_heart", "vajra"])
    assert relics.unowned() == [relic_id for relic_id in BOOK.pool if relic_id != "vajra"]
