"""The programs layer: device-side servers that clients start, and how a shell holds them.

uiautomator2's server, Appium's UiAutomator2 server, DroidBot's helper app, instrumentation
and the clients' helper apps.  Imports the shell, apps, framework and kernel layers only.

Programs started with ``app_process`` (shell/app_process.py) are looked up
by their Java main class in `APP_PROCESS_MAINS`: uiautomator2's server
(uiautomator2.py) is ``com.wetest.uia2.Main``.
"""

from __future__ import annotations

import importlib
import threading
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from ..phone import VirtualPhone
    from ..shell.interpreter import Invocation
    from ..kernel.sockets import Handler, Listener

__all__ = ["APP_PROCESS_MAINS", "Program", "SIGHUP_STATUS", "SIGKILL_STATUS", "app_process_main"]

