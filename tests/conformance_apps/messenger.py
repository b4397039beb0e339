"""Conformance replay: Simple SMS Messenger."""

from __future__ import annotations

from conformance import ExpectedChange
from conformance import add_contact


def seed(device) -> None:
    device.shell("cmd role add-role-holder android.app.role.SMS com.simplemobiletools.smsmessenger")
    for name, number, body in (("Alice", "5551001", "Hello"), ("Bob", "5551002", "Hey")):
        add_contact(device, name, number)
        device.shell(f"content insert --uri content://sms/inbox --bind address:s:{number} --bind 'body:s:{body}'")


#: Differences the pinned release makes on purpose (see conformance.ExpectedChange).
CHANGES: tuple[ExpectedChange, ...] = ()
