"""ActiveServices: the services that run on the phone.

Started services are kept per phone until their package is force-stopped,
uninstalled or updated; `dumpsys activity services` lists them with the ones
that other modules report through `SERVICE_SOURCES` (bound accessibility
services, for one), in ActiveServices' layout.

Services the system binds follow packages and secure settings: the modules that bind them (the
helper apps' accessibility services, programs/droidbot_app.py) add a syncer to `SYNCERS`, run by
`system_state_changed` after a package was installed or removed or a secure setting changed.
"""

from __future__ import annotations

import weakref
import zlib
from dataclasses import dataclass
from typing import Callable

from ..kernel.context import PhoneContext
from ..kernel.processes import RUNNING_PACKAGE_SOURCES, processes
from .services import DUMPSYS_HANDLERS

__all__ = ["SERVICE_SOURCES", "SYNCERS", "RunningService", "dump_services", "forget_accessibility_services",
           "running_services", "start_service", "stop_package", "system_state_changed"]


@dataclass
class RunningService:
    package: str
    #: full class name
    cls: str
    started_ms: int
    foreground_id: int = 0  # 0: not in the foreground
    #: ServiceInfo.FOREGROUND_SERVICE_TYPE_* bits of a foreground service
    foreground_types: int = 0
    permission: str = ""
    #: "bound" for a service the system binds (accessibility, input method), "started" otherwise
    how: str = "started"

    @property
    def short_component(self) -> str:
        if self.cls.startswith(self.package + "."):
            return f"{self.package}/{self.cls[len(self.package):]}"
        return f"{self.package}/{self.cls}"


#: phone -> services running without being started (bound by the system); other modules append
SERVICE_SOURCES: list[Callable[["PhoneContext"], list[RunningService]]] = []

#: called when packages or secure settings changed: bind or unbind the services that depend on them
SYNCERS: list[Callable[["PhoneContext"], None]] = []

_STARTED: "weakref.WeakKeyDictionary[PhoneContext, dict[str, RunningService]]" = weakref.WeakKeyDictionary()


def system_state_changed(phone: "PhoneContext") -> None:
    """A package was installed or removed, or secure settings changed (settings put/delete)."""
    for syncer in SYNCERS:
        syncer(phone)


def forget_accessibility_services(phone: "PhoneContext", package: str) -> bool:
    """A package was removed or force-stopped: its accessibility services are switched off.

    AccessibilityManagerService's PackageMonitor (onPackageRemoved, and onHandleForceStop with
    doit) drops the package's components from the enabled services and persists the rest to
    ``enabled_accessibility_services`` (persistComponentNamesToSettingLocked: each
    ComponentName.flattenToString, joined by ':'). True when one was on; the caller then
    unbinds it (system_state_changed).
    """
    secure = phone.settings.setdefault("secure", {})
    entries = [e for e in secure.get("enabled_accessibility_services", "").split(":") if e.strip()]
    kept = [e.strip() for e in entries if e.strip().partition("/")[0] != package]
    if len(kept) == len(entries):
        return False
    flattened = []
    for entry in kept:
        owner, _, cls = entry.partition("/")
        flattened.append(f"{owner}/{owner}{cls}" if cls.startswith(".") else entry)
    secure["enabled_accessibility_services"] = ":".join(flattened)
    return True


def _bound_services(phone: "PhoneContext") -> list[RunningService]:
    """Services the system binds: enabled accessibility services and the current input method."""
    found = []
    ime = phone.settings.get("secure", {}).get("default_input_method", "")
    for package, entry in phone.packages.installed.items():
        for cls in entry.info.services:
            component = f"{package}/{cls}"
            short = f"{package}/{cls[len(package):]}" if cls.startswith(package + ".") else component
            if phone.packages.accessibility_service_enabled(component) or ime in (component, short):
                found.append(RunningService(package, cls, phone.boot_ms, how="bound"))
    return found


SERVICE_SOURCES.append(_bound_services)


def start_service(phone: "PhoneContext", service: RunningService) -> None:
    _STARTED.setdefault(phone, {})[service.short_component] = service
    phone.pid_of(service.package)  # the service runs in its app's process


def stop_package(phone: "PhoneContext", package: str) -> None:
    """The package's process died (force-stop, uninstall, update): its started services stop."""
    started = _STARTED.get(phone, {})
    for key in [k for k, s in started.items() if s.package == package]:
        del started[key]


def running_services(phone: "PhoneContext") -> list[RunningService]:
    services = [s for s in _STARTED.get(phone, {}).values() if phone.packages.is_installed(s.package)]
    for source in SERVICE_SOURCES:
        services += source(phone)
    return services


def _service_packages(phone: "PhoneContext") -> list[str]:
    """Packages whose process runs for a started service (`ps` lists them)."""
    return sorted({s.package for s in _STARTED.get(phone, {}).values() if phone.packages.is_installed(s.package)})


RUNNING_PACKAGE_SOURCES.append(_service_packages)


def _hex(text: str) -> str:
    return format(zlib.crc32(text.encode()) & 0xFFFFFFF, "x")


def _ago(phone: "PhoneContext", ms: int) -> str:
    """TimeUtils.formatDuration of a past time: -1m2s3ms."""
    delta = max(0, phone.clock_ms() - ms)
    minutes, rest = divmod(delta, 60_000)
    seconds, millis = divmod(rest, 1000)
    text = (f"{minutes}m" if minutes else "") + (f"{seconds}s" if seconds or minutes else "") + f"{millis}ms"
    return "-" + text if delta else "0"


def dump_services(phone: "PhoneContext", args: list[str]) -> str:
    """`dumpsys activity services [PACKAGE|COMPONENT]` (ActiveServices.dumpServicesLocked, ServiceRecord.dump)."""
    wanted = [a for a in args if not a.startswith("-")]

    def matches(service: RunningService) -> bool:
        if not wanted:
            return True
        name = wanted[0]
        if "/" in name:
            package, _, cls = name.partition("/")
            cls = package + cls if cls.startswith(".") else cls
            return service.package == package and service.cls == cls
        return name in (service.package, service.cls) or name in service.short_component

    shown = [s for s in running_services(phone) if matches(s)]
    out = ["ACTIVITY MANAGER SERVICES (dumpsys activity services)\n"]
    if not shown:
        out.append("  (nothing)\n")
        return "".join(out)
    out.append("  User 0 active services:\n")
    for service in shown:
        package, component = service.package, service.short_component
        pid = phone.pid_of(package)
        uid = phone.process_uid(package)  # the uid its process runs as, its package's
        out.append(f"  * ServiceRecord{{{_hex(component)} u0 {component}}}\n")
        out.append(f"    intent={{cmp={component}}}\n")
        out.append(f"    packageName={package}\n    processName={package}\n")
        if service.permission:
            out.append(f"    permission={service.permission}\n")
        out.append(f"    baseDir={phone.packages.apk_path(package)}\n    dataDir=/data/user/0/{package}\n")
        out.append(f"    app=ProcessRecord{{{_hex('p' + package)} {pid}:{package}/u0a{uid - 10000}}}\n")
        if service.foreground_id:
            out.append(f"    isForeground=true foregroundId={service.foreground_id} "
                       f"types=0x{service.foreground_types:08x} foregroundNoti=Notification(channel=main_channel "
                       "shortcut=null contentView=null vibrate=null sound=null defaults=0x0 flags=0x62 "
                       "color=0x00000000 vis=PRIVATE)\n")
        ago = _ago(phone, service.started_ms)
        out.append(f"    createTime={ago} startingBgTimeout=--\n"
                   f"    lastActivity={ago} restartTime={ago} createdFromFg=true\n")
        if service.how == "started":
            out.append("    startRequested=true delayedStop=false stopIfKilled=false callStart=true "
                       "lastStartId=1\n")
        else:
            out.append("    Bindings:\n"
                       f"    * IntentBindRecord{{{_hex('b' + component)} CREATE}}:\n"
                       f"      intent={{cmp={component}}}\n"
                       "      binder=android.os.BinderProxy\n"
                       "      requested=true received=true hasBound=true doRebind=false\n")
        out.append("\n")
    return "".join(out)


def _dumpsys_activity_services(inv, args: list[str]) -> int:
    inv.out(dump_services(inv.phone, args[1:]))
    return 0


def _dumpsys_activity_processes(inv, args: list[str]) -> int:
    """`dumpsys activity processes` (ProcessList.dumpProcessesLSP): the app processes' records.

    Appium's adb (listAppProcessIds) finds an app's pids in the ``ProcessRecord{HASH PID:PACKAGE/u0aN}``
    lines; the phone lists its running app processes (processes.py) that way.
    """
    wanted = next((a for a in args[1:] if not a.startswith("-")), None)
    out = ["ACTIVITY MANAGER RUNNING PROCESSES (dumpsys activity processes)\n", "  All known processes:\n"]
    apps = [p for p in processes(inv.phone, with_shell=False) if p.uid >= 10000 and p.cmdline]
    for proc in apps:
        if wanted is not None and wanted not in (proc.cmdline, str(proc.pid)):
            continue
        record = f"ProcessRecord{{{_hex('r' + proc.cmdline)} {proc.pid}:{proc.cmdline}/u0a{proc.uid - 10000}}}"
        out.append(f"  *APP* UID {proc.uid} {record}\n")
        out.append(f"    user #0 uid={proc.uid} gids={{50{proc.uid % 1000:03d}, 20{proc.uid % 1000:03d}, 9997}}\n")
        # ProcessRecord.dump (services/core/java/com/android/server/am/ProcessRecord.java): "dir=" the
        # APK, publicDir, data; then mPkgList.dump's "packageList={...}" (PackageList.java); "pid="
        apk = inv.phone.packages.apk_path(proc.cmdline)
        out.append(f"    dir={apk} publicDir={apk} data=/data/user/0/{proc.cmdline}\n")
        out.append(f"    packageList={{{proc.cmdline}}}\n")
        out.append(f"    pid={proc.pid}\n")
    inv.out("".join(out))
    return 0


for _section in ("services", "s"):
    DUMPSYS_HANDLERS[("activity", _section)] = _dumpsys_activity_services
for _section in ("processes", "p"):
    DUMPSYS_HANDLERS[("activity", _section)] = _dumpsys_activity_processes


