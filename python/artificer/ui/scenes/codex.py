"""The codex screen (R-META-2, R-RES-2): everything the player has met, from the title.

This module owns `CodexScene`: one tab per section — spells, enemies, bosses,
resonance recipes, the alchemy journal (element reactions), relics, potions —
and the achievements. Each tab is a grid of the content's entries: what was
met shows its picture, what was not a dark "?"; the chosen entry's page stands
beside the grid with its numbers and its text. A recipe not yet fused shows
only its hint naming the elements; once it fused in a fight, its full entry.

- Q / E (the tab keys), Tab, or a click on a tab change the tab; the arrows
  (or hovering) choose an entry; Esc (the back key) returns to the title.

It declares the "codex" scene (`artificer.ui.scene_registry`), the title's
line under Unlocks once a first run has ended. It reads meta.json once, as it
opens; it writes nothing.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator

import pygame

from artificer.content import Content
from artificer.content.looks import BodyLook
from artificer.game.codex import Codex, Entry, goal, progress_value
from artificer.game.meta import Meta, Section, load_meta
from artificer.game.relics import relic_text_values
from artificer.ui.atlas import body_sprite
from artificer.ui.cards import CardArt
from artificer.ui.fonts import font
from artificer.ui.i18n import tr
from artificer.ui.icons_potions import potion_image
from artificer.ui.icons_relics import relic_image
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.scene_registry import SceneKit, TitleEntry, declare
from artificer.ui.session import Session
from artificer.ui.settings import Action, Context
from artificer.ui.spell_text import Tone, spell_lines
from artificer.ui.text_fit import draw_fitted
from artificer.ui.widgets import AETHER, TEXT, backdrop, panel
from artificer.ui.widgets import SCREEN_DIM as DIM
from artificer.ui.widgets import SCREEN_FAINT as FAINT

SKY_TOP = (16, 22, 44)
SKY_BOTTOM = (5, 6, 14)
FOUND = (120, 220, 140)
TILE = (24, 22, 40)
TILE_CHOSEN = (44, 38, 76)
UNKNOWN = (52, 48, 74)
#: The achievements' tab, after the sections.
ACHIEVEMENTS = "achievements"
TABS: tuple[str, ...] = (*(section.value for section in Section), ACHIEVEMENTS)
TAB_KEYS = {
    "spells": "ui.codex.tab.spells",
    "enemies": "ui.codex.tab.enemies",
    "bosses": "ui.codex.tab.bosses",
    "recipes": "ui.codex.tab.recipes",
    "reactions": "ui.codex.tab.reactions",
    "relics": "ui.codex.tab.relics",
    "potions": "ui.codex.tab.potions",
    ACHIEVEMENTS: "ui.codex.tab.achievements",
}
#: How an entry not met yet is found, by section.
UNKNOWN_KEYS = {
    Section.SPELLS: "ui.codex.unknown.spells",
    Section.ENEMIES: "ui.codex.unknown.enemies",
    Section.BOSSES: "ui.codex.unknown.bosses",
    Section.RECIPES: "ui.codex.unknown.recipes",
    Section.REACTIONS: "ui.codex.unknown.reactions",
    Section.RELICS: "ui.codex.unknown.relics",
    Section.POTIONS: "ui.codex.unknown.potions",
}
COLUMNS = 8


class CodexScene(Scene):
    """The codex: tabs of entries, a page for the chosen one."""

    music = "title"

    def __init__(self, content: Content, session: Session, meta: Meta | None = None) -> None:
        """`meta`: the progress shown (None: meta.json's)."""
        self.content = content
        self.session = session
        self.meta = meta if meta is not None else load_meta().meta
        self.codex = Codex(content, self.meta)
        # What the tabs and the achievements show, counted once: the progress does not change while open.
        self._found = {section: self.codex.found(section) for section in Section}
        self._progress = {
            rule.id: (progress_value(rule, content, self.meta, 0), goal(rule, content))
            for rule in content.balance.meta.achievements
        }
        self.tab = 0
        self.choice = 0
        self.stack: SceneStack | None = None
        self.art = CardArt(content)
        self.tab_rects: list[pygame.Rect] = []
        self.tile_rects: list[pygame.Rect] = []

    def on_enter(self, stack: SceneStack) -> None:
        self.stack = stack

    @property
    def section(self) -> Section | None:
        """The tab's section (None: the achievements)."""
        name = TABS[self.tab]
        return None if name == ACHIEVEMENTS else Section(name)

    def entries(self) -> list[Entry]:
        section = self.section
        return self.codex.entries(section) if section is not None else []

    def _count(self) -> int:
        return len(self.entries()) if self.section is not None else len(self.content.balance.meta.achievements)

    # --- input --------------------------------------------------------------------------------

    def select_tab(self, index: int) -> None:
        self.tab = index % len(TABS)
        self.choice = 0

    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN):
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                tab = next((i for i, rect in enumerate(self.tab_rects) if rect.collidepoint(event.pos)), None)
                if tab is not None:
                    self.select_tab(tab)
                    return None
            tile = next((i for i, rect in enumerate(self.tile_rects) if rect.collidepoint(event.pos)), None)
            if tile is not None:
                self.choice = tile
            return None
        if event.type == pygame.KEYDOWN and event.key == pygame.K_TAB:
            self.select_tab(self.tab + (-1 if event.mod & pygame.KMOD_SHIFT else 1))
            return None
        # The lab's tab keys (Q / E by default) turn the codex's tabs too.
        tab_key = self.session.controls.pressed(event, Context.LAB)
        if tab_key in (Action.PREVIOUS_TAB, Action.NEXT_TAB):
            self.select_tab(self.tab + (-1 if tab_key is Action.PREVIOUS_TAB else 1))
            return None
        action = self.session.controls.handle(event, Context.MENU)
        count = self._count()
        columns = COLUMNS if self.section is not None else 1
        if action is Action.MOVE_LEFT:
            self.choice = max(0, self.choice - 1)
        elif action is Action.MOVE_RIGHT:
            self.choice = max(0, min(count - 1, self.choice + 1))
        elif action is Action.MOVE_UP:
            self.choice = max(0, self.choice - columns)
        elif action is Action.MOVE_DOWN:
            self.choice = max(0, min(count - 1, self.choice + columns))
        elif action is Action.BACK:
            if self.stack is not None and self.stack.top is self:
                self.stack.pop()
        return None

    # --- drawing ------------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        width, height = surface.get_size()
        unit = backdrop(surface, SKY_TOP, SKY_BOTTOM)
        title = font(max(22, int(44 * unit)), bold=True).render(tr("ui.codex.title"), True, TEXT)
        surface.blit(title, (int(48 * unit), int(20 * unit)))
        self._tabs(surface, unit, int(48 * unit) + title.get_width() + int(28 * unit), int(30 * unit))
        body = pygame.Rect(int(48 * unit), int(92 * unit), width - int(96 * unit), height - int(136 * unit))
        if self.section is None:
            self._achievements(surface, body, unit)
        else:
            grid = pygame.Rect(body.x, body.y, int(body.width * 0.5), body.height)
            page = pygame.Rect(
                grid.right + int(20 * unit), body.y, body.right - grid.right - int(20 * unit), body.height
            )
            self._grid(surface, grid, unit)
            entries = self.entries()
            if entries:
                self._page(surface, page, self.section, entries[min(self.choice, len(entries) - 1)], unit)
        hint = font(max(11, int(15 * unit))).render(tr("ui.codex.hint"), True, FAINT)
        surface.blit(hint, hint.get_rect(midbottom=(width // 2, height - int(14 * unit))))

    def _tabs(self, surface: pygame.Surface, unit: float, x: int, y: int) -> None:
        self.tab_rects = []
        face = font(max(11, int(16 * unit)), bold=True)
        for index, name in enumerate(TABS):
            label = tr(TAB_KEYS[name])
            if name != ACHIEVEMENTS:
                found, total = self._found[Section(name)]
            else:
                found = len(self.meta.achievements & {a.id for a in self.content.balance.meta.achievements})
                total = len(self.content.balance.meta.achievements)
            text = face.render(f"{label} {found}/{total}", True, TEXT if index == self.tab else DIM)
            rect = text.get_rect(topleft=(x, y)).inflate(int(18 * unit), int(10 * unit))
            rect.topleft = (x, y)
            chosen = index == self.tab
            pygame.draw.rect(surface, TILE_CHOSEN if chosen else TILE, rect, border_radius=int(8 * unit))
            edge = AETHER if chosen else (FOUND if found == total and total else UNKNOWN)
            pygame.draw.rect(surface, edge, rect, 2 if chosen else 1, border_radius=int(8 * unit))
            surface.blit(text, text.get_rect(center=rect.center))
            self.tab_rects.append(rect)
            x = rect.right + int(8 * unit)

    def _grid(self, surface: pygame.Surface, area: pygame.Rect, unit: float) -> None:
        entries = self.entries()
        gap = int(8 * unit)
        side = min((area.width - gap * (COLUMNS - 1)) // COLUMNS, int(82 * unit))
        self.tile_rects = []
        for (index, entry), rect in zip(enumerate(entries), _cells(area, COLUMNS, (side, side), gap), strict=False):
            chosen = index == self.choice
            pygame.draw.rect(surface, TILE_CHOSEN if chosen else TILE, rect, border_radius=int(8 * unit))
            edge = AETHER if chosen else (FOUND if entry.found else UNKNOWN)
            pygame.draw.rect(surface, edge, rect, 2 if chosen else 1, border_radius=int(8 * unit))
            self._picture(surface, self.section, entry, rect.inflate(-int(12 * unit), -int(12 * unit)))
            self.tile_rects.append(rect)

    def _picture(self, surface: pygame.Surface, section: Section | None, entry: Entry, area: pygame.Rect) -> None:
        """The entry's picture in `area`: its card, body, icon or colour; a "?" until it is met (a recipe's
        hint tile shows the elements' colours dimmed)."""
        if not entry.found:
            mark = font(max(14, area.height // 2), bold=True).render("?", True, UNKNOWN)
            surface.blit(mark, mark.get_rect(center=area.center))
            return
        c = self.content
        if section is Section.SPELLS:
            card = pygame.Rect(0, 0, int(area.height * 0.77), area.height)
            card.center = area.center
            surface.blit(self.art.image(entry.id, card.size), card)
        elif section is Section.RECIPES:
            product = c.recipe(entry.id).product
            card = pygame.Rect(0, 0, int(area.height * 0.77), area.height)
            card.center = area.center
            surface.blit(self.art.image(product, card.size), card)
        elif section in (Section.ENEMIES, Section.BOSSES):
            look = c.looks.enemies[entry.id]
            body = _body(look, area.height)
            surface.blit(body, body.get_rect(center=area.center))
        elif section is Section.RELICS:
            icon = relic_image(c.relics.relic(entry.id).icon, area.height // 3)
            surface.blit(icon, icon.get_rect(center=area.center))
        elif section is Section.POTIONS:
            icon = potion_image(c.potions.potions[entry.id].icon, area.height // 3)
            surface.blit(icon, icon.get_rect(center=area.center))
        else:
            _reaction_glyph(surface, entry.id, area)

    def _page(self, surface: pygame.Surface, area: pygame.Rect, section: Section, entry: Entry, unit: float) -> None:
        panel(surface, area)
        pad = int(22 * unit)
        picture = pygame.Rect(area.x + pad, area.y + pad, int(120 * unit), int(150 * unit))
        self._picture(surface, section, entry, picture)
        x = picture.right + int(18 * unit)
        text_width = area.right - pad - x
        title, facts, text = self._page_text(section, entry)
        draw_fitted(surface, title, max(16, int(28 * unit)), True, TEXT, text_width, topleft=(x, area.y + pad))
        y = area.y + pad + int(44 * unit)
        if section is Section.RECIPES and entry.found:
            page = self.codex.page(entry.id, tr)
            line = _recipe_line(surface, page.inputs, page.product, max(11, int(17 * unit)), (x, y), text_width)
            y = line.bottom + int(6 * unit)
        for fact in facts:
            block = draw_fitted(
                surface, fact, max(11, int(16 * unit)), False, AETHER, text_width, max_lines=2, topleft=(x, y)
            )
            y = block.bottom + int(6 * unit)
        top = max(picture.bottom, y) + int(18 * unit)
        draw_fitted(
            surface,
            text,
            max(12, int(18 * unit)),
            False,
            DIM if not entry.found else TEXT,
            area.width - 2 * pad,
            max_lines=8,
            height=area.bottom - pad - top,
            topleft=(area.x + pad, top),
        )

    def _page_text(self, section: Section, entry: Entry) -> tuple[str, list[str], str]:
        """(title, facts, text) of an entry's page."""
        c = self.content
        if section is Section.RECIPES:
            page = self.codex.page(entry.id, tr)  # R-RES-2: the hint until it fused, then the recipe
            if not page.discovered:
                return page.title, [tr("ui.codex.recipe_hidden")], page.text
            product = c.spell(c.recipe(entry.id).product)
            return page.title, [], tr(product.description_key)
        if not entry.found:
            return "???", [], tr(UNKNOWN_KEYS[section])
        name = tr(entry.name_key)
        if section is Section.SPELLS:
            spell = c.spell(entry.id)
            # The tooltip's lines (R-FEEL-2): element · family, its numbers, status chance, costs.
            lines = spell_lines(spell, c.balance.statuses)
            kind = next(text for text, tone in lines if tone is Tone.KIND)
            facts = [f"{tr('ui.codex.tier', tier=spell.tier)} · {kind}"]
            facts += [text for text, tone in lines if tone in (Tone.NUMBER, Tone.STATUS, Tone.COST)]
            if spell.affinity:
                tags = ", ".join(tr(f"ui.shop.element.{tag}") for tag in spell.affinity)
                facts.append(tr("ui.codex.affinity", tags=tags))
            return name, facts, tr(entry.description_key)
        if section is Section.ENEMIES:
            enemy = c.enemy(entry.id)
            facts = [
                tr(
                    "ui.codex.enemy_numbers",
                    hp=f"{enemy.hp:g}",
                    speed=f"{enemy.speed:g}",
                    contact=f"{enemy.contact_damage:g}",
                )
            ]
            return name, facts, tr(entry.description_key)
        if section is Section.BOSSES:
            boss = c.boss(entry.id)
            phases = len(boss.phases)
            facts = [tr("ui.codex.boss_numbers", wave=boss.wave, hp=f"{boss.body.hp:g}", phases=phases)]
            return name, facts, tr(entry.description_key)
        if section is Section.RELICS:  # the description's {value}, {every}, {seconds}, {percent}: the relic's data
            return name, [], tr(entry.description_key, **relic_text_values(c.relics.relic(entry.id)))
        if section is Section.POTIONS:  # its {value}, as the belt's tooltip fills it
            return name, [], tr(entry.description_key, value=c.potions.potions[entry.id].value)
        return name, [], tr(entry.description_key)

    def _achievements(self, surface: pygame.Surface, area: pygame.Rect, unit: float) -> None:
        rules = self.content.balance.meta.achievements
        columns = 2
        gap = int(12 * unit)
        row_h = int(64 * unit)
        width = (area.width - gap) // columns
        self.tile_rects = []
        for (index, rule), rect in zip(enumerate(rules), _cells(area, columns, (width, row_h), gap), strict=False):
            earned = rule.id in self.meta.achievements
            chosen = index == self.choice
            pygame.draw.rect(surface, TILE_CHOSEN if chosen else TILE, rect, border_radius=int(10 * unit))
            pygame.draw.rect(
                surface, FOUND if earned else UNKNOWN, rect, 2 if chosen else 1, border_radius=int(10 * unit)
            )
            pad = int(14 * unit)
            badge = rect.height // 2 - int(8 * unit)
            centre = (rect.x + pad + badge, rect.centery)
            pygame.draw.circle(surface, FOUND if earned else UNKNOWN, centre, badge)
            if earned:
                pygame.draw.lines(
                    surface,
                    (16, 30, 20),
                    False,
                    [
                        (centre[0] - badge // 2, centre[1]),
                        (centre[0] - badge // 6, centre[1] + badge // 2),
                        (centre[0] + badge // 2, centre[1] - badge // 2),
                    ],
                    max(2, badge // 4),
                )
            x = rect.x + 2 * pad + 2 * badge
            text_width = rect.right - pad - x - int(70 * unit)
            name = tr(f"achievement.{rule.id}.name")
            draw_fitted(
                surface,
                name,
                max(12, int(18 * unit)),
                True,
                TEXT if earned else DIM,
                text_width,
                topleft=(x, rect.y + int(8 * unit)),
            )
            what = tr(f"achievement.{rule.id}.description")
            draw_fitted(
                surface, what, max(10, int(14 * unit)), False, DIM, text_width, topleft=(x, rect.y + int(34 * unit))
            )
            done, target = self._progress[rule.id]
            shown = tr("ui.codex.earned") if earned else f"{min(done, target)}/{target}"
            mark = font(max(11, int(16 * unit)), bold=True).render(shown, True, FOUND if earned else FAINT)
            surface.blit(mark, mark.get_rect(midright=(rect.right - pad, rect.centery)))
            self.tile_rects.append(rect)


def _cells(area: pygame.Rect, columns: int, size: tuple[int, int], gap: int) -> Iterator[pygame.Rect]:
    """The cells of a grid of `columns` filling `area` row by row, as long as they fit in it."""
    width, height = size
    for index in itertools.count():
        row, column = divmod(index, columns)
        rect = pygame.Rect(area.x + column * (width + gap), area.y + row * (height + gap), width, height)
        if rect.bottom > area.bottom:
            return
        yield rect


def _recipe_line(
    surface: pygame.Surface, inputs: str, product: str, size: int, at: tuple[int, int], width: int
) -> pygame.Rect:
    """R-RES-2 "inputs → product" in `width`, the arrow drawn (the Latin font has no "→"); the font
    shrinks until the line fits."""
    while True:
        face = font(size, bold=True)
        left, right = face.render(inputs, True, TEXT), face.render(product, True, AETHER)
        if left.get_width() + 2 * size + right.get_width() <= width or size <= 10:
            break
        size -= 1
    x, y = at
    surface.blit(left, (x, y))
    mid = y + left.get_height() // 2
    start, end = x + left.get_width() + size // 2, x + left.get_width() + size * 3 // 2
    pygame.draw.line(surface, AETHER, (start, mid), (end - 2, mid), max(2, size // 7))
    head = max(3, size // 3)
    pygame.draw.polygon(surface, AETHER, [(end, mid), (end - head, mid - head), (end - head, mid + head)])
    surface.blit(right, (end + size // 2, y))
    return pygame.Rect(x, y, end + size // 2 + right.get_width() - x, left.get_height())


def _reaction_glyph(surface: pygame.Surface, reaction: str, area: pygame.Rect) -> None:
    """The journal's picture: a water drop, and what reacts with it (a bolt, a flame)."""
    r = area.height // 4
    cx, cy = area.centerx - r // 2, area.centery + r // 3
    water = (90, 170, 255)
    pygame.draw.circle(surface, water, (cx, cy), r)
    pygame.draw.polygon(
        surface, water, [(cx - r * 0.92, cy - r * 0.4), (cx, cy - r * 2.1), (cx + r * 0.92, cy - r * 0.4)]
    )
    ox, oy = area.centerx + r, area.centery - r // 2
    if reaction == "electrified":
        bolt = [
            (ox + r * 0.2, oy - r * 1.4),
            (ox - r * 0.6, oy + r * 0.1),
            (ox, oy + r * 0.1),
            (ox - r * 0.3, oy + r * 1.4),
            (ox + r * 0.7, oy - r * 0.3),
            (ox + r * 0.05, oy - r * 0.3),
        ]
        pygame.draw.polygon(surface, (255, 230, 90), bolt)
    else:
        flame = [
            (ox, oy - r * 1.4),
            (ox + r * 0.8, oy + r * 0.3),
            (ox + r * 0.4, oy + r),
            (ox - r * 0.4, oy + r),
            (ox - r * 0.8, oy + r * 0.3),
        ]
        pygame.draw.polygon(surface, (255, 140, 60), flame)
        pygame.draw.circle(surface, (255, 220, 120), (ox, round(oy + r * 0.45)), max(2, r // 3))


@functools.lru_cache(maxsize=64)
def _body(look: BodyLook, side: int) -> pygame.Surface:
    return pygame.transform.smoothscale(body_sprite(look, look.colour), (side, side))


@declare("codex", title=TitleEntry("ui.title.codex", order=260, needs_a_finished_run=True))
def codex_scene(kit: SceneKit) -> CodexScene:
    """The "codex" scene over meta.json."""
    return CodexScene(kit.content, kit.session)
