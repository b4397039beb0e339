"""`dumpsys package PKG`: one package's entry, in Android 14's layout.

The parts clients read: the Activity Resolver Table (AndroidViewClient takes
the MAIN activity from its "Non-Data Actions" line), versionCode /
versionName, signatures, pkgFlags and the install times (adbutils'
`app_info` regexes), and the requested, install and runtime permissions with
their grants (what `pm grant` / `pm revoke` changed).  As on a phone, only
activities with an intent filter appear (in the resolver table); the apps of
the virtual phone declare one, their launcher entry.
"""

from __future__ import annotations

import datetime as dt
import zlib
from typing import TYPE_CHECKING

from .activity_manager import launcher_filters, short_component
from .manifests import has_facts, requested_permissions
from .services import DUMPSYS_HANDLERS

if TYPE_CHECKING:
    from .services import DumpTarget

__all__ = ["dump_package", "requested_in_dump_order"]

_FLAGS = "[ HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]"
#: what an app without manifest facts (an APK installed over adb) is taken to request
_INSTALL_PERMISSIONS = ("android.permission.INTERNET",)
_P = "android.permission."
#: the platform's permissions the ten apps request, by protection level (frameworks/base
#: core/res/AndroidManifest.xml): granted at install ("normal", and the "appop" ones whose app op
#: decides), or at run time ("dangerous"); names the platform does not define (WRITE_SMS, USE_FINGERPRINT
#: since Android 10, android.provider.Telephony.SMS_RECEIVED) are neither
_NORMAL = {_P + name for name in (
    "INTERNET", "RECEIVE_BOOT_COMPLETED", "VIBRATE", "WAKE_LOCK", "USE_EXACT_ALARM", "SCHEDULE_EXACT_ALARM",
    "FOREGROUND_SERVICE", "FOREGROUND_SERVICE_MEDIA_PLAYBACK", "FOREGROUND_SERVICE_MICROPHONE",
    "MODIFY_AUDIO_SETTINGS", "READ_SYNC_SETTINGS", "SET_WALLPAPER", "QUERY_ALL_PACKAGES",
    "REQUEST_INSTALL_PACKAGES", "MANAGE_EXTERNAL_STORAGE", "MANAGE_MEDIA")}
_DANGEROUS = {_P + name for name in (
    "READ_CONTACTS", "WRITE_CONTACTS", "GET_ACCOUNTS", "CALL_PHONE", "READ_CALENDAR", "WRITE_CALENDAR",
    "POST_NOTIFICATIONS", "READ_SMS", "SEND_SMS", "RECEIVE_SMS", "RECEIVE_MMS", "READ_PHONE_STATE",
    "RECORD_AUDIO", "READ_MEDIA_IMAGES", "READ_MEDIA_VIDEO", "READ_MEDIA_AUDIO", "ACCESS_MEDIA_LOCATION",
    "READ_EXTERNAL_STORAGE", "WRITE_EXTERNAL_STORAGE")}
#: the hard- and soft-restricted ones (android:permissionFlags hardRestricted / softRestricted in
#: core/res/AndroidManifest.xml: the SMS and call log permissions, background location, storage)
_RESTRICTED = {_P + name for name in (
    "SEND_SMS", "RECEIVE_SMS", "READ_SMS", "RECEIVE_WAP_PUSH", "RECEIVE_MMS", "READ_CELL_BROADCASTS",
    "READ_CALL_LOG", "WRITE_CALL_LOG", "PROCESS_OUTGOING_CALLS", "ACCESS_BACKGROUND_LOCATION",
    "READ_EXTERNAL_STORAGE", "WRITE_EXTERNAL_STORAGE")}


def _java_hash(text: str) -> int:
    """java.lang.String.hashCode (UTF-16 code units), as a signed 32-bit int."""
    h = 0
    for unit in text.encode("utf-16-be").hex(" ", 2).split():
        h = (31 * h + int(unit, 16)) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def requested_in_dump_order(names: list[str]) -> list[str]:
    """The requested permissions as Android 14's dump lists them.

    AndroidPackage.getRequestedPermissions() is a Set (PackageImpl ``Set<String> requestedPermissions``,
    filled by CollectionUtils.add, an android.util.ArraySet): it iterates in ascending String.hashCode
    order, equal hashes in insertion order.  Settings.dumpPackageLPr prints each, with ": restricted=true"
    for a hard- or soft-restricted permission.
    """
    ordered = [name for _hash, _index, name in sorted((_java_hash(n), i, n) for i, n in enumerate(names))]
    return [name + (": restricted=true" if name in _RESTRICTED else "") for name in ordered]


def _hash(text: str) -> str:
    return format(zlib.crc32(text.encode()) & 0xFFFFFFF, "x").rjust(7, "0")


def _time(ms: int) -> str:
    return dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def dump_package(phone, package: str) -> str:
    """The dump of an installed package: a modelled app, or an APK installed over adb."""
    if not phone.packages.is_installed(package):
        return f"Unable to find package: {package}\n"
    app = phone.system.app(package)
    entry = phone.packages.installed.get(package)  # installed with `adb install`: its APK's facts
    code_path = entry.code_path if entry is not None else phone.packages.apk_path(package).rsplit("/", 1)[0]
    installed = _time(entry.first_install_ms if entry is not None else phone.boot_ms)
    updated = _time(entry.last_update_ms) if entry is not None else installed
    uid = phone.packages.uid(package)
    if entry is not None:
        info = entry.info
        version_code, version_name, min_sdk, target_sdk = (info.version_code, info.version_name,
                                                           info.min_sdk, info.target_sdk)
    else:  # an app model may declare its real version code; a platform package carries the SDK level
        version_code, version_name = phone.packages.version_code(package), phone.packages.version_name(package)
        min_sdk, target_sdk = 23, 34
    granted = sorted(phone.permissions.get(package, ()))
    if has_facts(package):  # one of the ten apps: its manifest at the pinned tag, merged with Commons'
        requested = requested_permissions(package)
        install = [name for name in sorted(requested) if name in _NORMAL]
        runtime = sorted({name for name in requested if name in _DANGEROUS} | set(granted))
    else:
        requested = sorted(set(_INSTALL_PERMISSIONS) | set(granted))
        install, runtime = list(_INSTALL_PERMISSIONS), granted
    resolver: list[str] = []
    launchers = [short_component(package, name) for name, _enabled in launcher_filters(phone, package)]
    if launchers:  # every MAIN / LAUNCHER filter the package declares, enabled or not
        resolver = ["Activity Resolver Table:", "  Non-Data Actions:", "      android.intent.action.MAIN:"]
        for launcher in launchers:
            resolver += [f"        {_hash('r' + launcher)} {launcher} filter {_hash('f' + launcher)}",
                         '          Action: "android.intent.action.MAIN"',
                         '          Category: "android.intent.category.LAUNCHER"']
        resolver.append("")
    lines = [
        *resolver,
        "Key Set Manager:",
        f"  [{package}]",
        f"      Signing KeySets: {uid % 97}",
        "",
        "Packages:",
        f"  Package [{package}] ({_hash('p' + package)}):",
        f"    userId={uid}",
        f"    pkg=Package{{{_hash('k' + package)} {package}}}",
        f"    codePath={code_path}",
        f"    resourcePath={code_path}",
        f"    legacyNativeLibraryDir={code_path}/lib",
        "    extractNativeLibs=false",
        "    primaryCpuAbi=null",
        "    secondaryCpuAbi=null",
        "    cpuAbiOverride=null",
        f"    versionCode={version_code} minSdk={min_sdk} targetSdk={target_sdk}",
        "    minExtensionVersions=[]",
        f"    versionName={version_name}",
        "    usesNonSdkApi=false",
        "    splits=[base]",
        "    apkSigningVersion=2",
        f"    flags={_FLAGS}",
        "    privateFlags=[ PRIVATE_FLAG_ACTIVITIES_RESIZE_MODE_RESIZEABLE_VIA_SDK_VERSION "
        "ALLOW_AUDIO_PLAYBACK_CAPTURE PRIVATE_FLAG_ALLOW_NATIVE_HEAP_POINTER_TAGGING ]",
        "    forceQueryable=false",
        f"    dataDir=/data/user/0/{package}",
        "    supportsScreens=[small, medium, large, xlarge, resizeable, anyDensity]",
        f"    timeStamp={installed}",
        f"    lastUpdateTime={updated}",
        f"    installerPackageName={'com.android.shell' if entry is not None else 'null'}",
        f"    signatures=PackageSignatures{{{_hash('s' + package)} version:2, "
        f"signatures:[{_hash('sig' + package)}], past signatures:[]}}",
        "    installPermissionsFixed=true",
        f"    pkgFlags={_FLAGS}",
        "    requested permissions:",
        *(f"      {line}" for line in requested_in_dump_order(requested)),
        *(["    install permissions:"] if install else []),
        *(f"      {name}: granted=true" for name in install),
        f"    User 0: ceDataInode={uid * 37} installed=true hidden=false suspended=false distractionFlags=0 "
        f"stopped=false notLaunched=false enabled={0 if phone.package_enabled(package) else 3} "
        "instant=false virtual=false",
        "      installReason=0",
        f"      dataDir=/data/user/0/{package}",
        f"      firstInstallTime={installed}",
        "      uninstallReason=0",
        "      gids=[3003]",
        "      runtime permissions:",
        *(f"        {name}: granted=true, flags=[ USER_SET|USER_SENSITIVE_WHEN_GRANTED|"
          "USER_SENSITIVE_WHEN_DENIED]" if name in granted else
          f"        {name}: granted=false, flags=[ USER_SENSITIVE_WHEN_GRANTED|USER_SENSITIVE_WHEN_DENIED]"
          for name in runtime),
        "",
    ]
    return "\n".join(lines) + "\n"


def _dump(target: "DumpTarget", args: list[str]) -> int:
    """`dumpsys package [options] PACKAGE`: that package's dump (nothing without one)."""
    # DumpHelper.doDump (frameworks/base services/core/java/com/android/server/pm/DumpHelper.java):
    # "Is this a package name?  if ("android".equals(cmd) || cmd.contains("."))"
    packages = [arg for arg in args if not arg.startswith("-") and (arg == "android" or "." in arg)]
    if packages:
        target.out(dump_package(target.phone, packages[0]))
    return 0


DUMPSYS_HANDLERS[("package", "*")] = _dump
