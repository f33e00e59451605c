"""A boss in the window (R-BOSS-2, R-WAVE-1, R-FEEL-1): it is announced as it comes (a warning
banner and an alarm), the timer shows it instead of seconds, its bar shows its name, HP, phase marks and
plates, a phase change is seen and heard, and it is drawn over the crowd."""

from __future__ import annotations

import numpy as np
import pygame

from artificer.content import load_content
from artificer.ui import hud
from artificer.ui.i18n import tr
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.arena import ArenaScene
from artificer.ui.scenes.summary import SummaryScene
from artificer.ui.session import Session

CONTENT = load_content()


def frames(stack: SceneStack, surface: pygame.Surface, n: int) -> None:
    for _ in range(n):
        pygame.event.get()
        stack.update(1 / 60)
        stack.draw(surface, 0.0)


def boss_arena(display: pygame.Surface, wave: int, seed: int) -> tuple[SceneStack, ArenaScene, list[str]]:
    played: list[str] = []
    session = Session.default()
    session.play = played.append  # type: ignore[method-assign]
    scene = ArenaScene(CONTENT, seed=seed, session=session, first_wave=wave)
    stack = SceneStack()
    stack.push(scene)
    frames(stack, display, 2)
    return stack, scene, played


def strike(scene: ArenaScene, down_to: float) -> None:
    """A piercing shot on the boss that leaves it at `down_to` of its max HP (through its phase's
    physical resistance and its plates)."""
    world, wave = scene.run.sim.world, scene.wave
    assert wave is not None and wave.boss is not None
    boss = world.boss_status()[0]
    phase = next(p for p in wave.boss.phases if p.phase == boss["phase"])
    resist = phase.resistances.get("physical", 0.0)
    amount = (boss["hp"] - down_to * boss["hp_max"]) / (1 - resist) + boss["plates"] * (phase.plate_armor or 0.0)
    at = np.array([boss["x"]], np.float32), np.array([boss["y"]], np.float32)
    still = np.zeros(1, np.float32)
    world.spawn_projectiles(*at, still, still, 8.0, float(amount), 1)


def test_r_boss_2_a_boss_is_announced_and_the_timer_shows_it(display: pygame.Surface) -> None:
    stack, scene, played = boss_arena(display, 8, seed=1)
    assert scene.juice is not None and scene.juice.banner is not None
    title, line = scene.juice.banner
    assert title == tr("ui.arena.boss_warning") and tr("boss.brood_mother.name") in line
    assert "boss_warning" in played
    assert scene.hud_state.boss_name == tr("boss.brood_mother.name")
    bar = scene.hud_state.boss
    assert bar is not None and bar.phase == 1 and bar.hp == bar.hp_max == CONTENT.bosses["brood_mother"].body.hp
    assert bar.marks == (0.3,), "a mark where phase 2 begins"


def test_r_boss_1_a_phase_change_is_seen_and_heard_and_the_bar_follows(display: pygame.Surface) -> None:
    stack, scene, played = boss_arena(display, 10, seed=2)
    assert scene.wave is not None and scene.wave.boss is not None and scene.wave.boss.boss_id == "armor_lord"
    bar = scene.hud_state.boss
    assert bar is not None and bar.plates == 10
    played.clear()
    strike(scene, 0.35)
    frames(stack, display, 2)
    bar = scene.hud_state.boss
    assert bar is not None and bar.phase == 2 and bar.plates == 6, "phase 2 puts on its fresh plates"
    assert "boss_phase" in played
    assert scene.juice is not None
    assert scene.juice.banner == (tr("ui.arena.boss_phase_title", phase=2), tr("boss.armor_lord.name")), "a banner"
    assert scene.juice.banner_seconds == CONTENT.balance.wave.boss.phase_banner_seconds
    assert scene.flash > 0


def test_r_feel_1_the_boss_is_drawn_over_the_crowd(display: pygame.Surface) -> None:
    """An enemy standing on the boss does not hide it: the boss's pixels are on top."""
    stack, scene, _ = boss_arena(display, 8, seed=1)
    world = scene.run.sim.world
    boss = world.boss_status()[0]
    at = np.array([boss["x"]] * 12, np.float32), np.array([boss["y"]] * 12, np.float32)
    world.spawn_enemies(CONTENT.enemy_index("brute"), *at)
    frames(stack, display, 1)
    assert scene.renderer is not None
    alone = scene.renderer._enemy_layers(scene.run.sim.buffers.enemy_rows())
    assert len(alone[1]) == 1 and alone[1][0, 2] == boss["kind"], "the boss in the top layer"
    assert len(alone[0]) >= 12


def test_r_wave_1_a_boss_fight_past_the_stall_cap_ends_in_the_summary(display: pygame.Surface) -> None:
    """The window never opens a shop for a stalled run: its summary follows, as after a fall."""
    stack, scene, _ = boss_arena(display, 8, seed=1)
    assert scene.wave is not None
    scene.wave._stall_frames = scene.wave.stats.frames + 2  # the shipped 600 s would make this test slow
    for _ in range(6):
        scene.run.sim.input.heal(10_000.0)
        frames(stack, display, 1)
    frames(stack, display, 90)
    assert isinstance(stack.top, SummaryScene) and stack.top.died


def test_r_boss_2_a_boss_falls_with_a_burst_a_boom_and_a_shake(display: pygame.Surface) -> None:
    """Its fall is bigger than any kill: hundreds of sparks where it stood, its own sound, a full shake."""
    stack, scene, played = boss_arena(display, 8, seed=1)
    assert scene.juice is not None
    before = scene.juice.particles.alive
    strike(scene, 0.0)
    frames(stack, display, 2)
    fight = scene.run.waves[-1].boss
    assert fight is not None and fight.ttk_s is not None, "it fell (and the wave ended)"
    assert "boss_fell" in played
    assert scene.juice.particles.alive - before > 300, "a burst twice a death's"
    assert scene.shake > 0.9


def test_r_end_2_the_last_boss_falls_to_the_victory_fanfare(display: pygame.Surface) -> None:
    stack, scene, played = boss_arena(display, len(CONTENT.waves), seed=3)
    strike(scene, 0.0)  # phase 1's regen on a physical hit leaves it a sliver: a second shot fells it
    frames(stack, display, 2)
    strike(scene, 0.0)
    frames(stack, display, 3)
    assert "boss_fell" in played and "victory" in played and "wave_clear" not in played
    assert scene.juice is not None and scene.juice.banner is not None
    assert scene.juice.banner[0] == tr("ui.arena.banner_victory", name=tr("boss.void_lord.name"))


def test_r_feel_1_an_ordinary_wave_clear_keeps_its_chime(display: pygame.Surface) -> None:
    stack, scene, played = boss_arena(display, 8, seed=1)
    strike(scene, 0.0)
    frames(stack, display, 3)
    assert "wave_clear" in played and "victory" not in played


def test_r_boss_2_an_off_screen_boss_is_pointed_at_from_the_screen_edge(display: pygame.Surface) -> None:
    """After W20's horde the Void Lord may stand far off in an empty arena: an arrow inside the
    screen's edge points the way to it, and goes while it is on screen."""
    stack, scene, _ = boss_arena(display, 8, seed=1)
    world = scene.run.sim.world
    boss = world.boss_status()[0]
    arena_w, _ = scene.run.sim.arena
    # The player at the far side of the arena from the boss, level with it: the boss is off screen.
    far_x = 60.0 if boss["x"] > arena_w / 2 else arena_w - 60.0
    world.set_player_position(far_x, boss["y"])
    assert scene.camera is not None
    scene.camera.follow(far_x, boss["y"], snap=True)
    frames(stack, display, 1)
    bar, now = scene.hud_state.boss, world.boss_status()[0]
    assert bar is not None and bar.at == (now["x"], now["y"]), "where it stands this frame"
    w, h = display.get_size()
    band = slice(w - 70, w - 20) if boss["x"] > far_x else slice(20, 70)
    edge = pygame.surfarray.array3d(display)[band, 100 : h - 96].astype(int)
    assert (np.abs(edge - hud.BOSS_COLOUR).sum(axis=2) < 30).sum() > 60, "an arrow on the boss's side"
    # The pointer's geometry: on the line from the screen's centre to the boss, inside the edge.
    offset = (100.0, -40.0)
    tip = hud.boss_pointer(display, (w * 3.0, h / 2 + 40.0 - offset[1] + 200.0), offset, hud.BOSS_COLOUR)
    assert tip is not None and w - 31 <= tip[0] <= w - 29 and 100 < tip[1] < h - 96
    assert hud.boss_pointer(display, (w / 2, h / 2), (0.0, 0.0), hud.BOSS_COLOUR) is None, "on screen: none"
    # Under a HUD box (the relic row) it is hidden: pointed at from where the line to it meets the box.
    relics = pygame.Rect(12, 94, 400, 40)
    tip = hud.boss_pointer(display, (200.0, 110.0), (0.0, 0.0), hud.BOSS_COLOUR, (relics,))
    assert tip is not None and abs(tip[1] - relics.bottom) < 1e-6 and 200.0 < tip[0] < w / 2
    # Between the boxes, or by the side edges where no HUD stands, a boss on screen is in sight.
    assert hud.boss_pointer(display, (w / 2, 60.0), (0.0, 0.0), hud.BOSS_COLOUR, (relics,)) is None
    assert hud.boss_pointer(display, (w - 10.0, h / 2), (0.0, 0.0), hud.BOSS_COLOUR, (relics,)) is None


def test_r_feel_1_a_player_at_the_bottom_wall_stands_above_the_boss_bar(display: pygame.Surface) -> None:
    """The camera may pass the bottom wall by the HUD's bottom band: a player backed against the
    wall in a boss fight is drawn whole, above the boss's bar and its name (from h − 82 down)."""
    stack, scene, _ = boss_arena(display, 8, seed=1)
    world = scene.run.sim.world
    arena_w, arena_h = scene.run.sim.arena
    radius = CONTENT.balance.player.radius
    world.set_player_position(arena_w / 2, arena_h - radius)
    assert scene.camera is not None
    scene.camera.follow(arena_w / 2, arena_h - radius, snap=True)
    frames(stack, display, 1)
    assert scene.hud_state.boss is not None, "the boss's bar is up"
    _, h = display.get_size()
    y = world.player_position()[1] + scene.camera.offset[1]
    assert y + 2.5 * radius <= h - 82, "the player and the bar under it clear the boss's name and bar"


def test_r_boss_2_a_boss_under_the_relic_row_is_pointed_at(display: pygame.Surface) -> None:
    """The boss's centre under the relic row (the arena's own HUD box): the arrow shows just
    below the row, on the line from the screen's centre to the boss."""
    stack, scene, _ = boss_arena(display, 8, seed=1)
    world = scene.run.sim.world
    boss = world.boss_status()[0]
    for relic_id in scene.run.relics.book.pool[:8]:
        scene.run.gain_relic(relic_id)
    row = scene.relic_view.drawn_rect(len(scene.run.relics.owned))
    assert row is not None and row.width > 400, "a row of nine relics"
    # The view's centre where the boss draws under the row's right end (the player stands there;
    # the boss stands right of the arena's middle, so the view is not stopped by the right wall).
    w, h = display.get_size()
    cx, cy = boss["x"] - (row.right - 40) + w / 2, boss["y"] - row.centery + h / 2
    world.set_player_position(cx, cy)
    assert scene.camera is not None
    scene.camera.follow(cx, cy, snap=True)
    frames(stack, display, 1)
    bar = scene.hud_state.boss
    assert bar is not None and bar.at is not None
    ox, oy = scene.camera.offset
    assert row.collidepoint(bar.at[0] + ox, bar.at[1] + oy), "the boss stands under the relic row"
    below = pygame.surfarray.array3d(display)[: w // 2, row.bottom : row.bottom + 30].astype(int)
    assert (np.abs(below - hud.BOSS_COLOUR).sum(axis=2) < 30).sum() > 60, "an arrow under the row"
    # Past the relics it holds the row draws nothing: a boss there is in sight, no arrow.
    assert (
        hud.boss_pointer(display, (row.right + 60.0, row.centery), (0.0, 0.0), hud.BOSS_COLOUR, scene.hud_state.covered)
        is None
    )


def test_r_feel_1_a_player_at_a_side_wall_is_drawn_whole(display: pygame.Surface) -> None:
    """The camera may pass a side wall by a sliver: a player backed against the left or the right
    wall is drawn whole, its sprite inside the screen."""
    stack, scene, _ = boss_arena(display, 8, seed=1)
    world = scene.run.sim.world
    arena_w, arena_h = scene.run.sim.arena
    radius = CONTENT.balance.player.radius
    assert scene.camera is not None and scene.renderer is not None
    half = scene.renderer.atlas.player.get_width() / 2
    w, _ = display.get_size()
    for x in (radius, arena_w - radius):
        world.set_player_position(x, arena_h / 2)
        scene.camera.follow(x, arena_h / 2, snap=True)
        frames(stack, display, 1)
        drawn = world.player_position()[0] + scene.camera.offset[0]
        assert half <= drawn <= w - half, f"the sprite inside the screen at the wall x={x}"
