"""The bridge to the core: frame buffers, frame input, event decoding.

Game flow talks to the Rust core only through here: one `Simulation.step()`
per 60 Hz tick, numpy arrays in and out, no Python object per entity.
"""

from __future__ import annotations

from artificer.engine.events import Event, EventKind
from artificer.engine.frame import FrameBuffers, FrameInput, Op, Status, StepCounts
from artificer.engine.simulation import Simulation, WorldMode, world_config

__all__ = [
    "Event",
    "EventKind",
    "FrameBuffers",
    "FrameInput",
    "Op",
    "Simulation",
    "Status",
    "StepCounts",
    "WorldMode",
    "world_config",
]
