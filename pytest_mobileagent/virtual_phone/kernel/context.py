"""The phone as its layers are handed it: `PhoneContext`, the type of every ``phone`` argument below phone.py.

Android hands its services, apps and commands a ``Context``, not the device: they reach what
they need through it.  Here the booted `phone.VirtualPhone` plays that part, and the layers
below it name its type by this protocol, which lives at the bottom, so that no layer imports
the phone (the top) even for an annotation.  Members whose objects belong to a higher layer
(the activity system, the package store, roles) are typed `Any` here: the kernel cannot
name them; their own modules document them.
"""

from __future__ import annotations

import random
import threading
from typing import Any, Callable, Protocol

from .clock import PhoneClock
from .fs import VirtualFileSystem
from .sockets import SocketTable

__all__ = ["PhoneContext"]


class PhoneContext(Protocol):
    """What the layers below phone.py use of a booted phone (`phone.VirtualPhone` provides it)."""

    serial: str
    seed: int
    rng: random.Random
    boot_ms: int
    #: the phone's one clock (clock.py); clock_ms() is its wall time
    clock: PhoneClock
    shell_pid: int
    _next_pid: int
    props: dict[str, str]
    settings: dict[str, dict[str, str]]
    permissions: dict[str, set[str]]
    fs: VirtualFileSystem
    sockets: SocketTable
    _lock: threading.RLock
    #: framework/system.py's AndroidSystem: activities, windows, input and output
    system: Any
    #: framework/packages.py's PackageStore: PackageManagerService's packages
    packages: Any
    #: framework/roles.py's RoleStore
    roles: Any
    #: kernel/logbuffer.py's log buffers (set at boot)
    logs: Any

    def clock_ms(self) -> int: ...
    def advance_clock(self, ms: int) -> None: ...
    def emit_event(self, event: dict) -> None: ...
    def add_event_sink(self, sink: Callable[[dict], None]) -> None: ...
    def remove_event_sink(self, sink: Callable[[dict], None]) -> None: ...
    def run_shell(self, command: str, **options: Any) -> Any: ...
    def new_shell_session(self) -> Any: ...
    def package_enabled(self, package: str) -> bool: ...
    def set_package_enabled(self, package: str, enabled: bool) -> None: ...
    def kept_alive_packages(self) -> list[str]: ...
    def pid_of(self, package: str) -> int: ...
    def forget_pid(self, package: str) -> None: ...
    def process_uid(self, package: str) -> int: ...
    def allocate_port(self) -> int: ...
