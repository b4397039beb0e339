"""Drive Contacts and SMS Messenger through the real adb server, as an agent would (dump, input, shell).

`AdbUI` dumps with `uiautomator dump`, finds nodes by resource-id / text /
content-desc / class, taps or long-presses their centre with `input`, types
with `input text` and reads shell output and exit statuses (`shell2`).
`EventSink` is the host end of `adb reverse tcp:8888 tcp:PORT`: the
accessibility events the phone streams, as JSON lines.
"""

from __future__ import annotations

import json
import socket
import xml.etree.ElementTree as ET

from uitools import centre


class AdbUI:
    def __init__(self, device, package: str) -> None:
        self.device = device
        self.package = package

    # -- shell -------------------------------------------------------------------------------
    def sh(self, cmd: str) -> str:
        return self.device.shell(cmd)

    def sh2(self, cmd: str) -> tuple[int, str]:
        """(exit status, stdout+stderr) of a command, through shell v2."""
        result = self.device.shell2(cmd, v2=True)
        return result.returncode, result.output

    def launch_fresh(self, *clear: str) -> AdbUI:
        """Stop the app, clear its data (and `clear` packages), start it from the launcher."""
        self.sh(f"am force-stop {self.package}")
        for package in (self.package, *clear):
            assert self.sh(f"pm clear {package}").strip() == "Success"
        self.sh(f"monkey -p {self.package} -c android.intent.category.LAUNCHER 1")
        return self

    # -- reading -------------------------------------------------------------------------------
    def nodes(self) -> list[dict]:
        return [dict(n.attrib) for n in ET.fromstring(self.device.dump_hierarchy().encode()).iter("node")]

    def _rid(self, short: str) -> str:
        return short if ":" in short else f"{self.package}:id/{short}"

    def all(self, *, id: str | None = None, text: str | None = None, desc: str | None = None,
            cls: str | None = None) -> list[dict]:
        return [n for n in self.nodes()
                if (id is None or n["resource-id"] == self._rid(id)) and (text is None or n["text"] == text)
                and (desc is None or n["content-desc"] == desc) and (cls is None or n["class"] == cls)]

    def one(self, **criteria) -> dict:
        found = self.all(**criteria)
        assert found, f"no node {criteria} on screen: " + ", ".join(
            f"{n['resource-id'].split('/')[-1]}={n['text']!r}" for n in self.nodes() if n["resource-id"] or n["text"])
        return found[0]

    def has(self, **criteria) -> bool:
        return bool(self.all(**criteria))

    def texts(self, id: str) -> list[str]:
        return [n["text"] for n in self.all(id=id)]

    def activity(self) -> str:
        return self.device.app_current().activity

    # -- acting ------------------------------------------------------------------------------------
    def tap(self, **criteria) -> AdbUI:
        self.device.click(*centre(self.one(**criteria)))
        return self

    def long_press(self, **criteria) -> AdbUI:
        x, y = centre(self.one(**criteria))
        self.sh(f"input swipe {x} {y} {x} {y} 1000")
        return self

    def type(self, text: str, **criteria) -> AdbUI:
        if criteria:
            self.tap(**criteria)
        self.device.send_keys(text)
        return self

    def replace(self, text: str, **criteria) -> AdbUI:
        """Tap the field, delete what it holds (END, then DEL per character), type `text`."""
        old = self.one(**criteria)["text"]
        self.tap(**criteria)
        self.sh("input keyevent MOVE_END " + " ".join(["DEL"] * len(old)))
        self.device.send_keys(text)
        return self

    def key(self, name: str) -> AdbUI:
        self.sh(f"input keyevent {name}")
        return self


class EventSink:
    """The host end of `adb reverse tcp:8888 tcp:PORT`: reads JSON lines, with a bound on waiting."""

    def __init__(self, device) -> None:
        self.device = device
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen()
        self.server.settimeout(15)
        self.port = self.server.getsockname()[1]
        self.conn = None
        self.buffer = b""
        device.reverse("tcp:8888", f"tcp:{self.port}")

    def wait_for(self, predicate, limit: int = 300) -> dict:
        seen = []
        for _ in range(limit):
            if self.conn is None:
                self.conn, _ = self.server.accept()
                self.conn.settimeout(15)
            while b"\n" not in self.buffer:
                chunk = self.conn.recv(65536)
                if not chunk:
                    raise AssertionError(f"event stream closed; saw {seen}")
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\n", 1)
            event = json.loads(line)
            if predicate(event):
                return event
            seen.append(event)
        raise AssertionError(f"no matching event; saw {seen}")

    def close(self) -> None:
        self.device.reverse_remove_all()
        for sock in (self.conn, self.server):
            if sock is not None:
                sock.close()
