"""R-END-3's global mutators through `world.step`, their replacement, and the boss rush: its bosses
(three in a row from those the run met), its fights, and its rewards (aether, a Tier 3 card)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from artificer.engine import EventKind, Simulation, WorldMode
from artificer.engine import events as ev
from artificer.engine.frame import EnemyColumn
from artificer.game.bosses import BossFight
from artificer.game.endless import arena_scale, boss_rush, mutator, rush_bosses
from artificer.game.flow import Phase, RunFlow
from artificer.game.meta import Meta
from artificer.game.progress import RunEnd, settle_endless
from artificer.game.run import Run
from artificer.game.save import LoadedRun, load_run, save_run
from artificer.game.stats import WaveStats
from relic_runs import CONTENT

pytestmark = pytest.mark.usefixtures("isolated_home")

ENDLESS = CONTENT.balance.endless
LAST = len(CONTENT.waves)
STILL = {"player_fixed": True, "enemies_still": True}


def _wave_of(mutator_id: str, time: int = 1) -> int:
    """The `time`-th endless wave whose mutator is `mutator_id`."""
    waves = range(LAST + 1, ENDLESS.max_wave + 1, ENDLESS.mutators.every)
    return [n for n in waves if (m := mutator(CONTENT, n)) is not None and m.id == mutator_id][time - 1]


def _sim(mutator_id: str | None, rules: dict[str, bool] | None = None) -> Simulation:
    sim = Simulation(CONTENT, 5, rules={**STILL, **(rules or {})}, mode=WorldMode(mutator=mutator_id))
    sim.world.set_player_position(1000.0, 800.0)
    return sim


def _f32(*values: float) -> np.ndarray:
    return np.array(values, np.float32)


def test_r_end_3_the_cycle_holds_every_mutator_each_replacing_the_last() -> None:
    ids = [m.id for m in ENDLESS.mutators.cycle]
    assert sorted(ids) == sorted(["elite_flood", "mirror_world", "splitting", "shrinking_map", "mana_inversion"])
    seen = [mutator(CONTENT, n) for n in range(LAST + ENDLESS.mutators.every, LAST + 6 * ENDLESS.mutators.every, 1)]
    # One at a time: each wave has exactly one, and a new one takes the place of the last.
    assert all(m is not None for m in seen)
    assert [m.id for m in seen[:: ENDLESS.mutators.every]] == ids  # type: ignore[union-attr]


def test_r_end_3_mirror_world_turns_a_shot_back_after_its_first_hit_through_world_step() -> None:
    hits = {}
    for active in (None, "mirror_world"):
        sim = _sim(active)
        sim.world.spawn_enemies(0, _f32(1200.0, 800.0), _f32(800.0, 800.0))  # east and west of the player
        sim.world.spawn_projectiles(_f32(1150.0), _f32(800.0), _f32(600.0), _f32(0.0), 4.0, 1.0, 0)
        hp = sim.world.player_hp()
        hits[active] = sum(sim.step().hits for _ in range(90))
        assert sim.world.player_hp() == hp, "the player's own shot never hurts the player"
    assert hits == {None: 1, "mirror_world": 2}, "mirrored, the spent shot flew back over the player into the west one"


def test_r_end_3_splitting_monsters_split_once_into_two_at_half_hp_through_world_step() -> None:
    for active, left in ((None, 0), ("splitting", ENDLESS.mutators.splitting.count)):
        sim = _sim(active)
        sim.world.spawn_enemies(0, _f32(1300.0), _f32(800.0))
        sim.world.spawn_projectiles(_f32(1250.0), _f32(800.0), _f32(600.0), _f32(0.0), 4.0, 1e6, 0)
        for _ in range(30):
            counts = sim.step()
        assert counts.enemies == left
        rows = sim.buffers.enemy_rows()
        # A copy's HP bar: full at its own max, which is half the original's.
        assert np.all(rows[:, EnemyColumn.HP_FRACTION] == 1.0)
        # Killed, the copies leave nothing: they split once.
        for x, y in rows[:, [EnemyColumn.X, EnemyColumn.Y]]:
            sim.world.spawn_projectiles(_f32(x - 30.0), _f32(y), _f32(600.0), _f32(0.0), 4.0, 1e6, 0)
        kills = 0
        for _ in range(30):
            sim.step()
            kills += ev.count(sim.buffers.event_rows(), EventKind.ENEMY_KILLED)
        assert kills == left and sim.step().enemies == 0


def test_r_end_3_splitting_copies_have_half_the_hp() -> None:
    hp = CONTENT.enemies[0].hp
    sim = _sim("splitting", {"hit_events": True})
    sim.world.spawn_enemies(0, _f32(1300.0), _f32(800.0))
    sim.world.spawn_projectiles(_f32(1250.0), _f32(800.0), _f32(600.0), _f32(0.0), 4.0, 1e6, 0)
    for _ in range(30):
        sim.step()
    # A hit of exactly half the original's HP kills a copy (and not a hair less).
    sim.world.spawn_projectiles(_f32(1250.0), _f32(800.0), _f32(600.0), _f32(0.0), 40.0, hp * 0.5 * 0.999, 1)
    for _ in range(30):
        sim.step()
    assert sim.step().enemies == 2
    rows = sim.buffers.enemy_rows()
    assert sorted(np.round(rows[:, EnemyColumn.HP_FRACTION], 3)) == pytest.approx([0.001, 0.001], abs=2e-3)


def _cast_interval(sim: Simulation, card: str) -> int:
    """Frames between the wand's first two casts at a dummy in reach: the first of a two-card deck, so
    no reload hides the delay (R-VM-11: a wrapping cast waits the longer of delay and recharge). The dummy
    stands close, so no shot's flight (auto-aim holds while its one target is claimed) paces the wand."""
    sim.world.spawn_enemies(0, _f32(1030.0), _f32(800.0))
    sim.arm_wand(CONTENT.balance.starting_wand.core, [card, card])
    fired = []
    for frame in range(240):
        sim.step()
        if ev.count(sim.buffers.event_rows(), EventKind.CAST_FIRED):
            fired.append(frame)
    return fired[1] - fired[0]


def test_r_end_3_mana_inversion_makes_the_slower_spell_fire_faster_through_world_step() -> None:
    rules = {"enemies_immortal": True}
    plain = {card: _cast_interval(_sim(None, rules), card) for card in ("light_shot", "heavy_shot")}
    inverted = {card: _cast_interval(_sim("mana_inversion", rules), card) for card in ("light_shot", "heavy_shot")}
    assert plain["heavy_shot"] > plain["light_shot"], "as shipped, the heavy shot's delay is longer"
    assert inverted["heavy_shot"] < inverted["light_shot"], "inverted, the longer delay fires faster"
    assert inverted["heavy_shot"] < plain["heavy_shot"] and inverted["light_shot"] > plain["light_shot"]


def test_r_end_3_shrinking_map_shrinks_each_side_20_percent_each_time_never_below_half() -> None:
    rules = ENDLESS.mutators.shrinking_map
    scales = [arena_scale(CONTENT, _wave_of("shrinking_map", k)) for k in range(1, 6)]
    expected = [max(rules.floor, (1 - rules.step) ** k) for k in range(1, 6)]
    assert scales == pytest.approx(expected) and scales[0] == pytest.approx(0.8) and scales[-1] == rules.floor
    assert arena_scale(CONTENT, _wave_of("shrinking_map") + ENDLESS.mutators.every) == 1.0, "replaced: full size"
    # The wave's world: its walls, the player kept inside them, the spawns inside them.
    number = _wave_of("shrinking_map")
    run = Run(CONTENT, 4)
    run.state.endless = True
    run.waves = [WaveStats(wave=n) for n in range(1, number)]
    flow = RunFlow.continued(run, number)
    flow.open_shop()
    width, height = CONTENT.balance.arena.width * 0.8, CONTENT.balance.arena.height * 0.8
    assert run.sim.arena == pytest.approx((width, height)) and run.state.arena_scale == pytest.approx(0.8)
    x, y = run.sim.world.player_position()
    assert x <= width and y <= height
    wave = flow.leave_shop()
    run.sim.input.move(1.0, 1.0)
    for _ in range(600):  # (or until the wave's crowd has the player: the walls hold either way)
        run.sim.input.move(1.0, 1.0)
        flow.step()
        if wave.over:
            break
    rows = run.sim.buffers.enemy_rows()
    assert len(rows) and rows[:, EnemyColumn.X].max() <= width and rows[:, EnemyColumn.Y].max() <= height
    px, py = run.sim.world.player_position()
    radius = CONTENT.balance.player.radius
    assert (px, py) == pytest.approx((width - radius, height - radius)), "the player stops at the near walls"
    assert wave.director.arena == pytest.approx((width, height))


def test_r_end_3_the_next_mutator_replaces_the_last_in_the_world_and_the_save() -> None:
    first, second = _wave_of("elite_flood"), _wave_of("mirror_world")
    assert second == first + ENDLESS.mutators.every
    run = Run(CONTENT, 4)
    run.state.endless = True
    run.waves = [WaveStats(wave=n) for n in range(1, second)]
    flow = RunFlow.continued(run, second)
    flow.open_shop()
    assert run.sim.mode.mutator == run.state.mutator == "mirror_world"
    save_run(run, second)
    loaded = load_run(CONTENT)
    assert isinstance(loaded, LoadedRun) and loaded.run.sim.mode.mutator == "mirror_world"


def test_r_end_3_a_boss_rush_every_20_waves_draws_3_bosses_from_those_met() -> None:
    every = ENDLESS.boss_rush.every
    assert [n for n in range(LAST + 1, LAST + 3 * every + 1) if boss_rush(CONTENT, n)] == [
        LAST + every,
        LAST + 2 * every,
        LAST + 3 * every,
    ]
    met = {"brood_mother", "mirror_mage", "void_lord"}
    rush = rush_bosses(CONTENT, met, 9, LAST + every)
    assert len(rush) == ENDLESS.boss_rush.bosses == 3 and {b.boss_id for b in rush} == met
    assert rush == rush_bosses(CONTENT, met, 9, LAST + every), "the run seed replays it"
    two = rush_bosses(CONTENT, {"brood_mother", "void_lord"}, 9, LAST + every)
    assert len(two) == 3 and {b.boss_id for b in two} == {"brood_mother", "void_lord"}, "met twice: one comes again"
    assert rush_bosses(CONTENT, met, 9, LAST + every + 1) == []


def _clear_boss_rush(seed: int) -> tuple[Run, WaveStats]:
    number = LAST + ENDLESS.boss_rush.every
    run = Run(CONTENT, seed)
    run.state.endless = True
    run.waves = [WaveStats(wave=n) for n in range(1, number)]
    for stats, boss in zip(run.waves[7:], ("brood_mother", "armor_lord")):
        stats.boss = BossFight(boss, ttk_s=30.0)
    run.waves[LAST - 1].boss = BossFight("void_lord", ttk_s=60.0)
    flow = RunFlow.continued(run, number)
    flow.open_shop()
    backpack = list(run.state.loadout.backpack)
    wave = flow.leave_shop()
    run.sim.world.set_rules({"player_invulnerable": True, "hit_events": True})
    came: list[tuple[int, int]] = []  # (the rush's place, the frame) of each boss as it spawns
    while not wave.over:
        flow.step()
        rows = run.sim.buffers.event_rows()
        spawned = rows[(rows[:, ev.KIND] == EventKind.ENEMY_SPAWNED) & (rows[:, ev.A] == wave.boss_kind)]
        came += [(wave.rush[0], wave.stats.frames)] * len(spawned)
        for status in run.sim.world.boss_status():
            if status["kind"] == wave.boss_kind:
                at = _f32(status["x"]), _f32(status["y"])
                run.sim.world.spawn_projectiles(*at, _f32(0.0), _f32(0.0), 8.0, 1e9, 1)
    stats = flow.end_wave()
    assert flow.phase is Phase.CLEARED
    gap = round(ENDLESS.boss_rush.gap * 60)
    assert [n for n, _ in came] == [1, 2, 3], "one at a time, each after the last fell"
    assert all(b - a >= gap for (_, a), (_, b) in zip(came, came[1:])), "the gap between them"
    new = [card for card in run.state.loadout.backpack if card not in backpack]
    assert new == stats.rush_cards
    return run, stats


def test_r_end_3_a_boss_rush_brings_its_bosses_in_a_row_and_pays_a_tier_3_card_and_aether() -> None:
    run, stats = _clear_boss_rush(11)
    rush = ENDLESS.boss_rush
    assert [f.boss_id for f in stats.rush] == [
        b.boss_id for b in rush_bosses(CONTENT, run.state.bosses_met(), 11, stats.wave)
    ]
    assert len(stats.rush) == rush.bosses and all(f.ttk_s is not None for f in stats.rush)
    assert len(stats.rush_cards) == rush.cards >= 1
    assert all(CONTENT.spell(card).tier == rush.card_tier == 3 for card in stats.rush_cards)
    report = stats.as_json()
    assert [entry["boss_id"] for entry in report["boss_rush"]] == [f.boss_id for f in stats.rush]
    assert report["boss_rush_cards"] == stats.rush_cards
    assert run.state.boss_rushes_cleared() == (stats.wave,)
    flow_save = save_run(run, stats.wave + 1)  # R-SAVE-1: the rush's fights and cards go into run.json and back
    loaded = load_run(CONTENT)
    assert isinstance(loaded, LoadedRun) and loaded.run.waves[-1].rush == stats.rush
    assert (
        loaded.run.state.boss_rushes_cleared() == (stats.wave,) and flow_save.waves[-1].rush_cards == stats.rush_cards
    )
    end = RunEnd(stats.wave + 3, False, 0, 100, run.state.boss_rushes_cleared())
    settled = settle_endless(CONTENT, dataclasses.replace(Meta(), aether=5), end)
    assert [(line.kind, line.wave, line.amount) for line in settled.reward.lines] == [
        ("boss_rush", stats.wave, rush.aether)
    ]
    assert settled.meta.aether == 5 + rush.aether


def test_r_end_3_a_plain_wave_reports_no_boss_rush_keys() -> None:
    report = WaveStats(wave=3).as_json()
    assert not {"boss_rush", "boss_rush_cards", "rush", "rush_cards"} & set(report)
