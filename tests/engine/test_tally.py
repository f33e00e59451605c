"""The game's per-frame books read the core's tally of a step's events (`Tally.of_step`, one pass
in Rust) instead of counting the event rows with numpy: the same counts, sums and largest values,
to the bit, frame by frame through a busy wave (R-SIM-1's statistics and the HUD's come from them)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from artificer import _core
from artificer.content import load_content
from artificer.engine import EventKind
from artificer.engine import events as ev
from artificer.game.flow import RunFlow
from artificer.game.run import Run
from artificer.sim.bot import KitingBot


def numpy_tally(rows: npt.NDArray[np.float64]) -> ev.Tally:
    """The reference: the rows counted, and their values summed in row order, by `np.bincount`."""
    kinds, slots = rows[:, ev.KIND].astype(np.intp), max(_core.EVENT_KINDS.values()) + 1
    counts = np.bincount(kinds, minlength=slots).tolist()
    most = [float(rows[kinds == k, ev.VALUE].max()) if counts[k] else 0.0 for k in range(slots)]
    return ev.Tally(counts, np.bincount(kinds, weights=rows[:, ev.VALUE], minlength=slots).tolist(), most)


def test_the_cores_tally_is_numpys_to_the_bit() -> None:
    content = load_content()
    run = Run(content, 3)
    run.state.practice, run.state.first_wave = True, 6
    flow = RunFlow(run, first_wave=6)
    wave = flow.begin_wave()
    bot, seen = KitingBot(), set()
    for _ in range(900):
        bot.control(run.sim)
        flow.step()
        rows = run.sim.buffers.event_rows()
        core, numpy = ev.Tally.of_step(run.sim.world), numpy_tally(rows)
        for kind in EventKind:
            assert core.count(kind) == numpy.count(kind), kind
            assert core.total(kind) == numpy.total(kind), kind  # exact: the same sums in the same order
            assert core.most(kind) == numpy.most(kind), kind
            if core.count(kind):
                seen.add(kind)
        if wave.over:
            break
    busy = {
        EventKind.ENEMY_SPAWNED,
        EventKind.ENEMY_KILLED,
        EventKind.CAST_FIRED,
        EventKind.CURRENCY_PICKED,
        EventKind.ENEMY_HIT,
    }
    assert busy <= seen, f"the wave never had {busy - seen}"
