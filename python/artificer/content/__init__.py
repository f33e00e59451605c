"""Game content: the validated models of the data files, their loader and checker.

`load_content()` reads balance.json, enemies.json and waves.json and returns a
`Content`, or raises `ContentError` listing every problem found.
"""

from __future__ import annotations

from artificer.content.loader import DEFAULT_DATA_DIR, Content, load_content
from artificer.content.models import (
    WAVE_COUNT,
    Arena,
    Balance,
    Behavior,
    Capacities,
    ContentError,
    DefaultWand,
    Element,
    Enemy,
    EnemyRoster,
    PickupSettings,
    PlayerStats,
    Problem,
    Sim,
    SpawnGroup,
    Wave,
    WaveSchedule,
    WaveTiming,
)

__all__ = [
    "DEFAULT_DATA_DIR",
    "WAVE_COUNT",
    "Arena",
    "Balance",
    "Behavior",
    "Capacities",
    "Content",
    "ContentError",
    "DefaultWand",
    "Element",
    "Enemy",
    "EnemyRoster",
    "PickupSettings",
    "PlayerStats",
    "Problem",
    "Sim",
    "SpawnGroup",
    "Wave",
    "WaveSchedule",
    "WaveTiming",
    "load_content",
]
