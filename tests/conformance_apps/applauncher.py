"""Conformance replay: App Launcher."""

from __future__ import annotations

from conformance import ExpectedChange


#: Differences the pinned release makes on purpose (see conformance.ExpectedChange).
CHANGES: tuple[ExpectedChange, ...] = ()
