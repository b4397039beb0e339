"""Preparing devices for the benchmark: the code behind ``mobileagent-setup``.

``prepare_device(adb_device, apks=scan_apks(DIR))`` brings one device (real
phone, emulator or virtual phone) to the benchmark's state and reports what it
changed; the plugin's auto-booted virtual phones go through the same function.
"""

from .device_setup import LocalApk, SetupError, SetupReport, prepare_device, scan_apks

__all__ = ["LocalApk", "SetupError", "SetupReport", "prepare_device", "scan_apks"]
