"""The ten benchmark apps a device needs, with their runtime permissions.

Versions: ``expected_version`` is the versionName of the release the
benchmark's tasks were written against, the one the virtual phone models
(tests/listener/test_setup.py holds the two to each other); an APK of another
version is installed but reported, since its screens may differ.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BENCHMARK_APPS", "BenchmarkApp", "SMS_APP", "by_package"]


@dataclass(frozen=True)
class BenchmarkApp:
    package: str
    name: str
    #: runtime permissions the tasks rely on (granted by setup; the episode grants them again after `pm clear`)
    permissions: tuple[str, ...] = ()
    #: the versionName of the release the tasks were written against (the final Simple Mobile Tools release)
    expected_version: str | None = None


_NOTIFY = "android.permission.POST_NOTIFICATIONS"

BENCHMARK_APPS: tuple[BenchmarkApp, ...] = (
    BenchmarkApp("com.simplemobiletools.applauncher", "Simple App Launcher", expected_version="5.11.4"),
    BenchmarkApp("com.simplemobiletools.calculator", "Simple Calculator", expected_version="5.12.0"),
    BenchmarkApp("com.simplemobiletools.calendar.pro", "Simple Calendar Pro",
                 ("android.permission.READ_CALENDAR", "android.permission.WRITE_CALENDAR", _NOTIFY),
                 expected_version="6.23.1"),
    BenchmarkApp("com.simplemobiletools.contacts.pro", "Simple Contacts Pro",
                 ("android.permission.READ_CONTACTS", "android.permission.WRITE_CONTACTS"),
                 expected_version="6.22.7"),
    BenchmarkApp("com.simplemobiletools.filemanager.pro", "Simple File Manager Pro",
                 ("android.permission.WRITE_EXTERNAL_STORAGE", _NOTIFY),
                 expected_version="6.16.1"),
    BenchmarkApp("com.simplemobiletools.gallery.pro", "Simple Gallery Pro",
                 ("android.permission.READ_EXTERNAL_STORAGE", "android.permission.READ_MEDIA_IMAGES",
                  "android.permission.READ_MEDIA_VIDEO", "android.permission.ACCESS_MEDIA_LOCATION"),
                 expected_version="6.28.1"),
    BenchmarkApp("com.simplemobiletools.musicplayer", "Simple Music Player",
                 ("android.permission.READ_MEDIA_AUDIO", _NOTIFY),
                 expected_version="5.18.3"),
    BenchmarkApp("com.simplemobiletools.notes.pro", "Simple Notes Pro", expected_version="6.17.0"),
    BenchmarkApp("com.simplemobiletools.smsmessenger", "Simple SMS Messenger",
                 ("android.permission.READ_SMS", "android.permission.SEND_SMS", "android.permission.RECEIVE_SMS",
                  "android.permission.READ_CONTACTS", _NOTIFY),
                 expected_version="5.19.3"),
    # Its 5.12.3 tag builds versionName 5.12.2 (the tag did not bump it).
    BenchmarkApp("com.simplemobiletools.voicerecorder", "Simple Voice Recorder",
                 ("android.permission.RECORD_AUDIO", _NOTIFY),
                 expected_version="5.12.2"),
)

SMS_APP = "com.simplemobiletools.smsmessenger"


def by_package() -> dict[str, BenchmarkApp]:
    return {app.package: app for app in BENCHMARK_APPS}
