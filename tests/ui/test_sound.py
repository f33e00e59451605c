"""Sound effects: synthesised buffers that are audible, the right length, click-free and distinct; master × SFX
volume applied (R-SET-1); a per-sound rate limit; silence, not a crash, without an audio device."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from artificer.ui.settings import Settings
from artificer.ui.sound import DURATION, MIN_INTERVAL, SOUND_NAMES, SoundBank, mixer_array, synthesise

RATE = 44100


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def test_every_event_the_lead_wires_has_a_sound() -> None:
    assert set(SOUND_NAMES) == {
        "cast",
        "hit",
        "kill",
        "pickup",
        "charge_full",
        "wave_start",
        "wave_end",
        "last_will",
        "heartbeat",
        "hurt",
        "wave_clear",
        "death",  # R-FEEL-1: low HP, hurt, the wave-clear and death moments.
        "boss_warning",
        "boss_phase",
        "boss_plate",  # R-BOSS-1/2: a boss comes, changes phase, loses a plate.
        "boss_fell",
        "victory",  # R-BOSS-2 a boss falls; R-END-2 the game is cleared.
        "unlock",  # R-META-1: aether spent on the Unlocks screen.
    }


@pytest.mark.parametrize("name", SOUND_NAMES)
def test_each_sound_is_audible_short_and_the_right_length(name: str) -> None:
    wave = synthesise(name, RATE)
    assert wave.dtype == np.float32
    assert len(wave) == round(DURATION[name] * RATE)
    assert DURATION[name] <= 1.0  # Short: effects, not music.
    rms = float(np.sqrt(np.mean(wave.astype(np.float64) ** 2)))
    assert rms > 0.03, "too quiet to hear"
    assert float(np.max(np.abs(wave))) <= 0.6, "leaves headroom for overlapping sounds"


@pytest.mark.parametrize("name", SOUND_NAMES)
def test_each_sound_starts_and_ends_at_silence_so_it_does_not_click(name: str) -> None:
    wave = synthesise(name, RATE)
    peak = float(np.max(np.abs(wave)))
    assert wave[0] == 0.0 and abs(float(wave[-1])) < 1e-3
    assert float(np.max(np.abs(wave[: RATE // 2000]))) < 0.25 * peak  # First 0.5 ms: a ramp, not a jump.
    assert float(np.max(np.abs(wave[-RATE // 1000 :]))) < 0.05 * peak  # Last 1 ms: faded out.
    assert float(np.max(np.abs(np.diff(wave)))) < 0.5  # No discontinuity anywhere.


def test_the_sounds_are_distinct_from_each_other() -> None:
    """Each differs in length or in its brightness (spectral centroid): the player can tell them apart."""

    def centroid(wave: np.ndarray) -> float:
        spectrum = np.abs(np.fft.rfft(wave))
        freqs = np.fft.rfftfreq(len(wave), 1 / RATE)
        return float(np.sum(freqs * spectrum) / np.sum(spectrum))

    features = {name: (DURATION[name], centroid(synthesise(name, RATE))) for name in SOUND_NAMES}
    names = list(features)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            (d1, c1), (d2, c2) = features[first], features[second]
            assert abs(d1 - d2) >= 0.02 or abs(c1 - c2) / max(c1, c2) > 0.15, (first, second)


def test_the_frequent_sounds_come_in_slightly_different_pitches(display: pygame.Surface) -> None:
    bank = SoundBank(Settings())
    assert not np.array_equal(bank.waveform("hit", 0), bank.waveform("hit", 1))


def test_the_bank_plays_at_master_times_sfx_volume(display: pygame.Surface) -> None:
    """R-SET-1: the volume sliders reach the sounds."""
    settings = Settings(master_volume=0.5, sfx_volume=0.8)
    bank = SoundBank(settings)
    assert bank.available
    assert bank.volume == pytest.approx(0.4)
    for name in SOUND_NAMES:
        assert all(sound.get_volume() == pytest.approx(0.4, abs=0.01) for sound in bank.sounds(name))
        assert bank.sounds(name)[0].get_length() == pytest.approx(DURATION[name], abs=0.002)

    settings.sfx_volume = 0.25
    bank.apply_settings()
    assert bank.sounds("hit")[0].get_volume() == pytest.approx(0.125, abs=0.01)


def test_a_volume_change_in_the_shared_settings_reaches_the_next_play(
    display: pygame.Surface, clock: FakeClock
) -> None:
    settings = Settings(master_volume=1.0, sfx_volume=1.0)
    bank = SoundBank(settings, clock=clock)
    settings.master_volume = 0.5
    assert bank.play("pickup")
    assert bank.sounds("pickup")[0].get_volume() == pytest.approx(0.5, abs=0.01)


def test_muted_sounds_do_not_play(display: pygame.Surface, clock: FakeClock) -> None:
    bank = SoundBank(Settings(master_volume=0.0), clock=clock)
    assert not bank.play("cast")


def test_a_thousand_hits_in_one_frame_start_one_sound(display: pygame.Surface, clock: FakeClock) -> None:
    bank = SoundBank(Settings(), clock=clock)
    started = sum(bank.play("hit") for _ in range(1000))
    assert started == 1
    assert bank.plays_requested == 1000 and bank.plays_started == 1


def test_a_sound_plays_again_once_its_interval_has_passed(display: pygame.Surface, clock: FakeClock) -> None:
    bank = SoundBank(Settings(), clock=clock)
    assert bank.play("kill")
    clock.now += MIN_INTERVAL["kill"] / 2
    assert not bank.play("kill")
    assert bank.play("cast")  # The limit is per sound: another one still plays.
    clock.now += MIN_INTERVAL["kill"]
    assert bank.play("kill")


def test_an_unknown_sound_is_an_error(display: pygame.Surface) -> None:
    with pytest.raises(KeyError):
        SoundBank(Settings()).play("explosion_of_joy")


def test_without_an_audio_device_the_bank_is_silent_and_nothing_breaks(
    display: pygame.Surface, monkeypatch: pytest.MonkeyPatch, clock: FakeClock
) -> None:
    pygame.mixer.quit()

    def no_device(*args: object, **kwargs: object) -> None:
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "init", no_device)
    bank = SoundBank(Settings(), clock=clock)
    assert not bank.available
    assert not bank.play("wave_start")
    assert bank.sounds("wave_start") == ()
    assert len(bank.waveform("wave_start")) == round(DURATION["wave_start"] * bank.sample_rate)
    bank.apply_settings(Settings(sfx_volume=0.1))  # Volume changes are harmless too.


@pytest.mark.parametrize(
    ("size", "channels", "dtype"), [(-16, 2, np.int16), (16, 1, np.uint16), (8, 2, np.uint8), (32, 2, np.float32)]
)
def test_buffers_are_converted_to_the_mixers_own_format(size: int, channels: int, dtype: type) -> None:
    wave = synthesise("pickup", RATE)
    array = mixer_array(wave, size, channels)
    assert array.dtype == dtype
    assert array.shape == ((len(wave),) if channels == 1 else (len(wave), channels))


def test_the_session_ignores_a_sound_it_does_not_know(display: pygame.Surface) -> None:
    """A scene asking for a sound that does not exist (yet) plays nothing and keeps the game running."""
    from artificer.ui.controls import Controls
    from artificer.ui.session import Session

    settings = Settings()
    session = Session(settings, Controls(settings), SoundBank(settings))
    session.play("explosion_of_joy")
    session.play("explosion_of_joy")
    assert session.sound is not None and session.sound.plays_requested == 0
    session.play("heartbeat")
    assert session.sound.plays_requested == 1


def test_the_heartbeat_is_a_low_double_thump() -> None:
    """R-FEEL-1 low HP: two separate beats (lub-dub), deep (most energy under 200 Hz), so it reads as a pulse."""
    wave = synthesise("heartbeat", RATE).astype(np.float64)
    window = RATE // 25  # 40 ms: longer than a period of the 40-70 Hz thump, so the level does not ripple.
    loudness = np.sqrt(np.convolve(wave**2, np.ones(window) / window, mode="same"))
    loud = loudness > 0.3 * loudness.max()
    onsets = np.flatnonzero(loud[1:] & ~loud[:-1])
    assert len(onsets) + int(loud[0]) == 2
    spectrum = np.abs(np.fft.rfft(wave)) ** 2
    freqs = np.fft.rfftfreq(len(wave), 1 / RATE)
    assert spectrum[freqs < 200].sum() > 0.8 * spectrum.sum()


def test_death_falls_and_wave_clear_rises() -> None:
    """R-FEEL-1: death sinks (its second half is darker than its first); the wave clear climbs (brighter later)."""

    def centroid(wave: np.ndarray) -> float:
        spectrum = np.abs(np.fft.rfft(wave))
        freqs = np.fft.rfftfreq(len(wave), 1 / RATE)
        return float(np.sum(freqs * spectrum) / np.sum(spectrum))

    death = synthesise("death", RATE)
    clear = synthesise("wave_clear", RATE)
    assert centroid(death[len(death) // 2 :]) < centroid(death[: len(death) // 2])
    assert centroid(clear[: len(clear) // 5]) < centroid(clear[len(clear) // 5 : 2 * len(clear) // 5])
