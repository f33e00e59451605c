"""Potions (R-POT-1, R-POT-2) through the real wave flow, headless: what each potion changes, when
and by how much; the belt's slots; drops; the shop's potion; saves; and potions.json's checks.

Each effect is measured against a twin: two runs of the same seed stepped alike, one of which
drinks. The core is deterministic (R-DET-1), so any difference on the next frame is the potion's.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from artificer import _core
from artificer.content import ContentError, load_content
from artificer.content.check import EXIT_BAD_CONTENT
from artificer.content.check import run as check_content
from artificer.content.potions import HUD_SLOTS, PotionEffect
from artificer.engine.frame import ENEMY_FIELDS
from artificer.game import save
from artificer.game.potions import (
    BeltFull,
    EmptySlot,
    NotInWave,
    PotionBelt,
    roll_drop,
    turn_seconds,
)
from artificer.game.run import Run, WaveInProgress
from artificer.game.shop import PotionBeltFull
from artificer.sim.bot import KitingBot, drink_when_hurt
from artificer.sim.headless import run_headless

CONTENT = load_content()
DATA = Path(CONTENT.data_dir)
ENEMY_ROW_X, ENEMY_ROW_Y, ENEMY_ROW_HP, ENEMY_ROW_FLAGS = (
    ENEMY_FIELDS.index(f) for f in ("x", "y", "hp_fraction", "flags")
)


def twins(
    seed: int = 7, frames: int = 120, disarm: bool = False
) -> tuple[tuple[Run, WaveInProgress], tuple[Run, WaveInProgress]]:
    """Two identical runs `frames` into wave 1 (the wand cleared when `disarm`: nothing dies by chance)."""
    pairs = []
    for _ in range(2):
        run = Run(CONTENT, seed)
        wave = run.start_wave(1)
        if disarm:
            run.sim.world.clear_wand()
        bot = KitingBot()
        for _ in range(frames):
            bot.control(run.sim)
            wave.step()
        pairs.append((run, wave))
    return pairs[0], pairs[1]


def step_both(*pairs: tuple[Run, WaveInProgress], frames: int = 1) -> None:
    for _ in range(frames):
        for _, wave in pairs:
            wave.step()


def player(run: Run, field: str) -> float:
    return run.sim.buffers.player_value(field)


def belt_with(run: Run, potion: str) -> int:
    return run.potions.add(potion)


# --- R-POT-1: each potion, in a wave ---------------------------------------------------------


def test_r_pot_1_red_potion_heals_20_on_the_next_frame() -> None:
    (a, wave_a), (b, wave_b) = twins()
    for run in (a, b):
        run.sim.world.set_player_hp(50.0, player(run, "hp_max"))
    step_both((a, wave_a), (b, wave_b))
    slot = belt_with(a, "red_potion")
    a.potions.use(a, wave_a, slot)
    assert player(a, "hp") == player(b, "hp"), "nothing happens before the wave's next step"
    step_both((a, wave_a), (b, wave_b))
    assert player(a, "hp") == pytest.approx(player(b, "hp") + 20)
    assert a.potions.held[slot] is None and wave_a.stats.potions_used == 1


def test_r_pot_1_firebomb_deals_20_to_the_enemy_nearest_the_target() -> None:
    (a, wave_a), (b, wave_b) = twins(disarm=True)
    brute = CONTENT.enemy_index("brute")
    corner = (300.0, 300.0)
    for run in (a, b):
        run.sim.input.spawn(brute, *corner)
    step_both((a, wave_a), (b, wave_b))
    rows = a.sim.buffers.enemy_rows()
    target = rows[np.argmin(np.hypot(rows[:, ENEMY_ROW_X] - corner[0], rows[:, ENEMY_ROW_Y] - corner[1]))]
    aim = (float(target[ENEMY_ROW_X]), float(target[ENEMY_ROW_Y]))
    a.potions.use(a, wave_a, belt_with(a, "firebomb"), aim)
    step_both((a, wave_a), (b, wave_b))
    hp_a = a.sim.buffers.enemy_rows()[:, ENEMY_ROW_HP].astype(np.float64)
    hp_b = b.sim.buffers.enemy_rows()[:, ENEMY_ROW_HP].astype(np.float64)
    lost = (hp_b - hp_a) * CONTENT.enemy("brute").hp
    assert np.count_nonzero(lost > 1e-3) == 1, "one enemy, the targeted brute, is hit"
    assert lost.max() == pytest.approx(20, abs=1e-3)


def test_r_pot_1_warrior_elixir_gives_2_strength_until_the_wave_ends() -> None:
    (a, wave_a), (b, wave_b) = twins()
    a.potions.use(a, wave_a, belt_with(a, "warrior_elixir"))
    step_both((a, wave_a), (b, wave_b))
    assert player(a, "strength") == player(b, "strength") + 2
    step_both((a, wave_a), (b, wave_b), frames=120)
    assert player(a, "strength") == player(b, "strength") + 2, "it lasts the wave"
    wave_a.frames = wave_a.stats.frames  # the wave's timer runs out now
    wave_a.finish()
    assert player(a, "strength") == 0, "for the wave only (R-POT-1)"


def test_r_pot_1_guard_potion_gives_12_ward() -> None:
    (a, wave_a), (b, wave_b) = twins()
    a.potions.use(a, wave_a, belt_with(a, "guard_potion"))
    step_both((a, wave_a), (b, wave_b))
    assert player(a, "ward") == pytest.approx(player(b, "ward") + 12)


def test_r_pot_1_mana_elixir_gives_40_mana() -> None:
    (a, wave_a), (b, wave_b) = twins()
    for run in (a, b):  # a deck dearer than the starting core regenerates (the starting wand keeps up)
        run.arm(CONTENT.balance.starting_wand.core, ["fireball"] * 5)
    # A ring of brutes within auto-aim's reach keeps the wand firing until the pool has room
    # for the whole 40.
    brute = CONTENT.enemy_index("brute")
    ring = 0.9 * CONTENT.balance.player.auto_aim_range
    for run in (a, b):
        px, py = player(run, "x"), player(run, "y")
        for k in range(40):
            angle = 2 * np.pi * k / 40
            run.sim.input.spawn(brute, px + ring * np.cos(angle), py + ring * np.sin(angle))
    for _ in range(3600):
        if player(a, "mana") <= player(a, "mana_max") - 45:
            break
        step_both((a, wave_a), (b, wave_b))
    assert player(a, "mana") <= player(a, "mana_max") - 45, "the wand never spent enough mana to measure"
    a.potions.use(a, wave_a, belt_with(a, "mana_elixir"))
    step_both((a, wave_a), (b, wave_b))
    assert player(a, "mana") == pytest.approx(player(b, "mana") + 40, abs=1e-3)


def test_r_pot_1_cursed_vial_weakens_the_target_for_3_turns_of_wave_time() -> None:
    (run, wave), _ = twins(disarm=True)
    brute = CONTENT.enemy_index("brute")
    run.sim.input.spawn(brute, 200.0, 200.0)
    wave.step()
    rows = run.sim.buffers.enemy_rows()
    assert not np.any(rows[:, ENEMY_ROW_FLAGS].astype(np.int64) & _core.ENEMY_FLAG_WEAK)
    run.potions.use(run, wave, belt_with(run, "cursed_vial"), (200.0, 200.0))
    seconds = 3 * turn_seconds(run)
    assert seconds == 3 * CONTENT.balance.turn.seconds == 9.0  # GAME_RULES §8: a turn is a 3-second beat

    def weak_count() -> int:
        flags = run.sim.buffers.enemy_rows()[:, ENEMY_ROW_FLAGS].astype(np.int64)
        return int(np.count_nonzero(flags & _core.ENEMY_FLAG_WEAK))

    wave.step()
    assert weak_count() == 1, "the enemy nearest the target is weak"
    hz = run.sim.tick_hz
    for _ in range(round((seconds - 0.2) * hz)):
        wave.step()
    assert weak_count() == 1, "still weak just before 3 turns"
    for _ in range(round(0.4 * hz)):
        wave.step()
    assert weak_count() == 0, "weak ends after 3 turns"


def test_r_pot_1_a_targeted_potion_with_no_enemy_is_refused_and_kept() -> None:
    from artificer.game.potions import NoTarget

    run = Run(CONTENT, 3)
    wave = run.start_wave(1)
    wave.step()  # nothing has landed yet
    assert run.sim.buffers.counts.enemies == 0
    slot = belt_with(run, "firebomb")
    with pytest.raises(NoTarget):
        run.potions.use(run, wave, slot)
    assert run.potions.held[slot] == "firebomb"


# --- R-POT-2: slots, drops, the shop -----------------------------------------------------------


def test_r_pot_2_the_belt_has_3_slots_and_the_artisans_belt_opens_slots_4_and_5() -> None:
    belt = PotionBelt(CONTENT.potions)
    assert belt.slots == CONTENT.potions.base_slots == 3 and len(belt.held) == HUD_SLOTS == 5
    for potion in ("red_potion", "firebomb", "guard_potion"):
        belt.add(potion)
    assert belt.full and not belt.unlocked(3)
    with pytest.raises(BeltFull):
        belt.add("mana_elixir")
    belt.slots = CONTENT.potions.belt_slots  # what the potion_belt relic does
    assert belt.add("mana_elixir") == 3 and belt.add("cursed_vial") == 4 and belt.full


def test_r_pot_2_use_is_refused_outside_a_wave_and_discard_works_any_time() -> None:
    run = Run(CONTENT, 5)
    slot = belt_with(run, "red_potion")
    with pytest.raises(NotInWave):
        run.potions.use(run, None, slot)
    assert run.potions.held[slot] == "red_potion", "a refused potion is kept"
    assert run.potions.discard(slot) == "red_potion" and run.potions.held[slot] is None
    with pytest.raises(EmptySlot):
        run.potions.discard(slot)


def test_r_pot_2_drops_come_from_the_seed_at_40_percent() -> None:
    book = CONTENT.potions
    rolls = [roll_drop(book, seed, wave) for seed in range(200) for wave in range(1, 6)]
    assert rolls == [roll_drop(book, seed, wave) for seed in range(200) for wave in range(1, 6)], "deterministic"
    share = sum(potion is not None for potion in rolls) / len(rolls)
    assert 0.34 < share < 0.46
    assert {potion for potion in rolls if potion is not None} == set(book.ids)


def _seed_and_wave_that_drop() -> tuple[int, int]:
    return next((seed, 1) for seed in range(100) if roll_drop(CONTENT.potions, seed, 1) is not None)


def _win_wave_1(run: Run) -> WaveInProgress:
    wave = run.start_wave(1)
    wave.step()
    wave.frames = wave.stats.frames
    wave.finish()
    return wave


def test_r_pot_2_a_won_wave_drops_into_the_belt_and_a_full_belt_keeps_nothing() -> None:
    seed, _ = _seed_and_wave_that_drop()
    run = Run(CONTENT, seed)
    wave = _win_wave_1(run)
    assert wave.potion_drop is not None and wave.potion_drop.found
    assert run.potions.held[0] == wave.potion_drop.potion and wave.stats.potions_found == 1
    full = Run(CONTENT, seed)
    for potion in ("red_potion", "red_potion", "red_potion"):
        full.potions.add(potion)
    wave = _win_wave_1(full)
    assert wave.potion_drop is not None and wave.potion_drop.lost, "the UI toasts it"
    assert full.potions.held[:3] == ["red_potion"] * 3 and wave.stats.potions_found == 0


def test_r_pot_2_a_lost_wave_drops_nothing() -> None:
    seed, _ = _seed_and_wave_that_drop()
    run = Run(CONTENT, seed)
    wave = run.start_wave(1)
    wave.step()
    wave.died = True
    wave.finish()
    assert wave.potion_drop is None and run.potions.potions() == []


def test_r_pot_2_the_shop_sells_one_potion_for_20_and_refuses_it_when_the_belt_is_full() -> None:
    run = Run(CONTENT, 11)
    run.currency = 100
    shop = run.shop
    shop.open(1)
    potion = shop.potion
    assert potion in CONTENT.potions.ids and shop.potion_price == 20
    for filler in ("red_potion", "red_potion", "red_potion"):
        run.potions.add(filler)
    with pytest.raises(PotionBeltFull):
        shop.buy_potion()
    assert run.currency == 100 and shop.potion == potion, "refused: nothing changed"
    run.potions.discard(0)
    assert shop.buy_potion() == potion
    assert run.currency == 80 and run.potions.held[0] == potion and shop.potion is None
    shelves = {name: list(places) for name, places in shop.shelves.items()}
    assert shelves == {name: list(places) for name, places in shop.shelves.items()}


def test_the_shops_potion_leaves_the_shelves_draws_alone() -> None:
    """The potion is drawn from its own generator: the same seed's shelves are what they were."""
    run = Run(CONTENT, 12)
    run.shop.open(2)
    again = Run(CONTENT, 12)
    again.shop.open(2)
    again.shop.potion = None
    assert run.shop.shelves == again.shop.shelves


# --- saves -------------------------------------------------------------------------------------


def test_r_save_1_run_json_keeps_the_potions_in_their_slots(tmp_path: Path) -> None:
    run = Run(CONTENT, 21)
    _win_wave_1(run)
    run.gain_relic("potion_belt")  # the Artisan's Belt: slots 4 and 5 open
    assert run.potions.slots == 5
    run.potions.held = [None, "firebomb", None, "cursed_vial", None]
    path = tmp_path / "run.json"
    save.save_run(run, 2, path)
    loaded = save.load_run(CONTENT, path)
    assert isinstance(loaded, save.LoadedRun)
    assert loaded.run.potions.held == [None, "firebomb", None, "cursed_vial", None]
    assert loaded.run.potions.slots == 5


def test_an_old_save_without_potions_loads_with_none(tmp_path: Path) -> None:
    run = Run(CONTENT, 22)
    _win_wave_1(run)
    run.potions.held = [None] * HUD_SLOTS
    path = tmp_path / "run.json"
    save.save_run(run, 2, path)
    document = json.loads(path.read_text(encoding="utf-8"))
    del document["potions"]
    del document["shop"]["potion"]
    path.write_text(json.dumps(document), encoding="utf-8")
    loaded = save.load_run(CONTENT, path)
    assert isinstance(loaded, save.LoadedRun)
    assert loaded.run.potions.potions() == [] and loaded.run.potions.slots == CONTENT.potions.base_slots


def test_a_save_naming_a_potion_the_content_no_longer_has_drops_it(tmp_path: Path) -> None:
    """R-SAVE-1 (issue 13): a potion an update removed is dropped from the belt with a message; the run goes on."""
    run = Run(CONTENT, 23)
    _win_wave_1(run)
    path = tmp_path / "run.json"
    save.save_run(run, 2, path)
    document = json.loads(path.read_text(encoding="utf-8"))
    document["potions"]["held"][0] = "elixir_of_life"
    path.write_text(json.dumps(document), encoding="utf-8")
    found = save.load_run(CONTENT, path)
    assert isinstance(found, save.LoadedRun), found
    assert [(d.kind, d.item) for d in found.dropped] == [("potion", "elixir_of_life")]
    assert "elixir_of_life" not in found.run.potions.held


# --- headless ------------------------------------------------------------------------------------


def test_headless_reports_potions_found_and_used() -> None:
    report = run_headless(CONTENT, 3, 3)
    for wave in report["waves"]:
        assert {"potions_found", "potions_used"} <= set(wave)
    assert sum(wave["potions_found"] for wave in report["waves"]) >= 1


def test_the_bot_drinks_a_healing_potion_below_40_percent_hp() -> None:
    (run, wave), _ = twins()
    run.potions.add("guard_potion")
    slot = run.potions.add("red_potion")
    assert not drink_when_hurt(run, wave), "healthy: it keeps its potions"
    run.sim.world.set_player_hp(0.3 * player(run, "hp_max"), player(run, "hp_max"))
    wave.step()
    assert drink_when_hurt(run, wave)
    assert run.potions.held[slot] is None and run.potions.held[0] == "guard_potion"


# --- data only: a seventh potion; bad potions.json ---------------------------------------------------


def _copy_data(tmp_path: Path) -> Path:
    directory = tmp_path / "data"
    shutil.copytree(DATA, directory)
    return directory


def test_a_seventh_potion_is_data_only(tmp_path: Path) -> None:
    directory = _copy_data(tmp_path)
    book = json.loads((directory / "potions.json").read_text(encoding="utf-8"))
    book["potions"]["swift_tonic"] = {
        "name": "potion.swift_tonic.name", "desc": "potion.swift_tonic.desc", "effect": "ward", "value": 30, "icon": "round_flask",
    }  # fmt: skip
    book["dropChance"] = 1.0
    (directory / "potions.json").write_text(json.dumps(book), encoding="utf-8")
    for language in ("en", "zh_CN", "ko", "ja"):
        path = directory / "i18n" / f"{language}.json"
        texts = json.loads(path.read_text(encoding="utf-8"))
        texts |= {"potion.swift_tonic.name": "Swift Tonic", "potion.swift_tonic.desc": "Gain {value:g} ward."}
        path.write_text(json.dumps(texts, ensure_ascii=False), encoding="utf-8")
    content = load_content(directory)
    assert content.potions.ids[-1] == "swift_tonic"
    seed = next(s for s in range(500) if roll_drop(content.potions, s, 1) == "swift_tonic")
    run = Run(content, seed)
    wave = _win_wave_1(run)
    assert (
        wave.potion_drop is not None
        and wave.potion_drop.potion == "swift_tonic"
        and run.potions.held[0] == "swift_tonic"
    )
    wave = run.start_wave(2)
    wave.step()
    before = player(run, "ward")
    run.potions.use(run, wave, 0)
    wave.step()
    assert player(run, "ward") == pytest.approx(before + 30)


@pytest.mark.parametrize(
    ("change", "path", "reason"),
    [
        (lambda b: b["potions"]["firebomb"].update(effect="explode"), "$.potions.firebomb.effect", "must be"),
        (lambda b: b["potions"]["firebomb"].pop("icon"), "$.potions.firebomb.icon", "required key is missing"),
        (lambda b: b["potions"]["firebomb"].update(icon="teapot"), "$.potions.firebomb.icon", "must be"),
        (lambda b: b["potions"]["red_potion"].update(value=-5), "$.potions.red_potion.value", "greater than 0"),
        (lambda b: b.update(dropChance=1.5), "$.dropChance", "less than or equal to 1"),
        (lambda b: b.update(beltSlots=2), "$.beltSlots", "at least baseSlots"),
        (lambda b: b.update(baseSlots="3"), "$.baseSlots", "must be an integer"),
        (
            lambda b: b["potions"]["red_potion"].update(name="potion.nowhere.name"),
            "$.potions.red_potion.name",
            "no text",
        ),
    ],
)
def test_bad_potions_json_is_one_clear_problem_per_mistake(
    tmp_path: Path, change: object, path: str, reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = _copy_data(tmp_path)
    book = json.loads((directory / "potions.json").read_text(encoding="utf-8"))
    change(book)  # type: ignore[operator]
    (directory / "potions.json").write_text(json.dumps(book), encoding="utf-8")
    with pytest.raises(ContentError) as error:
        load_content(directory)
    problems = [p for p in error.value.problems if p.file == "potions.json"]
    assert [(p.path) for p in problems] == [path], [str(p) for p in error.value.problems]
    assert reason in problems[0].reason
    assert check_content(directory) == EXIT_BAD_CONTENT
    assert f"potions.json: {path}: " in capsys.readouterr().out


def test_a_duplicate_potion_id_is_reported(tmp_path: Path) -> None:
    directory = _copy_data(tmp_path)
    text = (directory / "potions.json").read_text(encoding="utf-8")
    entry = '"firebomb": {"name": "potion.firebomb.name", "desc": "potion.firebomb.desc", "effect": "damage", "value": 5, "icon": "bomb"},'
    text = text.replace('"potions": {', '"potions": {' + entry, 1)
    (directory / "potions.json").write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as error:
        load_content(directory)
    assert [str(p) for p in error.value.problems] == [
        "potions.json: $.potions.firebomb: key is written more than once (the last one would win)"
    ]


def test_every_potion_effect_is_used_by_the_shipped_data() -> None:
    assert {potion.effect for potion in CONTENT.potions.potions.values()} == set(PotionEffect)
