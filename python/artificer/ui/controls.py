"""Input → actions: the keyboard through the player's bindings, and game controllers (R-SET-1, DESIGN §7).

This module owns `Controls`, which scenes feed their pygame events:

- `handle(event, context)` returns the `Action` the event starts (a key or
  button press), or `None`. The same key may mean different actions in a run
  and in a menu (Esc: pause / back), so the caller says which `Context` it is
  in. Besides the bindings, the arrow keys always move, and each context has
  fixed keys of its own (`CONTEXT_KEYS`: in menus Enter, Enter on the keypad
  and Space confirm and Esc goes back; in the shop and the lab the keypad's
  Enter starts the wave; in the shop Tab and Shift+Tab step the focus; in the
  range Backspace goes back) — unless the player bound that key to something
  else in the same context. `pressed(event, context)` is the same answer for
  a key press without the held-key bookkeeping (scenes that read presses
  only); `key_action(key, context)` for a key code.
- `numbered_choice(event)`: 0..8 for the digit keys 1–9 (the lab's tabs, by
  the number printed on each); not a binding, as a number is its own key.
- `movement()` is the held movement as (x, y), each in -1..1 and the vector's
  length at most 1 (y grows downwards, like the screen): held movement keys,
  the d-pad and the left stick together.
- Game controllers come through `pygame._sdl2.controller` and are opened and
  closed as they are plugged in and out (CONTROLLERDEVICEADDED /
  CONTROLLERDEVICEREMOVED). Left stick (radial dead zone `STICK_DEAD_ZONE`,
  rescaled so movement starts from zero at its edge) and d-pad move; in a
  menu the stick also steps the selection once per push. A = dash in a run
  and confirm in a menu, B = back, Start = pause. With `Settings.gamepad` off,
  controllers are still tracked but their input is ignored.

Stick and button state is kept from the events, not polled, so a scene sees
exactly what it was sent (and tests can post synthetic controller events).
"""

from __future__ import annotations

import logging
import math
from typing import Protocol

import pygame
from pygame._sdl2 import controller as sdl_controller

from artificer.ui.settings import CONTEXT_ACTIONS, MOVE_ACTIONS, Action, Context, Settings, key_code

_log = logging.getLogger(__name__)

#: Stick deflection (0..1) below which the stick counts as centred.
STICK_DEAD_ZONE = 0.25
#: In menus, the stick steps the selection when pushed past PRESS, and again only after coming back under RELEASE.
STICK_MENU_PRESS = 0.6
STICK_MENU_RELEASE = 0.4
AXIS_MAX = 32767.0

#: Keys that move whatever the bindings say (unless the key is bound in the context).
ARROW_KEYS: dict[int, Action] = {
    pygame.K_UP: Action.MOVE_UP,
    pygame.K_DOWN: Action.MOVE_DOWN,
    pygame.K_LEFT: Action.MOVE_LEFT,
    pygame.K_RIGHT: Action.MOVE_RIGHT,
}
#: Keys each context reads besides the bindings (unless the key is bound in the context).
CONTEXT_KEYS: dict[Context, dict[int, Action]] = {
    Context.GAMEPLAY: {},
    Context.MENU: {
        pygame.K_KP_ENTER: Action.CONFIRM,
        pygame.K_SPACE: Action.CONFIRM,
        pygame.K_RETURN: Action.CONFIRM,
        pygame.K_ESCAPE: Action.BACK,
    },
    Context.SHOP: {pygame.K_KP_ENTER: Action.START_WAVE, pygame.K_TAB: Action.MOVE_RIGHT},
    Context.LAB: {pygame.K_KP_ENTER: Action.START_WAVE},
    Context.TRAINING: {pygame.K_BACKSPACE: Action.BACK},
}
#: With Shift held, these fixed keys step the other way (Shift+Tab: the focus goes back).
SHIFT_REVERSES: dict[Action, Action] = {Action.MOVE_RIGHT: Action.MOVE_LEFT}
#: The digit keys 1–9, in order: a numbered choice (`Controls.numbered_choice`).
NUMBER_KEYS = tuple(range(pygame.K_1, pygame.K_9 + 1))

DPAD: dict[int, Action] = {
    pygame.CONTROLLER_BUTTON_DPAD_UP: Action.MOVE_UP,
    pygame.CONTROLLER_BUTTON_DPAD_DOWN: Action.MOVE_DOWN,
    pygame.CONTROLLER_BUTTON_DPAD_LEFT: Action.MOVE_LEFT,
    pygame.CONTROLLER_BUTTON_DPAD_RIGHT: Action.MOVE_RIGHT,
}
MOVE_VECTORS: dict[Action, tuple[int, int]] = {
    Action.MOVE_UP: (0, -1),
    Action.MOVE_DOWN: (0, 1),
    Action.MOVE_LEFT: (-1, 0),
    Action.MOVE_RIGHT: (1, 0),
}


class _Pad(Protocol):
    """What Controls needs of an opened controller (pygame's `Controller`, or a test's stand-in)."""

    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str: ...

    def quit(self) -> None: ...


def _clamp_length(x: float, y: float) -> tuple[float, float]:
    length = math.hypot(x, y)
    if length > 1.0:
        return x / length, y / length
    return x, y


def apply_dead_zone(x: float, y: float, dead_zone: float = STICK_DEAD_ZONE) -> tuple[float, float]:
    """A stick position with a radial dead zone: 0 inside it, then rescaled from 0 at its edge to 1 at full tilt."""
    x, y = _clamp_length(x, y)
    length = math.hypot(x, y)
    if length <= dead_zone:
        return 0.0, 0.0
    scale = (length - dead_zone) / (1.0 - dead_zone) / length
    return x * scale, y * scale


class Controls:
    """The player's input, as actions and a movement vector; share one between the scenes."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._held_keys: set[int] = set()
        self._pads: dict[int, _Pad] = {}
        self._axes: dict[tuple[int, int], float] = {}  # (instance id, axis) → -1..1
        self._dpad: set[tuple[int, int]] = set()  # (instance id, button) held
        self._stick_step: dict[int, Action | None] = {}  # menu stepping: last direction per pad
        self._controllers_ready = False
        if pygame.get_init():
            self.open_connected()

    # --- controllers ---------------------------------------------------------------

    @property
    def gamepads(self) -> tuple[str, ...]:
        """The names of the connected game controllers."""
        return tuple(pad.name for pad in self._pads.values())

    def open_connected(self) -> None:
        """Open every game controller already plugged in (SDL also announces them with DEVICEADDED events)."""
        if not self._init_controllers():
            return
        for index in range(sdl_controller.get_count()):
            self._open(index)

    def close(self) -> None:
        """Close every controller this object opened."""
        for pad in self._pads.values():
            pad.quit()
        self._pads.clear()
        self._axes.clear()
        self._dpad.clear()
        self._stick_step.clear()

    def _init_controllers(self) -> bool:
        if not self._controllers_ready:
            try:
                sdl_controller.init()
                self._controllers_ready = True
            except pygame.error as error:  # No joystick subsystem here: play on with the keyboard.
                _log.info("game controllers unavailable: %s", error)
        return self._controllers_ready

    def _open(self, device_index: int) -> None:
        if not self._init_controllers():
            return
        try:
            if not sdl_controller.is_controller(device_index):
                return
            pad: _Pad = sdl_controller.Controller(device_index)
        except pygame.error as error:
            _log.warning("could not open game controller %d: %s", device_index, error)
            return
        self._pads.setdefault(pad.id, pad)

    def _remove(self, instance_id: int) -> None:
        pad = self._pads.pop(instance_id, None)
        if pad is not None:
            pad.quit()
        self._axes = {key: value for key, value in self._axes.items() if key[0] != instance_id}
        self._dpad = {held for held in self._dpad if held[0] != instance_id}
        self._stick_step.pop(instance_id, None)

    # --- events -----------------------------------------------------------------------

    def handle(self, event: pygame.event.Event, context: Context = Context.GAMEPLAY) -> Action | None:
        """The action `event` starts in `context`, or `None`; also keeps the held-key and stick state."""
        kind = event.type
        if kind == pygame.KEYDOWN:
            self._held_keys.add(event.key)
            return self.pressed(event, context)
        if kind == pygame.KEYUP:
            self._held_keys.discard(event.key)
            return None
        if kind == pygame.CONTROLLERDEVICEADDED:
            self._open(event.device_index)
            return None
        if kind == pygame.CONTROLLERDEVICEREMOVED:
            self._remove(event.instance_id)
            return None
        if kind == pygame.CONTROLLERBUTTONDOWN:
            return self._button_down(event.instance_id, event.button, context) if self.settings.gamepad else None
        if kind == pygame.CONTROLLERBUTTONUP:
            self._dpad.discard((event.instance_id, event.button))
            return None
        if kind == pygame.CONTROLLERAXISMOTION:
            self._axes[(event.instance_id, event.axis)] = max(-1.0, min(1.0, event.value / AXIS_MAX))
            if self.settings.gamepad and context is Context.MENU:
                return self._stick_menu_step(event.instance_id)
            return None
        return None

    def release_all(self) -> None:
        """Forget held keys and buttons (after focus loss or a scene change, when their key-ups may never come)."""
        self._held_keys.clear()
        self._dpad.clear()

    def key_action(self, code: int, context: Context, *, shift: bool = False) -> Action | None:
        """The action key `code` means in `context` (its binding, else the arrows' and the context's
        fixed keys), or `None`; `shift` held reverses a fixed stepping key (Shift+Tab)."""
        bound = self._bound_actions(code, context)
        if bound:
            return bound[0]
        if code in ARROW_KEYS:
            return ARROW_KEYS[code]
        fixed = CONTEXT_KEYS[context].get(code)
        if fixed is not None and shift:
            return SHIFT_REVERSES.get(fixed, fixed)
        return fixed

    def pressed(self, event: pygame.event.Event, context: Context) -> Action | None:
        """The action a key press means in `context` (`None` for any other event), keeping no held-key
        state: for scenes that read presses only (the shop, the lab, the range, the summary)."""
        if event.type != pygame.KEYDOWN:
            return None
        return self.key_action(event.key, context, shift=bool(event.dict.get("mod", 0) & pygame.KMOD_SHIFT))

    @staticmethod
    def numbered_choice(event: pygame.event.Event) -> int | None:
        """0..8 for a press of the digit keys 1–9, else `None`."""
        if event.type == pygame.KEYDOWN and event.key in NUMBER_KEYS:
            return NUMBER_KEYS.index(event.key)
        return None

    def _bound_actions(self, code: int, context: Context) -> list[Action]:
        """The actions `context` reads that are bound to key `code`, in `Action` order (two = a conflict)."""
        readable = CONTEXT_ACTIONS[context]
        return [
            action
            for action, name in self.settings.key_bindings.items()
            if action in readable and key_code(name) == code
        ]

    def _button_down(self, instance_id: int, button: int, context: Context) -> Action | None:
        if button in DPAD:
            self._dpad.add((instance_id, button))
            return DPAD[button]
        if button == pygame.CONTROLLER_BUTTON_A:
            return Action.DASH if context is Context.GAMEPLAY else Action.CONFIRM
        if button == pygame.CONTROLLER_BUTTON_B:
            return Action.BACK
        if button == pygame.CONTROLLER_BUTTON_START:
            return Action.PAUSE
        return None

    def _stick_menu_step(self, instance_id: int) -> Action | None:
        x, y = self._stick(instance_id)
        previous = self._stick_step.get(instance_id)
        if max(abs(x), abs(y)) < STICK_MENU_RELEASE:
            self._stick_step[instance_id] = None
            return None
        if previous is not None or max(abs(x), abs(y)) < STICK_MENU_PRESS:
            return None
        if abs(x) > abs(y):
            step = Action.MOVE_RIGHT if x > 0 else Action.MOVE_LEFT
        else:
            step = Action.MOVE_DOWN if y > 0 else Action.MOVE_UP
        self._stick_step[instance_id] = step
        return step

    # --- movement ---------------------------------------------------------------------

    def _stick(self, instance_id: int) -> tuple[float, float]:
        return (
            self._axes.get((instance_id, pygame.CONTROLLER_AXIS_LEFTX), 0.0),
            self._axes.get((instance_id, pygame.CONTROLLER_AXIS_LEFTY), 0.0),
        )

    def held_moves(self) -> frozenset[Action]:
        """The movement directions held on the keyboard and the d-pad."""
        held: set[Action] = set()
        for code in self._held_keys:
            bound = [action for action in self._bound_actions(code, Context.GAMEPLAY) if action in MOVE_ACTIONS]
            if bound:
                held.update(bound)
            elif code in ARROW_KEYS and not self._bound_actions(code, Context.GAMEPLAY):
                held.add(ARROW_KEYS[code])
        if self.settings.gamepad:
            held.update(DPAD[button] for _, button in self._dpad)
        return frozenset(held)

    def movement(self) -> tuple[float, float]:
        """Where the player is steering: (x, y), length ≤ 1, y down; keys, d-pad and left stick together."""
        held = self.held_moves()
        x = float(sum(MOVE_VECTORS[action][0] for action in held))
        y = float(sum(MOVE_VECTORS[action][1] for action in held))
        if self.settings.gamepad:
            for instance_id in {key[0] for key in self._axes}:
                stick_x, stick_y = apply_dead_zone(*self._stick(instance_id))
                x += stick_x
                y += stick_y
        return _clamp_length(x, y)
