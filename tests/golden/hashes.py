"""The state hashes of the goldens (tests/golden/README.md): fixed seeds, N frames, one JSON object.

Run in a fresh process by `goldens.py`, so the hashes compared are the ones another process
computes, not the ones this test process has cached. Two workloads:

- `wave1/<seed>`: a new run's wave 1 (the starting wand, the wave director, the kiting bot)
  stepped through `game/`, the hash taken at fixed frames;
- `stress/<threads>`: the standard stress workload (crowd, 2000 enemies / 4000 shots) through
  the core alone, on one and on two threads (the same hash: R-DET-1 across thread counts).
"""

from __future__ import annotations

import json
import sys

from artificer.content import load_content
from artificer.game.run import Run
from artificer.sim.bot import KitingBot
from artificer.sim.scene import make_scene
from artificer.sim.stress import CoreStepper

SEEDS = (1, 2, 3)
WAVE1_FRAMES = (1, 600, 1800, 3600)
STRESS_FRAMES = (1, 60, 120)


def wave1(seed: int) -> dict[str, str]:
    content = load_content()
    run = Run(content, seed)
    bot = KitingBot()
    wave = run.start_wave(1)
    out: dict[str, str] = {}
    for frame in range(1, max(WAVE1_FRAMES) + 1):
        bot.control(run.sim)
        wave.step()
        if frame in WAVE1_FRAMES:
            out[str(frame)] = f"{run.sim.state_hash():016x}"
    return out


def stress(threads: int) -> dict[str, str]:
    stepper = CoreStepper(make_scene(2000, 4000, "crowd", seed=7), threads=threads)
    out: dict[str, str] = {}
    for frame in range(1, max(STRESS_FRAMES) + 1):
        stepper.step()
        if frame in STRESS_FRAMES:
            out[str(frame)] = f"{stepper.world.state_hash():016x}"
    return out


def main() -> None:
    hashes = {f"wave1/{seed}": wave1(seed) for seed in SEEDS}
    hashes.update({f"stress/{threads}": stress(threads) for threads in (1, 2)})
    json.dump(hashes, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
