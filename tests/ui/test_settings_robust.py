"""R-SAVE-1 / DESIGN errors (issue 13): no settings.json, whatever its bytes, stops the game from
launching. Each broken file of the table is put in the config dir and the game is launched —
the cases the issue names through `artificer.ui.play.play` itself (a few frames of the window
under SDL's dummy driver), the others through what it calls (`settings.load`, then the title
with the notice, drawn) to keep the suite fast: it either loads the file,
or sets it aside as settings.json.corrupt, starts with the defaults and shows a toast on the
title that names the file and the reason (the field, for a value out of range); never an
exception. (Before issue 13 a 100,000-deep file or a 5,001-digit integer raised out of `play`.)"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame
import pytest

from artificer import storage
from artificer.content import load_content
from artificer.ui import play as play_module
from artificer.ui.scene import Scene
from artificer.ui.scenes.title import TitleScene
from artificer.ui.settings import Action, Language, Settings, load, save, settings_path

CONTENT = load_content()


def raw(field: str, text: str) -> bytes:
    """A settings file whose `field` holds `text` as written (JSON that `json.dumps` would not write)."""
    return ('{"language": "ko", "' + field + '": ' + text + "}").encode("utf-8")


@dataclass(frozen=True)
class Case:
    """One settings.json: its bytes (or a function putting something at the path), and what the player sees."""

    name: str
    make: bytes | Callable[[Path], None]
    #: "aside": defaults, the file kept as settings.json.corrupt, a toast naming it and every string of `named`;
    #: "left": not a regular file (R-SAVE-2): defaults and the toast, the thing left exactly as it was;
    #: "loads": the file's settings are used (`check` says what they are), no toast.
    outcome: str
    named: tuple[str, ...] = ()
    check: Callable[[Settings], bool] | None = None


def directory(path: Path) -> None:
    (path / "inner").mkdir(parents=True)


def fifo(path: Path) -> None:
    os.mkfifo(path)


CASES = [
    Case("100000_deep", b"[" * 100_000 + b"]" * 100_000, "aside", ("nested deeper",)),
    Case("deep_in_a_field", raw("key_bindings", "[" * 40 + "]" * 40), "aside", ("nested deeper",)),
    Case("int_5001_digits", raw("fps_cap", "9" * 5001), "aside", ("fps_cap", "5001-digit")),
    Case("file_is_a_5001_digit_int", b"1" * 5001, "aside", ("(file)", "5001-digit")),
    Case("window_401_digits", raw("window_size", "[" + "9" * 401 + ", 720]"), "aside", ("window_size",)),
    Case("too_big", b'{"language": "ko"}' + b" " * storage.MAX_FILE_BYTES, "aside", ("bytes",)),
    Case("directory", directory, "left", ("directory",)),
    Case("fifo", fifo, "left", ("FIFO",)),
    Case("invalid_utf8", b'{"language": "\xc3\x28"}', "aside", ("UTF-8",)),
    Case("empty", b"", "aside", ("not JSON",)),
    Case("truncated", b'{"language": "ko", "master_vol', "aside", ("not JSON",)),
    Case("nan", raw("master_volume", "NaN"), "aside", ("NaN",)),
    Case("infinity", raw("sfx_volume", "Infinity"), "aside", ("Infinity",)),
    Case("float_overflow", raw("music_volume", "1e400"), "aside", ("music_volume",)),
    Case("duplicate_key", b'{"language": "ko", "language": "ja"}', "aside", ("language", "twice")),
    Case("volume_out_of_range", raw("master_volume", "7"), "aside", ("master_volume",)),
    Case("fps_cap_not_offered", raw("fps_cap", "61"), "aside", ("fps_cap",)),
    Case("window_not_offered", raw("window_size", "[1280, 720, 3]"), "aside", ("window_size",)),
    Case("language_unknown", b'{"language": "xx"}', "aside", ("language",)),
    Case("key_name_1000_chars", raw("key_bindings", json.dumps({"dash": "k" * 1000})), "aside", ("key_bindings.dash",)),
    Case("key_name_unknown", raw("key_bindings", json.dumps({"dash": "no such key"})), "aside", ("key_bindings",)),
    Case("key_bindings_a_list", raw("key_bindings", "[1, 2]"), "aside", ("key_bindings",)),
    Case("unknown_setting", b'{"turbo": true}', "aside", ("turbo",)),
    Case("json_array", b"[1, 2, 3]", "aside", ("(file)",)),
    Case("json_null", b"null", "aside", ("(file)",)),
    Case(
        "valid",
        b'{"language": "ko", "fps_cap": 60}',
        "loads",
        check=lambda s: s.language == Language.KO and s.fps_cap == 60,
    ),
    Case("bom_valid", b'\xef\xbb\xbf{"language": "ja"}', "loads", check=lambda s: s.language == Language.JA),
    Case(
        "older_without_new_actions",
        b'{"key_bindings": {"dash": "k"}}',
        "loads",
        check=lambda s: s.key_for(Action.DASH) == "k",
    ),
]


def put(case: Case) -> Path:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if callable(case.make):
        case.make(path)
    else:
        path.write_bytes(case.make)
    return path


def launch(monkeypatch: pytest.MonkeyPatch) -> tuple[TitleScene, Settings]:
    """`artificer play` for a few frames (the window under the dummy driver); the title it showed."""
    shown: list[Scene] = []
    first_scene = play_module.first_scene

    def recording(*args: Any, **kwargs: Any) -> Scene:
        scene = first_scene(*args, **kwargs)
        shown.append(scene)
        return scene

    monkeypatch.setattr(play_module, "first_scene", recording)
    monkeypatch.setattr(play_module, "load_content", lambda: CONTENT)
    assert play_module.play(max_frames=3) == 3  # must not raise
    title = shown[0]
    assert isinstance(title, TitleScene) and title.settings is not None
    return title, title.settings


def test_the_table_is_as_large_as_the_issue_asks() -> None:
    assert len(CASES) >= 15 and len({case.name for case in CASES}) == len(CASES)
    assert {"100000_deep", "int_5001_digits", "directory", "bom_valid"} <= {case.name for case in CASES}


#: The cases launched through the whole window (`play`); the others through what it calls.
IN_THE_WINDOW = frozenset({"100000_deep", "int_5001_digits", "directory", "bom_valid", "nan", "valid"})


def launch_lightly(surface: pygame.Surface) -> tuple[TitleScene, Settings]:
    """What `play` does before the window's loop: load the settings, and the title with the notice (drawn)."""
    loaded = load()
    notice = loaded.notice()
    title = TitleScene(on_new_run=lambda stack: None, settings=loaded.settings, notices=(notice,) if notice else ())
    title.draw(surface, 0.0)
    assert title.settings is not None
    return title, title.settings


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_r_save_1_a_broken_settings_file_never_stops_the_game(monkeypatch: pytest.MonkeyPatch, case: Case) -> None:
    path = put(case)
    before = os.lstat(path)
    if case.name in IN_THE_WINDOW:
        title, settings = launch(monkeypatch)
    else:
        pygame.init()
        try:
            title, settings = launch_lightly(pygame.display.set_mode((1280, 720)))
        finally:
            pygame.quit()
    if case.outcome == "loads":
        assert case.check is not None and case.check(settings), f"{case.name}: the file's settings were not used"
        assert not title.notices, f"{case.name}: nothing to tell, yet the title says {title.notices}"
        assert path.is_file() and not path.with_name("settings.json.corrupt").exists()
        return
    assert settings == Settings(), f"{case.name}: the defaults are not used"
    notice = next((text for text in title.notices if "settings.json" in text), None)
    assert notice is not None, f"{case.name}: the title does not say so: {title.notices}"
    for word in case.named:
        assert word in notice, f"{case.name}: the toast does not name {word!r}: {notice!r}"
    if case.outcome == "left":
        after = os.lstat(path)
        assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino), f"{case.name}: it was touched"
        assert not path.with_name("settings.json.corrupt").exists()
        return
    assert "settings.json.corrupt" in notice
    assert not path.exists(), f"{case.name}: the bad file is still in place"
    assert path.with_name("settings.json.corrupt").exists()
    assert load().problem is None, "the next launch starts clean"


def test_r_save_2_a_directory_at_the_settings_path_is_never_written_over(monkeypatch: pytest.MonkeyPatch) -> None:
    path = put(CASES[[case.name for case in CASES].index("directory")])
    loaded = load()
    assert loaded.problem is not None and loaded.kept_as is None
    with pytest.raises(storage.NotAFileError, match="a directory, not a file"):
        save(Settings(language=Language.KO))
    assert (path / "inner").is_dir() and not path.with_name("settings.json.corrupt").exists()
    path.joinpath("inner").rmdir()
    path.rmdir()  # the player takes it away: the settings save again
    save(Settings(language=Language.KO))
    assert load().settings.language == Language.KO and path.is_file()


def test_the_toast_wraps_on_the_title_and_stays_on_screen(display: pygame.Surface) -> None:
    """The notice names the file and a reason of up to 160 characters: the title wraps it, inside the window."""
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_bytes(raw("key_bindings", json.dumps({"dash": "no such key", "pause": "nor this one"})))
    notice = load().notice()
    assert notice is not None and "key_bindings" in notice
    title = TitleScene(on_new_run=lambda stack: None, notices=(notice,))
    title.draw(display, 0.0)  # must not raise; draws within the window
    assert len(notice) > 100
