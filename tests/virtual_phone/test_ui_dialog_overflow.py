"""A dialog whose custom view is taller than the screen keeps its title and
buttons on screen and scrolls the custom view, as AlertController does."""

from __future__ import annotations

import re

from uitools import find

from pytest_mobileagent.virtual_phone.framework.app import Activity, App, Dialog
from pytest_mobileagent.virtual_phone.apps.system.launcher import Launcher
from pytest_mobileagent.virtual_phone.framework.system import AndroidSystem
from pytest_mobileagent.virtual_phone.kernel.clock import PhoneClock
from pytest_mobileagent.virtual_phone.framework.ui.views import WRAP, RecyclerView, TextView, dp


def _bounds(node) -> tuple[int, int, int, int]:
    return tuple(int(v) for v in re.findall(r"-?\d+", node["bounds"]))


class _Main(Activity):
    name = "com.example.tall.MainActivity"

    def build(self):
        return TextView("main", "main")

    def show(self, rows: int) -> None:
        self.show_dialog(Dialog("Pick", body=lambda: RecyclerView(
            *[TextView(f"row {i}", "row", key=str(i), height=dp(56)) for i in range(rows)],
            id="rows", height=WRAP), positive="OK", negative="Cancel"))


class _TallApp(App):
    package = "com.example.tall"
    label = "Tall"
    activities = (_Main,)


def _dialog(rows: int) -> str:
    system = AndroidSystem(clock=PhoneClock(0), apps=[Launcher, _TallApp])
    system.start_activity(_TallApp.package)
    system._front_activity().show(rows)
    system._refresh()
    return system.dump_xml()


def test_a_tall_list_scrolls_between_the_title_and_the_buttons():
    xml = _dialog(60)
    ok, cancel, title = find(xml, id="android:id/button1"), find(xml, id="android:id/button2"), \
        find(xml, text="Pick")
    rows = find(xml, id="com.example.tall:id/rows")
    assert _bounds(ok)[3] <= 2340 and _bounds(cancel)[3] <= 2340
    assert _bounds(title)[1] < _bounds(rows)[1] and _bounds(rows)[3] <= _bounds(ok)[1]
    assert rows["scrollable"] == "true"


def test_a_short_list_keeps_its_natural_height():
    xml = _dialog(3)
    rows = find(xml, id="com.example.tall:id/rows")
    top, bottom = _bounds(rows)[1], _bounds(rows)[3]
    assert bottom - top == 3 * dp(56)
