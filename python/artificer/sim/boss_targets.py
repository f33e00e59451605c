"""R-BOSS-3's bands, judged the same way wherever a boss fight is measured: the boss arena
(`python -m artificer.sim.boss_arena --full-hp`) and the sweep's report (`artificer sim`, sim/curve.py).

"Fought at full HP by the archetype bots, the median time to kill is 30–90 s at W8, 45–150 s at
W10 and 90–240 s at W20, and each boss takes at least 25% of the player's max HP at the median."
The numbers are data (balance.json `wave.boss.targets`, `BossFightTargets`); this module owns the
medians and the two verdicts:

- the median time to kill: per archetype the median over its fights (a fight the boss survived
  counts as slower than any kill: `median_ttk`), then the median over the archetypes; it holds
  when it lies within the boss wave's band (a median that is itself a non-kill fails);
- the HP a boss takes: each fight's HP lost as a share of the player's max HP, the median per
  archetype, then over the archetypes; it holds at `min_hp_taken` or more.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from artificer.content.models import BossFightTargets

RULE = "R-BOSS-3"


def median_ttk(times: Iterable[float | None]) -> float | None:
    """The median of `times`, a None (not killed) counted as slower than any kill; None when the
    median itself is a non-kill (or there is no time)."""
    values = [math.inf if t is None else t for t in times]
    if not values:
        return None
    middle = statistics.median(values)
    return None if math.isinf(middle) or math.isnan(middle) else round(middle, 3)


def median_share(shares: Iterable[float | None]) -> float | None:
    """The median of the shares known (None when none is)."""
    known = [share for share in shares if share is not None]
    return round(statistics.median(known), 4) if known else None


@dataclass(frozen=True)
class Verdict:
    """One R-BOSS-3 target on one boss: what it asks, the figure measured, and whether it holds."""

    asks: str
    figure: str
    ok: bool


def ttk_verdict(targets: BossFightTargets, wave: int, median_s: float | None) -> Verdict:
    """The median time to kill against wave `wave`'s band (no band: it fails, saying so)."""
    band = targets.band(wave)
    figure = "not killed at the median" if median_s is None else f"median {median_s:.1f} s"
    if band is None:
        return Verdict(f"W{wave}: a time-to-kill band (balance.json has none)", figure, False)
    asks = f"median TTK within W{wave}'s {band.min_s:g}–{band.max_s:g} s"
    return Verdict(asks, figure, median_s is not None and band.min_s <= median_s <= band.max_s)


def hp_verdict(targets: BossFightTargets, share: float | None) -> Verdict:
    """The median share of max HP the boss took against `min_hp_taken`."""
    asks = f"takes ≥ {targets.min_hp_taken:.0%} of the player's max HP at the median"
    if share is None:
        return Verdict(asks, "no fight measured", False)
    return Verdict(asks, f"median {share:.0%}", share >= targets.min_hp_taken)
