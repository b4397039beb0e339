"""Simple Contacts Pro on the virtual phone, driven through the real adb server.

Contacts are seeded with `content insert` into the phone's contacts provider
(as the tasks do), the app is driven by dump + tap / type / back, and the
results are read back from the screen, the provider (`content query`) and
the accessibility events read off the listener's socket.
"""

from __future__ import annotations

import re

import pytest
from adb_ui import AdbUI, EventSink
from test_ui_dump import REAL_ATTRIBUTE_ORDER

PKG = "com.simplemobiletools.contacts.pro"
PROVIDER = "com.android.providers.contacts"
URI = "content://com.android.contacts"


def add_contact(ui: AdbUI, name: str, number: str, email: str | None = None) -> None:
    ui.sh(f"content insert --uri {URI}/raw_contacts --bind account_name:n: --bind account_type:n:")
    raw = re.findall(r"_id=(\d+)", ui.sh(f"content query --uri {URI}/raw_contacts --projection _id --sort '_id DESC'"))[0]
    mime = "vnd.android.cursor.item"
    ui.sh(f"content insert --uri {URI}/data --bind raw_contact_id:i:{raw} --bind mimetype:s:{mime}/name "
          f"--bind 'data1:s:{name}'")
    ui.sh(f"content insert --uri {URI}/data --bind raw_contact_id:i:{raw} --bind mimetype:s:{mime}/phone_v2 "
          f"--bind data1:s:{number} --bind data2:i:2")
    if email:
        ui.sh(f"content insert --uri {URI}/data --bind raw_contact_id:i:{raw} --bind mimetype:s:{mime}/email_v2 "
              f"--bind data1:s:{email} --bind data2:i:1")


def contacts(ui: AdbUI) -> str:
    return ui.sh(f"content query --uri {URI}/contacts --projection display_name:starred:has_phone_number")


@pytest.fixture
def ui(adb_device, phone):
    ui = AdbUI(adb_device, phone, PKG)
    ui.sh(f"am force-stop {PKG}")
    ui.sh(f"pm clear {PKG}")
    ui.sh(f"pm clear {PROVIDER}")
    for permission in ("READ_CONTACTS", "WRITE_CONTACTS"):   # what the tasks' reset grants
        ui.sh(f"pm grant {PKG} android.permission.{permission}")
    yield ui
    ui.close()


def launch(ui: AdbUI) -> AdbUI:
    ui.sh(f"monkey -p {PKG} -c android.intent.category.LAUNCHER 1")
    return ui


# -- the main screen -------------------------------------------------------------------------------

def test_without_the_contacts_permission_the_app_asks_for_it(ui):
    add_contact(ui, "Yuzai", "123456789")
    ui.sh(f"pm revoke {PKG} android.permission.READ_CONTACTS")
    launch(ui)
    assert ui.texts("com.android.permissioncontroller:id/permission_message") == [
        "Allow Contacts to access your contacts?"]
    ui.tap(text="Deny")                                   # refused: the phone's contacts stay hidden
    assert ui.texts("fragment_placeholder") == ["No contacts found"]
    ui.sh(f"am force-stop {PKG}")
    launch(ui).tap(text="Allow")
    assert ui.texts("item_contact_name") == ["Yuzai"]


def test_empty_address_book_offers_to_change_the_filter(ui):
    launch(ui)
    assert ui.activity().endswith(".MainActivity")
    assert ui.texts("fragment_placeholder") == ["No contacts found"]
    ui.tap(text="Change filter")
    assert ui.texts("filter_contact_source_checkbox") == ["Phone storage (0)",
                                                          "Phone storage (not visible by other apps) (0)"]
    ui.key("BACK")  # BACK mid-dialog cancels it
    assert not ui.has(id="filter_contact_sources_list")


def test_seeded_contacts_are_listed_sorted_and_searchable(ui):
    for name in ("Yuzai", "Zack", "Amy"):
        add_contact(ui, name, "123456789")
    launch(ui)
    assert ui.texts("item_contact_name") == ["Amy", "Yuzai", "Zack"]   # first name, ascending
    ui.type("zAC", id="top_toolbar_search")
    assert ui.texts("item_contact_name") == ["Zack"]
    ui.key("BACK")                                                     # the first BACK hides the keyboard
    ui.key("BACK")                                                     # BACK clears the search first
    assert ui.texts("item_contact_name") == ["Amy", "Yuzai", "Zack"]
    assert ui.activity().endswith(".MainActivity")
    ui.tap(desc="Sort by").tap(id="sorting_dialog_radio_date_created").tap(id="sorting_dialog_radio_descending")
    ui.tap(id="android:id/button2")                                    # Cancel keeps the order
    assert ui.texts("item_contact_name") == ["Amy", "Yuzai", "Zack"]
    ui.tap(desc="Sort by").tap(id="sorting_dialog_radio_date_created").tap(id="sorting_dialog_radio_descending")
    ui.tap(id="android:id/button1")
    assert ui.texts("item_contact_name") == ["Amy", "Zack", "Yuzai"]   # newest first


def test_filter_hides_phone_storage_and_keeps_the_contacts(ui):
    add_contact(ui, "Yuzai", "123456789")
    launch(ui)
    sink = EventSink(ui.device)
    try:
        ui.tap(desc="Filter").tap(text="Phone storage (1)")
        sink.wait_for(lambda e: e["type"] == "click" and e["text"] == ["Phone storage (1)"]
                      and e["id"] == f"{PKG}:id/filter_contact_source_holder")
        assert ui.one(text="Phone storage (1)")["checked"] == "false"
        ui.tap(id="android:id/button1")
    finally:
        sink.close()
    assert ui.texts("fragment_placeholder") == ["No contacts found"] and ui.has(text="Change filter")
    assert "display_name=Yuzai" in contacts(ui)


def test_tabs_and_dialpad_setting(ui):
    launch(ui)
    assert ui.has(id="main_dialpad_button", desc="Dialpad")
    ui.tap(text="Favorites")
    assert ui.texts("fragment_placeholder") == ["Seems like you haven't added any favorite contacts yet."]
    ui.tap(desc="More options").tap(id="title", text="Settings")
    assert ui.activity().endswith(".SettingsActivity")
    ui.sh("input swipe 540 1800 540 600 300")
    ui.tap(id="settings_show_dialpad_button_holder")
    assert ui.one(id="settings_show_dialpad_button")["checked"] == "false"
    ui.key("BACK")
    assert ui.activity().endswith(".MainActivity") and not ui.has(id="main_dialpad_button")
    assert ui.texts("tab_item_label") == ["Contacts", "Favorites", "Groups"]


# -- create, view, edit, delete -----------------------------------------------------------------------

def test_new_contact_form_rejects_an_empty_contact_and_saves_a_filled_one(ui):
    launch(ui).tap(id="fragment_fab")
    assert ui.activity().endswith(".EditContactActivity")
    ui.tap(desc="Save")                                    # nothing filled in: refused (a toast), form stays
    assert ui.activity().endswith(".EditContactActivity")
    assert "No result found." in contacts(ui)
    ui.type("Yuzai", id="contact_first_name").type("123456789", id="contact_number")
    ui.tap(id="contact_number_type").tap(text="Work")       # the type dialog
    assert ui.texts("contact_number_type") == ["Work"]
    ui.tap(desc="Save")
    assert ui.activity().endswith(".MainActivity") and ui.texts("item_contact_name") == ["Yuzai"]
    assert "display_name=Yuzai, starred=0, has_phone_number=1" in contacts(ui)
    phones = ui.sh(f"content query --uri {URI}/data/phones --projection data1:data2")
    assert "data1=123456789, data2=3" in phones            # TYPE_WORK


def test_back_from_a_changed_form_asks_to_save_or_discard(ui):
    launch(ui).tap(id="fragment_fab").key("BACK")          # nothing typed: BACK just closes the form
    assert ui.activity().endswith(".MainActivity")
    ui.tap(id="fragment_fab").type("Yuzai", id="contact_first_name").key("BACK")  # hides the keyboard
    ui.key("BACK")
    assert ui.texts("message") == ["You have unsaved changes. Save before exit?"]
    ui.tap(text="Discard")
    assert ui.activity().endswith(".MainActivity") and "No result found." in contacts(ui)
    ui.tap(id="fragment_fab").type("Yuzai", id="contact_first_name").key("BACK").key("BACK").tap(text="Save")
    assert ui.texts("item_contact_name") == ["Yuzai"] and "display_name=Yuzai" in contacts(ui)


def test_details_favourite_edit_and_delete(ui):
    add_contact(ui, "Yuzai", "123456789", email="yuzai@gmail.com")
    launch(ui).tap(text="Yuzai")
    assert ui.activity().endswith(".ViewContactActivity")
    assert ui.texts("contact_name") == ["Yuzai"] and ui.texts("contact_number") == ["123456789"]
    assert ui.texts("contact_email") == ["yuzai@gmail.com"] and ui.texts("contact_source") == ["Phone storage"]
    sink = EventSink(ui.device)
    try:
        ui.tap(id="contact_toggle_favorite")
        sink.wait_for(lambda e: e["type"] == "click" and e["id"] == f"{PKG}:id/contact_toggle_favorite")
    finally:
        sink.close()
    assert "starred=1" in contacts(ui)
    ui.tap(desc="Edit contact").replace("987654321", id="contact_number").tap(desc="Save")
    assert ui.activity().endswith(".ViewContactActivity") and ui.texts("contact_number") == ["987654321"]
    ui.tap(desc="Delete")
    assert ui.texts("message") == ["Are you sure you want to proceed with the deletion?"]
    ui.tap(id="android:id/button2")                        # No
    assert "display_name=Yuzai" in contacts(ui)
    ui.tap(desc="Delete").tap(id="android:id/button1")     # Yes
    assert ui.activity().endswith(".MainActivity") and not ui.has(text="Yuzai")
    assert "No result found." in contacts(ui)


def test_hidden_emails_leave_the_profile_and_cancel_keeps_them(ui):
    add_contact(ui, "Yuzai", "123456789", email="yuzai@gmail.com")
    launch(ui).tap(text="Yuzai")
    ui.tap(desc="More options").tap(id="title", text="Manage shown contact fields")
    ui.tap(id="manage_visible_fields_emails").tap(id="android:id/button2")   # Cancel
    assert ui.texts("contact_email") == ["yuzai@gmail.com"]
    ui.tap(desc="More options").tap(id="title", text="Manage shown contact fields")
    assert ui.one(id="manage_visible_fields_emails")["checked"] == "true"
    ui.tap(id="manage_visible_fields_emails").tap(id="android:id/button1")   # OK
    assert not ui.has(id="contact_email")
    assert "yuzai@gmail.com" in ui.sh(f"content query --uri {URI}/data/emails --projection data1")


# -- fidelity against the recorded screens --------------------------------------------------------------

#: (class, resource-id) of the recorded main screen (DroidTask, contacts state 2023-07-02_142525), in order,
#: where the pinned release keeps it
RECORDED_MAIN = [
    ("android.view.ViewGroup", "main_coordinator"), ("android.widget.LinearLayout", "main_menu"),
    ("android.widget.LinearLayout", "top_app_bar_layout"), ("android.widget.RelativeLayout", "top_toolbar_holder"),
    ("android.widget.ImageView", "top_toolbar_search_icon"), ("android.widget.EditText", "top_toolbar_search"),
    ("android.view.ViewGroup", "top_toolbar"), ("android.widget.Button", "sort"), ("android.widget.Button", "filter"),
    ("android.view.ViewGroup", "main_holder"), ("android.view.ViewGroup", "contacts_fragment"),
    ("android.widget.RelativeLayout", "fragment_wrapper"), ("androidx.recyclerview.widget.RecyclerView", "fragment_list"),
    # the row as the pinned 6.22.7 has it (Commons 73d78e5cd3 item_contact_without_number.xml: a ConstraintLayout
    # with image and name as children), which reports ViewGroup (ConstraintLayout has no override of
    # getAccessibilityClassName); the 2023 recording shows a FrameLayout around item_contact_holder
    ("android.view.ViewGroup", "item_contact_frame"),
    ("android.widget.ImageView", "item_contact_image"), ("android.widget.TextView", "item_contact_name"),
    ("android.widget.LinearLayout", "letter_fastscroller"), ("android.widget.ImageButton", "fragment_fab"),
    ("android.widget.ImageView", "main_dialpad_button"), ("android.widget.HorizontalScrollView", "main_tabs_holder"),
    ("android.widget.LinearLayout", "tab_item_holder"), ("android.widget.ImageView", "tab_item_icon"),
    ("android.widget.TextView", "tab_item_label"),
]
#: the recorded contact details screen (state 2023-07-02_150318)
RECORDED_DETAILS = [
    ("android.widget.RelativeLayout", "contact_wrapper"), ("android.widget.ScrollView", "contact_scrollview"),
    ("android.widget.ImageView", "contact_photo"), ("android.widget.ImageView", "contact_toggle_favorite"),
    ("android.widget.LinearLayout", "contact_actions_holder"), ("android.widget.ImageView", "contact_start_call"),
    ("android.widget.ImageView", "contact_send_sms"), ("android.widget.ImageView", "contact_name_image"),
    ("android.widget.TextView", "contact_name"), ("android.widget.LinearLayout", "contact_numbers_holder"),
    ("android.widget.RelativeLayout", "contact_number_holder"), ("android.widget.TextView", "contact_number"),
    ("android.widget.TextView", "contact_number_type"), ("android.widget.TextView", "contact_source"),
    ("android.widget.LinearLayout", "contact_appbar"), ("android.view.ViewGroup", "contact_toolbar"),
    ("android.widget.Button", "edit"), ("android.widget.Button", "share"), ("android.widget.Button", "delete"),
]


def _subsequence(wanted: list[tuple[str, str]], nodes: list[dict]) -> list[tuple[str, str]]:
    """The entries of `wanted` missing from `nodes` in that order (empty when all appear in order)."""
    seen = iter([(n["class"], n["resource-id"].split("/")[-1]) for n in nodes if n["resource-id"]])
    return [entry for entry in wanted if entry not in seen]


def test_dump_matches_the_recorded_screens(ui):
    add_contact(ui, "Bob", "222222")
    launch(ui)
    nodes = ui.nodes()
    assert all(tuple(n) == REAL_ATTRIBUTE_ORDER for n in nodes)
    assert all(n["package"] == PKG for n in nodes if n["resource-id"].startswith(PKG))
    assert _subsequence(RECORDED_MAIN, nodes) == []
    assert ui.one(desc="Create new contact")["resource-id"] == f"{PKG}:id/fragment_fab"
    assert ui.one(id="item_contact_frame")["long-clickable"] == "true"
    ui.tap(text="Bob")
    assert _subsequence(RECORDED_DETAILS, ui.nodes()) == []
    assert ui.one(id="contact_toggle_favorite")["content-desc"] == "Toggle favorite"


def test_long_press_starts_the_selection_and_delete_asks_first(ui):
    """ContactsAdapter's action mode: "1 / 2", Edit / Add to favorites / Add to group as icons, the rest
    under More options; Delete confirms with the contact's name (askConfirmDelete)."""
    add_contact(ui, "Ada Lovelace", "111")
    add_contact(ui, "Alan Turing", "222")
    launch(ui).long_press(text="Ada Lovelace")
    assert ui.text("actionbar_title") == "1 / 2"
    assert [n["content-desc"] for n in ui.all(cls="android.widget.Button") if n["content-desc"]] == [
        "Edit contact", "Add to favorites", "Add to group"]
    ui.tap(text="Alan Turing")
    assert ui.text("actionbar_title") == "2 / 2" and not ui.has(desc="Edit contact")
    ui.tap(text="Alan Turing")
    ui.tap(desc="More options").tap(id="title", text="Delete")
    assert ui.texts("message") == ['Are you sure you want to delete "Ada Lovelace"?']
    ui.tap(text="Yes")
    assert not ui.has(id="actionbar_title")
    assert "Ada Lovelace" not in contacts(ui) and "Alan Turing" in contacts(ui)


# -- groups, favourites, settings and export as 6.22.7 has them ------------------------------------------

def test_groups_are_created_listed_and_filled(ui):
    """GroupsFragment, CreateNewGroupDialog, GroupContactsActivity and SelectContactsDialog (6.22.7)."""
    add_contact(ui, "Alice", "111111")
    add_contact(ui, "Bob", "222222")
    launch(ui).tap(id="tab_item_label", text="Groups")
    assert ui.texts("fragment_placeholder") == ["There are no contact groups on the device"]
    ui.tap(id="fragment_placeholder_2", text="Create group")
    assert ui.text("dialog_title_textview") == "Create a new group"
    ui.key("BACK")                                          # the first BACK hides the keyboard
    ui.tap(id="android:id/button1")                         # an empty name keeps the dialog open
    assert ui.has(id="group_name")
    ui.type("Classmates", id="group_name").key("BACK").tap(id="android:id/button1")
    assert ui.texts("group_name") == ["Classmates (0)"]      # listed at once (refreshContacts(TAB_GROUPS))
    ui.tap(id="group_name", text="Classmates (0)")
    assert ui.activity().endswith(".GroupContactsActivity")
    assert ui.texts("group_contacts_placeholder") == ["This group is empty"]
    assert [n["content-desc"] for n in ui.all(cls="android.widget.Button") if n["content-desc"]] == [
        "Ringtone", "Send SMS to group", "Send email to group"]
    ui.tap(id="group_contacts_placeholder_2", text="Add contacts")
    assert ui.texts("contact_name") == ["Alice", "Bob"]
    ui.tap(id="contact_name", text="Bob")
    assert [n["checked"] for n in ui.all(id="contact_checkbox")] == ["false", "true"]
    ui.tap(id="android:id/button1")
    assert ui.texts("item_contact_name") == ["Bob"] and not ui.has(id="group_contacts_placeholder")
    ui.key("BACK")
    assert ui.texts("group_name") == ["Classmates (1)"]
    ui.sh(f"am force-stop {PKG}")
    assert launch(ui).has(id="groups_fragment")             # "Tab to open at app start": the last used one


def test_add_favorites_stars_the_checked_contacts(ui):
    add_contact(ui, "Alice", "111111")
    add_contact(ui, "Bob", "222222")
    launch(ui).tap(id="tab_item_label", text="Favorites").tap(id="fragment_placeholder_2", text="Add favorites")
    ui.tap(id="contact_name", text="Alice").tap(id="android:id/button1")
    assert ui.texts("item_contact_name") == ["Alice"]
    assert "display_name=Alice, starred=1" in contacts(ui) and "display_name=Bob, starred=0" in contacts(ui)


def test_settings_shown_tabs_start_tab_and_contact_click(ui):
    add_contact(ui, "Alice", "111111")
    launch(ui).tap(desc="More options").tap(id="title", text="Settings")
    assert ui.text("settings_language") == "English"         # Android 13+ (setupLanguage)
    ui.tap(id="settings_manage_shown_tabs_holder")
    assert ui.texts("manage_visible_tabs_favorites") == ["Favorites"]
    ui.tap(id="manage_visible_tabs_favorites").tap(id="android:id/button1")
    ui.sh("input swipe 540 1800 540 900 300")
    ui.tap(id="settings_default_tab_holder")
    assert [n["text"] for n in ui.all(cls="android.widget.RadioButton")] == [
        "Contacts", "Favorites", "Groups", "Last used one"]
    ui.tap(text="Groups")
    assert ui.text("settings_default_tab") == "Groups"
    ui.tap(id="settings_on_contact_click_holder").tap(text="Edit contact")
    assert ui.text("settings_on_contact_click") == "Edit contact"
    ui.key("BACK")
    assert ui.texts("tab_item_label") == ["Contacts", "Groups"]  # showTabs changed: back on the first page
    ui.sh(f"am force-stop {PKG}")
    launch(ui)
    assert ui.has(id="groups_fragment")
    ui.tap(id="tab_item_label", text="Contacts").tap(id="item_contact_name", text="Alice")
    assert ui.activity().endswith(".EditContactActivity")


def test_export_dialog_names_the_file_and_lists_the_sources(ui):
    add_contact(ui, "Alice", "111111")
    launch(ui).tap(desc="More options").tap(id="title", text="Export contacts to a .vcf file")
    assert ui.text("dialog_title_textview") == "Export contacts"
    assert re.fullmatch(r"contacts_\d{4}_\d\d_\d\d_\d\d_\d\d_\d\d", ui.text("export_contacts_filename"))
    assert ui.texts("filter_contact_source_checkbox") == ["Phone storage (1)",
                                                          "Phone storage (not visible by other apps) (0)"]
    assert not ui.has(id="export_contacts_folder")          # hidePath on Android 10+
    ui.replace("a/b", id="export_contacts_filename").tap(id="android:id/button1")
    assert ui.has(id="export_contacts_filename")            # an invalid name keeps the dialog open


def test_edit_form_picks_and_creates_groups(ui):
    add_contact(ui, "Alice", "111111")
    launch(ui).tap(text="Alice").tap(desc="Edit contact")
    ui.sh("input swipe 540 1800 540 600 300")
    ui.tap(id="contact_group", text="No groups")
    assert ui.texts("item_textview") == ["Create a new group"]
    ui.tap(id="item_textview").type("Family", id="group_name").key("BACK").tap(id="android:id/button1")
    assert ui.one(id="item_checkbox", text="Family")["checked"] == "true"
    ui.tap(id="android:id/button1")
    assert ui.texts("contact_group") == ["Family"] and ui.has(id="contact_group_remove")
    ui.tap(desc="Save")
    assert ui.activity().endswith(".ViewContactActivity") and ui.texts("contact_group") == ["Family"]
    ui.key("BACK")
    ui.tap(id="tab_item_label", text="Groups")
    assert ui.texts("group_name") == ["Family (1)"]


def test_favorites_sorting_offers_custom_which_hides_the_order(ui):
    """ChangeSortingDialog(showCustomSorting) on the Favorites tab only."""
    launch(ui).tap(desc="Sort by")
    assert not ui.has(id="sorting_dialog_radio_custom")
    ui.tap(id="android:id/button2").tap(id="tab_item_label", text="Favorites").tap(desc="Sort by")
    assert ui.has(id="sorting_dialog_radio_ascending")
    ui.tap(id="sorting_dialog_radio_custom", text="Custom")
    assert not ui.has(id="sorting_dialog_radio_ascending") and not ui.has(id="divider")
    ui.tap(id="android:id/button1").tap(desc="Sort by")
    assert ui.one(id="sorting_dialog_radio_custom")["checked"] == "true"


def test_long_press_on_a_group_renames_or_deletes_it(ui):
    """GroupsAdapter's action mode (cab_groups.xml): Rename for one group, Delete confirms with the title."""
    launch(ui).tap(id="tab_item_label", text="Groups")
    for title in ("Family", "Work"):
        ui.tap(id="fragment_fab").type(title, id="group_name").key("BACK").tap(id="android:id/button1")
    ui.long_press(text="Work (0)")
    assert ui.text("actionbar_title") == "1 / 2"
    assert [n["content-desc"] for n in ui.all(cls="android.widget.Button") if n["content-desc"]] == [
        "Rename", "Select all", "Delete"]
    ui.tap(desc="Rename")
    assert ui.text("dialog_title_textview") == "Rename" and ui.text("rename_group_title") == "Work"
    ui.replace("Office", id="rename_group_title").key("BACK").tap(id="android:id/button1")
    assert ui.texts("group_name") == ["Family (0)", "Office (0)"] and not ui.has(id="actionbar_title")
    ui.long_press(text="Family (0)").tap(text="Office (0)")
    assert ui.text("actionbar_title") == "2 / 2" and not ui.has(desc="Rename")
    ui.tap(desc="Delete")
    assert ui.texts("message") == ["Are you sure you want to delete 2 groups?"]
    ui.tap(text="Yes")
    assert ui.texts("fragment_placeholder") == ["There are no contact groups on the device"]


def test_selected_contacts_are_added_to_a_group(ui):
    """ContactsAdapter.addToGroup: the groups and "Create a new group" as a radio list."""
    add_contact(ui, "Alice", "111111")
    add_contact(ui, "Bob", "222222")
    launch(ui).long_press(text="Alice").tap(text="Bob").tap(desc="Add to group")
    assert [n["text"] for n in ui.all(cls="android.widget.RadioButton")] == ["Create a new group"]
    ui.tap(text="Create a new group").type("Team", id="group_name").key("BACK").tap(id="android:id/button1")
    assert not ui.has(id="actionbar_title")
    ui.tap(id="tab_item_label", text="Groups")
    assert ui.texts("group_name") == ["Team (2)"]


def test_a_group_member_is_removed_from_the_group(ui):
    add_contact(ui, "Alice", "111111")
    launch(ui).long_press(text="Alice").tap(desc="Add to group")
    ui.tap(text="Create a new group").type("Team", id="group_name").key("BACK").tap(id="android:id/button1")
    ui.tap(id="tab_item_label", text="Groups").tap(text="Team (1)").long_press(text="Alice")
    assert ui.text("actionbar_title") == "1 / 1"
    ui.tap(desc="More options")
    assert "Remove from group" in ui.texts("title")
    ui.tap(id="title", text="Remove from group")
    assert ui.texts("group_contacts_placeholder") == ["This group is empty"]
    assert "display_name=Alice" in contacts(ui)


def test_automatic_backups_are_set_up_through_their_dialog(ui):
    """setupEnableAutomaticBackups: turning them on asks ManageAutoBackupsDialog first."""
    add_contact(ui, "Alice", "111111")
    launch(ui).tap(desc="More options").tap(id="title", text="Settings")
    for _ in range(3):
        ui.sh("input swipe 540 1800 540 600 300")
    ui.tap(id="settings_enable_automatic_backups_holder")
    assert ui.text("dialog_title_textview") == "Manage automatic backups"
    assert ui.text("backup_contacts_folder") == "Internal/Download"
    assert ui.text("backup_contacts_filename") == "Contacts_%Y%M%D_%h%m%s"
    ui.tap(id="android:id/button2")                               # Cancel: still off
    assert ui.one(id="settings_enable_automatic_backups")["checked"] == "false"
    assert not ui.has(id="settings_manage_automatic_backups")
    ui.tap(id="settings_enable_automatic_backups_holder").tap(id="android:id/button1")
    assert ui.one(id="settings_enable_automatic_backups")["checked"] == "true"
    ui.sh("input swipe 540 1800 540 600 300")
    assert ui.texts("settings_manage_automatic_backups") == ["Manage automatic backups"]
    ui.tap(id="settings_enable_automatic_backups_holder")          # off at once
    assert ui.one(id="settings_enable_automatic_backups")["checked"] == "false"


# -- 6.22.7's pickers: the system's file picker, the editor's date, type, photo and source dialogs ---

def test_import_opens_the_system_file_picker_for_a_vcard(ui):
    launch(ui).tap(desc="More options").tap(id="title", text="Import contacts from a .vcf file")
    assert ui.activity() == "com.google.android.documentsui/com.android.documentsui.picker.PickActivity"
    assert ui.texts("com.google.android.documentsui:id/message") == ["No items"]  # recents hold no vCard
    ui.key("BACK")                                            # cancelled: the app gets nothing
    assert ui.activity() == f"{PKG}/{PKG}.activities.MainActivity"


def test_edit_form_event_date_picker_and_type(ui):
    launch(ui).tap(desc="Create new contact")
    ui.sh("input swipe 540 1800 540 600 300")
    assert ui.texts("contact_event") == ["Unknown"] and ui.texts("contact_event_type") == ["Birthday"]
    ui.tap(id="contact_event")
    assert ui.has(id="date_picker") and ui.has(id="android:id/month_view")
    assert ui.texts("hide_year") == ["Hide year"] and not ui.has(id="dialog_title_textview")
    year = ui.text("android:id/date_picker_header_year")
    ui.tap(desc="Previous month")
    day = ui.one(text="15", cls="android.widget.TextView")
    month_name, shown_year = day["content-desc"].split()[1:]
    ui.tap(text="15", cls="android.widget.TextView")
    assert ui.text("android:id/date_picker_header_date").endswith(f"{month_name[:3]} 15")
    assert int(shown_year) in (int(year), int(year) - 1)
    ui.tap(id="android:id/button1")
    assert ui.texts("contact_event") == [f"{month_name[:3]} 15, {shown_year} (0)"]
    ui.tap(id="contact_event").tap(id="hide_year").tap(id="android:id/button1")
    assert ui.texts("contact_event") == [f"{month_name[:3]} 15"]      # "--MM-dd": no year
    ui.tap(id="contact_event").tap(id="android:id/button2")           # Cancel keeps the date
    assert ui.texts("contact_event") == [f"{month_name[:3]} 15"]
    ui.tap(id="contact_event_type")
    radios = ui.all(cls="android.widget.RadioButton")
    assert [r["text"] for r in radios] == ["Anniversary", "Birthday", "Other"]
    assert [r["checked"] for r in radios] == ["false", "true", "false"]
    ui.tap(text="Anniversary")
    assert ui.texts("contact_event_type") == ["Anniversary"]
    ui.tap(id="contact_address_type")
    assert [r["text"] for r in ui.all(cls="android.widget.RadioButton")] == ["Home", "Work", "Other", "Custom"]
    ui.tap(text="Work")
    assert ui.texts("contact_address_type") == ["Work"]


def test_edit_form_photo_and_source_dialogs(ui):
    launch(ui).tap(desc="Create new contact").tap(id="contact_photo")
    assert [r["text"] for r in ui.all(cls="android.widget.RadioButton")] == ["Take photo", "Choose photo"]
    ui.tap(text="Take photo")                              # MediaStore.ACTION_IMAGE_CAPTURE: the camera
    assert ui.activity() == "com.android.camera2/com.android.camera.CaptureActivity"
    ui.key("BACK")
    assert ui.activity() == f"{PKG}/{PKG}.activities.EditContactActivity"
    ui.sh("input swipe 540 1800 540 300 300")
    source = ui.text("contact_source")
    ui.tap(id="contact_source")
    radios = ui.all(cls="android.widget.RadioButton")
    assert [r["text"] for r in radios] == ["Phone storage", "Phone storage (not visible by other apps)"]
    assert [r["text"] for r in radios if r["checked"] == "true"] == [source]
    ui.tap(text="Phone storage (not visible by other apps)")
    assert ui.texts("contact_source") == ["Phone storage (not visible by other apps)"]


def _edit_form_ids(ui: AdbUI) -> list[str]:
    return [n["resource-id"].rpartition("/")[2] for n in ui.nodes() if n.get("package") == PKG and n["resource-id"]]


def test_a_photo_taken_goes_to_the_crop_and_the_cropped_photo_is_saved_with_the_contact(ui):
    """Contacts 6.22.7 EditContactActivity: startTakePhotoIntent (IMAGE_CAPTURE for a result, EXTRA_OUTPUT a
    cache photo through the app's FileProvider); AOSP Camera2 PhotoModule.onCaptureDone writes the JPEG there
    and returns RESULT_OK; onActivityResult -> startCropPhotoIntent (com.android.camera.action.CROP of that
    photo, a 1:1 crop, "crop" = "true") which Simple Gallery 6.28.1's EditActivity ("Basic Editor") takes
    (its manifest); its first screen (activity_edit.xml, EditActivity.initEditActivity / loadCropImageView:
    no primary actions, the aspect ratios row, the crop-rotate actions without Resize and, for the square,
    without Crop); Save as writes the crop to EXTRA_OUTPUT and returns RESULT_OK; updateContactPhoto shows
    it; Save stores it as the contact's Photo row (Commons ContactsHelper.addPhoto)."""
    launch(ui).tap(desc="Create new contact")
    assert "contact_photo_bottom_shadow" not in _edit_form_ids(ui)
    ui.tap(id="contact_photo").tap(text="Take photo")
    assert ui.activity() == "com.android.camera2/com.android.camera.CaptureActivity"
    ui.tap(desc="Shutter").tap(desc="Done")
    gallery = "com.simplemobiletools.gallery.pro"
    assert ui.activity() == f"{gallery}/{gallery}.activities.EditActivity"
    ids = [n["resource-id"].rpartition("/")[2] for n in ui.nodes() if n.get("package") == gallery]
    for wanted in ("editor_coordinator", "editor_toolbar", "activity_edit_holder", "crop_image_view",
                   "bottom_aspect_ratios", "bottom_aspect_ratio_free", "bottom_editor_crop_rotate_actions",
                   "bottom_rotate", "bottom_flip_horizontally", "bottom_flip_vertically"):
        assert wanted in ids, wanted
    for gone in ("bottom_editor_primary_actions", "bottom_resize", "bottom_aspect_ratio", "default_image_view"):
        assert gone not in ids, gone
    assert ui.has(text="Editor") and ui.has(desc="Save as") and ui.has(text="1:1")
    ui.tap(desc="Save as")
    assert ui.activity() == f"{PKG}/{PKG}.activities.EditContactActivity"
    assert "contact_photo_bottom_shadow" in _edit_form_ids(ui)      # updateContactPhoto
    ui.tap(id="contact_photo")                                      # trySetPhoto now offers "Remove photo"
    assert [r["text"] for r in ui.all(cls="android.widget.RadioButton")] == [
        "Take photo", "Choose photo", "Remove photo"]
    ui.key("BACK")
    ui.tap(id="contact_first_name").sh("input text Ada")
    ui.tap(desc="Save")
    rows = ui.sh(f"content query --uri {URI}/data --projection raw_contact_id:mimetype "
                 "--where \"mimetype='vnd.android.cursor.item/photo'\"")
    assert rows.count("Row:") == 1 and "vnd.android.cursor.item/photo" in rows


def test_back_from_the_crop_keeps_the_form_without_a_photo(ui):
    """The DroidTask recording (Contacts: Take photo, Shutter, Done, then BACK): BACK leaves the crop
    screen with no result (RESULT_CANCELED), so onActivityResult changes nothing and the edit form stays
    as it was; Cancel in the camera (Camera2 onCaptureCancelled: RESULT_CANCELED) starts no crop."""
    launch(ui).tap(desc="Create new contact").tap(id="contact_photo").tap(text="Take photo")
    ui.tap(desc="Shutter").tap(desc="Done")
    assert ui.activity().endswith(".activities.EditActivity")
    ui.key("BACK")
    assert ui.activity() == f"{PKG}/{PKG}.activities.EditContactActivity"
    assert "contact_photo_bottom_shadow" not in _edit_form_ids(ui)
    ui.key("BACK")                                  # nothing changed: no "Save before exit?" prompt
    assert not ui.activity().endswith("EditContactActivity")
    launch(ui).tap(desc="Create new contact").tap(id="contact_photo").tap(text="Take photo")
    ui.tap(desc="Shutter").tap(desc="Cancel")
    assert ui.activity() == f"{PKG}/{PKG}.activities.EditContactActivity"
