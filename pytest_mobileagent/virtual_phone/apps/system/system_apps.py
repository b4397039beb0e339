"""The preinstalled apps of the reference emulator image that the apps reach.

The reference image is Android 14's Google APIs x86_64 system image (API 34):
Google Play services but no Play Store and no Gmail (those come with the
"Google Play" images only).  Its apps modelled here, with the packages a
Google emulator image runs them under (the DroidTask recording's Google
emulator image shows them in its recorded foreground activities and
services): Phone (AOSP Dialer, com.android.dialer), Messages
(com.google.android.apps.messaging), Files (DocumentsUI,
com.google.android.documentsui), Camera (com.android.camera2), Chrome
(com.android.chrome), Settings (com.android.settings), the permission
controller (com.google.android.permissioncontroller), the share sheet
(com.android.intentresolver) and the framework ("android").  Clock keeps the
AOSP package com.android.deskclock: the recordings do not show the image's.

Each launchable one is on the home screen and in App Launcher's list, starts
by `am start`, is listed by `pm list packages -s`, and opens a simple first
screen with its real package, activity and label; the system screens the
apps reach through intents are in system_screens.py and documents_ui.py.
Their behaviour beyond those first screens is not modelled.
"""

from __future__ import annotations

from typing import Callable

from ...framework.ui.views import (
    MATCH,
    TEXT_SECONDARY,
    Column,
    Row,
    TextView,
    View,
    dp,
    sp,
)
from ...framework.intents import IntentFilter
from .chrome import ChromeApp
from .app_locale_picker import APP_LOCALE_FILTER, AppLocalePickerActivity
from ...framework.app import Activity, App
from . import camera
from .documents_ui import FilesApp
from .settings_storage import StorageDashboardActivity
from .settings_notifications import AppNotificationSettingsActivity, notification_filters
from .system_screens import DialerApp

__all__ = ["SYSTEM_APPS"]


def _title_bar(package: str, title: str) -> View:
    return Row(TextView(title, size=sp(22), bold=True, padding=(dp(16), 0), max_lines=1),
               height=dp(64), id=f"{package}:id/toolbar", class_name="android.view.ViewGroup")


def _message(text: str, id: str = "") -> View:
    return TextView(text, id, size=sp(16), color=TEXT_SECONDARY, width=MATCH, gravity="center",
                    padding=(dp(24), dp(24)))


class _FirstScreen(Activity):
    """One activity whose screen `screen(activity)` builds; the app does nothing else."""

    screen: Callable[["_FirstScreen"], View]

    def on_create(self) -> None:
        self.note = ""

    def build(self) -> View:
        return type(self).screen(self)


def _clock(a: _FirstScreen) -> View:
    pkg = a.app.package
    now = a.host.clock_ms() // 1000
    text = f"{now // 3600 % 24:02d}:{now // 60 % 60:02d}"
    return Column(_title_bar(pkg, "Clock"),
                  TextView(text, f"{pkg}:id/digital_clock", size=sp(64), width=MATCH, gravity="center",
                           padding=(0, dp(80))),
                  id=f"{pkg}:id/main", height=MATCH)


def _simple(title: str, message: str, root_id: str) -> Callable[[_FirstScreen], View]:
    def screen(a: _FirstScreen) -> View:
        pkg = a.app.package
        return Column(_title_bar(pkg, title), _message(message), id=f"{pkg}:id/{root_id}", height=MATCH)
    return screen


def _app(class_name: str, package: str, label: str, activity: str, screen) -> type[App]:
    activity_cls = type(f"{class_name}Activity", (_FirstScreen,), {"name": activity, "title": label,
                                                                     "screen": screen})
    return type(class_name, (App,), {"package": package, "label": label, "activities": (activity_cls,),
                                     "version_name": "14", "__doc__": f"{label} ({package}): a first screen only."})


class CameraApp(App):
    """Camera (com.android.camera2): the capture screen (camera.py) from its launcher entry, for
    IMAGE_CAPTURE (CaptureActivity) and for STILL_IMAGE_CAMERA (CameraActivity) (Camera2's
    AndroidManifest.xml; the recording's "Take photo" reached
    com.android.camera2/com.android.camera.CaptureActivity)."""

    package = camera.PACKAGE
    label = "Camera"
    version_name = "14"
    activities = (camera.CameraLauncher, camera.CaptureActivity, camera.CameraActivity)
    intent_filters = ((camera.CaptureActivity.name, "", IntentFilter(("android.media.action.IMAGE_CAPTURE",))),
                      (camera.CameraActivity.name, "", IntentFilter(("android.media.action.STILL_IMAGE_CAMERA",))))


def _settings_app() -> type[App]:
    """Settings (com.android.settings): its main screen, the per-app notification page apps open
    (settings_notifications.py), the per-app language screen the apps' "Language" rows open
    (ACTION_APP_LOCALE_SETTINGS, app_locale_picker.py), and Settings$StorageDashboardActivity for
    ACTION_INTERNAL_STORAGE_SETTINGS (AOSP packages/apps/Settings AndroidManifest.xml), as File
    Manager's storage summary starts it (StorageFragment: freeSpaceHolder)."""
    settings = _app("Settings", "com.android.settings", "Settings", "com.android.settings.Settings",
                    _simple("Settings", "Network & internet\nConnected devices\nApps\nDisplay\nSystem", "main_content"))
    storage = StorageDashboardActivity  # settings_storage.py
    settings.activities = settings.activities + (storage, AppNotificationSettingsActivity, AppLocalePickerActivity)
    settings.intent_filters = ((storage.name, "", IntentFilter(("android.settings.INTERNAL_STORAGE_SETTINGS",
                                                                "android.settings.MEMORY_CARD_SETTINGS"))),
                               *notification_filters(), APP_LOCALE_FILTER)
    return settings


SYSTEM_APPS: list[type[App]] = [
    CameraApp,
    ChromeApp,  # com.android.chrome: its first run and a tab for http(s) links (chrome.py)
    _app("Clock", "com.android.deskclock", "Clock", "com.android.deskclock.DeskClock", _clock),
    DialerApp,  # com.android.dialer: its dialpad and in-call screen (system_screens.py)
    FilesApp,  # com.google.android.documentsui: its storage picker (documents_ui.py)
    _app("Messages", "com.google.android.apps.messaging", "Messages",
         "com.google.android.apps.messaging.ui.ConversationListActivity",
         _simple("Messages", "Once you start a new conversation, you'll see it listed here", "conversation_list")),
    _settings_app(),
]
