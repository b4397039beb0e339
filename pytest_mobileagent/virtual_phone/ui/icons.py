"""More icons for screenshots, by name (`ImageView(icon="star")`), drawn with Pillow.

`render._icon` draws the basic set itself and looks up any other name here,
so an app may use these names and add its own with `@icon("name")`.  Each
drawer gets the ImageDraw, the icon box, the colour, the icon unit `u` (a
sixth of the box) and a stroke width `w`.
"""

from __future__ import annotations

import math
from typing import Callable

__all__ = ["DRAWERS", "icon"]

Drawer = Callable[..., None]
#: icon name -> drawer(draw, rect, color, u, w)
DRAWERS: dict[str, Drawer] = {}


def icon(*names: str):
    """Register a drawer under one or more icon names."""
    def register(fn: Drawer) -> Drawer:
        for name in names:
            DRAWERS[name] = fn
        return fn
    return register


def _centre(rect) -> tuple[int, int]:
    l, t, r, b = rect
    return (l + r) // 2, (t + b) // 2


def _star_points(cx: int, cy: int, outer: float) -> list[tuple[float, float]]:
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else outer * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


@icon("star")
def _star(draw, rect, color, u, w):
    cx, cy = _centre(rect)
    draw.polygon(_star_points(cx, cy, 2.3 * u), fill=color)


@icon("star_outline")
def _star_outline(draw, rect, color, u, w):
    cx, cy = _centre(rect)
    draw.polygon(_star_points(cx, cy, 2.3 * u), outline=color, width=max(2, w - 1))


@icon("close")
def _close(draw, rect, color, u, w):
    cx, cy = _centre(rect)
    draw.line((cx - 2 * u, cy - 2 * u, cx + 2 * u, cy + 2 * u), fill=color, width=w)
    draw.line((cx - 2 * u, cy + 2 * u, cx + 2 * u, cy - 2 * u), fill=color, width=w)


@icon("delete")
def _delete(draw, rect, color, u, w):
    cx, cy = _centre(rect)
    draw.rectangle((cx - int(1.4 * u), cy - u, cx + int(1.4 * u), cy + 2 * u), fill=color)
    draw.rectangle((cx - 2 * u, cy - int(1.8 * u), cx + 2 * u, cy - int(1.3 * u)), fill=color)
    draw.rectangle((cx - u // 2, cy - 2 * u - u // 3, cx + u // 2, cy - int(1.7 * u)), fill=color)


@icon("edit")
def _edit(draw, rect, color, u, w):
    cx, cy = _centre(rect)
    draw.line((cx - 2 * u, cy + 2 * u, cx + 2 * u, cy - 2 * u), fill=color, width=w + 3)
    draw.polygon([(cx - 2 * u - 2, cy + 2 * u + 2), (cx - 2 * u, cy + u), (cx - u, cy + 2 * u)], fill=color)


@icon("share")
def _share(draw, rect, color, u, w):
    cx, cy = _centre(rect)
    nodes = [(cx + int(1.5 * u), cy - int(1.6 * u)), (cx - int(1.5 * u), cy), (cx + int(1.5 * u), cy + int(1.6 * u))]
    draw.line(nodes, fill=color, width=max(2, w - 1))
    for x, y in nodes:
        draw.ellipse((x - u // 2 - 2, y - u // 2 - 2, x + u // 2 + 2, y + u // 2 + 2), fill=color)


@icon("settings")
def _settings(draw, rect, color, u, w):
    cx, cy = _centre(rect)
    for i in range(8):
        angle = i * math.pi / 4
        x, y = cx + 1.8 * u * math.cos(angle), cy + 1.8 * u * math.sin(angle)
        draw.ellipse((x - u // 2, y - u // 2, x + u // 2, y + u // 2), fill=color)
    draw.ellipse((cx - int(1.6 * u), cy - int(1.6 * u), cx + int(1.6 * u), cy + int(1.6 * u)), fill=color)
    draw.ellipse((cx - u // 2 - 1, cy - u // 2 - 1, cx + u // 2 + 1, cy + u // 2 + 1), fill=(255, 255, 255))


@icon("info")
def _info(draw, rect, color, u, w):
    cx, cy = _centre(rect)
    draw.ellipse((cx - 2 * u, cy - 2 * u, cx + 2 * u, cy + 2 * u), outline=color, width=max(2, w - 1))
    draw.line((cx, cy - u // 3, cx, cy + u + u // 3), fill=color, width=max(2, w - 1))
    draw.ellipse((cx - 2, cy - u - 3, cx + 2, cy - u + 1), fill=color)


@icon("person", "person_add", "group")
def _person(draw, rect, color, u, w):
    cx, cy = _centre(rect)
    draw.ellipse((cx - u, cy - 2 * u, cx + u, cy), fill=color)
    draw.pieslice((cx - 2 * u, cy + u // 3, cx + 2 * u, cy + 4 * u), 180, 360, fill=color)


@icon("call")
def _call(draw, rect, color, u, w):
    cx, cy = _centre(rect)
    draw.arc((cx - 2 * u, cy - 2 * u, cx + 2 * u, cy + 2 * u), 90, 180, fill=color, width=w + 2)
    draw.ellipse((cx - 2 * u - 2, cy - 2 * u, cx - u, cy - u + 2), fill=color)
    draw.ellipse((cx + u - 2, cy + u, cx + 2 * u, cy + 2 * u + 2), fill=color)


@icon("sms", "email")
def _message(draw, rect, color, u, w):
    cx, cy = _centre(rect)
    draw.rounded_rectangle((cx - 2 * u, cy - int(1.6 * u), cx + 2 * u, cy + u), radius=u // 2, fill=color)
    draw.polygon([(cx - u, cy + u - 1), (cx - u, cy + 2 * u), (cx, cy + u - 1)], fill=color)


@icon("archive", "unarchive")
def _archive(draw, rect, color, u, w):
    cx, cy = _centre(rect)
    draw.rectangle((cx - 2 * u, cy - 2 * u, cx + 2 * u, cy - u), fill=color)
    draw.rectangle((cx - int(1.7 * u), cy - u + 2, cx + int(1.7 * u), cy + 2 * u), outline=color, width=max(2, w - 1))
    draw.line((cx - u // 2, cy, cx + u // 2, cy), fill=color, width=max(2, w - 1))


@icon("dialpad")
def _dialpad(draw, rect, color, u, w):
    cx, cy = _centre(rect)
    r = max(2, u // 3)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            x, y = cx + dx * int(1.3 * u), cy + dy * int(1.3 * u) - u // 2
            draw.ellipse((x - r, y - r, x + r, y + r), fill=color)
    draw.ellipse((cx - r, cy + int(2.1 * u) - r, cx + r, cy + int(2.1 * u) + r), fill=color)


@icon("sort")
def _sort(draw, rect, color, u, w):
    cx, cy = _centre(rect)
    for i, half in enumerate((2 * u, int(1.3 * u), int(0.6 * u))):
        y = cy - int(1.3 * u) + i * int(1.3 * u)
        draw.line((cx - 2 * u, y, cx - 2 * u + 2 * half, y), fill=color, width=max(2, w - 1))


@icon("filter")
def _filter(draw, rect, color, u, w):
    cx, cy = _centre(rect)
    draw.polygon([(cx - 2 * u, cy - int(1.6 * u)), (cx + 2 * u, cy - int(1.6 * u)), (cx + u // 2, cy),
                  (cx + u // 2, cy + 2 * u), (cx - u // 2, cy + int(1.5 * u)), (cx - u // 2, cy)], fill=color)


@icon("copy")
def _copy(draw, rect, color, u, w):
    cx, cy = _centre(rect)
    draw.rectangle((cx - u, cy - u, cx + 2 * u, cy + 2 * u), outline=color, width=max(2, w - 1))
    draw.line((cx - 2 * u, cy + u, cx - 2 * u, cy - 2 * u, cx + u, cy - 2 * u), fill=color, width=max(2, w - 1))


@icon("camera")
def _camera(draw, rect, color, u, w):
    cx, cy = _centre(rect)
    draw.rounded_rectangle((cx - 2 * u, cy - u, cx + 2 * u, cy + int(1.8 * u)), radius=u // 2, fill=color)
    draw.rectangle((cx - u // 2 - 2, cy - int(1.6 * u), cx + u // 2 + 2, cy - u), fill=color)
    draw.ellipse((cx - u + 2, cy - u // 2 + 2, cx + u - 2, cy + int(1.3 * u) - 2), fill=(255, 255, 255))
