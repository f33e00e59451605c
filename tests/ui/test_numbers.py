"""R-FEEL-2, numbers to decide with: spell tooltips in numbers (lab and shop), stat offers as
now → after, the player's HP in the shop, and "Out of mana" only while casts are abandoned."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pygame
import pytest

from artificer.content import DEFAULT_DATA_DIR, Content, load_content
from artificer.content.models import WandStat
from artificer.content.spell_blocks import ModifierBlock
from artificer.engine import EventKind
from artificer.engine import events as ev
from artificer.game.loadout import Place
from artificer.game.run import Run
from artificer.game.shop import Offer
from artificer.ui.hud import OUT_OF_MANA_COLOUR, OUT_OF_MANA_HOLD, HudState, shown_hp
from artificer.ui.i18n import tr
from artificer.ui.scene import SceneStack
from artificer.ui.scenes import lab as lab_module
from artificer.ui.scenes.arena import ArenaScene
from artificer.ui.scenes.lab import LabScene
from artificer.ui.scenes.shop import HP_BAR, ShopScene
from artificer.ui.shop_widgets import Canvas, stat_value_text
from artificer.ui.spell_text import MODIFIER_CHANGES, Tone, spell_lines
from content_tweaks import with_balance

CONTENT = load_content()


def texts(content: Content, spell_id: str) -> list[str]:
    return [text for text, _ in spell_lines(content.spell(spell_id), content.balance.statuses)]


def numbers(content: Content, spell_id: str) -> list[str]:
    return [
        text for text, tone in spell_lines(content.spell(spell_id), content.balance.statuses) if tone == Tone.NUMBER
    ]


# --- the tooltip's lines --------------------------------------------------------------------


def test_r_feel_2_an_action_tooltip_reads_its_numbers_from_the_data() -> None:
    """Fireball: damage, explosion, flight, its element's status chance, mana, CPU and cast delay."""
    fireball = CONTENT.spell("fireball")
    action = fireball.action
    assert action is not None and fireball.element is not None
    lines = texts(CONTENT, "fireball")
    assert lines[:3] == [tr(fireball.name_key), "Fire · Action", tr(fireball.description_key)]
    assert f"Damage {action.damage:g}" in lines
    assert f"Explodes: {action.damage:g} damage within {action.explode_radius:g} px" in lines
    assert f"Speed {action.speed:g} px/s for {action.lifetime:g} s · spread {action.spread:g}°" in lines
    chance = CONTENT.balance.statuses.chance[fireball.element]
    assert f"Burn chance {chance * 100:g}% per hit" in lines
    assert lines[-1] == f"Mana {fireball.mana_cost:g} · CPU {fireball.cpu} · cast delay +{fireball.cast_delay:g} s"


@pytest.mark.parametrize(
    ("spell_id", "expected"),
    [
        ("chain_bolt", "Chains to {a.chain} more enemies within {a.chain_range:g} px"),
        ("ice_shard", "Pierce {a.pierce}"),
        ("frost_nova", "Blast: {a.damage:g} damage within {a.radius:g} px"),
        (
            "poison_pool",
            "Zone: {a.zone.damage_per_second:g} damage/s for {a.zone.duration:g} s, radius {a.zone.radius:g} px",
        ),
        ("healing_mist", "Heals you {a.zone.heal_per_second:g} HP/s inside"),
        ("black_hole", "Pulls enemies in at {a.zone.pull:g} px/s"),
        ("summon_turret", "Summon: casts the spells after it every {a.summon.period:g} s for {a.summon.duration:g} s"),
        ("electro_dash_bolt", "×{a.moving_multiplier:g} damage while you move"),
        ("gravity_singularity", "Stand still {a.charge.still_seconds:g} s to charge: ×{a.charge.multiplier:g} damage"),
    ],
)
def test_r_feel_2_each_kind_of_action_shows_its_own_numbers(spell_id: str, expected: str) -> None:
    """Chain jumps, pierce, a blast's area, a zone's dps and duration, heal, pull, a summon's period and
    duration, the moving and charge multipliers: each from the spell's action block."""
    assert expected.format(a=CONTENT.spell(spell_id).action) in numbers(CONTENT, spell_id)


def test_r_feel_2_a_summon_tooltip_says_the_share_of_the_mana_its_casts_pay(tmp_path: Path) -> None:
    """R-MANA-5: under the period and duration, the summon's `cost_share` as a percent — from the
    data, so a copy of the content with other shares reads them."""
    for spell_id in ("summon_turret", "tesla_coil"):
        action = CONTENT.spell(spell_id).action
        assert action is not None and action.summon is not None
        lines = numbers(CONTENT, spell_id)
        summon_line = (
            f"Summon: casts the spells after it every {action.summon.period:g} s for {action.summon.duration:g} s"
        )
        share_line = f"Its casts cost {action.summon.cost_share * 100:g}% of their mana"
        assert lines[lines.index(summon_line) + 1] == share_line
    shutil.copytree(DEFAULT_DATA_DIR, tmp_path, dirs_exist_ok=True)
    path = tmp_path / "spells.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    shares = {"summon_turret": 0.25, "tesla_coil": 1.0}
    for spell in document["spells"]:
        if spell["id"] in shares:
            spell["action"]["summon"]["cost_share"] = shares[spell["id"]]
    path.write_text(json.dumps(document, indent=1), encoding="utf-8")
    content = load_content(tmp_path)
    assert "Its casts cost 25% of their mana" in numbers(content, "summon_turret")
    assert "Its casts cost 100% of their mana" in numbers(content, "tesla_coil")


@pytest.mark.parametrize(
    ("spell_id", "expected"),
    [
        ("damage_plus", "{m.damage_flat:+g} damage"),
        ("speed_plus", "×{m.speed_mult:g} speed"),
        ("pierce_plus", "{m.pierce_add:+d} pierce"),
        ("bounce", "{m.bounce_add:+d} bounces"),
        ("lifetime_plus", "{m.lifetime_add:+g} s lifetime"),
        ("size_plus", "×{m.size_mult:g} size"),
    ],
)
def test_r_feel_2_a_modifier_tooltip_says_the_change_it_makes(spell_id: str, expected: str) -> None:
    assert expected.format(m=CONTENT.spell(spell_id).modifier) in numbers(CONTENT, spell_id)


def test_r_feel_2_every_field_of_a_modifier_has_its_tooltip_line() -> None:
    """The tooltip's table of modifier changes names each field of the content model once."""
    fields = [field for field, _, _ in MODIFIER_CHANGES]
    assert sorted(fields) == sorted(ModifierBlock.model_fields)


def test_r_feel_2_percent_changes_an_infusion_and_the_other_families_show_their_numbers() -> None:
    crit, infusion = CONTENT.spell("crit_plus").modifier, CONTENT.spell("fire_infusion").modifier
    assert crit is not None and infusion is not None and infusion.element is not None
    assert f"+{crit.crit_add * 100:g}% crit chance" in numbers(CONTENT, "crit_plus")
    fire = texts(CONTENT, "fire_infusion")
    assert "Turns the shot to Fire" in fire and f"+{infusion.status_chance_add * 100:g}% status chance" in fire
    assert f"Burn chance {CONTENT.balance.statuses.chance[infusion.element] * 100:g}% per hit" in fire
    triple = CONTENT.spell("triple_cast").multicast
    assert triple is not None
    assert numbers(CONTENT, "triple_cast") == [
        f"Fires the next {triple.count} actions together, fanned {triple.spread:g}°"
    ]
    timer = CONTENT.spell("trigger_timer").trigger
    assert timer is not None and timer.delay is not None
    assert numbers(CONTENT, "trigger_timer")[:2] == [
        f"After {timer.delay:g} s: the spells after it cast where the bolt is",
        f"Damage {timer.carrier.damage:g}",
    ]
    loop = CONTENT.spell("loop").logic
    assert loop is not None
    assert numbers(CONTENT, "loop") == [f"Runs the next {loop.span} spells ×{loop.count}"]
    low = CONTENT.spell("if_hp_low").logic
    assert low is not None and low.threshold is not None
    assert numbers(CONTENT, "if_hp_low") == [f"Runs the next spell only below {low.threshold * 100:g}% HP"]
    counter, combo = CONTENT.spell("charge_counter").logic, CONTENT.spell("kill_combo").logic
    assert counter is not None and combo is not None
    assert numbers(CONTENT, "charge_counter")[0].endswith(f" every {counter.n} casts")
    assert numbers(CONTENT, "kill_combo")[0].endswith(f" once per {combo.n} kills")


def test_r_feel_2_the_tooltip_follows_the_data_it_reads(tmp_path: Path) -> None:
    """Change fireball's numbers in a copy of the content: its tooltip changes with them."""
    shutil.copytree(DEFAULT_DATA_DIR, tmp_path, dirs_exist_ok=True)
    path = tmp_path / "spells.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    fireball = next(spell for spell in document["spells"] if spell["id"] == "fireball")
    fireball["mana_cost"], fireball["cast_delay"] = 31, 0.35
    fireball["action"].update(damage=37, explode_radius=55, speed=333)
    path.write_text(json.dumps(document, indent=1), encoding="utf-8")
    lines = texts(load_content(tmp_path), "fireball")
    assert "Damage 37" in lines and "Explodes: 37 damage within 55 px" in lines
    assert any(line.startswith("Speed 333 px/s") for line in lines)
    assert lines[-1] == f"Mana 31 · CPU {fireball['cpu']} · cast delay +0.35 s"
    assert "Damage 10" not in lines


# --- where the tooltips show -----------------------------------------------------------------


def test_r_feel_2_the_lab_tooltip_of_a_backpack_and_a_board_card_shows_the_numbers(
    display: pygame.Surface, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[list[str]] = []
    monkeypatch.setattr(
        lab_module, "tooltip", lambda surface, lines, at, width=320: shown.append([t for t, _ in lines])
    )
    run = Run(CONTENT, 1)
    run.loadout.stash("chain_bolt")
    lab = LabScene(run, 1)
    stack = SceneStack()
    stack.push(lab)
    stack.draw(display, 0.0)
    for place, spell_id in (
        (Place("backpack", 0), "chain_bolt"),
        (Place("slot", 0), run.loadout.card_at(Place("slot", 0))),
    ):
        assert spell_id is not None
        shown.clear()
        stack.handle_event(
            pygame.event.Event(pygame.MOUSEMOTION, pos=lab.rect_of(place).center, rel=(0, 0), buttons=(0, 0, 0))
        )
        stack.draw(display, 0.0)
        assert shown == [texts(CONTENT, spell_id)]
    chain = CONTENT.spell("chain_bolt").action
    assert chain is not None
    assert f"Damage {chain.damage:g}" in texts(CONTENT, "chain_bolt")


def shop(gold: int = 500, wave: int = 4) -> tuple[ShopScene, SceneStack, Run]:
    run = Run(CONTENT, 21)
    run.currency = gold
    scene = ShopScene(run, wave, on_open_lab=None, on_next_wave=None)
    stack = SceneStack()
    stack.push(scene)
    return scene, stack, run


def tip_of(scene: ShopScene, key: str) -> list[str]:
    hot = next(h for h in scene.hots if h.key == key)
    assert hot.tip is not None
    return [text for text, _ in hot.tip]


def test_r_feel_2_shop_offers_and_the_backpack_cards_carry_the_numbers_tooltip(display: pygame.Surface) -> None:
    scene, stack, run = shop()
    run.loadout.backpack = ["fireball", "homing"]
    run.shop.paid_cards["fireball"] = [45]  # bought; "homing" was never paid for (R-SHOP-1: discard only)
    stack.draw(display, 0.0)
    for index, offer in enumerate(run.shop.shelves["spells"]):
        assert offer is not None
        expected = texts(CONTENT, offer.item)
        tip = tip_of(scene, f"spell:{index}")
        assert tip[: len(expected)] == expected
        effect = scene.offer_effect("spells", offer.item)  # R-SHOP-1: then what it does to the player's wand
        assert tip[len(expected)] == tr("ui.shop.wand_effect", now=effect.now, after=effect.after)
    backpack = tip_of(scene, "backpack:0")
    assert backpack[:-1] == texts(CONTENT, "fireball")
    assert backpack[-1] == tr("ui.shop.sell_value", gold=run.shop.card_sale_value("fireball"))
    assert tip_of(scene, "backpack:1")[-1] == tr("ui.shop.discard_value")
    # A slotted card of a carried core, hovered in its row's strip.
    stack.handle_event(
        pygame.event.Event(pygame.MOUSEMOTION, pos=scene.slot_rect(0, 0).center, rel=(0, 0), buttons=(0, 0, 0))
    )
    canvas = Canvas(display, scene.mouse)
    scene._compose(canvas)
    assert canvas.hover_tip is not None
    assert [text for text, _ in canvas.hover_tip] == texts(CONTENT, "spark_bolt")


# --- stats: now → after -----------------------------------------------------------------------


def max_hp_shelf(scene: ShopScene, run: Run) -> None:
    run.shop.shelves["stats"][0] = Offer("stats", WandStat.MAX_HP.value, 1, 15)
    scene._stale = True


def test_r_feel_2_the_max_hp_offer_reads_now_and_after_with_the_relic_bonuses(display: pygame.Surface) -> None:
    """The starting relic (iron_heart +10) and a strawberry (+7) count in "now": 100 + 10 + 7 = 117 → 127.
    (The shop used to show the HP bought, "now 0".)"""
    scene, stack, run = shop()
    run.gain_relic("strawberry")
    base = CONTENT.balance.player.max_hp
    bonus = sum(CONTENT.relics.relic(r).value for r in ("iron_heart", "strawberry"))
    amount = next(e.amount for e in CONTENT.balance.shop.stats if e.stat == WandStat.MAX_HP)
    assert run.shop.stat_preview(WandStat.MAX_HP) == (base + bonus, base + bonus + amount)
    max_hp_shelf(scene, run)
    stack.draw(display, 0.0)
    assert f"Now {base + bonus:g}, after {base + bonus + amount:g}" in tip_of(scene, "stat:0")
    run.shop.buy_stat(0)
    assert run.sim.world.player_hp()[1] == base + bonus + amount
    assert run.shop.stat_preview(WandStat.MAX_HP) == (base + bonus + amount, base + bonus + 2 * amount)


def test_r_feel_2_every_stat_preview_starts_from_the_real_value() -> None:
    """Crit chance starts at balance's 5%, move speed at 240 px/s, pickup radius at the pickups' reach,
    mana regen at the active core's: none of them reads 0 before a purchase."""
    run = Run(CONTENT, 1)
    player, core = CONTENT.balance.player, CONTENT.core(run.loadout.active)
    offers = {e.stat: e for e in CONTENT.balance.shop.stats}
    preview = run.shop.stat_preview
    assert preview(WandStat.CRIT_CHANCE) == (
        player.crit_chance,
        round(player.crit_chance + offers[WandStat.CRIT_CHANCE].amount, 4),
    )
    assert preview(WandStat.MOVE_SPEED) == (
        player.move_speed,
        player.move_speed * (1 + offers[WandStat.MOVE_SPEED].amount),
    )
    reach = CONTENT.balance.pickups.pickup_radius
    assert preview(WandStat.PICKUP_RADIUS) == (reach, reach + offers[WandStat.PICKUP_RADIUS].amount)
    assert preview(WandStat.MANA_REGEN) == (core.mana_regen, core.mana_regen + offers[WandStat.MANA_REGEN].amount)
    assert preview(WandStat.CPU) == (core.cpu_limit, core.cpu_limit + offers[WandStat.CPU].amount)
    assert stat_value_text(WandStat.CRIT_CHANCE, preview(WandStat.CRIT_CHANCE)[0]) == f"{player.crit_chance * 100:g}%"
    assert stat_value_text(WandStat.MOVE_SPEED, preview(WandStat.MOVE_SPEED)[0]) == f"{player.move_speed:g}"


# --- HP in the shop -----------------------------------------------------------------------------


@pytest.fixture
def written(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the shop fits into its canvas, in order."""
    texts: list[str] = []
    fitted = Canvas.fitted

    def spy(self: Canvas, text: str, *rest: object) -> None:
        texts.append(text)
        fitted(self, text, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(Canvas, "fitted", spy)
    return texts


def shop_healing(share: float) -> tuple[ShopScene, SceneStack, Run]:
    """The shop of a run whose waves heal `share` of max HP before they start (R-LOOP-1)."""
    run = Run(with_balance(CONTENT, "wave", heal_between=share), 21)
    scene = ShopScene(run, 4, on_open_lab=None, on_next_wave=None)
    stack = SceneStack()
    stack.push(scene)
    return scene, stack, run


def hp_bar_filled(scene: ShopScene, display: pygame.Surface) -> float:
    bar = scene.hp_rect
    assert bar == scene.view.r(*HP_BAR)
    row = pygame.surfarray.array3d(display)[bar.left + 2 : bar.right - 2, bar.bottom - 3].astype(int)
    return float((np.abs(row - (213, 94, 0)).sum(axis=1) < 40).mean())


def test_r_loop_1_the_shop_shows_the_hp_the_next_wave_starts_with(display: pygame.Surface, written: list[str]) -> None:
    """R-LOOP-1 / R-FEEL-2: a wave left HP 44 / 110, but the next starts at full HP (heal_between 1):
    the shop says so, bar full; with half a max HP healed it reads 99 / 110, the bar at 90%."""
    scene, stack, run = shop()
    run.sim.world.set_player_hp(44.0, 110.0)
    stack.draw(display, 0.0)
    assert "Next wave: HP 110 / 110" in written and not any("HP 44" in text for text in written)
    assert hp_bar_filled(scene, display) > 0.95
    written.clear()
    scene, stack, run = shop_healing(0.5)
    run.sim.world.set_player_hp(44.0, 110.0)
    stack.draw(display, 0.0)
    assert "Next wave: HP 99 / 110" in written
    assert 0.85 < hp_bar_filled(scene, display) < 0.95


def test_r_feel_2_a_living_player_never_reads_0_hp(display: pygame.Surface, written: list[str]) -> None:
    """A sliver of HP (0.3) that no heal raises reads "HP 1": HP on screen rounds up (`shown_hp`, the
    shop's and the HUD's), so 0 means dead (a playtest walked into the shop reading "HP 0 / 160")."""
    _, stack, run = shop_healing(0.0)
    run.sim.world.set_player_hp(0.3, 160.0)
    stack.draw(display, 0.0)
    assert "Next wave: HP 1 / 160" in written
    assert [shown_hp(hp) for hp in (0.0, 0.3, 1.0, 43.2, 159.99998, 160.0)] == [0, 1, 1, 44, 160, 160]


# --- "Out of mana" ----------------------------------------------------------------------------------


def test_r_feel_2_out_of_mana_holds_half_a_second_after_the_last_abandoned_cast() -> None:
    state = HudState()
    assert not state.out_of_mana
    state.cast_abandoned()
    state.tick(OUT_OF_MANA_HOLD - 0.05)
    assert state.out_of_mana
    state.tick(0.1)
    assert not state.out_of_mana


def warning_pixels(surface: pygame.Surface) -> int:
    """Pixels of the warning's colour under the mana bar, inside the HUD's box."""
    patch = pygame.surfarray.array3d(surface)[20:305, 44:86].astype(int)
    return int((np.abs(patch - OUT_OF_MANA_COLOUR).sum(axis=2) < 50).sum())


def test_r_feel_2_out_of_mana_shows_while_casts_are_abandoned_and_clears_once_they_go_through(
    display: pygame.Surface,
) -> None:
    """A wand dearer than the regen can pay, enemies in reach: casts are abandoned and the mark shows
    under the mana bar (no toast). A free wand then: casts go through, and the mark is gone in half a second."""
    arena = ArenaScene(CONTENT, seed=2)
    stack = SceneStack()
    stack.push(arena)
    stack.update(1 / 60)
    run, world = arena.run, arena.run.sim.world
    cards = run.loadout.carried(run.loadout.active).cards
    cards[:] = ["fireball"] * len(cards)  # 25 mana a card, every cast: well past the core's regen
    run.rearm()
    world.set_player_hp(1e6, 1e6)  # the test is about mana: the enemies must not end the wave
    x, y = world.player_position()
    for k in range(10):
        run.sim.input.spawn(CONTENT.enemy_index("brute"), x + 200.0, y + 20.0 * k - 100.0)
    abandoned = 0
    for _ in range(600):
        stack.update(1 / 60)
        abandoned += ev.count(run.sim.buffers.event_rows(), EventKind.CAST_ABANDONED)
        if abandoned:
            break
    assert abandoned, "the dear wand ran dry"
    assert arena.hud_state.out_of_mana
    stack.draw(display, 0.0)
    assert warning_pixels(display) > 30
    assert not any(text == tr("ui.arena.out_of_mana") for text, _ in arena.hud_state.toasts)

    cards[:] = ["steam_blast"] + [None] * (len(cards) - 1)  # free: every cast goes through
    assert run.rearm()["mana_per_cast"] == 0
    fired = 0
    for _ in range(round(OUT_OF_MANA_HOLD * 60) + 2):
        stack.update(1 / 60)
        rows = run.sim.buffers.event_rows()
        assert ev.count(rows, EventKind.CAST_ABANDONED) == 0
        fired += ev.count(rows, EventKind.CAST_FIRED)
    assert fired > 0
    assert not arena.hud_state.out_of_mana
    stack.draw(display, 0.0)
    assert warning_pixels(display) == 0
