"""The arena's sprite rasterizer (`_core.SpriteRasterizer`, wired into
`ArenaRenderer`) under the dummy video driver: it draws what the fblits path
draws, within ±1 per channel where sprites do not overlap, into windows and
subsurfaces, releases the surface, and refuses every bad argument with a
`CoreArgumentError`.

Why ±1 and not identical: the rasterizer blends premultiplied colours
(`c·a/255` rounded once when the atlas is converted, `dst·(255−a)/255`
rounded per blend), SDL 2.32 blends straight alpha with its own rounding
(neither floor nor nearest; measured within 1 of the exact value), so one
blend lands on the same or a neighbouring value. Where translucent sprites
pile up, each blend can add its ±1, so a crowd drifts by a few steps at
most (measured ≤ 3 in the crowded scene below). Sprite positions are
identical (both round down).
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from collections.abc import Iterator  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

from artificer import CoreArgumentError, _core  # noqa: E402
from artificer.content import load_content  # noqa: E402
from artificer.engine.frame import Capacity, FrameBuffers, PlayerField, StepCounts  # noqa: E402
from artificer.ui.atlas import Atlas  # noqa: E402
from artificer.ui.render import STATUS_FLAGS, ArenaRenderer, Camera, premultiplied_rgba  # noqa: E402

CONTENT = load_content()
SCREEN = (960, 600)
CELL = 80
ARENA = (1000.0, 1000.0)


@pytest.fixture
def screen() -> Iterator[pygame.Surface]:
    pygame.init()
    try:
        yield pygame.display.set_mode(SCREEN)
    finally:
        pygame.quit()


def scene(n_enemies: int = 300, n_shots: int = 500, seed: int = 4) -> FrameBuffers:
    """A crowded frame: every enemy kind, elites, every spell look (and looks
    past the atlas), pickups and summons, some over the screen's edges."""
    rng = np.random.default_rng(seed)
    buffers = FrameBuffers(Capacity(n_enemies, n_shots, 40, 8, zones=2, summons=6))

    def around(n: int) -> npt.NDArray[np.float64]:
        return rng.uniform(-30, 30, (n, 2)) + (SCREEN[0] / 2, SCREEN[1] / 2) + rng.uniform(-1, 1, (n, 2)) * 150

    buffers.enemies[:, :2] = around(n_enemies)
    buffers.enemies[:, 2] = rng.integers(0, len(CONTENT.enemies), n_enemies)
    buffers.enemies[:, 5] = rng.integers(0, 8, n_enemies)  # elite, vulnerable, weak flags mixed
    buffers.projectiles[:, :2] = around(n_shots)
    buffers.projectiles[:, 2] = rng.integers(0, len(CONTENT.spells) + 3, n_shots)
    buffers.pickups[:, :2] = around(40)
    buffers.summons[:, :2] = around(6)
    return _with_player_and_zones(buffers, StepCounts(n_enemies, n_shots, 40, 0, 0, 0.0, zones=2, summons=6))


def sparse_scene() -> FrameBuffers:
    """Every enemy sprite once (kinds, elites, and the hit flash of both; a status on each kind), every
    shot look (spells with a shot in looks.json, heading right, down-left and
    up; one spell without, which shows the default shot), an enemy shot, the
    crystal and a turret, each alone in an 80-px cell (wider than any sprite),
    the outer cells cut by the screen's edges; the player's cell stays empty."""
    columns, rows = SCREEN[0] // CELL + 1, SCREEN[1] // CELL + 1
    cells = [(c * CELL - 2.3, r * CELL - 2.6) for r in range(rows) for c in range(columns)]
    cells = [xy for xy in cells if abs(xy[0] - SCREEN[0] / 2) > CELL / 2 or abs(xy[1] - SCREEN[1] / 2) > CELL / 2]
    kinds = len(CONTENT.enemies)
    flags = (0, _core.ENEMY_FLAG_ELITE, _core.ENEMY_FLAG_HIT, _core.ENEMY_FLAG_ELITE | _core.ENEMY_FLAG_HIT)
    enemies = [(kind, flag) for flag in flags for kind in range(kinds)]
    statuses = list(STATUS_FLAGS.values())
    enemies += [(kind, statuses[kind % len(statuses)] | (kind % 2) * _core.ENEMY_FLAG_ELITE) for kind in range(kinds)]
    shot_spells = [i for i, spell in enumerate(CONTENT.spells) if spell.id in CONTENT.looks.shots]
    without = next(i for i, spell in enumerate(CONTENT.spells) if spell.id not in CONTENT.looks.shots)
    headings = ((300.0, 0.0), (-200.0, 200.0), (0.0, -300.0))
    shots = [(look, vx, vy, 0.0) for look in shot_spells for vx, vy in headings[: 1 + (look % 3 == 0) * 2]]
    shots += [(without, 300.0, 0.0, 0.0), (0, 0.0, 300.0, 1.0)]
    assert len(cells) >= len(enemies) + len(shots) + 2, (len(cells), len(enemies) + len(shots) + 2)
    buffers = FrameBuffers(Capacity(len(enemies), len(shots), 1, 8, zones=2, summons=1))
    place = iter(cells)
    for i, (kind, flag) in enumerate(enemies):
        buffers.enemies[i] = (*next(place), kind, 10.0, 1.0, float(flag))
    for i, (look, vx, vy, owner) in enumerate(shots):
        buffers.projectiles[i] = (*next(place), look, 4.0, vx, vy, owner)
    spells = shots
    buffers.pickups[0, :2] = next(place)
    buffers.summons[0, :2] = next(place)
    return _with_player_and_zones(buffers, StepCounts(len(enemies), len(spells), 1, 0, 0, 0.0, zones=2, summons=1))


def _with_player_and_zones(buffers: FrameBuffers, counts: StepCounts) -> FrameBuffers:
    buffers.zones[:2] = [[100.0, 80.0, 30.0, 1.0, 1.0], [250.0, 150.0, 50.0, 3.0, 1.0]]
    buffers.player[PlayerField.X] = SCREEN[0] / 2
    buffers.player[PlayerField.Y] = SCREEN[1] / 2
    buffers.counts = counts
    return buffers


def camera() -> Camera:
    cam = Camera(SCREEN)
    cam.follow(SCREEN[0] / 2 + 0.37, SCREEN[1] / 2 - 0.81, snap=True)  # fractional: rounding matters
    return cam


def draw_both(surface: pygame.Surface, renderer: ArenaRenderer, buffers: FrameBuffers) -> tuple[Any, Any, int, int]:
    """The frame drawn by the rasterizer, then by fblits: both images and counts."""
    raster = renderer.rasterizer
    drawn_raster = renderer.draw(surface, buffers, camera())
    by_raster = pygame.surfarray.array3d(surface).astype(int)
    renderer.rasterizer = None
    drawn_fblits = renderer.draw(surface, buffers, camera())
    by_fblits = pygame.surfarray.array3d(surface).astype(int)
    renderer.rasterizer = raster
    return by_raster, by_fblits, drawn_raster, drawn_fblits


def test_the_rasterizer_draws_what_fblits_draws_within_one_per_channel(screen: pygame.Surface, tmp_path: Any) -> None:
    renderer = ArenaRenderer(Atlas.build(CONTENT), ARENA)
    assert _core.SpriteRasterizer.supports(screen.get_bytesize(), screen.get_masks()), "the dummy window is XRGB8888"
    buffers = sparse_scene()
    by_raster, by_fblits, drawn_raster, drawn_fblits = draw_both(screen, renderer, buffers)
    diff = np.abs(by_raster - by_fblits)
    assert diff.max() <= 1, f"{(diff > 1).sum()} channels differ by more than 1"
    assert (by_raster != by_raster[0, 0]).any(axis=2).mean() > 0.1, "the sprites are on screen"
    on_screen = len(buffers.enemy_rows()) + len(buffers.projectile_rows()) + 2 + 1  # and the player
    assert drawn_raster == drawn_fblits == on_screen
    pygame.image.save(screen, os.path.join(str(tmp_path), "arena_fblits.png"))


def test_in_a_crowd_the_rasterizer_stays_within_a_few_steps_of_fblits(screen: pygame.Surface) -> None:
    renderer = ArenaRenderer(Atlas.build(CONTENT), ARENA)
    by_raster, by_fblits, drawn_raster, drawn_fblits = draw_both(screen, renderer, scene())
    diff = np.abs(by_raster - by_fblits)
    assert (diff <= 1).mean() > 0.97
    assert diff.max() <= 4, "stacked translucent blends each add at most ±1, attenuated by the ones above"
    # The rasterizer counts exactly what touches the screen, fblits what
    # lies within its culling margin (its widest sprite's half).
    assert 0 < drawn_raster <= drawn_fblits


def test_the_rasterizer_draws_into_a_subsurface_like_fblits_and_only_there(screen: pygame.Surface) -> None:
    """The training range draws the arena into a subsurface of the window."""
    renderer = ArenaRenderer(Atlas.build(CONTENT), ARENA)
    screen.fill((255, 0, 255))
    view = screen.subsurface((30, 20, 250, 150))
    by_raster, by_fblits, _, _ = draw_both(view, renderer, scene())
    assert np.abs(by_raster - by_fblits).max() <= 1
    outside = pygame.surfarray.array3d(screen)
    outside[30:280, 20:170] = (255, 0, 255)
    assert (outside == (255, 0, 255)).all(), "nothing drawn outside the subsurface"


def test_the_surface_is_unlocked_after_drawing(screen: pygame.Surface) -> None:
    renderer = ArenaRenderer(Atlas.build(CONTENT), ARENA)
    renderer.draw(screen, scene(), camera())
    assert not screen.get_locked()
    screen.blit(renderer.atlas.player, (0, 0))  # a locked surface would refuse this


def test_threads_draw_the_same_pixels(screen: pygame.Surface) -> None:
    renderer = ArenaRenderer(Atlas.build(CONTENT), ARENA, threads=1)
    buffers = scene(2000, 3000)
    renderer.draw(screen, buffers, camera())
    one = pygame.surfarray.array3d(screen)
    assert renderer.rasterizer is not None
    renderer.rasterizer.set_threads(2)
    assert renderer.rasterizer.threads == 2
    renderer.draw(screen, buffers, camera())
    assert (pygame.surfarray.array3d(screen) == one).all()


def test_a_surface_with_alpha_falls_back_to_fblits(screen: pygame.Surface) -> None:
    canvas = pygame.Surface(SCREEN, pygame.SRCALPHA)
    assert not _core.SpriteRasterizer.supports(canvas.get_bytesize(), canvas.get_masks())
    assert not _core.SpriteRasterizer.supports(2, (0xF800, 0x7E0, 0x1F, 0))
    renderer = ArenaRenderer(Atlas.build(CONTENT), ARENA)
    assert renderer.draw(canvas, scene(), camera()) > 0


def test_premultiplied_rgba_rounds_to_nearest(screen: pygame.Surface) -> None:
    sprite = pygame.Surface((2, 1), pygame.SRCALPHA)
    sprite.set_at((0, 0), (255, 100, 3, 128))
    sprite.set_at((1, 0), (200, 200, 200, 0))
    rgba = premultiplied_rgba(sprite)
    assert rgba.shape == (1, 2, 4) and rgba.dtype == np.uint8
    assert rgba[0, 0].tolist() == [128, 50, 2, 128]  # 255·128/255, 100·128/255 = 50.2, 3·128/255 = 1.5 → 2
    assert rgba[0, 1].tolist() == [0, 0, 0, 0]


# --- every bad argument is refused with a message ---------------------------------------

RED = np.array([[[255, 0, 0, 255]]], dtype=np.uint8)
XRGB = (0xFF0000, 0xFF00, 0xFF, 0)


def pixels(w: int = 8, h: int = 4) -> npt.NDArray[np.uint8]:
    return np.zeros(w * h * 4, dtype=np.uint8)


def rows(n: int = 2) -> npt.NDArray[np.float32]:
    return np.full((n, 6), 2.0, dtype=np.float32)


def refused(match: str, call: Any, *args: Any) -> None:
    with pytest.raises(CoreArgumentError, match=match):
        call(*args)


def draw_call(**changes: Any) -> tuple[Any, ...]:
    args = {
        "pixels": pixels(),
        "size": (8, 4),
        "pitch": 32,
        "masks": XRGB,
        "offset": (0.0, 0.0),
        "layers": [(rows(), 0)],
    }
    args.update(changes)
    raster = _core.SpriteRasterizer([RED])
    return (raster.draw, *args.values())


def test_sprites_must_be_uint8() -> None:
    refused(
        r"sprites\[0\]: expected a C-contiguous uint8 array.*got dtype",
        _core.SpriteRasterizer,
        [RED.astype(np.float32)],
    )


def test_sprites_must_have_four_channels() -> None:
    refused(r"sprites\[1\]: .*got shape \[1, 1, 3\]", _core.SpriteRasterizer, [RED, RED[..., :3].copy()])


def test_sprites_must_be_contiguous() -> None:
    wide = np.zeros((2, 4, 4), dtype=np.uint8)
    refused(r"sprites\[0\]: .*non-contiguous", _core.SpriteRasterizer, [wide[:, ::2]])


def test_sprites_must_be_arrays() -> None:
    refused(r"sprites\[0\]: expected .* got list", _core.SpriteRasterizer, [[1, 2, 3]])


def test_sprites_must_be_premultiplied() -> None:
    straight = np.array([[[255, 0, 0, 128]]], dtype=np.uint8)
    refused(r"sprites\[0\]: pixel \(0, 0\) .* not premultiplied", _core.SpriteRasterizer, [straight])


def test_empty_sprites_are_refused() -> None:
    refused(r"sprites\[0\]: size 0×1", _core.SpriteRasterizer, [np.zeros((1, 0, 4), dtype=np.uint8)])


def test_threads_must_be_positive() -> None:
    refused(r"threads must be a whole number in 1\.\.=\d+ .*got 0", _core.SpriteRasterizer, [RED], 0)


def test_pixels_must_be_uint8() -> None:
    refused(
        r"pixels: expected a C-contiguous uint8 array .* got dtype", *draw_call(pixels=np.zeros(32, dtype=np.uint32))
    )


def test_pixels_must_be_contiguous() -> None:
    refused(r"pixels: .*non-contiguous", *draw_call(pixels=np.zeros(256, dtype=np.uint8)[::2]))


def test_pixels_must_be_writable() -> None:
    frozen = pixels()
    frozen.flags.writeable = False
    refused("pixels: the buffer is read-only", *draw_call(pixels=frozen))


def test_pixels_must_hold_every_row() -> None:
    refused(
        r"pixels: 127 bytes, but 8×4 pixels with pitch 32 need 128", *draw_call(pixels=np.zeros(127, dtype=np.uint8))
    )


def test_pitch_must_hold_a_row() -> None:
    refused("pitch 28 is shorter than a row of 8", *draw_call(pitch=28))


def test_size_must_not_be_negative() -> None:
    refused(r"size\[0\] \(width\) must be a whole number in 0\.\..*got -1", *draw_call(size=(-1, 4)))


def test_the_pixel_format_must_be_supported() -> None:
    refused("the target has an alpha channel", *draw_call(masks=(0xFF0000, 0xFF00, 0xFF, 0xFF000000)))


def test_masks_must_be_32_bit() -> None:
    refused(r"masks\[0\] must be a whole number in 0\.\.=4294967295, got -1", *draw_call(masks=(-1, 0xFF00, 0xFF, 0)))


def test_the_offset_must_be_finite() -> None:
    refused(r"offset\[0\] must be a finite number .*got NaN", *draw_call(offset=(float("nan"), 0.0)))


def test_layers_must_be_pairs() -> None:
    refused(r"layers\[0\]: expected a \(rows, sprites\) tuple", *draw_call(layers=[(rows(),)]))


def test_rows_must_be_float32() -> None:
    refused(
        r"layers\[0\] rows: expected a C-contiguous float32 array .* got dtype",
        *draw_call(layers=[(rows().astype(np.float64), 0)]),
    )


def test_rows_need_x_and_y() -> None:
    refused(r"layers\[0\] rows: need at least 2 columns", *draw_call(layers=[(rows()[:, :1].copy(), 0)]))


def test_rows_must_be_contiguous() -> None:
    refused(r"layers\[0\] rows: .*non-contiguous", *draw_call(layers=[(rows(4)[::2], 0)]))


def test_sprite_indices_must_be_int32() -> None:
    refused(
        r"layers\[0\] sprites: expected a C-contiguous int32 array",
        *draw_call(layers=[(rows(), np.zeros(2, dtype=np.int64))]),
    )


def test_sprite_indices_must_match_the_rows() -> None:
    refused(r"layers\[0\]: 3 sprite indices for 2 rows", *draw_call(layers=[(rows(), np.zeros(3, dtype=np.int32))]))


def test_a_sprite_index_must_be_in_range() -> None:
    refused(
        r"layers\[1\]: sprite index 1 \(row 1\) out of range 0..1",
        *draw_call(layers=[(rows(), 0), (rows(), np.array([0, 1], dtype=np.int32))]),
    )
    refused(r"layers\[0\]: sprite index -1 out of range", *draw_call(layers=[(rows(), -1)]))


def test_a_refused_draw_changes_no_pixel() -> None:
    target = pixels()
    raster = _core.SpriteRasterizer([RED])
    with pytest.raises(CoreArgumentError):
        raster.draw(target, (8, 4), 32, XRGB, (0.0, 0.0), [(rows(), 0), (rows(), 5)])
    assert not target.any()
    assert raster.draw(target, (8, 4), 32, XRGB, (0.0, 0.0), [(rows(), 0)]) == 2
    assert target.reshape(4, 8, 4)[1, 1].tolist() == [
        0,
        0,
        255,
        0,
    ]  # 1 px centred on (2, 2) → pixel (1, 1); XRGB: b, g, r, x


def test_enemy_shots_are_drawn_as_enemy_shots_not_as_the_spell_they_were(screen: pygame.Surface) -> None:
    """R-WAVE-2: an archer's shot, or a bolt a reflector turned (owner 1), shows the enemy-shot sprite the
    player learns to dodge; the same row owned by the player shows its spell."""
    atlas = Atlas.build(CONTENT)
    renderer = ArenaRenderer(atlas, ARENA)
    spark = CONTENT.spell_index("spark_bolt")
    rows = np.array([[100, 100, spark, 4, 300, 0, 1], [200, 100, spark, 4, 300, 0, 0]], dtype=np.float32)
    sprites = renderer._spell_sprites_of(rows)
    assert renderer._spell_sprites[sprites[0]] is atlas.enemy_shots[0]
    assert renderer._spell_sprites[sprites[1]] is atlas.spells[spark]


def test_r_feel_1_between_waves_no_shot_hangs_in_the_air_and_the_dead_player_is_gone(screen: pygame.Surface) -> None:
    """R-FEEL-1: the breather draws no frozen shots; the death moment draws no player;
    what the scene draws under the player comes after the world and before the player."""
    renderer = ArenaRenderer(Atlas.build(CONTENT), ARENA)
    buffers = sparse_scene()
    everything = renderer.draw(screen, buffers, camera())
    calls: list[tuple[float, float]] = []
    no_shots = renderer.draw(
        screen, buffers, camera(), shots=False, under_player=lambda _s, offset: calls.append(offset)
    )
    assert calls == [camera().offset]
    assert 0 < no_shots < everything
    assert renderer.draw(screen, buffers, camera(), shots=False, show_player=False) == no_shots - 1
