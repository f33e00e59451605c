"""Sound effects, synthesised at start-up (no audio files): cast, hit, kill, pickup, charge_full, wave_start, wave_end,
last_will, and the moments of R-FEEL-1: heartbeat (low HP), hurt, wave_clear, death.

This module owns `SoundBank`: each effect is a short numpy waveform built
from a few sine partials, pitch sweeps and filtered noise under a smooth
envelope (a raised-cosine attack from zero and a release fading to zero,
so nothing clicks), turned into `pygame.mixer.Sound`s in the mixer's own format.

- Volume: every sound plays at master × SFX (R-SET-1). `apply_settings`
  sets it; `play` also notices when the shared `Settings` changed.
- Rate limit: each effect plays at most once per `MIN_INTERVAL[name]`
  seconds; extra requests are dropped. A frame with thousands of hits
  starts one hit sound, not thousands.
- Variety: the frequent effects (cast, hit, kill) come in a few slightly
  different pitches, played in turn, so a stream of them does not drone.
- No audio device: when the mixer cannot open, the bank is silent —
  `play` returns False and nothing else changes; the waveforms are still
  built (they are plain numpy arrays).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pygame

from artificer.ui.settings import Settings

_log = logging.getLogger(__name__)

Wave = npt.NDArray[np.float32]

DEFAULT_SAMPLE_RATE = 44100
MIXER_CHANNELS = 24  # Enough for overlapping effects; a full mixer drops a sound rather than cut one off.
# Every sound ends in a release: a raised-cosine fade to exactly zero over its last quarter
# (4 ms at least), so a tail is never cut off mid-swing.
RELEASE_FRACTION = 0.25
FADE_SECONDS = 0.004

#: Length of each effect in seconds.
DURATION: dict[str, float] = {
    "cast": 0.11,
    "hit": 0.08,
    "kill": 0.24,
    "pickup": 0.17,
    "charge_full": 0.5,
    "wave_start": 0.7,
    "wave_end": 0.85,
    "last_will": 0.95,
    "heartbeat": 0.45,
    "hurt": 0.2,
    "wave_clear": 1.0,
    "death": 0.9,
    "boss_warning": 1.0,
    "boss_phase": 0.8,
    "boss_plate": 0.25,
    "boss_fell": 1.0,
    "victory": 0.95,
    "unlock": 0.7,
}
SOUND_NAMES: tuple[str, ...] = tuple(DURATION)

#: Seconds between two plays of the same effect, at least (the rate limit).
MIN_INTERVAL: dict[str, float] = {
    "cast": 0.05,
    "hit": 0.035,
    "kill": 0.045,
    "pickup": 0.05,
    "charge_full": 0.25,
    "wave_start": 0.5,
    "wave_end": 0.5,
    "last_will": 0.5,
    "heartbeat": 0.4,  # A pulse, not a drone: the low-HP loop asks about once a second.
    "hurt": 0.12,
    "wave_clear": 0.5,
    "death": 0.5,
    "boss_warning": 1.0,
    "boss_phase": 0.5,
    "boss_plate": 0.08,
    "boss_fell": 0.5,
    "victory": 0.95,
    "unlock": 0.3,
}
#: Pitch factors of the variants played in turn (frequent effects only).
VARIANTS: dict[str, tuple[float, ...]] = {
    "cast": (1.0, 1.06, 0.95),
    "hit": (1.0, 0.92, 1.08),
    "kill": (1.0, 1.07, 0.94),
}


# --- synthesis ------------------------------------------------------------------------


def _times(seconds: float, rate: int) -> npt.NDArray[np.float64]:
    return np.arange(round(seconds * rate), dtype=np.float64) / rate


def _envelope(t: npt.NDArray[np.float64], attack: float, decay: float, start: float = 0.0) -> npt.NDArray[np.float64]:
    """0 before `start`, a raised-cosine rise over `attack` s, then an exponential decay with time constant `decay`."""
    local = t - start
    rise = np.clip(local / attack, 0.0, 1.0)
    rise = 0.5 - 0.5 * np.cos(np.pi * rise)
    fall = np.exp(-np.clip(local - attack, 0.0, None) / decay)
    return np.where(local < 0, 0.0, rise * fall)


def _tone(
    t: npt.NDArray[np.float64], f0: float, f1: float | None = None, partials: tuple[float, ...] = (1.0,)
) -> npt.NDArray[np.float64]:
    """Sine partials (amplitudes of harmonics 1, 2, 3...) of a pitch gliding exponentially from f0 to f1."""
    if len(t) < 2:
        return np.zeros_like(t)
    step = t[1] - t[0]
    freq = f0 * (f1 / f0) ** (t / t[-1]) if f1 is not None else np.full_like(t, f0)
    phase = 2 * np.pi * (np.cumsum(freq) - freq[0]) * step  # Integrated frequency: a glide without jumps.
    wave = np.zeros_like(t)
    for harmonic, amplitude in enumerate(partials, start=1):
        wave += amplitude * np.sin(phase * harmonic)
    return wave


def _noise(t: npt.NDArray[np.float64], smooth: int, seed: int) -> npt.NDArray[np.float64]:
    """White noise softened by a moving average of `smooth` samples (a gentle low-pass)."""
    raw = np.random.default_rng(seed).uniform(-1.0, 1.0, len(t))
    kernel = np.ones(smooth) / smooth
    softened = np.convolve(raw, kernel, mode="same")
    peak = float(np.max(np.abs(softened))) or 1.0
    return softened / peak


def _finish(wave: npt.NDArray[np.float64], rate: int, peak: float) -> Wave:
    """Normalise to `peak`, fade the tail to zero, and start from zero: no click at either end."""
    top = float(np.max(np.abs(wave))) or 1.0
    out = wave * (peak / top)
    fade = min(len(out), max(2, round(FADE_SECONDS * rate), round(RELEASE_FRACTION * len(out))))
    out[-fade:] *= 0.5 + 0.5 * np.cos(np.linspace(0.0, np.pi, fade))
    out[0] = 0.0
    return out.astype(np.float32)


def synthesise(name: str, rate: int = DEFAULT_SAMPLE_RATE, pitch: float = 1.0) -> Wave:
    """The mono waveform (-1..1, float32) of effect `name` at `rate` Hz, its pitches scaled by `pitch`."""
    t = _times(DURATION[name], rate)
    p = pitch
    if name == "cast":  # A bright upward "pew" with a breath of air at the start.
        body = _tone(t, 1050 * p, 1600 * p, (1.0, 0.3, 0.1)) * _envelope(t, 0.004, 0.035)
        air = _noise(t, 6, 1) * _envelope(t, 0.002, 0.008) * 0.2
        return _finish(body + air, rate, 0.42)
    if name == "hit":  # A soft thump under a short crunch.
        thump = _tone(t, 210 * p, 85 * p, (1.0, 0.2)) * _envelope(t, 0.003, 0.028)
        crunch = _noise(t, 16, 2) * _envelope(t, 0.002, 0.012) * 0.6
        return _finish(thump + crunch, rate, 0.45)
    if name == "kill":  # A pop and a falling chirp.
        chirp = _tone(t, 700 * p, 190 * p, (1.0, 0.0, 0.12)) * _envelope(t, 0.004, 0.07)
        pop = _noise(t, 8, 3) * _envelope(t, 0.003, 0.02) * 0.45
        return _finish(chirp + pop, rate, 0.5)
    if name == "pickup":  # Two quick rising bell notes (E6, B6).
        first = _tone(t, 1318.5 * p, None, (1.0, 0.25)) * _envelope(t, 0.005, 0.04)
        second = _tone(t, 1975.5 * p, None, (1.0, 0.25)) * _envelope(t, 0.005, 0.05, start=0.055)
        return _finish(first + 0.9 * second, rate, 0.38)
    if name == "charge_full":  # A rising swoosh into a shimmering A-major chord.
        swoosh = _tone(t, 440 * p, 880 * p, (1.0,)) * _envelope(t, 0.01, 0.05) * 0.5
        chord = sum(
            (_tone(t, f * p, None, (1.0, 0.15)) for f in (880.0, 1108.7, 1318.5, 1762.0)),
            np.zeros_like(t),
        )
        shimmer = 1.0 - 0.3 * (0.5 + 0.5 * np.sin(2 * np.pi * 9.0 * t))
        return _finish(swoosh + chord * shimmer * _envelope(t, 0.05, 0.17, start=0.03), rate, 0.4)
    if name == "wave_start":  # A low horn call: an open fifth with a slow vibrato.
        vibrato = 1.0 + 0.004 * np.sin(2 * np.pi * 5.0 * t)
        horn = _tone(t, 220 * p, None, (1.0, 0.5, 0.33, 0.2, 0.1)) * vibrato + 0.7 * _tone(
            t, 329.6 * p, None, (1.0, 0.45, 0.25, 0.1)
        )
        swell = _envelope(t, 0.08, 0.35)
        return _finish(horn * swell, rate, 0.42)
    if name == "wave_end":  # A resolving major arpeggio, C5 E5 G5 C6, in bell tones.
        bells = np.zeros_like(t)
        for step, f in enumerate((523.25, 659.25, 783.99, 1046.5)):
            bells += _tone(t, f * p, None, (1.0, 0.3, 0.08)) * _envelope(t, 0.006, 0.22, start=0.09 * step)
        return _finish(bells, rate, 0.4)
    if name == "last_will":  # R-END-1: two low heartbeats, then a glassy D-minor chord rising out of them.
        beats = np.zeros_like(t)
        for start in (0.0, 0.2):
            beats += _tone(t, 95 * p, 60 * p, (1.0, 0.3)) * _envelope(t, 0.006, 0.06, start=start)
        rise = sum(
            (_tone(t, f * p, f * 1.5 * p, (1.0, 0.2)) for f in (293.7, 349.2, 440.0)),
            np.zeros_like(t),
        )
        return _finish(beats + 0.35 * rise * _envelope(t, 0.2, 0.3, start=0.35), rate, 0.45)
    if name == "heartbeat":  # R-FEEL-1 low HP: a soft "lub-dub", two muffled low thumps, the second quieter.
        beats = np.zeros_like(t)
        for start, gain in ((0.0, 1.0), (0.17, 0.7)):
            thump = _tone(t - start, 68 * p, 42 * p, (1.0, 0.35, 0.08)) * _envelope(t, 0.012, 0.055, start=start)
            beats += gain * thump
        return _finish(beats, rate, 0.55)
    if name == "hurt":  # R-FEEL-1 hurt: a dull falling grunt over a short crunch, darker than a hit.
        grunt = _tone(t, 360 * p, 150 * p, (1.0, 0.5, 0.3, 0.15)) * _envelope(t, 0.004, 0.06)
        crunch = _noise(t, 24, 5) * _envelope(t, 0.002, 0.025) * 0.5
        return _finish(grunt + crunch, rate, 0.5)
    if name == "wave_clear":  # R-FEEL-1 wave clear: a rising G-major arpeggio in bells, ringing out as a chord.
        bells = np.zeros_like(t)
        for step, f in enumerate((392.0, 493.9, 587.3, 784.0, 987.8)):
            gain = 0.8 if step < 4 else 1.0
            bells += gain * _tone(t, f * p, None, (1.0, 0.35, 0.1)) * _envelope(t, 0.005, 0.32, start=0.075 * step)
        glow = _tone(t, 196.0 * p, None, (1.0, 0.3)) * _envelope(t, 0.12, 0.4) * 0.5
        return _finish(bells + glow, rate, 0.45)
    if name == "death":  # R-FEEL-1 death: a heavy falling boom, a low rumble, and a sinking minor third.
        boom = _tone(t, 150 * p, 34 * p, (1.0, 0.5, 0.25)) * _envelope(t, 0.006, 0.3)
        rumble = _noise(t, 90, 7) * _envelope(t, 0.004, 0.22) * 0.6
        sink = _tone(t, 293.7 * p, 196.0 * p, (1.0, 0.3)) + 0.7 * _tone(t, 349.2 * p, 233.1 * p, (1.0, 0.3))
        return _finish(boom + rumble + 0.3 * sink * _envelope(t, 0.05, 0.35, start=0.08), rate, 0.55)
    if name == "boss_warning":  # R-BOSS-2: a boss comes — a two-tone alarm over a low drone, twice.
        alarm = np.zeros_like(t)
        for step, f in enumerate((622.3, 466.2, 622.3, 466.2)):
            alarm += _tone(t, f * p, None, (1.0, 0.4, 0.2)) * _envelope(t, 0.01, 0.12, start=0.2 * step)
        drone = _tone(t, 73.4 * p, None, (1.0, 0.6, 0.4, 0.2)) * _envelope(t, 0.15, 0.45)
        return _finish(0.6 * alarm + drone, rate, 0.5)
    if name == "boss_phase":  # R-BOSS-1: a phase changes — a struck gong, low and beating.
        gong = _tone(t, 98 * p, None, (1.0, 0.6, 0.45, 0.3, 0.2)) + 0.6 * _tone(t, 103 * p, None, (1.0, 0.3))
        crash = _noise(t, 2400, 11) * _envelope(t, 0.004, 0.12) * 0.4
        return _finish(gong * _envelope(t, 0.006, 0.45) + crash, rate, 0.55)
    if name == "boss_plate":  # R-BOSS-2: a plate stripped — a short metallic clank.
        clank = _tone(t, 1760 * p, 1320 * p, (1.0, 0.7, 0.5)) * _envelope(t, 0.003, 0.06)
        return _finish(clank + _noise(t, 5000, 13) * _envelope(t, 0.003, 0.03) * 0.5, rate, 0.35)
    if name == "boss_fell":  # R-BOSS-2: a boss falls — a deep boom, a long crash, a gong a fifth up.
        boom = _tone(t, 120 * p, 28 * p, (1.0, 0.6, 0.3)) * _envelope(t, 0.005, 0.3)
        crash = _noise(t, 1800, 17) * _envelope(t, 0.004, 0.25) * 0.5
        gong = _tone(t, 147 * p, None, (1.0, 0.5, 0.35, 0.2)) * _envelope(t, 0.02, 0.35, start=0.12)
        return _finish(boom + crash + 0.5 * gong, rate, 0.55)
    if name == "victory":  # R-END-2: the game cleared — a rising C-major fanfare, held as its full chord.
        horns = np.zeros_like(t)
        for start, f in ((0.0, 261.6), (0.1, 329.6), (0.2, 392.0), (0.34, 523.3)):
            gain = 1.0 if f > 500 else 0.8
            horns += gain * _tone(t, f * p, None, (1.0, 0.55, 0.35, 0.2)) * _envelope(t, 0.015, 0.22, start=start)
        chord = sum((_tone(t, f * p, None, (1.0, 0.4, 0.2)) for f in (261.6, 329.6, 392.0, 523.3)), np.zeros_like(t))
        bells = _tone(t, 1046.5 * p, None, (1.0, 0.3)) * _envelope(t, 0.005, 0.25, start=0.34)
        return _finish(horns + 0.3 * chord * _envelope(t, 0.12, 0.3, start=0.36) + 0.4 * bells, rate, 0.5)
    if name == "unlock":  # R-META-1: aether spent — a shimmer rising an octave over a bell.
        shimmer = np.zeros_like(t)
        for start, f in ((0.0, 659.3), (0.07, 784.0), (0.14, 987.8), (0.21, 1318.5)):
            shimmer += _tone(t, f * p, None, (1.0, 0.3)) * _envelope(t, 0.004, 0.12, start=start)
        bell = _tone(t, 1318.5 * p, None, (1.0, 0.5, 0.25)) * _envelope(t, 0.01, 0.28, start=0.21)
        return _finish(0.7 * shimmer + 0.5 * bell, rate, 0.45)
    raise KeyError(f"no sound effect named {name!r}")


def mixer_array(wave: Wave, size: int, channels: int) -> npt.NDArray[np.generic]:
    """`wave` in the mixer's sample format (`size` as pygame reports it) and channel count."""
    scaled: npt.NDArray[np.generic]
    if size == -16:
        scaled = (wave * 32767).astype(np.int16)
    elif size == 16:
        scaled = ((wave + 1.0) * 32767.5).astype(np.uint16)
    elif size == -8:
        scaled = (wave * 127).astype(np.int8)
    elif size == 8:
        scaled = ((wave + 1.0) * 127.5).astype(np.uint8)
    elif size == -32:
        scaled = (wave.astype(np.float64) * 2147483647).astype(np.int32)
    else:  # 32: float samples.
        scaled = wave.astype(np.float32)
    if channels == 1:
        return np.ascontiguousarray(scaled)
    return np.ascontiguousarray(np.repeat(scaled[:, None], channels, axis=1))


# --- the bank ----------------------------------------------------------------------------


class SoundBank:
    """The game's sound effects: `play(name)`, rate-limited, at master × SFX volume; silent without an audio device."""

    def __init__(self, settings: Settings | None = None, *, clock: Callable[[], float] = time.perf_counter) -> None:
        """Open the mixer if nobody did (silently give up without a device) and synthesise every effect."""
        self.settings = settings if settings is not None else Settings()
        self._clock = clock
        self._last_played: dict[str, float] = {}
        self._turn: dict[str, int] = {}
        self.plays_requested = 0
        self.plays_started = 0
        mixer = self._open_mixer()
        self.available = mixer is not None
        self.sample_rate = mixer[0] if mixer is not None else DEFAULT_SAMPLE_RATE
        self._waves: dict[str, tuple[Wave, ...]] = {
            name: tuple(synthesise(name, self.sample_rate, pitch) for pitch in VARIANTS.get(name, (1.0,)))
            for name in SOUND_NAMES
        }
        self._sounds: dict[str, tuple[pygame.mixer.Sound, ...]] = {}
        if mixer is not None:
            _, size, channels = mixer
            try:
                self._sounds = {
                    name: tuple(
                        pygame.mixer.Sound(buffer=mixer_array(wave, size, channels).tobytes()) for wave in waves
                    )
                    for name, waves in self._waves.items()
                }
                pygame.mixer.set_num_channels(max(MIXER_CHANNELS, pygame.mixer.get_num_channels()))
            except (pygame.error, ValueError) as error:
                _log.warning("sound effects disabled: %s", error)
                self._sounds = {}
                self.available = False
        self._volume = -1.0
        self.apply_settings()

    @staticmethod
    def _open_mixer() -> tuple[int, int, int] | None:
        found = pygame.mixer.get_init()
        if found is None:
            try:
                pygame.mixer.init()
            except pygame.error as error:  # No audio device (a server, CI): play on in silence.
                _log.info("no audio: %s", error)
                return None
            found = pygame.mixer.get_init()
        return (int(found[0]), int(found[1]), int(found[2])) if found is not None else None

    # --- queries --------------------------------------------------------------------

    @property
    def volume(self) -> float:
        """The volume every effect plays at now: master × SFX."""
        return max(0.0, self._volume)

    def waveform(self, name: str, variant: int = 0) -> Wave:
        """The synthesised samples (mono, -1..1) of effect `name`."""
        return self._waves[name][variant]

    def sounds(self, name: str) -> tuple[pygame.mixer.Sound, ...]:
        """The mixer sounds of effect `name` (empty when silent)."""
        return self._sounds.get(name, ())

    # --- changes --------------------------------------------------------------------

    def apply_settings(self, settings: Settings | None = None) -> None:
        """Take the volume (master × SFX) from `settings` (and keep them), or from the settings already held."""
        if settings is not None:
            self.settings = settings
        self.set_volume(self.settings.effective_sfx_volume)

    def set_volume(self, volume: float) -> None:
        """Set every effect's volume (0..1)."""
        volume = max(0.0, min(1.0, volume))
        if volume == self._volume:
            return
        self._volume = volume
        for sounds in self._sounds.values():
            for sound in sounds:
                sound.set_volume(volume)

    def play(self, name: str) -> bool:
        """Start effect `name` unless it played less than `MIN_INTERVAL[name]` ago or the bank is silent; True if it started."""
        if name not in DURATION:
            raise KeyError(f"no sound effect named {name!r}")
        self.plays_requested += 1
        now = self._clock()
        last = self._last_played.get(name)
        if last is not None and now - last < MIN_INTERVAL[name]:
            return False
        self._last_played[name] = now
        sounds = self._sounds.get(name)
        if not sounds:
            return False
        self.apply_settings()  # The shared settings may have changed since the last play.
        if self._volume <= 0.0:
            return False
        turn = self._turn.get(name, 0)
        self._turn[name] = (turn + 1) % len(sounds)
        sounds[turn].play()
        self.plays_started += 1
        return True
