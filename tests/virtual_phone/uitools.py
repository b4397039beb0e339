"""Helpers for UI tests: read a dump like an agent does and tap what it finds.

Views are located in the *dumped XML* (by resource-id, text, content-desc or
class) and tapped at the centre of their bounds, so tests exercise the same
path as an agent: dump -> pick a node -> tap coordinates -> hit-testing.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")


def nodes(xml: str) -> list[dict]:
    """Every <node> of a dump as its attribute dict (document order)."""
    root = ET.fromstring(xml.encode("utf-8"))
    return [dict(node.attrib) for node in root.iter("node")]


def bounds(node: dict) -> tuple[int, int, int, int]:
    match = _BOUNDS.fullmatch(node["bounds"])
    assert match, node["bounds"]
    return tuple(int(v) for v in match.groups())  # type: ignore[return-value]


def centre(node: dict) -> tuple[int, int]:
    left, top, right, bottom = bounds(node)
    return (left + right) // 2, (top + bottom) // 2


def matches(node: dict, id: str | None, text: str | None, desc: str | None, cls: str | None) -> bool:
    """Whether a dumped node has the given full or short resource-id, text, content-desc and class."""
    if id is not None and not (node["resource-id"] == id or node["resource-id"].endswith(":id/" + id)):
        return False
    if text is not None and node["text"] != text:
        return False
    if desc is not None and node["content-desc"] != desc:
        return False
    if cls is not None and node["class"] != cls:
        return False
    return True


def find_all(xml: str, *, id: str | None = None, text: str | None = None, desc: str | None = None,
             cls: str | None = None) -> list[dict]:
    return [n for n in nodes(xml) if matches(n, id, text, desc, cls)]


def find(xml: str, **kw) -> dict:
    found = find_all(xml, **kw)
    assert found, f"no node with {kw} in the dump; texts: {texts(xml)}"
    return found[0]


def texts(xml: str) -> list[str]:
    return [n["text"] for n in nodes(xml) if n["text"]]


def text_of(system, id: str) -> str:
    return find(system.dump_xml(), id=id)["text"]


def tap(system, **kw) -> dict:
    """Tap the centre of the first node matching `kw` in the system's current dump."""
    node = find(system.dump_xml(), **kw)
    system.tap(*centre(node))
    return node


def long_press(system, **kw) -> dict:
    node = find(system.dump_xml(), **kw)
    system.long_press(*centre(node))
    return node


# -- through adb: a device (adbutils' AdbDevice) dumped and tapped as a client does ------------


def dumped(device) -> list[dict]:
    """Every node of the device's `uiautomator dump`, as attribute dicts."""
    return nodes(device.dump_hierarchy())


def find_on(device, **criteria) -> dict | None:
    """The first dumped node whose attributes equal ``criteria`` (``id`` and ``desc`` are shorthands)."""
    wanted = {{"id": "resource-id", "desc": "content-desc"}.get(k, k): v for k, v in criteria.items()}
    for node in dumped(device):
        if all(node.get(k) == v for k, v in wanted.items()):
            return node
    return None


def tap_on(device, **criteria) -> None:
    """``input tap`` at the centre of the node ``find_on`` finds; fails naming what the screen shows."""
    node = find_on(device, **criteria)
    shown = [n.get("resource-id") or n.get("text") for n in dumped(device)]
    assert node is not None, f"no {criteria} on screen: {shown}"
    device.shell("input tap {} {}".format(*centre(node)))


def add_text_note(device, title: str, text: str) -> None:
    """Notes (cleared by the caller) opened, a text note ``title`` added and ``text`` typed into it
    (``input text``: %s is a space), the soft keyboard then hidden."""
    notes = "com.simplemobiletools.notes.pro"
    device.shell(f"am start -W -n {notes}/.activities.MainActivity")
    tap_on(device, **{"resource-id": f"{notes}:id/new_note"})
    device.shell(f"input text {title}")
    tap_on(device, **{"resource-id": "android:id/button1"})
    device.shell(f"input text {text}")
    if "mInputShown=true" in device.shell("dumpsys input_method"):
        device.shell("input keyevent BACK")


CALC = "com.simplemobiletools.calculator"
BUTTON = "android.widget.Button"


def press_keys(system, keys: str) -> None:
    """Tap calculator buttons by their text, one character each."""
    for key in keys:
        tap(system, text=key, cls=BUTTON)


# ---------------------------------------------------------------------------
# A demo app declared through the documented app-model API, using most widgets.

def demo_apps():
    """[Launcher, DemoApp]: a registry for AndroidSystem(apps=...)."""
    from types import SimpleNamespace

    from pytest_mobileagent.virtual_phone.apps.commons.commons_app import CommonsApp
    from pytest_mobileagent.virtual_phone.framework.app import Activity, Dialog
    from pytest_mobileagent.virtual_phone.apps.system.launcher import Launcher
    from pytest_mobileagent.virtual_phone.framework.ui.views import (
        MATCH, CheckBox, Column, EditText, FloatingActionButton, FrameLayout, LinearLayout, MenuItem,
        RadioButton, RadioGroup, RecyclerView, Switch, TabLayout, TextView, dp)

    class ListActivity(Activity):
        name = "com.example.demo.ListActivity"
        title = "Items"

        def build(self):
            return Column(
                self.toolbar("list_toolbar", title="Items", back=True),
                RecyclerView(*[TextView(f"Item {i}", "item_title", width=MATCH, height=dp(60), key=f"i{i}",
                                        on_click=lambda i=i: self.data.opened.append(i))
                               for i in range(40)], id="items_list", weight=1),
                height=MATCH)

    class MainActivity(Activity):
        name = "com.example.demo.MainActivity"

        def on_create(self):
            self.tab = 0

        def build(self):
            data = self.data
            return FrameLayout(
                Column(
                    self.toolbar("main_toolbar", title="Demo", items=[
                        MenuItem("Search", lambda: data.log.append("search"), id="search", icon="search",
                                 show="always"),
                        MenuItem("Open list", lambda: self.start(ListActivity)),
                        MenuItem("About", lambda: self.start(
                            "com.simplemobiletools.commons.activities.AboutActivity")),
                    ]),
                    TabLayout("tabs", tabs=["One", "Two"], selected=self.tab,
                              on_select=lambda i: setattr(self, "tab", i)),
                    EditText(data.title, "title_field", hint="Title",
                             on_text_changed=lambda t: setattr(data, "title", t),
                             on_ime_action=lambda: data.log.append("ime")),
                    EditText("", "body_field", hint="Body", single_line=False),
                    CheckBox("Remember", "remember"),
                    Switch("Dark mode", "dark", checked=data.dark, on_checked_change=lambda v: setattr(data, "dark", v)),
                    RadioGroup(RadioButton("Small", "size_small"), RadioButton("Large", "size_large"),
                               id="size", checked_index=0),
                    LinearLayout(
                        TextView("Tiny", "tiny", width=dp(40), height=dp(20),
                                 touch_extend=(dp(20), dp(20), dp(20), dp(20)),
                                 on_click=lambda: data.log.append("tiny")),
                        orientation="horizontal", height=dp(80), gravity="center", important=False),
                    TextView(f"Tab {self.tab + 1}: {data.title}", "status", width=MATCH),
                    TextView("Hold me", "holder", on_long_click=lambda: data.log.append("long"),
                             on_click=lambda: data.log.append("short"), width=MATCH, height=dp(56)),
                    height=MATCH),
                FloatingActionButton("fab", desc="Add", on_click=self.ask),
                height=MATCH, class_name="android.view.ViewGroup", id="main_coordinator")

        def ask(self):
            self.show_dialog(Dialog(
                "New item", body=lambda: EditText("", "item_name", hint="Name", autofocus=True),
                positive=("OK", lambda d: self.data.items.append(d.find("item_name").text)
                          if d.find("item_name").text else False),
                negative="Cancel"))

    class DemoApp(CommonsApp):  # with Simple-Commons' About screen
        package = "com.example.demo"
        label = "Demo"
        activities = (MainActivity, ListActivity)

        def new_data(self):
            return SimpleNamespace(title="", dark=False, log=[], items=[], opened=[])

    return [Launcher, DemoApp]


DEMO = "com.example.demo"


def demo_system(events=None):
    from pytest_mobileagent.virtual_phone.framework.system import AndroidSystem
    from pytest_mobileagent.virtual_phone.kernel.clock import PhoneClock

    system = AndroidSystem(clock=PhoneClock(1_700_000_000_000),
                           emit_event=(events.append if events is not None else None), apps=demo_apps())
    system.start_activity(DEMO)
    return system
