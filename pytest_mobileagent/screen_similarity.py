"""Did an action change the screen?  AndroidLab's pixel test for ROR.

AndroidLab counts an operation as unreasonable when the screenshots before
and after it are the same: the share of equal channel values, counted only
where at least one of the two images is not pure white (255), exceeds
0.999.  White is left out so that a mostly blank screen does not make every
small change look negligible.  This module is that definition, written with
Pillow's channel operations and histograms (no array library needed).

The answer is AndroidLab's to the last channel value, computed cheaply
(``benchmarks/bench_screen_similarity.py``: about 70 ms a pair before):

- identical PNG bytes are the same screen, without decoding;
- a screen is decoded once and kept for the next comparison (the screen after
  one action is the one before the next); a PNG of unfiltered rows, as the
  virtual phone sends, is inflated with ISA-L and used as it is, and only as
  far as a comparison reads it; any other PNG is decoded through Pillow;
- a PNG whose IDAT chunks each inflate on their own into whole rows (the
  virtual phone's: a chunk per band, see ``png.py``) is inflated a chunk at a
  time, and a chunk with the bytes of one inflated before is not inflated
  again: consecutive screenshots share most of their bands;
- only the rows between the first and the last that differ are compared value
  by value: the rest of the two screens is equal, so all its values match and
  only its white values (counted once per screen) are left out;
- screens inflated in the same chunks of rows are compared a chunk at a time;
- whether the screen changed (what ROR needs) is often known after a few rows,
  and a small change after counting part of the white values; only a screen
  judged the same is read whole (see :func:`screen_changed`).
"""

from __future__ import annotations

import io
import threading
import zlib
from collections import OrderedDict

from PIL import Image, ImageChops

from .png import adler32_combine, rgb_idat_chunks

try:
    from isal import isal_zlib as _inflate
except ImportError:  # a platform without an isal wheel: same result, slower
    _inflate = zlib  # type: ignore[assignment]
_INFLATE_ERRORS = (zlib.error, _inflate.error)

__all__ = ["SAME_SCREEN", "clear_caches", "decode", "inflated_band", "screen_changed", "similarity"]

#: Similarity above which two screenshots show the same screen (AndroidLab's threshold).
SAME_SCREEN = 0.999

#: Rows compared as one block when looking for the rows that differ.
_BLOCK_ROWS = 16
#: Rows inflated at a time when a comparison reads further.
_INFLATE_ROWS = 64
#: Compressed bytes given to the inflater at a time.
_INPUT_BYTES = 1 << 16
#: Decoded screenshots kept for the next comparison.
_CACHE_SIZE = 4
_cache: "OrderedDict[bytes, _Pixels]" = OrderedDict()
_cache_lock = threading.Lock()
#: Inflated rows kept by the compressed IDAT chunk they came from (see _Segment).
_SEGMENT_CACHE_BYTES = 64 << 20
_LAST_EMPTY_BLOCK = b"\x03\x00"  # BFINAL=1, fixed Huffman codes, end of block
_FIRST_SEGMENT_GUESS = 256 << 10  # output buffer for a chunk before the rows per chunk are known
_BUFFER_SLACK = 1  # bytes of output buffer beyond a chunk's rows (see _take_segment)
_segments: "OrderedDict[bytes, _Segment]" = OrderedDict()
_segments_size = 0
_segments_lock = threading.Lock()


class _Segment:
    """An IDAT chunk's data inflated on its own: whole rows, their Adler-32, their white values."""

    __slots__ = ("rows", "adler", "white")

    def __init__(self, rows: bytes) -> None:
        self.rows = rows
        self.adler = _inflate.adler32(rows)
        self.white: int | None = None  # counted when first needed


def clear_caches() -> None:
    """Forget every decoded screen and inflated band (for measurements and tests)."""
    global _segments_size
    with _cache_lock:
        _cache.clear()
    with _segments_lock:
        _segments.clear()
        _segments_size = 0


def _segment(data: bytes) -> "_Segment | None":
    """The chunk's rows from the cache; None when not there."""
    with _segments_lock:
        hit = _segments.get(data)
        if hit is not None:
            _segments.move_to_end(data)
        return hit


def inflated_band(data: bytes) -> tuple[bytes, int] | None:
    """The rows an IDAT chunk's ``data`` inflated into and their Adler-32, if a comparison
    inflated them and they are still kept; else None (nothing is inflated here).

    The Allure thumbnails (``reporting/thumbnails.py``) look here first; in a
    run they find about one band in nine (``benchmarks/bench_allure_size.py
    --thumbnails``): a comparison stops reading a screen once it knows it changed.
    """
    segment = _segment(data)
    return None if segment is None else (segment.rows, segment.adler)


def _keep_segment(data: bytes, segment: _Segment) -> None:
    global _segments_size
    with _segments_lock:
        if data in _segments:
            return
        _segments[data] = segment
        _segments_size += len(segment.rows)
        while _segments_size > _SEGMENT_CACHE_BYTES and len(_segments) > 1:
            _, old = _segments.popitem(last=False)
            _segments_size -= len(old.rows)


def decode(png: bytes) -> Image.Image:
    """A screenshot as an RGB image."""
    image = Image.open(io.BytesIO(png))
    return image.convert("RGB") if image.mode != "RGB" else image


class _NotSegmented(Exception):
    """The IDAT chunks do not inflate one by one into the image's rows."""


class _Pixels:
    """A screen's RGB rows, held in chunks of ``chunk_rows`` rows.

    In a chunk, row ``y`` starts at ``offset + (y % chunk_rows) * stride``.
    Pillow's decoding is one chunk. A PNG of unfiltered rows is inflated a
    chunk at a time, only as far as a comparison has read (:meth:`rows`):
    a screen that changed a lot near its top costs the inflation of its top
    rows alone (:func:`screen_changed`).
    """

    def __init__(self, chunks: list[bytes], chunk_rows: int, offset: int, stride: int, width: int, height: int,
                 png: bytes | None = None) -> None:
        self.chunks, self.chunk_rows = chunks, chunk_rows
        self.offset, self.stride, self.width, self.height = offset, stride, width, height
        self._white: int | None = None
        self._white_counts: dict[int, int] = {}  # white values by chunk, as counted (chunk_white)
        self._white_counts_of = 0  # the decoding they were counted in (see decodings)
        self.decodings = 0  # times Pillow's decoding replaced the chunks (a filtered row found)
        self._png = png  # the unfiltered PNG still being inflated, else None
        self._inflater = None
        self._idat = self._tail = b""  # the compressed stream, and input the inflater left over
        self._position = 0  # how much of _idat was fed to the inflater
        # Segmented PNGs (see segmented): the IDAT chunks' data not inflated yet, and per chunk its _Segment.
        self._pending: list[bytes] | None = None
        self._entries: list[_Segment | None] = []
        self._adler = 1  # Adler-32 of the rows inflated so far (checked against the stream's at its end)
        self._short = False  # a chunk of fewer rows came: it must be the last
        self._lock = threading.Lock()

    @classmethod
    def of_image(cls, image: Image.Image) -> "_Pixels":
        image = image.convert("RGB") if image.mode != "RGB" else image
        width, height = image.size
        return cls([image.tobytes()], max(height, 1), 0, width * 3, width, height)

    @classmethod
    def segmented(cls, png: bytes, idat: list[bytes], width: int, height: int) -> "_Pixels | None":
        """Rows of an unfiltered PNG whose IDAT chunks inflate one by one; None if the first does not.

        A chunk inflated on its own, from an empty window, is what it is in
        the whole stream when it begins at a block boundary: one that refers
        to data before it fails ("invalid distance too far back"). What the
        stream's chunks give must also be whole rows with filter 0, the same
        number per chunk up to the last, the image's height in all, and the
        Adler-32 at the stream's end; anything else is decoded by Pillow.
        """
        header = idat[0][:2]
        if len(header) < 2 or header[0] & 0x0F != 8 or header[1] & 0x20 or (header[0] << 8 | header[1]) % 31:
            return None  # not deflate, or a preset dictionary
        pixels = cls([], 0, 1, width * 3 + 1, width, height, png)
        pixels._pending = [part for part in (idat[0][2:], *idat[1:]) if part][::-1]  # popped from the end
        try:
            while not pixels.chunks and pixels._pending:
                pixels._take_segment()
        except (_NotSegmented, *_INFLATE_ERRORS):
            return None
        return pixels if pixels.chunks else None

    def _take_segment(self) -> None:
        """Inflate (or find) the next IDAT chunk's rows; the stream's last chunk checks the whole."""
        data = self._pending.pop()  # type: ignore[union-attr]
        if not self._pending:  # the stream's end: its last block, then its Adler-32
            inflater = _inflate.decompressobj(-15)
            rows = inflater.decompress(data)
            if not inflater.eof or len(inflater.unused_data) != 4:
                raise _NotSegmented
            self._add_rows(rows, None, _inflate.adler32(rows))
            self._finish(int.from_bytes(inflater.unused_data, "big"))
            return
        segment = _segment(data)
        if segment is None:
            # Ending at a block boundary (a sync flush), the chunk with an empty last block after
            # it is a whole raw DEFLATE stream; inflating it in one call into a buffer of about the
            # right size is four times faster than through a decompressobj here. One byte more
            # than the rows: python-isal inflates again while its output buffer is full
            # (igzip_lib_decompress_impl in isal_shared.h), so a buffer filled exactly is first
            # doubled, and the doubled one, over glibc's mmap threshold, is a fresh mapping whose
            # every page faults as the rows are copied in (49 faults for a 194 KB chunk;
            # benchmarks/bench_ror_run.py measures both on a whole run's screenshots).
            size = self.chunk_rows * self.stride + _BUFFER_SLACK if self.chunk_rows else _FIRST_SEGMENT_GUESS
            segment = _Segment(_inflate.decompress(data + _LAST_EMPTY_BLOCK, -15, size))
            if segment.rows:
                _keep_segment(data, segment)
        self._add_rows(segment.rows, segment, segment.adler)

    def _add_rows(self, rows: bytes, segment: "_Segment | None", adler: int) -> None:
        if not rows:
            return
        count, rest = divmod(len(rows), self.stride)
        if rest or rows[::self.stride].count(0) != count or self._short:
            raise _NotSegmented  # not whole rows, a filtered row, or rows after a short chunk
        if not self.chunk_rows:
            self.chunk_rows = count
        elif count != self.chunk_rows:
            if count > self.chunk_rows:
                raise _NotSegmented
            self._short = True
        self.chunks.append(rows)
        self._entries.append(segment)
        self._adler = adler32_combine(self._adler, adler, len(rows))

    def _finish(self, adler: int) -> None:
        rows = sum(map(len, self.chunks)) // self.stride  # every chunk is whole rows (_add_rows)
        if rows != self.height or adler != self._adler:
            raise _NotSegmented
        self._png = self._pending = None

    @classmethod
    def inflating(cls, png: bytes, idat: bytes, width: int, height: int) -> "_Pixels":
        """Rows of an unfiltered PNG (each after its filter byte), inflated on demand from its IDAT stream."""
        pixels = cls([], _INFLATE_ROWS, 1, width * 3 + 1, width, height, png)
        pixels._inflater = _inflate.decompressobj()
        pixels._idat = idat
        return pixels

    @property
    def white(self) -> int:
        """Channel values equal to 255 (a PNG's filter bytes, being 0, never count)."""
        if self._white is None:
            self._ensure(self.height)
            self._white = sum(self.chunk_white(index) for index in range(len(self.chunks)))
        return self._white

    def chunk_white(self, index: int) -> int:
        """White values in chunk ``index`` (inflated by then), counted once and kept.

        A screen is read twice (after one action and before the next), so its
        chunks' counts serve both comparisons.
        """
        with self._lock:
            if self._white_counts_of != self.decodings:  # Pillow's decoding replaced the chunks
                self._white_counts, self._white_counts_of = {}, self.decodings
            count = self._white_counts.get(index)
            if count is None:
                segment = self._entries[index] if index < len(self._entries) else None
                if segment is not None:  # counted once for every screenshot that shows this band
                    if segment.white is None:
                        segment.white = segment.rows.count(255)
                    count = segment.white
                else:
                    count = self.chunks[index].count(255)
                self._white_counts[index] = count
            return count

    def _ensure(self, rows: int) -> None:
        """Inflate until ``rows`` rows are available (or switch to Pillow's decoding)."""
        if self._png is None:
            return
        with self._lock:
            try:
                if self._pending is not None:
                    # On to the stream's end once the rows are all there: its last chunk checks them.
                    while self._png is not None and (len(self.chunks) * self.chunk_rows < rows
                                                     or len(self.chunks) * self.chunk_rows >= self.height):
                        self._take_segment()
                while self._png is not None and len(self.chunks) * self.chunk_rows < rows:
                    self._inflate_chunk()
            except (_NotSegmented, *_INFLATE_ERRORS):
                self._decode_with_pillow()

    def _inflate_chunk(self) -> None:
        top = len(self.chunks) * self.chunk_rows
        rows = min(self.chunk_rows, self.height - top)
        want = rows * self.stride
        chunk = self._inflate(want)
        last = top + rows == self.height
        if len(chunk) != want or (last and self._inflate(1)):
            # The stream ended early, or holds more than the rows: let Pillow decide.
            self._decode_with_pillow()
        elif chunk[::self.stride].count(0) != rows:
            self._decode_with_pillow()  # a row with a filter: its bytes are not its pixels
        else:
            self.chunks.append(chunk)
            if last:
                self._png = self._inflater = None
                self._idat = self._tail = b""

    def _inflate(self, want: int) -> bytes:
        """Up to ``want`` more bytes of the inflated stream (fewer only at its end).

        The compressed stream is fed a slice at a time: the inflater copies
        whatever input it leaves over for the next call.
        """
        parts, got = [], 0
        while got < want:
            if not self._tail and self._position < len(self._idat):
                self._tail = self._idat[self._position:self._position + _INPUT_BYTES]
                self._position += _INPUT_BYTES
            # With all input given, the inflater may still hold output of its own.
            part = self._inflater.decompress(self._tail, want - got)
            self._tail = self._inflater.unconsumed_tail
            if not part and not self._tail and self._position >= len(self._idat):
                break
            parts.append(part)
            got += len(part)
        return b"".join(parts)

    def _decode_with_pillow(self) -> None:
        png = self._png
        self._png, self._inflater, self._idat, self._tail = None, None, b"", b""
        self._pending, self._entries = None, []
        complete = _Pixels.of_image(decode(png))
        self.decodings += 1
        self.chunks, self.chunk_rows, self.offset, self.stride = (
            complete.chunks, complete.chunk_rows, complete.offset, complete.stride)

    def _span(self, top: int, bottom: int) -> tuple[bytes, int]:
        """(buffer, start): rows top..bottom, the first starting at ``start`` (filter bytes included)."""
        self._ensure(bottom)
        first, last = top // self.chunk_rows, (bottom - 1) // self.chunk_rows
        begin = (top - first * self.chunk_rows) * self.stride
        if first == last:
            return self.chunks[first], begin + self.offset
        return b"".join(self.chunks[first:last + 1]), begin + self.offset

    def rows(self, top: int, bottom: int) -> bytes:
        buffer, start = self._span(top, bottom)
        return buffer[start:start + (bottom - top) * self.stride]

    def image(self, top: int, bottom: int) -> Image.Image:
        """Rows top..bottom as an image."""
        buffer, start = self._span(top, bottom)
        end = start + (bottom - top - 1) * self.stride + self.width * 3
        return Image.frombuffer("RGB", (self.width, bottom - top), buffer[start:end], "raw", "RGB", self.stride, 1)


def _unfiltered_png(png: bytes) -> _Pixels | None:
    """The pixels of an 8-bit RGB, non-interlaced PNG, inflated on demand; None for other PNGs.

    Its rows are expected to use filter 0 (none), as the virtual phone's do:
    then the inflated IDAT stream is the rows themselves, each after a zero
    byte. A row with another filter switches to Pillow's decoding.
    """
    found = rgb_idat_chunks(png)
    if found is None:
        return None  # not 8-bit RGB, or interlaced: Pillow decodes it
    width, height, idat = found
    if len(idat) > 2:
        pixels = _Pixels.segmented(png, idat, width, height)
        if pixels is not None:
            return pixels
    return _Pixels.inflating(png, b"".join(idat), width, height)


def _pixels(screen: bytes | Image.Image) -> _Pixels:
    if isinstance(screen, Image.Image):
        return _Pixels.of_image(screen)
    with _cache_lock:
        hit = _cache.get(screen)
        if hit is not None:
            _cache.move_to_end(screen)
            return hit
    pixels = _unfiltered_png(screen) or _Pixels.of_image(decode(screen))
    with _cache_lock:
        _cache[screen] = pixels
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return pixels


def _regions(first: _Pixels, second: _Pixels):
    """The screens' rows top to bottom as (top, bottom, chunk index or None, equal), lazily.

    Screens inflated in the same chunks are compared a whole chunk at a time
    (bytes already there, no copy): an equal chunk is one region with its
    index. Anything else is compared in blocks of _BLOCK_ROWS rows.
    """
    top, height = 0, first.height
    while top < height:
        rows = first.chunk_rows
        shared = rows == second.chunk_rows and first.offset == second.offset and first.stride == second.stride
        if shared and top % rows == 0:
            bottom = min(top + rows, height)
            first._ensure(bottom)
            second._ensure(bottom)
            index = top // rows
            if (first.chunk_rows == second.chunk_rows == rows  # neither switched to Pillow's decoding
                    and first.chunks[index] == second.chunks[index]):
                yield top, bottom, index, True
                top = bottom
                continue
        # Blocks stop at the chunks' end, so that the next chunk is again compared whole.
        bottom = min(top + _BLOCK_ROWS, height, (top // rows + 1) * rows if shared else height)
        yield top, bottom, None, first.rows(top, bottom) == second.rows(top, bottom)
        top = bottom


def _differing_blocks(first: _Pixels, second: _Pixels):
    """The blocks of rows (top, bottom) in which the two screens differ, top to bottom (lazily)."""
    for top, bottom, _index, equal in _regions(first, second):
        if not equal:
            yield top, bottom


def _differing_rows(first: _Pixels, second: _Pixels) -> tuple[int, int] | None:
    """(top, bottom): the rows from the first block to the last that differ; None if all are equal."""
    blocks = list(_differing_blocks(first, second))
    return (blocks[0][0], blocks[-1][1]) if blocks else None


def similarity(before: bytes | Image.Image, after: bytes | Image.Image) -> float:
    """Share of equal channel values where the two screenshots are not both white (0..1)."""
    if isinstance(before, bytes) and before == after:
        return 1.0  # the same PNG: every value is equal
    first, second = _pixels(before), _pixels(after)
    if (first.width, first.height) != (second.width, second.height):
        return 0.0
    total = 3 * first.width * first.height
    rows = _differing_rows(first, second)
    if rows is None:
        return 1.0  # equal pixels in other PNG bytes
    top, bottom = rows
    # Inside the rows, per band: a zero difference is an equal value; the darker of
    # the two is 255 only where both are white.  Outside them the screens are
    # equal: every value matches, and the both-white ones are the first's white.
    inside_first, inside_second = first.image(top, bottom), second.image(top, bottom)
    equal = ImageChops.difference(inside_first, inside_second).histogram()
    darker = ImageChops.darker(inside_first, inside_second).histogram()
    inside_total = 3 * first.width * (bottom - top)
    inside_both_white = darker[255] + darker[511] + darker[767]
    outside_both_white = first.white - _white_in(first, top, bottom)
    matching = (equal[0] + equal[256] + equal[512] - inside_both_white) + (total - inside_total - outside_both_white)
    counted = total - inside_both_white - outside_both_white
    return matching / counted if counted else 1.0


def _white_in(pixels: _Pixels, top: int, bottom: int) -> int:
    """White channel values in rows top..bottom (filter bytes, being 0, never count)."""
    return pixels.rows(top, bottom).count(255)


def screen_changed(before: bytes | Image.Image, after: bytes | Image.Image) -> bool:
    """True unless the screenshots are the same screen by AndroidLab's test.

    A value that differs is never white in both screens, so the similarity
    is ``(counted - differing) / counted`` with ``counted = total -
    both_white``: the same integers, hence the same float, as
    :func:`similarity`. Read in two passes, each stopping once the answer is
    known:

    - the rows that differ, from the top: once ``differing`` exceeds 0.1% of
      all values it exceeds 0.1% of the counted ones too, and the screen
      changed (one that changed a lot is known after a few of its rows);
    - with ``differing`` known, the values white in both: inside the blocks
      that differ from both screens, elsewhere the first screen's white (the
      screens are equal there), counted a chunk at a time. Each chunk can
      only lower ``counted`` and with it the similarity, so once it is at or
      below the threshold the screen changed, whatever the rest holds. Only
      a screen judged the same has all its white values counted.
    """
    if isinstance(before, bytes) and before == after:
        return False
    first, second = _pixels(before), _pixels(after)
    if (first.width, first.height) != (second.width, second.height):
        return True
    total = 3 * first.width * first.height
    # A margin over (1 - SAME_SCREEN) keeps the shortcut clear of rounding at the threshold.
    surely_changed = (1 - SAME_SCREEN) * 1.01 * total
    differing, blocks = 0, []
    for top, bottom in _differing_blocks(first, second):
        inside_first, inside_second = first.image(top, bottom), second.image(top, bottom)
        same = ImageChops.difference(inside_first, inside_second).histogram()
        differing += 3 * first.width * (bottom - top) - (same[0] + same[256] + same[512])
        if differing > surely_changed:
            return True
        blocks.append((top, bottom, inside_first, inside_second))
    if not differing:
        return False  # equal pixels in other PNG bytes
    both_white_inside = first_white_inside = 0
    for top, bottom, inside_first, inside_second in blocks:
        darker = ImageChops.darker(inside_first, inside_second).histogram()  # 255 only where both are
        both_white_inside += darker[255] + darker[511] + darker[767]
        first_white_inside += _white_in(first, top, bottom)
    white = 0
    for index in range(len(first.chunks)):  # every chunk is inflated by now
        white += first.chunk_white(index)
        # At least this much white outside the differing blocks: what was counted minus all inside them.
        counted = total - both_white_inside - max(0, white - first_white_inside)
        if (counted - differing) / counted <= SAME_SCREEN:
            return True
    counted = total - both_white_inside - (white - first_white_inside)  # every chunk counted: exact
    return (counted - differing) / counted <= SAME_SCREEN
