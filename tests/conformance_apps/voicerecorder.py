"""Conformance replay: Simple Voice Recorder."""

from __future__ import annotations

from conformance import ExpectedChange
from conformance import seed_media as seed  # noqa: F401


#: Differences the pinned release makes on purpose (see conformance.ExpectedChange).
CHANGES: tuple[ExpectedChange, ...] = ()
