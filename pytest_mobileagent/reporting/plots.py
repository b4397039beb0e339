"""Bar charts of the success rate, drawn with Pillow (no plotting library needed).

One bar per group (app or difficulty) with its 95% Wilson interval as an
error bar and the task count under the label.
"""

from __future__ import annotations

import functools

from ..metrics import Aggregate
from ..png import encode_png

__all__ = ["sr_bar_chart", "warm_up"]

_BAR = (52, 120, 198)
_BAR_EMPTY = (200, 200, 200)
_AXIS = (60, 60, 60)
_GRID = (225, 225, 225)
_FONT_SIZES = (18, 13, 11)  # title, labels, small print


@functools.lru_cache(maxsize=8)
def _font(size: int):
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow built without FreeType: the fixed bitmap font
        return ImageFont.load_default()


def warm_up() -> None:
    """Import Pillow and load the chart fonts now (about 15 ms), not when the run ends."""
    from PIL import Image, ImageDraw  # noqa: F401

    for size in _FONT_SIZES:
        _font(size)


def sr_bar_chart(title: str, groups: dict[str, Aggregate]) -> bytes:
    """A PNG of SR per group (bars), 0..100%, with the Wilson interval."""
    from PIL import Image, ImageDraw

    names = list(groups)
    bar_w, gap = 64, 36
    left, right, top, bottom = 70, 30, 60, 80
    plot_h = 300
    width = max(420, left + right + len(names) * (bar_w + gap) + gap)
    height = top + plot_h + bottom
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    title_font, font, small = (_font(size) for size in _FONT_SIZES)

    draw.text((width // 2, 20), title, fill=_AXIS, font=title_font, anchor="mt")

    def y_of(fraction: float) -> float:
        return top + plot_h * (1 - fraction)

    for tick in range(0, 101, 20):
        y = y_of(tick / 100)
        draw.line([(left, y), (width - right, y)], fill=_GRID)
        draw.text((left - 8, y), f"{tick}%", fill=_AXIS, font=small, anchor="rm")
    draw.line([(left, top), (left, top + plot_h)], fill=_AXIS, width=2)
    draw.line([(left, top + plot_h), (width - right, top + plot_h)], fill=_AXIS, width=2)

    for i, name in enumerate(names):
        agg = groups[name]
        x0 = left + gap + i * (bar_w + gap)
        x1 = x0 + bar_w
        centre = (x0 + x1) / 2
        if agg.sr is None:
            draw.rectangle([x0, y_of(0) - 2, x1, y_of(0)], fill=_BAR_EMPTY)
            draw.text((centre, y_of(0) - 8), "n/a", fill=_AXIS, font=small, anchor="mb")
        else:
            draw.rectangle([x0, y_of(agg.sr), x1, y_of(0)], fill=_BAR)
            label_y = y_of(agg.sr) - 6
            if agg.sr_interval is not None:
                low, high = agg.sr_interval
                draw.line([(centre, y_of(low)), (centre, y_of(high))], fill=_AXIS, width=2)
                for fraction in (low, high):
                    draw.line([(centre - 8, y_of(fraction)), (centre + 8, y_of(fraction))], fill=_AXIS, width=2)
                label_y = min(label_y, y_of(high) - 6)
            draw.text((centre, label_y), f"{agg.sr * 100:.0f}%", fill=_AXIS, font=font, anchor="mb")
        draw.text((centre, top + plot_h + 10), name[:14], fill=_AXIS, font=font, anchor="mt")
        draw.text((centre, top + plot_h + 30), f"n={agg.tasks}", fill=_AXIS, font=small, anchor="mt")
    if not names:
        draw.text((width // 2, top + plot_h // 2), "no judged tasks", fill=_AXIS, font=font, anchor="mm")

    # Our encoder, not image.save: Pillow's first save imports its image plugins.
    return encode_png(image)
