"""Every modelled menu of every app, dumped through the real adb server, is placed by AppCompat's rule.

For each screen the expected icons and "More options" entries are computed
here from the release's menu facts (data/menus.json: the res/menu XML at the
pinned tag) and the items the app's code makes visible on that screen (cited
per case), with AppCompat's rule (ui/action_menu.place: 3 slots on the
phone's 392 dp).  The test then reads the toolbar or selection bar from
`uiautomator dump`, opens "More options" and compares.  Menus of the facts
that no modelled screen shows are listed with the reason.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
from adb_ui import AdbUI

from pytest_mobileagent.virtual_phone.apps import menus
from pytest_mobileagent.virtual_phone.framework.ui import action_menu

ROOT = Path(__file__).resolve().parents[2]
APPS_DIR = ROOT / "pytest_mobileagent" / "virtual_phone" / "apps"
RECORDINGS = ROOT / "fixtures" / "audio" / "recordings"
SMS_ROLE = "android.app.role.SMS"


@dataclass
class Screen:
    """A screen that shows one menu: how to reach it, and which items the app's code shows there."""

    app: str
    package: str
    menu: str
    visible: set[str]
    reach: Callable[[AdbUI], None] = lambda ui: None
    kind: str = menus.TOOLBAR
    commons: bool = False
    setup: Callable[[AdbUI], None] = lambda ui: None
    cleanup: Callable[[AdbUI], None] = lambda ui: None
    #: runtime permissions the benchmark's reset grants (pm clear revokes them)
    permissions: tuple[str, ...] = ()


def _sms_default(ui: AdbUI) -> None:
    for package in ("com.android.providers.telephony", "com.android.providers.contacts"):
        ui.sh(f"pm clear {package}")
    ui.sh(f"cmd role add-role-holder {SMS_ROLE} {ui.package}")
    ui.sh("content insert --uri content://sms/sent --bind address:s:123456789 --bind 'body:s:hello'")


def _clear_sms(ui: AdbUI) -> None:
    """Drop the seeded conversation; the app keeps the SMS role, as the phone's other tests expect."""
    ui.sh("pm clear com.android.providers.telephony")


def _add_contact(ui: AdbUI, name: str) -> None:
    uri = "content://com.android.contacts"
    ui.sh("pm clear com.android.providers.contacts")
    ui.sh(f"content insert --uri {uri}/raw_contacts --bind account_name:n: --bind account_type:n:")
    ui.sh(f"content insert --uri {uri}/data --bind raw_contact_id:i:1 "
          f"--bind mimetype:s:vnd.android.cursor.item/name --bind 'data1:s:{name}'")


def _push_recording(ui: AdbUI) -> None:
    name = sorted(p.name for p in RECORDINGS.glob("*.m4a"))[0]
    path = f"/sdcard/Music/Recordings/{name}"
    ui.device.sync.push(str(RECORDINGS / name), path)
    ui.sh(f"am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file://{path}")


def _remove_recordings(ui: AdbUI) -> None:
    ui.sh("rm -r /sdcard/Music/Recordings")


CALC = "com.simplemobiletools.calculator"
NOTES = "com.simplemobiletools.notes.pro"
CAL = "com.simplemobiletools.calendar.pro"
CONTACTS = "com.simplemobiletools.contacts.pro"
FILES = "com.simplemobiletools.filemanager.pro"
GALLERY = "com.simplemobiletools.gallery.pro"
LAUNCHER = "com.simplemobiletools.applauncher"
SMS = "com.simplemobiletools.smsmessenger"
MUSIC = "com.simplemobiletools.musicplayer"
RECORDER = "com.simplemobiletools.voicerecorder"

SCREENS = {
    # MainActivity.refreshMenuItems: only more_apps_from_us is hidden (F-Droid build).
    "calculator main": Screen("calculator", CALC, "menu", {"history", "unit_converter", "settings", "about"}),
    # One text note, autosave on: no Save, no note switching, Lock (not Unlock), no Undo yet,
    # no import_folder on Android 10+.
    "notes main": Screen("notes", NOTES, "menu", {
        "open_search", "new_note", "share", "cab_create_shortcut", "lock_note", "open_file", "export_as_file",
        "print", "settings", "about"}),
    # Monthly view on today (no Go to today); one event type, already in displayEventTypes
    # (EventsDatabase.insertRegularEventType), so no filter; no CalDAV sync.
    "calendar main": Screen("calendar", CAL, "menu_main", {
        "change_view", "go_to_date", "print", "add_holidays", "add_birthdays", "add_anniversaries",
        "settings", "about"}),
    # The Contacts tab: Sort and Filter; the dialpad button is on, so no Dialpad item.
    "contacts main": Screen("contacts", CONTACTS, "menu", {
        "sort", "filter", "import_contacts", "export_contacts", "settings", "about"},
        permissions=("READ_CONTACTS", "WRITE_CONTACTS")),
    # The home folder in list view: no Go home / Set as home, no grid-only items, no favourites yet.
    "file manager main": Screen("filemanager", FILES, "menu", {
        "sort", "add_favorite", "change_view_type", "temporarily_show_hidden", "settings", "about"}),
    # Grid view of folders, no default folder, the Recycle Bin shown among the folders.
    "gallery main": Screen("gallery", GALLERY, "menu_main", {
        "open_camera", "show_all", "sort", "filter", "change_view_type", "temporarily_show_hidden",
        "temporarily_show_excluded", "create_new_folder", "column_count", "settings", "about"}),
    "app launcher main": Screen("applauncher", LAUNCHER, "menu", {
        "sort", "toggle_app_name", "column_count", "settings", "about"}),
    # No Recycle Bin (config.useRecycleBin is off by default), archive available.
    "messenger main": Screen("messenger", SMS, "menu_main", {"show_archived", "settings", "about"},
                             setup=_sms_default, cleanup=_clear_sms),
    # ConversationsAdapter.prepareActionMode for one read one-to-one conversation.
    "messenger selection": Screen(
        "messenger", SMS, "cab_conversations", {
            "cab_delete", "cab_add_number_to_contact", "cab_dial_number", "cab_block_number", "cab_archive",
            "cab_copy_number", "cab_mark_as_unread", "cab_pin_conversation", "cab_select_all"},
        reach=lambda ui: ui.long_press(text="123456789"), kind=menus.ACTION_MODE,
        setup=_sms_default, cleanup=_clear_sms),
    # The Playlists tab (the first): its playlist items show (import needs Android 8+).
    # ContactsAdapter.prepareActionMode, one contact selected on the Contacts tab.
    "contacts selection": Screen(
        "contacts", CONTACTS, "cab", {
            "cab_edit", "cab_add_to_favorites", "cab_add_to_group", "cab_share", "cab_send_sms_to_contacts",
            "cab_send_email_to_contacts", "cab_create_shortcut", "cab_select_all", "cab_delete"},
        reach=lambda ui: ui.long_press(text="Ada Lovelace"), kind=menus.ACTION_MODE,
        permissions=("READ_CONTACTS", "WRITE_CONTACTS"), setup=lambda ui: _add_contact(ui, "Ada Lovelace"),
        cleanup=lambda ui: ui.sh("pm clear com.android.providers.contacts")),
    # on the Playlists tab after a tab change (5.18.3's first screen hides the playlist items until
    # one: MainActivity.refreshMenuItems)
    "music player main": Screen("musicplayer", MUSIC, "menu_main", {
        "sort", "equalizer", "create_new_playlist", "create_playlist_from_folder", "import_playlist",
        "rescan_media", "sleep_timer", "settings", "about"},
        reach=lambda ui: ui.tap(text="Albums").tap(text="Playlists")),
    "voice recorder main": Screen("voicerecorder", RECORDER, "menu", {"settings", "about"}),
    # RecordingsAdapter.prepareActionMode with one recording selected.
    "voice recorder selection": Screen(
        "voicerecorder", RECORDER, "cab_recordings",
        {"cab_rename", "cab_share", "cab_delete", "cab_open_with", "cab_select_all"},
        reach=lambda ui: ui.tap(text="Player").long_press(id="recording_title"), kind=menus.ACTION_MODE,
        setup=_push_recording, cleanup=_remove_recordings),
}

#: Menus of the facts that no modelled screen shows, and why.
NOT_MODELLED = {
    "calculator": {"converter_menu": "inflated in landscape only (UnitConverterActivity.onCreate)"},
    "calendar": {
        "cab_day": "the day view's event list selection is not modelled",
        "cab_event_type": "Manage event types is not modelled",
        "menu_event_types": "Manage event types is not modelled",
        "menu_select_time_zone": "the time zone picker is not modelled"},
    "contacts": {
        "cab_groups": "the groups' selection mode is not modelled",
        "menu_group": "a group's contacts screen is not modelled",
        "menu_insert_or_edit": "InsertOrEditContactActivity (another app's intent) is not modelled"},
    "filemanager": {
        "menu_decompress": "DecompressActivity is not modelled",
        "menu_editor": "ReadTextActivity is not modelled",
        "menu_favorites": "FavoritesActivity is not modelled",
        "menu_mimetypes": "MimeTypesActivity (the storage categories) is not modelled",
        "menu_pdf_viewer": "PDFViewerActivity is not modelled"},
    "gallery": {
        "cab_directories": "the folders' selection mode is not modelled",
        "cab_hidden_folders": "HiddenFoldersActivity is not modelled",
        "cab_media": "the media selection mode is not modelled",
        "menu_add_folder": "the excluded / included folders screens are not modelled",
        "menu_included_folders": "the excluded / included folders screens are not modelled",
        "menu_editor": "EditActivity is not modelled",
        "menu_main_intent": "picking media for another app is not modelled",
        "menu_search": "SearchActivity is not modelled",
        "menu_video_player": "VideoPlayerActivity is not modelled",
        "photo_video_menu": "PhotoVideoActivity (viewing a file from another app) is not modelled"},
    "messenger": {
        "cab_blocked_keywords": "Manage blocked keywords is not modelled",
        "menu_add_blocked_keyword": "Manage blocked keywords is not modelled",
        "cab_recycle_bin_conversations": "the Recycle Bin is off by default (config.useRecycleBin)",
        "recycle_bin_menu": "the Recycle Bin is off by default (config.useRecycleBin)",
        "menu_vcard": "VCardViewerActivity is not modelled"},
    "musicplayer": {
        "cab_albums": "the albums' selection mode is not modelled",
        "cab_albums_tracks": "the album tracks' selection mode is not modelled",
        "cab_artists": "the artists' selection mode is not modelled",
        "cab_folders": "the folders' selection mode is not modelled",
        "cab_genres": "the genres' selection mode is not modelled",
        "cab_queue": "the queue is not modelled",
        "menu_queue": "the queue is not modelled",
        "cab_tracks_header": "the album header's selection mode is not modelled"},
    "notes": {"cab_checklist": "the checklist items' selection mode is not modelled"},
    "voicerecorder": {"menu_edit": "the recording editor is not modelled"},
}


def expected_placement(screen: Screen) -> tuple[list[str], list[str]]:
    """(icon ids, overflow titles) by AppCompat's rule over the facts' visible items."""
    table = menus.facts()[screen.app]["commons_menus" if screen.commons else "menus"][screen.menu]
    entries = sorted(table, key=lambda e: e.get("order", 0))
    assert screen.visible <= {e["id"] for e in entries}, "a visible id is not in the menu's facts"

    def show(entry: dict) -> int:
        if screen.kind == menus.TOOLBAR:  # SupportMenuInflater: app:showAsAction, default never
            return action_menu.parse_show_as_action(entry["app_show"])
        # the framework MenuInflater: android:showAsAction, default StandaloneActionMode's ifRoom
        return action_menu.parse_show_as_action(entry["android_show"] or "ifRoom")

    actions, overflow = action_menu.place(
        entries, show=show,
        visible=lambda e: e["id"] in screen.visible, group=lambda e: e.get("group", ""))
    return [e["id"] for e in actions], [e["title"] for e in overflow]


@pytest.fixture
def screen_ui(request, adb_device, phone):
    screen: Screen = SCREENS[request.param]
    ui = AdbUI(adb_device, phone, screen.package)
    ui.sh(f"am force-stop {screen.package}")
    ui.sh(f"pm clear {screen.package}")
    for permission in screen.permissions:
        ui.sh(f"pm grant {screen.package} android.permission.{permission}")
    screen.setup(ui)
    ui.sh(f"monkey -p {screen.package} -c android.intent.category.LAUNCHER 1")
    screen.reach(ui)
    yield screen, ui
    screen.cleanup(ui)
    ui.close()


@pytest.mark.parametrize("screen_ui", sorted(SCREENS), indirect=True)
def test_menu_is_placed_by_the_rule(screen_ui):
    screen, ui = screen_ui
    icons, overflow = expected_placement(screen)
    ids = {f"{screen.package}:id/{e['id']}": e["id"]
           for e in menus.facts()[screen.app]["menus"][screen.menu]}
    shown = [n for n in ui.nodes() if n["resource-id"] in ids and n["class"] == "android.widget.Button"]
    shown.sort(key=lambda n: int(n["bounds"].split(",")[0].strip("[")))
    assert [ids[n["resource-id"]] for n in shown] == icons
    if not overflow:
        assert not ui.has(desc="More options")
        return
    ui.tap(desc="More options")
    assert ui.texts("title") == overflow
    ui.key("BACK")


def test_every_menu_of_every_app_is_declared_by_its_model_or_listed():
    """Each res/menu file of the ten releases is used by the app's model (a `menu(APP, "<name>", ...)`
    call) or listed in NOT_MODELLED with the reason."""
    declared: dict[str, set[str]] = {}
    for path in APPS_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text())
        constants = {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign)
                     for t in n.targets if isinstance(t, ast.Name) and isinstance(n.value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "menu" and len(node.args) >= 2:
                app, name = node.args[0], node.args[1]
                app_key = app.value if isinstance(app, ast.Constant) else constants.get(getattr(app, "id", ""))
                if isinstance(name, ast.Constant) and app_key:
                    declared.setdefault(app_key, set()).add(name.value)
    missing = {}
    for app, facts in menus.facts().items():
        for name in facts["menus"]:
            if name not in declared.get(app, set()) and name not in NOT_MODELLED.get(app, {}):
                missing.setdefault(app, []).append(name)
    assert not missing, f"menus of the releases that no model declares (declare them or list why): {missing}"


def test_selection_bar_title_close_button_and_overflow(adb_device, phone):
    """Messenger 5.19.3's selection bar: Commons' actionbar_title reads "1 / 1", the close button is
    AppCompat's action_mode_close_button ("Done"), and Archive waits under More options."""
    ui = AdbUI(adb_device, phone, SMS)
    _sms_default(ui)
    try:
        ui.launch().long_press(text="123456789")
        assert ui.one(id="actionbar_title")["text"] == "1 / 1"
        assert ui.one(id="action_mode_close_button")["content-desc"] == "Done"
        assert [n["content-desc"] for n in ui.all(cls="android.widget.Button") if n["content-desc"]] == [
            "Delete", "Add number to contact", "Dial number"]
        assert not ui.has(desc="Archive")
        ui.tap(desc="More options")
        assert "Archive" in ui.texts("title")
        ui.key("BACK")
        ui.tap(id="action_mode_close_button")
        assert not ui.has(id="actionbar_title")
    finally:
        _clear_sms(ui)
        ui.close()


def test_navigation_button_descriptions(adb_device, phone):
    """Commons' setupToolbar: the arrow says "Back"; CustomizationActivity's cross says "Close"."""
    ui = AdbUI(adb_device, phone, RECORDER)
    try:
        ui.launch().tap(desc="Settings")
        nav = ui.all(cls="android.widget.ImageButton")
        assert nav and nav[0]["content-desc"] == "Back"
        ui.tap(desc="Back")
        assert ui.has(id="top_toolbar_search")
        ui.tap(desc="Settings").tap(text="Customize colors")
        assert ui.all(cls="android.widget.ImageButton")[0]["content-desc"] == "Close"
    finally:
        ui.close()
