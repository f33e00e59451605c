"""Drawing the arena from the frame buffers (DESIGN §7).

No Python object per entity is kept, and no Python loop runs over
entities. Pickups, summons, enemies and projectiles are drawn by the core's
sprite rasterizer (`_core.SpriteRasterizer`) straight into the window
surface's pixels: numpy picks each row's sprite (enemy kind + elite shift,
projectile look), the core culls, clips and blends them with the GIL
released. Surfaces whose pixel format it cannot draw into (not 32-bit, or
with an alpha channel) take the fallback: numpy culls and computes blit
positions, the sprites come from an object array indexed by kind, and
`Surface.fblits` draws each batch in C.

Both paths put a sprite centred on its row's position, rounded down to
whole pixels, and draw in the same order: the floor and walls, zones,
pickups, summons, enemies, projectiles, the player. An enemy's sprite is its
kind, shifted to its elite and to its hit-flash variant by its flags
(`ENEMY_FLAG_ELITE`, `ENEMY_FLAG_HIT`), or else to its status tint (frozen,
burning, ...); a player's shot's is its spell at the
heading nearest its velocity (`atlas.ROTATIONS`); every enemy shot shows the
hostile sprite. The camera (`Camera`) never shows the void beyond the walls. Where sprites do not overlap their pixels
agree within ±1 per channel (tests/ui/test_render.py): the rasterizer
blends premultiplied colours (rounded once when the atlas is converted,
once per blend), SDL blends straight alpha with its own rounding; piles of
translucent sprites drift by a few steps at most.

Measured (benches/README.md, "Rendering the arena"), 10k enemies / 20k
projectiles at 1280×720: renderer + HUD 15.7 ms a frame with fblits, and
its per-frame position lists set off 55 gen-2 collections of 40 ms in 600
frames; 4.4 ms with the rasterizer, which allocates nothing the collector
tracks.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pygame

from artificer import _core
from artificer.engine.frame import (
    ROW_X,
    ROW_Y,
    EnemyColumn,
    FrameBuffers,
    ProjectileColumn,
    SummonColumn,
    ZoneColumn,
)
from artificer.ui.atlas import ROTATIONS, STATUSES, Atlas, zone_sprite

#: The core's flag of each status atlas.STATUSES names.
STATUS_FLAGS = {
    "frozen": _core.ENEMY_FLAG_FROZEN,
    "burning": _core.ENEMY_FLAG_BURNING,
    "shocked": _core.ENEMY_FLAG_SHOCKED,
    "poisoned": _core.ENEMY_FLAG_POISONED,
    "chilled": _core.ENEMY_FLAG_CHILLED,
    "wet": _core.ENEMY_FLAG_WET,
}

#: Beyond the arena (a view wider than the arena, or the training range): darker than the floor.
VOID = (8, 7, 12)
#: The floor texture's period in px (a few grid cells, so the repeat is not seen).
FLOOR_TILE = 256
#: Share of the distance to its target the camera covers each step (a smooth follow, not a lag).
FOLLOW = 0.2
#: A zone fades out over its last this many seconds (so it is seen to end, not to blink out).
ZONE_FADE_S = 0.5
#: Zone sprites are cached per this many px of radius.
ZONE_RADIUS_STEP = 4


class Camera:
    """Follows the player smoothly; `offset` maps world px to screen px.

    With `arena` (width, height in world px) the view stays inside it: its
    centre is clamped to [screen / 2, arena − screen / 2] on each axis, and
    an axis on which the arena is smaller than the screen is centred. `x`
    and `y` are where the camera is heading (the player, smoothed); the clamp
    applies where it looks, in `offset`, so callers may move `x`/`y` freely
    (interpolation, screen shake) and still never see the void.

    `margins` (left, top, right, bottom screen px) let the view pass the wall
    by that much on that side: the HUD's band, so that what stands at the wall
    (the player, enemies) is never under the HUD (R-FEEL-1)."""

    def __init__(
        self,
        screen: tuple[int, int],
        arena: tuple[float, float] | None = None,
        margins: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0),
    ) -> None:
        self.screen = screen
        self.arena = arena
        self.margins = margins
        self.x = 0.0
        self.y = 0.0

    def follow(self, x: float, y: float, snap: bool = False) -> None:
        if snap:
            self.x, self.y = x, y
        else:
            self.x += (x - self.x) * FOLLOW
            self.y += (y - self.y) * FOLLOW

    @property
    def centre(self) -> tuple[float, float]:
        """The world point at the middle of the view (x, y clamped into the arena)."""
        if self.arena is None:
            return self.x, self.y
        left, top, right, bottom = self.margins
        return (
            _clamped(self.x, self.screen[0], self.arena[0], left, right),
            _clamped(self.y, self.screen[1], self.arena[1], top, bottom),
        )

    @property
    def offset(self) -> tuple[float, float]:
        cx, cy = self.centre
        return self.screen[0] / 2 - cx, self.screen[1] / 2 - cy


def _clamped(centre: float, screen: float, arena: float, low: float = 0.0, high: float = 0.0) -> float:
    """The view's centre on one axis: inside [screen/2 − low, arena − screen/2 + high] (`low`, `high`:
    the margins the view may show past each wall), or the middle of that if the arena is narrower."""
    least, most = screen / 2 - low, arena - screen / 2 + high
    if least >= most:
        return (least + most) / 2
    return min(max(centre, least), most)


def default_threads() -> int:
    """The rasterizer's threads unless told: 2 where there are 2 cores. On
    this 2-core machine 2 threads drew the 10k/20k crowd in 1.9 ms against
    3.4 ms on one (benches/README.md); more than 2 were never measured."""
    return min(2, os.cpu_count() or 1)


class ArenaRenderer:
    """Draws the world under the HUD. `threads`: the rasterizer's threads
    (horizontal bands of the window; the output is the same for any count)."""

    def __init__(self, atlas: Atlas, arena: tuple[float, float], threads: int | None = None) -> None:
        self.atlas = atlas
        self.arena = arena
        # Enemy sprites in groups of (kinds, elites): plain, hit flash, then one group per status.
        enemy_sprites = [*atlas.enemies, *atlas.elites, *atlas.enemy_flashes, *atlas.elite_flashes]
        enemy_sprites += [sprite for group in atlas.enemy_statuses for sprite in group]
        self._enemy_sprites = _table(enemy_sprites)
        self._elite_shift = len(atlas.enemies)
        self._bosses_from = atlas.bosses_from
        self._group = 2 * len(atlas.enemies)
        # Shot sprites: each spell at each heading, then the enemies' shots (archers, reflected bolts).
        shot_sprites = [sprite for turns in atlas.spell_turns for sprite in turns] + atlas.enemy_shots
        self._spell_sprites = _table(shot_sprites)
        self._enemy_shot = len(atlas.spell_turns) * ROTATIONS
        self._spells = len(atlas.spell_turns)
        self._kinds = len(atlas.enemy_shots)
        self._enemy_half = _halves(enemy_sprites)
        self._spell_half = _halves(shot_sprites)
        # The rasterizer's sprite table: enemies, shots, crystal, summons (by spell).
        table = [*enemy_sprites, *shot_sprites, atlas.crystal, *atlas.summons]
        self._first_spell = len(enemy_sprites)
        self._crystal = len(enemy_sprites) + len(shot_sprites)
        self._first_summon = self._crystal + 1
        sheet = [premultiplied_rgba(s) for s in table]
        self.rasterizer: _core.SpriteRasterizer | None = _core.SpriteRasterizer(sheet, threads or default_threads())
        self._pickup_table = _table([atlas.crystal])
        self._summon_table = _table(atlas.summons)
        self._pickup_half = _halves([atlas.crystal])
        self._summon_half = _halves(atlas.summons)
        self._floor_tile = floor_tile(atlas)
        self._zone_cache: dict[tuple[int, int], pygame.Surface] = {}

    def draw(
        self,
        surface: pygame.Surface,
        buffers: FrameBuffers,
        camera: Camera,
        shift: float = 0.0,
        player: tuple[float, float] | None = None,
        *,
        shots: bool = True,
        show_player: bool = True,
        under_player: Callable[[pygame.Surface, tuple[float, float]], object] | None = None,
    ) -> int:
        """Draws the world; returns how many sprites were blitted.

        `shots=False` leaves the projectiles out (between waves, when nothing
        flies, shots frozen in the air read as a bug); `show_player=False` leaves
        the player out (the death moment); `under_player(surface, offset)` draws
        over the world and under the player (the scene's particles and the dash
        trail, so the player stays on top).

        Interpolation (the sim steps at 60 Hz, frames come faster): projectiles
        are drawn `shift` seconds along their velocity (negative: back toward
        the previous step) and the player at `player` (world px) when given;
        enemies have no velocity column and are drawn where the last step left them."""
        ox, oy = camera.offset
        w, h = surface.get_size()
        self._floor(surface, ox, oy, w, h)
        drawn = 0
        for zone in buffers.zone_rows():  # a handful at most; each sprite drawn once per look and size
            sprite = self._zone(int(zone[ZoneColumn.LOOK]), float(zone[ZoneColumn.RADIUS]))
            life = float(zone[ZoneColumn.LIFE])
            sprite.set_alpha(round(255 * min(1.0, max(0.0, life) / ZONE_FADE_S)))  # fades as it ends
            x, y = float(zone[ZoneColumn.X]) + ox, float(zone[ZoneColumn.Y]) + oy
            surface.blit(sprite, (x - sprite.get_width() / 2, y - sprite.get_height() / 2))
        flying = buffers.projectile_rows() if shots else buffers.projectile_rows()[:0]
        if shift != 0.0 and len(flying):
            flying = flying.copy()
            flying[:, ProjectileColumn.X] += flying[:, ProjectileColumn.VX] * np.float32(shift)
            flying[:, ProjectileColumn.Y] += flying[:, ProjectileColumn.VY] * np.float32(shift)
        if self.rasterizer is not None and _core.SpriteRasterizer.supports(surface.get_bytesize(), surface.get_masks()):
            drawn += self._rasterize(self.rasterizer, surface, buffers, flying, ox, oy)
        else:
            drawn += self._fblits(surface, buffers, flying, ox, oy, w, h)
        if under_player is not None:
            under_player(surface, (ox, oy))
        if not show_player:
            return drawn
        px, py = player if player is not None else (buffers.player_value("x"), buffers.player_value("y"))
        px, py = px + ox, py + oy
        sprite = self.atlas.player
        if buffers.player_value("invulnerable") > 0 and int(pygame.time.get_ticks() / 80) % 2:
            sprite = sprite.copy()
            sprite.set_alpha(110)
        surface.blit(sprite, (px - sprite.get_width() / 2, py - sprite.get_height() / 2))
        return drawn + 1

    def _enemy_layers(
        self, enemies: npt.NDArray[np.float32]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The enemy rows in two layers, the crowd then the bosses (R-BOSS-2: drawn on top), each
        back to front: a lower enemy (greater y) stands in front of a higher one it overlaps. Sorted
        here because the core keeps its pool in whatever order suits its searches and reorders it
        every few frames; drawn in row order, overlapping enemies would swap places on screen. Ties
        (enemies pinned to the top or bottom wall) keep the pool's order, which the reorder leaves
        by column within a row: left to right."""
        order = np.argsort(enemies[:, EnemyColumn.Y], kind="stable")
        boss = enemies[order, EnemyColumn.KIND] >= self._bosses_from
        return enemies[order[~boss]], enemies[order[boss]]

    def _enemy_sprites_of(self, enemies: npt.NDArray[np.float32]) -> npt.NDArray[np.int32]:
        """Each enemy row's sprite: its kind, shifted to its elite sprite and to the hit flash by its flags."""
        kinds = np.clip(enemies[:, EnemyColumn.KIND].astype(np.int32), 0, self._elite_shift - 1)
        flags = enemies[:, EnemyColumn.FLAGS].astype(np.int32)
        kinds += ((flags & _core.ENEMY_FLAG_ELITE) != 0) * np.int32(self._elite_shift)
        # The group: the hit flash over any status, else the first status of atlas.STATUSES it has.
        shown = [_core.ENEMY_FLAG_HIT, *(STATUS_FLAGS[name] for name, _, _ in STATUSES)]
        group = np.select([(flags & flag) != 0 for flag in shown], np.arange(1, len(shown) + 1, dtype=np.int32), 0)
        return (kinds + group.astype(np.int32) * np.int32(self._group)).astype(np.int32)

    def _spell_sprites_of(self, shots: npt.NDArray[np.float32]) -> npt.NDArray[np.int32]:
        """Each projectile row's sprite: the player's by spell look at the heading nearest its velocity
        (at rest: heading right), an enemy's shot (owner 1) as the shooter kind's enemy shot."""
        looks = np.clip(shots[:, ProjectileColumn.LOOK].astype(np.int32), 0, self._spells - 1)
        heading = np.arctan2(shots[:, ProjectileColumn.VY], shots[:, ProjectileColumn.VX]) * np.float32(
            ROTATIONS / (2 * np.pi)
        )
        turns = np.rint(heading).astype(np.int32) % ROTATIONS
        mine = looks * np.int32(ROTATIONS) + turns
        theirs = np.int32(self._enemy_shot) + np.clip(
            shots[:, ProjectileColumn.LOOK].astype(np.int32), 0, self._kinds - 1
        )
        return np.where(shots[:, ProjectileColumn.OWNER] > 0, theirs, mine).astype(np.int32)

    def _summon_sprites_of(self, summons: npt.NDArray[np.float32]) -> npt.NDArray[np.int32]:
        """Each summon row's sprite: the summon its spell plants."""
        return np.clip(summons[:, SummonColumn.LOOK].astype(np.int32), 0, len(self.atlas.summons) - 1)

    def _rasterize(
        self,
        rasterizer: _core.SpriteRasterizer,
        surface: pygame.Surface,
        buffers: FrameBuffers,
        shots: npt.NDArray[np.float32],
        ox: float,
        oy: float,
    ) -> int:
        looks = self._spell_sprites_of(shots)
        looks += np.int32(self._first_spell)
        crowd, bosses = self._enemy_layers(buffers.enemy_rows())
        summons = buffers.summon_rows()
        layers: list[tuple[npt.NDArray[np.float32], int | npt.NDArray[np.int32]]] = [
            (buffers.pickup_rows(), self._crystal),
            (summons, self._summon_sprites_of(summons) + np.int32(self._first_summon)),
            (crowd, self._enemy_sprites_of(crowd)),
            (bosses, self._enemy_sprites_of(bosses)),
            (shots, looks),
        ]
        # The view locks the surface; it is released before pygame draws on.
        pixels = np.asarray(surface.get_buffer())  # uint8, pitch × height bytes
        try:
            return rasterizer.draw(
                pixels, surface.get_size(), surface.get_pitch(), surface.get_masks(), (ox, oy), layers
            )
        finally:
            del pixels

    def _fblits(
        self,
        surface: pygame.Surface,
        buffers: FrameBuffers,
        shots: npt.NDArray[np.float32],
        ox: float,
        oy: float,
        w: int,
        h: int,
    ) -> int:
        drawn = self._batch(surface, buffers.pickup_rows(), ox, oy, w, h, self._pickup_table, None, self._pickup_half)
        summons = buffers.summon_rows()
        drawn += self._batch(
            surface, summons, ox, oy, w, h, self._summon_table, self._summon_sprites_of(summons), self._summon_half
        )
        for enemies in self._enemy_layers(buffers.enemy_rows()):
            drawn += self._batch(
                surface, enemies, ox, oy, w, h, self._enemy_sprites, self._enemy_sprites_of(enemies), self._enemy_half
            )
        drawn += self._batch(
            surface, shots, ox, oy, w, h, self._spell_sprites, self._spell_sprites_of(shots), self._spell_half
        )
        return drawn

    def _batch(
        self,
        surface: pygame.Surface,
        rows: npt.NDArray[np.float32],
        ox: float,
        oy: float,
        w: int,
        h: int,
        table: npt.NDArray[np.object_],
        index: npt.NDArray[np.int32] | None,
        half: npt.NDArray[np.float32],
    ) -> int:
        """One `fblits` batch: `table[index]` (or the table's one sprite) at each row."""
        if len(rows) == 0:
            return 0
        sx = rows[:, ROW_X] + np.float32(ox)
        sy = rows[:, ROW_Y] + np.float32(oy)
        margin = float(half.max()) + 1.0  # the table's widest sprite still overlaps the screen from here
        seen = (sx > -margin) & (sx < w + margin) & (sy > -margin) & (sy < h + margin)
        if not seen.any():
            return 0
        idx = index[seen] if index is not None else np.zeros(int(seen.sum()), dtype=np.intp)
        # Rounded down, as the rasterizer does (pygame would truncate toward 0).
        positions = np.floor(np.stack([sx[seen] - half[idx, 0], sy[seen] - half[idx, 1]], axis=1)).tolist()
        pygame.Surface.fblits(surface, zip(table[idx].tolist(), positions))
        return len(positions)

    def _floor(self, surface: pygame.Surface, ox: float, oy: float, w: int, h: int) -> None:
        """The void, the textured floor inside the arena, and its walls, drawn outside its edge: the
        player and the enemies stop at the edge (by their radius), so what stands there stands
        against the wall's lit face, not in the wall (R-FEEL-1)."""
        aw, ah = self.arena
        arena = pygame.Rect(math.floor(ox), math.floor(oy), math.ceil(aw), math.ceil(ah))
        inside = arena.clip(surface.get_rect())
        if inside.size != surface.get_size():
            surface.fill(VOID)
        if inside.width > 0 and inside.height > 0:
            tile = self._floor_tile
            x0 = math.floor(ox + math.floor((inside.left - ox) / FLOOR_TILE) * FLOOR_TILE)
            y0 = math.floor(oy + math.floor((inside.top - oy) / FLOOR_TILE) * FLOOR_TILE)
            spots = [
                (tile, (x, y))
                for y in range(y0, inside.bottom, FLOOR_TILE)
                for x in range(x0, inside.right, FLOOR_TILE)
            ]
            clip = surface.get_clip()
            surface.set_clip(inside)
            surface.fblits(spots)
            surface.set_clip(clip)
        look = self.atlas.floor
        band = look.wall_width
        outer = arena.inflate(2 * band, 2 * band)
        for wall in (
            pygame.Rect(outer.left, outer.top, outer.width, band),
            pygame.Rect(outer.left, arena.bottom, outer.width, band),
            pygame.Rect(outer.left, outer.top, band, outer.height),
            pygame.Rect(arena.right, outer.top, band, outer.height),
        ):
            if wall.colliderect(surface.get_rect()):
                pygame.draw.rect(surface, look.wall, wall)
        pygame.draw.rect(surface, _mix(look.wall, look.wall_glow, 0.35), arena.inflate(band, band), max(1, band // 4))
        pygame.draw.rect(
            surface, _mix(look.floor, look.wall_glow, 0.25), arena.inflate(-4, -4), 2
        )  # its glow on the floor
        pygame.draw.rect(surface, look.wall_glow, arena.inflate(2, 2), 3)  # the wall's lit face, at the edge

    def _zone(self, look: int, radius: float) -> pygame.Surface:
        """The zone sprite of spell `look` at `radius` (rounded to ZONE_RADIUS_STEP), drawn once."""
        spell = min(max(look, 0), len(self.atlas.zones) - 1)
        step = max(1, round(radius / ZONE_RADIUS_STEP))
        sprite = self._zone_cache.get((spell, step))
        if sprite is None:
            zone, colour = self.atlas.zones[spell]
            sprite = zone_sprite(zone, colour, step * ZONE_RADIUS_STEP)
            self._zone_cache[(spell, step)] = sprite
        return sprite


def floor_tile(atlas: Atlas) -> pygame.Surface:
    """FLOOR_TILE² of floor: the floor colour, flagstones of a slightly varied tone, the grid's lines."""
    look = atlas.floor
    tile = pygame.Surface((FLOOR_TILE, FLOOR_TILE))
    tile.fill(look.floor)
    rng = np.random.default_rng(7)  # fixed: the same floor every run
    step = look.grid_step
    for gy in range(0, FLOOR_TILE, step):
        for gx in range(0, FLOOR_TILE, step):
            shade = _mix(look.floor, look.tile, float(rng.uniform(0.0, 1.0)))
            pygame.draw.rect(tile, shade, (gx + 2, gy + 2, step - 4, step - 4), border_radius=3)
            for _ in range(3):  # specks of texture
                x, y = rng.integers(gx + 6, gx + step - 6, 2)
                tile.set_at((int(x), int(y)), _mix(look.tile, look.grid, 0.6))
    for g in range(0, FLOOR_TILE, step):
        pygame.draw.line(tile, look.grid, (g, 0), (g, FLOOR_TILE - 1))
        pygame.draw.line(tile, look.grid, (0, g), (FLOOR_TILE - 1, g))
    return tile


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _table(sprites: list[pygame.Surface]) -> npt.NDArray[np.object_]:
    """The sprites as an object array (fancy-indexed by a batch's sprite indices)."""
    table = np.empty(len(sprites), dtype=object)
    table[:] = sprites
    return table


def _halves(sprites: list[pygame.Surface]) -> npt.NDArray[np.float32]:
    """(width / 2, height / 2) per sprite: where its centre is."""
    return np.array([(s.get_width() / 2, s.get_height() / 2) for s in sprites], dtype=np.float32).reshape(-1, 2)


def premultiplied_rgba(sprite: pygame.Surface) -> npt.NDArray[np.uint8]:
    """The sprite as the rasterizer takes it: (height, width, 4) RGBA, colour
    multiplied by alpha and rounded to nearest."""
    w, h = sprite.get_size()
    rgba = np.frombuffer(pygame.image.tobytes(sprite, "RGBA"), dtype=np.uint8).reshape(h, w, 4).astype(np.uint16)
    rgba[..., :3] = (rgba[..., :3] * rgba[..., 3:] + 127) // 255
    return np.ascontiguousarray(rgba, dtype=np.uint8)
