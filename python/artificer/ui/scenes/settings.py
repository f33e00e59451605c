"""The settings screen (R-SET-1): every setting as a pygame-gui widget, applied the moment it changes.

This module owns `SettingsScene` and its pygame-gui theme. Left column:
language, aiming (with a note that only auto-aim exists in the core yet),
screen shake, damage numbers, colour-blind palette; the three volumes; window
size, fullscreen, vsync and the FPS cap. Right column: the key bindings
(click an action's key, press the new key; keys two actions share in one
context are marked and named), "Reset keys", and the gamepad switch with the
connected pads. At the bottom: "Reset all" and "Back".

- Changes apply at once: the language through `i18n.set_language` (the
  widgets are rebuilt with the new texts and the new language's font), the
  volumes through the `SoundBank`, the display mode through
  `app.apply_display_settings`; the FPS cap, bindings and the rest live in the
  shared `Settings` the app, `Controls` and the bank read.
- The settings are saved atomically when the scene leaves the stack (Back,
  Esc, B on a gamepad, or the window closing) (R-SAVE-1).
- Fonts (R-I18N-1): every widget uses the Noto face of the active language
  (`fonts.font_path`); each option of the language drop-down is themed with
  the face of its own language, so each language's name reads in its own
  script whatever the current language is.

It declares the "settings" scene (`artificer.ui.scene_registry`): the title's
Settings line opens it through the router, over the session's settings.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UICheckBox, UIDropDownMenu, UIHorizontalSlider, UILabel

from artificer.ui import i18n
from artificer.ui.app import apply_display_settings
from artificer.ui.controls import Controls
from artificer.ui.fonts import font_path
from artificer.ui.i18n import tr
from artificer.ui.scene import Scene, SceneStack
from artificer.ui.scene_registry import SceneKit, TitleEntry, declare
from artificer.ui.settings import (
    FPS_CAPS,
    RESOLUTIONS,
    Action,
    AimMode,
    Context,
    Language,
    Settings,
    key_label,
    key_name,
    save,
)
from artificer.ui.sound import SoundBank

# Keys built at run time from an action, a language or an aim mode (tests/test_i18n_coverage.py).
I18N_DYNAMIC_PREFIXES: tuple[str, ...] = ("ui.settings.action.", "ui.settings.language_name.", "ui.settings.aim.")

_log = logging.getLogger(__name__)

#: pygame-gui's locale for each of our languages (it picks its own default faces and texts by it).
GUI_LOCALES: dict[Language, str] = {Language.EN: "en", Language.ZH_CN: "zh", Language.KO: "ko", Language.JA: "ja"}

# Palette: the title's night indigo and candle gold.
BACKGROUND = (14, 10, 30)
PANEL = (26, 19, 50)
PANEL_EDGE = (70, 52, 130)

# Layout at 1280×720; larger windows centre the same block.
CONTENT_SIZE = (1240, 700)
ROW = 36
#: The key list's rows are tighter: 21 actions in two columns fit the panel above the gamepad section.
KEY_ROW = 27
LABEL_WIDTH = 200
CONTROL_WIDTH = 300
COLUMN_WIDTH = 590
PANEL_HEIGHT = 548
TEXT_SIZE = 17
SMALL_SIZE = 14
HEADING_SIZE = 20
TITLE_SIZE = 30

DisplayApplier = Callable[[Settings], pygame.Surface]


def _language_key(language: Language) -> str:
    return f"ui.settings.language_name.{language.value.lower()}"


def _font_block(language: str, size: int, bold: bool = False) -> dict[str, str]:
    regular, heavy = font_path(language), font_path(language, bold=True)
    block = {"name": f"artificer_{language}", "size": str(size), "bold": "1" if bold else "0"}
    if regular is not None:
        block["regular_path"] = str(regular)
    if heavy is not None:
        block["bold_path"] = str(heavy)
    return block


def theme(language: Language) -> dict[str, Any]:
    """The pygame-gui theme for `language`: its Noto face everywhere, and each language option in its own face."""
    lang = language.value
    colours = {
        "normal_bg": "#2a1f4d",
        "hovered_bg": "#3d2c70",
        "disabled_bg": "#1c1733",
        "selected_bg": "#5a3fb0",
        "active_bg": "#5a3fb0",
        "dark_bg": "#1a1333",
        "normal_text": "#e6e2f5",
        "hovered_text": "#fff0c8",
        "disabled_text": "#6c6790",
        "selected_text": "#fff0c8",
        "active_text": "#fff0c8",
        "normal_border": "#6a50c8",
        "hovered_border": "#f2d68c",
        "disabled_border": "#3a3160",
        "selected_border": "#f2d68c",
        "active_border": "#f2d68c",
        "filled_bar": "#8a6cf0",
        "unfilled_bar": "#2a1f4d",
    }
    text = {"font": _font_block(lang, TEXT_SIZE)}
    left_label = {
        "font": _font_block(lang, TEXT_SIZE),
        "colours": {"normal_text": "#d6d2ec"},
        "misc": {"text_horiz_alignment": "left"},
    }
    result: dict[str, Any] = {
        "defaults": {"colours": colours},
        "button": {**text, "misc": {"shape": "rounded_rectangle", "shape_corner_radius": "4", "border_width": "1"}},
        # Option rows tall enough for CJK faces (pygame-gui's 20 px clips their line height).
        "drop_down_menu": {**text, "misc": {"list_item_height": str(ROW - 6)}},
        "selection_list": {**text, "misc": {"list_item_height": str(ROW - 6)}},
        # No font here: the tick is drawn in pygame-gui's symbol face (Noto Sans has no ✓); the text beside it is a label.
        "check_box": {"misc": {"check_symbol": "✓"}},
        "horizontal_slider": text,
        "tool_tip": text,
        "label": left_label,
        "#title": {
            "font": _font_block(lang, TITLE_SIZE, bold=True),
            "colours": {"normal_text": "#f2d68c"},
            "misc": {"text_horiz_alignment": "center"},
        },
        "#section": {
            "font": _font_block(lang, HEADING_SIZE, bold=True),
            "colours": {"normal_text": "#f2d68c"},
            "misc": {"text_horiz_alignment": "left"},
        },
        "#note": {
            "font": _font_block(lang, SMALL_SIZE),
            "colours": {"normal_text": "#a49cc8"},
            "misc": {"text_horiz_alignment": "left"},
        },
        "#hint": {
            "font": _font_block(lang, SMALL_SIZE),
            "colours": {"normal_text": "#8c86b0"},
            "misc": {"text_horiz_alignment": "center"},
        },
        "#status": {
            "font": _font_block(lang, SMALL_SIZE + 1),
            "colours": {"normal_text": "#ffb070"},
            "misc": {"text_horiz_alignment": "left"},
        },
        "#value": {
            "font": _font_block(lang, SMALL_SIZE + 1),
            "colours": {"normal_text": "#c8c2e8"},
            "misc": {"text_horiz_alignment": "left"},
        },
        "#key_conflict": {
            "colours": {
                "normal_bg": "#5c2412",
                "normal_border": "#ff8a3d",
                "normal_text": "#ffd0b0",
                "hovered_border": "#ffb070",
            }
        },
        "#key_listening": {"colours": {"normal_bg": "#5a3fb0", "normal_border": "#f2d68c", "normal_text": "#fff0c8"}},
    }
    for option in Language:  # Each language's name in its own face (R-I18N-1).
        result[f"#lang_{option.value.lower()}"] = {"font": _font_block(option.value, TEXT_SIZE)}
    return result


class SettingsScene(Scene):
    """Every setting on one screen; changes apply at once and are saved on leaving (R-SET-1, R-SAVE-1)."""

    def __init__(
        self,
        settings: Settings,
        *,
        sound_bank: SoundBank | None = None,
        controls: Controls | None = None,
        path: Path | None = None,
        apply_display: DisplayApplier | None = apply_display_settings,
    ) -> None:
        """`settings` is the shared object (changed in place); `path` overrides where it is saved.

        `apply_display(settings)` re-opens the window after a display change
        (None: leave the window alone).
        """
        self.settings = settings
        self.sound_bank = sound_bank
        self.controls = controls
        #: What reads the keys without `controls`: the bindings of `settings`.
        self._keys = controls if controls is not None else Controls(settings)
        self.path = path
        self.apply_display = apply_display
        self.manager: pygame_gui.UIManager | None = None
        self.listening: Action | None = None  # The action waiting for its new key.
        self.saved = False
        self._stack: SceneStack | None = None
        self._size = (1280, 720)
        self._checkboxes: dict[UICheckBox, str] = {}
        self._sliders: dict[UIHorizontalSlider, tuple[str, UILabel]] = {}
        self._dropdowns: dict[UIDropDownMenu, str] = {}
        self._options: dict[str, Any] = {}  # Drop-down option id → the value it stands for.
        self._key_buttons: dict[Action, UIButton] = {}
        self._buttons: dict[UIButton, Callable[[], None]] = {}
        self._status: UILabel | None = None
        self._gamepad_status: UILabel | None = None
        self._panels: list[pygame.Rect] = []

    # --- lifecycle ---------------------------------------------------------------

    def on_enter(self, stack: SceneStack) -> None:
        self._stack = stack
        self.saved = False
        self.build()

    def on_exit(self) -> None:
        self.listening = None
        try:
            save(self.settings, self.path)
            self.saved = True
        except OSError as error:  # A read-only or full disk: the game goes on with the settings in memory.
            _log.error("settings could not be saved: %s", error)

    def leave(self) -> None:
        """Back to the scene below (the settings are saved as this scene exits)."""
        if self._stack is not None and self._stack.top is self:
            self._stack.pop()

    # --- building ---------------------------------------------------------------------

    def build(self) -> None:
        """(Re)build every widget for the current language, window size and settings."""
        surface = pygame.display.get_surface()
        if surface is not None:
            self._size = surface.get_size()
        language = self.settings.language
        if self.manager is None:
            self.manager = pygame_gui.UIManager(self._size, theme(language), starting_language=GUI_LOCALES[language])
        else:
            self.manager.clear_and_reset()  # type: ignore[no-untyped-call]  # pygame-gui leaves it unannotated.
            self.manager.set_window_resolution(self._size)
            self.manager.set_locale(GUI_LOCALES[language])
            self.manager.get_theme().load_theme(theme(language))
        self._checkboxes.clear()
        self._sliders.clear()
        self._dropdowns.clear()
        self._options.clear()
        self._key_buttons.clear()
        self._buttons.clear()
        self._panels = []
        self._layout()
        self._refresh_keys()

    def _layout(self) -> None:
        manager = self.manager
        assert manager is not None
        width, height = self._size
        left = max(0, (width - CONTENT_SIZE[0]) // 2)
        top = max(0, (height - CONTENT_SIZE[1]) // 2)
        UILabel(pygame.Rect(left, top + 4, CONTENT_SIZE[0], 44), tr("ui.settings.title"), manager, object_id="#title")

        x, y = left + 20, top + 58
        self._panels.append(pygame.Rect(x - 12, y - 8, COLUMN_WIDTH + 12, PANEL_HEIGHT))
        y = self._section(x, y, "ui.settings.section.general")
        y = self._language_row(x, y)
        y = self._aim_row(x, y)
        y = self._slider_row(x, y, "ui.settings.screen_shake", "screen_shake")
        y = self._checkbox_row(x, y, "ui.settings.damage_numbers", "damage_numbers", x_offset=0)
        self._checkbox_row(x, y - ROW, "ui.settings.colour_blind", "colour_blind", x_offset=LABEL_WIDTH + 40)
        y = self._checkbox_row(x, y, "ui.settings.skip_onboarding", "skip_onboarding", x_offset=0)
        y = self._section(x, y + 4, "ui.settings.section.sound")
        y = self._slider_row(x, y, "ui.settings.master_volume", "master_volume")
        y = self._slider_row(x, y, "ui.settings.music_volume", "music_volume")
        y = self._slider_row(x, y, "ui.settings.sfx_volume", "sfx_volume")
        y = self._section(x, y + 4, "ui.settings.section.display")
        resolutions = [
            (tr("ui.settings.resolution", width=w, height=h), f"#res_{w}x{h}", (w, h)) for w, h in RESOLUTIONS
        ]
        y = self._dropdown_row(x, y, "ui.settings.window_size", "window_size", resolutions, self.settings.window_size)
        caps = [
            (tr("ui.settings.fps_value", fps=cap) if cap else tr("ui.settings.fps_unlimited"), f"#fps_{cap}", cap)
            for cap in FPS_CAPS
        ]
        y = self._dropdown_row(x, y, "ui.settings.fps_cap", "fps_cap", caps, self.settings.fps_cap)
        self._checkbox_row(x, y, "ui.settings.fullscreen", "fullscreen", x_offset=0)
        self._checkbox_row(x, y, "ui.settings.vsync", "vsync", x_offset=LABEL_WIDTH + 40)

        x, y = left + CONTENT_SIZE[0] - COLUMN_WIDTH, top + 58
        self._panels.append(pygame.Rect(x - 12, y - 8, COLUMN_WIDTH + 12, PANEL_HEIGHT))
        self._controls_column(x, y)

        bottom = top + CONTENT_SIZE[1] - 50
        self._button(
            pygame.Rect(left + CONTENT_SIZE[0] // 2 - 230, bottom, 200, 40), "ui.settings.reset_all", self.reset_all
        )
        self._button(pygame.Rect(left + CONTENT_SIZE[0] // 2 + 30, bottom, 200, 40), "ui.settings.back", self.leave)
        UILabel(pygame.Rect(left, bottom - 26, CONTENT_SIZE[0], 22), tr("ui.settings.hint"), manager, object_id="#hint")

    def _section(self, x: int, y: int, key: str) -> int:
        UILabel(pygame.Rect(x, y, COLUMN_WIDTH, 30), tr(key), self.manager, object_id="#section")
        return y + 32

    def _label(self, x: int, y: int, key: str) -> None:
        UILabel(pygame.Rect(x, y, LABEL_WIDTH, ROW - 4), tr(key), self.manager)

    def _button(self, rect: pygame.Rect, key: str, action: Callable[[], None]) -> UIButton:
        button = UIButton(rect, tr(key), self.manager)
        self._buttons[button] = action
        return button

    def _checkbox_row(self, x: int, y: int, key: str, field: str, x_offset: int) -> int:
        box = UICheckBox(
            pygame.Rect(x + x_offset + 4, y + 6, 22, 22),
            tr(key),
            self.manager,
            initial_state=bool(getattr(self.settings, field)),
        )
        self._checkboxes[box] = field
        return y + ROW

    def _slider_row(self, x: int, y: int, key: str, field: str) -> int:
        self._label(x, y, key)
        value = round(float(getattr(self.settings, field)) * 100)
        slider = UIHorizontalSlider(
            pygame.Rect(x + LABEL_WIDTH, y + 4, CONTROL_WIDTH, ROW - 8),
            value,
            (0, 100),
            self.manager,
            click_increment=5,
        )
        readout = UILabel(
            pygame.Rect(x + LABEL_WIDTH + CONTROL_WIDTH + 8, y, 70, ROW - 4),
            tr("ui.settings.percent", value=value),
            self.manager,
            object_id="#value",
        )
        self._sliders[slider] = (field, readout)
        return y + ROW

    def _dropdown_row(
        self, x: int, y: int, key: str, field: str, options: list[tuple[str, str, Any]], current: Any
    ) -> int:
        self._label(x, y, key)
        entries: list[str | tuple[str, str]] = [(text, option_id) for text, option_id, _ in options]
        for _, option_id, value in options:
            self._options[option_id] = value
        chosen = next((entry for entry, (_, _, value) in zip(entries, options) if value == current), entries[0])
        assert isinstance(chosen, tuple)
        menu = UIDropDownMenu(
            entries, chosen, pygame.Rect(x + LABEL_WIDTH, y + 2, CONTROL_WIDTH, ROW - 4), self.manager
        )
        self._dropdowns[menu] = field
        return y + ROW

    def _language_row(self, x: int, y: int) -> int:
        options = [(tr(_language_key(lang)), f"#lang_{lang.value.lower()}", lang) for lang in Language]
        return self._dropdown_row(x, y, "ui.settings.language", "language", options, self.settings.language)

    def _aim_row(self, x: int, y: int) -> int:
        options = [(tr(f"ui.settings.aim.{mode.value}"), f"#aim_{mode.value}", mode) for mode in AimMode]
        y = self._dropdown_row(x, y, "ui.settings.aim_mode", "aim_mode", options, self.settings.aim_mode)
        UILabel(
            pygame.Rect(x, y - 6, COLUMN_WIDTH - 16, 22), tr("ui.settings.aim_note"), self.manager, object_id="#note"
        )
        return y + 18

    def _controls_column(self, x: int, y: int) -> None:
        manager = self.manager
        y = self._section(x, y, "ui.settings.section.controls")
        UILabel(pygame.Rect(x, y - 4, COLUMN_WIDTH, 22), tr("ui.settings.keys_hint"), manager, object_id="#note")
        y += 22
        half = COLUMN_WIDTH // 2
        per_column = (len(Action) + 1) // 2
        label_width, key_width = 150, 118
        for index, action in enumerate(Action):
            column, row = divmod(index, per_column)
            cx, cy = x + column * half, y + row * KEY_ROW
            UILabel(pygame.Rect(cx, cy, label_width, KEY_ROW - 2), tr(f"ui.settings.action.{action.value}"), manager)
            button = UIButton(pygame.Rect(cx + label_width + 4, cy + 1, key_width, KEY_ROW - 4), "", manager)
            self._key_buttons[action] = button
            self._buttons[button] = partial(self.start_listening, action)
        y += per_column * KEY_ROW + 6
        self._status = UILabel(pygame.Rect(x, y, COLUMN_WIDTH, 26), "", manager, object_id="#status")
        y += 30
        self._button(pygame.Rect(x, y, 240, 34), "ui.settings.reset_keys", self.reset_keys)
        y += 50
        y = self._section(x, y, "ui.settings.section.gamepad")
        self._checkbox_row(x, y, "ui.settings.gamepad", "gamepad", x_offset=0)
        self._gamepad_status = UILabel(pygame.Rect(x + half, y, half, ROW - 4), "", manager, object_id="#value")
        UILabel(pygame.Rect(x, y + ROW, COLUMN_WIDTH, 22), tr("ui.settings.gamepad_hint"), manager, object_id="#note")
        self._refresh_gamepads()

    # --- refreshing -----------------------------------------------------------------------

    def _refresh_keys(self) -> None:
        conflicting = self.settings.conflicting_actions()
        for action, button in self._key_buttons.items():
            if action is self.listening:
                button.set_text(tr("ui.settings.press_key"))
                object_id = "#key_listening"
            else:
                button.set_text(key_label(self.settings.key_for(action)))
                object_id = "#key_conflict" if action in conflicting else "#key"
            if button.object_ids is None or button.object_ids[-1] != object_id:
                button.change_object_id(object_id)
        if self._status is not None:
            self._status.set_text(self.status_text())

    def status_text(self) -> str:
        """The line under the key list: the prompt while listening, else the first conflict, else nothing."""
        if self.listening is not None:
            escape_binds = self.listening in (Action.PAUSE, Action.BACK)
            key = "ui.settings.listening_escape" if escape_binds else "ui.settings.listening"
            return tr(key, action=tr(f"ui.settings.action.{self.listening.value}"))
        conflicts = self.settings.conflicts()
        if not conflicts:
            return ""
        key, actions = sorted(conflicts.items())[0]
        names = tr("ui.settings.list_separator").join(
            tr(f"ui.settings.action.{action.value}") for action in Action if action in actions
        )
        return tr("ui.settings.conflict", binding=key_label(key), actions=names)

    def _refresh_gamepads(self) -> None:
        if self._gamepad_status is not None:
            count = len(self.controls.gamepads) if self.controls is not None else 0
            self._gamepad_status.set_text(tr("ui.settings.gamepad_connected", count=count))

    # --- changes ----------------------------------------------------------------------------

    def start_listening(self, action: Action) -> None:
        """Wait for the next key press to become `action`'s key."""
        self.listening = action
        self._refresh_keys()

    def _capture(self, key: int) -> None:
        action = self.listening
        assert action is not None
        self.listening = None
        name = key_name(key)
        if key == pygame.K_ESCAPE and action not in (Action.PAUSE, Action.BACK):
            name = ""  # Esc cancels, except for the two actions whose natural key it is.
        if name:
            self.settings.bind(action, name)
        self._refresh_keys()

    def reset_keys(self) -> None:
        """Every action back on its default key."""
        self.listening = None
        self.settings.reset_bindings()
        self._refresh_keys()

    def reset_all(self) -> None:
        """Every setting back to its default, applied at once."""
        before = self.settings.model_copy(deep=True)
        self.settings.reset()
        self.listening = None
        self._after_change(before)
        self.build()

    def set_value(self, field: str, value: Any) -> None:
        """Change one setting and apply it (what the widgets call; tests call it too)."""
        before = self.settings.model_copy(deep=True)
        setattr(self.settings, field, value)
        self._after_change(before)
        if field == "language" and before.language != self.settings.language:
            self.build()

    def _after_change(self, before: Settings) -> None:
        settings = self.settings
        if settings.language != before.language:
            i18n.set_language(settings.language.value, strict=i18n.catalog().strict)
        if self.sound_bank is not None:
            self.sound_bank.apply_settings(settings)
        display = ("window_size", "fullscreen", "vsync")
        if any(getattr(settings, name) != getattr(before, name) for name in display) and self.apply_display is not None:
            try:
                surface = self.apply_display(settings)
            except pygame.error as error:
                _log.error("display mode refused: %s", error)
            else:
                if surface.get_size() != self._size:
                    self.build()

    # --- input --------------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        if self.manager is None:
            return event
        if self.listening is not None and event.type == pygame.KEYDOWN:
            self._capture(event.key)
            return None
        action = self._keys.handle(event, Context.MENU)
        if event.type in (pygame.CONTROLLERDEVICEADDED, pygame.CONTROLLERDEVICEREMOVED):
            self._refresh_gamepads()
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            surface = pygame.display.get_surface()
            if surface is not None and surface.get_size() != self._size:
                self.build()
            return None
        consumed = self.manager.process_events(event)
        self._react(event)
        if not consumed and action is Action.BACK:  # Esc always (Controls' fixed key in menus), or the back key
            self.leave()
        return None

    def _react(self, event: pygame.event.Event) -> None:
        element = getattr(event, "ui_element", None)
        if event.type == pygame_gui.UI_BUTTON_PRESSED and element in self._buttons:
            if self.listening is not None and element is not self._key_buttons.get(self.listening):
                self.listening = None  # A click elsewhere cancels the wait for a key.
                self._refresh_keys()
            self._buttons[element]()
        elif event.type == pygame_gui.UI_CHECK_BOX_CHECKED and element in self._checkboxes:
            self.set_value(self._checkboxes[element], True)
        elif event.type == pygame_gui.UI_CHECK_BOX_UNCHECKED and element in self._checkboxes:
            self.set_value(self._checkboxes[element], False)
        elif event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and element in self._sliders:
            field, readout = self._sliders[element]
            value = int(round(float(event.value)))
            readout.set_text(tr("ui.settings.percent", value=value))
            self.set_value(field, value / 100)
        elif event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and element in self._dropdowns:
            option = self._options.get(event.selected_option_id)
            if option is not None:
                self.set_value(self._dropdowns[element], option)

    # --- frame ----------------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        if self.manager is not None:
            self.manager.update(dt)

    def draw(self, surface: pygame.Surface, alpha: float) -> None:
        surface.fill(BACKGROUND)
        for panel in self._panels:
            pygame.draw.rect(surface, PANEL, panel, border_radius=10)
            pygame.draw.rect(surface, PANEL_EDGE, panel, 1, border_radius=10)
        if self.manager is not None:
            self.manager.draw_ui(surface)


@declare("settings", title=TitleEntry("ui.title.settings", order=300))
def settings_scene(kit: SceneKit) -> SettingsScene:
    """The "settings" scene over the session's settings; its sound bank and controls apply volumes and pads at once."""
    return SettingsScene(kit.session.settings, sound_bank=kit.session.sound, controls=kit.session.controls)
