"""FrameReport: a step's event rows decoded once, in the game's words (what the arena, HUD, juice,
relic row and sound read). A real `Simulation` kills an elite and a normal grunt with the starting
wand, its hits and the crystals they drop come back in the report; hand-made rows pin every other
field to its event kind and columns."""

from __future__ import annotations

import numpy as np
import pytest

from artificer.content import Content, load_content
from artificer.engine import EventKind, Simulation
from artificer.engine import events as ev
from artificer.engine.events import Reaction, relic_event
from artificer.game.report import FrameReport


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


def test_a_real_step_reports_its_kills_with_positions_and_elite_its_hits_and_its_pickups(content: Content) -> None:
    sim = Simulation(content, seed=3, rules={"player_fixed": True, "hit_events": True})
    sim.arm_starting_wand()
    sim.step()
    px, py = sim.world.player_position()
    grunt = content.enemy_index("grunt")
    sim.input.spawn(grunt, px + 90.0, py, elite=True)  # to fall before they reach the player, in pickup reach
    sim.input.spawn(grunt, px - 90.0, py)
    kills, hits, lethal, currency, rewards = [], 0, 0, 0.0, 0.0
    for _ in range(600):
        sim.step()
        report = FrameReport.of(sim.buffers.event_rows())
        kills += [
            (float(x), float(y), bool(elite), int(kind))
            for (x, y), elite, kind in zip(report.kills.positions, report.kills.elite, report.kills.kinds, strict=True)
        ]
        rewards += float(report.kills.rewards.sum())
        hits += len(report.hits)
        lethal += int(report.hits.lethal.sum())
        assert np.all(report.hits.damage > 0)
        currency += report.currency
        if len(kills) == 2 and currency >= rewards:
            break
    assert sorted(elite for *_, elite, _ in kills) == [False, True]
    assert all(kind == grunt for *_, kind in kills)
    for x, y, elite, _ in kills:
        assert abs(y - py) < 30.0 and (x > px) == elite, "each kill where its enemy stood (the elite to the right)"
    assert hits >= 2 and lethal == 2, "hits for damage numbers, the two killing blows marked"
    assert currency == rewards > 0, "the crystals the kills dropped were picked up and reported"


def row(
    kind: EventKind, a: float = 0.0, b: float = 0.0, x: float = 0.0, y: float = 0.0, value: float = 0.0
) -> list[float]:
    values = [0.0] * len(ev.EventColumn)
    for column, number in ((ev.KIND, float(kind)), (ev.A, a), (ev.B, b), (ev.X, x), (ev.Y, y), (ev.VALUE, value)):
        values[column] = number
    return values


def test_every_field_reads_its_event_kind_and_columns() -> None:
    rows = np.array(
        [
            row(EventKind.ENEMY_KILLED, a=3, b=1, x=10, y=20, value=4),
            row(EventKind.ENEMY_HIT, a=3, b=0, x=11, y=21, value=7.5),
            row(EventKind.ENEMY_HIT, a=3, b=1, x=12, y=22, value=9),
            row(EventKind.EXPLODED, a=2, b=48, x=30, y=40, value=12),
            row(EventKind.CURRENCY_PICKED, value=3),
            row(EventKind.CURRENCY_PICKED, value=2),
            row(EventKind.PLAYER_DAMAGED, a=-1, b=1, value=6),
            row(EventKind.RELIC, a=relic_event("thorns"), b=2, value=5),
            row(EventKind.RELIC, a=relic_event("pen_nib_period"), value=1),
            row(EventKind.RELIC, a=relic_event("thorns"), b=2, value=5),
            row(EventKind.CAST_FIRED, value=1),
            row(EventKind.CAST_ABANDONED, a=2),
            row(EventKind.CAST_ABANDONED, a=3),
            row(EventKind.CHARGE_STATE_CHANGED, a=1),
            row(EventKind.CHARGE_STATE_CHANGED, a=2),
            row(EventKind.ELEMENT_REACTION, a=Reaction.ELECTRIFIED, b=3),
            row(EventKind.ELEMENT_REACTION, a=Reaction.ELECTRIFIED, b=4),
            row(EventKind.DASHED, a=1, b=0),
            row(EventKind.LAST_WILL, a=-1, value=1),
            row(EventKind.TRACE, a=4, b=20, value=15),
        ]
    )
    report = FrameReport.of(rows)
    assert report.kills.positions.tolist() == [[10, 20]] and report.kills.kinds.tolist() == [3]
    assert report.kills.elite.tolist() == [True] and report.kills.rewards.tolist() == [4]
    assert report.hits.positions.tolist() == [[11, 21], [12, 22]]
    assert report.hits.damage.tolist() == [7.5, 9] and report.hits.lethal.tolist() == [False, True]
    assert report.explosions.positions.tolist() == [[30, 40]]
    assert report.explosions.radii.tolist() == [48] and report.explosions.elements.tolist() == [2]
    assert (report.pickups, report.currency) == (2, 5.0)
    assert (report.player_hits, report.hp_lost) == (1, 6.0)
    assert report.relic_rules == tuple(sorted((relic_event("thorns"), relic_event("pen_nib_period"))))
    assert (report.casts_fired, report.casts_abandoned) == (1, 2)
    assert report.charge == 2, "the frame's last charge state"
    assert report.reactions == {Reaction.ELECTRIFIED: 2}
    assert report.dashed and report.last_will and not report.died
    assert report.trace.nodes.tolist() == [4]
    assert report.trace.mana_before.tolist() == [20] and report.trace.mana_after.tolist() == [15]


def test_a_quiet_frame_reports_nothing() -> None:
    report = FrameReport.of(np.zeros((0, len(ev.EventColumn))))
    assert len(report.kills) == len(report.hits) == len(report.explosions) == len(report.trace) == 0
    assert (report.pickups, report.currency, report.player_hits, report.hp_lost) == (0, 0.0, 0, 0.0)
    assert report.relic_rules == () and report.charge is None and report.reactions == {}
    assert not (report.casts_fired or report.casts_abandoned or report.dashed or report.last_will or report.died)
    died = FrameReport.of(np.array([row(EventKind.PLAYER_DIED)]))
    assert died.died
