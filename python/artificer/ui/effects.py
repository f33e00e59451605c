"""The fight's juice (R-FEEL-1): particles and the screen's moments, drawn over the arena.

This module owns:

- `Particles`: a capped pool (`PARTICLE_CAPACITY`) of sparks and afterimages
  held in numpy arrays (position, velocity, life, span, drag, sprite). A
  spawn writes a block at the pool's cursor, overwriting the oldest, so the
  pool never grows; aging, drag and the fade step are array operations; the
  live rows are drawn in one call of its own `_core.SpriteRasterizer` (or
  one `Surface.fblits` batch on surfaces the rasterizer cannot draw into).
  No Python object and no Python loop per particle.
- `CrystalFlight`: copies of the crystals left on the ground when a wave is
  won, flying to the player (the wave already counted them).
- `Juice`: what the arena feeds each step's `FrameReport` (artificer.game.report)
  and player values to, and
  what draws the moments: kill bursts (at most `MAX_BURSTS_PER_FRAME` a
  frame, so a frame of 500 kills costs what 24 do), explosion rings, the dash
  trail, the hurt flash, the low-HP vignette and heartbeat, the shield ring
  while invulnerable, the dash cooldown bar, the wave-clear banner and the
  death moment's dimming and burst. Sounds go through the `play` callable it
  is given (the session's).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
import pygame

from artificer import _core
from artificer.content.models import Element
from artificer.engine.frame import FrameBuffers
from artificer.game.report import FrameReport, Kills
from artificer.ui.atlas import ELEMENT_COLOURS, Atlas
from artificer.ui.palette import Palette
from artificer.ui.render import premultiplied_rgba
from artificer.ui.widgets import fit_lines

F32 = npt.NDArray[np.float32]
Colour = tuple[int, int, int]

#: The pool's size: a 24-burst frame of 14 sparks is 336, so 4,096 holds ~12 such frames of sparks in flight.
PARTICLE_CAPACITY = 4096
#: Fade steps per spark colour (a sprite each: smaller and fainter as it ages).
FADE_STEPS = 6
#: A colour's sprites in the table: its sparks' fade steps, then its pop's (at offset `POP`).
POP = FADE_STEPS
COLOUR_STRIDE = 2 * FADE_STEPS
#: Kill bursts drawn per frame (the newest); more kills in one frame add nothing but cost nothing.
MAX_BURSTS_PER_FRAME = 24
SPARKS_PER_KILL = 14
SPARKS_PER_ELITE_KILL = 32
#: Sparks fly out at up to this many px/s and slow by `SPARK_DRAG` per second (exponential).
SPARK_SPEED = 340.0
SPARK_DRAG = 5.0
SPARK_LIFE = 0.5
SPARK_RADIUS = 4.5
#: A kill's pop: a ring in the enemy's colour growing from `POP_RADIUS` px and fading, over `POP_LIFE` s.
POP_RADIUS = (8.0, 22.0)
POP_LIFE = 0.22
#: Explosion rings per frame, and the sparks making each ring (they reach the blast's radius).
MAX_RINGS_PER_FRAME = 6
RING_SPARKS = 28
RING_LIFE = 0.3
#: Dash afterimages: one per sim step while dashing, fading over this many seconds.
GHOST_LIFE = 0.24
GHOST_ALPHA = 150
#: Flying crystals at wave end: at most this many (the rest were counted but are not drawn),
#: each waits up to `FLIGHT_STAGGER` s, then flies `FLIGHT_SECONDS` to the player.
MAX_FLYING = 600
FLIGHT_SECONDS = 0.5
FLIGHT_STAGGER = 0.12
#: Hurt flash: peak opacity of the red edge (0..255) and its decay per second (~0.35 s).
HURT_ALPHA = 170
HURT_DECAY = 2.8
HURT_COLOUR = (230, 30, 40)
#: Low HP (R-FEEL-1: under 30% of the maximum): a pulsing vignette, one beat and heartbeat per period.
LOW_HP_FRACTION = 0.30
LOW_HP_ALPHA = (55, 140)
#: A beat every second at 30% HP, quickening to 0.6 s near 0.
HEARTBEAT_PERIOD = (0.6, 1.0)
#: Where the vignette starts fading in, as a fraction of the way from the centre to the edge.
VIGNETTE_INNER = 0.55
#: The shield ring while invulnerable: px beyond the player's radius.
SHIELD_COLOUR = (150, 210, 255)
SHIELD_GAP = 7
#: The dash cooldown bar under the player: size, gap below the sprite; "ready" pulses this long.
DASH_BAR = (34, 5)
DASH_BAR_EDGE = (84, 78, 120)
DASH_BAR_GAP = 6
DASH_READY_COLOUR = (90, 230, 255)
DASH_CHARGING_COLOUR = (110, 116, 150)
DASH_READY_PULSE = 0.3
#: The wave-clear banner: how long it shows (within the 2 s breather), its fade-in and fade-out.
BANNER_SECONDS = 1.9
BANNER_FADE = 0.2
BANNER_FILL = (16, 14, 30)
#: The banner never rises above this (px from the top): under the HUD's boxes and the relic row.
BANNER_TOP = 146
#: Px kept clear between the banner and the player's centre.
BANNER_CLEARANCE = 44
BANNER_EDGE = (242, 214, 140)
BANNER_TITLE = (246, 226, 150)
BANNER_TEXT = (230, 230, 245)
#: The death moment: how long before the summary, how slowly particles run meanwhile, the dim's peak.
DEATH_SECONDS = 1.0
DEATH_TIME_SCALE = 0.4
DEATH_DIM = 170
DEATH_SPARKS = 240
#: The death burst's ring reaches this far (px).
DEATH_RING = 150.0
#: A boss's fall: its ring this many times a death's (R-BOSS-2).
BOSS_FALL_RING = 2.0
PLAYER_SPARK = (200, 180, 255)
CRYSTAL_SPARK = (120, 220, 255)
GOLD_SPARK = (255, 215, 0)


def sprite_colour(sprite: pygame.Surface) -> Colour:
    """A sprite's body colour: the median of its opaque pixels (outlines and eyes are the minority)."""
    w, h = sprite.get_size()
    rgba = np.frombuffer(pygame.image.tobytes(sprite, "RGBA"), dtype=np.uint8).reshape(-1, 4)
    solid = rgba[rgba[:, 3] >= 200]
    if not len(solid):
        return (230, 230, 230)
    r, g, b = np.median(solid[:, :3], axis=0)
    return (int(r), int(g), int(b))


def spark_sprites(colour: Colour) -> list[pygame.Surface]:
    """`FADE_STEPS` sparks of `colour`, each smaller and fainter: a bright core in a soft halo."""
    sprites = []
    for step in range(FADE_STEPS):
        fade = 1.0 - step / FADE_STEPS
        radius = SPARK_RADIUS * (0.5 + 0.5 * fade)
        size = math.ceil(radius * 2) + 2
        sprite = pygame.Surface((size, size), pygame.SRCALPHA)
        centre = (size / 2, size / 2)
        pygame.draw.circle(sprite, (*colour, round(110 * fade)), centre, radius)
        core = tuple(min(255, c + 70) for c in colour)
        pygame.draw.circle(sprite, (*core, round(255 * fade**0.6)), centre, max(1.0, radius * 0.6))
        sprites.append(sprite)
    return sprites


def pop_sprites(colour: Colour) -> list[pygame.Surface]:
    """`FADE_STEPS` rings of `colour`, each wider and fainter, the first filled: a kill's pop."""
    sprites = []
    small, large = POP_RADIUS
    for step in range(FADE_STEPS):
        grown = step / max(1, FADE_STEPS - 1)
        radius = small + (large - small) * grown
        size = math.ceil(radius * 2) + 4
        sprite = pygame.Surface((size, size), pygame.SRCALPHA)
        centre = (size / 2, size / 2)
        bright = tuple(min(255, c + 90) for c in colour)
        if step == 0:
            pygame.draw.circle(sprite, (*bright, 200), centre, radius)
        pygame.draw.circle(sprite, (*bright, round(230 * (1.0 - grown) + 25)), centre, radius, 3)
        sprites.append(sprite)
    return sprites


def ghost_sprites(player: pygame.Surface) -> list[pygame.Surface]:
    """The player's sprite at `FADE_STEPS` falling opacities, tinted toward violet (the dash trail)."""
    sprites = []
    for step in range(FADE_STEPS):
        ghost = player.copy()
        ghost.fill((150, 130, 255, 255), special_flags=pygame.BLEND_RGBA_MULT)
        ghost.fill(
            (255, 255, 255, round(GHOST_ALPHA * (1.0 - step / FADE_STEPS))), special_flags=pygame.BLEND_RGBA_MULT
        )
        sprites.append(ghost)
    return sprites


class Particles:
    """A fixed pool of `capacity` sprites with velocity, drag and a life; drawn as one batch.

    Each particle's sprite is `base + fade step` in the table: `base` picks the
    colour's (or ghost's) first sprite, the step follows the life spent."""

    def __init__(self, table: Sequence[pygame.Surface], capacity: int = PARTICLE_CAPACITY, seed: int = 0) -> None:
        self.capacity = capacity
        self.pos: F32 = np.zeros((capacity, 2), dtype=np.float32)
        self.vel: F32 = np.zeros((capacity, 2), dtype=np.float32)
        self.life: F32 = np.zeros(capacity, dtype=np.float32)
        self.span: F32 = np.ones(capacity, dtype=np.float32)
        self.drag: F32 = np.zeros(capacity, dtype=np.float32)
        self.base = np.zeros(capacity, dtype=np.int32)
        self.cursor = 0
        self.rng = np.random.default_rng(seed)  # presentation only: never touches the sim
        self.table = list(table)
        self._objects = np.array(self.table, dtype=object)
        self._half = np.array([(s.get_width() / 2, s.get_height() / 2) for s in self.table], dtype=np.float32)
        self.rasterizer = _core.SpriteRasterizer([premultiplied_rgba(s) for s in self.table], 1)

    @property
    def alive(self) -> int:
        return int(np.count_nonzero(self.life > 0))

    def spawn(self, pos: F32, vel: F32, life: float | F32, base: int | npt.NDArray[np.int32], drag: float) -> None:
        """Particles at `pos` (n, 2) with `vel` (n, 2): written over the oldest slots."""
        n = min(len(pos), self.capacity)
        if n == 0:
            return
        slots = (self.cursor + np.arange(n)) % self.capacity
        self.cursor = int((self.cursor + n) % self.capacity)
        self.pos[slots] = pos[-n:]
        self.vel[slots] = vel[-n:]
        spans = np.broadcast_to(np.asarray(life, dtype=np.float32), (len(pos),))[-n:]
        self.life[slots] = spans
        self.span[slots] = spans
        self.base[slots] = np.broadcast_to(np.asarray(base, dtype=np.int32), (len(pos),))[-n:]
        self.drag[slots] = drag

    def burst(self, centres: F32, base: int | npt.NDArray[np.int32], count: int, speed: float, life: float) -> None:
        """`count` sparks from each of `centres` (k, 2), flying out at random angles and speeds."""
        k = len(centres)
        if k == 0 or count <= 0:
            return
        angle = self.rng.uniform(0.0, 2 * math.pi, (k, count))
        reach = speed * self.rng.uniform(0.25, 1.0, (k, count))
        vel = np.stack([np.cos(angle) * reach, np.sin(angle) * reach], axis=-1).reshape(-1, 2).astype(np.float32)
        pos = np.repeat(centres.astype(np.float32), count, axis=0)
        bases = np.repeat(np.broadcast_to(np.asarray(base, dtype=np.int32), (k,)), count)
        spans = (life * self.rng.uniform(0.6, 1.0, k * count)).astype(np.float32)
        self.spawn(pos, vel, spans, bases, SPARK_DRAG)

    def ring(self, centre: tuple[float, float], radius: float, base: int) -> None:
        """`RING_SPARKS` sparks leaving `centre` evenly, slowing to a stop at `radius` (a ring flash)."""
        angle = np.linspace(0.0, 2 * math.pi, RING_SPARKS, endpoint=False)
        # Under drag d a spark launched at v travels v / d (at most): launch at radius × d.
        speed = max(8.0, radius) * SPARK_DRAG * 1.15
        vel = np.stack([np.cos(angle) * speed, np.sin(angle) * speed], axis=1).astype(np.float32)
        pos = np.tile(np.asarray(centre, dtype=np.float32), (RING_SPARKS, 1))
        self.spawn(pos, vel, RING_LIFE, base, SPARK_DRAG)

    def tick(self, dt: float) -> None:
        live = self.life > 0
        self.pos[live] += self.vel[live] * np.float32(dt)
        self.vel[live] *= np.exp(-self.drag[live] * np.float32(dt))[:, None]
        self.life[live] -= np.float32(dt)

    def sprites(self) -> tuple[F32, npt.NDArray[np.int32]]:
        """The live particles' positions and sprite indices (base + fade step)."""
        live = self.life > 0
        spent = 1.0 - self.life[live] / self.span[live]
        step = np.minimum(FADE_STEPS - 1, (spent * FADE_STEPS).astype(np.int32))
        return np.ascontiguousarray(self.pos[live]), (self.base[live] + step).astype(np.int32)

    def draw(
        self,
        surface: pygame.Surface,
        offset: tuple[float, float],
        extra: Sequence[tuple[F32, npt.NDArray[np.int32]]] = (),
    ) -> int:
        """The live particles (after `extra` layers of (positions, sprites)) in one batch; how many."""
        layers = [*extra, self.sprites()]
        layers = [(rows, index) for rows, index in layers if len(rows)]
        if not layers:
            return 0
        if _core.SpriteRasterizer.supports(surface.get_bytesize(), surface.get_masks()):
            pixels = np.asarray(surface.get_buffer())
            try:
                return self.rasterizer.draw(
                    pixels, surface.get_size(), surface.get_pitch(), surface.get_masks(), offset, layers
                )
            finally:
                del pixels
        drawn = 0
        for rows, index in layers:
            corner = np.floor(rows + np.asarray(offset, dtype=np.float32) - self._half[index]).tolist()
            pygame.Surface.fblits(surface, zip(self._objects[index].tolist(), corner))
            drawn += len(corner)
        return drawn


class CrystalFlight:
    """Copies of the crystals on the ground at a won wave's end, flying to the player."""

    def __init__(self, seed: int = 0) -> None:
        self.start: F32 = np.zeros((0, 2), dtype=np.float32)
        self.delay: F32 = np.zeros(0, dtype=np.float32)
        self.bend: F32 = np.zeros(0, dtype=np.float32)
        self.elapsed = 0.0
        self.target = (0.0, 0.0)
        self.launched = 0
        self.rng = np.random.default_rng(seed + 1)

    def launch(self, positions: F32, target: tuple[float, float]) -> None:
        self.launched = min(len(positions), MAX_FLYING)
        self.start = np.ascontiguousarray(positions[:MAX_FLYING, :2], dtype=np.float32)
        n = len(self.start)
        self.delay = self.rng.uniform(0.0, FLIGHT_STAGGER, n).astype(np.float32)
        # A sideways swing (px at mid-flight) so the crowd of crystals swirls in rather than sliding.
        self.bend = self.rng.uniform(-60.0, 60.0, n).astype(np.float32)
        self.elapsed = 0.0
        self.target = target

    @property
    def flying(self) -> int:
        """How many are still on their way."""
        return int(np.count_nonzero(self._progress() < 1.0))

    @property
    def landed(self) -> float:
        """The share of the launched crystals that reached the player (1.0 when none flew)."""
        return 1.0 if self.launched == 0 else 1.0 - self.flying / self.launched

    def _progress(self) -> F32:
        progress: F32 = np.clip((self.elapsed - self.delay) / np.float32(FLIGHT_SECONDS), 0.0, 1.0).astype(np.float32)
        return progress

    def tick(self, dt: float, target: tuple[float, float]) -> F32:
        """Advances; the crystals that arrived during this tick (their landing points)."""
        before = self._progress() < 1.0
        self.elapsed += dt
        self.target = target
        arrived = before & (self._progress() >= 1.0)
        return np.tile(np.asarray(target, dtype=np.float32), (int(arrived.sum()), 1))

    def positions(self) -> F32:
        """Where the crystals still flying are now (world px): eased in, swinging sideways."""
        u = self._progress()
        flying = u < 1.0
        start, u, bend = self.start[flying], u[flying], self.bend[flying]
        target = np.asarray(self.target, dtype=np.float32)
        way = target - start
        length = np.maximum(1.0, np.hypot(way[:, 0], way[:, 1]))
        side = np.stack([-way[:, 1] / length, way[:, 0] / length], axis=1)
        ease = (u * u)[:, None]
        swing = (np.sin(np.pi * u) * bend)[:, None]
        return np.ascontiguousarray(start + way * ease + side * swing, dtype=np.float32)


class Juice:
    """The arena's effects and moments; `react` to each step's report, `tick` each step, three draw layers."""

    def __init__(
        self, atlas: Atlas, play: Callable[[str], None], palette: Palette | None = None, seed: int = 0
    ) -> None:
        self.play = play
        enemy_colours = [sprite_colour(s) for s in atlas.enemies]
        element_colours = [
            palette.element(e.value, ELEMENT_COLOURS[e.value]) if palette is not None else ELEMENT_COLOURS[e.value]
            for e in Element
        ]
        colours = [*enemy_colours, *element_colours, PLAYER_SPARK, HURT_COLOUR, CRYSTAL_SPARK, GOLD_SPARK]
        # Per colour: its sparks' fade steps, then its pops' (`POP` further on).
        table: list[pygame.Surface] = []
        for colour in colours:
            table += spark_sprites(colour) + pop_sprites(colour)
        self.enemy_base = 0
        self.element_base = len(enemy_colours) * COLOUR_STRIDE
        named = len(enemy_colours) + len(element_colours)
        self.player_base, self.hurt_base, self.crystal_base, self.gold_base = (
            COLOUR_STRIDE * (named + i) for i in range(4)
        )
        self.ghost_base = len(table)
        table += ghost_sprites(atlas.player)
        self.crystal_sprite = len(table)
        table.append(atlas.crystal)
        self.kinds = len(enemy_colours)
        self.particles = Particles(table, seed=seed)
        self.crystals = CrystalFlight(seed)
        self.player_radius = atlas.player.get_width() / 2
        #: 1 when hurt, fading to 0.
        self.hurt = 0.0
        #: Low HP: on, seconds since the last beat, the beat's period.
        self.low_hp = False
        self.since_beat = math.inf
        self.beat_period = HEARTBEAT_PERIOD[1]
        #: Dash cooldown: seconds left, the span it started from, and the "ready" pulse left.
        self.dash_cooldown = 0.0
        self.dash_span = 1.0
        self.ready_pulse = 0.0
        self.invulnerable = False
        self._last_at: tuple[float, float] | None = None
        #: The wave-clear banner: its lines and seconds left.
        self.banner: tuple[str, str] | None = None
        self.banner_left = 0.0
        #: The banner's whole time (its fade out is the last BANNER_FADE of it) and title colour.
        self.banner_seconds = BANNER_SECONDS
        self.banner_colour = BANNER_TITLE
        #: The banner waiting for the one showing to end (`announce(..., after=True)`).
        self.next_banner: tuple[str, str, float, Colour] | None = None
        #: The death moment: seconds left (0: none), and whether it ran its course.
        self.dying = 0.0
        self._vignettes: dict[tuple[int, int], pygame.Surface] = {}
        self._shade: pygame.Surface | None = None

    # ---- what happened -----------------------------------------------------
    def react(self, report: FrameReport) -> None:
        """A step's report: kill bursts, explosion rings, the hurt flash."""
        self._kill_bursts(report.kills)
        blasts = report.explosions
        newest = slice(max(0, len(blasts) - MAX_RINGS_PER_FRAME), len(blasts))
        for (x, y), radius, code in zip(
            blasts.positions[newest], blasts.radii[newest], blasts.elements[newest], strict=True
        ):
            element = int(np.clip(code, 0, len(Element) - 1))
            self.particles.ring((float(x), float(y)), float(radius), self.element_base + element * COLOUR_STRIDE)
        if report.hp_lost > 0:
            self.hurt = 1.0
            self.play("hurt")

    def _kill_bursts(self, kills: Kills) -> None:
        """The step's kills: sparks in each enemy's colour (the newest `MAX_BURSTS_PER_FRAME`)."""
        newest = slice(max(0, len(kills) - MAX_BURSTS_PER_FRAME), len(kills))
        if not len(kills):
            return
        elite = kills.elite[newest]
        centres = kills.positions[newest].astype(np.float32)
        bases = (
            np.clip(kills.kinds[newest], 0, self.kinds - 1).astype(np.int32) * COLOUR_STRIDE + self.enemy_base
        ).astype(np.int32)
        still = np.zeros((len(centres), 2), dtype=np.float32)
        self.particles.spawn(centres, still, POP_LIFE, bases + POP, 0.0)
        self.particles.burst(centres[~elite], bases[~elite], SPARKS_PER_KILL, SPARK_SPEED, SPARK_LIFE)
        if elite.any():
            self.particles.burst(
                centres[elite], bases[elite], SPARKS_PER_ELITE_KILL, SPARK_SPEED * 1.4, SPARK_LIFE * 1.4
            )
            self.particles.burst(centres[elite], self.gold_base, SPARKS_PER_KILL, SPARK_SPEED, SPARK_LIFE * 1.4)

    def wave_cleared(
        self, pickups: F32, player: tuple[float, float], title: str, line: str, sound: str = "wave_clear"
    ) -> None:
        """R-FEEL-1 wave clear: the crystals on the ground fly in, the banner shows, its sound plays
        (the game's last wave: R-END-2's "victory" fanfare)."""
        self.crystals.launch(pickups, player)
        self.announce(title, line, BANNER_SECONDS, BANNER_TITLE)
        self.play(sound)

    def boss_fell(self, at: tuple[float, float], kind: int) -> None:
        """R-BOSS-2 a boss's fall: a burst in its colour and gold, twice a death's, a wide ring, a boom."""
        centre = np.asarray([at], dtype=np.float32)
        base = int(np.clip(kind, 0, self.kinds - 1)) * COLOUR_STRIDE + self.enemy_base
        self.particles.burst(centre, base, DEATH_SPARKS, SPARK_SPEED * 2.8, SPARK_LIFE * 3.0)
        self.particles.burst(centre, self.gold_base, DEATH_SPARKS // 2, SPARK_SPEED * 1.6, SPARK_LIFE * 3.0)
        self.particles.ring(at, DEATH_RING * BOSS_FALL_RING, base)
        self.particles.ring(at, DEATH_RING, self.gold_base)
        self.particles.spawn(centre, np.zeros((1, 2), dtype=np.float32), POP_LIFE * 4, base + POP, 0.0)
        self.play("boss_fell")

    def announce(
        self, title: str, line: str, seconds: float, colour: Colour = BANNER_TITLE, *, after: bool = False
    ) -> None:
        """The banner shows `title` (in `colour`) over `line` for `seconds` (a boss's warning, R-BOSS-2);
        `after`: once the banner showing now has ended (R-END-3: a mutator's after a boss rush's warning)."""
        if after and self.banner is not None and self.banner_left > 0:
            self.next_banner = (title, line, seconds, colour)
            return
        self.banner = (title, line)
        self.banner_left = self.banner_seconds = seconds
        self.banner_colour = colour

    def player_died(self, player: tuple[float, float]) -> None:
        """R-FEEL-1 death: a big burst at the player, the sound, and `DEATH_SECONDS` of slow fade."""
        centre = np.asarray([player], dtype=np.float32)
        self.particles.burst(centre, self.player_base, DEATH_SPARKS // 2, SPARK_SPEED * 2.6, SPARK_LIFE * 2.5)
        self.particles.burst(centre, self.hurt_base, DEATH_SPARKS // 2, SPARK_SPEED * 1.8, SPARK_LIFE * 2.5)
        self.particles.ring(player, DEATH_RING, self.player_base)
        self.particles.spawn(centre, np.zeros((1, 2), dtype=np.float32), POP_LIFE * 3, self.player_base + POP, 0.0)
        self.hurt = 1.0
        self.dying = DEATH_SECONDS
        self.play("death")

    # ---- time --------------------------------------------------------------
    def tick(self, dt: float, buffers: FrameBuffers, in_wave: bool) -> None:
        """One step: particles age (slowly while dying), the dash trail grows, low HP beats."""
        px, py = buffers.player_value("x"), buffers.player_value("y")
        if self.dying > 0:
            self.dying = max(0.0, self.dying - dt)
            dt *= DEATH_TIME_SCALE
        self.particles.tick(dt)
        arrived = self.crystals.tick(dt, (px, py))
        if len(arrived):
            self.particles.burst(
                arrived[:MAX_BURSTS_PER_FRAME], self.crystal_base, 3, SPARK_SPEED * 0.5, SPARK_LIFE * 0.6
            )
            self.play("pickup")
        self.hurt = max(0.0, self.hurt - HURT_DECAY * dt)
        self.banner_left = max(0.0, self.banner_left - dt)
        if self.banner_left == 0 and self.next_banner is not None:
            waiting, self.next_banner = self.next_banner, None
            self.announce(*waiting)
        self._dash(dt, buffers, (px, py), in_wave)
        self.invulnerable = in_wave and buffers.player_value("invulnerable") > 0
        self._heartbeat(dt, buffers, in_wave)

    def _dash(self, dt: float, buffers: FrameBuffers, at: tuple[float, float], in_wave: bool) -> None:
        cooldown = buffers.player_value("dash_cooldown")
        if cooldown > self.dash_cooldown + 1e-6:
            self.dash_span = max(cooldown, 1e-3)  # a dash began: its cooldown's full length
        if self.dash_cooldown > 0 and cooldown <= 0:
            self.ready_pulse = DASH_READY_PULSE
        self.dash_cooldown = cooldown
        self.ready_pulse = max(0.0, self.ready_pulse - dt)
        # An afterimage where the player stood a step ago (never ahead of the drawn, interpolated player).
        last, self._last_at = self._last_at, at
        if in_wave and buffers.player_value("dash_left") > 0 and last is not None:
            self.particles.spawn(
                np.asarray([last], dtype=np.float32),
                np.zeros((1, 2), dtype=np.float32),
                GHOST_LIFE,
                self.ghost_base,
                0.0,
            )

    def _heartbeat(self, dt: float, buffers: FrameBuffers, in_wave: bool) -> None:
        hp, hp_max = buffers.player_value("hp"), max(1.0, buffers.player_value("hp_max"))
        fraction = hp / hp_max
        self.low_hp = in_wave and 0 < fraction < LOW_HP_FRACTION and self.dying == 0
        if not self.low_hp:
            self.since_beat = math.inf
            return
        quick, slow = HEARTBEAT_PERIOD
        self.beat_period = quick + (slow - quick) * fraction / LOW_HP_FRACTION
        self.since_beat += dt
        if self.since_beat >= self.beat_period:
            self.since_beat = 0.0
            self.play("heartbeat")

    @property
    def dash_fraction(self) -> float:
        """How far the dash has recharged: 1.0 ready."""
        if self.dash_cooldown <= 0:
            return 1.0
        return max(0.0, min(1.0, 1.0 - self.dash_cooldown / self.dash_span))

    @property
    def beat(self) -> float:
        """The low-HP heartbeat's strength now: 1 at a beat, falling away before the next (0: HP not low)."""
        if not self.low_hp:
            return 0.0
        return math.exp(-6.0 * min(self.since_beat, 10.0) / max(self.beat_period, 1e-3))

    @property
    def vignette_alpha(self) -> int:
        """The red edge's opacity now: the hurt flash or the low-HP beat, whichever is stronger."""
        beat = 0.0
        if self.low_hp:
            low, high = LOW_HP_ALPHA
            beat = low + (high - low) * self.beat
        return round(min(255.0, max(beat, HURT_ALPHA * self.hurt)))

    # ---- drawing -----------------------------------------------------------
    def draw_world(self, surface: pygame.Surface, offset: tuple[float, float]) -> int:
        """Flying crystals and particles (the dash trail among them), over the world and under the player (`ArenaRenderer.draw`'s `under_player`)."""
        flying = self.crystals.positions()
        extra = [(flying, np.full(len(flying), self.crystal_sprite, dtype=np.int32))] if len(flying) else []
        return self.particles.draw(surface, offset, extra)

    def draw_player_marks(self, surface: pygame.Surface, at: tuple[float, float], in_wave: bool) -> None:
        """The shield ring while invulnerable and the dash cooldown bar under the player."""
        if not in_wave or self.dying > 0:
            return
        x, y = round(at[0]), round(at[1])
        radius = self.player_radius
        if self.invulnerable:
            pygame.draw.circle(surface, SHIELD_COLOUR, (x, y), radius + SHIELD_GAP, 2)
        w, h = DASH_BAR
        bar = pygame.Rect(0, 0, w, h)
        bar.midtop = (x, round(y + radius + DASH_BAR_GAP))
        pygame.draw.rect(surface, (12, 10, 20), bar.inflate(4, 4), border_radius=3)
        pygame.draw.rect(surface, DASH_BAR_EDGE, bar.inflate(4, 4), 1, border_radius=3)
        fill = bar.copy()
        fill.width = round(w * self.dash_fraction)
        ready = self.dash_fraction >= 1.0
        pygame.draw.rect(surface, DASH_READY_COLOUR if ready else DASH_CHARGING_COLOUR, fill, border_radius=2)
        if self.ready_pulse > 0:
            grow = 1.0 - self.ready_pulse / DASH_READY_PULSE
            pygame.draw.circle(surface, DASH_READY_COLOUR, (x, y), round(radius + 4 + 14 * grow), 2)

    def draw_screen(
        self, surface: pygame.Surface, player_at: tuple[float, float] | None = None, clear_top: int = BANNER_TOP
    ) -> None:
        """The red edge (hurt, low HP), the death dim and the wave-clear banner, over everything but the HUD;
        the banner keeps below `clear_top` (the HUD's toasts, under its top row and relic row, end there)."""
        alpha = self.vignette_alpha
        if alpha > 0:
            vignette = self._vignette(surface.get_size())
            vignette.set_alpha(alpha)
            surface.blit(vignette, (0, 0))
        if self.dying > 0:
            if self._shade is None or self._shade.get_size() != surface.get_size():
                self._shade = pygame.Surface(surface.get_size())
                self._shade.fill((6, 0, 10))
            self._shade.set_alpha(round(DEATH_DIM * (1.0 - self.dying / DEATH_SECONDS)))
            surface.blit(self._shade, (0, 0))
        if self.banner is not None and self.banner_left > 0:
            self._banner(surface, *self.banner, player_at, max(BANNER_TOP, clear_top))

    def _vignette(self, size: tuple[int, int]) -> pygame.Surface:
        """A red edge fading to clear toward the centre (per-pixel alpha), built once per window size."""
        cached = self._vignettes.get(size)
        if cached is not None:
            return cached
        w, h = size
        dx = np.abs(np.linspace(-1.0, 1.0, w))[:, None]
        dy = np.abs(np.linspace(-1.0, 1.0, h))[None, :]
        reach = np.clip((np.hypot(dx, dy) - VIGNETTE_INNER) / (1.0 - VIGNETTE_INNER), 0.0, 1.0)
        vignette = pygame.Surface(size, pygame.SRCALPHA)
        vignette.fill((*HURT_COLOUR, 255))
        alpha = pygame.surfarray.pixels_alpha(vignette)
        alpha[:] = (reach**2 * 255).astype(np.uint8)
        del alpha
        self._vignettes = {size: vignette}
        return vignette

    def _banner(
        self, surface: pygame.Surface, title: str, line: str, player_at: tuple[float, float] | None, top: int
    ) -> None:
        """An opaque panel above the player, under `top` (below the player when there is no room
        above, at an arena's top wall or under a stack of toasts): the big title and the wave's
        numbers, fading in and out."""
        w, h = surface.get_size()
        title_image = fitted(title, 54, w - 120, self.banner_colour)
        line_image = fitted(line, 26, w - 120, BANNER_TEXT, bold=False)
        box = pygame.Rect(
            0,
            0,
            max(title_image.get_width(), line_image.get_width()) + 80,
            title_image.get_height() + line_image.get_height() + 36,
        )
        player_y = player_at[1] if player_at is not None else h / 2
        box.midbottom = (w // 2, round(player_y) - BANNER_CLEARANCE)
        if box.top < top:  # no room above the player (under the HUD's top row, relic row and toasts): below it
            box.midtop = (w // 2, round(player_y) + BANNER_CLEARANCE)
        shown = self.banner_seconds - self.banner_left
        fade = min(1.0, shown / BANNER_FADE, self.banner_left / BANNER_FADE)
        layer = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.rect(layer, BANNER_FILL, layer.get_rect(), border_radius=12)
        pygame.draw.rect(layer, BANNER_EDGE, layer.get_rect(), 2, border_radius=12)
        layer.blit(title_image, title_image.get_rect(midtop=(box.width // 2, 14)))
        layer.blit(line_image, line_image.get_rect(midtop=(box.width // 2, 18 + title_image.get_height())))
        layer.set_alpha(round(255 * fade))
        surface.blit(layer, box)


def fitted(text: str, size: int, width: int, colour: Colour, bold: bool = True) -> pygame.Surface:
    """`text` on one line at `size`, or shrunk until it fits `width` px (`widgets.fit_lines`, down to half size)."""
    laid = fit_lines(text, size, bold, width, 1, floor=0.5)
    return laid.face.render(laid.lines[0] if laid.lines else "", True, colour)
