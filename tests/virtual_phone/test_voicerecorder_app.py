"""Simple Voice Recorder on the served virtual phone, driven through the real adb server.

Recordings are files: the tests push them with adbutils' sync, read the
recorder's folder back with `ls`, and check that what the app shows and does
(record, rename, delete to the recycle bin, restore, empty) is what the files
say.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from adbui import AdbUI

PKG = "com.simplemobiletools.voicerecorder"
FOLDER = "/sdcard/Music/Recordings"
TRASH = f"{FOLDER}/.trash"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio" / "recordings"
NAMES = sorted(p.name for p in FIXTURES.glob("*.m4a"))


@pytest.fixture
def recorder(adb_device, phone):
    adb_device.shell(f"rm -rf {FOLDER}")
    ui = AdbUI(adb_device, phone, PKG)
    yield ui
    ui.close()
    adb_device.shell(f"am force-stop {PKG}")
    adb_device.shell(f"rm -rf {FOLDER}")


def push(ui: AdbUI, names=NAMES, folder: str = FOLDER) -> None:
    for name in names:
        ui.device.sync.push((FIXTURES / name).read_bytes(), f"{folder}/{name}")


def files(ui: AdbUI, folder: str = FOLDER) -> list[str]:
    out = ui.shell(f"ls -1 {folder} 2>/dev/null")
    return sorted(n for n in out.split() if not n.startswith("."))


def test_recording_saves_a_new_file_in_the_recorders_folder(recorder):
    recorder.fresh_start()
    assert recorder.text("recording_duration") == "00:00"
    recorder.tap(id="toggle_recording_button").tap(id="toggle_recording_button")
    saved = files(recorder)
    assert len(saved) == 1 and saved[0].endswith(".m4a")
    recorder.tap(text="Player")
    assert recorder.texts("recording_title") == saved
    assert recorder.text("recording_duration") == "00:01"
    clicks = [e["id"].rsplit("/", 1)[-1] for e in recorder.clicks()]
    assert clicks == ["toggle_recording_button", "toggle_recording_button", ""]  # the tab has no id


def test_extension_setting_names_the_next_recording(recorder):
    recorder.fresh_start().tap(desc="Settings").tap(id="settings_extension_holder")
    assert [n["text"] for n in recorder.all(cls="android.widget.RadioButton")] == ["m4a", "mp3", "ogg (Opus)"]
    recorder.tap(text="mp3")
    assert recorder.text("settings_extension") == "mp3"
    recorder.key("BACK").tap(id="toggle_recording_button").tap(id="toggle_recording_button")
    assert [n.rsplit(".", 1)[1] for n in files(recorder)] == ["mp3"]


def test_player_lists_pushed_recordings_with_duration_and_size(recorder):
    push(recorder)
    recorder.fresh_start().tap(text="Player")
    assert sorted(recorder.texts("recording_title")) == NAMES
    assert set(recorder.texts("recording_duration")) == {"00:01", "00:02"}
    assert all(size.endswith("kB") for size in recorder.texts("recording_size"))


def test_rename_keeps_the_extension_and_renames_the_file(recorder):
    push(recorder, NAMES[:1])
    recorder.fresh_start().tap(text="Player").long_press(id="recording_title")
    assert recorder.find(text="1 / 1")
    recorder.tap(desc="Rename")
    assert recorder.text("rename_recording_title") == NAMES[0].rsplit(".", 1)[0]
    recorder.type("voice", id="rename_recording_title").tap(text="OK")
    assert files(recorder) == ["voice.m4a"]
    assert recorder.texts("recording_title") == ["voice.m4a"]


@pytest.mark.parametrize("name, toast", [("", "Please enter a name"), ("a/b", "The name contains invalid characters")])
def test_a_bad_name_is_refused_and_the_dialog_stays(recorder, name, toast):
    push(recorder, NAMES[:1])
    recorder.fresh_start().tap(text="Player").long_press(id="recording_title").tap(desc="Rename")
    recorder.type(name, id="rename_recording_title").tap(text="OK")
    assert recorder.has(id="rename_recording_title"), "the dialog closed"
    assert files(recorder) == NAMES[:1]
    recorder.key("BACK").key("BACK")  # the keyboard takes the first BACK, the second cancels the dialog
    assert not recorder.has(id="rename_recording_title")


def test_rename_is_offered_for_one_recording_only(recorder):
    push(recorder)
    recorder.fresh_start().tap(text="Player").long_press(text=NAMES[0])
    assert recorder.has(desc="Rename")
    recorder.tap(text=NAMES[1])
    assert recorder.find(text="2 / 3") and not recorder.has(desc="Rename")
    recorder.key("BACK")
    assert recorder.has(id="top_toolbar_search"), "BACK did not leave selection mode"


def test_delete_moves_to_the_recycle_bin_and_restore_brings_back(recorder):
    push(recorder)
    # With one recording selected, Rename, Share and Delete fill the bar: Select all is under More options.
    recorder.fresh_start().tap(text="Player").long_press(id="recording_title").tap(desc="More options")
    recorder.tap(id="title", text="Select all")
    assert recorder.find(text="3 / 3")
    recorder.tap(desc="Delete")
    assert "3 recordings" in recorder.text("delete_remember_title")
    recorder.tap(text="Yes")
    assert files(recorder) == [] and files(recorder, TRASH) == NAMES
    assert "No recordings" in recorder.text("recordings_placeholder")
    recorder.tap(text="Recycle Bin").long_press(text=NAMES[0]).tap(desc="More options")
    recorder.tap(text="Restore selected files")
    assert files(recorder) == NAMES[:1] and files(recorder, TRASH) == NAMES[1:]


def test_skip_the_recycle_bin_deletes_for_good(recorder):
    push(recorder, NAMES[:1])
    recorder.fresh_start().tap(text="Player").long_press(id="recording_title").tap(desc="Delete")
    recorder.tap(id="skip_the_recycle_bin_checkbox").tap(text="Yes")
    assert files(recorder) == [] and files(recorder, TRASH) == []


def test_no_recycle_bin_tab_when_the_setting_is_off(recorder):
    recorder.fresh_start()
    assert "Recycle Bin" in recorder.texts("tab_item_label")
    recorder.tap(desc="Settings").swipe_up(id="settings_nested_scrollview")
    recorder.tap(id="settings_use_recycle_bin_holder")
    assert not recorder.find(id="settings_use_recycle_bin")["checked"] == "true"
    assert not recorder.has(id="settings_empty_recycle_bin_holder")
    recorder.key("BACK")
    assert recorder.texts("tab_item_label") == ["Recorder", "Player"]


def test_empty_recycle_bin_asks_then_empties(recorder):
    push(recorder, NAMES[:2], TRASH)
    recorder.fresh_start().tap(desc="Settings").swipe_up(id="settings_nested_scrollview")
    assert recorder.text("settings_empty_recycle_bin_size") != "0 B"
    recorder.tap(id="settings_empty_recycle_bin_holder")
    recorder.tap(text="No")
    assert files(recorder, TRASH) == NAMES[:2]
    recorder.tap(id="settings_empty_recycle_bin_holder").tap(text="Yes")
    assert files(recorder, TRASH) == []
    assert recorder.text("settings_empty_recycle_bin_size") == "0 B"


def test_bitrate_dialog_lists_the_apps_bitrates(recorder):
    recorder.fresh_start().tap(desc="Settings").tap(id="settings_bitrate_holder")
    options = [n["text"] for n in recorder.all(cls="android.widget.RadioButton")]
    assert options[0] == "32 kbps" and options[-1] == "320 kbps" and len(options) == 8
    recorder.tap(text="32 kbps")
    assert recorder.text("settings_bitrate") == "32 kbps"


def test_theme_picker_saves_dark_red(recorder):
    recorder.fresh_start().tap(desc="Settings").tap(id="settings_color_customization_holder")
    assert recorder.activity().endswith("CustomizationActivity")
    assert not recorder.has(desc="Save")
    assert recorder.text("customization_theme") == "System default (Material You)"
    # Android 12+: the system theme hides the text, background and primary colour rows.
    assert not recorder.has(id="customization_text_color_holder")
    recorder.tap(id="customization_theme_holder")
    assert recorder.text("message").startswith("WARNING: Some launchers do not handle app icon customization")
    recorder.tap(text="OK")
    themes = [n["text"] for n in recorder.all(cls="android.widget.RadioButton")]
    assert themes == ["System default (Material You)", "Auto light / dark", "Light", "Dark", "Dark red", "White",
                      "Black & White", "Custom"]
    recorder.tap(text="Dark red")
    assert recorder.text("customization_theme") == "Dark red"
    assert recorder.has(id="customization_text_color_holder") and recorder.has(id="customization_primary_color_holder")
    recorder.tap(desc="Save")
    assert recorder.activity().endswith(".SettingsActivity")
    recorder.tap(id="settings_color_customization_holder")
    assert recorder.text("customization_theme") == "Dark red"
    recorder.tap(id="customization_theme_holder")  # the warning was shown once: the themes come at once
    assert recorder.has(text="Dark red", cls="android.widget.RadioButton")


def test_leaving_unsaved_colors_asks_to_save(recorder):
    recorder.fresh_start().tap(desc="Settings").tap(id="settings_color_customization_holder")
    recorder.tap(id="customization_theme_holder").tap(text="OK").tap(text="White").key("BACK")
    assert recorder.text("message") == "You have unsaved changes. Save before exit?"
    assert recorder.has(text="Save") and recorder.has(text="Discard")
    recorder.tap(text="Discard")
    recorder.tap(id="settings_color_customization_holder")
    assert recorder.text("customization_theme") == "System default (Material You)"


def test_every_simple_app_opens_customize_colors_from_its_settings(adb_device, phone):
    """Commons' CustomizationActivity is reached from each app's "Customize colors" row."""
    import uitools

    apps = {"com.simplemobiletools.contacts.pro": "settings_color_customization_holder",
            "com.simplemobiletools.smsmessenger": "settings_color_customization_holder",
            "com.simplemobiletools.notes.pro": "settings_color_customization_holder",
            "com.simplemobiletools.gallery.pro": "settings_color_customization_holder",
            "com.simplemobiletools.applauncher": "settings_color_customization_holder",
            "com.simplemobiletools.calendar.pro": "settings_color_customization_holder"}
    def tap(**criteria) -> None:
        x, y = uitools.centre(uitools.find(adb_device.dump_hierarchy(), **criteria))
        adb_device.shell(f"input tap {x} {y}")

    # Messenger shows its main screen only as the default SMS app (other tests take the role away).
    adb_device.shell("cmd role add-role-holder android.app.role.SMS com.simplemobiletools.smsmessenger")
    for package, row in apps.items():
        adb_device.shell(f"am force-stop {package}")
        adb_device.shell(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
        if uitools.find_all(adb_device.dump_hierarchy(), desc="Settings"):
            tap(desc="Settings")  # an action icon
        else:
            tap(desc="More options")
            tap(text="Settings")
        tap(id=f"{package}:id/{row}")
        current = adb_device.app_current()
        assert (current.package, current.activity) == (
            package, "com.simplemobiletools.commons.activities.CustomizationActivity"), package
        assert uitools.find(adb_device.dump_hierarchy(), id=f"{package}:id/customization_theme")["text"] == \
            "System default (Material You)"


def test_search_filters_the_player_list(recorder):
    push(recorder)
    recorder.fresh_start().type("05_02", id="top_toolbar_search")
    assert recorder.texts("recording_title") == [NAMES[1]], "search did not switch to the Player tab and filter"


def test_about_opens_the_faq(recorder):
    recorder.fresh_start().tap(desc="About").tap(text="Frequently asked questions")
    assert recorder.activity().endswith("FAQActivity")
    # Compose FAQScreen: no resource-ids; the question is the first text after the title
    texts = [n["text"] for n in recorder.nodes() if n["text"]]
    assert texts[:2] == ["Frequently asked questions", "Can I hide the notification icon during recording?"]


def test_the_search_icon_puts_the_cursor_in_the_search_field(recorder):
    push(recorder)
    recorder.fresh_start().tap(text="Player").tap(id="top_toolbar_search_icon")
    assert recorder.find(id="top_toolbar_search")["focused"] == "true"
    recorder.shell("input text 05_03")
    assert recorder.texts("recording_title") == [NAMES[2]]


def test_save_recordings_in_picks_a_folder_where_the_next_recording_goes(recorder):
    """5.12.3 setupSaveRecordingsFolder: Commons' FilePickerDialog with its create-folder FAB, so opening a
    folder without sub-folders does not pick it (updateItems); OK picks the open one."""
    recorder.shell("mkdir -p /sdcard/Alarms /sdcard/Podcasts")
    recorder.fresh_start().tap(desc="Settings")
    assert recorder.text("settings_save_recordings") == "Internal/Music/Recordings"
    recorder.tap(id="settings_save_recordings_holder")
    assert recorder.find(text="Select a folder") and recorder.find(id="filepicker_fab")
    recorder.tap(id="breadcrumb_text", text="Internal").tap(id="list_item_name", text="Alarms")
    assert recorder.find(id="filepicker_list") is not None  # still open on Alarms
    recorder.tap(text="OK")
    assert recorder.text("settings_save_recordings") == "Internal/Alarms"
    recorder.key("BACK").tap(id="toggle_recording_button").tap(id="toggle_recording_button")
    assert len(files(recorder, "/sdcard/Alarms")) == 1 and files(recorder) == []
    recorder.tap(text="Player")
    assert recorder.texts("recording_title") == files(recorder, "/sdcard/Alarms")
    # Alarms and Podcasts are among the folders a phone has from boot (other tests list them): only the recording goes.
    recorder.shell("rm -f " + " ".join(f"'/sdcard/Alarms/{name}'" for name in files(recorder, "/sdcard/Alarms")))


def test_the_pickers_fab_creates_a_folder_and_picks_it(recorder):
    recorder.fresh_start().tap(desc="Settings").tap(id="settings_save_recordings_holder").tap(id="filepicker_fab")
    assert recorder.find(text="Create new folder")
    assert recorder.text("folder_path") == "Internal/Music/Recordings/"
    recorder.tap(text="OK")
    assert recorder.has(id="folder_name"), "an empty name closed the dialog"
    recorder.type("Memos", id="folder_name").tap(text="OK")
    assert recorder.text("settings_save_recordings") == "Internal/Music/Recordings/Memos"
    assert "Memos" in recorder.shell(f"ls -1 {FOLDER}").split()


def test_change_date_and_time_format_changes_the_player_dates(recorder):
    push(recorder, NAMES[:1])
    recorder.shell(f"touch -d '2023-07-01 13:04:00' {FOLDER}/{NAMES[0]}")
    recorder.fresh_start().tap(text="Player")
    assert recorder.text("recording_date") == "01.07.2023, 1:04 PM"
    recorder.tap(desc="Settings").tap(id="settings_change_date_time_format_holder")
    recorder.tap(id="change_date_time_dialog_radio_four").tap(id="change_date_time_dialog_24_hour").tap(text="OK")
    recorder.key("BACK").tap(text="Player")
    assert recorder.text("recording_date") == "2023-07-01, 13:04"


def test_share_goes_through_the_share_sheet_and_open_with_plays_in_the_music_player(recorder):
    """RecordingsAdapter.shareRecordings (Commons' sharePathsIntent: the share sheet) and
    openRecordingWith (ACTION_VIEW of audio/*: Music Player's TrackActivity, the one app that takes it)."""
    push(recorder, NAMES[:2])
    recorder.fresh_start().tap(text="Player").long_press(text=NAMES[0]).tap(text=NAMES[1]).tap(desc="Share")
    # ACTION_SEND_MULTIPLE of audio: Messenger is this phone's one app that takes it, and the share
    # sheet starts a single target without showing itself (ChooserActivity.shouldAutoLaunchSingleChoice)
    assert recorder.activity() == "com.simplemobiletools.smsmessenger.activities.NewConversationActivity"
    recorder.key("BACK").key("BACK")  # the keyboard of the focused number field takes the first BACK
    assert recorder.device.app_current().package == PKG
    recorder.long_press(text=NAMES[0]).tap(desc="More options").tap(text="Open with")
    assert recorder.activity() == "com.simplemobiletools.musicplayer.activities.TrackActivity"
    recorder.key("BACK")
    assert recorder.device.app_current().package == PKG
