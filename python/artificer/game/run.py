"""A run of waves (R-LOOP-1) on one `Simulation`, driven by a controller
(a bot in the simulator, the player's input in the UI).

The run owns the player's `Loadout` (cores, slots, backpack, waiting area);
the lab and the shop change it between waves and `rearm()` hands the
active core's program to the core. It also owns the talents bought (R-END-1:
Last Will, armed in the core's world when bought; re-arming the wand or
re-applying the stats never touches it, so a spent Last Will stays spent).
It owns its relics (`artificer.game.relics.RunRelics`, R-REL-1..3): their
passive bonuses join the stats bought (`apply_stats`), their wave hooks run
at the wave's start, on its kills and at its end, and elite waves award one.
It owns the potion belt (`artificer.game.potions.PotionBelt`, R-POT-1/2): a
won wave rolls its drop and the wave's potion strength ends in `finish`.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from artificer.content import Content
from artificer.content.models import Talent
from artificer.engine import EventKind, Simulation
from artificer.engine import events as ev
from artificer.errors import ArtificerError
from artificer.game.loadout import Loadout
from artificer.game.potions import PotionBelt, PotionDrop
from artificer.game.relics import RunRelics, relic_rng, wave_relic_count
from artificer.game.shop import Shop, WandStats
from artificer.game.waves import WaveDirector

#: R-FEEL-1: "the arena is never empty for more than 3 s once a wave is 2 s old".
EMPTY_FROM_S = 2.0
EMPTY_GRACE_S = 3.0


class WandCannotFire(ArtificerError):
    """R-VM-2: a wave cannot start with a wand whose main entry has no action."""


class Controller(Protocol):
    """Decides this tick's controls from what the last frame showed."""

    def control(self, sim: Simulation) -> None: ...


@dataclass
class WaveStats:
    """One wave's numbers, as the simulator reports them (R-SIM-1)."""

    wave: int
    kills: int = 0
    damage_dealt: float = 0.0
    damage_taken: float = 0.0
    max_alive: int = 0
    currency: int = 0
    frames: int = 0
    spawned: int = 0
    #: R-END-1: the most damage one hit dealt (from the `hit_events` rule's
    #: ENEMY_HIT events; 0 when a simulation runs without that rule).
    biggest_hit: float = 0.0
    #: Damage taken per attacker: an enemy id, or "projectile" for enemy shots and blasts.
    damage_taken_by_source: dict[str, float] = field(default_factory=dict)
    #: Damage dealt per second of the wave (set when the wave ends).
    dps: float = 0.0
    #: R-END-1: Last Will spared the player from a lethal hit in this wave (a LAST_WILL event).
    last_will_spent: bool = False
    #: R-REL-3: relics the won wave awarded (an elite wave gives one).
    relics: list[str] = field(default_factory=list)
    #: R-REL-3: currency given instead of relics when every relic was owned.
    relic_currency: int = 0
    #: R-POT-2: potions the won wave dropped into the belt, and potions drunk during the wave.
    potions_found: int = 0
    potions_used: int = 0
    #: R-FEEL-2: seconds of the wave in which casts were being abandoned for mana: from a cast
    #: abandoned (CAST_ABANDONED) until the next cast that fires (CAST_FIRED), the frame of the
    #: abandoned cast included. (The core tries once per cast delay, R-VM-11, so counting only
    #: the frames of abandoned casts would report a wand dry for 13 s as under 1 s.)
    out_of_mana_s: float = 0.0
    #: R-FEEL-1: seconds the arena stood empty beyond the first `EMPTY_GRACE_S` of each stretch
    #: with no enemy alive, counted once the wave is `EMPTY_FROM_S` old (0 is the rule kept).
    empty_s: float = 0.0

    def as_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["damage_dealt"] = round(self.damage_dealt, 3)
        out["damage_taken"] = round(self.damage_taken, 3)
        out["biggest_hit"] = round(self.biggest_hit, 3)
        out["damage_taken_by_source"] = {k: round(v, 3) for k, v in sorted(self.damage_taken_by_source.items())}
        out["dps"] = round(self.dps, 3)
        out["out_of_mana_s"] = round(self.out_of_mana_s, 3)
        out["empty_s"] = round(self.empty_s, 3)
        return out


class Run:
    """Waves 1..n; the player's HP carries over, the loadout is the wand."""

    def __init__(self, content: Content, seed: int) -> None:
        self.content = content
        self.seed = seed
        # hit_events: the frame's biggest hits come back as events (damage numbers, the biggest hit).
        self.sim = Simulation(content, seed, rules={"hit_events": True})
        self.loadout = Loadout.starting(content)
        self.currency = 0
        #: R-STAT-1: the stats bought in the shop, applied to whichever wand is armed.
        self.wand_stats = WandStats()
        #: R-END-1: the talents the run bought (each once per run; a spent one stays owned).
        self.talents: set[Talent] = set()
        #: R-REL-1: the relics owned (a new run starts with relics.json `start`: iron_heart).
        self.relics = RunRelics.starting(content.relics)
        #: R-POT-2: the potion belt (3 slots; the Artisan's Belt relic sets `potions.slots` to 5).
        self.potions = PotionBelt(content.potions)
        #: R-SHOP-1: the shop between waves (offers, locks, rerolls, prices paid).
        self.shop = Shop(self)
        self.diagnostics = self.rearm()
        self.waves: list[WaveStats] = []

    def gain_talent(self, talent: Talent) -> None:
        """The run owns `talent` from now on and it takes effect: Last Will (R-END-1) is armed in
        the core's world until a lethal hit spends it."""
        self.talents.add(talent)
        if talent == Talent.LAST_WILL:
            self.sim.world.set_last_will(True)

    def apply_stats(self) -> None:
        """Hands the core the stats bought with the relics' passive bonuses on top (R-STAT-1,
        R-REL-1), and the relics' rules of the core."""
        self.wand_stats.apply(self.sim.world, self.shop, self.relics.player_bonus())
        self.relics.apply_rules(self.sim.world)
        # R-POT-2: the Artisan's Belt (potion_belt) sets the belt's usable slots.
        self.potions.slots = self.relics.potion_slots(self.content.potions.base_slots)

    def gain_relic(self, relic_id: str) -> None:
        """R-REL-1: the run owns `relic_id` from now on and its passive effect applies at once
        (more max HP heals as much; the core's rules change)."""
        self.relics.add(relic_id)
        self.apply_stats()

    def award_relic(self, purpose: str) -> str | None:
        """R-REL-3: an unowned relic of the pool, drawn by the run's seed and `purpose`, is the
        run's; when every relic is owned, relics.json `all_owned_currency` is given instead.
        Returns the relic's id, or None when currency was given."""
        relic_id = self.relics.draw(relic_rng(self.seed, purpose))
        if relic_id is None:
            self.currency += self.content.relics.all_owned_currency
            return None
        self.gain_relic(relic_id)
        return relic_id

    def rearm(self) -> dict[str, Any]:
        """Arms the loadout's active core with its cards; returns the diagnostics."""
        core, cards = self.loadout.wand()
        return self.arm(core, cards)

    def arm(self, core_id: str, cards: list[str | None]) -> dict[str, Any]:
        """Puts a wand together (the lab); returns its diagnostics. The stats go
        to the world first: the CPU stat raises the compile-time CPU limit too
        (R-STAT-1), so the wand compiles with it."""
        self.apply_stats()
        self.diagnostics = self.sim.arm_wand(core_id, cards)
        self.apply_stats()
        return self.diagnostics

    def start_wave(self, number: int) -> WaveInProgress:
        """Begins wave `number`; the caller steps it frame by frame (the
        arena scene) or `play_wave` runs it to the end (the simulator)."""
        if not self.diagnostics["can_fire"]:
            # R-VM-2: the lab blocks "Start wave" for a wand without an action.
            raise WandCannotFire("The wand cannot fire! It needs at least one action spell.")
        self.shop.close()  # R-CORE-3: the active core is switched only in the shop
        self.apply_stats()
        return WaveInProgress(self, number)

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
        self.wave = run.content.wave(number)
        self.director = WaveDirector(run.content, self.wave, run.seed)
        self.stats = WaveStats(wave=number)
        self.frames = round(self.wave.duration * run.sim.tick_hz)
        self.died = False
        self._source_names = [enemy.id for enemy in run.content.enemies]
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
        # R-MANA-1: every wave starts with a full pool; R-REG-1 registers reset.
        run.sim.world.begin_wave()
        # R-REL-1 wave_start: vajra's strength, anchor's ward, blood_vial's heal, the core's relic rules.
        run.relics.wave_start(run.sim.world, run.sim.input)

    @property
    def over(self) -> bool:
        return self.died or self.stats.frames >= self.frames

    @property
    def seconds_left(self) -> float:
        return (self.frames - self.stats.frames) / self.run.sim.tick_hz

    def step(self) -> None:
        """One tick: spawns due, the core's step (the caller set the
        controls in `run.sim.input`), the wave's statistics."""
        sim, stats = self.run.sim, self.stats
        player = (sim.buffers.player_value("x"), sim.buffers.player_value("y"))
        self.director.update(stats.frames / sim.tick_hz, player, sim.input)
        counts = sim.step()
        rows = sim.buffers.event_rows()
        stats.frames += 1
        kills = ev.count(rows, EventKind.ENEMY_KILLED)
        stats.kills += kills
        self.run.relics.on_kills(kills, sim.input)  # R-REL-1 vampire_fang, healed in the next step
        stats.spawned += ev.count(rows, EventKind.ENEMY_SPAWNED)
        stats.damage_dealt += counts.damage_dealt
        stats.damage_taken += ev.total(rows, EventKind.PLAYER_DAMAGED)
        hurt = rows[rows[:, ev.KIND] == EventKind.PLAYER_DAMAGED]
        for attacker, amount in zip(hurt[:, ev.A], hurt[:, ev.VALUE]):
            source = self._source_names[int(attacker)] if 0 <= attacker < len(self._source_names) else "projectile"
            stats.damage_taken_by_source[source] = stats.damage_taken_by_source.get(source, 0.0) + float(amount)
        self._pick(ev.total(rows, EventKind.CURRENCY_PICKED))
        stats.max_alive = max(stats.max_alive, counts.enemies)
        self._pace(
            counts.enemies, ev.count(rows, EventKind.CAST_ABANDONED) > 0, ev.count(rows, EventKind.CAST_FIRED) > 0
        )
        hits = rows[rows[:, ev.KIND] == EventKind.ENEMY_HIT, ev.VALUE]
        if len(hits):
            stats.biggest_hit = max(stats.biggest_hit, float(hits.max()))
        if ev.count(rows, EventKind.LAST_WILL):
            stats.last_will_spent = True
        self.died = self.died or ev.count(rows, EventKind.PLAYER_DIED) > 0

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

    def _pick(self, amount: float) -> None:
        """Currency picked up; R-REL-1 golden_idol adds its share (rounded down over the wave)."""
        self._picked += amount
        self.stats.currency = math.floor(self._picked * self.run.relics.currency_multiplier() + 1e-9)

    def finish(self) -> WaveStats:
        """Ends the wave: on a timer run out (R-LOOP-1) survivors vanish and
        crystals on the ground are collected."""
        run, sim = self.run, self.run.sim
        # R-POT-1: the wave's potion strength ends (applied by the step below); R-POT-2: a won wave's drop.
        self.potion_drop = run.potions.end_wave(run, self)
        if not self.died:
            # R-REL-1 wave_end: burning_blood, meat_on_bone (on the HP the wave ended with).
            run.relics.wave_end(*sim.world.player_hp(), won=True, frame=sim.input)
            sim.input.clear_enemies()
            sim.input.collect_pickups()
            sim.step()
            self._pick(ev.total(sim.buffers.event_rows(), EventKind.CURRENCY_PICKED))
        run.currency += self.stats.currency
        if not self.died:
            # R-REL-3: an elite wave awards a relic (a boss wave more); all owned: currency instead.
            for draw in range(wave_relic_count(self.wave, run.content.relics)):
                before = run.currency
                relic_id = run.award_relic(f"wave/{self.wave.wave}/{draw}")
                if relic_id is None:
                    self.stats.relic_currency += run.currency - before
                else:
                    self.stats.relics.append(relic_id)
        seconds = self.stats.frames / sim.tick_hz
        self.stats.dps = self.stats.damage_dealt / seconds if seconds > 0 else 0.0
        self.run.waves.append(self.stats)
        return self.stats
