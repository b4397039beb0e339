"""Devices: the ``Device`` API over a fast raw adb client, and device allocation."""

from .device import Device, PendingScreenshot, ShellResult, connect
from .pool import DeviceAllocationError, DevicePool

__all__ = ["Device", "DeviceAllocationError", "DevicePool", "PendingScreenshot", "ShellResult", "connect"]
