"""A run's end into the progress across runs (R-END-2, R-META-1, R-META-2, R-END-5), no pygame.

`settle(content, meta, end)` is the one place a finished run changes meta.json's progress, for the
window's summary and the headless `run --meta` alike: its clear (one more, the next NG+ level), its
aether (the highest wave threshold, milestones once, the clear rewards), one run more, and the
achievements all that earns. It is applied once, as the run ends — a victory's clear is counted with
its reward, so a window closed during the victory's moment neither loses the reward nor counts the
clear twice (the run's save still stands before the last wave until then).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from artificer.content import Content
from artificer.game.codex import earned
from artificer.game.meta import MAX_HELD_AETHER, AetherLine, Meta, Reward


@dataclass(frozen=True)
class RunEnd:
    """How a run ended: the wave it reached (began), whether it cleared the game, its NG+ level, its kills."""

    wave_reached: int
    cleared: bool
    ng_plus: int = 0
    kills: int = 0
    #: R-END-3: the waves whose boss rush it cleared (each pays `endless.boss_rush.aether`).
    boss_rushes: tuple[int, ...] = ()


@dataclass(frozen=True)
class Settled:
    """The progress after a run, the aether it paid, and the NG+ level its clear unlocked (0: none new)."""

    meta: Meta
    reward: Reward
    ng_plus_unlocked: int = 0


def settle_endless(content: Content, meta: Meta, end: RunEnd) -> Settled:
    """An endless run's end, its victory settled already when it went on (R-END-3): the deeper best
    wave and the achievements it earns; no aether and no run more (the victory paid them)."""
    meta = dataclasses.replace(meta, best_wave=max(meta.best_wave, end.wave_reached))
    meta, reward = _boss_rushes(content, meta, Reward(), end)
    return Settled(meta.with_achievements(earned(content, meta, end.kills)), reward)


def _boss_rushes(content: Content, meta: Meta, reward: Reward, end: RunEnd) -> tuple[Meta, Reward]:
    """R-END-3: `meta` and `reward` with a line of aether for each boss rush the run cleared."""
    amount = content.balance.endless.boss_rush.aether
    lines = tuple(AetherLine("boss_rush", wave, amount) for wave in end.boss_rushes if amount > 0)
    if not lines:
        return meta, reward
    paid = sum(line.amount for line in lines)
    meta = dataclasses.replace(
        meta,
        aether=min(MAX_HELD_AETHER, meta.aether + paid),
        aether_earned=min(MAX_HELD_AETHER, meta.aether_earned + paid),
    )
    return meta, dataclasses.replace(reward, lines=reward.lines + lines)


def settle(content: Content, meta: Meta, end: RunEnd) -> Settled:
    """`meta` after the run `end` describes (see the module's docstring)."""
    before = meta.ng_plus_unlocked
    if end.cleared:
        meta = meta.cleared(end.ng_plus, content.balance.ng_plus.max_level)
    meta, reward = meta.after_run(content.balance.meta, end.wave_reached, end.cleared, end.ng_plus)
    meta, reward = _boss_rushes(content, meta, reward, end)
    meta = meta.with_achievements(earned(content, meta, end.kills))
    return Settled(meta, reward, meta.ng_plus_unlocked if meta.ng_plus_unlocked > before else 0)
