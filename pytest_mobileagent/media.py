"""Where the benchmark's media are: the images, videos, songs and recordings its tasks push.

The repository keeps them in ``fixtures/`` beside ``task_tests/``; an installed
wheel carries them as ``pytest_mobileagent/benchmark_media/`` (pyproject.toml
maps the one onto the other, as it maps ``task_tests/`` onto
``pytest_mobileagent.task_tests``), so the tasks find them either way.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["media_dir"]

_PACKAGE = Path(__file__).resolve().parent


def media_dir() -> Path:
    """The directory of the benchmark's media: the wheel's copy, else the checkout's ``fixtures/``."""
    packaged = _PACKAGE / "benchmark_media"
    return packaged if packaged.is_dir() else _PACKAGE.parent / "fixtures"
