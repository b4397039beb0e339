"""Building small APKs for the install and setup tests, with the SDK tools."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SOURCE_DIR = Path(__file__).resolve().parents[2] / "listener_apk"
ANDROID_JAR = "/usr/lib/android-sdk/platforms/android-23/android.jar"


def require_tool(name: str) -> str:
    """The tool's path; a skip without it, or a failure under MOBILEAGENT_REQUIRE_SDK=1 (CI)."""
    path = name if os.path.isabs(name) and os.access(name, os.X_OK) else shutil.which(name)
    if path is None:
        reason = f"{name} not installed (listener_apk/install-sdk.sh installs it)"
        if os.environ.get("MOBILEAGENT_REQUIRE_SDK") == "1":
            pytest.fail(f"MOBILEAGENT_REQUIRE_SDK=1 but {reason}")
        pytest.skip(reason)
    return path


def build_apk(out: Path, package: str, version_code: int, version_name: str, *, target_sdk: int = 28,
              sign: bool = True) -> Path:
    """A code-less APK with the given manifest (signed unless ``sign=False``), built with the SDK tools."""
    aapt, zipalign, apksigner = (require_tool(t) for t in ("aapt", "zipalign", "apksigner"))
    if not os.path.isfile(ANDROID_JAR):
        require_tool(ANDROID_JAR)
    work = out.parent / f".{out.stem}"
    work.mkdir(parents=True, exist_ok=True)
    (work / "AndroidManifest.xml").write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="{package}">\n'
        f'  <uses-sdk android:minSdkVersion="21" android:targetSdkVersion="{target_sdk}" />\n'
        '  <application android:hasCode="false" android:label="test" />\n'
        '</manifest>\n')
    subprocess.run([aapt, "package", "-f", "-M", str(work / "AndroidManifest.xml"), "-I", ANDROID_JAR,
                    "--version-code", str(version_code), "--version-name", version_name,
                    "-F", str(work / "unaligned.apk")], check=True, capture_output=True, timeout=120)
    subprocess.run([zipalign, "-f", "4", str(work / "unaligned.apk"), str(work / "aligned.apk")],
                   check=True, capture_output=True, timeout=120)
    if not sign:
        shutil.move(str(work / "aligned.apk"), str(out))
        shutil.rmtree(work)
        return out
    subprocess.run([apksigner, "sign", "--v4-signing-enabled", "false", "--ks", str(SOURCE_DIR / "debug.keystore"),
                    "--ks-pass", "pass:android", "--key-pass", "pass:android", "--ks-key-alias", "listener",
                    "--out", str(out), str(work / "aligned.apk")], check=True, capture_output=True, timeout=120)
    shutil.rmtree(work)
    return out
