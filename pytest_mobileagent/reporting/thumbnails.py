"""Screenshot thumbnails for the Allure report.

A 100-task run with a screenshot after every action wrote 40 MB of
full-size PNGs into the results, and the single-file report (base64) came to
57 MB. Each step now shows a small lossy image a third of the screen's width;
the full PNG is kept only where a reader needs the pixels (allure_report.py
says which).

360 px wide: the virtual phone's screen is 1080 px at 440 dpi, i.e. 393 dp
wide, so at 360 px one CSS pixel of the report is about one dp of the screen
and body text (14 sp, 38 px on the phone) is some 13 px high, as readable as
the report's own text. 1080 / 360 is a whole factor, so the reduction is a
3x3 box average (``Image.reduce``), the cheapest filter that does not alias
text away. Screens of other widths are scaled with Lanczos.

The cost is CPU on the Allure writer thread while the next steps run, and a
run's CPU is what it is waiting for on a loaded machine; so a screen is not
decoded whole. The virtual phone's PNGs are bands of rows compressed one by
one (``png.py``), and consecutive screens share most of their bands: each
band is inflated and reduced once, and kept by its compressed bytes
(:class:`Thumbnailer`). A band the ROR pixel test inflated a moment earlier
(``screen_similarity``, same process) is taken from it. Any other PNG (a real
device's ``screencap -p``) is decoded by Pillow.

Of what is left (a 100-task run: 345 distinct screens, 2,755 distinct
bands), inflating the bands and reducing them take about equal shares and the
JPEG a quarter. The worker hands its free heap back to the system after every
task (``memory.py``), so a large buffer allocated afresh costs its page
faults again: a Thumbnailer decodes each band into an image it keeps, and
copies into the thumbnail it keeps only the bands that differ from the last
screen's (together 77,000 page faults a run down to 13,000, a fifth of the
thumbnails' CPU).
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict

from PIL import Image

from ..png import PIECE_ROWS, adler32_combine, inflate_piece, split_pieces
from ..screen_similarity import inflated_band

__all__ = ["EXTENSION", "MIME_TYPE", "THUMBNAIL_WIDTH", "Thumbnailer"]

THUMBNAIL_WIDTH = 360
EXTENSION = "jpg"
MIME_TYPE = "image/jpeg"
QUALITY = 80
#: Reduced bands kept (some 22 KB each at 360 px): a few hundred screens' worth of distinct bands.
CACHE_BYTES = 16 << 20


class _Band:
    __slots__ = ("pixels", "rows", "adler", "length")

    def __init__(self, pixels: bytes, rows: int, adler: int, length: int) -> None:
        self.pixels, self.rows, self.adler, self.length = pixels, rows, adler, length


class Thumbnailer:
    """Makes thumbnails, keeping the reduced bands of the virtual phone's PNGs."""

    def __init__(self, width: int = THUMBNAIL_WIDTH, cache_bytes: int = CACHE_BYTES) -> None:
        self.width = width
        self._cache_bytes = cache_bytes
        self._bands: OrderedDict[bytes, _Band] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        # Reused under the lock: a band as decoded, and the thumbnail as assembled (see the module's docstring).
        self._band_image: Image.Image | None = None
        self._canvas: Image.Image | None = None
        self._shown: list[tuple[int, bytes]] = []  # (top row, piece) of each band the canvas holds

    @property
    def bands_kept(self) -> int:
        """Reduced bands in the cache (each inflated once)."""
        return len(self._bands)

    def __call__(self, png: bytes) -> bytes:
        """The thumbnail of the screenshot ``png``: JPEG, ``width`` px wide (never enlarged).

        Raises Pillow's errors for bytes it cannot read (OSError, ValueError, ...).
        """
        with self._lock:
            jpeg = self._from_bands(png)
        if jpeg is not None:
            return jpeg
        return _jpeg(_scaled(Image.open(io.BytesIO(png)), self.width))

    def _from_bands(self, png: bytes) -> bytes | None:
        layout = split_pieces(png)
        if layout is None:
            return None
        width, height, pieces, adler = layout
        factor = width // self.width
        if factor < 1 or width != factor * self.width:
            return None
        stride = width * 3 + 1
        bands = []
        total, checksum = 0, 1
        for piece in pieces:
            band = self._bands.get(piece)
            if band is None:
                band = self._reduce(piece, width, stride, factor)
                if band is None:
                    return None  # filtered rows, or not whole rows: Pillow's decoder
                self._keep(piece, band)
            else:
                self._bands.move_to_end(piece)
            if total % factor:
                return None  # a band of rows not a multiple of the factor before this one
            bands.append(band)
            total += band.rows
            checksum = adler32_combine(checksum, band.adler, band.length)
        if total != height or checksum != adler:
            return None  # not the image its header and checksum say: Pillow tells what is wrong
        canvas = self._canvas
        size = (self.width, -(-height // factor))
        if canvas is None or canvas.size != size:
            canvas = self._canvas = Image.new("RGB", size)
            self._shown = []
        # Consecutive screens share most bands: only those that differ from the last thumbnail's are copied.
        # Forgotten first, so that a decoding error leaves no band claimed that is not there.
        shown, self._shown, fresh, top = self._shown, [], [], 0
        for index, (piece, band) in enumerate(zip(pieces, bands)):
            rows = -(-band.rows // factor)
            if index >= len(shown) or shown[index] != (top, piece):
                _decode_into(canvas, (0, top, self.width, top + rows), band.pixels, ("RGB", 0, 1))
            fresh.append((top, piece))
            top += rows
        self._shown = fresh
        return _jpeg(canvas)

    def _reduce(self, piece: bytes, width: int, stride: int, factor: int) -> _Band | None:
        """A piece inflated and reduced ``factor`` times, or None when its rows are not unfiltered."""
        found = inflated_band(piece)
        if found is None:
            try:
                found = inflate_piece(piece, PIECE_ROWS * stride)
            except Exception:  # zlib's and ISA-L's errors
                return None
        raw, adler = found
        rows, rest = divmod(len(raw), stride)
        if rest or not rows or raw[::stride].count(0) != rows:
            return None
        image = self._band_image
        if image is None or image.width != width or image.height < rows:
            image = self._band_image = Image.new("RGB", (width, max(rows, PIECE_ROWS)))
        # Each row after its filter byte: Pillow's raw decoder with the rows' stride skips them.
        _decode_into(image, (0, 0, width, rows), memoryview(raw)[1:], ("RGB", stride, 1))
        return _Band(image.reduce(factor, (0, 0, width, rows)).tobytes(), rows, adler, len(raw))

    def _keep(self, piece: bytes, band: _Band) -> None:
        self._bands[piece] = band
        self._size += len(band.pixels) + len(piece)
        while self._size > self._cache_bytes and len(self._bands) > 1:
            old_piece, old = self._bands.popitem(last=False)
            self._size -= len(old.pixels) + len(old_piece)


def _decode_into(image: Image.Image, box: tuple[int, int, int, int], data, args: tuple) -> None:
    """Decode raw ``data`` into the ``box`` of ``image`` (Pillow's decoder, no new image).

    ``Image.frombytes`` does the same into a fresh image; the decoder is
    Pillow's own, reached as ``Image.frombytes`` reaches it (``png.packed_rows``
    does likewise with its encoder). The box's rows must all be in ``data``.
    """
    try:
        decoder = Image._getdecoder("RGB", "raw", args)
    except (AttributeError, OSError):  # a Pillow without the private hook: a new image, pasted
        left, top, right, bottom = box
        image.paste(Image.frombuffer("RGB", (right - left, bottom - top), data, "raw", *args), (left, top))
        return
    decoder.setimage(image.im, box)
    consumed, status = decoder.decode(data)
    if consumed >= 0 or status != 0:  # as Image.frombytes checks: -1 once the box is full
        raise ValueError("not enough image data" if consumed >= 0 else "cannot decode image data")


def _jpeg(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "JPEG", quality=QUALITY)
    return out.getvalue()


def _scaled(image: Image.Image, width: int) -> Image.Image:
    image.load()
    if image.mode != "RGB":
        image = image.convert("RGB")
    if image.width <= width:
        return image
    factor = image.width // width
    if image.width == factor * width:
        return image.reduce(factor)
    height = max(1, round(image.height * width / image.width))
    return image.resize((width, height), Image.Resampling.LANCZOS)
