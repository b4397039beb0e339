"""The soft keyboard (IME): its window's geometry, its keys, and windowSoftInputMode.

The phone's input method is AOSP's LatinIME (``settings get secure
default_input_method`` names it), drawn with Gboard's portrait geometry on
a 1080 px wide, 440 dpi screen: a 48 dp strip above four rows of keys, the
keys 10 to a row.  Its window sits above the navigation bar, over the
lower part of the screen, and is a window of its own: the IME window is
never the *active* window, so ``uiautomator dump`` (which dumps
``getRootInActiveWindow()``) leaves it out on a phone, and so does the
virtual phone.

When it shows and hides, and how the app window makes room for it, is
Android 14's policy, kept in system.py (``ImeVisibilityStateComputer``) and
window.py (``ViewRootImpl``); this module only parses the modes.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from . import text as _text
from .views import dp, sp

__all__ = ["IME_ID", "IME_PACKAGE", "IME_HEIGHT", "Key", "display_ops", "key_at", "keys",
           "parse_soft_input_mode", "soft_input_mode_string"]

IME_PACKAGE = "com.android.inputmethod.latin"
IME_ID = f"{IME_PACKAGE}/.LatinIME"

STRIP_H = dp(48)        # the suggestion strip / toolbar above the keys
ROW_H = dp(54)          # one row of keys, gaps included
BOTTOM_PAD = dp(8)
#: the IME window's height above the navigation bar
IME_HEIGHT = STRIP_H + 4 * ROW_H + BOTTOM_PAD
KEY_GAP = dp(3)         # between two keys, each side
KEY_RADIUS = dp(6)

BACKGROUND = (232, 234, 237)
KEY_COLOR = (255, 255, 255)
FUNCTION_KEY_COLOR = (207, 211, 218)
ENTER_COLOR = (26, 115, 232)
LABEL_COLOR = (32, 33, 36)

# (label, code, width in key units); code is what a tap on it does.
_ROWS: tuple[tuple[tuple[str, str, float], ...], ...] = (
    tuple((c, c, 1.0) for c in "qwertyuiop"),
    tuple((c, c, 1.0) for c in "asdfghjkl"),
    (("⇧", "SHIFT", 1.5),) + tuple((c, c, 1.0) for c in "zxcvbnm") + (("⌫", "DEL", 1.5),),
    (("?123", "SYMBOLS", 1.5), (",", ",", 1.0), ("", " ", 5.0), (".", ".", 1.0), ("↵", "ENTER", 1.5)),
)


class Key(NamedTuple):
    label: str
    code: str
    box: tuple[int, int, int, int]  # the key cap (l, t, r, b)
    cell: tuple[int, int, int, int]  # the touch area: the cap and its share of the gaps


def _top(screen_h: int, nav_bar_h: int) -> int:
    return screen_h - nav_bar_h - IME_HEIGHT


@functools.lru_cache(maxsize=4)
def keys(width: int, screen_h: int, nav_bar_h: int) -> tuple[Key, ...]:
    """Every key, with its cap and its touch cell (cells tile the key rows without gaps)."""
    unit = width / 10
    out = []
    top = _top(screen_h, nav_bar_h) + STRIP_H
    for r, row in enumerate(_ROWS):
        units = sum(w for _, _, w in row)
        x = (10 - units) * unit / 2  # the middle row is centred, half a key in
        y0, y1 = top + r * ROW_H, top + (r + 1) * ROW_H
        for i, (label, code, w) in enumerate(row):
            x0, x1 = round(x), round(x + w * unit)
            # the outer keys' cells reach the screen's edges, as Gboard's do
            cell = (0 if i == 0 else x0, y0, width if i == len(row) - 1 else x1, y1)
            out.append(Key(label, code, (x0 + KEY_GAP, y0 + KEY_GAP, x1 - KEY_GAP, y1 - KEY_GAP), cell))
            x += w * unit
    return tuple(out)


@functools.lru_cache(maxsize=4)
def display_ops(width: int, screen_h: int, nav_bar_h: int) -> tuple[tuple, ...]:
    """The keyboard's drawing operations (the same every time: the frame buffer caches its bands)."""
    top = _top(screen_h, nav_bar_h)
    ops: list[tuple] = [("rect", (0, top, width, screen_h - nav_bar_h), BACKGROUND, 0)]
    # the strip's three toolbar dots, as Gboard shows before any suggestion
    cy = top + STRIP_H // 2
    for i in range(3):
        cx = width // 2 + (i - 1) * dp(10)
        ops.append(("ellipse", (cx - dp(2), cy - dp(2), cx + dp(2), cy + dp(2)), (95, 99, 104)))
    size = sp(22)
    for key in keys(width, screen_h, nav_bar_h):
        letter = len(key.code) == 1 and key.code.isalpha()
        if key.code == "ENTER":
            color = ENTER_COLOR
        elif letter or key.code in (" ", ",", "."):
            color = KEY_COLOR
        else:
            color = FUNCTION_KEY_COLOR
        ops.append(("rect", key.box, color, KEY_RADIUS))
        if key.label:
            label_size = size if len(key.label) == 1 else sp(16)
            l, t, r, b = key.box
            w = _text.text_width(key.label, label_size)
            ops.append(("text", (l + r - w) // 2, t + (b - t - label_size) // 2, key.label, label_size, False,
                        (255, 255, 255) if key.code == "ENTER" else LABEL_COLOR))
    return tuple(ops)


def key_at(x: int, y: int, width: int, screen_h: int, nav_bar_h: int) -> Key | None:
    """The key whose touch cell holds (x, y); None on the strip or the bottom padding."""
    for key in keys(width, screen_h, nav_bar_h):
        l, t, r, b = key.cell
        if l <= x < r and t <= y < b:
            return key
    return None


# -- windowSoftInputMode ------------------------------------------------------------------
_STATES = {"stateUnspecified": "unspecified", "stateUnchanged": "unchanged", "stateHidden": "hidden",
           "stateAlwaysHidden": "always_hidden", "stateVisible": "visible", "stateAlwaysVisible": "always_visible"}
_ADJUSTS = {"adjustUnspecified": "unspecified", "adjustResize": "resize", "adjustPan": "pan",
            "adjustNothing": "nothing"}


def parse_soft_input_mode(value: str) -> tuple[str, str]:
    """A manifest's ``android:windowSoftInputMode`` ("stateAlwaysVisible|adjustResize") -> (state, adjust)."""
    state = adjust = "unspecified"
    for flag in filter(None, (part.strip() for part in value.split("|"))):
        if flag in _STATES:
            state = _STATES[flag]
        elif flag in _ADJUSTS:
            adjust = _ADJUSTS[flag]
        else:
            raise ValueError(f"unknown windowSoftInputMode flag {flag!r}")
    return state, adjust


def soft_input_mode_string(state: str, adjust: str, forward: bool) -> str:
    """As InputMethodDebug.softInputModeToString prints a window's mode in `dumpsys input_method`."""
    parts = ["STATE_" + state.upper(), "ADJUST_" + adjust.upper()]
    if forward:
        parts.append("IS_FORWARD_NAVIGATION")
    return "|".join(parts)
