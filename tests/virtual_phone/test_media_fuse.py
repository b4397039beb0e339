"""Shared storage through MediaProvider's FUSE daemon: what creating, renaming and
deleting files through adb does to the media database (Android 11+)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from pytest_mobileagent.virtual_phone.framework.media_store import EXTERNAL_ROOT

SCAN = "am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d "


def jpeg(size=(40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 40, 40)).save(out, "JPEG")
    return out.getvalue()


@pytest.fixture
def store(phone):
    return phone.phone.system.media_store


@pytest.fixture
def folder(adb_device):
    path = "/sdcard/Pictures/FuseTest"
    adb_device.shell(f"rm -rf {path} /sdcard/Pictures/.FuseHidden /sdcard/Download/fuse-*; mkdir -p {path}")
    yield path
    adb_device.shell(f"rm -rf {path} /sdcard/Pictures/.FuseHidden /sdcard/Download/fuse-*")


def test_adb_push_inserts_a_pending_row_a_scan_publishes(adb_device, store, folder):
    adb_device.sync.push(jpeg(), f"{folder}/a.jpg")
    row = store.get(f"{folder}/a.jpg", include_pending=True)
    # insertFileIfNecessaryForFuse: MIME and media type from the name, pending, owned by the shell
    assert (row.pending, row.mime_type, row.media_type, row.owner_package_name) == (
        1, "image/jpeg", "image", "com.android.shell")
    assert row.width is None
    # visible to no app's query (FUSE-pending rows are their owner's only) ...
    assert store.get(f"{folder}/a.jpg") is None
    assert f"{EXTERNAL_ROOT}/Pictures/FuseTest/a.jpg" not in {r.path for r in store.query("image")}
    # ... until a scan publishes it, keeping its _id
    adb_device.shell(SCAN + f"file://{folder}/a.jpg")
    published = store.get(f"{folder}/a.jpg")
    assert (published._id, published.pending, published.width, published.height) == (row._id, 0, 40, 30)


def test_shell_writes_copies_and_touches_create_rows(adb_device, store, folder):
    adb_device.shell(f"echo hi > {folder}/note.txt; cp {folder}/note.txt /sdcard/Download/fuse-copy.txt; "
                     f"touch {folder}/.hidden.png")
    for path, kind in ((f"{folder}/note.txt", "document"), ("/sdcard/Download/fuse-copy.txt", "document"),
                       (f"{folder}/.hidden.png", "none")):  # a hidden file's row is MEDIA_TYPE_NONE
        assert store.get(path, include_pending=True).media_type == kind
    # writing to /data/local/tmp is not shared storage: no row
    adb_device.shell("echo hi > /data/local/tmp/fuse-not-media.txt")
    assert store.get("/data/local/tmp/fuse-not-media.txt", include_pending=True) is None


def test_mv_moves_rows_and_rm_deletes_them(adb_device, store, folder):
    adb_device.sync.push(jpeg(), f"{folder}/a.jpg")
    adb_device.shell(SCAN + f"file://{folder}/a.jpg")
    row = store.get(f"{folder}/a.jpg")
    # renameForFuse: the row follows the file, same _id and metadata, MIME from the new name
    adb_device.shell(f"mv {folder}/a.jpg {folder}/b.png")
    moved = store.get(f"{folder}/b.png")
    assert store.get(f"{folder}/a.jpg", include_pending=True) is None
    assert (moved._id, moved.mime_type, moved.media_type, moved.width) == (row._id, "image/png", "image", 40)
    # a folder renamed into hiding: its rows move and a rescan marks them MEDIA_TYPE_NONE
    adb_device.shell(f"mv {folder} /sdcard/Pictures/.FuseHidden")
    hidden = store.get("/sdcard/Pictures/.FuseHidden/b.png")
    assert (hidden._id, hidden.media_type) == (row._id, "none")
    assert "/sdcard/Pictures/.FuseHidden/b.png" not in {r.path for r in store.query("image")}
    # deleteFileForFuse: rm drops the row at once, no scan needed
    adb_device.shell("rm -r /sdcard/Pictures/.FuseHidden")
    assert store.get("/sdcard/Pictures/.FuseHidden/b.png", include_pending=True) is None


def test_rm_with_a_glob_empties_download_and_its_rows(adb_device, store, folder):
    """MobileAgentBench's cleanup: `rm -rf /sdcard/Download/*` (issue 22)."""
    for name in ("fuse-1.jpg", "fuse-2.jpg"):
        adb_device.sync.push(jpeg(), f"/sdcard/Download/{name}")
    adb_device.shell(SCAN + "file:///sdcard/Download")
    assert {"fuse-1.jpg", "fuse-2.jpg"} <= {r.display_name for r in store.query("image", folder="/sdcard/Download")}
    assert adb_device.shell2("rm -rf /sdcard/Download/*").returncode == 0
    assert adb_device.shell("ls /sdcard/Download") == ""
    assert store.query(folder="/sdcard/Download", include_pending=True) == []


def test_content_query_shows_the_shell_its_pending_files(adb_device, folder):
    """Through adb only: the shell owns what it pushed, so `content query` lists it pending."""
    adb_device.sync.push(jpeg(), f"{folder}/q.jpg")
    where = "--where \"_display_name='q.jpg'\""
    line = adb_device.shell(f"content query --uri content://media/external/file "
                            f"--projection _data:is_pending:owner_package_name:media_type {where}")
    assert line == (f"Row: 0 _data={EXTERNAL_ROOT}/Pictures/FuseTest/q.jpg, is_pending=1, "
                    "owner_package_name=com.android.shell, media_type=1")  # adbutils strips the newline
    adb_device.shell(SCAN + f"file://{folder}/q.jpg")
    line = adb_device.shell(f"content query --uri content://media/external/images/media "
                            f"--projection is_pending:width:height {where}")
    assert line == "Row: 0 is_pending=0, width=40, height=30"
    # MediaProvider.delete removes the row and the file
    adb_device.shell(f"content delete --uri content://media/external/images/media {where}")
    assert adb_device.shell(f"ls {folder}") == ""
    assert adb_device.shell(f"content query --uri content://media/external/file {where}") == "No result found."
