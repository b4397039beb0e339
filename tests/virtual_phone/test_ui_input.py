"""Input dispatch: hit-testing, focus and text, keys, gestures, windows, activities, events."""

from __future__ import annotations

import pytest
from uitools import CALC, DEMO, bounds, centre, demo_system, find, find_all, long_press, tap, text_of, texts

from pytest_mobileagent.virtual_phone.apps import INSTALLED_APPS
from pytest_mobileagent.virtual_phone.framework.system import ActivityNotFound, AndroidSystem
from pytest_mobileagent.virtual_phone.kernel.clock import LOOK_MS, PhoneClock

HOME = ("com.android.launcher3", "com.android.launcher3.uioverride.QuickstepLauncher")
DEMO_MAIN = (DEMO, "com.example.demo.MainActivity")


def _data(system):
    return system.app(DEMO).data


# -- text fields ---------------------------------------------------------------

def test_tapping_a_field_focuses_it_and_typed_text_lands_there():
    events = []
    system = demo_system(events)
    assert find(system.dump_xml(), id="title_field")["focused"] == "false"
    tap(system, id="title_field")
    assert find(system.dump_xml(), id="title_field")["focused"] == "true"
    system.input_text("laundry")
    assert text_of(system, "title_field") == "laundry"
    assert _data(system).title == "laundry"  # on_text_changed reached the app
    assert text_of(system, "status") == "Tab 1: laundry"
    kinds = [(e["type"], e["id"].rsplit("/", 1)[-1]) for e in events[-4:]]
    # the tap shows the keyboard: its window is added (the demo's window pans: no content change)
    assert kinds == [("focus", "title_field"), ("click", "title_field"), ("windows_changed", ""),
                     ("text_changed", "title_field")]
    assert events[-1]["text"] == ["laundry"] and events[-1]["class"] == "android.widget.EditText"


def test_the_keyboard_coming_and_going_is_an_accessibility_event():
    """The IME window's arrival and removal is TYPE_WINDOWS_CHANGED; the window adjustResize
    shortens or lengthens sends TYPE_WINDOW_CONTENT_CHANGED from its decor column; a panned
    window's views keep their frames and send none (see ime.SoftKeyboard.accessibility_changes)."""
    from pytest_mobileagent.virtual_phone.framework.system import AndroidSystem

    notes = "com.simplemobiletools.notes.pro"
    events = []
    system = AndroidSystem(clock=PhoneClock(1_700_000_000_000), emit_event=events.append, apps=INSTALLED_APPS)
    system.start_activity(notes)
    assert system.ime.shown  # TextFragment shows it for the new note's field
    kinds = [(e["type"], e["package"], e["class"]) for e in events]
    start = kinds.index(("windows_changed", "", ""))
    assert kinds[start - 1][0] == "window_state"  # the window first, then the keyboard over it
    assert kinds[start + 1] == ("window_content", notes, "android.widget.LinearLayout")
    mark = len(events)
    system.key("BACK")  # hides the keyboard only: the app sees no key
    assert [(e["type"], e["package"], e["class"], e["text"]) for e in events[mark:]] == [
        ("windows_changed", "", "", []), ("window_content", notes, "android.widget.LinearLayout", [])]
    mark = len(events)
    system.key("BACK")  # nothing left to hide or resize: no window event of the keyboard's
    assert not [e for e in events[mark:] if e["type"] in ("windows_changed", "window_content")]

    events.clear()
    demo = demo_system(events)
    tap(demo, id="title_field")
    demo.key("BACK")
    assert [e["type"] for e in events if e["type"] in ("windows_changed", "window_content")] == [
        "windows_changed", "windows_changed"]


def test_empty_field_reports_its_hint_as_text():
    system = demo_system()
    assert text_of(system, "body_field") == "Body"
    tap(system, id="body_field")
    system.input_text("x")
    system.key("DEL")
    assert text_of(system, "body_field") == "Body"


def test_del_cursor_keys_and_multiline_enter():
    system = demo_system()
    tap(system, id="body_field")
    system.input_text("abc")
    system.key("DPAD_LEFT")
    system.key("DEL")             # deletes "b", the character before the cursor
    system.input_text("X")
    system.key("MOVE_END")
    system.key("ENTER")           # multi-line field: a new line
    system.input_text("d")
    assert text_of(system, "body_field") == "aXc\nd"


def test_enter_in_a_single_line_field_runs_the_ime_action():
    system = demo_system()
    tap(system, id="title_field")
    system.key("ENTER")
    assert _data(system).log == ["ime"]
    assert text_of(system, "title_field") == "Title"


def test_text_without_a_focused_field_is_dropped():
    system = demo_system()
    version = system.version
    system.input_text("nowhere")
    assert "nowhere" not in system.dump_xml()
    assert system.version == version


def test_key_characters_and_tab_move_focus():
    system = demo_system()
    tap(system, id="title_field")
    for key in ("H", "I", "SPACE", "7"):
        system.key(key)
    assert text_of(system, "title_field") == "hi 7"
    system.key("TAB")
    assert find(system.dump_xml(), id="body_field")["focused"] == "true"


# -- compound buttons ------------------------------------------------------------

def test_checkbox_switch_and_radio_group_toggle_and_survive_rebuilds():
    events = []
    system = demo_system(events)
    tap(system, id="remember")
    assert events[-1]["type"] == "click" and events[-1]["text"] == ["Remember"]
    tap(system, id="dark")
    tap(system, id="size_large")
    tap(system, id="title_field")
    system.input_text("rebuild please")   # several rebuilds later...
    xml = system.dump_xml()
    assert find(xml, id="remember")["checked"] == "true"    # unbound: kept by the window
    assert find(xml, id="dark")["checked"] == "true" and _data(system).dark is True
    assert find(xml, id="size_small")["checked"] == "false"
    assert find(xml, id="size_large")["checked"] == "true"
    assert find(xml, id="remember")["checkable"] == "true"


# -- hit-testing ----------------------------------------------------------------

def test_touch_delegate_area_larger_than_the_bounds_receives_taps():
    system = demo_system()
    node = find(system.dump_xml(), id="tiny")
    left, top, right, bottom = bounds(node)
    system.tap(left - 30, top - 30)        # outside the bounds, inside the touch delegate
    system.tap(right + 40, bottom + 10)
    assert _data(system).log == ["tiny", "tiny"]
    system.tap(left - 200, top)            # beyond the delegate: nothing
    assert _data(system).log == ["tiny", "tiny"]


def test_topmost_deepest_clickable_view_wins():
    system = demo_system()
    fab = find(system.dump_xml(), id="fab")
    system.tap(*centre(fab))
    assert system.dump_xml().count("New item") == 1   # the FAB, not what lies under it


@pytest.mark.parametrize("x, y", [(-5, 10), (5000, 5000), (1080, 2340), (0, 0), (10**9, -(10**9))])
def test_odd_coordinates_never_raise(x, y):
    system = demo_system()
    system.tap(x, y)
    system.long_press(x, y)
    system.swipe(x, y, -x, -y, 100)
    assert system.focused_window() == DEMO_MAIN


# -- long press and gestures ---------------------------------------------------

def test_long_press_runs_the_long_click_handler_and_emits_long_click():
    events = []
    system = demo_system(events)
    long_press(system, id="holder")
    assert _data(system).log == ["long"]
    assert events[-1]["type"] == "long_click" and events[-1]["text"] == ["Hold me"]


def test_same_point_swipe_is_a_tap_or_a_long_press_by_duration():
    system = demo_system()
    x, y = centre(find(system.dump_xml(), id="holder"))
    system.swipe(x, y, x + 3, y + 2, 100)
    system.swipe(x, y, x, y, 600)
    assert _data(system).log == ["short", "long"]


def test_long_press_on_a_view_without_long_click_is_a_click():
    system = AndroidSystem(clock=PhoneClock(0), apps=INSTALLED_APPS)
    system.start_activity(CALC)
    long_press(system, text="7", cls="android.widget.Button")
    assert text_of(system, "result") == "7"


def test_swipe_scrolls_lists_and_emits_scroll_events():
    events = []
    system = demo_system(events)
    tap(system, desc="More options")
    tap(system, text="Open list")
    before = [n["text"] for n in find_all(system.dump_xml(), id="item_title")]
    lst = find(system.dump_xml(), id="items_list")
    x, y = centre(lst)
    system.swipe(x, y + 600, x, y - 600, 300)
    after = [n["text"] for n in find_all(system.dump_xml(), id="item_title")]
    assert before[0] == "Item 0" and after[0] == "Item 7"   # 1200 px = 7.3 rows of 165 px
    assert events[-1]["type"] == "scroll" and events[-1]["id"].endswith(":id/items_list")
    for _ in range(10):
        system.swipe(x, y + 600, x, y - 600, 300)
    assert [n["text"] for n in find_all(system.dump_xml(), id="item_title")][-1] == "Item 39"
    tap(system, text="Item 39")
    assert _data(system).opened == [39]


# -- windows, keys, activities ---------------------------------------------------

def test_dialog_positive_button_reads_its_field_and_back_cancels():
    events = []
    system = demo_system(events)
    tap(system, id="fab")
    # A dialog's window-state event carries all its texts (Dialog does not set one itself, as Activity does).
    # the dialog's own event, then the keyboard's window that its stateAlwaysVisible shows
    assert events[-2]["type"] == "window_state" and events[-2]["text"][0] == "New item"
    assert events[-2]["text"][-2:] == ["Cancel", "OK"]
    assert events[-1]["type"] == "windows_changed"
    assert events[-3]["type"] == "click" and events[-3]["desc"] == "Add"
    tap(system, id="android:id/button1")        # empty name: the callback keeps the dialog open
    assert "New item" in texts(system.dump_xml())
    system.input_text("milk")                  # the dialog's field has focus from the start
    tap(system, id="android:id/button1")
    assert _data(system).items == ["milk"]
    assert "New item" not in texts(system.dump_xml())
    tap(system, id="fab")
    assert system.ime.shown  # its field has focus and the dialog asks for the keyboard
    system.key("BACK")  # the keyboard takes the first BACK
    assert not system.ime.shown and "New item" in texts(system.dump_xml())
    system.key("BACK")
    assert "New item" not in texts(system.dump_xml()) and system.focused_window() == DEMO_MAIN


def test_touch_outside_a_dialog_or_menu_cancels_it():
    system = demo_system()
    tap(system, id="fab")
    system.tap(540, 200)
    assert "Title" in texts(system.dump_xml())
    tap(system, desc="More options")
    system.tap(100, 1500)
    assert "Title" in texts(system.dump_xml())


def test_back_closes_activities_then_returns_home_and_home_keeps_the_task():
    system = demo_system()
    tap(system, desc="More options")
    tap(system, text="About")
    assert system.focused_window() == (DEMO, "com.simplemobiletools.commons.activities.AboutActivity")
    assert "Contributors" in texts(system.dump_xml())   # no FAQ items: Commons hides the Support section
    assert system.activity_stack()[:2] == [(DEMO, "com.simplemobiletools.commons.activities.AboutActivity"),
                                           DEMO_MAIN]
    system.key("BACK")
    assert system.focused_window() == DEMO_MAIN
    tap(system, id="title_field")
    system.input_text("kept")
    system.key("HOME")
    assert system.focused_window() == HOME
    tap(system, text="Demo")                   # the launcher resumes the existing task
    assert text_of(system, "title_field") == "kept"
    system.key("BACK")
    assert system.focused_window() == HOME
    assert system.activity_stack() == [HOME]


def test_navigation_bar_buttons_are_back_and_home():
    system = demo_system()
    tap(system, desc="More options")
    tap(system, text="Open list")
    system.tap(180, 2300)                      # the back triangle
    assert system.focused_window() == DEMO_MAIN
    system.tap(540, 2300)                      # the home circle
    assert system.focused_window() == HOME


def test_menu_key_opens_the_overflow_menu():
    system = demo_system()
    system.key("MENU")
    assert texts(system.dump_xml()) == ["Open list", "About"]


def test_start_activity_by_relative_name_and_unknown_names():
    system = demo_system()
    system.start_activity(DEMO, ".ListActivity")
    assert system.focused_window() == (DEMO, "com.example.demo.ListActivity")
    with pytest.raises(ActivityNotFound):
        system.start_activity("com.nope")
    with pytest.raises(ActivityNotFound):
        system.start_activity(DEMO, ".Nope")
    assert system.launcher_activity(DEMO) == "com.example.demo.MainActivity"
    assert system.launcher_activity("com.nope") is None
    assert system.installed_packages() == ["com.android.launcher3", DEMO]


def test_force_stop_keeps_data_and_clear_data_resets_it():
    system = demo_system()
    tap(system, id="dark")
    tap(system, id="remember")
    system.force_stop(DEMO)
    assert system.focused_window() == HOME
    system.start_activity(DEMO)
    xml = system.dump_xml()
    assert find(xml, id="dark")["checked"] == "true"          # app data survived
    assert find(xml, id="remember")["checked"] == "false"     # view state died with the activity
    assert system.clear_data(DEMO) is True
    assert system.focused_window() == HOME
    system.start_activity(DEMO)
    assert find(system.dump_xml(), id="dark")["checked"] == "false"
    assert system.clear_data("com.nope") is False


def test_version_moves_only_when_something_visible_changes():
    system = demo_system()
    v0 = system.version
    system.tap(540, 1800)                      # empty space
    system.key("VOLUME_UP")
    assert system.version == v0
    png = system.screenshot_png()
    assert system.screenshot_png() is png
    tap(system, id="remember")
    assert system.version == v0 + 1
    assert system.screenshot_png() != png


def test_events_carry_the_contract_schema():
    events = []
    system = demo_system(events)
    tap(system, id="search")  # finds the button in a dump: a look, which takes LOOK_MS (kernel/clock.py)
    event = events[-1]
    assert set(event) == {"v", "type", "package", "id", "text", "desc", "class", "time_ms"}
    assert event == {"v": 1, "type": "click", "package": DEMO, "id": f"{DEMO}:id/search", "text": [],
                     "desc": "Search", "class": "android.widget.Button", "time_ms": 1_700_000_000_000 + LOOK_MS}


def test_click_on_a_group_carries_its_descendants_texts():
    events = []
    system = AndroidSystem(clock=PhoneClock(0), emit_event=events.append, apps=INSTALLED_APPS)
    system.start_activity(CALC, ".activities.UnitConverterActivity")
    tap(system, id="top_unit_holder")
    click = [e for e in events if e["type"] == "click"][-1]
    assert click["text"] == ["Kilometer", "0", "km"] and click["id"] == f"{CALC}:id/top_unit_holder"
