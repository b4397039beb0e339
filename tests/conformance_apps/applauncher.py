"""Conformance replay: App Launcher."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from conformance import ExpectedChange, centre

PACKAGE = "com.simplemobiletools.applauncher"
#: The launchers the recording's first screen shows (ca84887fa50f): the user had added them.
RECORDED_GRID = ("Calendar", "Camera", "Clock")


def seed(device) -> None:
    """Add the recorded grid's apps the way its user did: "Add apps" (the FAB), tick them, OK.

    App Launcher keeps its launchers in its private database, which adb cannot
    write on a real phone; its own dialog can. On the emulator image "Camera"
    and "Clock" are the image's Camera and Clock (the recording phone had Simple
    Camera and Simple Clock under those labels).
    """
    device.shell(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")
    _tap(device, id=f"{PACKAGE}:id/fab")
    for label in RECORDED_GRID:
        _tap(device, id=f"{PACKAGE}:id/launcher_checkbox", text=label)
    _tap(device, text="OK")
    device.shell(f"am force-stop {PACKAGE}")


def before_session(device) -> None:
    """Every recorded session begins on the same first screen (ca84887fa50f: Calendar, Camera and Clock
    with their names), even after one that changed it: session 19 hides the app names, and session 20's
    first screen shows them again. So the recording phone's app data was restored before each session:
    ``pm clear`` and the seed's own taps (the launchers live in the app's private database).
    """
    device.shell(f"pm clear {PACKAGE}")
    seed(device)


def _tap(device, id: str = "", text: str = "") -> None:
    nodes = [dict(n.attrib) for n in ET.fromstring(device.dump_hierarchy().encode("utf-8")).iter("node")]
    node = next(n for n in nodes if (not id or n.get("resource-id") == id) and (not text or n.get("text") == text))
    x, y = centre(node)
    device.shell(f"input tap {x} {y}")


def _in_other(package: str, ours_prefix: str):
    return lambda step, recorded, ours: ((step.get("target") or {}).get("id") or "").startswith(f"{package}:id/") \
        and ours.activity.startswith(ours_prefix)


#: Differences of the recording phone's apps (see conformance.ExpectedChange, environment=True).
CHANGES: tuple[ExpectedChange, ...] = (
    ExpectedChange(
        "the recording phone's \"Clock\" was Simple Clock (com.simplemobiletools.clock); the emulator image's "
        "Clock app (com.android.deskclock) has its own screens",
        _in_other("com.simplemobiletools.clock", "com.android.deskclock/"), on="target", environment=True),
    ExpectedChange(
        "the recording phone's \"Camera\" was Simple Camera (com.simplemobiletools.camera); the emulator image's "
        "Camera app (com.android.camera2) has its own screens",
        _in_other("com.simplemobiletools.camera", "com.android.camera2/"), on="target", environment=True),
)
