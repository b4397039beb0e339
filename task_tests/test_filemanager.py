"""Simple File Manager Pro: the ten filemanager_* tasks of MobileAgentBench.

Seed states are files pushed from `fixtures/` with `adb push` (the `device`
fixture's sync SEND) into a freshly emptied folder, followed by the media
scan broadcast, as a real device is seeded. The prompts' "Downloads" is the
shared-storage folder `Download`. Judges check the screen first (cheap,
run after every step) and then the file system through `device`, which the
screen cannot vouch for (a deleted file is gone, a renamed one exists under
its new name).

Where the paper's step count is below what the app needs, `min_steps` follows
the app: selecting a file takes a long press, a deletion is confirmed, and
rename keeps the extension in its own field.
"""

from __future__ import annotations


import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task
from pytest_mobileagent.media import media_dir

APP = "com.simplemobiletools.filemanager.pro"
FIXTURES = media_dir()
DOWNLOAD = "/sdcard/Download"
SCAN = "am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file://"

SELECT_NEEDS_LONG_PRESS = "the app opens a file's menu only after selecting it with a long press"
CONFIRMED_DELETE = SELECT_NEEDS_LONG_PRESS + ", and asks to confirm a deletion"


def seed_folder(device, folder: str, files: dict[str, str]) -> None:
    """Empty `folder`, push each fixture under its task name, and scan the folder."""
    device.shell(f"rm -rf {folder}; mkdir -p {folder}")
    for name, fixture in files.items():
        device.push(f"{folder}/{name}", (FIXTURES / fixture).read_bytes())
    device.shell(SCAN + folder)


def in_download(screen) -> bool:
    """The list shows the Download folder (its breadcrumb is the last one)."""
    crumbs = screen.texts(id="breadcrumb_text")
    return bool(crumbs) and crumbs[-1] == "> Download"


def is_file(device, path: str) -> bool:
    """A regular file (ls -ld prints its type as the first letter of the mode)."""
    result = device.shell_result(f"ls -ld {path}")
    return result.exit_code == 0 and result.output.startswith("-")


@pytest.fixture
def testfile_capital(device):
    seed_folder(device, DOWNLOAD, {"Testfile.txt": "testfile.txt", "notes.txt": "notes.txt"})


@pytest.fixture
def testfile_lower(device):
    seed_folder(device, DOWNLOAD, {"testfile.txt": "testfile.txt", "notes.txt": "notes.txt"})


@pytest.fixture
def empty_download(device):
    seed_folder(device, DOWNLOAD, {})


@task(app="filemanager", storage=[DOWNLOAD], prompt="open the folder 'Downloads' and check the properties of the file 'testfile.txt'",
      golden=[g.tap(text="Download"), g.long_press(text="Testfile.txt"), g.tap(id="cab_properties")],
      min_steps=3, min_steps_reason=SELECT_NEEDS_LONG_PRESS)
def test_filemanager_check_file_properties(testfile_capital, screen):
    assert screen.exists(id="property_value", text="Testfile.txt"), "no Properties dialog for Testfile.txt"
    assert screen.exists(id="property_value", text="/storage/emulated/0/Download")


@task(app="filemanager", storage=[DOWNLOAD], prompt="check the storage page", golden=[g.tap(text="Storage")])
def test_filemanager_check_storage(screen):
    total = screen.text(id="total_space") or ""
    assert total.startswith("Total storage"), "the storage page is not shown"


@task(app="filemanager", storage=[DOWNLOAD], prompt="Create a new file named 'testfile.txt' in the 'Downloads' folder",
      golden=[g.tap(text="Download"), g.tap(id="items_fab"), g.type("testfile.txt", id="item_title"),
              g.tap(id="dialog_radio_file"), g.tap(id="android:id/button1")])
def test_filemanager_create_new_file(empty_download, screen, device):
    assert not screen.exists(id="item_title"), "the Create new dialog is still open"
    assert in_download(screen) and "testfile.txt" in screen.texts(id="item_name")
    assert is_file(device, f"{DOWNLOAD}/testfile.txt"), "testfile.txt is not a file (a folder?)"


@task(app="filemanager", storage=[DOWNLOAD], prompt="Delete file named 'testfile.txt' in the 'Downloads' folder",
      golden=[g.tap(text="Download"), g.long_press(text="Testfile.txt"), g.tap(id="cab_delete"),
              g.tap(id="android:id/button1")],
      min_steps=4, min_steps_reason=CONFIRMED_DELETE)
def test_filemanager_delete_file(testfile_capital, screen, device):
    assert in_download(screen) and "Testfile.txt" not in screen.texts(id="item_name")
    assert not device.exists(f"{DOWNLOAD}/Testfile.txt"), "Testfile.txt still exists"
    assert device.exists(f"{DOWNLOAD}/notes.txt"), "another file was deleted too"


@pytest.fixture
def download_txt_and_media(device):
    seed_folder(device, DOWNLOAD, {"voice.m4a": "tone.m4a", "random.txt": "notes.txt", "video.mov": "clip_red.mp4"})


@task(app="filemanager", storage=[DOWNLOAD], prompt="Delete the txt file in Download folder",
      golden=[g.tap(text="Download"), g.long_press(text="random.txt"), g.tap(id="cab_delete"),
              g.tap(id="android:id/button1")],
      min_steps=4, min_steps_reason=CONFIRMED_DELETE)
def test_filemanager_delete_txt(download_txt_and_media, screen, device):
    assert in_download(screen) and "random.txt" not in screen.texts(id="item_name")
    assert not device.exists(f"{DOWNLOAD}/random.txt"), "random.txt still exists"
    assert device.exists(f"{DOWNLOAD}/voice.m4a") and device.exists(f"{DOWNLOAD}/video.mov"), \
        "a file that is not a txt file was deleted"


VIDEOS = ("icml.mp4", "cvpr.mov", "corl.avi")
OTHERS = ("iccv.mp3", "aaai.txt", "neurips.exe")


@pytest.fixture
def download_conference_files(device):
    seed_folder(device, DOWNLOAD, {"iccv.mp3": "tone.mp3", "icml.mp4": "clip_red.mp4", "aaai.txt": "notes.txt",
                                   "corl.avi": "clip_blue.mp4", "neurips.exe": "testfile.txt",
                                   "cvpr.mov": "clip_red.mp4"})


@task(app="filemanager", storage=[DOWNLOAD], prompt="Delete all videos in Download folder",
      golden=[g.tap(text="Download"), g.long_press(text="icml.mp4"), g.tap(text="cvpr.mov"), g.tap(text="corl.avi"),
              g.tap(id="cab_delete"), g.tap(id="android:id/button1")],
      min_steps=6, min_steps_reason="one long press selects, a tap adds each further video, then delete and confirm")
def test_filemanager_delete_videos(download_conference_files, screen, device):
    assert in_download(screen) and not set(VIDEOS) & set(screen.texts(id="item_name"))
    left = [name for name in VIDEOS if device.exists(f"{DOWNLOAD}/{name}")]
    assert not left, f"videos left: {left}"
    assert all(device.exists(f"{DOWNLOAD}/{name}") for name in OTHERS), "a file that is not a video was deleted"


@pytest.fixture
def folder_named_hidden(device):
    device.shell("rm -rf /sdcard/hidden /sdcard/.hidden; mkdir /sdcard/hidden")


@task(app="filemanager", storage=[DOWNLOAD],
      prompt="Hide the folder named 'hidden' and make sure File Manager Stop showing hidden media",
      golden=[g.long_press(text="hidden"), g.tap(desc="More options"), g.tap(text="Hide")])
def test_filemanager_hide_folder(folder_named_hidden, screen, device):
    assert screen.exists(id="items_list"), "the file list is not shown"
    shown = screen.texts(id="item_name")
    assert ".hidden" not in shown and "hidden" not in shown, "the file manager still shows the folder"
    assert device.exists("/sdcard/.hidden") and not device.exists("/sdcard/hidden"), "the folder is not hidden"


@task(app="filemanager", storage=[DOWNLOAD], prompt="open the folder 'Downloads' and rename the file 'Testfile.txt' to 'testfile1.txt'",
      golden=[g.tap(text="Download"), g.long_press(text="Testfile.txt"), g.tap(id="cab_rename"),
              g.type("testfile1", id="rename_item_name"), g.tap(id="android:id/button1")],
      min_steps=5, min_steps_reason=SELECT_NEEDS_LONG_PRESS + "; the dialog keeps the extension in its own field")
def test_filemanager_rename_file(testfile_capital, screen, device):
    assert in_download(screen) and "testfile1.txt" in screen.texts(id="item_name")
    assert not screen.exists(id="rename_item_name"), "the Rename dialog is still open"
    assert device.exists(f"{DOWNLOAD}/testfile1.txt"), "no file testfile1.txt"
    assert not device.exists(f"{DOWNLOAD}/Testfile.txt"), "Testfile.txt still exists"


@task(app="filemanager", storage=[DOWNLOAD], prompt="Search a file named 'testfile.txt'",
      golden=[g.tap(id="top_toolbar_search"), g.type("testfile.txt")])
def test_filemanager_search_file(testfile_lower, screen):
    assert (screen.text(id="top_toolbar_search") or "").lower() == "testfile.txt"
    assert any(name.lower().endswith("testfile.txt") for name in screen.texts(id="item_name")), \
        "the search shows no testfile.txt"


@task(app="filemanager", storage=[DOWNLOAD], prompt="In the main page, sort the folder by size in descending order",
      golden=[g.tap(id="sort"), g.tap(id="sorting_dialog_radio_size"), g.tap(id="sorting_dialog_radio_descending"),
              g.tap(id="android:id/button1")])
def test_filemanager_sort_folder_by_size_desc(screen, events, progress):
    progress.reach("size, descending chosen",
                   screen.checked(id="sorting_dialog_radio_size")
                   and screen.checked(id="sorting_dialog_radio_descending"))
    assert not screen.exists(id="sorting_dialog_radio_size"), "the Sort by dialog is still open"
    assert events.clicked(id="android:id/button1", since="size, descending chosen"), "the sort was not applied"
    assert screen.texts(id="breadcrumb_text") == ["Internal"], "not on the main page"
