"""What an APK says about itself: package, version, SDK levels, signer.

Read with pyaxmlparser (the binary AndroidManifest.xml decoder that androguard
grew out of). Used on both sides of adb: by ``mobileagent-setup`` to check an
APK before installing it, and by the virtual phone's package manager.
"""

from __future__ import annotations

import hashlib
import io
import logging
import zipfile
from dataclasses import dataclass

__all__ = ["ApkError", "ApkInfo", "read_apk"]

# pyaxmlparser logs every malformed input at ERROR; the caller reports it instead.
logging.getLogger("pyaxmlparser").setLevel(logging.CRITICAL)


class ApkError(ValueError):
    """The bytes are not an installable APK. ``reason`` is ``"not_apk"`` or ``"no_certificates"``."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class ApkInfo:
    package: str
    version_code: int
    version_name: str
    min_sdk: int
    target_sdk: int
    #: accessibility (and other) services the manifest declares, as full class names
    services: tuple[str, ...]
    permissions: tuple[str, ...]
    #: sha256 of the first signing certificate (DER), hex; "" when unsigned
    signer_sha256: str
    #: <instrumentation> elements: (runner class, target package), for `pm list instrumentation`
    instrumentations: tuple[tuple[str, str], ...] = ()
    #: activities the manifest declares, as full class names
    activities: tuple[str, ...] = ()
    #: <application android:debuggable="true">: ActivityManager starts its process with JDWP on
    debuggable: bool = False


def _int(value, default: int) -> int:
    try:
        return int(str(value), 0) if value not in (None, "") else default
    except ValueError:
        return default


def read_apk(data: bytes) -> ApkInfo:
    """Parse an APK's manifest and signature; :class:`ApkError` when it is not an APK."""
    from pyaxmlparser import APK

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if "AndroidManifest.xml" not in archive.namelist():
                raise ApkError("not_apk", "no AndroidManifest.xml in the archive")
        apk = APK(data, raw=True)
    except ApkError:
        raise
    except Exception as exc:  # zipfile, struct and pyaxmlparser's own errors alike
        raise ApkError("not_apk", f"not an APK ({type(exc).__name__}: {exc})") from None
    package = apk.package or ""
    if not apk.is_valid_APK() or not package:
        raise ApkError("not_apk", "the manifest names no package")
    return ApkInfo(
        package=package,
        version_code=_int(apk.version_code, 0),
        version_name=apk.version_name or "",
        min_sdk=_int(apk.get_min_sdk_version(), 1),
        target_sdk=_int(apk.get_target_sdk_version(), _int(apk.get_min_sdk_version(), 1)),
        services=tuple(apk.get_services() or ()),
        permissions=tuple(apk.get_permissions() or ()),
        signer_sha256=_signer(apk),
        instrumentations=_instrumentations(apk),
        activities=tuple(apk.get_activities() or ()),
        debuggable=_debuggable(apk),
    )


def _debuggable(apk) -> bool:
    try:
        value = apk.get_attribute_value("application", "debuggable")
    except Exception:
        return False
    return str(value).lower() in ("true", "1", "-1")


def _instrumentations(apk) -> tuple[tuple[str, str], ...]:
    ns = "{http://schemas.android.com/apk/res/android}"
    try:
        manifest = apk.get_android_manifest_xml()
        found = [(el.get(ns + "name") or "", el.get(ns + "targetPackage") or "")
                 for el in manifest.iter("instrumentation")]
    except Exception:
        return ()
    package = apk.package or ""
    # A name starting with "." is relative to the manifest's package, as for components.
    return tuple((package + name if name.startswith(".") else name, target) for name, target in found if name)


def _signer(apk) -> str:
    try:
        ders = []
        if apk.is_signed_v3():
            ders = apk.get_certificates_der_v3()
        if not ders and apk.is_signed_v2():
            ders = apk.get_certificates_der_v2()
        if not ders and apk.is_signed_v1():
            ders = [apk.get_certificate_der(name) for name in apk.get_signature_names()]
    except Exception:
        return ""
    return hashlib.sha256(ders[0]).hexdigest() if ders else ""
