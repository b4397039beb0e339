"""System services as clients reach them over adb: the settings provider, `cmd package
query-activities`, `cmd statusbar` and the notification shade, `dumpsys input_method`'s
IME service state, monkey's network mode, and http(s) VIEW intents.

Every test drives the session phone through the real adb server with adbutils.
"""

from __future__ import annotations

import re

import pytest


@pytest.fixture
def sh(adb_device):
    """Run a command on the session phone: (exit status, stdout, stderr)."""
    def run(cmd: str) -> tuple[int, str, str]:
        result = adb_device.shell2(cmd, v2=True)
        return result.returncode, result.stdout, result.stderr

    return run


# -- content://settings (SettingsProvider) -------------------------------------------------------
def test_settings_provider_rows_are_the_settings_commands_facts(sh):
    """SettingsProvider.query (frameworks/base packages/SettingsProvider): columns _id, name, value
    (ALL_COLUMNS); Content.java prints "Row: N col=value, ..."; `settings get` reads the same store."""
    assert sh("settings put system svc_listed 1.15")[0] == 0
    out = sh("content query --uri content://settings/system")[1]
    rows = re.findall(r"^Row: (\d+) _id=(\d+), name=([^,]+), value=(.*)$", out, re.M)
    assert [int(r[0]) for r in rows] == list(range(len(rows))) and len(rows) >= 6
    listed = dict(line.split("=", 1) for line in sh("settings list system")[1].splitlines())
    assert {name: value for _, _, name, value in rows} == listed
    assert listed["svc_listed"] == "1.15"
    # one named row: by --where name='x' (Arguments' WHERE_PATTERN_NO_PARAM_NO_BRACKETS) or by path
    android_id = sh("settings get secure android_id")[1].strip()
    assert sh("content query --uri content://settings/secure --projection name:value "
              "--where \"name='android_id'\"")[1] == f"Row: 0 name=android_id, value={android_id}\n"
    assert sh("content query --uri content://settings/global/wifi_on --projection value")[1] == "Row: 0 value=1\n"
    assert sh("content query --uri content://settings/global --where \"(name = 'no_such')\"")[1] == \
        "No result found.\n"


def test_settings_provider_writes_reach_settings_get(sh):
    """insert/update/delete through the provider change what `settings get` prints; a changed
    value gets a new row id (SettingsState: String.valueOf(mNextId++))."""
    assert sh("content insert --uri content://settings/system --bind name:s:svc_probe --bind value:s:one") == \
        (0, "", "")
    assert sh("settings get system svc_probe")[1] == "one\n"
    first = re.search(r"_id=(\d+)", sh("content query --uri content://settings/system/svc_probe")[1]).group(1)
    sh("content update --uri content://settings/system --bind name:s:svc_probe --bind value:s:two "
       "--where \"name='svc_probe'\"")
    row = sh("content query --uri content://settings/system/svc_probe")[1]
    assert row == f"Row: 0 _id={int(first) + 1}, name=svc_probe, value=two\n"
    sh("settings put system svc_probe three")
    assert "value=three" in sh("content query --uri content://settings/system --where \"name='svc_probe'\"")[1]
    sh("content delete --uri content://settings/system --where \"name='svc_probe'\"")
    assert sh("settings get system svc_probe")[1] == "null\n"


def test_settings_provider_refuses_what_its_arguments_refuse(sh):
    """SettingsProvider.Arguments accepts only name='x', name=? (with one argument, which `content`
    never passes) or a name in the path; normalizeProjection refuses unknown columns."""
    code, out, err = sh("content query --uri content://settings/system --where \"value='1'\"")
    assert (code, out) == (0, "") and err.startswith("Error while accessing provider:settings\n"
                                                     "java.lang.IllegalArgumentException: Supported SQL:\n")
    assert "but got - uri:content://settings/system, where:value='1' whereArgs:null" in err
    assert "NullPointerException" in sh("content query --uri content://settings/system --where 'name=?'")[2]
    assert sh("content query --uri content://settings/system --projection package")[2].endswith(
        "java.lang.IllegalArgumentException: Invalid column: package\n")
    assert sh("content query --uri content://settings/bogus")[2].endswith("Bad root path: bogus\n")


# -- cmd package query-activities ------------------------------------------------------------------
MAIN, LAUNCHER = "android.intent.action.MAIN", "android.intent.category.LAUNCHER"
NOTES = "com.simplemobiletools.notes.pro"


def test_query_activities_lists_what_resolve_activity_and_am_start_choose_from(sh):
    """PackageManagerShellCommand.runQueryIntentActivities: "N activities found:", "  Activity #i:"
    and printResolveInfo at "    "; --components prints one flattenToShortString per line."""
    code, out, _ = sh(f"cmd package query-activities --brief -a {MAIN} -c {LAUNCHER} {NOTES}")
    assert (code, out.splitlines()) == (0, [
        "1 activities found:", "  Activity #0:",
        "    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false",
        f"    {NOTES}/.activities.SplashActivity.Orange"])
    # every launcher entry on the phone; each is what resolve-activity names for its package
    launchers = sh(f"pm query-activities --components -a {MAIN} -c {LAUNCHER}")[1].splitlines()
    assert f"{NOTES}/.activities.SplashActivity.Orange" in launchers and len(launchers) >= 10
    for component in launchers[:3]:
        package = component.split("/")[0]
        assert sh(f"cmd package resolve-activity --components -a {MAIN} -c {LAUNCHER} {package}")[1] == \
            component + "\n"
    # several answers: resolve-activity names the ResolverActivity, am start shows it
    senders = sh("cmd package query-activities --components -a android.intent.action.SEND -t text/plain")[1]
    assert len(senders.splitlines()) >= 2
    assert sh("cmd package resolve-activity --components -a android.intent.action.SEND -t text/plain")[1] == \
        "android/com.android.internal.app.ResolverActivity\n"
    # the full ResolveInfo.dump, and the options anywhere among the intent's arguments
    home = sh("cmd package query-activities -a android.intent.action.MAIN --user 0 -c android.intent.category.HOME")[1]
    assert home.splitlines()[:4] == [
        "1 activities found:", "  Activity #0:",
        "    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true", "    ActivityInfo:"]
    assert "      packageName=com.android.launcher3" in home.splitlines()


def test_query_activities_when_nothing_answers(sh):
    assert sh(f"cmd package query-activities -a android.intent.action.VIEW -d geo:0,0 {NOTES}") == \
        (0, "No activities found\n", "")
    code, _, err = sh("cmd package query-activities --brief")
    assert code == 255 and err.endswith("java.lang.IllegalArgumentException: No intent supplied\n")
