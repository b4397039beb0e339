"""Commons dialogs the Calendar and App Launcher models share."""

from __future__ import annotations

from typing import Callable

from ..ui.views import WRAP, RadioButton, RadioGroup, ScrollView, View, dp
from .base import Activity, Dialog

__all__ = ["radio_dialog"]


def radio_dialog(activity: Activity, options: list[str], checked: int, on_pick: Callable[[int], object],
                 *, ok_button: bool = False) -> Dialog:
    """The commons RadioGroupDialog: tapping an option picks it and closes the dialog."""
    dialog: Dialog

    def pick(index: int) -> None:
        dialog.dismiss()
        on_pick(index)

    def body() -> View:
        return ScrollView(
            RadioGroup(*[RadioButton(text, on_click=lambda i=i: pick(i)) for i, text in enumerate(options)],
                       id="dialog_radio_group", checked_index=checked, padding=(dp(16), dp(8))),
            id="dialog_radio_holder", height=WRAP, focusable=False)

    def confirm(d: Dialog) -> None:
        index = d.find("dialog_radio_group").checked_index
        if index >= 0:
            on_pick(index)

    dialog = Dialog(body=body, positive=("OK", confirm) if ok_button else None)
    return activity.show_dialog(dialog)
