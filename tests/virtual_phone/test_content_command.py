"""The adb commands the contacts and SMS seeds use, through the real adb server.

`content` behaves as Android's tool (frameworks/base cmds/content): rows as
"Row: N col=value, ...", NULL for null, "No result found."; a malformed
command prints the usage and "[ERROR] ..." on stdout, a provider failure
prints "Error while accessing provider:..." and the exception on stderr, and
the tool exits 0 either way.  `pm clear` of a provider package empties it;
`cmd role add-role-holder` makes the SMS app the default one.
"""

from __future__ import annotations

import pytest

CONTACTS = "content://com.android.contacts"


@pytest.fixture
def sh(adb_device):
    """Run a command on the session phone: (exit status, stdout, stderr)."""
    for package in ("com.android.providers.contacts", "com.android.providers.telephony"):
        adb_device.shell(f"pm clear {package}")

    def run(cmd: str) -> tuple[int, str, str]:
        result = adb_device.shell2(cmd, v2=True)
        return result.returncode, result.stdout, result.stderr

    return run


def test_insert_query_update_delete_round_trip(sh):
    assert sh(f"content insert --uri {CONTACTS}/raw_contacts --bind account_name:n: --bind account_type:n:") == \
        (0, "", "")
    assert sh(f"content insert --uri {CONTACTS}/data --bind raw_contact_id:i:1 "
              "--bind mimetype:s:vnd.android.cursor.item/name --bind 'data1:s:Yuzai Li'")[0] == 0
    code, out, _ = sh(f"content query --uri {CONTACTS}/data --projection raw_contact_id:data1:data2:data3:data4")
    assert (code, out) == (0, "Row: 0 raw_contact_id=1, data1=Yuzai Li, data2=Yuzai, data3=Li, data4=NULL\n")
    assert sh(f"content query --uri {CONTACTS}/contacts --projection _id:display_name:starred") == \
        (0, "Row: 0 _id=1, display_name=Yuzai Li, starred=0\n", "")
    assert sh(f"content update --uri {CONTACTS}/contacts/1 --bind starred:i:1") == (0, "", "")
    assert "starred=1" in sh(f"content query --uri {CONTACTS}/raw_contacts --projection starred")[1]
    assert sh(f"content query --uri {CONTACTS}/contacts --where \"display_name='Nobody'\"") == \
        (0, "No result found.\n", "")
    assert sh(f"content delete --uri {CONTACTS}/raw_contacts --where \"_id=1\"") == (0, "", "")
    assert sh(f"content query --uri {CONTACTS}/data")[1] == "No result found.\n"


def test_sms_messages_are_filed_into_threads_by_address(sh):
    for box, body in (("sent", "i luv u"), ("inbox", "me too"), ("inbox", "who?")):
        number = "555" if body == "who?" else "123456789"
        assert sh(f"content insert --uri content://sms/{box} --bind address:s:{number} --bind 'body:s:{body}'")[0] == 0
    out = sh("content query --uri content://sms --projection thread_id:address:type:body --sort _id")[1]
    assert out.splitlines() == ["Row: 0 thread_id=1, address=123456789, type=2, body=i luv u",
                                "Row: 1 thread_id=1, address=123456789, type=1, body=me too",
                                "Row: 2 thread_id=2, address=555, type=1, body=who?"]
    assert sh("content query --uri content://sms/inbox --projection body --where \"address='123456789'\"")[1] == \
        "Row: 0 body=me too\n"
    threads = sh("content query --uri content://mms-sms/conversations --projection _id:message_count:snippet")[1]
    assert "Row: 0 _id=1, message_count=2, snippet=me too" in threads


@pytest.mark.parametrize("args, error", [
    ("", "Unsupported operation: null"),
    ("frobnicate --uri content://sms", "Unsupported operation: frobnicate"),
    ("query", "Content provider URI not specified. Did you specify --uri argument?"),
    ("insert --uri content://sms", "Bindings not specified. Did you specify --bind argument(s)?"),
    ("query --uri content://sms --bind a:s:b", "Unsupported argument: --bind"),
    ("insert --uri content://sms --bind body", "Binding not well formed: body"),
    ("insert --uri content://sms --bind body:q:x", "Unsupported type: q"),
    ("insert --uri content://sms --bind read:i:yes", 'For input string: "yes"'),
    ("query --uri", "No value for argument: --uri"),
])
def test_malformed_commands_print_the_usage_and_the_error(sh, args, error):
    code, out, err = sh(f"content {args}")
    assert code == 0 and err == ""
    assert out.startswith("usage: adb shell content [subcommand] [options]\n")
    assert out.endswith(f"[ERROR] {error}\n")


@pytest.mark.parametrize("args, exception", [
    ("query --uri content://nonesuch/x", "java.lang.IllegalStateException: Could not find provider: nonesuch"),
    (f"query --uri {CONTACTS}/nonesuch", f"java.lang.IllegalArgumentException: Unknown URL {CONTACTS}/nonesuch"),
    (f"query --uri {CONTACTS}/contacts --projection nonesuch",
     "java.lang.IllegalArgumentException: Invalid column nonesuch"),
    (f"query --uri {CONTACTS}/contacts --where 'nonesuch=1'",
     "android.database.sqlite.SQLiteException: no such column: nonesuch"),
    (f"insert --uri {CONTACTS}/contacts --bind display_name:s:x",
     "java.lang.UnsupportedOperationException: Aggregate contacts are created automatically"),
    (f"insert --uri {CONTACTS}/data --bind data1:s:x", "java.lang.IllegalArgumentException: raw_contact_id is required"),
    (f"insert --uri {CONTACTS}/data --bind raw_contact_id:i:99 --bind mimetype:s:vnd.android.cursor.item/name",
     "java.lang.IllegalArgumentException: Raw contact id 99 is not a valid raw contact"),
    ("insert --uri content://sms --bind nonesuch:s:x", "table sms has no column named nonesuch"),
])
def test_provider_failures_go_to_stderr_and_change_nothing(sh, args, exception):
    code, out, err = sh(f"content {args}")
    authority = args.split("content://", 1)[1].split("/", 1)[0].split(" ", 1)[0]
    assert (code, out) == (0, "")
    assert err.startswith(f"Error while accessing provider:{authority}\n")
    assert exception in err
    assert sh(f"content query --uri {CONTACTS}/raw_contacts")[1] == "No result found.\n"


def test_pm_clear_of_the_provider_packages_empties_them(sh):
    sh(f"content insert --uri {CONTACTS}/raw_contacts --bind account_name:n:")
    sh("content insert --uri content://sms/inbox --bind address:s:1 --bind body:s:x")
    assert "package:com.android.providers.contacts" in sh("pm list packages providers")[1]
    assert sh("pm clear com.android.providers.contacts") == (0, "Success\n", "")
    assert sh(f"content query --uri {CONTACTS}/raw_contacts")[1] == "No result found.\n"
    assert sh("content query --uri content://sms")[1] != "No result found.\n"   # another provider: untouched
    assert sh("pm clear com.android.providers.telephony") == (0, "Success\n", "")
    assert sh("content query --uri content://sms")[1] == "No result found.\n"
    assert sh("pm clear com.example.nonesuch") == (1, "Failed\n", "")


def test_cmd_role_makes_the_sms_app_the_default_one(sh):
    app = "com.simplemobiletools.smsmessenger"
    try:
        assert sh(f"cmd role add-role-holder android.app.role.SMS {app}") == (0, "", "")
        assert sh("cmd role get-role-holders android.app.role.SMS")[1].strip() == app
        assert sh(f"pm clear {app}")[1] == "Success\n"           # roles survive clearing the app's data
        assert sh("cmd role get-role-holders android.app.role.SMS")[1].strip() == app
        code, _out, err = sh("cmd role add-role-holder android.app.role.SMS com.simplemobiletools.calculator")
        assert code == 255 and "java.lang.RuntimeException" in err   # the calculator cannot be an SMS app
    finally:
        sh(f"cmd role remove-role-holder android.app.role.SMS {app}")
