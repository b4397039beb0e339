"""VirtualPhone: the state of one simulated Android 14 phone.

The phone owns what is not UI: its file system, system properties, settings,
runtime permission grants, enabled/disabled packages, a virtual clock and a
seeded random generator. It creates one `AndroidSystem` (the UI layer, see
system.py) and hands it the clock, the file system, `emit_event` and the
installed apps (`apps.INSTALLED_APPS`).

Everything is deterministic for a given seed and start time: the clock
(kernel/clock.py) moves by the phone's own work -- programs started, sleeps,
gestures, the first look at a changed screen -- never with the host's time.
"""

from __future__ import annotations

import datetime as dt
import random
import threading
from typing import Callable, Mapping

from .kernel.clock import PhoneClock
from .kernel.fs import VirtualFileSystem
from .kernel.logbuffer import install_logging
from .kernel.processes import install_proc
from .framework.packages import PackageStore
from .framework.roles import ROLE_HOME, RoleStore
from .framework.active_services import system_state_changed
from .framework.settings import SettingsProvider, SettingsTable, settings_tables
from .framework import system_server  # noqa: F401  (the system services register with the service registry)
from .framework.system import AndroidSystem
from .apps import INSTALLED_APPS
from .shell import COMMANDS, ShellResult, ShellSession, program_names
from . import programs  # noqa: F401  (the phone's programs register with the shell and the framework)
from .kernel.sockets import SocketTable

__all__ = ["DEFAULT_START", "VirtualPhone"]

#: The default wall-clock time of a freshly booted phone.
DEFAULT_START = "2024-05-01T09:00:00Z"
WIDTH, HEIGHT, DENSITY = 1080, 2340, 440

EventSink = Callable[[dict], None]


def _epoch_ms(start: str | int | float | dt.datetime) -> int:
    if isinstance(start, dt.datetime):
        when = start if start.tzinfo else start.replace(tzinfo=dt.timezone.utc)
        return int(when.timestamp() * 1000)
    if isinstance(start, (int, float)):
        return int(start)
    return _epoch_ms(dt.datetime.fromisoformat(start.replace("Z", "+00:00")))


def default_props(seed: int) -> dict[str, str]:
    """System properties of an Android 14 (API 34) phone, as `getprop` lists them."""
    serial = f"VPHONE{seed & 0xFFFFFFFF:08X}"
    fingerprint = "mobileagent/vphone/vphone:14/UE1A.230829.050/11228894:userdebug/test-keys"
    return {
        "ro.build.version.sdk": "34",
        "ro.build.version.release": "14",
        "ro.build.version.release_or_codename": "14",
        "ro.build.version.codename": "REL",
        "ro.build.version.security_patch": "2024-04-05",
        "ro.build.version.incremental": "11228894",
        "ro.build.id": "UE1A.230829.050",
        "ro.build.display.id": "vphone-userdebug 14 UE1A.230829.050 11228894 test-keys",
        # a userdebug build says so everywhere (build/make sysprop.mk and buildinfo.sh): its flavor and
        # description are PRODUCT-VARIANT, and a non-user build displays the description as its id
        "ro.build.type": "userdebug",
        "ro.build.tags": "test-keys",
        "ro.build.flavor": "vphone-userdebug",
        "ro.build.description": "vphone-userdebug 14 UE1A.230829.050 11228894 test-keys",
        "ro.build.product": "vphone",
        "ro.build.fingerprint": fingerprint,
        "ro.build.characteristics": "default",
        "ro.product.name": "mobileagent_vphone",
        "ro.product.model": "MobileAgent_Virtual_Phone",
        "ro.product.device": "vphone",
        "ro.product.brand": "mobileagent",
        "ro.product.manufacturer": "MobileAgent",
        "ro.product.board": "vphone",
        "ro.product.cpu.abi": "x86_64",
        "ro.product.cpu.abilist": "x86_64,arm64-v8a",
        "ro.product.locale": "en-US",
        "ro.hardware": "vphone",
        "ro.serialno": serial,
        "ro.boot.serialno": serial,
        "ro.sf.lcd_density": str(DENSITY),
        "ro.secure": "1",
        "ro.debuggable": "1",
        "ro.adb.secure": "0",
        # A locked bootloader (AVB "green"): `adb remount` says so (shell/remount.py)
        "ro.boot.verifiedbootstate": "green",
        "ro.boot.veritymode": "enforcing",
        "ro.opengles.version": "196610",
        "persist.sys.timezone": "UTC",
        "persist.sys.locale": "en-US",
        "sys.boot_completed": "1",
        "dev.bootcomplete": "1",
        "init.svc.bootanim": "stopped",
        "service.bootanim.exit": "1",
        "net.hostname": "localhost",
        # The emulator's SIM and network: MCC/MNC 310/260 (its IMSI is 310260000000000), which
        # TelephonyManager reports as country "us" (MccTable.countryCodeForMcc(310))
        "gsm.sim.operator.numeric": "310260",
        "gsm.sim.operator.iso-country": "us",
        "gsm.operator.numeric": "310260",
        "gsm.operator.iso-country": "us",
    }


def default_settings(rng: random.Random) -> dict[str, SettingsTable]:
    return settings_tables({
        "system": {"screen_brightness": "102", "screen_off_timeout": "60000", "font_scale": "1.0",
                   "accelerometer_rotation": "0", "user_rotation": "0", "time_12_24": "24"},
        "secure": {"android_id": f"{rng.getrandbits(64):016x}",
                   "default_input_method": "com.android.inputmethod.latin/.LatinIME",
                   "enabled_accessibility_services": "", "accessibility_enabled": "0",
                   "location_mode": "3", "show_ime_with_hard_keyboard": "0"},
        "global": {"adb_enabled": "1", "airplane_mode_on": "0", "animator_duration_scale": "1.0",
                   "transition_animation_scale": "1.0", "window_animation_scale": "1.0",
                   "auto_time": "0", "auto_time_zone": "0", "device_provisioned": "1",
                   "stay_on_while_plugged_in": "7", "wifi_on": "1"},
    })


class VirtualPhone:
    """One phone's non-UI state plus its `AndroidSystem` (``self.system``).

    Thread-safe: shell commands are serialised by a lock, so several host
    connections (or an in-process caller) may drive the phone at once.
    """

    def __init__(self, *, seed: int = 0, start_time: str | int | float | dt.datetime = DEFAULT_START,
                 props: Mapping[str, str] | None = None, serial: str = "emulator-5554"):
        self.seed = seed
        self.serial = serial
        #: the phone's one clock: wall time, elapsedRealtime, uptimeMillis (kernel/clock.py)
        self.clock = PhoneClock(_epoch_ms(start_time))
        #: when the phone's start time is (its apps were installed then), epoch ms
        self.boot_ms = self.clock.now_ms()
        self._lock = threading.RLock()
        self.rng = random.Random(seed)
        self.props: dict[str, str] = default_props(seed)
        self.props.update(props or {})
        self.settings = default_settings(random.Random(f"settings:{seed}"))
        #: package -> granted runtime permissions (`pm grant`/`pm revoke`)
        self.permissions: dict[str, set[str]] = {}
        self._disabled: set[str] = set()
        self._pids: dict[str, int] = {}
        #: package -> the uid its running process was started with (process_uid)
        self._process_uids: dict[str, int] = {}
        self._next_pid = 4100
        self._next_port = 40000
        self.shell_pid = 3900
        self._event_sinks: list[EventSink] = []
        #: sockets programs on the phone listen on, reached by adb's tcp:/localabstract: (sockets.py)
        self.sockets = SocketTable()
        self.fs = VirtualFileSystem(lambda: self.clock.now_ms() // 1000, commands=program_names())
        #: role holders (default SMS app, dialer, home...): `cmd role`, see roles.py
        self.roles = RoleStore(self._qualifies_for_role, defaults={ROLE_HOME: ["com.android.launcher3"]})
        self.system = AndroidSystem(clock=self.clock, emit_event=self.emit_event, seed=seed,
                                    width=WIDTH, height=HEIGHT, density=DENSITY, fs=self.fs,
                                    apps=INSTALLED_APPS, roles=self.roles)
        #: APKs installed over adb and preinstalled apps removed: see packages.py
        self.packages = PackageStore(self)
        # SettingsProvider over the same tables `settings` reads: one store (framework/settings.py)
        self.system.providers.register(SettingsProvider(self.settings, lambda: system_state_changed(self)))
        # the system providers' packages (contacts, telephony, media, settings) are installed with the image
        self.packages.register_platform(self.system.providers.packages())
        self.system.permissions = self.permissions  # apps ask for what `pm grant` has not given
        self.system.settings = self.settings  # the shade's quick settings tiles read the one store
        # an app's implicit intents resolve as PackageManager does: not to a disabled package
        self.system.package_enabled = self.package_enabled
        self.system.props = self.props  # one set of properties: getprop and the framework read the same
        install_proc(self)  # /proc and /sys/devices/system/cpu, made when read
        install_logging(self)  # logd, read by `logcat`

    def __repr__(self) -> str:
        return f"<VirtualPhone {self.serial} seed={self.seed}>"

    # -- clock -------------------------------------------------------------------------
    def clock_ms(self) -> int:
        """The phone's wall clock in epoch milliseconds (virtual, deterministic)."""
        return self.clock.now_ms()

    def advance_clock(self, ms: int) -> None:
        """Let ``ms`` of the phone's time pass (`sleep`, a gesture)."""
        self.clock.advance(ms)

    # -- events ------------------------------------------------------------------------
    def emit_event(self, event: dict) -> None:
        """Called by the UI layer for every accessibility event, in order."""
        for sink in list(self._event_sinks):
            sink(event)

    def add_event_sink(self, sink: EventSink) -> None:
        self._event_sinks.append(sink)

    def remove_event_sink(self, sink: EventSink) -> None:
        if sink in self._event_sinks:
            self._event_sinks.remove(sink)

    # -- shell -------------------------------------------------------------------------
    def new_shell_session(self) -> ShellSession:
        return ShellSession(self)

    def run_shell(self, command: str, *, stdout_ready: Callable[[bytes], None] | None = None,
                  stdin: bytes = b"", merge_stderr: bool = False) -> ShellResult:
        """Run one command line as `adb shell` would (a fresh shell per call).

        ``stdout_ready`` receives each finished pipeline's output early;
        ``merge_stderr`` interleaves stderr with it (:meth:`ShellSession.run`).
        """
        with self._lock:
            return ShellSession(self).run(command, stdout_ready=stdout_ready, stdin=stdin,
                                          merge_stderr=merge_stderr)

    # -- packages and processes -------------------------------------------------------------
    def package_enabled(self, package: str) -> bool:
        return package not in self._disabled

    def set_package_enabled(self, package: str, enabled: bool) -> None:
        (self._disabled.discard if enabled else self._disabled.add)(package)

    def kept_alive_packages(self) -> list[str]:
        """The home app and the current input method: the system keeps both processes alive (`ps`)."""
        packages = list(self.roles.holders(ROLE_HOME))
        ime = self.settings.get("secure", {}).get("default_input_method", "")
        if ime:
            packages.append(ime.split("/", 1)[0])
        return packages

    def _qualifies_for_role(self, role: str, package: str, bypass: bool) -> bool:
        app = self.system.app(package)
        return app is not None and (bypass or role in app.roles) and self.package_enabled(package)

    def pid_of(self, package: str) -> int:
        """A stable pid for a running app; a new one after it was stopped."""
        pid = self._pids.get(package)
        if pid is None:
            self._next_pid += 1 + self.rng.randrange(16)
            pid = self._pids[package] = self._next_pid
        return pid

    def forget_pid(self, package: str) -> None:
        self._pids.pop(package, None)
        self._process_uids.pop(package, None)

    def process_uid(self, package: str) -> int:
        """The uid the package's process runs as: the one its package had when ActivityManager started
        the process (Process.start's uid), which the kernel's process table records."""
        uid = self._process_uids.get(package)
        if uid is None:
            uid = self.packages.uid(package)
            if uid is None:
                raise LookupError(f"no process of {package}: it is not installed")
            self._process_uids[package] = uid
        return uid

    def allocate_port(self) -> int:
        """A device-side port for `adb reverse tcp:0 ...`."""
        self._next_port += 1
        return self._next_port
