"""The power curve's measured rules (GAME_RULES §7.1, R-CURVE-1..4) from a sweep's rows.

`artificer sim` writes them into `summary.json` (`curve`) and `report.md` ("The power curve"): each
target with its figure and pass or fail. Every figure is a function of the rows alone:

- R-CURVE-1, building pays: per archetype, the median sustained DPS of the active wand (the lab's
  figure with the stats and relics, a wave row's `wand_dps`) on leaving the first shop (wave 2's
  row) and on leaving the shop before W20 (wave 20's), and their ratio (≥ `BUILD_PAYS`); the
  control bots (`hold`: the starter wand, stats only) reach W10 on at most `HOLD_W10` of seeds.
- R-CURVE-2, gold is a decision: per run that reached W20, the gold earned through W19 (each
  wave's end less its start), the share spent in the shops after W1..W19 (≥ `SPENT`) and the share
  held on leaving the shop before W20 (≤ `HELD`), medians over the runs; and from W3 on, the share
  of shops whose wants (`gold_wanted`, the bot's) cost more than the gold it came in with (> ½:
  the median shop cannot buy everything).
- R-CURVE-3, every wave presses: wave 1 against the starter wand standing still (`w1_*` on each
  run row, one figure a seed): balance.json `wave.first_wave_press` (≥ 12 alive at 10 s and hit
  within 15 s) on ≥ `WAVE_ONE_SEEDS` of seeds, judged when the caller hands it in (`press`); from W2 on, the median share of max HP an archetype loses in a wave, and the median
  archetype's within `HP_LOST`.
- The bots build as players do: the share of the cards they bought that their wand does not fire
  (a wave row's `cards_idle` of `cards_bought`), reported beside the targets.
- R-CURVE-4, every build can win: each archetype clears W20 on `CLEARS` of seeds, and no clear rate
  is more than `CLEAR_SPREAD` × another; and R-BOSS-3's bands hold: from the boss waves' rows
  (`boss_id`, `boss_ttk_s`, `damage_taken`, `hp_max`; every wave starts at full HP, R-LOOP-1), per
  boss the archetypes' median time to kill against its wave's band and the median share of max HP
  it took against `min_hp_taken` (balance.json `wave.boss.targets`, judged by `sim.boss_targets`:
  a fight the bot lost counts as slower than any kill).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

from artificer.content.models import BossFightTargets, FirstWavePress
from artificer.sim.boss_targets import RULE, hp_verdict, median_share, median_ttk, ttk_verdict
from artificer.sim.sweep import FINAL_WAVE, SweepResult

BUILD_PAYS = 20.0
HOLD_WAVE = 10
HOLD_W10 = 0.10
SPENT = 0.80
HELD = 0.20
SHORT_FROM_WAVE = 3
WAVE_ONE_SEEDS = 0.95
HP_LOST = (0.15, 0.60)
CLEARS = (0.25, 0.75)
CLEAR_SPREAD = 2.5


def _median(values: Sequence[float]) -> float | None:
    return round(float(np.median(values)), 4) if values else None


def curve_figures(
    result: SweepResult,
    controls: Sequence[str] = (),
    targets: BossFightTargets | None = None,
    press: FirstWavePress | None = None,
) -> dict[str, Any]:
    """Every R-CURVE figure of the sweep: per build (archetypes and controls alike) and the targets'
    verdicts over the archetypes (the builds not in `controls`); with `targets` (balance.json's
    `wave.boss.targets`), R-BOSS-3's bands on each boss the archetypes fought."""
    waves_of: dict[tuple[str, int], dict[int, dict[str, Any]]] = defaultdict(dict)
    for row in result.waves:
        waves_of[(row["build"], row["seed"])][row["wave"]] = row
    builds: dict[str, dict[str, Any]] = {}
    for build in result.builds:
        runs = [row for row in result.runs if row["build"] == build]
        played = [waves_of[(build, row["seed"])] for row in runs]
        first = [w[2]["wand_dps"] for w in played if 2 in w and w[2].get("wand_dps") is not None]
        last = [
            w[FINAL_WAVE]["wand_dps"] for w in played if FINAL_WAVE in w and w[FINAL_WAVE].get("wand_dps") is not None
        ]
        spent, held, short, lost = [], [], [], []
        for waves in played:
            ledger = _gold(waves)
            if ledger is not None:
                spent.append(ledger[0])
                held.append(ledger[1])
            short += [
                row["gold_wanted"] > row["gold_end"]
                for number, row in waves.items()
                if number >= SHORT_FROM_WAVE and row.get("gold_wanted") is not None
            ]
            lost += [row["damage_taken"] / row["hp_max"] for n, row in waves.items() if n >= 2 and row.get("hp_max")]
        bought = sum(row.get("cards_bought") or 0 for waves in played for row in waves.values())
        idle = sum(row.get("cards_idle") or 0 for waves in played for row in waves.values())
        median_first, median_last = _median(first), _median(last)
        builds[build] = {
            "control": build in controls,
            "wand_dps_first_shop": median_first,
            "wand_dps_before_w20": median_last,
            "wand_dps_growth": round(median_last / median_first, 3) if median_first and median_last else None,
            "reach_w10": round(sum(row["wave_reached"] >= HOLD_WAVE for row in runs) / len(runs), 4) if runs else None,
            "w20_clear_rate": round(sum(row["cleared_w20"] for row in runs) / len(runs), 4) if runs else None,
            "gold_spent_share": _median(spent),
            "gold_held_share": _median(held),
            "shops_short_share": round(sum(short) / len(short), 4) if short else None,
            "hp_lost_share": _median(lost),
            # The bots build as players do: the cards they buy fire (the lab's timeline casts them).
            "cards_bought": bought,
            "cards_idle_share": round(idle / bought, 4) if bought else None,
        }
    seeds: dict[int, dict[str, Any]] = {}
    for row in result.runs:
        if "w1_alive_10s" in row:
            seeds.setdefault(row["seed"], row)
    pressed = [
        row["w1_alive_10s"] >= press.alive and row["w1_hit_s"] is not None and row["w1_hit_s"] <= press.hit_within_s
        for row in seeds.values()
        if press is not None
    ]
    bosses = _boss_figures(result.waves, controls)
    out_targets = _targets(builds, seeds, pressed, press)
    if targets is not None:
        out_targets += _boss_targets(bosses, targets)
    return {
        "builds": builds,
        "bosses": bosses,
        "wave_one": {
            "seeds": len(seeds),
            "pressed_share": round(sum(pressed) / len(pressed), 4) if pressed else None,
            "alive_10s_median": _median([row["w1_alive_10s"] for row in seeds.values()]),
            "hit_s_median": _median([row["w1_hit_s"] for row in seeds.values() if row["w1_hit_s"] is not None]),
            "hit_share": round(sum(row["w1_hit_s"] is not None for row in seeds.values()) / len(seeds), 4)
            if seeds
            else None,
        },
        "targets": out_targets,
    }


def _boss_figures(waves: Sequence[dict[str, Any]], controls: Sequence[str]) -> dict[str, dict[str, Any]]:
    """R-BOSS-3 from the boss waves the archetypes played, per boss (in wave, then id order): its
    wave, fights and kills, each archetype's median TTK and HP taken, and the medians over them."""
    fights: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in waves:
        if row.get("boss_id") is not None and row["build"] not in controls:
            fights[row["boss_id"]].append(row)
    out: dict[str, dict[str, Any]] = {}
    for boss_id, rows in sorted(fights.items(), key=lambda item: (item[1][0]["wave"], item[0])):
        per_build: dict[str, dict[str, float | None]] = {}
        for build in dict.fromkeys(row["build"] for row in rows):
            mine = [row for row in rows if row["build"] == build]
            per_build[build] = {
                "median_ttk_s": median_ttk(row.get("boss_ttk_s") for row in mine),
                "median_hp_taken": median_share(
                    row["damage_taken"] / row["hp_max"] if row.get("hp_max") else None for row in mine
                ),
            }
        out[boss_id] = {
            "wave": rows[0]["wave"],
            "fights": len(rows),
            "kills": sum(row.get("boss_ttk_s") is not None for row in rows),
            "median_ttk_s": median_ttk(b["median_ttk_s"] for b in per_build.values()),
            "median_hp_taken": median_share(b["median_hp_taken"] for b in per_build.values()),
            "archetypes": per_build,
        }
    return out


def _boss_targets(bosses: dict[str, dict[str, Any]], targets: BossFightTargets) -> list[dict[str, Any]]:
    """R-BOSS-3's two targets a boss, as `_targets` lists them."""
    out: list[dict[str, Any]] = []
    for boss_id, b in bosses.items():
        for verdict in (ttk_verdict(targets, b["wave"], b["median_ttk_s"]), hp_verdict(targets, b["median_hp_taken"])):
            figure = f"{verdict.figure} ({b['kills']}/{b['fights']} killed)"
            out.append({"rule": RULE, "asks": f"{boss_id}: {verdict.asks}", "figure": figure, "pass": verdict.ok})
    return out


def _gold(waves: dict[int, dict[str, Any]]) -> tuple[float, float] | None:
    """A run's (share of the gold earned through W19 spent in the shops, share held on leaving the
    shop before W20), or None for a run that did not reach W20 or has no ledger."""
    last = waves.get(FINAL_WAVE)
    if last is None or last.get("gold_start") is None:
        return None
    earned = spent = 0.0
    for number in range(1, FINAL_WAVE):
        row = waves.get(number)
        if row is None or row.get("gold_after_shop") is None:
            return None
        earned += row["gold_end"] - row["gold_start"]
        spent += row["gold_end"] - row["gold_after_shop"]
    if earned <= 0:
        return None
    return spent / earned, last["gold_start"] / earned


def _targets(
    builds: dict[str, dict[str, Any]], seeds: dict[int, Any], pressed: list[bool], press: FirstWavePress | None
) -> list[dict[str, Any]]:
    """Each R-CURVE target: its rule, what it asks, the figure, and whether it holds (None: not
    measurable in this sweep)."""
    arche = {name: b for name, b in builds.items() if not b["control"]}
    controls = {name: b for name, b in builds.items() if b["control"]}
    out: list[dict[str, Any]] = []

    def target(rule: str, asks: str, figure: str, ok: bool | None) -> None:
        out.append({"rule": rule, "asks": asks, "figure": figure, "pass": ok})

    for name, b in arche.items():
        growth = b["wand_dps_growth"]
        target(
            "R-CURVE-1",
            f"{name}: wand DPS before W20 ≥ {BUILD_PAYS:g}× the first shop's",
            "—"
            if growth is None
            else f"{b['wand_dps_first_shop']:.1f} → {b['wand_dps_before_w20']:.1f} ({growth:.1f}×)",
            None if growth is None else growth >= BUILD_PAYS,
        )
    for name, b in controls.items():
        target(
            "R-CURVE-1",
            f"{name} (control): reaches W{HOLD_WAVE} on ≤ {HOLD_W10:.0%} of seeds",
            f"{b['reach_w10']:.0%}",
            b["reach_w10"] <= HOLD_W10,
        )
    for name, b in arche.items():
        spent, held = b["gold_spent_share"], b["gold_held_share"]
        target(
            "R-CURVE-2",
            f"{name}: spends ≥ {SPENT:.0%} of the gold earned through W19, holds ≤ {HELD:.0%} before W20",
            "—" if spent is None or held is None else f"spent {spent:.0%}, held {held:.0%}",
            None if spent is None or held is None else spent >= SPENT and held <= HELD,
        )
        short = b["shops_short_share"]
        target(
            "R-CURVE-2",
            f"{name}: from W{SHORT_FROM_WAVE}, the median shop cannot buy all the bot wants",
            "—" if short is None else f"{short:.0%} of shops short",
            None if short is None else short > 0.5,
        )
    share = sum(pressed) / len(pressed) if pressed else None
    target(
        "R-CURVE-3",
        "wave 1, starter wand standing still: "
        + (
            "—"
            if press is None
            else f"≥ {press.alive} alive at {press.alive_at_s:g} s and hit within {press.hit_within_s:g} s"
        )
        + f" on ≥ {WAVE_ONE_SEEDS:.0%} of seeds",
        "—" if share is None else f"{share:.0%} of {len(seeds)} seeds",
        None if share is None else share >= WAVE_ONE_SEEDS,
    )
    losses = [b["hp_lost_share"] for b in arche.values() if b["hp_lost_share"] is not None]
    median_loss = _median(losses)
    lo, hi = HP_LOST
    target(
        "R-CURVE-3",
        f"from W2, the median archetype loses {lo:.0%}–{hi:.0%} of max HP a wave",
        "—"
        if median_loss is None
        else f"{median_loss:.0%} (" + ", ".join(f"{n} {b['hp_lost_share']:.0%}" for n, b in arche.items()) + ")",
        None if median_loss is None else lo <= median_loss <= hi,
    )
    rates = {name: b["w20_clear_rate"] for name, b in arche.items() if b["w20_clear_rate"] is not None}
    lo, hi = CLEARS
    for name, rate in rates.items():
        target("R-CURVE-4", f"{name}: clears W20 on {lo:.0%}–{hi:.0%} of seeds", f"{rate:.0%}", lo <= rate <= hi)
    if rates:
        top, bottom = max(rates.values()), min(rates.values())
        target(
            "R-CURVE-4",
            f"no clear rate more than {CLEAR_SPREAD:g}× another",
            f"{top:.0%} / {bottom:.0%}" + ("" if bottom else " (a build never clears)"),
            bottom > 0 and top <= CLEAR_SPREAD * bottom,
        )
    return out


def curve_markdown(figures: dict[str, Any]) -> list[str]:
    """report.md's "The power curve" section: the targets, then the figures per build."""
    lines = ["", "## The power curve (R-CURVE)", ""]
    targets = figures["targets"]
    held = sum(t["pass"] is True for t in targets)
    judged = sum(t["pass"] is not None for t in targets)
    lines += [f"{held} of {judged} targets hold (— where this sweep cannot measure one).", ""]
    lines += ["| rule | target | figure | |", "|---|---|---|---|"]
    for t in targets:
        mark = "—" if t["pass"] is None else "pass" if t["pass"] else "**fail**"
        lines.append(f"| {t['rule']} | {t['asks']} | {t['figure']} | {mark} |")
    lines += [
        "",
        "| build | wand DPS, first shop → before W20 | reaches W10 | gold spent / held | shops short (W3+) | "
        "HP lost a wave (W2+) | cards bought (idle) |",
        "|---|---|---|---|---|---|---|",
    ]

    def share(value: float | None) -> str:
        return "—" if value is None else f"{value:.0%}"

    for name, b in figures["builds"].items():
        first, last, growth = b["wand_dps_first_shop"], b["wand_dps_before_w20"], b["wand_dps_growth"]
        dps = "—" if first is None else f"{first:.1f} → " + ("—" if last is None else f"{last:.1f} ({growth:.1f}×)")
        label = f"{name} (control)" if b["control"] else name
        lines.append(
            f"| {label} | {dps} | {share(b['reach_w10'])} | {share(b['gold_spent_share'])} / "
            f"{share(b['gold_held_share'])} | {share(b['shops_short_share'])} | {share(b['hp_lost_share'])} | "
            f"{b['cards_bought']} ({share(b['cards_idle_share'])}) |"
        )
    bosses = figures.get("bosses") or {}
    if bosses:
        lines += [
            "",
            "R-BOSS-3, the boss waves the archetypes fought (each at full HP, R-LOOP-1): the archetypes' "
            "median time to kill (a fight lost counts as slowest) and median HP taken, share of max HP.",
            "",
            "| boss | wave | fights (killed) | median TTK | median HP taken |",
            "|---|---|---|---|---|",
        ]
        for boss_id, b in bosses.items():
            ttk = "not killed" if b["median_ttk_s"] is None else f"{b['median_ttk_s']:.1f} s"
            lines.append(
                f"| {boss_id} | W{b['wave']} | {b['fights']} ({b['kills']}) | {ttk} | {share(b['median_hp_taken'])} |"
            )
    one = figures["wave_one"]
    if one["seeds"]:
        lines += [
            "",
            f"Wave 1, standing still with the starter wand, over {one['seeds']} seeds: median "
            f"{one['alive_10s_median']:g} alive at 10 s; hit on {share(one['hit_share'])} of seeds"
            + (f" (median {one['hit_s_median']:.1f} s)" if one["hit_s_median"] is not None else "")
            + ".",
        ]
    return lines
