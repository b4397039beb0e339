"""Simple Voice Recorder's data: its settings, and its recordings as files on the phone.

Recordings are audio files in the recorder's folder on shared storage
(`/sdcard/Music/Recordings`), listed newest first; the recycle bin is its
`.trash` sub-folder.  Whatever puts a file there (the app recording, or
`adb push`) makes a recording, as on a real phone, and everything the app
does (record, rename, delete, restore) happens to those files, so a judge can
check it through adb.  Durations are read from the files with mutagen.
"""

from __future__ import annotations

import io
import posixpath
import time
from dataclasses import dataclass, field
from pathlib import Path

from ...kernel.fs import FsError

FOLDER = "/storage/emulated/0/Music/Recordings"
SHOWN_FOLDER = "Internal/Music/Recordings"
TRASH = f"{FOLDER}/.trash"
AUDIO_EXTENSIONS = (".m4a", ".mp3", ".ogg", ".opus", ".aac", ".wav", ".flac", ".amr", ".3gp")

EXTENSIONS = ("m4a", "mp3", "ogg")
EXTENSION_TEXTS = ("m4a", "mp3", "ogg (Opus)")
BITRATES = (32000, 64000, 96000, 128000, 160000, 192000, 256000, 320000)
AUDIO_SOURCES = ("Camera", "Android default", "Microphone", "Voice recognition", "Voice communication",
                 "Unprocessed", "Voice performance")
INVALID_NAME_CHARS = set('/\\:*?"<>|\0')

#: the clip saved by a recording, one per extension (made by fixtures/make_audio.py)
CLIPS_DIR = Path(__file__).resolve().parent.parent / "data"


class RecorderError(Exception):
    """An action the app refuses, with the toast it shows."""


@dataclass
class Settings:
    extension: int = 0
    bitrate: int = 128000
    audio_source: int = 0
    hide_notification: bool = False
    record_after_launch: bool = False
    use_recycle_bin: bool = True
    #: config.saveRecordingsFolder: where recordings are saved and listed ("Save recordings in")
    save_folder: str = FOLDER
    #: Commons' date format and 24-hour clock ("Change date and time format"; BaseConfig defaults)
    date_format: str = "%d.%m.%Y"
    use_24_hour: bool = False


@dataclass
class RecorderData:
    """What `pm clear` resets: preferences and the last page shown (the colour theme is Commons', on the data too)."""

    settings: Settings = field(default_factory=Settings)
    last_page: int = 0


@dataclass(frozen=True)
class Recording:
    name: str
    path: str
    mtime: int
    size: int
    duration: int  # whole seconds


def bitrate_text(bitrate: int) -> str:
    return f"{bitrate // 1000} kbps"


def format_duration(seconds: int) -> str:
    """mm:ss, or h:mm:ss from an hour on (commons getFormattedDuration)."""
    hours, rest = divmod(max(0, int(seconds)), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def format_size(size: int) -> str:
    """Commons formatSize: 1024-based units, one decimal when there is one ("13 kB", "86.1 kB")."""
    if size <= 0:
        return "0 B"
    units = ("B", "kB", "MB", "GB", "TB")
    value, unit = float(size), 0
    while value >= 1024 and unit < len(units) - 1:
        value /= 1024
        unit += 1
    text = f"{value:,.1f}".rstrip("0").rstrip(".")
    return f"{text} {units[unit]}"


def format_date(seconds: int) -> str:
    """The list's date: "01.07.2023, 11:04 AM" (commons default date and 12-hour time formats)."""
    stamp = time.gmtime(seconds)
    hour = stamp.tm_hour % 12 or 12
    return f"{time.strftime('%d.%m.%Y', stamp)}, {hour}:{stamp.tm_min:02d} {'AM' if stamp.tm_hour < 12 else 'PM'}"


_durations: dict[tuple[str, int, int], int] = {}


def audio_duration(fs, path: str, mtime: int, size: int) -> int:
    """Whole seconds of audio in the file (0 when it cannot be read), cached per version of the file."""
    key = (path, mtime, size)
    if key not in _durations:
        import mutagen

        try:
            parsed = mutagen.File(io.BytesIO(fs.read_file(path)))
            seconds = parsed.info.length if parsed is not None else 0
        except (FsError, mutagen.MutagenError, ValueError, AttributeError):
            seconds = 0
        if len(_durations) > 512:
            _durations.clear()
        _durations[key] = int(round(seconds))
    return _durations[key]


def is_audio(name: str) -> bool:
    return not name.startswith(".") and name.lower().endswith(AUDIO_EXTENSIONS)


def list_recordings(fs, folder: str = FOLDER) -> list[Recording]:
    """The audio files of `folder`, newest first (then by name), as the Player tab lists them.

    A phone without a file system (a bare AndroidSystem) has no recordings.
    """
    if fs is None:
        return []
    try:
        entries = fs.listdir_stat(folder)
    except FsError:
        return []
    found = []
    for name, stat in entries:
        if stat.is_dir or not is_audio(name):
            continue
        path = posixpath.join(folder, name)
        found.append(Recording(name, path, stat.mtime, stat.size, audio_duration(fs, path, stat.mtime, stat.size)))
    found.sort(key=lambda r: (-r.mtime, r.name))
    return found


def shown_folder(path: str) -> str:
    """Commons' humanizePath: the internal storage's path shown as "Internal"."""
    root = "/storage/emulated/0"
    return "Internal" + path[len(root):] if path.startswith(root) else path


def new_recording_name(fs, now_ms: int, extension: str, folder: str = FOLDER) -> str:
    """yyyy_MM_dd_HH_mm_ss.<ext>, as the app names a recording; a suffix keeps names unique."""
    base = time.strftime("%Y_%m_%d_%H_%M_%S", time.gmtime(now_ms / 1000))
    name, n = f"{base}.{extension}", 1
    while fs.exists(posixpath.join(folder, name)):
        name = f"{base}_{n}.{extension}"
        n += 1
    return name


def save_recording(fs, now_ms: int, extension: str, store=None, folder: str = FOLDER) -> str:
    """Write a new recording into the recorder's folder; returns its file name.

    The app creates it through MediaStore, so the media store lists it at once.
    """
    fs.mkdir(folder, parents=True)
    name = new_recording_name(fs, now_ms, extension, folder)
    path = posixpath.join(folder, name)
    fs.write_file(path, (CLIPS_DIR / f"recording.{extension}").read_bytes())
    if store is not None:
        store.scan(path)
    return name


def renamed(recording: Recording, new_title: str) -> str:
    """The file name a rename to `new_title` gives: the old extension is kept (and not doubled)."""
    title = new_title.strip()
    if not title:
        raise RecorderError("Please enter a name")
    if any(ch in INVALID_NAME_CHARS for ch in title) or title in (".", ".."):
        raise RecorderError("The name contains invalid characters")
    extension = recording.name.rsplit(".", 1)[-1] if "." in recording.name else ""
    if extension and title.lower().endswith("." + extension.lower()):
        title = title[: -len(extension) - 1]
    return f"{title}.{extension}" if extension else title


def rename(fs, recording: Recording, new_title: str, store=None) -> str:
    name = renamed(recording, new_title)
    target = posixpath.join(posixpath.dirname(recording.path), name)
    if name != recording.name and fs.exists(target):
        raise RecorderError("A file or folder with that name already exists")
    _move(fs, store, recording.path, target)
    return name


def _move(fs, store, source: str, target: str) -> None:
    fs.rename(source, target)
    if store is not None:
        store.file_renamed(source, target)


def _unique(fs, folder: str, name: str) -> str:
    target, n = posixpath.join(folder, name), 1
    stem, dot, ext = name.rpartition(".")
    while fs.exists(target):
        target = posixpath.join(folder, f"{stem or ext}_{n}{dot}{ext if stem else ''}")
        n += 1
    return target


def move_to_trash(fs, recordings: list[Recording], store=None) -> None:
    fs.mkdir(TRASH, parents=True)
    for recording in recordings:
        _move(fs, store, recording.path, _unique(fs, TRASH, recording.name))


def restore(fs, recordings: list[Recording], store=None, folder: str = FOLDER) -> None:
    """Back into the save folder (Activity.restoreRecordings: ``destination = config.saveRecordingsFolder``)."""
    fs.mkdir(folder, parents=True)
    for recording in recordings:
        _move(fs, store, recording.path, _unique(fs, folder, recording.name))


def delete(fs, recordings: list[Recording], store=None) -> None:
    for recording in recordings:
        fs.remove(recording.path)
        if store is not None:
            store.file_deleted(recording.path)


def trash_size(fs) -> int:
    return sum(r.size for r in list_recordings(fs, TRASH))


def empty_trash(fs, store=None) -> None:
    delete(fs, list_recordings(fs, TRASH), store)
