"""Simple File Manager Pro on the virtual phone, driven through the real adb server.

Flows cover the ten filemanager_* tasks and their obvious alternatives: the
folder list and breadcrumbs, long-press selection and its action bar, the
delete confirmation, Rename (empty and taken names rejected), Create new,
Properties, Hide, Sort by, search, the Storage tab, Settings, and BACK at
every level; each checks the file system through adb as well as the screen.
"""

from __future__ import annotations

import pytest
from storage_apps import AdbUI
from uitools import find_all

PKG = "com.simplemobiletools.filemanager.pro"
DL = "/sdcard/Download"


@pytest.fixture
def fm(adb_device, phone):
    ui = AdbUI(adb_device, phone, PKG)
    ui.seed(DL, {"Testfile.txt": "testfile.txt", "clip.mp4": "clip_red.mp4", "notes.txt": "notes.txt"},
            times={"Testfile.txt": "2023-06-30 12:22:00"})
    ui.sh("rm -rf /sdcard/hidden /sdcard/.hidden")
    yield ui.start()
    ui.close()


def names(ui) -> list[str]:
    return [n["text"] for n in find_all(ui.dump(), id="item_name")]


def test_home_lists_the_default_folders_with_item_counts(fm):
    assert fm.activity() == f"{PKG}.activities.MainActivity"
    found = fm.texts()
    for folder in ("Alarms", "DCIM", "Documents", "Download", "Movies", "Music", "Notifications", "Pictures"):
        assert folder in found
    assert fm.node(text="Download")  # its details say how many items it holds
    assert "3 items" in found
    assert [n["text"] for n in find_all(fm.dump(), id="breadcrumb_text")] == ["Internal"]


def test_open_folder_breadcrumbs_details_and_back(fm):
    fm.tap(text="Download")
    dump = fm.dump()
    crumbs = [n["text"] for n in find_all(dump, id="breadcrumb_text")]
    assert crumbs == ["Internal", "> Download"]
    assert names(fm) == ["clip.mp4", "notes.txt", "Testfile.txt"]  # by name, case-insensitive
    assert "30.06.2023, 12:22 PM" in fm.texts() and "21 B" in fm.texts()
    assert fm.clicks()[-1]["text"][:1] == ["Download"]
    fm.tap(text="Internal")
    assert "> Download" not in fm.texts()
    fm.tap(text="Download").back()
    assert "> Download" not in fm.texts() and fm.activity().endswith("MainActivity")
    fm.back()  # BACK at the home folder leaves the app
    assert fm.d.app_current().package != PKG


def test_long_press_selects_and_delete_asks_first(fm):
    fm.tap(text="Download").long_press(text="Testfile.txt")
    assert fm.exists(text="1 / 3") and fm.exists(desc="Delete") and fm.exists(desc="Rename")
    assert any(e["type"] == "long_click" for e in fm.events)
    fm.tap(text="notes.txt")  # in selection mode a tap adds to the selection
    # 6.16.1's ItemsAdapter keeps Rename (an `always` item) for several items, and Copy path is for one
    assert fm.exists(text="2 / 3") and fm.exists(desc="Rename")
    fm.tap(desc="Delete")
    assert fm.exists(id="message", text="Are you sure you want to delete 2 items?")
    fm.tap(text="No")
    assert fm.sh(f"ls {DL}").split() == ["Testfile.txt", "clip.mp4", "notes.txt"]
    fm.tap(desc="Delete").tap(text="Yes")
    assert fm.sh(f"ls {DL}").split() == ["clip.mp4"]
    assert names(fm) == ["clip.mp4"] and not fm.exists(text="1 / 1")


def test_back_ends_the_selection_before_leaving_the_folder(fm):
    fm.tap(text="Download").long_press(text="clip.mp4").back()
    assert not fm.exists(desc="Delete") and fm.exists(text="> Download")


def test_rename_keeps_the_extension_field_and_rejects_bad_names(fm):
    fm.tap(text="Download").long_press(text="Testfile.txt").tap(desc="Rename")
    assert fm.node(id="rename_item_name")["text"] == "Testfile"
    assert fm.node(id="rename_item_extension")["text"] == "txt"
    fm.tap(id="rename_item_name")
    fm.sh("input keyevent --longpress 67")  # clear what is there, as an agent would with DEL presses
    for _ in range(10):
        fm.sh("input keyevent DEL")
    fm.tap(text="OK")
    assert fm.exists(id="rename_item_name"), "an empty name closed the dialog"
    fm.type("notes").tap(text="OK")
    assert fm.exists(id="rename_item_name"), "a taken name closed the dialog"
    for _ in range(5):
        fm.sh("input keyevent DEL")
    fm.type("testfile1").tap(text="OK")
    assert not fm.exists(id="rename_item_name")
    assert "testfile1.txt" in fm.sh(f"ls {DL}").split() and "Testfile.txt" not in fm.sh(f"ls {DL}").split()
    assert "testfile1.txt" in names(fm)


def test_create_file_and_folder_and_reject_duplicates(fm):
    fm.tap(text="Download").tap(id="items_fab")
    assert fm.node(id="dialog_radio_directory")["checked"] == "true"
    fm.type("papers").tap(text="OK")
    assert fm.sh(f"ls -ld {DL}/papers").startswith("d")
    fm.tap(id="items_fab").type("todo.txt").tap(id="dialog_radio_file").tap(text="OK")
    assert fm.sh(f"ls -ld {DL}/todo.txt").startswith("-")
    fm.tap(id="items_fab").type("todo.txt").tap(text="OK")
    assert fm.exists(id="item_title"), "a taken name closed the dialog"
    fm.back().back()  # the keyboard takes the first BACK
    assert not fm.exists(id="item_title") and names(fm)[0] == "papers"  # folders first


def test_properties_of_a_file(fm):
    fm.tap(text="Download").long_press(text="Testfile.txt").tap(desc="Properties")
    dump = fm.dump()
    values = [n["text"] for n in find_all(dump, id="property_value")]
    assert values[:3] == ["Testfile.txt", "/storage/emulated/0/Download", "21 B"]
    md5 = fm.sh(f"md5sum {DL}/Testfile.txt").split()[0]
    assert find_all(dump, id="properties_md5") and values[-1] == md5  # File Manager Pro's MD5 row
    assert fm.windows()[-1]["text"][:1] == ["Properties"]
    fm.tap(text="OK")
    assert not fm.exists(id="property_value")


def test_properties_of_a_video_show_its_duration_resolution_artist_and_album(fm):
    fm.tap(text="Download").long_press(text="clip.mp4").tap(desc="Properties")
    dump = fm.dump()
    labels = [n["text"] for n in find_all(dump, id="property_label")]
    values = dict(zip(labels, [n["text"] for n in find_all(dump, id="property_value")]))
    # PropertiesDialog.addProperties for a video; the MediaStore row gives ARTIST <unknown> and the folder
    # as ALBUM when the file has no tags (ModernMediaScanner.scanItemVideo)
    assert labels[3:7] == ["Duration", "Resolution", "Artist", "Album"]
    assert values["Artist"] == "<unknown>" and values["Album"] == "Download"
    assert values["Resolution"].endswith("MP)") and " x " in values["Resolution"]


def test_hide_renames_with_a_dot_and_show_hidden_reveals_it(fm):
    fm.sh("mkdir /sdcard/hidden")
    fm.back()  # leave and reopen: the list is read when the screen is built
    fm.start()
    fm.long_press(text="hidden").menu("Hide")
    assert fm.sh("ls -ld /sdcard/.hidden").startswith("d") and "hidden" not in names(fm)
    fm.menu("Temporarily show hidden")
    assert ".hidden" in names(fm)
    fm.long_press(text=".hidden").menu("Unhide")
    assert fm.sh("ls -d /sdcard/hidden") == "/sdcard/hidden"
    fm.menu("Stop showing hidden media")
    fm.menu("Settings").tap(id="settings_show_hidden_holder")
    assert fm.node(id="settings_show_hidden")["checked"] == "true"
    fm.back()
    assert fm.activity().endswith("MainActivity")


def test_sort_by_size_descending(fm):
    fm.tap(text="Download").tap(desc="Sort by").tap(text="Size").tap(text="Descending").tap(text="OK")
    assert names(fm) == ["clip.mp4", "notes.txt", "Testfile.txt"]  # 1686, 29 and 21 bytes
    fm.tap(desc="Sort by")
    assert fm.node(id="sorting_dialog_radio_size")["checked"] == "true"
    fm.tap(text="Ascending").tap(text="OK")
    assert names(fm) == ["Testfile.txt", "notes.txt", "clip.mp4"]
    fm.tap(desc="Sort by").tap(text="Name")
    fm.back()  # BACK cancels: the order stays by size
    assert not fm.exists(id="sorting_dialog_radio_size") and names(fm)[0] == "Testfile.txt"


def test_search_finds_files_below_the_current_folder(fm):
    fm.tap(id="top_toolbar_search").type("testfile")
    assert names(fm) == ["Download/Testfile.txt"]
    fm.back().back()  # the keyboard takes the first BACK
    assert "Download" in names(fm)


def test_storage_tab_shows_totals(fm):
    fm.tap(text="Storage")
    assert fm.node(id="total_space")["text"] == "Total storage: 8 GB"
    assert fm.node(id="documents_size")["text"].endswith("B")
    fm.tap(text="Files")
    assert fm.exists(id="items_list")


def test_files_removed_behind_the_apps_back(fm):
    fm.tap(text="Download").long_press(text="Testfile.txt").tap(desc="Properties")
    fm.sh(f"rm {DL}/Testfile.txt")
    fm.sh("input keyevent 0")  # any input rebuilds the screen
    assert fm.exists(id="property_value", text="Testfile.txt")
    fm.tap(text="OK").back()  # BACK ends the selection
    assert "Testfile.txt" not in names(fm)
    fm.long_press(text="notes.txt")
    fm.sh(f"rm {DL}/notes.txt")
    fm.tap(desc="Delete").tap(text="Yes")  # deleting what is already gone: a toast, no crash
    assert fm.activity().endswith("MainActivity") and names(fm) == ["clip.mp4"]


def test_grid_view_for_one_folder(fm):
    fm.tap(text="Download").menu("Change view type").tap(text="Grid").tap(id="change_view_type_dialog_use_for_this_folder")
    fm.tap(text="OK")
    dump = fm.dump()
    assert names(fm) == ["clip.mp4", "notes.txt", "Testfile.txt"] and not find_all(dump, id="item_details")
    rows = {n["bounds"].split("][")[0] for n in find_all(dump, id="item_frame")}
    assert len(rows) == 3 and len({r.split(",")[1] for r in rows}) == 1  # side by side in one row
    fm.back()
    assert find_all(fm.dump(), id="item_details"), "the home folder keeps the list"


def test_date_and_time_format_setting_changes_the_list(fm):
    fm.menu("Settings").tap(id="settings_change_date_time_format_holder")
    fm.tap(id="change_date_time_dialog_radio_four").tap(id="change_date_time_dialog_24_hour").tap(text="OK")
    fm.back().tap(text="Download")
    assert "2023-06-30, 12:22" in fm.texts()


def test_settings_rows_are_those_of_6_16_1(fm):
    fm.menu("Settings")
    labels = fm.texts()
    # activity_settings.xml at 6.16.1: Customize colors first; Language (Android 13+) above Manage favorites
    order = ["COLOR CUSTOMIZATION", "Customize colors", "GENERAL", "Language", "English", "Manage favorites",
             "Manage shown tabs", "Change date and time format", "Font size", "Medium"]
    assert [t for t in labels if t in order] == order
    assert not fm.exists(id="settings_use_english_holder")  # gone on Android 13+
    fm.tap(id="settings_font_size_holder").tap(text="Large")
    assert fm.exists(id="settings_font_size", text="Large")
    fm.tap(id="settings_color_customization_holder")
    assert fm.activity() == "com.simplemobiletools.commons.activities.CustomizationActivity"


def test_favorites_picked_in_settings_are_offered_by_go_to_favorite(fm):
    fm.menu("Settings").tap(id="settings_manage_favorites_holder")
    assert fm.activity() == f"{PKG}.activities.FavoritesActivity"
    assert fm.exists(id="manage_favorites_placeholder_2", text="Add favorites")
    fm.tap(desc="Add favorites")
    assert fm.exists(id="dialog_title_textview", text="Select a folder")
    fm.tap(id="list_item_name", text="Download")  # it has no sub-folder: picked at once
    assert fm.exists(id="manage_favorite_title", text="/storage/emulated/0/Download")
    fm.tap(id="overflow_menu_icon").tap(text="Remove")
    assert not fm.exists(id="manage_favorite_title")
    fm.sh("mkdir -p /sdcard/DCIM/Camera")
    fm.tap(desc="Add favorites").tap(id="list_item_name", text="DCIM")  # it has a sub-folder: opened
    assert fm.exists(text="> DCIM") and fm.exists(id="list_item_name", text="Camera")
    fm.back()  # BACK walks up the breadcrumbs first
    assert fm.exists(id="list_item_name", text="Alarms")
    fm.tap(id="list_item_name", text="DCIM").tap(text="OK")
    assert fm.exists(id="manage_favorite_title", text="/storage/emulated/0/DCIM")
    fm.back().back()
    fm.tap(desc="Go to favorite").tap(text="Internal / DCIM")  # an `always` icon
    assert fm.exists(text="> DCIM")
    fm.sh("rm -rf /sdcard/DCIM/Camera")


def test_add_to_favorites_in_the_main_menu_toggles_with_remove(fm):
    fm.tap(text="Download").menu("Add to favorites")
    fm.menu("Remove from favorites")
    fm.menu("Add to favorites").tap(text="Internal").tap(desc="Go to favorite").tap(text="Internal / Download")
    assert fm.exists(text="> Download")


def test_manage_shown_tabs_hides_a_tab(fm):
    fm.menu("Settings").tap(id="settings_manage_tabs_holder")
    fm.tap(id="manage_visible_tabs_recent_files").tap(text="OK").back()
    assert [n["text"] for n in find_all(fm.dump(), id="tab_item_label")] == ["Files", "Storage"]


# -- files opened and shared with other apps (Commons' openPathIntent / sharePathsIntent) ----------------
RESOLVER_PKG = "com.android.intentresolver"


def test_a_pdf_opens_in_the_apps_pdf_viewer_and_back_returns(fm):
    fm.seed(DL, {"Diary.pdf": "diary.pdf", "fake.pdf": "notes.txt"})
    fm.tap(text="Download").tap(text="Diary.pdf")
    assert fm.activity() == f"{PKG}.activities.PDFViewerActivity"
    assert "Diary.pdf" in fm.texts() and fm.exists(desc="Print") and fm.exists(id=f"{PKG}:id/pdf_viewer")
    fm.back()
    assert fm.activity() == f"{PKG}.activities.MainActivity" and "fake.pdf" in fm.texts()
    fm.tap(text="fake.pdf")  # not a PDF: PDFView's onError toasts and the viewer finishes
    assert fm.activity() == f"{PKG}.activities.MainActivity"


def test_an_audio_file_plays_in_the_music_players_track_screen(fm):
    fm.seed(DL, {"tone.m4a": "tone.m4a"})
    fm.tap(text="Download").tap(text="tone.m4a")
    assert fm.d.app_current().package == "com.simplemobiletools.musicplayer"
    assert fm.activity() == "com.simplemobiletools.musicplayer.activities.TrackActivity"
    assert fm.node(id="com.simplemobiletools.musicplayer:id/activity_track_title")["text"] == "Evening Tone"
    # isThirdPartyIntent: no shuffle / previous / next / playback setting, no next track
    assert not fm.exists(id="com.simplemobiletools.musicplayer:id/activity_track_next")
    assert fm.exists(id="com.simplemobiletools.musicplayer:id/activity_track_play_pause")
    fm.back()
    assert fm.activity() == f"{PKG}.activities.MainActivity" and "tone.m4a" in fm.texts()


def test_share_opens_android_14s_share_sheet_with_the_files(fm):
    fm.tap(text="Download").long_press(text="notes.txt").menu("Share")
    assert fm.d.app_current().package == RESOLVER_PKG
    assert fm.node(id=f"{RESOLVER_PKG}:id/headline")["text"] == "Sharing 1 item"
    assert fm.node(id=f"{RESOLVER_PKG}:id/content_preview_filename")["text"] == "notes.txt"
    fm.back()
    assert fm.activity() == f"{PKG}.activities.MainActivity"
    fm.long_press(text="notes.txt").tap(text="Testfile.txt").menu("Share")
    # ACTION_SEND_MULTIPLE: of this phone's apps only Messenger takes it (Notes' filter is SEND and
    # VIEW), and the share sheet starts a single target without showing itself (IntentResolver's
    # ChooserActivity.shouldAutoLaunchSingleChoice)
    assert fm.activity() == "com.simplemobiletools.smsmessenger.activities.NewConversationActivity"


def test_open_with_goes_through_the_chooser_to_the_only_pdf_viewer(fm):
    fm.seed(DL, {"Diary.pdf": "diary.pdf"})
    fm.tap(text="Download").long_press(text="Diary.pdf").menu("Open with")
    # Intent.createChooser(.., "Open with") with one target (File Manager's own PDF viewer): the
    # chooser starts it without showing itself (ChooserActivity.shouldAutoLaunchSingleChoice)
    assert fm.activity() == f"{PKG}.activities.PDFViewerActivity"


def test_storage_categories_open_their_files_and_free_space_opens_settings(fm):
    fm.seed("/sdcard/DCIM", {"pic1.jpg": "forest.jpg", "pic2.png": "beach.png"})
    fm.tap(text="Storage").tap(id=f"{PKG}:id/images_holder")
    assert fm.activity() == f"{PKG}.activities.MimeTypesActivity"
    assert "Images" in fm.texts()
    assert {"pic1.jpg", "pic2.png"} <= set(names(fm)) and "notes.txt" not in names(fm)
    fm.back()
    assert fm.activity() == f"{PKG}.activities.MainActivity"
    fm.tap(id=f"{PKG}:id/free_space_holder")
    assert fm.d.app_current().package == "com.android.settings"
    assert fm.activity() == "com.android.settings.Settings$StorageDashboardActivity"
    fm.back()
    assert fm.activity() == f"{PKG}.activities.MainActivity"
    fm.sh("rm -f /sdcard/DCIM/pic1.jpg /sdcard/DCIM/pic2.png")


def test_open_as_audio_plays_a_file_of_any_name_in_the_music_player(fm):
    fm.seed(DL, {"tone.bin": "tone.m4a"})
    fm.tap(text="Download").long_press(text="tone.bin").menu("Open as")
    assert [n["text"] for n in find_all(fm.dump(), cls="android.widget.RadioButton")] == [
        "Text file", "Image file", "Audio file", "Video file", "Other file"]
    fm.tap(text="Audio file")
    assert fm.activity() == "com.simplemobiletools.musicplayer.activities.TrackActivity"
