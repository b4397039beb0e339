"""The programs layer: device-side servers that clients start.

uiautomator2's server, Appium's UiAutomator2 server, DroidBot's helper app, the clients'
helper apps (Appium Settings) and the plugin's own listener app.  Imports the shell, apps, framework and kernel layers only.

The layers below start these programs without knowing them: each program registers with the
layer that starts it when this package is imported, which the phone does at boot (phone.py).
uiautomator2's server is the main class ``app_process`` runs (shell/app_process.py), Appium's
server the test runner ``am instrument`` starts (shell/instrument.py); the helper apps' activities,
broadcast receivers, input methods and services register with the framework's services.

How the shell holds a running program is shell/program.py (`Program`, re-exported here).
"""

from __future__ import annotations

from ..shell.program import SIGHUP_STATUS, SIGKILL_STATUS, Program
# Each registers itself; helper_apps before droidbot_app, the order `ime list` shows their IMEs in.
from . import helper_apps  # noqa: F401
from . import droidbot_app  # noqa: F401
from . import appium_uia2, uiautomator2  # noqa: F401
from . import listener_app  # noqa: F401  (the plugin's own listener app)
from . import monkey_network  # noqa: F401  (monkey --port: MonkeySourceNetwork)

__all__ = ["Program", "SIGHUP_STATUS", "SIGKILL_STATUS"]
