"""Text editing as Android's EditText does it: where a touch puts the cursor,
which word a long press selects, and what the text-selection toolbar offers.

Geometry uses the very font metrics and text placement the renderer draws
with (text.py, render.py), so the character under a finger on the
screenshot is the one the cursor lands next to.

The toolbar's actions come in the order TextView's action-mode callback adds
them: Cut, Copy, Paste, Select all (Share and text-classifier actions are not
modelled); its window is floating_toolbar.py.
"""

from __future__ import annotations

import re

from . import text as _text
from .views import EditText, TextView

__all__ = ["caret_position", "line_starts", "offset_at", "on_text", "toolbar_items",
           "word_range"]

_WORD = re.compile(r"\w", re.UNICODE)


def _h_offset(gravity: str, free: int) -> int:
    parts = set(gravity.split("|")) if gravity else set()
    if "center" in parts or "center_horizontal" in parts:
        return max(0, free // 2)
    if "end" in parts or "right" in parts:
        return max(0, free)
    return 0


def _v_offset(gravity: str, free: int) -> int:
    parts = set(gravity.split("|")) if gravity else set()
    if "center" in parts or "center_vertical" in parts:
        return max(0, free // 2)
    if "bottom" in parts:
        return max(0, free)
    return 0


def line_starts(view: TextView) -> list[int]:
    """Where each laid-out line of ``view`` starts in its shown text."""
    shown = view.shown_text()
    starts, pos = [], 0
    for line in view.lines:
        piece = line[:-1] if line.endswith("…") and not shown.endswith("…") else line
        found = shown.find(piece, pos) if piece else -1
        start = found if found >= 0 else pos
        starts.append(start)
        pos = start + len(piece)
        # a wrapped line drops the space or newline it broke at
        if pos < len(shown) and shown[pos] in " \n":
            pos += 1
    return starts or [0]


def _line_box(view: TextView, index: int) -> tuple[int, int, int]:
    """(left x, top y, line height) of laid-out line ``index``, as render.py places it."""
    x0, y0, x1, y1 = view.rect
    pl, pt, pr, pb = view.padding
    line_h = _text.line_height(view.size)
    top = y0 + pt + _v_offset(view.gravity, (y1 - y0 - pt - pb) - line_h * len(view.lines))
    line = view.lines[index] if index < len(view.lines) else ""
    width = _text.text_width(line, view.size, view.bold)
    return x0 + pl + _h_offset(view.gravity, (x1 - x0 - pl - pr) - width), top + index * line_h, line_h


def offset_at(view: EditText, x: int, y: int) -> int:
    """The text offset nearest to a touch at (x, y) (TextView.getOffsetForPosition)."""
    if not view.text:
        return 0
    shown = view.shown_text()
    starts = line_starts(view)
    index = 0
    for i in range(len(starts)):
        _, top, line_h = _line_box(view, i)
        if y >= top:
            index = i
        if y < top + line_h:
            break
    start = starts[index]
    end = starts[index + 1] if index + 1 < len(starts) else len(shown)
    line = shown[start:end].rstrip("\n")
    left, _, _ = _line_box(view, index)
    best, best_gap = start, abs(x - left)
    for i in range(1, len(line) + 1):
        gap = abs(x - (left + _text.text_width(line[:i], view.size, view.bold)))
        if gap < best_gap:
            best, best_gap = start + i, gap
    return min(best, len(view.text))


def on_text(view: EditText, x: int, y: int) -> bool:
    """Whether a touch at (x, y) is on the text (Editor.isPositionOnText).

    The line under the finger (the first or last one when above or below
    them) must reach horizontally as far as x: a touch past the end of a
    line, beside it, or anywhere in an empty field is on empty space.
    """
    if not view.text or not view.lines:
        return False
    index = 0
    for i in range(len(view.lines)):
        _, top, line_h = _line_box(view, i)
        if y >= top:
            index = i
    left, _, _ = _line_box(view, index)
    right = left + _text.text_width(view.lines[index], view.size, view.bold)
    return left <= x <= right


def caret_position(view: EditText, offset: int) -> tuple[int, int, int]:
    """(x, top y, height) of the caret before ``offset``."""
    starts = line_starts(view)
    index = max(i for i, start in enumerate(starts) if start <= offset) if offset > 0 else 0
    left, top, line_h = _line_box(view, index)
    shown = view.shown_text() if view.text else ""
    before = shown[starts[index]:offset]
    return left + _text.text_width(before, view.size, view.bold), top, line_h


def selection_rects(view: EditText) -> list[tuple[int, int, int, int]]:
    """Screen boxes of the selected text, one per line (for highlighting)."""
    start, end = view.selection()
    if start == end or not view.text:
        return []
    starts = line_starts(view) + [len(view.shown_text()) + 1]
    boxes = []
    for index in range(len(starts) - 1):
        line_start, line_end = starts[index], starts[index + 1]
        lo, hi = max(start, line_start), min(end, line_end)
        if lo >= hi:
            continue
        x1, top, line_h = caret_position(view, lo)
        x2 = caret_position(view, hi)[0] if hi < line_end else x1 + _text.text_width(
            view.shown_text()[lo:hi].rstrip("\n "), view.size, view.bold)
        boxes.append((x1, top, max(x2, x1 + 1), top + line_h))
    return boxes


def word_range(text: str, offset: int) -> tuple[int, int]:
    """The word a long press at ``offset`` selects (Editor.selectCurrentWord).

    A press beside a word takes that word; between two non-word characters
    it takes the single character, as Android falls back to a character
    cluster when the word iterator finds no word.
    """
    if not text:
        return 0, 0
    offset = max(0, min(offset, len(text)))
    if offset < len(text) and _WORD.match(text[offset]):
        pivot = offset
    elif offset > 0 and _WORD.match(text[offset - 1]):
        pivot = offset - 1
    else:
        pivot = min(offset, len(text) - 1)
        return pivot, pivot + 1
    start = end = pivot
    while start > 0 and _WORD.match(text[start - 1]):
        start -= 1
    while end < len(text) and _WORD.match(text[end]):
        end += 1
    return start, end


def toolbar_items(view: EditText, clipboard: str | None) -> list[str]:
    """The actions the toolbar offers, in TextView's menu order."""
    start, end = view.selection()
    selected = start != end
    items = []
    if selected and not view.password:
        items += ["Cut", "Copy"]
    if clipboard:
        items.append("Paste")
    if view.text and not view.password and not (start == 0 and end == len(view.text)):
        items.append("Select all")
    return items
