"""The text catalog: lookup with format fields, English fallback, strict and lenient missing keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from artificer.ui import i18n
from artificer.ui.i18n import Catalog


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    texts = tmp_path / "i18n"
    texts.mkdir()
    (texts / "en.json").write_text(
        json.dumps({"ui.hello": "Hello", "ui.wave": "Wave {number}", "ui.only_en": "English only"}), encoding="utf-8"
    )
    (texts / "ko.json").write_text(json.dumps({"ui.hello": "안녕", "ui.wave": "웨이브 {number}"}), encoding="utf-8")
    return tmp_path


def test_tr_returns_the_text_with_format_fields_filled_in(data_dir: Path) -> None:
    catalog = Catalog("en", data_dir=data_dir)
    assert catalog.tr("ui.hello") == "Hello"
    assert catalog.tr("ui.wave", number=3) == "Wave 3"


def test_a_language_file_is_used_when_it_exists(data_dir: Path) -> None:
    catalog = Catalog("ko", data_dir=data_dir)
    assert catalog.language == "ko"
    assert catalog.tr("ui.wave", number=2) == "웨이브 2"


def test_a_language_without_a_file_falls_back_to_english(data_dir: Path) -> None:
    catalog = Catalog("ja", data_dir=data_dir)
    assert catalog.language == "en"
    assert catalog.tr("ui.hello") == "Hello"


def test_lenient_lookup_falls_back_to_english_then_to_the_key(data_dir: Path) -> None:
    catalog = Catalog("ko", data_dir=data_dir)
    assert catalog.tr("ui.only_en") == "English only"
    assert catalog.tr("ui.nowhere") == "ui.nowhere"


def test_strict_lookup_raises_for_a_key_missing_anywhere(data_dir: Path) -> None:
    with pytest.raises(KeyError):
        Catalog("en", strict=True, data_dir=data_dir).tr("ui.nowhere")


def test_strict_lookup_raises_for_a_key_missing_from_the_chosen_language(data_dir: Path) -> None:
    with pytest.raises(KeyError):
        Catalog("ko", strict=True, data_dir=data_dir).tr("ui.only_en")


def test_the_shipped_english_file_has_the_title_texts() -> None:
    catalog = Catalog("en", strict=True)
    for key in ("ui.title.game_name", "ui.title.new_run", "ui.title.settings", "ui.title.quit"):
        assert catalog.tr(key)


def test_the_module_level_tr_uses_the_active_language(data_dir: Path) -> None:
    i18n.set_language("ko", data_dir=data_dir)
    assert i18n.tr("ui.hello") == "안녕"
