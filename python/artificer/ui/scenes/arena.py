"""The arena (DESIGN §7, R-LOOP-2): waves of a run played with the keyboard
or a gamepad through the session's `Controls` (WASD / arrows / stick to
move, Space / A to dash — rebindable; the wand fires by itself at the
nearest enemy), drawn from the frame buffers, with the HUD, juice, relic
flashes and sound effects from each step's `FrameReport` (artificer.game.report:
the events decoded once); the pause action or losing focus pauses.

The run's loop is `artificer.game.flow.RunFlow`'s, the one the headless runner
drives too: the arena begins a wave (`begin_wave`), steps it once per tick
(`step`) and ends it (`end_wave`). After a cleared wave, a short breather shows
the result, then the `intermission(stack, flow)` callback pushes the scenes
between waves (the shop and its lab: `open_shop`, and `leave_shop`, which
begins the next wave); when they pop, the arena plays the wave the flow began.
An arena without an intermission (tests) goes through the flow's shop unseen.
Death or the last wave (the flow's `ending`) shows the run summary; Abandon
ends the flow too. Last Will (R-END-1)
spent by a lethal hit shows a toast, plays its sound and flashes the screen
once; while it is armed the HUD marks it beside the HP bar.

Potions (R-POT-1/2, `artificer.ui.potion_belt`): the belt's five slots sit at
the top right; a click on a slot, its key (1–5) or the gamepad's Y (again:
the next potion) opens its Use / Discard / Close menu (the mouse, the same key
again to drink, d-pad left/right and A, B or Esc to close); a hovered slot
shows its tooltip. A targeted potion aims at the enemy nearest the last place
the cursor pointed in the world (the player with a gamepad). A won wave's
potion, or the full belt that missed it, is toasted.

Relics (R-REL-4, `artificer.ui.relic_row`): the row of owned relics sits
under the HP/mana box (hover a slot for its tooltip); a relic a won wave
awards is toasted ("Relic found"), as is the gold given instead when every
relic is owned; a relic rule of the core acting (a RELIC event) flashes its
slot — no toast.

A boss's volleys are telegraphed (R-BOSS-3, `artificer.ui.telegraphs`): each wind-up the boss
status reports is drawn over the world, under the player — a barrage's lines toward its locked
aim, a ring's growing circle and spokes — filling as the wind-up runs out.

Juice (R-FEEL-1, `artificer.ui.effects.Juice`): kill bursts, explosion rings,
the dash trail and cooldown bar, the shield ring while invulnerable, the hurt
flash and the low-HP vignette and heartbeat. A won wave's crystals fly to the
player under a "Wave N cleared" banner (its kills and gold) with its sound;
the wave's number otherwise shows once, on the HUD's timer. Death is a
moment: the frame freezes, dims and bursts at the player for
`effects.DEATH_SECONDS` before the summary. The potion menu closes when a
wave ends. The pause menu is a side panel on the side away from the player.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import pygame

from artificer.content import Content
from artificer.content.roster import roster
from artificer.engine import Simulation
from artificer.engine.frame import PickupColumn
from artificer.game.codex import Codex, Discoveries
from artificer.game.endless import mutator
from artificer.game.flow import Ending, Phase, RunFlow
from artificer.game.meta import Section, load_meta
from artificer.game.onboarding import Onboarding, lesson_tip
from artificer.game.replay import Pilot, ReplayError
from artificer.game.report import FrameReport
from artificer.game.run import Run, WaveInProgress, WaveStats
from artificer.ui.atlas import Atlas
from artificer.ui.effects import Juice, fitted
from artificer.ui.hud import BOSS_ENRAGED_COLOUR, HUD_BOTTOM_BAND, TOAST_GAP, BossBar, Hud, HudState, toast_pills
from artificer.ui.i18n import tr
from artificer.ui.palette import COLOUR_BLIND
from artificer.ui.potion_belt import PotionBeltView, drink, throw_away
from artificer.ui.relic_row import RelicRowView
from artificer.ui.render import ArenaRenderer, Camera
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.scenes.menu import MenuScene
from artificer.ui.scenes.summary import SummaryScene
from artificer.ui.session import Session
from artificer.ui.settings import POTION_ACTIONS, Action, AimMode, Context, key_hint, key_label
from artificer.ui.stat_sheet import open_stat_sheet
from artificer.ui.telegraphs import TELEGRAPH_COLOUR, WindUp, draw_wind_ups, wind_ups
from artificer.ui.tips import show_once

#: Screen shake when the player is hurt: pixels at full strength (× the shake setting), decay per second.
SHAKE_PIXELS = 9.0
SHAKE_DECAY = 3.0
#: R-FEEL-1: px the view may pass a side wall, so a player at the wall is drawn whole (its sprite
#: and ring are wider than its body, which the wall stops).
SIDE_WALL_MARGIN = 24.0
#: R-END-1 Last Will spent: a warm flash over the arena, its peak opacity (0..255) and decay per second (~0.4 s).
FLASH_COLOUR = (255, 214, 150)
FLASH_ALPHA = 110
FLASH_DECAY = 2.5


def frame_sounds(report: FrameReport) -> list[str]:
    """The sound effects a step's report asks for, in this order: a cast fired, a hit, a kill, a
    pickup (the bank rate-limits each, so a frame of 1,000 hits plays one)."""
    happened = (report.casts_fired > 0, len(report.hits) > 0, len(report.kills) > 0, report.pickups > 0)
    return [sound for sound, heard in zip(("cast", "hit", "kill", "pickup"), happened, strict=True) if heard]


#: The pause menu's side panel (it never covers the player): width, margin from the window's edge,
#: the pitch of its items, the dim over the arena (light: the fight stays readable) and its colours.
#: R-BOSS-2: the boss warning banner's title colour (the wave-clear banner's is gold).
BOSS_WARNING_COLOUR = (255, 110, 90)
#: A boss's new phase, announced in gold (its hyper-enrage in the boss bar's enraged red).
BOSS_PHASE_COLOUR = (250, 204, 110)

PAUSE_PANEL_WIDTH = 340
PAUSE_PANEL_MARGIN = 40
PAUSE_ITEM_PITCH = 58
PAUSE_DIM = 90
PAUSE_FILL = (18, 16, 30)
PAUSE_EDGE = (120, 108, 170)

#: Between waves: `intermission(stack, flow)` pushes the shop (its lab one click away) for `flow`'s next wave.
Intermission = Callable[[SceneStack, RunFlow], None]


#: The HUD tags of a run's modes: practice (R-END-5), cursed waves (R-META-1), New Game+ (R-END-2).
PRACTICE_TAG = (255, 200, 110)
CURSED_TAG = (230, 90, 110)
NG_PLUS_TAG = (242, 214, 140)
ENDLESS_TAG = (140, 200, 255)
#: Issue 19: a replay being watched (`play --replay`).
REPLAY_TAG = (150, 240, 170)
#: R-END-3: a mutator's tag and banner colour, and each mutator's name and explanation.
MUTATOR_TAG = (255, 120, 200)
#: The mutators' texts are named by their ids (content.models.MutatorId).
I18N_DYNAMIC_PREFIXES: tuple[str, ...] = ("mutator.",)
MUTATOR_KEYS = {
    name: (f"mutator.{name}.name", f"mutator.{name}.description")
    for name in ("elite_flood", "mirror_world", "splitting", "shrinking_map", "mana_inversion")
}


def mutator_line(content: Content, mutator_id: str, arena_scale: float) -> str:
    """R-END-3: mutator `mutator_id`'s one-line explanation with its numbers (balance.json)."""
    rules, elite = content.balance.endless.mutators, content.balance.elite
    values = {
        "hp": f"{elite.hp_multiplier:g}",
        "reward": f"{elite.reward_multiplier:g}",
        "percent": f"{arena_scale * 100:.0f}",
    }
    if mutator_id == "splitting":
        values.update(count=str(rules.splitting.count), hp=f"{rules.splitting.hp * 100:.0f}")
    return tr(MUTATOR_KEYS[mutator_id][1], **values)


#: R-META-2: the codex sections whose first meetings toast in the arena, and their line.
TOASTED_SECTIONS = {
    Section.ENEMIES: "ui.codex.new_enemy",
    Section.BOSSES: "ui.codex.new_enemy",
    Section.REACTIONS: "ui.codex.new_reaction",
    Section.RECIPES: "ui.codex.new_recipe",
}


def mode_tags(run: Run, watching: bool = False) -> tuple[tuple[str, tuple[int, int, int]], ...]:
    """The run's modes as the HUD shows them beside the wave timer (none: the game as it ships);
    `watching`: a replay (`play --replay`), tagged first."""
    state = run.state
    tags = [(tr("ui.hud.mode.replay"), REPLAY_TAG)] if watching else []
    tags += [(tr("ui.hud.mode.practice"), PRACTICE_TAG)] if state.practice else []
    tags += [(tr("ui.hud.mode.cursed"), CURSED_TAG)] if state.cursed else []
    tags += [(tr("ui.hud.mode.ng_plus", level=state.ng_plus), NG_PLUS_TAG)] if state.ng_plus else []
    tags += [(tr("ui.hud.mode.endless"), ENDLESS_TAG)] if state.endless else []
    return tuple(tags)


class ArenaScene(Scene):
    #: The music track the scene stack plays while the arena is on top.
    music = "wave"

    def __init__(
        self,
        content: Content,
        seed: int = 0,
        on_quit: Callable[[SceneStack], None] | None = None,
        *,
        run: Run | None = None,
        intermission: Intermission | None = None,
        first_wave: int = 1,
        session: Session | None = None,
        resume_between_waves: bool = False,
        flow: RunFlow | None = None,
        on_endless: Callable[[SceneStack, Run], None] | None = None,
        pilot: Pilot | None = None,
    ) -> None:
        """`pilot` (`play --replay`): watches a replay — the tape steers, the player only pauses or
        leaves; nothing is saved, recorded or counted, and the title comes back when the tape ends.
        Plays `flow` (None: a flow over `run`, a new one from `seed` if None, from `first_wave`);
        `intermission(stack, flow)` pushes the between-waves scenes (None: the next wave follows
        the breather). `resume_between_waves` (a saved run continued): enter between waves, so
        the intermission comes before `first_wave`. `on_endless(stack, run)`: R-END-3, the victory
        summary's "go on into endless" (None: not offered)."""
        self.on_endless = on_endless
        self.content = content
        self.session = session if session is not None else Session.default()
        self.pilot = pilot
        #: Watching: the tape is over (or refused a move); the title comes back after the breather.
        self.replay_over = False
        if flow is None and pilot is not None:
            flow = pilot.flow
        if flow is None:
            played = run if run is not None else Run(content, seed)
            flow = (
                RunFlow.continued(played, first_wave)
                if resume_between_waves
                else RunFlow(played, first_wave=first_wave)
            )
        self.flow = flow
        self.run = flow.run
        self.on_quit = on_quit
        self.intermission = intermission
        self.between_waves = False
        #: The flow's wave while one is played, else None.
        self.wave: WaveInProgress | None = None
        self.hud_state = HudState(show_damage_numbers=self.session.settings.damage_numbers)
        self.hud_state.roster = [(tr(kind.name_key), kind.hp) for kind in roster(content)]
        self.hud_state.modes = mode_tags(self.run, watching=pilot is not None)
        #: R-ONB-1: the run's onboarding step's limits and lesson.
        self.onboarding = Onboarding.of(content, self.run.state.onboarding)
        #: R-META-2: what this run shows the player for the first time (None: practice records nothing).
        self.discoveries = (
            None if self.run.state.practice or pilot else Discoveries(content, load_meta(content=content).meta)
        )
        charges = [s.action.charge.still_seconds for s in content.spells if s.action is not None and s.action.charge]
        if charges:
            self.hud_state.charge_span = max(0.0, min(charges) - content.balance.vm.charge_ring_delay)
        self.breather = 0.0
        self.dash_pressed = False
        #: Camera x, y and player x, y after the step before the last (for interpolated drawing).
        self._previous: tuple[float, float, float, float] | None = None
        self.shake = 0.0
        #: The Last Will flash, 1 when spent, fading to 0.
        self.flash = 0.0
        self._jitter = random.Random(seed)  # presentation only: never touches the sim
        self.stack: SceneStack | None = None
        self.renderer: ArenaRenderer | None = None
        self.camera: Camera | None = None
        #: The boss last announced: (its kind, its place in a boss rush) — a rush's next one is announced too.
        self._announced_boss: tuple[int, int] = (-1, 0)
        self.hud: Hud | None = None
        self.juice: Juice | None = None
        #: The gold the HUD showed as the wave ended (it climbs to the run's as crystals land).
        self._gold_before = self.run.currency
        #: R-FEEL-1 death moment: the player fell and the summary waits for the moment to pass.
        self.dying = False
        #: The last wave was won: the summary follows its clear's moment (the breather).
        self.victory = False
        self.resume_between_waves = resume_between_waves
        #: R-POT-2: the belt's slots, tooltip and menu; where the cursor last pointed in the world (screen).
        self.potion_view = PotionBeltView()
        #: R-REL-4: the relic row under the HP/mana box (its top: the box's bottom, 86, + 8).
        self.relic_view = RelicRowView((12, 94), show_empty=False)
        self.mouse: tuple[int, int] = (-1, -1)
        #: R-BOSS-3: the volleys the bosses are winding up, as the last step left them, and each boss
        #: kind's (radius, shot reach) in px, where a telegraph's ring and lines begin and end.
        self.telegraphs: tuple[WindUp, ...] = ()
        self._boss_bodies = {
            index: (kind.boss.body.radius, kind.boss.shot.speed * kind.boss.shot.lifetime)
            for index, kind in enumerate(roster(content))
            if kind.boss is not None
        }
        #: Where the player was last drawn (screen px): the pause panel opens on the other side.
        self.player_at: tuple[float, float] | None = None
        self.aim_point: tuple[int, int] | None = None

    # ---- lifecycle -------------------------------------------------------
    def on_enter(self, stack: SceneStack) -> None:
        self.stack = stack
        screen = pygame.display.get_surface()
        size = screen.get_size() if screen is not None else (1280, 720)
        arena = self.run.sim.arena  # R-END-3: an endless wave's may be shrunk
        self._colour_blind = self.session.settings.colour_blind
        atlas = Atlas.build(self.content, COLOUR_BLIND if self._colour_blind else None)
        self.renderer = ArenaRenderer(atlas, arena)
        # R-FEEL-1: the view stays inside the arena but for the HUD's bands: the top one (the HP box,
        # relic row, timer, gold and potions) above the top wall and the bottom one (the boss's or an
        # elite's bar) below the bottom wall, so nothing at a wall hides under them; and a sliver past
        # the side walls (at least the walls, which stand outside the edge), so a player there is not
        # cut by the screen's edge.
        top_band = float(self.relic_view.rect.bottom + 8)
        side = max(SIDE_WALL_MARGIN, float(atlas.floor.wall_width))
        margins = (side, top_band, side, float(HUD_BOTTOM_BAND))
        self.camera = Camera(size, arena=arena, margins=margins)
        self.camera.follow(arena[0] / 2, arena[1] / 2, snap=True)
        self.hud = Hud(atlas.crystal)
        self.juice = self._juice(atlas)
        self.hud_state.last_will = self.run.sim.world.last_will
        if self.resume_between_waves and self.intermission is not None:
            self.between_waves = True
            self.camera.follow(*self.run.sim.world.player_position(), snap=True)
            self.intermission(stack, self.flow)
            return
        self._start_wave()

    @property
    def number(self) -> int:
        """The wave being played, or the one played next (the flow's)."""
        return self.flow.number

    def on_resume(self) -> None:
        if self.session.settings.colour_blind != self._colour_blind and self.renderer is not None:
            # The colour-blind palette was switched in the settings: redraw the sprites.
            self._colour_blind = self.session.settings.colour_blind
            atlas = Atlas.build(self.content, COLOUR_BLIND if self._colour_blind else None)
            self.renderer = ArenaRenderer(atlas, self.renderer.arena)
            self.hud = Hud(atlas.crystal)
            self.juice = self._juice(atlas)
        if not self.between_waves or self.stack is None:
            return
        # The shop (and lab) popped: leaving the shop began the next wave — unless the wand
        # cannot fire (R-VM-2), when the shop comes back.
        if self.flow.phase is not Phase.WAVE and not self.run.diagnostics["can_fire"] and self.intermission is not None:
            self.hud_state.toast(tr("ui.lab.cannot_fire"))
            self.intermission(self.stack, self.flow)
            return
        self.between_waves = False
        # Keys let go in the shop never reached the arena: nothing is held as the next wave begins
        # (else a key released in the shop steers the whole wave).
        self.session.controls.release_all()
        self._start_wave()

    def _steer(self, sim: Simulation) -> None:
        """The player's controls into this step's input: movement, the mouse's aim, a dash pressed."""
        sim.input.move(*self.session.controls.movement())
        if (
            self.session.settings.aim_mode == AimMode.MOUSE
            and pygame.mouse.get_focused()
            and self.camera is not None
            and not self.session.controls.gamepads
        ):
            mx, my = pygame.mouse.get_pos()
            ox, oy = self.camera.offset
            sim.input.aim_at(mx - ox, my - oy)
        if self.dash_pressed:
            sim.input.dash()
            self.dash_pressed = False

    def _fly(self, pilot: Pilot) -> bool:
        """Watching a replay: the tape's controls (and potions) into this step's input. False when
        the tape holds no more of this wave or the run refuses one of its moves (it diverged): the
        watch ends there, back to the title — a boss wave would never end on its own timer."""
        assert self.wave is not None
        try:
            if pilot.steer(self.wave):
                return True
        except ReplayError as error:
            logging.getLogger(__name__).warning("the watched replay stopped: %s", error)
        if self.stack is not None and self.on_quit is not None:
            self.on_quit(self.stack)
        return False

    def _juice(self, atlas: Atlas) -> Juice:
        return Juice(atlas, self.session.play, COLOUR_BLIND if self._colour_blind else None, seed=self.run.seed)

    def on_focus_lost(self) -> None:
        self.session.controls.release_all()
        self._pause()

    def wave_in_progress(self) -> WaveInProgress | None:
        return self.wave

    # ---- input -------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if self.pilot is not None:  # watching a replay: the tape steers; the player pauses or leaves
            if self.session.controls.handle(event, Context.GAMEPLAY) == Action.PAUSE:
                self._pause()
            return None
        # R-ONB-1: a first run is movement only — its dash and potions do not answer.
        if self.onboarding.potions and self._potion_event(event):
            return None
        action = self.session.controls.handle(event, Context.GAMEPLAY)
        if action in POTION_ACTIONS:
            if self.onboarding.potions:
                self.potion_key(POTION_ACTIONS.index(action))
            return None
        if action == Action.PAUSE:
            self._pause()
        elif action == Action.DASH:
            self.dash_pressed = self.onboarding.dash
        elif action is None and event.type not in (pygame.KEYUP, pygame.JOYAXISMOTION, pygame.CONTROLLERAXISMOTION):
            return event
        return None

    # ---- potions (R-POT-1/2) ---------------------------------------------------
    def _potion_event(self, event: pygame.event.Event) -> bool:
        """The mouse on the belt and its menu, and the menu's own keys and buttons; True if consumed."""
        view = self.potion_view
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            if view.hit(event.pos) is None:
                self.aim_point = event.pos
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            hit = view.hit(event.pos)
            if hit is None:
                self.aim_point = event.pos
                if view.menu is None:
                    return False
                view.close()
            elif hit.button is not None:
                self.potion_button(hit.slot, hit.button)
            elif view.menu == hit.slot:
                view.close()
            else:
                view.open(hit.slot)
            return True
        if view.menu is None:
            if (
                event.type == pygame.CONTROLLERBUTTONDOWN
                and event.button == pygame.CONTROLLER_BUTTON_Y
                and self.session.settings.gamepad
            ):
                self._open_next_potion()
                return True
            return False
        if event.type == pygame.KEYDOWN and self.session.controls.pressed(event, Context.GAMEPLAY) is Action.PAUSE:
            view.close()  # the pause key (Esc) closes the open potion menu instead of pausing
            return True
        if event.type == pygame.CONTROLLERBUTTONDOWN and self.session.settings.gamepad:
            button = event.button
            if button == pygame.CONTROLLER_BUTTON_Y:
                self._open_next_potion()
            elif button in (pygame.CONTROLLER_BUTTON_DPAD_LEFT, pygame.CONTROLLER_BUTTON_DPAD_RIGHT):
                view.step_choice(-1 if button == pygame.CONTROLLER_BUTTON_DPAD_LEFT else 1)
            elif button == pygame.CONTROLLER_BUTTON_A:
                self.potion_button(view.menu, ("use", "discard", "close")[view.choice])
            elif button == pygame.CONTROLLER_BUTTON_B:
                view.close()
            else:
                return False
            return True
        return False

    def _open_next_potion(self) -> None:
        """The gamepad's Y: the menu of the next slot holding a potion (after the open one)."""
        belt, view = self.run.potions, self.potion_view
        start = -1 if view.menu is None else view.menu
        filled = [(start + step) % len(belt.held) for step in range(1, len(belt.held) + 1)]
        slot = next((index for index in filled if belt.potion_at(index) is not None), None)
        if slot is not None:
            view.open(slot)

    def potion_key(self, index: int) -> None:
        """A potion key (1–5): opens that slot's menu; pressed again with it open, drinks it."""
        if self.potion_view.menu == index:
            self.potion_button(index, "use")
        else:
            self.potion_view.open(index)

    def potion_button(self, index: int, button: str) -> None:
        """The menu's Use, Discard or Close on slot `index`; refusals are toasts (R-POT-2)."""
        view = self.potion_view
        if button == "close":
            view.close()
            return
        if button == "discard":
            done, message = throw_away(self.run, index)
        else:
            done, message = drink(self.run, self.wave, index, self._potion_target())
            if done:
                self.session.play("pickup")
        self.hud_state.toast(message)
        if done:
            view.close()

    def _potion_target(self) -> tuple[float, float] | None:
        """R-POT-1: the world point under the cursor's last place in the world; None (the player) with a gamepad."""
        if self.session.controls.gamepads or self.aim_point is None or self.camera is None:
            return None
        ox, oy = self.camera.offset
        return (self.aim_point[0] - ox, self.aim_point[1] - oy)

    # ---- simulation --------------------------------------------------------
    def update(self, dt: float) -> None:
        assert self.juice is not None
        self.relic_view.tick(dt)
        self.potion_view.tick(dt, self.mouse)
        if self.dying:
            self._die_slowly(dt)
            return
        if self.wave is None:
            self.hud_state.tick(dt)
            self.juice.tick(dt, self.run.sim.buffers, in_wave=False)
            # The gold counter climbs as the flying crystals land (the wave already counted them).
            gained = self.run.currency - self._gold_before
            self.hud_state.currency = self._gold_before + round(gained * self.juice.crystals.landed)
            self.breather -= dt
            if self.breather <= 0 and self.replay_over:
                self.replay_over = False
                if self.stack is not None and self.on_quit is not None:
                    self.on_quit(self.stack)
                return
            if self.breather <= 0 and self.victory:
                # R-END-2: the last wave's clear has had its moment; the run's summary.
                self.victory = False
                if self.stack is not None:
                    self.stack.push(
                        SummaryScene(
                            self.run,
                            False,
                            self.on_quit,
                            controls=self.session.controls,
                            discoveries=self.discoveries,
                            on_endless=self.on_endless,
                        )
                    )
                return
            if self.breather <= 0 and not self.between_waves:
                if self.intermission is not None and self.stack is not None:
                    self.between_waves = True
                    self.intermission(self.stack, self.flow)
                else:
                    self._start_wave()
            return
        sim = self.run.sim
        # What the last step showed: draw() interpolates from here to the next step's state.
        assert self.camera is not None
        self._previous = (self.camera.x, self.camera.y, sim.buffers.player_value("x"), sim.buffers.player_value("y"))
        self.hud_state.show_damage_numbers = self.session.settings.damage_numbers
        if self.pilot is not None:
            if not self._fly(self.pilot):
                return
        else:
            self._steer(sim)
        if not self.wave.over:  # a wave ended from outside (a test) is not stepped again
            self.flow.step()
        report = FrameReport.of(sim.buffers.event_rows())  # the step's events, decoded once for all below
        self._discover(sim.buffers.event_rows())
        self._react(report)
        self.juice.react(report)
        self.juice.tick(dt, sim.buffers, in_wave=True)
        self.hud_state.tick(dt)
        self.shake = max(0.0, self.shake - SHAKE_DECAY * dt)
        self.flash = max(0.0, self.flash - FLASH_DECAY * dt)
        self.hud_state.last_will = sim.world.last_will
        self.hud_state.seconds_left = self.wave.seconds_left
        if (self.wave.boss_kind, self.wave.rush[0]) != self._announced_boss:
            self._announce_boss()  # R-END-3: a boss rush's next boss comes
        statuses = sim.world.boss_status()
        self.hud_state.boss = self._boss_bar(statuses)
        self.telegraphs = wind_ups(statuses, self._boss_bodies)
        self.hud_state.markers = self.wave.director.shown(self.wave.alive)  # R-WAVE-1: as the cap lets them land
        self.hud_state.wave_time = self.wave.stats.frames / sim.tick_hz
        assert self.camera is not None
        self.camera.follow(sim.buffers.player_value("x"), sim.buffers.player_value("y"))
        if self.wave.over:
            if self.wave.died:
                self._begin_death()
            else:
                self._end_wave()

    def _begin_death(self) -> None:
        """R-FEEL-1: the player fell — the frame freezes, dims and bursts before the summary."""
        assert self.juice is not None
        self.dying = True
        self._previous = None  # nothing moves now: draw the last step as it is
        self.potion_view.close()
        buffers = self.run.sim.buffers
        self.juice.player_died((buffers.player_value("x"), buffers.player_value("y")))

    def _die_slowly(self, dt: float) -> None:
        """One frame of the death moment; when it has passed, the wave ends (the summary)."""
        assert self.juice is not None
        self.hud_state.tick(dt)
        self.shake = max(0.0, self.shake - SHAKE_DECAY * dt)
        self.juice.tick(dt, self.run.sim.buffers, in_wave=False)
        if self.juice.dying <= 0:
            self.dying = False
            self._end_wave()

    def _react(self, report: FrameReport) -> None:
        """What the step's report shows: gold, damage numbers, the charge ring, relic flashes, the
        hurt shake, the sounds, Last Will spent, "Out of mana"."""
        self.hud_state.currency = self.run.currency + (self.wave.stats.currency if self.wave else 0)
        self.hud_state.add_hits(report.hits)
        if report.charge is not None:
            self.hud_state.charge = report.charge
            self.hud_state.charge_since = 0.0
            if self.hud_state.charge == 2:
                self.session.play("charge_full")
        for rule in report.relic_rules:
            self.relic_view.flash_rule(self.run.relics, rule)
        if report.player_hits:
            self.shake = min(1.0, self.shake + 0.6)
        for sound in frame_sounds(report):
            self.session.play(sound)
        if report.last_will:
            # R-END-1: a lethal hit spared at 1 HP; Last Will is spent.
            self.hud_state.toast(tr("ui.arena.last_will"), 3.0)
            self.session.play("last_will")
            self.flash = 1.0
        if report.casts_abandoned:
            # R-FEEL-2: "Out of mana" under the mana bar while casts are being abandoned.
            self.hud_state.cast_abandoned()
        self._react_to_boss(report)

    def _under_player(self, surface: pygame.Surface, offset: tuple[float, float]) -> None:
        """Over the world, under the player: R-BOSS-3's telegraphs, then the juice's particles."""
        assert self.juice is not None
        if self.telegraphs and self.wave is not None and not self.dying:
            colour = COLOUR_BLIND.role("warning") if self._colour_blind else TELEGRAPH_COLOUR
            draw_wind_ups(surface, self.telegraphs, offset, colour)
        self.juice.draw_world(surface, offset)

    def _boss_bar(self, statuses: list[dict[str, Any]]) -> BossBar | None:
        """R-BOSS-2: the wave's boss as its bar shows it (`statuses`: the world's boss status), while
        it lives (None otherwise)."""
        wave = self.wave
        if wave is None or wave.boss is None:
            return None
        status = next((b for b in statuses if b["kind"] == wave.boss_kind), None)
        if status is None:
            return None
        marks = tuple(phase.hp_threshold_enter for phase in wave.boss.phases[1:])
        return BossBar(
            name=tr(wave.boss.name_key),
            hp=float(status["hp"]),
            hp_max=float(status["hp_max"]),
            phase=int(status["phase"]),
            marks=marks,
            plates=int(status["plates"]),
            invulnerable=status["invulnerable"] > 0,
            enraged=bool(status["enraged"]),
            at=(float(status["x"]), float(status["y"])),
        )

    def _react_to_boss(self, report: FrameReport) -> None:
        """R-BOSS-1/2: a boss's phase change is seen and heard (a banner, a gong, a flash and a shake),
        so is its hyper-enrage; a stripped plate clanks."""
        wave = self.wave
        if wave is None or wave.boss is None or self.juice is None:
            return
        name = tr(wave.boss.name_key)
        seconds = self.content.balance.wave.boss.phase_banner_seconds
        for kind, phase in report.boss_phases:
            if kind == wave.boss_kind:
                self.juice.announce(tr("ui.arena.boss_phase_title", phase=phase), name, seconds, BOSS_PHASE_COLOUR)
                self.session.play("boss_phase")
                self.flash = max(self.flash, 0.6)
                self.shake = min(1.0, self.shake + 0.8)
        if wave.boss_kind in report.boss_enraged:
            self.juice.announce(
                tr("ui.hud.boss_enraged"), tr("ui.arena.boss_enraged", name=name), seconds, BOSS_ENRAGED_COLOUR
            )
            self.session.play("boss_phase")
            self.flash = 1.0
        if report.boss_plates:
            self.session.play("boss_plate")
        fell = report.kills.kinds == wave.boss_kind
        if fell.any():
            x, y = report.kills.positions[fell][0]
            self.juice.boss_fell((float(x), float(y)), wave.boss_kind)
            self.shake = 1.0
            self.flash = max(self.flash, 0.8)

    def _discover(self, events: npt.NDArray[np.float64]) -> None:
        """R-META-2: the frame's first meetings go into the codex (written at the wave's end), and a
        new enemy, boss, reaction or recipe says so."""
        if self.discoveries is None:
            return
        for section, entry in self.discoveries.observe_events(events):
            if section in TOASTED_SECTIONS:
                name = tr(Codex(self.content).name_key(section, entry))
                self.hud_state.toast(tr(TOASTED_SECTIONS[section], name=name), 3.0)

    def _announce_mutator(self) -> None:
        """R-END-3: a deep endless wave's global mutator — a tag beside the timer while it holds, and a
        banner with its one-line explanation as the wave begins."""
        active = mutator(self.content, self.number) if self.run.state.endless else None
        self.hud_state.modes = mode_tags(self.run, watching=self.pilot is not None)
        if active is None:
            return
        name = tr(MUTATOR_KEYS[active.id][0])
        self.hud_state.modes = (*self.hud_state.modes, (name, MUTATOR_TAG))
        line = mutator_line(self.content, active.id, self.run.state.arena_scale)
        if self.juice is not None:
            self.juice.announce(name, line, self.content.balance.wave.boss.banner_seconds, MUTATOR_TAG, after=True)

    def _start_wave(self) -> None:
        try:
            self.wave = self._begin_wave()
        except ReplayError as error:  # watching: the tape is over, or the run refused one of its moves
            self.hud_state.toast(str(error), 4.0)
            self.replay_over, self.breather = True, self.content.balance.wave.breather
            return
        if self.renderer is not None and self.camera is not None:  # R-END-3 shrinking map: this wave's walls
            self.renderer.arena = self.camera.arena = self.run.sim.arena
        if self.onboarding.lesson == "move":  # R-ONB-1: the first run's one lesson, as it begins
            # Watching a replay shows the lesson but leaves meta.json alone (a replay changes nothing).
            show_once(
                lesson_tip("move"),
                lambda text: self.hud_state.toast(text, 8.0),
                tr("ui.onboarding.lesson.move"),
                remember=self.pilot is None,
            )
        if self.discoveries is not None:
            self.discoveries.observe_state(self.run.state)  # the cards bought in the shop: first pickups
        self.hud_state.wave = self.number
        self.hud_state.since_wave_start = 0.0  # the HUD's timer glows: the wave's one announcement
        self.session.play("wave_start")
        self._announce_boss()
        self._announce_mutator()  # after the boss's warning, when there is one

    def _announce_boss(self) -> None:
        """R-BOSS-2: the boss is announced as it comes: a warning banner (a boss rush's says which
        of its bosses this is, R-END-3), an alarm."""
        assert self.wave is not None
        boss = self.wave.boss
        self._announced_boss = (self.wave.boss_kind, self.wave.rush[0])
        self.hud_state.boss_name = tr(boss.name_key) if boss is not None else None
        if boss is not None and self.juice is not None:
            seconds = self.content.balance.wave.boss.banner_seconds
            line = f"{tr(boss.name_key)} — {tr(boss.description_key)}"
            n, total = self.wave.rush
            title = tr("ui.arena.boss_rush", n=n, total=total) if total else tr("ui.arena.boss_warning")
            self.juice.announce(title, line, seconds, BOSS_WARNING_COLOUR)
            self.session.play("boss_warning")

    def _end_wave(self) -> None:
        assert self.wave is not None and self.stack is not None and self.juice is not None
        buffers = self.run.sim.buffers
        # The crystals still on the ground, before finish() collects them (they fly in, R-FEEL-1).
        left_on_ground = buffers.pickup_rows()[:, [PickupColumn.X, PickupColumn.Y]]
        self._gold_before = self.hud_state.currency
        wave = self.wave
        stats = self.flow.end_wave()
        if self.pilot is not None:
            self.pilot.wave_ended()
            self.replay_over = self.replay_over or self.pilot.done or self.flow.phase is Phase.OVER
        if self.run.tape is not None:  # the replay, to this wave's end (the shop's save writes it again)
            self.run.tape.write_or_log()
        # A boss fight past the stall cap (R-WAVE-1) ends the run as a fall does: the summary, no shop.
        died = self.flow.ending in (Ending.DIED, Ending.STALLED)
        drop = wave.potion_drop
        if drop is not None and drop.potion is not None:
            name = tr(self.run.potions.book.potion(drop.potion).name)
            self.hud_state.toast(tr("ui.potion.found" if drop.kept else "ui.potion.belt_full", name=name), 3.5)
        self.relic_toasts(stats)
        if stats.rush_cards:  # R-END-3: a cleared boss rush's cards
            names = ", ".join(tr(f"spell.{card}.name") for card in stats.rush_cards)
            tier = self.content.balance.endless.boss_rush.card_tier
            self.hud_state.toast(tr("ui.arena.boss_rush_cleared", tier=tier, cards=names), 5.0)
        if self.discoveries is not None:
            self.discoveries.observe_state(self.run.state)
            self.discoveries.flush()
        self.wave = None
        self.telegraphs = ()
        self.potion_view.close()
        self.session.play("wave_end")
        if died and self.pilot is not None:  # the watched run fell: its moment, then the title
            self.breather = self.content.balance.wave.breather
            return
        if died:
            summary = SummaryScene(
                self.run, died, self.on_quit, controls=self.session.controls, discoveries=self.discoveries
            )
            self.stack.push(summary)
            return
        # The last wave won (the flow is over): its clear is a moment too, then the summary.
        self.victory = self.flow.ending is Ending.CLEARED and self.pilot is None
        felled = wave.boss if self.victory else None
        self.juice.wave_cleared(
            left_on_ground,
            (buffers.player_value("x"), buffers.player_value("y")),
            # R-END-2: the last boss's fall is the victory's moment, to its fanfare.
            tr("ui.arena.banner_victory", name=tr(felled.name_key))
            if felled is not None
            else tr("ui.arena.banner_cleared", wave=stats.wave),
            tr("ui.arena.banner_stats", kills=stats.kills, gold=stats.currency),
            sound="victory" if self.victory else "wave_clear",
        )
        self.breather = self.content.balance.wave.breather

    def _begin_wave(self) -> WaveInProgress:
        """The flow's next wave: begun now (a new run's first), begun already by leaving the shop, or
        (an arena without a shop between waves) through the shop, unseen."""
        flow = self.flow
        if self.pilot is not None:  # watching: the tape's moves before the wave, then the wave
            return self.pilot.begin_wave()
        if flow.phase is Phase.LAB:
            return flow.begin_wave()
        if flow.phase is Phase.CLEARED:
            flow.open_shop()
        if flow.phase is Phase.SHOP:
            self.run.shop.close()
            return flow.leave_shop()
        assert flow.phase is Phase.WAVE and flow.wave is not None, flow.phase
        return flow.wave

    def relic_toasts(self, stats: WaveStats) -> None:
        """R-REL-3: the relics the won wave awarded, or the gold given instead when all are owned."""
        for relic_id in stats.relics:
            self.hud_state.toast(tr("ui.relic.found", name=tr(self.run.relics.book.relic(relic_id).name_key)), 3.5)
            self.relic_view.flash(relic_id)
        if stats.relic_currency:
            self.hud_state.toast(tr("ui.relic.all_owned", gold=stats.relic_currency), 3.5)

    def _pause(self) -> None:
        if self.stack is not None and self.stack.top is self:
            self.stack.push(PauseScene(self, self.on_quit))

    # ---- drawing -----------------------------------------------------------
    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        assert self.renderer is not None and self.camera is not None and self.hud is not None
        if self.camera.screen != surface.get_size():
            self.camera.screen = surface.get_size()
        buffers = self.run.sim.buffers
        amplitude = SHAKE_PIXELS * self.shake * self.session.settings.screen_shake
        dx, dy = (
            (self._jitter.uniform(-amplitude, amplitude), self._jitter.uniform(-amplitude, amplitude))
            if amplitude > 0.5
            else (0.0, 0.0)
        )
        # Render interpolated (DESIGN §7): camera, player and shots between the last two steps,
        # `alpha` of the way; outside a wave (nothing moves) the last step as it is.
        cx, cy = self.camera.x, self.camera.y
        px, py = buffers.player_value("x"), buffers.player_value("y")
        shift = 0.0
        if self._previous is not None and self.wave is not None:
            pcx, pcy, ppx, ppy = self._previous
            self.camera.x, self.camera.y = pcx + (cx - pcx) * alpha, pcy + (cy - pcy) * alpha
            px, py = ppx + (px - ppx) * alpha, ppy + (py - ppy) * alpha
            shift = -(1.0 - alpha) / self.run.sim.tick_hz
        self.camera.x -= dx
        self.camera.y -= dy
        assert self.juice is not None
        # Between waves nothing flies (the shots of the last step would hang in the air);
        # in the death moment the player is gone, into its burst.
        self.renderer.draw(
            surface, buffers, self.camera, shift=shift, player=(px, py),
            shots=self.wave is not None, show_player=not self.dying, under_player=self._under_player,
        )  # fmt: skip
        ox, oy = self.camera.offset
        self.camera.x, self.camera.y = cx, cy
        at = (px + ox, py + oy)
        self.player_at = at
        self.juice.draw_player_marks(surface, at, in_wave=self.wave is not None)
        if self.flash > 0.0:
            veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            veil.fill((*FLASH_COLOUR, round(FLASH_ALPHA * self.flash)))
            surface.blit(veil, (0, 0))
        # Toasts stack under the HUD's top rows (the relic row spans the top left): never over a box,
        # and a banner keeps below them (a boss wave's relic toasts come as its victory banner shows).
        toast_top = self.relic_view.rect.bottom + 8
        pills = toast_pills(surface.get_width(), self.hud_state, toast_top)
        self.juice.draw_screen(surface, at, clear_top=pills[-1][0].bottom + TOAST_GAP if pills else toast_top)
        self.hud_state.low_hp_beat = self.juice.beat
        self.potion_view.topright = (surface.get_width() - 18, 50)
        # R-BOSS-2: a boss under the relic row (the slots drawn) or the potion belt is pointed at.
        relics = self.relic_view.drawn_rect(len(self.run.relics.owned))
        self.hud_state.covered = (self.potion_view.rect,) if relics is None else (relics, self.potion_view.rect)
        self.hud.draw(surface, buffers, self.hud_state, at, (ox, oy), toast_top=toast_top)
        self.relic_view.draw(surface, self.run.relics, self.mouse)
        bindings = self.session.settings.key_bindings
        keys = tuple(key_label(bindings[action]) if action in bindings else "" for action in POTION_ACTIONS)
        self.potion_view.draw(surface, self.run, self.mouse, keys, in_wave=self.wave is not None)


class PauseScene(MenuScene):
    """Pause (DESIGN §7): resume, settings, the stats sheet (R-STAT-2, also its key), or abandon the
    run (kept last in the list).
    Keyboard, gamepad (through the session's controls) and mouse, as every `MenuScene`."""

    def __init__(self, arena: ArenaScene, on_quit: Callable[[SceneStack], None] | None) -> None:
        last = "ui.pause.leave_replay" if arena.pilot is not None else "ui.pause.abandon"
        super().__init__(arena.session, ("ui.pause.resume", "ui.pause.settings", "ui.pause.stats", last))
        self.arena = arena
        self.on_quit = on_quit

    def activate(self, index: int) -> None:
        assert self.stack is not None
        key = self.items[index]
        if key == "ui.pause.resume":
            self.close()
        elif key == "ui.pause.settings":
            self.open_settings()
        elif key == "ui.pause.stats":
            self.open_stats()
        elif self.arena.pilot is not None:  # watching a replay: leaving it is all there is (the title)
            if self.on_quit is not None:
                self.on_quit(self.stack)
        else:
            if self.arena.flow.phase is not Phase.OVER:  # the last wave's breather: the run already ended
                self.arena.flow.abandon()
                tape = self.arena.run.tape
                if tape is not None:  # the replay ends with the last wave played to its end
                    tape.end("abandoned")
                    tape.write_or_log()
            self.stack.pop()
            controls = self.session.controls
            discoveries = self.arena.discoveries
            summary = SummaryScene(
                self.arena.run, True, self.on_quit, abandoned=True, controls=controls, discoveries=discoveries
            )
            self.stack.push(summary)

    def open_stats(self) -> None:
        """R-STAT-2: the stats sheet over the pause menu (its key or Esc closes it, back to the menu)."""
        open_stat_sheet(self.stack, self.arena.run, self.session.controls)

    def panel_rect(self, size: tuple[int, int], header: int) -> pygame.Rect:
        """The menu's opaque side panel (`header` px of title, then the items): on the half of the window away from the player."""
        w, h = size
        rect = pygame.Rect(0, 0, PAUSE_PANEL_WIDTH, min(h - 40, header + PAUSE_ITEM_PITCH * len(self.items) + 10))
        player_x = self.arena.player_at[0] if self.arena.player_at is not None else w / 2
        if player_x < w / 2 - 1:
            rect.midright = (w - PAUSE_PANEL_MARGIN, h // 2)
        else:
            rect.midleft = (PAUSE_PANEL_MARGIN, h // 2)
        return rect

    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        """A light dim over the arena (the player stays in sight) and the menu in a side panel."""
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, PAUSE_DIM))
        surface.blit(shade, (0, 0))
        inner = PAUSE_PANEL_WIDTH - 40
        title = fitted(tr("ui.pause.title"), 46, inner, (240, 240, 250))
        wave = fitted(tr("ui.arena.wave", wave=self.arena.number), 22, inner, (170, 164, 205), bold=False)
        header = 16 + title.get_height() + wave.get_height() + 18
        panel = self.panel_rect(surface.get_size(), header)
        pygame.draw.rect(surface, PAUSE_FILL, panel, border_radius=10)
        pygame.draw.rect(surface, PAUSE_EDGE, panel, 2, border_radius=10)
        surface.blit(title, title.get_rect(midtop=(panel.centerx, panel.top + 16)))
        surface.blit(wave, wave.get_rect(midtop=(panel.centerx, panel.top + 16 + title.get_height())))
        self.rects = []
        top = panel.top + header
        for i, key in enumerate(self.items):
            chosen = i == self.choice
            row = pygame.Rect(panel.left + 16, top + PAUSE_ITEM_PITCH * i, panel.width - 32, PAUSE_ITEM_PITCH - 10)
            if chosen:
                pygame.draw.rect(surface, (52, 44, 86), row, border_radius=8)
                pygame.draw.rect(surface, (255, 215, 0), row, 1, border_radius=8)
            label = tr(key)
            if key == "ui.pause.stats":  # R-STAT-2: the sheet's key, shown where it opens
                label += f"  [{key_hint(self.session.settings.key_for(Action.STATS_SHEET))}]"
            img = fitted(label, 30, row.width - 24, (255, 215, 0) if chosen else (200, 200, 210), bold=False)
            surface.blit(img, img.get_rect(center=row.center))
            self.rects.append(row)
