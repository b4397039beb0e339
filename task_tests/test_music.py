"""Simple Music Player: the ten music_player_* tasks of MobileAgentBench.

Songs are files from `fixtures/audio/music` pushed to `/sdcard/Music` with
`adb push` and announced with a media-scan broadcast (except for the rescan
task, whose point is that the app has not seen them yet); each seed removes
them afterwards, since `pm clear` does not touch shared storage.  Playlists
and the starting tab are set through the app's UI.
"""

from __future__ import annotations

import shlex

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task
from pytest_mobileagent.media import media_dir

APP = "com.simplemobiletools.musicplayer"
MUSIC = "/sdcard/Music"
FIXTURES = media_dir() / "audio" / "music"
SONGS = sorted(p.name for p in FIXTURES.glob("*.mp3"))
#: the fixtures' albums ordered by year (2015, 2019, 2021), an order no other sort gives
ALBUMS_BY_YEAR = ["First Light", "Grid", "Dusk"]


def push_songs(device, names, *, scan: bool = True) -> None:
    for name in names:
        path = f"{MUSIC}/{name}"
        device.push(path, (FIXTURES / name).read_bytes())
        if scan:
            device.shell(f"am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file://{path}")


def remove_songs(device) -> None:
    """Delete the audio files directly in /sdcard/Music (listed, then named: only audio files go)."""
    listing = device.shell(f"ls -1 {MUSIC} 2>/dev/null").split()
    songs = [n for n in listing if n.lower().endswith((".mp3", ".m4a", ".ogg", ".flac", ".wav", ".opus"))]
    if songs:
        device.shell("rm -f " + " ".join(shlex.quote(f"{MUSIC}/{name}") for name in songs))


@pytest.fixture
def music_folder(device):
    """No songs in /sdcard/Music before the task, and none left after it."""
    remove_songs(device)
    yield MUSIC
    remove_songs(device)
    device.shell(f"am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file://{MUSIC}")


@pytest.fixture
def songs(device, music_folder):
    push_songs(device, SONGS)
    return SONGS


@pytest.fixture
def music_ui(ui_factory, music_folder):
    return ui_factory(APP).launch()


def new_playlist(ui, title: str) -> None:
    ui.tap(desc="More options").tap(id="title", text="Create new playlist")
    ui.type(title, id="new_playlist_title").tap(id="android:id/button1")


@pytest.fixture
def on_albums_tab(music_ui):
    music_ui.tap(id="tab_item_label", text="Albums")


@pytest.fixture
def playlist_test(music_ui):
    music_ui.tap(id="tab_item_label", text="Albums").tap(id="tab_item_label", text="Playlists")
    new_playlist(music_ui, "test")


@pytest.fixture
def two_playlists(music_ui):
    # 5.18.3 shows the playlist items only after a tab change (MainActivity.refreshMenuItems)
    music_ui.tap(id="tab_item_label", text="Albums").tap(id="tab_item_label", text="Playlists")
    for title in ("Chill", "Workout"):
        new_playlist(music_ui, title)


@pytest.fixture
def unscanned_songs(device, music_ui):
    """The app was started with no music; then two songs arrive without a media scan."""
    music_ui.tap(id="tab_item_label", text="Folders")
    push_songs(device, SONGS[:2], scan=False)


def playlists(screen) -> list[str]:
    return screen.texts(id="playlist_title")


def playlist_created(screen, title: str = "test") -> bool:
    """The playlist shows in the Playlists tab and its dialog is closed."""
    return (not screen.exists(id="new_playlist_title")
            and any(t.lower() == title for t in playlists(screen)))


@task(app="music", storage=[MUSIC], prompt="open faq page",
      golden=[g.tap(desc="More options"), g.tap(text="About"), g.tap(text="Frequently asked questions")])
def test_music_player_open_faq(screen):
    assert screen.package == APP
    assert screen.activity.endswith("FAQActivity")


@task(app="music", storage=[MUSIC], prompt="sort the album by 'year'",
      golden=[g.tap(text="Albums"), g.tap(desc="Sort by"), g.tap(text="Year"), g.tap(text="OK")])
def test_music_player_album_sort_by_year(songs, screen):
    assert screen.exists(id="albums_list"), "the Albums tab is not shown"
    titles = screen.texts(id="album_title")
    assert titles in (ALBUMS_BY_YEAR, ALBUMS_BY_YEAR[::-1]), f"albums are not in year order: {titles}"


@task(app="music", storage=[MUSIC], prompt="config equalizer to Heavy Metal",
      golden=[g.tap(desc="Equalizer"), g.tap(id="equalizer_preset"), g.tap(text="Heavy Metal")])
def test_music_player_config_equalizer(screen):
    assert screen.text(id="equalizer_preset") == "Heavy Metal"


@task(app="music", storage=[MUSIC], prompt="create a new playlist:test",
      golden=[g.tap(text="Playlists"), g.tap(desc="More options"), g.tap(text="Create new playlist"),
              g.type("test", id="new_playlist_title"), g.tap(text="OK")])
def test_music_player_create_playlist(on_albums_tab, screen):
    assert playlist_created(screen), f"no playlist 'test' among {playlists(screen)}"


@task(app="music", storage=[MUSIC], prompt="create a new playlist: test, and search for it", min_steps=6,
      min_steps_reason="the paper counts 7 (tapping the search field, then typing); one typing action does both",
      golden=[g.tap(text="Playlists"), g.tap(desc="More options"), g.tap(text="Create new playlist"),
              g.type("test", id="new_playlist_title"), g.tap(text="OK"), g.type("test", id="top_toolbar_search")])
def test_music_player_create_playlist_and_search(on_albums_tab, screen, progress):
    progress.reach("playlist created", playlist_created(screen))
    assert progress.reached("playlist created"), "the playlist 'test' was not created"
    assert (screen.text(id="top_toolbar_search") or "").lower() == "test"
    assert [t.lower() for t in playlists(screen)] == ["test"], "the search does not show the playlist"


@task(app="music", storage=[MUSIC], prompt="create a new playlist: test, and sort all playlist by descending order",
      min_steps=9, min_steps_reason="the paper counts 7; 5.18.3 hides Create new playlist until a tab change "
      "refreshes the menu (MainActivity.onCreate calls refreshMenuItems before the pager has its fragments), "
      "so the app's first screen needs two tab taps first",
      golden=[g.tap(text="Albums"), g.tap(text="Playlists"), g.tap(desc="More options"), g.tap(text="Create new playlist"), g.type("test", id="new_playlist_title"),
              g.tap(text="OK"), g.tap(desc="Sort by"), g.tap(text="Descending"), g.tap(text="OK")])
def test_music_player_create_playlist_and_sort_desc(music_folder, screen, progress):
    progress.reach("playlist created", playlist_created(screen))
    assert progress.reached("playlist created"), "the playlist 'test' was not created"
    assert not screen.exists(id="sorting_dialog_radio_order"), "the sort dialog is still open"
    assert playlists(screen) == ["test", "All tracks"], f"not in descending order: {playlists(screen)}"


@task(app="music", storage=[MUSIC], prompt="open setting page", golden=[g.tap(desc="More options"), g.tap(text="Settings")])
def test_music_player_open_settings(screen):
    assert screen.package == APP
    assert screen.activity.endswith(".SettingsActivity")


@task(app="music", storage=[MUSIC], prompt="sort the playlist by 'desc'",
      golden=[g.tap(desc="Sort by"), g.tap(text="Descending"), g.tap(text="OK")])
def test_music_player_playlist_sort_desc(two_playlists, screen):
    assert not screen.exists(id="sorting_dialog_radio_order"), "the sort dialog is still open"
    assert playlists(screen) == ["Workout", "Chill", "All tracks"], f"not in descending order: {playlists(screen)}"


@task(app="music", storage=[MUSIC], prompt="rescan media files", golden=[g.tap(desc="More options"), g.tap(text="Rescan media")])
def test_music_player_rescan_media(unscanned_songs, screen):
    folders = dict(zip(screen.texts(id="folder_title"), screen.texts(id="folder_tracks")))
    assert folders.get("Music") == "2 Tracks", f"folders shown: {folders}"


@task(app="music", storage=[MUSIC], prompt="search playlist 'Test'", min_steps=1,
      min_steps_reason="the paper counts 2 (tapping the search field, then typing); one typing action does both",
      golden=[g.type("Test", id="top_toolbar_search")])
def test_music_player_search_playlist(playlist_test, screen):
    assert (screen.text(id="top_toolbar_search") or "").lower() == "test"
    assert [t.lower() for t in playlists(screen)] == ["test"], "the search does not show the playlist"
