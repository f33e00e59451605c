"""R-CORE-1 and R-VM-13 in the lab: a core's spells per cast on its numbers line, its always-cast
cards as fixed chips on the board's title line, and both in the cast timeline the lab shows."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pygame
from tests.scene_driving import frames

from artificer.content import DEFAULT_DATA_DIR, load_content
from artificer.game.loadout import CarriedCore, Loadout
from artificer.game.run import Run
from artificer.ui.i18n import tr
from artificer.ui.scene import SceneStack
from artificer.ui.scenes.lab import LabScene


def test_r_vm_13_the_lab_shows_always_cast_cards_and_spells_per_cast(tmp_path: Path, display: pygame.Surface) -> None:
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    cores = json.loads((data / "cores.json").read_text(encoding="utf-8"))
    starter = next(c for c in cores["cores"] if c["id"] == "starter_wand")
    starter.update(spells_per_cast=2, always_cast=["damage_plus"])
    (data / "cores.json").write_text(json.dumps(cores), encoding="utf-8")
    content = load_content(data)
    run = Run(content, 1)
    slots = len(content.core("starter_wand").layout().slots)
    run.loadout = Loadout(
        content, cores=[CarriedCore("starter_wand", ["spark_bolt"] * 3 + [None] * (slots - 3))], active="starter_wand"
    )
    stack = SceneStack()
    lab = LabScene(run, 1, on_start_wave=lambda s: None, on_back=lambda s: s.pop())
    stack.push(lab)
    frames(stack, display, 2)
    drawn = [text for text, _ in lab.drawn_labels]
    assert tr("ui.lab.always_cast") in drawn
    assert any(tr("ui.lab.spells_per_cast", count=2) in text for text in drawn), drawn
    # The timeline fires two sparks, then one and reloads (R-VM-3: the root draw does not wrap).
    fired = [len(cast["fired"]) for cast in lab.timeline["casts"]]
    assert fired == [2, 1] and [bool(c["recharge"]) for c in lab.timeline["casts"]] == [False, True]
    if os.environ.get("ARTIFICER_SHOTS"):
        pygame.image.save(display, os.path.join(os.environ["ARTIFICER_SHOTS"], "lab_always_cast.png"))
