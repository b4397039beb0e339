"""The shipped listener APK: current with its source, well-formed, signed, and
speaking the plugin's event format.

The SDK tools come from ``listener_apk/install-sdk.sh``; without them these
tests skip, unless ``MOBILEAGENT_REQUIRE_SDK=1`` (set by .ci/run), which turns
a missing tool into a failure so CI cannot go green by skipping.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess


from pytest_mobileagent.events.model import parse_event_line
from listener_apks import SOURCE_DIR, require_tool as _tool
from pytest_mobileagent.listener import APK_PATH, PACKAGE, PROTOCOL, shipped_digest, source_digest



def test_shipped_apk_is_built_from_the_current_source():
    assert APK_PATH.is_file()
    assert shipped_digest() == source_digest(SOURCE_DIR), (
        "pytest_mobileagent/listener/listener.apk is stale: run listener_apk/build.sh --ship")


def test_source_digest_changes_with_any_source_file(tmp_path):
    copy = tmp_path / "listener_apk"
    shutil.copytree(SOURCE_DIR, copy, ignore=shutil.ignore_patterns("build"))
    before = source_digest(copy)
    assert before == source_digest(SOURCE_DIR)
    java = next((copy / "src").rglob("EventJson.java"))
    java.write_text(java.read_text() + "\n")
    assert source_digest(copy) != before


def test_badging_names_the_package_sdk_levels_and_service():
    out = subprocess.run([_tool("aapt"), "dump", "badging", str(APK_PATH)], capture_output=True,
                         text=True, timeout=60, check=True).stdout
    code, name = (SOURCE_DIR / "VERSION").read_text().split()
    assert f"package: name='{PACKAGE}' versionCode='{code}' versionName='{name}'" in out
    assert "sdkVersion:'21'" in out
    target = int(re.search(r"targetSdkVersion:'(\d+)'", out).group(1))
    assert target >= 24, "recent Android refuses apps that target older levels"
    assert "provides-component:'accessibility'" in out


def test_apk_signature_verifies():
    result = subprocess.run([_tool("apksigner"), "verify", "--print-certs", str(APK_PATH)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "pytest-mobileagent listener" in result.stdout


def test_manifest_as_the_plugin_reads_it():
    from pyaxmlparser import APK

    apk = APK(str(APK_PATH))
    assert apk.package == PACKAGE
    assert apk.get_min_sdk_version() == "21"
    # Protocol 2 serves on an abstract Unix socket, which needs no permission; the
    # listener dials nothing, so it asks for none (INTERNET was protocol 1's).
    assert apk.get_permissions() == []


def test_serializer_output_parses_with_the_plugins_event_parser(tmp_path):
    """Lines the Java serializer writes (quotes, control chars, unicode, surrogates)
    come out of the plugin's parser with the same strings."""
    javac, java = _tool("javac"), _tool("java")
    pkg = "io/github/mobileagent/listener"
    sources = [SOURCE_DIR / "src" / pkg / "EventJson.java", SOURCE_DIR / "src" / pkg / "HierarchyReply.java",
               SOURCE_DIR / "src" / pkg / "Handshake.java", SOURCE_DIR / "test" / pkg / "EventJsonSamples.java"]
    subprocess.run([javac, "-nowarn", "-d", str(tmp_path), *map(str, sources)], check=True, timeout=120)
    out = subprocess.run([java, "-cp", str(tmp_path), "io.github.mobileagent.listener.EventJsonSamples"],
                         capture_output=True, check=True, timeout=60).stdout
    lines = out.split(b"\n")
    assert lines[-1] == b""
    events = [parse_event_line(line) for line in lines[:-1]]

    click, typed, window, reply, hello, refused = events
    assert (click.type, click.short_id, click.text, click.cls) == (
        "click", "save", ("Save",), "android.widget.Button")
    assert click.time_ms == 1714554000000
    assert typed.text == ('say "hi"\n\t\\', "café 中文 \U0001F600", "lone \ufffd here")
    assert typed.desc == "d\x01e"
    assert (window.type, window.package, window.id, window.text) == ("window_state", "", "", ())
    assert reply.type == "hierarchy"
    assert json.loads(lines[3])["xml"].startswith("<?xml")
    # The handshake lines of protocol 2 (listener_apk/README.md, "Protocol").
    assert (hello.type, refused.type) == ("hello", "refused")
    assert json.loads(lines[4]) == {"v": 1, "type": "hello", "protocol": PROTOCOL, "package": PACKAGE,
                                    "version_code": 3, "dropped": 12}
    assert json.loads(lines[5]) == {"v": 1, "type": "refused", "reason":
                                    "uid 10057 may not read the listener: only shell (2000) and root (0)"}
