"""Drive an app of the served virtual phone through the real adb server, as an agent does.

Views are found in `uiautomator dump` XML fetched with adbutils and tapped at
their centre with `input tap`; typing goes through `input text`.  Events the
phone emits are collected from the served phone itself (what the listener's socket
would carry to a host).
"""

from __future__ import annotations

import shlex

from uitools import centre, find, find_all, nodes


class AdbUI:
    def __init__(self, adb_device, served_phone, package: str):
        self.device = adb_device
        self.phone = served_phone.phone
        self.package = package
        self.events: list[dict] = []
        self.phone.add_event_sink(self.events.append)

    def close(self) -> None:
        self.phone.remove_event_sink(self.events.append)

    # -- app lifecycle ----------------------------------------------------------------
    def fresh_start(self) -> "AdbUI":
        self.device.shell(f"am force-stop {self.package}")
        self.device.shell(f"pm clear {self.package}")
        self.device.shell(f"monkey -p {self.package} -c android.intent.category.LAUNCHER 1")
        self.events.clear()
        return self

    def shell(self, cmd: str) -> str:
        return self.device.shell(cmd)

    # -- reading ------------------------------------------------------------------------
    def xml(self) -> str:
        return self.device.dump_hierarchy()

    def nodes(self) -> list[dict]:
        return nodes(self.xml())

    def find(self, **kw) -> dict:
        return find(self.xml(), **_full(self.package, kw))

    def all(self, **kw) -> list[dict]:
        return find_all(self.xml(), **_full(self.package, kw))

    def has(self, **kw) -> bool:
        return bool(self.all(**kw))

    def texts(self, id: str) -> list[str]:
        return [n["text"] for n in self.all(id=id)]

    def text(self, id: str) -> str:
        return self.find(id=id)["text"]

    def activity(self) -> str:
        return self.device.app_current().activity

    def clicks(self) -> list[dict]:
        return [e for e in self.events if e["type"] == "click"]

    # -- acting -------------------------------------------------------------------------
    def tap(self, **kw) -> "AdbUI":
        self.device.click(*centre(self.find(**kw)))
        return self

    def long_press(self, **kw) -> "AdbUI":
        x, y = centre(self.find(**kw))
        self.device.swipe(x, y, x, y, 1.0)
        return self

    def type(self, text: str, **kw) -> "AdbUI":
        """Tap the field, empty it, then type `text`."""
        if kw:
            self.tap(**kw)
            field = self.find(**kw)
            if field["text"]:  # an empty field shows its hint: the extra DELs do nothing
                self.device.shell("input keyevent MOVE_END")
                self.device.shell("input keyevent " + " ".join(["DEL"] * len(field["text"])))
        self.device.shell(f"input text {shlex.quote(text)}")
        return self

    def key(self, name: str) -> "AdbUI":
        self.device.shell(f"input keyevent {name}")
        return self

    def swipe_up(self, **kw) -> "AdbUI":
        x, y = centre(self.find(**kw))
        self.device.swipe(x, y + 400, x, y - 600, 0.3)
        return self


def _full(package: str, kw: dict) -> dict:
    out = dict(kw)
    if "id" in out and ":" not in out["id"]:
        out["id"] = f"{package}:id/{out['id']}"
    return out
