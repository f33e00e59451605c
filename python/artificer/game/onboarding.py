"""Onboarding by run count (R-ONB-1) and the contextual tips shown once (R-ONB-2), no pygame.

A new run is the player's run number `meta.runs + 1`; balance.json `onboarding.steps`
says what each of the first runs opens, step by step, and from the run after the last
step the game is whole:
- run 1: the preset wand (the starting wand: 3 spark bolts), movement only (no dash, no
  potions to drink), the lab closed: the shop between waves sells stats, talents, relics
  and potions, no cards and no cores;
- run 2: the lab opens, the shop's cards are the Tier 1 actions (cores: Tier 1);
- run 3: the first modifier joins them (damage_plus), with its lesson;
- run 4: the first trigger (trigger_on_hit), with its lesson and a range demo;
- run 5 on: Tier 2 and logic — everything the unlocks allow.
A player who knows the game skips it (settings.json `skip_onboarding`, or meta.json's
`onboarding_done`: a migrated veteran's file, whose clears prove they know the game).

The step a run began with is the run's (`RunState.onboarding`), saved with it, so a
continued run keeps its limits. `Onboarding` answers what the run's shop may offer, whether
the lab is open, whether the dash and the potions answer, and which lesson the run teaches.

Tips (R-ONB-2) are shown once and remembered in meta.json `tips`: `TIP_*` ids.
"""

from __future__ import annotations

from dataclasses import dataclass

from artificer.content import Content
from artificer.content.cores import Core
from artificer.content.models import OnboardingStep, SpellFamily
from artificer.content.spells import Spell
from artificer.game.meta import Meta

#: R-ONB-2's contextual tips (and R-ONB-1's lessons), each shown once: their ids in meta.json `tips`.
TIP_TRIGGER_WITHOUT_ACTION = "trigger_without_action"
TIP_CPU_HIGH = "cpu_high"
#: The lab's wand codes (Ctrl+C, Ctrl+V): shown once, in the first lab with no lesson to teach.
TIP_WAND_CODE = "wand_code"
TIP_SPECIAL_CORE = "special_core"


def lesson_tip(lesson: str) -> str:
    """The tip id of an onboarding step's lesson (shown once, like the contextual tips)."""
    return f"lesson_{lesson}"


@dataclass(frozen=True)
class Onboarding:
    """A run's onboarding: its step (None: the whole game)."""

    step: OnboardingStep | None = None

    @classmethod
    def of(cls, content: Content, number: int) -> Onboarding:
        """The limits of onboarding step `number` (0, or past the last step: none)."""
        steps = content.balance.onboarding.steps
        return cls(steps[number - 1] if 1 <= number <= len(steps) else None)

    @property
    def lab(self) -> bool:
        return self.step is None or self.step.lab

    @property
    def dash(self) -> bool:
        return self.step is None or self.step.dash

    @property
    def potions(self) -> bool:
        return self.step is None or self.step.potions

    @property
    def lesson(self) -> str | None:
        return self.step.lesson if self.step is not None else None

    @property
    def demo(self) -> tuple[str | None, ...]:
        """The cards of the lesson's range demo (none: no demo)."""
        return self.step.demo if self.step is not None else ()

    def allows_spell(self, spell: Spell) -> bool:
        """Whether the shop may offer `spell` in this run (R-ONB-1)."""
        step = self.step
        if step is None:
            return True
        if not step.lab:
            return False
        return spell.id in step.spells or (spell.family is SpellFamily.ACTION and spell.tier in step.spell_tiers)

    def allows_core(self, core: Core) -> bool:
        step = self.step
        return step is None or (step.lab and core.tier in step.core_tiers)


def new_run_step(content: Content, meta: Meta, skip: bool) -> int:
    """R-ONB-1: the onboarding step a new run takes — the player's run number (`meta.runs + 1`) while
    it has a step, else 0; 0 too when the player skips onboarding or a veteran's file says it is done."""
    if skip or meta.onboarding_done:
        return 0
    number = meta.runs + 1
    return number if number <= len(content.balance.onboarding.steps) else 0
