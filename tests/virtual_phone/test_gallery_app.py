"""Simple Gallery Pro on the virtual phone, driven through the real adb server.

Flows cover the ten gallery_* tasks and their neighbours: folders from the
media store (only scanned media; hidden folders only with "Show hidden
items"), a folder's media newest first, Filter media, Change view type, Sort
by, Group by, the viewer's favourite toggle and Set as -> Simple Wallpaper,
and Settings, with BACK at every level.
"""

from __future__ import annotations

import pytest
from storage_apps import FIXTURES, AdbUI
from uitools import find_all

PKG = "com.simplemobiletools.gallery.pro"
DL = "/sdcard/Download"
TIMES = {"sunset.jpg": "2023-07-01 19:45:00", "beach.png": "2023-06-20 12:00:00",
         "forest.jpg": "2023-06-12 08:30:00", "clip.mp4": "2023-05-01 10:00:00"}


@pytest.fixture
def gallery(adb_device, phone):
    ui = AdbUI(adb_device, phone, PKG)
    ui.sh("rm -rf /sdcard/DCIM/Trip /sdcard/DCIM/.secret /sdcard/Pictures/private")
    ui.seed(DL, {"sunset.jpg": "sunset.jpg", "beach.png": "beach.png", "forest.jpg": "forest.jpg",
                 "clip.mp4": "clip_red.mp4"}, times=TIMES)
    yield ui.start()
    ui.close()


def folder_names(ui) -> list[str]:
    return [n["text"] for n in find_all(ui.dump(), id="dir_name")]


def test_folders_come_from_the_media_store(gallery):
    assert "Download" in folder_names(gallery)
    count = find_all(gallery.dump(), id="photo_cnt")[folder_names(gallery).index("Download")]["text"]
    assert count == "4"
    gallery.sh("mkdir -p /sdcard/DCIM/Trip")
    gallery.d.sync.push((FIXTURES / "forest.jpg").read_bytes(), "/sdcard/DCIM/Trip/a.jpg")
    gallery.start()
    assert "Trip" not in folder_names(gallery), "an unscanned file is not media yet"
    gallery.sh("am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file:///sdcard/DCIM/Trip/a.jpg")
    gallery.start()
    assert "Trip" in folder_names(gallery)


def test_hidden_and_nomedia_folders_need_show_hidden(gallery):
    src = FIXTURES / "beach.png"
    for path in ("/sdcard/DCIM/.secret/s.png", "/sdcard/Pictures/private/p.png"):
        gallery.sh(f"mkdir -p {path.rsplit('/', 1)[0]}")
        gallery.d.sync.push(src.read_bytes(), path)
    gallery.d.sync.push(b"", "/sdcard/Pictures/private/.nomedia")
    gallery.sh("am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file:///sdcard")
    gallery.start()
    assert ".secret" not in folder_names(gallery) and "private" not in folder_names(gallery)
    gallery.menu("Settings").tap(id="settings_show_hidden_items_holder").back()
    assert {".secret", "private"} <= set(folder_names(gallery))


def test_folder_media_newest_first_and_viewer_favourite(gallery):
    gallery.tap(text="Download")
    assert gallery.activity() == f"{PKG}.activities.MediaActivity"
    assert gallery.node(id="top_toolbar_search")["text"] == "Search in Download"
    assert len(find_all(gallery.dump(), id="media_item_holder")) == 4
    assert len(find_all(gallery.dump(), id="play_portrait_outline")) == 1  # the video
    gallery.tap(desc="Toggle filename visibility")
    assert [n["text"] for n in find_all(gallery.dump(), id="medium_name")] == [
        "sunset.jpg", "beach.png", "forest.jpg", "clip.mp4"]
    gallery.tap(id="media_item_holder")
    assert gallery.activity() == f"{PKG}.activities.ViewPagerActivity" and "sunset.jpg" in gallery.texts()
    gallery.tap(desc="Toggle favorite")
    click = gallery.clicks()[-1]
    assert click["id"] == f"{PKG}:id/bottom_favorite" and click["desc"] == "Toggle favorite"
    gallery.back().back()
    assert gallery.activity() == f"{PKG}.activities.MainActivity"


def test_set_as_wallpaper_through_simple_wallpaper(gallery):
    gallery.tap(text="Download").tap(id="media_item_holder").menu("Set as")
    assert gallery.activity() == f"{PKG}.activities.SetWallpaperActivity"
    assert gallery.windows()[-1]["text"] == ["Simple Wallpaper"]
    gallery.tap(desc="Save")
    assert gallery.texts() == ["Home screen", "Lock screen", "Home and lock screen"]
    gallery.back()  # BACK closes the choice without setting anything
    assert gallery.activity().endswith("SetWallpaperActivity")
    gallery.events.clear()
    gallery.tap(desc="Save").tap(text="Home screen")
    # SetWallpaperActivity.onCropImageComplete (6.28.1): the dialog closes and Simple Wallpaper shows
    # again while ensureBackgroundThread sets the bitmap; then finish() returns to the viewer.  The dump
    # after the tap sees the viewer: uiautomator's DumpCommand waits for idle first.
    assert gallery.activity() == f"{PKG}.activities.ViewPagerActivity"
    assert gallery.clicks()[-1]["text"] == ["Home screen"]
    after = gallery.events[gallery.events.index(gallery.clicks()[-1]):]
    shown = [e["class"].rpartition(".")[2] for e in after if e["type"] == "window_state"]
    assert shown == ["SetWallpaperActivity", "ViewPagerActivity"]
    assert [e["text"] for e in after if e["type"] == "window_state"][0] == ["Simple Wallpaper"]


def test_filter_media_keeps_at_least_one_type(gallery):
    gallery.menu("Filter media")
    checked = {n["resource-id"].rsplit("/", 1)[1]: n["checked"] for n in find_all(gallery.dump(), cls="android.widget.CheckBox")}
    assert checked == {"filter_media_images": "true", "filter_media_videos": "true", "filter_media_gifs": "true",
                       "filter_media_raws": "true", "filter_media_svgs": "true", "filter_media_portraits": "false"}
    for kind in ("images", "videos", "gifs", "raws", "svgs"):
        gallery.tap(id=f"filter_media_{kind}")
    gallery.tap(text="OK")
    assert gallery.exists(id="filter_media_images"), "a filter with no type closed the dialog"
    gallery.tap(id="filter_media_videos").tap(text="OK")
    gallery.tap(text="Download")
    assert len(find_all(gallery.dump(), id="media_item_holder")) == 1  # only the video is left


def test_list_view_shows_folder_paths(gallery):
    assert not gallery.exists(id="dir_path")
    gallery.menu("Change view type").tap(text="List").tap(text="OK")
    assert gallery.node(id="dir_path")["text"] == "/storage/emulated/0/"


def test_group_by_file_type_and_sort_by_size(gallery):
    gallery.tap(text="Download").menu("Group by").tap(text="File type").tap(text="OK")
    assert [n["text"] for n in find_all(gallery.dump(), id="thumbnail_section")] == ["Images", "Videos"]
    gallery.back().menu("Sort by")
    assert gallery.exists(id="sorting_dialog_radio_path")  # the folders' dialog has Path, the media one not
    assert gallery.node(id="sorting_dialog_radio_last_modified")["checked"] == "true"
    assert gallery.node(id="sorting_dialog_radio_descending")["checked"] == "true"
    gallery.tap(text="Size").tap(text="Ascending").tap(text="OK")
    gallery.menu("Sort by")
    assert gallery.node(id="sorting_dialog_radio_size")["checked"] == "true"


def test_settings_toggles_and_24_hour_dialog(gallery):
    gallery.menu("Settings")
    assert gallery.activity() == f"{PKG}.activities.SettingsActivity"
    gallery.tap(id="settings_autoplay_videos_holder")
    assert gallery.node(id="settings_autoplay_videos")["checked"] == "true"
    for _ in range(2):  # scroll down to the thumbnail settings and back
        gallery.sh("input swipe 540 1800 540 900 300")
    assert gallery.exists(id="settings_crop_thumbnails") and not gallery.exists(id="settings_general_settings_label")
    gallery.sh("input swipe 540 900 540 1800 300")  # Android 14's Language row pushes it below the fold
    gallery.tap(id="settings_remember_last_video_position_holder")
    assert gallery.node(id="settings_remember_last_video_position")["checked"] == "true"
    gallery.sh("input swipe 540 900 540 1800 300")
    gallery.tap(id="settings_change_date_time_format_holder")
    # Commons 9e60e24790's ChangeDateTimeFormatDialog: timeSample 1676419200000, 15 February 2023 in UTC
    assert gallery.node(id="change_date_time_dialog_radio_one")["text"] == "15.02.2023"
    gallery.tap(id="change_date_time_dialog_24_hour").tap(text="OK")
    gallery.tap(id="settings_change_date_time_format_holder")
    assert gallery.node(id="change_date_time_dialog_24_hour")["checked"] == "true"


def test_viewer_rename_hide_and_delete_change_storage(gallery):
    # menu_viewpager: Rotate and Properties (ifRoom, first in the menu) take the two free slots
    gallery.tap(text="Download").tap(id="media_item_holder").menu("Rename")
    assert gallery.node(id="rename_item_name")["text"] == "sunset"
    for _ in range(6):
        gallery.sh("input keyevent DEL")
    gallery.type("dusk").tap(text="OK")
    assert "dusk.jpg" in gallery.sh(f"ls {DL}").split() and "dusk.jpg" in gallery.texts()
    gallery.menu("Hide")
    assert ".dusk.jpg" in gallery.sh(f"ls -a {DL}").split()
    gallery.menu("Unhide")
    gallery.tap(desc="Delete")
    assert gallery.node(id="message")["text"] == 'Are you sure you want to move "dusk.jpg" into the Recycle Bin?'
    gallery.tap(text="No")
    assert "dusk.jpg" in gallery.sh(f"ls {DL}").split()
    gallery.tap(desc="Delete").tap(text="Yes")
    assert "dusk.jpg" not in gallery.sh(f"ls {DL}").split()
    assert "beach.png" in gallery.texts()  # the viewer moves on to the next medium


def test_create_new_folder_picks_its_parent_then_shows_it_first(gallery):
    # MainActivity.createNewFolder (6.28.1): Commons' FilePickerDialog, then CreateNewFolderDialog; the new
    # folder stays on the folders screen as config.tempFolderPath until the next fresh start
    gallery.sh("rm -rf /sdcard/Download/Trips /sdcard/Trips")
    gallery.menu("Create new folder")
    assert gallery.exists(id="filepicker_list") and gallery.node(id="breadcrumb_text")["text"] == "Internal"
    gallery.tap(id="list_item_name", text="Download")  # no sub-folders: picked at once
    assert gallery.node(id="folder_path")["text"] == "Internal/Download/"
    gallery.tap(text="OK")
    assert gallery.exists(id="folder_name"), "an empty name closed the dialog"
    gallery.type("Trips").tap(text="OK")
    assert gallery.activity().endswith("MainActivity")
    assert folder_names(gallery)[0] == "Trips" and find_all(gallery.dump(), id="photo_cnt")[0]["text"] == "0"
    assert gallery.sh("ls -ld /sdcard/Download/Trips").startswith("d")
    # a fresh start (the app's data kept) deletes the still empty folder (MainActivity.removeTempFolder)
    gallery.sh(f"am force-stop {PKG}")
    gallery.sh(f"monkey -p {PKG} -c android.intent.category.LAUNCHER 1")
    assert "Trips" not in folder_names(gallery)
    assert "No such file" in gallery.sh("ls -ld /sdcard/Download/Trips 2>&1")


def test_column_count_dialog_sets_the_grid(gallery):
    gallery.menu("Column count")
    options = [n["text"] for n in find_all(gallery.dump(), cls="android.widget.RadioButton")]
    assert options[:3] == ["1 column", "2 columns", "3 columns"]
    assert gallery.node(text="2 columns")["checked"] == "true"
    gallery.tap(text="3 columns")
    assert not gallery.exists(id="dialog_radio_group")
    assert "][360," in gallery.node(id="dir_holder")["bounds"]  # a third of the 1080 px width
    gallery.menu("Column count")
    assert gallery.node(text="3 columns")["checked"] == "true"


def test_open_camera_starts_the_phones_one_camera_app(gallery):
    # Activity.launchCamera: STILL_IMAGE_CAMERA; Camera2 alone answers, so Android starts it without asking
    gallery.tap(desc="Open camera")
    assert gallery.d.app_current().package == "com.android.camera2"
    assert gallery.activity() == "com.android.camera.CameraActivity"
    gallery.back()
    assert gallery.activity() == f"{PKG}.activities.MainActivity"


def test_share_goes_through_the_share_sheets_single_target(gallery):
    # Commons' sharePathIntent: ACTION_SEND image/jpeg in a chooser; SMS Messenger (*/*) is the one app
    # here that takes it, and the share sheet starts a single target directly
    gallery.tap(text="Download").tap(id="media_item_holder").tap(desc="Share")
    assert gallery.activity() == "com.simplemobiletools.smsmessenger.activities.NewConversationActivity"
    gallery.back().back()  # the number field's keyboard, then the screen
    assert gallery.activity() == f"{PKG}.activities.ViewPagerActivity"


def test_open_with_hands_the_file_to_the_gallerys_own_viewer(gallery):
    # Commons' openPathIntent in an "Open with" chooser: the gallery's PhotoActivity alone takes VIEW image/*
    # here; it hands a file on storage to ViewPagerActivity (PhotoVideoActivity.checkIntent)
    gallery.tap(text="Download").tap(id="media_item_holder").menu("Open with")
    assert gallery.activity() == f"{PKG}.activities.ViewPagerActivity" and "sunset.jpg" in gallery.texts()
    gallery.back()
    assert gallery.activity() == f"{PKG}.activities.ViewPagerActivity", "the first viewer is still below"
    gallery.back()
    assert gallery.activity() == f"{PKG}.activities.MediaActivity"


def test_folder_thumbnail_style_sets_how_folders_show_their_count(gallery):
    gallery.menu("Settings")
    for _ in range(3):
        gallery.sh("input swipe 540 1800 540 900 300")
    assert gallery.node(id="settings_folder_thumbnail_style")["text"] == "Square"
    gallery.tap(id="settings_folder_thumbnail_style_holder")
    assert gallery.node(id="dir_name")["text"] == "Camera" and gallery.node(id="photo_cnt")["text"] == "36"
    gallery.tap(text="Show file count in brackets")
    assert gallery.node(id="dir_name")["text"] == "Camera (36)" and not gallery.exists(id="photo_cnt")
    gallery.tap(text="OK").back()
    assert "Download (4)" in folder_names(gallery) and not gallery.exists(id="photo_cnt")


def test_an_excluded_folder_leaves_the_folders_screen_until_shown_temporarily(gallery):
    gallery.menu("Settings").tap(id="settings_manage_excluded_folders_holder")
    assert gallery.node(id="manage_folders_placeholder")["text"].startswith("Excluding folders will make them")
    gallery.tap(desc="Add folder").tap(id="list_item_name", text="Download")  # no sub-folders: picked at once
    assert gallery.node(id="manage_folder_title")["text"] == "/storage/emulated/0/Download"
    assert not gallery.exists(id="manage_folders_placeholder")
    gallery.back().back()
    assert "Download" not in folder_names(gallery)
    gallery.menu("Temporarily show excluded")
    assert "Download" in folder_names(gallery)
    gallery.menu("Stop showing excluded")
    assert "Download" not in folder_names(gallery)
