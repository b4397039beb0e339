"""The phone's frame buffer: repaints and re-encodes only the rows that changed.

After an agent's action the new screen usually differs from the last one in a
few rows: a digit in the calculator's display, one checkbox, a dialog's text.
The screen is cut into horizontal bands.  A band is known by the drawing
operations that touch it, in coordinates relative to its top row, and its
piece of the PNG's compressed pixel data is cached under that key.  When the
display list changes, only bands never seen before are painted and compressed;
the PNG is cached pieces spliced with the new ones.  Screens seen again (after
a reset, on going back) cost almost nothing.

Splicing is plain DEFLATE (how: ``pytest_mobileagent/png.py``).  A screen
never seen before costs what encoding the whole image costs; a small change
costs a small fraction of it (figures: benchmarks/bench_ui.py).
"""

from __future__ import annotations

from collections import OrderedDict

from ....png import Piece, band_pieces, png_from_pieces
from . import render as _render

BAND_ROWS = 60  # 39 bands on a 2340-row screen; a line of text spans one or two
CACHE_BYTES = 16 << 20  # compressed bands kept for reuse: a few hundred whole screens


class _PieceCache:
    """Compressed bands by what they show, least recently used first out.

    Keys describe a band's content relative to its own top row, so a band seen
    before (the same list row, blank background, a screen visited again after
    a reset) is not painted or compressed a second time.
    """

    def __init__(self, max_bytes: int) -> None:
        self._pieces: OrderedDict[tuple, Piece] = OrderedDict()
        self._bytes, self._max_bytes = 0, max_bytes

    def get(self, key: tuple) -> Piece | None:
        piece = self._pieces.get(key)
        if piece is not None:
            self._pieces.move_to_end(key)
        return piece

    def put(self, key: tuple, piece: Piece) -> None:
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
        self._key_memo: dict[tuple, tuple] = {}  # (band, its operations) -> _key()
        self._pieces: list[Piece | None] = [None] * count  # None: not encoded for its key yet
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
                # position-free key (which finds them in the cache).  Screens
                # come back (a keyboard shown and hidden): their keys are kept.
                self._drawn[band] = drawn
                key = self._key_memo.get((band, drawn))
                if key is None:
                    if len(self._key_memo) > 4096:
                        self._key_memo.clear()  # a bound, not a policy: keys are cheap to recompute
                    key = self._key_memo[band, drawn] = self._key(band, band_ops)
                self._keys[band] = key
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
                for band, piece in zip(range(first, last + 1), band_pieces(part, self._band_rows)):
                    self._pieces[band] = piece
                    self._cache.put(self._keys[band], piece)  # type: ignore[arg-type]
                    self.bands_encoded += 1
            self._png = png_from_pieces(self.width, self.height, self._pieces)  # type: ignore[arg-type]
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
