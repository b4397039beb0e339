"""Simple Music Player on the served virtual phone, driven through the real adb server.

Songs are the tagged fixtures, pushed with adbutils' sync and scanned with the
media-scan broadcast (or left unscanned, for the app's own scanner to find).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from adbui import AdbUI

PKG = "com.simplemobiletools.musicplayer"
MUSIC = "/sdcard/Music"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "audio" / "music"
SONGS = sorted(p.name for p in FIXTURES.glob("*.mp3"))


@pytest.fixture
def music(adb_device, phone):
    remove = "rm -f " + " ".join(f"{MUSIC}/{name}" for name in SONGS)
    adb_device.shell(remove)
    ui = AdbUI(adb_device, phone, PKG)
    yield ui
    ui.close()
    adb_device.shell(f"am force-stop {PKG}")
    adb_device.shell(remove)
    adb_device.shell(f"am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file://{MUSIC}")


def push(ui: AdbUI, names=SONGS, scan: bool = True) -> None:
    for name in names:
        ui.device.sync.push((FIXTURES / name).read_bytes(), f"{MUSIC}/{name}")
        if scan:
            ui.shell(f"am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file://{MUSIC}/{name}")


def refresh_menu(ui: AdbUI) -> AdbUI:
    """Two tab changes, back to Playlists: the app's first screen hides the playlist items until one."""
    return ui.tap(text="Albums").tap(text="Playlists")


def new_playlist(ui: AdbUI, title: str) -> None:
    refresh_menu(ui)
    ui.tap(desc="More options").tap(text="Create new playlist").type(title, id="new_playlist_title").tap(text="OK")


def test_fresh_app_has_the_all_tracks_playlist_and_five_tabs(music):
    music.fresh_start()
    # Config.showTabs defaults to allTabsMask: every tab but Genres on Android 10+
    assert music.texts("tab_item_label") == ["Playlists", "Folders", "Artists", "Albums", "Tracks"]
    assert music.texts("playlist_title") == ["All tracks"]
    assert music.texts("playlist_tracks") == ["0 Tracks"]


def test_the_tabs_show_the_songs_tags(music):
    push(music)
    music.fresh_start()
    assert music.texts("playlist_tracks") == ["4 Tracks"]
    music.tap(text="Folders")
    assert (music.texts("folder_title"), music.texts("folder_tracks")) == (["Music"], ["4 Tracks"])
    music.tap(text="Artists")
    assert music.texts("artist_title") == ["Pulse Trio", "The Sine Waves"]
    assert music.texts("artist_albums_tracks") == ["1 Album, 2 Tracks", "2 Albums, 2 Tracks"]
    music.tap(text="Albums")
    assert music.texts("album_title") == ["Dusk", "First Light", "Grid"]
    music.tap(text="Tracks")
    assert music.texts("track_title") == ["Evening Tone", "Last Pulse", "Morning Tone", "Square Dance"]
    assert music.texts("track_duration")[1] == "00:02"
    show_genres(music)
    music.tap(text="Genres")
    assert music.texts("genre_title") == ["Ambient", "Electronic"]


def show_genres(ui: AdbUI) -> None:
    """Settings > Manage shown tabs > Genres > OK, then back to the main screen."""
    ui.tap(desc="More options").tap(text="Settings").tap(text="Manage shown tabs")
    ui.tap(id="manage_visible_tabs_genres").tap(text="OK").key("BACK")


def test_manage_shown_tabs_hides_and_shows_tabs_and_cancel_keeps_them(music):
    music.fresh_start().tap(text="Albums")
    music.tap(desc="More options").tap(text="Settings").tap(text="Manage shown tabs")
    boxes = [(n["text"], n["checked"]) for n in music.nodes() if n.get("class") == "android.widget.CheckBox"]
    assert boxes == [("Playlists", "true"), ("Folders", "true"), ("Artists", "true"), ("Albums", "true"),
                     ("Tracks", "true"), ("Genres", "false")]
    music.tap(id="manage_visible_tabs_folders").tap(text="Cancel").tap(text="Manage shown tabs")
    assert music.find(id="manage_visible_tabs_folders")["checked"] == "true"
    music.tap(id="manage_visible_tabs_folders").tap(id="manage_visible_tabs_genres").tap(text="OK").key("BACK")
    # a changed showTabs resets lastUsedViewPagerPage (MainActivity.onResume): back on the first tab
    assert music.texts("tab_item_label") == ["Playlists", "Artists", "Albums", "Tracks", "Genres"]
    assert music.has(id="playlists_list")


def test_the_app_reopens_on_the_tab_it_was_left_on(music):
    music.fresh_start().tap(text="Albums").key("HOME")
    music.shell(f"am force-stop {PKG}")
    music.shell(f"am start -n {PKG}/.activities.MainActivity")
    assert music.has(id="albums_fragment_holder")


def test_widget_colors_and_excluded_folders_from_settings(music):
    music.fresh_start().tap(desc="More options").tap(text="Settings").tap(text="Customize widget colors")
    assert music.activity().endswith(".WidgetConfigureActivity")
    # no current track: R.string.artist / R.string.song_title, in the source's (swapped) order
    assert (music.text("song_info_title"), music.text("song_info_artist")) == ("Artist", "Song title")
    assert music.has(id="config_bg_seekbar") and music.has(id="previous_btn")
    music.tap(id="config_save")
    assert music.activity().endswith(".SettingsActivity")
    music.tap(text="Manage excluded folders")
    assert music.activity().endswith(".ExcludedFoldersActivity")
    assert music.text("excluded_folders_placeholder").startswith("Excluding a folder will prevent")
    music.key("BACK")
    assert music.activity().endswith(".SettingsActivity")


def test_widget_configuration_without_a_widget_finishes(music):
    music.fresh_start()
    music.shell(f"am start -n {PKG}/.activities.WidgetConfigureActivity")
    assert music.activity().endswith(".MainActivity")


@pytest.mark.parametrize("field, order, expected", [
    ("Year", "Ascending", ["First Light", "Grid", "Dusk"]),
    ("Year", "Descending", ["Dusk", "Grid", "First Light"]),
    ("Title", "Descending", ["Grid", "First Light", "Dusk"]),
])
def test_album_sort_dialog(music, field, order, expected):
    push(music)
    music.fresh_start().tap(text="Albums").tap(desc="Sort by")
    assert [n["text"] for n in music.all(cls="android.widget.RadioButton")] == [
        "Title", "Artist Name", "Year", "Date added", "Ascending", "Descending"]
    music.tap(text=field).tap(text=order).tap(text="OK")
    assert music.texts("album_title") == expected


def test_a_playlists_sort_dialog_and_its_use_for_this_playlist_only(music):
    push(music)
    music.fresh_start()
    new_playlist(music, "Mix")
    music.tap(text="Tracks").long_press(text="Square Dance").tap(text="Morning Tone")
    music.tap(desc="More options").tap(text="Add to playlist").tap(text="Mix")
    music.tap(text="Playlists").tap(text="Mix").tap(desc="Sort by")
    assert [n["text"] for n in music.all(cls="android.widget.RadioButton")] == [
        "Title", "Artist", "Duration", "Track number", "Date added", "Custom", "Ascending", "Descending"]
    assert music.find(id="sorting_dialog_use_for_this_only")["text"] == "Use for this playlist only"
    music.tap(text="Custom")  # the order radios go while Custom is checked
    assert not music.has(id="sorting_dialog_radio_order")
    music.tap(text="Title").tap(text="Descending").tap(id="sorting_dialog_use_for_this_only").tap(text="OK")
    assert music.texts("track_title") == ["Square Dance", "Morning Tone"]
    # Mix keeps its own sorting; the other playlists and the folders keep Config.playlistTracksSorting
    music.key("BACK").tap(text="All tracks")
    assert music.texts("track_title") == ["Evening Tone", "Last Pulse", "Morning Tone", "Square Dance"]
    music.key("BACK").tap(text="Folders").tap(text="Music").tap(desc="Sort by")
    assert music.find(id="sorting_dialog_use_for_this_only")["text"] == "Use for this folder only"
    assert not music.has(text="Custom")
    music.tap(text="Cancel").key("BACK").tap(text="Playlists").tap(text="Mix").tap(desc="Sort by")
    assert music.find(id="sorting_dialog_use_for_this_only")["checked"] == "true"


def test_cancel_keeps_the_sort_order(music):
    push(music)
    music.fresh_start().tap(text="Albums").tap(desc="Sort by").tap(text="Year").tap(text="Cancel")
    assert music.texts("album_title") == ["Dusk", "First Light", "Grid"]


def test_create_playlist_then_a_duplicate_or_empty_name_is_refused(music):
    music.fresh_start()
    new_playlist(music, "Road trip")
    assert music.texts("playlist_title") == ["All tracks", "Road trip"]
    assert [e["text"] for e in music.events if e["type"] == "window_state"][-1] == ["Music Player"]
    for bad in ("road trip", ""):
        new_playlist(music, bad)
        assert music.has(id="new_playlist_title"), f"{bad!r} was accepted"
        music.key("BACK").key("BACK")  # the keyboard takes the first BACK, the second cancels the dialog
    assert music.texts("playlist_title") == ["All tracks", "Road trip"]


def test_create_playlist_is_offered_on_the_playlists_tab_only_after_a_tab_change(music):
    # 5.18.3's MainActivity.onCreate runs refreshMenuItems before the pager has its fragments: the
    # playlist items stay hidden on the first screen, Playlists included, until onPageSelected
    music.fresh_start().tap(desc="More options")
    assert not music.has(text="Create new playlist") and music.has(text="Rescan media")
    music.key("BACK").tap(text="Albums").tap(desc="More options")
    assert not music.has(text="Create new playlist") and music.has(text="Rescan media")
    music.key("BACK").tap(text="Playlists").tap(desc="More options")
    assert music.has(text="Create new playlist") and music.has(text="Create new playlist from folder")


def test_add_tracks_to_a_playlist_open_it_and_delete_it(music):
    push(music)
    music.fresh_start()
    new_playlist(music, "Mix")
    music.tap(text="Tracks").long_press(text="Square Dance").tap(text="Morning Tone")
    music.tap(desc="More options").tap(text="Add to playlist").tap(text="Mix")
    music.tap(text="Playlists")
    assert music.texts("playlist_tracks") == ["4 Tracks", "2 Tracks"]
    music.tap(text="Mix")
    assert music.activity().endswith(".TracksActivity")
    assert music.texts("track_title") == ["Morning Tone", "Square Dance"]
    # a playlist's tracks are searched with menu_playlist.xml's SearchView action view (androidx
    # abc_search_view.xml: search_src_text, search_close_btn once there is text; the Toolbar's "Collapse")
    music.tap(desc="Search")
    assert music.find(id="search_src_text")["text"] == "Search…" and not music.has(id="search_close_btn")
    assert music.has(desc="Collapse") and not music.has(desc="Search") and music.has(desc="Sort by")
    music.type("morning", id="search_src_text")
    assert music.texts("track_title") == ["Morning Tone"] and music.has(id="search_close_btn")
    music.tap(desc="Collapse")
    assert music.texts("track_title") == ["Morning Tone", "Square Dance"] and not music.has(id="search_src_text")
    # PlaylistsAdapter.askConfirmDelete: 5.18.3 RemovePlaylistDialog (dialog_remove_playlist.xml)
    music.key("BACK").long_press(text="Mix").tap(desc="Delete")
    assert music.find(id="dialog_title_textview")["text"] == "Remove playlist"
    assert music.texts("remove_playlist_description") == [
        "This will only remove the selected playlists. The actual files will not be deleted."]
    assert music.has(id="remove_playlist_dialog_holder") and music.texts("remove_playlist_checkbox") == [
        "Delete the files too"]
    music.tap(text="OK")
    assert music.texts("playlist_title") == ["All tracks"]


def test_sharing_tracks_goes_through_android_14s_share_sheet(music):
    push(music)
    music.fresh_start().tap(text="Tracks").long_press(text="Square Dance")
    share = {"desc": "Share"} if music.has(desc="Share") else None
    if share is None:
        music.tap(desc="More options")
    music.tap(**(share or {"text": "Share"}))
    # Of this phone's apps only Messenger takes ACTION_SEND of audio (its SEND filter is */*), and
    # the share sheet starts a single target without showing itself (IntentResolver's
    # ChooserActivity.shouldAutoLaunchSingleChoice, EXTRA_AUTO_LAUNCH_SINGLE_CHOICE defaults to true).
    assert music.activity().startswith("com.simplemobiletools.smsmessenger.")
    assert music.activity().endswith(".NewConversationActivity")
    music.key("BACK").key("BACK")  # the keyboard of the focused number field takes the first BACK
    assert music.activity().endswith(".MainActivity")


def test_search_filters_the_current_tab(music):
    push(music)
    music.fresh_start().tap(text="Tracks").type("tone", id="top_toolbar_search")
    assert music.texts("track_title") == ["Evening Tone", "Morning Tone"]
    music.key("BACK").key("BACK")  # the keyboard takes the first BACK
    assert len(music.texts("track_title")) == 4


def test_empty_tabs_keep_their_list_under_no_items_found(music):
    """5.18.3 fragment_albums/artists/tracks.xml hold the placeholder and the fast scroller with its list;
    AlbumsFragment.setupFragment only makes the placeholder visible (beVisibleIf(albums.isEmpty())), so
    the empty list stays in the dump, as in the recorded screens.  fragment_playlists.xml puts the
    placeholder and playlists_placeholder_2 after the list; FoldersFragment alone hides the list
    (foldersFastscroller.beGoneIf(foldersPlaceholder.isVisible()))."""
    music.fresh_start()
    for tab, prefix in (("Artists", "artists"), ("Albums", "albums"), ("Tracks", "tracks")):
        music.tap(text=tab)
        ids = [n["resource-id"].rpartition("/")[2] for n in music.nodes()]
        start = ids.index(f"{prefix}_fragment_holder")
        assert ids[start:start + 4] == [f"{prefix}_fragment_holder", f"{prefix}_placeholder",
                                        f"{prefix}_fastscroller", f"{prefix}_list"], tab
        assert music.texts(f"{prefix}_placeholder") == ["No items found."]
        holder, listed = music.find(id=f"{prefix}_fragment_holder"), music.find(id=f"{prefix}_list")
        assert listed["bounds"] == holder["bounds"], "the empty list fills its tab"
    music.tap(text="Folders")
    assert music.has(id="folders_placeholder") and not music.has(id="folders_list")
    # PlaylistsFragment.onSearchQueryChanged: both placeholders visible when nothing matches
    music.tap(text="Playlists").type("zzz", id="top_toolbar_search")
    ids = [n["resource-id"].rpartition("/")[2] for n in music.nodes()]
    start = ids.index("playlists_fragment_holder")
    assert ids[start:start + 5] == ["playlists_fragment_holder", "playlists_fastscroller", "playlists_list",
                                    "playlists_placeholder", "playlists_placeholder_2"]
    assert music.find(id="playlists_placeholder_2")["text"] == "Create new playlist"


def test_rescan_media_finds_files_pushed_while_the_app_runs(music):
    music.fresh_start().tap(text="Folders")
    assert music.has(text="No items found.")
    push(music, SONGS[:2], scan=False)
    assert music.has(text="No items found."), "the library changed without a scan"
    music.tap(desc="More options").tap(text="Rescan media")
    assert music.texts("folder_tracks") == ["2 Tracks"]
    assert {row.title for row in music.phone.system.media_store.query("audio", folder=MUSIC)} >= {
        "Evening Tone", "Last Pulse"}, "the app did not have the media store index what it found"


def test_playing_a_track_shows_the_player_and_the_current_track_bar(music):
    push(music)
    music.fresh_start().tap(text="Tracks").tap(text="Last Pulse")
    assert music.activity().endswith(".TrackActivity")
    assert (music.text("activity_track_title"), music.text("activity_track_artist")) == ("Last Pulse", "Pulse Trio")
    music.key("BACK")
    assert music.text("current_track_label") == "Last Pulse • Pulse Trio"


def test_the_player_shows_next_track_speed_shuffle_and_repeat_as_5_18_3(music):
    push(music)
    music.fresh_start().tap(text="Tracks")
    order = music.texts("track_title")
    music.tap(text=order[0])
    # the tapped list is the queue; Next names the following track (TrackActivity.setupNextTrackInfo)
    assert music.text("next_track_label").startswith(f"Next: {order[1]} • ")
    assert music.text("activity_track_speed") == "1x"
    assert music.has(id="activity_track_toggle_shuffle", desc="Disable shuffle")  # shuffle is on at first
    music.tap(id="activity_track_toggle_shuffle")
    assert music.has(id="activity_track_toggle_shuffle", desc="Enable shuffle")
    # the button's description names the setting a tap switches to (contentDescriptionStringRes)
    for after in ("Repeat current song", "Stop playback after current song", "Repeat off", "Repeat all"):
        music.tap(id="activity_track_playback_setting")
        assert music.has(id="activity_track_playback_setting", desc=after)
    music.tap(id="activity_track_speed_click_area")
    assert music.text("playback_speed_title") == "Playback speed" and music.text("playback_speed_label") == "1.00x"
    assert music.has(id="design_bottom_sheet") and music.has(id="touch_outside")
    music.tap(id="playback_speed_fast").tap(id="playback_speed_label")  # the sheet keeps taps on it
    assert music.text("playback_speed_label") == "1.05x"
    music.tap(id="touch_outside")
    assert not music.has(id="design_bottom_sheet") and music.text("activity_track_speed") == "1.05x"
    music.tap(id="activity_track_next")
    assert music.text("activity_track_title") == order[1]


def test_create_playlist_from_folder_picks_a_folder_then_names_the_playlist(music):
    # the phone is shared: Voice Recorder's Music/Recordings may be there from another test
    music.shell(f"rm -rf {MUSIC}/Recordings")
    push(music)
    refresh_menu(music.fresh_start()).tap(desc="More options").tap(text="Create new playlist from folder")
    assert music.text("dialog_title_textview") == "Select a folder"
    # Music has no sub-folder: picked at once, then NewPlaylistDialog asks for the title
    music.swipe_up(id="filepicker_list").tap(id="list_item_name", text="Music")
    music.type("From folder", id="new_playlist_title").tap(text="OK")
    rows = dict(zip(music.texts("playlist_title"), music.texts("playlist_tracks")))
    assert rows["From folder"] == f"{len(SONGS)} Tracks"


def test_sleep_timer_shows_the_time_left_until_stopped(music):
    music.fresh_start().tap(desc="More options").tap(text="Sleep timer")
    options = [n["text"] for n in music.nodes() if n.get("class") == "android.widget.RadioButton"]
    assert options == ["5 minutes", "10 minutes", "20 minutes", "30 minutes", "1 hour", "Custom"]
    assert music.find(text="30 minutes")["checked"] == "true"  # Config.lastSleepTimerSeconds: 30 minutes
    music.tap(text="5 minutes")
    assert music.text("sleep_timer_label") == "Sleep timer"
    assert music.text("sleep_timer_value") in ("05:00", "04:59")
    music.tap(id="sleep_timer_stop")
    assert not music.has(id="sleep_timer_holder")


def test_custom_sleep_timer_asks_for_minutes(music):
    music.fresh_start().tap(desc="More options").tap(text="Sleep timer").tap(text="Custom")
    assert music.text("dialog_title_textview") == "Sleep timer" and music.find(id="minutes")["focused"] == "true"
    music.type("0", id="minutes").key("BACK").tap(text="OK")  # BACK hides the keyboard; 0 minutes: no timer
    assert not music.has(id="sleep_timer_holder")
    music.tap(desc="More options").tap(text="Sleep timer").tap(text="Custom")
    music.type("45", id="minutes").key("BACK").tap(text="OK")
    assert music.text("sleep_timer_value") in ("45:00", "44:59")
    music.tap(id="sleep_timer_stop").tap(desc="More options").tap(text="Sleep timer")
    # the last length, not among the presets, is offered (and checked) before Custom
    assert music.find(text="45 minutes")["checked"] == "true"


def test_equalizer_presets(music):
    music.fresh_start().tap(desc="Equalizer")
    assert music.text("equalizer_preset") == "Normal"
    assert music.texts("equalizer_band_label") == ["60 Hz", "230 Hz", "910 Hz", "3.6 kHz", "14 kHz"]
    music.tap(id="equalizer_preset").tap(text="Heavy Metal")
    assert music.text("equalizer_preset") == "Heavy Metal"
    music.key("BACK").tap(desc="Equalizer")
    assert music.text("equalizer_preset") == "Heavy Metal"


def test_settings_about_and_faq(music):
    music.fresh_start().tap(desc="More options").tap(text="Settings")
    assert music.activity().endswith(".SettingsActivity")
    music.tap(id="settings_swap_prev_next_holder")
    assert music.find(id="settings_swap_prev_next")["checked"] == "true"
    music.key("BACK").tap(desc="More options").tap(text="About").tap(text="Frequently asked questions")
    assert music.activity().endswith("FAQActivity")
    texts = [n["text"] for n in music.nodes() if n["text"]]   # Compose FAQScreen: no resource-ids
    assert texts[:2] == ["Frequently asked questions", "How can I fast-forward songs?"]


def test_an_artist_shows_albums_then_tracks_and_an_album_its_header(music):
    push(music)
    music.fresh_start().tap(text="Artists").tap(text="The Sine Waves")
    assert music.activity().endswith(".AlbumsActivity")
    assert music.texts("item_section") == ["2 Albums", "2 Tracks • 0:00:02"]
    assert music.texts("album_title") == ["Dusk", "First Light"]
    music.key("BACK").tap(text="Albums").tap(text="Grid")
    assert (music.text("album_title"), music.text("album_artist")) == ("Grid", "Pulse Trio")
    assert music.text("album_meta") == "2 Tracks • 0:00:03"
    assert music.texts("track_id") == ["1", "2"] and music.texts("track_title") == ["Square Dance", "Last Pulse"]
