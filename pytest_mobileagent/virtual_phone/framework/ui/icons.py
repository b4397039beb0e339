"""More icons for screenshots, drawn by name as simple line art.

`render._icon` draws the toolkit's first icons itself and looks any other
name up in `ICONS` (a name -> function(draw, rect, color) registry), so an
app can show a gear for Settings or a bin for Delete instead of a dot and a
vision agent can tell its buttons apart.  Add an icon with `@icon("name")`.
"""

from __future__ import annotations

import math
from typing import Callable

__all__ = ["ICONS", "icon"]

#: icon name -> draw(draw, (left, top, right, bottom), colour)
ICONS: dict[str, Callable] = {}


def icon(*names: str):
    def register(fn):
        for name in names:
            ICONS[name] = fn
        return fn
    return register


def _box(rect):
    l, t, r, b = rect
    cx, cy = (l + r) // 2, (t + b) // 2
    u = max(4, min(r - l, b - t) // 6)  # a sixth of the box, as in render._icon
    return cx, cy, u, max(3, u // 2)


@icon("settings")
def _gear(draw, rect, color):
    cx, cy, u, w = _box(rect)
    for i in range(8):
        a = i * math.pi / 4
        draw.line((cx + math.cos(a) * 1.2 * u, cy + math.sin(a) * 1.2 * u,
                   cx + math.cos(a) * 2.1 * u, cy + math.sin(a) * 2.1 * u), fill=color, width=w + 1)
    draw.ellipse((cx - 1.5 * u, cy - 1.5 * u, cx + 1.5 * u, cy + 1.5 * u), outline=color, width=w)


@icon("info", "about")
def _info(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.ellipse((cx - 2 * u, cy - 2 * u, cx + 2 * u, cy + 2 * u), outline=color, width=w)
    draw.line((cx, cy - u // 3, cx, cy + u), fill=color, width=w)
    draw.ellipse((cx - w // 2 - 1, cy - u - w, cx + w // 2 + 1, cy - u), fill=color)


@icon("sort")
def _sort(draw, rect, color):
    cx, cy, u, w = _box(rect)
    for i, length in enumerate((4, 3, 2)):
        y = cy - u + i * u
        draw.line((cx - 2 * u, y, cx - 2 * u + length * u, y), fill=color, width=w)


@icon("equalizer")
def _equalizer(draw, rect, color):
    cx, cy, u, w = _box(rect)
    for i, knob in enumerate((-1, 1, 0)):
        x = cx - 1.5 * u + i * 1.5 * u
        draw.line((x, cy - 2 * u, x, cy + 2 * u), fill=color, width=max(2, w // 2))
        draw.rectangle((x - w, cy + knob * u - w, x + w, cy + knob * u + w), fill=color)


@icon("delete")
def _bin(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.line((cx - 2 * u, cy - 1.3 * u, cx + 2 * u, cy - 1.3 * u), fill=color, width=w)
    draw.line((cx - u // 2, cy - 2 * u, cx + u // 2, cy - 2 * u), fill=color, width=w)
    draw.rectangle((cx - 1.4 * u, cy - u, cx + 1.4 * u, cy + 2 * u), outline=color, width=w)


@icon("rename", "edit")
def _pencil(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.line((cx - 1.6 * u, cy + 1.6 * u, cx + 1.6 * u, cy - 1.6 * u), fill=color, width=w + 2)
    draw.polygon([(cx - 2 * u, cy + 2 * u), (cx - 1.9 * u, cy + u), (cx - u, cy + 1.9 * u)], fill=color)


@icon("share")
def _share(draw, rect, color):
    cx, cy, u, w = _box(rect)
    points = [(cx + 1.5 * u, cy - 1.5 * u), (cx - 1.5 * u, cy), (cx + 1.5 * u, cy + 1.5 * u)]
    draw.line(points, fill=color, width=max(2, w // 2))
    for x, y in points:
        draw.ellipse((x - w, y - w, x + w, y + w), fill=color)


@icon("select_all")
def _select_all(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.rectangle((cx - 2 * u, cy - 2 * u, cx + 2 * u, cy + 2 * u), outline=color, width=max(2, w // 2))
    draw.line((cx - u, cy, cx - u // 4, cy + u, cx + 1.2 * u, cy - u), fill=color, width=w, joint="curve")


@icon("microphone")
def _microphone(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.rounded_rectangle((cx - 0.8 * u, cy - 2 * u, cx + 0.8 * u, cy + 0.6 * u), radius=u, fill=color)
    draw.arc((cx - 1.5 * u, cy - 1.2 * u, cx + 1.5 * u, cy + 1.4 * u), 0, 180, fill=color, width=max(2, w // 2))
    draw.line((cx, cy + 1.4 * u, cx, cy + 2 * u), fill=color, width=max(2, w // 2))


@icon("headset")
def _headset(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.arc((cx - 2 * u, cy - 2 * u, cx + 2 * u, cy + 2 * u), 180, 360, fill=color, width=w)
    draw.rectangle((cx - 2 * u, cy, cx - 1.2 * u, cy + 1.8 * u), fill=color)
    draw.rectangle((cx + 1.2 * u, cy, cx + 2 * u, cy + 1.8 * u), fill=color)


@icon("note", "genre")
def _note(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.ellipse((cx - 1.6 * u, cy + 0.6 * u, cx, cy + 1.9 * u), fill=color)
    draw.line((cx - w // 2, cy + 1.2 * u, cx - w // 2, cy - 2 * u), fill=color, width=w)
    draw.line((cx - w // 2, cy - 2 * u, cx + 1.4 * u, cy - 1.2 * u), fill=color, width=w)


@icon("playlist")
def _playlist(draw, rect, color):
    cx, cy, u, w = _box(rect)
    for i in range(3):
        draw.line((cx - 2 * u, cy - 1.5 * u + i * u, cx + (0.5 if i == 2 else 1) * u, cy - 1.5 * u + i * u),
                  fill=color, width=max(2, w // 2))
    draw.ellipse((cx + 0.6 * u, cy + u, cx + 1.6 * u, cy + 2 * u), fill=color)
    draw.line((cx + 1.5 * u, cy + 1.5 * u, cx + 1.5 * u, cy - 0.5 * u), fill=color, width=max(2, w // 2))


@icon("folder")
def _folder(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.polygon([(cx - 2 * u, cy - 1.5 * u), (cx - 0.6 * u, cy - 1.5 * u), (cx, cy - u), (cx + 2 * u, cy - u),
                  (cx + 2 * u, cy + 1.6 * u), (cx - 2 * u, cy + 1.6 * u)], fill=color)


@icon("artist")
def _person(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.ellipse((cx - 0.9 * u, cy - 2 * u, cx + 0.9 * u, cy - 0.2 * u), fill=color)
    draw.pieslice((cx - 2 * u, cy + 0.3 * u, cx + 2 * u, cy + 3.5 * u), 180, 360, fill=color)


@icon("album")
def _disc(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.ellipse((cx - 2 * u, cy - 2 * u, cx + 2 * u, cy + 2 * u), outline=color, width=w)
    draw.ellipse((cx - 0.5 * u, cy - 0.5 * u, cx + 0.5 * u, cy + 0.5 * u), fill=color)


@icon("play")
def _play(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.polygon([(cx - 1.2 * u, cy - 1.8 * u), (cx - 1.2 * u, cy + 1.8 * u), (cx + 1.8 * u, cy)], fill=color)


@icon("next")
def _next(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.polygon([(cx - 1.6 * u, cy - 1.6 * u), (cx - 1.6 * u, cy + 1.6 * u), (cx + 0.8 * u, cy)], fill=color)
    draw.rectangle((cx + 0.9 * u, cy - 1.6 * u, cx + 1.5 * u, cy + 1.6 * u), fill=color)


@icon("previous")
def _previous(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.polygon([(cx + 1.6 * u, cy - 1.6 * u), (cx + 1.6 * u, cy + 1.6 * u), (cx - 0.8 * u, cy)], fill=color)
    draw.rectangle((cx - 1.5 * u, cy - 1.6 * u, cx - 0.9 * u, cy + 1.6 * u), fill=color)


@icon("stop")
def _stop(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.rectangle((cx - 1.3 * u, cy - 1.3 * u, cx + 1.3 * u, cy + 1.3 * u), fill=color)


@icon("record")
def _record(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.ellipse((cx - 1.4 * u, cy - 1.4 * u, cx + 1.4 * u, cy + 1.4 * u), fill=color)


# -- Contacts and SMS Messenger --------------------------------------------------------------------

def _star_points(cx, cy, outer):
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else outer * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


@icon("star_outline")
def _star_outline(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.polygon(_star_points(cx, cy, 2.3 * u), outline=color, width=max(2, w - 1))


@icon("person", "person_add", "group")
def _person(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.ellipse((cx - u, cy - 2 * u, cx + u, cy), fill=color)
    draw.pieslice((cx - 2 * u, cy + u // 3, cx + 2 * u, cy + 4 * u), 180, 360, fill=color)


@icon("call")
def _call(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.arc((cx - 2 * u, cy - 2 * u, cx + 2 * u, cy + 2 * u), 90, 180, fill=color, width=w + 2)
    draw.ellipse((cx - 2 * u - 2, cy - 2 * u, cx - u, cy - u + 2), fill=color)
    draw.ellipse((cx + u - 2, cy + u, cx + 2 * u, cy + 2 * u + 2), fill=color)


@icon("sms", "email")
def _message(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.rounded_rectangle((cx - 2 * u, cy - int(1.6 * u), cx + 2 * u, cy + u), radius=u // 2, fill=color)
    draw.polygon([(cx - u, cy + u - 1), (cx - u, cy + 2 * u), (cx, cy + u - 1)], fill=color)


@icon("archive", "unarchive")
def _archive(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.rectangle((cx - 2 * u, cy - 2 * u, cx + 2 * u, cy - u), fill=color)
    draw.rectangle((cx - int(1.7 * u), cy - u + 2, cx + int(1.7 * u), cy + 2 * u), outline=color, width=max(2, w - 1))
    draw.line((cx - u // 2, cy, cx + u // 2, cy), fill=color, width=max(2, w - 1))


@icon("dialpad")
def _dialpad(draw, rect, color):
    cx, cy, u, w = _box(rect)
    r = max(2, u // 3)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            x, y = cx + dx * int(1.3 * u), cy + dy * int(1.3 * u) - u // 2
            draw.ellipse((x - r, y - r, x + r, y + r), fill=color)
    draw.ellipse((cx - r, cy + int(2.1 * u) - r, cx + r, cy + int(2.1 * u) + r), fill=color)


@icon("filter")
def _filter(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.polygon([(cx - 2 * u, cy - int(1.6 * u)), (cx + 2 * u, cy - int(1.6 * u)), (cx + u // 2, cy),
                  (cx + u // 2, cy + 2 * u), (cx - u // 2, cy + int(1.5 * u)), (cx - u // 2, cy)], fill=color)


@icon("copy")
def _copy(draw, rect, color):
    cx, cy, u, w = _box(rect)
    draw.rectangle((cx - u, cy - u, cx + 2 * u, cy + 2 * u), outline=color, width=max(2, w - 1))
    draw.line((cx - 2 * u, cy + u, cx - 2 * u, cy - 2 * u, cx + u, cy - 2 * u), fill=color, width=max(2, w - 1))
