"""The training range on screen (R-LAB-1): the wand as it is in the lab,
firing at immortal dummies, with a live DPS number and a 0.1× slow motion
that lights up the card the VM is running.

This module owns `TrainingScene`. The range itself is `game.training.
TrainingRange` (the real `world.step` with the range's rules) armed with the
VM trace on: every node the VM runs arrives as a TRACE event (node, mana
before, mana after) and `diagnostics["node_slots"]` maps a node to its board
slot. A whole cast runs inside one sim frame, so in slow motion the scene
plays a cast's trace back one node at a time (`NODE_SECONDS` each) and holds
the sim until the playback is done; then the shots fly at a tenth of the
speed. Casts walk the board as a deck (R-VM-3), so each cast names the next
cards: its nodes queue behind whatever is still playing, none is dropped,
and over successive casts the light walks every card that fires. Slots no
cast reaches are greyed as in the lab (R-VM-3c). At full speed every node of the latest cast flashes. S toggles slow
motion, Esc (or Backspace) goes back to the lab: the range context's bindings.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

import numpy as np
import pygame

from artificer.content import Content
from artificer.game.report import FrameReport
from artificer.game.training import TrainingRange
from artificer.ui.atlas import Atlas
from artificer.ui.cards import MANA_TEXT, BoardGeometry, CardArt
from artificer.ui.controls import Controls
from artificer.ui.fonts import font
from artificer.ui.i18n import tr
from artificer.ui.render import ArenaRenderer, Camera
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.settings import Action, Context, Settings, key_hint
from artificer.ui.widgets import Button, panel

SLOW_FACTOR = 0.1
#: Real seconds each traced node stays lit during slow-motion playback.
NODE_SECONDS = 0.18
#: Seconds of sim time the DPS number averages over.
DPS_WINDOW_SECONDS = 3.0
#: At full speed, a cast's nodes stay lit this long.
FLASH_SECONDS = 0.15
HIGHLIGHT = (255, 236, 120)
TEXT = (220, 216, 240)
DPS_COLOUR = (255, 200, 120)
BACKGROUND = (12, 10, 22)


class TrainingScene(Scene):
    """Dummies, live DPS, slow motion with the running node lit (R-LAB-1)."""

    def __init__(
        self,
        content: Content,
        core_id: str,
        cards: Sequence[str | None],
        seed: int = 0,
        controls: Controls | None = None,
    ) -> None:
        """`controls`: the keys (the range's context of the bindings); None: the default bindings."""
        self.content = content
        self.controls = controls if controls is not None else Controls(Settings())
        self.core_id = core_id
        self.cards = list(cards)
        self.range = TrainingRange(content, core_id, cards, seed=seed, trace=True)
        self.node_slots: list[int] = [int(s) for s in self.range.diagnostics["node_slots"]]
        #: R-VM-3c: slots no cast reaches, greyed here as in the lab.
        self.unreachable = frozenset(int(s) for s in self.range.diagnostics.get("unreachable_slots", []))
        self.slow = False
        self._slow_clock = 0.0
        self.pending: deque[tuple[int, float, float]] = deque()  # (slot, mana before, mana after)
        self.lit: set[int] = set()
        self.lit_mana: tuple[float, float] | None = None
        self._lit_left = 0.0
        self.frames = 0
        self.total_damage = 0.0
        self._window: deque[float] = deque(maxlen=max(1, round(DPS_WINDOW_SECONDS * self.range.sim.tick_hz)))
        self.stack: SceneStack | None = None
        self.renderer: ArenaRenderer | None = None
        self.camera: Camera | None = None
        self.art = CardArt(content)
        self.mouse = (0, 0)
        self.slow_button = Button(pygame.Rect(0, 0, 0, 0), tr("ui.training.slow_motion"), "S")
        self.back_button = Button(pygame.Rect(0, 0, 0, 0), tr("ui.training.back"), "Esc")

    # ---- lifecycle ---------------------------------------------------------
    def on_enter(self, stack: SceneStack) -> None:
        self.stack = stack
        arena = (self.content.balance.arena.width, self.content.balance.arena.height)
        self.renderer = ArenaRenderer(Atlas.build(self.content), arena)

    # ---- input -------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if event.type == pygame.KEYDOWN:
            action = self.controls.pressed(event, Context.TRAINING)
            if action is Action.SLOW_MOTION:
                self.toggle_slow()
            elif action is Action.BACK:
                self._back()
            else:
                return event
            return None
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.slow_button.contains(event.pos):
                self.toggle_slow()
            elif self.back_button.contains(event.pos):
                self._back()
            return None
        return event

    def toggle_slow(self) -> None:
        self.slow = not self.slow
        self.pending.clear()
        self._slow_clock = 0.0

    def _back(self) -> None:
        if self.stack is not None:
            self.stack.pop()

    # ---- simulation --------------------------------------------------------
    @property
    def dps(self) -> float:
        """Damage per second over the last `DPS_WINDOW_SECONDS` of range time."""
        if not self._window:
            return 0.0
        return sum(self._window) * self.range.sim.tick_hz / len(self._window)

    def update(self, dt: float) -> None:
        self._lit_left -= dt
        if self.slow:
            if self.pending:
                self._lit_left = min(self._lit_left, NODE_SECONDS)
                if self._lit_left <= 0:
                    slot, before, after = self.pending.popleft()
                    self.lit = {slot}
                    self.lit_mana = (before, after)
                    self._lit_left = NODE_SECONDS
                return  # the sim waits while a cast plays back
            self._slow_clock += SLOW_FACTOR
            if self._slow_clock < 1.0:
                if self._lit_left <= 0:
                    self.lit = set()
                return
            self._slow_clock -= 1.0
        elif self._lit_left <= 0:
            self.lit = set()
        self._step()

    def _step(self) -> None:
        sim = self.range.sim
        counts = sim.step()
        self.frames += 1
        self.total_damage += counts.damage_dealt
        self._window.append(counts.damage_dealt)
        trace = FrameReport.of(sim.buffers.event_rows()).trace
        if not len(trace):
            return
        steps = [
            (self._slot_of(int(node)), float(before), float(after))
            for node, before, after in zip(trace.nodes, trace.mana_before, trace.mana_after, strict=True)
        ]
        if self.slow:
            self.pending.extend(steps)
        else:
            self.lit = {slot for slot, _, _ in steps if slot >= 0}
            self.lit_mana = steps[-1][1:]
            self._lit_left = FLASH_SECONDS

    def _slot_of(self, node: int) -> int:
        return self.node_slots[node] if 0 <= node < len(self.node_slots) else -1

    # ---- drawing -----------------------------------------------------------
    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        assert self.renderer is not None
        w, h = surface.get_size()
        surface.fill(BACKGROUND)
        view = pygame.Rect(0, 0, w, int(h * 0.46))
        if self.camera is None or self.camera.screen != view.size:
            self.camera = Camera(view.size)
        buffers = self.range.sim.buffers
        # Centre between the player and the dummy line.
        px, py = buffers.player_value("x"), buffers.player_value("y")
        self.camera.follow(px + self.content.balance.training_range.distance / 2, py, snap=True)
        self.renderer.draw(surface.subsurface(view), buffers, self.camera)

        title = font(26, bold=True).render(tr("ui.training.title"), True, (242, 214, 140))
        surface.blit(title, (20, 14))
        dps = font(44, bold=True).render(tr("ui.training.dps", dps=self.dps), True, DPS_COLOUR)
        surface.blit(dps, dps.get_rect(topright=(w - 24, 10)))
        seconds = self.frames / self.range.sim.tick_hz
        average = self.total_damage / seconds if seconds > 0 else 0.0
        sub = font(18).render(tr("ui.training.average", dps=average, seconds=seconds), True, TEXT)
        surface.blit(sub, sub.get_rect(topright=(w - 24, 62)))
        mana = buffers.player_value("mana")
        mana_text = font(18).render(tr("ui.training.mana", mana=mana), True, MANA_TEXT)
        surface.blit(mana_text, mana_text.get_rect(topright=(w - 24, 86)))
        if self.slow:
            badge = font(22, bold=True).render(tr("ui.training.slow_badge"), True, HIGHLIGHT)
            surface.blit(badge, (20, 48))

        board_area = pygame.Rect(16, view.bottom + 10, w - 32, h - view.bottom - 84)
        # The lab may test a core that is not the active one: the range names the core it fires.
        panel(surface, board_area, tr("ui.training.board", core=tr(self.content.core(self.core_id).name_key)))
        geometry = BoardGeometry.fit(
            self.content.core(self.core_id).layout(), board_area.inflate(-40, -50).move(0, 12), max_cell=120
        )
        geometry.draw_furniture(surface)
        geometry.draw_slots(surface, self.cards, self.art, unreachable=self.unreachable)
        glow = 0.6 + 0.4 * float(np.sin(pygame.time.get_ticks() / 90.0))
        for slot in self.lit:
            if 0 <= slot < len(geometry.slots):
                # A halo and a pulsing frame: the running card must read at a glance.
                halo_rect = geometry.slots[slot].inflate(20, 20)
                halo = pygame.Surface(halo_rect.size, pygame.SRCALPHA)
                pygame.draw.rect(halo, (*HIGHLIGHT, int(60 + 50 * glow)), halo.get_rect(), border_radius=14)
                surface.blit(halo, halo_rect)
                card = self.cards[slot] if slot < len(self.cards) else None
                if card is not None:  # the card over its halo
                    surface.blit(self.art.image(card, geometry.slots[slot].size), geometry.slots[slot])
                rect = geometry.slots[slot].inflate(8, 8)
                pygame.draw.rect(surface, HIGHLIGHT, rect, max(3, int(5 * glow)), border_radius=10)
        if self.lit_mana is not None and self.slow and self.lit:
            before, after = self.lit_mana
            line = font(18).render(tr("ui.training.node_mana", before=before, after=after), True, MANA_TEXT)
            surface.blit(line, (board_area.x + 14, board_area.bottom - 28))

        self.slow_button.rect = pygame.Rect(w - 260, h - 64, 236, 48)
        self.back_button.rect = pygame.Rect(24, h - 64, 250, 48)
        self.slow_button.label = tr("ui.training.normal_speed" if self.slow else "ui.training.slow_motion")
        self.slow_button.hint = key_hint(self.controls.settings.key_for(Action.SLOW_MOTION))
        self.back_button.hint = key_hint(self.controls.settings.key_for(Action.BACK))
        self.slow_button.draw(surface, self.mouse)
        self.back_button.draw(surface, self.mouse)
