"""The pure-Python peers of the core's stress step (benches/peers) agree with
a brute-force O(N²) numpy reference of the standard stress workload
(``artificer.sim.scene``), and the scene itself is seeded and validated.

The reference below is deliberately naive: every projectile against every
enemy, every enemy against every enemy, evaluated in float32 with the
formulas of the shared convention (``benches/peers/__init__.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

_ROOT = Path(__file__).resolve().parents[2]
try:
    from artificer.sim.scene import (
        CHASE,
        PIERCE,
        WARMUP_FRAMES,
        WORLD,
        Scene,
        crowd_radius,
        make_scene,
    )
except ImportError:  # not installed: use the source tree
    sys.path.insert(0, str(_ROOT / "python"))
    from artificer.sim.scene import (
        CHASE,
        PIERCE,
        WARMUP_FRAMES,
        WORLD,
        Scene,
        crowd_radius,
        make_scene,
    )
if str(_ROOT / "benches") not in sys.path:
    sys.path.insert(0, str(_ROOT / "benches"))

F = np.float32
POS_TOL = 1e-3


class BruteForce:
    """O(N²) reference of one stress frame (float32 state and arithmetic)."""

    def __init__(self, scene: Scene) -> None:
        self.enemy_x = np.array(scene.enemy_x, dtype=F)
        self.enemy_y = np.array(scene.enemy_y, dtype=F)
        self.proj_x = np.array(scene.proj_x, dtype=F)
        self.proj_y = np.array(scene.proj_y, dtype=F)
        self.proj_vx = np.array(scene.proj_vx, dtype=F)
        self.proj_vy = np.array(scene.proj_vy, dtype=F)
        self.pierce = np.full(self.proj_x.size, PIERCE, dtype=np.int32)
        self.enemy_hits = np.zeros(self.enemy_x.size, dtype=np.int64)

    def step(self) -> int:
        # 1. projectiles move, bounce off the walls
        for pos, vel in ((self.proj_x, self.proj_vx), (self.proj_y, self.proj_vy)):
            pos += vel
            low = pos < 0
            pos[low] = -pos[low]
            vel[low] = -vel[low]
            high = pos > F(WORLD)
            pos[high] = F(2 * WORLD) - pos[high]
            vel[high] = -vel[high]

        ex, ey = self.enemy_x, self.enemy_y
        n, m = ex.size, self.proj_x.size

        # 2. hits: nearest start-of-frame enemy with d² < 144, lowest index on ties
        hits = 0
        if n and m:
            dx = ex[None, :] - self.proj_x[:, None]
            dy = ey[None, :] - self.proj_y[:, None]
            d2 = dx * dx + dy * dy
            d2 = np.where(d2 < F(144), d2, np.inf)
            nearest = np.argmin(d2, axis=1)  # first minimum = lowest index
            hit = np.isfinite(d2[np.arange(m), nearest])
            who = nearest[hit]
            hits = int(hit.sum())
            np.add.at(self.enemy_hits, who, 1)
            self.pierce[hit] -= 1
            self.pierce[self.pierce <= 0] = PIERCE

        # 3. chase + Jacobi separation from the same snapshot
        tx = F(WORLD / 2) - ex
        ty = F(WORLD / 2) - ey
        d = np.sqrt(tx * tx + ty * ty)
        c = np.zeros_like(d)
        np.divide(F(CHASE), d, out=c, where=d >= F(1e-6))
        dx = ex[:, None] - ex[None, :]  # i minus j: pushes i away from j
        dy = ey[:, None] - ey[None, :]
        d2 = dx * dx + dy * dy
        close = (d2 < F(256)) & (d2 > 0)
        dd = np.sqrt(np.where(close, d2, F(1)))
        f = np.where(close, F(0.25) * (F(16) - dd) / dd, F(0))
        sep_x = (f * dx).sum(axis=1, dtype=np.float64).astype(F)
        sep_y = (f * dy).sum(axis=1, dtype=np.float64).astype(F)
        self.enemy_x = ex + (tx * c + sep_x)
        self.enemy_y = ey + (ty * c + sep_y)
        return hits


def _kdtree(scene: Scene):
    pytest.importorskip("scipy")
    from peers.kdtree_peer import KDTreePeer

    return KDTreePeer(scene)


def _numba(scene: Scene):
    pytest.importorskip("numba")
    from peers.numba_peer import NumbaGridPeer

    return NumbaGridPeer(scene)


PEERS = [pytest.param(_kdtree, id="kdtree"), pytest.param(_numba, id="numba")]


def _assert_same_state(peer, ref: BruteForce) -> None:
    np.testing.assert_allclose(peer.enemy_x, ref.enemy_x, rtol=0, atol=POS_TOL)
    np.testing.assert_allclose(peer.enemy_y, ref.enemy_y, rtol=0, atol=POS_TOL)
    np.testing.assert_array_equal(peer.proj_x, ref.proj_x)
    np.testing.assert_array_equal(peer.proj_y, ref.proj_y)
    np.testing.assert_array_equal(peer.proj_vx, ref.proj_vx)
    np.testing.assert_array_equal(peer.proj_vy, ref.proj_vy)
    np.testing.assert_array_equal(peer.pierce, ref.pierce)
    np.testing.assert_array_equal(peer.enemy_hits, ref.enemy_hits)


def _check_frames(make_peer, scene: Scene, frames: int) -> list[int]:
    peer, ref = make_peer(scene), BruteForce(scene)
    got, want = [], []
    for _ in range(frames):
        got.append(peer.step())
        want.append(ref.step())
    assert got == want
    _assert_same_state(peer, ref)
    return want


@pytest.mark.parametrize("make_peer", PEERS)
@pytest.mark.parametrize("layout", ["crowd", "uniform"])
@pytest.mark.parametrize("frames", [1, 5])
def test_peer_matches_brute_force(make_peer, layout, frames):
    scene = make_scene(300, 600, layout, seed=7)
    hits = _check_frames(make_peer, scene, frames)
    if layout == "crowd":
        assert min(hits) > 100  # a dense fight: the comparison means something


@pytest.mark.parametrize("make_peer", PEERS)
def test_peer_matches_brute_force_after_warmup(make_peer):
    # past the warm-up the crowd has packed in: many overlapping pairs
    _check_frames(make_peer, make_scene(400, 800, "crowd", seed=3), WARMUP_FRAMES + 5)


def _edge_scene() -> Scene:
    """Hand-placed corner cases of the rules."""
    ex = [
        2000.0,
        2000.0,  # 0, 1: at the player (no chase) and coincident (d == 0: no push)
        505.0,
        495.0,  # 2, 3: equidistant from projectile 0 -> lowest index (2) is hit
        100.0,  # 4: projectile 1 lands at exactly d = 12 -> no hit (strict)
        700.0,
        710.0,  # 5, 6: overlapping pair (d = 10), pushed 1.5 px each
        3000.0,  # 7: projectile 4 sits on it: a hit every frame, pierce wraps
        1000.0,  # 8: projectile 5 lands at d = 11.99 -> hit
    ]
    ey = [2000.0, 2000.0, 500.0, 500.0, 100.0, 700.0, 700.0, 3000.0, 1000.0]
    px = [494.0, 106.0, 2.0, 3998.0, 3000.0, 994.01]
    py = [500.0, 100.0, 50.0, 3999.0, 3000.0, 1000.0]
    vx = [6.0, 6.0, -6.0, 6.0, 0.0, -6.0]
    vy = [0.0, 0.0, 0.0, 3.0, 0.0, 0.0]
    a = lambda v: np.array(v, dtype=F)  # noqa: E731
    return Scene(a(ex), a(ey), a(px), a(py), a(vx), a(vy), layout="crowd", seed=0)


@pytest.mark.parametrize("make_peer", PEERS)
def test_peer_edge_cases(make_peer):
    scene = _edge_scene()
    peer = make_peer(scene)
    ref = BruteForce(scene)
    assert peer.step() == ref.step()
    _assert_same_state(peer, ref)
    # the reference itself does what the rules say
    assert list(ref.enemy_hits) == [0, 0, 1, 0, 0, 0, 0, 1, 1]
    assert (ref.proj_x[2], ref.proj_vx[2]) == (4.0, 6.0)  # bounced off x = 0
    assert (ref.proj_x[3], ref.proj_vx[3]) == (3996.0, -6.0)  # bounced off x = 4000
    assert (ref.proj_y[3], ref.proj_vy[3]) == (3998.0, -3.0)  # bounced off y = 4000
    assert ref.enemy_x[0] == 2000.0 and ref.enemy_y[0] == 2000.0
    # the overlapping pair: pushed 0.25 × (16 − 10) = 1.5 px apart each, plus the chase
    chase5 = CHASE * 1300 / np.hypot(1300, 1300)
    chase6 = CHASE * 1290 / np.hypot(1290, 1300)
    np.testing.assert_allclose(ref.enemy_x[5:7], [700 - 1.5 + chase5, 710 + 1.5 + chase6], rtol=0, atol=1e-3)
    for _ in range(4):
        assert peer.step() == ref.step()
        _assert_same_state(peer, ref)
    assert ref.enemy_hits[7] == 5
    assert ref.pierce[4] == PIERCE - 2  # 5 hits: 3 -> 2 -> 1 -> 3 -> 2 -> 1


@pytest.mark.parametrize("make_peer", PEERS)
def test_peer_empty_scenes(make_peer):
    for n, m in [(0, 5), (5, 0), (0, 0)]:
        scene = make_scene(n, m, "crowd", seed=1)
        peer, ref = make_peer(scene), BruteForce(scene)
        for _ in range(3):
            assert peer.step() == ref.step()
        _assert_same_state(peer, ref)


def test_peers_agree_on_a_larger_crowd():
    pytest.importorskip("scipy")
    pytest.importorskip("numba")
    scene = make_scene(3000, 6000, "crowd", seed=11)
    a, b = _kdtree(scene), _numba(scene)
    ha = [a.step() for _ in range(30)]
    hb = [b.step() for _ in range(30)]
    # Both sum each enemy's separation pushes in float64 and round once, so
    # the order of summation does not show: they stay bit-identical even in
    # a packed, chaotic crowd.
    assert ha == hb
    assert abs(np.mean(ha) / 6000 - 0.5) < 0.25  # most projectiles are in the crowd
    np.testing.assert_allclose(a.enemy_x, b.enemy_x, rtol=0, atol=POS_TOL)
    np.testing.assert_allclose(a.enemy_y, b.enemy_y, rtol=0, atol=POS_TOL)
    np.testing.assert_array_equal(a.enemy_hits, b.enemy_hits)


def test_scene_is_seeded_and_frozen():
    a = make_scene(500, 700, "crowd", seed=5)
    b = make_scene(500, 700, "crowd", seed=5)
    c = make_scene(500, 700, "crowd", seed=6)
    for name in ("enemy_x", "enemy_y", "proj_x", "proj_y", "proj_vx", "proj_vy"):
        arr = getattr(a, name)
        assert arr.dtype == np.float32 and not arr.flags.writeable
        np.testing.assert_array_equal(arr, getattr(b, name))
    assert not np.array_equal(a.enemy_x, c.enemy_x)
    assert (a.enemies, a.projectiles, a.layout, a.seed) == (500, 700, "crowd", 5)
    np.testing.assert_allclose(np.hypot(a.proj_vx, a.proj_vy), 6.0, rtol=1e-6)
    r = crowd_radius(500)
    de = np.hypot(a.enemy_x - 2000.0, a.enemy_y - 2000.0)
    dp = np.hypot(a.proj_x - 2000.0, a.proj_y - 2000.0)
    assert de.max() <= r + 1e-3 and dp.max() <= 1.2 * r + 1e-3 and dp.max() > r


def test_scene_stays_in_the_world():
    for layout in ("uniform", "crowd"):
        s = make_scene(40_000, 1_000, layout, seed=2)  # crowd R ≈ 2257 > 2000: clipped
        for arr in (s.enemy_x, s.enemy_y, s.proj_x, s.proj_y):
            assert arr.min() >= 0.0 and arr.max() <= WORLD


@pytest.mark.parametrize("args", [(-1, 10), (10, -1), (10, 10, "ring"), (1.5, 10)])
def test_scene_rejects_bad_arguments(args):
    with pytest.raises(ValueError):
        make_scene(*args)


def test_frame_vs_peers_reports_the_ratio_by_median_and_by_mean(capsys: pytest.CaptureFixture[str]) -> None:
    """benches/frame_vs_peers.py on a tiny crowd: every implementation agrees on the hits, and each
    has its ratio to the core both by median frame and by mean frame (the mean counts work the
    core does one frame in many, the pools' reorder; issue 18 quotes it)."""
    import json

    import frame_vs_peers

    argv = ["--enemies", "200", "--projectiles", "400", "--frames", "40", "--rounds", "2", "--json"]
    assert frame_vs_peers.main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["hits_agree"] and report["core_available"]
    by_name = {r["name"]: r for r in report["results"]}
    assert by_name["core"]["ratio_vs_core"] == 1.0 and by_name["core"]["ratio_vs_core_mean"] == 1.0
    for r in report["results"]:
        assert r["mean_ms"] > 0 and r["ratio_vs_core_mean"] > 0, r["name"]
