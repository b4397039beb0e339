"""Commons dialogs the apps share: RadioGroupDialog, ColorPickerDialog."""

from __future__ import annotations

from typing import Callable

from ...framework.ui.views import (WRAP, Column, EditText, ImageView, RadioButton, RadioGroup, Row, ScrollView, TextView, View,
                        dp, sp)
from ...framework.app import Activity, Dialog

__all__ = ["color_hex", "color_picker_dialog", "custom_interval_dialog", "radio_dialog"]


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


def color_hex(color: int) -> str:
    """Commons' getHexCode: the colour's RGB as six upper-case hex digits (Int.toHex without '#')."""
    return f"{color & 0xFFFFFF:06X}"


def color_picker_dialog(activity: Activity, color: int, callback: Callable[[bool, int], object], *,
                        add_default_color_button: bool = False) -> Dialog:
    """Commons' ColorPickerDialog (dialogs/ColorPickerDialog.kt, layout/dialog_color_picker.xml).

    The old colour's hex (``color_picker_old_hex``, "#RRGGBB") and the new one's field
    (``color_picker_new_hex``, six digits, after the "#" label); OK (confirmNewColor) takes the field
    when it holds six hex digits, else the colour the pickers show; Cancel or BACK (dialogDismissed)
    answers ``callback(False, 0)``; "Default" (with ``add_default_color_button``) ``callback(True, 0)``.
    Not modelled: the hue strip and the saturation/value square take touch positions, which a tap here
    does not carry; the recent colours row (empty on a fresh app).
    """
    old = color_hex(color)
    state = {"answered": False}

    def answer(ok: bool, value: int) -> None:
        state["answered"] = True
        callback(ok, value)

    def confirm(d: Dialog) -> None:
        typed = d.find("color_picker_new_hex").text.strip()
        valid = len(typed) == 6 and all(c in "0123456789abcdefABCDEF" for c in typed)
        answer(True, (0xFF << 24) | int(typed if valid else old, 16))

    def dismissed() -> None:
        if not state["answered"]:
            callback(False, 0)

    def body() -> View:
        def swatch(id: str, value: int) -> View:
            rgb = ((value >> 16) & 255, (value >> 8) & 255, value & 255)
            return ImageView(id, icon="dot", tint=rgb, width=dp(48), height=dp(48))

        return ScrollView(Column(
            Row(View("color_picker_square", width=dp(240), height=dp(240)),
                ImageView("color_picker_hue", icon="dot", width=dp(36), height=dp(240)),
                id="color_picker_top_holder", class_name="android.widget.RelativeLayout", margin=(dp(16), dp(16))),
            Row(TextView(f"#{old}", "color_picker_old_hex", size=sp(16)),
                ImageView("color_picker_hex_arrow", icon="arrow_right", width=dp(24), height=dp(24)),
                TextView("#", "color_picker_new_hex_label", size=sp(16)),
                EditText(old, "color_picker_new_hex", size=sp(16), width=dp(120), key="color_picker_new_hex"),
                id="color_picker_hex_codes_holder", class_name="android.widget.RelativeLayout",
                gravity="center_vertical", margin=(dp(16), 0)),
            Row(swatch("color_picker_old_color", color), ImageView("color_picker_arrow", icon="arrow_right",
                                                                     width=dp(24), height=dp(24)),
                swatch("color_picker_new_color", color), id="color_picker_bottom_holder",
                class_name="android.widget.RelativeLayout", gravity="center_vertical", margin=(dp(16), dp(8))),
            id="color_picker_holder", class_name="android.widget.RelativeLayout"),
            id="color_picker_scrollview", height=WRAP, focusable=False)

    return activity.show_dialog(Dialog(
        body=body, positive=("OK", confirm), negative="Cancel",
        neutral=("Default", lambda _d: answer(True, 0)) if add_default_color_button else None,
        on_dismiss=dismissed))


#: CustomIntervalPickerDialog's units: radio button id, label (strings *_raw), seconds per unit
_INTERVAL_UNITS = (("dialog_radio_seconds", "seconds", 1), ("dialog_radio_minutes", "minutes", 60),
                   ("dialog_radio_hours", "hours", 3600), ("dialog_radio_days", "days", 86400))


def custom_interval_dialog(activity: Activity, callback: Callable[[int], object], *, selected_seconds: int = 0,
                           show_seconds: bool = False) -> Dialog:
    """Commons' CustomIntervalPickerDialog (dialogs/CustomIntervalPickerDialog.kt,
    layout/dialog_custom_interval_picker.xml): a number field ("Value") and the unit radio buttons
    (seconds only with ``show_seconds``); OK answers ``callback(value * unit seconds)`` (an empty field
    counts as 0), Cancel nothing.  The field gets the keyboard (alertDialog.showKeyboard)."""
    units = [u for u in _INTERVAL_UNITS if show_seconds or u[0] != "dialog_radio_seconds"]
    if selected_seconds == 0:
        checked, value = "dialog_radio_minutes", ""
    else:
        checked, size = next(((id, size) for id, _label, size in reversed(_INTERVAL_UNITS[1:])
                              if selected_seconds % size == 0), ("dialog_radio_seconds", 1))
        value = str(selected_seconds // size)
    state = {"unit": checked}

    def confirm(d: Dialog) -> None:
        text = d.find("dialog_custom_interval_value").text.strip()
        amount = int(text) if text.isdigit() else 0
        callback(amount * next(size for id, _label, size in _INTERVAL_UNITS if id == state["unit"]))

    def choose(id: str) -> None:
        state["unit"] = id

    def body() -> View:
        return ScrollView(Column(
            # its OnKeyListener: ENTER presses OK
            EditText(value, "dialog_custom_interval_value", hint="Value", autofocus=True,
                     key="dialog_custom_interval_value", on_ime_action=lambda: (confirm(dialog), dialog.dismiss())),
            RadioGroup(*[RadioButton(label, id, on_click=lambda id=id: choose(id)) for id, label, _size in units],
                       id="dialog_radio_view", checked_index=[u[0] for u in units].index(state["unit"])),
            id="dialog_custom_interval_holder", padding=(dp(24), dp(16))),
            id="dialog_custom_interval_scrollview", height=WRAP, focusable=False)

    dialog = activity.show_dialog(Dialog(body=body, positive=("OK", confirm), negative="Cancel"))
    dialog.window.request_focus("dialog_custom_interval_value", None, True)
    return dialog
