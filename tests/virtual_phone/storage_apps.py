"""Driving the File Manager and the Gallery through the real adb server, as an agent does.

`AdbUI` dumps with uiautomator, taps the centre of a node it finds, types with
`input text`, long-presses with a motionless `input swipe`; the phone's
accessibility events are collected in-process (their delivery from the
listener's socket is tested in test_phone_events.py).
"""

from __future__ import annotations

from pathlib import Path

from uitools import centre, find, find_all, texts

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SCAN = "am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file://"


class AdbUI:
    def __init__(self, device, phone, package: str):
        self.d, self.phone, self.package = device, phone, package
        self.events: list[dict] = []
        phone.phone.add_event_sink(self.events.append)

    def close(self) -> None:
        self.phone.phone.remove_event_sink(self.events.append)

    def sh(self, cmd: str) -> str:
        return self.d.shell(cmd)

    def seed(self, folder: str, files: dict[str, str], times: dict[str, str] | None = None) -> None:
        """Empty `folder`, push fixtures under new names (sync SEND), date them, scan the folder."""
        self.sh(f"rm -rf {folder}; mkdir -p {folder}")
        for name, fixture in files.items():
            self.d.sync.push((FIXTURES / fixture).read_bytes(), f"{folder}/{name}")
            if times and name in times:
                self.sh(f"touch -d '{times[name]}' {folder}/{name}")
        self.sh(SCAN + folder)

    def start(self) -> "AdbUI":
        self.sh(f"pm clear {self.package}")
        self.sh(f"monkey -p {self.package} -c android.intent.category.LAUNCHER 1")
        self.events.clear()
        return self

    def dump(self) -> str:
        return self.d.dump_hierarchy()

    def texts(self) -> list[str]:
        return texts(self.dump())

    def exists(self, **kw) -> bool:
        return bool(find_all(self.dump(), **kw))

    def node(self, **kw) -> dict:
        return find(self.dump(), **kw)

    def tap(self, **kw) -> "AdbUI":
        self.d.click(*centre(self.node(**kw)))
        return self

    def long_press(self, **kw) -> "AdbUI":
        x, y = centre(self.node(**kw))
        self.sh(f"input swipe {x} {y} {x} {y} 1000")
        return self

    def type(self, text: str) -> "AdbUI":
        self.d.send_keys(text)
        return self

    def back(self) -> "AdbUI":
        self.d.keyevent("BACK")
        return self

    def menu(self, title: str) -> "AdbUI":
        return self.tap(desc="More options").tap(text=title)

    def activity(self) -> str:
        return self.d.app_current().activity

    def clicks(self) -> list[dict]:
        return [e for e in self.events if e["type"] == "click"]

    def windows(self) -> list[dict]:
        return [e for e in self.events if e["type"] == "window_state"]
