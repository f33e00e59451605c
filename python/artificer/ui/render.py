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
whole pixels, and draw in the same order: zones, pickups, summons,
enemies, projectiles, the player. Where sprites do not overlap their pixels
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

import os

import numpy as np
import numpy.typing as npt
import pygame

from artificer import _core
from artificer.engine.frame import FrameBuffers
from artificer.ui.atlas import ELEMENT_COLOURS, Atlas

BACKGROUND = (14, 12, 22)
GRID_LINE = (28, 26, 40)
ARENA_EDGE = (90, 80, 140)
GRID_STEP = 64


class Camera:
    """Follows the player smoothly; `offset` maps world px to screen px."""

    def __init__(self, screen: tuple[int, int]) -> None:
        self.screen = screen
        self.x = 0.0
        self.y = 0.0

    def follow(self, x: float, y: float, snap: bool = False) -> None:
        if snap:
            self.x, self.y = x, y
        else:
            self.x += (x - self.x) * 0.2
            self.y += (y - self.y) * 0.2

    @property
    def offset(self) -> tuple[float, float]:
        return self.screen[0] / 2 - self.x, self.screen[1] / 2 - self.y


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
        enemy_sprites = atlas.enemies + atlas.elites
        self._enemy_sprites = np.array(enemy_sprites, dtype=object)
        # Shot sprites: the spells' glows, then the enemies' shots (archers, reflected bolts).
        shot_sprites = [*atlas.spells, *atlas.enemy_shots]
        self._spell_sprites = np.array(shot_sprites, dtype=object)
        self._enemy_shot = len(atlas.spells)
        self._elite_shift = len(atlas.enemies)
        self._enemy_half = _halves(enemy_sprites)
        self._spell_half = _halves(shot_sprites)
        # The rasterizer's sprite table: enemies, elites, spells, enemy shots, crystal, turret.
        table = [*enemy_sprites, *shot_sprites, atlas.crystal, atlas.turret]
        self._first_spell = len(enemy_sprites)
        self._crystal = len(table) - 2
        self._turret = len(table) - 1
        sheet = [premultiplied_rgba(s) for s in table]
        self.rasterizer: _core.SpriteRasterizer | None = _core.SpriteRasterizer(sheet, threads or default_threads())
        self._pickup_table = np.array([atlas.crystal], dtype=object)
        self._summon_table = np.array([atlas.turret], dtype=object)
        self._pickup_half = _halves([atlas.crystal])
        self._summon_half = _halves([atlas.turret])

    def draw(
        self,
        surface: pygame.Surface,
        buffers: FrameBuffers,
        camera: Camera,
        shift: float = 0.0,
        player: tuple[float, float] | None = None,
    ) -> int:
        """Draws the world; returns how many sprites were blitted.

        Interpolation (the sim steps at 60 Hz, frames come faster): projectiles
        are drawn `shift` seconds along their velocity (negative: back toward
        the previous step) and the player at `player` (world px) when given;
        enemies have no velocity column and are drawn where the last step left them."""
        ox, oy = camera.offset
        w, h = surface.get_size()
        surface.fill(BACKGROUND)
        self._floor(surface, ox, oy, w, h)
        drawn = 0
        for zone in buffers.zone_rows():
            x, y, r, look = float(zone[0]) + ox, float(zone[1]) + oy, float(zone[2]), int(zone[3])
            colour = self._look_colour(look)
            disk = pygame.Surface((int(2 * r) + 2, int(2 * r) + 2), pygame.SRCALPHA)
            pygame.draw.circle(disk, (*colour, 60), (r + 1, r + 1), r)
            pygame.draw.circle(disk, (*colour, 160), (r + 1, r + 1), r, 2)
            surface.blit(disk, (x - r - 1, y - r - 1))
        shots = buffers.projectile_rows()
        if shift != 0.0 and len(shots):
            shots = shots.copy()
            shots[:, 0:2] += shots[:, 4:6] * np.float32(shift)
        if self.rasterizer is not None and _core.SpriteRasterizer.supports(surface.get_bytesize(), surface.get_masks()):
            drawn += self._rasterize(self.rasterizer, surface, buffers, shots, ox, oy)
        else:
            drawn += self._fblits(surface, buffers, shots, ox, oy, w, h)
        px, py = player if player is not None else (buffers.player_value("x"), buffers.player_value("y"))
        px, py = px + ox, py + oy
        sprite = self.atlas.player
        if buffers.player_value("invulnerable") > 0 and int(pygame.time.get_ticks() / 80) % 2:
            sprite = sprite.copy()
            sprite.set_alpha(110)
        surface.blit(sprite, (px - sprite.get_width() / 2, py - sprite.get_height() / 2))
        return drawn + 1

    def _enemy_sprites_of(self, enemies: npt.NDArray[np.float32]) -> npt.NDArray[np.int32]:
        """Each enemy row's sprite: its kind, or its kind's elite sprite."""
        kinds = enemies[:, 2].astype(np.int32)
        kinds += ((enemies[:, 5].astype(np.int32) & _core.ENEMY_FLAG_ELITE) != 0) * np.int32(self._elite_shift)
        return kinds

    def _spell_sprites_of(self, shots: npt.NDArray[np.float32]) -> npt.NDArray[np.int32]:
        """Each projectile row's sprite: the player's by spell look, an enemy's shot (owner 1) as an enemy shot."""
        looks = np.clip(shots[:, 2].astype(np.int32), 0, self._enemy_shot - 1)
        return np.where(shots[:, 6] > 0, np.int32(self._enemy_shot), looks).astype(np.int32)

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
        enemies = buffers.enemy_rows()
        layers: list[tuple[npt.NDArray[np.float32], int | npt.NDArray[np.int32]]] = [
            (buffers.pickup_rows(), self._crystal),
            (buffers.summon_rows(), self._turret),
            (enemies, self._enemy_sprites_of(enemies)),
            (shots, looks),
        ]
        # The view locks the surface; it is released before pygame draws on.
        pixels = np.asarray(surface.get_buffer())  # uint8, pitch × height bytes
        try:
            return rasterizer.draw(pixels, surface.get_size(), surface.get_pitch(), surface.get_masks(), (ox, oy), layers)
        finally:
            del pixels

    def _fblits(
        self, surface: pygame.Surface, buffers: FrameBuffers, shots: npt.NDArray[np.float32], ox: float, oy: float, w: int, h: int
    ) -> int:
        drawn = self._batch(surface, buffers.pickup_rows(), ox, oy, w, h, self._pickup_table, None, self._pickup_half)
        drawn += self._batch(surface, buffers.summon_rows(), ox, oy, w, h, self._summon_table, None, self._summon_half)
        enemies = buffers.enemy_rows()
        drawn += self._batch(surface, enemies, ox, oy, w, h, self._enemy_sprites, self._enemy_sprites_of(enemies), self._enemy_half)
        drawn += self._batch(surface, shots, ox, oy, w, h, self._spell_sprites, self._spell_sprites_of(shots), self._spell_half)
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
        sx = rows[:, 0] + np.float32(ox)
        sy = rows[:, 1] + np.float32(oy)
        margin = 48.0
        seen = (sx > -margin) & (sx < w + margin) & (sy > -margin) & (sy < h + margin)
        if not seen.any():
            return 0
        idx = index[seen] if index is not None else np.zeros(int(seen.sum()), dtype=np.intp)
        # Rounded down, as the rasterizer does (pygame would truncate toward 0).
        positions = np.floor(np.stack([sx[seen] - half[idx, 0], sy[seen] - half[idx, 1]], axis=1)).tolist()
        pygame.Surface.fblits(surface, zip(table[idx].tolist(), positions))
        return len(positions)

    def _floor(self, surface: pygame.Surface, ox: float, oy: float, w: int, h: int) -> None:
        aw, ah = self.arena
        start_x = int((-ox) // GRID_STEP) * GRID_STEP
        start_y = int((-oy) // GRID_STEP) * GRID_STEP
        for gx in range(max(0, start_x), int(min(aw, -ox + w)) + 1, GRID_STEP):
            pygame.draw.line(surface, GRID_LINE, (gx + ox, max(0, oy)), (gx + ox, min(h, ah + oy)))
        for gy in range(max(0, start_y), int(min(ah, -oy + h)) + 1, GRID_STEP):
            pygame.draw.line(surface, GRID_LINE, (max(0, ox), gy + oy), (min(w, aw + ox), gy + oy))
        pygame.draw.rect(surface, ARENA_EDGE, (ox, oy, aw, ah), 3)

    def _look_colour(self, look: int) -> tuple[int, int, int]:
        sprite = self.atlas.spells[min(max(look, 0), len(self.atlas.spells) - 1)]
        colour = sprite.get_at((sprite.get_width() // 2, sprite.get_height() // 2 + max(1, sprite.get_height() // 5)))
        return (colour.r, colour.g, colour.b) if colour.a else ELEMENT_COLOURS["physical"]


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
