"""PackageManagerService's package store: every installed package, its uid and its APK.

The installed set is one: the app models in ``apps/`` (the phone's preinstalled apps), the
platform's packages without a model (`PLATFORM_PACKAGES`, the system providers' packages
registered at boot) and the APKs installed with `adb install` / `pm install`; `pm list
packages`, `dumpsys package`, `appops` and the rest all ask `is_installed` / `packages`.
Each package gets one uid when installed (`uid`: a shared platform uid, else an app uid) and
its APK lies at its path (`apk_path`, what `pm path` prints) under /data/app.  An APK installed
over adb is read for its manifest (pyaxmlparser, via ``pytest_mobileagent.apkinfo``); one whose
package has a model (a Simple Mobile Tools build) updates that model's version; any other package
is installed without a UI. Failures carry Android's `INSTALL_*` codes and messages.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from ...apkinfo import ApkError, ApkInfo, read_apk
from ..kernel.context import PhoneContext
from .active_services import forget_accessibility_services, stop_package, system_state_changed
from .apk_files import build_apk

__all__ = ["InstallError", "InstalledPackage", "PackageStore", "MIN_TARGET_SDK"]

#: Android 14 refuses apps that target older levels (INSTALL_FAILED_DEPRECATED_SDK_VERSION).
MIN_TARGET_SDK = 23

#: The system image's packages that have no app model here but are installed on every phone:
#: the framework itself ("android", framework-res.apk), the shell (com.android.shell, whose uid
#: `adb shell` runs as), the keyboard (LatinIME, ui/keyboard.py) and SystemUI (the status and
#: navigation bars, window_manager.py).  The system providers' packages are added at boot
#: (`register_platform`), as PackageManagerService scans /system at boot.
PLATFORM_PACKAGES = ("android", "com.android.inputmethod.latin", "com.android.shell", "com.android.systemui")

#: android.os.Process's fixed uids, which the platform's shared users hold (PackageManagerService's
#: constructor: addSharedUserLPw("android.uid.system", Process.SYSTEM_UID, ...), "android.uid.phone"
#: PHONE_UID, "android.uid.shell" SHELL_UID).  The packages here that declare one as their
#: android:sharedUserId: "android" (frameworks/base core/res/AndroidManifest.xml, android.uid.system),
#: com.android.shell (frameworks/base packages/Shell/AndroidManifest.xml, android.uid.shell) and
#: com.android.providers.telephony (packages/providers/TelephonyProvider/AndroidManifest.xml,
#: android.uid.phone).
SHARED_UIDS = {"android": 1000, "com.android.providers.telephony": 1001, "com.android.shell": 2000}
#: the app uids the phone hands out: FIRST_APPLICATION_UID (10000) + 100 .. + 999
_APP_UID_BASE, _APP_UID_SPAN = 10_100, 900


class InstallError(Exception):
    """An install failure: ``code`` is Android's INSTALL_* name, the message its detail."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def failure_line(self) -> str:
        """As `pm install` prints it."""
        return f"Failure [{self.code}: {self.message}]"


@dataclass
class InstalledPackage:
    info: ApkInfo
    first_install_ms: int
    last_update_ms: int
    code_path: str
    #: the APK's bytes, at ``code_path`` on the phone (what `adb pull $(pm path PKG)` gives back)
    apk: bytes = b""

    @property
    def package(self) -> str:
        return self.info.package


class PackageStore:
    """User-installed packages of one phone, and the preinstalled ones removed."""

    def __init__(self, phone: "PhoneContext"):
        self.phone = phone
        self.installed: dict[str, InstalledPackage] = {}
        #: preinstalled (modelled) apps uninstalled with `pm uninstall`
        self.removed: set[str] = set()
        self._session = 1000
        #: open install sessions (`pm install-create`): id -> [(part name, APK bytes)]
        self.sessions: dict[int, list[tuple[str, bytes]]] = {}
        #: the image's packages without an app model (PLATFORM_PACKAGES, the providers' packages)
        self.platform: set[str] = set(PLATFORM_PACKAGES)
        #: package -> its uid (Settings' appId), given once when the package is installed
        self._uids: dict[str, int] = {}
        for package in [*self.phone.system.installed_packages(), *sorted(self.platform)]:
            self._assign_uid(package)
        #: preinstalled packages' APK bytes, made when first read: (package, versionCode, versionName) -> bytes
        self._apks: dict[tuple[str, int, str | None], bytes] = {}
        # every installed package's APK lies at its path under /data/app: listed, and made, when read
        self.phone.fs.mount_generated("/data/app", self._data_app)

    def register_platform(self, packages) -> None:
        """Record more packages of the system image (the system providers', at boot)."""
        for package in sorted(set(packages) - self.platform):
            self.platform.add(package)
            self._assign_uid(package)

    def _assign_uid(self, package: str) -> int:
        """Give a package its uid, kept until it is uninstalled: a shared platform uid, or a free app
        uid (the package name's hash picks the first one tried, so a seed's apps keep theirs)."""
        if package not in self._uids:
            uid = SHARED_UIDS.get(package)
            if uid is None:
                taken = set(self._uids.values())
                start = zlib.crc32(package.encode()) % _APP_UID_SPAN
                uid = next(_APP_UID_BASE + (start + step) % _APP_UID_SPAN for step in range(_APP_UID_SPAN)
                           if _APP_UID_BASE + (start + step) % _APP_UID_SPAN not in taken)
            self._uids[package] = uid
        return self._uids[package]

    def uid(self, package: str) -> int | None:
        """The installed package's uid (`dumpsys package` userId, `pm list packages -U`), else None."""
        return self._uids.get(package) if self.is_installed(package) else None

    def preinstalled(self) -> list[str]:
        """The system image's packages: the app models not uninstalled, and the platform's."""
        return sorted({p for p in self.phone.system.installed_packages() if p not in self.removed}
                      | self.platform)

    def packages(self) -> list[str]:
        """Every installed package name (preinstalled and user-installed), sorted: the one set
        `pm list packages`, `dumpsys package`, `appops` and the rest ask."""
        return sorted(set(self.preinstalled()) | set(self.installed))

    def is_installed(self, package: str) -> bool:
        return package in self.installed or package in self.platform or (
            package not in self.removed and self.phone.system.app(package) is not None)

    def version_name(self, package: str) -> str | None:
        if package in self.installed:
            return self.installed[package].info.version_name
        app = self.phone.system.app(package)
        if app is not None:
            return app.version_name if package not in self.removed else None
        # a platform package without its own versionName gets the platform's: Soong (build/soong java/
        # aar.go) links it with --version-name AppsDefaultVersionName() (--version-code the SDK level)
        return self.phone.props.get("ro.build.version.release", "14") if package in self.platform else None

    def version_code(self, package: str) -> int:
        """The package's versionCode (as `dumpsys package` shows it, package_dump.py)."""
        if package in self.installed:
            return self.installed[package].info.version_code
        app = self.phone.system.app(package)
        if app is not None:
            return getattr(app, "version_code", 1)
        # platform packages carry the SDK level as their version code
        return int(self.phone.props.get("ro.build.version.sdk", "34"))

    def create_session(self) -> int:
        self._session += 1
        self.sessions[self._session] = []
        return self._session

    def staging_path(self) -> str:
        """Where Android stages an install session (shown in parse errors)."""
        self._session += 1
        return f"/data/app/vmdl{self._session}.tmp/base.apk"

    def install(self, data: bytes, *, allow_downgrade: bool = False) -> InstalledPackage:
        """Install (or update) an APK given as bytes; raises :class:`InstallError`."""
        staged = self.staging_path()
        try:
            info = read_apk(data)
        except ApkError as exc:
            if exc.reason == "no_certificates":
                raise InstallError("INSTALL_PARSE_FAILED_NO_CERTIFICATES",
                                   f"Failed to collect certificates from {staged}") from None
            raise InstallError("INSTALL_PARSE_FAILED_NOT_APK",
                               f"Failed to parse {staged}: Failed to load asset path {staged}") from None
        if not info.signer_sha256:
            raise InstallError("INSTALL_PARSE_FAILED_NO_CERTIFICATES",
                               f"Scanning Failed.: No signature found in package of version 2 or newer "
                               f"for package {info.package}")
        if info.target_sdk < MIN_TARGET_SDK:
            raise InstallError("INSTALL_FAILED_DEPRECATED_SDK_VERSION",
                               f"App package must target at least SDK version {MIN_TARGET_SDK}, "
                               f"but found {info.target_sdk}")
        sdk = int(self.phone.props.get("ro.build.version.sdk", "34"))
        if info.min_sdk > sdk:
            raise InstallError("INSTALL_FAILED_OLDER_SDK",
                               f"Requires newer sdk version #{info.min_sdk} (current version is #{sdk})")
        now = self.phone.clock_ms()
        old = self.installed.get(info.package)
        if old is not None:
            if old.info.signer_sha256 != info.signer_sha256:
                raise InstallError("INSTALL_FAILED_UPDATE_INCOMPATIBLE",
                                   f"Existing package {info.package} signatures do not match newer version; "
                                   "ignoring!")
            if info.version_code < old.info.version_code and not allow_downgrade:
                raise InstallError("INSTALL_FAILED_VERSION_DOWNGRADE",
                                   f"Downgrade detected: Update version code {info.version_code} is older "
                                   f"than current {old.info.version_code}")
            first = old.first_install_ms
        else:
            first = now
        entry = InstalledPackage(info, first, now, _apk_path(info.package), data)
        self.installed[info.package] = entry
        self._assign_uid(info.package)  # an update keeps the uid
        self.removed.discard(info.package)
        self.phone.set_package_enabled(info.package, True)
        # An update kills the app's process, as on a phone.
        stop_package(self.phone, info.package)
        self.phone.system.force_stop(info.package)
        self.phone.forget_pid(info.package)
        system_state_changed(self.phone)  # its services may bind now
        return entry

    def uninstall(self, package: str, keep_data: bool = False) -> bool:
        """Remove a package; False when it is not installed (DELETE_FAILED_INTERNAL_ERROR)."""
        if not self.is_installed(package) or package in ("android",) or package.startswith("com.android."):
            return False
        self.installed.pop(package, None)
        if self.phone.system.app(package) is None:
            # its uid is free again; a preinstalled app stays on the system image (removed for user 0
            # only, PackageManagerShellCommand's uninstall of a system package) and keeps its uid
            self._uids.pop(package, None)
        if self.phone.system.app(package) is not None:
            self.removed.add(package)
            self.phone.set_package_enabled(package, False)  # its activities no longer start
            if not keep_data:
                self.phone.system.clear_data(package)
        stop_package(self.phone, package)
        self.phone.system.force_stop(package)
        self.phone.forget_pid(package)
        self.phone.permissions.pop(package, None)
        roles = getattr(self.phone, "roles", None)
        if roles is not None:
            roles.forget_package(package)
        forget_accessibility_services(self.phone, package)  # switched off, not only unbound
        system_state_changed(self.phone)  # its bound services stop
        return True

    def apk_bytes(self, package: str) -> bytes:
        """The package's APK: the one `adb install` gave, or a preinstalled package's, built when first read."""
        entry = self.installed.get(package)
        if entry is not None:
            return entry.apk
        key = (package, self.version_code(package), self.version_name(package))
        if key not in self._apks:
            self._apks[key] = build_apk(package, key[1], key[2] or "")
        return self._apks[key]

    def _data_app(self) -> dict:
        """/data/app as PackageManagerService laid it out: ~~HASH==/PACKAGE-HASH==/base.apk per package."""
        tree: dict[str, dict] = {}
        for package in self.packages():
            install_dir, package_dir, name = self.apk_path(package)[len("/data/app/"):].split("/")
            tree.setdefault(install_dir, {})[package_dir] = {name: lambda p=package: self.apk_bytes(p)}
        return tree

    def apk_path(self, package: str) -> str:
        """Where the package's APK is (what `pm path` prints): one stable path per package name."""
        return _apk_path(package)

    def accessibility_service_enabled(self, service: str) -> bool:
        """Whether ``pkg/full.Class`` is installed and switched on in secure settings."""
        package, _, cls = service.partition("/")
        entry = self.installed.get(package)
        if entry is None or cls not in entry.info.services:
            return False
        secure = self.phone.settings.get("secure", {})
        if secure.get("accessibility_enabled", "0") != "1":
            return False
        short = f"{package}/{cls[len(package):]}" if cls.startswith(package + ".") else None
        enabled = {s.strip() for s in secure.get("enabled_accessibility_services", "").split(":")}
        return service in enabled or (short is not None and short in enabled)


def _hash(text: str, digits: int = 7) -> str:
    return format(zlib.crc32(text.encode()) & 0xFFFFFFF, "x").rjust(digits, "0")[:digits]


def _apk_path(package: str) -> str:
    return f"/data/app/~~{_hash('a' + package, 7)}==/{package}-{_hash('b' + package, 7)}==/base.apk"
