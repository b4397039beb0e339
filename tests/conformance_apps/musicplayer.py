"""Conformance replay: Simple Music Player."""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET

from conformance import ExpectedChange, centre, load_facts, push_files


def seed(device) -> None:
    """The recordings' library: two untagged recordings in Music/Recordings (album "Recordings", artist
    "<unknown>", titles from the file names), nothing else the scanner counts as music."""
    push_files(device, "/sdcard/Music/Recordings", {"test1.m4a": "audio/recordings/2024_05_02_14_05_10.m4a",
                                                     "test2.m4a": "audio/recordings/2024_05_01_09_30_00.m4a"})


_ALL_TRACKS = ("5.18.3 creates the \"All tracks\" playlist with every scanned track at the first scan "
               "(SimpleMediaScanner.updateAllTracksPlaylist, run from MainActivity.onCreate), so the Playlists "
               "tab lists it and hides its \"No items found.\" / \"Create new playlist\" placeholders "
               "(PlaylistsFragment.setupFragment); the recorded 2023 release showed them on a fresh start")
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


_PLAYLIST_ITEMS_REASON = (
    "5.18.3 shows \"Create new playlist\", \"Create new playlist from folder\" and \"Import playlist\" "
    "in the main overflow only while the Playlists tab is current (MainActivity.refreshMenuItems: "
    "isVisible = getCurrentFragment() is PlaylistsFragment); the recorded 2023 release offered them "
    "on every tab, and the recording picked them on another tab")
_PLAYLIST_ITEMS = {"Create new playlist", "Create new playlist from folder", "Import playlist"}


def _playlist_item_off_the_playlists_tab(step: dict, recorded, ours) -> bool:
    """A recorded tap on a playlist item of the main overflow, opened on a tab other than Playlists."""
    target = step.get("target") or {}
    if target.get("id") != "title" or target.get("text") not in _PLAYLIST_ITEMS or not step.get("before"):
        return False
    # the overflow popup's start screen shows no tab: the tab is that of the "More options" tap before it
    facts = _facts()
    tabs = [facts["screens"][steps[i - 1]["before"]]["ids"] for session in facts["sessions"]
            for steps in [session["steps"]] for i in range(1, len(steps))
            if steps[i] == step and steps[i - 1].get("before")]
    return bool(tabs) and all("main_menu" in ids and "playlists_fragment_holder" not in ids for ids in tabs)


@functools.lru_cache(maxsize=1)
def _facts() -> dict:
    return load_facts("musicplayer")


#: Differences the pinned release makes on purpose (see conformance.ExpectedChange).
CHANGES: tuple[ExpectedChange, ...] = (
    ExpectedChange(_ALL_TRACKS, _all_tracks_instead_of_placeholders),
    ExpectedChange(_ALL_TRACKS, _placeholder_target, on="target"),
    ExpectedChange(_PLAYLIST_ITEMS_REASON, _playlist_item_off_the_playlists_tab),
    ExpectedChange(_PLAYLIST_ITEMS_REASON, _playlist_item_off_the_playlists_tab, on="target"),
)
