"""Simple Music Player's data: its library of tracks, playlists and preferences.

The app keeps its own database of tracks, filled by its scanner: it reads
the phone's media store (audio rows) and then, as the real app does on
Android 10+, walks shared storage for audio files the media store does not
list yet (pushed with `adb push` and never scanned), reads their tags itself
(here with mutagen) and asks the media store to scan them.  The library
changes only when the app scans: at start and on "Rescan media".
"""

from __future__ import annotations

import io
import posixpath
from dataclasses import dataclass, field

from ...kernel.fs import FsError

STORAGE = "/storage/emulated/0"
AUDIO_EXTENSIONS = (".mp3", ".m4a", ".ogg", ".opus", ".flac", ".wav", ".aac", ".amr", ".mid", ".wma", ".3gp")

TABS = ("Playlists", "Folders", "Artists", "Albums", "Tracks", "Genres")
PLAYLISTS, FOLDERS, ARTISTS, ALBUMS, TRACKS, GENRES = range(6)

#: the sort fields each tab's Sort by dialog offers (5.18.3 ChangeSortingDialog.setupSortRadio)
SORT_FIELDS = {
    PLAYLISTS: ("Title", "Track Count"),
    FOLDERS: ("Title", "Track Count"),
    ARTISTS: ("Title", "Album Count", "Track Count"),
    ALBUMS: ("Title", "Artist Name", "Year", "Date added"),
    TRACKS: ("Title", "Artist", "Duration", "Track number", "Date added"),
    GENRES: ("Title", "Track Count"),
}

EQUALIZER_PRESETS = ("Normal", "Classical", "Dance", "Flat", "Folk", "Heavy Metal", "Hip Hop", "Jazz", "Pop",
                     "Rock", "Custom")
ALL_TRACKS = "All tracks"
UNKNOWN = "<unknown>"


class LibraryError(Exception):
    """An action the app refuses, with the toast it shows."""


@dataclass(frozen=True)
class Track:
    path: str
    title: str
    artist: str
    album: str
    year: int
    genre: str
    number: int
    duration: int  # seconds
    date_added: int

    @property
    def folder(self) -> str:
        return posixpath.basename(posixpath.dirname(self.path))


@dataclass
class Playlist:
    id: int
    title: str
    paths: list[str] = field(default_factory=list)


@dataclass
class Sorting:
    field: str = "Title"
    descending: bool = False


@dataclass
class MusicData:
    """What `pm clear` resets: the library database and the preferences."""

    tracks: list[Track] = field(default_factory=list)
    playlists: list[Playlist] = field(default_factory=list)
    next_playlist_id: int = 1
    all_tracks_created: bool = False
    sorting: dict[int, Sorting] = field(default_factory=lambda: {tab: Sorting() for tab in range(len(TABS))})
    #: Config.playlistTracksSorting (a playlist's or folder's tracks) and the "Use for this playlist /
    #: folder only" sortings (Config.saveCustomPlaylistSorting, BaseConfig.saveCustomSorting), by
    #: "playlist:<id>" / "folder:<name>"
    playlist_tracks_sorting: Sorting = field(default_factory=Sorting)
    custom_sorting: dict[str, Sorting] = field(default_factory=dict)
    equalizer_preset: str = "Normal"
    #: Config.lastUsedViewPagerPage: a position among the shown tabs
    last_page: int = 0
    #: Config.showTabs: allTabsMask on Android 10+ (Constants.kt), every tab but Genres
    shown_tabs: frozenset[int] = frozenset({PLAYLISTS, FOLDERS, ARTISTS, ALBUMS, TRACKS})
    current: str = ""  # path of the current track
    swap_prev_next: bool = False
    gapless_playback: bool = False
    show_filename: str = "If title is not available"
    #: the player's queue (paths, in the order the tapped list showed them) and Config's player settings
    queue: list[str] = field(default_factory=list)
    shuffle: bool = True  # Config.isShuffleEnabled defaults to true
    playback_setting: int = 0  # PlaybackSetting ordinal: REPEAT_OFF
    playback_speed: float = 1.0
    playback_speed_progress: int = -1  # Config.playbackSpeedProgress; -1 until the speed sheet opens
    #: Config.lastSleepTimerSeconds (30 minutes at first) and sleepInTS (phone clock, ms; 0: no timer)
    last_sleep_seconds: int = 30 * 60
    sleep_at_ms: int = 0

    def playlist(self, playlist_id: int) -> Playlist | None:
        return next((p for p in self.playlists if p.id == playlist_id), None)

    def add_playlist(self, title: str) -> Playlist:
        title = title.strip()
        if not title:
            raise LibraryError("Please enter a name")
        if any(p.title.casefold() == title.casefold() for p in self.playlists):
            raise LibraryError("A playlist with that name already exists")
        playlist = Playlist(self.next_playlist_id, title)
        self.next_playlist_id += 1
        self.playlists.append(playlist)
        return playlist

    def track(self, path: str) -> Track | None:
        return next((t for t in self.tracks if t.path == path), None)

    def playlist_tracks(self, playlist: Playlist) -> list[Track]:
        by_path = {t.path: t for t in self.tracks}
        return [by_path[p] for p in playlist.paths if p in by_path]


# ---------------------------------------------------------------------------
# scanning


_tags: dict[tuple[str, int, int], dict] = {}


def read_tags(fs, path: str, mtime: int, size: int) -> dict:
    """Title, artist, album, year, genre, track number, duration of an audio file (MediaMetadataRetriever)."""
    key = (path, mtime, size)
    if key in _tags:
        return _tags[key]
    import mutagen

    facts: dict = {}
    try:
        audio = mutagen.File(io.BytesIO(fs.read_file(path)), easy=True)
    except (FsError, mutagen.MutagenError, ValueError):
        audio = None
    if audio is not None:
        if getattr(audio, "info", None) is not None:
            facts["duration"] = int(round(audio.info.length or 0))
        tags = audio.tags or {}
        for key_name in ("title", "artist", "album", "genre", "date", "tracknumber"):
            values = tags.get(key_name) if hasattr(tags, "get") else None
            if values:
                facts[key_name] = str(values[0])
    if len(_tags) > 1024:
        _tags.clear()
    _tags[key] = facts
    return facts


def _number(text: str | None) -> int:
    head = (text or "").split("/")[0].strip()[:4]
    return int(head) if head.isdigit() else 0


def _walk_audio(fs, folder: str, found: list[tuple[str, object]]) -> None:
    try:
        entries = fs.listdir_stat(folder)
    except FsError:
        return
    if any(name == ".nomedia" for name, _ in entries):
        return
    for name, stat in entries:
        if name.startswith("."):
            continue
        path = posixpath.join(folder, name)
        if stat.is_dir:
            if path != STORAGE + "/Android":
                _walk_audio(fs, path, found)
        elif name.lower().endswith(AUDIO_EXTENSIONS):
            found.append((path, stat))


def scan(fs, store, now_s: int) -> list[Track]:
    """Every audio track on shared storage: media store rows, then files it does not know yet."""
    if fs is None:  # a bare AndroidSystem has no storage
        return []
    tracks: dict[str, Track] = {}
    rows = store.query("audio") if store is not None else []
    for row in rows:
        if not fs.exists(row.path):
            continue
        tags = read_tags(fs, row.path, row.date_modified, row.size)
        tracks[row.path] = Track(
            row.path, row.title or posixpath.splitext(row.display_name)[0], row.artist or UNKNOWN,
            row.album or posixpath.basename(posixpath.dirname(row.path)), row.year or 0, tags.get("genre", ""),
            _number(tags.get("tracknumber")), (row.duration or 0) // 1000, row.date_added)
    found: list[tuple[str, object]] = []
    _walk_audio(fs, STORAGE, found)
    for path, stat in found:
        if path in tracks:
            continue
        tags = read_tags(fs, path, stat.mtime, stat.size)
        name = posixpath.basename(path)
        tracks[path] = Track(
            path, tags.get("title") or posixpath.splitext(name)[0], tags.get("artist") or UNKNOWN,
            tags.get("album") or posixpath.basename(posixpath.dirname(path)), _number(tags.get("date")),
            tags.get("genre", ""), _number(tags.get("tracknumber")), tags.get("duration", 0), stat.mtime)
        if store is not None:
            store.scan(path)  # the app asks MediaStore to index what it found (rescanPaths)
    return sorted(tracks.values(), key=lambda t: t.path)


def refresh(data: MusicData, fs, store, now_s: int) -> None:
    """Run the app's scanner and update its database ("All tracks" is made on the first scan)."""
    data.tracks = scan(fs, store, now_s)
    if not data.all_tracks_created:
        data.playlists.insert(0, Playlist(0, ALL_TRACKS))
        data.all_tracks_created = True
    known = {t.path for t in data.tracks}
    for playlist in data.playlists:
        if playlist.id == 0:
            playlist.paths = sorted(known | set(p for p in playlist.paths if p in known))
        else:
            playlist.paths = [p for p in playlist.paths if p in known]


# ---------------------------------------------------------------------------
# the tabs' groups


@dataclass(frozen=True)
class Group:
    """A folder, artist, album or genre: a title and its tracks."""

    title: str
    tracks: tuple[Track, ...]
    artist: str = ""
    year: int = 0
    #: Album.dateAdded: the first scanned track's (SimpleMediaScanner: tracksInAlbum.first().dateAdded)
    date_added: int = 0

    @property
    def album_count(self) -> int:
        return len({t.album for t in self.tracks})


def groups(tracks: list[Track], tab: int) -> list[Group]:
    attr = {FOLDERS: "folder", ARTISTS: "artist", ALBUMS: "album", GENRES: "genre"}[tab]
    by_title: dict[str, list[Track]] = {}
    for track in tracks:
        title = getattr(track, attr)
        if tab == GENRES and not title:
            continue
        by_title.setdefault(title, []).append(track)
    out = []
    for title, members in by_title.items():
        first_scanned = members[0]
        members.sort(key=lambda t: (t.number, t.title.casefold()))
        out.append(Group(title, tuple(members), artist=members[0].artist,
                         year=max((t.year for t in members), default=0), date_added=first_scanned.date_added))
    return out


def count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def sort_key(tab: int, field_name: str):
    """A key function for the items of a tab (playlists as (Playlist, tracks) pairs)."""
    if tab == PLAYLISTS:
        return {"Track Count": lambda p: len(p[1])}.get(field_name, lambda p: p[0].title.casefold())
    if tab == TRACKS:
        if field_name == "Custom":  # PLAYER_SORT_BY_CUSTOM: the playlist's own order (orderInPlaylist)
            return lambda t: 0
        return {"Artist": lambda t: t.artist.casefold(), "Duration": lambda t: t.duration,
                "Track number": lambda t: t.number, "Date added": lambda t: t.date_added}.get(
            field_name, lambda t: t.title.casefold())
    return {"Track Count": lambda g: len(g.tracks), "Album Count": lambda g: g.album_count,
            "Artist Name": lambda g: g.artist.casefold(), "Year": lambda g: g.year,
            "Date added": lambda g: g.date_added}.get(
        field_name, lambda g: g.title.casefold())
