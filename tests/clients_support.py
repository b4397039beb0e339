"""What the automation clients' tests need installed, and one rule for when it is not.

A client missing from the machine skips its tests, unless MOBILEAGENT_REQUIRE_CLIENTS
is set (``.ci/run`` sets it): then the test fails, so CI cannot skip them.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

APPIUM_DIR = Path(os.environ.get("MOBILEAGENT_APPIUM_DIR", Path(__file__).parent.parent / "clients" / "appium"))
APPIUM_MAIN = APPIUM_DIR / "node_modules" / "appium" / "index.js"
DRIVER_DIR = APPIUM_DIR / "node_modules" / "appium-uiautomator2-driver"


def require_client(reason: str | None) -> None:
    """Skip the test for ``reason`` (what is missing), or fail it when CI requires the clients; None: go on."""
    if reason is None:
        return
    if os.environ.get("MOBILEAGENT_REQUIRE_CLIENTS"):
        pytest.fail(f"MOBILEAGENT_REQUIRE_CLIENTS is set but {reason}")
    pytest.skip(reason)


def appium_missing() -> str | None:
    """What of Appium (node, its npm packages, Appium-Python-Client) is not installed; None: all is."""
    if shutil.which("node") is None:
        return "node is not installed"
    if not APPIUM_MAIN.exists() or not DRIVER_DIR.exists():
        return f"the npm packages appium and appium-uiautomator2-driver are not installed in {APPIUM_DIR} " \
               f"(npm ci --prefix {APPIUM_DIR})"
    try:
        import appium.webdriver  # noqa: F401
    except ImportError:
        return "Appium-Python-Client is not installed (pip install -e '.[test]')"
    return None
