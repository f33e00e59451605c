"""Side-by-side frame time of the Rust core and its pure-Python peers.

The workload
------------
The standard stress workload of ``artificer.sim.scene`` (its docstring is
the definition): a 4000×4000 px world, the player fixed at its centre,
``--enemies`` enemies of radius 8 chasing the player at 1.5 px/frame and
pushing each other apart when closer than 16 px (Jacobi separation),
``--projectiles`` projectiles of radius 4 flying at 6 px/frame and bouncing
off the walls; each frame every projectile hits the nearest enemy within
12 px (if any), pierce 3, and a spent projectile respawns in place, so the
entity counts never change. The ``crowd`` layout packs the enemies into a
disk of radius R = sqrt(N·400/π) around the player (one enemy per 400 px²)
with the projectiles in a disk of 1.2·R: a dense fight where most
projectiles hit every frame. It is not stationary: the enemies pack in
toward the player while the projectiles fly out of the crowd and spread
over the world, so hits fall over the run (10k/20k, seed 0: ≈ 10,800
hits/frame just after the warm-up, ≈ 3,900 by frame 210, ≈ 7,860 on
average over the 200 timed frames; at 1k/2k every projectile has left the
small crowd by frame ~110 and none is back from the walls by frame 210, so
hits fall from ≈ 1,050/frame to 0, a mean of ≈ 240). ``uniform`` spreads
everything over the world (10k/20k: ≈ 5,000–5,200 hits/frame, steady).

What runs
---------
One scene is built (``make_scene(enemies, projectiles, layout, seed)``) and
every implementation starts from that same scene:

* ``core``: ``artificer.sim.stress.CoreStepper`` (the Rust core through
  PyO3). If it cannot be imported (not written or not built yet), a note is
  printed and only the peers are benched.
* ``numba-grid``: ``benches/peers/numba_peer.py``, a single-threaded
  ``@njit`` uniform grid (16 px cells, counting sort, 3×3 scans).
* ``numpy+cKDTree``: ``benches/peers/kdtree_peer.py``, vectorised numpy
  with a ``scipy.spatial.cKDTree`` rebuilt on the enemies every frame
  (single-threaded queries).

Each implementation is constructed (numba compiles or loads its cache then,
untimed), runs 10 untimed warm-up frames, then ``--frames`` frames, each
``step()`` timed alone with ``time.perf_counter_ns`` (the garbage collector
is paused during the timed frames). Implementations run one after the
other, never concurrently, interleaved over ``--rounds`` rounds (each round
runs every implementation once, from the same scene, in an order that
rotates from round to round): this machine's noise is ±15% over minutes, so
an implementation measured while the machine was busy is measured again
between the others. The figures are medians over the rounds of each
round's median, and ``peer/core`` is the median of the rounds' own ratios
(each round's peer against the core of the same round).

How to read the output
----------------------
* ``median ms`` / ``p90 ms``: per-frame wall time of ``step()`` (as seen
  from Python, so the core's figure includes the PyO3 call).
* ``hits/frame``: mean hits per timed frame. The peers follow the same
  float32 arithmetic and agree with each other hit for hit (their states
  stay bit-identical; ``identical per-frame hits`` says so); every
  implementation must be within 1 % of every other (exit status 1
  otherwise), which checks that all of them run the same workload.
* ``mean ms``: the mean frame, which counts what a median hides: work done
  one frame in many (the core reorders its pools every 16 frames).
* ``peer/core``: the implementation's median divided by the core's median,
  i.e. how many times slower the peer is than the core (> 1: the core is
  faster; 2.0 means the core does a frame in half the time); ``by mean`` the
  same of the means (the throughput: the one to quote). ``n/a`` when the
  core is not available.

Usage::

    python benches/frame_vs_peers.py [--enemies 10000] [--projectiles 20000]
        [--layout crowd] [--frames 200] [--rounds 5] [--seed 0] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

_HERE = Path(__file__).resolve().parent
_ROOT = _HERE.parent

try:  # an installed (e.g. `maturin develop`) package first …
    from artificer.sim import scene as _scene_mod
except ImportError:  # … else the source tree
    sys.path.insert(0, str(_ROOT / "python"))
    from artificer.sim import scene as _scene_mod
if str(_HERE) not in sys.path:
    sys.path.insert(0, str(_HERE))

make_scene = _scene_mod.make_scene
WARMUP_FRAMES = _scene_mod.WARMUP_FRAMES
HITS_TOLERANCE = 0.01


def _load_impls(notes: list[str]) -> tuple[list[tuple[str, Callable[[Any], Any]]], bool]:
    """(name, factory(scene)) pairs, core first, and whether the core is there."""
    impls: list[tuple[str, Callable[[Any], Any]]] = []
    core = False
    try:
        from artificer.sim.stress import CoreStepper
    except Exception as exc:  # noqa: BLE001 - report any failure to load the core
        notes.append(
            "core not benched: `from artificer.sim.stress import CoreStepper` failed "
            f"({type(exc).__name__}: {exc}); peers only"
        )
    else:
        impls.append(("core", CoreStepper))
        core = True
    try:
        from peers.numba_peer import NumbaGridPeer
    except ImportError as exc:
        notes.append(f"numba-grid peer skipped ({exc})")
    else:
        impls.append((NumbaGridPeer.name, NumbaGridPeer))
    try:
        from peers.kdtree_peer import KDTreePeer
    except ImportError as exc:
        notes.append(f"numpy+cKDTree peer skipped ({exc})")
    else:
        impls.append((KDTreePeer.name, KDTreePeer))
    return impls, core


def _run(factory: Callable[[Any], Any], scene: Any, frames: int) -> dict[str, Any]:
    t0 = time.perf_counter_ns()
    stepper = factory(scene)
    setup_ns = time.perf_counter_ns() - t0
    for _ in range(WARMUP_FRAMES):
        stepper.step()
    times = np.empty(frames, dtype=np.int64)
    hits = np.empty(frames, dtype=np.int64)
    gc.collect()
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for i in range(frames):
            t = time.perf_counter_ns()
            h = stepper.step()
            times[i] = time.perf_counter_ns() - t
            hits[i] = h
    finally:
        if gc_was_enabled:
            gc.enable()
    ms = times / 1e6
    return {
        "median_ms": float(np.median(ms)),
        "p90_ms": float(np.percentile(ms, 90)),
        "mean_ms": float(ms.mean()),
        "min_ms": float(ms.min()),
        "mean_hits": float(hits.mean()),
        "setup_ms": setup_ns / 1e6,
        "_hits": hits,
    }


def _over_rounds(name: str, runs: list[dict[str, Any]], cores: list[dict[str, Any] | None]) -> dict[str, Any]:
    """One implementation's figures over the rounds: medians of the rounds' figures, its ratio to
    the core as the median of each round's own ratio, and its hits (the same every round: checked)."""
    median = lambda key: float(np.median([run[key] for run in runs]))  # noqa: E731
    hits = runs[0]["_hits"]
    if not all(np.array_equal(hits, run["_hits"]) for run in runs[1:]):
        raise SystemExit(f"{name}: hits differ between rounds: the workload is not deterministic")
    ratios = [run["median_ms"] / core["median_ms"] for run, core in zip(runs, cores) if core is not None]
    mean_ratios = [run["mean_ms"] / core["mean_ms"] for run, core in zip(runs, cores) if core is not None]
    return {
        "name": name,
        "median_ms": median("median_ms"),
        "p90_ms": median("p90_ms"),
        "mean_ms": median("mean_ms"),
        "min_ms": float(min(run["min_ms"] for run in runs)),
        "mean_hits": runs[0]["mean_hits"],
        "setup_ms": median("setup_ms"),
        "round_medians_ms": [run["median_ms"] for run in runs],
        "ratio_vs_core": float(np.median(ratios)) if ratios else None,
        "ratio_vs_core_mean": float(np.median(mean_ratios)) if mean_ratios else None,
        "_hits": hits,
    }


def _versions() -> dict[str, str]:
    out = {"python": platform.python_version(), "numpy": np.__version__}
    for mod in ("scipy", "numba"):
        try:
            out[mod] = __import__(mod).__version__
        except ImportError:
            pass
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Frame time of the Rust core vs numpy+cKDTree and numba peers on the standard stress workload."
    )
    ap.add_argument("--enemies", type=int, default=10_000)
    ap.add_argument("--projectiles", type=int, default=20_000)
    ap.add_argument("--layout", choices=_scene_mod.LAYOUTS, default="crowd")
    ap.add_argument("--frames", type=int, default=200, help="timed frames (after 10 warm-up)")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds; figures are medians over them")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = ap.parse_args(argv)
    if args.frames < 1:
        ap.error("--frames must be ≥ 1")
    if args.rounds < 1:
        ap.error("--rounds must be ≥ 1")

    try:
        scene = make_scene(args.enemies, args.projectiles, args.layout, args.seed)
    except ValueError as exc:
        ap.error(str(exc))

    notes: list[str] = []
    impls, core_available = _load_impls(notes)
    rounds: list[dict[str, dict[str, Any]]] = []
    for n in range(args.rounds):
        shift = n % max(1, len(impls))
        this_round: dict[str, dict[str, Any]] = {}
        for name, factory in impls[shift:] + impls[:shift]:
            if not args.json:
                print(f"round {n + 1}/{args.rounds}: running {name} …", file=sys.stderr, flush=True)
            this_round[name] = _run(factory, scene, args.frames)
        rounds.append(this_round)
    results = [_over_rounds(name, [r[name] for r in rounds], [r.get("core") for r in rounds]) for name, _ in impls]

    means = [r["mean_hits"] for r in results]
    if means and min(means) > 0:
        spread = max(means) / min(means) - 1.0
    else:  # all zero agrees; zero next to non-zero does not
        spread = 0.0 if not means or max(means) == 0 else float("inf")
    hits_agree = spread <= HITS_TOLERANCE
    identical = all(np.array_equal(results[0]["_hits"], r["_hits"]) for r in results[1:])

    if args.json:
        out = {
            "workload": {
                "enemies": args.enemies,
                "projectiles": args.projectiles,
                "layout": args.layout,
                "seed": args.seed,
                "warmup_frames": WARMUP_FRAMES,
                "frames": args.frames,
                "rounds": args.rounds,
            },
            "core_available": core_available,
            "results": [{k: v for k, v in r.items() if not k.startswith("_")} for r in results],
            "hits_agree": hits_agree,
            "hits_spread": spread,
            "hits_tolerance": HITS_TOLERANCE,
            "identical_hits_per_frame": identical,
            "notes": notes,
            "versions": _versions(),
            "cpus": os.cpu_count(),
        }
        print(json.dumps(out, indent=2))
    else:
        print(
            f"\nstandard stress workload: {scene.describe()}; {WARMUP_FRAMES} warm-up + {args.frames} timed frames, "
            f"{args.rounds} interleaved rounds (medians over them)\n"
        )
        for note in notes:
            print(f"note: {note}")
        if notes:
            print()
        head = (
            f"{'implementation':<16} {'median ms':>10} {'p90 ms':>10} {'mean ms':>10} {'hits/frame':>12} "
            f"{'peer/core':>10} {'by mean':>8}"
        )
        print(head)
        print("-" * len(head))
        for r in results:
            ratio = f"{r['ratio_vs_core']:.2f}x" if r["ratio_vs_core"] is not None else "n/a"
            by_mean = f"{r['ratio_vs_core_mean']:.2f}x" if r["ratio_vs_core_mean"] is not None else "n/a"
            print(
                f"{r['name']:<16} {r['median_ms']:>10.3f} {r['p90_ms']:>10.3f} {r['mean_ms']:>10.3f} "
                f"{r['mean_hits']:>12.1f} {ratio:>10} {by_mean:>8}"
            )
        print()
        verdict = "yes" if hits_agree else "NO"
        print(
            f"hits/frame within {HITS_TOLERANCE:.0%} of each other: {verdict} "
            f"(spread {spread:.4%}; identical per-frame hits: {'yes' if identical else 'no'})"
        )
        v = _versions()
        print("versions: " + ", ".join(f"{k} {val}" for k, val in v.items()) + f"; cpus {os.cpu_count()}")
    return 0 if hits_agree else 1


if __name__ == "__main__":
    sys.exit(main())
