"""Reading Android's content providers through adb: what `content query` prints, as rows.

Judges and seeds that check device state beyond the screen (contacts, SMS,
blocked numbers) run `adb shell content query ...` through the `device`
fixture; this turns its output into dicts, the same on every device kind.
"""

from __future__ import annotations

import re

__all__ = ["content_rows"]

_ROW = re.compile(r"Row: \d+ (.*)")
#: "name=value" up to the next ", name=" (values may hold commas and spaces)
_CELL = re.compile(r"(\w+)=(.*?)(?=, \w+=|$)")


def content_rows(output: str) -> list[dict[str, str]]:
    """Parse `content query` output ("Row: 0 a=1, b=x") into dicts; "No result found." is no row."""
    rows = []
    for line in output.splitlines():
        match = _ROW.match(line)
        if match:
            rows.append(dict(_CELL.findall(match.group(1))))
    return rows
