"""The soft keyboard and text fields as Android 14 has them, through the real adb server.

Every action is an `adb shell input` command and every reading a
`uiautomator dump`, `dumpsys` or `screencap` through adbutils, as an agent
sees the phone.  Where a fact shows on no adb surface (the selection
toolbar's buttons: the toolbar window is never the active one), the test
reads the phone's own UI state and says so.
"""

from __future__ import annotations

import io

import pytest
import uitools
from adb_ui import AdbUI

from pytest_mobileagent.virtual_phone.framework.ui import keyboard
from pytest_mobileagent.virtual_phone.framework.ui.window import NAV_BAR_H

NOTES = "com.simplemobiletools.notes.pro"
SMS = "com.simplemobiletools.smsmessenger"
SMS_ROLE = "android.app.role.SMS"
W, H = 1080, 2340


@pytest.fixture
def notes(adb_device, phone):
    ui = AdbUI(adb_device, phone, NOTES).launch()
    yield ui
    ui.close()


@pytest.fixture
def sms(adb_device, phone):
    ui = AdbUI(adb_device, phone, SMS)
    ui.sh(f"am force-stop {SMS}")
    for package in (SMS, "com.android.providers.telephony"):
        ui.sh(f"pm clear {package}")
    yield ui
    ui.sh(f"cmd role remove-role-holder {SMS_ROLE} {SMS}")
    ui.sh("pm clear com.android.providers.telephony")
    ui.close()


def ime_shown(ui: AdbUI) -> bool:
    """`dumpsys input_method`'s mInputShown, as ImeVisibilityStateComputer prints it."""
    lines = [line.strip() for line in ui.sh("dumpsys input_method").splitlines()]
    flags = [line for line in lines if line.startswith("mInputShown=")]
    assert len(flags) == 1, lines
    return flags[0] == "mInputShown=true"


def ime_window_visible(ui: AdbUI) -> bool:
    """The InputMethod window's entry in `dumpsys window windows`."""
    text = ui.sh("dumpsys window windows")
    entry = text.split("u0 InputMethod}:", 1)[1].split("  Window #", 1)[0]
    assert f"package={keyboard.IME_PACKAGE}" in entry and "ty=INPUT_METHOD" in entry
    return "mViewVisibility=0x0" in entry


def key_centre(code: str) -> tuple[int, int]:
    key = next(k for k in keyboard.keys(W, H, NAV_BAR_H) if k.code == code)
    l, t, r, b = key.box
    return (l + r) // 2, (t + b) // 2


def open_new_note_dialog(notes: AdbUI) -> None:
    notes.tap(desc="Create a new note")
    assert notes.has(id="locked_note_title") and notes.one(id="locked_note_title")["focused"] == "true"


def field_text(notes: AdbUI) -> str:
    return notes.text("locked_note_title")


def test_a_dialogs_first_back_hides_the_keyboard_and_the_second_closes_it(notes):
    # Notes opens its note with the keyboard up (TextFragment: showKeyboard setting, on by default)
    assert ime_shown(notes) and ime_window_visible(notes)
    notes.key("BACK")
    assert not ime_shown(notes) and not ime_window_visible(notes)
    assert notes.activity().endswith(".MainActivity")       # BACK went to the keyboard only
    open_new_note_dialog(notes)                             # NewNoteDialog: AlertDialog.showKeyboard
    assert ime_shown(notes) and ime_window_visible(notes)
    notes.key("BACK")
    assert not ime_shown(notes) and notes.has(id="locked_note_title"), "the first BACK only hides the keyboard"
    notes.key("BACK")
    assert not notes.has(id="locked_note_title") and notes.activity().endswith(".MainActivity")
    assert not ime_shown(notes)


def test_the_keyboard_is_its_own_window_drawn_over_the_app_but_not_dumped(notes, adb_device):
    open_new_note_dialog(notes)
    xml = adb_device.dump_hierarchy()
    assert keyboard.IME_PACKAGE not in xml and f'package="{NOTES}"' in xml  # the active window only
    enter = key_centre("ENTER")
    shot = adb_device.screenshot().convert("RGB")
    assert shot.getpixel(enter) == keyboard.ENTER_COLOR
    dialog_top = min(uitools.bounds(n)[1] for n in notes.all(id="locked_note_title"))
    assert dialog_top < H - NAV_BAR_H - keyboard.IME_HEIGHT, "the dialog moves up above the keyboard"
    notes.key("BACK")
    assert adb_device.screenshot().convert("RGB").getpixel(enter) != keyboard.ENTER_COLOR


def test_a_view_under_the_keyboard_is_not_hit_by_a_tap_at_its_old_position(sms):
    sms.sh(f"cmd role add-role-holder {SMS_ROLE} {SMS}")
    sms.sh("content insert --uri content://sms/inbox --bind address:s:123456789 --bind body:s:hello")
    sms.sh(f"monkey -p {SMS} -c android.intent.category.LAUNCHER 1")
    sms.tap(text="hello")                                    # the conversation: no keyboard yet
    assert sms.activity().endswith(".ThreadActivity") and not ime_shown(sms)
    x, y = AdbUI.centre(sms.one(id="thread_send_message"))
    assert y > H - NAV_BAR_H - keyboard.IME_HEIGHT            # where the keyboard will be
    sms.type("see you", id="thread_type_message")            # the tap on the field raises the keyboard
    assert ime_shown(sms)
    moved = AdbUI.centre(sms.one(id="thread_send_message"))  # adjustResize (the manifest's) moved it up
    assert moved[1] < H - NAV_BAR_H - keyboard.IME_HEIGHT
    sms.events.clear()
    sms.device.shell(f"input tap {x} {y}")                   # its old place: the keyboard takes the tap
    assert not [e for e in sms.clicks() if e["id"].endswith("thread_send_message")]
    assert "see you" not in sms.sh("content query --uri content://sms/sent")
    sms.device.shell("input tap %d %d" % moved)
    assert [e for e in sms.clicks() if e["id"].endswith("thread_send_message")]
    assert "body=see you" in sms.sh("content query --uri content://sms/sent --projection body")


def test_keys_type_into_the_field_and_input_text_types_with_or_without_it(notes):
    open_new_note_dialog(notes)
    for code in "hi":
        notes.device.shell("input tap %d %d" % key_centre(code))
    assert field_text(notes) == "hi"
    notes.device.shell("input tap %d %d" % key_centre("DEL"))
    assert field_text(notes) == "h"
    notes.key("BACK")                                        # keyboard hidden: `input text` still types
    assert not ime_shown(notes)
    notes.device.shell("input text ello")
    assert field_text(notes) == "hello"
    notes.tap(id="locked_note_title")                        # a tap on the field brings it back
    assert ime_shown(notes)


def test_a_long_press_on_empty_space_only_places_the_cursor(notes, phone):
    open_new_note_dialog(notes)
    notes.device.shell("input text Weekly%splan")
    left, top, right, bottom = uitools.bounds(notes.one(id="locked_note_title"))
    y = (top + bottom) // 2
    notes.device.shell(f"input swipe {right - 10} {y} {right - 10} {y} 1000")  # past the end of the text
    system = phone.phone.system
    # the insertion toolbar: no Cut / Copy (nothing is selected), Select all, no Paste (empty clipboard)
    assert system._toolbar is not None and system._toolbar.items() == ["Select all"]
    notes.device.shell("input text !")                       # typing goes at the cursor, nothing replaced
    assert field_text(notes) == "Weekly plan!"
    # a long press on a word selects it; Copy fills the clipboard; then empty space offers Paste
    word = AdbUI.centre(notes.one(id="locked_note_title"))
    notes.device.shell(f"input swipe {left + 40} {y} {left + 40} {y} 1000")
    assert system._toolbar.items()[:2] == ["Cut", "Copy"]
    button = next(v for v in system._toolbar.root.walk() if v.desc == "Copy")
    notes.device.shell("input tap %d %d" % ((button.rect[0] + button.rect[2]) // 2,
                                            (button.rect[1] + button.rect[3]) // 2))
    assert system.clipboard == "Weekly" and word
    notes.device.shell(f"input swipe {right - 10} {y} {right - 10} {y} 1000")
    assert system._toolbar.items() == ["Paste", "Select all"]
    assert field_text(notes) == "Weekly plan!"


def test_a_long_press_in_an_empty_field_selects_nothing(notes, phone):
    open_new_note_dialog(notes)
    x, y = AdbUI.centre(notes.one(id="locked_note_title"))
    notes.device.shell(f"input swipe {x} {y} {x} {y} 1000")
    system = phone.phone.system
    assert system._toolbar is None or "Cut" not in system._toolbar.items()
    notes.device.shell("input text abc")
    assert field_text(notes) == "abc"


def test_a_double_tap_selects_the_word(notes):
    open_new_note_dialog(notes)
    notes.device.shell("input text Weekly%splan")
    left, top, right, bottom = uitools.bounds(notes.one(id="locked_note_title"))
    y = (top + bottom) // 2
    x = left + 40                                            # on "Weekly"
    notes.device.shell(f"input tap {x} {y}; input tap {x} {y}")  # two taps well within 300 ms
    notes.device.shell("input text Daily")                   # typing replaces the selected word
    assert field_text(notes) == "Daily plan"


def input_view_shown(ui: AdbUI) -> bool:
    """`mIsInputViewShown` from the IME service's part of `dumpsys input_method`
    (InputMethodService.dump), what Appium's isSoftKeyboardPresent reads as canCloseKeyboard."""
    flags = [line.strip() for line in ui.sh("dumpsys input_method").splitlines() if "mIsInputViewShown=" in line]
    assert len(flags) == 1 and flags[0].endswith(" mStatusIcon=0"), flags
    return flags[0].startswith("mIsInputViewShown=true")


def test_the_ime_services_input_view_state_is_the_one_keyboard_state(notes):
    """mIsInputViewShown, mInputShown and the InputMethod window's visibility are one fact."""
    assert input_view_shown(notes) and ime_shown(notes) and ime_window_visible(notes)
    notes.key("BACK")
    assert (input_view_shown(notes), ime_shown(notes), ime_window_visible(notes)) == (False, False, False)


def test_two_taps_with_a_look_between_them_are_no_double_tap(notes):
    """An agent taps, looks at the screen, taps again: the look takes a second of the phone's
    time (kernel/clock.py), more than ViewConfiguration's 300 ms DOUBLE_TAP_TIMEOUT."""
    open_new_note_dialog(notes)
    notes.device.shell("input text Weekly%splan")
    left, top, right, bottom = uitools.bounds(notes.one(id="locked_note_title"))
    y = (top + bottom) // 2
    x = left + 40                                            # on "Weekly"
    notes.device.shell(f"input tap {x} {y}")
    notes.device.shell("uiautomator dump /sdcard/window.xml")
    notes.device.shell(f"input tap {x} {y}")
    notes.device.shell("input text Daily")                   # goes in at the cursor: nothing was selected
    text = field_text(notes)
    assert "Daily" in text and len(text) == len("Weekly planDaily") and text.endswith("ly plan")
