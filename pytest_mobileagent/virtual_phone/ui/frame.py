"""The phone's frame buffer: repaints and re-encodes only the rows that changed.

After an agent's action the new screen usually differs from the last one in a
few rows: a digit in the calculator's display, one checkbox, a dialog's text.
The screen is cut into horizontal bands.  A band is known by the drawing
operations that touch it, in coordinates relative to its top row, and its
piece of the PNG's compressed pixel data is cached under that key.  When the
display list changes, only bands never seen before are painted and compressed;
the PNG is cached pieces spliced with the new ones.  Screens seen again (after
a reset, on going back) cost almost nothing.

Splicing is plain DEFLATE: each band is compressed on its own and ends with a
sync flush, so its blocks end on a byte boundary and refer to nothing before
them; concatenated, followed by one final empty block, they form one valid
stream.  The zlib checksum of the whole is combined from the bands' checksums.
A screen never seen before costs what encoding the whole image costs; a small
change costs a small fraction of it (figures: benchmarks/bench_ui.py).

Compression uses ISA-L's deflate (the `isal` package) when installed: on
screen pixels it is some twenty times faster than zlib's level 1 at a similar
size.  Any DEFLATE stream will do for PNG, so zlib remains the fallback.
"""

from __future__ import annotations

import struct
import zlib
from collections import OrderedDict

from . import render as _render

try:
    from isal import isal_zlib as _deflate
except ImportError:  # a platform without an isal wheel: same streams, slower
    _deflate = zlib  # type: ignore[assignment]

BAND_ROWS = 60  # 39 bands on a 2340-row screen; a line of text spans one or two
CACHE_BYTES = 16 << 20  # compressed bands kept for reuse: a few hundred whole screens
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x01"  # deflate, 32 KiB window, fastest; (0x7801 % 31 == 0)
_FINAL_EMPTY_BLOCK = b"\x03\x00"  # BFINAL=1, fixed Huffman, end-of-block
_ADLER_BASE = 65521
_ROW_FILTER_NONE = b"\x00"


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """Adler-32 of A+B from adler32(A), adler32(B) and len(B) (zlib's adler32_combine)."""
    rem = second_length % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 = (sum1 + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    sum2 = (sum2 + (first >> 16) + (second >> 16) + _ADLER_BASE - rem) % _ADLER_BASE
    return sum1 | (sum2 << 16)


class _Piece:
    """One band's compressed rows: raw DEFLATE ending on a byte boundary."""

    __slots__ = ("data", "adler", "length")

    def __init__(self, padded_rows: memoryview) -> None:
        # PNG rows each start with a filter byte; 0 (none) suits flat UI pixels
        # and costs nothing to compute. `padded_rows` has a zero byte after
        # every row (see _band_pieces), so a zero byte plus all of it but the
        # last byte is the filtered data, without slicing rows apart.
        filtered = padded_rows[:-1]
        compressor = _deflate.compressobj(1, _deflate.DEFLATED, -15)  # level 1, raw DEFLATE
        self.data = (compressor.compress(_ROW_FILTER_NONE) + compressor.compress(filtered)
                     + compressor.flush(_deflate.Z_SYNC_FLUSH))
        self.adler = _deflate.adler32(filtered, _deflate.adler32(_ROW_FILTER_NONE))
        self.length = len(padded_rows)


def _band_pieces(image, band_rows: int) -> list[_Piece]:
    """An RGB image's pieces, ``band_rows`` rows each, top to bottom.

    Encoding with a stride one byte longer than a row makes Pillow put a zero
    byte after every row, which _Piece turns into the filter bytes.
    """
    row = image.size[0] * 3 + 1
    raw = memoryview(_packed(image, row))
    step = band_rows * row
    return [_Piece(raw[offset:offset + step]) for offset in range(0, len(raw), step)]


def _packed(image, row: int) -> bytes:
    """``image.tobytes("raw", ("RGB", row))``, packed by one encoder call.

    ``tobytes`` feeds Pillow's raw encoder 64 KiB at a time and joins the
    pieces; on screen bands that measured about ten times slower than one
    call given room for the whole image (benchmarks/bench_ui.py, "pack").
    The encoder is Pillow's own; anything unexpected falls back to tobytes.
    """
    from PIL import Image

    size = row * image.size[1]
    try:
        encoder = Image._getencoder("RGB", "raw", ("RGB", row))
    except (AttributeError, OSError):  # a Pillow without the private hook
        return image.tobytes("raw", ("RGB", row))
    try:
        image.load()
        encoder.setimage(image.im, (0, 0, *image.size))
        _, status, data = encoder.encode(size + 1)
    finally:
        encoder.cleanup()
    if status != 1 or len(data) != size:  # 1: all rows packed
        return image.tobytes("raw", ("RGB", row))
    return data


def _chunk(tag: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))


def _png(width: int, height: int, pieces: list[_Piece]) -> bytes:
    adler = 1  # Adler-32 of no data
    for piece in pieces:
        adler = adler32_combine(adler, piece.adler, piece.length)
    idat = b"".join([_ZLIB_HEADER, *(p.data for p in pieces), _FINAL_EMPTY_BLOCK, struct.pack(">I", adler)])
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return _PNG_SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", idat) + _chunk(b"IEND", b"")


def encode_png(image, band_rows: int = BAND_ROWS) -> bytes:
    """PNG bytes of a whole RGB image (unfiltered rows, zlib level 1)."""
    width, height = image.size
    return _png(width, height, _band_pieces(image, band_rows))


class _PieceCache:
    """Compressed bands by what they show, least recently used first out.

    Keys describe a band's content relative to its own top row, so a band seen
    before (the same list row, blank background, a screen visited again after
    a reset) is not painted or compressed a second time.
    """

    def __init__(self, max_bytes: int) -> None:
        self._pieces: OrderedDict[tuple, _Piece] = OrderedDict()
        self._bytes, self._max_bytes = 0, max_bytes

    def get(self, key: tuple) -> _Piece | None:
        piece = self._pieces.get(key)
        if piece is not None:
            self._pieces.move_to_end(key)
        return piece

    def put(self, key: tuple, piece: _Piece) -> None:
        if key in self._pieces:
            return
        self._pieces[key] = piece
        self._bytes += len(piece.data)
        while self._bytes > self._max_bytes and len(self._pieces) > 1:
            _, old = self._pieces.popitem(last=False)
            self._bytes -= len(old.data)


class FrameBuffer:
    """The screen's PNG (and pixels), kept up to date band by band."""

    def __init__(self, width: int, height: int, band_rows: int = BAND_ROWS,
                 cache_bytes: int = CACHE_BYTES) -> None:
        self.width, self.height = width, height
        self._band_rows = band_rows
        self._tops = list(range(0, height, band_rows))
        count = len(self._tops)
        self._drawn: list[tuple | None] = [None] * count  # the operations touching each band
        self._keys: list[tuple | None] = [None] * count  # the same relative to the band's top
        self._rows: dict[tuple, tuple[int, int]] = {}  # op_rows() by operation: frames repeat them
        self._pieces: list[_Piece | None] = [None] * count  # None: not encoded for its key yet
        self._image = None
        self._image_keys: list[tuple | None] = [None] * count  # what the image's bands show
        self._ops: list[tuple] | None = None
        self._png: bytes | None = None
        self._cache = _PieceCache(cache_bytes)
        self.bands_encoded = 0  # bands compressed so far (for tests and benchmarks)

    def show(self, ops: list[tuple]) -> None:
        """Take a new display list (cheap: nothing is painted until asked for)."""
        if ops is self._ops:
            return
        self._ops = ops
        rows, count = self._band_rows, len(self._tops)
        per_band: list[list[tuple]] = [[] for _ in range(count)]
        for op in ops:
            top, bottom = self._rows_of(op)
            for band in range(max(0, top // rows), min(count, (bottom - 1) // rows + 1)):
                per_band[band].append(op)
        for band, band_ops in enumerate(per_band):
            drawn = tuple(band_ops)
            if drawn != self._drawn[band]:
                # Most bands stay as they were; only changed ones need their
                # position-free key (which finds them in the cache).
                self._drawn[band] = drawn
                self._keys[band] = self._key(band, band_ops)
                self._pieces[band] = None
                self._png = None

    def png(self) -> bytes:
        """The whole screen as PNG bytes; only bands never seen before are painted."""
        if self._png is None:
            missing = []
            for band, piece in enumerate(self._pieces):
                if piece is None:
                    piece = self._pieces[band] = self._cache.get(self._keys[band])  # type: ignore[arg-type]
                    if piece is None:
                        missing.append(band)
            for (first, last), part in self._paint_runs(missing):
                for band, piece in zip(range(first, last + 1), _band_pieces(part, self._band_rows)):
                    self._pieces[band] = piece
                    self._cache.put(self._keys[band], piece)  # type: ignore[arg-type]
                    self.bands_encoded += 1
            self._png = _png(self.width, self.height, self._pieces)  # type: ignore[arg-type]
        return self._png

    def image(self):
        """The whole screen as an RGB Pillow image."""
        from PIL import Image

        if self._image is None:
            self._image = Image.new("RGB", (self.width, self.height))
        stale = [band for band, key in enumerate(self._keys) if key != self._image_keys[band]]
        for (first, last), part in self._paint_runs(stale):
            self._image.paste(part, (0, self._tops[first]))
            self._image_keys[first:last + 1] = self._keys[first:last + 1]
        return self._image

    def _rows_of(self, op: tuple) -> tuple[int, int]:
        rows = self._rows.get(op)
        if rows is None:
            if len(self._rows) > 50_000:
                self._rows.clear()  # a bound, not a policy: entries are cheap to recompute
            rows = self._rows[op] = _render.op_rows(op, self.height)
        return rows

    def _key(self, band: int, band_ops: list[tuple]) -> tuple:
        """What a band shows, in coordinates relative to its top row."""
        top = self._tops[band]
        rows = min(self._band_rows, self.height - top)
        anchored = any(op[0] not in _render.MOVABLE_KINDS for op in band_ops)
        return rows, (top if anchored else None), tuple(_render.moved_up(op, top) for op in band_ops)

    def _paint_runs(self, bands: list[int]):
        """Paint each run of adjacent bands as one image: fewer draw calls than band by band."""
        ops = self._ops or []
        for first, last in _runs(bands):
            top = self._tops[first]
            bottom = min(self.height, self._tops[last] + self._band_rows)
            run_ops = [op for op in ops if _overlaps(self._rows_of(op), top, bottom)]
            yield (first, last), _render.paint(run_ops, self.width, self.height, top=top, bottom=bottom)


def _overlaps(rows: tuple[int, int], top: int, bottom: int) -> bool:
    return rows[0] < bottom and rows[1] > top


def _runs(bands: list[int]) -> list[tuple[int, int]]:
    """[2, 3, 4, 9] -> [(2, 4), (9, 9)]"""
    runs: list[tuple[int, int]] = []
    for band in bands:
        if runs and runs[-1][1] == band - 1:
            runs[-1] = (runs[-1][0], band)
        else:
            runs.append((band, band))
    return runs
