"""R-FEEL-1 on screen: the sprites the atlas draws from looks.json — each enemy
kind its own silhouette (also in the colour-blind palette), common kinds at
least 20 px, elites bigger, a hit-flash variant drawn while the core marks the
row, shots pointing where they fly, enemy shots unlike the player's — and a
camera that never shows the void beyond the arena's walls."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from collections.abc import Iterator  # noqa: E402

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

from artificer import _core  # noqa: E402
from artificer.content import load_content  # noqa: E402
from artificer.content.roster import roster  # noqa: E402
from artificer.engine.frame import Capacity, FrameBuffers, PlayerField, StepCounts  # noqa: E402
from artificer.engine.simulation import Simulation  # noqa: E402
from artificer.ui.atlas import Atlas  # noqa: E402
from artificer.ui.palette import COLOUR_BLIND  # noqa: E402
from artificer.ui.render import VOID, ArenaRenderer, Camera  # noqa: E402

CONTENT = load_content()
SCREEN = (1280, 720)
ARENA = (CONTENT.balance.arena.width, CONTENT.balance.arena.height)


@pytest.fixture
def screen() -> Iterator[pygame.Surface]:
    pygame.init()
    try:
        yield pygame.display.set_mode(SCREEN)
    finally:
        pygame.quit()


def mask(sprite: pygame.Surface, size: int = 48) -> npt.NDArray[np.bool_]:
    """The sprite's silhouette (opaque pixels), scaled to `size`² so kinds of any size compare."""
    scaled = pygame.transform.smoothscale(sprite, (size, size))
    return np.asarray(pygame.surfarray.array_alpha(scaled)) > 160


def overlap(a: npt.NDArray[np.bool_], b: npt.NDArray[np.bool_]) -> float:
    return float((a & b).sum() / max(1, (a | b).sum()))


def test_every_enemy_kind_has_a_silhouette_of_its_own(screen: pygame.Surface) -> None:
    """R-FEEL-1: told apart by shape: any two kinds' silhouettes, scaled to one size, differ in ≥ 8% of their area
    (bosses too; a boss's clone looks like its boss, R-BOSS-2)."""
    atlas = Atlas.build(CONTENT)
    kinds = roster(CONTENT)
    masks = [mask(sprite) for sprite in atlas.enemies]
    assert len(masks) == len(kinds)
    for i in range(len(masks)):
        for j in range(i + 1, len(masks)):
            if kinds[i].look != kinds[j].look:
                assert overlap(masks[i], masks[j]) < 0.92, (kinds[i].id, kinds[j].id)


def test_the_colour_blind_palette_keeps_the_shapes_and_changes_the_colours(screen: pygame.Surface) -> None:
    """R-SET-1/R-FEEL-1: the colour-blind atlas draws the same silhouettes in the looks' cb colours."""
    plain, blind = Atlas.build(CONTENT), Atlas.build(CONTENT, COLOUR_BLIND)
    for index, enemy in enumerate(CONTENT.enemies):
        assert (mask(plain.enemies[index]) == mask(blind.enemies[index])).all(), enemy.id
        look = CONTENT.looks.enemies[enemy.id]
        if look.cb_colour != look.colour:
            assert _colours(blind.enemies[index]) != _colours(plain.enemies[index]), enemy.id
    assert (
        tuple(blind.enemies[CONTENT.enemy_index("brute")].get_at((24, 12)))[:3]
        == CONTENT.looks.enemies["brute"].cb_colour
    )


def _colours(sprite: pygame.Surface) -> set[tuple[int, int, int]]:
    rgb = pygame.surfarray.array3d(sprite).reshape(-1, 3)
    return {tuple(int(c) for c in colour) for colour in rgb[::7]}  # type: ignore[misc]


def test_common_enemies_are_at_least_20_px_on_screen_and_elites_are_bigger(screen: pygame.Surface) -> None:
    atlas = Atlas.build(CONTENT)
    for kind in ("grunt", "runner", "swarmer", "splitling"):
        drawn = atlas.enemies[CONTENT.enemy_index(kind)].get_bounding_rect(min_alpha=128)
        assert max(drawn.size) >= 20 and min(drawn.size) >= 16, (kind, drawn.size)
    for normal, elite in zip(atlas.enemies, atlas.elites):
        assert elite.get_width() > normal.get_width()
    gold = CONTENT.looks.elite.ring
    ring = pygame.surfarray.array3d(atlas.elites[0]).reshape(-1, 3)
    assert (np.abs(ring.astype(int) - gold).sum(axis=1) < 30).any(), "an elite wears the gold ring"


def test_the_flash_variant_is_the_same_silhouette_tinted_white(screen: pygame.Surface) -> None:
    atlas = Atlas.build(CONTENT)
    for normal, lit in zip(atlas.enemies + atlas.elites, atlas.enemy_flashes + atlas.elite_flashes):
        alpha = pygame.surfarray.array_alpha(normal)
        assert (pygame.surfarray.array_alpha(lit) == alpha).all()
        opaque = alpha > 200
        assert pygame.surfarray.array3d(lit)[opaque].mean() > pygame.surfarray.array3d(normal)[opaque].mean() + 60


def _one_enemy(flags: int) -> FrameBuffers:
    buffers = FrameBuffers(Capacity(1, 1, 1, 8, zones=1, summons=1))
    buffers.enemies[0] = (300.0, 300.0, CONTENT.enemy_index("brute"), 18.0, 1.0, float(flags))
    buffers.player[PlayerField.X] = 900.0
    buffers.player[PlayerField.Y] = 500.0
    buffers.counts = StepCounts(1, 0, 0, 0, 0, 0.0)
    return buffers


def _brightness_at(screen: pygame.Surface, renderer: ArenaRenderer, buffers: FrameBuffers, camera: Camera) -> float:
    renderer.draw(screen, buffers, camera)
    ox, oy = camera.offset
    x, y = int(300 + ox), int(300 + oy)
    return float(pygame.surfarray.array3d(screen)[x - 10 : x + 10, y - 6 : y + 14].mean())


@pytest.mark.parametrize("path", ["rasterizer", "fblits"])
def test_a_hit_enemy_is_drawn_flashing_by_both_paths(screen: pygame.Surface, path: str) -> None:
    """R-FEEL-1: a hit flashes its enemy (ENEMY_FLAG_HIT), elite or not, whichever path draws."""
    renderer = ArenaRenderer(Atlas.build(CONTENT), ARENA)
    if path == "fblits":
        renderer.rasterizer = None
    camera = Camera(SCREEN, arena=ARENA)
    camera.follow(640.0, 400.0, snap=True)
    for elite in (0, _core.ENEMY_FLAG_ELITE):
        calm = _brightness_at(screen, renderer, _one_enemy(elite), camera)
        hit = _brightness_at(screen, renderer, _one_enemy(elite | _core.ENEMY_FLAG_HIT), camera)
        assert hit > calm + 60, (elite, calm, hit)


@pytest.mark.parametrize("path", ["rasterizer", "fblits"])
def test_a_lower_enemy_is_drawn_in_front_whatever_the_row_order(screen: pygame.Surface, path: str) -> None:
    """R-FEEL-1 depth: of two overlapping enemies the lower stands in front, in either row order (the
    core reorders its pool every few frames; drawn in row order they would swap places on screen)."""
    renderer = ArenaRenderer(Atlas.build(CONTENT), ARENA)
    if path == "fblits":
        renderer.rasterizer = None
    camera = Camera(SCREEN, arena=ARENA)
    camera.follow(640.0, 400.0, snap=True)
    brute = CONTENT.enemy_index("brute")
    higher = (300.0, 300.0, brute, 18.0, 1.0, 0.0)
    lower = (300.0, 312.0, brute, 18.0, 1.0, float(_core.ENEMY_FLAG_HIT))  # flashing: bright
    shown = []
    for rows in ((higher, lower), (lower, higher)):
        buffers = FrameBuffers(Capacity(2, 1, 1, 8, zones=1, summons=1))
        buffers.enemies[0], buffers.enemies[1] = rows
        buffers.player[PlayerField.X], buffers.player[PlayerField.Y] = 900.0, 500.0
        buffers.counts = StepCounts(2, 0, 0, 0, 0, 0.0)
        renderer.draw(screen, buffers, camera)
        ox, oy = camera.offset
        x, y = int(300 + ox), int(306 + oy)  # where the two overlap
        shown.append(pygame.surfarray.array3d(screen)[x - 6 : x + 6, y - 4 : y + 4].astype(float))
    assert np.array_equal(shown[0], shown[1]), "the row order shows"
    renderer.draw(screen, _one_enemy(0), camera)
    ox, oy = camera.offset
    calm = pygame.surfarray.array3d(screen)[
        int(300 + ox) - 6 : int(300 + ox) + 6, int(306 + oy) - 4 : int(306 + oy) + 4
    ]
    assert shown[0].mean() > calm.astype(float).mean() + 40, "the lower (flashing) enemy is the one in front"


def test_r_boss_2_a_boss_stays_on_top_of_a_lower_grunt(screen: pygame.Surface) -> None:
    """R-BOSS-2 with the depth sort: the crowd is sorted back to front, but a boss is drawn after
    the whole crowd, even over a grunt standing lower than it."""
    renderer = ArenaRenderer(Atlas.build(CONTENT), ARENA)
    boss, grunt = float(renderer._bosses_from), float(CONTENT.enemy_index("grunt"))
    rows = np.array(
        [(300, 340, grunt, 8, 1, 0), (300, 300, boss, 40, 1, 0), (300, 200, grunt, 8, 1, 0)], dtype=np.float32
    )
    crowd, bosses = renderer._enemy_layers(rows)
    assert crowd[:, 1].tolist() == [200.0, 340.0], "the crowd back to front"
    assert bosses[:, 2].tolist() == [boss], "the boss in its own layer, drawn after the crowd"


def test_the_core_s_hit_reaches_the_screen_as_a_flash(screen: pygame.Surface) -> None:
    """R-FEEL-1 end to end: a hit through the simulation picks the flash sprite for that enemy's row."""
    renderer = ArenaRenderer(Atlas.build(CONTENT), ARENA)
    sim = Simulation(CONTENT, seed=1)
    x, y = sim.buffers.player_value("x"), sim.buffers.player_value("y")
    sim.input.spawn(CONTENT.enemy_index("grunt"), x + 300, y)
    sim.step()
    before = renderer._enemy_sprites[renderer._enemy_sprites_of(sim.buffers.enemy_rows())[0]]
    sim.input.damage_nearest(x + 300, y, 1.0)
    sim.step()
    after = renderer._enemy_sprites[renderer._enemy_sprites_of(sim.buffers.enemy_rows())[0]]
    grunt = CONTENT.enemy_index("grunt")
    assert before is renderer.atlas.enemies[grunt] and after is renderer.atlas.enemy_flashes[grunt]


def test_a_bolt_points_where_it_flies_and_enemy_shots_look_hostile(screen: pygame.Surface) -> None:
    """R-FEEL-1: directional shots turn with their velocity; an enemy's shot is never a player's sprite."""
    atlas = Atlas.build(CONTENT)
    renderer = ArenaRenderer(atlas, ARENA)
    lance = CONTENT.spell_index("glacial_lance")
    rows = np.array(
        [[0, 0, lance, 4, 300, 0, 0], [0, 0, lance, 4, 0, 300, 0], [0, 0, lance, 4, 0, 300, 1]], dtype=np.float32
    )
    right, down, hostile = (
        renderer._spell_sprites[i].get_bounding_rect(min_alpha=100) for i in renderer._spell_sprites_of(rows)
    )
    assert right.width > 2 * right.height and down.height > 2 * down.width
    hostile_sprite = renderer._spell_sprites[renderer._spell_sprites_of(rows)[2]]
    assert hostile_sprite is atlas.enemy_shots[0]
    assert all(hostile_sprite is not sprite for turns in atlas.spell_turns for sprite in turns)


def test_summons_show_the_sprite_of_their_spell(screen: pygame.Surface) -> None:
    atlas = Atlas.build(CONTENT)
    turret, coil = CONTENT.spell_index("summon_turret"), CONTENT.spell_index("tesla_coil")
    assert atlas.summons[turret] is not atlas.summons[coil]
    assert not (mask(atlas.summons[turret]) == mask(atlas.summons[coil])).all()


# --- the camera --------------------------------------------------------------------


def test_the_camera_stays_inside_the_arena() -> None:
    """R-FEEL-1: the view's centre is clamped to [screen/2, arena − screen/2] on each axis."""
    camera = Camera(SCREEN, arena=ARENA)
    for x, y in ((0.0, 0.0), (ARENA[0], ARENA[1]), (-500.0, 800.0), (1280.0, 5000.0)):
        camera.follow(x, y, snap=True)
        ox, oy = camera.offset
        assert ox <= 0 and oy <= 0, "no void left or above"
        assert ox + ARENA[0] >= SCREEN[0] and oy + ARENA[1] >= SCREEN[1], "no void right or below"
    camera.follow(1280.0, 800.0, snap=True)
    assert camera.offset == (640.0 - 1280.0, 360.0 - 800.0), "in the middle it centres the player"


def test_r_feel_1_the_camera_leaves_the_hud_s_band_above_the_top_wall() -> None:
    """R-FEEL-1: with a top margin (the HUD's band) the view may pass the top wall by exactly that
    much, so a player or an enemy at the wall shows under the band, not under the HUD; elsewhere
    the clamp is as before."""
    band = 142.0
    camera = Camera(SCREEN, arena=ARENA, margins=(0.0, band, 0.0, 0.0))
    camera.follow(0.0, 0.0, snap=True)
    ox, oy = camera.offset
    assert ox == 0.0 and oy == band, "the top wall sits at the band's bottom"
    camera.follow(ARENA[0], ARENA[1], snap=True)
    ox, oy = camera.offset
    assert ox + ARENA[0] == SCREEN[0] and oy + ARENA[1] == SCREEN[1], "no void right or below"


def test_an_arena_smaller_than_the_screen_is_centred() -> None:
    camera = Camera(SCREEN, arena=(800.0, 2000.0))
    camera.follow(10.0, 10.0, snap=True)
    ox, oy = camera.offset
    assert ox == (SCREEN[0] - 800.0) / 2, "narrower than the screen: centred"
    assert oy == 0.0, "taller than the screen: clamped at the top wall"


def test_the_camera_still_follows_smoothly() -> None:
    camera = Camera(SCREEN, arena=ARENA)
    camera.follow(1280.0, 800.0, snap=True)
    camera.follow(1380.0, 800.0)
    assert 1280.0 < camera.x < 1380.0, "one step covers part of the way"
    free = Camera(SCREEN)
    free.follow(-100.0, -100.0, snap=True)
    assert free.offset == (740.0, 460.0), "without an arena it does not clamp (the training range)"


def test_at_the_arena_s_corner_the_screen_shows_walls_not_void(screen: pygame.Surface) -> None:
    """R-FEEL-1: with the view allowed past each edge by the walls' width (the arena scene allows at
    least that), a corner of the arena shows its two walls and no void."""
    renderer = ArenaRenderer(Atlas.build(CONTENT), ARENA)
    buffers = _one_enemy(0)
    band = float(CONTENT.looks.floor.wall_width)
    wall = np.array(CONTENT.looks.floor.wall)
    for corner in ((0.0, 0.0), ARENA):
        camera = Camera(SCREEN, arena=ARENA, margins=(band, band, band, band))
        camera.follow(*corner, snap=True)
        renderer.draw(screen, buffers, camera)
        pixels = pygame.surfarray.array3d(screen)
        assert not (pixels == VOID).all(axis=2).any(), "no pixel of void"
        edge = pixels[2, 360] if corner == (0.0, 0.0) else pixels[-3, 360]
        assert (np.abs(edge.astype(int) - wall) <= 2).all(), "the wall is on screen"


def test_r_feel_1_the_walls_stand_outside_the_arena_so_what_stops_at_its_edge_is_against_them(
    screen: pygame.Surface,
) -> None:
    """The core stops the player and the enemies at the arena's edge (by their radius): the walls are
    drawn outside it, so the floor runs up to the edge, where the wall's lit face is, and a player
    at the edge stands against the wall, not sunk in it (a playtest found it drawn half in the wall)."""
    renderer = ArenaRenderer(Atlas.build(CONTENT), ARENA)
    band = CONTENT.looks.floor.wall_width
    wall = np.array(CONTENT.looks.floor.wall)
    camera = Camera(SCREEN, arena=ARENA, margins=(float(band),) * 4)
    camera.follow(0.0, 0.0, snap=True)
    renderer.draw(screen, _one_enemy(0), camera)
    ox, oy = (int(v) for v in camera.offset)
    pixels = pygame.surfarray.array3d(screen).astype(int)
    y = oy + 400  # a row along the left wall, clear of the enemy and the player
    assert (np.abs(pixels[ox - band + 3, y] - wall) <= 2).all(), "the wall stands outside the edge"
    inside = pixels[ox + 12 : ox + 40, y]  # where a player of radius 12 at the edge stands
    assert not (np.abs(inside - wall) <= 2).all(axis=1).any(), "no wall inside the arena"


def test_a_status_tints_its_enemy_and_a_hit_flash_shows_over_it(screen: pygame.Surface) -> None:
    """Statuses read on the crowd: a burning or frozen enemy has its own tinted sprite; a hit still flashes."""
    renderer = ArenaRenderer(Atlas.build(CONTENT), ARENA)
    grunt = CONTENT.enemy_index("grunt")
    flags = [0, _core.ENEMY_FLAG_BURNING, _core.ENEMY_FLAG_FROZEN, _core.ENEMY_FLAG_BURNING | _core.ENEMY_FLAG_HIT]
    rows = np.array([[0, 0, grunt, 10, 1, flag] for flag in flags], dtype=np.float32)
    plain, burning, frozen, hit = (renderer._enemy_sprites[i] for i in renderer._enemy_sprites_of(rows))
    assert len({id(plain), id(burning), id(frozen)}) == 3
    assert hit is renderer.atlas.enemy_flashes[grunt]
    assert overlap(mask(burning), mask(plain)) > 0.9, "a status keeps the silhouette (plus its pip)"
