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
(:class:`Thumbnailer`). Any other PNG (a real device's ``screencap -p``) is
decoded by Pillow.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict

from PIL import Image

from ..png import PIECE_ROWS, adler32_combine, inflate_piece, split_pieces

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

    @property
    def bands_kept(self) -> int:
        """Reduced bands in the cache (each inflated once)."""
        return len(self._bands)

    def __call__(self, png: bytes) -> bytes:
        """The thumbnail of the screenshot ``png``: JPEG, ``width`` px wide (never enlarged).

        Raises Pillow's errors for bytes it cannot read (OSError, ValueError, ...).
        """
        image = self._from_bands(png)
        if image is None:
            image = _scaled(Image.open(io.BytesIO(png)), self.width)
        out = io.BytesIO()
        image.save(out, "JPEG", quality=QUALITY)
        return out.getvalue()

    def _from_bands(self, png: bytes) -> Image.Image | None:
        layout = split_pieces(png)
        if layout is None:
            return None
        width, height, pieces, adler = layout
        factor = width // self.width
        if factor < 1 or width != factor * self.width:
            return None
        stride = width * 3 + 1
        with self._lock:
            bands = []
            total, checksum = 0, 1
            for piece in pieces:
                band = self._bands.get(piece)
                if band is None:
                    band = _reduce(piece, width, stride, factor)
                    if band is None:
                        return None  # filtered rows, or not whole rows: Pillow's decoder
                    self._keep(piece, band)
                else:
                    self._bands.move_to_end(piece)
                bands.append(band)
                total += band.rows
                checksum = adler32_combine(checksum, band.adler, band.length)
        if total != height or checksum != adler:
            return None  # not the image its header and checksum say: Pillow tells what is wrong
        return Image.frombytes("RGB", (self.width, sum(-(-b.rows // factor) for b in bands)),
                               b"".join(b.pixels for b in bands))

    def _keep(self, piece: bytes, band: _Band) -> None:
        self._bands[piece] = band
        self._size += len(band.pixels) + len(piece)
        while self._size > self._cache_bytes and len(self._bands) > 1:
            old_piece, old = self._bands.popitem(last=False)
            self._size -= len(old.pixels) + len(old_piece)


def _reduce(piece: bytes, width: int, stride: int, factor: int) -> _Band | None:
    """A piece inflated and reduced ``factor`` times, or None when its rows are not unfiltered."""
    try:
        raw, adler = inflate_piece(piece, PIECE_ROWS * stride)
    except Exception:  # zlib's and ISA-L's errors
        return None
    rows, rest = divmod(len(raw), stride)
    if rest or not rows or raw[::stride].count(0) != rows:
        return None
    band = Image.frombuffer("RGB", (width, rows), memoryview(raw)[1:], "raw", "RGB", stride, 1)
    return _Band(band.reduce(factor).tobytes(), rows, adler, len(raw))


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
