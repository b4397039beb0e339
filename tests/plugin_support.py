"""Helper for the tests that run tasks through the plugin in a pytester subprocess."""

from __future__ import annotations

import json

import pytest


def run_on_phone(pytester: pytest.Pytester, phone, *args: str) -> tuple[pytest.RunResult, dict]:
    """Run the pytester project's tasks on ``phone``: the outcome and the results file ({} if none)."""
    out = pytester.path / "results.json"
    result = pytester.runpytest_subprocess("--device", phone.serial, "--results-json", str(out), *args)
    return result, json.loads(out.read_text()) if out.exists() else {}
