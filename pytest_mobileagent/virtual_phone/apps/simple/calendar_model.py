"""The data of Simple Calendar Pro: events, tasks and settings, and date helpers.

Plain Python with no UI: `calendar.py` draws it.  Dates are `datetime.date`
in the phone's time zone (UTC); "today" comes from the phone's clock.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

#: The views of "Change view", in the dialog's order, with their labels.
VIEWS = (("day", "Daily view"), ("week", "Weekly view"), ("month", "Monthly view"),
         ("monthday", "Monthly and daily view"), ("year", "Yearly view"), ("list", "Simple event list"))
#: The snooze picker's choices (minutes), as the commons seconds picker lists them.
SNOOZE_CHOICES = (1, 5, 10, 30, 60)


class CalendarError(ValueError):
    """A user input the app rejects; the message is the app's toast."""


def today_from_ms(epoch_ms: int) -> dt.date:
    return dt.datetime.fromtimestamp(epoch_ms / 1000, dt.timezone.utc).date()


def format_reminder(minutes: int) -> str:
    """Commons' Context.getFormattedMinutes(minutes, showBefore = true) for the reminder pickers:
    getFormattedSeconds with its YEAR / MONTH (30 days) / WEEK / DAY / HOUR / MINUTE units (helpers/
    Constants.kt) and, for a negative value within a day, an all-day event's "During the day at HH:MM"."""
    if minutes == -1:
        return "No reminder"
    if minutes == 0:
        return "At start"
    if -24 * 60 < minutes < 0:
        return f"During the day at {-minutes // 60:02d}:{-minutes % 60:02d}"  # R.string.during_day_at
    day = 24 * 60
    for unit, size in (("year", 365 * day), ("month", 30 * day), ("week", 7 * day), ("day", day), ("hour", 60),
                       ("minute", 1)):
        if minutes % size == 0:
            count = minutes // size
            return f"{count} {unit}{'' if count == 1 else 's'} before"  # R.plurals.<unit>s_before
    raise AssertionError("unreachable: every minute count divides by 1")


def format_time_string(minutes: int) -> str:
    """Commons' formatMinutesToTimeString (formatSecondsToTimeString): "1 day, 2 hours, 5 minutes",
    "0 minutes" for nothing (R.plurals days / hours / minutes)."""
    parts = []
    for unit, size in (("day", 24 * 60), ("hour", 60), ("minute", 1)):
        count, minutes = divmod(minutes, size)
        if count > 0:
            parts.append(f"{count} {unit}{'' if count == 1 else 's'}")
    return ", ".join(parts) or "0 minutes"


def format_minutes(minutes: int) -> str:
    """'1 minute', '10 minutes', '1 hour' as the commons formatter writes them."""
    if minutes and minutes % 60 == 0:
        hours = minutes // 60
        return f"{hours} hour" + ("s" if hours != 1 else "")
    return f"{minutes} minute" + ("s" if minutes != 1 else "")


def format_date(day: dt.date) -> str:
    """'May 1 2024' (the editor's date fields)."""
    return f"{MONTHS[day.month - 1]} {day.day} {day.year}"


def format_section(day: dt.date) -> str:
    """'May 1 (Wed)' (an event list's day header)."""
    return f"{MONTHS[day.month - 1]} {day.day} ({WEEKDAYS[day.weekday()][:3]})"


def add_months(day: dt.date, months: int) -> dt.date:
    """The first day of the month `months` away from `day`'s month."""
    index = day.year * 12 + day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


def week_start(day: dt.date, first_weekday: int) -> dt.date:
    """The first day of `day`'s week; `first_weekday` 0 = Monday ... 6 = Sunday."""
    return day - dt.timedelta(days=(day.weekday() - first_weekday) % 7)


def month_grid(month: dt.date, first_weekday: int) -> list[dt.date]:
    """The 42 days (six weeks) the monthly view shows for `month`."""
    start = week_start(dt.date(month.year, month.month, 1), first_weekday)
    return [start + dt.timedelta(days=i) for i in range(42)]


def weekday_letters(first_weekday: int) -> list[str]:
    return [WEEKDAYS[(first_weekday + i) % 7][0] for i in range(7)]


@dataclass
class Event:
    """An event or a task (`is_task`); times are minutes after midnight."""

    id: int
    title: str
    day: dt.date
    start_minute: int = 0
    end_day: dt.date | None = None
    end_minute: int = 0
    all_day: bool = False
    description: str = ""
    location: str = ""
    is_task: bool = False

    @property
    def last_day(self) -> dt.date:
        return self.end_day or self.day

    def time_text(self) -> str:
        if self.all_day:
            return "All-day"
        return f"{self.start_minute // 60:02d}:{self.start_minute % 60:02d}"

    def sort_key(self) -> tuple:
        return (self.day, not self.all_day, self.start_minute, self.id)

    def covers(self, day: dt.date) -> bool:
        return self.day <= day <= self.last_day


@dataclass
class CalendarData:
    """Everything the app stores (cleared by `pm clear`)."""

    events: list[Event] = field(default_factory=list)
    next_id: int = 1
    view: str = "month"
    #: Config.firstDayOfWeek: Sunday in the phone's en-US locale (0 = Monday ... 6 = Sunday)
    first_weekday: int = 6
    use_same_snooze: bool = True
    snooze_minutes: int = 10
    vibrate: bool = False
    use_24_hour: bool = True
    highlight_weekends: bool = False
    week_numbers: bool = False
    show_grid: bool = False
    #: Config.wasAlarmWarningShown: the reminder Disclaimer was acknowledged
    alarm_warning_shown: bool = False
    #: Config.reminderAudioStream (AudioManager.STREAM_ALARM) and Config.startWeeklyAt (7 o'clock)
    reminder_audio_stream: int = 4
    start_weekly_at: int = 7

    def add(self, title: str, day: dt.date, *, start_minute: int = 0, end_day: dt.date | None = None,
            end_minute: int | None = None, all_day: bool = False, description: str = "", location: str = "",
            is_task: bool = False) -> Event:
        if not title.strip():
            raise CalendarError("Title cannot be empty")
        end_day = end_day or day
        end_minute = start_minute if end_minute is None else end_minute
        if not all_day and (end_day, end_minute) < (day, start_minute):
            raise CalendarError("Event cannot end earlier than it starts")
        if end_day < day:
            raise CalendarError("Event cannot end earlier than it starts")
        event = Event(self.next_id, title, day, start_minute, end_day, end_minute, all_day, description,
                      location, is_task)
        self.next_id += 1
        self.events.append(event)
        return event

    def delete(self, ids) -> None:
        wanted = set(ids)
        self.events = [e for e in self.events if e.id not in wanted]

    def on_day(self, day: dt.date) -> list[Event]:
        return sorted((e for e in self.events if e.covers(day)), key=Event.sort_key)

    def by_day(self, days: list[dt.date]) -> dict[dt.date, list[Event]]:
        """Each of `days` (consecutive) with its events, in one pass over the events (the month grid)."""
        out: dict[dt.date, list[Event]] = {day: [] for day in days}
        if not days:
            return out
        first, last = days[0], days[-1]
        for event in sorted(self.events, key=Event.sort_key):
            day = max(event.day, first)
            while day <= min(event.last_day, last):
                out[day].append(event)
                day += dt.timedelta(days=1)
        return out

    def upcoming(self, today: dt.date) -> list[Event]:
        """The simple event list: events from today on (past ones end with yesterday)."""
        return sorted((e for e in self.events if e.last_day >= today - dt.timedelta(days=1)), key=Event.sort_key)

    def search(self, query: str) -> list[Event]:
        """Events whose title, location or description contain `query` (case-insensitive)."""
        q = query.lower()
        return sorted((e for e in self.events
                       if q in e.title.lower() or q in e.location.lower() or q in e.description.lower()),
                      key=Event.sort_key)
