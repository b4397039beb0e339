"""The app event model and the parsers for both wire formats.

Two producers exist: our listener (and the virtual phone), which send one JSON
object per line, and the original MobileAgentBench listener, which POSTs a JSON
body with camel-case keys. Both become the same frozen :class:`Event`.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass
from typing import Any

from pytest_mobileagent.errors import MalformedEventError

__all__ = ["MAX_LINE_BYTES", "Event", "parse_event_line", "parse_mab_post"]

#: Longest accepted JSON line or POST body, in bytes (without the newline).
MAX_LINE_BYTES = 64 * 1024

# The original listener's numeric `eventType` values.
_MAB_EVENT_TYPES = {0: "click", 1: "window_state"}


@dataclass(frozen=True)
class Event:
    """One accessibility event reported by the device.

    ``seq`` is the arrival number given by the receiving server; ``time_ms`` is
    the device's clock; ``received_at`` is ``time.monotonic()`` on the host.
    """

    seq: int
    type: str
    package: str
    id: str
    text: tuple[str, ...]
    desc: str
    cls: str
    time_ms: int
    received_at: float

    @property
    def short_id(self) -> str:
        """The resource-id without its package: ``new_note`` for ``com.x:id/new_note``."""
        return self.id.rpartition(":id/")[2] if ":id/" in self.id else self.id

    def to_dict(self) -> dict:
        """A JSON-ready dict (``text`` as a list)."""
        d = asdict(self)
        d["text"] = list(self.text)
        return d


def _decode(data: bytes | str, what: str) -> str:
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedEventError(f"{what} is not valid UTF-8: {exc}") from None


def _load_object(data: bytes | str, what: str) -> dict:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if len(raw) > MAX_LINE_BYTES:
        raise MalformedEventError(f"{what} is {len(raw)} bytes, more than {MAX_LINE_BYTES}")
    text = _decode(data, what)
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise MalformedEventError(f"{what} is not JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise MalformedEventError(f"{what} is JSON {type(obj).__name__}, not an object")
    return obj


def _opt_str(obj: dict, key: str) -> str:
    value = obj.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise MalformedEventError(f"{key!r} must be a string, got {type(value).__name__}")
    return value


def _text(obj: dict, key: str) -> tuple[str, ...]:
    value = obj.get(key)
    if value is None:
        return ()
    # Android's AccessibilityEvent.getText() is a list; a lone string is accepted
    # because hand-written senders (and the original listener) often send one.
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise MalformedEventError(f"{key!r} must be a list of strings")


def _time_ms(obj: dict, key: str) -> int:
    value = obj.get(key)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise MalformedEventError(f"{key!r} must be a number, got {type(value).__name__}")
    if isinstance(value, float) and not math.isfinite(value):
        raise MalformedEventError(f"{key!r} must be finite")
    return int(value)


def parse_event_line(
    line: bytes | str, *, seq: int = 0, received_at: float | None = None
) -> Event:
    """Parse one JSON-lines event (our listener's format).

    Raises :class:`MalformedEventError` on bad UTF-8, bad JSON, a non-object, a
    missing ``type`` or a field of the wrong type. Unknown keys are ignored so
    that newer listeners keep working.
    """
    obj = _load_object(line, "event line")
    version = obj.get("v", 1)
    if version != 1 or isinstance(version, bool):
        raise MalformedEventError(f"unsupported event version {version!r}")
    kind = obj.get("type")
    if not isinstance(kind, str) or not kind:
        raise MalformedEventError("'type' must be a non-empty string")
    return Event(
        seq=seq,
        type=kind,
        package=_opt_str(obj, "package"),
        id=_opt_str(obj, "id"),
        text=_text(obj, "text"),
        desc=_opt_str(obj, "desc"),
        cls=_opt_str(obj, "class"),
        time_ms=_time_ms(obj, "time_ms"),
        received_at=time.monotonic() if received_at is None else received_at,
    )


def parse_mab_post(
    body: bytes | str, *, seq: int = 0, received_at: float | None = None
) -> Event:
    """Parse the body of an original MobileAgentBench listener POST.

    ``eventType`` 0 is a click, 1 a window state change; any other integer is
    kept as ``"mab_<n>"`` rather than dropped, so nothing the app says is lost.
    """
    obj = _load_object(body, "POST body")
    code: Any = obj.get("eventType")
    if isinstance(code, str) and code.lstrip("-").isdigit():
        code = int(code)
    if isinstance(code, bool) or not isinstance(code, int):
        raise MalformedEventError("'eventType' must be an integer")
    return Event(
        seq=seq,
        type=_MAB_EVENT_TYPES.get(code, f"mab_{code}"),
        package=_opt_str(obj, "packageStr"),
        id=_opt_str(obj, "idStr"),
        text=_text(obj, "text"),
        desc=_opt_str(obj, "contentDescription"),
        cls=_opt_str(obj, "classStr"),
        time_ms=_time_ms(obj, "time"),
        received_at=time.monotonic() if received_at is None else received_at,
    )
