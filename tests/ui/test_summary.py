"""The run summary (R-END-1, R-SAVE-1): frozen stats and build, drawn, and saved as a dated PNG.

Runs under the dummy video driver with `ARTIFICER_HOME` in a temporary
directory (the `isolated_home` fixture), so the PNGs land in
`<tmp>/home/data/runs/`.
"""

from __future__ import annotations

import dataclasses
from datetime import date, timedelta
from pathlib import Path

import numpy as np
import pygame
import pytest

from artificer import storage
from artificer.content import load_content
from artificer.game.bosses import BossFight
from artificer.game.run import Run, WaveInProgress, WaveStats
from artificer.sim.bot import KitingBot
from artificer.ui.cards import CardArt
from artificer.ui.i18n import tr
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.scenes.summary import (
    INPUT_GRACE,
    BossLine,
    Outcome,
    RunSnapshot,
    SummaryScene,
    draw_summary,
    format_duration,
    next_run_image_path,
)

CONTENT = load_content()
DAY = date(2031, 5, 17)


def distinct_colours(surface: pygame.Surface) -> int:
    pixels = pygame.surfarray.array3d(surface)[::4, ::4].reshape(-1, 3)
    return len(np.unique(pixels, axis=0))


def played_run(frames_into_wave_2: int = 120) -> tuple[Run, WaveInProgress]:
    """Wave 1 played to its end by the bot, then `frames_into_wave_2` frames of wave 2, left unfinished."""
    run = Run(CONTENT, seed=5)
    bot = KitingBot()
    run.play_wave(1, bot)
    wave = run.start_wave(2)
    for _ in range(frames_into_wave_2):
        bot.control(run.sim)
        wave.step()
    return run, wave


def short_run() -> Run:
    """A run a few frames into wave 1 (for tests that only need something to show)."""
    run = Run(CONTENT, seed=5)
    wave = run.start_wave(1)
    for _ in range(5):
        wave.step()
    return run


def enter(scene: SummaryScene, below: Scene | None = None) -> SceneStack:
    stack = SceneStack()
    if below is not None:
        stack.push(below)
    stack.push(scene)
    return stack


def runs_dir(home: Path) -> Path:
    return home / "data" / "runs"


# --- the PNG (R-END-1, R-SAVE-1) ---------------------------------------------------------


def test_entering_the_summary_saves_a_png_of_the_window_under_the_data_dir(
    display: pygame.Surface, isolated_home: Path
) -> None:
    run, wave = played_run()
    scene = SummaryScene(run, died=True, on_quit=None, abandoned=True, in_progress=wave.stats)
    enter(scene)
    expected = runs_dir(isolated_home) / f"{date.today().isoformat()}_run_1.png"
    assert scene.saved_path == expected and expected.is_file()
    assert storage.data_dir() == isolated_home / "data"
    image = pygame.image.load(str(expected))
    assert image.get_size() == display.get_size()
    assert distinct_colours(image) > 100, "the picture is the drawn summary, not a blank fill"
    assert sorted(p.name for p in expected.parent.iterdir()) == [expected.name], "no temporary file is left behind"


def test_the_png_is_what_the_screen_shows_above_the_footer(display: pygame.Surface) -> None:
    run, wave = played_run()
    scene = SummaryScene(run, died=True, on_quit=None, in_progress=wave.stats, day=DAY)
    stack = enter(scene)
    stack.draw(display, 0.0)
    assert scene.saved_path is not None
    saved = pygame.surfarray.array3d(pygame.image.load(str(scene.saved_path))).astype(int)
    shown = pygame.surfarray.array3d(display).astype(int)
    body = slice(0, display.get_height() - 100)  # the footer differs: a stamp in the PNG, the path on screen
    assert np.abs(saved[:, body] - shown[:, body]).mean() < 0.5
    assert np.abs(saved[:, -90:] - shown[:, -90:]).mean() > 0.5


def test_the_run_number_counts_up_within_a_day_and_starts_over_the_next(
    display: pygame.Surface, isolated_home: Path
) -> None:
    run = short_run()
    names = []
    for day in (DAY, DAY, DAY, DAY + timedelta(days=1)):
        scene = SummaryScene(run, died=True, on_quit=None, day=day)
        enter(scene)
        assert scene.saved_path is not None
        names.append(scene.saved_path.name)
    assert names == ["2031-05-17_run_1.png", "2031-05-17_run_2.png", "2031-05-17_run_3.png", "2031-05-18_run_1.png"]
    assert all((runs_dir(isolated_home) / name).is_file() for name in names)


def test_the_next_number_is_one_past_the_highest_of_that_day(tmp_path: Path) -> None:
    for name in (
        "2031-05-17_run_2.png",
        "2031-05-17_run_9.png",
        "2031-05-16_run_40.png",
        "2031-05-17_run_x.png",
        "notes.txt",
    ):
        (tmp_path / name).write_bytes(b"")
    assert next_run_image_path(tmp_path, DAY) == tmp_path / "2031-05-17_run_10.png"
    assert next_run_image_path(tmp_path, DAY + timedelta(days=2)) == tmp_path / "2031-05-19_run_1.png"


def test_a_failed_save_leaves_no_file_and_the_screen_says_so(
    display: pygame.Surface, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(path: Path, data: bytes) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(storage, "write_atomic", disk_full)
    run = short_run()
    scene = SummaryScene(run, died=True, on_quit=None, day=DAY)
    stack = enter(scene)
    stack.draw(display, 0.0)
    assert scene.saved_path is None and scene.save_error is not None and "No space" in scene.save_error
    assert not any(runs_dir(isolated_home).glob("*.png"))


# --- the numbers (R-END-1) --------------------------------------------------------------------


def test_the_snapshot_counts_finished_waves_and_the_unfinished_one() -> None:
    run, wave = played_run(150)
    finished = run.waves[0]
    snapshot = RunSnapshot.of(run, Outcome.ABANDONED, wave.stats, DAY)
    assert snapshot.highest_wave == 2 and snapshot.waves_total == len(CONTENT.waves)
    assert snapshot.kills == finished.kills + wave.stats.kills
    assert snapshot.total_damage == pytest.approx(finished.damage_dealt + wave.stats.damage_dealt)
    assert snapshot.seconds == pytest.approx((finished.frames + 150) / 60)
    assert snapshot.gold == run.currency + wave.stats.currency
    assert snapshot.biggest_hit == max(finished.biggest_hit, wave.stats.biggest_hit)
    assert (snapshot.core, list(snapshot.cards)) == run.loadout.wand()
    # A wave already finished is not counted twice.
    assert RunSnapshot.of(run, Outcome.FELL, finished, DAY).highest_wave == 1


def test_the_biggest_hit_is_tracked_from_the_hits_of_the_wave() -> None:
    run, wave = played_run(0)
    stats = run.waves[0]
    assert stats.damage_dealt > 0
    assert 0 < stats.biggest_hit <= stats.damage_dealt
    assert stats.as_json()["biggest_hit"] == round(stats.biggest_hit, 3)
    assert {"wave", "kills", "damage_dealt", "frames", "biggest_hit"} <= set(stats.as_json())


def test_an_abandoned_run_finds_its_unfinished_wave_in_the_scene_below(display: pygame.Surface) -> None:
    run, wave = played_run(90)

    class Arena(Scene):
        def wave_in_progress(self) -> WaveInProgress:
            return wave

    scene = SummaryScene(run, died=True, on_quit=None, abandoned=True, day=DAY)
    enter(scene, below=Arena())
    assert scene.snapshot is not None
    assert scene.snapshot.outcome == Outcome.ABANDONED
    assert scene.snapshot.highest_wave == 2
    assert scene.snapshot.seconds == pytest.approx((run.waves[0].frames + 90) / 60)


def test_durations_read_as_minutes_and_seconds_then_hours() -> None:
    assert [format_duration(s) for s in (0, 59.9, 61, 3599, 3725)] == ["0:00", "0:59", "1:01", "59:59", "1:02:05"]


# --- the screen ------------------------------------------------------------------------------------


def test_each_outcome_renders_its_own_title(display: pygame.Surface) -> None:
    run = short_run()
    images = []
    for died, abandoned in ((True, False), (True, True), (False, False)):
        scene = SummaryScene(run, died=died, on_quit=None, abandoned=abandoned, day=DAY)
        stack = enter(scene)
        stack.update(1 / 60)
        stack.draw(display, 0.0)
        assert distinct_colours(display) > 100
        images.append(pygame.surfarray.array3d(display)[:, :150].astype(int))
    assert [s.value for s in Outcome] == ["fell", "abandoned", "victory"]
    for i in range(3):
        for j in range(i + 1, 3):
            assert np.abs(images[i] - images[j]).mean() > 1, "fell / abandoned / victory look different"


def test_the_build_panel_draws_the_active_cores_cards(display: pygame.Surface) -> None:
    run = short_run()
    scene = SummaryScene(run, died=True, on_quit=None, day=DAY)
    enter(scene).draw(display, 0.0)
    with_cards = pygame.surfarray.array3d(display)[500:, 230:600].astype(int)
    carried = run.loadout.carried(run.loadout.active)
    carried.cards = [None] * len(carried.cards)
    scene = SummaryScene(run, died=True, on_quit=None, day=DAY)
    enter(scene).draw(display, 0.0)
    assert scene.snapshot is not None and not any(scene.snapshot.cards)
    empty = pygame.surfarray.array3d(display)[500:, 230:600].astype(int)
    assert np.abs(with_cards - empty).mean() > 2, "the cards are drawn on the board"


def test_enter_leaves_through_on_quit(display: pygame.Surface) -> None:
    run = short_run()
    calls: list[SceneStack] = []
    scene = SummaryScene(run, died=True, on_quit=calls.append, day=DAY)
    stack = enter(scene)
    enter_key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="")
    stack.handle_event(enter_key)
    assert calls == [], "a key pressed as the run ends (a dash, a shot) does not skip the summary"
    for _ in range(round(INPUT_GRACE * 60) + 1):
        stack.update(1 / 60)
    stack.handle_event(enter_key)
    assert calls == [stack]


def test_r_feel_1_the_summary_stops_the_wave_music_after_a_fall_and_plays_the_title_theme_after_a_victory(
    display: pygame.Surface,
) -> None:
    """The top scene naming a track decides: over the arena ("wave"), a fall's or an abandon's summary asks for
    silence, a victory's for the title theme."""
    from artificer.ui.music import SILENCE, track_for
    from artificer.ui.scenes.arena import ArenaScene

    arena = ArenaScene(CONTENT, seed=1)
    run = arena.run
    assert track_for([arena]) == "wave"
    assert track_for([arena, SummaryScene(run, True, None)]) == SILENCE
    assert track_for([arena, SummaryScene(run, True, None, abandoned=True)]) == SILENCE
    assert track_for([arena, SummaryScene(run, False, None)]) == "title"


def test_r_end_2_the_summary_lists_each_boss_wave_with_its_time_to_kill(display: pygame.Surface) -> None:
    """The victory screen names the bosses the run fought, in wave order: felled ones with their
    time to kill (as m:ss), one still standing as such; a run with no boss wave shows no such panel."""
    run = short_run()
    run.waves = [
        WaveStats(wave=8, boss=BossFight("brood_mother", 21.4, [1, 2])),
        WaveStats(wave=9),
        WaveStats(wave=10, boss=BossFight("mirror_mage", None, [1])),
    ]
    snapshot = RunSnapshot.of(run, Outcome.FELL, day=DAY)
    assert snapshot.bosses == (BossLine(8, "brood_mother", 21.4, 2), BossLine(10, "mirror_mage", None, 1))
    drawn: list[np.ndarray] = []
    for bosses in (snapshot.bosses, ()):
        draw_summary(display, dataclasses.replace(snapshot, bosses=bosses), CONTENT, CardArt(CONTENT))
        drawn.append(pygame.surfarray.array3d(display)[500:1230, 480:640].astype(int))
    with_bosses, without = drawn
    assert np.abs(with_bosses - without).mean() > 2, "the bosses panel is drawn under the build"
    assert tr("ui.summary.boss_felled", time=format_duration(21.4)) == "Felled in 0:21"
    # The brood mother's body colour shows in its chip (the first third of the panel).
    green = np.array(CONTENT.looks.enemies["brood_mother"].colour)
    first_chip = with_bosses[: with_bosses.shape[0] // 3]
    assert (np.abs(first_chip - green).sum(axis=2) < 30).sum() > 50, "the boss's body is drawn in its chip"
