"""ServiceManager: the system services the phone runs, by name, and their dumpsys sections.
"""

#: Services an Android 14 phone runs that the virtual phone answers (others it has
#: print nothing; a name no phone has is "Can't find service").
_DUMPSYS_SERVICES = (
    "SurfaceFlinger", "accessibility", "account", "activity", "activity_task", "alarm", "appops",
    "audio", "battery", "batterystats", "bluetooth_manager", "clipboard", "connectivity", "content",
    "cpuinfo", "device_policy", "deviceidle", "display", "dropbox", "gfxinfo", "graphicsstats", "input",
    "input_method", "jobscheduler", "location", "media_session", "meminfo", "mount", "netstats",
    "notification", "package", "permission", "power", "procstats", "role", "sensorservice", "settings",
    "statusbar", "telephony.registry", "uimode", "usagestats", "user", "vibrator_manager", "wallpaper",
    "webviewupdate", "wifi", "window",
)


#: (service, first argument or "*") -> fn(inv, args) -> exit code; consulted by `dumpsys` first.
DUMPSYS_HANDLERS: dict = {}


