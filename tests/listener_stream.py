"""The way tests reach a device's listener: dial its socket through the adb server.

``EventServer(dial=listener_dial(device))`` is what a run's worker builds
(runtime.py), for an adbutils device or the plugin's own Device.
"""

from __future__ import annotations

import functools

from pytest_mobileagent.listener import SOCKET_NAME

__all__ = ["listener_dial"]


def listener_dial(device):
    """A callable opening a fresh stream to ``device``'s listener socket."""
    if hasattr(device, "open_stream"):  # pytest_mobileagent.device.Device
        return functools.partial(device.open_stream, f"localabstract:{SOCKET_NAME}")
    import adbutils

    return functools.partial(device.create_connection, adbutils.Network.LOCAL_ABSTRACT, SOCKET_NAME)
