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

__all__ = ["dump_package"]

_FLAGS = "[ HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]"
#: permissions every modelled app declares and gets at install time (normal protection level)
_INSTALL_PERMISSIONS = ("android.permission.INTERNET",)


def _hash(text: str) -> str:
    return format(zlib.crc32(text.encode()) & 0xFFFFFFF, "x").rjust(7, "0")


def _time(ms: int) -> str:
    return dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def dump_package(phone, package: str) -> str:
    """The dump of an installed package: a modelled app, or an APK installed over adb."""
    from .android import _apk_path, short_component  # one module's helpers, shared

    if not phone.packages.is_installed(package):
        return f"Unable to find package: {package}\n"
    app = phone.system.app(package)
    entry = phone.packages.installed.get(package)  # installed with `adb install`: its APK's facts
    code_path = entry.code_path if entry is not None else _apk_path(package).rsplit("/", 1)[0]
    installed = _time(entry.first_install_ms if entry is not None else phone.boot_ms)
    updated = _time(entry.last_update_ms) if entry is not None else installed
    uid = 10000 + 100 + zlib.crc32(package.encode()) % 900
    if entry is not None:
        info = entry.info
        version_code, version_name, min_sdk, target_sdk = (info.version_code, info.version_name,
                                                           info.min_sdk, info.target_sdk)
    else:  # an app model may declare its real version code
        version_code, version_name, min_sdk, target_sdk = getattr(app, "version_code", 1), app.version_name, 23, 34
    granted = sorted(phone.permissions.get(package, ()))
    resolver: list[str] = []
    if app is not None and app.launcher_activity is not None:
        launcher = short_component(package, app.launcher_activity.name)
        resolver = [
            "Activity Resolver Table:",
            "  Non-Data Actions:",
            "      android.intent.action.MAIN:",
            f"        {_hash('r' + launcher)} {launcher} filter {_hash('f' + launcher)}",
            '          Action: "android.intent.action.MAIN"',
            '          Category: "android.intent.category.LAUNCHER"',
            "",
        ]
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
        *(f"      {name}" for name in sorted(set(_INSTALL_PERMISSIONS) | set(granted))),
        "    install permissions:",
        *(f"      {name}: granted=true" for name in _INSTALL_PERMISSIONS),
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
          "USER_SENSITIVE_WHEN_DENIED]" for name in granted),
        "",
    ]
    return "\n".join(lines) + "\n"

