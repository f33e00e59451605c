"""The game layer's seeded draws (game/draws.py, issue 14): one generator per purpose, rebuilt
from the run's seed and named keys, never saved."""

from __future__ import annotations

from collections import Counter

import pytest

from artificer.content import load_content
from artificer.game import draws
from artificer.game.run import Run

CONTENT = load_content()


def numbers(seed: int, purpose: str, *key: draws.Key) -> list[float]:
    return [float(x) for x in draws.rng(seed, purpose, *key).random(8)]


def test_the_same_key_gives_the_same_numbers_in_a_new_generator() -> None:
    assert numbers(7, draws.SHOP, 3, 0) == numbers(7, draws.SHOP, 3, 0)


@pytest.mark.parametrize(
    "other",
    [
        (8, draws.SHOP, 3, 0),  # another seed
        (7, draws.SHOP, 3, 1),  # the next reroll
        (7, draws.SHOP, 4, 0),  # the next wave's shop
        (7, draws.SHOP_POTION, 3, 0),  # another purpose
        (7, draws.SHOP, 3),  # a shorter key
        (7, draws.SHOP, 3, 0, 0),  # a longer key
    ],
)
def test_another_seed_purpose_or_key_gives_other_numbers(other: tuple[int, str, int]) -> None:
    assert numbers(*other) != numbers(7, draws.SHOP, 3, 0)


def test_names_and_numbers_in_a_key_stay_apart() -> None:
    assert numbers(1, draws.RELIC, "wave", 1) != numbers(1, draws.RELIC, "shop", 1)
    assert numbers(1, draws.RELIC, "a") != numbers(1, draws.RELIC, "\x00a")


@pytest.mark.parametrize("bad", [-1, True])
def test_a_key_holds_only_names_and_non_negative_ints(bad: int) -> None:
    with pytest.raises((ValueError, TypeError)):
        draws.rng(1, draws.SHOP, bad)


def test_pick_is_uniform_and_pick_weighted_follows_the_weights() -> None:
    rng = draws.rng(3, "test")
    picked = Counter(draws.pick(rng, "abcd") for _ in range(8000))
    assert set(picked) == set("abcd") and all(abs(n / 8000 - 0.25) < 0.03 for n in picked.values())
    weighted = Counter(draws.pick_weighted(rng, "abc", [1.0, 3.0, 0.0]) for _ in range(8000))
    assert weighted["c"] == 0 and weighted["b"] / weighted["a"] == pytest.approx(3.0, rel=0.15)
    with pytest.raises(IndexError):
        draws.pick(rng, [])
    with pytest.raises(ValueError):
        draws.pick_weighted(rng, "ab", [0.0, 0.0])


def test_a_shop_restock_is_its_key_whatever_was_drawn_before() -> None:
    """R-SHOP-1: a restock draws from (seed, wave, rerolls made): the second reroll of the shop
    after wave 2 shows the same shelves whether or not the first reroll was drawn in this
    process (a continued save knows only how many rerolls were made)."""
    shelves = ("spells", "cores", "stats")
    played, continued = Run(CONTENT, 41), Run(CONTENT, 41)
    played.currency = continued.currency = 500
    played.shop.open(2)
    played.shop.reroll()
    continued.shop.open(2)
    continued.shop.rerolls = 1  # as a save of the shop after one reroll holds it
    before = [continued.shop.shelves[s] for s in shelves]
    assert before != [played.shop.shelves[s] for s in shelves], "the first reroll drew other offers"
    played.shop.reroll()
    continued.shop.reroll()
    assert [played.shop.shelves[s] for s in shelves] == [continued.shop.shelves[s] for s in shelves]
