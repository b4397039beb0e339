"""Simple Calendar Pro's SettingsActivity: general, reminders, CalDAV, weekly and monthly views.

"Start week on" and "Snooze time" open the commons radio dialogs (the snooze
one with "Custom": CustomIntervalPickerDialog); check boxes toggle the
stored preferences.  Ids follow the Pro app's `activity_settings.xml`.
"""

from __future__ import annotations

from ...framework.ui.views import ACCENT, MATCH, TEXT_SECONDARY, Column, Divider, ScrollView, TextView, View, dp, sp
from . import calendar_model as m
from ...framework.app import Activity, settings_checkbox
from ...framework.ui.accessibility_class import COORDINATOR_LAYOUT
from ..commons.commons_dialogs import custom_interval_dialog, radio_dialog
from ..commons.simple_commons import CustomizationActivity, launch_change_app_language, launch_customize_notifications

__all__ = ["SettingsActivity"]

#: setupReminderAudioStream's RadioItems: AudioManager.STREAM_* and their strings
AUDIO_STREAMS = ((4, "Alarm"), (1, "System"), (5, "Notification"), (2, "Ring"))


class SettingsActivity(Activity):
    """Settings: color customization, general, reminders, weekly and monthly views."""

    name = "com.simplemobiletools.calendar.pro.activities.SettingsActivity"
    title = "Settings"

    @staticmethod
    def _label(text: str, id: str) -> View:
        return TextView(text, id, color=ACCENT, bold=True, size=sp(14), width=MATCH,
                        padding=(dp(16), dp(24), dp(16), dp(12)))

    @staticmethod
    def _row(prefix: str, label: str, value: str | None = None, on_click=None, label_id: str | None = None) -> View:
        children = [TextView(label, label_id or f"{prefix}_label", size=sp(16))]
        if value is not None:
            children.append(TextView(value, prefix, color=TEXT_SECONDARY, size=sp(14), width=MATCH))
        return Column(*children, id=f"{prefix}_holder", class_name="android.widget.RelativeLayout",
                      padding=(dp(16), dp(14)), on_click=on_click or (lambda: None), key=prefix)

    def _set(self, key: str, value) -> None:
        setattr(self.data, key, value)

    def start_week_dialog(self) -> None:
        # Sunday first, then Monday ... Saturday (DateTimeConstants order of the app's list).
        order = [6, 0, 1, 2, 3, 4, 5]
        radio_dialog(self, [m.WEEKDAYS[d] for d in order], order.index(self.data.first_weekday),
                     lambda i: self._set("first_weekday", order[i]))

    def audio_stream_dialog(self) -> None:
        """setupReminderAudioStream: RadioGroupDialog of Alarm, System, Notification, Ring (checked by id)."""
        ids = [stream for stream, _label in AUDIO_STREAMS]
        radio_dialog(self, [label for _stream, label in AUDIO_STREAMS], ids.index(self.data.reminder_audio_stream),
                     lambda i: self._set("reminder_audio_stream", ids[i]))

    def hours_string(self, hours: int) -> str:
        """getHoursString: "%02d:00" in 24-hour format, else SimpleDateFormat("hh.mm aa")."""
        if self.data.use_24_hour:
            return f"{hours:02d}:00"
        return f"{hours % 12 or 12:02d}.00 {'AM' if hours < 12 else 'PM'}"

    def start_weekly_at_dialog(self) -> None:
        """setupWeeklyStart: RadioGroupDialog of the hours 0 .. 16."""
        radio_dialog(self, [self.hours_string(h) for h in range(17)], self.data.start_weekly_at,
                     lambda i: self._set("start_weekly_at", i))

    def snooze_dialog(self) -> None:
        choices = sorted(set(m.SNOOZE_CHOICES) | {self.data.snooze_minutes})
        options = [m.format_minutes(c) for c in choices] + ["Custom"]

        def picked(i: int) -> None:
            if i < len(choices):
                self.data.snooze_minutes = choices[i]
            else:
                # CustomIntervalPickerDialog; setupSnoozeTime stores config.snoozeTime = it / 60
                custom_interval_dialog(self, lambda seconds: setattr(self.data, "snooze_minutes", seconds // 60))

        radio_dialog(self, options, choices.index(self.data.snooze_minutes), picked, ok_button=True)

    def build(self) -> View:
        d = self.data
        check = lambda prefix, label, key: settings_checkbox(  # noqa: E731
            prefix, label, getattr(d, key), lambda v, k=key: self._set(k, v))
        blocks: list[View] = [
            self._label("COLOR CUSTOMIZATION", "settings_color_customization_section_label"),
            self._row("settings_color_customization", "Customize colors",
                      on_click=lambda: self.start(CustomizationActivity)),
            self._row("settings_widget_color_customization", "Customize widget colors"),
            Divider("settings_color_customization_divider"),
            self._label("GENERAL", "settings_general_settings_label"),
            self._row("settings_language", "Language", "English", lambda: launch_change_app_language(self)),
            self._row("settings_manage_event_types", "Manage event types"),
            self._row("settings_start_week_on", "Start week on", m.WEEKDAYS[d.first_weekday],
                      self.start_week_dialog),
            check("settings_hour_format", "Use 24-hour time format", "use_24_hour"),
            check("settings_highlight_weekends", "Highlight weekends on some views", "highlight_weekends"),
            Divider("settings_general_settings_divider"),
            self._label("REMINDERS", "settings_reminders_label"),
            self._row("settings_customize_notifications", "Customize notifications",
                      on_click=lambda: launch_customize_notifications(self),
                      label_id="settings_customize_notifications"),
            self._row("settings_reminder_sound", "Reminder sound", "Default"),
            # SettingsActivity.getAudioStreamText (6.23.1): STREAM_ALARM -> R.string.alarm_stream, "Alarm"
            self._row("settings_reminder_audio_stream", "Audio stream used by reminders",
                      dict(AUDIO_STREAMS)[d.reminder_audio_stream], self.audio_stream_dialog),
            check("settings_vibrate", "Vibrate on reminder notification", "vibrate"),
            check("settings_use_same_snooze", "Always use same snooze time", "use_same_snooze"),
        ]
        if d.use_same_snooze:
            # updateSnoozeTime: formatMinutesToTimeString(config.snoozeTime)
            blocks.append(self._row("settings_snooze_time", "Snooze time", m.format_time_string(d.snooze_minutes),
                                    self.snooze_dialog))
        blocks += [
            Divider("settings_reminders_divider"),
            self._label("CALDAV", "settings_caldav_label"),
            settings_checkbox("settings_caldav_sync", "CalDAV sync", False,
                              lambda _v: self.toast("No contacts permission")),
            Divider("settings_caldav_divider"),
            self._label("WEEKLY VIEW", "settings_weekly_view_label"),
            self._row("settings_start_weekly_at", "Start day at", self.hours_string(d.start_weekly_at),
                      self.start_weekly_at_dialog),
            Divider("settings_weekly_view_divider"),
            self._label("MONTHLY VIEW", "settings_monthly_view_label"),
            check("settings_week_numbers", "Show week numbers", "week_numbers"),
            check("settings_show_grid", "Show a grid", "show_grid"),
        ]
        return Column(
            self.toolbar("settings_toolbar", title="Settings", back=True),
            ScrollView(Column(*blocks, id="settings_holder"), id="settings_nested_scrollview", weight=1),
            id="settings_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)
