"""numpy + scipy peer: vectorised numpy with a ``scipy.spatial.cKDTree``
built on the enemies' start-of-frame positions every frame.

* hits: one ``tree.query(projectiles, k=2, distance_upper_bound=…)`` gives
  each projectile its two nearest enemies in reach; the hit test itself is
  the float32 ``d² < 144`` (strict) of the shared convention, and of the two
  candidates the smaller float32 ``d²`` wins, ties going to the lower enemy
  index. (The query bound is a hair above 12 so that a float32 ``d²`` that
  rounds below 144 is never lost to the float64 distance the tree uses;
  ``k=2`` is what it takes to see a tie at all: cKDTree's ``k=1`` returns
  whichever of two equidistant enemies its traversal meets first.)
* separation: ``tree.query_pairs(r=16, output_type='ndarray')`` lists each
  close pair once (inclusive bound; ``0 < d² < 256`` is then applied in
  float32), pushes are computed per pair (float32) and summed per enemy
  with ``np.bincount`` (float64 sums, rounded to float32 once), all from the
  snapshot (Jacobi), then applied with the chase in one vectorised update.

State is kept as float32 ``(n, 2)`` arrays (the tree works on a float64
copy of the enemies; that copy is the only float64 state).
"""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

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
_PLAYER = np.array([PLAYER_X, PLAYER_Y], dtype=np.float32)
_CHASE = _F(CHASE)
_MIN_CHASE_D = _F(1e-6)
_HIT_R2 = _F(HIT_RADIUS * HIT_RADIUS)
_SEP_D = _F(SEPARATION_DISTANCE)
_SEP_D2 = _F(SEPARATION_DISTANCE * SEPARATION_DISTANCE)
_SEP_K = _F(SEPARATION)
# float64 query bound a few float32 ulps above 12: never misses a float32
# d² < 144; the exact test is redone in float32 on the candidates.
_QUERY_BOUND = HIT_RADIUS * (1.0 + 1e-5)


class KDTreePeer:
    """Vectorised numpy step with a per-frame cKDTree on the enemies."""

    name = "numpy+cKDTree"

    def __init__(
        self,
        scene: Scene,
        *,
        leafsize: int = 16,
        balanced_tree: bool = False,
        compact_nodes: bool = False,
        workers: int = 1,
    ) -> None:
        self._e = np.column_stack([scene.enemy_x, scene.enemy_y]).astype(np.float32)
        self._p = np.column_stack([scene.proj_x, scene.proj_y]).astype(np.float32)
        self._v = np.column_stack([scene.proj_vx, scene.proj_vy]).astype(np.float32)
        self.pierce = np.full(self._p.shape[0], PIERCE, dtype=np.int32)
        self.enemy_hits = np.zeros(self._e.shape[0], dtype=np.int64)
        self.frame = 0
        self._tree_kw = dict(
            leafsize=leafsize,
            balanced_tree=balanced_tree,
            compact_nodes=compact_nodes,
            copy_data=False,
        )
        self._workers = workers

    # current state, as float32 views
    @property
    def enemy_x(self) -> np.ndarray:
        return self._e[:, 0]

    @property
    def enemy_y(self) -> np.ndarray:
        return self._e[:, 1]

    @property
    def proj_x(self) -> np.ndarray:
        return self._p[:, 0]

    @property
    def proj_y(self) -> np.ndarray:
        return self._p[:, 1]

    @property
    def proj_vx(self) -> np.ndarray:
        return self._v[:, 0]

    @property
    def proj_vy(self) -> np.ndarray:
        return self._v[:, 1]

    def step(self) -> int:
        e, p, v = self._e, self._p, self._v
        n = e.shape[0]
        self.frame += 1

        # 1. projectiles move and bounce (x and y columns at once)
        p += v
        low = np.flatnonzero(p < 0)  # flat indices into the (m, 2) arrays
        if low.size:
            pf, vf = p.reshape(-1), v.reshape(-1)
            pf[low] = -pf[low]
            vf[low] = -vf[low]
        high = np.flatnonzero(p > _WORLD)
        if high.size:
            pf, vf = p.reshape(-1), v.reshape(-1)
            pf[high] = _TWO_WORLD - pf[high]
            vf[high] = -vf[high]

        if n == 0:
            return 0

        tree = cKDTree(e.astype(np.float64), **self._tree_kw)

        # 2. hits against the start-of-frame enemies
        hits = 0
        if p.shape[0]:
            _, nb = tree.query(p, k=2, distance_upper_bound=_QUERY_BOUND, workers=self._workers)
            proj = np.flatnonzero(nb[:, 0] < n)
            if proj.size:
                j0 = nb[proj, 0]
                j1 = nb[proj, 1]
                pp = p[proj]
                d = e[j0] - pp
                d20 = d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]
                has1 = j1 < n
                j1c = np.where(has1, j1, j0)
                d = e[j1c] - pp
                d21 = d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]
                take1 = has1 & ((d21 < d20) | ((d21 == d20) & (j1 < j0)))
                j = np.where(take1, j1c, j0)
                d2 = np.where(take1, d21, d20)
                hit = d2 < _HIT_R2
                proj = proj[hit]
                j = j[hit]
                hits = int(proj.size)
                if hits:
                    self.enemy_hits += np.bincount(j, minlength=n)
                    left = self.pierce[proj] - 1
                    left[left <= 0] = PIERCE
                    self.pierce[proj] = left

        # 3. chase + separation, both from the snapshot, applied at once
        to_player = _PLAYER - e
        dist = np.sqrt(to_player[:, 0] * to_player[:, 0] + to_player[:, 1] * to_player[:, 1])
        scale = np.zeros_like(dist)
        np.divide(_CHASE, dist, out=scale, where=dist >= _MIN_CHASE_D)
        move = to_player * scale[:, None]

        pairs = tree.query_pairs(r=SEPARATION_DISTANCE, output_type="ndarray")
        if pairs.shape[0]:
            a = pairs[:, 0]
            b = pairs[:, 1]
            dd = e[a] - e[b]
            d2 = dd[:, 0] * dd[:, 0] + dd[:, 1] * dd[:, 1]
            close = (d2 < _SEP_D2) & (d2 > 0)
            if not close.all():
                a, b, dd, d2 = a[close], b[close], dd[close], d2[close]
            dpair = np.sqrt(d2)
            f = _SEP_K * (_SEP_D - dpair) / dpair
            push_x = f * dd[:, 0]
            push_y = f * dd[:, 1]
            sep_x = np.bincount(a, push_x, n) - np.bincount(b, push_x, n)
            sep_y = np.bincount(a, push_y, n) - np.bincount(b, push_y, n)
            move[:, 0] += sep_x.astype(np.float32)
            move[:, 1] += sep_y.astype(np.float32)
        e += move
        return hits
