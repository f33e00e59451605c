"""Music, composed and synthesised by the game (R-FEEL-1): no audio files, nothing downloaded.

This module owns the four loops — `title` (mysterious, A minor), `shop`
(calm, F major, between waves), `wave` (driving, D minor, drums) and `boss`
(tense, E minor with a Phrygian F) — and `MusicPlayer`, which plays the one
the scene stack asks for.

Synthesis (`synthesise_track`): each loop is a few bars of chords, bass,
arpeggio, lead and drums, written below as notes on beats. Voices are
wavetable oscillators (a few soft harmonics, no raw square or saw, so nothing
is harsh) under raised-cosine envelopes. The loop is built on a circular
buffer: a note ringing past the loop's end is added back at its start, and
the echo, the reverb taps and the low-pass (an FFT filter) are all circular
too, so the end joins the start exactly — no click, no step. A soft tanh
limiter keeps the peak under `PEAK`. A track is ~1.3 M samples; building one
takes ~0.1-0.2 s of vectorised numpy (the numbers are in the module's tests
and the issue-12 note), so the player synthesises lazily, in a background
thread, the asked-for track first and the others after it; start-up pays
nothing.

Playback (`MusicPlayer`): two reserved mixer channels; a new track fades in on
one while the old fades out on the other (`CROSSFADE_SECONDS`). Each track's
`pygame.mixer.Sound` loops forever at master × music volume (R-SET-1);
`update()` (called every frame by the app) notices a changed setting and a
finished synthesis. Without an audio device, or before the mixer is open, the
player is silent and harmless, like the `SoundBank`.

Which track plays: the top-most scene on the stack whose `music` is not None
(`Scene.music`), so a transparent pause menu over the arena keeps the wave
music, and a scene naming `SILENCE` fades the music out; `follow(scenes)` is
the stack's change hook.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pygame

from artificer.ui.scene import Scene
from artificer.ui.settings import Settings
from artificer.ui.sound import DEFAULT_SAMPLE_RATE, Wave, mixer_array

_log = logging.getLogger(__name__)

Samples = npt.NDArray[np.float64]

TRACK_NAMES: tuple[str, ...] = ("title", "shop", "wave", "boss")
SILENCE = "silence"  # A scene whose `music` is this wants no music (the scenes below do not decide).
CROSSFADE_SECONDS = 0.8  # Long enough to hear the hand-over, short enough that a new scene has its music at once.
MUSIC_CHANNELS = 2  # Reserved from the effects: the outgoing and the incoming track of a crossfade.
PEAK = 0.7  # The loudest sample of a loop: under the effects (they peak at 0.6 and should cut through).
LOWPASS_TAPS = 33  # Short on purpose: a soft roll-off, and cheap (see _circular_lowpass).
TABLE_SIZE = 4096  # Wavetable length: nearest-sample lookup keeps its error ~70 dB down.

# --- pitches ------------------------------------------------------------------------------


def _hz(midi: float) -> float:
    return float(440.0 * 2.0 ** ((midi - 69.0) / 12.0))


def _wavetable(partials: Sequence[float]) -> Samples:
    """One period built from harmonic amplitudes (1st, 2nd, ...), normalised to a peak of 1."""
    phase = np.arange(TABLE_SIZE) / TABLE_SIZE * 2 * np.pi
    table = sum((amp * np.sin(phase * k) for k, amp in enumerate(partials, start=1) if amp), np.zeros(TABLE_SIZE))
    return np.asarray(table / np.max(np.abs(table)), dtype=np.float64)


# Timbres: each a handful of harmonics falling off fast, so even high notes stay round.
TIMBRES: dict[str, Samples] = {
    "pad": _wavetable([1.0, 0.5, 0.33, 0.22, 0.14, 0.09, 0.05]),  # A soft, band-limited saw.
    "bass": _wavetable([1.0, 0.6, 0.3, 0.15, 0.06]),
    "pluck": _wavetable([1.0, 0.45, 0.2, 0.1, 0.04]),
    "bell": _wavetable([1.0, 0.0, 0.25, 0.0, 0.08, 0.0, 0.03]),  # Odd harmonics: hollow and glassy.
    "lead": _wavetable([1.0, 0.2, 0.3, 0.08, 0.12, 0.03, 0.04]),  # A rounded square.
}


@dataclass(frozen=True)
class Voice:
    """How an instrument sounds: its timbre, envelope (seconds) and loudness."""

    timbre: str
    attack: float
    decay: float  # Time constant of the fall from the peak towards `sustain`.
    sustain: float  # Level held while the note is down (0 = a pluck that only decays).
    release: float  # Fade to zero after the note ends.
    gain: float
    detune_cents: float = 0.0  # > 0: a second copy this many cents apart, for width.
    vibrato: float = 0.0  # Depth in semitones (5 Hz).


# --- the score: notes on a circular buffer ------------------------------------------------------


class _Score:
    """A loop being written: `bars` of 4 beats at `bpm`, each note added (wrapping) onto a circular buffer."""

    def __init__(self, bpm: float, bars: int, rate: int) -> None:
        self.rate = rate
        self.beat = 60.0 / bpm
        self.length = round(bars * 4 * self.beat * rate)
        self.bus: dict[str, Samples] = {}
        # Notes of one voice and length share one envelope: an arpeggio computes it once, not per note.
        self._envelopes: dict[tuple[Voice, int], Samples] = {}

    def _add(self, bus: str, start_beat: float, wave: Samples) -> None:
        if bus not in self.bus:
            self.bus[bus] = np.zeros(self.length)
        buffer = self.bus[bus]
        start = round(start_beat * self.beat * self.rate) % self.length
        while len(wave):  # A tail past the loop's end wraps around to its start.
            room = min(len(wave), self.length - start)
            buffer[start : start + room] += wave[:room]
            wave, start = wave[room:], 0

    def note(self, bus: str, voice: Voice, start_beat: float, beats: float, midi: float, velocity: float = 1.0) -> None:
        held = beats * self.beat
        t = np.arange(round((held + voice.release) * self.rate)) / self.rate
        wave = np.zeros_like(t)
        detunes = (-voice.detune_cents / 2, voice.detune_cents / 2) if voice.detune_cents else (0.0,)
        for cents in detunes:
            phase = _hz(midi + cents / 100) * t
            if voice.vibrato:  # Delayed vibrato: comes in after the attack, as a player would.
                depth = voice.vibrato * np.clip((t - 0.15) / 0.3, 0.0, 1.0)
                phase += np.cumsum(_hz(midi) * (2 ** (depth * np.sin(2 * np.pi * 5.0 * t) / 12) - 1)) / self.rate
            wave += TIMBRES[voice.timbre][(phase * TABLE_SIZE).astype(np.int64) % TABLE_SIZE]
        key = (voice, len(t))
        if key not in self._envelopes:
            self._envelopes[key] = _envelope(t, voice, held) * (voice.gain / len(detunes))
        self._add(bus, start_beat, wave * self._envelopes[key] * velocity)

    def hit(self, bus: str, sample: Samples, start_beat: float, velocity: float = 1.0) -> None:
        self._add(bus, start_beat, sample * velocity)


def _envelope(t: Samples, voice: Voice, held: float) -> Samples:
    rise = 0.5 - 0.5 * np.cos(np.pi * np.clip(t / voice.attack, 0.0, 1.0))
    body = voice.sustain + (1 - voice.sustain) * np.exp(-np.clip(t - voice.attack, 0.0, None) / voice.decay)
    after = np.clip((t - held) / voice.release, 0.0, 1.0)
    fall = 0.5 + 0.5 * np.cos(np.pi * after)  # 1 while held, a raised-cosine fade to exactly 0 after.
    return np.asarray(rise * body * fall)


# --- drums ------------------------------------------------------------------------------------


def _noise(n: int, seed: int) -> Samples:
    return np.random.default_rng(seed).uniform(-1.0, 1.0, n)


def _smooth(x: Samples, width: int) -> Samples:
    return np.convolve(x, np.ones(width) / width, mode="same")


def _drum_kit(rate: int) -> dict[str, Samples]:
    """One sample of each drum: kick, snare, hat, tom; each starts and ends at zero."""

    def times(seconds: float) -> Samples:
        return np.arange(round(seconds * rate)) / rate

    def decay(t: Samples, tau: float, attack: float = 0.002) -> Samples:
        return np.asarray(np.clip(t / attack, 0.0, 1.0) * np.exp(-t / tau) * np.clip((t[-1] - t) / 0.01, 0.0, 1.0))

    t = times(0.4)
    kick_freq = 45 + 75 * np.exp(-t / 0.035)
    kick = np.sin(2 * np.pi * np.cumsum(kick_freq) / rate) * decay(t, 0.16)
    kick += 0.15 * _smooth(_noise(len(t), 11), 6) * decay(t, 0.004)
    t = times(0.25)
    band = _smooth(_noise(len(t), 12), 3) - _smooth(_noise(len(t), 12), 24)  # Band-passed noise: the snares.
    snare = 0.9 * band / np.max(np.abs(band)) * decay(t, 0.07) + 0.5 * np.sin(2 * np.pi * 185 * t) * decay(t, 0.04)
    t = times(0.09)
    hiss = _noise(len(t), 13)
    hat = (hiss - _smooth(hiss, 5)) * decay(t, 0.018, 0.001)  # High-passed noise, very short.
    t = times(0.35)
    tom_freq = 90 + 50 * np.exp(-t / 0.08)
    tom = np.sin(2 * np.pi * np.cumsum(tom_freq) / rate) * decay(t, 0.13)
    return {"kick": kick, "snare": snare, "hat": hat * 0.5, "tom": tom}


# --- the tracks ------------------------------------------------------------------------------

# Chords as MIDI notes (C4 = 60).
Am, F, C, G, Dm, E = (57, 60, 64), (53, 57, 60), (55, 60, 64), (55, 59, 62), (50, 53, 57), (52, 56, 59)
FMAJ7, DM7, BBMAJ7, C_ADD, AM7 = (
    (53, 57, 60, 64),
    (50, 53, 57, 60),
    (46, 50, 53, 57),
    (48, 52, 55, 60),
    (45, 52, 55, 60),
)
BB, A_MAJ = (46, 50, 53), (45, 49, 52)
EM, F_HI, C_LO, B_MAJ = (52, 55, 59), (53, 57, 60), (48, 52, 55), (47, 51, 54)

PAD = Voice("pad", attack=0.6, decay=1.5, sustain=0.7, release=0.9, gain=0.16, detune_cents=9)
SOFT_PAD = Voice("pad", attack=0.9, decay=2.0, sustain=0.75, release=1.2, gain=0.14, detune_cents=7)
DARK_PAD = Voice("pad", attack=0.3, decay=1.0, sustain=0.6, release=0.5, gain=0.13, detune_cents=14)
BASS = Voice("bass", attack=0.01, decay=0.5, sustain=0.55, release=0.15, gain=0.42)
PLUCK_BASS = Voice("bass", attack=0.006, decay=0.12, sustain=0.3, release=0.06, gain=0.42)
BELL = Voice("bell", attack=0.004, decay=0.35, sustain=0.0, release=0.3, gain=0.13)
PLUCK = Voice("pluck", attack=0.004, decay=0.12, sustain=0.0, release=0.08, gain=0.12)
SOFT_PLUCK = Voice(
    "pluck", attack=0.02, decay=0.35, sustain=0.0, release=0.25, gain=0.11
)  # A rounded, marimba-like note.
LEAD = Voice("lead", attack=0.04, decay=0.6, sustain=0.7, release=0.25, gain=0.12, vibrato=0.12)


def _pads(score: _Score, chords: Sequence[tuple[int, ...]], voice: Voice, beats: float = 4.0) -> None:
    for bar, chord in enumerate(chords):
        for midi in chord:
            score.note("pad", voice, bar * 4, beats, midi)


def _arpeggio(
    score: _Score, chords: Sequence[tuple[int, ...]], voice: Voice, order: Sequence[int], step: float, octave: int
) -> None:
    """Chord tones in `order` (indices into the chord, extended by octaves), one every `step` beats."""
    per_bar = round(4 / step)
    for bar, chord in enumerate(chords):
        tones = [*chord, *(m + 12 for m in chord)]
        for i in range(per_bar):
            midi = tones[order[i % len(order)] % len(tones)] + 12 * octave
            accent = 1.0 if i % round(1 / step) == 0 else 0.75
            score.note("arp", voice, bar * 4 + i * step, step * 0.9, midi, accent)


def _bassline(
    score: _Score, chords: Sequence[tuple[int, ...]], voice: Voice, rhythm: Sequence[tuple[float, float, int]]
) -> None:
    """Per bar, `rhythm` notes as (beat, length in beats, semitones above the chord's root), an octave down."""
    for bar, chord in enumerate(chords):
        root = chord[0] - 12
        for beat, length, offset in rhythm:
            score.note("bass", voice, bar * 4 + beat, length, root + offset)


def _melody(score: _Score, voice: Voice, notes: Iterable[tuple[float, float, int]], offset_beats: float = 0) -> None:
    for beat, length, midi in notes:
        score.note("lead", voice, offset_beats + beat, length, midi)


def _drums(
    score: _Score, kit: dict[str, Samples], bars: int, pattern: dict[str, Sequence[tuple[float, float]]]
) -> None:
    """`pattern`: drum → (beat within the bar, velocity), the same every bar."""
    for bar in range(bars):
        for drum, hits in pattern.items():
            for beat, velocity in hits:
                score.hit("drums", kit[drum], bar * 4 + beat, velocity)


def _fill(score: _Score, kit: dict[str, Samples], bar: int) -> None:
    """A tom run over the last beat of `bar`, leading into the next phrase."""
    for i, velocity in enumerate((0.7, 0.75, 0.85, 1.0)):
        score.hit("drums", kit["tom"], bar * 4 + 3 + i * 0.25, velocity)


def _title(score: _Score, kit: dict[str, Samples]) -> None:
    chords = [Am, F, C, G, Am, F, Dm, E]
    _pads(score, chords, SOFT_PAD)
    _arpeggio(score, chords, BELL, order=(0, 1, 2, 3, 4, 3, 2, 1), step=0.5, octave=1)
    _bassline(score, chords, BASS, [(0, 2.5, 0), (2.5, 1.5, 7)])
    _melody(
        score,
        LEAD,
        [
            (0, 2, 76),
            (2, 1, 74),
            (3, 1, 72),
            (4, 3, 72),
            (7, 1, 69),
            (8, 2, 67),
            (10, 2, 72),
            (12, 3, 71),
            (15, 1, 74),
            (16, 2, 76),
            (18, 1, 79),
            (19, 1, 76),
            (20, 2, 77),
            (22, 1, 76),
            (23, 1, 72),
            (24, 2, 74),
            (26, 2, 77),
            (28, 2, 76),
            (30, 1, 71),
            (31, 1, 68),
        ],
    )
    _drums(score, kit, 8, {"kick": [(0, 0.35)], "hat": [(1.5, 0.2), (3.5, 0.2)]})


def _shop(score: _Score, kit: dict[str, Samples]) -> None:
    chords = [FMAJ7, DM7, BBMAJ7, C_ADD, FMAJ7, AM7, BBMAJ7, C_ADD]
    _pads(score, chords, PAD)
    _arpeggio(score, chords, SOFT_PLUCK, order=(0, 2, 1, 3, 4, 3, 2, 1), step=0.5, octave=1)
    _bassline(score, chords, BASS, [(0, 1.5, 0), (1.5, 0.5, 7), (2, 2, 12)])
    _melody(
        score,
        Voice("bell", 0.01, 0.6, 0.0, 0.5, 0.1),
        [
            (0, 1, 84),
            (1.5, 0.5, 81),
            (2, 2, 79),
            (8, 1, 82),
            (9.5, 0.5, 81),
            (10, 2, 77),
            (14, 2, 79),
            (16, 1, 84),
            (17.5, 0.5, 81),
            (18, 2, 76),
            (24, 1, 77),
            (25.5, 0.5, 79),
            (26, 2, 81),
            (30, 2, 79),
        ],
    )
    _drums(
        score,
        kit,
        8,
        {
            "kick": [(0, 0.4), (2.5, 0.25)],
            "snare": [(2, 0.15)],
            "hat": [(b / 2, 0.2 if b % 2 else 0.1) for b in range(8)],
        },
    )


def _wave(score: _Score, kit: dict[str, Samples]) -> None:
    chords = [Dm, BB, F, C] * 3 + [Dm, BB, C, A_MAJ]
    _pads(score, chords, DARK_PAD)
    _arpeggio(score, chords, PLUCK, order=(0, 1, 2, 1, 3, 2, 4, 2), step=0.25, octave=1)
    _bassline(score, chords, PLUCK_BASS, [(i * 0.5, 0.4, 12 if i % 2 else 0) for i in range(8)])
    riff = [(0, 1.5, 3), (1.5, 0.5, 2), (2, 1, 0), (3, 0.5, 2), (3.5, 0.5, 3)]  # Chord-tone indices, an octave up.
    for bar, chord in enumerate(chords):
        if bar >= 8:  # The second half adds a lead riff over the same chords.
            tones = [*chord, *(m + 12 for m in chord)]
            _melody(score, LEAD, [(b, n, tones[i] + 12) for b, n, i in riff], bar * 4)
    _drums(
        score,
        kit,
        16,
        {
            "kick": [(0, 1.0), (1, 0.9), (2, 1.0), (3, 0.9)],
            "snare": [(1, 0.7), (3, 0.75)],
            "hat": [(b / 4, 0.55 if b % 2 else 0.25) for b in range(16)],
        },
    )
    _fill(score, kit, 7)
    _fill(score, kit, 15)


def _boss(score: _Score, kit: dict[str, Samples]) -> None:
    chords = [EM, EM, F_HI, EM, EM, C_LO, B_MAJ, B_MAJ] * 2
    _pads(score, chords, DARK_PAD)
    _arpeggio(score, chords, PLUCK, order=(0, 2, 1, 2, 3, 2, 1, 2), step=0.25, octave=0)
    _bassline(score, chords, PLUCK_BASS, [(i * 0.25, 0.2, (0, 0, 12, 0, 0, 1, 0, 12)[i % 8]) for i in range(16)])
    stab = Voice("lead", attack=0.02, decay=0.3, sustain=0.4, release=0.3, gain=0.11, detune_cents=12)
    for bar, chord in enumerate(chords):
        if bar >= 8:
            for midi in chord:
                score.note("lead", stab, bar * 4, 0.75, midi + 12)
                score.note("lead", stab, bar * 4 + 2.5, 0.5, midi + 12, 0.7)
    _drums(
        score,
        kit,
        16,
        {
            "kick": [(0, 1.0), (0.75, 0.6), (1.5, 0.8), (2, 1.0), (3.5, 0.7)],
            "snare": [(1, 0.75), (3, 0.8)],
            "tom": [(2.75, 0.4)],
            "hat": [(b / 4, 0.45 if b % 2 else 0.2) for b in range(16)],
        },
    )
    _fill(score, kit, 15)


@dataclass(frozen=True)
class _Arrangement:
    bpm: float
    bars: int
    cutoff_hz: float  # Low-pass corner of the mix: darker for the calm loops.
    echo_beats: float  # Delay of the arpeggio's echo.
    bus_gain: dict[str, float]


# Bus gains balance the parts by ear-proxy numbers (RMS per bus, measured): drums ~0.12, bass ~0.1, pad ~0.08,
# lead and arpeggio ~0.05-0.07, so the tunes are not buried under the drums and the low bass (which small
# speakers barely play) does not take the whole level.
ARRANGEMENTS: dict[str, _Arrangement] = {
    "title": _Arrangement(84, 8, 4500, 0.75, {"pad": 1.0, "arp": 1.0, "bass": 0.7, "lead": 1.0, "drums": 0.8}),
    "shop": _Arrangement(92, 8, 5000, 0.75, {"pad": 0.9, "arp": 1.6, "bass": 0.7, "lead": 1.6, "drums": 0.45}),
    "wave": _Arrangement(128, 16, 9000, 0.75, {"pad": 1.2, "arp": 1.4, "bass": 0.75, "lead": 1.2, "drums": 0.55}),
    "boss": _Arrangement(140, 16, 8000, 0.5, {"pad": 1.2, "arp": 1.4, "bass": 0.7, "lead": 2.0, "drums": 0.5}),
}
_COMPOSERS = {"title": _title, "shop": _shop, "wave": _wave, "boss": _boss}


def _circular_lowpass(x: Samples, rate: int, cutoff_hz: float) -> Samples:
    """A gentle low-pass (a short windowed-sinc FIR) applied around the loop, so the seam stays seamless.

    The kernel is `LOWPASS_TAPS` long at 44.1 kHz, so its roll-off is soft
    (the corner's octave above is ~-20 dB), which is what rounding off a mix
    wants; it costs ~20 ms per pass. (An FFT filter over the loop took 0.2 s
    on lengths with large prime factors.)
    """
    taps = LOWPASS_TAPS | 1
    half = taps // 2
    n = np.arange(taps) - half
    kernel = np.sinc(2 * cutoff_hz / rate * n) * np.hanning(taps + 2)[1:-1]
    kernel /= kernel.sum()
    wrapped = np.concatenate([x[-half:], x, x[:half]])  # What plays before the start and after the end.
    return np.convolve(wrapped, kernel, mode="valid")


def _circular_echo(x: Samples, delay: int, feedback: float, repeats: int) -> Samples:
    out = x.copy()
    for k in range(1, repeats + 1):
        out += feedback**k * np.roll(x, k * delay)
    return out


def synthesise_track(name: str, rate: int = DEFAULT_SAMPLE_RATE) -> Wave:
    """The loop `name` as mono float32 samples in -PEAK..PEAK; playing it end to start again is seamless."""
    arrangement = ARRANGEMENTS[name]
    score = _Score(arrangement.bpm, arrangement.bars, rate)
    _COMPOSERS[name](score, _drum_kit(rate))
    echo = round(arrangement.echo_beats * score.beat * rate)
    mix = np.zeros(score.length)
    for bus, buffer in score.bus.items():
        if bus == "arp":
            buffer = _circular_echo(buffer, echo, 0.35, 3)
        mix += arrangement.bus_gain[bus] * buffer
    # A short room: a few quiet copies 23-71 ms late (each adds to the last), around the loop.
    for i, ms in enumerate((23, 41, 71)):
        mix += 0.12 / (i + 1) * np.roll(mix, round(ms * rate / 1000))
    mix = _circular_lowpass(mix, rate, arrangement.cutoff_hz)
    mix -= float(np.mean(mix))  # No DC offset.
    mix /= max(float(np.max(np.abs(mix))), 1e-9)
    mix = np.tanh(1.6 * mix) / np.tanh(1.6)  # A soft knee rounds the loudest drum hits instead of clipping them.
    return np.asarray(mix * PEAK, dtype=np.float32)


# --- playback -------------------------------------------------------------------------------


def track_for(scenes: Sequence[Scene]) -> str | None:
    """The track the stack asks for: the top-most scene's `music` that is not None (None: silence)."""
    for scene in reversed(scenes):
        if scene.music is not None:
            return scene.music
    return None


class MusicPlayer:
    """Plays one looping track at master × music volume, crossfading on a change; silent without a mixer."""

    def __init__(self, settings: Settings | None = None, *, background: bool = True) -> None:
        """Nothing is synthesised or opened yet; `background=False` synthesises on the caller's thread (tests, tools)."""
        self.settings = settings if settings is not None else Settings()
        self.background = background
        self.wanted: str | None = None  # The track the scenes ask for.
        self.playing: str | None = None  # The track on the mixer (None until its samples are ready).
        self._waves: dict[str, Wave] = {}
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self._channels: list[pygame.mixer.Channel] = []
        self._current_channel = 0
        self._volume = -1.0
        self._lock = threading.Lock()
        self._worker: threading.Thread | None = None
        self._rate = DEFAULT_SAMPLE_RATE
        self._mixer: tuple[int, int, int] | None = None
        self._mixer_checked = False
        self.synthesis_seconds: dict[str, float] = {}

    # --- queries ------------------------------------------------------------------

    @property
    def available(self) -> bool:
        """True when the mixer is open and music can be heard."""
        return self._open_mixer() is not None

    @property
    def volume(self) -> float:
        """The volume the music plays at now: master × music (R-SET-1)."""
        return self.settings.effective_music_volume

    def sound(self, name: str) -> pygame.mixer.Sound | None:
        """The mixer sound of track `name`, once it was synthesised and the mixer is open."""
        return self._sounds.get(name)

    @property
    def channel(self) -> pygame.mixer.Channel | None:
        """The reserved channel the current track plays on."""
        return self._channels[self._current_channel] if self._channels else None

    def waveform(self, name: str) -> Wave:
        """The samples of track `name` (synthesised now if need be)."""
        self._ensure(name)
        return self._waves[name]

    # --- changes ------------------------------------------------------------------

    def follow(self, scenes: Sequence[Scene]) -> None:
        """The stack changed: play what its top-most music-naming scene asks for."""
        self.request(track_for(scenes))

    def request(self, name: str | None) -> None:
        """Ask for track `name` (None: fade to silence); it starts as soon as its samples are ready."""
        if name == SILENCE:
            name = None
        elif name is not None and name not in ARRANGEMENTS:
            _log.warning("no music track named %r", name)
            name = None
        self.wanted = name
        if name is not None and self._open_mixer() is not None:
            if self.background:
                self._start_worker()
            else:
                self._ensure(name)
        self.update()

    def update(self) -> None:
        """Once a frame: start the wanted track when it is ready; apply a changed volume setting."""
        if self._open_mixer() is None:
            return
        if self.wanted != self.playing:
            if self.wanted is None:
                self._fade_out_current()
                self.playing = None
            elif self.wanted in self._waves:
                self._switch_to(self.wanted)
        self._apply_volume()

    def stop(self) -> None:
        """Silence at once (the app is closing)."""
        for channel in self._channels:
            channel.stop()
        self.playing = None

    # --- internals ----------------------------------------------------------------

    def _open_mixer(self) -> tuple[int, int, int] | None:
        found = pygame.mixer.get_init()  # The sound bank opens it; without a device it stays closed.
        if found is None:
            self._mixer, self._channels, self._sounds, self.playing = None, [], {}, None
            return None
        mixer = (int(found[0]), int(found[1]), int(found[2]))
        if mixer != self._mixer or not self._channels:
            try:
                pygame.mixer.set_num_channels(max(pygame.mixer.get_num_channels(), MUSIC_CHANNELS + 8))
                pygame.mixer.set_reserved(MUSIC_CHANNELS)
                self._channels = [pygame.mixer.Channel(i) for i in range(MUSIC_CHANNELS)]
            except pygame.error as error:
                _log.info("no music: %s", error)
                return None
            if mixer[0] != self._rate:  # A mixer at another rate: re-synthesise for it.
                with self._lock:
                    self._waves.clear()
                self._rate = mixer[0]
            self._mixer, self._sounds, self.playing, self._volume = mixer, {}, None, -1.0
        return self._mixer

    def _ensure(self, name: str) -> None:
        with self._lock:
            if name in self._waves:
                return
        began = time.perf_counter()
        wave = synthesise_track(name, self._rate)
        with self._lock:
            self._waves.setdefault(name, wave)
            self.synthesis_seconds[name] = time.perf_counter() - began

    def _start_worker(self) -> None:
        if self._worker is not None and self._worker.is_alive():
            return  # It picks up `wanted` before the rest (see _work).

        self._worker = threading.Thread(target=self._work, name="music-synthesis", daemon=True)
        self._worker.start()

    def _work(self) -> None:
        # The wanted track first, then the others, so the next scene's music is ready when it opens.
        while True:
            with self._lock:
                missing = [name for name in TRACK_NAMES if name not in self._waves]
            if not missing:
                return
            wanted = self.wanted
            self._ensure(wanted if wanted in missing else missing[0])

    def _sound_for(self, name: str) -> pygame.mixer.Sound | None:
        if name not in self._sounds and self._mixer is not None:
            _, size, channels = self._mixer
            try:
                self._sounds[name] = pygame.mixer.Sound(buffer=mixer_array(self._waves[name], size, channels).tobytes())
            except (pygame.error, ValueError) as error:
                _log.warning("music disabled: %s", error)
                return None
        return self._sounds.get(name)

    def _switch_to(self, name: str) -> None:
        sound = self._sound_for(name)
        if sound is None or not self._channels:
            return
        sound.set_volume(self.volume)
        fade_ms = round(CROSSFADE_SECONDS * 1000)
        self._fade_out_current()
        self._current_channel = (self._current_channel + 1) % len(self._channels)
        self._channels[self._current_channel].play(sound, loops=-1, fade_ms=fade_ms)
        self.playing = name

    def _fade_out_current(self) -> None:
        if self.playing is not None and self._channels:
            self._channels[self._current_channel].fadeout(round(CROSSFADE_SECONDS * 1000))

    def _apply_volume(self) -> None:
        volume = self.volume
        if volume == self._volume:
            return
        self._volume = volume
        for sound in self._sounds.values():
            sound.set_volume(volume)
