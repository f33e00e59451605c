"""Issue 19's replays (DESIGN §5, R-DET-1): a run's inputs recorded by `RunFlow` into a `Tape`, played
again headlessly to the same state hash at every wave's end; the file's damage, truncation and fuzz
are one-line `ReplayError`s, another content or version a `ReplayMismatch`; runs/ keeps the last 50;
a continued run goes on in its replay. (In the window, by keys: tests/ui/test_replay_window.py.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from artificer.content import load_content
from artificer.content.builds import load_builds
from artificer.engine.frame import ControlField
from artificer.game import replay as rp
from artificer.game.journal import Entry
from artificer.game.save import LoadedRun, load_run, save_run
from artificer.sim.headless import play_waves

CONTENT = load_content()
BUILDS = load_builds(CONTENT)


@pytest.fixture(scope="module")
def played() -> rp.Tape:
    """The shopping bot's spark run, waves 1..4, recorded (it buys, arranges its board, drinks)."""
    tape = play_waves(CONTENT, 2, 4, BUILDS["spark"], record=True).tape  # a seed whose wave-2 shop buys a spell
    assert tape is not None
    return tape


def reread(tape: rp.Tape) -> rp.Tape:
    return rp.Tape.from_bytes(tape.to_bytes())


def test_a_recorded_run_replays_to_the_same_hash_at_every_wave_end(played: rp.Tape) -> None:
    calls = {(e.part, e.call) for w in played.waves for e in w.before}
    assert ("shop", "buy_spell") in calls and ("loadout", "arrange") in calls, "the bot's shopping is on the tape"
    assert [w.wave for w in played.waves] == [1, 2, 3, 4] and all(w.hash for w in played.waves)
    result = rp.replay(CONTENT, reread(played))
    assert result.verified, result.diverged
    assert [c.replayed for c in result.waves] == [w.hash for w in played.waves]
    assert result.seconds == pytest.approx(played.seconds)


def test_a_changed_input_diverges_at_its_wave_and_not_before(played: rp.Tape) -> None:
    tape = reread(played)
    tape.waves[2].controls[100:400, ControlField.MOVE_X] = 1.0  # the player steered elsewhere in wave 3
    tape._packed.clear()
    result = rp.replay(CONTENT, reread(tape))
    assert not result.verified and result.diverged is not None and result.diverged.startswith("wave 3")
    assert [c.ok for c in result.waves] == [True, True, False]


def test_a_changed_shop_move_is_refused_or_diverges(played: rp.Tape) -> None:
    tape = reread(played)
    buys = [i for i, e in enumerate(tape.waves[1].before) if e.call == "buy_spell"]
    assert buys
    tape.waves[1].before.insert(buys[0], Entry("shop", "reroll"))  # a reroll the player never paid for
    tape._packed.clear()
    result = None
    try:
        result = rp.replay(CONTENT, reread(tape))
    except rp.ReplayError as error:
        assert "before wave 2" in str(error)
    if result is not None:
        assert not result.verified and result.diverged is not None and "wave 2" in result.diverged


def test_only_journaled_calls_are_made_again(played: rp.Tape) -> None:
    tape = reread(played)
    tape.waves[1].before.insert(0, Entry("shop", "open", (1,)))
    tape._packed.clear()
    with pytest.raises(rp.ReplayError, match="shop.open is not a call a replay makes"):
        rp.replay(CONTENT, reread(tape))


def test_damage_and_truncation_are_one_line_errors(played: rp.Tape) -> None:
    data = played.to_bytes()
    middle = data.index(b'"controls":"') + 40
    flipped = data[:middle] + bytes([data[middle] ^ 0x01]) + data[middle + 1 :]
    with pytest.raises(rp.ReplayError, match="damaged"):
        rp.Tape.from_bytes(flipped)
    for cut in (0, 1, len(data) // 3, len(data) - 3):
        with pytest.raises(rp.ReplayError) as caught:
            rp.Tape.from_bytes(data[:cut])
        assert "\n" not in str(caught.value)
    with pytest.raises(rp.ReplayError, match="not a replay file"):
        rp.Tape.from_bytes(json.dumps({"format": "something else"}).encode())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzzed_files_are_replay_errors_never_crashes(played: rp.Tape, data: st.DataObject) -> None:
    raw = bytearray(played.to_bytes())
    for _ in range(data.draw(st.integers(1, 8))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    try:
        rp.Tape.from_bytes(bytes(raw))
    except rp.ReplayError as error:
        assert str(error) and "\n" not in str(error)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_well_formed_file_with_nonsense_fields_is_refused_in_one_line(played: rp.Tape, data: st.DataObject) -> None:
    """A file with a valid checksum but fields a hand made up: refused, or played and found diverged."""
    doc = played.to_json()
    doc.pop("checksum")
    wave = data.draw(st.integers(0, len(doc["waves"]) - 1))
    key = data.draw(st.sampled_from(["wave", "frames", "before", "during", "digest", "hash", "seconds"]))
    value = data.draw(
        st.one_of(st.none(), st.integers(-5, 10**7), st.text(max_size=5), st.lists(st.integers(), max_size=2))
    )
    assume(value != doc["waves"][wave][key])
    doc["waves"][wave][key] = value
    doc["checksum"] = rp.hashlib.sha256(rp._canonical(doc)).hexdigest()
    try:
        tape = rp.Tape.from_bytes(json.dumps(doc).encode())
        result = rp.replay(CONTENT, tape)
    except rp.ReplayError as error:
        assert "\n" not in str(error)
    else:
        assert not result.verified


def test_other_content_or_version_says_so_in_one_line(played: rp.Tape) -> None:
    tape = reread(played)
    tape.content = "0" * 16
    with pytest.raises(rp.ReplayMismatch, match="made with other content"):
        rp.replay(CONTENT, reread(tape))
    tape = reread(played)
    tape.game = "0.0.1-old"
    with pytest.raises(rp.ReplayMismatch, match="version 0.0.1-old"):
        rp.replay(CONTENT, reread(tape))


def test_runs_keeps_the_last_50_and_never_the_one_being_recorded(tmp_path: Path) -> None:
    names = [f"2026-11-{day:02}_1200{n:02}_seed{n}.replay" for day in (1, 2) for n in range(30)]
    for name in names:
        (tmp_path / name).write_text("x")
    (tmp_path / "2026-11-01_run_1.png").write_text("not a replay")
    oldest = tmp_path / names[0]
    removed = rp.prune(tmp_path, spare=oldest)
    assert len(removed) == 9 and oldest.exists()
    left = sorted(p.name for p in tmp_path.glob("*.replay"))
    assert left == sorted([names[0], *names[10:]]) and (tmp_path / "2026-11-01_run_1.png").exists()


def test_a_continued_run_goes_on_in_its_replay(tmp_path: Path) -> None:
    """Waves 1-2 recorded, the run saved in the shop with a move made, the process gone; Continue
    loads the save, finds its replay, and goes on; the whole replay plays to the same hashes."""
    played = play_waves(CONTENT, 4, 2, BUILDS["turret"], record=True, shop_after_last=True)
    tape = played.tape
    assert tape is not None
    tape.path = rp.new_path(played.run.seed, tmp_path)
    played.run.rearm()  # a move in the shop's lab, saved with the run
    save_path = tmp_path / "run.json"
    save_run(played.run, 3, save_path)
    tape.write()
    loaded = load_run(CONTENT, save_path)
    assert isinstance(loaded, LoadedRun) and loaded.save.replay == tape.path.name
    again = rp.go_on_recording(loaded, tmp_path)
    assert again.path == tape.path and [e.call for e in again.journal.entries][-1] == "rearm"
    from artificer.game.flow import RunFlow

    flow = RunFlow.continued(loaded.run, 3)
    flow.open_shop()
    wave = flow.leave_shop()
    while not wave.over:
        loaded.run.sim.input.move(1.0, 0.0)
        flow.step()
    flow.end_wave()
    again.write()
    result = rp.replay(CONTENT, rp.read_tape(tape.path))
    assert [c.wave for c in result.waves] == [1, 2, 3] and result.verified, result.diverged


def test_a_replay_that_does_not_stand_where_the_save_does_begins_a_new_one(tmp_path: Path) -> None:
    played = play_waves(CONTENT, 6, 1, None, record=True, shop_after_last=True)
    tape = played.tape
    assert tape is not None
    tape.path = rp.new_path(6, tmp_path)
    tape.end("died")  # an ended replay is never gone on with
    tape.write()
    save_run(played.run, 2, tmp_path / "run.json")
    loaded = load_run(CONTENT, tmp_path / "run.json")
    assert isinstance(loaded, LoadedRun)
    again = rp.go_on_recording(loaded, tmp_path)
    assert again.path != tape.path and again.start.kind == "save" and again.start.wave == 2


def test_the_cli_checks_and_refuses(played: rp.Tape, tmp_path: Path) -> None:
    good = tmp_path / "good.replay"
    good.write_bytes(played.to_bytes())
    cli = [sys.executable, "-m", "artificer", "replay"]
    ran = subprocess.run([*cli, str(good), "--check", "--json"], capture_output=True, text=True, check=False)
    assert ran.returncode == 0, ran.stderr
    report = json.loads(ran.stdout)
    assert report["verified"] and [c["ok"] for c in report["checked"]] == [True] * 4
    bent = reread(played)
    bent.waves[3].controls[:, ControlField.MOVE_Y] = 1.0
    bent._packed.clear()
    (tmp_path / "bent.replay").write_bytes(bent.to_bytes())
    ran = subprocess.run([*cli, str(tmp_path / "bent.replay"), "--check"], capture_output=True, text=True, check=False)
    assert ran.returncode == 1 and "DIVERGED at wave 4" in ran.stdout
    (tmp_path / "cut.replay").write_bytes(played.to_bytes()[:500])
    ran = subprocess.run([*cli, str(tmp_path / "cut.replay")], capture_output=True, text=True, check=False)
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1 and "cut.replay" in ran.stderr
    ran = subprocess.run([*cli, str(tmp_path / "missing.replay")], capture_output=True, text=True, check=False)
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1


def test_a_potion_drunk_mid_wave_is_drunk_again_at_the_same_step() -> None:
    """R-POT-1 on the tape: a firebomb thrown at step 200 of wave 2 is thrown again there; without
    it the replay diverges in that wave. (The tape starts from the run saved after wave 1.)"""
    from artificer.game.flow import RunFlow

    run = play_waves(CONTENT, 12, 1, None, shop_after_last=True).run
    run.state.potions.add("firebomb")
    tape = rp.Tape.begin(run, 2, "cleared")
    assert tape.start.kind == "save"
    flow = RunFlow.continued(run, 2)
    flow.open_shop()
    wave = flow.leave_shop()
    while not wave.over:
        if wave.stats.frames == 200:
            run.state.potions.use(run, wave, 0, (640.0, 300.0))
        run.sim.input.move(0.0, 1.0)
        flow.step()
    flow.end_wave()
    assert [(e.call, e.frame, e.args) for e in tape.waves[0].during] == [("use", 200, (0, (640.0, 300.0)))]
    assert rp.replay(CONTENT, reread(tape)).verified
    tape.waves[0].during.clear()
    tape._packed.clear()
    result = rp.replay(CONTENT, reread(tape))
    assert not result.verified and result.diverged == "wave 2: state hash differs"


def test_replay_check_confirms_the_record_that_carries_it(played: rp.Tape, tmp_path: Path) -> None:
    """R-END-4 + issue 19: `replay --check` plays the record's replay again and marks the record
    whose wave and time it reaches (the leaderboard shows it); a record claiming more is not."""
    from artificer.game.records import RECORDS_FILE, Record, load_records, save_records
    from artificer.sim.replays import check

    tape = reread(played)
    tape.path = tmp_path / "2026-12-02_100000_seed3.replay"
    path = tmp_path / RECORDS_FILE
    board = load_records(path)
    board.add(Record(4, round(played.seconds, 2), "ab", "2026-12-02T10:00:00Z", replay=tape.path.name))
    board.add(Record(9, 30.0, "ab", "2026-12-02T10:00:00Z", replay="2026-12-02_100000_seed4.replay"))
    save_records(board, path)
    report = check(CONTENT, tape, path)
    assert report["verified"] and report["record"]["confirmed"], report["record"]
    marked = load_records(path).records
    assert [r.replay_checked for r in marked] == [True, False]
    tape.path = tmp_path / "2026-12-02_100000_seed4.replay"  # the same run, claimed as wave 9
    report = check(CONTENT, tape, path)
    assert not report["record"]["confirmed"] and "claims wave 9" in report["record"]["detail"]
    tape.path = tmp_path / "2026-12-02_100000_seed5.replay"  # a replay no record carries: nothing to say
    assert check(CONTENT, tape, path)["record"] == {
        **report["record"],
        "found": False,
        "detail": "no record carries it",
    }
