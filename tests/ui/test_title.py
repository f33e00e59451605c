"""TitleScene: renders headless (in CJK too), keyboard, mouse and gamepad drive the menu, New run and Continue
call back, Settings opens the settings screen (through the router), a notice shows as a toast, Quit/Esc end the
app. The menu's middle lines are the declared scenes' (Settings first), so the tests reach Quit by Down until the
menu stops rather than by counting its lines."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from artificer.content import load_content
from artificer.ui import i18n
from artificer.ui.app import App
from artificer.ui.controls import Controls
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.scene_registry import SCENES
from artificer.ui.scenes.settings import SettingsScene
from artificer.ui.scenes.title import NOTICE_SECONDS, QuitConfirm, TitleScene, run_save_path
from artificer.ui.settings import Action, Settings, settings_path

#: The content's tick rate (balance.json sim.tick_hz), what `artificer play` hands the app.
TICK_HZ = load_content().balance.sim.tick_hz


def key(code: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0)


def distinct_colours(surface: pygame.Surface) -> int:
    # Sample every 4th pixel: enough to tell a drawn screen from a blank one, cheap at 1280×720.
    return len(
        {
            surface.get_at((x, y))[:3]
            for y in range(0, surface.get_height(), 4)
            for x in range(0, surface.get_width(), 4)
        }
    )


class Arena(Scene):
    """Stands in for the scene a new run opens."""


def to_the_last_line() -> tuple[int, ...]:
    """Down as many times as the menu has lines: onto Quit from anywhere (the menu does not wrap)."""
    return (pygame.K_DOWN,) * len(TitleScene().items)


def title_on_stack(calls: list[SceneStack]) -> tuple[TitleScene, SceneStack]:
    stack = SceneStack()
    title = TitleScene(on_new_run=calls.append)
    stack.push(title)
    return title, stack


def test_the_title_renders_under_the_dummy_driver_and_is_not_blank(display: pygame.Surface, tmp_path: Path) -> None:
    title, stack = title_on_stack([])
    for _ in range(120):
        stack.update(1 / 60)
    stack.draw(display, 0.5)
    screenshot = tmp_path / "title.png"
    pygame.image.save(display, str(screenshot))
    assert screenshot.stat().st_size > 0
    assert distinct_colours(pygame.image.load(str(screenshot))) > 50


def test_the_title_renders_at_a_small_window_size(display: pygame.Surface) -> None:
    small = pygame.Surface((640, 360))
    title, stack = title_on_stack([])
    stack.draw(small, 0.0)
    assert distinct_colours(small) > 20


def test_new_run_is_selected_first_and_enter_calls_the_callback_with_the_stack(display: pygame.Surface) -> None:
    calls: list[SceneStack] = []
    title, stack = title_on_stack(calls)
    stack.handle_event(key(pygame.K_RETURN))
    assert calls == [stack]


def test_the_menu_is_new_run_continue_settings_quit(display: pygame.Surface) -> None:
    """New run, Continue, the declared scenes' lines by their order — before a first run has ended
    (R-ONB-1) only Settings —, Quit."""
    title, _ = title_on_stack([])
    declared = [
        declaration.title.key
        for declaration in SCENES.title_entries()
        if declaration.title is not None and not declaration.title.needs_a_finished_run
    ]
    assert declared == ["ui.title.settings"]
    assert [item.key for item in title.items] == ["ui.title.new_run", "ui.title.continue", *declared, "ui.title.quit"]


def test_down_skips_the_greyed_continue_and_up_comes_back_to_new_run(display: pygame.Surface) -> None:
    calls: list[SceneStack] = []
    title, stack = title_on_stack(calls)
    stack.handle_event(key(pygame.K_DOWN))
    assert title.items[title.selected].key == "ui.title.settings"
    stack.handle_event(key(pygame.K_UP))
    assert title.items[title.selected].key == "ui.title.new_run"
    stack.handle_event(key(pygame.K_RETURN))
    assert calls == [stack]


def test_the_menu_does_not_wrap_onto_quit(display: pygame.Surface) -> None:
    """Issue 12: Up on the first item stays there (it used to wrap onto Quit); Down on the last stays too."""
    title, stack = title_on_stack([])
    assert stack.handle_event(key(pygame.K_UP)) is None  # The menu consumes its keys.
    assert title.items[title.selected].key == "ui.title.new_run"
    for _ in range(6):
        stack.handle_event(key(pygame.K_DOWN))
    assert title.items[title.selected].key == "ui.title.quit"
    stack.handle_event(key(pygame.K_DOWN))
    assert title.items[title.selected].key == "ui.title.quit"


def test_the_new_run_callback_can_push_the_next_scene(display: pygame.Surface) -> None:
    arena = Arena()
    stack = SceneStack()
    stack.push(TitleScene(on_new_run=lambda s: s.push(arena)))
    stack.handle_event(key(pygame.K_RETURN))
    assert stack.top is arena


def test_without_a_callback_new_run_is_greyed_and_settings_is_selected(display: pygame.Surface) -> None:
    title = TitleScene()
    assert not title.items[0].enabled
    assert title.items[title.selected].key == "ui.title.settings"


def test_clicking_new_run_calls_the_callback(display: pygame.Surface) -> None:
    calls: list[SceneStack] = []
    title, stack = title_on_stack(calls)
    stack.draw(display, 0.0)  # Lays the menu out.
    new_run = title.items.index(next(item for item in title.items if item.key == "ui.title.new_run"))
    centre = title._item_rects[new_run].center
    stack.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=centre))
    assert calls == [stack]


def test_hovering_selects_an_enabled_item_but_not_a_greyed_one(display: pygame.Surface) -> None:
    title, stack = title_on_stack([])
    stack.draw(display, 0.0)
    keys = [item.key for item in title.items]
    greyed, quit_ = keys.index("ui.title.continue"), keys.index("ui.title.quit")
    stack.handle_event(
        pygame.event.Event(pygame.MOUSEMOTION, pos=title._item_rects[quit_].center, rel=(0, 0), buttons=(0, 0, 0))
    )
    assert title.selected == quit_
    stack.handle_event(
        pygame.event.Event(pygame.MOUSEMOTION, pos=title._item_rects[greyed].center, rel=(0, 0), buttons=(0, 0, 0))
    )
    assert title.selected == quit_


def test_other_keys_are_left_unhandled(display: pygame.Surface) -> None:
    title, stack = title_on_stack([])
    event = key(pygame.K_F5)
    assert stack.handle_event(event) is event


def test_escape_ends_the_app(display: pygame.Surface) -> None:
    app = App(lambda: TitleScene(on_new_run=lambda stack: None), tick_hz=TICK_HZ)
    pygame.event.post(key(pygame.K_ESCAPE))
    frames = app.run(max_frames=1000)
    assert app.stack.empty
    assert frames < 1000


def test_choosing_quit_ends_the_app(display: pygame.Surface) -> None:
    app = App(lambda: TitleScene(on_new_run=lambda stack: None), tick_hz=TICK_HZ)
    for code in (*to_the_last_line(), pygame.K_RETURN):
        pygame.event.post(key(code))
    frames = app.run(max_frames=1000)
    assert app.stack.empty
    assert frames < 1000


def test_new_run_through_the_app_pushes_the_next_scene(display: pygame.Surface) -> None:
    arena = Arena()
    app = App(lambda: TitleScene(on_new_run=lambda stack: stack.push(arena)), tick_hz=TICK_HZ)
    pygame.event.post(key(pygame.K_RETURN))
    app.run(max_frames=5)
    assert app.stack.top is arena


# --- Continue, Settings, notices, fonts, gamepad ------------------------------------------


def test_continue_is_greyed_without_a_run_save_and_enabled_with_one(display: pygame.Surface) -> None:
    """R-SAVE-1: Continue offers the run in `run.json` of the user data dir, and only when it exists."""
    resumed: list[SceneStack] = []
    title = TitleScene(on_new_run=lambda stack: None, on_continue=resumed.append)
    stack = SceneStack()
    stack.push(title)
    keys = [item.key for item in title.items]
    assert not title.items[keys.index("ui.title.continue")].enabled

    run_save_path().parent.mkdir(parents=True, exist_ok=True)
    run_save_path().write_text("{}", encoding="utf-8")
    stack.push(Arena())
    stack.pop()  # Back on the title: it looks again.
    assert title.items[keys.index("ui.title.continue")].enabled
    assert title.items[title.selected].key == "ui.title.continue"  # The cursor moved onto it.
    stack.handle_event(key(pygame.K_RETURN))
    assert resumed == [stack]


def test_continue_stays_greyed_without_a_callback_even_with_a_save(display: pygame.Surface) -> None:
    run_save_path().parent.mkdir(parents=True, exist_ok=True)
    run_save_path().write_text("{}", encoding="utf-8")
    title = TitleScene(on_new_run=lambda stack: None)
    assert not next(item for item in title.items if item.key == "ui.title.continue").enabled


def test_settings_opens_the_settings_screen_over_the_title(display: pygame.Surface) -> None:
    settings = Settings()
    title = TitleScene(on_new_run=lambda stack: None, settings=settings)
    stack = SceneStack()
    stack.push(title)
    for code in (pygame.K_DOWN, pygame.K_RETURN):
        stack.handle_event(key(code))
    assert isinstance(stack.top, SettingsScene)
    assert stack.top.settings is settings
    assert title._router is not None and title._router.name_of(stack.top) == "settings"  # Built by name.
    stack.handle_event(key(pygame.K_ESCAPE))  # Esc leaves the settings, not the game.
    assert stack.top is title


def test_without_settings_the_title_loads_them_and_toasts_a_corrupt_file(display: pygame.Surface) -> None:
    """R-SAVE-1: a corrupt settings.json is kept aside and the player is told."""
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json", encoding="utf-8")
    title = TitleScene(on_new_run=lambda stack: None)
    stack = SceneStack()
    stack.push(title)
    title.activate([item.key for item in title.items].index("ui.title.settings"))
    assert isinstance(stack.top, SettingsScene)
    assert title.settings == Settings()
    assert title.notices and "settings.json.corrupt" in title.notices[0]
    assert path.with_name("settings.json.corrupt").is_file()


def test_a_notice_shows_at_the_top_then_goes_away(display: pygame.Surface) -> None:
    with_notice = TitleScene(notices=["Your settings could not be read"])
    without = TitleScene()
    for title in (with_notice, without):
        for _ in range(60):
            title.update(1 / 60)
    plain = pygame.Surface(display.get_size())
    shown = pygame.Surface(display.get_size())
    without.draw(plain, 0.0)
    with_notice.draw(shown, 0.0)
    band = pygame.Rect(0, 0, display.get_width(), 80)
    assert pygame.image.tobytes(plain.subsurface(band), "RGB") != pygame.image.tobytes(shown.subsurface(band), "RGB")
    for _ in range(int(NOTICE_SECONDS * 60) + 1):
        with_notice.update(1 / 60)
    assert with_notice.notices == []


def test_the_title_renders_chinese_with_real_glyphs(
    display: pygame.Surface, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-I18N-1: the title's font follows the language, so 魔法工匠 draws as letters, not as missing-glyph boxes.

    The same screen drawn with the name swapped for as many U+FFFF (a noncharacter
    no font has, so it draws the box) must differ; with a Latin-only font both
    would be four boxes and the same.
    """
    i18n.set_language("zh_CN", strict=True)
    name = i18n.tr("ui.title.game_name")
    assert any("\u4e00" <= ch <= "\u9fff" for ch in name)  # Han characters, e.g. 魔法工匠.
    title, stack = title_on_stack([])
    stack.draw(display, 0.0)
    pygame.image.save(display, str(tmp_path / "title_zh_CN.png"))
    real = display.copy()
    monkeypatch.setitem(i18n.catalog()._texts, "ui.title.game_name", "\uffff" * len(name))
    boxed = TitleScene()
    boxed.draw(display, 0.0)
    band = pygame.Rect(0, display.get_height() // 8, display.get_width(), display.get_height() // 4)
    assert pygame.image.tobytes(real.subsurface(band), "RGB") != pygame.image.tobytes(display.subsurface(band), "RGB")
    assert distinct_colours(real) > 50


def test_a_gamepad_moves_the_selection_and_a_confirms(display: pygame.Surface) -> None:
    calls: list[SceneStack] = []
    controls = Controls(Settings())
    title = TitleScene(on_new_run=calls.append, controls=controls)
    stack = SceneStack()
    stack.push(title)
    pad = 3
    down = pygame.event.Event(pygame.CONTROLLERBUTTONDOWN, instance_id=pad, button=pygame.CONTROLLER_BUTTON_DPAD_DOWN)
    stack.handle_event(down)
    assert title.items[title.selected].key == "ui.title.settings"
    stack.handle_event(
        pygame.event.Event(pygame.CONTROLLERBUTTONDOWN, instance_id=pad, button=pygame.CONTROLLER_BUTTON_DPAD_UP)
    )
    stack.handle_event(
        pygame.event.Event(pygame.CONTROLLERBUTTONDOWN, instance_id=pad, button=pygame.CONTROLLER_BUTTON_A)
    )
    assert calls == [stack]


def test_with_controls_the_rebound_keys_drive_the_menu(display: pygame.Surface) -> None:
    settings = Settings()
    settings.bind(Action.MOVE_DOWN, "k")
    title = TitleScene(on_new_run=lambda stack: None, controls=Controls(settings))
    stack = SceneStack()
    stack.push(title)
    stack.handle_event(key(pygame.K_k))
    assert title.items[title.selected].key == "ui.title.settings"


# --- with a saved run: the cursor starts on Continue, Quit asks first ---------------------------


def save_a_run() -> None:
    run_save_path().parent.mkdir(parents=True, exist_ok=True)
    run_save_path().write_text("{}", encoding="utf-8")


def saved_title() -> tuple[TitleScene, SceneStack, list[SceneStack]]:
    save_a_run()
    resumed: list[SceneStack] = []
    title = TitleScene(on_new_run=lambda stack: None, on_continue=resumed.append)
    stack = SceneStack()
    stack.push(title)
    return title, stack, resumed


def test_with_a_saved_run_the_cursor_starts_on_continue(display: pygame.Surface) -> None:
    """Issue 12 / R-SAVE-1: the likeliest choice is picked; Enter goes on with the saved run."""
    title, stack, resumed = saved_title()
    assert title.items[title.selected].key == "ui.title.continue"
    stack.handle_event(key(pygame.K_RETURN))
    assert resumed == [stack]


def test_without_a_saved_run_the_cursor_starts_on_new_run(display: pygame.Surface) -> None:
    title = TitleScene(on_new_run=lambda stack: None, on_continue=lambda stack: None)
    assert title.items[title.selected].key == "ui.title.new_run"


def test_back_on_the_title_after_a_run_was_saved_the_cursor_moves_to_continue(display: pygame.Surface) -> None:
    title = TitleScene(on_new_run=lambda stack: None, on_continue=lambda stack: None)
    stack = SceneStack()
    stack.push(title)
    stack.push(Arena())
    save_a_run()  # The shop saved the run; the player chose "save and quit to title".
    stack.pop()
    assert title.items[title.selected].key == "ui.title.continue"


def test_back_from_the_settings_the_cursor_stays_on_settings(display: pygame.Surface) -> None:
    title, stack, _ = saved_title()
    stack.handle_event(key(pygame.K_DOWN))
    assert title.items[title.selected].key == "ui.title.settings"
    stack.handle_event(key(pygame.K_RETURN))
    assert isinstance(stack.top, SettingsScene)
    stack.pop()
    assert title.items[title.selected].key == "ui.title.settings"


def test_quit_with_a_saved_run_asks_first_and_cancel_is_the_default(display: pygame.Surface) -> None:
    """Issue 12: quitting loses nothing (the run is saved), but it asks; Enter on the default keeps playing."""
    title, stack, _ = saved_title()
    for code in (*to_the_last_line(), pygame.K_RETURN):
        stack.handle_event(key(code))
    dialog = stack.top
    assert isinstance(dialog, QuitConfirm) and dialog.transparent
    assert QuitConfirm.CHOICES[dialog.selected] == "ui.title.cancel"
    stack.handle_event(key(pygame.K_RETURN))
    assert stack.top is title and not stack.empty


def test_the_quit_dialog_quits_on_quit_and_esc_cancels(display: pygame.Surface) -> None:
    title, stack, _ = saved_title()
    stack.handle_event(key(pygame.K_ESCAPE))  # Esc on the title is Quit: it asks too.
    assert isinstance(stack.top, QuitConfirm)
    stack.handle_event(key(pygame.K_ESCAPE))
    assert stack.top is title
    stack.handle_event(key(pygame.K_ESCAPE))
    for code in (pygame.K_LEFT, pygame.K_RETURN):
        stack.handle_event(key(code))
    assert stack.empty


def test_the_quit_dialog_is_modal_and_answers_the_mouse(display: pygame.Surface) -> None:
    title, stack, resumed = saved_title()
    stack.handle_event(key(pygame.K_ESCAPE))
    dialog = stack.top
    assert isinstance(dialog, QuitConfirm)
    stack.draw(display, 0.0)  # Lays the buttons out.
    assert stack.handle_event(key(pygame.K_F5)) is None  # Nothing reaches the title behind it.
    assert resumed == []
    quit_button = dialog._button_rects[QuitConfirm.CHOICES.index("ui.title.quit")]
    stack.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=quit_button.center))
    assert stack.empty


def test_quit_without_a_saved_run_ends_at_once(display: pygame.Surface) -> None:
    title, stack = title_on_stack([])
    stack.handle_event(key(pygame.K_ESCAPE))
    assert stack.empty


def test_the_title_asks_for_the_title_music() -> None:
    """R-FEEL-1: the title plays its own loop; the settings and quit dialog over it keep it."""
    assert TitleScene.music == "title"
    assert SettingsScene.music is None and QuitConfirm.music is None
