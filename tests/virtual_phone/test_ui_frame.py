"""The frame buffer's incremental PNGs equal a full repaint, pixel for pixel."""

from __future__ import annotations

import io
import zlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from uitools import CALC, centre, nodes, press_keys

from pytest_mobileagent import png
from pytest_mobileagent.virtual_phone.apps import INSTALLED_APPS
from pytest_mobileagent.virtual_phone.framework.system import AndroidSystem
from pytest_mobileagent.virtual_phone.kernel.clock import PhoneClock
from pytest_mobileagent.virtual_phone.framework.ui import frame, render

NOTES = "com.simplemobiletools.notes.pro"


def _decode(png: bytes):
    from PIL import Image

    image = Image.open(io.BytesIO(png))
    image.load()  # decompresses: a broken stream or checksum fails here
    return image


def _full_paint(system):
    # system._ops is the display list the phone shows now; painting it whole is the oracle.
    return render.paint(system._ops, system.width, system.height)


def _assert_same_pixels(png: bytes, expected) -> None:
    from PIL import ImageChops

    image = _decode(png)
    assert image.size == expected.size and image.mode == "RGB"
    assert ImageChops.difference(image, expected).getbbox() is None, "the spliced PNG differs from a full repaint"


@given(first=st.binary(max_size=3000), second=st.binary(max_size=3000))
def test_adler32_combine_matches_zlib(first, second):
    combined = png.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)


@given(width=st.integers(1, 40), height=st.integers(1, 50), band_rows=st.integers(1, 7), data=st.data())
def test_encode_png_round_trips_any_image(width, height, band_rows, data):
    from PIL import Image

    pixels = data.draw(st.binary(min_size=width * height * 3, max_size=width * height * 3))
    image = Image.frombytes("RGB", (width, height), pixels)
    assert _decode(png.encode_png(image, band_rows=band_rows)).tobytes() == pixels


def test_rows_packed_by_a_pillow_that_packs_in_small_pieces_are_the_same(monkeypatch):
    from PIL import Image

    image = Image.frombytes("RGB", (7, 5), bytes(range(105)))
    stride = 7 * 3 + 1
    packed = png.packed_rows(image, stride)
    assert packed == image.tobytes("raw", ("RGB", stride))

    real = Image._getencoder

    class Stingy:  # an encoder that packs one row per call
        def __init__(self, *args):
            self._encoder = real(*args)

        def __getattr__(self, name):
            return getattr(self._encoder, name)

        def encode(self, bufsize):
            return self._encoder.encode(min(bufsize, stride))

    monkeypatch.setattr(Image, "_getencoder", Stingy)
    assert png.packed_rows(image, stride) == packed
    assert _decode(png.encode_png(image, band_rows=2)).tobytes() == bytes(range(105))


# One step of a random walk over the phone: tap a node of the current dump, tap
# anywhere, press a key, type, scroll, or open an app.
_ACTIONS = st.sampled_from(["node", "node", "node", "point", "back", "type", "swipe", "app"])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), cache_bytes=st.sampled_from([frame.CACHE_BYTES, 1]))
def test_random_walks_show_exactly_what_a_full_repaint_shows(data, cache_bytes):
    system = AndroidSystem(clock=PhoneClock(1_700_000_000_000), apps=INSTALLED_APPS)
    system._frame = frame.FrameBuffer(system.width, system.height, cache_bytes=cache_bytes)
    system.start_activity(data.draw(st.sampled_from([CALC, NOTES])))
    for _ in range(data.draw(st.integers(1, 8))):
        action = data.draw(_ACTIONS)
        if action == "node":
            candidates = [n for n in nodes(system.dump_xml()) if n["clickable"] == "true"]
            if candidates:
                system.tap(*centre(data.draw(st.sampled_from(candidates))))
        elif action == "point":
            system.tap(data.draw(st.integers(0, system.width - 1)), data.draw(st.integers(0, system.height - 1)))
        elif action == "back":
            system.key("KEYCODE_BACK")
        elif action == "type":
            system.input_text(data.draw(st.text("ab7 +\u00e9", min_size=1, max_size=4)))
        elif action == "swipe":
            system.swipe(540, 1800, 540, 600)
        else:
            system.start_activity(data.draw(st.sampled_from([CALC, NOTES])))
        expected = _full_paint(system)
        _assert_same_pixels(system.screenshot_png(), expected)
        assert system.screenshot_rgba() == expected.convert("RGBA").tobytes()


def test_a_key_press_encodes_only_the_bands_that_changed():
    system = AndroidSystem(clock=PhoneClock(1_700_000_000_000), apps=INSTALLED_APPS)
    system.start_activity(CALC)
    system.screenshot_png()
    before = system._frame.bands_encoded
    press_keys(system, "7")
    _assert_same_pixels(system.screenshot_png(), _full_paint(system))
    bands = -(-system.height // frame.BAND_ROWS)
    assert 0 < system._frame.bands_encoded - before < bands // 4


def test_a_screen_seen_before_is_spliced_from_cached_bands():
    system = AndroidSystem(clock=PhoneClock(1_700_000_000_000), apps=INSTALLED_APPS)
    system.start_activity(CALC)
    calculator = system.screenshot_png()
    system.go_home()
    home = system.screenshot_png()
    encoded = system._frame.bands_encoded
    system.start_activity(CALC)
    assert system.screenshot_png() == calculator
    system.go_home()
    assert system.screenshot_png() == home
    assert system._frame.bands_encoded == encoded


@settings(max_examples=60, deadline=None)
@given(text=st.text(st.sampled_from("aZgjy7 .,%×÷√=+-éÅ_|Qq"), min_size=0, max_size=12),
       size=st.integers(8, 140), bold=st.booleans(), x=st.integers(-30, 300), y=st.integers(-60, 200),
       color=st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)))
def test_cached_glyph_masks_draw_what_pillow_draws(text, size, bold, x, y, color):
    # The renderer draws each line from a cached mask; Pillow's own text drawing is the reference.
    from PIL import Image, ImageChops, ImageDraw

    from pytest_mobileagent.virtual_phone.framework.ui import text as ui_text

    background = (250, 250, 250)
    reference = Image.new("RGB", (320, 240), background)
    ImageDraw.Draw(reference).text((x, y), text, font=ui_text.font(size, bold), fill=color)
    painted = render.paint([("fill", background), ("text", x, y, text, size, bold, color)], 320, 240)
    assert ImageChops.difference(painted, reference).getbbox() is None
    # ... and the rows it reports contain every pixel it drew.
    top, bottom = render.op_rows(("text", x, y, text, size, bold, color), 240)
    drawn = ImageChops.difference(reference, Image.new("RGB", (320, 240), background)).getbbox()
    if drawn is not None:
        assert top <= drawn[1] and drawn[3] <= bottom
