"""The phone's media store: what Android's MediaProvider knows about shared storage.

Files reach shared storage (`/storage/emulated/0`, alias `/sdcard`) by
`adb push` or an app; they become media only when scanned.  A scan reads each
file's bytes the way Android's ModernMediaScanner does -- MIME type from the
extension, image dimensions and EXIF date from the image, duration and
dimensions of a video, title/artist/album/year/duration from an audio file's
tags (mutagen) -- and keeps one row per file with MediaStore's column names.

As on Android 11+, files inside a hidden folder (a name starting with ".") or
below a folder holding a `.nomedia` file are registered with media type
"none", so they are in the Files collection but not among images, videos or
audio.  Scanning a folder registers everything below it and drops the rows of
files that are gone, as a real scan reconciles its database.

Scans are triggered by the shell (`am broadcast -a
android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file:///sdcard/...`,
`content call --uri content://media --method scan_volume --arg
external_primary`); apps that change files update their rows themselves
(`file_deleted`, `file_renamed`), as MediaStore-aware apps do.

Every process reaches shared storage through MediaProvider's FUSE daemon
(packages/providers/MediaProvider, jni/FuseDaemon.cpp), which keeps the
database in step with each file operation (`on_fs_change`, the file
system's listener):

- creating a file (pf_create -> MediaProvider.insertFileIfNecessaryForFuse
  -> insertFileForFuse) inserts a row with the MIME type the name implies,
  IS_PENDING=1 and the creator as owner, and nothing else: no scan runs on
  close (FUSE's scan on create/close was removed in 2020, commits
  549c9c309 "Remove scanFile after create" and d6431c76d).  Pending rows
  created through FUSE are visible to their owner only
  (getWhereClauseForMatchExclude), so a file `adb push`ed by the shell is
  in no app's query until a scan publishes it -- why seeds still broadcast
  MEDIA_SCANNER_SCAN_FILE;
- deleting one (pf_unlink -> deleteFileForFuse) deletes its row at once;
- renaming (pf_rename -> renameForFuse): a file's row moves to the new path
  with the new name's MIME and media type (MEDIA_TYPE_NONE when hidden,
  getContentValuesForFuseRename), keeping its metadata; a folder's rows all
  move, then the old and new folders are scanned
  (scanRenamedDirectoryForFuse); renaming to or from `.nomedia` rescans the
  parent folder.  Creating folders adds no rows (pf_mkdir only asks
  IsCreatingDirAllowed).
"""

from __future__ import annotations

import datetime as dt
import io
import posixpath
import threading
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable

from ..kernel.fs import FsError, VirtualFileSystem
from .providers.base import ProviderError

__all__ = ["EXTERNAL_ROOT", "MEDIA_TYPES", "MediaItem", "MediaStore", "mime_type_of", "storage_path"]

#: The primary shared storage volume (`external_primary`) as MediaProvider stores paths.
EXTERNAL_ROOT = "/storage/emulated/0"
#: The aliases that clients use for it; a scan maps them to EXTERNAL_ROOT.
_ALIASES = ("/sdcard", "/storage/self/primary", "/mnt/sdcard", "/mnt/user/0/primary")
#: media_type values (MediaStore.Files.FileColumns.MEDIA_TYPE_*), by name.
MEDIA_TYPES = {"none": 0, "image": 1, "audio": 2, "video": 3, "playlist": 4, "subtitle": 5, "document": 6}

# Android's MimeMap (libcore) for the extensions a phone meets in practice.
_MIME_BY_EXT = {
    "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp",
    "bmp": "image/x-ms-bmp", "heic": "image/heic", "heif": "image/heif", "svg": "image/svg+xml",
    "dng": "image/x-adobe-dng", "cr2": "image/x-canon-cr2", "nef": "image/x-nikon-nef", "raw": "image/x-panasonic-raw",
    "mp4": "video/mp4", "m4v": "video/mp4", "3gp": "video/3gpp", "webm": "video/webm", "mkv": "video/x-matroska",
    "mov": "video/quicktime", "avi": "video/avi", "ts": "video/mp2ts", "mpg": "video/mpeg", "mpeg": "video/mpeg",
    "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "ogg": "audio/ogg", "oga": "audio/ogg",
    "opus": "audio/ogg", "flac": "audio/flac", "wav": "audio/x-wav", "amr": "audio/amr", "mid": "audio/midi",
    "midi": "audio/midi", "3ga": "audio/3gpp", "m3u": "audio/x-mpegurl", "pls": "audio/x-scpls",
    "srt": "application/x-subrip", "vtt": "text/vtt",
    "txt": "text/plain", "csv": "text/comma-separated-values", "html": "text/html", "htm": "text/html",
    "xml": "text/xml", "json": "application/json", "pdf": "application/pdf", "zip": "application/zip",
    "apk": "application/vnd.android.package-archive", "doc": "application/msword", "exe": "application/x-msdownload",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xls": "application/vnd.ms-excel", "ppt": "application/vnd.ms-powerpoint", "rtf": "text/rtf",
}
_DOCUMENT_MIMES = ("text/", "application/pdf", "application/msword", "application/vnd.ms-", "application/vnd.openxml",
                   "application/rtf")


def mime_type_of(name: str) -> str:
    """The MIME type Android derives from a file name's extension."""
    ext = name.rpartition(".")[2].lower() if "." in name else ""
    return _MIME_BY_EXT.get(ext, "application/octet-stream")


def _media_type_of(mime: str) -> str:
    if mime in ("audio/x-mpegurl", "audio/x-scpls"):
        return "playlist"
    if mime in ("application/x-subrip", "text/vtt"):
        return "subtitle"
    for prefix, kind in (("image/", "image"), ("video/", "video"), ("audio/", "audio")):
        if mime.startswith(prefix):
            return kind
    if mime.startswith(_DOCUMENT_MIMES):
        return "document"
    return "none"


def storage_path(path: str) -> str | None:
    """`path` (normalised, aliases resolved) if it lies on shared storage, else None."""
    full = posixpath.normpath("/" + path.lstrip("/")) if path else ""
    for alias in _ALIASES:
        if full == alias or full.startswith(alias + "/"):
            full = EXTERNAL_ROOT + full[len(alias):]
            break
    if full == EXTERNAL_ROOT or full.startswith(EXTERNAL_ROOT + "/"):
        return full
    return None


@dataclass(frozen=True)
class MediaItem:
    """One row of MediaStore.Files, with MediaStore's column names as attributes.

    Dates are seconds since the epoch (`date_added`, `date_modified`) or
    milliseconds (`datetaken`), as in MediaStore; `duration` is milliseconds.
    """

    _id: int
    _data: str                      # absolute path on /storage/emulated/0
    _display_name: str
    mime_type: str
    media_type: str                 # a key of MEDIA_TYPES
    _size: int
    date_added: int
    date_modified: int
    datetaken: int | None = None
    width: int | None = None
    height: int | None = None
    duration: int | None = None
    title: str | None = None
    artist: str | None = None
    album: str | None = None
    year: int | None = None
    is_favorite: int = 0
    #: IS_PENDING: set on a row FUSE inserted for a new file, until a scan publishes it
    pending: int = 0
    owner_package_name: str | None = None
    extra: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def path(self) -> str:
        return self._data

    @property
    def display_name(self) -> str:
        return self._display_name

    @property
    def size(self) -> int:
        return self._size

    @property
    def bucket_display_name(self) -> str:
        """The name of the folder holding the file (what galleries group by)."""
        return posixpath.basename(posixpath.dirname(self._data))

    @property
    def relative_path(self) -> str:
        """The folder relative to the volume root, with a trailing slash ("Download/")."""
        parent = posixpath.dirname(self._data)
        rel = parent[len(EXTERNAL_ROOT):].lstrip("/")
        return rel + "/" if rel else ""

    @property
    def is_pending(self) -> int:
        return self.pending

    def column(self, name: str):
        """A column by its MediaStore name (`_data`, `bucket_display_name`, ...)."""
        if name == "media_type":
            return MEDIA_TYPES[self.media_type]
        return getattr(self, name)


#: the columns `content query` shows, in MediaProvider's order for the Files table
COLUMNS = ("_id", "_data", "_display_name", "_size", "mime_type", "media_type", "date_added", "date_modified",
           "datetaken", "width", "height", "duration", "title", "artist", "album", "year",
           "bucket_display_name", "relative_path", "is_favorite")


class MediaStore:
    """The rows of the external_primary volume, kept up to date by scans."""

    def __init__(self, fs: VirtualFileSystem, clock_ms: Callable[[], int]):
        self.fs = fs
        self._clock_ms = clock_ms
        self._lock = threading.RLock()
        self._rows: dict[str, MediaItem] = {}   # path -> row
        self._next_id = 0
        #: bumped on every change, so apps can cache what they derived from the rows
        self.generation = 0
        fs.listeners.append(self.on_fs_change)

    # -- scanning -------------------------------------------------------------------
    def scan(self, path: str) -> int:
        """Scan a file or a folder tree on shared storage; returns how many rows changed.

        A path that is not on shared storage is ignored (MediaProvider only
        scans its volumes); one that no longer exists drops its rows.
        """
        full = storage_path(path)
        if full is None:
            return 0
        with self._lock:
            changed = 0
            seen: set[str] = set()
            if self.fs.isdir(full):
                for file_path in self._walk(full):
                    seen.add(file_path)
                    changed += self._scan_file(file_path)
                prefix = full.rstrip("/") + "/"
                stale = [p for p in self._rows if p.startswith(prefix) and p not in seen]
            else:
                if self.fs.exists(full):
                    changed += self._scan_file(full)
                    stale = []
                else:
                    stale = [p for p in self._rows if p == full or p.startswith(full + "/")]
            for p in stale:
                del self._rows[p]
            changed += len(stale)
            if changed:
                self.generation += 1
            return changed

    def scan_volume(self) -> int:
        """Scan the whole primary volume (`scan_volume external_primary`)."""
        return self.scan(EXTERNAL_ROOT)

    def call(self, method: str, arg: str | None) -> dict | None:
        """MediaProvider's `call` methods the shell reaches: ``scan_volume`` of a volume.

        `content call --uri content://media --method scan_volume --arg external_primary`
        is how Android 11+ rescans shared storage (MediaStore.scanVolume); the
        provider returns no bundle.
        """
        if method != "scan_volume":
            raise ProviderError(f"java.lang.UnsupportedOperationException: Unsupported call: {method}")
        if arg not in ("external_primary", "external"):
            raise ProviderError(f"java.lang.IllegalArgumentException: Volume {arg} not found")
        self.scan_volume()
        return None

    def _walk(self, folder: str) -> Iterable[str]:
        try:
            entries = self.fs.listdir_stat(folder)
        except FsError:
            return
        for name, stat in entries:
            child = posixpath.join(folder, name)
            if stat.is_dir:
                if child == EXTERNAL_ROOT + "/Android":  # app-private data is never scanned
                    continue
                yield from self._walk(child)
            elif not (stat.mode & 0o170000 == 0o120000):  # symlinks are not followed
                yield child

    def _scan_file(self, path: str) -> int:
        try:
            stat = self.fs.stat(path)
        except FsError:
            return 0
        if stat.is_dir:
            return 0
        old = self._rows.get(path)
        if old is not None and old.date_modified == stat.mtime and old._size == stat.size and not old.pending:
            return 0
        name = posixpath.basename(path)
        mime = mime_type_of(name)
        kind = _media_type_of(mime)
        if self.is_hidden(path):
            kind = "none"
        facts = _probe(self.fs.read_file(path), kind, mime) if kind in ("image", "video", "audio") else {}
        row = MediaItem(
            _id=old._id if old is not None else self._new_id(), _data=path, _display_name=name, mime_type=mime,
            media_type=kind, _size=stat.size, date_added=old.date_added if old else self._clock_ms() // 1000,
            date_modified=stat.mtime, is_favorite=old.is_favorite if old else 0,
            owner_package_name=old.owner_package_name if old else None, **facts)
        if row.title is None and kind != "none":
            row = replace(row, title=name.rpartition(".")[0] or name)  # MediaProvider's default title
        if kind in ("audio", "video"):
            # ModernMediaScanner.scanItemAudio / scanItemVideo: ARTIST <unknown> and ALBUM the parent folder's
            # name unless the file's tags say otherwise
            row = replace(row, artist=row.artist or "<unknown>",
                          album=row.album or posixpath.basename(posixpath.dirname(path)))
        if row.datetaken is None and kind in ("image", "video"):
            # MediaProvider falls back to the file's modification time
            row = replace(row, datetaken=stat.mtime * 1000)
        self._rows[path] = row
        return 1

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def is_hidden(self, path: str) -> bool:
        """True for a file in a dot-folder, a dot-file, or below a folder with `.nomedia`."""
        rel = path[len(EXTERNAL_ROOT):].strip("/")
        parts = rel.split("/")
        if any(part.startswith(".") for part in parts):
            return True
        folder = EXTERNAL_ROOT
        for part in parts[:-1]:
            folder = posixpath.join(folder, part)
            if self.fs.exists(posixpath.join(folder, ".nomedia")):
                return True
        return False

    # -- the FUSE daemon's hooks ---------------------------------------------------------
    def on_fs_change(self, event: str, path: str, new_path: str | None = None,
                     owner: str = "com.android.shell") -> None:
        """A file operation through the FUSE mount (see the module docstring)."""
        full = storage_path(path)
        if event == "rename":
            new_full = storage_path(new_path or "")
            if full is not None and new_full is not None:
                self._rename_for_fuse(full, new_full)
            elif full is not None:  # moved off shared storage: gone from the volume
                self.file_deleted(full)
            elif new_full is not None:
                self._insert_for_fuse(new_full, owner)
            return
        if full is None:
            return
        if event == "create":
            self._insert_for_fuse(full, owner)
        elif event == "delete":
            self.file_deleted(full)

    def _insert_for_fuse(self, path: str, owner: str) -> None:
        """insertFileIfNecessaryForFuse: a pending row named after the file, no metadata yet."""
        if path.startswith(EXTERNAL_ROOT + "/Android/") or self.fs.isdir(path):
            return  # app-private folders are not in the database; folders get rows from scans
        with self._lock:
            if path in self._rows:
                return  # "we shouldn't overwrite existing entry as part of FUSE operation"
            name = posixpath.basename(path)
            mime = mime_type_of(name)
            kind = "none" if self.is_hidden(path) else _media_type_of(mime)
            now = self._clock_ms() // 1000
            self._rows[path] = MediaItem(_id=self._new_id(), _data=path, _display_name=name, mime_type=mime,
                                         media_type=kind, _size=0, date_added=now, date_modified=now,
                                         pending=1, owner_package_name=owner)
            self.generation += 1

    def _rename_for_fuse(self, old: str, new: str) -> None:
        """renameForFuse: rows follow the file or folder; folders are then rescanned."""
        with self._lock:
            moved_dir = self.fs.isdir(new)
            prefix = old + "/"
            changed = False
            for path in [p for p in self._rows if p == new or p.startswith(new + "/")]:
                if not self.fs.exists(path):
                    del self._rows[path]  # the replaced destination's rows
                    changed = True
            for path in [p for p in self._rows if p == old or p.startswith(prefix)]:
                row = self._rows.pop(path)
                target = new + path[len(old):]
                name = posixpath.basename(target)
                mime = mime_type_of(name)
                kind = "none" if self.is_hidden(target) else _media_type_of(mime)
                self._rows[target] = replace(row, _data=target, _display_name=name, mime_type=mime,
                                             media_type=kind)
                changed = True
            if changed:
                self.generation += 1
        if moved_dir:
            self.scan(old)  # scanRenamedDirectoryForFuse
            self.scan(new)
        for path in (old, new):
            if posixpath.basename(path) == ".nomedia":
                self.scan(posixpath.dirname(path))

    # -- queries --------------------------------------------------------------------
    def query(self, media_type: str | None = None, *, folder: str | None = None,
              recursive: bool = True, include_pending: bool = False) -> list[MediaItem]:
        """Rows of one media type (None = all files), optionally below `folder`, by path.

        Pending rows (files FUSE created that no scan has published) are left
        out, as MediaProvider leaves them out of every query but their owner's.
        """
        if media_type is not None and media_type not in MEDIA_TYPES:
            raise ValueError(f"unknown media type {media_type!r}; expected one of {sorted(MEDIA_TYPES)}")
        base = storage_path(folder) if folder is not None else None
        with self._lock:
            rows = sorted(self._rows.values(), key=lambda r: r._data)
        out = []
        for row in rows:
            if row.pending and not include_pending:
                continue
            if media_type is not None and row.media_type != media_type:
                continue
            if base is not None:
                parent = posixpath.dirname(row._data)
                if recursive and not (parent == base or parent.startswith(base + "/")):
                    continue
                if not recursive and parent != base:
                    continue
            out.append(row)
        return out

    def get(self, path: str, *, include_pending: bool = False) -> MediaItem | None:
        """The row of a file, if any (a pending one only with ``include_pending``)."""
        full = storage_path(path)
        with self._lock:
            row = self._rows.get(full) if full else None
        return row if row is not None and (include_pending or not row.pending) else None

    def path_of_id(self, row_id: int) -> str | None:
        """The ``_data`` of the published row ``_id`` (what a query of content://media/external/.../<id> reads)."""
        with self._lock:
            for row in self._rows.values():
                if row._id == row_id and not row.pending:
                    return row._data
        return None

    # -- changes made by apps ----------------------------------------------------------
    def file_deleted(self, path: str) -> None:
        """An app deleted a file or folder through MediaStore: drop its rows."""
        full = storage_path(path)
        if full is None:
            return
        with self._lock:
            gone = [p for p in self._rows if p == full or p.startswith(full + "/")]
            for p in gone:
                del self._rows[p]
            if gone:
                self.generation += 1

    def file_renamed(self, old: str, new: str) -> None:
        """An app renamed or moved a file or folder: rescan what now lives at `new`."""
        self.file_deleted(old)
        self.scan(new)

    def set_favorite(self, path: str, favorite: bool) -> None:
        full = storage_path(path)
        with self._lock:
            row = self._rows.get(full) if full else None
            if row is not None:
                self._rows[full] = replace(row, is_favorite=int(favorite))
                self.generation += 1

    def clear(self) -> None:
        with self._lock:
            self._rows.clear()
            self.generation += 1


# -- reading files ---------------------------------------------------------------------
def _probe(data: bytes, kind: str, mime: str) -> dict:
    """What a scan learns from a file's bytes; an unreadable file gives what it can."""
    try:
        if kind == "image":
            return _probe_image(data)
        if kind == "video":
            return _probe_video(data)
        if kind == "audio":
            return _probe_audio(data)
    except Exception:  # noqa: BLE001 - a corrupt file is still a file; MediaProvider keeps the row
        return {}
    return {}


_EXIF_DATETIME_ORIGINAL, _EXIF_DATETIME, _EXIF_IFD = 0x9003, 0x0132, 0x8769


def _probe_image(data: bytes) -> dict:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        width, height = image.size
        exif = image.getexif()
        text = exif.get_ifd(_EXIF_IFD).get(_EXIF_DATETIME_ORIGINAL) or exif.get(_EXIF_DATETIME)
    facts: dict = {"width": width, "height": height}
    taken = _exif_time(text)
    if taken is not None:
        facts["datetaken"] = taken
    return facts


def _exif_time(text) -> int | None:
    """EXIF "YYYY:MM:DD HH:MM:SS" (local time; the phone's zone is UTC) in epoch ms."""
    if not isinstance(text, str):
        return None
    try:
        when = dt.datetime.strptime(text.strip("\0 "), "%Y:%m:%d %H:%M:%S").replace(tzinfo=dt.timezone.utc)
    except ValueError:
        return None
    return int(when.timestamp() * 1000)


def _probe_video(data: bytes) -> dict:
    facts: dict = {}
    import mutagen

    info = mutagen.File(io.BytesIO(data))
    if info is not None and getattr(info, "info", None) is not None and info.info.length:
        facts["duration"] = int(round(info.info.length * 1000))
    try:
        import av  # FFmpeg's demuxers: the only way to read a video stream's frame size
    except ImportError:  # pragma: no cover - av is a dependency; without it sizes stay unknown
        return facts
    with av.open(io.BytesIO(data)) as container:
        stream = next((s for s in container.streams if s.type == "video"), None)
        if stream is not None:
            facts["width"], facts["height"] = stream.codec_context.width, stream.codec_context.height
            if "duration" not in facts and container.duration:
                facts["duration"] = int(container.duration // 1000)
    return facts


def _probe_audio(data: bytes) -> dict:
    import mutagen

    audio = mutagen.File(io.BytesIO(data), easy=True)
    if audio is None:
        return {}
    facts: dict = {}
    if getattr(audio, "info", None) is not None and audio.info.length:
        facts["duration"] = int(round(audio.info.length * 1000))
    tags = audio.tags or {}

    def first(key: str) -> str | None:
        values = tags.get(key) if hasattr(tags, "get") else None
        return str(values[0]) if values else None

    for column, key in (("title", "title"), ("artist", "artist"), ("album", "album")):
        value = first(key)
        if value:
            facts[column] = value
    year = first("date")
    if year and year[:4].isdigit():
        facts["year"] = int(year[:4])
    return facts
