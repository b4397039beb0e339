"""Screenshots: the visible windows drawn with Pillow at the real screen size.

Rendering has two steps.  `display_list()` turns the windows into a list of
plain drawing operations (cheap, pure Python); the system compares it between
refreshes to know whether anything visible changed.  `paint()` draws that
list, or a range of its rows, into an image; `op_rows()` tells which rows an
operation can touch, so the frame buffer (frame.py) repaints only what changed.
"""

from __future__ import annotations

import functools

from . import editing as _editing
from . import keyboard as _keyboard
from . import bitmaps as _bitmaps
from . import icons as _icons
from . import text as _text
from .views import (
    ACCENT,
    BACKGROUND,
    TEXT_SECONDARY,
    CompoundButton,
    EditText,
    ImageView,
    RadioButton,
    Switch,
    TextView,
    View,
    dp,
)
from .window import NAV_BAR_H, STATUS_BAR_H, Window

STATUS_BAR_COLOR = (204, 65, 24)
NAV_BAR_COLOR = (0, 0, 0)
SCRIM_ALPHA = 115
SELECTION_COLOR = (252, 205, 190)  # the accent at ~30%, as textColorHighlight


def _h_align(gravity: str, free: int) -> int:
    parts = set(gravity.split("|")) if gravity else set()
    if "center" in parts or "center_horizontal" in parts:
        return max(0, free // 2)
    if "end" in parts or "right" in parts:
        return max(0, free)
    return 0


def _v_align(gravity: str, free: int) -> int:
    parts = set(gravity.split("|")) if gravity else set()
    if "center" in parts or "center_vertical" in parts:
        return max(0, free // 2)
    if "bottom" in parts:
        return max(0, free)
    return 0


def _text_ops(view: TextView, ops: list, color) -> None:
    clip = view.clip
    x0, y0, x1, y1 = view.rect
    pl, pt, pr, pb = view.padding
    line_h = _text.line_height(view.size)
    block_h = line_h * len(view.lines)
    if view.top_icon:
        block_h += view.icon_size + dp(8)
    top = y0 + pt + _v_align(view.gravity, (y1 - y0 - pt - pb) - block_h)
    if view.top_icon:
        s = view.icon_size
        left = x0 + pl + ((x1 - x0 - pl - pr) - s) // 2
        if top >= clip[1] and top + s <= clip[3]:
            ops.append(("icon", view.top_icon, (left, top, left + s, top + s), view.color))
        top += s + dp(8)
    for i, line in enumerate(view.lines):
        if not line:
            continue
        ly = top + i * line_h
        if ly < clip[1] or ly + line_h > clip[3] + 2:
            continue  # a line cut by a scroll edge is not drawn
        lw = _text.text_width(line, view.size, view.bold)
        lx = x0 + pl + _h_align(view.gravity, (x1 - x0 - pl - pr) - lw)
        ops.append(("text", lx, ly + (line_h - view.size) // 2, line, view.size, view.bold, color))


def _view_ops(view: View, ops: list) -> None:
    clip = view.clip
    if clip is None:
        return
    if view.bg is not None:
        ops.append(("rect", clip, view.bg, view.radius if clip == view.rect else 0))
    if view.selected and view.class_name == "android.widget.LinearLayout" and view.desc:
        ops.append(("rect", (clip[0], clip[3] - dp(3), clip[2], clip[3]), ACCENT, 0))
    if isinstance(view, EditText):
        focused = view.focused
        ops.append(("rect", (clip[0], clip[3] - (dp(2) if focused else dp(1)), clip[2], clip[3]),
                    ACCENT if focused else (160, 160, 160), 0))
        selection = _editing.selection_rects(view) if focused else []
        for box in selection:  # the highlight lies under the text
            ops.append(("rect", box, SELECTION_COLOR, 0))
        _text_ops(view, ops, view.color if view.text else (158, 158, 158))
        if focused and not selection:  # Android hides the caret while text is selected
            x, y, line_h = _editing.caret_position(view, view.cursor)
            ops.append(("rect", (x, y, x + 3, y + line_h), ACCENT, 0))
        return
    if isinstance(view, CompoundButton):
        _compound_ops(view, ops)
        _text_ops(view, ops, view.color)
        return
    if isinstance(view, TextView):
        _text_ops(view, ops, view.color if view.enabled else (170, 170, 170))
        return
    if isinstance(view, ImageView) and view.icon and clip == view.rect:
        ops.append(("icon", view.icon, view.rect, view.tint))


def _compound_ops(view: CompoundButton, ops: list) -> None:
    x0, y0, x1, y1 = view.rect
    cy = (y0 + y1) // 2
    s = dp(18)
    if isinstance(view, Switch):
        tx = x1 - dp(48)
        ops.append(("rect", (tx, cy - dp(7), tx + dp(36), cy + dp(7)), (255, 190, 170) if view.checked
                    else (190, 190, 190), dp(7)))
        kx = tx + (dp(18) if view.checked else 0)
        ops.append(("ellipse", (kx, cy - dp(10), kx + dp(20), cy + dp(10)),
                    ACCENT if view.checked else (245, 245, 245)))
        return
    bx = x0 + dp(8)
    box = (bx, cy - s // 2, bx + s, cy + s // 2)
    if isinstance(view, RadioButton):
        ops.append(("ring", box, ACCENT if view.checked else TEXT_SECONDARY))
        if view.checked:
            inner = (box[0] + dp(5), box[1] + dp(5), box[2] - dp(5), box[3] - dp(5))
            ops.append(("ellipse", inner, ACCENT))
        return
    if view.checked:
        ops.append(("rect", box, ACCENT, dp(2)))
        ops.append(("icon", "check", box, (255, 255, 255)))
    else:
        ops.append(("frame", box, TEXT_SECONDARY, dp(2)))


def _tree_ops(view: View, ops: list) -> None:
    _view_ops(view, ops)
    for child in view.children:
        if child.visible and (child.clip is not None or child.children):
            _tree_ops(child, ops)


def display_list(windows: list[Window], status_text: str, ime_shown: bool = False) -> list[tuple]:
    """Drawing operations for the windows, bottom first, the keyboard, then the system bars."""
    ops: list[tuple] = [("fill", BACKGROUND)]
    base = windows[0]
    for window in windows:
        if window.kind == "dialog" or getattr(window, "scrim", False):
            ops.append(("scrim", SCRIM_ALPHA))
        elif window.kind == "popup":
            l, t, r, b = window.frame
            ops.append(("rect", (l - 3, t - 1, r + 3, b + 5), (200, 200, 200), dp(4)))
        if window.root is not None:
            _tree_ops(window.root, ops)
    if ime_shown:  # the IME's window is above every app window and dialog
        ops.extend(_keyboard.display_ops(base.width, base.height, NAV_BAR_H))
    if not base.fullscreen and not any(getattr(w, "covers_status_bar", False) for w in windows):
        # System bars belong to SystemUI; they stay above every app window (the pulled-down
        # shade draws its own header where the status bar was).
        ops.append(("rect", (0, 0, base.width, STATUS_BAR_H), STATUS_BAR_COLOR, 0))
        ops.append(("text", dp(16), (STATUS_BAR_H - 40) // 2, status_text, 40, True, (255, 255, 255)))
        ops.append(("icon", "battery", (base.width - dp(40), 0, base.width - dp(8), STATUS_BAR_H),
                    (255, 255, 255)))
    else:
        ops.append(("text", dp(16), (STATUS_BAR_H - 40) // 2, status_text, 40, True, (255, 255, 255)))
    ops.append(("rect", (0, base.height - NAV_BAR_H, base.width, base.height), NAV_BAR_COLOR, 0))
    third = base.width // 3
    # with the keyboard up, Back shows as a down chevron: it hides the keyboard
    for i, name in enumerate(("nav_ime_back" if ime_shown else "nav_back", "nav_home", "nav_recents")):
        ops.append(("icon", name, (i * third, base.height - NAV_BAR_H, (i + 1) * third, base.height),
                    (235, 235, 235)))
    return ops


# ---------------------------------------------------------------------------
# painting


# Where each kind of operation keeps its box (l, t, r, b); "text" keeps its y.
_BOX_AT = {"rect": 1, "frame": 1, "ellipse": 1, "ring": 1, "icon": 2}
def _drawn_from_mask(op: tuple) -> bool:
    """Single lines at whole-pixel positions (all the toolkit makes) use the cached glyph masks."""
    return "\n" not in op[3] and isinstance(op[1], int) and isinstance(op[2], int)


# Other text (several lines, sub-pixel positions) is drawn directly; its glyphs
# reach above y (accents) and below y + size (descenders).
_TEXT_ABOVE, _TEXT_BELOW = 0.5, 1.6
# Outlines, line joints and anti-aliasing may bleed past a box by a few pixels.
_BLEED = 8


def op_rows(op: tuple, height: int) -> tuple[int, int]:
    """Rows [top, bottom) an operation may touch on a screen `height` rows high.

    Generous on purpose: the frame buffer repaints a band when an operation
    touching it changes, so a band missed here would keep stale pixels.
    """
    kind = op[0]
    if kind == "text":
        _, x, y, line, size, bold, _color = op
        if _drawn_from_mask(op):
            glyphs = _text.glyph_mask(line, size, bold)
            if glyphs is None:
                return y, y
            mask, (_dx, dy) = glyphs
            return y + dy, y + dy + mask.size[1]  # exact: nothing outside the mask is touched
        lines = line.count("\n") + 1
        return y - int(size * _TEXT_ABOVE) - _BLEED, y + int(size * _TEXT_BELOW) * lines + _BLEED
    index = _BOX_AT.get(kind)
    if index is not None:
        box = op[index]
        return box[1] - _BLEED, box[3] + _BLEED
    if kind == "toast":
        top = height - NAV_BAR_H - dp(120)
        return top - _BLEED, top + dp(44) + _BLEED
    return 0, height  # "fill", "scrim" and anything new: the whole screen


# Kinds whose pixels depend only on their own coordinates ("fill" and "scrim"
# cover whatever is painted); a "toast" sits at a place computed from the screen.
MOVABLE_KINDS = frozenset({"text", "fill", "scrim", *_BOX_AT})


def moved_up(op: tuple, rows: int) -> tuple:
    """The operation drawn `rows` higher (to paint a band into its own image)."""
    if not rows:
        return op
    if op[0] == "text":
        return op[:2] + (op[2] - rows,) + op[3:]
    index = _BOX_AT.get(op[0])
    if index is None:
        return op
    l, t, r, b = op[index]
    return op[:index] + ((l, t - rows, r, b - rows),) + op[index + 1:]


def paint(ops: list[tuple], width: int, height: int, *, top: int = 0, bottom: int | None = None):
    """Draw a display list into a new RGB image: rows top..bottom of the screen (all by default)."""
    from PIL import Image, ImageDraw

    bottom = height if bottom is None else bottom
    rows = bottom - top
    # A dialog's scrim darkens everything drawn before it. Instead of blending
    # a translucent layer over the finished pixels (about 7 ms for a whole
    # screen), everything under it is drawn in the colours the blend would give.
    dims = [op[1] for op in ops if op[0] == "scrim"]  # the scrims above the current operation
    shade = _shader(tuple(dims))
    if ops and ops[0][0] == "fill":
        # The usual first operation: start from its colour instead of filling twice.
        image = Image.new("RGB", (width, rows), shade(ops[0][1]))
        ops = ops[1:]
    else:
        image = Image.new("RGB", (width, rows), shade(BACKGROUND))
    draw = ImageDraw.Draw(image)
    for op in ops:
        op = moved_up(op, top)
        kind = op[0]
        if kind == "fill":
            image.paste(shade(op[1]), (0, 0, width, rows))
        elif kind == "rect":
            _, (l, t, r, b), color, radius = op
            if r > l and b > t:
                if radius:
                    draw.rounded_rectangle((l, t, r - 1, b - 1), radius=radius, fill=shade(color))
                else:
                    image.paste(shade(color), (l, t, r, b))  # same pixels as draw.rectangle, 3x faster
        elif kind == "frame":
            _, (l, t, r, b), color, w = op
            draw.rectangle((l, t, r - 1, b - 1), outline=shade(color), width=w)
        elif kind == "ellipse":
            draw.ellipse(op[1], fill=shade(op[2]))
        elif kind == "ring":
            draw.ellipse(op[1], outline=shade(op[2]), width=dp(2))
        elif kind == "text":
            _, x, y, s, size, bold, color = op
            if _drawn_from_mask(op):
                glyphs = _text.glyph_mask(s, size, bold)
                if glyphs is not None:
                    mask, (dx, dy) = glyphs
                    draw.bitmap((x + dx, y + dy), mask, fill=shade(color))
            else:
                draw.text((x, y), s, font=_text.font(size, bold), fill=shade(color))
        elif kind == "scrim":
            dims.pop(0)
            shade = _shader(tuple(dims))
        elif kind == "icon":
            if op[1].startswith(_bitmaps.PREFIX) and _paste_bitmap(image, op, dims):
                continue
            _icon(draw, op[1], op[2], shade(op[3]), shade)
        elif kind == "toast":
            f = _text.font(40)
            tw = int(f.getlength(op[1]))
            left, y = (width - tw) // 2 - dp(16), height - NAV_BAR_H - dp(120) - top
            draw.rounded_rectangle((left, y, left + tw + dp(32), y + dp(44)), radius=dp(22),
                                   fill=shade((60, 60, 60)))
            draw.text((left + dp(16), y + (dp(44) - 40) // 2), op[1], font=f, fill=shade((255, 255, 255)))
    return image


def _paste_bitmap(image, op: tuple, scrims: list[int]) -> bool:
    """Paste a file's picture (an "icon" named bitmap:...) into its box; False if it has none."""
    l, t, r, b = op[2]
    dim = 1.0
    for alpha in scrims:  # the scrims above it darken it as they darken colours
        dim *= 1 - alpha / 255
    picture = _bitmaps.fitted(op[1], (r - l, b - t), round(dim, 4))
    if picture is None:
        return False
    image.paste(picture, (l, t))
    return True


def _unshaded(color):
    return color


@functools.lru_cache(maxsize=64)
def _shader(alphas: tuple[int, ...]):
    """Colour -> the colour after black layers of these opacities are blended over it."""
    if not alphas:
        return _unshaded

    @functools.lru_cache(maxsize=256)
    def shade(color: tuple[int, int, int]) -> tuple[int, int, int]:
        from PIL import Image, ImageDraw

        # Pillow's own blend, so a flat area comes out exactly as under a translucent layer.
        pixel = Image.new("RGB", (1, 1), color)
        for alpha in alphas:
            ImageDraw.Draw(pixel, "RGBA").rectangle((0, 0, 1, 1), fill=(0, 0, 0, alpha))
        return pixel.getpixel((0, 0))

    return shade


def _icon(draw, name: str, rect, color, shade=_unshaded) -> None:
    l, t, r, b = rect
    cx, cy = (l + r) // 2, (t + b) // 2
    u = max(4, min(r - l, b - t) // 6)  # icon unit: a sixth of the box
    w = max(3, u // 2)
    if name in ("back", "nav_back"):
        if name == "nav_back":
            draw.polygon([(cx + u, cy - u * 1), (cx + u, cy + u), (cx - u, cy)], outline=color, width=4)
        else:
            draw.line((cx - 2 * u, cy, cx + 2 * u, cy), fill=color, width=w)
            draw.line((cx - 2 * u, cy, cx - u // 2, cy - int(1.5 * u)), fill=color, width=w)
            draw.line((cx - 2 * u, cy, cx - u // 2, cy + int(1.5 * u)), fill=color, width=w)
    elif name == "nav_ime_back":
        draw.line((cx - u, cy - u // 2, cx, cy + u // 2, cx + u, cy - u // 2), fill=color, width=4)
    elif name == "forward":
        draw.line((cx - 2 * u, cy, cx + 2 * u, cy), fill=color, width=w)
        draw.line((cx + 2 * u, cy, cx + u // 2, cy - int(1.5 * u)), fill=color, width=w)
        draw.line((cx + 2 * u, cy, cx + u // 2, cy + int(1.5 * u)), fill=color, width=w)
    elif name == "nav_home":
        draw.ellipse((cx - u, cy - u, cx + u, cy + u), outline=color, width=4)
    elif name == "nav_recents":
        draw.rectangle((cx - u, cy - u, cx + u, cy + u), outline=color, width=4)
    elif name == "more":
        for dy in (-u - u // 2, 0, u + u // 2):
            draw.ellipse((cx - w, cy + dy - w, cx + w, cy + dy + w), fill=color)
    elif name == "search":
        draw.ellipse((cx - int(1.6 * u), cy - int(1.6 * u), cx + u // 2, cy + u // 2), outline=color, width=w)
        draw.line((cx + u // 4, cy + u // 4, cx + 2 * u, cy + 2 * u), fill=color, width=w + 1)
    elif name == "plus":
        draw.line((cx - 2 * u, cy, cx + 2 * u, cy), fill=color, width=w)
        draw.line((cx, cy - 2 * u, cx, cy + 2 * u), fill=color, width=w)
    elif name == "check":
        draw.line((l + (r - l) // 5, cy, cx - u // 3, b - (b - t) // 4, r - (r - l) // 6, t + (b - t) // 4),
                  fill=color, width=max(3, (r - l) // 8), joint="curve")
    elif name == "swap":
        draw.line((cx - u, cy - 2 * u, cx - u, cy + 2 * u), fill=color, width=w)
        draw.line((cx - u, cy - 2 * u, cx - 2 * u, cy - u), fill=color, width=w)
        draw.line((cx + u, cy - 2 * u, cx + u, cy + 2 * u), fill=color, width=w)
        draw.line((cx + u, cy + 2 * u, cx + 2 * u, cy + u), fill=color, width=w)
    elif name == "history":
        draw.ellipse((cx - 2 * u, cy - 2 * u, cx + 2 * u, cy + 2 * u), outline=color, width=w)
        draw.line((cx, cy - u, cx, cy, cx + u, cy), fill=color, width=w)
    elif name == "battery":
        draw.rectangle((cx - u, cy - int(1.8 * u), cx + u, cy + int(1.8 * u)), fill=color)
    elif name in _FILE_ICONS:
        _FILE_ICONS[name](draw, (l, t, r, b), cx, cy, u, w, color)
    elif name.startswith("app:"):
        # Launcher icon: a coloured disc with the label's initial.
        label = name[4:]
        hue = sum(ord(c) for c in label) % 6
        palette = [(244, 81, 30), (3, 155, 229), (67, 160, 71), (142, 36, 170), (255, 179, 0), (0, 137, 123)]
        draw.ellipse((l, t, r - 1, b - 1), fill=shade(palette[hue]))
        initial = label[:1].upper()
        size = (r - l) // 2
        f = _text.font(size, True)
        tw = f.getlength(initial)
        draw.text((cx - tw / 2, cy - size * 0.6), initial, font=f, fill=shade((255, 255, 255)))
    elif name in _icons.ICONS:
        _icons.ICONS[name](draw, rect, color)
    else:
        draw.ellipse((cx - u, cy - u, cx + u, cy + u), fill=color)


# Icons of the file and gallery apps: simple outlines a vision agent can tell apart.
def _icon_folder(draw, box, cx, cy, u, w, color):
    draw.polygon([(cx - 2 * u, cy - u), (cx - u, cy - u), (cx - u // 2, cy - u // 2), (cx + 2 * u, cy - u // 2),
                  (cx + 2 * u, cy + int(1.5 * u)), (cx - 2 * u, cy + int(1.5 * u))], fill=color)


def _icon_file(draw, box, cx, cy, u, w, color):
    draw.polygon([(cx - int(1.4 * u), cy - 2 * u), (cx + u // 2, cy - 2 * u), (cx + int(1.4 * u), cy - u),
                  (cx + int(1.4 * u), cy + 2 * u), (cx - int(1.4 * u), cy + 2 * u)], outline=color, width=w)


def _icon_sort(draw, box, cx, cy, u, w, color):
    for i, length in enumerate((2, 1.4, 0.8)):
        y = cy - u + i * u
        draw.line((cx - 2 * u, y, cx - 2 * u + int(length * 2 * u), y), fill=color, width=w)


def _icon_home(draw, box, cx, cy, u, w, color):
    draw.polygon([(cx, cy - 2 * u), (cx + 2 * u, cy), (cx - 2 * u, cy)], fill=color)
    draw.rectangle((cx - int(1.3 * u), cy, cx + int(1.3 * u), cy + int(1.7 * u)), fill=color)


def _icon_star(draw, box, cx, cy, u, w, color):
    import math

    points = [(cx + (2 * u if i % 2 == 0 else u) * math.sin(i * math.pi / 5),
               cy - (2 * u if i % 2 == 0 else u) * math.cos(i * math.pi / 5)) for i in range(10)]
    draw.polygon(points, outline=color, width=max(2, w // 2))


def _icon_delete(draw, box, cx, cy, u, w, color):
    draw.line((cx - int(1.6 * u), cy - int(1.4 * u), cx + int(1.6 * u), cy - int(1.4 * u)), fill=color, width=w)
    draw.rectangle((cx - u, cy - u, cx + u, cy + 2 * u), outline=color, width=w)


def _icon_info(draw, box, cx, cy, u, w, color):
    draw.ellipse((cx - 2 * u, cy - 2 * u, cx + 2 * u, cy + 2 * u), outline=color, width=w)
    draw.line((cx, cy - u // 4, cx, cy + u), fill=color, width=w)
    draw.ellipse((cx - w // 2, cy - u - w // 2, cx + w // 2, cy - u + w // 2), fill=color)


def _icon_rename(draw, box, cx, cy, u, w, color):
    draw.line((cx - 2 * u, cy + 2 * u, cx + 2 * u, cy - 2 * u), fill=color, width=w + 2)
    draw.line((cx - 2 * u, cy + 2 * u, cx - u, cy + 2 * u), fill=color, width=w)


def _icon_close(draw, box, cx, cy, u, w, color):
    draw.line((cx - int(1.5 * u), cy - int(1.5 * u), cx + int(1.5 * u), cy + int(1.5 * u)), fill=color, width=w)
    draw.line((cx - int(1.5 * u), cy + int(1.5 * u), cx + int(1.5 * u), cy - int(1.5 * u)), fill=color, width=w)


def _icon_play(draw, box, cx, cy, u, w, color):
    draw.polygon([(cx - u, cy - int(1.5 * u)), (cx + int(1.5 * u), cy), (cx - u, cy + int(1.5 * u))], fill=color)


def _icon_grid(draw, box, cx, cy, u, w, color):
    for dx in (-1, 1):
        for dy in (-1, 1):
            x, y = cx + dx * u - u // 2 * (1 if dx > 0 else 1), cy + dy * u - u // 2
            draw.rectangle((x - u // 2, y - u // 2, x + u // 2 + u // 2, y + u // 2 + u // 2), fill=color)


def _icon_camera(draw, box, cx, cy, u, w, color):
    draw.rectangle((cx - 2 * u, cy - u, cx + 2 * u, cy + int(1.6 * u)), outline=color, width=w)
    draw.ellipse((cx - u // 1.4, cy - u // 2, cx + u // 1.4, cy + u), outline=color, width=w)


def _icon_share(draw, box, cx, cy, u, w, color):
    ends = [(cx + int(1.5 * u), cy - int(1.5 * u)), (cx - int(1.5 * u), cy), (cx + int(1.5 * u), cy + int(1.5 * u))]
    draw.line(ends, fill=color, width=w)
    for x, y in ends:
        draw.ellipse((x - w, y - w, x + w, y + w), fill=color)


_FILE_ICONS = {
    "folder": _icon_folder, "file": _icon_file, "sort": _icon_sort, "home": _icon_home, "star": _icon_star,
    "delete": _icon_delete, "info": _icon_info, "rename": _icon_rename, "edit": _icon_rename, "close": _icon_close,
    "play": _icon_play, "grid": _icon_grid, "camera": _icon_camera, "share": _icon_share,
}
