"""toybox 0.8.9's byte dumpers: od (toys/posix/od.c), xxd (toys/other/xxd.c), base64 (toys/other/base64.c).

Each is a line-for-line port of its C source (Android builds toybox with -funsigned-char), so
the layouts match the real applets to the space: od's columns are as wide as the widest value
of their type plus one, rounded up per byte (od_outline()), so `echo abc | od` prints
"0000000  061141  005143"; xxd groups two bytes; base64 wraps at 76 columns and, decoding,
stops without an error at the first character outside the alphabet.
"""

from __future__ import annotations

import base64 as b64
import re
import struct

from ..kernel.fs import FsError
from .builtins import parse_flags, toybox_options
from .interpreter import Invocation, UsageError, command

__all__: list[str] = []

_ASCII_NAMES = ("nul soh stx etx eot enq ack bel bs ht nl vt ff cr so si dle dc1 dc2 dc3 dc4 nak syn etb can em "
                "sub esc fs gs rs us sp").split()


def _inputs(inv: Invocation, files: list[str], failed: list[str]):
    """loopfiles(): each file's bytes (stdin for none or `-`); a file that fails is reported
    (perror_msg: the applet's status becomes 1) and added to ``failed``."""
    for name in files or ["-"]:
        if name == "-":
            yield inv.stdin
            continue
        try:
            if inv.fs.isdir(name, inv.cwd):
                inv.fail(f"{name}: Is a directory")
                failed.append(name)
                continue
            data = inv.fs.read_file(name, inv.cwd)
        except FsError as exc:  # the applet goes on with the next file
            inv.fail(f"{name}: {exc.strerror}")
            failed.append(name)
            continue
        yield data


def _number(text: str, applet: str, flag: str, low: int | None = None) -> int:
    """lib/args.c's `#` options: a number ("not integer: x"), at least ``low``
    ("-w < 1 (see "od --help")")."""
    try:
        value = int(text, 0)
    except ValueError:
        raise UsageError(f"not integer: {text}") from None
    if low is not None and value < low:
        raise UsageError(f'-{flag} < {low} (see "{applet} --help")')
    return value


# -- od ---------------------------------------------------------------------------------------
_OD_TYPES = "acduoxf"


def _od_types(spec: str) -> list[tuple[int, int]]:
    """append_base(): `-t` letters with optional sizes, as (type index, size)."""
    out, i = [], 0
    while i < len(spec):
        kind = _OD_TYPES.find(spec[i])
        i += 1
        if kind < 0:
            raise UsageError(f"bad -t {spec}")
        size = 1
        digits = re.match(r"\d+", spec[i:])
        if digits:
            size = int(digits.group())
            i += len(digits.group())
            if (kind < 2 and size != 1) or not (kind == 6 and size == 16) and not 1 <= size <= 8:
                raise UsageError(f"bad -t {spec}")
        elif kind == 6:
            size = {"F": 4, "D": 8, "L": 16}.get(spec[i:i + 1], 8)
            i += spec[i:i + 1] in ("F", "D", "L")
        elif kind > 1:
            size = {"C": 1, "S": 2, "I": 4, "L": 8}.get(spec[i:i + 1], 4)
            i += spec[i:i + 1] in ("C", "S", "I", "L")
        if kind == 6 and size not in (4, 8):
            raise UsageError(f"bad -tf '{size}'")  # the phone's long double is 8 bytes (bionic x86_64: 16)
        out.append((kind, size))
    return out


def _od_item(kind: int, size: int, data: bytes, offset: int) -> tuple[str, int, int]:
    """od_out_t(): (text, pad, bytes used) for one item at ``offset``."""
    if kind < 2:
        c = data[offset]
        if kind == 0:
            c &= 127
            text = _ASCII_NAMES[c] if c <= 32 else "del" if c == 127 else chr(c)
        else:
            # strchr("\b\f\n\r\t\a\v", c) also finds the string's NUL: 0 prints as \0
            escapes = {8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 7: "\\a", 11: "\\v", 0: "\\0"}
            text = escapes.get(c) or (f"{c:03o}" if c < 32 or c >= 127 else chr(c))
        return text, 4, 1
    chunk = data[offset:offset + size]
    if kind == 6:
        value = struct.unpack("<f" if size == 4 else "<d", chunk)[0]
        digits = 8 if size == 4 else 17
        text = f"{value:.{digits}e}"
        if value != value and chunk[-1] & 0x80:
            text = "-nan"  # glibc and bionic print a NaN's sign bit
        return text, digits + (7 if size == 4 else 8), size
    value = int.from_bytes(chunk, "little")
    top = (1 << (8 * size)) - 1 if size < 8 else ((1 << 63) - 1 if kind == 2 else (1 << 64) - 1)
    fmt = {2: "d", 3: "d", 4: "o", 5: "x"}[kind]
    width = len(format(top, fmt))
    if kind == 2:
        width += 1
        if value >> (8 * size - 1):
            value -= 1 << (8 * size)
    text = format(value, f"0{width}{fmt}" if kind in (4, 5) else f"{width}{fmt}")
    return text, width + 1, size


@command("od")
def _od(inv: Invocation) -> int:
    flags, opts, files = toybox_options("od", inv.args, "vxsodcb", "jwNAt")  # "j#vw#<1=16N#xsodcbA:t*"
    opts.setdefault("t", [])
    width = _number(opts["w"][-1], "od", "w", 1) if "w" in opts else 16  # "w#<1=16"
    skip = _number(opts["j"][-1], "od", "j") if "j" in opts else 0
    limit = _number(opts["N"][-1], "od", "N") if "N" in opts else None
    address = "ndox".find(opts["A"][-1][:1]) if "A" in opts else 2
    if address < 0:
        raise UsageError(f"bad -A '{opts['A'][-1][:1]}'")
    types: list[tuple[int, int]] = []
    for spec in opts["t"]:
        types += _od_types(spec)
    for flag, spec in (("b", "o1"), ("c", "c"), ("d", "u2"), ("o", "o2"), ("s", "d2"), ("x", "x2")):
        if flag in flags:
            types += _od_types(spec)
    types = types or _od_types("o2")
    failed: list[str] = []
    whole = b"".join(_inputs(inv, files, failed))
    # do_od() skips with lib.c lskip(): within a file up to its end, but an empty file is
    # seeked past (lseek succeeds beyond the end), so the address says the whole skip
    empty_files = not whole and files and "-" not in files
    data, skip = whole[skip:], skip if empty_files else min(skip, len(whole))
    if limit is not None:
        data = data[:limit]
    inv.out(_od_lines(data, types, width, address, skip, "v" in flags))
    return 1 if failed else 0


def _od_lines(data: bytes, types: list[tuple[int, int]], width: int, address: int, skip: int,
              verbose: bool) -> str:
    """od_outline() over the whole input: a line per type, `*` for repeated lines."""
    bases = ("", "{:07d}", "{:07o}", "{:06x}")
    pad = 0
    for kind, size in types:
        _text, item_pad, used = _od_item(kind, size, bytes(16), 0)
        pad = max(pad, (item_pad + used - 1) // used)
    out: list[str] = []
    pos, star, previous = skip, False, None
    for start in range(0, len(data), width):
        line = data[start:start + width]
        full = line + bytes(width - len(line))
        if not verbose and previous == full and pos != skip:
            if not star:
                out.append("*\n")
                star = True
            pos += len(line)
            previous = full
            continue
        star = False
        out.append(bases[address].format(pos))
        pos += len(line)
        for index, (kind, size) in enumerate(types):
            j = 0
            while j < len(line):
                text, _pad, used = _od_item(kind, size, full, j)
                out.append(text.rjust(pad * used + (7 if index and not j else 0)))
                j += used
            out.append("\n")
        previous = full
    out.append(bases[address].format(pos) + ("\n" if address else ""))
    return "".join(out)


# -- xxd --------------------------------------------------------------------------------------
@command("xxd")
def _xxd(inv: Invocation) -> int:
    opts, files = parse_flags(inv.args, "ipr", valued="cglos")
    if len(files) > 1:
        raise UsageError(f"Max 1 argument (see \"xxd --help\")")
    if opts.get("r") and "s" in opts:
        raise UsageError("No 'r' with 's' (see \"xxd --help\")")
    nums = {k: _number(str(opts[k]), "xxd", k, 0 if k == "g" else None) for k in "cglos" if k in opts}
    if "c" in nums and not 0 <= nums["c"] <= 256:
        raise UsageError(f"-c {'<' if nums['c'] < 0 else '>'} {0 if nums['c'] < 0 else 256} (see \"xxd --help\")")
    plain, include = bool(opts.get("p")), bool(opts.get("i"))
    columns = nums.get("c", 30 if plain else 12 if include else 16)
    group = nums.get("g", columns if plain else 2)
    data = next(iter(_inputs(inv, files, [])), None)
    if data is None:
        return 1
    if opts.get("r"):
        inv.out(_xxd_reverse(data, plain, include, columns))
    elif include:
        inv.out(_xxd_include(data, columns))
    else:
        inv.out(_xxd_dump(data, nums.get("s", 0), nums.get("l", 0), nums.get("o", 0), columns, group, plain))
    return 0


def _xxd_dump(data: bytes, seek: int, limit: int, offset: int, columns: int, group: int, plain: bool) -> str:
    """do_xxd()."""
    pos, out = 0, []
    if seek:
        pos = seek
        limit = limit + seek if limit else 0
    chunk = columns or 4096
    while True:
        size = min(chunk, limit - pos) if limit and limit - pos < chunk else chunk
        line = data[pos:pos + size]
        if not line:
            break
        if not plain:
            out.append(f"{offset + pos:08x}: ")
        pos += len(line)
        space = 2 * columns + ((columns + group - 1) // group + 1 if group else 2)
        for i, byte in enumerate(line, 1):
            out.append(f"{byte:02x}")
            space -= 2
            if group and not i % group:
                out.append(" ")
                space -= 1
        if not plain:
            out.append(" " * max(space, 0))
            out.append("".join(chr(b) if 32 <= b <= 126 else "." for b in line))
        if columns or not plain:
            out.append("\n")
    if not columns and plain:
        out.append("\n")
    return "".join(out)


def _xxd_include(data: bytes, columns: int) -> str:
    """do_xxd_include(): "  0x74, 0x68, ...", `columns` to a line."""
    out, c = [], 1
    for byte in data:
        # printf("%#.02x"): the 0x prefix is left off a zero
        out.append(f"{', ' if c > 1 else '  '}{byte:#04x}" if byte else f"{', ' if c > 1 else '  '}00")
        if c == columns:
            out.append(",\n")
            c = 1
        else:
            c += 1
    if c > 1:
        out.append("\n")
    return "".join(out)


def _xxd_reverse(data: bytes, plain: bool, include: bool, columns: int) -> bytes:
    """do_xxd_reverse(): hex digits back to bytes; a dump's offsets place its lines."""
    if include:
        # while (fscanf(fp, " 0x%02x,", &tmp) == 1): stops at the first item that is not 0xNN
        # (a zero byte, which -i prints as "00", included)
        out, pos = bytearray(), 0
        while m := re.compile(rb"\s*0x([0-9a-fA-F]{1,2}),?").match(data, pos):
            out.append(int(m.group(1), 16))
            pos = m.end()
        return bytes(out)
    out = bytearray()
    for line in data.split(b"\n"):
        if not plain and (m := re.match(rb"([0-9a-fA-F]+): ", line)):
            where = int(m.group(1), 16)
            if where > len(out):
                out += bytes(where - len(out))
            del out[where:]
            line = line[m.end():]
        col, i = 0, 0
        while plain or not columns or col < columns:
            pair = line[i:i + 2]
            if len(pair) < 2 or not all(chr(c) in "0123456789abcdefABCDEF" for c in pair):
                break
            out.append(int(pair, 16))
            col += 1
            i += 2
            if line[i:i + 1] == b" ":
                i += 1
    return bytes(out)


# -- base64 -----------------------------------------------------------------------------------
_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


@command("base64")
def _base64(inv: Invocation) -> int:
    opts, files = parse_flags(inv.args, "di", valued="w")
    if opts.get("d") and "w" in opts:
        raise UsageError("No 'd' with 'w' (see \"base64 --help\")")
    wrap = _number(str(opts["w"]), "base64", "w", 0) if "w" in opts else 76  # "w#<0=76"
    failed: list[str] = []
    for data in _inputs(inv, files, failed):
        inv.out(_decode(data, bool(opts.get("i"))) if opts.get("d") else _encode(data, wrap))
    return 1 if failed else 0


def _encode(data: bytes, wrap: int) -> bytes:
    text = b64.b64encode(data)
    if not wrap:
        return text
    lines = [text[i:i + wrap] for i in range(0, len(text), wrap)]
    return b"".join(line + b"\n" for line in lines)


def _decode(data: bytes, ignore: bool) -> bytes:
    """do_base() with -d: `=` ends the input; another character outside the alphabet ends it
    too, silently, unless it is a newline or -i is given."""
    kept = bytearray()
    for byte in data:
        if byte == ord("="):
            break
        if byte in _ALPHABET:
            kept.append(byte)
        elif byte == ord("\n") or ignore:
            continue
        else:
            break
    usable = len(kept) - len(kept) % 4
    out = b64.b64decode(bytes(kept[:usable])) if usable else b""
    rest = bytes(kept[usable:])
    if len(rest) >= 2:  # a partial group still yields its whole bytes, as the bit accumulator does
        out += b64.b64decode(rest + b"=" * (4 - len(rest)))[:len(rest) * 6 // 8]
    return out
