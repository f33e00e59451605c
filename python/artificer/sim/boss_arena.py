"""The boss arena (R-BOSS-3, issue 15): each boss's time to kill per build archetype, measured
even where the archetype's bot dies before the boss's wave.

This module owns three steps and the table they make:

- `approach`: the run as the bot leaves it in the shop before each boss's wave — the play of
  `sim.headless.run_until` (waves played through `RunFlow`, drinking when hurt, settled and
  shopped after each; `test_boss_arena` holds the two to the same save), with one fallback: a
  wave the bot falls in (it died, or a boss fight stalled) does not end the run. The player is
  put back on its feet at full HP, the wave is settled as a lost one (the gold it picked up kept,
  no relic or potion: `WaveInProgress.finish` of a wave not won), and the shopping bot shops on
  with that gold. The loadout by W19 is then the one its shopping bot would have bought, had it
  lived through every wave; each fall is recorded (`Approach.fell`).
- `fight`: that run against the boss alone — the real `WaveInProgress` of the boss's wave with
  the wave's spawn groups removed (`ArenaWave`; the boss comes on the first step, its own adds
  and clones still come) and the boss forced, so both of W10's bosses are measured on every
  seed; the kiting bot drives and drinks. The fight lasts until the boss falls, the bot dies, or
  the cap: balance.json `wave.boss.stall_after` (where the real wave stalls; the boss has
  hyper-enraged long before, at its `enrage_after`), or `cap_s`.
- `tabulate`: per boss and archetype the median TTK over the seeds (a boss not killed counts as
  slower than any kill, so the median is None when most seeds did not kill it) and the kills;
  the median over the archetypes; and R-BOSS-3's checks: no archetype's final-wave TTK under
  1/3 of the median, and each boss of a wave that draws one of several (W10) killed on a
  majority of seeds by at least four archetypes. With `--full-hp` (R-BOSS-3's "fought at full
  HP"), also its bands (`sim.boss_targets`, the numbers in balance.json `wave.boss.targets`): per
  boss, the median TTK against its wave's band, and the median HP the fight took as a share of
  the player's max HP against `min_hp_taken` — PASS/FAIL lines, and keys in `--json`.

`python -m artificer.sim.boss_arena --seeds 1-5 [--builds all] [--json] [--jobs N]` prints the
table in markdown (the whole result with `--json`). Same seeds ⇒ the same numbers (R-DET-1);
`--jobs` spreads the (archetype, seed) runs over processes without changing them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from artificer.content import Content, load_content
from artificer.content.bosses import Boss
from artificer.content.builds import Build, load_builds
from artificer.content.models import BossFightTargets
from artificer.content.roster import kind_index
from artificer.game.bosses import BossFight
from artificer.game.flow import Ending, Phase, RunFlow
from artificer.game.run import Run, WaveInProgress
from artificer.game.save import RunSave, restore, snapshot
from artificer.game.waves import WaveDirector
from artificer.sim.boss_targets import RULE, hp_verdict, median_share, median_ttk, ttk_verdict
from artificer.sim.bot import KitingBot, drink_when_hurt
from artificer.sim.shopper import ShoppingBot

#: R-BOSS-3: no archetype's time to kill of the final boss under this share of the median.
MIN_SHARE_OF_MEDIAN = 1 / 3
#: Issue 15 (R-BOSS-3): each boss of a wave that draws one of several is beatable — killed on a
#: majority of seeds — by at least this many archetypes.
MIN_ARCHETYPES_BEATING = 4


@dataclass
class Approach:
    """The bot's run up to the boss waves: the save it stands at in the shop before each asked
    wave (`RunSave`, restored for each fight), and the waves it fell in on the way."""

    saves: dict[int, RunSave] = field(default_factory=dict)
    #: (wave, "died" | "stalled") for each wave the fallback carried the run past.
    fell: list[tuple[int, str]] = field(default_factory=list)


@dataclass(frozen=True)
class BossResult:
    """One fight: `boss_id` against archetype `build_id` (None: no build) on `seed`."""

    boss_id: str
    wave: int
    build_id: str | None
    seed: int
    #: Seconds from the boss's coming to its fall; None when it did not fall.
    ttk_s: float | None
    #: The phases it reached, in order (1 first).
    phases: tuple[int, ...]
    died: bool
    enraged: bool
    #: The waves before the boss's the bot fell in and the fallback carried it past.
    fell_before: tuple[int, ...] = ()
    #: The player's HP as the fight began (carried from the wave before, or full with `full_hp`).
    start_hp: float = 0.0
    #: R-BOSS-3: the HP the fight took from the player (the boss's shots and touch, its adds and
    #: clones; after ward), and the player's max HP.
    damage_taken: float = 0.0
    hp_max: float = 0.0

    @property
    def killed(self) -> bool:
        return self.ttk_s is not None

    @property
    def hp_taken_share(self) -> float | None:
        """The HP the fight took as a share of the player's max HP (None: no max HP known)."""
        return self.damage_taken / self.hp_max if self.hp_max > 0 else None


class ArenaWave(WaveInProgress):
    """The boss's wave without its spawn groups, its boss forced (`boss`, even where the run's
    seed would draw the other one): the boss alone on the first step, the rest of the wave —
    hooks, relics, potions, the boss fight's records, the stall — the game's own."""

    def __init__(self, run: Run, boss: Boss) -> None:
        super().__init__(run, boss.wave)
        # A copy that skips validation: a real wave has at least one group, the arena none.
        self.wave = self.wave.model_copy(update={"groups": ()})
        self.director = WaveDirector(run.content, self.wave, run.seed)
        self.boss = boss
        self.boss_kind = kind_index(run.content, boss.boss_id)
        self.stats.boss = BossFight(boss.boss_id)


def approach(content: Content, seed: int, waves: Iterable[int], build: Build | None = None) -> Approach:
    """The run as the bot leaves it in the shop before each wave of `waves` (see the module's
    docstring: `run_until`'s play, and a fall does not end it). A save stands between waves, so
    every wave is 2 or later."""
    wanted = sorted(set(waves))
    result = Approach()
    if not wanted:
        return result
    if wanted[0] < 2:
        raise ValueError(f"no shop stands before wave {wanted[0]}: the arena fights from wave 2 on")
    shopper = ShoppingBot(build) if build is not None else None
    run = Run(content, seed)
    flow = RunFlow(run)
    bot = KitingBot()
    for number in range(1, wanted[-1]):
        if number in wanted:
            result.saves[number] = snapshot(run, number)
        wave = flow.begin_wave() if flow.phase is Phase.LAB else flow.leave_shop()
        while not wave.over:
            bot.control(run.sim)
            drink_when_hurt(run, wave)
            flow.step()
        flow.end_wave()
        if flow.ending in (Ending.DIED, Ending.STALLED):
            result.fell.append((number, flow.ending.value))
            run = _back_on_its_feet(run, number + 1)
            flow = RunFlow.continued(run, number + 1)
        flow.open_shop()
        if shopper is not None:
            shopper.shop(run, number)
    result.saves[wanted[-1]] = snapshot(run, wanted[-1])
    return result


def _back_on_its_feet(run: Run, next_wave: int) -> Run:
    """The fallback: the run after a wave it fell in, rebuilt before `next_wave` as a save would
    restore it, the player at full HP."""
    world = run.sim.world
    _, hp_max = world.player_hp()
    world.set_player_hp(hp_max, hp_max)
    return restore(run.content, snapshot(run, next_wave))


def fight(
    content: Content,
    save: RunSave,
    boss: Boss,
    *,
    cap_s: float | None = None,
    build_id: str | None = None,
    fell_before: Sequence[int] = (),
    full_hp: bool = False,
) -> BossResult:
    """The run `save` holds against `boss` alone (`ArenaWave`), the kiting bot driving, until the
    boss falls, the bot dies, or `cap_s` seconds (default: the wave's own stall,
    `wave.boss.stall_after`) have passed. The player starts with the HP the wave before left it
    (as in the game), or at its max HP with `full_hp` (the build measured apart from the waves)."""
    run = restore(content, save)
    if full_hp:
        _, hp_max = run.sim.world.player_hp()
        run.sim.world.set_player_hp(hp_max, hp_max)
    start_hp, hp_max = run.sim.world.player_hp()
    # Run.start_wave's preparations: R-VM-2, the shop closed (R-CORE-3), the stats (R-STAT-1).
    run.require_can_fire()
    run.shop.close()
    run.binding.apply_stats()
    wave = ArenaWave(run, boss)
    cap = content.balance.wave.boss.stall_after if cap_s is None else min(cap_s, content.balance.wave.boss.stall_after)
    cap_frames = round(cap * run.sim.tick_hz)
    bot = KitingBot()
    while not wave.over and wave.stats.frames < cap_frames:
        bot.control(run.sim)
        drink_when_hurt(run, wave)
        wave.step()
    record = wave.stats.boss
    assert record is not None  # an ArenaWave always has its boss
    return BossResult(
        boss_id=boss.boss_id,
        wave=boss.wave,
        build_id=build_id,
        seed=run.seed,
        ttk_s=None if record.ttk_s is None else round(record.ttk_s, 3),
        phases=tuple(record.phases),
        died=wave.died,
        enraged=record.enraged,
        fell_before=tuple(fell_before),
        start_hp=round(start_hp, 1),
        damage_taken=round(wave.stats.damage_taken, 3),
        hp_max=round(hp_max, 3),
    )


def measure_run(
    content: Content,
    seed: int,
    build: Build | None,
    bosses: Sequence[Boss],
    *,
    cap_s: float | None = None,
    full_hp: bool = False,
) -> list[BossResult]:
    """One approach of `build` on `seed`, then each of `bosses` fought from the save before its wave."""
    played = approach(content, seed, {boss.wave for boss in bosses}, build)
    build_id = build.id if build is not None else None
    return [
        fight(
            content,
            played.saves[boss.wave],
            boss,
            cap_s=cap_s,
            build_id=build_id,
            fell_before=[wave for wave, _ in played.fell if wave < boss.wave],
            full_hp=full_hp,
        )
        for boss in bosses
    ]


def _measure_in_worker(
    data_dir: str, seed: int, build_id: str, boss_ids: list[str], cap_s: float | None, full_hp: bool
) -> list[BossResult]:
    """`measure_run` in a worker process, the content loaded there from `data_dir`."""
    content = load_content(Path(data_dir))
    build = load_builds(content)[build_id]
    chosen = [content.bosses[boss_id] for boss_id in boss_ids]
    return measure_run(content, seed, build, chosen, cap_s=cap_s, full_hp=full_hp)


def measure(
    content: Content,
    builds: Sequence[Build],
    seeds: Sequence[int],
    *,
    bosses: Sequence[Boss] | None = None,
    cap_s: float | None = None,
    jobs: int = 1,
    full_hp: bool = False,
) -> list[BossResult]:
    """Every (boss, archetype, seed) fight, in archetype, seed, boss order. `jobs` > 1 runs the
    (archetype, seed) pairs in that many processes (each loads the content from its data dir)."""
    chosen = list(content.bosses.values()) if bosses is None else list(bosses)
    chosen.sort(key=lambda boss: (boss.wave, boss.boss_id))
    pairs = [(build, seed) for build in builds for seed in seeds]
    if jobs <= 1:
        return [
            result
            for build, seed in pairs
            for result in measure_run(content, seed, build, chosen, cap_s=cap_s, full_hp=full_hp)
        ]
    ids = [boss.boss_id for boss in chosen]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [
            pool.submit(_measure_in_worker, str(content.data_dir), seed, build.id, ids, cap_s, full_hp)
            for build, seed in pairs
        ]
        return [result for future in futures for result in future.result()]


# --- the table -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """One boss against one archetype over the seeds."""

    #: The median TTK over the seeds, a non-kill slower than any kill (None: most seeds did not kill).
    median_ttk_s: float | None
    kills: int
    seeds: int
    died: int
    #: Seeds whose loadout needed the fallback (the bot fell before the boss's wave).
    fell_before: int
    #: R-BOSS-3: the median over the seeds of the HP the fight took, share of max HP.
    median_hp_taken: float | None = None

    @property
    def beatable(self) -> bool:
        """Killed on a majority of the seeds."""
        return 2 * self.kills > self.seeds


@dataclass(frozen=True)
class Check:
    """One of R-BOSS-3's checks on one boss."""

    rule: str
    boss_id: str
    ok: bool
    detail: str


@dataclass
class BossRow:
    boss_id: str
    wave: int
    cells: dict[str, Cell]
    #: The median of the archetypes' medians (a non-kill slower than any kill).
    median_ttk_s: float | None
    #: R-BOSS-3: the median of the archetypes' median HP taken, share of max HP.
    median_hp_taken: float | None = None


@dataclass
class Table:
    seeds: list[int]
    archetypes: list[str]
    rows: list[BossRow]
    checks: list[Check]

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)


def tabulate(
    results: Sequence[BossResult],
    final_wave: int,
    *,
    min_share: float = MIN_SHARE_OF_MEDIAN,
    min_beating: int = MIN_ARCHETYPES_BEATING,
    targets: BossFightTargets | None = None,
    controls: Sequence[str] = (),
) -> Table:
    """The table of `results`, with R-BOSS-3's checks: the bosses of `final_wave` (W20) — no
    archetype's median under `min_share` of the median over archetypes —, and each boss of a wave
    with several bosses (W10) — beatable by at least `min_beating` archetypes; with `targets`
    (fights at full HP), every boss's median TTK against its wave's band and the median HP it
    took against `targets.min_hp_taken` — medians over the archetypes, the `controls` (builds.json's
    `control` builds, such as `hold`) left out, as R-BOSS-3 speaks of the archetype bots."""
    archetypes = list(dict.fromkeys(_name(r.build_id) for r in results))
    seeds = sorted({r.seed for r in results})
    bosses = sorted({(r.wave, r.boss_id) for r in results})
    rows: list[BossRow] = []
    for wave, boss_id in bosses:
        cells: dict[str, Cell] = {}
        for archetype in archetypes:
            mine = [r for r in results if r.boss_id == boss_id and _name(r.build_id) == archetype]
            if not mine:
                continue
            cells[archetype] = Cell(
                median_ttk_s=median_ttk(r.ttk_s for r in mine),
                kills=sum(r.killed for r in mine),
                seeds=len(mine),
                died=sum(r.died for r in mine),
                fell_before=sum(bool(r.fell_before) for r in mine),
                median_hp_taken=median_share(r.hp_taken_share for r in mine),
            )
        rows.append(
            BossRow(
                boss_id,
                wave,
                cells,
                median_ttk(cell.median_ttk_s for cell in cells.values()),
                median_share(cell.median_hp_taken for cell in cells.values()),
            )
        )
    checks: list[Check] = []
    per_wave = {wave: [row for row in rows if row.wave == wave] for wave in {row.wave for row in rows}}
    for row in rows:
        if row.wave == final_wave:
            checks.append(_spread_check(row, min_share))
        if len(per_wave[row.wave]) > 1:
            checks.append(_beatable_check(row, min_beating))
        if targets is not None:
            checks += _band_checks(row, targets, controls)
    return Table(seeds, archetypes, rows, checks)


def _band_checks(row: BossRow, targets: BossFightTargets, controls: Sequence[str]) -> list[Check]:
    """R-BOSS-3's bands on one boss (`sim.boss_targets`): the archetypes' median TTK, the median
    HP it took (the medians of the archetypes' medians, `controls` left out)."""
    cells = [cell for name, cell in row.cells.items() if name not in controls]
    ttk = median_ttk(cell.median_ttk_s for cell in cells)
    taken = median_share(cell.median_hp_taken for cell in cells)
    over = f" over {len(cells)} archetypes" + (f" ({', '.join(controls)} left out)" if controls else "")
    return [
        Check(f"{RULE}: {verdict.asks}", row.boss_id, verdict.ok, verdict.figure + over)
        for verdict in (ttk_verdict(targets, row.wave, ttk), hp_verdict(targets, taken))
    ]


def _name(build_id: str | None) -> str:
    return build_id if build_id is not None else "(no build)"


def _spread_check(row: BossRow, min_share: float) -> Check:
    rule = f"R-BOSS-3: no archetype under {min_share:.3g} of the median TTK"
    if row.median_ttk_s is None:
        return Check(rule, row.boss_id, False, "the median archetype does not kill it within the cap")
    floor = row.median_ttk_s * min_share
    under = [
        f"{name} {cell.median_ttk_s:.1f} s"
        for name, cell in row.cells.items()
        if cell.median_ttk_s is not None and cell.median_ttk_s < floor
    ]
    detail = f"median {row.median_ttk_s:.1f} s, floor {floor:.1f} s"
    return Check(rule, row.boss_id, not under, detail + (f"; under it: {', '.join(under)}" if under else ""))


def _beatable_check(row: BossRow, min_beating: int) -> Check:
    beating = [name for name, cell in row.cells.items() if cell.beatable]
    rule = f"issue 15: beatable (killed on most seeds) by at least {min_beating} archetypes"
    detail = f"{len(beating)} beat it" + (f": {', '.join(beating)}" if beating else "")
    return Check(rule, row.boss_id, len(beating) >= min_beating, detail)


def markdown(table: Table) -> str:
    """The table for a note: a row per archetype, a column per boss — median TTK (kills/seeds) —,
    the medians' row, then the checks."""
    head = [f"{row.boss_id} (W{row.wave})" for row in table.rows]
    lines = [
        f"Seeds {', '.join(map(str, table.seeds))}. Cell: median TTK over the seeds (kills/seeds; "
        "† seeds whose loadout came from the fallback, ✝ bot died in the fight).",
        "",
        "| archetype | " + " | ".join(head) + " |",
        "|---" * (len(head) + 1) + "|",
    ]
    for archetype in table.archetypes:
        cells = [_cell_text(row.cells.get(archetype)) for row in table.rows]
        lines.append(f"| {archetype} | " + " | ".join(cells) + " |")
    lines.append("| **median** | " + " | ".join(_seconds(row.median_ttk_s) for row in table.rows) + " |")
    lines.append("| **median HP taken** | " + " | ".join(_share(row.median_hp_taken) for row in table.rows) + " |")
    lines.append("")
    for check in table.checks:
        lines.append(f"- {'PASS' if check.ok else 'FAIL'} {check.boss_id}: {check.rule} — {check.detail}")
    return "\n".join(lines)


def _seconds(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f} s"


def _share(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def _cell_text(cell: Cell | None) -> str:
    if cell is None:
        return ""
    marks = (f" †{cell.fell_before}" if cell.fell_before else "") + (f" ✝{cell.died}" if cell.died else "")
    return f"{_seconds(cell.median_ttk_s)} ({cell.kills}/{cell.seeds}){marks}"


def as_json(
    table: Table,
    results: Sequence[BossResult],
    cap_s: float,
    full_hp: bool = False,
    targets: BossFightTargets | None = None,
) -> dict[str, Any]:
    """The table, the checks and every fight, JSON-ready (R-BOSS-3's band per boss with `targets`)."""
    return {
        "seeds": table.seeds,
        "archetypes": table.archetypes,
        "cap_s": cap_s,
        "full_hp": full_hp,
        "bosses": [
            {
                "boss_id": row.boss_id,
                "wave": row.wave,
                "median_ttk_s": row.median_ttk_s,
                "archetypes": {name: asdict(cell) for name, cell in row.cells.items()},
                "median_hp_taken": row.median_hp_taken,
                **({"ttk_band_s": _band(targets, row.wave)} if targets is not None else {}),
            }
            for row in table.rows
        ],
        "checks": [asdict(check) for check in table.checks],
        "ok": table.ok,
        "fights": [
            {**asdict(result), "phases": list(result.phases), "fell_before": list(result.fell_before)}
            for result in results
        ],
    }


def _band(targets: BossFightTargets, wave: int) -> list[float] | None:
    band = targets.band(wave)
    return None if band is None else [band.min_s, band.max_s]


# --- the command ---------------------------------------------------------------------------------


def parse_seeds(text: str) -> list[int]:
    """`1-5`, `1,3,7` or a mix (`1-3,9`) as the seeds, in order, each once."""
    seeds: list[int] = []
    for part in text.split(","):
        part = part.strip()
        low, dash, high = part.partition("-")
        try:
            span = range(int(low), int(high) + 1) if dash else range(int(part), int(part) + 1)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not seeds: {text!r} (e.g. 1-5 or 1,3,7)") from None
        if not span:
            raise argparse.ArgumentTypeError(f"an empty seed range: {part!r}")
        seeds.extend(seed for seed in span if seed not in seeds)
    return seeds


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m artificer.sim.boss_arena`: the R-BOSS-3 table; 1 when a check fails, 2 on a
    usage error (argparse's)."""
    parser = argparse.ArgumentParser(
        prog="python -m artificer.sim.boss_arena", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--seeds", type=parse_seeds, default=parse_seeds("1-5"), help="e.g. 1-5 (the default) or 1,3")
    parser.add_argument("--builds", default="all", help="comma-separated builds.json ids, or all (the default)")
    parser.add_argument("--bosses", default="all", help="comma-separated boss ids, or all (the default)")
    parser.add_argument(
        "--cap", type=float, default=None, help="seconds a fight lasts at most (default: wave.boss.stall_after)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes to spread the runs over")
    parser.add_argument(
        "--full-hp", action="store_true", help="each fight starts at max HP (default: the HP the wave before left)"
    )
    parser.add_argument("--json", action="store_true", help="print the table and every fight as JSON")
    parser.add_argument("--data", type=Path, default=None, help="the data directory (default: the shipped one)")
    args = parser.parse_args(argv)
    content = load_content(args.data)
    known = load_builds(content)
    if args.builds == "all":
        builds = list(known.values())
    else:
        unknown = [name for name in args.builds.split(",") if name not in known]
        if unknown:
            parser.error(f"unknown build(s) {', '.join(unknown)}; builds.json has {', '.join(known)}")
        builds = [known[name] for name in args.builds.split(",")]
    if args.bosses == "all":
        bosses = list(content.bosses.values())
    else:
        missing = [name for name in args.bosses.split(",") if name not in content.bosses]
        if missing:
            parser.error(f"unknown boss(es) {', '.join(missing)}; the content has {', '.join(content.bosses)}")
        bosses = [content.bosses[name] for name in args.bosses.split(",")]
    results = measure(content, builds, args.seeds, bosses=bosses, cap_s=args.cap, jobs=args.jobs, full_hp=args.full_hp)
    # R-BOSS-3's bands judge fights at full HP only (the rule's "fought at full HP").
    targets = content.balance.wave.boss.targets if args.full_hp else None
    controls = [build.id for build in builds if build.control]
    table = tabulate(results, len(content.waves), targets=targets, controls=controls)
    cap = (
        content.balance.wave.boss.stall_after
        if args.cap is None
        else min(args.cap, content.balance.wave.boss.stall_after)
    )
    if args.json:
        print(json.dumps(as_json(table, results, cap, args.full_hp, targets), indent=2, ensure_ascii=False))
    else:
        print(markdown(table))
    return 0 if table.ok else 1


if __name__ == "__main__":
    sys.exit(main())
