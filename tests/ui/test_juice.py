"""The fight's juice and moments (R-FEEL-1) under the dummy driver: kill bursts from a capped pool,
the hurt flash, the low-HP vignette and heartbeat, the dash cooldown bar, the wave-clear moment
(crystals fly in, the banner, its sound), the death moment before the summary, the potion menu
closing at wave end, and a HUD whose boxes and toasts are opaque (it never veils enemies)."""

from __future__ import annotations

import math

import numpy as np
import pygame
import pytest

from artificer.content import load_content
from artificer.engine import EventKind
from artificer.game.report import FrameReport
from artificer.ui import effects
from artificer.ui.hud import PANEL, Hud, HudState
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene, PauseScene
from artificer.ui.scenes.summary import SummaryScene
from artificer.ui.session import Session

CONTENT = load_content()


def frames(stack: SceneStack, surface: pygame.Surface, n: int) -> None:
    for _ in range(n):
        for event in pygame.event.get():
            stack.handle_event(event)
        stack.update(1 / 60)
        stack.draw(surface, 0.0)


def arena(display: pygame.Surface, seed: int = 2) -> tuple[SceneStack, ArenaScene, list[str]]:
    """A wave-1 arena with no shake, whose sounds are recorded by name."""
    played: list[str] = []
    session = Session.default()
    session.settings.screen_shake = 0.0
    session.play = played.append  # type: ignore[method-assign]
    scene = ArenaScene(CONTENT, seed=seed, session=session)
    stack = SceneStack()
    stack.push(scene)
    frames(stack, display, 2)
    return stack, scene, played


def kill_rows(n: int, x: float = 500.0, y: float = 400.0, elite: bool = False) -> np.ndarray:
    rows = np.zeros((n, 6), dtype=np.float64)
    rows[:, 0] = EventKind.ENEMY_KILLED
    rows[:, 1] = np.arange(n) % len(CONTENT.enemies)
    rows[:, 2] = float(elite)
    rows[:, 3] = x + np.arange(n) % 50
    rows[:, 4] = y
    return rows


def edge_red(display: pygame.Surface) -> float:
    """How red the window's left and right edges are, on average (the vignette's place)."""
    pixels = pygame.surfarray.array3d(display).astype(int)
    h = display.get_height()
    edges = np.concatenate([pixels[:6, h // 3 : 2 * h // 3], pixels[-6:, h // 3 : 2 * h // 3]])
    return float((edges[..., 0] - edges[..., 2]).mean())


def test_r_feel_1_a_kill_bursts_in_the_enemys_colour(display: pygame.Surface) -> None:
    """A real kill in the arena spawns sparks at the enemy's place, drawn in its colour."""
    stack, scene, _ = arena(display)
    world = scene.run.sim.world
    x, y = world.player_position()
    grunt = CONTENT.enemy_index("grunt")
    scene.run.sim.input.spawn(grunt, x + 200.0, y)
    frames(stack, display, 2)
    assert scene.juice is not None and scene.juice.particles.alive == 0
    scene.run.sim.input.damage_nearest(x + 200.0, y, 9999.0)
    frames(stack, display, 3)
    juice = scene.juice
    assert juice.particles.alive >= effects.SPARKS_PER_KILL
    assert scene.renderer is not None
    colour = np.array(effects.sprite_colour(scene.renderer.atlas.enemies[grunt]))
    positions, sprites = juice.particles.sprites()
    assert np.all(np.hypot(positions[:, 0] - (x + 200), positions[:, 1] - y) < 80), "the sparks start at the kill"
    assert np.all(sprites // effects.COLOUR_STRIDE == grunt), "every spark takes the grunt's colour"
    assert scene.camera is not None
    ox, oy = scene.camera.offset
    patch = pygame.surfarray.array3d(display)[
        int(x + 200 + ox) - 40 : int(x + 200 + ox) + 40, int(y + oy) - 40 : int(y + oy) + 40
    ]
    near = np.abs(patch.astype(int) - colour).sum(axis=2) < 90
    assert near.sum() > 10, "the burst shows on screen in the grunt's colour"


def test_r_feel_1_the_particle_pool_stays_capped_under_10000_kills(display: pygame.Surface) -> None:
    """10,000 kills in one frame (and again every frame) cost at most MAX_BURSTS_PER_FRAME bursts; the pool never grows."""
    stack, scene, _ = arena(display)
    juice = scene.juice
    assert juice is not None
    capacity = juice.particles.capacity
    juice.react(FrameReport.of(kill_rows(10_000)))
    per_frame = effects.MAX_BURSTS_PER_FRAME * (effects.SPARKS_PER_KILL + 1)
    assert juice.particles.alive == per_frame
    for _ in range(30):
        juice.react(FrameReport.of(kill_rows(10_000, elite=True)))
        juice.tick(1 / 60, scene.run.sim.buffers, in_wave=True)
        assert juice.particles.alive <= capacity
    assert len(juice.particles.life) == capacity == effects.PARTICLE_CAPACITY
    assert juice.draw_world(display, (0.0, 0.0)) <= capacity


def test_r_feel_1_a_hit_on_the_player_flashes_the_edges_red(display: pygame.Surface) -> None:
    stack, scene, played = arena(display)
    calm = edge_red(display)
    world = scene.run.sim.world
    x, y = world.player_position()
    scene.run.sim.input.spawn(CONTENT.enemy_index("brute"), x + 5.0, y)
    for _ in range(30):
        frames(stack, display, 1)
        if "hurt" in played:
            break
    assert "hurt" in played
    assert scene.juice is not None and scene.juice.hurt > 0.8
    assert edge_red(display) > calm + 40, "the edges flash red"
    scene.run.sim.input.clear_enemies()  # no more hits
    frames(stack, display, 40)
    assert scene.juice.hurt == 0.0, "the flash fades in well under a second"


def test_r_feel_1_low_hp_pulses_a_vignette_and_a_heartbeat(display: pygame.Surface) -> None:
    """Under 30% of max HP: the red vignette shows and beats with a heartbeat about every second."""
    stack, scene, played = arena(display)
    world = scene.run.sim.world
    hp_max = world.player_hp()[1]
    world.set_player_hp(0.5 * hp_max, hp_max)
    frames(stack, display, 70)
    assert played.count("heartbeat") == 0 and scene.juice is not None and not scene.juice.low_hp
    calm = edge_red(display)
    world.set_player_hp(0.25 * hp_max, hp_max)
    frames(stack, display, 2)
    assert scene.juice.low_hp and "heartbeat" in played
    assert scene.hud_state.low_hp_beat > 0.5, "the HP bar's edge beats with it"
    assert edge_red(display) > calm + 30, "the vignette reddens the edges"
    played.clear()
    frames(stack, display, 180)
    assert 2 <= played.count("heartbeat") <= 4, "a beat about every second"


def test_r_feel_1_the_dash_cooldown_bar_fills_as_the_cooldown_runs_out(display: pygame.Surface) -> None:
    stack, scene, _ = arena(display)
    juice = scene.juice
    assert juice is not None and juice.dash_fraction == 1.0

    def bar_fill() -> float:
        """The share of the bar under the player lit in the ready or charging colour."""
        assert scene.player_at is not None
        x, y = scene.player_at
        w, h = effects.DASH_BAR
        top = int(y + juice.player_radius + effects.DASH_BAR_GAP)
        row = pygame.surfarray.array3d(display)[int(x - w / 2) : int(x + w / 2), top + h // 2].astype(int)
        lit = (np.abs(row - effects.DASH_READY_COLOUR).sum(axis=1) < 30) | (
            np.abs(row - effects.DASH_CHARGING_COLOUR).sum(axis=1) < 30
        )
        return float(lit.mean())

    assert bar_fill() > 0.9, "ready: the bar is full"
    scene.dash_pressed = True
    frames(stack, display, 3)
    cooldown = scene.run.sim.buffers.player_value("dash_cooldown")
    assert cooldown > 0 and juice.dash_fraction < 0.1
    assert bar_fill() < 0.2, "just dashed: the bar is nearly empty"
    frames(stack, display, round(cooldown * 60 / 2))
    assert 0.3 < juice.dash_fraction < 0.7
    assert 0.3 < bar_fill() < 0.7, "half-way: the bar is about half full"
    frames(stack, display, round(cooldown * 60 / 2) + 3)
    assert juice.dash_fraction == 1.0 and bar_fill() > 0.9
    assert juice.ready_pulse > 0, "ready again: a pulse marks it"


def _drop_crystals(stack: SceneStack, scene: ArenaScene, display: pygame.Surface) -> None:
    """Enemies killed in a ring 220-340 px out: their crystals lie on the ground."""
    x, y = scene.run.sim.world.player_position()
    for i in range(24):
        angle = i * 2 * math.pi / 24
        reach = 220 + (i % 3) * 60
        scene.run.sim.input.spawn(
            CONTENT.enemy_index("grunt"), x + reach * math.cos(angle), y + reach * math.sin(angle)
        )
    frames(stack, display, 2)
    for row in scene.run.sim.buffers.enemy_rows():
        scene.run.sim.input.damage_nearest(float(row[0]), float(row[1]), 9999.0)
    frames(stack, display, 3)


def test_r_feel_1_wave_clear_flies_the_crystals_in_under_a_banner(display: pygame.Surface) -> None:
    stack, scene, played = arena(display, seed=5)
    _drop_crystals(stack, scene, display)
    on_ground = scene.run.sim.buffers.pickup_rows()[:, :2].copy()
    assert len(on_ground) >= 10
    assert scene.wave is not None
    scene.wave.frames = scene.wave.stats.frames + 1  # the timer runs out: the wave is won
    frames(stack, display, 2)
    juice = scene.juice
    assert scene.wave is None and juice is not None
    assert "wave_clear" in played
    assert juice.banner is not None and juice.banner[0] == "Wave 1 cleared"
    assert juice.crystals.flying == len(on_ground)
    player = np.array(scene.run.sim.world.player_position())
    start = np.hypot(*(on_ground - player).T).mean()
    frames(stack, display, 18)
    now = np.hypot(*(juice.crystals.positions() - player).T).mean()
    assert now < start * 0.85, "the crystals are on their way to the player"
    edge = np.abs(pygame.surfarray.array3d(display).astype(int) - effects.BANNER_EDGE).sum(axis=2) < 20
    assert edge.sum() > 200, "the banner's frame is drawn"
    frames(stack, display, round((effects.FLIGHT_SECONDS + effects.FLIGHT_STAGGER) * 60) + 2)
    assert juice.crystals.flying == 0
    assert scene.hud_state.currency == scene.run.currency, "the gold counter reached the run's gold as they landed"


def test_r_feel_1_death_is_a_moment_before_the_summary(display: pygame.Surface) -> None:
    stack, scene, played = arena(display)
    world = scene.run.sim.world
    world.set_player_hp(2.0, world.player_hp()[1])
    x, y = world.player_position()
    for i in range(4):
        scene.run.sim.input.spawn(CONTENT.enemy_index("brute"), x + 6.0 + i, y)
    for _ in range(60):
        frames(stack, display, 1)
        if scene.dying:
            break
    assert scene.dying and "death" in played
    assert scene.juice is not None and scene.juice.particles.alive >= effects.DEATH_SPARKS
    bright = pygame.surfarray.array3d(display).astype(int).mean()
    frames(stack, display, round(effects.DEATH_SECONDS * 60) - 3)
    assert stack.top is scene, "the summary waits for the moment"
    assert pygame.surfarray.array3d(display).astype(int).mean() < bright, "the frame dims"
    frames(stack, display, 5)
    assert isinstance(stack.top, SummaryScene)


def test_r_feel_1_the_potion_menu_closes_when_the_wave_ends_and_when_left_alone(display: pygame.Surface) -> None:
    stack, scene, _ = arena(display)
    scene.run.potions.add("red_potion")
    scene.potion_key(0)
    frames(stack, display, 60)
    assert scene.potion_view.menu == 0, "open while being read"
    frames(stack, display, round(4.0 * 60))
    assert scene.potion_view.menu is None, "closed after a few seconds untouched"
    scene.potion_key(0)
    assert scene.wave is not None
    scene.wave.frames = scene.wave.stats.frames + 1
    frames(stack, display, 2)
    assert scene.wave is None and scene.potion_view.menu is None, "closed when the wave ends"


def test_r_feel_1_toasts_and_hud_boxes_are_opaque(display: pygame.Surface) -> None:
    """Over a bright playfield the HUD's boxes and toast pills show their own fill, not a veil."""
    stack, scene, _ = arena(display)
    hud = Hud(pygame.Surface((12, 14)))
    state = HudState()
    state.toast("A toast over the fight")
    display.fill((250, 250, 250))
    hud.draw(display, scene.run.sim.buffers, state, (640.0, 360.0))
    pixels = pygame.surfarray.array3d(display)
    assert tuple(pixels[16, 80]) == PANEL, "the HP/mana box is opaque"
    w = display.get_width()
    column = pixels[w // 2 - 150 : w // 2 + 150, 40:140].reshape(-1, 3)
    assert (np.abs(column.astype(int) - PANEL).sum(axis=1) == 0).sum() > 2000, "the toast sits on an opaque pill"
    assert not any("Wave" in text for text, _ in scene.hud_state.toasts), "the wave's number shows once, on the timer"


@pytest.mark.parametrize("player_x, side", [(640.0, "left"), (200.0, "right"), (1100.0, "left")])
def test_the_pause_menu_never_covers_the_player(display: pygame.Surface, player_x: float, side: str) -> None:
    stack, scene, _ = arena(display)
    pause = PauseScene(scene, None)
    stack.push(pause)
    frames(stack, display, 1)
    scene.player_at = (player_x, 360.0)
    rect = pause.panel_rect(display.get_size(), 120)
    assert not rect.inflate(60, 0).collidepoint(scene.player_at)
    assert (rect.centerx < display.get_width() / 2) == (side == "left")


def test_r_feel_1_an_explosion_rings_out_to_its_radius(display: pygame.Surface) -> None:
    """An EXPLODED event: a ring of sparks that slows to a stop at about the blast's radius."""
    _, scene, _ = arena(display)
    juice = scene.juice
    assert juice is not None
    row = np.array([[EventKind.EXPLODED, 1.0, 90.0, 800.0, 500.0, 30.0]])
    juice.react(FrameReport.of(row))
    assert juice.particles.alive == effects.RING_SPARKS
    for _ in range(15):
        juice.particles.tick(1 / 60)
    positions, _ = juice.particles.sprites()
    reach = np.hypot(positions[:, 0] - 800.0, positions[:, 1] - 500.0)
    assert np.all(np.abs(reach - reach.mean()) < 1.0), "a ring, not a cloud"
    assert 60.0 < reach.mean() < 110.0, "out near the blast's radius"


def test_r_feel_1_the_last_wave_won_has_its_moment_before_the_victory_summary(display: pygame.Surface) -> None:
    played: list[str] = []
    session = Session.default()
    session.play = played.append  # type: ignore[method-assign]
    scene = ArenaScene(CONTENT, seed=3, session=session, first_wave=len(CONTENT.waves))
    stack = SceneStack()
    stack.push(scene)
    frames(stack, display, 2)
    assert scene.wave is not None and scene.wave.boss is not None, "W20 ends when its boss falls (R-WAVE-1)"
    boss = scene.run.sim.world.boss_status()[0]
    at = np.array([boss["x"]], np.float32), np.array([boss["y"]], np.float32)
    still = np.zeros(1, np.float32)
    scene.run.sim.world.spawn_projectiles(*at, still, still, 8.0, 1e6, 0)  # the last blow
    frames(stack, display, 2)
    assert stack.top is scene and "victory" in played, "the game's last clear sounds its fanfare (R-END-2)"
    assert scene.juice is not None and scene.juice.banner is not None
    frames(stack, display, round(CONTENT.balance.wave.breather * 60))
    assert isinstance(stack.top, SummaryScene) and not stack.top.died
