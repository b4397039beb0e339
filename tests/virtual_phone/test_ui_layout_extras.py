"""Toolkit layout: a too-tall dialog keeps its buttons on screen (its content scrolls, as in an
AlertDialog); a list with bottom gravity stacks short content at its bottom."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from pytest_mobileagent.virtual_phone.framework.app import Activity, App, Dialog
from pytest_mobileagent.virtual_phone.apps.system.launcher import Launcher
from pytest_mobileagent.virtual_phone.framework.system import AndroidSystem
from pytest_mobileagent.virtual_phone.kernel.clock import PhoneClock
from pytest_mobileagent.virtual_phone.framework.ui.views import WRAP, Button, CheckBox, Column, ScrollView, View

PKG = "com.example.longdialog"


class Main(Activity):
    name = f"{PKG}.Main"

    def build(self) -> View:
        return Column(Button("Open", "open", on_click=self.open))

    def open(self) -> None:
        self.show_dialog(Dialog("Pick", body=lambda: ScrollView(
            Column(*[CheckBox(f"Item {i}", f"item_{i}") for i in range(40)]), id="list", height=WRAP),
            positive=("OK", lambda d: self.data.confirmed.append(True)), negative="Cancel"))


class LongDialogApp(App):
    package = PKG
    label = "Long dialog"
    activities = (Main,)

    def new_data(self):
        from types import SimpleNamespace
        return SimpleNamespace(confirmed=[])


def _nodes(system) -> dict[str, dict]:
    return {n.get("resource-id").split("/")[-1]: dict(n.attrib)
            for n in ET.fromstring(system.dump_xml().encode()).iter("node") if n.get("resource-id")}


def _centre(node) -> tuple[int, int]:
    x1, y1, x2, y2 = (int(v) for v in node["bounds"].replace("][", ",").strip("[]").split(","))
    return (x1 + x2) // 2, (y1 + y2) // 2


def test_buttons_of_a_too_tall_dialog_stay_on_screen_and_the_content_scrolls():
    system = AndroidSystem(clock=PhoneClock(0), apps=[Launcher, LongDialogApp])
    system.start_activity(PKG)
    system.tap(*_centre(_nodes(system)["open"]))
    nodes = _nodes(system)
    assert {"dialog_title_textview", "button1", "button2"} <= set(nodes)
    assert nodes["list"]["scrollable"] == "true"
    assert "item_39" not in nodes                       # below the fold, reachable by scrolling
    for _ in range(8):
        system.swipe(540, 1500, 540, 300, 300)
    assert "item_39" in _nodes(system) and "button1" in _nodes(system)
    system.tap(*_centre(_nodes(system)["button1"]))
    assert system.app(PKG).data.confirmed == [True]


def test_a_list_with_bottom_gravity_stacks_short_content_at_its_bottom():
    from pytest_mobileagent.virtual_phone.framework.ui.views import MATCH, RecyclerView, TextView

    top = RecyclerView(TextView("a", "row"), height=MATCH)
    bottom = RecyclerView(TextView("a", "row"), height=MATCH, gravity="bottom")
    for view in (top, bottom):
        view.measure(1080, 1000, exact_w=1080, exact_h=1000)
        view.place(0, 0, (0, 0, 1080, 1000))
    assert top.children[0].rect[1] == 0
    assert bottom.children[0].rect[3] == 1000
