"""`dumpsys`: its own options, unknown services, and `dumpsys package PKG`."""

from __future__ import annotations

import re

import pytest

NOTES = "com.simplemobiletools.notes.pro"


def run(phone, line: str):
    result = phone.run_shell(line)
    return result.stdout.decode(), result.stderr.decode(), result.exit_code


@pytest.mark.parametrize("options", ["-t 60", "-T 500", "--priority CRITICAL", "-t 60 --pid"])
def test_dumpsys_options_do_not_change_the_dump(fresh_phone, options):
    fresh_phone.run_shell(f"am start -n {NOTES}/.activities.MainActivity")
    plain = run(fresh_phone, "dumpsys activity top")
    assert "ACTIVITY com.simplemobiletools.notes.pro/" in plain[0]
    assert run(fresh_phone, f"dumpsys {options} activity top") == plain


@pytest.mark.parametrize("line, err, code", [
    ("dumpsys no_such_service", "Can't find service: no_such_service\n", 0),
    ("dumpsys -t", None, 255),
    ("dumpsys -t soon activity", None, 255),
    ("dumpsys --bogus activity", None, 255),
])
def test_dumpsys_errors_as_android(fresh_phone, line, err, code):
    out, stderr, status = run(fresh_phone, line)
    assert (out, status) == ("", code)
    if err is not None:
        assert stderr == err
    else:
        assert stderr.startswith("usage: dumpsys\n")


def test_dumpsys_list_names_the_services_it_answers(fresh_phone):
    out = run(fresh_phone, "dumpsys -l")[0]
    names = out.split()[3:]
    assert {"activity", "package", "window", "display"} <= set(names)
    for name in names:
        assert "Can't find" not in run(fresh_phone, f"dumpsys {name}")[1]


def test_dumpsys_package_shows_version_grants_and_the_launcher_activity(fresh_phone):
    p = fresh_phone
    run(p, f"pm grant {NOTES} android.permission.READ_CONTACTS")
    out = run(p, f"dumpsys package {NOTES}")[0]
    assert "    versionName=6.17.0\n" in out
    assert re.search(r"^\s+versionCode=\d+ minSdk=\d+ targetSdk=34$", out, re.M)
    assert f"  Package [{NOTES}] (" in out
    runtime = out.split("runtime permissions:\n", 1)[1]
    assert runtime.startswith("        android.permission.READ_CONTACTS: granted=true, flags=[")
    # AndroidViewClient's parser: the line after "android.intent.action.MAIN:" under Non-Data Actions
    lines = out.splitlines()
    at = lines.index("  Non-Data Actions:")
    assert lines[at + 1].strip() == "android.intent.action.MAIN:"
    # the first MAIN / LAUNCHER filter Notes' manifest declares: Commons' first icon alias (disabled;
    # ComponentResolver.addActivitiesLocked puts every activity's filters in the table, enabled or
    # not). MainActivity declares no intent filter, so it is not in the table.
    assert lines[at + 2].split()[1] == f"{NOTES}/.activities.SplashActivity.Red"
    assert f" {NOTES}/.activities.MainActivity filter " not in out
    run(p, f"pm revoke {NOTES} android.permission.READ_CONTACTS")
    run(p, f"pm disable-user {NOTES}")
    out = run(p, f"dumpsys package {NOTES}")[0]
    assert "READ_CONTACTS: granted" not in out and " enabled=3 " in out
    assert run(p, "dumpsys package no.such.package") == ("Unable to find package: no.such.package\n", "", 0)


def test_adbutils_app_info_reads_the_package_dump(adb_client, phone):
    device = adb_client.device(phone.serial)
    info = device.app_info(NOTES)
    assert info is not None
    assert info.version_name == "6.17.0" and info.version_code == 114  # Simple Notes at its 6.17.0 tag
    assert info.signature and "HAS_CODE" in info.flags
    assert info.first_install_time is not None
    assert device.app_info("no.such.package") is None
