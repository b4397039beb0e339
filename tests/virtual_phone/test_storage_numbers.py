"""One storage record: toybox df, dumpsys diskstats, Settings > Storage and File Manager's Storage tab.

Sources: toybox 0.8.9 toys/posix/df.c (columns, Use% rounded up), DiskStatsService.dump
("Data-Free: <avail>K / <total>K total = <n>% free"), StorageStatsService.getTotalBytes
(FileUtils.roundStorageSize(/data + root)), Settings' StorageUsageProgressBarPreferenceController
and StorageItemPreferenceController (Formatter.formatBytes FLAG_SHORTER), Simple File Manager 6.16.1
StorageFragment.getVolumeStorageStats (getTotalBytes / getFreeBytes, formatSizeThousand).
"""

from __future__ import annotations

import io
import re

import pytest
from adbutils import AdbError
from storage_apps import AdbUI
from uitools import centre, find, find_all

from pytest_mobileagent.virtual_phone.apps.simple.filemanager import format_size_thousand
from pytest_mobileagent.virtual_phone.framework.storage_stats import format_bytes_shorter, round_storage_size

FM = "com.simplemobiletools.filemanager.pro"
BIG = "/sdcard/Pictures/storage_test.png"


def screen(ui: AdbUI) -> str:
    """The screen, as `uiautomator dump /dev/tty` prints it: no dump file is written, so measuring
    does not change the free space being measured (adbutils' dump_hierarchy leaves one in
    /data/local/tmp)."""
    out = ui.sh("uiautomator dump /dev/tty")
    return out[:out.rindex("</hierarchy>") + len("</hierarchy>")]  # then "UI hierchary dumped to: /dev/tty"


def tap(ui: AdbUI, **kw) -> None:
    ui.sh("input tap {} {}".format(*centre(find(screen(ui), **kw))))


def df(ui: AdbUI, path: str) -> tuple[int, int, int]:
    lines = ui.sh(f"df {path}").splitlines()
    assert lines[0].split() == ["Filesystem", "1K-blocks", "Used", "Available", "Use%", "Mounted", "on"]
    size, used, avail = (int(x) for x in lines[1].split()[1:4])
    return size, used, avail


def diskstats(ui: AdbUI) -> tuple[int, int]:
    match = re.search(r"^Data-Free: (\d+)K / (\d+)K total = (\d+)% free$", ui.sh("dumpsys diskstats"), re.M)
    assert match, "no Data-Free line"
    return int(match[1]), int(match[2])


def settings_page(ui: AdbUI) -> dict[str, str]:
    ui.sh("am start -a android.settings.INTERNAL_STORAGE_SETTINGS")
    xml = screen(ui)
    return {"used": find(xml, id="com.android.settings:id/usage_summary")["text"],
            "total": find(xml, id="com.android.settings:id/total_summary")["text"]}


def file_manager(ui: AdbUI) -> tuple[str, str]:
    ui.sh(f"am start -n {FM}/.activities.MainActivity")
    tap(ui, text="Storage")
    xml = screen(ui)
    return find(xml, id="free_space_value")["text"], find(xml, id="total_space")["text"]


@pytest.fixture
def ui(adb_device, phone):
    ui = AdbUI(adb_device, phone, FM)
    ui.sh(f"rm -f {BIG}")
    yield ui
    ui.sh(f"rm -f {BIG}")
    ui.close()


def test_mount_and_proc_mounts_list_the_same_mounts(ui):
    mounts = [line.split()[:3] for line in ui.sh("cat /proc/mounts").splitlines()]
    listed = [line.split() for line in ui.sh("mount").splitlines()]
    assert [[m[0], m[2], m[4]] for m in listed] == mounts
    assert ["/dev/block/dm-5", "/data", "ext4"] in mounts
    # df leaves out the synthetic file systems (no blocks): proc and sysfs
    shown = [line.split()[-1] for line in ui.sh("df").splitlines()[1:]]
    assert "/proc" not in shown and "/data" in shown and "/storage/emulated" in shown


def test_df_diskstats_settings_and_file_manager_agree_and_move_together(ui, adb_device):
    photos = int(re.search(r"^Photos Size: (\d+)$", ui.sh("dumpsys diskstats"), re.M)[1])
    size, used, avail = df(ui, "/data")
    assert df(ui, "/sdcard")[:3] == (size, used, avail)  # the FUSE view forwards /data's statfs
    assert diskstats(ui) == (avail, size)
    total = round_storage_size(size * 1024 + df(ui, "/")[0] * 1024)
    free, total_text = file_manager(ui)
    assert (free, total_text) == (format_size_thousand(avail * 1024), f"Total storage: {format_size_thousand(total)}")
    page = settings_page(ui)
    assert page["total"] == "Total {} {}".format(*format_bytes_shorter(total))
    assert page["used"] == "{} {} used".format(*format_bytes_shorter(total - avail * 1024))

    adb_device.sync.push(io.BytesIO(b"\x89PNG" + bytes(8 * 1024 * 1024 - 4)), BIG)
    size2, used2, avail2 = df(ui, "/data")
    assert (size2, used2 - used, avail - avail2) == (size, 8192, 8192)
    assert diskstats(ui) == (avail2, size)
    assert file_manager(ui)[0] == format_size_thousand(avail2 * 1024)
    assert settings_page(ui)["used"] == "{} {} used".format(*format_bytes_shorter(total - avail2 * 1024))
    # the page files the picture under Images, and diskstats under Photos
    assert f"Photos Size: {photos + 8388608}" in ui.sh("dumpsys diskstats").splitlines()
    ui.sh("am start -a android.settings.INTERNAL_STORAGE_SETTINGS")
    xml = screen(ui)
    assert find_all(xml, text="Images")
    assert find_all(xml, text="{} {}".format(*format_bytes_shorter(photos + 8388608)))


def test_writes_fail_with_enospc_exactly_when_df_says_the_data_partition_is_full(ui, adb_device):
    """The file system refuses a write (ENOSPC) exactly when df's Available reaches 0."""
    _size, _used, avail = df(ui, "/data")
    chunk = 60 * 1024 * 1024  # under the largest file the phone takes
    pushed = 0
    try:
        while df(ui, "/data")[2] * 1024 > chunk:
            adb_device.sync.push(io.BytesIO(bytes(chunk)), f"/sdcard/Download/fill{pushed}.bin")
            pushed += 1
        left = df(ui, "/data")[2]
        adb_device.sync.push(io.BytesIO(bytes(left * 1024)), "/sdcard/Download/last.bin")  # fits exactly
        size, used, now = df(ui, "/data")
        assert (now, used) == (0, size)
        assert "Data-Free: 0K / 6291456K total = 0% free" in ui.sh("dumpsys diskstats").splitlines()
        with pytest.raises(AdbError):  # adbutils reports the sync FAIL without its message
            adb_device.sync.push(io.BytesIO(bytes(4096)), "/sdcard/Download/one_block_more.bin")
        # a block's worth from the shell (seq 1 2000 prints 8893 bytes): the same refusal
        assert "No space left on device" in ui.sh("seq 1 2000 > /data/local/tmp/one_more.txt")
    finally:
        ui.sh("rm -f /data/local/tmp/one_more.txt /sdcard/Download/fill*.bin /sdcard/Download/last.bin /sdcard/Download/one_block_more.bin")
    assert df(ui, "/data")[2] == avail


def test_df_formats_follow_toybox(ui):
    """toybox 0.8.9 df.c: -h is human_readable (6 GiB is "6.0G"), the first column at least 15 wide
    with -h (14 without), -P counts 512-byte blocks under "512-blocks" and "Capacity", a synthetic
    file system (no blocks) is left out unless -a, and the header comes even when no row does."""
    size_k = df(ui, "/data")[0]
    human = ui.sh("df -h /data").splitlines()
    assert human[0] == "Filesystem      Size Used Avail Use% Mounted on"
    assert human[1].split()[0:2] == ["/dev/block/dm-5", "6.0G"] and size_k * 1024 == 6 * 1024 ** 3
    pedantic = ui.sh("df -P /data").splitlines()
    assert pedantic[0].split() == ["Filesystem", "512-blocks", "Used", "Available", "Capacity", "Mounted", "on"]
    assert int(pedantic[1].split()[1]) == size_k * 2
    # no row to measure: the columns are the header's own widths, the first one 14
    assert ui.sh("df /proc").splitlines() == ["Filesystem     1K-blocks Used Available Use% Mounted on"]
    assert ui.sh("df -a /proc").splitlines()[1].split() == ["proc", "0", "0", "0", "0%", "/proc"]
    assert ui.sh("df -t tmpfs").splitlines()[1].split()[-1] == "/dev"
    # every row's columns line up under the header (right-aligned numbers)
    lines = ui.sh("df").splitlines()
    ends = {line.index(" /", 15) if line.startswith("/") else line.rindex("% ") + 1 for line in lines[1:]}
    assert ends == {lines[0].index("Use%") + 4}


def test_stat_f_reports_the_blocks_df_counts(ui):
    """toybox stat.c -f (print_statfs: %b total, %f free, %a available blocks of %S bytes; %T from
    fs_type_name, which calls ext4's magic 0xEF53 "ext3")."""
    size_k, used_k, avail_k = df(ui, "/data")
    blocks, free, avail, bsize, kind = ui.sh('stat -f -c "%b %f %a %S %T" /data').split()
    assert (int(blocks) * int(bsize) // 1024, int(avail) * int(bsize) // 1024) == (size_k, avail_k)
    assert (int(blocks) - int(free)) * int(bsize) // 1024 == used_k and kind == "ext3"
    assert ui.sh("stat -f /sdcard").splitlines()[3] == ui.sh("stat -f /data").splitlines()[3]
