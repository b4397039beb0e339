"""What the disk-fault tests share: two calculator tasks, and whether a private tmpfs can be mounted."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess

TASKS = """
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")])
def test_add(screen):
    assert screen.text(id="result") == "8"

@task(app="calculator", prompt="Calculate the result of '9 - 2'",
      golden=[g.tap(id="btn_9"), g.tap(id="btn_minus"), g.tap(id="btn_2"), g.tap(id="btn_equals")])
def test_subtract(screen):
    assert screen.text(id="result") == "7"
"""


@functools.cache
def cannot_mount() -> str | None:
    """Why a private tmpfs cannot be mounted here (probed once per process), or None."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return "needs root and unshare(1) for a private tmpfs"
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                           capture_output=True, text=True)
    return None if probe.returncode == 0 else f"cannot mount a tmpfs here: {probe.stderr.strip()}"
