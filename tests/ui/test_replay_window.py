"""Issue 19's replays in the window (dummy driver, posted key events): a run played by keys records
its replay in runs/, goes on in the same replay across the shop's Save and quit and Continue, and
that replay, played again headlessly, gives the same state hash at the end of every wave (R-DET-1).
(The tape's own rules, files and errors: tests/game/test_replay.py.)"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pygame

from artificer.content import Content, load_content
from artificer.content.loader import DEFAULT_DATA_DIR
from artificer.engine.frame import ControlField
from artificer.game.replay import read_tape, replay, runs_dir
from artificer.game.save import run_save_path
from artificer.ui.play import title_scene
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene
from artificer.ui.scenes.lab import LabScene
from artificer.ui.scenes.shop import ShopScene
from artificer.ui.scenes.title import TitleScene

#: Each wave lasts this long here, so that three whole waves play in a few seconds of test.
WAVE_SECONDS = 3


def short_waves(directory: Path) -> Content:
    shutil.copytree(DEFAULT_DATA_DIR, directory, dirs_exist_ok=True)
    waves = json.loads((directory / "waves.json").read_text(encoding="utf-8"))
    for wave in waves["waves"] if isinstance(waves, dict) else waves:
        wave["duration"] = WAVE_SECONDS
        for group in wave.get("groups", []):
            group["start"] = min(group.get("start", 0.0), WAVE_SECONDS / 2)
            if "until" in group:
                group["until"] = min(group["until"], WAVE_SECONDS)
    (directory / "waves.json").write_text(json.dumps(waves), encoding="utf-8")
    return load_content(directory)


def key(kind: int, code: int) -> None:
    pygame.event.post(pygame.event.Event(kind, key=code, mod=0, unicode="", scancode=0))


def choose(stack: SceneStack, item: str) -> None:
    title = stack.top
    assert isinstance(title, TitleScene)
    title.selected = next(i for i, entry in enumerate(title.items) if entry.key == item)


def play_wave_to_the_shop(
    stack: SceneStack, display: pygame.Surface, run_frames: Callable[..., None], held: int, dash_at: int
) -> ShopScene:
    """Holds `held` (a movement key) through the wave, dashes once, and runs on to the shop."""
    key(pygame.KEYDOWN, held)
    for frame in range(WAVE_SECONDS * 60 + 400):
        if frame == dash_at:
            key(pygame.KEYDOWN, pygame.K_SPACE)
            key(pygame.KEYUP, pygame.K_SPACE)
        run_frames(stack, display, 1)
        if isinstance(stack.top, ShopScene):
            break
    key(pygame.KEYUP, held)
    run_frames(stack, display, 1)
    shop = stack.top
    assert isinstance(shop, ShopScene), type(shop).__name__
    return shop


def test_a_run_played_by_keys_replays_to_the_same_hashes_across_save_and_continue(
    display: pygame.Surface, run_frames: Callable[..., None], tmp_path: Path
) -> None:
    content = short_waves(tmp_path / "data")
    stack = SceneStack()
    stack.push(title_scene(content))
    choose(stack, "ui.title.new_run")
    run_frames(stack, display, 3, (pygame.K_RETURN,))
    assert isinstance(stack.top, LabScene)
    run_frames(stack, display, 3, (pygame.K_RETURN,))  # Start wave
    arena = stack.top
    assert isinstance(arena, ArenaScene) and arena.run.tape is not None
    shop = play_wave_to_the_shop(stack, display, run_frames, pygame.K_d, dash_at=40)
    gold = shop.run.currency
    run_frames(stack, display, 2, (pygame.K_r,))  # a reroll, when the gold allows it
    rerolled = shop.run.currency < gold
    run_frames(stack, display, 3, (pygame.K_RETURN,))  # Next wave
    play_wave_to_the_shop(stack, display, run_frames, pygame.K_w, dash_at=25)
    # The shop's Esc menu: Save and quit, then Continue from the title.
    run_frames(stack, display, 2, (pygame.K_ESCAPE, pygame.K_DOWN, pygame.K_DOWN, pygame.K_RETURN))
    assert isinstance(stack.top, TitleScene) and run_save_path().exists()
    choose(stack, "ui.title.continue")
    run_frames(stack, display, 3, (pygame.K_RETURN,))
    assert isinstance(stack.top, ShopScene) and stack.top.wave == 3
    run_frames(stack, display, 3, (pygame.K_RETURN,))  # Next wave
    shop = play_wave_to_the_shop(stack, display, run_frames, pygame.K_a, dash_at=10)

    saved = json.loads(run_save_path().read_text(encoding="utf-8"))
    files = sorted(runs_dir().glob("*.replay"))
    assert [f.name for f in files] == [saved["replay"]], "one replay, the one the save names, went on across Continue"
    tape = read_tape(files[0])
    assert [w.wave for w in tape.waves] == [1, 2, 3] and tape.ending is None
    assert tape.waves[-1].hash == f"{shop.run.sim.state_hash():016x}" or shop.run.sim.world.frame == 0
    wave_1 = tape.waves[0].controls
    assert (wave_1[:, ControlField.MOVE_X] == 1.0).sum() > WAVE_SECONDS * 30, "D held: the player moved right"
    assert np.any(wave_1[:, ControlField.DASH] == 1.0), "the dash pressed is on the tape"
    assert np.any(tape.waves[1].controls[:, ControlField.MOVE_Y] == -1.0), "W held in wave 2"
    calls = [(e.part, e.call) for e in tape.waves[1].before]
    assert ("shop", "close") in calls and (("shop", "reroll") in calls) == rerolled
    assert ("shop", "unlock") in [(e.part, e.call) for e in tape.waves[2].before], "Continue's unlocks are on it"

    result = replay(content, tape)
    assert result.verified, result.diverged
    assert [c.replayed for c in result.waves] == [w.hash for w in tape.waves]
    assert all(c.digest_ok for c in result.waves)


def test_play_replay_watches_the_recorded_run_and_touches_nothing(
    display: pygame.Surface, run_frames: Callable[..., None], tmp_path: Path
) -> None:
    """`play --replay`: the arena flies the bot's recorded run wave after wave — the same state hash
    at each wave's end as recorded —, shows REPLAY, saves, records and counts nothing, and the title
    comes back when the tape ends."""
    from artificer.content.builds import load_builds
    from artificer.game.meta import meta_path
    from artificer.sim.headless import play_waves
    from artificer.ui.play import Watch, first_scene
    from artificer.ui.scenes.arena import REPLAY_TAG

    content = short_waves(tmp_path / "data")
    tape = play_waves(content, 8, 3, load_builds(content)["shotgun"], record=True).tape
    assert tape is not None and len(tape.waves) == 3
    meta_before = meta_path().read_bytes()
    stack = SceneStack()
    stack.push(first_scene(content, start=Watch(tape)))
    run_frames(stack, display, 2)
    arena = stack.top
    assert isinstance(arena, ArenaScene) and arena.pilot is not None
    assert any(colour == REPLAY_TAG for _, colour in arena.hud_state.modes)
    seen: list[str] = []
    for _ in range(3 * (WAVE_SECONDS * 60 + 400)):
        wave = arena.wave
        run_frames(stack, display, 1)
        if wave is not None and arena.wave is None:  # a wave just ended
            seen.append(f"{arena.run.sim.state_hash():016x}")
        if isinstance(stack.top, TitleScene):
            break
    assert seen == [w.hash for w in tape.waves]
    assert isinstance(stack.top, TitleScene), "the tape's end brings the title back"
    assert meta_path().read_bytes() == meta_before and not run_save_path().exists()
    assert not list(runs_dir().glob("*.replay")), "watching records nothing"


def test_leaving_a_watched_replay_from_the_pause_menu_returns_to_the_title(
    display: pygame.Surface, run_frames: Callable[..., None], tmp_path: Path
) -> None:
    from artificer.sim.headless import play_waves
    from artificer.ui.i18n import tr
    from artificer.ui.play import Watch, first_scene
    from artificer.ui.scenes.arena import PauseScene

    content = short_waves(tmp_path / "data")
    tape = play_waves(content, 9, 1, None, record=True).tape
    assert tape is not None
    stack = SceneStack()
    stack.push(first_scene(content, start=Watch(tape)))
    run_frames(stack, display, 30, (pygame.K_ESCAPE,))
    pause = stack.top
    assert isinstance(pause, PauseScene) and tr(pause.items[-1]) == "Leave the replay"
    run_frames(stack, display, 3, (pygame.K_DOWN,) * (len(pause.items) - 1) + (pygame.K_RETURN,))
    assert isinstance(stack.top, TitleScene) and len(stack) == 1


def test_watching_a_first_runs_replay_shows_its_lesson_and_leaves_meta_alone(
    display: pygame.Surface, run_frames: Callable[..., None], tmp_path: Path
) -> None:
    """R-ONB-1's first-run lesson shows in the watched run, but a replay changes nothing: meta.json
    does not learn that the lesson was shown."""
    from artificer.game.flow import RunFlow
    from artificer.game.meta import meta_path
    from artificer.game.onboarding import Onboarding, lesson_tip
    from artificer.game.replay import Tape
    from artificer.game.run import Run
    from artificer.ui import tips
    from artificer.ui.play import Watch, first_scene

    content = short_waves(tmp_path / "data")
    assert Onboarding.of(content, 1).lesson == "move"
    run = Run(content, 12, onboarding=1)
    tape = Tape.begin(run, 1, "lab")
    flow = RunFlow(run)
    wave = flow.begin_wave()
    while not wave.over:
        run.sim.input.move(0.0, -1.0)
        flow.step()
    flow.end_wave()
    meta_before = meta_path().read_bytes()
    stack = SceneStack()
    stack.push(first_scene(content, start=Watch(tape)))
    run_frames(stack, display, 5)
    arena = stack.top
    assert isinstance(arena, ArenaScene) and arena.onboarding.lesson == "move"
    assert tips.seen(lesson_tip("move")), "the lesson was shown while watching"
    assert meta_path().read_bytes() == meta_before, "and meta.json did not learn it"
