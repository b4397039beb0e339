"""Checks, at configure time, that the run can write where it was told to.

An unwritable ``--results-json``, ``--mobileagent-artifacts`` or
``--alluredir`` would otherwise surface after the whole suite ran (a warning
and exit status 0 for the results file, an INTERNALERROR traceback from
allure-pytest): here it is one usage error before anything runs.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from .options import MobileAgentOptions
from .reporting.options import ReportingOptions

__all__ = ["check_outputs"]


def _writable_dir(path: Path, what: str) -> None:
    """Create ``path`` if needed and prove a file can be made in it."""
    for part in (path, *path.parents):
        if part.exists():
            if not part.is_dir():
                raise pytest.UsageError(f"{what}: cannot write to {path}: {part} is not a directory")
            break
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if exc.filename and str(exc.filename) != str(path):
            reason += f" ({exc.filename})"
        raise pytest.UsageError(f"{what}: cannot write to {path}: {reason}") from None


def _writable_file(path: Path, what: str) -> None:
    if path.is_dir():
        raise pytest.UsageError(f"{what}: {path} is a directory; give a file name")
    _writable_dir(path.parent, what)
    if path.exists() and not os.access(path, os.W_OK):
        raise pytest.UsageError(f"{what}: cannot write to {path}: permission denied")


def check_outputs(config: pytest.Config) -> None:
    """Raise :class:`pytest.UsageError` for an output location the run cannot write."""
    artifacts = MobileAgentOptions.from_config(config).artifacts
    if artifacts is not None:
        _writable_dir(artifacts, "--mobileagent-artifacts")
    allure = getattr(config.option, "allure_report_dir", None)
    if allure:
        _writable_dir(Path(os.path.expanduser(str(allure))).absolute(), "--alluredir")
    results = ReportingOptions.from_config(config, load_baseline=False).results_json
    if results is not None:
        _writable_file(results, "--results-json")
