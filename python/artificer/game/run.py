"""A run of waves (R-LOOP-1) on one `Simulation`, driven by a controller
(a bot in the simulator, the player's input in the UI).

`Run` puts together what the run owns (`artificer.game.state.RunState`: the
loadout, gold, stats and talents bought, relics, the potion belt, the waves
played — no world), its world (`Simulation`), the shop (`Shop(state)`) and the
one place that pushes the state into the world (`WorldBinding`): every change
of the state is marked, and `sync()` after it tells the world (the shop calls
it after each change; the lab calls `rearm()`). Its attributes are the state's,
so the window reads `run.loadout`, `run.currency`, `run.relics`… as before.

A wave (`WaveInProgress`) runs its hooks: the relics' at its start, on its
kills and at its end (R-REL-1; an elite wave awards one, R-REL-3), the potion
belt's (R-POT-1/2: a won wave rolls its drop, the wave's potion strength ends
in `finish`). Last Will (R-END-1) is armed in the core's world when bought;
re-arming the wand or re-applying the stats never touches it, so a spent Last
Will stays spent.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from artificer import _core
from artificer.content import Content
from artificer.content.models import Talent
from artificer.content.roster import kind_index, roster
from artificer.engine import EventKind, Simulation
from artificer.engine import events as ev
from artificer.errors import ArtificerError
from artificer.game import draws
from artificer.game.binding import WorldBinding
from artificer.game.bosses import BossFight, boss_point, pick_boss
from artificer.game.draws import Key
from artificer.game.endless import rush_bosses, wave_for
from artificer.game.journal import Recorder, journaled
from artificer.game.loadout import Loadout
from artificer.game.meta import everything_unlocked
from artificer.game.potions import PotionBelt, PotionDrop
from artificer.game.relics import RunRelics, wave_relic_count
from artificer.game.shop import Shop
from artificer.game.state import Change, RunState
from artificer.game.stats import WandStats, WaveStats
from artificer.game.waves import WaveDirector

__all__ = [
    "EMPTY_FROM_S",
    "EMPTY_GRACE_S",
    "Controller",
    "Run",
    "WandCannotFire",
    "WaveInProgress",
    "WaveStats",  # the window's and tests' name for it; it lives in game/stats.py
]

#: R-FEEL-1: "the arena is never empty for more than 3 s once a wave is 2 s old".
EMPTY_FROM_S = 2.0
EMPTY_GRACE_S = 3.0
#: `step_bot`'s frame limit when nothing the game must see is due (a boss fight ends on an event).
UNBOUNDED = 1 << 40


class WandCannotFire(ArtificerError):
    """R-VM-2: a wave cannot start with a wand whose main entry has no action."""


class Controller(Protocol):
    """Decides this tick's controls from what the last frame showed."""

    def control(self, sim: Simulation) -> None: ...


class Run:
    """Waves 1..n; the player's HP carries over, the loadout is the wand."""

    def __init__(
        self,
        content: Content,
        seed: int,
        state: RunState | None = None,
        ng_plus: int = 0,
        unlocked: Iterable[str] | None = None,
        cursed: bool = False,
        onboarding: int = 0,
        shop: Mapping[str, Any] | None = None,
    ) -> None:
        """A new run of `seed` at NG+ level `ng_plus` (or the run `state` describes: a save's), its
        world built and armed. `unlocked`: the aether unlocks its shop may offer (R-META-1; None:
        the whole unlock tree, as a headless run without a meta file has it). `cursed`: R-META-1's
        cursed waves (a new run's; a save's state says its own); `onboarding`: R-ONB-1's step (0: none);
        `shop`: a save's shop (`Shop.to_save`), taken back before the wand is armed (R-STAT-1: the
        luck bought goes back to the shop with the stats)."""
        self.state = state if state is not None else RunState.new(content, seed, ng_plus, cursed=cursed)
        if state is None:
            self.state.onboarding = onboarding
        # hit_events: the frame's biggest hits come back as events (damage numbers, the biggest hit).
        state_ = self.state
        sim = Simulation(
            content,
            state_.seed,
            rules={"hit_events": True},
            mode=state_.world_mode(),
        )
        #: R-SHOP-1: the shop between waves (offers, locks, rerolls, prices paid).
        pool = everything_unlocked(content) if unlocked is None else unlocked
        self.shop = Shop(self.state, pool, world=lambda: self.sim.world, on_change=self.sync)
        if shop is not None:
            self.shop.restore(shop)
        self.binding = WorldBinding(self.state, sim, self.shop)
        #: The replay recording this run (`artificer.game.replay.Tape.attach`; None: not recorded).
        self.tape: Recorder | None = None
        self.rearm()

    # --- the state, as the window reads it ----------------------------------------------------

    @property
    def content(self) -> Content:
        return self.state.content

    @property
    def seed(self) -> int:
        return self.state.seed

    @property
    def currency(self) -> int:
        return self.state.currency

    @currency.setter
    def currency(self, value: int) -> None:
        self.state.currency = value

    @property
    def loadout(self) -> Loadout:
        return self.state.loadout

    @loadout.setter
    def loadout(self, value: Loadout) -> None:
        self.state.loadout = value
        if self.tape is not None:
            self.tape.attach(self)

    @property
    def wand_stats(self) -> WandStats:
        return self.state.wand_stats

    @wand_stats.setter
    def wand_stats(self, value: WandStats) -> None:
        self.state.wand_stats = value

    @property
    def talents(self) -> set[Talent]:
        return self.state.talents

    @talents.setter
    def talents(self, value: set[Talent]) -> None:
        self.state.talents = value

    @property
    def relics(self) -> RunRelics:
        return self.state.relics

    @relics.setter
    def relics(self, value: RunRelics) -> None:
        self.state.relics = value

    @property
    def potions(self) -> PotionBelt:
        return self.state.potions

    @property
    def waves(self) -> list[WaveStats]:
        return self.state.waves

    @waves.setter
    def waves(self, value: list[WaveStats]) -> None:
        self.state.waves = value

    # --- the world ----------------------------------------------------------------------------

    @property
    def sim(self) -> Simulation:
        return self.binding.sim

    @sim.setter
    def sim(self, value: Simulation) -> None:
        self.binding.sim = value

    @property
    def diagnostics(self) -> dict[str, Any]:
        """The armed wand's diagnostics (R-VM-2: `can_fire`)."""
        return self.binding.diagnostics

    @diagnostics.setter
    def diagnostics(self, value: dict[str, Any]) -> None:
        self.binding.diagnostics = value

    def sync(self) -> None:
        """Tells the world what the state marked since the last sync (`WorldBinding.sync`)."""
        self.binding.sync()

    def gain_talent(self, talent: Talent) -> None:
        """The run owns `talent` from now on and it takes effect: Last Will (R-END-1) is armed in
        the core's world until a lethal hit spends it."""
        self.state.gain_talent(talent)
        self.sync()

    def apply_stats(self) -> None:
        """Hands the core the stats bought with the relics' passive bonuses on top (R-STAT-1,
        R-REL-1), and the relics' rules of the core."""
        self.binding.apply_stats()

    def gain_relic(self, relic_id: str) -> None:
        """R-REL-1: the run owns `relic_id` from now on and its passive effect applies at once
        (more max HP heals as much; the core's rules change)."""
        self.state.gain_relic(relic_id)
        self.sync()

    def award_relic(self, *purpose: Key) -> str | None:
        """R-REL-3: `RunState.award_relic`, its effect applied at once; the relic's id, or None
        when currency was given instead."""
        relic_id = self.state.award_relic(*purpose)
        self.sync()
        return relic_id

    @journaled("run")
    def rearm(self) -> dict[str, Any]:
        """Arms the loadout's active core with its cards (the lab calls it after each edit);
        returns the diagnostics."""
        self.state.mark(Change.WAND)
        self.sync()
        return self.diagnostics

    def arm(self, core_id: str, cards: list[str | None]) -> dict[str, Any]:
        """Puts a wand together (the lab); returns its diagnostics. The stats go
        to the world first: the CPU stat raises the compile-time CPU limit too
        (R-STAT-1), so the wand compiles with it."""
        return self.binding.arm(core_id, cards)

    def start_wave(self, number: int) -> WaveInProgress:
        """Begins wave `number`; the caller steps it frame by frame (the
        arena scene) or `play_wave` runs it to the end (the simulator)."""
        self.require_can_fire()
        self.shop.close()  # R-CORE-3: the active core is switched only in the shop
        self.binding.apply_stats()  # R-STAT-1: the stats again at every wave start
        return WaveInProgress(self, number)

    def require_can_fire(self) -> None:
        """R-VM-2: `WandCannotFire` for an armed wand whose main entry has no action (the lab
        blocks "Start wave" for it)."""
        if not self.diagnostics["can_fire"]:
            raise WandCannotFire("The wand cannot fire! It needs at least one action spell.")

    def play_wave(self, number: int, controller: Controller) -> WaveStats:
        wave = self.start_wave(number)
        while not wave.over:
            controller.control(self.sim)
            wave.step()
        return wave.finish()


class WaveInProgress:
    """One wave, one `step()` per tick (R-WAVE-1, R-LOOP-1)."""

    def __init__(self, run: Run, number: int) -> None:
        self.run = run
        self.wave = wave_for(run.content, number)  # R-END-3: past the last wave, an endless one
        self.director = WaveDirector(run.content, self.wave, run.seed, run.state.cursed, run.sim.arena)
        self.stats = WaveStats(wave=number)
        self.frames = round(self.wave.duration * run.sim.tick_hz)
        self.died = False
        #: R-WAVE-1, R-BOSS-2: the boss that ends this wave (None: the timer ends it), its kind in
        #: the core, the frame it came, and whether it fell; the fight is `stats.boss`.
        self.boss = pick_boss(run.content, self.wave, run.seed)
        #: R-END-3: a boss rush's bosses after `boss`, each coming `boss_rush.gap` s after the last fell.
        rush = rush_bosses(run.content, run.state.bosses_met(), run.seed, number)
        self.boss, self.rush_left = (rush[0], rush[1:]) if rush else (self.boss, [])
        #: The boss's kind in the core (-1: no boss).
        self.boss_kind = kind_index(run.content, self.boss.boss_id) if self.boss is not None else -1
        self._boss_came: int | None = None
        #: The frame the next boss of a rush comes (None: none is waiting).
        self._next_boss_at: int | None = None
        self._rush_gap = round(run.content.balance.endless.boss_rush.gap * run.sim.tick_hz)
        self._stall_frames = round(run.content.balance.wave.boss.stall_after * run.sim.tick_hz)
        if self.boss is not None:
            self.stats.boss = BossFight(self.boss.boss_id)
            if rush:
                self.stats.rush.append(self.stats.boss)
        self._source_names = [kind.id for kind in roster(run.content)]
        #: The core's books' slot of each damage source (`step_bot`): each kind, then the projectiles.
        self._source_slots = [*self._source_names, "projectile"]
        self._source_index = {name: i for i, name in enumerate(self._source_slots)}
        self._books = _core.HeadlessBooks()
        #: Currency picked up this wave before golden_idol's share (R-REL-1).
        self._picked = 0.0
        #: R-POT-2: the won wave's potion roll, once `finish` ran (the UI toasts it).
        self.potion_drop: PotionDrop | None = None
        #: R-FEEL-1: frames in the current stretch with no enemy alive (counted from EMPTY_FROM_S),
        #: and the wave's frames beyond each stretch's grace; R-FEEL-2: frames with a cast abandoned.
        self._empty_stretch = 0
        self._empty_frames = 0
        self._out_of_mana_frames = 0
        #: The wand's latest cast attempt was abandoned for mana (R-FEEL-2).
        self._starved = False
        #: Enemies alive after the latest step (the director's cap counts them, R-WAVE-1).
        self._alive = 0
        # R-MANA-1: every wave starts with a full pool; R-REG-1 registers reset; R-REL-1 wave_start:
        # vajra's strength, anchor's ward, the core's relic rules (the heals inside the wave among them).
        run.binding.begin_wave()

    @property
    def over(self) -> bool:
        """The player fell, or the wave ended: a boss wave when its boss fell (or stalled,
        R-WAVE-1), any other when its timer ran out."""
        if self.died:
            return True
        if self.stats.boss is not None:
            return self.bosses_fallen or self.stats.boss.stalled
        return self.stats.frames >= self.frames

    @property
    def boss_fallen(self) -> bool:
        """The wave's boss fell (its fight has a time to kill)."""
        return self.stats.boss is not None and self.stats.boss.ttk_s is not None

    @property
    def bosses_fallen(self) -> bool:
        """The wave's boss fell, and a boss rush's last one with it (R-END-3)."""
        return self.boss_fallen and not self.rush_left

    @property
    def rush(self) -> tuple[int, int]:
        """R-END-3: (the boss of the rush now, 1 first; the rush's bosses) — (0, 0) for no boss rush."""
        fights = len(self.stats.rush)
        return (fights, fights + len(self.rush_left)) if fights else (0, 0)

    @property
    def won(self) -> bool:
        """The wave, over, was won: the player stands, and a boss wave's boss fell — a boss rush's
        every one (a stalled fight is not won)."""
        return not self.died and (self.stats.boss is None or self.bosses_fallen)

    @property
    def alive(self) -> int:
        """Enemies on the field after the latest step."""
        return self._alive

    @property
    def seconds_left(self) -> float:
        return (self.frames - self.stats.frames) / self.run.sim.tick_hz

    def step(self) -> None:
        """One tick: spawns due, the core's step (the caller set the
        controls in `run.sim.input`), the wave's statistics."""
        sim, stats = self.run.sim, self.stats
        self._before_step()
        counts = sim.step()
        rows = sim.buffers.event_rows()
        stats.frames += 1
        tally = ev.Tally.of_step(sim.world)
        if stats.boss is not None:
            self._follow_boss(rows, tally, stats.boss)
        kills = tally.count(EventKind.ENEMY_KILLED)
        stats.kills += kills
        self.run.relics.on_kills(kills, sim.input)  # R-REL-1 vampire_fang, healed in the next step
        stats.spawned += tally.count(EventKind.ENEMY_SPAWNED)
        stats.damage_dealt += counts.damage_dealt
        if tally.count(EventKind.PLAYER_DAMAGED):
            stats.damage_taken += tally.total(EventKind.PLAYER_DAMAGED)
            hurt = rows[rows[:, ev.KIND] == EventKind.PLAYER_DAMAGED]
            for attacker, amount in zip(hurt[:, ev.A], hurt[:, ev.VALUE]):
                source = self._source_names[int(attacker)] if 0 <= attacker < len(self._source_names) else "projectile"
                stats.damage_taken_by_source[source] = stats.damage_taken_by_source.get(source, 0.0) + float(amount)
        picked = tally.total(EventKind.CURRENCY_PICKED)
        if picked:  # nothing picked up, nothing changes (the wave's end counts it all again)
            self._pick(picked)
        stats.max_alive = max(stats.max_alive, counts.enemies)
        self._alive = counts.enemies
        self._pace(counts.enemies, tally.count(EventKind.CAST_ABANDONED) > 0, tally.count(EventKind.CAST_FIRED) > 0)
        if tally.count(EventKind.ENEMY_HIT):
            stats.biggest_hit = max(stats.biggest_hit, tally.most(EventKind.ENEMY_HIT))
        if tally.count(EventKind.LAST_WILL):
            stats.last_will_spent = True
        self.died = self.died or tally.count(EventKind.PLAYER_DIED) > 0

    def _before_step(self) -> None:
        """What a tick does before the core steps: the director's spawns and announcements due,
        a boss rush's next boss, the wave's boss when it comes."""
        sim, stats = self.run.sim, self.stats
        player = (sim.buffers.player_value("x"), sim.buffers.player_value("y"))
        self.director.update(stats.frames / sim.tick_hz, player, sim.input, self._alive)
        stats.held_back = self.director.held_back
        if self._next_boss_at is not None and stats.frames >= self._next_boss_at:
            self._next_rush_boss()
        if self.boss is not None and self._boss_came is None:
            # The world's own position: before the first step the frame buffers hold no player yet.
            sim.input.spawn(self.boss_kind, *boss_point(self.run.content, sim.world.player_position(), sim.arena))
            self._boss_came = stats.frames

    def step_bot(self, tuning: tuple[float, float, float, float, float, float], drink_below: float | None) -> None:
        """`step`, then on in the core with the headless kiting bot (`tuning`, `sim.kite`) until
        the next frame the game must see (issue 44): the director's next announcement (the core
        lands the packs announced, as `update` would), the wave's end, a
        boss's stall, a boss event, the player's death, or a frame the bot would drink before
        (`drink_below`: its share of max HP, None with no healing potion on the belt). The core
        keeps the wave's books frame by frame as `step` keeps them, so the wave is the same, byte
        for byte, as stepping every frame (the caller set this frame's controls, as for `step`)."""
        sim, stats = self.run.sim, self.stats
        self._before_step()
        hz = sim.tick_hz
        books, director = self._books_in(), self.director
        frames, _, counts, heal, held_back = sim.play_bot(
            self._frames_ahead(),
            tuning,
            books,
            pacing=(round(EMPTY_FROM_S * hz), round(EMPTY_GRACE_S * hz)),
            fang=self.run.relics.fang(),
            drink_below=drink_below,
            boss_kind=self.boss_kind if stats.boss is not None else None,
            landings=director.packs(),
            max_alive=director.timing.max_alive,
        )
        self._books_out(books)
        # The packs the core landed, on the frames after the first (`_before_step` landed its own).
        director.landed((stats.frames - 1) / hz, held_back)
        stats.held_back = director.held_back
        if heal > 0:  # R-REL-1 vampire_fang's heal for the next step, as `on_kills` queues it
            sim.input.heal(heal)
        if stats.boss is not None:
            self._follow_boss(sim.buffers.event_rows(), ev.Tally.of_step(sim.world), stats.boss)

    def _frames_ahead(self) -> int:
        """How many frames from this one the core may run before one the game must see: the
        director's next announcement, a boss rush's next boss, a boss's stall, the end
        of a timed wave (at least this one)."""
        now = self.stats.frames
        ends = [
            self.director.next_frame(now, self.run.sim.tick_hz, landings=False),
            self.frames if self.stats.boss is None else None,
            self._next_boss_at,
            self._boss_came + self._stall_frames if self._boss_came is not None and not self.boss_fallen else None,
        ]
        due = [end for end in ends if end is not None]
        # Nothing due (a boss fight's end is an event the core stops at): as far as the core goes.
        return max(1, min(due) - now) if due else UNBOUNDED

    def _books_in(self) -> _core.HeadlessBooks:
        """The wave's numbers as the core's books carry them (`World.play_bot`)."""
        stats, books = self.stats, self._books
        books.frames, books.kills, books.spawned = stats.frames, stats.kills, stats.spawned
        books.damage_dealt, books.damage_taken = stats.damage_dealt, stats.damage_taken
        index = self._source_index
        taken = [0.0] * (len(self._source_names) + 1)
        seen = []
        for source, amount in stats.damage_taken_by_source.items():
            taken[index[source]] = amount
            seen.append(index[source])
        books.taken, books.seen = taken, seen
        books.picked = self._picked
        books.max_alive, books.alive = stats.max_alive, self._alive
        books.biggest_hit, books.last_will, books.died = stats.biggest_hit, stats.last_will_spent, self.died
        books.starved, books.out_of_mana_frames = self._starved, self._out_of_mana_frames
        books.empty_stretch, books.empty_frames = self._empty_stretch, self._empty_frames
        books.fang_kills = self.run.relics.kills
        return books

    def _books_out(self, books: _core.HeadlessBooks) -> None:
        """The core's books back into the wave's numbers."""
        stats = self.stats
        stats.frames, stats.kills, stats.spawned = books.frames, books.kills, books.spawned
        stats.damage_dealt, stats.damage_taken = books.damage_dealt, books.damage_taken
        taken, names = books.taken, self._source_slots
        stats.damage_taken_by_source = {names[i]: taken[i] for i in books.seen}
        if books.picked != self._picked:
            self._pick(books.picked - self._picked, total=books.picked)
        stats.max_alive, self._alive = books.max_alive, books.alive
        stats.biggest_hit, stats.last_will_spent, self.died = books.biggest_hit, books.last_will, books.died
        self._starved, self._out_of_mana_frames = books.starved, books.out_of_mana_frames
        self._empty_stretch, self._empty_frames = books.empty_stretch, books.empty_frames
        hz = self.run.sim.tick_hz
        stats.out_of_mana_s = self._out_of_mana_frames / hz
        stats.empty_s = self._empty_frames / hz
        self.run.relics.kills = books.fang_kills

    def _follow_boss(self, rows: npt.NDArray[np.float64], tally: ev.Tally, fight: BossFight) -> None:
        """The boss fight this frame (R-BOSS-2): the phases its boss entered, its hyper-enrage,
        its fall (the time to kill) — its clones, of another kind, are not it — and the stall cap.
        The rows are searched only when the frame has such events (most frames have none)."""
        kind = float(self.boss_kind)
        if tally.count(EventKind.BOSS_PHASE) or tally.count(EventKind.BOSS_ENRAGED):
            mine = rows[rows[:, ev.B] == kind]
            for phase in mine[mine[:, ev.KIND] == EventKind.BOSS_PHASE, ev.A]:
                fight.phases.append(int(phase))
            fight.enraged = fight.enraged or bool(np.any(mine[:, ev.KIND] == EventKind.BOSS_ENRAGED))
        came = self._boss_came
        if (
            came is not None
            and not self.boss_fallen
            and tally.count(EventKind.ENEMY_KILLED)
            and np.any((rows[:, ev.KIND] == EventKind.ENEMY_KILLED) & (rows[:, ev.A] == kind))
        ):
            fight.ttk_s = (self.stats.frames - came) / self.run.sim.tick_hz
            if self.rush_left:  # R-END-3: the rush's next boss, after the gap
                self._next_boss_at = self.stats.frames + self._rush_gap
        if not self.boss_fallen and came is not None and self.stats.frames - came >= self._stall_frames:
            fight.stalled = True

    def _next_rush_boss(self) -> None:
        """R-END-3: the boss rush's next boss comes (on this frame's step): the fight is its."""
        self.boss = self.rush_left.pop(0)
        self.boss_kind = kind_index(self.run.content, self.boss.boss_id)
        self._boss_came = self._next_boss_at = None
        self.stats.boss = BossFight(self.boss.boss_id)
        self.stats.rush.append(self.stats.boss)

    def _pace(self, alive: int, abandoned: bool, fired: bool) -> None:
        """The frame just stepped, for the pacing numbers (R-FEEL-1, R-FEEL-2): an empty arena
        beyond the grace of its stretch, and the time casts were being abandoned for mana."""
        hz, stats = self.run.sim.tick_hz, self.stats
        if abandoned:
            self._starved = True
        elif fired:
            self._starved = False
        self._out_of_mana_frames += int(self._starved)
        # The frame that just ran began at (frames - 1) / hz into the wave.
        if alive == 0 and stats.frames - 1 >= round(EMPTY_FROM_S * hz):
            self._empty_stretch += 1
            self._empty_frames += int(self._empty_stretch > round(EMPTY_GRACE_S * hz))
        else:
            self._empty_stretch = 0
        stats.out_of_mana_s = self._out_of_mana_frames / hz
        stats.empty_s = self._empty_frames / hz

    def _pick(self, amount: float, total: float | None = None) -> None:
        """Currency picked up; R-REL-1 golden_idol adds its share (rounded down over the wave).
        `total`: the wave's sum as the core's books added it (the same additions, frame by frame)."""
        self._picked = self._picked + amount if total is None else total
        self.stats.currency = math.floor(self._picked * self.run.relics.currency_multiplier() + 1e-9)

    def _rush_cards(self) -> None:
        """R-END-3: a cleared boss rush gives `boss_rush.cards` cards of its tier, drawn from the
        run seed among those the shop may offer, into the backpack (the waiting area when it is
        full; the tier's price in gold when both are)."""
        run, settings = self.run, self.run.content.balance.endless.boss_rush
        pool = run.shop.spells_of_tier(settings.card_tier)
        rng = draws.rng(run.seed, draws.BOSS_RUSH, self.stats.wave)
        loadout = run.state.loadout
        for _ in range(settings.cards if pool else 0):
            card = pool[int(rng.integers(len(pool)))]
            if len(loadout.backpack) < loadout.limits_backpack:
                loadout.stash(card)
            elif len(loadout.waiting) < loadout.limits[1]:
                loadout.waiting.append(card)
            else:
                self.stats.rush_currency += run.content.balance.shop.spell_price(settings.card_tier)
                continue
            self.stats.rush_cards.append(card)
        run.currency += self.stats.rush_currency

    def finish(self) -> WaveStats:
        """Ends the wave: on a timer run out (R-LOOP-1) survivors vanish and
        crystals on the ground are collected."""
        run, sim = self.run, self.run.sim
        # R-POT-1: the wave's potion strength ends (applied by the step below); R-POT-2: a won wave's drop.
        won = self.won
        self.potion_drop = run.potions.end_wave(sim.input, run.seed, self.stats.wave, won=won)
        if self.potion_drop is not None and self.potion_drop.found:
            self.stats.potions_found += 1
        if won:
            sim.input.clear_enemies()
            sim.input.collect_pickups()
            sim.step()
            self._pick(ev.total(sim.buffers.event_rows(), EventKind.CURRENCY_PICKED))
        run.currency += self.stats.currency
        if won:
            # R-REL-3: an elite wave awards a relic (a boss wave more); all owned: currency instead.
            for draw in range(wave_relic_count(self.wave, run.content.relics)):
                before = run.currency
                relic_id = run.award_relic("wave", self.wave.wave, draw)
                if relic_id is None:
                    self.stats.relic_currency += run.currency - before
                else:
                    self.stats.relics.append(relic_id)
            if self.stats.rush:
                self._rush_cards()
        seconds = self.stats.frames / sim.tick_hz
        self.stats.dps = self.stats.damage_dealt / seconds if seconds > 0 else 0.0
        self.run.waves.append(self.stats)
        return self.stats
