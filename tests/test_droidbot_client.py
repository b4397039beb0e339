"""The real DroidBot explores Simple Notes on a virtual phone (issue 24's acceptance).

DroidBot has no usable PyPI release (PyPI's ``droidbot`` is 1.0.0a2, 2015, Python 2,
without the helper app or the dfs_greedy policy), so CI cannot install it and this
test runs only where ``MOBILEAGENT_DROIDBOT`` names an installation of its public
repository (github:honeynet/droidbot): a venv it is installed in (``bin/droidbot``:
``pip install androguard==3.4.0a1``, then ``pip install --no-deps --config-settings
editable_mode=compat -e <checkout>``, the README's ``pip install -e .``; its console
script imports the checkout's top-level ``start.py``, which a non-editable install
leaves out) or a checkout whose ``start.py`` the current Python can run.  DroidBot runs unmodified,
through its own CLI, against a phone of its own behind a private adb server: it
installs and enables its helper app and IME with ``adb install`` / ``settings`` /
``ime``, reads the helper app's view stream, and sends its events with
``adb shell input`` and ``am``.  At the end it uninstalls its helper app (no
``-keep_env``), which closes the view stream its reader thread blocks on.

DroidBot reads the app's APK with androguard (package, launcher activity,
permissions); Notes is installed on the phone already, so DroidBot does not
install it.  The APK given to it is a code-less one with the manifest facts of
Simple Notes 6.17.0 (app/src/main/AndroidManifest.xml at the tag: package,
permissions, activities and the enabled launcher alias ``SplashActivity.Orange``),
built with the SDK tools as the listener tests build theirs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from listener.listener_apks import ANDROID_JAR, SOURCE_DIR, require_tool

NOTES = "com.simplemobiletools.notes.pro"
ENV = "MOBILEAGENT_DROIDBOT"

#: Simple Notes 6.17.0's manifest, as far as DroidBot reads it (App.__init__ through androguard)
NOTES_MANIFEST = f"""<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="{NOTES}">
  <uses-sdk android:minSdkVersion="23" android:targetSdkVersion="34" />
  <uses-permission android:name="android.permission.WRITE_EXTERNAL_STORAGE" android:maxSdkVersion="28" />
  <uses-permission android:name="android.permission.RECEIVE_BOOT_COMPLETED" />
  <uses-permission android:name="android.permission.WAKE_LOCK" />
  <application android:hasCode="false" android:label="Notes">
    <activity android:name=".activities.SplashActivity" android:exported="false" />
    <activity android:name=".activities.MainActivity" android:exported="true" />
    <activity android:name=".activities.SettingsActivity" android:exported="true" />
    <activity android:name="com.simplemobiletools.commons.activities.AboutActivity" android:exported="false" />
    <activity-alias android:name=".activities.SplashActivity.Red" android:enabled="false"
        android:exported="true" android:targetActivity=".activities.SplashActivity">
      <intent-filter>
        <action android:name="android.intent.action.MAIN" />
        <category android:name="android.intent.category.LAUNCHER" />
      </intent-filter>
    </activity-alias>
    <activity-alias android:name=".activities.SplashActivity.Orange" android:enabled="true"
        android:exported="true" android:targetActivity=".activities.SplashActivity">
      <intent-filter>
        <action android:name="android.intent.action.MAIN" />
        <category android:name="android.intent.category.LAUNCHER" />
      </intent-filter>
    </activity-alias>
  </application>
</manifest>
"""


@pytest.fixture(scope="module")
def droidbot_command() -> list[str]:
    """How to start DroidBot's CLI from what MOBILEAGENT_DROIDBOT names; a skip when unset."""
    where = os.environ.get(ENV)
    if not where:
        # Not turned into a failure by MOBILEAGENT_REQUIRE_CLIENTS: CI cannot install DroidBot.
        pytest.skip(f"{ENV} is unset: DroidBot has no usable PyPI release (PyPI's droidbot is 1.0.0a2 "
                    "from 2015, for Python 2); point it at a venv with github:honeynet/droidbot installed "
                    "or at a checkout of it")
    path = Path(where)
    if (path / "bin" / "droidbot").is_file():
        return [str(path / "bin" / "droidbot")]
    if (path / "start.py").is_file():
        return [sys.executable, str(path / "start.py")]
    pytest.fail(f"{ENV}={where} is neither a venv with bin/droidbot nor a DroidBot checkout with start.py")


@pytest.fixture(scope="module")
def notes_apk(tmp_path_factory) -> Path:
    aapt, zipalign, apksigner = (require_tool(t) for t in ("aapt", "zipalign", "apksigner"))
    work = tmp_path_factory.mktemp("notes-apk")
    (work / "AndroidManifest.xml").write_text(NOTES_MANIFEST)
    subprocess.run([aapt, "package", "-f", "-M", str(work / "AndroidManifest.xml"), "-I", ANDROID_JAR,
                    "--version-code", "129", "--version-name", "6.17.0", "-F", str(work / "unaligned.apk")],
                   check=True, capture_output=True, timeout=120)
    subprocess.run([zipalign, "-f", "4", str(work / "unaligned.apk"), str(work / "aligned.apk")],
                   check=True, capture_output=True, timeout=120)
    out = work / "notes.apk"
    subprocess.run([apksigner, "sign", "--v4-signing-enabled", "false", "--ks", str(SOURCE_DIR / "debug.keystore"),
                    "--ks-pass", "pass:android", "--key-pass", "pass:android", "--ks-key-alias", "listener",
                    "--out", str(out), str(work / "aligned.apk")], check=True, capture_output=True, timeout=120)
    return out


def test_droidbot_explores_notes_with_dfs_greedy(droidbot_command, adb_server_port, notes_apk, tmp_path):
    """50 events of dfs_greedy record at least 10 distinct states (DroidBot's own utg.js)."""
    from pytest_mobileagent.virtual_phone import start_phones
    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    # DroidBot calls `adb` from PATH; the private server's port reaches it as adb reads it
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "adb").symlink_to(bundled_adb_path())
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
               ANDROID_ADB_SERVER_PORT=str(adb_server_port))
    out = tmp_path / "out"
    with start_phones(1, adb_server_port=adb_server_port) as phones:
        serial = phones[0].serial
        run = subprocess.run(droidbot_command + ["-d", serial, "-a", str(notes_apk), "-o", str(out),
                                        "-policy", "dfs_greedy", "-count", "50", "-interval", "1",
                                        "-grant_perm", "-keep_app", "-is_emulator"],
                             env=env, capture_output=True, text=True, timeout=900)
    log = run.stdout[-4000:] + run.stderr[-8000:]
    assert run.returncode == 0, log
    utg = (out / "utg.js").read_text()
    graph = json.loads(utg[utg.index("=") + 1:].strip().rstrip(";"))
    sent = len(list((out / "events").glob("event_*.json")))  # InputEvent.save: one file per event sent
    print(f"DroidBot: {graph['num_nodes']} distinct states, {sent} events sent, "
          f"{graph['num_effective_events']} effective, {graph['num_reached_activities']} activities")
    assert sent >= 50, log
    assert graph["num_nodes"] >= 10, log
    assert NOTES in {node["package"] for node in graph["nodes"]}
