"""The player's settings (R-SET-1) and where they are kept (R-SAVE-1).

This module owns `Settings` — language, volumes, display mode, frame pacing,
key bindings, gamepad, aim mode, screen shake, colour-blind palette, damage
numbers — with its defaults and ranges, the actions a key can be bound to
(`Action`: the run's, the menus', the shop's, the lab's and the range's), the
contexts that read them and which of them may share a key (`conflicts`), and reading and
writing `settings.json` in the user config dir:

- `load()`: a missing file gives the defaults; a file that does not parse or
  does not validate is moved aside as `settings.json.corrupt`, the defaults
  are used, and `SettingsLoad.notice()` says so in the player's language, for
  the title to show.
- `save()`: written atomically (`storage.write_json_atomic`), so a crash
  leaves the old file or the new one, never half of either.

`Settings` is one mutable object shared by the app, `Controls` and the sound
bank, so a change made on the settings screen applies at once; every
assignment is validated. Keys are stored by their SDL name ("w", "space",
"escape"), which reads well in the JSON and does not depend on pygame being
initialised.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import pygame
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from artificer import storage
from artificer.ui.i18n import tr

SETTINGS_FILE = "settings.json"

#: Window sizes the settings screen offers (16:9; the first is the default).
RESOLUTIONS: tuple[tuple[int, int], ...] = ((1280, 720), (1366, 768), (1600, 900), (1920, 1080), (2560, 1440))
#: Frame-rate caps offered; 0 = no cap (vsync, if on, still paces the frames).
FPS_CAPS: tuple[int, ...] = (0, 30, 60, 120, 144, 240)


class Language(StrEnum):
    """The four languages of R-I18N-1; the value is the name of the text file in data/i18n."""

    EN = "en"
    ZH_CN = "zh_CN"
    KO = "ko"
    JA = "ja"


class AimMode(StrEnum):
    """How the wand aims: at the nearest enemy, or toward the mouse cursor (the core's aim point)."""

    AUTO = "auto"  # At the nearest enemy.
    MOUSE = "mouse"  # At the cursor.


class Action(StrEnum):
    """What a key (or gamepad button) can do."""

    MOVE_UP = "move_up"
    MOVE_DOWN = "move_down"
    MOVE_LEFT = "move_left"
    MOVE_RIGHT = "move_right"
    DASH = "dash"
    PAUSE = "pause"
    CONFIRM = "confirm"
    BACK = "back"
    POTION_1 = "potion_1"
    POTION_2 = "potion_2"
    POTION_3 = "potion_3"
    POTION_4 = "potion_4"
    POTION_5 = "potion_5"
    START_WAVE = "start_wave"
    SELECT = "select"
    REROLL = "reroll"
    OPEN_LAB = "open_lab"
    TEST_WAND = "test_wand"
    PREVIOUS_TAB = "previous_tab"
    NEXT_TAB = "next_tab"
    SLOW_MOTION = "slow_motion"
    STATS_SHEET = "stats_sheet"


MOVE_ACTIONS = frozenset({Action.MOVE_UP, Action.MOVE_DOWN, Action.MOVE_LEFT, Action.MOVE_RIGHT})


POTION_ACTIONS = (Action.POTION_1, Action.POTION_2, Action.POTION_3, Action.POTION_4, Action.POTION_5)


class Context(StrEnum):
    """Where a key is read: in a run, a menu, the shop, the lab or the training range. Two actions
    may share a key only if no context reads both."""

    GAMEPLAY = "gameplay"
    MENU = "menu"
    SHOP = "shop"
    LAB = "lab"
    TRAINING = "training"


#: Which actions each context reads (movement also moves a menu's selection; the shop moves its
#: focus with the arrow keys and Tab alone, as it always has).
CONTEXT_ACTIONS: dict[Context, frozenset[Action]] = {
    Context.GAMEPLAY: MOVE_ACTIONS | {Action.DASH, Action.PAUSE, *POTION_ACTIONS},
    Context.MENU: MOVE_ACTIONS | {Action.CONFIRM, Action.BACK, Action.STATS_SHEET},
    Context.SHOP: frozenset(
        {Action.START_WAVE, Action.SELECT, Action.REROLL, Action.OPEN_LAB, Action.BACK, Action.STATS_SHEET}
    ),
    Context.LAB: frozenset(
        {Action.START_WAVE, Action.TEST_WAND, Action.PREVIOUS_TAB, Action.NEXT_TAB, Action.BACK, Action.STATS_SHEET}
    ),
    Context.TRAINING: frozenset({Action.SLOW_MOTION, Action.BACK}),
}

DEFAULT_BINDINGS: dict[Action, str] = {
    Action.MOVE_UP: "w",
    Action.MOVE_DOWN: "s",
    Action.MOVE_LEFT: "a",
    Action.MOVE_RIGHT: "d",
    Action.DASH: "space",
    Action.PAUSE: "escape",  # Pause (in a run) and back (in a menu) share Esc: no context reads both.
    Action.CONFIRM: "return",
    Action.BACK: "escape",
    Action.POTION_1: "1",
    Action.POTION_2: "2",
    Action.POTION_3: "3",
    Action.POTION_4: "4",
    Action.POTION_5: "5",
    Action.START_WAVE: "return",  # The shop's next wave and the lab's Start wave (a dialog's choice in the shop).
    Action.SELECT: "space",  # The shop's focused offer or button.
    Action.REROLL: "r",
    Action.OPEN_LAB: "l",
    Action.TEST_WAND: "t",
    Action.PREVIOUS_TAB: "q",
    Action.NEXT_TAB: "e",
    Action.SLOW_MOTION: "s",  # The range's 0.1× (it reads no movement, so S is free there).
    Action.STATS_SHEET: "c",  # R-STAT-2: the stats sheet in the shop, the lab and the pause menu (Ctrl+C stays the lab's copy).
}

_key_codes: dict[str, int] = {}


def key_code(name: str) -> int | None:
    """The pygame key code of an SDL key name ("w", "space", "left shift"); `None` if no key has that name.

    Needs no `pygame.init()`: the names come from pygame's own `K_*` table. A
    single character that is not in it (a layout's "ö") is its own code point,
    as SDL does it.
    """
    if not _key_codes:
        for constant, value in vars(pygame.constants).items():
            if constant.startswith("K_") and isinstance(value, int) and value != pygame.K_UNKNOWN:
                _key_codes.setdefault(pygame.key.name(value), value)
    found = _key_codes.get(name)
    if found is None and len(name) == 1 and name.isprintable() and not name.isspace():
        found = ord(name)
    return found


def key_name(code: int) -> str:
    """The SDL name of a pygame key code, as stored in settings.json."""
    return pygame.key.name(code)


def key_label(name: str) -> str:
    """How a bound key is shown to the player: "W", "Space", "Left Shift"."""
    return name.upper() if len(name) == 1 else name.title()


#: Short names of keys for the hints on buttons ("[Enter]", "[Esc]"), where the settings' long names do not fit.
SHORT_KEY_LABELS = {"return": "Enter", "escape": "Esc", "keypad enter": "Enter"}


def key_hint(name: str) -> str:
    """A bound key as a button's hint shows it: "Enter", "Esc", else as `key_label` does."""
    return SHORT_KEY_LABELS.get(name, key_label(name))


Volume = Annotated[float, Field(ge=0.0, le=1.0)]
#: An SDL key name ("w", "left shift", "keypad enter"): the longest is under 32 characters.
KeyName = Annotated[str, Field(min_length=1, max_length=32)]


class Settings(BaseModel):
    """Everything the player can set (R-SET-1). Every field has a default; assignments are validated."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True, allow_inf_nan=False)

    language: Language = Field(default=Language.EN, description="Language of every text (R-I18N-1).")
    master_volume: Volume = Field(default=0.8, description="Scales every sound, 0..1.")
    music_volume: Volume = Field(default=0.6, description="Music volume, 0..1 (before master).")
    sfx_volume: Volume = Field(default=0.8, description="Sound-effect volume, 0..1 (before master).")
    fullscreen: bool = Field(default=False, description="Fullscreen at the desktop's mode instead of a window.")
    window_size: tuple[int, int] = Field(default=RESOLUTIONS[0], description="Window size in px, one of RESOLUTIONS.")
    vsync: bool = Field(default=True, description="Present frames in step with the display.")
    fps_cap: int = Field(default=0, description="Rendered frames per second at most, one of FPS_CAPS (0 = no cap).")
    key_bindings: dict[Action, KeyName] = Field(
        default_factory=lambda: dict(DEFAULT_BINDINGS),
        description="Action → SDL key name; actions missing from the file get their default key.",
    )
    gamepad: bool = Field(default=True, description="Read game controllers (left stick / d-pad, A, B, Start).")
    aim_mode: AimMode = Field(default=AimMode.AUTO, description="How the wand aims (only auto exists in the core yet).")
    screen_shake: Volume = Field(default=1.0, description="Screen-shake strength, 0 (off) .. 1.")
    colour_blind: bool = Field(
        default=False, description="Use the Okabe–Ito colour-blind palette (artificer.ui.palette)."
    )
    damage_numbers: bool = Field(default=True, description="Show damage numbers over hit enemies.")
    skip_onboarding: bool = Field(
        default=False, description="R-ONB-1: new runs open the whole game at once (for players who know it)."
    )

    @field_validator("window_size")
    @classmethod
    def _offered_resolution(cls, size: tuple[int, int]) -> tuple[int, int]:
        if size not in RESOLUTIONS:
            raise ValueError(f"must be one of {list(RESOLUTIONS)}, got {list(size)}")
        return size

    @field_validator("fps_cap")
    @classmethod
    def _offered_fps_cap(cls, cap: int) -> int:
        if cap not in FPS_CAPS:
            raise ValueError(f"must be one of {list(FPS_CAPS)}, got {cap}")
        return cap

    @field_validator("key_bindings")
    @classmethod
    def _known_keys(cls, bindings: dict[Action, str]) -> dict[Action, str]:
        unknown = {action.value: name for action, name in bindings.items() if key_code(name) is None}
        if unknown:
            raise ValueError(f"unknown key names {unknown}")
        # A file written before an action existed keeps its bindings and gets the new action's default.
        return {**DEFAULT_BINDINGS, **bindings}

    # --- key bindings ------------------------------------------------------------

    def key_for(self, action: Action) -> str:
        """The SDL name of the key bound to `action`."""
        return self.key_bindings[action]

    def bind(self, action: Action, key: str) -> None:
        """Bind `action` to the key named `key` (the old key is freed); conflicts are allowed and reported by `conflicts`."""
        self.key_bindings = {**self.key_bindings, action: key}

    def conflicts(self) -> dict[str, frozenset[Action]]:
        """Keys bound to two or more actions that some context reads together: key name → those actions."""
        found: dict[str, set[Action]] = {}
        for actions in CONTEXT_ACTIONS.values():
            by_key: dict[str, set[Action]] = {}
            for action in actions:
                by_key.setdefault(self.key_bindings[action], set()).add(action)
            for key, sharing in by_key.items():
                if len(sharing) > 1:
                    found.setdefault(key, set()).update(sharing)
        return {key: frozenset(actions) for key, actions in found.items()}

    def conflicting_actions(self) -> frozenset[Action]:
        """Every action whose key another action in the same context also uses."""
        return frozenset(action for actions in self.conflicts().values() for action in actions)

    def reset_bindings(self) -> None:
        """Every action back on its default key."""
        self.key_bindings = dict(DEFAULT_BINDINGS)

    # --- all of it ----------------------------------------------------------------

    def reset(self) -> None:
        """Every setting back to its default, in place (the objects sharing this one see it)."""
        for name, value in Settings().__dict__.items():
            setattr(self, name, value)

    def to_json(self) -> dict[str, Any]:
        """The JSON object settings.json holds."""
        return self.model_dump(mode="json")

    @property
    def effective_sfx_volume(self) -> float:
        """What a sound effect plays at: master × SFX."""
        return self.master_volume * self.sfx_volume

    @property
    def effective_music_volume(self) -> float:
        """What music plays at: master × music."""
        return self.master_volume * self.music_volume


# --- the file -------------------------------------------------------------------------


def settings_path() -> Path:
    """`settings.json` in the user config dir (`$ARTIFICER_HOME/config` when set)."""
    return storage.config_dir() / SETTINGS_FILE


@dataclass(frozen=True)
class SettingsLoad:
    """What `load` found: the settings to use and, when the file was bad, what became of it.

    `problem` is the technical detail (for the log: the file, the reason, the field); `reason`
    the cause alone; `kept_as` the name the bad file was moved to. `notice()` is the message
    for the player.
    """

    settings: Settings
    problem: str | None = None
    kept_as: str | None = None
    reason: str = ""

    def notice(self) -> str | None:
        """The player's message in the active language (`ui.settings.load_problem`: the file kept
        aside and the reason), or `None` when all was well."""
        if self.problem is None:
            return None
        reason = self.reason if len(self.reason) <= REASON_SHOWN else self.reason[: REASON_SHOWN - 1] + "…"
        return tr("ui.settings.load_problem", file=self.kept_as or SETTINGS_FILE, reason=reason)


#: The longest reason the player's message quotes (the log has all of it).
REASON_SHOWN = 160


def load(path: Path | None = None) -> SettingsLoad:
    """The saved settings, the defaults when there are none, or the defaults and a notice when the
    file is bad (R-SAVE-1): any bytes at all (`storage.read_json_or_quarantine`: too big, too
    deep, not UTF-8, not JSON, a directory…) or a value out of its range. Never raises."""
    path = path if path is not None else settings_path()
    loaded = storage.read_json_or_quarantine(path)
    if loaded.problem is not None:
        return SettingsLoad(Settings(), loaded.problem, loaded.kept_as, loaded.reason)
    if loaded.value is None and not path.exists():
        return SettingsLoad(Settings())
    try:
        if loaded.value is None:
            reason = "(file): null, not an object of settings"
        else:
            return SettingsLoad(Settings.model_validate(loaded.value))
    except ValidationError as error:
        reason = storage.describe(error)
    found = storage.quarantine(path, reason)
    return SettingsLoad(Settings(), found.message, found.kept_as, reason)


def save(settings: Settings, path: Path | None = None) -> None:
    """Write `settings` atomically to settings.json (R-SAVE-1)."""
    storage.write_json_atomic(path if path is not None else settings_path(), settings.to_json())
