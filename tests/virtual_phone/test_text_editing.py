"""Text editing as Android's EditText does it, driven through the phone's `input` command.

Long press selects the word under the finger and shows the floating
selection toolbar; DEL / FORWARD_DEL, MOVE_HOME / MOVE_END, Ctrl shortcuts
(`input keycombination`), CUT / COPY / PASTE keys and a tap that places the
cursor.  The Notes rename dialog is the real case: an agent must replace a
prefilled name.
"""

from __future__ import annotations

import io
import itertools

import pytest
from uitools import centre, find, find_all

from pytest_mobileagent.virtual_phone.framework.ui import dump as _dump
from pytest_mobileagent.virtual_phone.framework.ui import editing

NOTES = "com.simplemobiletools.notes.pro"
FIELD = f"{NOTES}:id/locked_note_title"


def sh(phone, line: str) -> str:
    result = phone.run_shell(line)
    assert result.exit_code == 0, (line, result.stderr)
    return result.stdout.decode()


def dump(phone) -> str:
    return phone.system.dump_xml()


def tap_node(phone, **kw) -> None:
    sh(phone, "input tap %d %d" % centre(find(dump(phone), **kw)))


def long_press_at(phone, x: int, y: int) -> None:
    sh(phone, f"input swipe {x} {y} {x} {y} 1000")  # a still swipe of 1 s is a long press


def field_view(phone):
    """The focused EditText object (for its geometry: where a character is on screen)."""
    view = phone.system._active_window().focused_view()
    assert view is not None and view.class_name == "android.widget.EditText"
    return view


def point_in_text(phone, offset: int) -> tuple[int, int]:
    """Screen point just right of the boundary before ``offset`` (inside the next character)."""
    x, top, line_h = editing.caret_position(field_view(phone), offset)
    return x + 4, top + line_h // 2


def toolbar(phone) -> list[dict]:
    """The selection toolbar window's nodes (uiautomator dumps only the active window)."""
    window = phone.system._toolbar
    if window is None:
        return []
    return find_all(_dump.dump_window(window.root, window.package))


def toolbar_button(phone, title: str) -> dict:
    return next(n for n in toolbar(phone) if n["content-desc"] == title and n["clickable"] == "true")


def open_rename(phone, events) -> None:
    sh(phone, f"pm clear {NOTES}")
    sh(phone, f"am start -n {NOTES}/.activities.MainActivity")
    tap_node(phone, desc="Create a new note")  # Rename is offered once there are two notes
    sh(phone, "input text Weekly%splan")
    tap_node(phone, id="android:id/button1")
    tap_node(phone, desc="More options")
    tap_node(phone, text="Rename note")
    node = find(dump(phone), id="locked_note_title")
    assert node["text"] == "Weekly plan" and node["focused"] == "true"
    events.clear()


@pytest.fixture
def events(fresh_phone):
    seen: list[dict] = []
    fresh_phone.add_event_sink(seen.append)
    return seen


def renamed_to(phone) -> list[str]:
    tap_node(phone, id="android:id/button1")
    return [n["text"] for n in find_all(dump(phone), cls="android.widget.TextView") if n["text"] == "Shopping list"]


def test_rename_by_long_press_select_all_and_typing(fresh_phone, events):
    phone = fresh_phone
    open_rename(phone, events)
    long_press_at(phone, *point_in_text(phone, 2))  # on "Weekly"
    assert field_view(phone).selection() == (0, 6)
    assert [n["text"] for n in toolbar(phone) if n["resource-id"] == "android:id/floating_toolbar_menu_item_text"] \
        == ["Cut", "Copy", "Select all"]  # nothing on the clipboard yet: no Paste
    sh(phone, "input tap %d %d" % centre(toolbar_button(phone, "Select all")))
    assert field_view(phone).selection() == (0, len("Weekly plan"))
    assert [n["content-desc"] for n in toolbar(phone) if n["clickable"] == "true"] == ["Cut", "Copy"]
    sh(phone, "input text 'Shopping list'")
    assert find(dump(phone), id="locked_note_title")["text"] == "Shopping list"
    assert phone.system._toolbar is None  # typing ended the selection mode
    assert [(e["type"], e["text"]) for e in events] == [
        ("long_click", ["Weekly plan"]),
        ("click", ["Select all"]),
        ("text_changed", ["Shopping list"]),
    ]
    assert renamed_to(phone) == ["Shopping list"]


def test_rename_by_del_keys(fresh_phone, events):
    phone = fresh_phone
    open_rename(phone, events)
    sh(phone, "input tap %d %d" % point_in_text(phone, 3))  # the cursor lands inside "Weekly"
    assert field_view(phone).cursor == 3
    sh(phone, "input keyevent MOVE_END")
    sh(phone, "input keyevent " + " ".join(["DEL"] * len("Weekly plan")))
    sh(phone, "input keyevent DEL")  # nothing left: no change, no event
    assert find(dump(phone), id="locked_note_title")["text"] == "Title"  # the hint shows
    sh(phone, "input text Shopping%slist")
    assert find(dump(phone), id="locked_note_title")["text"] == "Shopping list"
    changes = [e for e in events if e["type"] == "text_changed"]
    assert len(changes) == len("Weekly plan") + 1 and changes[-2]["text"] == [""]
    assert renamed_to(phone) == ["Shopping list"]


def test_rename_by_ctrl_a_and_by_forward_del(fresh_phone, events):
    phone = fresh_phone
    open_rename(phone, events)
    sh(phone, "input keycombination KEYCODE_CTRL_LEFT KEYCODE_A")
    assert field_view(phone).selection() == (0, len("Weekly plan"))
    assert phone.system._toolbar is None  # Ctrl+A alone shows no toolbar (TextView.ID_SELECT_ALL)
    sh(phone, "input keyevent DEL")  # removes the whole selection at once
    assert [e["text"] for e in events if e["type"] == "text_changed"] == [[""]]
    sh(phone, "input text Xhopping%slist")
    sh(phone, "input keyevent MOVE_HOME FORWARD_DEL")
    sh(phone, "input keycombination SHIFT_LEFT S")
    assert find(dump(phone), id="locked_note_title")["text"] == "Shopping list"
    assert renamed_to(phone) == ["Shopping list"]


def test_long_press_selects_the_word_under_the_finger_and_typing_replaces_it(fresh_phone, events):
    phone = fresh_phone
    open_rename(phone, events)
    long_press_at(phone, *point_in_text(phone, 9))  # inside "plan"
    assert field_view(phone).selection() == (7, 11)
    sh(phone, "input text list")
    assert find(dump(phone), id="locked_note_title")["text"] == "Weekly list"


def test_cut_copy_paste_through_the_toolbar_and_the_keys(fresh_phone, events):
    phone = fresh_phone
    open_rename(phone, events)
    long_press_at(phone, *point_in_text(phone, 1))
    sh(phone, "input tap %d %d" % centre(toolbar_button(phone, "Copy")))
    view = field_view(phone)
    assert phone.system.clipboard == "Weekly" and view.selection() == (6, 6)  # the cursor at its end
    sh(phone, "input keyevent MOVE_END PASTE")
    assert find(dump(phone), id="locked_note_title")["text"] == "Weekly planWeekly"
    long_press_at(phone, *point_in_text(phone, 9))  # "planWeekly" is one word
    assert [n["content-desc"] for n in toolbar(phone) if n["clickable"] == "true"] == \
        ["Cut", "Copy", "Paste", "Select all"]
    sh(phone, "input tap %d %d" % centre(toolbar_button(phone, "Cut")))
    assert find(dump(phone), id="locked_note_title")["text"] == "Weekly "
    assert phone.system.clipboard == "planWeekly"
    sh(phone, "input keycombination CTRL_LEFT A")
    sh(phone, "input keycombination CTRL_LEFT V")
    assert find(dump(phone), id="locked_note_title")["text"] == "planWeekly"


def test_the_toolbar_is_drawn_but_not_dumped_and_back_or_a_tap_ends_it(fresh_phone, events):
    from PIL import Image

    phone = fresh_phone
    open_rename(phone, events)
    before_xml = dump(phone)
    before = Image.open(io.BytesIO(phone.system.screenshot_png())).convert("RGB")
    long_press_at(phone, *point_in_text(phone, 2))
    button = toolbar_button(phone, "Select all")
    after = Image.open(io.BytesIO(phone.system.screenshot_png())).convert("RGB")
    box = tuple(int(v) for v in button["bounds"].replace("][", ",").strip("[]").split(","))
    assert before.crop(box).tobytes() != after.crop(box).tobytes()  # the toolbar is on screen
    # uiautomator dumps the active window: the dialog, with its field, not the toolbar
    assert "floating_toolbar" not in dump(phone)
    assert find(dump(phone), id="locked_note_title")["focused"] == "true"
    assert find_all(before_xml, id="button1") and find_all(dump(phone), id="button1")
    assert "mInputShown=true" in sh(phone, "dumpsys input_method")  # the dialog shows the keyboard
    sh(phone, "input keyevent BACK")  # the keyboard takes the first BACK: the selection stays
    assert "mInputShown=false" in sh(phone, "dumpsys input_method")
    assert phone.system._toolbar is not None
    sh(phone, "input keyevent BACK")  # the next BACK ends the selection, the dialog stays
    assert phone.system._toolbar is None and find_all(dump(phone), id="locked_note_title")
    assert field_view(phone).selection() == (6, 6)
    long_press_at(phone, *point_in_text(phone, 2))
    sh(phone, "input tap %d %d" % point_in_text(phone, 10))  # a tap in the text moves the cursor there
    assert phone.system._toolbar is None and field_view(phone).selection() == (10, 10)


def test_a_tap_places_the_cursor_at_the_nearest_character(fresh_phone, events):
    phone = fresh_phone
    open_rename(phone, events)
    phone.system.uptime_s = itertools.count(0.0, 1.0).__next__  # taps a second apart: no double taps
    view = field_view(phone)
    left, top, right, bottom = view.rect
    y = (top + bottom) // 2
    sh(phone, f"input tap {left + 2} {y}")
    assert field_view(phone).cursor == 0
    sh(phone, f"input tap {right - 5} {y}")  # right of the text: its end
    assert field_view(phone).cursor == len("Weekly plan")
    for offset in range(len("Weekly plan") + 1):
        x, top, line_h = editing.caret_position(field_view(phone), offset)
        sh(phone, f"input tap {x} {top + line_h // 2}")
        assert field_view(phone).cursor == offset


@pytest.mark.parametrize("args, message", [
    ("KEYCODE_A", "keycombination requires at least 2 keycodes"),
    ("CTRL_LEFT NOPE", "Unknown keycode: NOPE"),
    ("", "Argument expected after \"keycombination\""),
    ("-t x CTRL_LEFT A", "Error: Invalid arguments for command: keycombination"),
])
def test_keycombination_errors_as_android_prints_them(fresh_phone, args, message):
    result = fresh_phone.run_shell(f"input keycombination {args}")
    assert result.exit_code == 255
    assert result.stderr.decode() == ("Exception occurred while executing 'keycombination':\n"
                                      f"java.lang.IllegalArgumentException: {message}\n")
