"""The commons "Change date and time format" dialog, shared by the Simple Mobile Tools apps.

The app keeps `date_format` (a strftime pattern) and `use_24_hour` in its
data; the dialog lists the eight formats commons offers, each applied to the
sample time of the app's Simple-Commons commit, in the order the real dialog
shows them.
"""

from __future__ import annotations

import datetime as dt

from ...framework.ui.views import (
    WRAP,
    CheckBox,
    Column,
    Divider,
    RadioButton,
    RadioGroup,
    ScrollView,
    View,
    dp,
)
from ...framework.app import Activity, Dialog
from ..releases import RELEASES

__all__ = ["DATE_FORMATS", "show_date_time_dialog"]

_ID = "change_date_time_dialog_radio_"
DATE_FORMATS = ((_ID + "one", "%d.%m.%Y"), (_ID + "two", "%d/%m/%Y"), (_ID + "three", "%m/%d/%Y"),
                (_ID + "eight", "%d-%m-%Y"), (_ID + "seven", "%m-%d-%Y"), (_ID + "four", "%Y-%m-%d"),
                (_ID + "five", "%d %B %Y"), (_ID + "six", "%B %d %Y"))
#: ChangeDateTimeFormatDialog's sample time (ms) at each pinned Simple-Commons commit: ``sampleTS``
#: (1613422500000, "February 16, 2021" in its comment, 15 February 20:55 in UTC) until the dialog's
#: file gained Compose, then ``timeSample`` (1676419200000, February 15, 2023).  Formatted in the
#: phone's zone, UTC (``Calendar.getInstance(Locale.ENGLISH)``, ``DateFormat.format``).
_SAMPLE_MS = {"73d78e5cd3": 1613422500000, "eceb48949e": 1613422500000, "6a7777d740": 1676419200000,
              "8e7dd4508e": 1676419200000, "9e60e24790": 1676419200000, "b72ded2a75": 1676419200000,
              "b7dd6ad428": 1676419200000}


def _sample(package: str) -> dt.datetime:
    release = RELEASES.get(package)
    millis = _SAMPLE_MS[release.commons] if release else 1676419200000
    return dt.datetime.fromtimestamp(millis / 1000, tz=dt.timezone.utc)


def show_date_time_dialog(activity: Activity, data) -> Dialog:
    """Edit `data.date_format` and `data.use_24_hour`; OK applies, Cancel or BACK keeps them."""
    formats = [fmt for _, fmt in DATE_FORMATS]
    sample = _sample(activity.app.package)

    def body() -> View:
        return ScrollView(Column(
            RadioGroup(*[RadioButton(sample.strftime(fmt), rid) for rid, fmt in DATE_FORMATS],
                       id="change_date_time_dialog_radio_group",
                       checked_index=formats.index(data.date_format) if data.date_format in formats else 0),
            Divider("sorting_dialog_order_divider", margin=(0, dp(8))),
            CheckBox("Use 24-hour time format", "change_date_time_dialog_24_hour", checked=data.use_24_hour),
            id="change_date_time_dialog_holder", padding=(dp(16), dp(4))),
            id="change_date_time_dialog_scrollview", height=WRAP)

    def ok(dialog: Dialog) -> None:
        data.date_format = formats[max(0, dialog.find("change_date_time_dialog_radio_group").checked_index)]
        data.use_24_hour = dialog.find("change_date_time_dialog_24_hour").checked

    return activity.show_dialog(Dialog("", body, positive=("OK", ok), negative="Cancel"))
