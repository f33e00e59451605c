"""`artificer sim`: sweeps of seeded headless runs over builds and seeds (R-SIM-1, DESIGN §8).

Every (build, seed) pair is one task: a whole run played by the bot (`run_headless`), reduced to
one row for the run and one row per wave it played. Tasks are independent and run behind one
`concurrent.futures`-style interface (`Backend.submit` returns a `Future`) with two backends:

* `local`: worker processes on this machine (`ProcessPoolExecutor`, one per core by default);
* `ray`: Ray tasks, on a local Ray instance or on a cluster (`--address`); Ray is the optional
  extra `arcane-artificer[cluster]`.

A task's result depends only on the task (the runs are deterministic), and the results are put
back in task order, so the same sweep writes the same rows whatever the backend or the number of
workers. Only `timing.json` (wall times) differs from one sweep to the next.
"""

from __future__ import annotations

import importlib
import logging
import os
import re
import statistics
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol

from artificer.errors import ArtificerError

#: The wave whose boss ends the run as it ships (R-END-2): a sweep's clear rate counts its fall.
FINAL_WAVE = 20
BACKENDS = ("local", "ray")


class SweepError(ArtificerError):
    """A sweep that cannot run as asked: the message is the one line the CLI prints."""


@dataclass(frozen=True, order=True)
class Task:
    """One run of a sweep: the bot plays `build` on `seed` up to `waves`."""

    build: str
    seed: int
    waves: int = FINAL_WAVE
    endless: bool = False
    ng_plus: int = 0
    data: str | None = None


#: The largest seed a run takes (the core's seeds are 64-bit).
MAX_SEED: Final = 2**64 - 1


def parse_seeds(text: str, most: int = 100_000) -> list[int]:
    """`"1-100"`, `"7"` or `"1-3,10,20-22"` as the sorted seeds it names (each once)."""
    seeds: set[int] = set()
    for part in text.split(","):
        match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if match is None:
            shown = part.strip() if len(part.strip()) <= 40 else part.strip()[:40] + "…"
            raise SweepError(f"--seeds: {shown!r} is not a seed or a range like 1-100")
        for digits in match.groups():
            if digits is not None and len(digits.lstrip("0")) > len(str(MAX_SEED)):
                raise SweepError(f"--seeds: a {len(digits)}-digit number is past the largest seed, {MAX_SEED}")
        low = int(match.group(1))
        high = int(match.group(2)) if match.group(2) is not None else low
        if high < low:
            raise SweepError(f"--seeds: the range {low}-{high} runs backwards")
        if high > MAX_SEED:
            raise SweepError(f"--seeds: {high} is past the largest seed, {MAX_SEED}")
        if len(seeds) + high - low + 1 > most:
            raise SweepError(f"--seeds: more than {most} seeds")
        seeds.update(range(low, high + 1))
    return sorted(seeds)


def parse_builds(text: str, known: Sequence[str], controls: Sequence[str] = ()) -> list[str]:
    """A comma list of known builds, in which `all` stands for every archetype of builds.json in
    its order (the `controls`, such as R-CURVE-1's `hold` bot, only when named): `all,hold`."""
    from artificer.content.models import did_you_mean

    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise SweepError("--builds: name at least one build, or all")
    out: list[str] = []
    for name in names:
        if name == "all":
            out.extend(build for build in known if build not in controls)
        elif name in known:
            out.append(name)
        else:
            raise SweepError(
                f"--builds: unknown build {name!r}{did_you_mean(name, list(known))} (builds: all, "
                + ", ".join(known)
                + ")"
            )
    return list(dict.fromkeys(out))


# --- the task ------------------------------------------------------------------------------------

_content_cache: dict[str | None, Any] = {}


def run_task(task: Task) -> dict[str, Any]:
    """One task, in a worker: the run's row and its waves' rows (plain JSON values only), and the
    run's wall seconds (`seconds`: for `timing.json` only, never in the rows)."""
    import time

    from artificer.content import load_content
    from artificer.content.builds import load_builds
    from artificer.sim.headless import run_headless, wave_one_still

    data = Path(task.data) if task.data is not None else None
    if task.data not in _content_cache:
        content = load_content(data)
        _content_cache[task.data] = (content, load_builds(content, data))
    content, builds = _content_cache[task.data]
    started = time.perf_counter()
    report = run_headless(
        content, task.seed, task.waves, builds[task.build], ng_plus=task.ng_plus, endless=task.endless
    )
    rows = reduce_report(task, report, content.balance.sim.tick_hz)
    # R-CURVE-3: wave 1 against the starter wand standing still, on this seed (every build's row has it).
    rows["run"] |= {f"w1_{key}": value for key, value in wave_one_still(content, task.seed).items()}
    return rows | {"seconds": time.perf_counter() - started}


def reduce_report(task: Task, report: dict[str, Any], tick_hz: int) -> dict[str, Any]:
    """The `run` command's JSON of one run as a sweep's rows."""
    waves = report["waves"]
    result = report["result"]
    seconds = sum(w["frames"] for w in waves) / tick_hz
    final = next((w for w in waves if w["wave"] == FINAL_WAVE), None)
    cleared = result["outcome"] == "cleared" or result["wave_reached"] > FINAL_WAVE
    run_row = {
        "build": task.build,
        "seed": task.seed,
        "waves_asked": task.waves,
        "endless": task.endless,
        "ng_plus": task.ng_plus,
        "wave_reached": result["wave_reached"],
        "outcome": result["outcome"],
        "cleared_w20": bool(cleared),
        "w20_boss_ttk_s": final.get("boss_ttk_s") if final is not None else None,
        "kills": sum(w["kills"] for w in waves),
        "damage_dealt": round(sum(w["damage_dealt"] for w in waves), 3),
        "damage_taken": round(sum(w["damage_taken"] for w in waves), 3),
        "out_of_mana_share": round(sum(w["out_of_mana_s"] for w in waves) / seconds, 4) if seconds else 0.0,
        "frames": result["frames"],
        "currency": result["currency"],
        "state_hash": result["state_hash"],
    }
    wave_rows = [
        {
            "build": task.build,
            "seed": task.seed,
            "wave": w["wave"],
            "survived": not (w is waves[-1] and result["outcome"] == "died"),
            "kills": w["kills"],
            "dps": w["dps"],
            "damage_dealt": w["damage_dealt"],
            "damage_taken": w["damage_taken"],
            "max_alive": w["max_alive"],
            "held_back": w["held_back"],
            "out_of_mana_s": w["out_of_mana_s"],
            "frames": w["frames"],
            "boss_id": w.get("boss_id"),
            "boss_ttk_s": w.get("boss_ttk_s"),
            "taken_by_source": dict(sorted(w["damage_taken_by_source"].items())),
            # R-CURVE-1/2/3: the wand left the shop with, the HP begun with, the gold's ledger.
            "wand_dps": w.get("wand_dps"),
            "hp_max": w.get("hp_max"),
            "gold_start": w.get("gold_start"),
            "gold_end": w.get("gold_end"),
            "gold_wanted": w.get("gold_wanted"),
            "gold_after_shop": w.get("gold_after_shop"),
            "cards_bought": sum(item.startswith("spells:") for item in w.get("purchases") or []),
            "cards_idle": len(w.get("purchases_idle") or []),
        }
        for w in waves
    ]
    return {"run": run_row, "waves": wave_rows}


# --- the backends --------------------------------------------------------------------------------


class Backend(Protocol):
    """Where a sweep's tasks run: `submit` one, get a `concurrent.futures.Future` of its rows."""

    name: str
    workers: int

    def submit(self, task: Task) -> Future[dict[str, Any]]: ...

    def shutdown(self, now: bool = False) -> None:
        """Waits for the running tasks and stops; `now` (Ctrl-C): stops them, without waiting."""


class LocalBackend:
    """Worker processes on this machine (spawned: nothing of the parent's state leaks in)."""

    name = "local"

    def __init__(self, workers: int) -> None:
        import multiprocessing

        self.workers = workers
        self._pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_leave_ctrl_c_to_the_parent,
        )

    def submit(self, task: Task) -> Future[dict[str, Any]]:
        return self._pool.submit(run_task, task)

    def shutdown(self, now: bool = False) -> None:
        if now:  # Ctrl-C: the workers' runs are dropped, not waited for (CPython keeps them in _processes)
            for process in dict(getattr(self._pool, "_processes", None) or {}).values():
                process.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)


def _leave_ctrl_c_to_the_parent() -> None:
    """A worker ignores Ctrl-C (the terminal sends it to the whole process group): the parent
    decides, and a worker never prints a traceback of its own."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


class RayBackend:
    """Ray tasks of the same `run_task`: a local Ray instance of `workers` CPUs, or the cluster at
    `address` (then Ray decides where and how many run at once)."""

    name = "ray"

    def __init__(self, workers: int, address: str | None = None) -> None:
        try:
            self._ray = importlib.import_module("ray")
        except ImportError:
            raise SweepError(
                "--backend ray: Ray is not installed; pip install 'arcane-artificer[cluster]' (or use --backend local)"
            ) from None
        self.workers = workers
        options: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "ignore_reinit_error": True,
            "logging_level": logging.ERROR,
        }
        if address is None:
            options["num_cpus"] = workers
        else:
            options["address"] = address
        try:
            self._ray.init(**options)
        except Exception as err:  # noqa: BLE001 - Ray raises many kinds; the CLI prints one line
            where = f"the cluster at {address}" if address else "a local Ray instance"
            raise SweepError(f"--backend ray: cannot start {where}: {str(err).splitlines()[0]}") from None
        self._remote = self._ray.remote(num_cpus=1, max_retries=0)(run_task)

    def submit(self, task: Task) -> Future[dict[str, Any]]:
        future: Future[dict[str, Any]] = self._remote.remote(task).future()
        return future

    def shutdown(self, now: bool = False) -> None:
        self._ray.shutdown()


def make_backend(name: str, workers: int, address: str | None = None) -> Backend:
    if name == "local":
        if address is not None:
            raise SweepError("--address is for --backend ray")
        return LocalBackend(workers)
    if name == "ray":
        return RayBackend(workers, address)
    raise SweepError(f"--backend must be one of {', '.join(BACKENDS)}, got {name!r}")


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


# --- the sweep -----------------------------------------------------------------------------------


@dataclass
class SweepResult:
    """Every task's rows, in task order (by build name, then seed); `builds` in the order asked."""

    tasks: list[Task]
    runs: list[dict[str, Any]]
    waves: list[dict[str, Any]]
    builds: list[str]
    #: Each task's wall seconds in its worker, in task order (they vary: `timing.json` only).
    seconds: list[float] = field(default_factory=list)
    #: The builds that are controls, not archetypes (R-CURVE-1's `hold`; builds.json `control`).
    controls: list[str] = field(default_factory=list)

    def seconds_by_build(self) -> dict[str, dict[str, float | int]]:
        """Where a sweep's time went, per build in the order asked: its runs, their total, median
        and longest wall seconds (a designer sees which archetype's runs cost the sweep)."""
        spent: dict[str, list[float]] = {build: [] for build in self.builds}
        for task, seconds in zip(self.tasks, self.seconds):
            spent[task.build].append(seconds)
        return {
            build: {
                "runs": len(times),
                "total_s": round(sum(times), 3),
                "median_s": round(statistics.median(times), 3),
                "max_s": round(max(times), 3),
            }
            for build, times in spent.items()
            if times
        }


def run_sweep(
    tasks: Iterable[Task],
    backend: Backend,
    on_done: Callable[[Task, dict[str, Any]], None] | None = None,
    controls: Sequence[str] = (),
) -> SweepResult:
    """Runs every task on `backend` (in any order, as workers free up) and returns the rows in task
    order. `on_done(task, rows)` is called as each finishes (the progress display)."""
    asked = list(tasks)
    ordered = sorted(asked)
    results: dict[Task, dict[str, Any]] = {}
    futures = {backend.submit(task): task for task in ordered}
    try:
        for future in as_completed(futures):
            task = futures[future]
            try:
                rows = future.result()
            except Exception as err:  # noqa: BLE001 - a task's failure names the task, then stops the sweep
                raise SweepError(f"the run of build {task.build} on seed {task.seed} failed: {err}") from err
            results[task] = rows
            if on_done is not None:
                on_done(task, rows)
    finally:
        for future in futures:
            future.cancel()
    runs = [results[t]["run"] for t in ordered]
    waves = [row for t in ordered for row in results[t]["waves"]]
    seconds = [float(results[t].get("seconds", 0.0)) for t in ordered]
    builds = list(dict.fromkeys(t.build for t in asked))
    return SweepResult(ordered, runs, waves, builds, seconds, [b for b in builds if b in controls])
