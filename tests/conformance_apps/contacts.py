"""Conformance replay: Simple Contacts."""

from __future__ import annotations

from conformance import ExpectedChange
from conformance import add_contact


def seed(device) -> None:
    for name, number in (("Alice", "5551001"), ("Bob", "5551002"), ("Jack", "5551003")):
        add_contact(device, name, number)


#: Differences the pinned release makes on purpose (see conformance.ExpectedChange).
CHANGES: tuple[ExpectedChange, ...] = ()
