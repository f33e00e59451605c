"""Looks (R-FEEL-1): the schema of `data/looks.json` and its checks.

This module owns what the game's sprites are made of, as data: a shape from a
closed vocabulary (`Shape` for bodies, `ShotStyle` for shots, `ZonePattern`
for lingering areas), a colour and a colour-blind colour (0–255 triples), a
drawn size in px (4–96; a sprite may be drawn larger than its collision
radius) and a few details (eyes, outline). Every enemy kind of enemies.json
has one look; every spell that fires a projectile (an action or a trigger's
carrier) has a shot, every zone spell a zone, every summon spell a summon.
The checks across files (`check_looks`) report a missing or unknown id with
the file, the JSON path and why. The pictures themselves are drawn by
`artificer.ui.atlas`; nothing here draws.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from artificer.content.models import ContentModel, Element, Problem, did_you_mean
from artificer.content.spell_blocks import ActionKind
from artificer.content.spells import Spell

LOOKS_FILE = "looks.json"

Channel = Annotated[int, Field(ge=0, le=255)]
#: An (r, g, b) colour, each channel 0–255.
Colour = tuple[Channel, Channel, Channel]
#: A drawn size in screen px (the sprite's width).
Size = Annotated[int, Field(ge=4, le=96)]


class Shape(StrEnum):
    """The silhouettes a body is drawn with (enemies, the player, pickups, summons)."""

    CIRCLE = "circle"
    TRIANGLE = "triangle"
    SQUARE = "square"
    DIAMOND = "diamond"
    PENTAGON = "pentagon"
    HEXAGON = "hexagon"
    OCTAGON = "octagon"
    STAR = "star"  # a four-pointed star
    SPIKY = "spiky"  # a round body ringed with spikes (a mine)
    SHIELDED = "shielded"  # a body behind a bright mirror shield
    HORNED = "horned"  # a round body with two horns
    ARMORED = "armored"  # a plated square with rivets
    CELL = "cell"  # a wobbling blob with two nuclei (it splits)
    DROPLET = "droplet"  # a small teardrop
    BUG = "bug"  # a little body with wings
    GEM = "gem"  # a cut crystal
    TURRET = "turret"  # a base with a barrel
    COIL = "coil"  # a tower ringed with coils
    WIZARD = "wizard"  # the player: a robed figure with a staff's glow


class ShotStyle(StrEnum):
    """How a shot is drawn; directional styles point along the shot's flight."""

    BOLT = "bolt"  # a bright head with a short tail
    PELLET = "pellet"  # a small round drop
    ORB = "orb"  # a big glowing ball
    LANCE = "lance"  # a long thin needle
    SHARD = "shard"  # an elongated diamond
    SPARK = "spark"  # a zigzag of lightning
    WAVE = "wave"  # a crescent across the flight
    RING = "ring"  # a hollow ring (it carries a payload)
    HOSTILE = "hostile"  # an enemy's shot: spiked, dark core


#: Styles drawn pointing along the flight (the renderer picks a rotation per row).
DIRECTIONAL_STYLES = frozenset({ShotStyle.BOLT, ShotStyle.LANCE, ShotStyle.SHARD, ShotStyle.SPARK, ShotStyle.WAVE})


class ZonePattern(StrEnum):
    """How a lingering area is drawn."""

    PUDDLE = "puddle"  # a flat pool with a bright rim
    CLOUD = "cloud"  # soft overlapping puffs
    VORTEX = "vortex"  # spiral arms around a dark centre
    MIST = "mist"  # a faint disc with sparkles


class BodyLook(ContentModel):
    """A body's sprite: the player, an enemy kind, a pickup or a summon."""

    shape: Shape = Field(description="Its silhouette (see Shape).")
    colour: Colour = Field(description="Fill colour (r, g, b).")
    cb_colour: Colour = Field(description="Fill colour in the colour-blind palette (R-SET-1).")
    size: Size = Field(description="Drawn width in screen px (4–96); may exceed the collision radius.")
    outline: Colour | None = Field(default=None, description="Outline colour; default: the fill darkened.")
    eyes: int = Field(default=0, ge=0, le=3, description="Eyes drawn on it, so it reads as a creature.")


class EliteLook(ContentModel):
    """What sets an elite apart: a bigger sprite and a ring with a crown."""

    scale: float = Field(ge=1, le=2, description="Elite sprite size ÷ the kind's size.")
    ring: Colour = Field(description="Colour of the ring and crown.")
    cb_ring: Colour = Field(description="Colour of the ring and crown in the colour-blind palette.")


class HitFlash(ContentModel):
    """The tint of an enemy in the frames after a hit (balance.json sim.hit_flash_frames)."""

    colour: Colour = Field(description="The flash colour.")
    strength: float = Field(gt=0, le=1, description="How far each pixel moves toward the flash colour.")


class ElementLook(ContentModel):
    """The colour of a damage element's shots."""

    colour: Colour = Field(description="Colour (r, g, b).")
    cb_colour: Colour = Field(description="Colour in the colour-blind palette.")


class ShotLook(ContentModel):
    """A spell's shot: its style and size; its colour is its element's."""

    style: ShotStyle = Field(description="How it is drawn (see ShotStyle).")
    size: Size = Field(description="Drawn length in screen px (4–96).")


class HostileShotLook(ContentModel):
    """Every enemy's shot (archers' arrows, bolts a reflector turned): hostile at a glance."""

    style: ShotStyle = Field(description="How it is drawn (hostile: spiked with a dark core).")
    size: Size = Field(description="Drawn width in screen px (4–96).")
    colour: Colour = Field(description="Rim colour.")
    cb_colour: Colour = Field(description="Rim colour in the colour-blind palette.")
    core: Colour = Field(description="Core colour (dark, unlike the player's bright-cored shots).")


class ZoneLook(ContentModel):
    """A zone spell's lingering area; drawn at the zone's radius."""

    pattern: ZonePattern = Field(description="How it is drawn (see ZonePattern).")
    colour: Colour = Field(description="Colour (r, g, b).")
    cb_colour: Colour = Field(description="Colour in the colour-blind palette.")


class FloorLook(ContentModel):
    """The arena's floor and walls."""

    floor: Colour = Field(description="Floor colour.")
    tile: Colour = Field(description="Colour of the floor's faint tile texture.")
    grid: Colour = Field(description="Grid line colour.")
    grid_step: int = Field(ge=16, le=512, description="Grid spacing in px.")
    wall: Colour = Field(description="Wall colour.")
    wall_glow: Colour = Field(description="Colour of the wall's inner edge.")
    wall_width: int = Field(ge=2, le=64, description="Wall thickness in px, drawn outside the arena's edge.")


class Looks(ContentModel):
    """looks.json: every sprite's look, by what it shows."""

    floor: FloorLook = Field(description="The arena's floor and walls.")
    player: BodyLook = Field(description="The player.")
    enemies: dict[str, BodyLook] = Field(description="One look per enemy kind of enemies.json, by id.")
    elite: EliteLook = Field(description="What sets an elite apart.")
    hit_flash: HitFlash = Field(description="The hit flash's tint.")
    elements: dict[Element, ElementLook] = Field(description="One colour per damage element (a shot's colour).")
    shots: dict[str, ShotLook] = Field(description="One shot per spell that fires a projectile, by spell id.")
    default_shot: ShotLook = Field(description="The shot of a spell with none (never fired by shipped content).")
    enemy_shot: HostileShotLook = Field(description="Every enemy's shot.")
    crystal: BodyLook = Field(description="The mana crystal pickup.")
    summons: dict[str, BodyLook] = Field(description="One look per summon spell, by spell id.")
    zones: dict[str, ZoneLook] = Field(description="One look per zone spell, by spell id.")


def fires_projectile(spell: Spell) -> bool:
    """Whether the spell puts a projectile row into the world (a projectile action or a trigger's carrier)."""
    return spell.trigger is not None or (spell.action is not None and spell.action.kind == ActionKind.PROJECTILE)


def _of_kind(spell: Spell, kind: ActionKind) -> bool:
    return spell.action is not None and spell.action.kind == kind


def check_looks(looks: Looks, enemy_ids: Sequence[str] | None, spells: Sequence[Spell] | None) -> list[Problem]:
    """Cross-file checks: every enemy and firing spell has a look, no look names an unknown id
    (one `Problem` each). `None` for a file that did not load skips its checks."""
    problems: list[Problem] = []
    missing_elements = [element.value for element in Element if element not in looks.elements]
    if missing_elements:
        problems.append(Problem(LOOKS_FILE, "$.elements", f"no colour for element(s) {', '.join(missing_elements)}"))
    if enemy_ids is not None:
        problems.extend(_matched("enemies", looks.enemies, enemy_ids, "enemy", "enemies.json", "enemy kind"))
    if spells is not None:
        wanted: list[tuple[str, Iterable[str], list[str], str]] = [
            ("shots", looks.shots, [s.id for s in spells if fires_projectile(s)], "a spell that fires a projectile"),
            ("zones", looks.zones, [s.id for s in spells if _of_kind(s, ActionKind.ZONE)], "a zone spell"),
            ("summons", looks.summons, [s.id for s in spells if _of_kind(s, ActionKind.SUMMON)], "a summon spell"),
        ]
        every_spell = [spell.id for spell in spells]
        for section, entries, ids, what in wanted:
            problems.extend(_matched_spells(section, entries, ids, every_spell, what))
    return problems


def _matched(
    section: str, entries: Iterable[str], ids: Sequence[str], what: str, source: str, needs: str
) -> list[Problem]:
    """A missing look for each id of `ids`, an unknown id for each entry not among them."""
    entries = list(entries)
    problems = [
        Problem(LOOKS_FILE, f"$.{section}", f'no look for {what} "{item}" (every {needs} of {source} needs one)')
        for item in ids
        if item not in entries
    ]
    problems.extend(
        Problem(
            LOOKS_FILE,
            f"$.{section}.{item}",
            f'unknown {what} "{item}" (not in {source}){did_you_mean(item, list(ids))}',
        )
        for item in entries
        if item not in ids
    )
    return problems


def _matched_spells(
    section: str, entries: Iterable[str], ids: Sequence[str], every_spell: Sequence[str], what: str
) -> list[Problem]:
    entries = list(entries)
    problems = [
        Problem(LOOKS_FILE, f"$.{section}", f'no look for spell "{item}" (every {what} of spells.json needs one)')
        for item in ids
        if item not in entries
    ]
    for item in entries:
        if item not in every_spell:
            reason = f'unknown spell "{item}" (not in spells.json){did_you_mean(item, list(every_spell))}'
            problems.append(Problem(LOOKS_FILE, f"$.{section}.{item}", reason))
        elif item not in ids:
            problems.append(
                Problem(LOOKS_FILE, f"$.{section}.{item}", f'spell "{item}" is not {what}, so it never shows this look')
            )
    return problems
