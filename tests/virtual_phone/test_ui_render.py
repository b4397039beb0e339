"""Screenshots: valid PNGs at real size whose pixels show what the dump says."""

from __future__ import annotations

import io

import pytest
from uitools import CALC, bounds, demo_system, find, press_keys, tap

from pytest_mobileagent.virtual_phone.apps import INSTALLED_APPS
from pytest_mobileagent.virtual_phone.framework.system import AndroidSystem
from pytest_mobileagent.virtual_phone.kernel.clock import PhoneClock
from pytest_mobileagent.virtual_phone.framework.ui import render
from pytest_mobileagent.virtual_phone.framework.ui.views import ACCENT


def _image(system):
    from PIL import Image

    image = Image.open(io.BytesIO(system.screenshot_png()))
    image.load()
    return image


def _region(image, box):
    left, top, right, bottom = box
    return image.crop((left, top, right, bottom))


def _pixels(image) -> list[tuple[int, int, int]]:
    data = image.convert("RGB").tobytes()
    return [tuple(data[i:i + 3]) for i in range(0, len(data), 3)]


def _dark_pixels(image, box, limit=100) -> int:
    return sum(1 for (r, g, b) in _pixels(_region(image, box)) if r + g + b < limit * 3)


def test_png_is_valid_at_real_size_and_matches_raw_rgba():
    system = AndroidSystem(clock=PhoneClock(0), apps=INSTALLED_APPS)
    png = system.screenshot_png()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = _image(system)
    assert image.size == (1080, 2340) and image.mode == "RGB"
    raw = system.screenshot_rgba()
    assert len(raw) == 1080 * 2340 * 4
    assert raw == image.convert("RGBA").tobytes()


def test_typed_digits_appear_as_dark_pixels_in_the_result_line():
    system = AndroidSystem(clock=PhoneClock(0), apps=INSTALLED_APPS)
    system.start_activity(CALC)
    result = bounds(find(system.dump_xml(), id="result"))
    before = _dark_pixels(_image(system), result)
    press_keys(system, "888888")
    after = _dark_pixels(_image(system), result)
    assert after > before + 1000


def test_checked_check_box_is_drawn_filled_with_the_accent_colour():
    system = demo_system()
    box = bounds(find(system.dump_xml(), id="remember"))
    icon_area = (box[0], box[1], box[0] + 120, box[3])

    def accent_pixels(image) -> int:
        return sum(1 for px in _pixels(_region(image, icon_area)) if px == ACCENT)

    assert accent_pixels(_image(system)) == 0
    tap(system, id="remember")
    assert accent_pixels(_image(system)) > 500


def test_dialog_dims_the_screen_behind_it():
    system = demo_system()
    point = (540, 200)                         # above the dialog (centred over the keyboard it opens)
    before = _image(system).getpixel(point)
    tap(system, id="fab")
    title = bounds(find(system.dump_xml(), text="New item"))  # at the top of the dialog
    assert title[1] > point[1]
    after = _image(system).getpixel(point)
    assert sum(after) < sum(before) * 0.7
    # the dialog itself stays bright
    assert sum(_image(system).getpixel((540, title[1] + 5))) > 600


@pytest.mark.parametrize("scrims", [1, 2])
def test_what_a_scrim_covers_looks_as_under_a_translucent_black_layer(scrims):
    # The renderer draws what lies under a scrim in darkened colours instead of
    # blending a layer over it; compare with the blend itself.
    from PIL import ImageDraw

    below = [("fill", (250, 250, 250)), ("rect", (0, 100, 1080, 300), (204, 65, 24), 0),
             ("text", 40, 150, "Shopping list", 48, True, (255, 255, 255)),
             ("icon", "app:Notes", (400, 400, 560, 560), (0, 0, 0))]
    dialog = [("rect", (100, 900, 980, 1300), (255, 255, 255), 12),
              ("text", 140, 950, "Add a new note", 48, False, (51, 51, 51))]
    painted = render.paint(below + [("scrim", render.SCRIM_ALPHA)] * scrims + dialog, 1080, 1600)

    expected = render.paint(below, 1080, 1600)
    for _ in range(scrims):
        ImageDraw.Draw(expected, "RGBA").rectangle((0, 0, 1080, 1600), fill=(0, 0, 0, render.SCRIM_ALPHA))
    expected.paste(render.paint(dialog, 1080, 1600).crop((100, 900, 980, 1300)), (100, 900))
    expected = expected.crop((0, 0, 1080, 900))  # above the dialog (its rounded corners)

    ours = painted.crop((0, 0, 1080, 900))
    for flat in ((0, 310, 1080, 390), (0, 100, 30, 300)):  # background, the bar's colour
        assert ours.crop(flat).tobytes() == expected.crop(flat).tobytes()
    # anti-aliased glyph edges may round the other way, by one step at most
    assert max(abs(a - b) for a, b in zip(ours.tobytes(), expected.tobytes())) <= 1
    assert ours.tobytes() != render.paint(below, 1080, 1600).crop((0, 0, 1080, 900)).tobytes()


def test_hint_and_text_are_drawn_in_different_colours():
    system = demo_system()
    field = bounds(find(system.dump_xml(), id="title_field"))
    hint_colours = set(_pixels(_region(_image(system), field)))
    tap(system, id="title_field")
    system.input_text("Title")                 # same characters as the hint
    text_colours = set(_pixels(_region(_image(system), field)))
    assert (51, 51, 51) in text_colours and (51, 51, 51) not in hint_colours


def test_screenshots_are_deterministic_and_cached_per_version():
    a, b = demo_system(), demo_system()
    for system in (a, b):
        tap(system, id="fab")
        system.input_text("same")
    assert a.screenshot_png() == b.screenshot_png()
    assert a.screenshot_png() is a.screenshot_png()
