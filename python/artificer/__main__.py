"""The `artificer` command: play, headless runs, the stress tool, the
content checker.

    artificer [play]               play in a window
    artificer play --start-wave N [--build B] [--seed S]   the bot plays waves 1..N-1, then the window
    artificer run --headless --seed S --waves K [--start-wave N] [--json]
    artificer stress --enemies N --projectiles M --frames F [--layout crowd|uniform] [--json]
    artificer wand --core ID --cards a,b,c [--board FILE.json] [--mana M] [--casts K] [--seconds T] [--json]
    artificer wand --code AW1-... [--mana M] [--casts K] [--seconds T] [--json]
    artificer check-content [--data DIR]
    artificer sim --builds all|a,b --seeds 1-100 [--waves 20] [--endless] [--ng-plus N]
                  [--backend local|ray] [--address ADDR] [--workers N] [--out DIR]

Bad arguments exit 2 with a one-line message (so does a path that is not a regular file where
one is read or written, R-SAVE-2: checked before any long work); Ctrl-C ends quietly with 130,
a closed pipe (`| head`) with 141; JSON outputs are public
contracts (keys are only ever added) and strict JSON (RFC 8259, no NaN or
Infinity): a number that is not finite — the core keeps f32, so a wand's
damage past 3.4e38 is infinity — prints as `null` under its usual key.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from artificer.content import Content
    from artificer.content.builds import Build
    from artificer.ui.play import StartAt

EXIT_USAGE = 2
#: Ctrl-C and a reader that left the pipe: the codes a shell gives a command killed by SIGINT / SIGPIPE.
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141
MAX_SEED = 2**64 - 1


def strict_json(value: Any) -> Any:
    """`value` with every non-finite float (inf, -inf, NaN) replaced by None, so it prints as
    strict JSON; dict keys and everything else unchanged."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: strict_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [strict_json(item) for item in value]
    return value


def dumps_json(value: Any, *, compact: bool = False) -> str:
    """The one way a command prints JSON: strict (`allow_nan=False` after `strict_json`)."""
    separators = (",", ":") if compact else None
    return json.dumps(strict_json(value), separators=separators, allow_nan=False)


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _int_in(low: int, high: int, what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        digits = text.strip().lstrip("+-").lstrip("0")
        if digits.isdigit() and len(digits) > len(str(max(abs(low), abs(high)))):
            raise argparse.ArgumentTypeError(f"{what} must be in {low}..{high}, got a {len(digits)}-digit number")
        try:
            value = int(text, 10)
        except ValueError:
            shown = text if len(text) <= 40 else text[:40] + "…"
            raise argparse.ArgumentTypeError(f"{what} must be an integer, got {shown!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be in {low}..{high}, got {value}")
        return value

    return parse


def build_parser() -> Parser:
    from artificer import __version__

    parser = Parser(prog="artificer", description="Arcane Artificer: the gun is a program.")
    parser.add_argument("--version", action="version", version=f"artificer {__version__}")
    commands = parser.add_subparsers(dest="command", parser_class=Parser)

    play = commands.add_parser("play", help="play the game in a window (the default)")
    play.add_argument(
        "--frames", type=_int_in(1, 10_000_000, "--frames"), default=None, help="close after N frames (smoke tests)"
    )
    play.add_argument(
        "--start-wave",
        type=_int_in(1, 20, "--start-wave"),
        default=None,
        help="developers: the bot plays waves 1..N-1 headlessly, then the run opens at the shop before wave N",
    )
    play.add_argument(
        "--build", default=None, help="with --start-wave: the bot shops toward this archetype of data/builds.json"
    )
    play.add_argument(
        "--seed",
        type=_int_in(0, MAX_SEED, "--seed"),
        default=None,
        help="with --start-wave: the run's seed (default: random)",
    )

    play.add_argument("--replay", type=Path, default=None, metavar="FILE", help="watch a recorded run (see `replay`)")

    run = commands.add_parser("run", help="a seeded run played by the bot")
    run.add_argument("--headless", action="store_true", required=True, help="no window (required for now)")
    run.add_argument("--seed", type=_int_in(0, MAX_SEED, "--seed"), default=0)
    run.add_argument(
        "--waves",
        type=_int_in(1, 1000, "--waves"),
        default=None,
        help="play up to wave K (default 3; with --start-wave N, N; past 20 with --endless, up to 1000)",
    )
    run.add_argument("--endless", action="store_true", help="R-END-3: go on past the last wave, up to --waves")
    run.add_argument(
        "--start-wave",
        type=_int_in(1, 20, "--start-wave"),
        default=1,
        help="begin a fresh run (the starting wand, no gold) at wave N and play N..K",
    )
    run.add_argument("--json", action="store_true", help="print one JSON object")
    run.add_argument("--data", type=Path, default=None, help="content directory (default: the shipped data)")
    run.add_argument("--build", default=None, help="shop between waves toward this archetype of data/builds.json")
    run.add_argument("--timing", action="store_true", help="add wall time and step p50/p99 (varies run to run)")
    run.add_argument(
        "--ng-plus",
        type=_int_in(0, 10, "--ng-plus"),
        default=0,
        help="New Game+ level (R-END-2; at most balance.json ng_plus.max_level)",
    )
    run.add_argument(
        "--cursed",
        action="store_true",
        help="the cursed-waves challenge mode (R-META-1: balance.json meta.cursed_waves)",
    )
    run.add_argument(
        "--meta",
        type=Path,
        default=None,
        metavar="FILE",
        help="carry this meta.json through the run: its unlocks open the shop, the run's aether goes in "
        "and the bot buys unlocks cheapest first (R-META-1; without it everything is unlocked)",
    )

    run.add_argument(
        "--record", type=Path, default=None, metavar="FILE", help="write the run's replay to FILE (see `replay`)"
    )

    replay = commands.add_parser("replay", help="a recorded run: what it holds, or played again and checked")
    replay.add_argument("file", type=Path, help="a .replay file (the game keeps the last 50 in its runs/ folder)")
    replay.add_argument(
        "--check",
        action="store_true",
        help="play it again headlessly and check the state hash wave by wave (exit 1 at the first that differs); "
        "an endless record carrying it is marked verified",
    )
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.add_argument("--data", type=Path, default=None, help="content directory (default: the shipped data)")

    stress = commands.add_parser("stress", help="the standard stress workload (benches/README.md)")
    stress.add_argument("--enemies", type=_int_in(0, 10_000_000, "--enemies"), required=True)
    stress.add_argument("--projectiles", type=_int_in(0, 10_000_000, "--projectiles"), required=True)
    stress.add_argument("--frames", type=_int_in(1, 1_000_000, "--frames"), default=200)
    stress.add_argument("--layout", choices=("uniform", "crowd"), default="crowd")
    stress.add_argument("--seed", type=_int_in(0, MAX_SEED, "--seed"), default=0)
    from artificer import _core

    # the core's own bound (R-SAVE-2's "arguments parsed with the bounds the core enforces")
    stress.add_argument("--threads", type=_int_in(1, _core.MAX_THREADS, "--threads"), default=1)
    stress.add_argument("--render", action="store_true", help="also draw every frame (render_ms, frame_ms)")
    stress.add_argument("--json", action="store_true", help="print one JSON object")

    wand = commands.add_parser("wand", help="compile a wand and fire it in a sandbox")
    wand.add_argument("--core", default=None, help="core id (cores.json); or --code")
    wand.add_argument("--code", default=None, help="a wand code (the lab's Ctrl+C) instead of --core and --cards")
    wand.add_argument("--cards", default="", help="spell ids in slot order, comma-separated (empty = empty slot)")
    wand.add_argument("--board", type=Path, default=None, help="JSON file mapping slot id to spell id")
    wand.add_argument("--mana", type=float, default=None, help="starting mana (default: full)")
    wand.add_argument("--casts", type=_int_in(1, 10_000, "--casts"), default=8)
    wand.add_argument("--seconds", type=float, default=None, help="fire for this long instead of --casts")
    wand.add_argument("--moving", action="store_true", help="the player is moving (gates, R-MOVE-1)")
    wand.add_argument("--json", action="store_true", help="print one JSON object")
    wand.add_argument("--data", type=Path, default=None, help="content directory (default: the shipped data)")

    sim = commands.add_parser("sim", help="a sweep of bot runs over builds and seeds, with a report (R-SIM-1)")
    sim.add_argument(
        "--builds",
        default="all",
        help="a comma list of data/builds.json builds; all: every archetype (a control such as hold only when named: all,hold)",
    )
    sim.add_argument("--seeds", default="1-10", help="seeds as 1-100, 7 or 1-3,10 (default 1-10)")
    sim.add_argument("--waves", type=_int_in(1, 1000, "--waves"), default=20, help="play up to wave K (default 20)")
    sim.add_argument("--endless", action="store_true", help="R-END-3: go on past the last wave, up to --waves")
    sim.add_argument("--ng-plus", type=_int_in(0, 10, "--ng-plus"), default=0, help="New Game+ level (R-END-2)")
    sim.add_argument("--backend", default="local", help="local (worker processes, the default) or ray")
    sim.add_argument("--address", default=None, help="with --backend ray: an existing cluster's address")
    sim.add_argument(
        "--workers", type=_int_in(1, 4096, "--workers"), default=None, help="tasks at once (default: one per core)"
    )
    sim.add_argument("--out", type=Path, default=Path("sweep"), help="where the rows, plots and report go")
    sim.add_argument("--no-plots", action="store_true", help="skip the PNG plots (matplotlib)")
    sim.add_argument("--quiet", action="store_true", help="no progress display")
    sim.add_argument("--data", type=Path, default=None, help="content directory (default: the shipped data)")

    check = commands.add_parser("check-content", help="validate the data files")
    check.add_argument("--data", type=Path, default=None, help="content directory (default: the shipped data)")
    return parser


def _load(data: Path | None) -> Content:
    from artificer.content import ContentError, load_content

    try:
        return load_content(data)
    except ContentError as err:
        for problem in err.problems:
            print(problem, file=sys.stderr)
        raise SystemExit(EXIT_USAGE) from None


def _unwritable(path: Path) -> str | None:
    """Why a file cannot be written at `path` (None: it can), checked before the work that ends by
    writing it: not a regular file (R-SAVE-2), below a file, or in a place that refuses writes."""
    from artificer import storage

    try:
        storage.check_writable(path)
    except OSError as error:
        return str(error)
    return None


class _Refused(Exception):
    """A usage problem, already printed on stderr: the command exits 2."""


def _builds(content: Content, data: Path | None) -> dict[str, Build]:
    """builds.json's archetypes; a broken file prints its problems and is a usage error (exit 2)."""
    from artificer.content import ContentError
    from artificer.content.builds import load_builds

    try:
        return load_builds(content, data)
    except ContentError as err:
        for problem in err.problems:
            print(problem, file=sys.stderr)
        raise _Refused from None


def _waves_refusal(content: Content, waves: int, endless: bool, ng_plus: int) -> str | None:
    """Why a bot run cannot play up to `waves` at NG+ `ng_plus` (None: it can), for `run` and `sim`."""
    last = content.balance.endless.max_wave if endless else len(content.waves)
    if waves > last:
        return f"--waves must be in 1..{last}" + ("" if endless else "; past it: --endless")
    if ng_plus > content.balance.ng_plus.max_level:
        return f"--ng-plus {ng_plus}: the highest level is {content.balance.ng_plus.max_level}"
    return None


def _build(content: Content, name: str | None, data: Path | None, command: str) -> Build | None:
    """The archetype `name` of builds.json (None for none); an unknown one is a usage error (exit 2)."""
    if name is None:
        return None
    from artificer.content.models import did_you_mean

    builds = _builds(content, data)
    if name not in builds:
        known = ", ".join(builds) or "none"
        print(
            f"artificer {command}: unknown build {name!r}{did_you_mean(name, list(builds))} (builds: {known})",
            file=sys.stderr,
        )
        raise _Refused
    return builds[name]


def _meta_refusal(path: Path, ng_plus: int, cursed: bool) -> str | None:
    """Why `run --meta FILE` cannot carry that file through this run (None: it can): not a regular
    file (R-SAVE-2: a directory, FIFO, device or dangling link, left as it is), a place the run's end
    could not write, or a mode the file has not earned (an NG+ level above its highest, cursed
    waves not bought)."""
    from artificer.game.meta import CURSED_WAVES, load_meta

    refusal = _unwritable(path)
    if refusal is not None:
        return refusal
    meta = load_meta(path).meta if path.exists() else None
    unlocked = meta.ng_plus_unlocked if meta is not None else 0
    if ng_plus > unlocked:
        return f"--ng-plus {ng_plus} is not unlocked in it (its highest: {unlocked})"
    if cursed and (meta is None or CURSED_WAVES not in meta.unlocked):
        return "--cursed: the cursed-waves mode is not unlocked in it"
    return None


def cmd_run(args: argparse.Namespace) -> int:
    from artificer.sim.headless import run_headless

    waves = args.waves if args.waves is not None else (args.start_wave if args.start_wave > 1 else 3)
    if waves < args.start_wave:
        print(f"artificer run: error: --waves {waves} is before --start-wave {args.start_wave}", file=sys.stderr)
        return EXIT_USAGE
    content = _load(args.data)
    refusal = _waves_refusal(content, waves, args.endless, args.ng_plus)
    if refusal is not None:
        print(f"artificer run: error: {refusal}", file=sys.stderr)
        return EXIT_USAGE
    build = _build(content, args.build, args.data, "run")
    if args.meta is not None and args.start_wave > 1:
        print("artificer run: error: --meta: only a run from wave 1 earns progress (R-END-5)", file=sys.stderr)
        return EXIT_USAGE
    if args.meta is not None:
        refusal = _meta_refusal(args.meta, args.ng_plus, args.cursed)
        if refusal is not None:
            print(f"artificer run: error: --meta: {refusal}", file=sys.stderr)
            return EXIT_USAGE
    if args.record is not None:  # before the run, so a bad place never costs the run (R-SAVE-2)
        refusal = _unwritable(args.record)
        if refusal is not None:
            print(f"artificer run: error: --record: {refusal}", file=sys.stderr)
            return EXIT_USAGE
    report = run_headless(
        content,
        args.seed,
        waves,
        build=build,
        timing=args.timing,
        start_wave=args.start_wave,
        ng_plus=args.ng_plus,
        meta=args.meta,
        cursed=args.cursed,
        endless=args.endless,
        record=args.record,
    )
    if args.json:
        print(dumps_json(report, compact=True))
    else:
        for w in report["waves"]:
            print(
                f"wave {w['wave']:2}: {w['kills']:4} kills, {w['damage_dealt']:8.1f} dealt, "
                f"{w['damage_taken']:6.1f} taken, max {w['max_alive']:4} alive, {w['currency']:4} gold"
            )
        r = report["result"]
        print(f"{r['outcome']} at wave {r['wave_reached']} (state {r['state_hash']})")
        if "meta" in report:
            m = report["meta"]
            bought = ", ".join(m["bought"]) or "nothing"
            print(f"aether +{m['aether_earned']} (held {m['aether']}), bought {bought}; run {m['runs']} in {m['file']}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from artificer.game.records import records_path
    from artificer.game.replay import ReplayError, read_tape
    from artificer.sim.replays import check, describe

    content = _load(args.data)
    try:
        tape = read_tape(args.file, content)
        report = check(content, tape, records_path()) if args.check else describe(tape)
    except ReplayError as error:
        print(f"artificer replay: {args.file.name}: {error}", file=sys.stderr)
        return EXIT_USAGE
    if args.json:
        print(dumps_json(report, compact=True))
    else:
        print(report["summary"])
        for line in report.get("lines", []):
            print(line)
    # A replay that verifies while its record's claim is refused is a failed check too.
    return 1 if args.check and (not report["verified"] or report["claim_refused"]) else 0


def cmd_sim(args: argparse.Namespace) -> int:
    from artificer.sim.progress import SweepProgress
    from artificer.sim.sweep import (
        SweepError,
        Task,
        default_workers,
        make_backend,
        parse_builds,
        parse_seeds,
        run_sweep,
    )
    from artificer.sim.sweep_report import write_outputs

    content = _load(args.data)
    refusal = _waves_refusal(content, args.waves, args.endless, args.ng_plus)
    if refusal is None:  # before the sweep, so a bad place never costs the runs (R-SAVE-2)
        from artificer import storage

        try:
            storage.check_writable_directory(args.out)
        except OSError as error:
            refusal = f"--out: {error}"
    if refusal is not None:
        print(f"artificer sim: error: {refusal}", file=sys.stderr)
        return EXIT_USAGE
    every = _builds(content, args.data)
    known = list(every)
    data = str(args.data.resolve()) if args.data is not None else None
    try:
        controls = [name for name, build in every.items() if build.control]
        builds = parse_builds(args.builds, known, controls)
        seeds = parse_seeds(args.seeds)
        tasks = [Task(b, s, args.waves, args.endless, args.ng_plus, data) for b in builds for s in seeds]
        workers = args.workers or default_workers()
        backend = make_backend(args.backend, workers, args.address)
    except SweepError as err:
        print(f"artificer sim: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    import time

    started = time.perf_counter()
    progress = SweepProgress(tasks, builds, enabled=not args.quiet)
    interrupted = False
    try:
        with progress:
            result = run_sweep(tasks, backend, progress.done, controls)
    except SweepError as err:
        print(f"artificer sim: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        backend.shutdown(now=interrupted)
    wall = time.perf_counter() - started
    wave = content.balance.wave
    written = write_outputs(
        args.out, result, plots=not args.no_plots, targets=wave.boss.targets, press=wave.first_wave_press
    )
    timing = {
        "backend": backend.name,
        "workers": workers,
        "tasks": len(tasks),
        "wall_s": round(wall, 3),
        "by_build": result.seconds_by_build(),
    }
    (args.out / "timing.json").write_text(dumps_json(timing) + "\n", encoding="utf-8")
    if not args.quiet:
        print(
            f"{len(tasks)} runs in {wall:.1f} s on {backend.name} ({workers} workers): "
            + ", ".join(p.name for p in written)
            + f", timing.json in {args.out}"
        )
    return 0


def cmd_stress(args: argparse.Namespace) -> int:
    if args.render:
        from artificer.ui.bench import run_render_stress

        report = run_render_stress(args.enemies, args.projectiles, args.frames, args.layout, args.seed, args.threads)
    else:
        from artificer.sim.stress import run_stress

        report = run_stress(args.enemies, args.projectiles, args.frames, args.layout, args.seed, args.threads)
    if args.json:
        print(dumps_json(report))
    else:
        ms = report["step_ms"]
        line = (
            f"{args.enemies} enemies / {args.projectiles} projectiles ({args.layout}, {args.threads} thread(s)): "
            f"step median {ms['median']:.3f} ms, p90 {ms['p90']:.3f}, p99 {ms['p99']:.3f}"
        )
        if "render_ms" in report:
            line += f"; render median {report['render_ms']['median']:.3f} ms; frame median {report['frame_ms']['median']:.3f} ms"
        else:
            line += f"; {report['hits_per_frame']:.0f} hits/frame"
        print(line)
    return 0


def cmd_wand(args: argparse.Namespace) -> int:
    from artificer.content.wand_code import WandCodeError, decode, encode
    from artificer.sim.wand import describe, fire_wand

    content = _load(args.data)
    ids = {spell.id for spell in content.spells}
    cards: list[str | None] | dict[str, str]
    if (args.code is None) == (args.core is None):
        return _usage("give a wand with --core (and --cards or --board) or with --code, not both")
    if args.code is not None:
        if args.cards or args.board is not None:
            return _usage("--code already names the cards: leave out --cards and --board")
        try:
            board = decode(content, args.code)
        except WandCodeError as err:
            return _usage(f"--code: {err}")
        args.core, cards = board.core, list(board.cards)
    elif args.board is not None:
        from artificer import storage

        try:  # a regular file only (a FIFO never hangs), bounded, strict JSON, bounded depth
            cards = storage.parse_json_bytes(storage.read_bytes(args.board, storage.MAX_FILE_BYTES))
        except FileNotFoundError:
            return _usage(f"--board {args.board}: no such file")
        except OSError as err:
            return _usage(
                f"--board: {err}" if isinstance(err, storage.NotAFileError) else f"--board {args.board}: {err}"
            )
        except ValueError as err:
            return _usage(f"--board {args.board}: {err}")
        if not isinstance(cards, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in cards.items()):
            return _usage(f"--board {args.board}: expected a JSON object of slot id to spell id")
    else:
        cards = [c.strip() or None for c in args.cards.split(",")] if args.cards else []
    named = cards.values() if isinstance(cards, dict) else cards
    unknown = [c for c in named if c is not None and c not in ids]
    if unknown:
        return _usage(f"unknown spell {', '.join(map(repr, unknown))}")
    if args.core not in {core.id for core in content.cores}:
        return _usage(f"unknown core {args.core!r} (cores: {', '.join(c.id for c in content.cores)})")
    if args.mana is not None and not args.mana >= 0:
        return _usage(f"--mana must be ≥ 0, got {args.mana}")
    if args.seconds is not None and not 0 < args.seconds <= 3600:
        return _usage(f"--seconds must be in (0, 3600], got {args.seconds}")
    try:
        report = fire_wand(content, args.core, cards, args.mana, args.casts, args.seconds, args.moving)
    except ValueError as err:
        return _usage(str(err))
    if isinstance(cards, list) and len(cards) <= content.core(args.core).capacity:
        report["code"] = encode(content, args.core, cards)  # the board as a wand code (added key)
    print(dumps_json(report) if args.json else describe(report))
    return 0


def _usage(message: str) -> int:
    print(f"artificer wand: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def cmd_check_content(args: argparse.Namespace) -> int:
    from artificer.content.check import run

    return run(args.data)


def _start_at(args: argparse.Namespace) -> StartAt | None:
    """`play --start-wave N [--build B] [--seed S]`: the bot plays waves 1..N-1 as `run --headless
    --build B` does (`BotFell` if it dies on the way); None without --start-wave."""
    start_wave = getattr(args, "start_wave", None)
    if start_wave is None:
        for flag, value in (("--build", getattr(args, "build", None)), ("--seed", getattr(args, "seed", None))):
            if value is not None:
                print(f"artificer play: error: {flag} needs --start-wave", file=sys.stderr)
                raise _Refused
        return None
    import secrets

    from artificer.sim.headless import run_until
    from artificer.ui.play import StartAt

    content = _load(None)
    build = _build(content, args.build, None, "play")
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    played = run_until(content, seed, start_wave, build)
    bought = sum(len(report.get("purchases", [])) for report in played.reports)
    before = (
        f"the bot played waves 1..{start_wave - 1} ({bought} purchases, {played.run.currency} gold left)"
        if start_wave > 1
        else "nothing to play"
    )
    print(
        f"artificer play: seed {seed}, {'build ' + build.id if build else 'no build'}: {before}; opening before wave {start_wave}",
        file=sys.stderr,
    )
    return StartAt(played.run, start_wave)


def cmd_play(args: argparse.Namespace) -> int:
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from artificer.sim.headless import BotFell

    replay_file = getattr(args, "replay", None)
    if replay_file is not None:
        return _watch(replay_file, args)
    try:
        start = _start_at(args)
    except BotFell as err:
        print(f"artificer play: {err}", file=sys.stderr)
        return 1
    import pygame

    from artificer.ui.app import NoDisplay
    from artificer.ui.play import play

    try:
        play(getattr(args, "frames", None), start)
    except NoDisplay as err:
        print(f"artificer: cannot open the game window: {err}; try `artificer run --headless`", file=sys.stderr)
        return EXIT_USAGE
    except pygame.error as err:
        print(f"artificer: cannot open the game window ({err}); try `artificer run --headless`", file=sys.stderr)
        return 1
    return 0


def _watch(path: Path, args: argparse.Namespace) -> int:
    """`play --replay FILE`: the window watches the recorded run; a file that cannot be watched
    (unreadable, damaged, other content or version) is one line and exit 2."""
    import pygame

    from artificer.game.replay import ReplayError, check_header, read_tape
    from artificer.ui.play import Watch, play

    if getattr(args, "start_wave", None) is not None:
        print("artificer play: error: --replay and --start-wave are two different starts", file=sys.stderr)
        return EXIT_USAGE
    content = _load(None)
    try:
        tape = read_tape(path, content)
        check_header(content, tape)
    except ReplayError as error:
        print(f"artificer play: {path.name}: {error}", file=sys.stderr)
        return EXIT_USAGE
    from artificer.ui.app import NoDisplay

    try:
        play(getattr(args, "frames", None), Watch(tape))
    except NoDisplay as err:
        print(f"artificer: cannot open the game window: {err}", file=sys.stderr)
        return EXIT_USAGE
    except pygame.error as err:
        print(f"artificer: cannot open the game window ({err})", file=sys.stderr)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)  # imports the core: Ctrl-C here ends quietly too
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    handlers = {
        None: cmd_play,
        "play": cmd_play,
        "run": cmd_run,
        "stress": cmd_stress,
        "sim": cmd_sim,
        "replay": cmd_replay,
        "check-content": cmd_check_content,
        "wand": cmd_wand,
    }
    try:
        code = handlers[args.command](args)
        sys.stdout.flush()  # here, so that a reader gone from the pipe is caught below
        return code
    except _Refused:
        return EXIT_USAGE
    except KeyboardInterrupt:  # Ctrl-C: ends quietly, as a shell's commands do
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `artificer wand --json | head`: the reader left; so do we, quietly
        _silence_stdout()
        return EXIT_BROKEN_PIPE


def _silence_stdout() -> None:
    """After a broken pipe: stdout goes nowhere, so the interpreter's last flush raises nothing."""
    import os

    try:
        sys.stdout.flush()
    except OSError:
        pass
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, sys.stdout.fileno())
    os.close(null)


if __name__ == "__main__":
    sys.exit(main())
