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

`start_wave=N` (`run --headless --start-wave N`) begins a fresh run at wave N — the starting
wand, no gold, nothing bought — and plays waves N..K: one wave of the schedule run to its end on
its own (the content fuzz test runs mutated waves this way, tests/content/test_content_fuzz.py).

`run_until(content, seed, wave, build)` is the same play stopped before wave
`wave` (`artificer play --start-wave N`): waves 1..N-1 played, settled and
shopped after each, so the run the window gets is the run `run --headless
--waves N` starts wave N with.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from artificer.content import Content
from artificer.content.builds import Build
from artificer.errors import ArtificerError
from artificer.game.flow import Ending, Phase, RunFlow
from artificer.game.meta import load_meta, meta_lock, unlock_tree, write_meta
from artificer.game.offer_effect import WandBonus, wand_dps
from artificer.game.progress import RunEnd, settle
from artificer.game.replay import Tape
from artificer.game.run import Run
from artificer.sim.bot import KitingBot, drink_share, drink_when_hurt
from artificer.sim.shopper import ShoppingBot
from artificer.sim.stress import latency_summary


class BotFell(ArtificerError):
    """The bot died before the wave a run was to be handed over at."""


@dataclass
class BotRun:
    """Waves played by the bot: the run as they left it (and its loop, `flow`: in the shop when the
    run goes on), each wave's report, and the step times."""

    run: Run
    flow: RunFlow
    reports: list[dict[str, Any]] = field(default_factory=list)
    outcome: str = "survived"
    #: Each step's wall time (ns), and the index in it where each wave's steps begin.
    step_ns: list[int] = field(default_factory=list)
    wave_starts: list[int] = field(default_factory=list)
    #: The run's replay (`play_waves(record=True)`), else None.
    tape: Tape | None = None


def play_waves(
    content: Content,
    seed: int,
    waves: int,
    build: Build | None = None,
    *,
    shop_after_last: bool = False,
    start_wave: int = 1,
    ng_plus: int = 0,
    unlocked: Iterable[str] | None = None,
    cursed: bool = False,
    endless: bool = False,
    record: bool = False,
    frame_by_frame: bool = False,
) -> BotRun:
    """The bot plays waves `start_wave`..`waves` (fewer if it dies) of a fresh run through the
    game's own loop (`RunFlow`, as the window drives it): between waves the run settles as the
    game's save does, so a simulated run plays what a played one would, and, with a build, the
    shopping bot shops. `shop_after_last`: also after the last wave (the run then stands in the
    shop before wave `waves + 1`). `unlocked`: what the shop may offer beyond the base pool
    (R-META-1; None: the whole unlock tree); `cursed`: the cursed-waves mode.

    Between the frames the game must see, the core runs the bot's frames itself
    (`RunFlow.step_bot`, issue 44: the same run, byte for byte); `frame_by_frame` (and `record`:
    a replay keeps every frame's controls) steps each frame from Python, each step timed."""
    run = Run(content, seed, ng_plus=ng_plus, unlocked=unlocked, cursed=cursed)
    run.state.endless = endless  # R-END-3: on past the last wave, up to `waves`
    if start_wave > 1:  # a fresh run begun at a later wave is a practice run (R-END-5): it saves as one
        run.state.practice, run.state.first_wave = True, start_wave
    flow = RunFlow(run, first_wave=start_wave)
    played = BotRun(run, flow)
    if record:  # the replay (artificer.game.replay): the bot's moves and steps, as a player's
        played.tape = Tape.begin(run, start_wave, "lab")
    bot = KitingBot()
    shopper = ShoppingBot(build) if build is not None else None
    for number in range(start_wave, waves + 1):
        wave = flow.begin_wave() if flow.phase is Phase.LAB else flow.leave_shop()
        played.wave_starts.append(len(played.step_ns))
        # R-CURVE-1/2/3: the wand the bot left the shop with (the lab's figure, its stats and
        # relics counted), the HP it begins with, the gold it holds.
        begun = {
            "wand_dps": round(wand_dps(run), 3),
            "hp_max": round(run.sim.world.player_hp()[1], 3),
            "gold_start": run.currency,
        }
        while not wave.over:
            bot.control(run.sim)
            if drink_when_hurt(run, wave) or frame_by_frame or record:
                t0 = time.perf_counter_ns()
                flow.step()
                played.step_ns.append(time.perf_counter_ns() - t0)
            else:
                flow.step_bot(bot.tuning, drink_share(run))
        report = flow.end_wave().as_json() | begun | {"gold_end": run.currency}
        played.reports.append(report)
        if flow.ending is Ending.DIED:
            played.outcome = "died"
            break
        if flow.ending is Ending.STALLED:
            played.outcome = "stalled"
            break
        if flow.ending is Ending.CLEARED:
            # R-END-2: the last wave's boss fell: the game is cleared.
            played.outcome = "cleared"
        if flow.phase is Phase.CLEARED and (number < waves or shop_after_last):
            # Unsettled in, as leaving settles (issue 44); but the shop a run is handed on in
            # (`run_until`: `play --start-wave`) is the one a save would hold, settled.
            flow.open_shop(settled=frame_by_frame or record or number == waves)
            if shopper is not None:
                report["gold_wanted"] = shopper.wanted(run)
                report["purchases"] = shopper.shop(run, number)
                # R-CURVE: a card the bot bought this visit that its wand does not fire (0: all fire).
                report["purchases_idle"] = idle_cards(run, report["purchases"])
            report["gold_after_shop"] = run.currency
    return played


def idle_cards(run: Run, purchases: list[str]) -> list[str]:
    """The cards among `purchases` (`"spells:<id>"`) that `run`'s active wand does not fire: not on
    its board, or on it but passed over for mana in every cast of the lab's timeline that draws it
    (R-VM-3c's unpaid cards). A card a summon casts (its program: the cards after it) fires
    through the summon, so it is not idle though no cast of the wand's own lists it."""
    core_id, cards = run.loadout.wand()
    timeline = WandBonus.of(run).timeline(run.content, core_id, cards)
    fired = {card for cast in timeline["casts"] for card in cast["cards"]}
    unpaid = {card for cast in timeline["casts"] for card in cast["unpaid_cards"]} - fired
    board = {card for card in cards if card is not None}
    bought = [item.removeprefix("spells:") for item in purchases if item.startswith("spells:")]
    return [card for card in bought if card not in board or card in unpaid]


def wave_one_still(content: Content, seed: int) -> dict[str, Any]:
    """R-CURVE-3 (R-WAVE-1's wave-1 figures): a fresh run of `seed` plays wave 1 with the starter
    wand, the player standing still, for balance.json `wave.first_wave_press.hit_within_s` seconds
    (or until hit, past its `alive_at_s`). Returns `alive_10s` (enemies alive at that second),
    `spawned_10s` (spawned by then) and `hit_s` (the second of the first hit; None when none came in time)."""
    run = Run(content, seed)
    flow = RunFlow(run)
    wave = flow.begin_wave()
    hz = run.sim.tick_hz
    press = content.balance.wave.first_wave_press
    at, last = round(press.alive_at_s * hz), round(press.hit_within_s * hz)
    alive = spawned = 0
    hit: float | None = None
    while not wave.over and wave.stats.frames < last:
        flow.step()  # no controls: the player stands; the wand fires at the nearest enemy
        frames = wave.stats.frames
        if frames == at:
            alive, spawned = wave.alive, wave.stats.spawned
        if hit is None and wave.stats.damage_taken > 0:
            hit = round(frames / hz, 3)
        if hit is not None and frames >= at:
            break
    return {"alive_10s": alive, "spawned_10s": spawned, "hit_s": hit}


def run_until(content: Content, seed: int, wave: int, build: Build | None = None) -> BotRun:
    """The run as the bot leaves it before wave `wave`: waves 1..`wave`-1 played, settled and
    (with a build) shopped after each. Raises `BotFell` if the bot dies on the way."""
    played = play_waves(content, seed, wave - 1, build, shop_after_last=True)
    if played.outcome == "died":
        build_name = f"build {build.id}" if build is not None else "no build"
        raise BotFell(
            f"the bot fell in wave {len(played.reports)} on seed {seed} ({build_name}) before reaching wave {wave}; "
            "try another --seed or --build"
        )
    return played


def run_headless(
    content: Content,
    seed: int,
    waves: int,
    build: Build | None = None,
    timing: bool = False,
    start_wave: int = 1,
    ng_plus: int = 0,
    meta: Path | None = None,
    cursed: bool = False,
    endless: bool = False,
    record: Path | None = None,
) -> dict[str, Any]:
    """One seeded run played by the bot, as the `run` command's JSON. `record`: its replay is
    written there (`artificer replay FILE --check` plays it again). `meta`: a meta.json carried
    through the run (R-META-1): its unlocks open the shop, and the run's aether, milestones and
    clear go into it, the bot then buying the unlock tree cheapest first (it saves up for the next
    node rather than skipping it); the report gains `meta`."""
    started = time.perf_counter()
    # R-SAVE-2: ids the content no longer has are dropped (their aether given back), with a notice.
    progress = load_meta(meta, content) if meta is not None else None
    if progress is not None and progress.notice:
        print(f"artificer run: {progress.notice}", file=sys.stderr)
    unlocked = progress.meta.shop_unlocks() if progress is not None else None
    played = play_waves(
        content,
        seed,
        waves,
        build,
        start_wave=start_wave,
        ng_plus=ng_plus,
        unlocked=unlocked,
        cursed=cursed,
        endless=endless,
        record=record is not None,
        frame_by_frame=timing,  # the step's latency is each frame's
    )
    if record is not None and played.tape is not None:
        played.tape.path = record
        played.tape.write()
    run, reports, step_ns, wave_starts = played.run, played.reports, played.step_ns, played.wave_starts
    out: dict[str, Any] = {
        "seed": seed,
        "waves": reports,
        "result": {
            "wave_reached": run.waves[-1].wave if run.waves else start_wave - 1,
            "outcome": played.outcome,
            "state_hash": f"{run.sim.state_hash():016x}",
            "currency": run.currency,
            "frames": run.sim.world.frame,
        },
    }
    if ng_plus > 0:
        out["result"]["ng_plus"] = ng_plus  # R-END-2 (absent at 0: the game as it ships)
    if cursed:
        out["result"]["cursed"] = True  # R-META-1's challenge mode (absent: the game as it ships)
    if endless:
        out["result"]["endless"] = True  # R-END-3 (absent: the 20 waves as they ship)
    if meta is not None:
        kills = sum(report["kills"] for report in reports)
        out["meta"] = settle_meta(content, out["result"], ng_plus, kills, meta, run.state.boss_rushes_cleared())
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


def settle_meta(
    content: Content,
    result: Mapping[str, Any],
    ng_plus: int,
    kills: int,
    path: Path,
    boss_rushes: tuple[int, ...] = (),
) -> dict[str, Any]:
    """R-META-1 for a headless run: the run's end settled into the meta file at `path` as the window
    settles it (`game.progress.settle`: the clear, the aether, the achievements), then the unlock tree
    bought cheapest first as far as the aether goes, read and written in one go under `meta_lock` (the
    file as it is now, not as the run began: runs sharing a file, one after the other or at once, add
    up); the report (`written`: false when the file could not be written)."""
    end = RunEnd(result["wave_reached"], result["outcome"] == "cleared", ng_plus, kills, boss_rushes)
    with meta_lock(path):
        found = load_meta(path, content)
        settled = settle(content, found.meta, end)
        meta = settled.meta
        bought: list[str] = []
        for node in unlock_tree(content):
            if node.id in meta.unlocked:
                continue
            if not meta.can_buy(node):
                break  # saves up for the next node
            meta = meta.buy(node)
            bought.append(node.id)
        written = write_meta(meta, found, path)
    if not written:
        print(
            f"artificer run: {path} could not be written (see the log); the progress above is not kept", file=sys.stderr
        )
    tree = unlock_tree(content)
    return {
        "file": str(path),
        "aether_earned": settled.reward.total,
        "rewards": [{"kind": line.kind, "wave": line.wave, "aether": line.amount} for line in settled.reward.lines],
        "aether": meta.aether,
        "bought": bought,
        "unlocked": sorted(meta.unlocked),
        "all_unlocked": all(node.id in meta.unlocked for node in tree),
        "runs": meta.runs,
        "written": written,
    }
