"""Fonts and text measurement shared by layout and rendering.

Layout measures text with the very font the renderer draws with, so a
TextView's bounds in the dump match the pixels in the screenshot.  Pillow's
bundled default font lacks the calculator's glyphs (× ÷ √), so DejaVu Sans is
preferred when the system has it; `ImageFont.load_default(size=N)` is the
fallback.
"""

from __future__ import annotations

import functools
import os

_CANDIDATES = {
    False: (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    ),
    True: (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
    ),
}


@functools.lru_cache(maxsize=64)
def font(size: int, bold: bool = False):
    """Return a FreeType font of `size` pixels (cached)."""
    from PIL import ImageFont

    for path in _CANDIDATES[bold]:
        if os.path.exists(path):
            return ImageFont.truetype(path, size)
    return ImageFont.load_default(size=size)


@functools.lru_cache(maxsize=8192)
def text_width(text: str, size: int, bold: bool = False) -> int:
    """Advance width of one line of `text` in pixels."""
    if not text:
        return 0
    return int(round(font(size, bold).getlength(text)))


def line_height(size: int) -> int:
    """Height of one text line: the font size plus Android-like leading."""
    return int(round(size * 1.25))


def wrap(text: str, size: int, max_width: int, bold: bool = False, max_lines: int | None = None) -> list[str]:
    """Break `text` into lines no wider than `max_width` (words first, then characters)."""
    lines: list[str] = []
    for para in text.split("\n"):
        if text_width(para, size, bold) <= max_width or max_width <= 0:
            lines.append(para)
            continue
        current = ""
        for word in para.split(" "):
            candidate = word if not current else current + " " + word
            if text_width(candidate, size, bold) <= max_width:
                current = candidate
                continue
            if current:
                lines.append(current)
            # A single word wider than the line is broken by characters.
            current = ""
            for ch in word:
                if text_width(current + ch, size, bold) > max_width and current:
                    lines.append(current)
                    current = ""
                current += ch
        lines.append(current)
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        last = lines[-1]
        while last and text_width(last + "…", size, bold) > max_width:
            last = last[:-1]
        lines[-1] = last + "…"
    return lines


@functools.lru_cache(maxsize=4096)
def glyph_mask(text: str, size: int, bold: bool = False):
    """One line of text rendered once as a coverage mask: (mask image, (left, top) from the origin).

    UI text repeats from frame to frame (labels, keys, list rows), so drawing a
    cached mask beats rasterising the glyphs again; its box is also exactly the
    rows the text touches, which the frame buffer needs.  None for a line that
    draws nothing (empty or blank).
    """
    from PIL import Image

    # Pillow's own rasterisation, the very call ImageDraw.text makes, without
    # drawing its result into a second image (~40% faster; same pixels, which
    # tests/virtual_phone/test_ui_frame.py checks against ImageDraw.text).
    core, offset = font(size, bold).getmask2(text, "L")
    if core.size[0] <= 0 or core.size[1] <= 0:
        return None
    return Image.Image()._new(core), offset
