"""The run summary (R-END-1, R-SAVE-1): the run's end, frozen, shown and kept as a picture.

This module owns:

- `RunSnapshot`: the run's numbers frozen the moment it ends — the outcome
  (fell / abandoned / victory), highest wave, total damage, biggest hit,
  kills, time played, gold — and the build (the active core and its cards).
  A wave still in progress (an abandoned run) counts too.
- `draw_summary`: the screen itself — the outcome as a glowing title, six
  stat tiles, and the build snapshot: the active core's board as its 2D
  grid of slots with routes, entry tags and cards drawn the way the lab
  draws them (`artificer.ui.cards`).
- `save_run_image`: the picture written atomically as
  `<data dir>/runs/YYYY-MM-DD_run_N.png` (N: the next free number that day).
- `SummaryScene`: on entering it freezes the snapshot, saves the picture
  and shows where; Enter, Space or Esc (the menu's confirm and back) leaves through `on_quit(stack)`.
  Its music: silence after a fall or an abandon (the wave's track stops),
  the title theme after a victory.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from enum import StrEnum
from pathlib import Path

import pygame

from artificer import storage
from artificer.content import Content
from artificer.content.looks import BodyLook
from artificer.game.codex import Discoveries
from artificer.game.meta import AetherLine, Meta, Reward, load_meta, meta_lock, unlock_tree, write_meta
from artificer.game.progress import RunEnd, settle, settle_endless
from artificer.game.records import RECORDS_FILE, Record, deck_checksum, load_records, run_figures, save_records
from artificer.game.run import Run, WaveStats
from artificer.game.save import delete_run_save
from artificer.ui.atlas import body_sprite
from artificer.ui.cards import BoardGeometry, CardArt
from artificer.ui.controls import Controls
from artificer.ui.fonts import font
from artificer.ui.i18n import tr
from artificer.ui.music import SILENCE
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.settings import Action, Context, Settings, key_hint
from artificer.ui.text_fit import draw_fitted
from artificer.ui.widgets import AETHER, aether_star, gradient, panel

RUNS_DIR_NAME = "runs"
RUN_IMAGE_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})_run_(\d+)\.png$")
DEFAULT_SIZE = (1280, 720)
#: The menu actions whose key leaves the summary (Enter, Space and Esc by default).
LEAVE_ACTIONS = (Action.CONFIRM, Action.BACK)
#: Seconds the summary ignores them once shown: a dash (Space) or a shot pressed in the fight's last
#: instant does not skip the screen the run ended on.
INPUT_GRACE = 0.8

TEXT = (236, 232, 250)
DIM = (160, 154, 196)
FAINT = (110, 104, 140)
WARN = (255, 150, 110)
CRYSTAL = (120, 220, 255)
#: A boss's chip on the summary, a shade above the panel it sits in.
CHIP_FILL = (34, 28, 52)


class Outcome(StrEnum):
    """How the run ended (R-END-1 death, an abandon from the pause menu, R-END-2 the last wave cleared)."""

    FELL = "fell"
    ABANDONED = "abandoned"
    VICTORY = "victory"


@dataclass(frozen=True)
class Palette:
    """An outcome's colours: the title, its glow, and the sky behind it."""

    title: tuple[int, int, int]
    glow: tuple[int, int, int]
    sky_top: tuple[int, int, int]
    sky_bottom: tuple[int, int, int]


PALETTES = {
    Outcome.FELL: Palette((255, 138, 112), (200, 40, 50), (44, 14, 30), (8, 5, 14)),
    Outcome.ABANDONED: Palette((206, 210, 236), (96, 104, 180), (24, 24, 44), (7, 6, 14)),
    Outcome.VICTORY: Palette((246, 218, 140), (230, 150, 40), (40, 28, 58), (8, 6, 16)),
}

OUTCOME_TITLES = {
    Outcome.FELL: "ui.summary.fell",
    Outcome.ABANDONED: "ui.summary.abandoned",
    Outcome.VICTORY: "ui.summary.victory",
}

# (i18n key of the label, accent colour) per stat tile, in reading order.
STAT_TILES = (
    ("ui.summary.stat.highest_wave", (242, 214, 140)),
    ("ui.summary.stat.damage", (230, 159, 0)),
    ("ui.summary.stat.biggest_hit", (255, 120, 80)),
    ("ui.summary.stat.kills", (204, 121, 167)),
    ("ui.summary.stat.time", (86, 180, 233)),
    ("ui.summary.stat.gold", CRYSTAL),
)


@dataclass(frozen=True)
class BossLine:
    """A boss wave the run played (R-END-2's victory screen, R-BOSS-3's time to kill)."""

    wave: int
    boss_id: str
    #: Seconds from its coming to its fall; None: it was not felled.
    ttk_s: float | None
    #: The highest phase it reached.
    phase: int


@dataclass(frozen=True)
class AetherView:
    """R-META-1 on the summary: the run's aether line by line, what is held after it, and what that
    buys (the unlocks affordable now, else the next one and how far it is). `practice`: a practice
    run, which keeps no progress (R-END-5)."""

    lines: tuple[AetherLine, ...] = ()
    held: int = 0
    affordable: tuple[str, ...] = ()
    next_unlock: tuple[str, int] | None = None
    first_paying_wave: int = 0
    practice: bool = False
    #: R-END-3: an endless run whose victory paid its aether already.
    endless: bool = False

    @property
    def total(self) -> int:
        return sum(line.amount for line in self.lines)

    @classmethod
    def of(cls, content: Content, reward: Reward, meta: Meta) -> AetherView:
        """The view of `reward` paid into `meta` (the progress after it)."""
        waiting = [node for node in unlock_tree(content) if node.id not in meta.unlocked]
        affordable = tuple(node.name_key for node in waiting if node.cost <= meta.aether)
        later = next((node for node in waiting if node.cost > meta.aether), None)
        paying = next((entry.wave for entry in content.balance.meta.aether_by_wave if entry.aether > 0), 0)
        return cls(
            lines=reward.lines,
            held=meta.aether,
            affordable=affordable,
            next_unlock=(later.name_key, later.cost) if later is not None else None,
            first_paying_wave=paying,
        )


def settle_aether(
    run: Run,
    end: RunEnd,
    discoveries: Discoveries | None = None,
    path: Path | None = None,
) -> tuple[AetherView, int]:
    """R-END-2, R-META-1/2, R-END-5: the run's end settled into meta.json once (`game.progress.settle`:
    its clear, its aether, the achievements; with what it discovered since its last wave's end),
    written; the view for the summary and the NG+ level the clear unlocked (0: none new). A practice
    run pays nothing and writes nothing."""
    if run.state.practice:
        return AetherView(practice=True), 0
    with meta_lock(path):  # read, settled and written at once: a run ending meanwhile waits and adds up
        found = load_meta(path, run.content)  # R-SAVE-2: ids the content no longer has dropped
        before = found.meta
        if discoveries is not None:
            discoveries.observe_state(run.state)
            before = discoveries.record(before)
        went_on = run.state.settled  # R-END-3: an endless run, its victory settled as it went on
        settled = (settle_endless if went_on else settle)(run.content, before, end)
        run.state.settled = True
        write_meta(settled.meta, found, path)
    view = AetherView.of(run.content, settled.reward, settled.meta)
    return dataclasses.replace(view, endless=went_on), settled.ng_plus_unlocked


def record_endless(run: Run, snapshot: RunSnapshot, path: Path | None = None) -> tuple[Record, int | None] | None:
    """R-END-4: an endless run that got past the last wave goes on the leaderboard (signed, kept with
    the 20 most recent); its record and its rank (None: not ranked). None: no record (not endless, or
    practice, or not past the last wave; a file that cannot be written is logged)."""
    state = run.state
    if not state.endless or state.practice or snapshot.highest_wave <= len(run.content.waves):
        return None
    board = load_records(path)
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    checksum = deck_checksum(snapshot.core, snapshot.cards)
    replay = run.tape.path.name if run.tape is not None and run.tape.path is not None else ""
    entry = Record(
        snapshot.highest_wave, round(snapshot.seconds, 2), checksum, stamp, state.ng_plus, state.cursed, replay=replay
    )
    signed = board.add(entry)
    try:
        save_records(board, path)
    except OSError as error:
        storage.log.warning("%s could not be saved: %s", RECORDS_FILE, error)
    ranked = board.ranked()
    return signed, (ranked.index(signed) + 1 if signed in ranked else None)


@dataclass(frozen=True)
class RunSnapshot:
    """A run's numbers and build, frozen when it ends (R-END-1)."""

    outcome: Outcome
    highest_wave: int
    waves_total: int
    total_damage: float
    biggest_hit: float
    kills: int
    seconds: float
    gold: int
    core: str
    cards: tuple[str | None, ...]
    seed: int
    day: date
    #: R-END-2: the run's New Game+ level (0: none), and the level its clear unlocked (0: none new).
    ng_plus: int = 0
    unlocked: int = 0
    #: R-END-2: the boss waves played, in order, with their times to kill.
    bosses: tuple[BossLine, ...] = ()
    #: R-META-1: the aether the run paid (None: not shown).
    aether: AetherView | None = None
    #: R-META-1 cursed waves, R-END-5 practice, R-END-3 endless: the run's modes.
    cursed: bool = False
    practice: bool = False
    endless: bool = False
    #: R-END-4: an endless run's place on the leaderboard (None: not ranked or no record).
    rank: int | None = None

    @classmethod
    def of(
        cls,
        run: Run,
        outcome: Outcome,
        in_progress: WaveStats | None = None,
        day: date | None = None,
        unlocked: int = 0,
        aether: AetherView | None = None,
    ) -> RunSnapshot:
        """Freeze `run`; `in_progress` is a wave that never finished (an abandon), counted as played."""
        unfinished = in_progress if in_progress is not None and all(s is not in_progress for s in run.waves) else None
        waves = [*run.waves, *([unfinished] if unfinished is not None else [])]
        core, cards = run.loadout.wand()
        highest_wave, seconds = run_figures(waves, run.sim.tick_hz)
        return cls(
            outcome=outcome,
            highest_wave=highest_wave,
            waves_total=len(run.content.waves),
            total_damage=sum(stats.damage_dealt for stats in waves),
            biggest_hit=max((stats.biggest_hit for stats in waves), default=0.0),
            kills=sum(stats.kills for stats in waves),
            seconds=seconds,
            # The crystals of an unfinished wave were picked up too: the HUD counted them.
            gold=run.currency + (unfinished.currency if unfinished is not None else 0),
            core=core,
            cards=tuple(cards),
            seed=run.seed,
            day=day or date.today(),
            ng_plus=run.state.ng_plus,
            unlocked=unlocked,
            bosses=tuple(
                BossLine(stats.wave, stats.boss.boss_id, stats.boss.ttk_s, max(stats.boss.phases))
                for stats in waves
                if stats.boss is not None
            ),
            aether=aether,
            cursed=run.state.cursed,
            practice=run.state.practice,
            endless=run.state.endless,
        )

    def values(self) -> tuple[str, ...]:
        """The six stat values as shown, in `STAT_TILES` order."""
        return (
            str(self.highest_wave),
            f"{self.total_damage:,.0f}",
            f"{self.biggest_hit:,.0f}",
            f"{self.kills:,}",
            format_duration(self.seconds),
            f"{self.gold:,}",
        )


def format_duration(seconds: float) -> str:
    """`m:ss`, or `h:mm:ss` from an hour on (digits read the same in every language)."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


# --- the picture on disk (R-SAVE-1) ---------------------------------------------------


def runs_dir() -> Path:
    """Where run summaries are kept: `<user data dir>/runs`."""
    return storage.data_dir() / RUNS_DIR_NAME


def next_run_image_path(directory: Path, day: date) -> Path:
    """`YYYY-MM-DD_run_N.png` in `directory`, N one past the highest of that day (1 for the first)."""
    stamp = day.isoformat()
    taken = [
        int(match.group(2))
        for path in directory.glob(f"{stamp}_run_*.png")
        if (match := RUN_IMAGE_NAME.match(path.name)) is not None and match.group(1) == stamp
    ]
    return directory / f"{stamp}_run_{max(taken, default=0) + 1}.png"


def save_run_image(image: pygame.Surface, directory: Path | None = None, day: date | None = None) -> Path:
    """Encode `image` as PNG and write it atomically as the day's next run picture; return its path."""
    directory = directory if directory is not None else runs_dir()
    directory.mkdir(parents=True, exist_ok=True)
    encoded = io.BytesIO()
    pygame.image.save(image, encoded, "png")
    path = next_run_image_path(directory, day or date.today())
    storage.write_atomic(path, encoded.getvalue())
    return path


# --- drawing ----------------------------------------------------------------------------


def _glowing_title(text: str, size: int, palette: Palette) -> pygame.Surface:
    face = font(size, bold=True)
    letters = face.render(text, True, palette.title)
    pad = size // 2
    image = pygame.Surface((letters.get_width() + 2 * pad, letters.get_height() + 2 * pad), pygame.SRCALPHA)
    glow = face.render(text, True, palette.glow)
    image.blit(glow, (pad, pad))
    image = pygame.transform.gaussian_blur(image, max(2, size // 5))
    image.blit(letters, (pad, pad))
    return image


def _crystal(surface: pygame.Surface, centre: tuple[int, int], height: int) -> None:
    cx, cy = centre
    half_w, half_h = height * 0.42, height * 0.5
    points = [(cx, cy - half_h), (cx + half_w, cy), (cx, cy + half_h), (cx - half_w, cy)]
    pygame.draw.polygon(surface, CRYSTAL, points)
    pygame.draw.polygon(surface, (230, 250, 255), points, 1)


def _stat_tiles(surface: pygame.Surface, area: pygame.Rect, snapshot: RunSnapshot, unit: float) -> None:
    """The six stats as tiles, two columns by three rows."""
    columns, rows = 2, (len(STAT_TILES) + 1) // 2
    gap = int(14 * unit)
    width = (area.width - gap * (columns - 1)) // columns
    height = (area.height - gap * (rows - 1)) // rows
    # Short tiles (the aether panel shares the column) draw their accent as a strip down the left edge
    # and a smaller label at the top, so the number keeps its size under it.
    compact = height < int(120 * unit)
    label_face = font(max(11, int((15 if compact else 18) * unit)))
    label_y = int((8 if compact else 24) * unit)
    # The room under the label, over the font's line height (about 1.36 × its size).
    room = height - label_y - label_face.get_height()
    value_face = font(max(16, min(int(46 * unit), int(room / 1.36))), bold=True)
    pad = int(16 * unit)
    for index, ((key, accent), value) in enumerate(zip(STAT_TILES, snapshot.values(), strict=True)):
        column, row = index % columns, index // columns
        tile = pygame.Rect(area.x + column * (width + gap), area.y + row * (height + gap), width, height)
        panel(surface, tile)
        strip = (
            (tile.x + int(6 * unit), tile.y + int(10 * unit), 3, tile.height - int(20 * unit))
            if compact
            else (tile.x + pad, tile.y + int(14 * unit), max(8, int(30 * unit)), 3)
        )
        pygame.draw.rect(surface, accent, strip, border_radius=2)
        label = label_face.render(tr(key), True, DIM)
        surface.blit(label, (tile.x + pad, tile.y + label_y))
        number = value_face.render(value, True, accent)
        top = tile.bottom - number.get_height() - int((2 if compact else 12) * unit)
        if key == "ui.summary.stat.gold":
            icon = int(24 * unit)
            _crystal(surface, (tile.x + pad + icon // 2, top + number.get_height() // 2 + int(2 * unit)), icon)
            surface.blit(number, (tile.x + pad + icon + int(8 * unit), top))
        else:
            surface.blit(number, (tile.x + pad, top))


def _build(
    surface: pygame.Surface, area: pygame.Rect, snapshot: RunSnapshot, content: Content, art: CardArt, unit: float
) -> None:
    core = content.core(snapshot.core)
    filled = sum(card is not None for card in snapshot.cards)
    panel(surface, area)
    heading = font(max(13, int(20 * unit)), bold=True).render(tr("ui.summary.build"), True, DIM)
    surface.blit(heading, (area.x + 16, area.y + int(12 * unit)))
    name = font(max(13, int(22 * unit)), bold=True).render(tr(core.name_key), True, TEXT)
    surface.blit(name, (area.x + 28 + heading.get_width(), area.y + int(11 * unit)))
    slots = font(max(11, int(16 * unit))).render(
        tr("ui.summary.slots_filled", filled=filled, capacity=len(snapshot.cards)), True, DIM
    )
    surface.blit(slots, slots.get_rect(topright=(area.right - 16, area.y + int(15 * unit))))
    # Room above the cards for the entry tags, and around them for the bonus marks.
    board_area = pygame.Rect(area.x + 24, area.y + int(72 * unit), area.width - 48, area.height - int(96 * unit))
    geometry = BoardGeometry.fit(core.layout(), board_area, max_cell=int(150 * unit))
    geometry.draw_furniture(surface)
    geometry.draw_slots(surface, list(snapshot.cards), art)
    empty_face = font(max(10, geometry.cell // 9))
    for rect, card in zip(geometry.slots, snapshot.cards, strict=False):
        if card is None:
            label = empty_face.render(tr("ui.summary.empty_slot"), True, FAINT)
            surface.blit(label, label.get_rect(center=rect.center))


@functools.lru_cache(maxsize=32)
def _portrait(look: BodyLook, side: int) -> pygame.Surface:
    """A boss's body `side` px square (drawn once per size: the summary redraws every frame)."""
    return pygame.transform.smoothscale(body_sprite(look, look.colour), (side, side))


def _boss_chip(
    surface: pygame.Surface, chip: pygame.Rect, line: BossLine, snapshot: RunSnapshot, content: Content, unit: float
) -> None:
    """One boss: its body, name and wave, the phases it reached as pips, its time to kill (or that it stood)."""
    boss = content.boss(line.boss_id)
    look = content.looks.enemies[line.boss_id]
    felled = line.ttk_s is not None
    palette = PALETTES[snapshot.outcome]
    pad = int(12 * unit)
    side = min(chip.height - 2 * pad, int(64 * unit))
    body = _portrait(look, side)
    body.set_alpha(255 if felled else 150)
    surface.blit(body, (chip.x + pad, chip.centery - side // 2))
    x = chip.x + 2 * pad + side
    room = chip.right - x - pad
    draw_fitted(
        surface, tr(boss.name_key), max(11, int(17 * unit)), True, TEXT, room, topleft=(x, chip.y + pad - int(2 * unit))
    )
    wave_face = font(max(10, int(14 * unit)))
    wave = wave_face.render(tr("ui.summary.boss_wave", wave=line.wave), True, DIM)
    wave_y = chip.y + pad + int(24 * unit)
    surface.blit(wave, (x, wave_y))
    # The phases it reached: a pip each, lit up to the highest.
    pip = max(2, int(4 * unit))
    for index in range(len(boss.all_phases(snapshot.ng_plus > 0))):
        centre = (x + wave.get_width() + int(10 * unit) + index * pip * 3 + pip, wave_y + wave.get_height() // 2)
        lit = index < line.phase
        pygame.draw.circle(surface, palette.title if lit else FAINT, centre, pip, 0 if lit else 1)
    verdict = (
        tr("ui.summary.boss_felled", time=format_duration(line.ttk_s))
        if line.ttk_s is not None
        else tr("ui.summary.boss_standing")
    )
    draw_fitted(
        surface,
        verdict,
        max(12, int(20 * unit)),
        True,
        palette.title if felled else FAINT,
        room,
        bottomleft=(x, chip.bottom - pad + int(2 * unit)),
    )


def _bosses(surface: pygame.Surface, area: pygame.Rect, snapshot: RunSnapshot, content: Content, unit: float) -> None:
    """R-END-2: the boss waves played, side by side, each with its time to kill."""
    panel(surface, area)
    heading = font(max(13, int(20 * unit)), bold=True).render(tr("ui.summary.bosses"), True, DIM)
    surface.blit(heading, (area.x + 16, area.y + int(12 * unit)))
    gap = int(10 * unit)
    inner = pygame.Rect(area.x + 16, area.y + int(40 * unit), area.width - 32, area.height - int(52 * unit))
    count = len(snapshot.bosses)
    width = (inner.width - gap * (count - 1)) // count
    for index, line in enumerate(snapshot.bosses):
        chip = pygame.Rect(inner.x + index * (width + gap), inner.y, width, inner.height)
        pygame.draw.rect(surface, CHIP_FILL, chip, border_radius=8)
        _boss_chip(surface, chip, line, snapshot, content, unit)


AETHER_LINE_KEYS = {
    "wave": "ui.summary.aether.wave",
    "milestone": "ui.summary.aether.milestone",
    "first_clear": "ui.summary.aether.first_clear",
    "ng_plus_clear": "ui.summary.aether.ng_plus_clear",
    "boss_rush": "ui.summary.aether.boss_rush",
}


def _aether(surface: pygame.Surface, area: pygame.Rect, view: AetherView, unit: float) -> None:
    """R-META-1: the aether the run paid, line by line, what is held and what it buys."""
    panel(surface, area)
    pad = int(16 * unit)
    heading = font(max(13, int(20 * unit)), bold=True).render(tr("ui.summary.aether"), True, DIM)
    surface.blit(heading, (area.x + pad, area.y + int(12 * unit)))
    if view.practice:
        note = font(max(12, int(18 * unit))).render(tr("ui.summary.practice"), True, TEXT)
        surface.blit(note, note.get_rect(midleft=(area.x + pad, area.centery)))
        return
    star = int(22 * unit)
    aether_star(
        surface, (area.x + pad + heading.get_width() + int(10 * unit) + star // 2, area.y + int(24 * unit)), star
    )
    total = font(max(14, int(26 * unit)), bold=True).render(
        tr("ui.summary.aether_total", amount=view.total), True, AETHER
    )
    surface.blit(total, (area.x + pad + heading.get_width() + int(16 * unit) + star, area.y + int(9 * unit)))
    held = font(max(11, int(17 * unit))).render(tr("ui.summary.aether_held", aether=view.held), True, DIM)
    surface.blit(held, held.get_rect(topright=(area.right - pad, area.y + int(15 * unit))))
    face = font(max(11, int(16 * unit)))
    step = int(21 * unit)
    y = area.y + int(44 * unit)
    lines = [line for line in view.lines if line.amount > 0]
    if not lines:
        text = (
            tr("ui.summary.aether_endless")
            if view.endless
            else tr("ui.summary.aether_none", wave=view.first_paying_wave)
        )
        block = draw_fitted(
            surface,
            text,
            max(11, int(16 * unit)),
            False,
            DIM,
            area.width - 2 * pad,
            max_lines=2,
            topleft=(area.x + pad, y),
        )
        y = block.bottom + step // 4
    for line in lines:
        label = face.render(tr(AETHER_LINE_KEYS[line.kind], wave=line.wave), True, TEXT)
        surface.blit(label, (area.x + pad, y))
        amount = face.render(tr("ui.summary.aether_total", amount=line.amount), True, AETHER)
        surface.blit(amount, amount.get_rect(topright=(area.right - pad, y)))
        y += step
    if view.affordable:
        text, colour = tr("ui.summary.aether_can_buy", names=", ".join(tr(key) for key in view.affordable)), AETHER
    elif view.next_unlock is not None:
        name, cost = view.next_unlock
        text, colour = tr("ui.summary.aether_next", name=tr(name), cost=cost, more=cost - view.held), DIM
    else:
        text, colour = tr("ui.summary.aether_all"), DIM
    size = max(11, int(17 * unit))
    draw_fitted(
        surface,
        text,
        size,
        bool(view.affordable),
        colour,
        area.width - 2 * pad,
        bottomleft=(area.x + pad, area.bottom - int(10 * unit)),
    )


def draw_summary(surface: pygame.Surface, snapshot: RunSnapshot, content: Content, art: CardArt) -> None:
    """The summary without its footer: outcome, stats, build — the same on screen and in the PNG."""
    width, height = surface.get_size()
    unit = min(width / DEFAULT_SIZE[0], height / DEFAULT_SIZE[1])
    palette = PALETTES[snapshot.outcome]
    surface.blit(gradient((width, height), palette.sky_top, palette.sky_bottom), (0, 0))
    margin = int(56 * unit)

    title = _glowing_title(tr(OUTCOME_TITLES[snapshot.outcome]), max(24, int(60 * unit)), palette)
    title_rect = title.get_rect(center=(width // 2, int(78 * unit)))
    surface.blit(title, title_rect)
    face = font(max(12, int(20 * unit)))
    if snapshot.highest_wave > snapshot.waves_total:  # R-END-3: past the last wave, the count is the depth
        line = tr("ui.summary.subtitle_endless", wave=snapshot.highest_wave)
    else:
        line = tr("ui.summary.subtitle", wave=snapshot.highest_wave, waves=snapshot.waves_total)
    subtitle = face.render(line, True, DIM)
    # R-END-2: the NG+ level played and the one this clear unlocked, on the subtitle's line in the title's colour.
    parts = [tr("ui.summary.ng_plus", level=snapshot.ng_plus)] if snapshot.ng_plus else []
    parts += [tr("ui.summary.cursed")] if snapshot.cursed else []
    parts += [tr("ui.hud.mode.practice")] if snapshot.practice else []
    parts += [tr("ui.summary.rank", rank=snapshot.rank)] if snapshot.rank is not None else []
    parts += [tr("ui.summary.ng_plus_unlocked", level=snapshot.unlocked)] if snapshot.unlocked else []
    note = font(max(12, int(20 * unit)), bold=True).render("  ·  " + "  ·  ".join(parts), True, palette.title)
    shown = [subtitle, note] if parts else [subtitle]
    x = (width - sum(image.get_width() for image in shown)) // 2
    for image in shown:
        surface.blit(image, (x, int(118 * unit)))
        x += image.get_width()
    rule_y = int(152 * unit)
    for side in (-1, 1):
        start = width // 2 + side * int(60 * unit)
        end = width // 2 + side * int(260 * unit)
        pygame.draw.line(surface, palette.glow, (start, rule_y), (end, rule_y), 1)
    pygame.draw.circle(surface, palette.title, (width // 2, rule_y), max(2, int(4 * unit)))

    # Stats on the left, the build on the right: a 3-row board gets as much height as a row gets width.
    top, bottom = int(168 * unit), height - int(86 * unit)
    stats = pygame.Rect(margin, top, int(420 * unit), bottom - top)
    if snapshot.aether is not None:
        # R-META-1: the aether under the stats, the tiles keeping the rest of the column.
        height_of_aether = int(168 * unit)
        _aether(
            surface,
            pygame.Rect(stats.x, stats.bottom - height_of_aether, stats.width, height_of_aether),
            snapshot.aether,
            unit,
        )
        stats.height -= height_of_aether + int(14 * unit)
    _stat_tiles(surface, stats, snapshot, unit)
    build = pygame.Rect(stats.right + int(20 * unit), top, width - margin - stats.right - int(20 * unit), bottom - top)
    if snapshot.bosses:
        # R-END-2: the bosses fought under the build, the build keeping the rest of the column.
        height_of_bosses = int(150 * unit)
        bosses = pygame.Rect(build.x, build.bottom - height_of_bosses, build.width, height_of_bosses)
        build.height -= height_of_bosses + int(14 * unit)
        _bosses(surface, bosses, snapshot, content, unit)
    _build(surface, build, snapshot, content, art, unit)


def _fit_path(key: str, path: str, face: pygame.font.Font, width: int) -> str:
    """`tr(key, path=…)` with the path cut from its start ('…') until the line fits `width`."""
    shown = path
    text = tr(key, path=shown)
    while face.size(text)[0] > width and len(shown) > 8:
        shown = shown[len(shown) // 8 + 1 :] if len(shown) > 80 else shown[1:]
        text = tr(key, path="…" + shown)
    return text


def draw_stamp(surface: pygame.Surface, snapshot: RunSnapshot) -> None:
    """The PNG's footer: the game, the day and the seed, so a shared picture says where it came from."""
    width, height = surface.get_size()
    unit = min(width / DEFAULT_SIZE[0], height / DEFAULT_SIZE[1])
    text = tr("ui.summary.stamp", game=tr("ui.title.game_name"), date=snapshot.day.isoformat(), seed=snapshot.seed)
    stamp = font(max(11, int(16 * unit))).render(text, True, FAINT)
    surface.blit(stamp, stamp.get_rect(midbottom=(width // 2, height - int(28 * unit))))


# --- the scene ----------------------------------------------------------------------------


def _wave_in_progress(stack: SceneStack, run: Run) -> WaveStats | None:
    """The stats of `run`'s unfinished wave, from the scene below that plays it (an abandon)."""
    for scene in reversed(stack.scenes):
        wave = scene.wave_in_progress()
        if wave is not None and wave.run is run and all(stats is not wave.stats for stats in run.waves):
            return wave.stats
    return None


class SummaryScene(Scene):
    """The run's end (R-END-1): frozen stats and build, saved as a PNG on entering; Enter leaves."""

    def __init__(
        self,
        run: Run,
        died: bool,
        on_quit: Callable[[SceneStack], None] | None,
        abandoned: bool = False,
        *,
        in_progress: WaveStats | None = None,
        directory: Path | None = None,
        day: date | None = None,
        controls: Controls | None = None,
        unlocked: int = 0,
        discoveries: Discoveries | None = None,
        on_endless: Callable[[SceneStack, Run], None] | None = None,
    ) -> None:
        """`in_progress`: an unfinished wave's stats (None: looked for in the scene below).
        `unlocked`: R-END-2, the NG+ level this victory unlocked (0: none new), shown under the title.
        `directory` and `day` name where the PNG goes (default: the user's runs dir, today).
        `controls`: the keys that leave (the menu context's bindings); None: the default bindings.
        `discoveries`: R-META-2, what the run met for the first time and has not written yet.
        `on_endless(stack, run)`: R-END-3, a victory may go on into endless (its key, shown in the
        footer); None, a fall, a practice run or an endless run already: not offered."""
        self.discoveries = discoveries
        self.on_endless = on_endless
        #: R-END-4: the leaderboard record an endless run made, and its rank (None: none made).
        self.record: tuple[Record, int | None] | None = None
        self.controls = controls if controls is not None else Controls(Settings())
        self.run = run
        self.died = died
        self.abandoned = abandoned
        self.on_quit = on_quit
        self.in_progress = in_progress
        self.directory = directory
        self.day = day
        self.unlocked = unlocked
        self.stack: SceneStack | None = None
        self.snapshot: RunSnapshot | None = None
        self.saved_path: Path | None = None
        self.save_error: str | None = None
        self.art = CardArt(run.content)
        self._body: pygame.Surface | None = None
        self._time = 0.0
        # R-FEEL-1: the wave's music stops under a fall or an abandon; a victory gets the calm title theme.
        self.music = SILENCE if died or abandoned else "title"

    @property
    def outcome(self) -> Outcome:
        if self.abandoned:
            return Outcome.ABANDONED
        return Outcome.FELL if self.died else Outcome.VICTORY

    def on_enter(self, stack: SceneStack) -> None:
        self.stack = stack
        if not self.run.state.practice:  # a practice run saved nothing: the run.json there is another run's
            delete_run_save()  # R-SAVE-1: the run is over (death, abandon, victory); its save goes
        in_progress = self.in_progress or _wave_in_progress(stack, self.run)
        frozen = RunSnapshot.of(self.run, self.outcome, in_progress, self.day, self.unlocked)
        state = self.run.state
        end = RunEnd(
            frozen.highest_wave,
            self.outcome is Outcome.VICTORY,
            state.ng_plus,
            frozen.kills,
            state.boss_rushes_cleared(),
        )
        aether, unlocked = settle_aether(self.run, end, self.discoveries)
        self.snapshot = dataclasses.replace(frozen, aether=aether, unlocked=unlocked or self.unlocked)
        self.record = record_endless(self.run, self.snapshot)  # R-END-4
        if self.record is not None:
            self.snapshot = dataclasses.replace(self.snapshot, rank=self.record[1])
        screen = pygame.display.get_surface()
        picture = pygame.Surface(screen.get_size() if screen is not None else DEFAULT_SIZE)
        draw_summary(picture, self.snapshot, self.run.content, self.art)
        self._body = picture.copy()
        draw_stamp(picture, self.snapshot)
        try:
            self.saved_path = save_run_image(picture, self.directory, self.snapshot.day)
        except (OSError, pygame.error) as error:
            # R-SAVE-1: a failed write leaves no half file behind; the player is told, the game goes on.
            self.save_error = str(error)

    @property
    def offers_endless(self) -> bool:
        """R-END-3: the victory of a run that may go on past the last wave."""
        state = self.run.state
        return self.on_endless is not None and self.outcome is Outcome.VICTORY and not (state.practice or state.endless)

    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if self.offers_endless and self.controls.pressed(event, Context.LAB) is Action.NEXT_TAB:
            if self._time >= INPUT_GRACE and self.stack is not None and self.on_endless is not None:
                self.on_endless(self.stack, self.run)
            return None
        if self.controls.pressed(event, Context.MENU) in LEAVE_ACTIONS:
            if self._time < INPUT_GRACE:
                return None
            if self.stack is not None:
                stack = self.stack
                if self.on_quit is not None:
                    self.on_quit(stack)
                else:
                    stack.clear()
                if self.record is not None:  # R-END-4: an endless run's end shows its place on the board
                    from artificer.ui.scenes.records import RecordsScene

                    stack.push(RecordsScene(self.controls, highlight=self.record[0]))
            return None
        return event

    def update(self, dt: float) -> None:
        self._time += dt

    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        assert self.snapshot is not None, "drawn before on_enter"
        if self._body is None or self._body.get_size() != surface.get_size():
            self._body = pygame.Surface(surface.get_size())
            draw_summary(self._body, self.snapshot, self.run.content, self.art)
        surface.blit(self._body, (0, 0))
        width, height = surface.get_size()
        unit = min(width / DEFAULT_SIZE[0], height / DEFAULT_SIZE[1])
        face = font(max(11, int(16 * unit)))
        if self.saved_path is not None:
            line = _fit_path("ui.summary.saved", str(self.saved_path), face, width - 2 * int(56 * unit))
            colour = FAINT
        else:
            line = tr("ui.summary.save_failed", error=self.save_error or "")
            colour = WARN
        saved = face.render(line, True, colour)
        surface.blit(saved, saved.get_rect(midbottom=(width // 2, height - int(50 * unit))))
        text = tr("ui.summary.continue")
        if self.offers_endless:  # R-END-3: the victory may go on
            endless_key = key_hint(self.controls.settings.key_for(Action.NEXT_TAB))
            text = f"{text}  ·  {tr('ui.summary.endless', button=endless_key)}"
        hint = font(max(12, int(20 * unit)), bold=True).render(text, True, TEXT)
        hint.set_alpha(int(170 + 85 * math.sin(self._time * 3.0)))
        surface.blit(hint, hint.get_rect(midbottom=(width // 2, height - int(18 * unit))))
