"""Pictures of files in screenshots (ui/bitmaps.py + the renderer's bitmap icons)."""

from __future__ import annotations

import io

from PIL import Image

from pytest_mobileagent.virtual_phone import VirtualPhone
from pytest_mobileagent.virtual_phone.framework.ui import bitmaps
from pytest_mobileagent.virtual_phone.framework.ui.render import paint


def png(color, size=(30, 20)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "PNG")
    return out.getvalue()


def test_icon_names_follow_file_content_and_pictures_are_cached():
    phone = VirtualPhone()
    phone.fs.write_file("/sdcard/a.png", png((10, 200, 30)))
    phone.fs.write_file("/sdcard/b.png", png((10, 200, 30)))
    name = bitmaps.icon_for_file(phone.fs, "/sdcard/a.png")
    assert name.startswith(bitmaps.PREFIX) and name == bitmaps.icon_for_file(phone.fs, "/sdcard/b.png")
    assert bitmaps.fitted(name, (40, 40)) is bitmaps.fitted(name, (40, 40))  # decoded and fitted once
    assert bitmaps.fitted(name, (40, 40)).getpixel((20, 20)) == (10, 200, 30)
    phone.fs.write_file("/sdcard/a.png", png((200, 0, 0)))
    assert bitmaps.icon_for_file(phone.fs, "/sdcard/a.png") != name  # a changed file is a new picture
    assert bitmaps.icon_for_file(phone.fs, "/sdcard/missing.png") == ""


def test_renderer_pastes_pictures_darkens_them_under_scrims_and_falls_back_to_an_icon():
    phone = VirtualPhone()
    phone.fs.write_file("/sdcard/a.png", png((0, 0, 250)))
    phone.fs.write_file("/sdcard/bad.png", b"not a picture")
    good = bitmaps.icon_for_file(phone.fs, "/sdcard/a.png")
    bad = bitmaps.icon_for_file(phone.fs, "/sdcard/bad.png")
    ops = [("fill", (255, 255, 255)), ("icon", good, (10, 10, 60, 60), (0, 0, 0)),
           ("icon", bad, (100, 10, 150, 60), (0, 0, 0))]
    image = paint(ops, 200, 100)
    assert image.getpixel((35, 35)) == (0, 0, 250)
    assert image.getpixel((125, 35)) == (0, 0, 0)  # the placeholder dot in the icon's colour
    dimmed = paint([("fill", (255, 255, 255)), ("icon", good, (10, 10, 60, 60), (0, 0, 0)), ("scrim", 115),
                    ("rect", (0, 90, 1, 91), (0, 0, 0), 0)], 200, 100)
    r, g, b = dimmed.getpixel((35, 35))
    assert (r, g) == (0, 0) and 130 <= b <= 140  # 250 * (1 - 115/255)


def test_file_app_icons_are_distinct_drawings():
    drawings = {}
    for name in ("folder", "file", "sort", "home", "star", "delete", "info", "rename", "close", "play", "grid",
                 "camera", "share", "no-such-icon"):
        image = paint([("fill", (255, 255, 255)), ("icon", name, (0, 0, 96, 96), (0, 0, 0))], 96, 96)
        drawings[name] = image.tobytes()
    placeholder = drawings.pop("no-such-icon")
    assert placeholder not in drawings.values()
    assert len(set(drawings.values())) == len(drawings)
