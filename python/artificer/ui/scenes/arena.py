"""The arena (DESIGN §7, R-LOOP-2): waves of a run played with the keyboard
(WASD / arrows to move, Space to dash; the wand fires by itself at the
nearest enemy), drawn from the frame buffers, with the HUD; Esc or losing
focus pauses. After a cleared wave, a short breather shows the result, then
the `intermission(stack, run, next_wave)` callback pushes the scenes between
waves (the shop and its lab); when they pop, the arena resumes with the next
wave. Death or the last wave shows the run summary.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import numpy.typing as npt
import pygame

from artificer.content import Content
from artificer.engine import EventKind
from artificer.engine import events as ev
from artificer.game.run import Run, WaveInProgress
from artificer.ui.atlas import Atlas
from artificer.ui.hud import Hud, HudState
from artificer.ui.i18n import tr
from artificer.ui.render import ArenaRenderer, Camera
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.scenes.summary import SummaryScene

MOVE_KEYS = {
    pygame.K_a: (-1, 0), pygame.K_LEFT: (-1, 0), pygame.K_d: (1, 0), pygame.K_RIGHT: (1, 0),
    pygame.K_w: (0, -1), pygame.K_UP: (0, -1), pygame.K_s: (0, 1), pygame.K_DOWN: (0, 1),
}  # fmt: skip
DASH_KEYS = (pygame.K_SPACE,)
BREATHER_SECONDS = 2.0


Intermission = Callable[[SceneStack, Run, int], None]


class ArenaScene(Scene):
    def __init__(
        self,
        content: Content,
        seed: int = 0,
        on_quit: Callable[[SceneStack], None] | None = None,
        *,
        run: Run | None = None,
        intermission: Intermission | None = None,
        first_wave: int = 1,
    ) -> None:
        """Plays `run` (a new one from `seed` if None) from `first_wave`; `intermission(stack, run,
        next_wave)` pushes the between-waves scenes (None: the next wave follows the breather)."""
        self.content = content
        self.run = run if run is not None else Run(content, seed)
        self.on_quit = on_quit
        self.intermission = intermission
        self.between_waves = False
        self.number = first_wave
        self.wave: WaveInProgress | None = None
        self.hud_state = HudState()
        charges = [s.action.charge.still_seconds for s in content.spells if s.action is not None and s.action.charge]
        if charges:
            self.hud_state.charge_span = max(0.0, min(charges) - content.balance.vm.charge_ring_delay)
        self.breather = 0.0
        self.dash_pressed = False
        self.held: set[int] = set()
        self.stack: SceneStack | None = None
        self.renderer: ArenaRenderer | None = None
        self.camera: Camera | None = None
        self.hud: Hud | None = None

    # ---- lifecycle -------------------------------------------------------
    def on_enter(self, stack: SceneStack) -> None:
        self.stack = stack
        screen = pygame.display.get_surface()
        size = screen.get_size() if screen is not None else (1280, 720)
        arena = (self.content.balance.arena.width, self.content.balance.arena.height)
        atlas = Atlas.build(self.content)
        self.renderer = ArenaRenderer(atlas, arena)
        self.camera = Camera(size)
        self.camera.follow(arena[0] / 2, arena[1] / 2, snap=True)
        self.hud = Hud(pygame.font.Font(None, 30), pygame.font.Font(None, 22), atlas.crystal)
        self._start_wave()

    def on_resume(self) -> None:
        if not self.between_waves or self.stack is None:
            return
        # The shop (and lab) popped: the next wave begins — unless the wand cannot fire (R-VM-2).
        if not self.run.diagnostics["can_fire"] and self.intermission is not None:
            self.hud_state.toast(tr("ui.lab.cannot_fire"))
            self.intermission(self.stack, self.run, self.number)
            return
        self.between_waves = False
        self._start_wave()

    def on_focus_lost(self) -> None:
        self._pause()

    # ---- input -------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self._pause()
                return None
            if event.key in DASH_KEYS:
                self.dash_pressed = True
                return None
            if event.key in MOVE_KEYS:
                self.held.add(event.key)
                return None
        if event.type == pygame.KEYUP and event.key in MOVE_KEYS:
            self.held.discard(event.key)
            return None
        return event

    # ---- simulation --------------------------------------------------------
    def update(self, dt: float) -> None:
        if self.wave is None:
            self.hud_state.tick(dt)
            self.breather -= dt
            if self.breather <= 0 and not self.between_waves:
                if self.intermission is not None and self.stack is not None:
                    self.between_waves = True
                    self.intermission(self.stack, self.run, self.number)
                else:
                    self._start_wave()
            return
        sim = self.run.sim
        mx = sum(MOVE_KEYS[k][0] for k in self.held)
        my = sum(MOVE_KEYS[k][1] for k in self.held)
        sim.input.move(float(mx), float(my))
        if self.dash_pressed:
            sim.input.dash()
            self.dash_pressed = False
        self.wave.step()
        self._react(sim.buffers.event_rows())
        self.hud_state.tick(dt)
        self.hud_state.seconds_left = self.wave.seconds_left
        assert self.camera is not None
        self.camera.follow(sim.buffers.player_value("x"), sim.buffers.player_value("y"))
        if self.wave.over:
            self._end_wave()

    def _react(self, events: npt.NDArray[np.float64]) -> None:
        self.hud_state.currency = self.run.currency + (self.wave.stats.currency if self.wave else 0)
        charge = events[events[:, 0] == EventKind.CHARGE_STATE_CHANGED]
        if len(charge):
            self.hud_state.charge = int(charge[-1][1])
            self.hud_state.charge_since = 0.0
        out_of_mana = tr("ui.arena.out_of_mana")
        if ev.count(events, EventKind.CAST_ABANDONED) and not any(t == out_of_mana for t, _ in self.hud_state.toasts):
            self.hud_state.toast(tr("ui.arena.out_of_mana"))

    def _start_wave(self) -> None:
        self.wave = self.run.start_wave(self.number)
        self.hud_state.wave = self.number
        self.hud_state.toast(tr("ui.arena.wave", wave=self.number))

    def _end_wave(self) -> None:
        assert self.wave is not None and self.stack is not None
        stats = self.wave.finish()
        died = self.wave.died
        self.wave = None
        if died or self.number >= len(self.content.waves):
            self.stack.push(SummaryScene(self.run, died, self.on_quit))
            return
        self.hud_state.toast(tr("ui.arena.wave_cleared", wave=stats.wave, kills=stats.kills, gold=stats.currency))
        self.number += 1
        self.breather = BREATHER_SECONDS

    def _pause(self) -> None:
        if self.stack is not None and self.stack.top is self:
            self.stack.push(PauseScene(self, self.on_quit))

    # ---- drawing -----------------------------------------------------------
    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        assert self.renderer is not None and self.camera is not None and self.hud is not None
        if self.camera.screen != surface.get_size():
            self.camera.screen = surface.get_size()
        buffers = self.run.sim.buffers
        self.renderer.draw(surface, buffers, self.camera)
        ox, oy = self.camera.offset
        at = (buffers.player_value("x") + ox, buffers.player_value("y") + oy)
        self.hud.draw(surface, buffers, self.hud_state, at)


class PauseScene(Scene):
    """Esc / focus loss (DESIGN §7): resume, or abandon the run."""

    transparent = True

    def __init__(self, arena: ArenaScene, on_quit: Callable[[SceneStack], None] | None) -> None:
        self.arena = arena
        self.on_quit = on_quit
        self.choice = 0
        self.options = (tr("ui.pause.resume"), tr("ui.pause.abandon"))
        self.stack: SceneStack | None = None

    def on_enter(self, stack: SceneStack) -> None:
        self.stack = stack
        self.font = pygame.font.Font(None, 48)

    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if event.type != pygame.KEYDOWN or self.stack is None:
            return event
        if event.key == pygame.K_ESCAPE:
            self.stack.pop()
        elif event.key in (pygame.K_UP, pygame.K_w, pygame.K_DOWN, pygame.K_s):
            self.choice = 1 - self.choice
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            if self.choice == 0:
                self.stack.pop()
            else:
                self.stack.pop()
                self.stack.push(SummaryScene(self.arena.run, True, self.on_quit, abandoned=True))
        return None

    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        surface.blit(shade, (0, 0))
        w, h = surface.get_size()
        title = self.font.render(tr("ui.pause.title"), True, (240, 240, 250))
        surface.blit(title, (w / 2 - title.get_width() / 2, h / 2 - 120))
        for i, text in enumerate(self.options):
            colour = (255, 215, 0) if i == self.choice else (200, 200, 210)
            img = self.font.render(text, True, colour)
            surface.blit(img, (w / 2 - img.get_width() / 2, h / 2 - 30 + 60 * i))
