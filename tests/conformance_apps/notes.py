"""Conformance replay: Simple Notes."""

from __future__ import annotations

from conformance import ExpectedChange


#: Differences the pinned release makes on purpose (see conformance.ExpectedChange).
CHANGES: tuple[ExpectedChange, ...] = ()
