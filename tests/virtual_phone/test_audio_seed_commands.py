"""The adb commands the music and recorder seeds use, run with the adb CLI through
the real adb server, answer as on an Android phone -- bad input included.

Seeds: `adb push` of a fixture into a folder that may not exist yet, the
media-scan broadcast, `rm -f`/`rm -rf` of what they pushed, `ls -1` of a folder
that may be missing, and the launcher `monkey` idiom.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from pytest_mobileagent.virtual_phone.server import bundled_adb_path

SONG = Path(__file__).resolve().parents[2] / "fixtures" / "audio" / "music" / "evening_tone.mp3"
SCAN = "am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d "


@pytest.fixture
def adb(phone, adb_server_port):
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([bundled_adb_path(), "-P", str(adb_server_port), "-s", phone.serial, *args],
                              capture_output=True, text=True, timeout=30)

    yield run
    run("shell", "rm -rf /sdcard/Music/Seeds")


def test_push_creates_missing_folders_and_keeps_the_files_time(adb, tmp_path):
    song = tmp_path / "song.mp3"
    song.write_bytes(SONG.read_bytes())
    os.utime(song, (1_700_000_000, 1_700_000_000))
    pushed = adb("push", str(song), "/sdcard/Music/Seeds/New/song.mp3")
    assert pushed.returncode == 0, pushed.stderr
    assert "1 file pushed" in pushed.stdout + pushed.stderr
    listing = adb("shell", "ls -l /sdcard/Music/Seeds/New/song.mp3")
    assert f" {SONG.stat().st_size} 2023-11-14 22:13 " in listing.stdout, listing.stdout  # local mtime, UTC
    pulled = adb("shell", "wc -c /sdcard/Music/Seeds/New/song.mp3")
    assert pulled.stdout.split()[0] == str(SONG.stat().st_size)


def test_push_to_a_read_only_place_fails_like_adbd(adb):
    pushed = adb("push", str(SONG), "/system/song.mp3")
    assert pushed.returncode == 1
    assert ("adb: error: failed to copy" in pushed.stderr
            and "remote couldn't create file: Read-only file system" in pushed.stderr)


def test_push_of_a_missing_local_file_fails_on_the_host(adb):
    pushed = adb("push", str(SONG.with_name("missing.mp3")), "/sdcard/Music/Seeds/x.mp3")
    assert pushed.returncode == 1 and "cannot stat" in pushed.stderr
    assert adb("shell", "ls /sdcard/Music/Seeds/x.mp3").returncode == 1


def test_scan_broadcast_prints_the_intent_and_completes(adb):
    adb("push", str(SONG), "/sdcard/Music/Seeds/song.mp3")
    done = adb("shell", SCAN + "file:///sdcard/Music/Seeds/song.mp3")
    assert done.returncode == 0
    assert done.stdout == ("Broadcasting: Intent { act=android.intent.action.MEDIA_SCANNER_SCAN_FILE "
                           "dat=file:///sdcard/Music/Seeds/song.mp3 flg=0x400000 }\n"
                           "Broadcast completed: result=0\n")


def test_scan_broadcast_without_a_uri_is_refused(adb):
    done = adb("shell", SCAN.strip())
    assert done.returncode != 0 and "No argument supplied for option" in done.stderr


def test_removing_what_a_seed_pushed(adb):
    adb("push", str(SONG), "/sdcard/Music/Seeds/a.mp3")
    forced = adb("shell", "rm -f /sdcard/Music/Seeds/a.mp3 /sdcard/Music/Seeds/never.mp3; echo $?")
    assert (forced.stdout, forced.stderr) == ("0\n", "")
    plain = adb("shell", "rm /sdcard/Music/Seeds/a.mp3")
    assert plain.returncode == 1 and plain.stderr == "rm: /sdcard/Music/Seeds/a.mp3: No such file or directory\n"
    adb("push", str(SONG), "/sdcard/Music/Seeds/Sub/b.mp3")
    assert adb("shell", "rm -rf /sdcard/Music/Seeds/Sub; echo $?").stdout == "0\n"
    assert adb("shell", "rm -rf /sdcard/Music/Seeds/Sub; echo $?").stdout == "0\n"  # already gone: still 0


def test_listing_a_missing_folder(adb):
    listed = adb("shell", "ls -1 /sdcard/Music/Seeds/none")
    assert listed.returncode == 1 and listed.stderr == "ls: /sdcard/Music/Seeds/none: No such file or directory\n"
    quiet = adb("shell", "ls -1 /sdcard/Music/Seeds/none 2>/dev/null")
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (1, "", "")


@pytest.mark.parametrize("package", ["com.simplemobiletools.musicplayer", "com.simplemobiletools.voicerecorder"])
def test_monkey_launches_the_apps_and_refuses_unknown_packages(adb, package):
    started = adb("shell", f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
    assert started.returncode == 0 and "Events injected: 1" in started.stdout
    assert package in adb("shell", "dumpsys window windows").stdout
    adb("shell", f"am force-stop {package}")
    unknown = adb("shell", "monkey -p com.example.none -c android.intent.category.LAUNCHER 1")
    assert unknown.returncode == 252 and "No activities found to run, monkey aborted." in unknown.stderr
