"""`artificer replay FILE [--check]`: what a recorded run holds, or the run played again headlessly
and checked wave by wave (`artificer.game.replay`), as the command's JSON and its text lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from artificer.content import Content
from artificer.game.records import load_records, run_figures, save_records
from artificer.game.replay import Replayed, Tape, WaveCheck, replay


def describe(tape: Tape) -> dict[str, Any]:
    """The tape's header and waves, without playing it (nor unpacking a wave's controls: a tape
    read from a file holds them packed until played, `artificer.game.replay.WaveTape`)."""
    start = tape.start
    seed = start.settings["seed"] if start.kind == "new" else (start.save or {}).get("seed")
    waves = [
        {"wave": w.wave, "frames": w.frames, "outcome": w.outcome, "hash": w.hash, "seconds": round(w.seconds, 3)}
        for w in tape.waves
    ]
    report: dict[str, Any] = {
        "file": tape.path.name if tape.path is not None else None,
        "game": tape.game,
        "content": tape.content,
        "created": tape.created,
        "seed": seed,
        "start": {"kind": start.kind, "wave": start.wave},
        "waves": waves,
        "wave_reached": tape.last_wave,
        "seconds": round(tape.seconds, 2),
        "ending": tape.ending,
    }
    ended = tape.ending or "in progress"
    report["summary"] = (
        f"seed {seed}: waves {start.wave}..{tape.last_wave or start.wave - 1} recorded "
        f"({sum(w.frames for w in tape.waves)} steps, {report['seconds']} s), {ended}; "
        f"game {tape.game}, content {tape.content}"
    )
    report["lines"] = [f"wave {w['wave']:3}: {w['frames']:6} steps, {w['outcome']}, state {w['hash']}" for w in waves]
    return report


def check(content: Content, tape: Tape, records: Path | None = None) -> dict[str, Any]:
    """The tape played again (`replay`): the description plus each wave's check, `verified`, and
    where it first diverged; verified, the endless record in `records` (endless_records.json) that
    carries it is confirmed and marked (`record`). `claim_refused`: a record carries the replay and
    the replay refuses its claim (it reaches another wave or time, the record is not a verified one,
    or the replay does not begin with the run) — the command exits 1 then, as when it diverged.
    Raises `ReplayError` (a mismatched or unplayable tape), before a frame is played."""
    report = describe(tape)
    result = replay(content, tape)
    report["verified"] = result.verified
    report["diverged"] = result.diverged
    report["checked"] = [check.as_json() for check in result.waves]
    report["replayed_wave_reached"] = result.wave_reached
    report["replayed_seconds"] = round(result.seconds, 2)
    report["lines"] = [_line(c) for c in result.waves]
    verdict = "verified: every wave's state hash matches" if result.verified else f"DIVERGED at {result.diverged}"
    report["summary"] = f"{report['summary']}\n{verdict}"
    report["claim_refused"] = False
    if result.verified and tape.path is not None and records is not None:
        report["record"], report["claim_refused"] = _confirm_record(tape, result, records)
        report["lines"].append(f"leaderboard: {report['record']['detail']}")
    return report


def _confirm_record(tape: Tape, result: Replayed, path: Path) -> tuple[dict[str, Any], bool]:
    """R-END-4 + issue 19: the endless record carrying this replay, confirmed by the run played
    again — its wave reached and its seconds, counted as the summary counts them — and marked.
    Returns the report's `record` and whether a record carries the replay and its claim is refused."""
    assert tape.path is not None
    wave, seconds = run_figures(result.run.state.waves, result.run.sim.tick_hz)
    board = load_records(path)
    carried = any(record.replay == tape.path.name for record in board.records)
    if not carried:
        record, detail = None, "no record carries it"
    elif tape.start.kind != "new":
        record, detail = None, "its record's replay does not begin with the run (a record needs the whole run)"
    else:
        record, detail = board.confirm(tape.path.name, wave, seconds)
    # "is confirmed": a record that is not verified says "…: not confirmed"
    confirmed = record is not None and record.replay_checked and detail.endswith("is confirmed")
    refused = carried and not confirmed  # (a confirmed claim whose file cannot be written is not refused)
    if confirmed:
        try:
            save_records(board, path)
        except OSError as error:
            confirmed, detail = False, f"{detail}, but {path.name} could not be written ({error.strerror or error})"

    return {
        "found": record is not None,
        "confirmed": confirmed,
        "wave": wave,
        "seconds": round(seconds, 2),
        "detail": detail,
    }, refused


def _line(check: WaveCheck) -> str:
    mark = "ok" if check.ok else "DIFFERS"
    return f"wave {check.wave:3}: {check.frames:6} steps, recorded {check.recorded}, replayed {check.replayed}  {mark}"
