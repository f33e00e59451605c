"""The player's settings (R-SET-1) and their file (R-SAVE-1): defaults, validation, a save/load round trip,
atomic writes, a corrupt or invalid file kept aside with a notice, key conflicts, resets, the colour-blind palette."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pygame
import pytest
from pydantic import ValidationError

from artificer import storage
from artificer.ui import i18n
from artificer.ui.palette import COLOUR_BLIND, NEUTRAL, OKABE_ITO
from artificer.ui.settings import (
    CONTEXT_ACTIONS,
    DEFAULT_BINDINGS,
    FPS_CAPS,
    RESOLUTIONS,
    Action,
    AimMode,
    Language,
    Settings,
    key_code,
    key_label,
    load,
    save,
    settings_path,
)


@pytest.fixture
def path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """settings.json under a throwaway ARTIFICER_HOME (never the player's real config dir)."""
    monkeypatch.setenv(storage.HOME_ENV, str(tmp_path / "home"))
    return settings_path()


def changed_settings() -> Settings:
    settings = Settings(
        language=Language.KO,
        master_volume=0.5,
        music_volume=0.25,
        sfx_volume=1.0,
        fullscreen=True,
        window_size=(1920, 1080),
        vsync=False,
        fps_cap=144,
        gamepad=False,
        aim_mode=AimMode.MOUSE,
        screen_shake=0.0,
        colour_blind=True,
        damage_numbers=False,
    )
    settings.bind(Action.DASH, "left shift")
    return settings


# --- defaults and validation -----------------------------------------------------------


def test_the_defaults_cover_every_setting_of_r_set_1() -> None:
    settings = Settings()
    assert settings.language is Language.EN
    assert 0 < settings.sfx_volume <= 1 and 0 < settings.master_volume <= 1 and 0 < settings.music_volume <= 1
    assert settings.window_size == RESOLUTIONS[0] == (1280, 720) and not settings.fullscreen
    assert settings.vsync and settings.fps_cap in FPS_CAPS
    assert settings.gamepad and settings.aim_mode is AimMode.AUTO
    assert settings.screen_shake == 1.0 and not settings.colour_blind and settings.damage_numbers
    assert set(settings.key_bindings) == set(Action)


def test_the_default_keys_are_wasd_space_escape_enter_and_the_digits() -> None:
    assert [DEFAULT_BINDINGS[action] for action in (Action.MOVE_UP, Action.MOVE_LEFT, Action.MOVE_DOWN, Action.MOVE_RIGHT)] == [
        "w", "a", "s", "d"
    ]  # fmt: skip
    assert DEFAULT_BINDINGS[Action.DASH] == "space"
    assert DEFAULT_BINDINGS[Action.PAUSE] == DEFAULT_BINDINGS[Action.BACK] == "escape"
    assert DEFAULT_BINDINGS[Action.CONFIRM] == "return"
    assert [DEFAULT_BINDINGS[Action(f"potion_{n}")] for n in range(1, 6)] == ["1", "2", "3", "4", "5"]
    assert all(key_code(name) is not None for name in DEFAULT_BINDINGS.values())


def test_the_default_keys_have_no_conflict() -> None:
    """Pause and back share Esc, but a run reads pause and a menu reads back: no context reads both."""
    assert Settings().conflicts() == {}
    assert all(not {Action.PAUSE, Action.BACK} <= actions for actions in CONTEXT_ACTIONS.values())


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("master_volume", 1.5),
        ("sfx_volume", -0.1),
        ("screen_shake", 2.0),
        ("window_size", (1000, 700)),
        ("fps_cap", 75),
        ("language", "fr"),
        ("aim_mode", "joystick"),
    ],
)
def test_an_out_of_range_value_is_refused_and_the_old_one_kept(field: str, value: object) -> None:
    settings = Settings()
    before = getattr(settings, field)
    with pytest.raises(ValidationError):
        setattr(settings, field, value)
    assert getattr(settings, field) == before


def test_binding_an_unknown_key_name_is_refused() -> None:
    settings = Settings()
    with pytest.raises(ValidationError):
        settings.bind(Action.DASH, "hyperspace")
    assert settings.key_for(Action.DASH) == "space"


def test_key_names_map_to_pygame_key_codes_and_read_well() -> None:
    assert key_code("space") == pygame.K_SPACE
    assert key_code("left shift") == pygame.K_LSHIFT
    assert key_code("w") == pygame.K_w
    assert key_code("ö") == ord("ö")  # A layout's own letter is its code point, as in SDL.
    assert key_code("no such key") is None
    assert (key_label("w"), key_label("space"), key_label("left shift")) == ("W", "Space", "Left Shift")


# --- the file -----------------------------------------------------------------------------


def test_no_file_gives_the_defaults_and_no_notice(path: Path) -> None:
    loaded = load()
    assert loaded.settings == Settings()
    assert loaded.problem is None and loaded.notice() is None


def test_settings_survive_a_save_and_a_load(path: Path) -> None:
    """R-SET-1 / R-SAVE-1: what the player set is what the next launch starts with."""
    settings = changed_settings()
    save(settings)
    assert path.is_file()
    loaded = load()
    assert loaded.problem is None
    assert loaded.settings == settings
    assert loaded.settings.key_for(Action.DASH) == "left shift"


def test_the_file_is_readable_json_with_key_names(path: Path) -> None:
    save(changed_settings())
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["language"] == "ko"
    assert data["window_size"] == [1920, 1080]
    assert data["key_bindings"]["dash"] == "left shift"
    assert data["key_bindings"]["pause"] == "escape"


def test_saving_leaves_no_temporary_files(path: Path) -> None:
    """R-SAVE-1: writes are atomic (a temp file renamed over the target), and nothing is left behind."""
    save(Settings())
    save(changed_settings())
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]


def test_a_failed_save_keeps_the_old_file_whole_and_leaves_no_temporary_file(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save(Settings())
    before = path.read_bytes()

    def crash(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        save(changed_settings())
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]


def test_a_corrupt_file_is_kept_aside_the_defaults_are_used_and_the_player_is_told(path: Path) -> None:
    """R-SAVE-1: a corrupt settings.json becomes settings.json.corrupt; the game starts with defaults and says so."""
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"language": "ko", "master_vol')
    loaded = load()
    assert loaded.settings == Settings()
    assert not path.exists()
    assert path.with_name("settings.json.corrupt").read_bytes() == b'{"language": "ko", "master_vol'
    notice = loaded.notice()
    assert notice is not None and "settings.json.corrupt" in notice
    assert notice == i18n.tr("ui.settings.load_problem", file="settings.json.corrupt", reason=loaded.reason)
    assert "not JSON" in notice, "the player is told why (R-SAVE-1, issue 13)"


def test_a_file_with_an_invalid_value_is_quarantined_too(path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"master_volume": 7, "fps_cap": 60}), encoding="utf-8")
    loaded = load()
    assert loaded.settings == Settings()
    assert loaded.problem is not None and "master_volume" in loaded.problem
    assert path.with_name("settings.json.corrupt").is_file() and not path.exists()
    assert loaded.notice() is not None


def test_a_file_that_is_not_an_object_or_has_an_unknown_setting_is_quarantined(path: Path) -> None:
    for content in ("[1, 2, 3]", json.dumps({"turbo": True})):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
        loaded = load()
        assert loaded.settings == Settings() and loaded.problem is not None
        assert path.with_name("settings.json.corrupt").read_text(encoding="utf-8") == content


def test_the_notice_follows_the_language(path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_text("not json", encoding="utf-8")
    loaded = load()
    english = loaded.notice()
    i18n.set_language("ja", strict=True)
    japanese = loaded.notice()
    assert japanese is not None and japanese != english and "settings.json.corrupt" in japanese


def test_an_older_file_without_the_newer_actions_keeps_its_keys_and_gets_the_new_defaults(path: Path) -> None:
    path.parent.mkdir(parents=True)
    bindings = {"move_up": "i", "move_down": "k", "move_left": "j", "move_right": "l", "dash": "space"}
    path.write_text(json.dumps({"key_bindings": bindings}), encoding="utf-8")
    loaded = load()
    assert loaded.problem is None
    assert loaded.settings.key_for(Action.MOVE_UP) == "i"
    assert loaded.settings.key_for(Action.POTION_3) == DEFAULT_BINDINGS[Action.POTION_3]


# --- key conflicts and resets -------------------------------------------------------------


def test_two_actions_on_one_key_in_a_run_are_a_conflict() -> None:
    settings = Settings()
    settings.bind(Action.DASH, "w")
    assert settings.conflicts() == {"w": frozenset({Action.MOVE_UP, Action.DASH})}
    assert settings.conflicting_actions() == {Action.MOVE_UP, Action.DASH}


def test_two_actions_on_one_key_in_a_menu_are_a_conflict() -> None:
    settings = Settings()
    settings.bind(Action.BACK, "a")
    assert settings.conflicts() == {"a": frozenset({Action.MOVE_LEFT, Action.BACK})}


def test_back_on_the_ranges_slow_motion_key_is_a_conflict_there_and_in_menus() -> None:
    """S moves down in menus and slows the training range: back on S clashes with both."""
    settings = Settings()
    settings.bind(Action.BACK, "s")
    assert settings.conflicts() == {"s": frozenset({Action.MOVE_DOWN, Action.BACK, Action.SLOW_MOTION})}


def test_the_shops_keys_clash_with_each_other_but_not_with_the_runs() -> None:
    """Reroll on L clashes with the shop's lab key; the shop's keys may share a run's (R is no run key)."""
    settings = Settings()
    settings.bind(Action.REROLL, "l")
    assert settings.conflicts() == {"l": frozenset({Action.REROLL, Action.OPEN_LAB})}
    settings.reset_bindings()
    settings.bind(Action.REROLL, "w")  # the shop reads no movement: its focus moves with the arrows and Tab
    assert settings.conflicts() == {}


def test_actions_never_read_together_may_share_a_key() -> None:
    """Confirm (menus) on Space does not clash with dash (runs)."""
    settings = Settings()
    settings.bind(Action.CONFIRM, "space")
    assert settings.conflicts() == {}


def test_rebinding_frees_the_old_key() -> None:
    settings = Settings()
    settings.bind(Action.DASH, "w")
    settings.bind(Action.MOVE_UP, "up")
    assert settings.conflicts() == {}


def test_reset_bindings_puts_every_action_back_on_its_default_key() -> None:
    settings = Settings()
    settings.bind(Action.DASH, "w")
    settings.bind(Action.POTION_1, "q")
    settings.master_volume = 0.1
    settings.reset_bindings()
    assert settings.key_bindings == DEFAULT_BINDINGS
    assert settings.master_volume == 0.1  # Only the keys.


def test_reset_puts_every_setting_back_in_place() -> None:
    settings = changed_settings()
    shared = settings
    settings.reset()
    assert shared is settings and settings == Settings()


def test_effective_volumes_are_master_times_the_channel() -> None:
    settings = Settings(master_volume=0.5, sfx_volume=0.8, music_volume=0.4)
    assert settings.effective_sfx_volume == pytest.approx(0.4)
    assert settings.effective_music_volume == pytest.approx(0.2)


# --- the colour-blind palette ----------------------------------------------------------------


def test_the_colour_blind_palette_is_okabe_ito_with_a_distinct_colour_per_element() -> None:
    allowed = set(OKABE_ITO.values()) | {NEUTRAL}
    elements = dict(COLOUR_BLIND.elements)
    assert set(elements) == {"physical", "fire", "ice", "lightning", "poison", "water"}
    assert len(set(elements.values())) == len(elements)
    for table in (COLOUR_BLIND.elements, COLOUR_BLIND.enemies, COLOUR_BLIND.roles):
        assert set(table.values()) <= allowed
    assert COLOUR_BLIND.role("hp") != COLOUR_BLIND.role("mana")
    assert COLOUR_BLIND.element("unknown") == NEUTRAL
