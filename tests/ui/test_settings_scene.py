"""The settings screen (R-SET-1): it renders headless at 1280×720, every change applies at once — language
(the screen re-renders in it), volumes, display mode, FPS cap, key bindings with conflicts shown —, and
the settings are saved atomically when the player leaves (R-SAVE-1)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pygame_gui
import pytest
from pygame_gui.elements import UIButton, UICheckBox, UIHorizontalSlider, UILabel

from artificer.content import load_content
from artificer.ui import i18n
from artificer.ui.app import App
from artificer.ui.controls import Controls
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.scene_registry import SCENES, SceneKit, TitleEntry
from artificer.ui.scenes.settings import SettingsScene
from artificer.ui.scenes.title import CONTINUE, QUIT
from artificer.ui.session import Session
from artificer.ui.settings import DEFAULT_BINDINGS, Action, Language, Settings, key_label, settings_path
from artificer.ui.sound import SoundBank

#: The content's tick rate (balance.json sim.tick_hz), what `artificer play` hands the app.
TICK_HZ = load_content().balance.sim.tick_hz


def test_the_settings_scene_declares_itself_on_the_title_between_continue_and_quit() -> None:
    """The title's Settings line and the window's router come from this declaration: built over the session's
    settings, sound bank and controls."""
    declared = next(declaration for declaration in SCENES.declarations() if declaration.name == "settings")
    assert declared.module == "artificer.ui.scenes.settings"
    assert declared.title == TitleEntry("ui.title.settings", order=300) and CONTINUE.order < 300 < QUIT.order
    session = Session.default()
    scene = declared.factory(SceneKit(session, load_content()))
    assert isinstance(scene, SettingsScene)
    assert scene.settings is session.settings and scene.controls is session.controls and scene.sound_bank is None


class Below(Scene):
    """Stands in for the title under the settings screen."""


@pytest.fixture
def opened(display: pygame.Surface) -> Iterator[tuple[SettingsScene, SceneStack]]:
    scene = SettingsScene(Settings())
    stack = SceneStack()
    stack.push(Below())
    stack.push(scene)
    yield scene, stack


def frames(stack: SceneStack, surface: pygame.Surface, count: int = 6) -> None:
    """What the app does per frame: events to the stack, one step, one draw (pygame-gui reacts a frame later)."""
    for _ in range(count):
        for event in pygame.event.get():
            stack.handle_event(event)
        stack.update(1 / 60)
        stack.draw(surface, 0.0)


def click(stack: SceneStack, surface: pygame.Surface, position: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=position, rel=(0, 0), buttons=(0, 0, 0)))
    frames(stack, surface, 1)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=position, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=position, button=1))
    frames(stack, surface)


def press(stack: SceneStack, code: int) -> None:
    stack.handle_event(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0))


def labels(scene: SettingsScene) -> list[str]:
    assert scene.manager is not None
    return [element.text for element in scene.manager.get_sprite_group().sprites() if isinstance(element, UILabel)]


def distinct_colours(surface: pygame.Surface) -> int:
    return len(
        {
            surface.get_at((x, y))[:3]
            for y in range(0, surface.get_height(), 4)
            for x in range(0, surface.get_width(), 4)
        }
    )


def find(scene: SettingsScene, kind: type, field: str) -> object:
    table: dict[object, object] = {
        UICheckBox: scene._checkboxes,
        UIHorizontalSlider: {slider: name for slider, (name, _) in scene._sliders.items()},
    }[kind]  # type: ignore[assignment]
    return next(element for element, name in table.items() if name == field)


# --- rendering and language ---------------------------------------------------------------


@pytest.mark.parametrize("language", [Language.EN, Language.JA])
def test_every_action_has_its_key_in_the_list_and_the_controls_fit_their_panel(
    display: pygame.Surface, language: Language
) -> None:
    """R-SET-1: the shop's, lab's and range's actions are listed with the rest, each with its label
    and bound key, and the list, the reset button and the gamepad section stay inside the panel."""
    i18n.set_language(language.value, strict=True)
    scene = SettingsScene(Settings(), path=settings_path())
    stack = SceneStack()
    stack.push(scene)
    frames(stack, display, 2)
    assert set(scene._key_buttons) == set(Action)
    texts = labels(scene)
    for action in (Action.REROLL, Action.OPEN_LAB, Action.TEST_WAND, Action.SLOW_MOTION):
        assert i18n.tr(f"ui.settings.action.{action.value}") in texts
        assert scene._key_buttons[action].text == key_label(DEFAULT_BINDINGS[action])
    panel = scene._panels[-1]
    assert all(panel.contains(button.rect) for button in scene._key_buttons.values())
    assert scene._gamepad_status is not None and scene._gamepad_status.rect.bottom <= panel.bottom
    i18n.set_language(Language.EN.value, strict=True)


def test_the_screen_renders_at_1280x720_in_english(
    opened: tuple[SettingsScene, SceneStack], display: pygame.Surface
) -> None:
    scene, stack = opened
    frames(stack, display, 3)
    pygame.image.save(display, "/tmp/settings_en.png")
    assert distinct_colours(display) > 30
    texts = labels(scene)
    for key in ("ui.settings.title", "ui.settings.language", "ui.settings.master_volume", "ui.settings.action.dash"):
        assert i18n.tr(key) in texts
    assert i18n.tr("ui.settings.aim_note") in texts  # Only auto-aim exists yet: the screen says so.


def test_choosing_a_language_rerenders_the_screen_in_it(
    opened: tuple[SettingsScene, SceneStack], display: pygame.Surface
) -> None:
    """R-I18N-1: picking 简体中文 in the drop-down switches the game's texts and the widgets' font at once."""
    scene, stack = opened
    frames(stack, display, 2)
    english = display.copy()
    menu = next(menu for menu, name in scene._dropdowns.items() if name == "language")
    click(stack, display, menu.rect.center)  # Opens the list...
    options = menu.current_state.options_selection_list  # type: ignore[union-attr]
    chinese = next(item for item in options.item_list if item["text"] == "简体中文")
    click(stack, display, chinese["button_element"].rect.center)  # ...and picks Chinese.

    assert scene.settings.language is Language.ZH_CN
    assert i18n.catalog().language == "zh_CN"
    assert i18n.tr("ui.settings.title") != "Settings"
    texts = labels(scene)
    assert i18n.tr("ui.settings.title") in texts and "Settings" not in texts
    assert i18n.tr("ui.settings.action.move_up") in texts
    assert scene.manager is not None
    font = scene.manager.get_theme().get_font_info(["label"])
    assert str(font["regular_path"]).endswith("NotoSansSC-Regular.otf")  # A face with the Han glyphs.
    frames(stack, display, 2)
    pygame.image.save(display, "/tmp/settings_zh_CN.png")
    assert pygame.image.tobytes(display, "RGB") != pygame.image.tobytes(english, "RGB")


@pytest.mark.parametrize("language", [Language.KO, Language.JA])
def test_the_screen_renders_in_korean_and_japanese(display: pygame.Surface, language: Language) -> None:
    i18n.set_language(language.value, strict=True)
    scene = SettingsScene(Settings(language=language))
    stack = SceneStack()
    stack.push(scene)
    frames(stack, display, 2)
    pygame.image.save(display, f"/tmp/settings_{language.value}.png")
    assert i18n.tr("ui.settings.title") in labels(scene)
    assert distinct_colours(display) > 30


def test_each_language_option_is_themed_with_its_own_script(opened: tuple[SettingsScene, SceneStack]) -> None:
    """Whatever the current language, 한국어 is drawn in a face that has Hangul."""
    scene, _ = opened
    assert scene.manager is not None
    theme = scene.manager.get_theme()
    assert str(theme.get_font_info(["#lang_ko"])["regular_path"]).endswith("NotoSansKR-Regular.ttf")
    assert str(theme.get_font_info(["#lang_ja"])["regular_path"]).endswith("NotoSansJP-Regular.otf")


def test_the_screen_renders_at_a_small_and_a_large_window(display: pygame.Surface) -> None:
    for size in ((1024, 576), (1920, 1080)):
        surface = pygame.display.set_mode(size)
        scene = SettingsScene(Settings())
        stack = SceneStack()
        stack.push(scene)
        frames(stack, surface, 2)
        assert distinct_colours(surface) > 30


# --- changes apply at once ----------------------------------------------------------------


def test_the_volume_sliders_reach_the_sound_bank(display: pygame.Surface) -> None:
    settings = Settings(master_volume=1.0, sfx_volume=0.8)
    bank = SoundBank(settings)
    scene = SettingsScene(settings, sound_bank=bank)
    stack = SceneStack()
    stack.push(scene)
    frames(stack, display, 2)
    slider = find(scene, UIHorizontalSlider, "sfx_volume")
    assert isinstance(slider, UIHorizontalSlider) and slider.right_button is not None
    click(stack, display, slider.right_button.rect.center)  # One step (5 %) up.
    assert settings.sfx_volume == pytest.approx(0.85)
    assert bank.volume == pytest.approx(0.85)
    scene.set_value("master_volume", 0.5)
    assert bank.volume == pytest.approx(0.425)
    assert bank.sounds("hit")[0].get_volume() == pytest.approx(0.425, abs=0.01)


def test_the_music_slider_reaches_the_music_channel(display: pygame.Surface) -> None:
    """R-SET-1, R-FEEL-1: moving the Music slider changes the playing track's volume (master × music) at once."""
    from artificer.ui.music import MusicPlayer

    settings = Settings(master_volume=1.0, music_volume=0.6)
    music = MusicPlayer(settings, background=False)
    stack = SceneStack()
    stack.watch(music.follow)

    class Title(Below):
        music = "title"

    stack.push(Title())
    scene = SettingsScene(settings)
    stack.push(scene)
    assert music.playing == "title"  # The settings screen keeps the title's music.
    frames(stack, display, 2)
    slider = find(scene, UIHorizontalSlider, "music_volume")
    assert isinstance(slider, UIHorizontalSlider) and slider.left_button is not None
    click(stack, display, slider.left_button.rect.center)  # One step (5 %) down.
    music.update()  # What the app does every frame.
    sound = music.sound("title")
    assert sound is not None
    assert settings.music_volume == pytest.approx(0.55)
    assert sound.get_volume() == pytest.approx(0.55, abs=0.01)
    scene.set_value("music_volume", 0.0)
    music.update()
    assert sound.get_volume() == 0.0
    music.stop()


def test_a_checkbox_click_changes_the_setting(
    opened: tuple[SettingsScene, SceneStack], display: pygame.Surface
) -> None:
    scene, stack = opened
    frames(stack, display, 2)
    box = find(scene, UICheckBox, "damage_numbers")
    assert isinstance(box, UICheckBox)
    click(stack, display, box.rect.center)
    assert scene.settings.damage_numbers is False


def test_a_new_window_size_reopens_the_window_and_relays_the_screen(display: pygame.Surface) -> None:
    scene = SettingsScene(Settings())
    stack = SceneStack()
    stack.push(scene)
    scene.set_value("window_size", (1600, 900))
    window = pygame.display.get_surface()
    assert window is not None and window.get_size() == (1600, 900)
    assert scene.manager is not None and scene.manager.window_resolution == (1600, 900)
    scene.set_value("fullscreen", True)
    assert pygame.display.is_fullscreen()
    scene.set_value("fullscreen", False)
    assert not pygame.display.is_fullscreen()


def test_the_fps_cap_applies_to_the_running_app(display: pygame.Surface) -> None:
    settings = Settings()
    app = App(lambda: SettingsScene(settings), tick_hz=TICK_HZ, settings=settings)
    app.run(max_frames=1)
    top = app.stack.top
    assert isinstance(top, SettingsScene)
    top.set_value("fps_cap", 60)
    assert app.fps_cap == 60


# --- key rebinding ------------------------------------------------------------------------------


def rebind(stack: SceneStack, scene: SettingsScene, surface: pygame.Surface, action: Action, code: int) -> None:
    click(stack, surface, scene._key_buttons[action].rect.center)
    assert scene.listening is action
    press(stack, code)


def test_click_an_action_then_press_a_key_to_rebind_it(
    opened: tuple[SettingsScene, SceneStack], display: pygame.Surface
) -> None:
    scene, stack = opened
    frames(stack, display, 2)
    click(stack, display, scene._key_buttons[Action.DASH].rect.center)
    assert scene._key_buttons[Action.DASH].text == i18n.tr("ui.settings.press_key")
    assert scene.status_text() == i18n.tr("ui.settings.listening", action=i18n.tr("ui.settings.action.dash"))
    press(stack, pygame.K_LSHIFT)
    assert scene.listening is None
    assert scene.settings.key_for(Action.DASH) == "left shift"
    assert scene._key_buttons[Action.DASH].text == "Left Shift"
    assert isinstance(stack.top, SettingsScene)  # The key went to the binding, not to the screen.


def test_a_conflict_is_marked_on_both_keys_and_named(
    opened: tuple[SettingsScene, SceneStack], display: pygame.Surface
) -> None:
    scene, stack = opened
    frames(stack, display, 2)
    rebind(stack, scene, display, Action.DASH, pygame.K_w)
    assert scene.settings.conflicting_actions() == {Action.MOVE_UP, Action.DASH}
    for action in (Action.MOVE_UP, Action.DASH):
        assert scene._key_buttons[action].object_ids[-1] == "#key_conflict"  # type: ignore[index]
    assert scene._key_buttons[Action.MOVE_DOWN].object_ids[-1] != "#key_conflict"  # type: ignore[index]
    status = scene.status_text()
    assert (
        "W" in status
        and i18n.tr("ui.settings.action.move_up") in status
        and i18n.tr("ui.settings.action.dash") in status
    )
    frames(stack, display, 2)
    pygame.image.save(display, "/tmp/settings_conflict.png")


def test_escape_cancels_a_rebinding_but_binds_pause(
    opened: tuple[SettingsScene, SceneStack], display: pygame.Surface
) -> None:
    scene, stack = opened
    frames(stack, display, 2)
    rebind(stack, scene, display, Action.DASH, pygame.K_ESCAPE)
    assert scene.settings.key_for(Action.DASH) == "space" and scene.listening is None
    assert isinstance(stack.top, SettingsScene)  # Esc ended the wait, not the screen.
    rebind(stack, scene, display, Action.PAUSE, pygame.K_p)
    rebind(stack, scene, display, Action.PAUSE, pygame.K_ESCAPE)
    assert scene.settings.key_for(Action.PAUSE) == "escape"


def test_reset_keys_restores_the_defaults(opened: tuple[SettingsScene, SceneStack], display: pygame.Surface) -> None:
    scene, stack = opened
    frames(stack, display, 2)
    rebind(stack, scene, display, Action.DASH, pygame.K_w)
    reset = next(
        button
        for button in scene._buttons
        if isinstance(button, UIButton) and button.text == i18n.tr("ui.settings.reset_keys")
    )
    click(stack, display, reset.rect.center)
    assert scene.settings.key_bindings == DEFAULT_BINDINGS
    assert scene.status_text() == ""
    assert scene._key_buttons[Action.DASH].text == key_label("space")


def test_reset_all_restores_every_setting(opened: tuple[SettingsScene, SceneStack]) -> None:
    scene, _ = opened
    scene.set_value("colour_blind", True)
    scene.set_value("music_volume", 0.1)
    scene.reset_all()
    assert scene.settings == Settings()


# --- leaving saves ----------------------------------------------------------------------------


def saved() -> dict[str, object]:
    data = json.loads(settings_path().read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_escape_leaves_and_saves_atomically(opened: tuple[SettingsScene, SceneStack], display: pygame.Surface) -> None:
    """R-SAVE-1: settings.json holds the changes, and no temporary file is left beside it."""
    scene, stack = opened
    frames(stack, display, 2)
    scene.set_value("screen_shake", 0.3)
    rebind(stack, scene, display, Action.POTION_1, pygame.K_q)
    assert not settings_path().exists()  # Nothing is written while the screen is open...
    press(stack, pygame.K_ESCAPE)
    assert isinstance(stack.top, Below)  # ...Esc leaves...
    assert saved()["screen_shake"] == 0.3  # ...and the file has the changes.
    assert saved()["key_bindings"]["potion_1"] == "q"  # type: ignore[index]
    assert [p.name for p in settings_path().parent.iterdir()] == ["settings.json"]


def test_the_back_button_and_a_gamepads_b_leave_too(display: pygame.Surface) -> None:
    settings = Settings()
    leave_by: list[Callable[[SettingsScene, SceneStack], None]] = [
        lambda scene, stack: click(
            stack, display, next(b for b in scene._buttons if b.text == i18n.tr("ui.settings.back")).rect.center
        ),
        lambda scene, stack: stack.handle_event(
            pygame.event.Event(pygame.CONTROLLERBUTTONDOWN, instance_id=1, button=pygame.CONTROLLER_BUTTON_B)
        ),
    ]
    for leave in leave_by:
        scene = SettingsScene(settings, controls=Controls(settings))
        stack = SceneStack()
        stack.push(Below())
        stack.push(scene)
        frames(stack, display, 2)
        leave(scene, stack)
        assert isinstance(stack.top, Below) and scene.saved


def test_closing_the_window_on_the_settings_screen_saves_them(display: pygame.Surface) -> None:
    settings = Settings()
    settings.bind(Action.DASH, "e")
    app = App(lambda: SettingsScene(settings), tick_hz=TICK_HZ)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run(max_frames=50)
    assert saved()["key_bindings"]["dash"] == "e"  # type: ignore[index]


def test_a_save_that_fails_does_not_crash_the_game(
    opened: tuple[SettingsScene, SceneStack], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    scene, stack = opened
    blocker = tmp_path / "not_a_dir"
    blocker.write_text("", encoding="utf-8")
    scene.path = blocker / "settings.json"  # Its parent is a file: the write fails.
    stack.pop()
    assert not scene.saved


def test_ui_events_of_other_managers_are_ignored(opened: tuple[SettingsScene, SceneStack]) -> None:
    scene, stack = opened
    stray = pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=object())
    assert stack.handle_event(stray) is None
    assert stack.top is scene
