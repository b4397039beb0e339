"""Named icons beyond the basic set are drawn from ui/icons.py (not the fallback dot)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from pytest_mobileagent.virtual_phone.ui import icons, render


def _drawn(name: str) -> bytes:
    image = Image.new("RGB", (132, 132), (255, 255, 255))
    render._icon(ImageDraw.Draw(image), name, (0, 0, 132, 132), (0, 0, 0))
    return image.tobytes()


@pytest.mark.parametrize("name", sorted(icons.DRAWERS))
def test_each_registered_icon_draws_something_of_its_own(name):
    drawn = _drawn(name)
    assert drawn != Image.new("RGB", (132, 132), (255, 255, 255)).tobytes()
    assert drawn != _drawn("no-such-icon")  # not the fallback dot


def test_star_and_outline_differ():
    assert _drawn("star") != _drawn("star_outline")
