"""`artificer stress`: the standard stress workload (benches/README.md,
`artificer.sim.scene`) through the real `World.step`, frame buffers and all.

`CoreStepper` is also the core's entry in `benches/frame_vs_peers.py`, so
the core and its Python peers run from the very same initial state.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from artificer import _core
from artificer.content import load_content
from artificer.engine.frame import Capacity, FrameBuffers, FrameInput
from artificer.sim import scene as workload
from artificer.sim.scene import Scene, make_scene

TICK_HZ = 60

RULES = {
    "player_fixed": True,
    "player_invulnerable": True,
    "enemies_immortal": True,
    "respawn_spent_projectiles": True,
    "no_hit_memory": True,
}


def stress_config() -> dict[str, Any]:
    """The workload as core config: one enemy kind, a still and untouchable
    player at the centre, no pickups; the game's VM and status tuning from
    balance.json, with every status chance 0 (the workload applies no status)."""
    balance = load_content().balance.model_dump(mode="json")
    return {
        "arena": {"width": workload.WORLD, "height": workload.WORLD},
        "sim": {
            "tick_hz": TICK_HZ,
            "separation_strength": workload.SEPARATION,
            "separation_candidates": workload.SEPARATION_CANDIDATES,
            "grid_cells_per_entity": 2.0,
            "hit_events_per_frame": 0,
            "hit_flash_frames": 0,
        },
        "player": {
            "max_hp": 1.0,
            "radius": 1.0,
            "move_speed": 0.0,
            "armor": 0.0,
            "dash_speed": 0.0,
            "dash_duration": 0.0,
            "dash_cooldown": 0.0,
            "invulnerability": 0.0,
            "crit_chance": 0.0,
            "crit_multiplier": 1.0,
            "mana_max": 0.0,
            "mana_regen": 0.0,
            "mana_leech": 0.0,
            # The workload arms no wand, so auto-aim never looks; the game's reach keeps the key real.
            "auto_aim_range": balance["player"]["auto_aim_range"],
        },  # fmt: skip
        "pickups": {"pickup_radius": 0.0, "magnet_speed": 0.0, "collect_radius": 0.0, "radius": 1.0},
        "elite": {"hp_multiplier": 1.0, "reward_multiplier": 1.0},
        # The workload applies no status: vulnerable and weak change nothing (rust/sim/stress.rs too).
        "combat": {"vulnerable_multiplier": 1.0, "weak_multiplier": 1.0},
        "vm": balance["vm"],
        "statuses": {**balance["statuses"], "chance": {}},
        "turn": balance["turn"],
        "enemies": [
            {
                "id": "stress",
                "hp": 1.0e9,
                "speed": workload.CHASE * TICK_HZ,
                "radius": workload.ENEMY_RADIUS,
                "contact_damage": 0.0,
                "armor": 0.0,
                "reward": 0,
                "behavior": "chase",
            }
        ],  # fmt: skip
        "rules": RULES,
    }


class CoreStepper:
    """The core running a `Scene`: `step()` is one `World.step` through the
    frame contract and returns that frame's hits."""

    def __init__(self, scene: Scene, threads: int = 1) -> None:
        self.world = _core.World(stress_config(), scene.seed)
        self.world.set_threads(threads)
        self.world.set_player_position(workload.PLAYER_X, workload.PLAYER_Y)
        self.world.spawn_enemies(0, scene.enemy_x, scene.enemy_y)
        speed = np.float32(TICK_HZ)
        self.world.spawn_projectiles(
            scene.proj_x, scene.proj_y, scene.proj_vx * speed, scene.proj_vy * speed,
            workload.PROJECTILE_RADIUS, 1.0, workload.PIERCE - 1,
        )  # fmt: skip
        n = scene.enemies
        m = scene.projectiles
        self.input = FrameInput(1)
        self.buffers = FrameBuffers(Capacity(max(n, 1), max(m, 1), 1, 16))

    def step(self) -> int:
        return self.buffers.step(self.world, self.input).hits


def percentile(samples_ms: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(samples_ms), q))


def latency_summary(samples_ms: list[float]) -> dict[str, float]:
    """`{"median", "p90", "p99"}` of a list of times in ms, rounded (the tools' JSON shape); zeros when empty."""
    if not samples_ms:
        return {"median": 0.0, "p90": 0.0, "p99": 0.0}
    return {q: round(percentile(samples_ms, p), 4) for q, p in (("median", 50), ("p90", 90), ("p99", 99))}


def run_stress(enemies: int, projectiles: int, frames: int, layout: str, seed: int, threads: int = 1) -> dict[str, Any]:
    scene = make_scene(enemies, projectiles, layout, seed)
    stepper = CoreStepper(scene, threads)
    for _ in range(workload.WARMUP_FRAMES):
        stepper.step()
    times: list[float] = []
    hits = 0
    for _ in range(frames):
        t0 = time.perf_counter_ns()
        hits += stepper.step()
        times.append((time.perf_counter_ns() - t0) / 1e6)
    return {
        "enemies": enemies,
        "projectiles": projectiles,
        "layout": layout,
        "frames": frames,
        "threads": threads,
        "step_ms": latency_summary(times),
        "hits_per_frame": round(hits / max(frames, 1), 1),
    }
