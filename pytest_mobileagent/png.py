"""PNG files from Pillow images, in pieces that can be cached and spliced.

A PNG's pixel data is one zlib stream of filtered rows. Here the rows are cut
into pieces of a few rows, each compressed on its own and ended with a sync
flush, so its DEFLATE blocks end on a byte boundary and refer to nothing
before them; concatenated, followed by one final empty block, they form one
valid stream, and the zlib checksum of the whole is combined from the
pieces' checksums. The virtual phone's frame buffer
(``virtual_phone/framework/ui/frame.py``) keeps pieces of screen bands to re-encode only
what changed; the reports use :func:`encode_png` for their charts.

Each piece is an IDAT chunk of its own (the zlib header and the stream's end
are two small ones). A PNG may have any number of IDAT chunks, whose data is
read as one stream (PNG specification, 11.2.4); libpng writes them 8 KiB at a
time. A chunk's CRC is then the piece's own, computed once, and a reader can
find the pieces again: ``screen_similarity`` inflates only the bands that it
has not seen in an earlier screenshot.

Compression uses ISA-L's deflate (the ``isal`` package) when installed: on
screen pixels it is some twenty times faster than zlib's level 1 at a similar
size. Any DEFLATE stream will do for PNG, so zlib remains the fallback.
"""

from __future__ import annotations

import struct
import zlib

try:
    from isal import isal_zlib as _deflate
except ImportError:  # a platform without an isal wheel: same streams, slower
    _deflate = zlib  # type: ignore[assignment]

__all__ = ["Piece", "adler32_combine", "band_pieces", "encode_png", "inflate_piece", "packed_rows", "png_from_pieces",
           "rgb_idat_chunks", "split_pieces"]

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x01"  # deflate, 32 KiB window, fastest; (0x7801 % 31 == 0)
_FINAL_EMPTY_BLOCK = b"\x03\x00"  # BFINAL=1, fixed Huffman, end-of-block
_ADLER_BASE = 65521
_ROW_FILTER_NONE = b"\x00"
_IDAT_CRC = zlib.crc32(b"IDAT")  # a chunk's CRC covers its tag and its data
PIECE_ROWS = 60  # rows per piece unless told otherwise (the frame buffer's bands)


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """Adler-32 of A+B from adler32(A), adler32(B) and len(B) (zlib's adler32_combine)."""
    rem = second_length % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 = (sum1 + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    sum2 = (sum2 + (first >> 16) + (second >> 16) + _ADLER_BASE - rem) % _ADLER_BASE
    return sum1 | (sum2 << 16)


class Piece:
    """A few rows, compressed: raw DEFLATE ending on a byte boundary."""

    __slots__ = ("data", "adler", "length", "crc")

    def __init__(self, padded_rows: memoryview) -> None:
        # PNG rows each start with a filter byte; 0 (none) suits flat UI pixels
        # and costs nothing to compute. `padded_rows` has a zero byte after
        # every row (see band_pieces), so a zero byte plus all of it but the
        # last byte is the filtered data, without slicing rows apart.
        filtered = padded_rows[:-1]
        compressor = _deflate.compressobj(1, _deflate.DEFLATED, -15)  # level 1, raw DEFLATE
        self.data = (compressor.compress(_ROW_FILTER_NONE) + compressor.compress(filtered)
                     + compressor.flush(_deflate.Z_SYNC_FLUSH))
        self.adler = _deflate.adler32(filtered, _deflate.adler32(_ROW_FILTER_NONE))
        self.length = len(padded_rows)
        self.crc = zlib.crc32(self.data, _IDAT_CRC)  # of its IDAT chunk


def band_pieces(image, band_rows: int) -> list[Piece]:
    """An RGB image's pieces, ``band_rows`` rows each, top to bottom.

    Encoding with a stride one byte longer than a row makes Pillow put a zero
    byte after every row, which Piece turns into the filter bytes.
    """
    row = image.size[0] * 3 + 1
    raw = memoryview(packed_rows(image, row))
    step = band_rows * row
    return [Piece(raw[offset:offset + step]) for offset in range(0, len(raw), step)]


def packed_rows(image, row: int) -> bytes:
    """``image.tobytes("raw", ("RGB", row))``, packed by one encoder call.

    ``tobytes`` feeds Pillow's raw encoder 64 KiB at a time and joins the
    pieces; one call given room for the whole image is faster
    (benchmarks/bench_ui.py, "pack": 0.14 against 0.09 ms for four bands).
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
    crc = zlib.crc32(body, zlib.crc32(tag))  # no tag + body copy
    return b"".join((struct.pack(">I", len(body)), tag, body, struct.pack(">I", crc)))


_IDAT_HEAD = _chunk(b"IDAT", _ZLIB_HEADER)


def png_from_pieces(width: int, height: int, pieces: list[Piece]) -> bytes:
    adler = 1  # Adler-32 of no data
    parts = [_PNG_SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),  # 8-bit RGB
             _IDAT_HEAD]
    for piece in pieces:
        adler = adler32_combine(adler, piece.adler, piece.length)
        parts += (struct.pack(">I4s", len(piece.data), b"IDAT"), piece.data, struct.pack(">I", piece.crc))
    parts += (_chunk(b"IDAT", _FINAL_EMPTY_BLOCK + struct.pack(">I", adler)), _chunk(b"IEND", b""))
    return b"".join(parts)


def encode_png(image, band_rows: int = PIECE_ROWS) -> bytes:
    """PNG bytes of a whole RGB image (unfiltered rows, zlib level 1)."""
    width, height = image.size
    return png_from_pieces(width, height, band_pieces(image, band_rows))


def split_pieces(data: bytes) -> tuple[int, int, list[bytes], int] | None:
    """``(width, height, pieces, adler)`` of a PNG laid out as :func:`png_from_pieces` writes
    it: 8-bit RGB, the zlib header in the first IDAT chunk, the stream's end and its
    Adler-32 in the last, a piece in each one between. None for any other PNG.
    """
    found = rgb_idat_chunks(data)
    if found is None:
        return None
    width, height, idat = found
    if len(idat) < 3:
        return None
    end = idat[-1]
    if idat[0] != _ZLIB_HEADER or len(end) != 6 or not end.startswith(_FINAL_EMPTY_BLOCK):
        return None
    return width, height, idat[1:-1], struct.unpack(">I", end[2:])[0]


def rgb_idat_chunks(data: bytes) -> tuple[int, int, list[bytes]] | None:
    """``(width, height, IDAT chunks' data)`` of an 8-bit RGB, non-interlaced PNG of a
    non-empty size; None for any other PNG, or bytes that are no PNG."""
    if not data.startswith(_PNG_SIGNATURE):
        return None
    header, idat, pos = None, [], len(_PNG_SIGNATURE)
    while pos + 8 <= len(data):
        (length,) = struct.unpack_from(">I", data, pos)
        tag = data[pos + 4:pos + 8]
        if tag == b"IHDR" and length == 13:
            header = struct.unpack_from(">IIBBBBB", data, pos + 8)
        elif tag == b"IDAT":
            idat.append(data[pos + 8:pos + 8 + length])
        elif tag == b"IEND":
            break
        pos += 12 + length
    if header is None or header[2:] != (8, 2, 0, 0, 0) or not idat or not header[0] or not header[1]:
        return None
    return header[0], header[1], idat


def inflate_piece(data: bytes, size: int) -> tuple[bytes, int]:
    """A piece's rows, each after its filter byte, and their Adler-32 (see :class:`Piece`).

    ``size``: the rows' length expected. A piece ends on a sync flush, so with
    an empty last block after it, it is a whole raw DEFLATE stream, inflated
    in one call into a buffer of that size plus a byte (four times faster than
    through a decompressobj; ``screen_similarity`` says why the byte).
    """
    rows = _deflate.decompress(data + _FINAL_EMPTY_BLOCK, -15, size + 1)
    return rows, _deflate.adler32(rows)
