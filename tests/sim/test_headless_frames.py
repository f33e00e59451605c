"""R-SIM-1, R-DET-1 (issue 44): between the frames the game must see, the core runs the headless bot's frames itself
(`World.play_bot`, `WaveInProgress.step_bot`) — and the run is the same, byte for byte, as
stepping every frame from Python: each wave's report, the currency, the state hash. Checked on
whole runs of every archetype's opening, on a run with the vampire fang and healing potions (the
core queues the fang's heals and stops before the bot drinks), on a run with the three healing
relics that heal inside the wave (R-REL-1: in the core's step), and on frame buffers too small for
the crowd (the bot reads what an outgrown buffer holds, zeros and all)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest
from tests.content_tweaks import with_balance

from artificer import _core
from artificer.content import Content, load_content
from artificer.content.builds import load_builds
from artificer.engine import EventKind, Simulation
from artificer.engine.events import KIND, A, relic_event
from artificer.game.flow import Phase, RunFlow
from artificer.game.run import Run, WaveInProgress, WaveStats
from artificer.sim.bot import KitingBot, drink_share, drink_when_hurt
from artificer.sim.headless import play_waves

CONTENT = load_content()
BUILDS = load_builds(CONTENT)


def played(content: Content, seed: int, waves: int, build: str | None, frame_by_frame: bool) -> dict[str, Any]:
    run = play_waves(content, seed, waves, BUILDS[build] if build else None, frame_by_frame=frame_by_frame)
    return {
        "reports": run.reports,
        "outcome": run.outcome,
        "hash": run.run.sim.state_hash(),
        "currency": run.run.currency,
        "frames": run.run.sim.world.frame,
    }


@pytest.mark.parametrize(("build", "seed", "waves"), [("spark", 1, 6), ("turret", 2, 5), ("chain", 3, 5)])
def test_the_cores_frames_play_the_same_run_as_each_frame_from_python(build: str, seed: int, waves: int) -> None:
    fast = played(CONTENT, seed, waves, build, frame_by_frame=False)
    slow = played(CONTENT, seed, waves, build, frame_by_frame=True)
    assert fast == slow


def test_endless_ng_plus_and_cursed_runs_are_the_same_too() -> None:
    """R-END-3's waves past the last (their mutators, arenas and bosses), NG+ and cursed waves."""
    # Seeds on which the bot lives through them: 22 endless waves (5), NG+ 2's first waves (4).
    for kwargs in ({"endless": True}, {"ng_plus": 2}, {"cursed": True}):
        waves = 22 if "endless" in kwargs else 4
        seed = 5 if "endless" in kwargs else 4 if "ng_plus" in kwargs else 2
        runs = [play_waves(CONTENT, seed, waves, BUILDS["turret"], frame_by_frame=f, **kwargs) for f in (False, True)]
        assert len(runs[0].reports) == waves, f"{kwargs}: the run plays its {waves} waves"
        fast, slow = ((r.reports, r.outcome, r.run.sim.state_hash(), r.run.currency) for r in runs)
        assert fast == slow, kwargs


def test_a_boss_wave_is_the_same_too() -> None:
    """Wave 8's boss: its phases, its fall and the time to kill, as each frame counts them."""
    fast = played(CONTENT, 2, 8, "turret", False)
    assert fast["reports"][-1].get("boss_id"), "wave 8 is a boss wave"
    assert fast == played(CONTENT, 2, 8, "turret", True)


def test_outgrown_frame_buffers_are_read_as_each_frame_reads_them() -> None:
    small = with_balance(CONTENT, "capacities", enemies=4, pickups=2, projectiles=8, events=8, zones=1, summons=1)
    assert played(small, 5, 3, None, False) == played(small, 5, 3, None, True)


def play_out(
    flow: RunFlow,
    run: Run,
    wave: WaveInProgress,
    bot: KitingBot,
    frame_by_frame: bool,
    drink: bool = False,
    each_frame: Callable[[], None] | None = None,
) -> int:
    """The wave begun, to its end: each frame from Python (`each_frame` after each), or the core's
    frames; with `drink`, the bot drinks when hurt (a frame Python steps). Returns the drinks."""
    drank = 0
    while not wave.over:
        bot.control(run.sim)
        if drink and drink_when_hurt(run, wave):
            drank += 1
            flow.step()
        elif frame_by_frame:
            flow.step()
            if each_frame is not None:
                each_frame()
        else:
            flow.step_bot(bot.tuning, drink_share(run))
    return drank


def fanged_run(frame_by_frame: bool) -> dict[str, Any]:
    """Three waves with vampire_fang owned and two healing potions on the belt."""
    run = Run(CONTENT, 7)
    run.gain_relic("vampire_fang")
    for _ in range(2):
        run.potions.add("red_potion")
    flow = RunFlow(run)
    bot = KitingBot()
    reports = []
    drank = 0
    for _ in range(3):
        wave = flow.begin_wave() if flow.phase is Phase.LAB else flow.leave_shop()
        drank += play_out(flow, run, wave, bot, frame_by_frame, drink=True)
        reports.append(flow.end_wave().as_json())
        if flow.phase is not Phase.CLEARED:
            break
        flow.open_shop()
    return {"reports": reports, "hash": run.sim.state_hash(), "fang": run.relics.kills, "drank": drank}


def test_the_fangs_heals_and_the_potions_drunk_are_the_same() -> None:
    fast, slow = fanged_run(False), fanged_run(True)
    assert fast == slow
    assert fast["fang"] or any(r["kills"] for r in fast["reports"]), "the fang counted kills"


HEALING_RELICS = ("burning_blood", "blood_vial", "meat_on_bone")


def healed_run(frame_by_frame: bool) -> dict[str, Any]:
    """Waves 6 and 7 with R-REL-1's three healing relics owned: each wave begun at 55% HP (its
    archers' shots take it to half, meat_on_bone) with an elite brute beside the player
    (burning_blood); blood_vial at 30 s. The heals the frame-by-frame run saw, by rule."""
    run = Run(CONTENT, 1)  # a seed whose waves 6-7 hurt the bot to half HP in each
    for relic_id in HEALING_RELICS:
        run.gain_relic(relic_id)
    run.waves.extend(WaveStats(wave=number) for number in range(1, 6))  # as if waves 1-5 were played
    flow = RunFlow(run, first_wave=6)
    bot = KitingBot()
    brute = CONTENT.enemy_index("brute")
    rules = {relic_event(CONTENT.relics.relic(relic_id).effect): relic_id for relic_id in HEALING_RELICS}
    reports, healed = [], dict.fromkeys(HEALING_RELICS, 0)
    for _ in range(2):
        wave = flow.begin_wave() if flow.phase is Phase.LAB else flow.leave_shop()
        hp_max = run.sim.world.player_hp()[1]
        run.sim.world.set_player_hp(0.55 * hp_max, hp_max)
        x, y = run.sim.world.player_position()
        run.sim.input.spawn(brute, x + 90.0, y - 60.0, True)

        def count_heals() -> None:
            rows = run.sim.buffers.event_rows()
            for rule in rows[rows[:, KIND] == EventKind.RELIC][:, A]:
                if int(rule) in rules:
                    healed[rules[int(rule)]] += 1

        play_out(flow, run, wave, bot, frame_by_frame, each_frame=count_heals)
        reports.append(flow.end_wave().as_json())
        if flow.phase is not Phase.CLEARED:
            break
        flow.open_shop()
    return {"reports": reports, "hash": run.sim.state_hash(), "hp": run.sim.world.player_hp(), "healed": healed}


def test_r_rel_1_the_healing_relics_heal_the_same_in_the_cores_frames() -> None:
    """R-REL-1, R-SIM-1, R-DET-1: burning_blood, blood_vial and meat_on_bone heal inside the wave,
    in the core, so a run owning all three is the same, byte for byte, whether the core plays the
    bot's frames or Python steps each one — and each of them healed in it."""
    fast, slow = healed_run(False), healed_run(True)
    assert len(slow["reports"]) == 2
    healed = slow.pop("healed")
    assert healed == {"burning_blood": 2, "blood_vial": 2, "meat_on_bone": 2}, healed
    del fast["healed"]  # the core's frames are not seen one by one
    assert fast == slow


def test_a_replay_recording_steps_frame_by_frame() -> None:
    """A replay keeps every frame's controls: the core's frames are refused while one records."""
    from artificer.game.flow import FlowError
    from artificer.game.replay import Tape

    run = Run(CONTENT, 1)
    run.tape = Tape.begin(run, 1, "lab")
    flow = RunFlow(run)
    flow.begin_wave()
    with pytest.raises(FlowError, match="replay"):
        flow.step_bot(KitingBot.tuning, None)


def test_packs_the_field_cap_holds_back_land_the_same() -> None:
    """R-WAVE-1's cap (`max_alive`): the core lands the announced packs between the frames Python
    sees, and brings only the members that fit, as the director does."""
    capped = with_balance(CONTENT, "wave", max_alive=6)
    fast = played(capped, 4, 3, "spark", False)
    assert any(report["held_back"] for report in fast["reports"]), "the cap kept some enemies away"
    assert fast == played(capped, 4, 3, "spark", True)


@pytest.mark.parametrize("count", [1, 2, 7, 12, 40])
def test_a_pack_lands_on_the_sunflower_spiral_to_the_bit(count: int) -> None:
    """R-WAVE-2: the core's spiral (`_core.pack_offsets`, which the director and the core's own
    landings share) is the formula, in Python's float arithmetic."""
    radius = 0.0 if count <= 1 else 6.0 * math.sqrt(count)
    golden = math.pi * (3.0 - math.sqrt(5.0))
    rs = [radius * math.sqrt((i + 0.5) / count) for i in range(count)]
    expected = (
        [r * math.cos(i * golden) for i, r in enumerate(rs)],
        [r * math.sin(i * golden) for i, r in enumerate(rs)],
    )
    assert _core.pack_offsets(count) == expected


def test_a_pack_the_core_cannot_land_is_refused_with_a_message() -> None:
    """The core never panics across the boundary: a pack it cannot land is a ValueError naming why."""
    sim = Simulation(CONTENT, 1)
    for pack, why in [
        ((1.0, 10_000, 3, False, 100.0, 100.0), "kind"),
        ((1.0, 0, -1, False, 100.0, 100.0), "count"),
        ((1.0, 0, 3, False, float("nan"), 100.0), "x"),
        ((-1.0, 0, 3, False, 100.0, 100.0), "lands_at"),
    ]:
        with pytest.raises(ValueError, match=why):
            sim.play_bot(
                5, KitingBot.tuning, _core.HeadlessBooks(), pacing=(0, 0), fang=(0, 0.0), drink_below=None,
                boss_kind=None, landings=[pack],
            )  # fmt: skip
