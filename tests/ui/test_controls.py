"""Controls (R-SET-1): keys through the player's bindings, a held movement vector, and game controllers —
left stick with a dead zone, d-pad, A/B/Start — opened and closed as they are plugged in and out."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame
import pytest

from artificer.ui import controls as controls_module
from artificer.ui.controls import AXIS_MAX, STICK_DEAD_ZONE, Controls, apply_dead_zone
from artificer.ui.settings import Action, Context, Settings

PAD = 7


def down(code: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0)


def up(code: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYUP, key=code, mod=0, unicode="", scancode=0)


def button(code: int, pad: int = PAD, pressed: bool = True) -> pygame.event.Event:
    kind = pygame.CONTROLLERBUTTONDOWN if pressed else pygame.CONTROLLERBUTTONUP
    return pygame.event.Event(kind, instance_id=pad, button=code)


def stick(axis: int, value: float, pad: int = PAD) -> pygame.event.Event:
    return pygame.event.Event(pygame.CONTROLLERAXISMOTION, instance_id=pad, axis=axis, value=int(value * AXIS_MAX))


@pytest.fixture
def controls(display: pygame.Surface) -> Controls:
    return Controls(Settings())


# --- keyboard ------------------------------------------------------------------------------


def test_wasd_moves_and_releasing_stops(controls: Controls) -> None:
    assert controls.handle(down(pygame.K_w)) is Action.MOVE_UP
    assert controls.movement() == (0.0, -1.0)
    controls.handle(up(pygame.K_w))
    assert controls.movement() == (0.0, 0.0)
    controls.handle(down(pygame.K_d))
    assert controls.movement() == (1.0, 0.0)


def test_a_diagonal_is_no_faster_than_a_straight_line(controls: Controls) -> None:
    controls.handle(down(pygame.K_w))
    controls.handle(down(pygame.K_d))
    x, y = controls.movement()
    assert math.hypot(x, y) == pytest.approx(1.0)
    assert x == pytest.approx(-y) and x > 0


def test_opposite_keys_cancel(controls: Controls) -> None:
    controls.handle(down(pygame.K_a))
    controls.handle(down(pygame.K_d))
    assert controls.movement() == (0.0, 0.0)


def test_the_arrow_keys_always_move(controls: Controls) -> None:
    assert controls.handle(down(pygame.K_LEFT)) is Action.MOVE_LEFT
    assert controls.movement() == (-1.0, 0.0)


def test_a_rebound_key_works_at_once_and_the_old_one_no_longer_does(controls: Controls) -> None:
    controls.settings.bind(Action.MOVE_UP, "i")
    assert controls.handle(down(pygame.K_w)) is None
    assert controls.movement() == (0.0, 0.0)
    assert controls.handle(down(pygame.K_i)) is Action.MOVE_UP
    assert controls.movement() == (0.0, -1.0)


def test_escape_pauses_a_run_and_goes_back_in_a_menu(controls: Controls) -> None:
    assert controls.handle(down(pygame.K_ESCAPE), Context.GAMEPLAY) is Action.PAUSE
    assert controls.handle(down(pygame.K_ESCAPE), Context.MENU) is Action.BACK


def test_space_dashes_in_a_run_and_confirms_in_a_menu(controls: Controls) -> None:
    assert controls.handle(down(pygame.K_SPACE), Context.GAMEPLAY) is Action.DASH
    assert controls.handle(down(pygame.K_SPACE), Context.MENU) is Action.CONFIRM
    assert controls.handle(down(pygame.K_RETURN), Context.MENU) is Action.CONFIRM
    assert controls.handle(down(pygame.K_RETURN), Context.GAMEPLAY) is None


def test_each_context_reads_its_own_bindings_and_fixed_keys(controls: Controls) -> None:
    """R is the shop's reroll, nothing in a run; Enter starts the wave in the shop and the lab; Tab steps
    the shop's focus (Shift+Tab back); Backspace leaves the range; Esc backs in every menu."""
    assert controls.handle(down(pygame.K_r), Context.SHOP) is Action.REROLL
    assert controls.handle(down(pygame.K_r), Context.GAMEPLAY) is None
    assert controls.handle(down(pygame.K_l), Context.SHOP) is Action.OPEN_LAB
    assert controls.handle(down(pygame.K_SPACE), Context.SHOP) is Action.SELECT
    for context in (Context.SHOP, Context.LAB):
        assert controls.handle(down(pygame.K_RETURN), context) is Action.START_WAVE
        assert controls.handle(down(pygame.K_KP_ENTER), context) is Action.START_WAVE
    assert controls.handle(down(pygame.K_TAB), Context.SHOP) is Action.MOVE_RIGHT
    shift_tab = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_TAB, mod=pygame.KMOD_LSHIFT, unicode="", scancode=0)
    assert controls.handle(shift_tab, Context.SHOP) is Action.MOVE_LEFT
    assert controls.handle(down(pygame.K_t), Context.LAB) is Action.TEST_WAND
    assert controls.handle(down(pygame.K_q), Context.LAB) is Action.PREVIOUS_TAB
    assert controls.handle(down(pygame.K_e), Context.LAB) is Action.NEXT_TAB
    assert controls.handle(down(pygame.K_s), Context.TRAINING) is Action.SLOW_MOTION
    assert controls.handle(down(pygame.K_BACKSPACE), Context.TRAINING) is Action.BACK
    controls.settings.bind(Action.BACK, "b")
    assert controls.handle(down(pygame.K_ESCAPE), Context.MENU) is Action.BACK


def test_a_rebound_shop_key_acts_and_the_old_one_no_longer_does(controls: Controls) -> None:
    controls.settings.bind(Action.REROLL, "f")
    assert controls.handle(down(pygame.K_r), Context.SHOP) is None
    assert controls.handle(down(pygame.K_f), Context.SHOP) is Action.REROLL


def test_a_press_read_without_bookkeeping_holds_no_key(controls: Controls) -> None:
    assert controls.pressed(down(pygame.K_d), Context.SHOP) is None
    assert controls.pressed(down(pygame.K_LEFT), Context.SHOP) is Action.MOVE_LEFT
    assert controls.movement() == (0.0, 0.0), "a scene reading presses leaves no key held for the arena"
    assert controls.pressed(up(pygame.K_r), Context.SHOP) is None


def test_the_digit_keys_are_a_numbered_choice(controls: Controls) -> None:
    assert [Controls.numbered_choice(down(code)) for code in (pygame.K_1, pygame.K_5, pygame.K_9)] == [0, 4, 8]
    assert Controls.numbered_choice(down(pygame.K_0)) is None
    assert Controls.numbered_choice(up(pygame.K_1)) is None


def test_potion_keys_are_actions_in_a_run(controls: Controls) -> None:
    assert controls.handle(down(pygame.K_3)) is Action.POTION_3


def test_an_unbound_key_is_no_action(controls: Controls) -> None:
    assert controls.handle(down(pygame.K_F7)) is None


def test_release_all_forgets_held_keys(controls: Controls) -> None:
    controls.handle(down(pygame.K_w))
    controls.release_all()
    assert controls.movement() == (0.0, 0.0)


# --- gamepad ------------------------------------------------------------------------------


def test_a_dashes_in_a_run_and_confirms_in_a_menu_b_backs_start_pauses(controls: Controls) -> None:
    assert controls.handle(button(pygame.CONTROLLER_BUTTON_A), Context.GAMEPLAY) is Action.DASH
    assert controls.handle(button(pygame.CONTROLLER_BUTTON_A), Context.MENU) is Action.CONFIRM
    assert controls.handle(button(pygame.CONTROLLER_BUTTON_B)) is Action.BACK
    assert controls.handle(button(pygame.CONTROLLER_BUTTON_START)) is Action.PAUSE
    assert controls.handle(button(pygame.CONTROLLER_BUTTON_Y)) is None


def test_the_d_pad_moves_while_held(controls: Controls) -> None:
    assert controls.handle(button(pygame.CONTROLLER_BUTTON_DPAD_DOWN)) is Action.MOVE_DOWN
    assert controls.movement() == (0.0, 1.0)
    controls.handle(button(pygame.CONTROLLER_BUTTON_DPAD_DOWN, pressed=False))
    assert controls.movement() == (0.0, 0.0)


def test_a_resting_stick_inside_the_dead_zone_does_not_move(controls: Controls) -> None:
    controls.handle(stick(pygame.CONTROLLER_AXIS_LEFTX, STICK_DEAD_ZONE * 0.8))
    controls.handle(stick(pygame.CONTROLLER_AXIS_LEFTY, -STICK_DEAD_ZONE * 0.5))
    assert controls.movement() == (0.0, 0.0)


def test_the_stick_moves_in_proportion_past_the_dead_zone(controls: Controls) -> None:
    controls.handle(stick(pygame.CONTROLLER_AXIS_LEFTX, 1.0))
    assert controls.movement() == pytest.approx((1.0, 0.0), abs=1e-4)
    controls.handle(stick(pygame.CONTROLLER_AXIS_LEFTX, 0.5))
    x, _ = controls.movement()
    assert 0.0 < x < 0.5  # Rescaled: movement starts from zero at the dead zone's edge.
    assert x == pytest.approx((0.5 - STICK_DEAD_ZONE) / (1 - STICK_DEAD_ZONE), abs=1e-3)


def test_the_dead_zone_is_radial_and_full_tilt_is_length_one() -> None:
    assert apply_dead_zone(0.15, 0.15) == (0.0, 0.0)  # |v| ≈ 0.21: inside.
    x, y = apply_dead_zone(0.2, 0.2)  # Each axis under 0.25, but |v| ≈ 0.28: a slight diagonal push.
    assert x == y and 0.0 < x < 0.05
    x, y = apply_dead_zone(1.0, 1.0)
    assert math.hypot(x, y) == pytest.approx(1.0)


def test_with_the_gamepad_switched_off_its_input_is_ignored(controls: Controls) -> None:
    controls.settings.gamepad = False
    assert controls.handle(button(pygame.CONTROLLER_BUTTON_A)) is None
    controls.handle(stick(pygame.CONTROLLER_AXIS_LEFTX, 1.0))
    assert controls.movement() == (0.0, 0.0)
    controls.settings.gamepad = True
    assert controls.movement() == pytest.approx((1.0, 0.0), abs=1e-4)


def test_in_a_menu_the_stick_steps_once_per_push(controls: Controls) -> None:
    y = pygame.CONTROLLER_AXIS_LEFTY
    assert controls.handle(stick(y, 0.3), Context.MENU) is None
    assert controls.handle(stick(y, 0.9), Context.MENU) is Action.MOVE_DOWN
    assert controls.handle(stick(y, 1.0), Context.MENU) is None  # Still held: no repeat.
    assert controls.handle(stick(y, 0.1), Context.MENU) is None  # Back to the centre...
    assert controls.handle(stick(y, -0.9), Context.MENU) is Action.MOVE_UP  # ...then a new push.


@dataclass
class FakePad:
    id: int
    name: str = "Test Pad"
    closed: bool = field(default=False)

    def quit(self) -> None:
        self.closed = True


class FakeControllerModule:
    """Stands in for `pygame._sdl2.controller`: device index n opens as instance id 100 + n."""

    def __init__(self) -> None:
        self.opened: list[FakePad] = []

    def init(self) -> None:
        pass

    def get_count(self) -> int:
        return 0

    def is_controller(self, index: int) -> bool:
        return True

    def Controller(self, index: int) -> FakePad:  # noqa: N802 - the name of pygame's class.
        pad = FakePad(100 + index)
        self.opened.append(pad)
        return pad


def test_a_pad_plugged_in_is_opened_and_unplugged_is_closed_and_forgotten(
    display: pygame.Surface, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = FakeControllerModule()
    monkeypatch.setattr(controls_module, "sdl_controller", fake)
    controls = Controls(Settings())
    assert controls.gamepads == ()
    controls.handle(pygame.event.Event(pygame.CONTROLLERDEVICEADDED, device_index=2))
    assert controls.gamepads == ("Test Pad",)
    controls.handle(stick(pygame.CONTROLLER_AXIS_LEFTX, 1.0, pad=102))
    assert controls.movement()[0] > 0.9

    controls.handle(pygame.event.Event(pygame.CONTROLLERDEVICEREMOVED, instance_id=102))
    assert controls.gamepads == ()
    assert fake.opened[0].closed
    assert controls.movement() == (0.0, 0.0)  # A pad pulled out mid-tilt does not keep steering.


def test_a_pad_announced_twice_is_opened_once(display: pygame.Surface, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeControllerModule()
    monkeypatch.setattr(controls_module, "sdl_controller", fake)
    controls = Controls(Settings())
    for _ in range(2):
        controls.handle(pygame.event.Event(pygame.CONTROLLERDEVICEADDED, device_index=0))
    assert len(controls.gamepads) == 1


def test_controls_work_without_any_controller_subsystem(display: pygame.Surface) -> None:
    """Under the dummy driver no pad is connected; the keyboard still works."""
    controls = Controls(Settings())
    assert controls.gamepads == ()
    assert controls.handle(down(pygame.K_s)) is Action.MOVE_DOWN
