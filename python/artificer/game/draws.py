"""Every seeded draw of the game layer, one generator per purpose (R-DET-1) — no pygame.

A draw's generator comes from the run's seed and the names of what it is for:
`rng(seed, "shop", wave, rerolls)` is the shop after `wave` as it stands after `rerolls`
rerolls; `rng(seed, "relic", "wave", 10, 0)` the first relic wave 10 awards. The key goes
through numpy's `SeedSequence` (its entropy: the seed, then each name as a number), so two
purposes never share a stream, one draw more for one purpose never moves another's, and a
generator is rebuilt from its key instead of saved: a save holds what was drawn (the offers),
never a generator's state.

The purposes (each named once, here):

- `SHOP` (wave, rerolls): a shop visit's shelves — the core count, the tiers and items of the
  offers, the stats, the talents' chances (R-SHOP-1, R-END-1); a reroll draws from the next key;
- `SHOP_POTION` (wave): the shop's potion for sale (R-POT-2);
- `RELIC` (purpose…): a relic drawn for a wave's reward or the shop (R-REL-3);
- `POTION_DROP` (wave): a won wave's potion roll (R-POT-2);
- `SPAWNS` (wave): where the wave director lands its spawns (R-WAVE-1);
- `BOSS` (wave): which boss ends a wave (R-BOSS-2), and a boss rush's bosses (R-END-3);
- `BOSS_RUSH` (wave): the cards a cleared boss rush gives (R-END-3).

The core's own streams (crits) are the core's (`World.rng_state`), not drawn here.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from typing import TypeVar

import numpy as np

SHOP = "shop"
SHOP_POTION = "shop_potion"
RELIC = "relic"
POTION_DROP = "potion_drop"
SPAWNS = "spawns"
BOSS = "boss"
BOSS_RUSH = "boss_rush"

Key = str | int
T = TypeVar("T")


def _word(part: Key) -> int:
    """A key's part as a non-negative number for `SeedSequence`: an int as itself, a name as its
    UTF-8 bytes read as one big-endian number (distinct names, distinct numbers)."""
    if isinstance(part, bool):
        raise TypeError("a draw's key holds names and non-negative ints, not booleans")
    if isinstance(part, int):
        if part < 0:
            raise ValueError(f"a draw's key holds non-negative ints, not {part}")
        return part
    # A leading 1 byte keeps names that differ only by leading NUL bytes apart.
    return int.from_bytes(b"\x01" + part.encode("utf-8"), "big")


def rng(seed: int, purpose: str, *key: Key) -> np.random.Generator:
    """The generator of `purpose` (one of this module's names) for the run seeded `seed`, at `key`."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([_word(seed), _word(purpose), *map(_word, key)])))


def pick(generator: np.random.Generator, items: Sequence[T]) -> T:
    """One of `items`, each as likely (an empty sequence is an IndexError)."""
    if not items:
        raise IndexError("nothing to pick from")
    return items[int(generator.integers(len(items)))]


def pick_weighted(generator: np.random.Generator, items: Sequence[T], weights: Sequence[float]) -> T:
    """One of `items`, each as likely as its weight (the weights' sum must be positive). One
    uniform draw against the running sum, so the pick does not hang on how numpy normalises."""
    totals = list(itertools.accumulate(weights))
    if not items or len(totals) != len(items) or totals[-1] <= 0:
        raise ValueError("pick_weighted needs one positive-summing weight per item")
    return items[min(len(items) - 1, bisect.bisect_right(totals, float(generator.random()) * totals[-1]))]
