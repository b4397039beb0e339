"""Options about where devices come from and how they are reset, parsed once into types.

``--avd NAME`` (emulators the plugin starts), ``--emulator PATH``,
``--avd-boot-timeout SECONDS``, ``--reset app|snapshot`` and
``--adb-server HOST:PORT`` (repeatable; ini ``adb_servers``). ``--device``
stays a core option; a ``--device HOST:PORT`` is ``adb connect``-ed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

__all__ = ["DEFAULT_AVD_BOOT_TIMEOUT", "DeviceOptions", "RESET_MODES", "add_options", "parse_host_port"]

RESET_MODES = ("app", "snapshot")
# Cold boots of a real emulator take 20-120 s on a CI machine; more is a stuck boot.
DEFAULT_AVD_BOOT_TIMEOUT = 300.0
_HOST_PORT = re.compile(r"^(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?P<port>\d{1,5})$")


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("mobileagent")
    specs = [
        ("avd", "avd", dict(metavar="NAME"), "string",
         "Start one instance of this Android Virtual Device per xdist worker through the SDK's "
         "emulator (read-only, no window), and stop them at the end of the run."),
        ("emulator", "emulator", dict(metavar="PATH"), "string",
         "The SDK's emulator executable for --avd (default: $ANDROID_SDK_ROOT or $ANDROID_HOME "
         "+ emulator/emulator)."),
        ("avd-boot-timeout", "avd_boot_timeout", dict(metavar="SECONDS"), "string",
         f"Longest wait for the --avd instances to boot (default {DEFAULT_AVD_BOOT_TIMEOUT:g})."),
        ("reset", "reset", dict(choices=RESET_MODES), "string",
         "How a device is reset before each task: 'app' (default: force-stop and pm clear the "
         "task's app, then its seeds) or 'snapshot' (also load an emulator snapshot taken after "
         "setup, for state beyond the app; local emulators only)."),
        ("adb-server", "adb_servers", dict(metavar="HOST:PORT", action="append"), "linelist",
         "Another adb server whose devices join the pool (repeatable), as `adb -a nodaemon server` "
         "serves them on another machine; each worker reaches its device through that server."),
    ]
    for flag, dest, kwargs, ini_type, help_text in specs:
        group.addoption("--" + flag, dest=dest, help=help_text, **kwargs)
        parser.addini(dest, help=help_text, type=ini_type, default=None)


def parse_host_port(text: str, what: str) -> tuple[str, int]:
    """``HOST:PORT`` as a (host, port) pair; a usage error naming ``what`` otherwise."""
    match = _HOST_PORT.match(text.strip())
    port = int(match["port"]) if match else 0
    if not match or not 0 < port < 65536:
        raise pytest.UsageError(f"{what}: {text!r} is not HOST:PORT (e.g. 192.168.1.20:5037)")
    return match["host"].strip("[]"), port


def looks_like_host_port(text: str) -> bool:
    """A ``--device`` value that names a networked device (``adb connect`` target)."""
    return bool(_HOST_PORT.match(text.strip()))


def _get(config: pytest.Config, dest: str):
    value = config.getoption(dest, default=None)
    return value if value not in (None, []) else config.getini(dest)


@dataclass(frozen=True)
class DeviceOptions:
    """Where devices come from and how they are reset."""

    avd: str | None = None
    emulator: str | None = None
    avd_boot_timeout: float = DEFAULT_AVD_BOOT_TIMEOUT
    reset: str = "app"
    adb_servers: tuple[tuple[str, int], ...] = ()

    @classmethod
    def from_config(cls, config: pytest.Config) -> "DeviceOptions":
        avd = str(_get(config, "avd") or "").strip() or None
        emulator = str(_get(config, "emulator") or "").strip() or None
        timeout_text = _get(config, "avd_boot_timeout")
        timeout = DEFAULT_AVD_BOOT_TIMEOUT
        if timeout_text not in (None, ""):
            try:
                timeout = float(str(timeout_text).strip())
            except ValueError:
                timeout = -1.0
            if not 0 < timeout < float("inf"):
                raise pytest.UsageError(f"--avd-boot-timeout: {timeout_text!r} is not a positive number of seconds")
        reset = str(_get(config, "reset") or "app").strip()
        if reset not in RESET_MODES:
            raise pytest.UsageError(f"--reset: {reset!r} is not one of {', '.join(RESET_MODES)}")
        servers: list[tuple[str, int]] = []
        for entry in _get(config, "adb_servers") or []:
            if not all(part.strip() for part in str(entry).split(",")):  # "--adb-server ''": not "no server"
                raise pytest.UsageError(
                    f"--adb-server: an empty value in {str(entry)!r}; give HOST:PORT (e.g. 192.168.1.20:5037), "
                    "or leave --adb-server out to use the local adb server")
            for text in str(entry).replace(",", " ").split():
                server = parse_host_port(text, "--adb-server")
                if server not in servers:
                    servers.append(server)
        devices = config.getoption("device", default=None) or config.getini("device")
        if avd and devices:
            raise pytest.UsageError("--avd starts its own devices: give --avd or --device, not both")
        if avd and servers:
            raise pytest.UsageError("--avd starts emulators on this machine: give --avd or --adb-server, not both")
        return cls(avd=avd, emulator=emulator, avd_boot_timeout=timeout, reset=reset, adb_servers=tuple(servers))
