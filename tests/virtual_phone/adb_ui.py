"""Drive an app of the session phone through the real adb server, as an agent does.

Every read is `uiautomator dump` over adbutils; every action is an `input`
shell command at the centre of a dumped node; the accessibility events the
phone emits are collected from its event sink.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import uitools
from listener_stream import ListenerSink

from pytest_mobileagent.device.text import input_text_command


class AdbUI:
    """One app on one phone: launch fresh, find nodes, tap, type, press keys, read events."""

    def __init__(self, device, running_phone, package: str):
        self.device = device
        self.package = package
        self.events: list[dict] = []
        self._phone = running_phone.phone
        self._phone.add_event_sink(self.events.append)

    def close(self) -> None:
        self._phone.remove_event_sink(self.events.append)

    def launch(self) -> "AdbUI":
        """Force-stop, clear the data and start the app from its launcher entry."""
        self.device.shell(f"am force-stop {self.package}")
        assert self.device.shell(f"pm clear {self.package}").strip() == "Success"
        self.device.shell(f"monkey -p {self.package} -c android.intent.category.LAUNCHER 1")
        self.events.clear()
        return self

    # -- reading ---------------------------------------------------------------------
    def nodes(self) -> list[dict[str, str]]:
        return uitools.nodes(self.device.dump_hierarchy())

    def all(self, id: str | None = None, text: str | None = None, desc: str | None = None,
            cls: str | None = None) -> list[dict[str, str]]:
        """Nodes of this screen; a short id means this app's own (``<package>:id/<id>``)."""
        full_id = id if id is None or ":" in id else f"{self.package}:id/{id}"
        return [node for node in self.nodes() if uitools.matches(node, full_id, text, desc, cls)]

    def one(self, **criteria) -> dict[str, str]:
        found = self.all(**criteria)
        assert found, f"no node {criteria} on screen; ids: {sorted({n['resource-id'] for n in self.nodes()})}"
        return found[0]

    def has(self, **criteria) -> bool:
        return bool(self.all(**criteria))

    def text(self, id: str) -> str:
        return self.one(id=id)["text"]

    def texts(self, id: str) -> list[str]:
        return [n["text"] for n in self.all(id=id)]

    def activity(self) -> str:
        current = self.device.app_current()
        return f"{current.package}/{current.activity}"

    def clicks(self) -> list[dict]:
        return [e for e in self.events if e["type"] == "click"]

    # -- acting ----------------------------------------------------------------------
    centre = staticmethod(uitools.centre)

    def tap(self, **criteria) -> "AdbUI":
        x, y = self.centre(self.one(**criteria))
        self.device.shell(f"input tap {x} {y}")
        return self

    def long_press(self, **criteria) -> "AdbUI":
        x, y = self.centre(self.one(**criteria))
        self.device.shell(f"input swipe {x} {y} {x} {y} 800")
        return self

    def swipe(self, x1: int, y1: int, x2: int, y2: int) -> "AdbUI":
        self.device.shell(f"input swipe {x1} {y1} {x2} {y2} 300")
        return self

    def type(self, text: str, **criteria) -> "AdbUI":
        if criteria:
            self.tap(**criteria)
        self.device.shell(input_text_command(text))
        return self

    def key(self, name: str) -> "AdbUI":
        self.device.shell(f"input keyevent KEYCODE_{name}")
        return self

    def replace(self, text: str, **criteria) -> "AdbUI":
        """Tap the field, delete what it holds (END, then DEL per character), type `text`."""
        old = self.one(**criteria)["text"]
        self.tap(**criteria)
        self.device.shell("input keyevent MOVE_END " + " ".join(["DEL"] * len(old)))
        self.device.shell(input_text_command(text))
        return self

    # -- shell -----------------------------------------------------------------------
    def sh(self, cmd: str) -> str:
        return self.device.shell(cmd)

    def sh2(self, cmd: str) -> tuple[int, str]:
        """(exit status, stdout+stderr) of a command, through shell v2."""
        result = self.device.shell2(cmd, v2=True)
        return result.returncode, result.output


class EventSink(ListenerSink):
    """The phone's events as JSON lines off the listener's socket (listener protocol 2), the
    path a real listener app's events take; what happened before it connected is skipped."""


def structure(nodes: list[dict[str, str]]) -> set[tuple[str, str, str]]:
    """(parent id, class, id) of every node with an id, from a flat dump made by `nested`."""
    return {(n["parent"], n["class"], n["id"]) for n in nodes if n["id"]}


def nested(xml: str) -> list[dict[str, str]]:
    """Nodes with their short id and the short id of their nearest ancestor having one."""
    out: list[dict[str, str]] = []

    def walk(element, parent: str) -> None:
        for child in element.findall("node"):
            short = child.get("resource-id", "").split("/")[-1]
            out.append({"id": short, "class": child.get("class", ""), "parent": parent,
                        "keys": ",".join(child.attrib)})
            walk(child, short or parent)

    walk(ET.fromstring(xml.encode("utf-8")), "")
    return out
