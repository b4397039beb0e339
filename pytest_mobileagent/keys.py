"""Where the plugin keeps its state: stash keys, report attributes, workerinput keys.

They live here, below every module that reads them (plugin.py, fixtures.py,
runtime.py, ledger.py, reporting/plugin.py, device/provision.py), so that no
module imports another for a name.
"""

from __future__ import annotations

from typing import Any

import pytest

__all__ = ["CONTROLLER_PID_KEY", "DEVICE_ATTR", "EPISODE_KEY", "LEDGER_KEY", "MANIFEST_DIR_KEY", "RECORD_ATTR",
           "RUNTIME_KEY", "TASK_SEED_KEY"]

# The stashed objects' classes live above this module (runtime.py, ledger.py, episode.py), which
# imports none of them: the keys are typed Any, and each comment names what a key holds.
RUNTIME_KEY = pytest.StashKey[Any]()  # config.stash: this process's runtime.Runtime
LEDGER_KEY = pytest.StashKey[Any]()  # config.stash: the ledger.RunLedger (collected tasks, crashes, interruption)
EPISODE_KEY = pytest.StashKey[Any]()  # item.stash: the task's episode.Episode
RECORD_ATTR = "mobileagent_record"  # the TestReport attribute carrying a task's record dict
DEVICE_ATTR = "mobileagent_device"  # ... and the one carrying {"serial", "android_version"} of its device

CONTROLLER_PID_KEY = "mobileagent_controller_pid"  # workerinput key: the xdist controller's pid
MANIFEST_DIR_KEY = "mobileagent_manifests"  # workerinput key: the run's manifest directory
TASK_SEED_KEY = "mobileagent_task_seed"  # workerinput key: the run's task seed (drawn once for 'random')
