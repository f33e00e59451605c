"""The core's row queries for tools (`_core.nearest_row`, `_core.repel`): the same row, and the same
push to the last bit, as numpy over every row gives — so the headless bot built on them decides
exactly as its numpy version did (its goldens are unchanged) — and bad arguments are
`CoreArgumentError`s."""

from __future__ import annotations

import numpy as np
import pytest

from artificer import _core
from artificer.errors import CoreArgumentError


def crowd(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    rows = np.zeros((n, _core.ENEMY_COLUMNS), dtype=np.float32)
    rows[:, :2] = rng.uniform(0, 2000, size=(n, 2)).astype(np.float32)
    rows[n // 2 :, :2] = rows[: n - n // 2, :2]  # duplicates: ties in distance
    return rows


@pytest.mark.parametrize("seed", range(5))
def test_nearest_row_is_numpys_argmin_first_of_equals(seed: int) -> None:
    rows = crowd(3000, seed)
    x, y = 640.0, 360.0
    d = np.hypot(rows[:, 0].astype(np.float64) - x, rows[:, 1].astype(np.float64) - y)
    assert _core.nearest_row(rows, x, y) == int(d.argmin())
    assert _core.nearest_row(rows[:0], x, y) is None


def numpy_repel(rows: np.ndarray, x: float, y: float, radius: float) -> tuple[float, float, float]:
    """The kiting bot's push as it was written in numpy (R-SIM-1's bot before `_core.repel`)."""
    offset = np.array([x, y]) - rows[:, :2].astype(np.float64)
    dist = np.hypot(offset[:, 0], offset[:, 1])
    nearest = float(dist.min()) if len(dist) else np.inf
    close = dist < radius
    weight = (radius - dist[close]) / radius / np.maximum(dist[close], 1.0)
    push = (offset[close] * weight[:, None]).sum(axis=0)
    return float(push[0]), float(push[1]), nearest


@pytest.mark.parametrize("seed", range(5))
def test_repel_is_numpys_push_to_the_last_bit(seed: int) -> None:
    rows = crowd(3000, seed)
    rng = np.random.default_rng(100 + seed)
    for x, y in rng.uniform(0, 2000, size=(20, 2)):
        for radius in (44.0, 220.0, 900.0):
            assert _core.repel(rows, float(x), float(y), radius) == numpy_repel(rows, float(x), float(y), radius)
    on_top = rows[:1].copy()  # an enemy right on the player: d = 0, weight by max(d, 1), no push
    assert _core.repel(on_top, float(on_top[0, 0]), float(on_top[0, 1]), 220.0) == (0.0, 0.0, 0.0)
    assert _core.repel(rows[:0], 0.0, 0.0, 220.0) == (0.0, 0.0, np.inf)


def test_rows_on_the_edge_are_decided_by_hypot() -> None:
    """R-SIM-1's bot: rows a hair either side of the radius, and near-ties for the nearest a float32
    ulp apart: the core skips `hypot` only for rows surely out of play, so it still agrees with numpy
    to the bit."""
    x, y, radius = 640.0, 360.0, 220.0
    edge = []
    for k in range(-3, 4):
        r = np.float32(radius) + np.float32(k) * np.spacing(np.float32(radius))
        for a in np.linspace(0.0, 2 * np.pi, 7):
            edge.append((x + float(r) * np.cos(a), y + float(r) * np.sin(a)))
    rows = np.zeros((len(edge), _core.ENEMY_COLUMNS), dtype=np.float32)
    rows[:, :2] = np.array(edge, dtype=np.float32)
    for order in (rows, rows[::-1].copy()):
        assert _core.repel(order, x, y, radius) == numpy_repel(order, x, y, radius)
        d = np.hypot(order[:, 0].astype(np.float64) - x, order[:, 1].astype(np.float64) - y)
        assert _core.nearest_row(order, x, y) == int(d.argmin())


def test_bad_arguments_are_refused_with_a_message() -> None:
    rows = crowd(10, 0)
    with pytest.raises(CoreArgumentError, match="radius"):
        _core.repel(rows, 0.0, 0.0, float("nan"))
    with pytest.raises(CoreArgumentError, match="x"):
        _core.nearest_row(rows, float("inf"), 0.0)
    with pytest.raises(CoreArgumentError, match="float32"):
        _core.repel(rows.astype(np.float64), 0.0, 0.0, 1.0)
    with pytest.raises(CoreArgumentError, match="2 columns"):
        _core.nearest_row(np.zeros((3, 1), dtype=np.float32), 0.0, 0.0)
