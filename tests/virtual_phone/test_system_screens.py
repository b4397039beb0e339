"""System screens the apps reach (Android 14): the share sheet, the permission dialog, the dialer.

Driven through the real adb server: the apps' Share / Call / Dialpad actions
start implicit intents that the phone resolves as PackageManager does.
"""

from __future__ import annotations

import pytest
from adb_ui import AdbUI
from test_contacts_app import PKG as CONTACTS, PROVIDER, add_contact

NOTES = "com.simplemobiletools.notes.pro"
CHOOSER = "com.android.intentresolver/com.android.intentresolver.ChooserActivity"
DIALER = "com.android.dialer/com.android.dialer.main.impl.MainActivity"
GRANT = ("com.google.android.permissioncontroller/"
         "com.android.permissioncontroller.permission.ui.GrantPermissionsActivity")


@pytest.fixture
def notes(adb_device, phone):
    ui = AdbUI(adb_device, phone, NOTES).launch()
    yield ui
    ui.close()


@pytest.fixture
def contacts(adb_device, phone):
    ui = AdbUI(adb_device, phone, CONTACTS)
    ui.sh(f"am force-stop {CONTACTS}")
    ui.sh(f"pm clear {CONTACTS}")
    ui.sh(f"pm clear {PROVIDER}")
    for permission in ("READ_CONTACTS", "WRITE_CONTACTS"):
        ui.sh(f"pm grant {CONTACTS} android.permission.{permission}")
    yield ui
    ui.close()


def packages(ui: AdbUI) -> set[str]:
    return {node["package"] for node in ui.nodes()}


def test_sharing_a_note_opens_android_14s_share_sheet_and_back_returns(notes):
    notes.type("buy milk", id="text_note_view")
    notes.key("BACK")                                   # the keyboard goes first
    notes.tap(desc="More options").tap(text="Share")
    assert notes.activity() == CHOOSER
    assert packages(notes) == {"com.android.intentresolver"}
    assert notes.text("com.android.intentresolver:id/headline") == "Sharing text"
    assert notes.text("android:id/content_preview_text") == "buy milk"
    assert notes.has(id="android:id/chooser_header") and notes.has(id="android:id/resolver_list")
    # the apps whose manifests take ACTION_SEND text/plain, sorted by label
    assert notes.texts("android:id/text1") == ["Notes", "SMS Messenger"]
    assert "com.android.intentresolver/.ChooserActivity" in notes.sh("dumpsys activity activities")
    notes.key("BACK")
    assert notes.activity() == f"{NOTES}/{NOTES}.activities.MainActivity"
    assert packages(notes) == {NOTES}


def test_a_share_target_starts_the_chosen_app(notes):
    notes.type("hello", id="text_note_view").key("BACK").tap(desc="More options").tap(text="Share")
    notes.tap(id="android:id/text1", text="SMS Messenger")
    assert notes.activity().endswith(".activities.NewConversationActivity")
    notes.key("BACK")                                   # the keyboard of the number field
    notes.key("BACK")
    assert notes.activity() == f"{NOTES}/{NOTES}.activities.MainActivity"


def test_sharing_a_contact_previews_its_vcard(contacts):
    add_contact(contacts, "Alice", "111111")
    contacts.sh(f"monkey -p {CONTACTS} -c android.intent.category.LAUNCHER 1")
    contacts.tap(id="item_contact_name", text="Alice").tap(desc="Share")
    assert contacts.activity() == CHOOSER
    assert contacts.text("com.android.intentresolver:id/content_preview_filename") == "Alice.vcf"
    assert contacts.text("com.android.intentresolver:id/headline") == "Sharing 1 item"
    # text/x-vcard: Notes (text/*) and SMS Messenger (*/*)
    assert contacts.texts("android:id/text1") == ["Notes", "SMS Messenger"]


def test_the_dialpad_button_opens_the_emulators_dialer_and_back_returns(contacts):
    contacts.sh(f"monkey -p {CONTACTS} -c android.intent.category.LAUNCHER 1")
    contacts.tap(id="main_dialpad_button")
    assert contacts.activity() == DIALER
    assert packages(contacts) == {"com.android.dialer"}
    assert contacts.text("com.android.dialer:id/digits") == ""
    contacts.key("BACK")
    assert contacts.activity().endswith(".activities.MainActivity")
    assert contacts.has(id="main_dialpad_button")


def test_call_asks_for_the_phone_permission_then_calls_or_dials(contacts):
    add_contact(contacts, "Alice", "111111")
    contacts.sh(f"monkey -p {CONTACTS} -c android.intent.category.LAUNCHER 1")
    contacts.tap(id="item_contact_name", text="Alice").tap(id="contact_start_call")
    assert contacts.activity() == GRANT
    assert packages(contacts) == {"com.google.android.permissioncontroller"}
    assert contacts.texts("com.android.permissioncontroller:id/permission_message") == [
        "Allow Contacts to make and manage phone calls?"]
    contacts.tap(id="com.android.permissioncontroller:id/permission_deny_button")
    assert contacts.activity() == DIALER                        # refused: ACTION_DIAL with the number
    assert contacts.text("com.android.dialer:id/digits") == "111111"
    contacts.key("BACK")
    assert contacts.activity().endswith(".activities.ViewContactActivity")
    contacts.tap(id="contact_start_call").tap(text="Allow")     # allowed: ACTION_CALL places the call
    assert contacts.activity() == "com.android.dialer/com.android.incallui.InCallActivity"
    assert contacts.text("com.android.dialer:id/contactgrid_contact_name") == "Alice"
    contacts.tap(desc="End call")
    assert contacts.activity().endswith(".activities.ViewContactActivity")
    contacts.tap(id="contact_start_call")                       # granted now: no dialog
    assert contacts.activity() == "com.android.dialer/com.android.incallui.InCallActivity"


def test_back_on_the_permission_dialog_refuses(contacts):
    add_contact(contacts, "Yuzai", "123")
    contacts.sh(f"pm revoke {CONTACTS} android.permission.READ_CONTACTS")
    contacts.sh(f"monkey -p {CONTACTS} -c android.intent.category.LAUNCHER 1")
    assert contacts.activity() == GRANT
    contacts.key("BACK")
    assert contacts.activity().endswith(".activities.MainActivity")
    assert contacts.texts("fragment_placeholder") == ["No contacts found"]
