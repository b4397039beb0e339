"""Simple Gallery Pro: the ten gallery_* tasks of MobileAgentBench.

Seed state: images and a video from `fixtures/` pushed with `adb push` into a
freshly emptied `Download` (the prompts' "Downloads"), their dates set with
`touch -d` so "the first image" (newest first, the app's default order) is
always the same, then the media scan broadcast. Judges read the screen where
it shows the result (a checked setting, section headers, the list layout) and
the click and window events where it cannot (a choice confirmed with OK, a
favourite toggled, a wallpaper set).
"""

from __future__ import annotations


import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task
from pytest_mobileagent.media import media_dir

APP = "com.simplemobiletools.gallery.pro"
FIXTURES = media_dir()
DOWNLOAD = "/sdcard/Download"
SCAN = "am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file://"
OK = "android:id/button1"

#: Download's media, newest first: (name on the phone, fixture, modification time)
DOWNLOAD_MEDIA = (("sunset.jpg", "sunset.jpg", "2023-07-01 19:45:00"),
                  ("beach.png", "beach.png", "2023-06-20 12:00:00"),
                  ("forest.jpg", "forest.jpg", "2023-06-12 08:30:00"),
                  ("clip.mp4", "clip_red.mp4", "2023-05-01 10:00:00"))
FIRST_IMAGE = "sunset.jpg"


@pytest.fixture
def download_media(device):
    device.shell(f"rm -rf {DOWNLOAD}; mkdir -p {DOWNLOAD}")
    for name, fixture, when in DOWNLOAD_MEDIA:
        device.push(f"{DOWNLOAD}/{name}", (FIXTURES / fixture).read_bytes())
        device.shell(f"touch -d '{when}' {DOWNLOAD}/{name}")
    device.shell(SCAN + DOWNLOAD)


def viewer_title(screen) -> str | None:
    """The file name the full-screen viewer shows in its toolbar."""
    toolbar = screen.get(id="medium_viewer_toolbar")
    names = screen.texts(cls="android.widget.TextView", within=toolbar) if toolbar is not None else []
    return names[0] if names else None


@task(app="gallery", storage=[DOWNLOAD], prompt="filter media in the gallery and only show images and videos",
      golden=[g.tap(desc="More options"), g.tap(text="Filter media"), g.tap(id="filter_media_gifs"),
              g.tap(id="filter_media_raws"), g.tap(id="filter_media_svgs"), g.tap(id=OK)])
def test_gallery_filter_by_images_and_videos(screen, events, progress):
    progress.reach("only images and videos ticked",
                   screen.checked(id="filter_media_images") and screen.checked(id="filter_media_videos")
                   and not any(screen.checked(id=f"filter_media_{kind}")
                               for kind in ("gifs", "raws", "svgs", "portraits"))
                   and screen.exists(id="filter_media_portraits"))
    assert not screen.exists(id="filter_media_images"), "the Filter media dialog is still open"
    assert events.clicked(id=OK, since="only images and videos ticked"), "the filter was not confirmed with OK"


@task(app="gallery", storage=[DOWNLOAD], prompt="Go to the downloads folder, group the images by file type",
      golden=[g.tap(text="Download"), g.tap(desc="More options"), g.tap(text="Group by"),
              g.tap(id="grouping_dialog_radio_file_type"), g.tap(id=OK)])
def test_gallery_group_by_file_type(download_media, screen):
    assert screen.activity.endswith(".MediaActivity") and screen.text(id="top_toolbar_search") == "Search in Download"
    assert screen.texts(id="thumbnail_section")[:1] in (["Images"], ["Videos"]), "Download is not grouped by file type"
    assert set(screen.texts(id="thumbnail_section")) <= {"Images", "Videos"}


@task(app="gallery", storage=[DOWNLOAD], prompt="Change the view type to list view",
      golden=[g.tap(desc="More options"), g.tap(text="Change view type"),
              g.tap(id="change_view_type_dialog_radio_list"), g.tap(id=OK)])
def test_gallery_list_view_type(download_media, screen):
    assert screen.activity.endswith(".MainActivity")
    assert not screen.exists(id="change_view_type_dialog_radio_list"), "the dialog is still open"
    # Folders in the list layout show their path; the grid layout does not.
    assert screen.exists(id="dir_path"), "the folders are not shown as a list"


@task(app="gallery", storage=[DOWNLOAD], prompt="Go to Gallery settings and enable play videos automatically",
      golden=[g.tap(desc="More options"), g.tap(text="Settings"), g.tap(id="settings_autoplay_videos_holder")],
      min_steps=3, min_steps_reason="the option is on the first screen of Settings: no scrolling is needed")
def test_gallery_play_videos_automatically(screen):
    assert screen.checked(id="settings_autoplay_videos"), "Play videos automatically is off"


@task(app="gallery", storage=[DOWNLOAD], prompt="Enable remember the last video playback position in settings",
      golden=[g.tap(desc="More options"), g.tap(text="Settings"), g.swipe("up", id="settings_nested_scrollview"),
              g.tap(id="settings_remember_last_video_position_holder")])
def test_gallery_remember_playback_position(screen):
    assert screen.checked(id="settings_remember_last_video_position"), "the playback position is not remembered"


@task(app="gallery", storage=[DOWNLOAD], prompt="Go to Downloads Folder and set the first image as favorite",
      golden=[g.tap(text="Download"), g.tap(id="media_item_holder"), g.tap(id="bottom_favorite")])
def test_gallery_set_favorite(download_media, screen, events):
    assert viewer_title(screen) == FIRST_IMAGE, "the first image is not the one shown"
    # The toggle's state is drawn, not dumped: count the toggles of this image.
    toggles = events.clicks(id="bottom_favorite")
    assert len(toggles) % 2 == 1, f"the favourite was toggled {len(toggles)} times"


@task(app="gallery", storage=[DOWNLOAD], prompt="Go to Downloads Folder and set the first image as Home screen wallpaper",
      golden=[g.tap(text="Download"), g.tap(id="media_item_holder"), g.tap(desc="More options"),
              g.tap(text="Set as"), g.tap(id="save"), g.tap(text="Home screen")])
def test_gallery_set_wallpaper(download_media, screen, events, progress):
    progress.reach("first image in Simple Wallpaper",
                   screen.activity.endswith(".SetWallpaperActivity")
                   and events.window_changes(text="Simple Wallpaper") != [])
    assert viewer_title(screen) == FIRST_IMAGE, "not back on the first image"
    chosen = [e for e in events.clicks(since="first image in Simple Wallpaper")
              if any(t in ("Home screen", "Lock screen", "Home and lock screen") for t in e.text)]
    # "Home and lock screen" sets the home screen too
    assert chosen and set(chosen[-1].text) & {"Home screen", "Home and lock screen"}, \
        "the wallpaper was not set for the home screen"


@task(app="gallery", storage=[DOWNLOAD], prompt="show hidden items in the gallery in settings",
      golden=[g.tap(desc="More options"), g.tap(text="Settings"), g.tap(id="settings_show_hidden_items_holder")])
def test_gallery_show_hidden_items(screen):
    assert screen.checked(id="settings_show_hidden_items"), "Show hidden items is off"


@task(app="gallery", storage=[DOWNLOAD], prompt="sort the gallery by size ascendingly",
      golden=[g.tap(desc="More options"), g.tap(text="Sort by"), g.tap(id="sorting_dialog_radio_size"),
              g.tap(id="sorting_dialog_radio_ascending"), g.tap(id=OK)],
      min_steps=5, min_steps_reason="Sort by sits in the overflow menu and the default order is descending")
def test_gallery_sort_by_size_asc(screen, events, progress):
    progress.reach("size, ascending chosen",
                   screen.checked(id="sorting_dialog_radio_size")
                   and screen.checked(id="sorting_dialog_radio_ascending")
                   and screen.exists(id="sorting_dialog_radio_path"))  # the folders' dialog, not a folder's
    assert not screen.exists(id="sorting_dialog_radio_size"), "the Sort by dialog is still open"
    assert events.clicked(id=OK, since="size, ascending chosen"), "the order was not confirmed with OK"


@task(app="gallery", storage=[DOWNLOAD], prompt="Change the date and time format to 24-hour format in gallery settings",
      golden=[g.tap(desc="More options"), g.tap(text="Settings"), g.tap(id="settings_change_date_time_format_holder"),
              g.tap(id="change_date_time_dialog_24_hour"), g.tap(id=OK)])
def test_gallery_use_24_hour_time_format(screen, events, progress):
    progress.reach("24-hour ticked", screen.checked(id="change_date_time_dialog_24_hour"))
    assert not screen.exists(id="change_date_time_dialog_24_hour"), "the date and time dialog is still open"
    assert events.clicked(id=OK, since="24-hour ticked"), "the format was not confirmed with OK"
    assert screen.activity.endswith(".SettingsActivity")
