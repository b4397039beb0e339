"""Every task starts from the run's baseline, whatever ran before it on the phone.

``pm clear`` leaves shared storage, settings and other apps' tasks alone;
device/baseline.py puts them back before each task. Checked three ways: the
reset itself through adb (what it removes, restores and rescans), the pair of
tasks that leaked into each other (File Manager's delete-videos leaves an mp3
in Download, which the Music Player then lists as an album), and all 100
tasks with ``replay`` in shuffled orders on one phone.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_mobileagent.device import connect
from pytest_mobileagent.device.baseline import DeviceBaseline, storage_folder

# Each shuffled order runs the whole benchmark.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
TASK_FILES = sorted((ROOT / "task_tests").glob("test_*.py"))

# Shuffles the collected tasks with a seed: a run order no file gives.
SHUFFLE_PLUGIN = '''
import random

def pytest_addoption(parser):
    parser.addoption("--shuffle-seed", type=int, default=None)

def pytest_collection_modifyitems(config, items):
    seed = config.getoption("shuffle_seed")
    if seed is not None:
        random.Random(seed).shuffle(items)
        with open("order.txt", "w") as order:  # the order the tasks run in (results are sorted)
            order.write("\\n".join(item.name for item in items))
'''

@pytest.fixture
def device(phone):
    with connect(phone.serial) as dev:
        yield dev


def audio_paths(phone) -> set[str]:
    """MediaStore's audio rows (the phone's provider does not answer `content query`: read it in-process)."""
    return {row._data for row in phone.phone.system.media_store.query("audio")}


def test_the_reset_removes_what_was_added_and_restores_settings(phone, device):
    song = (ROOT / "fixtures" / "audio" / "music").glob("*.mp3").__next__().read_bytes()
    device.shell("rm -rf /sdcard/Podcasts/keep; mkdir -p /sdcard/Podcasts/keep")
    device.push("/sdcard/Podcasts/keep/old.txt", "there before the run")
    baseline = DeviceBaseline(device, storage=["Download"], packages=["com.simplemobiletools.musicplayer"])
    device.push("/sdcard/Download/before.mp3", song)  # in a declared folder: emptied by the capture
    baseline.restore()  # the first call records the baseline
    assert not device.exists("/sdcard/Download/before.mp3") and device.exists("/sdcard/Download")
    assert device.exists("/sdcard/Podcasts/keep/old.txt"), "files outside the declared folders are kept"

    # What a seed and an agent leave behind: files (scanned into MediaStore), a folder, settings.
    device.push("/sdcard/Download/left.mp3", song)
    device.shell("am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file:///sdcard/Download/left.mp3")
    device.shell("mkdir -p /sdcard/DCIM/made/deeper; rm -rf /sdcard/Podcasts")
    device.push("/sdcard/DCIM/made/deeper/x.txt", "x")
    before = device.shell("settings get system screen_off_timeout")
    device.shell("settings put system screen_off_timeout 12345; settings put global mobileagent_test_key 1")
    assert "/storage/emulated/0/Download/left.mp3" in audio_paths(phone)

    report = baseline.restore()
    assert set(report.removed) == {"/sdcard/Download/left.mp3", "/sdcard/DCIM/made"}
    assert report.recreated == ["/sdcard/Podcasts", "/sdcard/Podcasts/keep"]
    assert set(report.settings) == {"system/screen_off_timeout", "global/mobileagent_test_key"}
    assert not device.exists("/sdcard/Download/left.mp3") and not device.exists("/sdcard/DCIM/made")
    assert "/storage/emulated/0/Download/left.mp3" not in audio_paths(phone), "MediaStore was not rescanned"
    assert device.shell("settings get system screen_off_timeout") == before
    assert device.shell("settings get global mobileagent_test_key") == "null"
    assert not baseline.restore(), "a second restore finds nothing to do"
    device.shell("rm -rf /sdcard/Podcasts/keep")


def storage_tree(adb_device, folder: str = "/sdcard") -> dict[str, int]:
    """path -> size of everything below ``folder`` outside Android/, read through adb's sync LIST
    (names as the file system holds them: no text listing in between)."""
    tree = {}
    for entry in adb_device.sync.list(folder):
        if entry.path in (".", "..") or f"{folder}/{entry.path}" == "/sdcard/Android":
            continue
        path = f"{folder}/{entry.path}"
        tree[path] = entry.size
        if entry.mode & 0o170000 == 0o040000:
            tree.update(storage_tree(adb_device, path))
    return tree


def test_a_name_holding_a_newline_is_removed_whole_and_nothing_else_is(device, adb_device):
    device.shell("rm -rf /sdcard/Podcasts/kept; mkdir -p /sdcard/Podcasts/kept")
    device.push("/sdcard/Podcasts/kept/song.txt", "there before the run")
    baseline = DeviceBaseline(device)
    baseline.restore()  # records the baseline
    before = storage_tree(adb_device)

    # What an agent may leave: names holding a newline. Read line by line, the listing has
    # `/sdcard/Download/x` and the relative paths `sdcard`, `sdcard/Podcasts`, ... instead: paths
    # that are not there (the real ones survive into the next task), and that `rm -rf` resolves
    # against the shell's working directory.
    adb_device.sync.push(b"left by a task", "/sdcard/Download/x\nsdcard/Podcasts/kept/song.txt")
    adb_device.sync.push(b"left by a task", "/sdcard/Download/two\nlines.txt")
    seeded = set(storage_tree(adb_device)) - set(before)
    assert {"/sdcard/Download/x\nsdcard", "/sdcard/Download/two\nlines.txt"} <= seeded

    report = baseline.restore()
    assert storage_tree(adb_device) == before
    assert sorted(report.removed) == ["/sdcard/Download/two\nlines.txt", "/sdcard/Download/x\nsdcard"]
    assert adb_device.sync.read_text("/sdcard/Podcasts/kept/song.txt") == "there before the run"
    assert not baseline.restore(), "a second restore finds nothing to do"
    device.shell("rm -rf /sdcard/Podcasts/kept")


@pytest.mark.parametrize("folder, error", [
    ("/data/local/tmp", "not a folder of shared storage"),
    ("Android/data/x", "not a folder of shared storage"),
    ("../etc", "not a folder of shared storage"),
])
def test_declared_storage_must_be_shared_storage(folder, error):
    with pytest.raises(ValueError, match=error):
        storage_folder(folder)


def test_declared_storage_is_normalised():
    assert storage_folder("Download") == storage_folder("/storage/emulated/0/Download/") == "/sdcard/Download"


def run_tasks(phone, tmp: Path, *args: str) -> tuple[subprocess.CompletedProcess, list[dict]]:
    out = tmp / "results.json"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", *args, "--agent", "replay", "--device", phone.serial,
         "--results-json", str(out), "-q", "-p", "no:cacheprovider", "--rootdir", str(ROOT)],
        cwd=tmp, capture_output=True, text=True, timeout=600,
    )
    assert out.exists(), proc.stdout[-3000:] + proc.stderr[-2000:]
    return proc, json.loads(out.read_text())["tasks"]


def test_delete_videos_then_album_sort_by_year(phone, tmp_path):
    proc, records = run_tasks(
        phone, tmp_path,
        str(ROOT / "task_tests" / "test_filemanager.py") + "::test_filemanager_delete_videos",
        str(ROOT / "task_tests" / "test_music.py") + "::test_music_player_album_sort_by_year")
    assert [r["task"] for r in records] == ["test_filemanager_delete_videos", "test_music_player_album_sort_by_year"]
    assert all(r["success"] for r in records), [(r["task"], r["error"]) for r in records]
    assert proc.returncode == 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_all_tasks_pass_in_a_shuffled_order(phone, tmp_path, seed):
    (tmp_path / "shuffle_order.py").write_text(SHUFFLE_PLUGIN)
    proc, records = run_tasks(phone, tmp_path, *map(str, TASK_FILES), "-p", "shuffle_order",
                              "--shuffle-seed", str(seed))
    order = (tmp_path / "order.txt").read_text().split()
    assert sorted(order) == sorted(r["task"] for r in records) and len(set(order)) == 100
    app_of = {r["task"]: r["app"] for r in records}
    switches = sum(app_of[a] != app_of[b] for a, b in zip(order, order[1:]))
    assert switches > 50, "the tasks ran app by app, not shuffled"
    failed = [(r["task"], r["error"]) for r in records if not r["success"]]
    assert not failed and proc.returncode == 0, failed
