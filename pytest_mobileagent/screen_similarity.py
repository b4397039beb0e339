"""Did an action change the screen?  AndroidLab's pixel test for ROR.

AndroidLab counts an operation as unreasonable when the screenshots before
and after it are the same: the share of equal channel values, counted only
where at least one of the two images is not pure white (255), exceeds
0.999.  White is left out so that a mostly blank screen does not make every
small change look negligible.  This module is that definition, written with
Pillow's channel operations and histograms (no array library needed).
"""

from __future__ import annotations

import io

from PIL import Image, ImageChops

__all__ = ["SAME_SCREEN", "decode", "screen_changed", "similarity"]

#: Similarity above which two screenshots show the same screen (AndroidLab's threshold).
SAME_SCREEN = 0.999

def decode(png: bytes) -> Image.Image:
    """A screenshot as the RGB image :func:`similarity` compares (decode once, compare often)."""
    image = Image.open(io.BytesIO(png))
    return image.convert("RGB") if image.mode != "RGB" else image


def similarity(before: bytes | Image.Image, after: bytes | Image.Image) -> float:
    """Share of equal channel values where the two screenshots are not both white (0..1)."""
    before = decode(before) if isinstance(before, bytes) else before
    after = decode(after) if isinstance(after, bytes) else after
    if before.size != after.size:
        return 0.0
    # Per band: a zero difference is an equal value; the darker of the two is 255
    # only where both are white.  Histograms count them without an array library.
    equal = ImageChops.difference(before, after).histogram()
    darker = ImageChops.darker(before, after).histogram()
    total = 3 * before.size[0] * before.size[1]
    both_white = darker[255] + darker[511] + darker[767]
    matching = equal[0] + equal[256] + equal[512] - both_white  # both white is equal, and not counted
    counted = total - both_white
    return matching / counted if counted else 1.0


def screen_changed(before: bytes | Image.Image, after: bytes | Image.Image) -> bool:
    """True unless the screenshots are the same screen by AndroidLab's test."""
    return similarity(before, after) <= SAME_SCREEN
