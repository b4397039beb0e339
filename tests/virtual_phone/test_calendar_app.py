"""Simple Calendar Pro on the virtual phone, driven through the real adb server.

Taps, long presses, swipes, typing and keys go through `adb shell input`;
the screen is read with `uiautomator dump`; the accessibility events come
from the phone's event sink.  "Today" is the phone's clock, read with `date`.
"""

from __future__ import annotations

import datetime as dt

import pytest
from adb_ui import AdbUI, nested, structure
from uitools import bounds

CAL = "com.simplemobiletools.calendar.pro"
MAIN = f"{CAL}/{CAL}.activities.MainActivity"
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


@pytest.fixture
def cal(adb_device, phone):
    ui = AdbUI(adb_device, phone, CAL).launch()
    yield ui
    ui.close()


def today(ui: AdbUI) -> dt.date:
    return dt.date.fromisoformat(ui.device.shell("date +%Y-%m-%d").strip())


def add_event(ui: AdbUI, title: str) -> None:
    ui.tap(id="calendar_fab").tap(id="fab_event_label").type(title, id="event_title").tap(id="save")
    if ui.has(id="reminder_warning"):  # the reminder Disclaimer, once after the app's data was cleared
        ui.tap(id="android:id/button1")


def list_titles(ui: AdbUI) -> list[str]:
    return ui.texts("event_item_title")


# -- the monthly view --------------------------------------------------------------------


def test_starts_on_the_monthly_view_of_the_devices_month(cal):
    assert cal.activity() == MAIN
    assert cal.text("top_value") == MONTHS[today(cal).month - 1]
    assert len(cal.all(id="month_view_background")) == 42
    assert cal.one(id="calendar_fab")["content-desc"] == "New Event"
    assert not cal.has(id="go_to_today"), "'Go to today' shows only away from today"


def test_arrows_and_swipes_move_between_months(cal):
    now = today(cal)
    following = MONTHS[now.month % 12]
    cal.tap(id="top_right_arrow")
    assert cal.text("top_value").startswith(following)
    assert cal.has(id="go_to_today")
    pager = cal.one(id="fragment_months_viewpager")
    x, y = AdbUI.centre(pager)
    cal.swipe(x + 300, y, x - 300, y)           # finger to the left: the month after
    assert cal.text("top_value").startswith(MONTHS[(now.month + 1) % 12])
    cal.swipe(x - 300, y, x + 300, y).swipe(x - 300, y, x + 300, y)
    cal.tap(id="top_left_arrow")
    assert cal.text("top_value").startswith(MONTHS[(now.month - 2) % 12])
    cal.tap(id="go_to_today")
    assert cal.text("top_value") == MONTHS[now.month - 1]
    assert [e["type"] for e in cal.events].count("scroll") == 3


def test_a_day_of_the_month_opens_its_daily_view(cal):
    add_event(cal, "dentist")
    cells = cal.all(id="month_view_background")
    now = today(cal)
    first = dt.date(now.year, now.month, 1)
    # The grid starts on the Sunday on or before the 1st (en-US: weeks start on Sunday).
    offset = (first.weekday() + 1) % 7 + now.day - 1
    cal.device.shell("input tap %d %d" % AdbUI.centre(cells[offset]))
    assert cal.text("top_value") == f"{MONTHS[now.month - 1]} {now.day} ({now.strftime('%A')})"
    assert list_titles(cal) == ["dentist"]
    assert cal.has(id="day_events")


def test_monthly_and_daily_view_lists_the_tapped_days_events(cal):
    add_event(cal, "dentist")
    cal.tap(id="change_view").tap(text="Monthly and daily view")
    now = today(cal)
    assert cal.text("month_day_selected_day_label") == f"{MONTHS[now.month - 1]} {now.day}"
    assert list_titles(cal) == ["dentist"]
    cells = cal.all(id="month_view_background")
    first = dt.date(now.year, now.month, 1)
    offset = (first.weekday() + 1) % 7 + now.day - 1
    other = offset + 1 if now.day < 28 else offset - 1
    cal.device.shell("input tap %d %d" % AdbUI.centre(cells[other]))
    assert cal.has(id="month_day_no_events_placeholder") and cal.has(id="month_day_view_wrapper")
    assert cal.activity() == MAIN


# -- change view ---------------------------------------------------------------------------


@pytest.mark.parametrize("label, shows", [
    ("Daily view", "day_events"), ("Weekly view", "week_view_holder"), ("Yearly view", "month_12_holder"),
    ("Simple event list", "calendar_empty_list_placeholder"), ("Monthly view", "month_view_wrapper"),
    ("Monthly and daily view", "month_day_selected_day_label")])
def test_change_view_offers_the_five_views(cal, label, shows):
    cal.tap(id="change_view")
    options = [n["text"] for n in cal.all(cls="android.widget.RadioButton")]
    assert options == ["Daily view", "Weekly view", "Monthly view", "Monthly and daily view", "Yearly view",
                       "Simple event list"]
    assert cal.one(text="Monthly view")["checked"] == "true"
    cal.tap(text=label)
    assert not cal.has(id="dialog_radio_group")
    assert cal.has(id=shows)


def test_the_chosen_view_survives_a_restart_and_back_cancels_the_dialog(cal):
    cal.tap(id="change_view").key("BACK")
    assert cal.has(id="month_view_wrapper")
    cal.tap(id="change_view").tap(text="Yearly view")
    cal.device.shell(f"am force-stop {CAL}")
    cal.device.shell(f"monkey -p {CAL} -c android.intent.category.LAUNCHER 1")
    assert cal.text("top_value") == str(today(cal).year)


def test_the_yearly_view_is_6_23_1s_grid_of_small_months(cal):
    """6.23.1 fragment_year.xml: the `calendar_wrapper` GridLayout holds twelve small_month_view_holder.xml
    includes `month_<n>_holder`, each a `month_label` (textAllCaps: upper case in the dump) over the
    clickable SmallMonthView `small_month_view`, which paints its days (none of them in the dump).
    `month_<n>` and `month_<n>_label` belong to 6.18.3-6.22.2 only.  A month opens the monthly view
    (YearFragment.setupMonths: openMonthFromYearly)."""
    cal.tap(id="change_view").tap(text="Yearly view")
    grid = cal.one(id="calendar_wrapper")
    assert grid["class"] == "android.widget.GridLayout"
    ids = [n["resource-id"].rpartition("/")[2] for n in cal.nodes()]
    start = ids.index("calendar_wrapper")
    expected = [i for n in range(1, 13) for i in (f"month_{n}_holder", "month_label", "small_month_view")]
    assert ids[start + 1:start + 1 + 36] == expected
    assert "month_1" not in ids and "month_1_label" not in ids
    assert cal.texts("month_label") == [name.upper() for name in MONTHS]
    months = cal.all(id="small_month_view")
    assert {n["class"] for n in months} == {"android.view.View"} and {n["clickable"] for n in months} == {"true"}
    holders = [bounds(n) for n in cal.all(id="month_1_holder") + cal.all(id="month_2_holder")
               + cal.all(id="month_4_holder")]
    assert holders[0][1] == holders[1][1] and holders[2][1] > holders[0][3] - 1, "3 columns, row by row"
    cal.tap(id="small_month_view")
    assert cal.has(id="month_view_wrapper") and cal.text("top_value").startswith("January")


# -- the FAB, the editors ----------------------------------------------------------------------


def test_fab_offers_event_and_task_and_back_folds_it(cal):
    cal.tap(id="calendar_fab")
    assert cal.text("fab_event_label") == "Event" and cal.text("fab_task_label") == "Task"
    cal.key("BACK")
    assert not cal.has(id="fab_task_label") and cal.activity() == MAIN
    cal.tap(id="calendar_fab").tap(id="fab_extended_overlay")
    assert not cal.has(id="fab_event_label")


def test_new_event_rejects_an_empty_title_then_saves(cal):
    cal.tap(id="calendar_fab").tap(text="Event")
    assert cal.activity() == f"{CAL}/{CAL}.activities.EventActivity"
    title = cal.one(id="event_title")
    assert title["focused"] == "true" and title["text"] == "Title"
    assert cal.text("event_start_date") == f"{MONTHS[today(cal).month - 1]} {today(cal).day} {today(cal).year}"
    cal.tap(id="save").tap(id="android:id/button1")  # the reminder Disclaimer comes before the title check
    assert cal.activity().endswith(".EventActivity"), "an empty title must not save"
    cal.device.shell("input text laundry")  # the title field has the focus
    cal.tap(id="event_all_day_holder")
    assert cal.one(id="event_all_day")["checked"] == "true"
    assert not cal.has(id="event_start_time"), "an all-day event has no times"
    cal.tap(id="save")
    assert cal.activity() == MAIN
    kinds = [(e["type"], e["id"].split("/")[-1], e["text"]) for e in cal.events]
    save = kinds.index(("click", "save", []), kinds.index(("text_changed", "event_title", ["laundry"])))
    assert kinds[save + 1] == ("window_state", "", ["Calendar"])
    cal.tap(id="change_view").tap(text="Simple event list")
    assert list_titles(cal) == ["laundry"]
    assert cal.texts("event_item_time") == ["All-day"]


def test_leaving_the_editor_unsaved_discards_the_event(cal):
    cal.tap(id="calendar_fab").tap(text="Event").type("draft", id="event_title")
    cal.tap(cls="android.widget.ImageButton")  # the toolbar's up arrow
    assert cal.activity() == MAIN
    cal.tap(id="change_view").tap(text="Simple event list")
    assert cal.has(id="calendar_empty_list_placeholder")


def test_new_task_with_description_and_all_day(cal):
    cal.tap(id="calendar_fab").tap(id="fab_task_label")
    assert cal.activity() == f"{CAL}/{CAL}.activities.TaskActivity"
    cal.type("laundry", id="task_title").type("wash all my clothes", id="task_description")
    cal.tap(id="task_all_day_holder")
    assert cal.one(id="task_all_day")["checked"] == "true"
    cal.tap(id="save").tap(id="android:id/button1")  # TaskActivity asks the reminder Disclaimer too
    cal.tap(id="change_view").tap(text="Simple event list")
    assert list_titles(cal) == ["laundry"]
    assert cal.texts("event_item_description") == ["wash all my clothes"]
    assert cal.has(id="event_item_task_image")
    cal.tap(text="laundry")
    assert cal.activity().endswith(".TaskActivity")
    assert cal.text("task_description") == "wash all my clothes"


def test_date_picker_moves_the_event(cal):
    cal.tap(id="calendar_fab").tap(text="Event").type("trip", id="event_title")
    cal.tap(id="event_start_date").tap(id="android:id/next")
    now = today(cal)
    nxt = (dt.date(now.year, now.month, 28) + dt.timedelta(days=7)).replace(day=3)
    cal.tap(text="3").tap(text="OK")
    assert cal.text("event_start_date") == f"{MONTHS[nxt.month - 1]} 3 {nxt.year}"
    assert cal.text("event_end_date") == cal.text("event_start_date")


def test_first_save_asks_the_reminder_disclaimer_once(cal):
    """EventActivity.saveCurrentEvent (6.23.1): with a reminder set and Config.wasAlarmWarningShown false,
    ReminderWarningDialog ("Disclaimer", OK / Settings) comes before the save; OK saves."""
    cal.tap(id="calendar_fab").tap(id="fab_event_label").type("first", id="event_title").tap(id="save")
    assert cal.has(id="reminder_warning") and cal.has(text="Disclaimer") and cal.has(text="Settings")
    cal.key("BACK")  # cancels the dialog: nothing saved, the editor stays
    assert cal.activity().endswith(".EventActivity") and not cal.has(id="reminder_warning")
    cal.tap(id="save").tap(id="android:id/button1")
    assert cal.activity().endswith(".MainActivity")
    add_event(cal, "second")  # acknowledged: saved at once
    assert cal.activity().endswith(".MainActivity") and not cal.has(id="reminder_warning")
    cal.tap(id="calendar_fab").tap(id="fab_event_label").tap(id="event_reminder_1")
    assert cal.has(text="No reminder") and cal.has(text="10 minutes before") and cal.has(text="1 hour before")
    cal.tap(text="1 hour before")
    assert cal.text("event_reminder_1") == "1 hour before"


# -- search ------------------------------------------------------------------------------------


def test_search_lists_matching_events(cal):
    for title in ("laundry", "meeting"):
        add_event(cal, title)
    cal.tap(id="top_toolbar_search")
    assert cal.has(id="search_placeholder_2"), "fewer than two characters: the hint"
    cal.device.shell("input text l")
    assert cal.has(id="search_placeholder_2")
    cal.device.shell("input text aun")
    assert cal.texts("event_item_title") == ["laundry"]
    cal.key("DEL").key("DEL").key("DEL").device.shell("input text xyz")
    assert cal.text("search_placeholder") == "No items found."
    cal.key("BACK")  # the first BACK hides the keyboard
    cal.key("BACK")
    assert not cal.has(id="search_holder") and cal.text("top_toolbar_search") == "Search"
    assert cal.activity() == MAIN


# -- deleting from the simple event list --------------------------------------------------------


def test_long_press_selects_and_delete_asks_first(cal):
    for title in ("Laundry", "Cooking", "Meeting"):
        add_event(cal, title)
    cal.tap(id="change_view").tap(text="Simple event list")
    cal.long_press(text="Laundry")
    assert cal.text("actionbar_title") == "1 / 3"
    cal.tap(text="Meeting")
    assert cal.text("actionbar_title") == "2 / 3"
    cal.tap(id="cab_delete")
    assert cal.has(id="delete_event_description")
    cal.tap(text="No")
    assert list_titles(cal) == ["Laundry", "Cooking", "Meeting"]
    cal.tap(id="cab_delete").tap(text="Yes")
    assert list_titles(cal) == ["Cooking"]
    assert not cal.has(id="actionbar_title")
    long_clicks = [e for e in cal.events if e["type"] == "long_click"]
    assert [e["text"][0] for e in long_clicks] == ["Laundry"]


def test_back_ends_the_selection_without_deleting(cal):
    add_event(cal, "Cooking")
    cal.tap(id="change_view").tap(text="Simple event list")
    cal.long_press(text="Cooking").key("BACK")
    assert not cal.has(id="actionbar_title") and list_titles(cal) == ["Cooking"]
    cal.tap(text="Cooking")  # outside a selection a tap opens the event
    assert cal.activity().endswith(".EventActivity") and cal.text("event_title") == "Cooking"


# -- settings and about ------------------------------------------------------------------------------


def test_start_week_on_monday(cal):
    cal.tap(id="settings")
    assert cal.text("settings_start_week_on") == "Sunday"
    cal.tap(id="settings_start_week_on_holder")
    days = [n["text"] for n in cal.all(cls="android.widget.RadioButton")]
    assert days == ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    cal.tap(text="Monday")
    assert cal.text("settings_start_week_on") == "Monday"
    cal.key("BACK").tap(id="change_view").tap(text="Weekly view")
    now = today(cal)
    monday = now - dt.timedelta(days=now.weekday())
    assert cal.text("week_view_month_label") == MONTHS[monday.month - 1][:3]


def test_snooze_time_picker_and_a_custom_value(cal):
    cal.tap(id="settings")
    scroller = cal.one(id="settings_nested_scrollview")
    x, y = AdbUI.centre(scroller)
    cal.swipe(x, y + 500, x, y - 500)
    assert cal.text("settings_snooze_time") == "10 minutes"
    cal.tap(id="settings_snooze_time_holder")
    assert [n["text"] for n in cal.all(cls="android.widget.RadioButton")] == [
        "1 minute", "5 minutes", "10 minutes", "30 minutes", "1 hour", "Custom"]
    # Commons' CustomIntervalPickerDialog: a value and a unit; setupSnoozeTime keeps it / 60 minutes
    cal.tap(text="Custom").type("90", id="dialog_custom_interval_value").tap(text="OK")
    assert cal.text("settings_snooze_time") == "1 hour, 30 minutes"   # formatMinutesToTimeString
    cal.tap(id="settings_snooze_time_holder").tap(text="Custom")
    cal.key("BACK").key("BACK")  # the first BACK hides the keyboard, the second cancels the dialog
    assert cal.text("settings_snooze_time") == "1 hour, 30 minutes"
    cal.tap(id="settings_snooze_time_holder").tap(text="1 minute")
    assert cal.text("settings_snooze_time") == "1 minute"
    cal.tap(id="settings_use_same_snooze_holder")
    assert not cal.has(id="settings_snooze_time"), "without a common snooze time there is none to pick"


def test_about_from_more_options(cal):
    cal.tap(desc="More options")
    entries = [n["text"] for n in cal.all(id="title")]
    assert entries[-1] == "About" and "Go to date" in entries
    cal.tap(id="title", text="About")
    assert cal.activity() == f"{CAL}/com.simplemobiletools.commons.activities.AboutActivity"
    cal.key("BACK")
    assert cal.activity() == MAIN


def test_typing_with_no_field_focused_changes_nothing(cal):
    before = cal.device.dump_hierarchy()
    cal.device.shell("input text hello")
    assert cal.device.dump_hierarchy() == before


# -- dump fidelity ----------------------------------------------------------------------------------

#: (nearest named ancestor, class, id) facts from the recorded screens of the app (DroidTask, July
#: 2023); the Pro layouts name two ancestors the older build left unnamed: the months' ViewPager
#: (`fragment_months_viewpager`) and the FAB's ConstraintLayout (`main_holder`).
RECORDED_MONTH = {
    ("fragment_months_viewpager", "android.widget.RelativeLayout", "month_calendar_holder"),
    ("month_calendar_holder", "android.widget.ImageView", "top_left_arrow"),
    ("month_calendar_holder", "android.widget.TextView", "top_value"),
    ("month_calendar_holder", "android.widget.ImageView", "top_right_arrow"),
    ("month_calendar_holder", "android.widget.FrameLayout", "month_view_wrapper"),
    ("month_view_wrapper", "android.view.View", "month_view"),
    ("month_view_wrapper", "android.view.View", "month_view_background"),
    ("main_holder", "android.widget.ImageButton", "calendar_fab"),
}
RECORDED_SETTINGS = {
    ("settings_holder", "android.widget.RelativeLayout", "settings_snooze_time_holder"),
    ("settings_snooze_time_holder", "android.widget.TextView", "settings_snooze_time_label"),
    ("settings_snooze_time_holder", "android.widget.TextView", "settings_snooze_time"),
    ("settings_holder", "android.widget.RelativeLayout", "settings_use_same_snooze_holder"),
}
RECORDED_RADIO_DIALOG = {
    ("custom", "android.widget.ScrollView", "dialog_radio_holder"),
    ("dialog_radio_holder", "android.widget.RadioGroup", "dialog_radio_group"),
}
ATTRIBUTES = ("index,text,resource-id,class,package,content-desc,checkable,checked,clickable,enabled,focusable,"
              "focused,scrollable,long-clickable,password,selected,bounds")


def _facts(cal) -> set:
    return structure(nested(cal.device.dump_hierarchy()))


def test_dump_matches_the_recorded_screens(cal):
    month = nested(cal.device.dump_hierarchy())
    assert RECORDED_MONTH <= structure(month)
    cells = [n for n in month if n["id"] == "month_view_background"]
    assert len(cells) == 42 and all(n["keys"] == ATTRIBUTES for n in month)
    cal.tap(id="change_view")
    assert RECORDED_RADIO_DIALOG <= _facts(cal)
    cal.key("BACK").tap(id="settings")
    cal.swipe(540, 1700, 540, 700)
    assert RECORDED_SETTINGS <= _facts(cal)
    # the Pro app's own ids (absent from the older recording): top search, tasks, day_events
    cal.key("BACK")
    assert ("top_toolbar_holder", "android.widget.EditText", "top_toolbar_search") in _facts(cal)
