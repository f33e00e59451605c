"""R-WAVE-1, R-CURVE-3: wave 1 already presses. Against the starter wand of a player who stands
still, at least 12 enemies are alive by its 10th second and the first hit comes within 15 s, on at
least 95% of seeds (`sim.headless.wave_one_still`, the figure the sweep's R-CURVE table reports)."""

from __future__ import annotations

from artificer.content import load_content
from artificer.sim.headless import wave_one_still

CONTENT = load_content()
PRESS = CONTENT.balance.wave.first_wave_press  # R-WAVE-1's figures are data


def test_wave_one_presses_a_player_who_stands_still() -> None:
    probes = [wave_one_still(CONTENT, seed) for seed in range(1, 21)]
    pressed = [
        p["alive_10s"] >= PRESS.alive and p["hit_s"] is not None and p["hit_s"] <= PRESS.hit_within_s for p in probes
    ]
    assert sum(pressed) >= 19, probes  # 95% of 20 seeds
    assert all(p["spawned_10s"] >= p["alive_10s"] for p in probes)
