"""The release each app model follows: the Simple Mobile Tools app at its final release tag.

Facts from each repository at the tag (``gradle/libs.versions.toml`` or
``app/build.gradle``): the version name and code its build gives the APK, and
the Simple-Commons commit it pins.  ``dumpsys package`` reports these.
"""

from __future__ import annotations

from typing import NamedTuple


class Release(NamedTuple):
    tag: str
    version_name: str
    version_code: int
    commons: str


RELEASES: dict[str, Release] = {
    "com.simplemobiletools.applauncher": Release("5.11.4", "5.11.4", 53, "73d78e5cd3"),
    "com.simplemobiletools.calculator": Release("5.12.0", "5.12.0", 61, "6a7777d740"),
    "com.simplemobiletools.calendar.pro": Release("6.23.1", "6.23.1", 240, "b7dd6ad428"),
    "com.simplemobiletools.contacts.pro": Release("6.22.7", "6.22.7", 107, "73d78e5cd3"),
    "com.simplemobiletools.filemanager.pro": Release("6.16.1", "6.16.1", 136, "eceb48949e"),
    "com.simplemobiletools.gallery.pro": Release("6.28.1", "6.28.1", 396, "9e60e24790"),
    "com.simplemobiletools.smsmessenger": Release("5.19.3", "5.19.3", 85, "b72ded2a75"),
    "com.simplemobiletools.musicplayer": Release("5.18.3", "5.18.3", 119, "6a7777d740"),
    "com.simplemobiletools.notes.pro": Release("6.17.0", "6.17.0", 114, "eceb48949e"),
    # The 5.12.3 tag builds versionName "5.12.2", versionCode 40 (gradle/libs.versions.toml at the tag
    # was not bumped): an APK built from the tag reports that.
    "com.simplemobiletools.voicerecorder": Release("5.12.3", "5.12.2", 40, "8e7dd4508e"),
}
