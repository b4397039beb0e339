"""Where the plugin keeps its state: stash keys, report attributes, workerinput keys.

They live here, below every module that reads them (plugin.py, fixtures.py,
runtime.py, ledger.py, reporting/plugin.py, device/provision.py), so that no
module imports another for a name; the annotations name the types only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from .episode import Episode
    from .ledger import RunLedger
    from .runtime import Runtime

__all__ = ["CONTROLLER_PID_KEY", "DEVICE_ATTR", "EPISODE_KEY", "LEDGER_KEY", "MANIFEST_DIR_KEY", "RECORD_ATTR",
           "RUNTIME_KEY"]

RUNTIME_KEY = pytest.StashKey["Runtime"]()  # config.stash: this process's Runtime
LEDGER_KEY = pytest.StashKey["RunLedger"]()  # config.stash: collected tasks, crashes, interruption
EPISODE_KEY = pytest.StashKey["Episode"]()  # item.stash: the task's episode
RECORD_ATTR = "mobileagent_record"  # the TestReport attribute carrying a task's record dict
DEVICE_ATTR = "mobileagent_device"  # ... and the one carrying {"serial", "android_version"} of its device

CONTROLLER_PID_KEY = "mobileagent_controller_pid"  # workerinput key: the xdist controller's pid
MANIFEST_DIR_KEY = "mobileagent_manifests"  # workerinput key: the run's manifest directory
