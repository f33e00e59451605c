"""The game in a real window: `artificer play` under Xvfb, driven by xdotool key presses.

The path a new player takes through their first two runs — title → New run
→ (the first run's lab is closed, R-ONB-1) a few seconds of wave 1 → Esc
pauses → Abandon → the run summary (R-END-1) → back to the title → New run
again: the second run opens the lab → Esc back → Esc quits — with a
screenshot of the root window at every stage, kept in `build/e2e/`
(gitignored) for a person to look at. The checks: every screen is drawn
(many distinct colours, not a blank fill), each stage looks different from
the last, the arena's HUD is drawn (the HP bar top-left, the wave timer
text top-centre), the pause freezes the frame, the summary's PNG is written
under `$ARTIFICER_HOME/data/runs/` with its dated name (R-SAVE-1) and shows
what the window showed, and the game exits cleanly.

Needs `Xvfb`, `xdotool` and `xwd` (x11-apps); `make e2e-tools` installs
them. The test skips, saying so, only when they cannot be found. It starts
its own X server on a free display, so it runs the same with or without a
`DISPLAY` of its own.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "build" / "e2e"
SCREEN = (1280, 720)
WINDOW_TITLE = "Arcane Artificer"
TOOLS = ("Xvfb", "xdotool", "xwd")
# The HUD's colours and places (python/artificer/ui/hud.py): the HP bar at (22, 20, 280, 18).
HP_COLOUR = (213, 94, 0)
HP_BAR = (22, 20, 280, 18)
TIMER_BOX = (SCREEN[0] // 2 - 130, 10, 260, 30)
SECONDS_IN_WAVE = 3.0

Image = npt.NDArray[np.uint8]

pytestmark = pytest.mark.timeout(120)
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # this process imports pygame only to write PNGs


# --- screenshots ---------------------------------------------------------------------


def parse_xwd(data: bytes) -> Image:
    """An `xwd` dump (ZPixmap, 32 bits per pixel) as an RGB array of shape (height, width, 3)."""
    header = struct.unpack(">25I", data[:100])
    header_size, _, pixmap_format, _, width, height = header[:6]
    byte_order, bits_per_pixel, bytes_per_line = header[7], header[11], header[12]
    red_mask, green_mask, blue_mask, ncolors = header[14], header[15], header[16], header[19]
    if pixmap_format != 2 or bits_per_pixel != 32:
        raise ValueError(f"unexpected xwd format {pixmap_format} at {bits_per_pixel} bits per pixel")
    words = np.frombuffer(
        data,
        dtype="<u4" if byte_order == 0 else ">u4",
        count=height * bytes_per_line // 4,
        offset=header_size + 12 * ncolors,
    ).reshape(height, bytes_per_line // 4)[:, :width]

    def channel(mask: int) -> Image:
        shift = (mask & -mask).bit_length() - 1
        return ((words & mask) >> shift).astype(np.uint8)

    return np.dstack([channel(red_mask), channel(green_mask), channel(blue_mask)])


def save_png(image: Image, path: Path) -> None:
    import pygame

    height, width, _ = image.shape
    pygame.image.save(pygame.image.frombuffer(np.ascontiguousarray(image).tobytes(), (width, height), "RGB"), str(path))


def distinct_colours(image: Image) -> int:
    sample = image[::4, ::4].reshape(-1, 3)
    return len(np.unique(sample, axis=0))


def difference(a: Image, b: Image) -> float:
    """Mean absolute difference per channel, 0..255."""
    return float(np.abs(a.astype(np.int16) - b.astype(np.int16)).mean())


def share_near(
    image: Image, box: tuple[int, int, int, int], colour: tuple[int, int, int], tolerance: int = 40
) -> float:
    x, y, w, h = box
    region = image[y : y + h, x : x + w].astype(np.int16)
    return float((np.abs(region - np.array(colour, dtype=np.int16)).sum(axis=2) < tolerance).mean())


def bright_pixels(image: Image, box: tuple[int, int, int, int]) -> int:
    x, y, w, h = box
    return int((image[y : y + h, x : x + w] > 200).all(axis=2).sum())


def hud_drawn(image: Image) -> bool:
    return share_near(image, HP_BAR, HP_COLOUR) > 0.5


# --- the X server and the game -----------------------------------------------------------


def wait_until(
    what: str,
    condition: Callable[[], bool],
    timeout: float,
    interval: float = 0.1,
    on_timeout: Callable[[], None] | None = None,
) -> None:
    """Polls `condition` until it holds; on timeout calls `on_timeout` (e.g. to keep the screen
    as it was) and fails."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            if on_timeout is not None:
                on_timeout()
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


@pytest.fixture
def x_display() -> Iterator[str]:
    """A fresh Xvfb on a display it picks itself (`-displayfd`), 1280×720×24; stopped after the test."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not found: `make e2e-tools` installs them (as root, with apt-get)")
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24", "-nolisten", "tcp"],
        pass_fds=(write_end,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    try:
        number = b""
        deadline = time.monotonic() + 10
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            chunk = os.read(read_end, 16)
            if not chunk:
                break
            number += chunk
        assert number.strip().isdigit(), f"Xvfb did not report its display (exit code {server.poll()})"
        yield f":{number.decode().strip()}"
    finally:
        os.close(read_end)
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


class Game:
    """`artificer play` in a window on `display`, with xdotool for keys and xwd for screenshots."""

    def __init__(self, display: str, home: Path, log: Path) -> None:
        self.env = {**os.environ, "DISPLAY": display}
        self.home = home
        game_env = {
            **self.env,
            "SDL_VIDEODRIVER": "x11",
            "SDL_AUDIODRIVER": "dummy",
            "ARTIFICER_HOME": str(home),
            "PYGAME_HIDE_SUPPORT_PROMPT": "1",
        }
        self.log = log.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "artificer", "play"],
            env=game_env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            cwd=REPO,
        )
        self.window = ""
        self.origin = (0, 0)

    def xdotool(self, *args: str) -> str:
        done = subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=15)
        return done.stdout if done.returncode == 0 else ""

    def find_window(self, timeout: float = 30) -> None:
        def found() -> bool:
            self.check_alive()
            # By the game's pid: xdotool 3.2016's --name search misses SDL's UTF-8 WM_NAME when
            # no window manager runs; the name is checked below.
            ids = self.xdotool("search", "--onlyvisible", "--pid", str(self.process.pid)).split()
            self.window = ids[0] if ids else ""
            return bool(self.window)

        wait_until("the game's window", found, timeout, 0.2)
        assert self.xdotool("getwindowname", self.window).strip() == WINDOW_TITLE
        # No window manager under Xvfb: give the window the keyboard focus ourselves.
        self.xdotool("windowfocus", "--sync", self.window)
        geometry = dict(re.findall(r"^(\w+)=(-?\d+)$", self.xdotool("getwindowgeometry", "--shell", self.window), re.M))
        self.origin = (int(geometry.get("X", 0)), int(geometry.get("Y", 0)))
        assert (int(geometry.get("WIDTH", 0)), int(geometry.get("HEIGHT", 0))) == SCREEN, geometry

    def key(self, *names: str) -> None:
        self.xdotool("key", "--delay", "80", *names)

    def hold(self, name: str, seconds: float) -> None:
        self.xdotool("keydown", name)
        time.sleep(seconds)
        self.xdotool("keyup", name)

    def check_alive(self) -> None:
        """Fail with the end of the game's log if it is no longer running."""
        if self.process.poll() is not None:
            self.log.flush()
            tail = "\n".join(Path(self.log.name).read_text(errors="replace").splitlines()[-15:])
            raise AssertionError(f"the game exited with {self.process.returncode}:\n{tail}")

    def screenshot(self) -> Image:
        """The root window, cropped to the game's window (the game must still be running)."""
        self.check_alive()
        dump = subprocess.run(
            ["xwd", "-root", "-silent"], env=self.env, capture_output=True, timeout=15, check=True
        ).stdout
        x, y = self.origin
        return parse_xwd(dump)[y : y + SCREEN[1], x : x + SCREEN[0]]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


@pytest.fixture
def game(x_display: str, tmp_path: Path) -> Iterator[Game]:
    if importlib.util.find_spec("artificer._core") is None:
        pytest.fail("the Rust extension is not built: run `make test` (it builds it first)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for old in ARTIFACTS.glob("*.png"):
        old.unlink()
    running = Game(x_display, tmp_path / "home", ARTIFACTS / "game.log")
    try:
        yield running
    finally:
        running.stop()


# --- the run -----------------------------------------------------------------------------------


def test_a_short_run_in_a_real_window(game: Game) -> None:
    timings: dict[str, float] = {}
    started = time.monotonic()
    shots: dict[str, Image] = {}

    def shot(name: str) -> Image:
        image = game.screenshot()
        save_png(image, ARTIFACTS / f"{name}.png")
        shots[name] = image
        assert distinct_colours(image) > 32, f"{name}: the window is blank (see build/e2e/{name}.png)"
        return image

    # 1. The title: the window opens and draws its menu.
    game.find_window()
    wait_until("the title to be drawn", lambda: distinct_colours(game.screenshot()) > 32, 15)
    time.sleep(0.5)
    title = shot("01_title")
    timings["window and title"] = time.monotonic() - started

    # 2. New run (Enter on the first menu item).
    game.key("Return")
    wait_until("the screen to leave the title", lambda: difference(game.screenshot(), title) > 6, 15)

    # 3. R-ONB-1: the player's first run has the lab closed — New run goes straight into wave 1
    #    with the preset wand (the HUD is up without a lab screen in between).
    wait_until("the arena's HUD", lambda: hud_drawn(game.screenshot()), 15)
    timings["to the arena"] = time.monotonic() - started

    # 4. A few seconds of wave 1, walking right for part of it.
    wave_start = time.monotonic()
    game.hold("d", 1.2)
    time.sleep(max(0.0, SECONDS_IN_WAVE - (time.monotonic() - wave_start)))
    arena = shot("03_arena")
    assert hud_drawn(arena), "the HP bar is drawn top-left"
    assert bright_pixels(arena, TIMER_BOX) > 40, "the wave timer text is drawn at the top centre"
    panel, floor = arena[12:86, 12:312].reshape(-1, 3), arena[200:500, 100:400].reshape(-1, 3)
    assert np.abs(panel.mean(axis=0) - floor.mean(axis=0)).sum() > 30, "the HP/mana panel stands out from the floor"
    assert difference(arena, title) > 10, "the arena looks different from the title"

    # 5. Esc pauses: the scene is dimmed under the menu and the frame stops changing.
    game.key("Escape")
    time.sleep(0.6)
    paused = shot("04_pause")
    assert paused.mean() < arena.mean() * 0.8, "the pause menu dims the arena"
    time.sleep(0.5)
    assert difference(game.screenshot(), paused) < 0.5, "paused: the arena stands still"

    # 6. Abandon: the last menu line, "Abandon run" (the menu does not wrap: Up stays on Resume).
    game.key("Up", "Down", "Down", "Down", "Return")
    runs = game.home / "data" / "runs"
    wait_until("the summary PNG", lambda: any(runs.glob("*.png")), 15)
    summary_shown = time.monotonic()  # the PNG is written as the summary opens
    time.sleep(0.6)
    summary = shot("05_summary")
    timings["to the summary"] = time.monotonic() - started
    assert difference(summary, arena) > 10 and difference(summary, paused) > 10

    # R-END-1 / R-SAVE-1: one PNG, its dated name, the window's size, the picture on screen.
    saved = sorted(runs.glob("*.png"))
    assert [path.name for path in saved] == [f"{time.strftime('%Y-%m-%d')}_run_1.png"], saved
    # Issue 19: the run's replay beside it, ended by the abandon (wave 1 never ended: no wave on it).
    from artificer.game.replay import read_tape

    (replay,) = runs.glob("*.replay")
    tape = read_tape(replay)
    assert tape.ending == "abandoned" and tape.waves == [] and tape.start.kind == "new"
    import pygame

    picture = pygame.surfarray.pixels3d(pygame.image.load(str(saved[0]))).transpose(1, 0, 2).copy()
    shutil.copy(saved[0], ARTIFACTS / "05_summary_saved.png")
    assert picture.shape == (SCREEN[1], SCREEN[0], 3)
    assert distinct_colours(picture) > 32
    # Above the footer (the screen names the file, the PNG carries a stamp) they are the same picture.
    assert difference(picture[:620], summary[:620]) < 2.0, "the saved PNG shows the summary the window shows"

    # 7. Enter goes back to the title (its menu longer now: a first run has ended, R-ONB-1).
    #    The summary ignores keys for its first INPUT_GRACE seconds of its own time, which lags the
    #    wall clock after a slow first frame (app.py caps a frame's dt): press Enter well after it,
    #    or the key is ignored as designed and the test waits for nothing (seen once in CI).
    from artificer.ui.scenes.summary import INPUT_GRACE

    time.sleep(max(0.0, summary_shown + INPUT_GRACE + 1.0 - time.monotonic()))
    game.key("Return")

    def keep_screen() -> None:
        save_png(game.screenshot(), ARTIFACTS / "timed_out.png")

    wait_until(
        "the title again (build/e2e/timed_out.png)",
        lambda: difference(game.screenshot(), title) < 12,
        15,
        on_timeout=keep_screen,
    )
    time.sleep(0.5)
    again = shot("06_title_again")

    # 8. R-ONB-1: the second run opens the lab before wave 1 (no HUD on its screen); Esc leaves it.
    game.key("Return")
    wait_until("the screen to leave the title", lambda: difference(game.screenshot(), again) > 6, 15)
    time.sleep(0.8)
    lab = shot("07_run2_lab")
    assert not hud_drawn(lab), "the second run stands in the lab, not in a wave"
    assert difference(lab, arena) > 10, "the lab looks different from the arena"
    game.key("Escape")
    wait_until("the title once more", lambda: difference(game.screenshot(), again) < 6, 15)

    # 9. Esc on the title quits, and the game exits cleanly.
    game.key("Escape")
    assert game.process.wait(timeout=15) == 0, f"the game exited with {game.process.returncode}"
    timings["total"] = time.monotonic() - started
    print("e2e timings:", ", ".join(f"{stage} {seconds:.1f} s" for stage, seconds in timings.items()))
