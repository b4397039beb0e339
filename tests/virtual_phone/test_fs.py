"""The virtual file system on its own."""

from __future__ import annotations

import errno

import pytest

from pytest_mobileagent.virtual_phone.kernel.fs import FsError, VirtualFileSystem


@pytest.fixture
def fs():
    return VirtualFileSystem(lambda: 1_714_554_000, commands=["ls", "cat"])


def test_sdcard_aliases_are_one_directory(fs):
    fs.write_file("/sdcard/Download/a.txt", b"hello")
    assert fs.read_file("/storage/emulated/0/Download/a.txt") == b"hello"
    assert fs.read_file("/storage/self/primary/Download/a.txt") == b"hello"
    assert fs.readlink("/sdcard") == "/storage/self/primary"


def test_missing_paths_raise_enoent(fs):
    with pytest.raises(FsError) as info:
        fs.read_file("/sdcard/nope.txt")
    assert info.value.errno == errno.ENOENT
    assert info.value.strerror == "No such file or directory"


def test_read_only_areas(fs):
    for path in ("/proc/version", "/system/bin/ls", "/x"):
        with pytest.raises(FsError) as info:
            fs.write_file(path, b"x")
        assert info.value.errno == errno.EROFS
    with pytest.raises(FsError) as info:
        fs.write_file("/data/x", b"x")
    assert info.value.errno == errno.EACCES
    fs.write_file("/data/local/tmp/ok", b"x")  # the shell's scratch dir is writable


def test_dev_null_discards(fs):
    fs.write_file("/dev/null", b"junk")
    assert fs.read_file("/dev/null") == b""


def test_sizes_are_bounded():
    fs = VirtualFileSystem(lambda: 0, max_file_size=10, max_total_size=15)
    with pytest.raises(FsError) as info:
        fs.write_file("/sdcard/big", b"x" * 11)
    assert info.value.errno == errno.EFBIG
    fs.write_file("/sdcard/a", b"x" * 10)
    with pytest.raises(FsError) as info:
        fs.write_file("/sdcard/b", b"x" * 6)
    assert info.value.errno == errno.ENOSPC
    fs.remove("/sdcard/a")
    fs.write_file("/sdcard/b", b"x" * 6)  # space was given back


def test_mkdir_copy_rename_remove(fs):
    fs.mkdir("/sdcard/a/b/c", parents=True)
    fs.write_file("/sdcard/a/b/c/f", b"1")
    fs.copy("/sdcard/a", "/sdcard/copy", recursive=True)
    assert fs.read_file("/sdcard/copy/b/c/f") == b"1"
    fs.rename("/sdcard/copy/b/c/f", "/data/local/tmp")
    assert fs.read_file("/data/local/tmp/f") == b"1"
    with pytest.raises(FsError):
        fs.remove("/sdcard/a")  # a directory without recursive
    fs.remove("/sdcard/a", recursive=True)
    assert not fs.exists("/sdcard/a")


def test_mtime_follows_the_phone_clock():
    now = [1000]
    fs = VirtualFileSystem(lambda: now[0])
    fs.write_file("/sdcard/f", b"")
    now[0] = 2000
    fs.touch("/sdcard/f")
    assert fs.stat("/sdcard/f").mtime == 2000


def test_symlink_loops_and_long_names_fail_cleanly(fs):
    with pytest.raises(FsError) as info:
        fs.read_file("/sdcard/" + "x" * 300)
    assert info.value.errno == errno.ENAMETOOLONG
    with pytest.raises(FsError):
        fs.read_file("/sdcard/a\0b")
