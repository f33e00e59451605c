"""`artificer stress --render`: the stress workload with the arena renderer
and the HUD drawing every frame under the current video driver (the dummy
driver headless), the camera on the player. Adds `render_ms` and
`frame_ms` (step + render + HUD) to the stress report, which path drew the
sprites (`renderer`: the core's rasterizer or pygame's fblits) and the
garbage collections that ran while frames were timed.

`--threads` sets the simulation's threads; the renderer runs as the game
runs it (`render.default_threads()`). `ARTIFICER_RENDERER=fblits` in the
environment draws with the fallback path instead, for comparison
(benches/README.md).
"""

from __future__ import annotations

import gc
import os
import time
from typing import Any

import numpy as np

from artificer.content import load_content
from artificer.sim import scene as workload
from artificer.sim.scene import make_scene
from artificer.sim.stress import CoreStepper, latency_summary

SCREEN = (1280, 720)


class _Collections:
    """Counts the garbage collector's runs per generation while `counting`."""

    def __init__(self) -> None:
        self.counting = False
        self.runs = [0, 0, 0]

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start" and self.counting:
            self.runs[info["generation"]] += 1


def run_render_stress(
    enemies: int, projectiles: int, frames: int, layout: str, seed: int, threads: int = 1
) -> dict[str, Any]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # stdout is the JSON report
    import pygame

    from artificer.ui.atlas import Atlas
    from artificer.ui.hud import Hud, HudState
    from artificer.ui.render import ArenaRenderer, Camera

    collections = _Collections()
    pygame.init()
    try:
        screen = pygame.display.set_mode(SCREEN)
        content = load_content()
        atlas = Atlas.build(content)
        renderer = ArenaRenderer(atlas, (workload.WORLD, workload.WORLD))
        if os.environ.get("ARTIFICER_RENDERER") == "fblits":  # the fallback path, for comparison
            renderer.rasterizer = None
        camera = Camera(SCREEN, arena=(workload.WORLD, workload.WORLD))
        hud = Hud(atlas.crystal)
        state = HudState()
        stepper = CoreStepper(make_scene(enemies, projectiles, layout, seed), threads)
        buffers = stepper.buffers
        step_ms: list[float] = []
        render_ms: list[float] = []
        drawn = 0
        gc.callbacks.append(collections)
        for frame in range(workload.WARMUP_FRAMES + frames):
            collections.counting = frame >= workload.WARMUP_FRAMES
            t0 = time.perf_counter_ns()
            stepper.step()
            t1 = time.perf_counter_ns()
            camera.follow(buffers.player_value("x"), buffers.player_value("y"), snap=True)
            drawn = renderer.draw(screen, buffers, camera)
            hud.draw(screen, buffers, state, (SCREEN[0] / 2, SCREEN[1] / 2))
            pygame.display.flip()
            t2 = time.perf_counter_ns()
            if frame >= workload.WARMUP_FRAMES:
                step_ms.append((t1 - t0) / 1e6)
                render_ms.append((t2 - t1) / 1e6)
        frame_ms = list(np.add(step_ms, render_ms))
        return {
            "enemies": enemies,
            "projectiles": projectiles,
            "layout": layout,
            "frames": frames,
            "threads": threads,
            "screen": list(SCREEN),
            "video_driver": pygame.display.get_driver(),
            "sprites_drawn_last_frame": drawn,
            "renderer": "fblits"
            if renderer.rasterizer is None
            else f"rasterizer ({renderer.rasterizer.threads} thread(s))",
            "gc_collections": dict(zip(("gen0", "gen1", "gen2"), collections.runs)),
            "step_ms": latency_summary(step_ms),
            "render_ms": latency_summary(render_ms),
            "frame_ms": latency_summary(frame_ms),
        }
    finally:
        if collections in gc.callbacks:
            gc.callbacks.remove(collections)
        pygame.quit()
