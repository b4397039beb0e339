"""Simple-Commons' LineColorPickerDialog (dialogs/LineColorPickerDialog.kt, layout/dialog_line_color_picker.xml,
views/LineColorPicker.kt): the Primary color and App icon color pickers of "Customize colors".

``line_color_picker_holder`` holds the app icon (``line_color_picker_icon``, gone for the primary colour),
one line of colours (``primary_line_color_picker``: the 19 Material families, ``md_primary_colors``; for the
app icon ``md_app_icon_colors``), for the primary colour a second line with the shades of the picked
family (``secondary_line_color_picker``, ``getColorsForIndex``) and the colour's hex (``hex_code``,
"#F57C00").  A line is a LinearLayout of stripes (``empty_image_view``, equal weights); its
OnTouchListener picks the stripe under the finger on ACTION_UP (``touchAt``), so a tap picks one; the
picked stripe loses its 10 dp top and bottom margins.  The dialog opens on the colour's family and shade
(``getColorIndexes``: color_primary, or a colour in no family, is oranges' 700, indexes 14 and 6).
Picking a family shows its shades (the shade index is kept); OK returns the second line's colour for the
primary colour, the first line's for the app icon; Cancel and BACK return ``(False, 0)``.  The palettes
are Simple-Commons' ``res/values`` arrays (``data/commons_colors.json``, ``tools/commons_color_facts.py``).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Callable

from ...framework.app import Activity, Dialog
from ...framework.ui.views import MATCH, WRAP, Column, ImageView, LinearLayout, TextView, View, dp, sp

__all__ = ["line_color_picker_dialog", "palettes"]

DEFAULT_COLOR = 0xF57C00  # R.color.color_primary
DEFAULT_PRIMARY_INDEX, DEFAULT_SECONDARY_INDEX = 14, 6


@cache
def palettes() -> dict:
    data = resources.files("pytest_mobileagent.virtual_phone.apps").joinpath("data/commons_colors.json")
    return json.loads(data.read_text("utf-8"))


def _indexes(color: int) -> tuple[int, int]:
    """getColorIndexes: (family, shade) of `color`, oranges' 700 for color_primary or an unknown colour."""
    if color == DEFAULT_COLOR:
        return DEFAULT_PRIMARY_INDEX, DEFAULT_SECONDARY_INDEX
    for family, shades in enumerate(palettes()["families"]):
        if color in shades:
            return family, shades.index(color)
    return DEFAULT_PRIMARY_INDEX, DEFAULT_SECONDARY_INDEX


def _hex(color: int) -> str:
    return f"#{color & 0xFFFFFF:06X}"  # Int.toHex()


def _rgb(color: int) -> tuple[int, int, int]:
    return (color >> 16) & 0xFF, (color >> 8) & 0xFF, color & 0xFF


def _line(view_id: str, colors: list[int], picked: int, on_pick: Callable[[int], object]) -> View:
    stripes = []
    for i, color in enumerate(colors):
        margin = 0 if i == picked else dp(10)  # updateItemMargin
        stripe = ImageView("empty_image_view", icon="square", tint=_rgb(color), weight=1, width=0, height=MATCH,
                           margin=(0, margin), key=f"{view_id}-{i}")
        # the LineColorPicker's OnTouchListener (touchAt: the stripe under the finger), not a click listener
        stripe.consumes_touch = True
        stripe.on_touch = lambda i=i: on_pick(i)
        stripes.append(stripe)
    return LinearLayout(*stripes, id=view_id, orientation="horizontal", height=dp(80), width=MATCH)


def line_color_picker_dialog(activity: Activity, color: int, is_primary: bool,
                             callback: Callable[[bool, int], object]) -> Dialog:
    """Show the dialog for `color`: the primary colour's (two lines) or, not `is_primary`, the app icon's."""
    data = palettes()
    first_line = data["lines"]["md_primary_colors" if is_primary else "md_app_icon_colors"]
    family, shade = _indexes(color)
    state = {"family": family, "shade": shade}

    def current() -> int:
        if is_primary:
            return data["families"][state["family"]][state["shade"]]
        return first_line[state["family"]]

    def pick_family(index: int) -> None:
        state["family"] = index

    def pick_shade(index: int) -> None:
        state["shade"] = index

    def body() -> View:
        children: list[View] = []
        if not is_primary:  # lineColorPickerIcon.beGoneIf(isPrimaryColorPicker): the app's icon in the colour
            children.append(ImageView("line_color_picker_icon", icon=f"app:{activity.app.label}",
                                      width=dp(64), height=dp(64), layout_gravity="center_horizontal",
                                      margin=(0, 0, 0, dp(8))))
        children.append(_line("primary_line_color_picker", first_line, state["family"], pick_family))
        if is_primary:
            secondary = _line("secondary_line_color_picker", data["families"][state["family"]], state["shade"],
                              pick_shade)
            secondary.margin = (0, dp(24), 0, 0)
            children.append(secondary)
        children.append(TextView(_hex(current()), "hex_code", size=sp(16), layout_gravity="center_horizontal",
                                 margin=(0, dp(24), 0, 0), long_clickable=True))
        return Column(*children, id="line_color_picker_holder", class_name="android.widget.RelativeLayout",
                      padding=dp(16), height=WRAP)

    dialog = Dialog(body=body, positive=("OK", lambda _d: callback(True, current())),
                    negative=("Cancel", lambda _d: callback(False, 0)))
    activity.show_dialog(dialog)
    return dialog
