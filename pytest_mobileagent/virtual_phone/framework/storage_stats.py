"""StorageStatsManager and DiskStatsService: what the phone says about its internal storage.

Everything here is read from kernel/storage.py (the partitions' statfs) and the files on the
phone, so `df`, `dumpsys diskstats`, Settings > Storage and File Manager's Storage tab report
one set of numbers:

* total: StorageStatsService.getTotalBytes(UUID_DEFAULT) is StorageManager.getPrimaryStorageSize(),
  FileUtils.roundStorageSize(/data's total + the root file system's total): the "nice round
  power-of-two" a phone advertises (frameworks/base core/java/android/os/FileUtils.java,
  core/java/android/os/storage/StorageManager.java).
* free: getFreeBytes is /data's usable space (StatFs: available blocks times block size; no
  cache is held, so none is clearable on top).
* categories: the files on shared storage by MIME type, as MediaProvider files them
  (media_store.mime_type_of): images, videos, audio; files MediaStore trashed
  (".trashed-<expiry>-<name>", MediaProvider's FileUtils.isTrashed) are Trash; the rest of
  shared storage is "Documents & other".  Apps are the app-specific folders (Android/data,
  Android/media, Android/obb) and /data/data; System is Settings' own remainder
  (StorageItemPreferenceController: max(1 GiB, used - attributed)).
"""

from __future__ import annotations

import json
import posixpath
from dataclasses import dataclass, field

from ..kernel.fs import FsError, VirtualFileSystem
from ..kernel.storage import MOUNTS, mount_of, statfs
from .media_store import EXTERNAL_ROOT, mime_type_of
from .services import DUMPSYS_HANDLERS, DumpTarget

__all__ = ["StorageSummary", "format_bytes_shorter", "round_storage_size", "storage_summary"]

GIB = 1024 ** 3
_APP_DIRS = ("Android/data", "Android/media", "Android/obb")


def round_storage_size(size: int) -> int:
    """FileUtils.roundStorageSize: up to 1, 2, 4 ... 512 of B, kB (1000), MB, GB ..."""
    val, power = 1, 1
    while val * power < size:
        val <<= 1
        if val > 512:
            val, power = 1, power * 1000
    return val * power


def format_bytes_shorter(size: int) -> tuple[str, str]:
    """Formatter.formatBytes(res, size, FLAG_SHORTER) (frameworks/base core/java/android/text/format/
    Formatter.java RoundedBytesResult.roundBytes): 1000-based units, "%.2f" below 1, "%.1f" below
    10, "%.0f" from 10; a new unit above 900.  Returns (value, unit) as "7.5", "GB"."""
    result = float(abs(size))
    units = ("B", "kB", "MB", "GB", "TB", "PB")
    index = 0
    while result > 900 and index < len(units) - 1:
        result /= 1000
        index += 1
    if index == 0 or result >= 10:
        text = f"{result:.0f}"
    elif result < 1:
        text = f"{result:.2f}"
    else:
        text = f"{result:.1f}"
    return ("-" if size < 0 else "") + text, units[index]


@dataclass
class StorageSummary:
    """The primary volume as StorageStatsManager reports it, with the Settings categories."""

    data_total: int
    root_total: int
    free: int
    images: int = 0
    videos: int = 0
    audio: int = 0
    documents_and_other: int = 0
    trash: int = 0
    downloads: int = 0
    apps: int = 0
    games: int = 0
    app_sizes: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        """StorageStatsManager.getTotalBytes(UUID_DEFAULT)."""
        return round_storage_size(self.data_total + self.root_total)

    @property
    def used(self) -> int:
        """StorageUsageProgressBarPreferenceController: total - free."""
        return self.total - self.free

    @property
    def attributed(self) -> int:
        return (self.images + self.videos + self.audio + self.documents_and_other + self.trash + self.apps
                + self.games)

    @property
    def system(self) -> int:
        """StorageItemPreferenceController: everything not attributed, at least 1 GiB."""
        return max(GIB, self.used - self.attributed)


def _walk(fs: VirtualFileSystem, folder: str):
    try:
        entries = fs.listdir_stat(folder)
    except FsError:
        return
    for name, info in entries:
        path = posixpath.join(folder, name)
        if info.is_dir:
            yield from _walk(fs, path)
        elif (info.mode & 0o170000) == 0o100000:
            yield path, name, info.size


def storage_summary(fs: VirtualFileSystem) -> StorageSummary:
    """What StorageStatsManager and MediaStore say about the primary volume now."""
    data = statfs(fs, mount_of(fs, "/data"))
    root = statfs(fs, MOUNTS[0])
    summary = StorageSummary(data.total_bytes, root.total_bytes, data.free_bytes)
    app_roots = tuple(f"{EXTERNAL_ROOT}/{d}/" for d in _APP_DIRS)
    for path, name, size in _walk(fs, EXTERNAL_ROOT):
        if path.startswith(app_roots):
            package = path.split("/")[6] if path.count("/") > 6 else ""
            summary.apps += size
            summary.app_sizes[package] = summary.app_sizes.get(package, 0) + size
            continue
        if path.startswith(f"{EXTERNAL_ROOT}/Download/"):
            summary.downloads += size
        if name.startswith(".trashed-"):
            summary.trash += size
            continue
        kind = mime_type_of(name).split("/")[0]
        if kind == "image":
            summary.images += size
        elif kind == "video":
            summary.videos += size
        elif kind == "audio":
            summary.audio += size
        else:
            summary.documents_and_other += size
    for path, _name, size in _walk(fs, "/data/data"):
        package = path.split("/")[3]
        summary.apps += size
        summary.app_sizes[package] = summary.app_sizes.get(package, 0) + size
    return summary


def _dump_diskstats(target: DumpTarget, args: list[str]) -> int:
    """DiskStatsService.dump (frameworks/base services/core/java/com/android/server/
    DiskStatsService.java): the 512-byte write test, the free space of /data, the download
    cache (/data/cache, on /data) and /system, the encryption, then the cached sizes
    DiskStatsLoggingService keeps (here measured when asked)."""
    fs = target.phone.fs
    lines = ["Latency: 0ms [512B Data Write]"]  # the virtual file system writes in no phone time
    for label, path in (("Data", "/data"), ("Cache", "/data/cache"), ("System", "/system")):
        info = statfs(fs, mount_of(fs, path if fs.exists(path) else posixpath.dirname(path)))
        avail_k, total_k = info.bavail * info.bsize // 1024, info.blocks * info.bsize // 1024
        lines.append(f"{label}-Free: {avail_k}K / {total_k}K total = {info.bavail * 100 // info.blocks}% free")
    lines.append("File-based Encryption: true")  # Android 14 requires FBE on /data
    summary = storage_summary(fs)
    names = sorted(summary.app_sizes)
    lines += [f"App Size: {summary.apps}", "App Cache Size: 0", f"Photos Size: {summary.images}",
              f"Videos Size: {summary.videos}", f"Audio Size: {summary.audio}",
              f"Downloads Size: {summary.downloads}", f"System Size: {summary.system}",
              f"Other Size: {summary.documents_and_other}",
              # org.json's JSONArray.toString: no spaces, strings quoted
              f"Package Names: {json.dumps(names, separators=(',', ':'))}",
              f"App Sizes: {json.dumps([summary.app_sizes[n] for n in names], separators=(',', ':'))}",
              f"Cache Sizes: {json.dumps([0] * len(names), separators=(',', ':'))}"]
    target.out("\n".join(lines) + "\n")
    return 0


DUMPSYS_HANDLERS[("diskstats", "*")] = _dump_diskstats
DUMPSYS_HANDLERS[("diskstats", "")] = _dump_diskstats
