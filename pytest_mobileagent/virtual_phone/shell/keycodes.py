"""Android key codes (android.view.KeyEvent) and name canonicalisation for `input keyevent`."""

from __future__ import annotations

__all__ = ["KEYCODES", "canonical_key"]

_NAMES = {
    0: "UNKNOWN", 1: "SOFT_LEFT", 2: "SOFT_RIGHT", 3: "HOME", 4: "BACK", 5: "CALL", 6: "ENDCALL",
    17: "STAR", 18: "POUND", 19: "DPAD_UP", 20: "DPAD_DOWN", 21: "DPAD_LEFT", 22: "DPAD_RIGHT",
    23: "DPAD_CENTER", 24: "VOLUME_UP", 25: "VOLUME_DOWN", 26: "POWER", 27: "CAMERA", 28: "CLEAR",
    55: "COMMA", 56: "PERIOD", 57: "ALT_LEFT", 58: "ALT_RIGHT", 59: "SHIFT_LEFT", 60: "SHIFT_RIGHT",
    61: "TAB", 62: "SPACE", 63: "SYM", 64: "EXPLORER", 65: "ENVELOPE", 66: "ENTER", 67: "DEL",
    68: "GRAVE", 69: "MINUS", 70: "EQUALS", 71: "LEFT_BRACKET", 72: "RIGHT_BRACKET", 73: "BACKSLASH",
    74: "SEMICOLON", 75: "APOSTROPHE", 76: "SLASH", 77: "AT", 78: "NUM", 79: "HEADSETHOOK",
    80: "FOCUS", 81: "PLUS", 82: "MENU", 83: "NOTIFICATION", 84: "SEARCH", 85: "MEDIA_PLAY_PAUSE",
    86: "MEDIA_STOP", 87: "MEDIA_NEXT", 88: "MEDIA_PREVIOUS", 89: "MEDIA_REWIND",
    90: "MEDIA_FAST_FORWARD", 91: "MUTE", 92: "PAGE_UP", 93: "PAGE_DOWN", 111: "ESCAPE",
    112: "FORWARD_DEL", 113: "CTRL_LEFT", 114: "CTRL_RIGHT", 115: "CAPS_LOCK", 116: "SCROLL_LOCK",
    117: "META_LEFT", 118: "META_RIGHT", 119: "FUNCTION", 120: "SYSRQ", 121: "BREAK",
    122: "MOVE_HOME", 123: "MOVE_END", 124: "INSERT", 125: "FORWARD", 126: "MEDIA_PLAY",
    127: "MEDIA_PAUSE", 154: "NUMPAD_DIVIDE", 155: "NUMPAD_MULTIPLY", 156: "NUMPAD_SUBTRACT",
    157: "NUMPAD_ADD", 158: "NUMPAD_DOT", 159: "NUMPAD_COMMA", 160: "NUMPAD_ENTER",
    161: "NUMPAD_EQUALS", 162: "NUMPAD_LEFT_PAREN", 163: "NUMPAD_RIGHT_PAREN", 164: "VOLUME_MUTE",
    176: "SETTINGS", 187: "APP_SWITCH", 207: "CONTACTS", 208: "CALENDAR", 209: "MUSIC",
    210: "CALCULATOR", 219: "ASSIST", 220: "BRIGHTNESS_DOWN", 221: "BRIGHTNESS_UP", 223: "SLEEP",
    224: "WAKEUP", 231: "VOICE_ASSIST", 277: "CUT", 278: "COPY", 279: "PASTE",
    280: "SYSTEM_NAVIGATION_UP", 281: "SYSTEM_NAVIGATION_DOWN", 284: "ALL_APPS",
}
_NAMES.update({7 + d: str(d) for d in range(10)})
_NAMES.update({29 + i: chr(ord("A") + i) for i in range(26)})
_NAMES.update({131 + i: f"F{i + 1}" for i in range(12)})
_NAMES.update({144 + d: f"NUMPAD_{d}" for d in range(10)})

#: code -> canonical name (without KEYCODE_)
KEYCODES: dict[int, str] = dict(sorted(_NAMES.items()))
_BY_NAME = {name: code for code, name in KEYCODES.items()}


def canonical_key(arg: str) -> str | None:
    """`BACK`, `KEYCODE_BACK`, `keycode_back` or `4` -> "BACK"; None if unknown.

    Like KeyEvent.keyCodeFromString, a number is a key code and a name may
    carry the KEYCODE_ prefix.
    """
    text = arg.strip()
    if text.isdigit():
        return KEYCODES.get(int(text))
    name = text.upper()
    if name.startswith("KEYCODE_"):
        name = name[len("KEYCODE_"):]
    return name if name in _BY_NAME and name != "UNKNOWN" else None
