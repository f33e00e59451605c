"""The core's row queries for tools (`_core.rows_within`, `_core.nearest_row`): the same rows, in the
same order, as numpy over every row would pick — so the headless bot built on them decides exactly
as before (its goldens are unchanged) — and bad arguments are `CoreArgumentError`s."""

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
def test_rows_within_are_numpys_rows_in_order(seed: int) -> None:
    rows = crowd(3000, seed)
    x, y, r = 1000.25, 999.5, 220.0
    d = np.hypot(rows[:, 0].astype(np.float64) - x, rows[:, 1].astype(np.float64) - y)
    got = _core.rows_within(rows, x, y, r)
    assert got.dtype == np.uint32 and list(got) == list(np.flatnonzero(d <= r))
    assert list(_core.rows_within(rows[:0], x, y, r)) == []


@pytest.mark.parametrize("seed", range(5))
def test_nearest_row_is_numpys_argmin_first_of_equals(seed: int) -> None:
    rows = crowd(3000, seed)
    x, y = 640.0, 360.0
    d = np.hypot(rows[:, 0].astype(np.float64) - x, rows[:, 1].astype(np.float64) - y)
    assert _core.nearest_row(rows, x, y) == int(d.argmin())
    assert _core.nearest_row(rows[:0], x, y) is None


def test_bad_arguments_are_refused_with_a_message() -> None:
    rows = crowd(10, 0)
    with pytest.raises(CoreArgumentError, match="radius"):
        _core.rows_within(rows, 0.0, 0.0, float("nan"))
    with pytest.raises(CoreArgumentError, match="x"):
        _core.nearest_row(rows, float("inf"), 0.0)
    with pytest.raises(CoreArgumentError, match="float32"):
        _core.rows_within(rows.astype(np.float64), 0.0, 0.0, 1.0)
    with pytest.raises(CoreArgumentError, match="2 columns"):
        _core.nearest_row(np.zeros((3, 1), dtype=np.float32), 0.0, 0.0)
