"""`cmd`: the package, role and forwarding services, as Android 14 answers them."""

from __future__ import annotations

import pytest

from pytest_mobileagent.virtual_phone.framework.roles import ROLE_HOME, ROLE_SMS

NOTES = "com.simplemobiletools.notes.pro"
CALC = "com.simplemobiletools.calculator"


def run(phone, line: str):
    result = phone.run_shell(line)
    return result.stdout.decode(), result.stderr.decode(), result.exit_code


def test_resolve_activity_brief_prints_the_resolve_line_then_the_component(fresh_phone):
    out, err, code = run(fresh_phone, f"cmd package resolve-activity --brief {NOTES}")
    assert (err, code) == ("", 0)
    assert out.splitlines() == [
        "priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false",
        f"{NOTES}/.activities.SplashActivity.Orange",  # the enabled launcher alias, as ResolveInfo names it
    ]
    # pm is the same service
    assert run(fresh_phone, f"pm resolve-activity --brief {NOTES}")[0] == out
    assert run(fresh_phone, f"cmd package resolve-activity --components -a android.intent.action.MAIN "
                            f"-c android.intent.category.LAUNCHER {CALC}")[0] == f"{CALC}/.activities.SplashActivity.Orange\n"


@pytest.mark.parametrize("line", [
    "cmd package resolve-activity --brief no.such.pkg",
    f"cmd package resolve-activity --brief -a android.intent.action.VIEW -d https://x {NOTES}",
    f"cmd package resolve-activity --brief -n {NOTES}/.NoSuchActivity",
])
def test_resolve_activity_unresolved_says_no_activity_found_and_exits_0(fresh_phone, line):
    assert run(fresh_phone, line) == ("No activity found\n", "", 0)


def test_resolve_activity_of_a_disabled_package_finds_nothing(fresh_phone):
    run(fresh_phone, f"pm disable-user {NOTES}")
    assert run(fresh_phone, f"cmd package resolve-activity --brief {NOTES}")[0] == "No activity found\n"


def test_home_intent_resolves_to_the_home_role_holder(fresh_phone):
    out = run(fresh_phone, "cmd package resolve-activity --brief -a android.intent.action.MAIN "
                           "-c android.intent.category.HOME")[0]
    assert out.splitlines()[-1] == "com.android.launcher3/.uioverride.QuickstepLauncher"
    assert "isDefault=true" in out.splitlines()[0]


def test_cmd_package_list_packages_is_pm_list_packages(fresh_phone):
    for flags in ("", "-3", "-s", f"-f {NOTES}"):
        assert run(fresh_phone, f"cmd package list packages {flags}") == run(fresh_phone, f"pm list packages {flags}")
    assert f"package:{NOTES}\n" in run(fresh_phone, "cmd package list packages")[0]


@pytest.mark.parametrize("line, out, err, code", [
    ("cmd", "", "cmd: No service specified; use -l to list all running services. "
                "Use -w to start and wait for a service.\n", 20),
    ("cmd nosuchservice list", "", "cmd: Can't find service: nosuchservice\n", 20),
    ("cmd role nosuchverb", "Unknown command: nosuchverb\n", "", 255),
    ("cmd role add-role-holder android.app.role.SMS",
     "", "Exception occurred while executing 'add-role-holder':\n"
         "java.lang.IllegalArgumentException: Argument expected after \"add-role-holder\"\n", 255),
    ("cmd role add-role-holder android.app.role.SMS no.such.pkg",
     "", "Exception occurred while executing 'add-role-holder':\njava.lang.RuntimeException: Operation failed\n", 255),
    (f"cmd role add-role-holder android.app.role.NO_SUCH_ROLE {NOTES}",
     "", "Exception occurred while executing 'add-role-holder':\njava.lang.RuntimeException: Operation failed\n", 255),
    (f"cmd role add-role-holder {ROLE_HOME} com.android.launcher3 notanumber",
     "", "Exception occurred while executing 'add-role-holder':\n"
         "java.lang.NumberFormatException: For input string: \"notanumber\"\n", 255),
    ("cmd package resolve-activity --brief",
     "", "Exception occurred while executing 'resolve-activity':\n"
         "java.lang.IllegalArgumentException: No intent supplied\n", 255),
])
def test_cmd_errors_as_android_prints_them(fresh_phone, line, out, err, code):
    assert run(fresh_phone, line) == (out, err, code)


def test_cmd_forwards_to_the_services_commands(fresh_phone):
    assert run(fresh_phone, "cmd window size") == run(fresh_phone, "wm size")
    assert run(fresh_phone, "cmd settings get global adb_enabled") == ("1\n", "", 0)
    assert run(fresh_phone, f"cmd activity start -n {CALC}/.activities.SplashActivity.Orange")[2] == 0
    assert fresh_phone.system.focused_window()[0] == CALC
    listed = run(fresh_phone, "cmd -l")[0].split()
    assert {"package", "role", "activity"} <= set(listed)
    for service in listed[3:]:  # every listed service answers
        assert run(fresh_phone, f"cmd {service}")[2] != 20


def test_roles_add_get_remove(fresh_phone):
    p = fresh_phone
    assert run(p, f"cmd role get-role-holders {ROLE_HOME}") == ("com.android.launcher3\n", "", 0)
    assert run(p, f"cmd role get-role-holders {ROLE_SMS}") == ("\n", "", 0)
    # Notes does not qualify for SMS: refused, nothing changes
    assert run(p, f"cmd role add-role-holder {ROLE_SMS} {NOTES}")[2] == 255
    assert p.roles.holders(ROLE_SMS) == []
    # bypassing qualification (Android 13+) lets any installed package hold it
    assert run(p, "cmd role set-bypassing-role-qualification true")[2] == 0
    assert run(p, f"cmd role add-role-holder --user 0 {ROLE_SMS} {NOTES} 0") == ("", "", 0)
    assert run(p, f"cmd role get-role-holders --user 0 {ROLE_SMS}")[0] == f"{NOTES}\n"
    assert p.roles.is_holder(ROLE_SMS, NOTES) and p.system.roles is p.roles
    # an exclusive role passes to the new holder
    assert run(p, f"cmd role add-role-holder {ROLE_SMS} {CALC}")[2] == 0
    assert p.roles.holders(ROLE_SMS) == [CALC]
    # `pm clear` leaves roles alone, as on a phone
    assert run(p, f"pm clear {CALC}")[0] == "Success\n"
    assert p.roles.holders(ROLE_SMS) == [CALC]
    assert run(p, f"cmd role remove-role-holder {ROLE_SMS} {CALC}") == ("", "", 0)
    assert run(p, f"cmd role get-role-holders {ROLE_SMS}")[0] == "\n"
    # removing a non-holder succeeds
    assert run(p, f"cmd role remove-role-holder {ROLE_SMS} {CALC}")[2] == 0


def test_an_app_that_declares_a_role_qualifies_and_sees_it():
    from pytest_mobileagent.virtual_phone import VirtualPhone
    from pytest_mobileagent.virtual_phone.apps.simple import notes

    class SmsNotes(notes.NotesApp):
        roles = frozenset({ROLE_SMS})

    phone = VirtualPhone(seed=3)
    phone.system._apps[NOTES] = SmsNotes()
    assert run(phone, f"cmd role add-role-holder {ROLE_SMS} {NOTES}") == ("", "", 0)
    run(phone, f"am start -n {NOTES}/.activities.MainActivity")
    activity = phone.system._front_activity()
    assert activity.holds_role(ROLE_SMS)
    run(phone, f"cmd role clear-role-holders {ROLE_SMS}")
    assert not activity.holds_role(ROLE_SMS)
