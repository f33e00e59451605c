"""The deck in a real window (R-VM-3, R-LAB-1): a board of three different actions is put
together in the lab with the mouse, and the training range shows all three shots.

The way in is a saved run (R-SAVE-1), written here through the game's own save code: after
wave 1, the starter wand's three spark bolts on the board and an ice shard and an acid spray
in the backpack. `artificer play` under Xvfb: Continue on the title → the shop before wave 2
→ L opens the lab → xdotool drags the ice shard onto slot 2 and the acid spray onto slot 3
(where the lab draws them: the same `LabScene` layout computed here) → T opens the range.
Then the screen is read: in the range's view, between the player and the dummies, each
spell's projectile shows its own colour (the three are of three elements — physical, ice,
poison — so their shots are told apart by colour alone: looks.json's element colours, which
the atlas paints the shots' bodies with), and all three colours must appear within a few seconds — when
every cast restarted at the head, only spark bolts flew. Screenshots go to
`build/e2e/lab_deck/`.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from .test_window import ARTIFACTS, SCREEN, Game, Image, difference, distinct_colours, save_png, wait_until, x_display

__all__ = ["x_display"]  # the fixture, used by name below

SHOTS = ARTIFACTS / "lab_deck"
DECK = ("spark_bolt", "ice_shard", "acid_spray")
TOLERANCE = 12
#: How near (sum of channel differences) a pixel must be to a shot's element colour: the
#: body's edges blend with the floor, its centre is whiter.
SHOT_TOLERANCE = 45
#: Pixels of a spell's element colour in one screenshot that make its shot "seen".
MIN_PIXELS = 4
RANGE_SECONDS = 8.0

pytestmark = pytest.mark.timeout(120)


def near(region: Image, colour: tuple[int, int, int] | np.ndarray, tolerance: int = TOLERANCE) -> np.ndarray:
    return np.asarray(np.abs(region.astype(np.int16) - np.asarray(colour, dtype=np.int16)).sum(axis=2) < tolerance)


def corridor(image: Image, view_height: int) -> tuple[int, int, np.ndarray] | None:
    """The range's view between the player and the dummy line: (left, right, the floor's colour).
    The player by its outline, the grunt dummies by their colour (looks.json)."""
    from artificer.content import load_content

    looks = load_content().looks
    assert looks.player.outline is not None
    view = image[:view_height]
    player_x = np.nonzero(near(view, looks.player.outline, 40).any(axis=0))[0]
    dummy_x = np.nonzero(near(view, looks.enemies["grunt"].colour, 40).any(axis=0))[0]
    if not len(player_x) or not len(dummy_x):
        return None
    left, right = int(player_x.max()) + 6, int(dummy_x.min()) - 14
    if right - left < 60:
        return None
    return left, right, np.median(view[:, left:right].reshape(-1, 3), axis=0)


@pytest.fixture
def saved_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, dict[str, tuple[int, int]]]]:
    """A run saved after wave 1 with two actions in the backpack; yields the game's home and
    where the lab draws the cards to drag (backpack cells, board slots)."""
    if importlib.util.find_spec("artificer._core") is None:
        pytest.fail("the Rust extension is not built: run `make test` (it builds it first)")
    from artificer import storage
    from artificer.content import load_content
    from artificer.game import save
    from artificer.game.loadout import Place
    from artificer.game.meta import Meta, save_meta
    from artificer.game.run import Run, WaveStats
    from artificer.ui.scenes.lab import LabScene

    home = tmp_path / "home"
    monkeypatch.setenv(storage.HOME_ENV, str(home))
    save_meta(Meta(onboarding_done=True))  # a player past the first-run lessons (R-ONB-1)
    content = load_content()
    run = Run(content, 7)
    assert run.loadout.carried(run.loadout.active).cards[:3] == ["spark_bolt"] * 3
    run.loadout.backpack = ["ice_shard", "acid_spray"]
    run.waves = [WaveStats(wave=1)]
    run.shop.open(1)
    save.save_run(run, 2)
    loaded = save.load_run(content)
    assert isinstance(loaded, save.LoadedRun)
    lab = LabScene(loaded.run, 2)  # its layout for the window's size, as the game computes it
    places = {
        "backpack0": lab.rect_of(Place("backpack", 0)).center,
        "backpack1": lab.rect_of(Place("backpack", 1)).center,
        "slot1": lab.rect_of(Place("slot", 1)).center,
        "slot2": lab.rect_of(Place("slot", 2)).center,
    }
    yield home, places


def test_r_vm_3_r_lab_1_three_actions_built_in_the_lab_all_fire_in_the_range(
    x_display: str, saved_run: tuple[Path, dict[str, tuple[int, int]]]
) -> None:
    home, places = saved_run
    SHOTS.mkdir(parents=True, exist_ok=True)
    for old in SHOTS.glob("*.png"):
        old.unlink()
    game = Game(x_display, home, SHOTS / "game.log")
    started = time.monotonic()
    try:
        _play(game, places)
    finally:
        game.stop()
    print(f"e2e lab deck: {time.monotonic() - started:.1f} s")


def _play(game: Game, places: dict[str, tuple[int, int]]) -> None:
    from artificer.content import load_content

    def shot(name: str) -> Image:
        image = game.screenshot()
        save_png(image, SHOTS / f"{name}.png")
        assert distinct_colours(image) > 32, f"{name}: the window is blank (see {SHOTS}/{name}.png)"
        return image

    def drag(start: tuple[int, int], end: tuple[int, int]) -> None:
        ox, oy = game.origin
        game.xdotool("mousemove", "--sync", str(ox + start[0]), str(oy + start[1]))
        time.sleep(0.15)
        game.xdotool("mousedown", "1")
        time.sleep(0.15)
        game.xdotool("mousemove", "--sync", str(ox + (start[0] + end[0]) // 2), str(oy + (start[1] + end[1]) // 2))
        time.sleep(0.1)
        game.xdotool("mousemove", "--sync", str(ox + end[0]), str(oy + end[1]))
        time.sleep(0.15)
        game.xdotool("mouseup", "1")
        time.sleep(0.3)

    # The title, with Continue offered (the save exists): the cursor starts on it, Enter.
    game.find_window()
    wait_until("the title to be drawn", lambda: distinct_colours(game.screenshot()) > 32, 15)
    time.sleep(0.5)
    title = shot("01_title")
    game.key("Return")
    wait_until("the shop (the run continued)", lambda: difference(game.screenshot(), title) > 6, 15)
    time.sleep(0.8)
    shop = shot("02_shop")

    # L: the lab, the starter wand's three spark bolts on the board.
    game.key("l")
    wait_until("the lab", lambda: difference(game.screenshot(), shop) > 6, 15)
    time.sleep(0.5)
    before = shot("03_lab_before")
    # Onto a card the two swap: the ice shard takes slot 2 and a spark bolt takes its cell, so
    # the acid spray is still the backpack's second card.
    drag(places["backpack0"], places["slot1"])
    assert difference(game.screenshot(), before) > 0.3, "the first drag changed the lab"
    drag(places["backpack1"], places["slot2"])
    lab = shot("04_lab_deck")
    x, y = places["slot1"]
    assert difference(lab[y - 40 : y + 40, x - 40 : x + 40], before[y - 40 : y + 40, x - 40 : x + 40]) > 3, (
        "slot 2 holds another card"
    )

    # T: the range, at full speed.
    game.key("t")
    wait_until("the training range", lambda: difference(game.screenshot(), lab) > 6, 15)
    content = load_content()
    elements = {spell: str(content.spell(spell).element) for spell in DECK}
    view_height = int(SCREEN[1] * 0.46)  # ui/scenes/training.py: the view is the top 46%
    seen = {spell: 0 for spell in DECK}
    best: dict[str, Image] = {}
    deadline = time.monotonic() + RANGE_SECONDS
    frames = 0
    while time.monotonic() < deadline and not all(count >= 2 for count in seen.values()):
        image = game.screenshot()
        frames += 1
        found = corridor(image, view_height)
        if found is None:
            continue
        left, right, _floor = found
        region = image[:view_height, left:right]
        for spell, element in elements.items():
            if int(near(region, content.looks.elements[element].colour, SHOT_TOLERANCE).sum()) >= MIN_PIXELS:
                seen[spell] += 1
                best.setdefault(spell, image)
    for spell, image in best.items():
        save_png(image, SHOTS / f"05_range_{spell}.png")
    shot("06_range")
    # The loop stops once every spell was seen twice, which can take as few as 2 screenshots.
    assert frames > 0, "the range was screenshotted"
    missing = [spell for spell, count in seen.items() if count == 0]
    assert not missing, (
        f"no {', '.join(missing)} shot seen in {frames} screenshots of the range (seen: {seen}); see {SHOTS}"
    )
