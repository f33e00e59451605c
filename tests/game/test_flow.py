"""The run's loop (game/flow.py, R-LOOP-1, R-SAVE-1): one `RunFlow` from the lab to the ending,
the phases in order, each step refused outside its phase with nothing changed."""

from __future__ import annotations

import dataclasses

import pytest

from artificer.content import load_content
from artificer.game.flow import Ending, FlowError, Phase, RunFlow
from artificer.game.run import Run, WandCannotFire, WaveStats
from artificer.sim.bot import KitingBot

CONTENT = load_content()
ARENA = (CONTENT.balance.arena.width, CONTENT.balance.arena.height)


def play_out(flow: RunFlow) -> None:
    """The kiting bot plays the wave in progress to its end (its timer or the player's fall)."""
    bot = KitingBot()
    assert flow.wave is not None
    while not flow.wave.over:
        bot.control(flow.run.sim)
        flow.step()


def standing_before(seed: int, next_wave: int) -> Run:
    """A run that has played waves 1..`next_wave`-1 (their numbers made up): between waves."""
    run = Run(CONTENT, seed)
    run.waves = [WaveStats(wave=number) for number in range(1, next_wave)]
    return run


def test_a_run_goes_lab_wave_cleared_shop_wave_and_saves_between_waves() -> None:
    saves: list[tuple[Run, int]] = []
    run = Run(CONTENT, 1)
    flow = RunFlow(run, save=lambda r, n: saves.append((r, n)))
    assert flow.phase is Phase.LAB and flow.number == 1 and flow.wave is None
    wave = flow.begin_wave()
    assert flow.phase is Phase.WAVE and flow.wave is wave and wave.stats.wave == 1
    play_out(flow)
    stats = flow.end_wave()
    assert stats.wave == 1 and run.waves == [stats] and not wave.died
    assert flow.phase is Phase.CLEARED and flow.number == 2 and saves == []
    world_of_the_wave = run.sim
    flow.open_shop()
    assert flow.phase is Phase.SHOP and run.shop.is_open and run.shop.wave == 1
    assert run.sim is not world_of_the_wave, "the run settled: its world rebuilt from what a save holds"
    assert saves == [(run, 2)]
    flow.save()
    assert saves == [(run, 2), (run, 2)]
    second = flow.leave_shop()
    assert flow.phase is Phase.WAVE and second.stats.wave == 2 and not run.shop.is_open
    assert flow.ending is None


def test_a_step_outside_its_phase_is_refused_and_changes_nothing() -> None:
    run = Run(CONTENT, 2)
    flow = RunFlow(run)
    for refused in (flow.step, flow.end_wave, flow.open_shop, flow.save, flow.leave_shop):
        with pytest.raises(FlowError):
            refused()
        assert flow.phase is Phase.LAB and run.waves == [] and not run.shop.is_open
    flow.begin_wave()
    with pytest.raises(FlowError, match="still being played"):
        flow.end_wave()
    with pytest.raises(FlowError):
        flow.begin_wave()
    assert flow.phase is Phase.WAVE


def test_the_player_falling_ends_the_run() -> None:
    run = Run(CONTENT, 3)
    flow = RunFlow(run)
    wave = flow.begin_wave()
    run.sim.world.set_player_hp(5.0, run.sim.world.player_hp()[1])
    x, y = run.sim.world.player_position()
    run.sim.input.spawn(CONTENT.enemy_index("brute"), x + 5.0, y)  # a brute on the standing player
    while not wave.over:
        flow.step()
    assert wave.died
    heard: list[Run] = []
    flow.on_game_cleared.append(heard.append)
    flow.end_wave()
    assert flow.phase is Phase.OVER and flow.ending is Ending.DIED and flow.wave is wave
    assert heard == [], "a fall is no clear (R-END-2)"
    with pytest.raises(FlowError):
        flow.abandon()


def test_winning_the_last_wave_ends_the_run_cleared_with_one_game_cleared_event() -> None:
    """R-END-2: the last wave won is the `game_cleared` event, heard once by each listener,
    with the run, as `end_wave()` ends the run."""
    one_wave = dataclasses.replace(CONTENT, waves=CONTENT.waves[:1])
    flow = RunFlow(Run(one_wave, 1))
    heard: list[tuple[Run, Phase]] = []
    flow.on_game_cleared.append(lambda run: heard.append((run, flow.phase)))
    flow.begin_wave()
    play_out(flow)
    assert heard == [], "not before the wave is ended"
    flow.end_wave()
    assert flow.phase is Phase.OVER and flow.ending is Ending.CLEARED and flow.number == 1
    assert heard == [(flow.run, Phase.OVER)]


@pytest.mark.parametrize("phase", [Phase.LAB, Phase.WAVE, Phase.SHOP])
def test_a_run_can_be_abandoned_in_any_phase_but_over(phase: Phase) -> None:
    flow = RunFlow.continued(standing_before(4, 2), 2) if phase is Phase.SHOP else RunFlow(Run(CONTENT, 4))
    if phase is Phase.WAVE:
        flow.begin_wave()
    if phase is Phase.SHOP:
        flow.open_shop()
    assert flow.phase is phase
    flow.abandon()
    assert flow.phase is Phase.OVER and flow.ending is Ending.ABANDONED


def test_leaving_the_shop_with_a_wand_that_cannot_fire_stays_in_the_shop() -> None:
    """R-VM-2: Next wave is refused before anything changes (the run is not settled)."""
    run = standing_before(5, 2)
    flow = RunFlow.continued(run, 2)
    flow.open_shop()
    carried = run.loadout.carried(run.loadout.active)
    carried.cards[:] = [None] * len(carried.cards)
    assert not run.rearm()["can_fire"]
    world = run.sim
    with pytest.raises(WandCannotFire):
        flow.leave_shop()
    assert flow.phase is Phase.SHOP and run.sim is world and run.shop.is_open


def test_a_continued_run_opens_the_shop_it_was_saved_in() -> None:
    """Continue (or `play --start-wave`): the shop before the next wave comes first; a shop saved
    open stays as it was (its offers are not drawn anew)."""
    run = standing_before(6, 4)
    run.currency = 100
    run.shop.open(3)
    run.shop.reroll()
    shelves = {shelf: list(offers) for shelf, offers in run.shop.shelves.items()}
    flow = RunFlow.continued(run, 4)
    assert flow.phase is Phase.CLEARED and flow.number == 4
    flow.open_shop()
    assert flow.phase is Phase.SHOP and run.shop.wave == 3 and run.shop.rerolls == 1
    assert run.shop.shelves == shelves


@pytest.mark.parametrize(("share", "expected"), [(1.0, 100.0), (0.5, 80.0), (0.0, 30.0)])
def test_each_wave_begins_with_the_heal_between_waves(share: float, expected: float) -> None:
    """R-LOOP-1: as a wave begins, balance.json `wave.heal_between` of max HP comes back (1, the
    default: every wave starts at full HP, a threat of its own rather than attrition)."""
    from tests.content_tweaks import with_balance

    content = with_balance(CONTENT, "wave", heal_between=share)
    run = Run(content, 1)
    run.sim.world.set_player_hp(30.0, 100.0)
    flow = RunFlow(run)
    flow.begin_wave()
    assert run.sim.world.player_hp() == (pytest.approx(expected), 100.0)
