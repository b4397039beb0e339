"""Conformance replay: Simple Contacts."""

from __future__ import annotations

from conformance import CONTACTS_URI
from conformance import ExpectedChange
from conformance import add_contact

PACKAGE = "com.simplemobiletools.contacts.pro"


def seed(device) -> None:
    for name, number in (("Alice", "5551001"), ("Bob", "5551002"), ("Jack", "5551003")):
        add_contact(device, name, number)


def before_session(device) -> None:
    """Every recorded Contacts session starts from one state: the app's data fresh, Alice, Bob and
    Jack, no favourite, no group, on the Contacts tab.

    The recordings show it: all 27 sessions that start in the app start on the same screen, with
    "There are no contact groups on the device" although sessions 10, 11, 19 and 20 create groups
    (session 24 then taps the empty Groups tab's "Create group"), no favourite although sessions 12
    and 13 star Bob, and Bob although session 18 deletes him.  So each session was recorded after a
    reset of the app's data (its permissions granted, as the recorder installs with them) and of
    the contacts.
    """
    device.shell(f"pm clear {PACKAGE}")
    device.shell(f"pm grant {PACKAGE} android.permission.READ_CONTACTS")
    device.shell(f"pm grant {PACKAGE} android.permission.WRITE_CONTACTS")
    device.shell(f"content delete --uri {CONTACTS_URI}/raw_contacts")
    seed(device)


#: Differences the pinned release makes on purpose (see conformance.ExpectedChange).
CHANGES: tuple[ExpectedChange, ...] = ()
