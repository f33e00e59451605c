"""The headless run's time, per archetype, and how much of it the core's step takes (issue 44).

    .venv/bin/python benches/headless.py --builds all --seeds 1-3
    .venv/bin/python benches/headless.py --builds spark --seeds 1-5 --json

Each (build, seed) plays a whole 20-wave run with the shopping bot (`run_headless`, as a sweep's
task does), in this process, one after the other. For each archetype it prints the median run's
wall seconds, and the share of the runs' time spent inside the core's `World.step` and
`World.play_bot` calls (timed around each call, so the buffers' Python wrappers are on the Python
side) — the rest is Python: the per-frame bot, the wave's books and the director on the frames the
game sees, and the shops. The last
line is `median X ms` over every run, for `benches/alternate.py`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from artificer.content import load_content
from artificer.content.builds import load_builds
from artificer.engine import Simulation, frame
from artificer.sim.headless import run_headless


def seeds_of(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--builds", default="all")
    parser.add_argument("--seeds", default="1-3")
    parser.add_argument("--waves", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    content = load_content()
    builds = load_builds(content)
    names = list(builds) if args.builds == "all" else args.builds.split(",")

    core_ns = 0

    def timed(call: Any) -> Any:
        def run(*a: Any, **k: Any) -> Any:
            nonlocal core_ns
            t0 = time.perf_counter_ns()
            out = call(*a, **k)
            core_ns += time.perf_counter_ns() - t0
            return out

        return run

    world_step, play_bot = frame.FrameBuffers.step, getattr(Simulation, "play_bot", None)

    def timed_step(self: frame.FrameBuffers, world: Any, frame_input: frame.FrameInput) -> frame.StepCounts:
        return world_step(self, _Timed(world, step=timed(world.step)), frame_input)

    def timed_play(self: Simulation, *a: Any, **k: Any) -> Any:
        world = self.world
        self.world = _Timed(world, play_bot=timed(world.play_bot))  # type: ignore[assignment]
        try:
            return play_bot(self, *a, **k)
        finally:
            self.world = world

    frame.FrameBuffers.step = timed_step  # type: ignore[method-assign]
    if play_bot is not None:  # (a build from before issue 44 steps every frame from Python)
        Simulation.play_bot = timed_play  # type: ignore[method-assign]
    rows: dict[str, dict[str, float]] = {}
    every: list[float] = []
    for name in names:
        walls, cores = [], []
        for seed in seeds_of(args.seeds):
            core_ns = 0
            t0 = time.perf_counter()
            run_headless(content, seed, args.waves, builds[name])
            walls.append(time.perf_counter() - t0)
            cores.append(core_ns / 1e9)
        every.extend(walls)
        rows[name] = {
            "median_s": round(statistics.median(walls), 3),
            "core_share": round(sum(cores) / sum(walls), 3),
            "runs": len(walls),
        }
    if args.json:
        print(json.dumps(rows))
    else:
        print(f"{'archetype':<10} {'median run':>10} {'core share':>10}")
        for name, row in rows.items():
            print(f"{name:<10} {row['median_s']:>9.3f}s {row['core_share']:>10.0%}")
    print(f"median {statistics.median(every) * 1000:.1f} ms")


class _Timed:
    """A world some of whose methods are timed; every other attribute is the world's."""

    def __init__(self, world: Any, **timed: Any) -> None:
        self._world = world
        self.__dict__.update(timed)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._world, name)


if __name__ == "__main__":
    main()
