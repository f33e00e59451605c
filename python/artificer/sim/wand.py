"""`artificer wand`: compile a wand and fire it in a sandbox (the lab's
training range without the range): the disassembly and diagnostics, then
cast by cast what fired, with mana before and after (R-MANA-*).

The JSON shape is a public contract (keys only ever added):
`{"core", "cards", "diagnostics": {"cpu_used", "cpu_limit", "mana_per_cast",
"fusions", "warnings", ...}, "casts": [{"t", "mana_before", "mana_after",
"abandoned", "delay", "reload", "fired": [{"spell", "damage", "element", "payload"}]}],
"dps", "timeline", "burst_dps", "sustained_dps", "dry_after_s", "spells_per_cast", "always_cast"}`
(`reload`: the cast wrapped the deck, R-VM-3/11). `dps` is
measured in the lab's training range (R-LAB-1): the wand fires for
`--seconds` (default: as long as the listed casts took, at least 5 s) at
immortal dummies in the real `world.step`, their defences applied; `range`
has the details. `timeline` is the cast timeline of R-VM-3c (the core's
`Catalog.timeline`): from the head at full mana, the casts until the deck
repeats, each with the cards it fires, its mana and its delay; `burst_dps`
is that cycle's nominal damage over its duration, `sustained_dps` the same
held down to what the core's regen pays for, `dry_after_s` how long a full
pool lasts when the wand spends faster than it regenerates (else null).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from artificer.content import Content
from artificer.engine.wand import core_data, place, spell_catalog
from artificer.game.training import TrainingRange

# Shortest training-range run behind a dps figure (s): a few mana cycles.
MIN_RANGE_SECONDS = 5.0


def fire_wand(
    content: Content,
    core_id: str,
    cards: Sequence[str | None] | dict[str, str],
    mana: float | None = None,
    casts: int = 8,
    seconds: float | None = None,
    moving: bool = False,
    seed: int = 0,
) -> dict[str, Any]:
    core = content.core(core_id)
    placed = place(core, cards)
    catalog = spell_catalog(content)
    data = core_data(core)
    diagnostics = dict(catalog.compile(data, placed))
    disassembly = diagnostics.pop("disassembly")
    sandbox = catalog.sandbox(data, placed, mana, seed)
    log: list[dict[str, Any]] = []
    t = 0.0
    while (seconds is not None and t < seconds) or (seconds is None and len(log) < casts):
        cast = dict(sandbox.cast(moving=moving))
        cast["t"] = round(t, 4)
        log.append(cast)
        delay = float(cast["delay"])
        sandbox.wait(delay)  # R-MANA-1: regeneration runs between casts
        t += delay
    report = TrainingRange(content, core_id, cards, seed).run(max(t, MIN_RANGE_SECONDS))
    timeline = dict(catalog.timeline(data, placed, moving=moving))
    return {
        "core": core_id,
        "cards": placed,
        "diagnostics": diagnostics,
        "disassembly": disassembly,
        "casts": log,
        "seconds": round(t, 4),
        "dps": round(report.dps, 3),
        "range": {
            "seconds": report.seconds,
            "damage": round(report.damage, 3),
            "hits": report.hits,
            "casts": report.casts,
            "abandoned": report.abandoned,
        },
        "timeline": timeline,
        "burst_dps": round(float(timeline["burst_dps"]), 3),
        "sustained_dps": round(float(timeline["sustained_dps"]), 3),
        "dry_after_s": None if timeline["dry_after_s"] is None else round(float(timeline["dry_after_s"]), 2),
        # R-CORE-1, R-VM-13: the core's root budget and the cards it casts with every main cast (keys added).
        "spells_per_cast": core.spells_per_cast,
        "always_cast": list(core.always_cast),
    }


def describe(report: dict[str, Any]) -> str:
    """The human-readable report."""
    d = report["diagnostics"]
    lines = [report["disassembly"].rstrip(), ""]
    lines.append(
        f"CPU {d['cpu_used']}/{d['cpu_limit']}, mana per cast {d['mana_per_cast']:.1f}, "
        f"fusions: {', '.join(d['fusions']) or 'none'}, warnings: {', '.join(d['warnings']) or 'none'}"
    )
    for i, c in enumerate(report["casts"]):
        fired = ", ".join(_tree(f) for f in c["fired"]) or ("abandoned (no mana)" if c["abandoned"] else "nothing")
        lines.append(
            f"cast {i + 1:3} t={c['t']:7.3f}s mana {c['mana_before']:7.2f} → {c['mana_after']:7.2f} "
            f"delay {c['delay']:.3f}s: {fired}" + (" (reload)" if c.get("reload") else "")
        )
    tl = report["timeline"]
    lines.append(
        f"timeline: {len(tl['casts'])} casts until the deck repeats, {tl['cycle_seconds']:.2f} s, "
        f"{tl['mana_per_cycle']:.1f} mana a cycle"
    )
    for i, c in enumerate(tl["casts"]):
        mark = " +reload" if c["recharge"] else ""
        lines.append(f"  {i + 1:2}. {', '.join(c['cards']) or '-'}: {c['mana']:.1f} mana, {c['delay']:.2f} s{mark}")
    dry = report["dry_after_s"]
    lines.append(
        f"burst {report['burst_dps']:.1f} dps, sustained {report['sustained_dps']:.1f} dps"
        + (f", runs dry after {dry:.1f} s" if dry is not None else ", never runs dry")
    )
    r = report["range"]
    lines.append(
        f"training range, {r['seconds']:.1f} s: {r['damage']:.1f} damage in {r['hits']} hits, "
        f"{r['casts']} casts ({r['abandoned']} abandoned) — {report['dps']:.2f} dps"
    )
    return "\n".join(lines)


def _tree(f: dict[str, Any]) -> str:
    text = f"{f['spell']} {f['damage']:.1f} {f['element']}"
    if f["payload"]:
        text += " {" + ", ".join(_tree(p) for p in f["payload"]) + "}"
    return text
