"""Android's TimePickerDialog (android.app.TimePickerDialog) as Android 14 draws it.

Views are the framework's (core/res/res/layout/time_picker_dialog.xml,
time_picker_material.xml, time_picker_text_input_material.xml), so their ids
are in the android namespace:

- clock mode (the theme's default): the header (``time_header``) with the hour
  (``hours``), the separator and the minutes (``minutes``), the AM / PM radio
  buttons (``am_label``, ``pm_label``) in 12-hour format, the clock face
  (``radial_picker``), and the keyboard toggle (``toggle_mode``, "Switch to text
  input mode for the time input.");
- text input mode: "Type in time", the hour and minute fields (``input_hour``,
  ``input_minute``) and, in 12-hour format, the AM / PM spinner (``am_pm_spinner``);
  the toggle goes back ("Switch to clock mode for the time input.");
- Cancel / OK (``button2`` / ``button1``): OK calls ``on_set(hour, minute)``.

Tapping the hour or the minutes chooses which the clock face sets; AM / PM switch
the half of the day.  Not modelled: picking a number on the clock face (a tap here
carries no position; the text input mode sets any time).
"""

from __future__ import annotations

from typing import Callable

from .views import (ACCENT, MATCH, WRAP, Column, EditText, ImageView, LinearLayout, RadioButton, Row, TextView,
                        View, dp, sp)
from ..app import Activity, Dialog

__all__ = ["TimePickerDialog"]


class TimePickerDialog:
    def __init__(self, activity: Activity, hour: int, minute: int, is_24_hour: bool,
                 on_set: Callable[[int, int], object]) -> None:
        self.hour, self.minute = hour % 24, minute % 60
        self.is_24_hour = is_24_hour
        self.text_mode = False
        self.on_set = on_set
        self.dialog = activity.show_dialog(Dialog(body=self.build, positive=("OK", self._ok), negative="Cancel"))

    def _ok(self, dialog: Dialog) -> bool | None:
        if self.text_mode:
            hour_text = dialog.find("android:id/input_hour").text.strip()
            minute_text = dialog.find("android:id/input_minute").text.strip()
            top = 23 if self.is_24_hour else 12
            low = 0 if self.is_24_hour else 1
            if not (hour_text.isdigit() and low <= int(hour_text) <= top and minute_text.isdigit()
                    and int(minute_text) < 60):
                return False  # TextInputTimePickerView.validateInput: the error shows, the dialog stays
            hour = int(hour_text)
            if not self.is_24_hour:
                hour = hour % 12 + (12 if self.hour >= 12 else 0)
            self.hour, self.minute = hour, int(minute_text)
        self.on_set(self.hour, self.minute)
        return None

    def _shown_hour(self) -> int:
        return self.hour if self.is_24_hour else (self.hour % 12 or 12)

    def _set_pm(self, pm: bool) -> None:
        self.hour = self.hour % 12 + (12 if pm else 0)

    def _toggle(self) -> None:
        self.text_mode = not self.text_mode

    def build(self) -> View:
        hour = f"{self._shown_hour():02d}" if self.is_24_hour else str(self._shown_hour())
        minute = f"{self.minute:02d}"
        toggle_desc = ("Switch to clock mode for the time input." if self.text_mode
                       else "Switch to text input mode for the time input.")
        toggle = ImageView("android:id/toggle_mode", icon="keyboard" if not self.text_mode else "clock",
                           desc=toggle_desc, width=dp(48), height=dp(48), on_click=self._toggle)
        if self.text_mode:
            fields: list[View] = [
                Column(EditText(hour, "android:id/input_hour", width=dp(96), key="input_hour"),
                       TextView("hour", "android:id/label_hour", size=sp(12)), width=WRAP),
                TextView(":", "android:id/input_separator", size=sp(24)),
                Column(EditText(minute, "android:id/input_minute", width=dp(96), key="input_minute"),
                       TextView("minute", "android:id/label_minute", size=sp(12)), width=WRAP)]
            if not self.is_24_hour:
                fields.append(TextView("PM" if self.hour >= 12 else "AM", "android:id/am_pm_spinner", size=sp(16),
                                       on_click=lambda: self._set_pm(self.hour < 12),
                                       class_name="android.widget.Spinner"))
            return Column(TextView("Type in time", "android:id/top_label", size=sp(14), padding=(dp(24), dp(16))),
                          Row(*fields, id="android:id/input_block", gravity="center_vertical",
                              padding=(dp(24), 0)),
                          Row(toggle, padding=(dp(12), dp(8))),
                          id="android:id/input_mode", class_name="android.widget.RelativeLayout")
        header: list[View] = [
            TextView(hour, "android:id/hours", size=sp(48), color=(255, 255, 255), width=WRAP),
            TextView(":", "android:id/separator", size=sp(48), color=(255, 255, 255), width=WRAP),
            TextView(minute, "android:id/minutes", size=sp(48), color=(255, 230, 220), width=WRAP)]
        if not self.is_24_hour:
            header.append(LinearLayout(
                RadioButton("AM", "android:id/am_label", checked=self.hour < 12, on_click=lambda: self._set_pm(False)),
                RadioButton("PM", "android:id/pm_label", checked=self.hour >= 12, on_click=lambda: self._set_pm(True)),
                id="android:id/ampm_layout", width=WRAP))
        return Column(
            Row(*header, id="android:id/time_header", bg=ACCENT, gravity="center", padding=(dp(16), dp(16))),
            View("android:id/radial_picker", width=dp(270), height=dp(270), layout_gravity="center_horizontal",
                 class_name="android.widget.RadialTimePickerView"),
            Row(toggle, padding=(dp(12), dp(8))),
            id="android:id/timePicker", class_name="android.widget.TimePicker", width=MATCH)
