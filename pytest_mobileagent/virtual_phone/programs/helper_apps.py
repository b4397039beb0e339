"""Helper apps that automation clients install: what their activities and services do.

Clients push their own APKs with `adb install` (framework/packages.py records them from
their manifests). A few have no UI to speak of and are modelled by what they
do when started, by component: they register with the framework's activity manager
(`ACTIVITIES`), broadcast receivers and input methods.

- Appium Settings (``io.appium.settings``, installed by appium-uiautomator2-driver):
  its ``.Settings`` activity starts ``.ForegroundService`` in the foreground and
  finishes at once (github:appium/io.appium.settings, app/src/main/java/io/appium/
  settings/Settings.java onCreate/handleRecording/finishActivity; notification id
  NotificationHelpers.APPIUM_NOTIFICATION_IDENTIFIER = 1). The driver waits for
  ``isForeground=true`` in ``dumpsys activity services io.appium.settings``
  (framework/active_services.py).
"""

from __future__ import annotations

import base64

from ..framework.active_services import RunningService, start_service
from ..framework.activity_manager import ACTIVITIES
from ..framework.broadcasts import BROADCAST_RECEIVERS
from ..framework.input_methods import INPUT_METHODS, InputMethod
from ..kernel.context import PhoneContext

__all__ = ["APPIUM_SETTINGS"]

# -- Appium Settings --------------------------------------------------------------------------------
APPIUM_SETTINGS = "io.appium.settings"
#: ServiceInfo.FOREGROUND_SERVICE_TYPE_LOCATION: the manifest's foregroundServiceType="location"
_FOREGROUND_SERVICE_TYPE_LOCATION = 0x8


def _appium_settings_main(phone: "PhoneContext", action: str | None) -> None:
    # Settings.onCreate: a recording action (io.appium.settings.recording.*) skips the service
    if action and action.startswith("io.appium.settings.recording"):
        return
    start_service(phone, RunningService(APPIUM_SETTINGS, "io.appium.settings.ForegroundService",
                                        phone.clock_ms(), foreground_id=1,
                                        foreground_types=_FOREGROUND_SERVICE_TYPE_LOCATION,
                                        permission="android.permission.FOREGROUND_SERVICE"))


ACTIVITIES[(APPIUM_SETTINGS, "io.appium.settings.Settings")] = _appium_settings_main


_APPIUM_IME = "io.appium.settings/.AppiumIME"


def _appium_clipboard(phone: "PhoneContext", intent) -> tuple[int, str] | None:
    """ClipboardReceiver (receivers/ClipboardReceiver.java): the clipboard as base64, RESULT_OK.

    Android 10+ hands the clipboard only to the focused app or the current input method:
    the driver switches to Appium's IME first (runInImeContext); otherwise the app reads
    no clip, which the receiver answers as "".
    """
    if not phone.packages.is_installed(APPIUM_SETTINGS):
        return None  # no receiver: am reports result=0 and no data
    allowed = phone.settings.get("secure", {}).get("default_input_method") == _APPIUM_IME
    text = (phone.system.clipboard or "") if allowed else ""
    return -1, base64.b64encode(text.encode()).decode()


BROADCAST_RECEIVERS["io.appium.settings.clipboard.get"] = _appium_clipboard
# the app's manifest: <service android:name=".AppiumIME" android:permission="...BIND_INPUT_METHOD">
INPUT_METHODS.append(InputMethod(APPIUM_SETTINGS, "io.appium.settings.AppiumIME"))
