"""The classes a dex jar defines, read as ART's class loader reads them.

``app_process`` finds its main class through a PathClassLoader over the
CLASSPATH: the jar's ``classes.dex``, ``classes2.dex``... each list their
classes in ``class_defs`` (dex format: header fields ``type_ids_off``,
``class_defs_size`` / ``class_defs_off``; a class_def's first field indexes
``type_ids``, whose descriptor indexes ``string_ids``, pointing at a
uleb128 length and the MUTF-8 descriptor ``Lcom/wetest/uia2/Main;``).
"""

from __future__ import annotations

import hashlib
import io
import re
import struct
import zipfile
from functools import lru_cache

__all__ = ["jar_classes"]

_DEX_NAME = re.compile(r"classes\d*\.dex")
#: header fields from string_ids_size (offset 56) to data_off (offset 108)
_HEADER = struct.Struct("<14I")


def jar_classes(data: bytes) -> frozenset[str]:
    """Java names (``com.wetest.uia2.Main``) of the classes a jar's dex files define.

    A file that is no zip, or holds no readable dex, defines nothing (ART
    logs "Unable to load dex file" and the class is not found).
    """
    return _classes_by_digest(hashlib.sha1(data).digest(), data)


@lru_cache(maxsize=8)
def _classes_by_digest(_digest: bytes, data: bytes) -> frozenset[str]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = [name for name in archive.namelist() if _DEX_NAME.fullmatch(name)]
        classes: set[str] = set()
        for name in names:
            classes |= _dex_classes(archive.read(name))
        return frozenset(classes)
    except (zipfile.BadZipFile, OSError, ValueError, struct.error, EOFError):
        return frozenset()


def _dex_classes(dex: bytes) -> set[str]:
    if not dex.startswith(b"dex\n"):
        raise ValueError("not a dex file")
    (string_ids_size, string_ids_off, type_ids_size, type_ids_off,
     _proto_size, _proto_off, _field_size, _field_off, _method_size, _method_off,
     class_defs_size, class_defs_off, _data_size, _data_off) = _HEADER.unpack_from(dex, 56)
    out = set()
    for i in range(class_defs_size):
        (type_idx,) = struct.unpack_from("<I", dex, class_defs_off + 32 * i)
        if type_idx >= type_ids_size:
            raise ValueError("bad type index")
        (string_idx,) = struct.unpack_from("<I", dex, type_ids_off + 4 * type_idx)
        if string_idx >= string_ids_size:
            raise ValueError("bad string index")
        (offset,) = struct.unpack_from("<I", dex, string_ids_off + 4 * string_idx)
        descriptor = _mutf8_at(dex, offset)
        if descriptor.startswith("L") and descriptor.endswith(";"):
            out.add(descriptor[1:-1].replace("/", "."))
    return out


def _mutf8_at(dex: bytes, offset: int) -> str:
    """A string_data_item: uleb128 UTF-16 length, then MUTF-8 bytes up to a NUL."""
    while dex[offset] & 0x80:  # skip the length: the NUL ends the string
        offset += 1
    offset += 1
    end = dex.index(b"\0", offset)
    return dex[offset:end].decode("utf-8", "replace")
