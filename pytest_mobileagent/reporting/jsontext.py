"""JSON for report files, encoded with orjson.

The standard library's C encoder cannot indent, and ``json.dump`` to a file
never uses it: indented attachments and Allure's result files went through
the pure-Python encoder, several times slower than orjson even with indent.
"""

from __future__ import annotations

from typing import Any

import orjson

__all__ = ["json_bytes", "json_text"]

_OPTIONS = orjson.OPT_NON_STR_KEYS  # records may carry int keys; json.dumps turned them into strings too


def json_bytes(value: Any, *, indent: bool = True) -> bytes:
    """UTF-8 JSON of ``value``; what JSON cannot hold is written as ``str(value)``."""
    option = _OPTIONS | (orjson.OPT_INDENT_2 if indent else 0)
    return orjson.dumps(value, default=str, option=option)


def json_text(value: Any, *, indent: bool = True) -> str:
    """:func:`json_bytes` as text (for the redactor, which works on str)."""
    return json_bytes(value, indent=indent).decode("utf-8")
