"""`artificer run --headless`: a seeded run of waves 1..K played by the
kiting bot (which drinks a healing potion when hurt, R-POT-1), reported as
one JSON-ready dict (a public contract: keys are only ever added). Same
seed ⇒ the same report, byte for byte (R-DET-1).

With a build (`--build ID`, from `data/builds.json`) a `ShoppingBot` visits
the shop after every wave but the last and buys toward the archetype; each
wave's report then lists its `purchases`. With `timing=True` the report
gains `timing` (wall seconds, the step's median/p90/p99 in ms over the whole
run, and the same per wave with its most enemies alive — the late waves are
the stress case) — the only part that changes from one run of the same seed
to the next.
"""

from __future__ import annotations

import time
from typing import Any

from artificer.content import Content
from artificer.game.run import Run
from artificer.game.save import settle
from artificer.sim.bot import KitingBot, drink_when_hurt
from artificer.content.builds import Build
from artificer.sim.shopper import ShoppingBot
from artificer.sim.stress import latency_summary


def run_headless(content: Content, seed: int, waves: int, build: Build | None = None, timing: bool = False) -> dict[str, Any]:
    started = time.perf_counter()
    run = Run(content, seed)
    arena = (content.balance.arena.width, content.balance.arena.height)
    bot = KitingBot(arena)
    shopper = ShoppingBot(build) if build is not None else None
    if shopper is not None:
        shopper.prepare(run)
    outcome = "survived"
    step_ns: list[int] = []
    wave_starts: list[int] = []
    reports: list[dict[str, Any]] = []
    for number in range(1, waves + 1):
        wave = run.start_wave(number)
        wave_starts.append(len(step_ns))
        while not wave.over:
            bot.control(run.sim)
            drink_when_hurt(run, wave)
            t0 = time.perf_counter_ns()
            wave.step()
            step_ns.append(time.perf_counter_ns() - t0)
        stats = wave.finish()
        report = stats.as_json()
        reports.append(report)
        if wave.died:
            outcome = "died"
            break
        if number < waves:
            # As the game does when it saves between waves: the world is rebuilt from the run's
            # snapshot (game/save.py), so a simulated run plays what a played one would.
            settle(run, number + 1)
            if shopper is not None:
                report["purchases"] = shopper.shop(run, number)
    out: dict[str, Any] = {
        "seed": seed,
        "waves": reports,
        "result": {
            "wave_reached": len(run.waves),
            "outcome": outcome,
            "state_hash": f"{run.sim.state_hash():016x}",
            "currency": run.currency,
            "frames": run.sim.world.frame,
        },
    }
    if build is not None:
        out["build"] = build.id
        out["result"]["wand"] = {"core": run.loadout.active, "cards": run.loadout.wand()[1]}
    if timing:
        step_ms = [ns / 1e6 for ns in step_ns]
        bounds = [*wave_starts, len(step_ms)]
        out["timing"] = {
            "wall_s": round(time.perf_counter() - started, 3),
            "step_ms": latency_summary(step_ms),
            "waves": [
                {"wave": report["wave"], "max_alive": report["max_alive"], "step_ms": latency_summary(step_ms[a:b])}
                for report, a, b in zip(reports, bounds, bounds[1:])
                if b > a
            ],
        }
    return out
