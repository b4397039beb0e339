"""Conformance replay: Simple Music Player."""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET

from conformance import ExpectedChange, centre, load_facts, seed_media


def seed(device) -> None:
    """The recording phone's shared storage (conformance.SHARED_FILES): its library is the two untagged
    recordings in Music/Recordings (album "Recordings", artist "<unknown>", titles from the file names);
    nothing else there is audio."""
    seed_media(device)


_ALL_TRACKS = ("the recording phone's Music Player had no \"All tracks\" playlist on a fresh start, which both the "
               "recorded 5.16.5 (its About screen) and the pinned 5.18.3 create with every track at the first scan "
               "(5.16.5 extensions/Context.kt updateCachedTracks, 5.18.3 SimpleMediaScanner.updateAllTracksPlaylist, "
               "unless Config.wasAllTracksPlaylistCreated, which MainActivity.onCreate sets without creating it once "
               "appRunCount > 5): the recording phone's app state, not the release, showed the Playlists tab's "
               "\"No items found.\" / \"Create new playlist\" placeholders")
_PLACEHOLDERS = {"playlists_placeholder", "playlists_placeholder_2"}


def _all_tracks_instead_of_placeholders(step: dict, recorded, ours) -> bool:
    """The recorded screen shows the empty-playlists placeholders where ours lists "All tracks"."""
    if recorded is None or not _PLACEHOLDERS <= recorded.ids or ours.activity != recorded.activity:
        return False
    titles = [n.get("text") for n in ours.nodes if n.get("resource-id", "").endswith(":id/playlist_title")]
    adjusted = (recorded.ids - _PLACEHOLDERS - {"trackView"}) | {"playlist_frame", "playlist_title",
                                                                "playlist_tracks"}
    return "All tracks" in titles and recorded.__class__(recorded.activity, adjusted).same_as(ours)


def _placeholder_target(step: dict, recorded, ours) -> bool:
    return step.get("target", {}).get("id") == "playlists_placeholder_2" and any(
        n.get("text") == "All tracks" for n in ours.nodes)


PACKAGE = "com.simplemobiletools.musicplayer"
#: MainActivity's tabs by the fragment holder the visible page shows (Constants.tabsList, the
#: default Config.showTabs = allTabsMask on Android 10+: no Genres)
_TAB_OF_HOLDER = {"playlists_fragment_holder": "Playlists", "folders_fragment_holder": "Folders",
                  "artists_fragment_holder": "Artists", "albums_fragment_holder": "Albums",
                  "tracks_fragment_holder": "Tracks"}


def _tap(device, attribute: str, value: str) -> bool:
    """Tap the first view of the phone's screen whose attribute is value (through uiautomator)."""
    for node in ET.fromstring(device.dump_hierarchy().encode("utf-8")).iter("node"):
        if node.get(attribute) == value:
            x, y = centre(dict(node.attrib))
            device.shell(f"input tap {x} {y}")
            return True
    return False


def before_session(device, session: dict) -> None:
    """The recording started sessions on fresh app data, on the tab its first screen shows.

    Session 0 leaves the app on the Tracks tab playing test1, yet sessions 1 to 3 begin on the
    Playlists tab with no current-track bar, so the data was reset (``pm clear``; the seeded files
    stay on shared storage). Later sessions begin on other tabs (Albums mostly, Tracks, Folders,
    Artists): the release reopens the tab it was last left on (MainActivity.onPause stores
    viewPager.currentItem in Config.lastUsedViewPagerPage; initViewPager restores it), so the
    recording phone's unrecorded use between runs had left it there. The replay leaves it there
    the same way, through the app: start it, tap the tab, go HOME (onPause), stop it.
    """
    device.shell(f"pm clear {PACKAGE}")
    screen = _facts()["screens"][session["first_screen"]]
    tab = next((label for holder, label in _TAB_OF_HOLDER.items() if holder in screen["ids"]), "Playlists")
    if tab == "Playlists":  # Config.lastUsedViewPagerPage's default, 0
        return
    device.shell(f"am start -n {session['start']}")
    _tap(device, "resource-id", "com.android.permissioncontroller:id/permission_allow_button")
    _tap(device, "text", tab)
    device.shell("input keyevent HOME")
    device.shell(f"am force-stop {PACKAGE}")


@functools.lru_cache(maxsize=1)
def _facts() -> dict:
    return load_facts("musicplayer")


#: The recording phone's app state (see conformance.ExpectedChange, environment=True).  A rule that 5.18.3
#: offers the playlist items of the main overflow on the Playlists tab only, unlike the recorded release, was
#: dropped: MainActivity.refreshMenuItems hides them off that tab in 5.16.5 too.
CHANGES: tuple[ExpectedChange, ...] = (
    ExpectedChange(_ALL_TRACKS, _all_tracks_instead_of_placeholders, environment=True),
    ExpectedChange(_ALL_TRACKS, _placeholder_target, on="target", environment=True),
)
