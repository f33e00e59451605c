"""Numba peer: a single-threaded uniform-grid step compiled with ``@njit``.

Each frame the enemies are bucketed by a counting sort into cells of 16 px
(the separation distance, which also covers the 12 px hit reach) laid over
the enemies' bounding box, and copied into cell-ordered arrays. Cells of
one grid row are contiguous in that order, so a 3×3 neighbourhood is three
contiguous index ranges:

* hits: each projectile scans the 3×3 cells around it for the nearest enemy
  with ``d² < 144`` (ties: lowest original enemy index);
* separation: each pair is visited once with a half stencil (own cell from
  the next enemy on, the right-hand neighbour cell, and the three cells of
  the next row), pushes are summed into per-enemy accumulators from the
  start-of-frame snapshot (Jacobi) and applied together with the chase.

State and per-pair arithmetic are float32; only the per-enemy push sums are
float64 (rounded once, which makes them independent of the pair order; see
``benches/peers/__init__.py``). The JIT is warmed up in the constructor (on a
tiny copy of the scene), so ``step()`` never compiles.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from artificer.sim.scene import (
    CHASE,
    HIT_RADIUS,
    PIERCE,
    PLAYER_X,
    PLAYER_Y,
    SEPARATION,
    SEPARATION_DISTANCE,
    WORLD,
    Scene,
)

_F = np.float32
_WORLD = _F(WORLD)
_TWO_WORLD = _F(2.0 * WORLD)
_ZERO = _F(0.0)
_PX = _F(PLAYER_X)
_PY = _F(PLAYER_Y)
_CHASE = _F(CHASE)
_MIN_CHASE_D = _F(1e-6)
_HIT_R2 = _F(HIT_RADIUS * HIT_RADIUS)
_SEP_D = _F(SEPARATION_DISTANCE)
_SEP_D2 = _F(SEPARATION_DISTANCE * SEPARATION_DISTANCE)
_SEP_K = _F(SEPARATION)
_CELL = float(SEPARATION_DISTANCE)  # ≥ hit reach (12) and separation (16)
_MAX_CELLS = 1 << 22  # grows the cell size if enemies ever spread absurdly
_PIERCE = np.int32(PIERCE)


@njit(cache=True, error_model="numpy")
def _step(ex, ey, px, py, vx, vy, pierce, enemy_hits, sx, sy, sidx, fx, fy, ecell):
    n = ex.shape[0]
    m = px.shape[0]

    # 1. projectiles move and bounce
    for p in range(m):
        x = px[p] + vx[p]
        if x < _ZERO:
            x = -x
            vx[p] = -vx[p]
        elif x > _WORLD:
            x = _TWO_WORLD - x
            vx[p] = -vx[p]
        px[p] = x
        y = py[p] + vy[p]
        if y < _ZERO:
            y = -y
            vy[p] = -vy[p]
        elif y > _WORLD:
            y = _TWO_WORLD - y
            vy[p] = -vy[p]
        py[p] = y

    if n == 0:
        return 0

    # grid over the enemies' bounding box (start-of-frame positions)
    minx = ex[0]
    maxx = ex[0]
    miny = ey[0]
    maxy = ey[0]
    for i in range(1, n):
        x = ex[i]
        y = ey[i]
        if x < minx:
            minx = x
        elif x > maxx:
            maxx = x
        if y < miny:
            miny = y
        elif y > maxy:
            maxy = y
    ox = float(minx)
    oy = float(miny)
    cell = _CELL
    ncx = int((float(maxx) - ox) / cell) + 1
    ncy = int((float(maxy) - oy) / cell) + 1
    while ncx * ncy > _MAX_CELLS:
        cell *= 2.0
        ncx = int((float(maxx) - ox) / cell) + 1
        ncy = int((float(maxy) - oy) / cell) + 1
    inv = 1.0 / cell
    ncells = ncx * ncy

    # counting sort of the enemies into cell order
    start = np.zeros(ncells + 1, dtype=np.int32)
    for i in range(n):
        cx = int((float(ex[i]) - ox) * inv)
        cy = int((float(ey[i]) - oy) * inv)
        if cx >= ncx:
            cx = ncx - 1
        if cy >= ncy:
            cy = ncy - 1
        c = cy * ncx + cx
        ecell[i] = c
        start[c + 1] += 1
    for c in range(ncells):
        start[c + 1] += start[c]
    # stable scatter: within a cell the enemies stay in index order
    cursor = start[:ncells].copy()
    for i in range(n):
        c = ecell[i]
        k = cursor[c]
        cursor[c] = k + 1
        sx[k] = ex[i]
        sy[k] = ey[i]
        sidx[k] = i

    # 2. hits against the start-of-frame enemies
    hits = 0
    for p in range(m):
        x = px[p]
        y = py[p]
        gx = math.floor((float(x) - ox) * inv)
        gy = math.floor((float(y) - oy) * inv)
        c0 = int(gx) - 1
        c1 = int(gx) + 1
        r0 = int(gy) - 1
        r1 = int(gy) + 1
        if c0 < 0:
            c0 = 0
        if c1 > ncx - 1:
            c1 = ncx - 1
        if r0 < 0:
            r0 = 0
        if r1 > ncy - 1:
            r1 = ncy - 1
        if c0 > c1 or r0 > r1:
            continue
        best = _HIT_R2
        bj = -1
        bidx = n
        for r in range(r0, r1 + 1):
            a = start[r * ncx + c0]
            b = start[r * ncx + c1 + 1]
            for j in range(a, b):
                dx = sx[j] - x
                dy = sy[j] - y
                d2 = dx * dx + dy * dy
                if d2 < best:
                    best = d2
                    bj = j
                    bidx = sidx[j]
                elif d2 == best and bj >= 0 and sidx[j] < bidx:
                    bj = j
                    bidx = sidx[j]
        if bj >= 0:
            hits += 1
            enemy_hits[bidx] += 1
            q = pierce[p] - 1
            if q <= 0:
                q = _PIERCE
            pierce[p] = q

    # 3. separation (half stencil, each pair once) from the snapshot
    for k in range(n):
        fx[k] = 0.0
        fy[k] = 0.0
    for cy in range(ncy):
        for cx in range(ncx):
            c = cy * ncx + cx
            a0 = start[c]
            a1 = start[c + 1]
            if a0 == a1:
                continue
            # own cell after a, then the right-hand cell: one contiguous range
            same_end = start[c + 2] if cx + 1 < ncx else a1
            has_next = cy + 1 < ncy
            if has_next:
                lo = cx - 1 if cx > 0 else 0
                hi = cx + 1 if cx + 1 < ncx else ncx - 1
                n0 = start[c + ncx - cx + lo]
                n1 = start[c + ncx - cx + hi + 1]
            else:
                n0 = 0
                n1 = 0
            for a in range(a0, a1):
                xa = sx[a]
                ya = sy[a]
                ax = 0.0
                ay = 0.0
                for j in range(a + 1, same_end):
                    dx = xa - sx[j]
                    dy = ya - sy[j]
                    d2 = dx * dx + dy * dy
                    if d2 < _SEP_D2 and d2 > _ZERO:
                        d = np.sqrt(d2)
                        f = _SEP_K * (_SEP_D - d) / d
                        px_ = f * dx
                        py_ = f * dy
                        ax += px_
                        ay += py_
                        fx[j] -= px_
                        fy[j] -= py_
                for j in range(n0, n1):
                    dx = xa - sx[j]
                    dy = ya - sy[j]
                    d2 = dx * dx + dy * dy
                    if d2 < _SEP_D2 and d2 > _ZERO:
                        d = np.sqrt(d2)
                        f = _SEP_K * (_SEP_D - d) / d
                        px_ = f * dx
                        py_ = f * dy
                        ax += px_
                        ay += py_
                        fx[j] -= px_
                        fy[j] -= py_
                fx[a] += ax
                fy[a] += ay

    # chase + separation, written back in the original enemy order
    for k in range(n):
        x = sx[k]
        y = sy[k]
        dx = _PX - x
        dy = _PY - y
        d = np.sqrt(dx * dx + dy * dy)
        cxv = _ZERO
        cyv = _ZERO
        if d >= _MIN_CHASE_D:
            s = _CHASE / d
            cxv = dx * s
            cyv = dy * s
        i = sidx[k]
        ex[i] = x + (cxv + np.float32(fx[k]))
        ey[i] = y + (cyv + np.float32(fy[k]))
    return hits


class NumbaGridPeer:
    """Uniform-grid stress step in numba (single-threaded, float32 state)."""

    name = "numba-grid"

    def __init__(self, scene: Scene, *, warm_up: bool = True) -> None:
        self.enemy_x = np.array(scene.enemy_x, dtype=np.float32)
        self.enemy_y = np.array(scene.enemy_y, dtype=np.float32)
        self.proj_x = np.array(scene.proj_x, dtype=np.float32)
        self.proj_y = np.array(scene.proj_y, dtype=np.float32)
        self.proj_vx = np.array(scene.proj_vx, dtype=np.float32)
        self.proj_vy = np.array(scene.proj_vy, dtype=np.float32)
        self.pierce = np.full(self.proj_x.shape[0], PIERCE, dtype=np.int32)
        self.enemy_hits = np.zeros(self.enemy_x.shape[0], dtype=np.int64)
        self.frame = 0
        n = self.enemy_x.shape[0]
        self._sx = np.empty(n, dtype=np.float32)
        self._sy = np.empty(n, dtype=np.float32)
        self._sidx = np.empty(n, dtype=np.int32)
        self._fx = np.empty(n, dtype=np.float64)  # push sums, see _step
        self._fy = np.empty(n, dtype=np.float64)
        self._ecell = np.empty(n, dtype=np.int32)
        if warm_up:
            _warm_up()

    def step(self) -> int:
        hits = _step(
            self.enemy_x,
            self.enemy_y,
            self.proj_x,
            self.proj_y,
            self.proj_vx,
            self.proj_vy,
            self.pierce,
            self.enemy_hits,
            self._sx,
            self._sy,
            self._sidx,
            self._fx,
            self._fy,
            self._ecell,
        )
        self.frame += 1
        return int(hits)


_warmed = False


def _warm_up() -> None:
    """Compile (or load from the cache) ``_step`` on a tiny scene."""
    global _warmed
    if _warmed:
        return
    rng = np.random.default_rng(0)
    tiny = Scene(
        enemy_x=rng.uniform(1990, 2010, 8).astype(np.float32),
        enemy_y=rng.uniform(1990, 2010, 8).astype(np.float32),
        proj_x=rng.uniform(1990, 2010, 8).astype(np.float32),
        proj_y=rng.uniform(1990, 2010, 8).astype(np.float32),
        proj_vx=np.full(8, 6.0, dtype=np.float32),
        proj_vy=np.zeros(8, dtype=np.float32),
        layout="crowd",
        seed=0,
    )
    peer = NumbaGridPeer(tiny, warm_up=False)
    peer.step()
    peer.step()
    _warmed = True
