"""R-WAVE-1's enemy cap (balance.json `wave.max_alive`): a spawn that would take the field past
the cap brings only the enemies that fit; the others never come and are counted as `held_back`.
Elites always come. The late waves still reach 1,000+ alive
(tests/sim/test_builds.py), and the shipped cap keeps the weakest builds' crowds to a size the
player can read and the core can step."""

from __future__ import annotations

from artificer.content import Content, load_content
from artificer.engine.frame import CommandColumn, FrameInput
from artificer.game.run import Run, WaveInProgress
from artificer.game.waves import SpawnMarker, WaveDirector
from content_tweaks import with_balance

CONTENT = load_content()


def capped(content: Content, max_alive: int | None) -> Content:
    return with_balance(content, "wave", max_alive=max_alive)


def test_r_wave_1_the_shipped_cap_leaves_the_late_waves_their_thousands() -> None:
    cap = CONTENT.balance.wave.max_alive
    assert cap is not None and cap >= 1000


def test_r_wave_1_past_the_cap_only_what_fits_lands_and_elites_always_come() -> None:
    """Nobody dies here, so the field only fills: wave 20 plans ~4,500 enemies, 10 fit."""
    content = capped(CONTENT, 10)
    wave = content.waves[19]
    elite_groups = [g for g in wave.groups if g.elite]
    assert elite_groups, "wave 20 brings elite groups"
    director = WaveDirector(content, wave, seed=4)
    frame = FrameInput(content.balance.capacities.commands)
    alive = elites = 0
    for tick in range(round(wave.duration * 60)):
        director.update(tick / 60, (1280.0, 800.0), frame, alive)
        rows = frame.commands[: frame.n_commands]
        alive += len(rows)
        elites += int((rows[:, CommandColumn.B] > 0).sum())
        frame.clear()
    planned = sum(g.count * len(g.spawn_times()) for g in elite_groups)
    assert elites == planned  # every elite came, past the cap
    assert alive - elites <= 10  # of the rest, only what fitted
    assert director.held_back == director.total_enemies - alive > 4000


def play_wave(content: Content, number: int) -> WaveInProgress:
    """Wave `number` with the starter wand and a player who stands still."""
    wave = WaveInProgress(Run(content, 5), number)
    while not wave.over:
        wave.step()
        wave.run.sim.input.clear()
    return wave


def test_r_wave_1_in_play_the_field_never_holds_more_than_the_cap() -> None:
    """Wave 9 (158 enemies, no splitter, no elite) against the starter wand: uncapped it passes 15
    alive; capped at 15 it never does, and the enemies it kept away are counted."""
    free = play_wave(capped(CONTENT, None), 9).stats
    assert free.max_alive > 15 and free.held_back == 0
    stats = play_wave(capped(CONTENT, 15), 9).stats
    assert stats.max_alive <= 15
    assert stats.held_back > 0


def test_r_wave_1_a_marker_shows_only_the_pack_the_cap_lets_land() -> None:
    """The HUD draws `shown(alive)`: with 8 of 10 alive, a 5-pack shows as 2, the next pack not at
    all, and an elite pack whole; the markers themselves are untouched (the landing decides)."""
    director = WaveDirector(capped(CONTENT, 10), CONTENT.waves[0], seed=1)
    director.pending = [
        SpawnMarker(kind=0, count=5, elite=False, x=0.0, y=0.0, lands_at=1.0),
        SpawnMarker(kind=0, count=3, elite=False, x=0.0, y=0.0, lands_at=1.5),
        SpawnMarker(kind=0, count=4, elite=True, x=0.0, y=0.0, lands_at=2.0),
    ]
    assert [(m.count, m.elite) for m in director.shown(alive=8)] == [(2, False), (4, True)]
    assert [m.count for m in director.shown(alive=0)] == [5, 3, 4]
    assert [m.count for m in director.pending] == [5, 3, 4]
