"""Endless in the window and the leaderboard (R-END-3, R-END-4): the victory summary offers to go on;
going on opens the shop before the wave after the last; the endless run's end pays no second reward,
goes on the leaderboard signed and ranked, and the leaderboard screen shows it — a tampered record
in its own place, never ranked."""

from __future__ import annotations

import json

import numpy as np
import pygame

from artificer.content import load_content
from artificer.game.meta import Meta, load_meta, save_meta
from artificer.game.records import Status, load_records, records_path
from artificer.game.run import Run, WaveStats
from artificer.ui.i18n import tr
from artificer.ui.play import ARENA, GameScenes
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.records import RecordsScene
from artificer.ui.scenes.shop import ShopScene
from artificer.ui.scenes.summary import INPUT_GRACE, SummaryScene
from artificer.ui.session import Session
from scene_driving import frames, key

CONTENT = load_content()
LAST = len(CONTENT.waves)


def test_r_end_3_a_victory_goes_on_into_endless_and_its_end_makes_a_ranked_record(display: pygame.Surface) -> None:
    save_meta(Meta(onboarding_done=True, runs=3))
    scenes = GameScenes(CONTENT)
    stack = SceneStack()
    scenes.router.attach(stack)
    scenes.router.push("title")
    played = Run(CONTENT, 3)
    played.waves = [WaveStats(wave=n) for n in range(1, LAST)]  # waves 1..19 behind it, as in play
    scenes.router.push(ARENA, run=played, first_wave=LAST)
    frames(stack, display, 2)
    arena = stack.top
    boss = arena.run.sim.world.boss_status()[0]  # type: ignore[union-attr]
    at = np.array([boss["x"]], np.float32), np.array([boss["y"]], np.float32)
    still = np.zeros(1, np.float32)
    arena.run.sim.world.spawn_projectiles(*at, still, still, 8.0, 1e9, 1)  # type: ignore[union-attr]
    frames(stack, display, 2 + round(CONTENT.balance.wave.breather * 60))
    summary = stack.top
    assert isinstance(summary, SummaryScene) and summary.offers_endless
    paid = load_meta().meta
    assert paid.clears == 1 and paid.runs == 4
    frames(stack, display, round(INPUT_GRACE * 60) + 2)
    key(pygame.K_e)
    frames(stack, display, 2)
    shop = stack.top
    assert isinstance(shop, ShopScene) and shop.wave == LAST + 1, "the shop before the wave after the last"
    run = shop.run
    assert run.state.endless and run.state.settled
    shop.next_wave()
    frames(stack, display, 60)
    key(pygame.K_ESCAPE)
    frames(stack, display, 2)
    for k in (pygame.K_DOWN, pygame.K_DOWN, pygame.K_DOWN, pygame.K_RETURN):  # abandon the endless run
        key(k)
    frames(stack, display, 2)
    end = stack.top
    assert isinstance(end, SummaryScene) and end.snapshot is not None and end.snapshot.endless
    after = load_meta().meta
    assert (after.aether, after.runs, after.clears) == (paid.aether, paid.runs, paid.clears), "no second reward"
    assert after.best_wave == LAST + 1
    assert end.record is not None and end.record[1] == 1 and end.snapshot.rank == 1
    board = load_records()
    assert [r.wave for r in board.ranked()] == [LAST + 1]
    frames(stack, display, round(INPUT_GRACE * 60) + 2)
    key(pygame.K_RETURN)
    frames(stack, display, 2)
    shown = stack.top
    assert isinstance(shown, RecordsScene) and shown.highlight == end.record[0], "the board, its new row marked"
    key(pygame.K_ESCAPE)
    frames(stack, display, 2)
    assert stack.top is not None and stack.top.__class__.__name__ == "TitleScene"


def test_r_end_4_the_leaderboard_screen_ranks_verified_records_and_sets_tampered_ones_apart(
    display: pygame.Surface,
) -> None:
    from artificer.game.records import Record, save_records

    board = load_records()
    board.add(Record(30, 1800.0, "ab" * 8, "2026-12-02T10:00:00Z"))
    board.add(Record(26, 1500.0, "cd" * 8, "2026-12-02T11:00:00Z", cursed=True))
    board.add(Record(22, 1200.0, "ef" * 8, "2026-12-02T12:00:00Z", replay="2026-12-02_120000_seed5.replay"))
    board.confirm("2026-12-02_120000_seed5.replay", 22, 1200.0)  # issue 19: its replay played again
    save_records(board)
    data = json.loads(records_path().read_text())
    data["records"][0]["elapsed_sec"] = 1.0  # a faster time, typed in
    records_path().write_text(json.dumps(data))
    scene = RecordsScene(Session.default().controls)
    stack = SceneStack()
    stack.push(scene)
    frames(stack, display, 1)
    assert [(rank, record.wave, status) for rank, record, status in scene.rows] == [
        (1, 26, Status.VERIFIED),
        (2, 22, Status.VERIFIED),
        (None, 30, Status.TAMPERED),
    ]
    assert [record.replay_checked for _, record, _ in scene.rows] == [False, True, False]
    assert tr("ui.records.tampered") and tr("ui.records.replay_checked")


def test_r_end_3_a_mutator_wave_names_its_mutator_on_the_hud_with_a_one_line_explanation(
    display: pygame.Surface,
) -> None:
    from artificer.game.endless import difficulty
    from artificer.game.flow import RunFlow
    from artificer.ui.scenes.arena import ArenaScene

    number = LAST + CONTENT.balance.endless.mutators.every
    run = Run(CONTENT, 3)
    run.state.endless = True
    run.waves = [WaveStats(wave=n) for n in range(1, number)]
    run.state.difficulty = difficulty(CONTENT, number)
    arena = ArenaScene(CONTENT, flow=RunFlow(run, first_wave=number), session=Session.default())
    stack = SceneStack()
    stack.push(arena)
    frames(stack, display, 2)
    name = tr("mutator.elite_flood.name")
    assert name in [tag for tag, _ in arena.hud_state.modes] and tr("ui.hud.mode.endless") in [
        t for t, _ in arena.hud_state.modes
    ]
    assert arena.juice is not None and arena.juice.banner is not None and arena.juice.banner[0] == name
    assert "×2" in arena.juice.banner[1]


def test_r_end_3_a_boss_rush_announces_each_boss_and_then_the_mutator_and_a_shrunk_arena_draws_its_walls(
    display: pygame.Surface,
) -> None:
    from artificer.game.endless import arena_scale, boss_rush, mutator
    from artificer.game.flow import RunFlow
    from artificer.ui.scenes.arena import ArenaScene

    endless = CONTENT.balance.endless
    number = next(
        n
        for n in range(LAST + 1, endless.max_wave)
        if boss_rush(CONTENT, n) and (m := mutator(CONTENT, n)) is not None and m.id == "shrinking_map"
    )
    run = Run(CONTENT, 3)
    run.state.endless = True
    run.waves = [WaveStats(wave=n) for n in range(1, number)]
    flow = RunFlow.continued(run, number)
    flow.open_shop()
    flow.phase = flow.phase.LAB  # the arena begins the wave itself, as from a continued save
    arena = ArenaScene(CONTENT, flow=flow, session=Session.default())
    stack = SceneStack()
    stack.push(arena)
    frames(stack, display, 2)
    assert arena.juice is not None and arena.juice.banner is not None
    assert arena.juice.banner[0] == tr("ui.arena.boss_rush", n=1, total=endless.boss_rush.bosses)
    name = tr("mutator.shrinking_map.name")
    assert arena.juice.next_banner is not None and arena.juice.next_banner[0] == name, "the mutator's line waits"
    percent = f"{arena_scale(CONTENT, number) * 100:.0f}%"
    assert percent in arena.juice.next_banner[1]
    scale = arena_scale(CONTENT, number)
    width, height = CONTENT.balance.arena.width * scale, CONTENT.balance.arena.height * scale
    assert arena.renderer is not None and arena.renderer.arena == (width, height)
    frames(stack, display, round(CONTENT.balance.wave.boss.banner_seconds * 60) + 2)
    assert arena.juice.banner is not None and arena.juice.banner[0] == name, "then the mutator is announced"


def test_r_end_3_the_shop_before_a_boss_rush_says_what_the_wave_holds(display: pygame.Surface) -> None:
    """The shop before an endless wave names its boss rush and its mutator with the explanation, while
    there is still gold to answer them; a plain endless wave's shop and a normal run's say nothing."""
    from artificer.game.endless import arena_scale, boss_rush, mutator
    from artificer.ui.scenes.arena import mutator_line

    endless = CONTENT.balance.endless
    number = next(n for n in range(LAST + 1, endless.max_wave) if boss_rush(CONTENT, n))
    coming = mutator(CONTENT, number)
    assert coming is not None, "a boss rush wave also has its mutator (the content's cycle)"

    def toasts(wave: int, endless_run: bool) -> list[str]:
        run = Run(CONTENT, 3)
        run.state.endless = endless_run
        shop = ShopScene(run, wave, None, None, save_on_enter=False)
        stack = SceneStack()
        stack.push(shop)
        frames(stack, display, 1)
        return [text for text, _ in shop.toasts.items]

    said = toasts(number, True)
    assert tr("ui.shop.next_rush", wave=number, count=endless.boss_rush.bosses) in said
    name = tr(f"mutator.{coming.id}.name")
    line = mutator_line(CONTENT, coming.id, arena_scale(CONTENT, number))
    assert said[-2:] == [tr("ui.shop.next_mutator", wave=number, name=name), line], "its name, then what it does"
    assert not toasts(LAST + 1, True), "no rush, no mutator: nothing to say"
    assert not toasts(5, False)
