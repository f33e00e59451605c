"""Drawing the arena from the frame buffers (DESIGN §7).

No Python object per entity is kept, and no Python loop runs over
entities: numpy culls what is off screen and computes blit positions, the
sprite for each row comes from an object array indexed by kind, and
`Surface.fblits` draws the whole batch in C.
"""

from __future__ import annotations

import itertools

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


class ArenaRenderer:
    def __init__(self, atlas: Atlas, arena: tuple[float, float]) -> None:
        self.atlas = atlas
        self.arena = arena
        self._enemy_sprites = np.array(atlas.enemies + atlas.elites, dtype=object)
        self._spell_sprites = np.array(atlas.spells, dtype=object)
        self._elite_shift = len(atlas.enemies)
        half = [s.get_width() / 2 for s in atlas.enemies + atlas.elites]
        self._enemy_half = np.array(half, dtype=np.float32)
        self._spell_half = np.array([s.get_width() / 2 for s in atlas.spells], dtype=np.float32)

    def draw(self, surface: pygame.Surface, buffers: FrameBuffers, camera: Camera) -> int:
        """Draws the world; returns how many sprites were blitted."""
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
        drawn += self._batch(surface, buffers.pickup_rows(), ox, oy, w, h, sprite=self.atlas.crystal)
        drawn += self._batch(surface, buffers.summon_rows(), ox, oy, w, h, sprite=self.atlas.turret)
        enemies = buffers.enemy_rows()
        kinds = enemies[:, 2].astype(np.intp) + (enemies[:, 5].astype(np.intp) & _core.ENEMY_FLAG_ELITE > 0) * self._elite_shift
        drawn += self._batch(surface, enemies, ox, oy, w, h, table=self._enemy_sprites, index=kinds, half=self._enemy_half)
        shots = buffers.projectile_rows()
        looks = np.clip(shots[:, 2].astype(np.intp), 0, len(self._spell_sprites) - 1)
        drawn += self._batch(surface, shots, ox, oy, w, h, table=self._spell_sprites, index=looks, half=self._spell_half)
        px, py = buffers.player_value("x") + ox, buffers.player_value("y") + oy
        sprite = self.atlas.player
        if buffers.player_value("invulnerable") > 0 and int(pygame.time.get_ticks() / 80) % 2:
            sprite = sprite.copy()
            sprite.set_alpha(110)
        surface.blit(sprite, (px - sprite.get_width() / 2, py - sprite.get_height() / 2))
        return drawn + 1

    def _batch(
        self,
        surface: pygame.Surface,
        rows: npt.NDArray[np.float32],
        ox: float,
        oy: float,
        w: int,
        h: int,
        sprite: pygame.Surface | None = None,
        table: npt.NDArray[np.object_] | None = None,
        index: npt.NDArray[np.intp] | None = None,
        half: npt.NDArray[np.float32] | None = None,
    ) -> int:
        if len(rows) == 0:
            return 0
        sx = rows[:, 0] + np.float32(ox)
        sy = rows[:, 1] + np.float32(oy)
        margin = 48.0
        seen = (sx > -margin) & (sx < w + margin) & (sy > -margin) & (sy < h + margin)
        if not seen.any():
            return 0
        if table is not None and index is not None and half is not None:
            idx = index[seen]
            hw = half[idx]
            positions = np.stack([sx[seen] - hw, sy[seen] - hw], axis=1).tolist()
            pygame.Surface.fblits(surface, zip(table[idx].tolist(), positions))
            return len(positions)
        assert sprite is not None
        half_width = sprite.get_width() / 2
        positions = np.stack([sx[seen] - half_width, sy[seen] - half_width], axis=1).tolist()
        surface.fblits(zip(itertools.repeat(sprite), positions))
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
