"""The seeded initial state of the standard stress workload.

Used by the game's ``artificer stress`` CLI, by the Rust core's stress
stepper (``artificer.sim.stress.CoreStepper``) and by the pure-Python peers in
``benches/peers`` that the core is compared with.  Every implementation
starts from the very same :class:`Scene`, so they can be compared frame by
frame.

The standard stress workload
============================

World 4000×4000 px, player fixed at the centre (2000, 2000). Enemies: radius
8, each frame they chase the player at 1.5 px/frame (move 1.5 px along the
unit vector toward the player; not if closer than 1e-6). Separation: each
pair of enemies whose centres are closer than 16 px (= 8+8) is pushed apart:
each of the two moves 0.25 × (16 − d) along the line joining them, away from
the other (if d == 0 exactly, skip the pair). Enemies take hits but never
die. Projectiles: radius 4, speed 6 px/frame in a random direction; they
bounce off the walls (if x < 0: x = −x, vx = −vx; if x > 4000: x = 8000 − x,
vx = −vx; same for y). A projectile hits when its centre is within 12 px
(= 8 + 4, strictly `d² < 144`) of an enemy's centre; at most one enemy per
projectile per frame — the nearest one (ties: the lowest enemy index); each
hit is counted and lowers the projectile's pierce by 1; a projectile whose
pierce reaches 0 respawns in place with pierce 3 (so counts stay constant
and nothing else changes). Layouts: `uniform` (enemies and projectiles
uniform over the world) or `crowd` (enemies uniform in a disk of radius
R = sqrt(N·400/π) around the player, projectiles uniform in a disk of radius
1.2·R, both clipped into the world by rejection: resample points outside
[0,4000]²). 10 warm-up frames before timing.

**Order within one frame** (the core uses exactly this; peers must too):

1. Projectiles move (x += vx, y += vy) and bounce off the walls.
2. Hits: each projectile finds the nearest enemy within 12 px using the
   enemies' positions at the START of the frame (enemies have not moved yet
   this frame); count it, pierce −1, reset pierce to 3 when it reaches 0.
   (Enemy hp is irrelevant here; you may skip damage or keep a hits counter
   per enemy.)
3. Enemies move: new position = start position + chase displacement +
   separation displacement, where BOTH are computed from the start-of-frame
   positions (Jacobi style: all separation pushes computed from the same
   snapshot, then applied at once). No clamping of enemies.

`step()` returns the number of hits in that frame.

How the scene is drawn (stable across numpy versions)
=====================================================

``make_scene`` uses one ``numpy.random.default_rng(seed)`` generator (PCG64,
a documented, stable bit stream) and draws, in this order:

1. the enemies' positions, then
2. the projectiles' positions, then
3. the projectiles' directions: ``angle = rng.uniform(0, 2π, projectiles)``,
   ``vx = 6·cos(angle)``, ``vy = 6·sin(angle)``.

Positions, per layout:

* ``uniform``: ``x = rng.uniform(0, 4000, n)`` then ``y = rng.uniform(0, 4000, n)``.
* ``crowd``: uniform in a disk of radius ``r_max`` around (2000, 2000) by
  rejection, in rounds: each round draws ``u = rng.random(k)`` then
  ``t = rng.random(k)`` for the ``k`` points still missing, places them at
  radius ``r_max·sqrt(u)`` and angle ``2π·t``, keeps (in draw order) those
  inside [0,4000]² and redraws the rest in the next round.
  ``r_max = R = sqrt(N·400/π)`` for enemies and ``1.2·R`` for projectiles,
  ``N`` being the number of enemies in both cases.

All arithmetic is done in float64; the arrays are then rounded to float32
(the core's state type) and made read-only, so an implementation must copy
them before stepping.  Every projectile starts with ``PIERCE`` pierce.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = [
    "CHASE",
    "ENEMY_RADIUS",
    "HIT_RADIUS",
    "LAYOUTS",
    "PIERCE",
    "PLAYER_X",
    "PLAYER_Y",
    "PROJECTILE_RADIUS",
    "PROJ_SPEED",
    "SEPARATION",
    "SEPARATION_CANDIDATES",
    "SEPARATION_DISTANCE",
    "WARMUP_FRAMES",
    "WORLD",
    "Scene",
    "crowd_radius",
    "make_scene",
]

WORLD = 4000.0
"""Side of the square world, px (the world is [0, WORLD]²)."""
PLAYER_X = WORLD / 2.0
PLAYER_Y = WORLD / 2.0
ENEMY_RADIUS = 8.0
PROJECTILE_RADIUS = 4.0
CHASE = 1.5
"""Enemy chase speed, px/frame."""
PROJ_SPEED = 6.0
"""Projectile speed, px/frame."""
SEPARATION = 0.25
"""Each enemy of an overlapping pair moves SEPARATION × overlap away."""
PIERCE = 3
WARMUP_FRAMES = 10
SEPARATION_CANDIDATES = 64
"""The core tests at most this many neighbours per enemy for separation (balance.json
``sim.separation_candidates``); the peers test all. At 10k/20k and 1k/2k the crowd never
reaches it (the core's state hash is the same with and without it), so the workloads are
the same; at big counts the fixed world crushes the crowd and only the core's cost stays
linear."""

HIT_RADIUS = ENEMY_RADIUS + PROJECTILE_RADIUS
"""12 px: a hit needs d² < HIT_RADIUS² (strictly)."""
SEPARATION_DISTANCE = 2.0 * ENEMY_RADIUS
"""16 px: a pair is pushed apart when 0 < d < SEPARATION_DISTANCE."""
CROWD_AREA_PER_ENEMY = 400.0
"""px² per enemy in the ``crowd`` layout: R = sqrt(N·400/π)."""
CROWD_PROJECTILE_SPREAD = 1.2
"""Projectiles of the ``crowd`` layout fill a disk of radius 1.2·R."""

LAYOUTS = ("uniform", "crowd")


@dataclass(frozen=True, eq=False)
class Scene:
    """Initial state of one stress run (float32, read-only arrays).

    ``eq=False``: scenes compare by identity (numpy arrays have no single
    truth value); compare the arrays themselves if needed.
    """

    enemy_x: np.ndarray
    enemy_y: np.ndarray
    proj_x: np.ndarray
    proj_y: np.ndarray
    proj_vx: np.ndarray
    proj_vy: np.ndarray
    layout: str
    seed: int

    @property
    def enemies(self) -> int:
        return int(self.enemy_x.shape[0])

    @property
    def projectiles(self) -> int:
        return int(self.proj_x.shape[0])

    def describe(self) -> str:
        return f"{self.enemies} enemies / {self.projectiles} projectiles, layout={self.layout}, seed={self.seed}"


def crowd_radius(enemies: int) -> float:
    """R = sqrt(N·400/π): the enemies' disk radius in the ``crowd`` layout."""
    return math.sqrt(enemies * CROWD_AREA_PER_ENEMY / math.pi)


def _uniform_points(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    x = rng.uniform(0.0, WORLD, n)
    y = rng.uniform(0.0, WORLD, n)
    return x, y


def _disk_points(rng: np.random.Generator, n: int, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """``n`` points uniform in the disk of ``radius`` around the player,
    restricted to [0, WORLD]² by rejection (see the module docstring)."""
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    missing = n
    while missing > 0:
        u = rng.random(missing)
        t = rng.random(missing)
        r = radius * np.sqrt(u)
        a = (2.0 * math.pi) * t
        x = PLAYER_X + r * np.cos(a)
        y = PLAYER_Y + r * np.sin(a)
        inside = (x >= 0.0) & (x <= WORLD) & (y >= 0.0) & (y <= WORLD)
        xs.append(x[inside])
        ys.append(y[inside])
        missing -= int(np.count_nonzero(inside))
    if not xs:
        return np.empty(0), np.empty(0)
    return np.concatenate(xs), np.concatenate(ys)


def _frozen_f32(a: np.ndarray) -> np.ndarray:
    # Rounding is monotone and 0 and WORLD are exact in float32, so points
    # stay inside [0, WORLD]².
    out = np.array(a, dtype=np.float32, copy=True, order="C")
    out.setflags(write=False)
    return out


def make_scene(enemies: int, projectiles: int, layout: str = "crowd", seed: int = 0) -> Scene:
    """The seeded initial state of the standard stress workload.

    ``enemies``/``projectiles``: counts (≥ 0). ``layout``: ``"uniform"`` or
    ``"crowd"``. ``seed``: seed of ``numpy.random.default_rng``.
    """
    if isinstance(enemies, bool) or not isinstance(enemies, (int, np.integer)):
        raise ValueError(f"enemies must be an int, got {enemies!r}")
    if isinstance(projectiles, bool) or not isinstance(projectiles, (int, np.integer)):
        raise ValueError(f"projectiles must be an int, got {projectiles!r}")
    enemies = int(enemies)
    projectiles = int(projectiles)
    if enemies < 0:
        raise ValueError(f"enemies must be ≥ 0, got {enemies}")
    if projectiles < 0:
        raise ValueError(f"projectiles must be ≥ 0, got {projectiles}")
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; expected one of {LAYOUTS}")

    rng = np.random.default_rng(seed)
    if layout == "uniform":
        ex, ey = _uniform_points(rng, enemies)
        px, py = _uniform_points(rng, projectiles)
    else:
        r = crowd_radius(enemies)
        ex, ey = _disk_points(rng, enemies, r)
        px, py = _disk_points(rng, projectiles, CROWD_PROJECTILE_SPREAD * r)
    angle = rng.uniform(0.0, 2.0 * math.pi, projectiles)
    vx = PROJ_SPEED * np.cos(angle)
    vy = PROJ_SPEED * np.sin(angle)

    return Scene(
        enemy_x=_frozen_f32(ex),
        enemy_y=_frozen_f32(ey),
        proj_x=_frozen_f32(px),
        proj_y=_frozen_f32(py),
        proj_vx=_frozen_f32(vx),
        proj_vy=_frozen_f32(vy),
        layout=layout,
        seed=int(seed),
    )
