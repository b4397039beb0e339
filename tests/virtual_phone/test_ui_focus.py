"""Focus requests: an app focuses a view it is creating (View.requestFocus)."""

from __future__ import annotations

from types import SimpleNamespace

from uitools import find, find_all, tap

from pytest_mobileagent.virtual_phone.framework.app import Activity, App, Dialog
from pytest_mobileagent.virtual_phone.apps.system.launcher import Launcher
from pytest_mobileagent.virtual_phone.framework.system import AndroidSystem
from pytest_mobileagent.virtual_phone.kernel.clock import PhoneClock
from pytest_mobileagent.virtual_phone.framework.ui.views import MATCH, Button, Column, EditText

PKG = "com.example.fields"


class FieldsActivity(Activity):
    name = f"{PKG}.MainActivity"

    def build(self):
        rows = [EditText("", "row_field", key=f"row-{i}", hint=f"Row {i}") for i in self.data.rows]
        return Column(Button("Add row", "add_row", on_click=self.add_row),
                      Button("Focus nothing", "focus_missing", on_click=lambda: self.request_focus("no_such_view")),
                      Button("Dialog", "open_dialog", on_click=self.open_dialog),
                      *rows, height=MATCH)

    def add_row(self):
        self.data.rows.append(len(self.data.rows))
        self.request_focus("row_field", key=f"row-{self.data.rows[-1]}")

    def open_dialog(self):
        fields = [0]

        def more():
            fields.append(len(fields))
            dialog.window.request_focus("dialog_field", key=f"d-{fields[-1]}")

        dialog = self.show_dialog(Dialog("Fields", body=lambda: Column(*[
            EditText("", "dialog_field", key=f"d-{i}", autofocus=i == 0, on_ime_action=more) for i in fields])))


class FieldsApp(App):
    package = PKG
    label = "Fields"
    activities = (FieldsActivity,)

    def new_data(self):
        return SimpleNamespace(rows=[])


def _system():
    system = AndroidSystem(clock=PhoneClock(1_700_000_000_000), apps=[Launcher, FieldsApp])
    system.start_activity(PKG)
    return system


def _focused(system):
    return [n for n in find_all(system.dump_xml(), cls="android.widget.EditText") if n["focused"] == "true"]


def test_a_requested_view_is_focused_once_built_and_receives_typing():
    system = _system()
    tap(system, id="add_row")
    tap(system, id="add_row")
    focused = _focused(system)
    assert [n["text"] for n in focused] == ["Row 1"]  # the new (second) row, by key
    system.input_text("second")
    rows = find_all(system.dump_xml(), id="row_field")
    assert [n["text"] for n in rows] == ["Row 0", "second"]


def test_a_request_no_view_answers_is_dropped_and_focus_stays():
    system = _system()
    tap(system, id="add_row")
    tap(system, id="focus_missing")
    assert [n["text"] for n in _focused(system)] == ["Row 0"]
    tap(system, id="add_row")  # the dropped request does not come back later
    assert [n["text"] for n in _focused(system)] == ["Row 1"]


def test_a_dialog_field_takes_focus_through_its_window():
    system = _system()
    tap(system, id="open_dialog")
    assert find(system.dump_xml(), id="dialog_field")["focused"] == "true"
    system.key("ENTER")  # the ime action adds a field and asks focus for it
    fields = find_all(system.dump_xml(), id="dialog_field")
    assert [n["focused"] for n in fields] == ["false", "true"]
