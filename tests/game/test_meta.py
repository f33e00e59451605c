"""Meta-progression (R-META-1, R-END-2, R-END-5, R-SAVE-1): aether by wave reached, milestones paid
once, the clear rewards and their decay, the unlock tree's costs, unlocks that only widen the pool,
the shop drawing unlocked content and never locked content, `run --meta`, and meta.json's round
trip, migration, corrupt file and backup."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from artificer.engine.kinds import core_kinds
from artificer.game.meta import (
    CURSED_WAVES,
    META_FILE,
    META_VERSION,
    Meta,
    Section,
    backup_path,
    everything_unlocked,
    load_meta,
    ng_plus_clear_aether,
    run_reward,
    save_meta,
    unlock_tree,
)
from artificer.game.run import Run
from artificer.game.save import LoadedRun, load_run, save_run
from artificer.game.waves import WaveDirector
from artificer.sim.headless import run_headless
from relic_runs import CONTENT

pytestmark = pytest.mark.usefixtures("isolated_home")

SETTINGS = CONTENT.balance.meta
#: The milestone waves the content has.
WAVES = [milestone.wave for milestone in SETTINGS.milestones]
DATA = Path(__file__).parent.parent / "data"
#: A player who has paid every milestone: what a run pays by its wave alone.
VETERAN = Meta(milestones=frozenset({5, 10, 15}), first_clear_paid=True)


@pytest.mark.parametrize(("reached", "aether"), [(1, 0), (4, 0), (5, 3), (9, 3), (10, 8), (19, 8), (20, 20)])
def test_r_meta_1_a_run_pays_the_highest_wave_threshold_it_reached(reached: int, aether: int) -> None:
    assert run_reward(SETTINGS, VETERAN, reached, False, 0).total == aether


def test_r_end_5_milestones_pay_once_the_first_time_and_open_practice_there() -> None:
    first, reward = Meta().after_run(SETTINGS, 12, False, 0)
    assert [(line.kind, line.wave, line.amount) for line in reward.lines] == [
        ("wave", 10, 8),
        ("milestone", 5, 2),
        ("milestone", 10, 3),
    ]
    assert first.aether == 13 and first.practice_waves(WAVES) == [5, 10] and first.runs == 1
    second, again = first.after_run(SETTINGS, 16, False, 0)
    assert [(line.kind, line.wave) for line in again.lines] == [("wave", 10), ("milestone", 15)], "5 and 10 paid"
    assert second.aether == 13 + 8 + 4 and second.practice_waves(WAVES) == [5, 10, 15] and second.runs == 2


def test_r_end_2_the_first_clear_pays_30_once_and_ng_plus_clears_decay_to_5() -> None:
    meta = Meta(milestones=frozenset({5, 10, 15}))
    meta, reward = meta.cleared(0, 5).after_run(SETTINGS, 20, True, 0)
    assert reward.total == 20 + 30 and meta.first_clear_paid
    _, again = meta.cleared(0, 5).after_run(SETTINGS, 20, True, 0)
    assert again.total == 20, "the second NG+ 0 clear pays its wave only"
    paid = []
    for _ in range(9):
        meta, reward = meta.cleared(1, 5).after_run(SETTINGS, 20, True, 1)
        paid.append(reward.total - 20)
    assert paid == [20, 16, 13, 10, 8, 7, 5, 5, 5]
    assert ng_plus_clear_aether(SETTINGS, 1_000_000) == 5


def test_r_meta_1_the_unlock_tree_costs_what_the_rules_say_and_spends_aether() -> None:
    tree = unlock_tree(CONTENT)
    assert [(node.id, node.cost) for node in tree] == [
        ("chain_bolt", 5),
        ("matrix_board", 10),
        ("nuke", 15),
        ("persistent_memory", 30),
        (CURSED_WAVES, 50),
    ]
    assert sum(node.cost for node in tree) == 110
    meta = Meta(aether=14)
    assert meta.can_buy(tree[1]) and not meta.can_buy(tree[2])
    with pytest.raises(ValueError, match="costs 15"):
        meta.buy(tree[2])
    bought = meta.buy(tree[1])
    assert bought.aether == 4 and bought.unlocked == {"matrix_board"} and not bought.can_buy(tree[1])
    with pytest.raises(ValueError, match="already"):
        bought.buy(tree[1])
    assert Meta(unlocked=frozenset({"nuke", CURSED_WAVES})).shop_unlocks() == {"nuke"}, "a mode is not a shop item"


def test_r_meta_1_unlocks_only_widen_the_pool_never_the_starting_stats() -> None:
    locked, opened = Run(CONTENT, 7, unlocked=()), Run(CONTENT, 7, unlocked=everything_unlocked(CONTENT))
    assert np.array_equal(locked.sim.buffers.player, opened.sim.buffers.player)
    assert locked.loadout.wand() == opened.loadout.wand() and locked.currency == opened.currency
    assert locked.sim.state_hash() == opened.sim.state_hash()
    assert locked.shop.unlocked == frozenset() and opened.shop.unlocked == everything_unlocked(CONTENT)


def _offered(unlocked: frozenset[str], seeds: range) -> set[str]:
    seen: set[str] = set()
    for seed in seeds:
        run = Run(CONTENT, seed, unlocked=unlocked)
        run.currency = 1_000_000
        for wave in (8, 12, 16, 19):
            run.shop.open(wave)
            for _ in range(4):
                seen |= {o.item for shelf in run.shop.shelves.values() for o in shelf if o is not None}
                run.shop.reroll()
            run.shop.close()
    return seen


def test_r_meta_1_the_shop_offers_unlocked_content_and_never_locked_content() -> None:
    locked_ids = everything_unlocked(CONTENT)
    assert locked_ids == {"chain_bolt", "matrix_board", "nuke", "persistent_memory"}
    assert not _offered(frozenset(), range(1, 13)) & locked_ids, "nothing locked is ever offered"
    assert _offered(frozenset({"nuke"}), range(1, 13)) & locked_ids == {"nuke"}, "only what is unlocked"
    assert _offered(locked_ids, range(1, 13)) >= locked_ids, "everything unlocked is offered"


def test_r_save_1_meta_round_trips_every_field(tmp_path: Path) -> None:
    path = tmp_path / META_FILE
    meta = Meta(
        clears=3,
        ng_plus_unlocked=2,
        ng_plus_clears=1,
        first_clear_paid=True,
        runs=9,
        onboarding_done=True,
        aether=41,
        aether_earned=140,
        best_wave=20,
        milestones=frozenset({5, 10}),
        unlocked=frozenset({"nuke"}),
        codex={Section.SPELLS: frozenset({"spark_bolt"}), Section.REACTIONS: frozenset({"steam"})},
        achievements=frozenset({"first_clear"}),
        tips=frozenset({"cpu_high"}),
    )
    save_meta(meta, path)
    assert load_meta(path) == type(load_meta(path))(meta)
    assert json.loads(backup_path(path).read_text()) == json.loads(path.read_text()), "the last good copy beside it"


def test_r_save_1_a_corrupt_meta_comes_back_from_its_backup(tmp_path: Path) -> None:
    path = tmp_path / META_FILE
    good = Meta(aether=77, unlocked=frozenset({"chain_bolt"}), runs=30)
    save_meta(good, path)
    path.write_text('{"version": 2, "aether": -5}')  # one bad write
    found = load_meta(path)
    assert found.meta == good and found.notice is not None and "restored" in found.notice
    assert (tmp_path / f"{META_FILE}.corrupt").exists(), "the bad file is kept aside"
    assert load_meta(path).meta == good and load_meta(path).notice is None, "and written back"


def test_r_save_1_a_corrupt_meta_and_backup_start_over_with_a_notice(tmp_path: Path) -> None:
    path = tmp_path / META_FILE
    path.write_text("{not json")
    backup_path(path).write_text("[]")
    found = load_meta(path)
    assert found.meta == Meta() and found.notice is not None and "meta.json" in found.notice
    assert backup_path(path).read_text() == "[]", "a bad backup is left where it is"


def test_r_save_1_a_version_1_meta_migrates_keeping_clears_and_levels(tmp_path: Path) -> None:
    path = tmp_path / META_FILE
    shutil.copy(DATA / "meta_v1.json", path)
    found = load_meta(path)
    assert found.notice is None
    meta = found.meta
    assert (meta.clears, meta.ng_plus_unlocked) == (2, 2)
    assert meta.first_clear_paid and meta.onboarding_done and meta.practice_waves(WAVES) == [5, 10, 15]
    assert meta.aether == 0 and meta.unlocked == frozenset()
    save_meta(meta, path)
    assert json.loads(path.read_text())["version"] == META_VERSION


def test_r_meta_1_headless_runs_carry_a_meta_file(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    first = run_headless(CONTENT, 3, 5, meta=path)
    assert first["result"]["wave_reached"] == 5
    assert first["meta"]["aether_earned"] == 3 + 2 and first["meta"]["bought"] == ["chain_bolt"]
    assert first["meta"]["aether"] == 0 and first["meta"]["runs"] == 1 and first["meta"]["written"]
    second = run_headless(CONTENT, 4, 5, meta=path)
    assert second["meta"]["aether_earned"] == 3, "the W5 milestone is paid once"
    assert second["meta"]["bought"] == [] and second["meta"]["aether"] == 3, "saving up for matrix_board"
    assert load_meta(path).meta.unlocked == {"chain_bolt"} and load_meta(path).meta.runs == 2
    assert "meta" not in run_headless(CONTENT, 3, 1), "without --meta: no meta, everything unlocked"


def test_r_meta_1_cursed_waves_raise_every_kinds_hp_and_make_every_nth_group_elite() -> None:
    cursed = CONTENT.balance.meta.cursed_waves
    plain, harder = core_kinds(CONTENT), core_kinds(CONTENT, cursed=True)
    assert [k["hp"] * cursed.enemy_hp_multiplier for k in plain] == pytest.approx([k["hp"] for k in harder])
    wave = CONTENT.wave(5)
    as_shipped = WaveDirector(CONTENT, wave, 1)
    cursed_director = WaveDirector(CONTENT, wave, 1, cursed=True)
    elite = {order: e for _, order, _, e in cursed_director._due}
    shipped = {order: e for _, order, _, e in as_shipped._due}
    for order, group in enumerate(wave.groups):
        assert elite[order] == (group.elite or (order + 1) % cursed.elite_every == 0)
    assert sum(elite.values()) > sum(shipped.values()), "more elites than the wave ships with"


def test_r_save_1_a_run_keeps_its_modes_and_first_wave_in_its_save() -> None:
    run = Run(CONTENT, 5, cursed=True)
    run.state.practice, run.state.first_wave = True, 10
    run.currency = 800
    save_run(run, 10)
    loaded = load_run(CONTENT)
    assert isinstance(loaded, LoadedRun) and loaded.next_wave == 10
    state = loaded.run.state
    assert (state.cursed, state.practice, state.first_wave, state.currency) == (True, True, 10, 800)
    assert loaded.run.sim.mode.cursed, "the rebuilt world is cursed too"


def test_r_end_5_practice_is_offered_only_at_the_contents_milestones() -> None:
    edited = Meta(milestones=frozenset({5, 7, 10}))  # 7: a milestone no longer in the content
    assert edited.practice_waves(WAVES) == [5, 10]


def test_r_save_1_a_meta_file_that_cannot_be_read_nor_moved_is_never_written_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from artificer import storage
    from artificer.game.meta import update_meta

    path = tmp_path / META_FILE
    save_meta(Meta(aether=90), path)
    before = path.read_bytes()
    stuck = storage.Loaded(None, "meta.json could not be used (could not be read: locked)", None, "locked")
    monkeypatch.setattr(storage, "read_json_or_quarantine", lambda *args, **kwargs: stuck)
    found = load_meta(path)
    assert found.stuck and found.meta == Meta()
    update_meta(lambda meta: meta.tip_shown("cpu_high"), path)
    assert path.read_bytes() == before, "the progress it may still hold is not overwritten"


def test_r_meta_2_ids_of_removed_content_earn_no_achievement() -> None:
    from artificer.game.codex import earned

    removed = Meta(unlocked=frozenset({"old_spell", "old_core", "chain_bolt", "nuke", "matrix_board"}))
    assert "collector" not in earned(CONTENT, removed)
    ghosts = Meta().discover(Section.ENEMIES, [f"old_enemy_{n}" for n in range(20)])
    assert "bestiary" not in earned(CONTENT, ghosts)


def test_r_end_5_a_save_past_wave_1_must_be_a_practice_run() -> None:
    run = Run(CONTENT, 5)
    run.state.first_wave = 10
    with pytest.raises(ValueError, match="only a practice run begins past wave 1"):
        save_run(run, 10)


def test_r_meta_1_run_meta_refuses_what_the_file_has_not_earned(tmp_path: Path) -> None:
    import subprocess
    import sys

    def refused(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "artificer", "run", "--headless", *args], capture_output=True, text=True
        )
        assert done.returncode == 2, done.stderr
        return done.stderr

    assert "a directory" in refused("--meta", str(tmp_path))
    assert "--ng-plus 1 is not unlocked" in refused("--ng-plus", "1", "--meta", str(tmp_path / "fresh.json"))
    assert "cursed-waves mode is not unlocked" in refused("--cursed", "--meta", str(tmp_path / "fresh.json"))
    assert not (tmp_path / "fresh.json").exists()
