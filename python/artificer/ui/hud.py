"""The arena's HUD (DESIGN §7): HP and ward (and the Last Will mark beside
them while it is armed, R-END-1), the mana bar (R-MANA-9) with its "Out of
mana" mark (R-FEEL-2), wave and timer, currency, the charge ring (R-MOVE-3,
driven by its event), toasts, the boss bar (and an arrow at the screen's edge pointing the way to an
off-screen boss, `boss_pointer`), spawn markers (R-WAVE-1) and damage numbers.

R-FEEL-1: the HUD never hides enemies behind a veil — every box is opaque
and compact (`PANEL_FILL`): the HP/mana box, the wave timer's pill (the one
place the wave's number shows; it glows gold for `WAVE_INTRO_SECONDS` when
a wave starts, instead of a second "Wave N" toast), the gold pill, each
toast's pill and the boss bar's label.

"Out of mana" shows only while casts are being abandoned: each frame with a
CAST_ABANDONED event restarts its clock (`HudState.cast_abandoned`), and it
goes `OUT_OF_MANA_HOLD` seconds after the last one — a steady mark under the
mana bar, not a toast that outlives the shortage.

Damage numbers come from the step's `FrameReport.hits` (the core's ENEMY_HIT
events: the frame's biggest hits, a fixed few per frame, never one per entity) and live in a small ring
of `MAX_DAMAGE_NUMBERS`; their text images are cached by value. Until bosses
arrive, the boss bar follows the toughest elite on the field (elites stand
in for bosses on waves 8, 10 and 20).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pygame

from artificer import _core
from artificer.engine.frame import EnemyColumn, FrameBuffers
from artificer.game.report import Hits
from artificer.game.waves import SpawnMarker
from artificer.ui.fonts import font
from artificer.ui.i18n import tr
from artificer.ui.icons import talent_icon
from artificer.ui.text_fit import Fitted
from artificer.ui.widgets import blit_lines, fit_lines

HP_COLOUR = (213, 94, 0)
WARD_COLOUR = (200, 200, 230)
MANA_COLOUR = (86, 140, 233)
TEXT = (235, 235, 245)
#: Opaque HUD boxes (R-FEEL-1: nothing translucent over the playfield) and their edge.
PANEL = (18, 16, 30)
PANEL_EDGE = (70, 64, 104)
#: The wave timer glows this long (gold) when a wave starts: the wave's one announcement.
WAVE_INTRO_SECONDS = 1.5
WAVE_INTRO_COLOUR = (246, 226, 150)
#: Toast pills: their padding (px) and the gap between two.
TOAST_PAD = (12, 4)
TOAST_GAP = 4
#: Toast text: its size and the widest a pill grows before the text wraps (keeps the top of the field clear).
TOAST_SIZE = 17
TOAST_WIDTH = 620
BOSS_COLOUR = (204, 121, 167)
#: R-BOSS-2: the boss bar gold while Last Will makes it invulnerable, its phase marks, its enraged edge.
BOSS_INVULNERABLE_COLOUR = (240, 200, 90)
BOSS_MARK_COLOUR = (250, 240, 200)
BOSS_ENRAGED_COLOUR = (255, 96, 80)
#: The box of the HP and mana bars at the top left.
HP_BOX = pygame.Rect(12, 12, 300, 74)
#: R-FEEL-1: the HUD's bottom band (px): the boss's or the toughest elite's bar and its name. The
#: arena's camera may show this much past the bottom wall, so a player at the wall, and the bar
#: under it, stand above it.
HUD_BOTTOM_BAND = 104
#: R-BOSS-2: an off-screen boss is pointed at from inside the screen's edge: the box the pointer
#: runs along (left, top, right and bottom insets, px: clear of the HUD's boxes and the boss bar)
#: and the arrow's length.
BOSS_POINTER_INSETS = (30, 100, 30, HUD_BOTTOM_BAND)
BOSS_POINTER_LENGTH = 26.0
BOSS_POINTER_EDGE = (250, 230, 250)
MARKER_COLOUR = (255, 80, 60)
DAMAGE_COLOUR = (245, 245, 250)
LETHAL_COLOUR = (240, 228, 66)
#: The Last Will mark beside the HP bar (the shop's talent colour).
LAST_WILL_COLOUR = (230, 159, 0)
#: i18n keys built from data: enemy names are `enemy.<id>.name`.
I18N_DYNAMIC_PREFIXES = ("enemy.",)
MAX_DAMAGE_NUMBERS = 48
#: Where the Last Will mark sits: right of the HP/mana panel, level with the HP bar.
LAST_WILL_MARK = (330, 29)
DAMAGE_NUMBER_SECONDS = 0.7
DAMAGE_NUMBER_RISE = 36.0  # px over its life
#: R-FEEL-2: "Out of mana" stays this long after the last abandoned cast. Measured on the starter
#: core starved (five heavy_shot, 5 mana/s): abandoned casts recur every 0.25 s (its cast delay),
#: and the one cast in ~2 s that goes through is followed by the next abandon 0.4 s later — so
#: 0.5 s keeps the mark steady while mana is short, and it goes 0.5 s after casts go through.
#: (A core whose cast delay passes 0.5 s would blink it between abandons.)
OUT_OF_MANA_HOLD = 0.5
OUT_OF_MANA_COLOUR = (255, 120, 90)
#: The HP bar's edge at the peak of a low-HP beat.
LOW_HP_EDGE = (255, 60, 60)


def shown_hp(hp: float) -> int:
    """HP as a number on screen: rounded up, so a living player never reads 0 (0.3 HP shows 1)
    and a heal that stops a hair short of the max shows the max."""
    return max(1, math.ceil(hp - 1e-4)) if hp > 0 else 0


@dataclass(frozen=True)
class BossBar:
    """R-BOSS-2 the boss bar: the boss's name, HP and phase, where its later phases begin
    (marks on the bar), its plates, and whether it is invulnerable (Last Will) or enraged."""

    name: str
    hp: float
    hp_max: float
    phase: int
    marks: tuple[float, ...] = ()
    plates: int = 0
    invulnerable: bool = False
    enraged: bool = False
    #: Where the boss stands (world px): off screen, an arrow on the edge points at it.
    at: tuple[float, float] | None = None


@dataclass
class HudState:
    wave: int = 1
    seconds_left: float = 60.0
    currency: int = 0
    #: R-MOVE-3 ring: 0 gone, 1 charging, 2 full (flashing), 3 released.
    charge: int = 0
    charge_since: float = 0.0
    #: Seconds from the ring showing to full (R-MOVE-3; set from the data).
    charge_span: float = 1.0
    toasts: list[tuple[str, float]] = field(default_factory=list)
    show_damage_numbers: bool = True
    #: (world x, world y, damage, killing blow, age in s), newest last.
    damage_numbers: list[tuple[float, float, float, bool, float]] = field(default_factory=list)
    #: Spawns announced but not landed yet (R-WAVE-1), from the wave director.
    markers: Sequence[SpawnMarker] = ()
    #: Seconds into the wave, for the markers' countdown.
    wave_time: float = 0.0
    #: Enemy kind → (name, base HP), for the boss bar's label and choice.
    roster: Sequence[tuple[str, float]] = ()
    #: R-END-1: Last Will is armed (`World.last_will`): its mark shows beside the HP bar.
    last_will: bool = False
    #: R-FEEL-2: seconds since a cast was last abandoned for want of mana (inf: none this wave).
    since_abandoned: float = math.inf
    #: R-FEEL-1 low HP: the heartbeat's strength now (0 none, 1 at a beat), set by the arena from its effects.
    low_hp_beat: float = 0.0
    #: Seconds since the wave started (the timer's gold intro while under `WAVE_INTRO_SECONDS`).
    since_wave_start: float = math.inf
    #: R-WAVE-1: a boss wave's boss (its name replaces the timer's seconds), and its bar while it lives.
    boss_name: str | None = None
    boss: BossBar | None = None
    #: R-BOSS-2: screen boxes of the arena's own beside the Hud's (its relic row and potion belt):
    #: a boss under one is pointed at as if off screen.
    covered: Sequence[pygame.Rect] = ()
    #: The run's modes as tags beside the wave timer (R-END-5 practice, R-META-1 cursed waves, R-END-2
    #: NG+): (text, colour), already translated.
    modes: Sequence[tuple[str, tuple[int, int, int]]] = ()

    def cast_abandoned(self) -> None:
        """A frame reported CAST_ABANDONED: "Out of mana" shows (again) from now."""
        self.since_abandoned = 0.0

    @property
    def out_of_mana(self) -> bool:
        """R-FEEL-2: casts are being abandoned — one was within the last `OUT_OF_MANA_HOLD` seconds."""
        return self.since_abandoned < OUT_OF_MANA_HOLD

    def toast(self, text: str, seconds: float = 2.5) -> None:
        self.toasts.append((text, seconds))

    def tick(self, dt: float) -> None:
        self.toasts = [(t, s - dt) for t, s in self.toasts if s - dt > 0]
        self.charge_since += dt
        self.since_abandoned += dt
        self.since_wave_start += dt
        self.damage_numbers = [
            (x, y, v, k, age + dt) for x, y, v, k, age in self.damage_numbers if age + dt < DAMAGE_NUMBER_SECONDS
        ]

    def add_hits(self, hits: Hits) -> None:
        """The step's biggest hits (`FrameReport.hits`) become floating numbers (oldest dropped first)."""
        if not self.show_damage_numbers or not len(hits):
            return
        shown = slice(0, MAX_DAMAGE_NUMBERS)
        fresh = [
            (float(x), float(y), float(damage), bool(lethal), 0.0)
            for (x, y), damage, lethal in zip(
                hits.positions[shown], hits.damage[shown], hits.lethal[shown], strict=True
            )
        ]
        self.damage_numbers = (self.damage_numbers + fresh)[-MAX_DAMAGE_NUMBERS:]


def toast_pills(width: int, state: HudState, top: int) -> list[tuple[pygame.Rect, Fitted]]:
    """Where the newest three toasts go on a screen `width` px wide, stacked down from `top`:
    each one's pill and its fitted lines (the banner keeps below the last, `artificer.ui.effects`)."""
    pills = []
    for text, _ in state.toasts[-3:]:
        laid = fit_lines(text, TOAST_SIZE, False, min(TOAST_WIDTH, width - 80), 2)
        pill = pygame.Rect(0, 0, laid.width + 2 * TOAST_PAD[0], laid.height + 2 * TOAST_PAD[1])
        pill.midtop = (width // 2, top)
        pills.append((pill, laid))
        top = pill.bottom + TOAST_GAP
    return pills


class Hud:
    def __init__(self, crystal: pygame.Surface) -> None:
        self.font = font(24, bold=True)
        self.small = font(17)
        self.warning = font(15, bold=True)
        self.crystal = crystal
        self._numbers: dict[tuple[int, bool], pygame.Surface] = {}

    def draw(
        self,
        surface: pygame.Surface,
        buffers: FrameBuffers,
        state: HudState,
        player_screen: tuple[float, float],
        camera_offset: tuple[float, float] = (0.0, 0.0),
        toast_top: int | None = None,
    ) -> None:
        """The HUD over the arena; toasts stack from `toast_top` (default: under the wave timer)."""
        self._markers(surface, state, camera_offset)
        self._damage_numbers(surface, state, camera_offset)
        self._boss_bar(surface, buffers, state, camera_offset)
        w, _ = surface.get_size()
        hp, hp_max = buffers.player_value("hp"), max(1.0, buffers.player_value("hp_max"))
        mana, mana_max = buffers.player_value("mana"), max(1.0, buffers.player_value("mana_max"))
        ward = buffers.player_value("ward")
        box(surface, HP_BOX)
        self._bar(surface, (22, 20, 280, 18), hp / hp_max, HP_COLOUR, f"{shown_hp(hp)} / {hp_max:.0f}")
        if ward > 0:
            self._bar(surface, (22, 20, 280, 4), min(1.0, ward / hp_max), WARD_COLOUR, None)
        if state.low_hp_beat > 0.05:
            # R-FEEL-1 low HP: the HP bar's edge beats red with the vignette.
            edge = tuple(round(40 + (c - 40) * min(1.0, state.low_hp_beat)) for c in LOW_HP_EDGE)
            pygame.draw.rect(surface, edge, (20, 18, 284, 22), 2, border_radius=4)
        self._bar(surface, (22, 46, 280, 14), mana / mana_max, MANA_COLOUR, f"{mana:.0f} / {mana_max:.0f}")
        if state.out_of_mana:
            self._out_of_mana(surface)
        if state.last_will:
            self._last_will_mark(surface)
        bottom = self._wave_timer(surface, state)
        self._gold(surface, state)
        self._charge_ring(surface, state, player_screen)
        self._toasts(surface, state, bottom + 6 if toast_top is None else toast_top)

    def _wave_timer(self, surface: pygame.Surface, state: HudState) -> int:
        """The wave and its seconds left on a pill at the top centre (gold as the wave starts); its bottom."""
        intro = state.since_wave_start < WAVE_INTRO_SECONDS
        if state.boss_name is not None:  # R-WAVE-1: a boss wave lasts until its boss falls
            text = tr("ui.hud.boss_wave", wave=state.wave, name=state.boss_name)
        else:
            text = tr("ui.hud.wave_timer", wave=state.wave, seconds=max(0.0, state.seconds_left))
        image = self.font.render(text, True, WAVE_INTRO_COLOUR if intro else TEXT)
        pill = image.get_rect(midtop=(surface.get_width() // 2, 12)).inflate(28, 8)
        box(surface, pill, WAVE_INTRO_COLOUR if intro else PANEL_EDGE)
        surface.blit(image, image.get_rect(center=pill.center))
        x = pill.right + 8
        for text, colour in state.modes:  # the run's modes, each a small tag edged in its colour
            tag = self.small.render(text, True, colour)
            rect = tag.get_rect(midleft=(x, pill.centery)).inflate(14, 6)
            rect.left = x
            box(surface, rect, colour)
            surface.blit(tag, tag.get_rect(center=rect.center))
            x = rect.right + 6
        return pill.bottom

    def _gold(self, surface: pygame.Surface, state: HudState) -> None:
        """The run's gold with its crystal on a pill at the top right (above the potion belt)."""
        gold = self.font.render(str(state.currency), True, (120, 220, 255))
        w = surface.get_width()
        pill = pygame.Rect(0, 0, gold.get_width() + self.crystal.get_width() + 26, 34)
        pill.topright = (w - 12, 10)
        box(surface, pill)
        surface.blit(gold, gold.get_rect(midright=(pill.right - 10, pill.centery)))
        surface.blit(self.crystal, self.crystal.get_rect(midright=(pill.right - 16 - gold.get_width(), pill.centery)))

    def _toasts(self, surface: pygame.Surface, state: HudState, top: int) -> None:
        """The newest three toasts, each on its own opaque pill under the wave timer (fitted: two lines at most)."""
        for pill, laid in toast_pills(surface.get_width(), state, top):
            box(surface, pill)
            blit_lines(surface, laid, TEXT, center=pill.center)

    def _out_of_mana(self, surface: pygame.Surface) -> None:
        """R-FEEL-2: the mana bar edged red and "Out of mana" under it, inside the HUD's box."""
        pygame.draw.rect(surface, OUT_OF_MANA_COLOUR, (21, 45, 282, 16), 1, border_radius=3)
        label = self.warning.render(tr("ui.arena.out_of_mana"), True, OUT_OF_MANA_COLOUR)
        surface.blit(label, label.get_rect(midtop=(162, 62)))

    def _last_will_mark(self, surface: pygame.Surface) -> None:
        """R-END-1: a small Last Will glyph on a dark disc right of the HP bar."""
        centre = (LAST_WILL_MARK[0], LAST_WILL_MARK[1])
        pygame.draw.circle(surface, PANEL, centre, 15)
        pygame.draw.circle(surface, PANEL_EDGE, centre, 15, 1)
        talent_icon(surface, centre, 10, LAST_WILL_COLOUR)

    def _markers(self, surface: pygame.Surface, state: HudState, offset: tuple[float, float]) -> None:
        """R-WAVE-1: a pulsing ring where a group will land, closing in as the second runs out."""
        ox, oy = offset
        for marker in state.markers:
            left = max(0.0, marker.lands_at - state.wave_time)
            x, y = marker.x + ox, marker.y + oy
            radius = 14 + 10 * math.sqrt(marker.count) * (0.4 + 0.6 * min(1.0, left))
            colour = (255, 215, 0) if marker.elite else MARKER_COLOUR
            pygame.draw.circle(surface, colour, (x, y), radius, 2)
            arm = radius * 0.45
            pygame.draw.line(surface, colour, (x - arm, y - arm), (x + arm, y + arm), 3)
            pygame.draw.line(surface, colour, (x - arm, y + arm), (x + arm, y - arm), 3)

    def _damage_numbers(self, surface: pygame.Surface, state: HudState, offset: tuple[float, float]) -> None:
        ox, oy = offset
        for x, y, value, lethal, age in state.damage_numbers:
            image = self._number(value, lethal)
            image.set_alpha(int(255 * (1.0 - age / DAMAGE_NUMBER_SECONDS) ** 0.5))
            surface.blit(
                image, image.get_rect(center=(x + ox, y + oy - 10 - DAMAGE_NUMBER_RISE * age / DAMAGE_NUMBER_SECONDS))
            )

    def _number(self, value: float, lethal: bool) -> pygame.Surface:
        key = (max(1, round(value)), lethal)
        image = self._numbers.get(key)
        if image is None:
            if len(self._numbers) > 512:
                self._numbers.clear()
            face = font(20 if lethal else 15, bold=True)
            text = face.render(str(key[0]), True, LETHAL_COLOUR if lethal else DAMAGE_COLOUR)
            shadow = face.render(str(key[0]), True, (0, 0, 0))
            image = pygame.Surface((text.get_width() + 2, text.get_height() + 2), pygame.SRCALPHA)
            image.blit(shadow, (2, 2))
            image.blit(text, (0, 0))
            self._numbers[key] = image
        return image

    def _boss(self, surface: pygame.Surface, boss: BossBar) -> None:
        """R-BOSS-2: the boss's bar across the bottom — HP, a mark where each later phase begins,
        the phase, its plates; gold while invulnerable, a red edge once enraged."""
        bar = boss_bar_rect(surface.get_size())
        colour = BOSS_INVULNERABLE_COLOUR if boss.invulnerable else BOSS_COLOUR
        fraction = boss.hp / max(1.0, boss.hp_max)
        self._bar(surface, (bar.x, bar.y, bar.width, bar.height), fraction, colour, None)
        hp = self.small.render(f"{boss.hp:.0f} / {boss.hp_max:.0f}", True, TEXT)
        behind_hp = hp.get_rect(center=bar.center).inflate(8, 0)
        for mark in boss.marks:
            x = bar.x + round(bar.width * mark)
            if behind_hp.left <= x <= behind_hp.right:  # the numbers read over a mark: it shows above and below them
                pygame.draw.line(surface, BOSS_MARK_COLOUR, (x, bar.top - 3), (x, bar.top + 1), 2)
                pygame.draw.line(surface, BOSS_MARK_COLOUR, (x, bar.bottom - 2), (x, bar.bottom + 2), 2)
            else:
                pygame.draw.line(surface, BOSS_MARK_COLOUR, (x, bar.top - 3), (x, bar.bottom + 2), 2)
        surface.blit(hp, hp.get_rect(center=bar.center))
        edge = BOSS_ENRAGED_COLOUR if boss.enraged else (250, 230, 250)
        pygame.draw.rect(surface, edge, bar.inflate(2, 2), 2 if boss.enraged else 1, border_radius=4)
        parts = [tr("ui.hud.boss_phase", name=boss.name, phase=boss.phase)]
        if boss.plates:
            parts.append(tr("ui.hud.boss_plates", plates=boss.plates))
        if boss.enraged:
            parts.append(tr("ui.hud.boss_enraged"))
        text = self.small.render("  ·  ".join(parts), True, BOSS_ENRAGED_COLOUR if boss.enraged else TEXT)
        plate = text.get_rect(midbottom=(bar.centerx, bar.top - 5)).inflate(18, 6)
        box(surface, plate, BOSS_ENRAGED_COLOUR if boss.enraged else PANEL_EDGE)
        surface.blit(text, text.get_rect(center=plate.center))

    def _boss_bar(
        self, surface: pygame.Surface, buffers: FrameBuffers, state: HudState, offset: tuple[float, float]
    ) -> None:
        """The boss's bar while a boss lives (`_boss`, and its pointer while it is off screen); else
        the toughest elite alive: its name and HP across the bottom."""
        if state.boss is not None:
            self._boss(surface, state.boss)
            if state.boss.at is not None:
                bar, h = boss_bar_rect(surface.get_size()), surface.get_height()
                own = (
                    HP_BOX,
                    pygame.Rect(bar.left, h - HUD_BOTTOM_BAND, bar.width, HUD_BOTTOM_BAND),
                )  # the bar, its name
                colour = BOSS_ENRAGED_COLOUR if state.boss.enraged else BOSS_COLOUR
                boss_pointer(surface, state.boss.at, offset, colour, (*own, *state.covered))
            return
        enemies = buffers.enemy_rows()
        if not len(enemies) or not state.roster:
            return
        elites = enemies[(enemies[:, EnemyColumn.FLAGS].astype(np.int64) & _core.ENEMY_FLAG_ELITE) > 0]
        if not len(elites):
            return
        base_hp = np.array([hp for _, hp in state.roster], dtype=np.float64)
        kinds = np.clip(elites[:, EnemyColumn.KIND].astype(np.intp), 0, len(base_hp) - 1)
        toughest = int(np.argmax(base_hp[kinds] * 1000.0 + elites[:, EnemyColumn.HP_FRACTION]))
        kind, fraction = int(kinds[toughest]), float(elites[toughest, EnemyColumn.HP_FRACTION])
        w, h = surface.get_size()
        bar = pygame.Rect(w // 4, h - 44, w // 2, 16)
        self._bar(surface, (bar.x, bar.y, bar.width, bar.height), fraction, BOSS_COLOUR, None)
        pygame.draw.rect(surface, (250, 230, 250), bar, 1, border_radius=3)
        label = tr("ui.hud.elite", name=state.roster[kind][0])
        if len(elites) > 1:
            label = tr("ui.hud.elites", name=state.roster[kind][0], count=len(elites))
        text = self.small.render(label, True, TEXT)
        plate = text.get_rect(midbottom=(bar.centerx, bar.top - 4)).inflate(16, 4)
        box(surface, plate)
        surface.blit(text, text.get_rect(center=plate.center))

    def _bar(
        self,
        surface: pygame.Surface,
        rect: tuple[int, int, int, int],
        fraction: float,
        colour: tuple[int, int, int],
        label: str | None,
    ) -> None:
        x, y, w, h = rect
        pygame.draw.rect(surface, (40, 40, 50), rect, border_radius=3)
        pygame.draw.rect(surface, colour, (x, y, int(w * max(0.0, min(1.0, fraction))), h), border_radius=3)
        if label:
            img = self.small.render(label, True, TEXT)
            surface.blit(img, (x + w / 2 - img.get_width() / 2, y + h / 2 - img.get_height() / 2))

    def _charge_ring(self, surface: pygame.Surface, state: HudState, at: tuple[float, float]) -> None:
        if state.charge not in (1, 2):
            return
        full = state.charge == 2
        if full and int(state.charge_since * 8) % 2:
            return  # flashing when full
        colour = (240, 228, 66) if full else (180, 180, 220)
        sweep = (
            2 * math.pi if full else min(2 * math.pi, 2 * math.pi * state.charge_since / max(state.charge_span, 1e-3))
        )
        rect = pygame.Rect(0, 0, 44, 44)
        rect.center = (int(at[0]), int(at[1]))
        pygame.draw.arc(surface, colour, rect, -math.pi / 2, -math.pi / 2 + sweep, 3)


def boss_bar_rect(size: tuple[int, int]) -> pygame.Rect:
    """R-BOSS-2: the boss's bar across the bottom of a screen of `size` (its name sits above it)."""
    w, h = size
    return pygame.Rect(w // 6, h - 50, w * 2 // 3, 22)


def boss_pointer(
    surface: pygame.Surface,
    at: tuple[float, float],
    offset: tuple[float, float],
    colour: tuple[int, int, int],
    covered: Sequence[pygame.Rect] = (),
) -> tuple[float, float] | None:
    """R-BOSS-2: a boss off screen (world point `at`, drawn at `at + offset`) gets an arrow inside
    the screen's edge, on the line from the screen's centre to it, pointing at it; returns the
    arrow's tip (None while the boss is in sight). A boss whose centre is under one of the HUD's
    boxes (`covered`) is pointed at too, from where that line meets the box."""
    w, h = surface.get_size()
    x, y = at[0] + offset[0], at[1] + offset[1]
    on_screen = 0 <= x < w and 0 <= y < h
    under = next((box for box in covered if box.collidepoint(x, y)), None) if on_screen else None
    if on_screen and under is None:
        return None
    left, top, right, bottom = BOSS_POINTER_INSETS
    cx, cy = (left + w - right) / 2, (top + h - bottom) / 2
    dx, dy = x - cx, y - cy
    if under is not None:
        # The centre's ray to the boss, cut where it enters the box the boss stands under.
        reach = max(
            ((under.left if dx > 0 else under.right) - cx) / dx if dx else -math.inf,
            ((under.top if dy > 0 else under.bottom) - cy) / dy if dy else -math.inf,
        )
    else:
        # The centre's ray to the boss, cut where it leaves the inset box.
        reach = min(
            ((w - right - cx) if dx > 0 else (cx - left)) / abs(dx) if dx else math.inf,
            ((h - bottom - cy) if dy > 0 else (cy - top)) / abs(dy) if dy else math.inf,
        )
    norm = math.hypot(dx, dy)
    ux, uy = dx / norm, dy / norm
    tip = (cx + dx * reach, cy + dy * reach)
    back = (tip[0] - ux * BOSS_POINTER_LENGTH, tip[1] - uy * BOSS_POINTER_LENGTH)
    half = BOSS_POINTER_LENGTH * 0.45
    arrow = [tip, (back[0] - uy * half, back[1] + ux * half), (back[0] + uy * half, back[1] - ux * half)]
    pygame.draw.polygon(surface, colour, arrow)
    pygame.draw.polygon(surface, BOSS_POINTER_EDGE, arrow, 2)
    return tip


def box(surface: pygame.Surface, rect: pygame.Rect, edge: tuple[int, int, int] = PANEL_EDGE) -> None:
    """An opaque HUD box with a thin edge (R-FEEL-1: never a veil over the playfield)."""
    pygame.draw.rect(surface, PANEL, rect, border_radius=6)
    pygame.draw.rect(surface, edge, rect, 1, border_radius=6)
