"""The media store: scans of shared storage, its rows, hidden folders, and the scan broadcast."""

from __future__ import annotations

import io
import subprocess

import pytest
from PIL import Image

from pytest_mobileagent.virtual_phone import VirtualPhone
from pytest_mobileagent.virtual_phone.framework.media_store import EXTERNAL_ROOT, mime_type_of, storage_path

SCAN = "am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d "


def jpeg(size=(40, 30), taken: str | None = "2023:07:14 10:20:30") -> bytes:
    image = Image.new("RGB", size, (200, 40, 40))
    exif = Image.Exif()
    if taken:
        exif.get_ifd(0x8769)[0x9003] = taken
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif.tobytes())
    return out.getvalue()


def mp3_with_tags() -> bytes:
    """A one-frame MPEG-1 layer III stream with ID3 tags written by mutagen."""
    from mutagen.id3 import ID3, TALB, TDRC, TIT2, TPE1

    frame = b"\xff\xfb\x90\x64" + b"\x00" * 413  # 128 kbit/s, 44.1 kHz: 417 bytes per frame
    tags = ID3()
    tags.add(TIT2(encoding=3, text="Morning"))
    tags.add(TPE1(encoding=3, text="The Testers"))
    tags.add(TALB(encoding=3, text="Fixtures"))
    tags.add(TDRC(encoding=3, text="2021"))
    out = io.BytesIO(frame * 40)
    tags.save(out)
    return out.getvalue()


@pytest.fixture
def vphone():
    return VirtualPhone(seed=3)


def shell(phone, line):
    result = phone.run_shell(line)
    return result.exit_code, result.stdout.decode(), result.stderr.decode()


def test_storage_paths_and_mime_types():
    assert storage_path("/sdcard/Download/a.jpg") == f"{EXTERNAL_ROOT}/Download/a.jpg"
    assert storage_path("/storage/self/primary/DCIM/../Music/x") == f"{EXTERNAL_ROOT}/Music/x"
    assert storage_path("/data/local/tmp/a.jpg") is None
    assert mime_type_of("A.JPG") == "image/jpeg"
    assert mime_type_of("clip.mov") == "video/quicktime"
    assert mime_type_of("notes") == "application/octet-stream"


def test_default_folders_exist(vphone):
    code, out, _ = shell(vphone, "ls /sdcard")
    assert code == 0
    for name in ("Alarms", "DCIM", "Documents", "Download", "Movies", "Music", "Notifications", "Pictures",
                 "Podcasts", "Ringtones"):
        assert name in out.split()


def test_pushed_files_are_media_only_after_a_scan(vphone):
    vphone.fs.write_file("/sdcard/Download/cat.jpg", jpeg())
    store = vphone.system.media_store
    assert store.query("image") == []
    code, out, err = shell(vphone, SCAN + "file:///sdcard/Download/cat.jpg")
    assert (code, err) == (0, "")
    assert out == ("Broadcasting: Intent { act=android.intent.action.MEDIA_SCANNER_SCAN_FILE "
                   "dat=file:///sdcard/Download/cat.jpg flg=0x400000 }\nBroadcast completed: result=0\n")
    [row] = store.query("image")
    assert row.path == f"{EXTERNAL_ROOT}/Download/cat.jpg"
    assert (row.mime_type, row.width, row.height, row.bucket_display_name, row.relative_path) == (
        "image/jpeg", 40, 30, "Download", "Download/")
    assert row.datetaken == 1689330030000  # the EXIF date, in ms
    assert row.size == len(jpeg()) and row.title == "cat"
    assert row.date_modified == vphone.clock_ms() // 1000


def test_audio_tags_are_read(vphone):
    vphone.fs.write_file("/sdcard/Music/song.mp3", mp3_with_tags())
    shell(vphone, SCAN + "file:///sdcard/Music")
    [row] = vphone.system.media_store.query("audio")
    assert (row.title, row.artist, row.album, row.year) == ("Morning", "The Testers", "Fixtures", 2021)
    assert 900 <= row.duration <= 1100


def test_folder_scan_reconciles_deleted_files(vphone):
    for name in ("a.jpg", "b.png", "notes.txt"):
        vphone.fs.write_file(f"/sdcard/Pictures/{name}", jpeg() if name != "notes.txt" else b"hi")
    shell(vphone, SCAN + "file:///sdcard/Pictures")
    store = vphone.system.media_store
    assert [r.display_name for r in store.query(folder="/sdcard/Pictures")] == ["a.jpg", "b.png", "notes.txt"]
    assert [r.media_type for r in store.query(folder="/sdcard/Pictures")] == ["image", "image", "document"]
    # A file that goes without MediaProvider seeing it (the lower file system, as apps that
    # bypass the database change it) leaves a stale row until a scan reconciles the folder.
    vphone.fs.listeners.remove(store.on_fs_change)
    vphone.fs.remove("/sdcard/Pictures/a.jpg")
    vphone.fs.listeners.append(store.on_fs_change)
    assert len(store.query("image")) == 2
    shell(vphone, SCAN + "file:///sdcard/Pictures")
    assert [r.display_name for r in store.query("image")] == ["b.png"]
    # rm through the FUSE mount drops the row at once (deleteFileForFuse): no scan needed
    shell(vphone, "rm /sdcard/Pictures/b.png")
    assert store.query("image") == []


def test_hidden_and_nomedia_folders_are_not_media(vphone):
    fs = vphone.fs
    fs.write_file("/sdcard/DCIM/.thumbs/t.jpg", jpeg(), parents=True)
    fs.write_file("/sdcard/DCIM/private/p.jpg", jpeg(), parents=True)
    fs.write_file("/sdcard/DCIM/private/.nomedia", b"")
    fs.write_file("/sdcard/DCIM/ok/o.jpg", jpeg(), parents=True)
    shell(vphone, SCAN + "file:///sdcard/DCIM")
    store = vphone.system.media_store
    assert [r.display_name for r in store.query("image")] == ["o.jpg"]
    assert store.get("/sdcard/DCIM/private/p.jpg").media_type == "none"  # still in the Files table


@pytest.mark.parametrize("data", ["file:///data/local/tmp/x.jpg", "content://media/external/x",
                                  "file:///sdcard/Download/missing.jpg", "not a uri"])
def test_scan_broadcasts_the_receiver_ignores_still_complete(vphone, data):
    vphone.fs.write_file("/data/local/tmp/x.jpg", jpeg())
    code, out, err = shell(vphone, SCAN + repr(data))
    assert code == 0 and err == "" and out.endswith("Broadcast completed: result=0\n")
    assert vphone.system.media_store.query() == []


def test_broadcast_without_a_value_for_d_is_a_usage_error(vphone):
    code, _out, err = shell(vphone, "am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d")
    assert code == 255 and "No argument supplied for option '-d'" in err


def test_corrupt_media_keep_a_row(vphone):
    vphone.fs.write_file("/sdcard/Movies/broken.mp4", b"not a video")
    shell(vphone, SCAN + "file:///sdcard/Movies/broken.mp4")
    [row] = vphone.system.media_store.query("video")
    assert row.width is None and row.duration is None and row.size == 11


def test_percent_encoded_paths(vphone):
    vphone.fs.write_file("/sdcard/Pictures/my cat.jpg", jpeg())
    shell(vphone, SCAN + "'file:///sdcard/Pictures/my%20cat.jpg'")
    assert [r.display_name for r in vphone.system.media_store.query("image")] == ["my cat.jpg"]


def test_adb_push_then_scan_through_the_adb_server(phone, adb_server_port, tmp_path):
    """The seed idiom, with the adb CLI: push a file, then broadcast the scan."""
    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    src = tmp_path / "dog.jpg"
    src.write_bytes(jpeg((16, 12)))
    adb = [bundled_adb_path(), "-P", str(adb_server_port), "-s", phone.serial]
    pushed = subprocess.run(adb + ["push", str(src), "/sdcard/Pictures/dog.jpg"], capture_output=True, timeout=30)
    assert pushed.returncode == 0, pushed.stderr
    scanned = subprocess.run(adb + ["shell", SCAN + "file:///sdcard/Pictures/dog.jpg"], capture_output=True,
                             text=True, timeout=30)
    assert scanned.returncode == 0 and "Broadcast completed: result=0" in scanned.stdout
    row = phone.phone.system.media_store.get("/sdcard/Pictures/dog.jpg")
    assert (row.width, row.height, row.media_type) == (16, 12, "image")
    subprocess.run(adb + ["shell", "rm /sdcard/Pictures/dog.jpg; " + SCAN + "file:///sdcard/Pictures"],
                   capture_output=True, timeout=30)
    assert phone.phone.system.media_store.get("/sdcard/Pictures/dog.jpg") is None


def test_touch_sets_dates_for_seeds(vphone):
    vphone.fs.write_file("/sdcard/Download/a.jpg", jpeg())
    assert shell(vphone, "touch -d '2023-07-01 19:45:00' /sdcard/Download/a.jpg")[0] == 0
    assert vphone.fs.stat("/sdcard/Download/a.jpg").mtime == 1688240700
    assert shell(vphone, "touch -d 2023-06-12T08:30:00Z /sdcard/Download/a.jpg")[0] == 0
    assert vphone.fs.stat("/sdcard/Download/a.jpg").mtime == 1686558600
    assert shell(vphone, "touch -t 202306120830.15 /sdcard/Download/b.jpg")[0] == 0  # creates it, as touch does
    assert vphone.fs.stat("/sdcard/Download/b.jpg").mtime == 1686558615
    for bad in ("-d 2023-13-45", "-d yesterday", "-t 12", "-t 2023061208xx"):
        code, out, err = shell(vphone, f"touch {bad} /sdcard/Download/a.jpg")
        assert code == 1 and err.startswith("touch: bad '") and out == ""
    assert vphone.fs.stat("/sdcard/Download/a.jpg").mtime == 1686558600  # a bad date changes nothing


def test_broadcast_without_data_is_delivered_to_no_scan(vphone):
    vphone.fs.write_file("/sdcard/Download/a.jpg", jpeg())
    code, out, _ = shell(vphone, "am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE")
    assert code == 0 and out == ("Broadcasting: Intent { act=android.intent.action.MEDIA_SCANNER_SCAN_FILE "
                                 "flg=0x400000 }\nBroadcast completed: result=0\n")
    assert vphone.system.media_store.query() == []


def test_adb_push_errors_and_new_folders(phone, adb_server_port, tmp_path):
    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    adb = [bundled_adb_path(), "-P", str(adb_server_port), "-s", phone.serial]
    src = tmp_path / "x.txt"
    src.write_text("hi\n")
    run = lambda *args: subprocess.run(adb + list(args), capture_output=True, text=True, timeout=30)  # noqa: E731
    readonly = run("push", str(src), "/system/x.txt")
    assert readonly.returncode == 1 and "Read-only file system" in readonly.stderr
    missing = run("push", str(tmp_path / "nope.txt"), "/sdcard/x.txt")
    assert missing.returncode == 1 and "No such file or directory" in missing.stderr
    nested = run("push", str(src), "/sdcard/Download/h15/sub/x.txt")
    assert nested.returncode == 0 and run("shell", "cat /sdcard/Download/h15/sub/x.txt").stdout == "hi\n"
    run("shell", "rm -rf /sdcard/Download/h15")


def test_a_system_without_a_phone_has_empty_storage_for_the_file_apps():
    from pytest_mobileagent.virtual_phone.apps import INSTALLED_APPS
    from pytest_mobileagent.virtual_phone.framework.system import AndroidSystem
    from pytest_mobileagent.virtual_phone.kernel.clock import PhoneClock

    system = AndroidSystem(clock=PhoneClock(0), apps=INSTALLED_APPS)
    assert system.fs.isdir("/sdcard/Download") and system.media_store.query() == []
    for package in ("com.simplemobiletools.filemanager.pro", "com.simplemobiletools.gallery.pro"):
        system.start_activity(package)
        assert system.focused_window()[0] == package and system.screenshot_png()


SCAN_VOLUME = "content call --uri content://media --method scan_volume --arg "


def test_content_call_scan_volume_scans_shared_storage_as_android_11_does(vphone):
    vphone.fs.write_file("/sdcard/Pictures/cat.jpg", jpeg())
    vphone.fs.write_file("/sdcard/Music/song.mp3", mp3_with_tags())
    assert shell(vphone, SCAN_VOLUME + "external_primary") == (0, "Result: null\n", "")
    assert [r.display_name for r in vphone.system.media_store.query("image")] == ["cat.jpg"]
    assert [r.title for r in vphone.system.media_store.query("audio")] == ["Morning"]


@pytest.mark.parametrize("line, stderr", [
    (SCAN_VOLUME + "sdcard9", "java.lang.IllegalArgumentException: Volume sdcard9 not found"),
    ("content call --uri content://media --method rescan",
     "java.lang.UnsupportedOperationException: Unsupported call: rescan"),
    ("content call --uri content://nosuch --method scan_volume",
     "java.lang.IllegalStateException: Could not find provider: nosuch"),
])
def test_content_call_errors_as_android_prints_them(vphone, line, stderr):
    code, out, err = shell(vphone, line)
    authority = line.split("content://", 1)[1].split()[0]
    assert (code, out) == (0, "") and err == f"Error while accessing provider:{authority}\n{stderr}\n"


def test_content_call_without_a_method_prints_the_usage(vphone):
    code, out, err = shell(vphone, "content call --uri content://media")
    assert (code, err) == (0, "") and "usage: adb shell content call --uri <URI> --method <METHOD>" in out
    assert out.endswith("[ERROR] Content provider method not specified.\n")
