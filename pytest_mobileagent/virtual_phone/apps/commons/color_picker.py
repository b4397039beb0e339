"""Simple-Commons' ColorPickerDialog (dialogs/ColorPickerDialog.kt, layout/dialog_color_picker.xml).

The dialog has no title: the recent colours (``recent_colors`` with its ``recent_colors_flow`` and one
clickable square per colour, BaseConfig.colorPickerRecentColors, at most 5), the saturation/value
square and the hue strip (``color_picker_top_holder``), the old colour's hex ("#EEEEEE") and the new
one's hex field after "#" (``color_picker_new_hex``), the old and new colour swatches, Cancel and OK.
Ids and nesting match the recorded screens of this dialog (DroidTask: App Launcher, Gallery, Music
Player's "Customize colors").  A recent colour's tap puts its hex in the field; a six-digit hex typed
there becomes the new colour (``onTextChangeListener``).  OK (``confirmNewColor``) takes the field's
colour when it has six digits, else the picked one, moves it to the front of the recent colours and
calls back ``(True, color)``; Cancel and BACK call back ``(False, 0)`` (``dialogDismissed``).
Drags on the square and the hue strip are not modelled.
"""

from __future__ import annotations

import re
from typing import Callable

from ...framework.app import Activity, Dialog
from ...framework.ui.views import (MATCH, WRAP, Column, EditText, ImageView, RelativeLayout, Row, ScrollView, TextView, View,
                                   dp, sp)

__all__ = ["DEFAULT_RECENT_COLORS", "color_picker_dialog", "hex_of", "parse_hex", "recent_colors"]

#: BaseConfig.colorPickerRecentColors' default: md_red_700, md_blue_700, md_green_700, md_yellow_700, md_orange_700
DEFAULT_RECENT_COLORS = (0xD32F2F, 0x1976D2, 0x388E3C, 0xFBC02D, 0xF57C00)
RECENT_COLORS_NUMBER = 5  # ColorPickerDialog.kt RECENT_COLORS_NUMBER


def hex_of(color: int) -> str:
    """Int.toHex().substring(1): the six hex digits, upper case."""
    return f"{color & 0xFFFFFF:06X}"


def parse_hex(text: str) -> int | None:
    """Color.parseColor("#" + text) for the field's six digits; None when it is not a colour."""
    return int(text, 16) if re.fullmatch(r"[0-9A-Fa-f]{6}", text) else None


def _rgb(color: int) -> tuple[int, int, int]:
    return (color >> 16) & 0xFF, (color >> 8) & 0xFF, color & 0xFF


def recent_colors(config) -> list[int]:
    """BaseConfig.colorPickerRecentColors."""
    return list(getattr(config, "color_picker_recent_colors", DEFAULT_RECENT_COLORS))


def color_picker_dialog(activity: Activity, color: int, callback: Callable[[bool, int], object]) -> Dialog:
    """Show the dialog for `color`; `callback(was_positive_pressed, color)` as the Kotlin class calls it."""
    config = activity.app.base_config
    state = {"hex": hex_of(color), "picked": color}

    def new_color() -> int:
        typed = parse_hex(state["hex"])
        return typed if typed is not None else state["picked"]

    def hex_changed(text: str) -> None:
        state["hex"] = text[:6]  # android:maxLength="6"
        typed = parse_hex(state["hex"])
        if typed is not None:
            state["picked"] = typed

    def pick_recent(value: int) -> None:
        state["hex"], state["picked"] = hex_of(value), value
        field = dialog.window.find("color_picker_new_hex") if dialog.window is not None else None
        if field is not None:
            field.text = state["hex"]

    def body() -> View:
        swatch = dp(30)
        recents = [ImageView(icon="square", tint=_rgb(c), width=swatch, height=swatch, margin=(dp(8), 0),
                             on_click=lambda c=c: pick_recent(c), key=f"recent-{i}")
                   for i, c in enumerate(recent_colors(config)[:RECENT_COLORS_NUMBER])]
        # ConstraintLayout: the Flow helper spans the row, the squares are the layout's own children
        squares = Row(*recents, gravity="center_horizontal", width=MATCH)
        squares.in_dump = False
        recent = Column(View("recent_colors_flow", width=MATCH, height=dp(1)), squares,
                        id="recent_colors", class_name="android.view.ViewGroup", width=MATCH, height=WRAP,
                        margin=(dp(16), dp(16), dp(16), 0))
        top = Row(
            ImageView("color_picker_hue_cursor", icon="chevron_right", width=dp(8), height=dp(24)),
            ImageView("color_picker_cursor", icon="circle", width=dp(16), height=dp(16)),
            View("color_picker_square", width=dp(240), height=dp(240), bg=_rgb(state["picked"])),
            ImageView("color_picker_hue", icon="hue", width=dp(30), height=dp(240)),
            id="color_picker_top_holder", class_name="android.widget.RelativeLayout", height=dp(272), width=MATCH,
            gravity="center")
        hexes = RelativeLayout(Row(
            TextView(f"#{hex_of(color)}", "color_picker_old_hex", size=sp(14), gravity="center", width=dp(70),
                     long_clickable=True),
            ImageView("color_picker_hex_arrow", icon="arrow_right", width=dp(20), height=dp(40)),
            TextView("#", "color_picker_new_hex_label", size=sp(14), gravity="center"),
            EditText(state["hex"], "color_picker_new_hex", width=dp(84), single_line=True,
                     on_text_changed=hex_changed, key="color_picker_new_hex"),
            gravity="center_horizontal", width=MATCH), id="color_picker_hex_codes_holder", width=MATCH)
        swatches = RelativeLayout(Row(
            ImageView("color_picker_old_color", icon="square", tint=_rgb(color), width=dp(30), height=dp(30)),
            ImageView("color_picker_arrow", icon="arrow_right", width=dp(20), height=dp(20)),
            ImageView("color_picker_new_color", icon="square", tint=_rgb(new_color()), width=dp(30), height=dp(30)),
            gravity="center_horizontal", width=MATCH), id="color_picker_bottom_holder", width=MATCH,
            margin=(0, dp(8)))
        # a RelativeLayout whose children are laid out below one another (layout_below)
        return ScrollView(Column(recent, top, hexes, swatches, id="color_picker_holder", width=MATCH, height=WRAP,
                                 class_name="android.widget.RelativeLayout"),
                          id="color_picker_scrollview", height=WRAP, focusable=False, margin=(0, dp(16)))

    def confirm(_d: Dialog) -> None:
        chosen = new_color()
        recents = [c for c in recent_colors(config) if c != chosen]  # addRecentColor
        config.color_picker_recent_colors = [chosen, *recents][:RECENT_COLORS_NUMBER]
        callback(True, chosen)

    dialog = Dialog(body=body, positive=("OK", confirm), negative=("Cancel", lambda _d: callback(False, 0)),
                    on_back=None)
    activity.show_dialog(dialog)
    return dialog
