"""Taps that do something on a real phone do the same here: Commons' Language row and password
dialogs, Calculator's widget colours, Calendar's all-day and custom reminders.

Driven through the real adb server, as an agent would.
"""

from __future__ import annotations

import pytest
from adb_ui import AdbUI

CALC = "com.simplemobiletools.calculator"
CALENDAR = "com.simplemobiletools.calendar.pro"
PICKER = "com.android.settings/com.android.settings.localepicker.AppLocalePickerActivity"


@pytest.fixture
def calculator(adb_device, phone):
    ui = AdbUI(adb_device, phone, CALC).launch()
    yield ui
    ui.close()


@pytest.fixture
def calendar(adb_device, phone):
    ui = AdbUI(adb_device, phone, CALENDAR)
    ui.sh(f"am force-stop {CALENDAR}")
    ui.sh(f"pm clear {CALENDAR}")
    ui.sh(f"am start -n {CALENDAR}/.activities.SettingsActivity")
    yield ui
    ui.close()


def open_calculator_settings(ui: AdbUI) -> AdbUI:
    return ui.tap(desc="Settings")


def test_language_row_opens_settings_app_language_screen_and_system_default_returns(calculator):
    open_calculator_settings(calculator).tap(text="Language")
    assert calculator.activity() == PICKER
    if calculator.texts("android:id/language_picker_item") != ["System default"]:
        # the shared phone keeps a language another test's crawl picked (the choice is the
        # system's, not the app's data): back to the system's language first
        calculator.tap(text="System default").tap(text="Language")
    nodes = calculator.nodes()
    assert {n["package"] for n in nodes} == {"com.android.settings"}
    assert calculator.has(text="App language")
    assert calculator.one(id="com.android.settings:id/entity_header_title")["text"] == "Calculator"
    headers = calculator.texts("android:id/language_picker_header")
    assert headers == ["Suggested", "All languages"]
    # "System default" is the app's current choice: the current-locale item with its check mark
    assert calculator.texts("android:id/language_picker_item") == ["System default"]
    assert calculator.has(id="android:id/imageView")
    rows = calculator.texts("android:id/locale")
    assert rows[0] == "English (United States)"
    # the app's localeConfig (Commons' locale_config.xml), each language named in itself, in collation
    # order (Čeština after Català); the rest is below the fold
    shown = rows[1:]
    assert len(shown) >= 5
    assert shown == ["Azərbaycan", "Brezhoneg", "Català", "Čeština", "Cymraeg", "Dansk", "Deutsch", "Eesti",
                     "English", "Esperanto", "Español", "Euskara"][:len(shown)]
    assert calculator.has(desc="Search") and calculator.has(desc="Navigate up")
    calculator.tap(text="System default")
    assert calculator.activity() == f"{CALC}/{CALC}.activities.SettingsActivity"


def test_picking_the_suggested_language_marks_it_current_next_time(calculator):
    open_calculator_settings(calculator).tap(text="Language").tap(text="English (United States)")
    assert calculator.activity() == f"{CALC}/{CALC}.activities.SettingsActivity"
    calculator.tap(text="Language")
    assert calculator.texts("android:id/language_picker_item") == ["English (United States)"]
    assert "System default" in calculator.texts("android:id/locale")
    calculator.tap(text="System default")                # back to the system's language
    calculator.tap(text="Language")
    assert calculator.texts("android:id/language_picker_item") == ["System default"]
    calculator.tap(desc="Navigate up")
    assert calculator.activity() == f"{CALC}/{CALC}.activities.SettingsActivity"


def test_language_search_filters_by_own_and_english_names(calculator):
    open_calculator_settings(calculator).tap(text="Language").tap(desc="Search")
    calculator.type("germ")
    assert calculator.texts("android:id/locale") == ["Deutsch"]
    assert not calculator.has(id="android:id/language_picker_header")
    calculator.key("BACK")                               # the keyboard
    calculator.key("BACK")                               # the SearchView collapses
    assert calculator.activity() == PICKER and calculator.has(text="Suggested")
    calculator.key("BACK")
    assert calculator.activity() == f"{CALC}/{CALC}.activities.SettingsActivity"


def test_calendar_language_row_opens_the_picker_for_calendar(calendar):
    calendar.tap(text="Language")
    assert calendar.activity() == PICKER
    assert calendar.one(id="com.android.settings:id/entity_header_title")["text"] == "Calendar"
    calendar.key("BACK")
    assert calendar.activity() == f"{CALENDAR}/{CALENDAR}.activities.SettingsActivity"


FILES = "com.simplemobiletools.filemanager.pro"


@pytest.fixture
def file_manager_settings(adb_device, phone):
    ui = AdbUI(adb_device, phone, FILES).launch()
    ui.tap(desc="More options").tap(text="Settings")
    yield ui
    ui.close()


def scroll_to(ui: AdbUI, **criteria) -> AdbUI:
    """Swipe the screen up until a node matching ``criteria`` shows (at most ten swipes)."""
    for _ in range(10):
        if ui.has(**criteria):
            return ui
        ui.swipe(540, 1800, 540, 900)
    raise AssertionError(f"{criteria} never showed")


def press_pin(ui: AdbUI, digits: str) -> None:
    for digit in digits:
        ui.tap(id=f"pin_{digit}")
    ui.tap(id="pin_ok")


def test_password_protection_row_sets_a_pin_with_securitydialog_and_clears_it(file_manager_settings):
    ui = scroll_to(file_manager_settings, id="settings_app_password_protection_holder")
    assert ui.one(id="settings_app_password_protection")["checked"] == "false"
    ui.tap(id="settings_app_password_protection_holder")
    # SecurityDialog with every tab: Pattern (first) and PIN; no biometric tab on the emulator
    assert ui.has(id="dialog_tab_layout")
    assert ui.has(text="Insert pattern") and ui.has(id="pattern_lock_view")
    assert ui.has(desc="Pattern") and ui.has(desc="PIN") and not ui.has(desc="Biometrics")
    ui.tap(desc="PIN")
    assert ui.text("pin_lock_title") == "Enter PIN"
    press_pin(ui, "12")                                   # too short: stays, cleared
    assert ui.text("pin_lock_title") == "Enter PIN" and ui.text("pin_lock_current_pin") == ""
    for digit in "1234":
        ui.tap(id=f"pin_{digit}")
    assert ui.text("pin_lock_current_pin") == "****"
    ui.tap(id="pin_c")
    assert ui.text("pin_lock_current_pin") == "***"
    ui.tap(id="pin_4").tap(id="pin_ok")
    assert ui.text("pin_lock_title") == "Repeat PIN"
    press_pin(ui, "9999")                                 # a mismatch starts over
    assert ui.text("pin_lock_title") == "Wrong PIN"
    press_pin(ui, "1234")
    press_pin(ui, "1234")
    assert ui.text("message") == ("Password setup successfully. Please reinstall the app in case you forget "
                                  "it.")
    ui.tap(text="OK")
    assert ui.one(id="settings_app_password_protection")["checked"] == "true"
    # turning it off asks for that PIN alone: no tabs
    ui.tap(id="settings_app_password_protection_holder")
    assert not ui.has(id="dialog_tab_layout") and ui.text("pin_lock_title") == "Enter PIN"
    press_pin(ui, "1111")
    assert ui.text("pin_lock_title") == "Wrong PIN"
    press_pin(ui, "1234")
    assert not ui.has(id="pin_lock_holder")
    assert ui.one(id="settings_app_password_protection")["checked"] == "false"


def test_securitydialog_cancel_changes_nothing(file_manager_settings):
    ui = scroll_to(file_manager_settings, id="settings_password_protection_holder")
    ui.tap(id="settings_password_protection_holder").tap(desc="PIN")
    press_pin(ui, "1234")
    ui.tap(text="Cancel")
    assert not ui.has(id="pin_lock_holder")
    assert ui.one(id="settings_password_protection")["checked"] == "false"
    ui.tap(id="settings_password_protection_holder")
    ui.key("BACK")
    assert not ui.has(id="dialog_holder")
    assert ui.one(id="settings_password_protection")["checked"] == "false"


def test_customize_widget_colors_opens_widget_configuration_and_ok_stores_a_picked_colour(calculator):
    open_calculator_settings(calculator).tap(text="Customize widget colors")
    assert calculator.activity() == f"{CALC}/{CALC}.activities.WidgetConfigureActivity"
    assert calculator.text("formula") == "15,937*5" and calculator.text("result") == "79,685"
    assert calculator.has(id="btn_reset") and calculator.has(id="config_bg_seekbar")
    calculator.tap(id="config_bg_color")                # Commons' ColorPickerDialog, black background
    assert calculator.text("color_picker_old_hex") == "#000000"
    assert calculator.text("color_picker_new_hex") == "000000"
    calculator.replace("FF0000", id="color_picker_new_hex")
    calculator.key("BACK")                               # the keyboard
    calculator.tap(text="OK")
    calculator.tap(id="config_bg_color")
    assert calculator.text("color_picker_old_hex") == "#FF0000"
    calculator.tap(text="Cancel")
    calculator.tap(id="config_save")
    assert calculator.activity() == f"{CALC}/{CALC}.activities.SettingsActivity"
    calculator.tap(text="Customize widget colors").tap(id="config_bg_color")
    assert calculator.text("color_picker_old_hex") == "#FF0000"   # stored by OK (storeWidgetColors)
    calculator.tap(text="Cancel")
    calculator.key("BACK")                               # leaving without OK keeps the stored colours
    calculator.tap(text="Customize widget colors").tap(id="config_text_color")
    assert calculator.text("color_picker_old_hex") == "#F57C00"


def test_widget_configuration_started_bare_finishes_at_once(calculator):
    calculator.sh(f"am start -n {CALC}/.activities.WidgetConfigureActivity")
    assert calculator.activity() == f"{CALC}/{CALC}.activities.MainActivity"


@pytest.fixture
def new_event(adb_device, phone):
    """A new event in a fresh Calendar, the reminder Disclaimer acknowledged."""
    ui = AdbUI(adb_device, phone, CALENDAR).launch()
    ui.tap(id="calendar_fab").tap(id="fab_event_label").tap(id="event_reminder_1")
    ui.tap(id="android:id/button1")                      # Disclaimer: OK, then the picker
    ui.key("BACK")
    yield ui
    ui.close()


def test_reminder_custom_asks_value_and_unit(new_event):
    ui = new_event
    assert ui.text("event_reminder_1") == "10 minutes before"
    ui.tap(id="event_reminder_1")
    assert not ui.has(text="During the day at hh:mm")   # not an all-day event
    ui.tap(text="Custom")
    assert ui.has(id="dialog_custom_interval_value") and ui.has(id="dialog_radio_minutes")
    assert not ui.has(id="dialog_radio_seconds")
    ui.type("2", id="dialog_custom_interval_value").tap(id="dialog_radio_hours")
    ui.tap(text="OK")
    assert ui.text("event_reminder_1") == "2 hours before"
    ui.tap(id="event_reminder_1").tap(text="Custom")
    ui.type("14", id="dialog_custom_interval_value").tap(id="dialog_radio_days").tap(text="OK")
    assert ui.text("event_reminder_1") == "2 weeks before"  # getFormattedSeconds: whole weeks first
    ui.tap(id="event_reminder_1")
    assert ui.has(text="2 weeks before")                  # the current value joins the choices


def test_all_day_event_offers_during_the_day_with_the_time_picker(new_event):
    ui = new_event
    ui.tap(id="event_all_day_holder").tap(id="event_reminder_1")
    options = [n["text"] for n in ui.all(cls="android.widget.RadioButton")]
    assert options[-2:] == ["Custom", "During the day at hh:mm"]
    ui.tap(text="During the day at hh:mm")
    assert ui.has(id="android:id/radial_picker") and ui.has(id="android:id/hours")
    ui.tap(desc="Switch to text input mode for the time input.")
    assert ui.has(text="Type in time")
    ui.replace("9", id="android:id/input_hour").replace("30", id="android:id/input_minute")
    ui.key("BACK")                                        # the keyboard
    ui.tap(text="OK")
    assert ui.text("event_reminder_1") == "During the day at 09:30"
    ui.tap(id="event_reminder_1")
    assert ui.has(text="During the day at 09:30") and ui.has(text="During the day at hh:mm")


def test_calendar_customize_notifications_opens_settings_notification_page(calendar):
    calendar.tap(text="Customize notifications")
    assert calendar.activity() == "com.android.settings/com.android.settings.Settings$AppNotificationSettingsActivity"
    calendar.key("BACK")
    assert calendar.activity() == f"{CALENDAR}/{CALENDAR}.activities.SettingsActivity"
