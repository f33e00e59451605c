"""The wave director (R-WAVE-1): turns a wave of waves.json into spawn
commands over the wave's time.

Each spawn of a group is announced `spawn_telegraph` seconds ahead at a
point on the spawn edge that is at least `spawn_safe_radius` from the
player; the enemies land there when the announcement runs out. The spawn
edge is the edge of the `spawn_reach` box around the player — just beyond
the view, so the wave walks on screen at once (R-FEEL-1) — clamped into the
arena (`spawn_margin` inside its edge); without `spawn_reach`, the arena's
edge itself. A group whose first spawn is due before the
telegraph could run lands `spawn_telegraph` into the wave.

The field holds at most `max_alive` enemies (R-WAVE-1's cap, as Brotato and Vampire Survivors
cap theirs): a spawn that lands with the field nearly full brings only the enemies that fit, and
the rest never come (`held_back`); elites always come, and bosses are not the director's. The
HUD draws the markers as the cap would let them land now (`shown`), so none promises a pack that
the full field keeps away.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from artificer import _core
from artificer.content import Content, Wave
from artificer.engine.frame import F64, FrameInput
from artificer.game import draws


@dataclass(frozen=True)
class SpawnMarker:
    """A spawn announced at `x, y`: `count` enemies of `kind` land at `lands_at`."""

    kind: int
    count: int
    elite: bool
    x: float
    y: float
    lands_at: float


class WaveDirector:
    """Spawns one wave. Call `update(t, player_xy, frame_input)` once per
    tick with the wave's elapsed time; it announces and lands spawns."""

    def __init__(
        self,
        content: Content,
        wave: Wave,
        seed: int,
        cursed: bool = False,
        arena: tuple[float, float] | None = None,
    ) -> None:
        """`cursed`: R-META-1's cursed waves — every `elite_every`-th group of the wave comes elite;
        `arena`: the world's (width, height) when it is not the content's (R-END-3 shrinking map)."""
        balance = content.balance
        self.timing = balance.wave
        self.arena = arena if arena is not None else (balance.arena.width, balance.arena.height)
        self.duration = wave.duration
        self.rng = draws.rng(seed, draws.SPAWNS, wave.wave)
        due: list[tuple[float, int, int, bool]] = []
        every = balance.meta.cursed_waves.elite_every
        for order, group in enumerate(wave.groups):
            kind = content.enemy_index(group.enemy)
            elite = group.elite or (cursed and (order + 1) % every == 0)
            for t in group.spawn_times():
                due.append((max(0.0, t - self.timing.spawn_telegraph), order, kind, elite))
        # Stable order: by announce time, then by the group's place in the file.
        due.sort(key=lambda d: (d[0], d[1]))
        self._due = due
        self._counts = [g.count for g in wave.groups]
        self._next = 0
        self.pending: list[SpawnMarker] = []
        #: Enemies the cap (`max_alive`) kept from coming this wave.
        self.held_back = 0

    @property
    def total_enemies(self) -> int:
        return sum(self._counts[order] for _, order, *_ in self._due)

    def update(self, t: float, player: tuple[float, float], frame: FrameInput, alive: int = 0) -> None:
        """`alive`: the enemies on the field now (the wave timing's `max_alive` caps what lands)."""
        while self._next < len(self._due) and self._due[self._next][0] <= t:
            announce, order, kind, elite = self._due[self._next]
            x, y = self._edge_point(player)
            count = self._counts[order]
            self.pending.append(SpawnMarker(kind, count, elite, x, y, announce + self.timing.spawn_telegraph))
            self._next += 1
        landed = [m for m in self.pending if m.lands_at <= t]
        if landed:
            self.pending = [m for m in self.pending if m.lands_at > t]
        for marker in landed:
            alive += self._land(marker, frame, alive)

    def next_frame(self, now: int, hz: int, *, landings: bool = True) -> int | None:
        """The first frame after `now` (frames into the wave, `update`'s `t` times `hz`) at which
        `update` has something to do — an announcement or (with `landings`) a landing due — or
        None: until then it does nothing (the headless bot runs the core up to the next
        announcement, and the core lands the packs: `WaveInProgress.step_bot`)."""
        times = [m.lands_at for m in self.pending] if landings else []
        if self._next < len(self._due):
            times.append(self._due[self._next][0])
        if not times:
            return None
        t = min(times)
        frame = max(now + 1, math.floor(t * hz) - 1)
        while frame / hz < t:  # `update`'s own test, `due <= frame / hz`, decides
            frame += 1
        return frame

    def packs(self) -> list[tuple[float, int, int, bool, float, float]]:
        """The pending markers as the core lands them (`World.play_bot`'s `landings`)."""
        return [(m.lands_at, m.kind, m.count, m.elite, m.x, m.y) for m in self.pending]

    def landed(self, t: float, held_back: int) -> None:
        """The core landed every pending marker due by `t` (seconds into the wave) as `update`
        would have, and the cap kept `held_back` of their members from coming."""
        self.pending = [m for m in self.pending if m.lands_at > t]
        self.held_back += held_back

    def shown(self, alive: int) -> list[SpawnMarker]:
        """The pending markers as they would land with `alive` enemies on the field now: each with
        the count that would come past the cap, and none that would bring nobody (the HUD draws
        these, so a marker never promises a pack the full field keeps away)."""
        shown = []
        for m in self.pending:
            count = self._fitting(m, alive)
            alive += count
            if count:
                shown.append(m if count == m.count else replace(m, count=count))
        return shown

    def _fitting(self, m: SpawnMarker, alive: int) -> int:
        """How many of `m`'s pack come with `alive` on the field: past the cap (`max_alive`) only
        those that fit, elites all."""
        cap = self.timing.max_alive
        return m.count if cap is None or m.elite else max(0, min(m.count, cap - alive))

    def _land(self, m: SpawnMarker, frame: FrameInput, alive: int) -> int:
        """A pack on the marker: a small sunflower spiral so members don't
        start stacked (separation does the rest, R-WAVE-2). Past the cap
        only those that fit come (`_fitting`); returns how many came."""
        count = self._fitting(m, alive)
        self.held_back += m.count - count
        if count:
            dx, dy = _spiral(count)
            frame.spawn_pack(m.kind, m.x + dx, m.y + dy, m.elite)
        return count

    def _spawn_box(self, player: tuple[float, float]) -> tuple[float, float, float, float]:
        """(left, top, width, height) of the box whose edge spawns land on."""
        reach = self.timing.spawn_reach
        if reach is None:
            return (0.0, 0.0, *self.arena)
        return (
            player[0] - reach.half_width,
            player[1] - reach.half_height,
            2 * reach.half_width,
            2 * reach.half_height,
        )

    def _edge_point(self, player: tuple[float, float]) -> tuple[float, float]:
        """A random point on the spawn edge, clamped into the arena, away from
        the player; after 32 tries, the point found farthest from the player."""
        aw, ah = self.arena
        left, top, w, h = self._spawn_box(player)
        margin, safe = self.timing.spawn_margin, self.timing.spawn_safe_radius
        best = (-1.0, (margin, margin))
        random, perimeter = self.rng.random, 2.0 * (w + h)
        for _ in range(32):
            # `uniform(0, perimeter)`'s very number (numpy's is 0 + perimeter × random()), drawn faster
            s = perimeter * float(random())
            if s < w:
                p = (left + s, top + margin)
            elif s < w + h:
                p = (left + w - margin, top + s - w)
            elif s < 2 * w + h:
                p = (left + s - w - h, top + h - margin)
            else:
                p = (left + margin, top + s - 2 * w - h)
            p = (min(max(p[0], margin), aw - margin), min(max(p[1], margin), ah - margin))
            d = math.dist(p, player)
            if d >= safe:
                return p
            if d > best[0]:
                best = (d, p)
        return best[1]


def _spiral(count: int) -> tuple[F64, F64]:
    """The offsets of a pack of `count` from its marker: a sunflower spiral (`_land`), the core's
    (`_core.pack_offsets`: the headless frames land packs there too). Made once per count."""
    made = _SPIRALS.get(count)
    if made is None:
        dx, dy = (np.array(offsets, dtype=np.float64) for offsets in _core.pack_offsets(count))
        dx.flags.writeable = dy.flags.writeable = False
        made = _SPIRALS[count] = (dx, dy)
    return made


_SPIRALS: dict[int, tuple[F64, F64]] = {}
