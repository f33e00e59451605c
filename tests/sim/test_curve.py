"""GAME_RULES §7.1 R-CURVE-1..4: the power curve's targets are judged from a sweep's rows, each with
its figure — building pays, gold is a decision, every wave presses, every build can win."""

from __future__ import annotations

from typing import Any

from artificer.content import load_content
from artificer.sim.curve import curve_figures, curve_markdown
from artificer.sim.sweep import FINAL_WAVE, SweepResult, Task

PRESS = load_content().balance.wave.first_wave_press  # R-WAVE-1's wave-1 figures (data)


def _run(build: str, seed: int, *, grow: float, spend: float, short: bool, hurt: float, reached: int = FINAL_WAVE):
    """One made-up run: its wand's DPS grows `grow`× from the first shop to W20, it spends `spend`
    of each wave's 100 gold, its shops are short of what it wants or not, it loses `hurt` of its
    100 HP a wave; wave 1 pressed it."""
    run = {
        "build": build,
        "seed": seed,
        "waves_asked": FINAL_WAVE,
        "wave_reached": reached,
        "cleared_w20": reached == FINAL_WAVE,
        "w1_alive_10s": 14,
        "w1_spawned_10s": 16,
        "w1_hit_s": 6.5,
    }
    waves: list[dict[str, Any]] = []
    held = 0.0
    for w in range(1, reached + 1):
        dps = 10.0 if w <= 2 else 10.0 * grow ** ((w - 2) / (FINAL_WAVE - 2))
        start, end = held, held + 100
        held = end - round(100 * spend) if w < FINAL_WAVE else end
        waves.append(
            {
                "build": build,
                "seed": seed,
                "wave": w,
                "wand_dps": round(dps, 3),
                "hp_max": 100.0,
                "damage_taken": 100.0 * hurt,
                "gold_start": start,
                "gold_end": end,
                "gold_wanted": end + 50 if short else end - 50,
                "gold_after_shop": held if w < FINAL_WAVE else None,
            }
        )
    return run, waves


def _sweep(runs: list[tuple[dict[str, Any], list[dict[str, Any]]]], controls: list[str]) -> SweepResult:
    tasks = [Task(r["build"], r["seed"]) for r, _ in runs]
    builds = list(dict.fromkeys(r["build"] for r, _ in runs))
    return SweepResult(tasks, [r for r, _ in runs], [w for _, ws in runs for w in ws], builds, controls=controls)


def _verdicts(result: SweepResult) -> dict[str, bool | None]:
    figures = curve_figures(result, result.controls, press=PRESS)
    return {t["asks"]: t["pass"] for t in figures["targets"]}


def test_a_curve_that_holds_passes_every_target() -> None:
    runs = []
    for seed in range(4):
        runs.append(
            _run("mage", seed, grow=25, spend=0.9, short=True, hurt=0.3, reached=FINAL_WAVE if seed < 2 else 12)
        )
        runs.append(_run("brute", seed, grow=30, spend=0.85, short=True, hurt=0.4, reached=FINAL_WAVE if seed else 9))
        runs.append(_run("hold", seed, grow=1, spend=0.5, short=False, hurt=0.8, reached=6))
    verdicts = _verdicts(_sweep(runs, ["hold"]))
    assert all(verdicts.values()), verdicts
    text = "\n".join(curve_markdown(curve_figures(_sweep(runs, ["hold"]), ["hold"], press=PRESS)))
    assert "fail" not in text and "hold (control)" in text


def test_flat_wands_piled_gold_and_an_idle_wave_one_fail_with_their_figures() -> None:
    runs = [_run("mage", seed, grow=3, spend=0.2, short=False, hurt=0.02) for seed in range(4)]
    runs += [_run("hold", seed, grow=1, spend=0.2, short=False, hurt=0.02) for seed in range(4)]
    for run, _ in runs:
        run["w1_alive_10s"], run["w1_hit_s"] = 4, None
    figures = curve_figures(_sweep(runs, ["hold"]), ["hold"], press=PRESS)
    failed = {t["rule"]: t["figure"] for t in figures["targets"] if t["pass"] is False}
    assert set(failed) == {"R-CURVE-1", "R-CURVE-2", "R-CURVE-3", "R-CURVE-4"}
    mage = figures["builds"]["mage"]
    assert mage["wand_dps_growth"] == 3.0
    assert mage["gold_spent_share"] == 0.2 and mage["gold_held_share"] > 0.7
    assert figures["wave_one"] == {
        "seeds": 4,
        "pressed_share": 0.0,
        "alive_10s_median": 4.0,
        "hit_s_median": None,
        "hit_share": 0.0,
    }
    assert "3.0×" in "\n".join(curve_markdown(figures))


def _fought(
    runs: list[tuple[dict[str, Any], list[dict[str, Any]]]], boss_id: str, wave: int, ttk: list, taken: float
) -> None:
    """Marks wave `wave` of each run (seed order) a fight with `boss_id`: its TTK (None: lost) and HP taken of 100."""
    for (_, waves), seconds in zip(runs, ttk, strict=True):
        row = next(w for w in waves if w["wave"] == wave)
        row.update(boss_id=boss_id, boss_ttk_s=seconds, damage_taken=taken)


def test_r_boss_3_the_sweep_report_judges_each_boss_against_its_band_from_the_wave_rows() -> None:
    """R-BOSS-3 from the boss waves' rows (`boss_id`, `boss_ttk_s`, `damage_taken`, `hp_max`): the
    W8 boss killed in a median 60 s taking 40% holds; the W10 boss killed in 20 s taking 10% fails
    both its band (45-150 s) and the 25% floor; the W20 boss lost on most fights fails its band; the
    control's fights do not count."""
    targets = load_content().balance.wave.boss.targets
    mage = [_run("mage", seed, grow=25, spend=0.9, short=True, hurt=0.3) for seed in range(3)]
    brute = [_run("brute", seed, grow=25, spend=0.9, short=True, hurt=0.3) for seed in range(3)]
    hold = [_run("hold", seed, grow=1, spend=0.5, short=False, hurt=0.3) for seed in range(3)]
    _fought(mage, "brood_mother", 8, [50.0, 60.0, 70.0], 40.0)
    _fought(brute, "brood_mother", 8, [55.0, 60.0, None], 40.0)
    _fought(hold, "brood_mother", 8, [1.0, 1.0, 1.0], 0.0)
    _fought(mage, "armor_lord", 10, [20.0, 20.0, 20.0], 10.0)
    _fought(brute, "armor_lord", 10, [20.0, 20.0, 20.0], 10.0)
    _fought(mage, "void_lord", 20, [100.0, None, None], 100.0)
    _fought(brute, "void_lord", 20, [None, None, 120.0], 100.0)
    result = _sweep([*mage, *brute, *hold], ["hold"])
    figures = curve_figures(result, ["hold"], targets)
    boss = figures["bosses"]
    assert list(boss) == ["brood_mother", "armor_lord", "void_lord"]
    assert boss["brood_mother"]["fights"] == 6 and boss["brood_mother"]["kills"] == 5, "the control's fights left out"
    assert boss["brood_mother"]["median_ttk_s"] == 60.0 and boss["brood_mother"]["median_hp_taken"] == 0.4
    verdicts = {t["asks"]: t["pass"] for t in figures["targets"] if t["rule"] == "R-BOSS-3"}
    assert verdicts == {
        "brood_mother: median TTK within W8's 30–90 s": True,
        "brood_mother: takes ≥ 25% of the player's max HP at the median": True,
        "armor_lord: median TTK within W10's 45–150 s": False,
        "armor_lord: takes ≥ 25% of the player's max HP at the median": False,
        "void_lord: median TTK within W20's 90–240 s": False,
        "void_lord: takes ≥ 25% of the player's max HP at the median": True,
    }
    text = "\n".join(curve_markdown(figures))
    assert "| R-BOSS-3 | armor_lord: median TTK within W10's 45–150 s | median 20.0 s (6/6 killed) | **fail** |" in text
    assert "| void_lord | W20 | 6 (2) | not killed | 100% |" in text
    assert not [t for t in curve_figures(result, ["hold"])["targets"] if t["rule"] == "R-BOSS-3"], (
        "no targets, no verdicts"
    )
