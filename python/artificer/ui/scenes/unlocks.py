"""The Unlocks screen (R-META-1): aether spent on the unlock tree, from the title.

This module owns `UnlocksScene`: the tree's nodes (`artificer.game.meta.unlock_tree`,
cheapest first) side by side on one lit path — each with its card, its board
or its mode's sigil, its name and its cost — and under them the chosen node's
page: what it is, what it does, and what buying it takes. Unlocks only widen
what the shop may offer (or add a mode to the title); the page says so.

- Left / Right (or hovering) choose a node; Enter / Space or a click buys it
  when the aether held covers it: meta.json is written at once (atomically, its
  backup beside it), the node lights with a chime; too little aether says how
  much more is needed.
- Esc (the back key) returns to the title.

It declares the "unlocks" scene (`artificer.ui.scene_registry`), the title's
line just under Continue.
"""

from __future__ import annotations

import math

import pygame

from artificer import storage
from artificer.content import Content
from artificer.content.models import WaveAether
from artificer.game.codex import earned
from artificer.game.meta import CURSED_WAVES, Meta, UnlockNode, load_meta, meta_lock, save_meta, unlock_tree
from artificer.ui.cards import CardArt
from artificer.ui.fonts import font
from artificer.ui.i18n import tr
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.scene_registry import SceneKit, TitleEntry, declare
from artificer.ui.session import Session
from artificer.ui.settings import Action, Context
from artificer.ui.shop_widgets import mini_board, padlock
from artificer.ui.text_fit import draw_fitted
from artificer.ui.widgets import AETHER, TEXT, aether_star, backdrop, panel
from artificer.ui.widgets import SCREEN_DIM as DIM
from artificer.ui.widgets import SCREEN_FAINT as FAINT

SKY_TOP = (26, 16, 50)
SKY_BOTTOM = (6, 5, 14)
OWNED = (120, 220, 140)
WARN = (255, 150, 110)
NODE_FILL = (22, 18, 38)
NODE_CHOSEN = (38, 30, 66)
PATH_DARK = (60, 52, 90)
CURSE = (220, 70, 90)
#: Seconds a node glows after it was bought, and a refusal's note shows.
BOUGHT_GLOW = 1.2
NOTE_SECONDS = 2.5
#: What each kind of node is, on its page.
KIND_KEYS = {"spell": "ui.unlocks.kind.spell", "core": "ui.unlocks.kind.core", "mode": "ui.unlocks.kind.mode"}


class UnlocksScene(Scene):
    """The unlock tree: choose a node, buy it with aether (meta.json written at once)."""

    music = "title"

    def __init__(self, content: Content, session: Session) -> None:
        self.content = content
        self.session = session
        self.tree: list[UnlockNode] = unlock_tree(content)
        # R-SAVE-2: ids the content no longer has are dropped (an unlock's aether given back), with a notice.
        found = load_meta(content=content)
        self.meta: Meta = found.meta
        #: A notice to show (meta.json set aside or restored, a failed write, a refusal) and its seconds left.
        self.note: tuple[str, float] | None = (found.notice, NOTE_SECONDS * 2) if found.notice else None
        waiting = [i for i, node in enumerate(self.tree) if node.id not in self.meta.unlocked]
        self.choice = waiting[0] if waiting else 0
        #: Node index → the seconds its bought glow has left.
        self.glow: dict[int, float] = {}
        self.rects: list[pygame.Rect] = []
        self.stack: SceneStack | None = None
        self.art = CardArt(content)
        self._cards: dict[tuple[str, tuple[int, int], bool], pygame.Surface] = {}
        self._time = 0.0

    def on_enter(self, stack: SceneStack) -> None:
        self.stack = stack

    # --- input --------------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN):
            index = next((i for i, rect in enumerate(self.rects) if rect.collidepoint(event.pos)), None)
            if index is not None:
                self.choice = index
                if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                    self.buy(index)
            return None
        action = self.session.controls.handle(event, Context.MENU)
        if action in (Action.MOVE_LEFT, Action.MOVE_UP):
            self.choice = max(0, self.choice - 1)
        elif action in (Action.MOVE_RIGHT, Action.MOVE_DOWN):
            self.choice = min(len(self.tree) - 1, self.choice + 1)
        elif action is Action.CONFIRM:
            self.buy(self.choice)
        elif action is Action.BACK:
            self.leave()
        return None

    def buy(self, index: int) -> bool:
        """R-META-1: node `index` bought with aether, meta.json written; True when it was."""
        node = self.tree[index]
        if node.id in self.meta.unlocked:
            return False
        if not self.meta.can_buy(node):
            self.note = (tr("ui.unlocks.need", more=node.cost - self.meta.aether), NOTE_SECONDS)
            return False
        # The file's progress, not this screen's copy: a run may have ended in between (never lose aether);
        # read, bought and written under meta.json's lock, so a run ending meanwhile waits and adds up.
        with meta_lock():
            found = load_meta(content=self.content)
            current = found.meta
            if not current.can_buy(node):
                self.meta = current
                return False
            self.meta = current.buy(node)
            self.meta = self.meta.with_achievements(earned(self.content, self.meta))  # R-META-2: "collector"
            try:
                if found.stuck:  # R-SAVE-2: not a regular file, or unreadable: left as it is
                    raise OSError(found.notice or "meta.json is left as it is")
                save_meta(self.meta)
            except OSError as error:
                storage.log.warning("meta.json could not be saved: %s", error)
                self.note = (tr("ui.unlocks.save_failed", error=str(error)), NOTE_SECONDS * 2)
        self.glow[index] = BOUGHT_GLOW
        self.session.play("unlock")
        return True

    def leave(self) -> None:
        if self.stack is not None and self.stack.top is self:
            self.stack.pop()

    def update(self, dt: float) -> None:
        self._time += dt
        self.glow = {i: left - dt for i, left in self.glow.items() if left - dt > 0}
        if self.note is not None:
            text, left = self.note
            self.note = (text, left - dt) if left - dt > 0 else None

    # --- drawing ------------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        width, height = surface.get_size()
        unit = backdrop(surface, SKY_TOP, SKY_BOTTOM)
        title = font(max(24, int(52 * unit)), bold=True).render(tr("ui.unlocks.title"), True, TEXT)
        surface.blit(title, title.get_rect(midtop=(width // 2, int(28 * unit))))
        star = int(30 * unit)
        held = font(max(16, int(30 * unit)), bold=True).render(str(self.meta.aether), True, AETHER)
        right = width - int(48 * unit)
        surface.blit(held, held.get_rect(topright=(right, int(40 * unit))))
        aether_star(
            surface,
            (right - held.get_width() - int(12 * unit) - star // 2, int(40 * unit) + held.get_height() // 2),
            star,
        )
        label = font(max(11, int(16 * unit))).render(tr("ui.unlocks.held"), True, DIM)
        surface.blit(label, label.get_rect(topright=(right, int(40 * unit) + held.get_height())))

        count = len(self.tree)
        gap = int(28 * unit)
        node_w = min(int(210 * unit), (width - 2 * int(48 * unit) - gap * (count - 1)) // count)
        node_h = int(272 * unit)
        left = (width - (count * node_w + (count - 1) * gap)) // 2
        top = int(128 * unit)
        self.rects = [pygame.Rect(left + i * (node_w + gap), top, node_w, node_h) for i in range(count)]
        self._path(surface, unit)
        for index, (node, rect) in enumerate(zip(self.tree, self.rects, strict=True)):
            self._node(surface, index, node, rect, unit)
        page = pygame.Rect(int(80 * unit), top + node_h + int(24 * unit), width - int(160 * unit), int(180 * unit))
        self._page(surface, page, self.tree[self.choice], unit)

        rates = " · ".join(tr("ui.unlocks.rate", wave=e.wave, aether=e.aether) for e in self._paying())
        first = tr("ui.unlocks.first_clear", aether=self.content.balance.meta.first_clear_aether)
        line = tr("ui.unlocks.rates", rates=f"{rates} · {first}")
        draw_fitted(
            surface,
            line,
            max(11, int(16 * unit)),
            False,
            DIM,
            width - int(96 * unit),
            midbottom=(width // 2, height - int(44 * unit)),
        )
        hint = font(max(11, int(15 * unit))).render(tr("ui.unlocks.hint"), True, FAINT)
        surface.blit(hint, hint.get_rect(midbottom=(width // 2, height - int(16 * unit))))
        if self.note is not None:
            text, left_s = self.note
            note = font(max(12, int(18 * unit)), bold=True).render(text, True, WARN)
            note.set_alpha(int(255 * min(1.0, left_s / 0.4)))
            surface.blit(note, note.get_rect(midtop=(width // 2, int(92 * unit))))

    def _paying(self) -> list[WaveAether]:
        return [e for e in self.content.balance.meta.aether_by_wave if e.aether > 0]

    def _path(self, surface: pygame.Surface, unit: float) -> None:
        """The line joining the nodes, lit in aether's colour as far as they are bought."""
        y = self.rects[0].top + int(96 * unit)
        for i in range(len(self.rects) - 1):
            a, b = self.rects[i].right, self.rects[i + 1].left
            lit = self.tree[i].id in self.meta.unlocked and self.tree[i + 1].id in self.meta.unlocked
            pygame.draw.line(surface, AETHER if lit else PATH_DARK, (a, y), (b, y), max(2, int(4 * unit)))

    def _node(self, surface: pygame.Surface, index: int, node: UnlockNode, rect: pygame.Rect, unit: float) -> None:
        owned = node.id in self.meta.unlocked
        affordable = self.meta.can_buy(node)
        chosen = index == self.choice
        pygame.draw.rect(surface, NODE_CHOSEN if chosen else NODE_FILL, rect, border_radius=int(14 * unit))
        pulse = 0.5 + 0.5 * math.sin(self._time * 4.0)
        edge: tuple[int, ...] = OWNED if owned else AETHER if affordable else PATH_DARK
        if affordable and not owned:
            edge = tuple(int(c * (0.65 + 0.35 * pulse)) for c in AETHER)
        pygame.draw.rect(surface, edge, rect, max(2, int((4 if chosen else 2) * unit)), border_radius=int(14 * unit))
        glow = self.glow.get(index)
        if glow is not None:
            halo = rect.inflate(int(24 * unit * glow), int(24 * unit * glow))
            pygame.draw.rect(surface, AETHER, halo, max(2, int(5 * unit * glow)), border_radius=int(20 * unit))
        art = pygame.Rect(0, 0, int(rect.width * 0.56), int(rect.width * 0.56 * 1.3))
        art.midtop = (rect.centerx, rect.top + int(16 * unit))
        self._art(surface, node, art, owned or affordable)
        if not owned:
            lock = pygame.Rect(0, 0, int(30 * unit), int(30 * unit))
            lock.topright = (rect.right - int(8 * unit), rect.top + int(8 * unit))
            padlock(surface, lock, AETHER if affordable else FAINT, locked=True)
        name_y = art.bottom + int(12 * unit)
        draw_fitted(
            surface,
            tr(node.name_key),
            max(12, int(19 * unit)),
            True,
            TEXT if owned or affordable else DIM,
            rect.width - int(16 * unit),
            midtop=(rect.centerx, name_y),
        )
        status_y = rect.bottom - int(26 * unit)
        if owned:
            text = font(max(11, int(17 * unit)), bold=True).render(tr("ui.unlocks.owned"), True, OWNED)
            surface.blit(text, text.get_rect(center=(rect.centerx, status_y)))
        else:
            cost = font(max(12, int(22 * unit)), bold=True).render(str(node.cost), True, AETHER if affordable else DIM)
            size = int(20 * unit)
            total = size + int(6 * unit) + cost.get_width()
            x = rect.centerx - total // 2
            aether_star(surface, (x + size // 2, status_y), size)
            surface.blit(cost, cost.get_rect(midleft=(x + size + int(6 * unit), status_y)))

    def _art(self, surface: pygame.Surface, node: UnlockNode, area: pygame.Rect, bright: bool) -> None:
        """The node's picture: the spell's card, the core's board, the mode's sigil."""
        if node.kind == "spell":
            surface.blit(self._card(node.id, area.size, bright), area)
        elif node.kind == "core":
            pygame.draw.rect(surface, (16, 14, 30), area, border_radius=10)
            mini_board(
                surface, self.content.core(node.id), area.inflate(-12, -12), AETHER if bright else FAINT, area.width / 3
            )
        else:
            _curse_sigil(surface, area, CURSE if bright else FAINT)

    def _card(self, spell_id: str, size: tuple[int, int], bright: bool) -> pygame.Surface:
        """A spell node's card, dimmed while it is out of reach (each drawn once)."""
        key = (spell_id, size, bright)
        if key not in self._cards:
            image = self.art.image(spell_id, size)
            if not bright:
                image = image.copy()
                image.fill((110, 110, 130, 255), special_flags=pygame.BLEND_RGBA_MULT)
            self._cards[key] = image
        return self._cards[key]

    def _page(self, surface: pygame.Surface, area: pygame.Rect, node: UnlockNode, unit: float) -> None:
        """The chosen node: its name and kind, what it does, what buying it takes."""
        panel(surface, area)
        pad = int(22 * unit)
        name = font(max(16, int(28 * unit)), bold=True).render(tr(node.name_key), True, TEXT)
        surface.blit(name, (area.x + pad, area.y + int(14 * unit)))
        kind = font(max(11, int(17 * unit))).render(tr(KIND_KEYS[node.kind]), True, AETHER)
        surface.blit(
            kind,
            (
                area.x + pad + name.get_width() + int(16 * unit),
                area.y + int(14 * unit) + (name.get_height() - kind.get_height()) // 2,
            ),
        )
        draw_fitted(
            surface,
            self._description(node),
            max(12, int(18 * unit)),
            False,
            DIM,
            area.width - 2 * pad,
            max_lines=3,
            topleft=(area.x + pad, area.y + int(58 * unit)),
        )
        if node.id in self.meta.unlocked:
            text, colour = tr("ui.unlocks.owned_long"), OWNED
        elif self.meta.can_buy(node):
            text, colour = tr("ui.unlocks.buy", cost=node.cost), AETHER
        else:
            text, colour = tr("ui.unlocks.need", more=node.cost - self.meta.aether), WARN
        action = font(max(12, int(19 * unit)), bold=True).render(text, True, colour)
        surface.blit(action, (area.x + pad, area.bottom - int(34 * unit)))
        widen = font(max(10, int(14 * unit))).render(tr("ui.unlocks.widen"), True, FAINT)
        surface.blit(widen, widen.get_rect(bottomright=(area.right - pad, area.bottom - int(14 * unit))))

    def _description(self, node: UnlockNode) -> str:
        if node.kind == "spell":
            return tr(self.content.spell(node.id).description_key)
        if node.kind == "core":
            return tr(self.content.core(node.id).description_key)
        assert node.id == CURSED_WAVES
        cursed = self.content.balance.meta.cursed_waves
        return tr(
            "ui.unlocks.cursed_waves.description",
            hp=round((cursed.enemy_hp_multiplier - 1) * 100),
            every=cursed.elite_every,
        )


def _curse_sigil(surface: pygame.Surface, area: pygame.Rect, colour: tuple[int, int, int]) -> None:
    """The cursed-waves mode's mark: a ringed crescent over three wave crests."""
    pygame.draw.rect(surface, (20, 10, 22), area, border_radius=10)
    cx, cy = area.centerx, area.centery - area.height // 8
    r = area.width // 3
    pygame.draw.circle(surface, colour, (cx, cy), r + 6, 2)
    pygame.draw.circle(surface, colour, (cx, cy), r)
    pygame.draw.circle(surface, (20, 10, 22), (cx + r // 2, cy - r // 4), r)
    crest_y = area.bottom - area.height // 5
    step = area.width // 4
    for i in range(3):
        x = area.x + step // 2 + i * step
        pygame.draw.arc(surface, colour, (x, crest_y - step // 2, step, step), 0, math.pi, 3)


@declare("unlocks", title=TitleEntry("ui.title.unlocks", order=250, needs_a_finished_run=True))
def unlocks_scene(kit: SceneKit) -> UnlocksScene:
    """The "unlocks" scene over meta.json."""
    return UnlocksScene(kit.content, kit.session)
