"""The ten benchmark apps a device needs, with their runtime permissions.

Versions: where the virtual phone models an app, the model's ``version_name``
is the build the benchmark's tasks were written against; an APK of another
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

    @property
    def expected_version(self) -> str | None:
        """The version the benchmark's model of this app imitates, if it is modelled."""
        from pytest_mobileagent.virtual_phone.apps import INSTALLED_APPS

        for app in INSTALLED_APPS:
            if app.package == self.package:
                return app.version_name
        return None


_NOTIFY = "android.permission.POST_NOTIFICATIONS"

BENCHMARK_APPS: tuple[BenchmarkApp, ...] = (
    BenchmarkApp("com.simplemobiletools.applauncher", "Simple App Launcher"),
    BenchmarkApp("com.simplemobiletools.calculator", "Simple Calculator"),
    BenchmarkApp("com.simplemobiletools.calendar.pro", "Simple Calendar Pro",
                 ("android.permission.READ_CALENDAR", "android.permission.WRITE_CALENDAR", _NOTIFY)),
    BenchmarkApp("com.simplemobiletools.contacts.pro", "Simple Contacts Pro",
                 ("android.permission.READ_CONTACTS", "android.permission.WRITE_CONTACTS")),
    BenchmarkApp("com.simplemobiletools.filemanager.pro", "Simple File Manager Pro",
                 ("android.permission.WRITE_EXTERNAL_STORAGE", _NOTIFY)),
    BenchmarkApp("com.simplemobiletools.gallery.pro", "Simple Gallery Pro",
                 ("android.permission.READ_EXTERNAL_STORAGE", "android.permission.READ_MEDIA_IMAGES",
                  "android.permission.READ_MEDIA_VIDEO", "android.permission.ACCESS_MEDIA_LOCATION")),
    BenchmarkApp("com.simplemobiletools.musicplayer", "Simple Music Player",
                 ("android.permission.READ_MEDIA_AUDIO", _NOTIFY)),
    BenchmarkApp("com.simplemobiletools.notes.pro", "Simple Notes Pro"),
    BenchmarkApp("com.simplemobiletools.smsmessenger", "Simple SMS Messenger",
                 ("android.permission.READ_SMS", "android.permission.SEND_SMS", "android.permission.RECEIVE_SMS",
                  "android.permission.READ_CONTACTS", _NOTIFY)),
    BenchmarkApp("com.simplemobiletools.voicerecorder", "Simple Voice Recorder",
                 ("android.permission.RECORD_AUDIO", _NOTIFY)),
)

SMS_APP = "com.simplemobiletools.smsmessenger"


def by_package() -> dict[str, BenchmarkApp]:
    return {app.package: app for app in BENCHMARK_APPS}
