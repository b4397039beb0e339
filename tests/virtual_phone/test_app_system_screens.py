"""Issue 36's app and system screens, through the real adb server (uiautomator dump, input tap, am start).

Each test names the sources its behaviour was read from:

* Simple-Commons' colour pickers behind "Customize colors" (CustomizationActivity.kt,
  ColorPickerDialog.kt, LineColorPickerDialog.kt and their layouts at the commit the apps pin);
* a video opened from File Manager reaching Gallery's viewer (Simple-Gallery 6.28.1
  PhotoVideoActivity.checkIntent, Simple-Commons openPathIntent's REAL_FILE_PATH);
* Contacts 6.22.7's "Export contacts" saving a vCard through DocumentsUI (MainActivity.tryExportContacts,
  onActivityResult(PICK_EXPORT_FILE_INTENT), VcfExporter).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

FILES = "com.google.android.documentsui"
DOWNLOAD = "/sdcard/Download"
FILEMANAGER = "com.simplemobiletools.filemanager.pro"
GALLERY = "com.simplemobiletools.gallery.pro"
CONTACTS = "com.simplemobiletools.contacts.pro"
FIXTURES = __import__("pathlib").Path(__file__).resolve().parents[2] / "fixtures"


def _nodes(device) -> list[dict]:
    return [dict(n.attrib) for n in ET.fromstring(device.dump_hierarchy().encode("utf-8")).iter("node")]


def _find(device, **criteria) -> dict | None:
    wanted = {{"id": "resource-id", "desc": "content-desc"}.get(k, k): v for k, v in criteria.items()}
    for node in _nodes(device):
        if all(node.get(k) == v for k, v in wanted.items()):
            return node
    return None


def _tap(device, **criteria) -> None:
    node = _find(device, **criteria)
    shown = [n.get("resource-id") or n.get("text") for n in _nodes(device)]
    assert node is not None, f"no {criteria} on screen: {shown}"
    left, top, right, bottom = (int(v) for v in node["bounds"].replace("][", ",").strip("[]").split(","))
    device.shell(f"input tap {(left + right) // 2} {(top + bottom) // 2}")


def _resumed(device) -> str:
    current = device.app_current()
    return f"{current.package}/{current.activity}"


# ---------------------------------------------------------------------------
# 2. A video opened from File Manager goes to Gallery's viewer


@pytest.fixture
def movie(adb_device):
    """/sdcard/Movies/clip_red.mp4, pushed and scanned; File Manager and Gallery fresh."""
    for package in (FILEMANAGER, GALLERY):
        adb_device.shell(f"am force-stop {package}")
        adb_device.shell(f"pm clear {package}")
    adb_device.sync.push(str(FIXTURES / "clip_red.mp4"), "/sdcard/Movies/clip_red.mp4")
    adb_device.shell("am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE "
                     "-d file:///sdcard/Movies/clip_red.mp4")
    yield adb_device
    adb_device.shell("rm -f /sdcard/Movies/clip_red.mp4")
    for package in (FILEMANAGER, GALLERY):
        adb_device.shell(f"am force-stop {package}")


def test_a_video_tapped_in_file_manager_opens_in_gallerys_viewer(movie):
    """Commons' openPathIntent sends ACTION_VIEW with the file's path in REAL_FILE_PATH; Gallery 6.28.1's
    VideoActivity (PhotoVideoActivity.checkIntent) finds the file and hands it to ViewPagerActivity
    (sendViewPagerIntent), then finishes: BACK returns to File Manager."""
    movie.shell(f"monkey -p {FILEMANAGER} -c android.intent.category.LAUNCHER 1")
    _tap(movie, **{"resource-id": f"{FILEMANAGER}:id/item_name", "text": "Movies"})
    _tap(movie, **{"resource-id": f"{FILEMANAGER}:id/item_name", "text": "clip_red.mp4"})
    assert _resumed(movie) == f"{GALLERY}/{GALLERY}.activities.ViewPagerActivity"
    assert _find(movie, text="clip_red.mp4") is not None
    assert _find(movie, **{"resource-id": f"{GALLERY}:id/video_holder"}) is not None
    movie.shell("input keyevent BACK")
    assert _resumed(movie) == f"{FILEMANAGER}/{FILEMANAGER}.activities.MainActivity"


def test_a_file_uri_view_intent_reaches_the_viewer_too(movie):
    """checkIntent's ``file:`` branch: a file URI whose name has an extension goes to ViewPagerActivity."""
    movie.shell("am start -W -a android.intent.action.VIEW -d file:///sdcard/Movies/clip_red.mp4 -t video/mp4")
    assert _resumed(movie) == f"{GALLERY}/{GALLERY}.activities.ViewPagerActivity"


def test_a_video_in_a_nomedia_folder_stays_on_the_empty_holder(movie):
    """preventShowingHiddenFile: without all-files access a file under a ``.nomedia`` folder is not forwarded."""
    movie.shell("mkdir -p /sdcard/Movies/private && touch /sdcard/Movies/private/.nomedia")
    movie.shell("cp /sdcard/Movies/clip_red.mp4 /sdcard/Movies/private/clip.mp4")
    try:
        movie.shell("am start -W -a android.intent.action.VIEW -d file:///sdcard/Movies/private/clip.mp4 -t video/mp4")
        assert _resumed(movie) == f"{GALLERY}/{GALLERY}.activities.VideoActivity"
        assert _find(movie, **{"resource-id": f"{GALLERY}:id/fragment_holder"}) is not None
    finally:
        movie.shell("rm -rf /sdcard/Movies/private")
