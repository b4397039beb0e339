"""System screens the apps reach (Android 14): the share sheet, the permission dialog, the dialer.

Driven through the real adb server: the apps' Share / Call / Dialpad actions
start implicit intents that the phone resolves as PackageManager does.
"""

from __future__ import annotations

import re

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
    notes.tap(desc="More options").tap(text="Share")
    notes.sh("input tap 540 600")                       # a tap above the sheet dismisses it
    assert notes.activity() == f"{NOTES}/{NOTES}.activities.MainActivity"


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
    contacts.sh("input tap 540 300")                    # taps beside the dialog do nothing
    assert contacts.activity() == GRANT
    contacts.key("BACK")
    assert contacts.activity().endswith(".activities.MainActivity")
    assert contacts.texts("fragment_placeholder") == ["No contacts found"]


# -- implicit intents from the shell (`am start -a`), as PackageManager resolves them ------------------

@pytest.fixture
def shell_ui(adb_device, phone):
    ui = AdbUI(adb_device, phone, "android")
    ui.sh("input keyevent HOME")
    yield ui
    ui.key("HOME")
    ui.close()


def test_am_start_dial_opens_the_dialpad_with_the_number(shell_ui):
    out = shell_ui.sh("am start -a android.intent.action.DIAL -d tel:5551234")
    assert "Starting: Intent { act=android.intent.action.DIAL dat=tel:5551234 }" in out
    assert shell_ui.activity() == DIALER
    assert shell_ui.text("com.android.dialer:id/digits") == "5551234"
    shell_ui.key("BACK")
    assert shell_ui.activity().startswith("com.android.launcher3/")


def test_an_intent_nothing_answers_is_not_started(shell_ui):
    code, out = shell_ui.sh2("am start -a android.intent.action.SENDTO -d mailto:a@b.c")
    assert code == 1 and "Error: Activity not started, unable to resolve Intent" in out


def test_several_handlers_open_the_resolver_just_once_and_always(shell_ui):
    send = "am start -a android.intent.action.SEND -t text/plain --es android.intent.extra.TEXT hi"
    assert "(has extras)" in shell_ui.sh(send)
    assert shell_ui.activity() == "android/com.android.internal.app.ResolverActivity"
    assert packages(shell_ui) == {"android"}
    assert shell_ui.text("android:id/title") == "Share"
    assert shell_ui.texts("android:id/text1") == ["Notes", "SMS Messenger"]
    assert shell_ui.one(id="android:id/button_once")["enabled"] == "false"   # nothing chosen yet
    shell_ui.tap(id="android:id/text1", text="Notes")
    assert shell_ui.one(id="android:id/button_always")["enabled"] == "true"
    shell_ui.tap(id="android:id/button_once")
    assert shell_ui.activity() == f"{NOTES}/{NOTES}.activities.MainActivity"
    shell_ui.key("HOME").sh(send)
    assert shell_ui.activity() == "android/com.android.internal.app.ResolverActivity"   # just once: asked again
    shell_ui.tap(id="android:id/text1", text="Notes").tap(id="android:id/button_always")
    shell_ui.key("HOME").sh(send)
    assert shell_ui.activity() == f"{NOTES}/{NOTES}.activities.MainActivity"   # always: no more asking
    shell_ui.sh(f"pm clear {NOTES}")                     # clearing the app's data forgets the choice
    shell_ui.key("HOME").sh(send)
    assert shell_ui.activity() == "android/com.android.internal.app.ResolverActivity"


def test_create_document_saves_into_downloads(shell_ui):
    shell_ui.sh("rm -rf /sdcard/Download/*; echo hello > /sdcard/Download/old.txt")
    shell_ui.sh("am start -a android.intent.action.CREATE_DOCUMENT -t text/plain "
                "--es android.intent.extra.TITLE Diary.txt")
    assert shell_ui.activity() == ("com.google.android.documentsui/"
                                   "com.android.documentsui.picker.PickActivity")
    assert shell_ui.text("com.google.android.documentsui:id/header_title") == "FILES IN DOWNLOADS"
    assert shell_ui.texts("android:id/title") == ["old.txt", "Diary.txt"]     # the listing, the name field
    assert shell_ui.text("com.google.android.documentsui:id/details") == "6 B"
    shell_ui.tap(text="SAVE")
    assert shell_ui.sh("ls /sdcard/Download").split() == ["Diary.txt", "old.txt"]
    assert shell_ui.activity().startswith("com.android.launcher3/")


def test_get_content_goes_to_the_picker_without_asking(shell_ui):
    shell_ui.sh("am start -a android.intent.action.GET_CONTENT -t text/x-vcard")
    # DocumentsUI's GET_CONTENT filter has priority 100: PackageManager starts it directly
    assert shell_ui.activity() == ("com.google.android.documentsui/"
                                   "com.android.documentsui.picker.PickActivity")
    assert shell_ui.text("com.google.android.documentsui:id/header_title") == "RECENT FILES"
    assert shell_ui.text("com.google.android.documentsui:id/message") == "No items"
    shell_ui.key("BACK")
    assert shell_ui.activity().startswith("com.android.launcher3/")


def test_the_images_system_packages_and_what_resolves_where(shell_ui):
    system = set(shell_ui.sh("pm list packages -s").split())
    assert {"package:android", "package:com.android.intentresolver", "package:com.android.dialer",
            "package:com.google.android.permissioncontroller", "package:com.google.android.documentsui",
            "package:com.google.android.apps.messaging"} <= system
    assert "package:com.android.vending" not in system          # a Google APIs image has no Play Store
    code, out = shell_ui.sh2("monkey -p com.android.intentresolver -c android.intent.category.LAUNCHER 1")
    assert code != 0 and "No activities found to run" in out
    resolve = "cmd package resolve-activity --brief"
    assert shell_ui.sh(f"{resolve} -a android.intent.action.DIAL -d tel:1").split()[-1] == \
        "com.android.dialer/.main.impl.MainActivity"
    assert shell_ui.sh(f"{resolve} -a android.intent.action.SEND -t text/plain").split()[-1] == \
        "android/com.android.internal.app.ResolverActivity"
    assert shell_ui.sh(f"{resolve} -a android.intent.action.GET_CONTENT -t image/png").split()[-1] == \
        "com.google.android.documentsui/com.android.documentsui.picker.PickActivity"
    shell_ui.sh("am start -a android.media.action.IMAGE_CAPTURE")
    assert shell_ui.activity() == "com.android.camera2/com.android.camera.CaptureActivity"
    shell_ui.sh("am start -a android.media.action.STILL_IMAGE_CAMERA")
    assert shell_ui.activity() == "com.android.camera2/com.android.camera.CameraActivity"
    shell_ui.sh("am force-stop com.android.camera2")  # the phone is shared: no camera task left behind


def test_send_sms_opens_the_sms_apps_thread_for_the_number(contacts):
    add_contact(contacts, "Alice", "111111")
    contacts.sh(f"monkey -p {CONTACTS} -c android.intent.category.LAUNCHER 1")
    contacts.tap(id="item_contact_name", text="Alice").tap(id="contact_send_sms")
    # ACTION_SENDTO smsto:111111: SMS Messenger's NewConversationActivity opens the thread and finishes
    assert contacts.activity() == ("com.simplemobiletools.smsmessenger/"
                                   "com.simplemobiletools.smsmessenger.activities.ThreadActivity")
    contacts.key("BACK")                                 # the keyboard
    contacts.key("BACK")
    assert contacts.activity().endswith(".activities.ViewContactActivity")


def _tree(ui: AdbUI, package: str) -> list[tuple[int, str, str]]:
    """(depth, short id, content-desc) of the package's nodes, in dump order."""
    import xml.etree.ElementTree as ET

    out: list[tuple[int, str, str]] = []

    def walk(node, depth: int) -> None:
        if node.get("package") == package and node.get("resource-id", "").startswith(package):
            out.append((depth, node.get("resource-id").rpartition("/")[2], node.get("content-desc", "")))
        for child in node.findall("node"):
            walk(child, depth + 1)

    walk(ET.fromstring(ui.device.dump_hierarchy()), 0)
    start = [i for _, i, _ in out].index("activity_root_view")  # below the window's decor
    return [(d - out[start][0], i, desc) for d, i, desc in out[start:]]


def test_the_cameras_capture_screen_and_its_review_of_an_intents_shot(contacts):
    """AOSP Camera2's capture screen as the DroidTask recording of Contacts' "Take photo" shows it
    (com.android.camera2/com.android.camera.CaptureActivity; Camera2's activity_main.xml,
    mode_options_overlay.xml, bottom_bar_contents.xml): the shutter, then for an IMAGE_CAPTURE intent
    the review bar (Retake / Done / Cancel)."""
    camera = "com.android.camera2"
    contacts.sh(f"am force-stop {camera}")
    contacts.sh("am start -a android.media.action.IMAGE_CAPTURE")
    assert contacts.activity() == f"{camera}/com.android.camera.CaptureActivity"
    assert _tree(contacts, camera) == [
        (0, "activity_root_view", ""), (1, "camera_app_root", ""), (2, "preview_content", ""),
        (2, "focus_ring", ""), (2, "preview_overlay", ""), (2, "face_view", ""), (2, "module_layout", ""),
        (4, "progress_overlay", ""), (2, "sticky_bottom_capture_layout", ""), (3, "mode_options_overlay", ""),
        (4, "mode_options_toggle", "Options"), (5, "three_dots", "Options"), (3, "bottom_bar", ""),
        (4, "bottombar_capture", ""), (5, "shutter_button", "Shutter")]
    bar, overlay = contacts.one(id=f"{camera}:id/bottom_bar"), contacts.one(id=f"{camera}:id/mode_options_overlay")
    left, top, right, bottom = (int(v) for v in overlay["bounds"].replace("][", ",").strip("[]").split(","))
    assert (bottom - top) * 3 == (right - left) * 4, "a 4:3 preview"
    assert bar["bounds"].startswith(f"[0,{bottom}]"), "the preview ends on the bottom bar"
    contacts.tap(desc="Shutter")
    ids = [i for _, i, _ in _tree(contacts, camera)]
    assert ids[ids.index("bottom_bar"):] == ["bottom_bar", "bottombar_intent_review", "retake_button", "done_button",
                                             "cancel_button", "intent_review_imageview"]
    assert "shutter_button" not in ids and "mode_options_overlay" not in ids
    contacts.tap(desc="Retake")
    assert contacts.has(desc="Shutter")
    contacts.tap(desc="Shutter").tap(desc="Done")
    assert not contacts.activity().startswith(camera)


def test_files_picker_lists_the_other_apps_that_answer_get_content(contacts):
    """DocumentsUI's "BROWSE FILES IN OTHER APPS" row (AppsRowManager, RootsFragment.includeHandlerApps,
    Android 14): for GET_CONTENT, the other packages whose exported activities answer the intent, by
    title; an enabled package only (queryIntentActivities); none for OPEN_DOCUMENT."""
    files = "com.google.android.documentsui"
    fm = "com.simplemobiletools.filemanager.pro"
    contacts.sh("am start -a android.intent.action.GET_CONTENT -t 'image/*'")
    assert contacts.activity() == f"{files}/com.android.documentsui.picker.PickActivity"
    # the row's items only: the file list below it uses android:id/title too (the session phone's pictures)
    left, top, right, bottom = (int(v) for v in re.findall(r"-?\d+", contacts.one(id=f"{files}:id/apps_group")["bounds"]))

    def in_row(node: dict) -> bool:
        x1, y1, x2, y2 = (int(v) for v in re.findall(r"-?\d+", node["bounds"]))
        return left <= x1 and x2 <= right and top <= y1 and y2 <= bottom

    row = [n for n in contacts.all(id="android:id/title") if in_row(n)]
    titles, listed = [n["text"] for n in row], [n["content-desc"] for n in row]
    assert titles == listed and titles == sorted(titles, key=str.lower)
    assert {"File Manager", "Gallery"} <= set(titles) and "Files" not in titles
    contacts.key("BACK")
    contacts.sh(f"pm disable-user {fm}")
    try:
        contacts.sh("am start -a android.intent.action.GET_CONTENT -t 'image/*'")
        assert "File Manager" not in [n["text"] for n in contacts.all(id="android:id/title")]
    finally:
        contacts.key("BACK")
        contacts.sh(f"pm enable {fm}")
    contacts.sh("am start -a android.intent.action.OPEN_DOCUMENT -t 'image/*'")
    assert not contacts.has(id=f"{files}:id/apps_row")
    contacts.key("BACK")
