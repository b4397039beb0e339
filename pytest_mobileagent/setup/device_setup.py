"""Prepare one device for the benchmark, whatever its kind.

Every step first reads the device's state and acts only when it differs, so a
second run changes nothing and says so. The state is read in two shell calls
(settings, props and the package list; then `dumpsys package` of the packages
that matter); each change is one more call. A failure names the device and
the step (:class:`SetupError`).

Steps: install and enable the listener; install the benchmark apps found in
``apks_dir``; grant the apps' runtime permissions; give Simple SMS Messenger
the SMS role; turn animations off; set the time zone.
"""

from __future__ import annotations

import posixpath
import re
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from pytest_mobileagent.apkinfo import ApkError, ApkInfo, read_apk
from pytest_mobileagent.errors import InfrastructureError
from pytest_mobileagent.listener import APK_PATH, PACKAGE as LISTENER_PACKAGE, SERVICE as LISTENER_SERVICE
from pytest_mobileagent.listener import BUSY, SOCKET_NAME as LISTENER_SOCKET, ListenerRefused, handshake

from .apps import BENCHMARK_APPS, SMS_APP, by_package

__all__ = ["LocalApk", "SetupError", "SetupReport", "prepare_device", "scan_apks"]

ROLE_SMS = "android.app.role.SMS"
ANIMATION_SETTINGS = ("window_animation_scale", "transition_animation_scale", "animator_duration_scale")
_SEP = "@@mobileagent@@"
#: A listener service just switched on opens its socket within a moment; this allows for a slow phone.
LISTENER_START_TIMEOUT = 10.0
_STAGING_DIR = "/data/local/tmp"


class SetupError(InfrastructureError):
    """A setup step failed: ``serial`` is the device (or "host"), ``step`` what was being done."""

    def __init__(self, serial: str, step: str, detail: str):
        self.serial, self.step, self.detail = serial, step, detail
        super().__init__(f"{serial}: {step} failed: {detail}")


@dataclass(frozen=True)
class LocalApk:
    """An APK on the host, checked: where it is and what its manifest says."""

    path: Path
    info: ApkInfo


@dataclass
class SetupReport:
    """What setup did to one device, and what it found wanting."""

    serial: str
    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    missing_apps: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"{self.serial}: {'changed: ' + '; '.join(self.changed) if self.changed else 'already set up'}"]
        out += [f"{self.serial}: note: {note}" for note in self.notes]
        if self.missing_apps:
            out.append(f"{self.serial}: missing apps (pass their APKs with --apks DIR): "
                       + ", ".join(self.missing_apps))
        return out


def scan_apks(apks_dir: str | Path | None) -> dict[str, LocalApk]:
    """The benchmark APKs in ``apks_dir``, by package; checked before any device is touched.

    Raises :class:`SetupError` (device "host") for a missing folder, a file that
    is not an APK, an APK of a package that is not a benchmark app, or two APKs
    of one package.
    """
    if apks_dir is None:
        return {}
    folder = Path(apks_dir)
    if not folder.is_dir():
        raise SetupError("host", "reading --apks", f"{folder} is not a folder")
    known = by_package()
    found: dict[str, LocalApk] = {}
    for path in sorted(folder.glob("*.apk")):
        try:
            info = read_apk(path.read_bytes())
        except (OSError, ApkError) as exc:
            raise SetupError("host", f"reading {path.name}", f"not an installable APK: {exc}") from None
        if info.package not in known:
            raise SetupError("host", f"reading {path.name}",
                             f"its package is {info.package!r}, which is not one of the benchmark apps "
                             f"({', '.join(sorted(known))})")
        if info.package in found:
            raise SetupError("host", f"reading {path.name}",
                             f"{found[info.package].path.name} is already an APK of {info.package}; keep one")
        found[info.package] = LocalApk(path, info)
    return found


class _Device:
    """The adb calls setup makes, each failure turned into a SetupError naming the step."""

    def __init__(self, device):
        self.device = device
        self.serial = device.serial

    def shell(self, step: str, command: str) -> str:
        import adbutils

        try:
            return self.device.shell(command, timeout=120)
        except (adbutils.AdbError, adbutils.AdbTimeout, OSError) as exc:
            raise SetupError(self.serial, step, f"adb: {exc}") from None

    def push(self, step: str, local: Path, remote: str) -> None:
        import adbutils

        try:
            self.device.sync.push(str(local), remote)
        except (adbutils.AdbError, adbutils.AdbTimeout, OSError) as exc:
            raise SetupError(self.serial, step, f"adb push: {exc}") from None

    def listener_hello(self, step: str, timeout: float = LISTENER_START_TIMEOUT) -> dict:
        """The listener's hello on its socket ({} when it is busy serving another
        client: it answers); retried while its service is starting."""
        import adbutils

        deadline = time.monotonic() + timeout
        while True:
            try:
                with self.device.create_connection(adbutils.Network.LOCAL_ABSTRACT, LISTENER_SOCKET) as sock:
                    return handshake(sock)
            except ListenerRefused as exc:
                if exc.reason == BUSY:
                    return {}  # it serves a run or a studio now: it answers, and works
                if time.monotonic() >= deadline:
                    raise SetupError(self.serial, step, str(exc)) from None
            except (adbutils.AdbError, adbutils.AdbTimeout, OSError, ValueError) as exc:
                # adbd answers "closed" until the service has opened its socket.
                if time.monotonic() >= deadline:
                    raise SetupError(self.serial, step, f"no answer within {timeout:g} s: {exc}") from None
            time.sleep(0.2)  # the service is starting on the device: nothing to wait on but its socket

    def batch(self, step: str, commands: Iterable[str]) -> list[str]:
        """Several read-only commands in one shell call; their outputs in order."""
        commands = list(commands)
        line = f"; echo {_SEP}; ".join(commands)
        out = self.shell(step, line)
        parts = out.split(_SEP)
        if len(parts) != len(commands):
            raise SetupError(self.serial, step, f"unexpected shell output: {out[:300]!r}")
        return [part.strip("\r\n") for part in parts]


@dataclass
class _PackageState:
    installed: bool
    version_code: int | None = None
    version_name: str | None = None
    granted: frozenset[str] = frozenset()


def _parse_dumpsys_package(package: str, text: str) -> _PackageState:
    # Only the package's own section: `dumpsys package` also prints other tables.
    match = re.search(rf"Package \[{re.escape(package)}\]", text)
    if match is None:
        return _PackageState(installed=False)
    section = text[match.end():]
    nxt = re.search(r"\n  Package \[", section)
    if nxt is not None:
        section = section[:nxt.start()]
    code = re.search(r"versionCode=(\d+)", section)
    name = re.search(r"versionName=(\S*)", section)
    granted = frozenset(re.findall(r"([\w.]+): granted=true", section))
    return _PackageState(True, int(code.group(1)) if code else None, name.group(1) if name else None, granted)


def prepare_device(device, *, apks: dict[str, LocalApk] | None = None, timezone: str | None = "UTC",
                   animations_off: bool = True, listener_apk: Path = APK_PATH,
                   echo: Callable[[str], None] | None = None) -> SetupReport:
    """Bring one device (an adbutils ``AdbDevice``) to the benchmark's state.

    ``apks`` comes from :func:`scan_apks`. Returns what changed; raises
    :class:`SetupError` naming the device and the failed step.
    """
    dev = _Device(device)
    report = SetupReport(dev.serial)
    say = echo or (lambda line: None)
    apks = apks or {}
    try:
        listener = read_apk(Path(listener_apk).read_bytes())
    except (OSError, ApkError) as exc:
        raise SetupError("host", "reading the listener APK", f"{listener_apk}: {exc}") from None

    # 1. One call for the props, settings and package list.
    reads = dev.batch("reading the device state", [
        "getprop ro.build.version.sdk", "getprop persist.sys.timezone",
        "settings get secure enabled_accessibility_services", "settings get secure accessibility_enabled",
        *(f"settings get global {name}" for name in ANIMATION_SETTINGS),
        "pm list packages",
    ])
    sdk_text, current_tz, services_text, a11y_on, *scales, package_list = reads
    if not sdk_text.strip().isdigit():
        raise SetupError(dev.serial, "reading the device state", f"getprop ro.build.version.sdk said {sdk_text!r}")
    sdk = int(sdk_text)
    present = {line.split(":", 1)[1].strip() for line in package_list.splitlines() if line.startswith("package:")}

    # 2. One call for the versions and grants of the packages that matter.
    wanted = [LISTENER_PACKAGE] + [app.package for app in BENCHMARK_APPS if app.package in present or app.package in apks]
    dumps = dev.batch("reading package versions",
                      [f"dumpsys package {p}" if p in present else "true" for p in wanted])
    state = {p: (_parse_dumpsys_package(p, text) if p in present else _PackageState(False))
             for p, text in zip(wanted, dumps)}

    def install(step: str, path: Path, info: ApkInfo) -> None:
        remote = posixpath.join(_STAGING_DIR, f"mobileagent-{info.package}.apk")
        say(f"{dev.serial}: {step}")
        dev.push(step, path, remote)
        out = dev.shell(step, f"pm install -r -t {shlex.quote(remote)}; rm -f {shlex.quote(remote)}")
        if "Success" not in out:
            raise SetupError(dev.serial, step, out.strip()[:500] or "pm install printed nothing")
        report.changed.append(f"{step} ({info.version_name})")

    # 3. The listener, installed when absent or of another version.
    have = state[LISTENER_PACKAGE]
    if not have.installed or have.version_code != listener.version_code:
        install("installing the listener", Path(listener_apk), listener)
    else:
        report.unchanged.append("listener installed")

    # 4. Its accessibility service, switched on.
    enabled = [s for s in services_text.split(":") if s and s != "null"]
    short = f"{LISTENER_PACKAGE}/.ListenerService"
    commands = []
    if LISTENER_SERVICE not in enabled and short not in enabled:
        commands.append("settings put secure enabled_accessibility_services "
                        + shlex.quote(":".join(enabled + [LISTENER_SERVICE])))
    if a11y_on.strip() != "1":
        commands.append("settings put secure accessibility_enabled 1")
    if commands:
        say(f"{dev.serial}: enabling the listener service")
        dev.shell("enabling the listener service", " && ".join(commands))
        report.changed.append("listener service enabled")
    else:
        report.unchanged.append("listener service enabled")

    # 5. The benchmark apps from --apks.
    for app in BENCHMARK_APPS:
        local = apks.get(app.package)
        have = state.get(app.package, _PackageState(False))
        if local is not None and (not have.installed or have.version_code != local.info.version_code):
            install(f"installing {app.name}", local.path, local.info)
            have = _PackageState(True, local.info.version_code, local.info.version_name)
            state[app.package] = have
        if not have.installed:
            report.missing_apps.append(f"{app.name} ({app.package})")
            continue
        version = local.info.version_name if local is not None else have.version_name
        expected = app.expected_version
        if expected and version and version != expected:
            report.notes.append(f"{app.name} is version {version}; the benchmark models {expected}")

    # 6. Runtime permissions of the installed apps.
    grants = []
    for app in BENCHMARK_APPS:
        have = state.get(app.package, _PackageState(False))
        if have.installed:
            grants += [(app, p) for p in app.permissions if p not in have.granted]
    if grants:
        say(f"{dev.serial}: granting permissions")
        # `;` not `&&`: a permission the app or this Android version lacks is skipped, not fatal.
        out = dev.shell("granting permissions",
                        "; ".join(f"pm grant {app.package} {perm} 2>&1 && echo {_SEP}ok" for app, perm in grants))
        granted = out.count(f"{_SEP}ok")
        if granted:
            report.changed.append(f"{granted} permissions granted")
        if granted < len(grants):
            report.notes.append(f"{len(grants) - granted} permissions not grantable here (not requested by the "
                                "app or not on this Android version)")

    # 7. The SMS role for Simple SMS Messenger (Android 10+ has roles).
    if state.get(SMS_APP, _PackageState(False)).installed and sdk >= 29:
        holders = dev.shell("reading the SMS role", f"cmd role get-role-holders {ROLE_SMS}")
        if SMS_APP not in holders.split(";"):
            say(f"{dev.serial}: making Simple SMS Messenger the SMS app")
            out = dev.shell("giving Simple SMS Messenger the SMS role",
                            f"cmd role add-role-holder {ROLE_SMS} {SMS_APP} 0 2>&1; echo {_SEP}$?")
            if not out.rstrip().endswith(f"{_SEP}0"):
                raise SetupError(dev.serial, "giving Simple SMS Messenger the SMS role",
                                 out.split(_SEP)[0].strip()[:300])
            report.changed.append("SMS role given")

    # 8. Animations off: screens settle sooner and dumps see final states.
    if animations_off:
        off = [name for name, value in zip(ANIMATION_SETTINGS, scales) if value.strip() not in ("0", "0.0")]
        if off:
            say(f"{dev.serial}: turning animations off")
            dev.shell("turning animations off", " && ".join(f"settings put global {name} 0" for name in off))
            report.changed.append("animations off")

    # 9. The time zone the tasks' dates assume.
    if timezone and current_tz.strip() != timezone:
        step = f"setting the time zone to {timezone}"
        say(f"{dev.serial}: {step}")
        command = (f"cmd alarm set-timezone {shlex.quote(timezone)}" if sdk >= 31
                   else f"service call alarm 3 s16 {shlex.quote(timezone)}")
        dev.shell(step, command)
        now = dev.shell(step, "getprop persist.sys.timezone").strip()
        if now != timezone:
            raise SetupError(dev.serial, step, f"the device still says {now!r}")
        report.changed.append(f"time zone {timezone}")

    # 10. The listener answering on its socket, as every run's worker will dial it.
    dev.listener_hello(f"checking the listener on localabstract:{LISTENER_SOCKET}")
    report.unchanged.append("listener answering")
    return report
