"""What `artificer sim` writes into `--out`: the rows, the per-archetype summary, the plots and
`report.md`, which applies R-BOSS-3 and the balance bounds.

Everything here is a function of the sweep's rows alone, so two sweeps of the same tasks write
the same files, byte for byte, whatever ran them (the plots aside: their PNG bytes are
matplotlib's business; their data is the summary's).
"""

from __future__ import annotations

import csv
import importlib
import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from artificer.content.models import BossFightTargets, FirstWavePress
from artificer.sim.curve import BUILD_PAYS, curve_figures, curve_markdown
from artificer.sim.sweep import FINAL_WAVE, SweepResult

#: The balance bounds a sweep checks (issue 19, R-BOSS-3): an archetype that clears W20 on more
#: seeds than DOMINANT is too strong, on fewer than HOPELESS too weak; a W20 boss kill faster than
#: TTK_FLOOR × the archetypes' median breaks R-BOSS-3.
DOMINANT = 0.90
HOPELESS = 0.20
TTK_FLOOR = 1.0 / 3.0
#: "The late waves keep 1,000+ alive" (issue 19): checked from this wave on.
LATE_WAVE = 15
LATE_ALIVE = 1000
#: The waves whose median DPS report.md tabulates (the plot has every wave).
DPS_WAVES = (5, 10, 15, 20)


def _percentile(values: list[float], q: float) -> float | None:
    return round(float(np.percentile(values, q)), 3) if values else None


def _median(values: list[float]) -> float | None:
    return _percentile(values, 50)


def summarize(result: SweepResult) -> list[dict[str, Any]]:
    """One summary per archetype, in the order the builds were asked for."""
    builds = result.builds
    waves_of: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in result.waves:
        waves_of[row["build"]].append(row)
    out = []
    for build in builds:
        runs = [row for row in result.runs if row["build"] == build]
        waves = waves_of[build]
        ttk = [row["w20_boss_ttk_s"] for row in runs if row["w20_boss_ttk_s"] is not None]
        by_wave: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for row in waves:
            by_wave[row["wave"]].append(row)
        taken: dict[str, float] = defaultdict(float)
        for row in waves:
            for source, amount in row["taken_by_source"].items():
                taken[source] += amount
        total_taken = sum(taken.values())
        out.append(
            {
                "build": build,
                "runs": len(runs),
                # None when no run was asked to go as far as W20: nothing to judge.
                "w20_clear_rate": round(sum(row["cleared_w20"] for row in runs) / len(runs), 4)
                if any(row["waves_asked"] >= FINAL_WAVE for row in runs)
                else None,
                "median_wave_reached": _median([row["wave_reached"] for row in runs]),
                "w20_boss_kills": len(ttk),
                "w20_boss_ttk_p50_s": _median(ttk),
                "w20_boss_ttk_p90_s": _percentile(ttk, 90),
                "out_of_mana_share": round(float(np.mean([row["out_of_mana_share"] for row in runs])), 4),
                "reached_by_wave": {w: len(rows) for w, rows in sorted(by_wave.items())},
                "dps_by_wave": {w: _median([r["dps"] for r in rows]) for w, rows in sorted(by_wave.items())},
                "max_alive_by_wave": {
                    w: _median([r["max_alive"] for r in rows]) for w, rows in sorted(by_wave.items())
                },
                "damage_taken_by_source": {
                    source: round(amount / total_taken, 4) if total_taken else 0.0
                    for source, amount in sorted(taken.items(), key=lambda kv: (-kv[1], kv[0]))
                },
            }
        )
    return out


def verdicts(summary: list[dict[str, Any]], controls: Sequence[str] = ()) -> dict[str, list[str]]:
    """Per archetype, what breaks the balance bounds (an empty list: none); a control build (the
    hold bot) is judged by R-CURVE, not by these bounds, and its kills count in no median."""
    p50s = [
        s["w20_boss_ttk_p50_s"] for s in summary if s["w20_boss_ttk_p50_s"] is not None and s["build"] not in controls
    ]
    median_ttk = _median(p50s)
    out: dict[str, list[str]] = {}
    for s in summary:
        flags: list[str] = []
        if s["build"] in controls:
            out[s["build"]] = flags
            continue
        rate = s["w20_clear_rate"]
        if rate is None:
            pass
        elif rate > DOMINANT:
            flags.append(f"dominant: clears W20 on {rate:.0%} of seeds (more than {DOMINANT:.0%})")
        if rate is not None and rate < HOPELESS:
            flags.append(f"hopeless: clears W20 on {rate:.0%} of seeds (fewer than {HOPELESS:.0%})")
        ttk = s["w20_boss_ttk_p50_s"]
        if ttk is not None and median_ttk is not None and ttk < TTK_FLOOR * median_ttk:
            flags.append(
                f"R-BOSS-3: kills the W20 boss in {ttk:.1f} s, under 1/3 of the archetypes' median {median_ttk:.1f} s"
            )
        out[s["build"]] = flags
    return out


# --- files ---------------------------------------------------------------------------------------


def _flat_waves(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The wave rows with `taken_by_source` spread into `taken_<source>` columns (every source
    any row has, sorted; 0.0 where a wave took none from it)."""
    sources = sorted({source for row in rows for source in row["taken_by_source"]})
    flat = []
    for row in rows:
        plain = {key: value for key, value in row.items() if key != "taken_by_source"}
        for source in sources:
            plain[f"taken_{source}"] = float(row["taken_by_source"].get(source, 0.0))
        flat.append(plain)
    return flat


def write_rows(out: Path, name: str, rows: list[dict[str, Any]]) -> Path:
    """`rows` as `name.parquet` (pyarrow) or, without pyarrow, `name.csv`; returns the path."""
    try:
        pa = importlib.import_module("pyarrow")
        pq = importlib.import_module("pyarrow.parquet")
    except ImportError:
        path = out / f"{name}.csv"
        with path.open("w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else [], lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        return path
    path = out / f"{name}.parquet"
    table = pa.Table.from_pylist(rows)
    pq.write_table(table, path, compression="zstd")
    return path


def write_outputs(
    out: Path,
    result: SweepResult,
    plots: bool = True,
    targets: BossFightTargets | None = None,
    press: FirstWavePress | None = None,
) -> list[Path]:
    """Every file of a sweep into `out` (made if missing); returns their paths. `targets`: R-BOSS-3's
    bands (balance.json `wave.boss.targets`) and `press`: R-WAVE-1's wave-1 figures (balance.json
    `wave.first_wave_press`), judged in the curve's section."""
    out.mkdir(parents=True, exist_ok=True)
    summary = summarize(result)
    flags = verdicts(summary, result.controls)
    written = [write_rows(out, "runs", result.runs), write_rows(out, "waves", _flat_waves(result.waves))]
    summary_path = out / "summary.json"
    curve = curve_figures(result, result.controls, targets, press)
    summary_path.write_text(
        json.dumps({"archetypes": summary, "verdicts": flags, "curve": curve}, indent=1, sort_keys=False) + "\n",
        encoding="utf-8",
    )
    written.append(summary_path)
    images = draw_plots(out, result, summary) if plots else []
    written.extend(images)
    report = out / "report.md"
    report.write_text(report_markdown(result, summary, flags, [p.name for p in images], curve), encoding="utf-8")
    written.append(report)
    return written


def report_markdown(
    result: SweepResult,
    summary: list[dict[str, Any]],
    flags: dict[str, list[str]],
    images: list[str],
    curve: dict[str, Any] | None = None,
) -> str:
    seeds = sorted({t.seed for t in result.tasks})
    waves = sorted({t.waves for t in result.tasks})
    lines = [
        "# Balance sweep",
        "",
        f"{len(result.tasks)} runs: {len(summary)} archetypes × {len(seeds)} seeds "
        f"({seeds[0]}–{seeds[-1]}), up to wave {', '.join(map(str, waves))}"
        + (", endless" if any(t.endless for t in result.tasks) else "")
        + (f", NG+ {result.tasks[0].ng_plus}" if result.tasks and result.tasks[0].ng_plus else "")
        + ". Made by `artificer sim`; every figure comes from `runs` and `waves` beside this file.",
        "",
        "| archetype | runs | W20 clear | median wave | W20 boss TTK p50 / p90 | out of mana | verdict |",
        "|---|---|---|---|---|---|---|",
    ]

    def seconds(value: float | None) -> str:
        return "—" if value is None else f"{value:.1f} s"

    def share(value: float | None) -> str:
        return "—" if value is None else f"{value:.0%}"

    for s in summary:
        verdict = "; ".join(flags[s["build"]]) or (
            "a control: see R-CURVE" if s["build"] in result.controls else "within bounds"
        )
        lines.append(
            f"| {s['build']} | {s['runs']} | {share(s['w20_clear_rate'])} | {s['median_wave_reached']:g} | "
            f"{seconds(s['w20_boss_ttk_p50_s'])} / {seconds(s['w20_boss_ttk_p90_s'])} | "
            f"{s['out_of_mana_share']:.0%} | {verdict} |"
        )
    p50s = [s["w20_boss_ttk_p50_s"] for s in summary if s["w20_boss_ttk_p50_s"] is not None]
    median_ttk = _median(p50s)
    lines += ["", "## R-BOSS-3", ""]
    if median_ttk is None:
        lines.append("No archetype killed the W20 boss in this sweep: R-BOSS-3 cannot be judged.")
    else:
        floor = TTK_FLOOR * median_ttk
        broken = [
            s["build"] for s in summary if s["w20_boss_ttk_p50_s"] is not None and s["w20_boss_ttk_p50_s"] < floor
        ]
        lines.append(
            f"The archetypes' median W20 boss time-to-kill is {median_ttk:.1f} s; the floor (1/3 of it) is "
            f"{floor:.1f} s. " + (f"Under it: {', '.join(broken)}." if broken else "No archetype is under it.")
        )
    marks = [w for w in DPS_WAVES if any(w in s["dps_by_wave"] for s in summary)]
    lines += ["", "## DPS and damage taken", ""]
    lines += [
        "| archetype | " + " | ".join(f"DPS W{w}" for w in marks) + " | damage taken from |",
        "|---|" + "---|" * len(marks) + "---|",
    ]
    for s in summary:
        dps = [s["dps_by_wave"].get(w) for w in marks]
        sources = list(s["damage_taken_by_source"].items())[:3]
        taken = ", ".join(f"{source} {share:.0%}" for source, share in sources) or "nothing"
        cells = " | ".join("—" if d is None else f"{d:,.1f}" for d in dps)
        lines.append(f"| {s['build']} | {cells} | {taken} |")
    lines += ["", "(median DPS over the runs that played the wave; damage taken: the three biggest sources' shares)"]
    late = {
        s["build"]: [w for w, alive in s["max_alive_by_wave"].items() if w >= LATE_WAVE and alive is not None]
        for s in summary
    }
    lines += ["", f"## The late waves (W{LATE_WAVE}+)", ""]
    for s in summary:
        crowded = [w for w in late[s["build"]] if s["max_alive_by_wave"][w] >= LATE_ALIVE]
        played = late[s["build"]]
        if not played:
            lines.append(f"- {s['build']}: no run reached W{LATE_WAVE}.")
        else:
            peak = max(s["max_alive_by_wave"][w] for w in played)
            lines.append(
                f"- {s['build']}: in {len(crowded)} of the {len(played)} late waves its runs played, the median "
                f"peak crowd was {LATE_ALIVE:,}+ alive (the highest: {peak:,.0f})."
            )
    if curve is not None:
        lines += curve_markdown(curve)
    if images:
        lines += ["", "## Plots", ""] + [f"![{name}]({name})" for name in images]
    return "\n".join(lines) + "\n"


def draw_plots(out: Path, result: SweepResult, summary: list[dict[str, Any]]) -> list[Path]:
    """survival.png (share of runs alive at each wave's start), boss_ttk.png (W20 boss TTK box
    plot) and dps_by_wave.png (median DPS by wave), per archetype; none without matplotlib."""
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError:
        return []
    matplotlib.use("Agg")
    plt = importlib.import_module("matplotlib.pyplot")
    metadata = {"Software": None}  # no version stamp: the same data draws the same file
    paths = []

    ticker = importlib.import_module("matplotlib.ticker")
    styles = ("-", "--", "-.", ":")
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for i, s in enumerate(summary):
        reached = s["reached_by_wave"]
        top = max(reached, default=1)
        xs = list(range(1, top + 1))
        shares = [reached.get(w, 0) / s["runs"] for w in xs]
        # Archetypes often share a curve: a line style each (and a hair of offset) keeps every one visible.
        shares = [share + 0.006 * (i - len(summary) / 2) for share in shares]
        ax.step(xs, shares, where="post", label=s["build"], linestyle=styles[i % len(styles)], linewidth=1.6)
    ax.axvline(FINAL_WAVE, color="grey", linestyle=":", linewidth=1)
    ax.xaxis.set_major_locator(ticker.MaxNLocator(integer=True))
    ax.set(xlabel="wave", ylabel="share of runs that reach it", title="Survival by wave", ylim=(-0.05, 1.08))
    ax.legend(fontsize=8, ncols=2)
    paths.append(_save(fig, out / "survival.png", metadata))

    fig, ax = plt.subplots(figsize=(8, 4.5))
    names = [s["build"] for s in summary]
    data = [
        [r["w20_boss_ttk_s"] for r in result.runs if r["build"] == b and r["w20_boss_ttk_s"] is not None] for b in names
    ]
    ax.boxplot(
        [d if d else [float("nan")] for d in data], tick_labels=[f"{b}\nn={len(d)}" for b, d in zip(names, data)]
    )
    p50s = [s["w20_boss_ttk_p50_s"] for s in summary if s["w20_boss_ttk_p50_s"] is not None]
    if p50s:
        floor = TTK_FLOOR * float(np.median(p50s))
        ax.axhline(floor, color="firebrick", linestyle="--", linewidth=1, label="R-BOSS-3 floor (1/3 of the median)")
        ax.legend(fontsize=8)
    ax.set(ylabel="seconds", title="W20 boss time-to-kill (runs that killed it)")
    paths.append(_save(fig, out / "boss_ttk.png", metadata))

    fig, ax = plt.subplots(figsize=(8, 4.5))
    for s in summary:
        dps = s["dps_by_wave"]
        ax.plot(list(dps), list(dps.values()), marker=".", label=s["build"])
    ax.xaxis.set_major_locator(ticker.MaxNLocator(integer=True))
    ax.set(xlabel="wave", ylabel="median DPS", title="DPS by wave", yscale="symlog")
    ax.legend(fontsize=8, ncols=2)
    paths.append(_save(fig, out / "dps_by_wave.png", metadata))

    curve = _wand_dps_by_wave(result)
    if curve:
        fig, ax = plt.subplots(figsize=(8, 4.5))
        for i, (build, by_wave) in enumerate(curve.items()):
            label = f"{build} (control)" if build in result.controls else build
            ax.plot(list(by_wave), list(by_wave.values()), marker=".", label=label, linestyle=styles[i % len(styles)])
        firsts = [by_wave[2] for build, by_wave in curve.items() if 2 in by_wave and build not in result.controls]
        if firsts:
            target = BUILD_PAYS * float(np.median(firsts))
            ax.axhline(target, color="firebrick", linestyle="--", linewidth=1, label=f"R-CURVE-1: {BUILD_PAYS:g}× W2's")
        ax.xaxis.set_major_locator(ticker.MaxNLocator(integer=True))
        ax.set(
            xlabel="wave (the wand it began with)",
            ylabel="sustained DPS, the lab's figure",
            title="The power curve: the wand left each shop with (median)",
            yscale="log",
        )
        ax.legend(fontsize=8, ncols=2)
        paths.append(_save(fig, out / "power_curve.png", metadata))
    plt.close("all")
    return paths


def _wand_dps_by_wave(result: SweepResult) -> dict[str, dict[int, float]]:
    """Per build, the median sustained DPS of the wand each wave began with (R-CURVE-1)."""
    values: dict[str, dict[int, list[float]]] = {build: defaultdict(list) for build in result.builds}
    for row in result.waves:
        if row.get("wand_dps") is not None:
            values[row["build"]][row["wave"]].append(row["wand_dps"])
    return {
        build: {w: float(np.median(v)) for w, v in sorted(by_wave.items())}
        for build, by_wave in values.items()
        if by_wave
    }


def _save(fig: Any, path: Path, metadata: dict[str, Any]) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=100, metadata=metadata)
    return path
