"""The commons "Change date and time format" dialog, shared by the Simple Mobile Tools apps.

The app keeps `date_format` (a strftime pattern) and `use_24_hour` in its
data; the dialog lists the eight formats commons offers, each shown on
16 February 2021, in the order the real dialog shows them.
"""

from __future__ import annotations

import datetime as dt

from ..ui.views import (
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
from .base import Activity, Dialog

__all__ = ["DATE_FORMATS", "show_date_time_dialog"]

_ID = "change_date_time_dialog_radio_"
DATE_FORMATS = ((_ID + "one", "%d.%m.%Y"), (_ID + "two", "%d/%m/%Y"), (_ID + "three", "%m/%d/%Y"),
                (_ID + "eight", "%d-%m-%Y"), (_ID + "seven", "%m-%d-%Y"), (_ID + "four", "%Y-%m-%d"),
                (_ID + "five", "%d %B %Y"), (_ID + "six", "%B %d %Y"))
_SAMPLE = dt.datetime(2021, 2, 16, tzinfo=dt.timezone.utc)


def show_date_time_dialog(activity: Activity, data) -> Dialog:
    """Edit `data.date_format` and `data.use_24_hour`; OK applies, Cancel or BACK keeps them."""
    formats = [fmt for _, fmt in DATE_FORMATS]

    def body() -> View:
        return ScrollView(Column(
            RadioGroup(*[RadioButton(_SAMPLE.strftime(fmt), rid) for rid, fmt in DATE_FORMATS],
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
