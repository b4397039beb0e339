"""How Simple Mobile Tools apps print sizes, dates and item counts (commons extensions)."""

from __future__ import annotations

import datetime as dt
import math

__all__ = ["format_date", "format_size", "items_count"]

_UNITS = ("B", "kB", "MB", "GB", "TB")


def format_size(size: int) -> str:
    """commons `Long.formatSize()`: 1024-based units, one optional decimal ("6.1 kB", "0 B")."""
    if size <= 0:
        return "0 B"
    group = min(int(math.log10(size) / math.log10(1024)), len(_UNITS) - 1)
    value = size / 1024 ** group
    text = f"{value:,.1f}".rstrip("0").rstrip(".")  # DecimalFormat("#,##0.#")
    return f"{text} {_UNITS[group]}"


def format_date(epoch_s: int, *, use_24_hour: bool = False, date_format: str = "%d.%m.%Y") -> str:
    """commons `Long.formatDate()`: "30.06.2023, 12:22 PM" (the phone's zone is UTC)."""
    when = dt.datetime.fromtimestamp(epoch_s, dt.timezone.utc)
    clock = when.strftime("%H:%M") if use_24_hour else when.strftime("%I:%M %p").lstrip("0")
    return f"{when.strftime(date_format)}, {clock}"


def items_count(count: int) -> str:
    """The `items` plural: "1 item", "0 items"."""
    return f"{count} item" if count == 1 else f"{count} items"
