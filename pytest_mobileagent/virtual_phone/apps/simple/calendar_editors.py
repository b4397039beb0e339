"""Simple Calendar Pro's editors: EventActivity and TaskActivity, and the date picker they open.

Title, location (events), description, all-day, the dates and times; "Save"
rejects an empty title ("Title cannot be empty") and an end before the start,
as the app does.  Ids follow the Pro app's `activity_event.xml` and
`activity_task.xml`.
"""

from __future__ import annotations

import datetime as dt
from typing import Callable

from ...framework.ui.views import (
    WRAP,
    ACCENT,
    MATCH,
    TEXT,
    CheckBox,
    Column,
    Divider,
    EditText,
    ImageView,
    LinearLayout,
    MenuItem,
    RelativeLayout,
    Row,
    ScrollView,
    TextView,
    View,
    dp,
    sp,
)
from . import calendar_model as m

#: R.string.reminder_warning (6.23.1), dialog_reminder_warning.xml's text
REMINDER_WARNING = ("Please make sure the reminders work properly before relying on them. Check your device battery "
                    "and notification settings, if there is nothing blocking the reminders, or killing the app in "
                    "the background.")
from ...framework.app import Activity, Dialog
from ..menus import menu
from ..commons.commons_dialogs import custom_interval_dialog, radio_dialog
from ...framework.ui.time_picker import TimePickerDialog

__all__ = ["DatePickerDialog", "EventActivity", "TaskActivity"]


class DatePickerDialog:
    """Android's date picker dialog: a month with its days, arrows, OK / Cancel.

    Its views are the framework's (core/res/res/layout/date_picker_dialog.xml, date_picker_material.xml,
    day_picker_view_pager.xml), so their ids are in the android namespace.
    """

    def __init__(self, activity: Activity, day: dt.date, on_pick: Callable[[dt.date], object]) -> None:
        self.activity = activity
        self.day = day
        self.month = dt.date(day.year, day.month, 1)
        self.on_pick = on_pick
        activity.show_dialog(Dialog(body=self.build, positive=("OK", lambda _d: self.on_pick(self.day)),
                                    negative="Cancel"))

    def pick(self, day: dt.date) -> None:
        self.day = day

    def turn(self, step: int) -> None:
        self.month = m.add_months(self.month, step)

    def build(self) -> View:
        weekday = m.WEEKDAYS[self.day.weekday()][:3]
        header = Column(
            TextView(str(self.day.year), "android:id/date_picker_header_year", size=sp(16), color=(255, 230, 220)),
            TextView(f"{weekday}, {m.MONTHS[self.day.month - 1][:3]} {self.day.day}",
                     "android:id/date_picker_header_date",
                     size=sp(30), color=(255, 255, 255)),
            id="android:id/date_picker_header", bg=ACCENT, padding=(dp(24), dp(16)))
        days = [d for d in m.month_grid(self.month, 6)]
        weeks = []
        for w in range(6):
            weeks.append(Row(*[
                TextView(str(d.day) if d.month == self.month.month else "", size=sp(14), width=MATCH, weight=1,
                         gravity="center", height=dp(40), selected=d == self.day,
                         bg=ACCENT if d == self.day else None, radius=dp(20),
                         color=(255, 255, 255) if d == self.day else TEXT, key=f"d-{d.isoformat()}",
                         on_click=(lambda d=d: self.pick(d)) if d.month == self.month.month else None)
                for d in days[w * 7:(w + 1) * 7]]))
        title = f"{m.MONTHS[self.month.month - 1]} {self.month.year}"
        return Column(
            header,
            Row(ImageView("android:id/prev", icon="back", desc="Previous month", on_click=lambda: self.turn(-1)),
                TextView(title, size=sp(15), bold=True, weight=1, width=MATCH, gravity="center"),
                ImageView("android:id/next", icon="forward", desc="Next month", on_click=lambda: self.turn(1))),
            Column(*weeks, id="android:id/month_view", class_name="android.view.View"),
            id="android:id/datePicker", class_name="android.widget.DatePicker")


# ---------------------------------------------------------------------------
# EventActivity and TaskActivity


class _EditorActivity(Activity):
    """What the event and the task editors share: title, description, all-day, day, save."""

    prefix = "event"
    is_task = False
    kind = "Event"
    # AndroidManifest.xml (6.23.1): EventActivity and TaskActivity are android:windowSoftInputMode="adjustResize"
    soft_input_mode = "adjustResize"

    def on_create(self) -> None:
        event_id = self.extras.get("event_id")
        self.event = next((e for e in self.data.events if e.id == event_id), None)
        # Config.defaultReminder1 (10 minutes) for a new one; the events keep no other reminder here
        self.reminder_1 = 10
        # EventActivity.setupEditEvent / setupNewEvent (TaskActivity alike): SOFT_INPUT_STATE_ALWAYS_HIDDEN
        # for an existing one; SOFT_INPUT_STATE_ALWAYS_VISIBLE and the title's requestFocus() for a new one
        self.set_soft_input_mode("stateAlwaysHidden" if self.event is not None else "stateAlwaysVisible")
        today = m.today_from_ms(self.host.clock_ms())
        if self.event is not None:
            e = self.event
            self.title_text, self.description, self.all_day = e.title, e.description, e.all_day
            self.day, self.end_day, self.start_minute, self.end_minute = e.day, e.last_day, e.start_minute, e.end_minute
        else:
            now = dt.datetime.fromtimestamp(self.host.clock_ms() / 1000, dt.timezone.utc)
            # "Default start time: next full hour"; the default duration is 0 minutes.
            start = min(now.hour + 1, 23) * 60
            self.title_text, self.description, self.all_day = "", "", False
            self.day = self.extras.get("day") or today
            self.end_day, self.start_minute, self.end_minute = self.day, start, start
        self.location = ""

    def set_title(self, text: str) -> None:
        self.title_text = text

    def set_description(self, text: str) -> None:
        self.description = text

    def toggle_all_day(self) -> None:
        self.all_day = not self.all_day

    # -- reminders (EventActivity / TaskActivity, 6.23.1) ---------------------------------
    def with_reminder_warning(self, then: Callable[[], object]) -> None:
        """ReminderWarningDialog before the first use of a reminder (Config.wasAlarmWarningShown)."""
        if self.data.alarm_warning_shown:
            then()
            return

        def confirmed(_dialog) -> None:
            self.data.alarm_warning_shown = True
            then()

        def settings(_dialog) -> bool:
            # redirectToSettings: ACTION_APPLICATION_DETAILS_SETTINGS (the phone shows Settings' main
            # screen); the button's own listener keeps the dialog open
            self.launch_app("com.android.settings")
            return False

        self.show_dialog(Dialog(
            "Disclaimer",
            lambda: TextView(REMINDER_WARNING, "reminder_warning", size=sp(16), width=WRAP,
                             padding=(dp(20), dp(20), dp(20), dp(12))),
            positive=("OK", confirmed), neutral=("Settings", settings)))

    def reminder_1_dialog(self) -> None:
        """showReminder1Dialog: Commons' showPickSecondsDialogHelper(mReminder1Minutes, showDuringDayOption =
        mIsAllDayEvent): No reminder, At start, 1/5/10/30 minutes, 1 hour and the current value (a TreeSet of
        seconds), then "Custom" (CustomIntervalPickerDialog) and, for an all-day event, "During the day at
        hh:mm" (TimePickerDialog; the answer is hourOfDay * -3600 + minute * -60 seconds).  The picked
        seconds become minutes: ``if (it == -1 || it == 0) it else it / 60``."""
        current = self.reminder_1 if self.reminder_1 == -1 else self.reminder_1 * 60
        choices = sorted({-1, 0, 60, 300, 600, 1800, 3600, current})
        options = [m.format_reminder(c if c == -1 else c // 60) for c in choices] + ["Custom"]
        if self.all_day:
            options.append("During the day at hh:mm")

        def chosen(seconds: int) -> None:
            self.reminder_1 = seconds if seconds in (-1, 0) else int(seconds / 60)

        def picked(index: int) -> None:
            if index < len(choices):
                chosen(choices[index])
            elif index == len(choices):
                custom_interval_dialog(self, chosen)
            else:
                # TimePickerDialog(this, ..., curSeconds / 3600, curSeconds % 3600, use24HourFormat)
                TimePickerDialog(self, current // 3600, current % 3600, self.data.use_24_hour,
                                 lambda hour, minute: chosen(hour * -3600 + minute * -60))

        radio_dialog(self, options, choices.index(current), picked)

    def save(self) -> None:
        """saveCurrentEvent: the reminder Disclaimer first, when a reminder is set and it was not shown."""
        if not self.data.alarm_warning_shown and self.reminder_1 != -1:
            self.with_reminder_warning(self._save)
            return
        self._save()

    def _save(self) -> None:
        title = self.title_text.strip()
        if not title:
            self.toast("Title cannot be empty")
            return
        try:
            if self.event is not None:
                if (self.end_day or self.day) < self.day:
                    raise m.CalendarError("Event cannot end earlier than it starts")
                e = self.event
                e.title, e.description, e.all_day = self.title_text, self.description, self.all_day
                e.day, e.end_day, e.start_minute, e.end_minute = self.day, self.end_day, self.start_minute, \
                    self.end_minute
                e.location = self.location or e.location
            else:
                self.data.add(self.title_text, self.day, start_minute=self.start_minute, end_day=self.end_day,
                              end_minute=self.end_minute, all_day=self.all_day, description=self.description,
                              location=self.location, is_task=self.is_task)
        except m.CalendarError as exc:
            self.toast(str(exc))
            return
        self.finish()

    def delete(self) -> None:
        if self.event is None:
            return
        event = self.event

        def confirmed(_d: Dialog) -> None:
            self.data.delete([event.id])
            self.finish()

        self.show_dialog(Dialog(
            body=lambda: LinearLayout(
                TextView("Are you sure you want to proceed with the deletion?", "delete_event_description",
                         width=MATCH, padding=(dp(24), dp(20), dp(24), dp(8))),
                id="delete_event_holder"),
            positive=("Yes", confirmed), negative="No"))

    def pick_start(self) -> None:
        DatePickerDialog(self, self.day, self._start_picked)

    def pick_end(self) -> None:
        DatePickerDialog(self, self.end_day, self._end_picked)

    def _start_picked(self, day: dt.date) -> None:
        shift = day - self.day
        self.day = day
        self.end_day = self.end_day + shift  # the event keeps its length, as in the app

    def _end_picked(self, day: dt.date) -> None:
        if day < self.day:
            self.toast("Event cannot end earlier than it starts")
            return
        self.end_day = day

    def pick_time(self, end: bool) -> None:
        options = [f"{h:02d}:{mi:02d}" for h in range(24) for mi in (0, 30)]
        current = self.end_minute if end else self.start_minute
        index = options.index(f"{current // 60:02d}:{current % 60:02d}") if current % 30 == 0 else -1

        def picked(i: int) -> None:
            minute = i * 30
            if end:
                self.end_minute = minute
            else:
                self.end_minute = max(self.end_minute, minute) if self.end_day == self.day else self.end_minute
                self.start_minute = minute
        radio_dialog(self, options, index, picked)

    def _toolbar_items(self) -> list[MenuItem]:
        """menu_event / menu_task: Delete, Duplicate and Share only for a saved one (updateActionBarTitle)."""
        handlers = {"save": self.save, "delete": self.delete, "duplicate": None,
                    "share": lambda: self.toast("No app found")}
        hidden = ("delete", "duplicate", "share") if self.event is None else ()
        if self.is_task:
            return menu("calendar", "menu_task", handlers, hide=hidden)
        return menu("calendar", "menu_event", handlers, hide=hidden)

    def _date_row(self) -> list[View]:
        p = self.prefix
        row = dict(size=sp(16), padding=(dp(56), dp(12), dp(16), dp(12)))
        views: list[View] = [
            RelativeLayout(CheckBox("All-day", f"{p}_all_day", checked=self.all_day, clickable=False,
                                    focusable=False),
                           id=f"{p}_all_day_holder", padding=(dp(56), dp(4), dp(16), dp(4)),
                           on_click=self.toggle_all_day, key=f"all-day-{self.all_day}"),
        ]
        if self.is_task:
            views.append(Row(
                TextView(m.format_date(self.day), f"{p}_date", on_click=self.pick_start, weight=1, width=MATCH, **row),
                TextView(f"{self.start_minute // 60:02d}:{self.start_minute % 60:02d}", f"{p}_time",
                         on_click=lambda: self.pick_time(False), padding=(dp(16), dp(12)),
                         visible=not self.all_day)))
        else:
            views.append(Row(
                TextView(m.format_date(self.day), f"{p}_start_date", on_click=self.pick_start, weight=1, width=MATCH,
                         **row),
                TextView(f"{self.start_minute // 60:02d}:{self.start_minute % 60:02d}", f"{p}_start_time",
                         on_click=lambda: self.pick_time(False), padding=(dp(16), dp(12)), visible=not self.all_day)))
            views.append(Row(
                TextView(m.format_date(self.end_day), f"{p}_end_date", on_click=self.pick_end, weight=1, width=MATCH,
                         **row),
                TextView(f"{self.end_minute // 60:02d}:{self.end_minute % 60:02d}", f"{p}_end_time",
                         on_click=lambda: self.pick_time(True), padding=(dp(16), dp(12)), visible=not self.all_day)))
        return views

    def build(self) -> View:
        p = self.prefix
        title = (f"Edit {self.kind}" if self.kind == "Event" else "Edit task") if self.event else f"New {self.kind}"
        field = dict(margin=(dp(16), 0))
        fields: list[View] = [
            EditText(self.title_text, f"{p}_title", hint="Title", on_text_changed=self.set_title,
                     autofocus=self.event is None, **field),
        ]
        if not self.is_task:
            fields.append(EditText(self.location, f"{p}_location", hint="Location",
                                   on_text_changed=lambda t: setattr(self, "location", t), **field))
        fields.append(EditText(self.description, f"{p}_description", hint="Description", single_line=False,
                               on_text_changed=self.set_description, **field))
        fields.append(Divider(f"{p}_description_divider", margin=(0, dp(8))))
        fields += self._date_row()
        fields.append(Divider(f"{p}_date_time_divider", margin=(0, dp(8))))
        fields.append(TextView(m.format_reminder(self.reminder_1), f"{p}_reminder_1", size=sp(16),
                               padding=(dp(56), dp(12), dp(16), dp(12)), width=MATCH,
                               on_click=lambda: self.with_reminder_warning(self.reminder_1_dialog)))
        fields.append(TextView("No repetition", f"{p}_repetition", size=sp(16), width=MATCH,
                               padding=(dp(56), dp(12), dp(16), dp(12)), on_click=lambda: None))
        fields.append(RelativeLayout(TextView("Regular event", f"{p}_type", size=sp(16)), id=f"{p}_type_holder",
                                     padding=(dp(56), dp(12), dp(16), dp(12)), on_click=lambda: None))
        toolbar = self.toolbar(f"{p}_toolbar", title=title, items=self._toolbar_items(), back=True)
        return Column(
            toolbar,
            ScrollView(Column(*fields, id=f"{p}_holder", class_name="android.widget.RelativeLayout",
                              padding=(0, dp(8))),
                       id=f"{p}_nested_scrollview", weight=1),
            id=f"{p}_coordinator", class_name="android.view.ViewGroup", height=MATCH)


class EventActivity(_EditorActivity):
    name = "com.simplemobiletools.calendar.pro.activities.EventActivity"
    title = "New Event"


class TaskActivity(_EditorActivity):
    name = "com.simplemobiletools.calendar.pro.activities.TaskActivity"
    title = "New Task"
    prefix = "task"
    is_task = True
    kind = "Task"
