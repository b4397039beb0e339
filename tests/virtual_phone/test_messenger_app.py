"""Simple SMS Messenger on the virtual phone, driven through the real adb server.

The app is made the default SMS app with `cmd role add-role-holder` (without
the role it asks for it, as on Android 10+), messages are seeded with
`content insert` into the phone's SMS provider, and results are read from
the screen, the providers and the events read off the listener's socket.
"""

from __future__ import annotations

import datetime as dt

import pytest
from adb_ui import AdbUI, EventSink
from test_contacts_app import _subsequence, add_contact
from test_ui_dump import REAL_ATTRIBUTE_ORDER

PKG = "com.simplemobiletools.smsmessenger"
PROVIDERS = ("com.android.providers.telephony", "com.android.providers.blockednumber",
             "com.android.providers.contacts")
ROLE = "android.app.role.SMS"


@pytest.fixture
def ui(adb_device, phone):
    """Messenger and its providers cleared, without the SMS role; the role as it was afterwards (the
    session phone's other tests open Messenger as the default SMS app it is at boot)."""
    ui = AdbUI(adb_device, phone, PKG)
    held = PKG in ui.sh(f"cmd role get-role-holders {ROLE}").split()
    ui.sh(f"am force-stop {PKG}")
    for package in (PKG, *PROVIDERS):
        ui.sh(f"pm clear {package}")
    ui.sh(f"cmd role remove-role-holder {ROLE} {PKG}")
    yield ui
    ui.sh(f"am force-stop {PKG}")
    ui.sh(f"cmd role {'add' if held else 'remove'}-role-holder {ROLE} {PKG}")
    ui.close()


def launch(ui: AdbUI, *, default: bool = True) -> AdbUI:
    if default:
        assert ui.sh2(f"cmd role add-role-holder {ROLE} {PKG}") == (0, "")
    ui.sh(f"monkey -p {PKG} -c android.intent.category.LAUNCHER 1")
    return ui


def seed_message(ui: AdbUI, number: str = "123456789", body: str = "i luv u", box: str = "sent") -> None:
    ui.sh(f"content insert --uri content://sms/{box} --bind address:s:{number} --bind 'body:s:{body}'")


# -- the default SMS app ------------------------------------------------------------------------------

def test_without_the_sms_role_the_app_asks_for_it(ui):
    launch(ui, default=False)
    assert ui.texts("dialog_title_textview") == ["Set SMS Messenger as your default SMS app?"]
    ui.tap(text="Cancel")                           # declined: the app closes
    assert not ui.activity().endswith(".MainActivity")
    assert ui.sh(f"cmd role get-role-holders {ROLE}").strip() == ""
    launch(ui, default=False).tap(text="Set as default")
    assert ui.sh(f"cmd role get-role-holders {ROLE}").strip() == PKG
    assert ui.texts("no_conversations_placeholder") == ["No stored conversations have been found"]


# -- conversations -------------------------------------------------------------------------------------

def test_conversations_show_names_of_known_numbers_and_search_finds_them(ui):
    add_contact(ui, "Alice", "111111")
    seed_message(ui, "111111", "Hello", box="inbox")
    seed_message(ui, "123456789", "i luv u")
    launch(ui)
    assert ui.texts("conversation_address") == ["123456789", "Alice"]   # newest first (same time: higher id)
    assert ui.texts("conversation_body_short") == ["i luv u", "Hello"]
    ui.type("luv", id="top_toolbar_search")
    assert ui.texts("search_result_title") == ["123456789"] and ui.texts("search_result_snippet") == ["i luv u"]
    ui.key("BACK")  # the first BACK hides the keyboard
    ui.tap(text="Alice")  # under the results list: the list takes the tap (RecyclerView.onTouchEvent)
    assert ui.activity().endswith(".MainActivity") and ui.has(id="search_holder")
    ui.key("BACK")
    assert not ui.has(id="search_holder") and ui.activity().endswith(".MainActivity")


def test_new_conversation_sends_and_stores_the_message(ui):
    launch(ui).tap(id="conversations_fab")
    assert ui.activity().endswith(".NewConversationActivity")
    assert not ui.has(id="new_conversation_confirm")          # shown once more than two characters are typed
    ui.type("12", id="new_conversation_address")
    assert not ui.has(id="new_conversation_confirm")
    ui.type("3456789").tap(id="new_conversation_confirm")
    assert ui.activity().endswith(".ThreadActivity")
    ui.tap(id="thread_send_message")                          # empty: nothing is sent
    assert "No result found." in ui.sh("content query --uri content://sms")
    ui.type("i luv u", id="thread_type_message").tap(id="thread_send_message")
    assert ui.texts("thread_message_body") == ["i luv u"]
    assert ui.texts("thread_type_message") == ["Type a message…"]
    rows = ui.sh("content query --uri content://sms/sent --projection address:body:type")
    assert rows.strip() == "Row: 0 address=123456789, body=i luv u, type=2"
    ui.key("BACK")                                            # the first BACK hides the keyboard
    ui.key("BACK")                                            # back to New conversation: it was not finished
    assert ui.activity().endswith(".NewConversationActivity")
    ui.key("BACK")                                            # its keyboard (stateAlwaysVisible) is up again
    ui.key("BACK")
    assert ui.activity().endswith(".MainActivity") and ui.texts("conversation_address") == ["123456789"]


def test_message_properties_dialog_and_its_window_event(ui):
    seed_message(ui)
    launch(ui).tap(text="123456789")
    sink = EventSink(ui.device)
    try:
        ui.long_press(text="i luv u")
        assert ui.one(id="actionbar_title")["text"] == "1 / 1"   # Commons' selection count: selected / all
        ui.tap(desc="More options").tap(id="title", text="Properties")
        event = sink.wait_for(lambda e: e["type"] == "window_state" and e["text"][:1] == ["Message details"])
    finally:
        sink.close()
    # sent when the provider stamped it: the phone's clock at the insert (it moves: kernel/clock.py)
    stamp = int(ui.sh("content query --uri content://sms --projection date").split("date=")[1].split()[0])
    sent = dt.datetime.fromtimestamp(stamp / 1000, dt.timezone.utc)
    sent_at = f"{sent:%d.%m.%Y} {sent.hour % 12 or 12}:{sent:%M} {sent:%p}"  # dd.MM.yyyy h:mm a
    assert sent_at.startswith("01.05.2024 ")
    assert event["text"] == ["Message details", "Receiver", "123456789", "Sent at", sent_at, "OK"]
    assert ui.texts("property_value") == ["123456789", sent_at]
    ui.key("BACK")
    assert not ui.has(id="properties_holder") and ui.activity().endswith(".ThreadActivity")


def test_archive_with_confirmation_and_the_archive_screen(ui):
    seed_message(ui)
    launch(ui).long_press(text="123456789")
    ui.tap(desc="More options").tap(id="title", text="Archive")   # no slot left beside three `always` icons
    assert ui.texts("message") == ["Are you sure you want to archive 1 conversation?"]
    ui.tap(text="No")
    assert ui.texts("conversation_address") == ["123456789"]
    ui.tap(desc="More options").tap(id="title", text="Archive").tap(text="Yes")
    assert ui.texts("no_conversations_placeholder") == ["No stored conversations have been found"]
    assert "archived=1" in ui.sh("content query --uri content://mms-sms/conversations --projection _id:archived")
    ui.tap(desc="More options").tap(id="title", text="Show archived conversations")
    assert ui.activity().endswith(".ArchivedConversationsActivity") and ui.has(text="Archive")
    assert ui.texts("conversation_address") == ["123456789"]
    ui.long_press(text="123456789").tap(desc="Delete").tap(text="Yes")
    assert ui.texts("no_conversations_placeholder") == ["No archived conversations have been found"]
    assert "No result found." in ui.sh("content query --uri content://sms")


# -- settings ------------------------------------------------------------------------------------------------

def test_font_size_and_blocked_numbers(ui):
    launch(ui).tap(desc="Settings")
    assert ui.texts("settings_font_size") == ["Medium"]
    ui.tap(id="settings_font_size_holder").tap(text="Large")
    assert ui.texts("settings_font_size") == ["Large"]
    ui.tap(text="Manage blocked numbers")
    # Commons b72ded2a75 draws the screen with Compose: no resource-ids, texts and descriptions only
    screen = ui.nodes()
    assert not any(n["resource-id"].startswith(PKG + ":id/") and not n["resource-id"].endswith("action_bar_root")
                   for n in screen)
    assert ui.has(text="You are not blocking anyone.") and ui.has(text="Block messages from hidden numbers")
    assert ui.one(text="Manage blocked numbers")["class"] == "android.widget.TextView"
    ui.tap(desc="Add a blocked number").tap(text="OK")                 # empty: nothing added
    assert ui.has(text="You are not blocking anyone.")
    ui.tap(desc="Add a blocked number").type("123456789")               # the dialog's field has the focus
    ui.key("BACK")                                                      # the keyboard takes the first BACK
    ui.key("BACK")                                                      # BACK mid-dialog: nothing added
    assert ui.has(text="You are not blocking anyone.")
    ui.tap(desc="Add a blocked number").type("123456789").tap(text="OK")
    assert ui.has(text="123456789") and not ui.has(text="You are not blocking anyone.")
    assert "original_number=123456789" in ui.sh("content query --uri content://com.android.blockednumber/blocked")
    ui.tap(text="Block messages from not stored contacts")
    assert [n["checked"] for n in ui.all(cls="android.widget.CheckBox")] == ["true", "false"]
    ui.tap(text="123456789").replace("55*", cls="android.widget.EditText").tap(text="OK")   # a tap edits it
    assert ui.has(text="55*") and not ui.has(text="123456789")


def test_settings_of_the_release_and_its_export_dialog(ui):
    launch(ui).tap(desc="Settings")
    assert ui.text("settings_language") == "English"                    # Android 13+: the app's language row
    assert ui.has(id="settings_manage_blocked_keywords")
    ui.tap(id="settings_change_date_time_format_holder")
    assert ui.one(id="change_date_time_dialog_radio_one")["checked"] == "true"
    ui.tap(text="Cancel")
    for _ in range(3):                                                   # to the Migrating section
        ui.swipe(540, 1800, 540, 600)
    ui.tap(text="Export messages")
    assert ui.texts("dialog_title_textview") == ["Export messages"]
    assert ui.text("export_messages_filename").startswith("Messages_")
    assert [ui.one(id=i)["checked"] for i in ("export_sms_checkbox", "export_mms_checkbox")] == ["true", "true"]


def test_conversation_details_renames_the_conversation(ui):
    seed_message(ui, "123456789", "Hey", box="inbox")
    launch(ui).tap(text="123456789").tap(desc="More options").tap(text="Conversation details")
    assert ui.activity().endswith(".ConversationDetailsActivity")
    # MaterialSectionLabelStyle's textAllCaps (Commons styles.xml): the node's text is the transformed
    # text, upper case, as in the recorded 5.x screens (DroidTask messenger states)
    assert ui.texts("conversation_name_heading") == ["CONVERSATION NAME"]
    assert ui.texts("members_heading") == ["MEMBERS"]
    assert ui.texts("item_contact_number") == ["123456789"]
    ui.tap(id="conversation_name")
    assert ui.texts("dialog_title_textview") == ["Rename conversation"]
    ui.type("Family").key("BACK").tap(text="OK")                       # the keyboard takes the first BACK
    assert ui.texts("conversation_name") == ["Family"]
    ui.key("BACK")
    assert ui.one(id="thread_toolbar", cls="android.view.ViewGroup") and ui.has(text="Family")
    ui.key("BACK")
    assert ui.texts("conversation_address") == ["Family"]


def test_the_attachment_picker_stands_in_for_the_keyboard(ui):
    seed_message(ui, "123456789", "Hey", box="inbox")
    launch(ui).tap(text="123456789").tap(desc="Attachment")
    assert ui.texts("choose_photo_text") == ["Choose photo"] and ui.has(id="schedule_message")
    ui.tap(id="thread_type_message")                                     # the keyboard shows: the picker hides
    assert not ui.has(id="attachment_picker_holder")
    ui.key("BACK")                                                       # the keyboard hides: the picker returns
    assert ui.has(id="attachment_picker_holder")
    ui.key("BACK")                                                       # BACK hides the picker first
    assert not ui.has(id="attachment_picker_holder") and ui.activity().endswith(".ThreadActivity")


# -- fidelity against the recorded screens ----------------------------------------------------------------------

#: (class, resource-id) of the recorded conversation list (DroidTask, messenger state 2023-07-02_115526), in order
RECORDED_MAIN = [
    ("android.widget.LinearLayout", "main_menu"), ("android.widget.LinearLayout", "top_app_bar_layout"),
    ("android.widget.RelativeLayout", "top_toolbar_holder"), ("android.widget.ImageView", "top_toolbar_search_icon"),
    ("android.widget.EditText", "top_toolbar_search"), ("android.view.ViewGroup", "top_toolbar"),
    ("android.widget.Button", "settings"), ("android.widget.Button", "about"),
    ("android.widget.RelativeLayout", "main_nested_scrollview"), ("android.view.ViewGroup", "main_coordinator_wrapper"),
    ("android.widget.RelativeLayout", "main_holder"), ("android.widget.RelativeLayout", "conversations_fastscroller"),
    ("androidx.recyclerview.widget.RecyclerView", "conversations_list"),
    ("android.widget.FrameLayout", "conversation_frame"), ("android.widget.RelativeLayout", "conversation_holder"),
    ("android.widget.ImageView", "conversation_image"), ("android.widget.RelativeLayout", "pin_indicator_l"),
    ("android.widget.TextView", "conversation_address"), ("android.widget.TextView", "conversation_body_short"),
    ("android.widget.TextView", "conversation_date"), ("android.widget.ImageButton", "conversations_fab"),
]
#: the recorded thread (state 2023-07-02_120952)
RECORDED_THREAD = [
    ("android.view.ViewGroup", "thread_coordinator"), ("android.view.ViewGroup", "thread_toolbar"),
    ("android.widget.Button", "delete"), ("android.widget.Button", "dial_number"),
    ("android.widget.Button", "manage_people"), ("android.view.ViewGroup", "thread_holder"),
    ("android.widget.RelativeLayout", "thread_messages_fastscroller"),
    ("androidx.recyclerview.widget.RecyclerView", "thread_messages_list"),
    ("android.widget.RelativeLayout", "thread_date_time_holder"), ("android.widget.TextView", "thread_date_time"),
    ("android.view.ViewGroup", "thread_message_holder"), ("android.widget.RelativeLayout", "thread_message_wrapper"),
    ("android.widget.TextView", "thread_message_body"), ("android.widget.ImageView", "thread_success"),
    # 5.19.3 includes layout_thread_send_message_holder as message_holder (the recording's 2023 release:
    # thread_send_message_holder), a ConstraintLayout: dumps give its accessibility class name, ViewGroup
    ("android.view.ViewGroup", "message_holder"),
    ("android.widget.ImageView", "thread_add_attachment"),
    ("android.widget.EditText", "thread_type_message"), ("android.widget.Button", "thread_send_message"),
]


def test_dump_matches_the_recorded_screens(ui):
    seed_message(ui, "222222", "Hey")   # the recorded thread shows a sent message
    launch(ui)
    nodes = ui.nodes()
    assert all(tuple(n) == REAL_ATTRIBUTE_ORDER for n in nodes)
    assert _subsequence(RECORDED_MAIN, nodes) == []
    assert ui.one(id="conversation_frame")["long-clickable"] == "true"
    ui.tap(text="222222")
    assert _subsequence(RECORDED_THREAD, ui.nodes()) == []
    send = ui.one(id="thread_send_message")
    assert (send["text"], send["content-desc"]) == ("SMS", "OK")
    assert ui.one(id="thread_type_message")["text"] == "Type a message…"


def test_add_person_shows_the_participants_panel(ui):
    seed_message(ui, "123456789", "Hey", box="inbox")
    launch(ui).tap(text="123456789").tap(desc="Add Person")
    assert ui.texts("selected_contact_name") == ["123456789"]            # the participant, not removable
    assert "mInputShown=true" in ui.sh("dumpsys input_method")           # the field takes the keyboard
    assert not ui.has(id="confirm_inserted_number")                     # shown past two characters
    ui.type("5550123", id="add_contact_or_number").tap(desc="Confirm selection")
    assert ui.texts("selected_contact_name") == ["123456789", "5550123"]
    assert ui.texts("add_contact_or_number") == ["Add Contact or Number…"]
    ui.key("BACK")                                                       # the keyboard takes the first BACK
    ui.tap(id="confirm_manage_contacts")
    assert not ui.has(id="thread_add_contacts")


# -- the release's settings rows and the screens other apps draw for it --------------------------------

def test_customize_notifications_opens_the_settings_page_of_the_app(ui):
    """Settings' AppNotificationSettings page shows and changes the app's POST_NOTIFICATIONS grant
    (Android 13+: NotificationManagerService.areNotificationsEnabledForPackage is
    PermissionHelper.hasPermission; setNotificationsEnabledForPackage grants or revokes it), the state
    `pm grant` / `pm revoke` change and `dumpsys package` reports."""
    permission = "android.permission.POST_NOTIFICATIONS"

    def granted() -> bool:
        line = next(l for l in ui.sh(f"dumpsys package {PKG}").splitlines() if f"{permission}:" in l)
        return "granted=true" in line

    launch(ui).tap(desc="Settings").tap(text="Customize notifications")
    # launchCustomizeNotificationsIntent: Settings' page, in the app's task
    assert ui.activity() == "com.android.settings/com.android.settings.Settings$AppNotificationSettingsActivity"
    assert ui.texts("com.android.settings:id/switch_text") == ["All SMS Messenger notifications"]
    # 5.19.3 targets API 34 and never asks for POST_NOTIFICATIONS: off after `pm clear`
    assert ui.one(id="android:id/switch_widget")["checked"] == "false" and not granted()
    ui.tap(id="com.android.settings:id/switch_text")            # allows the app's notifications
    assert ui.one(id="android:id/switch_widget")["checked"] == "true" and granted()
    ui.key("BACK")
    assert ui.activity().endswith(".SettingsActivity")
    ui.sh(f"pm revoke {PKG} {permission}")
    ui.tap(text="Customize notifications")
    assert ui.one(id="android:id/switch_widget")["checked"] == "false"   # what pm revoke left
    ui.tap(id="com.android.settings:id/switch_text")
    assert ui.one(id="android:id/switch_widget")["checked"] == "true" and granted()
    ui.tap(id="com.android.settings:id/switch_text")
    assert ui.one(id="android:id/switch_widget")["checked"] == "false" and not granted()
    ui.key("BACK")
    assert ui.activity().endswith(".SettingsActivity")


def test_lock_screen_visibility_is_picked_from_its_dialog(ui):
    launch(ui).tap(desc="Settings")
    ui.swipe(540, 1800, 540, 1000)
    assert ui.texts("settings_lock_screen_visibility") == ["Sender and message"]
    ui.tap(id="settings_lock_screen_visibility_holder")
    radios = ui.all(cls="android.widget.RadioButton")
    assert [r["text"] for r in radios] == ["Sender and message", "Sender only", "Nothing"]
    assert [r["checked"] for r in radios] == ["true", "false", "false"]
    ui.tap(text="Nothing")
    assert ui.texts("settings_lock_screen_visibility") == ["Nothing"]


def test_a_conversation_member_opens_in_the_contacts_app(ui):
    contacts = "com.simplemobiletools.contacts.pro"
    ui.sh(f"pm grant {contacts} android.permission.READ_CONTACTS")
    add_contact(ui, "Bob", "222222")
    seed_message(ui, "222222", "Hey", box="inbox")
    seed_message(ui, "123456789", "Hi", box="inbox")
    launch(ui).tap(text="Bob").tap(desc="More options").tap(text="Conversation details")
    ui.tap(id="item_contact_name", text="Bob")      # QUICK_CONTACT of the contact's lookup URI
    assert ui.activity() == f"{contacts}/{contacts}.activities.ViewContactActivity"
    assert ui.texts(f"{contacts}:id/contact_name") == ["Bob"]
    ui.key("BACK")
    assert ui.activity().endswith(".ConversationDetailsActivity")
    ui.key("BACK")
    ui.key("BACK")
    ui.tap(text="123456789").tap(desc="More options").tap(text="Conversation details")
    ui.tap(id="item_contact_number", text="123456789")         # no contact has the number: nothing opens
    assert ui.activity().endswith(".ConversationDetailsActivity")


def test_attachment_buttons_open_the_system_picker_and_camera(ui):
    seed_message(ui, "123456789", "Hey", box="inbox")
    launch(ui).tap(text="123456789").tap(desc="Attachment").tap(id="choose_photo")
    # launchGetContentIntent: GET_CONTENT of */* with EXTRA_MIME_TYPES image/*, DocumentsUI's picker
    assert ui.activity() == "com.google.android.documentsui/com.android.documentsui.picker.PickActivity"
    assert ui.texts("com.google.android.documentsui:id/header_title") == ["RECENT IMAGES"]
    ui.key("BACK")                                                       # cancelled: back in the thread
    assert ui.activity().endswith(".ThreadActivity") and ui.has(id="attachment_picker_holder")  # still open
    ui.tap(id="take_photo")                                              # MediaStore.ACTION_IMAGE_CAPTURE
    assert ui.activity() == "com.android.camera2/com.android.camera.CaptureActivity"
    ui.key("BACK")
    assert ui.activity().endswith(".ThreadActivity")
