"""The phone's block storage: its mounts, and each file system's size and free space (statfs).

One source of truth for every command that reports space: /proc/mounts and `mount`, toybox `df`,
`dumpsys diskstats` (StatFs), StorageStatsManager (framework/storage_stats.py) and the screens
built on it (Settings > Storage, File Manager's Storage tab).

The userdata partition is 6 GiB: Android Studio's Device Manager gives a new Pixel AVD 6 GB of
"Internal Storage" (the AVD's config.ini `disk.dataPartition.size=6G`).  The virtual file system
holds file contents in memory, so it keeps its bound (fs.MAX_TOTAL_SIZE, 512 MiB): that is the
free space the partition has at boot, and the rest of /data is what the OS already keeps there
(app code, dex files, databases, caches the virtual phone does not hold as files).  Used space is
that base plus every byte the file system holds, so ENOSPC (fs.write_file) comes exactly when
`df /data` says the partition is full.  /storage/emulated is MediaProvider's FUSE view of
/data/media: its statfs is the lower file system's (the FUSE daemon forwards statfs), so it
reports /data's numbers, as on a phone.

The system partition (system-as-root, /dev/block/dm-0 on /) is read-only ext4 built to fit its
files: full, nothing available.  Its size here is the virtual image's, not a measured one.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from .fs import FsError, VirtualFileSystem

__all__ = ["BLOCK_SIZE", "MOUNTS", "SYSTEM_SIZE", "USERDATA_SIZE", "Mount", "StatFs", "mount_of",
           "proc_mounts", "realpath", "statfs"]

BLOCK_SIZE = 4096  # ext4's block size on Android's userdata and system images
USERDATA_SIZE = 6 * 1024 ** 3
SYSTEM_SIZE = 1024 ** 3
#: /proc/meminfo's MemTotal (kB): tmpfs defaults to half of RAM (mm/shmem.c shmem_default_max_blocks)
_MEM_TOTAL_KB = 4027036


@dataclass(frozen=True, slots=True)
class Mount:
    device: str
    dir: str
    type: str
    options: str
    #: "data" (userdata), "system", "tmpfs" or "" (a synthetic file system: no blocks)
    backing: str


#: The mounts, in mount order, as /proc/mounts lists them on an Android 14 emulator (fs_mgr's
#: first-stage and second-stage mounts; /data is dm-5, the device `stat` reports for it: fd05h).
MOUNTS: tuple[Mount, ...] = (
    Mount("/dev/block/dm-0", "/", "ext4", "ro,seclabel,relatime", "system"),
    Mount("tmpfs", "/dev", "tmpfs", "rw,seclabel,nosuid,relatime,size=2013516k,nr_inodes=503379,mode=755",
          "tmpfs"),
    Mount("proc", "/proc", "proc", "rw,relatime,gid=3009,hidepid=invisible", ""),
    Mount("sysfs", "/sys", "sysfs", "rw,seclabel,relatime", ""),
    Mount("/dev/block/dm-5", "/data", "ext4",
          "rw,seclabel,nosuid,nodev,noatime,resgid=1065,errors=panic", "data"),
    Mount("/dev/fuse", "/storage/emulated", "fuse",
          "rw,lazytime,nosuid,nodev,noexec,noatime,user_id=0,group_id=0,allow_other", "data"),
)


#: statfs(2)'s f_type per file system type (include/uapi/linux/magic.h; FUSE's is fs/fuse/inode.c)
FS_MAGIC = {"ext4": 0xEF53, "tmpfs": 0x01021994, "proc": 0x9FA0, "sysfs": 0x62656572, "fuse": 0x65735546}


@dataclass(frozen=True, slots=True)
class StatFs:
    """statvfs(3)'s fields that df, stat -f and StatFs read."""

    bsize: int
    blocks: int
    bfree: int
    bavail: int

    @property
    def total_bytes(self) -> int:
        return self.blocks * self.bsize

    @property
    def free_bytes(self) -> int:
        return self.bavail * self.bsize

    @property
    def used_bytes(self) -> int:
        return (self.blocks - self.bfree) * self.bsize


def _data_statfs(fs: VirtualFileSystem) -> StatFs:
    # The OS's share of /data is fixed; what the file system holds is counted byte for byte,
    # free space rounded down to whole blocks (ext4 allocates blocks).
    blocks = USERDATA_SIZE // BLOCK_SIZE
    free = max(0, fs.max_total_size - fs.used) // BLOCK_SIZE
    return StatFs(BLOCK_SIZE, blocks, free, free)


def statfs(fs: VirtualFileSystem, mount: Mount) -> StatFs:
    """What statfs(2) reports for a mount."""
    if mount.backing == "data":
        return _data_statfs(fs)
    if mount.backing == "system":
        return StatFs(BLOCK_SIZE, SYSTEM_SIZE // BLOCK_SIZE, 0, 0)
    if mount.backing == "tmpfs":
        blocks = _MEM_TOTAL_KB // 2 * 1024 // BLOCK_SIZE
        return StatFs(BLOCK_SIZE, blocks, blocks, blocks)
    return StatFs(BLOCK_SIZE, 0, 0, 0)


def realpath(fs: VirtualFileSystem, path: str, cwd: str = "/") -> str:
    """The path with every symlink resolved (realpath(3)); FsError if a part does not exist."""
    done = "/"
    parts = [p for p in fs.normpath(path, cwd).split("/") if p]
    hops = 0
    while parts:
        part = parts.pop(0)
        candidate = posixpath.join(done, part)
        info = fs.stat(candidate, follow=False)
        if (info.mode & 0o170000) == 0o120000:
            hops += 1
            if hops > 40:
                raise FsError(40, path)  # ELOOP
            target = fs.readlink(candidate)
            base = "/" if target.startswith("/") else done
            parts = [p for p in fs.normpath(target, base).split("/") if p] + parts
            done = "/"
            continue
        done = candidate
    return done


def mount_of(fs: VirtualFileSystem, path: str, cwd: str = "/") -> Mount:
    """The mount a path lives on (the last, deepest mount point over its real path)."""
    real = realpath(fs, path, cwd)
    best = MOUNTS[0]
    for mount in MOUNTS:
        if real == mount.dir or real.startswith(mount.dir.rstrip("/") + "/"):
            if len(mount.dir) >= len(best.dir):
                best = mount
    return best


def proc_mounts() -> bytes:
    """/proc/mounts: device, mount point, type, options, dump and pass (fs/proc_namespace.c)."""
    return "".join(f"{m.device} {m.dir} {m.type} {m.options} 0 0\n" for m in MOUNTS).encode()
