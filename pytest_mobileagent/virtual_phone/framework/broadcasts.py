"""The activity manager's broadcast receivers: who receives an intent sent with `am broadcast`.

Receivers register for an action in `BROADCAST_RECEIVERS`: the system's (the media scanner's,
shell/media.py) and those of helper apps clients install (programs/helper_apps.py,
programs/droidbot_app.py), which check themselves whether their app is there to receive.
`send_broadcast` delivers an intent and returns the result code and data its receiver set
(setResultCode / setResultData), which `am broadcast` prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..kernel.context import PhoneContext

if TYPE_CHECKING:
    from .intents import Intent

__all__ = ["BROADCAST_RECEIVERS", "Receiver", "send_broadcast"]

#: fn(phone, intent) -> (result code, result data), or None when it set neither
Receiver = Callable[["PhoneContext", "Intent"], "tuple[int, str] | None"]

#: action -> its receiver
BROADCAST_RECEIVERS: dict[str, Receiver] = {}


def send_broadcast(phone: "PhoneContext", intent: "Intent") -> tuple[int, str | None]:
    """Deliver ``intent`` to its action's receiver: the result code and data (0 and None by default)."""
    receiver = BROADCAST_RECEIVERS.get(intent.action or "")
    outcome = receiver(phone, intent) if receiver is not None else None
    return outcome if outcome is not None else (0, None)
