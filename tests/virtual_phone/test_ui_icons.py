"""Named icons beyond the toolkit's first ones (ui/icons.py) show in screenshots."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw

from pytest_mobileagent.virtual_phone.framework.ui import icons, render

BOX = (0, 0, 132, 132)


def drawn(name: str) -> Image.Image:
    image = Image.new("RGB", BOX[2:], (255, 255, 255))
    render._icon(ImageDraw.Draw(image), name, BOX, (0, 0, 0))
    return image


@pytest.mark.parametrize("name", sorted(icons.ICONS))
def test_each_icon_draws_its_own_shape_not_the_fallback_dot(name):
    image = drawn(name)
    blank = Image.new("RGB", BOX[2:], (255, 255, 255))
    assert ImageChops.difference(image, blank).getbbox() is not None
    assert image.tobytes() != drawn("no-such-icon").tobytes()


def test_icons_an_app_tells_apart_differ():
    shapes = {name: drawn(name).tobytes() for name in ("settings", "info", "sort", "equalizer", "delete", "rename")}
    assert len(set(shapes.values())) == len(shapes)


def test_a_registered_icon_is_used_by_the_renderer():
    @icons.icon("test-square")
    def square(draw, rect, color):
        draw.rectangle(rect, fill=color)

    try:
        assert drawn("test-square").getcolors() == [(132 * 132, (0, 0, 0))]
    finally:
        del icons.ICONS["test-square"]


def test_contacts_and_sms_icons_differ():
    names = ("star", "star_outline", "person", "call", "sms", "archive", "dialpad", "filter", "copy")
    shapes = {name: drawn(name).tobytes() for name in names}
    assert len(set(shapes.values())) == len(shapes)
