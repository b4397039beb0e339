"""AndroidLab's pixel test for ROR, and which source the episode's ROR used."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from pytest_mobileagent.metrics import StepRecord, TaskRecord, aggregate
from pytest_mobileagent.screen_similarity import SAME_SCREEN, screen_changed, similarity


def png(draw=None, size=(200, 400), background=(255, 255, 255)) -> bytes:
    image = Image.new("RGB", size, background)
    if draw:
        draw(ImageDraw.Draw(image))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def test_identical_screens_are_unchanged_and_white_is_not_counted():
    screen = png(lambda d: d.rectangle((10, 10, 60, 30), fill=(0, 0, 0)))
    assert similarity(screen, screen) == 1.0 and not screen_changed(screen, screen)
    assert similarity(png(), png()) == 1.0  # two blank screens


def test_a_small_change_on_a_mostly_white_screen_counts():
    """A checklist tick: 1% of the screen, but most of what is not white."""
    before = png(lambda d: d.rectangle((10, 10, 30, 30), outline=(60, 60, 60)))
    after = png(lambda d: (d.rectangle((10, 10, 30, 30), outline=(60, 60, 60)),
                           d.line((12, 20, 28, 28), fill=(0, 150, 0), width=3)))
    assert similarity(before, after) < SAME_SCREEN and screen_changed(before, after)


def test_a_change_below_the_threshold_on_a_busy_screen_does_not_count():
    before = png(background=(30, 30, 30), size=(400, 800))
    after = png(lambda d: d.point((5, 5), fill=(31, 30, 30)), background=(30, 30, 30), size=(400, 800))
    assert SAME_SCREEN < similarity(before, after) < 1.0
    assert not screen_changed(before, after)
    assert similarity(before, png(size=(10, 10))) == 0.0  # another size is another screen


def test_the_aggregate_counts_actions_by_ror_source():
    steps = [StepRecord(1, {"type": "tap"}, screen_changed=True, screen_change_source="screenshot"),
             StepRecord(2, {"type": "tap"}, screen_changed=False, screen_change_source="hierarchy")]
    record = TaskRecord("n", "t", "notes", "p", "easy", 1, 2, "replay", steps=steps)
    assert record.ror_sources == {"screenshot": 1, "hierarchy": 1}
    assert record.summary()["ror_sources"] == {"screenshot": 1, "hierarchy": 1}
    agg = aggregate([record])
    assert agg.reasonable_operation_ratio == 0.5
    assert agg.to_dict()["ror_sources"] == {"screenshot": 1, "hierarchy": 1}
    assert TaskRecord.from_dict(record.to_dict()).steps[0].screen_change_source == "screenshot"


def _androidlab_similarity(before: bytes, after: bytes) -> float:
    """AndroidLab's definition computed the plain way, over every channel value of both whole screens."""
    from PIL import ImageChops

    first, second = (Image.open(io.BytesIO(p)).convert("RGB") for p in (before, after))
    if first.size != second.size:
        return 0.0
    equal = ImageChops.difference(first, second).histogram()
    darker = ImageChops.darker(first, second).histogram()
    both_white = darker[255] + darker[511] + darker[767]
    counted = 3 * first.size[0] * first.size[1] - both_white
    return (equal[0] + equal[256] + equal[512] - both_white) / counted if counted else 1.0


def test_the_cheap_comparison_gives_androidlabs_answer_exactly():
    """Unfiltered PNGs (the virtual phone's, inflated directly) and Pillow's filtered ones, mixed:
    equal bytes, equal pixels in other bytes, changes in one band or several, other sizes."""
    import random

    from pytest_mobileagent.png import encode_png

    colours = [(255, 255, 255), (0, 0, 0), (255, 0, 255), (255, 255, 0), (30, 30, 30), (254, 255, 255)]

    def screen(seed: int, encoder: str) -> bytes:
        rng = random.Random(seed)
        image = Image.new("RGB", (90, 150 if seed % 7 else 160), rng.choice(colours[:2]))
        draw = ImageDraw.Draw(image)
        for _ in range(rng.randint(0, 6)):
            x, y = rng.randint(0, 85), rng.randint(0, 145)
            draw.rectangle((x, y, x + rng.randint(0, 30), y + rng.randint(0, 30)), fill=rng.choice(colours))
        return encode_png(image, band_rows=7) if encoder == "phone" else png_of(image)

    def png_of(image) -> bytes:
        out = io.BytesIO()
        image.save(out, "PNG")
        return out.getvalue()

    rng = random.Random(5)
    pairs = [(screen(a, ea), screen(b, eb)) for a, b, ea, eb in
             ((rng.randint(0, 25), rng.randint(0, 25), rng.choice(["phone", "pillow"]), rng.choice(["phone", "pillow"]))
              for _ in range(300))]
    assert sum(a == b for a, b in pairs) > 5 and sum(a != b and _androidlab_similarity(a, b) == 1.0
                                                     for a, b in pairs) > 5  # both shortcuts are exercised
    # a one-value change on a busy screen: below the threshold, in both encodings
    busy = Image.new("RGB", (400, 800), (30, 30, 30))
    dotted = busy.copy()
    dotted.putpixel((5, 700), (31, 30, 30))
    for encode in (lambda image: encode_png(image, band_rows=60), lambda image: png_of(image)):
        pairs.append((encode(busy), encode(dotted)))
        assert SAME_SCREEN < _androidlab_similarity(*pairs[-1]) < 1.0
    for before, after in pairs:
        assert similarity(before, after) == similarity(before, after)  # cached decodings give the same answer
        expected = _androidlab_similarity(before, after)
        assert similarity(before, after) == pytest.approx(expected, abs=1e-12)
        assert screen_changed(before, after) == (expected <= SAME_SCREEN)  # its shortcut for big changes too


# -- the lazy, inflate-as-you-read comparison gives the plain definition's answer ---------------

PALETTE = [(255, 255, 255), (0, 0, 0), (254, 255, 255), (255, 0, 255), (30, 30, 30), (255, 255, 0)]


def _png_with_filter_at(image: Image.Image, row: int) -> bytes:
    """An unfiltered PNG of ``image`` except that ``row`` uses filter 1 (Sub): Pillow must decode it."""
    import struct
    import zlib

    width, height = image.size
    raw = image.tobytes()
    rows = []
    for y in range(height):
        line = raw[y * width * 3:(y + 1) * width * 3]
        if y == row:  # Sub: each byte minus the one 3 bytes to its left
            line = bytes((line[i] - (line[i - 3] if i >= 3 else 0)) & 0xFF for i in range(len(line)))
            rows.append(b"\x01" + line)
        else:
            rows.append(b"\x00" + line)

    def chunk(tag: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows)))
            + chunk(b"IEND", b""))


def _screens():
    """Two screens of one size: a drawing and the same with a few changes (maybe none, maybe one value)."""
    from hypothesis import strategies as st

    @st.composite
    def build(draw):
        width, height = draw(st.integers(1, 24)), draw(st.integers(1, 150))
        colour = st.sampled_from(PALETTE)
        rectangle = st.tuples(st.integers(0, width - 1), st.integers(0, height - 1),
                              st.integers(0, 12), st.integers(0, 40), colour)
        before = Image.new("RGB", (width, height), draw(colour))
        pen = ImageDraw.Draw(before)
        for x, y, w, h, fill in draw(st.lists(rectangle, max_size=5)):
            pen.rectangle((x, y, x + w, y + h), fill=fill)
        after = before.copy()
        pen = ImageDraw.Draw(after)
        for x, y, w, h, fill in draw(st.lists(rectangle, max_size=3)):
            pen.rectangle((x, y, x + w, y + h), fill=fill)
        for x, y, value in draw(st.lists(st.tuples(st.integers(0, width - 1), st.integers(0, height - 1),
                                                   st.integers(0, 255)), max_size=2)):
            after.putpixel((x, y), (value, 255, 255))
        return before, after

    return build()


def _split_idat(png: bytes, size: int) -> bytes:
    """The PNG with its zlib stream cut into IDAT chunks of ``size`` bytes, as libpng writes them."""
    import struct
    import zlib

    pos, chunks, stream = 8, [], b""
    while pos < len(png):
        (length,) = struct.unpack_from(">I", png, pos)
        tag, body = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + length]
        if tag == b"IDAT":
            stream += body
        else:
            chunks.append((tag, body))
        pos += 12 + length

    def chunk(tag: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))

    idat = b"".join(chunk(b"IDAT", stream[i:i + size]) for i in range(0, len(stream), size))
    return png[:8] + chunk(*chunks[0]) + idat + b"".join(chunk(*c) for c in chunks[1:])


def _encode(image: Image.Image, how: str) -> bytes:
    from pytest_mobileagent.png import encode_png

    if how == "phone":
        return encode_png(image, band_rows=7)
    if how == "filtered row":
        return _png_with_filter_at(image, image.size[1] // 2)
    if how == "split stream":  # IDAT chunks that do not inflate on their own: the whole stream is read
        return _split_idat(encode_png(image, band_rows=image.size[1]), 9)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def test_the_lazy_comparison_answers_as_androidlabs_definition():
    """Screens inflated a few rows at a time, read only as far as needed, decoded by Pillow when a
    row turns out filtered (mid-stream too), cached across comparisons: the same answer as
    AndroidLab's definition over whole screens, for similarity and for the changed verdict."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from pytest_mobileagent import screen_similarity

    encodings = st.sampled_from(["phone", "pillow", "filtered row", "split stream"])

    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(_screens(), encodings, encodings, st.sampled_from([1, 3, 16, 64]), st.booleans())
    def check(screens, how_before, how_after, chunk_rows, cold):
        before, after = _encode(screens[0], how_before), _encode(screens[1], how_after)
        expected = _androidlab_similarity(before, after)
        original = screen_similarity._INFLATE_ROWS
        screen_similarity._INFLATE_ROWS = chunk_rows
        try:
            if cold:
                screen_similarity._cache.clear()
            changed = screen_changed(before, after)  # first: it reads no further than it needs
            assert changed == (expected <= SAME_SCREEN)
            assert similarity(before, after) == pytest.approx(expected, abs=1e-12)
            assert screen_changed(before, after) == changed  # now from the cached, further-read screens
        finally:
            screen_similarity._INFLATE_ROWS = original

    check()


def test_bands_a_screenshot_shares_with_an_earlier_one_are_not_inflated_again(monkeypatch):
    """The virtual phone's PNG has an IDAT chunk per band: a band seen before is not inflated again."""
    from types import SimpleNamespace

    from pytest_mobileagent import screen_similarity
    from pytest_mobileagent.png import encode_png

    def screen(mark_at: int) -> bytes:
        image = Image.new("RGB", (300, 1200), (255, 255, 255))
        for band in range(20):  # every band different from the others
            ImageDraw.Draw(image).rectangle((10, band * 60, 20 + band * 10, band * 60 + 50), fill=(40, 40, 40))
        ImageDraw.Draw(image).rectangle((250, mark_at, 252, mark_at + 2), fill=(255, 0, 0))
        return encode_png(image, band_rows=60)

    inflated = []
    real = screen_similarity._inflate
    monkeypatch.setattr(screen_similarity, "_inflate", SimpleNamespace(
        decompress=lambda data, *args: inflated.append(data) or real.decompress(data, *args),
        decompressobj=real.decompressobj, adler32=real.adler32, error=real.error))
    screen_similarity.clear_caches()
    first, second, third = screen(100), screen(500), screen(900)
    assert screen_changed(first, second) is False  # a small mark: AndroidLab's same screen
    assert screen_similarity._pixels(first).decodings == screen_similarity._pixels(second).decodings == 0
    assert len(inflated) == 20 + 2  # every band of the first; of the second, the two its mark moved in
    assert screen_changed(second, third) is False
    # Of the third, its marked band only: its band without the mark is the first's.
    assert len(inflated) == 20 + 2 + 1
    assert similarity(second, third) == pytest.approx(_androidlab_similarity(second, third), abs=1e-12)


def test_a_band_is_inflated_into_a_buffer_larger_than_its_rows(monkeypatch):
    """python-isal inflates again while its output buffer is full: a buffer of exactly a band's
    rows would be doubled first, a fresh mapping whose every page faults (bench_ror_run.py)."""
    from types import SimpleNamespace

    from pytest_mobileagent import screen_similarity
    from pytest_mobileagent.png import encode_png

    image = Image.new("RGB", (300, 600), (255, 255, 255))
    for band in range(10):  # every band different from the others: none is found in the cache
        ImageDraw.Draw(image).rectangle((10, band * 60, 20 + band * 10, band * 60 + 50), fill=(40, 40, 40))
    png = encode_png(image, band_rows=60)
    sizes = []
    real = screen_similarity._inflate

    def decompress(data, wbits, bufsize):
        out = real.decompress(data, wbits, bufsize)
        sizes.append((bufsize, len(out)))
        return out

    monkeypatch.setattr(screen_similarity, "_inflate", SimpleNamespace(
        decompress=decompress, decompressobj=real.decompressobj, adler32=real.adler32, error=real.error))
    screen_similarity.clear_caches()
    assert screen_similarity._pixels(png).white  # every band inflated
    rows = 60 * (300 * 3 + 1)
    assert [got for _, got in sizes] == [rows] * 10
    assert all(bufsize > rows for bufsize, _ in sizes), sizes


def test_a_png_whose_idat_chunks_do_not_inflate_alone_is_read_as_one_stream():
    """libpng cuts one zlib stream into IDAT chunks anywhere: the comparison reads it as a whole."""
    from pytest_mobileagent import screen_similarity
    from pytest_mobileagent.png import encode_png

    image = Image.new("RGB", (100, 300), (255, 255, 255))
    ImageDraw.Draw(image).rectangle((10, 10, 60, 250), fill=(0, 0, 0))
    other = image.copy()
    ImageDraw.Draw(other).rectangle((70, 10, 90, 250), fill=(0, 0, 200))
    before, after = (_split_idat(encode_png(im, band_rows=300), 100) for im in (image, other))
    screen_similarity._cache.clear()
    assert screen_changed(before, after) is True
    assert similarity(before, after) == pytest.approx(_androidlab_similarity(before, after), abs=1e-12)
    assert screen_similarity._pixels(before).decodings == 0  # inflated as one stream, not by Pillow


def test_a_big_change_near_the_top_is_decided_without_inflating_the_rest():
    """What makes ROR cheap on a run: most actions change a screen's top rows a lot."""
    from pytest_mobileagent import screen_similarity
    from pytest_mobileagent.png import encode_png

    top = Image.new("RGB", (300, 2000), (255, 255, 255))
    ImageDraw.Draw(top).rectangle((0, 0, 299, 200), fill=(0, 0, 0))
    other = Image.new("RGB", (300, 2000), (255, 255, 255))
    before, after = encode_png(top), encode_png(other)
    screen_similarity._cache.clear()
    assert screen_changed(before, after)
    pixels = [screen_similarity._pixels(png) for png in (before, after)]
    inflated = [len(p.chunks) * p.chunk_rows for p in pixels]
    assert all(rows < 2000 // 4 for rows in inflated), inflated
    assert similarity(before, after) < SAME_SCREEN  # reading on gives the whole answer
    assert [len(p.chunks) * p.chunk_rows >= 2000 for p in pixels] == [True, True]
