"""`artificer wand`: compile a wand and fire it in a sandbox (the lab's
training range without the range): the disassembly and diagnostics, then
cast by cast what fired, with mana before and after (R-MANA-*).

The JSON shape is a public contract (keys only ever added):
`{"core", "cards", "diagnostics": {"cpu_used", "cpu_limit", "mana_per_cast",
"fusions", "warnings", ...}, "casts": [{"t", "mana_before", "mana_after",
"abandoned", "delay", "fired": [{"spell", "damage", "element", "payload"}]}],
"dps"}`. `dps` is the damage per second of everything fired (payloads
included) if every shot hits a dummy with no defences; dummies that take
the hits come with the lab's training range.
"""

from __future__ import annotations

from typing import Any, Sequence

from artificer.content import Content
from artificer.engine.wand import core_data, place, spell_catalog


def _damage(fired: list[dict[str, Any]]) -> float:
    return sum(float(f["damage"]) + _damage(f["payload"]) for f in fired)


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
    damage = sum(_damage(c["fired"]) for c in log)
    return {
        "core": core_id,
        "cards": placed,
        "diagnostics": diagnostics,
        "disassembly": disassembly,
        "casts": log,
        "seconds": round(t, 4),
        "dps": round(damage / t, 3) if t > 0 else 0.0,
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
            f"delay {c['delay']:.3f}s: {fired}"
        )
    lines.append(f"dps if every shot hits: {report['dps']:.2f}")
    return "\n".join(lines)


def _tree(f: dict[str, Any]) -> str:
    text = f"{f['spell']} {f['damage']:.1f} {f['element']}"
    if f["payload"]:
        text += " {" + ", ".join(_tree(p) for p in f["payload"]) + "}"
    return text
