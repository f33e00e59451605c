"""Music (R-FEEL-1): the game's own loops — audible, never clipping, seamless at the loop point, quick to
build, each with its own character — played at master × music volume (R-SET-1), chosen by the scene stack,
and silent without an audio device."""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np
import pygame
import pytest

from artificer.ui.music import ARRANGEMENTS, PEAK, SILENCE, TRACK_NAMES, MusicPlayer, synthesise_track, track_for
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.settings import Settings

RATE = 44100


@pytest.fixture(scope="module")
def tracks() -> dict[str, np.ndarray]:
    return {name: synthesise_track(name, RATE).astype(np.float64) for name in TRACK_NAMES}


def rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(x**2)))


def loudness_envelope(x: np.ndarray, window_s: float = 0.02) -> np.ndarray:
    window = round(window_s * RATE)
    frames = x[: len(x) // window * window].reshape(-1, window)
    return np.asarray(np.sqrt(np.mean(frames**2, axis=1)))


def test_there_are_loops_for_the_title_the_shop_the_waves_and_the_boss() -> None:
    assert set(TRACK_NAMES) == {"title", "shop", "wave", "boss"}


@pytest.mark.parametrize("name", TRACK_NAMES)
def test_each_loop_is_16_to_32_seconds_of_whole_bars(name: str, tracks: dict[str, np.ndarray]) -> None:
    arrangement = ARRANGEMENTS[name]
    seconds = len(tracks[name]) / RATE
    assert 16 <= seconds <= 32
    assert seconds == pytest.approx(arrangement.bars * 4 * 60 / arrangement.bpm, abs=1 / RATE)


@pytest.mark.parametrize("name", TRACK_NAMES)
def test_each_loop_is_audible_and_never_clips(name: str, tracks: dict[str, np.ndarray]) -> None:
    wave = tracks[name]
    assert float(np.max(np.abs(wave))) <= PEAK + 1e-6 < 1.0
    assert 0.1 < rms(wave) < 0.35, "a steady level under the effects, not a whisper and not a wall"
    assert abs(float(np.mean(wave))) < 1e-3  # No DC offset to thump when it starts.
    quietest_second = min(rms(wave[i : i + RATE]) for i in range(0, len(wave) - RATE, RATE))
    assert quietest_second > 0.03, "no dead gap inside the loop"


@pytest.mark.parametrize("name", TRACK_NAMES)
def test_each_loop_joins_its_end_to_its_start_without_a_step(name: str, tracks: dict[str, np.ndarray]) -> None:
    """Played looped, the sample after the last is the first: that step is no bigger than the music's own."""
    wave = tracks[name]
    seam = abs(float(wave[0] - wave[-1]))
    typical = np.percentile(np.abs(np.diff(wave)), 99)
    assert seam <= typical
    # And the level carries on across the seam: the last and the first 50 ms are alike in loudness.
    tail, head = rms(wave[-RATE // 20 :]), rms(wave[: RATE // 20])
    assert min(tail, head) > 0.3 * max(tail, head)


@pytest.mark.parametrize("name", TRACK_NAMES)
def test_each_loop_is_soft_not_harsh(name: str, tracks: dict[str, np.ndarray]) -> None:
    """Almost all the energy under 4 kHz: warm, filtered voices, no fizz."""
    spectrum = np.abs(np.fft.rfft(tracks[name])) ** 2
    freqs = np.fft.rfftfreq(len(tracks[name]), 1 / RATE)
    assert spectrum[freqs > 4000].sum() < 0.02 * spectrum.sum()


def test_the_wave_and_boss_music_drive_and_the_title_and_shop_are_calm(tracks: dict[str, np.ndarray]) -> None:
    """The fights are percussive: above 3 kHz (hats, snares) their level swings hit by hit, over twice as much
    as in the calm loops (measured 0.28 and 0.32 against 0.11 and 0.06). Tempos follow."""

    def percussive_swing(x: np.ndarray) -> float:
        spectrum = np.fft.rfft(x)
        highs = np.fft.irfft(np.where(np.fft.rfftfreq(len(x), 1 / RATE) > 3000, spectrum, 0), len(x))
        envelope = loudness_envelope(highs, 0.01)
        return float(np.mean(np.abs(np.diff(envelope))) / np.mean(envelope))

    calm = max(percussive_swing(tracks["title"]), percussive_swing(tracks["shop"]))
    assert min(percussive_swing(tracks["wave"]), percussive_swing(tracks["boss"])) > 2 * calm
    assert min(ARRANGEMENTS["wave"].bpm, ARRANGEMENTS["boss"].bpm) > max(
        ARRANGEMENTS["title"].bpm, ARRANGEMENTS["shop"].bpm
    )


def test_the_loops_are_different_music(tracks: dict[str, np.ndarray]) -> None:
    names = list(TRACK_NAMES)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            assert len(tracks[first]) != len(tracks[second]) or not np.allclose(tracks[first], tracks[second])


def test_a_loop_is_synthesised_in_well_under_a_second() -> None:
    """Built on first use in a background thread: it must be quick (measured ~0.1-0.2 s per loop).
    Counted in this process's CPU time, not wall time: a busy machine (a build on the other core)
    stretched the wall time of one loop past 0.8 s without the synthesis doing any more work."""
    for name in TRACK_NAMES:
        began = time.process_time()
        synthesise_track(name, RATE)
        assert time.process_time() - began < 0.8, name


def test_synthesis_is_deterministic() -> None:
    assert np.array_equal(synthesise_track("shop", RATE), synthesise_track("shop", RATE))


# --- which track plays ------------------------------------------------------------------------


class Title(Scene):
    music = "title"


class Arena(Scene):
    music = "wave"


class Pause(Scene):
    transparent = True


def test_the_top_most_scene_naming_a_track_decides() -> None:
    assert track_for([]) is None
    assert track_for([Title()]) == "title"
    assert track_for([Title(), Arena()]) == "wave"
    assert track_for([Title(), Arena(), Pause()]) == "wave", "a pause menu keeps the wave music"
    assert track_for([Pause()]) is None


# --- playback -----------------------------------------------------------------------------


@pytest.fixture
def player(display: pygame.Surface) -> Iterator[MusicPlayer]:
    assert pygame.mixer.get_init() is not None, "the dummy audio driver opens a mixer"
    music = MusicPlayer(Settings(master_volume=0.8, music_volume=0.5), background=False)
    yield music
    music.stop()


def test_the_music_volume_reaches_the_mixer(player: MusicPlayer) -> None:
    """R-SET-1, R-FEEL-1: the track plays on its channel at master × music, and follows a change at once."""
    player.request("title")
    sound, channel = player.sound("title"), player.channel
    assert sound is not None and channel is not None
    assert channel.get_busy() and channel.get_sound() is sound
    assert sound.get_volume() == pytest.approx(0.8 * 0.5, abs=0.01)

    player.settings.music_volume = 0.25
    player.update()  # The app does this every frame.
    assert sound.get_volume() == pytest.approx(0.8 * 0.25, abs=0.01)

    player.settings.master_volume = 0.0
    player.update()
    assert sound.get_volume() == 0.0


def test_a_muted_track_is_silent_from_its_first_sample(display: pygame.Surface) -> None:
    player = MusicPlayer(Settings(music_volume=0.0), background=False)
    player.request("shop")
    sound = player.sound("shop")
    assert sound is not None and sound.get_volume() == 0.0
    player.stop()


def test_a_new_track_crossfades_on_the_other_channel(player: MusicPlayer) -> None:
    player.request("title")
    first = player.channel
    player.request("wave")
    second = player.channel
    assert player.playing == "wave"
    assert first is not None and second is not None and first is not second
    assert second.get_sound() is player.sound("wave")
    assert first.get_busy(), "the old track fades out rather than stopping dead"


def test_the_music_follows_the_scene_stack(player: MusicPlayer) -> None:
    """Pushing and popping scenes switches the track; a pause menu over the arena keeps the wave music."""
    stack = SceneStack()
    stack.watch(player.follow)
    stack.push(Title())
    assert player.playing == "title"
    stack.push(Arena())
    assert player.playing == "wave"
    stack.push(Pause())
    assert player.playing == "wave"
    stack.pop()
    stack.pop()
    assert player.playing == "title"
    stack.clear()
    assert player.playing is None


def test_the_player_synthesises_in_the_background_and_starts_when_ready(display: pygame.Surface) -> None:
    player = MusicPlayer(Settings(), background=True)
    player.request("boss")
    deadline = time.perf_counter() + 10
    while player.playing != "boss" and time.perf_counter() < deadline:
        time.sleep(0.02)
        player.update()
    assert player.playing == "boss"
    player.stop()


def test_a_scene_can_ask_for_silence(player: MusicPlayer) -> None:
    class Quiet(Scene):
        music = SILENCE

    stack = SceneStack()
    stack.watch(player.follow)
    stack.push(Arena())
    stack.push(Quiet())
    assert player.playing is None
    stack.pop()
    assert player.playing == "wave"


def test_an_unknown_track_is_silence_not_a_crash(player: MusicPlayer) -> None:
    player.request("polka")
    assert player.playing is None


def test_without_an_audio_device_the_music_is_silent_and_harmless(display: pygame.Surface) -> None:
    pygame.mixer.quit()
    player = MusicPlayer(Settings(), background=False)
    player.request("title")
    player.update()
    assert not player.available
    assert player.playing is None and player.sound("title") is None
    player.settings.music_volume = 0.3
    player.update()
    player.stop()
