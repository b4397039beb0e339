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
